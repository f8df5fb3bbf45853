/* The platform layer on POSIX systems (platform.h). */
#ifndef _WIN32
#define _GNU_SOURCE /* copy_file_range, O_CLOEXEC, realpath, fstatat */
#include "platform.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef O_CLOEXEC
#define O_CLOEXEC 0
#endif
#ifndef O_NOCTTY
#define O_NOCTTY 0
#endif

/* ---- errors ---- */

const char *fy_sys_message(int code, char *buf, size_t cap)
{
    (void)buf, (void)cap;
    if (code == FY_SYS_IO_ERROR) code = EIO;
    if (code == FY_SYS_NO_SPACE) code = ENOSPC;
    return strerror(code);
}

bool fy_sys_not_found(int code) { return code == ENOENT || code == ENOTDIR; }

bool fy_sys_exists(int code) { return code == EEXIST; }

/* ---- what is at a path ---- */

static fy_file_kind kind_of(mode_t mode)
{
    if (S_ISREG(mode)) return FY_KIND_REGULAR;
    if (S_ISDIR(mode)) return FY_KIND_FOLDER;
    if (S_ISLNK(mode)) return FY_KIND_LINK;
    if (S_ISFIFO(mode)) return FY_KIND_FIFO;
    if (S_ISCHR(mode)) return FY_KIND_CHAR_DEVICE;
    if (S_ISBLK(mode)) return FY_KIND_BLOCK_DEVICE;
    if (S_ISSOCK(mode)) return FY_KIND_SOCKET;
    return FY_KIND_OTHER;
}

static void info_of(const struct stat *st, fy_file_info *info)
{
    memset(info, 0, sizeof *info);
    info->kind = kind_of(st->st_mode);
    info->size = st->st_size > 0 ? (uint64_t)st->st_size : 0;
    info->modified = (int64_t)st->st_mtime;
    info->id.volume = (uint64_t)st->st_dev;
    info->id.index[0] = (uint64_t)st->st_ino;
    info->has_id = true;
}

int fy_path_info(const char *path, bool follow_links, fy_file_info *info)
{
    struct stat st;
    if ((follow_links ? stat(path, &st) : lstat(path, &st)) != 0) return errno;
    info_of(&st, info);
    return 0;
}

bool fy_same_file(const char *a, const char *b)
{
    fy_file_info ia, ib;
    if (fy_path_info(a, true, &ia) != 0 || fy_path_info(b, true, &ib) != 0) return false;
    return ia.id.volume == ib.id.volume && ia.id.index[0] == ib.id.index[0];
}

/* ---- open files ---- */

int fy_file_open_read(const char *path, fy_file *f, fy_file_info *info)
{
    f->handle = -1;
    struct stat st;
    if (stat(path, &st) != 0) return errno;
    info_of(&st, info);
    if (info->kind != FY_KIND_REGULAR) return 0; /* never opened */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    if (fd < 0) return errno;
    if (fstat(fd, &st) != 0) {
        int saved = errno;
        close(fd);
        return saved;
    }
    info_of(&st, info);
    if (info->kind != FY_KIND_REGULAR) { /* replaced between the stat and the open */
        close(fd);
        return 0;
    }
    /* Regular files never block; the flag goes anyway, for plain reads. */
    int flags = fcntl(fd, F_GETFL);
    if (flags >= 0) (void)fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
    f->handle = fd;
    return 0;
}

int fy_file_read(fy_file f, void *buf, size_t n, size_t *got)
{
    *got = 0;
    while (*got < n) {
        ssize_t r = read((int)f.handle, (uint8_t *)buf + *got, n - *got);
        if (r < 0 && errno == EINTR) continue;
        if (r < 0) return errno;
        if (r == 0) break;
        *got += (size_t)r;
    }
    return 0;
}

int fy_file_write(fy_file f, const void *data, size_t n, size_t *written)
{
    *written = 0;
    const uint8_t *p = data;
    while (*written < n) {
        ssize_t w = write((int)f.handle, p + *written, n - *written);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) return w < 0 ? errno : FY_SYS_NO_SPACE;
        *written += (size_t)w;
    }
    return 0;
}

int fy_file_flush(fy_file f) { return fsync((int)f.handle) == 0 ? 0 : errno; }

int fy_file_close(fy_file f) { return close((int)f.handle) == 0 ? 0 : errno; }

int fy_file_create_unique(char *name, fy_file *f)
{
    int fd = mkstemp(name);
    f->handle = fd;
    return fd < 0 ? errno : 0;
}

int fy_file_set_default_mode(fy_file f) { return fchmod((int)f.handle, 0644) == 0 ? 0 : errno; }

int fy_file_copy_range(fy_file from, fy_file to, uint64_t size, uint64_t *copied)
{
    *copied = 0;
#ifdef __linux__
    while (*copied < size) {
        uint64_t left = size - *copied;
        size_t chunk = left > ((size_t)1 << 30) ? ((size_t)1 << 30) : (size_t)left;
        ssize_t n = copy_file_range((int)from.handle, NULL, (int)to.handle, NULL, chunk, 0);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0 && (errno == ENOSYS || errno == EXDEV || errno == EINVAL || errno == EOPNOTSUPP || errno == EPERM ||
                      errno == ETXTBSY))
            return 0; /* this file system cannot: the caller copies the rest */
        if (n < 0) return errno;
        if (n == 0) break; /* shorter than measured */
        *copied += (uint64_t)n;
    }
#else
    (void)from, (void)to, (void)size;
#endif
    return 0;
}

/* ---- names ---- */

int fy_file_replace(const char *from, const char *to) { return rename(from, to) == 0 ? 0 : errno; }

int fy_file_remove(const char *path) { return unlink(path) == 0 ? 0 : errno; }

int fy_folder_make(const char *path) { return mkdir(path, 0755) == 0 ? 0 : errno; }

int fy_folder_remove(const char *path) { return rmdir(path) == 0 ? 0 : errno; }

int fy_path_resolve(const char *path, char **resolved)
{
    *resolved = realpath(path, NULL);
    return *resolved ? 0 : errno;
}

/* ---- path syntax ---- */

bool fy_path_names_are_unicode(void) { return false; }

bool fy_path_is_separator(char c) { return c == '/'; }

size_t fy_path_name_offset(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? (size_t)(slash - path) + 1 : 0;
}

bool fy_path_folder(const char *path, char *out, size_t cap)
{
    size_t at = fy_path_name_offset(path);
    /* "x" -> "."; "/x" -> "/" (the root); "a/x" -> "a". */
    int n = !at ? snprintf(out, cap, ".") : snprintf(out, cap, "%.*s", at == 1 ? 1 : (int)(at - 1), path);
    return n > 0 && (size_t)n < cap;
}

bool fy_path_parent(const char *folder, char *out, size_t cap)
{
    int n = snprintf(out, cap, "%s/..", strcmp(folder, "/") == 0 ? "" : folder);
    return n > 0 && (size_t)n < cap;
}

int fy_path_join(char *out, size_t cap, const char *folder, const char *name)
{
    return snprintf(out, cap, "%s/%s", folder, name);
}

/* ---- mapping ---- */

int fy_map(fy_file f, uint64_t size, void **base)
{
    *base = NULL;
    if (size > SIZE_MAX) return EFBIG;
    void *p = mmap(NULL, (size_t)size, PROT_READ, MAP_PRIVATE, (int)f.handle, 0);
    if (p == MAP_FAILED) return errno;
    *base = p;
    return 0;
}

void fy_unmap(void *base, uint64_t size) { munmap(base, (size_t)size); }

size_t fy_page_size(void)
{
    long page = sysconf(_SC_PAGESIZE);
    return page > 0 ? (size_t)page : 4096;
}

void fy_map_drop(void *addr, size_t size) { (void)madvise(addr, size, MADV_DONTNEED); }

/* ---- folders ---- */

struct fy_folder {
    DIR *dir;
    int fd;
    int error; /* what ended the listing early, or 0 */
};

int fy_folder_open(const char *path, fy_folder **out)
{
    *out = NULL;
    DIR *dir = opendir(path);
    if (!dir) return errno;
    fy_folder *d = malloc(sizeof *d);
    if (!d) {
        closedir(dir);
        return ENOMEM;
    }
    d->dir = dir;
    d->fd = dirfd(dir);
    d->error = 0;
    *out = d;
    return 0;
}

bool fy_folder_next(fy_folder *d, const char **name, fy_file_kind *kind)
{
    struct dirent *e;
    for (;;) {
        errno = 0; /* readdir says "the end" and "failed" alike, but for errno */
        if (!(e = readdir(d->dir))) {
            d->error = errno;
            break;
        }
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) continue;
        *name = e->d_name;
        *kind = FY_KIND_UNKNOWN;
#ifdef DT_REG
        /* The type the folder gives, if any: no system call per entry. */
        switch (e->d_type) {
        case DT_REG: *kind = FY_KIND_REGULAR; break;
        case DT_DIR: *kind = FY_KIND_FOLDER; break;
        case DT_LNK: *kind = FY_KIND_LINK; break;
        case DT_FIFO: *kind = FY_KIND_FIFO; break;
        case DT_CHR: *kind = FY_KIND_CHAR_DEVICE; break;
        case DT_BLK: *kind = FY_KIND_BLOCK_DEVICE; break;
        case DT_SOCK: *kind = FY_KIND_SOCKET; break;
        case DT_UNKNOWN: break;
        default: *kind = FY_KIND_OTHER; break;
        }
#endif
        return true;
    }
    return false;
}

int fy_folder_error(const fy_folder *d) { return d->error; }

int fy_folder_entry_info(fy_folder *d, const char *name, bool follow_links, fy_file_info *info)
{
    struct stat st;
    if (fstatat(d->fd, name, &st, follow_links ? 0 : AT_SYMLINK_NOFOLLOW) != 0) return errno;
    info_of(&st, info);
    return 0;
}

bool fy_folder_entry_is_mine(fy_folder *d, const char *name)
{
    struct stat st;
    return fstatat(d->fd, name, &st, AT_SYMLINK_NOFOLLOW) == 0 && st.st_uid == geteuid();
}

int fy_folder_entry_remove(fy_folder *d, const char *name) { return unlinkat(d->fd, name, 0) == 0 ? 0 : errno; }

void fy_folder_close(fy_folder *d)
{
    if (!d) return;
    closedir(d->dir);
    free(d);
}

/* ---- processes ---- */

long fy_process_id(void) { return (long)getpid(); }

bool fy_process_may_run(long long pid)
{
    if (pid <= 0 || (long long)(pid_t)pid != pid) return true; /* not a process id: nothing proven */
    return kill((pid_t)pid, 0) == 0 || errno != ESRCH;
}

/* ---- threads ---- */

int fy_mutex_init(fy_mutex *m) { return pthread_mutex_init(&m->lock, NULL); }

void fy_mutex_lock(fy_mutex *m) { pthread_mutex_lock(&m->lock); }

void fy_mutex_unlock(fy_mutex *m) { pthread_mutex_unlock(&m->lock); }

void fy_mutex_destroy(fy_mutex *m) { pthread_mutex_destroy(&m->lock); }

static void *thread_main(void *arg)
{
    fy_thread *t = arg;
    t->fn(t->arg);
    return NULL;
}

int fy_thread_start(fy_thread *t, void (*fn)(void *), void *arg)
{
    t->fn = fn;
    t->arg = arg;
    return pthread_create(&t->handle, NULL, thread_main, t);
}

void fy_thread_join(fy_thread *t) { pthread_join(t->handle, NULL); }

int fy_cpu_count(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 && n < 1 << 20 ? (int)n : 1;
}

#endif /* !_WIN32 */
