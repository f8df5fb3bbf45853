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

/* A .glb's parts: its JSON and its binary chunk, each without padding,
 * and the header of 20 bytes and the chunk header before the binary one
 * (`mid`, 8 bytes; none when there is no binary data) that go around them.
 * The binary chunk is `bin` with the images' spans between its bytes. */
typedef struct glb_parts {
    ferry_buffer json, bin;
    fy_gltf_span *spans;
    size_t span_count, bin_size;
    uint8_t head[20], mid[8];
    size_t json_pad, bin_pad;
} glb_parts;

static void put_u32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
    p[2] = (uint8_t)(v >> 16);
    p[3] = (uint8_t)(v >> 24);
}

static ferry_result glb_build(const ferry_scene *scene, glb_parts *p, ferry_error *err)
{
    memset(p, 0, sizeof *p);
    fy_gltf g;
    ferry_result r = fy_gltf_build(&g, scene, NULL, NULL, &p->bin, true, err);
    if (r == FERRY_OK) r = fy_gltf_json_dump(&g, false, &p->json, err);
    p->bin_size = fy_gltf_bin_size(&g);
    p->spans = g.spans; /* the images' bytes, still the scene's */
    p->span_count = g.span_count;
    g.spans = NULL;
    fy_gltf_release(&g);
    if (r != FERRY_OK) return r;
    /* Chunks start and end on 4-byte boundaries: JSON is padded with
     * spaces (still valid JSON), BIN with zeros. */
    size_t json_len = (p->json.size + 3) & ~(size_t)3;
    size_t bin_len = (p->bin_size + 3) & ~(size_t)3;
    size_t total = 12 + 8 + json_len + (p->bin_size ? 8 + bin_len : 0);
    if (total > UINT32_MAX) {
        fy_error_set(err, FERRY_ERR_LIMIT, FERRY_NO_OFFSET, NULL,
                     "the scene needs %zu bytes, more than a .glb can hold (4 GiB); write .gltf instead", total);
        return FERRY_ERR_LIMIT;
    }
    p->json_pad = json_len - p->json.size;
    p->bin_pad = bin_len - p->bin_size;
    put_u32(p->head, GLB_MAGIC);
    put_u32(p->head + 4, 2);
    put_u32(p->head + 8, (uint32_t)total);
    put_u32(p->head + 12, (uint32_t)json_len);
    put_u32(p->head + 16, GLB_CHUNK_JSON);
    put_u32(p->mid, (uint32_t)bin_len);
    put_u32(p->mid + 4, GLB_CHUNK_BIN);
    return FERRY_OK;
}

static void glb_release(glb_parts *p)
{
    ferry_buffer_free(&p->json);
    ferry_buffer_free(&p->bin);
    free(p->spans);
}

/* The .glb's bytes in order, each piece handed to `put` (which returns
 * false to stop). */
static bool glb_emit(const glb_parts *p, bool (*put)(void *ctx, const void *data, size_t size), void *ctx)
{
    static const char spaces[4] = "   ";
    static const uint8_t zeros[4] = {0};
    if (!put(ctx, p->head, sizeof p->head) || !put(ctx, p->json.data, p->json.size) ||
        !put(ctx, spaces, p->json_pad))
        return false;
    if (!p->bin_size) return true;
    if (!put(ctx, p->mid, sizeof p->mid)) return false;
    size_t done = 0;
    for (size_t i = 0; i < p->span_count; i++) {
        const fy_gltf_span *sp = &p->spans[i];
        if (!put(ctx, p->bin.data + done, sp->at - done) || !put(ctx, sp->data, sp->size)) return false;
        done = sp->at;
    }
    return put(ctx, p->bin.data + done, p->bin.size - done) && put(ctx, zeros, p->bin_pad);
}

static bool put_buffer(void *ctx, const void *data, size_t size)
{
    ferry_buffer *out = ctx;
    if (size) fy_buf_append(out, data, size);
    return !out->failed;
}

ferry_result ferry_gltf_write_glb(const ferry_scene *scene, ferry_buffer *out, ferry_error *err)
{
    fy_error_clear(err);
    if (!out) return argument(err, "no output buffer given");
    glb_parts p;
    ferry_result r = glb_build(scene, &p, err);
    if (r == FERRY_OK) {
        fy_buf_reserve(out, 12 + 8 + p.json.size + p.json_pad + (p.bin_size ? 8 + p.bin_size + p.bin_pad : 0));
        if (!glb_emit(&p, put_buffer, out)) r = nomem(err);
    }
    glb_release(&p);
    return r;
}

typedef struct file_put {
    ferry_file_writer *w;
    ferry_error *err;
    ferry_result r;
} file_put;

static bool put_file(void *ctx, const void *data, size_t size)
{
    file_put *f = ctx;
    if (size) f->r = ferry_file_writer_write(f->w, data, size, f->err);
    return f->r == FERRY_OK;
}

/* The .glb written in its parts, never assembled in memory. */
static ferry_result save_glb(const ferry_scene *scene, const char *path, const ferry_write_options *options,
                             ferry_error *err)
{
    glb_parts p;
    ferry_result r = glb_build(scene, &p, err);
    ferry_file_writer *w = NULL;
    if (r == FERRY_OK) r = ferry_file_writer_open(path, options, &w, err);
    if (r == FERRY_OK) {
        file_put f = {w, err, FERRY_OK};
        glb_emit(&p, put_file, &f);
        r = f.r;
    }
    if (r == FERRY_OK) {
        ferry_file_writer *committing = w;
        w = NULL;
        r = ferry_file_writer_commit(committing, err);
    }
    ferry_file_writer_abort(w);
    glb_release(&p);
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
    ferry_result r = fy_gltf_build(&g, scene, bin_uri, image_uris, bin, false, err);
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
        if (scene->images[i].linked_path) continue; /* named where it lies, not written */
        char suffix[48];
        const char *mime = scene->images[i].mime_type;
        snprintf(suffix, sizeof suffix, "_image%zu.%s", i,
                 !mime ? "png" : strcmp(mime, "image/jpeg") == 0 ? "jpg" : strcmp(mime, "image/vnd-ms.dds") == 0 ? "dds" : "png");
        char *name = concat(stem, suffix);
        files[i] = concat(base, suffix);
        uris[i] = name ? fy_gltf_uri_encode(name, false) : NULL;
        free(name);
        if (!files[i] || !uris[i]) r = nomem(err);
    }
    if (r == FERRY_OK) {
        char *name = concat(stem, ".bin");
        bin_uri = name ? fy_gltf_uri_encode(name, false) : NULL;
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
        for (size_t i = 0; i < images; i++) {
            if (!files[i]) continue;
            targets[n] = files[i];
            datas[n] = scene->images[i].data;
            sizes[n++] = scene->images[i].size;
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
        return save_glb(scene, path, options, err);
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
