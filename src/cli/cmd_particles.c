/* ferry particles: the state of a particle system at a moment. */
#include "cli.h"

#include <ferry/particle_sim.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

int cmd_particles(int argc, char **argv)
{
    const char *path = NULL;
    bool json = false, no_ground = false;
    cli_number time = {0};
    uint64_t seed = 0;
    float ground = 0;
    const cli_option options[] = {
        CLI_FLAG("--no-ground", &no_ground), CLI_VALUE("--ground", &ground, cli_take_height, "--ground needs a finite height"),
        CLI_FLAG("--json", &json), CLI_VALUE("--time", &time, cli_take_seconds, "--time needs a finite number of seconds, 0 or more"),
        CLI_VALUE("--seed", &seed, cli_take_seed, "--seed needs an unsigned integer"), {0}};
    size_t count;
    int status = cli_parse(&(cli_args){"particles", options, cli_help_particles, NULL, &path, 1, "one file at a time"}, argc,
                           argv, &count);
    if (status != CLI_OK) return CLI_STATUS(status);
    if (!path) return cli_usage_error("particles", "no particle file given");
    if (!time.text) return cli_usage_error("particles", "--time T is required");

    cli_asset a;
    ferry_error err;
    if (!cli_asset_load(path, &a, NULL)) return CLI_INVALID;
    status = CLI_INVALID;
    json_t *root = NULL;
    if (!a.particles) {
        fprintf(stderr, "%s: error: this is an %s, not a particle system\n", CLI_TXT(path), ferry_alamo_kind_name(a.kind));
        goto done;
    }
    /* The live particles from the library, as data: printed as they are
     * (--json), or summed up per emitter from their exact values. */
    unsigned warnings = 0;
    ferry_asset_particles_options po = {.time = time.value, .seed = seed, .ground_z = ground, .no_ground = no_ground,
                                        .warnings = &warnings};
    po.exact = po.nonfinite_strings = !json;
    ferry_buffer text = {0};
    if (ferry_asset_particles(a.handle, &po, &text, &err) != FERRY_OK) {
        ferry_buffer_free(&text);
        cli_print_error(path, &err);
        goto done;
    }
    for (unsigned b = 0; b < FERRY_PARTICLE_SIM_WARN_COUNT; b++)
        if (warnings & (1u << b))
            fprintf(stderr, "%s: warning: %s\n", CLI_TXT(path), ferry_particle_sim_warning_text(1u << b));
    if (!(root = cli_library_json(path, &text, json ? CLI_JSON_OUTPUT : CLI_JSON_TEXT))) goto done;
    if (json) {
        cli_print_json(root);
        status = CLI_OK;
        goto done;
    }
    const json_t *emitters = json_object_get(root, "emitters");
    size_t n = 0;
    for (size_t e = 0; e < json_array_size(emitters); e++)
        n += json_array_size(json_object_get(json_array_get(emitters, e), "particles"));
    printf("%s: %zu live particles at %.6g s (seed %llu)\n", CLI_TXT(path), n, time.value, (unsigned long long)seed);
    for (size_t e = 0; e < json_array_size(emitters); e++) {
        const json_t *je = json_array_get(emitters, e), *parts = json_object_get(je, "particles");
        const char *name = cli_jstr(je, "name");
        size_t live = json_array_size(parts);
        float lo[3] = {0, 0, 0}, hi[3] = {0, 0, 0};
        double size_sum = 0;
        for (size_t j = 0; j < live; j++) {
            const json_t *p = json_array_get(parts, j), *pos = json_object_get(p, "position");
            for (int k = 0; k < 3; k++) {
                float v = (float)cli_jnum(json_array_get(pos, (size_t)k));
                if (!j || v < lo[k]) lo[k] = v;
                if (!j || v > hi[k]) hi[k] = v;
            }
            size_sum += (float)cli_jreal(p, "size");
        }
        if (live)
            printf("  %2zu %-20s %6zu live, mean size %.4g, x %.4g..%.4g y %.4g..%.4g z %.4g..%.4g\n", e,
                   CLI_TXT(name), live, size_sum / (double)live, (double)lo[0], (double)hi[0], (double)lo[1],
                   (double)hi[1], (double)lo[2], (double)hi[2]);
        else
            printf("  %2zu %-20s %6d live\n", e, CLI_TXT(name), 0);
    }
    status = CLI_OK;
done:
    json_decref(root);
    cli_asset_free(&a);
    return status;
}
