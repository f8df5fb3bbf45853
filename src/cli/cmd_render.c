/* ferry render: a particle system drawn at a moment (PNG), or over time
 * (animated GIF), by the library's software renderer. */
#define _POSIX_C_SOURCE 200809L
#include "cli.h"

#include <ferry/image.h>
#include <ferry/particle_view.h>

#include <gif_lib.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MAX_FRAMES 2000
#define MAX_SIDE 4096
#define CLI_STR_(x) #x
#define CLI_STR(x) CLI_STR_(x)

/* ---- GIF into memory ---- */

static int gif_write(GifFileType *gif, const GifByteType *data, int len)
{
    if (len <= 0) return len;
    return ferry_buffer_append(gif->UserData, data, (size_t)len) ? len : 0;
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

/* The picture being made: one PNG, or an animated GIF built frame by frame. */
typedef struct frames_out {
    bool gif_wanted;
    GifFileType *gif;
    int gif_error;
    bool gif_failed;
    ferry_buffer buf;
    const char *out;
    uint32_t width, height;
    double fps;
} frames_out;

/* A GIF into memory, looping forever (the NETSCAPE2.0 application extension). */
static bool gif_begin(frames_out *o)
{
    o->gif = EGifOpen(&o->buf, gif_write, &o->gif_error);
    if (!o->gif) return false;
    EGifSetGifVersion(o->gif, true);
    static const GifByteType loop[3] = {1, 0, 0};
    return EGifPutScreenDesc(o->gif, (int)o->width, (int)o->height, 8, 0, NULL) == GIF_OK &&
           EGifPutExtensionLeader(o->gif, APPLICATION_EXT_FUNC_CODE) == GIF_OK &&
           EGifPutExtensionBlock(o->gif, 11, "NETSCAPE2.0") == GIF_OK && EGifPutExtensionBlock(o->gif, 3, loop) == GIF_OK &&
           EGifPutExtensionTrailer(o->gif) == GIF_OK;
}

/* Each frame the view draws (ferry_particle_frame_fn): encoded as it comes. */
static bool put_frame(void *user, size_t f, const ferry_image *img, ferry_error *err)
{
    frames_out *o = user;
    if (o->gif_wanted) {
        /* Delays in hundredths: each frame ends where its time rounds to,
         * so the animation keeps its duration at any fps. */
        int delay = (int)(floor((double)(f + 1) * 100 / o->fps + 0.5) - floor((double)f * 100 / o->fps + 0.5));
        if ((f == 0 && !gif_begin(o)) || !gif_frame(o->gif, img, delay)) {
            o->gif_failed = true;
            err->code = FERRY_ERR_IO;
            return false;
        }
    } else if (ferry_image_encode_png(img, NULL, &o->buf, err) != FERRY_OK) {
        cli_print_error(o->out, err);
        return false;
    }
    return true;
}

static int take_size(const char *cmd, const char *name, const char *text, void *to)
{
    (void)cmd, (void)name;
    uint32_t *size = to;
    char *end;
    unsigned long a = strtoul(text, &end, 10);
    if (end == text || (*end != 'x' && *end != 'X')) return CLI_REFUSED;
    const char *rest = end + 1;
    unsigned long b = strtoul(rest, &end, 10);
    if (end == rest || *end || a < 1 || b < 1 || a > MAX_SIDE || b > MAX_SIDE) return CLI_REFUSED;
    size[0] = (uint32_t)a;
    size[1] = (uint32_t)b;
    return CLI_OK;
}

/* Folders only: render's textures are not looked up in archives. */
static int take_folder(const char *cmd, const char *name, const char *value, void *to)
{
    ferry_path_info st;
    ferry_error ignored;
    if (ferry_path_stat(value, true, &st, &ignored) != FERRY_OK || st.kind != FERRY_PATH_FOLDER)
        return cli_usage_error(cmd, "--textures %s: not a folder (render searches folders, not archives)", CLI_TXT(value));
    return cli_take_item(cmd, name, value, to);
}

/* IN and OUT given, OUT a .png (the state at one time) or a .gif with its
 * --duration and --fps: its frames' count in *frames. CLI_OK, or the
 * usage error printed. */
static int check_output(const char *in, const char *out, const cli_number *duration, const cli_number *fps,
                        size_t *frames)
{
    if (!in || !out) return cli_usage_error("render", "give a particle file and an output (.png or .gif)");
    bool gif = cli_has_ext(out, ".gif");
    if (!gif && !cli_has_ext(out, ".png")) return cli_usage_error("render", "the output must be named .png or .gif");
    if (gif && (!duration->text || !fps->text))
        return cli_usage_error("render", "a .gif needs --duration D and --fps F");
    if (!gif && (duration->text || fps->text))
        return cli_usage_error("render", "--duration and --fps make an animation: name the output .gif");
    *frames = 1;
    if (!gif) return CLI_OK;
    if (!(fps->value >= 1 && fps->value <= 100)) return cli_usage_error("render", "--fps must be 1 to 100");
    double nf = floor(duration->value * fps->value + 0.5);
    if (nf < 1 || nf > MAX_FRAMES)
        return cli_usage_error("render", "--duration x --fps must give 1 to %d frames (gives %.0f)", MAX_FRAMES, nf);
    *frames = (size_t)nf;
    return CLI_OK;
}

int cmd_render(int argc, char **argv)
{
    const char *files[2] = {NULL, NULL}, *in, *out;
    cli_number at_time = {0}, at_duration = {0}, at_fps = {0};
    uint64_t seed = 0;
    uint32_t size[2] = {512, 512};
    float ground = 0;
    bool no_ground = false;
    const char **dirs = calloc((size_t)argc + 1, sizeof *dirs);
    cli_list textures = {dirs, 0};
    if (!dirs) return CLI_INVALID;
    const cli_option options[] = {
        CLI_FLAG("--no-ground", &no_ground), CLI_VALUE("--ground", &ground, cli_take_height, "--ground needs a finite height"),
        CLI_VALUE("--time", &at_time, cli_take_seconds, "%s needs a finite number, 0 or more"),
        CLI_VALUE("--duration", &at_duration, cli_take_seconds, "%s needs a finite number, 0 or more"),
        CLI_VALUE("--fps", &at_fps, cli_take_seconds, "%s needs a finite number, 0 or more"),
        CLI_VALUE("--seed", &seed, cli_take_seed, "--seed needs an unsigned integer"),
        CLI_VALUE("--size", size, take_size, "--size needs WxH, 1 to " CLI_STR(MAX_SIDE) " pixels a side (e.g. 640x480)"),
        CLI_VALUE("--textures", &textures, take_folder, "--textures needs a folder"), {0}};
    size_t count;
    int status = cli_parse(&(cli_args){"render", options, cli_help_render, NULL, files, 2,
                                       "one particle file and one output at a time"}, argc, argv, &count);
    in = files[0], out = files[1];
    size_t frames;
    if (status == CLI_OK) status = check_output(in, out, &at_duration, &at_fps, &frames);
    if (status != CLI_OK) {
        status = CLI_STATUS(status);
        goto out;
    }
    bool gif = cli_has_ext(out, ".gif");

    status = CLI_INVALID;
    cli_asset asset;
    ferry_error err;
    if (!cli_asset_load(in, &asset, NULL)) goto out;
    /* The particle files on a model's proxies and every texture are found
     * as the game finds them: beside IN, in ../Textures, in each --textures. */
    ferry_alamo_texture_folders folders;
    bool folders_open = ferry_alamo_texture_folders_open(in, dirs, textures.count, &folders, &err) == FERRY_OK;
    ferry_particle_view_options vo = {0};
    vo.places = folders_open ? &folders.places : NULL;
    vo.name = in;
    vo.message = cli_print_message;
    vo.user = "render";
    ferry_particle_view *view = NULL;
    frames_out fo = {.gif_wanted = gif, .out = out, .width = size[0], .height = size[1], .fps = at_fps.value};
    if (ferry_particle_view_open(asset.handle, &vo, &view, &err) != FERRY_OK) goto done;
    ferry_particle_view_render_options ro = {0};
    ro.sim.seed = seed;
    ro.sim.ground_z = ground;
    ro.sim.no_ground = no_ground;
    ro.time = at_time.value;
    ro.fps = gif ? at_fps.value : 0;
    ro.frames = frames;
    ro.render.width = size[0];
    ro.render.height = size[1];
    ro.frame = put_frame;
    ro.user = &fo;
    ferry_particle_view_render_report rep;
    if (ferry_particle_view_render(view, &ro, &rep, &err) != FERRY_OK) {
        if (fo.gif_failed) goto gif_fail;
        goto done; /* said by the view, or by put_frame */
    }
    if (fo.gif) {
        bool closed = EGifCloseFile(fo.gif, &fo.gif_error) == GIF_OK;
        fo.gif = NULL; /* freed, closed or not */
        if (!closed) goto gif_fail;
    }
    if (fo.buf.failed) {
        fprintf(stderr, "%s: error: out of memory\n", CLI_TXT(out));
        goto done;
    }
    status = cli_write_output(in, out, &fo.buf);
    if (status == CLI_OK)
        fprintf(stderr, "%s: %s: %zu frame%s %ux%u, %zu live particles at the %s%s\n", CLI_TXT(in), CLI_TXT(out),
                frames, frames == 1 ? "" : "s", size[0], size[1], rep.live_last, gif ? "last frame" : "time drawn",
                ferry_particle_view_of_model(view) ? " (particle systems on proxies only: the model's meshes are not drawn)"
                                                   : "");
    goto done;
gif_fail:
    fprintf(stderr, "%s: error: GIF encoding failed: %s\n", CLI_TXT(out),
            GifErrorString(fo.gif ? fo.gif->Error : fo.gif_error) ? GifErrorString(fo.gif ? fo.gif->Error : fo.gif_error)
                                                                   : "unknown");
    status = CLI_INVALID;
done:
    if (fo.gif) EGifCloseFile(fo.gif, NULL);
    ferry_buffer_free(&fo.buf);
    ferry_particle_view_free(view);
    if (folders_open) ferry_alamo_texture_folders_close(&folders);
    cli_asset_free(&asset);
out:
    free(dirs);
    return status;
}
