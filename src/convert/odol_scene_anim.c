/* ODOL skeleton -> glTF skin, animation classes -> glTF animations.
 *
 * Each converted LOD that stores bone references for its vertices gets its
 * own copy of the skeleton: a static root joint (named after the skeleton)
 * under the LOD node, and under it a joint per bone, nested as the
 * skeleton's parent names say. A bone's joint sits at its pivot (the axis
 * point of the first class that moves it in that LOD, else its parent's),
 * with no rotation, so a rotation about that pivot is a rotation key alone.
 * Each class becomes one animation that sweeps its source from min to max
 * value in SWEEP_SECONDS. docs/formats/odol-gltf.md, "Skeleton and
 * animations", gives the evidence for the axes, the rotation sense, the
 * units of translations and the hide rule. */
#include "odol_scene_anim.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SWEEP_SECONDS 2.0f
#define PI_F 3.14159265358979f
/* Key spacing of a rotation: slerp between keys about one axis is exact, and
 * under a quarter turn it never takes the other way round; when the joint
 * also translates (a pivot other than its own), keys every 5 degrees keep
 * the linear translation within 0.1% of the arc's radius of it. */
#define ROTATION_STEP (PI_F / 4)
#define ARC_STEP (PI_F / 36)
#define MAX_KEYS 4096

typedef struct lod_skel {
    bool on;
    int32_t root_node;  /* the static root joint */
    int32_t *bone_node; /* per skeleton bone */
    float *pivot;       /* per bone, 3 floats, glTF axes */
    int32_t *pivot_class; /* per bone: the class its pivot comes from, -1: inherited */
    int32_t lod_node, skin;
    bool all_skinned; /* every primitive of the LOD got joints */
} lod_skel;

struct fy_odol_anim {
    const ferry_odol_model *m;
    ferry_scene *s;
    ferry_arena *arena;
    ferry_error *err;
    bool animations;
    uint32_t bones;
    int32_t *parent; /* per bone: parent bone, -1 for a root (or a broken link) */
    uint32_t *order; /* bones, each after its parent */
    lod_skel *lods;  /* per model LOD */
    uint32_t skins, joints;
};

static bool fail(fy_odol_anim *a, const char *path, const char *fmt, unsigned x, unsigned y)
{
    fy_error_set(a->err, FERRY_ERR_MALFORMED, FERRY_NO_OFFSET, path, fmt, x, y);
    return false;
}

static void *alloc(fy_odol_anim *a, size_t count, size_t size) { return fy_scene_alloc(a->arena, a->err, count, size); }

static const char *str(const char *s) { return s ? s : ""; }

static const float mirror[3] = {1, 1, -1}; /* engine (x, y, z) -> glTF (x, y, -z) */

/* ---- the skeleton's shape ---- */

/* Parents by name (the first bone of that name); a name no bone has, or a
 * link that would close a loop, makes a root. Then an order with every
 * parent before its children (real files list them so; built ones need not). */
static bool plan_bones(fy_odol_anim *a)
{
    const ferry_odol_skeleton *sk = &a->m->info.skeleton;
    uint32_t n = a->bones;
    a->parent = malloc(n * sizeof *a->parent);
    a->order = malloc(n * sizeof *a->order);
    uint8_t *state = calloc(n, 1);
    if (!a->parent || !a->order || !state) {
        free(state);
        fy_error_set(a->err, FERRY_ERR_NOMEM, FERRY_NO_OFFSET, "", "out of memory planning the skeleton");
        return false;
    }
    for (uint32_t b = 0; b < n; b++) {
        const char *pn = str(sk->bones[b].parent);
        a->parent[b] = -1;
        if (!*pn) continue;
        for (uint32_t k = 0; k < n; k++)
            if (k != b && strcmp(str(sk->bones[k].name), pn) == 0) {
                a->parent[b] = (int32_t)k;
                break;
            }
    }
    /* Break loops: walk up from each bone; meeting itself means a loop. */
    for (uint32_t b = 0; b < n; b++) {
        int32_t p = a->parent[b];
        for (uint32_t steps = 0; p >= 0 && steps <= n; steps++) {
            if ((uint32_t)p == b) {
                a->parent[b] = -1;
                break;
            }
            p = a->parent[p];
        }
    }
    /* Order: repeatedly take bones whose parent is placed (n passes at most). */
    uint32_t placed = 0;
    while (placed < n) {
        uint32_t before = placed;
        for (uint32_t b = 0; b < n; b++)
            if (!state[b] && (a->parent[b] < 0 || state[a->parent[b]])) {
                state[b] = 1;
                a->order[placed++] = b;
            }
        if (placed == before) break; /* cannot happen: loops are broken */
    }
    free(state);
    return true;
}

static uint32_t refs_count(const uint8_t *r) { return fy_load_u32le(r); }

/* ---- planning ---- */

static bool check_lod(fy_odol_anim *a, uint32_t l, bool *skinned)
{
    const ferry_odol_lod *lod = &a->m->lods[l];
    char path[96];
    *skinned = false;
    uint32_t n = lod->vertex_bone_refs.count;
    if (!n || !a->bones) return true;
    if (!lod->vertex_bone_refs.data || n != lod->positions.count) {
        snprintf(path, sizeof path, "lods[%u]/vertex_bone_refs", (unsigned)l);
        return fail(a, path, "%u vertex bone references for %u vertices (one each expected)", n,
                    lod->positions.count);
    }
    const ferry_odol_int_array *sub = &lod->sub_skeleton_to_skeleton;
    for (uint32_t i = 0; i < sub->count; i++)
        if (!sub->values || sub->values[i] < 0 || (uint32_t)sub->values[i] >= a->bones) {
            snprintf(path, sizeof path, "lods[%u]/sub_skeleton_to_skeleton[%u]", (unsigned)l, (unsigned)i);
            return fail(a, path, "names bone %u, but the skeleton has %u bones",
                        sub->values ? (unsigned)sub->values[i] : 0u, a->bones);
        }
    bool any = false;
    for (uint32_t v = 0; v < n; v++) {
        const uint8_t *r = lod->vertex_bone_refs.data + (size_t)v * 12;
        uint32_t c = refs_count(r);
        if (c > 4) {
            snprintf(path, sizeof path, "lods[%u]/vertex_bone_refs[%u]", (unsigned)l, (unsigned)v);
            return fail(a, path, "the vertex names %u bones; at most %u are stored", c, 4);
        }
        for (uint32_t k = 0; k < c; k++)
            if (r[4 + 2 * k] >= sub->count) {
                snprintf(path, sizeof path, "lods[%u]/vertex_bone_refs[%u]", (unsigned)l, (unsigned)v);
                return fail(a, path, "names sub-skeleton bone %u, but the LOD has %u", r[4 + 2 * k], sub->count);
            }
        any |= c > 0;
    }
    *skinned = any;
    return true;
}

static bool check_animations(fy_odol_anim *a)
{
    const ferry_odol_animations *an = &a->m->animations;
    char path[96];
    if (!an->class_count) return true;
    if (!an->classes) {
        fy_error_set(a->err, FERRY_ERR_MALFORMED, FERRY_NO_OFFSET, "animations/classes", "%u classes but no array",
                     (unsigned)an->class_count);
        return false;
    }
    for (uint32_t c = 0; c < an->class_count; c++) {
        const ferry_odol_animation_class *k = &an->classes[c];
        float v[] = {k->min_value, k->max_value, k->params[0], k->params[1], k->axis_pos[0], k->axis_pos[1],
                     k->axis_pos[2], k->axis_dir[0], k->axis_dir[1], k->axis_dir[2], k->angle, k->axis_offset};
        for (size_t i = 0; i < sizeof v / sizeof v[0]; i++)
            if (!isfinite(v[i])) {
                snprintf(path, sizeof path, "animations/classes[%u]", (unsigned)c);
                return fail(a, path, "holds a value that is not a finite number (%u of %u)", (unsigned)i, 12);
            }
    }
    if (an->lod_count && !an->anims_to_bones) {
        fy_error_set(a->err, FERRY_ERR_MALFORMED, FERRY_NO_OFFSET, "animations/anims_to_bones", "missing");
        return false;
    }
    for (uint32_t l = 0; l < an->lod_count; l++)
        for (uint32_t c = 0; c < an->class_count; c++) {
            const ferry_odol_anim_bone *e = &an->anims_to_bones[(size_t)l * an->class_count + c];
            snprintf(path, sizeof path, "animations/anims_to_bones[%u][%u]", (unsigned)l, (unsigned)c);
            if (e->bone < -1 || (e->bone >= 0 && (uint32_t)e->bone >= a->bones))
                return fail(a, path, "names bone %u, but the skeleton has %u bones", (unsigned)e->bone, a->bones);
            for (int i = 0; i < 3; i++)
                if (!isfinite(e->axis_pos[i]) || !isfinite(e->axis_dir[i]))
                    return fail(a, path, "its axis holds a value that is not a finite number (bone %u of %u)", (unsigned)e->bone, a->bones);
        }
    return true;
}

/* The class's entry for LOD l, or NULL when it moves no bone there. */
static const ferry_odol_anim_bone *class_bone(const fy_odol_anim *a, uint32_t l, uint32_t c)
{
    const ferry_odol_animations *an = &a->m->animations;
    if (l >= an->lod_count || c >= an->class_count || !an->anims_to_bones) return NULL;
    const ferry_odol_anim_bone *e = &an->anims_to_bones[(size_t)l * an->class_count + c];
    return e->bone >= 0 ? e : NULL;
}

/* Where a class turns or starts, in engine axes; false for hide (no axis). */
static bool class_point(const ferry_odol_animation_class *k, const ferry_odol_anim_bone *e, float out[3])
{
    if (k->type == FERRY_ODOL_ANIM_HIDE || k->type > FERRY_ODOL_ANIM_HIDE) return false;
    const float *p = k->type == FERRY_ODOL_ANIM_DIRECT ? k->axis_pos : e->axis_pos;
    memcpy(out, p, 3 * sizeof *out);
    return true;
}

static bool plan_lod(fy_odol_anim *a, uint32_t l)
{
    lod_skel *ls = &a->lods[l];
    uint32_t n = a->bones;
    ls->bone_node = alloc(a, n, sizeof *ls->bone_node);
    ls->pivot = alloc(a, (size_t)n * 3, sizeof *ls->pivot);
    ls->pivot_class = alloc(a, n, sizeof *ls->pivot_class);
    if (!ls->bone_node || !ls->pivot || !ls->pivot_class) return false;
    const ferry_odol_animations *an = &a->m->animations;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t b = a->order[i];
        ls->pivot_class[b] = -1;
        float p[3] = {0, 0, 0};
        if (a->parent[b] >= 0) memcpy(p, ls->pivot + (size_t)a->parent[b] * 3, sizeof p);
        for (uint32_t c = 0; c < an->class_count; c++) {
            const ferry_odol_anim_bone *e = class_bone(a, l, c);
            float q[3];
            if (!e || (uint32_t)e->bone != b || !class_point(&an->classes[c], e, q)) continue;
            for (int j = 0; j < 3; j++) p[j] = mirror[j] * q[j];
            ls->pivot_class[b] = (int32_t)c;
            break;
        }
        memcpy(ls->pivot + (size_t)b * 3, p, sizeof p);
    }
    ls->on = true;
    ls->skin = -1;
    return true;
}

fy_odol_anim *fy_odol_anim_new(const ferry_odol_model *m, ferry_scene *s, const uint32_t *lods, size_t lod_count,
                               bool animations, size_t *extra_nodes, ferry_error *err)
{
    fy_odol_anim *a = calloc(1, sizeof *a);
    if (!a) {
        fy_error_set(err, FERRY_ERR_NOMEM, FERRY_NO_OFFSET, "", "out of memory");
        return NULL;
    }
    a->m = m;
    a->s = s;
    a->arena = s->arena;
    a->err = err;
    a->animations = animations;
    const ferry_odol_skeleton *sk = &m->info.skeleton;
    a->bones = sk->bones ? sk->bone_count : 0;
    a->lods = calloc(m->lod_count ? m->lod_count : 1, sizeof *a->lods);
    if (!a->lods) {
        fy_error_set(err, FERRY_ERR_NOMEM, FERRY_NO_OFFSET, "", "out of memory");
        fy_odol_anim_free(a);
        return NULL;
    }
    if (!a->bones) return a;
    if (!plan_bones(a) || !check_animations(a)) {
        fy_odol_anim_free(a);
        return NULL;
    }
    size_t skins = 0;
    for (size_t i = 0; i < lod_count; i++) {
        bool skinned;
        if (!check_lod(a, lods[i], &skinned) || (skinned && !plan_lod(a, lods[i]))) {
            fy_odol_anim_free(a);
            return NULL;
        }
        if (skinned) {
            skins++;
            *extra_nodes += 1 + (size_t)a->bones;
        }
    }
    if (skins) {
        s->skins = alloc(a, skins, sizeof *s->skins);
        if (!s->skins) {
            fy_odol_anim_free(a);
            return NULL;
        }
    }
    return a;
}

void fy_odol_anim_free(fy_odol_anim *a)
{
    if (!a) return;
    free(a->parent);
    free(a->order);
    free(a->lods);
    free(a);
}

bool fy_odol_anim_skinned(const fy_odol_anim *a, uint32_t l) { return a && l < a->m->lod_count && a->lods[l].on; }

/* ---- skinning ---- */

bool fy_odol_anim_skin_primitive(fy_odol_anim *a, uint32_t l, const uint32_t *faces, uint32_t face_count,
                                 const uint32_t *remap, ferry_scene_primitive *p)
{
    if (!fy_odol_anim_skinned(a, l)) return true;
    const ferry_odol_lod *lod = &a->m->lods[l];
    uint16_t *joints = alloc(a, p->vertex_count * 4, sizeof *joints);
    float *weights = alloc(a, p->vertex_count * 4, sizeof *weights);
    if (!joints || !weights) return false;
    for (uint32_t i = 0; i < face_count; i++) {
        const ferry_odol_face *f = &lod->faces[faces[i]];
        for (uint8_t k = 0; k < f->count; k++) {
            uint16_t v = f->vertices[k];
            size_t r = remap[v];
            uint16_t *jv = joints + r * 4;
            float *wv = weights + r * 4;
            const uint8_t *ref = lod->vertex_bone_refs.data + (size_t)v * 12;
            uint32_t c = refs_count(ref);
            unsigned used = 0, sum = 0;
            memset(jv, 0, 4 * sizeof *jv);
            memset(wv, 0, 4 * sizeof *wv);
            /* Weights are bytes out of 255 (every real vertex sums to 255);
             * two sub-skeleton bones naming one bone share its slot. */
            for (uint32_t q = 0; q < c; q++) {
                uint8_t w = ref[5 + 2 * q];
                if (!w) continue;
                uint16_t j = (uint16_t)(lod->sub_skeleton_to_skeleton.values[ref[4 + 2 * q]] + 1);
                unsigned slot = 0;
                while (slot < used && jv[slot] != j) slot++;
                if (slot == used) jv[used++] = j;
                wv[slot] += w;
                sum += w;
            }
            if (!sum) {
                /* A vertex on no bone stays where it is: the static root. */
                jv[0] = 0;
                wv[0] = 1;
                continue;
            }
            for (unsigned q = 0; q < used; q++) wv[q] /= (float)sum;
        }
    }
    p->joints = joints;
    p->weights = weights;
    return true;
}

bool fy_odol_anim_add_skeleton(fy_odol_anim *a, uint32_t l, int32_t lod_node)
{
    if (!fy_odol_anim_skinned(a, l)) return true;
    ferry_arena *ja = a->arena;
    ferry_scene *s = a->s;
    lod_skel *ls = &a->lods[l];
    const ferry_odol_skeleton *sk = &a->m->info.skeleton;
    ls->lod_node = lod_node;
    ls->root_node = (int32_t)s->node_count;
    ferry_scene_node *root = &s->nodes[s->node_count++];
    ferry_scene_node_init(root);
    FY_SET_REF(root, parent, lod_node);
    root->name = ferry_arena_strdup(a->arena, *str(sk->name) ? sk->name : "skeleton");
    ferry_json *rx = fy_jobject(ja);
    fy_jset(ja, rx, "skeleton", fy_jstring(ja, str(sk->name)));
    fy_jset(ja, rx, "static_root", fy_jbool(ja, true));
    root->extras = rx;
    if (!root->name || !root->extras) return false;
    for (uint32_t i = 0; i < a->bones; i++) {
        uint32_t b = a->order[i];
        int32_t pb = a->parent[b];
        ls->bone_node[b] = (int32_t)s->node_count;
        ferry_scene_node *node = &s->nodes[s->node_count++];
        ferry_scene_node_init(node);
        FY_SET_REF(node, parent, pb >= 0 ? ls->bone_node[pb] : ls->root_node);
        node->name = ferry_arena_strdup(a->arena, str(sk->bones[b].name));
        const float *p = ls->pivot + (size_t)b * 3;
        for (int j = 0; j < 3; j++) node->translation[j] = p[j] - (pb >= 0 ? ls->pivot[(size_t)pb * 3 + j] : 0.0f);
        ferry_json *x = fy_jobject(ja);
        fy_jset(ja, x, "bone", fy_jinteger(ja, b));
        fy_jset(ja, x, "pivot_from",
                ls->pivot_class[b] >= 0 ? fy_jstring(ja, str(a->m->animations.classes[ls->pivot_class[b]].name))
                                        : fy_jnull(ja));
        node->extras = x;
        if (!node->name || !node->extras) return false;
    }
    /* Joint 0 is the static root, joint b + 1 bone b; each bind pose is
     * the joint's rest place, a translation to its pivot. */
    size_t nj = (size_t)a->bones + 1;
    int32_t *joints = alloc(a, nj, sizeof *joints);
    float *ibm = alloc(a, nj * 16, sizeof *ibm);
    if (!joints || !ibm) return false;
    for (size_t j = 0; j < nj; j++) {
        joints[j] = j ? ls->bone_node[j - 1] : ls->root_node;
        float *mtx = ibm + j * 16;
        fy_mat4_identity(mtx);
        if (j)
            for (int c = 0; c < 3; c++) mtx[12 + c] = -ls->pivot[(j - 1) * 3 + c];
    }
    ls->skin = (int32_t)s->skin_count;
    ferry_scene_skin *skin = &s->skins[s->skin_count++];
    memset(skin, 0, sizeof *skin);
    skin->name = s->nodes[lod_node].name;
    skin->joints = joints;
    skin->joint_count = nj;
    skin->inverse_bind_matrices = ibm;
    FY_SET_REF(skin, skeleton, ls->root_node);
    a->skins++;
    a->joints += (uint32_t)nj;
    ferry_scene_node *ln = &s->nodes[lod_node];
    if (ln->has_mesh) {
        const ferry_scene_mesh *mesh = &s->meshes[ln->mesh];
        bool all = mesh->primitive_count > 0;
        for (size_t k = 0; k < mesh->primitive_count; k++) all &= mesh->primitives[k].joints != NULL;
        if (all) FY_SET_REF(ln, skin, ls->skin);
    }
    return true;
}

int32_t fy_odol_anim_proxy_parent(const fy_odol_anim *a, uint32_t l, int32_t bone, int32_t lod_node, float pivot[3])
{
    pivot[0] = pivot[1] = pivot[2] = 0;
    if (!fy_odol_anim_skinned(a, l) || bone < 0 || (uint32_t)bone >= a->bones) return lod_node;
    memcpy(pivot, a->lods[l].pivot + (size_t)bone * 3, 3 * sizeof *pivot);
    return a->lods[l].bone_node[bone];
}

/* ---- animations ---- */

static void quat_axis_angle(const double axis[3], double angle, float q[4])
{
    double s = sin(angle / 2);
    q[0] = (float)(axis[0] * s);
    q[1] = (float)(axis[1] * s);
    q[2] = (float)(axis[2] * s);
    q[3] = (float)cos(angle / 2);
}

/* v rotated about the unit axis by angle (Rodrigues). */
static void rotate(const double axis[3], double angle, const double v[3], double out[3])
{
    double c = cos(angle), s = sin(angle), d = axis[0] * v[0] + axis[1] * v[1] + axis[2] * v[2];
    double x[3] = {axis[1] * v[2] - axis[2] * v[1], axis[2] * v[0] - axis[0] * v[2], axis[0] * v[1] - axis[1] * v[0]};
    for (int i = 0; i < 3; i++) out[i] = v[i] * c + x[i] * s + axis[i] * d * (1 - c);
}

static const char *type_name(uint32_t t)
{
    static const char *const names[] = {"rotation",     "rotationX",    "rotationY",    "rotationZ", "translation",
                                        "translationX", "translationY", "translationZ", "direct",    "hide"};
    return t < 10 ? names[t] : "unknown";
}

/* The channels of class c on joint `node` (bone b of LOD l): rotation about
 * a point, translation along an axis, or a hide. */
static bool class_channels(fy_odol_anim *a, uint32_t l, uint32_t c, const ferry_odol_anim_bone *e,
                           ferry_scene_channel *out, size_t *count)
{
    const ferry_odol_animation_class *k = &a->m->animations.classes[c];
    const lod_skel *ls = &a->lods[l];
    uint32_t b = (uint32_t)e->bone;
    int32_t node = ls->bone_node[b];
    const float *pb = ls->pivot + (size_t)b * 3;
    double rest[3]; /* the joint's rest translation (relative to its parent) */
    for (int j = 0; j < 3; j++) rest[j] = a->s->nodes[node].translation[j];
    uint32_t t = k->type;
    if (t == FERRY_ODOL_ANIM_HIDE) {
        /* Hidden from phase hide_value on: scale 0 about the pivot, STEP keys. */
        double hv = k->params[0];
        float *times = alloc(a, 3, sizeof *times), *vals = alloc(a, 9, sizeof *vals);
        if (!times || !vals) return false;
        size_t n = 0;
        float scale_at_start = hv <= 0 ? 0.0f : 1.0f;
        times[n] = 0;
        vals[n * 3] = vals[n * 3 + 1] = vals[n * 3 + 2] = scale_at_start;
        n++;
        if (hv > 0 && hv <= 1) {
            times[n] = (float)(hv * SWEEP_SECONDS);
            vals[n * 3] = vals[n * 3 + 1] = vals[n * 3 + 2] = 0;
            n++;
        }
        if (times[n - 1] < SWEEP_SECONDS) {
            times[n] = SWEEP_SECONDS;
            vals[n * 3] = vals[n * 3 + 1] = vals[n * 3 + 2] = vals[(n - 1) * 3];
            n++;
        }
        out[0] = (ferry_scene_channel){node, FERRY_ANIM_SCALE, FERRY_INTERP_STEP, times, n, vals};
        *count = 1;
        return true;
    }
    bool rotation = t <= FERRY_ODOL_ANIM_ROTATION_Z || t == FERRY_ODOL_ANIM_DIRECT;
    bool translation = (t >= FERRY_ODOL_ANIM_TRANSLATION && t <= FERRY_ODOL_ANIM_TRANSLATION_Z) ||
                       t == FERRY_ODOL_ANIM_DIRECT;
    /* Engine-axis rotation axis and translation vector per unit of phase. */
    double axis_e[3] = {0, 0, 0}, move_e[3] = {0, 0, 0}, q_e[3];
    double a0 = 0, a1 = 0;
    float qp[3] = {0, 0, 0};
    class_point(k, e, qp);
    for (int j = 0; j < 3; j++) q_e[j] = qp[j];
    if (t == FERRY_ODOL_ANIM_ROTATION) {
        for (int j = 0; j < 3; j++) axis_e[j] = e->axis_dir[j];
    } else if (t >= FERRY_ODOL_ANIM_ROTATION_X && t <= FERRY_ODOL_ANIM_ROTATION_Z) {
        axis_e[t - FERRY_ODOL_ANIM_ROTATION_X] = 1;
    } else if (t == FERRY_ODOL_ANIM_DIRECT) {
        for (int j = 0; j < 3; j++) axis_e[j] = k->axis_dir[j];
    }
    if (rotation) {
        if (t == FERRY_ODOL_ANIM_DIRECT)
            a0 = 0, a1 = k->angle;
        else
            a0 = k->params[0], a1 = k->params[1];
        double len = sqrt(axis_e[0] * axis_e[0] + axis_e[1] * axis_e[1] + axis_e[2] * axis_e[2]);
        if (len > 0)
            for (int j = 0; j < 3; j++) axis_e[j] /= len;
        else
            a0 = a1 = 0, axis_e[1] = 1; /* no axis: nothing turns */
    }
    double o0 = 0, o1 = 0;
    if (t == FERRY_ODOL_ANIM_TRANSLATION) {
        /* Offsets count lengths of the axis (begin to end): not normalized. */
        for (int j = 0; j < 3; j++) move_e[j] = e->axis_dir[j];
        o0 = k->params[0], o1 = k->params[1];
    } else if (t >= FERRY_ODOL_ANIM_TRANSLATION_X && t <= FERRY_ODOL_ANIM_TRANSLATION_Z) {
        move_e[t - FERRY_ODOL_ANIM_TRANSLATION_X] = 1; /* metres */
        o0 = k->params[0], o1 = k->params[1];
    } else if (t == FERRY_ODOL_ANIM_DIRECT) {
        for (int j = 0; j < 3; j++) move_e[j] = axis_e[j];
        o0 = 0, o1 = k->axis_offset;
    }
    /* glTF axes: points and directions mirrored (z negated); a rotation
     * under a mirror turns the other way: angle -theta about the mirrored axis. */
    double axis[3], q[3], move[3], arm[3];
    for (int j = 0; j < 3; j++) {
        axis[j] = mirror[j] * axis_e[j];
        q[j] = mirror[j] * q_e[j];
        move[j] = mirror[j] * move_e[j];
        arm[j] = q[j] - pb[j];
    }
    /* The engine turns "rotation" and "direct" classes by +angle about
     * their stored axis (v' = v cos + (axis x v) sin + ...), but the
     * fixed-axis types by -angle about +X, +Y, +Z (odol-gltf.md: a bus's
     * speedometer and steering wheel against its front wheels). */
    double sense = (t >= FERRY_ODOL_ANIM_ROTATION_X && t <= FERRY_ODOL_ANIM_ROTATION_Z) ? -1.0 : 1.0;
    bool off_pivot = rotation && (arm[0] != 0 || arm[1] != 0 || arm[2] != 0);
    bool moves = translation || off_pivot;
    size_t n = 2;
    if (rotation) {
        double step = off_pivot ? ARC_STEP : ROTATION_STEP;
        double steps = ceil(fabs(a1 - a0) / step);
        n = steps + 1 > MAX_KEYS ? MAX_KEYS : (size_t)steps + 1;
        if (n < 2) n = 2;
    } else if (translation)
        n = 2;
    float *times = alloc(a, n, sizeof *times);
    float *rot = rotation ? alloc(a, n * 4, sizeof *rot) : NULL;
    float *tr = moves ? alloc(a, n * 3, sizeof *tr) : NULL;
    if (!times || (rotation && !rot) || (moves && !tr)) return false;
    for (size_t i = 0; i < n; i++) {
        double phase = (double)i / (double)(n - 1);
        times[i] = (float)(SWEEP_SECONDS * phase);
        double angle = -sense * (a0 + (a1 - a0) * phase);
        if (rotation) quat_axis_angle(axis, angle, rot + i * 4);
        if (moves) {
            double p[3] = {rest[0], rest[1], rest[2]};
            if (off_pivot) {
                /* T(q) R T(-q) expressed at the pivot pb: + arm - R arm. */
                double r[3];
                rotate(axis, angle, arm, r);
                for (int j = 0; j < 3; j++) p[j] += arm[j] - r[j];
            }
            double off = o0 + (o1 - o0) * phase;
            for (int j = 0; j < 3; j++) p[j] += move[j] * off;
            for (int j = 0; j < 3; j++) tr[i * 3 + j] = (float)p[j];
        }
    }
    size_t nc = 0;
    if (rotation) out[nc++] = (ferry_scene_channel){node, FERRY_ANIM_ROTATION, FERRY_INTERP_LINEAR, times, n, rot};
    if (moves) out[nc++] = (ferry_scene_channel){node, FERRY_ANIM_TRANSLATION, FERRY_INTERP_LINEAR, times, n, tr};
    *count = nc;
    return true;
}

bool fy_odol_anim_finish(fy_odol_anim *a, ferry_odol_scene_report *rep)
{
    ferry_arena *ja = a->arena;
    ferry_scene *s = a->s;
    const ferry_odol_animations *an = &a->m->animations;
    rep->skins = a->skins;
    rep->joints = a->joints;
    if (!a->animations || !a->skins || !an->class_count) return true;
    s->animations = alloc(a, an->class_count, sizeof *s->animations);
    if (!s->animations) return false;
    for (uint32_t c = 0; c < an->class_count; c++) {
        const ferry_odol_animation_class *k = &an->classes[c];
        size_t channels = 0;
        for (uint32_t l = 0; l < a->m->lod_count; l++)
            if (a->lods[l].on && class_bone(a, l, c)) channels += 2;
        if (!channels || k->type > FERRY_ODOL_ANIM_HIDE) {
            if (!rep->animations_unbound++) rep->animation_unbound = ferry_arena_strdup(a->arena, str(k->name));
            continue;
        }
        ferry_scene_animation *anim = &s->animations[s->animation_count];
        anim->channels = alloc(a, channels, sizeof *anim->channels);
        if (!anim->channels) return false;
        ferry_json *bones = fy_jarray(ja);
        for (uint32_t l = 0; l < a->m->lod_count; l++) {
            const ferry_odol_anim_bone *e = a->lods[l].on ? class_bone(a, l, c) : NULL;
            if (!e) continue;
            size_t nc = 0;
            if (!class_channels(a, l, c, e, anim->channels + anim->channel_count, &nc)) return false;
            anim->channel_count += nc;
            ferry_json *bo = fy_jobject(ja);
            fy_jset(ja, bo, "lod", fy_jinteger(ja, l));
            fy_jset(ja, bo, "bone", fy_jinteger(ja, e->bone));
            fy_jset(ja, bo, "bone_name", fy_jstring(ja, str(a->m->info.skeleton.bones[e->bone].name)));
            fy_jpush(ja, bones, bo);
        }
        anim->name = ferry_arena_strdup(a->arena, str(k->name));
        ferry_json *x = fy_jobject(ja);
        fy_jset(ja, x, "animation_class", fy_jinteger(ja, c));
        fy_jset(ja, x, "type", fy_jstring(ja, type_name(k->type)));
        fy_jset(ja, x, "source", fy_jstring(ja, str(k->source)));
        fy_jset(ja, x, "min_value", fy_jreal_or_null(ja, k->min_value));
        fy_jset(ja, x, "max_value", fy_jreal_or_null(ja, k->max_value));
        fy_jset(ja, x, "sweep",
                fy_jstring(ja, "the source from min_value (time 0) to max_value (the last key), linearly"));
        fy_jset(ja, x, "bones", bones);
        anim->extras = x;
        if (!anim->name || !anim->extras) return false;
        s->animation_count++;
    }
    rep->animations = (uint32_t)s->animation_count;
    return true;
}
