/* any_file: reads any file ferry knows, told by its content, and does with
 * it what its format allows, through the format table alone (no format is
 * named here): prints the format, the info as JSON and the problems
 * validation finds (an archive's entries too), writes the file back into
 * OUTDIR (byte for byte) and, for a format that becomes a scene, as glTF.
 *
 *   cc any_file.c $(pkg-config --cflags --libs ferry) -o any_file
 *   ./any_file walker.alo out
 *
 * Exit status: 0 valid, 1 a file that cannot be read or has errors, 2 usage.
 */
#include <ferry/format.h>
#include <ferry/gltf.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void print_error(const char *file, const ferry_error *err)
{
    char line[512];
    ferry_error_format(err, line, sizeof line);
    fprintf(stderr, "%s: %s\n", file, line);
}

static void print_diagnostics(const char *file, const ferry_diagnostics *diags)
{
    for (size_t i = 0; i < diags->count; i++) {
        const ferry_diagnostic *d = &diags->items[i];
        printf("%s: %s", file, d->severity == FERRY_SEVERITY_ERROR ? "error" : "warning");
        if (d->offset != FERRY_NO_OFFSET) printf(" at byte %llu", (unsigned long long)d->offset);
        if (d->path[0]) printf(" (%s)", d->path);
        printf(": %s [%s]\n", d->message, d->rule);
    }
}

/* An archive's entry, checked by the library as it checks any file. */
static void print_entry(void *user, const ferry_asset_entry_report *e)
{
    size_t *errors = user;
    const ferry_format_desc *d = ferry_format_describe(e->format);
    if (e->error) {
        print_error(e->label, e->error);
    } else {
        print_diagnostics(e->label, e->diagnostics);
        printf("%s: %s, %zu error%s\n", e->label, d ? d->name : "unknown", e->error_count,
               e->error_count == 1 ? "" : "s");
    }
    *errors += e->error_count;
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: any_file FILE OUTDIR\n");
        return 2;
    }
    const char *file = argv[1], *outdir = argv[2];
    ferry_asset *asset = NULL;
    ferry_error err;
    /* Mapped once, told by its content once. */
    if (ferry_asset_open(file, NULL, &asset, &err) != FERRY_OK) {
        print_error(file, &err);
        return 1;
    }
    const ferry_format_desc *format = ferry_format_describe(ferry_asset_format(asset));
    printf("format: %s (%s)\n", format->name, format->key);
    int status = 0;

    if (format->caps & FERRY_CAN_INFO) {
        ferry_buffer json = {0};
        if (ferry_asset_info(asset, NULL, &json, &err) == FERRY_OK)
            printf("info: %.*s\n", (int)json.size, (const char *)json.data);
        else
            print_error(file, &err);
        ferry_buffer_free(&json);
    }

    if (format->caps & FERRY_CAN_VALIDATE) {
        ferry_diagnostics diags = {0};
        size_t entry_errors = 0;
        ferry_asset_validate_options vo = {.entry = print_entry, .user = &entry_errors};
        size_t errors = ferry_asset_validate(asset, &vo, &diags);
        print_diagnostics(file, &diags);
        printf("valid: %s (%zu error%s, %zu warning%s", errors ? "no" : "yes", diags.error_count,
               diags.error_count == 1 ? "" : "s", diags.warning_count, diags.warning_count == 1 ? "" : "s");
        if (entry_errors) printf("; %zu in entries", entry_errors);
        printf(")\n");
        if (errors) status = 1;
        ferry_diagnostics_free(&diags);
    }

    /* Written back under the name its format gives outputs. */
    char path[4096];
    if (format->caps & FERRY_CAN_WRITE) {
        snprintf(path, sizeof path, "%s/copy%s", outdir, format->extensions[0]);
        if (ferry_asset_save(asset, path, NULL, &err) == FERRY_OK) {
            printf("wrote %s\n", path);
        } else {
            print_error(path, &err);
            status = 1;
        }
    }

    if (format->caps & FERRY_CAN_TO_SCENE) {
        ferry_scene *scene = NULL;
        snprintf(path, sizeof path, "%s/copy.glb", outdir);
        if (ferry_asset_to_scene(asset, NULL, &scene, &err) == FERRY_OK &&
            ferry_gltf_save(scene, path, NULL, &err) == FERRY_OK) {
            printf("wrote %s (%zu nodes, %zu meshes)\n", path, scene->node_count, scene->mesh_count);
        } else {
            print_error(file, &err);
            status = 1;
        }
        ferry_scene_free(scene);
    }
    ferry_asset_free(asset);
    return status;
}
