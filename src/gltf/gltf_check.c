/* The input check of the glTF writer. Everything a valid glTF needs and a
 * caller could get wrong is checked here, before any output, so that the
 * builders can assume a valid scene and the message can name the object.
 * Tolerances follow the Khronos validator's, or are stricter. */
#include "gltf_internal.h"
#include "../core/core_math.h"

#include <math.h>
#include <stdio.h>

/* |q| may differ from 1 by this much (the validator allows 0.00769). */
#define UNIT_QUAT_TOLERANCE 1e-3
/* |normal| and |tangent.xyz| (the validator allows 0.00674). */
#define UNIT_VEC_TOLERANCE 5e-3
/* Vertex weights are renormalized on output when they sum to 1 within
 * this; further off means the caller has a bug worth hearing about. */
#define WEIGHT_SUM_TOLERANCE 1e-2
#define HALF_PI 1.5707963267948966

void fy_gltf_describe(char *out, size_t out_size, const char *kind, size_t index, const char *name)
{
    if (name && name[0])
        snprintf(out, out_size, "%s %zu \"%.60s\"", kind, index, name);
    else
        snprintf(out, out_size, "%s %zu", kind, index);
}

#define FAIL(...)                                                                    \
    do {                                                                             \
        fy_error_set(err, FERRY_ERR_ARGUMENT, FERRY_NO_OFFSET, NULL, __VA_ARGS__);  \
        return FERRY_ERR_ARGUMENT;                                                   \
    } while (0)

#define TRY(expr)                                \
    do {                                         \
        ferry_result r_ = (expr);                \
        if (r_ != FERRY_OK) return r_;           \
    } while (0)

static bool all_finite(const float *v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!isfinite(v[i])) return false;
    return true;
}

/* Blocks of 64 floats are tested at once by their exponent bits (all ones:
 * NaN or infinity; the add carries into bit 31 exactly then), a loop
 * without an early exit that the compiler vectorizes; only a block that
 * holds one is looked at float by float. Every vertex attribute of an
 * export passes here. */
static size_t first_nonfinite(const float *v, size_t n)
{
    enum { BLOCK = 64 };
    size_t i = 0;
    for (; n - i >= BLOCK; i += BLOCK) {
        uint32_t bad = 0;
        for (size_t k = 0; k < BLOCK; k++) {
            uint32_t w;
            memcpy(&w, &v[i + k], sizeof w);
            bad |= (w & 0x7F800000u) + 0x00800000u;
        }
        if (bad & 0x80000000u) break;
    }
    for (; i < n; i++)
        if (!isfinite(v[i])) return i;
    return n;
}

static ferry_result check_extras(const char *what, const ferry_json *extras, ferry_error *err)
{
    if (!extras) return FERRY_OK;
    if (extras->kind != FERRY_JSON_OBJECT) FAIL("%s: extras must be an object", what);
    const char *problem;
    if (fy_json_check(extras, &problem)) return FERRY_OK;
    if (problem) FAIL("%s: extras cannot be written: %s", what, problem);
    fy_error_set(err, FERRY_ERR_NOMEM, FERRY_NO_OFFSET, NULL, "%s: out of memory converting extras", what);
    return FERRY_ERR_NOMEM;
}

static ferry_result check_floats(const char *what, const char *field, const float *v, size_t n, ferry_error *err)
{
    size_t bad = first_nonfinite(v, n);
    if (bad < n) FAIL("%s: %s value %zu is %s", what, field, bad, isnan(v[bad]) ? "NaN" : "infinite");
    return FERRY_OK;
}

/* An optional reference (scene.h): in range when its flag is set; left 0
 * when not, since an index without its flag is most likely a flag
 * forgotten (or a -1 of the convention before the flags). */
static ferry_result check_ref(const char *what, const char *field, bool has, uint32_t ref, size_t count, ferry_error *err)
{
    if (!has && ref != 0)
        FAIL("%s: %s is %u but has_%s is false (set has_%s, or leave %s 0)", what, field, (unsigned)ref, field, field,
             field);
    if (has && ref >= count) FAIL("%s: %s %u is out of range (%zu defined)", what, field, (unsigned)ref, count);
    return FERRY_OK;
}
#define CHECK_REF(what, obj, field, count) check_ref(what, #field, (obj)->has_##field, (obj)->field, count, err)

static ferry_result check_images(const ferry_scene *s, ferry_error *err)
{
    char what[96];
    for (size_t i = 0; i < s->image_count; i++) {
        const ferry_scene_image *im = &s->images[i];
        fy_gltf_describe(what, sizeof what, "image", i, im->name);
        if (im->linked_path) {
            if (im->data || im->size) FAIL("%s: has both data and a linked file", what);
            if (!*im->linked_path) FAIL("%s: its linked file has no path", what);
            continue;
        }
        if (!im->data || im->size == 0) FAIL("%s: has no data", what);
        if (!im->mime_type) FAIL("%s: mime_type is missing", what);
        static const uint8_t png_sig[8] = {0x89, 'P', 'N', 'G', 0x0d, 0x0a, 0x1a, 0x0a};
        if (strcmp(im->mime_type, "image/png") == 0) {
            if (im->size < 8 || memcmp(im->data, png_sig, 8) != 0) FAIL("%s: data is not a PNG file", what);
        } else if (strcmp(im->mime_type, "image/jpeg") == 0) {
            if (im->size < 3 || im->data[0] != 0xff || im->data[1] != 0xd8) FAIL("%s: data is not a JPEG file", what);
        } else if (strcmp(im->mime_type, "image/vnd-ms.dds") == 0) {
            /* ferry_alo_scene_options.native_textures, for Blender's importer */
            if (im->size < 4 || memcmp(im->data, "DDS ", 4) != 0) FAIL("%s: data is not a DDS file", what);
        } else {
            FAIL("%s: mime_type \"%.40s\" is not image/png, image/jpeg or image/vnd-ms.dds", what, im->mime_type);
        }
    }
    return FERRY_OK;
}

static ferry_result check_materials(const ferry_scene *s, ferry_error *err)
{
    char what[96];
    for (size_t i = 0; i < s->material_count; i++) {
        const ferry_scene_material *m = &s->materials[i];
        fy_gltf_describe(what, sizeof what, "material", i, m->name);
        TRY(CHECK_REF(what, m, base_color_image, s->image_count));
        TRY(CHECK_REF(what, m, normal_image, s->image_count));
        TRY(CHECK_REF(what, m, emissive_image, s->image_count));
        for (int c = 0; c < 4; c++)
            if (!(m->base_color_factor[c] >= 0.0f && m->base_color_factor[c] <= 1.0f))
                FAIL("%s: base_color_factor[%d] is outside 0..1", what, c);
        for (int c = 0; c < 3; c++)
            if (!(m->emissive_factor[c] >= 0.0f && m->emissive_factor[c] <= 1.0f))
                FAIL("%s: emissive_factor[%d] is outside 0..1", what, c);
        if (!(m->metallic_factor >= 0.0f && m->metallic_factor <= 1.0f)) FAIL("%s: metallic_factor is outside 0..1", what);
        if (!(m->roughness_factor >= 0.0f && m->roughness_factor <= 1.0f))
            FAIL("%s: roughness_factor is outside 0..1", what);
        if (!isfinite(m->normal_scale)) FAIL("%s: normal_scale is not finite", what);
        if (m->alpha_mode != FERRY_ALPHA_OPAQUE && m->alpha_mode != FERRY_ALPHA_MASK && m->alpha_mode != FERRY_ALPHA_BLEND)
            FAIL("%s: alpha_mode %d is unknown", what, (int)m->alpha_mode);
        if (m->alpha_mode == FERRY_ALPHA_MASK && !(m->alpha_cutoff >= 0.0f && isfinite(m->alpha_cutoff)))
            FAIL("%s: alpha_cutoff must be a finite number >= 0", what);
        TRY(check_extras(what, m->extras, err));
    }
    return FERRY_OK;
}

/* The texture coordinate sets a material reads must exist on the primitive. */
static uint32_t material_texcoords_needed(const ferry_scene_material *m)
{
    uint32_t need = 0;
    if (m->has_base_color_image && m->base_color_texcoord + 1 > need) need = m->base_color_texcoord + 1;
    if (m->has_normal_image && m->normal_texcoord + 1 > need) need = m->normal_texcoord + 1;
    if (m->has_emissive_image && need < 1) need = 1; /* the emissive texture reads TEXCOORD_0 */
    return need;
}

static ferry_result check_unit_vectors(const char *what, const char *field, const float *v, size_t count,
                                       size_t stride, ferry_error *err)
{
    for (size_t i = 0; i < count; i++) {
        const float *p = v + i * stride;
        double len = fy_vec3_length(p);
        if (fabs(len - 1.0) > UNIT_VEC_TOLERANCE)
            FAIL("%s: %s of vertex %zu has length %g, expected unit length", what, field, i, len);
        if (stride == 4 && p[3] != 1.0f && p[3] != -1.0f)
            FAIL("%s: %s w of vertex %zu is %g, expected 1 or -1", what, field, i, (double)p[3]);
    }
    return FERRY_OK;
}

static ferry_result check_skinning(const char *what, const ferry_scene_primitive *p, ferry_error *err)
{
    if (!p->joints != !p->weights) FAIL("%s: joints and weights must be given together", what);
    if (!p->joints) return FERRY_OK;
    TRY(check_floats(what, "weights", p->weights, p->vertex_count * 4, err));
    for (size_t v = 0; v < p->vertex_count; v++) {
        const float *w = p->weights + v * 4;
        const uint16_t *j = p->joints + v * 4;
        double sum = 0;
        for (int k = 0; k < 4; k++) {
            if (w[k] < 0.0f) FAIL("%s: weight %d of vertex %zu is negative", what, k, v);
            sum += w[k];
            for (int l = 0; l < k; l++)
                if (w[k] != 0.0f && w[l] != 0.0f && j[k] == j[l])
                    FAIL("%s: vertex %zu uses joint %u twice", what, v, (unsigned)j[k]);
        }
        if (fabs(sum - 1.0) > WEIGHT_SUM_TOLERANCE) FAIL("%s: weights of vertex %zu sum to %g, not 1", what, v, sum);
    }
    return FERRY_OK;
}

static ferry_result check_primitive(const ferry_scene *s, const char *what, const ferry_scene_primitive *p,
                                    ferry_error *err)
{
    if (p->vertex_count == 0) FAIL("%s: has no vertices", what);
    if (p->vertex_count >= UINT32_MAX) FAIL("%s: has too many vertices for glTF", what);
    if (!p->positions) FAIL("%s: positions are missing", what);
    if (p->mode != FERRY_PRIMITIVE_TRIANGLES && p->mode != FERRY_PRIMITIVE_POINTS)
        FAIL("%s: mode %d is unknown", what, (int)p->mode);
    size_t n = p->vertex_count;
    TRY(check_floats(what, "position", p->positions, n * 3, err));
    if (p->normals) {
        TRY(check_floats(what, "normal", p->normals, n * 3, err));
        TRY(check_unit_vectors(what, "normal", p->normals, n, 3, err));
    }
    if (p->tangents) {
        TRY(check_floats(what, "tangent", p->tangents, n * 4, err));
        TRY(check_unit_vectors(what, "tangent", p->tangents, n, 4, err));
    }
    if (p->texcoord_count > 4) FAIL("%s: texcoord_count %zu is more than 4", what, p->texcoord_count);
    for (size_t t = 0; t < p->texcoord_count; t++) {
        if (!p->texcoords[t]) FAIL("%s: texcoords[%zu] is missing", what, t);
        TRY(check_floats(what, "texcoord", p->texcoords[t], n * 2, err));
    }
    if (p->colors) TRY(check_floats(what, "color", p->colors, n * 4, err));
    TRY(check_skinning(what, p, err));
    if (p->index_count && !p->indices) FAIL("%s: index_count is %zu but indices are missing", what, p->index_count);
    if (p->indices && p->index_count == 0) FAIL("%s: indices are given but index_count is 0", what);
    for (size_t i = 0; i < p->index_count; i++)
        if (p->indices[i] >= n)
            FAIL("%s: index %zu is %u, out of range (%zu vertices)", what, i, (unsigned)p->indices[i], n);
    if (p->mode == FERRY_PRIMITIVE_TRIANGLES) {
        size_t count = p->indices ? p->index_count : n;
        if (count % 3) FAIL("%s: %zu %s is not a whole number of triangles", what, count, p->indices ? "indices" : "vertices");
    }
    TRY(CHECK_REF(what, p, material, s->material_count));
    if (p->has_material) {
        uint32_t need = material_texcoords_needed(&s->materials[p->material]);
        if (need > p->texcoord_count)
            FAIL("%s: its material reads TEXCOORD_%u but the primitive has %zu texcoord sets", what,
                 (unsigned)(need - 1), p->texcoord_count);
    }
    if (p->target_count && !p->targets) FAIL("%s: target_count is %zu but targets are missing", what, p->target_count);
    for (size_t t = 0; t < p->target_count; t++) {
        const ferry_scene_morph_target *mt = &p->targets[t];
        if (!mt->positions) FAIL("%s: morph target %zu has no positions", what, t);
        TRY(check_floats(what, "morph target position", mt->positions, n * 3, err));
        if (mt->normals) TRY(check_floats(what, "morph target normal", mt->normals, n * 3, err));
    }
    TRY(check_extras(what, p->extras, err));
    return FERRY_OK;
}

static ferry_result check_meshes(const ferry_scene *s, ferry_error *err)
{
    char what[160], mesh_what[96];
    for (size_t i = 0; i < s->mesh_count; i++) {
        const ferry_scene_mesh *m = &s->meshes[i];
        fy_gltf_describe(mesh_what, sizeof mesh_what, "mesh", i, m->name);
        if (m->primitive_count == 0 || !m->primitives) FAIL("%s: has no primitives", mesh_what);
        for (size_t p = 0; p < m->primitive_count; p++) {
            snprintf(what, sizeof what, "%s primitive %zu", mesh_what, p);
            TRY(check_primitive(s, what, &m->primitives[p], err));
            /* glTF requires the same morph targets on every primitive. */
            if (m->primitives[p].target_count != m->primitives[0].target_count)
                FAIL("%s: has %zu morph targets but primitive 0 has %zu", what, m->primitives[p].target_count,
                     m->primitives[0].target_count);
        }
        if (m->default_weights) TRY(check_floats(mesh_what, "default weight", m->default_weights, m->primitives[0].target_count, err));
        TRY(check_extras(mesh_what, m->extras, err));
    }
    return FERRY_OK;
}

static bool is_ancestor_or_self(const ferry_scene *s, int64_t ancestor, int64_t node)
{
    /* Parents come before children (checked first), so this terminates. */
    for (; node >= 0; node = FY_REF(&s->nodes[node], parent))
        if (node == ancestor) return true;
    return false;
}

static ferry_result check_skins(const ferry_scene *s, ferry_error *err)
{
    char what[96];
    for (size_t i = 0; i < s->skin_count; i++) {
        const ferry_scene_skin *sk = &s->skins[i];
        fy_gltf_describe(what, sizeof what, "skin", i, sk->name);
        if (sk->joint_count == 0 || !sk->joints) FAIL("%s: has no joints", what);
        TRY(CHECK_REF(what, sk, skeleton, s->node_count));
        for (size_t j = 0; j < sk->joint_count; j++) {
            int32_t node = sk->joints[j];
            if (node < 0 || (size_t)node >= s->node_count)
                FAIL("%s: joint %zu is node %d, out of range (%zu nodes)", what, j, (int)node, s->node_count);
            for (size_t k = 0; k < j; k++)
                if (sk->joints[k] == node) FAIL("%s: node %d is joint %zu and joint %zu", what, (int)node, k, j);
            if (sk->has_skeleton && !is_ancestor_or_self(s, sk->skeleton, node))
                FAIL("%s: skeleton node %u is not an ancestor of joint %zu (node %d)", what, (unsigned)sk->skeleton, j,
                     (int)node);
        }
        if (sk->inverse_bind_matrices) {
            TRY(check_floats(what, "inverse bind matrix", sk->inverse_bind_matrices, sk->joint_count * 16, err));
            for (size_t j = 0; j < sk->joint_count; j++) {
                /* Column-major: the bottom row is elements 3, 7, 11 and 15. The
                 * writer stores it exactly as 0 0 0 1; far off means it is not
                 * an affine matrix at all (or is row-major). */
                const float *m = sk->inverse_bind_matrices + j * 16;
                if (fabsf(m[3]) > 1e-3f || fabsf(m[7]) > 1e-3f || fabsf(m[11]) > 1e-3f || fabsf(m[15] - 1.0f) > 1e-3f)
                    FAIL("%s: inverse bind matrix %zu is not affine (bottom row must be 0 0 0 1; column-major?)", what, j);
            }
        }
    }
    return FERRY_OK;
}

static ferry_result check_lights(const ferry_scene *s, ferry_error *err)
{
    char what[96];
    for (size_t i = 0; i < s->light_count; i++) {
        const ferry_scene_light *l = &s->lights[i];
        fy_gltf_describe(what, sizeof what, "light", i, l->name);
        if (l->type != FERRY_LIGHT_POINT && l->type != FERRY_LIGHT_DIRECTIONAL && l->type != FERRY_LIGHT_SPOT)
            FAIL("%s: type %d is unknown", what, (int)l->type);
        for (int c = 0; c < 3; c++)
            if (!(l->color[c] >= 0.0f && l->color[c] <= 1.0f)) FAIL("%s: color[%d] is outside 0..1", what, c);
        if (!(l->intensity >= 0.0f) || !isfinite(l->intensity)) FAIL("%s: intensity must be finite and >= 0", what);
        if (!(l->range >= 0.0f) || !isfinite(l->range)) FAIL("%s: range must be finite and >= 0 (0: infinite)", what);
        if (l->type == FERRY_LIGHT_SPOT) {
            /* A float pi/2 is slightly above the double; the writer clamps it. */
            if (!(l->outer_cone_angle > 0.0f && l->outer_cone_angle <= HALF_PI + 1e-6))
                FAIL("%s: outer_cone_angle must be in (0, pi/2]", what);
            if (!(l->inner_cone_angle >= 0.0f && l->inner_cone_angle < l->outer_cone_angle))
                FAIL("%s: inner_cone_angle must be >= 0 and less than outer_cone_angle", what);
        }
    }
    return FERRY_OK;
}

static ferry_result check_nodes(const ferry_scene *s, ferry_error *err)
{
    char what[96];
    for (size_t i = 0; i < s->node_count; i++) {
        const ferry_scene_node *n = &s->nodes[i];
        fy_gltf_describe(what, sizeof what, "node", i, n->name);
        if (!n->has_parent && n->parent != 0)
            FAIL("%s: parent is %u but has_parent is false (set has_parent, or leave parent 0)", what, (unsigned)n->parent);
        if (n->has_parent && n->parent >= i)
            FAIL("%s: parent %u must be an earlier node (or none: has_parent false)", what, (unsigned)n->parent);
        TRY(check_floats(what, "translation", n->translation, 3, err));
        TRY(check_floats(what, "rotation", n->rotation, 4, err));
        TRY(check_floats(what, "scale", n->scale, 3, err));
        const float *q = n->rotation;
        double len = fy_quat_length(q);
        if (fabs(len - 1.0) > UNIT_QUAT_TOLERANCE)
            FAIL("%s: rotation (%g, %g, %g, %g) has length %g; quaternions must be normalized", what, (double)q[0],
                 (double)q[1], (double)q[2], (double)q[3], len);
        TRY(CHECK_REF(what, n, mesh, s->mesh_count));
        TRY(CHECK_REF(what, n, skin, s->skin_count));
        TRY(CHECK_REF(what, n, light, s->light_count));
        if (n->has_skin) {
            if (!n->has_mesh) FAIL("%s: has a skin but no mesh", what);
            const ferry_scene_mesh *m = &s->meshes[n->mesh];
            size_t joint_count = s->skins[n->skin].joint_count;
            for (size_t p = 0; p < m->primitive_count; p++) {
                const ferry_scene_primitive *pr = &m->primitives[p];
                if (!pr->joints) FAIL("%s: skinned, but mesh %u primitive %zu has no joints", what, (unsigned)n->mesh, p);
                for (size_t k = 0; k < pr->vertex_count * 4; k++)
                    if (pr->joints[k] >= joint_count)
                        FAIL("%s: mesh %u primitive %zu vertex %zu uses joint %u but skin %u has %zu joints", what,
                             (unsigned)n->mesh, p, k / 4, (unsigned)pr->joints[k], (unsigned)n->skin, joint_count);
            }
        }
        TRY(check_extras(what, n->extras, err));
    }
    return FERRY_OK;
}

static size_t mesh_target_count(const ferry_scene *s, int32_t node)
{
    const ferry_scene_node *n = &s->nodes[node];
    return n->has_mesh ? s->meshes[n->mesh].primitives[0].target_count : 0;
}

static ferry_result check_animations(const ferry_scene *s, ferry_error *err)
{
    char what[96];
    for (size_t a = 0; a < s->animation_count; a++) {
        const ferry_scene_animation *an = &s->animations[a];
        fy_gltf_describe(what, sizeof what, "animation", a, an->name);
        if (an->channel_count == 0 || !an->channels) FAIL("%s: has no channels", what);
        for (size_t c = 0; c < an->channel_count; c++) {
            const ferry_scene_channel *ch = &an->channels[c];
            if (ch->node < 0 || (size_t)ch->node >= s->node_count)
                FAIL("%s channel %zu: node %d is out of range (%zu nodes)", what, c, (int)ch->node, s->node_count);
            if ((unsigned)ch->path > FERRY_ANIM_WEIGHTS) FAIL("%s channel %zu: path %d is unknown", what, c, (int)ch->path);
            if (ch->interpolation != FERRY_INTERP_LINEAR && ch->interpolation != FERRY_INTERP_STEP &&
                ch->interpolation != FERRY_INTERP_CUBICSPLINE)
                FAIL("%s channel %zu: interpolation %d is unknown", what, c, (int)ch->interpolation);
            for (size_t d = 0; d < c; d++)
                if (an->channels[d].node == ch->node && an->channels[d].path == ch->path)
                    FAIL("%s channel %zu: animates the same node and path as channel %zu", what, c, d);
            if (ch->key_count == 0 || !ch->times || !ch->values) FAIL("%s channel %zu: has no keys", what, c);
            for (size_t k = 0; k < ch->key_count; k++) {
                if (!isfinite(ch->times[k]) || ch->times[k] < 0.0f)
                    FAIL("%s channel %zu: time of key %zu is not a finite number >= 0", what, c, k);
                if (k && !(ch->times[k] > ch->times[k - 1]))
                    FAIL("%s channel %zu: key times must increase strictly (key %zu)", what, c, k);
            }
            size_t width = ch->path == FERRY_ANIM_ROTATION ? 4 : 3;
            if (ch->path == FERRY_ANIM_WEIGHTS) {
                width = mesh_target_count(s, ch->node);
                if (width == 0) FAIL("%s channel %zu: animates weights of node %d, which has no morph targets", what, c, (int)ch->node);
            }
            size_t per_key = ch->interpolation == FERRY_INTERP_CUBICSPLINE ? 3 : 1;
            if (!all_finite(ch->values, ch->key_count * width * per_key))
                FAIL("%s channel %zu: a key value is NaN or infinite", what, c);
            if (ch->path == FERRY_ANIM_ROTATION) {
                for (size_t k = 0; k < ch->key_count; k++) {
                    /* The value, not a CUBICSPLINE tangent, is a quaternion. */
                    const float *q = ch->values + (k * per_key + (per_key == 3)) * 4;
                    double len = fy_quat_length(q);
                    if (fabs(len - 1.0) > UNIT_QUAT_TOLERANCE)
                        FAIL("%s channel %zu: rotation key %zu has length %g; quaternions must be normalized", what, c, k, len);
                }
            }
        }
        TRY(check_extras(what, an->extras, err));
    }
    return FERRY_OK;
}

ferry_result fy_gltf_check_scene(const ferry_scene *s, ferry_error *err)
{
    if (!s) FAIL("no scene given");
    struct {
        const char *what;
        const void *items;
        size_t count;
    } arrays[] = {
        {"nodes", s->nodes, s->node_count},         {"meshes", s->meshes, s->mesh_count},
        {"materials", s->materials, s->material_count}, {"images", s->images, s->image_count},
        {"skins", s->skins, s->skin_count},         {"lights", s->lights, s->light_count},
        {"animations", s->animations, s->animation_count},
    };
    for (size_t i = 0; i < sizeof arrays / sizeof arrays[0]; i++) {
        if (arrays[i].count && !arrays[i].items) FAIL("scene: %zu %s announced but the array is NULL", arrays[i].count, arrays[i].what);
        /* References are int32. */
        if (arrays[i].count > INT32_MAX) FAIL("scene: too many %s", arrays[i].what);
    }
    TRY(check_extras("scene", s->extras, err));
    TRY(check_images(s, err));
    TRY(check_materials(s, err));
    TRY(check_meshes(s, err));
    TRY(check_nodes(s, err)); /* before skins: they walk the parent links */
    TRY(check_skins(s, err));
    TRY(check_lights(s, err));
    TRY(check_animations(s, err));
    return FERRY_OK;
}
