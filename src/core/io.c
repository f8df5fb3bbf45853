/* Whole-file loading and atomic writing (POSIX). */
#define _GNU_SOURCE /* copy_file_range */
#include "core.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
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

/* The n bytes of the regular file open at fd into malloc'd memory; closes
 * fd (ferry_file_load, and ferry_file_map where mapping fails). */
static ferry_result read_whole(int fd, const char *path, size_t n, uint8_t **data, ferry_error *err)
{
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
    return FERRY_OK;
}

/* Opens a regular file of at most max_size bytes (0: no limit): *fd and
 * its size *n. */
static ferry_result open_sized(const char *path, size_t max_size, int *fd, size_t *n, ferry_error *err)
{
    struct stat st;
    if ((*fd = open_regular(path, &st, err)) < 0) return FERRY_ERR_IO;
    if ((max_size && (uint64_t)st.st_size > max_size) || (uint64_t)st.st_size > SIZE_MAX - 1) {
        fy_error_set(err, FERRY_ERR_LIMIT, FERRY_NO_OFFSET, NULL, "%s is %lld bytes, over the limit of %zu",
                     path, (long long)st.st_size, max_size);
        close(*fd);
        return FERRY_ERR_LIMIT;
    }
    *n = (size_t)st.st_size;
    return FERRY_OK;
}

ferry_result ferry_file_load(const char *path, size_t max_size, uint8_t **data, size_t *size,
                             ferry_error *err)
{
    fy_error_clear(err);
    *data = NULL;
    *size = 0;
    size_t n;
    int fd;
    ferry_result r = open_sized(path, max_size, &fd, &n, err);
    if (r != FERRY_OK) return r;
    r = read_whole(fd, path, n, data, err);
    if (r == FERRY_OK) *size = n;
    return r;
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

struct ferry_file_writer {
    int fd;
    char *tmp;
    char *path;
    bool sync;
    bool failed;
    uint64_t written;
};

ferry_result ferry_file_writer_open(const char *path, const ferry_write_options *options, ferry_file_writer **out,
                                    ferry_error *err)
{
    fy_error_clear(err);
    *out = NULL;
    ferry_result r = fy_file_check_target(path, options, err);
    if (r != FERRY_OK) return r;
    ferry_file_writer *w = calloc(1, sizeof *w);
    size_t len = strlen(path);
    size_t cap = len + sizeof TMP_TAG + 32;
    char *tmp = malloc(cap);
    char *copy = malloc(len + 1);
    if (!w || !tmp || !copy) {
        free(w), free(tmp), free(copy);
        fy_error_set(err, FERRY_ERR_NOMEM, FERRY_NO_OFFSET, NULL, "out of memory");
        return FERRY_ERR_NOMEM;
    }
    memcpy(copy, path, len + 1);
    /* mkstemp gives a unique name in the target's folder, so that the rename
     * stays on one file system and concurrent writers never collide; the
     * process id lets a later run prove a leftover is stale. */
    snprintf(tmp, cap, "%s" TMP_TAG "%ld-XXXXXX", path, (long)getpid());
    int fd = mkstemp(tmp);
    if (fd < 0) {
        fy_error_set(err, FERRY_ERR_IO, FERRY_NO_OFFSET, NULL, "cannot create a temporary file beside %s: %s",
                     path, strerror(errno));
        free(w), free(tmp), free(copy);
        return FERRY_ERR_IO;
    }
    w->fd = fd;
    w->tmp = tmp;
    w->path = copy;
    w->sync = !options || !options->no_sync;
    *out = w;
    return FERRY_OK;
}

static ferry_result writer_fail(ferry_file_writer *w, int saved, ferry_error *err)
{
    w->failed = true;
    fy_error_set(err, FERRY_ERR_IO, FERRY_NO_OFFSET, NULL, "cannot write %s: %s", w->path, strerror(saved));
    return FERRY_ERR_IO;
}

ferry_result ferry_file_writer_write(ferry_file_writer *w, const void *data, size_t size, ferry_error *err)
{
    if (err) fy_error_clear(err);
    if (w->failed) return writer_fail(w, EIO, err);
    const uint8_t *p = data;
    while (size) {
        ssize_t n = write(w->fd, p, size);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return writer_fail(w, n < 0 ? errno : ENOSPC, err);
        p += n;
        size -= (size_t)n;
        w->written += (uint64_t)n;
    }
    return FERRY_OK;
}

uint64_t ferry_file_writer_size(const ferry_file_writer *w) { return w ? w->written : 0; }

ferry_result ferry_file_writer_append_file(ferry_file_writer *w, const char *path, uint64_t size, ferry_error *err)
{
    if (err) fy_error_clear(err);
    if (w->failed) return writer_fail(w, EIO, err);
    struct stat st;
    int fd = open_regular(path, &st, err);
    w->failed = fd < 0 || (uint64_t)st.st_size != size; /* the output would lack its bytes */
    if (fd < 0) return FERRY_ERR_IO;
    if ((uint64_t)st.st_size != size) {
        fy_error_set(err, FERRY_ERR_IO, FERRY_NO_OFFSET, NULL, "%s has %lld bytes, not the %llu it had when listed",
                     path, (long long)st.st_size, (unsigned long long)size);
        close(fd);
        return FERRY_ERR_IO;
    }
    uint64_t left = size;
    bool in_kernel = true;
#ifdef __linux__
    /* copy_file_range: no trip through this process's memory. */
    while (left && in_kernel) {
        size_t chunk = left > ((size_t)1 << 30) ? ((size_t)1 << 30) : (size_t)left;
        ssize_t n = copy_file_range(fd, NULL, w->fd, NULL, chunk, 0);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0 && (errno == ENOSYS || errno == EXDEV || errno == EINVAL || errno == EOPNOTSUPP ||
                      errno == EPERM || errno == ETXTBSY)) {
            in_kernel = false; /* the plain copy below takes over from here */
            break;
        }
        if (n < 0) {
            int saved = errno;
            close(fd);
            return writer_fail(w, saved, err);
        }
        if (n == 0) break; /* shorter than measured */
        left -= (uint64_t)n;
        w->written += (uint64_t)n;
    }
#else
    in_kernel = false;
#endif
    if (left && !in_kernel) {
        enum { BUF = 1 << 20 };
        uint8_t *buf = malloc(BUF);
        if (!buf) {
            close(fd);
            fy_error_set(err, FERRY_ERR_NOMEM, FERRY_NO_OFFSET, NULL, "out of memory");
            return FERRY_ERR_NOMEM;
        }
        while (left) {
            size_t want = left < BUF ? (size_t)left : BUF;
            ssize_t n = read(fd, buf, want);
            if (n < 0 && errno == EINTR) continue;
            if (n < 0) {
                w->failed = true;
                fy_error_set(err, FERRY_ERR_IO, FERRY_NO_OFFSET, NULL, "cannot read %s: %s", path, strerror(errno));
                free(buf);
                close(fd);
                return FERRY_ERR_IO;
            }
            if (n == 0) break;
            if (ferry_file_writer_write(w, buf, (size_t)n, err) != FERRY_OK) {
                free(buf);
                close(fd);
                return FERRY_ERR_IO;
            }
            left -= (uint64_t)n;
        }
        free(buf);
    }
    close(fd);
    if (left) {
        w->failed = true;
        fy_error_set(err, FERRY_ERR_IO, FERRY_NO_OFFSET, NULL, "%s ended %llu bytes before the %llu it had when listed",
                     path, (unsigned long long)left, (unsigned long long)size);
        return FERRY_ERR_IO;
    }
    return FERRY_OK;
}

/* Gives the temporary its mode, flushes and closes it; returns its name
 * (the caller's to free) or NULL with the temporary removed. */
static char *writer_finish(ferry_file_writer *w, ferry_error *err)
{
    bool ok = !w->failed;
    int saved = ok ? 0 : EIO;
    /* mkstemp makes 0600 files; give the result the usual 0644 (reading the
     * umask would mean changing it: process-wide state, racy in threads). */
    if (ok && fchmod(w->fd, 0644) != 0) ok = false;
    if (ok && w->sync && fsync(w->fd) != 0) ok = false;
    if (!ok && !saved) saved = errno;
    if (close(w->fd) != 0 && ok) {
        ok = false;
        saved = errno;
    }
    char *tmp = w->tmp;
    if (!ok) {
        unlink(tmp);
        if (err && err->code == FERRY_OK)
            fy_error_set(err, FERRY_ERR_IO, FERRY_NO_OFFSET, NULL, "cannot write %s: %s", w->path, strerror(saved));
        free(tmp);
        tmp = NULL;
    }
    free(w->path);
    free(w);
    return tmp;
}

ferry_result ferry_file_writer_commit(ferry_file_writer *w, ferry_error *err)
{
    if (err) fy_error_clear(err);
    if (!w) {
        fy_error_set(err, FERRY_ERR_ARGUMENT, FERRY_NO_OFFSET, NULL, "no writer");
        return FERRY_ERR_ARGUMENT;
    }
    if (w->failed) {
        fy_error_set(err, FERRY_ERR_IO, FERRY_NO_OFFSET, NULL, "cannot write %s: an earlier write failed", w->path);
    }
    char *path = strdup(w->path);
    char *tmp = writer_finish(w, err);
    ferry_result r = FERRY_ERR_IO;
    if (tmp && path) r = fy_file_commit(tmp, path, err);
    else if (tmp) unlink(tmp);
    free(tmp);
    free(path);
    return r;
}

void ferry_file_writer_abort(ferry_file_writer *w)
{
    if (!w) return;
    w->failed = true;
    free(writer_finish(w, NULL));
}

ferry_result fy_file_stage(const char *path, const void *data, size_t size, const ferry_write_options *options,
                           char **tmp_out, ferry_error *err)
{
    *tmp_out = NULL;
    ferry_file_writer *w;
    ferry_result r = ferry_file_writer_open(path, options, &w, err);
    if (r != FERRY_OK) return r;
    if (ferry_file_writer_write(w, data, size, err) != FERRY_OK) {
        ferry_file_writer_abort(w);
        return FERRY_ERR_IO;
    }
    char *tmp = writer_finish(w, err);
    if (!tmp) return FERRY_ERR_IO;
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

/* ---- mapping ---- */

ferry_result ferry_file_map(const char *path, size_t max_size, ferry_file_mapping *map, ferry_error *err)
{
    fy_error_clear(err);
    memset(map, 0, sizeof *map);
    size_t n;
    int fd;
    ferry_result r = open_sized(path, max_size, &fd, &n, err);
    if (r != FERRY_OK) return r;
    if (n) {
        void *p = mmap(NULL, n, PROT_READ, MAP_PRIVATE, fd, 0);
        if (p != MAP_FAILED) {
            close(fd);
            map->data = p;
            map->size = n;
            map->mapped = true;
            map->base = p;
            return FERRY_OK;
        }
    }
    /* Empty, or a file system that cannot map: read it. */
    uint8_t *buf;
    if ((r = read_whole(fd, path, n, &buf, err)) != FERRY_OK) return r;
    map->data = buf;
    map->size = n;
    map->base = buf;
    return FERRY_OK;
}

void ferry_file_map_drop(const ferry_file_mapping *map, uint64_t offset, uint64_t size)
{
    if (!map || !map->mapped || offset >= map->size) return;
    if (size > map->size - offset) size = map->size - offset;
    uint64_t page = (uint64_t)sysconf(_SC_PAGESIZE);
    if (!page) page = 4096;
    /* Every page the range touches, a neighbour's share included: the
     * mapping is read-only, so a dropped page is only read again from the
     * file (or the page cache) when next used. */
    uint64_t lo = offset / page * page, hi = (offset + size + page - 1) / page * page;
    if (hi <= lo) return;
    (void)madvise((uint8_t *)map->base + lo, (size_t)(hi - lo), MADV_DONTNEED);
}

void ferry_file_unmap(ferry_file_mapping *map)
{
    if (!map) return;
    if (map->mapped)
        munmap(map->base, map->size);
    else
        free(map->base);
    memset(map, 0, sizeof *map);
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
