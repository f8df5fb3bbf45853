/* Scene -> ALM progressive mesh: the skeleton from the node tree, every
 * triangle primitive at the rest pose as animation-space vectors, welded
 * into positions, then the collapse records of alm_build.c.
 * docs/formats/alm.md, "Building progressive meshes", has the decisions. */
#include "convert_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Files hold 32-bit floats: rounding here makes the built mesh exactly
 * what reading the written file gives back. */
static double f32(double v) { return (double)(float)v; }

typedef struct from_scene {
    const ferry_scene *scene;
    ferry_alm_mesh *mesh;
    ferry_arena *arena;
    ferry_error *err;
    double *world; /* node object transforms, row-major */
    /* welding: open-addressing tables of indices + 1 (0 = empty) */
    uint32_t *pos_table, *vert_table;
    size_t table_mask;
    uint32_t position_capacity, vertex_capacity, triangle_capacity;
    uint32_t default_material; /* for primitives without one */
    bool uses_default;
} from_scene;

static bool fail_nomem(from_scene *fs)
{
    fy_error_set(fs->err, FERRY_ERR_NOMEM, FERRY_NO_OFFSET, "", "out of memory building the ALM mesh");
    return false;
}

static void local_matrix(const ferry_scene_node *n, double out[16])
{
    float cm[16];
    fy_mat4_from_trs(n->translation, n->rotation, n->scale, cm);
    for (int r = 0; r < 4; r++)
        for (int c = 0; c < 4; c++) out[r * 4 + c] = cm[c * 4 + r];
}

static bool make_bones(from_scene *fs)
{
    const ferry_scene *s = fs->scene;
    ferry_alm_mesh *m = fs->mesh;
    m->bone_count = (uint32_t)s->node_count;
    m->bones = ferry_arena_alloc(fs->arena, (s->node_count + 1) * sizeof *m->bones);
    fs->world = ferry_arena_alloc(fs->arena, (s->node_count + 1) * 16 * sizeof *fs->world);
    if (!m->bones || !fs->world) return fail_nomem(fs);
    for (size_t i = 0; i < s->node_count; i++) {
        const ferry_scene_node *n = &s->nodes[i];
        ferry_alm_bone *bone = &m->bones[i];
        if (n->has_parent && n->parent >= i) {
            fy_error_set(fs->err, FERRY_ERR_ARGUMENT, FERRY_NO_OFFSET, "", "nodes[%zu]: parent %u does not come before it",
                         i, (unsigned)n->parent);
            return false;
        }
        bone->parent = n->has_parent ? (int32_t)n->parent : -1;
        double local[16];
        local_matrix(n, local);
        for (int k = 0; k < 16; k++) bone->transform[k] = f32(local[k]);
        if (bone->parent >= 0) fy_mat4d_mul(&fs->world[16 * (size_t)bone->parent], bone->transform, &fs->world[16 * i]);
        else memcpy(&fs->world[16 * i], bone->transform, sizeof bone->transform);
        /* The statistics fields stay unused (flags 0): the linear part's
         * largest singular value is the largest scale, the translation is
         * where the bounding sphere sits at rest. */
        double ms = 0;
        for (int k = 0; k < 3; k++) ms = fmax(ms, fabs((double)n->scale[k]));
        bone->max_singular = f32(ms);
        for (int k = 0; k < 3; k++) bone->translate_centre[k] = f32(n->translation[k]);
        memcpy(bone->expect_L, bone->transform, sizeof bone->expect_L);
    }
    /* A bone's tail: where its first child starts, in the bone's space. */
    for (size_t i = s->node_count; i-- > 0;) {
        int32_t p = (int32_t)FY_REF(&s->nodes[i], parent);
        if (p < 0) continue;
        for (int k = 0; k < 3; k++) m->bones[p].tail[k] = f32(s->nodes[i].translation[k]);
    }
    return true;
}

/* ---- welding ---- */

static uint64_t hash_bytes(uint64_t h, const void *data, size_t n)
{
    const uint8_t *p = data;
    for (size_t i = 0; i < n; i++) h = (h ^ p[i]) * 0x100000001b3ull;
    return h;
}

static uint64_t hash_vector(const ferry_alm_component *c, uint32_t n)
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (uint32_t i = 0; i < n; i++) {
        h = hash_bytes(h, &c[i].bone, sizeof c[i].bone);
        h = hash_bytes(h, c[i].coords, sizeof c[i].coords);
    }
    return h;
}

static bool same_vector(const ferry_alm_vector *v, const ferry_alm_component *c, uint32_t n)
{
    if (v->count != n) return false;
    for (uint32_t i = 0; i < n; i++)
        if (v->components[i].bone != c[i].bone || memcmp(v->components[i].coords, c[i].coords, sizeof c[i].coords) != 0)
            return false;
    return true;
}

static int64_t weld_position(from_scene *fs, const ferry_alm_component *c, uint32_t n)
{
    ferry_alm_mesh *m = fs->mesh;
    size_t slot = (size_t)hash_vector(c, n) & fs->table_mask;
    while (fs->pos_table[slot]) {
        uint32_t p = fs->pos_table[slot] - 1;
        if (same_vector(&m->positions[p], c, n)) return p;
        slot = (slot + 1) & fs->table_mask;
    }
    if (m->position_count >= fs->position_capacity) return fail_nomem(fs), -1;
    ferry_alm_vector *v = &m->positions[m->position_count];
    v->components = ferry_arena_memdup(fs->arena, c, n * sizeof *c);
    if (!v->components) return fail_nomem(fs), -1;
    v->count = n;
    fs->pos_table[slot] = ++m->position_count;
    return m->position_count - 1;
}

static int64_t weld_vertex(from_scene *fs, uint32_t position, double s, double t)
{
    ferry_alm_mesh *m = fs->mesh;
    uint64_t h = hash_bytes(0xcbf29ce484222325ull, &position, sizeof position);
    h = hash_bytes(h, &s, sizeof s);
    h = hash_bytes(h, &t, sizeof t);
    size_t slot = (size_t)h & fs->table_mask;
    while (fs->vert_table[slot]) {
        const ferry_alm_vertex *v = &m->vertices[fs->vert_table[slot] - 1];
        if (v->position == position && memcmp(&v->tex_coords[0], &s, sizeof s) == 0 &&
            memcmp(&v->tex_coords[1], &t, sizeof t) == 0)
            return fs->vert_table[slot] - 1;
        slot = (slot + 1) & fs->table_mask;
    }
    if (m->vertex_count >= fs->vertex_capacity) return fail_nomem(fs), -1;
    ferry_alm_vertex *v = &m->vertices[m->vertex_count];
    v->position = position;
    v->tex_coords[0] = s;
    v->tex_coords[1] = t;
    fs->vert_table[slot] = ++m->vertex_count;
    return m->vertex_count - 1;
}

static int compare_components(const void *a, const void *b)
{
    uint32_t x = ((const ferry_alm_component *)a)->bone, y = ((const ferry_alm_component *)b)->bone;
    return x < y ? -1 : x > y;
}

/* The animation-space vector of one vertex: per joint, weight times the
 * joint's inverse bind matrix times the vertex, so that the joints'
 * rest-pose object transforms give back the skinned rest position; a rigid
 * vertex is its node-local position on its node. */
static uint32_t vertex_components(const from_scene *fs, const ferry_scene_primitive *pr, const ferry_scene_skin *skin,
                                  uint32_t node, size_t v, ferry_alm_component out[4])
{
    const float *pos = &pr->positions[3 * v];
    double x[4] = {pos[0], pos[1], pos[2], 1.0};
    uint32_t n = 0;
    if (skin && pr->joints && pr->weights) {
        double total = 0;
        double w[4] = {0, 0, 0, 0};
        uint16_t joint[4] = {0, 0, 0, 0};
        for (int k = 0; k < 4; k++) {
            float wk = pr->weights[4 * v + k];
            uint16_t j = pr->joints[4 * v + k];
            if (!(wk > 0) || !isfinite(wk) || j >= skin->joint_count) continue;
            int32_t joint_node = skin->joints[j];
            if (joint_node < 0 || (size_t)joint_node >= fs->scene->node_count) continue;
            uint32_t at = n;
            for (uint32_t u = 0; u < n; u++)
                if (out[u].bone == (uint32_t)joint_node) at = u;
            if (at == n) {
                out[n].bone = (uint32_t)joint_node;
                joint[n] = j;
                w[n++] = 0;
            }
            w[at] += wk;
            total += wk;
        }
        if (n > 0 && total > 0) {
            for (uint32_t u = 0; u < n; u++) {
                const float *m = skin->inverse_bind_matrices ? &skin->inverse_bind_matrices[16 * (size_t)joint[u]] : NULL;
                double wn = w[u] / total;
                for (int r = 0; r < 4; r++) {
                    double p = m ? (double)m[r] * x[0] + (double)m[4 + r] * x[1] + (double)m[8 + r] * x[2] + (double)m[12 + r]
                                 : x[r];
                    out[u].coords[r] = f32(wn * p);
                }
            }
            qsort(out, n, sizeof *out, compare_components);
            return n;
        }
        n = 0;
    }
    out[0].bone = node;
    for (int r = 0; r < 4; r++) out[0].coords[r] = f32(x[r]);
    return 1;
}

static bool add_primitive(from_scene *fs, uint32_t node, const ferry_scene_primitive *pr, const ferry_scene_skin *skin)
{
    ferry_alm_mesh *m = fs->mesh;
    if (pr->mode != FERRY_PRIMITIVE_TRIANGLES || !pr->positions || pr->vertex_count == 0) return true;
    uint32_t *map = malloc(pr->vertex_count * sizeof *map);
    uint32_t *map_pos = malloc(pr->vertex_count * sizeof *map_pos);
    if (!map || !map_pos) {
        free(map);
        free(map_pos);
        return fail_nomem(fs);
    }
    bool ok = true;
    const float *uv = pr->texcoord_count > 0 ? pr->texcoords[0] : NULL;
    for (size_t v = 0; v < pr->vertex_count && ok; v++) {
        ferry_alm_component comps[4];
        uint32_t n = vertex_components(fs, pr, skin, node, v, comps);
        int64_t p = weld_position(fs, comps, n);
        int64_t vx = p < 0 ? -1 : weld_vertex(fs, (uint32_t)p, uv ? f32(uv[2 * v]) : 0.0, uv ? f32(uv[2 * v + 1]) : 0.0);
        if (vx < 0) ok = false;
        else map[v] = (uint32_t)vx, map_pos[v] = (uint32_t)p;
    }
    size_t corners = pr->indices ? pr->index_count : pr->vertex_count;
    uint32_t material = pr->has_material && pr->material < fs->scene->material_count ? pr->material
                                                                                     : fs->default_material;
    for (size_t i = 0; ok && i + 3 <= corners; i += 3) {
        uint32_t idx[3];
        bool in_range = true;
        for (int c = 0; c < 3; c++) {
            idx[c] = pr->indices ? pr->indices[i + (size_t)c] : (uint32_t)(i + (size_t)c);
            in_range &= idx[c] < pr->vertex_count;
        }
        if (!in_range) {
            fy_error_set(fs->err, FERRY_ERR_ARGUMENT, FERRY_NO_OFFSET, "", "a primitive's index %zu is out of range", i);
            ok = false;
            break;
        }
        /* Two corners on one position: no area, and every LOD drops it. */
        if (map_pos[idx[0]] == map_pos[idx[1]] || map_pos[idx[1]] == map_pos[idx[2]] || map_pos[idx[0]] == map_pos[idx[2]])
            continue;
        if (m->triangle_count >= fs->triangle_capacity) {
            ok = fail_nomem(fs);
            break;
        }
        ferry_alm_triangle *t = &m->triangles[m->triangle_count++];
        for (int c = 0; c < 3; c++) t->vertices[c] = map[idx[c]];
        t->material = material;
        if (material == fs->default_material) fs->uses_default = true;
    }
    free(map);
    free(map_pos);
    return ok;
}

static bool make_geometry(from_scene *fs)
{
    const ferry_scene *s = fs->scene;
    ferry_alm_mesh *m = fs->mesh;
    size_t vertices = 0, corners = 0;
    for (size_t i = 0; i < s->node_count; i++) {
        int64_t mi = FY_REF(&s->nodes[i], mesh);
        if (mi < 0 || (size_t)mi >= s->mesh_count) continue;
        for (size_t p = 0; p < s->meshes[mi].primitive_count; p++) {
            const ferry_scene_primitive *pr = &s->meshes[mi].primitives[p];
            vertices += pr->vertex_count;
            corners += pr->indices ? pr->index_count : pr->vertex_count;
        }
    }
    if (vertices >= UINT32_MAX / 2 || corners / 3 >= UINT32_MAX) {
        fy_error_set(fs->err, FERRY_ERR_LIMIT, FERRY_NO_OFFSET, "", "too many vertices for one ALM mesh");
        return false;
    }
    fs->position_capacity = fs->vertex_capacity = (uint32_t)vertices;
    fs->triangle_capacity = (uint32_t)(corners / 3);
    size_t table = 16;
    while (table < 2 * vertices) table *= 2;
    fs->table_mask = table - 1;
    fs->pos_table = calloc(table, sizeof *fs->pos_table);
    fs->vert_table = calloc(table, sizeof *fs->vert_table);
    m->positions = ferry_arena_alloc(fs->arena, (vertices + 1) * sizeof *m->positions);
    m->vertices = ferry_arena_alloc(fs->arena, (vertices + 1) * sizeof *m->vertices);
    m->triangles = ferry_arena_alloc(fs->arena, (corners / 3 + 1) * sizeof *m->triangles);
    bool ok = fs->pos_table && fs->vert_table && m->positions && m->vertices && m->triangles;
    if (!ok) fail_nomem(fs);
    for (size_t i = 0; ok && i < s->node_count; i++) {
        const ferry_scene_node *n = &s->nodes[i];
        if (!n->has_mesh || n->mesh >= s->mesh_count) continue;
        const ferry_scene_skin *skin = n->has_skin && n->skin < s->skin_count ? &s->skins[n->skin] : NULL;
        const ferry_scene_mesh *mesh = &s->meshes[n->mesh];
        for (size_t p = 0; ok && p < mesh->primitive_count; p++) ok = add_primitive(fs, (uint32_t)i, &mesh->primitives[p], skin);
    }
    free(fs->pos_table);
    free(fs->vert_table);
    fs->pos_table = fs->vert_table = NULL;
    return ok;
}

static bool make_materials(from_scene *fs)
{
    ferry_alm_mesh *m = fs->mesh;
    m->material_count = fs->default_material + (fs->uses_default ? 1 : 0);
    m->materials = ferry_arena_alloc(fs->arena, (m->material_count + 1) * sizeof *m->materials);
    if (!m->materials) return fail_nomem(fs);
    for (uint32_t i = 0; i < m->material_count; i++) {
        m->materials[i].texture_id = -1;
        m->materials[i].tangent_id = -1;
    }
    return true;
}

static bool make_comment(from_scene *fs)
{
    ferry_alm_mesh *m = fs->mesh;
    char text[200];
    snprintf(text, sizeof text, "built by ferry %s from %.120s", FERRY_VERSION_STRING,
             fs->scene->name ? fs->scene->name : "a scene");
    m->comments = ferry_arena_alloc(fs->arena, sizeof *m->comments);
    m->comment_lengths = ferry_arena_alloc(fs->arena, sizeof *m->comment_lengths);
    char *copy = ferry_arena_strdup(fs->arena, text);
    if (!m->comments || !m->comment_lengths || !copy) return fail_nomem(fs);
    m->comments[0] = copy;
    m->comment_lengths[0] = (uint32_t)strlen(copy);
    m->comment_count = 1;
    return true;
}

/* ---- frames: one of the scene's animations, sampled at its key rate ---- */

/* Where t falls among a channel's keys: the key at or before it and the
 * fraction towards the next (0 before the first, at or after the last). */
static size_t find_key(const ferry_scene_channel *ch, double t, double *u)
{
    *u = 0;
    if (ch->key_count == 0 || t <= ch->times[0]) return 0;
    size_t lo = 0, hi = ch->key_count - 1;
    if (t >= ch->times[hi]) return hi;
    while (hi - lo > 1) {
        size_t mid = (lo + hi) / 2;
        if (ch->times[mid] <= t) lo = mid;
        else hi = mid;
    }
    double span = (double)ch->times[lo + 1] - (double)ch->times[lo];
    /* CUBICSPLINE is approximated here by a straight line between its key values. */
    if (ch->interpolation != FERRY_INTERP_STEP && span > 0) *u = (t - (double)ch->times[lo]) / span;
    return lo;
}

static void sample_channel(const ferry_scene_channel *ch, double t, float *out)
{
    double u;
    size_t i = find_key(ch, t, &u);
    int n = ch->path == FERRY_ANIM_ROTATION ? 4 : 3;
    /* CUBICSPLINE keys: in-tangent, value, out-tangent; the value is used. */
    size_t per = ch->interpolation == FERRY_INTERP_CUBICSPLINE ? 3 : 1;
    const float *a = ch->values + (i * per + (per == 3)) * (size_t)n;
    if (u <= 0 || i + 1 >= ch->key_count) {
        memcpy(out, a, (size_t)n * sizeof *out);
        return;
    }
    const float *b = a + (size_t)n * per;
    if (n == 3) {
        for (int k = 0; k < 3; k++) out[k] = (float)((1 - u) * a[k] + u * b[k]);
        return;
    }
    /* Spherical interpolation along the shorter arc, as glTF viewers do. */
    double dot = 0, sign = 1;
    for (int k = 0; k < 4; k++) dot += (double)a[k] * b[k];
    if (dot < 0) dot = -dot, sign = -1;
    double wa = 1 - u, wb = u;
    if (dot < 0.9995) {
        double theta = acos(dot), st = sin(theta);
        wa = sin((1 - u) * theta) / st;
        wb = sin(u * theta) / st;
    }
    for (int k = 0; k < 4; k++) out[k] = (float)(wa * a[k] + sign * wb * b[k]);
    fy_quat_normalize(out);
}

static int compare_doubles(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static bool make_frames(from_scene *fs, int32_t which)
{
    const ferry_scene *s = fs->scene;
    ferry_alm_mesh *m = fs->mesh;
    if (which < 0 || (size_t)which >= s->animation_count || s->node_count == 0) return true;
    const ferry_scene_animation *an = &s->animations[which];
    /* The key rate: the most common step between keys (exporters key every
     * frame; a step key may add a second key just after one); the
     * duration: the last key. */
    double end = 0, step = 0;
    size_t delta_count = 0;
    for (size_t c = 0; c < an->channel_count; c++) delta_count += an->channels[c].key_count;
    double *deltas = malloc((delta_count + 1) * sizeof *deltas);
    if (!deltas) return fail_nomem(fs);
    size_t nd = 0;
    for (size_t c = 0; c < an->channel_count; c++) {
        const ferry_scene_channel *ch = &an->channels[c];
        if (ch->path == FERRY_ANIM_WEIGHTS || ch->node < 0 || (size_t)ch->node >= s->node_count) continue;
        for (size_t k = 0; k < ch->key_count; k++) {
            end = fmax(end, ch->times[k]);
            double d = k ? (double)ch->times[k] - (double)ch->times[k - 1] : 0;
            if (d > 1e-6) deltas[nd++] = d;
        }
    }
    qsort(deltas, nd, sizeof *deltas, compare_doubles);
    size_t best = 0;
    for (size_t i = 0; i < nd;) {
        size_t j = i;
        while (j < nd && deltas[j] - deltas[i] <= 1e-5 * deltas[i]) j++;
        if (j - i > best) best = j - i, step = deltas[i];
        i = j;
    }
    free(deltas);
    if (step == 0) step = 1.0 / 30;
    double frames = floor(end / step + 0.5) + 1;
    /* Frames hold a matrix per bone: refuse what no animation needs. */
    if (frames * (double)s->node_count > 1e8) {
        fy_error_set(fs->err, FERRY_ERR_ARGUMENT, FERRY_NO_OFFSET, "", "animation \"%s\": %.0f frames of %zu bones is too many",
                     an->name ? an->name : "", frames, s->node_count);
        return false;
    }
    m->frame_count = (uint32_t)frames;
    m->frame_rate = f32(1.0 / step);
    m->frames = ferry_arena_alloc(fs->arena, (size_t)m->frame_count * s->node_count * 16 * sizeof *m->frames);
    float *trs = malloc(s->node_count * 10 * sizeof *trs);
    if (!m->frames || !trs) {
        free(trs);
        return fail_nomem(fs);
    }
    for (uint32_t f = 0; f < m->frame_count; f++) {
        double t = f * step;
        for (size_t i = 0; i < s->node_count; i++) {
            memcpy(trs + i * 10, s->nodes[i].translation, 3 * sizeof *trs);
            memcpy(trs + i * 10 + 3, s->nodes[i].rotation, 4 * sizeof *trs);
            memcpy(trs + i * 10 + 7, s->nodes[i].scale, 3 * sizeof *trs);
        }
        for (size_t c = 0; c < an->channel_count; c++) {
            const ferry_scene_channel *ch = &an->channels[c];
            if (ch->path == FERRY_ANIM_WEIGHTS || ch->node < 0 || (size_t)ch->node >= s->node_count || !ch->key_count)
                continue;
            float *dst = trs + (size_t)ch->node * 10 + (ch->path == FERRY_ANIM_TRANSLATION ? 0 : ch->path == FERRY_ANIM_ROTATION ? 3 : 7);
            sample_channel(ch, t, dst);
        }
        for (size_t i = 0; i < s->node_count; i++) {
            ferry_scene_node posed = s->nodes[i];
            memcpy(posed.translation, trs + i * 10, 3 * sizeof *trs);
            memcpy(posed.rotation, trs + i * 10 + 3, 4 * sizeof *trs);
            memcpy(posed.scale, trs + i * 10 + 7, 3 * sizeof *trs);
            double local[16];
            local_matrix(&posed, local);
            double *dst = m->frames + ((size_t)f * s->node_count + i) * 16;
            for (int k = 0; k < 16; k++) dst[k] = f32(local[k]);
        }
    }
    free(trs);
    return true;
}

ferry_result ferry_alm_from_scene(const ferry_scene *scene, const ferry_alm_from_scene_options *options,
                                  ferry_alm_mesh **out, ferry_error *err)
{
    ferry_error local_err;
    if (!err) err = &local_err;
    fy_error_clear(err);
    if (!scene || !out) {
        fy_error_set(err, FERRY_ERR_ARGUMENT, FERRY_NO_OFFSET, "", "a scene and an output are required");
        return FERRY_ERR_ARGUMENT;
    }
    *out = NULL;
    from_scene fs;
    memset(&fs, 0, sizeof fs);
    fs.scene = scene;
    fs.err = err;
    fs.arena = ferry_arena_create(0);
    if (!fs.arena) return fail_nomem(&fs), FERRY_ERR_NOMEM;
    fs.mesh = ferry_arena_alloc(fs.arena, sizeof *fs.mesh);
    bool ok = fs.mesh != NULL;
    if (!ok) fail_nomem(&fs);
    if (ok) {
        fs.mesh->version = 10;
        fs.mesh->arena = fs.arena;
        fs.default_material = (uint32_t)scene->material_count;
    }
    ok = ok && make_comment(&fs) && make_bones(&fs) && make_geometry(&fs) && make_materials(&fs) &&
         make_frames(&fs, options ? options->animation_index : 0);
    if (ok) {
        ferry_result r = ferry_alm_build_collapses(fs.mesh, options ? &options->build : NULL, fs.arena,
                                                   &fs.mesh->collapses, &fs.mesh->collapse_count, err);
        ok = r == FERRY_OK;
    }
    if (!ok) {
        ferry_result r = err->code != FERRY_OK ? err->code : FERRY_ERR_NOMEM;
        ferry_arena_destroy(fs.arena);
        return r;
    }
    *out = fs.mesh;
    return FERRY_OK;
}
