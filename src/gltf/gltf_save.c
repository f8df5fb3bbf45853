/* The three public entry points: a .glb container, a .gltf with its
 * buffer, and saving either to files by the path's extension. */
#include "gltf_internal.h"
#include "../core/platform.h"

#include <stdio.h>
#include <stdlib.h>

#define GLB_MAGIC 0x46546C67u      /* "glTF" */
#define GLB_CHUNK_JSON 0x4E4F534Au /* "JSON" */
#define GLB_CHUNK_BIN 0x004E4942u  /* "BIN\0" */

static ferry_result argument(ferry_error *err, const char *message)
{
    fy_error_set(err, FERRY_ERR_ARGUMENT, FERRY_NO_OFFSET, NULL, "%s", message);
    return FERRY_ERR_ARGUMENT;
}

static ferry_result nomem(ferry_error *err)
{
    fy_error_set(err, FERRY_ERR_NOMEM, FERRY_NO_OFFSET, NULL, "out of memory writing glTF");
    return FERRY_ERR_NOMEM;
}

ferry_result ferry_gltf_write_glb(const ferry_scene *scene, ferry_buffer *out, ferry_error *err)
{
    fy_error_clear(err);
    if (!out) return argument(err, "no output buffer given");
    ferry_buffer bin = {0}, json = {0};
    fy_gltf g;
    ferry_result r = fy_gltf_build(&g, scene, NULL, NULL, &bin, err);
    if (r == FERRY_OK) r = fy_gltf_json_dump(&g, false, &json, err);
    fy_gltf_release(&g);
    if (r == FERRY_OK) {
        /* Chunks start and end on 4-byte boundaries: JSON is padded with
         * spaces (still valid JSON), BIN with zeros. */
        size_t json_len = (json.size + 3) & ~(size_t)3;
        size_t bin_len = (bin.size + 3) & ~(size_t)3;
        size_t total = 12 + 8 + json_len + (bin.size ? 8 + bin_len : 0);
        if (total > UINT32_MAX) {
            fy_error_set(err, FERRY_ERR_LIMIT, FERRY_NO_OFFSET, NULL,
                         "the scene needs %zu bytes, more than a .glb can hold (4 GiB); write .gltf instead", total);
            r = FERRY_ERR_LIMIT;
        } else if (fy_buf_reserve(out, total)) {
            fy_buf_u32le(out, GLB_MAGIC);
            fy_buf_u32le(out, 2);
            fy_buf_u32le(out, (uint32_t)total);
            fy_buf_u32le(out, (uint32_t)json_len);
            fy_buf_u32le(out, GLB_CHUNK_JSON);
            fy_buf_append(out, json.data, json.size);
            for (size_t i = json.size; i < json_len; i++) fy_buf_u8(out, ' ');
            if (bin.size) {
                fy_buf_u32le(out, (uint32_t)bin_len);
                fy_buf_u32le(out, GLB_CHUNK_BIN);
                fy_buf_append(out, bin.data, bin.size);
                fy_buf_zeros(out, bin_len - bin.size);
            }
        }
        if (r == FERRY_OK && out->failed) r = nomem(err);
    }
    ferry_buffer_free(&bin);
    ferry_buffer_free(&json);
    return r;
}

ferry_result ferry_gltf_write_gltf(const ferry_scene *scene, const char *bin_uri, const char *const *image_uris,
                                   ferry_buffer *json, ferry_buffer *bin, ferry_error *err)
{
    fy_error_clear(err);
    if (!json || !bin) return argument(err, "no output buffers given");
    /* Buffer views are offsets from the start of the .bin file. */
    if (bin->size) return argument(err, "the bin buffer must start empty");
    fy_gltf g;
    ferry_result r = fy_gltf_build(&g, scene, bin_uri, image_uris, bin, err);
    if (r == FERRY_OK && bin->size && !bin_uri) r = argument(err, "the scene has binary data but no bin_uri was given");
    if (r == FERRY_OK) r = fy_gltf_json_dump(&g, true, json, err);
    fy_gltf_release(&g);
    return r;
}

/* ---- files ---- */

static bool ends_with_nocase(const char *s, size_t len, const char *suffix)
{
    size_t n = strlen(suffix);
    if (len < n) return false;
    for (size_t i = 0; i < n; i++) {
        char c = s[len - n + i];
        if (c >= 'A' && c <= 'Z') c = (char)(c - 'A' + 'a');
        if (c != suffix[i]) return false;
    }
    return true;
}

/* A relative URI for a file name: RFC 3986 unreserved characters stay,
 * everything else (spaces, '%', '#', non-ASCII) is percent-encoded. */
static char *uri_encode(const char *name)
{
    size_t n = strlen(name);
    char *out = malloc(n * 3 + 1);
    if (!out) return NULL;
    static const char hex[] = "0123456789ABCDEF";
    char *p = out;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)name[i];
        if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_' ||
            c == '.' || c == '~') {
            *p++ = (char)c;
        } else {
            *p++ = '%';
            *p++ = hex[c >> 4];
            *p++ = hex[c & 15];
        }
    }
    *p = '\0';
    return out;
}

static char *concat(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    char *s = malloc(la + lb + 1);
    if (!s) return NULL;
    memcpy(s, a, la);
    memcpy(s + la, b, lb + 1);
    return s;
}

/* Writes the .gltf and the files beside it. `base` is the path without
 * its extension, `stem` its last component (URIs are relative to the .gltf). */
static ferry_result save_gltf(const ferry_scene *scene, const char *path, const char *base, const char *stem,
                              const ferry_write_options *options, ferry_error *err)
{
    ferry_result r = FERRY_OK;
    size_t images = scene->image_count;
    char **uris = calloc(images + 1, sizeof *uris);  /* +1: never calloc(0) */
    char **files = calloc(images + 1, sizeof *files);
    char *bin_uri = NULL, *bin_file = NULL;
    ferry_buffer json = {0}, bin = {0};
    if (!uris || !files) r = nomem(err);
    for (size_t i = 0; r == FERRY_OK && i < images; i++) {
        char suffix[48];
        const char *mime = scene->images[i].mime_type;
        snprintf(suffix, sizeof suffix, "_image%zu.%s", i, mime && strcmp(mime, "image/jpeg") == 0 ? "jpg" : "png");
        char *name = concat(stem, suffix);
        files[i] = concat(base, suffix);
        uris[i] = name ? uri_encode(name) : NULL;
        free(name);
        if (!files[i] || !uris[i]) r = nomem(err);
    }
    if (r == FERRY_OK) {
        char *name = concat(stem, ".bin");
        bin_uri = name ? uri_encode(name) : NULL;
        bin_file = concat(base, ".bin");
        free(name);
        if (!bin_uri || !bin_file) r = nomem(err);
    }
    if (r == FERRY_OK) r = ferry_gltf_write_gltf(scene, bin_uri, (const char *const *)uris, &json, &bin, err);
    /* All or nothing: every target is checked before a byte is written,
     * every file is written to a temporary, then all are renamed into place;
     * on any failure the temporaries, and the files already renamed, go. */
    size_t count = images + 2, staged_count = 0, committed = 0;
    const char **targets = r == FERRY_OK ? calloc(count, sizeof *targets) : NULL;
    const void **datas = targets ? calloc(count, sizeof *datas) : NULL;
    size_t *sizes = datas ? calloc(count, sizeof *sizes) : NULL;
    char **staged = sizes ? calloc(count, sizeof *staged) : NULL;
    if (r == FERRY_OK && !staged) r = nomem(err);
    size_t n = 0;
    if (r == FERRY_OK) {
        for (size_t i = 0; i < images; i++, n++) {
            targets[n] = files[i];
            datas[n] = scene->images[i].data;
            sizes[n] = scene->images[i].size;
        }
        if (bin.size) {
            targets[n] = bin_file;
            datas[n] = bin.data;
            sizes[n++] = bin.size;
        }
        /* The .gltf goes last, so it never names a file not yet in place. */
        targets[n] = path;
        datas[n] = json.data;
        sizes[n++] = json.size;
    }
    for (size_t i = 0; r == FERRY_OK && i < n; i++) r = fy_file_check_target(targets[i], options, err);
    for (size_t i = 0; r == FERRY_OK && i < n; i++, staged_count++)
        r = fy_file_stage(targets[i], datas[i], sizes[i], options, &staged[i], err);
    for (size_t i = 0; r == FERRY_OK && i < n; i++) {
        r = fy_file_commit(staged[i], targets[i], err);
        free(staged[i]);
        staged[i] = NULL;
        committed += r == FERRY_OK;
    }
    if (r != FERRY_OK) {
        for (size_t i = 0; i < committed; i++) fy_file_remove(targets[i]);
        for (size_t i = 0; i < staged_count; i++)
            if (staged && staged[i]) fy_file_remove(staged[i]);
    }
    for (size_t i = 0; staged && i < count; i++) free(staged[i]);
    free(staged);
    free(sizes);
    free(datas);
    free(targets);
    for (size_t i = 0; uris && files && i < images; i++) {
        free(uris[i]);
        free(files[i]);
    }
    free(uris);
    free(files);
    free(bin_uri);
    free(bin_file);
    ferry_buffer_free(&json);
    ferry_buffer_free(&bin);
    return r;
}

ferry_result ferry_gltf_save(const ferry_scene *scene, const char *path, const ferry_write_options *options,
                             ferry_error *err)
{
    fy_error_clear(err);
    if (!path || !path[0]) return argument(err, "no output path given");
    size_t len = strlen(path);
    if (ends_with_nocase(path, len, ".glb")) {
        ferry_buffer out = {0};
        ferry_result r = ferry_gltf_write_glb(scene, &out, err);
        if (r == FERRY_OK) r = ferry_file_write(path, out.data, out.size, options, err);
        ferry_buffer_free(&out);
        return r;
    }
    if (!ends_with_nocase(path, len, ".gltf")) {
        fy_error_set(err, FERRY_ERR_ARGUMENT, FERRY_NO_OFFSET, NULL,
                     "%s: the output must end in .glb or .gltf", path);
        return FERRY_ERR_ARGUMENT;
    }
    if (!scene) return argument(err, "no scene given");
    char *base = malloc(len - 5 + 1);
    if (!base) return nomem(err);
    memcpy(base, path, len - 5);
    base[len - 5] = '\0';
    const char *stem = base + fy_path_name_offset(base); /* Windows: after '\\' too */
    ferry_result r;
    if (!stem[0])
        r = argument(err, "the .gltf output needs a file name before its extension");
    else
        r = save_gltf(scene, path, base, stem, options, err);
    free(base);
    return r;
}
