/* glTF -> ALO (ferry_alo_from_scene) on files not made by ferry, and on bad
 * input: a Y-up textured box written by hand as a .gltf document must come
 * out Z-up (glTF +Y is Alamo +Z, the front glTF +Z is Alamo -Y), with a
 * mapped shader; limits split sub-meshes; bad scenes give located errors. */
#include <ferry/alo.h>
#include <ferry/convert.h>
#include <ferry/gltf.h>
#include <ferry/image.h>

#include "support.h"
#include "test.h"

static char *base64(const uint8_t *data, size_t n)
{
    static const char tbl[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    char *out = malloc(4 * ((n + 2) / 3) + 1), *o = out;
    for (size_t i = 0; i < n; i += 3) {
        uint32_t v = (uint32_t)data[i] << 16 | (i + 1 < n ? (uint32_t)data[i + 1] << 8 : 0) | (i + 2 < n ? data[i + 2] : 0);
        *o++ = tbl[v >> 18 & 63];
        *o++ = tbl[v >> 12 & 63];
        *o++ = i + 1 < n ? tbl[v >> 6 & 63] : '=';
        *o++ = i + 2 < n ? tbl[v & 63] : '=';
    }
    *o = 0;
    return out;
}

/* A box x [-0.5, 0.5], y [0, 2] (tall: glTF up), z [0.5, 1.5] (in front:
 * glTF's front is +Z), 6 faces of 4 vertices with outward normals. */
static const float box_min[3] = {-0.5f, 0.0f, 0.5f}, box_max[3] = {0.5f, 2.0f, 1.5f};

static void make_box(float *pos, float *nor, float *uv, uint16_t *idx)
{
    size_t v = 0, t = 0;
    for (int axis = 0; axis < 3; axis++) {
        for (int side = 0; side < 2; side++) {
            int u = (axis + 1) % 3, w = (axis + 2) % 3;
            float sign = side ? 1.0f : -1.0f;
            size_t first = v;
            for (int c = 0; c < 4; c++) {
                float *p = &pos[3 * v];
                p[axis] = side ? box_max[axis] : box_min[axis];
                int cu = c == 1 || c == 2, cw = c >= 2;
                p[u] = cu ? box_max[u] : box_min[u];
                p[w] = cw ? box_max[w] : box_min[w];
                nor[3 * v + 0] = nor[3 * v + 1] = nor[3 * v + 2] = 0;
                nor[3 * v + axis] = sign;
                uv[2 * v] = (float)cu;
                uv[2 * v + 1] = (float)cw;
                v++;
            }
            /* counter-clockwise about the outward normal: (u, w) is
             * right-handed with axis, so side + winds 0 1 2 and side - reverses */
            uint16_t q[6] = {0, 1, 2, 0, 2, 3};
            for (int k = 0; k < 6; k++) idx[t + k] = (uint16_t)(first + (side ? q[k] : q[5 - k]));
            t += 6;
        }
    }
}

static ferry_scene *read_box(void)
{
    float pos[72], nor[72], uv[48];
    uint16_t idx[36];
    make_box(pos, nor, uv, idx);
    ferry_image img = {2, 2, (uint8_t[16]){255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255, 255, 255, 255, 255}};
    ferry_buffer png = {0};
    ferry_error err;
    CHECK(ferry_image_encode_png(&img, NULL, &png, &err) == FERRY_OK);
    size_t png_at = 288 + 288 + 192 + 72;
    size_t total = png_at + png.size;
    uint8_t *bin = calloc(1, total);
    memcpy(bin, pos, 288);
    memcpy(bin + 288, nor, 288);
    memcpy(bin + 576, uv, 192);
    memcpy(bin + 768, idx, 72);
    memcpy(bin + png_at, png.data, png.size);
    char *b64 = base64(bin, total);
    size_t cap = strlen(b64) + 4096;
    char *json = malloc(cap);
    snprintf(json, cap,
             "{\"asset\":{\"version\":\"2.0\",\"generator\":\"hand\"},\"scene\":0,\"scenes\":[{\"nodes\":[0]}],"
             "\"nodes\":[{\"name\":\"Crate\",\"mesh\":0}],"
             "\"meshes\":[{\"name\":\"Crate\",\"primitives\":[{\"attributes\":{\"POSITION\":0,\"NORMAL\":1,\"TEXCOORD_0\":2},"
             "\"indices\":3,\"material\":0}]}],"
             "\"materials\":[{\"name\":\"wood\",\"pbrMetallicRoughness\":{\"baseColorTexture\":{\"index\":0},"
             "\"metallicFactor\":0}}],"
             "\"textures\":[{\"source\":0}],\"images\":[{\"name\":\"crate_wood\",\"bufferView\":4,\"mimeType\":\"image/png\"}],"
             "\"accessors\":["
             "{\"bufferView\":0,\"componentType\":5126,\"count\":24,\"type\":\"VEC3\",\"min\":[-0.5,0,0.5],\"max\":[0.5,2,1.5]},"
             "{\"bufferView\":1,\"componentType\":5126,\"count\":24,\"type\":\"VEC3\"},"
             "{\"bufferView\":2,\"componentType\":5126,\"count\":24,\"type\":\"VEC2\"},"
             "{\"bufferView\":3,\"componentType\":5123,\"count\":36,\"type\":\"SCALAR\"}],"
             "\"bufferViews\":[{\"buffer\":0,\"byteOffset\":0,\"byteLength\":288},{\"buffer\":0,\"byteOffset\":288,\"byteLength\":288},"
             "{\"buffer\":0,\"byteOffset\":576,\"byteLength\":192},{\"buffer\":0,\"byteOffset\":768,\"byteLength\":72},"
             "{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":%zu}],"
             "\"buffers\":[{\"byteLength\":%zu,\"uri\":\"data:application/octet-stream;base64,%s\"}]}",
             png_at, png.size, total, b64);
    ferry_scene *scene = NULL;
    ferry_result rc = ferry_gltf_read((const uint8_t *)json, strlen(json), NULL, &scene, &err);
    char msg[512];
    ferry_error_format(&err, msg, sizeof msg);
    CHECK_MSG(rc == FERRY_OK, "%s", msg);
    free(json);
    free(b64);
    free(bin);
    ferry_buffer_free(&png);
    return scene;
}

static void test_foreign_box(void)
{
    ferry_scene *scene = read_box();
    if (!scene) return;
    ferry_alo_from_scene_report rep;
    ferry_alo_from_scene_options o = {NULL, &rep};
    ferry_alo_model *m = NULL;
    ferry_error err;
    CHECK(ferry_alo_from_scene(scene, &o, &m, &err) == FERRY_OK);
    if (!m) {
        ferry_scene_free(scene);
        return;
    }
    CHECK(!rep.ferry_export);
    /* Root (added) and the crate's own bone */
    CHECK_EQ_U(m->skeleton.bone_count, 2);
    CHECK(strcmp(m->skeleton.bones[0].name, "Root") == 0);
    CHECK(strcmp(m->skeleton.bones[1].name, "Crate") == 0);
    CHECK(m->skeleton.bones[1].parent == 0);
    CHECK_EQ_U(m->mesh_count, 1);
    CHECK_EQ_U(m->meshes[0].submesh_count, 1);
    const ferry_alo_submesh *sm = &m->meshes[0].submeshes[0];
    CHECK_EQ_U(sm->triangle_count, 12);
    CHECK_EQ_U(sm->vertex_count, 24);
    CHECK(strcmp(sm->material.shader, "MeshGloss.fx") == 0);
    CHECK(strcmp(sm->vertex_format, "alD3dVertNU2") == 0);
    bool tex = false;
    for (size_t i = 0; i < sm->material.param_count; i++)
        if (sm->material.params[i].type == FERRY_ALO_PARAM_TEXTURE && strcmp(sm->material.params[i].name, "BaseTexture") == 0)
            tex = strcmp(sm->material.params[i].texture, "crate_wood.dds") == 0;
    CHECK(tex);
    CHECK_EQ_U(rep.texture_count, 1);
    if (rep.texture_count) {
        CHECK(strcmp(rep.textures[0].name, "crate_wood.dds") == 0);
        CHECK(rep.textures[0].image == 0 && !rep.textures[0].linear);
    }
    /* Orientation: model-space bounds through the bone's world matrix. */
    float world[32];
    ferry_alo_bone_world_matrices(m, world);
    const float *w = &world[16];
    float lo[3] = {1e9f, 1e9f, 1e9f}, hi[3] = {-1e9f, -1e9f, -1e9f};
    for (size_t v = 0; v < sm->vertex_count; v++) {
        const float *p = sm->vertices[v].position;
        for (int r = 0; r < 3; r++) {
            float x = w[r] * p[0] + w[4 + r] * p[1] + w[8 + r] * p[2] + w[12 + r];
            if (x < lo[r]) lo[r] = x;
            if (x > hi[r]) hi[r] = x;
        }
        /* a glTF +Y (top) normal becomes Alamo +Z */
        const float *n = sm->vertices[v].normal;
        if (n[1] > 0.5f && p[1] > 1.9f) {
            float nz = w[2] * n[0] + w[6] * n[1] + w[10] * n[2];
            CHECK_NEAR(nz, 1.0, 1e-6);
        }
    }
    /* glTF x [-0.5, 0.5] -> Alamo x; glTF y [0, 2] (up) -> Alamo z [0, 2];
     * glTF z [0.5, 1.5] (front) -> Alamo y [-1.5, -0.5] (Alamo's front is -Y). */
    CHECK_NEAR(lo[0], -0.5, 1e-6);
    CHECK_NEAR(hi[0], 0.5, 1e-6);
    CHECK_NEAR(lo[1], -1.5, 1e-6);
    CHECK_NEAR(hi[1], -0.5, 1e-6);
    CHECK_NEAR(lo[2], 0.0, 1e-6);
    CHECK_NEAR(hi[2], 2.0, 1e-6);
    /* Triangles wind counter-clockwise about their normals (no mirror). */
    size_t ccw = 0;
    for (size_t t = 0; t < sm->triangle_count; t++) {
        const ferry_alo_vertex *a = &sm->vertices[sm->indices[3 * t]], *b = &sm->vertices[sm->indices[3 * t + 1]],
                               *c = &sm->vertices[sm->indices[3 * t + 2]];
        float e1[3], e2[3];
        for (int k = 0; k < 3; k++) e1[k] = b->position[k] - a->position[k], e2[k] = c->position[k] - a->position[k];
        float cr[3] = {e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2], e1[0] * e2[1] - e1[1] * e2[0]};
        ccw += cr[0] * a->normal[0] + cr[1] * a->normal[1] + cr[2] * a->normal[2] > 0;
    }
    CHECK_EQ_U(ccw, 12);
    ferry_diagnostics d = {0};
    CHECK_EQ_U(ferry_alo_validate(m, NULL, &d), 0);
    ferry_diagnostics_free(&d);
    ferry_buffer bytes = {0};
    CHECK(ferry_alo_write(m, &bytes, &err) == FERRY_OK);
    ferry_alo_model *back = NULL;
    CHECK(ferry_alo_read(bytes.data, bytes.size, NULL, &back, &err) == FERRY_OK);
    if (back) CHECK_EQ_U(back->meshes[0].submeshes[0].triangle_count, 12);
    ferry_alo_free(back);
    ferry_buffer_free(&bytes);
    ferry_alo_free(m);
    ferry_scene_free(scene);
}

/* ---- scenes built by hand ---- */

typedef struct hand {
    ferry_scene s;
    ferry_scene_node nodes[40];
    ferry_scene_mesh mesh;
    ferry_scene_primitive prim;
    ferry_scene_skin skin;
    int32_t joints[40];
    float *pos;
    uint32_t *idx;
    uint16_t *jnt;
    float *wgt;
} hand;

/* A strip of `tris` triangles over 3 * tris vertices; with `bones` > 0 a
 * skinned chain of that many bones, triangle t on bone t % bones. */
static void hand_init(hand *h, size_t tris, size_t bones)
{
    memset(h, 0, sizeof *h);
    size_t n = 3 * tris;
    h->pos = calloc(3 * n, sizeof *h->pos);
    h->idx = calloc(n, sizeof *h->idx);
    for (size_t v = 0; v < n; v++) {
        h->pos[3 * v] = (float)(v / 3) + (v % 3 == 1);
        h->pos[3 * v + 1] = (float)(v % 3 == 2);
        h->idx[v] = (uint32_t)v;
    }
    h->prim.vertex_count = n;
    h->prim.positions = h->pos;
    h->prim.indices = h->idx;
    h->prim.index_count = n;
    h->prim.mode = FERRY_PRIMITIVE_TRIANGLES;
    FY_SET_REF(&h->prim, material, -1);
    h->mesh.primitives = &h->prim;
    h->mesh.primitive_count = 1;
    h->s.meshes = &h->mesh;
    h->s.mesh_count = 1;
    h->s.nodes = h->nodes;
    for (size_t b = 0; b < bones; b++) {
        ferry_scene_node_init(&h->nodes[b]);
        FY_SET_REF(&h->nodes[b], parent, b ? (int32_t)b - 1 : -1);
        h->nodes[b].translation[0] = b ? 1.0f : 0.0f;
        h->joints[b] = (int32_t)b;
    }
    ferry_scene_node *mn = &h->nodes[bones];
    ferry_scene_node_init(mn);
    mn->name = "mesh";
    FY_SET_REF(mn, mesh, 0);
    h->s.node_count = bones + 1;
    if (bones) {
        FY_SET_REF(mn, skin, 0);
        h->skin.joints = h->joints;
        h->skin.joint_count = bones;
        FY_SET_REF(&h->skin, skeleton, -1);
        h->s.skins = &h->skin;
        h->s.skin_count = 1;
        h->jnt = calloc(4 * n, sizeof *h->jnt);
        h->wgt = calloc(4 * n, sizeof *h->wgt);
        for (size_t v = 0; v < n; v++) {
            h->jnt[4 * v] = (uint16_t)((v / 3) % bones);
            h->jnt[4 * v + 1] = (uint16_t)((v / 3 + 1) % bones);
            h->wgt[4 * v] = 0.75f;
            h->wgt[4 * v + 1] = 0.25f;
        }
        h->prim.joints = h->jnt;
        h->prim.weights = h->wgt;
    }
}

static void hand_free(hand *h)
{
    free(h->pos);
    free(h->idx);
    free(h->jnt);
    free(h->wgt);
}

static ferry_result convert(hand *h, ferry_alo_model **m, ferry_error *err, ferry_alo_from_scene_report *rep)
{
    ferry_alo_from_scene_options o = {NULL, rep};
    return ferry_alo_from_scene(&h->s, &o, m, err);
}

static void test_splits(void)
{
    /* 30 bones: one sub-mesh cannot hold them (24 at most) */
    hand h;
    hand_init(&h, 60, 30);
    ferry_alo_model *m = NULL;
    ferry_error err;
    ferry_alo_from_scene_report rep;
    CHECK(convert(&h, &m, &err, &rep) == FERRY_OK);
    if (m) {
        CHECK_EQ_U(m->mesh_count, 1);
        CHECK(m->meshes[0].submesh_count >= 2);
        size_t tris = 0;
        for (size_t i = 0; i < m->meshes[0].submesh_count; i++) {
            const ferry_alo_submesh *sm = &m->meshes[0].submeshes[i];
            CHECK(sm->bone_mapping_count <= 24);
            tris += sm->triangle_count;
            for (size_t v = 0; v < sm->vertex_count; v++) CHECK(sm->vertices[v].bone_index[0] < sm->bone_mapping_count);
        }
        CHECK_EQ_U(tris, 60);
        CHECK_EQ_U(rep.vertices_reweighted, 180);
        CHECK_NEAR(rep.dropped_weight_max, 0.25, 1e-6);
        CHECK_EQ_U(rep.primitives_split, 1);
        CHECK(strcmp(m->meshes[0].submeshes[0].vertex_format, "alD3dVertRSkinNU2") == 0);
        ferry_diagnostics d = {0};
        CHECK_EQ_U(ferry_alo_validate(m, NULL, &d), 0);
        ferry_diagnostics_free(&d);
    }
    ferry_alo_free(m);
    hand_free(&h);

    /* The same with ferry's palette extra naming 24 bones: it cannot hold
     * every bone, so the split builds its own palettes (no empty sub-mesh). */
    hand_init(&h, 60, 30);
    ferry_json items[24];
    const ferry_json *item_ptrs[24];
    for (int k = 0; k < 24; k++) {
        memset(&items[k], 0, sizeof items[k]);
        items[k].kind = FERRY_JSON_INTEGER;
        items[k].integer = 29 - k;
        item_ptrs[k] = &items[k];
    }
    ferry_json map = {.kind = FERRY_JSON_ARRAY, .items = item_ptrs, .count = 24};
    ferry_json_member member = {"bone_mapping", 12, &map};
    ferry_json extras = {.kind = FERRY_JSON_OBJECT, .members = &member, .count = 1};
    h.prim.extras = &extras;
    m = NULL;
    CHECK(convert(&h, &m, &err, &rep) == FERRY_OK);
    if (m) {
        size_t tris = 0;
        for (size_t i = 0; i < m->meshes[0].submesh_count; i++) {
            CHECK(m->meshes[0].submeshes[i].triangle_count > 0);
            CHECK(m->meshes[0].submeshes[i].bone_mapping_count <= 24);
            tris += m->meshes[0].submeshes[i].triangle_count;
        }
        CHECK_EQ_U(tris, 60);
        ferry_diagnostics d = {0};
        CHECK_EQ_U(ferry_alo_validate(m, NULL, &d), 0);
        ferry_diagnostics_free(&d);
    }
    ferry_alo_free(m);
    hand_free(&h);

    /* 70,002 vertices: two sub-meshes of at most 65,535 */
    hand_init(&h, 23334, 0);
    m = NULL;
    CHECK(convert(&h, &m, &err, &rep) == FERRY_OK);
    if (m) {
        CHECK_EQ_U(m->meshes[0].submesh_count, 2);
        CHECK(m->meshes[0].submeshes[0].vertex_count <= 65535);
        CHECK_EQ_U(m->meshes[0].submeshes[0].triangle_count + m->meshes[0].submeshes[1].triangle_count, 23334);
        ferry_diagnostics d = {0};
        CHECK_EQ_U(ferry_alo_validate(m, NULL, &d), 0);
        ferry_diagnostics_free(&d);
    }
    ferry_alo_free(m);
    hand_free(&h);
}

/* Other tools' glTF: shadow volumes and collision meshes by the names real
 * exporters give them. */
static void test_named_meshes(void)
{
    static const struct {
        const char *name, *shader, *format;
        uint32_t hidden, collision;
    } cases[] = {
        {"Hull_Shadow", "MeshShadowVolume.fx", "alD3dVertN", 0, 0},
        {"COLLISION", "MeshCollision.fx", "alD3dVertN", 1, 1},
        {"Hull", "MeshGloss.fx", "alD3dVertNU2", 0, 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        hand h;
        hand_init(&h, 8, 0);
        h.nodes[0].name = cases[i].name;
        ferry_alo_model *m = NULL;
        ferry_error err;
        CHECK(convert(&h, &m, &err, NULL) == FERRY_OK);
        if (m) {
            const ferry_alo_mesh *mesh = &m->meshes[0];
            CHECK_MSG(strcmp(mesh->submeshes[0].material.shader, cases[i].shader) == 0, "%s: %s", cases[i].name,
                      mesh->submeshes[0].material.shader);
            CHECK(strcmp(mesh->submeshes[0].vertex_format, cases[i].format) == 0);
            CHECK_EQ_U(mesh->is_hidden, cases[i].hidden);
            CHECK_EQ_U(mesh->collision_enabled, cases[i].collision);
            CHECK((mesh->submeshes[0].collision != NULL) == (cases[i].collision != 0));
            ferry_diagnostics d = {0};
            CHECK_EQ_U(ferry_alo_validate(m, NULL, &d), 0);
            CHECK_EQ_U(d.warning_count, 0);
            ferry_diagnostics_free(&d);
        }
        ferry_alo_free(m);
        hand_free(&h);
    }
}

static void expect_error(hand *h, const char *what)
{
    ferry_alo_model *m = NULL;
    ferry_error err;
    ferry_result rc = convert(h, &m, &err, NULL);
    char msg[512];
    ferry_error_format(&err, msg, sizeof msg);
    CHECK_MSG(rc == FERRY_ERR_MALFORMED && m == NULL, "%s: rc %d", what, (int)rc);
    CHECK_MSG(strstr(msg, what) != NULL, "expected '%s' in: %s", what, msg);
    CHECK_MSG(strstr(msg, "primitives[0]") != NULL || strstr(msg, "nodes[") != NULL, "not located: %s", msg);
}

static void test_bad_input(void)
{
    hand h;
    hand_init(&h, 4, 0);
    h.idx[5] = 99;
    expect_error(&h, "past the 12 vertices");
    hand_free(&h);

    hand_init(&h, 4, 0);
    h.prim.mode = FERRY_PRIMITIVE_POINTS;
    expect_error(&h, "only triangles");
    hand_free(&h);

    hand_init(&h, 4, 0);
    h.pos[7] = NAN;
    expect_error(&h, "not finite");
    hand_free(&h);

    hand_init(&h, 4, 0);
    h.prim.index_count = 10;
    expect_error(&h, "not a whole number of triangles");
    hand_free(&h);

    /* a joint that is the skinned mesh's own node: not a bone */
    hand_init(&h, 4, 3);
    h.joints[2] = 3;
    expect_error(&h, "is not a bone of the hierarchy");
    hand_free(&h);

    hand_init(&h, 4, 3);
    h.jnt[0] = 7;
    h.wgt[0] = 1;
    expect_error(&h, "past the skin's 3 joints");
    hand_free(&h);
}

/* Every triangle in exactly one leaf, and inside every decoded box on its
 * path (boxes rounded outward); children after their parent. */
static void walk(const ferry_alo_submesh *sm, size_t node, const double pmin[3], const double pmax[3], int *seen, bool *ok,
                 int depth)
{
    const ferry_alo_collision_tree *t = sm->collision;
    const ferry_alo_collision_node *n = &t->nodes[node];
    double mn[3], mx[3];
    for (int a = 0; a < 3; a++) {
        double ext = pmax[a] - pmin[a];
        mn[a] = pmin[a] + n->min[a] / 255.0 * ext;
        mx[a] = pmin[a] + n->max[a] / 255.0 * ext;
    }
    if (depth > 100) {
        *ok = false;
        return;
    }
    if (n->primitive_count) {
        for (size_t p = n->link; p < (size_t)n->link + n->primitive_count; p++) {
            if (p >= t->primitive_count) {
                *ok = false;
                return;
            }
            uint16_t tri = t->primitives[p];
            seen[tri]++;
            for (int j = 0; j < 3; j++)
                for (int a = 0; a < 3; a++) {
                    float x = sm->vertices[sm->indices[3 * tri + j]].position[a];
                    if (x < mn[a] - 1e-9 || x > mx[a] + 1e-9) *ok = false;
                }
        }
        return;
    }
    if (n->link <= node || (size_t)n->link + 1 >= t->node_count) {
        *ok = false;
        return;
    }
    walk(sm, n->link, mn, mx, seen, ok, depth + 1);
    walk(sm, n->link + 1, mn, mx, seen, ok, depth + 1);
}

static void test_collision_tree(void)
{
    /* 3,000 small random triangles in a 10 x 4 x 1 slab */
    enum { T = 3000 };
    ferry_alo_vertex *v = calloc(3 * T, sizeof *v);
    uint16_t *idx = calloc(3 * T, sizeof *idx);
    uint32_t seed = 7;
    for (size_t t = 0; t < T; t++) {
        float c[3];
        for (int a = 0; a < 3; a++) {
            seed = seed * 1664525u + 1013904223u;
            c[a] = (float)((seed >> 8) / 16777216.0) * (a == 0 ? 10.0f : a == 1 ? 4.0f : 1.0f);
        }
        for (int j = 0; j < 3; j++) {
            for (int a = 0; a < 3; a++) {
                seed = seed * 1664525u + 1013904223u;
                v[3 * t + j].position[a] = c[a] + (float)((seed >> 8) / 16777216.0) * 0.3f;
            }
            idx[3 * t + j] = (uint16_t)(3 * t + j);
        }
    }
    ferry_alo_submesh sm;
    memset(&sm, 0, sizeof sm);
    sm.vertices = v;
    sm.vertex_count = 3 * T;
    sm.indices = idx;
    sm.triangle_count = T;
    ferry_arena *arena = ferry_arena_create(0);
    ferry_error err;
    CHECK(ferry_alo_collision_build(&sm, arena, &sm.collision, &err) == FERRY_OK);
    if (sm.collision) {
        const ferry_alo_collision_tree *t = sm.collision;
        CHECK_EQ_U(t->primitive_count, T);
        CHECK(t->node_count > T / 4 && t->node_count < 2 * T);
        int *seen = calloc(T, sizeof *seen);
        bool ok = true;
        double mn[3], mx[3];
        for (int a = 0; a < 3; a++) mn[a] = t->box_min[a], mx[a] = t->box_max[a];
        walk(&sm, 0, mn, mx, seen, &ok, 0);
        CHECK(ok);
        size_t once = 0;
        for (size_t i = 0; i < T; i++) once += seen[i] == 1;
        CHECK_EQ_U(once, T);
        free(seen);
        /* rays: the tree finds what brute force finds */
        size_t agree = 0, hits = 0;
        for (int r = 0; r < 2000; r++) {
            float o[3], d[3];
            /* from around the slab towards a point in it, on to twice as far */
            static const float ext[3] = {10.0f, 4.0f, 1.0f};
            for (int a = 0; a < 3; a++) {
                seed = seed * 1664525u + 1013904223u;
                o[a] = (float)((seed >> 8) / 16777216.0) * 3 * ext[a] - ext[a];
                seed = seed * 1664525u + 1013904223u;
                d[a] = (float)((seed >> 8) / 16777216.0) * ext[a] - o[a];
            }
            ferry_alo_ray_hit h1, h2;
            bool a1 = ferry_alo_collision_raycast(&sm, o, d, 2.0f, &h1);
            bool a2 = ferry_alo_raycast_brute_force(&sm, o, d, 2.0f, &h2);
            hits += a2;
            agree += a1 == a2 && (!a1 || (h1.triangle == h2.triangle && h1.t == h2.t));
        }
        CHECK_EQ_U(agree, 2000);
        CHECK_MSG(hits > 200, "%zu hits", hits);
        /* a mesh holding it validates and writes */
        ferry_alo_mesh mesh;
        memset(&mesh, 0, sizeof mesh);
        mesh.name = "collision";
        mesh.submeshes = &sm;
        mesh.submesh_count = 1;
        mesh.collision_enabled = 1;
        sm.vertex_format = "alD3dVertN";
        sm.material.shader = "MeshCollision.fx";
        ferry_alo_mesh_vertex_bounds(&mesh, mesh.bounds_min, mesh.bounds_max);
        ferry_alo_bone root;
        memset(&root, 0, sizeof root);
        root.name = "Root";
        root.parent = -1;
        root.matrix[0] = root.matrix[5] = root.matrix[10] = 1;
        ferry_alo_connection conn = {.object = 0, .bone = 0};
        ferry_alo_model m;
        memset(&m, 0, sizeof m);
        m.skeleton.bones = &root;
        m.skeleton.bone_count = 1;
        m.meshes = &mesh;
        m.mesh_count = 1;
        m.connections.objects = &conn;
        m.connections.object_count = 1;
        ferry_diagnostics d = {0};
        CHECK_EQ_U(ferry_alo_validate(&m, NULL, &d), 0);
        for (size_t i = 0; i < d.count; i++) CHECK_MSG(strstr(d.items[i].rule, "collision") == NULL, "%s", d.items[i].message);
        ferry_diagnostics_free(&d);
        ferry_buffer out = {0};
        CHECK(ferry_alo_write(&m, &out, &err) == FERRY_OK);
        ferry_alo_model *back = NULL;
        CHECK(ferry_alo_read(out.data, out.size, NULL, &back, &err) == FERRY_OK);
        if (back) CHECK(back->meshes[0].submeshes[0].collision && back->meshes[0].submeshes[0].collision->node_count == t->node_count);
        ferry_alo_free(back);
        ferry_buffer_free(&out);
    }
    /* refused: positions whose box no float holds (the tree box widens
     * the triangles' box by 0.5%: near FLT_MAX it overflows; found by
     * fuzz_gltf_alo as a NaN quantized to a byte) */
    ferry_alo_collision_tree *none = NULL;
    float keep0 = v[0].position[0], keep1 = v[1].position[0];
    v[0].position[0] = 3.4e38f;
    v[1].position[0] = -3.4e38f;
    CHECK(ferry_alo_collision_build(&sm, arena, &none, &err) == FERRY_ERR_ARGUMENT && none == NULL);
    CHECK(strstr(err.message, "out of range for a collision tree") != NULL);
    v[0].position[0] = keep0;
    v[1].position[0] = keep1;
    /* refused: no triangles */
    sm.triangle_count = 0;
    CHECK(ferry_alo_collision_build(&sm, arena, &none, &err) == FERRY_ERR_ARGUMENT && none == NULL);
    ferry_arena_destroy(arena);
    free(v);
    free(idx);
}

/* .dds from an image: header fields, the mip chain, and the top level
 * decoding back (by the tree's DDS reader) close to the image. */
static void test_dds(void)
{
    for (int alpha = 0; alpha < 2; alpha++) {
        ferry_image img = {16, 8, malloc(16 * 8 * 4)};
        for (uint32_t y = 0; y < 8; y++)
            for (uint32_t x = 0; x < 16; x++) {
                uint8_t *p = &img.rgba[(y * 16 + x) * 4];
                p[0] = (uint8_t)(x * 16), p[1] = (uint8_t)(y * 32), p[2] = 128;
                p[3] = alpha ? (uint8_t)(x < 8 ? 0 : 255) : 255;
            }
        ferry_buffer out = {0};
        ferry_error err;
        CHECK(ferry_alamo_texture_encode_dds(&img, false, &out, &err) == FERRY_OK);
        CHECK(out.size > 128 && memcmp(out.data, "DDS ", 4) == 0);
        if (out.size > 128) {
            uint32_t h = (uint32_t)out.data[12] | (uint32_t)out.data[13] << 8, w = (uint32_t)out.data[16] | (uint32_t)out.data[17] << 8;
            CHECK_EQ_U(w, 16);
            CHECK_EQ_U(h, 8);
            CHECK_EQ_U(out.data[28], 2); /* mip count: 16x8, 8x4 (down to a smallest side of 4) */
            CHECK(memcmp(out.data + 84, alpha ? "DXT5" : "DXT1", 4) == 0);
            size_t block = alpha ? 16 : 8;
            CHECK_EQ_U(out.size, 128 + (4 * 2 + 2 * 1) * block);
            ferry_image back = {0};
            CHECK(ferry_image_decode(out.data, out.size, NULL, &back, &err) == FERRY_OK);
            if (back.rgba) {
                CHECK_EQ_U(back.width, 16);
                int worst = 0;
                for (size_t i = 0; i < 16 * 8 * 4; i++) {
                    int d = abs((int)back.rgba[i] - (int)img.rgba[i]);
                    if (d > worst) worst = d;
                }
                /* DXT: 4 colours on a line per 4x4 block; this block holds a 2-D
                 * gradient (red over 48, green over 96), which no line fits exactly */
                CHECK_MSG(worst <= 40, "largest difference %d", worst);
            }
            ferry_image_free(&back);
        }
        ferry_buffer_free(&out);
        free(img.rgba);
    }
    ferry_image odd = {12, 8, calloc(12 * 8, 4)};
    ferry_buffer out = {0};
    ferry_error err;
    CHECK(ferry_alamo_texture_encode_dds(&odd, false, &out, &err) == FERRY_ERR_ARGUMENT);
    CHECK(strstr(err.message, "width") != NULL);
    free(odd.rgba);
    ferry_buffer_free(&out);
}

int main(void)
{
    test_dds();
    test_collision_tree();
    test_foreign_box();
    test_splits();
    test_named_meshes();
    test_bad_input();
    TEST_END();
}
