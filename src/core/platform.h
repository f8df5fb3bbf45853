/* The platform layer: the one place libferry calls the operating system.
 * platform_posix.c implements it with POSIX (Linux, macOS, the BSDs),
 * platform_win32.c with Win32; each file compiles on its system only. No
 * other file of the library calls either system directly.
 *
 * Paths are UTF-8 everywhere above this layer. On Windows they become
 * UTF-16 here (a name that is not UTF-8 is refused with its own error),
 * '/' and '\\' both separate, drive letters and UNC names are taken, and
 * long paths work (docs/platform.md).
 *
 * A function that can fail returns 0 or a system error code: errno on
 * POSIX, a Win32 error code on Windows. fy_sys_message turns a code into
 * the system's words, which callers put in their messages ("cannot open X:
 * <words>"). Codes are only compared with 0 or handed to fy_sys_* here. */
#ifndef FERRY_PLATFORM_H
#define FERRY_PLATFORM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifndef _WIN32
#include <pthread.h>
#endif

/* ---- errors ---- */

/* Failures the library names itself: a write after an earlier one failed,
 * and a write that wrote nothing. fy_sys_message gives the system's words
 * for them (POSIX: EIO, ENOSPC). */
#define FY_SYS_IO_ERROR (-1)
#define FY_SYS_NO_SPACE (-2)

/* The words for `code`: strerror's on POSIX; on Windows FormatMessage's in
 * UTF-8 without the final period, and "the file is in use by another
 * program" for a sharing or lock violation. `buf` may hold the text. */
const char *fy_sys_message(int code, char *buf, size_t cap);
/* The path (or a folder on it) does not exist. */
bool fy_sys_not_found(int code);
/* Something already has that name. */
bool fy_sys_exists(int code);

/* ---- what is at a path ---- */

typedef enum fy_file_kind {
    FY_KIND_UNKNOWN, /* a folder listing that does not say (ask fy_folder_entry_info) */
    FY_KIND_REGULAR,
    FY_KIND_FOLDER,
    FY_KIND_LINK, /* only where links are not followed; Windows: symbolic links and junctions */
    FY_KIND_FIFO, /* Windows: a named pipe (\\.\pipe\...) */
    FY_KIND_CHAR_DEVICE,
    FY_KIND_BLOCK_DEVICE,
    FY_KIND_SOCKET,
    FY_KIND_OTHER
} fy_file_kind;

/* What tells two names of one file apart from two files: device and inode
 * on POSIX; the volume's serial number and the 128-bit file id on Windows. */
typedef struct fy_file_id {
    uint64_t volume;
    uint64_t index[2];
} fy_file_id;

/* How messages name a kind that is not read: "a folder", "a FIFO (named
 * pipe)", ... ("not a regular file" for the rest). The library's words, in
 * io.c, the same on every system. */
const char *fy_file_kind_name(fy_file_kind kind);

typedef struct fy_file_info {
    fy_file_kind kind;
    uint64_t size;
    int64_t modified; /* seconds since 1970-01-01 UTC */
    fy_file_id id;
    bool has_id; /* false where the system would not say (then no file is "the same") */
} fy_file_info;

int fy_path_info(const char *path, bool follow_links, fy_file_info *info);
/* Both paths exist and name one file (links followed). */
bool fy_same_file(const char *a, const char *b);

/* ---- open files ---- */

/* An open file: a descriptor on POSIX, a HANDLE on Windows; -1 when none. */
typedef struct fy_file {
    intptr_t handle;
} fy_file;

/* Opens a regular file for reading. Never blocks and never opens a FIFO or
 * a device: the kind is checked before opening (on POSIX, then again on the
 * descriptor, opened non-blocking, in case the file was swapped). Returns 0
 * with *f open and *info filled; 0 with f->handle == -1 and info->kind
 * saying what the path is when it is not a regular file; or an error code. */
int fy_file_open_read(const char *path, fy_file *f, fy_file_info *info);
/* Reads up to n bytes, fewer only at the end of the file: *got says how
 * many (also when it fails). */
int fy_file_read(fy_file f, void *buf, size_t n, size_t *got);
/* Writes all n bytes; *written says how many went (also when it fails). */
int fy_file_write(fy_file f, const void *data, size_t n, size_t *written);
/* The file's bytes on the disk (fsync, FlushFileBuffers). */
int fy_file_flush(fy_file f);
int fy_file_close(fy_file f);
/* Creates a new file for writing, named by `name` whose last six
 * characters, "XXXXXX", are replaced with letters and digits that make it
 * new (mkstemp); on POSIX it is readable by its owner only until
 * fy_file_set_default_mode. */
int fy_file_create_unique(char *name, fy_file *f);
/* The mode an output gets: 0644 on POSIX (without reading the umask,
 * which would mean changing process-wide state); nothing on Windows. */
int fy_file_set_default_mode(fy_file f);
/* Appends up to `size` bytes of `from` (from its position) to `to` without
 * the trip through this process's memory where the system can
 * (copy_file_range on Linux). *copied says how many went. Returns 0 also
 * when the system cannot, or `from` ended early: the caller copies what is
 * left through memory. An error code means the copy failed. */
int fy_file_copy_range(fy_file from, fy_file to, uint64_t size, uint64_t *copied);

/* ---- names ---- */

/* Puts `from` in the place of `to` in one step, replacing any file there
 * (rename; MoveFileExW with MOVEFILE_REPLACE_EXISTING and
 * MOVEFILE_WRITE_THROUGH, retried briefly while another program, such as a
 * virus scanner, holds the file). */
int fy_file_replace(const char *from, const char *to);
int fy_file_remove(const char *path);
/* A new folder (0755 on POSIX), and an empty folder removed. */
int fy_folder_make(const char *path);
int fy_folder_remove(const char *path);
/* The path absolute, links resolved (realpath; GetFinalPathNameByHandleW
 * without the \\?\ prefix, or where that cannot say, as under wine for a
 * path over 260 characters, the absolute path as given), malloc'd. */
int fy_path_resolve(const char *path, char **resolved);

/* ---- path syntax (no system call) ---- */

/* The system names files in Unicode only (Windows: UTF-16), so a name
 * that is not UTF-8 cannot be created; POSIX names are any bytes. */
bool fy_path_names_are_unicode(void);

/* True when c separates folders in a path: '/' (Windows: '/' or '\\'). */
bool fy_path_is_separator(char c);

/* Where the last component starts: after the last '/' (Windows: '/' or
 * '\\', or the ':' of "C:name"); 0 when there is no separator. */
size_t fy_path_name_offset(const char *path);
/* The folder holding `path`, as a path that opens it: the text before the
 * last separator, "." when there is none, the root itself when the
 * separator is the root's ("/x" -> "/"; Windows: "C:\x" -> "C:\",
 * "C:x" -> "C:"). False when it does not fit in cap. */
bool fy_path_folder(const char *path, char *out, size_t cap);
/* The folder above `folder` as a path ("a" -> "a/..", "/" -> "/.."). */
bool fy_path_parent(const char *folder, char *out, size_t cap);
/* folder and name joined with a separator (POSIX: always '/'; Windows:
 * none after a folder that ends in one or in a drive's ':'). Returns what
 * snprintf returns. */
int fy_path_join(char *out, size_t cap, const char *folder, const char *name);

/* ---- mapping ---- */

/* Maps `size` bytes (> 0) of the file read-only (mmap; MapViewOfFile). The
 * file may be closed afterwards. An error code where the file system
 * cannot map: the caller reads the file instead. */
int fy_map(fy_file f, uint64_t size, void **base);
void fy_unmap(void *base, uint64_t size);
size_t fy_page_size(void);
/* Lets the system drop the pages of [addr, addr + size) (page-aligned) from
 * memory; they are read from the file again if used (madvise DONTNEED;
 * Windows: trimmed from the working set). */
void fy_map_drop(void *addr, size_t size);

/* ---- folders ---- */

typedef struct fy_folder fy_folder;
int fy_folder_open(const char *path, fy_folder **out);
/* The next entry, "." and ".." left out: its name (UTF-8, valid until the
 * next call) and its kind as the listing tells it without following links
 * (FY_KIND_LINK for a link, FY_KIND_UNKNOWN when the listing does not say).
 * False at the end. On Windows a name that is not valid UTF-16 (an unpaired
 * surrogate) cannot be given in UTF-8 and is left out. */
bool fy_folder_next(fy_folder *d, const char **name, fy_file_kind *kind);
/* After fy_folder_next returned false: 0 at the listing's end, or the
 * error code that ended it early (the folder stopped being readable). */
int fy_folder_error(const fy_folder *d);
/* fy_path_info for an entry of the folder (on POSIX relative to the open
 * folder: fstatat). */
int fy_folder_entry_info(fy_folder *d, const char *name, bool follow_links, fy_file_info *info);
/* The entry (not followed) belongs to the user this process runs as (POSIX:
 * its owner is the effective user; Windows: its owner is the token's user
 * or the owner the token gives new files). False when it cannot be told. */
bool fy_folder_entry_is_mine(fy_folder *d, const char *name);
int fy_folder_entry_remove(fy_folder *d, const char *name);
void fy_folder_close(fy_folder *d);

/* ---- processes ---- */

long fy_process_id(void);
/* False only when no process with that id runs on this machine (kill(pid,
 * 0) fails with ESRCH; OpenProcess finds none, or one that has exited). */
bool fy_process_may_run(long long pid);

/* ---- threads ---- */

#ifdef _WIN32
typedef struct fy_mutex {
    void *lock; /* an SRWLOCK, which is one pointer */
} fy_mutex;
typedef struct fy_thread {
    void (*fn)(void *);
    void *arg;
    void *handle;
} fy_thread;
#else
typedef struct fy_mutex {
    pthread_mutex_t lock;
} fy_mutex;
typedef struct fy_thread {
    void (*fn)(void *);
    void *arg;
    pthread_t handle;
} fy_thread;
#endif

int fy_mutex_init(fy_mutex *m);
void fy_mutex_lock(fy_mutex *m);
void fy_mutex_unlock(fy_mutex *m);
void fy_mutex_destroy(fy_mutex *m);
/* Runs fn(arg) on a new thread. `t` must stay where it is until joined. */
int fy_thread_start(fy_thread *t, void (*fn)(void *), void *arg);
void fy_thread_join(fy_thread *t);
/* Processors this process may run on now (at least 1). */
int fy_cpu_count(void);

#endif
