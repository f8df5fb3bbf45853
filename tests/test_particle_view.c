/* ferry_particle_view: a particle system, or the systems on a model's
 * proxies found beside it as the game finds them (hidden proxies, missing
 * files and files that are no particle system left out, each said), placed
 * at their bones; the texture cache the renderer draws from (an image
 * never moves once given); the frames drawn; bad inputs. On a temporary
 * folder holding the bundled samples. */
#define _DEFAULT_SOURCE
#include <ferry/particle_view.h>

#include <stdio.h>
#include <stdlib.h>

#include "support.h"
#include "test.h"

#define SAMPLES FERRY_SOURCE_DIR "/samples/alamo"

static char dir[64];

static void put(const char *name, const void *data, size_t size)
{
    char path[256];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    CHECK(f != NULL);
    if (!f) return;
    CHECK(fwrite(data, 1, size, f) == size);
    fclose(f);
}

static void copy_sample(const char *name)
{
    char path[256];
    snprintf(path, sizeof path, SAMPLES "/%s", name);
    size_t size = 0;
    uint8_t *data = test_read_file(path, &size);
    CHECK(data != NULL);
    if (data) put(name, data, size);
    free(data);
}

/* ---- messages, kept ---- */

typedef struct said {
    size_t count; /* every message; the first 256 kept */
    ferry_message_kind kind[256];
    char file[256][64];
    char text[256][160];
} said;

static void keep(void *user, const ferry_message *m)
{
    said *s = user;
    if (s->count >= 256) {
        s->count++;
        return;
    }
    s->kind[s->count] = m->kind;
    snprintf(s->file[s->count], sizeof s->file[0], "%s", m->file ? m->file : "(none)");
    snprintf(s->text[s->count], sizeof s->text[0], "%s", m->text);
    s->count++;
}

/* The message whose text holds `part` (its index), or -1. */
static int find(const said *s, ferry_message_kind kind, const char *part)
{
    for (size_t i = 0; i < s->count && i < 256; i++)
        if (s->kind[i] == kind && strstr(s->text[i], part)) return (int)i;
    return -1;
}

static ferry_asset *open_asset(const char *name)
{
    char path[256];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    ferry_asset *a = NULL;
    ferry_error err;
    CHECK_MSG(ferry_asset_open(path, NULL, &a, &err) == FERRY_OK, "%s: %s", name, err.message);
    return a;
}

/* A view of the file `name` in the folder, found through the folder's places. */
typedef struct opened {
    ferry_asset *asset;
    ferry_alamo_texture_folders folders;
    ferry_particle_view *view;
    said said;
    ferry_result result;
    ferry_error err;
} opened;

static void open_view(opened *o, const char *name)
{
    memset(o, 0, sizeof *o);
    char path[256];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    o->asset = open_asset(name);
    CHECK(ferry_alamo_texture_folders_open(path, NULL, 0, &o->folders, &o->err) == FERRY_OK);
    ferry_particle_view_options vo = {0};
    vo.places = &o->folders.places;
    vo.name = name;
    vo.message = keep;
    vo.user = &o->said;
    o->result = ferry_particle_view_open(o->asset, &vo, &o->view, &o->err);
}

static void close_view(opened *o)
{
    ferry_particle_view_free(o->view);
    ferry_alamo_texture_folders_close(&o->folders);
    ferry_asset_free(o->asset);
}

/* A 2 x 2 TGA (32 bits, top-left first), every pixel `bgra`. */
static void put_tga(const char *name, const uint8_t bgra[4])
{
    uint8_t tga[18 + 16] = {0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0, 2, 0, 32, 0x28};
    for (int i = 0; i < 4; i++) memcpy(tga + 18 + 4 * i, bgra, 4);
    put(name, tga, sizeof tga);
}

/* walker.alo with its proxies renamed and shown or hidden, as `out`. */
static void put_model(const char *out, const char *const names[3], const bool hidden[3])
{
    size_t size = 0;
    uint8_t *data = test_read_file(SAMPLES "/walker.alo", &size);
    ferry_alo_model *m = NULL;
    ferry_error err;
    CHECK(data && ferry_alo_read(data, size, NULL, &m, &err) == FERRY_OK);
    free(data);
    if (!m) return;
    CHECK(m->connections.proxy_count == 3);
    for (size_t i = 0; i < 3 && i < m->connections.proxy_count; i++) {
        m->connections.proxies[i].name = names[i];
        m->connections.proxies[i].is_hidden = hidden[i];
        m->connections.proxies[i].present |= FERRY_ALO_PROXY_HAS_HIDDEN;
    }
    ferry_buffer b = {0};
    CHECK(ferry_alo_write(m, &b, &err) == FERRY_OK);
    put(out, b.data, b.size);
    ferry_buffer_free(&b);
    ferry_alo_free(m);
}

static void test_system(void)
{
    opened o;
    open_view(&o, "p_walker_exhaust.alo");
    CHECK(o.result == FERRY_OK);
    CHECK(ferry_particle_view_count(o.view) == 1 && !ferry_particle_view_of_model(o.view));
    const ferry_particle_placed *p = ferry_particle_view_at(o.view, 0);
    CHECK(p && p->system == ferry_asset_object(o.asset) && !p->has_transform && !p->proxy && !p->path);
    CHECK(ferry_particle_view_at(o.view, 1) == NULL);
    close_view(&o);
}

static void test_model(void)
{
    opened o;
    open_view(&o, "walker.alo");
    CHECK(o.result == FERRY_OK && ferry_particle_view_of_model(o.view));
    /* Two of its three proxies are hidden: said, and left out. */
    CHECK(find(&o.said, FERRY_MESSAGE_NOTE, "proxy 'P_Smoke_Small_ALT1' is hidden: not drawn") >= 0);
    CHECK(find(&o.said, FERRY_MESSAGE_NOTE, "proxy 'P_Sparks_Head' is hidden: not drawn") >= 0);
    CHECK(o.said.count == 2 && strcmp(o.said.file[0], "walker.alo") == 0);
    CHECK(ferry_particle_view_count(o.view) == 1);
    const ferry_particle_placed *p = ferry_particle_view_at(o.view, 0);
    const ferry_alo_model *m = ferry_asset_object(o.asset);
    CHECK(p && p->proxy && strcmp(p->proxy, "P_Walker_Exhaust") == 0);
    CHECK(p && p->path && strcmp(p->path, "p_walker_exhaust.alo") == 0); /* found ignoring case */
    CHECK(p && p->system && p->system->emitter_count >= 1);
    /* At its bone's world place. */
    const ferry_alo_proxy *px = &m->connections.proxies[0];
    float *world = calloc(m->skeleton.bone_count * 16, sizeof *world);
    ferry_alo_bone_world_matrices(m, world);
    CHECK(p && p->has_transform && px->bone < m->skeleton.bone_count &&
          memcmp(p->transform, world + 16 * px->bone, sizeof p->transform) == 0);
    free(world);
    close_view(&o);

    /* Shown proxies whose files are missing or hold no particle system. */
    static const char *const names[3] = {"P_Walker_Exhaust", "crate", "P_Missing"};
    static const bool shown[3] = {false, false, false};
    put_model("mixed.alo", names, shown);
    open_view(&o, "mixed.alo");
    CHECK(o.result == FERRY_OK && ferry_particle_view_count(o.view) == 1);
    CHECK(find(&o.said, FERRY_MESSAGE_WARNING, "proxy 'crate': crate.alo is not a particle system") >= 0);
    CHECK(find(&o.said, FERRY_MESSAGE_WARNING, "proxy 'P_Missing': no particle file P_Missing.alo beside the model") >= 0);
    close_view(&o);

    /* Nothing placed: the view opens, drawing it is refused and said. */
    static const char *const junk_names[3] = {"junk.bin", "crate", "P_Missing"};
    static const bool junk_hidden[3] = {false, true, true};
    static const uint8_t junk[16] = "not a system...";
    put("junk.bin", junk, sizeof junk);
    put_model("junk.alo", junk_names, junk_hidden);
    open_view(&o, "junk.alo");
    CHECK(o.result == FERRY_OK && ferry_particle_view_count(o.view) == 0);
    CHECK(find(&o.said, FERRY_MESSAGE_WARNING, "proxy 'junk.bin': junk.bin is not a particle system: not a known format") >= 0);
    ferry_particle_view_render_options ro = {0};
    ferry_particle_view_render_report rep;
    size_t before = o.said.count;
    ro.frame = (ferry_particle_frame_fn)1; /* never called */
    CHECK(ferry_particle_view_render(o.view, &ro, &rep, &o.err) == FERRY_ERR_ARGUMENT);
    CHECK(strstr(o.err.message, "no particle system on the model's proxies to draw") != NULL);
    CHECK(o.said.count == before + 1 && o.said.kind[before] == FERRY_MESSAGE_ERROR && rep.frames == 0);
    close_view(&o);
}

static void test_textures(void)
{
    static const uint8_t blue[4] = {200, 100, 50, 255};
    put_tga("p_walker_smoke.tga", blue);
    put("bad.tga", "TGA?", 4);
    opened o;
    open_view(&o, "p_walker_exhaust.alo");
    const ferry_image *img = ferry_particle_view_texture("p_walker_smoke.tga", o.view);
    CHECK(img && img->width == 2 && img->height == 2 && img->rgba[0] == 50 && img->rgba[2] == 200);
    CHECK(o.said.count == 0);
    /* Found once, kept: the same image, wherever the cache grows to. */
    char name[32];
    for (int i = 0; i < 200; i++) {
        snprintf(name, sizeof name, "missing%d.tga", i);
        CHECK(ferry_particle_view_texture(name, o.view) == NULL);
    }
    CHECK(ferry_particle_view_texture("p_walker_smoke.tga", o.view) == img);
    CHECK(img->rgba[0] == 50 && img->rgba[1] == 100 && img->rgba[2] == 200 && img->rgba[3] == 255);
    CHECK(o.said.count == 200 && find(&o.said, FERRY_MESSAGE_WARNING, "texture 'missing7.tga' not found: drawn as a soft glow") >= 0);
    /* Missing names are said once. */
    CHECK(ferry_particle_view_texture("missing7.tga", o.view) == NULL && o.said.count == 200);
    close_view(&o);
    /* A file that does not decode: why, then not found. */
    open_view(&o, "p_walker_exhaust.alo");
    CHECK(ferry_particle_view_texture("bad.tga", o.view) == NULL);
    CHECK(o.said.count == 2 && find(&o.said, FERRY_MESSAGE_WARNING, "texture bad.tga: ") == 0 &&
          find(&o.said, FERRY_MESSAGE_WARNING, "texture 'bad.tga' not found") == 1);
    CHECK(ferry_particle_view_texture(NULL, o.view) == NULL && ferry_particle_view_texture("x", NULL) == NULL);
    close_view(&o);
}

typedef struct frames {
    size_t count;
    uint32_t width, height;
    uint8_t first[4];
    bool refuse;
} frames;

static bool take_frame(void *user, size_t index, const ferry_image *img, ferry_error *err)
{
    frames *f = user;
    if (f->refuse) {
        err->code = FERRY_ERR_IO;
        snprintf(err->message, sizeof err->message, "the disk is full");
        return false;
    }
    CHECK(index == f->count);
    f->count++;
    f->width = img->width;
    f->height = img->height;
    memcpy(f->first, img->rgba, 4);
    return true;
}

static void test_render(void)
{
    opened o;
    open_view(&o, "p_walker_exhaust.alo");
    frames f = {0};
    ferry_particle_view_render_options ro = {0};
    ro.sim.seed = 3;
    ro.time = 0.5;
    ro.fps = 10;
    ro.frames = 3;
    ro.render.width = 32;
    ro.render.height = 24;
    ro.frame = take_frame;
    ro.user = &f;
    ferry_particle_view_render_report rep;
    CHECK(ferry_particle_view_render(o.view, &ro, &rep, &o.err) == FERRY_OK);
    CHECK(f.count == 3 && f.width == 32 && f.height == 24 && rep.frames == 3 && rep.live_frames == 3);
    /* The last frame's particles: what the simulation alone has at 0.7 s. */
    ferry_particle_sim *sim = NULL;
    ferry_particle_sim_options so = {0};
    so.seed = 3;
    CHECK(ferry_particle_sim_create(ferry_asset_object(o.asset), &so, &sim, &o.err) == FERRY_OK);
    ferry_particle_sim_advance(sim, 0.5 + 2.0 / 10);
    CHECK(rep.live_last == ferry_particle_sim_count(sim) && rep.live_last > 0);
    ferry_particle_sim_free(sim);

    /* Nothing visible at 0 (its first particle is not yet seen): said; the
     * grey checkerboard by default, `plain` keeps the background given. */
    memset(&f, 0, sizeof f);
    ro.time = 0;
    ro.fps = 0;
    ro.frames = 0;
    o.said.count = 0;
    CHECK(ferry_particle_view_render(o.view, &ro, &rep, &o.err) == FERRY_OK);
    CHECK(f.count == 1 && rep.live_frames == 0 && rep.live_last <= 1);
    CHECK(find(&o.said, FERRY_MESSAGE_WARNING, "no live particles at this time: the image is background only") >= 0);
    CHECK(f.first[0] == f.first[1] && f.first[0] >= 80 && f.first[0] <= 124);
    ro.plain = true;
    f.count = 0;
    CHECK(ferry_particle_view_render(o.view, &ro, &rep, &o.err) == FERRY_OK);
    CHECK(f.first[0] == 0 && f.first[1] == 0 && f.first[2] == 0);
    ro.plain = false;

    /* A limit reached is a warning. */
    ro.time = 1;
    ro.sim.max_particles = 1;
    o.said.count = 0;
    f.count = 0;
    CHECK(ferry_particle_view_render(o.view, &ro, &rep, &o.err) == FERRY_OK);
    CHECK(o.said.count >= 1 && o.said.kind[0] == FERRY_MESSAGE_WARNING && rep.live_last <= 1);
    ro.sim.max_particles = 0;

    /* The frame callback's failure ends the drawing with its error, unsaid. */
    f.refuse = true;
    o.said.count = 0;
    CHECK(ferry_particle_view_render(o.view, &ro, &rep, &o.err) == FERRY_ERR_IO);
    CHECK(strcmp(o.err.message, "the disk is full") == 0 && o.said.count == 0 && rep.frames == 0);

    /* Bad arguments. */
    ro.frame = NULL;
    CHECK(ferry_particle_view_render(o.view, &ro, &rep, &o.err) == FERRY_ERR_ARGUMENT);
    CHECK(ferry_particle_view_render(NULL, &ro, &rep, &o.err) == FERRY_ERR_ARGUMENT);
    CHECK(ferry_particle_view_render(o.view, NULL, NULL, &o.err) == FERRY_ERR_ARGUMENT);
    close_view(&o);
}

static void test_bad_assets(void)
{
    opened o;
    open_view(&o, "walker_walk_00.ala");
    CHECK(o.result == FERRY_ERR_ARGUMENT && o.view == NULL);
    CHECK(strcmp(o.err.message, "this is an ALA animation, not a particle system or a model") == 0);
    CHECK(o.said.count == 1 && o.said.kind[0] == FERRY_MESSAGE_ERROR && strcmp(o.said.file[0], "walker_walk_00.ala") == 0);
    close_view(&o);
    /* An asset with no object (bytes only): no system to show. */
    ferry_asset *bytes = NULL;
    char path[256];
    snprintf(path, sizeof path, "%s/p_walker_exhaust.alo", dir);
    CHECK(ferry_asset_open(path, &(ferry_asset_options){.bytes_only = true}, &bytes, &o.err) == FERRY_OK);
    ferry_particle_view *v = (ferry_particle_view *)1;
    CHECK(ferry_particle_view_open(bytes, NULL, &v, &o.err) == FERRY_ERR_ARGUMENT && v == NULL);
    CHECK(strstr(o.err.message, "without its object") != NULL);
    ferry_asset_free(bytes);
    CHECK(ferry_particle_view_open(NULL, NULL, &v, &o.err) == FERRY_ERR_ARGUMENT);
    /* No places: the model's proxies are not found. */
    ferry_asset *model = open_asset("walker.alo");
    CHECK(ferry_particle_view_open(model, NULL, &v, &o.err) == FERRY_OK && ferry_particle_view_count(v) == 0);
    ferry_particle_view_free(v);
    ferry_particle_view_free(NULL);
    ferry_asset_free(model);
}

int main(void)
{
    if (!test_make_temp_dir("ferry-view", dir, sizeof dir)) return 1;
    copy_sample("walker.alo");
    copy_sample("p_walker_exhaust.alo");
    copy_sample("walker_walk_00.ala");
    copy_sample("crate.alo");
    test_system();
    test_model();
    test_textures();
    test_render();
    test_bad_assets();
    CHECK(test_remove_tree(dir));
    TEST_END();
}
