/* ferry render: a particle system drawn at a moment (PNG), or over time
 * (animated GIF), by the library's software renderer. */
#define _POSIX_C_SOURCE 200809L
#include "cli.h"

#include <ferry/image.h>
#include <ferry/particle_sim.h>

#include <gif_lib.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static const char render_usage[] =
    "usage: ferry render FILE.alo|MODEL.alo OUT.png [--time T] [--seed S] [--size WxH] [--textures DIR]...\n"
    "                    [--ground Z | --no-ground]\n"
    "       ferry render FILE.alo OUT.gif --duration D --fps F [--time T] [--seed S] [--size WxH]\n"
    "                    [--textures DIR]...\n"
    "\n"
    "Simulates the particle system and draws it with a software renderer:\n"
    "camera-facing sprites with their textures (TGA or DDS, found as the game\n"
    "finds them: beside the file, in ../Textures, then in each --textures DIR;\n"
    "a missing texture is drawn as a soft glow and warned about), in\n"
    "each emitter's blend mode, over a grey checkerboard (see-through smoke of\n"
    "any grey shows on it), the camera\n"
    "framed on the live particles (on all frames of an animation).\n"
    "A model is drawn as the particle systems on its proxies (found beside it,\n"
    "placed at their bones; hidden proxies left out), without its meshes.\n"
    "OUT.png: the state at T. OUT.gif: an animation of D seconds at F frames\n"
    "per second from T (round(D x F) frames, looping).\n"
    "\n"
    "  --time T        seconds since the system's creation (default 0; the start\n"
    "                  of an animation)\n"
    "  --seed S        random seed (default 0)\n"
    "  --ground Z      the ground plane particles interact with is z = Z (default 0)\n"
    "  --no-ground     no ground: ground interaction never happens\n"
    "  --size WxH      image size in pixels (default 512x512, at most 4096 a side)\n"
    "  --textures DIR  another folder to search for textures (repeatable; folders\n"
    "                  only, not archives)\n"
    "  --duration D    seconds of animation (GIF)\n"
    "  --fps F         frames per second (GIF; 1 to 100)\n";

#define MAX_FRAMES 2000
#define MAX_SIDE 4096

typedef struct tex_entry {
    char *name;
    ferry_image image;
    bool found;
} tex_entry;

typedef struct tex_cache {
    ferry_alamo_texture_folders folders;
    bool open;
    /* Each entry allocated on its own: the renderer keeps the images it
     * was given while it asks for more, so an entry never moves (a grown
     * array of entries moved them: freed memory was drawn from). */
    tex_entry **items;
    size_t count;
    const char *file;
} tex_cache;

static const ferry_image *texture_lookup(const char *name, void *user)
{
    tex_cache *c = user;
    for (size_t i = 0; i < c->count; i++)
        if (strcmp(c->items[i]->name, name) == 0) return c->items[i]->found ? &c->items[i]->image : NULL;
    tex_entry **items = realloc(c->items, (c->count + 1) * sizeof *items);
    if (!items) return NULL;
    c->items = items;
    tex_entry *t = calloc(1, sizeof *t);
    if (!t) return NULL;
    if (!(t->name = strdup(name))) {
        free(t);
        return NULL;
    }
    items[c->count++] = t;
    const ferry_file_source *src = NULL;
    char path[4096];
    ferry_error err;
    if (c->open && ferry_alamo_texture_find(&c->folders.places, name, &src, path, sizeof path)) {
        uint8_t *data = NULL;
        size_t size = 0;
        if (ferry_file_source_load(src, path, (size_t)256 << 20, &data, &size, &err) == FERRY_OK) {
            if (ferry_image_decode(data, size, NULL, &t->image, &err) == FERRY_OK)
                t->found = true;
            else
                fprintf(stderr, "%s: warning: texture %s: %s\n", CLI_TXT(c->file), CLI_TXT(path), err.message);
            ferry_file_source_release(src, data, size);
        }
    }
    if (!t->found)
        fprintf(stderr, "%s: warning: texture '%s' not found: drawn as a soft glow\n", CLI_TXT(c->file),
                CLI_TXT(name));
    return t->found ? &t->image : NULL;
}

static void tex_cache_free(tex_cache *c)
{
    for (size_t i = 0; i < c->count; i++) {
        free(c->items[i]->name);
        ferry_image_free(&c->items[i]->image);
        free(c->items[i]);
    }
    free(c->items);
    if (c->open) ferry_alamo_texture_folders_close(&c->folders);
}

/* ---- GIF into memory ---- */

typedef struct mem_out {
    ferry_buffer *buf;
} mem_out;

static int gif_write(GifFileType *gif, const GifByteType *data, int len)
{
    ferry_buffer *b = gif->UserData;
    if (len <= 0) return len;
    if (b->size + (size_t)len > b->capacity) {
        size_t cap = b->capacity ? b->capacity * 2 : 65536;
        while (cap < b->size + (size_t)len) cap *= 2;
        uint8_t *d = realloc(b->data, cap);
        if (!d) {
            b->failed = true;
            return 0;
        }
        b->data = d;
        b->capacity = cap;
    }
    memcpy(b->data + b->size, data, (size_t)len);
    b->size += (size_t)len;
    return len;
}

/* Appends one frame (its own 256-colour palette) to an open GIF. */
static bool gif_frame(GifFileType *gif, const ferry_image *img, int delay_cs)
{
    size_t n = (size_t)img->width * img->height;
    GifByteType *r = malloc(n), *g = malloc(n), *b = malloc(n), *idx = malloc(n);
    GifColorType colors[256];
    int map_size = 256;
    bool ok = r && g && b && idx;
    if (ok) {
        for (size_t i = 0; i < n; i++) {
            r[i] = img->rgba[i * 4];
            g[i] = img->rgba[i * 4 + 1];
            b[i] = img->rgba[i * 4 + 2];
        }
        ok = GifQuantizeBuffer(img->width, img->height, &map_size, r, g, b, idx, colors) == GIF_OK;
    }
    ColorMapObject *map = ok ? GifMakeMapObject(256, colors) : NULL;
    ok = ok && map;
    if (ok) {
        /* Graphic control: the delay, each frame replacing the last. */
        GifByteType gce[4] = {(GifByteType)(1 << 2), (GifByteType)(delay_cs & 0xff), (GifByteType)(delay_cs >> 8), 0};
        ok = EGifPutExtension(gif, GRAPHICS_EXT_FUNC_CODE, 4, gce) == GIF_OK &&
             EGifPutImageDesc(gif, 0, 0, (int)img->width, (int)img->height, false, map) == GIF_OK;
        for (uint32_t y = 0; ok && y < img->height; y++)
            ok = EGifPutLine(gif, idx + (size_t)y * img->width, (int)img->width) == GIF_OK;
    }
    if (map) GifFreeMapObject(map);
    free(r);
    free(g);
    free(b);
    free(idx);
    return ok;
}

static bool parse_size(const char *text, uint32_t *w, uint32_t *h)
{
    char *end;
    unsigned long a = strtoul(text, &end, 10);
    if (end == text || (*end != 'x' && *end != 'X')) return false;
    const char *rest = end + 1;
    unsigned long b = strtoul(rest, &end, 10);
    if (end == rest || *end || a < 1 || b < 1 || a > MAX_SIDE || b > MAX_SIDE) return false;
    *w = (uint32_t)a;
    *h = (uint32_t)b;
    return true;
}

static ferry_particle_sim *new_sim(const ferry_particle_system *s, const float *transform, uint64_t seed, float ground,
                                  bool no_ground, const char *path)
{
    ferry_particle_sim_options opt;
    memset(&opt, 0, sizeof opt);
    opt.seed = seed;
    opt.ground_z = ground;
    opt.no_ground = no_ground;
    if (transform) {
        opt.has_transform = true;
        memcpy(opt.transform, transform, sizeof opt.transform);
    }
    ferry_particle_sim *sim = NULL;
    ferry_error err;
    if (ferry_particle_sim_create(s, &opt, &sim, &err) != FERRY_OK) cli_print_error(path, &err);
    return sim;
}

static void grow(float lo[3], float hi[3], bool *any, const float a[3], const float b[3])
{
    for (int k = 0; k < 3; k++) {
        if (!*any || a[k] < lo[k]) lo[k] = a[k];
        if (!*any || b[k] > hi[k]) hi[k] = b[k];
    }
    *any = true;
}

/* The systems drawn: the file's own, or those on a model's proxies. */
typedef struct placed {
    cli_asset asset;      /* a proxy's particle file (unused for the file itself) */
    const ferry_particle_system *system;
    float transform[16];
    bool has_transform;
    ferry_particle_sim *sim;
} placed;

/* Finds each proxy's particle system beside the model (its name, with .alo
 * added when it has no extension), placed at its bone. Hidden proxies are
 * left out, as the game shows them only when told to. */
static size_t model_systems(const char *in, const ferry_alo_model *model, tex_cache *cache, placed *out, size_t cap)
{
    size_t n = 0;
    float *world = malloc((model->skeleton.bone_count ? model->skeleton.bone_count : 1) * 16 * sizeof *world);
    if (!world) return 0;
    ferry_alo_bone_world_matrices(model, world);
    for (size_t i = 0; i < model->connections.proxy_count && n < cap; i++) {
        const ferry_alo_proxy *px = &model->connections.proxies[i];
        if (!px->name || !px->name[0]) continue;
        if (px->is_hidden) {
            fprintf(stderr, "%s: proxy '%s' is hidden: not drawn\n", CLI_TXT(in), CLI_TXT(px->name));
            continue;
        }
        char name[1024];
        const char *dot = strrchr(px->name, '.');
        snprintf(name, sizeof name, "%s%s", px->name, dot ? "" : ".alo");
        const ferry_file_source *src = NULL;
        char path[4096];
        uint8_t *data = NULL;
        size_t size = 0;
        ferry_error err;
        if (!cache->open || !ferry_alamo_texture_find(&cache->folders.places, name, &src, path, sizeof path) ||
            ferry_file_source_load(src, path, CLI_MAX_INPUT, &data, &size, &err) != FERRY_OK) {
            fprintf(stderr, "%s: warning: proxy '%s': no particle file %s beside the model\n", CLI_TXT(in),
                    CLI_TXT(px->name), CLI_TXT(name));
            continue;
        }
        placed *p = &out[n];
        memset(p, 0, sizeof *p);
        bool ok = cli_asset_read(data, size, &p->asset, &err);
        ferry_file_source_release(src, data, size);
        if (!ok || !p->asset.particles) {
            fprintf(stderr, "%s: warning: proxy '%s': %s is not a particle system%s%s\n", CLI_TXT(in),
                    CLI_TXT(px->name), CLI_TXT(path), ok ? "" : ": ", ok ? "" : err.message);
            if (ok) cli_asset_free(&p->asset);
            continue;
        }
        p->system = p->asset.particles;
        if (px->bone < model->skeleton.bone_count) {
            memcpy(p->transform, &world[(size_t)px->bone * 16], sizeof p->transform);
            p->has_transform = true;
        }
        n++;
    }
    free(world);
    return n;
}

int cmd_render(int argc, char **argv)
{
    const char *in = NULL, *out = NULL;
    double time = 0, duration = 0, fps = 0;
    bool have_duration = false, have_fps = false;
    uint64_t seed = 0;
    uint32_t width = 512, height = 512;
    float ground = 0;
    bool no_ground = false;
    const char **dirs = calloc((size_t)argc + 1, sizeof *dirs);
    size_t dir_count = 0;
    if (!dirs) return CLI_INVALID;
    int status = CLI_USAGE;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (cli_is_help(a)) {
            fputs(render_usage, stdout);
            free(dirs);
            return CLI_OK;
        }
        bool has_value = i + 1 < argc;
        int bad = CLI_OK;
        if (cli_parse_ground("render", argc, argv, &i, &ground, &no_ground, &bad)) {
            if (bad != CLI_OK) goto out;
        } else if (strcmp(a, "--time") == 0 || strcmp(a, "--duration") == 0 || strcmp(a, "--fps") == 0) {
            double v;
            if (!has_value || !cli_parse_seconds(argv[i + 1], &v)) {
                cli_usage_error("render", "%s needs a finite number, 0 or more", a);
                goto out;
            }
            i++;
            if (a[2] == 't') time = v;
            else if (a[2] == 'd') duration = v, have_duration = true;
            else fps = v, have_fps = true;
        } else if (strcmp(a, "--seed") == 0) {
            if (!has_value || !cli_parse_seed(argv[i + 1], &seed)) {
                cli_usage_error("render", "--seed needs an unsigned integer");
                goto out;
            }
            i++;
        } else if (strcmp(a, "--size") == 0) {
            if (!has_value || !parse_size(argv[i + 1], &width, &height)) {
                cli_usage_error("render", "--size needs WxH, 1 to %d pixels a side (e.g. 640x480)", MAX_SIDE);
                goto out;
            }
            i++;
        } else if (strcmp(a, "--textures") == 0) {
            if (!has_value) {
                cli_usage_error("render", "--textures needs a folder");
                goto out;
            }
            struct stat st;
            if (stat(argv[i + 1], &st) != 0 || !S_ISDIR(st.st_mode)) {
                cli_usage_error("render", "--textures %s: not a folder (render searches folders, not archives)",
                                CLI_TXT(argv[i + 1]));
                goto out;
            }
            dirs[dir_count++] = argv[++i];
        } else if (a[0] == '-' && a[1]) {
            cli_usage_error("render", "unknown option '%s'", a);
            goto out;
        } else if (!in) {
            in = a;
        } else if (!out) {
            out = a;
        } else {
            cli_usage_error("render", "one particle file and one output at a time");
            goto out;
        }
    }
    if (!in || !out) {
        cli_usage_error("render", "give a particle file and an output (.png or .gif)");
        goto out;
    }
    bool gif = cli_has_ext(out, ".gif");
    if (!gif && !cli_has_ext(out, ".png")) {
        cli_usage_error("render", "the output must be named .png or .gif");
        goto out;
    }
    if (gif && (!have_duration || !have_fps)) {
        cli_usage_error("render", "a .gif needs --duration D and --fps F");
        goto out;
    }
    if (!gif && (have_duration || have_fps)) {
        cli_usage_error("render", "--duration and --fps make an animation: name the output .gif");
        goto out;
    }
    size_t frames = 1;
    if (gif) {
        if (!(fps >= 1 && fps <= 100)) {
            cli_usage_error("render", "--fps must be 1 to 100");
            goto out;
        }
        double nf = floor(duration * fps + 0.5);
        if (nf < 1 || nf > MAX_FRAMES) {
            cli_usage_error("render", "--duration x --fps must give 1 to %d frames (gives %.0f)", MAX_FRAMES, nf);
            goto out;
        }
        frames = (size_t)nf;
    }

    status = CLI_INVALID;
    cli_asset asset;
    ferry_error err;
    if (!cli_asset_load(in, &asset, &err)) {
        cli_print_error(in, &err);
        goto out;
    }
    tex_cache cache;
    memset(&cache, 0, sizeof cache);
    cache.file = in;
    ferry_image img = {0};
    ferry_buffer buf = {0};
    GifFileType *gf = NULL;
    placed *systems = NULL;
    size_t system_count = 0;
    ferry_particle_sim **sims = NULL;
    if (!asset.particles && !asset.model) {
        fprintf(stderr, "%s: error: this is an %s, not a particle system or a model\n", CLI_TXT(in),
                ferry_alamo_kind_name(asset.kind));
        goto done;
    }
    cache.open = ferry_alamo_texture_folders_open(in, dirs, dir_count, &cache.folders, &err) == FERRY_OK;
    size_t cap = asset.model ? asset.model->connections.proxy_count : 1;
    systems = calloc(cap ? cap : 1, sizeof *systems);
    sims = calloc(cap ? cap : 1, sizeof *sims);
    if (!systems || !sims) goto done;
    if (asset.particles) {
        systems[0].system = asset.particles;
        system_count = 1;
    } else {
        system_count = model_systems(in, asset.model, &cache, systems, cap);
        if (!system_count) {
            fprintf(stderr, "%s: error: no particle system on the model's proxies to draw (the model's meshes are "
                            "not drawn)\n",
                    CLI_TXT(in));
            goto done;
        }
    }

    /* Pass 1: where the particles are over every frame, for the camera. */
    float lo[3] = {0, 0, 0}, hi[3] = {0, 0, 0};
    bool any = false;
    size_t live_frames = 0;
    for (size_t k = 0; k < system_count; k++) {
        placed *p = &systems[k];
        if (!(sims[k] = new_sim(p->system, p->has_transform ? p->transform : NULL, seed, ground, no_ground, in)))
            goto done;
    }
    for (size_t f = 0; f < frames; f++) {
        bool live = false;
        for (size_t k = 0; k < system_count; k++) {
            ferry_particle_sim_advance(sims[k], time + (double)f / (fps > 0 ? fps : 1));
            float a[3], b[3];
            if (ferry_particle_sim_bounds(sims[k], a, b)) {
                grow(lo, hi, &any, a, b);
                live = true;
            }
        }
        live_frames += live;
    }
    for (size_t k = 0; k < system_count; k++) {
        cli_sim_warnings(CLI_TXT(in), sims[k]);
        ferry_particle_sim_free(sims[k]);
        sims[k] = NULL;
    }
    if (!live_frames)
        fprintf(stderr, "%s: warning: no live particles at %s: the image is background only\n", CLI_TXT(in),
                gif ? "any frame" : "this time");

    ferry_particle_render_options ro;
    memset(&ro, 0, sizeof ro);
    ro.width = width;
    ro.height = height;
    /* A grey checkerboard: smoke of any grey shows on one of its cells. */
    ro.background[0] = ro.background[1] = ro.background[2] = 0.32f;
    ro.background2[0] = ro.background2[1] = ro.background2[2] = 0.48f;
    ro.checker = width / 16 > 4 ? width / 16 : 4;
    ro.texture = texture_lookup;
    ro.user = &cache;
    ferry_particle_camera_frame(lo, hi, (float)width / (float)height, &ro.camera);

    for (size_t k = 0; k < system_count; k++) {
        placed *p = &systems[k];
        if (!(sims[k] = new_sim(p->system, p->has_transform ? p->transform : NULL, seed, ground, no_ground, in)))
            goto done;
    }
    int gif_err = 0;
    if (gif) {
        gf = EGifOpen(&buf, gif_write, &gif_err);
        if (!gf) goto gif_fail;
        EGifSetGifVersion(gf, true);
        if (EGifPutScreenDesc(gf, (int)width, (int)height, 8, 0, NULL) != GIF_OK) goto gif_fail;
        /* Loop forever (the NETSCAPE2.0 application extension). */
        static const GifByteType loop[3] = {1, 0, 0};
        if (EGifPutExtensionLeader(gf, APPLICATION_EXT_FUNC_CODE) != GIF_OK ||
            EGifPutExtensionBlock(gf, 11, "NETSCAPE2.0") != GIF_OK || EGifPutExtensionBlock(gf, 3, loop) != GIF_OK ||
            EGifPutExtensionTrailer(gf) != GIF_OK)
            goto gif_fail;
    }
    size_t live_last = 0;
    for (size_t f = 0; f < frames; f++) {
        double t = time + (double)f / (fps > 0 ? fps : 1);
        live_last = 0;
        for (size_t k = 0; k < system_count; k++) {
            ferry_particle_sim_advance(sims[k], t);
            live_last += ferry_particle_sim_count(sims[k]);
        }
        if (ferry_particle_render_many((const ferry_particle_sim *const *)sims, system_count, &ro, &img, &err) !=
            FERRY_OK) {
            cli_print_error(in, &err);
            goto done;
        }
        if (gif) {
            /* Delays in hundredths: each frame ends where its time rounds to,
             * so the animation keeps its duration at any fps. */
            int delay = (int)(floor((double)(f + 1) * 100 / fps + 0.5) - floor((double)f * 100 / fps + 0.5));
            if (!gif_frame(gf, &img, delay)) goto gif_fail;
        } else if (ferry_image_encode_png(&img, &buf, &err) != FERRY_OK) {
            cli_print_error(out, &err);
            goto done;
        }
        ferry_image_free(&img);
    }
    if (gf) {
        int e = 0;
        if (EGifCloseFile(gf, &e) != GIF_OK) {
            gf = NULL;
            gif_err = e;
            goto gif_fail;
        }
        gf = NULL;
    }
    if (buf.failed) {
        fprintf(stderr, "%s: error: out of memory\n", CLI_TXT(out));
        goto done;
    }
    status = cli_write_output(in, out, &buf);
    if (status == CLI_OK)
        fprintf(stderr, "%s: %s: %zu frame%s %ux%u, %zu live particles at the %s%s\n", CLI_TXT(in), CLI_TXT(out),
                frames, frames == 1 ? "" : "s", width, height, live_last, gif ? "last frame" : "time drawn",
                asset.model ? " (particle systems on proxies only: the model's meshes are not drawn)" : "");
    goto done;
gif_fail:
    fprintf(stderr, "%s: error: GIF encoding failed: %s\n", CLI_TXT(out),
            GifErrorString(gf ? gf->Error : gif_err) ? GifErrorString(gf ? gf->Error : gif_err) : "unknown");
    status = CLI_INVALID;
done:
    if (gf) EGifCloseFile(gf, NULL);
    ferry_image_free(&img);
    ferry_buffer_free(&buf);
    for (size_t k = 0; k < system_count; k++) {
        if (sims) ferry_particle_sim_free(sims[k]);
        if (asset.model) cli_asset_free(&systems[k].asset);
    }
    free(sims);
    free(systems);
    tex_cache_free(&cache);
    cli_asset_free(&asset);
out:
    free(dirs);
    return status;
}
