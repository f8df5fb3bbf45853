/* The ODOL v40 samples (see odol_samples.h). Every value is chosen by
 * hand, mostly exactly representable in binary, so that the tests can
 * state what they expect without running the library. */
#include "odol_samples.h"

#include <ferry/lzss.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- building blocks ---- */

static void *grab(ferry_arena *a, size_t size)
{
    void *p = ferry_arena_alloc(a, size ? size : 1);
    if (!p) {
        fprintf(stderr, "odol_samples: out of memory\n");
        abort();
    }
    return p;
}

static void put_u32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
    p[2] = (uint8_t)(v >> 16);
    p[3] = (uint8_t)(v >> 24);
}

static void put_f32(uint8_t *p, float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    put_u32(p, u);
}

static ferry_odol_array array_of(const uint8_t *data, uint32_t count)
{
    ferry_odol_array a;
    memset(&a, 0, sizeof a);
    a.data = count ? data : NULL;
    a.count = count;
    a.offset = FERRY_NO_OFFSET;
    return a;
}

/* Little-endian floats, `n` of them. */
static ferry_odol_array floats_of(ferry_arena *a, const float *v, size_t n, size_t per_element)
{
    uint8_t *p = grab(a, n * 4);
    for (size_t i = 0; i < n; i++) put_f32(p + 4 * i, v[i]);
    return array_of(p, (uint32_t)(n / per_element));
}

static ferry_odol_array u16s_of(ferry_arena *a, const uint16_t *v, uint32_t n)
{
    uint8_t *p = grab(a, (size_t)n * 2);
    for (uint32_t i = 0; i < n; i++) {
        p[2 * i] = (uint8_t)v[i];
        p[2 * i + 1] = (uint8_t)(v[i] >> 8);
    }
    return array_of(p, n);
}

static ferry_odol_array u16_range(ferry_arena *a, uint32_t first, uint32_t n)
{
    uint16_t *v = grab(a, (size_t)n * 2);
    for (uint32_t i = 0; i < n; i++) v[i] = (uint16_t)(first + i);
    return u16s_of(a, v, n);
}

static ferry_odol_array i32s_of(ferry_arena *a, const int32_t *v, uint32_t n)
{
    uint8_t *p = grab(a, (size_t)n * 4);
    for (uint32_t i = 0; i < n; i++) put_u32(p + 4 * i, (uint32_t)v[i]);
    return array_of(p, n);
}

static ferry_odol_array bytes_of(ferry_arena *a, const uint8_t *v, uint32_t n)
{
    return array_of(n ? ferry_arena_memdup(a, v, n) : NULL, n);
}

static ferry_odol_condensed per_vertex(ferry_odol_array a)
{
    ferry_odol_condensed c;
    memset(&c, 0, sizeof c);
    c.array = a;
    return c;
}

static ferry_odol_condensed filled_u32(uint32_t count, uint32_t value)
{
    ferry_odol_condensed c = per_vertex(array_of(NULL, count));
    c.default_fill = true;
    put_u32(c.default_value, value);
    return c;
}

static ferry_odol_condensed filled_f32(uint32_t count, const float *value, size_t n)
{
    ferry_odol_condensed c = per_vertex(array_of(NULL, count));
    c.default_fill = true;
    for (size_t i = 0; i < n; i++) put_f32(c.default_value + 4 * i, value[i]);
    return c;
}

static ferry_odol_int_array ints_of(ferry_arena *a, const int32_t *v, uint32_t n)
{
    ferry_odol_int_array r = {NULL, n};
    if (n) r.values = ferry_arena_memdup(a, v, (size_t)n * sizeof *v);
    return r;
}

static ferry_odol_face face3(uint16_t a, uint16_t b, uint16_t c) { return (ferry_odol_face){3, {a, b, c, 0}}; }
static ferry_odol_face face4(uint16_t a, uint16_t b, uint16_t c, uint16_t d)
{
    return (ferry_odol_face){4, {a, b, c, d}};
}

/* The in-memory byte offset of face `n` (what sections count). */
static int32_t face_bytes(const ferry_odol_lod *l, uint32_t n)
{
    int32_t bytes = 0;
    for (uint32_t i = 0; i < n; i++) bytes += 2 + 2 * l->faces[i].count;
    return bytes;
}

static void set_bounds(ferry_odol_lod *l, const float min[3], const float max[3], float radius)
{
    for (int k = 0; k < 3; k++) {
        l->bmin[k] = min[k];
        l->bmax[k] = max[k];
        l->bcenter[k] = min[k] * 0.5f + max[k] * 0.5f;
    }
    l->bradius = radius;
}

static void empty_lod(ferry_odol_lod *l, ferry_arena *a, float resolution)
{
    memset(l, 0, sizeof *l);
    l->resolution = resolution;
    l->permanent = true;
    l->point_flags = per_vertex(array_of(NULL, 0));
    l->point_to_vertex = l->vertex_to_point = array_of(NULL, 0);
    l->uv_set_count = 1;
    l->uv_sets = grab(a, sizeof *l->uv_sets);
    l->uv_sets[0] = per_vertex(array_of(NULL, 0));
    l->positions = l->st_coords = l->vertex_bone_refs = l->neighbor_bone_refs = array_of(NULL, 0);
    l->normals = per_vertex(array_of(NULL, 0));
    l->faces_offset = FERRY_NO_OFFSET;
    l->offset = FERRY_NO_OFFSET;
}

static void begin(odol_sample *s, const char *file, uint32_t lod_count, const float *resolutions)
{
    memset(s, 0, sizeof *s);
    s->file = file;
    s->storage = ferry_arena_create(0);
    if (!s->storage) {
        fprintf(stderr, "odol_samples: out of memory\n");
        abort();
    }
    ferry_arena *a = s->storage;
    ferry_odol_model *m = &s->model;
    m->version = FERRY_ODOL_VERSION;
    m->lod_count = lod_count;
    m->resolutions = ferry_arena_memdup(a, resolutions, lod_count * sizeof(float));
    m->lods = grab(a, lod_count * sizeof *m->lods);
    m->lod_starts = grab(a, lod_count * sizeof(uint32_t));
    m->lod_ends = grab(a, lod_count * sizeof(uint32_t));
    m->storage_order = grab(a, lod_count * sizeof(uint32_t));
    for (uint32_t i = 0; i < lod_count; i++) {
        empty_lod(&m->lods[i], a, resolutions[i]);
        /* Real files store LODs by descending resolution; the samples
         * start from that and may override it. */
        m->storage_order[i] = lod_count - 1 - i;
    }
    ferry_odol_model_info *mi = &m->info;
    memset(mi->special_lods, 255, sizeof mi->special_lods);
    mi->skeleton.name = "";
    mi->class_name = "";
    mi->damage = "";
    mi->mass_array = array_of(NULL, 0);
    mi->view_density = -10;
    mi->map_type = 22;
    mi->min_shadow = 4;
    mi->can_occlude = 1;
    mi->can_be_occluded = 1;
}

static ferry_odol_material material(ferry_arena *a, const char *name, const char *surface, const char *texture)
{
    ferry_odol_material mt;
    memset(&mt, 0, sizeof mt);
    mt.name = name;
    mt.version = 9;
    const float ambient[4] = {1, 1, 1, 1}, diffuse[4] = {0.75f, 0.75f, 0.75f, 1}, specular[4] = {0.25f, 0.25f, 0.25f, 0};
    memcpy(mt.ambient, ambient, sizeof ambient);
    memcpy(mt.diffuse, diffuse, sizeof diffuse);
    memcpy(mt.forced_diffuse, specular, sizeof specular);
    memcpy(mt.specular, specular, sizeof specular);
    mt.emissive[3] = 1;
    mt.specular_power = 40;
    mt.pixel_shader = 1;
    mt.vertex_shader = 2;
    mt.main_light = 1;
    mt.fog_mode = 1;
    mt.surface = surface;
    mt.render_flag_count = 1;
    mt.render_flags = 4;
    mt.stage_count = 2;
    mt.stages = grab(a, 2 * sizeof *mt.stages);
    mt.stages[0] = (ferry_odol_stage_texture){3, texture, 1};
    mt.stages[1] = (ferry_odol_stage_texture){1, "#(argb,8,8,3)color(0.5,0.5,0.5,1,DT)", 2};
    mt.transform_count = 1;
    mt.transforms = grab(a, sizeof *mt.transforms);
    mt.transforms[0].uv_source = 1;
    const float identity[12] = {1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0};
    memcpy(mt.transforms[0].transform, identity, sizeof identity);
    mt.ti_stage.texture = "";
    return mt;
}

/* ---- box.p3d ---- */

/* Corner k of the box: x by bit 0, y by bit 1, z by bit 2. */
static void box_corner(int k, float out[3])
{
    out[0] = (k & 1) ? 0.5f : -0.5f;
    out[1] = (k & 2) ? 1.0f : 0.0f;
    out[2] = (k & 4) ? 0.5f : -0.5f;
}

static const uint8_t box_sides[6][4] = {
    {2, 6, 7, 3}, /* top, y = 1 */
    {0, 1, 5, 4}, /* bottom */
    {0, 2, 3, 1}, /* -z */
    {1, 3, 7, 5}, /* +x */
    {5, 7, 6, 4}, /* +z */
    {4, 6, 2, 0}, /* -x */
};
static const float box_normals[6][3] = {{0, 1, 0}, {0, -1, 0}, {0, 0, -1}, {1, 0, 0}, {0, 0, 1}, {-1, 0, 0}};

static void box_visual(ferry_odol_lod *l, ferry_arena *a)
{
    float pos[24 * 3], nrm[24 * 3], uv[24 * 2], st[24 * 6];
    uint16_t to_point[24], to_vertex[8];
    static const float corner_uv[4][2] = {{0, 0}, {0, 1}, {1, 1}, {1, 0}};
    for (int f = 0; f < 6; f++) {
        for (int k = 0; k < 4; k++) {
            int v = 4 * f + k, c = box_sides[f][k];
            box_corner(c, pos + 3 * v);
            memcpy(nrm + 3 * v, box_normals[f], 12);
            uv[2 * v] = corner_uv[k][0];
            uv[2 * v + 1] = corner_uv[k][1];
            /* s along x (along z on the x faces), t completing the frame. */
            bool xface = box_normals[f][0] != 0;
            const float s[3] = {xface ? 0.0f : 1.0f, 0, xface ? 1.0f : 0.0f};
            const float t[3] = {0, box_normals[f][1] != 0 ? 0.0f : 1.0f, box_normals[f][1] != 0 ? 1.0f : 0.0f};
            memcpy(st + 6 * v, s, 12);
            memcpy(st + 6 * v + 3, t, 12);
            to_point[v] = (uint16_t)c;
        }
    }
    for (int p = 0; p < 8; p++) {
        int v = 0;
        while (to_point[v] != p) v++;
        to_vertex[p] = (uint16_t)v;
    }
    l->positions = floats_of(a, pos, 24 * 3, 3);
    l->normals = per_vertex(floats_of(a, nrm, 24 * 3, 3));
    l->st_coords = floats_of(a, st, 24 * 6, 6);
    l->uv_set_count = 2;
    l->uv_sets = grab(a, 2 * sizeof *l->uv_sets);
    l->uv_sets[0] = per_vertex(floats_of(a, uv, 24 * 2, 2));
    const float lightmap_uv[2] = {0.5f, 0.25f};
    l->uv_sets[1] = filled_f32(24, lightmap_uv, 2);
    l->point_to_vertex = u16s_of(a, to_vertex, 8);
    l->vertex_to_point = u16s_of(a, to_point, 24);
    l->point_flags = filled_u32(24, 0);

    /* Top and bottom as quads, the sides as two triangles each. */
    l->face_count = 10;
    l->faces = grab(a, 10 * sizeof *l->faces);
    l->faces[0] = face4(0, 1, 2, 3);
    l->faces[1] = face4(4, 5, 6, 7);
    for (uint16_t f = 2; f < 6; f++) {
        uint16_t v = (uint16_t)(4 * f);
        l->faces[2 * f - 2] = face3(v, (uint16_t)(v + 1), (uint16_t)(v + 2));
        l->faces[2 * f - 1] = face3(v, (uint16_t)(v + 2), (uint16_t)(v + 3));
    }

    l->texture_count = 2;
    l->textures = grab(a, 2 * sizeof *l->textures);
    l->textures[0] = "ferry\\box\\wood_co.paa";
    l->textures[1] = "ferry\\box\\metal_co.paa";
    l->material_count = 1;
    l->materials = grab(a, sizeof *l->materials);
    l->materials[0] = material(a, "ferry\\box\\wood.rvmat", "ferry\\box\\wood.bisurf", "ferry\\box\\wood_nohq.paa");

    l->section_count = 2;
    l->sections = grab(a, 2 * sizeof *l->sections);
    ferry_odol_section *s = l->sections;
    s[0].face_begin = 0;
    s[0].face_end = face_bytes(l, 2);
    s[0].texture = 0;
    s[0].material = 0;
    s[0].special = 0x2000;
    s[0].area_count = 2;
    s[0].area_over_tex = grab(a, 2 * sizeof(float));
    s[0].area_over_tex[0] = 2;
    s[0].area_over_tex[1] = -1000;
    s[1].face_begin = s[0].face_end;
    s[1].face_end = face_bytes(l, 10);
    s[1].texture = 1;
    s[1].material = -1;
    s[1].material_name = "ferry\\box\\metal.rvmat";
    s[1].area_count = 1;
    s[1].area_over_tex = grab(a, sizeof(float));
    s[1].area_over_tex[0] = 4;

    l->selection_count = 2;
    l->selections = grab(a, 2 * sizeof *l->selections);
    ferry_odol_selection *sel = l->selections;
    static const uint16_t lid_faces[1] = {0};
    static const uint8_t lid_weights[4] = {255, 255, 128, 64};
    static const int32_t sides_sections[1] = {1};
    sel[0].name = "lid";
    sel[0].faces = u16s_of(a, lid_faces, 1);
    sel[0].sections = array_of(NULL, 0);
    sel[0].vertices = u16_range(a, 0, 4);
    sel[0].weights = bytes_of(a, lid_weights, 4);
    sel[1].name = "sides";
    sel[1].faces = u16_range(a, 2, 8);
    sel[1].is_sectional = 1;
    sel[1].sections = i32s_of(a, sides_sections, 1);
    sel[1].vertices = u16_range(a, 8, 16);
    sel[1].weights = array_of(NULL, 0);

    l->property_count = 2;
    l->properties = grab(a, 2 * sizeof *l->properties);
    l->properties[0] = (ferry_odol_property){"autocenter", "0"};
    l->properties[1] = (ferry_odol_property){"lodnoshadow", "1"};

    l->color_top = (int32_t)0xff808080u;
    l->color = (int32_t)0xff7a8a9au;
    const float min[3] = {-0.5f, 0, -0.5f}, max[3] = {0.5f, 1, 0.5f};
    set_bounds(l, min, max, 0.8660254f);
}

static void box_geometry(ferry_odol_lod *l, ferry_arena *a)
{
    float pos[8 * 3];
    uint8_t flags[8 * 4];
    for (int k = 0; k < 8; k++) {
        box_corner(k, pos + 3 * k);
        /* The top corners carry a hint flag, the bottom ones none. */
        put_u32(flags + 4 * k, (k & 2) ? 0x00000100u : 0);
    }
    l->positions = floats_of(a, pos, 24, 3);
    l->point_flags = per_vertex(bytes_of(a, flags, 32));
    l->point_flags.array.count = 8;
    const float up[3] = {0, 1, 0}, zero_uv[2] = {0, 0};
    l->normals = filled_f32(8, up, 3);
    l->uv_sets[0] = filled_f32(8, zero_uv, 2);
    l->face_count = 6;
    l->faces = grab(a, 6 * sizeof *l->faces);
    for (int f = 0; f < 6; f++) {
        const uint8_t *c = box_sides[f];
        l->faces[f] = face4(c[0], c[1], c[2], c[3]);
    }
    l->section_count = 1;
    l->sections = grab(a, sizeof *l->sections);
    l->sections[0].face_end = face_bytes(l, 6);
    l->sections[0].texture = -1;
    l->sections[0].material = -1;
    l->sections[0].material_name = "";
    l->selection_count = 1;
    l->selections = grab(a, sizeof *l->selections);
    l->selections[0].name = "Component01";
    l->selections[0].faces = u16_range(a, 0, 6);
    l->selections[0].sections = array_of(NULL, 0);
    l->selections[0].vertices = u16_range(a, 0, 8);
    l->selections[0].weights = array_of(NULL, 0);
    l->property_count = 1;
    l->properties = grab(a, sizeof *l->properties);
    l->properties[0] = (ferry_odol_property){"class", "house"};
    l->color_top = l->color = (int32_t)0xff000000u;
    l->special = 0x280100;
    const float min[3] = {-0.5f, 0, -0.5f}, max[3] = {0.5f, 1, 0.5f};
    set_bounds(l, min, max, 0.8660254f);
}

void odol_sample_build_box(odol_sample *out)
{
    const float resolutions[2] = {1.0f, 1e13f};
    begin(out, "odol/box.p3d", 2, resolutions);
    ferry_odol_model *m = &out->model;
    ferry_arena *a = out->storage;
    box_visual(&m->lods[0], a);
    box_geometry(&m->lods[1], a);
    ferry_odol_model_info *mi = &m->info;
    mi->special_lods[FERRY_ODOL_SPECIAL_LOD_GEOMETRY] = 1;
    mi->special_lods[FERRY_ODOL_SPECIAL_LOD_VIEW] = 0;
    const float masses[8] = {10, 10, 15, 15, 10, 10, 15, 15};
    mi->mass_array = floats_of(a, masses, 8, 1);
    mi->mass = 100;
    mi->inv_mass = 0.01f;
    mi->armor = 200;
    mi->inv_armor = 0.005f;
    mi->bounding_sphere = 0.8660254f;
    mi->geometry_sphere = 0.8660254f;
    mi->bbox_min[0] = -0.5f, mi->bbox_min[2] = -0.5f;
    mi->bbox_max[0] = 0.5f, mi->bbox_max[1] = 1, mi->bbox_max[2] = 0.5f;
    mi->bounding_center[1] = 0.5f;
    mi->geometry_center[1] = 0.5f;
    mi->center_of_mass[1] = 0.55f;
    mi->aiming_center[1] = 0.5f;
    const float inv_inertia[9] = {0.06f, 0, 0, 0, 0.06f, 0, 0, 0, 0.06f};
    memcpy(mi->inv_inertia, inv_inertia, sizeof inv_inertia);
    mi->color = 0xff7a8a9au;
    mi->color_type = 0xff808080u;
    mi->class_name = "house";
    mi->damage = "building";
    mi->auto_center = 0;
    mi->lock_auto_center = 1;
}

/* ---- door.p3d ---- */

enum { DOOR_BONES = 4, DOOR_CLASSES = 10, DOOR_VERTICES = 11 };

static const float door_positions[DOOR_VERTICES][3] = {
    {-0.625f, 0, 0},          {0.625f, 0, 0},          {0.625f, 2.25f, 0},          {-0.625f, 2.25f, 0},
    {-0.5f, 0.0625f, -0.0625f}, {0.5f, 0.0625f, -0.0625f}, {0.5f, 2.0625f, -0.0625f}, {-0.5f, 2.0625f, -0.0625f},
    {0.375f, 1, -0.125f},     {0.4375f, 1, -0.125f},   {0.4375f, 1.125f, -0.125f},
};

/* Per class: its transform type is its index; the bone it moves in the
 * visual LOD and in the Memory LOD (-1: none there). */
static const int32_t door_bone_visual[DOOR_CLASSES] = {1, 2, 1, 3, 1, 0, 0, 2, 1, 3};
static const int32_t door_bone_memory[DOOR_CLASSES] = {1, -1, -1, 3, -1, -1, -1, 2, 1, -1};

static void door_classes(ferry_odol_animations *an, ferry_arena *a)
{
    static const char *names[DOOR_CLASSES] = {"door_open",   "handle_turn", "door_swing",  "lamp_spin",   "door_slide",
                                              "frame_x",     "frame_y",     "handle_push", "door_direct", "lamp_hide"};
    static const char *sources[DOOR_CLASSES] = {"door", "handle", "door", "time", "door",
                                                "frame", "frame", "handle", "door", "damage"};
    static const float limits[DOOR_CLASSES][2] = {{0, 1.5f},      {-0.5f, 0.5f}, {0, 2},     {0, 6.25f}, {0, 0.75f},
                                                  {0, 0.125f},    {0, 0.25f},    {0, -0.03125f}, {0, 0}, {0.5f, 0}};
    an->present = true;
    an->class_count = DOOR_CLASSES;
    an->classes = grab(a, DOOR_CLASSES * sizeof *an->classes);
    for (uint32_t k = 0; k < DOOR_CLASSES; k++) {
        ferry_odol_animation_class *c = &an->classes[k];
        c->type = k;
        c->name = names[k];
        c->source = sources[k];
        c->min_phase = (k & 1) ? -1.0f : 0.0f;
        c->max_phase = 1;
        c->min_value = c->min_phase;
        c->max_value = (float)(k + 1) * 0.5f;
        c->source_address = k % 3;
        c->params[0] = limits[k][0];
        c->params[1] = k == FERRY_ODOL_ANIM_HIDE ? 0 : limits[k][1];
    }
    ferry_odol_animation_class *direct = &an->classes[FERRY_ODOL_ANIM_DIRECT];
    direct->axis_pos[0] = -0.5f, direct->axis_pos[2] = -0.0625f;
    direct->axis_dir[1] = 1;
    direct->angle = 1.25f;
    direct->axis_offset = 0.5f;
}

static void door_bone_tables(ferry_odol_animations *an, ferry_arena *a)
{
    an->lod_count = 2;
    an->bone_counts = grab(a, 2 * sizeof *an->bone_counts);
    an->bones_to_anims = grab(a, 2 * sizeof *an->bones_to_anims);
    an->anims_to_bones = grab(a, 2 * DOOR_CLASSES * sizeof *an->anims_to_bones);
    for (uint32_t l = 0; l < 2; l++) {
        const int32_t *bone_of = l == 0 ? door_bone_visual : door_bone_memory;
        an->bone_counts[l] = DOOR_BONES;
        an->bones_to_anims[l] = grab(a, DOOR_BONES * sizeof **an->bones_to_anims);
        for (uint32_t b = 0; b < DOOR_BONES; b++) {
            ferry_odol_bone_anims *ba = &an->bones_to_anims[l][b];
            ba->animations = grab(a, DOOR_CLASSES * sizeof *ba->animations);
            for (uint32_t k = 0; k < DOOR_CLASSES; k++)
                if (bone_of[k] == (int32_t)b) ba->animations[ba->count++] = k;
        }
        for (uint32_t k = 0; k < DOOR_CLASSES; k++) {
            ferry_odol_anim_bone *ab = &an->anims_to_bones[l * DOOR_CLASSES + k];
            ab->bone = bone_of[k];
            /* The axis is stored for rotations and translations moving a
             * bone; the values differ per class and LOD to be told apart. */
            if (ab->bone != -1 && k < FERRY_ODOL_ANIM_DIRECT) {
                ab->axis_pos[0] = -0.5f + 0.125f * (float)k;
                ab->axis_pos[1] = (float)l;
                ab->axis_pos[2] = -0.0625f;
                ab->axis_dir[k % 3] = (k & 4) ? -1.0f : 1.0f;
            }
        }
    }
}

static void door_visual(ferry_odol_lod *l, ferry_arena *a)
{
    l->permanent = false;
    l->info = (ferry_odol_lod_info){4, 0xff6080a0u, 0, 0, 1};
    l->positions = floats_of(a, &door_positions[0][0], DOOR_VERTICES * 3, 3);
    const float back[3] = {0, 0, -1};
    l->normals = filled_f32(DOOR_VERTICES, back, 3);
    float uv[DOOR_VERTICES * 2];
    uint8_t flags[DOOR_VERTICES * 4], refs[DOOR_VERTICES * 12], neighbours[DOOR_VERTICES * 32];
    memset(refs, 0, sizeof refs);
    for (int v = 0; v < DOOR_VERTICES; v++) {
        uv[2 * v] = (float)(v % 4) * 0.25f;
        uv[2 * v + 1] = (float)(v / 4) * 0.5f;
        put_u32(flags + 4 * v, v < 4 ? 0x00000100u : 0x00200000u);
        /* One bone per vertex (frame, door, handle), except vertex 5,
         * shared by the door and the handle. */
        uint8_t *r = refs + 12 * v;
        put_u32(r, v == 5 ? 2 : 1);
        r[4] = (uint8_t)(v < 4 ? 0 : v < 8 ? 1 : 2);
        r[5] = v == 5 ? 192 : 255;
        if (v == 5) r[6] = 2, r[7] = 63;
        for (int k = 0; k < 32; k++) neighbours[32 * v + k] = (uint8_t)((v * 32 + k) * 7);
    }
    l->uv_sets[0] = per_vertex(floats_of(a, uv, DOOR_VERTICES * 2, 2));
    l->point_flags = per_vertex(bytes_of(a, flags, sizeof flags));
    l->point_flags.array.count = DOOR_VERTICES;
    l->vertex_bone_ref_is_simple = 1;
    l->vertex_bone_refs = bytes_of(a, refs, sizeof refs);
    l->vertex_bone_refs.count = DOOR_VERTICES;
    l->neighbor_bone_refs = bytes_of(a, neighbours, sizeof neighbours);
    l->neighbor_bone_refs.count = DOOR_VERTICES;

    const int32_t sub[DOOR_BONES] = {0, 1, 2, 3};
    l->sub_skeleton_to_skeleton = ints_of(a, sub, DOOR_BONES);
    l->skeleton_to_sub_skeleton_count = DOOR_BONES;
    l->skeleton_to_sub_skeleton = grab(a, DOOR_BONES * sizeof *l->skeleton_to_sub_skeleton);
    for (int b = 0; b < DOOR_BONES; b++) l->skeleton_to_sub_skeleton[b] = ints_of(a, &sub[b], 1);

    l->face_count = 4;
    l->faces = grab(a, 4 * sizeof *l->faces);
    l->faces[0] = face4(0, 1, 2, 3);
    l->faces[1] = face4(4, 5, 6, 7);
    l->faces[2] = face3(8, 9, 10);
    l->faces[3] = face3(4, 6, 7);

    l->texture_count = 2;
    l->textures = grab(a, 2 * sizeof *l->textures);
    l->textures[0] = "ferry\\door\\wood_co.paa";
    l->textures[1] = "ferry\\door\\metal_co.paa";
    l->material_count = 1;
    l->materials = grab(a, sizeof *l->materials);
    l->materials[0] = material(a, "ferry\\door\\metal.rvmat", "", "ferry\\door\\metal_nohq.paa");

    l->section_count = 2;
    l->sections = grab(a, 2 * sizeof *l->sections);
    ferry_odol_section *s = l->sections;
    s[0].face_end = face_bytes(l, 2);
    s[0].bone_count = 2;
    s[0].texture = 0;
    s[0].material = -1;
    s[0].material_name = "ferry\\door\\wood.rvmat";
    s[0].special = 0x2000;
    s[0].area_count = 2;
    s[0].area_over_tex = grab(a, 2 * sizeof(float));
    s[0].area_over_tex[0] = 1.5f;
    s[0].area_over_tex[1] = -1000;
    s[1].face_begin = s[0].face_end;
    s[1].face_end = face_bytes(l, 4);
    s[1].min_bone = 1;
    s[1].bone_count = 2;
    s[1].texture = 1;
    s[1].material = 0;
    s[1].special = 0x8000;

    l->selection_count = 4;
    l->selections = grab(a, 4 * sizeof *l->selections);
    ferry_odol_selection *sel = l->selections;
    static const uint16_t door_faces[2] = {1, 3}, handle_faces[1] = {2};
    static const int32_t door_sections[2] = {0, 1};
    static const uint8_t door_weights[4] = {255, 192, 255, 255}, handle_weights[3] = {255, 255, 128};
    for (int i = 0; i < 4; i++) sel[i].faces = sel[i].sections = sel[i].vertices = sel[i].weights = array_of(NULL, 0);
    sel[0].name = "frame";
    sel[0].faces = u16_range(a, 0, 1);
    sel[0].vertices = u16_range(a, 0, 4);
    sel[1].name = "door";
    sel[1].faces = u16s_of(a, door_faces, 2);
    sel[1].is_sectional = 1;
    sel[1].sections = i32s_of(a, door_sections, 2);
    sel[1].vertices = u16_range(a, 4, 4);
    sel[1].weights = bytes_of(a, door_weights, 4);
    sel[2].name = "handle";
    sel[2].faces = u16s_of(a, handle_faces, 1);
    sel[2].vertices = u16_range(a, 8, 3);
    sel[2].weights = bytes_of(a, handle_weights, 3);
    sel[3].name = "proxy:lamp.01";

    l->proxy_count = 2;
    l->proxies = grab(a, 2 * sizeof *l->proxies);
    const float lamp[12] = {1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 2.375f, 0};
    /* Turned a quarter about y: aside, up, dir rows, then the position. */
    const float knob[12] = {0, 0, -1, 0, 1, 0, 1, 0, 0, 0.40625f, 1.0625f, -0.125f};
    l->proxies[0] = (ferry_odol_proxy){"\\ferry\\samples\\lamp", {0}, 1, 3, 3, 1};
    memcpy(l->proxies[0].transform, lamp, sizeof lamp);
    l->proxies[1] = (ferry_odol_proxy){"\\ferry\\samples\\knob", {0}, 2, 2, 2, 1};
    memcpy(l->proxies[1].transform, knob, sizeof knob);

    l->property_count = 2;
    l->properties = grab(a, 2 * sizeof *l->properties);
    l->properties[0] = (ferry_odol_property){"autocenter", "0"};
    l->properties[1] = (ferry_odol_property){"class", "house"};

    /* Two keyframes: the door as built, then every point 0.25 along x. */
    l->keyframe_count = 2;
    l->keyframes = grab(a, 2 * sizeof *l->keyframes);
    for (int k = 0; k < 2; k++) {
        ferry_odol_keyframe *kf = &l->keyframes[k];
        kf->time = (float)k;
        kf->point_count = DOOR_VERTICES;
        kf->points = grab(a, DOOR_VERTICES * 3 * sizeof(float));
        memcpy(kf->points, door_positions, sizeof door_positions);
        for (int v = 0; v < DOOR_VERTICES; v++) kf->points[3 * v] += 0.25f * (float)k;
    }
    l->color_top = (int32_t)0xff405060u;
    l->color = (int32_t)0xff6080a0u;
    l->special = 0x100;
    const float min[3] = {-0.625f, 0, -0.125f}, max[3] = {0.625f, 2.25f, 0};
    set_bounds(l, min, max, 1.28125f);
}

static void door_memory(ferry_odol_lod *l, ferry_arena *a)
{
    static const float points[5][3] = {
        {-0.5f, 0, -0.0625f}, {-0.5f, 2.25f, -0.0625f}, {0.375f, 1, -0.125f}, {0.375f, 1.125f, -0.125f}, {0, 2.375f, 0}};
    l->positions = floats_of(a, &points[0][0], 15, 3);
    const float zero[3] = {0, 0, 0};
    l->normals = filled_f32(5, zero, 3);
    l->uv_sets[0] = filled_f32(5, zero, 2);
    l->point_flags = filled_u32(5, 0x01000000u);
    const int32_t sub[3] = {1, 2, 3}, one[1] = {0}, two[1] = {1}, three[1] = {2};
    l->sub_skeleton_to_skeleton = ints_of(a, sub, 3);
    l->skeleton_to_sub_skeleton_count = DOOR_BONES;
    l->skeleton_to_sub_skeleton = grab(a, DOOR_BONES * sizeof *l->skeleton_to_sub_skeleton);
    l->skeleton_to_sub_skeleton[1] = ints_of(a, one, 1);
    l->skeleton_to_sub_skeleton[2] = ints_of(a, two, 1);
    l->skeleton_to_sub_skeleton[3] = ints_of(a, three, 1);
    l->selection_count = 3;
    l->selections = grab(a, 3 * sizeof *l->selections);
    ferry_odol_selection *sel = l->selections;
    static const uint8_t axis_weights[2] = {255, 255};
    for (int i = 0; i < 3; i++) sel[i].faces = sel[i].sections = sel[i].weights = array_of(NULL, 0);
    sel[0].name = "axis_door";
    sel[0].vertices = u16_range(a, 0, 2);
    sel[0].weights = bytes_of(a, axis_weights, 2);
    sel[1].name = "axis_handle";
    sel[1].vertices = u16_range(a, 2, 2);
    sel[2].name = "pos_lamp";
    sel[2].vertices = u16_range(a, 4, 1);
    l->color_top = l->color = (int32_t)0xff000000u;
    const float min[3] = {-0.5f, 0, -0.125f}, max[3] = {0.375f, 2.375f, 0};
    set_bounds(l, min, max, 1.25f);
}

void odol_sample_build_door(odol_sample *out)
{
    const float resolutions[2] = {1.0f, 1e15f};
    begin(out, "odol/door.p3d", 2, resolutions);
    ferry_odol_model *m = &out->model;
    ferry_arena *a = out->storage;
    ferry_odol_model_info *mi = &m->info;
    mi->skeleton.name = "ferry_door_skeleton";
    mi->skeleton.bone_count = DOOR_BONES;
    mi->skeleton.bones = grab(a, DOOR_BONES * sizeof *mi->skeleton.bones);
    mi->skeleton.bones[0] = (ferry_odol_bone_name){"frame", ""};
    mi->skeleton.bones[1] = (ferry_odol_bone_name){"door", "frame"};
    mi->skeleton.bones[2] = (ferry_odol_bone_name){"handle", "door"};
    mi->skeleton.bones[3] = (ferry_odol_bone_name){"lamp", ""};
    mi->animated = 1;
    mi->special_lods[FERRY_ODOL_SPECIAL_LOD_MEMORY] = 1;
    mi->special_lods[FERRY_ODOL_SPECIAL_LOD_VIEW] = 0;
    mi->bounding_sphere = 1.28125f;
    mi->bbox_min[0] = -0.625f, mi->bbox_min[2] = -0.125f;
    mi->bbox_max[0] = 0.625f, mi->bbox_max[1] = 2.375f;
    mi->bounding_center[1] = 1.125f;
    mi->color = 0xff6080a0u;
    mi->class_name = "house";
    mi->frequent = 1;
    door_classes(&m->animations, a);
    door_bone_tables(&m->animations, a);
    door_visual(&m->lods[0], a);
    door_memory(&m->lods[1], a);
}

/* ---- grid.p3d ---- */

enum { GRID = 32, GRID_VERTICES = GRID * GRID, GRID_CELLS = (GRID - 1) * (GRID - 1), GRID_SECTIONS = 256 };
enum { GEO = 16, GEO_POINTS = GEO * GEO, GEO_CELLS = (GEO - 1) * (GEO - 1) };

static void grid_visual(ferry_odol_lod *l, ferry_arena *a)
{
    l->permanent = false;
    l->info = (ferry_odol_lod_info){GRID_CELLS, 0xff808080u, 0, 0, 1};
    float *pos = grab(a, GRID_VERTICES * 12), *nrm = grab(a, GRID_VERTICES * 12), *st = grab(a, GRID_VERTICES * 24);
    float *uv0 = grab(a, GRID_VERTICES * 8), *uv1 = grab(a, GRID_VERTICES * 8);
    uint8_t *flags = grab(a, GRID_VERTICES * 4), *refs = grab(a, GRID_VERTICES * 12);
    uint8_t *neighbours = grab(a, GRID_VERTICES * 32);
    for (int j = 0; j < GRID; j++) {
        for (int i = 0; i < GRID; i++) {
            int v = j * GRID + i;
            pos[3 * v] = (float)i * 0.25f - 3.875f;
            pos[3 * v + 1] = (float)((i * j) % 5) * 0.125f;
            pos[3 * v + 2] = (float)j * 0.25f - 3.875f;
            nrm[3 * v + 1] = 1;
            st[6 * v] = 1;
            st[6 * v + 5] = 1;
            uv0[2 * v] = (float)i * 0.03125f;
            uv0[2 * v + 1] = (float)j * 0.03125f;
            uv1[2 * v] = (float)i * 0.25f;
            uv1[2 * v + 1] = (float)j * 0.25f;
            bool border = i == 0 || j == 0 || i == GRID - 1 || j == GRID - 1;
            put_u32(flags + 4 * v, border ? 0x00000002u : 0);
            put_u32(refs + 12 * v, 1);
            refs[12 * v + 4] = i < GRID / 2 ? 0 : 1;
            refs[12 * v + 5] = 255;
            neighbours[32 * v] = (uint8_t)v;
            neighbours[32 * v + 1] = (uint8_t)(v >> 8);
        }
    }
    l->positions = floats_of(a, pos, GRID_VERTICES * 3, 3);
    l->normals = per_vertex(floats_of(a, nrm, GRID_VERTICES * 3, 3));
    l->st_coords = floats_of(a, st, GRID_VERTICES * 6, 6);
    l->uv_set_count = 2;
    l->uv_sets = grab(a, 2 * sizeof *l->uv_sets);
    l->uv_sets[0] = per_vertex(floats_of(a, uv0, GRID_VERTICES * 2, 2));
    l->uv_sets[1] = per_vertex(floats_of(a, uv1, GRID_VERTICES * 2, 2));
    l->point_flags = per_vertex(array_of(flags, GRID_VERTICES));
    l->vertex_bone_ref_is_simple = 1;
    l->vertex_bone_refs = array_of(refs, GRID_VERTICES);
    l->neighbor_bone_refs = array_of(neighbours, GRID_VERTICES);
    l->point_to_vertex = u16_range(a, 0, GRID_VERTICES);
    l->vertex_to_point = u16_range(a, 0, GRID_VERTICES);
    const int32_t sub[2] = {0, 1};
    l->sub_skeleton_to_skeleton = ints_of(a, sub, 2);
    l->skeleton_to_sub_skeleton_count = 2;
    l->skeleton_to_sub_skeleton = grab(a, 2 * sizeof *l->skeleton_to_sub_skeleton);
    l->skeleton_to_sub_skeleton[0] = ints_of(a, &sub[0], 1);
    l->skeleton_to_sub_skeleton[1] = ints_of(a, &sub[1], 1);

    l->face_count = GRID_CELLS;
    l->faces = grab(a, GRID_CELLS * sizeof *l->faces);
    for (int j = 0; j < GRID - 1; j++)
        for (int i = 0; i < GRID - 1; i++) {
            uint16_t v = (uint16_t)(j * GRID + i);
            l->faces[j * (GRID - 1) + i] = face4(v, (uint16_t)(v + 1), (uint16_t)(v + GRID + 1), (uint16_t)(v + GRID));
        }

    l->texture_count = 4;
    l->textures = grab(a, 4 * sizeof *l->textures);
    l->textures[0] = "ferry\\grid\\tile0_co.paa";
    l->textures[1] = "ferry\\grid\\tile1_co.paa";
    l->textures[2] = "ferry\\grid\\tile2_co.paa";
    l->textures[3] = "ferry\\grid\\tile3_co.paa";
    l->section_count = GRID_SECTIONS;
    l->sections = grab(a, GRID_SECTIONS * sizeof *l->sections);
    int32_t *all_sections = grab(a, GRID_SECTIONS * sizeof *all_sections);
    for (uint32_t k = 0; k < GRID_SECTIONS; k++) {
        ferry_odol_section *s = &l->sections[k];
        s->face_begin = face_bytes(l, k * GRID_CELLS / GRID_SECTIONS);
        s->face_end = face_bytes(l, (k + 1) * GRID_CELLS / GRID_SECTIONS);
        s->bone_count = 2;
        s->texture = (int16_t)(k % 4);
        s->material = -1;
        s->material_name = "";
        all_sections[k] = (int32_t)k;
    }

    l->selection_count = 3;
    l->selections = grab(a, 3 * sizeof *l->selections);
    ferry_odol_selection *sel = l->selections;
    uint8_t *weights = grab(a, GRID_VERTICES);
    for (int v = 0; v < GRID_VERTICES; v++) weights[v] = (uint8_t)(v * 5);
    sel[0].name = "all";
    sel[0].faces = u16_range(a, 0, GRID_CELLS);
    sel[0].is_sectional = 1;
    sel[0].sections = i32s_of(a, all_sections, GRID_SECTIONS);
    sel[0].vertices = u16_range(a, 0, GRID_VERTICES);
    sel[0].weights = array_of(weights, GRID_VERTICES);
    /* One vertex short: 1023 weight bytes, the largest array stored raw. */
    sel[1].name = "most";
    sel[1].faces = sel[1].sections = array_of(NULL, 0);
    sel[1].vertices = u16_range(a, 0, GRID_VERTICES - 1);
    sel[1].weights = array_of(weights, GRID_VERTICES - 1);
    static const uint16_t corner[4] = {0, 1, GRID, GRID + 1};
    static const int32_t first_section[1] = {0};
    sel[2].name = "corner";
    sel[2].faces = u16_range(a, 0, 1);
    sel[2].is_sectional = 1;
    sel[2].sections = i32s_of(a, first_section, 1);
    sel[2].vertices = u16s_of(a, corner, 4);
    sel[2].weights = array_of(NULL, 0);

    l->property_count = 1;
    l->properties = grab(a, sizeof *l->properties);
    l->properties[0] = (ferry_odol_property){"lodnoshadow", "1"};
    l->color_top = l->color = (int32_t)0xff808080u;
    const float min[3] = {-3.875f, 0, -3.875f}, max[3] = {3.875f, 0.5f, 3.875f};
    set_bounds(l, min, max, 5.5f);
}

static void grid_geometry(ferry_odol_lod *l, ferry_arena *a)
{
    float *pos = grab(a, GEO_POINTS * 12);
    for (int j = 0; j < GEO; j++)
        for (int i = 0; i < GEO; i++) {
            int p = j * GEO + i;
            pos[3 * p] = (float)i * 0.5f - 3.75f;
            pos[3 * p + 2] = (float)j * 0.5f - 3.75f;
        }
    l->positions = floats_of(a, pos, GEO_POINTS * 3, 3);
    const float up[3] = {0, 1, 0}, zero_uv[2] = {0, 0};
    l->normals = filled_f32(GEO_POINTS, up, 3);
    l->uv_sets[0] = filled_f32(GEO_POINTS, zero_uv, 2);
    l->point_flags = filled_u32(GEO_POINTS, 0);
    l->face_count = GEO_CELLS;
    l->faces = grab(a, GEO_CELLS * sizeof *l->faces);
    for (int j = 0; j < GEO - 1; j++)
        for (int i = 0; i < GEO - 1; i++) {
            uint16_t p = (uint16_t)(j * GEO + i);
            l->faces[j * (GEO - 1) + i] = face4(p, (uint16_t)(p + GEO), (uint16_t)(p + GEO + 1), (uint16_t)(p + 1));
        }
    l->section_count = 1;
    l->sections = grab(a, sizeof *l->sections);
    l->sections[0].face_end = face_bytes(l, GEO_CELLS);
    l->sections[0].texture = -1;
    l->sections[0].material = -1;
    l->sections[0].material_name = "";
    l->selection_count = 1;
    l->selections = grab(a, sizeof *l->selections);
    l->selections[0].name = "Component01";
    l->selections[0].faces = u16_range(a, 0, GEO_CELLS);
    l->selections[0].sections = array_of(NULL, 0);
    l->selections[0].vertices = u16_range(a, 0, GEO_POINTS);
    l->selections[0].weights = array_of(NULL, 0);
    l->property_count = 1;
    l->properties = grab(a, sizeof *l->properties);
    l->properties[0] = (ferry_odol_property){"class", "road"};
    l->color_top = l->color = (int32_t)0xff000000u;
    const float min[3] = {-3.75f, 0, -3.75f}, max[3] = {3.75f, 0, 3.75f};
    set_bounds(l, min, max, 5.3033009f);
}

void odol_sample_build_grid(odol_sample *out)
{
    const float resolutions[2] = {1.0f, 1e13f};
    begin(out, "odol/grid.p3d", 2, resolutions);
    ferry_odol_model *m = &out->model;
    ferry_arena *a = out->storage;
    /* Stored in the header's order, unlike the other samples. */
    m->storage_order[0] = 0;
    m->storage_order[1] = 1;
    ferry_odol_model_info *mi = &m->info;
    mi->skeleton.name = "ferry_grid_skeleton";
    mi->skeleton.is_discrete = 1;
    mi->skeleton.bone_count = 2;
    mi->skeleton.bones = grab(a, 2 * sizeof *mi->skeleton.bones);
    mi->skeleton.bones[0] = (ferry_odol_bone_name){"root", ""};
    mi->skeleton.bones[1] = (ferry_odol_bone_name){"half", "root"};
    mi->animated = 1;
    mi->special_lods[FERRY_ODOL_SPECIAL_LOD_GEOMETRY] = 1;
    /* 256 points of 2 kg: a mass array of exactly 1024 bytes. */
    float *masses = grab(a, GEO_POINTS * sizeof *masses);
    for (int p = 0; p < GEO_POINTS; p++) masses[p] = 2;
    mi->mass_array = floats_of(a, masses, GEO_POINTS, 1);
    mi->mass = 512;
    mi->inv_mass = 1.0f / 512;
    mi->bounding_sphere = 5.5f;
    mi->bbox_min[0] = -3.875f, mi->bbox_min[2] = -3.875f;
    mi->bbox_max[0] = 3.875f, mi->bbox_max[1] = 0.5f, mi->bbox_max[2] = 3.875f;
    mi->class_name = "road";

    ferry_odol_animations *an = &m->animations;
    an->present = true;
    an->class_count = 1;
    an->classes = grab(a, sizeof *an->classes);
    an->classes[0] = (ferry_odol_animation_class){FERRY_ODOL_ANIM_TRANSLATION_Y, "grid_lift", "lift", 0, 1, 0, 1, 0,
                                                  {0, 0.5f}, {0, 0, 0}, {0, 0, 0}, 0, 0};
    an->lod_count = 2;
    an->bone_counts = grab(a, 2 * sizeof *an->bone_counts);
    an->bones_to_anims = grab(a, 2 * sizeof *an->bones_to_anims);
    an->anims_to_bones = grab(a, 2 * sizeof *an->anims_to_bones);
    an->bone_counts[0] = 2;
    an->bones_to_anims[0] = grab(a, 2 * sizeof **an->bones_to_anims);
    an->bones_to_anims[0][1].count = 1;
    an->bones_to_anims[0][1].animations = grab(a, sizeof(uint32_t));
    an->anims_to_bones[0] = (ferry_odol_anim_bone){1, {0, 0, 0}, {0, 1, 0}};
    an->bone_counts[1] = 0;
    an->anims_to_bones[1] = (ferry_odol_anim_bone){-1, {0, 0, 0}, {0, 0, 0}};

    grid_visual(&m->lods[0], a);
    grid_geometry(&m->lods[1], a);
}

void odol_sample_free(odol_sample *sample)
{
    ferry_arena_destroy(sample->storage);
    memset(sample, 0, sizeof *sample);
}

const odol_sample_builder odol_sample_builders[] = {odol_sample_build_box, odol_sample_build_door,
                                                    odol_sample_build_grid};
const size_t odol_sample_builder_count = sizeof odol_sample_builders / sizeof odol_sample_builders[0];

/* ---- layout ---- */

/* The bytes an array's body takes: as stored, raw, or its LZSS stream and
 * checksum from 1024 bytes on (the writer's encoder is deterministic). */
static size_t body_size(const ferry_odol_array *a, size_t elem)
{
    size_t size = (size_t)a->count * elem;
    if (size == 0) return 0;
    if (a->stored) return a->stored_size;
    if (size < FERRY_LZSS_MIN_COMPRESSED_SIZE) return size;
    ferry_buffer b = {0};
    ferry_error err;
    if (ferry_lzss_encode(a->data, size, &b, &err) != FERRY_OK) return 0;
    size_t n = b.size;
    ferry_buffer_free(&b);
    return n;
}

static size_t condensed_size(const ferry_odol_condensed *c, size_t elem)
{
    return 4 + 1 + (c->default_fill ? elem : body_size(&c->array, elem));
}

static uint32_t rest_size(const ferry_odol_lod *l)
{
    size_t n = 4; /* the field itself */
    for (uint32_t i = 0; i < l->uv_set_count; i++) n += condensed_size(&l->uv_sets[i], 8);
    n += 4; /* the UV set count, after the first set */
    n += 4 + body_size(&l->positions, 12);
    n += condensed_size(&l->normals, 12);
    n += 4 + body_size(&l->st_coords, 24);
    n += 4 + body_size(&l->vertex_bone_refs, 12);
    n += 4 + body_size(&l->neighbor_bone_refs, 32);
    return (uint32_t)n;
}

static int written_size(const ferry_odol_model *m, size_t *size)
{
    ferry_buffer b = {0};
    ferry_error err;
    ferry_result rc = ferry_odol_write(m, &b, &err);
    if (rc != FERRY_OK) fprintf(stderr, "odol_samples: cannot write: %s\n", err.message);
    *size = b.size;
    ferry_buffer_free(&b);
    return rc == FERRY_OK ? 0 : -1;
}

/* A LOD's size is what the file loses when it is swapped for an empty LOD
 * of known size: the offsets stored elsewhere keep their width. */
int odol_sample_layout(ferry_odol_model *m)
{
    for (uint32_t i = 0; i < m->lod_count; i++) {
        ferry_odol_lod *l = &m->lods[i];
        l->face_block_size = (uint32_t)face_bytes(l, l->face_count);
        l->rest_size = rest_size(l);
    }
    size_t whole;
    if (written_size(m, &whole) != 0) return -1;
    size_t lods_total = 0;
    uint32_t *sizes = calloc(m->lod_count ? m->lod_count : 1, sizeof *sizes);
    ferry_odol_condensed empty_uv;
    memset(&empty_uv, 0, sizeof empty_uv);
    for (uint32_t i = 0; i < m->lod_count; i++) {
        ferry_odol_lod saved = m->lods[i], *l = &m->lods[i];
        memset(l, 0, sizeof *l);
        l->resolution = saved.resolution;
        l->permanent = saved.permanent;
        l->info = saved.info;
        l->uv_set_count = 1;
        l->uv_sets = &empty_uv;
        size_t without;
        int rc = written_size(m, &without);
        *l = saved;
        if (rc != 0) {
            free(sizes);
            return -1;
        }
        sizes[i] = (uint32_t)(whole - without + ODOL_SAMPLE_EMPTY_LOD_SIZE);
        lods_total += sizes[i];
    }
    uint32_t at = (uint32_t)(whole - lods_total);
    for (uint32_t n = 0; n < m->lod_count; n++) {
        uint32_t i = m->storage_order[n];
        m->lod_starts[i] = at;
        at += sizes[i];
        m->lod_ends[i] = at;
    }
    free(sizes);
    return 0;
}
