/* Whole-file loading and atomic writing (POSIX). */
#define _POSIX_C_SOURCE 200809L
#include "core.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

ferry_result ferry_file_load(const char *path, size_t max_size, uint8_t **data, size_t *size,
                             ferry_error *err)
{
    fy_error_clear(err);
    *data = NULL;
    *size = 0;
    int fd = open(path, O_RDONLY);
    if (fd < 0) {
        fy_error_set(err, FERRY_ERR_IO, FERRY_NO_OFFSET, NULL, "cannot open %s: %s", path, strerror(errno));
        return FERRY_ERR_IO;
    }
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        fy_error_set(err, FERRY_ERR_IO, FERRY_NO_OFFSET, NULL, "%s is not a regular file", path);
        close(fd);
        return FERRY_ERR_IO;
    }
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
    size_t got = 0;
    while (got < n) {
        ssize_t r = read(fd, buf + got, n - got);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) {
            fy_error_set(err, FERRY_ERR_IO, got, NULL, "cannot read %s: %s", path,
                         r < 0 ? strerror(errno) : "file shrank while reading");
            free(buf);
            close(fd);
            return FERRY_ERR_IO;
        }
        got += (size_t)r;
    }
    close(fd);
    *data = buf;
    *size = n;
    return FERRY_OK;
}

void ferry_file_free(uint8_t *data) { free(data); }

static bool same_file(const char *a, const char *b)
{
    struct stat sa, sb;
    if (stat(a, &sa) != 0 || stat(b, &sb) != 0) return false;
    return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

ferry_result ferry_file_write_atomic(const char *path, const void *data, size_t size,
                                     const char *input_path, ferry_error *err)
{
    ferry_write_options options = {input_path, false};
    return ferry_file_write(path, data, size, &options, err);
}

ferry_result ferry_file_write(const char *path, const void *data, size_t size, const ferry_write_options *options,
                              ferry_error *err)
{
    const char *input_path = options ? options->protect_input : NULL;
    bool sync = !options || !options->no_sync;
    fy_error_clear(err);
    if (input_path && same_file(path, input_path)) {
        fy_error_set(err, FERRY_ERR_ARGUMENT, FERRY_NO_OFFSET, NULL,
                     "refusing to overwrite the input file %s", input_path);
        return FERRY_ERR_ARGUMENT;
    }
    size_t len = strlen(path);
    char *tmp = malloc(len + 32);
    if (!tmp) {
        fy_error_set(err, FERRY_ERR_NOMEM, FERRY_NO_OFFSET, NULL, "out of memory");
        return FERRY_ERR_NOMEM;
    }
    /* mkstemp gives a unique name in the target's folder, so that the rename
     * stays on one file system and concurrent writers never collide. */
    snprintf(tmp, len + 32, "%s.tmp-XXXXXX", path);
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
    while (left) {
        ssize_t w = write(fd, p, left);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) {
            ok = false;
            break;
        }
        p += w;
        left -= (size_t)w;
    }
    int saved = errno;
    /* mkstemp makes 0600 files; give the result the usual 0644 (reading the
     * umask would mean changing it: process-wide state, racy in threads). */
    if (ok && fchmod(fd, 0644) != 0) ok = false;
    if (ok && sync && fsync(fd) != 0) ok = false;
    if (close(fd) != 0) ok = false;
    if (ok && rename(tmp, path) != 0) ok = false;
    if (!ok) {
        if (!saved) saved = errno;
        unlink(tmp);
        fy_error_set(err, FERRY_ERR_IO, FERRY_NO_OFFSET, NULL, "cannot write %s: %s", path, strerror(saved));
        free(tmp);
        return FERRY_ERR_IO;
    }
    free(tmp);
    return FERRY_OK;
}
