/* Hostile input: truncated files, corrupted bytes and hand-made broken
 * models must each give a located error (or, for corruption that happens to
 * form a valid file, a model that writes back) and never a crash, an
 * out-of-bounds read or an allocation the input does not justify.
 *
 * Inputs: every ALO model of ../shared/corpus (skipped with a note when
 * absent), every bundled sample under samples/alamo, and small models built
 * here, so the test means something on a bare checkout too. Under ASan the
 * bytes past a truncation point are poisoned, so a read beyond the cut is
 * reported even though the data stays in one buffer (no copy per cut). */
#include <ferry/alo.h>

#include "support.h"
#include "bytes.h"
#include "test.h"

#include <stdarg.h>
#include <time.h>

#ifdef TEST_ASAN
/* Sanitized builds run several times slower: fewer corruptions per file. */
#define FLIP_BUDGET_BYTES ((size_t)768 << 20)
#else
#define FLIP_BUDGET_BYTES ((size_t)2 << 30)
#endif

#define EVEN_POINTS 200
#define SMALL_FILE 4096
#define FLIPS_MAX 3000
#define FLIPS_MIN 100

static const char *shared_dir = FERRY_SHARED_DIR;
static const char *source_dir = FERRY_SOURCE_DIR;

/* ---- statistics printed at the end ---- */

static size_t stat_files, stat_truncations, stat_prefix_ok, stat_flips, stat_flip_ok, stat_flip_same,
    stat_flip_fail;
static size_t stat_by_code[FERRY_ERR_ARGUMENT + 1];

/* ---- deterministic pseudo-random numbers (xorshift64*) ---- */

static uint64_t rng_state;

static void rng_seed(uint64_t seed) { rng_state = seed ? seed : 0x9E3779B97F4A7C15ull; }

static uint64_t rng_next(void) { return test_xorshift(&rng_state); }

static size_t rng_below(size_t n) { return n ? (size_t)(rng_next() % n) : 0; }

/* ---- byte builder for hand-made files ---- */

static size_t string_chunk(bytes *b, uint32_t type, const char *s, bool nul)
{
    size_t at = begin(b, type);
    put(b, s, strlen(s) + (nul ? 1 : 0));
    end(b, at, false);
    return at;
}

static void mini_u32(bytes *b, uint8_t type, uint32_t v)
{
    put_u8(b, type);
    put_u8(b, 4);
    put_u32(b, v);
}

static void mini_str(bytes *b, uint8_t type, const char *s)
{
    put_u8(b, type);
    put_u8(b, (uint8_t)(strlen(s) + 1));
    put(b, s, strlen(s) + 1);
}

static void mini_f3(bytes *b, uint8_t type, float x, float y, float z)
{
    put_u8(b, type);
    put_u8(b, 12);
    put_f32(b, x);
    put_f32(b, y);
    put_f32(b, z);
}

/* ---- a small model, built byte by byte, with knobs that break it ---- */

typedef struct knobs {
    uint32_t bone_count;      /* 0x201 count; the skeleton has 1 bone */
    bool bone_name_nul;       /* 0x203 ends with its NUL */
    bool bone_data_short;     /* 0x206 one byte short of its 60 */
    int32_t bone_parent;      /* -1 */
    int nest;                 /* unknown containers nested inside 0x200 */
    uint32_t info_vertices;   /* 0x10001; the buffer holds 3 */
    uint32_t info_triangles;  /* 1 */
    uint32_t vertex_extra;    /* bytes after the 3 vertices of 0x10007 */
    uint32_t index_bytes;     /* 0x10004 size; 6 holds the one triangle */
    uint16_t index[3];        /* 0, 1, 2 */
    uint32_t tree_nodes;      /* 0x1201 node count; 0x1202 holds 1 */
    uint16_t tree_link;       /* 0: the one primitive */
    uint32_t conn_bone;       /* 0x602 bone index */
    uint32_t proxy_bone_size; /* length byte of the proxy's bone mini-chunk: 4 */
    uint32_t count_objects;   /* 0x601 object count: 1 */
    bool connections;         /* write the 0x600 chunk */
} knobs;

static knobs good_knobs(void)
{
    knobs k = {1, true, false, -1, 0, 3, 1, 0, 6, {0, 1, 2}, 1, 0, 0, 4, 1, true};
    return k;
}

/* Header offsets of the chunks built, for exact error expectations. */
typedef struct where {
    size_t c200, c201, c202, c203, c206, nest_last;
    size_t c400, c10000, c10001, c10007, c10004, c1200, c1201, c1202, c1203;
    size_t c600, c601, c602, c603, proxy_bone_mini;
} where;

static bytes build_model(const knobs *k, where *w)
{
    bytes b = {0};
    where dummy;
    if (!w) w = &dummy;
    memset(w, 0, sizeof *w);

    w->c200 = begin(&b, FERRY_ALO_SKELETON);
    w->c201 = begin(&b, FERRY_ALO_BONE_COUNT);
    put_u32(&b, k->bone_count);
    put_zeros(&b, FERRY_ALO_BONE_COUNT_SIZE - 4);
    end(&b, w->c201, false);
    w->c202 = begin(&b, FERRY_ALO_BONE);
    w->c203 = string_chunk(&b, FERRY_ALO_BONE_NAME, "root", k->bone_name_nul);
    w->c206 = begin(&b, FERRY_ALO_BONE_V2);
    put_u32(&b, (uint32_t)k->bone_parent);
    put_u32(&b, 1);
    put_u32(&b, 0);
    static const float identity[12] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0};
    for (int i = 0; i < (k->bone_data_short ? 11 : 12); i++) put_f32(&b, identity[i]);
    if (k->bone_data_short) put_zeros(&b, 3);
    end(&b, w->c206, false);
    end(&b, w->c202, true);
    size_t nest[64];
    for (int i = 0; i < k->nest && i < 64; i++) nest[i] = w->nest_last = begin(&b, 0x7F00);
    for (int i = (k->nest < 64 ? k->nest : 64) - 1; i >= 0; i--) end(&b, nest[i], true);
    end(&b, w->c200, true);

    w->c400 = begin(&b, FERRY_ALO_MESH);
    string_chunk(&b, FERRY_ALO_MESH_NAME, "tri", true);
    size_t c402 = begin(&b, FERRY_ALO_MESH_INFO);
    put_u32(&b, 1);
    for (int i = 0; i < 3; i++) put_f32(&b, 0);
    put_f32(&b, 1);
    put_f32(&b, 1);
    put_f32(&b, 0);
    put_u32(&b, 0);
    put_u32(&b, 0);
    put_u32(&b, 1);
    put_zeros(&b, FERRY_ALO_MESH_INFO_SIZE - 40);
    end(&b, c402, false);
    size_t mat = begin(&b, FERRY_ALO_MATERIAL);
    string_chunk(&b, FERRY_ALO_SHADER_NAME, "MeshGloss.fx", true);
    size_t tex = begin(&b, FERRY_ALO_PARAM_TEXTURE);
    mini_str(&b, 1, "BaseTexture");
    mini_str(&b, 2, "tri.dds");
    end(&b, tex, false);
    end(&b, mat, true);

    w->c10000 = begin(&b, FERRY_ALO_SUBMESH_DATA);
    w->c10001 = begin(&b, FERRY_ALO_SUBMESH_INFO);
    put_u32(&b, k->info_vertices);
    put_u32(&b, k->info_triangles);
    put_zeros(&b, FERRY_ALO_SUBMESH_INFO_SIZE - 8);
    end(&b, w->c10001, false);
    string_chunk(&b, FERRY_ALO_VERTEX_FORMAT, "alD3dVertNU2", true);
    w->c10007 = begin(&b, FERRY_ALO_VERTEX_BUFFER_V2);
    static const float pos[3][3] = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
    for (int v = 0; v < 3; v++) {
        ferry_alo_vertex vx;
        memset(&vx, 0, sizeof vx);
        memcpy(vx.position, pos[v], sizeof vx.position);
        vx.normal[2] = 1;
        vx.texcoord[0][0] = pos[v][0];
        vx.texcoord[0][1] = pos[v][1];
        vx.color[0] = vx.color[1] = vx.color[2] = vx.color[3] = 1;
        vx.bone_weight[0] = 1;
        const float *f = (const float *)&vx;
        for (size_t i = 0; i < sizeof vx / 4; i++) {
            if (i >= 36 && i < 40)
                put_u32(&b, vx.bone_index[i - 36]);
            else
                put_f32(&b, f[i]);
        }
    }
    put_zeros(&b, k->vertex_extra);
    end(&b, w->c10007, false);
    w->c10004 = begin(&b, FERRY_ALO_INDEX_BUFFER);
    for (uint32_t i = 0; i < k->index_bytes / 2; i++) put_u16(&b, i < 3 ? k->index[i] : 0);
    put_zeros(&b, k->index_bytes % 2);
    end(&b, w->c10004, false);
    w->c1200 = begin(&b, FERRY_ALO_COLLISION_TREE);
    w->c1201 = begin(&b, FERRY_ALO_COLLISION_INFO);
    mini_f3(&b, 0, 0, 0, 0);
    mini_f3(&b, 1, 1, 1, 0);
    mini_u32(&b, 2, k->tree_nodes);
    mini_u32(&b, 3, 1);
    end(&b, w->c1201, false);
    w->c1202 = begin(&b, FERRY_ALO_COLLISION_NODES);
    put_u8(&b, 0);
    put_u8(&b, 0);
    put_u8(&b, 0);
    put_u8(&b, 255);
    put_u8(&b, 255);
    put_u8(&b, 255);
    put_u16(&b, 1);
    put_u16(&b, k->tree_link);
    end(&b, w->c1202, false);
    w->c1203 = begin(&b, FERRY_ALO_COLLISION_PRIMITIVES);
    put_u16(&b, 0);
    end(&b, w->c1203, false);
    end(&b, w->c1200, true);
    end(&b, w->c10000, true);
    end(&b, w->c400, true);

    if (k->connections) {
        w->c600 = begin(&b, FERRY_ALO_CONNECTIONS);
        w->c601 = begin(&b, FERRY_ALO_CONNECTION_COUNTS);
        mini_u32(&b, 1, k->count_objects);
        mini_u32(&b, 4, 1);
        end(&b, w->c601, false);
        w->c602 = begin(&b, FERRY_ALO_OBJECT_CONNECTION);
        mini_u32(&b, 2, 0);
        mini_u32(&b, 3, k->conn_bone);
        end(&b, w->c602, false);
        w->c603 = begin(&b, FERRY_ALO_PROXY_CONNECTION);
        mini_str(&b, 5, "p_smoke");
        w->proxy_bone_mini = b.size;
        put_u8(&b, 6);
        put_u8(&b, (uint8_t)k->proxy_bone_size);
        put_u32(&b, 0);
        end(&b, w->c603, false);
        end(&b, w->c600, true);
    }
    return b;
}

/* A second small model, built as a caller would (structs, no layout) and
 * written by the library: covers the older 0x205 bones and 0x10005
 * vertices (absent from the corpus), a light, a proxy and a dazzle. */
static bytes build_model_with_writer(void)
{
    ferry_alo_bone bones[2];
    memset(bones, 0, sizeof bones);
    static const float identity[12] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0};
    bones[0].name = "Root";
    bones[0].parent = -1;
    bones[0].visible = 1;
    memcpy(bones[0].matrix, identity, sizeof identity);
    bones[1].name = "Arm";
    bones[1].parent = 0;
    bones[1].visible = 1;
    bones[1].chunk_version = 1;
    memcpy(bones[1].matrix, identity, sizeof identity);
    bones[1].matrix[3] = 2.0f;

    ferry_alo_vertex verts[4];
    memset(verts, 0, sizeof verts);
    static const float pos[4][3] = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}};
    for (int i = 0; i < 4; i++) {
        memcpy(verts[i].position, pos[i], sizeof pos[i]);
        verts[i].normal[2] = 1;
        verts[i].bone_index[0] = (uint32_t)(i & 1);
        verts[i].bone_weight[0] = 1;
    }
    uint16_t indices[6] = {0, 1, 2, 0, 2, 3};
    uint32_t mapping[2] = {0, 1};
    ferry_alo_collision_node nodes[3] = {
        {{0, 0, 0}, {255, 255, 0}, 0, 1},
        {{0, 0, 0}, {255, 255, 0}, 1, 0},
        {{0, 0, 0}, {255, 255, 0}, 1, 1},
    };
    uint16_t prims[2] = {0, 1};
    ferry_alo_collision_tree tree;
    memset(&tree, 0, sizeof tree);
    tree.box_max[0] = tree.box_max[1] = 1;
    tree.nodes = nodes;
    tree.node_count = 3;
    tree.primitives = prims;
    tree.primitive_count = 2;
    ferry_alo_shader_param params[2];
    memset(params, 0, sizeof params);
    params[0].type = FERRY_ALO_PARAM_TEXTURE;
    params[0].name = "BaseTexture";
    params[0].texture = "quad.dds";
    params[1].type = FERRY_ALO_PARAM_FLOAT4;
    params[1].name = "Color";
    params[1].value[0] = params[1].value[3] = 1;

    ferry_alo_submesh sub;
    memset(&sub, 0, sizeof sub);
    sub.material.shader = "MeshGloss.fx";
    sub.material.params = params;
    sub.material.param_count = 2;
    sub.vertex_format = "alD3dVertRSkinNU2";
    sub.vertices = verts;
    sub.vertex_count = 4;
    sub.indices = indices;
    sub.triangle_count = 2;
    sub.bone_mapping = mapping;
    sub.bone_mapping_count = 2;
    sub.has_bone_mapping = true;
    sub.collision = &tree;
    sub.vertex_chunk_version = 1;

    ferry_alo_mesh mesh;
    memset(&mesh, 0, sizeof mesh);
    mesh.name = "Quad";
    mesh.bounds_max[0] = mesh.bounds_max[1] = 1;
    mesh.collision_enabled = 1;
    mesh.submeshes = &sub;
    mesh.submesh_count = 1;

    ferry_alo_light light;
    memset(&light, 0, sizeof light);
    light.name = "Lamp";
    light.type = FERRY_ALO_LIGHT_SPOT;
    light.color[0] = light.color[1] = light.color[2] = 1;
    light.intensity = 2;
    light.far_attenuation_end = 10;
    light.hotspot_size = 0.5f;
    light.falloff_size = 0.7f;

    ferry_alo_connection conns[2];
    memset(conns, 0, sizeof conns);
    conns[0].object = 0;
    conns[0].bone = 1;
    conns[1].object = 1;
    conns[1].bone = 0;
    ferry_alo_proxy proxy;
    memset(&proxy, 0, sizeof proxy);
    proxy.name = "p_fire";
    proxy.bone = 1;
    proxy.is_hidden = 1;
    proxy.present = FERRY_ALO_PROXY_HAS_HIDDEN;
    ferry_alo_dazzle dazzle;
    memset(&dazzle, 0, sizeof dazzle);
    dazzle.color[0] = 1;
    dazzle.radius = 3;
    dazzle.texture = "flare.tga";
    dazzle.texture_size = 4;
    dazzle.frequency = 1;
    dazzle.bone = 1;
    dazzle.name = "Blink";
    dazzle.bias = 1;
    dazzle.present = FERRY_ALO_DAZZLE_ALL_REQUIRED;

    ferry_alo_model model;
    memset(&model, 0, sizeof model);
    model.skeleton.bones = bones;
    model.skeleton.bone_count = 2;
    model.meshes = &mesh;
    model.mesh_count = 1;
    model.lights = &light;
    model.light_count = 1;
    model.connections.objects = conns;
    model.connections.object_count = 2;
    model.connections.proxies = &proxy;
    model.connections.proxy_count = 1;
    model.connections.dazzles = &dazzle;
    model.connections.dazzle_count = 1;

    ferry_buffer out = {0};
    ferry_error err;
    ferry_result rc = ferry_alo_write(&model, &out, &err);
    CHECK_MSG(rc == FERRY_OK, "writing the hand-built model: %s", err.message);
    bytes b = {0};
    put(&b, out.data, out.size);
    ferry_buffer_free(&out);
    return b;
}

/* ---- checking one failed read ---- */

static bool located(const ferry_error *err, size_t limit)
{
    return err->code != FERRY_OK && err->offset != FERRY_NO_OFFSET && err->offset <= limit && err->message[0];
}

static void describe(const ferry_error *err, char *out, size_t size)
{
    char line[512];
    ferry_error_format(err, line, sizeof line);
    snprintf(out, size, "[%s] %s", ferry_result_name(err->code), line);
}

/* Reads bytes that must fail with exactly this code, offset and path. */
static void expect_error(const char *name, const uint8_t *data, size_t size, const ferry_read_options *opts,
                         ferry_result code, uint64_t offset, const char *path)
{
    ferry_alo_model *model = NULL;
    ferry_error err;
    ferry_result rc = ferry_alo_read(data, size, opts, &model, &err);
    char text[600];
    describe(&err, text, sizeof text);
    CHECK_MSG(rc == code && err.code == code, "%s: expected %s, got %s", name, ferry_result_name(code), text);
    CHECK_MSG(err.offset == offset, "%s: expected offset %llu, got %s", name, (unsigned long long)offset, text);
    CHECK_MSG(strcmp(err.path, path) == 0, "%s: expected path \"%s\", got \"%s\"", name, path, err.path);
    CHECK_MSG(err.message[0] != '\0', "%s: empty message", name);
    CHECK(model == NULL);
    ferry_alo_free(model);
}

static bool reads_ok(const char *name, const uint8_t *data, size_t size, const ferry_read_options *opts)
{
    ferry_alo_model *model = NULL;
    ferry_error err;
    ferry_result rc = ferry_alo_read(data, size, opts, &model, &err);
    char text[600];
    describe(&err, text, sizeof text);
    CHECK_MSG(rc == FERRY_OK, "%s: expected to read, got %s", name, text);
    ferry_alo_free(model);
    return rc == FERRY_OK;
}

/* ---- per-file work: truncations and corruptions ---- */

typedef struct chunk_info {
    size_t offset; /* of the header */
    uint32_t size;
    uint32_t type, parent_type;
    bool container, root, minis;
} chunk_info;

typedef struct file_map {
    chunk_info *chunks;
    size_t count;
    size_t *minis; /* offsets of mini-chunk headers in chunks known to hold them */
    size_t mini_count;
} file_map;

static bool holds_minis(uint32_t type, uint32_t parent_type)
{
    switch (type) {
    case FERRY_ALO_CONNECTION_COUNTS:
    case FERRY_ALO_OBJECT_CONNECTION:
    case FERRY_ALO_PROXY_CONNECTION:
    case FERRY_ALO_COLLISION_INFO:
    case FERRY_ALO_PARAM_INT:
    case FERRY_ALO_PARAM_FLOAT:
    case FERRY_ALO_PARAM_FLOAT3:
    case FERRY_ALO_PARAM_TEXTURE:
    case FERRY_ALO_PARAM_FLOAT4: return true;
    case 0: return parent_type == FERRY_ALO_DAZZLE;
    default: return false;
    }
}

static void map_chunks(const ferry_chunk *list, size_t n, const ferry_chunk *parent, file_map *m, size_t *cap,
                       size_t *mini_cap)
{
    for (size_t i = 0; i < n; i++) {
        const ferry_chunk *c = &list[i];
        if (m->count == *cap) {
            *cap = *cap ? *cap * 2 : 256;
            m->chunks = realloc(m->chunks, *cap * sizeof *m->chunks);
        }
        chunk_info *ci = &m->chunks[m->count++];
        ci->offset = (size_t)c->offset;
        ci->size = c->size;
        ci->type = c->type;
        ci->parent_type = parent ? parent->type : UINT32_MAX;
        ci->container = c->is_container;
        ci->root = parent == NULL;
        ci->minis = !c->is_container && holds_minis(c->type, ci->parent_type);
        if (ci->minis) {
            ferry_mini_chunk items[256];
            size_t count;
            ferry_error err;
            if (ferry_alamo_mini_chunks_parse(c, items, 256, &count, &err) == FERRY_OK) {
                for (size_t k = 0; k < count && k < 256; k++) {
                    if (m->mini_count == *mini_cap) {
                        *mini_cap = *mini_cap ? *mini_cap * 2 : 256;
                        m->minis = realloc(m->minis, *mini_cap * sizeof *m->minis);
                    }
                    m->minis[m->mini_count++] = (size_t)items[k].offset;
                }
            }
        }
        if (c->is_container) map_chunks(c->children, c->child_count, c, m, cap, mini_cap);
    }
}

static bool map_file(const uint8_t *data, size_t size, file_map *m)
{
    memset(m, 0, sizeof *m);
    ferry_chunk_tree *tree;
    ferry_error err;
    if (ferry_alamo_chunk_read(data, size, NULL, &tree, &err) != FERRY_OK) return false;
    size_t cap = 0, mini_cap = 0;
    map_chunks(tree->roots, tree->root_count, NULL, m, &cap, &mini_cap);
    ferry_alamo_chunk_free(tree);
    return true;
}

static void free_map(file_map *m)
{
    free(m->chunks);
    free(m->minis);
}

/* What a read of the first `cut` bytes must say: a cut inside a root
 * chunk is reported at that chunk's header (the first thing that does not
 * fit); a cut between root chunks leaves a file without its connections. */
static void check_truncation(const char *name, uint8_t *buf, size_t size, size_t cut, const file_map *m)
{
    POISON(buf + cut, size - cut);
    ferry_alo_model *model = NULL;
    ferry_error err;
    ferry_result rc = ferry_alo_read(buf, cut, NULL, &model, &err);
    UNPOISON(buf + cut, size - cut);
    stat_truncations++;
    char text[600];
    describe(&err, text, sizeof text);

    const chunk_info *inside = NULL;
    bool have_skeleton = false, have_connections = false;
    for (size_t i = 0; i < m->count; i++) {
        const chunk_info *c = &m->chunks[i];
        if (!c->root) continue;
        size_t endpos = c->offset + 8 + c->size;
        if (c->offset < cut && cut < endpos) inside = c;
        if (endpos <= cut) {
            have_skeleton |= c->type == FERRY_ALO_SKELETON;
            have_connections |= c->type == FERRY_ALO_CONNECTIONS;
        }
    }
    if (rc == FERRY_OK) {
        /* Only legitimate when the cut drops whole root chunks that come
         * after a complete model (unknown trailing chunks). */
        stat_prefix_ok++;
        CHECK_MSG(!inside && have_skeleton && have_connections,
                  "%s: the first %zu of %zu bytes read as a valid model", name, cut, size);
        ferry_alo_free(model);
        return;
    }
    stat_by_code[err.code <= FERRY_ERR_ARGUMENT ? err.code : 0]++;
    CHECK_MSG(located(&err, cut), "%s: cut at %zu: error not located within the cut: %s", name, cut, text);
    if (cut == 0) {
        CHECK_MSG(err.code == FERRY_ERR_TRUNCATED && err.offset == 0, "%s: empty prefix: %s", name, text);
    } else if (inside) {
        char path[16] = "";
        if (cut - inside->offset >= 8) snprintf(path, sizeof path, "0x%x", (unsigned)inside->type);
        CHECK_MSG(err.code == FERRY_ERR_TRUNCATED && err.offset == inside->offset && strcmp(err.path, path) == 0,
                  "%s: cut at %zu inside root chunk 0x%x at %zu: expected truncated there (path \"%s\"), got %s",
                  name, cut, (unsigned)inside->type, inside->offset, path, text);
    } else if (have_skeleton && !have_connections) {
        CHECK_MSG(err.code == FERRY_ERR_MALFORMED && err.offset == cut && err.path[0] == '\0',
                  "%s: cut at %zu between root chunks: expected the missing 0x600 at the cut, got %s", name, cut,
                  text);
    }
}

static void run_truncations(const char *name, const uint8_t *data, size_t size, const file_map *m)
{
    /* One exact-size buffer: ASan knows where it ends, and the poisoning in
     * check_truncation moves that end to each cut. */
    uint8_t *buf = malloc(size ? size : 1);
    memcpy(buf, data, size);
    uint8_t *cuts = calloc(size ? size : 1, 1);
    if (size < SMALL_FILE) {
        memset(cuts, 1, size);
    } else {
        for (size_t i = 0; i < EVEN_POINTS; i++) cuts[(size_t)((double)i * (double)size / EVEN_POINTS)] = 1;
    }
    for (size_t i = 0; i < m->count; i++) {
        const chunk_info *c = &m->chunks[i];
        size_t marks[3] = {c->offset, c->offset + 8, c->offset + 8 + c->size};
        for (int k = 0; k < 3; k++)
            for (int d = -8; d <= 8; d++) {
                long long p = (long long)marks[k] + d;
                if (p >= 0 && (size_t)p < size) cuts[p] = 1;
            }
    }
    for (size_t cut = 0; cut < size; cut++)
        if (cuts[cut]) check_truncation(name, buf, size, cut, m);
    free(cuts);
    free(buf);
}

/* ---- corruptions ---- */

static const uint32_t known_types[] = {
    0x200,   0x201,   0x202,   0x203,   0x205,   0x206,   0x400,   0x401,   0x402,   0x600,  0x601,
    0x602,   0x603,   0x604,   0x900,   0x1000,  0x1200,  0x1201,  0x1202,  0x1203,  0x1300, 0x1301,
    0x1302,  0x1500,  0x10000, 0x10001, 0x10002, 0x10004, 0x10005, 0x10006, 0x10007, 0x10100, 0x10101,
    0x10102, 0x10103, 0x10104, 0x10105, 0x10106, 0,
};

typedef struct change {
    size_t at[32];
    size_t n;
} change;

static void touch(change *ch, uint8_t *buf, size_t at, uint8_t value)
{
    if (ch->n < 32) {
        ch->at[ch->n++] = at;
        buf[at] = value;
    }
}

static void touch_u32(change *ch, uint8_t *buf, size_t at, uint32_t v)
{
    for (int i = 0; i < 4; i++) touch(ch, buf, at + (size_t)i, (uint8_t)(v >> (8 * i)));
}

/* One corruption: mostly of the bytes that steer parsing (sizes, types,
 * mini-chunk headers, counts), some anywhere. */
static int corrupt(uint8_t *buf, size_t size, const file_map *m, change *ch)
{
    int kind = (int)rng_below(14);
    const chunk_info *c = m->count ? &m->chunks[rng_below(m->count)] : NULL;
    size_t mini = m->mini_count ? m->minis[rng_below(m->mini_count)] : SIZE_MAX;
    if (!c && kind >= 3) kind = (int)rng_below(3);
    if (mini == SIZE_MAX && (kind == 9 || kind == 10)) kind = 3;
    switch (kind) {
    case 0: { /* one bit anywhere */
        size_t at = rng_below(size);
        touch(ch, buf, at, (uint8_t)(buf[at] ^ (1u << rng_below(8))));
        break;
    }
    case 1: { /* one byte anywhere */
        size_t at = rng_below(size);
        touch(ch, buf, at, (uint8_t)rng_next());
        break;
    }
    case 2: { /* several bytes anywhere */
        size_t n = 2 + rng_below(7);
        for (size_t i = 0; i < n; i++) touch(ch, buf, rng_below(size), (uint8_t)rng_next());
        break;
    }
    case 3: { /* one bit of a size field */
        uint32_t v = get_u32(buf + c->offset + 4) ^ (1u << rng_below(32));
        touch_u32(ch, buf, c->offset + 4, v);
        break;
    }
    case 4: touch_u32(ch, buf, c->offset + 4, 0xFFFFFFFFu); break;
    case 5: touch_u32(ch, buf, c->offset + 4, get_u32(buf + c->offset + 4) ^ FERRY_CHUNK_CONTAINER_BIT); break;
    case 6: { /* size off by a little */
        uint32_t raw = get_u32(buf + c->offset + 4);
        uint32_t d = (uint32_t)(1 + rng_below(8));
        uint32_t sz = (raw & ~FERRY_CHUNK_CONTAINER_BIT);
        sz = (rng_next() & 1) ? sz + d : (sz >= d ? sz - d : 0);
        touch_u32(ch, buf, c->offset + 4, (raw & FERRY_CHUNK_CONTAINER_BIT) | (sz & ~FERRY_CHUNK_CONTAINER_BIT));
        break;
    }
    case 7: touch_u32(ch, buf, c->offset + 4, get_u32(buf + c->offset + 4) & FERRY_CHUNK_CONTAINER_BIT); break;
    case 8: touch_u32(ch, buf, c->offset, known_types[rng_below(sizeof known_types / sizeof known_types[0])]); break;
    case 9: { /* mini-chunk length byte */
        static const uint8_t picks[] = {0, 1, 3, 5, 0xFF};
        uint8_t v = (rng_next() & 1) ? picks[rng_below(sizeof picks)] : (uint8_t)(buf[mini + 1] + 1);
        touch(ch, buf, mini + 1, v);
        break;
    }
    case 10: touch(ch, buf, mini, (uint8_t)rng_below(16)); break;
    case 11: { /* the first word of a data body: the counts of 0x201, 0x402, 0x10001 */
        if (c->size < 4) break;
        static const uint32_t picks[] = {0, 1, 2, 0x7FFFFFFFu, 0xFFFFFFFFu, 0x10000};
        uint32_t v = (rng_next() & 1) ? picks[rng_below(sizeof picks / sizeof picks[0])] : (uint32_t)rng_next();
        touch_u32(ch, buf, c->offset + 8, v);
        break;
    }
    case 12: { /* the last byte of a string-like body: drops a NUL */
        if (!c->size || c->container) break;
        touch(ch, buf, c->offset + 8 + c->size - 1, (uint8_t)('A' + rng_below(26)));
        break;
    }
    default: { /* several size fields at once */
        size_t n = 2 + rng_below(3);
        for (size_t i = 0; i < n; i++) {
            const chunk_info *o = &m->chunks[rng_below(m->count)];
            touch_u32(ch, buf, o->offset + 4, (uint32_t)rng_next());
        }
        break;
    }
    }
    return kind;
}

static void run_corruptions(const char *name, const uint8_t *data, size_t size, const file_map *m,
                            uint64_t seed)
{
    if (size < 8) return;
    size_t flips = FLIP_BUDGET_BYTES / size;
    if (flips > FLIPS_MAX) flips = FLIPS_MAX;
    if (flips < FLIPS_MIN) flips = FLIPS_MIN;
    uint8_t *buf = malloc(size);
    memcpy(buf, data, size);
    rng_seed(seed);
    for (size_t trial = 0; trial < flips; trial++) {
        change ch = {{0}, 0};
        int kind = corrupt(buf, size, m, &ch);
        stat_flips++;
        ferry_alo_model *model = NULL;
        ferry_error err;
        ferry_result rc = ferry_alo_read(buf, size, NULL, &model, &err);
        char text[600];
        describe(&err, text, sizeof text);
        if (rc != FERRY_OK) {
            stat_flip_fail++;
            stat_by_code[err.code <= FERRY_ERR_ARGUMENT ? err.code : 0]++;
            CHECK_MSG(located(&err, size), "%s: corruption %zu (kind %d, seed %llu): unlocated error: %s", name,
                      trial, kind, (unsigned long long)seed, text);
            CHECK_MSG(err.code == FERRY_ERR_TRUNCATED || err.code == FERRY_ERR_MALFORMED ||
                          err.code == FERRY_ERR_UNSUPPORTED || err.code == FERRY_ERR_LIMIT,
                      "%s: corruption %zu (kind %d): unexpected code: %s", name, trial, kind, text);
        } else {
            stat_flip_ok++;
            ferry_buffer out = {0};
            rc = ferry_alo_write(model, &out, &err);
            CHECK_MSG(rc == FERRY_OK, "%s: corruption %zu (kind %d, seed %llu) read but does not write: %s", name,
                      trial, kind, (unsigned long long)seed, err.message);
            if (rc == FERRY_OK) {
                /* The writer's promise holds for damaged-but-readable input too. */
                bool same = out.size == size && memcmp(out.data, buf, size) == 0;
                stat_flip_same += same;
                CHECK_MSG(same, "%s: corruption %zu (kind %d, seed %llu) does not write back byte-identical", name,
                          trial, kind, (unsigned long long)seed);
                if (!same) {
                    ferry_alo_model *again = NULL;
                    rc = ferry_alo_read(out.data, out.size, NULL, &again, &err);
                    describe(&err, text, sizeof text);
                    CHECK_MSG(rc == FERRY_OK, "%s: corruption %zu (kind %d, seed %llu): rewrite does not read: %s",
                              name, trial, kind, (unsigned long long)seed, text);
                    ferry_alo_free(again);
                }
            }
            ferry_buffer_free(&out);
            ferry_alo_free(model);
        }
        for (size_t i = 0; i < ch.n; i++) buf[ch.at[i]] = data[ch.at[i]];
    }
    free(buf);
}

/* ---- one whole input ---- */

static void run_file(const char *name, const uint8_t *data, size_t size, bool real, uint64_t seed)
{
    stat_files++;
    /* Loads stay proportional to the input: a tight limit still suffices. */
    ferry_read_options tight = {4 * size + 64 * 1024};
    ferry_alo_model *model = NULL;
    ferry_error err;
    ferry_result rc = ferry_alo_read(data, size, &tight, &model, &err);
    char text[600];
    describe(&err, text, sizeof text);
    CHECK_MSG(rc == FERRY_OK, "%s: does not read within a %zu-byte memory limit: %s", name, tight.memory_limit, text);
    ferry_alo_free(model);
    if (rc != FERRY_OK) return;

    file_map m;
    CHECK_MSG(map_file(data, size, &m), "%s: chunk tree does not read", name);
    if (real) {
        /* Real models end with their connections, so no proper prefix of
         * one is a complete model. */
        const chunk_info *last = NULL;
        for (size_t i = 0; i < m.count; i++)
            if (m.chunks[i].root) last = &m.chunks[i];
        CHECK_MSG(last && last->type == FERRY_ALO_CONNECTIONS, "%s: last root chunk is 0x%x, not 0x600", name,
                  last ? (unsigned)last->type : 0u);
    }
    size_t prefixes_ok = stat_prefix_ok;
    run_truncations(name, data, size, &m);
    if (real) CHECK_MSG(stat_prefix_ok == prefixes_ok, "%s: a proper prefix read as a valid model", name);
    run_corruptions(name, data, size, &m, seed);
    free_map(&m);
}

/* ---- hand-made cases with exact expectations ---- */

static void hand_made_cases(void)
{
    where w;
    knobs k = good_knobs();
    bytes good = build_model(&k, &w);
    CHECK(reads_ok("hand-made model", good.data, good.size, NULL));
    {
        /* Byte-exact round trip of the hand-made bytes: proves they are the
         * canonical encoding, so the offsets below are those of a real file. */
        ferry_alo_model *model = NULL;
        ferry_error err;
        if (ferry_alo_read(good.data, good.size, NULL, &model, &err) == FERRY_OK) {
            ferry_buffer out = {0};
            CHECK(ferry_alo_write(model, &out, &err) == FERRY_OK);
            CHECK(out.size == good.size && memcmp(out.data, good.data, good.size) == 0);
            ferry_buffer_free(&out);
            ferry_alo_free(model);
        }
    }

    /* A chunk whose size overruns its parent (and, for a root, the file). */
    {
        bytes b = build_model(&k, NULL);
        uint32_t parent_body = get_u32(b.data + w.c202 + 4) & ~FERRY_CHUNK_CONTAINER_BIT;
        uint32_t room = parent_body - (uint32_t)(w.c203 - w.c202 - 8) - 8;
        set_u32(b.data + w.c203 + 4, room + 1);
        expect_error("0x203 overruns 0x202", b.data, b.size, NULL, FERRY_ERR_TRUNCATED, w.c203, "0x200/0x202/0x203");
        set_u32(b.data + w.c203 + 4, 0x7FFFFFFFu);
        expect_error("0x203 size 2 GiB", b.data, b.size, NULL, FERRY_ERR_TRUNCATED, w.c203, "0x200/0x202/0x203");
        free(b.data);

        b = build_model(&k, NULL);
        set_u32(b.data + w.c10007 + 4, 0xFFFFFFFFu);
        expect_error("0x10007 size 0xFFFFFFFF", b.data, b.size, NULL, FERRY_ERR_TRUNCATED, w.c10007,
                     "0x400/0x10000/0x10007");
        free(b.data);

        b = build_model(&k, NULL);
        set_u32(b.data + w.c600 + 4, (get_u32(b.data + w.c600 + 4) + 1));
        expect_error("0x600 overruns the file", b.data, b.size, NULL, FERRY_ERR_TRUNCATED, w.c600, "0x600");
        free(b.data);
    }

    /* Counts that disagree with what holds them. */
    {
        knobs kk = k;
        kk.bone_count = 2;
        bytes b = build_model(&kk, NULL);
        expect_error("0x201 count 2, 1 bone", b.data, b.size, NULL, FERRY_ERR_MALFORMED, w.c201 + 8, "0x200/0x201");
        free(b.data);

        kk = k;
        kk.info_vertices = 4;
        b = build_model(&kk, NULL);
        expect_error("0x10001 vertex count 4, 3 vertices", b.data, b.size, NULL, FERRY_ERR_MALFORMED, w.c10001 + 8,
                     "0x400/0x10000/0x10001");
        free(b.data);

        kk = k;
        kk.info_triangles = 0x40000000u;
        b = build_model(&kk, NULL);
        expect_error("0x10001 triangle count huge", b.data, b.size, NULL, FERRY_ERR_MALFORMED, w.c10001 + 12,
                     "0x400/0x10000/0x10001");
        free(b.data);

        kk = k;
        kk.tree_nodes = 2;
        b = build_model(&kk, NULL);
        expect_error("0x1201 announces 2 nodes, 0x1202 holds 1", b.data, b.size, NULL, FERRY_ERR_MALFORMED, w.c1202,
                     "0x400/0x10000/0x1200/0x1202");
        free(b.data);

        kk = k;
        kk.count_objects = 7;
        b = build_model(&kk, NULL);
        expect_error("0x601 announces 7 objects, 1 given", b.data, b.size, NULL, FERRY_ERR_MALFORMED, w.c601 + 8,
                     "0x600/0x601");
        free(b.data);
    }

    /* Buffers that are not whole elements. */
    {
        knobs kk = k;
        kk.vertex_extra = 4;
        bytes b = build_model(&kk, &w);
        expect_error("0x10007 of 3*144+4 bytes", b.data, b.size, NULL, FERRY_ERR_MALFORMED, w.c10007,
                     "0x400/0x10000/0x10007");
        free(b.data);

        kk = k;
        kk.index_bytes = 8;
        b = build_model(&kk, &w);
        expect_error("0x10004 of 8 bytes", b.data, b.size, NULL, FERRY_ERR_MALFORMED, w.c10004,
                     "0x400/0x10000/0x10004");
        free(b.data);

        kk = k;
        kk.bone_data_short = true;
        b = build_model(&kk, &w);
        expect_error("0x206 of 59 bytes", b.data, b.size, NULL, FERRY_ERR_TRUNCATED, w.c206, "0x200/0x202/0x206");
        free(b.data);
    }

    /* Strings and mini-chunks. */
    {
        knobs kk = k;
        kk.bone_name_nul = false;
        bytes b = build_model(&kk, &w);
        expect_error("0x203 without NUL", b.data, b.size, NULL, FERRY_ERR_MALFORMED, w.c203 + 8, "0x200/0x202/0x203");
        free(b.data);

        kk = k;
        kk.proxy_bone_size = 5;
        b = build_model(&kk, &w);
        expect_error("mini-chunk overruns 0x603", b.data, b.size, NULL, FERRY_ERR_TRUNCATED, w.proxy_bone_mini,
                     "0x600/0x603");
        free(b.data);
    }

    /* A data chunk marked as a container (its body happens to parse as chunks). */
    {
        bytes b = build_model(&k, &w);
        set_u32(b.data + w.c201 + 4, get_u32(b.data + w.c201 + 4) | FERRY_CHUNK_CONTAINER_BIT);
        expect_error("0x201 with the container bit", b.data, b.size, NULL, FERRY_ERR_MALFORMED, w.c201,
                     "0x200/0x201");
        free(b.data);
    }

    /* Nesting: the skeleton plus FERRY_CHUNK_MAX_DEPTH - 1 containers below
     * it is the deepest allowed; one more is refused at the deepest one. */
    {
        knobs kk = k;
        kk.nest = FERRY_CHUNK_MAX_DEPTH - 1;
        bytes b = build_model(&kk, &w);
        CHECK(reads_ok("deepest allowed nesting", b.data, b.size, NULL));
        free(b.data);

        kk.nest = FERRY_CHUNK_MAX_DEPTH;
        b = build_model(&kk, &w);
        char full[512] = "0x200";
        for (int i = 0; i < kk.nest; i++) strcat(full, "/0x7f00");
        char expected[96];
        snprintf(expected, sizeof expected, "%s", full);
        expect_error("nesting one too deep", b.data, b.size, NULL, FERRY_ERR_LIMIT, w.nest_last, expected);
        free(b.data);

        /* Far deeper: the reader's recursion stays bounded. */
        kk.nest = 60;
        b = build_model(&kk, &w);
        ferry_alo_model *model = NULL;
        ferry_error err;
        CHECK(ferry_alo_read(b.data, b.size, NULL, &model, &err) == FERRY_ERR_LIMIT);
        free(b.data);

        /* The chunk reader alone, on bare containers at the top level. */
        bytes nest = {0};
        size_t at[FERRY_CHUNK_MAX_DEPTH + 1];
        for (int i = 0; i <= FERRY_CHUNK_MAX_DEPTH; i++) at[i] = begin(&nest, 1);
        for (int i = FERRY_CHUNK_MAX_DEPTH; i >= 0; i--) end(&nest, at[i], true);
        ferry_chunk_tree *tree = NULL;
        CHECK(ferry_alamo_chunk_read(nest.data, nest.size, NULL, &tree, &err) == FERRY_ERR_LIMIT);
        CHECK_EQ_U(err.offset, at[FERRY_CHUNK_MAX_DEPTH]);
        CHECK(ferry_alamo_chunk_read(nest.data + 8, nest.size - 8, NULL, &tree, &err) == FERRY_OK);
        ferry_alamo_chunk_free(tree);
        free(nest.data);
    }

    /* Too short to be anything, wrong kind, missing parts, leftovers. */
    {
        static const uint8_t nothing[1] = {0};
        expect_error("empty file", nothing, 0, NULL, FERRY_ERR_TRUNCATED, 0, "");
        ferry_alo_model *model = NULL;
        ferry_error err;
        CHECK(ferry_alo_read(NULL, 0, NULL, &model, &err) != FERRY_OK && located(&err, 0));
        expect_error("7-byte file", good.data, 7, NULL, FERRY_ERR_TRUNCATED, 0, "");

        static const uint32_t kinds[] = {0x900, 0x1500, 0x1000};
        for (size_t i = 0; i < 3; i++) {
            bytes b = {0};
            size_t top = begin(&b, kinds[i]);
            size_t inner = begin(&b, kinds[i] + 1);
            put_u32(&b, 1);
            end(&b, inner, false);
            end(&b, top, true);
            char name[64];
            snprintf(name, sizeof name, "file starting with chunk 0x%x", (unsigned)kinds[i]);
            expect_error(name, b.data, b.size, NULL, FERRY_ERR_UNSUPPORTED, 0, "");
            free(b.data);
        }

        knobs kk = k;
        kk.connections = false;
        bytes b = build_model(&kk, &w);
        expect_error("no 0x600", b.data, b.size, NULL, FERRY_ERR_MALFORMED, b.size, "");
        free(b.data);

        b = build_model(&k, &w);
        size_t whole = b.size;
        put_zeros(&b, 3);
        expect_error("3 bytes after the last chunk", b.data, b.size, NULL, FERRY_ERR_TRUNCATED, whole, "");
        free(b.data);
    }

    /* Memory: what a load may allocate follows the input, not its claims. */
    {
        knobs kk = k;
        kk.bone_count = 0xFFFFFFFFu;
        kk.info_vertices = 0xFFFFFFFFu;
        kk.tree_nodes = 0xFFFFFFFFu;
        kk.count_objects = 0xFFFFFFFFu;
        bytes b = build_model(&kk, &w);
        /* With room for the model itself, each claim is caught as a claim,
         * in reading order; putting it right exposes the next. */
        ferry_read_options roomy = {4 * b.size + 64 * 1024};
        expect_error("bone count 0xFFFFFFFF", b.data, b.size, &roomy, FERRY_ERR_MALFORMED, w.c201 + 8, "0x200/0x201");
        set_u32(b.data + w.c201 + 8, 1);
        expect_error("tree node count 0xFFFFFFFF", b.data, b.size, &roomy, FERRY_ERR_MALFORMED, w.c1202,
                     "0x400/0x10000/0x1200/0x1202");
        set_u32(b.data + w.c1201 + 8 + 2 * 14 + 2, 1);
        expect_error("vertex count 0xFFFFFFFF", b.data, b.size, &roomy, FERRY_ERR_MALFORMED, w.c10001 + 8,
                     "0x400/0x10000/0x10001");
        set_u32(b.data + w.c10001 + 8, 3);
        expect_error("object count 0xFFFFFFFF", b.data, b.size, &roomy, FERRY_ERR_MALFORMED, w.c601 + 8,
                     "0x600/0x601");
        set_u32(b.data + w.c601 + 8 + 2, 1);
        CHECK(reads_ok("every claim put right", b.data, b.size, &roomy));
        set_u32(b.data + w.c201 + 8, 0xFFFFFFFFu);
        /* ...and with barely more than the input, the load stops cleanly. */
        ferry_read_options tiny = {b.size + 1024};
        ferry_alo_model *model = NULL;
        ferry_error err;
        ferry_result rc = ferry_alo_read(b.data, b.size, &tiny, &model, &err);
        char text[600];
        describe(&err, text, sizeof text);
        CHECK_MSG((rc == FERRY_ERR_LIMIT || rc == FERRY_ERR_MALFORMED) && located(&err, b.size), "tiny limit: %s",
                  text);
        free(b.data);

        /* Many empty unknown chunks after a model: each costs a record of
         * the chunk tree, which the limit refuses up front. */
        b = build_model(&k, NULL);
        size_t model_size = b.size;
        for (int i = 0; i < 4096; i++) {
            put_u32(&b, 0x7777);
            put_u32(&b, 0);
        }
        ferry_read_options just = {b.size + 1024};
        expect_error("4096 empty chunks, limit input+1 KiB", b.data, b.size, &just, FERRY_ERR_LIMIT, 0, "");
        /* The default limit allows them: they are kept and written back. */
        rc = ferry_alo_read(b.data, b.size, NULL, &model, &err);
        CHECK(rc == FERRY_OK);
        if (rc == FERRY_OK) {
            ferry_buffer out = {0};
            CHECK(ferry_alo_write(model, &out, &err) == FERRY_OK);
            CHECK(out.size == b.size && memcmp(out.data, b.data, b.size) == 0);
            ferry_buffer_free(&out);
            ferry_alo_free(model);
        }
        /* Dropping trailing unknown chunks leaves a valid model: the one
         * case where a proper prefix reads. */
        CHECK(reads_ok("prefix without the trailing chunks", b.data, model_size, NULL));
        free(b.data);

        /* Empty meshes cost a model record each, more than the default
         * limit allows per input byte: refused, located at the root list. */
        b = (bytes){0};
        end(&b, begin(&b, FERRY_ALO_SKELETON), true);
        for (int i = 0; i < 60000; i++) end(&b, begin(&b, FERRY_ALO_MESH), true);
        expect_error("60000 empty meshes", b.data, b.size, NULL, FERRY_ERR_LIMIT, 0, "");
        free(b.data);
    }
    free(good.data);
}

/* Indices that point nowhere read fine (the reader keeps what the bytes
 * say); validation locates them, and the derived-data functions survive them. */
static void out_of_range_indices(void)
{
    knobs k = good_knobs();
    k.index[2] = 7;
    k.bone_parent = 5;
    k.conn_bone = 9;
    k.tree_link = 40;
    where w;
    bytes b = build_model(&k, &w);
    ferry_alo_model *model = NULL;
    ferry_error err;
    ferry_result rc = ferry_alo_read(b.data, b.size, NULL, &model, &err);
    CHECK_MSG(rc == FERRY_OK, "out-of-range indices: %s", err.message);
    if (rc == FERRY_OK) {
        ferry_diagnostics diags;
        memset(&diags, 0, sizeof diags);
        size_t errors = ferry_alo_validate(model, NULL, &diags);
        CHECK(errors >= 4);
        static const char *const rules[] = {"index-range", "bone-parent-order", "connection-bone", "collision-link"};
        for (size_t r = 0; r < 4; r++) {
            bool found = false;
            for (size_t i = 0; i < diags.count; i++) {
                const ferry_diagnostic *d = &diags.items[i];
                if (strcmp(d->rule, rules[r]) != 0) continue;
                found = true;
                CHECK_MSG(d->severity == FERRY_SEVERITY_ERROR && d->offset != FERRY_NO_OFFSET && d->offset < b.size &&
                              d->message[0],
                          "%s: not a located error", rules[r]);
            }
            CHECK_MSG(found, "validation does not report %s", rules[r]);
        }
        ferry_diagnostics_free(&diags);

        float world[16];
        ferry_alo_bone_world_matrices(model, world);
        CHECK(world[0] == 1.0f && world[15] == 1.0f);
        const ferry_alo_submesh *sm = &model->meshes[0].submeshes[0];
        const float origin[3] = {0.25f, 0.25f, 1}, down[3] = {0, 0, -1};
        ferry_alo_ray_hit hit;
        /* The tree's one leaf points past the primitives: nothing to hit,
         * and nothing read out of bounds. */
        (void)ferry_alo_collision_raycast(sm, origin, down, 10, &hit);
        CHECK(!ferry_alo_raycast_brute_force(sm, origin, down, 10, &hit)); /* its corner 7 does not exist */
        ferry_alo_free(model);
    }
    free(b.data);
}

/* ---- inputs ---- */

static void run_dir(const char *dir, const char *label, bool real, size_t *count)
{
    char **paths;
    size_t n = test_list_files(dir, ".alo", &paths);
    for (size_t i = 0; i < n; i++) {
        size_t size;
        uint8_t *data = test_read_file(paths[i], &size);
        CHECK_MSG(data != NULL, "cannot read %s", paths[i]);
        if (!data) continue;
        ferry_alamo_kind kind = ferry_alamo_detect(data, size);
        if (kind == FERRY_ALAMO_PARTICLE || kind == FERRY_ALAMO_PARTICLE_UAW || kind == FERRY_ALAMO_ANIMATION) {
            /* Not a model: refused as such, at the first chunk. */
            expect_error(paths[i], data, size, NULL, FERRY_ERR_UNSUPPORTED, 0, "");
        } else {
            const char *base = strrchr(paths[i], '/');
            char name[256];
            snprintf(name, sizeof name, "%s %s", label, base ? base + 1 : paths[i]);
            run_file(name, data, size, real, 0x5EED0000ull + i * 7919);
            (*count)++;
        }
        free(data);
    }
    test_free_paths(paths, n);
}

int main(void)
{
    clock_t start = clock();
    hand_made_cases();
    out_of_range_indices();

    knobs k = good_knobs();
    bytes hand = build_model(&k, NULL);
    run_file("built: hand-made bytes", hand.data, hand.size, false, 1);
    free(hand.data);
    bytes written = build_model_with_writer();
    CHECK(reads_ok("built: written by ferry_alo_write", written.data, written.size, NULL));
    run_file("built: written by ferry_alo_write", written.data, written.size, false, 2);
    free(written.data);

    char samples[1024];
    snprintf(samples, sizeof samples, "%s/samples/alamo", source_dir);
    size_t sample_count = 0, corpus_count = 0;
    if (test_dir_exists(samples))
        run_dir(samples, "sample", false, &sample_count);
    else
        TEST_LEFT_OUT("bundled samples (%s is absent)", samples);

    char corpus[1024];
    snprintf(corpus, sizeof corpus, "%s/corpus/alamo", shared_dir);
    if (test_dir_exists(corpus)) {
        run_dir(corpus, "corpus", true, &corpus_count);
        CHECK(corpus_count > 0);
    } else {
        TEST_LEFT_OUT("real models (%s is absent; built ones and samples were tried)", corpus);
    }

    printf("%zu inputs (%zu corpus models, %zu samples, 2 built): %zu truncations (%zu read as valid prefixes), "
           "%zu corruptions (%zu read: %zu written back byte-identical; %zu refused)\n",
           stat_files, corpus_count, sample_count, stat_truncations, stat_prefix_ok, stat_flips, stat_flip_ok,
           stat_flip_same, stat_flip_fail);
    printf("errors by kind:");
    for (int c = FERRY_ERR_TRUNCATED; c <= FERRY_ERR_ARGUMENT; c++)
        if (stat_by_code[c]) printf(" %s %zu", ferry_result_name((ferry_result)c), stat_by_code[c]);
    printf("; %.1f s CPU\n", (double)(clock() - start) / CLOCKS_PER_SEC);
    TEST_END();
}
