#define _DEFAULT_SOURCE /* strdup */
/* ferry convert model.p3d out.glb: the LOD the game draws (game view, the
 * default), every LOD (--all) or those chosen (--lod) as glTF. */
#include "export.h"
#include "formats.h"

#include <ferry/convert.h>
#include <ferry/gltf.h>
#include <ferry/odol.h>

#include <dirent.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* The addon a model file of the disk belongs to: the nearest folder at or
 * above its own (up to 8 levels) holding a prefix file ($PREFIX$,
 * $PBOPREFIX$, $PBOPREFIX$.txt or pboprefix.txt, any case: the names
 * ferry_odol_find_files reads). Its path goes to out; false when there is
 * none. */
static bool model_addon_dir(const char *model_path, char *out, size_t out_size)
{
    char dir[PATH_MAX];
    const char *slash = strrchr(model_path, '/');
    char given[PATH_MAX];
    int n = slash ? snprintf(given, sizeof given, "%.*s", (int)(slash - model_path), model_path)
                  : snprintf(given, sizeof given, ".");
    if (n <= 0 || (size_t)n >= sizeof given) {
        if (n == 0 && slash) snprintf(given, sizeof given, "/");
        else return false;
    }
    if (!realpath(given, dir)) return false;
    for (int level = 0; level < 8; level++) {
        DIR *d = opendir(dir);
        bool found = false;
        if (d) {
            struct dirent *e;
            while (!found && (e = readdir(d)))
                found = strcasecmp(e->d_name, "$PREFIX$") == 0 || strcasecmp(e->d_name, "$PBOPREFIX$") == 0 ||
                        strcasecmp(e->d_name, "$PBOPREFIX$.txt") == 0 || strcasecmp(e->d_name, "pboprefix.txt") == 0;
            closedir(d);
        }
        if (found) {
            if (strlen(dir) >= out_size) return false;
            memcpy(out, dir, strlen(dir) + 1);
            return true;
        }
        char *up = strrchr(dir, '/');
        if (!up || up == dir) return false;
        *up = '\0';
    }
    return false;
}

int cli_odol_export(const char *in, const char *out, const cli_convert_options *options)
{
    const uint32_t *lods = options->lods;
    size_t lod_count = options->lod_count;
    bool all = options->all, allow_invalid = options->allow_invalid;
    /* A batch's file (convert -r, archives): its bytes, its log, its
     * result; no summary line. */
    const export_input *input = options->input;
    FILE *log = input && input->log ? input->log : stderr;
    size_t warnings_ignored = 0, *warnings = input && input->result ? &input->result->warnings : &warnings_ignored;
    ferry_error err;
    ferry_odol_model *model = NULL;
    ferry_asset *asset = cli_read_as(in, input ? input->data : NULL, input ? input->size : 0, FERRY_FORMAT_ODOL, log);
    if (asset) model = ferry_asset_object(asset);
    if (!model) return CLI_INVALID;
    int status = CLI_INVALID;
    ferry_scene *scene = NULL;
    ferry_diagnostics diags = {0}, tex_warns = {0};
    char *name = NULL;
    ferry_odol_root *roots = NULL;
    ferry_file_source own_addon;
    bool own_addon_open = false;
    ferry_odol_validate(model, NULL, &diags);
    if (cli_refuse_invalid(log, in, &diags, allow_invalid)) goto done;
    name = cli_file_stem(in);
    /* The texture roots (ferry_odol_find_files): first the archive the
     * model comes from when it is mounted at a prefix (a PBO: its own
     * textures), then each --textures place: a PBO at its prefix, a folder
     * (or another archive) as a root of addon folders mounted at their
     * prefix files, or a P:-drive tree (prefix NULL). */
    size_t places = options->texture_sources ? options->texture_source_count : 0, root_count = 0;
    roots = calloc(places + 2, sizeof *roots);
    if (!roots) {
        fprintf(log, "%s: error: out of memory\n", CLI_TXT(in));
        goto done;
    }
    bool no_textures = options->alamo && options->alamo->skip_textures; /* convert -r --no-textures */
    if (no_textures) places = 0;
    if (!no_textures && input && input->source && input->prefix)
        roots[root_count++] = (ferry_odol_root){input->source, input->prefix};
    /* A model file of the disk inside an unpacked addon (a folder with a
     * prefix file at or above it) has that addon as its first root, as a
     * model in a PBO has its archive. */
    char addon[PATH_MAX];
    if (!no_textures && (!input || input->parent) && model_addon_dir(in, addon, sizeof addon)) {
        ferry_error aerr;
        if (ferry_file_source_folder(addon, &own_addon, &aerr) == FERRY_OK) {
            own_addon_open = true;
            roots[root_count++] = (ferry_odol_root){&own_addon, NULL};
        }
    }
    for (size_t i = 0; i < places; i++)
        roots[root_count++] =
            (ferry_odol_root){options->texture_sources[i], options->texture_prefixes ? options->texture_prefixes[i] : NULL};
    ferry_odol_scene_report rep;
    ferry_odol_scene_options so = {0};
    so.texture_roots = root_count ? roots : NULL;
    so.texture_root_count = root_count;
    so.diagnostics = &tex_warns;
    so.name = name;
    so.lods = lods;
    so.lod_count = lods ? lod_count : 0;
    so.all = all;
    so.no_animations = options->no_animations;
    so.report = &rep;
    ferry_result rc = ferry_odol_to_scene(model, &so, &scene, &err);
    if (rc != FERRY_OK) {
        char line[512];
        ferry_error_format(&err, line, sizeof line);
        fprintf(log, "%s: error: %s\n", CLI_TXT(in), CLI_TXT(line));
        /* A --lod index the model does not have is the user's mistake. */
        status = rc == FERRY_ERR_ARGUMENT ? CLI_USAGE : CLI_INVALID;
        goto done;
    }
    if (ferry_gltf_save(scene, out, &(ferry_write_options){.protect_input = in, .no_sync = input != NULL}, &err) !=
        FERRY_OK) {
        if (!input) {
            status = cli_output_error(out, &err);
        } else {
            char line[512];
            ferry_error_format(&err, line, sizeof line);
            fprintf(log, "%s: error: %s\n", CLI_TXT(out), CLI_TXT(line));
        }
        goto done;
    }
    if (input) goto summary_done;
    fprintf(stderr, "%s -> %s: %u LOD%s, %llu triangles, %u prox%s", in, out, (unsigned)rep.lods,
            rep.lods == 1 ? "" : "s", (unsigned long long)rep.triangles, (unsigned)rep.proxies,
            rep.proxies == 1 ? "y" : "ies");
    if (rep.points) fprintf(stderr, ", %llu points", (unsigned long long)rep.points);
    fprintf(stderr, ", %u material%s", (unsigned)rep.materials, rep.materials == 1 ? "" : "s");
    if (rep.proxy_triangles)
        fprintf(stderr, ", %u proxy triangle%s left out", (unsigned)rep.proxy_triangles,
                rep.proxy_triangles == 1 ? "" : "s");
    if (rep.normals_repaired)
        fprintf(stderr, ", %llu zero normal%s computed from the faces", (unsigned long long)rep.normals_repaired,
                rep.normals_repaired == 1 ? "" : "s");
    if (rep.normals_computed_primitives)
        fprintf(stderr, ", normals of %u primitive%s computed (none stored)", (unsigned)rep.normals_computed_primitives,
                rep.normals_computed_primitives == 1 ? "" : "s");
    if (root_count) {
        fprintf(stderr, ", %u image%s %s (%u of %u texture%s found", (unsigned)rep.images, rep.images == 1 ? "" : "s",
                cli_has_ext(out, ".gltf") ? "written" : "embedded", (unsigned)rep.textures_found,
                (unsigned)rep.textures, rep.textures == 1 ? "" : "s");
        if (rep.rvmats)
            fprintf(stderr, ", %u of %u rvmat%s read", (unsigned)rep.rvmats_read, (unsigned)rep.rvmats,
                    rep.rvmats == 1 ? "" : "s");
        fputc(')', stderr);
    }
    if (rep.skins)
        fprintf(stderr, ", %u skin%s (%u joints), %u animation%s", (unsigned)rep.skins, rep.skins == 1 ? "" : "s",
                (unsigned)rep.joints, (unsigned)rep.animations, rep.animations == 1 ? "" : "s");
    fputc('\n', stderr);
    if (rep.animations_unbound)
        fprintf(stderr, "%s: note: %u animation class%s move%s no bone of the LODs exported (e.g. '%s'; --all exports "
                "every LOD)\n", in, (unsigned)rep.animations_unbound, rep.animations_unbound == 1 ? "" : "es",
                rep.animations_unbound == 1 ? "s" : "", rep.animation_unbound ? rep.animation_unbound : "");
summary_done:
    /* Textures not found: a warning each, then the list (a batch lists
     * them in its summary). */
    for (size_t i = 0; i < tex_warns.count; i++)
        (*warnings)++, fprintf(log, "%s: warning: %s [%s]\n", CLI_TXT(in), CLI_TXT(tex_warns.items[i].message),
                               tex_warns.items[i].rule);
    if (input && input->result) {
        export_result *r = input->result;
        r->images = rep.images;
        if (rep.missing_texture_count && (r->missing_textures = calloc(rep.missing_texture_count, sizeof *r->missing_textures)))
            for (size_t i = 0; i < rep.missing_texture_count; i++)
                if ((r->missing_textures[r->missing_texture_count] = strdup(rep.missing_textures[i])))
                    r->missing_texture_count++;
    } else if (rep.missing_texture_count) {
        fprintf(stderr, "%s: %zu texture%s missing:", CLI_TXT(in), rep.missing_texture_count,
                rep.missing_texture_count == 1 ? "" : "s");
        for (size_t i = 0; i < rep.missing_texture_count; i++)
            fprintf(stderr, "%s %s", i ? "," : "", CLI_TXT(rep.missing_textures[i]));
        fputc('\n', stderr);
    }
    if (!all && !lods) {
        if (rep.visual_lod >= 0) {
            char res[64];
            ferry_odol_resolution_name(model->lods[rep.visual_lod].resolution, res, sizeof res);
            if (!input) fprintf(stderr, "%s: the game's view: LOD %d (%s), the most detailed (--all exports every LOD)\n", in,
                    (int)rep.visual_lod, res);
            /* A game-view LOD with nothing to draw (real files have an
             * empty 1.000 beside a Roadway holding the faces): an empty
             * export must not pass unnoticed. */
            if (rep.triangles == 0) {
                uint32_t others = 0, other = 0;
                for (uint32_t l = 0; l < model->lod_count; l++)
                    if ((int32_t)l != rep.visual_lod && model->lods[l].face_count) others++, other = l;
                if (others == 1) {
                    char with[64];
                    ferry_odol_resolution_name(model->lods[other].resolution, with, sizeof with);
                    (*warnings)++, fprintf(log,
                            "%s: warning: 0 triangles exported: LOD %d (%s) has no faces to draw; LOD %u (%s) has "
                            "faces: --lod %u exports it, --all every LOD\n",
                            in, (int)rep.visual_lod, res, (unsigned)other, with, (unsigned)other);
                } else if (others)
                    (*warnings)++, fprintf(log,
                            "%s: warning: 0 triangles exported: LOD %d (%s) has no faces to draw; %u other LODs "
                            "have faces: --all exports every LOD\n",
                            in, (int)rep.visual_lod, res, (unsigned)others);
                else
                    (*warnings)++, fprintf(log, "%s: warning: 0 triangles exported: LOD %d (%s) has no faces to draw, nor has any "
                            "other LOD\n", in, (int)rep.visual_lod, res);
            }
        }
        else
            fprintf(log, "%s: note: no visual LOD (the game draws nothing of this model): every LOD exported\n", in);
    }
    if (rep.procedural_ignored)
        (*warnings)++, fprintf(log, "%s: warning: %u procedural texture%s not read as a colour, e.g. %s\n", in,
                (unsigned)rep.procedural_ignored, rep.procedural_ignored == 1 ? "" : "s",
                rep.procedural_problem ? rep.procedural_problem : "");
    status = CLI_OK;
done:
    free(roots);
    if (own_addon_open) ferry_file_source_close(&own_addon);
    ferry_diagnostics_free(&tex_warns);
    free(name);
    ferry_scene_free(scene);
    ferry_diagnostics_free(&diags);
    ferry_asset_free(asset);
    return status;
}
