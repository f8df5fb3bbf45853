/* ALM textures, tangent maps and materials -> scene images and materials.
 * Diffuse textures become PNG base colour maps. Signed textures (vectors)
 * and tangent maps are not colours and do not mean what a glTF normal map
 * means, so they are embedded as PNG images that only the material's
 * extras name (docs/formats/alm.md, "glTF export"). */
#include "alm_scene_internal.h"

#include <ferry/image.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

static void warn(fy_alm_build *b, const char *path, const char *fmt, ...) FY_PRINTF(3, 4);
static void warn(fy_alm_build *b, const char *path, const char *fmt, ...)
{
    char msg[200];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    fy_diag_add(b->opts->diagnostics, FERRY_SEVERITY_WARNING, FERRY_NO_OFFSET, path, "texture-not-embedded", "%s", msg);
}

/* Encodes `rgba` (malloc'd, taken over) as a new scene image; returns its
 * index, -1 when it cannot be encoded (warned), -2 when memory failed. */
static int32_t add_png(fy_alm_build *b, uint8_t *rgba, uint32_t width, uint32_t height, const char *name, const char *path)
{
    ferry_image img = {width, height, rgba};
    ferry_buffer png = {0};
    ferry_error e;
    ferry_result r = ferry_image_encode_png(&img, &(ferry_png_options){b->opts->png_effort}, &png, &e);
    free(rgba);
    if (r != FERRY_OK || png.failed) {
        ferry_buffer_free(&png);
        if (r == FERRY_ERR_NOMEM || png.failed) return -2;
        warn(b, path, "%s cannot be encoded as PNG: %s", name, e.message);
        return -1;
    }
    ferry_scene *s = b->scene;
    ferry_scene_image *im = &s->images[s->image_count];
    im->name = ferry_arena_strdup(b->arena, name);
    im->mime_type = "image/png";
    im->size = png.size;
    im->data = fy_scene_take_buffer(b->arena, &png);
    if (!im->data || !im->name) return -2;
    return (int32_t)s->image_count++;
}

/* The largest side a texture may have: what PNG and viewers handle well,
 * and a bound on the memory a damaged size can ask for. */
#define MAX_SIDE 16384u

static int32_t texture_png(fy_alm_build *b, uint32_t index)
{
    const ferry_alm_texture *t = &b->mesh->textures[index];
    char path[48], name[48];
    snprintf(path, sizeof path, "textures[%u]", (unsigned)index);
    snprintf(name, sizeof name, "texture %u", (unsigned)index);
    if (t->channels != 3 && t->channels != 4) {
        warn(b, path, "%s has %u channels (3 or 4 expected); not embedded", name, (unsigned)t->channels);
        return -1;
    }
    if (!t->values || t->width == 0 || t->height == 0 || t->width > MAX_SIDE || t->height > MAX_SIDE) {
        warn(b, path, "%s is empty or larger than 16384 pixels (%u x %u); not embedded", name, (unsigned)t->width,
             (unsigned)t->height);
        return -1;
    }
    size_t count = (size_t)t->width * t->height;
    uint8_t *rgba = malloc(count * 4);
    if (!rgba) return -2;
    for (size_t i = 0; i < count; i++) {
        const uint8_t *src = t->values + i * t->channels;
        /* Rows in stored order, texture coordinates unchanged: the texel a
         * coordinate picks is the one ALM's renderer picks, whichever way
         * up the rows are meant (the spec leaves that to import/export). */
        rgba[i * 4 + 0] = src[0];
        rgba[i * 4 + 1] = src[1];
        rgba[i * 4 + 2] = src[2];
        rgba[i * 4 + 3] = t->channels == 4 ? src[3] : 255;
    }
    return add_png(b, rgba, t->width, t->height, name, path);
}

/* A tangent map as one image twice as wide as the map: the left half the
 * U tangent, the right half the V tangent (the side-by-side layout the
 * spec describes), each evaluated in the rest pose and stored as
 * rgb = (v / scale + 1) / 2 with one scale for the map. */
static int32_t tangent_png(fy_alm_build *b, uint32_t index)
{
    const ferry_alm_tangent_map *tm = &b->mesh->tangent_maps[index];
    char path[48], name[48];
    snprintf(path, sizeof path, "tangent_maps[%u]", (unsigned)index);
    snprintf(name, sizeof name, "tangent map %u", (unsigned)index);
    b->tangent_scale[index] = 0;
    if (!tm->entries || tm->width == 0 || tm->height == 0 || tm->width > MAX_SIDE / 2 || tm->height > MAX_SIDE) {
        warn(b, path, "%s is empty or too large (%u x %u); not embedded", name, (unsigned)tm->width, (unsigned)tm->height);
        return -1;
    }
    size_t count = (size_t)tm->width * tm->height;
    double *v = malloc(count * 6 * sizeof *v);
    uint8_t *rgba = malloc(count * 8);
    if (!v || !rgba) {
        free(v);
        free(rgba);
        return -2;
    }
    double scale = 0;
    for (size_t i = 0; i < count; i++) {
        for (int k = 0; k < 2; k++) {
            double out[4];
            ferry_alm_vector_eval(&tm->entries[i].tangents[k], b->rest, b->mesh->bone_count, out);
            for (int c = 0; c < 3; c++) {
                double x = isfinite(out[c]) ? out[c] : 0;
                v[i * 6 + k * 3 + c] = x;
                if (fabs(x) > scale) scale = fabs(x);
            }
        }
    }
    if (!(scale > 0)) scale = 1;
    b->tangent_scale[index] = scale;
    size_t w = tm->width;
    for (size_t i = 0; i < count; i++) {
        size_t row = i / w, col = i % w;
        for (int k = 0; k < 2; k++) {
            uint8_t *px = rgba + ((row * 2 * w) + (size_t)k * w + col) * 4;
            for (int c = 0; c < 3; c++) px[c] = (uint8_t)lround((v[i * 6 + k * 3 + c] / scale + 1.0) * 0.5 * 255.0);
            px[3] = 255;
        }
    }
    free(v);
    return add_png(b, rgba, tm->width * 2, tm->height, name, path);
}

bool fy_alm_images(fy_alm_build *b)
{
    const ferry_alm_mesh *m = b->mesh;
    ferry_scene *s = b->scene;
    s->images = fy_alm_alloc(b, (size_t)m->texture_count + m->tangent_map_count, sizeof *s->images);
    b->texture_image = fy_alm_alloc(b, m->texture_count, sizeof *b->texture_image);
    b->tangent_image = fy_alm_alloc(b, m->tangent_map_count, sizeof *b->tangent_image);
    b->tangent_scale = fy_alm_alloc(b, m->tangent_map_count, sizeof *b->tangent_scale);
    if (!s->images || !b->texture_image || !b->tangent_image || !b->tangent_scale) return false;
    for (uint32_t i = 0; i < m->texture_count; i++) {
        b->texture_image[i] = texture_png(b, i);
        if (b->texture_image[i] == -2) goto nomem;
    }
    for (uint32_t i = 0; i < m->tangent_map_count; i++) {
        b->tangent_image[i] = tangent_png(b, i);
        if (b->tangent_image[i] == -2) goto nomem;
    }
    return true;
nomem:
    fy_error_set(b->err, FERRY_ERR_NOMEM, FERRY_NO_OFFSET, "", "out of memory encoding textures");
    return false;
}

bool fy_alm_materials(fy_alm_build *b)
{
    ferry_arena *ja = b->arena;
    const ferry_alm_mesh *m = b->mesh;
    ferry_scene *s = b->scene;
    s->materials = fy_alm_alloc(b, m->material_count, sizeof *s->materials);
    if (!s->materials) return false;
    for (uint32_t i = 0; i < m->material_count; i++) {
        const ferry_alm_material *am = &m->materials[i];
        ferry_scene_material *sm = &s->materials[i];
        ferry_scene_material_init(sm);
        char name[32];
        snprintf(name, sizeof name, "material %u", (unsigned)i);
        sm->name = ferry_arena_strdup(b->arena, name);
        ferry_json *x = fy_jobject(ja);
        fy_jset(ja, x, "alm_material", fy_jinteger(ja, i));
        fy_jset(ja, x, "texture_id", fy_jinteger(ja, am->texture_id));
        if (am->texture_id >= 0) {
            const ferry_alm_texture *t = &m->textures[am->texture_id];
            int32_t image = b->texture_image[am->texture_id];
            if (image >= 0) fy_jset(ja, x, "texture_image", fy_jinteger(ja, image));
            if (t->is_signed) {
                /* Vectors, not colours: named, never shown as colour. */
                fy_jset(ja, x, "texture_signed", fy_jbool(ja, true));
            } else {
                FY_SET_REF(sm, base_color_image, image);
            }
        }
        if (m->version >= 8) {
            fy_jset(ja, x, "tangent_id", fy_jinteger(ja, am->tangent_id));
            if (am->tangent_id >= 0) {
                int32_t image = b->tangent_image[am->tangent_id];
                if (image >= 0) {
                    ferry_json *tm = fy_jobject(ja);
                    fy_jset(ja, tm, "image", fy_jinteger(ja, image));
                    fy_jset(ja, tm, "scale", fy_jreal_or_null(ja, b->tangent_scale[am->tangent_id]));
                    fy_jset(ja, tm, "layout", fy_jstring(ja, "left half U tangent, right half V tangent, rest pose, "
                                                                  "rgb = (v / scale + 1) / 2"));
                    fy_jset(ja, x, "tangent_map", tm);
                }
            }
        } else if (am->weight_count > 0) {
            ferry_json *list = fy_jarray(ja);
            for (uint32_t k = 0; k < am->weight_count; k++) {
                ferry_json *e = fy_jobject(ja);
                fy_jset(ja, e, "bone", fy_jinteger(ja, am->bones[k]));
                fy_jset(ja, e, "texture_id", fy_jinteger(ja, am->tangent_ids[k]));
                int32_t image = b->texture_image[am->tangent_ids[k]];
                if (image >= 0) fy_jset(ja, e, "image", fy_jinteger(ja, image));
                fy_jpush(ja, list, e);
            }
            fy_jset(ja, x, "tangent_textures", list);
        }
        sm->extras = x;
        if (!sm->name || !sm->extras) {
            fy_error_set(b->err, FERRY_ERR_NOMEM, FERRY_NO_OFFSET, "", "out of memory building materials");
            return false;
        }
    }
    s->material_count = m->material_count;
    return true;
}
