/* The platform layer (src/core/platform.h) and the file functions built on
 * it, on the system the test runs on: natively in ctest, and built for
 * Windows and run under wine by tests/windows/run.sh (docs/platform.md).
 * Names in several scripts written, listed, read, mapped and replaced; a
 * path longer than Windows' old 260-character limit; a read-only folder as
 * output; a FIFO or named pipe refused; a stale temporary of a dead process
 * removed; threads and a mutex; path syntax; a folder's file resolved as a
 * server hands it out (ferry_folder_resolve). What the systems do
 * differently (a file open elsewhere, case, separators) is checked on each. */
#ifdef _WIN32
#define _WIN32_WINNT 0x0A00
#define WIN32_LEAN_AND_MEAN
#include <windows.h>
#include <sddl.h>
#else
#define _GNU_SOURCE
#include <errno.h>
#include <grp.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#endif

#include <ferry/ferry.h>

#include <stdint.h>
#include <time.h>

#include "core/platform.h"
#include "test.h"

static char root[1024]; /* this run's folder */

static void path_of(char *out, size_t cap, const char *folder, const char *name)
{
    int n = fy_path_join(out, cap, folder, name);
    if (n < 0 || (size_t)n >= cap) {
        fprintf(stderr, "path too long: %s + %s\n", folder, name);
        exit(1);
    }
}

static bool loads_as(const char *path, const char *text)
{
    uint8_t *data;
    size_t size;
    ferry_error err;
    if (ferry_file_load(path, 0, &data, &size, &err) != FERRY_OK) {
        fprintf(stderr, "  load: %s\n", err.message);
        return false;
    }
    bool same = size == strlen(text) && memcmp(data, text, size) == 0;
    ferry_file_free(data);
    return same;
}

static bool maps_as(const char *path, const char *text)
{
    ferry_file_mapping map;
    ferry_error err;
    if (ferry_file_map(path, 0, &map, &err) != FERRY_OK) {
        fprintf(stderr, "  map: %s\n", err.message);
        return false;
    }
    bool same = map.size == strlen(text) && memcmp(map.data, text, map.size) == 0;
    ferry_file_unmap(&map);
    return same;
}

static bool write_text(const char *path, const char *text)
{
    ferry_error err;
    if (ferry_file_write(path, text, strlen(text), NULL, &err) == FERRY_OK) return true;
    fprintf(stderr, "  write: %s\n", err.message);
    return false;
}

/* Names in a folder (not "." or ".."), each with its kind. */
typedef struct listing {
    char names[32][256];
    fy_file_kind kinds[32];
    size_t count;
    bool temporaries; /* a .ferry-tmp- name seen */
} listing;

static bool list(const char *folder, listing *l)
{
    memset(l, 0, sizeof *l);
    fy_folder *d;
    if (fy_folder_open(folder, &d) != 0) return false;
    const char *name;
    fy_file_kind kind;
    while (fy_folder_next(d, &name, &kind)) {
        if (kind == FY_KIND_UNKNOWN) {
            fy_file_info info;
            if (fy_folder_entry_info(d, name, false, &info) == 0) kind = info.kind;
        }
        l->temporaries |= strstr(name, ".ferry-tmp-") != NULL;
        if (l->count < 32 && strlen(name) < 256) {
            strcpy(l->names[l->count], name);
            l->kinds[l->count] = kind;
        }
        l->count++;
    }
    fy_folder_close(d);
    return true;
}

static int listed(const listing *l, const char *name, fy_file_kind kind)
{
    int n = 0;
    for (size_t i = 0; i < l->count && i < 32; i++) n += strcmp(l->names[i], name) == 0 && l->kinds[i] == kind;
    return n;
}

static void remove_tree(const char *path)
{
    fy_file_info info;
    if (fy_path_info(path, false, &info) != 0) return;
    if (info.kind != FY_KIND_FOLDER) {
        fy_file_remove(path);
        return;
    }
    fy_folder *d;
    if (fy_folder_open(path, &d) == 0) {
        const char *name;
        fy_file_kind kind;
        char names[64][256];
        size_t n = 0;
        while (n < 64 && fy_folder_next(d, &name, &kind))
            if (strlen(name) < 256) strcpy(names[n++], name);
        fy_folder_close(d);
        for (size_t i = 0; i < n; i++) {
            char sub[2048];
            path_of(sub, sizeof sub, path, names[i]);
            remove_tree(sub);
        }
    }
    fy_folder_remove(path);
}

/* ---- what the test does by system ---- */

#ifdef _WIN32
static wchar_t *wide(const char *s)
{
    int n = MultiByteToWideChar(CP_UTF8, 0, s, -1, NULL, 0);
    wchar_t *w = malloc((size_t)n * sizeof *w);
    MultiByteToWideChar(CP_UTF8, 0, s, -1, w, n);
    return w;
}

static void temp_base(char *out, size_t cap)
{
    wchar_t w[MAX_PATH + 1];
    DWORD n = GetTempPathW(MAX_PATH + 1, w);
    if (n && w[n - 1] == L'\\') w[n - 1] = 0;
    WideCharToMultiByte(CP_UTF8, 0, w, -1, out, (int)cap, NULL, NULL);
}

/* Read-only for this account: a deny entry for adding files (what stops
 * Windows; its read-only attribute means nothing on a folder) and the
 * attribute (what wine turns into the Unix folder's mode). */
static PSECURITY_DESCRIPTOR saved_sd;
static void make_read_only(const char *folder)
{
    wchar_t *w = wide(folder);
    DWORD n = 0;
    GetFileSecurityW(w, DACL_SECURITY_INFORMATION, NULL, 0, &n);
    saved_sd = n ? malloc(n) : NULL;
    if (saved_sd && !GetFileSecurityW(w, DACL_SECURITY_INFORMATION, saved_sd, n, &n)) saved_sd = NULL;
    PSECURITY_DESCRIPTOR deny;
    /* Everyone: no adding files (0x2) or folders (0x4); all else allowed. */
    if (ConvertStringSecurityDescriptorToSecurityDescriptorW(L"D:(D;;0x6;;;WD)(A;OICI;FA;;;WD)", SDDL_REVISION_1,
                                                             &deny, NULL)) {
        SetFileSecurityW(w, DACL_SECURITY_INFORMATION, deny);
        LocalFree(deny);
    }
    SetFileAttributesW(w, FILE_ATTRIBUTE_READONLY);
    free(w);
}

static void make_writable(const char *folder)
{
    wchar_t *w = wide(folder);
    SetFileAttributesW(w, FILE_ATTRIBUTE_NORMAL);
    if (saved_sd) SetFileSecurityW(w, DACL_SECURITY_INFORMATION, saved_sd);
    free(saved_sd);
    saved_sd = NULL;
    free(w);
}

/* A process that has ended: this program started again, told to exit. */
static long dead_process(void)
{
    wchar_t self[MAX_PATH + 1], line[MAX_PATH + 32];
    GetModuleFileNameW(NULL, self, MAX_PATH + 1);
    swprintf(line, sizeof line / sizeof *line, L"\"%ls\" --exit", self);
    STARTUPINFOW si = {.cb = sizeof si};
    PROCESS_INFORMATION pi;
    if (!CreateProcessW(self, line, NULL, NULL, FALSE, 0, NULL, NULL, &si, &pi)) return -1;
    WaitForSingleObject(pi.hProcess, INFINITE);
    CloseHandle(pi.hThread);
    CloseHandle(pi.hProcess);
    return (long)pi.dwProcessId;
}
#else
static void temp_base(char *out, size_t cap)
{
    const char *t = getenv("TMPDIR");
    snprintf(out, cap, "%s", t && *t ? t : "/tmp");
}

static void make_read_only(const char *folder) { chmod(folder, 0555); }

static void make_writable(const char *folder) { chmod(folder, 0755); }

static long dead_process(void)
{
    pid_t pid = fork();
    if (pid == 0) _exit(0);
    if (pid < 0) return -1;
    int status;
    waitpid(pid, &status, 0); /* reaped: no process has this id now */
    return (long)pid;
}
#endif

/* ---- the cases ---- */

/* Names in Cyrillic, Greek and CJK, in a folder so named: created, listed,
 * read, mapped, and replaced in one step. */
static void test_names(void)
{
    static const char *const names[] = {"Привет, мир.bin", "Καλημέρα κόσμε.bin", "漢字かな交じり文.bin",
                                        "ünïcödé 表 ωμέγα.bin"};
    char folder[1024];
    path_of(folder, sizeof folder, root, "Папка 文件夹 Φάκελος");
    CHECK(fy_folder_make(folder) == 0);
    for (size_t i = 0; i < 4; i++) {
        char path[2048], first[64], second[64];
        path_of(path, sizeof path, folder, names[i]);
        snprintf(first, sizeof first, "first %zu", i);
        snprintf(second, sizeof second, "second, longer text %zu", i);
        CHECK_MSG(write_text(path, first), "%s", names[i]);
        CHECK_MSG(loads_as(path, first), "%s", names[i]);
        CHECK_MSG(maps_as(path, first), "%s", names[i]);
        fy_file_info info;
        CHECK(fy_path_info(path, true, &info) == 0 && info.kind == FY_KIND_REGULAR && info.size == strlen(first));
        CHECK_MSG(write_text(path, second), "replacing %s", names[i]);
        CHECK_MSG(loads_as(path, second), "%s", names[i]);
        CHECK_MSG(maps_as(path, second), "%s", names[i]);
    }
    listing l;
    CHECK(list(folder, &l));
    CHECK_EQ_U(l.count, 4);
    CHECK(!l.temporaries);
    for (size_t i = 0; i < 4; i++) CHECK_MSG(listed(&l, names[i], FY_KIND_REGULAR) == 1, "%s listed", names[i]);
    /* The same through a folder source rooted there. */
    ferry_file_source source;
    ferry_error err;
    CHECK(ferry_file_source_folder(folder, &source, &err) == FERRY_OK);
    uint8_t *data;
    size_t size;
    CHECK(ferry_file_source_load(&source, names[2], 0, &data, &size, &err) == FERRY_OK && size == strlen("second, longer text 2"));
    ferry_file_source_release(&source, data, size);
    char found[512];
    CHECK(ferry_file_source_find(&source, "", names[1], FERRY_ENTRY_FILE, found, sizeof found) && strcmp(found, names[1]) == 0);
    ferry_file_source_close(&source);
    /* The folder itself under its name. */
    CHECK(list(root, &l) && listed(&l, "Папка 文件夹 Φάκελος", FY_KIND_FOLDER) == 1);
}

/* A path longer than 260 characters: folders made, a file written, read,
 * mapped, listed, resolved. */
static void test_long_path(void)
{
    char path[2048];
    snprintf(path, sizeof path, "%s", root);
    for (int i = 0; i < 6; i++) {
        char part[80], next[2048];
        snprintf(part, sizeof part, "a folder with a long name, number %d, to pass the old limit", i);
        path_of(next, sizeof next, path, part);
        memcpy(path, next, sizeof path);
        CHECK_MSG(fy_folder_make(path) == 0, "%zu characters", strlen(path));
    }
    char file[2048];
    path_of(file, sizeof file, path, "deep.bin");
    CHECK_MSG(strlen(file) > 300, "%zu characters", strlen(file));
    CHECK(write_text(file, "deep down"));
    CHECK(loads_as(file, "deep down"));
    CHECK(maps_as(file, "deep down"));
    CHECK(write_text(file, "replaced deep down"));
    CHECK(loads_as(file, "replaced deep down"));
    listing l;
    CHECK(list(path, &l) && l.count == 1 && listed(&l, "deep.bin", FY_KIND_REGULAR) == 1);
    char *resolved = NULL;
    CHECK(fy_path_resolve(file, &resolved) == 0 && resolved && fy_same_file(resolved, file));
    free(resolved);
    size_t removed = 9;
    ferry_error err;
    CHECK(ferry_file_remove_stale_temporaries(path, &removed, &err) == FERRY_OK && removed == 0);
    printf("  long path: %zu characters\n", strlen(file));
}

/* Writing into a folder this account may not write to: a clear error
 * naming the target, nothing left behind. */
static bool read_only_case(const char *folder)
{
    int before = test_checks_failed;
    char target[2048], probe[2048];
    path_of(target, sizeof target, folder, "out.glb");
    path_of(probe, sizeof probe, folder, "probe.bin");
    ferry_error err;
    if (ferry_file_write(probe, "x", 1, NULL, &err) == FERRY_OK) {
        /* An account no folder is closed to (root; wine run as root). */
        printf("  read-only folder: NOT CHECKED: this account writes into a read-only folder\n");
        fy_file_remove(probe);
        return true;
    }
    CHECK(ferry_file_write(target, "x", 1, NULL, &err) == FERRY_ERR_IO);
    CHECK_MSG(strstr(err.message, "cannot create a temporary file beside") && strstr(err.message, target), "%s",
              err.message);
    printf("  read-only folder: %s\n", err.message);
    listing l;
    CHECK(list(folder, &l) && l.count == 0);
    return test_checks_failed == before;
}

static void test_read_only_folder(void)
{
    char folder[1024];
    path_of(folder, sizeof folder, root, "read-only");
    CHECK(fy_folder_make(folder) == 0);
    make_read_only(folder);
#ifdef _WIN32
    read_only_case(folder);
#else
    /* Root writes anywhere: the case runs in a child as nobody. */
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        if (geteuid() == 0 && (setgroups(0, NULL) != 0 || setgid(65534) != 0 || setuid(65534) != 0)) _exit(3);
        bool ok = read_only_case(folder);
        fflush(stdout);
        _exit(ok ? 0 : 1);
    }
    int status = -1;
    CHECK(pid > 0 && waitpid(pid, &status, 0) == pid);
    CHECK_MSG(WIFEXITED(status) && WEXITSTATUS(status) == 0, "child status %d", status);
#endif
    make_writable(folder);
}

/* Kinds that are never opened: no read may block on them. */
static void test_not_regular(void)
{
    uint8_t *data;
    size_t size;
    ferry_error err;
    char fifo[1024];
#ifdef _WIN32
    snprintf(fifo, sizeof fifo, "\\\\.\\pipe\\ferry-test-%ld", fy_process_id());
    wchar_t *w = wide(fifo);
    HANDLE server = CreateNamedPipeW(w, PIPE_ACCESS_INBOUND, PIPE_TYPE_BYTE | PIPE_WAIT, 1, 0, 0, 0, NULL);
    free(w);
    CHECK(server != INVALID_HANDLE_VALUE);
    const char *device = "NUL";
#else
    path_of(fifo, sizeof fifo, root, "pipe.alo");
    CHECK(mkfifo(fifo, 0644) == 0);
    const char *device = "/dev/null";
#endif
    CHECK(ferry_file_load(fifo, 0, &data, &size, &err) == FERRY_ERR_IO);
    CHECK_MSG(strstr(err.message, "is a FIFO (named pipe), not a regular file"), "%s", err.message);
    printf("  FIFO: %s\n", err.message);
    uint8_t head[16];
    size_t got = 9;
    CHECK(ferry_file_read_head(fifo, head, sizeof head, &got, NULL, &err) == FERRY_ERR_IO && got == 0);
    CHECK(ferry_file_load(device, 0, &data, &size, &err) == FERRY_ERR_IO);
    CHECK_MSG(strstr(err.message, "is a character device"), "%s", err.message);
    CHECK(ferry_file_load(root, 0, &data, &size, &err) == FERRY_ERR_IO);
    CHECK_MSG(strstr(err.message, "is a folder"), "%s", err.message);
    char missing[1024];
    path_of(missing, sizeof missing, root, "missing.bin");
    CHECK(ferry_file_load(missing, 0, &data, &size, &err) == FERRY_ERR_IO);
    CHECK_MSG(strstr(err.message, "cannot open ") && strstr(err.message, missing), "%s", err.message);
    fy_file_info info;
    int code = fy_path_info(missing, true, &info);
    CHECK(code != 0 && fy_sys_not_found(code));
#ifdef _WIN32
    CloseHandle(server);
#else
    listing l;
    CHECK(list(root, &l) && listed(&l, "pipe.alo", FY_KIND_FIFO) == 1);
    fy_file_remove(fifo);
#endif
}

/* ferry_folder_resolve: plain names inside the folder only; a link leading
 * out (POSIX), a hidden name, "..", a folder and a missing file refused. */
static void test_folder_resolve(void)
{
    char folder[1024], sub[1024], file[1024], hidden[1024], resolved[4096];
    path_of(folder, sizeof folder, root, "served");
    path_of(sub, sizeof sub, folder, "sub");
    CHECK(fy_folder_make(folder) == 0 && fy_folder_make(sub) == 0);
    path_of(file, sizeof file, sub, "a.alo");
    path_of(hidden, sizeof hidden, folder, ".secret");
    CHECK(write_text(file, "a") && write_text(hidden, "s"));
    ferry_error err;
    CHECK(ferry_folder_resolve(folder, "sub/a.alo", resolved, sizeof resolved, &err) == FERRY_OK);
    char *expected = NULL;
    CHECK(fy_path_resolve(file, &expected) == 0);
    CHECK_MSG(expected && strcmp(resolved, expected) == 0, "%s vs %s", resolved, expected ? expected : "");
    free(expected);
    CHECK(ferry_folder_resolve(folder, "sub/a.alo", resolved, 4, &err) == FERRY_ERR_LIMIT);
    static const char *const refused[] = {"", ".secret", "sub/../sub/a.alo", "../served/sub/a.alo", "./sub/a.alo",
                                          "sub//a.alo", "/sub/a.alo", "sub\\a.alo", "sub/.a.alo"};
    for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++)
        CHECK_MSG(ferry_folder_resolve(folder, refused[i], resolved, sizeof resolved, &err) == FERRY_ERR_ARGUMENT &&
                      resolved[0] == '\0',
                  "'%s' not refused", refused[i]);
    CHECK(ferry_folder_resolve(folder, "sub", resolved, sizeof resolved, &err) == FERRY_ERR_IO); /* a folder */
    CHECK_MSG(strstr(err.message, "is a folder"), "%s", err.message);
    CHECK(ferry_folder_resolve(folder, "sub/missing.alo", resolved, sizeof resolved, &err) == FERRY_ERR_IO);
#ifndef _WIN32
    /* A link inside the folder to a file inside is followed; one to a file
     * outside (the folder's own parent) is refused. */
    char inside[1024], outside[1024], target[1024];
    path_of(inside, sizeof inside, folder, "in.alo");
    path_of(outside, sizeof outside, folder, "out.alo");
    path_of(target, sizeof target, root, "beside.alo");
    CHECK(write_text(target, "b"));
    CHECK(symlink("sub/a.alo", inside) == 0 && symlink(target, outside) == 0);
    CHECK(ferry_folder_resolve(folder, "in.alo", resolved, sizeof resolved, &err) == FERRY_OK &&
          strstr(resolved, "sub/a.alo"));
    CHECK(ferry_folder_resolve(folder, "out.alo", resolved, sizeof resolved, &err) == FERRY_ERR_ARGUMENT);
    CHECK_MSG(strstr(err.message, "leads out of the folder"), "%s", err.message);
    /* The root folder holds everything (a temporary folder of no hidden name). */
    if (!strstr(file, "/."))
        CHECK(ferry_folder_resolve("/", file + 1, resolved, sizeof resolved, &err) == FERRY_OK);
#endif
}

/* A temporary of a writer that no longer runs goes; this process's, and a
 * folder of that name, stay. */
static void test_stale_temporary(void)
{
    char folder[1024];
    path_of(folder, sizeof folder, root, "stale");
    CHECK(fy_folder_make(folder) == 0);
    long dead = dead_process(), self = fy_process_id();
    CHECK(dead > 0 && dead != self);
    CHECK(!fy_process_may_run(dead));
    CHECK(fy_process_may_run(self));
    char name[128], stale[2048], live[2048], sub[2048];
    snprintf(name, sizeof name, "a.glb.ferry-tmp-%ld-Ab12Cd", dead);
    path_of(stale, sizeof stale, folder, name);
    snprintf(name, sizeof name, "b.glb.ferry-tmp-%ld-Ab12Cd", self);
    path_of(live, sizeof live, folder, name);
    snprintf(name, sizeof name, "c.glb.ferry-tmp-%ld-Ab12Cd", dead);
    path_of(sub, sizeof sub, folder, name);
    CHECK(write_text(stale, "left by a killed writer"));
    CHECK(write_text(live, "being written"));
    CHECK(fy_folder_make(sub) == 0);
    size_t removed = 0;
    ferry_error err;
    CHECK(ferry_file_remove_stale_temporaries(folder, &removed, &err) == FERRY_OK);
    CHECK_EQ_U(removed, 1);
    fy_file_info info;
    CHECK(fy_path_info(stale, false, &info) != 0);
    CHECK(fy_path_info(live, false, &info) == 0 && info.kind == FY_KIND_REGULAR);
    CHECK(fy_path_info(sub, false, &info) == 0 && info.kind == FY_KIND_FOLDER);
    char missing[1024];
    path_of(missing, sizeof missing, root, "no such folder");
    CHECK(ferry_file_remove_stale_temporaries(missing, &removed, &err) == FERRY_ERR_IO);
    CHECK_MSG(strstr(err.message, "cannot read the folder "), "%s", err.message);
}

/* A file held open by another handle while it is replaced. POSIX: the
 * holder keeps the old bytes, the name gets the new. Windows: a holder that
 * did not allow deleting blocks it, and the error says so. */
static void test_replace_held(void)
{
    char path[1024];
    path_of(path, sizeof path, root, "held.bin");
    CHECK(write_text(path, "old bytes"));
    ferry_error err;
#ifdef _WIN32
    wchar_t *w = wide(path);
    HANDLE h = CreateFileW(w, GENERIC_READ, FILE_SHARE_READ | FILE_SHARE_WRITE, NULL, OPEN_EXISTING, 0, NULL);
    free(w);
    CHECK(h != INVALID_HANDLE_VALUE);
    clock_t start = clock();
    CHECK(ferry_file_write(path, "new bytes", 9, NULL, &err) == FERRY_ERR_IO);
    double seconds = (double)(clock() - start) / CLOCKS_PER_SEC;
    CHECK_MSG(strstr(err.message, "the file is in use by another program") && strstr(err.message, path), "%s",
              err.message);
    printf("  held open: %s (after %.2f s of retries)\n", err.message, seconds);
    CloseHandle(h);
    CHECK(loads_as(path, "old bytes"));
    CHECK(write_text(path, "new bytes"));
#else
    fy_file held;
    fy_file_info info;
    CHECK(fy_file_open_read(path, &held, &info) == 0 && held.handle != -1);
    CHECK(ferry_file_write(path, "new bytes", 9, NULL, &err) == FERRY_OK);
    char old[16] = {0};
    size_t got = 0;
    CHECK(fy_file_read(held, old, sizeof old, &got) == 0 && got == 9 && memcmp(old, "old bytes", 9) == 0);
    fy_file_close(held);
#endif
    CHECK(loads_as(path, "new bytes"));
    listing l;
    CHECK(list(root, &l) && !l.temporaries);
}

/* Separators, drive letters, case and the input's protection. */
static void test_spellings(void)
{
    char path[1024], other[1024];
    path_of(path, sizeof path, root, "Spelled.bin");
    CHECK(write_text(path, "spelled"));
    ferry_error err;
#ifdef _WIN32
    /* '/' for every separator, the absolute form with its drive, the
     * \\?\ form and another case all name the same file. */
    snprintf(other, sizeof other, "%s", path);
    for (char *p = other; *p; p++)
        if (*p == '\\') *p = '/';
    CHECK_MSG(loads_as(other, "spelled"), "%s", other);
    char *absolute = NULL;
    CHECK(fy_path_resolve(other, &absolute) == 0 && absolute && absolute[1] == ':' && absolute[2] == '\\');
    if (absolute) {
        CHECK_MSG(loads_as(absolute, "spelled"), "%s", absolute);
        char verbatim[1100];
        snprintf(verbatim, sizeof verbatim, "\\\\?\\%s", absolute);
        CHECK_MSG(loads_as(verbatim, "spelled"), "%s", verbatim);
        printf("  resolved: %s\n", absolute);
    }
    free(absolute);
    path_of(other, sizeof other, root, "SPELLED.BIN");
    CHECK(fy_same_file(path, other));
    CHECK(ferry_file_write(other, "z", 1, &(ferry_write_options){.protect_input = path}, &err) == FERRY_ERR_ARGUMENT);
    CHECK(loads_as(path, "spelled"));
    /* A name that is not UTF-8 is refused, naming it. */
    path_of(other, sizeof other, root, "bad-\xff.bin");
    uint8_t *data;
    size_t size;
    CHECK(ferry_file_load(other, 0, &data, &size, &err) == FERRY_ERR_IO);
    CHECK_MSG(strstr(err.message, "the name is not valid UTF-8") && strstr(err.message, "bad-\xff.bin"), "%s",
              err.message);
    CHECK(ferry_file_write(other, "x", 1, NULL, &err) == FERRY_ERR_IO);
#else
    /* Names are bytes: another case is another file, and a name that is
     * not UTF-8 is a name like any other. */
    path_of(other, sizeof other, root, "SPELLED.BIN");
    CHECK(write_text(other, "other"));
    CHECK(!fy_same_file(path, other));
    CHECK(loads_as(path, "spelled"));
    path_of(other, sizeof other, root, "bad-\xff.bin");
    CHECK(write_text(other, "latin-1"));
    CHECK(loads_as(other, "latin-1"));
    listing l;
    CHECK(list(root, &l) && listed(&l, "bad-\xff.bin", FY_KIND_REGULAR) == 1);
    /* The input is protected through another spelling of its path. */
    path_of(other, sizeof other, root, "./Spelled.bin");
    CHECK(ferry_file_write(other, "z", 1, &(ferry_write_options){.protect_input = path}, &err) == FERRY_ERR_ARGUMENT);
    CHECK(loads_as(path, "spelled"));
#endif
}

/* Path syntax: what a model's folder and the folder above it are. */
static void test_syntax(void)
{
    char out[256];
#ifdef _WIN32
    CHECK_EQ_U(fy_path_name_offset("C:\\games\\x.alo"), 9);
    CHECK_EQ_U(fy_path_name_offset("C:/games/x.alo"), 9);
    CHECK_EQ_U(fy_path_name_offset("C:x.alo"), 2);
    CHECK_EQ_U(fy_path_name_offset("x.alo"), 0);
    static const char *const folders[][2] = {
        {"C:\\games\\x.alo", "C:\\games"}, {"C:\\x.alo", "C:\\"},   {"C:x.alo", "C:"},
        {"a/b\\x.alo", "a/b"},            {"\\x.alo", "\\"},       {"\\\\server\\share\\x.alo", "\\\\server\\share"},
        {"x.alo", "."},                    {"C:/x.alo", "C:/"}};
    static const char *const parents[][2] = {
        {"C:\\games", "C:\\games\\.."}, {"C:\\", "C:\\.."}, {"C:", "C:.."}, {"a/b", "a/b/.."}, {".", ".\\.."}};
    static const char *const joins[][3] = {
        {"C:\\games", "x", "C:\\games\\x"}, {"C:/games", "x", "C:/games/x"}, {"C:\\", "x", "C:\\x"}, {"C:", "x", "C:x"}};
#else
    CHECK_EQ_U(fy_path_name_offset("/games/x.alo"), 7);
    CHECK_EQ_U(fy_path_name_offset("games\\x.alo"), 0); /* a backslash is part of a POSIX name */
    static const char *const folders[][2] = {
        {"/games/x.alo", "/games"}, {"/x.alo", "/"}, {"x.alo", "."}, {"a/b/x.alo", "a/b"}, {"a//x.alo", "a/"}};
    static const char *const parents[][2] = {{"/games", "/games/.."}, {"/", "/.."}, {".", "./.."}, {"a/", "a//.."}};
    static const char *const joins[][3] = {{"/games", "x", "/games/x"}, {"/", "x", "//x"}, {"a/", "x", "a//x"}};
#endif
    for (size_t i = 0; i < sizeof folders / sizeof *folders; i++)
        CHECK_MSG(fy_path_folder(folders[i][0], out, sizeof out) && strcmp(out, folders[i][1]) == 0, "%s -> %s",
                  folders[i][0], out);
    for (size_t i = 0; i < sizeof parents / sizeof *parents; i++)
        CHECK_MSG(fy_path_parent(parents[i][0], out, sizeof out) && strcmp(out, parents[i][1]) == 0, "%s -> %s",
                  parents[i][0], out);
    for (size_t i = 0; i < sizeof joins / sizeof *joins; i++)
        CHECK_MSG(fy_path_join(out, sizeof out, joins[i][0], joins[i][1]) > 0 && strcmp(out, joins[i][2]) == 0,
                  "%s + %s -> %s", joins[i][0], joins[i][1], out);
    CHECK(!fy_path_folder("/a/long/folder/x", out, 4));
}

/* A writer appending a whole file (copy_file_range on Linux), and a mapping
 * whose pages are dropped and read again. */
static void test_append_and_map(void)
{
    char part[1024], whole[1024];
    path_of(part, sizeof part, root, "part.bin");
    path_of(whole, sizeof whole, root, "whole.bin");
    size_t n = 3 * 65536 + 123;
    uint8_t *bytes = malloc(n);
    for (size_t i = 0; i < n; i++) bytes[i] = (uint8_t)(i * 7 + (i >> 9));
    ferry_error err;
    CHECK(ferry_file_write(part, bytes, n, NULL, &err) == FERRY_OK);
    ferry_file_writer *w;
    CHECK(ferry_file_writer_open(whole, NULL, &w, &err) == FERRY_OK);
    CHECK(ferry_file_writer_write(w, "head", 4, &err) == FERRY_OK);
    CHECK(ferry_file_writer_append_file(w, part, n, &err) == FERRY_OK);
    CHECK_EQ_U(ferry_file_writer_size(w), n + 4);
    CHECK(ferry_file_writer_commit(w, &err) == FERRY_OK);
    ferry_file_mapping map;
    CHECK(ferry_file_map(whole, 0, &map, &err) == FERRY_OK && map.size == n + 4);
    if (map.size == n + 4) {
        ferry_file_map_drop(&map, 70000, 70000);
        CHECK(memcmp(map.data, "head", 4) == 0 && memcmp((const uint8_t *)map.data + 4, bytes, n) == 0);
    }
    printf("  mapping: %s\n", map.mapped ? "mapped" : "read whole");
    ferry_file_unmap(&map);
    /* A size that is not the file's: refused, nothing written. */
    CHECK(ferry_file_writer_open(whole, NULL, &w, &err) == FERRY_OK);
    CHECK(ferry_file_writer_append_file(w, part, n + 1, &err) == FERRY_ERR_IO);
    CHECK_MSG(strstr(err.message, "not the"), "%s", err.message);
    ferry_file_writer_abort(w);
    free(bytes);
    listing l;
    CHECK(list(root, &l) && !l.temporaries);
}

/* Threads: a counter behind the mutex, and files written at once into one
 * folder (each writer's temporary its own). */
typedef struct shared {
    fy_mutex lock;
    long counter;
    const char *folder;
    int failures;
} shared;

typedef struct worker_arg {
    shared *s;
    int index;
} worker_arg;

static void worker(void *p)
{
    worker_arg *a = p;
    for (int i = 0; i < 20000; i++) {
        fy_mutex_lock(&a->s->lock);
        a->s->counter++;
        fy_mutex_unlock(&a->s->lock);
    }
    for (int i = 0; i < 10; i++) {
        char name[64], path[2048], text[64];
        snprintf(name, sizeof name, "thread %d.bin", a->index);
        path_of(path, sizeof path, a->s->folder, name);
        snprintf(text, sizeof text, "thread %d round %d", a->index, i);
        bool ok = write_text(path, text) && loads_as(path, text);
        fy_mutex_lock(&a->s->lock);
        a->s->failures += !ok;
        fy_mutex_unlock(&a->s->lock);
    }
}

static void test_threads(void)
{
    char folder[1024];
    path_of(folder, sizeof folder, root, "threads");
    CHECK(fy_folder_make(folder) == 0);
    shared s = {.folder = folder};
    CHECK(fy_mutex_init(&s.lock) == 0);
    enum { N = 6 };
    fy_thread threads[N];
    worker_arg args[N];
    int started = 0;
    for (int i = 0; i < N; i++) {
        args[i] = (worker_arg){&s, i};
        if (fy_thread_start(&threads[i], worker, &args[i]) == 0) started++;
    }
    CHECK(started == N);
    for (int i = 0; i < started; i++) fy_thread_join(&threads[i]);
    fy_mutex_destroy(&s.lock);
    CHECK_EQ_U(s.counter, 20000L * started);
    CHECK(s.failures == 0);
    listing l;
    CHECK(list(folder, &l) && l.count == N && !l.temporaries);
    CHECK(fy_cpu_count() >= 1);
    printf("  threads: %d, processors: %d\n", started, fy_cpu_count());
}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "--exit") == 0) return 0; /* dead_process's child */
    clock_t start = clock();
    char base[512];
    temp_base(base, sizeof base);
    char name[64];
    snprintf(name, sizeof name, "ferry-platform-%ld", fy_process_id());
    path_of(root, sizeof root, base, name);
    remove_tree(root);
    if (fy_folder_make(root) != 0) {
        fprintf(stderr, "cannot make %s\n", root);
        return 1;
    }
    printf("  folder: %s\n", root);
    test_syntax();
    test_names();
    test_long_path();
    test_read_only_folder();
    test_not_regular();
    test_stale_temporary();
    test_replace_held();
    test_spellings();
    test_append_and_map();
    test_folder_resolve();
    test_threads();
    remove_tree(root);
    fy_file_info info;
    CHECK(fy_path_info(root, false, &info) != 0); /* everything removed: nothing was left open */
    /* clock(): processor time on POSIX, time since the start on Windows. */
    printf("  %.2f s by clock()\n", (double)(clock() - start) / CLOCKS_PER_SEC);
    TEST_END();
}
