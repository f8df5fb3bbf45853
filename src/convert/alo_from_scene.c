/* Scene -> ALO model: the inverse of alo_scene*.c. Nodes become bones
 * (ferry's own axis root recognised and removed, other glTF turned from
 * Y-up to Alamo's Z-up), meshes become 0x400 meshes with one sub-mesh per
 * primitive (split at 65,535 vertices and 24 palette bones), materials keep
 * the shader and parameters ferry's export put in extras or get a mapped
 * shader, lights, proxies and dazzles come back from their nodes.
 * docs/formats/gltf-import.md has every decision. */
#include "convert_internal.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define MAX_SUBMESH_VERTICES 65535u

/* ---- double 4x4 column-major helpers ---- */

static void d_identity(double m[16])
{
    memset(m, 0, 16 * sizeof *m);
    m[0] = m[5] = m[10] = m[15] = 1;
}

static void d_mul(const double a[16], const double b[16], double out[16])
{
    double r[16];
    for (int c = 0; c < 4; c++)
        for (int rr = 0; rr < 4; rr++) {
            double s = 0;
            for (int k = 0; k < 4; k++) s += a[k * 4 + rr] * b[c * 4 + k];
            r[c * 4 + rr] = s;
        }
    memcpy(out, r, sizeof r);
}

/* Inverse of an affine matrix (last row 0 0 0 1); false when singular. */
static bool d_invert_affine(const double m[16], double out[16])
{
    double a = m[0], b = m[4], c = m[8], d = m[1], e = m[5], f = m[9], g = m[2], h = m[6], i = m[10];
    double A = e * i - f * h, B = -(d * i - f * g), C = d * h - e * g;
    double det = a * A + b * B + c * C;
    if (!(fabs(det) > 1e-30) || !isfinite(det)) return false;
    double inv[9] = {A / det, -(b * i - c * h) / det, (b * f - c * e) / det,
                     B / det, (a * i - c * g) / det, -(a * f - c * d) / det,
                     C / det, -(a * h - b * g) / det, (a * e - b * d) / det};
    /* inv is row-major 3x3 */
    double r[16];
    d_identity(r);
    for (int rr = 0; rr < 3; rr++)
        for (int cc = 0; cc < 3; cc++) r[cc * 4 + rr] = inv[rr * 3 + cc];
    for (int rr = 0; rr < 3; rr++) r[12 + rr] = -(r[rr] * m[12] + r[4 + rr] * m[13] + r[8 + rr] * m[14]);
    memcpy(out, r, sizeof r);
    return true;
}

static void d_from_trs(const ferry_scene_node *n, double out[16])
{
    float m[16];
    fy_mat4_from_trs(n->translation, n->rotation, n->scale, m);
    for (int k = 0; k < 16; k++) out[k] = m[k];
}

static bool d_is_identity(const double m[16], double tol_linear, double tol_translation)
{
    for (int c = 0; c < 3; c++)
        for (int r = 0; r < 3; r++)
            if (fabs(m[c * 4 + r] - (r == c ? 1.0 : 0.0)) > tol_linear) return false;
    for (int r = 0; r < 3; r++)
        if (fabs(m[12 + r]) > tol_translation) return false;
    return true;
}

static void d_point(const double m[16], const float p[3], double out[3])
{
    for (int r = 0; r < 3; r++) out[r] = m[r] * p[0] + m[4 + r] * p[1] + m[8 + r] * p[2] + m[12 + r];
}

static void d_vector(const double m[16], const float v[3], double out[3])
{
    for (int r = 0; r < 3; r++) out[r] = m[r] * v[0] + m[4 + r] * v[1] + m[8 + r] * v[2];
}

/* The matrix normals go through: the inverse transpose of the linear part. */
static void d_normal_matrix(const double m[16], double out[16])
{
    double inv[16];
    if (!d_invert_affine(m, inv)) {
        memcpy(out, m, 16 * sizeof *out);
        return;
    }
    d_identity(out);
    for (int c = 0; c < 3; c++)
        for (int r = 0; r < 3; r++) out[c * 4 + r] = inv[r * 4 + c];
}

static void normalize3(float v[3], const float fallback[3])
{
    double len = sqrt((double)v[0] * v[0] + (double)v[1] * v[1] + (double)v[2] * v[2]);
    if (len > 1e-20 && isfinite(len)) {
        for (int k = 0; k < 3; k++) v[k] = (float)(v[k] / len);
    } else {
        memcpy(v, fallback, 3 * sizeof *v);
    }
}

/* ---- the build ---- */

/* What a mesh is for, when its materials are mapped (not from ferry's extras). */
enum { MESH_DRAWN = 0, MESH_SHADOW = 1, MESH_COLLISION = 2 };

typedef struct mat_cache {
    bool made[6]; /* (rigid, skinned) x (drawn, shadow volume, collision) */
    ferry_alo_material m[6];
} mat_cache;

typedef struct build {
    const ferry_scene *s;
    const ferry_alo_from_scene_options *opts;
    ferry_alo_from_scene_report *rep;
    ferry_error *err;
    ferry_arena *arena;
    ferry_alo_model *model;
    bool ferry_export;
    int32_t axis_root;
    double C[16];        /* glTF world -> Alamo model space */
    double *aw;          /* Alamo-space world matrix per node */
    int32_t *node_bone;  /* bone of a node that is one, else -1 */
    int32_t *bone_of;    /* the bone a node hangs on: itself or its nearest bone ancestor; -1: none */
    size_t bone_cap, mesh_cap, light_cap, proxy_cap, dazzle_cap, object_cap;
    mat_cache *mats;
    ferry_alo_texture_ref *textures; /* texture_cap = 2 per scene material */
    size_t texture_count, texture_cap;
} build;

static const char *jstr(const ferry_json *obj, const char *key)
{
    const ferry_json *v = ferry_json_get(obj, key);
    if (!v || v->kind != FERRY_JSON_STRING) return NULL;
    return v->string;
}

/* A JSON string as a NUL-terminated arena copy (strings carry a length). */
static char *jstr_dup(build *b, const ferry_json *obj, const char *key)
{
    const ferry_json *v = ferry_json_get(obj, key);
    if (!v || v->kind != FERRY_JSON_STRING) return NULL;
    char *out = ferry_arena_alloc(b->arena, v->length + 1);
    if (out) memcpy(out, v->string, v->length);
    return out;
}

static bool jstr_is(const ferry_json *obj, const char *key, const char *want)
{
    const ferry_json *v = ferry_json_get(obj, key);
    return v && v->kind == FERRY_JSON_STRING && v->length == strlen(want) && memcmp(v->string, want, v->length) == 0;
}

static bool jbool(const ferry_json *obj, const char *key, bool dflt)
{
    const ferry_json *v = ferry_json_get(obj, key);
    if (!v) return dflt;
    if (v->kind == FERRY_JSON_BOOL) return v->boolean;
    if (v->kind == FERRY_JSON_INTEGER) return v->integer != 0;
    return dflt;
}

static bool jnum(const ferry_json *obj, const char *key, double *out)
{
    const ferry_json *v = ferry_json_get(obj, key);
    if (!v) return false;
    if (v->kind == FERRY_JSON_REAL) *out = v->real;
    else if (v->kind == FERRY_JSON_INTEGER) *out = (double)v->integer;
    else if (v->kind == FERRY_JSON_NULL) *out = NAN;
    else return false;
    return true;
}

static size_t jfloats(const ferry_json *obj, const char *key, float *out, size_t max)
{
    const ferry_json *v = ferry_json_get(obj, key);
    if (!v || v->kind != FERRY_JSON_ARRAY) return 0;
    size_t n = v->count < max ? v->count : max;
    for (size_t i = 0; i < n; i++) {
        const ferry_json *it = v->items[i];
        out[i] = it->kind == FERRY_JSON_REAL ? (float)it->real : it->kind == FERRY_JSON_INTEGER ? (float)it->integer : NAN;
    }
    return n;
}

static void warn(build *b, const char *path, const char *rule, const char *fmt, ...) FY_PRINTF(4, 5);
static void warn(build *b, const char *path, const char *rule, const char *fmt, ...)
{
    if (b->rep) b->rep->warnings++;
    if (!b->opts->diagnostics) return;
    char msg[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    fy_diag_add(b->opts->diagnostics, FERRY_SEVERITY_WARNING, FERRY_NO_OFFSET, path, rule, "%s", msg);
}

static bool nomem(build *b)
{
    fy_error_set(b->err, FERRY_ERR_NOMEM, FERRY_NO_OFFSET, "", "out of memory building the ALO model");
    return false;
}

static void *alloc(build *b, size_t count, size_t size)
{
    if (count == 0) count = 1;
    if (size && count > SIZE_MAX / size) return NULL;
    return ferry_arena_alloc(b->arena, count * size);
}

static bool kind_is(const build *b, size_t i, const char *k)
{
    return jstr_is(b->s->nodes[i].extras, "alamo", k);
}

/* Whether node i becomes a bone (see gltf-import.md, "Nodes"). */
static bool is_bone_node(const build *b, size_t i)
{
    const ferry_scene_node *n = &b->s->nodes[i];
    if ((int32_t)i == b->axis_root) return false;
    bool proxy = !n->has_mesh && (kind_is(b, i, "proxy") || (!kind_is(b, i, "dazzle") && ferry_json_get(n->extras, "proxy")));
    if (proxy || (kind_is(b, i, "light") && !n->has_mesh)) {
        /* Proxies and lights sit at their bone: one moved away from it (a
         * tool re-orienting bones, as Blender's importer does, leaves the
         * children a compensating offset) gets a bone of its own. */
        double loc[16];
        d_from_trs(n, loc);
        return !d_is_identity(loc, 1e-4, 1e-3);
    }
    if (kind_is(b, i, "mesh") || kind_is(b, i, "dazzle")) return false;
    if (n->has_skin && n->has_mesh) return false; /* glTF ignores a skinned mesh node's transform */
    return true;
}

static const char *const billboard_names[] = {"none", "parallel", "face", "z_view", "z_wind", "z_light", "sun_glow", "sun"};

static bool make_skeleton(build *b)
{
    const ferry_scene *s = b->s;
    ferry_alo_skeleton *sk = &b->model->skeleton;
    size_t n = s->node_count;
    b->aw = alloc(b, n, 16 * sizeof *b->aw);
    b->node_bone = alloc(b, n, sizeof *b->node_bone);
    b->bone_of = alloc(b, n, sizeof *b->bone_of);
    b->bone_cap = n + 1;
    sk->bones = alloc(b, b->bone_cap, sizeof *sk->bones);
    if (!b->aw || !b->node_bone || !b->bone_of || !sk->bones) return nomem(b);

    /* Alamo-space world of every node. The axis root's own world times C is
     * the identity up to rounding: snapped, so that its children's local
     * matrices are their TRS exactly. */
    for (size_t i = 0; i < n; i++) {
        const ferry_scene_node *nd = &s->nodes[i];
        if (nd->has_parent && nd->parent >= i) {
            fy_error_set(b->err, FERRY_ERR_ARGUMENT, FERRY_NO_OFFSET, "", "nodes[%zu]: parent %u does not come before it", i,
                         (unsigned)nd->parent);
            return false;
        }
        double local[16];
        d_from_trs(nd, local);
        for (int k = 0; k < 16; k++)
            if (!isfinite(local[k])) {
                fy_error_set(b->err, FERRY_ERR_MALFORMED, FERRY_NO_OFFSET, "", "nodes[%zu] (%s): transform is not finite", i,
                             nd->name ? nd->name : "");
                return false;
            }
        double *w = &b->aw[16 * i];
        if (!nd->has_parent) {
            d_mul(b->C, local, w);
            if ((int32_t)i == b->axis_root) d_identity(w);
        } else {
            d_mul(&b->aw[16 * (size_t)nd->parent], local, w);
        }
    }

    /* Other tools' glTF: a Root bone (identity) under which the scene's
     * roots hang, turned Z-up. ferry's export has its own bones. */
    if (!b->ferry_export) {
        ferry_alo_bone *root = &sk->bones[sk->bone_count++];
        root->name = "Root";
        root->parent = -1;
        root->visible = 1;
        root->matrix[0] = root->matrix[5] = root->matrix[10] = 1;
    }
    char fallback_name[48];
    for (size_t i = 0; i < n; i++) {
        const ferry_scene_node *nd = &s->nodes[i];
        /* Parents come before their children (checked above). */
        int32_t parent = (int32_t)FY_REF(nd, parent);
        int32_t parent_bone = parent >= 0 ? b->bone_of[parent] : (b->ferry_export ? -1 : 0);
        b->node_bone[i] = -1;
        b->bone_of[i] = parent_bone;
        if (!is_bone_node(b, i)) continue;
        int32_t bi = (int32_t)sk->bone_count++;
        ferry_alo_bone *bone = &sk->bones[bi];
        b->node_bone[i] = bi;
        b->bone_of[i] = bi;
        if (nd->name && *nd->name) {
            bone->name = ferry_arena_strdup(b->arena, nd->name);
        } else {
            snprintf(fallback_name, sizeof fallback_name, "bone_%zu", i);
            bone->name = ferry_arena_strdup(b->arena, fallback_name);
        }
        if (!bone->name) return nomem(b);
        bone->parent = parent_bone;
        bone->visible = jbool(nd->extras, "visible", true) ? 1 : 0;
        const ferry_json *bb = ferry_json_get(nd->extras, "billboard");
        if (bb && bb->kind == FERRY_JSON_INTEGER) bone->billboard = (uint32_t)bb->integer;
        else if (bb && bb->kind == FERRY_JSON_STRING)
            for (uint32_t k = 0; k < 8; k++)
                if (bb->length == strlen(billboard_names[k]) && memcmp(bb->string, billboard_names[k], bb->length) == 0)
                    bone->billboard = k;
        /* Local matrix: the node's own TRS when its parent node is the
         * parent bone (or the axis root), else from the Alamo worlds. */
        double local[16];
        bool direct = parent >= 0 && (b->node_bone[parent] == parent_bone || parent == b->axis_root);
        float stored[12];
        if ((direct || parent < 0) && jfloats(nd->extras, "matrix", stored, 12) == 12 && b->ferry_export) {
            memcpy(bone->matrix, stored, sizeof stored);
            continue;
        }
        if (direct) {
            d_from_trs(nd, local);
        } else if (parent_bone < 0 || parent < 0) {
            memcpy(local, &b->aw[16 * i], sizeof local);
        } else {
            /* parent bone's node: find it */
            int32_t pn = parent;
            while (pn >= 0 && b->node_bone[pn] != parent_bone) pn = (int32_t)FY_REF(&s->nodes[pn], parent);
            double inv[16];
            if (pn < 0 || !d_invert_affine(&b->aw[16 * pn], inv)) {
                memcpy(local, &b->aw[16 * i], sizeof local);
            } else {
                d_mul(inv, &b->aw[16 * i], local);
            }
        }
        for (int r = 0; r < 3; r++)
            for (int c = 0; c < 4; c++) bone->matrix[r * 4 + c] = (float)local[c * 4 + r];
    }
    if (b->rep) b->rep->bones = sk->bone_count;
    return true;
}

/* ---- materials ---- */

static bool param_from_json(build *b, ferry_alo_shader_param *p, const char *name, const ferry_json *v, const char *path)
{
    p->name = ferry_arena_strdup(b->arena, name);
    if (!p->name) return nomem(b);
    switch (v->kind) {
    case FERRY_JSON_INTEGER:
    case FERRY_JSON_BOOL:
        p->type = FERRY_ALO_PARAM_INT;
        p->int_value = v->kind == FERRY_JSON_BOOL ? v->boolean : (int32_t)v->integer;
        return true;
    case FERRY_JSON_REAL:
    case FERRY_JSON_NULL:
        p->type = FERRY_ALO_PARAM_FLOAT;
        p->value[0] = v->kind == FERRY_JSON_REAL ? (float)v->real : NAN;
        return true;
    case FERRY_JSON_STRING: {
        p->type = FERRY_ALO_PARAM_TEXTURE;
        char *t = ferry_arena_alloc(b->arena, v->length + 1);
        if (!t) return nomem(b);
        memcpy(t, v->string, v->length);
        p->texture = t;
        return true;
    }
    case FERRY_JSON_ARRAY:
        if (v->count == 3 || v->count == 4) {
            p->type = v->count == 3 ? FERRY_ALO_PARAM_FLOAT3 : FERRY_ALO_PARAM_FLOAT4;
            for (size_t k = 0; k < v->count; k++) {
                const ferry_json *it = v->items[k];
                p->value[k] = it->kind == FERRY_JSON_REAL ? (float)it->real : it->kind == FERRY_JSON_INTEGER ? (float)it->integer : NAN;
            }
            return true;
        }
        break;
    default: break;
    }
    warn(b, path, "material-param", "parameter %s has a value that is no shader parameter type: left out", name);
    p->name = NULL;
    return true;
}

static ferry_alo_shader_param *add_param(ferry_alo_material *m, uint32_t type, const char *name)
{
    ferry_alo_shader_param *p = &m->params[m->param_count++];
    p->type = type;
    p->name = name;
    return p;
}

static const char *image_texture_name(build *b, int64_t image, const char *suffix, const char *material_name, bool linear)
{
    const char *name = NULL;
    const char *stem = NULL;
    if (image >= 0 && (size_t)image < b->s->image_count) stem = b->s->images[image].name;
    char buf[300];
    if (stem && *stem) {
        /* drop a path and an extension */
        const char *base = stem;
        for (const char *q = stem; *q; q++)
            if (*q == '/' || *q == '\\') base = q + 1;
        size_t len = strlen(base);
        const char *dot = strrchr(base, '.');
        if (dot && dot != base) len = (size_t)(dot - base);
        if (len > 200) len = 200;
        snprintf(buf, sizeof buf, "%.*s.dds", (int)len, base);
    } else {
        snprintf(buf, sizeof buf, "%.200s%s.dds", material_name ? material_name : "texture", suffix);
    }
    name = ferry_arena_strdup(b->arena, buf);
    /* Remembered once per name, for the caller to write the file. */
    bool known = false;
    for (size_t i = 0; name && i < b->texture_count; i++) known |= strcmp(b->textures[i].name, name) == 0;
    if (name && !known && image >= 0 && (size_t)image < b->s->image_count && b->texture_count < b->texture_cap)
        b->textures[b->texture_count++] = (ferry_alo_texture_ref){(int32_t)image, name, linear};
    return name;
}

/* The glTF material mapped to a common shader (gltf-import.md, "Materials"). */
static bool map_material(build *b, const ferry_scene_material *sm, bool skinned, int kind, ferry_alo_material *m,
                         const char *path)
{
    if (kind != MESH_DRAWN) {
        /* The shipped shadow-volume and collision shaders and their one parameter, as real files have them. */
        m->params = alloc(b, 1, sizeof *m->params);
        if (!m->params) return nomem(b);
        ferry_alo_shader_param *p;
        if (kind == MESH_SHADOW) {
            m->shader = skinned ? "RSkinShadowVolume.fx" : "MeshShadowVolume.fx";
            p = add_param(m, FERRY_ALO_PARAM_FLOAT4, "DebugColor");
            p->value[1] = p->value[2] = p->value[3] = 1;
        } else {
            m->shader = "MeshCollision.fx";
            p = add_param(m, FERRY_ALO_PARAM_FLOAT4, "Color");
            p->value[2] = 1, p->value[3] = 0.5f;
        }
        if (b->rep) b->rep->materials_mapped++;
        return true;
    }
    bool additive = sm->unlit && sm->alpha_mode == FERRY_ALPHA_BLEND;
    bool alpha = !additive && sm->alpha_mode != FERRY_ALPHA_OPAQUE;
    bool bump = !additive && !alpha && sm->has_normal_image && !skinned;
    if (skinned && sm->has_normal_image && !additive && !alpha)
        warn(b, path, "material-normal-map", "skinned material %s: its normal map is left out (RSkinGloss.fx has none)",
             sm->name ? sm->name : "");
    m->params = alloc(b, 8, sizeof *m->params);
    if (!m->params) return nomem(b);
    const char *name = sm->name;
    if (additive) {
        m->shader = skinned ? "RSkinAdditive.fx" : "MeshAdditive.fx";
        if (sm->has_base_color_image)
            add_param(m, FERRY_ALO_PARAM_TEXTURE, "BaseTexture")->texture =
                image_texture_name(b, FY_REF(sm, base_color_image), "", name, false);
        add_param(m, FERRY_ALO_PARAM_FLOAT4, "UVScrollRate");
        ferry_alo_shader_param *c = add_param(m, FERRY_ALO_PARAM_FLOAT4, "Color");
        memcpy(c->value, sm->base_color_factor, 4 * sizeof(float));
        return true;
    }
    m->shader = alpha ? (skinned ? "RSkinAlpha.fx" : "MeshAlpha.fx")
                      : bump ? "MeshBump.fx" : (skinned ? "RSkinGloss.fx" : "MeshGloss.fx");
    ferry_alo_shader_param *p = add_param(m, FERRY_ALO_PARAM_FLOAT4, "Emissive");
    memcpy(p->value, sm->emissive_factor, 3 * sizeof(float));
    p = add_param(m, FERRY_ALO_PARAM_FLOAT4, "Diffuse");
    memcpy(p->value, sm->base_color_factor, 3 * sizeof(float));
    p->value[3] = alpha ? sm->base_color_factor[3] : 0;
    p = add_param(m, FERRY_ALO_PARAM_FLOAT4, "Specular");
    /* glTF roughness 1 (no shine) -> a dim highlight; smoother -> brighter. */
    float spec = isfinite(sm->roughness_factor) ? 1.0f - fminf(fmaxf(sm->roughness_factor, 0.0f), 1.0f) : 0.0f;
    p->value[0] = p->value[1] = p->value[2] = spec;
    add_param(m, FERRY_ALO_PARAM_FLOAT, "Shininess")->value[0] = 32;
    if (bump) add_param(m, FERRY_ALO_PARAM_FLOAT4, "UVOffset");
    if (sm->has_base_color_image)
        add_param(m, FERRY_ALO_PARAM_TEXTURE, "BaseTexture")->texture =
            image_texture_name(b, FY_REF(sm, base_color_image), "", name, false);
    else
        add_param(m, FERRY_ALO_PARAM_TEXTURE, "BaseTexture")->texture = "w_white.dds";
    if (bump)
        add_param(m, FERRY_ALO_PARAM_TEXTURE, "NormalTexture")->texture =
            image_texture_name(b, FY_REF(sm, normal_image), "_normal", name, true);
    for (size_t i = 0; i < m->param_count; i++)
        if (m->params[i].type == FERRY_ALO_PARAM_TEXTURE && !m->params[i].texture) return nomem(b);
    if (b->rep) b->rep->materials_mapped++;
    return true;
}

/* The ALO material of scene material `index` (-1: default), rigid or skinned. */
static const ferry_alo_material *material_for(build *b, int64_t index, bool skinned, int kind, const char *path)
{
    size_t slot = index >= 0 && (size_t)index < b->s->material_count ? (size_t)index : b->s->material_count;
    mat_cache *mc = &b->mats[slot];
    int v = (skinned ? 1 : 0) + 2 * kind;
    if (mc->made[v]) return &mc->m[v];
    ferry_alo_material *m = &mc->m[v];
    ferry_scene_material dflt;
    ferry_scene_material_init(&dflt);
    dflt.name = "default";
    const ferry_scene_material *sm = slot < b->s->material_count ? &b->s->materials[slot] : &dflt;
    const char *shader = jstr(sm->extras, "shader");
    const ferry_json *params = ferry_json_get(sm->extras, "params");
    if (shader && params && params->kind == FERRY_JSON_OBJECT) {
        m->shader = jstr_dup(b, sm->extras, "shader");
        m->params = alloc(b, params->count, sizeof *m->params);
        if (!m->shader || !m->params) return nomem(b), NULL;
        for (size_t i = 0; i < params->count; i++) {
            const ferry_json_member *mem = &params->members[i];
            char name[256];
            size_t len = mem->key_length < sizeof name - 1 ? mem->key_length : sizeof name - 1;
            memcpy(name, mem->key, len);
            name[len] = 0;
            ferry_alo_shader_param *p = &m->params[m->param_count];
            if (!param_from_json(b, p, name, mem->value, path)) return NULL;
            if (p->name) m->param_count++;
        }
        if (b->rep) b->rep->materials_from_extras++;
    } else if (!map_material(b, sm, skinned, kind, m, path)) {
        return NULL;
    }
    mc->made[v] = true;
    if (b->rep) b->rep->materials++;
    return m;
}

/* Bump shaders read tangents and binormals (U3U3). */
static bool shader_wants_tangents(const char *shader)
{
    if (!shader) return false;
    for (const char *p = shader; *p; p++)
        if (strncasecmp(p, "bump", 4) == 0) return true;
    return false;
}

/* ---- meshes ---- */

typedef struct prim_vertices {
    ferry_alo_vertex *v; /* Alamo-space, bone_index[0] = skeleton bone while building */
    size_t n;
    uint32_t *idx;
    size_t index_count;
} prim_vertices;

/* Per-vertex normals from the faces (area weighted), for primitives without NORMAL. */
static void face_normals(prim_vertices *pv)
{
    for (size_t i = 0; i < pv->n; i++) memset(pv->v[i].normal, 0, sizeof pv->v[i].normal);
    for (size_t t = 0; t + 2 < pv->index_count; t += 3) {
        float *a = pv->v[pv->idx[t]].position, *bb = pv->v[pv->idx[t + 1]].position, *c = pv->v[pv->idx[t + 2]].position;
        float e1[3] = {bb[0] - a[0], bb[1] - a[1], bb[2] - a[2]}, e2[3] = {c[0] - a[0], c[1] - a[1], c[2] - a[2]}, fn[3];
        fy_vec3_cross(e1, e2, fn);
        for (int k = 0; k < 3; k++)
            for (int j = 0; j < 3; j++) pv->v[pv->idx[t + j]].normal[k] += fn[k];
    }
    static const float up[3] = {0, 0, 1};
    for (size_t i = 0; i < pv->n; i++) normalize3(pv->v[i].normal, up);
}

/* Tangents and binormals from texture coordinates set 0 (per-triangle
 * derivatives accumulated per vertex, Gram-Schmidt against the normal). */
static void uv_tangents(prim_vertices *pv, bool have_uv)
{
    for (size_t i = 0; i < pv->n; i++) {
        memset(pv->v[i].tangent, 0, sizeof pv->v[i].tangent);
        memset(pv->v[i].binormal, 0, sizeof pv->v[i].binormal);
    }
    if (have_uv) {
        for (size_t t = 0; t + 2 < pv->index_count; t += 3) {
            ferry_alo_vertex *a = &pv->v[pv->idx[t]], *bb = &pv->v[pv->idx[t + 1]], *c = &pv->v[pv->idx[t + 2]];
            float e1[3], e2[3];
            for (int k = 0; k < 3; k++) e1[k] = bb->position[k] - a->position[k], e2[k] = c->position[k] - a->position[k];
            float du1 = bb->texcoord[0][0] - a->texcoord[0][0], dv1 = bb->texcoord[0][1] - a->texcoord[0][1];
            float du2 = c->texcoord[0][0] - a->texcoord[0][0], dv2 = c->texcoord[0][1] - a->texcoord[0][1];
            float det = du1 * dv2 - du2 * dv1;
            if (!(fabsf(det) > 1e-20f)) continue;
            float r = 1.0f / det, tt[3], bt[3];
            for (int k = 0; k < 3; k++) tt[k] = (e1[k] * dv2 - e2[k] * dv1) * r, bt[k] = (e2[k] * du1 - e1[k] * du2) * r;
            for (int j = 0; j < 3; j++) {
                ferry_alo_vertex *v = &pv->v[pv->idx[t + j]];
                for (int k = 0; k < 3; k++) v->tangent[k] += tt[k], v->binormal[k] += bt[k];
            }
        }
    }
    for (size_t i = 0; i < pv->n; i++) {
        ferry_alo_vertex *v = &pv->v[i];
        float *nn = v->normal;
        float d = v->tangent[0] * nn[0] + v->tangent[1] * nn[1] + v->tangent[2] * nn[2];
        for (int k = 0; k < 3; k++) v->tangent[k] -= d * nn[k];
        float axis[3] = {1, 0, 0}, any[3];
        if (fabsf(nn[0]) > 0.9f) axis[0] = 0, axis[1] = 1;
        fy_vec3_cross(nn, axis, any);
        normalize3(any, axis);
        normalize3(v->tangent, any);
        float cb[3];
        fy_vec3_cross(nn, v->tangent, cb);
        float hand = cb[0] * v->binormal[0] + cb[1] * v->binormal[1] + cb[2] * v->binormal[2];
        for (int k = 0; k < 3; k++) v->binormal[k] = hand < 0 ? -cb[k] : cb[k];
    }
}

typedef struct skin_info {
    const ferry_scene_skin *skin;
    double *k; /* per joint: Alamo-space rest transform C * world(joint) * IBM */
    int32_t *bone; /* per joint: skeleton bone, -1: not in the hierarchy */
} skin_info;

static bool prepare_skin(build *b, int32_t skin_index, skin_info *si, const char *path)
{
    const ferry_scene_skin *sk = &b->s->skins[skin_index];
    si->skin = sk;
    si->k = alloc(b, sk->joint_count, 16 * sizeof *si->k);
    si->bone = alloc(b, sk->joint_count, sizeof *si->bone);
    if (!si->k || !si->bone) return nomem(b);
    for (size_t j = 0; j < sk->joint_count; j++) {
        int32_t node = sk->joints[j];
        si->bone[j] = -1;
        if (node < 0 || (size_t)node >= b->s->node_count) {
            fy_error_set(b->err, FERRY_ERR_MALFORMED, FERRY_NO_OFFSET, path, "skin joint %zu names node %d, not in the scene", j,
                         (int)node);
            return false;
        }
        si->bone[j] = b->node_bone[node];
        double ibm[16];
        if (sk->inverse_bind_matrices)
            for (int k = 0; k < 16; k++) ibm[k] = sk->inverse_bind_matrices[16 * j + k];
        else
            d_identity(ibm);
        double *K = &si->k[16 * j];
        d_mul(&b->aw[16 * node], ibm, K);
        /* ferry's export binds every joint so that the rest pose is the
         * stored model-space vertex: K is the identity up to rounding. */
        double t = fabs(b->aw[16 * node + 12]) + fabs(b->aw[16 * node + 13]) + fabs(b->aw[16 * node + 14]);
        if (d_is_identity(K, 1e-4, 1e-4 * (1 + t))) d_identity(K);
    }
    return true;
}

typedef struct mesh_ctx {
    build *b;
    ferry_alo_mesh *mesh;
    size_t submesh_cap;
    const char *path;
} mesh_ctx;

/* One primitive's vertices in Alamo space (rigid: the bone's space). */
static bool read_primitive(build *b, const ferry_scene_primitive *p, const double *xf, const skin_info *si, prim_vertices *pv,
                           const char *path, bool want_tangents)
{
    if (p->mode != FERRY_PRIMITIVE_TRIANGLES) {
        fy_error_set(b->err, FERRY_ERR_MALFORMED, FERRY_NO_OFFSET, path, "mode %d: only triangles become ALO meshes", (int)p->mode);
        return false;
    }
    size_t n = p->vertex_count;
    if (!p->positions) {
        fy_error_set(b->err, FERRY_ERR_MALFORMED, FERRY_NO_OFFSET, path, "no POSITION");
        return false;
    }
    size_t ic = p->indices ? p->index_count : n;
    if (ic % 3) {
        fy_error_set(b->err, FERRY_ERR_MALFORMED, FERRY_NO_OFFSET, path, "%zu indices: not a whole number of triangles", ic);
        return false;
    }
    pv->n = n;
    pv->index_count = ic;
    pv->v = calloc(n ? n : 1, sizeof *pv->v);
    pv->idx = malloc((ic ? ic : 1) * sizeof *pv->idx);
    if (!pv->v || !pv->idx) return nomem(b);
    for (size_t i = 0; i < ic; i++) {
        uint32_t x = p->indices ? p->indices[i] : (uint32_t)i;
        if (x >= n) {
            fy_error_set(b->err, FERRY_ERR_MALFORMED, FERRY_NO_OFFSET, path, "index %zu is %u, past the %zu vertices", i, x, n);
            return false;
        }
        pv->idx[i] = x;
    }
    double nm_rigid[16];
    if (xf) d_normal_matrix(xf, nm_rigid);
    bool skinned = si && p->joints && p->weights;
    for (size_t i = 0; i < n; i++) {
        ferry_alo_vertex *v = &pv->v[i];
        const float *pos = &p->positions[3 * i];
        if (!isfinite(pos[0]) || !isfinite(pos[1]) || !isfinite(pos[2])) {
            fy_error_set(b->err, FERRY_ERR_MALFORMED, FERRY_NO_OFFSET, path, "POSITION of vertex %zu is not finite", i);
            return false;
        }
        const double *m = xf;
        double nm[16];
        const double *nmp = xf ? nm_rigid : NULL;
        if (skinned) {
            /* One bone per vertex: the joint of the largest weight. */
            int best = -1;
            float bw = -1, total = 0;
            for (int k = 0; k < 4; k++) {
                float w = p->weights[4 * i + k];
                if (!(w > 0) || !isfinite(w)) continue;
                total += w;
                if (w > bw) bw = w, best = k;
            }
            uint16_t joint = best >= 0 ? p->joints[4 * i + best] : p->joints[4 * i];
            if (joint >= si->skin->joint_count) {
                fy_error_set(b->err, FERRY_ERR_MALFORMED, FERRY_NO_OFFSET, path, "vertex %zu: joint %u past the skin's %zu joints", i,
                             joint, si->skin->joint_count);
                return false;
            }
            if (si->bone[joint] < 0) {
                int32_t node = si->skin->joints[joint];
                fy_error_set(b->err, FERRY_ERR_MALFORMED, FERRY_NO_OFFSET, path,
                             "vertex %zu: skin joint %u (node %d, %s) is not a bone of the hierarchy", i, joint, (int)node,
                             b->s->nodes[node].name ? b->s->nodes[node].name : "unnamed");
                return false;
            }
            if (total > 0 && b->rep) {
                double dropped = (total - bw) / total;
                if (dropped > 1e-6) b->rep->vertices_reweighted++;
                b->rep->dropped_weight_total += dropped;
                if (dropped > b->rep->dropped_weight_max) b->rep->dropped_weight_max = dropped;
            }
            v->bone_index[0] = (uint32_t)si->bone[joint];
            v->bone_weight[0] = 1;
            m = &si->k[16 * joint];
            d_normal_matrix(m, nm);
            nmp = nm;
        }
        double o[3];
        if (m) {
            d_point(m, pos, o);
            for (int k = 0; k < 3; k++) v->position[k] = (float)o[k];
        } else {
            memcpy(v->position, pos, sizeof v->position);
        }
        if (p->normals) {
            if (nmp) {
                d_vector(nmp, &p->normals[3 * i], o);
                for (int k = 0; k < 3; k++) v->normal[k] = (float)o[k];
                static const float up[3] = {0, 0, 1};
                normalize3(v->normal, up);
            } else {
                memcpy(v->normal, &p->normals[3 * i], sizeof v->normal);
            }
        }
        for (size_t s = 0; s < p->texcoord_count && s < 4; s++) {
            v->texcoord[s][0] = p->texcoords[s][2 * i];
            v->texcoord[s][1] = p->texcoords[s][2 * i + 1];
        }
        if (p->colors) memcpy(v->color, &p->colors[4 * i], sizeof v->color);
        else v->color[0] = v->color[1] = v->color[2] = v->color[3] = 1;
        if (p->tangents) {
            const float *t = &p->tangents[4 * i];
            if (m) {
                d_vector(m, t, o);
                for (int k = 0; k < 3; k++) v->tangent[k] = (float)o[k];
            } else {
                memcpy(v->tangent, t, sizeof v->tangent);
            }
        }
        for (int k = 0; k < 3; k++)
            if (!isfinite(v->position[k])) {
                fy_error_set(b->err, FERRY_ERR_MALFORMED, FERRY_NO_OFFSET, path, "vertex %zu is not finite once placed", i);
                return false;
            }
    }
    if (!p->normals) face_normals(pv);
    if (p->tangents) {
        for (size_t i = 0; i < n; i++) {
            ferry_alo_vertex *v = &pv->v[i];
            float cb[3];
            fy_vec3_cross(v->normal, v->tangent, cb);
            float w = p->tangents[4 * i + 3] < 0 ? -1.0f : 1.0f;
            for (int k = 0; k < 3; k++) v->binormal[k] = cb[k] * w;
        }
    } else if (want_tangents) {
        uv_tangents(pv, p->texcoord_count > 0);
    }
    return true;
}

static ferry_alo_submesh *new_submesh(mesh_ctx *mc)
{
    ferry_alo_mesh *mesh = mc->mesh;
    if (mesh->submesh_count == mc->submesh_cap) {
        size_t cap = mc->submesh_cap ? 2 * mc->submesh_cap : 4;
        ferry_alo_submesh *grown = alloc(mc->b, cap, sizeof *grown);
        if (!grown) return NULL;
        if (mesh->submesh_count) memcpy(grown, mesh->submeshes, mesh->submesh_count * sizeof *grown);
        mesh->submeshes = grown;
        mc->submesh_cap = cap;
    }
    return &mesh->submeshes[mesh->submesh_count++];
}

/* Splits a primitive into sub-meshes of at most 65,535 vertices and (skinned)
 * 24 palette bones, greedily in triangle order. */
static bool emit_submeshes(mesh_ctx *mc, prim_vertices *pv, const ferry_alo_material *mat, const char *format, bool skinned,
                           const uint32_t *palette_hint, size_t hint_count)
{
    build *b = mc->b;
    size_t n = pv->n, tris = pv->index_count / 3;
    if (tris == 0) return true;
    int32_t *remap = malloc(n * sizeof *remap);
    uint32_t *stamp = calloc(n, sizeof *stamp);
    uint16_t *idx = malloc(pv->index_count * sizeof *idx);
    bool ok = remap && stamp && idx;
    /* When the whole primitive fits one sub-mesh, its vertices keep their
     * order (and unused ones stay): a round trip gives the file's buffers. */
    bool whole = n <= MAX_SUBMESH_VERTICES;
    ferry_alo_vertex *verts = NULL;
    uint32_t palette_all[FERRY_ALO_MAX_MAPPED_BONES];
    size_t all_count = 0;
    if (skinned && palette_hint && hint_count <= FERRY_ALO_MAX_MAPPED_BONES) {
        memcpy(palette_all, palette_hint, hint_count * sizeof *palette_all);
        all_count = hint_count;
    }
    for (size_t v = 0; whole && skinned && v < n; v++) {
        uint32_t bone = pv->v[v].bone_index[0];
        bool have = false;
        for (size_t q = 0; q < all_count; q++) have |= palette_all[q] == bone;
        if (have) continue;
        if (all_count == FERRY_ALO_MAX_MAPPED_BONES) whole = false;
        else palette_all[all_count++] = bone;
    }
    if (ok && whole) {
        for (size_t v = 0; v < n; v++) stamp[v] = 1, remap[v] = (int32_t)v;
    } else if (ok) { /* (a whole primitive's vertices go to the arena straight from pv->v) */
        verts = malloc((n < MAX_SUBMESH_VERTICES ? n : MAX_SUBMESH_VERTICES) * sizeof *verts);
        ok = verts != NULL;
    }
    uint32_t chunk = 0;
    size_t t = 0;
    while (ok && t < tris) {
        chunk++;
        size_t vcount = 0, icount = 0;
        uint32_t palette[FERRY_ALO_MAX_MAPPED_BONES];
        size_t pcount = 0;
        if (whole) {
            memcpy(palette, palette_all, all_count * sizeof *palette);
            pcount = all_count;
            vcount = n;
            for (size_t i = 0; i < pv->index_count; i++) idx[i] = (uint16_t)pv->idx[i];
            icount = pv->index_count;
            t = tris;
        }
        /* (A split primitive builds its palettes afresh: a full hint could
         * leave no room for the first triangle's bones.) */
        for (; t < tris; t++) {
            const uint32_t *tri = &pv->idx[3 * t];
            size_t new_v = 0, new_b = 0;
            uint32_t nb[3];
            for (int j = 0; j < 3; j++) {
                if (stamp[tri[j]] != chunk) {
                    bool dup = false;
                    for (int q = 0; q < j; q++) dup |= tri[q] == tri[j];
                    new_v += !dup;
                }
                if (skinned) {
                    uint32_t bone = pv->v[tri[j]].bone_index[0];
                    bool have = false;
                    for (size_t q = 0; q < pcount; q++) have |= palette[q] == bone;
                    for (size_t q = 0; q < new_b; q++) have |= nb[q] == bone;
                    if (!have) nb[new_b++] = bone;
                }
            }
            if (vcount + new_v > MAX_SUBMESH_VERTICES || pcount + new_b > FERRY_ALO_MAX_MAPPED_BONES) break;
            for (size_t q = 0; q < new_b; q++) palette[pcount++] = nb[q];
            for (int j = 0; j < 3; j++) {
                uint32_t s = tri[j];
                if (stamp[s] != chunk) {
                    stamp[s] = chunk;
                    remap[s] = (int32_t)vcount;
                    verts[vcount++] = pv->v[s];
                }
                idx[icount++] = (uint16_t)remap[s];
            }
        }
        ferry_alo_submesh *sm = new_submesh(mc);
        if (!sm) {
            ok = false;
            break;
        }
        sm->material = *mat;
        sm->vertex_format = format;
        sm->vertex_count = vcount;
        sm->triangle_count = icount / 3;
        sm->vertices = ferry_arena_memdup(b->arena, whole ? pv->v : verts, vcount * sizeof *sm->vertices);
        sm->indices = ferry_arena_memdup(b->arena, idx, icount * sizeof *idx);
        ok = sm->vertices && sm->indices;
        if (ok && skinned) {
            sm->has_bone_mapping = true;
            sm->bone_mapping = ferry_arena_memdup(b->arena, palette, (pcount ? pcount : 1) * sizeof *palette);
            sm->bone_mapping_count = pcount;
            ok = sm->bone_mapping != NULL;
            for (size_t v = 0; ok && v < vcount; v++) {
                uint32_t bone = sm->vertices[v].bone_index[0];
                for (size_t q = 0; q < pcount; q++)
                    if (palette[q] == bone) sm->vertices[v].bone_index[0] = (uint32_t)q;
            }
        }
        if (b->rep) {
            b->rep->submeshes++;
            b->rep->triangles += sm->triangle_count;
            b->rep->vertices += vcount;
        }
    }
    if (ok && chunk > 1 && b->rep) b->rep->primitives_split++;
    free(remap);
    free(stamp);
    free(verts);
    free(idx);
    return ok ? true : nomem(b);
}

/* The vertex format: ferry's extras when present, else from the shader. */
static const char *vertex_format(build *b, const ferry_scene_primitive *p, const ferry_alo_material *mat, bool skinned)
{
    /* (a copy: extras strings carry a length and need not end with a NUL) */
    const char *f = jstr(p->extras, "vertex_format") ? jstr_dup(b, p->extras, "vertex_format") : NULL;
    if (f && *f) {
        bool f_skinned = strstr(f, "RSkin") != NULL;
        if (f_skinned == skinned) return f;
    }
    const char *sh = mat->shader ? mat->shader : "";
    bool plain = false;
    for (const char *q = sh; *q; q++)
        if (strncasecmp(q, "shadow", 6) == 0 || strncasecmp(q, "collision", 9) == 0) plain = true;
    if (plain) return skinned ? "alD3dVertRSkinN" : "alD3dVertN";
    if (shader_wants_tangents(sh)) return skinned ? "alD3dVertRSkinNU2U3U3" : "alD3dVertNU2U3U3";
    return skinned ? "alD3dVertRSkinNU2" : "alD3dVertNU2";
}

static bool add_mesh(build *b, size_t node_index)
{
    const ferry_scene *s = b->s;
    const ferry_scene_node *nd = &s->nodes[node_index];
    const ferry_scene_mesh *sm = &s->meshes[nd->mesh];
    ferry_alo_model *model = b->model;
    ferry_alo_mesh *mesh = &model->meshes[model->mesh_count];
    memset(mesh, 0, sizeof *mesh);
    char path[96];
    snprintf(path, sizeof path, "nodes[%zu]/meshes[%u]", node_index, (unsigned)nd->mesh);
    const char *name = nd->name && *nd->name ? nd->name : sm->name;
    mesh->name = ferry_arena_strdup(b->arena, name && *name ? name : "mesh");
    if (!mesh->name) return nomem(b);
    mesh->is_hidden = jbool(nd->extras, "hidden", false) ? 1 : 0;
    bool collision = jbool(nd->extras, "collision_enabled", false);
    /* Shadow volumes and collision meshes: ferry's mesh extras, else (a node
     * without ferry's extras) the names real exporters give them: "..._Shadow"
     * and "collision..." (any case). A named collision mesh is hidden and collides. */
    int kind = jbool(nd->extras, "shadow_volume", false) ? MESH_SHADOW
               : jbool(nd->extras, "collision_mesh", false) ? MESH_COLLISION : MESH_DRAWN;
    if (kind == MESH_DRAWN && !ferry_json_get(nd->extras, "alamo")) {
        size_t len = strlen(mesh->name);
        if (len >= 6 && strcasecmp(mesh->name + len - 6, "shadow") == 0) kind = MESH_SHADOW;
        if (strncasecmp(mesh->name, "collision", 9) == 0) {
            kind = MESH_COLLISION;
            collision = true;
            mesh->is_hidden = 1;
        }
    }

    /* The bone it hangs on: its own (a bone node), ferry's "bone" name, or the nearest bone above. */
    int32_t bone = b->node_bone[node_index] >= 0 ? b->node_bone[node_index] : b->bone_of[node_index];
    const char *bone_name = jstr(nd->extras, "bone");
    if (bone_name && nd->has_skin) {
        const ferry_json *bn = ferry_json_get(nd->extras, "bone");
        for (size_t i = 0; i < model->skeleton.bone_count; i++) {
            const char *nm = model->skeleton.bones[i].name;
            if (strlen(nm) == bn->length && memcmp(nm, bn->string, bn->length) == 0) {
                bone = (int32_t)i;
                break;
            }
        }
    }
    if (bone < 0 && model->skeleton.bone_count) bone = 0;
    /* Rigid vertices go into the bone's space: identity for a mesh on its
     * own bone node, else from the node's place below the bone. */
    double xf_store[16];
    const double *xf = NULL;
    if (b->node_bone[node_index] < 0 && !nd->has_skin) {
        int32_t bn = (int32_t)FY_REF(nd, parent);
        while (bn >= 0 && b->node_bone[bn] != bone) bn = (int32_t)FY_REF(&s->nodes[bn], parent);
        double inv[16];
        if (bn >= 0 && d_invert_affine(&b->aw[16 * bn], inv)) d_mul(inv, &b->aw[16 * node_index], xf_store);
        else memcpy(xf_store, &b->aw[16 * node_index], sizeof xf_store);
        if (!d_is_identity(xf_store, 1e-6, 1e-6)) xf = xf_store;
    }
    skin_info si_store, *si = NULL;
    if (nd->has_skin) {
        if (!prepare_skin(b, (int32_t)nd->skin, &si_store, path)) return false;
        si = &si_store;
    }
    mesh_ctx mc = {b, mesh, 0, path};
    for (size_t pi = 0; pi < sm->primitive_count; pi++) {
        const ferry_scene_primitive *p = &sm->primitives[pi];
        char ppath[96];
        snprintf(ppath, sizeof ppath, "meshes[%u]/primitives[%zu]", (unsigned)nd->mesh, pi);
        bool skinned = si && p->joints && p->weights;
        if (si && !skinned) {
            fy_error_set(b->err, FERRY_ERR_MALFORMED, FERRY_NO_OFFSET, ppath, "a skinned mesh's primitive without JOINTS_0 and WEIGHTS_0");
            return false;
        }
        const ferry_alo_material *mat = material_for(b, FY_REF(p, material), skinned, kind, ppath);
        if (!mat) return false;
        const char *format = vertex_format(b, p, mat, skinned);
        if (!format) return nomem(b);
        bool want_tangents = strstr(format, "U3U3") != NULL;
        prim_vertices pv = {0};
        bool ok = read_primitive(b, p, skinned ? NULL : xf, skinned ? si : NULL, &pv, ppath, want_tangents);
        /* ferry's own palette, when it still fits */
        uint32_t hint[FERRY_ALO_MAX_MAPPED_BONES];
        size_t hint_count = 0;
        const ferry_json *map = ferry_json_get(p->extras, "bone_mapping");
        if (ok && skinned && map && map->kind == FERRY_JSON_ARRAY && map->count <= FERRY_ALO_MAX_MAPPED_BONES) {
            hint_count = map->count;
            for (size_t k = 0; k < map->count; k++) {
                const ferry_json *it = map->items[k];
                if (it->kind != FERRY_JSON_INTEGER || it->integer < 0 || (uint64_t)it->integer >= model->skeleton.bone_count)
                    hint_count = 0;
                else
                    hint[k] = (uint32_t)it->integer;
            }
        }
        ok = ok && emit_submeshes(&mc, &pv, mat, format, skinned, hint_count ? hint : NULL, hint_count);
        free(pv.v);
        free(pv.idx);
        if (!ok) return false;
    }
    if (mesh->submesh_count == 0) {
        warn(b, path, "mesh-empty", "%s: no triangles, left out", mesh->name);
        return true;
    }
    if (collision) {
        /* A tree per sub-mesh (the game tests collision through them). */
        size_t built = 0;
        for (size_t i = 0; i < mesh->submesh_count; i++) {
            ferry_error terr;
            if (ferry_alo_collision_build(&mesh->submeshes[i], b->arena, &mesh->submeshes[i].collision, &terr) == FERRY_OK) {
                built++;
            } else if (terr.code == FERRY_ERR_NOMEM) {
                return nomem(b);
            } else {
                warn(b, path, "collision-not-built", "%s sub-mesh %zu: no collision tree: %s", mesh->name, i, terr.message);
            }
        }
        mesh->collision_enabled = built > 0;
        if (b->rep) {
            b->rep->collision_trees += built;
            if (!built) b->rep->collision_disabled++;
        }
    }
    float bmin[3], bmax[3];
    if (jfloats(nd->extras, "bounds_min", bmin, 3) == 3 && jfloats(nd->extras, "bounds_max", bmax, 3) == 3 &&
        isfinite(bmin[0] + bmin[1] + bmin[2] + bmax[0] + bmax[1] + bmax[2])) {
        /* ferry's export keeps the stored bounds (they need not be the vertices'). */
        memcpy(mesh->bounds_min, bmin, sizeof bmin);
        memcpy(mesh->bounds_max, bmax, sizeof bmax);
    } else {
        ferry_alo_mesh_vertex_bounds(mesh, mesh->bounds_min, mesh->bounds_max);
    }
    size_t oi = model->object_count++;
    model->objects[oi] = (ferry_alo_object){FERRY_ALO_OBJECT_MESH, model->mesh_count};
    model->mesh_count++;
    if (!jbool(nd->extras, "unconnected", false) && bone >= 0)
        model->connections.objects[model->connections.object_count++] = (ferry_alo_connection){.object = (uint32_t)oi, .bone = (uint32_t)bone};
    if (b->rep) b->rep->meshes++;
    return true;
}

static bool add_light(build *b, size_t node_index)
{
    const ferry_scene_node *nd = &b->s->nodes[node_index];
    const ferry_scene_light *sl = &b->s->lights[nd->light];
    ferry_alo_model *model = b->model;
    ferry_alo_light *l = &model->lights[model->light_count];
    memset(l, 0, sizeof *l);
    /* The light's own name first: tools rename nodes to keep them unique ("Omni01.001"). */
    const char *name = sl->name && *sl->name ? sl->name : nd->name;
    l->name = ferry_arena_strdup(b->arena, name && *name ? name : "light");
    if (!l->name) return nomem(b);
    const ferry_json *x = kind_is(b, node_index, "light") ? nd->extras : NULL;
    l->type = sl->type == FERRY_LIGHT_DIRECTIONAL ? FERRY_ALO_LIGHT_DIRECTIONAL
              : sl->type == FERRY_LIGHT_SPOT    ? FERRY_ALO_LIGHT_SPOT
                                                : FERRY_ALO_LIGHT_OMNI;
    const ferry_json *t = ferry_json_get(x, "type");
    if (t && t->kind == FERRY_JSON_INTEGER) l->type = (uint32_t)t->integer;
    memcpy(l->color, sl->color, sizeof l->color);
    double v;
    l->intensity = jnum(x, "intensity", &v) ? (float)v : sl->intensity;
    l->far_attenuation_end = jnum(x, "far_attenuation_end", &v) ? (float)v : sl->range;
    l->far_attenuation_start = jnum(x, "far_attenuation_start", &v) ? (float)v : 0.0f;
    /* glTF cones are half angles, Alamo's full ones (3ds Max's). */
    l->hotspot_size = jnum(x, "hotspot_size", &v) ? (float)v : 2 * sl->inner_cone_angle;
    l->falloff_size = jnum(x, "falloff_size", &v) ? (float)v : 2 * sl->outer_cone_angle;
    int32_t bone = b->bone_of[node_index];
    if (b->node_bone[node_index] >= 0 && b->rep) b->rep->own_bones++;
    size_t oi = model->object_count++;
    model->objects[oi] = (ferry_alo_object){FERRY_ALO_OBJECT_LIGHT, model->light_count};
    model->light_count++;
    if (bone >= 0) model->connections.objects[model->connections.object_count++] = (ferry_alo_connection){.object = (uint32_t)oi, .bone = (uint32_t)bone};
    if (b->rep) b->rep->lights++;
    return true;
}

static bool add_proxy(build *b, size_t node_index)
{
    const ferry_scene_node *nd = &b->s->nodes[node_index];
    ferry_alo_connections *cn = &b->model->connections;
    ferry_alo_proxy *p = &cn->proxies[cn->proxy_count];
    memset(p, 0, sizeof *p);
    char *name = jstr_dup(b, nd->extras, "proxy");
    if (!name || !*name) name = ferry_arena_strdup(b->arena, nd->name ? nd->name : "proxy");
    if (!name) return nomem(b);
    p->name = name;
    int32_t bone = b->bone_of[node_index];
    p->bone = bone >= 0 ? (uint32_t)bone : 0;
    p->is_hidden = jbool(nd->extras, "hidden", false);
    p->alt_decrease_stay_hidden = jbool(nd->extras, "alt_decrease_stay_hidden", false);
    if (p->is_hidden) p->present |= FERRY_ALO_PROXY_HAS_HIDDEN;
    if (p->alt_decrease_stay_hidden) p->present |= FERRY_ALO_PROXY_HAS_ALT_DECREASE;
    if (b->node_bone[node_index] >= 0 && b->rep) b->rep->own_bones++;
    cn->proxy_count++;
    if (b->rep) b->rep->proxies++;
    return true;
}

static bool add_dazzle(build *b, size_t node_index)
{
    const ferry_scene_node *nd = &b->s->nodes[node_index];
    const ferry_json *x = nd->extras;
    ferry_alo_connections *cn = &b->model->connections;
    ferry_alo_dazzle *d = &cn->dazzles[cn->dazzle_count];
    memset(d, 0, sizeof *d);
    d->name = ferry_arena_strdup(b->arena, nd->name ? nd->name : "dazzle");
    char *tex = jstr_dup(b, x, "texture");
    d->texture = tex ? tex : "";
    if (!d->name) return nomem(b);
    jfloats(x, "color", d->color, 3);
    if (jfloats(x, "position", d->position, 3) != 3) memcpy(d->position, nd->translation, sizeof d->position);
    double v;
    if (jnum(x, "radius", &v)) d->radius = (float)v;
    if (jnum(x, "texture_x", &v)) d->texture_x = (uint32_t)v;
    if (jnum(x, "texture_y", &v)) d->texture_y = (uint32_t)v;
    if (jnum(x, "texture_size", &v)) d->texture_size = (uint32_t)v;
    if (jnum(x, "frequency", &v)) d->frequency = (float)v;
    if (jnum(x, "phase", &v)) d->phase = (float)v;
    d->night_only = jbool(x, "night_only", false);
    d->is_hidden = jbool(x, "hidden", false);
    d->bias = jnum(x, "bias", &v) ? (float)v : 1.0f;
    int32_t bone = b->bone_of[node_index];
    d->bone = bone >= 0 ? (uint32_t)bone : 0;
    d->present = FERRY_ALO_DAZZLE_ALL_REQUIRED | FERRY_ALO_DAZZLE_HAS_BIAS;
    cn->dazzle_count++;
    cn->has_dazzle_count = true;
    return true;
}

/* A built model has no byte offsets: every place says FERRY_NO_OFFSET, so
 * validation messages do not point at byte 0. */
static void mark_built(ferry_alo_model *m)
{
    const uint64_t none = FERRY_NO_OFFSET;
    m->skeleton.offset = none;
    for (size_t i = 0; i < m->skeleton.bone_count; i++) m->skeleton.bones[i].offset = none;
    for (size_t i = 0; i < m->mesh_count; i++) {
        ferry_alo_mesh *mesh = &m->meshes[i];
        mesh->offset = mesh->info_offset = none;
        for (size_t s = 0; s < mesh->submesh_count; s++) {
            ferry_alo_submesh *sm = &mesh->submeshes[s];
            sm->material.offset = none;
            for (size_t p = 0; p < sm->material.param_count; p++) sm->material.params[p].offset = none;
            sm->source = (ferry_alo_submesh_source){none, none, none, none, none, none};
            if (sm->collision) sm->collision->offset = none;
        }
    }
    for (size_t i = 0; i < m->light_count; i++) m->lights[i].offset = none;
    ferry_alo_connections *c = &m->connections;
    c->offset = c->counts_offset = none;
    for (size_t i = 0; i < c->object_count; i++) c->objects[i].offset = none;
    for (size_t i = 0; i < c->proxy_count; i++) c->proxies[i].offset = none;
    for (size_t i = 0; i < c->dazzle_count; i++) c->dazzles[i].offset = none;
}

ferry_result ferry_alo_from_scene(const ferry_scene *scene, const ferry_alo_from_scene_options *options,
                                  ferry_alo_model **out, ferry_error *err)
{
    ferry_error local_err;
    if (out) *out = NULL;
    if (!fy_convert_args(&err, &local_err, out != NULL, scene, "scene")) return err->code;
    ferry_alo_from_scene_options no_options;
    options = FY_OPTIONS_OR_DEFAULTS(options, no_options);
    if (options->report) memset(options->report, 0, sizeof *options->report);

    build b;
    memset(&b, 0, sizeof b);
    b.s = scene;
    b.opts = options;
    b.rep = options->report;
    b.err = err;
    b.axis_root = -1;
    b.arena = ferry_arena_create(0);
    if (!b.arena) {
        fy_error_set(err, FERRY_ERR_NOMEM, FERRY_NO_OFFSET, "", "out of memory building the ALO model");
        return err->code;
    }
    ferry_alo_model *model = ferry_arena_alloc(b.arena, sizeof *model);
    bool ok = model != NULL;
    if (ok) {
        model->arena = b.arena;
        b.model = model;
    }

    /* ferry's export: a root node whose extras say alamo: axis_root. Its
     * rotation is undone exactly (C = its inverse); other glTF is Y-up and
     * turned Z-up by +90 degrees about X: glTF +Y -> Alamo +Z, glTF +Z
     * (the front) -> Alamo -Y (where Alamo models face). */
    for (size_t i = 0; ok && i < scene->node_count; i++) {
        if (!scene->nodes[i].has_parent && kind_is(&b, i, "axis_root")) {
            b.axis_root = (int32_t)i;
            break;
        }
    }
    for (size_t i = 0; ok && i < scene->node_count; i++) {
        if (kind_is(&b, i, "particle_system")) {
            fy_error_set(err, FERRY_ERR_ARGUMENT, FERRY_NO_OFFSET, "", "nodes[%zu]: the export of a particle system, not a model", i);
            ok = false;
        }
    }
    b.ferry_export = b.axis_root >= 0;
    if (b.rep) b.rep->ferry_export = b.ferry_export;
    d_identity(b.C);
    if (b.ferry_export) {
        double r[16];
        d_from_trs(&scene->nodes[b.axis_root], r);
        if (!d_invert_affine(r, b.C)) d_identity(b.C);
    } else {
        /* columns: x -> x, y -> z, z -> -y */
        b.C[5] = 0, b.C[6] = 1, b.C[9] = -1, b.C[10] = 0;
    }
    ok = ok && make_skeleton(&b);
    if (!ok && err->code != FERRY_OK) {
        ferry_arena_destroy(b.arena);
        return err->code;
    }

    size_t meshes = 0, lights = 0, proxies = 0, dazzles = 0;
    for (size_t i = 0; ok && i < scene->node_count; i++) {
        const ferry_scene_node *nd = &scene->nodes[i];
        if (nd->has_mesh) {
            if (nd->mesh >= scene->mesh_count) {
                fy_error_set(err, FERRY_ERR_MALFORMED, FERRY_NO_OFFSET, "", "nodes[%zu]: mesh %u out of range", i, (unsigned)nd->mesh);
                ok = false;
                break;
            }
            if (nd->has_skin && nd->skin >= scene->skin_count) {
                fy_error_set(err, FERRY_ERR_MALFORMED, FERRY_NO_OFFSET, "", "nodes[%zu]: skin %u out of range", i, (unsigned)nd->skin);
                ok = false;
                break;
            }
            meshes++;
        }
        if (nd->has_light) {
            if (nd->light >= scene->light_count) {
                fy_error_set(err, FERRY_ERR_MALFORMED, FERRY_NO_OFFSET, "", "nodes[%zu]: light %u out of range", i,
                             (unsigned)nd->light);
                ok = false;
                break;
            }
            lights++;
        }
        if (!nd->has_mesh && (kind_is(&b, i, "proxy") || (!kind_is(&b, i, "dazzle") && ferry_json_get(nd->extras, "proxy"))))
            proxies++;
        if (kind_is(&b, i, "dazzle")) dazzles++;
    }
    if (ok) {
        model->meshes = alloc(&b, meshes, sizeof *model->meshes);
        model->lights = alloc(&b, lights, sizeof *model->lights);
        model->objects = alloc(&b, meshes + lights, sizeof *model->objects);
        model->connections.objects = alloc(&b, meshes + lights, sizeof *model->connections.objects);
        model->connections.proxies = alloc(&b, proxies, sizeof *model->connections.proxies);
        model->connections.dazzles = alloc(&b, dazzles, sizeof *model->connections.dazzles);
        b.mats = alloc(&b, scene->material_count + 1, sizeof *b.mats);
        b.texture_cap = 2 * (scene->material_count + 1);
        b.textures = alloc(&b, b.texture_cap, sizeof *b.textures);
        ok = model->meshes && model->lights && model->objects && model->connections.objects && model->connections.proxies &&
             model->connections.dazzles && b.mats && b.textures;
        if (!ok) nomem(&b);
    }
    for (size_t i = 0; ok && i < scene->node_count; i++) {
        const ferry_scene_node *nd = &scene->nodes[i];
        if (nd->has_mesh) ok = add_mesh(&b, i);
        if (ok && nd->has_light) ok = add_light(&b, i);
        if (ok && !nd->has_mesh && (kind_is(&b, i, "proxy") || (!kind_is(&b, i, "dazzle") && ferry_json_get(nd->extras, "proxy"))))
            ok = add_proxy(&b, i);
        if (ok && kind_is(&b, i, "dazzle")) ok = add_dazzle(&b, i);
    }
    if (ok && scene->animation_count && b.rep) b.rep->animations_not_converted = scene->animation_count;
    if (!ok) {
        if (err->code == FERRY_OK) nomem(&b);
        ferry_arena_destroy(b.arena);
        return err->code;
    }
    mark_built(model);
    if (b.rep) {
        b.rep->textures = b.textures;
        b.rep->texture_count = b.texture_count;
    }
    *out = model;
    return FERRY_OK;
}
