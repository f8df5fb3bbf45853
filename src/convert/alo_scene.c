/* ALO model -> ferry_scene: the node tree (axis root, bones, objects,
 * proxies, dazzles, lights) and the name tags. Meshes,
 * materials and animations are in the alo_scene_*.c files beside this one;
 * docs/formats/gltf-export.md explains every mapping. */
#include "alo_scene_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* The number after `tag` when name[0..*len) ends in tag<digits> (at most 6
 * digits), which then shortens *len to before the tag; else -1. */
static long peel_tag(const char *name, size_t *len, const char *tag)
{
    size_t n = *len, tl = strlen(tag);
    size_t d = n;
    while (d > 0 && name[d - 1] >= '0' && name[d - 1] <= '9') d--;
    if (d == n || d < tl || n - d > 6) return -1;
    for (size_t i = 0; i < tl; i++) {
        char c = name[d - tl + i];
        if (c >= 'a' && c <= 'z') c = (char)(c - 'a' + 'A');
        if (c != tag[i]) return -1;
    }
    long v = 0;
    for (size_t i = d; i < n; i++) v = v * 10 + (name[i] - '0');
    *len = d - tl;
    return v;
}

void fy_alo_name_tags(const char *name, long *lod, long *alt, size_t *base_length)
{
    *lod = *alt = -1;
    size_t len = name ? strlen(name) : 0;
    /* Two passes take "_LOD1_ALT0" and "_ALT0_LOD1" alike. */
    for (int pass = 0; pass < 2 && name; pass++) {
        if (*lod < 0) *lod = peel_tag(name, &len, "_LOD");
        if (*alt < 0) *alt = peel_tag(name, &len, "_ALT");
    }
    *base_length = len;
}

void fy_json_name_tags(ferry_arena *ja, ferry_json *obj, const char *name)
{
    if (!name) return;
    long lod, alt;
    size_t base;
    fy_alo_name_tags(name, &lod, &alt, &base);
    if (lod >= 0) fy_jset(ja, obj, "lod", fy_jinteger(ja, lod));
    if (alt >= 0) fy_jset(ja, obj, "alt", fy_jinteger(ja, alt));
    if ((name[0] == 'F' || name[0] == 'f') && (name[1] == 'C' || name[1] == 'c') && name[2] == '_')
        fy_jset(ja, obj, "faction_colored", fy_jbool(ja, true));
}

void *fy_build_alloc(fy_alo_build *b, size_t count, size_t size) { return fy_scene_alloc(b->arena, b->err, count, size); }

/* ---- nodes ---- */

static const char *const billboard_names[] = {"none", "parallel", "face", "z_view", "z_wind", "z_light", "sun_glow", "sun"};

static ferry_scene_node *new_node(fy_alo_build *b, const char *name, int32_t parent, int32_t *index)
{
    ferry_scene *s = b->scene;
    if (s->node_count >= b->node_capacity) {
        fy_error_set(b->err, FERRY_ERR_ARGUMENT, FERRY_NO_OFFSET, "", "node count exceeded its estimate");
        return NULL;
    }
    ferry_scene_node *n = &s->nodes[s->node_count];
    ferry_scene_node_init(n);
    n->name = name ? ferry_arena_strdup(b->arena, name) : NULL;
    FY_SET_REF(n, parent, parent);
    *index = (int32_t)s->node_count++;
    return n;
}

/* The scene's name (options->name, "model" without one), in its arena. */
static char *model_name(fy_alo_build *b)
{
    const char *name = b->opts ? b->opts->name : NULL;
    return ferry_arena_strdup(b->arena, name && *name ? name : "model");
}

static int32_t bone_parent_node(const fy_alo_build *b, uint32_t bone)
{
    return bone < b->model->skeleton.bone_count ? b->bone_node[bone] : b->root_node;
}

static bool add_bones(fy_alo_build *b)
{
    ferry_arena *ja = b->arena;
    const ferry_alo_skeleton *sk = &b->model->skeleton;
    for (size_t i = 0; i < sk->bone_count; i++) {
        const ferry_alo_bone *bone = &sk->bones[i];
        /* A parent not below the bone cannot come first in the node list;
         * ferry_alo_bone_world_matrices treats it as no parent too. */
        int32_t parent = (bone->parent >= 0 && (size_t)bone->parent < i) ? b->bone_node[bone->parent] : b->root_node;
        int32_t idx;
        ferry_scene_node *n = new_node(b, bone->name, parent, &idx);
        if (!n) return false;
        b->bone_node[i] = idx;
        float local[16];
        ferry_alo_bone_local_matrix(bone, local);
        bool clean = fy_mat4_to_trs(local, n->translation, n->rotation, n->scale, FY_TRS_SHEAR_TOLERANCE);
        bool finite = true;
        for (int k = 0; k < 4; k++) finite &= isfinite(n->rotation[k]) && (k == 3 || (isfinite(n->translation[k]) && isfinite(n->scale[k])));
        if (!finite) {
            /* A damaged matrix: identity keeps the file writable; extras keep the numbers. */
            ferry_scene_node_init(n);
            n->name = ferry_arena_strdup(b->arena, bone->name ? bone->name : "");
            FY_SET_REF(n, parent, parent);
            clean = false;
        }
        ferry_json *x = fy_jobject(ja);
        fy_jset(ja, x, "alamo", fy_jstring(ja, "bone"));
        fy_jset(ja, x, "bone_index", fy_jinteger(ja, (int64_t)i));
        fy_jset(ja, x, "visible", fy_jbool(ja, bone->visible != 0));
        if (bone->billboard != 0) {
            fy_jset(ja, x, "billboard", bone->billboard < 8 ? fy_jstring(ja, billboard_names[bone->billboard])
                                                                    : fy_jinteger(ja, bone->billboard));
        }
        if (!clean) fy_jset(ja, x, "matrix", fy_jfloats(ja, bone->matrix, 12));
        fy_json_name_tags(ja, x, bone->name);
        n->extras = x;
    }
    return true;
}

static bool add_light(fy_alo_build *b, const ferry_alo_light *light, int32_t parent)
{
    ferry_arena *ja = b->arena;
    ferry_scene *s = b->scene;
    ferry_scene_light *l = &s->lights[s->light_count];
    l->name = light->name ? ferry_arena_strdup(b->arena, light->name) : NULL;
    for (int k = 0; k < 3; k++) l->color[k] = isfinite(light->color[k]) ? fminf(fmaxf(light->color[k], 0.0f), 1.0f) : 1.0f;
    l->intensity = isfinite(light->intensity) && light->intensity > 0 ? light->intensity : 0.0f;
    switch (light->type) {
    case FERRY_ALO_LIGHT_DIRECTIONAL: l->type = FERRY_LIGHT_DIRECTIONAL; break;
    case FERRY_ALO_LIGHT_SPOT: l->type = FERRY_LIGHT_SPOT; break;
    default: l->type = FERRY_LIGHT_POINT; break;
    }
    if (l->type != FERRY_LIGHT_DIRECTIONAL && isfinite(light->far_attenuation_end) && light->far_attenuation_end > 0)
        l->range = light->far_attenuation_end;
    if (l->type == FERRY_LIGHT_SPOT) {
        /* Hotspot and falloff are full cone angles (3ds Max's; the corpus'
         * one spot has Max's defaults, 43 and 45 degrees); glTF wants half
         * angles, outer at most pi/2 and inner below outer. */
        const float half_pi = 1.5707963f;
        float outer = isfinite(light->falloff_size) && light->falloff_size > 0 ? light->falloff_size / 2 : 0.7853982f;
        if (outer > half_pi) outer = half_pi;
        float inner = isfinite(light->hotspot_size) && light->hotspot_size > 0 ? light->hotspot_size / 2 : 0.0f;
        if (inner >= outer) inner = outer * 0.999f;
        l->inner_cone_angle = inner;
        l->outer_cone_angle = outer;
    }
    int32_t idx;
    ferry_scene_node *n = new_node(b, light->name, parent, &idx);
    if (!n) return false;
    /* Alamo lights shine down the local -Z of their bone, as glTF's do, so
     * the light node needs no rotation of its own. */
    FY_SET_REF(n, light, (int64_t)s->light_count++);
    ferry_json *x = fy_jobject(ja);
    static const char *const types[] = {"omni", "directional", "spot"};
    fy_jset(ja, x, "alamo", fy_jstring(ja, "light"));
    fy_jset(ja, x, "type", light->type < 3 ? fy_jstring(ja, types[light->type]) : fy_jinteger(ja, light->type));
    fy_jset(ja, x, "intensity", fy_jreal_or_null(ja, light->intensity));
    fy_jset(ja, x, "far_attenuation_start", fy_jreal_or_null(ja, light->far_attenuation_start));
    fy_jset(ja, x, "far_attenuation_end", fy_jreal_or_null(ja, light->far_attenuation_end));
    fy_jset(ja, x, "hotspot_size", fy_jreal_or_null(ja, light->hotspot_size));
    fy_jset(ja, x, "falloff_size", fy_jreal_or_null(ja, light->falloff_size));
    n->extras = x;
    return true;
}

/* Why the game does not draw a mesh when the model appears (0: it does). */
enum {
    NOT_DRAWN_HIDDEN = 1,      /* 0x402 isHidden */
    NOT_DRAWN_HIDDEN_BONE = 2, /* its bone or one above it is not visible */
    NOT_DRAWN_SHADOW = 4,      /* a shadow-volume shader */
    NOT_DRAWN_COLLISION = 8,   /* a collision shader */
    NOT_DRAWN_LOWER_LOD = 16,  /* a less detailed level of its _LOD group */
    NOT_DRAWN_ALT = 32         /* an alternate _ALT1 and up */
};
static const char *const not_drawn_names[] = {"hidden", "hidden_bone", "shadow_volume", "collision", "lower_lod", "alt"};

static bool add_mesh_node(fy_alo_build *b, const ferry_alo_mesh *mesh, uint32_t bone, bool connected, unsigned why)
{
    ferry_arena *ja = b->arena;
    bool skinned = fy_alo_mesh_is_skinned(mesh) && b->skin >= 0;
    int32_t mi = fy_alo_mesh(b, mesh, skinned, bone);
    if (mi == -1) return false;
    if (mi < 0) {
        /* Nothing to draw: the node stays (it names the mesh), without mesh or skin. */
        skinned = false;
    }
    /* A skinned mesh node is a root of the scene with no transform: glTF
     * ignores the node's own transform for skinned meshes, and the
     * validator warns when a parent could seem to move it. */
    int32_t idx;
    ferry_scene_node *n = new_node(b, mesh->name, skinned ? -1 : bone_parent_node(b, bone), &idx);
    if (!n) return false;
    FY_SET_REF(n, mesh, mi);
    if (skinned) FY_SET_REF(n, skin, b->skin);
    ferry_json *x = fy_jobject(ja);
    fy_jset(ja, x, "alamo", fy_jstring(ja, "mesh"));
    fy_jset(ja, x, "hidden", fy_jbool(ja, mesh->is_hidden != 0));
    fy_jset(ja, x, "collision_enabled", fy_jbool(ja, mesh->collision_enabled != 0));
    fy_jset(ja, x, "bounds_min", fy_jfloats(ja, mesh->bounds_min, 3));
    fy_jset(ja, x, "bounds_max", fy_jfloats(ja, mesh->bounds_max, 3));
    if (bone < b->model->skeleton.bone_count && b->model->skeleton.bones[bone].name)
        fy_jset(ja, x, "bone", fy_jstring(ja, b->model->skeleton.bones[bone].name));
    if (!connected) fy_jset(ja, x, "unconnected", fy_jbool(ja, true));
    if (why & NOT_DRAWN_SHADOW) fy_jset(ja, x, "shadow_volume", fy_jbool(ja, true));
    if (why & NOT_DRAWN_COLLISION) fy_jset(ja, x, "collision_mesh", fy_jbool(ja, true));
    if (skinned) fy_jset(ja, x, "skinned", fy_jbool(ja, true));
    fy_json_name_tags(ja, x, mesh->name);
    if (why) {
        /* Kept by `all`: why the game does not draw it. */
        ferry_json *reasons = fy_jarray(ja);
        for (size_t k = 0; k < sizeof not_drawn_names / sizeof *not_drawn_names; k++)
            if (why & (1u << k)) fy_jpush(ja, reasons, fy_jstring(ja, not_drawn_names[k]));
        fy_jset(ja, x, "not_drawn", reasons);
    }
    n->extras = x;
    return true;
}

static unsigned not_drawn(const fy_alo_build *b, size_t mesh_index, uint32_t bone)
{
    const ferry_alo_model *m = b->model;
    const ferry_alo_mesh *mesh = &m->meshes[mesh_index];
    unsigned why = 0;
    if (mesh->is_hidden) why |= NOT_DRAWN_HIDDEN;
    for (size_t i = 0; i < mesh->submesh_count; i++) {
        const char *sh = mesh->submeshes[i].material.shader;
        if (fy_alo_shader_is(sh, "shadow")) why |= NOT_DRAWN_SHADOW;
        if (fy_alo_shader_is(sh, "collision")) why |= NOT_DRAWN_COLLISION;
    }
    if (b->lower_lod && b->lower_lod[mesh_index]) why |= NOT_DRAWN_LOWER_LOD;
    long lod, alt;
    size_t base;
    fy_alo_name_tags(mesh->name, &lod, &alt, &base);
    if (alt > 0) why |= NOT_DRAWN_ALT;
    /* A hidden bone hides what hangs on it and below it; parents come
     * first, so the walk up ends. Two kinds of mesh are drawn whatever their
     * bones say, because shipped units would otherwise show nothing: a
     * skinned mesh (placed by its skin; exporters store the skeleton's bones
     * hidden, e.g. RV_GALLOFREEHTT26's only mesh hangs on the hidden b_hip)
     * and the damage state `_ALT0` (the game picks the state and shows state
     * 0 at full health; EV_2MTANK keeps its hull and turret ALT0 on hidden
     * bones and no animation turns them on). */
    if (alt == 0 || fy_alo_mesh_is_skinned(mesh)) return why;
    for (size_t steps = 0; bone < m->skeleton.bone_count && steps <= m->skeleton.bone_count; steps++) {
        const ferry_alo_bone *bn = &m->skeleton.bones[bone];
        if (!bn->visible) {
            why |= NOT_DRAWN_HIDDEN_BONE;
            break;
        }
        if (bn->parent < 0 || (uint32_t)bn->parent >= bone) break;
        bone = (uint32_t)bn->parent;
    }
    return why;
}

/* A level-of-detail group: meshes whose names differ only in _LOD<n> (same
 * base ignoring case, same _ALT). The highest n is the most detailed: in
 * every group of the corpus it has the most triangles (137 against 2,250 in
 * the largest difference measured), so the others are marked lower_lod. */
typedef struct lod_entry {
    const char *name;
    size_t base;
    long lod, alt;
    size_t mesh;
} lod_entry;

static int lod_entry_cmp(const void *pa, const void *pb)
{
    const lod_entry *a = pa, *b = pb;
    size_t n = a->base < b->base ? a->base : b->base;
    int c = strncasecmp(a->name, b->name, n);
    if (c) return c;
    if (a->base != b->base) return a->base < b->base ? -1 : 1;
    if (a->alt != b->alt) return a->alt < b->alt ? -1 : 1;
    if (a->lod != b->lod) return a->lod < b->lod ? -1 : 1;
    return a->mesh < b->mesh ? -1 : a->mesh > b->mesh;
}

static bool mark_lower_lods(fy_alo_build *b)
{
    const ferry_alo_model *m = b->model;
    b->lower_lod = fy_build_alloc(b, m->mesh_count, sizeof *b->lower_lod);
    if (!b->lower_lod) return false;
    lod_entry *e = malloc((m->mesh_count ? m->mesh_count : 1) * sizeof *e);
    if (!e) {
        fy_error_set(b->err, FERRY_ERR_NOMEM, FERRY_NO_OFFSET, "", "out of memory building the scene");
        return false;
    }
    size_t n = 0;
    for (size_t i = 0; i < m->mesh_count; i++) {
        const char *name = m->meshes[i].name;
        long lod, alt;
        size_t base;
        fy_alo_name_tags(name, &lod, &alt, &base);
        if (lod < 0) continue;
        e[n++] = (lod_entry){name, base, lod, alt, i};
    }
    qsort(e, n, sizeof *e, lod_entry_cmp);
    for (size_t i = 0; i < n;) {
        size_t j = i + 1;
        while (j < n && e[j].base == e[i].base && e[j].alt == e[i].alt && strncasecmp(e[j].name, e[i].name, e[i].base) == 0)
            j++;
        /* Sorted by level: the group's last is its most detailed. */
        for (size_t k = i; k < j; k++) b->lower_lod[e[k].mesh] = e[k].lod < e[j - 1].lod;
        i = j;
    }
    free(e);
    return true;
}

/* The bone an object hangs on: its first connection (the game keeps one;
 * validation warns about a second), UINT32_MAX when none. */
static uint32_t object_bone(const ferry_alo_model *m, size_t object, bool *connected)
{
    for (size_t c = 0; c < m->connections.object_count; c++) {
        if (m->connections.objects[c].object == object) {
            *connected = true;
            return m->connections.objects[c].bone;
        }
    }
    *connected = false;
    return UINT32_MAX;
}

/* not_drawn of every object's mesh (0 for other objects), judged once for
 * the skin and the objects. Returns whether an exported mesh is skinned. */
static bool judge_objects(const fy_alo_build *b, unsigned *why)
{
    const ferry_alo_model *m = b->model;
    bool any_skinned = false;
    size_t count = ferry_alo_object_count(m);
    for (size_t o = 0; o < count; o++) {
        ferry_alo_object obj = ferry_alo_object_at(m, o);
        why[o] = 0;
        if (obj.kind != FERRY_ALO_OBJECT_MESH || obj.index >= m->mesh_count) continue;
        bool connected;
        why[o] = not_drawn(b, obj.index, object_bone(m, o, &connected));
        if (why[o] == 0 || b->opts->all) any_skinned |= fy_alo_mesh_is_skinned(&m->meshes[obj.index]);
    }
    return any_skinned;
}

/* why: judge_objects's; a mesh the game does not draw is left out unless `all`. */
static bool add_objects(fy_alo_build *b, const unsigned *why, ferry_json *left_out)
{
    ferry_arena *ja = b->arena;
    const ferry_alo_model *m = b->model;
    size_t count = ferry_alo_object_count(m);
    for (size_t o = 0; o < count; o++) {
        bool connected;
        uint32_t bone = object_bone(m, o, &connected);
        ferry_alo_object obj = ferry_alo_object_at(m, o);
        if (obj.kind == FERRY_ALO_OBJECT_MESH) {
            if (obj.index >= m->mesh_count) continue;
            if (why[o] && !b->opts->all) {
                const char *name = m->meshes[obj.index].name;
                fy_jpush(ja, left_out, fy_jstring(ja, name ? name : ""));
                b->meshes_left_out++;
                continue;
            }
            if (!add_mesh_node(b, &m->meshes[obj.index], bone, connected, why[o])) return false;
            b->meshes_added++;
        } else {
            if (obj.index >= m->light_count) continue;
            if (!add_light(b, &m->lights[obj.index], bone_parent_node(b, bone))) return false;
        }
    }
    return true;
}

static bool add_proxies_and_dazzles(fy_alo_build *b)
{
    ferry_arena *ja = b->arena;
    const ferry_alo_connections *cn = &b->model->connections;
    for (size_t i = 0; i < cn->proxy_count; i++) {
        const ferry_alo_proxy *p = &cn->proxies[i];
        int32_t idx;
        ferry_scene_node *n = new_node(b, p->name, bone_parent_node(b, p->bone), &idx);
        if (!n) return false;
        ferry_json *x = fy_jobject(ja);
        fy_jset(ja, x, "alamo", fy_jstring(ja, "proxy"));
        fy_jset(ja, x, "proxy", fy_jstring(ja, p->name ? p->name : ""));
        fy_jset(ja, x, "hidden", fy_jbool(ja, p->is_hidden != 0));
        fy_jset(ja, x, "alt_decrease_stay_hidden", fy_jbool(ja, p->alt_decrease_stay_hidden != 0));
        fy_json_name_tags(ja, x, p->name);
        n->extras = x;
    }
    for (size_t i = 0; i < cn->dazzle_count; i++) {
        const ferry_alo_dazzle *d = &cn->dazzles[i];
        int32_t idx;
        ferry_scene_node *n = new_node(b, d->name, bone_parent_node(b, d->bone), &idx);
        if (!n) return false;
        for (int k = 0; k < 3; k++) n->translation[k] = isfinite(d->position[k]) ? d->position[k] : 0.0f;
        ferry_json *x = fy_jobject(ja);
        fy_jset(ja, x, "alamo", fy_jstring(ja, "dazzle"));
        fy_jset(ja, x, "color", fy_jfloats(ja, d->color, 3));
        fy_jset(ja, x, "position", fy_jfloats(ja, d->position, 3));
        fy_jset(ja, x, "radius", fy_jreal_or_null(ja, d->radius));
        fy_jset(ja, x, "texture", fy_jstring(ja, d->texture ? d->texture : ""));
        fy_jset(ja, x, "texture_x", fy_jinteger(ja, d->texture_x));
        fy_jset(ja, x, "texture_y", fy_jinteger(ja, d->texture_y));
        fy_jset(ja, x, "texture_size", fy_jinteger(ja, d->texture_size));
        fy_jset(ja, x, "frequency", fy_jreal_or_null(ja, d->frequency));
        fy_jset(ja, x, "phase", fy_jreal_or_null(ja, d->phase));
        fy_jset(ja, x, "night_only", fy_jbool(ja, d->night_only != 0));
        fy_jset(ja, x, "hidden", fy_jbool(ja, d->is_hidden != 0));
        fy_jset(ja, x, "bias", fy_jreal_or_null(ja, (d->present & FERRY_ALO_DAZZLE_HAS_BIAS) ? d->bias : 1.0f));
        n->extras = x;
    }
    return true;
}

/* Light nodes to come: light objects in the object list. */
static size_t count_lights(const ferry_alo_model *m)
{
    size_t n = 0, count = ferry_alo_object_count(m);
    for (size_t o = 0; o < count; o++) {
        ferry_alo_object obj = ferry_alo_object_at(m, o);
        n += obj.kind == FERRY_ALO_OBJECT_LIGHT && obj.index < m->light_count;
    }
    return n;
}

ferry_result ferry_alo_to_scene(const ferry_alo_model *model, const ferry_alo_scene_options *options,
                                ferry_scene **out, ferry_error *err)
{
    ferry_error local_err;
    if (!fy_convert_begin(&err, &local_err, out, model, "model")) return err->code;
    ferry_alo_scene_options no_options;
    options = FY_OPTIONS_OR_DEFAULTS(options, no_options);

    fy_alo_build b;
    memset(&b, 0, sizeof b);
    b.model = model;
    b.opts = options;
    b.err = err;
    b.skin = -1;
    ferry_scene *s = fy_scene_new(err);
    if (!s) return FERRY_ERR_NOMEM;
    b.arena = s->arena;
    b.scene = s;
    ferry_arena *ja = b.arena;

    const ferry_alo_skeleton *sk = &model->skeleton;
    size_t objects = ferry_alo_object_count(model);
    /* Capacities from the object list: a hand-built list may name a mesh twice. */
    size_t submeshes = 0, mesh_objects = 0;
    for (size_t o = 0; o < objects; o++) {
        ferry_alo_object obj = ferry_alo_object_at(model, o);
        if (obj.kind != FERRY_ALO_OBJECT_MESH || obj.index >= model->mesh_count) continue;
        mesh_objects++;
        submeshes += model->meshes[obj.index].submesh_count;
    }
    b.node_capacity = 1 + sk->bone_count + objects + model->connections.proxy_count + model->connections.dazzle_count;
    b.mesh_capacity = mesh_objects;
    b.material_capacity = submeshes;
    /* Per sub-mesh at most: base colour, a colorize mask, a normal map. */
    b.image_capacity = 3 * submeshes;
    s->nodes = fy_build_alloc(&b, b.node_capacity, sizeof *s->nodes);
    s->meshes = fy_build_alloc(&b, b.mesh_capacity, sizeof *s->meshes);
    s->materials = fy_build_alloc(&b, b.material_capacity, sizeof *s->materials);
    s->images = fy_build_alloc(&b, b.image_capacity, sizeof *s->images);
    s->lights = fy_build_alloc(&b, count_lights(model), sizeof *s->lights);
    b.bone_node = fy_build_alloc(&b, sk->bone_count, sizeof *b.bone_node);
    b.bone_world = fy_build_alloc(&b, sk->bone_count, 16 * sizeof *b.bone_world);
    bool ok = s->nodes && s->meshes && s->materials && s->images && s->lights && b.bone_node && b.bone_world;

    if (ok) {
        char *name = model_name(&b);
        s->name = name;
        ferry_alo_bone_world_matrices(model, b.bone_world);
        /* The axis change: Alamo is right-handed Z-up (3ds Max's frame; the
         * ships face -Y), glTF right-handed Y-up facing +Z. A rotation of
         * -90 degrees about X maps Z to Y and -Y to +Z. */
        size_t len = strlen(name ? name : "") + 32;
        char *root_name = ferry_arena_alloc(b.arena, len);
        ok = root_name != NULL;
        if (ok) {
            snprintf(root_name, len, "%s (Z-up to Y-up)", name ? name : "model");
            ferry_scene_node *root = new_node(&b, root_name, -1, &b.root_node);
            ok = root != NULL;
            if (ok) {
                root->rotation[0] = -0.70710678f;
                root->rotation[3] = 0.70710678f;
                ferry_json *x = fy_jobject(ja);
                fy_jset(ja, x, "alamo", fy_jstring(ja, "axis_root"));
                root->extras = x;
            }
        }
    }
    ok = ok && add_bones(&b);
    ok = ok && mark_lower_lods(&b);
    unsigned *why = ok ? fy_build_alloc(&b, objects, sizeof *why) : NULL;
    ok = ok && why != NULL;
    /* A skin only when a skinned mesh is exported (else it would be unused
     * by default), or when the caller wants every bone a joint. */
    bool skinned = ok && judge_objects(&b, why);
    if (ok && (skinned || options->skin_all_bones) && sk->bone_count > 0) ok = fy_alo_make_skin(&b);
    ferry_json *left_out = fy_jarray(ja);
    ok = ok && add_objects(&b, why, left_out);
    ok = ok && add_proxies_and_dazzles(&b);
    ok = ok && fy_alo_animations(&b);
    ferry_json *missing = fy_jarray(ja);
    const char **missing_names = NULL;
    size_t missing_count = 0;
    if (ok) {
        /* Not found, or found but unusable: "NAME (could not be decoded)". */
        for (size_t i = 0; i < b.texture_count; i++) missing_count += b.textures[i].missing || b.textures[i].unusable;
        missing_names = fy_build_alloc(&b, missing_count, sizeof *missing_names);
        ok = missing_names != NULL;
        for (size_t i = 0, k = 0; ok && i < b.texture_count; i++) {
            const fy_texture_entry *t = &b.textures[i];
            if (!t->missing && !t->unusable) continue;
            if (t->unusable) {
                size_t len = strlen(t->name) + strlen(t->unusable) + 4;
                char *named = ferry_arena_alloc(b.arena, len);
                if (named) snprintf(named, len, "%s (%s)", t->name, t->unusable);
                missing_names[k] = named;
            } else {
                missing_names[k] = ferry_arena_strdup(b.arena, t->name);
            }
            ok = missing_names[k] != NULL;
            if (ok) fy_jpush(ja, missing, fy_jstring(ja, missing_names[k]));
            k++;
        }
    }
    if (ok) {
        ferry_json *x = fy_jobject(ja);
        fy_jset(ja, x, "source", fy_jstring(ja, "alamo model"));
        fy_jset(ja, x, "bone_count", fy_jinteger(ja, (int64_t)sk->bone_count));
        fy_jset(ja, x, "view", fy_jstring(ja, options->all ? "all" : "game"));
        if (fy_jcount(left_out)) fy_jset(ja, x, "left_out", left_out);
        if (fy_jcount(missing)) fy_jset(ja, x, "missing_textures", missing);
        s->extras = x;
    }
    if (ok && options->report) {
        ferry_alo_scene_report *r = options->report;
        r->meshes = b.meshes_added;
        r->meshes_left_out = b.meshes_left_out;
        r->missing_textures = missing_names;
        r->missing_texture_count = missing_count;
    }
    fy_alo_textures_free(&b);
    return fy_convert_end(s, ok, out, err);
}
