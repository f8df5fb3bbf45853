/* ALA animations -> scene animations. An ALA pose is the bone's local
 * transform relative to its parent in Alamo space, the same space as the
 * bone's stored matrix, so it drives the bone node's TRS directly (only the
 * axis root turns Z-up into Y-up). */
#include "alo_scene_internal.h"

#include <ferry/ala.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

/* Frames per second assumed when a file's rate is unusable. */
#define DEFAULT_FPS 30.0

static bool step_bit(const ferry_ala_bone *bone, uint32_t frame)
{
    return bone->steps && frame / 8 < bone->step_size && ((bone->steps[frame / 8] >> (frame % 8)) & 1u);
}

static bool near3(const float a[3], const float b[3], float tol)
{
    for (int k = 0; k < 3; k++) {
        float scale = fmaxf(1.0f, fabsf(b[k]));
        if (!(fabsf(a[k] - b[k]) <= tol * scale)) return false;
    }
    return true;
}

static bool near_quat(const float a[4], const float b[4])
{
    return fabs(fy_quat_dot(a, b)) >= 1.0 - 1e-7;
}

typedef enum { KEYS_LINEAR, KEYS_STEP, KEYS_MIXED } key_mode;

/* Key times (seconds) for one bone. Mixed steps use LINEAR keys plus a
 * "hold" key just before each frame that follows a step, carrying the
 * stepped frame's value: exact everywhere but in that sliver of time. */
typedef struct key_plan {
    key_mode mode;
    size_t key_count;
    float *times;
    uint32_t *frame_of_key; /* the frame whose value each key carries */
} key_plan;

static bool plan_keys(fy_alo_build *b, const ferry_ala_animation *anim, const ferry_ala_bone *bone, double fps,
                      key_plan *plan)
{
    uint32_t frames = anim->frame_count;
    size_t steps = 0;
    for (uint32_t f = 0; f + 1 < frames; f++) steps += step_bit(bone, f);
    plan->mode = steps == 0 ? KEYS_LINEAR : (steps == (size_t)frames - 1 ? KEYS_STEP : KEYS_MIXED);
    size_t cap = (size_t)frames + (plan->mode == KEYS_MIXED ? steps : 0);
    plan->times = fy_build_alloc(b, cap, sizeof *plan->times);
    plan->frame_of_key = fy_build_alloc(b, cap, sizeof *plan->frame_of_key);
    if (!plan->times || !plan->frame_of_key) return false;
    size_t k = 0;
    for (uint32_t f = 0; f < frames; f++) {
        float t = (float)(f / fps);
        if (plan->mode == KEYS_MIXED && f > 0 && step_bit(bone, f - 1)) {
            /* A thousandth of a frame before: far above float resolution for
             * any animation shorter than hours, far below anything visible. */
            float hold = (float)((f - 0.001) / fps);
            if (hold > plan->times[k - 1] && hold < t) {
                plan->times[k] = hold;
                plan->frame_of_key[k] = f - 1;
                k++;
            }
        }
        plan->times[k] = t;
        plan->frame_of_key[k] = f;
        k++;
    }
    plan->key_count = k;
    return true;
}

static bool add_channel(fy_alo_build *b, ferry_scene_animation *a, int32_t node, ferry_anim_path path, key_mode mode,
                        const key_plan *plan, const ferry_ala_pose *poses)
{
    size_t width = path == FERRY_ANIM_ROTATION ? 4 : 3;
    float *values = fy_build_alloc(b, plan->key_count, width * sizeof *values);
    if (!values) return false;
    for (size_t k = 0; k < plan->key_count; k++) {
        const ferry_ala_pose *p = &poses[plan->frame_of_key[k]];
        const float *src = path == FERRY_ANIM_TRANSLATION ? p->translation : path == FERRY_ANIM_ROTATION ? p->rotation : p->scale;
        float *dst = &values[k * width];
        memcpy(dst, src, width * sizeof *dst);
        for (size_t c = 0; c < width; c++)
            if (!isfinite(dst[c])) dst[c] = (path == FERRY_ANIM_SCALE || (path == FERRY_ANIM_ROTATION && c == 3)) ? 1.0f : 0.0f;
        if (path == FERRY_ANIM_ROTATION) {
            fy_quat_normalize(dst);
            /* glTF slerps between stored keys as given: flipping a key that
             * points away from the previous one keeps the shorter arc, which
             * is how ALA sampling interpolates. */
            if (k > 0) {
                if (fy_quat_dot(&values[(k - 1) * 4], dst) < 0)
                    for (int c = 0; c < 4; c++) dst[c] = -dst[c];
            }
        }
    }
    ferry_scene_channel *ch = &a->channels[a->channel_count++];
    ch->node = node;
    ch->path = path;
    ch->interpolation = mode == KEYS_STEP ? FERRY_INTERP_STEP : FERRY_INTERP_LINEAR;
    ch->times = plan->times;
    ch->key_count = plan->key_count;
    ch->values = values;
    return true;
}

static bool convert_animation(fy_alo_build *b, const ferry_ala_animation *anim, const char *name, ferry_scene_animation *a,
                              bool *seen, ferry_ala_pose *poses)
{
    ferry_arena *ja = b->arena;
    const ferry_scene_node *nodes = b->scene->nodes;
    size_t bones = b->model->skeleton.bone_count;
    a->name = ferry_arena_strdup(b->arena, name);
    a->channels = fy_build_alloc(b, 3 * anim->bone_count + 1, sizeof *a->channels);
    if (!a->name || !a->channels) return false;
    bool fps_ok = isfinite(anim->fps) && anim->fps > 0;
    double fps = fps_ok ? anim->fps : DEFAULT_FPS;
    memset(seen, 0, bones * sizeof *seen);
    ferry_json *x = fy_jobject(ja);
    fy_jset(ja, x, "fps", fy_jreal_or_null(ja, anim->fps));
    if (!fps_ok) fy_jset(ja, x, "fps_assumed", fy_jreal(ja, DEFAULT_FPS));
    fy_jset(ja, x, "frame_count", fy_jinteger(ja, anim->frame_count));
    fy_jset(ja, x, "format", fy_jinteger(ja, anim->format));
    ferry_json *vis = fy_jarray(ja), *skipped = fy_jarray(ja);
    for (size_t t = 0; t < anim->bone_count && anim->frame_count > 0; t++) {
        const ferry_ala_bone *tb = &anim->bones[t];
        /* Tracks apply by index (names only confirm it); the first track for
         * a bone wins, as a bone can have one channel per path in glTF. */
        if (tb->index >= bones || seen[tb->index]) {
            fy_jpush(ja, skipped, fy_jstring(ja, tb->name ? tb->name : ""));
            continue;
        }
        seen[tb->index] = true;
        int32_t node = b->bone_node[tb->index];
        const ferry_scene_node *rest = &nodes[node];
        bool move_t = false, move_r = false, move_s = false;
        for (uint32_t f = 0; f < anim->frame_count; f++) {
            ferry_ala_sample_frame(anim, t, f, &poses[f]);
            move_t |= !near3(poses[f].translation, rest->translation, 1e-5f);
            move_r |= !near_quat(poses[f].rotation, rest->rotation);
            move_s |= !near3(poses[f].scale, rest->scale, 1e-5f);
        }
        if (tb->has_visibility) {
            ferry_json *bits = fy_jarray(ja);
            for (uint32_t f = 0; f < anim->frame_count; f++)
                fy_jpush(ja, bits, fy_jinteger(ja, f / 8 < tb->visibility_size ? (tb->visibility[f / 8] >> (f % 8)) & 1 : 1));
            ferry_json *v = fy_jobject(ja);
            fy_jset(ja, v, "node", fy_jinteger(ja, node));
            fy_jset(ja, v, "bone", fy_jstring(ja, tb->name ? tb->name : ""));
            fy_jset(ja, v, "visible", bits);
            fy_jpush(ja, vis, v);
        }
        if (!move_t && !move_r && !move_s) continue;
        key_plan plan;
        if (!plan_keys(b, anim, tb, fps, &plan)) {
            return false;
        }
        if ((move_t && !add_channel(b, a, node, FERRY_ANIM_TRANSLATION, plan.mode, &plan, poses)) ||
            (move_r && !add_channel(b, a, node, FERRY_ANIM_ROTATION, plan.mode, &plan, poses)) ||
            (move_s && !add_channel(b, a, node, FERRY_ANIM_SCALE, plan.mode, &plan, poses))) {
            return false;
        }
    }
    if (a->channel_count == 0 && bones > 0) {
        /* glTF wants at least one channel: the first bone held at rest keeps
         * the (still) animation and its name in the file. */
        float *time = fy_build_alloc(b, 1, sizeof *time);
        float *q = fy_build_alloc(b, 1, 4 * sizeof *q);
        if (!time || !q) {
            return false;
        }
        memcpy(q, nodes[b->bone_node[0]].rotation, 4 * sizeof *q);
        a->channels[0] = (ferry_scene_channel){.node = b->bone_node[0], .path = FERRY_ANIM_ROTATION,
                                               .interpolation = FERRY_INTERP_LINEAR, .times = time, .key_count = 1, .values = q};
        a->channel_count = 1;
    }
    if (fy_jcount(vis)) fy_jset(ja, x, "visibility", vis);
    if (fy_jcount(skipped)) fy_jset(ja, x, "skipped_tracks", skipped);
    a->extras = x;
    return true;
}

bool fy_alo_animations(fy_alo_build *b)
{
    const ferry_alo_scene_options *o = b->opts;
    size_t bones = b->model->skeleton.bone_count;
    if (o->animation_count == 0 || !o->animations || bones == 0) return true;
    ferry_scene *s = b->scene;
    s->animations = fy_build_alloc(b, o->animation_count, sizeof *s->animations);
    bool *seen = fy_build_alloc(b, bones, sizeof *seen);
    if (!s->animations || !seen) return false;
    for (size_t i = 0; i < o->animation_count; i++) {
        const ferry_ala_animation *anim = o->animations[i];
        if (!anim) continue;
        char fallback[32];
        snprintf(fallback, sizeof fallback, "animation %zu", i);
        const char *name = (o->animation_names && o->animation_names[i]) ? o->animation_names[i] : fallback;
        /* Poses of one track, reused across tracks: arena scratch. */
        ferry_ala_pose *poses = fy_build_alloc(b, anim->frame_count, sizeof *poses);
        if (!poses) return false;
        if (!convert_animation(b, anim, name, &s->animations[s->animation_count], seen, poses)) return false;
        s->animation_count++;
    }
    return true;
}
