/* Whole-file loading and atomic writing (POSIX). */
#define _POSIX_C_SOURCE 200809L
#define _DEFAULT_SOURCE
#include "core.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef O_CLOEXEC
#define O_CLOEXEC 0
#endif
#ifndef O_NOCTTY
#define O_NOCTTY 0
#endif

static const char *kind_of(mode_t mode)
{
    if (S_ISDIR(mode)) return "a folder";
    if (S_ISFIFO(mode)) return "a FIFO (named pipe)";
    if (S_ISCHR(mode)) return "a character device";
    if (S_ISBLK(mode)) return "a block device";
    if (S_ISSOCK(mode)) return "a socket";
    return "not a regular file";
}

/* Opens a regular file for reading without ever blocking: the kind is
 * checked before opening (a FIFO or a device is never opened), then again on
 * the descriptor, opened non-blocking (so a file swapped for a FIFO in
 * between cannot block either). Returns the descriptor or -1 with `err` set. */
static int open_regular(const char *path, struct stat *st, ferry_error *err)
{
    if (stat(path, st) != 0) {
        fy_error_set(err, FERRY_ERR_IO, FERRY_NO_OFFSET, NULL, "cannot open %s: %s", path, strerror(errno));
        return -1;
    }
    if (!S_ISREG(st->st_mode)) {
        fy_error_set(err, FERRY_ERR_IO, FERRY_NO_OFFSET, NULL, "%s is %s, not a regular file: not read", path,
                     kind_of(st->st_mode));
        return -1;
    }
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    if (fd < 0) {
        fy_error_set(err, FERRY_ERR_IO, FERRY_NO_OFFSET, NULL, "cannot open %s: %s", path, strerror(errno));
        return -1;
    }
    if (fstat(fd, st) != 0) {
        fy_error_set(err, FERRY_ERR_IO, FERRY_NO_OFFSET, NULL, "cannot open %s: %s", path, strerror(errno));
        close(fd);
        return -1;
    }
    if (!S_ISREG(st->st_mode)) { /* replaced between the stat and the open */
        fy_error_set(err, FERRY_ERR_IO, FERRY_NO_OFFSET, NULL, "%s is %s, not a regular file: not read", path,
                     kind_of(st->st_mode));
        close(fd);
        return -1;
    }
    /* Regular files never block; the flag goes anyway, for plain reads. */
    int flags = fcntl(fd, F_GETFL);
    if (flags >= 0) (void)fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
    return fd;
}

static bool read_fully(int fd, uint8_t *buf, size_t n, size_t *got, const char *path, bool exact, ferry_error *err)
{
    *got = 0;
    while (*got < n) {
        ssize_t r = read(fd, buf + *got, n - *got);
        if (r < 0 && errno == EINTR) continue;
        if (r == 0 && !exact) break;
        if (r <= 0) {
            fy_error_set(err, FERRY_ERR_IO, *got, NULL, "cannot read %s: %s", path,
                         r < 0 ? strerror(errno) : "file shrank while reading");
            return false;
        }
        *got += (size_t)r;
    }
    return true;
}

ferry_result ferry_file_load(const char *path, size_t max_size, uint8_t **data, size_t *size,
                             ferry_error *err)
{
    fy_error_clear(err);
    *data = NULL;
    *size = 0;
    struct stat st;
    int fd = open_regular(path, &st, err);
    if (fd < 0) return FERRY_ERR_IO;
    if ((max_size && (uint64_t)st.st_size > max_size) || (uint64_t)st.st_size > SIZE_MAX - 1) {
        fy_error_set(err, FERRY_ERR_LIMIT, FERRY_NO_OFFSET, NULL, "%s is %lld bytes, over the limit of %zu",
                     path, (long long)st.st_size, max_size);
        close(fd);
        return FERRY_ERR_LIMIT;
    }
    size_t n = (size_t)st.st_size;
    uint8_t *buf = malloc(n ? n : 1);
    if (!buf) {
        fy_error_set(err, FERRY_ERR_NOMEM, FERRY_NO_OFFSET, NULL, "out of memory reading %s", path);
        close(fd);
        return FERRY_ERR_NOMEM;
    }
    size_t got;
    if (!read_fully(fd, buf, n, &got, path, true, err)) {
        free(buf);
        close(fd);
        return FERRY_ERR_IO;
    }
    close(fd);
    *data = buf;
    *size = n;
    return FERRY_OK;
}

ferry_result ferry_file_read_head(const char *path, void *buf, size_t capacity, size_t *got, uint64_t *file_size,
                                  ferry_error *err)
{
    fy_error_clear(err);
    *got = 0;
    if (file_size) *file_size = 0;
    struct stat st;
    int fd = open_regular(path, &st, err);
    if (fd < 0) return FERRY_ERR_IO;
    if (file_size) *file_size = (uint64_t)st.st_size;
    bool ok = read_fully(fd, buf, capacity, got, path, false, err);
    close(fd);
    return ok ? FERRY_OK : FERRY_ERR_IO;
}

void ferry_file_free(uint8_t *data) { free(data); }

static bool same_file(const char *a, const char *b)
{
    struct stat sa, sb;
    if (stat(a, &sa) != 0 || stat(b, &sb) != 0) return false;
    return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

ferry_result fy_file_check_target(const char *path, const ferry_write_options *options, ferry_error *err)
{
    const char *input_path = options ? options->protect_input : NULL;
    if (input_path && same_file(path, input_path)) {
        fy_error_set(err, FERRY_ERR_ARGUMENT, FERRY_NO_OFFSET, NULL,
                     "refusing to overwrite the input file %s", input_path);
        return FERRY_ERR_ARGUMENT;
    }
    return FERRY_OK;
}

/* The temporary's name: TARGET.ferry-tmp-PID-XXXXXX (see ferry.h). */
#define TMP_TAG ".ferry-tmp-"

ferry_result fy_file_stage(const char *path, const void *data, size_t size, const ferry_write_options *options,
                           char **tmp_out, ferry_error *err)
{
    *tmp_out = NULL;
    bool sync = !options || !options->no_sync;
    ferry_result r = fy_file_check_target(path, options, err);
    if (r != FERRY_OK) return r;
    size_t len = strlen(path);
    size_t cap = len + sizeof TMP_TAG + 32;
    char *tmp = malloc(cap);
    if (!tmp) {
        fy_error_set(err, FERRY_ERR_NOMEM, FERRY_NO_OFFSET, NULL, "out of memory");
        return FERRY_ERR_NOMEM;
    }
    /* mkstemp gives a unique name in the target's folder, so that the rename
     * stays on one file system and concurrent writers never collide; the
     * process id lets a later run prove a leftover is stale. */
    snprintf(tmp, cap, "%s" TMP_TAG "%ld-XXXXXX", path, (long)getpid());
    int fd = mkstemp(tmp);
    if (fd < 0) {
        fy_error_set(err, FERRY_ERR_IO, FERRY_NO_OFFSET, NULL, "cannot create a temporary file beside %s: %s",
                     path, strerror(errno));
        free(tmp);
        return FERRY_ERR_IO;
    }
    const uint8_t *p = data;
    size_t left = size;
    bool ok = true;
    int saved = 0;
    while (left) {
        ssize_t w = write(fd, p, left);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) {
            saved = w < 0 ? errno : ENOSPC;
            ok = false;
            break;
        }
        p += w;
        left -= (size_t)w;
    }
    /* mkstemp makes 0600 files; give the result the usual 0644 (reading the
     * umask would mean changing it: process-wide state, racy in threads). */
    if (ok && fchmod(fd, 0644) != 0) ok = false;
    if (ok && sync && fsync(fd) != 0) ok = false;
    if (!ok && !saved) saved = errno;
    if (close(fd) != 0 && ok) {
        ok = false;
        saved = errno;
    }
    if (!ok) {
        unlink(tmp);
        fy_error_set(err, FERRY_ERR_IO, FERRY_NO_OFFSET, NULL, "cannot write %s: %s", path, strerror(saved));
        free(tmp);
        return FERRY_ERR_IO;
    }
    *tmp_out = tmp;
    return FERRY_OK;
}

ferry_result fy_file_commit(const char *tmp, const char *path, ferry_error *err)
{
    if (rename(tmp, path) != 0) {
        int saved = errno;
        unlink(tmp);
        fy_error_set(err, FERRY_ERR_IO, FERRY_NO_OFFSET, NULL, "cannot write %s: %s", path, strerror(saved));
        return FERRY_ERR_IO;
    }
    return FERRY_OK;
}

ferry_result ferry_file_write(const char *path, const void *data, size_t size, const ferry_write_options *options,
                              ferry_error *err)
{
    fy_error_clear(err);
    char *tmp;
    ferry_result r = fy_file_stage(path, data, size, options, &tmp, err);
    if (r != FERRY_OK) return r;
    r = fy_file_commit(tmp, path, err);
    free(tmp);
    return r;
}

/* True when `name` is TARGET.ferry-tmp-PID-XXXXXX; sets *pid. */
static bool temp_name_pid(const char *name, long *pid)
{
    const char *tag = NULL;
    for (const char *p = strstr(name, TMP_TAG); p; p = strstr(p + 1, TMP_TAG)) tag = p;
    if (!tag || tag == name) return false;
    const char *p = tag + strlen(TMP_TAG);
    long value = 0;
    size_t digits = 0;
    while (*p >= '0' && *p <= '9' && digits < 12) {
        value = value * 10 + (*p++ - '0');
        digits++;
    }
    if (!digits || value <= 0 || *p != '-') return false;
    p++;
    if (strlen(p) != 6) return false;
    for (; *p; p++)
        if (!((*p >= '0' && *p <= '9') || (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z'))) return false;
    *pid = value;
    return true;
}

ferry_result ferry_file_remove_stale_temporaries(const char *dir, size_t *removed, ferry_error *err)
{
    fy_error_clear(err);
    if (removed) *removed = 0;
    DIR *d = opendir(dir);
    if (!d) {
        fy_error_set(err, FERRY_ERR_IO, FERRY_NO_OFFSET, NULL, "cannot read the folder %s: %s", dir, strerror(errno));
        return FERRY_ERR_IO;
    }
    int dfd = dirfd(d);
    struct dirent *e;
    while ((e = readdir(d))) {
        long pid;
        if (!temp_name_pid(e->d_name, &pid)) continue;
        struct stat st;
        if (fstatat(dfd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0) continue;
        /* Ours: a regular file of this user whose writer no longer runs. */
        if (!S_ISREG(st.st_mode) || st.st_uid != geteuid()) continue;
        if ((long)(pid_t)pid != pid || pid == (long)getpid()) continue;
        if (kill((pid_t)pid, 0) == 0 || errno != ESRCH) continue;
        if (unlinkat(dfd, e->d_name, 0) == 0 && removed) (*removed)++;
    }
    closedir(d);
    return FERRY_OK;
}
