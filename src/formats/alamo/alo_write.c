/* ALO model writer: typed model -> bytes, following each container's
 * recorded layout so that a read model comes out byte for byte. */
#include "alo_tables.h"

/* Bones and lights are both a container of a name chunk and one data
 * chunk (plus whatever unknown chunks the layout recorded). */
typedef void (*fy_write_body)(fy_alamo_writer *w, const void *item);

static void write_named_container(fy_alamo_writer *w, uint32_t type, const ferry_chunk_layout *layout,
                                  uint32_t name_type, const char *name, uint32_t data_type,
                                  fy_write_body write_data, const void *item)
{
    size_t h = fy_alamo_begin_chunk(w, type);
    fy_layout_walk walk = {layout, 0};
    bool name_done = false, data_done = false;
    for (size_t i = 0; i <= layout->order_count; i++) {
        bool end = i == layout->order_count;
        uint32_t t = end ? 0 : layout->order[i];
        if ((end || t == name_type) && !name_done) {
            fy_alamo_write_string_chunk(w, name_type, name);
            name_done = true;
            if (!end) continue;
        }
        if ((end || t == data_type) && !data_done) {
            size_t d = fy_alamo_begin_chunk(w, data_type);
            write_data(w, item);
            fy_alamo_end_chunk(w, d, false);
            data_done = true;
            if (!end) continue;
        }
        if (!end) fy_layout_take_unknown(w, &walk, t);
    }
    fy_layout_flush_unknown(w, &walk);
    fy_alamo_end_chunk(w, h, true);
}

static void write_bone_data(fy_alamo_writer *w, const void *item)
{
    const ferry_alo_bone *b = item;
    fy_buf_u32le(w->out, (uint32_t)b->parent);
    fy_buf_u32le(w->out, b->visible);
    if (b->chunk_version != 1) fy_buf_u32le(w->out, b->billboard);
    for (int k = 0; k < 12; k++) fy_buf_f32le(w->out, b->matrix[k]);
    fy_alamo_write_extra(w, &b->extra, 0);
}

static void write_bone(fy_alamo_writer *w, const ferry_alo_bone *b)
{
    write_named_container(w, FERRY_ALO_BONE, &b->layout, FERRY_ALO_BONE_NAME, b->name,
                          b->chunk_version == 1 ? FERRY_ALO_BONE_V1 : FERRY_ALO_BONE_V2, write_bone_data, b);
}

static void write_skeleton(fy_alamo_writer *w, const ferry_alo_skeleton *sk)
{
    size_t h = fy_alamo_begin_chunk(w, FERRY_ALO_SKELETON);
    fy_layout_walk walk = {&sk->layout, 0};
    bool count_done = false;
    size_t next_bone = 0;
    for (size_t i = 0; i <= sk->layout.order_count; i++) {
        bool end = i == sk->layout.order_count;
        uint32_t t = end ? 0 : sk->layout.order[i];
        if ((end || t == FERRY_ALO_BONE_COUNT) && !count_done) {
            size_t d = fy_alamo_begin_chunk(w, FERRY_ALO_BONE_COUNT);
            fy_buf_u32le(w->out, (uint32_t)sk->bone_count);
            fy_alamo_write_extra(w, &sk->count_extra, FERRY_ALO_BONE_COUNT_SIZE - 4);
            fy_alamo_end_chunk(w, d, false);
            count_done = true;
            if (!end) continue;
        }
        if (end) {
            while (next_bone < sk->bone_count) write_bone(w, &sk->bones[next_bone++]);
        } else if (t == FERRY_ALO_BONE && next_bone < sk->bone_count) {
            write_bone(w, &sk->bones[next_bone++]);
        } else {
            fy_layout_take_unknown(w, &walk, t);
        }
    }
    fy_layout_flush_unknown(w, &walk);
    fy_alamo_end_chunk(w, h, true);
}

static void write_param(fy_alamo_writer *w, const ferry_alo_shader_param *p)
{
    const fy_mini_field *fields = fy_alo_param_fields(p->type);
    if (!fields) {
        fy_alamo_wfail(w, "shader parameter '%s' has type 0x%x, not one of 0x10102..0x10106",
                       p->name ? p->name : "", (unsigned)p->type);
        return;
    }
    size_t h = fy_alamo_begin_chunk(w, p->type);
    fy_alamo_write_minis(w, fields, 2, p, 0, &p->layout);
    fy_alamo_end_chunk(w, h, false);
}

static void write_material(fy_alamo_writer *w, const ferry_alo_material *m)
{
    size_t h = fy_alamo_begin_chunk(w, FERRY_ALO_MATERIAL);
    fy_layout_walk walk = {&m->layout, 0};
    bool shader_done = false;
    size_t next_param = 0;
    for (size_t i = 0; i <= m->layout.order_count; i++) {
        bool end = i == m->layout.order_count;
        uint32_t t = end ? 0 : m->layout.order[i];
        if ((end || t == FERRY_ALO_SHADER_NAME) && !shader_done) {
            if (m->shader) fy_alamo_write_string_chunk(w, FERRY_ALO_SHADER_NAME, m->shader);
            shader_done = true;
            if (!end) continue;
        }
        if (end) {
            while (next_param < m->param_count) write_param(w, &m->params[next_param++]);
        } else if (fy_alo_param_fields(t) && next_param < m->param_count) {
            write_param(w, &m->params[next_param++]);
        } else {
            fy_layout_take_unknown(w, &walk, t);
        }
    }
    fy_layout_flush_unknown(w, &walk);
    fy_alamo_end_chunk(w, h, true);
}

static void write_vertices(fy_alamo_writer *w, const ferry_alo_submesh *sm)
{
    bool v1 = sm->vertex_chunk_version == 1;
    size_t h = fy_alamo_begin_chunk(w, v1 ? FERRY_ALO_VERTEX_BUFFER_V1 : FERRY_ALO_VERTEX_BUFFER_V2);
    if (!v1 && fy_host_is_le()) {
        fy_buf_append(w->out, sm->vertices, sm->vertex_count * sizeof *sm->vertices);
    } else {
        for (size_t i = 0; i < sm->vertex_count; i++) {
            uint32_t words[FERRY_ALO_VERTEX_V2_SIZE / 4];
            memcpy(words, &sm->vertices[i], sizeof words);
            for (size_t k = 0; k < FERRY_ALO_VERTEX_V2_SIZE / 4; k++) {
                /* 0x10005 has no 'unused' float4 (words 24..27). */
                if (v1 && k >= 24 && k < 28) continue;
                fy_buf_u32le(w->out, words[k]);
            }
        }
    }
    fy_alamo_end_chunk(w, h, false);
}

static void write_collision(fy_alamo_writer *w, const ferry_alo_collision_tree *t)
{
    if (t->node_count > UINT32_MAX || t->primitive_count > UINT32_MAX) {
        fy_alamo_wfail(w, "collision tree too large");
        return;
    }
    size_t h = fy_alamo_begin_chunk(w, FERRY_ALO_COLLISION_TREE);
    fy_layout_walk walk = {&t->layout, 0};
    bool done[3] = {false, false, false};
    for (size_t i = 0; i <= t->layout.order_count; i++) {
        bool end = i == t->layout.order_count;
        uint32_t type = end ? 0 : t->layout.order[i];
        for (int part = 0; part < 3; part++) {
            uint32_t pt = FERRY_ALO_COLLISION_INFO + (uint32_t)part;
            if (done[part] || !(end || type == pt)) continue;
            size_t d = fy_alamo_begin_chunk(w, pt);
            if (part == 0) {
                fy_alo_collision_info ci;
                memcpy(ci.box_min, t->box_min, sizeof ci.box_min);
                memcpy(ci.box_max, t->box_max, sizeof ci.box_max);
                ci.nodes = (uint32_t)t->node_count;
                ci.primitives = (uint32_t)t->primitive_count;
                fy_alamo_write_minis(w, fy_alo_collision_fields, FY_COUNT(fy_alo_collision_fields), &ci, 0,
                                     &t->info_layout);
            } else if (part == 1) {
                for (size_t n = 0; n < t->node_count; n++) {
                    const ferry_alo_collision_node *node = &t->nodes[n];
                    fy_buf_append(w->out, node->min, 3);
                    fy_buf_append(w->out, node->max, 3);
                    fy_buf_u16le(w->out, node->primitive_count);
                    fy_buf_u16le(w->out, node->link);
                }
            } else {
                for (size_t n = 0; n < t->primitive_count; n++) fy_buf_u16le(w->out, t->primitives[n]);
            }
            fy_alamo_end_chunk(w, d, false);
            done[part] = true;
            if (!end) goto next;
        }
        if (!end) fy_layout_take_unknown(w, &walk, type);
    next:;
    }
    fy_layout_flush_unknown(w, &walk);
    fy_alamo_end_chunk(w, h, true);
}

static void write_submesh_data(fy_alamo_writer *w, const ferry_alo_submesh *sm)
{
    if (sm->vertex_count > UINT32_MAX || sm->triangle_count > UINT32_MAX) {
        fy_alamo_wfail(w, "sub-mesh too large");
        return;
    }
    size_t h = fy_alamo_begin_chunk(w, FERRY_ALO_SUBMESH_DATA);
    fy_layout_walk walk = {&sm->layout, 0};
    uint32_t vertex_type = sm->vertex_chunk_version == 1 ? FERRY_ALO_VERTEX_BUFFER_V1 : FERRY_ALO_VERTEX_BUFFER_V2;
    /* Canonical order, as real files have it. */
    const uint32_t canonical[] = {FERRY_ALO_SUBMESH_INFO, FERRY_ALO_VERTEX_FORMAT, vertex_type,
                                  FERRY_ALO_INDEX_BUFFER, FERRY_ALO_BONE_MAPPING, FERRY_ALO_COLLISION_TREE};
    bool done[6] = {false, false, false, false, false, false};
    bool wanted[6] = {true, sm->vertex_format != NULL, true, true, sm->has_bone_mapping || sm->bone_mapping_count,
                      sm->collision != NULL};
    size_t total = sm->layout.order_count + FY_COUNT(canonical);
    for (size_t i = 0; i < total; i++) {
        bool from_layout = i < sm->layout.order_count;
        uint32_t t = from_layout ? sm->layout.order[i] : canonical[i - sm->layout.order_count];
        size_t part = FY_COUNT(canonical);
        for (size_t k = 0; k < FY_COUNT(canonical); k++)
            if (canonical[k] == t) part = k;
        if (part == FY_COUNT(canonical) || done[part] || !wanted[part]) {
            if (from_layout) fy_layout_take_unknown(w, &walk, t);
            continue;
        }
        done[part] = true;
        switch (part) {
        case 0: {
            size_t d = fy_alamo_begin_chunk(w, FERRY_ALO_SUBMESH_INFO);
            fy_buf_u32le(w->out, (uint32_t)sm->vertex_count);
            fy_buf_u32le(w->out, (uint32_t)sm->triangle_count);
            fy_alamo_write_extra(w, &sm->info_extra, FERRY_ALO_SUBMESH_INFO_SIZE - 8);
            fy_alamo_end_chunk(w, d, false);
            break;
        }
        case 1: fy_alamo_write_string_chunk(w, FERRY_ALO_VERTEX_FORMAT, sm->vertex_format); break;
        case 2: write_vertices(w, sm); break;
        case 3: {
            size_t d = fy_alamo_begin_chunk(w, FERRY_ALO_INDEX_BUFFER);
            if (fy_host_is_le())
                fy_buf_append(w->out, sm->indices, sm->triangle_count * 6);
            else
                for (size_t n = 0; n < sm->triangle_count * 3; n++) fy_buf_u16le(w->out, sm->indices[n]);
            fy_alamo_end_chunk(w, d, false);
            break;
        }
        case 4: {
            size_t d = fy_alamo_begin_chunk(w, FERRY_ALO_BONE_MAPPING);
            for (size_t n = 0; n < sm->bone_mapping_count; n++) fy_buf_u32le(w->out, sm->bone_mapping[n]);
            fy_alamo_end_chunk(w, d, false);
            break;
        }
        case 5: write_collision(w, sm->collision); break;
        }
    }
    fy_layout_flush_unknown(w, &walk);
    fy_alamo_end_chunk(w, h, true);
}

static void write_mesh(fy_alamo_writer *w, const ferry_alo_mesh *m)
{
    if (m->submesh_count > UINT32_MAX) {
        fy_alamo_wfail(w, "too many sub-meshes");
        return;
    }
    size_t h = fy_alamo_begin_chunk(w, FERRY_ALO_MESH);
    fy_layout_walk walk = {&m->layout, 0};
    bool name_done = false, info_done = false;
    size_t next_material = 0, next_data = 0;
    for (size_t i = 0; i <= m->layout.order_count; i++) {
        bool end = i == m->layout.order_count;
        uint32_t t = end ? 0 : m->layout.order[i];
        if ((end || t == FERRY_ALO_MESH_NAME) && !name_done) {
            fy_alamo_write_string_chunk(w, FERRY_ALO_MESH_NAME, m->name);
            name_done = true;
            if (!end) continue;
        }
        if ((end || t == FERRY_ALO_MESH_INFO) && !info_done) {
            size_t d = fy_alamo_begin_chunk(w, FERRY_ALO_MESH_INFO);
            fy_buf_u32le(w->out, (uint32_t)m->submesh_count);
            for (int k = 0; k < 3; k++) fy_buf_f32le(w->out, m->bounds_min[k]);
            for (int k = 0; k < 3; k++) fy_buf_f32le(w->out, m->bounds_max[k]);
            fy_buf_u32le(w->out, m->unused);
            fy_buf_u32le(w->out, m->is_hidden);
            fy_buf_u32le(w->out, m->collision_enabled);
            fy_alamo_write_extra(w, &m->info_extra, FERRY_ALO_MESH_INFO_SIZE - 40);
            fy_alamo_end_chunk(w, d, false);
            info_done = true;
            if (!end) continue;
        }
        if (end) {
            /* Each material is followed by its data, as the game expects. */
            while (next_material < m->submesh_count || next_data < m->submesh_count) {
                if (next_material < m->submesh_count && next_material <= next_data)
                    write_material(w, &m->submeshes[next_material++].material);
                else
                    write_submesh_data(w, &m->submeshes[next_data++]);
            }
        } else if (t == FERRY_ALO_MATERIAL && next_material < m->submesh_count) {
            write_material(w, &m->submeshes[next_material++].material);
        } else if (t == FERRY_ALO_SUBMESH_DATA && next_data < m->submesh_count) {
            write_submesh_data(w, &m->submeshes[next_data++]);
        } else {
            fy_layout_take_unknown(w, &walk, t);
        }
    }
    fy_layout_flush_unknown(w, &walk);
    fy_alamo_end_chunk(w, h, true);
}

static void write_light_data(fy_alamo_writer *w, const void *item)
{
    const ferry_alo_light *l = item;
    fy_buf_u32le(w->out, l->type);
    for (int k = 0; k < 3; k++) fy_buf_f32le(w->out, l->color[k]);
    fy_buf_f32le(w->out, l->intensity);
    fy_buf_f32le(w->out, l->far_attenuation_end);
    fy_buf_f32le(w->out, l->far_attenuation_start);
    fy_buf_f32le(w->out, l->hotspot_size);
    fy_buf_f32le(w->out, l->falloff_size);
    fy_alamo_write_extra(w, &l->extra, 0);
}

static void write_light(fy_alamo_writer *w, const ferry_alo_light *l)
{
    write_named_container(w, FERRY_ALO_LIGHT, &l->layout, FERRY_ALO_LIGHT_NAME, l->name, FERRY_ALO_LIGHT_DATA,
                          write_light_data, l);
}

static void write_dazzle(fy_alamo_writer *w, const ferry_alo_dazzle *dz)
{
    size_t h = fy_alamo_begin_chunk(w, FERRY_ALO_DAZZLE);
    fy_layout_walk walk = {&dz->outer, 0};
    bool fields_done = false;
    for (size_t i = 0; i <= dz->outer.order_count; i++) {
        bool end = i == dz->outer.order_count;
        uint32_t t = end ? 0 : dz->outer.order[i];
        if (t == 0 && !fields_done) {
            size_t d = fy_alamo_begin_chunk(w, 0);
            fy_alamo_write_minis(w, fy_alo_dazzle_fields, FY_COUNT(fy_alo_dazzle_fields), dz, dz->present, &dz->layout);
            fy_alamo_end_chunk(w, d, false);
            fields_done = true;
            continue;
        }
        if (!end) fy_layout_take_unknown(w, &walk, t);
    }
    fy_layout_flush_unknown(w, &walk);
    fy_alamo_end_chunk(w, h, true);
}

static void write_connections(fy_alamo_writer *w, const ferry_alo_model *model)
{
    const ferry_alo_connections *cn = &model->connections;
    if (cn->object_count > UINT32_MAX || cn->proxy_count > UINT32_MAX || cn->dazzle_count > UINT32_MAX) {
        fy_alamo_wfail(w, "too many connections");
        return;
    }
    size_t h = fy_alamo_begin_chunk(w, FERRY_ALO_CONNECTIONS);
    fy_layout_walk walk = {&cn->layout, 0};
    bool counts_done = false;
    size_t next[3] = {0, 0, 0};
    for (size_t i = 0; i <= cn->layout.order_count; i++) {
        bool end = i == cn->layout.order_count;
        uint32_t t = end ? 0 : cn->layout.order[i];
        if ((end || t == FERRY_ALO_CONNECTION_COUNTS) && !counts_done) {
            fy_alo_counts counts = {(uint32_t)cn->object_count, (uint32_t)cn->proxy_count, (uint32_t)cn->dazzle_count};
            /* A model built by hand (no recorded layout) states the dazzle
             * count whenever it has dazzles; a read one keeps what it had. */
            bool with_dazzles = cn->has_dazzle_count || (cn->counts_layout.order_count == 0 && cn->dazzle_count);
            size_t d = fy_alamo_begin_chunk(w, FERRY_ALO_CONNECTION_COUNTS);
            fy_alamo_write_minis(w, fy_alo_counts_fields, FY_COUNT(fy_alo_counts_fields), &counts,
                                 with_dazzles ? FY_ALO_COUNTS_HAS_DAZZLES : 0, &cn->counts_layout);
            fy_alamo_end_chunk(w, d, false);
            counts_done = true;
            if (!end) continue;
        }
        bool obj = end || t == FERRY_ALO_OBJECT_CONNECTION;
        bool prx = end || t == FERRY_ALO_PROXY_CONNECTION;
        bool dzl = end || t == FERRY_ALO_DAZZLE;
        size_t limit = end ? SIZE_MAX : 1;
        size_t written = 0;
        for (; obj && next[0] < cn->object_count && written < limit; written++) {
            const ferry_alo_connection *o = &cn->objects[next[0]++];
            size_t d = fy_alamo_begin_chunk(w, FERRY_ALO_OBJECT_CONNECTION);
            fy_alamo_write_minis(w, fy_alo_connection_fields, FY_COUNT(fy_alo_connection_fields), o, 0, &o->layout);
            fy_alamo_end_chunk(w, d, false);
        }
        if (!end && written) continue;
        for (; prx && next[1] < cn->proxy_count && written < limit; written++) {
            const ferry_alo_proxy *p = &cn->proxies[next[1]++];
            size_t d = fy_alamo_begin_chunk(w, FERRY_ALO_PROXY_CONNECTION);
            fy_alamo_write_minis(w, fy_alo_proxy_fields, FY_COUNT(fy_alo_proxy_fields), p, p->present, &p->layout);
            fy_alamo_end_chunk(w, d, false);
        }
        if (!end && written) continue;
        for (; dzl && next[2] < cn->dazzle_count && written < limit; written++) write_dazzle(w, &cn->dazzles[next[2]++]);
        if (!end && !written) fy_layout_take_unknown(w, &walk, t);
    }
    fy_layout_flush_unknown(w, &walk);
    fy_alamo_end_chunk(w, h, true);
}

static void write_object(fy_alamo_writer *w, const ferry_alo_model *m, const ferry_alo_object *o)
{
    if (o->kind == FERRY_ALO_OBJECT_MESH && o->index < m->mesh_count)
        write_mesh(w, &m->meshes[o->index]);
    else if (o->kind == FERRY_ALO_OBJECT_LIGHT && o->index < m->light_count)
        write_light(w, &m->lights[o->index]);
    else
        fy_alamo_wfail(w, "object entry refers to a %s %zu that does not exist",
                       o->kind == FERRY_ALO_OBJECT_MESH ? "mesh" : "light", o->index);
}

ferry_result ferry_alo_write(const ferry_alo_model *model, ferry_buffer *out, ferry_error *err)
{
    ferry_error local;
    if (!err) err = &local;
    fy_error_clear(err);
    fy_alamo_writer w = {out, err, false, model->string_tails, model->string_tail_count};
    size_t object_total = ferry_alo_object_count(model);
    fy_layout_walk walk = {&model->layout, 0};
    bool skeleton_done = false, connections_done = false;
    size_t next_object = 0;
    for (size_t i = 0; i <= model->layout.order_count && !w.failed; i++) {
        bool end = i == model->layout.order_count;
        uint32_t t = end ? 0 : model->layout.order[i];
        if ((end || t == FERRY_ALO_SKELETON) && !skeleton_done) {
            write_skeleton(&w, &model->skeleton);
            skeleton_done = true;
            if (!end) continue;
        }
        if (end || t == FERRY_ALO_MESH || t == FERRY_ALO_LIGHT) {
            bool wrote = false;
            while (next_object < object_total && (end || !wrote)) {
                ferry_alo_object o = ferry_alo_object_at(model, next_object++);
                write_object(&w, model, &o);
                wrote = true;
            }
            if (!end) {
                if (!wrote) fy_layout_take_unknown(&w, &walk, t);
                continue;
            }
        }
        if ((end || t == FERRY_ALO_CONNECTIONS) && !connections_done) {
            write_connections(&w, model);
            connections_done = true;
            if (!end) continue;
        }
        if (!end) fy_layout_take_unknown(&w, &walk, t);
    }
    fy_layout_flush_unknown(&w, &walk);
    if (out->failed && !w.failed) fy_error_set(err, FERRY_ERR_NOMEM, FERRY_NO_OFFSET, NULL, "out of memory writing the model");
    return err->code;
}
