/* What moves: an animation sampled at a moment (ferry_asset_sample) and a
 * particle system simulated to a moment (ferry_asset_particles), as the
 * JSON objects `ferry sample --json` and `ferry particles --json` print, so
 * that every front end gets the same data from the library. */
#include "engine_internal.h"

#include "../core/core.h"

#include <ferry/particle_sim.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

static ferry_result not_a(const ferry_asset *a, const char *what, ferry_error *err)
{
    fy_error_set(err, FERRY_ERR_UNSUPPORTED, FERRY_NO_OFFSET, NULL, "this is %s %s, not %s",
                 a->row ? "an" : "a file of", a->row ? a->row->desc.name : "no known format", what);
    return FERRY_ERR_UNSUPPORTED;
}

static ferry_result nomem(ferry_error *err)
{
    fy_error_set(err, FERRY_ERR_NOMEM, FERRY_NO_OFFSET, NULL, "out of memory");
    return FERRY_ERR_NOMEM;
}

/* [v0, ..., vn-1]: NULL as a whole (the key left out) when one is not
 * finite, unless the info asks for strings; as json_pack("[f,...]"). */
static json_t *json_vec(const fy_info *info, const float *v, size_t n)
{
    for (size_t i = 0; i < n && !info->nonfinite_strings; i++)
        if (!isfinite(v[i])) return NULL;
    return fy_json_floats(info, v, n);
}

/* ---- animations ---- */

ferry_result ferry_asset_sample(const ferry_asset *a, const ferry_asset_sample_options *options, ferry_buffer *json,
                                ferry_error *err)
{
    fy_error_clear(err);
    if (!a || !json) {
        fy_error_set(err, FERRY_ERR_ARGUMENT, FERRY_NO_OFFSET, NULL, "no asset or no buffer");
        return FERRY_ERR_ARGUMENT;
    }
    const ferry_asset_sample_options o = options ? *options : (ferry_asset_sample_options){0};
    if (a->format != FERRY_FORMAT_ALA) return not_a(a, "an animation", err);
    double moment = o.has_time ? o.time : o.frame;
    if (!isfinite(moment) || moment < 0) {
        fy_error_set(err, FERRY_ERR_ARGUMENT, FERRY_NO_OFFSET, NULL, "the %s to sample must be a finite number, 0 or more",
                     o.has_time ? "time" : "frame");
        return FERRY_ERR_ARGUMENT;
    }
    if (o.model && o.model->format != FERRY_FORMAT_ALO_MODEL) {
        fy_error_set(err, FERRY_ERR_ARGUMENT, FERRY_NO_OFFSET, NULL, "the model given is %s %s, not an ALO model",
                     o.model->row ? "an" : "a file of", o.model->row ? o.model->row->desc.name : "no known format");
        return FERRY_ERR_ARGUMENT;
    }
    bool temporary = false, model_temporary = false;
    const ferry_ala_animation *anim = fy_asset_object_get(a, &temporary, err);
    if (!anim) return err ? err->code : FERRY_ERR_MALFORMED;
    const ferry_alo_model *model = NULL;
    if (o.model && !(model = fy_asset_object_get(o.model, &model_temporary, err))) {
        fy_asset_object_put(a, (void *)anim, temporary);
        return err ? err->code : FERRY_ERR_MALFORMED;
    }
    ferry_result r = FERRY_OK;
    double frame = o.has_time ? ferry_ala_frame_at(anim, o.time) : o.frame;
    ferry_ala_pose *poses = NULL;
    if (!isfinite(frame)) { /* a finite time so large that its frame is not */
        fy_error_set(err, FERRY_ERR_ARGUMENT, FERRY_NO_OFFSET, NULL,
                     "the time %.17g s is too large: its frame is not a finite number", o.time);
        r = FERRY_ERR_ARGUMENT;
    } else if (!(poses = calloc(anim->bone_count ? anim->bone_count : 1, sizeof *poses))) {
        r = nomem(err);
    }
    if (r == FERRY_OK) {
        fy_info info = {FERRY_INFO_SUMMARY, o.exact, o.nonfinite_strings, a->name, a->data, a->size, a->format};
        ferry_ala_sample_all(anim, frame, o.loop ? FERRY_ALA_LOOP : FERRY_ALA_CLAMP, poses);
        json_t *root = json_object(), *bones = json_array();
        fy_json_set_file(root, &info);
        json_object_set_new(root, "frame", json_real(frame));
        json_object_set_new(root, "frames", json_integer(anim->frame_count));
        json_object_set_new(root, "fps", fy_json_real(&info, anim->fps));
        json_object_set_new(root, "loop", json_boolean(o.loop));
        for (size_t i = 0; i < anim->bone_count; i++) {
            const ferry_ala_bone *b = &anim->bones[i];
            const ferry_ala_pose *p = &poses[i];
            const char *name = b->name ? b->name : "";
            if (model && b->index < model->skeleton.bone_count && model->skeleton.bones[b->index].name)
                name = model->skeleton.bones[b->index].name;
            json_t *jb = json_object();
            fy_json_set_text(jb, "name", name);
            json_object_set_new(jb, "index", json_integer(b->index));
            json_object_set_new(jb, "translation", json_vec(&info, p->translation, 3));
            json_object_set_new(jb, "rotation", json_vec(&info, p->rotation, 4));
            json_object_set_new(jb, "scale", json_vec(&info, p->scale, 3));
            json_object_set_new(jb, "visible", p->has_visibility ? json_boolean(p->visible) : json_null());
            json_array_append_new(bones, jb);
        }
        json_object_set_new(root, "bones", bones);
        r = fy_json_finish(root, &info, json, err);
    }
    free(poses);
    if (model) fy_asset_object_put(o.model, (void *)model, model_temporary);
    fy_asset_object_put(a, (void *)anim, temporary);
    return r;
}

/* ---- particle systems ---- */

typedef struct live_particle {
    ferry_particle_state state;
} live_particle;

/* By birth time, then id: an order that does not depend on how the
 * simulation keeps its particles. */
static int by_birth(const void *pa, const void *pb)
{
    const ferry_particle_state *x = &((const live_particle *)pa)->state, *y = &((const live_particle *)pb)->state;
    if (x->birth_time != y->birth_time) return x->birth_time < y->birth_time ? -1 : 1;
    return x->id < y->id ? -1 : x->id > y->id;
}

/* A particle's value: null when not finite, unless the info asks for strings. */
static json_t *particle_real(const fy_info *info, double x)
{
    json_t *j = fy_json_real(info, x);
    return j ? j : json_null();
}

static json_t *particle_vec(const fy_info *info, const float *v, size_t n)
{
    json_t *a = json_array();
    for (size_t k = 0; k < n; k++) json_array_append_new(a, particle_real(info, v[k]));
    return a;
}

ferry_result ferry_asset_particles(const ferry_asset *a, const ferry_asset_particles_options *options,
                                   ferry_buffer *json, ferry_error *err)
{
    fy_error_clear(err);
    if (!a || !json) {
        fy_error_set(err, FERRY_ERR_ARGUMENT, FERRY_NO_OFFSET, NULL, "no asset or no buffer");
        return FERRY_ERR_ARGUMENT;
    }
    const ferry_asset_particles_options o = options ? *options : (ferry_asset_particles_options){0};
    if (a->format != FERRY_FORMAT_ALO_PARTICLE) return not_a(a, "a particle system", err);
    if (!isfinite(o.time) || o.time < 0) {
        fy_error_set(err, FERRY_ERR_ARGUMENT, FERRY_NO_OFFSET, NULL,
                     "the time to simulate to must be a finite number of seconds, 0 or more");
        return FERRY_ERR_ARGUMENT;
    }
    bool temporary = false;
    const ferry_particle_system *system = fy_asset_object_get(a, &temporary, err);
    if (!system) return err ? err->code : FERRY_ERR_MALFORMED;
    ferry_particle_sim_options so = {0};
    so.seed = o.seed;
    so.ground_z = o.ground_z;
    so.no_ground = o.no_ground;
    ferry_particle_sim *sim = NULL;
    live_particle *live = NULL;
    ferry_result r = ferry_particle_sim_create(system, &so, &sim, err);
    size_t n = 0;
    if (r == FERRY_OK) {
        ferry_particle_sim_advance(sim, o.time);
        if (o.warnings) *o.warnings = ferry_particle_sim_warnings(sim);
        n = ferry_particle_sim_count(sim);
        if (!(live = malloc((n ? n : 1) * sizeof *live))) r = nomem(err);
    }
    if (r == FERRY_OK) {
        for (size_t i = 0; i < n; i++) ferry_particle_sim_get(sim, i, &live[i].state);
        qsort(live, n, sizeof *live, by_birth);
        fy_info info = {FERRY_INFO_SUMMARY, o.exact, o.nonfinite_strings, a->name, a->data, a->size, a->format};
        json_t *root = json_object(), *emitters = json_array();
        json_object_set_new(root, "time", json_real(o.time));
        /* One pass: the particles are grouped by emitter in birth order. */
        json_t **lists = calloc(system->emitter_count ? system->emitter_count : 1, sizeof *lists);
        if (!lists) {
            json_decref(root);
            json_decref(emitters);
            r = nomem(err);
        } else {
            for (size_t e = 0; e < system->emitter_count; e++) lists[e] = json_array();
            for (size_t j = 0; j < n; j++) {
                const ferry_particle_state *p = &live[j].state;
                if (p->emitter >= system->emitter_count) continue;
                json_t *jp = json_object();
                json_object_set_new(jp, "id", json_integer((json_int_t)p->id));
                json_object_set_new(jp, "position", particle_vec(&info, p->position, 3));
                json_object_set_new(jp, "velocity", particle_vec(&info, p->velocity, 3));
                json_object_set_new(jp, "size", particle_real(&info, p->size));
                json_object_set_new(jp, "color", particle_vec(&info, p->color, 4));
                json_object_set_new(jp, "rotation", particle_real(&info, p->rotation));
                json_object_set_new(jp, "age", particle_real(&info, p->age));
                json_object_set_new(jp, "lifetime", particle_real(&info, p->lifetime));
                json_object_set_new(jp, "frame", json_integer(p->frame));
                json_array_append_new(lists[p->emitter], jp);
            }
            for (size_t e = 0; e < system->emitter_count; e++) {
                json_t *je = json_object();
                json_object_set_new(je, "index", json_integer((json_int_t)e));
                fy_json_set_text(je, "name", system->emitters[e].name ? system->emitters[e].name : "");
                json_object_set_new(je, "particles", lists[e]);
                json_array_append_new(emitters, je);
            }
            free(lists);
            json_object_set_new(root, "emitters", emitters);
            r = fy_json_finish(root, &info, json, err);
        }
    }
    free(live);
    ferry_particle_sim_free(sim);
    fy_asset_object_put(a, (void *)system, temporary);
    return r;
}
