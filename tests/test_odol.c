/* The ODOL v40 samples (samples/odol, built by tools/odol_samples.c):
 *  - the committed files are exactly what the builder makes now;
 *  - each sample reads back equal to what was built, field by field
 *    (floats bit for bit), and what was read writes back the same bytes;
 *  - every array decodes to the built bytes; arrays of 1024 bytes and
 *    more are stored compressed (their stream decodes with
 *    ferry_lzss_decode), smaller ones raw, and between them the samples
 *    hold each kind of array in both forms;
 *  - the stored layout (LOD offsets, face block and rest sizes) that
 *    ferry_odol_update computes equals the builder's own count, and agrees
 *    with where the reader found things;
 *  - hand-stated values: counts, face corners, a few values per array,
 *    and the features the real files lack (all ten animation types,
 *    keyframes, proxies, ...). */
#include <ferry/convert.h>
#include <math.h>
#include <ferry/lzss.h>
#include <ferry/odol.h>

#include "../tools/odol_samples.h"
#include "support.h"
#include "test.h"

/* ---- field by field ---- */

static void same_u(const char *where, const char *what, unsigned long long want, unsigned long long got)
{
    CHECK_MSG(want == got, "%s: %s: expected %llu, read %llu", where, what, want, got);
}

static void same_f(const char *where, const char *what, const float *want, const float *got, size_t n)
{
    CHECK_MSG(n == 0 || memcmp(want, got, n * sizeof *want) == 0, "%s: %s: expected %g.., read %g..", where, what,
              n ? (double)want[0] : 0.0, n ? (double)got[0] : 0.0);
}

static void same_s(const char *where, const char *what, const char *want, const char *got)
{
    if (!want) want = "";
    CHECK_MSG(got && strcmp(want, got) == 0, "%s: %s: expected '%s', read '%s'", where, what, want, got ? got : "(null)");
}

/* Which kinds of potentially compressed array were seen raw and compressed. */
enum {
    K_MASS,
    K_POINT_FLAGS,
    K_POINT_TO_VERTEX,
    K_VERTEX_TO_POINT,
    K_SEL_FACES,
    K_SEL_SECTIONS,
    K_SEL_VERTICES,
    K_SEL_WEIGHTS,
    K_UV,
    K_POSITIONS,
    K_NORMALS,
    K_ST,
    K_BONE_REFS,
    K_NEIGHBOR_REFS,
    K_COUNT
};
static const char *kind_names[K_COUNT] = {"mass",     "point flags", "point-to-vertex", "vertex-to-point", "selection faces",
                                          "selection sections", "selection vertices", "selection weights", "UV set",
                                          "positions", "normals", "st coords", "vertex bone refs", "neighbour bone refs"};
static bool seen_raw[K_COUNT], seen_compressed[K_COUNT];
static size_t arrays_checked, arrays_compressed, bytes_decoded;

/* The read array holds the built bytes; its stored form is raw under 1024
 * bytes, an LZSS stream (that ferry_lzss_decode turns back into the built
 * bytes, with nothing left over) from 1024 on. */
static void same_array(const char *where, const char *what, int kind, const ferry_odol_array *want,
                       const ferry_odol_array *got, size_t elem)
{
    same_u(where, what, want->count, got->count);
    if (want->count != got->count) return;
    size_t size = (size_t)want->count * elem;
    CHECK_MSG(size == 0 || (got->data && memcmp(want->data, got->data, size) == 0), "%s: %s: decoded bytes differ",
              where, what);
    arrays_checked++;
    if (size == 0) return;
    if (size < FERRY_LZSS_MIN_COMPRESSED_SIZE) {
        CHECK_MSG(got->stored_size == size && got->stored && memcmp(got->stored, want->data, size) == 0,
                  "%s: %s: %zu bytes should be stored raw (stored %zu)", where, what, size, got->stored_size);
        seen_raw[kind] = true;
        return;
    }
    CHECK_MSG(got->stored_size != size && got->stored_size >= 5, "%s: %s: %zu bytes should be stored compressed",
              where, what, size);
    uint8_t *out = malloc(size);
    size_t consumed = 0;
    ferry_error err;
    ferry_result rc = ferry_lzss_decode(got->stored, got->stored_size, size, out, &consumed, &err);
    CHECK_MSG(rc == FERRY_OK, "%s: %s: the stored stream does not decode: %s", where, what, err.message);
    if (rc == FERRY_OK) {
        CHECK_MSG(consumed == got->stored_size, "%s: %s: %zu of %zu stored bytes used", where, what, consumed,
                  got->stored_size);
        CHECK_MSG(memcmp(out, want->data, size) == 0, "%s: %s: stream decodes to other bytes", where, what);
    }
    free(out);
    seen_compressed[kind] = true;
    arrays_compressed++;
    bytes_decoded += size;
}

static void same_condensed(const char *where, const char *what, int kind, const ferry_odol_condensed *want,
                           const ferry_odol_condensed *got, size_t elem)
{
    same_u(where, what, want->default_fill, got->default_fill);
    if (want->default_fill != got->default_fill) return;
    if (want->default_fill) {
        same_u(where, what, want->array.count, got->array.count);
        CHECK_MSG(memcmp(want->default_value, got->default_value, elem) == 0, "%s: %s: default value differs", where,
                  what);
        CHECK_MSG(got->array.data == NULL, "%s: %s: a filled array has data", where, what);
    } else {
        same_array(where, what, kind, &want->array, &got->array, elem);
    }
}

static void same_ints(const char *where, const char *what, const ferry_odol_int_array *want,
                      const ferry_odol_int_array *got)
{
    same_u(where, what, want->count, got->count);
    for (uint32_t i = 0; i < want->count && i < got->count; i++)
        same_u(where, what, (uint32_t)want->values[i], (uint32_t)got->values[i]);
}

static void compare_info(const char *file, const ferry_odol_model_info *w, const ferry_odol_model_info *g)
{
    same_u(file, "special", (uint32_t)w->special, (uint32_t)g->special);
    same_f(file, "spheres", &w->bounding_sphere, &g->bounding_sphere, 1);
    same_f(file, "spheres", &w->geometry_sphere, &g->geometry_sphere, 1);
    same_u(file, "remarks", (uint32_t)w->remarks, (uint32_t)g->remarks);
    same_u(file, "hints", (uint32_t)w->and_hints, (uint32_t)g->and_hints);
    same_u(file, "hints", (uint32_t)w->or_hints, (uint32_t)g->or_hints);
    same_f(file, "aiming center", w->aiming_center, g->aiming_center, 3);
    same_u(file, "color", w->color, g->color);
    same_u(file, "color type", w->color_type, g->color_type);
    same_f(file, "view density", &w->view_density, &g->view_density, 1);
    same_f(file, "bbox", w->bbox_min, g->bbox_min, 3);
    same_f(file, "bbox", w->bbox_max, g->bbox_max, 3);
    same_f(file, "centers", w->bounding_center, g->bounding_center, 3);
    same_f(file, "centers", w->geometry_center, g->geometry_center, 3);
    same_f(file, "centers", w->center_of_mass, g->center_of_mass, 3);
    same_f(file, "inertia", w->inv_inertia, g->inv_inertia, 9);
    const uint8_t wf[] = {w->auto_center, w->lock_auto_center, w->can_occlude, w->can_be_occluded, w->force_not_alpha,
                          w->prefer_shadow_volume, w->animated, w->map_type, w->can_blend, w->frequent};
    const uint8_t gf[] = {g->auto_center, g->lock_auto_center, g->can_occlude, g->can_be_occluded, g->force_not_alpha,
                          g->prefer_shadow_volume, g->animated, g->map_type, g->can_blend, g->frequent};
    CHECK_MSG(memcmp(wf, gf, sizeof wf) == 0, "%s: model info flags differ", file);
    same_u(file, "sb source", (uint32_t)w->sb_source, (uint32_t)g->sb_source);
    same_s(file, "skeleton", w->skeleton.name, g->skeleton.name);
    same_u(file, "discrete", w->skeleton.is_discrete, g->skeleton.is_discrete);
    same_u(file, "bone count", w->skeleton.bone_count, g->skeleton.bone_count);
    for (uint32_t i = 0; i < w->skeleton.bone_count && i < g->skeleton.bone_count; i++) {
        same_s(file, "bone", w->skeleton.bones[i].name, g->skeleton.bones[i].name);
        same_s(file, "parent", w->skeleton.bones[i].parent, g->skeleton.bones[i].parent);
    }
    same_array(file, "mass array", K_MASS, &w->mass_array, &g->mass_array, 4);
    same_f(file, "mass", &w->mass, &g->mass, 1);
    same_f(file, "mass", &w->inv_mass, &g->inv_mass, 1);
    same_f(file, "armor", &w->armor, &g->armor, 1);
    same_f(file, "armor", &w->inv_armor, &g->inv_armor, 1);
    CHECK_MSG(memcmp(w->special_lods, g->special_lods, sizeof w->special_lods) == 0, "%s: named LODs differ", file);
    same_u(file, "min shadow", w->min_shadow, g->min_shadow);
    same_s(file, "class", w->class_name, g->class_name);
    same_s(file, "damage", w->damage, g->damage);
    same_u(file, "reserved", w->unused31, g->unused31);
}

static void compare_animations(const char *file, const ferry_odol_animations *w, const ferry_odol_animations *g)
{
    same_u(file, "animations", w->present, g->present);
    if (!w->present || !g->present) return;
    same_u(file, "class count", w->class_count, g->class_count);
    for (uint32_t k = 0; k < w->class_count && k < g->class_count; k++) {
        const ferry_odol_animation_class *a = &w->classes[k], *b = &g->classes[k];
        char where[160];
        snprintf(where, sizeof where, "%s class %u", file, k);
        same_u(where, "type", a->type, b->type);
        same_s(where, "name", a->name, b->name);
        same_s(where, "source", a->source, b->source);
        same_f(where, "phase", &a->min_phase, &b->min_phase, 1);
        same_f(where, "phase", &a->max_phase, &b->max_phase, 1);
        same_f(where, "value", &a->min_value, &b->min_value, 1);
        same_f(where, "value", &a->max_value, &b->max_value, 1);
        same_u(where, "address", a->source_address, b->source_address);
        same_f(where, "params", a->params, b->params, 2);
        same_f(where, "axis", a->axis_pos, b->axis_pos, 3);
        same_f(where, "axis", a->axis_dir, b->axis_dir, 3);
        same_f(where, "angle", &a->angle, &b->angle, 1);
        same_f(where, "offset", &a->axis_offset, &b->axis_offset, 1);
    }
    same_u(file, "bone table LODs", w->lod_count, g->lod_count);
    for (uint32_t l = 0; l < w->lod_count && l < g->lod_count; l++) {
        char where[160];
        snprintf(where, sizeof where, "%s bone table %u", file, l);
        same_u(where, "bones", w->bone_counts[l], g->bone_counts[l]);
        for (uint32_t b = 0; b < w->bone_counts[l] && b < g->bone_counts[l]; b++) {
            const ferry_odol_bone_anims *x = &w->bones_to_anims[l][b], *y = &g->bones_to_anims[l][b];
            same_u(where, "animations of a bone", x->count, y->count);
            for (uint32_t j = 0; j < x->count && j < y->count; j++)
                same_u(where, "animation", x->animations[j], y->animations[j]);
        }
        for (uint32_t k = 0; k < w->class_count && k < g->class_count; k++) {
            const ferry_odol_anim_bone *x = &w->anims_to_bones[l * w->class_count + k];
            const ferry_odol_anim_bone *y = &g->anims_to_bones[l * g->class_count + k];
            same_u(where, "bone of a class", (uint32_t)x->bone, (uint32_t)y->bone);
            same_f(where, "axis position", x->axis_pos, y->axis_pos, 3);
            same_f(where, "axis direction", x->axis_dir, y->axis_dir, 3);
        }
    }
}

static void compare_stage(const char *where, const ferry_odol_stage_texture *a, const ferry_odol_stage_texture *b)
{
    same_u(where, "filter", a->filter, b->filter);
    same_s(where, "texture", a->texture, b->texture);
    same_u(where, "stage", a->stage, b->stage);
}

static void compare_material(const char *where, const ferry_odol_material *a, const ferry_odol_material *b)
{
    same_s(where, "name", a->name, b->name);
    same_u(where, "version", a->version, b->version);
    same_f(where, "colours", a->emissive, b->emissive, 4);
    same_f(where, "colours", a->ambient, b->ambient, 4);
    same_f(where, "colours", a->diffuse, b->diffuse, 4);
    same_f(where, "colours", a->forced_diffuse, b->forced_diffuse, 4);
    same_f(where, "colours", a->specular, b->specular, 4);
    same_f(where, "colours", a->specular2, b->specular2, 4);
    same_f(where, "power", &a->specular_power, &b->specular_power, 1);
    same_u(where, "shaders", a->pixel_shader, b->pixel_shader);
    same_u(where, "shaders", a->vertex_shader, b->vertex_shader);
    same_u(where, "light", a->main_light, b->main_light);
    same_u(where, "fog", a->fog_mode, b->fog_mode);
    same_s(where, "surface", a->surface, b->surface);
    same_u(where, "render flags", a->render_flag_count, b->render_flag_count);
    same_u(where, "render flags", a->render_flags, b->render_flags);
    same_u(where, "stages", a->stage_count, b->stage_count);
    for (uint32_t i = 0; i < a->stage_count && i < b->stage_count; i++) compare_stage(where, &a->stages[i], &b->stages[i]);
    same_u(where, "transforms", a->transform_count, b->transform_count);
    for (uint32_t i = 0; i < a->transform_count && i < b->transform_count; i++) {
        same_u(where, "uv source", a->transforms[i].uv_source, b->transforms[i].uv_source);
        same_f(where, "transform", a->transforms[i].transform, b->transforms[i].transform, 12);
    }
}

static void compare_lod(const char *where, const ferry_odol_lod *w, const ferry_odol_lod *g)
{
    char at[200];
    same_f(where, "resolution", &w->resolution, &g->resolution, 1);
    same_u(where, "permanent", w->permanent, g->permanent);
    if (!w->permanent) {
        same_u(where, "info faces", (uint32_t)w->info.face_count, (uint32_t)g->info.face_count);
        same_u(where, "info colour", w->info.color, g->info.color);
        same_u(where, "info special", (uint32_t)w->info.special, (uint32_t)g->info.special);
        same_u(where, "info hints", w->info.or_hints, g->info.or_hints);
        same_u(where, "info skeleton", w->info.has_skeleton, g->info.has_skeleton);
    }
    same_u(where, "proxies", w->proxy_count, g->proxy_count);
    for (uint32_t i = 0; i < w->proxy_count && i < g->proxy_count; i++) {
        const ferry_odol_proxy *a = &w->proxies[i], *b = &g->proxies[i];
        same_s(where, "proxy model", a->model, b->model);
        same_f(where, "proxy transform", a->transform, b->transform, 12);
        const int32_t x[4] = {a->sequence_id, a->selection_index, a->bone_index, a->section_index};
        const int32_t y[4] = {b->sequence_id, b->selection_index, b->bone_index, b->section_index};
        CHECK_MSG(memcmp(x, y, sizeof x) == 0, "%s: proxy %u indices differ", where, i);
    }
    same_ints(where, "sub-skeleton", &w->sub_skeleton_to_skeleton, &g->sub_skeleton_to_skeleton);
    same_u(where, "skeleton to sub-skeleton", w->skeleton_to_sub_skeleton_count, g->skeleton_to_sub_skeleton_count);
    for (uint32_t i = 0; i < w->skeleton_to_sub_skeleton_count && i < g->skeleton_to_sub_skeleton_count; i++)
        same_ints(where, "skeleton to sub-skeleton", &w->skeleton_to_sub_skeleton[i], &g->skeleton_to_sub_skeleton[i]);
    same_condensed(where, "point flags", K_POINT_FLAGS, &w->point_flags, &g->point_flags, 4);
    same_u(where, "hints", (uint32_t)w->or_hints, (uint32_t)g->or_hints);
    same_u(where, "hints", (uint32_t)w->and_hints, (uint32_t)g->and_hints);
    same_f(where, "bounds", w->bmin, g->bmin, 3);
    same_f(where, "bounds", w->bmax, g->bmax, 3);
    same_f(where, "bounds", w->bcenter, g->bcenter, 3);
    same_f(where, "bounds", &w->bradius, &g->bradius, 1);
    same_u(where, "textures", w->texture_count, g->texture_count);
    for (uint32_t i = 0; i < w->texture_count && i < g->texture_count; i++)
        same_s(where, "texture", w->textures[i], g->textures[i]);
    same_u(where, "materials", w->material_count, g->material_count);
    for (uint32_t i = 0; i < w->material_count && i < g->material_count; i++) {
        snprintf(at, sizeof at, "%s material %u", where, i);
        compare_material(at, &w->materials[i], &g->materials[i]);
    }
    same_array(where, "point-to-vertex", K_POINT_TO_VERTEX, &w->point_to_vertex, &g->point_to_vertex, 2);
    same_array(where, "vertex-to-point", K_VERTEX_TO_POINT, &w->vertex_to_point, &g->vertex_to_point, 2);
    same_u(where, "face count", w->face_count, g->face_count);
    same_u(where, "face block", w->face_block_size, g->face_block_size);
    same_u(where, "face reserved", w->face_unused, g->face_unused);
    for (uint32_t i = 0; i < w->face_count && i < g->face_count; i++) {
        const ferry_odol_face *a = &w->faces[i], *b = &g->faces[i];
        bool same = a->count == b->count && memcmp(a->vertices, b->vertices, 2u * a->count) == 0;
        CHECK_MSG(same, "%s: face %u differs", where, i);
    }
    same_u(where, "sections", w->section_count, g->section_count);
    for (uint32_t i = 0; i < w->section_count && i < g->section_count; i++) {
        const ferry_odol_section *a = &w->sections[i], *b = &g->sections[i];
        snprintf(at, sizeof at, "%s section %u", where, i);
        const int32_t x[6] = {a->face_begin, a->face_end, a->min_bone, a->bone_count, (int32_t)a->unused, a->material};
        const int32_t y[6] = {b->face_begin, b->face_end, b->min_bone, b->bone_count, (int32_t)b->unused, b->material};
        CHECK_MSG(memcmp(x, y, sizeof x) == 0, "%s: fields differ", at);
        same_u(at, "texture", (uint16_t)a->texture, (uint16_t)b->texture);
        same_u(at, "special", a->special, b->special);
        if (a->material == -1) same_s(at, "material name", a->material_name, b->material_name);
        same_u(at, "areas", a->area_count, b->area_count);
        if (a->area_count == b->area_count) same_f(at, "areas", a->area_over_tex, b->area_over_tex, a->area_count);
    }
    same_u(where, "selections", w->selection_count, g->selection_count);
    for (uint32_t i = 0; i < w->selection_count && i < g->selection_count; i++) {
        const ferry_odol_selection *a = &w->selections[i], *b = &g->selections[i];
        snprintf(at, sizeof at, "%s selection %u", where, i);
        same_s(at, "name", a->name, b->name);
        same_array(at, "faces", K_SEL_FACES, &a->faces, &b->faces, 2);
        same_u(at, "reserved", (uint32_t)a->unused, (uint32_t)b->unused);
        same_u(at, "sectional", a->is_sectional, b->is_sectional);
        same_array(at, "sections", K_SEL_SECTIONS, &a->sections, &b->sections, 4);
        same_array(at, "vertices", K_SEL_VERTICES, &a->vertices, &b->vertices, 2);
        same_array(at, "weights", K_SEL_WEIGHTS, &a->weights, &b->weights, 1);
    }
    same_u(where, "properties", w->property_count, g->property_count);
    for (uint32_t i = 0; i < w->property_count && i < g->property_count; i++) {
        same_s(where, "property", w->properties[i].name, g->properties[i].name);
        same_s(where, "property value", w->properties[i].value, g->properties[i].value);
    }
    same_u(where, "keyframes", w->keyframe_count, g->keyframe_count);
    for (uint32_t i = 0; i < w->keyframe_count && i < g->keyframe_count; i++) {
        const ferry_odol_keyframe *a = &w->keyframes[i], *b = &g->keyframes[i];
        same_f(where, "keyframe time", &a->time, &b->time, 1);
        same_u(where, "keyframe points", a->point_count, b->point_count);
        if (a->point_count == b->point_count) same_f(where, "keyframe points", a->points, b->points, 3u * a->point_count);
    }
    same_u(where, "colours", (uint32_t)w->color_top, (uint32_t)g->color_top);
    same_u(where, "colours", (uint32_t)w->color, (uint32_t)g->color);
    same_u(where, "special", (uint32_t)w->special, (uint32_t)g->special);
    same_u(where, "simple bone refs", w->vertex_bone_ref_is_simple, g->vertex_bone_ref_is_simple);
    same_u(where, "rest size", w->rest_size, g->rest_size);
    same_u(where, "UV sets", w->uv_set_count, g->uv_set_count);
    for (uint32_t i = 0; i < w->uv_set_count && i < g->uv_set_count; i++)
        same_condensed(where, "UV set", K_UV, &w->uv_sets[i], &g->uv_sets[i], 8);
    same_array(where, "positions", K_POSITIONS, &w->positions, &g->positions, 12);
    same_condensed(where, "normals", K_NORMALS, &w->normals, &g->normals, 12);
    same_array(where, "st coords", K_ST, &w->st_coords, &g->st_coords, 24);
    same_array(where, "bone refs", K_BONE_REFS, &w->vertex_bone_refs, &g->vertex_bone_refs, 12);
    same_array(where, "neighbour refs", K_NEIGHBOR_REFS, &w->neighbor_bone_refs, &g->neighbor_bone_refs, 32);
}

static void compare_models(const char *file, const ferry_odol_model *w, const ferry_odol_model *g)
{
    same_u(file, "version", 40, g->version);
    same_u(file, "LOD count", w->lod_count, g->lod_count);
    if (w->lod_count != g->lod_count) return;
    same_f(file, "resolutions", w->resolutions, g->resolutions, w->lod_count);
    compare_info(file, &w->info, &g->info);
    compare_animations(file, &w->animations, &g->animations);
    for (uint32_t i = 0; i < w->lod_count; i++) {
        char where[160];
        snprintf(where, sizeof where, "%s LOD %u", file, i);
        same_u(where, "start", w->lod_starts[i], g->lod_starts[i]);
        same_u(where, "end", w->lod_ends[i], g->lod_ends[i]);
        same_u(where, "storage order", w->storage_order[i], g->storage_order[i]);
        compare_lod(where, &w->lods[i], &g->lods[i]);
    }
    same_u(file, "trailing bytes", 0, g->trailing_size);
}

/* ---- the stored layout, against where the reader found things ---- */

static void check_layout(const char *file, const ferry_odol_model *m, size_t size)
{
    uint32_t last_end = 0;
    for (uint32_t i = 0; i < m->lod_count; i++) {
        const ferry_odol_lod *l = &m->lods[i];
        same_u(file, "LOD start = where it was read", m->lod_starts[i], l->offset);
        if (m->lod_ends[i] > last_end) last_end = m->lod_ends[i];
        uint32_t block = 0;
        for (uint32_t f = 0; f < l->face_count; f++) block += l->faces[f].count == 3 ? 8 : 10;
        same_u(file, "face block size (8 per triangle, 10 per quad)", block, l->face_block_size);
        /* The rest size counts from its own field, just before the first UV set, to the LOD's end. */
        same_u(file, "rest size", m->lod_ends[i] - (l->uv_sets[0].array.offset - 4), l->rest_size);
        if (l->section_count)
            same_u(file, "last section ends with the faces", (uint32_t)l->sections[l->section_count - 1].face_end,
                   l->face_block_size);
    }
    same_u(file, "the last LOD ends the file", size, last_end);
}

/* ---- values stated by hand ---- */

static const ferry_odol_selection *selection(const ferry_odol_lod *l, const char *name)
{
    for (uint32_t i = 0; i < l->selection_count; i++)
        if (strcmp(l->selections[i].name, name) == 0) return &l->selections[i];
    CHECK_MSG(false, "no selection '%s'", name);
    return NULL;
}

static float f32_at(const ferry_odol_array *a, size_t index)
{
    float f;
    memcpy(&f, a->data + 4 * index, 4);
    return f;
}

static uint16_t u16_at(const ferry_odol_array *a, size_t index)
{
    return (uint16_t)(a->data[2 * index] | a->data[2 * index + 1] << 8);
}

static bool stored_compressed(const ferry_odol_array *a, size_t elem)
{
    return a->count && a->stored_size != (size_t)a->count * elem;
}

static void expect_box(const ferry_odol_model *m)
{
    CHECK(m->lod_count == 2 && m->resolutions[0] == 1.0f && m->resolutions[1] == 1e13f);
    CHECK(m->storage_order[0] == 1 && m->storage_order[1] == 0);
    CHECK(m->lod_starts[1] < m->lod_starts[0]);
    CHECK(!m->animations.present && m->info.skeleton.name[0] == '\0');
    CHECK(m->info.special_lods[FERRY_ODOL_SPECIAL_LOD_GEOMETRY] == 1);
    CHECK(m->info.mass_array.count == 8 && f32_at(&m->info.mass_array, 2) == 15 && m->info.mass == 100);
    const ferry_odol_lod *v = &m->lods[0], *g = &m->lods[1];
    CHECK(v->face_count == 10 && v->face_block_size == 2 * 10 + 8 * 8);
    CHECK(v->faces[0].count == 4 && v->faces[1].count == 4);
    for (int f = 2; f < 10; f++) CHECK(v->faces[f].count == 3);
    CHECK(v->faces[3].vertices[0] == 8 && v->faces[3].vertices[1] == 10 && v->faces[3].vertices[2] == 11);
    CHECK(v->positions.count == 24 && f32_at(&v->positions, 0) == -0.5f && f32_at(&v->positions, 1) == 1.0f);
    CHECK(f32_at(&v->positions, 69) == -0.5f && f32_at(&v->positions, 70) == 0.0f); /* vertex 23: corner 0 */
    CHECK(!v->normals.default_fill && f32_at(&v->normals.array, 3 * 4 + 1) == -1.0f); /* bottom face */
    CHECK(v->uv_set_count == 2 && !v->uv_sets[0].default_fill && v->uv_sets[1].default_fill);
    CHECK(v->uv_sets[1].array.count == 24);
    float lightmap[2];
    memcpy(lightmap, v->uv_sets[1].default_value, 8);
    CHECK(lightmap[0] == 0.5f && lightmap[1] == 0.25f);
    CHECK(v->point_flags.default_fill && v->point_flags.array.count == 24);
    CHECK(v->point_to_vertex.count == 8 && v->vertex_to_point.count == 24 && u16_at(&v->vertex_to_point, 5) == 1);
    CHECK(u16_at(&v->point_to_vertex, 2) == 0 && u16_at(&v->point_to_vertex, 0) == 4);
    CHECK(v->st_coords.count == 24 && v->vertex_bone_refs.count == 0 && v->neighbor_bone_refs.count == 0);
    CHECK(v->section_count == 2 && v->sections[0].face_end == 20 && v->sections[1].face_begin == 20);
    CHECK(v->sections[1].face_end == 84 && v->sections[0].material == 0 && v->sections[1].material == -1);
    CHECK(strcmp(v->sections[1].material_name, "ferry\\box\\metal.rvmat") == 0);
    CHECK(v->material_count == 1 && v->materials[0].version == 9 && v->materials[0].stage_count == 2);
    CHECK(v->texture_count == 2 && strcmp(v->textures[1], "ferry\\box\\metal_co.paa") == 0);
    const ferry_odol_selection *lid = selection(v, "lid");
    CHECK(lid && lid->weights.count == 4 && lid->weights.data[2] == 128 && lid->weights.data[3] == 64);
    const ferry_odol_selection *sides = selection(v, "sides");
    CHECK(sides && sides->is_sectional && sides->sections.count == 1 && sides->faces.count == 8);
    CHECK(v->property_count == 2 && strcmp(v->properties[1].name, "lodnoshadow") == 0);
    CHECK(g->face_count == 6 && g->face_block_size == 60 && !g->point_flags.default_fill);
    CHECK(g->point_flags.array.count == 8 && g->point_flags.array.data[2 * 4 + 1] == 0x01);
    CHECK(g->normals.default_fill && g->uv_sets[0].default_fill && g->positions.count == 8);
    /* Everything in the box is small enough to be stored raw. */
    CHECK(!stored_compressed(&v->positions, 12) && !stored_compressed(&v->st_coords, 24));
    CHECK(!stored_compressed(&m->info.mass_array, 4));
}

static void expect_door(const ferry_odol_model *m)
{
    const ferry_odol_animations *an = &m->animations;
    CHECK(an->present && an->class_count == 10 && an->lod_count == 2);
    for (uint32_t k = 0; k < 10 && k < an->class_count; k++) CHECK(an->classes[k].type == k);
    CHECK(strcmp(an->classes[8].name, "door_direct") == 0 && an->classes[8].angle == 1.25f);
    CHECK(an->classes[8].axis_dir[1] == 1.0f && an->classes[8].axis_offset == 0.5f);
    CHECK(an->classes[9].params[0] == 0.5f && an->classes[4].params[1] == 0.75f);
    CHECK(an->bone_counts[0] == 4 && an->bones_to_anims[0][1].count == 4);
    CHECK(an->bones_to_anims[0][1].animations[3] == 8 && an->bones_to_anims[1][2].count == 1);
    /* Visual LOD: class 8 (direct) and 9 (hide) move bones, without axes. */
    CHECK(an->anims_to_bones[8].bone == 1 && an->anims_to_bones[9].bone == 3);
    CHECK(an->anims_to_bones[0].axis_pos[0] == -0.5f && an->anims_to_bones[7].axis_dir[1] == -1.0f);
    /* Memory LOD: rotations and translations with bone -1 (no axis). */
    CHECK(an->anims_to_bones[10 + 1].bone == -1 && an->anims_to_bones[10 + 4].bone == -1);
    CHECK(an->anims_to_bones[10 + 3].bone == 3 && an->anims_to_bones[10 + 3].axis_pos[1] == 1.0f);
    const ferry_odol_skeleton *sk = &m->info.skeleton;
    CHECK(sk->bone_count == 4 && strcmp(sk->bones[2].name, "handle") == 0 && strcmp(sk->bones[2].parent, "door") == 0);
    CHECK(sk->bones[3].parent[0] == '\0');
    const ferry_odol_lod *v = &m->lods[0], *mem = &m->lods[1];
    CHECK(!v->permanent && v->info.face_count == 4 && v->info.has_skeleton == 1 && mem->permanent);
    CHECK(v->face_count == 4 && v->faces[1].count == 4 && v->faces[2].count == 3 && v->face_block_size == 36);
    CHECK(v->keyframe_count == 2 && v->keyframes[1].time == 1.0f && v->keyframes[1].point_count == 11);
    CHECK(v->keyframes[1].points[0] == -0.375f && v->keyframes[1].points[1] == 0.0f);
    CHECK(v->proxy_count == 2 && strcmp(v->proxies[1].model, "\\ferry\\samples\\knob") == 0);
    CHECK(v->proxies[1].transform[2] == -1.0f && v->proxies[1].transform[9] == 0.40625f);
    CHECK(v->proxies[0].selection_index == 3 && v->proxies[0].bone_index == 3);
    CHECK(v->vertex_bone_ref_is_simple == 1 && v->vertex_bone_refs.count == 11);
    CHECK(v->vertex_bone_refs.data[12 * 5] == 2 && v->vertex_bone_refs.data[12 * 5 + 6] == 2);
    CHECK(v->neighbor_bone_refs.count == 11 && v->neighbor_bone_refs.data[33] == (uint8_t)(33 * 7));
    CHECK(v->sub_skeleton_to_skeleton.count == 4 && v->skeleton_to_sub_skeleton_count == 4);
    CHECK(v->sections[0].material == -1 && v->sections[1].material == 0 && v->sections[1].min_bone == 1);
    CHECK(!v->point_flags.default_fill && v->point_flags.array.count == 11 && v->normals.default_fill);
    const ferry_odol_selection *door = selection(v, "door");
    CHECK(door && door->is_sectional && door->sections.count == 2 && door->weights.data[1] == 192);
    CHECK(mem->face_count == 0 && mem->positions.count == 5 && mem->selection_count == 3);
    CHECK(mem->sub_skeleton_to_skeleton.count == 3 && mem->skeleton_to_sub_skeleton[0].count == 0);
    CHECK(mem->point_flags.default_fill && mem->point_flags.array.count == 5);
}

static void expect_grid(const ferry_odol_model *m)
{
    CHECK(m->storage_order[0] == 0 && m->storage_order[1] == 1 && m->lod_starts[0] < m->lod_starts[1]);
    const ferry_odol_lod *v = &m->lods[0], *g = &m->lods[1];
    CHECK(!v->permanent && v->info.face_count == 961);
    CHECK(v->face_count == 961 && v->face_block_size == 9610 && v->faces[960].count == 4);
    CHECK(v->faces[32].vertices[0] == 33 && v->faces[32].vertices[2] == 66);
    CHECK(v->positions.count == 1024 && f32_at(&v->positions, 3 * 1023) == 3.875f);
    CHECK(f32_at(&v->positions, 3 * (2 * 32 + 3) + 1) == 0.125f); /* i 3, j 2: (6 % 5) / 8 */
    CHECK(v->section_count == 256 && v->sections[255].face_end == 9610 && v->sections[1].face_begin == 30);
    CHECK(v->uv_set_count == 2 && f32_at(&v->uv_sets[1].array, 2 * 33) == 0.25f);
    /* Compressed, exactly where the size reaches 1024 bytes. */
    CHECK(stored_compressed(&v->positions, 12) && stored_compressed(&v->neighbor_bone_refs, 32));
    CHECK(stored_compressed(&v->point_flags.array, 4) && stored_compressed(&v->uv_sets[1].array, 8));
    CHECK(stored_compressed(&m->info.mass_array, 4) && m->info.mass_array.count * 4 == 1024);
    const ferry_odol_selection *all = selection(v, "all"), *most = selection(v, "most");
    CHECK(all && stored_compressed(&all->sections, 4) && all->sections.count == 256);
    CHECK(all && stored_compressed(&all->weights, 1) && all->weights.data[3] == 15);
    CHECK(most && most->weights.count == 1023 && !stored_compressed(&most->weights, 1));
    CHECK(most && stored_compressed(&most->vertices, 2));
    CHECK(g->positions.count == 256 && stored_compressed(&g->positions, 12) && g->face_count == 225);
    CHECK(g->selections[0].faces.count == 225 && !stored_compressed(&g->selections[0].faces, 2));
}

/* ---- per sample ---- */

static bool same_bytes(const char *what, const uint8_t *a, size_t a_size, const uint8_t *b, size_t b_size)
{
    if (a_size == b_size && memcmp(a, b, a_size) == 0) return true;
    size_t k = 0;
    while (k < a_size && k < b_size && a[k] == b[k]) k++;
    fprintf(stderr, "%s: sizes %zu and %zu, first difference at 0x%zx\n", what, a_size, b_size, k);
    return false;
}

typedef struct coverage {
    bool types[10], axis_stored, bone_none_with_axis_type, keyframes, quads, triangles, proxies, non_permanent;
    bool named_material, indexed_material, weights, sectional, properties, second_uv, skeleton_parents;
    bool filled[3], per_vertex[3]; /* point flags, UV, normals */
} coverage;

static void cover(coverage *cv, const ferry_odol_model *m)
{
    const ferry_odol_animations *an = &m->animations;
    for (uint32_t k = 0; an->present && k < an->class_count; k++) {
        if (an->classes[k].type < 10) cv->types[an->classes[k].type] = true;
        for (uint32_t l = 0; l < an->lod_count; l++) {
            const ferry_odol_anim_bone *ab = &an->anims_to_bones[l * an->class_count + k];
            bool axis_type = an->classes[k].type < FERRY_ODOL_ANIM_DIRECT;
            cv->axis_stored |= axis_type && ab->bone != -1;
            cv->bone_none_with_axis_type |= axis_type && ab->bone == -1;
        }
    }
    for (uint32_t i = 0; i < m->info.skeleton.bone_count; i++) cv->skeleton_parents |= m->info.skeleton.bones[i].parent[0] != 0;
    for (uint32_t i = 0; i < m->lod_count; i++) {
        const ferry_odol_lod *l = &m->lods[i];
        cv->keyframes |= l->keyframe_count > 0;
        cv->proxies |= l->proxy_count > 0;
        cv->non_permanent |= !l->permanent;
        cv->properties |= l->property_count > 0;
        cv->second_uv |= l->uv_set_count > 1;
        for (uint32_t f = 0; f < l->face_count; f++) {
            cv->quads |= l->faces[f].count == 4;
            cv->triangles |= l->faces[f].count == 3;
        }
        for (uint32_t s = 0; s < l->section_count; s++) {
            cv->named_material |= l->sections[s].material == -1 && l->sections[s].material_name[0];
            cv->indexed_material |= l->sections[s].material >= 0;
        }
        for (uint32_t s = 0; s < l->selection_count; s++) {
            cv->weights |= l->selections[s].weights.count > 0;
            cv->sectional |= l->selections[s].is_sectional && l->selections[s].sections.count > 0;
        }
        const ferry_odol_condensed *c[3] = {&l->point_flags, &l->uv_sets[0], &l->normals};
        for (int k = 0; k < 3; k++) {
            cv->filled[k] |= c[k]->default_fill && c[k]->array.count > 0;
            cv->per_vertex[k] |= !c[k]->default_fill && c[k]->array.count > 0;
        }
        if (l->uv_set_count > 1) cv->filled[1] |= l->uv_sets[1].default_fill;
    }
}

static void check_coverage(const coverage *cv)
{
    for (int t = 0; t < 10; t++) CHECK_MSG(cv->types[t], "no animation class of type %d", t);
    CHECK_MSG(cv->axis_stored && cv->bone_none_with_axis_type, "bone tables: axis stored, and bone -1 without");
    CHECK(cv->keyframes && cv->quads && cv->triangles && cv->proxies && cv->non_permanent);
    CHECK(cv->named_material && cv->indexed_material && cv->weights && cv->sectional && cv->properties);
    CHECK(cv->second_uv && cv->skeleton_parents);
    for (int k = 0; k < 3; k++) CHECK_MSG(cv->filled[k] && cv->per_vertex[k], "condensed array %d in both forms", k);
    for (int k = 0; k < K_COUNT; k++) {
        CHECK_MSG(seen_raw[k], "no sample stores a %s array raw", kind_names[k]);
        CHECK_MSG(seen_compressed[k], "no sample stores a %s array compressed", kind_names[k]);
    }
}

static void check_committed(const char *file, const ferry_buffer *bytes)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/samples/%s", FERRY_SOURCE_DIR, file);
    size_t size = 0;
    uint8_t *committed = test_read_file(path, &size);
    CHECK_MSG(committed != NULL, "%s is missing: run `make samples`", path);
    if (committed)
        CHECK_MSG(same_bytes(path, committed, size, bytes->data, bytes->size),
                  "%s is stale: run `make samples` and commit the result", path);
    free(committed);
    CHECK_MSG(bytes->size < 64 * 1024, "%s: %zu bytes, samples should stay small", file, bytes->size);
}

static void check_sample(odol_sample_builder build, coverage *cv, size_t *total)
{
    odol_sample sample;
    build(&sample);
    const char *file = sample.file;
    ferry_error err;
    CHECK_MSG(ferry_odol_update(&sample.model, &err) == FERRY_OK, "%s: update: %s", file, err.message);
    ferry_buffer bytes = {0};
    CHECK_MSG(ferry_odol_write(&sample.model, &bytes, &err) == FERRY_OK, "%s: write: %s", file, err.message);
    *total += bytes.size;

    /* A second build, laid out by the builder's own count of the bytes:
     * the same file, so ferry_odol_update and the format's rules agree. */
    odol_sample again;
    build(&again);
    CHECK(odol_sample_layout(&again.model) == 0);
    ferry_buffer bytes2 = {0};
    CHECK(ferry_odol_write(&again.model, &bytes2, &err) == FERRY_OK);
    CHECK_MSG(same_bytes(file, bytes.data, bytes.size, bytes2.data, bytes2.size),
              "%s: ferry_odol_update and the builder's own layout differ", file);
    ferry_buffer_free(&bytes2);
    odol_sample_free(&again);
    check_committed(file, &bytes);

    ferry_odol_model *read = NULL;
    ferry_result rc = ferry_odol_read(bytes.data, bytes.size, NULL, &read, &err);
    CHECK_MSG(rc == FERRY_OK, "%s: read back: %s at %llu (%s)", file, err.message, (unsigned long long)err.offset,
              err.path);
    if (rc == FERRY_OK) {
        compare_models(file, &sample.model, read);
        check_layout(file, read, bytes.size);
        ferry_buffer rewritten = {0};
        CHECK(ferry_odol_write(read, &rewritten, &err) == FERRY_OK);
        CHECK_MSG(same_bytes(file, bytes.data, bytes.size, rewritten.data, rewritten.size),
                  "%s: the read model writes different bytes", file);
        ferry_buffer_free(&rewritten);
        ferry_diagnostics diags = {0};
        size_t errors = ferry_odol_validate(read, NULL, &diags);
        for (size_t i = 0; i < diags.count; i++)
            fprintf(stderr, "%s: [%s] %s: %s\n", file, diags.items[i].rule, diags.items[i].path, diags.items[i].message);
        CHECK_MSG(errors == 0, "%s: %zu validation errors", file, errors);
        ferry_diagnostics_free(&diags);
        cover(cv, read);
        if (strcmp(file, "odol/box.p3d") == 0) expect_box(read);
        else if (strcmp(file, "odol/door.p3d") == 0) expect_door(read);
        else if (strcmp(file, "odol/grid.p3d") == 0) expect_grid(read);
        else CHECK_MSG(false, "%s: no hand-stated expectations", file);
        ferry_odol_free(read);
    }
    ferry_buffer_free(&bytes);
    odol_sample_free(&sample);
}

/* An empty LOD is ODOL_SAMPLE_EMPTY_LOD_SIZE bytes, which the builder's
 * layout relies on: a one-LOD model whose LOD is empty ends there. */
static void check_empty_lod_size(void)
{
    odol_sample s;
    odol_sample_build_box(&s);
    ferry_odol_model *m = &s.model;
    m->lod_count = 1; /* the box's visual LOD, emptied, and no Geometry LOD */
    m->storage_order[0] = 0;
    m->info.mass_array.count = 0;
    ferry_odol_lod *l = &m->lods[0];
    ferry_odol_condensed empty;
    memset(&empty, 0, sizeof empty);
    memset(l, 0, sizeof *l);
    l->permanent = true;
    l->uv_set_count = 1;
    l->uv_sets = &empty;
    ferry_buffer b = {0};
    ferry_error err;
    CHECK(ferry_odol_write(m, &b, &err) == FERRY_OK);
    m->lod_starts[0] = (uint32_t)(b.size - ODOL_SAMPLE_EMPTY_LOD_SIZE);
    m->lod_ends[0] = (uint32_t)b.size;
    ferry_buffer_free(&b);
    CHECK(ferry_odol_write(m, &b, &err) == FERRY_OK);
    ferry_odol_model *read = NULL;
    CHECK_MSG(ferry_odol_read(b.data, b.size, NULL, &read, &err) == FERRY_OK, "empty LOD: %s", err.message);
    ferry_odol_free(read);
    ferry_buffer_free(&b);
    odol_sample_free(&s);
}

static void check_no_strays(void)
{
    char **paths;
    size_t n = test_list_files(FERRY_SOURCE_DIR "/samples/odol", "", &paths);
    same_u("samples/odol", "files", odol_sample_builder_count, n);
    for (size_t i = 0; i < n; i++) {
        bool made = false;
        for (size_t k = 0; k < odol_sample_builder_count && !made; k++) {
            odol_sample s;
            odol_sample_builders[k](&s);
            const char *tail = strstr(paths[i], s.file);
            made = tail && strcmp(tail, s.file) == 0;
            odol_sample_free(&s);
        }
        CHECK_MSG(made, "%s is not made by the builder", paths[i]);
    }
    test_free_paths(paths, n);
}

/* NaN and infinities are located validation errors (rule value-finite, as for every format), and
 * the glTF conversion refuses the same values at the same places. The box
 * sample stores raw (uncompressed) v40 positions and normals, patched here
 * in the file's bytes; the door has proxies and animations. */
static bool has_diag(const ferry_diagnostics *d, const char *path, uint64_t offset)
{
    for (size_t i = 0; i < d->count; i++)
        if (strcmp(d->items[i].rule, "value-finite") == 0 && strcmp(d->items[i].path, path) == 0 &&
            d->items[i].offset == offset && d->items[i].severity == FERRY_SEVERITY_ERROR)
            return true;
    return false;
}

static ferry_odol_model *sample_bytes(odol_sample_builder build, ferry_buffer *bytes)
{
    odol_sample sample;
    build(&sample);
    ferry_error err;
    ferry_odol_model *m = NULL;
    CHECK(ferry_odol_update(&sample.model, &err) == FERRY_OK);
    CHECK(ferry_odol_write(&sample.model, bytes, &err) == FERRY_OK);
    CHECK(ferry_odol_read(bytes->data, bytes->size, NULL, &m, &err) == FERRY_OK);
    odol_sample_free(&sample);
    return m;
}

static void check_non_finite(void)
{
    ferry_buffer bytes = {0};
    ferry_error err;
    ferry_diagnostics d = {0};
    ferry_scene *s = NULL;
    ferry_odol_model *m = sample_bytes(odol_sample_build_box, &bytes);
    if (!m) goto done;
    const ferry_odol_lod *l = &m->lods[0];
    CHECK(l->positions.stored == l->positions.data && !l->normals.default_fill &&
          l->normals.array.stored == l->normals.array.data);
    uint64_t pos_at = l->positions.offset + 4 + 12 * 3 + 4;  /* vertex 3's y: after the count */
    uint64_t nrm_at = l->normals.array.offset + 5 + 12 * 2; /* vertex 2's x: after count and fill flag */
    /* Before: no error. */
    CHECK(ferry_odol_validate(m, NULL, &d) == 0);
    ferry_diagnostics_free(&d);
    ferry_odol_free(m);
    m = NULL;
    static const uint8_t nan_bytes[4] = {0x00, 0x00, 0xc0, 0x7f}, inf_bytes[4] = {0x00, 0x00, 0x80, 0xff};
    memcpy(bytes.data + pos_at, nan_bytes, 4);
    memcpy(bytes.data + nrm_at, inf_bytes, 4);
    CHECK(ferry_odol_read(bytes.data, bytes.size, NULL, &m, &err) == FERRY_OK);
    if (!m) goto done;
    memset(&d, 0, sizeof d);
    CHECK_EQ_U(ferry_odol_validate(m, NULL, &d), 2);
    CHECK_MSG(has_diag(&d, "lods[0]/positions[3]", pos_at - 4), "no located error for the NaN position");
    CHECK_MSG(has_diag(&d, "lods[0]/normals[2]", nrm_at), "no located error for the infinite normal");
    ferry_diagnostics_free(&d);
    /* The conversion stops at the first it meets (in the order faces use
     * vertices), named as validation names it. */
    CHECK(ferry_odol_to_scene(m, NULL, &s, &err) == FERRY_ERR_MALFORMED && !s);
    CHECK_MSG(strcmp(err.path, "lods[0]/positions[3]") == 0 || strcmp(err.path, "lods[0]/normals[2]") == 0,
              "convert says %s", err.path);
    ferry_odol_free(m);
    ferry_buffer_free(&bytes);

    /* A proxy's matrix and an animation axis. */
    m = sample_bytes(odol_sample_build_door, &bytes);
    if (!m) goto done;
    CHECK(m->lods[0].proxy_count >= 1 && m->animations.present && m->animations.class_count >= 1);
    if (!m->lods[0].proxy_count || !m->animations.class_count) goto done;
    m->lods[0].proxies[0].transform[9] = NAN;
    m->animations.classes[0].axis_dir[2] = INFINITY;
    memset(&d, 0, sizeof d);
    CHECK_EQ_U(ferry_odol_validate(m, NULL, &d), 2);
    CHECK(has_diag(&d, "lods[0]/proxies[0]", FERRY_NO_OFFSET));
    CHECK(has_diag(&d, "animations/classes[0]", FERRY_NO_OFFSET));
    ferry_diagnostics_free(&d);
    /* Either, as for the position and normal above: the skin and
     * animations (odol_scene_anim.c) check the classes before the LODs. */
    CHECK(ferry_odol_to_scene(m, NULL, &s, &err) == FERRY_ERR_MALFORMED && !s);
    CHECK_MSG(strcmp(err.path, "lods[0]/proxies[0]") == 0 || strcmp(err.path, "animations/classes[0]") == 0,
              "convert says %s", err.path);
done:
    ferry_odol_free(m);
    ferry_buffer_free(&bytes);
}

/* A section's bounds must fall on face boundaries (triangles take 8 bytes,
 * quads 10): each bound is looked up among the faces' starts. */
static size_t section_range_errors(const ferry_odol_model *m)
{
    ferry_diagnostics d = {0};
    ferry_odol_validate(m, NULL, &d);
    size_t n = 0;
    for (size_t i = 0; i < d.count; i++) n += strcmp(d.items[i].rule, "section-range") == 0;
    ferry_diagnostics_free(&d);
    return n;
}

static void check_section_bounds(void)
{
    ferry_buffer bytes = {0};
    ferry_odol_model *m = sample_bytes(odol_sample_build_box, &bytes);
    if (!m) goto done;
    ferry_odol_lod *l = &m->lods[0];
    CHECK(l->section_count >= 1 && l->face_count >= 2);
    if (!l->section_count || l->face_count < 2) goto done;
    ferry_odol_section *sec = &l->sections[0];
    int32_t begin = sec->face_begin, end = sec->face_end;
    CHECK_EQ_U(section_range_errors(m), 0);
    /* Every face boundary is one; a byte past one is not. */
    uint32_t at = 0;
    for (uint32_t f = 0; f <= l->face_count; f++) {
        sec->face_begin = (int32_t)at;
        sec->face_end = (int32_t)at;
        CHECK_MSG(section_range_errors(m) == 0, "boundary %u (byte %u) refused", f, at);
        if (f < l->face_count) {
            sec->face_begin = (int32_t)at + 2;
            sec->face_end = (int32_t)(at + 2u + 2u * l->faces[f].count);
            CHECK_MSG(section_range_errors(m) == 1, "byte %u, inside face %u, taken", at + 2, f);
            at += 2u + 2u * l->faces[f].count;
        }
    }
    sec->face_begin = begin;
    sec->face_end = end;
    CHECK_EQ_U(section_range_errors(m), 0);
done:
    ferry_odol_free(m);
    ferry_buffer_free(&bytes);
}

int main(void)
{
    coverage cv;
    memset(&cv, 0, sizeof cv);
    size_t total = 0;
    CHECK(odol_sample_builder_count >= 3);
    for (size_t i = 0; i < odol_sample_builder_count; i++) check_sample(odol_sample_builders[i], &cv, &total);
    check_coverage(&cv);
    check_empty_lod_size();
    check_no_strays();
    check_non_finite();
    check_section_bounds();
    printf("odol samples: %zu files, %zu bytes; %zu arrays compared, %zu stored compressed (%zu bytes decoded)\n",
           odol_sample_builder_count, total, arrays_checked, arrays_compressed, bytes_decoded);
    TEST_END();
}
