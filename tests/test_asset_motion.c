/* ferry_asset_sample and ferry_asset_particles (format.h): the JSON of an
 * animation at a moment and of a particle system's live particles, checked
 * against the typed API they stand on (ferry_ala_sample_all,
 * ferry_particle_sim_*), value for value; the model's names by index; the
 * refusals (another kind, a moment that is no moment, a model that is not
 * one); the same seed giving the same object. */
#include "support.h"
#include "test.h"

#include <ferry/format.h>
#include <ferry/particle_sim.h>

#include <jansson.h>

static char *source_path(const char *rel)
{
    static char buf[4][4096];
    static int next;
    char *p = buf[next++ % 4];
    snprintf(p, 4096, "%s/%s", FERRY_SOURCE_DIR, rel);
    return p;
}

static ferry_asset *open_sample(const char *rel)
{
    ferry_asset *a = NULL;
    ferry_error err;
    CHECK_MSG(ferry_asset_open(source_path(rel), NULL, &a, &err) == FERRY_OK, "%s: %s", rel, err.message);
    return a;
}

static json_t *parse(ferry_buffer *text)
{
    json_error_t jerr;
    json_t *j = json_loadb((const char *)text->data, text->size, 0, &jerr);
    CHECK_MSG(j != NULL, "the JSON does not parse: %s", jerr.text);
    ferry_buffer_free(text);
    return j;
}

static json_t *sample(const ferry_asset *a, const ferry_asset_sample_options *o)
{
    ferry_buffer text = {0};
    ferry_error err;
    ferry_result r = ferry_asset_sample(a, o, &text, &err);
    CHECK_MSG(r == FERRY_OK, "sample: %s", err.message);
    if (r != FERRY_OK) {
        ferry_buffer_free(&text);
        return NULL;
    }
    return parse(&text);
}

/* Each value of the array equals the float exactly (17 digits read back). */
static bool same_floats(const json_t *array, const float *v, size_t n)
{
    if (json_array_size(array) != n) return false;
    for (size_t i = 0; i < n; i++)
        if (json_real_value(json_array_get(array, i)) != (double)v[i]) return false;
    return true;
}

static void test_sample(void)
{
    ferry_asset *anim = open_sample("samples/alamo/walker_walk_00.ala");
    ferry_asset *model = open_sample("samples/alamo/walker.alo");
    if (!anim || !model) return;
    const ferry_ala_animation *a = ferry_asset_object(anim);
    const ferry_alo_model *m = ferry_asset_object(model);
    ferry_ala_pose poses[64];
    CHECK(a->bone_count > 0 && a->bone_count <= 64);

    /* Fractional frames, clamped and looped, exact: the library's poses. */
    const double frames[] = {0, 2.5, 7.25, 1000};
    for (size_t f = 0; f < sizeof frames / sizeof frames[0]; f++) {
        for (int loop = 0; loop < 2; loop++) {
            json_t *j = sample(anim, &(ferry_asset_sample_options){.frame = frames[f], .loop = loop, .exact = true});
            if (!j) continue;
            ferry_ala_sample_all(a, frames[f], loop ? FERRY_ALA_LOOP : FERRY_ALA_CLAMP, poses);
            CHECK(json_real_value(json_object_get(j, "frame")) == frames[f]);
            CHECK_EQ_U(json_integer_value(json_object_get(j, "frames")), a->frame_count);
            CHECK(json_real_value(json_object_get(j, "fps")) == (double)a->fps);
            CHECK(json_is_true(json_object_get(j, "loop")) == (loop != 0));
            CHECK(strcmp(json_string_value(json_object_get(j, "file")), source_path("samples/alamo/walker_walk_00.ala")) ==
                  0);
            const json_t *bones = json_object_get(j, "bones");
            CHECK_EQ_U(json_array_size(bones), a->bone_count);
            for (size_t i = 0; i < a->bone_count && i < json_array_size(bones); i++) {
                const json_t *b = json_array_get(bones, i);
                CHECK(strcmp(json_string_value(json_object_get(b, "name")), a->bones[i].name) == 0);
                CHECK_EQ_U(json_integer_value(json_object_get(b, "index")), a->bones[i].index);
                CHECK(same_floats(json_object_get(b, "translation"), poses[i].translation, 3));
                CHECK(same_floats(json_object_get(b, "rotation"), poses[i].rotation, 4));
                CHECK(same_floats(json_object_get(b, "scale"), poses[i].scale, 3));
                const json_t *visible = json_object_get(b, "visible");
                CHECK(poses[i].has_visibility ? json_is_boolean(visible) && json_is_true(visible) == poses[i].visible
                                              : json_is_null(visible));
            }
            json_decref(j);
        }
    }

    /* A time is its frame (seconds x fps). */
    json_t *by_time = sample(anim, &(ferry_asset_sample_options){.has_time = true, .time = 0.35, .exact = true});
    json_t *by_frame = sample(anim, &(ferry_asset_sample_options){.frame = ferry_ala_frame_at(a, 0.35), .exact = true});
    CHECK(by_time && by_frame && json_equal(by_time, by_frame));
    json_decref(by_time);
    json_decref(by_frame);

    /* With the model: each bone named as the model's bone of its index. */
    json_t *j = sample(anim, &(ferry_asset_sample_options){.frame = 1, .model = model});
    const json_t *bones = json_object_get(j, "bones");
    for (size_t i = 0; i < json_array_size(bones); i++) {
        const json_t *b = json_array_get(bones, i);
        size_t index = (size_t)json_integer_value(json_object_get(b, "index"));
        CHECK(index < m->skeleton.bone_count &&
              strcmp(json_string_value(json_object_get(b, "name")), m->skeleton.bones[index].name) == 0);
    }
    json_decref(j);

    /* Refusals. */
    ferry_buffer text = {0};
    ferry_error err;
    CHECK(ferry_asset_sample(model, NULL, &text, &err) == FERRY_ERR_UNSUPPORTED && text.size == 0);
    CHECK(strstr(err.message, "not an animation") != NULL);
    CHECK(ferry_asset_sample(anim, &(ferry_asset_sample_options){.frame = -1}, &text, &err) == FERRY_ERR_ARGUMENT);
    CHECK(ferry_asset_sample(anim, &(ferry_asset_sample_options){.frame = NAN}, &text, &err) == FERRY_ERR_ARGUMENT);
    CHECK(ferry_asset_sample(anim, &(ferry_asset_sample_options){.has_time = true, .time = INFINITY}, &text, &err) ==
          FERRY_ERR_ARGUMENT);
    /* finite seconds whose frame is not */
    CHECK(ferry_asset_sample(anim, &(ferry_asset_sample_options){.has_time = true, .time = 1e308}, &text, &err) ==
          FERRY_ERR_ARGUMENT);
    CHECK(strstr(err.message, "too large") != NULL);
    CHECK(ferry_asset_sample(anim, &(ferry_asset_sample_options){.model = anim}, &text, &err) == FERRY_ERR_ARGUMENT);
    CHECK(ferry_asset_sample(NULL, NULL, &text, &err) == FERRY_ERR_ARGUMENT);
    CHECK(ferry_asset_sample(anim, NULL, NULL, &err) == FERRY_ERR_ARGUMENT);
    CHECK(text.size == 0);
    /* NULL options: frame 0, clamped. */
    CHECK(ferry_asset_sample(anim, NULL, &text, &err) == FERRY_OK && text.size > 0);
    ferry_buffer_free(&text);

    /* An asset that holds only bytes reads its object for the call; one
     * whose bytes its reader refuses says where. */
    size_t size;
    const uint8_t *bytes = ferry_asset_bytes(anim, &size);
    ferry_asset *lazy = NULL;
    CHECK(ferry_asset_read(bytes, size, &(ferry_asset_options){.bytes_only = true}, &lazy, &err) == FERRY_OK);
    j = sample(lazy, &(ferry_asset_sample_options){.frame = 2});
    CHECK(j && json_is_null(json_object_get(j, "file")));
    json_decref(j);
    ferry_asset_free(lazy);
    CHECK(ferry_asset_read(bytes, size / 2, &(ferry_asset_options){.bytes_only = true}, &lazy, &err) == FERRY_OK);
    CHECK(ferry_asset_sample(lazy, NULL, &text, &err) != FERRY_OK && err.offset != FERRY_NO_OFFSET && text.size == 0);
    ferry_asset_free(lazy);

    ferry_asset_free(anim);
    ferry_asset_free(model);
}

static json_t *particles(const ferry_asset *a, const ferry_asset_particles_options *o)
{
    ferry_buffer text = {0};
    ferry_error err;
    ferry_result r = ferry_asset_particles(a, o, &text, &err);
    CHECK_MSG(r == FERRY_OK, "particles: %s", err.message);
    if (r != FERRY_OK) {
        ferry_buffer_free(&text);
        return NULL;
    }
    return parse(&text);
}

static void test_particles(void)
{
    ferry_asset *asset = open_sample("samples/alamo/p_walker_exhaust.alo");
    if (!asset) return;
    const ferry_particle_system *system = ferry_asset_object(asset);
    const double times[] = {0, 0.5, 1.75};
    for (size_t t = 0; t < sizeof times / sizeof times[0]; t++) {
        unsigned warnings = 99;
        json_t *j = particles(asset, &(ferry_asset_particles_options){.time = times[t], .seed = 5, .exact = true,
                                                                       .warnings = &warnings});
        if (!j) continue;
        CHECK(warnings == 0);
        CHECK(json_real_value(json_object_get(j, "time")) == times[t]);
        /* The simulation the object stands for, run here. */
        ferry_particle_sim *sim = NULL;
        ferry_error err;
        CHECK(ferry_particle_sim_create(system, &(ferry_particle_sim_options){.seed = 5}, &sim, &err) == FERRY_OK);
        ferry_particle_sim_advance(sim, times[t]);
        size_t n = ferry_particle_sim_count(sim), listed = 0;
        const json_t *emitters = json_object_get(j, "emitters");
        CHECK_EQ_U(json_array_size(emitters), system->emitter_count);
        for (size_t e = 0; e < json_array_size(emitters); e++) {
            const json_t *je = json_array_get(emitters, e);
            CHECK_EQ_U(json_integer_value(json_object_get(je, "index")), e);
            CHECK(strcmp(json_string_value(json_object_get(je, "name")), system->emitters[e].name) == 0);
            const json_t *parts = json_object_get(je, "particles");
            double last_birth = -1;
            for (size_t k = 0; k < json_array_size(parts); k++, listed++) {
                const json_t *p = json_array_get(parts, k);
                uint64_t id = (uint64_t)json_integer_value(json_object_get(p, "id"));
                ferry_particle_state s;
                bool found = false;
                for (size_t i = 0; i < n && !found; i++) {
                    ferry_particle_sim_get(sim, i, &s);
                    found = s.id == id;
                }
                CHECK_MSG(found, "particle %llu is not live", (unsigned long long)id);
                if (!found) continue;
                CHECK(s.emitter == e);
                CHECK(same_floats(json_object_get(p, "position"), s.position, 3));
                CHECK(same_floats(json_object_get(p, "velocity"), s.velocity, 3));
                CHECK(same_floats(json_object_get(p, "color"), s.color, 4));
                CHECK(json_real_value(json_object_get(p, "size")) == (double)s.size);
                CHECK(json_real_value(json_object_get(p, "rotation")) == (double)s.rotation);
                CHECK(json_real_value(json_object_get(p, "age")) == (double)s.age);
                CHECK(json_real_value(json_object_get(p, "lifetime")) == (double)s.lifetime);
                CHECK_EQ_U(json_integer_value(json_object_get(p, "frame")), s.frame);
                /* in order of birth */
                CHECK(s.birth_time >= last_birth);
                last_birth = s.birth_time;
            }
        }
        CHECK_EQ_U(listed, n);
        if (times[t] > 0) CHECK(n > 0);
        ferry_particle_sim_free(sim);
        /* The same seed, the same object; another seed, other particles. */
        json_t *again = particles(asset, &(ferry_asset_particles_options){.time = times[t], .seed = 5, .exact = true});
        CHECK(again && json_equal(j, again));
        json_decref(again);
        if (n) {
            json_t *other = particles(asset, &(ferry_asset_particles_options){.time = times[t], .seed = 6, .exact = true});
            CHECK(other && !json_equal(j, other));
            json_decref(other);
        }
        json_decref(j);
    }

    /* Refusals. */
    ferry_asset *model = open_sample("samples/alamo/walker.alo");
    ferry_buffer text = {0};
    ferry_error err;
    CHECK(ferry_asset_particles(model, NULL, &text, &err) == FERRY_ERR_UNSUPPORTED && text.size == 0);
    CHECK(strstr(err.message, "not a particle system") != NULL);
    CHECK(ferry_asset_particles(asset, &(ferry_asset_particles_options){.time = -0.5}, &text, &err) ==
          FERRY_ERR_ARGUMENT);
    CHECK(ferry_asset_particles(asset, &(ferry_asset_particles_options){.time = NAN}, &text, &err) ==
          FERRY_ERR_ARGUMENT);
    CHECK(ferry_asset_particles(NULL, NULL, &text, &err) == FERRY_ERR_ARGUMENT && text.size == 0);
    ferry_asset_free(model);
    ferry_asset_free(asset);
}

int main(void)
{
    test_sample();
    test_particles();
    TEST_END();
}
