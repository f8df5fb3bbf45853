/* Particle system validation: the rules the format and the game rely on
 * that the reader does not enforce (it keeps whatever the bytes say, so
 * that writing back is exact). Works on any system, read or built by hand,
 * and never trusts a count without checking that its array is there. */
#include "particle_tables.h"
#include "../../core/diag_cap.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

/* Lifetime group against the properties: the editor derives one from the
 * other in float arithmetic, so allow a few units in the last place. */
#define LIFETIME_RELATIVE 1e-5
#define LIFETIME_ABSOLUTE 1e-6
/* Reports per rule and emitter; a damaged file can repeat one problem in
 * every key. */
#define CAP_PER_RULE 8

typedef struct vctx {
    const ferry_particle_system *system;
    const ferry_particle_validate_options *options;
    ferry_diagnostics *diags;
    size_t errors;
    /* Reports per rule within one scope (the system, an emitter). */
    fy_diag_scope tally;
} vctx;

/* Mini-chunk value sizes, by fy_mini_kind (0: a string, variable). */
static const size_t kind_sizes[] = {4, 4, 12, 16, 0, 1, 2, 8};

static const char *const track_names[FERRY_PARTICLE_TRACK_COUNT] = {
    "red", "green", "blue", "alpha", "size", "texture index", "rotation speed",
};
static const char *const group_names[FERRY_PARTICLE_GROUP_COUNT] = {"velocity", "lifetime", "position"};

static uint64_t at(uint64_t base, uint64_t add) { return base == FERRY_NO_OFFSET ? FERRY_NO_OFFSET : base + add; }

/* report(v, severity, offset, path, rule, fmt, ...) */
#define report(v, ...) fy_diag_report(&(v)->tally, (v)->diags, &(v)->errors, __VA_ARGS__)

/* Closes a scope with one line per rule that went over its cap, as severe
 * as the worst report it stands for. */
static void close_scope(vctx *v, const char *who, uint64_t offset, const char *path)
{
    v->errors += fy_diag_scope_close(&v->tally, v->diags, who, true, offset, path);
}

/* ---- the system name ---- */

static int lower(int c) { return c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c; }

static void check_system_name(vctx *v)
{
    const ferry_particle_system *s = v->system;
    uint64_t name_at = s->offset == FERRY_NO_OFFSET ? FERRY_NO_OFFSET : s->offset + 8;
    if (!s->name) {
        report(v, FERRY_SEVERITY_ERROR, s->offset, "0x900", "name-missing", "the particle system has no name");
        return;
    }
    if (s->layout.order_count == 0 || s->layout.order[0] != FERRY_PARTICLE_NAME) name_at = s->offset;
    const char *file = v->options ? v->options->file_name : NULL;
    if (!file) return;
    /* Base name without directories (either separator) and extension. */
    const char *base = file;
    for (const char *p = file; *p; p++)
        if (*p == '/' || *p == '\\') base = p + 1;
    const char *dot = strrchr(base, '.');
    size_t stem = dot && dot != base ? (size_t)(dot - base) : strlen(base);
    size_t n = strlen(s->name);
    bool same = n == stem;
    for (size_t i = 0; same && i < n; i++) same = lower((unsigned char)s->name[i]) == lower((unsigned char)base[i]);
    /* A warning: the game finds a particle system by its file name, and 6
     * of 323 systems shipped in two released mods carry another name. */
    if (!same)
        report(v, FERRY_SEVERITY_WARNING, name_at, "0x900/0x0", "system-name",
               "the system is named '%.64s' but the file is '%.*s' (the game finds particles by file name, so "
               "this loads; the spec asks for the same name, case aside)",
               s->name, (int)(stem < 96 ? stem : 96), base);
}

/* ---- emitters ---- */

/* Offset of the mini-chunk of type `type` in a read properties chunk, by
 * the writer's walk of its layout; FERRY_NO_OFFSET when unknown. */
static uint64_t property_offset(const ferry_particle_emitter *e, uint8_t type)
{
    const ferry_mini_layout *l = &e->properties_layout;
    if (e->properties_offset == FERRY_NO_OFFSET || !l->order || (l->unknown_count && !l->unknown)) return e->properties_offset;
    uint64_t pos = e->properties_offset + 8, written = 0;
    size_t next_unknown = 0, count = FY_PCOUNT(fy_particle_property_fields);
    for (size_t i = 0; i < l->order_count; i++) {
        uint8_t t = l->order[i];
        size_t k = count;
        for (size_t j = 0; j < count && k == count; j++)
            if (fy_particle_property_fields[j].type == t && !(written & (1ull << j))) k = j;
        size_t size;
        if (k < count && ferry_particle_property_present(&e->properties, t)) {
            size = kind_sizes[fy_particle_property_fields[k].kind];
            written |= 1ull << k;
        } else if (next_unknown < l->unknown_count && l->unknown[next_unknown].type == t) {
            size = l->unknown[next_unknown++].body.size;
        } else {
            continue;
        }
        if (t == type) return pos;
        pos += 2 + size;
    }
    return e->properties_offset;
}

static const char *property_name(uint8_t type)
{
    for (size_t k = 0; k < FY_PCOUNT(fy_particle_property_fields); k++)
        if (fy_particle_property_fields[k].type == type) return fy_particle_property_fields[k].what;
    return NULL;
}

static void check_enum(vctx *v, const ferry_particle_emitter *e, const char *who, uint8_t type, uint32_t value,
                       uint32_t max, const char *rule)
{
    if (!ferry_particle_property_present(&e->properties, type) || value <= max) return;
    report(v, FERRY_SEVERITY_ERROR, property_offset(e, type), "0x900/0x800/0x700/0x2", rule,
           "%s: %s is %u, expected 0 to %u", who, property_name(type), (unsigned)value, (unsigned)max);
}

static void check_properties(vctx *v, const ferry_particle_emitter *e, size_t index, const char *who)
{
    const ferry_particle_properties *p = &e->properties;
    const char *path = "0x900/0x800/0x700/0x2";
    check_enum(v, e, who, 0x04, p->blend_mode, FERRY_PARTICLE_BLEND_MODE_MAX, "blend-mode");
    check_enum(v, e, who, 0x2f, p->ground_interaction, FERRY_PARTICLE_GROUND_INTERACTION_MAX, "ground-interaction");
    check_enum(v, e, who, 0x34, p->emit_mode, FERRY_PARTICLE_EMIT_MODE_MAX, "emit-mode");
    if (ferry_particle_property_present(p, 0x14) && p->index != index)
        report(v, FERRY_SEVERITY_WARNING, property_offset(e, 0x14), path, "emitter-index",
               "%s: its index property says %u, but it is emitter %zu", who, (unsigned)p->index, index);
    /* NaN or an infinity in a float property the game uses (not the
     * unused ones) makes every particle of the emitter garbage: an error.
     * Very large finite values are real: shipped lifetimes of FLT_MAX. */
    for (size_t k = 0; k < FY_PCOUNT(fy_particle_property_fields); k++) {
        const fy_mini_field *f = &fy_particle_property_fields[k];
        int n = f->kind == FY_MINI_F32 ? 1 : f->kind == FY_MINI_F32X3 ? 3 : f->kind == FY_MINI_F32X4 ? 4 : 0;
        if (!n || !ferry_particle_property_present(p, f->type) || !strncmp(f->what, "unused", 6)) continue;
        for (int j = 0; j < n; j++) {
            float x;
            memcpy(&x, (const char *)p + f->offset + 4 * (size_t)j, sizeof x);
            if (isfinite(x)) continue;
            report(v, FERRY_SEVERITY_ERROR, at(property_offset(e, f->type), 2 + 4 * (uint64_t)j), path,
                   "value-finite", "%s: %s (0x%02x) component %d is %g", who, f->what, f->type, j, (double)x);
            break;
        }
    }
    /* Known types the reader could not use (another size, or a repeat):
     * the game would read them its own way. */
    const ferry_mini_layout *l = &e->properties_layout;
    if (!l->unknown && l->unknown_count) return;
    for (size_t i = 0; i < l->unknown_count; i++) {
        const ferry_raw_mini *raw = &l->unknown[i];
        const char *name = property_name(raw->type);
        if (!name) continue;
        size_t expected = 0;
        for (size_t k = 0; k < FY_PCOUNT(fy_particle_property_fields); k++)
            if (fy_particle_property_fields[k].type == raw->type) expected = kind_sizes[fy_particle_property_fields[k].kind];
        if (raw->body.size != expected)
            report(v, FERRY_SEVERITY_WARNING, e->properties_offset, path, "property-size",
                   "%s: property mini-chunk 0x%02x (%s) holds %u bytes, expected %zu; kept as is, its value unread",
                   who, raw->type, name, (unsigned)raw->body.size, expected);
        else
            report(v, FERRY_SEVERITY_WARNING, e->properties_offset, path, "property-repeated",
                   "%s: property mini-chunk 0x%02x (%s) appears more than once; the first is used", who, raw->type,
                   name);
    }
}

static bool near(double a, double b)
{
    double scale = fabs(b) > 1 ? fabs(b) : 1;
    return fabs(a - b) <= LIFETIME_RELATIVE * scale + LIFETIME_ABSOLUTE;
}

/* The lifetime group against properties 0x0f and 0x13, in either layout
 * (ferry_particle_lifetime_layout_of). A warning: the game loads such a
 * system, and which of the two it takes a particle's lifetime from is not
 * known, so a disagreement is not shown to draw wrong. */
static void check_lifetime_group(vctx *v, const ferry_particle_emitter *e, const char *who)
{
    const ferry_particle_properties *p = &e->properties;
    const ferry_particle_group *g = &e->groups[FERRY_PARTICLE_GROUP_LIFETIME];
    const char *path = "0x900/0x800/0x700/0x29/0x1100/0x1101";
    uint64_t offset = g->data_offset != FERRY_NO_OFFSET ? g->data_offset : g->offset;
    if (!ferry_particle_property_present(p, 0x0f) || !ferry_particle_property_present(p, 0x13)) {
        report(v, FERRY_SEVERITY_WARNING, e->properties_offset, "0x900/0x800/0x700/0x2", "property-missing",
               "%s: lifetime (0x0f) or randomized lifetime (0x13) is not stored; the lifetime group cannot be checked",
               who);
        return;
    }
    double lifetime = p->lifetime, low = (double)p->lifetime * (1 - (double)p->randomized_lifetime);
    if (g->type != FERRY_PARTICLE_GROUP_BOX) {
        report(v, FERRY_SEVERITY_WARNING, at(offset, 8), path, "lifetime-group",
               "%s: the lifetime group has type %u, expected 1 (box)", who, (unsigned)g->type);
        return;
    }
    ferry_particle_lifetime_layout layout = ferry_particle_lifetime_layout_of(g);
    if (layout == FERRY_PARTICLE_LIFETIME_UNKNOWN) {
        report(v, FERRY_SEVERITY_WARNING, at(offset, 8 + 4), path, "lifetime-group",
               "%s: the lifetime group's ranges are x %g..%g, y %g..%g, z %g..%g; expected the lifetime on y (or, "
               "an older editor's layout, on x) and 0 elsewhere",
               who, (double)g->min[0], (double)g->max[0], (double)g->min[1], (double)g->max[1], (double)g->min[2],
               (double)g->max[2]);
        return;
    }
    int axis = layout == FERRY_PARTICLE_LIFETIME_Y ? 1 : 0;
    if (!near(g->min[axis], low) || !near(g->max[axis], lifetime))
        report(v, FERRY_SEVERITY_WARNING, at(offset, 8 + 4u * (unsigned)axis), path, "lifetime-group",
               "%s: the lifetime group's %c range is %g..%g, expected %g..%g (lifetime %g, randomized %g)", who,
               axis ? 'y' : 'x', (double)g->min[axis], (double)g->max[axis], low, lifetime, lifetime,
               (double)p->randomized_lifetime);
}

typedef struct group_field {
    const float *x;
    int n;
    uint32_t at;
    const char *what;
} group_field;

static void check_groups(vctx *v, const ferry_particle_emitter *e, const char *who)
{
    const char *path = "0x900/0x800/0x700/0x29/0x1100/0x1101";
    for (size_t i = 0; i < FERRY_PARTICLE_GROUP_COUNT; i++) {
        const ferry_particle_group *g = &e->groups[i];
        uint64_t offset = g->data_offset != FERRY_NO_OFFSET ? g->data_offset : g->offset;
        if (g->type > FERRY_PARTICLE_GROUP_CYLINDER) {
            report(v, FERRY_SEVERITY_ERROR, at(offset, 8), path, "group-type",
                   "%s: the %s group has type %u, expected 0 to 4 (exact, box, cube, sphere, cylinder)", who,
                   group_names[i], (unsigned)g->type);
            continue;
        }
        if (g->extra.data && g->extra.size)
            report(v, FERRY_SEVERITY_ERROR, offset, path, "chunk-size", "%s: the %s group data is %u bytes, expected %d",
                   who, group_names[i], (unsigned)(FERRY_PARTICLE_GROUP_DATA_SIZE + g->extra.size),
                   FERRY_PARTICLE_GROUP_DATA_SIZE);
        /* NaN or an infinity in a field the group's type uses: every
         * particle drawn from it lands nowhere. Unused fields hold data in
         * real files and are left alone. Offsets within the 64 bytes. */
        group_field used[2] = {{NULL, 0, 0, NULL}, {NULL, 0, 0, NULL}};
        switch (g->type) {
        case FERRY_PARTICLE_GROUP_EXACT: used[0] = (group_field){g->value, 3, 52, "value"}; break;
        case FERRY_PARTICLE_GROUP_BOX:
            used[0] = (group_field){g->min, 3, 4, "minimum"};
            used[1] = (group_field){g->max, 3, 16, "maximum"};
            break;
        case FERRY_PARTICLE_GROUP_CUBE: used[0] = (group_field){&g->side_length, 1, 28, "side length"}; break;
        case FERRY_PARTICLE_GROUP_SPHERE: used[0] = (group_field){&g->sphere_radius, 1, 32, "radius"}; break;
        default:
            used[0] = (group_field){&g->cylinder_radius, 1, 40, "radius"};
            used[1] = (group_field){&g->cylinder_height, 1, 48, "height"};
            break;
        }
        bool finite = true;
        for (int u = 0; u < 2 && finite; u++)
            for (int j = 0; j < used[u].n && finite; j++)
                if (!isfinite(used[u].x[j])) {
                    finite = false;
                    report(v, FERRY_SEVERITY_ERROR, at(g->data_offset, 8 + used[u].at + 4 * (uint64_t)j), path,
                           "value-finite", "%s: the %s group's %s component %d is %g", who, group_names[i],
                           used[u].what, j, (double)used[u].x[j]);
                }
        if (!finite) continue;
        float size = g->type == FERRY_PARTICLE_GROUP_CUBE     ? g->side_length
                     : g->type == FERRY_PARTICLE_GROUP_SPHERE ? g->sphere_radius
                     : g->type == FERRY_PARTICLE_GROUP_CYLINDER
                         ? (g->cylinder_radius < g->cylinder_height ? g->cylinder_radius : g->cylinder_height)
                         : 0;
        if (size < 0)
            report(v, FERRY_SEVERITY_WARNING, offset, path, "group-extent", "%s: the %s group has a negative size",
                   who, group_names[i]);
    }
    check_lifetime_group(v, e, who);
}

static void check_tracks(vctx *v, const ferry_particle_emitter *e, const char *who)
{
    for (size_t i = 0; i < FERRY_PARTICLE_TRACK_COUNT; i++) {
        const ferry_particle_track *t = &e->tracks[i];
        if (t->interpolation > FERRY_PARTICLE_STEP)
            report(v, FERRY_SEVERITY_ERROR, t->header_offset, "0x900/0x800/0x700/0x1/0x0", "interpolation",
                   "%s: the %s track's interpolation is %u, expected 0 (linear), 1 (cosine) or 2 (step)", who,
                   track_names[i], (unsigned)t->interpolation);
        if (t->key_count && !t->keys) {
            report(v, FERRY_SEVERITY_ERROR, t->keys_offset, "0x900/0x800/0x700/0x1/0x1", "data-missing",
                   "%s: the %s track announces %zu keys but has no key array", who, track_names[i], t->key_count);
            continue;
        }
        /* NaN or an infinity in a float track's values: the particle's
         * size or rotation becomes garbage (colour tracks store integers). */
        bool color = i < FERRY_PARTICLE_COLOR_TRACKS;
        if (!color && (!isfinite(t->first) || !isfinite(t->last)))
            report(v, FERRY_SEVERITY_ERROR, t->header_offset, "0x900/0x800/0x700/0x1/0x0", "value-finite",
                   "%s: the %s track's values at t=0 and t=1 are %g and %g", who, track_names[i], (double)t->first,
                   (double)t->last);
        for (size_t k = 0; !color && k < t->key_count; k++)
            if (!isfinite(t->keys[k].value))
                report(v, FERRY_SEVERITY_ERROR, t->keys[k].offset, "0x900/0x800/0x700/0x1/0x1", "value-finite",
                       "%s: key %zu of the %s track has the value %g", who, k, track_names[i],
                       (double)t->keys[k].value);
        double previous = 0;
        for (size_t k = 0; k < t->key_count; k++) {
            double time = t->keys[k].time;
            uint64_t offset = t->keys[k].offset;
            if (!(time >= 0 && time <= 1))
                report(v, FERRY_SEVERITY_ERROR, offset, "0x900/0x800/0x700/0x1/0x1", "track-key-range",
                       "%s: key %zu of the %s track is at time %g, outside [0, 1]", who, k, track_names[i], time);
            else if (time < previous)
                report(v, FERRY_SEVERITY_ERROR, offset, "0x900/0x800/0x700/0x1/0x1", "track-key-order",
                       "%s: key %zu of the %s track is at time %g, before the key ahead of it (%g)", who, k,
                       track_names[i], time, previous);
            if (time == time && time > previous) previous = time;
        }
    }
}

static void check_connection(vctx *v, const ferry_particle_emitter *e, const char *who, int32_t target,
                             const char *what, uint8_t mini)
{
    size_t n = v->system->emitter_count;
    if (target == FERRY_PARTICLE_NO_EMITTER || (target >= 0 && (size_t)target < n)) return;
    /* Locate the mini-chunk when the chunk holds just the two, in order. */
    uint64_t offset = e->connections_offset;
    const ferry_mini_layout *l = &e->connections_layout;
    if (offset != FERRY_NO_OFFSET && l->order_count == 2 && l->order[0] == 0x37 && l->order[1] == 0x39 &&
        !l->unknown_count)
        offset += 8 + (mini == 0x37 ? 0 : 6);
    report(v, FERRY_SEVERITY_ERROR, offset, "0x900/0x800/0x700/0x36", "connection-range",
           "%s: the %s emitter is %ld, expected -1 (none) or 0 to %zu", who, what, (long)target, n ? n - 1 : 0);
}

/* Birth and death emitters spawning each other in a loop make particles
 * without end. Depth-first search with an explicit stack: a damaged file
 * may hold very many emitters. */
static void check_cycles(vctx *v)
{
    const ferry_particle_system *s = v->system;
    size_t n = s->emitter_count;
    if (!n) return;
    uint8_t *state = calloc(n, 1); /* 0 new, 1 on the stack, 2 done */
    size_t *stack = malloc(n * sizeof *stack);
    uint8_t *edge = malloc(n);
    if (!state || !stack || !edge) goto done; /* a check that cannot run is skipped, not failed */
    for (size_t start = 0; start < n; start++) {
        if (state[start]) continue;
        size_t depth = 0;
        stack[depth] = start;
        edge[depth++] = 0;
        state[start] = 1;
        while (depth) {
            size_t node = stack[depth - 1];
            if (edge[depth - 1] == 2) {
                state[node] = 2;
                depth--;
                continue;
            }
            int32_t target = edge[depth - 1]++ == 0 ? s->emitters[node].death_emitter : s->emitters[node].birth_emitter;
            if (target < 0 || (size_t)target >= n) continue;
            size_t next = (size_t)target;
            if (state[next] == 1) {
                const ferry_particle_emitter *e = &s->emitters[node];
                report(v, FERRY_SEVERITY_WARNING, e->connections_offset, "0x900/0x800/0x700/0x36", "connection-cycle",
                       "emitter %zu '%.48s': its birth/death connections lead back to emitter %zu: particles would "
                       "spawn without end",
                       node, e->name ? e->name : "", next);
            } else if (state[next] == 0) {
                state[next] = 1;
                stack[depth] = next;
                edge[depth++] = 0;
            }
        }
    }
done:
    free(state);
    free(stack);
    free(edge);
}

static void check_texture(vctx *v, const ferry_particle_emitter *e, const char *who, const char *name, uint32_t type,
                          const char *what, bool required)
{
    char path[32];
    snprintf(path, sizeof path, "0x900/0x800/0x700/0x%x", (unsigned)type);
    if (!name) {
        if (required)
            report(v, FERRY_SEVERITY_WARNING, e->offset, path, "name-missing", "%s: has no %s chunk", who, what);
        return;
    }
    const ferry_particle_validate_options *o = v->options;
    if (name[0] && o && o->texture_exists && !o->texture_exists(name, o->user))
        report(v, FERRY_SEVERITY_WARNING, e->offset, path, "texture-missing", "%s: %s '%.64s' not found", who, what,
               name);
}

static void check_emitter(vctx *v, size_t index)
{
    const ferry_particle_emitter *e = &v->system->emitters[index];
    char who[96];
    if (e->name)
        snprintf(who, sizeof who, "emitter %zu '%.48s'", index, e->name);
    else
        snprintf(who, sizeof who, "emitter %zu", index);
    check_properties(v, e, index, who);
    check_groups(v, e, who);
    check_tracks(v, e, who);
    check_connection(v, e, who, e->death_emitter, "death", 0x37);
    check_connection(v, e, who, e->birth_emitter, "birth", 0x39);
    check_texture(v, e, who, e->color_texture, FERRY_PARTICLE_COLOR_TEXTURE, "color texture", true);
    check_texture(v, e, who, e->secondary_texture, FERRY_PARTICLE_SECONDARY_TEXTURE, "secondary texture", false);
    if (!e->name)
        report(v, FERRY_SEVERITY_WARNING, e->offset, "0x900/0x800/0x700/0x16", "name-missing", "%s: has no name chunk",
               who);
    close_scope(v, who, e->offset, "0x900/0x800/0x700");
}

size_t ferry_particle_validate(const ferry_particle_system *system, const ferry_particle_validate_options *options,
                               ferry_diagnostics *diags)
{
    if (!system) return 0;
    vctx v = {.system = system, .options = options, .diags = diags};
    fy_diag_scope_open(&v.tally, CAP_PER_RULE);
    check_system_name(&v);
    if (system->emitter_count && !system->emitters) {
        report(&v, FERRY_SEVERITY_ERROR, system->emitters_offset, "0x900/0x800", "data-missing",
               "the system announces %zu emitters but has no emitter array", system->emitter_count);
        return v.errors;
    }
    if (system->id_extra.data && system->id_extra.size)
        report(&v, FERRY_SEVERITY_ERROR, system->offset, "0x900/0x1", "chunk-size", "the id chunk is %u bytes, expected 4",
               (unsigned)(4 + system->id_extra.size));
    if (system->persistence_extra.data && system->persistence_extra.size)
        report(&v, FERRY_SEVERITY_ERROR, system->offset, "0x900/0x2", "chunk-size",
               "the persistence chunk is %u bytes, expected 1", (unsigned)(1 + system->persistence_extra.size));
    /* A warning: an older editor's files have none, and one shipped in a
     * released mod (P_LAVA_BUBBLES.ALO); the game then keeps its default. */
    if (system->no_persistence)
        report(&v, FERRY_SEVERITY_WARNING, system->offset, "0x900", "persistence-missing",
               "the system has no persistence chunk 0x2 (an older editor's layout); read as 0, particles die with "
               "the system");
    if (system->emitter_count == 0)
        report(&v, FERRY_SEVERITY_WARNING, system->emitters_offset, "0x900/0x800", "no-emitters",
               "the system has no emitters: it shows nothing");
    close_scope(&v, "system", system->offset, "0x900");
    for (size_t i = 0; i < system->emitter_count; i++) check_emitter(&v, i);
    check_cycles(&v);
    close_scope(&v, "connections", system->emitters_offset, "0x900/0x800");
    return v.errors;
}
