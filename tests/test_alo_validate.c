/* ALO validation: a small valid model built by hand, then one defect at a
 * time, each of which must show up as its rule with the right severity. */
#include <ferry/alo.h>

#include "test.h"

#define NO FERRY_NO_OFFSET

typedef struct fixture {
    ferry_alo_bone bones[3];
    ferry_alo_vertex vertices[4];
    uint16_t indices[6];
    uint32_t mapping[25];
    ferry_alo_collision_node nodes[3];
    uint16_t primitives[2];
    ferry_alo_collision_tree tree;
    ferry_alo_shader_param params[2];
    ferry_alo_submesh submesh;
    ferry_alo_mesh mesh;
    ferry_alo_light light;
    ferry_alo_object objects[2];
    ferry_alo_connection conns[3];
    ferry_alo_proxy proxy;
    ferry_alo_dazzle dazzle;
    ferry_alo_model model;
} fixture;

static void init_skeleton(fixture *f)
{
    static const char *names[3] = {"Root", "Body", "Turret"};
    for (int i = 0; i < 3; i++) {
        ferry_alo_bone *b = &f->bones[i];
        b->name = names[i];
        b->parent = i - 1;
        b->visible = 1;
        b->matrix[0] = b->matrix[5] = b->matrix[10] = 1.0f;
        b->chunk_version = 2;
        b->offset = NO;
    }
    f->model.skeleton.bones = f->bones;
    f->model.skeleton.bone_count = 3;
    f->model.skeleton.offset = NO;
}

/* A quad of two triangles, skinned to bones 1 and 2 through a two-entry
 * mapping, with a three-node collision tree over both triangles. */
static void init_geometry(fixture *f)
{
    static const float corners[4][3] = {{-1, -1, 0}, {1, -1, 0}, {1, 1, 1}, {-1, 1, 1}};
    static const uint16_t quad[6] = {0, 1, 2, 0, 2, 3};
    for (int i = 0; i < 4; i++) {
        memcpy(f->vertices[i].position, corners[i], sizeof corners[i]);
        f->vertices[i].normal[2] = 1.0f;
        f->vertices[i].bone_index[0] = (uint32_t)(i % 2);
        f->vertices[i].bone_weight[0] = 1.0f;
    }
    memcpy(f->indices, quad, sizeof quad);
    f->mapping[0] = 1;
    f->mapping[1] = 2;

    f->nodes[0] = (ferry_alo_collision_node){{0, 0, 0}, {255, 255, 255}, 0, 1};
    f->nodes[1] = (ferry_alo_collision_node){{0, 0, 0}, {255, 255, 128}, 1, 0};
    f->nodes[2] = (ferry_alo_collision_node){{0, 0, 128}, {255, 255, 255}, 1, 1};
    f->primitives[0] = 0;
    f->primitives[1] = 1;
    f->tree = (ferry_alo_collision_tree){.box_min = {-1, -1, 0}, .box_max = {1, 1, 1}, .nodes = f->nodes,
                                         .node_count = 3, .primitives = f->primitives, .primitive_count = 2,
                                         .offset = NO};

    f->params[0] = (ferry_alo_shader_param){.type = FERRY_ALO_PARAM_TEXTURE, .name = "BaseTexture",
                                            .texture = "hull.tga", .offset = NO};
    f->params[1] = (ferry_alo_shader_param){.type = FERRY_ALO_PARAM_FLOAT, .name = "Shininess",
                                            .value = {0.5f}, .offset = NO};

    ferry_alo_submesh *sm = &f->submesh;
    sm->material = (ferry_alo_material){.shader = "MeshGloss.fx", .params = f->params, .param_count = 2,
                                        .offset = NO};
    sm->vertex_format = "alD3dVertRSkinNU2";
    sm->vertices = f->vertices;
    sm->vertex_count = 4;
    sm->indices = f->indices;
    sm->triangle_count = 2;
    sm->bone_mapping = f->mapping;
    sm->bone_mapping_count = 2;
    sm->has_bone_mapping = true;
    sm->collision = &f->tree;
    sm->vertex_chunk_version = 2;
    sm->source = (ferry_alo_submesh_source){NO, NO, NO, NO, NO, NO};

    ferry_alo_mesh *m = &f->mesh;
    m->name = "Hull";
    memcpy(m->bounds_min, corners[0], sizeof m->bounds_min);
    memcpy(m->bounds_max, corners[2], sizeof m->bounds_max);
    m->collision_enabled = 1;
    m->submeshes = sm;
    m->submesh_count = 1;
    m->offset = m->info_offset = NO;
    f->model.meshes = m;
    f->model.mesh_count = 1;
}

static void init_objects(fixture *f)
{
    f->light = (ferry_alo_light){.name = "Lamp", .type = FERRY_ALO_LIGHT_OMNI, .color = {1, 1, 1},
                                 .intensity = 1, .offset = NO};
    f->model.lights = &f->light;
    f->model.light_count = 1;
    f->objects[0] = (ferry_alo_object){FERRY_ALO_OBJECT_MESH, 0};
    f->objects[1] = (ferry_alo_object){FERRY_ALO_OBJECT_LIGHT, 0};
    f->model.objects = f->objects;
    f->model.object_count = 2;

    f->conns[0] = (ferry_alo_connection){.object = 0, .bone = 1, .offset = NO};
    f->conns[1] = (ferry_alo_connection){.object = 1, .bone = 2, .offset = NO};
    f->conns[2] = (ferry_alo_connection){.object = 0, .bone = 0, .offset = NO};
    f->proxy = (ferry_alo_proxy){.name = "Fire", .bone = 2, .offset = NO};
    f->dazzle = (ferry_alo_dazzle){.color = {1, 1, 1}, .radius = 1, .texture = "glow.tga", .texture_size = 1,
                                   .bone = 0, .name = "Glow", .bias = 1,
                                   .present = FERRY_ALO_DAZZLE_ALL_REQUIRED, .offset = NO};
    ferry_alo_connections *c = &f->model.connections;
    c->objects = f->conns;
    c->object_count = 2;
    c->proxies = &f->proxy;
    c->proxy_count = 1;
    c->dazzles = &f->dazzle;
    c->dazzle_count = 1;
    c->offset = c->counts_offset = NO;
}

/* Fills in place: the model points into the fixture, so it must not be copied. */
static void fixture_init(fixture *f)
{
    memset(f, 0, sizeof *f);
    init_skeleton(f);
    init_geometry(f);
    init_objects(f);
}

static int texture_calls;
static char last_texture[64];

static bool texture_found(const char *name, void *user)
{
    texture_calls++;
    snprintf(last_texture, sizeof last_texture, "%s", name);
    return user == NULL;
}

static void dump(const ferry_diagnostics *d)
{
    for (size_t i = 0; i < d->count; i++)
        fprintf(stderr, "  %s [%s] @%llx %s: %s\n", d->items[i].severity == FERRY_SEVERITY_ERROR ? "E" : "W",
                d->items[i].rule, (unsigned long long)d->items[i].offset, d->items[i].path, d->items[i].message);
}

/* Validates with a texture callback that finds every texture unless
 * `textures_missing`; checks that the return value counts the errors. */
static size_t run(fixture *f, ferry_diagnostics *d, bool textures_missing)
{
    memset(d, 0, sizeof *d);
    static int missing_marker;
    ferry_alo_validate_options o = {texture_found, textures_missing ? &missing_marker : NULL};
    size_t errors = ferry_alo_validate(&f->model, &o, d);
    CHECK_EQ_U(errors, d->error_count);
    return errors;
}

static size_t count_rule(const ferry_diagnostics *d, const char *rule, ferry_severity severity)
{
    size_t n = 0;
    for (size_t i = 0; i < d->count; i++)
        if (strcmp(d->items[i].rule, rule) == 0 && d->items[i].severity == severity) n++;
    return n;
}

static const ferry_diagnostic *find_rule(const ferry_diagnostics *d, const char *rule)
{
    for (size_t i = 0; i < d->count; i++)
        if (strcmp(d->items[i].rule, rule) == 0) return &d->items[i];
    return NULL;
}

/* The defect shows up as `rule` at `severity`, and nothing else is reported. */
static void expect_only(const ferry_diagnostics *d, const char *rule, ferry_severity severity, int line)
{
    size_t n = count_rule(d, rule, severity);
    bool ok = n > 0 && n == d->count;
    CHECK_MSG(ok, "line %d: expected only %s '%s', got %zu items:", line,
              severity == FERRY_SEVERITY_ERROR ? "error" : "warning", rule, d->count);
    if (!ok) dump(d);
}

#define EXPECT_ONLY(d, rule, sev) expect_only(d, rule, sev, __LINE__)
#define ERR FERRY_SEVERITY_ERROR
#define WARN FERRY_SEVERITY_WARNING

static void test_valid(void)
{
    fixture f;
    fixture_init(&f);
    ferry_diagnostics d;
    texture_calls = 0;
    CHECK_EQ_U(run(&f, &d, false), 0);
    CHECK_EQ_U(d.warning_count, 0);
    CHECK_EQ_U(d.count, 0);
    if (d.count) dump(&d);
    CHECK_EQ_U(texture_calls, 1);
    CHECK(strcmp(last_texture, "hull.tga") == 0);
    ferry_diagnostics_free(&d);

    /* No options: the texture check is skipped, nothing else changes. */
    memset(&d, 0, sizeof d);
    CHECK_EQ_U(ferry_alo_validate(&f.model, NULL, &d), 0);
    CHECK_EQ_U(d.count, 0);
    ferry_diagnostics_free(&d);

    /* Several roots are allowed. */
    f.bones[2].parent = -1;
    CHECK_EQ_U(run(&f, &d, false), 0);
    CHECK_EQ_U(d.count, 0);
    ferry_diagnostics_free(&d);
}

static void test_bone_parent_order(void)
{
    const int32_t bad[] = {2, 5, -2};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        fixture f;
        fixture_init(&f);
        f.bones[2].parent = bad[i];
        f.bones[2].offset = 0x40;
        ferry_diagnostics d;
        CHECK_EQ_U(run(&f, &d, false), 1);
        EXPECT_ONLY(&d, "bone-parent-order", ERR);
        const ferry_diagnostic *g = find_rule(&d, "bone-parent-order");
        if (g) {
            CHECK_EQ_U(g->offset, 0x40);
            CHECK(strcmp(g->path, "0x200/0x202/0x206") == 0);
            CHECK(strstr(g->message, "bone 2 'Turret'") != NULL);
        }
        ferry_diagnostics_free(&d);
    }
}

static void test_index_range(void)
{
    fixture f;
    fixture_init(&f);
    f.indices[4] = 4;
    f.submesh.source.indices = 0x100;
    ferry_diagnostics d;
    CHECK_EQ_U(run(&f, &d, false), 1);
    EXPECT_ONLY(&d, "index-range", ERR);
    const ferry_diagnostic *g = find_rule(&d, "index-range");
    if (g) {
        CHECK_EQ_U(g->offset, 0x100 + 8 + 2 * 4);
        CHECK(strcmp(g->path, "0x400/0x10000/0x10004") == 0);
        CHECK(strstr(g->message, "mesh 0 'Hull' sub-mesh 0") != NULL);
        CHECK(strstr(g->message, "triangle 1") != NULL);
    }
    ferry_diagnostics_free(&d);
}

static void test_index_reports_bounded(void)
{
    enum { TRIANGLES = 300 };
    static uint16_t many[TRIANGLES * 3];
    for (size_t i = 0; i < TRIANGLES * 3; i++) many[i] = 9;
    fixture f;
    fixture_init(&f);
    f.submesh.indices = many;
    f.submesh.triangle_count = TRIANGLES;
    ferry_diagnostics d;
    /* Five listed, then one line with the rest. */
    CHECK_EQ_U(run(&f, &d, false), 6);
    EXPECT_ONLY(&d, "index-range", ERR);
    CHECK(d.count == 6 && strstr(d.items[5].message, "895 more") != NULL);
    ferry_diagnostics_free(&d);

    /* The diagnostics' own cap keeps counting what it drops. */
    fixture_init(&f);
    f.submesh.indices = many;
    f.submesh.triangle_count = TRIANGLES;
    memset(&d, 0, sizeof d);
    d.max_items = 2;
    CHECK_EQ_U(ferry_alo_validate(&f.model, NULL, &d), 6);
    CHECK_EQ_U(d.count, 2);
    CHECK_EQ_U(d.dropped, 4);
    ferry_diagnostics_free(&d);
}

static void test_bone_mapping(void)
{
    fixture f;
    ferry_diagnostics d;

    /* An empty mapping: reported once, not again for every vertex. */
    fixture_init(&f);
    f.submesh.bone_mapping_count = 0;
    CHECK_EQ_U(run(&f, &d, false), 1);
    EXPECT_ONLY(&d, "bone-mapping-count", ERR);
    ferry_diagnostics_free(&d);

    /* 25 entries, as a shipped model has: the game's skinning shaders hold
     * 24 matrices, so this draws right while no vertex uses entry 24 (a
     * warning), and wrong once one does (an error). */
    fixture_init(&f);
    for (uint32_t i = 0; i < 25; i++) f.mapping[i] = i % 3;
    f.submesh.bone_mapping_count = 25;
    CHECK_EQ_U(run(&f, &d, false), 0);
    EXPECT_ONLY(&d, "bone-mapping-count", WARN);
    ferry_diagnostics_free(&d);
    f.vertices[3].bone_index[0] = 24;
    CHECK_EQ_U(run(&f, &d, false), 1);
    EXPECT_ONLY(&d, "bone-mapping-count", ERR);
    ferry_diagnostics_free(&d);
    /* A weighted second slot counts; an unweighted one does not. */
    f.vertices[3].bone_index[0] = 1;
    f.vertices[3].bone_index[1] = 24;
    CHECK_EQ_U(run(&f, &d, false), 0);
    ferry_diagnostics_free(&d);
    f.vertices[3].bone_weight[0] = 0.5f;
    f.vertices[3].bone_weight[1] = 0.5f;
    CHECK_EQ_U(run(&f, &d, false), 1);
    EXPECT_ONLY(&d, "bone-mapping-count", ERR);
    ferry_diagnostics_free(&d);

    fixture_init(&f);
    f.submesh.bone_mapping_count = 24;
    CHECK_EQ_U(run(&f, &d, false), 0);
    ferry_diagnostics_free(&d);

    fixture_init(&f);
    f.mapping[1] = 3;
    f.submesh.source.bone_mapping = 0x200;
    CHECK_EQ_U(run(&f, &d, false), 1);
    EXPECT_ONLY(&d, "bone-mapping-range", ERR);
    const ferry_diagnostic *g = find_rule(&d, "bone-mapping-range");
    if (g) CHECK_EQ_U(g->offset, 0x200 + 8 + 4);
    ferry_diagnostics_free(&d);
}

static void test_vertex_bone_index(void)
{
    fixture f;
    ferry_diagnostics d;

    fixture_init(&f);
    f.vertices[3].bone_index[0] = 2;
    f.submesh.source.vertices = 0x1000;
    CHECK_EQ_U(run(&f, &d, false), 1);
    EXPECT_ONLY(&d, "vertex-bone-index", ERR);
    const ferry_diagnostic *g = find_rule(&d, "vertex-bone-index");
    if (g) CHECK_EQ_U(g->offset, 0x1000 + 8 + 3 * 144 + 112);
    ferry_diagnostics_free(&d);

    /* An unweighted slot may hold anything. */
    fixture_init(&f);
    f.vertices[1].bone_index[1] = 7;
    CHECK_EQ_U(run(&f, &d, false), 0);
    ferry_diagnostics_free(&d);

    /* A weighted one may not. */
    fixture_init(&f);
    f.vertices[1].bone_index[2] = 7;
    f.vertices[1].bone_weight[0] = 0.5f;
    f.vertices[1].bone_weight[2] = 0.5f;
    CHECK_EQ_U(run(&f, &d, false), 1);
    EXPECT_ONLY(&d, "vertex-bone-index", ERR);
    ferry_diagnostics_free(&d);

    /* Without a mapping the indices mean nothing and are not checked. */
    fixture_init(&f);
    f.vertices[3].bone_index[0] = 9;
    f.submesh.has_bone_mapping = false;
    f.submesh.bone_mapping_count = 0;
    CHECK_EQ_U(run(&f, &d, false), 0);
    ferry_diagnostics_free(&d);
}

static void test_bone_weights(void)
{
    fixture f;
    fixture_init(&f);
    f.vertices[0].bone_weight[0] = 0.5f;
    ferry_diagnostics d;
    CHECK_EQ_U(run(&f, &d, false), 0);
    EXPECT_ONLY(&d, "bone-weights", WARN);
    ferry_diagnostics_free(&d);
}

static void test_collision(void)
{
    fixture f;
    ferry_diagnostics d;

    fixture_init(&f);
    f.nodes[0].link = 2; /* children 2 and 3 of 3 nodes */
    CHECK_EQ_U(run(&f, &d, false), 1);
    EXPECT_ONLY(&d, "collision-link", ERR);
    ferry_diagnostics_free(&d);

    fixture_init(&f);
    f.nodes[0].link = 0; /* itself: traversal would never end */
    CHECK_EQ_U(run(&f, &d, false), 1);
    EXPECT_ONLY(&d, "collision-link", ERR);
    ferry_diagnostics_free(&d);

    fixture_init(&f);
    f.nodes[2].primitive_count = 2; /* primitives 1 and 2 of 2 */
    CHECK_EQ_U(run(&f, &d, false), 1);
    EXPECT_ONLY(&d, "collision-link", ERR);
    ferry_diagnostics_free(&d);

    fixture_init(&f);
    f.primitives[1] = 2;
    CHECK_EQ_U(run(&f, &d, false), 1);
    EXPECT_ONLY(&d, "collision-primitive", ERR);
    const ferry_diagnostic *g = find_rule(&d, "collision-primitive");
    if (g) CHECK(strcmp(g->path, "0x400/0x10000/0x1200/0x1203") == 0);
    ferry_diagnostics_free(&d);

    fixture_init(&f);
    f.mesh.collision_enabled = 0;
    CHECK_EQ_U(run(&f, &d, false), 0);
    EXPECT_ONLY(&d, "collision-not-enabled", WARN);
    ferry_diagnostics_free(&d);

    fixture_init(&f);
    f.submesh.collision = NULL;
    CHECK_EQ_U(run(&f, &d, false), 0);
    EXPECT_ONLY(&d, "collision-tree-missing", WARN);
    ferry_diagnostics_free(&d);
}

static void test_connections(void)
{
    fixture f;
    ferry_diagnostics d;

    /* The light loses its only connection, which is worth a warning too. */
    fixture_init(&f);
    f.conns[1].object = 2;
    CHECK_EQ_U(run(&f, &d, false), 1);
    CHECK_EQ_U(count_rule(&d, "connection-object", ERR), 1);
    CHECK_EQ_U(count_rule(&d, "object-unconnected", WARN), 1);
    CHECK_EQ_U(d.count, 2);
    ferry_diagnostics_free(&d);

    fixture_init(&f);
    f.conns[0].bone = 3;
    f.proxy.bone = 3;
    f.dazzle.bone = 9;
    CHECK_EQ_U(run(&f, &d, false), 3);
    EXPECT_ONLY(&d, "connection-bone", ERR);
    CHECK_EQ_U(count_rule(&d, "connection-bone", ERR), 3);
    ferry_diagnostics_free(&d);

    fixture_init(&f);
    f.model.connections.object_count = 3;
    f.conns[2].offset = 0x300;
    /* The game keeps one attachment; a second one is suspicious, not fatal. */
    CHECK_EQ_U(run(&f, &d, false), 0);
    EXPECT_ONLY(&d, "object-connected-twice", WARN);
    const ferry_diagnostic *g = find_rule(&d, "object-connected-twice");
    if (g) {
        CHECK_EQ_U(g->offset, 0x300);
        CHECK(strstr(g->message, "mesh 0 'Hull'") != NULL);
    }
    ferry_diagnostics_free(&d);

    fixture_init(&f);
    f.model.connections.object_count = 1;
    CHECK_EQ_U(run(&f, &d, false), 0);
    EXPECT_ONLY(&d, "object-unconnected", WARN);
    g = find_rule(&d, "object-unconnected");
    if (g) CHECK(strstr(g->message, "light 0 'Lamp'") != NULL);
    ferry_diagnostics_free(&d);
}

static void test_object_list(void)
{
    fixture f;
    ferry_diagnostics d;

    fixture_init(&f);
    f.objects[1].index = 5;
    CHECK_EQ_U(run(&f, &d, false), 1);
    EXPECT_ONLY(&d, "object-list", ERR);
    ferry_diagnostics_free(&d);

    fixture_init(&f);
    f.model.object_count = 1;
    run(&f, &d, false);
    CHECK_EQ_U(count_rule(&d, "object-list", ERR), 1);
    ferry_diagnostics_free(&d);
}

static void test_fixed_sizes(void)
{
    static const uint8_t zeros[128];
    fixture f;
    ferry_diagnostics d;

    /* The canonical sizes, given explicitly, pass. */
    fixture_init(&f);
    f.model.skeleton.count_extra = (ferry_blob){zeros, 124};
    f.mesh.info_extra = (ferry_blob){zeros, 88};
    f.submesh.info_extra = (ferry_blob){zeros, 120};
    f.bones[0].extra = (ferry_blob){zeros, 0};
    f.light.extra = (ferry_blob){zeros, 0};
    CHECK_EQ_U(run(&f, &d, false), 0);
    CHECK_EQ_U(d.count, 0);
    ferry_diagnostics_free(&d);

    fixture_init(&f);
    f.model.skeleton.count_extra = (ferry_blob){zeros, 100};
    CHECK_EQ_U(run(&f, &d, false), 1);
    EXPECT_ONLY(&d, "chunk-size", ERR);
    const ferry_diagnostic *g = find_rule(&d, "chunk-size");
    if (g) CHECK(strcmp(g->path, "0x200/0x201") == 0 && strstr(g->message, "104 bytes, expected 128"));
    ferry_diagnostics_free(&d);

    fixture_init(&f);
    f.mesh.info_extra = (ferry_blob){zeros, 80};
    CHECK_EQ_U(run(&f, &d, false), 1);
    EXPECT_ONLY(&d, "chunk-size", ERR);
    g = find_rule(&d, "chunk-size");
    if (g) CHECK(strcmp(g->path, "0x400/0x402") == 0);
    ferry_diagnostics_free(&d);

    fixture_init(&f);
    f.submesh.info_extra = (ferry_blob){zeros, 121};
    CHECK_EQ_U(run(&f, &d, false), 1);
    EXPECT_ONLY(&d, "chunk-size", ERR);
    ferry_diagnostics_free(&d);

    fixture_init(&f);
    f.bones[1].extra = (ferry_blob){zeros, 4};
    f.bones[1].chunk_version = 1;
    CHECK_EQ_U(run(&f, &d, false), 1);
    EXPECT_ONLY(&d, "chunk-size", ERR);
    g = find_rule(&d, "chunk-size");
    if (g) CHECK(strcmp(g->path, "0x200/0x202/0x205") == 0 && strstr(g->message, "60 bytes, expected 56"));
    ferry_diagnostics_free(&d);

    fixture_init(&f);
    f.light.extra = (ferry_blob){zeros, 4};
    CHECK_EQ_U(run(&f, &d, false), 1);
    EXPECT_ONLY(&d, "chunk-size", ERR);
    g = find_rule(&d, "chunk-size");
    if (g) CHECK(strstr(g->message, "expected 36") != NULL);
    ferry_diagnostics_free(&d);
}

static void test_padding(void)
{
    static uint8_t padding[124];
    static const uint32_t order[] = {FERRY_ALO_BONE_COUNT, FERRY_ALO_BONE, FERRY_ALO_BONE, FERRY_ALO_BONE};
    padding[10] = 0x5a;
    fixture f;
    fixture_init(&f);
    f.model.skeleton.count_extra = (ferry_blob){padding, 124};
    f.model.skeleton.offset = 0;
    f.model.skeleton.layout.order = order;
    f.model.skeleton.layout.order_count = 4;
    ferry_diagnostics d;
    CHECK_EQ_U(run(&f, &d, false), 0);
    EXPECT_ONLY(&d, "padding-nonzero", WARN);
    const ferry_diagnostic *g = find_rule(&d, "padding-nonzero");
    if (g) CHECK_EQ_U(g->offset, 8 + 8 + 4 + 10); /* 0x200 header, 0x201 header, count, byte 10 */
    ferry_diagnostics_free(&d);
}

static void test_light_type(void)
{
    fixture f;
    fixture_init(&f);
    f.light.type = 3;
    ferry_diagnostics d;
    CHECK_EQ_U(run(&f, &d, false), 1);
    EXPECT_ONLY(&d, "light-type", ERR);
    ferry_diagnostics_free(&d);
}

static void test_texture_missing(void)
{
    fixture f;
    fixture_init(&f);
    ferry_diagnostics d;
    CHECK_EQ_U(run(&f, &d, true), 0);
    EXPECT_ONLY(&d, "texture-missing", WARN);
    const ferry_diagnostic *g = find_rule(&d, "texture-missing");
    if (g) CHECK(strstr(g->message, "hull.tga") != NULL);
    ferry_diagnostics_free(&d);
}

static void test_billboard(void)
{
    fixture f;
    ferry_diagnostics d;

    fixture_init(&f);
    f.bones[1].billboard = 8;
    CHECK_EQ_U(run(&f, &d, false), 0);
    EXPECT_ONLY(&d, "billboard-mode", WARN);
    ferry_diagnostics_free(&d);

    /* A 0x205 bone has nowhere to store it. */
    fixture_init(&f);
    f.bones[1].billboard = FERRY_ALO_BILLBOARD_FACE;
    f.bones[1].chunk_version = 1;
    CHECK_EQ_U(run(&f, &d, false), 0);
    EXPECT_ONLY(&d, "billboard-mode", WARN);
    ferry_diagnostics_free(&d);
}

static void test_names(void)
{
    fixture f;
    ferry_diagnostics d;

    fixture_init(&f);
    f.bones[1].name = NULL;
    CHECK_EQ_U(run(&f, &d, false), 1);
    EXPECT_ONLY(&d, "name-missing", ERR);
    ferry_diagnostics_free(&d);

    fixture_init(&f);
    f.submesh.material.shader = NULL;
    CHECK_EQ_U(run(&f, &d, false), 1);
    EXPECT_ONLY(&d, "name-missing", ERR);
    const ferry_diagnostic *g = find_rule(&d, "name-missing");
    if (g) CHECK(strcmp(g->path, "0x400/0x10100/0x10101") == 0);
    ferry_diagnostics_free(&d);

    fixture_init(&f);
    f.mesh.name = "";
    CHECK_EQ_U(run(&f, &d, false), 0);
    EXPECT_ONLY(&d, "name-empty", WARN);
    ferry_diagnostics_free(&d);
}

static void test_bounds(void)
{
    fixture f;
    ferry_diagnostics d;

    fixture_init(&f);
    f.mesh.bounds_max[0] = 0.5f;
    CHECK_EQ_U(run(&f, &d, false), 0);
    EXPECT_ONLY(&d, "mesh-bounds", WARN);
    ferry_diagnostics_free(&d);

    /* Within 1e-3 of the extent (2 units) is close enough. */
    fixture_init(&f);
    f.mesh.bounds_max[0] = 1.0f - 1e-3f;
    CHECK_EQ_U(run(&f, &d, false), 0);
    CHECK_EQ_U(d.count, 0);
    ferry_diagnostics_free(&d);

    /* A NaN or an infinity in the stored bounds (the engine culls by them)
     * is a value-finite error at the float itself, not a mesh-bounds warning. */
    const float bad[2] = {NAN, INFINITY};
    for (int b = 0; b < 2; b++)
        for (int k = 0; k < 6; k++) {
            fixture_init(&f);
            f.mesh.info_offset = 0x200;
            (k < 3 ? f.mesh.bounds_min : f.mesh.bounds_max)[k % 3] = bad[b];
            CHECK_EQ_U(run(&f, &d, false), 1);
            EXPECT_ONLY(&d, "value-finite", ERR);
            const ferry_diagnostic *g = find_rule(&d, "value-finite");
            if (g) {
                CHECK_EQ_U(g->offset, 0x200 + 8 + 4 + 4 * (unsigned)k);
                CHECK(strcmp(g->path, "0x400/0x402") == 0 && strstr(g->message, "mesh 0") != NULL);
                CHECK(strstr(g->message, k < 3 ? "minimum" : "maximum") != NULL);
            }
            ferry_diagnostics_free(&d);
        }
}

static void test_vertex_count(void)
{
    fixture f;
    fixture_init(&f);
    ferry_alo_vertex *many = calloc(65537, sizeof *many);
    CHECK(many != NULL);
    if (!many) return;
    f.submesh.vertices = many;
    f.submesh.vertex_count = 65537;
    f.submesh.has_bone_mapping = false;
    f.submesh.bone_mapping_count = 0;
    ferry_diagnostics d;
    CHECK_EQ_U(run(&f, &d, false), 1);
    EXPECT_ONLY(&d, "vertex-count", ERR);
    ferry_diagnostics_free(&d);

    f.submesh.vertex_count = 65536;
    CHECK_EQ_U(run(&f, &d, false), 0);
    ferry_diagnostics_free(&d);
    free(many);
}

/* NaN and infinities where the game draws with them: located errors. */
static void test_non_finite(void)
{
    fixture f;
    ferry_diagnostics d;
    /* Vertex fields, located at the float (0x10007 vertices are 144 bytes).
     * An error where the vertex format uploads the field (positions and
     * normals always), a warning where it does not. */
    static const char *const formats[3] = {"alD3dVertRSkinNU2", "alD3dVertB4I4NU2U3U3C", "SomeOtherFormat"};
    static const struct {
        size_t field;
        uint32_t at;
        bool error[3]; /* per format */
    } fields[] = {{offsetof(ferry_alo_vertex, position) + 4, 4, {true, true, true}},
                  {offsetof(ferry_alo_vertex, normal), 12, {true, true, true}},
                  {offsetof(ferry_alo_vertex, texcoord) + 4, 28, {true, true, true}},
                  {offsetof(ferry_alo_vertex, texcoord) + 12, 36, {false, false, true}},
                  {offsetof(ferry_alo_vertex, tangent) + 8, 64, {false, true, true}},
                  {offsetof(ferry_alo_vertex, binormal), 68, {false, true, true}},
                  {offsetof(ferry_alo_vertex, color) + 12, 92, {false, true, true}},
                  {offsetof(ferry_alo_vertex, bone_weight), 128, {false, true, true}}};
    const float bad[2] = {NAN, -INFINITY};
    for (int b = 0; b < 2; b++) {
        for (int fm = 0; fm < 3; fm++)
            for (size_t k = 0; k < sizeof fields / sizeof fields[0]; k++) {
                fixture_init(&f);
                f.submesh.vertex_format = formats[fm];
                f.submesh.source.vertices = 0x1000;
                memcpy((char *)&f.vertices[2] + fields[k].field, &bad[b], sizeof bad[b]);
                bool position = k == 0, weight = fields[k].at == 128, error = fields[k].error[fm];
                size_t errors = run(&f, &d, false);
                ferry_severity sev = error ? ERR : WARN;
                CHECK_MSG(count_rule(&d, "value-finite", sev) == 1, "format %s field at %u", formats[fm],
                          (unsigned)fields[k].at);
                const ferry_diagnostic *g = find_rule(&d, "value-finite");
                if (g) {
                    CHECK_EQ_U(g->offset, 0x1000 + 8 + 2 * 144 + fields[k].at);
                    CHECK(strcmp(g->path, "0x400/0x10000/0x10007") == 0 && strstr(g->message, "vertex 2") != NULL);
                }
                /* Besides: a position outside the bounds, weights not summing to 1 (warnings). */
                CHECK_EQ_U(errors, error ? 1 : 0);
                CHECK_EQ_U(d.count, 1 + (size_t)position + (size_t)weight);
                ferry_diagnostics_free(&d);
            }
        fixture_init(&f);
        f.bones[1].matrix[7] = bad[b];
        f.bones[1].offset = 0x80;
        CHECK_EQ_U(run(&f, &d, false), 1);
        EXPECT_ONLY(&d, "value-finite", ERR);
        const ferry_diagnostic *g = find_rule(&d, "value-finite");
        if (g) CHECK(g->offset == 0x80 && strstr(g->message, "bone 1 'Body'") && strstr(g->message, "row 1, column 3"));
        ferry_diagnostics_free(&d);

        fixture_init(&f);
        f.params[1].value[0] = bad[b];
        CHECK_EQ_U(run(&f, &d, false), 1);
        EXPECT_ONLY(&d, "value-finite", ERR);
        ferry_diagnostics_free(&d);

        fixture_init(&f);
        f.light.intensity = bad[b];
        CHECK_EQ_U(run(&f, &d, false), 1);
        EXPECT_ONLY(&d, "value-finite", ERR);
        ferry_diagnostics_free(&d);
    }
    /* Huge but finite values are not this rule's business. */
    fixture_init(&f);
    f.params[1].value[0] = 3.4e38f;
    CHECK_EQ_U(run(&f, &d, false), 0);
    CHECK_EQ_U(d.count, 0);
    ferry_diagnostics_free(&d);
}

static void test_robustness(void)
{
    fixture f;
    ferry_diagnostics d;

    /* Counts without arrays are reported, not followed. */
    fixture_init(&f);
    f.submesh.vertices = NULL;
    CHECK_EQ_U(run(&f, &d, false), 1);
    EXPECT_ONLY(&d, "data-missing", ERR);
    ferry_diagnostics_free(&d);

    fixture_init(&f);
    f.tree.nodes = NULL;
    f.model.skeleton.bones = NULL;
    CHECK_EQ_U(run(&f, &d, false), 2);
    EXPECT_ONLY(&d, "data-missing", ERR);
    ferry_diagnostics_free(&d);

    fixture_init(&f);
    f.bones[0].chunk_version = 3;
    CHECK_EQ_U(run(&f, &d, false), 1);
    EXPECT_ONLY(&d, "chunk-version", ERR);
    ferry_diagnostics_free(&d);

    /* Errors are counted even with nowhere to put them. */
    fixture_init(&f);
    f.light.type = 7;
    CHECK_EQ_U(ferry_alo_validate(&f.model, NULL, NULL), 1);
    CHECK_EQ_U(ferry_alo_validate(NULL, NULL, NULL), 0);

    /* An empty model is valid. */
    ferry_alo_model empty;
    memset(&empty, 0, sizeof empty);
    memset(&d, 0, sizeof d);
    CHECK_EQ_U(ferry_alo_validate(&empty, NULL, &d), 0);
    CHECK_EQ_U(d.count, 0);
    ferry_diagnostics_free(&d);
}

int main(void)
{
    test_valid();
    test_bone_parent_order();
    test_index_range();
    test_index_reports_bounded();
    test_bone_mapping();
    test_non_finite();
    test_vertex_bone_index();
    test_bone_weights();
    test_collision();
    test_connections();
    test_object_list();
    test_fixed_sizes();
    test_padding();
    test_light_type();
    test_texture_missing();
    test_billboard();
    test_names();
    test_bounds();
    test_vertex_count();
    test_robustness();
    TEST_END();
}
