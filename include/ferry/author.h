/* Authoring for the game: a scene (a glTF read by ferry_gltf_load, or any
 * scene a front end made, such as FBX, OBJ or Collada through its own
 * reader) made into the files the game loads, each checked by ferry
 * validate's rules before it is written; and the scene an ALM progressive
 * mesh is built from an ALO model; an image made a PAA/PAC texture. The
 * jobs `ferry convert` runs for IN.glb -> OUT.alo, -> OUT.ala and ->
 * OUT.alm, and IN.png|.tga|.dds -> OUT.paa, for every front end.
 *
 * Paths are the outputs the jobs write (ferry_file_write: atomically, never
 * over options->write.protect_input). What a job meets is sent as
 * ferry_messages (ferry.h) as it goes, errors that end it included; what it
 * made is its report (filled also on failure, as far as the job got). */
#ifndef FERRY_AUTHOR_H
#define FERRY_AUTHOR_H

#include <ferry/convert.h>
#include <ferry/format.h>
#include <ferry/paa.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- a scene's animation -> an ALA file ---- */

typedef struct ferry_author_ala_options {
    const char *name;        /* how messages name the scene's file; NULL: "scene" */
    size_t animation_index;  /* which of the scene's animations (0: the first) */
    uint8_t format;          /* ALA format 1 or 2; 0: 2 */
    double fps;              /* frames per second to sample at; 0: the animation's extras, else 30 */
    /* An asset of the ALO model the animation is for: tracks are bound to
     * its bones by name, in its bone order (the game binds by index).
     * NULL: the scene's bones (ferry_ala_scene_bones). Another format is
     * FERRY_ERR_ARGUMENT. */
    const ferry_asset *model;
    ferry_write_options write;
    ferry_message_fn message;
    void *user;
} ferry_author_ala_options;

typedef struct ferry_author_ala_report {
    ferry_ala_from_scene_report animation; /* what the conversion did */
    uint8_t format;                        /* the ALA format written */
    size_t warnings;                       /* the conversion's warnings */
    size_t validation_errors;              /* errors ferry validate found in the animation built (then not written) */
    bool write_failed; /* the job ended writing the file: err is the writer's (FERRY_ERR_ARGUMENT: the output is protect_input) */
} ferry_author_ala_report;

/* The scene's animation options->animation_index as the ALA file
 * `out_path` (ferry_ala_from_scene), validated before it is written.
 * Messages: the conversion's warnings ("PLACE [RULE]: MESSAGE", about the
 * input), the problems validation found (about the output) and why it was
 * not written, or a note "IN -> OUT: animation I 'NAME', F frames at R fps,
 * B bones, format N". Returns FERRY_OK once the file is written. */
FERRY_API ferry_result ferry_author_ala(const ferry_scene *scene, const char *out_path,
                                        const ferry_author_ala_options *options, ferry_author_ala_report *report,
                                        ferry_error *err);

/* ---- a scene -> an ALO model, its animations and its textures ---- */

typedef struct ferry_author_alo_options {
    const char *name;        /* how messages name the scene's file; NULL: "scene" */
    uint8_t ala_format;      /* the animations' ALA format, 1 or 2; 0: 2 */
    /* Write a model ferry validate finds errors in (every problem it found
     * is then sent, warnings too); by default it is not written (its errors
     * are sent) and the job fails. */
    bool allow_invalid;
    ferry_write_options write;
    ferry_message_fn message;
    void *user;
} ferry_author_alo_options;

typedef struct ferry_author_alo_report {
    /* What ferry_alo_from_scene made and decided (`textures` is NULL after
     * the call: the model is gone; texture_count is kept). */
    ferry_alo_from_scene_report model;
    size_t validation_errors, validation_warnings; /* ferry validate's findings in the model */
    bool write_failed; /* the job ended writing the model: err is the writer's */
    size_t animations_written; /* of the scene's animations, as .ala files beside the model */
    /* The last animation not written: why (FERRY_OK: every one was), and
     * whether it failed writing its file (else building or validating it). */
    ferry_result animation_result;
    bool animation_write_failed;
    size_t textures_written; /* of model.texture_count, as .dds in textures_folder */
    size_t textures_failed;  /* .dds files that could not be written (an image that does not decode or encode is a warning) */
} ferry_author_alo_report;

/* The scene as the ALO model `out_path` (ferry_alo_from_scene), checked by
 * ferry validate's rules (an error: nothing is written, unless
 * options->allow_invalid); then each of the scene's animations as the ALA
 * file the game finds beside the model (ferry_ala_file_name: MODEL_NAME.ala),
 * its tracks bound to the model's bones (ferry_author_ala's steps: a
 * failed one is sent and the others go on); then, when textures_folder is
 * not NULL, the images the mapped materials name as the game's .dds
 * textures there (ferry_alamo_texture_encode_dds under the names the
 * materials give). Returns FERRY_OK once the model is written, whatever
 * became of its animations and textures (the report says). Messages: the
 * conversion's warnings (about the input), validation's problems (about
 * the output), each animation's, each texture's. */
FERRY_API ferry_result ferry_author_alo(const ferry_scene *scene, const char *out_path, const char *textures_folder,
                                        const ferry_author_alo_options *options, ferry_author_alo_report *report,
                                        ferry_error *err);

/* ---- ALM progressive meshes ---- */

typedef struct ferry_author_alm_scene_options {
    const char *name;       /* how messages name the model; NULL: ferry_asset_name */
    /* The scene's name (ferry_alo_scene_options.name); NULL: the model's
     * file name (`name`, else the asset's) without folders ('/' or '\\')
     * and extension, as an export names it; without either, the converter's. */
    const char *scene_name;
    /* The one animation the ALM keeps (an ALA asset whose bones must be the
     * model's: ferry_ala_model_misfits; one that does not fit is
     * FERRY_ERR_ARGUMENT). NULL: none, or the one found: */
    const ferry_asset *animation;
    /* ...the first of the model's animations beside it that reads and fits
     * (ferry_ala_find_animations(animations, model_path): `--anim auto`);
     * each one before it is skipped with a warning. NULL: not looked for. */
    const ferry_file_source *animations;
    const char *model_path;
    ferry_message_fn message;
    void *user;
} ferry_author_alm_scene_options;

/* An ALO model as the scene an ALM is built from: the model as the game
 * draws it (no shadow, collision or explicit LOD meshes: the progressive
 * mesh replaces those; textures not embedded), with its animation. A model
 * asset only ("not a model: only models become ALM meshes" otherwise:
 * FERRY_ERR_ARGUMENT). */
FERRY_API ferry_result ferry_author_alm_scene(const ferry_asset *model, const ferry_author_alm_scene_options *options,
                                              ferry_scene **out, ferry_error *err);

typedef struct ferry_author_alm_options {
    const char *name;                   /* how messages name the input; NULL: "scene" */
    ferry_alm_from_scene_options alm;   /* the animation taken, how collapses are built */
    ferry_write_options write;
    ferry_message_fn message;
    void *user;
} ferry_author_alm_options;

typedef struct ferry_author_alm_report {
    uint32_t positions, vertices, triangles, collapses, frames;
    uint32_t fewest_triangles; /* triangles left after the last collapse record */
    bool write_failed;         /* the job ended writing the file: err is the writer's */
} ferry_author_alm_report;

/* A scene as the ALM progressive mesh `out_path` (ferry_alm_from_scene,
 * options->alm). Returns FERRY_OK once it is written. */
FERRY_API ferry_result ferry_author_alm(const ferry_scene *scene, const char *out_path,
                                        const ferry_author_alm_options *options, ferry_author_alm_report *report,
                                        ferry_error *err);

/* ---- an image -> a PAA/PAC texture ---- */

typedef struct ferry_author_paa_options {
    ferry_paa_encode_options encode; /* the type, linear (a data map), no LZO */
    ferry_write_options write;       /* protect_input: the image's path */
} ferry_author_paa_options;

typedef struct ferry_author_paa_report {
    uint16_t type;                    /* FERRY_PAA_DXT1 or FERRY_PAA_DXT5 */
    uint32_t width, height;           /* the largest mipmap */
    uint32_t last_width, last_height; /* the smallest */
    size_t mip_count, lzo_count;      /* the mipmaps, those LZO-compressed */
    size_t bytes;                     /* the file's size */
    bool write_failed;                /* the job ended writing the file: err is the writer's */
} ferry_author_paa_report;

/* The PNG, TGA or DDS image at `image_path` (ferry_image_decode) as the
 * PAA/PAC texture `out_path` (ferry_paa_encode, options->encode). Content
 * of another format ferry reads is refused naming it (FERRY_ERR_UNSUPPORTED:
 * "not an image (its format is NAME): PAA textures are written from PNG,
 * TGA or DDS images"), content of no known format as every such file is
 * ("not a known format: ..." at offset 0). Says nothing as it goes (no
 * messages): what it made is the report. Returns FERRY_OK once it is
 * written. */
FERRY_API ferry_result ferry_author_paa(const char *image_path, const char *out_path,
                                        const ferry_author_paa_options *options, ferry_author_paa_report *report,
                                        ferry_error *err);

#ifdef __cplusplus
}
#endif

#endif
