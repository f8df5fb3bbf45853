/* ferry convert mesh.alm out.glb: an ALM mesh (at a level of detail) as glTF. */
#include "export.h"
#include "formats.h"

#include <ferry/alm.h>
#include <ferry/convert.h>
#include <ferry/gltf.h>

#include <stdlib.h>
#include <string.h>

int cli_alm_export(const char *in, const char *out, const cli_convert_options *options)
{
    const ferry_alm_lod_options *lod_options = options->alm_lod;
    bool allow_invalid = options->allow_invalid;
    /* A batch's file (convert -r, archives): its bytes, its log, its
     * result; no summary line. */
    const export_input *input = options->input;
    FILE *log = input && input->log ? input->log : stderr;
    ferry_error err;
    ferry_alm_mesh *mesh = NULL;
    ferry_asset *asset = cli_read_as(in, input ? input->data : NULL, input ? input->size : 0, FERRY_FORMAT_ALM, log);
    if (asset) mesh = ferry_asset_object(asset);
    if (!mesh) return CLI_INVALID;
    int status = CLI_INVALID;
    ferry_alm_lod *lod = NULL;
    ferry_scene *scene = NULL;
    ferry_diagnostics diags = {0};
    char *name = NULL;
    /* convert and validate agree on what a file is: a mesh with errors is
     * not exported (the level of detail trusts its collapse records). */
    ferry_alm_validate(mesh, NULL, &diags);
    if (cli_refuse_invalid(log, in, &diags, allow_invalid)) goto done;
    ferry_diagnostics_free(&diags);
    memset(&diags, 0, sizeof diags);
    if (lod_options && ferry_alm_lod_extract(mesh, lod_options, &lod, &err) != FERRY_OK) {
        cli_print_error(in, &err); /* only from the command line: a batch asks for no LOD */
        goto done;
    }
    name = cli_file_stem(in);
    ferry_alm_scene_report rep;
    ferry_alm_scene_options so = {0};
    so.name = name;
    so.report = &rep;
    so.diagnostics = &diags;
    so.lod = lod;
    if (ferry_alm_to_scene(mesh, &so, &scene, &err) != FERRY_OK) {
        char line[512];
        ferry_error_format(&err, line, sizeof line);
        fprintf(log, "%s: error: %s\n", CLI_TXT(in), CLI_TXT(line));
        goto done;
    }
    for (size_t i = 0; i < diags.count; i++) {
        if (input)
            cli_fprint_diag(log, in, &diags.items[i]);
        else
            cli_print_diag(in, &diags.items[i]);
    }
    if (input && input->result) input->result->warnings += diags.warning_count;
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
    if (input) {
        if (input->result) input->result->images = rep.images;
        status = CLI_OK;
        goto done;
    }
    char lod_text[96] = "full resolution";
    if (lod)
        snprintf(lod_text, sizeof lod_text, "LOD after %u of %u collapses", (unsigned)lod->collapses_applied,
                 (unsigned)mesh->collapse_count);
    char how[256];
    if (rep.skinned)
        snprintf(how, sizeof how, "skin of %u bones (at most %u influences; %u positions over 4, largest dropped weight %.4g)",
                 (unsigned)mesh->bone_count, (unsigned)rep.max_influences, (unsigned)rep.positions_truncated,
                 rep.max_dropped_weight);
    else
        snprintf(how, sizeof how, "%u frames as morph targets (%s)", (unsigned)mesh->frame_count,
                 rep.reason ? rep.reason : "");
    fprintf(stderr, "%s -> %s: %s, %u triangles, %u vertices, %s, %u images\n", in, out, lod_text,
            (unsigned)rep.triangle_count, (unsigned)rep.vertex_count, how, (unsigned)rep.images);
    status = CLI_OK;
done:
    free(name);
    ferry_scene_free(scene);
    ferry_alm_lod_free(lod);
    ferry_diagnostics_free(&diags);
    ferry_asset_free(asset);
    return status;
}
