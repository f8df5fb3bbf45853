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

/* The asset's typed object by its kind. */
static void take(cli_asset *a, ferry_asset *handle)
{
    a->handle = handle;
    void *object = ferry_asset_object(handle);
    switch (a->kind) {
    case FERRY_ALAMO_MODEL: a->model = object; break;
    case FERRY_ALAMO_ANIMATION: a->animation = object; break;
    default: a->particles = object; break;
    }
}

/* The library's "not a known format" refusal of `data`: asked for what no
 * format does (an archive made into a scene), it says that of any content. */
static void not_known(const uint8_t *data, size_t size, ferry_error *err)
{
    ferry_asset *none = NULL;
    ferry_asset_options o = {.bytes_only = true, .need = FERRY_IS_ARCHIVE | FERRY_CAN_TO_SCENE};
    ferry_asset_read(data, size, &o, &none, err);
    ferry_asset_free(none);
}

bool cli_asset_load(const char *path, cli_asset *a, ferry_error *err)
{
    memset(a, 0, sizeof *a);
    ferry_asset *file;
    /* Told first (one read of the file), the object read only for an Alamo file. */
    if (ferry_asset_open(path, &(ferry_asset_options){.bytes_only = true}, &file, err) != FERRY_OK) return false;
    ferry_format f = ferry_asset_format(file);
    size_t size;
    const uint8_t *data = ferry_asset_bytes(file, &size);
    a->kind = alamo_kind(f);
    if (a->kind == FERRY_ALAMO_UNKNOWN) { /* ODOL, ALM, glTF: not an Alamo file */
        if (f == FERRY_FORMAT_UNKNOWN) {
            not_known(data, size, err);
        } else {
            memset(err, 0, sizeof *err);
            err->code = FERRY_ERR_UNSUPPORTED;
            err->offset = FERRY_NO_OFFSET;
            snprintf(err->message, sizeof err->message,
                     "its format is %s, not an Alamo model, particle system or animation", ferry_format_name(f));
        }
        ferry_asset_free(file);
        return false;
    }
    ferry_asset *handle;
    if (ferry_asset_read(data, size, &(ferry_asset_options){.format = f, .name = path}, &handle, err) != FERRY_OK) {
        ferry_asset_free(file);
        return false;
    }
    take(a, handle);
    a->file = file; /* the mapping the object was read from */
    return true;
}

void cli_asset_free(cli_asset *a)
{
    ferry_asset_free(a->handle);
    ferry_asset_free(a->file);
    memset(a, 0, sizeof *a);
}
