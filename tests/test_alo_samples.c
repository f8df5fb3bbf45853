/* The bundled samples (the files under samples/alamo, built by
 * tools/sample_models.c: models, animations for walker.alo, a particle
 * system):
 *  - the committed files are exactly what the generator builds now, so they
 *    can never go stale;
 *  - every hand-built model, animation and particle system reads back
 *    equal, field by field, and what was read writes back the same bytes;
 *  - each validates with no report at all (animations also against their
 *    model, the particle system under its file name);
 *  - together they use every chunk type of the model, animation (both
 *    formats) and particle formats, and every optional part, so that a
 *    sample dropped or thinned out is noticed;
 *  - their geometry, collision trees and skeletons are sane, since the
 *    samples double as examples of a correct model; animations loop and
 *    pose the same in the other ALA format; particle tracks give the
 *    values worked out by hand. */
#include <ctype.h>

#include <ferry/ala.h>
#include <ferry/alo.h>
#include <ferry/alamo_chunk.h>
#include <ferry/particle.h>

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
    if (ferry_alamo_mini_chunks_parse(c, minis, 32, &n, &err) != FERRY_OK) return 0;
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
    rc = ferry_alamo_chunk_read(bytes.data, bytes.size, NULL, &tree, &err);
    CHECK_MSG(rc == FERRY_OK, "%s: chunk tree: %s", file, err.message);
    if (rc == FERRY_OK) {
        for (size_t i = 0; i < tree->root_count; i++) cover(cv, &tree->roots[i]);
        ferry_alamo_chunk_free(tree);
    }
    ferry_buffer_free(&bytes);
    sample_model_free(&sample);
}

/* ==== animations and particle systems ==== */

static void same_mem(const char *where, const char *what, const void *want, const void *got, size_t bytes)
{
    bool same = bytes == 0 || (want && got && memcmp(want, got, bytes) == 0);
    CHECK_MSG(same, "%s: %s differ", where, what);
}

/* A set of chunk kinds, each the chunk's type under its parent's (small
 * particle types mean different things at different depths). */
typedef struct kind_set {
    uint64_t kinds[64];
    size_t count;
} kind_set;

#define KIND(parent, type) ((uint64_t)(parent) << 32 | (uint32_t)(type))
#define ROOT 0xFFFFFFFFu

static void kind_add(kind_set *s, uint64_t kind)
{
    for (size_t i = 0; i < s->count; i++)
        if (s->kinds[i] == kind) return;
    if (s->count < sizeof s->kinds / sizeof s->kinds[0]) s->kinds[s->count++] = kind;
}

static bool kind_has(const kind_set *s, uint64_t kind)
{
    for (size_t i = 0; i < s->count; i++)
        if (s->kinds[i] == kind) return true;
    return false;
}

static void kinds_of(kind_set *s, const ferry_chunk *c)
{
    kind_add(s, KIND(c->parent ? c->parent->type : ROOT, c->type));
    for (size_t i = 0; i < c->child_count; i++) kinds_of(s, &c->children[i]);
}

/* Whether a data chunk holds a mini-chunk of `type` (of `size` bytes, when
 * size >= 0). */
static bool has_mini(const ferry_chunk *c, uint8_t type, int size)
{
    ferry_mini_chunk minis[64];
    size_t n = 0;
    ferry_error err;
    if (c->is_container || ferry_alamo_mini_chunks_parse(c, minis, 64, &n, &err) != FERRY_OK) return false;
    for (size_t i = 0; i < n && i < 64; i++)
        if (minis[i].type == type && (size < 0 || minis[i].size == size)) return true;
    return false;
}

static size_t mini_count(const ferry_chunk *c)
{
    size_t n = 0;
    ferry_error err;
    if (c->is_container || ferry_alamo_mini_chunks_parse(c, NULL, 0, &n, &err) != FERRY_OK) return 0;
    return n;
}

static ferry_chunk_tree *read_chunks(const char *file, const ferry_buffer *bytes)
{
    ferry_error err;
    ferry_chunk_tree *tree = NULL;
    ferry_result rc = ferry_alamo_chunk_read(bytes->data, bytes->size, NULL, &tree, &err);
    CHECK_MSG(rc == FERRY_OK, "%s: chunk tree: %s", file, err.message);
    return rc == FERRY_OK ? tree : NULL;
}

/* Finds the first chunk of `type` under a parent of `parent` type. */
static const ferry_chunk *find_chunk(const ferry_chunk *c, uint32_t parent, uint32_t type)
{
    if (c->type == type && c->parent && c->parent->type == parent) return c;
    for (size_t i = 0; i < c->child_count; i++) {
        const ferry_chunk *found = find_chunk(&c->children[i], parent, type);
        if (found) return found;
    }
    return NULL;
}

/* The committed file equals the generator's bytes, and stays small. */
static void check_committed(const char *file, const ferry_buffer *bytes)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/samples/%s", FERRY_SOURCE_DIR, file);
    size_t committed_size = 0;
    uint8_t *committed = test_read_file(path, &committed_size);
    CHECK_MSG(committed != NULL, "%s is missing: run `make samples`", path);
    if (committed)
        CHECK_MSG(same_bytes(path, committed, committed_size, bytes->data, bytes->size),
                  "%s is stale: run `make samples` and commit the result", path);
    free(committed);
    CHECK_MSG(bytes->size < 16 * 1024, "%s: %zu bytes, samples should stay small", file, bytes->size);
}

static void check_no_reports(const char *file, const char *what, size_t errors, ferry_diagnostics *diags)
{
    for (size_t i = 0; i < diags->count; i++)
        fprintf(stderr, "%s (%s): [%s] %s\n", file, what, diags->items[i].rule, diags->items[i].message);
    CHECK_MSG(errors == 0 && diags->count == 0, "%s (%s): %zu errors, %zu reports", file, what, errors, diags->count);
    ferry_diagnostics_free(diags);
}

/* ---- animations ---- */

static void compare_ala_bone(const char *where, const ferry_ala_bone *a, const ferry_ala_bone *b)
{
    same_s(where, "name", a->name, b->name);
    same_u(where, "index", a->index, b->index);
    same_u(where, "unknown", a->unknown, b->unknown);
    same_f(where, "translation offset", a->translation_offset, b->translation_offset, 3);
    same_f(where, "translation scale", a->translation_scale, b->translation_scale, 3);
    same_f(where, "scale offset", a->scale_offset, b->scale_offset, 3);
    same_f(where, "scale scale", a->scale_scale, b->scale_scale, 3);
    same_u(where, "translation index", (uint16_t)a->translation_index, (uint16_t)b->translation_index);
    same_u(where, "scale index", (uint16_t)a->scale_index, (uint16_t)b->scale_index);
    same_u(where, "rotation index", (uint16_t)a->rotation_index, (uint16_t)b->rotation_index);
    same_mem(where, "default rotation", a->default_rotation, b->default_rotation, sizeof a->default_rotation);
    same_u(where, "format-2 minis stored", a->present & FERRY_ALA_BONE_FORMAT2_MINIS,
           b->present & FERRY_ALA_BONE_FORMAT2_MINIS);
    same_u(where, "translation count", a->translation_count, b->translation_count);
    same_u(where, "scale count", a->scale_count, b->scale_count);
    same_u(where, "rotation count", a->rotation_count, b->rotation_count);
    if (a->translation_count == b->translation_count)
        same_mem(where, "translations", a->translations, b->translations, 6 * a->translation_count);
    if (a->scale_count == b->scale_count) same_mem(where, "scales", a->scales, b->scales, 6 * a->scale_count);
    if (a->rotation_count == b->rotation_count)
        same_mem(where, "rotations", a->rotations, b->rotations, 8 * a->rotation_count);
    same_u(where, "translation chunk", a->has_translations, b->has_translations);
    same_u(where, "scale chunk", a->has_scales, b->has_scales);
    same_u(where, "rotation chunk", a->has_rotations, b->has_rotations);
    same_u(where, "visibility size", a->visibility_size, b->visibility_size);
    if (a->visibility_size == b->visibility_size)
        same_mem(where, "visibility bits", a->visibility, b->visibility, a->visibility_size);
    same_u(where, "step size", a->step_size, b->step_size);
    if (a->step_size == b->step_size) same_mem(where, "step bits", a->steps, b->steps, a->step_size);
    same_u(where, "visibility chunk", a->has_visibility, b->has_visibility);
    same_u(where, "step chunk", a->has_steps, b->has_steps);
    same_u(where, "unknown bone chunks", 0, b->layout.unknown_count);
    same_u(where, "unknown header minis", 0, b->header_layout.unknown_count);
}

static void compare_animations(const char *file, const ferry_ala_animation *w, const ferry_ala_animation *g)
{
    same_u(file, "format", w->format, g->format);
    same_u(file, "frame count", w->frame_count, g->frame_count);
    same_f(file, "fps", &w->fps, &g->fps, 1);
    same_u(file, "bone count", w->bone_count, g->bone_count);
    same_u(file, "bone count mismatch", false, g->bone_count_mismatch);
    same_u(file, "rotation stride", w->rotation_stride, g->rotation_stride);
    same_u(file, "translation stride", w->translation_stride, g->translation_stride);
    same_u(file, "scale stride", w->scale_stride, g->scale_stride);
    same_u(file, "frame rotation count", w->frame_rotation_count, g->frame_rotation_count);
    same_u(file, "frame translation count", w->frame_translation_count, g->frame_translation_count);
    same_u(file, "frame scale count", w->frame_scale_count, g->frame_scale_count);
    if (w->frame_rotation_count == g->frame_rotation_count)
        same_mem(file, "frame rotations", w->frame_rotations, g->frame_rotations, 2 * w->frame_rotation_count);
    if (w->frame_translation_count == g->frame_translation_count)
        same_mem(file, "frame translations", w->frame_translations, g->frame_translations,
                 2 * w->frame_translation_count);
    if (w->frame_scale_count == g->frame_scale_count)
        same_mem(file, "frame scales", w->frame_scales, g->frame_scales, 2 * w->frame_scale_count);
    same_u(file, "0x1009 stored", w->has_frame_rotations, g->has_frame_rotations);
    same_u(file, "0x100a stored", w->has_frame_translations, g->has_frame_translations);
    same_u(file, "0x100b stored", w->has_frame_scales, g->has_frame_scales);
    for (size_t i = 0; i < w->bone_count && i < g->bone_count; i++) {
        char where[128];
        snprintf(where, sizeof where, "%s bone %zu", file, i);
        compare_ala_bone(where, &w->bones[i], &g->bones[i]);
    }
    same_u(file, "unknown chunks", 0, g->layout.unknown_count + g->file_layout.unknown_count);
    same_u(file, "unknown header minis", 0, g->header_layout.unknown_count);
    same_u(file, "string tails", 0, g->string_tail_count);
}

static bool same_pose(const ferry_ala_pose *a, const ferry_ala_pose *b)
{
    return memcmp(a->translation, b->translation, sizeof a->translation) == 0 &&
           memcmp(a->rotation, b->rotation, sizeof a->rotation) == 0 &&
           memcmp(a->scale, b->scale, sizeof a->scale) == 0 && a->has_visibility == b->has_visibility &&
           (!a->has_visibility || a->visible == b->visible);
}

/* Every bone at every frame, and between frames (clamped and looping),
 * bit for bit the same in both animations. */
static void same_poses(const char *what, const ferry_ala_animation *x, const ferry_ala_animation *y)
{
    CHECK_MSG(x->bone_count == y->bone_count && x->frame_count == y->frame_count, "%s: shapes differ", what);
    if (x->bone_count != y->bone_count || x->frame_count != y->frame_count) return;
    size_t differ = 0, compared = 0;
    for (size_t b = 0; b < x->bone_count; b++) {
        for (uint32_t f = 0; f < x->frame_count; f++) {
            ferry_ala_pose p, q;
            ferry_ala_sample_frame(x, b, f, &p);
            ferry_ala_sample_frame(y, b, f, &q);
            differ += !same_pose(&p, &q);
            for (int wrap = 0; wrap < 2; wrap++) {
                double at = f + 0.375;
                ferry_ala_sample(x, b, at, (ferry_ala_wrap)wrap, &p);
                ferry_ala_sample(y, b, at, (ferry_ala_wrap)wrap, &q);
                differ += !same_pose(&p, &q);
            }
            compared += 3;
        }
    }
    CHECK_MSG(differ == 0, "%s: %zu of %zu poses differ", what, differ, compared);
}

/* What the animation means: the last frame is the first again, a step bit
 * holds its frame's pose until the next, bones without a rotation track
 * take their default rotation. */
static void check_motion(const char *file, const ferry_ala_animation *a)
{
    uint32_t last = a->frame_count - 1;
    for (size_t b = 0; b < a->bone_count; b++) {
        const ferry_ala_bone *bone = &a->bones[b];
        ferry_ala_pose first, end, mid;
        ferry_ala_sample_frame(a, b, 0, &first);
        ferry_ala_sample_frame(a, b, last, &end);
        CHECK_MSG(same_pose(&first, &end), "%s bone %zu '%s': the last frame is not the first", file, b, bone->name);
        bool moves = false;
        for (uint32_t f = 0; f < last; f++) {
            ferry_ala_pose p, q;
            ferry_ala_sample_frame(a, b, f, &p);
            ferry_ala_sample_frame(a, b, f + 1, &q);
            moves = moves || !same_pose(&p, &q);
            bool step = bone->steps && f / 8 < bone->step_size && ((bone->steps[f / 8] >> (f % 8)) & 1);
            if (!step) continue;
            ferry_ala_sample(a, b, f + 0.5, FERRY_ALA_CLAMP, &mid);
            CHECK_MSG(same_pose(&p, &mid), "%s bone %zu: the step bit of frame %u does not hold it", file, b,
                      (unsigned)f);
        }
        CHECK_MSG(moves, "%s bone %zu '%s' never changes: leave it out", file, b, bone->name);
    }
}

typedef struct ala_coverage {
    kind_set kinds[3];           /* by format */
    bool one_quaternion;         /* format 1: an 8-byte 0x1006 */
    bool rotation_per_frame;     /* format 1: a 0x1006 of numFrames entries */
    bool header_strides;         /* format 2: 0x1001 minis 11, 12, 13 */
    bool bone_indices;           /* format 2: 0x1003 minis 14..17 */
    bool default_not_identity;   /* format 2: rotation index -1, default rotation not the identity */
} ala_coverage;

static void cover_ala(ala_coverage *cv, const ferry_chunk_tree *tree, const ferry_ala_animation *a)
{
    if (a->format != FERRY_ALA_FORMAT_1 && a->format != FERRY_ALA_FORMAT_2) return;
    for (size_t i = 0; i < tree->root_count; i++) kinds_of(&cv->kinds[a->format], &tree->roots[i]);
    const ferry_chunk *root = &tree->roots[0];
    for (size_t i = 0; i < root->child_count; i++) {
        const ferry_chunk *c = &root->children[i];
        if (c->type == FERRY_ALA_HEADER && a->format == FERRY_ALA_FORMAT_2)
            cv->header_strides |= has_mini(c, 11, 4) && has_mini(c, 12, 4) && has_mini(c, 13, 4);
        if (c->type != FERRY_ALA_BONE) continue;
        for (size_t k = 0; k < c->child_count; k++) {
            const ferry_chunk *part = &c->children[k];
            if (part->type == FERRY_ALA_BONE_HEADER && a->format == FERRY_ALA_FORMAT_2)
                cv->bone_indices |= has_mini(part, 14, 2) && has_mini(part, 15, 2) && has_mini(part, 16, 2) &&
                                    has_mini(part, 17, 8);
            if (part->type == FERRY_ALA_ROTATIONS) {
                cv->one_quaternion |= part->size == 8;
                cv->rotation_per_frame |= part->size == 8 * a->frame_count && a->frame_count > 1;
            }
        }
    }
    for (size_t b = 0; a->format == FERRY_ALA_FORMAT_2 && b < a->bone_count; b++) {
        const int16_t *q = a->bones[b].default_rotation;
        cv->default_not_identity |= a->bones[b].rotation_index == FERRY_ALA_NOT_ANIMATED && q[3] != 32767;
    }
}

static void check_ala_coverage(const ala_coverage *cv)
{
    static const uint32_t format1[] = {FERRY_ALA_ANIMATION,   FERRY_ALA_HEADER,       FERRY_ALA_BONE,
                                       FERRY_ALA_BONE_HEADER, FERRY_ALA_TRANSLATIONS, FERRY_ALA_SCALES,
                                       FERRY_ALA_ROTATIONS,   FERRY_ALA_VISIBILITY,   FERRY_ALA_STEPS};
    static const uint32_t format2[] = {FERRY_ALA_ANIMATION,       FERRY_ALA_HEADER,           FERRY_ALA_BONE,
                                       FERRY_ALA_BONE_HEADER,     FERRY_ALA_VISIBILITY,       FERRY_ALA_STEPS,
                                       FERRY_ALA_FRAME_ROTATIONS, FERRY_ALA_FRAME_TRANSLATIONS, FERRY_ALA_FRAME_SCALES};
    for (int format = 1; format <= 2; format++) {
        const uint32_t *types = format == 1 ? format1 : format2;
        size_t n = format == 1 ? sizeof format1 / sizeof *format1 : sizeof format2 / sizeof *format2;
        for (size_t i = 0; i < n; i++) {
            uint32_t parent = types[i] == FERRY_ALA_ANIMATION ? ROOT
                              : (types[i] == FERRY_ALA_BONE_HEADER || (types[i] >= FERRY_ALA_TRANSLATIONS &&
                                                                       types[i] <= FERRY_ALA_STEPS))
                                  ? FERRY_ALA_BONE
                                  : FERRY_ALA_ANIMATION;
            CHECK_MSG(kind_has(&cv->kinds[format], KIND(parent, types[i])),
                      "no format-%d animation sample holds chunk type 0x%x", format, (unsigned)types[i]);
        }
    }
    CHECK_MSG(cv->one_quaternion && cv->rotation_per_frame,
              "format-1 samples need a one-quaternion 0x1006 and a per-frame one");
    CHECK_MSG(cv->header_strides, "no format-2 header stores its frame sizes (minis 11..13)");
    CHECK_MSG(cv->bone_indices, "no format-2 bone header stores minis 14..17");
    CHECK_MSG(cv->default_not_identity, "no format-2 bone without rotation track has a default rotation of its own");
}

static void check_animation_sample(sample_animation_builder build, ala_coverage *cv)
{
    sample_animation sample;
    build(&sample);
    const char *file = sample.file;
    const ferry_ala_animation *built = &sample.anim;
    ferry_error err;
    ferry_buffer bytes = {0};
    CHECK_MSG(ferry_ala_write(built, &bytes, &err) == FERRY_OK, "%s: write: %s", file, err.message);

    /* Building is deterministic, and the file is what it builds now. */
    sample_animation again;
    build(&again);
    ferry_buffer bytes2 = {0};
    CHECK(ferry_ala_write(&again.anim, &bytes2, &err) == FERRY_OK);
    CHECK_MSG(same_bytes(file, bytes.data, bytes.size, bytes2.data, bytes2.size), "%s: two builds differ", file);
    ferry_buffer_free(&bytes2);
    sample_animation_free(&again);
    check_committed(file, &bytes);

    sample_model model;
    sample.model(&model);
    ferry_diagnostics diags = {0};
    size_t errors = ferry_ala_validate(built, NULL, &diags);
    errors += ferry_ala_check_model(built, &model.model, &diags);
    check_no_reports(file, "as built", errors, &diags);
    check_motion(file, built);

    /* It reads back equal, and writes back the same bytes. */
    ferry_ala_animation *read = NULL;
    ferry_result rc = ferry_ala_read(bytes.data, bytes.size, NULL, &read, &err);
    CHECK_MSG(rc == FERRY_OK, "%s: read back: %s", file, err.message);
    if (rc == FERRY_OK) {
        compare_animations(file, built, read);
        same_poses(file, built, read);
        ferry_buffer rewritten = {0};
        CHECK(ferry_ala_write(read, &rewritten, &err) == FERRY_OK);
        CHECK_MSG(same_bytes(file, bytes.data, bytes.size, rewritten.data, rewritten.size),
                  "%s: the read animation writes different bytes", file);
        ferry_buffer_free(&rewritten);
        errors = ferry_ala_validate(read, NULL, &diags);
        errors += ferry_ala_check_model(read, &model.model, &diags);
        check_no_reports(file, "as read", errors, &diags);

        /* In the other format every pose stays the same, and converting
         * back gives the file again. */
        ferry_ala_format own = (ferry_ala_format)built->format;
        ferry_ala_format other = own == FERRY_ALA_FORMAT_1 ? FERRY_ALA_FORMAT_2 : FERRY_ALA_FORMAT_1;
        ferry_ala_animation *converted = NULL;
        rc = ferry_ala_convert(read, other, NULL, &converted, &err);
        CHECK_MSG(rc == FERRY_OK, "%s: convert to format %d: %s", file, (int)other, err.message);
        if (rc == FERRY_OK) {
            char what[160];
            snprintf(what, sizeof what, "%s in format %d", file, (int)other);
            same_u(what, "format", other, converted->format);
            same_poses(what, built, converted);
            errors = ferry_ala_validate(converted, NULL, &diags);
            errors += ferry_ala_check_model(converted, &model.model, &diags);
            check_no_reports(what, "converted", errors, &diags);
            ferry_buffer back = {0};
            CHECK(ferry_ala_write_format(converted, own, &back, &err) == FERRY_OK);
            CHECK_MSG(same_bytes(what, bytes.data, bytes.size, back.data, back.size),
                      "%s: converting back does not give the file again", what);
            ferry_buffer_free(&back);
            ferry_ala_free(converted);
        }
        ferry_chunk_tree *tree = read_chunks(file, &bytes);
        if (tree) {
            cover_ala(cv, tree, read);
            ferry_alamo_chunk_free(tree);
        }
        ferry_ala_free(read);
    }
    sample_model_free(&model);
    ferry_buffer_free(&bytes);
    sample_animation_free(&sample);
}

/* ---- particle systems ---- */

/* Every property of <ferry/particle.h>. */
#define PARTICLE_PROPERTIES(X)                                                                                     \
    X(blend_mode) X(primitive_type) X(unused1) X(in_bursts) X(link_to_system) X(inward_speed) X(acceleration)     \
    X(outward_acceleration) X(gravity) X(lifetime) X(texture_elements) X(unused2) X(randomized_scale)             \
    X(randomized_lifetime) X(index) X(unused3) X(randomized_rotation) X(rotation_direction) X(initial_delay)       \
    X(burst_delay) X(particles_per_burst) X(bursts) X(emitter_speed_mult) X(particles_per_second) X(unused4)      \
    X(randomized_color) X(randomized_is_grayscale) X(not_billboarded) X(ground_interaction) X(bounciness)         \
    X(affected_by_wind) X(freeze_time) X(skip_time) X(emit_mode) X(object_space_acceleration)                     \
    X(is_heat_particle) X(emit_offset) X(is_weather_particle) X(weather_cube_size) X(unused5) X(unused6)          \
    X(has_tail) X(tail_size) X(use_emitter_speed_mult) X(wind_disturbance) X(no_depth_test)                       \
    X(weather_cube_distance) X(fixed_rotation) X(present)

static void compare_properties(const char *where, const ferry_particle_properties *a,
                               const ferry_particle_properties *b)
{
#define SAME_PROPERTY(field) same_mem(where, #field, &a->field, &b->field, sizeof a->field);
    PARTICLE_PROPERTIES(SAME_PROPERTY)
#undef SAME_PROPERTY
}

static void compare_group(const char *where, const ferry_particle_group *a, const ferry_particle_group *b)
{
    same_u(where, "type", a->type, b->type);
    same_f(where, "min", a->min, b->min, 3);
    same_f(where, "max", a->max, b->max, 3);
    same_f(where, "side length", &a->side_length, &b->side_length, 1);
    same_f(where, "sphere radius", &a->sphere_radius, &b->sphere_radius, 1);
    same_u(where, "sphere surface", a->sphere_surface, b->sphere_surface);
    same_f(where, "cylinder radius", &a->cylinder_radius, &b->cylinder_radius, 1);
    same_u(where, "cylinder surface", a->cylinder_surface, b->cylinder_surface);
    same_f(where, "cylinder height", &a->cylinder_height, &b->cylinder_height, 1);
    same_f(where, "value", a->value, b->value, 3);
    same_blob(where, "bytes after the data", &a->extra, 0, &b->extra);
}

static void compare_track(const char *where, bool color, const ferry_particle_track *a, const ferry_particle_track *b)
{
    same_u(where, "interpolation", a->interpolation, b->interpolation);
    if (color) {
        same_u(where, "first", a->first_byte, b->first_byte);
        same_u(where, "last", a->last_byte, b->last_byte);
    } else {
        same_f(where, "first", &a->first, &b->first, 1);
        same_f(where, "last", &a->last, &b->last, 1);
    }
    same_u(where, "key count", a->key_count, b->key_count);
    for (size_t k = 0; k < a->key_count && k < b->key_count; k++) {
        same_f(where, "key time", &a->keys[k].time, &b->keys[k].time, 1);
        if (color)
            same_u(where, "key value", a->keys[k].int_value, b->keys[k].int_value);
        else
            same_f(where, "key value", &a->keys[k].value, &b->keys[k].value, 1);
    }
    same_u(where, "unknown minis", 0, b->header_layout.unknown_count + b->keys_layout.unknown_count);
}

static void compare_systems(const char *file, const ferry_particle_system *w, const ferry_particle_system *g)
{
    same_s(file, "name", w->name, g->name);
    same_u(file, "id", w->id, g->id);
    same_u(file, "persistence", w->persistence, g->persistence);
    same_blob(file, "bytes after the id", &w->id_extra, 0, &g->id_extra);
    same_blob(file, "bytes after the persistence", &w->persistence_extra, 0, &g->persistence_extra);
    same_u(file, "emitter count", w->emitter_count, g->emitter_count);
    for (size_t i = 0; i < w->emitter_count && i < g->emitter_count; i++) {
        const ferry_particle_emitter *a = &w->emitters[i], *b = &g->emitters[i];
        char where[192];
        snprintf(where, sizeof where, "%s emitter %zu", file, i);
        compare_properties(where, &a->properties, &b->properties);
        same_s(where, "name", a->name, b->name);
        same_s(where, "colour texture", a->color_texture, b->color_texture);
        same_s(where, "secondary texture", a->secondary_texture, b->secondary_texture);
        same_u(where, "death emitter", (uint32_t)a->death_emitter, (uint32_t)b->death_emitter);
        same_u(where, "birth emitter", (uint32_t)a->birth_emitter, (uint32_t)b->birth_emitter);
        for (int k = 0; k < FERRY_PARTICLE_GROUP_COUNT; k++) {
            char at[224];
            snprintf(at, sizeof at, "%s group %d", where, k);
            compare_group(at, &a->groups[k], &b->groups[k]);
        }
        for (int k = 0; k < FERRY_PARTICLE_TRACK_COUNT; k++) {
            char at[224];
            snprintf(at, sizeof at, "%s track %d", where, k);
            compare_track(at, k < FERRY_PARTICLE_COLOR_TRACKS, &a->tracks[k], &b->tracks[k]);
        }
        same_u(where, "unknown chunks",
               0, b->layout.unknown_count + b->groups_layout.unknown_count + b->tracks_layout.unknown_count);
        same_u(where, "unknown minis", 0, b->properties_layout.unknown_count + b->connections_layout.unknown_count);
    }
    same_u(file, "unknown chunks", 0,
           g->layout.unknown_count + g->emitters_layout.unknown_count + g->file_layout.unknown_count);
    same_u(file, "string tails", 0, g->string_tail_count);
}

/* Track values worked out by hand from the points of p_walker_exhaust
 * (linear and step exactly; cosine through cos, hence the tolerance). */
static void check_track_values(const char *file, const ferry_particle_system *s)
{
    static const struct {
        unsigned emitter, track;
        float t, value;
    } expect[] = {
        {0, FERRY_PARTICLE_TRACK_RED, 0.0f, 255.0f},
        {0, FERRY_PARTICLE_TRACK_RED, 0.125f, 227.5f},      /* 255 .. 200 at 0.25, halfway */
        {0, FERRY_PARTICLE_TRACK_RED, 0.625f, 148.0f},      /* 200 .. 96 from 0.25 to 1, halfway */
        {0, FERRY_PARTICLE_TRACK_BLUE, 0.625f, 132.0f},     /* 168 at 0.25 .. 96, halfway */
        {0, FERRY_PARTICLE_TRACK_ALPHA, 0.0625f, 96.0f},    /* cosine 0 .. 192, halfway */
        {0, FERRY_PARTICLE_TRACK_ALPHA, 0.4375f, 144.0f},   /* cosine 192 .. 96, halfway */
        {0, FERRY_PARTICLE_TRACK_ALPHA, 0.75f, 96.0f},
        {0, FERRY_PARTICLE_TRACK_ALPHA, 1.0f, 0.0f},
        {0, FERRY_PARTICLE_TRACK_SIZE, 0.25f, 0.625f},
        {0, FERRY_PARTICLE_TRACK_SIZE, 0.75f, 1.25f},
        {0, FERRY_PARTICLE_TRACK_TEXTURE_INDEX, 0.2f, 0.0f},
        {0, FERRY_PARTICLE_TRACK_TEXTURE_INDEX, 0.3f, 1.0f},
        {0, FERRY_PARTICLE_TRACK_TEXTURE_INDEX, 0.5f, 2.0f},
        {0, FERRY_PARTICLE_TRACK_TEXTURE_INDEX, 0.99f, 3.0f},
        {0, FERRY_PARTICLE_TRACK_ROTATION_SPEED, 0.25f, 0.375f}, /* cosine 0.5 .. 0.25, halfway */
        {1, FERRY_PARTICLE_TRACK_RED, 0.75f, 255.0f},       /* step: held until the end */
        {1, FERRY_PARTICLE_TRACK_RED, 1.0f, 128.0f},
        {1, FERRY_PARTICLE_TRACK_GREEN, 0.75f, 112.0f},
        {1, FERRY_PARTICLE_TRACK_BLUE, 0.5f, 64.0f},
        {1, FERRY_PARTICLE_TRACK_ALPHA, 0.625f, 112.0f},    /* cosine 224 .. 0 from 0.25, halfway */
        {1, FERRY_PARTICLE_TRACK_SIZE, 0.125f, 0.25f},
        {1, FERRY_PARTICLE_TRACK_TEXTURE_INDEX, 0.49f, 2.0f},
        {1, FERRY_PARTICLE_TRACK_TEXTURE_INDEX, 0.5f, 3.0f},
        {1, FERRY_PARTICLE_TRACK_ROTATION_SPEED, 0.75f, 0.25f},
    };
    CHECK_MSG(s->emitter_count == 2, "%s: %zu emitters", file, s->emitter_count);
    if (s->emitter_count != 2) return;
    for (size_t i = 0; i < sizeof expect / sizeof expect[0]; i++) {
        float got = ferry_particle_emitter_track_value(&s->emitters[expect[i].emitter], expect[i].track, expect[i].t);
        CHECK_MSG(fabs(got - expect[i].value) <= 1e-4, "%s emitter %u track %u at %g: %.7g, expected %.7g", file,
                  expect[i].emitter, expect[i].track, (double)expect[i].t, (double)got, (double)expect[i].value);
    }
}

typedef struct particle_coverage {
    kind_set kinds;
    bool usual_properties; /* the 47 property mini-chunks real files store */
    bool track_minis;      /* a colour header with 1-byte 02, 03 and 04; 8-byte keys 05 */
    bool connection_minis; /* 0x37 and 0x39 */
    unsigned interpolations, velocity_types, position_types; /* bit per value */
    bool color_keys, float_keys, sphere_surface, connected, secondary_texture;
} particle_coverage;

static void cover_particles(particle_coverage *cv, const ferry_chunk_tree *tree, const ferry_particle_system *s)
{
    for (size_t i = 0; i < tree->root_count; i++) kinds_of(&cv->kinds, &tree->roots[i]);
    const ferry_chunk *root = &tree->roots[0];
    const ferry_chunk *props = find_chunk(root, FERRY_PARTICLE_EMITTER, FERRY_PARTICLE_PROPERTIES);
    const ferry_chunk *header = find_chunk(root, FERRY_PARTICLE_TRACKS, FERRY_PARTICLE_TRACK_HEADER);
    const ferry_chunk *connections = find_chunk(root, FERRY_PARTICLE_EMITTER, FERRY_PARTICLE_CONNECTIONS);
    cv->usual_properties |= props && mini_count(props) == 47;
    const ferry_chunk *keys = find_chunk(root, FERRY_PARTICLE_TRACKS, FERRY_PARTICLE_TRACK_KEYS);
    cv->track_minis |= header && has_mini(header, 2, 1) && has_mini(header, 3, 1) && has_mini(header, 4, 4) &&
                       keys && has_mini(keys, 5, 8);
    cv->connection_minis |= connections && has_mini(connections, 0x37, 4) && has_mini(connections, 0x39, 4);
    for (size_t e = 0; e < s->emitter_count; e++) {
        const ferry_particle_emitter *em = &s->emitters[e];
        for (int t = 0; t < FERRY_PARTICLE_TRACK_COUNT; t++) {
            const ferry_particle_track *tr = &em->tracks[t];
            if (tr->interpolation < 32) cv->interpolations |= 1u << tr->interpolation;
            if (tr->key_count && t < FERRY_PARTICLE_COLOR_TRACKS) cv->color_keys = true;
            if (tr->key_count && t >= FERRY_PARTICLE_COLOR_TRACKS) cv->float_keys = true;
        }
        const ferry_particle_group *v = &em->groups[FERRY_PARTICLE_GROUP_VELOCITY];
        const ferry_particle_group *p = &em->groups[FERRY_PARTICLE_GROUP_POSITION];
        if (v->type < 32) cv->velocity_types |= 1u << v->type;
        if (p->type < 32) cv->position_types |= 1u << p->type;
        cv->sphere_surface |= p->type == FERRY_PARTICLE_GROUP_SPHERE && p->sphere_surface;
        cv->connected |= em->death_emitter >= 0 || em->birth_emitter >= 0;
        cv->secondary_texture |= em->secondary_texture != NULL;
    }
}

static void check_particle_coverage(const particle_coverage *cv)
{
    static const uint32_t required[][2] = {
        {ROOT, FERRY_PARTICLE_SYSTEM},
        {FERRY_PARTICLE_SYSTEM, FERRY_PARTICLE_NAME},
        {FERRY_PARTICLE_SYSTEM, FERRY_PARTICLE_ID},
        {FERRY_PARTICLE_SYSTEM, FERRY_PARTICLE_EMITTERS},
        {FERRY_PARTICLE_SYSTEM, FERRY_PARTICLE_PERSISTENCE},
        {FERRY_PARTICLE_EMITTERS, FERRY_PARTICLE_EMITTER},
        {FERRY_PARTICLE_EMITTER, FERRY_PARTICLE_PROPERTIES},
        {FERRY_PARTICLE_EMITTER, FERRY_PARTICLE_COLOR_TEXTURE},
        {FERRY_PARTICLE_EMITTER, FERRY_PARTICLE_EMITTER_NAME},
        {FERRY_PARTICLE_EMITTER, FERRY_PARTICLE_GROUPS},
        {FERRY_PARTICLE_GROUPS, FERRY_PARTICLE_GROUP},
        {FERRY_PARTICLE_GROUP, FERRY_PARTICLE_GROUP_DATA},
        {FERRY_PARTICLE_EMITTER, FERRY_PARTICLE_TRACKS},
        {FERRY_PARTICLE_TRACKS, FERRY_PARTICLE_TRACK_HEADER},
        {FERRY_PARTICLE_TRACKS, FERRY_PARTICLE_TRACK_KEYS},
        {FERRY_PARTICLE_EMITTER, FERRY_PARTICLE_CONNECTIONS},
        {FERRY_PARTICLE_EMITTER, FERRY_PARTICLE_SECONDARY_TEXTURE},
    };
    for (size_t i = 0; i < sizeof required / sizeof required[0]; i++)
        CHECK_MSG(kind_has(&cv->kinds, KIND(required[i][0], required[i][1])),
                  "no particle sample holds chunk 0x%x in 0x%x", (unsigned)required[i][1], (unsigned)required[i][0]);
    CHECK_MSG(cv->usual_properties, "no emitter stores the 47 usual properties");
    CHECK_MSG(cv->track_minis, "no colour track header holds 1-byte 02/03 and 04, or no key list 8-byte 05");
    CHECK_MSG(cv->connection_minis, "no emitter stores both connection mini-chunks");
    CHECK_MSG(cv->interpolations == 7, "interpolations used: mask 0x%x, expected linear, cosine and step",
              cv->interpolations);
    CHECK_MSG(cv->color_keys && cv->float_keys, "samples need keys on colour tracks and on float tracks");
    CHECK_MSG((cv->velocity_types & 3u) == 3u, "samples need exact and box velocity groups");
    CHECK_MSG((cv->position_types & 0x18u) == 0x18u, "samples need sphere and cylinder position groups");
    CHECK_MSG(cv->sphere_surface, "no position group on a sphere's surface");
    CHECK_MSG(cv->connected, "no emitter has a death or birth emitter");
    CHECK_MSG(cv->secondary_texture, "no emitter has a secondary texture");
}

static void check_particles_sample(sample_particles_builder build, particle_coverage *cv)
{
    sample_particles sample;
    build(&sample);
    const char *file = sample.file;
    ferry_error err;
    ferry_buffer bytes = {0};
    CHECK_MSG(ferry_particle_write(&sample.system, &bytes, &err) == FERRY_OK, "%s: write: %s", file, err.message);

    sample_particles again;
    build(&again);
    ferry_buffer bytes2 = {0};
    CHECK(ferry_particle_write(&again.system, &bytes2, &err) == FERRY_OK);
    CHECK_MSG(same_bytes(file, bytes.data, bytes.size, bytes2.data, bytes2.size), "%s: two builds differ", file);
    ferry_buffer_free(&bytes2);
    sample_particles_free(&again);
    check_committed(file, &bytes);

    /* Valid under its own file name (the game finds systems by it), and
     * only there. */
    const ferry_particle_validate_options options = {file, NULL, NULL}, renamed = {"alamo/p_other.alo", NULL, NULL};
    ferry_diagnostics diags = {0};
    size_t errors = ferry_particle_validate(&sample.system, &options, &diags);
    check_no_reports(file, "as built", errors, &diags);
    errors = ferry_particle_validate(&sample.system, &renamed, &diags);
    /* A warning: the game finds systems by file name, so another name loads. */
    CHECK_MSG(errors == 0 && diags.count == 1 && strcmp(diags.items[0].rule, "system-name") == 0 &&
                  diags.items[0].severity == FERRY_SEVERITY_WARNING,
              "%s: under another file name: %zu errors, %zu reports", file, errors, diags.count);
    ferry_diagnostics_free(&diags);

    ferry_particle_system *read = NULL;
    ferry_result rc = ferry_particle_read(bytes.data, bytes.size, NULL, &read, &err);
    CHECK_MSG(rc == FERRY_OK, "%s: read back: %s", file, err.message);
    if (rc == FERRY_OK) {
        compare_systems(file, &sample.system, read);
        ferry_buffer rewritten = {0};
        CHECK(ferry_particle_write(read, &rewritten, &err) == FERRY_OK);
        CHECK_MSG(same_bytes(file, bytes.data, bytes.size, rewritten.data, rewritten.size),
                  "%s: the read system writes different bytes", file);
        ferry_buffer_free(&rewritten);
        errors = ferry_particle_validate(read, &options, &diags);
        check_no_reports(file, "as read", errors, &diags);
        check_track_values(file, read);
        ferry_chunk_tree *tree = read_chunks(file, &bytes);
        if (tree) {
            cover_particles(cv, tree, read);
            ferry_alamo_chunk_free(tree);
        }
        ferry_particle_free(read);
    }
    check_track_values(file, &sample.system);
    ferry_buffer_free(&bytes);
    sample_particles_free(&sample);
}

/* walker.alo's proxy P_Walker_Exhaust names the particle sample: the game
 * finds the system by file name, ignoring case. */
static void check_proxy_target(void)
{
    sample_model walker;
    sample_build_walker(&walker);
    sample_particles exhaust;
    sample_build_walker_exhaust(&exhaust);
    bool found = false;
    for (size_t i = 0; i < walker.model.connections.proxy_count; i++) {
        const char *a = walker.model.connections.proxies[i].name, *b = exhaust.system.name;
        bool same = strlen(a) == strlen(b);
        for (size_t k = 0; same && a[k]; k++) same = tolower((unsigned char)a[k]) == tolower((unsigned char)b[k]);
        found = found || same;
    }
    CHECK_MSG(found, "no proxy of %s names the particle system '%s'", walker.file, exhaust.system.name);
    sample_particles_free(&exhaust);
    sample_model_free(&walker);
}

/* Nothing under samples/alamo that the generator does not make, and
 * everything it makes is there. */
static bool generated(const char *relative)
{
    for (size_t i = 0; i < sample_builder_count; i++) {
        sample_model s;
        sample_builders[i](&s);
        bool same = strcmp(s.file, relative) == 0;
        sample_model_free(&s);
        if (same) return true;
    }
    for (size_t i = 0; i < sample_animation_builder_count; i++) {
        sample_animation s;
        sample_animation_builders[i](&s);
        bool same = strcmp(s.file, relative) == 0;
        sample_animation_free(&s);
        if (same) return true;
    }
    for (size_t i = 0; i < sample_particles_builder_count; i++) {
        sample_particles s;
        sample_particles_builders[i](&s);
        bool same = strcmp(s.file, relative) == 0;
        sample_particles_free(&s);
        if (same) return true;
    }
    return false;
}

static void check_no_strays(void)
{
    const char *dir = FERRY_SOURCE_DIR "/samples/";
    char **paths;
    size_t n = test_list_files(FERRY_SOURCE_DIR "/samples/alamo", "", &paths);
    same_u("samples/alamo", "files", sample_builder_count + sample_animation_builder_count + sample_particles_builder_count,
           n);
    for (size_t i = 0; i < n; i++) {
        const char *relative = strncmp(paths[i], dir, strlen(dir)) == 0 ? paths[i] + strlen(dir) : paths[i];
        CHECK_MSG(generated(relative), "%s is not made by the generator", paths[i]);
    }
    test_free_paths(paths, n);
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

    static ala_coverage acv;
    CHECK(sample_animation_builder_count >= 2);
    for (size_t i = 0; i < sample_animation_builder_count; i++)
        check_animation_sample(sample_animation_builders[i], &acv);
    check_ala_coverage(&acv);

    static particle_coverage pcv;
    CHECK(sample_particles_builder_count >= 1);
    for (size_t i = 0; i < sample_particles_builder_count; i++)
        check_particles_sample(sample_particles_builders[i], &pcv);
    check_particle_coverage(&pcv);
    check_proxy_target();

    check_no_strays();
    TEST_END();
}
