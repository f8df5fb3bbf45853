/* Reading any Alamo file by the kind its content names, for the commands that take them all. */
#include "cli.h"
#include "formats.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

bool cli_has_ext(const char *path, const char *ext)
{
    size_t n = strlen(path), e = strlen(ext);
    return n > e && strcasecmp(path + n - e, ext) == 0;
}

/* The Alamo kind of a detected format (UNKNOWN: not an Alamo file). */
static ferry_alamo_kind alamo_kind(ferry_format f)
{
    switch (f) {
    case FERRY_FORMAT_ALO_MODEL: return FERRY_ALAMO_MODEL;
    case FERRY_FORMAT_ALO_PARTICLE: return FERRY_ALAMO_PARTICLE;
    case FERRY_FORMAT_ALO_PARTICLE_UAW: return FERRY_ALAMO_PARTICLE_UAW;
    case FERRY_FORMAT_ALA: return FERRY_ALAMO_ANIMATION;
    default: return FERRY_ALAMO_UNKNOWN;
    }
}

bool cli_asset_read(const uint8_t *data, size_t size, cli_asset *a, ferry_error *err)
{
    memset(a, 0, sizeof *a);
    a->size = size;
    a->kind = alamo_kind(ferry_detect(data, size));
    ferry_result rc;
    switch (a->kind) {
    case FERRY_ALAMO_ANIMATION: rc = ferry_ala_read(data, size, NULL, &a->animation, err); break;
    case FERRY_ALAMO_PARTICLE:
    case FERRY_ALAMO_PARTICLE_UAW: rc = ferry_particle_read(data, size, NULL, &a->particles, err); break;
    case FERRY_ALAMO_MODEL: rc = ferry_alo_read(data, size, NULL, &a->model, err); break;
    default: cli_not_known(err, data, size); return false;
    }
    return rc == FERRY_OK;
}

bool cli_asset_load(const char *path, cli_asset *a, ferry_error *err)
{
    memset(a, 0, sizeof *a);
    cli_input in;
    bool loaded = cli_input_load(path, CLI_USE_ANY, &in, err);
    if (loaded && alamo_kind(in.id) == FERRY_ALAMO_UNKNOWN) { /* ODOL, ALM, glTF: not an Alamo file */
        if (in.id == FERRY_FORMAT_UNKNOWN) {
            cli_not_known(err, in.data, in.size);
        } else {
            memset(err, 0, sizeof *err);
            err->code = FERRY_ERR_UNSUPPORTED;
            err->offset = FERRY_NO_OFFSET;
            snprintf(err->message, sizeof err->message,
                     "its format is %s, not an Alamo model, particle system or animation", ferry_format_name(in.id));
        }
        loaded = false;
    }
    if (!loaded) {
        cli_input_free(&in);
        return false;
    }
    bool ok = cli_asset_read(in.data, in.size, a, err);
    a->data = in.data; /* the asset owns the bytes (models may point into them) */
    /* Nothing is kept of a file that does not read (callers return at once;
     * ferry particles and render leaked the bytes of a truncated file). */
    if (!ok) cli_asset_free(a);
    return ok;
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
