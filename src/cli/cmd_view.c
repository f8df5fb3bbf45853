/* ferry view [PATH...]: the web viewer (docs/web.md) served on 127.0.0.1
 * with the given files and folders, read-only, until Ctrl-C.
 *
 * The HTTP server is Debian's libmicrohttpd. What is served, and nothing
 * else (any other request is 404):
 *   /, /index.html and the page's files      from the page folder (make web)
 *   /files/index.json                        the given paths' files: [{path, url, size}]
 *   /files/N/REL                             file REL of the N-th given path
 *                                            (a given file: its own name)
 * A request path is taken as libmicrohttpd decodes it (%XX already
 * resolved, so an encoded ".." is a ".."): the library's
 * ferry_folder_resolve finds the file (every segment a plain name: not
 * empty, ".", "..", not starting with '.', no '\'; the file, links
 * resolved, inside its folder, a link leading out refused, and regular). Only GET and HEAD; single byte ranges
 * (the page reads large archives a slice at a time). Requests whose Host is
 * not this server's loopback address are refused, so that a web page
 * elsewhere cannot reach it through a name that resolves to 127.0.0.1.
 * The bytes are read with the library's ferry_file_map (regular files
 * only, never blocking on a FIFO); the library itself serves nothing. */
#define _DEFAULT_SOURCE
#include "cli.h"

#include <arpa/inet.h>
#include <errno.h>
#include <limits.h>
#include <microhttpd.h>
#include <netinet/in.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

typedef struct view_root {
    const char *arg; /* as given (an argument of the command) */
    char *real;      /* realpath */
    char *name;      /* how the page names it: its last component (made unique) */
    bool folder;
} view_root;

typedef struct view_server {
    view_root *roots;
    size_t root_count;
    char *page;     /* realpath of the page folder */
    uint16_t port;
    char host_ip[32], host_name[32]; /* "127.0.0.1:PORT", "localhost:PORT" */
} view_server;

/* ---- responses ---- */

static enum MHD_Result send_text(struct MHD_Connection *c, unsigned status, const char *type, const char *text)
{
    struct MHD_Response *r = MHD_create_response_from_buffer(strlen(text), (void *)text, MHD_RESPMEM_MUST_COPY);
    if (!r) return MHD_NO;
    MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, type);
    MHD_add_response_header(r, MHD_HTTP_HEADER_CACHE_CONTROL, "no-store");
    enum MHD_Result ok = MHD_queue_response(c, status, r);
    MHD_destroy_response(r);
    return ok;
}

static enum MHD_Result not_found(struct MHD_Connection *c)
{
    return send_text(c, MHD_HTTP_NOT_FOUND, "text/plain; charset=utf-8", "not found\n");
}

static const char *content_type(const char *path)
{
    static const struct { const char *ext, *type; } types[] = {
        {".html", "text/html; charset=utf-8"}, {".js", "text/javascript; charset=utf-8"},
        {".mjs", "text/javascript; charset=utf-8"}, {".css", "text/css; charset=utf-8"},
        {".json", "application/json"}, {".wasm", "application/wasm"}, {".png", "image/png"},
        {".txt", "text/plain; charset=utf-8"}};
    for (size_t i = 0; i < sizeof types / sizeof types[0]; i++)
        if (cli_has_ext(path, types[i].ext)) return types[i].type;
    return "application/octet-stream";
}

static void unmap_response(void *cls)
{
    ferry_file_mapping *map = cls;
    ferry_file_unmap(map);
    free(map);
}

/* One "bytes=A-B", "bytes=A-" or "bytes=-N" range of a file of `size`
 * bytes: 1 and [*from, *to] when it is one and satisfiable, 0 when there is
 * none (or several: the whole file is sent), -1 when unsatisfiable. */
static int parse_range(const char *h, uint64_t size, uint64_t *from, uint64_t *to)
{
    if (!h || strncmp(h, "bytes=", 6) != 0 || strchr(h, ',')) return 0;
    const char *p = h + 6;
    char *end;
    if (*p == '-') {
        unsigned long long n = strtoull(p + 1, &end, 10);
        if (end == p + 1 || *end || n == 0 || size == 0) return -1;
        *from = n >= size ? 0 : size - n;
        *to = size - 1;
        return 1;
    }
    if (*p < '0' || *p > '9') return 0;
    unsigned long long a = strtoull(p, &end, 10);
    if (*end != '-') return 0;
    const char *q = end + 1;
    unsigned long long b = size ? size - 1 : 0;
    if (*q) {
        if (*q < '0' || *q > '9') return 0;
        b = strtoull(q, &end, 10);
        if (*end) return 0;
    }
    if (a >= size || b < a) return -1;
    if (b >= size) b = size - 1;
    *from = a;
    *to = b;
    return 1;
}

/* Sends a file (already checked), whole or the range asked for. */
static enum MHD_Result send_file(struct MHD_Connection *c, const char *real)
{
    ferry_file_mapping *map = calloc(1, sizeof *map);
    ferry_error err;
    if (!map || ferry_file_map(real, 0, map, &err) != FERRY_OK) {
        free(map);
        return not_found(c);
    }
    uint64_t from = 0, to = map->size ? map->size - 1 : 0;
    int ranged = parse_range(MHD_lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_RANGE), map->size, &from, &to);
    if (ranged < 0) {
        char text[64];
        snprintf(text, sizeof text, "bytes */%zu", map->size);
        ferry_file_unmap(map);
        free(map);
        struct MHD_Response *r = MHD_create_response_from_buffer(0, (void *)"", MHD_RESPMEM_PERSISTENT);
        if (!r) return MHD_NO;
        MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_RANGE, text);
        enum MHD_Result ok = MHD_queue_response(c, MHD_HTTP_RANGE_NOT_SATISFIABLE, r);
        MHD_destroy_response(r);
        return ok;
    }
    size_t length = map->size ? (size_t)(to - from + 1) : 0;
    struct MHD_Response *r = MHD_create_response_from_buffer_with_free_callback_cls(
        length, (void *)(map->data + from), unmap_response, map);
    if (!r) {
        unmap_response(map);
        return MHD_NO;
    }
    MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, content_type(real));
    MHD_add_response_header(r, MHD_HTTP_HEADER_ACCEPT_RANGES, "bytes");
    MHD_add_response_header(r, MHD_HTTP_HEADER_CACHE_CONTROL, "no-store");
    MHD_add_response_header(r, "X-Content-Type-Options", "nosniff");
    if (ranged > 0) {
        char text[96];
        snprintf(text, sizeof text, "bytes %llu-%llu/%zu", (unsigned long long)from, (unsigned long long)to, map->size);
        MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_RANGE, text);
    }
    enum MHD_Result ok = MHD_queue_response(c, ranged > 0 ? MHD_HTTP_PARTIAL_CONTENT : MHD_HTTP_OK, r);
    MHD_destroy_response(r);
    return ok;
}

/* ---- the files' index ---- */

/* REL with every byte that is not unreserved percent-encoded, '/' kept. */
static void url_encode(const char *rel, ferry_buffer *out)
{
    for (const unsigned char *p = (const unsigned char *)rel; *p; p++) {
        if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') || strchr("-._~/", *p))
            cli_bprintf(out, "%c", *p);
        else
            cli_bprintf(out, "%%%02X", *p);
    }
}

typedef struct index_walk {
    const view_server *server;
    size_t root;
    json_t *files;
} index_walk;

static void add_file(index_walk *w, const char *rel, uint64_t size)
{
    const view_root *r = &w->server->roots[w->root];
    ferry_buffer url = {0}, path = {0}, utf8 = {0};
    cli_bprintf(&url, "files/%zu/", w->root);
    url_encode(rel, &url);
    cli_bprintf(&path, "%s%s%s", r->name, r->folder ? "/" : "", r->folder ? rel : "");
    if (!url.failed && !path.failed) {
        ferry_text_utf8((const char *)path.data, path.size, &utf8);
        json_array_append_new(w->files, json_pack("{s:s%, s:s%, s:I}", "path", utf8.data ? (const char *)utf8.data : "",
                                                  utf8.size, "url", (const char *)url.data, url.size, "size",
                                                  (json_int_t)size));
    }
    ferry_buffer_free(&url);
    ferry_buffer_free(&path);
    ferry_buffer_free(&utf8);
}

static void visit(void *ctx, const char *path, const char *rel, bool regular, int error)
{
    index_walk *w = ctx;
    struct stat st;
    if (error || !regular || stat(path, &st) != 0 || !S_ISREG(st.st_mode)) return;
    /* Listed only when it would be served: inside its folder once links
     * are resolved, every segment a plain name. */
    char real[PATH_MAX];
    ferry_error ignored;
    if (ferry_folder_resolve(w->server->roots[w->root].real, rel, real, sizeof real, &ignored) != FERRY_OK) return;
    add_file(w, rel, (uint64_t)st.st_size);
}

static enum MHD_Result send_index(struct MHD_Connection *c, const view_server *s)
{
    json_t *files = json_array();
    for (size_t i = 0; i < s->root_count; i++) {
        index_walk w = {s, i, files};
        const view_root *r = &s->roots[i];
        struct stat st;
        if (stat(r->real, &st) != 0) continue;
        if (r->folder && S_ISDIR(st.st_mode)) {
            ferry_walk_options walk = {visit, &w, cli_print_entry_message, "view"};
            ferry_error ignored; /* each folder that cannot be read is said as the walk meets it */
            (void)ferry_folder_walk(r->real, &walk, &ignored);
        } else if (!r->folder && S_ISREG(st.st_mode)) {
            add_file(&w, r->name, (uint64_t)st.st_size);
        }
    }
    json_t *j = json_pack("{s:o}", "files", files);
    char *text = json_dumps(j, JSON_COMPACT);
    json_decref(j);
    enum MHD_Result ok = text ? send_text(c, MHD_HTTP_OK, "application/json", text) : MHD_NO;
    free(text);
    return ok;
}

/* ---- requests ---- */

static enum MHD_Result answer(void *cls, struct MHD_Connection *c, const char *url, const char *method,
                              const char *version, const char *upload_data, size_t *upload_data_size, void **state)
{
    (void)version;
    (void)upload_data;
    const view_server *s = cls;
    if (strcmp(method, MHD_HTTP_METHOD_GET) != 0 && strcmp(method, MHD_HTTP_METHOD_HEAD) != 0)
        return send_text(c, MHD_HTTP_METHOD_NOT_ALLOWED, "text/plain; charset=utf-8", "read-only: GET and HEAD only\n");
    (void)state;
    if (*upload_data_size) return not_found(c); /* a GET with a body */
    const char *host = MHD_lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_HOST);
    if (!host || (strcmp(host, s->host_ip) != 0 && strcmp(host, s->host_name) != 0))
        return send_text(c, MHD_HTTP_FORBIDDEN, "text/plain; charset=utf-8",
                         "this server answers requests for 127.0.0.1 or localhost only\n");
    if (url[0] != '/') return not_found(c);
    const char *p = url + 1;
    if (strcmp(p, "") == 0) p = "index.html";
    if (strcmp(p, "files/index.json") == 0) return send_index(c, s);
    char real[PATH_MAX]; /* the file served, resolved (ferry_folder_resolve) */
    ferry_error ignored;
    if (strncmp(p, "files/", 6) == 0) {
        const char *q = p + 6;
        char *end;
        if (*q < '0' || *q > '9') return not_found(c);
        unsigned long i = strtoul(q, &end, 10);
        if (*end != '/' || i >= s->root_count || (q[0] == '0' && end != q + 1)) return not_found(c);
        const view_root *r = &s->roots[i];
        const char *rel = end + 1;
        bool found = false;
        if (r->folder) {
            found = ferry_folder_resolve(r->real, rel, real, sizeof real, &ignored) == FERRY_OK;
        } else if (strcmp(rel, r->name) == 0) {
            /* A given file: itself, as long as it is still the same regular file. */
            struct stat st;
            found = realpath(r->arg, real) && strcmp(real, r->real) == 0 && stat(real, &st) == 0 && S_ISREG(st.st_mode);
        }
        return found ? send_file(c, real) : not_found(c);
    }
    if (ferry_folder_resolve(s->page, p, real, sizeof real, &ignored) != FERRY_OK) return not_found(c);
    return send_file(c, real);
}

/* ---- the page folder ---- */

static char *page_candidate(const char *dir)
{
    ferry_buffer index = {0};
    cli_bprintf(&index, "%s/index.html", dir);
    struct stat st;
    bool ok = ferry_buffer_append(&index, "", 1) && stat((const char *)index.data, &st) == 0 && S_ISREG(st.st_mode);
    ferry_buffer_free(&index);
    return ok ? realpath(dir, NULL) : NULL;
}

static char *find_page(void)
{
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0) return NULL;
    exe[n] = 0;
    char *slash = strrchr(exe, '/');
    if (!slash) return NULL;
    *slash = 0;
    char dir[PATH_MAX + 32];
    snprintf(dir, sizeof dir, "%s/web", exe);
    char *page = page_candidate(dir);
    if (!page) {
        snprintf(dir, sizeof dir, "%s/../share/ferry/web", exe);
        page = page_candidate(dir);
    }
    return page;
}

/* ---- the command ---- */

/* xdg-open in a grandchild, so that nothing is left to wait for; the
 * child's signal mask is the one this program started with. */
static void open_browser(const char *url, const sigset_t *mask)
{
    pid_t pid = fork();
    if (pid == 0) {
        if (fork() == 0) {
            sigprocmask(SIG_SETMASK, mask, NULL);
            /* The browser's messages are not ours. */
            if (!freopen("/dev/null", "w", stdout) || !freopen("/dev/null", "w", stderr)) _exit(127);
            execlp("xdg-open", "xdg-open", url, (char *)NULL);
            _exit(127);
        }
        _exit(0);
    }
    if (pid > 0) waitpid(pid, NULL, 0);
    else fprintf(stderr, "ferry view: could not start a browser; open %s\n", url);
}

static void roots_free(view_server *s)
{
    for (size_t i = 0; i < s->root_count; i++) {
        free(s->roots[i].real);
        free(s->roots[i].name);
    }
    free(s->roots);
    free(s->page);
}

int cmd_view(int argc, char **argv)
{
    bool no_open = false;
    long port = 0;
    const char *page_arg = NULL;
    view_server s = {0};
    s.roots = calloc((size_t)argc, sizeof *s.roots);
    if (!s.roots) return CLI_INVALID;
    int status = CLI_INVALID;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (cli_is_help(a)) {
            fputs(cli_help_view, stdout);
            status = CLI_OK;
            goto done;
        } else if (strcmp(a, "--no-open") == 0) {
            no_open = true;
        } else if (strcmp(a, "--port") == 0 || strcmp(a, "--page") == 0) {
            if (i + 1 >= argc) {
                status = cli_usage_error("view", "%s needs a value", a);
                goto done;
            }
            if (strcmp(a, "--page") == 0) {
                page_arg = argv[++i];
            } else {
                char *end;
                port = strtol(argv[++i], &end, 10);
                if (*end || end == argv[i] || port < 0 || port > 65535) {
                    status = cli_usage_error("view", "--port needs a number from 0 to 65535");
                    goto done;
                }
            }
        } else if (a[0] == '-' && a[1]) {
            status = cli_usage_error("view", "unknown option '%s'", a);
            goto done;
        } else {
            view_root *r = &s.roots[s.root_count];
            struct stat st;
            r->real = realpath(a, NULL);
            if (!r->real || stat(r->real, &st) != 0 || !(S_ISDIR(st.st_mode) || S_ISREG(st.st_mode))) {
                fprintf(stderr, "ferry view: %s: %s\n", CLI_TXT(a),
                        r->real ? "neither a file nor a folder" : strerror(errno));
                free(r->real);
                r->real = NULL;
                goto done;
            }
            r->arg = a;
            r->folder = S_ISDIR(st.st_mode);
            /* Named in the page by its last component, made unique. */
            const char *base = strrchr(r->real, '/');
            base = base && base[1] ? base + 1 : "root";
            char name[512];
            snprintf(name, sizeof name, "%s", base);
            for (int k = 2;; k++) {
                bool taken = false;
                for (size_t j = 0; j < s.root_count; j++) taken |= strcmp(s.roots[j].name, name) == 0;
                if (!taken) break;
                snprintf(name, sizeof name, "%s (%d)", base, k);
            }
            r->name = strdup(name);
            s.root_count++;
            if (!r->name) goto done;
        }
    }
    s.page = page_arg ? page_candidate(page_arg) : find_page();
    if (!s.page) {
        fprintf(stderr, "ferry view: %s\n",
                page_arg ? "the page folder given has no index.html"
                         : "the web page is not built (run `make web`, or give --page DIR)");
        goto done;
    }

    struct sockaddr_in addr = {0};
    addr.sin_family = AF_INET;
    addr.sin_port = htons((uint16_t)port);
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    /* Ctrl-C and termination are waited for below (sigwait): blocked in
     * every thread, the server's included, from here on. */
    sigset_t wait_for, old;
    sigemptyset(&wait_for);
    sigaddset(&wait_for, SIGINT);
    sigaddset(&wait_for, SIGTERM);
    sigaddset(&wait_for, SIGHUP);
    pthread_sigmask(SIG_BLOCK, &wait_for, &old);
    errno = 0;
    struct MHD_Daemon *d = MHD_start_daemon(MHD_USE_AUTO_INTERNAL_THREAD | MHD_USE_ERROR_LOG, 0, NULL, NULL, answer, &s,
                                            MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&addr,
                                            MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)60, MHD_OPTION_END);
    if (!d) {
        pthread_sigmask(SIG_SETMASK, &old, NULL);
        fprintf(stderr, "ferry view: could not listen on 127.0.0.1:%ld: %s\n", port,
                errno ? strerror(errno) : "the server did not start");
        goto done;
    }
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(d, MHD_DAEMON_INFO_BIND_PORT);
    s.port = info ? info->port : (uint16_t)port;
    snprintf(s.host_ip, sizeof s.host_ip, "127.0.0.1:%u", s.port);
    snprintf(s.host_name, sizeof s.host_name, "localhost:%u", s.port);
    char url[64];
    snprintf(url, sizeof url, "http://127.0.0.1:%u/", s.port);
    printf("ferry view: serving %zu path(s) read-only at %s (Ctrl-C stops)\n", s.root_count, url);
    fflush(stdout);
    if (!no_open) open_browser(url, &old);
    int sig = 0;
    sigwait(&wait_for, &sig);
    MHD_stop_daemon(d);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    fprintf(stderr, "ferry view: stopped\n");
    status = CLI_OK;
done:
    roots_free(&s);
    return status;
}
