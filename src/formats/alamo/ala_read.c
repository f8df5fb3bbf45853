/* ALA animation reader: chunk tree -> typed animation. Structure problems
 * are located errors; whether the tracks agree with the frame count, and
 * indices with the frame blocks, is left to ferry_ala_validate (the
 * sampler never reads outside what is there). */
#include "ala_tables.h"

#include <stdlib.h>

static bool missing(fy_alamo_reader *r, const ferry_chunk *c, uint32_t type, const char *what)
{
    fy_alamo_fail(r, FERRY_ERR_MALFORMED, c, c->offset, "chunk 0x%x lacks its %s chunk 0x%x", (unsigned)c->type,
                  what, (unsigned)type);
    return false;
}

/* Copies a chunk of little-endian 16-bit values, `width` to an entry; the
 * body must be whole entries. Returns the values, *count the entries. */
static void *read_values(fy_alamo_reader *r, const ferry_chunk *c, size_t width, size_t *count, const char *what)
{
    if (!fy_alamo_expect_kind(r, c, false)) return NULL;
    size_t entry = 2 * width;
    if (c->size % entry) {
        fy_alamo_fail(r, FERRY_ERR_MALFORMED, c, c->offset,
                      "%s chunk 0x%x holds %u bytes, not a whole number of %zu-byte entries", what,
                      (unsigned)c->type, (unsigned)c->size, entry);
        return NULL;
    }
    size_t n = c->size / 2;
    uint16_t *values = fy_alamo_alloc_fill(r, c, n, sizeof *values);
    if (!values) return NULL;
    if (fy_host_is_le()) {
        if (n) memcpy(values, c->data, c->size);
    } else {
        for (size_t i = 0; i < n; i++) values[i] = fy_load_u16le(c->data + 2 * i);
    }
    *count = n / width;
    return values;
}

static uint8_t *read_bits(fy_alamo_reader *r, const ferry_chunk *c, size_t *size)
{
    if (!fy_alamo_expect_kind(r, c, false)) return NULL;
    *size = c->size;
    return fy_alamo_copy(r, c, c->data, c->size);
}

/* Offset of the first mini-chunk of `type` in a chunk already split into
 * mini-chunks (so the walk cannot overrun). */
static uint64_t mini_offset(const ferry_chunk *c, uint8_t type)
{
    size_t pos = 0;
    while (pos + 2 <= c->size) {
        if (c->data[pos] == type) return c->offset + 8 + pos;
        pos += 2 + (size_t)c->data[pos + 1];
    }
    return c->offset;
}

/* Mini 17 arrives among the unknown mini-chunks (see ala_tables.h): the
 * first one is decoded into default_rotation and leaves the unknown list;
 * its place stays in the order, which the writer honours. */
static bool take_default_rotation(fy_alamo_reader *r, const ferry_chunk *c, ferry_ala_bone *bone)
{
    ferry_mini_layout *l = &bone->header_layout;
    ferry_raw_mini *unknown = (ferry_raw_mini *)l->unknown;
    for (size_t i = 0; i < l->unknown_count; i++) {
        if (unknown[i].type != FY_ALA_DEFAULT_ROTATION) continue;
        if (unknown[i].body.size != FY_ALA_DEFAULT_ROTATION_SIZE) {
            fy_alamo_fail(r, FERRY_ERR_MALFORMED, c, mini_offset(c, FY_ALA_DEFAULT_ROTATION),
                          "mini-chunk 0x11 (default rotation) of a bone header should hold %d bytes, it holds %u",
                          FY_ALA_DEFAULT_ROTATION_SIZE, (unsigned)unknown[i].body.size);
            return false;
        }
        for (int k = 0; k < 4; k++) bone->default_rotation[k] = (int16_t)fy_load_u16le(unknown[i].body.data + 2 * k);
        bone->present |= FERRY_ALA_BONE_HAS_DEFAULT_ROTATION;
        memmove(&unknown[i], &unknown[i + 1], (l->unknown_count - i - 1) * sizeof *unknown);
        l->unknown_count--;
        return true;
    }
    return true;
}

static bool read_bone_header(fy_alamo_reader *r, const ferry_chunk *c, ferry_ala_bone *bone, uint8_t format)
{
    bone->source.header = c->offset;
    if (!fy_alamo_read_minis(r, c, fy_ala_bone_fields, FY_COUNT(fy_ala_bone_fields), bone, &bone->present,
                             &bone->header_layout, "a bone header") ||
        !take_default_rotation(r, c, bone))
        return false;
    static const struct {
        uint32_t bit;
        uint8_t type;
        const char *what;
    } format2[] = {
        {FERRY_ALA_BONE_HAS_TRANSLATION_INDEX, 14, "translation index"},
        {FERRY_ALA_BONE_HAS_SCALE_INDEX, 15, "scale index"},
        {FERRY_ALA_BONE_HAS_ROTATION_INDEX, 16, "rotation index"},
        {FERRY_ALA_BONE_HAS_DEFAULT_ROTATION, 17, "default rotation"},
    };
    for (size_t i = 0; i < FY_COUNT(format2); i++) {
        if (bone->present & format2[i].bit) continue;
        if (format == FERRY_ALA_FORMAT_2) {
            fy_alamo_fail(r, FERRY_ERR_MALFORMED, c, c->offset,
                          "a format-2 bone header lacks mini-chunk 0x%02x (%s)", format2[i].type, format2[i].what);
            return false;
        }
    }
    /* Values a format-1 bone does not store: "no track" and the identity,
     * so that the fields mean the same in both formats. */
    if (!(bone->present & FERRY_ALA_BONE_HAS_TRANSLATION_INDEX)) bone->translation_index = FERRY_ALA_NOT_ANIMATED;
    if (!(bone->present & FERRY_ALA_BONE_HAS_SCALE_INDEX)) bone->scale_index = FERRY_ALA_NOT_ANIMATED;
    if (!(bone->present & FERRY_ALA_BONE_HAS_ROTATION_INDEX)) bone->rotation_index = FERRY_ALA_NOT_ANIMATED;
    if (!(bone->present & FERRY_ALA_BONE_HAS_DEFAULT_ROTATION)) bone->default_rotation[3] = FY_ALA_ROTATION_ONE;
    return true;
}

static bool read_bone(fy_alamo_reader *r, const ferry_chunk *c, ferry_ala_bone *bone, uint8_t format)
{
    bone->offset = c->offset;
    bone->source = (ferry_ala_bone_source){FERRY_NO_OFFSET, FERRY_NO_OFFSET, FERRY_NO_OFFSET,
                                           FERRY_NO_OFFSET, FERRY_NO_OFFSET, FERRY_NO_OFFSET};
    if (!fy_alamo_expect_kind(r, c, true) || !fy_alamo_layout_begin(r, c, &bone->layout)) return false;
    bool have_header = false;
    for (size_t i = 0; i < c->child_count && !r->failed; i++) {
        const ferry_chunk *ch = &c->children[i];
        switch (ch->type) {
        case FERRY_ALA_BONE_HEADER:
            if (have_header) break;
            have_header = true;
            read_bone_header(r, ch, bone, format);
            continue;
        case FERRY_ALA_TRANSLATIONS:
            if (bone->has_translations) break;
            bone->has_translations = true;
            bone->source.translations = ch->offset;
            bone->translations = read_values(r, ch, 3, &bone->translation_count, "translation");
            continue;
        case FERRY_ALA_SCALES:
            if (bone->has_scales) break;
            bone->has_scales = true;
            bone->source.scales = ch->offset;
            bone->scales = read_values(r, ch, 3, &bone->scale_count, "scale");
            continue;
        case FERRY_ALA_ROTATIONS:
            if (bone->has_rotations) break;
            bone->has_rotations = true;
            bone->source.rotations = ch->offset;
            bone->rotations = read_values(r, ch, 4, &bone->rotation_count, "rotation");
            continue;
        case FERRY_ALA_VISIBILITY:
            if (bone->has_visibility) break;
            bone->has_visibility = true;
            bone->source.visibility = ch->offset;
            bone->visibility = read_bits(r, ch, &bone->visibility_size);
            continue;
        case FERRY_ALA_STEPS:
            if (bone->has_steps) break;
            bone->has_steps = true;
            bone->source.steps = ch->offset;
            bone->steps = read_bits(r, ch, &bone->step_size);
            continue;
        default: break;
        }
        fy_alamo_keep_unknown(r, ch, &bone->layout);
    }
    if (r->failed) return false;
    if (!have_header) return missing(r, c, FERRY_ALA_BONE_HEADER, "bone header");
    return true;
}

/* The header decides the format, which the bone headers depend on, so it
 * is read before the other children wherever it stands. */
static const ferry_chunk *read_header(fy_alamo_reader *r, const ferry_chunk *c, ferry_ala_animation *a,
                                      fy_ala_header *h)
{
    const ferry_chunk *hc = NULL;
    for (size_t i = 0; i < c->child_count && !hc; i++)
        if (c->children[i].type == FERRY_ALA_HEADER) hc = &c->children[i];
    if (!hc) {
        missing(r, c, FERRY_ALA_HEADER, "header");
        return NULL;
    }
    a->header_offset = hc->offset;
    uint32_t present = 0;
    if (!fy_alamo_read_minis(r, hc, fy_ala_header_fields, FY_COUNT(fy_ala_header_fields), h, &present,
                             &a->header_layout, "the animation header"))
        return NULL;
    a->format = FERRY_ALA_FORMAT_1;
    if (present & FY_ALA_HEADER_STRIDES) {
        for (size_t k = 3; k < FY_COUNT(fy_ala_header_fields); k++) {
            const fy_mini_field *f = &fy_ala_header_fields[k];
            if (present & (1u << f->type)) continue;
            fy_alamo_fail(r, FERRY_ERR_MALFORMED, hc, hc->offset,
                          "a format-2 header (it holds a frame size) lacks mini-chunk 0x%02x (%s)", f->type, f->what);
            return NULL;
        }
        a->format = FERRY_ALA_FORMAT_2;
    }
    a->frame_count = h->frames;
    a->fps = h->fps;
    a->rotation_stride = h->rotation_stride;
    a->translation_stride = h->translation_stride;
    a->scale_stride = h->scale_stride;
    return hc;
}

static bool read_animation(fy_alamo_reader *r, const ferry_chunk *c, ferry_ala_animation *a)
{
    if (!fy_alamo_expect_kind(r, c, true) || !fy_alamo_layout_begin(r, c, &a->layout)) return false;
    a->offset = c->offset;
    fy_ala_header h;
    memset(&h, 0, sizeof h);
    const ferry_chunk *header = read_header(r, c, a, &h);
    if (!header) return false;
    size_t bones = 0;
    for (size_t i = 0; i < c->child_count; i++) bones += c->children[i].type == FERRY_ALA_BONE;
    a->bones = fy_alamo_alloc_array(r, c, bones ? bones : 1, sizeof *a->bones);
    if (!a->bones) return false;
    for (size_t i = 0; i < c->child_count && !r->failed; i++) {
        const ferry_chunk *ch = &c->children[i];
        size_t values;
        switch (ch->type) {
        case FERRY_ALA_HEADER:
            if (ch == header) continue;
            break;
        case FERRY_ALA_BONE:
            read_bone(r, ch, &a->bones[a->bone_count++], a->format);
            continue;
        case FERRY_ALA_FRAME_ROTATIONS:
            if (a->has_frame_rotations) break;
            a->has_frame_rotations = true;
            a->frame_rotations_offset = ch->offset;
            a->frame_rotations = read_values(r, ch, 1, &values, "frame rotation");
            a->frame_rotation_count = values;
            continue;
        case FERRY_ALA_FRAME_TRANSLATIONS:
            if (a->has_frame_translations) break;
            a->has_frame_translations = true;
            a->frame_translations_offset = ch->offset;
            a->frame_translations = read_values(r, ch, 1, &values, "frame translation");
            a->frame_translation_count = values;
            continue;
        case FERRY_ALA_FRAME_SCALES:
            if (a->has_frame_scales) break;
            a->has_frame_scales = true;
            a->frame_scales_offset = ch->offset;
            a->frame_scales = read_values(r, ch, 1, &values, "frame scale");
            a->frame_scale_count = values;
            continue;
        default: break;
        }
        fy_alamo_keep_unknown(r, ch, &a->layout);
    }
    if (r->failed) return false;
    /* numBones does not size anything here (the 0x1002 chunks do): a
     * disagreement is kept for validation and for writing back. */
    a->stated_bone_count = h.bones;
    a->bone_count_mismatch = h.bones != a->bone_count;
    return true;
}

static bool read_file(fy_alamo_reader *r, const ferry_chunk_tree *tree, ferry_ala_animation *a)
{
    uint32_t *order = fy_alamo_alloc_array(r, NULL, tree->root_count, sizeof *order);
    if (!order) return false;
    for (size_t i = 0; i < tree->root_count; i++) order[i] = tree->roots[i].type;
    a->file_layout.order = order;
    a->file_layout.order_count = tree->root_count;
    bool have_animation = false;
    for (size_t i = 0; i < tree->root_count && !r->failed; i++) {
        const ferry_chunk *c = &tree->roots[i];
        if (c->type == FERRY_ALA_ANIMATION && !have_animation) {
            have_animation = true;
            read_animation(r, c, a);
            continue;
        }
        /* The root list has no parent chunk: size the unknown list by the roots. */
        if (!a->file_layout.unknown) {
            a->file_layout.unknown = fy_alamo_alloc_array(r, NULL, tree->root_count, sizeof(ferry_raw_chunk));
            if (!a->file_layout.unknown) return false;
        }
        fy_alamo_keep_unknown(r, c, &a->file_layout);
    }
    if (r->failed) return false;
    if (!have_animation) {
        fy_alamo_fail(r, FERRY_ERR_MALFORMED, NULL, 0,
                      "expected an animation chunk 0x1000 at the top level; none found");
        return false;
    }
    return fy_alamo_finish_tails(r, &a->string_tails, &a->string_tail_count);
}

static bool load_animation(fy_alamo_reader *r, const ferry_chunk_tree *tree, void *object)
{
    ferry_ala_animation *a = object;
    a->arena = r->arena;
    a->offset = a->header_offset = FERRY_NO_OFFSET;
    a->frame_rotations_offset = a->frame_translations_offset = a->frame_scales_offset = FERRY_NO_OFFSET;
    return read_file(r, tree, a);
}

ferry_result ferry_ala_read(const uint8_t *data, size_t size, const ferry_read_options *options,
                            ferry_ala_animation **out, ferry_error *err)
{
    ferry_error local;
    if (!err) err = &local;
    fy_error_clear(err);
    *out = NULL;
    ferry_alamo_kind kind = ferry_alamo_detect(data, size);
    if (kind != FERRY_ALAMO_ANIMATION && kind != FERRY_ALAMO_UNKNOWN) {
        fy_error_set(err, FERRY_ERR_UNSUPPORTED, 0, NULL, "this file is an %s, not an ALA animation (first chunk 0x%x)",
                     ferry_alamo_kind_name(kind), (unsigned)fy_load_u32le(data));
        return FERRY_ERR_UNSUPPORTED;
    }
    void *anim = NULL;
    ferry_result rc = fy_alamo_load(data, size, options, sizeof(ferry_ala_animation), size / 2, load_animation, &anim, err);
    *out = anim;
    return rc;
}

void ferry_ala_free(ferry_ala_animation *anim)
{
    if (anim) ferry_arena_destroy(anim->arena);
}
