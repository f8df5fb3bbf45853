/* Reading any Alamo file by its kind, for the commands that take them all. */
#include "cli.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

bool cli_has_ext(const char *path, const char *ext)
{
    size_t n = strlen(path), e = strlen(ext);
    return n > e && strcasecmp(path + n - e, ext) == 0;
}

/* "not a known format", from the file's first bytes. */
static void not_known(ferry_error *err, const uint8_t *data, size_t size)
{
    memset(err, 0, sizeof *err);
    err->code = FERRY_ERR_UNSUPPORTED;
    err->offset = 0;
    if (!size) {
        snprintf(err->message, sizeof err->message, "not a known format: the file is empty");
        return;
    }
    char bytes[3 * 8 + 1] = "";
    size_t at = 0;
    for (size_t i = 0; i < 8 && i < size; i++)
        at += (size_t)snprintf(bytes + at, sizeof bytes - at, "%s%02x", i ? " " : "", data[i]);
    snprintf(err->message, sizeof err->message,
             "not a known format: it starts with %s; ferry reads Alamo models (chunk 0x200), particle "
             "systems (0x900), animations (0x1000), ODOL P3D models ('ODOL') and ALM meshes",
             bytes);
}

/* Every Alamo file starts with its root chunk's type (0x200, 0x900, 0x1000
 * or 0x1500; every real file does). One shorter than a chunk header but
 * starting like a model goes to the model reader, which says where it ends;
 * anything else is no format ferry reads (ODOL and ALM are told apart by
 * their magic before this). Only the first 8 bytes decide. */
static bool starts_like_alamo(const uint8_t *data, size_t size)
{
    if (ferry_alamo_detect(data, size) != FERRY_ALAMO_UNKNOWN) return true;
    uint32_t first = 0;
    for (size_t i = 0; i < 4 && i < size; i++) first |= (uint32_t)data[i] << (8 * i);
    return size >= 4 && first == 0x200;
}

bool cli_asset_load(const char *path, cli_asset *a, ferry_error *err)
{
    memset(a, 0, sizeof *a);
    if (!cli_check_head(path, err)) return false;
    /* The kind is told from the head, before the whole file is loaded. */
    uint8_t head[16];
    size_t got = 0;
    if (ferry_file_read_head(path, head, sizeof head, &got, NULL, err) != FERRY_OK) return false;
    if (!starts_like_alamo(head, got)) {
        not_known(err, head, got);
        return false;
    }
    if (ferry_file_load(path, CLI_MAX_INPUT, &a->data, &a->size, err) != FERRY_OK) return false;
    a->kind = ferry_alamo_detect(a->data, a->size);
    ferry_result rc;
    switch (a->kind) {
    case FERRY_ALAMO_ANIMATION: rc = ferry_ala_read(a->data, a->size, NULL, &a->animation, err); break;
    case FERRY_ALAMO_PARTICLE:
    case FERRY_ALAMO_PARTICLE_UAW: rc = ferry_particle_read(a->data, a->size, NULL, &a->particles, err); break;
    case FERRY_ALAMO_MODEL: rc = ferry_alo_read(a->data, a->size, NULL, &a->model, err); break;
    default:
        if (!starts_like_alamo(a->data, a->size)) { /* the file changed since its head was read */
            not_known(err, a->data, a->size);
            return false;
        }
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
