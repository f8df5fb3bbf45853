/* The web viewer's glue: the few calls the page's worker makes into
 * libferry, compiled to WebAssembly with it (web/CMakeLists.txt). Thin
 * wrappers over the public API: every format rule stays in the library.
 *
 * Data crosses to JavaScript as JSON text (malloc'd, freed by the caller
 * with fw_free) or as pointers into the module's memory with their sizes.
 *
 * The files the user dropped are a ferry_file_source whose load and list
 * call into JavaScript (drop_load, drop_list below): the worker reads each
 * File synchronously (FileReaderSync over File.slice), so the library's own
 * lookups (textures as the game finds them, animations beside a model,
 * addon prefixes) run over what was dropped, exactly as over a folder.
 *
 * An archive dropped or served is never read whole: it is a ferry_archive
 * read through a reader (archive.h's ferry_archive_from_reader) whose
 * reads call into JavaScript (archive_read_js: worker.js's readRange, a
 * File.slice or a ranged request to `ferry view`), so that only its tables
 * are read to list it and an entry's bytes when it is opened.
 *
 * An export is engine.h's ferry_export_scene over an input filled here (the
 * asset, the drop or the archive holding it, its path and the archive's
 * prefix) with the drop and the other archives as further places: the
 * library finds the textures and the animations and decides what is
 * attached, as for `ferry convert`.
 *
 * Validation is engine.h's ferry_validate_export_input over the same
 * input: the textures beside the file and the model an animation is
 * checked against are found in the drop or the archive by the library, as
 * `ferry validate FILE` finds them in the file's folder. No seam is left:
 * the glue pairs, looks up and decides nothing itself. */
#define _DEFAULT_SOURCE /* getentropy */
#include <ferry/archive.h>
#include <ferry/engine.h>
#include <ferry/ferry.h>
#include <ferry/format.h>
#include <ferry/gltf.h>
#include <ferry/image.h>
#include <ferry/paa.h>
#include <ferry/particle_sim.h>
#include <ferry/particle_view.h>

#include <emscripten/emscripten.h>
#include <jansson.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define FW_API EMSCRIPTEN_KEEPALIVE

/* The largest file the page reads into memory (an archive is not: only its
 * tables and the entries opened). */
#define FW_MAX_INPUT ((size_t)1 << 30)

/* ---- the dropped files as a file source (JavaScript: worker.js's drop) ---- */

/* 0: loaded (*data malloc'd here, *size set); 1: no such file; 2: larger
 * than max_size; 3: a folder; 4: out of memory; 5: the browser could not
 * read it (a file removed since the drop). */
EM_JS(int, drop_load_js, (const char *path, double max_size, uint8_t **data, size_t *size), {
    const drop = Module.ferryDrop;
    const p = UTF8ToString(path);
    const n = drop ? drop.size(p) : -1;
    if (n === -1) return 1;
    if (n === -2) return 3;
    if (max_size > 0 && n > max_size) return 2;
    let bytes;
    try { bytes = drop.read(p); } catch (e) { return 5; }
    const ptr = _malloc(bytes.length || 1);
    if (!ptr) return 4;
    HEAPU8.set(bytes, ptr);
    HEAPU32[data >> 2] = ptr;
    HEAPU32[size >> 2] = bytes.length;
    return 0;
});

/* The folder's entries (drop.list gives [{name, folder}]) packed as (kind 'F' or 'D', UTF-8 name, NUL)...,
 * then a 0 byte; malloc'd here. NULL: no such folder. */
EM_JS(char *, drop_list_js, (const char *path), {
    const drop = Module.ferryDrop;
    const items = drop ? drop.list(UTF8ToString(path)) : null;
    if (!items) return 0;
    let total = 1;
    for (let i = 0; i < items.length; i++) total += 2 + lengthBytesUTF8(items[i].name);
    const ptr = _malloc(total);
    if (!ptr) return 0;
    let at = ptr;
    for (let i = 0; i < items.length; i++) {
        HEAPU8[at++] = items[i].folder ? 68 : 70;
        const n = lengthBytesUTF8(items[i].name);
        stringToUTF8(items[i].name, at, n + 1);
        at += n + 1;
    }
    HEAPU8[at] = 0;
    return ptr;
});

static void set_error(ferry_error *err, ferry_result code, const char *message, const char *path)
{
    if (!err) return;
    memset(err, 0, sizeof *err);
    err->code = code;
    err->offset = FERRY_NO_OFFSET;
    snprintf(err->message, sizeof err->message, message, path);
}

static ferry_result drop_load(void *user, const char *path, size_t max_size, uint8_t **data, size_t *size,
                              ferry_error *err)
{
    (void)user;
    *data = NULL;
    *size = 0;
    switch (drop_load_js(path, (double)max_size, data, size)) {
    case 0: return FERRY_OK;
    case 1: set_error(err, FERRY_ERR_IO, "%s: no such file among those dropped", path); return FERRY_ERR_IO;
    case 2: set_error(err, FERRY_ERR_LIMIT, "%s: larger than the limit", path); return FERRY_ERR_LIMIT;
    case 3: set_error(err, FERRY_ERR_IO, "%s is a folder, not a file", path); return FERRY_ERR_IO;
    case 4: set_error(err, FERRY_ERR_NOMEM, "%s: out of memory", path); return FERRY_ERR_NOMEM;
    default: set_error(err, FERRY_ERR_IO, "%s: the browser could not read it", path); return FERRY_ERR_IO;
    }
}

static void drop_release(void *user, uint8_t *data, size_t size)
{
    (void)user;
    (void)size;
    free(data);
}

static ferry_result drop_list(void *user, const char *path, ferry_entry_fn entry, void *ctx, ferry_error *err)
{
    (void)user;
    char *packed = drop_list_js(path);
    if (!packed) {
        set_error(err, FERRY_ERR_IO, "%s: no such folder among those dropped", path);
        return FERRY_ERR_IO;
    }
    for (char *at = packed; *at;) {
        ferry_entry_kind kind = *at == 'D' ? FERRY_ENTRY_FOLDER : FERRY_ENTRY_FILE;
        const char *name = at + 1;
        at += 2 + strlen(name);
        if (!entry(ctx, name, kind)) break;
    }
    free(packed);
    return FERRY_OK;
}

/* ---- the session: the drop and the archives opened in it ---- */

typedef struct fw_asset fw_asset;

typedef struct fw_session {
    /* The drop as worker.js gives it (every list a call into JavaScript),
     * and listed once per folder (ferry_file_source_cached): a model's
     * textures and its proxies' systems list the same folders over and
     * over. Made again when files are added (fw_session_drop_changed). */
    ferry_file_source drop_js;
    ferry_file_source drop;
    fw_asset **archives; /* opened with fw_archive_open: further places to look in */
    size_t archive_count, archive_capacity;
} fw_session;

struct fw_asset {
    fw_session *session;
    uint8_t *bytes; /* owned: given by fw_open */
    size_t size;
    ferry_asset *asset; /* NULL when the bytes are no format ferry reads (an image, or broken) */
    ferry_format detected;
    char *name;
    /* Where it lies: in an archive (container) or the drop, at path. */
    fw_asset *container;
    char *path;
    char error[512]; /* why the last call on it failed */
    /* An archive: read through the page (fw_open_archive) or from the
     * bytes above (fw_archive_open); its entries' file source and the
     * engine path they are mounted at (ferry_archive_prefix: a PBO's
     * prefix property, else its file name), once opened. */
    ferry_archive *archive;
    const ferry_file_source *archive_source;
    bool archive_open;
    const char *archive_prefix;
    /* The last export's .glb. */
    ferry_buffer glb;
};

FW_API fw_session *fw_session_new(void)
{
    /* jansson seeds its hash tables from /dev/urandom on first use, which
     * a module without a file system cannot open: the browser's random
     * source seeds them instead (getentropy: crypto.getRandomValues). */
    uint32_t seed = 0;
    if (getentropy(&seed, sizeof seed) != 0 || seed == 0) seed = 0x9e3779b9u;
    json_object_seed(seed);
    fw_session *s = calloc(1, sizeof *s);
    if (!s) return NULL;
    s->drop_js = (ferry_file_source){drop_load, drop_release, drop_list, NULL, NULL, "", NULL};
    ferry_error err;
    if (ferry_file_source_cached(&s->drop_js, &s->drop, &err) != FERRY_OK) {
        free(s);
        return NULL;
    }
    return s;
}

/* Files were added to the drop or it was cleared: its folders are listed
 * afresh (the source stays where it is for those holding it). 0: out of
 * memory (the drop is then read without the cache). */
FW_API int fw_session_drop_changed(fw_session *s)
{
    ferry_file_source_close(&s->drop);
    ferry_error err;
    if (ferry_file_source_cached(&s->drop_js, &s->drop, &err) != FERRY_OK) {
        s->drop = s->drop_js;
        return 0;
    }
    return 1;
}

FW_API void fw_session_free(fw_session *s)
{
    if (!s) return;
    ferry_file_source_close(&s->drop);
    free(s->archives);
    free(s);
}

FW_API void fw_free(void *p) { free(p); }

static char *dup_text(const char *text)
{
    if (!text) return NULL;
    size_t n = strlen(text) + 1;
    char *copy = malloc(n);
    if (copy) memcpy(copy, text, n);
    return copy;
}

static void keep_error(fw_asset *h, const ferry_error *err)
{
    ferry_error_format(err, h->error, sizeof h->error);
}

/* The source an asset lies in. */
static const ferry_file_source *source_of(const fw_asset *h)
{
    return h->container ? h->container->archive_source : &h->session->drop;
}

/* Opens `size` bytes (malloc'd by the caller; the asset owns them from now
 * on) named `name` (in its info and messages), lying at `path` in
 * `container` (an archive opened with fw_archive_open) or in the drop
 * (container NULL). Never NULL but for lack of memory: a failure is kept
 * (fw_error), with the format the content was taken for (fw_format). */
FW_API fw_asset *fw_open(fw_session *s, uint8_t *bytes, size_t size, const char *name, fw_asset *container,
                         const char *path)
{
    fw_asset *h = calloc(1, sizeof *h);
    if (!h) {
        free(bytes);
        return NULL;
    }
    h->session = s;
    h->bytes = bytes;
    h->size = size;
    h->container = container;
    h->name = dup_text(name ? name : "");
    h->path = dup_text(path ? path : "");
    ferry_asset_options o;
    memset(&o, 0, sizeof o);
    o.name = h->name;
    o.detected = &h->detected;
    ferry_error err;
    if (ferry_asset_read(bytes, size, &o, &h->asset, &err) != FERRY_OK) {
        h->asset = NULL;
        keep_error(h, &err);
    }
    return h;
}

FW_API void fw_close(fw_asset *h)
{
    if (!h) return;
    if (h->archive_open) {
        fw_session *s = h->session;
        for (size_t i = 0; i < s->archive_count; i++)
            if (s->archives[i] == h) {
                memmove(&s->archives[i], &s->archives[i + 1], (s->archive_count - i - 1) * sizeof *s->archives);
                s->archive_count--;
                break;
            }
    }
    ferry_archive_free(h->archive);
    ferry_buffer_free(&h->glb);
    ferry_asset_free(h->asset);
    free(h->bytes);
    free(h->name);
    free(h->path);
    free(h);
}

FW_API int fw_format(const fw_asset *h) { return h->detected; }
FW_API int fw_readable(const fw_asset *h) { return h->asset != NULL || h->archive != NULL; }
FW_API const char *fw_error(const fw_asset *h) { return h->error; }

/* ---- the format table ---- */

/* {"id", "name", "key", "extensions", "caps"} of every row, and "detect_head". */
FW_API char *fw_formats(void)
{
    json_t *rows = json_array();
    for (size_t i = 0; i < ferry_format_count(); i++) {
        const ferry_format_desc *d = ferry_format_at(i);
        json_t *ext = json_array();
        for (const char *const *e = d->extensions; e && *e; e++) json_array_append_new(ext, json_string(*e));
        json_array_append_new(rows, json_pack("{s:i, s:s, s:s, s:o, s:i}", "id", (int)d->id, "name", d->name, "key",
                                              d->key, "extensions", ext, "caps", (int)d->caps));
    }
    json_t *j = json_pack("{s:o, s:i}", "formats", rows, "detect_head", FERRY_DETECT_HEAD);
    char *text = json_dumps(j, JSON_COMPACT);
    json_decref(j);
    return text;
}

/* The format of a file's first bytes (ferry_detect), and the one its name
 * suggests (ferry_format_from_name): the tree shows what a file is without
 * reading it whole. */
FW_API int fw_detect(const uint8_t *head, size_t size) { return ferry_detect(head, size); }
FW_API int fw_format_from_name(const char *name) { return ferry_format_from_name(name); }
/* Named like a format ferry validates (ferry_format_named_like_asset): such
 * a file is checked whatever its content, as `ferry validate -r` does. */
FW_API int fw_named_like_asset(const char *name) { return ferry_format_named_like_asset(name); }

/* ---- info and validation ---- */

static char *archive_info(const fw_asset *h, int detail);

FW_API char *fw_info(fw_asset *h, int detail)
{
    if (h->archive && (!h->asset || detail == FERRY_INFO_ENTRIES)) return archive_info(h, detail);
    if (!h->asset) return NULL;
    ferry_info_options o;
    memset(&o, 0, sizeof o);
    o.detail = (ferry_info_detail)detail;
    ferry_buffer json = {0};
    ferry_error err;
    if (ferry_asset_info(h->asset, &o, &json, &err) != FERRY_OK || json.failed) {
        keep_error(h, &err);
        ferry_buffer_free(&json);
        return NULL;
    }
    char *text = malloc(json.size + 1);
    if (text) {
        memcpy(text, json.data, json.size);
        text[json.size] = 0;
    }
    ferry_buffer_free(&json);
    return text;
}

static json_t *text_json(const char *text, size_t length)
{
    ferry_buffer b = {0};
    ferry_text_utf8(text, length, &b);
    json_t *j = json_stringn(b.data ? (const char *)b.data : "", b.size);
    ferry_buffer_free(&b);
    return j;
}

static json_t *diagnostics_json(const ferry_diagnostics *d)
{
    json_t *items = json_array();
    for (size_t i = 0; i < d->count; i++) {
        const ferry_diagnostic *x = &d->items[i];
        json_t *o = json_object();
        json_object_set_new(o, "severity", json_string(x->severity == FERRY_SEVERITY_ERROR ? "error" : "warning"));
        json_object_set_new(o, "offset", x->offset == FERRY_NO_OFFSET ? json_null() : json_integer((json_int_t)x->offset));
        json_object_set_new(o, "path", text_json(x->path, strlen(x->path)));
        json_object_set_new(o, "rule", json_string(x->rule));
        json_object_set_new(o, "message", text_json(x->message, strlen(x->message)));
        json_array_append_new(items, o);
    }
    return items;
}

static json_t *error_json(const ferry_error *err)
{
    return json_pack("{s:s, s:o, s:o, s:o}", "code", ferry_result_name(err->code), "offset",
                     err->offset == FERRY_NO_OFFSET ? json_null() : json_integer((json_int_t)err->offset), "path",
                     text_json(err->path, strlen(err->path)), "message", text_json(err->message, strlen(err->message)));
}

/* An archive's entry checked, appended to `list`. */
static void on_entry(json_t *list, const ferry_asset_entry_report *e)
{
    json_t *o = json_object();
    json_object_set_new(o, "index", json_integer((json_int_t)e->index));
    json_object_set_new(o, "name", text_json(e->name, e->name_length));
    json_object_set_new(o, "label", text_json(e->label, strlen(e->label)));
    json_object_set_new(o, "format", json_string(ferry_format_name(e->format)));
    json_object_set_new(o, "errors", json_integer((json_int_t)e->error_count));
    if (e->error) json_object_set_new(o, "error", error_json(e->error));
    /* An entry that could not be read has an error and no diagnostics. */
    static const ferry_diagnostics none = {0};
    const ferry_diagnostics *d = e->diagnostics ? e->diagnostics : &none;
    json_object_set_new(o, "items", diagnostics_json(d));
    json_object_set_new(o, "warnings", json_integer((json_int_t)d->warning_count));
    json_array_append_new(list, o);
}

/* Every place an asset's textures are looked for in (alamo.h), and its
 * particle systems: the source holding it (its folder, ../Textures there),
 * then the further places: the drop at its root and in Data/Art/Textures
 * (as a game folder; for an ODOL model, addon folders by their $PREFIX$ or
 * a P: drive tree), then every other archive opened (at their roots and in
 * DATA/ART/TEXTURES, as the game's loaded MEGs; a PBO at its prefix). */
typedef struct places {
    ferry_alamo_texture_places places;
    ferry_place *items; /* the further places (engine.h's export takes them) */
    const ferry_place **list;
    const ferry_file_source **folders; /* their sources (the particle view takes them) */
    size_t count;
} places;

static bool places_open(const fw_asset *h, places *p)
{
    memset(p, 0, sizeof *p);
    const fw_session *s = h->session;
    p->items = calloc(s->archive_count + 1, sizeof *p->items);
    p->list = calloc(s->archive_count + 1, sizeof *p->list);
    p->folders = calloc(s->archive_count + 1, sizeof *p->folders);
    if (!p->items || !p->list || !p->folders) {
        free(p->items);
        free(p->list);
        free(p->folders);
        return false;
    }
    size_t n = 0;
    p->items[n++] = (ferry_place){"", &s->drop, NULL, NULL};
    for (size_t i = 0; i < s->archive_count; i++)
        if (s->archives[i] != h->container)
            p->items[n++] = (ferry_place){s->archives[i]->path, s->archives[i]->archive_source, s->archives[i]->archive,
                                          s->archives[i]->archive_prefix};
    for (size_t i = 0; i < n; i++) {
        p->list[i] = &p->items[i];
        p->folders[i] = p->items[i].source;
    }
    p->count = n;
    p->places.model_source = source_of(h);
    p->places.model_path = h->path;
    p->places.folders = p->folders;
    p->places.folder_count = n;
    return true;
}

static void places_close(places *p)
{
    free(p->items);
    free(p->list);
    free(p->folders);
}

/* What validation in context delivered (ferry_validate_item_fn), as the
 * page reads it: the file's own item into `file`, its entries' into
 * "entries". */
typedef struct validated {
    json_t *file;
    json_t *entries;
} validated;

static void on_item(void *user, const ferry_validate_item *item)
{
    validated *v = user;
    if (item->entry_report) {
        on_entry(v->entries, item->entry_report);
        return;
    }
    if (item->entry) return;
    const ferry_diagnostics *d = item->diagnostics;
    json_object_set_new(v->file, "warnings", json_integer(d ? (json_int_t)d->warning_count : 0));
    json_object_set_new(v->file, "dropped", json_integer(d ? (json_int_t)d->dropped : 0));
    json_object_set_new(v->file, "items", d ? diagnostics_json(d) : json_array());
    if (item->model) json_object_set_new(v->file, "model", text_json(item->model, strlen(item->model)));
}

/* {"file", "format", "errors", "warnings", "dropped", "items": [{severity,
 * offset, path, rule, message}], "entries": [...] (archives), "model" (an
 * animation: the model it was checked against)}; an asset that could not
 * be read is one error, its located read error. Validated by engine.h's
 * ferry_validate_export_input over the input an export takes (the drop or
 * the archive holding it, its path there), so that the diagnostics are
 * those `ferry validate FILE` gives for the file in its folder: textures
 * looked for beside it and in ../Textures (not in the whole drop nor the
 * other archives, which a view and an export search as `--textures`
 * would), an animation checked against the model beside it that the CLI
 * picks for it. */
FW_API char *fw_validate(fw_asset *h)
{
    json_t *j = json_object();
    json_object_set_new(j, "file", text_json(h->path, strlen(h->path)));
    json_object_set_new(j, "format", json_string(ferry_format_name(h->detected)));
    if (!h->asset && h->archive) {
        /* An archive read through the page: its check reads every entry, so
         * it is read whole now (asked for, never on opening). */
        uint8_t *bytes = NULL;
        size_t size = 0;
        ferry_asset_options o;
        memset(&o, 0, sizeof o);
        o.name = h->name;
        ferry_error err;
        if (ferry_file_source_load(&h->session->drop, h->path, 0, &bytes, &size, &err) != FERRY_OK ||
            ferry_asset_read(bytes, size, &o, &h->asset, &err) != FERRY_OK) {
            h->asset = NULL;
            keep_error(h, &err);
            free(bytes);
        } else {
            h->bytes = bytes;
            h->size = size;
        }
    }
    ferry_validate_report rep;
    memset(&rep, 0, sizeof rep);
    ferry_error err;
    ferry_result r = FERRY_ERR_UNSUPPORTED;
    validated v = {j, json_array()};
    if (h->asset) {
        /* The asset where it lies, as fw_export gives it to ferry_export_scene. */
        ferry_export_input in;
        memset(&in, 0, sizeof in);
        in.asset = h->asset;
        in.name = h->name;
        in.source = source_of(h);
        in.path = h->path;
        in.prefix = h->container ? h->container->archive_prefix : NULL;
        ferry_validate_options o;
        memset(&o, 0, sizeof o);
        o.item = on_item;
        o.item_user = &v;
        r = ferry_validate_export_input(&in, &o, &rep, &err);
        if (r != FERRY_OK) keep_error(h, &err);
    }
    if (r != FERRY_OK) {
        json_decref(v.entries);
        json_object_set_new(j, "errors", json_integer(1));
        json_object_set_new(j, "warnings", json_integer(0));
        json_object_set_new(j, "read_error", text_json(h->error, strlen(h->error)));
        json_object_set_new(j, "items", json_array());
    } else {
        json_object_set_new(j, "errors", json_integer((json_int_t)rep.errors));
        json_object_set_new(j, "entries", v.entries);
        ferry_validate_report_free(&rep);
    }
    char *text = json_dumps(j, JSON_COMPACT);
    json_decref(j);
    return text;
}

/* ---- archives: read through the page, never whole ---- */

/* Copies up to `size` bytes of the dropped or served file `path` from byte
 * `offset` into `buffer` (worker.js's readRange); returns how many, or -1
 * when the browser could not read them. */
EM_JS(int, archive_read_js, (const char *path, double offset, int size, uint8_t *buffer), {
    const drop = Module.ferryDrop;
    let bytes;
    try { bytes = drop.readRange(UTF8ToString(path), offset, size); } catch (e) { return -1; }
    if (bytes.length > size) return -1;
    HEAPU8.set(bytes, buffer);
    return bytes.length;
});

/* A read of at most this much at once: an entry of hundreds of MB comes in
 * pieces, each a File.slice or a ranged request. */
#define FW_READ_PIECE ((size_t)16 << 20)

static int64_t archive_read(void *user, uint64_t offset, size_t size, void *buffer)
{
    const fw_asset *h = user;
    if (size > FW_READ_PIECE) size = FW_READ_PIECE;
    return archive_read_js(h->path, (double)offset, (int)size, buffer);
}

/* Adds an archive to the places textures are looked for in (its entries as
 * a file source, at the engine path they are mounted at). */
static int archive_register(fw_asset *h)
{
    fw_session *s = h->session;
    if (s->archive_count == s->archive_capacity) {
        size_t cap = s->archive_capacity ? 2 * s->archive_capacity : 8;
        fw_asset **grown = realloc(s->archives, cap * sizeof *grown);
        if (!grown) {
            snprintf(h->error, sizeof h->error, "out of memory");
            return -1;
        }
        s->archives = grown;
        s->archive_capacity = cap;
    }
    h->archive_source = ferry_archive_source(h->archive);
    h->archive_prefix = ferry_archive_prefix(h->archive);
    s->archives[s->archive_count++] = h;
    h->archive_open = true;
    return (int)ferry_archive_entry_count(h->archive);
}

/* The dropped or served file at `path`, `size` bytes, opened as an archive
 * through the page (ferry_archive_from_reader: its tables read, nothing
 * else). `format`: what its first bytes were taken for (fw_format when it
 * does not open). Never NULL but for lack of memory; a failure is kept
 * (fw_error) with the located error ferry_meg_read or ferry_pbo_read gives. */
FW_API fw_asset *fw_open_archive(fw_session *s, const char *path, double size, int format)
{
    fw_asset *h = calloc(1, sizeof *h);
    if (!h) return NULL;
    h->session = s;
    h->name = dup_text(path);
    h->path = dup_text(path);
    h->detected = (ferry_format)format;
    if (!h->name || !h->path) {
        fw_close(h);
        return NULL;
    }
    ferry_archive_reader reader = {archive_read, h, (uint64_t)size, NULL};
    ferry_archive_options o;
    memset(&o, 0, sizeof o);
    o.name = h->name;
    ferry_error err;
    if (ferry_archive_from_reader(&reader, &o, &h->archive, &err) != FERRY_OK) {
        h->archive = NULL;
        keep_error(h, &err);
    } else {
        h->detected = ferry_archive_format(h->archive);
        if (archive_register(h) < 0) {
            ferry_archive_free(h->archive);
            h->archive = NULL;
        }
    }
    return h;
}

/* Opens the archive an asset holds (read from its bytes: an archive inside
 * an archive) and adds it to the places. Returns its entry count (that of
 * one opened by fw_open_archive too), or -1 (fw_error). */
FW_API int fw_archive_open(fw_asset *h)
{
    if (h->archive_open) return (int)ferry_archive_entry_count(h->archive);
    ferry_error err;
    const ferry_format_desc *row = ferry_format_describe(h->detected);
    if (!h->asset || !row || !(row->caps & FERRY_IS_ARCHIVE)) {
        snprintf(h->error, sizeof h->error, "not an archive");
        return -1;
    }
    if (ferry_archive_from_asset(h->asset, &h->archive, &err) != FERRY_OK) {
        h->archive = NULL;
        keep_error(h, &err);
        return -1;
    }
    int count = archive_register(h);
    if (count < 0) {
        ferry_archive_free(h->archive);
        h->archive = NULL;
    }
    return count;
}

/* {"file", "format", "size", "entries", "prefix"} of an archive read
 * through the page (its tables alone: `ferry info`'s object needs every
 * byte), or `ferry list --json`'s shape for its entries (detail 2):
 * {"files": [{"index", "name" (null: none), "size", "stored_size",
 * "compressed", "format": told by content where the bytes are in memory
 * (-1: not read), "by_name": ferry_format_from_name}]}. */
static char *archive_info(const fw_asset *h, int detail)
{
    const ferry_archive *a = h->archive;
    json_t *j;
    if (detail == FERRY_INFO_ENTRIES) {
        json_t *files = json_array();
        const uint8_t *bytes = NULL;
        size_t have = 0;
        if (ferry_archive_asset(a)) bytes = ferry_asset_bytes(ferry_archive_asset(a), &have);
        for (size_t i = 0; i < ferry_archive_entry_count(a); i++) {
            const ferry_archive_entry *e = ferry_archive_entry_at(a, i);
            int format = -1, by_name = FERRY_FORMAT_UNKNOWN;
            if (e->name) {
                char *name = malloc(e->name_length + 1);
                if (name) {
                    memcpy(name, e->name, e->name_length);
                    name[e->name_length] = 0;
                    by_name = ferry_format_from_name(name);
                    free(name);
                }
            }
            if (bytes && !e->compressed && e->start <= have && e->stored_size <= have - e->start) {
                size_t n = e->stored_size < FERRY_DETECT_HEAD ? (size_t)e->stored_size : FERRY_DETECT_HEAD;
                format = ferry_detect(bytes + e->start, n);
            }
            json_array_append_new(files, json_pack("{s:i, s:o, s:I, s:I, s:b, s:i, s:i}", "index", (int)i, "name",
                                                   e->name ? text_json(e->name, e->name_length) : json_null(), "size",
                                                   (json_int_t)e->size, "stored_size", (json_int_t)e->stored_size,
                                                   "compressed", e->compressed, "format", format, "by_name", by_name));
        }
        j = json_pack("{s:o}", "files", files);
    } else {
        const char *prefix = ferry_archive_prefix(a);
        j = json_pack("{s:o, s:s, s:I, s:I, s:o}", "file", text_json(h->name, strlen(h->name)), "format",
                      ferry_format_name(ferry_archive_format(a)), "size", (json_int_t)ferry_archive_size(a), "entries",
                      (json_int_t)ferry_archive_entry_count(a), "prefix",
                      prefix ? text_json(prefix, strlen(prefix)) : json_null());
    }
    char *text = json_dumps(j, JSON_COMPACT);
    json_decref(j);
    return text;
}

/* Entry `index` of an opened archive as an asset lying in it (its path
 * there: the stored name with '/' for '\', as the archive's file source
 * names it), its bytes read now (ferry_archive_read_entry: a compressed
 * PBO entry decoded). NULL: it could not be read (fw_error on the archive). */
FW_API fw_asset *fw_archive_entry_open(fw_asset *archive, size_t index)
{
    if (!archive->archive_open) {
        snprintf(archive->error, sizeof archive->error, "the archive is not open");
        return NULL;
    }
    const ferry_archive_entry *e = ferry_archive_entry_at(archive->archive, index);
    if (!e) {
        snprintf(archive->error, sizeof archive->error, "no entry %zu", index);
        return NULL;
    }
    if (!e->name) {
        snprintf(archive->error, sizeof archive->error, "entry %zu: its name index is out of range", index);
        return NULL;
    }
    uint8_t *bytes = NULL;
    size_t size = 0;
    ferry_error err;
    if (ferry_archive_read_entry(archive->archive, index, FW_MAX_INPUT, &bytes, &size, &err) != FERRY_OK) {
        keep_error(archive, &err);
        return NULL;
    }
    char *path = malloc(e->name_length + 1);
    if (!path) {
        free(bytes);
        return NULL;
    }
    for (size_t i = 0; i < e->name_length; i++) path[i] = e->name[i] == '\\' ? '/' : e->name[i];
    path[e->name_length] = 0;
    char label[1024];
    snprintf(label, sizeof label, "%s:%s", archive->name, path);
    fw_asset *h = fw_open(archive->session, bytes, size, label, archive, path);
    free(path);
    return h;
}

/* ---- export: the asset as a .glb (engine.h's ferry_export_scene) ---- */

static json_t *strings_json(const char *const *list, size_t count)
{
    json_t *a = json_array();
    for (size_t i = 0; i < count; i++) json_array_append_new(a, text_json(list[i], strlen(list[i])));
    return a;
}

static bool option_bool(json_t *o, const char *key, bool fallback)
{
    json_t *v = json_object_get(o, key);
    return json_is_boolean(v) ? json_is_true(v) : fallback;
}

/* What an export said, as the page lists it. */
typedef struct export_said {
    const char *input; /* how messages name the asset */
    json_t *said;      /* {severity, rule, message, file (when about another file)}, in order */
    json_t *skipped;   /* animations found beside the model and left out: {file, why} */
} export_said;

static void export_message(void *user, const ferry_message *m)
{
    export_said *s = user;
    const char *text = m->text ? m->text : "";
    if (m->rule && strcmp(m->rule, FERRY_EXPORT_ANIMATION_SKIPPED) == 0) {
        const char *file = m->file ? m->file : "";
        json_array_append_new(s->skipped, json_pack("{s:o, s:o}", "file", text_json(file, strlen(file)), "why",
                                                    text_json(text, strlen(text))));
        return;
    }
    json_t *o = json_object();
    json_object_set_new(o, "severity", json_string(m->kind == FERRY_MESSAGE_ERROR     ? "error"
                                                   : m->kind == FERRY_MESSAGE_WARNING ? "warning"
                                                                                      : "note"));
    json_object_set_new(o, "rule", m->rule ? json_string(m->rule) : json_null());
    json_object_set_new(o, "message", text_json(text, strlen(text)));
    if (m->file && strcmp(m->file, s->input) != 0) json_object_set_new(o, "file", text_json(m->file, strlen(m->file)));
    json_array_append_new(s->said, o);
}

/* The asset as a scene (ferry_export_scene), with what the page asked for
 * in `opt`; a glTF is a scene already, read as it is. */
static ferry_result export_asset(fw_asset *h, json_t *opt, export_said *said, ferry_export_report *rep,
                                 ferry_scene **scene, ferry_error *err)
{
    if (h->detected == FERRY_FORMAT_GLB || h->detected == FERRY_FORMAT_GLTF)
        return ferry_asset_to_scene(h->asset, NULL, scene, err);
    /* The asset where it lies: its folder and ../Textures in the drop or
     * the archive holding it (a PBO's own textures at its prefix), its
     * animations beside it there; its scene named after it. */
    ferry_export_input in = {0};
    in.asset = h->asset;
    in.name = said->input;
    in.source = source_of(h);
    in.path = h->path;
    in.prefix = h->container ? h->container->archive_prefix : NULL;
    bool with_animations = option_bool(opt, "animations", true);
    ferry_export_options o = {0};
    o.all = option_bool(opt, "all", false);
    o.skip_textures = !option_bool(opt, "textures", true);
    o.auto_animations = with_animations;
    o.no_animations = !with_animations;
    /* The page draws the .glb and drops it: fast PNGs (zlib level 1, no
     * row filter) decode to the same pixels. */
    o.png_effort = FERRY_PNG_FAST;
    /* The viewer shows what it can of a file with errors (its validation
     * is shown beside it). */
    o.allow_invalid = true;
    o.message = export_message;
    o.user = said;
    o.report = rep;
    places p;
    bool have_places = !o.skip_textures && places_open(h, &p);
    if (have_places) {
        o.textures = p.list;
        o.texture_count = p.count;
    }
    uint32_t *lods = NULL;
    json_t *l = json_object_get(opt, "lods");
    if (json_is_array(l) && json_array_size(l) && (lods = calloc(json_array_size(l), sizeof *lods))) {
        for (size_t i = 0; i < json_array_size(l); i++) lods[i] = (uint32_t)json_integer_value(json_array_get(l, i));
        o.lods = lods;
        o.lod_count = json_array_size(l);
    }
    ferry_alm_lod_options lod;
    memset(&lod, 0, sizeof lod);
    json_t *al = json_object_get(opt, "alm_lod");
    if (json_is_object(al)) {
        lod.collapses = -1;
        lod.max_error = -1;
        json_t *v;
        if ((v = json_object_get(al, "collapses"))) lod.collapses = json_integer_value(v);
        if ((v = json_object_get(al, "max_triangles"))) lod.max_triangles = (uint32_t)json_integer_value(v);
        if ((v = json_object_get(al, "max_error"))) lod.max_error = json_number_value(v);
        o.alm_lod = &lod;
    }
    ferry_result r = ferry_export_scene(&in, &o, scene, err);
    if (have_places) places_close(&p);
    free(lods);
    return r;
}

/* Exports the asset as a .glb kept in the asset (fw_glb_data, fw_glb_size)
 * until the next export or fw_glb_release, as `ferry convert` exports the
 * file in its folder (ferry_export_scene), with the drop and the archives
 * opened as further texture places, the animations found beside an ALO
 * model attached by the library's rules (one whose tracks mostly fit with
 * a warning), and a model validation finds errors in shown anyway.
 * options_json: {"all": false, "textures": true, "animations": true,
 * "lods": [ODOL LOD indices], "alm_lod": {"collapses": N} |
 * {"max_triangles": N} | {"max_error": E}}. Returns a report: {"ok",
 * "error", "warnings": [what the export said: {severity, rule, message,
 * file (when about another file than the asset)}], "missing_textures",
 * "animations": [names attached], "animations_skipped": [{file, why}], and
 * the converter's counts}. */
FW_API char *fw_export(fw_asset *h, const char *options_json)
{
    ferry_buffer_free(&h->glb);
    json_t *opt = options_json ? json_loads(options_json, 0, NULL) : NULL;
    if (!json_is_object(opt)) {
        json_decref(opt);
        opt = json_object();
    }
    json_t *report = json_object();
    /* Named as ferry_export_tree names an archive's entry, ARCHIVE/PATH:
     * the scene is named after its last part. */
    char entry_name[2048];
    if (h->container) snprintf(entry_name, sizeof entry_name, "%s/%s", h->container->path, h->path);
    export_said said = {h->container ? entry_name : h->name, json_array(), json_array()};
    ferry_scene *scene = NULL;
    ferry_export_report rep;
    memset(&rep, 0, sizeof rep);
    ferry_error err;
    memset(&err, 0, sizeof err);
    ferry_result r;
    if (!h->asset) {
        snprintf(err.message, sizeof err.message, "%s", h->error);
        r = FERRY_ERR_UNSUPPORTED;
    } else {
        r = export_asset(h, opt, &said, &rep, &scene, &err);
        if (r == FERRY_OK) r = ferry_gltf_write_glb(scene, &h->glb, &err);
        if (r == FERRY_OK && h->glb.failed) {
            r = FERRY_ERR_NOMEM;
            snprintf(err.message, sizeof err.message, "out of memory for the .glb");
        }
    }
    json_object_set_new(report, "ok", json_boolean(r == FERRY_OK));
    if (r != FERRY_OK) {
        char line[512];
        ferry_error_format(&err, line, sizeof line);
        json_object_set_new(report, "error", text_json(line, strlen(line)));
        ferry_buffer_free(&h->glb);
        /* A failure is said last as an error too: "error" holds it. */
        size_t n = json_array_size(said.said);
        json_t *last = n ? json_array_get(said.said, n - 1) : NULL;
        if (last && strcmp(json_string_value(json_object_get(last, "severity")), "error") == 0 &&
            json_equal(json_object_get(last, "message"), json_object_get(report, "error")))
            json_array_remove(said.said, n - 1);
    }
    json_object_set_new(report, "warnings", said.said);
    /* An ALO model's scene animations are the ones attached. */
    json_t *names = json_array();
    for (size_t i = 0; scene && h->detected == FERRY_FORMAT_ALO_MODEL && i < scene->animation_count; i++) {
        const char *name = scene->animations[i].name ? scene->animations[i].name : "";
        json_array_append_new(names, text_json(name, strlen(name)));
    }
    json_object_set_new(report, "animations", names);
    json_object_set_new(report, "animations_skipped", said.skipped);
    if (r == FERRY_OK && h->detected == FERRY_FORMAT_ALO_MODEL) {
        json_object_set_new(report, "meshes_left_out", json_integer((json_int_t)rep.meshes_left_out));
        json_object_set_new(report, "missing_textures", strings_json(rep.missing_textures, rep.missing_texture_count));
    } else if (r == FERRY_OK && h->detected == FERRY_FORMAT_ODOL) {
        const ferry_odol_scene_report *odol = &rep.odol;
        json_object_set_new(report, "lods", json_integer(odol->lods));
        json_object_set_new(report, "visual_lod", json_integer(odol->visual_lod));
        json_object_set_new(report, "triangles", json_integer((json_int_t)odol->triangles));
        json_object_set_new(report, "proxies", json_integer(odol->proxies));
        json_object_set_new(report, "textures", json_integer(odol->textures));
        json_object_set_new(report, "textures_found", json_integer(odol->textures_found));
        json_object_set_new(report, "skins", json_integer(odol->skins));
        json_object_set_new(report, "animation_classes", json_integer(odol->animations));
        json_object_set_new(report, "missing_textures", strings_json(rep.missing_textures, rep.missing_texture_count));
    } else if (r == FERRY_OK && h->detected == FERRY_FORMAT_ALM) {
        json_object_set_new(report, "skinned", json_boolean(rep.alm.skinned));
        json_object_set_new(report, "triangles", json_integer(rep.alm.triangle_count));
        json_object_set_new(report, "vertices", json_integer(rep.alm.vertex_count));
    }
    ferry_scene_free(scene);
    ferry_export_report_free(&rep);
    json_decref(opt);
    char *text = json_dumps(report, JSON_COMPACT);
    json_decref(report);
    return text;
}

FW_API const uint8_t *fw_glb_data(const fw_asset *h) { return h->glb.data; }
FW_API size_t fw_glb_size(const fw_asset *h) { return h->glb.size; }
FW_API void fw_glb_release(fw_asset *h) { ferry_buffer_free(&h->glb); }

/* ---- ALM: triangles left after each number of collapses ---- */

/* A JSON array of collapse_count + 1 triangle counts, or NULL (fw_error). */
FW_API char *fw_alm_triangle_counts(fw_asset *h)
{
    if (!h->asset || h->detected != FERRY_FORMAT_ALM) return NULL;
    const ferry_alm_mesh *mesh = ferry_asset_object(h->asset);
    uint32_t *counts = calloc((size_t)mesh->collapse_count + 1, sizeof *counts);
    ferry_error err;
    if (!counts || ferry_alm_lod_triangle_counts(mesh, counts, &err) != FERRY_OK) {
        if (counts) keep_error(h, &err);
        free(counts);
        return NULL;
    }
    json_t *a = json_array();
    for (size_t i = 0; i <= mesh->collapse_count; i++) json_array_append_new(a, json_integer(counts[i]));
    free(counts);
    char *text = json_dumps(a, JSON_COMPACT);
    json_decref(a);
    return text;
}

/* ---- images: textures, their mipmaps ---- */

typedef struct fw_image {
    ferry_image image;
} fw_image;

FW_API uint32_t fw_image_width(const fw_image *i) { return i->image.width; }
FW_API uint32_t fw_image_height(const fw_image *i) { return i->image.height; }
FW_API const uint8_t *fw_image_rgba(const fw_image *i) { return i->image.rgba; }
FW_API void fw_image_free(fw_image *i)
{
    if (!i) return;
    ferry_image_free(&i->image);
    free(i);
}

/* How many images fw_texture can give: a PAA's mipmaps, a DDS's mip
 * levels (ferry_image_level_count), 1 for a TGA or PNG. */
FW_API int fw_texture_levels(const fw_asset *h)
{
    if (h->asset && h->detected == FERRY_FORMAT_PAA) return (int)((const ferry_paa *)ferry_asset_object(h->asset))->mip_count;
    if (h->asset || !h->bytes) return 0;
    return (int)ferry_image_level_count(h->bytes, h->size);
}

/* Level `level` of a texture as RGBA: a PAA's mipmap (ferry_paa_decode_mip),
 * or a TGA, DDS or PNG file's (ferry_image_decode). NULL: fw_error. */
FW_API fw_image *fw_texture(fw_asset *h, int level)
{
    fw_image *i = calloc(1, sizeof *i);
    if (!i) return NULL;
    ferry_error err;
    ferry_result r;
    if (h->asset && h->detected == FERRY_FORMAT_PAA) {
        r = ferry_paa_decode_mip(ferry_asset_object(h->asset), (size_t)(level < 0 ? 0 : level), &i->image, &err);
    } else if (h->asset) {
        snprintf(h->error, sizeof h->error, "a %s is not a texture", ferry_format_name(h->detected));
        free(i);
        return NULL;
    } else {
        ferry_image_options o = {0, 0, (uint32_t)(level < 0 ? 0 : level)};
        r = ferry_image_decode(h->bytes, h->size, &o, &i->image, &err);
    }
    if (r != FERRY_OK) {
        keep_error(h, &err);
        free(i);
        return NULL;
    }
    return i;
}

FW_API fw_image *fw_glow_image(uint32_t side)
{
    fw_image *i = calloc(1, sizeof *i);
    ferry_error err;
    if (i && ferry_particle_glow_image(side, &i->image, &err) != FERRY_OK) {
        free(i);
        i = NULL;
    }
    return i;
}

/* ---- particle systems: simulated here, drawn by the page ---- */

/* Floats per sprite in fw_sim_sprites' array: 4 corners (x, y, z), their 4
 * texture coordinates (u, v; v down from the image's top), the colour
 * (r, g, b, a), the emitter (counted over every system placed: the
 * systems' emitters one after another, fw_sim_emitters) and the blend class
 * (ferry_particle_blend). */
#define FW_SPRITE_FLOATS 26

/* The systems of a particle view (particle_view.h): one particle system at
 * the origin, or those a model's proxies name, found as the game finds them
 * and placed at their bones, each simulated as ferry_particle_view_render
 * simulates it (the same options, the system's place as its transform). */
typedef struct fw_sim {
    ferry_particle_view *view;
    places places;
    bool have_places;
    ferry_particle_sim_options options;
    ferry_particle_sim **sims;
    size_t count;
    size_t *emitter_base; /* each system's first emitter in the count over all */
    json_t *messages;     /* what the view said: proxies left out, textures not found */
    float *sprites;
    size_t sprite_count, sprite_capacity;
} fw_sim;

FW_API int fw_sprite_floats(void) { return FW_SPRITE_FLOATS; }

static void sim_message(void *user, const ferry_message *m)
{
    fw_sim *s = user;
    const char *kind = m->kind == FERRY_MESSAGE_ERROR ? "error" : m->kind == FERRY_MESSAGE_WARNING ? "warning" : "note";
    json_array_append_new(s->messages, json_pack("{s:s, s:o}", "kind", kind, "text", text_json(m->text, strlen(m->text))));
}

static void sims_free(fw_sim *s)
{
    for (size_t k = 0; s->sims && k < s->count; k++) ferry_particle_sim_free(s->sims[k]);
}

static bool sims_create(fw_sim *s, ferry_error *err)
{
    for (size_t k = 0; k < s->count; k++) {
        const ferry_particle_placed *p = ferry_particle_view_at(s->view, k);
        ferry_particle_sim_options o = s->options;
        o.has_transform = p->has_transform;
        if (p->has_transform) memcpy(o.transform, p->transform, sizeof o.transform);
        if (ferry_particle_sim_create(p->system, &o, &s->sims[k], err) != FERRY_OK) {
            for (size_t j = 0; j < k; j++) ferry_particle_sim_free(s->sims[j]);
            memset(s->sims, 0, s->count * sizeof *s->sims);
            return false;
        }
    }
    return true;
}

FW_API void fw_sim_free(fw_sim *s)
{
    if (!s) return;
    sims_free(s);
    free(s->sims);
    free(s->emitter_base);
    ferry_particle_view_free(s->view);
    if (s->have_places) places_close(&s->places);
    json_decref(s->messages);
    free(s->sprites);
    free(s);
}

/* The particle view of an asset (a particle system, or an ALO model: the
 * systems on its proxies, possibly none) at time 0 (seed as two 32-bit
 * halves; the ground at z = ground_z unless no_ground). Systems and
 * textures are found through the places textures are looked for in (the
 * model's folder, ../Textures, the drop, the archives opened). NULL:
 * fw_error. */
FW_API fw_sim *fw_sim_new(fw_asset *h, uint32_t seed_low, uint32_t seed_high, float ground_z, int no_ground)
{
    if (!h->asset || (h->detected != FERRY_FORMAT_ALO_PARTICLE && h->detected != FERRY_FORMAT_ALO_MODEL)) {
        snprintf(h->error, sizeof h->error, "not a particle system or an ALO model");
        return NULL;
    }
    fw_sim *s = calloc(1, sizeof *s);
    if (!s || !(s->messages = json_array())) {
        free(s);
        snprintf(h->error, sizeof h->error, "out of memory");
        return NULL;
    }
    s->options.seed = (uint64_t)seed_high << 32 | seed_low;
    s->options.ground_z = ground_z;
    s->options.no_ground = no_ground != 0;
    s->have_places = places_open(h, &s->places);
    ferry_particle_view_options vo;
    memset(&vo, 0, sizeof vo);
    vo.places = s->have_places ? &s->places.places : NULL;
    vo.name = h->name;
    vo.message = sim_message;
    vo.user = s;
    ferry_error err;
    if (ferry_particle_view_open(h->asset, &vo, &s->view, &err) != FERRY_OK) {
        keep_error(h, &err);
        fw_sim_free(s);
        return NULL;
    }
    s->count = ferry_particle_view_count(s->view);
    s->sims = calloc(s->count ? s->count : 1, sizeof *s->sims);
    s->emitter_base = calloc(s->count ? s->count : 1, sizeof *s->emitter_base);
    if (!s->sims || !s->emitter_base) {
        snprintf(h->error, sizeof h->error, "out of memory");
        fw_sim_free(s);
        return NULL;
    }
    size_t base = 0;
    for (size_t k = 0; k < s->count; k++) {
        s->emitter_base[k] = base;
        base += ferry_particle_view_at(s->view, k)->system->emitter_count;
    }
    if (!sims_create(s, &err)) {
        keep_error(h, &err);
        fw_sim_free(s);
        return NULL;
    }
    return s;
}

/* The systems placed and their emitters, and what the view said:
 * {"model": bool, "systems": [{"proxy", "path", "transform"}], "emitters":
 * [{"system", "index", "name", "texture"}] (in the order of the sprites'
 * emitter numbers), "messages": [{"kind", "text"}]}. */
FW_API char *fw_sim_describe(const fw_sim *s)
{
    json_t *systems = json_array(), *emitters = json_array();
    for (size_t k = 0; k < s->count; k++) {
        const ferry_particle_placed *p = ferry_particle_view_at(s->view, k);
        json_t *t = json_null();
        if (p->has_transform) {
            t = json_array();
            for (int i = 0; i < 16; i++) json_array_append_new(t, json_real(p->transform[i]));
        }
        json_array_append_new(systems, json_pack("{s:o, s:o, s:o}", "proxy",
                                                 p->proxy ? text_json(p->proxy, strlen(p->proxy)) : json_null(), "path",
                                                 p->path ? text_json(p->path, strlen(p->path)) : json_null(),
                                                 "transform", t));
        for (size_t e = 0; e < p->system->emitter_count; e++) {
            const ferry_particle_emitter *em = &p->system->emitters[e];
            json_array_append_new(emitters, json_pack("{s:i, s:i, s:o, s:o}", "system", (int)k, "index", (int)e, "name",
                                                      em->name ? text_json(em->name, strlen(em->name)) : json_null(),
                                                      "texture", em->color_texture ? text_json(em->color_texture, strlen(em->color_texture)) : json_null()));
        }
    }
    json_t *j = json_pack("{s:b, s:o, s:o, s:O}", "model", ferry_particle_view_of_model(s->view), "systems", systems,
                          "emitters", emitters, "messages", s->messages);
    char *text = json_dumps(j, JSON_COMPACT);
    json_decref(j);
    return text;
}

/* The texture an emitter names, found and decoded by the view once
 * (ferry_particle_view_texture: a .tga name finds a .dds too); NULL when
 * not found (the view says so in its messages). The image is the view's. */
FW_API const ferry_image *fw_sim_texture(fw_sim *s, const char *name)
{
    return ferry_particle_view_texture(name, s->view);
}
FW_API uint32_t fw_view_image_width(const ferry_image *i) { return i->width; }
FW_API uint32_t fw_view_image_height(const ferry_image *i) { return i->height; }
FW_API const uint8_t *fw_view_image_rgba(const ferry_image *i) { return i->rgba; }

/* Back to time 0 (a simulation cannot go back). 0: fw_sim could not. */
FW_API int fw_sim_restart(fw_sim *s)
{
    sims_free(s);
    ferry_error err;
    return sims_create(s, &err) ? 1 : 0;
}

FW_API void fw_sim_advance(fw_sim *s, double time)
{
    for (size_t k = 0; k < s->count; k++) ferry_particle_sim_advance(s->sims[k], time);
}
FW_API double fw_sim_time(const fw_sim *s) { return s->count ? ferry_particle_sim_time(s->sims[0]) : 0; }
FW_API size_t fw_sim_count(const fw_sim *s)
{
    size_t n = 0;
    for (size_t k = 0; k < s->count; k++) n += ferry_particle_sim_count(s->sims[k]);
    return n;
}
FW_API unsigned fw_sim_warnings(const fw_sim *s)
{
    unsigned bits = 0;
    for (size_t k = 0; k < s->count; k++) bits |= ferry_particle_sim_warnings(s->sims[k]);
    return bits;
}
FW_API const char *fw_sim_warning_text(unsigned bit) { return ferry_particle_sim_warning_text(bit); }

/* The bounds of the visible particles of every system into out[0..5]
 * (min, max); 0: none. */
FW_API int fw_sim_bounds(const fw_sim *s, float *out)
{
    bool any = false;
    for (size_t k = 0; k < s->count; k++) {
        float lo[3], hi[3];
        if (!ferry_particle_sim_bounds(s->sims[k], lo, hi)) continue;
        for (int i = 0; i < 3; i++) {
            if (!any || lo[i] < out[i]) out[i] = lo[i];
            if (!any || hi[i] > out[3 + i]) out[3 + i] = hi[i];
        }
        any = true;
    }
    return any;
}

/* Frames a camera on a box for an aspect: out[0..9] = eye, target, up, fov_y. */
FW_API void fw_camera_frame(const float *box, float aspect, float *out)
{
    ferry_particle_camera c;
    ferry_particle_camera_frame(box, box + 3, aspect, &c);
    memcpy(out, c.eye, 3 * sizeof *out);
    memcpy(out + 3, c.target, 3 * sizeof *out);
    memcpy(out + 6, c.up, 3 * sizeof *out);
    out[9] = c.fov_y;
}

/* The sprites of every system seen from camera[0..9] (eye, target, up,
 * fov_y), back to front over all of them (ferry_particle_sprites),
 * FW_SPRITE_FLOATS floats each at fw_sim_sprite_data; returns their count,
 * or -1 for lack of memory. */
FW_API int fw_sim_sprites(fw_sim *s, const float *camera)
{
    ferry_particle_camera c;
    memcpy(c.eye, camera, 3 * sizeof *camera);
    memcpy(c.target, camera + 3, 3 * sizeof *camera);
    memcpy(c.up, camera + 6, 3 * sizeof *camera);
    c.fov_y = camera[9];
    ferry_particle_sprite *sp = NULL;
    size_t n = 0;
    ferry_error err;
    if (ferry_particle_sprites((const ferry_particle_sim *const *)s->sims, s->count, &c, &sp, &n, &err) != FERRY_OK)
        return -1;
    if (n > s->sprite_capacity) {
        float *grown = realloc(s->sprites, n * FW_SPRITE_FLOATS * sizeof *grown);
        if (!grown) {
            ferry_particle_sprites_free(sp);
            return -1;
        }
        s->sprites = grown;
        s->sprite_capacity = n;
    }
    for (size_t i = 0; i < n; i++) {
        float *f = &s->sprites[i * FW_SPRITE_FLOATS];
        memcpy(f, sp[i].corners, 12 * sizeof *f);
        memcpy(f + 12, sp[i].uv, 8 * sizeof *f);
        memcpy(f + 20, sp[i].color, 4 * sizeof *f);
        f[24] = (float)(s->emitter_base[sp[i].system] + sp[i].emitter);
        f[25] = (float)sp[i].blend;
    }
    s->sprite_count = n;
    ferry_particle_sprites_free(sp);
    return (int)n;
}

FW_API const float *fw_sim_sprite_data(const fw_sim *s) { return s->sprites; }

/* A real as JSON; null when not finite (JSON has no such number). */
static json_t *real_json(double v) { return isfinite(v) ? json_real(v) : json_null(); }

/* Every live particle as JSON: [{"id", "system", "emitter" (in its system),
 * "position": [x, y, z] (placed: the system's transform applied),
 * "size", "color": [r, g, b, a]}] (ids as decimal strings: 64 bits; a value
 * that is not finite is null, as `ferry particles --json` prints it). For
 * checks against `ferry particles --json`, not for drawing. */
FW_API char *fw_sim_particles(const fw_sim *s)
{
    json_t *a = json_array();
    for (size_t k = 0; k < s->count; k++)
    for (size_t i = 0, n = ferry_particle_sim_count(s->sims[k]); i < n; i++) {
        ferry_particle_state st;
        ferry_particle_sim_get(s->sims[k], i, &st);
        char id[24];
        snprintf(id, sizeof id, "%llu", (unsigned long long)st.id);
        json_t *pos = json_array(), *color = json_array();
        for (int k = 0; k < 3; k++) json_array_append_new(pos, real_json(st.position[k]));
        for (int k = 0; k < 4; k++) json_array_append_new(color, real_json(st.color[k]));
        json_array_append_new(a, json_pack("{s:s, s:i, s:i, s:o, s:o, s:o}", "id", id, "system", (int)k, "emitter",
                                           (int)st.emitter, "position",
                                           pos, "size", real_json(st.size), "color", color));
    }
    char *text = json_dumps(a, JSON_COMPACT);
    json_decref(a);
    return text;
}
