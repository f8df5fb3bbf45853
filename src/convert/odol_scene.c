/* ODOL model -> ferry_scene: a root node, a node per LOD (named by its
 * resolution) holding one primitive per section, proxies as child nodes,
 * everything glTF has no place for in extras. docs/formats/odol-gltf.md
 * explains each decision, the axis change and the measured winding. */
#include "convert_internal.h"
#include "odol_scene_texture.h"
#include "odol_scene_anim.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define NO_SECTION UINT32_MAX
/* Shorter normals are noise, not directions (stored ones are unit length). */
#define MIN_NORMAL_LENGTH 1e-6

typedef struct material_entry {
    const char *texture, *rvmat; /* the key: both as the file names them ("" for none) */
    const char *base;            /* the name before numbering */
} material_entry;

typedef struct build {
    const ferry_odol_model *m;
    ferry_scene *s;
    ferry_arena *arena;
    ferry_error *err;
    ferry_odol_scene_report rep;
    material_entry *mats; /* parallel to s->materials */
    size_t node_cap, mesh_cap, mat_cap;
    /* Scratch sized for the largest LOD, malloc'd. */
    uint32_t *face_section; /* per face: its section, or NO_SECTION */
    uint32_t *next_free;    /* skip list over faces not yet given a section */
    uint32_t *bucket;       /* faces ordered by section */
    uint32_t *bucket_start; /* per section (+ the default one) */
    uint32_t *remap;        /* source vertex -> primitive vertex */
    uint32_t *stamp;        /* primitive that last set remap[v] (+1) */
    uint32_t stamp_now;
    uint8_t *skip_section;  /* per section of the current LOD: a proxy's, not drawn */
    uint32_t *naming;       /* per section of the current LOD: how many proxies name it */
    float *face_normals;    /* per vertex of the current LOD: its faces' area-weighted normal */
    bool face_normals_ready;
    fy_odol_textures tex;   /* the sections' texture files (odol_scene_texture.c) */
    fy_odol_anim *anim; /* skins and animations (odol_scene_anim.c) */
    bool animations;
} build;

static bool fail(build *b, ferry_result code, const char *path, const char *msg)
{
    fy_error_set(b->err, code, FERRY_NO_OFFSET, path, "%s", msg);
    return false;
}

static void *alloc(build *b, size_t count, size_t size) { return fy_scene_alloc(b->arena, b->err, count, size); }

static const char *str(const char *s) { return s ? s : ""; }

static float f32_at(const uint8_t *p) { return fy_bits_f32(fy_load_u32le(p)); }

/* The engine is left-handed with y up, and its models face -z with their
 * right side at -x (measured on real vehicles and characters:
 * docs/formats/odol-gltf.md, "Axes"). glTF is right-handed, y up, the
 * asset's front at +z and its right at -x. Negating z maps one onto the
 * other: the front turns to +z, the right stays at -x. Seen from outside,
 * a face keeps its turning sense (mirrored object, mirrored axes), so the
 * winding is reversed where the faces are written (the measured winding). */
static void to_gltf(const uint8_t *p, float out[3])
{
    out[0] = f32_at(p);
    out[1] = f32_at(p + 4);
    out[2] = -f32_at(p + 8);
}

/* The same mirror for directions and matrices: diag(1, 1, -1). */
static const float axis_sign[3] = {1, 1, -1};

/* ---- JSON helpers ---- */

static ferry_json *u16_list(ferry_arena *ja, const ferry_odol_array *a)
{
    ferry_json *v = fy_jarray(ja);
    if (a->data)
        for (uint32_t i = 0; i < a->count; i++) fy_jpush(ja, v, fy_jinteger(ja, fy_load_u16le(a->data + 2u * i)));
    return v;
}

static ferry_json *i32_list(ferry_arena *ja, const ferry_odol_array *a)
{
    ferry_json *v = fy_jarray(ja);
    if (a->data)
        for (uint32_t i = 0; i < a->count; i++)
            fy_jpush(ja, v, fy_jinteger(ja, (int32_t)fy_load_u32le(a->data + 4u * i)));
    return v;
}

static ferry_json *u8_list(ferry_arena *ja, const ferry_odol_array *a)
{
    ferry_json *v = fy_jarray(ja);
    if (a->data)
        for (uint32_t i = 0; i < a->count; i++) fy_jpush(ja, v, fy_jinteger(ja, a->data[i]));
    return v;
}

static const char *anim_type_name(uint32_t type)
{
    static const char *const names[] = {"rotation",    "rotationX",    "rotationY",    "rotationZ", "translation",
                                        "translationX", "translationY", "translationZ", "direct",    "hide"};
    return type < sizeof names / sizeof names[0] ? names[type] : "unknown";
}

static ferry_json *animation_json(ferry_arena *ja, const ferry_odol_animation_class *a)
{
    ferry_json *o = fy_jobject(ja);
    fy_jset(ja, o, "name", fy_jstring(ja, str(a->name)));
    fy_jset(ja, o, "type", fy_jstring(ja, anim_type_name(a->type)));
    fy_jset(ja, o, "type_id", fy_jinteger(ja, a->type));
    fy_jset(ja, o, "source", fy_jstring(ja, str(a->source)));
    fy_jset(ja, o, "min_phase", fy_jreal_or_null(ja, a->min_phase));
    fy_jset(ja, o, "max_phase", fy_jreal_or_null(ja, a->max_phase));
    fy_jset(ja, o, "min_value", fy_jreal_or_null(ja, a->min_value));
    fy_jset(ja, o, "max_value", fy_jreal_or_null(ja, a->max_value));
    fy_jset(ja, o, "source_address", fy_jinteger(ja, a->source_address));
    if (a->type <= FERRY_ODOL_ANIM_ROTATION_Z) {
        fy_jset(ja, o, "angle0", fy_jreal_or_null(ja, a->params[0]));
        fy_jset(ja, o, "angle1", fy_jreal_or_null(ja, a->params[1]));
    } else if (a->type <= FERRY_ODOL_ANIM_TRANSLATION_Z) {
        fy_jset(ja, o, "offset0", fy_jreal_or_null(ja, a->params[0]));
        fy_jset(ja, o, "offset1", fy_jreal_or_null(ja, a->params[1]));
    } else if (a->type == FERRY_ODOL_ANIM_DIRECT) {
        fy_jset(ja, o, "axis_pos", fy_jfloats(ja, a->axis_pos, 3));
        fy_jset(ja, o, "axis_dir", fy_jfloats(ja, a->axis_dir, 3));
        fy_jset(ja, o, "angle", fy_jreal_or_null(ja, a->angle));
        fy_jset(ja, o, "axis_offset", fy_jreal_or_null(ja, a->axis_offset));
    } else {
        fy_jset(ja, o, "hide_value", fy_jreal_or_null(ja, a->params[0]));
    }
    return o;
}

static ferry_json *special_lods_json(ferry_arena *ja, const ferry_odol_model *m)
{
    static const char *const keys[FERRY_ODOL_SPECIAL_LOD_COUNT] = {
        "memory",     "geometry",    "fire",         "view",    "view_pilot", "view_gunner",
        "unknown",    "view_cargo", "land_contact", "roadway", "paths",      "hitpoints"};
    ferry_json *o = fy_jobject(ja);
    for (int i = 0; i < FERRY_ODOL_SPECIAL_LOD_COUNT; i++) {
        uint8_t v = m->info.special_lods[i];
        fy_jset(ja, o, keys[i], v < m->lod_count ? fy_jinteger(ja, v) : fy_jnull(ja));
    }
    return o;
}

/* Everything about the model as a whole: the root node's extras. Values
 * are as stored (engine axes). */
static ferry_json *model_json(ferry_arena *ja, const ferry_odol_model *m)
{
    const ferry_odol_model_info *mi = &m->info;
    ferry_json *o = fy_jobject(ja);
    fy_jset(ja, o, "format", fy_jstring(ja, "ODOL"));
    fy_jset(ja, o, "version", fy_jinteger(ja, m->version));
    fy_jset(ja, o, "axes", fy_jstring(ja, "extras keep the file's values: engine axes, left-handed, y up, "
                                               "the model's front at -z and its right at -x; the geometry has z negated"));
    fy_jset(ja, o, "class", fy_jstring(ja, str(mi->class_name)));
    fy_jset(ja, o, "damage", fy_jstring(ja, str(mi->damage)));
    fy_jset(ja, o, "mass", fy_jreal_or_null(ja, mi->mass));
    fy_jset(ja, o, "armor", fy_jreal_or_null(ja, mi->armor));
    fy_jset(ja, o, "bounding_sphere", fy_jreal_or_null(ja, mi->bounding_sphere));
    fy_jset(ja, o, "geometry_sphere", fy_jreal_or_null(ja, mi->geometry_sphere));
    fy_jset(ja, o, "bbox_min", fy_jfloats(ja, mi->bbox_min, 3));
    fy_jset(ja, o, "bbox_max", fy_jfloats(ja, mi->bbox_max, 3));
    fy_jset(ja, o, "bounding_center", fy_jfloats(ja, mi->bounding_center, 3));
    fy_jset(ja, o, "geometry_center", fy_jfloats(ja, mi->geometry_center, 3));
    fy_jset(ja, o, "center_of_mass", fy_jfloats(ja, mi->center_of_mass, 3));
    fy_jset(ja, o, "aiming_center", fy_jfloats(ja, mi->aiming_center, 3));
    fy_jset(ja, o, "view_density", fy_jreal_or_null(ja, mi->view_density));
    fy_jset(ja, o, "map_type", fy_jinteger(ja, mi->map_type));
    fy_jset(ja, o, "special_lods", special_lods_json(ja, m));
    ferry_json *res = fy_jarray(ja);
    for (uint32_t i = 0; i < m->lod_count; i++) fy_jpush(ja, res, fy_jreal_or_null(ja, m->resolutions ? m->resolutions[i] : m->lods[i].resolution));
    fy_jset(ja, o, "resolutions", res);
    const ferry_odol_skeleton *sk = &mi->skeleton;
    if (sk->name && sk->name[0]) {
        ferry_json *so = fy_jobject(ja);
        fy_jset(ja, so, "name", fy_jstring(ja, sk->name));
        fy_jset(ja, so, "discrete", fy_jbool(ja, sk->is_discrete));
        ferry_json *bones = fy_jarray(ja);
        for (uint32_t i = 0; sk->bones && i < sk->bone_count; i++) {
            ferry_json *bo = fy_jobject(ja);
            fy_jset(ja, bo, "name", fy_jstring(ja, str(sk->bones[i].name)));
            fy_jset(ja, bo, "parent", fy_jstring(ja, str(sk->bones[i].parent)));
            fy_jpush(ja, bones, bo);
        }
        fy_jset(ja, so, "bones", bones);
        fy_jset(ja, o, "skeleton", so);
    }
    if (m->animations.present) {
        ferry_json *an = fy_jarray(ja);
        for (uint32_t i = 0; m->animations.classes && i < m->animations.class_count; i++)
            fy_jpush(ja, an, animation_json(ja, &m->animations.classes[i]));
        fy_jset(ja, o, "animations", an);
    }
    return o;
}

/* ---- materials: one per (texture, rvmat) pair ---- */

static ferry_json *stage_json(ferry_arena *ja, const ferry_odol_stage_texture *st)
{
    ferry_json *o = fy_jobject(ja);
    fy_jset(ja, o, "stage", fy_jinteger(ja, st->stage));
    fy_jset(ja, o, "texture", fy_jstring(ja, str(st->texture)));
    fy_jset(ja, o, "filter", fy_jinteger(ja, st->filter));
    return o;
}

static ferry_json *rvmat_json(ferry_arena *ja, const ferry_odol_material *mt)
{
    ferry_json *o = fy_jobject(ja);
    fy_jset(ja, o, "pixel_shader", fy_jinteger(ja, mt->pixel_shader));
    fy_jset(ja, o, "vertex_shader", fy_jinteger(ja, mt->vertex_shader));
    fy_jset(ja, o, "surface", fy_jstring(ja, str(mt->surface)));
    fy_jset(ja, o, "emissive", fy_jfloats(ja, mt->emissive, 4));
    fy_jset(ja, o, "ambient", fy_jfloats(ja, mt->ambient, 4));
    fy_jset(ja, o, "diffuse", fy_jfloats(ja, mt->diffuse, 4));
    fy_jset(ja, o, "forced_diffuse", fy_jfloats(ja, mt->forced_diffuse, 4));
    fy_jset(ja, o, "specular", fy_jfloats(ja, mt->specular, 4));
    fy_jset(ja, o, "specular_power", fy_jreal_or_null(ja, mt->specular_power));
    ferry_json *stages = fy_jarray(ja);
    for (uint32_t i = 0; mt->stages && i < mt->stage_count; i++) fy_jpush(ja, stages, stage_json(ja, &mt->stages[i]));
    fy_jset(ja, o, "stages", stages);
    return o;
}

/* ---- procedural textures: #(format,width,height,mipmaps)function(...) ----
 * The engine makes such a texture from its text; color(r, g, b, a[, tag])
 * fills it with one colour (values 0 to 1; the tag is the texture's kind,
 * "co", "ca"...). Other functions (fresnel, irradiance...) are not colours. */

static const char *skip_spaces(const char *p)
{
    while (*p == ' ' || *p == '\t') p++;
    return p;
}

/* A decimal number at *p, spaces around it allowed; false when there is none. */
static bool read_number(const char **p, double *out)
{
    const char *q = skip_spaces(*p);
    char *end;
    if (!((*q >= '0' && *q <= '9') || *q == '-' || *q == '+' || *q == '.')) return false;
    double v = strtod(q, &end);
    if (end == q) return false;
    *out = v;
    *p = skip_spaces(end);
    return true;
}

/* Fills rgba from a procedural colour texture. Returns NULL on success, or
 * why the text is not one; not_procedural says it does not start with "#(". */
static const char *procedural_color(const char *text, float rgba[4], bool *not_procedural)
{
    *not_procedural = false;
    if (text[0] != '#' || text[1] != '(') {
        *not_procedural = true;
        return "";
    }
    const char *p = text + 2;
    size_t fl = strcspn(p, ",)");
    bool has_alpha;
    if (fl == 4 && strncasecmp(p, "argb", 4) == 0)
        has_alpha = true;
    else if (fl == 3 && strncasecmp(p, "rgb", 3) == 0)
        has_alpha = false;
    else
        return "the format is not argb or rgb";
    p += fl;
    for (int k = 0; k < 3; k++) {
        double v;
        if (*p != ',') return "expected (format,width,height,mipmaps)";
        p++;
        if (!read_number(&p, &v) || v != floor(v) || v < 1 || v > 65536) return "width, height and mipmaps must be whole numbers";
    }
    if (*p != ')') return "expected (format,width,height,mipmaps)";
    p = skip_spaces(p + 1);
    if (strncasecmp(p, "color", 5) != 0) return "not a color(...) texture";
    p = skip_spaces(p + 5);
    if (*p != '(') return "expected color(r,g,b,a)";
    p++;
    double v[4];
    for (int k = 0; k < 4; k++) {
        if (k && *p++ != ',') return "expected four values: color(r,g,b,a)";
        if (!read_number(&p, &v[k])) return "expected four numbers: color(r,g,b,a)";
        if (!(v[k] >= 0.0 && v[k] <= 1.0)) return "colour values must be numbers from 0 to 1";
    }
    if (*p == ',') {
        /* The texture's kind: letters and digits. */
        p = skip_spaces(p + 1);
        const char *tag = p;
        while ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') || *p == '_') p++;
        if (p == tag) return "expected a texture kind after the fourth value";
        p = skip_spaces(p);
    }
    if (*p != ')') return "expected ')' after the values";
    p = skip_spaces(p + 1);
    if (*p) return "unexpected text after color(...)";
    /* The values are texels, decoded as sRGB like any colour texture; glTF's
     * base colour factor is linear. Alpha is linear in both. */
    for (int k = 0; k < 3; k++)
        rgba[k] = (float)(v[k] <= 0.04045 ? v[k] / 12.92 : pow((v[k] + 0.055) / 1.055, 2.4));
    rgba[3] = has_alpha ? (float)v[3] : 1.0f;
    return NULL;
}

/* The section's texture file as the base colour texture (its alpha
 * deciding the blending), and the normal map its material record (else its
 * .rvmat file) names as the normal texture, when texture roots are given;
 * extras say what was found where (the .rvmat's stages too), and what was
 * not. */
static bool attach_textures(build *b, ferry_scene_material *mat, ferry_json *x, const char *texture,
                            const ferry_odol_material *record, const char *rvmat)
{
    ferry_arena *ja = b->arena;
    /* The .rvmat file: where it was found and its stages (the record's are
     * in rvmat_record), or why not. */
    const fy_odol_rvmat *rv = fy_odol_rvmat_find(&b->tex, rvmat);
    if (rv && rv->config) {
        fy_jset(ja, x, "rvmat_file", fy_jstring(ja, rv->shown));
        ferry_json *stages = fy_jarray(ja);
        for (size_t i = 0; i < rv->mat.stage_count; i++) {
            const ferry_rvmat_stage *st = &rv->mat.stages[i];
            ferry_json *o = fy_jobject(ja);
            fy_jset(ja, o, "stage", fy_jstring(ja, st->name ? st->name : ""));
            fy_jset(ja, o, "texture", st->texture ? fy_jstring(ja, st->texture) : fy_jnull(ja));
            fy_jset(ja, o, "role", fy_jstring(ja, ferry_rvmat_role_name(st->role)));
            fy_jpush(ja, stages, o);
        }
        fy_jset(ja, x, "rvmat_stages", stages);
    } else if (rv) {
        fy_jset(ja, x, rv->found.source ? "rvmat_not_read" : "rvmat_not_found",
                fy_jstring(ja, rv->found.source ? rv->problem : rvmat));
    }
    if (!b->tex.count) return true;
    bool nomem = false;
    const fy_odol_texture *t = fy_odol_texture_use(&b->tex, texture, false, &nomem);
    if (t && t->image >= 0) {
        FY_SET_REF(mat, base_color_image, t->image);
        mat->base_color_texcoord = 0;
        mat->alpha_mode = t->alpha;
        if (t->alpha == FERRY_ALPHA_MASK) mat->alpha_cutoff = 0.5f;
        fy_jset(ja, x, "texture_file", fy_jstring(ja, t->shown));
    } else if (t) {
        fy_jset(ja, x, t->found.source ? "texture_not_decoded" : "texture_not_found", fy_jstring(ja, texture));
    }
    const char *normal = fy_odol_section_normal(&b->tex, record, rvmat);
    const fy_odol_texture *n = fy_odol_texture_use(&b->tex, normal, true, &nomem);
    if (n) fy_jset(ja, x, "normal_texture", fy_jstring(ja, normal));
    if (n && n->image >= 0) {
        FY_SET_REF(mat, normal_image, n->image);
        mat->normal_texcoord = 0;
        fy_jset(ja, x, "normal_texture_file", fy_jstring(ja, n->shown));
    } else if (n) {
        fy_jset(ja, x, n->found.source ? "normal_texture_not_decoded" : "normal_texture_not_found", fy_jstring(ja, normal));
    }
    if (nomem) return fail(b, FERRY_ERR_NOMEM, "", "out of memory embedding textures");
    return true;
}

/* The scene material for a section, or -1 when it names neither a texture
 * nor a material (glTF's default material then). */
static bool section_material(build *b, const ferry_odol_lod *lod, const ferry_odol_section *sec, int32_t *out)
{
    ferry_arena *ja = b->arena;
    const char *texture = "";
    if (sec->texture >= 0 && (uint32_t)sec->texture < lod->texture_count && lod->textures)
        texture = str(lod->textures[sec->texture]);
    const ferry_odol_material *record = NULL;
    const char *rvmat = "";
    if (sec->material >= 0 && (uint32_t)sec->material < lod->material_count && lod->materials) {
        record = &lod->materials[sec->material];
        rvmat = str(record->name);
    } else if (sec->material == -1) {
        rvmat = str(sec->material_name);
    }
    *out = -1;
    if (!texture[0] && !rvmat[0]) return true;
    for (size_t i = 0; i < b->s->material_count; i++)
        if (strcmp(b->mats[i].texture, texture) == 0 && strcmp(b->mats[i].rvmat, rvmat) == 0) {
            *out = (int32_t)i;
            return true;
        }
    if (b->s->material_count == b->mat_cap) return fail(b, FERRY_ERR_NOMEM, "", "material table overflow");
    size_t index = b->s->material_count;
    ferry_scene_material *mat = &b->s->materials[index];
    ferry_scene_material_init(mat);
    /* Named after what a modder searches for: the .rvmat, else the texture.
     * Pairs sharing that name get " (2)", " (3)"... */
    const char *base = rvmat[0] ? rvmat : texture;
    unsigned same = 0;
    for (size_t i = 0; i < index; i++) same += strcmp(b->mats[i].base, base) == 0;
    char name[64 + 512];
    if (same)
        snprintf(name, sizeof name, "%.512s (%u)", base, same + 1);
    else
        snprintf(name, sizeof name, "%.512s", base);
    mat->name = ferry_arena_strdup(b->arena, name);
    ferry_json *x = fy_jobject(ja);
    fy_jset(ja, x, "texture", fy_jstring(ja, texture));
    fy_jset(ja, x, "rvmat", fy_jstring(ja, rvmat));
    if (record) fy_jset(ja, x, "rvmat_record", rvmat_json(ja, record));
    bool not_procedural;
    float rgba[4];
    const char *why = procedural_color(texture, rgba, &not_procedural);
    if (!why) {
        memcpy(mat->base_color_factor, rgba, sizeof rgba);
        if (rgba[3] < 1.0f) mat->alpha_mode = FERRY_ALPHA_BLEND;
        fy_jset(ja, x, "procedural_color", fy_jbool(ja, true));
        b->rep.colors++;
    } else if (!not_procedural) {
        fy_jset(ja, x, "procedural_problem", fy_jstring(ja, why));
        if (!b->rep.procedural_problem) {
            char line[640];
            snprintf(line, sizeof line, "\"%.512s\": %s", texture, why);
            b->rep.procedural_problem = ferry_arena_strdup(b->arena, line);
        }
        b->rep.procedural_ignored++;
    }
    /* Files only: a procedural texture was never collected, so it finds
     * no entry; its record's normal map still does. */
    if (!attach_textures(b, mat, x, texture, record, rvmat)) return false;
    mat->extras = x;
    if (!mat->name || !mat->extras) return fail(b, FERRY_ERR_NOMEM, "", "out of memory building a material");
    b->mats[index].texture = texture;
    b->mats[index].rvmat = rvmat;
    b->mats[index].base = base;
    b->s->material_count++;
    b->rep.materials++;
    *out = (int32_t)index;
    return true;
}

/* ---- geometry ---- */

/* Gives each face the first section whose byte range (of the in-memory
 * face layout: 8 per triangle, 10 per quad) holds the face's start; the
 * skip list keeps overlapping or huge ranges linear. */
static void assign_sections(build *b, const ferry_odol_lod *lod)
{
    uint32_t n = lod->face_count;
    for (uint32_t f = 0; f <= n; f++) b->next_free[f] = f;
    for (uint32_t f = 0; f < n; f++) b->face_section[f] = NO_SECTION;
    /* face_start doubles as bucket scratch: bytes where each face begins. */
    uint32_t *start = b->bucket;
    uint64_t at = 0;
    for (uint32_t f = 0; f < n; f++) {
        start[f] = at > UINT32_MAX ? UINT32_MAX : (uint32_t)at;
        at += 2u + 2u * lod->faces[f].count;
    }
    for (uint32_t s = 0; lod->sections && s < lod->section_count; s++) {
        int64_t begin = lod->sections[s].face_begin, end = lod->sections[s].face_end;
        if (end <= begin || end <= 0) continue;
        /* First face starting at or after begin. */
        uint32_t lo = 0, hi = n;
        while (lo < hi) {
            uint32_t mid = lo + (hi - lo) / 2;
            if ((int64_t)start[mid] < begin) lo = mid + 1;
            else hi = mid;
        }
        /* Find the next free face from lo, compressing the path as we go. */
        uint32_t f = lo;
        for (;;) {
            uint32_t r = f;
            while (b->next_free[r] != r) r = b->next_free[r];
            while (b->next_free[f] != r) {
                uint32_t nx = b->next_free[f];
                b->next_free[f] = r;
                f = nx;
            }
            f = r;
            if (f >= n || (int64_t)start[f] >= end) break;
            b->face_section[f] = s;
            b->next_free[f] = f + 1;
        }
    }
}

typedef struct lod_arrays {
    bool normals_ok;      /* a stored normal per vertex */
    bool normals_computed; /* none stored, but a LOD players see: all from the faces */
    size_t uv_sets;       /* usable UV sets, at most 2 */
} lod_arrays;

/* Every vertex's area-weighted normal over the drawn faces of the LOD (not
 * the proxies' triangles), in glTF axes and glTF winding: the sum of the
 * cross products of each triangle's edges, which point out of the model
 * (docs/formats/odol-gltf.md, "Winding and normals"). Computed once per
 * LOD, when a stored normal first needs repair. */
static void compute_face_normals(build *b, const ferry_odol_lod *lod)
{
    size_t n = lod->positions.count;
    float *out = b->face_normals;
    memset(out, 0, n * 3 * sizeof *out);
    for (uint32_t f = 0; f < lod->face_count; f++) {
        uint32_t s = b->face_section[f];
        if (s != NO_SECTION && b->skip_section[s]) continue;
        const ferry_odol_face *fc = &lod->faces[f];
        /* The face's area vector (twice it): the sum over its triangles in
         * the written order (0, k+1, k); every corner gets all of it, so a
         * quad weighs by its whole area. */
        double g[3] = {0, 0, 0};
        for (uint8_t k = 1; k + 1 < fc->count; k++) {
            uint16_t v[3] = {fc->vertices[0], fc->vertices[k + 1], fc->vertices[k]};
            float p[3][3];
            for (int c = 0; c < 3; c++) to_gltf(lod->positions.data + (size_t)v[c] * 12, p[c]);
            double u[3], w[3], n[3];
            for (int c = 0; c < 3; c++) u[c] = (double)p[1][c] - p[0][c], w[c] = (double)p[2][c] - p[0][c];
            fy_vec3d_cross(u, w, n);
            for (int c = 0; c < 3; c++) g[c] += n[c];
        }
        if (!isfinite(g[0]) || !isfinite(g[1]) || !isfinite(g[2])) continue;
        for (uint8_t c = 0; c < fc->count; c++)
            for (int j = 0; j < 3; j++) out[(size_t)fc->vertices[c] * 3 + j] += (float)g[j];
    }
    b->face_normals_ready = true;
}

/* One primitive from a list of faces: vertices in order of first use. */
static bool make_primitive(build *b, const ferry_odol_lod *lod, uint32_t lod_index, const lod_arrays *la,
                           const uint32_t *faces, uint32_t face_count, ferry_scene_primitive *p)
{
    b->stamp_now++;
    size_t tris = 0, verts = 0;
    for (uint32_t i = 0; i < face_count; i++) {
        const ferry_odol_face *f = &lod->faces[faces[i]];
        tris += f->count - 2u;
        for (uint8_t k = 0; k < f->count; k++) {
            uint16_t v = f->vertices[k];
            if (b->stamp[v] != b->stamp_now) {
                b->stamp[v] = b->stamp_now;
                b->remap[v] = (uint32_t)verts++;
            }
        }
    }
    float *pos = alloc(b, verts * 3, sizeof *pos);
    bool with_normals = la->normals_ok || la->normals_computed;
    float *nrm = with_normals ? alloc(b, verts * 3, sizeof *nrm) : NULL;
    float *uv[2] = {NULL, NULL};
    for (size_t t = 0; t < la->uv_sets; t++) uv[t] = alloc(b, verts * 2, sizeof *uv[t]);
    uint32_t *idx = alloc(b, tris * 3, sizeof *idx);
    if (!pos || (with_normals && !nrm) || (la->uv_sets > 0 && !uv[0]) || (la->uv_sets > 1 && !uv[1]) || !idx) return false;
    bool normals_ok = with_normals;
    bool repair = la->normals_computed; /* some stored normal is zero: computed below */
    size_t t = 0;
    for (uint32_t i = 0; i < face_count; i++) {
        const ferry_odol_face *f = &lod->faces[faces[i]];
        for (uint8_t k = 0; k < f->count; k++) {
            uint16_t v = f->vertices[k];
            uint32_t r = b->remap[v];
            to_gltf(lod->positions.data + (size_t)v * 12, pos + (size_t)r * 3);
            if (!isfinite(pos[(size_t)r * 3]) || !isfinite(pos[(size_t)r * 3 + 1]) || !isfinite(pos[(size_t)r * 3 + 2])) {
                char ppath[96];
                snprintf(ppath, sizeof ppath, "lods[%u]/positions[%u]", (unsigned)lod_index, (unsigned)v);
                return fail(b, FERRY_ERR_MALFORMED, ppath, "the vertex position is not a finite number");
            }
            if (la->normals_computed) {
                float *n = nrm + (size_t)r * 3;
                n[0] = n[1] = n[2] = 0;
            } else if (normals_ok) {
                float *n = nrm + (size_t)r * 3;
                /* Stored normals point into the model (measured on every
                 * corpus LOD: docs/formats/odol-gltf.md); glTF's point out. */
                float raw[3] = {0, 0, 0};
                (void)ferry_odol_vertex_normal(b->m, lod, v, raw);
                for (int c = 0; c < 3; c++) n[c] = -axis_sign[c] * raw[c];
                double len = fy_vec3_length(n);
                if (!isfinite(len)) {
                    char npath[96];
                    snprintf(npath, sizeof npath, "lods[%u]/normals[%u]", (unsigned)lod_index, (unsigned)v);
                    return fail(b, FERRY_ERR_MALFORMED, npath, "the vertex normal is not a finite number");
                }
                if (!(len > MIN_NORMAL_LENGTH))
                    repair = true, n[0] = n[1] = n[2] = 0; /* computed from the faces below */
                else
                    for (int c = 0; c < 3; c++) n[c] = (float)(n[c] / len);
            }
            for (size_t s = 0; s < la->uv_sets; s++) {
                float *t2 = uv[s] + (size_t)r * 2;
                if (!ferry_odol_vertex_uv(b->m, lod, (uint32_t)s, v, t2)) t2[0] = t2[1] = 0.0f;
                if (!isfinite(t2[0]) || !isfinite(t2[1])) {
                    char upath[96];
                    snprintf(upath, sizeof upath, "lods[%u]/uv_sets[%zu][%u]", (unsigned)lod_index, s, (unsigned)v);
                    return fail(b, FERRY_ERR_MALFORMED, upath, "the texture coordinate is not a finite number");
                }
            }
        }
        /* The engine draws the stored order clockwise seen from outside
         * (Direct3D's front faces); the z mirror keeps it clockwise, so
         * glTF (counter-clockwise fronts) gets it reversed. A quad is the
         * fan (0 1 2) (0 2 3) before reversing. */
        for (uint8_t k = 1; k + 1 < f->count; k++) {
            idx[t++] = b->remap[f->vertices[0]];
            idx[t++] = b->remap[f->vertices[k + 1]];
            idx[t++] = b->remap[f->vertices[k]];
        }
    }
    if (normals_ok && repair) {
        /* A zero stored normal (seen in real weapons) would cost the whole
         * primitive its NORMAL: that vertex gets its faces' normal instead. */
        if (!b->face_normals_ready) compute_face_normals(b, lod);
        for (uint32_t i = 0; i < face_count; i++) {
            const ferry_odol_face *f = &lod->faces[faces[i]];
            for (uint8_t k = 0; k < f->count; k++) {
                uint16_t v = f->vertices[k];
                float *n = nrm + (size_t)b->remap[v] * 3;
                if (n[0] != 0 || n[1] != 0 || n[2] != 0) continue;
                const float *fn = b->face_normals + (size_t)v * 3;
                double len = fy_vec3_length(fn);
                if (len > 0 && isfinite(len))
                    for (int c = 0; c < 3; c++) n[c] = (float)(fn[c] / len);
                else
                    n[1] = 1; /* only degenerate faces: any unit vector draws them the same */
                if (!la->normals_computed) b->rep.normals_repaired++;
            }
        }
    }
    p->vertex_count = verts;
    p->positions = pos;
    p->normals = normals_ok ? nrm : NULL;
    if (la->normals_computed) b->rep.normals_computed_primitives++;
    p->texcoord_count = la->uv_sets;
    p->texcoords[0] = uv[0];
    p->texcoords[1] = uv[1];
    p->indices = idx;
    p->index_count = tris * 3;
    p->mode = FERRY_PRIMITIVE_TRIANGLES;
    b->rep.triangles += tris;
    return true;
}

/* The vertices of a LOD without faces (memory points, land contacts...)
 * as points, in stored order, so selection vertex indices apply as they are. */
static bool make_points(build *b, const ferry_odol_lod *lod, uint32_t lod_index, ferry_scene_primitive *p)
{
    ferry_arena *ja = b->arena;
    uint32_t n = lod->positions.count;
    float *pos = alloc(b, (size_t)n * 3, sizeof *pos);
    if (!pos) return false;
    for (uint32_t v = 0; v < n; v++) to_gltf(lod->positions.data + (size_t)v * 12, pos + (size_t)v * 3);
    for (size_t k = 0; k < (size_t)n * 3; k++)
        if (!isfinite(pos[k])) {
            char path[64];
            snprintf(path, sizeof path, "lods[%u]/positions[%zu]", (unsigned)lod_index, k / 3);
            return fail(b, FERRY_ERR_MALFORMED, path, "the position is not a finite number");
        }
    p->vertex_count = n;
    p->positions = pos;
    p->mode = FERRY_PRIMITIVE_POINTS;
    FY_SET_REF(p, material, -1);
    ferry_json *points = fy_jobject(ja);
    fy_jset(ja, points, "points", fy_jbool(ja, true));
    p->extras = points;
    b->rep.points += n;
    return true;
}

/* What the converter relies on, checked: a model from ferry_odol_read has
 * not been through ferry_odol_validate. */
static bool check_lod(build *b, const ferry_odol_lod *lod, uint32_t l, lod_arrays *la)
{
    char path[96];
    uint32_t n = lod->positions.count;
    if (n && !lod->positions.data) {
        snprintf(path, sizeof path, "lods[%u]/positions", (unsigned)l);
        return fail(b, FERRY_ERR_MALFORMED, path, "the vertex count is not zero but the positions are missing");
    }
    if (lod->face_count && !lod->faces) {
        snprintf(path, sizeof path, "lods[%u]/faces", (unsigned)l);
        return fail(b, FERRY_ERR_MALFORMED, path, "the face count is not zero but the faces are missing");
    }
    for (uint32_t f = 0; f < lod->face_count; f++) {
        const ferry_odol_face *face = &lod->faces[f];
        if (face->count != 3 && face->count != 4) {
            snprintf(path, sizeof path, "lods[%u]/faces[%u]", (unsigned)l, (unsigned)f);
            fy_error_set(b->err, FERRY_ERR_MALFORMED, FERRY_NO_OFFSET, path, "has %u corners, expected 3 or 4",
                         (unsigned)face->count);
            return false;
        }
        for (uint8_t k = 0; k < face->count; k++)
            if (face->vertices[k] >= n) {
                snprintf(path, sizeof path, "lods[%u]/faces[%u]", (unsigned)l, (unsigned)f);
                fy_error_set(b->err, FERRY_ERR_MALFORMED, FERRY_NO_OFFSET, path,
                             "corner %u is vertex %u, but the LOD has %u vertices", (unsigned)k,
                             (unsigned)face->vertices[k], (unsigned)n);
                return false;
            }
    }
    /* One normal for every vertex (shadow volumes, geometry, roadways)
     * is a placeholder, not a shape: viewers do better computing their own. */
    la->normals_ok = n > 0 && lod->normals.array.count == n && !lod->normals.default_fill && lod->normals.array.data;
    /* A LOD players see (visual, or a view from inside: resolutions below
     * 10000) without usable stored normals gets them all from its faces,
     * so that it is not drawn flat. No corpus file needs it. */
    la->normals_computed = !la->normals_ok && n > 0 && lod->resolution >= 0.0f && lod->resolution < 10000.0f;
    la->uv_sets = 0;
    for (uint32_t s = 0; lod->uv_sets && s < lod->uv_set_count && s < 2; s++) {
        const ferry_odol_condensed *c = &lod->uv_sets[s];
        if (c->array.count != n || (!c->default_fill && !c->array.data)) break;
        la->uv_sets++;
    }
    return true;
}

/* ---- LOD node extras ---- */

static ferry_json *lod_json(ferry_arena *ja, const ferry_odol_model *m, const ferry_odol_lod *lod, uint32_t l)
{
    ferry_json *o = fy_jobject(ja);
    fy_jset(ja, o, "lod", fy_jinteger(ja, l));
    fy_jset(ja, o, "resolution", fy_jreal_or_null(ja, lod->resolution));
    ferry_json *props = fy_jarray(ja);
    for (uint32_t i = 0; lod->properties && i < lod->property_count; i++)
        {
            ferry_json *pair = fy_jarray(ja);
            /* a pair with a string that is not UTF-8 is left out */
            ferry_json *name = fy_jstring(ja, str(lod->properties[i].name)), *value = fy_jstring(ja, str(lod->properties[i].value));
            if (name && value) fy_jpush(ja, pair, name), fy_jpush(ja, pair, value), fy_jpush(ja, props, pair);
        }
    fy_jset(ja, o, "properties", props);
    ferry_json *sels = fy_jarray(ja);
    for (uint32_t i = 0; lod->selections && i < lod->selection_count; i++) {
        const ferry_odol_selection *s = &lod->selections[i];
        ferry_json *so = fy_jobject(ja);
        fy_jset(ja, so, "name", fy_jstring(ja, str(s->name)));
        fy_jset(ja, so, "faces", u16_list(ja, &s->faces));
        fy_jset(ja, so, "vertices", u16_list(ja, &s->vertices));
        if (s->weights.count) fy_jset(ja, so, "weights", u8_list(ja, &s->weights));
        fy_jset(ja, so, "sectional", fy_jbool(ja, s->is_sectional));
        if (s->sections.count) fy_jset(ja, so, "sections", i32_list(ja, &s->sections));
        fy_jpush(ja, sels, so);
    }
    fy_jset(ja, o, "selections", sels);
    ferry_json *tex = fy_jarray(ja);
    for (uint32_t i = 0; lod->textures && i < lod->texture_count; i++) fy_jpush(ja, tex, fy_jstring(ja, str(lod->textures[i])));
    fy_jset(ja, o, "textures", tex);
    fy_jset(ja, o, "vertex_count", fy_jinteger(ja, lod->positions.count));
    fy_jset(ja, o, "face_count", fy_jinteger(ja, lod->face_count));
    if (lod->keyframe_count) fy_jset(ja, o, "keyframe_count", fy_jinteger(ja, lod->keyframe_count));
    /* Which skeleton bone each animation moves in this LOD. */
    const ferry_odol_animations *an = &m->animations;
    if (an->present && an->anims_to_bones && l < an->lod_count && an->class_count) {
        ferry_json *ab = fy_jarray(ja);
        const ferry_odol_skeleton *sk = &m->info.skeleton;
        for (uint32_t k = 0; k < an->class_count; k++) {
            const ferry_odol_anim_bone *e = &an->anims_to_bones[(size_t)l * an->class_count + k];
            if (e->bone < 0) continue;
            ferry_json *eo = fy_jobject(ja);
            fy_jset(ja, eo, "animation", fy_jstring(ja, an->classes ? str(an->classes[k].name) : ""));
            fy_jset(ja, eo, "bone", fy_jinteger(ja, e->bone));
            if (sk->bones && (uint32_t)e->bone < sk->bone_count)
                fy_jset(ja, eo, "bone_name", fy_jstring(ja, str(sk->bones[e->bone].name)));
            uint32_t type = an->classes ? an->classes[k].type : 0;
            if (type != FERRY_ODOL_ANIM_DIRECT && type != FERRY_ODOL_ANIM_HIDE) {
                fy_jset(ja, eo, "axis_pos", fy_jfloats(ja, e->axis_pos, 3));
                fy_jset(ja, eo, "axis_dir", fy_jfloats(ja, e->axis_dir, 3));
            }
            fy_jpush(ja, ab, eo);
        }
        fy_jset(ja, o, "animation_bones", ab);
    }
    return o;
}

/* ---- proxies ---- */

/* The proxy's place: its stored triplets are the model-space directions of
 * its x, y and z axes (aside, up, dir; checked against the proxy triangles
 * in the corpus), then its origin. Under the z mirror M becomes S M S. */
static bool add_proxy(build *b, const ferry_odol_lod *lod, uint32_t lod_index, uint32_t proxy_index, int32_t parent)
{
    ferry_arena *ja = b->arena;
    const ferry_odol_proxy *px = &lod->proxies[proxy_index];
    ferry_scene_node *node = &b->s->nodes[b->s->node_count];
    ferry_scene_node_init(node);
    FY_SET_REF(node, parent, parent);
    node->name = ferry_arena_strdup(b->arena, str(px->model));
    const float *sign = axis_sign;
    float mat[16];
    fy_mat4_identity(mat);
    for (int c = 0; c < 3; c++)
        for (int r = 0; r < 3; r++) mat[c * 4 + r] = sign[r] * sign[c] * px->transform[c * 3 + r];
    for (int r = 0; r < 3; r++) mat[12 + r] = sign[r] * px->transform[9 + r];
    for (int k = 0; k < 12; k++)
        if (!isfinite(px->transform[k])) {
            char path[96];
            snprintf(path, sizeof path, "lods[%u]/proxies[%u]", (unsigned)lod_index, (unsigned)proxy_index);
            return fail(b, FERRY_ERR_MALFORMED, path, "the proxy's matrix holds a value that is not a finite number");
        }
    bool clean = fy_mat4_to_trs(mat, node->translation, node->rotation, node->scale, FY_TRS_SHEAR_TOLERANCE);
    bool mirrored = clean && node->scale[2] < 0;
    ferry_json *x = fy_jobject(ja);
    fy_jset(ja, x, "proxy", fy_jstring(ja, str(px->model)));
    fy_jset(ja, x, "sequence_id", fy_jinteger(ja, px->sequence_id));
    fy_jset(ja, x, "selection_index", fy_jinteger(ja, px->selection_index));
    if (lod->selections && px->selection_index >= 0 && (uint32_t)px->selection_index < lod->selection_count)
        fy_jset(ja, x, "selection", fy_jstring(ja, str(lod->selections[px->selection_index].name)));
    fy_jset(ja, x, "bone_index", fy_jinteger(ja, px->bone_index));
    fy_jset(ja, x, "section_index", fy_jinteger(ja, px->section_index));
    if (!clean || mirrored) {
        /* glTF's TRS cannot hold shear (or, portably, a mirror): the node
         * gets the closest TRS, the stored matrix stays here. */
        fy_jset(ja, x, "matrix", fy_jfloats(ja, px->transform, 12));
        fy_jset(ja, x, "matrix_note", fy_jstring(ja, mirrored ? "mirrors: negative z scale"
                                                                   : "shear or a collapsed axis: closest TRS"));
    }
    node->extras = x;
    if (!node->name || !node->extras) return fail(b, FERRY_ERR_NOMEM, "", "out of memory building a proxy");
    b->s->node_count++;
    b->rep.proxies++;
    return true;
}

/* ---- LODs ---- */

/* Which sections hold proxy triangles, the editor's markers that the
 * game replaces by the proxy's model: a section a proxy names, flagged
 * 0x10000000 or holding no more faces than the proxies naming it (every
 * such section of the real files is both: one triangle per proxy, no
 * texture). They are not drawn; the proxies are nodes. */
#define PROXY_SECTION_FLAG 0x10000000u
static void mark_proxy_sections(build *b, const ferry_odol_lod *lod, const uint32_t *count)
{
    uint32_t sections = lod->sections ? lod->section_count : 0;
    memset(b->skip_section, 0, (size_t)sections + 1);
    memset(b->naming, 0, ((size_t)sections + 1) * sizeof *b->naming);
    for (uint32_t k = 0; lod->proxies && k < lod->proxy_count; k++) {
        int32_t s = lod->proxies[k].section_index;
        if (s >= 0 && (uint32_t)s < sections) b->naming[s]++;
    }
    for (uint32_t s = 0; s < sections; s++) {
        if (!b->naming[s]) continue;
        uint32_t faces = count[s + 1] - count[s];
        if ((lod->sections[s].special & PROXY_SECTION_FLAG) || faces <= b->naming[s]) b->skip_section[s] = 1;
    }
}

static bool add_lod(build *b, uint32_t l, const char *name, int32_t root)
{
    ferry_arena *ja = b->arena;
    const ferry_odol_lod *lod = &b->m->lods[l];
    lod_arrays la;
    if (!check_lod(b, lod, l, &la)) return false;

    int32_t node_index = (int32_t)b->s->node_count;
    ferry_scene_node *node = &b->s->nodes[b->s->node_count++];
    ferry_scene_node_init(node);
    FY_SET_REF(node, parent, root);
    node->name = ferry_arena_strdup(b->arena, name);
    if (!node->name) return fail(b, FERRY_ERR_NOMEM, "", "out of memory building a LOD");
    b->rep.lods++;
    b->face_normals_ready = false;

    ferry_scene_mesh *mesh = &b->s->meshes[b->s->mesh_count];
    memset(mesh, 0, sizeof *mesh);
    ferry_json *proxy_sections = fy_jarray(ja);
    uint32_t drawn_faces = 0;
    if (lod->face_count) {
        uint32_t sections = lod->sections ? lod->section_count : 0;
        assign_sections(b, lod);
        /* Counting sort of faces by section; the default bucket is last. */
        uint32_t *count = b->bucket_start;
        memset(count, 0, ((size_t)sections + 2) * sizeof *count);
        for (uint32_t f = 0; f < lod->face_count; f++) {
            uint32_t s = b->face_section[f] == NO_SECTION ? sections : b->face_section[f];
            count[s + 1]++;
        }
        for (uint32_t s = 0; s <= sections; s++) count[s + 1] += count[s];
        /* bucket was scratch for face starts in assign_sections; refill. */
        uint32_t *fill = malloc(((size_t)sections + 1) * sizeof *fill);
        if (!fill) return fail(b, FERRY_ERR_NOMEM, "", "out of memory sorting faces");
        memcpy(fill, count, ((size_t)sections + 1) * sizeof *fill);
        for (uint32_t f = 0; f < lod->face_count; f++) {
            uint32_t s = b->face_section[f] == NO_SECTION ? sections : b->face_section[f];
            b->bucket[fill[s]++] = f;
        }
        free(fill);
        mark_proxy_sections(b, lod, count);
        size_t used = 0;
        for (uint32_t s = 0; s <= sections; s++) {
            if (count[s + 1] == count[s]) continue;
            if (s < sections && b->skip_section[s]) {
                fy_jpush(ja, proxy_sections, fy_jinteger(ja, s));
                b->rep.proxy_triangles += count[s + 1] - count[s];
                continue;
            }
            used++;
            drawn_faces += count[s + 1] - count[s];
        }
        if (used) {
            mesh->primitives = alloc(b, used, sizeof *mesh->primitives);
            if (!mesh->primitives) return false;
        }
        for (uint32_t s = 0; s <= sections && used; s++) {
            uint32_t begin = count[s], end = count[s + 1];
            if (begin == end || (s < sections && b->skip_section[s])) continue;
            ferry_scene_primitive *p = &mesh->primitives[mesh->primitive_count++];
            if (!make_primitive(b, lod, l, &la, b->bucket + begin, end - begin, p)) return false;
            if (!fy_odol_anim_skin_primitive(b->anim, l, b->bucket + begin, end - begin, b->remap, p)) return false;
            ferry_json *px = fy_jobject(ja);
            if (s < sections) {
                int32_t material;
                if (!section_material(b, lod, &lod->sections[s], &material)) return false;
                FY_SET_REF(p, material, material);
                fy_jset(ja, px, "section", fy_jinteger(ja, s));
                fy_jset(ja, px, "special", fy_jinteger(ja, lod->sections[s].special));
                /* A section a proxy names that also holds other faces is
                 * drawn, marked so that a viewer or script can hide it. */
                if (b->naming[s]) fy_jset(ja, px, "proxy_triangles", fy_jbool(ja, true));
            } else {
                FY_SET_REF(p, material, -1);
                fy_jset(ja, px, "section", fy_jnull(ja));
            }
            fy_jset(ja, px, "faces", fy_jinteger(ja, end - begin));
            p->extras = px;
            if (!p->extras) return fail(b, FERRY_ERR_NOMEM, "", "out of memory building a LOD");
        }
    }
    /* A LOD without drawn faces (memory points, land contacts, or one whose
     * only faces are proxy triangles) shows its vertices as points. */
    if (!drawn_faces && lod->positions.count) {
        mesh->primitives = alloc(b, 1, sizeof *mesh->primitives);
        if (!mesh->primitives) return false;
        mesh->primitive_count = 1;
        if (!make_points(b, lod, l, &mesh->primitives[0])) return false;
    }
    ferry_json *lx = lod_json(ja, b->m, lod, l);
    if (fy_jcount(proxy_sections)) fy_jset(ja, lx, "proxy_sections", proxy_sections);
    node->extras = lx;
    if (!node->extras) return fail(b, FERRY_ERR_NOMEM, "", "out of memory building a LOD");
    if (mesh->primitive_count) {
        mesh->name = node->name;
        FY_SET_REF(node, mesh, (int64_t)b->s->mesh_count++);
    }
    if (!fy_odol_anim_add_skeleton(b->anim, l, node_index)) return false;
    /* A proxy on a bone hangs from its joint, to move with it. */
    for (uint32_t i = 0; lod->proxies && i < lod->proxy_count; i++) {
        float pivot[3];
        int32_t parent = fy_odol_anim_proxy_parent(b->anim, l, lod->proxies[i].bone_index, node_index, pivot);
        if (!add_proxy(b, lod, l, i, parent)) return false;
        for (int c = 0; c < 3; c++) b->s->nodes[b->s->node_count - 1].translation[c] -= pivot[c];
    }
    return true;
}

/* ---- the whole model ---- */

static bool convert(build *b, const uint32_t *lods, size_t lod_count)
{
    ferry_arena *ja = b->arena;
    const ferry_odol_model *m = b->m;
    size_t nodes = 1, sections = 0;
    uint32_t max_faces = 0, max_sections = 0, max_vertices = 0;
    for (size_t i = 0; i < lod_count; i++) {
        const ferry_odol_lod *lod = &m->lods[lods[i]];
        if (lod->positions.count > max_vertices) max_vertices = lod->positions.count;
        nodes += 1 + (lod->proxies ? lod->proxy_count : 0);
        uint32_t sc = lod->sections ? lod->section_count : 0;
        sections += sc;
        if (lod->face_count > max_faces) max_faces = lod->face_count;
        if (sc > max_sections) max_sections = sc;
    }
    ferry_scene *s = b->s;
    b->anim = fy_odol_anim_new(m, s, lods, lod_count, b->animations, &nodes, b->err);
    if (!b->anim) return false;
    s->nodes = alloc(b, nodes, sizeof *s->nodes);
    s->meshes = alloc(b, lod_count, sizeof *s->meshes);
    s->materials = alloc(b, sections, sizeof *s->materials);
    b->mats = alloc(b, sections, sizeof *b->mats);
    if (!s->nodes || !s->meshes || !s->materials || !b->mats) return false;
    b->mat_cap = sections;
    b->face_section = malloc(((size_t)max_faces + 1) * sizeof *b->face_section);
    b->next_free = malloc(((size_t)max_faces + 1) * sizeof *b->next_free);
    b->bucket = malloc(((size_t)max_faces + 1) * sizeof *b->bucket);
    b->bucket_start = malloc(((size_t)max_sections + 2) * sizeof *b->bucket_start);
    b->remap = malloc(65536 * sizeof *b->remap);
    b->stamp = calloc(65536, sizeof *b->stamp);
    b->skip_section = calloc((size_t)max_sections + 1, 1);
    b->naming = calloc((size_t)max_sections + 1, sizeof *b->naming);
    b->face_normals = malloc(((size_t)max_vertices + 1) * 3 * sizeof *b->face_normals);
    if (!b->face_section || !b->next_free || !b->bucket || !b->bucket_start || !b->remap || !b->stamp ||
        !b->skip_section || !b->naming || !b->face_normals)
        return fail(b, FERRY_ERR_NOMEM, "", "out of memory building the scene");

    if (!fy_odol_textures_prepare(&b->tex, m, lods, lod_count, b->err)) return false;

    ferry_scene_node *root = &s->nodes[s->node_count++];
    ferry_scene_node_init(root);
    root->name = s->name;
    root->extras = model_json(ja, m);
    if (!root->extras) return fail(b, FERRY_ERR_NOMEM, "", "out of memory building the scene");

    bool ok = true;
    for (size_t i = 0; i < lod_count && ok; i++) {
        char base[64], name[80];
        ferry_odol_resolution_name(m->lods[lods[i]].resolution, base, sizeof base);
        unsigned same = 1;
        for (size_t k = 0; k < i; k++) {
            char other[64];
            ferry_odol_resolution_name(m->lods[lods[k]].resolution, other, sizeof other);
            same += strcmp(other, base) == 0;
        }
        if (same > 1)
            snprintf(name, sizeof name, "%s (%u)", base, same);
        else
            snprintf(name, sizeof name, "%s", base);
        ok = add_lod(b, lods[i], name, 0);
    }
    return ok && fy_odol_anim_finish(b->anim, &b->rep);
}

/* The LOD the game draws up close: among the visual LODs (resolutions 0 to
 * 1000, ferry_odol_resolution_name's numbers; 1000 and above are views,
 * shadows and geometries), the lowest resolution is the most detailed
 * (the engine switches to higher ones with distance). The first of equal
 * ones; -1 when there is none. */
static int32_t most_detailed_visual(const ferry_odol_model *m)
{
    int32_t best = -1;
    for (uint32_t l = 0; l < m->lod_count; l++) {
        float r = m->lods[l].resolution;
        if (!(r >= 0.0f && r < 1000.0f)) continue;
        if (best < 0 || r < m->lods[best].resolution) best = (int32_t)l;
    }
    return best;
}

ferry_result ferry_odol_to_scene(const ferry_odol_model *model, const ferry_odol_scene_options *options,
                                 ferry_scene **out, ferry_error *err)
{
    ferry_error local_err;
    if (!fy_convert_begin(&err, &local_err, out, model, "model")) return err->code;
    ferry_odol_scene_options no_options;
    options = FY_OPTIONS_OR_DEFAULTS(options, no_options);
    if (model->lod_count && !model->lods) {
        fy_error_set(err, FERRY_ERR_ARGUMENT, FERRY_NO_OFFSET, "lods", "the model has %u LODs but no LOD array",
                     (unsigned)model->lod_count);
        return FERRY_ERR_ARGUMENT;
    }
    /* The LODs to convert, in the model's order, each once. */
    uint32_t *chosen = malloc((model->lod_count ? model->lod_count : 1) * sizeof *chosen);
    if (!chosen) {
        fy_error_set(err, FERRY_ERR_NOMEM, FERRY_NO_OFFSET, "", "out of memory");
        return FERRY_ERR_NOMEM;
    }
    size_t chosen_count = 0;
    int32_t visual = -1;
    if (options->lods) {
        uint8_t *want = calloc(model->lod_count ? model->lod_count : 1, 1);
        if (!want) {
            free(chosen);
            fy_error_set(err, FERRY_ERR_NOMEM, FERRY_NO_OFFSET, "", "out of memory");
            return FERRY_ERR_NOMEM;
        }
        for (size_t i = 0; i < options->lod_count; i++) {
            if (options->lods[i] >= model->lod_count) {
                fy_error_set(err, FERRY_ERR_ARGUMENT, FERRY_NO_OFFSET, "", "LOD %u does not exist: the model has %u (0 to %d)",
                             (unsigned)options->lods[i], (unsigned)model->lod_count, (int)model->lod_count - 1);
                free(want);
                free(chosen);
                return FERRY_ERR_ARGUMENT;
            }
            want[options->lods[i]] = 1;
        }
        for (uint32_t l = 0; l < model->lod_count; l++)
            if (want[l]) chosen[chosen_count++] = l;
        free(want);
    } else if (!options->all && (visual = most_detailed_visual(model)) >= 0) {
        /* The default: the game's view. */
        chosen[chosen_count++] = (uint32_t)visual;
    } else {
        for (uint32_t l = 0; l < model->lod_count; l++) chosen[chosen_count++] = l;
    }

    build b;
    memset(&b, 0, sizeof b);
    b.m = model;
    b.err = err;
    b.animations = !options->no_animations;
    ferry_scene *s = fy_scene_new(err);
    if (!s) {
        free(chosen);
        return FERRY_ERR_NOMEM;
    }
    b.arena = s->arena;
    ferry_arena *ja = b.arena;
    s->name = ferry_arena_strdup(b.arena, options->name ? options->name : "odol");
    ferry_json *sx = fy_jobject(ja);
    fy_jset(ja, sx, "format", fy_jstring(ja, "ODOL"));
    fy_jset(ja, sx, "version", fy_jinteger(ja, (int64_t)model->version));
    s->extras = sx;
    b.s = s;
    b.tex.opts = options;
    b.tex.scene = s;
    b.tex.arena = s->arena;
    bool ok = s->name && s->extras && convert(&b, chosen, chosen_count);
    free(chosen);
    free(b.face_section);
    free(b.next_free);
    free(b.bucket);
    free(b.bucket_start);
    free(b.remap);
    free(b.stamp);
    free(b.skip_section);
    free(b.naming);
    free(b.face_normals);
    fy_odol_anim_free(b.anim);
    if (ok) {
        /* Names the drawn sections used (a section without faces makes no
         * primitive), each once even when wanted both ways. */
        for (size_t i = 0; i < b.tex.count; i++) {
            const fy_odol_texture *t = &b.tex.items[i];
            bool first = t->tried;
            for (size_t k = 0; first && k < i; k++)
                first = !(b.tex.items[k].tried && strcasecmp(b.tex.items[k].name, t->name) == 0);
            b.rep.textures += first;
            b.rep.textures_found += first && t->found.source;
        }
        b.rep.images = (uint32_t)s->image_count;
        b.rep.rvmats = (uint32_t)b.tex.rvmat_count;
        for (size_t i = 0; i < b.tex.rvmat_count; i++) b.rep.rvmats_read += b.tex.rvmats[i].config != NULL;
        b.rep.missing_textures = b.tex.missing;
        b.rep.missing_texture_count = b.tex.missing_count;
    }
    fy_odol_textures_free(&b.tex);
    if (ok) {
        b.rep.visual_lod = visual;
        if (options->report) *options->report = b.rep;
    }
    return fy_convert_end(s, ok, out, err);
}
