/* ferry_asset: a file's bytes (given, or mapped once), its format (told
 * once) and its typed object, and every verb over them through the row of
 * its format (format_table.c). */
#define _POSIX_C_SOURCE 200809L
#include "engine_internal.h"

#include "../core/core.h"

#include <ferry/gltf.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* ---- names ---- */

static bool has_ext(const char *name, size_t n, const char *ext)
{
    size_t e = strlen(ext);
    return n > e && strncasecmp(name + n - e, ext, e) == 0;
}

/* Named like a format ferry validates (ferry_format_named_like_asset). */
static bool named_like_asset(const char *name, size_t n)
{
    static const char *const ext[] = {".alo", ".ala", ".p3d", ".alm", ".meg", ".pbo", ".paa", ".pac", ".rvmat"};
    for (size_t i = 0; i < sizeof ext / sizeof ext[0]; i++)
        if (has_ext(name, n, ext[i])) return true;
    return false;
}

bool ferry_format_named_like_asset(const char *name) { return name && named_like_asset(name, strlen(name)); }

/* ---- the glTF rows (a glTF is read to a scene) ---- */

FY_READ(gltf)
{
    ferry_gltf_read_options o = {0};
    if (args->read) o.read = *args->read;
    o.files = args->files;
    ferry_scene *scene = NULL;
    ferry_result r = ferry_gltf_read(data, size, &o, &scene, err);
    *out = scene;
    return r;
}

FY_FREE(gltf) { ferry_scene_free(object); }

/* A scene of its own for the caller: the document read again. */
FY_TO_SCENE(gltf)
{
    (void)object;
    (void)options;
    void *scene = NULL;
    fy_read_args args = {&asset->read, asset->files};
    ferry_result r = fy_gltf_read(asset->data, asset->size, &args, &scene, err);
    *out = scene;
    return r;
}

/* ---- making an asset ---- */

/* Whether `row` does what `need` asks (the row's own functions: MLOD and
 * Universe at War rows pass, their readers saying why they refuse). */
static bool row_can(const fy_format_row *row, unsigned need)
{
    if (!need) return true;
    if (!row) return false;
    if ((need & FERRY_CAN_READ) && !row->read) return false;
    if ((need & FERRY_CAN_WRITE) && !row->write) return false;
    if ((need & FERRY_CAN_VALIDATE) && !row->validate) return false;
    if ((need & FERRY_CAN_INFO) && !row->info) return false;
    if ((need & FERRY_CAN_TO_SCENE) && !row->to_scene) return false;
    if ((need & FERRY_CAN_FROM_SCENE) && !row->from_scene) return false;
    if ((need & FERRY_IS_ARCHIVE) && !row->entry_count) return false;
    return true;
}

static void set_detected(const ferry_asset_options *o, ferry_format f)
{
    if (o && o->detected) *o->detected = f;
}

static void nomem(ferry_error *err) { fy_error_set(err, FERRY_ERR_NOMEM, FERRY_NO_OFFSET, NULL, "out of memory"); }

/* An asset over bytes that outlive it, of format `f` (told or given); reads
 * the object unless options say bytes_only. */
static ferry_result make_asset(const uint8_t *data, size_t size, ferry_format f, const ferry_asset_options *o,
                               const char *default_name, ferry_asset **out, ferry_error *err)
{
    *out = NULL;
    const fy_format_row *row = fy_format_row_of(f);
    bool bytes_only = o && o->bytes_only;
    if ((!row && !bytes_only) || (o && !row_can(row, o->need))) {
        set_detected(o, FERRY_FORMAT_UNKNOWN);
        fy_not_known(err, data, size);
        return FERRY_ERR_UNSUPPORTED;
    }
    set_detected(o, f);
    ferry_asset *a = calloc(1, sizeof *a);
    const char *name = o && o->name ? o->name : default_name;
    if (!a || (name && !(a->name = strdup(name)))) {
        free(a);
        nomem(err);
        return FERRY_ERR_NOMEM;
    }
    a->row = row;
    a->format = row ? f : FERRY_FORMAT_UNKNOWN;
    a->data = data;
    a->size = size;
    if (o) {
        a->read = o->read;
        a->files = o->files;
    }
    if (!bytes_only) {
        fy_read_args args = {&a->read, a->files};
        if (!row->read) {
            fy_not_known(err, data, size);
            ferry_asset_free(a);
            return FERRY_ERR_UNSUPPORTED;
        }
        ferry_result r = row->read(data, size, &args, &a->object, err);
        if (r != FERRY_OK) {
            if (a->object) row->free(a->object);
            a->object = NULL;
            ferry_asset_free(a);
            return r;
        }
    }
    *out = a;
    return FERRY_OK;
}

ferry_result ferry_asset_read(const uint8_t *data, size_t size, const ferry_asset_options *options, ferry_asset **out,
                              ferry_error *err)
{
    if (out) *out = NULL;
    set_detected(options, FERRY_FORMAT_UNKNOWN);
    if (!out || (!data && size)) {
        fy_error_set(err, FERRY_ERR_ARGUMENT, FERRY_NO_OFFSET, NULL, "no bytes or no place for the asset");
        return FERRY_ERR_ARGUMENT;
    }
    ferry_format f = options && options->format ? options->format : ferry_detect(data, size);
    return make_asset(data, size, f, options, NULL, out, err);
}

/* Content of no known format, named .p3d or .alm: said as not starting
 * with that format's signature (the name only words the refusal). */
static bool refused_by_name(const char *path, const uint8_t *head, size_t got, ferry_error *err)
{
    size_t n = strlen(path);
    bool p3d = has_ext(path, n, ".p3d");
    if (!p3d && !has_ext(path, n, ".alm")) return false;
    char shown[40] = "";
    for (size_t i = 0; i < got && i < 4; i++)
        snprintf(shown + strlen(shown), sizeof shown - strlen(shown), "%s%02x", i ? " " : "", head[i]);
    fy_error_set(err, FERRY_ERR_MALFORMED, 0, NULL, "not %s file: it starts with bytes %s%s, not the %s signature",
                 p3d ? "a P3D (ODOL or MLOD)" : "an ALM", got ? shown : "(none: it is empty)", got > 4 ? " ..." : "",
                 p3d ? "\"ODOL\" or \"MLOD\"" : "\"ALM\\0\"");
    return true;
}

ferry_result ferry_asset_open(const char *path, const ferry_asset_options *options, ferry_asset **out,
                              ferry_error *err)
{
    if (out) *out = NULL;
    set_detected(options, FERRY_FORMAT_UNKNOWN);
    if (!path || !out) {
        fy_error_set(err, FERRY_ERR_ARGUMENT, FERRY_NO_OFFSET, NULL, "no path or no place for the asset");
        return FERRY_ERR_ARGUMENT;
    }
    bool bytes_only = options && options->bytes_only;
    unsigned need = options ? options->need : 0;
    ferry_format forced = options ? options->format : FERRY_FORMAT_UNKNOWN;
    /* The format from the head, before the whole file is mapped. */
    uint8_t head[FERRY_DETECT_HEAD];
    size_t got = 0;
    ferry_result r = ferry_file_read_head(path, head, sizeof head, &got, NULL, err);
    if (r != FERRY_OK) return r;
    ferry_format f = ferry_detect(head, got);
    if (f == FERRY_FORMAT_UNKNOWN && refused_by_name(path, head, got, err)) return FERRY_ERR_MALFORMED;
    if (forced) f = forced;
    const fy_format_row *row = fy_format_row_of(f);
    if ((!row && !bytes_only) || !row_can(row, need)) {
        fy_not_known(err, head, got);
        return FERRY_ERR_UNSUPPORTED;
    }
    set_detected(options, f);
    /* An archive is mapped whatever its size: only the pages used are read. */
    size_t limit = row && (row->desc.caps & FERRY_IS_ARCHIVE) ? 0
                   : options && options->max_size ? options->max_size
                                                  : FERRY_ASSET_MAX_INPUT;
    ferry_file_mapping map;
    if ((r = ferry_file_map(path, limit, &map, err)) != FERRY_OK) return r;
    /* Told again from the whole file, in case it changed since its head was read. */
    if (!forced) f = ferry_detect(map.data, map.size);
    ferry_file_source folder;
    bool folder_open = false;
    const ferry_file_source *files = options ? options->files : NULL;
    if (!files && (f == FERRY_FORMAT_GLTF || f == FERRY_FORMAT_GLB)) {
        /* A .gltf's buffers and images: the file's folder. */
        ferry_error ignored;
        if (ferry_file_source_folder_of(path, &folder, NULL, &ignored) == FERRY_OK) {
            folder_open = true;
            files = &folder;
        }
    }
    ferry_asset_options o = options ? *options : (ferry_asset_options){0};
    o.files = files;
    ferry_asset *a = NULL;
    r = make_asset(map.data, map.size, f, &o, path, &a, err);
    if (r != FERRY_OK) {
        if (folder_open) ferry_file_source_close(&folder);
        ferry_file_unmap(&map);
        return r;
    }
    a->map = map;
    a->mapped = true;
    if (!(a->path = strdup(path))) {
        ferry_asset_free(a);
        nomem(err);
        return FERRY_ERR_NOMEM;
    }
    if (folder_open) {
        a->folder = folder;
        a->folder_open = true;
        a->files = &a->folder;
    }
    *out = a;
    return FERRY_OK;
}

void ferry_asset_free(ferry_asset *a)
{
    if (!a) return;
    if (a->object && a->row) a->row->free(a->object);
    if (a->mapped) ferry_file_unmap(&a->map);
    if (a->folder_open) ferry_file_source_close(&a->folder);
    free(a->owned);
    free(a->name);
    free(a->path);
    free(a);
}

ferry_format ferry_asset_format(const ferry_asset *a) { return a ? a->format : FERRY_FORMAT_UNKNOWN; }
void *ferry_asset_object(const ferry_asset *a) { return a ? a->object : NULL; }
const char *ferry_asset_name(const ferry_asset *a) { return a ? a->name : NULL; }
const ferry_file_mapping *ferry_asset_mapping(const ferry_asset *a) { return a && a->mapped ? &a->map : NULL; }

const uint8_t *ferry_asset_bytes(const ferry_asset *a, size_t *size)
{
    if (size) *size = a ? a->size : 0;
    return a ? a->data : NULL;
}

void *fy_asset_object_get(const ferry_asset *a, bool *temporary, ferry_error *err)
{
    *temporary = false;
    if (a->object) return a->object;
    if (!a->row || !a->row->read) {
        fy_not_known(err, a->data, a->size);
        return NULL;
    }
    void *object = NULL;
    fy_read_args args = {&a->read, a->files};
    if (a->row->read(a->data, a->size, &args, &object, err) != FERRY_OK) {
        if (object) a->row->free(object);
        return NULL;
    }
    *temporary = true;
    return object;
}

void fy_asset_object_put(const ferry_asset *a, void *object, bool temporary)
{
    if (temporary && object) a->row->free(object);
}

/* ---- writing ---- */

static ferry_result unsupported(const ferry_asset *a, const char *what, ferry_error *err)
{
    fy_error_set(err, FERRY_ERR_UNSUPPORTED, FERRY_NO_OFFSET, NULL, "ferry does not %s %s files", what,
                 a && a->row ? a->row->desc.name : "unknown");
    return FERRY_ERR_UNSUPPORTED;
}

ferry_result ferry_asset_write_layout(const ferry_asset *a, unsigned layout, ferry_buffer *out, ferry_error *err)
{
    if (!a || !out) {
        fy_error_set(err, FERRY_ERR_ARGUMENT, FERRY_NO_OFFSET, NULL, "no asset or no buffer");
        return FERRY_ERR_ARGUMENT;
    }
    if (!a->row || (!layout && !a->row->write)) return unsupported(a, "write", err);
    if (layout && !a->row->write_layout) {
        fy_error_set(err, FERRY_ERR_ARGUMENT, FERRY_NO_OFFSET, NULL, "%s files have one layout, not %u",
                     a->row->desc.name, layout);
        return FERRY_ERR_ARGUMENT;
    }
    bool temporary;
    void *object = fy_asset_object_get(a, &temporary, err);
    if (!object) return err ? err->code : FERRY_ERR_MALFORMED;
    ferry_result r = layout ? a->row->write_layout(object, layout, out, err) : a->row->write(object, out, err);
    fy_asset_object_put(a, object, temporary);
    return r;
}

ferry_result ferry_asset_write(const ferry_asset *a, ferry_buffer *out, ferry_error *err)
{
    return ferry_asset_write_layout(a, 0, out, err);
}

/* An archive in pieces: its tables from the object, then the input's bytes
 * after them, a piece at a time (a mapping's pages dropped once written). */
static ferry_result save_archive(const ferry_asset *a, const void *object, const char *path,
                                 const ferry_write_options *options, ferry_error *err)
{
    ferry_buffer tables = {0};
    uint64_t tables_end = 0;
    ferry_file_writer *w = NULL;
    ferry_result r = a->row->write_tables(object, &tables, &tables_end, err);
    if (r == FERRY_OK) r = ferry_file_writer_open(path, options, &w, err);
    if (r == FERRY_OK) r = ferry_file_writer_write(w, tables.data, tables.size, err);
    const size_t piece = (size_t)8 << 20;
    for (uint64_t at = tables_end; r == FERRY_OK && at < a->size; at += piece) {
        size_t n = a->size - at < piece ? (size_t)(a->size - at) : piece;
        r = ferry_file_writer_write(w, a->data + at, n, err);
        if (a->mapped) ferry_file_map_drop(&a->map, 0, at + n);
    }
    if (r == FERRY_OK) {
        ferry_file_writer *committing = w;
        w = NULL;
        r = ferry_file_writer_commit(committing, err);
    }
    ferry_file_writer_abort(w);
    ferry_buffer_free(&tables);
    return r;
}

ferry_result ferry_asset_save(const ferry_asset *a, const char *path, const ferry_write_options *options,
                              ferry_error *err)
{
    if (!a || !path) {
        fy_error_set(err, FERRY_ERR_ARGUMENT, FERRY_NO_OFFSET, NULL, "no asset or no path");
        return FERRY_ERR_ARGUMENT;
    }
    if (!a->row || !a->row->write) return unsupported(a, "write", err);
    bool temporary;
    void *object = fy_asset_object_get(a, &temporary, err);
    if (!object) return err ? err->code : FERRY_ERR_MALFORMED;
    ferry_result r;
    if (a->row->write_tables) {
        r = save_archive(a, object, path, options, err);
    } else {
        ferry_buffer buf = {0};
        r = a->row->write(object, &buf, err);
        if (r == FERRY_OK) r = ferry_file_write(path, buf.data, buf.size, options, err);
        ferry_buffer_free(&buf);
    }
    fy_asset_object_put(a, object, temporary);
    return r;
}

/* ---- validation ---- */

/* How deep archives inside archives are entered: real ones hold another
 * rarely, and never in a chain; an entry may hold its own archive's bytes
 * (MEG entries may overlap anything), which would otherwise be checked
 * inside itself for ever. */
#define MAX_ARCHIVE_DEPTH 4

static size_t validate_entry(const ferry_asset *archive, size_t index, const fy_entry *e, const uint8_t *data,
                             size_t size, const ferry_asset_validate_options *options, int depth);

/* The entries of `a`, an archive inside `depth` others. */
static size_t validate_entries(const ferry_asset *a, const void *object, const ferry_asset_validate_options *options,
                               int depth)
{
    size_t errors = 0, count = a->row->entry_count(object);
    for (size_t i = 0; i < count; i++) {
        fy_entry e = {0};
        a->row->entry_at(object, i, &e);
        /* A name missing or holding a NUL is the archive's own error. */
        if (e.name && !memchr(e.name, 0, e.name_length)) {
            if (!e.decode && e.stored) {
                errors += validate_entry(a, i, &e, e.stored, e.stored_size, options, depth);
            } else if (e.decode && a->row->entry_bytes) {
                uint8_t *bytes = NULL;
                size_t n = 0;
                ferry_error ignored; /* an entry that cannot be had: the archive's own error */
                if (a->row->entry_bytes(object, i, 0, &bytes, &n, &ignored) == FERRY_OK) {
                    errors += validate_entry(a, i, &e, bytes, n, options, depth);
                    free(bytes);
                }
            }
        }
        /* The mapped archive's pages up to the entry's end leave the
         * process's memory (from 0: the system maps a few pages around
         * each one read, some behind it). */
        if (a->mapped && e.stored >= a->data && e.stored < a->data + a->size)
            ferry_file_map_drop(&a->map, 0, (uint64_t)(e.stored - a->data) + e.stored_size);
    }
    return errors;
}

/* One entry: checked when its content is a format ferry validates (text
 * configs only when named .rvmat) or when it is named like an asset. */
static size_t validate_entry(const ferry_asset *archive, size_t index, const fy_entry *e, const uint8_t *data,
                             size_t size, const ferry_asset_validate_options *options, int depth)
{
    ferry_format f = ferry_detect(data, size);
    if (f == FERRY_FORMAT_CONFIG_TEXT && !has_ext(e->name, e->name_length, ".rvmat")) f = FERRY_FORMAT_UNKNOWN;
    const fy_format_row *row = fy_format_row_of(f);
    bool check = row && row->validate;
    if (!check && !named_like_asset(e->name, e->name_length)) return 0;
    const char *parent = archive->name ? archive->name : "";
    size_t pl = strlen(parent);
    char *label = malloc(pl + 1 + e->name_length + 1);
    if (!label) return 1;
    memcpy(label, parent, pl);
    label[pl] = ':';
    memcpy(label + pl + 1, e->name, e->name_length);
    label[pl + 1 + e->name_length] = 0;
    ferry_asset_entry_report report = {index, e->name, e->name_length, label, check ? f : FERRY_FORMAT_UNKNOWN, NULL, NULL, 0};
    ferry_diagnostics diags = {0};
    ferry_error err;
    ferry_asset *inner = NULL;
    size_t errors = 1;
    if (!check) {
        fy_not_known(&err, data, size);
        report.error = &err;
    } else {
        ferry_asset_options ao = {.read = archive->read, .format = f, .name = label};
        if (ferry_asset_read(data, size, &ao, &inner, &err) != FERRY_OK) {
            report.error = &err;
        } else {
            /* Alone: textures and animation models are not looked up. */
            row->validate(inner, inner->object, NULL, &diags);
            if (row->entry_count && depth + 1 >= MAX_ARCHIVE_DEPTH)
                fy_diag_add(&diags, FERRY_SEVERITY_WARNING, FERRY_NO_OFFSET, "", "archive-nesting",
                            "an archive inside %d others: its entries are not checked", depth + 1);
            report.diagnostics = &diags;
            errors = diags.error_count;
        }
    }
    report.error_count = errors;
    options->entry(options->user, &report);
    if (inner && row->entry_count && depth + 1 < MAX_ARCHIVE_DEPTH)
        errors += validate_entries(inner, inner->object, options, depth + 1);
    ferry_diagnostics_free(&diags);
    ferry_asset_free(inner);
    free(label);
    return errors;
}

size_t ferry_asset_validate(const ferry_asset *a, const ferry_asset_validate_options *options,
                            ferry_diagnostics *diags)
{
    if (!a || !diags) return 0;
    ferry_error err;
    if (!a->row || !a->row->validate) {
        unsupported(a, "validate", &err);
        fy_diag_add(diags, FERRY_SEVERITY_ERROR, FERRY_NO_OFFSET, "", "not-validated", "%s", err.message);
        return 1;
    }
    bool temporary;
    void *object = fy_asset_object_get(a, &temporary, &err);
    if (!object) {
        fy_diag_add(diags, FERRY_SEVERITY_ERROR, err.offset, err.path, "read-error", "%s", err.message);
        return 1;
    }
    size_t errors = a->row->validate(a, object, options, diags);
    if (options && options->entry && a->row->entry_count) errors += validate_entries(a, object, options, 0);
    fy_asset_object_put(a, object, temporary);
    return errors;
}

/* ---- info ---- */

ferry_result ferry_asset_info(const ferry_asset *a, const ferry_info_options *options, ferry_buffer *json,
                              ferry_error *err)
{
    if (!a || !json) {
        fy_error_set(err, FERRY_ERR_ARGUMENT, FERRY_NO_OFFSET, NULL, "no asset or no buffer");
        return FERRY_ERR_ARGUMENT;
    }
    const ferry_info_options o = options ? *options : (ferry_info_options){0};
    fy_info info = {o.detail, o.exact, o.nonfinite_strings, a->name, a->data, a->size, a->format};
    const fy_format_row *row = a->row;
    json_t *j = NULL;
    if (info.detail == FERRY_INFO_ENTRIES && !(row && row->entry_count)) {
        fy_error_set(err, FERRY_ERR_ARGUMENT, FERRY_NO_OFFSET, NULL, "%s files are not archives: no entries to list",
                     row ? row->desc.name : "unknown");
        return FERRY_ERR_ARGUMENT;
    }
    if (info.detail == FERRY_INFO_FULL && (!row || !row->info || row->info_full_from_bytes)) {
        /* The chunk tree: an Alamo file's whole structure, whatever its
         * typed reader says, and any other content whose chunks read. */
        if (!(j = fy_alamo_chunks_json(&info, err))) return err ? err->code : FERRY_ERR_MALFORMED;
    } else if (!row || !row->info) {
        fy_not_known(err, a->data, a->size);
        return FERRY_ERR_UNSUPPORTED;
    } else {
        bool temporary;
        void *object = fy_asset_object_get(a, &temporary, err);
        if (!object) return err ? err->code : FERRY_ERR_MALFORMED;
        j = row->info(&info, object, err);
        fy_asset_object_put(a, object, temporary);
    }
    return fy_json_finish(j, &info, json, err);
}

/* ---- scenes ---- */

ferry_result ferry_asset_to_scene(const ferry_asset *a, const ferry_asset_scene_options *options, ferry_scene **out,
                                  ferry_error *err)
{
    if (out) *out = NULL;
    if (!a || !out) {
        fy_error_set(err, FERRY_ERR_ARGUMENT, FERRY_NO_OFFSET, NULL, "no asset or no place for the scene");
        return FERRY_ERR_ARGUMENT;
    }
    if (!a->row || !a->row->to_scene) return unsupported(a, "make scenes of", err);
    bool temporary;
    void *object = fy_asset_object_get(a, &temporary, err);
    if (!object) return err ? err->code : FERRY_ERR_MALFORMED;
    ferry_result r = a->row->to_scene(a, object, options, out, err);
    fy_asset_object_put(a, object, temporary);
    return r;
}

ferry_result ferry_asset_from_scene(ferry_format format, const ferry_scene *scene,
                                    const ferry_asset_from_scene_options *options, ferry_asset **out, ferry_error *err)
{
    if (out) *out = NULL;
    if (!scene || !out) {
        fy_error_set(err, FERRY_ERR_ARGUMENT, FERRY_NO_OFFSET, NULL, "no scene or no place for the asset");
        return FERRY_ERR_ARGUMENT;
    }
    const fy_format_row *row = fy_format_row_of(format);
    if (!row || !row->from_scene) {
        fy_error_set(err, FERRY_ERR_UNSUPPORTED, FERRY_NO_OFFSET, NULL, "ferry does not make %s files from scenes",
                     row ? row->desc.name : ferry_format_name(format));
        return FERRY_ERR_UNSUPPORTED;
    }
    ferry_buffer bytes = {0};
    ferry_result r = row->from_scene(scene, options, &bytes, err);
    if (r == FERRY_OK && bytes.failed) {
        nomem(err);
        r = FERRY_ERR_NOMEM;
    }
    if (r != FERRY_OK) {
        ferry_buffer_free(&bytes);
        return r;
    }
    /* Read back, so that the asset is one like any other: bytes and object. */
    ferry_asset_options o = {.format = format};
    if (options) {
        o.read = options->read;
        o.name = options->name;
    }
    ferry_asset *a = NULL;
    r = ferry_asset_read(bytes.data, bytes.size, &o, &a, err);
    if (r != FERRY_OK) {
        ferry_buffer_free(&bytes);
        return r;
    }
    a->owned = bytes.data; /* the asset's from now on */
    *out = a;
    return FERRY_OK;
}
