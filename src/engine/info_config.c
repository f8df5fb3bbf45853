/* The config rows (raP and text: .rvmat, config.bin, config.cpp): read
 * (either form into one tree), the raP rewrite, validate, and the info
 * (`ferry info`: classes, entries, a material's stages; `ferry dump
 * --json`: the tree with offsets). */
#include "engine_internal.h"

#include <ferry/config.h>

#include "../core/core.h"

FY_DEFINE_READ(config, ferry_config, ferry_config_read)
FY_DEFINE_FREE(config, ferry_config_free)
/* raP as read, byte for byte (a text config has no writer of its own bytes). */
FY_DEFINE_WRITE(rap, ferry_config_write)
FY_WRITE_LAYOUT(config)
{
    if (layout == FERRY_LAYOUT_RAP) return ferry_config_write(object, out, err);
    if (layout == FERRY_LAYOUT_TEXT) return ferry_config_write_text(object, out, err);
    fy_error_set(err, FERRY_ERR_ARGUMENT, FERRY_NO_OFFSET, NULL,
                 "a config is written as raP (layout %d) or text (layout %d), not %u", FERRY_LAYOUT_RAP,
                 FERRY_LAYOUT_TEXT, layout);
    return FERRY_ERR_ARGUMENT;
}
FY_DEFINE_VALIDATE(config, ferry_config_validate)

static void count(const ferry_config_class *cls, size_t *entries, int depth)
{
    *entries += cls->entry_count;
    for (size_t i = 0; i < cls->entry_count && depth < FERRY_CONFIG_MAX_DEPTH; i++)
        if (cls->entries[i].kind == FERRY_CONFIG_CLASS && cls->entries[i].cls)
            count(cls->entries[i].cls, entries, depth + 1);
}

static bool is_material(const ferry_config *c)
{
    return ferry_config_find(c, NULL, "PixelShaderID", false) || ferry_config_find(c, NULL, "Stage1", false) ||
           ferry_config_find(c, NULL, "diffuse", false);
}

static json_t *colour_json(const fy_info *info, const float v[4])
{
    json_t *a = json_array();
    for (int i = 0; i < 4; i++) json_array_append_new(a, fy_json_real(info, v[i]));
    return a;
}

static json_t *material_json(const fy_info *info, const ferry_rvmat *m)
{
    json_t *j = json_object();
    if (m->has_ambient) json_object_set_new(j, "ambient", colour_json(info, m->ambient));
    if (m->has_diffuse) json_object_set_new(j, "diffuse", colour_json(info, m->diffuse));
    if (m->has_forced_diffuse) json_object_set_new(j, "forcedDiffuse", colour_json(info, m->forced_diffuse));
    if (m->has_emmisive) json_object_set_new(j, "emmisive", colour_json(info, m->emmisive));
    if (m->has_specular) json_object_set_new(j, "specular", colour_json(info, m->specular));
    if (m->has_specular_power) json_object_set_new(j, "specularPower", fy_json_real(info, m->specular_power));
    if (m->pixel_shader) fy_json_set_text(j, "PixelShaderID", m->pixel_shader);
    if (m->vertex_shader) fy_json_set_text(j, "VertexShaderID", m->vertex_shader);
    json_t *stages = json_array();
    for (size_t i = 0; i < m->stage_count; i++) {
        const ferry_rvmat_stage *s = &m->stages[i];
        json_t *sj = json_object();
        fy_json_set_text(sj, "name", s->name);
        if (s->texture) fy_json_set_text(sj, "texture", s->texture);
        if (s->uv_source) fy_json_set_text(sj, "uvSource", s->uv_source);
        if (s->tex_gen >= 0) json_object_set_new(sj, "texGen", json_integer(s->tex_gen));
        json_object_set_new(sj, "role", json_string(ferry_rvmat_role_name(s->role)));
        json_array_append_new(stages, sj);
    }
    json_object_set_new(j, "stages", stages);
    json_object_set_new(j, "normal_stage", m->normal_stage >= 0 ? json_string(m->stages[m->normal_stage].name) : json_null());
    json_object_set_new(j, "specular_stage",
                        m->specular_stage >= 0 ? json_string(m->stages[m->specular_stage].name) : json_null());
    json_object_set_new(j, "detail_stage", m->detail_stage >= 0 ? json_string(m->stages[m->detail_stage].name) : json_null());
    return j;
}

static json_t *value_json(const fy_info *info, const ferry_config_value *v, int depth)
{
    switch (v->type) {
    case FERRY_CONFIG_STRING: return fy_json_text(v->string ? v->string : "", NULL);
    case FERRY_CONFIG_EXPRESSION: {
        json_t *j = json_object();
        json_object_set_new(j, "expression", fy_json_text(v->string ? v->string : "", NULL));
        return j;
    }
    case FERRY_CONFIG_FLOAT: return fy_json_real(info, v->f);
    case FERRY_CONFIG_INT:
    case FERRY_CONFIG_INT64: return json_integer((json_int_t)v->i);
    case FERRY_CONFIG_ARRAY: {
        json_t *a = json_array();
        for (size_t i = 0; i < v->count && depth < FERRY_CONFIG_MAX_DEPTH; i++)
            json_array_append_new(a, value_json(info, &v->items[i], depth + 1));
        return a;
    }
    default: return json_null();
    }
}

static json_t *class_json(const fy_info *info, const ferry_config_class *cls, bool binarized, int depth)
{
    static const char *const kinds[] = {"class", "value", "array", "external", "delete", "append"};
    json_t *j = json_object();
    if (cls->parent && *cls->parent) fy_json_set_text(j, "parent", cls->parent);
    if (binarized) json_object_set_new(j, "offset", json_integer((json_int_t)cls->body_offset));
    json_t *entries = json_array();
    for (size_t i = 0; i < cls->entry_count; i++) {
        const ferry_config_entry *e = &cls->entries[i];
        json_t *ej = json_object();
        json_object_set_new(ej, "kind", json_string(e->kind < 6 ? kinds[e->kind] : "unknown"));
        fy_json_set_text(ej, "name", e->name);
        json_object_set_new(ej, "offset", json_integer((json_int_t)e->offset));
        if (e->kind == FERRY_CONFIG_CLASS && e->cls && depth < FERRY_CONFIG_MAX_DEPTH)
            json_object_set_new(ej, "class", class_json(info, e->cls, binarized, depth + 1));
        else if (e->kind == FERRY_CONFIG_VALUE || e->kind == FERRY_CONFIG_ARRAY_ENTRY ||
                 e->kind == FERRY_CONFIG_ARRAY_APPEND) {
            json_object_set_new(ej, "type", json_string(ferry_config_type_name(e->value.type)));
            json_object_set_new(ej, "value", value_json(info, &e->value, 0));
        }
        json_array_append_new(entries, ej);
    }
    json_object_set_new(j, "entries", entries);
    return j;
}


static json_t *config_summary(const fy_info *info, const ferry_config *c)
{
    size_t entries = 0;
    count(&c->root, &entries, 0);
    ferry_rvmat m;
    ferry_error err;
    bool material = is_material(c) && ferry_rvmat_read(c, &m, &err) == FERRY_OK;
    json_t *j = json_object();
    fy_json_set_file(j, info);
    json_object_set_new(j, "format", json_string(c->binarized ? "raP config" : "config text"));
    json_object_set_new(j, "size", json_integer((json_int_t)info->size));
    json_object_set_new(j, "classes", json_integer((json_int_t)c->class_count));
    json_object_set_new(j, "entries", json_integer((json_int_t)entries));
    json_object_set_new(j, "enums", json_integer((json_int_t)c->enum_count));
    if (material) json_object_set_new(j, "material", material_json(info, &m));
    return j;
}

static json_t *config_json(const fy_info *info, const ferry_config *c)
{
    json_t *j = json_object();
    fy_json_set_file(j, info);
    json_object_set_new(j, "format", json_string(c->binarized ? "raP config" : "config text"));
    json_t *enums = json_object();
    for (size_t i = 0; i < c->enum_count; i++)
        json_object_set_new(enums, c->enums[i].name, json_integer(c->enums[i].value));
    json_object_set_new(j, "enums", enums);
    json_object_set_new(j, "root", class_json(info, &c->root, c->binarized, 0));
    return j;
}

FY_INFO(config)
{
    (void)err;
    return info->detail == FERRY_INFO_FULL ? config_json(info, object) : config_summary(info, object);
}
