/* Particle system writer: typed system -> bytes, following each container's
 * recorded layout so that a read system comes out byte for byte. */
#include "particle_tables.h"

/* Writes part `part` of the item a container holds (a child chunk). */
typedef void (*fy_part_writer)(fy_alamo_writer *w, const void *item, size_t part);

/* A container whose known children occur once each: `types[k]` is written
 * by write(k) where the layout names it (when wanted[k]), unknown children
 * where they were, then what the layout did not cover in `types` order. */
static void write_singletons(fy_alamo_writer *w, uint32_t type, const ferry_chunk_layout *layout,
                             const uint32_t *types, const bool *wanted, size_t n, fy_part_writer write,
                             const void *item)
{
    size_t h = fy_alamo_begin_chunk(w, type);
    fy_layout_walk walk = {layout, 0};
    bool done[8] = {false};
    for (size_t i = 0; i < layout->order_count; i++) {
        uint32_t t = layout->order[i];
        size_t k = n;
        for (size_t j = 0; j < n && k == n; j++)
            if (types[j] == t && !done[j] && wanted[j]) k = j;
        if (k < n) {
            write(w, item, k);
            done[k] = true;
        } else {
            fy_layout_take_unknown(w, &walk, t);
        }
    }
    for (size_t k = 0; k < n; k++)
        if (!done[k] && wanted[k]) write(w, item, k);
    fy_layout_flush_unknown(w, &walk);
    fy_alamo_end_chunk(w, h, true);
}

/* A container of `count` items of one child type, plus unknown children. */
static void write_repeated(fy_alamo_writer *w, uint32_t type, const ferry_chunk_layout *layout, uint32_t item_type,
                           size_t count, fy_part_writer write, const void *item)
{
    size_t h = fy_alamo_begin_chunk(w, type);
    fy_layout_walk walk = {layout, 0};
    size_t next = 0;
    for (size_t i = 0; i < layout->order_count; i++) {
        uint32_t t = layout->order[i];
        if (t == item_type && next < count)
            write(w, item, next++);
        else
            fy_layout_take_unknown(w, &walk, t);
    }
    while (next < count) write(w, item, next++);
    fy_layout_flush_unknown(w, &walk);
    fy_alamo_end_chunk(w, h, true);
}

/* ---- property groups ---- */

static void write_group_data(fy_alamo_writer *w, const void *item, size_t part)
{
    (void)part;
    const ferry_particle_group *g = item;
    size_t h = fy_alamo_begin_chunk(w, FERRY_PARTICLE_GROUP_DATA);
    fy_buf_u32le(w->out, g->type);
    for (int k = 0; k < 3; k++) fy_buf_f32le(w->out, g->min[k]);
    for (int k = 0; k < 3; k++) fy_buf_f32le(w->out, g->max[k]);
    fy_buf_f32le(w->out, g->side_length);
    fy_buf_f32le(w->out, g->sphere_radius);
    fy_buf_u32le(w->out, g->sphere_surface);
    fy_buf_f32le(w->out, g->cylinder_radius);
    fy_buf_u32le(w->out, g->cylinder_surface);
    fy_buf_f32le(w->out, g->cylinder_height);
    for (int k = 0; k < 3; k++) fy_buf_f32le(w->out, g->value[k]);
    fy_alamo_write_extra(w, &g->extra, 0);
    fy_alamo_end_chunk(w, h, false);
}

static void write_group(fy_alamo_writer *w, const void *item, size_t index)
{
    const ferry_particle_group *g = &((const ferry_particle_emitter *)item)->groups[index];
    static const uint32_t types[] = {FERRY_PARTICLE_GROUP_DATA};
    static const bool wanted[] = {true};
    write_singletons(w, FERRY_PARTICLE_GROUP, &g->layout, types, wanted, 1, write_group_data, g);
}

/* ---- tracks ---- */

static void write_keys(fy_alamo_writer *w, const ferry_particle_track *t, bool color)
{
    if (t->key_count && !t->keys) {
        fy_alamo_wfail(w, "a track announces %zu keys but has no key array", t->key_count);
        return;
    }
    size_t h = fy_alamo_begin_chunk(w, FERRY_PARTICLE_TRACK_KEYS);
    const ferry_mini_layout *l = &t->keys_layout;
    size_t next_key = 0, next_unknown = 0;
    /* The walk of fy_alamo_write_minis, with a list of keys for type 05. */
    for (size_t i = 0; i <= l->order_count; i++) {
        bool end = i == l->order_count;
        uint8_t type = end ? 0 : l->order[i];
        size_t limit = end ? t->key_count : next_key + 1;
        if (end || type == FY_PARTICLE_KEY_MINI) {
            bool wrote = false;
            for (; next_key < t->key_count && next_key < limit; next_key++) {
                const ferry_particle_key *k = &t->keys[next_key];
                fy_buf_u8(w->out, FY_PARTICLE_KEY_MINI);
                fy_buf_u8(w->out, FY_PARTICLE_KEY_SIZE);
                if (color)
                    fy_buf_u32le(w->out, k->int_value);
                else
                    fy_buf_f32le(w->out, k->value);
                fy_buf_f32le(w->out, k->time);
                wrote = true;
            }
            if (wrote || end) continue;
        }
        if (next_unknown < l->unknown_count && l->unknown[next_unknown].type == type) {
            const ferry_raw_mini *raw = &l->unknown[next_unknown++];
            fy_buf_u8(w->out, raw->type);
            fy_buf_u8(w->out, (uint8_t)raw->body.size);
            fy_buf_append(w->out, raw->body.data, raw->body.size);
        }
    }
    for (; next_unknown < l->unknown_count; next_unknown++) {
        const ferry_raw_mini *raw = &l->unknown[next_unknown];
        fy_buf_u8(w->out, raw->type);
        fy_buf_u8(w->out, (uint8_t)raw->body.size);
        fy_buf_append(w->out, raw->body.data, raw->body.size);
    }
    fy_alamo_end_chunk(w, h, false);
}

static void write_header(fy_alamo_writer *w, const ferry_particle_track *t, size_t index)
{
    size_t h = fy_alamo_begin_chunk(w, FERRY_PARTICLE_TRACK_HEADER);
    fy_alamo_write_minis(w, fy_particle_header_fields(index), FY_PARTICLE_HEADER_FIELD_COUNT, t, 0,
                         &t->header_layout);
    fy_alamo_end_chunk(w, h, false);
}

static void write_tracks(fy_alamo_writer *w, const ferry_particle_emitter *e)
{
    size_t h = fy_alamo_begin_chunk(w, FERRY_PARTICLE_TRACKS);
    const ferry_chunk_layout *l = &e->tracks_layout;
    fy_layout_walk walk = {l, 0};
    size_t headers = 0, lists = 0;
    for (size_t i = 0; i < l->order_count; i++) {
        uint32_t t = l->order[i];
        if (t == FERRY_PARTICLE_TRACK_HEADER && headers < FERRY_PARTICLE_TRACK_COUNT) {
            write_header(w, &e->tracks[headers], headers);
            headers++;
        } else if (t == FERRY_PARTICLE_TRACK_KEYS && lists < FERRY_PARTICLE_TRACK_COUNT) {
            write_keys(w, &e->tracks[lists], lists < FERRY_PARTICLE_COLOR_TRACKS);
            lists++;
        } else {
            fy_layout_take_unknown(w, &walk, t);
        }
    }
    /* The rest in pairs, header before keys, as real files have them. */
    while (headers < FERRY_PARTICLE_TRACK_COUNT || lists < FERRY_PARTICLE_TRACK_COUNT) {
        if (headers < FERRY_PARTICLE_TRACK_COUNT && headers <= lists) {
            write_header(w, &e->tracks[headers], headers);
            headers++;
        } else {
            write_keys(w, &e->tracks[lists], lists < FERRY_PARTICLE_COLOR_TRACKS);
            lists++;
        }
    }
    fy_layout_flush_unknown(w, &walk);
    fy_alamo_end_chunk(w, h, true);
}

/* ---- emitters ---- */

static const uint32_t emitter_parts[] = {
    FERRY_PARTICLE_PROPERTIES, FERRY_PARTICLE_COLOR_TEXTURE, FERRY_PARTICLE_EMITTER_NAME, FERRY_PARTICLE_GROUPS,
    FERRY_PARTICLE_TRACKS,     FERRY_PARTICLE_CONNECTIONS,   FERRY_PARTICLE_SECONDARY_TEXTURE,
};

static void write_emitter_part(fy_alamo_writer *w, const void *item, size_t part)
{
    const ferry_particle_emitter *e = item;
    switch (emitter_parts[part]) {
    case FERRY_PARTICLE_PROPERTIES: {
        size_t h = fy_alamo_begin_chunk(w, FERRY_PARTICLE_PROPERTIES);
        fy_alamo_write_minis_wide(w, fy_particle_property_fields, FY_PCOUNT(fy_particle_property_fields),
                                  &e->properties, e->properties.present, &e->properties_layout);
        fy_alamo_end_chunk(w, h, false);
        break;
    }
    case FERRY_PARTICLE_COLOR_TEXTURE: fy_alamo_write_string_chunk(w, FERRY_PARTICLE_COLOR_TEXTURE, e->color_texture); break;
    case FERRY_PARTICLE_EMITTER_NAME: fy_alamo_write_string_chunk(w, FERRY_PARTICLE_EMITTER_NAME, e->name); break;
    case FERRY_PARTICLE_GROUPS:
        write_repeated(w, FERRY_PARTICLE_GROUPS, &e->groups_layout, FERRY_PARTICLE_GROUP, FERRY_PARTICLE_GROUP_COUNT,
                       write_group, e);
        break;
    case FERRY_PARTICLE_TRACKS: write_tracks(w, e); break;
    case FERRY_PARTICLE_CONNECTIONS: {
        size_t h = fy_alamo_begin_chunk(w, FERRY_PARTICLE_CONNECTIONS);
        fy_alamo_write_minis(w, fy_particle_connection_fields, FY_PCOUNT(fy_particle_connection_fields), e, 0,
                             &e->connections_layout);
        fy_alamo_end_chunk(w, h, false);
        break;
    }
    default: fy_alamo_write_string_chunk(w, FERRY_PARTICLE_SECONDARY_TEXTURE, e->secondary_texture); break;
    }
}

static void write_emitter(fy_alamo_writer *w, const void *item, size_t index)
{
    const ferry_particle_emitter *e = &((const ferry_particle_system *)item)->emitters[index];
    /* Absent strings stay absent; the rest is always written. */
    const bool wanted[] = {true, e->color_texture != NULL, e->name != NULL, true, true, !e->no_connections,
                           e->secondary_texture != NULL};
    write_singletons(w, FERRY_PARTICLE_EMITTER, &e->layout, emitter_parts, wanted, FY_PCOUNT(emitter_parts),
                     write_emitter_part, e);
}

/* ---- the system ---- */

static const uint32_t system_parts[] = {FERRY_PARTICLE_NAME, FERRY_PARTICLE_ID, FERRY_PARTICLE_EMITTERS,
                                        FERRY_PARTICLE_PERSISTENCE};

static void write_system_part(fy_alamo_writer *w, const void *item, size_t part)
{
    const ferry_particle_system *s = item;
    switch (system_parts[part]) {
    case FERRY_PARTICLE_NAME: fy_alamo_write_string_chunk(w, FERRY_PARTICLE_NAME, s->name); break;
    case FERRY_PARTICLE_ID: {
        size_t h = fy_alamo_begin_chunk(w, FERRY_PARTICLE_ID);
        fy_buf_u32le(w->out, s->id);
        fy_alamo_write_extra(w, &s->id_extra, 0);
        fy_alamo_end_chunk(w, h, false);
        break;
    }
    case FERRY_PARTICLE_EMITTERS:
        write_repeated(w, FERRY_PARTICLE_EMITTERS, &s->emitters_layout, FERRY_PARTICLE_EMITTER, s->emitter_count,
                       write_emitter, s);
        break;
    default: {
        size_t h = fy_alamo_begin_chunk(w, FERRY_PARTICLE_PERSISTENCE);
        fy_buf_u8(w->out, s->persistence);
        fy_alamo_write_extra(w, &s->persistence_extra, 0);
        fy_alamo_end_chunk(w, h, false);
        break;
    }
    }
}

static void write_system(fy_alamo_writer *w, const void *item, size_t part)
{
    (void)part;
    const ferry_particle_system *s = item;
    const bool wanted[] = {true, true, true, !s->no_persistence};
    write_singletons(w, FERRY_PARTICLE_SYSTEM, &s->layout, system_parts, wanted, FY_PCOUNT(system_parts),
                     write_system_part, s);
}

ferry_result ferry_particle_write(const ferry_particle_system *system, ferry_buffer *out, ferry_error *err)
{
    ferry_error local;
    if (!err) err = &local;
    fy_error_clear(err);
    if (!system || !out) {
        fy_error_set(err, FERRY_ERR_ARGUMENT, FERRY_NO_OFFSET, NULL, "no particle system or no output buffer given");
        return FERRY_ERR_ARGUMENT;
    }
    fy_alamo_writer w = {out, err, false, system->string_tails, system->string_tail_count};
    if (system->emitter_count && !system->emitters) {
        fy_alamo_wfail(&w, "the system announces %zu emitters but has no emitter array", system->emitter_count);
        return err->code;
    }
    /* The file is the system chunk plus whatever was kept after it. */
    const ferry_chunk_layout *l = &system->file_layout;
    fy_layout_walk walk = {l, 0};
    bool done = false;
    for (size_t i = 0; i < l->order_count && !w.failed; i++) {
        if (l->order[i] == FERRY_PARTICLE_SYSTEM && !done) {
            write_system(&w, system, 0);
            done = true;
        } else {
            fy_layout_take_unknown(&w, &walk, l->order[i]);
        }
    }
    if (!done) write_system(&w, system, 0);
    fy_layout_flush_unknown(&w, &walk);
    if (out->failed && !w.failed)
        fy_error_set(err, FERRY_ERR_NOMEM, FERRY_NO_OFFSET, NULL, "out of memory writing the particle system");
    return err->code;
}
