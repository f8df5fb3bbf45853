/* Particle system reader: chunk tree -> typed system. Structure problems
 * are located errors; rules about values are left to ferry_particle_validate. */
#include "particle_tables.h"

#include <stdlib.h>

static const char *const track_names[FERRY_PARTICLE_TRACK_COUNT] = {
    "red", "green", "blue", "alpha", "size", "texture index", "rotation speed",
};
/* For messages; fixed strings, since formatting them per header would cost
 * more than reading the header. */
static const char *const header_names[FERRY_PARTICLE_TRACK_COUNT] = {
    "the header of the red track",   "the header of the green track",         "the header of the blue track",
    "the header of the alpha track", "the header of the size track",          "the header of the texture index track",
    "the header of the rotation speed track",
};

static bool missing(fy_alamo_reader *r, const ferry_chunk *c, uint32_t type, const char *what)
{
    fy_alamo_fail(r, FERRY_ERR_MALFORMED, c, c->offset, "chunk 0x%x lacks its %s chunk 0x%x", (unsigned)c->type,
                  what, (unsigned)type);
    return false;
}

/* A data chunk of `known` bytes of fields; what follows them is kept. */
static const uint8_t *read_fixed(fy_alamo_reader *r, const ferry_chunk *c, size_t known, ferry_blob *extra)
{
    if (!fy_alamo_expect_kind(r, c, false)) return NULL;
    if (c->size < known) {
        fy_alamo_fail(r, FERRY_ERR_TRUNCATED, c, c->offset,
                      "chunk 0x%x holds %u bytes; its fields need at least %zu", (unsigned)c->type,
                      (unsigned)c->size, known);
        return NULL;
    }
    const uint8_t *p = fy_alamo_copy(r, c, c->data + known, c->size - known);
    if (!p) return NULL;
    extra->data = p;
    extra->size = (uint32_t)(c->size - known);
    return c->data;
}

static float f32_at(const uint8_t *p) { return fy_bits_f32(fy_load_u32le(p)); }

/* ---- property groups ---- */

static bool read_group(fy_alamo_reader *r, const ferry_chunk *c, ferry_particle_group *g)
{
    if (!fy_alamo_expect_kind(r, c, true) || !fy_alamo_layout_begin(r, c, &g->layout)) return false;
    g->offset = c->offset;
    g->data_offset = FERRY_NO_OFFSET;
    bool have_data = false;
    for (size_t i = 0; i < c->child_count && !r->failed; i++) {
        const ferry_chunk *ch = &c->children[i];
        if (ch->type == FERRY_PARTICLE_GROUP_DATA && !have_data) {
            have_data = true;
            g->data_offset = ch->offset;
            const uint8_t *p = read_fixed(r, ch, FERRY_PARTICLE_GROUP_DATA_SIZE, &g->extra);
            if (!p) return false;
            g->type = fy_load_u32le(p);
            for (int k = 0; k < 3; k++) {
                g->min[k] = f32_at(p + 4 + 4 * k);
                g->max[k] = f32_at(p + 16 + 4 * k);
                g->value[k] = f32_at(p + 52 + 4 * k);
            }
            g->side_length = f32_at(p + 28);
            g->sphere_radius = f32_at(p + 32);
            g->sphere_surface = fy_load_u32le(p + 36);
            g->cylinder_radius = f32_at(p + 40);
            g->cylinder_surface = fy_load_u32le(p + 44);
            g->cylinder_height = f32_at(p + 48);
        } else {
            fy_alamo_keep_unknown(r, ch, &g->layout);
        }
    }
    if (r->failed) return false;
    if (!have_data) return missing(r, c, FERRY_PARTICLE_GROUP_DATA, "group data");
    return true;
}

static bool read_groups(fy_alamo_reader *r, const ferry_chunk *c, ferry_particle_emitter *e)
{
    if (!fy_alamo_expect_kind(r, c, true) || !fy_alamo_layout_begin(r, c, &e->groups_layout)) return false;
    e->groups_offset = c->offset;
    size_t n = 0;
    for (size_t i = 0; i < c->child_count && !r->failed; i++) {
        const ferry_chunk *ch = &c->children[i];
        if (ch->type == FERRY_PARTICLE_GROUP && n < FERRY_PARTICLE_GROUP_COUNT)
            read_group(r, ch, &e->groups[n++]);
        else
            fy_alamo_keep_unknown(r, ch, &e->groups_layout);
    }
    if (r->failed) return false;
    if (n < FERRY_PARTICLE_GROUP_COUNT) {
        fy_alamo_fail(r, FERRY_ERR_MALFORMED, c, c->offset,
                      "the groups chunk holds %zu property groups (0x1100); an emitter has 3: velocity, lifetime, "
                      "position",
                      n);
        return false;
    }
    return true;
}

/* ---- tracks ---- */

static bool read_keys(fy_alamo_reader *r, const ferry_chunk *c, ferry_particle_track *t, size_t index)
{
    if (!fy_alamo_expect_kind(r, c, false)) return false;
    t->keys_offset = c->offset;
    size_t count;
    if (ferry_alamo_mini_chunks_parse(c, NULL, 0, &count, r->err) != FERRY_OK) {
        r->failed = true;
        return false;
    }
    if (!fy_alamo_budget_minis(r, c, count)) return false;
    uint8_t *order = fy_alamo_alloc_array(r, c, count ? count : 1, 1);
    if (!order) return false;
    size_t keys = 0, mini_pos = 0;
    for (size_t i = 0; i < count; i++) keys += fy_mini_next(c, &mini_pos).type == FY_PARTICLE_KEY_MINI;
    mini_pos = 0;
    t->keys = fy_alamo_alloc_array(r, c, keys ? keys : 1, sizeof *t->keys);
    ferry_raw_mini *unknown = keys < count ? fy_alamo_alloc_array(r, c, count - keys, sizeof *unknown) : NULL;
    if (r->failed) return false;
    bool color = index < FERRY_PARTICLE_COLOR_TRACKS;
    size_t unknown_count = 0;
    for (size_t i = 0; i < count; i++) {
        const ferry_mini_chunk mini = fy_mini_next(c, &mini_pos), *m = &mini;
        order[i] = m->type;
        if (m->type != FY_PARTICLE_KEY_MINI) {
            ferry_raw_mini *raw = &unknown[unknown_count++];
            raw->type = m->type;
            raw->body.size = m->size;
            raw->body.data = fy_alamo_copy(r, c, m->data, m->size);
            if (!raw->body.data) return false;
            continue;
        }
        if (m->size != FY_PARTICLE_KEY_SIZE) {
            fy_alamo_fail(r, FERRY_ERR_MALFORMED, c, m->offset,
                          "key mini-chunk 0x05 of the %s track should hold 8 bytes (value, time), it holds %u",
                          track_names[index], m->size);
            return false;
        }
        ferry_particle_key *k = &t->keys[t->key_count++];
        if (color)
            k->int_value = fy_load_u32le(m->data);
        else
            k->value = f32_at(m->data);
        k->time = f32_at(m->data + 4);
        k->offset = m->offset;
    }
    t->keys_layout.order = order;
    t->keys_layout.order_count = count;
    t->keys_layout.unknown = unknown;
    t->keys_layout.unknown_count = unknown_count;
    return true;
}

static bool read_tracks(fy_alamo_reader *r, const ferry_chunk *c, ferry_particle_emitter *e)
{
    if (!fy_alamo_expect_kind(r, c, true) || !fy_alamo_layout_begin(r, c, &e->tracks_layout)) return false;
    e->tracks_offset = c->offset;
    size_t headers = 0, lists = 0;
    for (size_t i = 0; i < c->child_count && !r->failed; i++) {
        const ferry_chunk *ch = &c->children[i];
        if (ch->type == FERRY_PARTICLE_TRACK_HEADER && headers < FERRY_PARTICLE_TRACK_COUNT) {
            ferry_particle_track *t = &e->tracks[headers];
            t->header_offset = ch->offset;
            fy_alamo_read_minis(r, ch, fy_particle_header_fields(headers), FY_PARTICLE_HEADER_FIELD_COUNT, t, NULL,
                                &t->header_layout, header_names[headers]);
            headers++;
        } else if (ch->type == FERRY_PARTICLE_TRACK_KEYS && lists < FERRY_PARTICLE_TRACK_COUNT) {
            read_keys(r, ch, &e->tracks[lists], lists);
            lists++;
        } else {
            fy_alamo_keep_unknown(r, ch, &e->tracks_layout);
        }
    }
    if (r->failed) return false;
    if (headers < FERRY_PARTICLE_TRACK_COUNT || lists < FERRY_PARTICLE_TRACK_COUNT) {
        fy_alamo_fail(r, FERRY_ERR_MALFORMED, c, c->offset,
                      "the tracks chunk holds %zu track headers (0x0) and %zu key lists (0x1); an emitter has 7 of "
                      "each",
                      headers, lists);
        return false;
    }
    return true;
}

/* ---- emitters ---- */

static bool read_emitter(fy_alamo_reader *r, const ferry_chunk *c, ferry_particle_emitter *e)
{
    if (!fy_alamo_expect_kind(r, c, true) || !fy_alamo_layout_begin(r, c, &e->layout)) return false;
    e->offset = c->offset;
    e->properties_offset = e->groups_offset = e->tracks_offset = e->connections_offset = FERRY_NO_OFFSET;
    bool have_properties = false, have_color = false, have_name = false, have_groups = false, have_tracks = false,
         have_connections = false, have_secondary = false;
    for (size_t i = 0; i < c->child_count && !r->failed; i++) {
        const ferry_chunk *ch = &c->children[i];
        switch (ch->type) {
        case FERRY_PARTICLE_PROPERTIES:
            if (have_properties) break;
            have_properties = true;
            e->properties_offset = ch->offset;
            fy_alamo_read_minis_wide(r, ch, fy_particle_property_fields, FY_PCOUNT(fy_particle_property_fields),
                                     &e->properties, e->properties.present, &e->properties_layout);
            continue;
        case FERRY_PARTICLE_COLOR_TEXTURE:
            if (have_color) break;
            have_color = true;
            e->color_texture = fy_alamo_read_string(r, ch);
            continue;
        case FERRY_PARTICLE_EMITTER_NAME:
            if (have_name) break;
            have_name = true;
            e->name = fy_alamo_read_string(r, ch);
            continue;
        case FERRY_PARTICLE_GROUPS:
            if (have_groups) break;
            have_groups = true;
            read_groups(r, ch, e);
            continue;
        case FERRY_PARTICLE_TRACKS:
            if (have_tracks) break;
            have_tracks = true;
            read_tracks(r, ch, e);
            continue;
        case FERRY_PARTICLE_CONNECTIONS:
            if (have_connections) break;
            have_connections = true;
            e->connections_offset = ch->offset;
            fy_alamo_read_minis(r, ch, fy_particle_connection_fields, FY_PCOUNT(fy_particle_connection_fields), e,
                                NULL, &e->connections_layout, "the emitter connections");
            continue;
        case FERRY_PARTICLE_SECONDARY_TEXTURE:
            if (have_secondary) break;
            have_secondary = true;
            e->secondary_texture = fy_alamo_read_string(r, ch);
            continue;
        default: break;
        }
        fy_alamo_keep_unknown(r, ch, &e->layout);
    }
    if (r->failed) return false;
    if (!have_properties) return missing(r, c, FERRY_PARTICLE_PROPERTIES, "properties");
    if (!have_groups) return missing(r, c, FERRY_PARTICLE_GROUPS, "property groups");
    if (!have_tracks) return missing(r, c, FERRY_PARTICLE_TRACKS, "tracks");
    if (!have_connections) {
        e->no_connections = true;
        e->death_emitter = e->birth_emitter = -1;
        e->connections_offset = FERRY_NO_OFFSET;
    }
    return true;
}

static bool read_emitters(fy_alamo_reader *r, const ferry_chunk *c, ferry_particle_system *s)
{
    if (!fy_alamo_expect_kind(r, c, true) || !fy_alamo_layout_begin(r, c, &s->emitters_layout)) return false;
    s->emitters_offset = c->offset;
    size_t n = 0;
    for (size_t i = 0; i < c->child_count; i++) n += c->children[i].type == FERRY_PARTICLE_EMITTER;
    s->emitters = fy_alamo_alloc_array(r, c, n ? n : 1, sizeof *s->emitters);
    if (!s->emitters) return false;
    for (size_t i = 0; i < c->child_count && !r->failed; i++) {
        const ferry_chunk *ch = &c->children[i];
        if (ch->type == FERRY_PARTICLE_EMITTER)
            read_emitter(r, ch, &s->emitters[s->emitter_count++]);
        else
            fy_alamo_keep_unknown(r, ch, &s->emitters_layout);
    }
    return !r->failed;
}

/* ---- the system ---- */

static bool read_system(fy_alamo_reader *r, const ferry_chunk *c, ferry_particle_system *s)
{
    if (!fy_alamo_expect_kind(r, c, true) || !fy_alamo_layout_begin(r, c, &s->layout)) return false;
    s->offset = c->offset;
    s->emitters_offset = FERRY_NO_OFFSET;
    bool have_name = false, have_id = false, have_persistence = false, have_emitters = false;
    for (size_t i = 0; i < c->child_count && !r->failed; i++) {
        const ferry_chunk *ch = &c->children[i];
        if (ch->type == FERRY_PARTICLE_NAME && !have_name) {
            have_name = true;
            s->name = fy_alamo_read_string(r, ch);
        } else if (ch->type == FERRY_PARTICLE_ID && !have_id) {
            have_id = true;
            const uint8_t *p = read_fixed(r, ch, 4, &s->id_extra);
            if (p) s->id = fy_load_u32le(p);
        } else if (ch->type == FERRY_PARTICLE_PERSISTENCE && !have_persistence) {
            have_persistence = true;
            const uint8_t *p = read_fixed(r, ch, 1, &s->persistence_extra);
            if (p) s->persistence = p[0];
        } else if (ch->type == FERRY_PARTICLE_EMITTERS && !have_emitters) {
            have_emitters = true;
            read_emitters(r, ch, s);
        } else {
            fy_alamo_keep_unknown(r, ch, &s->layout);
        }
    }
    if (r->failed) return false;
    if (!have_name) return missing(r, c, FERRY_PARTICLE_NAME, "name");
    if (!have_id) return missing(r, c, FERRY_PARTICLE_ID, "id");
    if (!have_emitters) return missing(r, c, FERRY_PARTICLE_EMITTERS, "emitters");
    /* An older editor wrote no persistence chunk; its meaning when absent
     * is the default, 0 (particles die with the system). */
    s->no_persistence = !have_persistence;
    return true;
}

static bool read_file(fy_alamo_reader *r, const ferry_chunk_tree *tree, ferry_particle_system *s)
{
    const ferry_chunk *root = &tree->roots[0];
    if (root->type != FERRY_PARTICLE_SYSTEM) {
        fy_alamo_fail(r, FERRY_ERR_MALFORMED, NULL, 0,
                      "expected a particle system chunk 0x900 at the start of the file, found chunk 0x%x",
                      (unsigned)root->type);
        return false;
    }
    uint32_t *order = fy_alamo_alloc_array(r, NULL, tree->root_count, sizeof *order);
    if (!order) return false;
    for (size_t i = 0; i < tree->root_count; i++) order[i] = tree->roots[i].type;
    s->file_layout.order = order;
    s->file_layout.order_count = tree->root_count;
    if (!read_system(r, root, s)) return false;
    for (size_t i = 1; i < tree->root_count && !r->failed; i++) {
        /* The root list has no parent chunk: size the unknown list by the roots. */
        if (!s->file_layout.unknown) {
            s->file_layout.unknown = fy_alamo_alloc_array(r, NULL, tree->root_count, sizeof(ferry_raw_chunk));
            if (!s->file_layout.unknown) return false;
        }
        fy_alamo_keep_unknown(r, &tree->roots[i], &s->file_layout);
    }
    if (r->failed) return false;
    return fy_alamo_finish_tails(r, &s->string_tails, &s->string_tail_count);
}

static bool load_system(fy_alamo_reader *r, const ferry_chunk_tree *tree, void *object)
{
    ferry_particle_system *s = object;
    s->arena = r->arena;
    return read_file(r, tree, s);
}

ferry_result ferry_particle_read(const uint8_t *data, size_t size, const ferry_read_options *options,
                                 ferry_particle_system **out, ferry_error *err)
{
    ferry_error local;
    if (!err) err = &local;
    fy_error_clear(err);
    *out = NULL;
    ferry_alamo_kind kind = ferry_alamo_detect(data, size);
    if (kind == FERRY_ALAMO_PARTICLE_UAW) {
        fy_error_set(err, FERRY_ERR_UNSUPPORTED, 0, NULL,
                     "Universe at War particle systems (first chunk 0x1500) are not supported; only the 0x900 "
                     "format of Empire at War and Forces of Corruption is read");
        return FERRY_ERR_UNSUPPORTED;
    }
    if (kind != FERRY_ALAMO_PARTICLE && kind != FERRY_ALAMO_UNKNOWN) {
        fy_error_set(err, FERRY_ERR_UNSUPPORTED, 0, NULL, "this file is an %s, not a particle system (first chunk 0x%x)",
                     ferry_alamo_kind_name(kind), (unsigned)fy_load_u32le(data));
        return FERRY_ERR_UNSUPPORTED;
    }
    /* Particle files are small: small blocks, and the limit follows the input. */
    void *system = NULL;
    ferry_result rc =
        fy_alamo_load(data, size, options, sizeof(ferry_particle_system), size * 2, load_system, &system, err);
    *out = system;
    return rc;
}

void ferry_particle_free(ferry_particle_system *system)
{
    if (system) ferry_arena_destroy(system->arena);
}
