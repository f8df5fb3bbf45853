/* Hand-built samples (see sample_models.h). Only the public API is used: a
 * sample is what any program could build and write with ferry.
 *
 * The committed files must come out byte for byte the same on every run, so
 * the geometry uses only exactly rounded operations (+ - * / sqrt floor
 * ceil) on values chosen to stay exact or correctly rounded, never sin/cos. */
#include "sample_models.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A fused multiply-add rounds once instead of twice and would change the
 * bytes on targets that have one; GCC in ISO C mode never contracts. */
#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#endif

/* Leaves of the collision trees hold at most this many triangles. */
#define LEAF_TRIANGLES 4

/* Samples are a few kilobytes: a failed allocation means the machine is out
 * of memory, which no caller here could work around. */
static void *take(ferry_arena *arena, size_t count, size_t size)
{
    void *p = ferry_arena_alloc(arena, count * size);
    if (!p) {
        fputs("sample_models: out of memory\n", stderr);
        abort();
    }
    return p;
}

#define TAKE(arena, type, count) ((type *)take((arena), (count), sizeof(type)))

static ferry_arena *new_arena(void)
{
    ferry_arena *arena = ferry_arena_create(0);
    if (!arena) {
        fputs("sample_models: out of memory\n", stderr);
        abort();
    }
    return arena;
}

static void sample_begin(sample_model *out, const char *file)
{
    memset(out, 0, sizeof *out);
    out->file = file;
    out->storage = new_arena();
}

void sample_model_free(sample_model *sample)
{
    if (!sample) return;
    ferry_arena_destroy(sample->storage);
    memset(sample, 0, sizeof *sample);
}

/* ---- small vector helpers (double, so that rounding happens once, on output) ---- */

static void cross(const double a[3], const double b[3], double out[3])
{
    double r[3] = {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
    memcpy(out, r, sizeof r);
}

static void set3(double out[3], double x, double y, double z)
{
    out[0] = x;
    out[1] = y;
    out[2] = z;
}

/* ---- skeleton ---- */

static const float IDENTITY[12] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0};

static void set_bone(ferry_alo_bone *b, const char *name, int32_t parent, uint8_t chunk_version, const float matrix[12])
{
    memset(b, 0, sizeof *b);
    b->name = name;
    b->parent = parent;
    b->visible = 1;
    b->chunk_version = chunk_version;
    memcpy(b->matrix, matrix ? matrix : IDENTITY, sizeof b->matrix);
    b->offset = FERRY_NO_OFFSET;
}

/* Pure translation: rows of [I | t]. */
static void translation(float m[12], float x, float y, float z)
{
    memcpy(m, IDENTITY, sizeof IDENTITY);
    m[3] = x;
    m[7] = y;
    m[11] = z;
}

/* ---- geometry ---- */

typedef struct geometry {
    ferry_alo_vertex *vertices;
    size_t vertex_count, vertex_capacity;
    uint16_t *indices;
    size_t triangle_count, triangle_capacity;
} geometry;

static geometry geometry_make(ferry_arena *arena, size_t vertices, size_t triangles)
{
    geometry g = {TAKE(arena, ferry_alo_vertex, vertices), 0, vertices, TAKE(arena, uint16_t, 3 * triangles), 0,
                  triangles};
    return g;
}

static void overflow(void)
{
    fputs("sample_models: geometry larger than its reserved space\n", stderr);
    abort();
}

/* A vertex of a rigid (or unskinned) model: one bone slot at full weight,
 * as the spec says every file has. The binormal completes a right-handed
 * frame, B = N x T, which points along -dP/dv: UVs follow Direct3D, with v
 * growing down the image. */
static uint16_t add_vertex(geometry *g, const double p[3], const double n[3], const double t[3], double u, double v,
                           uint32_t bone_slot)
{
    if (g->vertex_count == g->vertex_capacity) overflow();
    ferry_alo_vertex *vx = &g->vertices[g->vertex_count];
    memset(vx, 0, sizeof *vx);
    double b[3];
    cross(n, t, b);
    for (int a = 0; a < 3; a++) {
        vx->position[a] = (float)p[a];
        vx->normal[a] = (float)n[a];
        vx->tangent[a] = (float)t[a];
        vx->binormal[a] = (float)b[a];
    }
    vx->texcoord[0][0] = (float)u;
    vx->texcoord[0][1] = (float)v;
    for (int a = 0; a < 4; a++) vx->color[a] = 1.0f;
    vx->bone_index[0] = bone_slot;
    vx->bone_weight[0] = 1.0f;
    return (uint16_t)g->vertex_count++;
}

static void add_triangle(geometry *g, uint16_t a, uint16_t b, uint16_t c)
{
    if (g->triangle_count == g->triangle_capacity) overflow();
    uint16_t *ix = g->indices + 3 * g->triangle_count++;
    ix[0] = a;
    ix[1] = b;
    ix[2] = c;
}

/* A flat square face of side 2*half centred at `center`, facing `n`, split
 * into cells x cells quads. `t` (unit, perpendicular to n) is the direction
 * of growing u; the texture covers the face once, unmirrored when seen from
 * the front. Triangles wind counter-clockwise seen from the front, so that
 * (p1 - p0) x (p2 - p0) points along the normal, as in real files. */
static void add_face(geometry *g, const double center[3], const double n[3], const double t[3], double half,
                     int cells)
{
    double b[3];
    cross(n, t, b);
    uint16_t first = (uint16_t)g->vertex_count;
    int side = cells + 1;
    for (int j = 0; j <= cells; j++) {
        for (int i = 0; i <= cells; i++) {
            double s = -1.0 + 2.0 * i / cells, r = -1.0 + 2.0 * j / cells, p[3];
            for (int a = 0; a < 3; a++) p[a] = center[a] + half * (s * t[a] + r * b[a]);
            add_vertex(g, p, n, t, (double)i / cells, 1.0 - (double)j / cells, 0);
        }
    }
    for (int j = 0; j < cells; j++) {
        for (int i = 0; i < cells; i++) {
            uint16_t a = (uint16_t)(first + j * side + i), bb = (uint16_t)(a + 1);
            uint16_t c = (uint16_t)(bb + side), d = (uint16_t)(a + side);
            add_triangle(g, a, bb, c);
            add_triangle(g, a, c, d);
        }
    }
}

/* ---- sub-meshes and materials ---- */

static ferry_alo_shader_param param_float4(const char *name, float x, float y, float z, float w)
{
    ferry_alo_shader_param p = {0};
    p.type = FERRY_ALO_PARAM_FLOAT4;
    p.name = name;
    p.value[0] = x;
    p.value[1] = y;
    p.value[2] = z;
    p.value[3] = w;
    p.offset = FERRY_NO_OFFSET;
    return p;
}

static ferry_alo_shader_param param_float3(const char *name, float x, float y, float z)
{
    ferry_alo_shader_param p = param_float4(name, x, y, z, 0);
    p.type = FERRY_ALO_PARAM_FLOAT3;
    return p;
}

static ferry_alo_shader_param param_float(const char *name, float x)
{
    ferry_alo_shader_param p = param_float4(name, x, 0, 0, 0);
    p.type = FERRY_ALO_PARAM_FLOAT;
    return p;
}

static ferry_alo_shader_param param_int(const char *name, int32_t value)
{
    ferry_alo_shader_param p = param_float4(name, 0, 0, 0, 0);
    p.type = FERRY_ALO_PARAM_INT;
    p.int_value = value;
    return p;
}

static ferry_alo_shader_param param_texture(const char *name, const char *texture)
{
    ferry_alo_shader_param p = param_float4(name, 0, 0, 0, 0);
    p.type = FERRY_ALO_PARAM_TEXTURE;
    p.texture = texture;
    return p;
}

/* The parameters of the game's gloss shaders (MeshGloss.fx, RSkinGloss.fx),
 * with the values its exporter writes by default. */
static void gloss_material(ferry_arena *arena, ferry_alo_material *m, const char *shader, const char *texture)
{
    m->shader = shader;
    m->param_count = 5;
    m->params = TAKE(arena, ferry_alo_shader_param, m->param_count);
    m->params[0] = param_float4("Emissive", 0.0f, 0.0f, 0.0f, 0.0f);
    m->params[1] = param_float4("Diffuse", 1.0f, 1.0f, 1.0f, 0.0f);
    m->params[2] = param_float4("Specular", 1.0f, 1.0f, 1.0f, 0.0f);
    m->params[3] = param_float("Shininess", 32.0f);
    m->params[4] = param_texture("BaseTexture", texture);
    m->offset = FERRY_NO_OFFSET;
}

static void set_submesh(ferry_alo_submesh *sm, const geometry *g, const char *vertex_format, uint8_t vertex_version)
{
    sm->vertex_format = vertex_format;
    sm->vertices = g->vertices;
    sm->vertex_count = g->vertex_count;
    sm->indices = g->indices;
    sm->triangle_count = g->triangle_count;
    sm->vertex_chunk_version = vertex_version;
    sm->source = (ferry_alo_submesh_source){FERRY_NO_OFFSET, FERRY_NO_OFFSET, FERRY_NO_OFFSET,
                                            FERRY_NO_OFFSET, FERRY_NO_OFFSET, FERRY_NO_OFFSET};
}

/* Mesh bounds equal to the vertex bounds, as validation expects. */
static void set_mesh(ferry_alo_mesh *mesh, const char *name, ferry_alo_submesh *submeshes, size_t count)
{
    mesh->name = name;
    mesh->submeshes = submeshes;
    mesh->submesh_count = count;
    for (size_t i = 0; i < count; i++) mesh->collision_enabled |= submeshes[i].collision != NULL;
    if (!ferry_alo_mesh_vertex_bounds(mesh, mesh->bounds_min, mesh->bounds_max)) {
        memset(mesh->bounds_min, 0, sizeof mesh->bounds_min);
        memset(mesh->bounds_max, 0, sizeof mesh->bounds_max);
    }
    mesh->offset = mesh->info_offset = FERRY_NO_OFFSET;
}

/* ---- collision trees ----
 * A conservative tree, as most exporters write: each node's byte box,
 * decoded against its parent's decoded box, contains every triangle below
 * it (floor for minima, ceil for maxima). Nodes split at the median
 * centroid along their longest side until a leaf holds at most
 * LEAF_TRIANGLES; a node's two children are stored together after it. */

typedef double point3[3];

typedef struct tree_build {
    const ferry_alo_submesh *sm;
    ferry_alo_collision_tree *tree;
    point3 *centroid;
} tree_build;

static void triangle_bounds(const tree_build *tb, const uint16_t *tris, size_t n, double lo[3], double hi[3])
{
    for (int a = 0; a < 3; a++) {
        lo[a] = INFINITY;
        hi[a] = -INFINITY;
    }
    for (size_t i = 0; i < n; i++) {
        const uint16_t *ix = tb->sm->indices + 3 * (size_t)tris[i];
        for (int k = 0; k < 3; k++) {
            const float *p = tb->sm->vertices[ix[k]].position;
            for (int a = 0; a < 3; a++) {
                if (p[a] < lo[a]) lo[a] = p[a];
                if (p[a] > hi[a]) hi[a] = p[a];
            }
        }
    }
}

static uint8_t to_byte(double x)
{
    if (!(x > 0)) return 0;
    if (x > 255) return 255;
    return (uint8_t)x;
}

/* Insertion sort by centroid on one axis, ties by triangle index, so that
 * the split never depends on a sort's stability. */
static void sort_triangles(const tree_build *tb, uint16_t *tris, size_t n, int axis)
{
    for (size_t i = 1; i < n; i++) {
        uint16_t t = tris[i];
        double key = tb->centroid[t][axis];
        size_t j = i;
        while (j > 0) {
            uint16_t prev = tris[j - 1];
            double pk = tb->centroid[prev][axis];
            if (pk < key || (pk == key && prev < t)) break;
            tris[j] = prev;
            j--;
        }
        tris[j] = t;
    }
}

static void build_node(tree_build *tb, size_t node, uint16_t *tris, size_t n, const double parent_lo[3],
                       const double parent_hi[3])
{
    ferry_alo_collision_tree *tree = tb->tree;
    ferry_alo_collision_node *nd = &tree->nodes[node];
    double lo[3], hi[3], dlo[3], dhi[3];
    triangle_bounds(tb, tris, n, lo, hi);
    for (int a = 0; a < 3; a++) {
        double ext = parent_hi[a] - parent_lo[a];
        if (!(ext > 0)) {
            /* A flat parent: every byte decodes to the same plane. */
            nd->min[a] = 0;
            nd->max[a] = 255;
        } else {
            /* The margin (a millionth of a step) absorbs rounding in the
             * division, so that a coordinate on a step boundary still
             * decodes to a box that holds it. */
            nd->min[a] = to_byte(floor((lo[a] - parent_lo[a]) / ext * 255.0 - 1e-6));
            nd->max[a] = to_byte(ceil((hi[a] - parent_lo[a]) / ext * 255.0 + 1e-6));
        }
        dlo[a] = parent_lo[a] + nd->min[a] / 255.0 * ext;
        dhi[a] = parent_lo[a] + nd->max[a] / 255.0 * ext;
    }
    if (n <= LEAF_TRIANGLES) {
        nd->primitive_count = (uint16_t)n;
        nd->link = (uint16_t)tree->primitive_count;
        memcpy(tree->primitives + tree->primitive_count, tris, n * sizeof *tris);
        tree->primitive_count += n;
        return;
    }
    int axis = 0;
    for (int a = 1; a < 3; a++)
        if (hi[a] - lo[a] > hi[axis] - lo[axis]) axis = a;
    sort_triangles(tb, tris, n, axis);
    size_t link = tree->node_count;
    tree->node_count += 2;
    nd->primitive_count = 0;
    nd->link = (uint16_t)link;
    build_node(tb, link, tris, n / 2, dlo, dhi);
    build_node(tb, link + 1, tris + n / 2, n - n / 2, dlo, dhi);
}

static ferry_alo_collision_tree *build_collision(ferry_arena *arena, const ferry_alo_submesh *sm)
{
    size_t n = sm->triangle_count;
    ferry_alo_collision_tree *tree = TAKE(arena, ferry_alo_collision_tree, 1);
    tree->nodes = TAKE(arena, ferry_alo_collision_node, 2 * n);
    tree->primitives = TAKE(arena, uint16_t, n);
    tree->offset = FERRY_NO_OFFSET;
    tree_build tb = {sm, tree, TAKE(arena, point3, n)};
    uint16_t *tris = TAKE(arena, uint16_t, n);
    for (size_t t = 0; t < n; t++) {
        tris[t] = (uint16_t)t;
        const uint16_t *ix = sm->indices + 3 * t;
        for (int a = 0; a < 3; a++)
            tb.centroid[t][a] = ((double)sm->vertices[ix[0]].position[a] + sm->vertices[ix[1]].position[a] +
                                 sm->vertices[ix[2]].position[a]) / 3.0;
    }
    double lo[3], hi[3];
    triangle_bounds(&tb, tris, n, lo, hi);
    for (int a = 0; a < 3; a++) {
        tree->box_min[a] = (float)lo[a];
        tree->box_max[a] = (float)hi[a];
        lo[a] = tree->box_min[a];
        hi[a] = tree->box_max[a];
    }
    tree->node_count = 1;
    build_node(&tb, 0, tris, n, lo, hi);
    return tree;
}

/* ---- connections ---- */

static ferry_alo_connection attach(uint32_t object, uint32_t bone)
{
    ferry_alo_connection c = {0};
    c.object = object;
    c.bone = bone;
    c.offset = FERRY_NO_OFFSET;
    return c;
}

static ferry_alo_proxy proxy(const char *name, uint32_t bone)
{
    ferry_alo_proxy p = {0};
    p.name = name;
    p.bone = bone;
    p.offset = FERRY_NO_OFFSET;
    return p;
}

static void set_objects(ferry_arena *arena, ferry_alo_model *m, const ferry_alo_object *objects, size_t count)
{
    m->objects = TAKE(arena, ferry_alo_object, count);
    memcpy(m->objects, objects, count * sizeof *objects);
    m->object_count = count;
}

static void init_model(ferry_alo_model *m)
{
    m->skeleton.offset = FERRY_NO_OFFSET;
    m->connections.offset = m->connections.counts_offset = FERRY_NO_OFFSET;
}

/* ---- crate ---- */

enum { CRATE_ROOT, CRATE_BODY, CRATE_DUST, CRATE_BONES };

void sample_build_crate(sample_model *out)
{
    sample_begin(out, "alamo/crate.alo");
    ferry_arena *arena = out->storage;
    ferry_alo_model *m = &out->model;
    init_model(m);

    ferry_alo_skeleton *sk = &m->skeleton;
    sk->bone_count = CRATE_BONES;
    sk->bones = TAKE(arena, ferry_alo_bone, sk->bone_count);
    float dust[12];
    translation(dust, 0.0f, 0.0f, 1.05f);
    set_bone(&sk->bones[CRATE_ROOT], "Root", -1, 2, NULL);
    set_bone(&sk->bones[CRATE_BODY], "Crate", CRATE_ROOT, 2, NULL);
    set_bone(&sk->bones[CRATE_DUST], "p_dust", CRATE_ROOT, 2, dust);

    /* A 1 m cube standing on the ground (Z up), each face split in 2 x 2
     * quads so that the collision tree is a few levels deep. */
    enum { CELLS = 2, FACES = 6 };
    geometry g = geometry_make(arena, FACES * (CELLS + 1) * (CELLS + 1), FACES * CELLS * CELLS * 2);
    static const double faces[FACES][2][3] = {
        {{1, 0, 0}, {0, 1, 0}},  {{-1, 0, 0}, {0, -1, 0}}, {{0, 1, 0}, {-1, 0, 0}},
        {{0, -1, 0}, {1, 0, 0}}, {{0, 0, 1}, {1, 0, 0}},   {{0, 0, -1}, {1, 0, 0}},
    };
    for (int f = 0; f < FACES; f++) {
        double c[3];
        for (int a = 0; a < 3; a++) c[a] = 0.5 * faces[f][0][a];
        c[2] += 0.5;
        add_face(&g, c, faces[f][0], faces[f][1], 0.5, CELLS);
    }

    ferry_alo_submesh *sm = TAKE(arena, ferry_alo_submesh, 1);
    gloss_material(arena, &sm->material, "MeshGloss.fx", "crate.tga");
    set_submesh(sm, &g, "alD3dVertNU2", 2);
    sm->collision = build_collision(arena, sm);

    m->mesh_count = 1;
    m->meshes = TAKE(arena, ferry_alo_mesh, 1);
    set_mesh(&m->meshes[0], "Crate", sm, 1);
    const ferry_alo_object objects[] = {{FERRY_ALO_OBJECT_MESH, 0}};
    set_objects(arena, m, objects, 1);

    ferry_alo_connections *cn = &m->connections;
    cn->object_count = 1;
    cn->objects = TAKE(arena, ferry_alo_connection, 1);
    cn->objects[0] = attach(0, CRATE_BODY);
    cn->proxy_count = 1;
    cn->proxies = TAKE(arena, ferry_alo_proxy, 1);
    cn->proxies[0] = proxy("P_Dust_Small", CRATE_DUST);
}

/* ---- walker ---- */

enum {
    WALKER_ROOT,
    WALKER_PELVIS,
    WALKER_SPINE,
    WALKER_HEAD,
    WALKER_BEACON,
    WALKER_SPOT,
    WALKER_EXHAUST,
    WALKER_BONES
};

/* An octagonal tube: sin and cos of multiples of 45 degrees, from sqrt
 * (exactly rounded) rather than libm's trigonometry (not portable to the bit). */
enum { TUBE_SIDES = 8, TUBE_RINGS = 5 };

static void octagon(double c[TUBE_SIDES + 1], double s[TUBE_SIDES + 1])
{
    double r = sqrt(0.5);
    const double cs[TUBE_SIDES + 1] = {1, r, 0, -r, -1, -r, 0, r, 1};
    const double sn[TUBE_SIDES + 1] = {0, r, 1, r, 0, -r, -1, -r, 0};
    memcpy(c, cs, sizeof cs);
    memcpy(s, sn, sizeof sn);
}

void sample_build_walker(sample_model *out)
{
    sample_begin(out, "alamo/walker.alo");
    ferry_arena *arena = out->storage;
    ferry_alo_model *m = &out->model;
    init_model(m);

    /* Pelvis and spine use the older bone chunk 0x205; the head is turned a
     * quarter round about Z and the spot anchor half round about X, both
     * with exactly representable matrices. Lights shine down their bone's
     * -Z (docs/formats/gltf-export.md), so the half turn points the spot up. */
    ferry_alo_skeleton *sk = &m->skeleton;
    sk->bone_count = WALKER_BONES;
    sk->bones = TAKE(arena, ferry_alo_bone, sk->bone_count);
    float pelvis[12], spine[12], beacon[12], exhaust[12];
    translation(pelvis, 0.0f, 0.0f, 0.5f);
    translation(spine, 0.0f, 0.0f, 0.5f);
    translation(beacon, 0.0f, 0.3f, 0.25f);
    translation(exhaust, 0.0f, -0.3f, 0.0f);
    const float head[12] = {0, -1, 0, 0, 1, 0, 0, 0, 0, 0, 1, 0.75f};
    const float spot[12] = {1, 0, 0, 0.5f, 0, -1, 0, -1.0f, 0, 0, -1, 2.5f};
    set_bone(&sk->bones[WALKER_ROOT], "Root", -1, 2, NULL);
    set_bone(&sk->bones[WALKER_PELVIS], "Pelvis", WALKER_ROOT, 1, pelvis);
    set_bone(&sk->bones[WALKER_SPINE], "Spine", WALKER_PELVIS, 1, spine);
    set_bone(&sk->bones[WALKER_HEAD], "Head", WALKER_SPINE, 2, head);
    set_bone(&sk->bones[WALKER_BEACON], "Beacon", WALKER_HEAD, 2, beacon);
    sk->bones[WALKER_BEACON].billboard = FERRY_ALO_BILLBOARD_FACE;
    set_bone(&sk->bones[WALKER_SPOT], "SpotAnchor", WALKER_ROOT, 2, spot);
    set_bone(&sk->bones[WALKER_EXHAUST], "p_exhaust", WALKER_PELVIS, 2, exhaust);

    /* The body: a 2 m tube of radius 0.25, rigidly skinned ring by ring to
     * pelvis, spine and head through the bone mapping. Vertices are in
     * model space, in the skeleton's rest pose, as real files store them.
     * The seam column is doubled so that u runs 0..1 around. */
    static const uint32_t mapping[] = {WALKER_PELVIS, WALKER_SPINE, WALKER_HEAD};
    static const uint32_t ring_slot[TUBE_RINGS] = {0, 0, 1, 1, 2};
    const double radius = 0.25, height = 2.0;
    double c[TUBE_SIDES + 1], s[TUBE_SIDES + 1];
    octagon(c, s);
    geometry g = geometry_make(arena, (TUBE_SIDES + 1) * TUBE_RINGS, TUBE_SIDES * (TUBE_RINGS - 1) * 2);
    for (int ring = 0; ring < TUBE_RINGS; ring++) {
        double z = height * ring / (TUBE_RINGS - 1);
        for (int k = 0; k <= TUBE_SIDES; k++) {
            double p[3], n[3], t[3];
            set3(p, radius * c[k], radius * s[k], z);
            set3(n, c[k], s[k], 0);
            set3(t, -s[k], c[k], 0);
            add_vertex(&g, p, n, t, (double)k / TUBE_SIDES, 1.0 - z / height, ring_slot[ring]);
        }
    }
    for (int ring = 0; ring + 1 < TUBE_RINGS; ring++) {
        for (int k = 0; k < TUBE_SIDES; k++) {
            uint16_t a = (uint16_t)(ring * (TUBE_SIDES + 1) + k), b = (uint16_t)(a + 1);
            uint16_t cc = (uint16_t)(b + TUBE_SIDES + 1), d = (uint16_t)(a + TUBE_SIDES + 1);
            add_triangle(&g, a, b, cc);
            add_triangle(&g, a, cc, d);
        }
    }
    ferry_alo_submesh *sm = TAKE(arena, ferry_alo_submesh, 1);
    gloss_material(arena, &sm->material, "RSkinGloss.fx", "walker.tga");
    set_submesh(sm, &g, "alD3dVertRSkinNU2", 2);
    sm->bone_mapping_count = sizeof mapping / sizeof mapping[0];
    sm->bone_mapping = TAKE(arena, uint32_t, sm->bone_mapping_count);
    memcpy(sm->bone_mapping, mapping, sizeof mapping);
    sm->has_bone_mapping = true;
    m->mesh_count = 1;
    m->meshes = TAKE(arena, ferry_alo_mesh, 1);
    set_mesh(&m->meshes[0], "Body", sm, 1);

    m->light_count = 3;
    m->lights = TAKE(arena, ferry_alo_light, 3);
    const ferry_alo_light lights[3] = {
        {.name = "Omni_Beacon", .type = FERRY_ALO_LIGHT_OMNI, .color = {1.0f, 0.8f, 0.3f}, .intensity = 0.35f,
         .far_attenuation_end = 4.0f, .far_attenuation_start = 2.0f, .offset = FERRY_NO_OFFSET},
        {.name = "Sun", .type = FERRY_ALO_LIGHT_DIRECTIONAL, .color = {1.0f, 1.0f, 0.9f}, .intensity = 0.6f,
         .offset = FERRY_NO_OFFSET},
        {.name = "Spot_Search", .type = FERRY_ALO_LIGHT_SPOT, .color = {0.9f, 0.95f, 1.0f}, .intensity = 1.0f,
         .far_attenuation_end = 10.0f, .far_attenuation_start = 5.0f, .hotspot_size = 0.5f, .falloff_size = 0.75f,
         .offset = FERRY_NO_OFFSET},
    };
    memcpy(m->lights, lights, sizeof lights);
    /* Lights and the mesh interleaved: the shared object numbering follows
     * file order, not kind. */
    const ferry_alo_object objects[] = {{FERRY_ALO_OBJECT_LIGHT, 0},
                                        {FERRY_ALO_OBJECT_MESH, 0},
                                        {FERRY_ALO_OBJECT_LIGHT, 1},
                                        {FERRY_ALO_OBJECT_LIGHT, 2}};
    set_objects(arena, m, objects, 4);

    ferry_alo_connections *cn = &m->connections;
    cn->object_count = 4;
    cn->objects = TAKE(arena, ferry_alo_connection, 4);
    cn->objects[0] = attach(0, WALKER_BEACON);
    cn->objects[1] = attach(1, WALKER_ROOT);
    cn->objects[2] = attach(2, WALKER_ROOT);
    cn->objects[3] = attach(3, WALKER_SPOT);

    cn->proxy_count = 3;
    cn->proxies = TAKE(arena, ferry_alo_proxy, 3);
    cn->proxies[0] = proxy("P_Walker_Exhaust", WALKER_EXHAUST);
    cn->proxies[1] = proxy("P_Smoke_Small_ALT1", WALKER_EXHAUST);
    cn->proxies[1].is_hidden = 1;
    cn->proxies[1].alt_decrease_stay_hidden = 1;
    cn->proxies[1].present = FERRY_ALO_PROXY_HAS_HIDDEN | FERRY_ALO_PROXY_HAS_ALT_DECREASE;
    cn->proxies[2] = proxy("P_Sparks_Head", WALKER_HEAD);
    cn->proxies[2].is_hidden = 1;
    cn->proxies[2].present = FERRY_ALO_PROXY_HAS_HIDDEN;

    /* One blinking dazzle with a bias, one steady night-only dazzle without
     * (bias then defaults to 1, which is what the model says too). */
    cn->dazzle_count = 2;
    cn->has_dazzle_count = true;
    cn->dazzles = TAKE(arena, ferry_alo_dazzle, 2);
    cn->dazzles[0] = (ferry_alo_dazzle){.color = {1.0f, 0.8f, 0.3f},
                                        .position = {0.0f, 0.0f, 0.05f},
                                        .radius = 0.4f,
                                        .texture_x = 1,
                                        .texture_y = 0,
                                        .texture = "Dazzle.tga",
                                        .texture_size = 4,
                                        .frequency = 2.0f,
                                        .phase = 0.25f,
                                        .bone = WALKER_BEACON,
                                        .name = "Dazzle_Beacon",
                                        .bias = 0.5f,
                                        .present = FERRY_ALO_DAZZLE_ALL_REQUIRED | FERRY_ALO_DAZZLE_HAS_BIAS,
                                        .offset = FERRY_NO_OFFSET};
    cn->dazzles[1] = (ferry_alo_dazzle){.color = {1.0f, 0.1f, 0.1f},
                                        .position = {0.0f, -0.3f, 0.0f},
                                        .radius = 0.2f,
                                        .texture_x = 0,
                                        .texture_y = 1,
                                        .texture = "Dazzle.tga",
                                        .texture_size = 4,
                                        .night_only = 1,
                                        .bone = WALKER_EXHAUST,
                                        .name = "Dazzle_Tail",
                                        .bias = 1.0f,
                                        .present = FERRY_ALO_DAZZLE_ALL_REQUIRED,
                                        .offset = FERRY_NO_OFFSET};
}

/* ---- legacy ---- */

enum { LEGACY_ROOT, LEGACY_PYRAMID, LEGACY_BONES };

void sample_build_legacy(sample_model *out)
{
    sample_begin(out, "alamo/legacy.alo");
    ferry_arena *arena = out->storage;
    ferry_alo_model *m = &out->model;
    init_model(m);

    ferry_alo_skeleton *sk = &m->skeleton;
    sk->bone_count = LEGACY_BONES;
    sk->bones = TAKE(arena, ferry_alo_bone, sk->bone_count);
    set_bone(&sk->bones[LEGACY_ROOT], "Root", -1, 1, NULL);
    set_bone(&sk->bones[LEGACY_PYRAMID], "Pyramid", LEGACY_ROOT, 1, NULL);

    /* A square pyramid, 1.5 m wide and 1 m high, so that its sides lean
     * 3:4 and their normals are (0.8, 0.6) in exact decimals. Sides and base
     * are two sub-meshes with different shaders. */
    const double half = 0.75;
    geometry sides = geometry_make(arena, 12, 4);
    static const double dirs[4][2] = {{1, 0}, {0, 1}, {-1, 0}, {0, -1}};
    for (int f = 0; f < 4; f++) {
        double dx = dirs[f][0], dy = dirs[f][1];
        double n[3], t[3], left[3], right[3], apex[3];
        set3(n, 0.8 * dx, 0.8 * dy, 0.6);
        set3(t, -dy, dx, 0);
        set3(left, half * (dx - t[0]), half * (dy - t[1]), 0);
        set3(right, half * (dx + t[0]), half * (dy + t[1]), 0);
        set3(apex, 0, 0, 1.0);
        uint16_t a = add_vertex(&sides, left, n, t, 0.0, 1.0, 0);
        uint16_t b = add_vertex(&sides, right, n, t, 1.0, 1.0, 0);
        uint16_t c = add_vertex(&sides, apex, n, t, 0.5, 0.0, 0);
        add_triangle(&sides, a, b, c);
    }
    geometry base = geometry_make(arena, 4, 2);
    double center[3], down[3], x[3];
    set3(center, 0, 0, 0);
    set3(down, 0, 0, -1);
    set3(x, 1, 0, 0);
    add_face(&base, center, down, x, half, 1);

    ferry_alo_submesh *sm = TAKE(arena, ferry_alo_submesh, 2);
    ferry_alo_material *mat = &sm[0].material;
    mat->shader = "Default.fx";
    mat->param_count = 4;
    mat->params = TAKE(arena, ferry_alo_shader_param, 4);
    mat->params[0] = param_float4("k_a", 0.47f, 0.47f, 0.47f, 1.0f);
    mat->params[1] = param_float4("k_d", 0.47f, 0.47f, 0.47f, 1.0f);
    mat->params[2] = param_float4("k_s", 1.0f, 1.0f, 1.0f, 1.0f);
    mat->params[3] = param_int("n", 15);
    mat->offset = FERRY_NO_OFFSET;
    set_submesh(&sm[0], &sides, "alD3dVertN", 1);

    mat = &sm[1].material;
    mat->shader = "alDefault.fx";
    mat->param_count = 1;
    mat->params = TAKE(arena, ferry_alo_shader_param, 1);
    mat->params[0] = param_float3("DiffuseColor", 0.6f, 0.5f, 0.3f);
    mat->offset = FERRY_NO_OFFSET;
    set_submesh(&sm[1], &base, "alD3dVertNU2", 1);

    m->mesh_count = 1;
    m->meshes = TAKE(arena, ferry_alo_mesh, 1);
    set_mesh(&m->meshes[0], "Pyramid", sm, 2);
    const ferry_alo_object objects[] = {{FERRY_ALO_OBJECT_MESH, 0}};
    set_objects(arena, m, objects, 1);

    ferry_alo_connections *cn = &m->connections;
    cn->object_count = 1;
    cn->objects = TAKE(arena, ferry_alo_connection, 1);
    cn->objects[0] = attach(0, LEGACY_PYRAMID);
}

const sample_builder sample_builders[] = {sample_build_crate, sample_build_walker, sample_build_legacy};
const size_t sample_builder_count = sizeof sample_builders / sizeof sample_builders[0];

/* ---- animations ----
 * Rotations are rational unit quaternions: about one axis, by the angle
 * whose quarter has tangent p/q, the half angle has sine 2pq / (p^2 + q^2)
 * and cosine (q^2 - p^2) / (p^2 + q^2), exactly; the angle is about 4p/q
 * radians. Each is then rounded once to the stored int16 (over 32767).
 * Translations and scales move in power-of-two steps, so that offset +
 * stored * scale is exact. The motion follows tables of whole numbers
 * rather than sin(), which is not portable to the bit. */

#define QUAT_ONE 32767

/* One period of a sine of amplitude 8, rounded, in 15 and 10 steps. A
 * quarter period later ((f + 4) % 15, (f + 3) % 10 roughly) it is a cosine. */
static const int WAVE15[15] = {0, 3, 6, 8, 8, 7, 5, 2, -2, -5, -7, -8, -8, -6, -3};
static const int WAVE10[10] = {0, 5, 8, 8, 5, 0, -5, -8, -8, -5};

static int wave15(int f) { return WAVE15[f % 15]; }
static int wave10(int f) { return WAVE10[f % 10]; }

enum { AXIS_X, AXIS_Y, AXIS_Z };

/* x, y, z, w: the rotation about `axis` whose quarter angle has tangent p/q. */
static void axis_quat(double out[4], int axis, int p, int q)
{
    double d = (double)p * p + (double)q * q;
    out[0] = out[1] = out[2] = 0;
    out[axis] = 2.0 * p * q / d;
    out[3] = ((double)q * q - (double)p * p) / d;
}

/* a then b in a's frame: the Hamilton product a b, components x, y, z, w. */
static void quat_mul(const double a[4], const double b[4], double out[4])
{
    double r[4] = {a[3] * b[0] + a[0] * b[3] + a[1] * b[2] - a[2] * b[1],
                   a[3] * b[1] - a[0] * b[2] + a[1] * b[3] + a[2] * b[0],
                   a[3] * b[2] + a[0] * b[1] - a[1] * b[0] + a[2] * b[3],
                   a[3] * b[3] - a[0] * b[0] - a[1] * b[1] - a[2] * b[2]};
    memcpy(out, r, sizeof r);
}

static void store_quat(int16_t out[4], const double q[4])
{
    for (int k = 0; k < 4; k++) out[k] = (int16_t)floor(q[k] * QUAT_ONE + 0.5);
}

/* The head's rest rotation (a quarter turn about Z, as in walker.alo),
 * then a turn about `axis` in the head's own frame. */
static void head_quat(int16_t out[4], int axis, int p, int q)
{
    double r = sqrt(0.5), rest[4] = {0, 0, r, r}, turn[4], head[4];
    axis_quat(turn, axis, p, q);
    quat_mul(rest, turn, head);
    store_quat(out, head);
}

static void turn_quat(int16_t out[4], int axis, int p, int q)
{
    double t[4];
    axis_quat(t, axis, p, q);
    store_quat(out, t);
}

/* A translation or scale channel: value = rest + w * step per axis, for
 * whole numbers w >= low; stored as w - low over offset rest + low * step.
 * An axis with step 0 does not move and stores 0. */
typedef struct motion {
    double rest[3];
    double step[3];
    int low;
} motion;

static void motion_header(const motion *m, float offset[3], float scale[3])
{
    for (int a = 0; a < 3; a++) {
        offset[a] = (float)(m->rest[a] + m->low * m->step[a]);
        scale[a] = (float)m->step[a];
    }
}

static void motion_store(const motion *m, const int w[3], uint16_t out[3])
{
    for (int a = 0; a < 3; a++) {
        if (m->step[a] != 0 && (w[a] < m->low || w[a] - m->low > UINT16_MAX)) {
            fputs("sample_models: motion out of its range\n", stderr);
            abort();
        }
        out[a] = m->step[a] != 0 ? (uint16_t)(w[a] - m->low) : 0;
    }
}

static void animation_begin(sample_animation *out, const char *file, ferry_ala_format format, uint32_t frames,
                            float fps, size_t bones)
{
    memset(out, 0, sizeof *out);
    out->file = file;
    out->model = sample_build_walker;
    out->storage = new_arena();
    ferry_ala_animation *a = &out->anim;
    a->format = (uint8_t)format;
    a->frame_count = frames;
    a->fps = fps;
    a->bone_count = bones;
    a->bones = TAKE(out->storage, ferry_ala_bone, bones);
    a->offset = a->header_offset = FERRY_NO_OFFSET;
    a->frame_rotations_offset = a->frame_translations_offset = a->frame_scales_offset = FERRY_NO_OFFSET;
}

void sample_animation_free(sample_animation *sample)
{
    if (!sample) return;
    ferry_arena_destroy(sample->storage);
    memset(sample, 0, sizeof *sample);
}

/* A bone that does not move: translation `rest`, unit scale, identity
 * rotation, no track (what a read bone of either format holds then). */
static void ala_bone(ferry_ala_bone *b, ferry_ala_format format, const char *name, uint32_t index, float x, float y,
                     float z)
{
    memset(b, 0, sizeof *b);
    b->name = name;
    b->index = index;
    b->translation_offset[0] = x;
    b->translation_offset[1] = y;
    b->translation_offset[2] = z;
    for (int a = 0; a < 3; a++) b->scale_offset[a] = 1.0f;
    b->translation_index = b->scale_index = b->rotation_index = FERRY_ALA_NOT_ANIMATED;
    b->default_rotation[3] = QUAT_ONE;
    b->present = format == FERRY_ALA_FORMAT_2 ? FERRY_ALA_BONE_FORMAT2_MINIS : 0;
    b->offset = FERRY_NO_OFFSET;
    b->source = (ferry_ala_bone_source){FERRY_NO_OFFSET, FERRY_NO_OFFSET, FERRY_NO_OFFSET,
                                        FERRY_NO_OFFSET, FERRY_NO_OFFSET, FERRY_NO_OFFSET};
}

static void set_bits(ferry_arena *arena, uint8_t **bits, size_t *size, bool *has, const uint8_t *value, size_t n)
{
    *bits = TAKE(arena, uint8_t, n);
    memcpy(*bits, value, n);
    *size = n;
    *has = true;
}

/* ---- walker_walk_00.ala ---- */

enum { WALK_FRAMES = 16, WALK_PERIOD = WALK_FRAMES - 1 };
enum { WALK_PELVIS, WALK_SPINE, WALK_HEAD, WALK_BEACON, WALK_SPOT, WALK_EXHAUST, WALK_TRACKS };
/* Columns of the frame blocks (16-bit values), in bone order as real files
 * give them. */
enum { WALK_T_PELVIS = 0, WALK_T_SPOT = 3, WALK_T_EXHAUST = 6, WALK_T_STRIDE = 9 };
enum { WALK_R_PELVIS = 0, WALK_R_SPINE = 4, WALK_R_HEAD = 8, WALK_R_STRIDE = 12 };
enum { WALK_S_SPINE = 0, WALK_S_STRIDE = 3 };

void sample_build_walker_walk(sample_animation *out)
{
    animation_begin(out, "alamo/walker_walk_00.ala", FERRY_ALA_FORMAT_2, WALK_FRAMES, 15.0f, WALK_TRACKS);
    ferry_arena *arena = out->storage;
    ferry_ala_animation *a = &out->anim;
    ferry_ala_bone *b = a->bones;
    const ferry_ala_format f2 = FERRY_ALA_FORMAT_2;
    ala_bone(&b[WALK_PELVIS], f2, "Pelvis", WALKER_PELVIS, 0.0f, 0.0f, 0.5f);
    ala_bone(&b[WALK_SPINE], f2, "Spine", WALKER_SPINE, 0.0f, 0.0f, 0.5f);
    ala_bone(&b[WALK_HEAD], f2, "Head", WALKER_HEAD, 0.0f, 0.0f, 0.75f);
    ala_bone(&b[WALK_BEACON], f2, "Beacon", WALKER_BEACON, 0.0f, 0.3f, 0.25f);
    ala_bone(&b[WALK_SPOT], f2, "SpotAnchor", WALKER_SPOT, 0.5f, -1.0f, 2.5f);
    ala_bone(&b[WALK_EXHAUST], f2, "p_exhaust", WALKER_EXHAUST, 0.0f, -0.3f, 0.0f);

    /* The pelvis sways sideways once a cycle and bobs twice (one step of
     * each foot); the searchlight anchor sweeps along X; the exhaust
     * recoils at each footfall and eases back. Spine breathes along Z. */
    static const motion pelvis_t = {{0, 0, 0.5}, {0, 1.0 / 512, 1.0 / 256}, -8};
    static const motion spot_t = {{0.5, -1, 2.5}, {1.0 / 64, 0, 0}, -8};
    static const motion exhaust_t = {{0, -0.3, 0}, {0, 1.0 / 128, 0}, 0};
    static const motion spine_s = {{1, 1, 1}, {0, 0, 1.0 / 256}, -8};
    static const int puff[WALK_PERIOD] = {3, 2, 1, 0, 0, 0, 0, 0, 3, 2, 1, 0, 0, 0, 0};
    b[WALK_PELVIS].translation_index = WALK_T_PELVIS;
    motion_header(&pelvis_t, b[WALK_PELVIS].translation_offset, b[WALK_PELVIS].translation_scale);
    b[WALK_SPOT].translation_index = WALK_T_SPOT;
    motion_header(&spot_t, b[WALK_SPOT].translation_offset, b[WALK_SPOT].translation_scale);
    b[WALK_EXHAUST].translation_index = WALK_T_EXHAUST;
    motion_header(&exhaust_t, b[WALK_EXHAUST].translation_offset, b[WALK_EXHAUST].translation_scale);
    b[WALK_SPINE].scale_index = WALK_S_SPINE;
    motion_header(&spine_s, b[WALK_SPINE].scale_offset, b[WALK_SPINE].scale_scale);
    b[WALK_PELVIS].rotation_index = WALK_R_PELVIS;
    b[WALK_SPINE].rotation_index = WALK_R_SPINE;
    b[WALK_HEAD].rotation_index = WALK_R_HEAD;

    a->translation_stride = WALK_T_STRIDE;
    a->rotation_stride = WALK_R_STRIDE;
    a->scale_stride = WALK_S_STRIDE;
    a->frame_translation_count = (size_t)WALK_FRAMES * WALK_T_STRIDE;
    a->frame_rotation_count = (size_t)WALK_FRAMES * WALK_R_STRIDE;
    a->frame_scale_count = (size_t)WALK_FRAMES * WALK_S_STRIDE;
    a->frame_translations = TAKE(arena, uint16_t, a->frame_translation_count);
    a->frame_rotations = TAKE(arena, int16_t, a->frame_rotation_count);
    a->frame_scales = TAKE(arena, uint16_t, a->frame_scale_count);
    a->has_frame_translations = a->has_frame_rotations = a->has_frame_scales = true;

    for (int k = 0; k < WALK_FRAMES; k++) {
        int f = k % WALK_PERIOD; /* the last frame is the first again */
        uint16_t *t = a->frame_translations + (size_t)k * WALK_T_STRIDE;
        int16_t *r = a->frame_rotations + (size_t)k * WALK_R_STRIDE;
        motion_store(&pelvis_t, (const int[3]){0, wave15(f), wave15(2 * f + 4)}, t + WALK_T_PELVIS);
        motion_store(&spot_t, (const int[3]){wave15(f), 0, 0}, t + WALK_T_SPOT);
        motion_store(&exhaust_t, (const int[3]){0, puff[f], 0}, t + WALK_T_EXHAUST);
        motion_store(&spine_s, (const int[3]){0, 0, wave15(2 * f)}, a->frame_scales + (size_t)k * WALK_S_STRIDE);
        /* Pelvis rolls with its sway (about 4 degrees), the spine twists
         * against it (about 8), the head nods twice a cycle (about 4). */
        turn_quat(r + WALK_R_PELVIS, AXIS_X, wave15(f), 460);
        turn_quat(r + WALK_R_SPINE, AXIS_Z, -wave15(f + 4), 230);
        head_quat(r + WALK_R_HEAD, AXIS_X, wave15(2 * f + 2), 460);
    }
    /* Animated bones carry their first frame as default rotation, as real
     * files do; the spot anchor has no rotation track and keeps its rest
     * half turn about X. */
    memcpy(b[WALK_PELVIS].default_rotation, a->frame_rotations + WALK_R_PELVIS, 8);
    memcpy(b[WALK_SPINE].default_rotation, a->frame_rotations + WALK_R_SPINE, 8);
    memcpy(b[WALK_HEAD].default_rotation, a->frame_rotations + WALK_R_HEAD, 8);
    static const int16_t half_turn_x[4] = {QUAT_ONE, 0, 0, 0};
    memcpy(b[WALK_SPOT].default_rotation, half_turn_x, sizeof half_turn_x);
    /* The beacon holds still (the unknown flag set, as on real still
     * bones) and blinks: lit on frames 0-3, 8-11 and 15. The exhaust's
     * recoil jumps in: step bits hold frames 7 and 14 until the next. */
    b[WALK_BEACON].unknown = 1;
    static const uint8_t blink[2] = {0x0F, 0x8F}, jumps[2] = {0x80, 0x40};
    set_bits(arena, &b[WALK_BEACON].visibility, &b[WALK_BEACON].visibility_size, &b[WALK_BEACON].has_visibility,
             blink, sizeof blink);
    set_bits(arena, &b[WALK_EXHAUST].steps, &b[WALK_EXHAUST].step_size, &b[WALK_EXHAUST].has_steps, jumps,
             sizeof jumps);
}

/* ---- walker_idle_00.ala ---- */

enum { IDLE_FRAMES = 11, IDLE_PERIOD = IDLE_FRAMES - 1 };
enum { IDLE_PELVIS, IDLE_SPINE, IDLE_HEAD, IDLE_BEACON, IDLE_TRACKS };

static void translation_track(ferry_arena *arena, ferry_ala_bone *b, const motion *m, const int (*w)[3], size_t frames)
{
    motion_header(m, b->translation_offset, b->translation_scale);
    b->translations = TAKE(arena, uint16_t, 3 * frames);
    b->translation_count = frames;
    b->has_translations = true;
    for (size_t k = 0; k < frames; k++) motion_store(m, w[k], b->translations + 3 * k);
}

static int16_t *rotation_track(ferry_arena *arena, ferry_ala_bone *b, size_t entries)
{
    b->rotations = TAKE(arena, int16_t, 4 * entries);
    b->rotation_count = entries;
    b->has_rotations = true;
    return b->rotations;
}

void sample_build_walker_idle(sample_animation *out)
{
    animation_begin(out, "alamo/walker_idle_00.ala", FERRY_ALA_FORMAT_1, IDLE_FRAMES, 10.0f, IDLE_TRACKS);
    ferry_arena *arena = out->storage;
    ferry_ala_bone *b = out->anim.bones;
    const ferry_ala_format f1 = FERRY_ALA_FORMAT_1;
    ala_bone(&b[IDLE_PELVIS], f1, "Pelvis", WALKER_PELVIS, 0.0f, 0.0f, 0.5f);
    ala_bone(&b[IDLE_SPINE], f1, "Spine", WALKER_SPINE, 0.0f, 0.0f, 0.5f);
    ala_bone(&b[IDLE_HEAD], f1, "Head", WALKER_HEAD, 0.0f, 0.0f, 0.75f);
    ala_bone(&b[IDLE_BEACON], f1, "Beacon", WALKER_BEACON, 0.0f, 0.3f, 0.25f);

    /* Every bone has a translation track, still ones too (step 0). The
     * pelvis breathes up and down; the beacon's glow pulses twice a cycle. */
    static const motion pelvis_t = {{0, 0, 0.5}, {0, 0, 1.0 / 512}, -8};
    static const motion spine_t = {{0, 0, 0.5}, {0, 0, 0}, 0};
    static const motion head_t = {{0, 0, 0.75}, {0, 0, 0}, 0};
    static const motion beacon_t = {{0, 0.3, 0.25}, {0, 0, 0}, 0};
    static const motion beacon_s = {{1, 1, 1}, {1.0 / 32, 1.0 / 32, 1.0 / 32}, -8};
    /* The head looks ahead, left, ahead, right (about 20 degrees), snapping
     * from one to the next. */
    static const int look[IDLE_PERIOD] = {0, 0, 1, 1, 1, 0, 0, -1, -1, 0};
    int pelvis_w[IDLE_FRAMES][3], still[IDLE_FRAMES][3], pulse[IDLE_FRAMES][3];
    memset(still, 0, sizeof still);
    for (int k = 0; k < IDLE_FRAMES; k++) {
        int f = k % IDLE_PERIOD, p = wave10(2 * f);
        pelvis_w[k][0] = pelvis_w[k][1] = 0;
        pelvis_w[k][2] = wave10(f);
        pulse[k][0] = pulse[k][1] = pulse[k][2] = p;
    }
    translation_track(arena, &b[IDLE_PELVIS], &pelvis_t, (const int(*)[3])pelvis_w, IDLE_FRAMES);
    translation_track(arena, &b[IDLE_SPINE], &spine_t, (const int(*)[3])still, IDLE_FRAMES);
    translation_track(arena, &b[IDLE_HEAD], &head_t, (const int(*)[3])still, IDLE_FRAMES);
    translation_track(arena, &b[IDLE_BEACON], &beacon_t, (const int(*)[3])still, IDLE_FRAMES);

    ferry_ala_bone *beacon = &b[IDLE_BEACON];
    motion_header(&beacon_s, beacon->scale_offset, beacon->scale_scale);
    beacon->scales = TAKE(arena, uint16_t, 3 * IDLE_FRAMES);
    beacon->scale_count = IDLE_FRAMES;
    beacon->has_scales = true;
    for (int k = 0; k < IDLE_FRAMES; k++) motion_store(&beacon_s, pulse[k], beacon->scales + 3 * k);

    /* One quaternion for every frame: the pelvis leans forward a little
     * (about 6 degrees about Y), the beacon keeps the identity. */
    turn_quat(rotation_track(arena, &b[IDLE_PELVIS], 1), AXIS_Y, 1, 40);
    turn_quat(rotation_track(arena, beacon, 1), AXIS_X, 0, 1);
    int16_t *spine = rotation_track(arena, &b[IDLE_SPINE], IDLE_FRAMES);
    int16_t *head = rotation_track(arena, &b[IDLE_HEAD], IDLE_FRAMES);
    for (int k = 0; k < IDLE_FRAMES; k++) {
        int f = k % IDLE_PERIOD;
        turn_quat(spine + 4 * k, AXIS_Y, wave10(f + 3), 920);
        head_quat(head + 4 * k, AXIS_Z, 7 * look[f], 80);
    }
    /* Step bits hold the head on frames 1, 4, 6 and 8 until the next; the
     * beacon is lit on frames 0, 1, 4, 5, 8, 9 and 10. */
    static const uint8_t snaps[2] = {0x52, 0x01}, blink[2] = {0x33, 0x07};
    set_bits(arena, &b[IDLE_HEAD].steps, &b[IDLE_HEAD].step_size, &b[IDLE_HEAD].has_steps, snaps, sizeof snaps);
    set_bits(arena, &beacon->visibility, &beacon->visibility_size, &beacon->has_visibility, blink, sizeof blink);
}

const sample_animation_builder sample_animation_builders[] = {sample_build_walker_walk, sample_build_walker_idle};
const size_t sample_animation_builder_count = sizeof sample_animation_builders / sizeof sample_animation_builders[0];

/* ---- particle systems ---- */

void sample_particles_free(sample_particles *sample)
{
    if (!sample) return;
    ferry_arena_destroy(sample->storage);
    memset(sample, 0, sizeof *sample);
}

/* A track by its points: (0, first), the keys, (1, last). Colour tracks
 * store first and last as bytes and key values as uint32, so theirs are
 * given as whole numbers 0..255. */
typedef struct track_spec {
    uint32_t interpolation;
    float first, last;
    size_t key_count;
    float time[3], value[3];
} track_spec;

static void set_track(ferry_arena *arena, ferry_particle_track *t, bool color, const track_spec *spec)
{
    memset(t, 0, sizeof *t);
    t->interpolation = spec->interpolation;
    if (color) {
        t->first_byte = (uint8_t)spec->first;
        t->last_byte = (uint8_t)spec->last;
    } else {
        t->first = spec->first;
        t->last = spec->last;
    }
    t->key_count = spec->key_count;
    t->keys = spec->key_count ? TAKE(arena, ferry_particle_key, spec->key_count) : NULL;
    for (size_t k = 0; k < spec->key_count; k++) {
        t->keys[k].time = spec->time[k];
        if (color)
            t->keys[k].int_value = (uint32_t)spec->value[k];
        else
            t->keys[k].value = spec->value[k];
        t->keys[k].offset = FERRY_NO_OFFSET;
    }
    t->header_offset = t->keys_offset = FERRY_NO_OFFSET;
}

static void set_tracks(ferry_arena *arena, ferry_particle_emitter *e, const track_spec specs[FERRY_PARTICLE_TRACK_COUNT])
{
    for (int i = 0; i < FERRY_PARTICLE_TRACK_COUNT; i++)
        set_track(arena, &e->tracks[i], i < FERRY_PARTICLE_COLOR_TRACKS, &specs[i]);
}

static void set_group(ferry_particle_group *g, uint32_t type)
{
    memset(g, 0, sizeof *g);
    g->type = type;
    g->offset = g->data_offset = FERRY_NO_OFFSET;
}

/* What every emitter shares: the 47 properties real files store, its
 * position, names, and the lifetime group the spec derives from the
 * lifetime (type box, x and z 0, y from lifetime x (1 - randomized) to
 * lifetime). */
static void emitter_begin(ferry_particle_emitter *e, uint32_t index, const char *name, float lifetime,
                          float randomized_lifetime)
{
    memset(e, 0, sizeof *e);
    ferry_particle_properties *p = &e->properties;
    p->present[0] = FERRY_PARTICLE_PRESENT_USUAL_0;
    p->present[1] = FERRY_PARTICLE_PRESENT_USUAL_1;
    p->index = index;
    p->lifetime = lifetime;
    p->randomized_lifetime = randomized_lifetime;
    p->primitive_type = 1; /* quads */
    p->emitter_speed_mult = 1.0f;
    e->name = name;
    e->color_texture = "p_walker_smoke.tga";
    e->secondary_texture = "p_walker_smoke_bump.tga";
    for (int g = 0; g < FERRY_PARTICLE_GROUP_COUNT; g++) set_group(&e->groups[g], FERRY_PARTICLE_GROUP_EXACT);
    ferry_particle_group *life = &e->groups[FERRY_PARTICLE_GROUP_LIFETIME];
    life->type = FERRY_PARTICLE_GROUP_BOX;
    life->min[1] = lifetime * (1.0f - randomized_lifetime);
    life->max[1] = lifetime;
    e->death_emitter = e->birth_emitter = FERRY_PARTICLE_NO_EMITTER;
    e->offset = e->properties_offset = e->groups_offset = e->tracks_offset = e->connections_offset = FERRY_NO_OFFSET;
}

enum { EXHAUST_SMOKE, EXHAUST_FLASH, EXHAUST_EMITTERS };

void sample_build_walker_exhaust(sample_particles *out)
{
    memset(out, 0, sizeof *out);
    out->file = "alamo/p_walker_exhaust.alo";
    out->storage = new_arena();
    ferry_arena *arena = out->storage;
    ferry_particle_system *s = &out->system;
    s->name = "p_walker_exhaust"; /* the file's name, lower case as in real files */
    s->emitter_count = EXHAUST_EMITTERS;
    s->emitters = TAKE(arena, ferry_particle_emitter, EXHAUST_EMITTERS);
    s->offset = s->emitters_offset = FERRY_NO_OFFSET;

    /* A stream of smoke puffs from a small cylinder at the nozzle, blown
     * backwards (-Y) and up, rising and growing as they fade. */
    ferry_particle_emitter *smoke = &s->emitters[EXHAUST_SMOKE];
    emitter_begin(smoke, EXHAUST_SMOKE, "smoke", 2.0f, 0.25f);
    ferry_particle_properties *p = &smoke->properties;
    p->blend_mode = 2; /* alpha */
    p->acceleration[2] = 0.5f;
    p->texture_elements = 4;
    p->randomized_scale = 0.25f;
    p->randomized_rotation = 0.5f;
    p->rotation_direction = 1;
    p->particles_per_second = 24;
    p->randomized_color[0] = p->randomized_color[1] = p->randomized_color[2] = 0.125f;
    p->randomized_is_grayscale = 1;
    p->affected_by_wind = 1;
    p->wind_disturbance = 1;
    ferry_particle_group *velocity = &smoke->groups[FERRY_PARTICLE_GROUP_VELOCITY];
    velocity->type = FERRY_PARTICLE_GROUP_BOX;
    const float vmin[3] = {-0.125f, -0.75f, 0.25f}, vmax[3] = {0.125f, -0.5f, 0.5f};
    memcpy(velocity->min, vmin, sizeof vmin);
    memcpy(velocity->max, vmax, sizeof vmax);
    ferry_particle_group *position = &smoke->groups[FERRY_PARTICLE_GROUP_POSITION];
    position->type = FERRY_PARTICLE_GROUP_CYLINDER;
    position->cylinder_radius = 0.0625f;
    position->cylinder_height = 0.125f;
    /* Where a smoke particle dies, a flash bursts. */
    smoke->death_emitter = EXHAUST_FLASH;
    static const track_spec smoke_tracks[FERRY_PARTICLE_TRACK_COUNT] = {
        {FERRY_PARTICLE_LINEAR, 255, 96, 1, {0.25f}, {200}},                   /* red */
        {FERRY_PARTICLE_LINEAR, 224, 96, 1, {0.25f}, {184}},                   /* green */
        {FERRY_PARTICLE_LINEAR, 192, 96, 1, {0.25f}, {168}},                   /* blue */
        {FERRY_PARTICLE_COSINE, 0, 0, 2, {0.125f, 0.75f}, {192, 96}},          /* alpha: fades in, then out */
        {FERRY_PARTICLE_LINEAR, 0.25f, 1.5f, 1, {0.5f}, {1.0f}},               /* size */
        {FERRY_PARTICLE_STEP, 0, 3, 3, {0.25f, 0.5f, 0.75f}, {1, 2, 3}},       /* texture index: 0, 1, 2, 3 */
        {FERRY_PARTICLE_COSINE, 0.5f, 0.125f, 1, {0.5f}, {0.25f}},             /* rotation speed */
    };
    set_tracks(arena, smoke, smoke_tracks);

    /* One burst of six sparks on a small sphere's surface, shot up. */
    ferry_particle_emitter *flash = &s->emitters[EXHAUST_FLASH];
    emitter_begin(flash, EXHAUST_FLASH, "flash", 0.5f, 0.5f);
    p = &flash->properties;
    p->blend_mode = 1; /* additive */
    p->in_bursts = 1;
    p->particles_per_burst = 6;
    p->bursts = 1;
    p->outward_acceleration = 1.0f;
    p->texture_elements = 4;
    velocity = &flash->groups[FERRY_PARTICLE_GROUP_VELOCITY];
    velocity->value[2] = 0.25f;
    position = &flash->groups[FERRY_PARTICLE_GROUP_POSITION];
    position->type = FERRY_PARTICLE_GROUP_SPHERE;
    position->sphere_radius = 0.125f;
    position->sphere_surface = 1;
    static const track_spec flash_tracks[FERRY_PARTICLE_TRACK_COUNT] = {
        {FERRY_PARTICLE_STEP, 255, 128, 1, {0.5f}, {255}},                     /* red: drops at the end */
        {FERRY_PARTICLE_LINEAR, 224, 64, 1, {0.5f}, {160}},                    /* green */
        {FERRY_PARTICLE_LINEAR, 128, 0, 0, {0}, {0}},                          /* blue */
        {FERRY_PARTICLE_COSINE, 255, 0, 1, {0.25f}, {224}},                    /* alpha */
        {FERRY_PARTICLE_LINEAR, 0.125f, 0.5f, 1, {0.25f}, {0.375f}},           /* size */
        {FERRY_PARTICLE_STEP, 2, 3, 1, {0.5f}, {3}},                           /* texture index */
        {FERRY_PARTICLE_LINEAR, 1.0f, 0.0f, 0, {0}, {0}},                      /* rotation speed */
    };
    set_tracks(arena, flash, flash_tracks);
}

const sample_particles_builder sample_particles_builders[] = {sample_build_walker_exhaust};
const size_t sample_particles_builder_count = sizeof sample_particles_builders / sizeof sample_particles_builders[0];
