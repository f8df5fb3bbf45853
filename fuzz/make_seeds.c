/* Writes the committed seed corpus: fuzz/corpus/alo/ (small models built
 * with the library's writer) and fuzz/corpus/chunk/ (the same, plus chunk
 * trees that only the chunk reader cares about), fuzz/corpus/ala/ and
 * fuzz/corpus/particle/ (the bundled samples). Seeds are tiny on purpose:
 * libFuzzer mutates small inputs fastest, and real files must never be
 * committed. Usage: fuzz_make_seeds CORPUS_DIR */
#include <ferry/ala.h>
#include <ferry/alo.h>
#include <ferry/convert.h>
#include <ferry/gltf.h>
#include <ferry/lzo.h>
#include <ferry/lzss.h>
#include <ferry/particle.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../tests/alm_fixture.h"
#include <ferry/meg.h>
#include <ferry/pbo.h>
#include <ferry/config.h>
#include "../tests/bytes.h"
#include "../tools/sample_models.h"

static int failures;

static void save(const char *dir, const char *sub, const char *name, const uint8_t *data, size_t size)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s/%s", dir, sub, name);
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(data, 1, size, f) != size || fclose(f) != 0) {
        fprintf(stderr, "cannot write %s (does %s/%s exist?)\n", path, dir, sub);
        failures++;
        return;
    }
    printf("%s: %zu bytes\n", path, size);
}

/* Writes the model to both corpora after checking that it reads back. */
static void save_model(const char *dir, const char *name, const ferry_alo_model *model)
{
    ferry_buffer out = {0};
    ferry_error err;
    ferry_alo_model *back = NULL;
    if (ferry_alo_write(model, &out, &err) != FERRY_OK ||
        ferry_alo_read(out.data, out.size, NULL, &back, &err) != FERRY_OK) {
        fprintf(stderr, "%s: %s\n", name, err.message);
        failures++;
    } else {
        save(dir, "alo", name, out.data, out.size);
        save(dir, "chunk", name, out.data, out.size);
    }
    ferry_alo_free(back);
    ferry_buffer_free(&out);
}

static const float identity[12] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0};

/* Skeleton and connections only: the smallest model. */
static void minimal(const char *dir)
{
    ferry_alo_bone bone;
    memset(&bone, 0, sizeof bone);
    bone.name = "Root";
    bone.parent = -1;
    bone.visible = 1;
    memcpy(bone.matrix, identity, sizeof identity);
    ferry_alo_model m;
    memset(&m, 0, sizeof m);
    m.skeleton.bones = &bone;
    m.skeleton.bone_count = 1;
    save_model(dir, "minimal.alo", &m);
}

/* Every part the reader knows, once: two bone versions, a skinned mesh with
 * a collision tree, a light, object connections, a proxy and a dazzle. */
static void full(const char *dir, int version, const char *name)
{
    ferry_alo_bone bones[2];
    memset(bones, 0, sizeof bones);
    bones[0].name = "Root";
    bones[0].parent = -1;
    bones[0].visible = 1;
    bones[0].billboard = version == 2 ? FERRY_ALO_BILLBOARD_FACE : 0;
    memcpy(bones[0].matrix, identity, sizeof identity);
    bones[1].name = "Arm";
    bones[1].parent = 0;
    bones[1].visible = 1;
    bones[1].chunk_version = (uint8_t)version;
    memcpy(bones[1].matrix, identity, sizeof identity);
    bones[1].matrix[3] = 2;

    ferry_alo_vertex verts[4];
    memset(verts, 0, sizeof verts);
    static const float pos[4][3] = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}};
    for (int i = 0; i < 4; i++) {
        memcpy(verts[i].position, pos[i], sizeof pos[i]);
        verts[i].normal[2] = 1;
        verts[i].texcoord[0][0] = pos[i][0];
        verts[i].texcoord[0][1] = pos[i][1];
        verts[i].bone_index[0] = (uint32_t)(i & 1);
        verts[i].bone_weight[0] = 1;
    }
    uint16_t indices[6] = {0, 1, 2, 0, 2, 3};
    uint32_t mapping[2] = {0, 1};
    ferry_alo_collision_node nodes[3] = {
        {{0, 0, 0}, {255, 255, 0}, 0, 1},
        {{0, 0, 0}, {255, 128, 0}, 1, 0},
        {{0, 127, 0}, {255, 255, 0}, 1, 1},
    };
    uint16_t prims[2] = {0, 1};
    ferry_alo_collision_tree tree;
    memset(&tree, 0, sizeof tree);
    tree.box_max[0] = tree.box_max[1] = 1;
    tree.nodes = nodes;
    tree.node_count = 3;
    tree.primitives = prims;
    tree.primitive_count = 2;

    ferry_alo_shader_param params[5];
    memset(params, 0, sizeof params);
    params[0].type = FERRY_ALO_PARAM_TEXTURE;
    params[0].name = "BaseTexture";
    params[0].texture = "q.dds";
    params[1].type = FERRY_ALO_PARAM_FLOAT4;
    params[1].name = "Color";
    params[1].value[0] = params[1].value[3] = 1;
    params[2].type = FERRY_ALO_PARAM_FLOAT;
    params[2].name = "Shine";
    params[2].value[0] = 8;
    params[3].type = FERRY_ALO_PARAM_FLOAT3;
    params[3].name = "Dir";
    params[3].value[2] = 1;
    params[4].type = FERRY_ALO_PARAM_INT;
    params[4].name = "Mode";
    params[4].int_value = 2;

    ferry_alo_submesh sub;
    memset(&sub, 0, sizeof sub);
    sub.material.shader = "MeshGloss.fx";
    sub.material.params = params;
    sub.material.param_count = 5;
    sub.vertex_format = "alD3dVertRSkinNU2";
    sub.vertices = verts;
    sub.vertex_count = 4;
    sub.indices = indices;
    sub.triangle_count = 2;
    sub.bone_mapping = mapping;
    sub.bone_mapping_count = 2;
    sub.has_bone_mapping = true;
    sub.collision = &tree;
    sub.vertex_chunk_version = (uint8_t)version;

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
    conns[0].bone = 1;
    conns[1].object = 1;
    ferry_alo_proxy proxy;
    memset(&proxy, 0, sizeof proxy);
    proxy.name = "p_fire";
    proxy.bone = 1;
    proxy.is_hidden = 1;
    proxy.alt_decrease_stay_hidden = 1;
    proxy.present = FERRY_ALO_PROXY_HAS_HIDDEN | FERRY_ALO_PROXY_HAS_ALT_DECREASE;
    ferry_alo_dazzle dazzle;
    memset(&dazzle, 0, sizeof dazzle);
    dazzle.color[0] = 1;
    dazzle.radius = 3;
    dazzle.texture = "f.tga";
    dazzle.texture_size = 4;
    dazzle.frequency = 1;
    dazzle.bone = 1;
    dazzle.name = "Blink";
    dazzle.bias = 0.5f;
    dazzle.present = FERRY_ALO_DAZZLE_ALL_REQUIRED | FERRY_ALO_DAZZLE_HAS_BIAS;

    ferry_alo_model m;
    memset(&m, 0, sizeof m);
    m.skeleton.bones = bones;
    m.skeleton.bone_count = 2;
    m.meshes = &mesh;
    m.mesh_count = 1;
    m.lights = &light;
    m.light_count = 1;
    m.connections.objects = conns;
    m.connections.object_count = 2;
    m.connections.proxies = &proxy;
    m.connections.proxy_count = 1;
    m.connections.dazzles = &dazzle;
    m.connections.dazzle_count = 1;
    save_model(dir, name, &m);
}

/* What a read model keeps besides its fields: unknown chunks and
 * mini-chunks, bytes after a string's NUL, padding that is not zero. */
static void kept_bytes(const char *dir)
{
    static const char root_name[] = "Root";
    static const uint8_t tail[3] = {'x', 0, 'y'};
    static const uint8_t extra[4] = {1, 2, 3, 4};
    static const uint8_t unknown_body[6] = {1, 2, 0xAA, 0xBB, 3, 0};
    ferry_raw_chunk unknown_chunks[2] = {
        {0x7777, false, {unknown_body, 6}, FERRY_NO_OFFSET},
        {0x7778, true, {NULL, 0}, FERRY_NO_OFFSET},
    };
    static const uint32_t skeleton_order[] = {FERRY_ALO_BONE_COUNT, 0x7777, FERRY_ALO_BONE, 0x7778};
    ferry_raw_mini unknown_mini = {0x20, {extra, 4}};
    static const uint8_t counts_order[] = {1, 0x20, 4};

    ferry_alo_bone bone;
    memset(&bone, 0, sizeof bone);
    bone.name = root_name;
    bone.parent = -1;
    bone.extra.data = extra;
    bone.extra.size = 4;
    memcpy(bone.matrix, identity, sizeof identity);
    ferry_string_tail tails[1] = {{root_name, {tail, 3}}};

    ferry_alo_proxy proxy;
    memset(&proxy, 0, sizeof proxy);
    proxy.name = "p_smoke";

    ferry_alo_model m;
    memset(&m, 0, sizeof m);
    m.skeleton.bones = &bone;
    m.skeleton.bone_count = 1;
    m.skeleton.count_extra.data = extra;
    m.skeleton.count_extra.size = 4;
    m.skeleton.layout.order = skeleton_order;
    m.skeleton.layout.order_count = 4;
    m.skeleton.layout.unknown = unknown_chunks;
    m.skeleton.layout.unknown_count = 2;
    m.connections.proxies = &proxy;
    m.connections.proxy_count = 1;
    m.connections.counts_layout.order = counts_order;
    m.connections.counts_layout.order_count = 3;
    m.connections.counts_layout.unknown = &unknown_mini;
    m.connections.counts_layout.unknown_count = 1;
    m.string_tails = tails;
    m.string_tail_count = 1;
    save_model(dir, "kept_bytes.alo", &m);
}

/* ---- chunk trees the typed reader would refuse early ---- */

static void chunk_seeds(const char *dir)
{
    bytes r = {0};
    size_t at[FERRY_CHUNK_MAX_DEPTH + 1];

    /* As deep as allowed, and one level deeper. */
    for (int depth = FERRY_CHUNK_MAX_DEPTH; depth <= FERRY_CHUNK_MAX_DEPTH + 1; depth++) {
        r.size = 0;
        for (int i = 0; i < depth; i++) at[i] = begin(&r, (uint32_t)i);
        put(&r, "\x01\x02", 2);
        for (int i = depth - 1; i >= 0; i--) end(&r, at[i], true);
        save(dir, "chunk", depth == FERRY_CHUNK_MAX_DEPTH ? "deepest.bin" : "too_deep.bin", r.data, r.size);
    }

    /* Several roots, an empty data chunk, an empty container, mini-chunks. */
    r.size = 0;
    size_t a = begin(&r, 0x900);
    size_t b = begin(&r, 0x901);
    static const uint8_t minis[11] = {1, 4, 0, 0, 0x80, 0x3f, 2, 3, 'a', 'b', 'c'};
    put(&r, minis, sizeof minis);
    end(&r, b, false);
    size_t c = begin(&r, 0x902);
    end(&r, c, false);
    end(&r, a, true);
    size_t d = begin(&r, 0x903);
    end(&r, d, true);
    size_t e = begin(&r, 0x904);
    put(&r, "\x05", 1);
    end(&r, e, false);
    save(dir, "chunk", "roots.bin", r.data, r.size);
    free(r.data);
}

static const char *base_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

/* Animations (both formats, each also converted to the other) and particle
 * systems: the bundled samples' builders, so the seeds cover every chunk
 * those readers know without a second hand-built copy. */
static void sample_seeds(const char *dir)
{
    for (size_t i = 0; i < sample_animation_builder_count; i++) {
        sample_animation a;
        sample_animation_builders[i](&a);
        for (int format = 1; format <= 2; format++) {
            ferry_buffer out = {0};
            ferry_error err;
            char name[256];
            snprintf(name, sizeof name, "f%d_%s", format, base_name(a.file));
            if (ferry_ala_write_format(&a.anim, (ferry_ala_format)format, &out, &err) != FERRY_OK) {
                fprintf(stderr, "%s: %s\n", name, err.message);
                failures++;
            } else {
                save(dir, "ala", name, out.data, out.size);
            }
            ferry_buffer_free(&out);
        }
        sample_animation_free(&a);
    }
    for (size_t i = 0; i < sample_particles_builder_count; i++) {
        sample_particles p;
        sample_particles_builders[i](&p);
        ferry_buffer out = {0};
        ferry_error err;
        if (ferry_particle_write(&p.system, &out, &err) != FERRY_OK) {
            fprintf(stderr, "%s: %s\n", p.file, err.message);
            failures++;
        } else {
            save(dir, "particle", base_name(p.file), out.data, out.size);
        }
        ferry_buffer_free(&out);
        sample_particles_free(&p);
    }
}

/* LZSS: a 3-byte little-endian expected size, then a stream (fuzz_lzss.c's
 * input layout); streams of text and of a model's bytes, made by our encoder. */
static void lzss_seed(const char *dir, const char *name, const uint8_t *data, size_t size)
{
    bytes out = {0};
    ferry_error err;
    uint8_t prefix[3] = {(uint8_t)size, (uint8_t)(size >> 8), (uint8_t)(size >> 16)};
    put(&out, prefix, 3);
    ferry_buffer stream = {0};
    if (ferry_lzss_encode(data, size, &stream, &err) != FERRY_OK) {
        fprintf(stderr, "%s: %s\n", name, err.message);
        failures++;
    } else {
        put(&out, stream.data, stream.size);
        save(dir, "lzss", name, out.data, out.size);
    }
    ferry_buffer_free(&stream);
    free(out.data);
}

static void lzss_seeds(const char *dir)
{
    static const char text[] = "    spaces before, then a pattern: abcabcabcabcabcabcabcabc, and the end.";
    lzss_seed(dir, "text.bin", (const uint8_t *)text, sizeof text - 1);
    sample_model m;
    sample_build_crate(&m);
    ferry_buffer model = {0};
    ferry_error err;
    if (ferry_alo_write(&m.model, &model, &err) == FERRY_OK && model.size > 2048)
        lzss_seed(dir, "model.bin", model.data, 2048);
    ferry_buffer_free(&model);
    sample_model_free(&m);
}

/* ALM files of every version, written field by field from the spec. */
static void alm_seeds(const char *dir)
{
    for (uint32_t v = 2; v <= 10; v++) {
        bytes b = {0};
        alm_fixture(&b, v, NULL);
        char name[32];
        snprintf(name, sizeof name, "fixture_v%u.alm", (unsigned)v);
        save(dir, "alm", name, b.data, b.size);
        free(b.data);
    }
    for (uint32_t v = 9; v <= 10; v++) {
        bytes b = {0};
        alm_influence_fixture(&b, v, NULL);
        char name[32];
        snprintf(name, sizeof name, "influence_v%u.alm", (unsigned)v);
        save(dir, "alm", name, b.data, b.size);
        free(b.data);
    }
}

/* glTF: the crate as our writer exports it (.glb), the walker with its walk
 * cycle, and a hand-written .gltf whose buffer is a data: URI (a triangle
 * on a two-joint skin, with a STEP animation). */
static void gltf_seeds(const char *dir)
{
    for (int which = 0; which < 2; which++) {
        sample_model m;
        sample_animation a;
        (which ? sample_build_walker : sample_build_crate)(&m);
        if (which) sample_build_walker_walk(&a);
        ferry_alo_scene_options so;
        memset(&so, 0, sizeof so);
        so.skip_textures = true;
        const ferry_ala_animation *anims[1] = {which ? &a.anim : NULL};
        if (which) so.animations = anims, so.animation_count = 1;
        ferry_scene *scene = NULL;
        ferry_buffer out = {0};
        ferry_error err;
        if (ferry_alo_to_scene(&m.model, &so, &scene, &err) != FERRY_OK ||
            ferry_gltf_write_glb(scene, &out, &err) != FERRY_OK) {
            fprintf(stderr, "gltf seed %d: %s\n", which, err.message);
            failures++;
        } else {
            save(dir, "gltf", which ? "walker_walk.glb" : "crate.glb", out.data, out.size);
        }
        ferry_buffer_free(&out);
        ferry_scene_free(scene);
        sample_model_free(&m);
        if (which) sample_animation_free(&a);
    }
    /* 3 positions (36 bytes), 3 joints (uint8 x4: 12), 3 weights (48),
     * 3 indices (uint16: 6 + 2 padding), 2 inverse bind matrices (128),
     * 2 times (8), 2 rotations (32): 272 bytes. */
    bytes b = {0};
    const float pos[9] = {0, 0, 0, 1, 0, 0, 0, 1, 0};
    for (int i = 0; i < 9; i++) put_f32(&b, pos[i]);
    const uint8_t joints[12] = {0, 0, 0, 0, 0, 1, 0, 0, 1, 0, 0, 0};
    put(&b, joints, 12);
    const float weights[12] = {1, 0, 0, 0, 0.5f, 0.5f, 0, 0, 1, 0, 0, 0};
    for (int i = 0; i < 12; i++) put_f32(&b, weights[i]);
    put_u16(&b, 0), put_u16(&b, 1), put_u16(&b, 2), put_u16(&b, 0);
    for (int m = 0; m < 2; m++)
        for (int i = 0; i < 16; i++) put_f32(&b, (i % 5 == 0) ? 1.0f : 0.0f);
    put_f32(&b, 0), put_f32(&b, 1);
    const float rot[8] = {0, 0, 0, 1, 0, 0, 0.70710677f, 0.70710677f};
    for (int i = 0; i < 8; i++) put_f32(&b, rot[i]);
    static const char b64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    char *enc = malloc(b.size / 3 * 4 + 8), *w = enc;
    for (size_t i = 0; i < b.size; i += 3) {
        uint32_t v = (uint32_t)b.data[i] << 16 | (i + 1 < b.size ? (uint32_t)b.data[i + 1] << 8 : 0) |
                     (i + 2 < b.size ? b.data[i + 2] : 0);
        *w++ = b64[v >> 18 & 63], *w++ = b64[v >> 12 & 63];
        *w++ = i + 1 < b.size ? b64[v >> 6 & 63] : '=';
        *w++ = i + 2 < b.size ? b64[v & 63] : '=';
    }
    *w = 0;
    char doc[4096];
    int n = snprintf(doc, sizeof doc,
        "{\"asset\":{\"version\":\"2.0\"},\"scene\":0,\"scenes\":[{\"nodes\":[0,2]}],"
        "\"nodes\":[{\"name\":\"root\",\"children\":[1]},{\"name\":\"tip\",\"translation\":[0,1,0]},"
        "{\"mesh\":0,\"skin\":0}],"
        "\"meshes\":[{\"primitives\":[{\"attributes\":{\"POSITION\":0,\"JOINTS_0\":1,\"WEIGHTS_0\":2},"
        "\"indices\":3}]}],"
        "\"skins\":[{\"joints\":[0,1],\"inverseBindMatrices\":4}],"
        "\"animations\":[{\"channels\":[{\"sampler\":0,\"target\":{\"node\":1,\"path\":\"rotation\"}}],"
        "\"samplers\":[{\"input\":5,\"output\":6,\"interpolation\":\"STEP\"}]}],"
        "\"buffers\":[{\"byteLength\":%zu,\"uri\":\"data:application/octet-stream;base64,%s\"}],"
        "\"bufferViews\":[{\"buffer\":0,\"byteOffset\":0,\"byteLength\":36},"
        "{\"buffer\":0,\"byteOffset\":36,\"byteLength\":12},{\"buffer\":0,\"byteOffset\":48,\"byteLength\":48},"
        "{\"buffer\":0,\"byteOffset\":96,\"byteLength\":6},{\"buffer\":0,\"byteOffset\":104,\"byteLength\":128},"
        "{\"buffer\":0,\"byteOffset\":232,\"byteLength\":8},{\"buffer\":0,\"byteOffset\":240,\"byteLength\":32}],"
        "\"accessors\":[{\"bufferView\":0,\"componentType\":5126,\"count\":3,\"type\":\"VEC3\","
        "\"min\":[0,0,0],\"max\":[1,1,0]},{\"bufferView\":1,\"componentType\":5121,\"count\":3,\"type\":\"VEC4\"},"
        "{\"bufferView\":2,\"componentType\":5126,\"count\":3,\"type\":\"VEC4\"},"
        "{\"bufferView\":3,\"componentType\":5123,\"count\":3,\"type\":\"SCALAR\"},"
        "{\"bufferView\":4,\"componentType\":5126,\"count\":2,\"type\":\"MAT4\"},"
        "{\"bufferView\":5,\"componentType\":5126,\"count\":2,\"type\":\"SCALAR\",\"min\":[0],\"max\":[1]},"
        "{\"bufferView\":6,\"componentType\":5126,\"count\":2,\"type\":\"VEC4\"}]}",
        b.size, enc);
    save(dir, "gltf", "skinned_triangle.gltf", (const uint8_t *)doc, (size_t)n);
    free(enc);
    free(b.data);
}

/* LZO1X streams as liblzo2 writes them: a sample model's bytes (mixed
 * literals and matches) and a long run (extended lengths). */
static void lzo_seeds(const char *dir)
{
    sample_model m;
    sample_build_walker(&m);
    ferry_buffer model = {0}, enc = {0};
    ferry_error err;
    uint8_t run[3000];
    memset(run, 0x41, sizeof run);
    if (ferry_alo_write(&m.model, &model, &err) != FERRY_OK || ferry_lzo_encode(model.data, model.size, &enc, &err) != FERRY_OK) {
        fprintf(stderr, "lzo seed: %s\n", err.message);
        failures++;
    } else {
        save(dir, "lzo", "model.lzo", enc.data, enc.size);
    }
    ferry_buffer_free(&enc);
    if (ferry_lzo_encode(run, sizeof run, &enc, &err) == FERRY_OK) save(dir, "lzo", "run.lzo", enc.data, enc.size);
    ferry_buffer_free(&enc);
    ferry_buffer_free(&model);
    sample_model_free(&m);
}

/* MEG archives of formats 1, 2 and 3 (two entries, "A.TXT" and
 * "DATA\\B.TXT"), written from the layout in docs/formats/meg.md, and an
 * empty format 1 archive. */
static void meg_seeds(const char *dir)
{
    static const char *const names[2] = {"A.TXT", "DATA\\B.TXT"};
    static const char content[] = "abcde";
    for (int format = 1; format <= 3; format++) {
        bytes b = {0};
        uint32_t name_bytes = (2 + 5) + (2 + 10);
        uint32_t start = (format == 1 ? 8 : format == 2 ? 20 : 24) + name_bytes + 40;
        if (format >= 2) {
            put_u32(&b, 0xFFFFFFFFu);
            put_u32(&b, 0x3F7D70A4u);
            put_u32(&b, start);
        }
        put_u32(&b, 2);
        put_u32(&b, 2);
        if (format == 3) put_u32(&b, name_bytes);
        for (int i = 0; i < 2; i++) {
            put_u16(&b, (uint16_t)strlen(names[i]));
            put(&b, names[i], strlen(names[i]));
        }
        /* Sorted by CRC-32, as the game expects. */
        uint32_t crc[2] = {ferry_meg_crc32(names[0], 5), ferry_meg_crc32(names[1], 10)};
        int order[2] = {crc[0] <= crc[1] ? 0 : 1, crc[0] <= crc[1] ? 1 : 0};
        for (int k = 0; k < 2; k++) {
            int i = order[k];
            if (format == 3) put_u16(&b, 0);
            put_u32(&b, crc[i]);
            put_u32(&b, (uint32_t)k);
            put_u32(&b, i ? 2 : 3);
            put_u32(&b, start + (i ? 3 : 0));
            if (format == 3)
                put_u16(&b, (uint16_t)i);
            else
                put_u32(&b, (uint32_t)i);
        }
        put(&b, content, 5);
        char name[32];
        snprintf(name, sizeof name, "format%d.meg", format);
        save(dir, "meg", name, b.data, b.size);
        free(b.data);
    }
    static const uint8_t empty[8] = {0};
    save(dir, "meg", "empty.meg", empty, sizeof empty);
}

/* PBO archives written from the layout in docs/formats/pbo.md: one with a
 * product entry (prefix and another property), a stored and a compressed
 * entry ("abcabcabc" in LZSS, worked out by hand) and the SHA-1 trailer;
 * a mission (no product entry); an empty archive. */
static void pbo_record(bytes *b, const char *name, uint32_t method, uint32_t original, uint32_t time, uint32_t size)
{
    put(b, name, strlen(name) + 1);
    put_u32(b, method);
    put_u32(b, original);
    put_u32(b, 0);
    put_u32(b, time);
    put_u32(b, size);
}

static void pbo_trailer(bytes *b)
{
    uint8_t d[FERRY_PBO_SHA1_SIZE];
    ferry_pbo_sha1(b->data, b->size, d);
    put(b, "", 1);
    put(b, d, sizeof d);
}

static void pbo_seeds(const char *dir)
{
    static const uint8_t lzss[10] = {0x07, 'a', 'b', 'c', 0x03, 0x03, 0x72, 0x03, 0x00, 0x00};
    bytes b = {0};
    pbo_record(&b, "", FERRY_PBO_METHOD_VERSION, 0, 0, 0);
    put(&b, "prefix\0x\\addon\0product\0ferry\0", 29);
    put(&b, "", 1);
    pbo_record(&b, "config.cpp", 0, 5, 1700000000u, 5);
    pbo_record(&b, "data\\abc.txt", FERRY_PBO_METHOD_COMPRESSED, 9, 0, 10);
    pbo_record(&b, "", 0, 0, 0, 0);
    put(&b, "class", 5);
    put(&b, lzss, sizeof lzss);
    pbo_trailer(&b);
    save(dir, "pbo", "addon.pbo", b.data, b.size);
    free(b.data);
    b = (bytes){0};
    pbo_record(&b, "mission.sqm", 0, 0, 1700000000u, 2);
    pbo_record(&b, "", 0, 0, 0, 0);
    put(&b, "{}", 2);
    pbo_trailer(&b);
    save(dir, "pbo", "mission.pbo", b.data, b.size);
    free(b.data);
    b = (bytes){0};
    pbo_record(&b, "", 0, 0, 0, 0);
    save(dir, "pbo", "empty.pbo", b.data, b.size);
    free(b.data);
}

/* Configs: a text material and a config using every entry kind (written
 * here by hand), each also as raP through ferry_config_write. */
static void config_seeds(const char *dir)
{
    static const char *const texts[2] = {
        "ambient[] = {1,1,1,1};\ndiffuse[] = {0.5,0.5,0.5,1};\nforcedDiffuse[] = {0,0,0,0};\n"
        "emmisive[] = {0,0,0,1};\nspecular[] = {0.2,0.2,0.2,1};\nspecularPower = 40;\n"
        "PixelShaderID = \"Super\";\nVertexShaderID = \"Super\";\n"
        "class Stage1 { texture = \"a\\data\\x_nohq.paa\"; uvSource = \"tex\";\n"
        "  class uvTransform { aside[] = {1,0,0}; up[] = {0,1,0}; dir[] = {0,0,0}; pos[] = {0,0,0}; }; };\n"
        "class Stage2 { texture = \"#(argb,8,8,3)color(0.5,0.5,0.5,1,DT)\"; texGen = 1; };\n",
        "// every entry kind\n#define X\nenum { a = 1, b };\nclass Ext;\nclass Base { v = 1; s = \"q\"\"q\"; };\n"
        "class Derived: Base { f = 2.5; n[] = {1, {2, \"x\"}, -3.5e2}; delete Gone; e = __EVAL(1+1); };\n"
        "list[] += {\"y\"};\nmulti = \"a\" \\n \"b\";\n"};
    static const char *const names[2] = {"material", "kinds"};
    for (int i = 0; i < 2; i++) {
        char name[40];
        snprintf(name, sizeof name, "%s.rvmat", names[i]);
        save(dir, "config", name, (const uint8_t *)texts[i], strlen(texts[i]));
        ferry_config *c = NULL;
        ferry_buffer b = {0};
        if (ferry_config_read((const uint8_t *)texts[i], strlen(texts[i]), NULL, &c, NULL) != FERRY_OK ||
            ferry_config_write(c, &b, NULL) != FERRY_OK) {
            fprintf(stderr, "config seed %s does not read\n", names[i]);
            failures++;
        } else {
            snprintf(name, sizeof name, "%s.bin", names[i]);
            save(dir, "config", name, b.data, b.size);
        }
        ferry_buffer_free(&b);
        ferry_config_free(c);
    }
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s CORPUS_DIR   (writes CORPUS_DIR/alo, ala, particle and chunk)\n", argv[0]);
        return 2;
    }
    minimal(argv[1]);
    full(argv[1], 2, "full_v2.alo");
    full(argv[1], 1, "full_v1.alo");
    kept_bytes(argv[1]);
    chunk_seeds(argv[1]);
    sample_seeds(argv[1]);
    lzss_seeds(argv[1]);
    alm_seeds(argv[1]);
    gltf_seeds(argv[1]);
    lzo_seeds(argv[1]);
    meg_seeds(argv[1]);
    pbo_seeds(argv[1]);
    config_seeds(argv[1]);
    return failures ? 1 : 0;
}
