/* The platform layer on Windows (platform.h): Win32 calls, UTF-16 paths.
 * What differs from POSIX, and why: docs/platform.md. */
#ifdef _WIN32
#ifndef _WIN32_WINNT
#define _WIN32_WINNT 0x0A00 /* Windows 10: FileIdInfo, GetFinalPathNameByHandleW */
#endif
#ifndef WIN32_LEAN_AND_MEAN
#define WIN32_LEAN_AND_MEAN
#endif
#include "platform.h"

#include <windows.h>
#include <aclapi.h>
#include <process.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

_Static_assert(sizeof(SRWLOCK) == sizeof(void *), "fy_mutex holds an SRWLOCK in one pointer");
_Static_assert(sizeof(HANDLE) == sizeof(intptr_t), "fy_file holds a HANDLE");

#define SHARE_ALL (FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE)

/* ---- errors ---- */

/* Cuts a UTF-8 text to fit cap bytes without splitting a character. */
static void copy_utf8(char *out, size_t cap, const char *text)
{
    size_t n = strlen(text);
    if (n >= cap) {
        n = cap - 1;
        while (n && ((unsigned char)text[n] & 0xC0) == 0x80) n--;
    }
    memcpy(out, text, n);
    out[n] = '\0';
}

const char *fy_sys_message(int code, char *buf, size_t cap)
{
    if (code == FY_SYS_IO_ERROR) code = ERROR_IO_DEVICE;
    if (code == FY_SYS_NO_SPACE) code = ERROR_DISK_FULL;
    /* The system's words name neither cause as a user would look for it. */
    if (code == ERROR_SHARING_VIOLATION || code == ERROR_LOCK_VIOLATION) return "the file is in use by another program";
    if (code == ERROR_NO_UNICODE_TRANSLATION) return "the name is not valid UTF-8";
    if (!buf || !cap) return "system error";
    wchar_t text[512];
    DWORD n = FormatMessageW(FORMAT_MESSAGE_FROM_SYSTEM | FORMAT_MESSAGE_IGNORE_INSERTS | FORMAT_MESSAGE_MAX_WIDTH_MASK,
                             NULL, (DWORD)code, 0, text, (DWORD)(sizeof text / sizeof *text), NULL);
    /* Messages go on after a colon: no final period or line break, as strerror's. */
    while (n && (text[n - 1] == L'.' || text[n - 1] == L' ' || text[n - 1] == L'\r' || text[n - 1] == L'\n')) n--;
    char utf8[1536];
    int m = n ? WideCharToMultiByte(CP_UTF8, 0, text, (int)n, utf8, (int)sizeof utf8 - 1, NULL, NULL) : 0;
    if (m <= 0) {
        snprintf(buf, cap, "system error %d", code);
        return buf;
    }
    utf8[m] = '\0';
    copy_utf8(buf, cap, utf8);
    return buf;
}

bool fy_sys_not_found(int code)
{
    return code == ERROR_FILE_NOT_FOUND || code == ERROR_PATH_NOT_FOUND || code == ERROR_DIRECTORY ||
           code == ERROR_INVALID_DRIVE || code == ERROR_BAD_NETPATH || code == ERROR_BAD_NET_NAME;
}

bool fy_sys_exists(int code) { return code == ERROR_ALREADY_EXISTS || code == ERROR_FILE_EXISTS; }

/* ---- UTF-8 and UTF-16 ---- */

/* UTF-8 -> UTF-16, malloc'd. A text that is not UTF-8 is refused, never
 * guessed at: ERROR_NO_UNICODE_TRANSLATION. */
static int widen(const char *text, wchar_t **out)
{
    *out = NULL;
    int n = MultiByteToWideChar(CP_UTF8, MB_ERR_INVALID_CHARS, text, -1, NULL, 0);
    if (n <= 0) return ERROR_NO_UNICODE_TRANSLATION;
    wchar_t *w = malloc((size_t)n * sizeof *w);
    if (!w) return ERROR_NOT_ENOUGH_MEMORY;
    if (MultiByteToWideChar(CP_UTF8, MB_ERR_INVALID_CHARS, text, -1, w, n) != n) {
        free(w);
        return ERROR_NO_UNICODE_TRANSLATION;
    }
    *out = w;
    return 0;
}

/* UTF-16 (NUL-terminated) -> UTF-8, malloc'd; NULL for a text that is not
 * valid UTF-16 (an unpaired surrogate) or without memory. */
static char *narrow(const wchar_t *text)
{
    int n = WideCharToMultiByte(CP_UTF8, WC_ERR_INVALID_CHARS, text, -1, NULL, 0, NULL, NULL);
    if (n <= 0) return NULL;
    char *s = malloc((size_t)n);
    if (s && WideCharToMultiByte(CP_UTF8, WC_ERR_INVALID_CHARS, text, -1, s, n, NULL, NULL) != n) {
        free(s);
        s = NULL;
    }
    return s;
}

static bool wide_starts(const wchar_t *s, const wchar_t *prefix)
{
    return _wcsnicmp(s, prefix, wcslen(prefix)) == 0;
}

/* A path of the API as Win32 calls take it: UTF-16, made absolute the way
 * Windows does it (GetFullPathNameW: '/' and '\\' both separate, '.' and
 * '..' resolved, relative to the current folder or drive), then prefixed
 * \\?\ (\\?\UNC\ for \\server\share) so that no MAX_PATH limit applies.
 * A path already \\?\ is taken as it is; device names (\\.\) are kept. */
static int win_path(const char *path, wchar_t **out)
{
    *out = NULL;
    if (!path || !*path) return ERROR_PATH_NOT_FOUND;
    wchar_t *w;
    int code = widen(path, &w);
    if (code) return code;
    if (wide_starts(w, L"\\\\?\\")) {
        *out = w;
        return 0;
    }
    DWORD need = GetFullPathNameW(w, 0, NULL, NULL);
    if (!need) {
        code = (int)GetLastError();
        free(w);
        return code ? code : ERROR_INVALID_NAME;
    }
    wchar_t *full = malloc((size_t)need * sizeof *full);
    DWORD got = full ? GetFullPathNameW(w, need, full, NULL) : 0;
    free(w);
    if (!full || !got || got >= need) {
        free(full);
        return full ? ERROR_INVALID_NAME : ERROR_NOT_ENOUGH_MEMORY;
    }
    const wchar_t *prefix = L"\\\\?\\", *rest = full;
    if (wide_starts(full, L"\\\\.\\") || wide_starts(full, L"\\\\?\\")) {
        prefix = L""; /* a device, or verbatim already */
    } else if (full[0] == L'\\' && full[1] == L'\\') {
        prefix = L"\\\\?\\UNC\\"; /* \\server\share\x -> \\?\UNC\server\share\x */
        rest = full + 2;
    }
    size_t a = wcslen(prefix), b = wcslen(rest);
    wchar_t *result = malloc((a + b + 1) * sizeof *result);
    if (result) {
        memcpy(result, prefix, a * sizeof *result);
        memcpy(result + a, rest, (b + 1) * sizeof *result);
    }
    free(full);
    *out = result;
    return result ? 0 : ERROR_NOT_ENOUGH_MEMORY;
}

/* What a name in the device namespace (\\.\) is, told without opening it:
 * opening a pipe would connect to its server. A file named through the
 * namespace (\\.\C:\dir\file) is no device: false. */
static bool device_kind(const wchar_t *full, fy_file_kind *kind)
{
    if (!wide_starts(full, L"\\\\.\\")) return false;
    const wchar_t *name = full + 4;
    if (wide_starts(name, L"pipe\\")) {
        *kind = FY_KIND_FIFO;
        return true;
    }
    if (wcschr(name, L'\\')) return false; /* a path below a volume: a file or folder */
    bool drive = ((name[0] | 32) >= L'a' && (name[0] | 32) <= L'z') && name[1] == L':' && !name[2];
    *kind = drive || wide_starts(name, L"PhysicalDrive") || wide_starts(name, L"Harddisk") ? FY_KIND_BLOCK_DEVICE
                                                                                            : FY_KIND_CHAR_DEVICE;
    return true;
}

/* ---- what is at a path ---- */

static int64_t unix_seconds(FILETIME t)
{
    uint64_t v = ((uint64_t)t.dwHighDateTime << 32) | t.dwLowDateTime; /* 100 ns since 1601 */
    return (int64_t)(v / 10000000u) - INT64_C(11644473600);
}

static bool is_link_tag(DWORD tag) { return tag == IO_REPARSE_TAG_SYMLINK || tag == IO_REPARSE_TAG_MOUNT_POINT; }

static int handle_info(HANDLE h, fy_file_info *info)
{
    memset(info, 0, sizeof *info);
    DWORD type = GetFileType(h);
    if (type == FILE_TYPE_CHAR) info->kind = FY_KIND_CHAR_DEVICE;
    else if (type == FILE_TYPE_PIPE) info->kind = FY_KIND_FIFO;
    if (type != FILE_TYPE_DISK) {
        if (type == FILE_TYPE_UNKNOWN) {
            DWORD code = GetLastError();
            if (code != NO_ERROR) return (int)code;
            info->kind = FY_KIND_OTHER;
        }
        return 0;
    }
    BY_HANDLE_FILE_INFORMATION bh;
    if (!GetFileInformationByHandle(h, &bh)) return (int)GetLastError();
    info->kind = bh.dwFileAttributes & FILE_ATTRIBUTE_DIRECTORY ? FY_KIND_FOLDER : FY_KIND_REGULAR;
    if (bh.dwFileAttributes & FILE_ATTRIBUTE_REPARSE_POINT) {
        /* Seen only on a handle opened on the link itself (or on a file
         * that is some other kind of reparse point: a file all the same). */
        FILE_ATTRIBUTE_TAG_INFO tag;
        if (GetFileInformationByHandleEx(h, FileAttributeTagInfo, &tag, sizeof tag) && is_link_tag(tag.ReparseTag))
            info->kind = FY_KIND_LINK;
    }
    info->size = info->kind == FY_KIND_REGULAR ? ((uint64_t)bh.nFileSizeHigh << 32) | bh.nFileSizeLow : 0;
    info->modified = unix_seconds(bh.ftLastWriteTime);
    /* The 128-bit id where the file system gives it (ReFS ids do not fit
     * the older 64-bit index); the 64-bit index elsewhere. */
    FILE_ID_INFO id;
    if (GetFileInformationByHandleEx(h, FileIdInfo, &id, sizeof id)) {
        info->id.volume = id.VolumeSerialNumber;
        memcpy(info->id.index, id.FileId.Identifier, sizeof info->id.index);
    } else {
        info->id.volume = bh.dwVolumeSerialNumber;
        info->id.index[0] = ((uint64_t)bh.nFileIndexHigh << 32) | bh.nFileIndexLow;
    }
    info->has_id = true;
    return 0;
}

/* Attribute access only: it never conflicts with how others opened the file. */
static HANDLE open_for_info(const wchar_t *w, bool follow_links)
{
    return CreateFileW(w, FILE_READ_ATTRIBUTES, SHARE_ALL, NULL, OPEN_EXISTING,
                       FILE_FLAG_BACKUP_SEMANTICS | (follow_links ? 0 : FILE_FLAG_OPEN_REPARSE_POINT), NULL);
}

static int wide_info(const wchar_t *w, bool follow_links, fy_file_info *info)
{
    memset(info, 0, sizeof *info);
    if (device_kind(w, &info->kind)) return 0;
    HANDLE h = open_for_info(w, follow_links);
    if (h == INVALID_HANDLE_VALUE) {
        int code = (int)GetLastError();
        /* A few system files (pagefile.sys) cannot be opened at all: their
         * attributes still say what they are, but no id. */
        WIN32_FILE_ATTRIBUTE_DATA a;
        if (code != ERROR_SHARING_VIOLATION || !GetFileAttributesExW(w, GetFileExInfoStandard, &a)) return code;
        info->kind = a.dwFileAttributes & FILE_ATTRIBUTE_DIRECTORY ? FY_KIND_FOLDER : FY_KIND_REGULAR;
        info->size = info->kind == FY_KIND_REGULAR ? ((uint64_t)a.nFileSizeHigh << 32) | a.nFileSizeLow : 0;
        info->modified = unix_seconds(a.ftLastWriteTime);
        return 0;
    }
    int code = handle_info(h, info);
    CloseHandle(h);
    return code;
}

int fy_path_info(const char *path, bool follow_links, fy_file_info *info)
{
    wchar_t *w;
    int code = win_path(path, &w);
    if (code) return code;
    code = wide_info(w, follow_links, info);
    free(w);
    return code;
}

bool fy_same_file(const char *a, const char *b)
{
    fy_file_info ia, ib;
    if (fy_path_info(a, true, &ia) != 0 || fy_path_info(b, true, &ib) != 0) return false;
    return ia.has_id && ib.has_id && ia.id.volume == ib.id.volume && ia.id.index[0] == ib.id.index[0] &&
           ia.id.index[1] == ib.id.index[1];
}

/* ---- open files ---- */

int fy_file_open_read(const char *path, fy_file *f, fy_file_info *info)
{
    f->handle = -1;
    memset(info, 0, sizeof *info);
    wchar_t *w;
    int code = win_path(path, &w);
    if (code) return code;
    if (device_kind(w, &info->kind)) {
        free(w);
        return 0; /* never opened */
    }
    /* Others may read, write, rename and delete the file meanwhile, as on
     * POSIX. FILE_FLAG_BACKUP_SEMANTICS opens a folder too, so that it is
     * refused by its kind rather than as "access denied". */
    HANDLE h = CreateFileW(w, GENERIC_READ, SHARE_ALL, NULL, OPEN_EXISTING,
                           FILE_FLAG_BACKUP_SEMANTICS | FILE_FLAG_SEQUENTIAL_SCAN, NULL);
    code = h == INVALID_HANDLE_VALUE ? (int)GetLastError() : 0;
    free(w);
    if (code) return code;
    if ((code = handle_info(h, info)) != 0 || info->kind != FY_KIND_REGULAR) {
        CloseHandle(h);
        return code;
    }
    f->handle = (intptr_t)h;
    return 0;
}

/* ReadFile and WriteFile take 32-bit counts. */
#define IO_CHUNK ((DWORD)1 << 30)

int fy_file_read(fy_file f, void *buf, size_t n, size_t *got)
{
    *got = 0;
    while (*got < n) {
        DWORD want = n - *got > IO_CHUNK ? IO_CHUNK : (DWORD)(n - *got), r = 0;
        if (!ReadFile((HANDLE)f.handle, (uint8_t *)buf + *got, want, &r, NULL)) {
            DWORD code = GetLastError();
            if (code == ERROR_HANDLE_EOF || code == ERROR_BROKEN_PIPE) break;
            return (int)code;
        }
        if (r == 0) break;
        *got += r;
    }
    return 0;
}

int fy_file_write(fy_file f, const void *data, size_t n, size_t *written)
{
    *written = 0;
    while (*written < n) {
        DWORD want = n - *written > IO_CHUNK ? IO_CHUNK : (DWORD)(n - *written), w = 0;
        if (!WriteFile((HANDLE)f.handle, (const uint8_t *)data + *written, want, &w, NULL)) return (int)GetLastError();
        if (w == 0) return FY_SYS_NO_SPACE;
        *written += w;
    }
    return 0;
}

int fy_file_flush(fy_file f) { return FlushFileBuffers((HANDLE)f.handle) ? 0 : (int)GetLastError(); }

int fy_file_close(fy_file f) { return CloseHandle((HANDLE)f.handle) ? 0 : (int)GetLastError(); }

static uint64_t mix64(uint64_t x)
{
    x += 0x9E3779B97F4A7C15u; /* splitmix64 */
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9u;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBu;
    return x ^ (x >> 31);
}

int fy_file_create_unique(char *name, fy_file *f)
{
    static const char letters[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
    f->handle = -1;
    size_t len = strlen(name);
    if (len < 6 || strcmp(name + len - 6, "XXXXXX") != 0) return ERROR_INVALID_PARAMETER;
    /* CREATE_NEW makes the file only if the name is free, so a name
     * another writer took is just tried again: the letters need not be
     * secret, only unlikely to repeat. */
    LARGE_INTEGER now;
    QueryPerformanceCounter(&now);
    uint64_t state = (uint64_t)now.QuadPart ^ ((uint64_t)GetCurrentProcessId() << 32) ^ GetCurrentThreadId() ^
                     (uint64_t)(uintptr_t)name;
    for (int attempt = 0; attempt < 100; attempt++) {
        uint64_t bits = mix64(state += 0x632BE59BD9B4E019u);
        for (size_t i = 0; i < 6; i++, bits /= 62) name[len - 6 + i] = letters[bits % 62];
        wchar_t *w;
        int code = win_path(name, &w);
        if (code) return code;
        HANDLE h = CreateFileW(w, GENERIC_WRITE, FILE_SHARE_READ | FILE_SHARE_DELETE, NULL, CREATE_NEW,
                               FILE_ATTRIBUTE_NORMAL, NULL);
        code = h == INVALID_HANDLE_VALUE ? (int)GetLastError() : 0;
        free(w);
        if (!code) {
            f->handle = (intptr_t)h;
            return 0;
        }
        if (!fy_sys_exists(code)) return code;
    }
    return ERROR_FILE_EXISTS;
}

int fy_file_set_default_mode(fy_file f)
{
    (void)f; /* a new file takes its folder's permissions */
    return 0;
}

int fy_file_copy_range(fy_file from, fy_file to, uint64_t size, uint64_t *copied)
{
    (void)from, (void)to, (void)size;
    *copied = 0; /* no kernel copy into an open file: the caller's loop does it */
    return 0;
}

/* ---- names ---- */

/* Whether another program holds `w` open without letting it be deleted,
 * the one reason a replace fails that a user can do something about. */
static bool held_open(const wchar_t *w)
{
    HANDLE h = CreateFileW(w, DELETE, SHARE_ALL, NULL, OPEN_EXISTING,
                           FILE_FLAG_BACKUP_SEMANTICS | FILE_FLAG_OPEN_REPARSE_POINT, NULL);
    if (h != INVALID_HANDLE_VALUE) {
        CloseHandle(h);
        return false;
    }
    return GetLastError() == ERROR_SHARING_VIOLATION;
}

int fy_file_replace(const char *from, const char *to)
{
    wchar_t *wf, *wt = NULL;
    int code = win_path(from, &wf);
    if (!code) code = win_path(to, &wt);
    /* A virus scanner or an indexer opens a new file for a moment: tried
     * again after 10, 20, ... 320 ms (0.63 s in all); a file still held
     * then is held by a program. MoveFileExW answers "access denied" for a
     * target open elsewhere (wine does, as Windows does without POSIX
     * rename semantics): held_open tells that cause from the others. */
    for (DWORD attempt = 0, wait = 10; !code; attempt++, wait *= 2) {
        if (MoveFileExW(wf, wt, MOVEFILE_REPLACE_EXISTING | MOVEFILE_WRITE_THROUGH)) break;
        code = (int)GetLastError();
        if (code == ERROR_ACCESS_DENIED && held_open(wt)) code = ERROR_SHARING_VIOLATION;
        if ((code != ERROR_SHARING_VIOLATION && code != ERROR_LOCK_VIOLATION) || attempt == 6) break;
        Sleep(wait);
        code = 0;
    }
    free(wf);
    free(wt);
    return code;
}

/* fn(path) for the calls that take one path and answer with a BOOL. */
static int path_call(const char *path, BOOL(WINAPI *fn)(LPCWSTR))
{
    wchar_t *w;
    int code = win_path(path, &w);
    if (code) return code;
    code = fn(w) ? 0 : (int)GetLastError();
    free(w);
    return code;
}

static BOOL WINAPI create_folder(LPCWSTR w) { return CreateDirectoryW(w, NULL); }

int fy_file_remove(const char *path) { return path_call(path, DeleteFileW); }

int fy_folder_make(const char *path) { return path_call(path, create_folder); }

int fy_folder_remove(const char *path) { return path_call(path, RemoveDirectoryW); }

int fy_path_resolve(const char *path, char **resolved)
{
    *resolved = NULL;
    wchar_t *w;
    int code = win_path(path, &w);
    if (code) return code;
    HANDLE h = CreateFileW(w, 0, SHARE_ALL, NULL, OPEN_EXISTING, FILE_FLAG_BACKUP_SEMANTICS, NULL);
    if (h == INVALID_HANDLE_VALUE) {
        code = (int)GetLastError();
        free(w);
        return code;
    }
    /* A return at least `room` is the room needed. */
    DWORD flags = FILE_NAME_NORMALIZED | VOLUME_NAME_DOS, room = MAX_PATH, got = 0;
    wchar_t *final = NULL;
    for (int attempt = 0; attempt < 3; attempt++) {
        wchar_t *bigger = realloc(final, (size_t)room * sizeof *final);
        if (!bigger) break;
        final = bigger;
        got = GetFinalPathNameByHandleW(h, final, room, flags);
        if (got < room) break;
        room = got + 1;
    }
    CloseHandle(h);
    if (!final || !got || got >= room) {
        /* The system cannot say (wine, for any path over MAX_PATH): the
         * absolute path, links not resolved, names the same file. */
        free(final);
        final = w;
    } else {
        free(w);
    }
    /* As users write it: \\?\C:\x -> C:\x, \\?\UNC\server\x -> \\server\x. */
    wchar_t *shown = final;
    if (wide_starts(final, L"\\\\?\\UNC\\")) {
        shown = final + 6;
        shown[0] = L'\\';
    } else if (wide_starts(final, L"\\\\?\\")) {
        shown = final + 4;
    }
    *resolved = narrow(shown);
    free(final);
    return *resolved ? 0 : ERROR_NO_UNICODE_TRANSLATION;
}

/* ---- path syntax ---- */

static bool is_separator(char c) { return c == '/' || c == '\\'; }

static bool has_drive(const char *p) { return ((p[0] | 32) >= 'a' && (p[0] | 32) <= 'z') && p[1] == ':'; }

bool fy_path_names_are_unicode(void) { return true; }

bool fy_path_is_separator(char c) { return is_separator(c); }

size_t fy_path_name_offset(const char *path)
{
    size_t at = 0;
    for (size_t i = 0; path[i]; i++)
        if (is_separator(path[i])) at = i + 1;
    if (!at && has_drive(path)) at = 2; /* "C:name": relative to C:'s current folder */
    return at;
}

bool fy_path_folder(const char *path, char *out, size_t cap)
{
    /* "C:x" -> "C:"; a root keeps its separator: "\x" -> "\", "C:\x" ->
     * "C:\" ("C:" alone would be C:'s current folder). */
    size_t at = fy_path_name_offset(path), n = at ? at - 1 : 0;
    if (at && path[at - 1] == ':') n = at;
    else if (at && (n == 0 || path[n - 1] == ':')) n++;
    int w = !at ? snprintf(out, cap, ".") : snprintf(out, cap, "%.*s", (int)n, path);
    return w > 0 && (size_t)w < cap;
}

int fy_path_join(char *out, size_t cap, const char *folder, const char *name)
{
    size_t n = strlen(folder);
    bool bare = n && (is_separator(folder[n - 1]) || folder[n - 1] == ':');
    /* The folder's own separator, so that a path reads as it was given. */
    const char *separator = strchr(folder, '/') && !strchr(folder, '\\') ? "/" : "\\";
    return snprintf(out, cap, "%s%s%s", folder, bare ? "" : separator, name);
}

bool fy_path_parent(const char *folder, char *out, size_t cap)
{
    int n = fy_path_join(out, cap, folder, "..");
    return n > 0 && (size_t)n < cap;
}

/* ---- mapping ---- */

int fy_map(fy_file f, uint64_t size, void **base)
{
    *base = NULL;
    if (size > SIZE_MAX) return ERROR_NOT_ENOUGH_MEMORY;
    HANDLE m = CreateFileMappingW((HANDLE)f.handle, NULL, PAGE_READONLY, 0, 0, NULL);
    if (!m) return (int)GetLastError();
    void *p = MapViewOfFile(m, FILE_MAP_READ, 0, 0, (SIZE_T)size);
    int code = p ? 0 : (int)GetLastError();
    CloseHandle(m); /* the view keeps the mapping */
    *base = p;
    return code;
}

void fy_unmap(void *base, uint64_t size)
{
    (void)size;
    UnmapViewOfFile(base);
}

size_t fy_page_size(void)
{
    SYSTEM_INFO si;
    GetSystemInfo(&si);
    return si.dwPageSize ? si.dwPageSize : 4096;
}

void fy_map_drop(void *addr, size_t size)
{
    /* Unlocking pages that are not locked takes them out of the working
     * set: the system may then reuse them, reading the file again on use. */
    (void)VirtualUnlock(addr, size);
}

/* ---- folders ---- */

struct fy_folder {
    HANDLE find;
    WIN32_FIND_DATAW data;
    bool pending; /* data holds an entry not yet given */
    wchar_t *path;
    char *name; /* the entry last given, UTF-8 */
    int error;  /* what ended the listing early, or 0 */
};

int fy_folder_open(const char *path, fy_folder **out)
{
    *out = NULL;
    fy_folder *d = calloc(1, sizeof *d);
    if (!d) return ERROR_NOT_ENOUGH_MEMORY;
    int code = win_path(path, &d->path);
    size_t n = d->path ? wcslen(d->path) : 0;
    wchar_t *pattern = code ? NULL : malloc((n + 3) * sizeof *pattern);
    if (!code && !pattern) code = ERROR_NOT_ENOUGH_MEMORY;
    if (!code) {
        memcpy(pattern, d->path, n * sizeof *pattern);
        if (n && d->path[n - 1] != L'\\') pattern[n++] = L'\\';
        pattern[n++] = L'*';
        pattern[n] = 0;
        d->find = FindFirstFileExW(pattern, FindExInfoBasic, &d->data, FindExSearchNameMatch, NULL,
                                   FIND_FIRST_EX_LARGE_FETCH);
        if (d->find == INVALID_HANDLE_VALUE) {
            code = (int)GetLastError();
            /* No entry at all (a drive's root can be empty): a folder
             * that lists nothing, if it is a folder. */
            DWORD a = code == ERROR_FILE_NOT_FOUND ? GetFileAttributesW(d->path) : INVALID_FILE_ATTRIBUTES;
            if (a != INVALID_FILE_ATTRIBUTES && (a & FILE_ATTRIBUTE_DIRECTORY)) code = 0;
        } else {
            d->pending = true;
        }
    }
    free(pattern);
    if (code) {
        free(d->path);
        free(d);
        return code;
    }
    *out = d;
    return 0;
}

bool fy_folder_next(fy_folder *d, const char **name, fy_file_kind *kind)
{
    while (d->find != INVALID_HANDLE_VALUE && d->find) {
        if (!d->pending && !FindNextFileW(d->find, &d->data)) {
            DWORD e = GetLastError();
            if (e != ERROR_NO_MORE_FILES) d->error = (int)e;
            return false;
        }
        d->pending = false;
        const wchar_t *n = d->data.cFileName;
        if (wcscmp(n, L".") == 0 || wcscmp(n, L"..") == 0) continue;
        free(d->name);
        if (!(d->name = narrow(n))) continue; /* not valid UTF-16: no UTF-8 name to give */
        DWORD a = d->data.dwFileAttributes;
        if ((a & FILE_ATTRIBUTE_REPARSE_POINT) && is_link_tag(d->data.dwReserved0)) *kind = FY_KIND_LINK;
        else *kind = a & FILE_ATTRIBUTE_DIRECTORY ? FY_KIND_FOLDER : FY_KIND_REGULAR;
        *name = d->name;
        return true;
    }
    return false;
}

int fy_folder_error(const fy_folder *d) { return d->error; }

/* The folder's path and an entry's name joined, wide. */
static int entry_path(const fy_folder *d, const char *name, wchar_t **out)
{
    *out = NULL;
    wchar_t *w;
    int code = widen(name, &w);
    if (code) return code;
    size_t a = wcslen(d->path), b = wcslen(w);
    wchar_t *p = malloc((a + b + 2) * sizeof *p);
    if (p) {
        memcpy(p, d->path, a * sizeof *p);
        if (a && p[a - 1] != L'\\') p[a++] = L'\\';
        memcpy(p + a, w, (b + 1) * sizeof *p);
    }
    free(w);
    *out = p;
    return p ? 0 : ERROR_NOT_ENOUGH_MEMORY;
}

int fy_folder_entry_info(fy_folder *d, const char *name, bool follow_links, fy_file_info *info)
{
    wchar_t *w;
    int code = entry_path(d, name, &w);
    if (code) return code;
    code = wide_info(w, follow_links, info);
    free(w);
    return code;
}

static bool token_sid_is(HANDLE token, TOKEN_INFORMATION_CLASS which, PSID sid)
{
    DWORD n = 0;
    GetTokenInformation(token, which, NULL, 0, &n);
    void *buf = n ? malloc(n) : NULL;
    bool same = false;
    if (buf && GetTokenInformation(token, which, buf, n, &n)) {
        PSID mine = which == TokenUser ? ((TOKEN_USER *)buf)->User.Sid : ((TOKEN_OWNER *)buf)->Owner;
        same = EqualSid(mine, sid) != 0;
    }
    free(buf);
    return same;
}

bool fy_folder_entry_is_mine(fy_folder *d, const char *name)
{
    wchar_t *w;
    if (entry_path(d, name, &w) != 0) return false;
    HANDLE h = CreateFileW(w, READ_CONTROL, SHARE_ALL, NULL, OPEN_EXISTING,
                           FILE_FLAG_BACKUP_SEMANTICS | FILE_FLAG_OPEN_REPARSE_POINT, NULL);
    free(w);
    if (h == INVALID_HANDLE_VALUE) return false;
    PSID owner = NULL;
    PSECURITY_DESCRIPTOR sd = NULL;
    bool mine = false;
    HANDLE token;
    if (GetSecurityInfo(h, SE_FILE_OBJECT, OWNER_SECURITY_INFORMATION, &owner, NULL, NULL, NULL, &sd) ==
            ERROR_SUCCESS &&
        owner && OpenProcessToken(GetCurrentProcess(), TOKEN_QUERY, &token)) {
        /* A file this process makes is owned by the token's default owner
         * (for an administrator, the Administrators group), else its user. */
        mine = token_sid_is(token, TokenUser, owner) || token_sid_is(token, TokenOwner, owner);
        CloseHandle(token);
    }
    if (sd) LocalFree(sd);
    CloseHandle(h);
    return mine;
}

int fy_folder_entry_remove(fy_folder *d, const char *name)
{
    wchar_t *w;
    int code = entry_path(d, name, &w);
    if (code) return code;
    code = DeleteFileW(w) ? 0 : (int)GetLastError();
    free(w);
    return code;
}

void fy_folder_close(fy_folder *d)
{
    if (!d) return;
    if (d->find && d->find != INVALID_HANDLE_VALUE) FindClose(d->find);
    free(d->path);
    free(d->name);
    free(d);
}

/* ---- processes ---- */

long fy_process_id(void) { return (long)GetCurrentProcessId(); }

bool fy_process_may_run(long long pid)
{
    if (pid <= 0 || pid > (long long)UINT32_MAX) return true; /* not a process id: nothing proven */
    HANDLE h = OpenProcess(PROCESS_QUERY_LIMITED_INFORMATION, FALSE, (DWORD)pid);
    if (!h) return GetLastError() != ERROR_INVALID_PARAMETER; /* access denied: it runs, as another user */
    DWORD status = 0;
    /* A process that has ended lives on while a handle to it is open. */
    bool runs = !GetExitCodeProcess(h, &status) || status == STILL_ACTIVE;
    CloseHandle(h);
    return runs;
}

/* ---- threads ---- */

int fy_mutex_init(fy_mutex *m)
{
    InitializeSRWLock((PSRWLOCK)&m->lock);
    return 0;
}

void fy_mutex_lock(fy_mutex *m) { AcquireSRWLockExclusive((PSRWLOCK)&m->lock); }

void fy_mutex_unlock(fy_mutex *m) { ReleaseSRWLockExclusive((PSRWLOCK)&m->lock); }

void fy_mutex_destroy(fy_mutex *m) { (void)m; /* an SRWLOCK holds nothing */ }

static unsigned __stdcall thread_main(void *arg)
{
    fy_thread *t = arg;
    t->fn(t->arg);
    return 0;
}

int fy_thread_start(fy_thread *t, void (*fn)(void *), void *arg)
{
    t->fn = fn;
    t->arg = arg;
    /* _beginthreadex rather than CreateThread: the C runtime's per-thread
     * state is set up for it. */
    uintptr_t h = _beginthreadex(NULL, 0, thread_main, t, 0, NULL);
    if (!h) return (int)(GetLastError() ? GetLastError() : ERROR_NOT_ENOUGH_MEMORY);
    t->handle = (void *)h;
    return 0;
}

void fy_thread_join(fy_thread *t)
{
    WaitForSingleObject((HANDLE)t->handle, INFINITE);
    CloseHandle((HANDLE)t->handle);
}

int fy_cpu_count(void)
{
    DWORD n = GetActiveProcessorCount(ALL_PROCESSOR_GROUPS);
    return n > 0 && n < 1u << 20 ? (int)n : 1;
}

#endif /* _WIN32 */
