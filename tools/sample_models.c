/* Hand-built sample models (see sample_models.h). Only the public API is
 * used: a sample is what any program could build and write with ferry.
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

static void sample_begin(sample_model *out, const char *file)
{
    memset(out, 0, sizeof *out);
    out->file = file;
    out->storage = ferry_arena_create(0);
    if (!out->storage) {
        fputs("sample_models: out of memory\n", stderr);
        abort();
    }
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
     * quarter round about Z and the spot anchor half round about X (so the
     * light looks down), both with exactly representable matrices. */
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
