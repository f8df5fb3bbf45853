/* Particle system -> ferry_scene: an axis root for the system, a child
 * node per emitter, and everything needed to rebuild the emitters (their
 * properties, groups, tracks, connections and textures) in extras. glTF has
 * no particles, so the nodes only place and name the emitters. */
#include "convert_internal.h"

#include <stddef.h>
#include <stdio.h>
#include <string.h>

typedef enum { P_U32, P_U8, P_F32 } prop_kind;

typedef struct prop_field {
    const char *name;
    uint8_t mini; /* mini-chunk type: present bit */
    prop_kind kind;
    uint8_t count;
    size_t offset;
} prop_field;

/* Every known property, named as in particle.h. */
static const prop_field prop_fields[] = {
    {"blend_mode", 0x04, P_U32, 1, offsetof(ferry_particle_properties, blend_mode)},
    {"primitive_type", 0x05, P_U32, 1, offsetof(ferry_particle_properties, primitive_type)},
    {"unused1", 0x06, P_U32, 1, offsetof(ferry_particle_properties, unused1)},
    {"in_bursts", 0x07, P_U8, 1, offsetof(ferry_particle_properties, in_bursts)},
    {"link_to_system", 0x08, P_U8, 1, offsetof(ferry_particle_properties, link_to_system)},
    {"inward_speed", 0x09, P_F32, 1, offsetof(ferry_particle_properties, inward_speed)},
    {"acceleration", 0x0a, P_F32, 3, offsetof(ferry_particle_properties, acceleration)},
    {"outward_acceleration", 0x0b, P_F32, 1, offsetof(ferry_particle_properties, outward_acceleration)},
    {"gravity", 0x0c, P_F32, 1, offsetof(ferry_particle_properties, gravity)},
    {"lifetime", 0x0f, P_F32, 1, offsetof(ferry_particle_properties, lifetime)},
    {"texture_elements", 0x10, P_U32, 1, offsetof(ferry_particle_properties, texture_elements)},
    {"unused2", 0x11, P_F32, 1, offsetof(ferry_particle_properties, unused2)},
    {"randomized_scale", 0x12, P_F32, 1, offsetof(ferry_particle_properties, randomized_scale)},
    {"randomized_lifetime", 0x13, P_F32, 1, offsetof(ferry_particle_properties, randomized_lifetime)},
    {"index", 0x14, P_U32, 1, offsetof(ferry_particle_properties, index)},
    {"unused3", 0x15, P_U8, 1, offsetof(ferry_particle_properties, unused3)},
    {"randomized_rotation", 0x17, P_F32, 1, offsetof(ferry_particle_properties, randomized_rotation)},
    {"rotation_direction", 0x23, P_U8, 1, offsetof(ferry_particle_properties, rotation_direction)},
    {"initial_delay", 0x24, P_F32, 1, offsetof(ferry_particle_properties, initial_delay)},
    {"burst_delay", 0x25, P_F32, 1, offsetof(ferry_particle_properties, burst_delay)},
    {"particles_per_burst", 0x26, P_U32, 1, offsetof(ferry_particle_properties, particles_per_burst)},
    {"bursts", 0x27, P_U32, 1, offsetof(ferry_particle_properties, bursts)},
    {"emitter_speed_mult", 0x28, P_F32, 1, offsetof(ferry_particle_properties, emitter_speed_mult)},
    {"particles_per_second", 0x2a, P_U32, 1, offsetof(ferry_particle_properties, particles_per_second)},
    {"unused4", 0x2b, P_U8, 1, offsetof(ferry_particle_properties, unused4)},
    {"randomized_color", 0x2c, P_F32, 4, offsetof(ferry_particle_properties, randomized_color)},
    {"randomized_is_grayscale", 0x2d, P_U8, 1, offsetof(ferry_particle_properties, randomized_is_grayscale)},
    {"not_billboarded", 0x2e, P_U8, 1, offsetof(ferry_particle_properties, not_billboarded)},
    {"ground_interaction", 0x2f, P_U32, 1, offsetof(ferry_particle_properties, ground_interaction)},
    {"bounciness", 0x30, P_F32, 1, offsetof(ferry_particle_properties, bounciness)},
    {"affected_by_wind", 0x31, P_U8, 1, offsetof(ferry_particle_properties, affected_by_wind)},
    {"freeze_time", 0x32, P_F32, 1, offsetof(ferry_particle_properties, freeze_time)},
    {"skip_time", 0x33, P_F32, 1, offsetof(ferry_particle_properties, skip_time)},
    {"emit_mode", 0x34, P_U32, 1, offsetof(ferry_particle_properties, emit_mode)},
    {"object_space_acceleration", 0x35, P_U8, 1, offsetof(ferry_particle_properties, object_space_acceleration)},
    {"is_heat_particle", 0x3b, P_U8, 1, offsetof(ferry_particle_properties, is_heat_particle)},
    {"emit_offset", 0x3c, P_F32, 1, offsetof(ferry_particle_properties, emit_offset)},
    {"is_weather_particle", 0x3d, P_U8, 1, offsetof(ferry_particle_properties, is_weather_particle)},
    {"weather_cube_size", 0x3e, P_F32, 1, offsetof(ferry_particle_properties, weather_cube_size)},
    {"unused5", 0x3f, P_F32, 1, offsetof(ferry_particle_properties, unused5)},
    {"unused6", 0x40, P_F32, 1, offsetof(ferry_particle_properties, unused6)},
    {"has_tail", 0x41, P_U8, 1, offsetof(ferry_particle_properties, has_tail)},
    {"tail_size", 0x42, P_F32, 1, offsetof(ferry_particle_properties, tail_size)},
    {"use_emitter_speed_mult", 0x43, P_U8, 1, offsetof(ferry_particle_properties, use_emitter_speed_mult)},
    {"wind_disturbance", 0x44, P_U8, 1, offsetof(ferry_particle_properties, wind_disturbance)},
    {"no_depth_test", 0x46, P_U8, 1, offsetof(ferry_particle_properties, no_depth_test)},
    {"weather_cube_distance", 0x47, P_F32, 1, offsetof(ferry_particle_properties, weather_cube_distance)},
    {"fixed_rotation", 0x48, P_U8, 1, offsetof(ferry_particle_properties, fixed_rotation)},
};

static ferry_json *properties_json(ferry_arena *ja, const ferry_particle_properties *p)
{
    ferry_json *o = fy_jobject(ja);
    const uint8_t *base = (const uint8_t *)p;
    for (size_t i = 0; i < sizeof prop_fields / sizeof prop_fields[0]; i++) {
        const prop_field *f = &prop_fields[i];
        /* Only stored properties: an absent one has no value to rebuild. */
        if (!ferry_particle_property_present(p, f->mini)) continue;
        ferry_json *v;
        if (f->kind == P_U32) {
            uint32_t u;
            memcpy(&u, base + f->offset, sizeof u);
            v = fy_jinteger(ja, u);
        } else if (f->kind == P_U8) {
            v = fy_jinteger(ja, base[f->offset]);
        } else {
            float fl[4];
            memcpy(fl, base + f->offset, f->count * sizeof *fl);
            v = f->count == 1 ? fy_jreal_or_null(ja, fl[0]) : fy_jfloats(ja, fl, f->count);
        }
        fy_jset(ja, o, f->name, v);
    }
    return o;
}

static ferry_json *group_json(ferry_arena *ja, const ferry_particle_group *g)
{
    static const char *const types[] = {"exact", "box", "cube", "sphere", "cylinder"};
    ferry_json *o = fy_jobject(ja);
    fy_jset(ja, o, "type", g->type < 5 ? fy_jstring(ja, types[g->type]) : fy_jinteger(ja, g->type));
    fy_jset(ja, o, "min", fy_jfloats(ja, g->min, 3));
    fy_jset(ja, o, "max", fy_jfloats(ja, g->max, 3));
    fy_jset(ja, o, "side_length", fy_jreal_or_null(ja, g->side_length));
    fy_jset(ja, o, "sphere_radius", fy_jreal_or_null(ja, g->sphere_radius));
    fy_jset(ja, o, "sphere_surface", fy_jbool(ja, g->sphere_surface != 0));
    fy_jset(ja, o, "cylinder_radius", fy_jreal_or_null(ja, g->cylinder_radius));
    fy_jset(ja, o, "cylinder_surface", fy_jbool(ja, g->cylinder_surface != 0));
    fy_jset(ja, o, "cylinder_height", fy_jreal_or_null(ja, g->cylinder_height));
    fy_jset(ja, o, "value", fy_jfloats(ja, g->value, 3));
    return o;
}

static ferry_json *track_json(ferry_arena *ja, const ferry_particle_track *t, bool color)
{
    static const char *const interps[] = {"linear", "cosine", "step"};
    ferry_json *o = fy_jobject(ja);
    fy_jset(ja, o, "interpolation", t->interpolation < 3 ? fy_jstring(ja, interps[t->interpolation]) : fy_jinteger(ja, t->interpolation));
    /* Colour tracks store bytes (0..255) first and last, integer keys. */
    fy_jset(ja, o, "first", color ? fy_jinteger(ja, t->first_byte) : fy_jreal_or_null(ja, t->first));
    fy_jset(ja, o, "last", color ? fy_jinteger(ja, t->last_byte) : fy_jreal_or_null(ja, t->last));
    ferry_json *keys = fy_jarray(ja);
    for (size_t k = 0; k < t->key_count; k++) {
        ferry_json *key = fy_jobject(ja);
        fy_jset(ja, key, "time", fy_jreal_or_null(ja, t->keys[k].time));
        fy_jset(ja, key, "value", color ? fy_jinteger(ja, t->keys[k].int_value) : fy_jreal_or_null(ja, t->keys[k].value));
        fy_jpush(ja, keys, key);
    }
    fy_jset(ja, o, "keys", keys);
    return o;
}

static ferry_json *emitter_json(ferry_arena *ja, const ferry_particle_emitter *e, size_t index)
{
    static const char *const group_names[] = {"velocity", "lifetime", "position"};
    static const char *const track_names[] = {"red", "green", "blue", "alpha", "size", "texture_index", "rotation_speed"};
    ferry_json *o = fy_jobject(ja);
    fy_jset(ja, o, "alamo", fy_jstring(ja, "particle_emitter"));
    fy_jset(ja, o, "index", fy_jinteger(ja, (int64_t)index));
    if (e->name) fy_jset(ja, o, "name", fy_jstring(ja, e->name));
    if (e->color_texture) fy_jset(ja, o, "color_texture", fy_jstring(ja, e->color_texture));
    if (e->secondary_texture) fy_jset(ja, o, "secondary_texture", fy_jstring(ja, e->secondary_texture));
    fy_jset(ja, o, "death_emitter", fy_jinteger(ja, e->death_emitter));
    fy_jset(ja, o, "birth_emitter", fy_jinteger(ja, e->birth_emitter));
    fy_jset(ja, o, "properties", properties_json(ja, &e->properties));
    ferry_json *groups = fy_jobject(ja);
    for (int g = 0; g < FERRY_PARTICLE_GROUP_COUNT; g++) fy_jset(ja, groups, group_names[g], group_json(ja, &e->groups[g]));
    fy_jset(ja, o, "groups", groups);
    /* The lifetime range read from the axis the group uses (an older
     * editor's files keep it on x, the spec on y), so consumers need not
     * know the two layouts. */
    float lo, hi;
    ferry_particle_lifetime_layout layout = ferry_particle_emitter_lifetime(e, &lo, &hi);
    ferry_json *lifetime = fy_jobject(ja);
    fy_jset(ja, lifetime, "min", fy_jreal_or_null(ja, lo));
    fy_jset(ja, lifetime, "max", fy_jreal_or_null(ja, hi));
    fy_jset(ja, lifetime, "from", fy_jstring(ja, layout == FERRY_PARTICLE_LIFETIME_Y   ? "lifetime group y"
                                                      : layout == FERRY_PARTICLE_LIFETIME_X ? "lifetime group x"
                                                                                            : "properties"));
    fy_jset(ja, o, "lifetime", lifetime);
    ferry_json *tracks = fy_jobject(ja);
    for (int t = 0; t < FERRY_PARTICLE_TRACK_COUNT; t++)
        fy_jset(ja, tracks, track_names[t], track_json(ja, &e->tracks[t], t < FERRY_PARTICLE_COLOR_TRACKS));
    fy_jset(ja, o, "tracks", tracks);
    return o;
}

ferry_result ferry_particle_to_scene(const ferry_particle_system *system, const ferry_particle_scene_options *options,
                                     ferry_scene **out, ferry_error *err)
{
    (void)options; /* none yet */
    ferry_error local_err;
    if (!fy_convert_begin(&err, &local_err, out, system, "particle system")) return err->code;
    ferry_scene *s = fy_scene_new(err);
    if (!s) return FERRY_ERR_NOMEM;
    ferry_arena *arena = s->arena, *ja = arena;
    size_t count = 1 + system->emitter_count;
    s->nodes = fy_scene_alloc(arena, err, count, sizeof *s->nodes);
    bool ok = s->nodes != NULL;
    if (ok) {
        const char *name = system->name && *system->name ? system->name : "particles";
        s->name = ferry_arena_strdup(arena, name);
        char root_name[300];
        snprintf(root_name, sizeof root_name, "%s (Z-up to Y-up)", name);
        ferry_scene_node *root = &s->nodes[0];
        ferry_scene_node_init(root);
        root->name = ferry_arena_strdup(arena, root_name);
        /* Alamo is Z-up like its models: the same -90 degrees about X. */
        root->rotation[0] = -0.70710678f;
        root->rotation[3] = 0.70710678f;
        ferry_json *sys = fy_jobject(ja);
        fy_jset(ja, sys, "alamo", fy_jstring(ja, "particle_system"));
        fy_jset(ja, sys, "name", fy_jstring(ja, system->name ? system->name : ""));
        fy_jset(ja, sys, "id", fy_jinteger(ja, system->id));
        fy_jset(ja, sys, "persistence", fy_jinteger(ja, system->persistence));
        fy_jset(ja, sys, "emitter_count", fy_jinteger(ja, (int64_t)system->emitter_count));
        root->extras = sys;
        ok = root->name && s->name && root->extras;
        for (size_t i = 0; ok && i < system->emitter_count; i++) {
            const ferry_particle_emitter *e = &system->emitters[i];
            ferry_scene_node *n = &s->nodes[1 + i];
            ferry_scene_node_init(n);
            FY_SET_REF(n, parent, 0);
            char fallback[32];
            snprintf(fallback, sizeof fallback, "emitter %zu", i);
            n->name = ferry_arena_strdup(arena, e->name && *e->name ? e->name : fallback);
            n->extras = emitter_json(ja, e, i);
            ok = n->name && n->extras;
        }
        s->node_count = count;
        ferry_json *x = fy_jobject(ja);
        fy_jset(ja, x, "source", fy_jstring(ja, "alamo particle system"));
        s->extras = x;
    }
    return fy_convert_end(s, ok, out, err);
}
