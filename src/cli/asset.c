/* Reading any Alamo file by its kind, for the commands that take them all. */
#include "cli.h"

#include <string.h>
#include <strings.h>

bool cli_has_ext(const char *path, const char *ext)
{
    size_t n = strlen(path), e = strlen(ext);
    return n > e && strcasecmp(path + n - e, ext) == 0;
}

bool cli_asset_load(const char *path, cli_asset *a, ferry_error *err)
{
    memset(a, 0, sizeof *a);
    if (!cli_check_head(path, err)) return false;
    if (ferry_file_load(path, CLI_MAX_INPUT, &a->data, &a->size, err) != FERRY_OK) return false;
    a->kind = ferry_alamo_detect(a->data, a->size);
    ferry_result rc;
    switch (a->kind) {
    case FERRY_ALAMO_ANIMATION: rc = ferry_ala_read(a->data, a->size, NULL, &a->animation, err); break;
    case FERRY_ALAMO_PARTICLE:
    case FERRY_ALAMO_PARTICLE_UAW: rc = ferry_particle_read(a->data, a->size, NULL, &a->particles, err); break;
    default:
        /* Models, and files whose first chunk says nothing: the model reader
         * gives the most useful message for a damaged model. */
        a->kind = FERRY_ALAMO_MODEL;
        rc = ferry_alo_read(a->data, a->size, NULL, &a->model, err);
        break;
    }
    return rc == FERRY_OK;
}

void cli_asset_free(cli_asset *a)
{
    ferry_alo_free(a->model);
    ferry_ala_free(a->animation);
    ferry_particle_free(a->particles);
    ferry_file_free(a->data);
    memset(a, 0, sizeof *a);
}

ferry_result cli_asset_write(const cli_asset *a, int ala_format, ferry_buffer *out, ferry_error *err)
{
    if (a->model) return ferry_alo_write(a->model, out, err);
    if (a->particles) return ferry_particle_write(a->particles, out, err);
    if (a->animation) {
        if (ala_format) return ferry_ala_write_format(a->animation, (ferry_ala_format)ala_format, out, err);
        return ferry_ala_write(a->animation, out, err);
    }
    return FERRY_ERR_ARGUMENT;
}
