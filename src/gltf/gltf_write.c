/* The glTF document: scene data -> JSON objects and the binary buffer.
 * The input was checked first (gltf_check.c); here only allocation fails.
 * Defaults are left out so files stay small and readable, and empty arrays
 * are never written (glTF forbids them). */
#include "gltf_internal.h"

#include <math.h>
#include <stdlib.h>

static json_t *texture_info(fy_gltf *g, uint32_t image, uint32_t texcoord)
{
    /* Texture i is image i with the one sampler, so the index carries over. */
    json_t *info = json_object();
    fy_gltf_json_set(g, info, "index", json_integer(image));
    if (texcoord) fy_gltf_json_set(g, info, "texCoord", json_integer(texcoord));
    return info;
}

static bool all_equal(const float *v, size_t n, float value)
{
    for (size_t i = 0; i < n; i++)
        if (v[i] != value) return false;
    return true;
}

static void build_images(fy_gltf *g, const char *const *image_uris)
{
    const ferry_scene *s = g->scene;
    json_t *images = json_array(), *textures = json_array(), *samplers = json_array();
    for (size_t i = 0; i < s->image_count; i++) {
        const ferry_scene_image *im = &s->images[i];
        json_t *o = json_object();
        fy_gltf_json_set_name(g, o, im->name);
        if (im->linked_path) {
            /* The file where it lies, by absolute path (a URI reference a
             * consumer on this machine resolves to the file; its format, DDS
             * or TGA, is one only such a consumer reads: no mimeType). */
            char *uri = fy_gltf_uri_encode(im->linked_path, true);
            fy_gltf_json_set(g, o, "uri", uri ? fy_gltf_json_text(uri) : NULL);
            free(uri);
        } else if (image_uris && image_uris[i]) {
            fy_gltf_json_set(g, o, "uri", fy_gltf_json_text(image_uris[i]));
        } else {
            fy_gltf_json_set(g, o, "bufferView", json_integer(fy_gltf_bytes_view(g, im->data, im->size)));
        }
        if (!im->linked_path) fy_gltf_json_set(g, o, "mimeType", json_string(im->mime_type));
        fy_gltf_json_push(g, images, o);

        json_t *t = json_object();
        fy_gltf_json_set(g, t, "sampler", json_integer(0));
        fy_gltf_json_set(g, t, "source", json_integer((json_int_t)i));
        fy_gltf_json_push(g, textures, t);
    }
    if (s->image_count) {
        /* One sampler for all: trilinear, repeating, as the games sample. */
        json_t *sm = json_object();
        fy_gltf_json_set(g, sm, "magFilter", json_integer(9729));  /* LINEAR */
        fy_gltf_json_set(g, sm, "minFilter", json_integer(9987));  /* LINEAR_MIPMAP_LINEAR */
        fy_gltf_json_set(g, sm, "wrapS", json_integer(10497));     /* REPEAT */
        fy_gltf_json_set(g, sm, "wrapT", json_integer(10497));
        fy_gltf_json_push(g, samplers, sm);
    }
    fy_gltf_json_set_array(g, g->root, "images", images);
    fy_gltf_json_set_array(g, g->root, "samplers", samplers);
    fy_gltf_json_set_array(g, g->root, "textures", textures);
}

static void build_materials(fy_gltf *g)
{
    const ferry_scene *s = g->scene;
    static const char *const alpha_names[] = {"OPAQUE", "MASK", "BLEND"};
    json_t *materials = json_array();
    for (size_t i = 0; i < s->material_count; i++) {
        const ferry_scene_material *m = &s->materials[i];
        json_t *o = json_object(), *pbr = json_object();
        fy_gltf_json_set_name(g, o, m->name);
        if (!all_equal(m->base_color_factor, 4, 1.0f))
            fy_gltf_json_set(g, pbr, "baseColorFactor", fy_gltf_json_floats(m->base_color_factor, 4));
        if (m->has_base_color_image)
            fy_gltf_json_set(g, pbr, "baseColorTexture", texture_info(g, m->base_color_image, m->base_color_texcoord));
        /* glTF's default metalness is 1, these engines' is 0: always say it. */
        fy_gltf_json_set(g, pbr, "metallicFactor", json_real(m->metallic_factor));
        if (m->roughness_factor != 1.0f) fy_gltf_json_set(g, pbr, "roughnessFactor", json_real(m->roughness_factor));
        fy_gltf_json_set(g, o, "pbrMetallicRoughness", pbr);
        if (m->has_normal_image) {
            json_t *nt = texture_info(g, m->normal_image, m->normal_texcoord);
            if (m->normal_scale != 1.0f) fy_gltf_json_set(g, nt, "scale", json_real(m->normal_scale));
            fy_gltf_json_set(g, o, "normalTexture", nt);
        }
        if (m->has_emissive_image) fy_gltf_json_set(g, o, "emissiveTexture", texture_info(g, m->emissive_image, 0));
        if (!all_equal(m->emissive_factor, 3, 0.0f)) fy_gltf_json_set(g, o, "emissiveFactor", fy_gltf_json_floats(m->emissive_factor, 3));
        if (m->alpha_mode != FERRY_ALPHA_OPAQUE) fy_gltf_json_set(g, o, "alphaMode", json_string(alpha_names[m->alpha_mode]));
        if (m->alpha_mode == FERRY_ALPHA_MASK && m->alpha_cutoff != 0.5f)
            fy_gltf_json_set(g, o, "alphaCutoff", json_real(m->alpha_cutoff));
        if (m->double_sided) fy_gltf_json_set(g, o, "doubleSided", json_true());
        if (m->unlit) {
            json_t *ext = json_object();
            fy_gltf_json_set(g, ext, "KHR_materials_unlit", json_object());
            fy_gltf_json_set(g, o, "extensions", ext);
        }
        fy_gltf_json_set_extras(g, o, m->extras);
        fy_gltf_json_push(g, materials, o);
    }
    fy_gltf_json_set_array(g, g->root, "materials", materials);
}

/* WEIGHTS_0, made to sum to 1 in float32 arithmetic: the validator adds the
 * non-zero weights in order in float32 and allows only 2e-7 per weight, so
 * weights that are right to the caller's precision (say bytes / 255) would
 * fail. The check allowed at most 1% off; nothing visible changes. */
static int32_t write_weights(fy_gltf *g, const float *weights, size_t vertex_count)
{
    float *w = malloc(vertex_count * 4 * sizeof *w);
    if (!w) {
        g->nomem = true;
        return -1;
    }
    for (size_t v = 0; v < vertex_count; v++) {
        const float *in = weights + v * 4;
        float *out = w + v * 4;
        double sum = (double)in[0] + in[1] + in[2] + in[3];
        int big = 0;
        for (int k = 0; k < 4; k++) {
            out[k] = (float)(in[k] / sum);
            if (out[k] > out[big]) big = k;
        }
        for (int round = 0; round < 4; round++) {
            float acc = 0.0f;
            for (int k = 0; k < 4; k++) acc += out[k];
            if (acc == 1.0f) break;
            out[big] += 1.0f - acc;
        }
    }
    int32_t acc = fy_gltf_floats(g, w, vertex_count, 4, FY_GLTF_ARRAY_BUFFER, false);
    free(w);
    return acc;
}

static json_t *build_primitive(fy_gltf *g, const ferry_scene_primitive *p)
{
    json_t *o = json_object(), *attr = json_object();
    size_t n = p->vertex_count;
    fy_gltf_json_set(g, attr, "POSITION", json_integer(fy_gltf_floats(g, p->positions, n, 3, FY_GLTF_ARRAY_BUFFER, true)));
    if (p->normals) fy_gltf_json_set(g, attr, "NORMAL", json_integer(fy_gltf_floats(g, p->normals, n, 3, FY_GLTF_ARRAY_BUFFER, false)));
    if (p->tangents) fy_gltf_json_set(g, attr, "TANGENT", json_integer(fy_gltf_floats(g, p->tangents, n, 4, FY_GLTF_ARRAY_BUFFER, false)));
    for (size_t t = 0; t < p->texcoord_count; t++) {
        char key[32]; /* room for any size_t, so no compiler sees a truncation */
        snprintf(key, sizeof key, "TEXCOORD_%zu", t);
        fy_gltf_json_set(g, attr, key, json_integer(fy_gltf_floats(g, p->texcoords[t], n, 2, FY_GLTF_ARRAY_BUFFER, false)));
    }
    if (p->colors) fy_gltf_json_set(g, attr, "COLOR_0", json_integer(fy_gltf_floats(g, p->colors, n, 4, FY_GLTF_ARRAY_BUFFER, false)));
    if (p->joints) {
        fy_gltf_json_set(g, attr, "JOINTS_0", json_integer(fy_gltf_joints(g, p->joints, n)));
        fy_gltf_json_set(g, attr, "WEIGHTS_0", json_integer(write_weights(g, p->weights, n)));
    }
    fy_gltf_json_set(g, o, "attributes", attr);
    if (p->indices) fy_gltf_json_set(g, o, "indices", json_integer(fy_gltf_indices(g, p->indices, p->index_count, n)));
    if (p->has_material) fy_gltf_json_set(g, o, "material", json_integer(p->material));
    if (p->mode != FERRY_PRIMITIVE_TRIANGLES) fy_gltf_json_set(g, o, "mode", json_integer(p->mode));
    json_t *targets = json_array();
    for (size_t t = 0; t < p->target_count; t++) {
        const ferry_scene_morph_target *mt = &p->targets[t];
        json_t *to = json_object();
        fy_gltf_json_set(g, to, "POSITION", json_integer(fy_gltf_floats(g, mt->positions, n, 3, FY_GLTF_ARRAY_BUFFER, true)));
        if (mt->normals)
            fy_gltf_json_set(g, to, "NORMAL", json_integer(fy_gltf_floats(g, mt->normals, n, 3, FY_GLTF_ARRAY_BUFFER, false)));
        fy_gltf_json_push(g, targets, to);
    }
    fy_gltf_json_set_array(g, o, "targets", targets);
    fy_gltf_json_set_extras(g, o, p->extras);
    return o;
}

static void build_meshes(fy_gltf *g)
{
    const ferry_scene *s = g->scene;
    json_t *meshes = json_array();
    for (size_t i = 0; i < s->mesh_count; i++) {
        const ferry_scene_mesh *m = &s->meshes[i];
        json_t *o = json_object(), *prims = json_array();
        fy_gltf_json_set_name(g, o, m->name);
        for (size_t p = 0; p < m->primitive_count; p++) fy_gltf_json_push(g, prims, build_primitive(g, &m->primitives[p]));
        fy_gltf_json_set(g, o, "primitives", prims);
        const ferry_scene_primitive *first = &m->primitives[0];
        size_t targets = first->target_count;
        if (targets) {
            json_t *w = json_array(), *names = json_array();
            bool named = false;
            for (size_t t = 0; t < targets; t++) {
                fy_gltf_json_push(g, w, json_real(m->default_weights ? m->default_weights[t] : 0.0));
                const char *name = first->targets[t].name;
                named |= name != NULL;
                fy_gltf_json_push(g, names, fy_gltf_json_text(name ? name : ""));
            }
            fy_gltf_json_set(g, o, "weights", w);
            fy_gltf_json_set_extras(g, o, m->extras);
            /* extras.targetNames is the convention Blender, three.js and
             * Babylon read morph target names from. */
            if (named) {
                json_t *extras = json_object_get(o, "extras");
                if (!extras) {
                    extras = json_object();
                    fy_gltf_json_set(g, o, "extras", extras);
                }
                if (extras && !json_object_get(extras, "targetNames")) {
                    fy_gltf_json_set(g, extras, "targetNames", names);
                    names = NULL;
                }
            }
            json_decref(names);
        } else {
            fy_gltf_json_set_extras(g, o, m->extras);
        }
        fy_gltf_json_push(g, meshes, o);
    }
    fy_gltf_json_set_array(g, g->root, "meshes", meshes);
}

static void build_skins(fy_gltf *g)
{
    const ferry_scene *s = g->scene;
    json_t *skins = json_array();
    for (size_t i = 0; i < s->skin_count; i++) {
        const ferry_scene_skin *sk = &s->skins[i];
        json_t *o = json_object(), *joints = json_array();
        fy_gltf_json_set_name(g, o, sk->name);
        if (sk->inverse_bind_matrices) {
            /* The bottom row is stored exactly 0 0 0 1: the validator wants
             * it exact and float math on the caller's side rarely is. */
            float *m = malloc(sk->joint_count * 16 * sizeof *m);
            if (m) {
                memcpy(m, sk->inverse_bind_matrices, sk->joint_count * 16 * sizeof *m);
                for (size_t j = 0; j < sk->joint_count; j++) {
                    float *mj = m + j * 16;
                    mj[3] = mj[7] = mj[11] = 0.0f;
                    mj[15] = 1.0f;
                }
                fy_gltf_json_set(g, o, "inverseBindMatrices", json_integer(fy_gltf_floats(g, m, sk->joint_count, 16, 0, false)));
                free(m);
            } else {
                g->nomem = true;
            }
        }
        for (size_t j = 0; j < sk->joint_count; j++) fy_gltf_json_push(g, joints, json_integer(sk->joints[j]));
        fy_gltf_json_set(g, o, "joints", joints);
        if (sk->has_skeleton) fy_gltf_json_set(g, o, "skeleton", json_integer(sk->skeleton));
        fy_gltf_json_push(g, skins, o);
    }
    fy_gltf_json_set_array(g, g->root, "skins", skins);
}

static void build_lights(fy_gltf *g, json_t *root_extensions)
{
    static const char *const type_names[] = {"point", "directional", "spot"};
    const ferry_scene *s = g->scene;
    json_t *lights = json_array();
    for (size_t i = 0; i < s->light_count; i++) {
        const ferry_scene_light *l = &s->lights[i];
        json_t *o = json_object();
        fy_gltf_json_set_name(g, o, l->name);
        fy_gltf_json_set(g, o, "type", json_string(type_names[l->type]));
        if (!all_equal(l->color, 3, 1.0f)) fy_gltf_json_set(g, o, "color", fy_gltf_json_floats(l->color, 3));
        fy_gltf_json_set(g, o, "intensity", json_real(l->intensity));
        /* Range means nothing for a directional light; the extension
         * forbids it there. */
        if (l->range > 0.0f && l->type != FERRY_LIGHT_DIRECTIONAL) fy_gltf_json_set(g, o, "range", json_real(l->range));
        if (l->type == FERRY_LIGHT_SPOT) {
            json_t *spot = json_object();
            /* pi/2 is the schema's maximum, and both (float)(pi/2) and the
             * double printed to 9 digits (1.57079633) lie just above it:
             * write the largest 9-digit value below instead. */
            double outer = l->outer_cone_angle >= 1.57079632 ? 1.57079632 : l->outer_cone_angle;
            fy_gltf_json_set(g, spot, "innerConeAngle", json_real(l->inner_cone_angle));
            fy_gltf_json_set(g, spot, "outerConeAngle", json_real(outer));
            fy_gltf_json_set(g, o, "spot", spot);
        }
        fy_gltf_json_push(g, lights, o);
    }
    if (s->light_count) {
        json_t *ext = json_object();
        fy_gltf_json_set(g, ext, "lights", lights);
        fy_gltf_json_set(g, root_extensions, "KHR_lights_punctual", ext);
    } else {
        json_decref(lights);
    }
}

static void build_nodes(fy_gltf *g)
{
    const ferry_scene *s = g->scene;
    static const float identity_q[4] = {0, 0, 0, 1};
    json_t *nodes = json_array(), *roots = json_array();
    for (size_t i = 0; i < s->node_count; i++) {
        const ferry_scene_node *n = &s->nodes[i];
        json_t *o = json_object();
        fy_gltf_json_set_name(g, o, n->name);
        /* Children follow their parents, so one pass over the later nodes
         * finds them all, in node order. */
        json_t *children = json_array();
        for (size_t c = i + 1; c < s->node_count; c++)
            if (s->nodes[c].has_parent && s->nodes[c].parent == i) fy_gltf_json_push(g, children, json_integer((json_int_t)c));
        fy_gltf_json_set_array(g, o, "children", children);
        if (n->has_mesh) fy_gltf_json_set(g, o, "mesh", json_integer(n->mesh));
        if (n->has_skin) fy_gltf_json_set(g, o, "skin", json_integer(n->skin));
        if (!all_equal(n->translation, 3, 0.0f)) fy_gltf_json_set(g, o, "translation", fy_gltf_json_floats(n->translation, 3));
        if (memcmp(n->rotation, identity_q, sizeof identity_q) != 0) fy_gltf_json_set(g, o, "rotation", fy_gltf_json_floats(n->rotation, 4));
        if (!all_equal(n->scale, 3, 1.0f)) fy_gltf_json_set(g, o, "scale", fy_gltf_json_floats(n->scale, 3));
        if (n->has_light) {
            json_t *ext = json_object(), *lp = json_object();
            fy_gltf_json_set(g, lp, "light", json_integer(n->light));
            fy_gltf_json_set(g, ext, "KHR_lights_punctual", lp);
            fy_gltf_json_set(g, o, "extensions", ext);
        }
        fy_gltf_json_set_extras(g, o, n->extras);
        fy_gltf_json_push(g, nodes, o);
        if (!n->has_parent) fy_gltf_json_push(g, roots, json_integer((json_int_t)i));
    }
    fy_gltf_json_set_array(g, g->root, "nodes", nodes);

    json_t *scene = json_object(), *scenes = json_array();
    fy_gltf_json_set_name(g, scene, s->name);
    fy_gltf_json_set_array(g, scene, "nodes", roots);
    fy_gltf_json_set_extras(g, scene, s->extras);
    fy_gltf_json_push(g, scenes, scene);
    fy_gltf_json_set(g, g->root, "scene", json_integer(0));
    fy_gltf_json_set(g, g->root, "scenes", scenes);
}

static void build_animations(fy_gltf *g)
{
    static const char *const path_names[] = {"translation", "rotation", "scale", "weights"};
    const ferry_scene *s = g->scene;
    json_t *animations = json_array();
    for (size_t a = 0; a < s->animation_count; a++) {
        const ferry_scene_animation *an = &s->animations[a];
        json_t *o = json_object(), *channels = json_array(), *samplers = json_array();
        fy_gltf_json_set_name(g, o, an->name);
        for (size_t c = 0; c < an->channel_count; c++) {
            const ferry_scene_channel *ch = &an->channels[c];
            /* Channels of one animation usually share their key times:
             * share the input accessor too. */
            int32_t input = -1;
            for (size_t d = 0; d < c && input < 0; d++) {
                const ferry_scene_channel *prev = &an->channels[d];
                if (prev->key_count == ch->key_count &&
                    (prev->times == ch->times || memcmp(prev->times, ch->times, ch->key_count * sizeof(float)) == 0)) {
                    json_t *sampler = json_array_get(samplers, d);
                    input = (int32_t)json_integer_value(json_object_get(sampler, "input"));
                }
            }
            if (input < 0) input = fy_gltf_floats(g, ch->times, ch->key_count, 1, 0, true); /* min/max required */
            size_t width = ch->path == FERRY_ANIM_ROTATION ? 4 : 3;
            size_t count = ch->key_count;
            if (ch->path == FERRY_ANIM_WEIGHTS) {
                /* One scalar per morph target per key. */
                width = 1;
                count = ch->key_count * s->meshes[s->nodes[ch->node].mesh].primitives[0].target_count;
            }
            /* CUBICSPLINE: in-tangent, value and out-tangent per key. */
            if (ch->interpolation == FERRY_INTERP_CUBICSPLINE) count *= 3;
            int32_t output = fy_gltf_floats(g, ch->values, count, (int)width, 0, false);
            json_t *sampler = json_object();
            fy_gltf_json_set(g, sampler, "input", json_integer(input));
            if (ch->interpolation == FERRY_INTERP_STEP) fy_gltf_json_set(g, sampler, "interpolation", json_string("STEP"));
            if (ch->interpolation == FERRY_INTERP_CUBICSPLINE)
                fy_gltf_json_set(g, sampler, "interpolation", json_string("CUBICSPLINE"));
            fy_gltf_json_set(g, sampler, "output", json_integer(output));
            fy_gltf_json_push(g, samplers, sampler);

            json_t *channel = json_object(), *target = json_object();
            fy_gltf_json_set(g, channel, "sampler", json_integer((json_int_t)c));
            fy_gltf_json_set(g, target, "node", json_integer(ch->node));
            fy_gltf_json_set(g, target, "path", json_string(path_names[ch->path]));
            fy_gltf_json_set(g, channel, "target", target);
            fy_gltf_json_push(g, channels, channel);
        }
        fy_gltf_json_set(g, o, "channels", channels);
        fy_gltf_json_set(g, o, "samplers", samplers);
        fy_gltf_json_set_extras(g, o, an->extras);
        fy_gltf_json_push(g, animations, o);
    }
    fy_gltf_json_set_array(g, g->root, "animations", animations);
}

static bool any_unlit(const ferry_scene *s)
{
    for (size_t i = 0; i < s->material_count; i++)
        if (s->materials[i].unlit) return true;
    return false;
}

ferry_result fy_gltf_build(fy_gltf *g, const ferry_scene *scene, const char *bin_uri,
                           const char *const *image_uris, ferry_buffer *bin, bool compact, ferry_error *err)
{
    memset(g, 0, sizeof *g);
    g->scene = scene;
    g->bin = bin;
    g->compact = compact;
    ferry_result r = fy_gltf_check_scene(scene, err);
    if (r != FERRY_OK) return r;

    g->root = json_object();
    g->buffer_views = json_array();
    g->accessors = json_array();
    if (!g->root || !g->buffer_views || !g->accessors) g->nomem = true;

    json_t *asset = json_object();
    fy_gltf_json_set(g, asset, "version", json_string("2.0"));
    fy_gltf_json_set(g, asset, "generator",
                scene->generator ? fy_gltf_json_text(scene->generator) : json_string("ferry " FERRY_VERSION_STRING));
    fy_gltf_json_set(g, g->root, "asset", asset);

    json_t *used = json_array();
    if (scene->light_count) fy_gltf_json_push(g, used, json_string("KHR_lights_punctual"));
    if (any_unlit(scene)) fy_gltf_json_push(g, used, json_string("KHR_materials_unlit"));
    fy_gltf_json_set_array(g, g->root, "extensionsUsed", used);
    json_t *root_extensions = json_object();
    build_lights(g, root_extensions);
    if (json_object_size(root_extensions))
        fy_gltf_json_set(g, g->root, "extensions", root_extensions);
    else
        json_decref(root_extensions);

    build_nodes(g);
    build_meshes(g);
    build_materials(g);
    build_images(g, image_uris);
    build_skins(g);
    build_animations(g);

    if (fy_gltf_bin_size(g)) {
        json_t *buffers = json_array(), *buffer = json_object();
        fy_gltf_json_set(g, buffer, "byteLength", json_integer((json_int_t)fy_gltf_bin_size(g)));
        if (bin_uri) fy_gltf_json_set(g, buffer, "uri", fy_gltf_json_text(bin_uri));
        fy_gltf_json_push(g, buffers, buffer);
        fy_gltf_json_set(g, g->root, "buffers", buffers);
    }
    /* Attached last: the builders above fill them. */
    fy_gltf_json_set_array(g, g->root, "bufferViews", json_incref(g->buffer_views));
    fy_gltf_json_set_array(g, g->root, "accessors", json_incref(g->accessors));
    if (g->nomem || bin->failed) {
        fy_error_set(err, FERRY_ERR_NOMEM, FERRY_NO_OFFSET, NULL, "out of memory building the glTF document");
        return FERRY_ERR_NOMEM;
    }
    return FERRY_OK;
}

void fy_gltf_release(fy_gltf *g)
{
    json_decref(g->root);
    json_decref(g->buffer_views);
    json_decref(g->accessors);
    free(g->raw);
    g->raw = NULL;
    free(g->spans);
    g->spans = NULL;
    g->span_count = g->span_capacity = g->span_bytes = 0;
    g->raw_count = g->raw_capacity = 0;
    g->root = g->buffer_views = g->accessors = NULL;
}
