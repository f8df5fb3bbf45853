/* The textures of an ODOL model's sections, found in the caller's roots
 * (ferry_odol_find_files), decoded and embedded as PNG, each file once per
 * use (colour or normal map). Used by odol_scene.c only;
 * docs/formats/odol-gltf.md, "Textures". */
#ifndef FERRY_ODOL_SCENE_TEXTURE_H
#define FERRY_ODOL_SCENE_TEXTURE_H

#include "convert_internal.h"

#include <ferry/config.h>

typedef struct fy_odol_texture {
    const char *name;    /* as the model spells it (the first spelling met) */
    bool normal;         /* wanted as a normal map */
    ferry_odol_found found;
    bool tried;          /* embedding attempted */
    int32_t image;       /* scene image, -1: none */
    ferry_alpha_mode alpha; /* what the colour texture's alpha asks for */
    const char *problem; /* why there is no image: "not found", ... (static text) */
    const char *shown;   /* where it was found, as messages show it (arena) */
} fy_odol_texture;

/* An .rvmat a section names, found in the roots and read
 * (ferry_config_read, ferry_rvmat_read). */
typedef struct fy_odol_rvmat {
    const char *name;      /* as the model spells it */
    ferry_odol_found found;
    ferry_config *config;  /* NULL: not found or not readable */
    ferry_rvmat mat;       /* valid with config */
    const char *problem;   /* why there is none: "not found", or the reader's message (arena) */
    const char *shown;     /* where it was found (arena) */
} fy_odol_rvmat;

typedef struct fy_odol_textures {
    const ferry_odol_scene_options *opts;
    ferry_scene *scene;
    ferry_arena *arena;
    fy_odol_texture *items;
    size_t count, capacity;
    size_t image_capacity;
    const char **missing; /* arena; names not found or not decodable, first use first */
    size_t missing_count;
    fy_odol_rvmat *rvmats; /* malloc'd */
    size_t rvmat_count;
} fy_odol_textures;

/* The texture file a material record names as its normal map: the first
 * stage whose file name ends in a normal-map suffix (_no, _nohq, _ns,
 * _nshq, _nof, _nofhq, _non, _novhq, _nopx, _normalmap, before the extension);
 * procedural stages are not files. NULL when there is none. */
const char *fy_odol_normal_stage(const ferry_odol_material *record);

/* The .rvmat path a section names: its material record's name, else its
 * own material name; "" for none. */
const char *fy_odol_section_rvmat(const ferry_odol_lod *lod, const ferry_odol_section *sec);

/* The rvmat entry of `name` (NULL when the name was not collected). */
const fy_odol_rvmat *fy_odol_rvmat_find(const fy_odol_textures *t, const char *name);

/* A section's normal map: its material record's normal stage; without one,
 * the normal stage of its .rvmat file when that was found and read. */
const char *fy_odol_section_normal(const fy_odol_textures *t, const ferry_odol_material *record, const char *rvmat);

/* Finds and reads the .rvmat files the chosen LODs' sections name, then
 * collects the texture names they use (their texture, and their normal
 * map) and finds them all in one pass over the roots. False with err set
 * on memory failure. */
bool fy_odol_textures_prepare(fy_odol_textures *t, const ferry_odol_model *m, const uint32_t *lods, size_t lod_count,
                              ferry_error *err);

/* The texture entry of `name` used as colour (normal false) or normal map,
 * embedded on first use (a warning per name not found or not decodable).
 * NULL when the name was not collected. *nomem on memory failure. */
const fy_odol_texture *fy_odol_texture_use(fy_odol_textures *t, const char *name, bool normal, bool *nomem);

void fy_odol_textures_free(fy_odol_textures *t);

#endif
