/* Mini-chunk tables of the particle chunks, shared by reader, writer and
 * validator. The property table is in the order real files store the
 * properties (0x11, absent from them, after 0x10 as in the spec): a system
 * built by hand is written in that order. */
#ifndef FERRY_PARTICLE_TABLES_H
#define FERRY_PARTICLE_TABLES_H

#include <ferry/particle.h>

#include <stddef.h>

#include "alamo_internal.h"

#define FY_PP(field) offsetof(ferry_particle_properties, field)

static const fy_mini_field fy_particle_property_fields[] = {
    {0x04, FY_MINI_U32, false, FY_PP(blend_mode), "blend mode"},
    {0x05, FY_MINI_U32, false, FY_PP(primitive_type), "primitive type"},
    {0x06, FY_MINI_U32, false, FY_PP(unused1), "unused 1"},
    {0x07, FY_MINI_U8, false, FY_PP(in_bursts), "in bursts"},
    {0x43, FY_MINI_U8, false, FY_PP(use_emitter_speed_mult), "use emitter speed multiplier"},
    {0x08, FY_MINI_U8, false, FY_PP(link_to_system), "link to system"},
    {0x09, FY_MINI_F32, false, FY_PP(inward_speed), "inward speed"},
    {0x0a, FY_MINI_F32X3, false, FY_PP(acceleration), "acceleration"},
    {0x0c, FY_MINI_F32, false, FY_PP(gravity), "gravity"},
    {0x0f, FY_MINI_F32, false, FY_PP(lifetime), "lifetime"},
    {0x12, FY_MINI_F32, false, FY_PP(randomized_scale), "randomized scale"},
    {0x13, FY_MINI_F32, false, FY_PP(randomized_lifetime), "randomized lifetime"},
    {0x10, FY_MINI_U32, false, FY_PP(texture_elements), "texture elements"},
    {0x11, FY_MINI_F32, false, FY_PP(unused2), "unused 2"},
    {0x14, FY_MINI_U32, false, FY_PP(index), "emitter index"},
    {0x15, FY_MINI_U8, false, FY_PP(unused3), "unused 3"},
    {0x17, FY_MINI_F32, false, FY_PP(randomized_rotation), "randomized rotation"},
    {0x0b, FY_MINI_F32, false, FY_PP(outward_acceleration), "outward acceleration"},
    {0x23, FY_MINI_U8, false, FY_PP(rotation_direction), "random rotation direction"},
    {0x24, FY_MINI_F32, false, FY_PP(initial_delay), "initial delay"},
    {0x25, FY_MINI_F32, false, FY_PP(burst_delay), "burst delay"},
    {0x26, FY_MINI_U32, false, FY_PP(particles_per_burst), "particles per burst"},
    {0x27, FY_MINI_U32, false, FY_PP(bursts), "bursts"},
    {0x28, FY_MINI_F32, false, FY_PP(emitter_speed_mult), "emitter speed multiplier"},
    {0x2a, FY_MINI_U32, false, FY_PP(particles_per_second), "particles per second"},
    {0x2b, FY_MINI_U8, false, FY_PP(unused4), "unused 4"},
    {0x2c, FY_MINI_F32X4, false, FY_PP(randomized_color), "randomized color"},
    {0x2d, FY_MINI_U8, false, FY_PP(randomized_is_grayscale), "randomized color is grayscale"},
    {0x2e, FY_MINI_U8, false, FY_PP(not_billboarded), "not billboarded"},
    {0x2f, FY_MINI_U32, false, FY_PP(ground_interaction), "ground interaction"},
    {0x30, FY_MINI_F32, false, FY_PP(bounciness), "bounciness"},
    {0x31, FY_MINI_U8, false, FY_PP(affected_by_wind), "affected by wind"},
    {0x32, FY_MINI_F32, false, FY_PP(freeze_time), "freeze time"},
    {0x33, FY_MINI_F32, false, FY_PP(skip_time), "skip time"},
    {0x34, FY_MINI_U32, false, FY_PP(emit_mode), "emit mode"},
    {0x35, FY_MINI_U8, false, FY_PP(object_space_acceleration), "object-space acceleration"},
    {0x3b, FY_MINI_U8, false, FY_PP(is_heat_particle), "heat particle"},
    {0x3c, FY_MINI_F32, false, FY_PP(emit_offset), "emit offset"},
    {0x3d, FY_MINI_U8, false, FY_PP(is_weather_particle), "weather particle"},
    {0x3e, FY_MINI_F32, false, FY_PP(weather_cube_size), "weather cube size"},
    {0x3f, FY_MINI_F32, false, FY_PP(unused5), "unused 5"},
    {0x40, FY_MINI_F32, false, FY_PP(unused6), "unused 6"},
    {0x41, FY_MINI_U8, false, FY_PP(has_tail), "has tail"},
    {0x42, FY_MINI_F32, false, FY_PP(tail_size), "tail size"},
    {0x44, FY_MINI_U8, false, FY_PP(wind_disturbance), "wind disturbance"},
    {0x46, FY_MINI_U8, false, FY_PP(no_depth_test), "no depth test"},
    {0x47, FY_MINI_F32, false, FY_PP(weather_cube_distance), "weather cube distance"},
    {0x48, FY_MINI_U8, false, FY_PP(fixed_rotation), "fixed rotation"},
};

#undef FY_PP

/* Track headers: colour tracks store their end values as bytes. */
static const fy_mini_field fy_particle_color_header_fields[] = {
    {2, FY_MINI_U8, true, offsetof(ferry_particle_track, first_byte), "value at t=0"},
    {3, FY_MINI_U8, true, offsetof(ferry_particle_track, last_byte), "value at t=1"},
    {4, FY_MINI_U32, true, offsetof(ferry_particle_track, interpolation), "interpolation"},
};

static const fy_mini_field fy_particle_float_header_fields[] = {
    {2, FY_MINI_F32, true, offsetof(ferry_particle_track, first), "value at t=0"},
    {3, FY_MINI_F32, true, offsetof(ferry_particle_track, last), "value at t=1"},
    {4, FY_MINI_U32, true, offsetof(ferry_particle_track, interpolation), "interpolation"},
};

static inline const fy_mini_field *fy_particle_header_fields(size_t track)
{
    return track < FERRY_PARTICLE_COLOR_TRACKS ? fy_particle_color_header_fields : fy_particle_float_header_fields;
}

#define FY_PARTICLE_HEADER_FIELD_COUNT 3

/* The spec numbers these two in hexadecimal, unlike the properties. */
static const fy_mini_field fy_particle_connection_fields[] = {
    {0x37, FY_MINI_U32, true, offsetof(ferry_particle_emitter, death_emitter), "death emitter"},
    {0x39, FY_MINI_U32, true, offsetof(ferry_particle_emitter, birth_emitter), "birth emitter"},
};

/* Key list mini-chunk: uint32 or float value, float time. */
#define FY_PARTICLE_KEY_MINI 5
#define FY_PARTICLE_KEY_SIZE 8

#define FY_PCOUNT(a) (sizeof(a) / sizeof((a)[0]))

#endif
