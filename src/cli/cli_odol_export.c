/* ferry convert model.p3d out.glb: the LOD the game draws (game view, the
 * default), every LOD (--all) or those chosen (--lod) as glTF. */
#include "formats.h"

#include <ferry/convert.h>
#include <ferry/gltf.h>
#include <ferry/odol.h>

#include <stdlib.h>
#include <string.h>

int cli_odol_export(const char *in, const char *out, const cli_convert_options *options)
{
    const uint32_t *lods = options->lods;
    size_t lod_count = options->lod_count;
    bool all = options->all, allow_invalid = options->allow_invalid;
    uint8_t *data;
    size_t size;
    ferry_odol_model *model = cli_format_load(cli_format_for(FERRY_FORMAT_ODOL), in, &data, &size);
    if (!model) return CLI_INVALID;
    int status = CLI_INVALID;
    ferry_error err;
    ferry_scene *scene = NULL;
    ferry_diagnostics diags = {0};
    char *name = NULL;
    ferry_odol_validate(model, NULL, &diags);
    if (cli_refuse_invalid(stderr, in, &diags, allow_invalid)) goto done;
    name = cli_file_stem(in);
    ferry_odol_scene_report rep;
    ferry_odol_scene_options so = {0};
    so.name = name;
    so.lods = lods;
    so.lod_count = lods ? lod_count : 0;
    so.all = all;
    so.no_animations = options->no_animations;
    so.report = &rep;
    ferry_result rc = ferry_odol_to_scene(model, &so, &scene, &err);
    if (rc != FERRY_OK) {
        cli_print_error(in, &err);
        /* A --lod index the model does not have is the user's mistake. */
        status = rc == FERRY_ERR_ARGUMENT ? CLI_USAGE : CLI_INVALID;
        goto done;
    }
    if (ferry_gltf_save(scene, out, &(ferry_write_options){.protect_input = in}, &err) != FERRY_OK) {
        status = cli_output_error(out, &err);
        goto done;
    }
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
    if (rep.skins)
        fprintf(stderr, ", %u skin%s (%u joints), %u animation%s", (unsigned)rep.skins, rep.skins == 1 ? "" : "s",
                (unsigned)rep.joints, (unsigned)rep.animations, rep.animations == 1 ? "" : "s");
    fputc('\n', stderr);
    if (rep.animations_unbound)
        fprintf(stderr, "%s: note: %u animation class%s move%s no bone of the LODs exported (e.g. '%s'; --all exports "
                "every LOD)\n", in, (unsigned)rep.animations_unbound, rep.animations_unbound == 1 ? "" : "es",
                rep.animations_unbound == 1 ? "s" : "", rep.animation_unbound ? rep.animation_unbound : "");
    if (!all && !lods) {
        if (rep.visual_lod >= 0) {
            char res[64];
            ferry_odol_resolution_name(model->lods[rep.visual_lod].resolution, res, sizeof res);
            fprintf(stderr, "%s: the game's view: LOD %d (%s), the most detailed (--all exports every LOD)\n", in,
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
                    fprintf(stderr,
                            "%s: warning: 0 triangles exported: LOD %d (%s) has no faces to draw; LOD %u (%s) has "
                            "faces: --lod %u exports it, --all every LOD\n",
                            in, (int)rep.visual_lod, res, (unsigned)other, with, (unsigned)other);
                } else if (others)
                    fprintf(stderr,
                            "%s: warning: 0 triangles exported: LOD %d (%s) has no faces to draw; %u other LODs "
                            "have faces: --all exports every LOD\n",
                            in, (int)rep.visual_lod, res, (unsigned)others);
                else
                    fprintf(stderr, "%s: warning: 0 triangles exported: LOD %d (%s) has no faces to draw, nor has any "
                            "other LOD\n", in, (int)rep.visual_lod, res);
            }
        }
        else
            fprintf(stderr, "%s: note: no visual LOD (the game draws nothing of this model): every LOD exported\n", in);
    }
    if (rep.procedural_ignored)
        fprintf(stderr, "%s: warning: %u procedural texture%s not read as a colour, e.g. %s\n", in,
                (unsigned)rep.procedural_ignored, rep.procedural_ignored == 1 ? "" : "s",
                rep.procedural_problem ? rep.procedural_problem : "");
    status = CLI_OK;
done:
    free(name);
    ferry_scene_free(scene);
    ferry_odol_free(model);
    ferry_diagnostics_free(&diags);
    ferry_file_free(data);
    return status;
}
