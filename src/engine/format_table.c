/* The format table: one row per format ferry_detect names, the library's
 * only list of what each format does (the ferry tool, the bindings and the
 * examples ask it; none keeps its own). The rows' functions are each
 * family's (info_*.c, asset.c for glTF). */
#include "engine_internal.h"

#include <string.h>
#include <strings.h>

/* Each row's functions (engine_internal.h's signatures). */
FY_READ(alo); FY_FREE(alo); FY_WRITE(alo); FY_VALIDATE(alo); FY_INFO(alo); FY_TO_SCENE(alo); FY_FROM_SCENE(alo);
FY_READ(particle); FY_FREE(particle); FY_WRITE(particle); FY_VALIDATE(particle); FY_INFO(particle);
FY_TO_SCENE(particle);
FY_READ(ala); FY_FREE(ala); FY_WRITE(ala); FY_WRITE_LAYOUT(ala); FY_VALIDATE(ala); FY_INFO(ala); FY_FROM_SCENE(ala);
FY_READ(odol); FY_FREE(odol); FY_WRITE(odol); FY_VALIDATE(odol); FY_INFO(odol); FY_TO_SCENE(odol);
FY_READ(alm); FY_FREE(alm); FY_WRITE(alm); FY_VALIDATE(alm); FY_INFO(alm); FY_TO_SCENE(alm); FY_FROM_SCENE(alm);
FY_READ(gltf); FY_FREE(gltf); FY_TO_SCENE(gltf);
FY_READ(paa); FY_FREE(paa); FY_WRITE(paa); FY_VALIDATE(paa); FY_INFO(paa);
FY_READ(meg); FY_FREE(meg); FY_WRITE(meg); FY_WRITE_TABLES(meg); FY_VALIDATE(meg); FY_ENTRY_COUNT(meg);
FY_ENTRY_AT(meg); FY_INFO(meg);
FY_READ(pbo); FY_FREE(pbo); FY_WRITE(pbo); FY_WRITE_TABLES(pbo); FY_VALIDATE(pbo); FY_ENTRY_COUNT(pbo);
FY_ENTRY_AT(pbo); FY_ENTRY_BYTES(pbo); FY_INFO(pbo);
extern const fy_archive_row fy_meg_archive, fy_pbo_archive;
FY_READ(config); FY_FREE(config); FY_WRITE(rap); FY_WRITE_LAYOUT(config); FY_VALIDATE(config); FY_INFO(config);

#define CAPS_MODEL (FERRY_CAN_READ | FERRY_CAN_WRITE | FERRY_CAN_VALIDATE | FERRY_CAN_INFO)

static const char *const ext_alo[] = {".alo", NULL};
static const char *const ext_ala[] = {".ala", NULL};
static const char *const ext_p3d[] = {".p3d", NULL};
static const char *const ext_alm[] = {".alm", NULL};
static const char *const ext_glb[] = {".glb", NULL};
static const char *const ext_gltf[] = {".gltf", NULL};
static const char *const ext_paa[] = {".paa", ".pac", NULL};
static const char *const ext_meg[] = {".meg", NULL};
static const char *const ext_pbo[] = {".pbo", NULL};
static const char *const ext_rap[] = {".bin", ".rvmat", NULL};
static const char *const ext_text[] = {".cpp", ".hpp", NULL};

/* In ferry_format_from_name's order: the first row naming an extension
 * is the one a name suggests (.alo: a model, .p3d: ODOL). */
static const fy_format_row rows[] = {
    {.desc = {FERRY_FORMAT_ALO_MODEL, "ALO model", "alo", ext_alo,
              CAPS_MODEL | FERRY_CAN_TO_SCENE | FERRY_CAN_FROM_SCENE},
     .read = fy_alo_read, .free = fy_alo_free, .write = fy_alo_write, .validate = fy_alo_validate,
     .info = fy_alo_info, .info_full_from_bytes = true, .to_scene = fy_alo_to_scene,
     .from_scene = fy_alo_from_scene},
    {.desc = {FERRY_FORMAT_ALO_PARTICLE, "ALO particle system", "particle", ext_alo, CAPS_MODEL | FERRY_CAN_TO_SCENE},
     .read = fy_particle_read, .free = fy_particle_free, .write = fy_particle_write, .validate = fy_particle_validate,
     .info = fy_particle_info, .info_full_from_bytes = true, .to_scene = fy_particle_to_scene},
    /* Recognised; the particle reader refuses it, naming it. */
    {.desc = {FERRY_FORMAT_ALO_PARTICLE_UAW, "ALO particle system (Universe at War, 0x1500)", "particle_uaw", ext_alo,
              0},
     .read = fy_particle_read, .free = fy_particle_free, .write = fy_particle_write, .validate = fy_particle_validate,
     .info = fy_particle_info, .info_full_from_bytes = true, .to_scene = fy_particle_to_scene},
    {.desc = {FERRY_FORMAT_ALA, "ALA animation", "ala", ext_ala, CAPS_MODEL | FERRY_CAN_FROM_SCENE},
     .read = fy_ala_read, .free = fy_ala_free, .write = fy_ala_write, .write_layout = fy_ala_write_layout,
     .validate = fy_ala_validate, .info = fy_ala_info, .info_full_from_bytes = true, .from_scene = fy_ala_from_scene},
    {.desc = {FERRY_FORMAT_ODOL, "ODOL", "odol", ext_p3d, CAPS_MODEL | FERRY_CAN_TO_SCENE},
     .read = fy_odol_read, .free = fy_odol_free, .write = fy_odol_write, .validate = fy_odol_validate,
     .info = fy_odol_info, .to_scene = fy_odol_to_scene},
    /* Recognised; the ODOL reader refuses it, naming it. */
    {.desc = {FERRY_FORMAT_MLOD, "MLOD", "mlod", ext_p3d, 0},
     .read = fy_odol_read, .free = fy_odol_free, .write = fy_odol_write, .validate = fy_odol_validate,
     .info = fy_odol_info, .to_scene = fy_odol_to_scene},
    {.desc = {FERRY_FORMAT_ALM, "ALM", "alm", ext_alm, CAPS_MODEL | FERRY_CAN_TO_SCENE | FERRY_CAN_FROM_SCENE},
     .read = fy_alm_read, .free = fy_alm_free, .write = fy_alm_write, .validate = fy_alm_validate,
     .info = fy_alm_info, .to_scene = fy_alm_to_scene, .from_scene = fy_alm_from_scene},
    {.desc = {FERRY_FORMAT_GLB, "glTF binary", "glb", ext_glb, FERRY_CAN_READ | FERRY_CAN_TO_SCENE},
     .read = fy_gltf_read, .free = fy_gltf_free, .to_scene = fy_gltf_to_scene},
    {.desc = {FERRY_FORMAT_GLTF, "glTF", "gltf", ext_gltf, FERRY_CAN_READ | FERRY_CAN_TO_SCENE},
     .read = fy_gltf_read, .free = fy_gltf_free, .to_scene = fy_gltf_to_scene},
    {.desc = {FERRY_FORMAT_PAA, "PAA", "paa", ext_paa, CAPS_MODEL},
     .read = fy_paa_read, .free = fy_paa_free, .write = fy_paa_write, .validate = fy_paa_validate,
     .info = fy_paa_info},
    {.desc = {FERRY_FORMAT_MEG, "MEG", "meg", ext_meg, CAPS_MODEL | FERRY_IS_ARCHIVE},
     .read = fy_meg_read, .free = fy_meg_free, .write = fy_meg_write, .write_tables = fy_meg_write_tables,
     .validate = fy_meg_validate, .entry_count = fy_meg_entry_count, .entry_at = fy_meg_entry_at,
     .archive = &fy_meg_archive, .info = fy_meg_info},
    {.desc = {FERRY_FORMAT_PBO, "PBO", "pbo", ext_pbo, CAPS_MODEL | FERRY_IS_ARCHIVE},
     .read = fy_pbo_read, .free = fy_pbo_free, .write = fy_pbo_write, .write_tables = fy_pbo_write_tables,
     .validate = fy_pbo_validate, .entry_count = fy_pbo_entry_count, .entry_at = fy_pbo_entry_at,
     .entry_bytes = fy_pbo_entry_bytes, .archive = &fy_pbo_archive, .info = fy_pbo_info},
    {.desc = {FERRY_FORMAT_RAP, "raP config", "rap", ext_rap, CAPS_MODEL},
     .read = fy_config_read, .free = fy_config_free, .write = fy_rap_write, .write_layout = fy_config_write_layout,
     .validate = fy_config_validate, .info = fy_config_info},
    /* Text is read into the same tree as raP; its bytes have no writer
     * of their own: it is written as raP or as new text (write_layout). */
    {.desc = {FERRY_FORMAT_CONFIG_TEXT, "config text", "config_text", ext_text,
              FERRY_CAN_READ | FERRY_CAN_VALIDATE | FERRY_CAN_INFO},
     .read = fy_config_read, .free = fy_config_free, .write_layout = fy_config_write_layout,
     .validate = fy_config_validate, .info = fy_config_info},
};

#define ROW_COUNT (sizeof rows / sizeof rows[0])

const fy_format_row *fy_format_row_of(ferry_format id)
{
    for (size_t i = 0; i < ROW_COUNT; i++)
        if (rows[i].desc.id == id) return &rows[i];
    return NULL;
}

size_t ferry_format_count(void) { return ROW_COUNT; }

const ferry_format_desc *ferry_format_at(size_t index) { return index < ROW_COUNT ? &rows[index].desc : NULL; }

const ferry_format_desc *ferry_format_describe(ferry_format id)
{
    const fy_format_row *row = fy_format_row_of(id);
    return row ? &row->desc : NULL;
}

/* Extensions other files carry too (compiled binaries, C++ sources): a
 * name alone says nothing about the content. */
static const char *const shared_extensions[] = {".bin", ".cpp", ".hpp"};

bool fy_format_named_like_asset(const char *name, size_t n)
{
    for (size_t i = 0; i < ROW_COUNT; i++) {
        if (!(rows[i].desc.caps & FERRY_CAN_VALIDATE)) continue;
        for (const char *const *e = rows[i].desc.extensions; *e; e++) {
            size_t k = strlen(*e), s = 0;
            while (s < sizeof shared_extensions / sizeof *shared_extensions && strcmp(*e, shared_extensions[s]) != 0) s++;
            if (s == sizeof shared_extensions / sizeof *shared_extensions && n > k && strncasecmp(name + n - k, *e, k) == 0)
                return true;
        }
    }
    return false;
}

ferry_format ferry_format_from_name(const char *file_name)
{
    if (!file_name) return FERRY_FORMAT_UNKNOWN;
    size_t n = strlen(file_name);
    for (size_t i = 0; i < ROW_COUNT; i++)
        for (const char *const *e = rows[i].desc.extensions; *e; e++) {
            size_t k = strlen(*e);
            if (n > k && strcasecmp(file_name + n - k, *e) == 0) return rows[i].desc.id;
        }
    return FERRY_FORMAT_UNKNOWN;
}

ferry_format ferry_format_of_file(const char *path, ferry_format *content)
{
    uint8_t head[FERRY_DETECT_HEAD];
    size_t got = 0;
    ferry_error ignored; /* the read that follows says what is wrong with the file */
    ferry_format f = FERRY_FORMAT_UNKNOWN;
    if (path && ferry_file_read_head(path, head, sizeof head, &got, NULL, &ignored) == FERRY_OK) f = ferry_detect(head, got);
    if (content) *content = f;
    return f != FERRY_FORMAT_UNKNOWN ? f : ferry_format_from_name(path);
}
