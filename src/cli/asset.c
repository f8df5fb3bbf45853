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

/* cli_asset_load's reading: false with `err` filled. */
static bool load(const char *path, cli_asset *a, ferry_error *err)
{
    ferry_asset *file;
    /* Told first (one read of the file), the object read only for an Alamo file. */
    if (ferry_asset_open(path, &(ferry_asset_options){.bytes_only = true}, &file, err) != FERRY_OK) return false;
    ferry_format f = ferry_asset_format(file);
    size_t size;
    const uint8_t *data = ferry_asset_bytes(file, &size);
    a->kind = alamo_kind(f);
    if (a->kind == FERRY_ALAMO_UNKNOWN && f != FERRY_FORMAT_UNKNOWN) { /* ODOL, ALM, glTF: not an Alamo file */
        memset(err, 0, sizeof *err);
        err->code = FERRY_ERR_UNSUPPORTED;
        err->offset = FERRY_NO_OFFSET;
        snprintf(err->message, sizeof err->message,
                 "its format is %s, not an Alamo model, particle system or animation", ferry_format_name(f));
        ferry_asset_free(file);
        return false;
    }
    /* Content of no known format: the library's read says so. */
    if (ferry_asset_read(data, size, &(ferry_asset_options){.format = f, .name = path}, &a->handle, err) != FERRY_OK) {
        ferry_asset_free(file);
        return false;
    }
    a->file = file; /* the mapping the object was read from */
    /* The typed object by the kind. */
    void *object = ferry_asset_object(a->handle);
    switch (a->kind) {
    case FERRY_ALAMO_MODEL: a->model = object; break;
    case FERRY_ALAMO_ANIMATION: a->animation = object; break;
    default: a->particles = object; break;
    }
    return true;
}

bool cli_asset_load(const char *path, cli_asset *a, ferry_error *err)
{
    ferry_error own;
    memset(a, 0, sizeof *a);
    if (load(path, a, err ? err : &own)) return true;
    if (!err) cli_print_error(path, &own);
    memset(a, 0, sizeof *a);
    return false;
}

void cli_asset_free(cli_asset *a)
{
    ferry_asset_free(a->handle);
    ferry_asset_free(a->file);
    memset(a, 0, sizeof *a);
}
