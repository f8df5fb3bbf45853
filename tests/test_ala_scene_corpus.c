/* Real animations through glTF and back: ALO + ALA -> scene (ferry's
 * export, every mesh) -> .glb bytes -> scene read back -> ALA in format 1
 * and format 2 (ferry_ala_from_scene). At every frame each bone of the model
 * must have the original's pose within quantization: translation within
 * half the original's step per axis (the new step is never larger, since it
 * spans only the values used) plus float rounding, rotation within 0.01
 * degrees. Every animation beside the models of ueaw/Models that fits its
 * model, and 50 evenly chosen of icw and of ufocp. Prints the largest
 * errors (translation relative to the bone's range of movement, rotation in
 * degrees). Skips (exit 77) without ../shared. */
#include <ferry/ala.h>
#include <ferry/alo.h>
#include <ferry/convert.h>
#include <ferry/gltf.h>

#include "support.h"
#include "test.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#ifndef SAMPLE
#define SAMPLE 50 /* -DSAMPLE=100000 takes every animation */
#endif

typedef struct stats {
    size_t animations, poses, frames_mid, not_fitting, skipped_read;
    double max_rel_t, max_steps_t, max_rot_deg, max_abs_s;
    double max_rel_t_mid, max_rot_deg_mid;
    char worst_t[160], worst_r[160];
} stats;

static const char *base_name(const char *path)
{
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

static size_t dir_len(const char *path)
{
    const char *s = strrchr(path, '/');
    return s ? (size_t)(s - path) : 0;
}

static long track_of(const ferry_ala_animation *a, size_t bone)
{
    for (size_t t = 0; t < a->bone_count; t++)
        if (a->bones[t].index == bone) return (long)t;
    return -1;
}

static void rest_of(const ferry_scene *s, int32_t node, ferry_ala_pose *p)
{
    memset(p, 0, sizeof *p);
    memcpy(p->translation, s->nodes[node].translation, sizeof p->translation);
    memcpy(p->rotation, s->nodes[node].rotation, sizeof p->rotation);
    memcpy(p->scale, s->nodes[node].scale, sizeof p->scale);
}

static double angle_deg(const float a[4], const float b[4])
{
    double d = 0, la = 0, lb = 0;
    for (int k = 0; k < 4; k++) {
        d += (double)a[k] * b[k];
        la += (double)a[k] * a[k];
        lb += (double)b[k] * b[k];
    }
    d = fabs(d) / sqrt(la * lb);
    if (d > 1) d = 1;
    return 2 * acos(d) * 180 / 3.14159265358979323846;
}

/* Compares the original and the round trip at every frame (asserted) and
 * at every frame + 0.5 (measured only: step bits may be placed
 * differently where nothing changes). */
static void compare(const char *name, const ferry_ala_animation *a, const ferry_ala_animation *b, const ferry_scene *s,
                    const int32_t *bone_nodes, size_t bones, stats *st)
{
    CHECK_MSG(a->frame_count == b->frame_count, "%s: %u frames became %u", name, (unsigned)a->frame_count,
              (unsigned)b->frame_count);
    CHECK_MSG(a->fps == b->fps || !(a->fps > 0), "%s: fps %g became %g", name, a->fps, b->fps);
    for (size_t bone = 0; bone < bones; bone++) {
        long ta = track_of(a, bone), tb = track_of(b, bone);
        if (ta < 0 && tb < 0) continue;
        /* The bone's range: the largest extent of its original translations. */
        double lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY}, range = 0;
        for (uint32_t f = 0; f < a->frame_count; f++) {
            ferry_ala_pose p;
            if (ta >= 0) ferry_ala_sample_frame(a, (size_t)ta, f, &p);
            else rest_of(s, bone_nodes[bone], &p);
            for (int k = 0; k < 3; k++) {
                lo[k] = fmin(lo[k], p.translation[k]);
                hi[k] = fmax(hi[k], p.translation[k]);
            }
        }
        for (int k = 0; k < 3; k++) range = fmax(range, hi[k] - lo[k]);
        for (uint32_t f = 0; f < a->frame_count; f++) {
            for (int mid = 0; mid < 2; mid++) {
                if (mid && f + 1 >= a->frame_count) continue;
                ferry_ala_pose p, q;
                double at = f + (mid ? 0.5 : 0);
                if (ta >= 0) ferry_ala_sample(a, (size_t)ta, at, FERRY_ALA_CLAMP, &p);
                else rest_of(s, bone_nodes[bone], &p);
                if (tb >= 0) ferry_ala_sample(b, (size_t)tb, at, FERRY_ALA_CLAMP, &q);
                else rest_of(s, bone_nodes[bone], &q);
                double rel = 0, steps = 0;
                bool ok = true;
                for (int k = 0; k < 3; k++) {
                    double d = fabs((double)p.translation[k] - q.translation[k]);
                    double step = ta >= 0 ? a->bones[ta].translation_scale[k] : 0;
                    double slack = 2e-5 * fmax(1.0, fabs(p.translation[k]));
                    if (d > 0.5 * step + slack) ok = false;
                    if (range > 0) rel = fmax(rel, d / range);
                    steps = fmax(steps, d / (0.5 * step + slack));
                    double ds = fabs((double)p.scale[k] - q.scale[k]);
                    double sstep = ta >= 0 ? a->bones[ta].scale_scale[k] : 0;
                    if (ds > 0.5 * sstep + 2e-5 * fmax(1.0, fabs(p.scale[k]))) ok = false;
                    if (!mid) st->max_abs_s = fmax(st->max_abs_s, ds);
                }
                double deg = angle_deg(p.rotation, q.rotation);
                if (mid) {
                    st->max_rel_t_mid = fmax(st->max_rel_t_mid, rel);
                    st->max_rot_deg_mid = fmax(st->max_rot_deg_mid, deg);
                    st->frames_mid++;
                    continue;
                }
                CHECK_MSG(ok, "%s: bone %zu frame %u: translation (%g %g %g) became (%g %g %g)", name, bone, (unsigned)f,
                          p.translation[0], p.translation[1], p.translation[2], q.translation[0], q.translation[1],
                          q.translation[2]);
                CHECK_MSG(deg <= 0.01, "%s: bone %zu frame %u: rotation off by %g degrees", name, bone, (unsigned)f, deg);
                if (p.has_visibility && q.has_visibility)
                    CHECK_MSG(p.visible == q.visible, "%s: bone %zu frame %u: visibility differs", name, bone, (unsigned)f);
                CHECK_MSG(p.has_visibility == q.has_visibility || ta < 0 || tb < 0, "%s: bone %zu: visibility lost", name, bone);
                if (rel > st->max_rel_t) {
                    st->max_rel_t = rel;
                    snprintf(st->worst_t, sizeof st->worst_t, "%.100s bone %zu frame %u", name, bone, (unsigned)f);
                }
                st->max_steps_t = fmax(st->max_steps_t, steps);
                if (deg > st->max_rot_deg) {
                    st->max_rot_deg = deg;
                    snprintf(st->worst_r, sizeof st->worst_r, "%.100s bone %zu frame %u", name, bone, (unsigned)f);
                }
                st->poses++;
            }
        }
    }
}

static void round_trip(const char *ala_path, const char *alo_path, stats *st)
{
    const char *name = base_name(ala_path);
    size_t asz, msz;
    uint8_t *ad = test_read_file(ala_path, &asz), *md = test_read_file(alo_path, &msz);
    ferry_ala_animation *a = NULL;
    ferry_alo_model *m = NULL;
    ferry_error err;
    ferry_scene *s1 = NULL, *s2 = NULL;
    ferry_buffer glb = {0};
    if (!ad || !md || ferry_ala_read(ad, asz, NULL, &a, &err) != FERRY_OK || ferry_alo_read(md, msz, NULL, &m, &err) != FERRY_OK) {
        st->skipped_read++;
        goto done;
    }
    if (ferry_ala_model_misfits(a, m, NULL, 0) != 0) {
        st->not_fitting++;
        goto done;
    }
    char stem[256];
    snprintf(stem, sizeof stem, "%s", name);
    char *dot = strrchr(stem, '.');
    if (dot) *dot = 0;
    const ferry_ala_animation *anims[1] = {a};
    const char *names[1] = {stem};
    ferry_alo_scene_options so;
    memset(&so, 0, sizeof so);
    char model_name[256];
    ferry_alamo_texture_folders folders;
    test_alo_scene_paths(&so, alo_path, NULL, 0, model_name, sizeof model_name, &folders);
    so.skip_textures = true;
    so.all = true;
    so.animations = anims;
    so.animation_names = names;
    so.animation_count = 1;
    CHECK_MSG(ferry_alo_to_scene(m, &so, &s1, &err) == FERRY_OK, "%s: export: %s", name, err.message);
    ferry_alamo_texture_folders_close(&folders);
    if (!s1) goto done;
    CHECK_MSG(ferry_gltf_write_glb(s1, &glb, &err) == FERRY_OK, "%s: glb: %s", name, err.message);
    CHECK_MSG(ferry_gltf_read(glb.data, glb.size, NULL, &s2, &err) == FERRY_OK, "%s: read back: %s", name, err.message);
    if (!s2) goto done;
    CHECK(s2->animation_count == 1);
    size_t bones = ferry_ala_scene_bones(s2, NULL, 0);
    CHECK_MSG(bones == m->skeleton.bone_count, "%s: %zu bones in the glTF, %zu in the model", name, bones,
              (size_t)m->skeleton.bone_count);
    int32_t *bone_nodes = calloc(bones + 1, sizeof *bone_nodes);
    ferry_ala_scene_bones(s2, bone_nodes, bones);
    for (int format = 1; format <= 2 && s2->animation_count == 1; format++) {
        ferry_ala_from_scene_options o;
        memset(&o, 0, sizeof o);
        o.format = (uint8_t)format;
        ferry_diagnostics d;
        memset(&d, 0, sizeof d);
        o.diagnostics = &d;
        ferry_ala_animation *b = NULL;
        char what[300];
        snprintf(what, sizeof what, "%s (format %d)", name, format);
        CHECK_MSG(ferry_ala_from_scene(s2, &o, &b, &err) == FERRY_OK, "%s: %s", what, err.message);
        CHECK_MSG(d.warning_count == 0, "%s: %zu warnings, first: %s", what, d.warning_count, d.count ? d.items[0].message : "");
        ferry_diagnostics_free(&d);
        if (!b) continue;
        CHECK(b->format == format);
        memset(&d, 0, sizeof d);
        CHECK_MSG(ferry_ala_validate(b, NULL, &d) == 0, "%s: validation: %s", what, d.count ? d.items[0].message : "");
        ferry_diagnostics_free(&d);
        char why[200];
        CHECK_MSG(ferry_ala_model_misfits(b, m, why, sizeof why) == 0, "%s: does not fit its model: %s", what, why);
        compare(what, a, b, s2, bone_nodes, bones, st);
        st->animations++;
        ferry_ala_free(b);
    }
    free(bone_nodes);
done:
    ferry_buffer_free(&glb);
    ferry_scene_free(s1);
    ferry_scene_free(s2);
    ferry_ala_free(a);
    ferry_alo_free(m);
    free(ad);
    free(md);
}

/* The animations under dir that pair with a model in their folder, every
 * one or SAMPLE evenly spread. */
static void run_dir(const char *dir, bool sample, stats *st)
{
    char **alas, **alos;
    size_t na = test_list_files(dir, ".ala", &alas), nm = test_list_files(dir, ".alo", &alos);
    size_t *pair = calloc(na + 1, sizeof *pair), *keep = calloc(na + 1, sizeof *keep), nk = 0;
    for (size_t i = 0; i < na; i++) {
        /* Models of the same folder. */
        const char *in_dir[4096];
        size_t idx[4096], c = 0;
        for (size_t j = 0; j < nm && c < 4096; j++)
            if (dir_len(alos[j]) == dir_len(alas[i]) && strncmp(alos[j], alas[i], dir_len(alas[i])) == 0) {
                in_dir[c] = alos[j];
                idx[c++] = j;
            }
        size_t w = ferry_ala_model_for(alas[i], in_dir, c);
        if (w < c) {
            pair[nk] = idx[w];
            keep[nk++] = i;
        }
    }
    size_t take = sample && nk > SAMPLE ? SAMPLE : nk;
    for (size_t k = 0; k < take; k++) {
        size_t at = take == nk ? k : k * nk / take;
        round_trip(alas[keep[at]], alos[pair[at]], st);
    }
    printf("%s: %zu animations pair with a model, %zu taken\n", dir, nk, take);
    free(pair);
    free(keep);
    test_free_paths(alas, na);
    test_free_paths(alos, nm);
}

int main(void)
{
    const char *root = FERRY_SHARED_DIR "/corpus/alamo";
    if (!test_dir_exists(root)) TEST_SKIP("%s is absent: real-file tests not run", root);
    stats st;
    memset(&st, 0, sizeof st);
    run_dir(FERRY_SHARED_DIR "/corpus/alamo/ueaw/Models", false, &st);
    run_dir(FERRY_SHARED_DIR "/corpus/alamo/icw", true, &st);
    run_dir(FERRY_SHARED_DIR "/corpus/alamo/ufocp", true, &st);
    printf("%zu round trips (both formats), %zu poses at frames; %zu not fitting their model, %zu unreadable (skipped)\n",
           st.animations, st.poses, st.not_fitting, st.skipped_read);
    printf("at frames: max translation error %.3g of the bone's range (%.3g of the allowed half step + rounding), at %s; max rotation error "
           "%.3g degrees, at %s; max scale error %.3g\n",
           st.max_rel_t, st.max_steps_t, st.worst_t, st.max_rot_deg, st.worst_r, st.max_abs_s);
    printf("between frames (frame + 0.5, measured only): max translation error %.3g of the range, rotation %.3g degrees\n",
           st.max_rel_t_mid, st.max_rot_deg_mid);
    CHECK(st.animations > 0);
    TEST_END();
}
