/* Sampling an animation: decoding the stored integers of a bone at a frame,
 * and interpolating between frames. Reads only inside the arrays the
 * animation holds, whatever its counts, strides and indices claim; what is
 * not there gives the bone's default (see channel_at). */
#include "ala_tables.h"

#include <math.h>

enum { CH_T, CH_S, CH_R };

/* Below this |q|^2 an interpolated quaternion has no direction: identity. */
#define QUAT_DEGENERATE 1e-12
/* Above this cosine the arc is too short for slerp's division by its sine;
 * normalized lerp stays within 5e-7 radians of it there. */
#define SLERP_LINEAR_ABOVE 0.9995

static void rest_pose(ferry_ala_pose *out)
{
    memset(out, 0, sizeof *out);
    out->rotation[3] = 1;
    out->scale[0] = out->scale[1] = out->scale[2] = 1;
}

/* Stored values of a bone's channel at frame f, or NULL when the bone has
 * no data there and rests at its default. f is already within the frames. */
static const uint16_t *channel_at(const ferry_ala_animation *a, const ferry_ala_bone *bone, int c, uint32_t f)
{
    size_t width = c == CH_R ? 4 : 3;
    if (a->format == FERRY_ALA_FORMAT_1) {
        const uint16_t *v = c == CH_T   ? bone->translations
                            : c == CH_S ? bone->scales
                                        : (const uint16_t *)bone->rotations;
        size_t n = c == CH_T ? bone->translation_count : c == CH_S ? bone->scale_count : bone->rotation_count;
        if (!v || !n) return NULL;
        /* One rotation holds for the whole animation (the spec's short form). */
        size_t entry = f < n ? f : n - 1;
        return v + entry * width;
    }
    if (a->format != FERRY_ALA_FORMAT_2) return NULL;
    int16_t index = c == CH_T ? bone->translation_index : c == CH_S ? bone->scale_index : bone->rotation_index;
    uint32_t stride = c == CH_T ? a->translation_stride : c == CH_S ? a->scale_stride : a->rotation_stride;
    const uint16_t *v = c == CH_T   ? a->frame_translations
                        : c == CH_S ? a->frame_scales
                                    : (const uint16_t *)a->frame_rotations;
    size_t n = c == CH_T ? a->frame_translation_count : c == CH_S ? a->frame_scale_count : a->frame_rotation_count;
    if (index < 0 || !v || (uint32_t)index + width > stride) return NULL;
    /* Blocks past the frame count are not frames; missing ones repeat the last there is. */
    size_t frames = n / stride;
    if (frames > a->frame_count) frames = a->frame_count;
    if (!frames) return NULL;
    size_t entry = f < frames ? f : frames - 1;
    return v + entry * stride + (size_t)index;
}

static void decode_vector(const uint16_t *v, const float offset[3], const float scale[3], float out[3])
{
    for (int k = 0; k < 3; k++) out[k] = offset[k] + (float)v[k] * scale[k];
}

/* Normalizing cancels the stored scale (1/32767), so the integers are
 * normalized directly: one square root, one division. */
static void decode_rotation(const int16_t *q, float out[4])
{
    int64_t n2 = 0;
    for (int k = 0; k < 4; k++) n2 += (int32_t)q[k] * q[k];
    if (n2 == 0) {
        out[0] = out[1] = out[2] = 0;
        out[3] = 1;
        return;
    }
    /* Float is exact enough (n2 <= 2^32 rounds by 6e-8) and twice as fast. */
    float inv = 1 / sqrtf((float)n2);
    for (int k = 0; k < 4; k++) out[k] = (float)q[k] * inv;
}

static void rotation_from(const ferry_ala_animation *a, const ferry_ala_bone *bone, const uint16_t *v, float out[4])
{
    if (v) {
        decode_rotation((const int16_t *)v, out);
    } else if (a->format == FERRY_ALA_FORMAT_2) {
        decode_rotation(bone->default_rotation, out);
    } else {
        out[0] = out[1] = out[2] = 0;
        out[3] = 1;
    }
}

static void vector_from(const ferry_ala_bone *bone, int c, const uint16_t *v, float out[3])
{
    const float *offset = c == CH_T ? bone->translation_offset : bone->scale_offset;
    const float *scale = c == CH_T ? bone->translation_scale : bone->scale_scale;
    if (v)
        decode_vector(v, offset, scale, out);
    else
        memcpy(out, offset, 3 * sizeof *out);
}

/* Unit quaternions p, q; along the shorter of the two arcs (q and -q are
 * the same rotation). */
static void slerp(const float p[4], const float q[4], double t, float out[4])
{
    double dot = 0;
    for (int k = 0; k < 4; k++) dot += (double)p[k] * q[k];
    double sign = dot < 0 ? -1 : 1;
    dot *= sign;
    double wp = 1 - t, wq = t;
    if (dot < SLERP_LINEAR_ABOVE) {
        double theta = acos(dot), s = sin(theta);
        wp = sin((1 - t) * theta) / s;
        wq = sin(t * theta) / s;
    }
    double r[4], n2 = 0;
    for (int k = 0; k < 4; k++) {
        r[k] = wp * p[k] + sign * wq * q[k];
        n2 += r[k] * r[k];
    }
    double inv = n2 > QUAT_DEGENERATE ? 1 / sqrt(n2) : 0;
    for (int k = 0; k < 4; k++) out[k] = (float)(r[k] * inv);
    if (!inv) out[3] = 1;
}

/* Same stored values on both sides (a still channel, a bone without the
 * track, or a repeated key): nothing to interpolate. */
static bool same_values(const uint16_t *x, const uint16_t *y, size_t width)
{
    return x == y || (x && y && memcmp(x, y, width * sizeof *x) == 0);
}

/* Pose between frame f and f + 1 at fraction t (0 <= t < 1; f + 1 exists when t > 0). */
static void sample_bone(const ferry_ala_animation *a, const ferry_ala_bone *bone, uint32_t f, double t,
                        ferry_ala_pose *out)
{
    if (t > 0 && fy_ala_bit(bone->steps, bone->step_size, f)) t = 0;
    for (int c = CH_T; c <= CH_S; c++) {
        float *dst = c == CH_T ? out->translation : out->scale;
        const uint16_t *v0 = channel_at(a, bone, c, f);
        const uint16_t *v1 = t > 0 ? channel_at(a, bone, c, f + 1) : v0;
        vector_from(bone, c, v0, dst);
        if (same_values(v0, v1, 3)) continue;
        float next[3];
        vector_from(bone, c, v1, next);
        for (int k = 0; k < 3; k++) dst[k] += (float)((next[k] - dst[k]) * t);
    }
    const uint16_t *r0 = channel_at(a, bone, CH_R, f);
    const uint16_t *r1 = t > 0 ? channel_at(a, bone, CH_R, f + 1) : r0;
    if (same_values(r0, r1, 4)) {
        rotation_from(a, bone, r0, out->rotation);
    } else {
        float p[4], q[4];
        rotation_from(a, bone, r0, p);
        rotation_from(a, bone, r1, q);
        slerp(p, q, t, out->rotation);
    }
    out->has_visibility = bone->visibility && bone->visibility_size > 0;
    if (out->has_visibility) {
        size_t last_bit = bone->visibility_size * 8 - 1;
        out->visible = fy_ala_bit(bone->visibility, bone->visibility_size, f < last_bit ? f : last_bit);
    } else {
        out->visible = false;
    }
}

/* Splits a frame time into a frame and a fraction, after wrapping. */
static void locate(const ferry_ala_animation *a, double frame, ferry_ala_wrap wrap, uint32_t *f, double *t)
{
    double last = a->frame_count ? (double)(a->frame_count - 1) : 0;
    if (wrap == FERRY_ALA_LOOP && last > 0 && isfinite(frame)) {
        frame = fmod(frame, last);
        if (frame < 0) frame += last;
    }
    if (!(frame > 0)) frame = 0; /* also NaN */
    if (frame >= last) {
        *f = a->frame_count ? a->frame_count - 1 : 0;
        *t = 0;
        return;
    }
    double whole = floor(frame);
    *f = (uint32_t)whole;
    *t = frame - whole;
}

void ferry_ala_sample_frame(const ferry_ala_animation *anim, size_t bone, uint32_t frame, ferry_ala_pose *out)
{
    rest_pose(out);
    if (!anim || bone >= anim->bone_count || !anim->bones) return;
    uint32_t last = anim->frame_count ? anim->frame_count - 1 : 0;
    sample_bone(anim, &anim->bones[bone], frame < last ? frame : last, 0, out);
}

void ferry_ala_sample(const ferry_ala_animation *anim, size_t bone, double frame, ferry_ala_wrap wrap,
                      ferry_ala_pose *out)
{
    rest_pose(out);
    if (!anim || bone >= anim->bone_count || !anim->bones) return;
    uint32_t f;
    double t;
    locate(anim, frame, wrap, &f, &t);
    sample_bone(anim, &anim->bones[bone], f, t, out);
}

void ferry_ala_sample_all(const ferry_ala_animation *anim, double frame, ferry_ala_wrap wrap, ferry_ala_pose *out)
{
    if (!anim || !anim->bones) return;
    uint32_t f;
    double t;
    locate(anim, frame, wrap, &f, &t);
    for (size_t b = 0; b < anim->bone_count; b++) sample_bone(anim, &anim->bones[b], f, t, &out[b]);
}

double ferry_ala_frame_at(const ferry_ala_animation *anim, double seconds)
{
    if (!anim || !(anim->fps > 0) || !isfinite(anim->fps)) return 0;
    return seconds * anim->fps;
}

double ferry_ala_duration(const ferry_ala_animation *anim)
{
    if (!anim || anim->frame_count < 2 || !(anim->fps > 0) || !isfinite(anim->fps)) return 0;
    return (double)(anim->frame_count - 1) / anim->fps;
}

void ferry_ala_sample_time(const ferry_ala_animation *anim, size_t bone, double seconds, ferry_ala_wrap wrap,
                           ferry_ala_pose *out)
{
    ferry_ala_sample(anim, bone, ferry_ala_frame_at(anim, seconds), wrap, out);
}
