/* Authoring for the game (author.h): a scene as an ALO model with its ALA
 * animations and DDS textures, an animation as an ALA file, an ALM built
 * from a scene or an ALO model; each file checked before it is written,
 * what happens said through messages, what was made in a report. */
#include "info_json.h"
#include "message.h"

#include "../core/platform.h"

#include <ferry/author.h>

#include <stdlib.h>
#include <string.h>

static ferry_result fail_nomem(ferry_error *e)
{
    fy_error_set(e, FERRY_ERR_NOMEM, FERRY_NO_OFFSET, NULL, "out of memory");
    return FERRY_ERR_NOMEM;
}

static ferry_result fail_argument(ferry_error *e, const char *what)
{
    fy_error_set(e, FERRY_ERR_ARGUMENT, FERRY_NO_OFFSET, NULL, "%s", what);
    return FERRY_ERR_ARGUMENT;
}

/* What every job keeps: its error, how it names its input, where its
 * messages go. */
typedef struct job {
    ferry_error e;
    const char *in;
    fy_messenger say;
} job;

static ferry_result job_begin(job *j, const char *name, ferry_message_fn fn, void *user, bool ready)
{
    fy_error_clear(&j->e);
    j->in = name ? name : "scene";
    j->say = (fy_messenger){fn, user};
    return ready ? FERRY_OK : fail_argument(&j->e, "an input or an output is missing");
}

/* The report (as far as the job got) and the error handed back. */
static ferry_result job_end(const job *j, ferry_result r, const void *rep, void *report, size_t size, ferry_error *err)
{
    if (report) memcpy(report, rep, size);
    if (err) *err = j->e;
    return r;
}

/* ---- a scene's animation -> ALA ---- */

/* The ALA converter's problems as `ferry convert` has always shown them:
 * "PLACE [RULE]: MESSAGE". */
static void say_ala_diagnostics(const fy_messenger *say, const char *file, const ferry_diagnostics *d)
{
    for (size_t i = 0; i < d->count; i++) {
        const ferry_diagnostic *x = &d->items[i];
        fy_say(say, x->severity == FERRY_SEVERITY_ERROR ? FERRY_MESSAGE_ERROR : FERRY_MESSAGE_WARNING, file, x->rule,
               "%s [%s]: %s", x->path, x->rule, x->message);
    }
}

typedef struct ala_job {
    const ferry_scene *scene;
    size_t index;
    const char *in, *out;
    uint8_t format;
    double fps;
    const char *const *bones;
    size_t bone_count;
    const ferry_write_options *write;
    const fy_messenger *say;
} ala_job;

static ferry_result author_ala(const ala_job *j, ferry_author_ala_report *rep, ferry_error *e)
{
    memset(rep, 0, sizeof *rep);
    ferry_ala_from_scene_options o;
    memset(&o, 0, sizeof o);
    o.animation_index = j->index;
    o.fps = j->fps;
    o.format = j->format ? j->format : FERRY_ALA_FORMAT_2;
    o.bone_names = j->bones;
    o.bone_count = j->bone_count;
    ferry_diagnostics d = {0};
    o.diagnostics = &d;
    o.report = &rep->animation;
    ferry_ala_animation *anim = NULL;
    ferry_result r = ferry_ala_from_scene(j->scene, &o, &anim, e);
    say_ala_diagnostics(j->say, j->in, &d);
    rep->warnings = d.warning_count;
    ferry_diagnostics_free(&d);
    if (r != FERRY_OK) {
        fy_say_error(j->say, j->in, e);
        return r;
    }
    rep->format = anim->format;
    /* What the game would load: validation must find nothing wrong. */
    memset(&d, 0, sizeof d);
    rep->validation_errors = ferry_ala_validate(anim, NULL, &d);
    if (rep->validation_errors) {
        say_ala_diagnostics(j->say, j->out, &d);
        fy_say(j->say, FERRY_MESSAGE_ERROR, NULL, NULL, "%s: the animation built would not be valid; not written",
               j->out);
        fy_error_set(e, FERRY_ERR_MALFORMED, FERRY_NO_OFFSET, NULL,
                     "%s: the animation built would not be valid; not written", j->out);
        r = FERRY_ERR_MALFORMED;
    } else {
        ferry_buffer buf = {0};
        if ((r = ferry_ala_write(anim, &buf, e)) != FERRY_OK) {
            fy_say_error(j->say, j->out, e);
        } else if ((r = ferry_file_write(j->out, buf.data, buf.size, j->write, e)) != FERRY_OK) {
            rep->write_failed = true;
            fy_say_error(j->say, j->out, e);
        }
        ferry_buffer_free(&buf);
    }
    ferry_diagnostics_free(&d);
    if (r == FERRY_OK) {
        const ferry_ala_from_scene_report *a = &rep->animation;
        const char *name = j->scene->animations[j->index].name;
        fy_say(j->say, FERRY_MESSAGE_NOTE, NULL, NULL, "%s -> %s: animation %zu '%s', %u frames at %g fps%s, %zu bones, format %u%s",
               j->in, j->out, j->index, name ? name : "", (unsigned)a->frames, a->fps, a->fps_assumed ? " (assumed)" : "",
               a->tracks, (unsigned)anim->format, a->channels_ignored ? " (some channels ignored, see the warnings)" : "");
    }
    ferry_ala_free(anim);
    return r;
}

/* The bones of a model, by name in its order (the game binds tracks by
 * index); malloc'd array of pointers into the model. */
static const char **bone_names(const ferry_alo_model *model)
{
    size_t n = model->skeleton.bone_count;
    const char **names = calloc(n + 1, sizeof *names);
    for (size_t i = 0; names && i < n; i++) names[i] = model->skeleton.bones[i].name ? model->skeleton.bones[i].name : "";
    return names;
}

ferry_result ferry_author_ala(const ferry_scene *scene, const char *out_path, const ferry_author_ala_options *options,
                              ferry_author_ala_report *report, ferry_error *err)
{
    ferry_author_ala_options o = options ? *options : (ferry_author_ala_options){0};
    ferry_author_ala_report rep = {0};
    job j;
    ferry_result r = job_begin(&j, o.name, o.message, o.user, scene && out_path);
    const char **names = NULL;
    const ferry_alo_model *model = o.model ? ferry_asset_object(o.model) : NULL;
    if (r == FERRY_OK && o.model && (ferry_asset_format(o.model) != FERRY_FORMAT_ALO_MODEL || !model)) {
        r = fail_argument(&j.e, "the model to bind the tracks to is not an ALO model");
        fy_say_error(&j.say, j.in, &j.e);
    } else if (r == FERRY_OK && model && !(names = bone_names(model))) {
        r = fail_nomem(&j.e);
    }
    if (r == FERRY_OK) {
        ala_job a = {scene, o.animation_index, j.in, out_path, o.format, o.fps,
                     names, model ? model->skeleton.bone_count : 0, &o.write, &j.say};
        r = author_ala(&a, &rep, &j.e);
    }
    free(names);
    return job_end(&j, r, &rep, report, sizeof rep, err);
}

/* ---- a scene -> ALO model, animations, textures ---- */

/* The images the mapped materials name, as the game's .dds textures in
 * `folder`. */
static void write_textures(const ferry_scene *scene, const ferry_alo_from_scene_report *made, const char *folder,
                           const char *in, const ferry_write_options *write, const fy_messenger *say,
                           ferry_author_alo_report *rep)
{
    for (size_t i = 0; i < made->texture_count; i++) {
        const ferry_alo_texture_ref *t = &made->textures[i];
        const ferry_scene_image *img = &scene->images[t->image];
        char path[4096];
        fy_path_join(path, sizeof path, folder, t->name);
        ferry_image rgba = {0};
        ferry_buffer dds = {0};
        ferry_error e;
        if (!img->data || ferry_image_decode(img->data, img->size, NULL, &rgba, &e) != FERRY_OK) {
            fy_say(say, FERRY_MESSAGE_WARNING, in, NULL, "image %d (%s) could not be decoded, %s not written: %s",
                   (int)t->image, img->mime_type ? img->mime_type : "no data", t->name, img->data ? e.message : "no data");
        } else if (ferry_alamo_texture_encode_dds(&rgba, t->linear, &dds, &e) != FERRY_OK) {
            fy_say(say, FERRY_MESSAGE_WARNING, in, NULL, "%s not written: %s", t->name, e.message);
        } else if (ferry_file_write(path, dds.data, dds.size, write, &e) == FERRY_OK) {
            rep->textures_written++;
        } else {
            fy_say_error(say, path, &e);
            rep->textures_failed++;
        }
        ferry_buffer_free(&dds);
        ferry_image_free(&rgba);
    }
}

ferry_result ferry_author_alo(const ferry_scene *scene, const char *out_path, const char *textures_folder,
                              const ferry_author_alo_options *options, ferry_author_alo_report *report,
                              ferry_error *err)
{
    ferry_author_alo_options o = options ? *options : (ferry_author_alo_options){0};
    ferry_author_alo_report rep = {0};
    job j;
    ferry_result r = job_begin(&j, o.name, o.message, o.user, scene && out_path);
    if (r != FERRY_OK) return job_end(&j, r, &rep, report, sizeof rep, err);
    const char *in = j.in;
    fy_messenger say = j.say;
    ferry_error e;
    fy_error_clear(&e);
    ferry_diagnostics warnings = {0}, diags = {0};
    ferry_alo_from_scene_options fo = {&warnings, &rep.model};
    ferry_alo_model *model = NULL;
    ferry_buffer buf = {0};
    r = ferry_alo_from_scene(scene, &fo, &model, &e);
    if (r != FERRY_OK) {
        fy_say_error(&say, in, &e);
        goto done;
    }
    fy_say_diagnostics(&say, in, &warnings);
    /* ferry validate's rules over the result: an error means the game
     * could fail on it, so nothing is written. */
    rep.validation_errors = ferry_alo_validate(model, NULL, &diags);
    rep.validation_warnings = diags.warning_count;
    for (size_t i = 0; i < diags.count; i++)
        if (diags.items[i].severity == FERRY_SEVERITY_ERROR || o.allow_invalid)
            fy_say_diagnostic(&say, out_path, &diags.items[i]);
    if (rep.validation_errors && !o.allow_invalid) {
        size_t n = rep.validation_errors;
        fy_say(&say, FERRY_MESSAGE_ERROR, NULL, NULL, "%s would not be a valid model (%zu error%s above): not written",
               out_path, n, n == 1 ? "" : "s");
        fy_error_set(&e, FERRY_ERR_MALFORMED, FERRY_NO_OFFSET, NULL,
                     "%s would not be a valid model (%zu validation error%s): not written", out_path, n,
                     n == 1 ? "" : "s");
        r = FERRY_ERR_MALFORMED;
        goto done;
    }
    if ((r = ferry_alo_write(model, &buf, &e)) != FERRY_OK) {
        fy_say_error(&say, out_path, &e);
        goto done;
    }
    if ((r = ferry_file_write(out_path, buf.data, buf.size, &o.write, &e)) != FERRY_OK) {
        rep.write_failed = true;
        fy_say_error(&say, out_path, &e);
        goto done;
    }

    /* Each animation beside the model, its tracks bound to the model's
     * bones by name, in the model's order. */
    const char **names = scene->animation_count ? bone_names(model) : NULL;
    if (scene->animation_count && !names) {
        fail_nomem(&e);
        fy_say_error(&say, in, &e);
        rep.animation_result = FERRY_ERR_NOMEM;
    }
    for (size_t i = 0; names && i < scene->animation_count; i++) {
        char path[4096];
        ferry_ala_file_name(out_path, scene->animations[i].name, i, path, sizeof path);
        ala_job j = {scene, i, in, path, o.ala_format, 0, names, model->skeleton.bone_count, &o.write, &say};
        ferry_author_ala_report arep;
        ferry_error ae;
        ferry_result ar = author_ala(&j, &arep, &ae);
        if (ar == FERRY_OK) {
            rep.animations_written++;
        } else {
            rep.animation_result = ar;
            rep.animation_write_failed = arep.write_failed;
        }
    }
    free(names);
    if (textures_folder) write_textures(scene, &rep.model, textures_folder, in, &o.write, &say, &rep);
done:
    rep.model.textures = NULL; /* in the model's arena */
    ferry_buffer_free(&buf);
    ferry_diagnostics_free(&warnings);
    ferry_diagnostics_free(&diags);
    ferry_alo_free(model);
    j.e = e;
    return job_end(&j, r, &rep, report, sizeof rep, err);
}

/* ---- ALM ---- */

/* The animation `asset` (named `name`) as the model's: false (e filled)
 * when it is no animation or its bones are not the model's. */
static bool fits(const ferry_asset *asset, const char *name, const ferry_alo_model *model, ferry_error *e)
{
    const ferry_ala_animation *anim = ferry_asset_object(asset);
    if (ferry_asset_format(asset) != FERRY_FORMAT_ALA || !anim) {
        fy_error_set(e, FERRY_ERR_ARGUMENT, FERRY_NO_OFFSET, NULL, "%s is not an ALA animation", name ? name : "");
        return false;
    }
    /* The message holds 255 bytes: the list is cut to leave room for the name. */
    char misfit[128];
    if (ferry_ala_model_misfits(anim, model, misfit, sizeof misfit)) {
        const char *base = name ? strrchr(name, '/') : NULL;
        fy_error_set(e, FERRY_ERR_ARGUMENT, FERRY_NO_OFFSET, NULL, "%.100s does not fit the model: %s",
                     base ? base + 1 : name ? name : "", misfit);
        return false;
    }
    return true;
}

/* An animation found beside the model, read from its source as any Alamo
 * file is (by content). NULL with e filled when it is none. */
static ferry_asset *read_found(const ferry_file_source *source, const char *path, const char *shown, uint8_t **data,
                               size_t *size, ferry_error *e)
{
    *data = NULL;
    if (ferry_file_source_load(source, path, FERRY_ASSET_MAX_INPUT, data, size, e) != FERRY_OK) return NULL;
    ferry_format f = ferry_detect(*data, *size);
    ferry_asset *asset = NULL;
    if (f == FERRY_FORMAT_UNKNOWN)
        fy_not_known(e, *data, *size);
    else if (f != FERRY_FORMAT_ALA && f != FERRY_FORMAT_ALO_MODEL && f != FERRY_FORMAT_ALO_PARTICLE &&
             f != FERRY_FORMAT_ALO_PARTICLE_UAW)
        fy_error_set(e, FERRY_ERR_UNSUPPORTED, FERRY_NO_OFFSET, NULL,
                     "its format is %s, not an Alamo model, particle system or animation", ferry_format_name(f));
    else if (ferry_asset_read(*data, *size, &(ferry_asset_options){.format = f, .name = shown}, &asset, e) != FERRY_OK)
        asset = NULL;
    if (!asset) {
        ferry_file_source_release(source, *data, *size);
        *data = NULL;
    }
    return asset;
}

ferry_result ferry_author_alm_scene(const ferry_asset *model_asset, const ferry_author_alm_scene_options *options,
                                    ferry_scene **out, ferry_error *err)
{
    ferry_author_alm_scene_options o = options ? *options : (ferry_author_alm_scene_options){0};
    if (out) *out = NULL;
    job j;
    if (job_begin(&j, o.name ? o.name : ferry_asset_name(model_asset), o.message, o.user, model_asset && out) != FERRY_OK)
        return job_end(&j, FERRY_ERR_ARGUMENT, NULL, NULL, 0, err);
    ferry_error e = j.e;
    const char *name = j.in;
    fy_messenger say = j.say;
    const ferry_alo_model *model = ferry_asset_object(model_asset);
    if (ferry_asset_format(model_asset) != FERRY_FORMAT_ALO_MODEL || !model) {
        fail_argument(&j.e, "not a model: only models become ALM meshes");
        fy_say_error(&say, name, &j.e);
        return job_end(&j, FERRY_ERR_ARGUMENT, NULL, NULL, 0, err);
    }
    const ferry_asset *animation = NULL;
    const char *animation_name = NULL;
    /* A found animation: its asset, its bytes in the source, its name. */
    ferry_asset *found = NULL;
    uint8_t *found_data = NULL;
    size_t found_size = 0;
    char found_name[4096];
    if (o.animation) {
        if (!fits(o.animation, ferry_asset_name(o.animation), model, &j.e)) {
            fy_say_error(&say, name, &j.e);
            return job_end(&j, j.e.code, NULL, NULL, 0, err);
        }
        animation = o.animation;
        animation_name = ferry_asset_name(o.animation);
    } else if (o.animations && o.model_path) {
        /* The first one beside the model that can be read and fits; the
         * others are named and skipped. */
        char **paths = NULL;
        size_t count = 0;
        ferry_error ignored;
        if (ferry_ala_find_animations(o.animations, o.model_path, &paths, &count, &ignored) != FERRY_OK) count = 0;
        for (size_t i = 0; i < count && !animation; i++) {
            ferry_file_source_display(o.animations, paths[i], found_name, sizeof found_name);
            ferry_error why;
            fy_error_clear(&why);
            found = read_found(o.animations, paths[i], found_name, &found_data, &found_size, &why);
            if (found && fits(found, found_name, model, &why)) {
                animation = found;
                animation_name = found_name;
            } else {
                char line[640];
                ferry_error_format(&why, line, sizeof line);
                fy_say(&say, FERRY_MESSAGE_WARNING, found_name, NULL, "animation skipped: %s", line);
                ferry_asset_free(found);
                found = NULL;
                if (found_data) ferry_file_source_release(o.animations, found_data, found_size);
                found_data = NULL;
            }
        }
        ferry_ala_free_paths(paths, count);
    }
    const ferry_ala_animation *anims[1] = {animation ? ferry_asset_object(animation) : NULL};
    const char *names[1] = {animation_name};
    ferry_alo_scene_options so = {0};
    const char *named = o.name ? o.name : ferry_asset_name(model_asset);
    char *stem = !o.scene_name && named ? fy_path_stem(named, true) : NULL;
    so.name = o.scene_name ? o.scene_name : stem;
    so.skip_textures = true;
    if (animation) {
        so.animations = anims;
        so.animation_names = names;
        so.animation_count = 1;
    }
    ferry_result r = ferry_alo_to_scene(model, &so, out, &e);
    free(stem);
    if (r != FERRY_OK) {
        *out = NULL;
        fy_say_error(&say, name, &e);
    }
    ferry_asset_free(found);
    if (found_data) ferry_file_source_release(o.animations, found_data, found_size);
    j.e = e;
    return job_end(&j, r, NULL, NULL, 0, err);
}

ferry_result ferry_author_alm(const ferry_scene *scene, const char *out_path, const ferry_author_alm_options *options,
                              ferry_author_alm_report *report, ferry_error *err)
{
    ferry_author_alm_options o = options ? *options : (ferry_author_alm_options){0};
    ferry_author_alm_report rep = {0};
    job j;
    ferry_result r = job_begin(&j, o.name, o.message, o.user, scene && out_path);
    if (r != FERRY_OK) return job_end(&j, r, &rep, report, sizeof rep, err);
    const char *in = j.in;
    const fy_messenger *say = &j.say;
    ferry_error *e = &j.e;
    ferry_alm_mesh *mesh = NULL;
    ferry_buffer buf = {0};
    uint32_t *counts = NULL;
    r = ferry_alm_from_scene(scene, &o.alm, &mesh, e);
    if (r != FERRY_OK) {
        fy_say_error(say, in, e);
        goto done;
    }
    /* How far the records go: the triangles left after the last one. */
    if (!(counts = malloc(((size_t)mesh->collapse_count + 1) * sizeof *counts)))
        r = fail_nomem(e);
    else
        r = ferry_alm_lod_triangle_counts(mesh, counts, e);
    if (r == FERRY_OK) r = ferry_alm_write(mesh, &buf, e);
    if (r != FERRY_OK) {
        fy_say_error(say, in, e);
        goto done;
    }
    rep.positions = mesh->position_count;
    rep.vertices = mesh->vertex_count;
    rep.triangles = mesh->triangle_count;
    rep.collapses = mesh->collapse_count;
    rep.frames = mesh->frame_count;
    rep.fewest_triangles = counts[mesh->collapse_count];
    if ((r = ferry_file_write(out_path, buf.data, buf.size, &o.write, e)) != FERRY_OK) {
        rep.write_failed = true;
        fy_say_error(say, out_path, e);
    }
done:
    free(counts);
    ferry_buffer_free(&buf);
    ferry_alm_free(mesh);
    return job_end(&j, r, &rep, report, sizeof rep, err);
}

/* ---- an image -> a PAA/PAC texture ---- */

/* The image at `path` decoded; refused as ferry_author_paa says. */
static ferry_result read_image(const char *path, ferry_image *img, ferry_error *err)
{
    uint8_t *data;
    size_t size;
    ferry_result r = ferry_file_load(path, 0, &data, &size, err);
    if (r != FERRY_OK) return r;
    ferry_format known = ferry_detect(data, size);
    r = ferry_image_decode(data, size, NULL, img, err);
    ferry_file_free(data);
    if (r != FERRY_OK && known != FERRY_FORMAT_UNKNOWN) {
        fy_error_clear(err);
        fy_error_set(err, FERRY_ERR_UNSUPPORTED, FERRY_NO_OFFSET, NULL,
                     "not an image (its format is %s): PAA textures are written from PNG, TGA or DDS images",
                     ferry_format_name(known));
        return FERRY_ERR_UNSUPPORTED;
    }
    if (r == FERRY_ERR_MALFORMED && err->offset == 0) {
        /* Not an image at all: said as for any file of no known format. */
        static const char lead[] = "not a known format: ";
        size_t n = strlen(err->message), room = sizeof err->message - sizeof lead;
        if (n > room) n = room;
        memmove(err->message + sizeof lead - 1, err->message, n);
        err->message[sizeof lead - 1 + n] = '\0';
        memcpy(err->message, lead, sizeof lead - 1);
    }
    return r;
}

ferry_result ferry_author_paa(const char *image_path, const char *out_path, const ferry_author_paa_options *options,
                              ferry_author_paa_report *report, ferry_error *err)
{
    fy_error_clear(err);
    ferry_author_paa_report local;
    ferry_author_paa_report *rep = report ? report : &local;
    memset(rep, 0, sizeof *rep);
    if (!image_path || !out_path) {
        fy_error_set(err, FERRY_ERR_ARGUMENT, FERRY_NO_OFFSET, NULL, "ferry_author_paa needs an image and an output");
        return FERRY_ERR_ARGUMENT;
    }
    ferry_author_paa_options o = {0};
    if (options) o = *options;
    ferry_image img;
    ferry_result r = read_image(image_path, &img, err);
    if (r != FERRY_OK) return r;
    ferry_paa *p = NULL;
    ferry_buffer buf = {0};
    if ((r = ferry_paa_encode(&img, &o.encode, &p, err)) == FERRY_OK && (r = ferry_paa_write(p, &buf, err)) == FERRY_OK) {
        rep->type = p->type;
        rep->width = p->mips[0].width;
        rep->height = p->mips[0].height;
        rep->last_width = p->mips[p->mip_count - 1].width;
        rep->last_height = p->mips[p->mip_count - 1].height;
        rep->mip_count = p->mip_count;
        for (size_t i = 0; i < p->mip_count; i++) rep->lzo_count += p->mips[i].lzo;
        rep->bytes = buf.size;
        r = ferry_file_write(out_path, buf.data, buf.size, &o.write, err);
        rep->write_failed = r != FERRY_OK;
    }
    ferry_buffer_free(&buf);
    ferry_paa_free(p);
    ferry_image_free(&img);
    return r;
}
