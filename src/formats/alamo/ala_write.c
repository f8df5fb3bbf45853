/* ALA animation writer: typed animation -> bytes, following each recorded
 * layout so that a read animation comes out byte for byte, in its own
 * format or converted to the other one.
 *
 * Conversion only moves stored integers: a plan per bone says what its
 * header's indices become and where each format-1 track chunk takes its
 * values from (the bone's own array, or a column of the frame blocks), and
 * format-2 blocks are assembled from the per-bone arrays frame by frame. */
#include "ala_tables.h"

#include <stdio.h>
#include <stdlib.h>

enum { CH_T, CH_S, CH_R, CHANNELS };

static const size_t channel_width[CHANNELS] = {3, 3, 4};
static const uint32_t track_chunk[CHANNELS] = {FERRY_ALA_TRANSLATIONS, FERRY_ALA_SCALES, FERRY_ALA_ROTATIONS};
static const uint32_t block_chunk[CHANNELS] = {FERRY_ALA_FRAME_TRANSLATIONS, FERRY_ALA_FRAME_SCALES,
                                               FERRY_ALA_FRAME_ROTATIONS};
static const char *const channel_name[CHANNELS] = {"translation", "scale", "rotation"};

/* Values of a format-1 track chunk: `count` entries of the channel's width,
 * each `step` values after the previous one. */
typedef struct track {
    bool write;
    const uint16_t *base;
    size_t step, count;
} track;

typedef struct bone_plan {
    int16_t index[CHANNELS];
    int16_t default_rotation[4];
    uint32_t present;
    track tracks[CHANNELS];
} bone_plan;

typedef struct ala_writer {
    fy_alamo_writer w;
    const ferry_ala_animation *anim;
    uint8_t format;
    bool converting;
    bone_plan *plans;
    uint32_t strides[CHANNELS];
    bool blocks[CHANNELS]; /* write the frame-block chunk */
} ala_writer;

/* ---- plans ---- */

static void refuse(ala_writer *aw, size_t b, const char *fmt, ...) FY_PRINTF(3, 4);

static void refuse(ala_writer *aw, size_t b, const char *fmt, ...)
{
    char message[200];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(message, sizeof message, fmt, ap);
    va_end(ap);
    const char *name = aw->anim->bones[b].name;
    fy_alamo_wfail(&aw->w, "cannot convert to format %u: bone %zu '%.40s': %s (ferry_ala_validate reports this)",
                   (unsigned)aw->format, b, name ? name : "", message);
}

static const uint16_t *stored_values(const ferry_ala_bone *bone, int c)
{
    return c == CH_T ? bone->translations : c == CH_S ? bone->scales : (const uint16_t *)bone->rotations;
}

static size_t stored_count(const ferry_ala_bone *bone, int c)
{
    return c == CH_T ? bone->translation_count : c == CH_S ? bone->scale_count : bone->rotation_count;
}

static bool stored(const ferry_ala_bone *bone, int c)
{
    bool has = c == CH_T ? bone->has_translations : c == CH_S ? bone->has_scales : bone->has_rotations;
    return has || stored_count(bone, c) > 0;
}

static void plan_as_stored(ala_writer *aw, size_t b)
{
    const ferry_ala_bone *bone = &aw->anim->bones[b];
    bone_plan *p = &aw->plans[b];
    p->index[CH_T] = bone->translation_index;
    p->index[CH_S] = bone->scale_index;
    p->index[CH_R] = bone->rotation_index;
    memcpy(p->default_rotation, bone->default_rotation, sizeof p->default_rotation);
    p->present = bone->present | (aw->format == FERRY_ALA_FORMAT_2 ? FERRY_ALA_BONE_FORMAT2_MINIS : 0);
    for (int c = 0; c < CHANNELS; c++)
        p->tracks[c] = (track){stored(bone, c), stored_values(bone, c), channel_width[c], stored_count(bone, c)};
}

/* Format 1 -> 2: tracks become columns of the frame blocks, given out in
 * bone order as real files do; a one-entry rotation track becomes the
 * default rotation, and an animated bone's default is its first frame. */
static bool plan_pack(ala_writer *aw, size_t b)
{
    const ferry_ala_animation *a = aw->anim;
    const ferry_ala_bone *bone = &a->bones[b];
    bone_plan *p = &aw->plans[b];
    memset(p, 0, sizeof *p);
    p->present = (bone->present & ~FERRY_ALA_BONE_FORMAT2_MINIS) | FERRY_ALA_BONE_FORMAT2_MINIS;
    p->default_rotation[3] = FY_ALA_ROTATION_ONE;
    for (int c = 0; c < CHANNELS; c++) {
        p->index[c] = FERRY_ALA_NOT_ANIMATED;
        if (!stored(bone, c)) continue;
        size_t n = stored_count(bone, c);
        const uint16_t *v = stored_values(bone, c);
        if (c == CH_R && n == 1) {
            memcpy(p->default_rotation, v, sizeof p->default_rotation);
            continue;
        }
        if (n != a->frame_count) {
            refuse(aw, b, "its %s track (0x%x) holds %zu entries, the animation %u frames", channel_name[c],
                   (unsigned)track_chunk[c], n, (unsigned)a->frame_count);
            return false;
        }
        if (n == 0) continue;
        if (aw->strides[c] > (uint32_t)INT16_MAX) {
            refuse(aw, b, "its %s index would be %u, beyond format 2's 16-bit indices", channel_name[c],
                   (unsigned)aw->strides[c]);
            return false;
        }
        p->index[c] = (int16_t)aw->strides[c];
        aw->strides[c] += (uint32_t)channel_width[c];
        if (c == CH_R) memcpy(p->default_rotation, v, sizeof p->default_rotation);
    }
    return true;
}

static const uint16_t *block_values(const ferry_ala_animation *a, int c, size_t *count)
{
    switch (c) {
    case CH_T: *count = a->frame_translation_count; return a->frame_translations;
    case CH_S: *count = a->frame_scale_count; return a->frame_scales;
    default: *count = a->frame_rotation_count; return (const uint16_t *)a->frame_rotations;
    }
}

static uint32_t stored_stride(const ferry_ala_animation *a, int c)
{
    return c == CH_T ? a->translation_stride : c == CH_S ? a->scale_stride : a->rotation_stride;
}

/* Format 2 -> 1: a column of the frame blocks becomes the bone's track; a
 * bone without rotation track gets its default rotation as a one-entry
 * track, which is how real format-1 files store a still bone. */
static bool plan_unpack(ala_writer *aw, size_t b)
{
    const ferry_ala_animation *a = aw->anim;
    const ferry_ala_bone *bone = &a->bones[b];
    bone_plan *p = &aw->plans[b];
    memset(p, 0, sizeof *p);
    p->present = bone->present & ~FERRY_ALA_BONE_FORMAT2_MINIS;
    const int16_t index[CHANNELS] = {bone->translation_index, bone->scale_index, bone->rotation_index};
    for (int c = 0; c < CHANNELS; c++) {
        p->index[c] = FERRY_ALA_NOT_ANIMATED;
        track *t = &p->tracks[c];
        if (index[c] >= 0 && a->frame_count > 0) {
            size_t count;
            const uint16_t *values = block_values(a, c, &count);
            uint32_t stride = stored_stride(a, c);
            if ((uint32_t)index[c] + channel_width[c] > stride) {
                refuse(aw, b, "its %s index %d does not leave %zu values inside the %u-value frame block",
                       channel_name[c], index[c], channel_width[c], (unsigned)stride);
                return false;
            }
            if ((uint64_t)a->frame_count * stride > count) {
                refuse(aw, b, "chunk 0x%x holds %zu values, %u frames of %u need %llu", (unsigned)block_chunk[c],
                       count, (unsigned)a->frame_count, (unsigned)stride, (unsigned long long)a->frame_count * stride);
                return false;
            }
            *t = (track){true, values + index[c], stride, a->frame_count};
        } else if (c == CH_R) {
            *t = (track){true, (const uint16_t *)bone->default_rotation, 4, 1};
        }
    }
    return true;
}

/* A count without its array (a hand-built animation) cannot be written. */
static bool arrays_given(ala_writer *aw)
{
    const ferry_ala_animation *a = aw->anim;
    const char *what = NULL;
    size_t b = 0;
    for (; b < a->bone_count && !what; b++) {
        const ferry_ala_bone *bone = &a->bones[b];
        if (bone->translation_count && !bone->translations) what = "translations";
        if (bone->scale_count && !bone->scales) what = "scales";
        if (bone->rotation_count && !bone->rotations) what = "rotations";
        if (bone->visibility_size && !bone->visibility) what = "visibility bits";
        if (bone->step_size && !bone->steps) what = "step bits";
    }
    if (what) {
        fy_alamo_wfail(&aw->w, "bone %zu: %s announced but no data given", b - 1, what);
        return false;
    }
    if ((a->frame_rotation_count && !a->frame_rotations) || (a->frame_translation_count && !a->frame_translations) ||
        (a->frame_scale_count && !a->frame_scales)) {
        fy_alamo_wfail(&aw->w, "frame blocks announced but no data given");
        return false;
    }
    return true;
}

static bool make_plans(ala_writer *aw)
{
    const ferry_ala_animation *a = aw->anim;
    if (!arrays_given(aw)) return false;
    aw->plans = calloc(a->bone_count ? a->bone_count : 1, sizeof *aw->plans);
    if (!aw->plans) {
        aw->w.out->failed = true;
        return false;
    }
    for (size_t b = 0; b < a->bone_count; b++) {
        if (!aw->converting)
            plan_as_stored(aw, b);
        else if (aw->format == FERRY_ALA_FORMAT_2 ? !plan_pack(aw, b) : !plan_unpack(aw, b))
            return false;
    }
    for (int c = 0; c < CHANNELS; c++) {
        size_t count;
        block_values(a, c, &count);
        if (!aw->converting) {
            aw->strides[c] = stored_stride(a, c);
            bool has = c == CH_T ? a->has_frame_translations : c == CH_S ? a->has_frame_scales : a->has_frame_rotations;
            aw->blocks[c] = has || count > 0;
        } else {
            aw->blocks[c] = aw->format == FERRY_ALA_FORMAT_2 && aw->strides[c] > 0;
        }
    }
    return true;
}

/* ---- bytes ---- */

static void put_values(fy_alamo_writer *w, const uint16_t *v, size_t width)
{
    if (fy_host_is_le())
        fy_buf_append(w->out, v, width * 2);
    else
        for (size_t i = 0; i < width; i++) fy_buf_u16le(w->out, v[i]);
}

static void write_track(fy_alamo_writer *w, uint32_t type, const track *t, size_t width)
{
    size_t h = fy_alamo_begin_chunk(w, type);
    if (t->step == width && fy_host_is_le())
        fy_buf_append(w->out, t->base, t->count * width * 2);
    else
        for (size_t i = 0; i < t->count; i++) put_values(w, t->base + i * t->step, width);
    fy_alamo_end_chunk(w, h, false);
}

static void write_bits(fy_alamo_writer *w, uint32_t type, const uint8_t *bits, size_t size)
{
    size_t h = fy_alamo_begin_chunk(w, type);
    fy_buf_append(w->out, bits, size);
    fy_alamo_end_chunk(w, h, false);
}

/* In a conversion, track chunks the layout kept as unknown (duplicates in a
 * damaged file) are dropped: read back in the other format, one could
 * become the track itself and change the animation. */
static bool dropped(const ala_writer *aw, uint32_t type)
{
    return aw->converting && ((type >= FERRY_ALA_TRANSLATIONS && type <= FERRY_ALA_ROTATIONS) ||
                              (type >= FERRY_ALA_FRAME_ROTATIONS && type <= FERRY_ALA_FRAME_SCALES));
}

static void take_unknown(ala_writer *aw, fy_layout_walk *walk, uint32_t type)
{
    const ferry_chunk_layout *l = walk->layout;
    if (walk->next_unknown >= l->unknown_count || l->unknown[walk->next_unknown].type != type) return;
    if (!dropped(aw, type)) fy_alamo_write_raw_chunk(&aw->w, &l->unknown[walk->next_unknown]);
    walk->next_unknown++;
}

static void flush_unknown(ala_writer *aw, fy_layout_walk *walk)
{
    const ferry_chunk_layout *l = walk->layout;
    for (; walk->next_unknown < l->unknown_count; walk->next_unknown++)
        if (!dropped(aw, l->unknown[walk->next_unknown].type))
            fy_alamo_write_raw_chunk(&aw->w, &l->unknown[walk->next_unknown]);
}

/* Where fy_alamo_write_minis will ask for mini 17 among the unknown
 * mini-chunks: replays its walk of the order. */
static size_t default_rotation_slot(const ferry_mini_layout *l, uint32_t present)
{
    uint64_t written = 0;
    size_t next = 0;
    for (size_t i = 0; i < l->order_count; i++) {
        uint8_t t = l->order[i];
        size_t k = 0;
        while (k < FY_COUNT(fy_ala_bone_fields) && (fy_ala_bone_fields[k].type != t || (written & (1ull << k)))) k++;
        if (k < FY_COUNT(fy_ala_bone_fields) && (fy_ala_bone_fields[k].required || (t < 32 && (present & (1u << t))))) {
            written |= 1ull << k;
            continue;
        }
        if (t == FY_ALA_DEFAULT_ROTATION) return next;
        if (next < l->unknown_count && l->unknown[next].type == t) next++;
    }
    return l->unknown_count;
}

static void write_bone_header(fy_alamo_writer *w, const ferry_ala_bone *hb)
{
    const ferry_mini_layout *l = &hb->header_layout;
    size_t h = fy_alamo_begin_chunk(w, FERRY_ALA_BONE_HEADER);
    if (!(hb->present & FERRY_ALA_BONE_HAS_DEFAULT_ROTATION)) {
        fy_alamo_write_minis(w, fy_ala_bone_fields, FY_COUNT(fy_ala_bone_fields), hb, hb->present, l);
        fy_alamo_end_chunk(w, h, false);
        return;
    }
    /* Mini 17 joins the unknown list at the place the order gives it. */
    uint8_t encoded[FY_ALA_DEFAULT_ROTATION_SIZE];
    for (int k = 0; k < 4; k++) {
        encoded[2 * k] = (uint8_t)((uint16_t)hb->default_rotation[k] & 0xFF);
        encoded[2 * k + 1] = (uint8_t)((uint16_t)hb->default_rotation[k] >> 8);
    }
    ferry_raw_mini small[8];
    size_t n = l->unknown_count + 1;
    ferry_raw_mini *list = n <= FY_COUNT(small) ? small : malloc(n * sizeof *list);
    if (!list) {
        w->out->failed = true;
        return;
    }
    size_t at = default_rotation_slot(l, hb->present);
    if (at) memcpy(list, l->unknown, at * sizeof *list);
    list[at].type = FY_ALA_DEFAULT_ROTATION;
    list[at].body.data = encoded;
    list[at].body.size = FY_ALA_DEFAULT_ROTATION_SIZE;
    if (n - at - 1) memcpy(list + at + 1, l->unknown + at, (n - at - 1) * sizeof *list);
    ferry_mini_layout with = *l;
    with.unknown = list;
    with.unknown_count = n;
    fy_alamo_write_minis(w, fy_ala_bone_fields, FY_COUNT(fy_ala_bone_fields), hb, hb->present, &with);
    if (list != small) free(list);
    fy_alamo_end_chunk(w, h, false);
}

static const uint32_t bone_parts[] = {FERRY_ALA_BONE_HEADER, FERRY_ALA_TRANSLATIONS, FERRY_ALA_SCALES,
                                      FERRY_ALA_ROTATIONS,   FERRY_ALA_VISIBILITY,   FERRY_ALA_STEPS};

static void write_bone_part(ala_writer *aw, size_t b, const ferry_ala_bone *hb, size_t part)
{
    fy_alamo_writer *w = &aw->w;
    const ferry_ala_bone *bone = &aw->anim->bones[b];
    const bone_plan *p = &aw->plans[b];
    switch (part) {
    case 0: write_bone_header(w, hb); break;
    case 1: write_track(w, bone_parts[part], &p->tracks[CH_T], 3); break;
    case 2: write_track(w, bone_parts[part], &p->tracks[CH_S], 3); break;
    case 3: write_track(w, bone_parts[part], &p->tracks[CH_R], 4); break;
    case 4: write_bits(w, bone_parts[part], bone->visibility, bone->visibility_size); break;
    default: write_bits(w, bone_parts[part], bone->steps, bone->step_size); break;
    }
}

static bool later_in_order(const ferry_chunk_layout *l, size_t from, uint32_t type)
{
    for (size_t i = from; i < l->order_count; i++)
        if (l->order[i] == type) return true;
    return false;
}

static void write_bone(ala_writer *aw, size_t b)
{
    fy_alamo_writer *w = &aw->w;
    const ferry_ala_bone *bone = &aw->anim->bones[b];
    const bone_plan *p = &aw->plans[b];
    ferry_ala_bone hb = *bone; /* same name pointer: its string tail still matches */
    hb.translation_index = p->index[CH_T];
    hb.scale_index = p->index[CH_S];
    hb.rotation_index = p->index[CH_R];
    memcpy(hb.default_rotation, p->default_rotation, sizeof hb.default_rotation);
    hb.present = p->present;

    enum { PARTS = FY_COUNT(bone_parts) };
    bool wanted[PARTS] = {true, p->tracks[CH_T].write, p->tracks[CH_S].write, p->tracks[CH_R].write,
                          bone->has_visibility || bone->visibility_size, bone->has_steps || bone->step_size};
    bool done[PARTS] = {false, false, false, false, false, false};
    size_t h = fy_alamo_begin_chunk(w, FERRY_ALA_BONE);
    const ferry_chunk_layout *l = &bone->layout;
    fy_layout_walk walk = {l, 0};
    for (size_t i = 0; i < l->order_count + PARTS && !w->failed; i++) {
        bool from_layout = i < l->order_count;
        uint32_t t = from_layout ? l->order[i] : bone_parts[i - l->order_count];
        size_t part = 0;
        while (part < PARTS && bone_parts[part] != t) part++;
        if (part == PARTS || done[part] || !wanted[part]) {
            if (from_layout) take_unknown(aw, &walk, t);
            continue;
        }
        /* A conversion brings tracks the recorded order never saw: they go
         * where the canonical order puts them, not after everything. */
        for (size_t q = 0; aw->converting && from_layout && q < part; q++) {
            if (!wanted[q] || done[q] || later_in_order(l, i, bone_parts[q])) continue;
            done[q] = true;
            write_bone_part(aw, b, &hb, q);
        }
        done[part] = true;
        write_bone_part(aw, b, &hb, part);
    }
    flush_unknown(aw, &walk);
    fy_alamo_end_chunk(w, h, true);
}

static void write_header(ala_writer *aw)
{
    const ferry_ala_animation *a = aw->anim;
    fy_ala_header h = {a->frame_count, a->fps, a->bone_count_mismatch ? a->stated_bone_count : (uint32_t)a->bone_count,
                       aw->strides[CH_R], aw->strides[CH_T], aw->strides[CH_S]};
    ferry_mini_layout layout = a->header_layout;
    ferry_raw_mini small[8], *kept = NULL;
    if (aw->converting && aw->format == FERRY_ALA_FORMAT_1 && layout.unknown_count) {
        /* Second copies of the strides would make the result read as format 2. */
        kept = layout.unknown_count <= FY_COUNT(small) ? small : malloc(layout.unknown_count * sizeof *kept);
        if (!kept) {
            aw->w.out->failed = true;
            return;
        }
        size_t n = 0;
        for (size_t i = 0; i < layout.unknown_count; i++) {
            uint8_t t = layout.unknown[i].type;
            if (t < 11 || t > 13) kept[n++] = layout.unknown[i];
        }
        layout.unknown = kept;
        layout.unknown_count = n;
    }
    size_t c = fy_alamo_begin_chunk(&aw->w, FERRY_ALA_HEADER);
    fy_alamo_write_minis(&aw->w, fy_ala_header_fields, FY_COUNT(fy_ala_header_fields), &h,
                         aw->format == FERRY_ALA_FORMAT_2 ? FY_ALA_HEADER_STRIDES : 0, &layout);
    fy_alamo_end_chunk(&aw->w, c, false);
    if (kept && kept != small) free(kept);
}

/* Format-2 blocks as stored, or assembled frame by frame from the bones'
 * tracks (whose indices were handed out in bone order). */
static void write_blocks(ala_writer *aw, int c)
{
    const ferry_ala_animation *a = aw->anim;
    if (!aw->converting) {
        size_t count;
        const uint16_t *values = block_values(a, c, &count);
        track all = {true, values, 1, count};
        write_track(&aw->w, block_chunk[c], &all, 1);
        return;
    }
    size_t h = fy_alamo_begin_chunk(&aw->w, block_chunk[c]);
    size_t width = channel_width[c];
    for (uint32_t f = 0; f < a->frame_count && !aw->w.out->failed; f++)
        for (size_t b = 0; b < a->bone_count; b++)
            if (aw->plans[b].index[c] >= 0)
                put_values(&aw->w, stored_values(&a->bones[b], c) + (size_t)f * width, width);
    fy_alamo_end_chunk(&aw->w, h, false);
}

static void write_animation(ala_writer *aw)
{
    const ferry_ala_animation *a = aw->anim;
    fy_alamo_writer *w = &aw->w;
    /* Real files put translations before rotations; scales (never seen)
     * go between, as in the bone header's 14, 15, 16. */
    static const int block_order[CHANNELS] = {CH_T, CH_S, CH_R};
    size_t h = fy_alamo_begin_chunk(w, FERRY_ALA_ANIMATION);
    fy_layout_walk walk = {&a->layout, 0};
    bool header_done = false, blocks_done[CHANNELS] = {false, false, false};
    size_t next_bone = 0;
    for (size_t i = 0; i <= a->layout.order_count && !w->failed; i++) {
        bool end = i == a->layout.order_count;
        uint32_t t = end ? 0 : a->layout.order[i];
        if ((end || t == FERRY_ALA_HEADER) && !header_done) {
            write_header(aw);
            header_done = true;
            if (!end) continue;
        }
        if (end) {
            while (next_bone < a->bone_count) write_bone(aw, next_bone++);
            for (int k = 0; k < CHANNELS; k++) {
                int c = block_order[k];
                if (aw->blocks[c] && !blocks_done[c]) write_blocks(aw, c);
            }
            break;
        }
        if (t == FERRY_ALA_BONE && next_bone < a->bone_count) {
            write_bone(aw, next_bone++);
            continue;
        }
        int c = 0;
        while (c < CHANNELS && block_chunk[c] != t) c++;
        if (c < CHANNELS && aw->blocks[c] && !blocks_done[c]) {
            write_blocks(aw, c);
            blocks_done[c] = true;
            continue;
        }
        take_unknown(aw, &walk, t);
    }
    flush_unknown(aw, &walk);
    fy_alamo_end_chunk(w, h, true);
}

ferry_result ferry_ala_write_format(const ferry_ala_animation *anim, ferry_ala_format format, ferry_buffer *out,
                                    ferry_error *err)
{
    ferry_error local;
    if (!err) err = &local;
    fy_error_clear(err);
    ala_writer aw;
    memset(&aw, 0, sizeof aw);
    aw.w = (fy_alamo_writer){out, err, false, anim->string_tails, anim->string_tail_count};
    aw.anim = anim;
    aw.format = (uint8_t)format;
    if ((format != FERRY_ALA_FORMAT_1 && format != FERRY_ALA_FORMAT_2) ||
        (anim->format != FERRY_ALA_FORMAT_1 && anim->format != FERRY_ALA_FORMAT_2)) {
        fy_alamo_wfail(&aw.w, "animation format %u -> %u: each must be 1 or 2", (unsigned)anim->format,
                       (unsigned)format);
        return err->code;
    }
    if (anim->bone_count > UINT32_MAX || (anim->bone_count && !anim->bones)) {
        fy_alamo_wfail(&aw.w, "%zu bones announced but %s", anim->bone_count,
                       anim->bones ? "numBones holds at most 2^32 - 1" : "no bone array given");
        return err->code;
    }
    aw.converting = anim->format != format;
    if (make_plans(&aw)) {
        fy_layout_walk walk = {&anim->file_layout, 0};
        bool done = false;
        for (size_t i = 0; i <= anim->file_layout.order_count && !aw.w.failed; i++) {
            bool end = i == anim->file_layout.order_count;
            uint32_t t = end ? 0 : anim->file_layout.order[i];
            if ((end || t == FERRY_ALA_ANIMATION) && !done) {
                write_animation(&aw);
                done = true;
            } else if (!end) {
                fy_layout_take_unknown(&aw.w, &walk, t);
            }
        }
        fy_layout_flush_unknown(&aw.w, &walk);
    }
    free(aw.plans);
    if (out->failed && !aw.w.failed)
        fy_error_set(err, FERRY_ERR_NOMEM, FERRY_NO_OFFSET, NULL, "out of memory writing the animation");
    return err->code;
}

ferry_result ferry_ala_write(const ferry_ala_animation *anim, ferry_buffer *out, ferry_error *err)
{
    return ferry_ala_write_format(anim, (ferry_ala_format)anim->format, out, err);
}

ferry_result ferry_ala_convert(const ferry_ala_animation *anim, ferry_ala_format format,
                               const ferry_read_options *options, ferry_ala_animation **out, ferry_error *err)
{
    *out = NULL;
    ferry_buffer bytes = {0};
    ferry_result rc = ferry_ala_write_format(anim, format, &bytes, err);
    if (rc == FERRY_OK) rc = ferry_ala_read(bytes.data, bytes.size, options, out, err);
    ferry_buffer_free(&bytes);
    return rc;
}
