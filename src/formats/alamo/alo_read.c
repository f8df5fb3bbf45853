/* ALO model reader: chunk tree -> typed model. Structure problems are
 * located errors; rules about values are left to ferry_alo_validate. */
#include "alo_tables.h"

#include <assert.h>
#include <stdlib.h>

static_assert(sizeof(ferry_alo_vertex) == FERRY_ALO_VERTEX_V2_SIZE, "vertex struct must match the 0x10007 layout");

/* Bytes 0x205/0x10005 lack compared with 0x206/0x10007. */
#define VERTEX_V1_PREFIX 96 /* position .. color */

ferry_alamo_kind ferry_alamo_detect(const uint8_t *data, size_t size)
{
    if (!data || size < 8) return FERRY_ALAMO_UNKNOWN;
    switch (fy_load_u32le(data)) {
    case 0x200: return FERRY_ALAMO_MODEL;
    case 0x900: return FERRY_ALAMO_PARTICLE;
    case 0x1500: return FERRY_ALAMO_PARTICLE_UAW;
    case 0x1000: return FERRY_ALAMO_ANIMATION;
    default: return FERRY_ALAMO_UNKNOWN;
    }
}

const char *ferry_alamo_kind_name(ferry_alamo_kind kind)
{
    switch (kind) {
    case FERRY_ALAMO_MODEL: return "ALO model";
    case FERRY_ALAMO_PARTICLE: return "ALO particle system";
    case FERRY_ALAMO_PARTICLE_UAW: return "ALO particle system (Universe at War, 0x1500)";
    case FERRY_ALAMO_ANIMATION: return "ALA animation";
    default: return "unknown";
    }
}

static size_t count_children(const ferry_chunk *c, uint32_t type)
{
    size_t n = 0;
    for (size_t i = 0; i < c->child_count; i++) n += c->children[i].type == type;
    return n;
}

/* Copies the bytes of a fixed-layout chunk past its known fields. The data
 * pointer is never NULL for a read chunk, so an empty tail stays empty. */
static bool read_extra(fy_alamo_reader *r, const ferry_chunk *c, size_t known, ferry_blob *extra)
{
    if (c->size < known) {
        fy_alamo_fail(r, FERRY_ERR_TRUNCATED, c, c->offset,
                      "chunk 0x%x holds %u bytes; its fields need at least %zu", (unsigned)c->type,
                      (unsigned)c->size, known);
        return false;
    }
    size_t n = c->size - known;
    const uint8_t *p = fy_alamo_copy(r, c, c->data + known, n);
    if (!p) return false;
    extra->data = p;
    extra->size = (uint32_t)n;
    return true;
}

static void load_floats(float *dst, const uint8_t *src, size_t n)
{
    for (size_t i = 0; i < n; i++) dst[i] = fy_bits_f32(fy_load_u32le(src + 4 * i));
}

static bool missing(fy_alamo_reader *r, const ferry_chunk *c, uint32_t type, const char *what)
{
    fy_alamo_fail(r, FERRY_ERR_MALFORMED, c, c->offset, "chunk 0x%x lacks its %s chunk 0x%x", (unsigned)c->type,
                  what, (unsigned)type);
    return false;
}

/* ---- skeleton ---- */

static bool read_bone(fy_alamo_reader *r, const ferry_chunk *c, ferry_alo_bone *bone)
{
    if (!fy_alamo_expect_kind(r, c, true) || !fy_alamo_layout_begin(r, c, &bone->layout)) return false;
    bone->offset = c->offset;
    bool have_name = false, have_data = false;
    for (size_t i = 0; i < c->child_count && !r->failed; i++) {
        const ferry_chunk *ch = &c->children[i];
        if (ch->type == FERRY_ALO_BONE_NAME && !have_name) {
            bone->name = fy_alamo_read_string(r, ch);
            have_name = true;
        } else if ((ch->type == FERRY_ALO_BONE_V2 || ch->type == FERRY_ALO_BONE_V1) && !have_data) {
            bool v2 = ch->type == FERRY_ALO_BONE_V2;
            size_t known = v2 ? FERRY_ALO_BONE_V2_SIZE : FERRY_ALO_BONE_V1_SIZE;
            if (!fy_alamo_expect_kind(r, ch, false) || !read_extra(r, ch, known, &bone->extra)) return false;
            const uint8_t *p = ch->data;
            bone->parent = (int32_t)fy_load_u32le(p);
            bone->visible = fy_load_u32le(p + 4);
            bone->billboard = v2 ? fy_load_u32le(p + 8) : 0;
            load_floats(bone->matrix, p + (v2 ? 12 : 8), 12);
            bone->chunk_version = v2 ? 2 : 1;
            have_data = true;
        } else {
            fy_alamo_keep_unknown(r, ch, &bone->layout);
        }
    }
    if (r->failed) return false;
    if (!have_name) return missing(r, c, FERRY_ALO_BONE_NAME, "name");
    if (!have_data) return missing(r, c, FERRY_ALO_BONE_V2, "bone data");
    return true;
}

static bool read_skeleton(fy_alamo_reader *r, const ferry_chunk *c, ferry_alo_skeleton *sk)
{
    if (!fy_alamo_expect_kind(r, c, true) || !fy_alamo_layout_begin(r, c, &sk->layout)) return false;
    sk->offset = c->offset;
    size_t n = count_children(c, FERRY_ALO_BONE);
    sk->bones = fy_alamo_alloc_array(r, c, n ? n : 1, sizeof *sk->bones);
    if (!sk->bones) return false;
    const ferry_chunk *count_chunk = NULL;
    uint32_t declared = 0;
    for (size_t i = 0; i < c->child_count && !r->failed; i++) {
        const ferry_chunk *ch = &c->children[i];
        if (ch->type == FERRY_ALO_BONE_COUNT && !count_chunk) {
            if (!fy_alamo_expect_kind(r, ch, false) || !read_extra(r, ch, 4, &sk->count_extra)) return false;
            declared = fy_load_u32le(ch->data);
            count_chunk = ch;
        } else if (ch->type == FERRY_ALO_BONE) {
            read_bone(r, ch, &sk->bones[sk->bone_count++]);
        } else {
            fy_alamo_keep_unknown(r, ch, &sk->layout);
        }
    }
    if (r->failed) return false;
    if (!count_chunk) return missing(r, c, FERRY_ALO_BONE_COUNT, "bone count");
    if (declared != sk->bone_count) {
        fy_alamo_fail(r, FERRY_ERR_MALFORMED, count_chunk, count_chunk->offset + 8,
                      "bone count says %u bones but the skeleton holds %zu bone chunks (0x202)",
                      (unsigned)declared, sk->bone_count);
        return false;
    }
    return true;
}

/* ---- materials ---- */

static bool read_material(fy_alamo_reader *r, const ferry_chunk *c, ferry_alo_material *mat)
{
    if (!fy_alamo_expect_kind(r, c, true) || !fy_alamo_layout_begin(r, c, &mat->layout)) return false;
    mat->offset = c->offset;
    size_t n = 0;
    for (size_t i = 0; i < c->child_count; i++) n += fy_alo_param_fields(c->children[i].type) != NULL;
    mat->params = fy_alamo_alloc_array(r, c, n ? n : 1, sizeof *mat->params);
    if (!mat->params) return false;
    bool have_shader = false;
    for (size_t i = 0; i < c->child_count && !r->failed; i++) {
        const ferry_chunk *ch = &c->children[i];
        const fy_mini_field *fields = fy_alo_param_fields(ch->type);
        if (ch->type == FERRY_ALO_SHADER_NAME && !have_shader) {
            mat->shader = fy_alamo_read_string(r, ch);
            have_shader = true;
        } else if (fields) {
            ferry_alo_shader_param *p = &mat->params[mat->param_count++];
            p->type = ch->type;
            p->offset = ch->offset;
            fy_alamo_read_minis(r, ch, fields, 2, p, NULL, &p->layout, "a shader parameter");
        } else {
            fy_alamo_keep_unknown(r, ch, &mat->layout);
        }
    }
    return !r->failed;
}

/* ---- sub-mesh data ---- */

static bool read_vertices(fy_alamo_reader *r, const ferry_chunk *ch, ferry_alo_submesh *sm)
{
    bool v2 = ch->type == FERRY_ALO_VERTEX_BUFFER_V2;
    size_t stride = v2 ? FERRY_ALO_VERTEX_V2_SIZE : FERRY_ALO_VERTEX_V1_SIZE;
    if (!fy_alamo_expect_kind(r, ch, false)) return false;
    if (ch->size % stride) {
        fy_alamo_fail(r, FERRY_ERR_MALFORMED, ch, ch->offset,
                      "vertex buffer of %u bytes is not a whole number of %zu-byte vertices", (unsigned)ch->size,
                      stride);
        return false;
    }
    size_t n = ch->size / stride;
    sm->vertices = fy_alamo_alloc_fill(r, ch, n, sizeof *sm->vertices);
    if (!sm->vertices) return false;
    sm->vertex_count = n;
    sm->vertex_chunk_version = v2 ? 2 : 1;
    sm->source.vertices = ch->offset;
    if (v2 && fy_host_is_le()) {
        memcpy(sm->vertices, ch->data, ch->size);
        return true;
    }
    for (size_t i = 0; i < n; i++) {
        const uint8_t *src = ch->data + i * stride;
        uint32_t words[FERRY_ALO_VERTEX_V2_SIZE / 4] = {0};
        size_t prefix = v2 ? stride : VERTEX_V1_PREFIX;
        for (size_t k = 0; k < prefix / 4; k++) words[k] = fy_load_u32le(src + 4 * k);
        if (!v2) /* skip the absent 'unused' float4, then bone indices and weights */
            for (size_t k = 0; k < 8; k++) words[VERTEX_V1_PREFIX / 4 + 4 + k] = fy_load_u32le(src + VERTEX_V1_PREFIX + 4 * k);
        memcpy(&sm->vertices[i], words, sizeof words);
    }
    return true;
}

static bool read_indices(fy_alamo_reader *r, const ferry_chunk *ch, ferry_alo_submesh *sm)
{
    if (!fy_alamo_expect_kind(r, ch, false)) return false;
    if (ch->size % 6) {
        fy_alamo_fail(r, FERRY_ERR_MALFORMED, ch, ch->offset,
                      "index buffer of %u bytes is not a whole number of triangles (6 bytes each)",
                      (unsigned)ch->size);
        return false;
    }
    size_t n = ch->size / 2;
    sm->indices = fy_alamo_alloc_fill(r, ch, n, sizeof *sm->indices);
    if (!sm->indices) return false;
    if (fy_host_is_le())
        memcpy(sm->indices, ch->data, ch->size);
    else
        for (size_t i = 0; i < n; i++) sm->indices[i] = fy_load_u16le(ch->data + 2 * i);
    sm->triangle_count = n / 3;
    sm->source.indices = ch->offset;
    return true;
}

static bool read_bone_mapping(fy_alamo_reader *r, const ferry_chunk *ch, ferry_alo_submesh *sm)
{
    if (!fy_alamo_expect_kind(r, ch, false)) return false;
    if (ch->size % 4) {
        fy_alamo_fail(r, FERRY_ERR_MALFORMED, ch, ch->offset,
                      "bone mapping of %u bytes is not a whole number of 4-byte bone indices", (unsigned)ch->size);
        return false;
    }
    size_t n = ch->size / 4;
    sm->bone_mapping = fy_alamo_alloc_array(r, ch, n ? n : 1, sizeof *sm->bone_mapping);
    if (!sm->bone_mapping) return false;
    for (size_t i = 0; i < n; i++) sm->bone_mapping[i] = fy_load_u32le(ch->data + 4 * i);
    sm->bone_mapping_count = n;
    sm->has_bone_mapping = true;
    sm->source.bone_mapping = ch->offset;
    return true;
}

static bool read_collision(fy_alamo_reader *r, const ferry_chunk *c, ferry_alo_collision_tree *t)
{
    if (!fy_alamo_expect_kind(r, c, true) || !fy_alamo_layout_begin(r, c, &t->layout)) return false;
    t->offset = c->offset;
    const ferry_chunk *info = NULL, *nodes = NULL, *prims = NULL;
    fy_alo_collision_info ci = {{0}, {0}, 0, 0};
    for (size_t i = 0; i < c->child_count && !r->failed; i++) {
        const ferry_chunk *ch = &c->children[i];
        if (ch->type == FERRY_ALO_COLLISION_INFO && !info) {
            info = ch;
            fy_alamo_read_minis(r, ch, fy_alo_collision_fields, FY_COUNT(fy_alo_collision_fields), &ci, NULL,
                                &t->info_layout, "the collision tree info");
        } else if (ch->type == FERRY_ALO_COLLISION_NODES && !nodes && fy_alamo_expect_kind(r, ch, false)) {
            nodes = ch;
        } else if (ch->type == FERRY_ALO_COLLISION_PRIMITIVES && !prims && fy_alamo_expect_kind(r, ch, false)) {
            prims = ch;
        } else {
            fy_alamo_keep_unknown(r, ch, &t->layout);
        }
    }
    if (r->failed) return false;
    if (!info) return missing(r, c, FERRY_ALO_COLLISION_INFO, "tree info");
    if (!nodes) return missing(r, c, FERRY_ALO_COLLISION_NODES, "tree nodes");
    if (!prims) return missing(r, c, FERRY_ALO_COLLISION_PRIMITIVES, "triangle mapping");
    memcpy(t->box_min, ci.box_min, sizeof t->box_min);
    memcpy(t->box_max, ci.box_max, sizeof t->box_max);
    if ((uint64_t)ci.nodes * 10 != nodes->size) {
        fy_alamo_fail(r, FERRY_ERR_MALFORMED, nodes, nodes->offset,
                      "the tree info announces %u nodes (%llu bytes) but the node chunk holds %u bytes",
                      (unsigned)ci.nodes, (unsigned long long)ci.nodes * 10, (unsigned)nodes->size);
        return false;
    }
    if ((uint64_t)ci.primitives * 2 != prims->size) {
        fy_alamo_fail(r, FERRY_ERR_MALFORMED, prims, prims->offset,
                      "the tree info announces %u primitives (%llu bytes) but the mapping chunk holds %u bytes",
                      (unsigned)ci.primitives, (unsigned long long)ci.primitives * 2, (unsigned)prims->size);
        return false;
    }
    t->nodes = fy_alamo_alloc_array(r, nodes, ci.nodes ? ci.nodes : 1, sizeof *t->nodes);
    t->primitives = fy_alamo_alloc_array(r, prims, ci.primitives ? ci.primitives : 1, sizeof *t->primitives);
    if (!t->nodes || !t->primitives) return false;
    t->node_count = ci.nodes;
    t->primitive_count = ci.primitives;
    for (size_t i = 0; i < t->node_count; i++) {
        const uint8_t *p = nodes->data + 10 * i;
        ferry_alo_collision_node *n = &t->nodes[i];
        memcpy(n->min, p, 3);
        memcpy(n->max, p + 3, 3);
        n->primitive_count = fy_load_u16le(p + 6);
        n->link = fy_load_u16le(p + 8);
    }
    for (size_t i = 0; i < t->primitive_count; i++) t->primitives[i] = fy_load_u16le(prims->data + 2 * i);
    return true;
}

static bool read_submesh_data(fy_alamo_reader *r, const ferry_chunk *c, ferry_alo_submesh *sm)
{
    if (!fy_alamo_expect_kind(r, c, true) || !fy_alamo_layout_begin(r, c, &sm->layout)) return false;
    sm->source.data = c->offset;
    const ferry_chunk *info = NULL, *vertices = NULL, *indices = NULL;
    bool have_format = false, have_mapping = false;
    for (size_t i = 0; i < c->child_count && !r->failed; i++) {
        const ferry_chunk *ch = &c->children[i];
        switch (ch->type) {
        case FERRY_ALO_SUBMESH_INFO:
            if (info) break;
            info = ch;
            if (fy_alamo_expect_kind(r, ch, false)) read_extra(r, ch, 8, &sm->info_extra);
            sm->source.info = ch->offset;
            continue;
        case FERRY_ALO_VERTEX_FORMAT:
            if (have_format) break;
            have_format = true;
            sm->vertex_format = fy_alamo_read_string(r, ch);
            sm->source.vertex_format = ch->offset;
            continue;
        case FERRY_ALO_VERTEX_BUFFER_V1:
        case FERRY_ALO_VERTEX_BUFFER_V2:
            if (vertices) break;
            vertices = ch;
            read_vertices(r, ch, sm);
            continue;
        case FERRY_ALO_INDEX_BUFFER:
            if (indices) break;
            indices = ch;
            read_indices(r, ch, sm);
            continue;
        case FERRY_ALO_BONE_MAPPING:
            if (have_mapping) break;
            have_mapping = true;
            read_bone_mapping(r, ch, sm);
            continue;
        case FERRY_ALO_COLLISION_TREE:
            if (sm->collision) break;
            sm->collision = fy_alamo_alloc(r, ch, sizeof *sm->collision);
            if (sm->collision) read_collision(r, ch, sm->collision);
            continue;
        default: break;
        }
        fy_alamo_keep_unknown(r, ch, &sm->layout);
    }
    if (r->failed) return false;
    if (!info) return missing(r, c, FERRY_ALO_SUBMESH_INFO, "sub-mesh info");
    if (!vertices) return missing(r, c, FERRY_ALO_VERTEX_BUFFER_V2, "vertex buffer");
    if (!indices) return missing(r, c, FERRY_ALO_INDEX_BUFFER, "index buffer");
    uint32_t declared_vertices = fy_load_u32le(info->data), declared_triangles = fy_load_u32le(info->data + 4);
    if (declared_vertices != sm->vertex_count) {
        fy_alamo_fail(r, FERRY_ERR_MALFORMED, info, info->offset + 8,
                      "sub-mesh info announces %u vertices but the vertex buffer holds %zu", (unsigned)declared_vertices,
                      sm->vertex_count);
        return false;
    }
    if (declared_triangles != sm->triangle_count) {
        fy_alamo_fail(r, FERRY_ERR_MALFORMED, info, info->offset + 12,
                      "sub-mesh info announces %u triangles but the index buffer holds %zu",
                      (unsigned)declared_triangles, sm->triangle_count);
        return false;
    }
    return true;
}

/* ---- meshes and lights ---- */

static bool read_mesh(fy_alamo_reader *r, const ferry_chunk *c, ferry_alo_mesh *mesh)
{
    if (!fy_alamo_expect_kind(r, c, true) || !fy_alamo_layout_begin(r, c, &mesh->layout)) return false;
    mesh->offset = c->offset;
    size_t materials = count_children(c, FERRY_ALO_MATERIAL), datas = count_children(c, FERRY_ALO_SUBMESH_DATA);
    if (materials != datas) {
        fy_alamo_fail(r, FERRY_ERR_MALFORMED, c, c->offset,
                      "mesh holds %zu materials (0x10100) but %zu sub-mesh data chunks (0x10000); they come in pairs",
                      materials, datas);
        return false;
    }
    mesh->submeshes = fy_alamo_alloc_array(r, c, materials ? materials : 1, sizeof *mesh->submeshes);
    if (!mesh->submeshes) return false;
    mesh->submesh_count = materials;
    const ferry_chunk *info = NULL;
    bool have_name = false;
    size_t next_material = 0, next_data = 0;
    for (size_t i = 0; i < c->child_count && !r->failed; i++) {
        const ferry_chunk *ch = &c->children[i];
        if (ch->type == FERRY_ALO_MESH_NAME && !have_name) {
            mesh->name = fy_alamo_read_string(r, ch);
            have_name = true;
        } else if (ch->type == FERRY_ALO_MESH_INFO && !info) {
            info = ch;
            mesh->info_offset = ch->offset;
            if (!fy_alamo_expect_kind(r, ch, false) || !read_extra(r, ch, 40, &mesh->info_extra)) return false;
            load_floats(mesh->bounds_min, ch->data + 4, 3);
            load_floats(mesh->bounds_max, ch->data + 16, 3);
            mesh->unused = fy_load_u32le(ch->data + 28);
            mesh->is_hidden = fy_load_u32le(ch->data + 32);
            mesh->collision_enabled = fy_load_u32le(ch->data + 36);
        } else if (ch->type == FERRY_ALO_MATERIAL) {
            read_material(r, ch, &mesh->submeshes[next_material++].material);
        } else if (ch->type == FERRY_ALO_SUBMESH_DATA) {
            read_submesh_data(r, ch, &mesh->submeshes[next_data++]);
        } else {
            fy_alamo_keep_unknown(r, ch, &mesh->layout);
        }
    }
    if (r->failed) return false;
    if (!have_name) return missing(r, c, FERRY_ALO_MESH_NAME, "name");
    if (!info) return missing(r, c, FERRY_ALO_MESH_INFO, "mesh info");
    uint32_t declared = fy_load_u32le(info->data);
    if (declared != mesh->submesh_count) {
        fy_alamo_fail(r, FERRY_ERR_MALFORMED, info, info->offset + 8,
                      "mesh info announces %u materials but the mesh holds %zu material/sub-mesh pairs",
                      (unsigned)declared, mesh->submesh_count);
        return false;
    }
    return true;
}

static bool read_light(fy_alamo_reader *r, const ferry_chunk *c, ferry_alo_light *light)
{
    if (!fy_alamo_expect_kind(r, c, true) || !fy_alamo_layout_begin(r, c, &light->layout)) return false;
    light->offset = c->offset;
    bool have_name = false, have_data = false;
    for (size_t i = 0; i < c->child_count && !r->failed; i++) {
        const ferry_chunk *ch = &c->children[i];
        if (ch->type == FERRY_ALO_LIGHT_NAME && !have_name) {
            light->name = fy_alamo_read_string(r, ch);
            have_name = true;
        } else if (ch->type == FERRY_ALO_LIGHT_DATA && !have_data) {
            have_data = true;
            if (!fy_alamo_expect_kind(r, ch, false) ||
                !read_extra(r, ch, FERRY_ALO_LIGHT_DATA_SIZE, &light->extra))
                return false;
            const uint8_t *p = ch->data;
            light->type = fy_load_u32le(p);
            load_floats(light->color, p + 4, 3);
            float f[5];
            load_floats(f, p + 16, 5);
            light->intensity = f[0];
            light->far_attenuation_end = f[1];
            light->far_attenuation_start = f[2];
            light->hotspot_size = f[3];
            light->falloff_size = f[4];
        } else {
            fy_alamo_keep_unknown(r, ch, &light->layout);
        }
    }
    if (r->failed) return false;
    if (!have_name) return missing(r, c, FERRY_ALO_LIGHT_NAME, "name");
    if (!have_data) return missing(r, c, FERRY_ALO_LIGHT_DATA, "light data");
    return true;
}

/* ---- connections ---- */

static bool read_dazzle(fy_alamo_reader *r, const ferry_chunk *c, ferry_alo_dazzle *dz)
{
    if (!c->is_container) {
        fy_alamo_fail(r, FERRY_ERR_UNSUPPORTED, c, c->offset,
                      "dazzle chunk 0x604 as plain data is not supported; known files wrap its fields in a child chunk of type 0");
        return false;
    }
    if (!fy_alamo_layout_begin(r, c, &dz->outer)) return false;
    dz->offset = c->offset;
    bool have_fields = false;
    for (size_t i = 0; i < c->child_count && !r->failed; i++) {
        const ferry_chunk *ch = &c->children[i];
        if (ch->type == 0 && !have_fields) {
            have_fields = true;
            fy_alamo_read_minis(r, ch, fy_alo_dazzle_fields, FY_COUNT(fy_alo_dazzle_fields), dz, &dz->present,
                                &dz->layout, "a dazzle");
        } else {
            fy_alamo_keep_unknown(r, ch, &dz->outer);
        }
    }
    if (r->failed) return false;
    if (!have_fields) return missing(r, c, 0, "dazzle fields");
    if (!(dz->present & FERRY_ALO_DAZZLE_HAS_BIAS)) dz->bias = 1.0f;
    return true;
}

static bool check_count(fy_alamo_reader *r, const ferry_chunk *counts, uint32_t declared, size_t actual,
                        const char *what, uint32_t type)
{
    if (declared == actual) return true;
    fy_alamo_fail(r, FERRY_ERR_MALFORMED, counts, counts->offset + 8,
                  "connection counts announce %u %s but there are %zu chunks 0x%x", (unsigned)declared, what, actual,
                  (unsigned)type);
    return false;
}

static bool read_connections(fy_alamo_reader *r, const ferry_chunk *c, ferry_alo_connections *cn)
{
    if (!fy_alamo_expect_kind(r, c, true) || !fy_alamo_layout_begin(r, c, &cn->layout)) return false;
    cn->offset = c->offset;
    size_t objects = count_children(c, FERRY_ALO_OBJECT_CONNECTION);
    size_t proxies = count_children(c, FERRY_ALO_PROXY_CONNECTION);
    size_t dazzles = count_children(c, FERRY_ALO_DAZZLE);
    cn->objects = fy_alamo_alloc_array(r, c, objects ? objects : 1, sizeof *cn->objects);
    cn->proxies = fy_alamo_alloc_array(r, c, proxies ? proxies : 1, sizeof *cn->proxies);
    cn->dazzles = fy_alamo_alloc_array(r, c, dazzles ? dazzles : 1, sizeof *cn->dazzles);
    if (r->failed) return false;
    const ferry_chunk *counts = NULL;
    fy_alo_counts declared = {0, 0, 0};
    uint32_t present = 0;
    for (size_t i = 0; i < c->child_count && !r->failed; i++) {
        const ferry_chunk *ch = &c->children[i];
        if (ch->type == FERRY_ALO_CONNECTION_COUNTS && !counts) {
            counts = ch;
            cn->counts_offset = ch->offset;
            fy_alamo_read_minis(r, ch, fy_alo_counts_fields, FY_COUNT(fy_alo_counts_fields), &declared, &present,
                                &cn->counts_layout, "the connection counts");
        } else if (ch->type == FERRY_ALO_OBJECT_CONNECTION) {
            ferry_alo_connection *o = &cn->objects[cn->object_count++];
            o->offset = ch->offset;
            fy_alamo_read_minis(r, ch, fy_alo_connection_fields, FY_COUNT(fy_alo_connection_fields), o, NULL,
                                &o->layout, "an object connection");
        } else if (ch->type == FERRY_ALO_PROXY_CONNECTION) {
            ferry_alo_proxy *p = &cn->proxies[cn->proxy_count++];
            p->offset = ch->offset;
            fy_alamo_read_minis(r, ch, fy_alo_proxy_fields, FY_COUNT(fy_alo_proxy_fields), p, &p->present,
                                &p->layout, "a proxy connection");
        } else if (ch->type == FERRY_ALO_DAZZLE) {
            read_dazzle(r, ch, &cn->dazzles[cn->dazzle_count++]);
        } else {
            fy_alamo_keep_unknown(r, ch, &cn->layout);
        }
    }
    if (r->failed) return false;
    if (!counts) return missing(r, c, FERRY_ALO_CONNECTION_COUNTS, "connection counts");
    cn->has_dazzle_count = (present & FY_ALO_COUNTS_HAS_DAZZLES) != 0;
    if (!check_count(r, counts, declared.objects, cn->object_count, "object connections", FERRY_ALO_OBJECT_CONNECTION) ||
        !check_count(r, counts, declared.proxies, cn->proxy_count, "proxies", FERRY_ALO_PROXY_CONNECTION))
        return false;
    if (cn->has_dazzle_count &&
        !check_count(r, counts, declared.dazzles, cn->dazzle_count, "dazzles", FERRY_ALO_DAZZLE))
        return false;
    return true;
}

/* ---- the model ---- */

static bool read_model(fy_alamo_reader *r, const ferry_chunk_tree *tree, ferry_alo_model *m)
{
    size_t meshes = 0, lights = 0;
    for (size_t i = 0; i < tree->root_count; i++) {
        meshes += tree->roots[i].type == FERRY_ALO_MESH;
        lights += tree->roots[i].type == FERRY_ALO_LIGHT;
    }
    m->meshes = fy_alamo_alloc_array(r, NULL, meshes ? meshes : 1, sizeof *m->meshes);
    m->lights = fy_alamo_alloc_array(r, NULL, lights ? lights : 1, sizeof *m->lights);
    m->objects = fy_alamo_alloc_array(r, NULL, meshes + lights ? meshes + lights : 1, sizeof *m->objects);
    uint32_t *order = fy_alamo_alloc_array(r, NULL, tree->root_count, sizeof *order);
    if (r->failed) return false;
    for (size_t i = 0; i < tree->root_count; i++) order[i] = tree->roots[i].type;
    m->layout.order = order;
    m->layout.order_count = tree->root_count;
    bool have_skeleton = false, have_connections = false;
    for (size_t i = 0; i < tree->root_count && !r->failed; i++) {
        const ferry_chunk *c = &tree->roots[i];
        if (c->type == FERRY_ALO_SKELETON && !have_skeleton) {
            have_skeleton = true;
            read_skeleton(r, c, &m->skeleton);
        } else if (c->type == FERRY_ALO_MESH) {
            m->objects[m->object_count++] = (ferry_alo_object){FERRY_ALO_OBJECT_MESH, m->mesh_count};
            read_mesh(r, c, &m->meshes[m->mesh_count++]);
        } else if (c->type == FERRY_ALO_LIGHT) {
            m->objects[m->object_count++] = (ferry_alo_object){FERRY_ALO_OBJECT_LIGHT, m->light_count};
            read_light(r, c, &m->lights[m->light_count++]);
        } else if (c->type == FERRY_ALO_CONNECTIONS && !have_connections) {
            have_connections = true;
            read_connections(r, c, &m->connections);
        } else {
            /* The root list has no parent chunk: size the unknown list by the roots. */
            if (!m->layout.unknown) {
                m->layout.unknown = fy_alamo_alloc_array(r, NULL, tree->root_count, sizeof(ferry_raw_chunk));
                if (!m->layout.unknown) return false;
            }
            fy_alamo_keep_unknown(r, c, &m->layout);
        }
    }
    if (r->failed) return false;
    if (!have_skeleton) {
        fy_alamo_fail(r, FERRY_ERR_MALFORMED, NULL, 0, "expected a skeleton chunk 0x200 at the top level; none found");
        return false;
    }
    if (!have_connections) {
        fy_alamo_fail(r, FERRY_ERR_MALFORMED, NULL, tree->input_size,
                      "expected a connections chunk 0x600 at the top level; the file ends without one");
        return false;
    }
    return fy_alamo_finish_tails(r, &m->string_tails, &m->string_tail_count);
}

static bool load_model(fy_alamo_reader *r, const ferry_chunk_tree *tree, void *object)
{
    ferry_alo_model *m = object;
    m->arena = r->arena;
    return read_model(r, tree, m);
}

ferry_result ferry_alo_read(const uint8_t *data, size_t size, const ferry_read_options *options,
                            ferry_alo_model **out, ferry_error *err)
{
    ferry_error local;
    if (!err) err = &local;
    fy_error_clear(err);
    *out = NULL;
    ferry_alamo_kind kind = ferry_alamo_detect(data, size);
    if (kind != FERRY_ALAMO_MODEL && kind != FERRY_ALAMO_UNKNOWN) {
        fy_error_set(err, FERRY_ERR_UNSUPPORTED, 0, NULL, "this file is an %s, not an ALO model (first chunk 0x%x)",
                     ferry_alamo_kind_name(kind), (unsigned)fy_load_u32le(data));
        return FERRY_ERR_UNSUPPORTED;
    }
    /* Small models get small blocks; the copies of large arrays get blocks of their own. */
    void *model = NULL;
    ferry_result rc = fy_alamo_load(data, size, options, sizeof(ferry_alo_model), size / 2, load_model, &model, err);
    *out = model;
    return rc;
}

void ferry_alo_free(ferry_alo_model *model)
{
    if (model) ferry_arena_destroy(model->arena);
}
