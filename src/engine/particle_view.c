/* Particle systems placed for drawing (particle_view.h): a system, or the
 * systems on a model's proxies found as the game finds them; the texture
 * cache the renderer draws from; the frames. */
#include "info_json.h"
#include "message.h"

#include <ferry/particle_view.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The largest texture or particle file read. */
#define VIEW_MAX_FILE ((size_t)256 << 20)
#define VIEW_MAX_SYSTEM ((size_t)1 << 31)

typedef struct view_texture {
    char *name;
    ferry_image image;
    bool found;
} view_texture;

typedef struct view_system {
    ferry_particle_placed placed;
    ferry_asset *asset;  /* a proxy's file read (NULL: the view's asset) */
    uint8_t *data;       /* its bytes, given back to `source` at the end */
    size_t size;
    const ferry_file_source *source;
    char *proxy, *path;
} view_system;

struct ferry_particle_view {
    const ferry_asset *asset;
    bool of_model;
    const ferry_alamo_texture_places *places;
    char *name;
    fy_messenger say;
    view_system *systems;
    size_t count;
    /* Each entry allocated on its own: the renderer keeps the images it was
     * given while it asks for more, so an entry never moves (a grown array
     * of entries would move them, and freed memory would be drawn from). */
    view_texture **textures;
    size_t texture_count;
};

static ferry_result nomem(ferry_error *err)
{
    fy_error_set(err, FERRY_ERR_NOMEM, FERRY_NO_OFFSET, NULL, "out of memory");
    return FERRY_ERR_NOMEM;
}

static char *copy(const char *s)
{
    if (!s) return NULL;
    size_t n = strlen(s) + 1;
    char *c = malloc(n);
    if (c) memcpy(c, s, n);
    return c;
}

/* A proxy's system: its file found as the game finds it (the proxy's name,
 * ".alo" added when it has none), read, and placed at its bone. False when
 * it is left out (said why). */
static bool place_proxy(ferry_particle_view *v, const ferry_alo_model *model, const ferry_alo_proxy *px,
                        const float *world, const ferry_read_options *read, view_system *out)
{
    char name[1024];
    const char *dot = strrchr(px->name, '.');
    snprintf(name, sizeof name, "%s%s", px->name, dot ? "" : ".alo");
    const ferry_file_source *src = NULL;
    char path[4096];
    uint8_t *data = NULL;
    size_t size = 0;
    ferry_error err;
    if (!v->places || !ferry_alamo_texture_find(v->places, name, &src, path, sizeof path) ||
        ferry_file_source_load(src, path, VIEW_MAX_SYSTEM, &data, &size, &err) != FERRY_OK) {
        fy_say(&v->say, FERRY_MESSAGE_WARNING, v->name, NULL, "proxy '%s': no particle file %s beside the model",
               px->name, name);
        return false;
    }
    /* Read by what its content is: an Alamo file's reader says what is
     * wrong with it; anything else is no known format. */
    ferry_format f = ferry_detect(data, size);
    ferry_asset *asset = NULL;
    bool ok = f == FERRY_FORMAT_ALO_PARTICLE || f == FERRY_FORMAT_ALO_MODEL || f == FERRY_FORMAT_ALA ||
              f == FERRY_FORMAT_ALO_PARTICLE_UAW;
    if (!ok) fy_not_known(&err, data, size);
    else ok = ferry_asset_read(data, size, &(ferry_asset_options){.read = *read, .format = f}, &asset, &err) == FERRY_OK;
    if (!ok || ferry_asset_format(asset) != FERRY_FORMAT_ALO_PARTICLE) {
        fy_say(&v->say, FERRY_MESSAGE_WARNING, v->name, NULL, "proxy '%s': %s is not a particle system%s%s", px->name,
               path, ok ? "" : ": ", ok ? "" : err.message);
        ferry_asset_free(asset);
        ferry_file_source_release(src, data, size);
        return false;
    }
    memset(out, 0, sizeof *out);
    out->asset = asset;
    out->data = data;
    out->size = size;
    out->source = src;
    out->proxy = copy(px->name);
    out->path = copy(path);
    out->placed.system = ferry_asset_object(asset);
    out->placed.proxy = out->proxy;
    out->placed.path = out->path;
    if (px->bone < model->skeleton.bone_count) {
        memcpy(out->placed.transform, &world[(size_t)px->bone * 16], sizeof out->placed.transform);
        out->placed.has_transform = true;
    }
    return true;
}

static ferry_result place_model(ferry_particle_view *v, const ferry_alo_model *model, const ferry_read_options *read,
                                ferry_error *err)
{
    size_t proxies = model->connections.proxy_count;
    v->systems = calloc(proxies ? proxies : 1, sizeof *v->systems);
    float *world = malloc((model->skeleton.bone_count ? model->skeleton.bone_count : 1) * 16 * sizeof *world);
    if (!v->systems || !world) {
        free(world);
        return nomem(err);
    }
    ferry_alo_bone_world_matrices(model, world);
    for (size_t i = 0; i < proxies; i++) {
        const ferry_alo_proxy *px = &model->connections.proxies[i];
        if (!px->name || !px->name[0]) continue;
        if (px->is_hidden) {
            /* The game shows a hidden proxy only when told to. */
            fy_say(&v->say, FERRY_MESSAGE_NOTE, v->name, NULL, "proxy '%s' is hidden: not drawn", px->name);
            continue;
        }
        if (place_proxy(v, model, px, world, read, &v->systems[v->count])) v->count++;
    }
    free(world);
    return FERRY_OK;
}

ferry_result ferry_particle_view_open(const ferry_asset *asset, const ferry_particle_view_options *options,
                                      ferry_particle_view **out, ferry_error *err)
{
    fy_error_clear(err);
    if (out) *out = NULL;
    if (!asset || !out) {
        fy_error_set(err, FERRY_ERR_ARGUMENT, FERRY_NO_OFFSET, NULL, "no asset or no place for the view");
        return FERRY_ERR_ARGUMENT;
    }
    ferry_particle_view_options o = options ? *options : (ferry_particle_view_options){0};
    ferry_particle_view *v = calloc(1, sizeof *v);
    const char *name = o.name ? o.name : ferry_asset_name(asset);
    if (!v || (name && !(v->name = copy(name)))) {
        free(v);
        return nomem(err);
    }
    v->asset = asset;
    v->places = o.places;
    v->say = (fy_messenger){o.message, o.user};
    ferry_format f = ferry_asset_format(asset);
    const void *object = ferry_asset_object(asset);
    ferry_result r = FERRY_OK;
    if (f == FERRY_FORMAT_ALO_PARTICLE && object) {
        if (!(v->systems = calloc(1, sizeof *v->systems))) {
            r = nomem(err);
        } else {
            v->systems[0].placed.system = object;
            v->count = 1;
        }
    } else if (f == FERRY_FORMAT_ALO_MODEL && object) {
        v->of_model = true;
        r = place_model(v, object, &o.read, err);
    } else {
        if (f == FERRY_FORMAT_ALO_PARTICLE || f == FERRY_FORMAT_ALO_MODEL)
            fy_error_set(err, FERRY_ERR_ARGUMENT, FERRY_NO_OFFSET, NULL,
                         "this %s was opened without its object (bytes_only): nothing to draw", ferry_format_name(f));
        else /* (the Alamo formats' names are their kinds': "ALA animation") */
            fy_error_set(err, FERRY_ERR_ARGUMENT, FERRY_NO_OFFSET, NULL,
                         "this is an %s, not a particle system or a model", ferry_format_name(f));
        fy_say_error(&v->say, v->name, err);
        r = FERRY_ERR_ARGUMENT;
    }
    if (r != FERRY_OK) {
        ferry_particle_view_free(v);
        return r;
    }
    *out = v;
    return FERRY_OK;
}

void ferry_particle_view_free(ferry_particle_view *v)
{
    if (!v) return;
    for (size_t i = 0; i < v->count; i++) {
        view_system *s = &v->systems[i];
        ferry_asset_free(s->asset);
        if (s->data) ferry_file_source_release(s->source, s->data, s->size);
        free(s->proxy);
        free(s->path);
    }
    free(v->systems);
    for (size_t i = 0; i < v->texture_count; i++) {
        free(v->textures[i]->name);
        ferry_image_free(&v->textures[i]->image);
        free(v->textures[i]);
    }
    free(v->textures);
    free(v->name);
    free(v);
}

size_t ferry_particle_view_count(const ferry_particle_view *v) { return v ? v->count : 0; }

const ferry_particle_placed *ferry_particle_view_at(const ferry_particle_view *v, size_t i)
{
    return v && i < v->count ? &v->systems[i].placed : NULL;
}

bool ferry_particle_view_of_model(const ferry_particle_view *v) { return v && v->of_model; }

/* ---- textures ---- */

const ferry_image *ferry_particle_view_texture(const char *name, void *user)
{
    ferry_particle_view *v = user;
    if (!v || !name) return NULL;
    for (size_t i = 0; i < v->texture_count; i++)
        if (strcmp(v->textures[i]->name, name) == 0) return v->textures[i]->found ? &v->textures[i]->image : NULL;
    view_texture **items = realloc(v->textures, (v->texture_count + 1) * sizeof *items);
    if (!items) return NULL;
    v->textures = items;
    view_texture *t = calloc(1, sizeof *t);
    if (!t) return NULL;
    if (!(t->name = copy(name))) {
        free(t);
        return NULL;
    }
    items[v->texture_count++] = t;
    const ferry_file_source *src = NULL;
    char path[4096];
    ferry_error err;
    if (v->places && ferry_alamo_texture_find(v->places, name, &src, path, sizeof path)) {
        uint8_t *data = NULL;
        size_t size = 0;
        if (ferry_file_source_load(src, path, VIEW_MAX_FILE, &data, &size, &err) == FERRY_OK) {
            if (ferry_image_decode(data, size, NULL, &t->image, &err) == FERRY_OK)
                t->found = true;
            else
                fy_say(&v->say, FERRY_MESSAGE_WARNING, v->name, NULL, "texture %s: %s", path, err.message);
            ferry_file_source_release(src, data, size);
        }
    }
    if (!t->found)
        fy_say(&v->say, FERRY_MESSAGE_WARNING, v->name, NULL, "texture '%s' not found: drawn as a soft glow", name);
    return t->found ? &t->image : NULL;
}

/* ---- drawing ---- */

static ferry_particle_sim **new_sims(ferry_particle_view *v, const ferry_particle_sim_options *base, ferry_error *err)
{
    ferry_particle_sim **sims = calloc(v->count, sizeof *sims);
    if (!sims) {
        nomem(err);
        fy_say_error(&v->say, v->name, err);
        return NULL;
    }
    for (size_t k = 0; k < v->count; k++) {
        const ferry_particle_placed *p = &v->systems[k].placed;
        ferry_particle_sim_options o = *base;
        o.has_transform = p->has_transform;
        if (p->has_transform) memcpy(o.transform, p->transform, sizeof o.transform);
        if (ferry_particle_sim_create(p->system, &o, &sims[k], err) != FERRY_OK) {
            fy_say_error(&v->say, v->name, err);
            for (size_t j = 0; j < k; j++) ferry_particle_sim_free(sims[j]);
            free(sims);
            return NULL;
        }
    }
    return sims;
}

static void free_sims(ferry_particle_sim **sims, size_t n)
{
    for (size_t k = 0; sims && k < n; k++) ferry_particle_sim_free(sims[k]);
    free(sims);
}

static void grow(float lo[3], float hi[3], bool *any, const float a[3], const float b[3])
{
    for (int k = 0; k < 3; k++) {
        if (!*any || a[k] < lo[k]) lo[k] = a[k];
        if (!*any || b[k] > hi[k]) hi[k] = b[k];
    }
    *any = true;
}

ferry_result ferry_particle_view_render(ferry_particle_view *v, const ferry_particle_view_render_options *options,
                                        ferry_particle_view_render_report *report, ferry_error *err)
{
    fy_error_clear(err);
    ferry_particle_view_render_report rep;
    memset(&rep, 0, sizeof rep);
    if (report) *report = rep;
    if (!v || !options || !options->frame) {
        fy_error_set(err, FERRY_ERR_ARGUMENT, FERRY_NO_OFFSET, NULL, "no view, no options or no frame callback");
        return FERRY_ERR_ARGUMENT;
    }
    if (!v->count) {
        fy_error_set(err, FERRY_ERR_ARGUMENT, FERRY_NO_OFFSET, NULL,
                     v->of_model ? "no particle system on the model's proxies to draw (the model's meshes are not drawn)"
                                 : "no particle system to draw");
        fy_say_error(&v->say, v->name, err);
        return FERRY_ERR_ARGUMENT;
    }
    const ferry_particle_view_render_options *o = options;
    size_t frames = o->frames ? o->frames : 1;
    double step = o->fps > 0 ? o->fps : 1;

    /* Pass 1: where the particles are over every frame, for the camera. */
    ferry_particle_sim **sims = new_sims(v, &o->sim, err);
    if (!sims) return err ? err->code : FERRY_ERR_NOMEM;
    float lo[3] = {0, 0, 0}, hi[3] = {0, 0, 0};
    bool any = false;
    for (size_t f = 0; f < frames; f++) {
        bool live = false;
        for (size_t k = 0; k < v->count; k++) {
            ferry_particle_sim_advance(sims[k], o->time + (double)f / step);
            float a[3], b[3];
            if (ferry_particle_sim_bounds(sims[k], a, b)) {
                grow(lo, hi, &any, a, b);
                live = true;
            }
        }
        rep.live_frames += live;
    }
    for (size_t k = 0; k < v->count; k++) {
        unsigned w = ferry_particle_sim_warnings(sims[k]);
        for (unsigned b = 0; b < FERRY_PARTICLE_SIM_WARN_COUNT; b++)
            if (w & (1u << b))
                fy_say(&v->say, FERRY_MESSAGE_WARNING, v->name, NULL, "%s", ferry_particle_sim_warning_text(1u << b));
    }
    free_sims(sims, v->count);
    if (!rep.live_frames)
        fy_say(&v->say, FERRY_MESSAGE_WARNING, v->name, NULL, "no live particles at %s: the image is background only",
               o->fps > 0 ? "any frame" : "this time");

    ferry_particle_render_options ro = o->render;
    if (!ro.width) ro.width = 512;
    if (!ro.height) ro.height = 512;
    static const float zero[3] = {0, 0, 0};
    if (!o->plain && !ro.checker && !memcmp(ro.background, zero, sizeof zero) &&
        !memcmp(ro.background2, zero, sizeof zero)) {
        /* A grey checkerboard: smoke of any grey shows on one of its cells. */
        ro.background[0] = ro.background[1] = ro.background[2] = 0.32f;
        ro.background2[0] = ro.background2[1] = ro.background2[2] = 0.48f;
        ro.checker = ro.width / 16 > 4 ? ro.width / 16 : 4;
    }
    ro.texture = ferry_particle_view_texture;
    ro.user = v;
    ferry_particle_camera_frame(lo, hi, (float)ro.width / (float)ro.height, &ro.camera);
    rep.camera = ro.camera;

    /* Pass 2: the frames. */
    if (!(sims = new_sims(v, &o->sim, err))) {
        if (report) *report = rep;
        return err ? err->code : FERRY_ERR_NOMEM;
    }
    ferry_result r = FERRY_OK;
    for (size_t f = 0; f < frames && r == FERRY_OK; f++) {
        rep.live_last = 0;
        for (size_t k = 0; k < v->count; k++) {
            ferry_particle_sim_advance(sims[k], o->time + (double)f / step);
            rep.live_last += ferry_particle_sim_count(sims[k]);
        }
        ferry_image img = {0};
        ferry_error rerr;
        if ((r = ferry_particle_render_many((const ferry_particle_sim *const *)sims, v->count, &ro, &img, &rerr)) !=
            FERRY_OK) {
            fy_say_error(&v->say, v->name, &rerr);
            if (err) *err = rerr;
            break;
        }
        ferry_error ferr;
        fy_error_clear(&ferr);
        if (!o->frame(o->user, f, &img, &ferr)) {
            r = ferr.code != FERRY_OK ? ferr.code : FERRY_ERR_IO;
            if (err) *err = ferr;
        } else {
            rep.frames++;
        }
        ferry_image_free(&img);
    }
    free_sims(sims, v->count);
    if (report) *report = rep;
    return r;
}
