/* The ODOL row (binarized P3D; MLOD files are refused by its reader): read,
 * write, validate, scene, and its info (`ferry info`, `ferry dump`). */
#include "engine_internal.h"

#include <ferry/lzss.h>

#include <stdio.h>
#include <string.h>

FY_DEFINE_READ(odol, ferry_odol_model, ferry_odol_read)
FY_DEFINE_FREE(odol, ferry_odol_free)
FY_DEFINE_WRITE(odol, ferry_odol_write)
FY_DEFINE_VALIDATE(odol, ferry_odol_validate)

FY_TO_SCENE(odol)
{
    (void)asset;
    ferry_odol_scene_options o = {0};
    if (options) {
        o.name = options->name;
        o.all = options->all;
        o.lods = options->lods;
        o.lod_count = options->lod_count;
        o.texture_roots = options->texture_roots;
        o.texture_root_count = options->texture_root_count;
        o.diagnostics = options->diagnostics;
        o.report = options->odol_report;
        o.no_animations = options->no_animations;
        o.png_effort = options->png_effort;
    }
    return ferry_odol_to_scene(object, &o, out, err);
}

/* An array's count and how it is stored (both codecs compress from the
 * same size on: LZSS up to v40, LZO after). */
static json_t *array_json(const ferry_odol_array *a, size_t elem)
{
    json_t *j = json_object();
    json_object_set_new(j, "count", json_integer(a->count));
    size_t size = (size_t)a->count * elem;
    json_object_set_new(j, "bytes", json_integer((json_int_t)size));
    json_object_set_new(j, "compressed", json_boolean(size >= FERRY_LZSS_MIN_COMPRESSED_SIZE));
    if (a->stored) json_object_set_new(j, "stored_bytes", json_integer((json_int_t)a->stored_size));
    if (a->offset != FERRY_NO_OFFSET) json_object_set_new(j, "offset", json_integer((json_int_t)a->offset));
    return j;
}

static json_t *condensed_json(const ferry_odol_condensed *c, size_t elem)
{
    json_t *j = array_json(&c->array, c->default_fill ? 0 : elem);
    json_object_set_new(j, "count", json_integer(c->array.count));
    json_object_set_new(j, "default_fill", json_boolean(c->default_fill));
    return j;
}

static json_t *u16_list(const ferry_odol_array *a)
{
    json_t *l = json_array();
    for (uint32_t i = 0; i < a->count && a->data; i++)
        json_array_append_new(l, json_integer((json_int_t)(a->data[2 * i] | (a->data[2 * i + 1] << 8))));
    return l;
}

static void lod_counts(const ferry_odol_lod *l, size_t *tris, size_t *quads)
{
    *tris = *quads = 0;
    for (uint32_t f = 0; f < l->face_count; f++) {
        if (l->faces[f].count == 4) (*quads)++;
        else (*tris)++;
    }
}

static json_t *lod_summary(const fy_info *info, const ferry_odol_model *m, uint32_t i)
{
    const ferry_odol_lod *l = &m->lods[i];
    char name[64];
    ferry_odol_resolution_name(l->resolution, name, sizeof name);
    size_t tris, quads;
    lod_counts(l, &tris, &quads);
    json_t *j = json_object();
    json_object_set_new(j, "index", json_integer(i));
    json_object_set_new(j, "resolution", fy_json_real(info, l->resolution));
    fy_json_set_text(j, "name", name);
    json_object_set_new(j, "vertices", json_integer(l->positions.count));
    json_object_set_new(j, "faces", json_integer(l->face_count));
    json_object_set_new(j, "triangles", json_integer((json_int_t)tris));
    json_object_set_new(j, "quads", json_integer((json_int_t)quads));
    json_object_set_new(j, "sections", json_integer(l->section_count));
    json_object_set_new(j, "selections", json_integer(l->selection_count));
    json_object_set_new(j, "proxies", json_integer(l->proxy_count));
    json_object_set_new(j, "textures", json_integer(l->texture_count));
    json_object_set_new(j, "materials", json_integer(l->material_count));
    json_object_set_new(j, "properties", json_integer(l->property_count));
    return j;
}

/* ---- dump: everything, as one JSON document (or its text rendering) ---- */

static json_t *material_json(const fy_info *info, const ferry_odol_material *mt)
{
    json_t *j = json_object();
    fy_json_set_text(j, "name", mt->name);
    json_object_set_new(j, "version", json_integer(mt->version));
    json_object_set_new(j, "emissive", fy_json_floats(info, mt->emissive, 4));
    json_object_set_new(j, "ambient", fy_json_floats(info, mt->ambient, 4));
    json_object_set_new(j, "diffuse", fy_json_floats(info, mt->diffuse, 4));
    json_object_set_new(j, "forced_diffuse", fy_json_floats(info, mt->forced_diffuse, 4));
    json_object_set_new(j, "specular", fy_json_floats(info, mt->specular, 4));
    json_object_set_new(j, "specular_power", fy_json_real(info, mt->specular_power));
    json_object_set_new(j, "pixel_shader", json_integer(mt->pixel_shader));
    json_object_set_new(j, "vertex_shader", json_integer(mt->vertex_shader));
    fy_json_set_text(j, "surface", mt->surface ? mt->surface : "");
    json_t *stages = json_array();
    for (uint32_t s = 0; s < mt->stage_count; s++) {
        json_t *st = json_object();
        json_object_set_new(st, "stage", json_integer(mt->stages[s].stage));
        fy_json_set_text(st, "texture", mt->stages[s].texture);
        json_object_set_new(st, "filter", json_integer(mt->stages[s].filter));
        if (s < mt->transform_count) {
            json_object_set_new(st, "uv_source", json_integer(mt->transforms[s].uv_source));
            json_object_set_new(st, "transform", fy_json_floats(info, mt->transforms[s].transform, 12));
        }
        json_array_append_new(stages, st);
    }
    json_object_set_new(j, "stages", stages);
    return j;
}

static json_t *lod_json(const fy_info *info, const ferry_odol_model *m, uint32_t i)
{
    const ferry_odol_lod *l = &m->lods[i];
    json_t *j = lod_summary(info, m, i);
    json_object_set_new(j, "offset", json_integer((json_int_t)l->offset));
    json_object_set_new(j, "start", json_integer(m->lod_starts[i]));
    json_object_set_new(j, "end", json_integer(m->lod_ends[i]));
    json_object_set_new(j, "permanent", json_boolean(l->permanent));
    json_object_set_new(j, "bmin", fy_json_floats(info, l->bmin, 3));
    json_object_set_new(j, "bmax", fy_json_floats(info, l->bmax, 3));
    json_object_set_new(j, "bradius", fy_json_real(info, l->bradius));
    json_t *a = json_array();
    json_object_set_new(j, "texture_names", a);
    for (uint32_t t = 0; t < l->texture_count; t++) fy_json_append_text(j, "texture_names", a, l->textures[t]);
    a = json_array();
    for (uint32_t t = 0; t < l->material_count; t++) json_array_append_new(a, material_json(info, &l->materials[t]));
    json_object_set_new(j, "material_list", a);
    a = json_array();
    for (uint32_t p = 0; p < l->proxy_count; p++) {
        json_t *pj = json_object();
        fy_json_set_text(pj, "model", l->proxies[p].model);
        json_object_set_new(pj, "transform", fy_json_floats(info, l->proxies[p].transform, 12));
        json_object_set_new(pj, "selection", json_integer(l->proxies[p].selection_index));
        json_object_set_new(pj, "bone", json_integer(l->proxies[p].bone_index));
        json_object_set_new(pj, "section", json_integer(l->proxies[p].section_index));
        json_array_append_new(a, pj);
    }
    json_object_set_new(j, "proxy_list", a);
    json_object_set_new(j, "face_block_size", json_integer(l->face_block_size));
    a = json_array();
    for (uint32_t f = 0; f < l->face_count; f++) {
        json_t *fj = json_array();
        for (uint8_t c = 0; c < l->faces[f].count && c < 4; c++) json_array_append_new(fj, json_integer(l->faces[f].vertices[c]));
        json_array_append_new(a, fj);
    }
    json_object_set_new(j, "face_list", a);
    a = json_array();
    for (uint32_t s = 0; s < l->section_count; s++) {
        const ferry_odol_section *sec = &l->sections[s];
        json_t *sj = json_object();
        json_object_set_new(sj, "face_bytes", json_pack("[ii]", sec->face_begin, sec->face_end));
        json_object_set_new(sj, "texture", json_integer(sec->texture));
        json_object_set_new(sj, "material", json_integer(sec->material));
        if (sec->material == -1) fy_json_set_text(sj, "material_name", sec->material_name);
        json_object_set_new(sj, "special", json_integer(sec->special));
        json_array_append_new(a, sj);
    }
    json_object_set_new(j, "section_list", a);
    a = json_array();
    for (uint32_t s = 0; s < l->selection_count; s++) {
        const ferry_odol_selection *sel = &l->selections[s];
        json_t *sj = json_object();
        fy_json_set_text(sj, "name", sel->name);
        json_object_set_new(sj, "sectional", json_boolean(sel->is_sectional));
        json_object_set_new(sj, "faces", u16_list(&sel->faces));
        json_object_set_new(sj, "vertices", u16_list(&sel->vertices));
        json_object_set_new(sj, "sections", json_integer(sel->sections.count));
        json_object_set_new(sj, "weights", json_integer(sel->weights.count));
        json_array_append_new(a, sj);
    }
    json_object_set_new(j, "selection_list", a);
    a = json_object();
    for (uint32_t p = 0; p < l->property_count; p++)
        fy_json_set_text(a, fy_json_key(l->properties[p].name, (char[4200]){0}, 4200),
                          l->properties[p].value);
    json_object_set_new(j, "property_list", a);
    json_object_set_new(j, "keyframes", json_integer(l->keyframe_count));
    json_t *arrays = json_object();
    json_object_set_new(arrays, "point_flags", condensed_json(&l->point_flags, 4));
    json_object_set_new(arrays, "point_to_vertex", array_json(&l->point_to_vertex, 2));
    json_object_set_new(arrays, "vertex_to_point", array_json(&l->vertex_to_point, 2));
    /* From v45 on, UVs, normals and tangent vectors are packed. */
    bool packed = m->version >= 45;
    for (uint32_t u = 0; u < l->uv_set_count; u++) {
        char key[32];
        snprintf(key, sizeof key, "uv_set_%u", u);
        json_object_set_new(arrays, key, condensed_json(&l->uv_sets[u], packed ? 4 : 8));
    }
    json_object_set_new(arrays, "positions", array_json(&l->positions, 12));
    json_object_set_new(arrays, "normals", condensed_json(&l->normals, packed ? 4 : 12));
    json_object_set_new(arrays, "st_coords", array_json(&l->st_coords, packed ? 8 : 24));
    json_object_set_new(arrays, "vertex_bone_refs", array_json(&l->vertex_bone_refs, 12));
    json_object_set_new(arrays, "neighbor_bone_refs", array_json(&l->neighbor_bone_refs, 32));
    json_object_set_new(j, "arrays", arrays);
    return j;
}

/* An animation class (json_pack: a name that is not UTF-8 or a value not
 * finite leaves the class out, as the tool always did, unless
 * nonfinite_strings asks for the values as strings). */
static json_t *animation_class_json(const fy_info *info, const ferry_odol_animation_class *a)
{
    if (!info->nonfinite_strings)
        return json_pack("{sisssssfsf}", "type", (int)a->type, "name", a->name, "source", a->source, "min_value",
                         (double)a->min_value, "max_value", (double)a->max_value);
    json_t *j = json_pack("{sisssss}", "type", (int)a->type, "name", a->name, "source", a->source);
    json_object_set_new(j, "min_value", fy_json_real(info, a->min_value));
    json_object_set_new(j, "max_value", fy_json_real(info, a->max_value));
    return j;
}

/* {file, format, version, size}: how both documents start. */
static json_t *model_header(const fy_info *info, const ferry_odol_model *m)
{
    json_t *j = json_object();
    fy_json_set_file(j, info);
    json_object_set_new(j, "format", json_string("ODOL"));
    json_object_set_new(j, "version", json_integer(m->version));
    json_object_set_new(j, "size", json_integer((json_int_t)info->size));
    return j;
}

static json_t *model_json(const fy_info *info, const ferry_odol_model *m)
{
    const ferry_odol_model_info *mi = &m->info;
    json_t *j = model_header(info, m);
    json_t *o = json_object();
    json_object_set_new(o, "bounding_sphere", fy_json_real(info, mi->bounding_sphere));
    json_object_set_new(o, "bbox_min", fy_json_floats(info, mi->bbox_min, 3));
    json_object_set_new(o, "bbox_max", fy_json_floats(info, mi->bbox_max, 3));
    json_object_set_new(o, "center_of_mass", fy_json_floats(info, mi->center_of_mass, 3));
    json_object_set_new(o, "mass", fy_json_real(info, mi->mass));
    json_object_set_new(o, "armor", fy_json_real(info, mi->armor));
    json_object_set_new(o, "map_type", json_integer(mi->map_type));
    fy_json_set_text(o, "class", mi->class_name);
    fy_json_set_text(o, "damage", mi->damage);
    json_object_set_new(o, "mass_array", array_json(&mi->mass_array, 4));
    json_t *special = json_array();
    for (int i = 0; i < FERRY_ODOL_SPECIAL_LOD_COUNT; i++)
        json_array_append_new(special, mi->special_lods[i] == 0xFF ? json_null() : json_integer(mi->special_lods[i]));
    json_object_set_new(o, "named_lods", special);
    json_t *bones = json_array();
    for (uint32_t b = 0; b < mi->skeleton.bone_count; b++)
        json_array_append_new(bones, json_pack("{ssss}", "name", mi->skeleton.bones[b].name, "parent",
                                               mi->skeleton.bones[b].parent));
    json_object_set_new(o, "skeleton", json_pack("{sssO}", "name", mi->skeleton.name, "bones", bones));
    json_decref(bones);
    json_object_set_new(j, "model_info", o);
    json_t *classes = json_array();
    for (uint32_t c = 0; c < m->animations.class_count; c++)
        json_array_append_new(classes, animation_class_json(info, &m->animations.classes[c]));
    json_object_set_new(j, "animation_classes", classes);
    json_t *lods = json_array();
    for (uint32_t i = 0; i < m->lod_count; i++) json_array_append_new(lods, lod_json(info, m, i));
    json_object_set_new(j, "lods", lods);
    return j;
}


static json_t *model_summary(const fy_info *info, const ferry_odol_model *m)
{
    const ferry_odol_model_info *mi = &m->info;
    json_t *j = model_header(info, m);
    fy_json_set_text(j, "class", mi->class_name);
    fy_json_set_text(j, "damage", mi->damage);
    json_object_set_new(j, "mass", fy_json_real(info, mi->mass));
    json_object_set_new(j, "bbox_min", fy_json_floats(info, mi->bbox_min, 3));
    json_object_set_new(j, "bbox_max", fy_json_floats(info, mi->bbox_max, 3));
    fy_json_set_text(j, "skeleton", mi->skeleton.name);
    json_object_set_new(j, "bones", json_integer(mi->skeleton.bone_count));
    /* Whether the model stores its animations at all (the flag byte), which
     * a count of 0 classes does not tell. */
    json_object_set_new(j, "animations_present", json_boolean(m->animations.present != 0));
    json_object_set_new(j, "animation_classes", json_integer(m->animations.class_count));
    json_t *lods = json_array();
    for (uint32_t i = 0; i < m->lod_count; i++) json_array_append_new(lods, lod_summary(info, m, i));
    json_object_set_new(j, "lods", lods);
    return j;
}

FY_INFO(odol)
{
    (void)err;
    return info->detail == FERRY_INFO_FULL ? model_json(info, object) : model_summary(info, object);
}
