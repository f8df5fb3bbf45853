/* The bundled samples (the .alo files under samples/alamo, built by
 * tools/sample_models.c):
 *  - the committed files are exactly what the generator builds now, so they
 *    can never go stale;
 *  - every hand-built model reads back equal, field by field, and a read
 *    model writes back the same bytes;
 *  - together they use every chunk type of the model format, and every
 *    optional part, so that a sample dropped or thinned out is noticed;
 *  - their geometry, collision trees and skeletons are sane, since the
 *    samples double as examples of a correct model. */
#include <ferry/alo.h>
#include <ferry/chunk.h>

#include "../tools/sample_models.h"
#include "support.h"
#include "test.h"

/* ---- comparing a hand-built model with the model read from its bytes ----
 * A read model differs from a built one in what only says how the bytes
 * were laid out (layouts, offsets, the arena) and in defaults a built model
 * may leave unset (NULL padding, version 0, an empty object list). Those are
 * normalized here; every value is compared exactly, floats bit for bit. */

static void same_u(const char *where, const char *what, unsigned long long want, unsigned long long got)
{
    CHECK_MSG(want == got, "%s: %s: expected %llu, read %llu", where, what, want, got);
}

static void same_f(const char *where, const char *what, const float *want, const float *got, size_t n)
{
    bool same = memcmp(want, got, n * sizeof *want) == 0;
    CHECK_MSG(same, "%s: %s: expected %g %g %g %g.., read %g %g %g %g..", where, what, (double)want[0],
              n > 1 ? (double)want[1] : 0.0, n > 2 ? (double)want[2] : 0.0, n > 3 ? (double)want[3] : 0.0,
              (double)got[0], n > 1 ? (double)got[1] : 0.0, n > 2 ? (double)got[2] : 0.0, n > 3 ? (double)got[3] : 0.0);
}

static void same_s(const char *where, const char *what, const char *want, const char *got)
{
    bool same = (!want && !got) || (want && got && strcmp(want, got) == 0);
    CHECK_MSG(same, "%s: %s: expected '%s', read '%s'", where, what, want ? want : "(null)", got ? got : "(null)");
}

/* A built blob with NULL data stands for `zeros` zero bytes. */
static void same_blob(const char *where, const char *what, const ferry_blob *want, size_t zeros, const ferry_blob *got)
{
    size_t want_size = want->data ? want->size : zeros;
    bool same = got->size == want_size;
    for (size_t i = 0; same && i < want_size; i++) same = got->data[i] == (want->data ? want->data[i] : 0);
    CHECK_MSG(same, "%s: %s: bytes differ (expected %zu, read %u)", where, what, want_size, (unsigned)got->size);
}

static unsigned version(uint8_t v) { return v ? v : 2; }

static void compare_skeleton(const char *file, const ferry_alo_skeleton *w, const ferry_alo_skeleton *g)
{
    same_u(file, "bone count", w->bone_count, g->bone_count);
    same_blob(file, "bone count padding", &w->count_extra, FERRY_ALO_BONE_COUNT_SIZE - 4, &g->count_extra);
    for (size_t i = 0; i < w->bone_count && i < g->bone_count; i++) {
        const ferry_alo_bone *a = &w->bones[i], *b = &g->bones[i];
        char where[128];
        snprintf(where, sizeof where, "%s bone %zu", file, i);
        same_s(where, "name", a->name, b->name);
        same_u(where, "parent", (unsigned long long)(long long)a->parent, (unsigned long long)(long long)b->parent);
        same_u(where, "visible", a->visible, b->visible);
        same_u(where, "billboard", a->billboard, b->billboard);
        same_f(where, "matrix", a->matrix, b->matrix, 12);
        same_u(where, "chunk version", version(a->chunk_version), version(b->chunk_version));
        same_blob(where, "bytes after the fields", &a->extra, 0, &b->extra);
    }
}

static void compare_param(const char *where, const ferry_alo_shader_param *a, const ferry_alo_shader_param *b)
{
    same_u(where, "type", a->type, b->type);
    same_s(where, "name", a->name, b->name);
    same_u(where, "int value", (uint32_t)a->int_value, (uint32_t)b->int_value);
    same_f(where, "float values", a->value, b->value, 4);
    same_s(where, "texture", a->texture, b->texture);
}

static void compare_vertex(const char *where, bool v1, const ferry_alo_vertex *a, const ferry_alo_vertex *b)
{
    static const float zeros[4] = {0, 0, 0, 0};
    same_f(where, "position", a->position, b->position, 3);
    same_f(where, "normal", a->normal, b->normal, 3);
    same_f(where, "texcoords", &a->texcoord[0][0], &b->texcoord[0][0], 8);
    same_f(where, "tangent", a->tangent, b->tangent, 3);
    same_f(where, "binormal", a->binormal, b->binormal, 3);
    same_f(where, "color", a->color, b->color, 4);
    /* 0x10005 has no room for `unused`: it reads back as zeros. */
    same_f(where, "unused", v1 ? zeros : a->unused, b->unused, 4);
    for (int k = 0; k < 4; k++) same_u(where, "bone index", a->bone_index[k], b->bone_index[k]);
    same_f(where, "bone weights", a->bone_weight, b->bone_weight, 4);
}

static void compare_collision(const char *where, const ferry_alo_collision_tree *a, const ferry_alo_collision_tree *b)
{
    CHECK_MSG((a == NULL) == (b == NULL), "%s: collision tree %s", where, a ? "lost" : "appeared");
    if (!a || !b) return;
    same_f(where, "collision box min", a->box_min, b->box_min, 3);
    same_f(where, "collision box max", a->box_max, b->box_max, 3);
    same_u(where, "collision node count", a->node_count, b->node_count);
    for (size_t i = 0; i < a->node_count && i < b->node_count; i++) {
        const ferry_alo_collision_node *x = &a->nodes[i], *y = &b->nodes[i];
        bool same = memcmp(x->min, y->min, 3) == 0 && memcmp(x->max, y->max, 3) == 0 &&
                    x->primitive_count == y->primitive_count && x->link == y->link;
        CHECK_MSG(same, "%s: collision node %zu differs", where, i);
    }
    same_u(where, "collision primitive count", a->primitive_count, b->primitive_count);
    for (size_t i = 0; i < a->primitive_count && i < b->primitive_count; i++)
        same_u(where, "collision primitive", a->primitives[i], b->primitives[i]);
}

static void compare_submesh(const char *where, const ferry_alo_submesh *a, const ferry_alo_submesh *b)
{
    char at[192];
    same_s(where, "shader", a->material.shader, b->material.shader);
    same_u(where, "parameter count", a->material.param_count, b->material.param_count);
    for (size_t i = 0; i < a->material.param_count && i < b->material.param_count; i++) {
        snprintf(at, sizeof at, "%s parameter %zu", where, i);
        compare_param(at, &a->material.params[i], &b->material.params[i]);
    }
    same_s(where, "vertex format", a->vertex_format, b->vertex_format);
    same_u(where, "vertex chunk version", version(a->vertex_chunk_version), version(b->vertex_chunk_version));
    same_u(where, "vertex count", a->vertex_count, b->vertex_count);
    bool v1 = version(a->vertex_chunk_version) == 1;
    for (size_t i = 0; i < a->vertex_count && i < b->vertex_count; i++) {
        snprintf(at, sizeof at, "%s vertex %zu", where, i);
        compare_vertex(at, v1, &a->vertices[i], &b->vertices[i]);
    }
    same_u(where, "triangle count", a->triangle_count, b->triangle_count);
    if (a->triangle_count == b->triangle_count)
        CHECK_MSG(memcmp(a->indices, b->indices, 6 * a->triangle_count) == 0, "%s: indices differ", where);
    same_u(where, "has bone mapping", a->has_bone_mapping || a->bone_mapping_count, b->has_bone_mapping);
    same_u(where, "bone mapping count", a->bone_mapping_count, b->bone_mapping_count);
    for (size_t i = 0; i < a->bone_mapping_count && i < b->bone_mapping_count; i++)
        same_u(where, "bone mapping entry", a->bone_mapping[i], b->bone_mapping[i]);
    same_blob(where, "sub-mesh info padding", &a->info_extra, FERRY_ALO_SUBMESH_INFO_SIZE - 8, &b->info_extra);
    compare_collision(where, a->collision, b->collision);
}

static void compare_mesh(const char *where, const ferry_alo_mesh *a, const ferry_alo_mesh *b)
{
    same_s(where, "name", a->name, b->name);
    same_f(where, "bounds min", a->bounds_min, b->bounds_min, 3);
    same_f(where, "bounds max", a->bounds_max, b->bounds_max, 3);
    same_u(where, "unused", a->unused, b->unused);
    same_u(where, "hidden", a->is_hidden, b->is_hidden);
    same_u(where, "collision enabled", a->collision_enabled, b->collision_enabled);
    same_blob(where, "mesh info padding", &a->info_extra, FERRY_ALO_MESH_INFO_SIZE - 40, &b->info_extra);
    same_u(where, "sub-mesh count", a->submesh_count, b->submesh_count);
    for (size_t i = 0; i < a->submesh_count && i < b->submesh_count; i++) {
        char at[160];
        snprintf(at, sizeof at, "%s sub-mesh %zu", where, i);
        compare_submesh(at, &a->submeshes[i], &b->submeshes[i]);
    }
}

static void compare_light(const char *where, const ferry_alo_light *a, const ferry_alo_light *b)
{
    same_s(where, "name", a->name, b->name);
    same_u(where, "type", a->type, b->type);
    same_f(where, "color", a->color, b->color, 3);
    same_f(where, "intensity", &a->intensity, &b->intensity, 1);
    same_f(where, "far attenuation end", &a->far_attenuation_end, &b->far_attenuation_end, 1);
    same_f(where, "far attenuation start", &a->far_attenuation_start, &b->far_attenuation_start, 1);
    same_f(where, "hotspot", &a->hotspot_size, &b->hotspot_size, 1);
    same_f(where, "falloff", &a->falloff_size, &b->falloff_size, 1);
    same_blob(where, "bytes after the fields", &a->extra, 0, &b->extra);
}

/* The object list a model means: a built model may leave it empty, which
 * the writer takes as meshes first, then lights. */
static ferry_alo_object object_at(const ferry_alo_model *m, size_t i)
{
    if (m->object_count) return m->objects[i];
    if (i < m->mesh_count) return (ferry_alo_object){FERRY_ALO_OBJECT_MESH, i};
    return (ferry_alo_object){FERRY_ALO_OBJECT_LIGHT, i - m->mesh_count};
}

static void compare_dazzle(const char *where, const ferry_alo_dazzle *a, const ferry_alo_dazzle *b)
{
    same_f(where, "color", a->color, b->color, 3);
    same_f(where, "position", a->position, b->position, 3);
    same_f(where, "radius", &a->radius, &b->radius, 1);
    same_u(where, "texture column", a->texture_x, b->texture_x);
    same_u(where, "texture row", a->texture_y, b->texture_y);
    same_s(where, "texture", a->texture, b->texture);
    same_u(where, "texture grid", a->texture_size, b->texture_size);
    same_f(where, "frequency", &a->frequency, &b->frequency, 1);
    same_f(where, "phase", &a->phase, &b->phase, 1);
    same_u(where, "night only", a->night_only, b->night_only);
    same_u(where, "bone", a->bone, b->bone);
    same_s(where, "name", a->name, b->name);
    same_u(where, "hidden", a->is_hidden, b->is_hidden);
    same_u(where, "bias stored", a->present & FERRY_ALO_DAZZLE_HAS_BIAS, b->present & FERRY_ALO_DAZZLE_HAS_BIAS);
    same_u(where, "every required field read", b->present & FERRY_ALO_DAZZLE_ALL_REQUIRED,
           FERRY_ALO_DAZZLE_ALL_REQUIRED);
    float bias = (a->present & FERRY_ALO_DAZZLE_HAS_BIAS) ? a->bias : 1.0f; /* the reader's default */
    same_f(where, "bias", &bias, &b->bias, 1);
}

static void compare_connections(const char *file, const ferry_alo_connections *a, const ferry_alo_connections *b)
{
    char where[128];
    same_u(file, "object connection count", a->object_count, b->object_count);
    for (size_t i = 0; i < a->object_count && i < b->object_count; i++) {
        snprintf(where, sizeof where, "%s connection %zu", file, i);
        same_u(where, "object", a->objects[i].object, b->objects[i].object);
        same_u(where, "bone", a->objects[i].bone, b->objects[i].bone);
    }
    same_u(file, "proxy count", a->proxy_count, b->proxy_count);
    const uint32_t optional = FERRY_ALO_PROXY_HAS_HIDDEN | FERRY_ALO_PROXY_HAS_ALT_DECREASE;
    for (size_t i = 0; i < a->proxy_count && i < b->proxy_count; i++) {
        const ferry_alo_proxy *x = &a->proxies[i], *y = &b->proxies[i];
        snprintf(where, sizeof where, "%s proxy %zu", file, i);
        same_s(where, "name", x->name, y->name);
        same_u(where, "bone", x->bone, y->bone);
        same_u(where, "hidden", x->is_hidden, y->is_hidden);
        same_u(where, "alt decrease stay hidden", x->alt_decrease_stay_hidden, y->alt_decrease_stay_hidden);
        same_u(where, "optional fields stored", x->present & optional, y->present & optional);
    }
    same_u(file, "dazzle count", a->dazzle_count, b->dazzle_count);
    for (size_t i = 0; i < a->dazzle_count && i < b->dazzle_count; i++) {
        snprintf(where, sizeof where, "%s dazzle %zu", file, i);
        compare_dazzle(where, &a->dazzles[i], &b->dazzles[i]);
    }
    bool counted = a->has_dazzle_count || (a->counts_layout.order_count == 0 && a->dazzle_count);
    same_u(file, "dazzle count stored", counted, b->has_dazzle_count);
}

static void compare_models(const char *file, const ferry_alo_model *w, const ferry_alo_model *g)
{
    char where[128];
    compare_skeleton(file, &w->skeleton, &g->skeleton);
    same_u(file, "mesh count", w->mesh_count, g->mesh_count);
    for (size_t i = 0; i < w->mesh_count && i < g->mesh_count; i++) {
        snprintf(where, sizeof where, "%s mesh %zu", file, i);
        compare_mesh(where, &w->meshes[i], &g->meshes[i]);
    }
    same_u(file, "light count", w->light_count, g->light_count);
    for (size_t i = 0; i < w->light_count && i < g->light_count; i++) {
        snprintf(where, sizeof where, "%s light %zu", file, i);
        compare_light(where, &w->lights[i], &g->lights[i]);
    }
    size_t objects = w->mesh_count + w->light_count;
    same_u(file, "object count", objects, g->object_count);
    for (size_t i = 0; i < objects && i < g->object_count; i++) {
        ferry_alo_object x = object_at(w, i), y = g->objects[i];
        CHECK_MSG(x.kind == y.kind && x.index == y.index, "%s: object %zu is %d/%zu, read %d/%zu", file, i, (int)x.kind,
                  x.index, (int)y.kind, y.index);
    }
    compare_connections(file, &w->connections, &g->connections);
    /* Nothing in a sample is left uninterpreted. */
    same_u(file, "unknown root chunks", 0, g->layout.unknown_count);
    same_u(file, "string tails", 0, g->string_tail_count);
}

/* ---- sanity of the geometry ---- */

#define GEOMETRY_EPS 1e-5

static double dot3(const double a[3], const double b[3]) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

static void to_d(const float *f, double *d)
{
    for (int a = 0; a < 3; a++) d[a] = f[a];
}

static void check_vertex(const char *where, const ferry_alo_submesh *sm, size_t i)
{
    const ferry_alo_vertex *v = &sm->vertices[i];
    double n[3], t[3], b[3];
    to_d(v->normal, n);
    to_d(v->tangent, t);
    to_d(v->binormal, b);
    CHECK_MSG(fabs(dot3(n, n) - 1) < GEOMETRY_EPS, "%s vertex %zu: normal is not unit", where, i);
    CHECK_MSG(fabs(dot3(t, t) - 1) < GEOMETRY_EPS, "%s vertex %zu: tangent is not unit", where, i);
    CHECK_MSG(fabs(dot3(n, t)) < GEOMETRY_EPS, "%s vertex %zu: tangent is not perpendicular to the normal", where, i);
    /* Right-handed frame: B = N x T. */
    double c[3] = {n[1] * t[2] - n[2] * t[1], n[2] * t[0] - n[0] * t[2], n[0] * t[1] - n[1] * t[0]};
    CHECK_MSG(fabs(c[0] - b[0]) < GEOMETRY_EPS && fabs(c[1] - b[1]) < GEOMETRY_EPS && fabs(c[2] - b[2]) < GEOMETRY_EPS,
              "%s vertex %zu: binormal is not normal x tangent", where, i);
    for (int k = 0; k < 2; k++)
        CHECK_MSG(v->texcoord[0][k] >= 0 && v->texcoord[0][k] <= 1, "%s vertex %zu: UV outside [0,1]", where, i);
    CHECK_MSG(v->bone_weight[0] == 1 && v->bone_weight[1] == 0 && v->bone_weight[2] == 0 && v->bone_weight[3] == 0,
              "%s vertex %zu: bone weights are not [1,0,0,0]", where, i);
    size_t slots = sm->bone_mapping_count ? sm->bone_mapping_count : 1;
    CHECK_MSG(v->bone_index[0] < slots, "%s vertex %zu: bone slot %u outside the mapping", where, i,
              (unsigned)v->bone_index[0]);
}

/* Winding: (p1 - p0) x (p2 - p0) along the vertex normals. Tangent frame:
 * T along dP/du and B along -dP/dv (Direct3D's v runs down the image). */
static void check_triangle(const char *where, const ferry_alo_submesh *sm, size_t t)
{
    const ferry_alo_vertex *v[3];
    for (int k = 0; k < 3; k++) v[k] = &sm->vertices[sm->indices[3 * t + k]];
    double e1[3], e2[3];
    for (int a = 0; a < 3; a++) {
        e1[a] = (double)v[1]->position[a] - v[0]->position[a];
        e2[a] = (double)v[2]->position[a] - v[0]->position[a];
    }
    double g[3] = {e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2], e1[0] * e2[1] - e1[1] * e2[0]};
    double du1 = (double)v[1]->texcoord[0][0] - v[0]->texcoord[0][0];
    double dv1 = (double)v[1]->texcoord[0][1] - v[0]->texcoord[0][1];
    double du2 = (double)v[2]->texcoord[0][0] - v[0]->texcoord[0][0];
    double dv2 = (double)v[2]->texcoord[0][1] - v[0]->texcoord[0][1];
    double r = du1 * dv2 - du2 * dv1;
    double dpdu[3], dpdv[3];
    for (int a = 0; a < 3; a++) {
        dpdu[a] = (e1[a] * dv2 - e2[a] * dv1) / r;
        dpdv[a] = (e2[a] * du1 - e1[a] * du2) / r;
    }
    CHECK_MSG(r != 0, "%s triangle %zu: degenerate UVs", where, t);
    for (int k = 0; k < 3; k++) {
        double n[3], tg[3], b[3];
        to_d(v[k]->normal, n);
        to_d(v[k]->tangent, tg);
        to_d(v[k]->binormal, b);
        CHECK_MSG(dot3(g, n) > 0, "%s triangle %zu: winding disagrees with the normal of corner %d", where, t, k);
        if (r == 0) continue;
        CHECK_MSG(dot3(dpdu, tg) > 0, "%s triangle %zu: tangent of corner %d does not follow u", where, t, k);
        CHECK_MSG(dot3(dpdv, b) < 0, "%s triangle %zu: binormal of corner %d does not follow -v", where, t, k);
    }
}

/* ---- collision trees: conservative, complete, and agreeing with brute force ---- */

typedef struct box {
    double lo[3], hi[3];
} box;

typedef struct tree_check {
    const char *where;
    const ferry_alo_submesh *sm;
    box path[64];
    unsigned *covered;
    double eps;
    size_t visited;
} tree_check;

static void check_node(tree_check *tc, size_t node, size_t depth)
{
    const ferry_alo_collision_tree *t = tc->sm->collision;
    const ferry_alo_collision_node *n = &t->nodes[node];
    const box *parent = &tc->path[depth];
    box *b = &tc->path[depth + 1];
    tc->visited++;
    if (depth + 2 >= sizeof tc->path / sizeof tc->path[0] || tc->visited > t->node_count) {
        CHECK_MSG(false, "%s: collision tree too deep or shares nodes", tc->where);
        return;
    }
    for (int a = 0; a < 3; a++) {
        CHECK_MSG(n->min[a] <= n->max[a], "%s: collision node %zu has an inverted box", tc->where, node);
        double ext = parent->hi[a] - parent->lo[a];
        b->lo[a] = parent->lo[a] + n->min[a] / 255.0 * ext;
        b->hi[a] = parent->lo[a] + n->max[a] / 255.0 * ext;
    }
    if (n->primitive_count == 0) {
        CHECK_MSG(n->link > node && (size_t)n->link + 1 < t->node_count, "%s: collision node %zu links badly",
                  tc->where, node);
        if (n->link > node && (size_t)n->link + 1 < t->node_count) {
            check_node(tc, n->link, depth + 1);
            check_node(tc, (size_t)n->link + 1, depth + 1);
        }
        return;
    }
    CHECK_MSG(n->primitive_count <= 4, "%s: collision leaf %zu holds %u triangles", tc->where, node,
              (unsigned)n->primitive_count);
    for (size_t p = n->link; p < (size_t)n->link + n->primitive_count && p < t->primitive_count; p++) {
        uint16_t tri = t->primitives[p];
        if (tri >= tc->sm->triangle_count) continue;
        tc->covered[tri]++;
        /* Inside the leaf's box and every box above it. */
        for (int k = 0; k < 3; k++) {
            const float *pos = tc->sm->vertices[tc->sm->indices[3 * tri + k]].position;
            for (size_t d = 1; d <= depth + 1; d++)
                for (int a = 0; a < 3; a++)
                    CHECK_MSG(pos[a] >= tc->path[d].lo[a] - tc->eps && pos[a] <= tc->path[d].hi[a] + tc->eps,
                              "%s: triangle %u sticks out of the box of a node above leaf %zu", tc->where,
                              (unsigned)tri, node);
        }
    }
}

static void check_tree(const char *where, const ferry_alo_submesh *sm)
{
    const ferry_alo_collision_tree *t = sm->collision;
    tree_check tc;
    memset(&tc, 0, sizeof tc);
    tc.where = where;
    tc.sm = sm;
    tc.covered = calloc(sm->triangle_count + 1, sizeof(unsigned));
    double size = 0;
    for (int a = 0; a < 3; a++) {
        tc.path[0].lo[a] = t->box_min[a];
        tc.path[0].hi[a] = t->box_max[a];
        size = fmax(size, t->box_max[a] - t->box_min[a]);
    }
    tc.eps = size * 1e-9;
    same_u(where, "collision primitives = triangles", sm->triangle_count, t->primitive_count);
    CHECK(t->node_count > 0);
    if (t->node_count) check_node(&tc, 0, 0);
    same_u(where, "collision nodes reached", t->node_count, tc.visited);
    for (size_t i = 0; i < sm->triangle_count; i++)
        CHECK_MSG(tc.covered[i] == 1, "%s: triangle %zu is in %u collision leaves", where, i, tc.covered[i]);
    free(tc.covered);

    /* Rays along each axis through a grid over the box, from outside it. */
    size_t rays = 0, hits = 0;
    for (int axis = 0; axis < 3; axis++) {
        for (int dir = -1; dir <= 1; dir += 2) {
            for (int i = 0; i <= 8; i++) {
                for (int j = 0; j <= 8; j++) {
                    float o[3], d[3] = {0, 0, 0};
                    int u = (axis + 1) % 3, w = (axis + 2) % 3;
                    o[u] = t->box_min[u] + (t->box_max[u] - t->box_min[u]) * (0.03f + 0.94f * (float)i / 8);
                    o[w] = t->box_min[w] + (t->box_max[w] - t->box_min[w]) * (0.05f + 0.9f * (float)j / 8);
                    o[axis] = dir > 0 ? t->box_min[axis] - 1 : t->box_max[axis] + 1;
                    d[axis] = (float)dir;
                    /* A slight slant keeps rays off shared edges. */
                    d[u] = 0.013f;
                    ferry_alo_ray_hit a, b;
                    bool ha = ferry_alo_collision_raycast(sm, o, d, 100, &a);
                    bool hb = ferry_alo_raycast_brute_force(sm, o, d, 100, &b);
                    rays++;
                    hits += hb;
                    CHECK_MSG(ha == hb && (!ha || (a.triangle == b.triangle && a.t == b.t)),
                              "%s: tree and brute-force raycasts disagree (axis %d, %d %d)", where, axis, i, j);
                }
            }
        }
    }
    CHECK_MSG(hits > rays / 2, "%s: only %zu of %zu rays hit the mesh", where, hits, rays);
}

static void check_sanity(const char *file, const ferry_alo_model *m)
{
    const ferry_alo_skeleton *sk = &m->skeleton;
    for (size_t i = 0; i < sk->bone_count; i++) {
        int32_t p = sk->bones[i].parent;
        CHECK_MSG(i == 0 ? p == -1 : (p >= 0 && (size_t)p < i), "%s: bone %zu has parent %d", file, i, (int)p);
    }
    char where[160];
    for (size_t mi = 0; mi < m->mesh_count; mi++) {
        const ferry_alo_mesh *mesh = &m->meshes[mi];
        float lo[3], hi[3];
        CHECK(ferry_alo_mesh_vertex_bounds(mesh, lo, hi));
        snprintf(where, sizeof where, "%s mesh %zu", file, mi);
        same_f(where, "bounds min = vertex bounds", lo, mesh->bounds_min, 3);
        same_f(where, "bounds max = vertex bounds", hi, mesh->bounds_max, 3);
        for (size_t si = 0; si < mesh->submesh_count; si++) {
            const ferry_alo_submesh *sm = &mesh->submeshes[si];
            snprintf(where, sizeof where, "%s mesh %zu sub-mesh %zu", file, mi, si);
            for (size_t v = 0; v < sm->vertex_count; v++) check_vertex(where, sm, v);
            for (size_t t = 0; t < sm->triangle_count; t++) check_triangle(where, sm, t);
            if (sm->collision) check_tree(where, sm);
        }
    }
}

/* ---- which chunk types and optional parts the sample files hold ---- */

typedef struct coverage {
    uint32_t types[128];
    size_t type_count;
    unsigned light_types;      /* bit per light type */
    bool dazzle_count_stored;  /* 0x601 mini-chunk 9 */
    bool dazzle_fields;        /* a type-0 child of 0x604 with mini-chunks 0..12 */
    bool dazzle_bias, dazzle_no_bias;
    bool proxy_hidden, proxy_no_hidden, proxy_alt, proxy_no_alt;
    bool billboard;            /* a 0x206 bone with a billboard mode */
} coverage;

static uint32_t minis_present(const ferry_chunk *c)
{
    ferry_mini_chunk minis[32];
    size_t n = 0;
    ferry_error err;
    if (ferry_mini_chunks_parse(c, minis, 32, &n, &err) != FERRY_OK) return 0;
    uint32_t bits = 0;
    for (size_t i = 0; i < n && i < 32; i++)
        if (minis[i].type < 32) bits |= 1u << minis[i].type;
    return bits;
}

static uint32_t load_u32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void cover(coverage *cv, const ferry_chunk *c)
{
    bool known = false;
    for (size_t i = 0; i < cv->type_count; i++) known = known || cv->types[i] == c->type;
    if (!known && cv->type_count < sizeof cv->types / sizeof cv->types[0]) cv->types[cv->type_count++] = c->type;
    if (!c->is_container) {
        if (c->type == FERRY_ALO_LIGHT_DATA && c->size >= 4 && load_u32(c->data) < 32)
            cv->light_types |= 1u << load_u32(c->data);
        if (c->type == FERRY_ALO_BONE_V2 && c->size >= 12 && load_u32(c->data + 8) != 0) cv->billboard = true;
        if (c->type == FERRY_ALO_CONNECTION_COUNTS && (minis_present(c) & (1u << 9))) cv->dazzle_count_stored = true;
        if (c->type == FERRY_ALO_PROXY_CONNECTION) {
            uint32_t m = minis_present(c);
            cv->proxy_hidden |= (m & (1u << 7)) != 0;
            cv->proxy_no_hidden |= !(m & (1u << 7));
            cv->proxy_alt |= (m & (1u << 8)) != 0;
            cv->proxy_no_alt |= !(m & (1u << 8));
        }
        if (c->type == 0 && c->parent && c->parent->type == FERRY_ALO_DAZZLE) {
            uint32_t m = minis_present(c);
            cv->dazzle_fields |= (m & FERRY_ALO_DAZZLE_ALL_REQUIRED) == FERRY_ALO_DAZZLE_ALL_REQUIRED;
            cv->dazzle_bias |= (m & FERRY_ALO_DAZZLE_HAS_BIAS) != 0;
            cv->dazzle_no_bias |= !(m & FERRY_ALO_DAZZLE_HAS_BIAS);
        }
    }
    for (size_t i = 0; i < c->child_count; i++) cover(cv, &c->children[i]);
}

static void check_coverage(const coverage *cv)
{
    static const uint32_t required[] = {
        FERRY_ALO_SKELETON, FERRY_ALO_BONE_COUNT, FERRY_ALO_BONE, FERRY_ALO_BONE_NAME, FERRY_ALO_BONE_V1,
        FERRY_ALO_BONE_V2, FERRY_ALO_MESH, FERRY_ALO_MESH_NAME, FERRY_ALO_MESH_INFO, FERRY_ALO_CONNECTIONS,
        FERRY_ALO_CONNECTION_COUNTS, FERRY_ALO_OBJECT_CONNECTION, FERRY_ALO_PROXY_CONNECTION, FERRY_ALO_DAZZLE,
        FERRY_ALO_COLLISION_TREE, FERRY_ALO_COLLISION_INFO, FERRY_ALO_COLLISION_NODES,
        FERRY_ALO_COLLISION_PRIMITIVES, FERRY_ALO_LIGHT, FERRY_ALO_LIGHT_NAME, FERRY_ALO_LIGHT_DATA,
        FERRY_ALO_SUBMESH_DATA, FERRY_ALO_SUBMESH_INFO, FERRY_ALO_VERTEX_FORMAT, FERRY_ALO_INDEX_BUFFER,
        FERRY_ALO_VERTEX_BUFFER_V1, FERRY_ALO_BONE_MAPPING, FERRY_ALO_VERTEX_BUFFER_V2, FERRY_ALO_MATERIAL,
        FERRY_ALO_SHADER_NAME, FERRY_ALO_PARAM_INT, FERRY_ALO_PARAM_FLOAT, FERRY_ALO_PARAM_FLOAT3,
        FERRY_ALO_PARAM_TEXTURE, FERRY_ALO_PARAM_FLOAT4,
    };
    for (size_t r = 0; r < sizeof required / sizeof required[0]; r++) {
        bool found = false;
        for (size_t i = 0; i < cv->type_count; i++) found = found || cv->types[i] == required[r];
        CHECK_MSG(found, "no sample holds chunk type 0x%x", (unsigned)required[r]);
    }
    CHECK_MSG(cv->light_types == 7, "light types present: mask 0x%x, expected omni, directional and spot",
              cv->light_types);
    CHECK_MSG(cv->dazzle_count_stored, "no sample stores the dazzle count (0x601 mini-chunk 9)");
    CHECK_MSG(cv->dazzle_fields, "no sample holds a dazzle with all its fields");
    CHECK_MSG(cv->dazzle_bias && cv->dazzle_no_bias, "samples need dazzles both with and without a bias");
    CHECK_MSG(cv->proxy_hidden && cv->proxy_no_hidden, "samples need proxies both with and without 'hidden'");
    CHECK_MSG(cv->proxy_alt && cv->proxy_no_alt, "samples need proxies both with and without 'alt decrease'");
    CHECK_MSG(cv->billboard, "no sample holds a bone with a billboard mode");
}

/* A skinned sub-mesh must actually use more than one mapped bone. */
static bool uses_skinning(const ferry_alo_model *m)
{
    for (size_t i = 0; i < m->mesh_count; i++) {
        for (size_t s = 0; s < m->meshes[i].submesh_count; s++) {
            const ferry_alo_submesh *sm = &m->meshes[i].submeshes[s];
            if (sm->bone_mapping_count < 2) continue;
            for (size_t v = 0; v < sm->vertex_count; v++)
                if (sm->vertices[v].bone_index[0] > 0) return true;
        }
    }
    return false;
}

/* ---- the checks per sample ---- */

static void check_validates(const char *file, const char *what, const ferry_alo_model *m)
{
    ferry_diagnostics diags = {0};
    size_t errors = ferry_alo_validate(m, NULL, &diags);
    for (size_t i = 0; i < diags.count; i++)
        fprintf(stderr, "%s (%s): [%s] %s\n", file, what, diags.items[i].rule, diags.items[i].message);
    CHECK_MSG(errors == 0 && diags.count == 0, "%s (%s): %zu errors, %zu reports", file, what, errors, diags.count);
    ferry_diagnostics_free(&diags);
}

static bool same_bytes(const char *what, const uint8_t *a, size_t a_size, const uint8_t *b, size_t b_size)
{
    if (a_size == b_size && memcmp(a, b, a_size) == 0) return true;
    size_t k = 0;
    while (k < a_size && k < b_size && a[k] == b[k]) k++;
    fprintf(stderr, "%s: sizes %zu and %zu, first difference at 0x%zx\n", what, a_size, b_size, k);
    return false;
}

static void check_sample(sample_builder build, coverage *cv, bool *skinned)
{
    sample_model sample;
    build(&sample);
    const char *file = sample.file;
    ferry_error err;
    ferry_buffer bytes = {0};
    CHECK_MSG(ferry_alo_write(&sample.model, &bytes, &err) == FERRY_OK, "%s: write: %s", file, err.message);

    /* Building is deterministic. */
    sample_model again;
    build(&again);
    ferry_buffer bytes2 = {0};
    CHECK(ferry_alo_write(&again.model, &bytes2, &err) == FERRY_OK);
    CHECK_MSG(same_bytes(file, bytes.data, bytes.size, bytes2.data, bytes2.size), "%s: two builds differ", file);
    ferry_buffer_free(&bytes2);

    /* An empty object list means meshes first, then lights: where that is
     * the sample's order, leaving the list out changes nothing. */
    bool default_order = true;
    for (size_t i = 0; i < again.model.object_count; i++) {
        const ferry_alo_object *o = &again.model.objects[i];
        size_t expect = o->kind == FERRY_ALO_OBJECT_MESH ? o->index : again.model.mesh_count + o->index;
        default_order = default_order && expect == i;
    }
    if (default_order) {
        again.model.objects = NULL;
        again.model.object_count = 0;
        CHECK(ferry_alo_write(&again.model, &bytes2, &err) == FERRY_OK);
        CHECK_MSG(same_bytes(file, bytes.data, bytes.size, bytes2.data, bytes2.size),
                  "%s: an empty object list writes different bytes", file);
        ferry_buffer_free(&bytes2);
    }
    sample_model_free(&again);

    /* (a) The committed file is what the generator makes now. */
    char path[1024];
    snprintf(path, sizeof path, "%s/samples/%s", FERRY_SOURCE_DIR, file);
    size_t committed_size = 0;
    uint8_t *committed = test_read_file(path, &committed_size);
    CHECK_MSG(committed != NULL, "%s is missing: run `make samples`", path);
    if (committed)
        CHECK_MSG(same_bytes(path, committed, committed_size, bytes.data, bytes.size),
                  "%s is stale: run `make samples` and commit the result", path);
    free(committed);
    CHECK_MSG(bytes.size < 100 * 1024, "%s: %zu bytes, samples should stay small", file, bytes.size);

    /* (b) It reads back equal, and the read model writes the same bytes. */
    ferry_alo_model *read = NULL;
    ferry_result rc = ferry_alo_read(bytes.data, bytes.size, NULL, &read, &err);
    CHECK_MSG(rc == FERRY_OK, "%s: read back: %s", file, err.message);
    if (rc == FERRY_OK) {
        compare_models(file, &sample.model, read);
        ferry_buffer rewritten = {0};
        CHECK(ferry_alo_write(read, &rewritten, &err) == FERRY_OK);
        CHECK_MSG(same_bytes(file, bytes.data, bytes.size, rewritten.data, rewritten.size),
                  "%s: the read model writes different bytes", file);
        ferry_buffer_free(&rewritten);
        check_validates(file, "as read", read);
        *skinned = *skinned || uses_skinning(read);
        ferry_alo_free(read);
    }
    check_validates(file, "as built", &sample.model);
    check_sanity(file, &sample.model);

    /* (c) What chunks it holds. */
    ferry_chunk_tree *tree = NULL;
    rc = ferry_chunk_read(bytes.data, bytes.size, NULL, &tree, &err);
    CHECK_MSG(rc == FERRY_OK, "%s: chunk tree: %s", file, err.message);
    if (rc == FERRY_OK) {
        for (size_t i = 0; i < tree->root_count; i++) cover(cv, &tree->roots[i]);
        ferry_chunk_tree_free(tree);
    }
    ferry_buffer_free(&bytes);
    sample_model_free(&sample);
}

int main(void)
{
    coverage cv;
    memset(&cv, 0, sizeof cv);
    bool skinned = false;
    CHECK(sample_builder_count >= 3);
    for (size_t i = 0; i < sample_builder_count; i++) check_sample(sample_builders[i], &cv, &skinned);
    check_coverage(&cv);
    CHECK_MSG(skinned, "no sample has vertices skinned to more than one mapped bone");

    /* Nothing under samples/alamo that the generator does not make. */
    char **paths;
    size_t n = test_list_files(FERRY_SOURCE_DIR "/samples/alamo", ".alo", &paths);
    same_u("samples/alamo", "files", sample_builder_count, n);
    test_free_paths(paths, n);
    TEST_END();
}
