/* ALA validation: the rules the reader does not enforce (it keeps what the
 * bytes say, so that writing back is exact), and the check of an animation
 * against the model it is meant for. Works on any animation, read or built
 * by hand, and never trusts a count without its array. */
#include "ala_tables.h"
#include "../../core/diag_cap.h"
#include "../../core/platform.h"

#include <math.h>
#include <stdio.h>

/* A damaged file repeats one problem per bone: the first few locate it. */
#define CAP_PER_RULE 20
/* Real quaternions stay within 4.2e-5 of unit length (6507 checked): this
 * is 25 times that, far above quantization and far below a wrong value. */
#define UNIT_TOLERANCE 1e-3

typedef struct vctx {
    const ferry_ala_animation *anim;
    ferry_diagnostics *diags;
    size_t errors;
    fy_diag_scope tally; /* the whole animation: one scope */
} vctx;

/* report(v, severity, offset, path, rule, fmt, ...) */
#define report(v, ...) fy_diag_report(&(v)->tally, (v)->diags, &(v)->errors, __VA_ARGS__)

static void close_rules(vctx *v) { v->errors += fy_diag_scope_close(&v->tally, v->diags, NULL, false, 0, NULL); }

static uint64_t either(uint64_t exact, uint64_t fallback) { return exact != FERRY_NO_OFFSET ? exact : fallback; }

static void label(char *out, size_t size, size_t index, const char *name)
{
    if (name)
        snprintf(out, size, "bone %zu '%.48s'", index, name);
    else
        snprintf(out, size, "bone %zu", index);
}

static const ferry_blob *tail_of(const ferry_ala_animation *a, const char *text)
{
    for (size_t i = 0; i < a->string_tail_count; i++)
        if (a->string_tails[i].text == text) return &a->string_tails[i].tail;
    return NULL;
}

/* ---- the animation alone ---- */

static void check_header(vctx *v)
{
    const ferry_ala_animation *a = v->anim;
    uint64_t at = either(a->header_offset, a->offset);
    const char *path = "0x1000/0x1001";
    if (a->format != FERRY_ALA_FORMAT_1 && a->format != FERRY_ALA_FORMAT_2)
        report(v, FERRY_SEVERITY_ERROR, at, path, "format", "format %u is neither 1 nor 2", (unsigned)a->format);
    if (a->frame_count == 0)
        report(v, FERRY_SEVERITY_ERROR, at, path, "frame-count", "the animation has no frames (numFrames is 0)");
    if (!(a->fps > 0) || !isfinite(a->fps))
        report(v, FERRY_SEVERITY_ERROR, at, path, "fps", "frames per second is %g; it must be a positive number",
               (double)a->fps);
    if (a->bone_count_mismatch && a->stated_bone_count != a->bone_count)
        report(v, FERRY_SEVERITY_ERROR, at, path, "bone-count",
               "the header says %u bones but the animation holds %zu bone chunks (0x1002)",
               (unsigned)a->stated_bone_count, a->bone_count);
}

static void check_bits(vctx *v, const char *who, const uint8_t *bits, size_t size, bool has, uint64_t at,
                       const char *path, const char *what)
{
    if (!has && !size) return;
    if (size && !bits) {
        report(v, FERRY_SEVERITY_ERROR, at, path, "data-missing", "%s: %zu bytes of %s announced but no data given",
               who, size, what);
        return;
    }
    uint64_t need = ((uint64_t)v->anim->frame_count + 7) / 8;
    if (size < need)
        report(v, FERRY_SEVERITY_ERROR, at, path, "bits-length", "%s: %s holds %zu bytes; %u frames need %llu", who,
               what, size, (unsigned)v->anim->frame_count, (unsigned long long)need);
    else if (size > need)
        report(v, FERRY_SEVERITY_WARNING, at, path, "bits-length",
               "%s: %s holds %zu bytes; %u frames need only %llu", who, what, size,
               (unsigned)v->anim->frame_count, (unsigned long long)need);
}

/* Reports the first quaternion of a run that is far from unit length. */
static void check_units(vctx *v, const char *who, const int16_t *q, size_t count, size_t step, uint64_t at,
                        const char *path, const char *what)
{
    size_t bad = 0, first = 0;
    double first_len = 0;
    for (size_t i = 0; i < count; i++) {
        const int16_t *e = q + i * step;
        double n2 = 0;
        for (int k = 0; k < 4; k++) n2 += (e[k] / 32767.0) * (e[k] / 32767.0);
        double len = sqrt(n2);
        if (fabs(len - 1) <= UNIT_TOLERANCE) continue;
        if (!bad++) {
            first = i;
            first_len = len;
        }
    }
    if (bad)
        report(v, FERRY_SEVERITY_WARNING, at, path, "rotation-unit",
               "%s: %zu of %zu %s quaternions are not unit length (entry %zu: length %.4f%s)", who, bad, count, what,
               first, first_len, first_len < 1e-6 ? ", no rotation at all; sampled as the identity" : "");
}

static void check_vectors(vctx *v, const char *who, const ferry_ala_bone *b, uint64_t at, const char *path)
{
    const float *sets[4] = {b->translation_offset, b->translation_scale, b->scale_offset, b->scale_scale};
    static const char *const names[4] = {"translation offset", "translation scale", "scale offset", "scale scale"};
    for (int s = 0; s < 4; s++)
        for (int k = 0; k < 3; k++)
            if (!isfinite(sets[s][k])) {
                report(v, FERRY_SEVERITY_ERROR, at, path, "value-finite", "%s: %s is (%g, %g, %g)", who, names[s],
                       (double)sets[s][0], (double)sets[s][1], (double)sets[s][2]);
                break;
            }
}

static void check_track(vctx *v, const char *who, const void *values, size_t count, bool has, bool rotation,
                        uint64_t at, const char *path, const char *what)
{
    if (!has && !count) return;
    if (count && !values) {
        report(v, FERRY_SEVERITY_ERROR, at, path, "data-missing", "%s: %zu %s entries announced but no data given",
               who, count, what);
        return;
    }
    uint32_t frames = v->anim->frame_count;
    if (count == frames || (rotation && count == 1)) return;
    report(v, FERRY_SEVERITY_ERROR, at, path, "track-length", "%s: the %s track holds %zu entries; %u frames need %u%s",
           who, what, count, (unsigned)frames, (unsigned)frames, rotation ? " (or 1 for a still bone)" : "");
}

static void check_format1_bone(vctx *v, const char *who, const ferry_ala_bone *b)
{
    uint64_t at = b->offset;
    check_track(v, who, b->translations, b->translation_count, b->has_translations, false,
                either(b->source.translations, at), "0x1000/0x1002/0x1004", "translation");
    check_track(v, who, b->scales, b->scale_count, b->has_scales, false, either(b->source.scales, at),
                "0x1000/0x1002/0x1005", "scale");
    check_track(v, who, b->rotations, b->rotation_count, b->has_rotations, true, either(b->source.rotations, at),
                "0x1000/0x1002/0x1006", "rotation");
    if (!b->has_rotations && !b->rotation_count)
        report(v, FERRY_SEVERITY_WARNING, at, "0x1000/0x1002", "rotation-missing",
               "%s: no rotation chunk (0x1006), which every bone should have; sampled as the identity", who);
    if (b->rotations)
        check_units(v, who, b->rotations, b->rotation_count, 4, either(b->source.rotations, at),
                    "0x1000/0x1002/0x1006", "stored");
}

static void check_index(vctx *v, const char *who, const ferry_ala_bone *b, int16_t index, uint32_t stride,
                        uint32_t width, const char *what)
{
    if (index == FERRY_ALA_NOT_ANIMATED) return;
    uint64_t at = either(b->source.header, b->offset);
    if (index < 0)
        report(v, FERRY_SEVERITY_ERROR, at, "0x1000/0x1002/0x1003", "track-index",
               "%s: %s index %d is neither -1 (no track) nor a place in the frame block", who, what, index);
    else if ((uint32_t)index + width > stride)
        report(v, FERRY_SEVERITY_ERROR, at, "0x1000/0x1002/0x1003", "track-index",
               "%s: %s index %d needs %u values but the frame block holds %u", who, what, index, (unsigned)width,
               (unsigned)stride);
}

static void check_format2_bone(vctx *v, const char *who, const ferry_ala_bone *b)
{
    const ferry_ala_animation *a = v->anim;
    check_index(v, who, b, b->translation_index, a->translation_stride, 3, "translation");
    check_index(v, who, b, b->scale_index, a->scale_stride, 3, "scale");
    check_index(v, who, b, b->rotation_index, a->rotation_stride, 4, "rotation");
    uint64_t at = either(b->source.header, b->offset);
    check_units(v, who, b->default_rotation, 1, 4, at, "0x1000/0x1002/0x1003", "default");
    int16_t ri = b->rotation_index;
    uint32_t stride = a->rotation_stride;
    if (ri >= 0 && (uint32_t)ri + 4 <= stride && a->frame_rotations) {
        size_t frames = a->frame_rotation_count / stride;
        if (frames > a->frame_count) frames = a->frame_count;
        check_units(v, who, a->frame_rotations + ri, frames, stride,
                    either(a->frame_rotations_offset, a->offset), "0x1000/0x1009", "animated");
    }
    if (b->has_translations || b->has_scales || b->has_rotations || b->translation_count || b->scale_count ||
        b->rotation_count)
        report(v, FERRY_SEVERITY_WARNING, b->offset, "0x1000/0x1002", "format-mixed",
               "%s: format-1 track chunks (0x1004..0x1006) in a format-2 animation are kept but not used", who);
}

static void check_blocks(vctx *v, const void *values, size_t count, bool has, uint32_t stride, uint64_t at,
                         const char *path, const char *what)
{
    const ferry_ala_animation *a = v->anim;
    if (count && !values) {
        report(v, FERRY_SEVERITY_ERROR, at, path, "data-missing", "%zu %s values announced but no data given", count,
               what);
        return;
    }
    uint64_t need = (uint64_t)a->frame_count * stride;
    if (!has && !count && !need) return;
    if (count != need)
        report(v, FERRY_SEVERITY_ERROR, at, path, "frame-data-size",
               "%s frame blocks hold %zu values; %u frames of %u values need %llu", what, count,
               (unsigned)a->frame_count, (unsigned)stride, (unsigned long long)need);
}

static void check_bone(vctx *v, size_t i)
{
    const ferry_ala_animation *a = v->anim;
    const ferry_ala_bone *b = &a->bones[i];
    char who[96];
    label(who, sizeof who, i, b->name);
    uint64_t at = either(b->source.header, b->offset);
    const char *hpath = "0x1000/0x1002/0x1003";
    if (!b->name) {
        report(v, FERRY_SEVERITY_ERROR, at, hpath, "name-missing", "%s: the name is missing", who);
    } else {
        const ferry_blob *tail = tail_of(a, b->name);
        size_t n = strlen(b->name) + 1 + (tail ? tail->size : 0);
        if (!b->name[0]) report(v, FERRY_SEVERITY_WARNING, at, hpath, "name-empty", "%s: the name is empty", who);
        if (n > 255)
            report(v, FERRY_SEVERITY_ERROR, at, hpath, "name-length",
                   "%s: the name takes %zu bytes; a mini-chunk holds at most 255", who, n);
    }
    check_vectors(v, who, b, at, hpath);
    for (size_t j = 0; j < i; j++)
        if (a->bones[j].index == b->index) {
            report(v, FERRY_SEVERITY_WARNING, at, hpath, "bone-duplicate",
                   "%s: drives model bone %u, as bone %zu does already", who, (unsigned)b->index, j);
            break;
        }
    if (a->format == FERRY_ALA_FORMAT_1) check_format1_bone(v, who, b);
    if (a->format == FERRY_ALA_FORMAT_2) check_format2_bone(v, who, b);
    check_bits(v, who, b->visibility, b->visibility_size, b->has_visibility, either(b->source.visibility, b->offset),
               "0x1000/0x1002/0x1007", "the visibility chunk");
    check_bits(v, who, b->steps, b->step_size, b->has_steps, either(b->source.steps, b->offset),
               "0x1000/0x1002/0x1008", "the step chunk");
}

size_t ferry_ala_validate(const ferry_ala_animation *anim, const ferry_ala_validate_options *options,
                          ferry_diagnostics *diags)
{
    (void)options; /* none yet */
    if (!anim) return 0;
    vctx v = {.anim = anim, .diags = diags};
    fy_diag_scope_open(&v.tally, CAP_PER_RULE);
    check_header(&v);
    const ferry_ala_animation *a = anim;
    if (a->bone_count && !a->bones) {
        report(&v, FERRY_SEVERITY_ERROR, a->offset, "0x1000", "data-missing", "%zu bones announced but no data given",
               a->bone_count);
    } else {
        for (size_t i = 0; i < a->bone_count; i++) check_bone(&v, i);
    }
    if (a->format == FERRY_ALA_FORMAT_2) {
        check_blocks(&v, a->frame_translations, a->frame_translation_count, a->has_frame_translations,
                     a->translation_stride, either(a->frame_translations_offset, a->offset), "0x1000/0x100a",
                     "translation");
        check_blocks(&v, a->frame_scales, a->frame_scale_count, a->has_frame_scales, a->scale_stride,
                     either(a->frame_scales_offset, a->offset), "0x1000/0x100b", "scale");
        check_blocks(&v, a->frame_rotations, a->frame_rotation_count, a->has_frame_rotations, a->rotation_stride,
                     either(a->frame_rotations_offset, a->offset), "0x1000/0x1009", "rotation");
    } else if (a->format == FERRY_ALA_FORMAT_1) {
        bool blocks = a->has_frame_rotations || a->has_frame_translations || a->has_frame_scales ||
                      a->frame_rotation_count || a->frame_translation_count || a->frame_scale_count;
        bool indices = false;
        for (size_t i = 0; a->bones && i < a->bone_count; i++)
            indices |= (a->bones[i].present & FERRY_ALA_BONE_FORMAT2_MINIS) != 0;
        if (blocks || indices)
            report(&v, FERRY_SEVERITY_WARNING, a->offset, "0x1000", "format-mixed",
                   "format-2 %s in a format-1 animation are kept but not used",
                   blocks ? "frame blocks (0x1009..0x100b)" : "bone indices (minis 14..17)");
    }
    close_rules(&v);
    return v.errors;
}

/* ---- against a model ---- */

/* ASCII only, as names are; the C locale's tolower would do the same, but
 * the library stays out of locales. */
static bool same_name(const char *x, const char *y)
{
    if (!x || !y) return false;
    for (;; x++, y++) {
        unsigned char p = (unsigned char)*x, q = (unsigned char)*y;
        if (p >= 'A' && p <= 'Z') p = (unsigned char)(p + 32);
        if (q >= 'A' && q <= 'Z') q = (unsigned char)(q + 32);
        if (p != q) return false;
        if (!p) return true;
    }
}

/* The bone of the model named like the track, or mcount when there is none. */
static size_t find_bone(const ferry_alo_bone *mb, size_t mcount, const char *name)
{
    size_t found = 0;
    while (found < mcount && !same_name(mb[found].name, name)) found++;
    return found;
}

/* Every finding is a warning: the engine loads such animations (3 of the
 * 1,245 shipped with one released mod), and which bone such a track moves
 * depends on a binding the public sources disagree on (the specification and
 * its author's viewer: by index; the Blender tools: by name). See
 * docs/formats/ala-animation.md, "Checking against the model". */
size_t ferry_ala_check_model(const ferry_ala_animation *anim, const ferry_alo_model *model,
                             ferry_diagnostics *diags)
{
    if (!anim || !model) return 0;
    vctx v = {.anim = anim, .diags = diags};
    fy_diag_scope_open(&v.tally, CAP_PER_RULE);
    const ferry_alo_bone *mb = model->skeleton.bones;
    size_t mcount = mb ? model->skeleton.bone_count : 0;
    for (size_t i = 0; anim->bones && i < anim->bone_count; i++) {
        const ferry_ala_bone *b = &anim->bones[i];
        if (!b->name) continue; /* ferry_ala_validate reports it */
        uint64_t at = either(b->source.header, b->offset);
        const char *path = "0x1000/0x1002/0x1003";
        if (b->index < mcount && same_name(mb[b->index].name, b->name)) continue;
        size_t found = find_bone(mb, mcount, b->name);
        char where[96] = "";
        if (found < mcount) snprintf(where, sizeof where, "; the model's '%.40s' is bone %zu", b->name, found);
        if (b->index >= mcount)
            report(&v, FERRY_SEVERITY_WARNING, at, path, "anim-bone-range",
                   "track %zu '%.48s' is for bone %u, but the model has %zu bones%s", i, b->name, (unsigned)b->index,
                   mcount, where);
        else if (found < mcount)
            report(&v, FERRY_SEVERITY_WARNING, at, path, "anim-bone-mismatch",
                   "track %zu '%.48s' is for bone %u, which the model names '%.48s'%s", i, b->name,
                   (unsigned)b->index, mb[b->index].name ? mb[b->index].name : "", where);
        else
            report(&v, FERRY_SEVERITY_WARNING, at, path, "anim-bone-missing",
                   "track %zu: the model has no bone named '%.48s' (the track's index %u is bone '%.48s')", i,
                   b->name, (unsigned)b->index, mb[b->index].name ? mb[b->index].name : "");
    }
    close_rules(&v);
    return v.errors;
}

/* Appends `text` to out[*len..size), keeping it NUL-terminated; once full,
 * the end says "...". */
static void append(char *out, size_t size, size_t *len, const char *text)
{
    if (!out || !size || *len + 1 >= size) return;
    size_t room = size - *len - 1, n = strlen(text);
    if (n > room) {
        memcpy(out + *len, text, room);
        *len += room;
        out[*len] = '\0';
        if (size >= 4) memcpy(out + size - 4, "...", 4);
        return;
    }
    memcpy(out + *len, text, n + 1);
    *len += n;
}

size_t ferry_ala_model_misfits(const ferry_ala_animation *anim, const ferry_alo_model *model, char *summary,
                               size_t summary_size)
{
    if (summary && summary_size) summary[0] = '\0';
    if (!anim || !model || !anim->bones) return 0;
    const ferry_alo_bone *mb = model->skeleton.bones;
    size_t mcount = mb ? model->skeleton.bone_count : 0;
    size_t misfits = 0, len = 0;
    /* Two passes: the names the model lacks first (what the user must fix),
     * then the tracks whose index holds another bone. */
    for (int pass = 0; pass < 2; pass++) {
        bool first = true;
        for (size_t i = 0; i < anim->bone_count; i++) {
            const ferry_ala_bone *b = &anim->bones[i];
            const char *name = b->name ? b->name : "";
            if (b->index < mcount && same_name(mb[b->index].name, name)) continue;
            bool missing = find_bone(mb, mcount, name) == mcount;
            if (missing != (pass == 0)) continue;
            misfits++;
            if (missing) {
                bool repeated = false; /* name each missing bone once */
                for (size_t j = 0; j < i && !repeated; j++) {
                    const ferry_ala_bone *p = &anim->bones[j];
                    repeated = same_name(p->name ? p->name : "", name) && find_bone(mb, mcount, name) == mcount;
                }
                if (repeated) continue;
            }
            char item[160];
            if (missing)
                snprintf(item, sizeof item, "%s'%.64s'", first ? (len ? "; bones not in the model: " : "bones not in the model: ") : ", ", name);
            else if (b->index >= mcount)
                snprintf(item, sizeof item, "%s'%.64s' (for bone %u of %zu)",
                         first ? (len ? "; tracks on other bones: " : "tracks on other bones: ") : ", ", name,
                         (unsigned)b->index, mcount);
            else
                snprintf(item, sizeof item, "%s'%.64s' (for bone %u, '%.64s')",
                         first ? (len ? "; tracks on other bones: " : "tracks on other bones: ") : ", ", name,
                         (unsigned)b->index, mb[b->index].name ? mb[b->index].name : "");
            first = false;
            append(summary, summary_size, &len, item);
        }
    }
    return misfits;
}

/* Length of a file name's stem: the name after the last folder separator
 * ('/', and on Windows '\\' too: fy_path_name_offset), up to its last '.'. */
static const char *base_of(const char *path, size_t *stem_len)
{
    const char *base = path + fy_path_name_offset(path);
    const char *dot = strrchr(base, '.');
    *stem_len = dot ? (size_t)(dot - base) : strlen(base);
    return base;
}

static bool same_prefix(const char *x, const char *y, size_t n)
{
    for (size_t k = 0; k < n; k++) {
        unsigned char p = (unsigned char)x[k], q = (unsigned char)y[k];
        if (p >= 'A' && p <= 'Z') p = (unsigned char)(p + 32);
        if (q >= 'A' && q <= 'Z') q = (unsigned char)(q + 32);
        if (p != q || !p) return false;
    }
    return true;
}

size_t ferry_ala_model_for(const char *animation_file, const char *const *model_files, size_t count)
{
    if (!animation_file || !model_files) return count;
    size_t anim_len;
    const char *anim = base_of(animation_file, &anim_len);
    size_t best = count, best_len = 0;
    for (size_t i = 0; i < count; i++) {
        if (!model_files[i]) continue;
        size_t len;
        const char *stem = base_of(model_files[i], &len);
        if (!len || len >= anim_len || anim[len] != '_' || !same_prefix(anim, stem, len)) continue;
        if (len > best_len) {
            best = i;
            best_len = len;
        }
    }
    return best;
}
