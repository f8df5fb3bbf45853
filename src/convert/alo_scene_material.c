/* ALO materials -> scene materials, and their textures found, decoded and
 * embedded as PNG (each file once). */
#include "alo_scene_internal.h"

#include "../image/image_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* Largest texture file read (the games' largest are a few MiB). */
#define TEXTURE_FILE_LIMIT (256u << 20)

bool fy_alo_shader_is(const char *shader, const char *word)
{
    if (!shader || !word) return false;
    size_t wl = strlen(word);
    for (const char *p = shader; *p; p++)
        if (strncasecmp(p, word, wl) == 0) return true;
    return false;
}

static const ferry_alo_shader_param *find_param(const ferry_alo_material *m, const char *name, uint32_t type)
{
    for (size_t i = 0; i < m->param_count; i++) {
        const ferry_alo_shader_param *p = &m->params[i];
        if (p->type == type && p->name && strcasecmp(p->name, name) == 0) return p;
    }
    return NULL;
}

/* Forgets the file kept decoded for its other variants. */
static void drop_decoded(fy_alo_build *b)
{
    free(b->decoded_key);
    b->decoded_key = NULL;
    ferry_image_free(&b->decoded);
}

void fy_alo_textures_free(fy_alo_build *b)
{
    drop_decoded(b);
    for (size_t i = 0; i < b->texture_count; i++) free(b->textures[i].name);
    free(b->textures);
    b->textures = NULL;
    b->texture_count = b->texture_capacity = 0;
    if (b->image_paths) {
        for (size_t i = 0; i < b->scene->image_count; i++) free(b->image_paths[i]);
        free(b->image_paths);
        b->image_paths = NULL;
    }
}

/* The caller's texture places; NULL when there is nowhere to look. */
static const ferry_alamo_texture_places *texture_places(const fy_alo_build *b)
{
    const ferry_alamo_texture_places *p = b->opts->texture_places;
    return p && (p->model_source || p->folder_count) ? p : NULL;
}

static void warn(fy_alo_build *b, const char *rule, const char *fmt, const char *a, const char *c)
{
    if (b->opts->diagnostics) fy_diag_add(b->opts->diagnostics, FERRY_SEVERITY_WARNING, FERRY_NO_OFFSET, "", rule, fmt, a, c);
}

/* The game adds an additive texture's colour onto the screen; glTF has only
 * alpha blending. Alpha = the texel's brightest channel and the colour
 * divided by it give colour * alpha = the original colour, so blending adds
 * what the game adds (only darkening the background by 1 - alpha): black,
 * the additive "nothing", becomes fully transparent instead of a black square. */
static void additive_to_alpha(ferry_image *img)
{
    size_t n = (size_t)img->width * img->height;
    for (size_t i = 0; i < n; i++) {
        uint8_t *p = img->rgba + 4 * i;
        unsigned m = p[0] > p[1] ? p[0] : p[1];
        if (p[2] > m) m = p[2];
        for (int c = 0; c < 3; c++) p[c] = m ? (uint8_t)((p[c] * 255u + m / 2) / m) : 0;
        p[3] = (uint8_t)m;
    }
}

/* Colorize shaders: the alpha channel is the faction-colour mask, not an
 * opacity. The colour keeps its texels with alpha 1 (an RGB PNG); the mask
 * becomes a grey image of its own. */
static void alpha_to_grey(ferry_image *img)
{
    size_t n = (size_t)img->width * img->height;
    for (size_t i = 0; i < n; i++) {
        uint8_t *p = img->rgba + 4 * i;
        p[0] = p[1] = p[2] = p[3];
        p[3] = 255;
    }
}

/* Image name suffix and lookup key of each variant. */
static const char *const variant_names[] = {"", " (additive)", " (colour)", " (faction mask)"};

/* The image named after the texture's stem, as artists know it, with the
 * variant's suffix. NULL: out of memory. */
static char *image_name(fy_alo_build *b, const char *name, fy_texture_variant variant)
{
    const char *base = name;
    for (const char *p = name; *p; p++)
        if (*p == '/' || *p == '\\') base = p + 1;
    char *stem = ferry_arena_strdup(b->arena, base);
    if (!stem) return NULL;
    char *dot = strrchr(stem, '.');
    if (dot && dot != stem) *dot = '\0';
    if (variant == FY_TEXTURE_PLAIN) return stem;
    size_t len = strlen(stem) + 24;
    char *named = ferry_arena_alloc(b->arena, len);
    if (named) snprintf(named, len, "%s%s", stem, variant_names[variant]);
    return named;
}

/* native_textures: the file in its own format, for an importer that reads
 * it (Blender's). A plain variant found on the disk is linked, once ferry
 * decodes it (its smallest level: the format and header checked,
 * ferry_image_level_count having checked the top level's bytes are all
 * there). A colorize colour from a DXT texture is embedded as the DXT1 DDS
 * of its colour blocks (fy_image_dds_opaque_colour): its alpha, the mask,
 * cannot be linked with it, since Blender's viewport draws a DXT texture's
 * own blocks whatever the image's alpha mode (the mask cut holes in
 * Workbench's textured view). 1 done, 0 not possible (the variant is then
 * decoded and embedded as PNG, which says why if it cannot be decoded
 * either), -1 out of memory. */
static int native_file(fy_alo_build *b, const ferry_file_source *source, const char *found, const char *name,
                       const char *shown, fy_texture_variant variant)
{
    char disk_path[4200];
    const char *disk = NULL;
    if (variant == FY_TEXTURE_PLAIN && ferry_file_source_disk_path(source, found, disk_path, sizeof disk_path))
        disk = disk_path;
    if (variant == FY_TEXTURE_PLAIN ? !disk : variant != FY_TEXTURE_OPAQUE) return 0;
    uint8_t *data = NULL;
    size_t size = 0;
    ferry_error e;
    bool usable = false;
    ferry_buffer dds = {0};
    if (ferry_file_source_load(source, found, TEXTURE_FILE_LIMIT, &data, &size, &e) == FERRY_OK) {
        if (disk) {
            /* Blender reads DDS files of the old header only (not DX10). */
            bool dx10 = size >= 88 && memcmp(data, "DDS ", 4) == 0 && memcmp(data + 84, "DX10", 4) == 0;
            uint32_t levels = dx10 ? 0 : ferry_image_level_count(data, size);
            ferry_image_options io = {0};
            io.level = levels ? levels - 1 : 0;
            ferry_image smallest;
            usable = levels && ferry_image_decode(data, size, &io, &smallest, &e) == FERRY_OK;
            if (usable) ferry_image_free(&smallest);
        } else {
            usable = size >= 4 && memcmp(data, "DDS ", 4) == 0 &&
                     fy_image_dds_opaque_colour(data, size, &dds, &e) == FERRY_OK && !dds.failed;
        }
        ferry_file_source_release(source, data, size);
    }
    ferry_scene_image *im = &b->scene->images[b->scene->image_count];
    if (usable) {
        if (disk) {
            im->linked_path = ferry_arena_strdup(b->arena, disk);
        } else {
            im->size = dds.size;
            im->data = fy_scene_take_buffer(b->arena, &dds);
            im->mime_type = "image/vnd-ms.dds";
        }
        im->name = image_name(b, name, variant);
        im->source_path = ferry_arena_strdup(b->arena, shown);
    }
    ferry_buffer_free(&dds);
    if (!usable) return 0;
    return (im->linked_path || im->data) && im->name && im->source_path ? 1 : -1;
}

/* Reads, decodes and re-encodes one file; -1 with a warning when it cannot
 * (*unusable then says why, for the list of missing textures). */
static int32_t embed_file(fy_alo_build *b, const char *name, const ferry_file_source *source, const char *found,
                          fy_texture_variant variant, bool *nomem, const char **unusable)
{
    ferry_scene *s = b->scene;
    char path[4200]; /* as messages show it */
    ferry_file_source_display(source, found, path, sizeof path);
    /* Each file is embedded once per variant that is used. */
    char key[4300];
    snprintf(key, sizeof key, "%p\n%s\n%s", (const void *)source, found, variant_names[variant]);
    for (size_t i = 0; i < s->image_count; i++)
        if (b->image_paths && b->image_paths[i] && strcmp(b->image_paths[i], key) == 0) return (int32_t)i;
    if (s->image_count >= b->image_capacity) return -1;
    if (!b->image_paths) {
        b->image_paths = calloc(b->image_capacity ? b->image_capacity : 1, sizeof *b->image_paths);
        if (!b->image_paths) {
            *nomem = true;
            return -1;
        }
    }
    int native = b->opts->native_textures ? native_file(b, source, found, name, path, variant) : 0;
    if (native) {
        b->image_paths[s->image_count] = native > 0 ? fy_strdup(key) : NULL;
        if (!b->image_paths[s->image_count]) {
            *nomem = true;
            return -1;
        }
        return (int32_t)s->image_count++;
    }

    char file_key[4300];
    snprintf(file_key, sizeof file_key, "%p\n%s", (const void *)source, found);
    ferry_image img;
    memset(&img, 0, sizeof img);
    ferry_error e;
    ferry_result r;
    if (b->decoded_key && strcmp(b->decoded_key, file_key) == 0) {
        img = b->decoded; /* taken; kept again below unless this variant changes it */
        memset(&b->decoded, 0, sizeof b->decoded);
        drop_decoded(b); /* the key only: the pixels are img's now */
    } else {
        drop_decoded(b);
        uint8_t *data = NULL;
        size_t size = 0;
        if (ferry_file_source_load(source, found, TEXTURE_FILE_LIMIT, &data, &size, &e) != FERRY_OK) {
            /* The reason too: a FIFO of that name is not "missing". */
            warn(b, "texture-undecodable", "texture %s cannot be read (%s)", name, e.message);
            *unusable = "could not be read";
            return -1;
        }
        r = ferry_image_decode(data, size, NULL, &img, &e);
        ferry_file_source_release(source, data, size);
        if (r != FERRY_OK) {
            char msg[300];
            snprintf(msg, sizeof msg, "%.120s: %.170s", path, e.message);
            warn(b, "texture-undecodable", "texture %s cannot be decoded (%s)", name, msg);
            *unusable = "could not be decoded";
            return -1;
        }
    }
    /* The colour variant leaves the pixels as they are (the PNG is written
     * without their alpha); the others change them, and the file is decoded
     * again if another variant is asked for. */
    bool keep = variant == FY_TEXTURE_PLAIN || variant == FY_TEXTURE_OPAQUE;
    if (variant == FY_TEXTURE_ADDITIVE) additive_to_alpha(&img);
    else if (variant == FY_TEXTURE_MASK) alpha_to_grey(&img);
    ferry_buffer png = {0};
    const ferry_png_options png_options = {b->opts->png_effort};
    if (variant == FY_TEXTURE_OPAQUE) r = fy_image_encode_png_rgb(&img, &png_options, &png, &e);
    else if (variant == FY_TEXTURE_MASK) r = fy_image_encode_png_grey(&img, &png_options, &png, &e);
    else r = ferry_image_encode_png(&img, &png_options, &png, &e);
    if (keep && (b->decoded_key = fy_strdup(file_key)) != NULL) b->decoded = img;
    else ferry_image_free(&img);
    if (r != FERRY_OK || png.failed) {
        ferry_buffer_free(&png);
        if (r == FERRY_ERR_NOMEM || png.failed) *nomem = true;
        else {
            warn(b, "texture-undecodable", "texture %s cannot be encoded as PNG (%s)", name, e.message);
            *unusable = "could not be decoded";
        }
        return -1;
    }
    ferry_scene_image *im = &s->images[s->image_count];
    im->size = png.size;
    im->data = fy_scene_take_buffer(b->arena, &png);
    char *stem = image_name(b, name, variant);
    im->name = stem;
    im->mime_type = "image/png";
    im->source_path = ferry_arena_strdup(b->arena, path);
    b->image_paths[s->image_count] = fy_strdup(key);
    if (!im->data || !stem || !im->source_path || !b->image_paths[s->image_count]) {
        free(b->image_paths[s->image_count]); /* the image is not counted: nothing else frees it */
        b->image_paths[s->image_count] = NULL;
        *nomem = true;
        return -1;
    }
    return (int32_t)s->image_count++;
}

/* The scene image for a texture name, looked up once per distinct name
 * (ignoring case, as the game does). -1 when absent; *nomem on memory failure. */
static int32_t texture_image(fy_alo_build *b, const char *name, fy_texture_variant variant, bool *nomem)
{
    const ferry_alo_scene_options *o = b->opts;
    if (!name || !*name || o->skip_textures) return -1;
    const ferry_alamo_texture_places *places = texture_places(b);
    if (!places) return -1;
    bool failed = false;
    for (size_t i = 0; i < b->texture_count; i++) {
        if (strcasecmp(b->textures[i].name, name) != 0) continue;
        if (b->textures[i].variant == variant) return b->textures[i].image;
        failed |= b->textures[i].image < 0;
    }
    if (failed) return -1; /* missing or undecodable: reported once, whatever the variant */
    if (b->texture_count == b->texture_capacity) {
        size_t cap = b->texture_capacity ? 2 * b->texture_capacity : 16;
        fy_texture_entry *t = realloc(b->textures, cap * sizeof *t);
        if (!t) {
            *nomem = true;
            return -1;
        }
        b->textures = t;
        b->texture_capacity = cap;
    }
    int32_t image = -1;
    bool missing = false;
    const char *unusable = NULL;
    char path[4096];
    const ferry_file_source *source = NULL;
    if (ferry_alamo_texture_find(places, name, &source, path, sizeof path)) {
        image = embed_file(b, name, source, path, variant, nomem, &unusable);
    } else {
        missing = true;
        warn(b, "texture-missing", "texture %s not found beside the model, in ../Textures or the given folders%s", name, "");
    }
    char *copy = fy_strdup(name);
    if (!copy) {
        *nomem = true;
        return -1;
    }
    b->textures[b->texture_count].name = copy;
    b->textures[b->texture_count].image = image;
    b->textures[b->texture_count].variant = variant;
    b->textures[b->texture_count].missing = missing;
    b->textures[b->texture_count].unusable = unusable;
    b->texture_count++;
    return image;
}

static ferry_json *param_json(ferry_arena *ja, const ferry_alo_shader_param *p)
{
    switch (p->type) {
    case FERRY_ALO_PARAM_INT: return fy_jinteger(ja, p->int_value);
    case FERRY_ALO_PARAM_FLOAT: return fy_jreal_or_null(ja, p->value[0]);
    case FERRY_ALO_PARAM_FLOAT3: return fy_jfloats(ja, p->value, 3);
    case FERRY_ALO_PARAM_FLOAT4: return fy_jfloats(ja, p->value, 4);
    case FERRY_ALO_PARAM_TEXTURE: return fy_jstring(ja, p->texture ? p->texture : "");
    default: return fy_jnull(ja);
    }
}

static float unit(float v)
{
    return isfinite(v) ? fminf(fmaxf(v, 0.0f), 1.0f) : 1.0f;
}

int32_t fy_alo_material(fy_alo_build *b, const ferry_alo_mesh *mesh, size_t submesh_index)
{
    ferry_arena *ja = b->arena;
    ferry_scene *s = b->scene;
    if (s->material_count >= b->material_capacity) {
        fy_error_set(b->err, FERRY_ERR_ARGUMENT, FERRY_NO_OFFSET, "", "material count exceeded its estimate");
        return -1;
    }
    const ferry_alo_material *am = &mesh->submeshes[submesh_index].material;
    ferry_scene_material *m = &s->materials[s->material_count];
    ferry_scene_material_init(m);
    const char *mesh_name = mesh->name ? mesh->name : "mesh";
    if (mesh->submesh_count > 1) {
        size_t len = strlen(mesh_name) + 24;
        char *name = ferry_arena_alloc(b->arena, len);
        if (name) snprintf(name, len, "%s.%zu", mesh_name, submesh_index);
        m->name = name;
    } else {
        m->name = ferry_arena_strdup(b->arena, mesh_name);
    }
    const char *shader = am->shader ? am->shader : "";
    bool nomem = false;

    bool additive = fy_alo_shader_is(shader, "additive") || fy_alo_shader_is(shader, "shield");
    bool alpha = !additive && fy_alo_shader_is(shader, "alpha");
    bool colorize = !additive && !alpha && fy_alo_shader_is(shader, "colorize");
    const ferry_alo_shader_param *base = find_param(am, "BaseTexture", FERRY_ALO_PARAM_TEXTURE);
    int32_t mask_image = -1;
    if (base) {
        fy_texture_variant v = additive ? FY_TEXTURE_ADDITIVE : colorize ? FY_TEXTURE_OPAQUE : FY_TEXTURE_PLAIN;
        FY_SET_REF(m, base_color_image, texture_image(b, base->texture, v, &nomem));
        if (colorize && m->has_base_color_image && !b->opts->no_faction_masks)
            mask_image = texture_image(b, base->texture, FY_TEXTURE_MASK, &nomem);
    }
    const ferry_alo_shader_param *normal = find_param(am, "NormalTexture", FERRY_ALO_PARAM_TEXTURE);
    if (normal) FY_SET_REF(m, normal_image, texture_image(b, normal->texture, FY_TEXTURE_PLAIN, &nomem));
    if (nomem) {
        fy_error_set(b->err, FERRY_ERR_NOMEM, FERRY_NO_OFFSET, "", "out of memory embedding textures");
        return -1;
    }

    /* Base colour: Diffuse's RGB (lit shaders), else Color's (additive,
     * alpha, shield). Alpha stays 1: Diffuse's w is 0 in 76 real materials
     * that are drawn opaque, and additive colours' w is 0 in 10. */
    const ferry_alo_shader_param *color = find_param(am, "Diffuse", FERRY_ALO_PARAM_FLOAT4);
    if (!color) color = find_param(am, "Color", FERRY_ALO_PARAM_FLOAT4);
    if (!color) color = find_param(am, "DiffuseColor", FERRY_ALO_PARAM_FLOAT3);
    if (color && !fy_alo_shader_is(shader, "collision"))
        for (int k = 0; k < 3; k++) m->base_color_factor[k] = unit(color->value[k]);
    /* Petroglyph's lit shaders compute texel x (Diffuse x lighting +
     * Emissive): the glow is the texture times Emissive, so dark texels
     * (cockpit glass) stay dark. glTF adds emissiveTexture x emissiveFactor
     * to the lit colour: the base texture (its colour, for colorize) with
     * Emissive as factor is exactly that term. */
    const ferry_alo_shader_param *emissive = find_param(am, "Emissive", FERRY_ALO_PARAM_FLOAT4);
    if (emissive) {
        for (int k = 0; k < 3; k++) m->emissive_factor[k] = unit(emissive->value[k]);
        bool glows = m->emissive_factor[0] > 0 || m->emissive_factor[1] > 0 || m->emissive_factor[2] > 0;
        if (glows && !additive && m->has_base_color_image) FY_SET_REF(m, emissive_image, m->base_color_image);
    }
    m->metallic_factor = 0.0f;

    ferry_json *x = fy_jobject(ja);
    fy_jset(ja, x, "shader", fy_jstring(ja, shader));
    /* A blended shader whose texture is missing (or not embedded) keeps
     * its blending: without the texture's alpha it would be an opaque slab.
     * Additive: alpha 0.2, about the mean brightness of the corpus' additive
     * textures (0.25 and 0.16), so the glow shows faintly; alpha shaders:
     * 0.25, a see-through placeholder. */
    bool untextured = base && !m->has_base_color_image;
    if (additive) {
        /* glTF has no additive blending: blended and unlit, with the texture's
         * brightness as its alpha (additive_to_alpha), is the closest. */
        m->alpha_mode = FERRY_ALPHA_BLEND;
        m->unlit = true;
        if (untextured) m->base_color_factor[3] = 0.2f;
        fy_jset(ja, x, "blend", fy_jstring(ja, "additive"));
    } else if (alpha) {
        m->alpha_mode = FERRY_ALPHA_BLEND;
        if (untextured) m->base_color_factor[3] = 0.25f;
        fy_jset(ja, x, "blend", fy_jstring(ja, "alpha"));
    }
    if (untextured) fy_jset(ja, x, "texture_not_embedded", fy_jstring(ja, base->texture ? base->texture : ""));
    if (fy_alo_shader_is(shader, "shadow")) fy_jset(ja, x, "kind", fy_jstring(ja, "shadow_volume"));
    else if (fy_alo_shader_is(shader, "collision")) fy_jset(ja, x, "kind", fy_jstring(ja, "collision"));
    if (fy_alo_shader_is(shader, "colorize")) fy_jset(ja, x, "colorized", fy_jbool(ja, true));
    if (mask_image >= 0) {
        /* The base texture's alpha, as its own image (glTF image and texture
         * index: the writer makes texture i from image i). */
        ferry_json *mask = fy_jobject(ja);
        fy_jset(ja, mask, "image", fy_jinteger(ja, mask_image));
        fy_jset(ja, mask, "texture", fy_jinteger(ja, mask_image));
        fy_jset(ja, x, "faction_mask", mask);
    }
    ferry_json *params = fy_jobject(ja);
    for (size_t i = 0; i < am->param_count; i++) {
        const ferry_alo_shader_param *p = &am->params[i];
        if (p->name) fy_jset(ja, params, p->name, param_json(ja, p));
    }
    fy_jset(ja, x, "params", params);
    m->extras = x;
    return (int32_t)s->material_count++;
}
