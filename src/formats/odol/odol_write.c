/* Writing ODOL v40, v48 and v50 files: the reader's layout in reverse.
 * Arrays that carry their stored bytes are copied as they were; others are
 * compressed (LZSS, or LZO1X from v44) when their size calls for it. */
#include "odol_internal.h"

#include <stdlib.h>

static void put_string(ferry_buffer *b, const char *s)
{
    if (!s) s = "";
    fy_buf_append(b, s, strlen(s) + 1);
}

static void put_floats(ferry_buffer *b, const float *v, size_t n)
{
    for (size_t i = 0; i < n; i++) fy_buf_f32le(b, v[i]);
}

static void put_array_body(ferry_buffer *b, const ferry_odol_array *a, size_t elem, uint32_t version)
{
    size_t size = (size_t)a->count * elem;
    if (size == 0) return;
    if (a->stored) {
        fy_buf_append(b, a->stored, a->stored_size);
    } else if (size < FERRY_LZSS_MIN_COMPRESSED_SIZE) {
        fy_buf_append(b, a->data, size);
    } else {
        ferry_error err;
        /* Only running out of memory fails, which marks the buffer. */
        if (fy_odol_uses_lzo(version))
            (void)ferry_lzo_encode(a->data, size, b, &err);
        else
            (void)ferry_lzss_encode(a->data, size, b, &err);
    }
}

static void put_array(ferry_buffer *b, const ferry_odol_array *a, size_t elem, uint32_t version)
{
    fy_buf_u32le(b, a->count);
    put_array_body(b, a, elem, version);
}

static void put_condensed(ferry_buffer *b, const ferry_odol_condensed *a, size_t elem, uint32_t version)
{
    fy_buf_u32le(b, a->array.count);
    fy_buf_u8(b, a->default_fill);
    if (a->default_fill)
        fy_buf_append(b, a->default_value, elem);
    else
        put_array_body(b, &a->array, elem, version);
}

static void put_int_array(ferry_buffer *b, const ferry_odol_int_array *a)
{
    fy_buf_u32le(b, a->count);
    for (uint32_t i = 0; i < a->count; i++) fy_buf_u32le(b, (uint32_t)a->values[i]);
}

static void put_model_info(ferry_buffer *b, const ferry_odol_model_info *mi, uint32_t version)
{
    fy_buf_u32le(b, (uint32_t)mi->special);
    fy_buf_f32le(b, mi->bounding_sphere);
    fy_buf_f32le(b, mi->geometry_sphere);
    fy_buf_u32le(b, (uint32_t)mi->remarks);
    fy_buf_u32le(b, (uint32_t)mi->and_hints);
    fy_buf_u32le(b, (uint32_t)mi->or_hints);
    put_floats(b, mi->aiming_center, 3);
    fy_buf_u32le(b, mi->color);
    fy_buf_u32le(b, mi->color_type);
    fy_buf_f32le(b, mi->view_density);
    put_floats(b, mi->bbox_min, 3);
    put_floats(b, mi->bbox_max, 3);
    put_floats(b, mi->bounding_center, 3);
    put_floats(b, mi->geometry_center, 3);
    put_floats(b, mi->center_of_mass, 3);
    put_floats(b, mi->inv_inertia, 9);
    fy_buf_u8(b, mi->auto_center);
    fy_buf_u8(b, mi->lock_auto_center);
    fy_buf_u8(b, mi->can_occlude);
    fy_buf_u8(b, mi->can_be_occluded);
    if (version >= 42) {
        fy_buf_f32le(b, mi->ht_min);
        fy_buf_f32le(b, mi->ht_max);
        fy_buf_f32le(b, mi->af_max);
        fy_buf_f32le(b, mi->mf_max);
    }
    if (version >= 43) {
        fy_buf_f32le(b, mi->m_fact);
        fy_buf_f32le(b, mi->t_body);
    }
    fy_buf_u8(b, mi->force_not_alpha);
    fy_buf_u32le(b, (uint32_t)mi->sb_source);
    fy_buf_u8(b, mi->prefer_shadow_volume);
    if (version >= 48) fy_buf_f32le(b, mi->shadow_offset);
    fy_buf_u8(b, mi->animated);
    const ferry_odol_skeleton *sk = &mi->skeleton;
    put_string(b, sk->name);
    if (sk->name && sk->name[0]) {
        fy_buf_u8(b, sk->is_discrete);
        fy_buf_u32le(b, sk->bone_count);
        for (uint32_t i = 0; i < sk->bone_count; i++) {
            put_string(b, sk->bones[i].name);
            put_string(b, sk->bones[i].parent);
        }
        if (version > 40) put_string(b, sk->pivots_name);
    }
    fy_buf_u8(b, mi->map_type);
    put_array(b, &mi->mass_array, FY_ODOL_MASS_SIZE, version);
    fy_buf_f32le(b, mi->mass);
    fy_buf_f32le(b, mi->inv_mass);
    fy_buf_f32le(b, mi->armor);
    fy_buf_f32le(b, mi->inv_armor);
    fy_buf_append(b, mi->special_lods, FERRY_ODOL_SPECIAL_LOD_COUNT);
    fy_buf_u32le(b, mi->min_shadow);
    fy_buf_u8(b, mi->can_blend);
    put_string(b, mi->class_name);
    put_string(b, mi->damage);
    fy_buf_u8(b, mi->frequent);
    fy_buf_u32le(b, mi->unused31);
}

static void put_animations(ferry_buffer *b, const ferry_odol_animations *an)
{
    fy_buf_u8(b, an->present);
    if (!an->present) return;
    fy_buf_u32le(b, an->class_count);
    for (uint32_t i = 0; i < an->class_count; i++) {
        const ferry_odol_animation_class *a = &an->classes[i];
        fy_buf_u32le(b, a->type);
        put_string(b, a->name);
        put_string(b, a->source);
        fy_buf_f32le(b, a->min_phase);
        fy_buf_f32le(b, a->max_phase);
        fy_buf_f32le(b, a->min_value);
        fy_buf_f32le(b, a->max_value);
        fy_buf_u32le(b, a->source_address);
        if (a->type <= FERRY_ODOL_ANIM_TRANSLATION_Z) {
            put_floats(b, a->params, 2);
        } else if (a->type == FERRY_ODOL_ANIM_DIRECT) {
            put_floats(b, a->axis_pos, 3);
            put_floats(b, a->axis_dir, 3);
            fy_buf_f32le(b, a->angle);
            fy_buf_f32le(b, a->axis_offset);
        } else {
            fy_buf_f32le(b, a->params[0]);
        }
    }
    fy_buf_u32le(b, an->lod_count);
    for (uint32_t l = 0; l < an->lod_count; l++) {
        fy_buf_u32le(b, an->bone_counts[l]);
        for (uint32_t k = 0; k < an->bone_counts[l]; k++) {
            const ferry_odol_bone_anims *ba = &an->bones_to_anims[l][k];
            fy_buf_u32le(b, ba->count);
            for (uint32_t j = 0; j < ba->count; j++) fy_buf_u32le(b, ba->animations[j]);
        }
    }
    for (uint32_t l = 0; l < an->lod_count; l++) {
        for (uint32_t k = 0; k < an->class_count; k++) {
            const ferry_odol_anim_bone *ab = &an->anims_to_bones[(size_t)l * an->class_count + k];
            fy_buf_u32le(b, (uint32_t)ab->bone);
            uint32_t type = an->classes[k].type;
            if (ab->bone != -1 && type != FERRY_ODOL_ANIM_DIRECT && type != FERRY_ODOL_ANIM_HIDE) {
                put_floats(b, ab->axis_pos, 3);
                put_floats(b, ab->axis_dir, 3);
            }
        }
    }
}

static void put_stage_texture(ferry_buffer *b, const ferry_odol_stage_texture *s, uint32_t version)
{
    if (version >= 5) fy_buf_u32le(b, s->filter);
    put_string(b, s->texture);
    if (version >= 8) fy_buf_u32le(b, s->stage);
}

static void put_stage_transform(ferry_buffer *b, const ferry_odol_stage_transform *t)
{
    fy_buf_u32le(b, t->uv_source);
    put_floats(b, t->transform, 12);
}

static void put_material(ferry_buffer *b, const ferry_odol_material *mt)
{
    put_string(b, mt->name);
    fy_buf_u32le(b, mt->version);
    put_floats(b, mt->emissive, 4);
    put_floats(b, mt->ambient, 4);
    put_floats(b, mt->diffuse, 4);
    put_floats(b, mt->forced_diffuse, 4);
    put_floats(b, mt->specular, 4);
    put_floats(b, mt->specular2, 4);
    fy_buf_f32le(b, mt->specular_power);
    fy_buf_u32le(b, mt->pixel_shader);
    fy_buf_u32le(b, mt->vertex_shader);
    fy_buf_u32le(b, mt->main_light);
    fy_buf_u32le(b, mt->fog_mode);
    if (mt->version == 3) fy_buf_u8(b, mt->unused3);
    if (mt->version >= 6) put_string(b, mt->surface);
    if (mt->version >= 4) {
        fy_buf_u32le(b, mt->render_flag_count);
        fy_buf_u32le(b, mt->render_flags);
    }
    if (mt->version > 6) fy_buf_u32le(b, mt->stage_count);
    if (mt->version > 8) fy_buf_u32le(b, mt->transform_count);
    if (mt->version < 8) {
        for (uint32_t i = 0; i < mt->stage_count; i++) {
            put_stage_transform(b, &mt->transforms[i]);
            put_stage_texture(b, &mt->stages[i], mt->version);
        }
    } else {
        for (uint32_t i = 0; i < mt->stage_count; i++) put_stage_texture(b, &mt->stages[i], mt->version);
        for (uint32_t i = 0; i < mt->transform_count; i++) put_stage_transform(b, &mt->transforms[i]);
    }
    if (mt->version >= 10) put_stage_texture(b, &mt->ti_stage, mt->version);
}

void fy_odol_write_lod(ferry_buffer *b, const ferry_odol_lod *l, uint32_t version, size_t *rest_start)
{
    fy_buf_u32le(b, l->proxy_count);
    for (uint32_t i = 0; i < l->proxy_count; i++) {
        const ferry_odol_proxy *p = &l->proxies[i];
        put_string(b, p->model);
        put_floats(b, p->transform, 12);
        fy_buf_u32le(b, (uint32_t)p->sequence_id);
        fy_buf_u32le(b, (uint32_t)p->selection_index);
        fy_buf_u32le(b, (uint32_t)p->bone_index);
        fy_buf_u32le(b, (uint32_t)p->section_index);
    }
    put_int_array(b, &l->sub_skeleton_to_skeleton);
    fy_buf_u32le(b, l->skeleton_to_sub_skeleton_count);
    for (uint32_t i = 0; i < l->skeleton_to_sub_skeleton_count; i++) put_int_array(b, &l->skeleton_to_sub_skeleton[i]);
    if (version >= 50)
        fy_buf_u32le(b, l->vertex_count);
    else
        put_condensed(b, &l->point_flags, FY_ODOL_POINT_FLAG_SIZE, version);
    fy_buf_u32le(b, (uint32_t)l->or_hints);
    fy_buf_u32le(b, (uint32_t)l->and_hints);
    put_floats(b, l->bmin, 3);
    put_floats(b, l->bmax, 3);
    put_floats(b, l->bcenter, 3);
    fy_buf_f32le(b, l->bradius);
    fy_buf_u32le(b, l->texture_count);
    for (uint32_t i = 0; i < l->texture_count; i++) put_string(b, l->textures[i]);
    fy_buf_u32le(b, l->material_count);
    for (uint32_t i = 0; i < l->material_count; i++) put_material(b, &l->materials[i]);
    put_array(b, &l->point_to_vertex, FY_ODOL_INDEX_SIZE, version);
    put_array(b, &l->vertex_to_point, FY_ODOL_INDEX_SIZE, version);
    fy_buf_u32le(b, l->face_count);
    fy_buf_u32le(b, l->face_block_size);
    fy_buf_u16le(b, l->face_unused);
    /* Room for every face at once (at most 9 bytes each), written in place:
     * a model has tens of thousands. */
    if (l->face_count && fy_buf_reserve(b, (size_t)l->face_count * 9)) {
        uint8_t *p = b->data + b->size;
        for (uint32_t i = 0; i < l->face_count; i++) {
            *p++ = l->faces[i].count;
            for (uint8_t k = 0; k < l->faces[i].count && k < 4; k++) {
                uint16_t v = l->faces[i].vertices[k];
                *p++ = (uint8_t)v;
                *p++ = (uint8_t)(v >> 8);
            }
        }
        b->size = (size_t)(p - b->data);
    }
    fy_buf_u32le(b, l->section_count);
    for (uint32_t i = 0; i < l->section_count; i++) {
        const ferry_odol_section *s = &l->sections[i];
        fy_buf_u32le(b, (uint32_t)s->face_begin);
        fy_buf_u32le(b, (uint32_t)s->face_end);
        fy_buf_u32le(b, (uint32_t)s->min_bone);
        fy_buf_u32le(b, (uint32_t)s->bone_count);
        fy_buf_u32le(b, s->unused);
        fy_buf_u16le(b, (uint16_t)s->texture);
        fy_buf_u32le(b, s->special);
        fy_buf_u32le(b, (uint32_t)s->material);
        if (s->material == -1) put_string(b, s->material_name);
        fy_buf_u32le(b, s->area_count);
        put_floats(b, s->area_over_tex, s->area_count);
    }
    fy_buf_u32le(b, l->selection_count);
    for (uint32_t i = 0; i < l->selection_count; i++) {
        const ferry_odol_selection *s = &l->selections[i];
        put_string(b, s->name);
        put_array(b, &s->faces, FY_ODOL_INDEX_SIZE, version);
        fy_buf_u32le(b, (uint32_t)s->unused);
        fy_buf_u8(b, s->is_sectional);
        put_array(b, &s->sections, FY_ODOL_SECTION_INDEX_SIZE, version);
        put_array(b, &s->vertices, FY_ODOL_INDEX_SIZE, version);
        put_array(b, &s->weights, 1, version);
    }
    fy_buf_u32le(b, l->property_count);
    for (uint32_t i = 0; i < l->property_count; i++) {
        put_string(b, l->properties[i].name);
        put_string(b, l->properties[i].value);
    }
    fy_buf_u32le(b, l->keyframe_count);
    for (uint32_t i = 0; i < l->keyframe_count; i++) {
        fy_buf_f32le(b, l->keyframes[i].time);
        fy_buf_u32le(b, l->keyframes[i].point_count);
        put_floats(b, l->keyframes[i].points, (size_t)l->keyframes[i].point_count * 3);
    }
    fy_buf_u32le(b, (uint32_t)l->color_top);
    fy_buf_u32le(b, (uint32_t)l->color);
    fy_buf_u32le(b, (uint32_t)l->special);
    fy_buf_u8(b, l->vertex_bone_ref_is_simple);
    fy_buf_u32le(b, l->rest_size);
    if (rest_start) *rest_start = b->size;
    if (version >= 50) put_condensed(b, &l->point_flags, FY_ODOL_POINT_FLAG_SIZE, version);
    for (uint32_t i = 0; i < l->uv_set_count; i++) {
        if (version >= 45) {
            static const ferry_odol_uv_range unit = {0.0f, 0.0f, 1.0f, 1.0f};
            const ferry_odol_uv_range *u = l->uv_ranges ? &l->uv_ranges[i] : &unit;
            fy_buf_f32le(b, u->min_u);
            fy_buf_f32le(b, u->min_v);
            fy_buf_f32le(b, u->max_u);
            fy_buf_f32le(b, u->max_v);
        }
        put_condensed(b, &l->uv_sets[i], fy_odol_uv_size(version), version);
        if (i == 0) fy_buf_u32le(b, l->uv_set_count);
    }
    put_array(b, &l->positions, FY_ODOL_POSITION_SIZE, version);
    put_condensed(b, &l->normals, fy_odol_normal_size(version), version);
    put_array(b, &l->st_coords, fy_odol_st_size(version), version);
    put_array(b, &l->vertex_bone_refs, FY_ODOL_BONE_REF_SIZE, version);
    put_array(b, &l->neighbor_bone_refs, FY_ODOL_NEIGHBOR_REF_SIZE, version);
}

void fy_odol_default_order(const ferry_odol_model *m, uint32_t *order)
{
    /* Insertion sort: LOD counts are small, and it keeps ties in index order. */
    for (uint32_t i = 0; i < m->lod_count; i++) {
        uint32_t k = i;
        while (k > 0 && m->resolutions[order[k - 1]] < m->resolutions[i]) {
            order[k] = order[k - 1];
            k--;
        }
        order[k] = i;
    }
}

bool fy_odol_order_ok(const ferry_odol_model *m)
{
    if (!m->storage_order || m->lod_count == 0) return true;
    uint8_t *seen = calloc(m->lod_count, 1);
    bool ok = seen != NULL;
    for (uint32_t i = 0; i < m->lod_count && ok; i++) {
        uint32_t k = m->storage_order[i];
        ok = k < m->lod_count && !seen[k];
        if (ok) seen[k] = 1;
    }
    free(seen);
    return ok;
}

void fy_odol_write_prefix(ferry_buffer *b, const ferry_odol_model *m)
{
    fy_buf_append(b, "ODOL", 4);
    fy_buf_u32le(b, m->version);
    fy_buf_u32le(b, m->lod_count);
    put_floats(b, m->resolutions, m->lod_count);
    put_model_info(b, &m->info, m->version);
    put_animations(b, &m->animations);
    for (uint32_t i = 0; i < m->lod_count; i++) fy_buf_u32le(b, m->lod_starts[i]);
    for (uint32_t i = 0; i < m->lod_count; i++) fy_buf_u32le(b, m->lod_ends[i]);
    for (uint32_t i = 0; i < m->lod_count; i++) fy_buf_u8(b, m->lods[i].permanent);
    for (uint32_t i = 0; i < m->lod_count; i++) {
        const ferry_odol_lod_info *li = &m->lods[i].info;
        if (m->lods[i].permanent) continue;
        fy_buf_u32le(b, (uint32_t)li->face_count);
        fy_buf_u32le(b, li->color);
        fy_buf_u32le(b, (uint32_t)li->special);
        fy_buf_u32le(b, li->or_hints);
        fy_buf_u8(b, li->has_skeleton);
    }
}

ferry_result ferry_odol_write(const ferry_odol_model *m, ferry_buffer *b, ferry_error *err)
{
    fy_error_clear(err);
    if (!ferry_odol_version_supported(m->version)) {
        fy_error_set(err, FERRY_ERR_ARGUMENT, FERRY_NO_OFFSET, NULL,
                     "ODOL version %u cannot be written; only versions 40, 48 and 50", m->version);
        return FERRY_ERR_ARGUMENT;
    }
    for (uint32_t i = 0; i < m->lod_count; i++) {
        if (m->lods[i].uv_set_count == 0) {
            fy_error_set(err, FERRY_ERR_ARGUMENT, FERRY_NO_OFFSET, NULL,
                         "LOD %u has no UV set; the format always stores at least one", i);
            return FERRY_ERR_ARGUMENT;
        }
    }
    if (!fy_odol_order_ok(m)) {
        fy_error_set(err, FERRY_ERR_ARGUMENT, FERRY_NO_OFFSET, NULL,
                     "the LOD storage order is not a permutation of the %u LODs", m->lod_count);
        return FERRY_ERR_ARGUMENT;
    }
    if (m->animations.present && m->animations.lod_count != m->lod_count) {
        fy_error_set(err, FERRY_ERR_ARGUMENT, FERRY_NO_OFFSET, NULL,
                     "the animation bone tables cover %u LODs, the model has %u", m->animations.lod_count, m->lod_count);
        return FERRY_ERR_ARGUMENT;
    }
    uint32_t *order = m->storage_order;
    if (!order && m->lod_count) {
        order = malloc(m->lod_count * sizeof *order);
        if (!order) {
            fy_error_set(err, FERRY_ERR_NOMEM, FERRY_NO_OFFSET, NULL, "out of memory writing the model");
            return FERRY_ERR_NOMEM;
        }
        fy_odol_default_order(m, order);
    }
    fy_odol_write_prefix(b, m);
    for (uint32_t i = 0; i < m->lod_count; i++) fy_odol_write_lod(b, &m->lods[order[i]], m->version, NULL);
    if (order != m->storage_order) free(order);
    if (m->trailing_size) fy_buf_append(b, m->trailing, m->trailing_size);
    if (b->failed) {
        fy_error_set(err, FERRY_ERR_NOMEM, FERRY_NO_OFFSET, NULL, "out of memory writing the model");
        return FERRY_ERR_NOMEM;
    }
    return FERRY_OK;
}
