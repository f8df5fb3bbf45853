/* ODOL section textures: found through the caller's roots, decoded (PAA's
 * largest mipmap, its channel swizzle applied; other images through
 * ferry_image_decode), embedded as PNG once per file and use.
 * docs/formats/odol-gltf.md, "Textures". */
#include "odol_scene_texture.h"

#include <ferry/detect.h>
#include <ferry/image.h>
#include <ferry/paa.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* Largest texture file read (real ones are a few MiB; 4096 x 4096 DXT5
 * with its mipmaps is 22 MiB). */
#define TEXTURE_FILE_LIMIT (256u << 20)

static const char *const normal_suffixes[] = {"_no", "_nohq", "_ns", "_nshq", "_nof", "_nofhq", "_non", "_novhq", "_nopx", "_normalmap"};

static bool is_normal_map_name(const char *path)
{
    if (!path || !*path || path[0] == '#') return false;
    const char *base = path;
    for (const char *p = path; *p; p++)
        if (*p == '\\' || *p == '/') base = p + 1;
    const char *dot = strrchr(base, '.');
    size_t stem = dot ? (size_t)(dot - base) : strlen(base);
    for (size_t i = 0; i < sizeof normal_suffixes / sizeof *normal_suffixes; i++) {
        size_t n = strlen(normal_suffixes[i]);
        if (stem > n && strncasecmp(base + stem - n, normal_suffixes[i], n) == 0) return true;
    }
    return false;
}

const char *fy_odol_normal_stage(const ferry_odol_material *record)
{
    for (uint32_t i = 0; record && record->stages && i < record->stage_count; i++)
        if (is_normal_map_name(record->stages[i].texture)) return record->stages[i].texture;
    return NULL;
}

static fy_odol_texture *lookup(fy_odol_textures *t, const char *name, bool normal)
{
    for (size_t i = 0; i < t->count; i++)
        if (t->items[i].normal == normal && strcasecmp(t->items[i].name, name) == 0) return &t->items[i];
    return NULL;
}

static bool collect(fy_odol_textures *t, const char *name, bool normal)
{
    if (!name || !*name || name[0] == '#' || lookup(t, name, normal)) return true;
    if (t->count == t->capacity) {
        size_t cap = t->capacity ? 2 * t->capacity : 16;
        fy_odol_texture *items = realloc(t->items, cap * sizeof *items);
        if (!items) return false;
        t->items = items;
        t->capacity = cap;
    }
    fy_odol_texture *e = &t->items[t->count++];
    memset(e, 0, sizeof *e);
    e->name = name;
    e->normal = normal;
    e->image = -1;
    return true;
}

const char *fy_odol_section_rvmat(const ferry_odol_lod *lod, const ferry_odol_section *sec)
{
    if (sec->material >= 0 && (uint32_t)sec->material < lod->material_count && lod->materials)
        return lod->materials[sec->material].name ? lod->materials[sec->material].name : "";
    return sec->material == -1 && sec->material_name ? sec->material_name : "";
}

const fy_odol_rvmat *fy_odol_rvmat_find(const fy_odol_textures *t, const char *name)
{
    for (size_t i = 0; name && *name && i < t->rvmat_count; i++)
        if (strcasecmp(t->rvmats[i].name, name) == 0) return &t->rvmats[i];
    return NULL;
}

const char *fy_odol_section_normal(const fy_odol_textures *t, const ferry_odol_material *record, const char *rvmat)
{
    const char *n = fy_odol_normal_stage(record);
    if (n) return n;
    const fy_odol_rvmat *r = fy_odol_rvmat_find(t, rvmat);
    if (!r || !r->config || r->mat.normal_stage < 0) return NULL;
    const ferry_rvmat_stage *st = &r->mat.stages[r->mat.normal_stage];
    return st->texture && *st->texture && !st->procedural ? st->texture : NULL;
}

/* Largest .rvmat read (real ones are a few KiB). */
#define RVMAT_FILE_LIMIT (4u << 20)

/* Collects, finds and reads the .rvmat files the sections name. False on
 * memory failure only. */
static bool prepare_rvmats(fy_odol_textures *t, const ferry_odol_model *m, const uint32_t *lods, size_t lod_count,
                           ferry_error *err)
{
    size_t cap = 0;
    for (size_t i = 0; i < lod_count; i++) cap += m->lods[lods[i]].sections ? m->lods[lods[i]].section_count : 0;
    if (!cap) return true;
    t->rvmats = calloc(cap, sizeof *t->rvmats);
    const char **names = malloc(cap * sizeof *names);
    ferry_odol_found *found = calloc(cap, sizeof *found);
    if (!t->rvmats || !names || !found) {
        free(names);
        free(found);
        fy_error_set(err, FERRY_ERR_NOMEM, FERRY_NO_OFFSET, "", "out of memory collecting materials");
        return false;
    }
    for (size_t i = 0; i < lod_count; i++) {
        const ferry_odol_lod *lod = &m->lods[lods[i]];
        for (uint32_t s = 0; lod->sections && s < lod->section_count; s++) {
            const char *name = fy_odol_section_rvmat(lod, &lod->sections[s]);
            if (!*name || fy_odol_rvmat_find(t, name)) continue;
            t->rvmats[t->rvmat_count].name = name;
            names[t->rvmat_count++] = name;
        }
    }
    ferry_result r = t->rvmat_count ? ferry_odol_find_files(t->opts->texture_roots, t->opts->texture_root_count, names,
                                                            t->rvmat_count, found, err)
                                    : FERRY_OK;
    free(names);
    if (r != FERRY_OK) {
        free(found);
        return false;
    }
    for (size_t i = 0; i < t->rvmat_count; i++) {
        fy_odol_rvmat *v = &t->rvmats[i];
        v->found = found[i];
        if (!v->found.source) {
            v->problem = "not found";
            continue;
        }
        char shown[1400];
        ferry_file_source_display(v->found.source, v->found.path, shown, sizeof shown);
        v->shown = ferry_arena_strdup(t->arena, shown);
        uint8_t *data;
        size_t size;
        ferry_error e;
        ferry_result lr = ferry_file_source_load(v->found.source, v->found.path, RVMAT_FILE_LIMIT, &data, &size, &e);
        if (lr == FERRY_OK) {
            lr = ferry_config_read(data, size, NULL, &v->config, &e);
            ferry_file_source_release(v->found.source, data, size);
            if (lr == FERRY_OK && (lr = ferry_rvmat_read(v->config, &v->mat, &e)) != FERRY_OK) {
                ferry_config_free(v->config);
                v->config = NULL;
            }
        }
        if (lr != FERRY_OK) {
            char line[600];
            ferry_error_format(&e, line, sizeof line);
            v->problem = ferry_arena_strdup(t->arena, line);
            if (t->opts->diagnostics)
                fy_diag_add(t->opts->diagnostics, FERRY_SEVERITY_WARNING, FERRY_NO_OFFSET, "", "rvmat-unreadable",
                            "material %s cannot be read (%s)", v->name, line);
        }
        if (!v->shown || (lr != FERRY_OK && !v->problem)) {
            free(found);
            fy_error_set(err, FERRY_ERR_NOMEM, FERRY_NO_OFFSET, "", "out of memory reading materials");
            return false;
        }
    }
    free(found);
    return true;
}

bool fy_odol_textures_prepare(fy_odol_textures *t, const ferry_odol_model *m, const uint32_t *lods, size_t lod_count,
                              ferry_error *err)
{
    const ferry_odol_scene_options *o = t->opts;
    if (!o->texture_roots || !o->texture_root_count) return true;
    if (!prepare_rvmats(t, m, lods, lod_count, err)) return false;
    bool ok = true;
    for (size_t i = 0; ok && i < lod_count; i++) {
        const ferry_odol_lod *lod = &m->lods[lods[i]];
        for (uint32_t s = 0; ok && lod->sections && s < lod->section_count; s++) {
            const ferry_odol_section *sec = &lod->sections[s];
            if (sec->texture >= 0 && (uint32_t)sec->texture < lod->texture_count && lod->textures)
                ok = collect(t, lod->textures[sec->texture], false);
            const ferry_odol_material *record =
                sec->material >= 0 && (uint32_t)sec->material < lod->material_count && lod->materials
                    ? &lod->materials[sec->material]
                    : NULL;
            if (ok) ok = collect(t, fy_odol_section_normal(t, record, fy_odol_section_rvmat(lod, sec)), true);
        }
    }
    if (!ok) {
        fy_error_set(err, FERRY_ERR_NOMEM, FERRY_NO_OFFSET, "", "out of memory collecting textures");
        return false;
    }
    if (!t->count) return true;
    const char **names = malloc(t->count * sizeof *names);
    ferry_odol_found *found = calloc(t->count, sizeof *found);
    t->scene->images = fy_scene_alloc(t->arena, err, t->count, sizeof *t->scene->images);
    t->missing = fy_scene_alloc(t->arena, err, t->count, sizeof *t->missing);
    if (!names || !found || !t->scene->images || !t->missing) {
        free(names);
        free(found);
        fy_error_set(err, FERRY_ERR_NOMEM, FERRY_NO_OFFSET, "", "out of memory collecting textures");
        return false;
    }
    t->image_capacity = t->count;
    for (size_t i = 0; i < t->count; i++) names[i] = t->items[i].name;
    ferry_result r = ferry_odol_find_files(o->texture_roots, o->texture_root_count, names, t->count, found, err);
    free(names);
    if (r != FERRY_OK) {
        free(found);
        return false;
    }
    for (size_t i = 0; i < t->count; i++) t->items[i].found = found[i];
    free(found);
    return true;
}

/* PAA's channel swizzle (tag SWIZ, stored "ZIWS"): four selectors for the
 * destination alpha, red, green and blue: 0-3 take the stored A, R, G, B,
 * 4-7 the same inverted (255 - value), 8 is 255. _nohq normal maps say
 * 05 04 02 03 (red from the inverted alpha, alpha from the inverted red:
 * DXT5 keeps x in its better-compressed alpha), _smdi maps 08 08 02 03.
 * False (image untouched) for a selector outside 0-8. */
static bool apply_swizzle(const ferry_paa *paa, ferry_image *img)
{
    const uint8_t *sel = NULL;
    for (size_t i = 0; i < paa->tag_count; i++)
        if (strcmp(paa->tags[i].name, "ZIWS") == 0 && paa->tags[i].size == 4) sel = paa->tags[i].data;
    if (!sel) return true;
    for (int k = 0; k < 4; k++)
        if (sel[k] > 8) return false;
    /* Selector order A, R, G, B; ferry_image bytes are R, G, B, A. */
    static const int dest[4] = {3, 0, 1, 2}, from[4] = {3, 0, 1, 2};
    size_t n = (size_t)img->width * img->height;
    for (size_t i = 0; i < n; i++) {
        uint8_t *p = img->rgba + 4 * i, in[4], out[4];
        memcpy(in, p, 4);
        for (int k = 0; k < 4; k++) {
            unsigned s = sel[k];
            out[dest[k]] = s == 8 ? 255 : s < 4 ? in[from[s]] : (uint8_t)(255 - in[from[s - 4]]);
        }
        memcpy(p, out, 4);
    }
    return true;
}

/* Decodes a found file: PAA (largest mipmap, swizzle applied, its FLAG tag
 * read) or any image ferry_image_decode reads. *flags: the PAA's FLAG tag
 * (-1 when absent, -2 for an image that is not a PAA). NULL on success,
 * else why not. */
static const char *decode(const uint8_t *data, size_t size, ferry_image *img, int64_t *flags, char *why, size_t why_size)
{
    ferry_error e;
    *flags = -2;
    if (ferry_detect(data, size) == FERRY_FORMAT_PAA) {
        ferry_paa *paa;
        *flags = -1;
        if (ferry_paa_read(data, size, NULL, &paa, &e) != FERRY_OK) {
            snprintf(why, why_size, "%s", e.message);
            return why;
        }
        ferry_result r = paa->mip_count ? ferry_paa_decode_mip(paa, 0, img, &e) : FERRY_ERR_MALFORMED;
        if (r == FERRY_OK && !apply_swizzle(paa, img)) {
            ferry_image_free(img);
            snprintf(why, why_size, "unknown channel swizzle");
            r = FERRY_ERR_UNSUPPORTED;
        } else if (r != FERRY_OK) {
            snprintf(why, why_size, "%s", paa->mip_count ? e.message : "no mipmap");
        }
        if (paa->has_flags) *flags = paa->flags;
        ferry_paa_free(paa);
        return r == FERRY_OK ? NULL : why;
    }
    if (ferry_image_decode(data, size, NULL, img, &e) != FERRY_OK) {
        snprintf(why, why_size, "%s", e.message);
        return why;
    }
    return NULL;
}

/* How a colour texture's alpha is drawn: opaque when every texel is; for a
 * PAA, its FLAG tag as the texture tools write it (bit 1, "alpha not
 * interpolated": a cut-out; bit 0: blended; no tag: opaque, whatever the
 * texels: real posters without the tag have a few hundred texels of
 * partial alpha along an edge); for other images, a cut-out when every
 * alpha is near 0 or 255, blended otherwise. `flags`: the PAA's tag, -1
 * absent, -2 not a PAA. */
static ferry_alpha_mode alpha_mode(const ferry_image *img, int64_t flags)
{
    size_t n = (size_t)img->width * img->height, partial = 0, clear = 0;
    for (size_t i = 0; i < n; i++) {
        uint8_t a = img->rgba[4 * i + 3];
        if (a < 255) clear++;
        if (a > 16 && a < 239) partial++;
    }
    if (!clear) return FERRY_ALPHA_OPAQUE;
    if (flags >= 0 && (flags & 2)) return FERRY_ALPHA_MASK;
    if (flags >= 0 && (flags & 1)) return FERRY_ALPHA_BLEND;
    if (flags != -2) return FERRY_ALPHA_OPAQUE;
    return partial ? FERRY_ALPHA_BLEND : FERRY_ALPHA_MASK;
}

static void warn(fy_odol_textures *t, const char *rule, const char *fmt, const char *a, const char *b)
{
    if (t->opts->diagnostics) fy_diag_add(t->opts->diagnostics, FERRY_SEVERITY_WARNING, FERRY_NO_OFFSET, "", rule, fmt, a, b);
}

static void add_missing(fy_odol_textures *t, const char *name)
{
    for (size_t i = 0; i < t->missing_count; i++)
        if (strcasecmp(t->missing[i], name) == 0) return;
    if (t->missing_count < t->count) t->missing[t->missing_count++] = name;
}

static void embed(fy_odol_textures *t, fy_odol_texture *e, bool *nomem)
{
    e->tried = true;
    if (!e->found.source) {
        e->problem = "not found";
        warn(t, "texture-missing", "texture %s not found in the texture roots%s", e->name, "");
        add_missing(t, e->name);
        return;
    }
    char shown[1400];
    ferry_file_source_display(e->found.source, e->found.path, shown, sizeof shown);
    e->shown = ferry_arena_strdup(t->arena, shown);
    if (!e->shown) {
        *nomem = true;
        return;
    }
    /* The same file met under another spelling is embedded once. */
    for (size_t i = 0; i < t->count; i++) {
        const fy_odol_texture *o = &t->items[i];
        if (o != e && o->tried && o->image >= 0 && o->normal == e->normal && o->found.source == e->found.source &&
            strcmp(o->found.path, e->found.path) == 0) {
            e->image = o->image;
            e->alpha = o->alpha;
            return;
        }
    }
    uint8_t *data;
    size_t size;
    ferry_error err;
    if (ferry_file_source_load(e->found.source, e->found.path, TEXTURE_FILE_LIMIT, &data, &size, &err) != FERRY_OK) {
        e->problem = "could not be read";
        warn(t, "texture-undecodable", "texture %s cannot be read (%s)", e->name, err.message);
        add_missing(t, e->name);
        return;
    }
    ferry_image img;
    memset(&img, 0, sizeof img);
    int64_t flags;
    char why[300];
    const char *bad = decode(data, size, &img, &flags, why, sizeof why);
    ferry_file_source_release(e->found.source, data, size);
    if (bad) {
        char msg[700];
        snprintf(msg, sizeof msg, "%.300s: %.300s", shown, bad);
        e->problem = "could not be decoded";
        warn(t, "texture-undecodable", "texture %s cannot be decoded (%s)", e->name, msg);
        add_missing(t, e->name);
        return;
    }
    if (e->normal) {
        /* The engine's normal maps are DirectX-style (green: down the
         * image, v growing); glTF's are OpenGL-style (green: up).
         * docs/formats/odol-gltf.md, "Normal maps". */
        size_t n = (size_t)img.width * img.height;
        for (size_t i = 0; i < n; i++) img.rgba[4 * i + 1] = (uint8_t)(255 - img.rgba[4 * i + 1]);
        for (size_t i = 0; i < n; i++) img.rgba[4 * i + 3] = 255;
        e->alpha = FERRY_ALPHA_OPAQUE;
    } else {
        e->alpha = alpha_mode(&img, flags);
    }
    ferry_buffer png = {0};
    ferry_result r = ferry_image_encode_png(&img, &(ferry_png_options){t->opts->png_effort}, &png, &err);
    ferry_image_free(&img);
    if (r != FERRY_OK || png.failed || t->scene->image_count >= t->image_capacity) {
        ferry_buffer_free(&png);
        *nomem = true;
        return;
    }
    ferry_scene_image *im = &t->scene->images[t->scene->image_count];
    im->size = png.size;
    im->data = fy_scene_take_buffer(t->arena, &png);
    /* Named after the file's stem, as modders know it. */
    const char *base = e->name;
    for (const char *p = e->name; *p; p++)
        if (*p == '\\' || *p == '/') base = p + 1;
    char *stem = ferry_arena_strdup(t->arena, base);
    if (stem) {
        char *dot = strrchr(stem, '.');
        if (dot && dot != stem) *dot = '\0';
    }
    im->name = stem;
    im->mime_type = "image/png";
    im->source_path = e->shown;
    if (!im->data || !stem) {
        *nomem = true;
        return;
    }
    e->image = (int32_t)t->scene->image_count++;
}

const fy_odol_texture *fy_odol_texture_use(fy_odol_textures *t, const char *name, bool normal, bool *nomem)
{
    if (!name || !*name) return NULL;
    fy_odol_texture *e = lookup(t, name, normal);
    if (!e) return NULL;
    if (!e->tried) embed(t, e, nomem);
    return e;
}

void fy_odol_textures_free(fy_odol_textures *t)
{
    for (size_t i = 0; i < t->rvmat_count; i++) {
        ferry_config_free(t->rvmats[i].config);
        ferry_odol_found_free(&t->rvmats[i].found, 1);
    }
    free(t->rvmats);
    t->rvmats = NULL;
    t->rvmat_count = 0;
    for (size_t i = 0; i < t->count; i++) ferry_odol_found_free(&t->items[i].found, 1);
    free(t->items);
    t->items = NULL;
    t->count = t->capacity = 0;
}
