/* Alamo animation files (.ALA): the translation, rotation, scale and
 * visibility of a model's bones over a number of frames.
 *
 * Two layouts exist. Format 1 (Empire at War) stores one set of arrays per
 * bone; format 2 (Forces of Corruption) stores one block per frame holding
 * every animated bone, and per-bone indices into those blocks. The
 * animation keeps the values exactly as stored (16-bit integers, and per
 * bone an offset and a scale for translations and scales), so writing is
 * exact; the sampling functions decode them, and ferry_ala_write_format
 * moves the integers between the two layouts without requantizing.
 *
 * Plain data, as in alo.h: a read animation lives in one arena and is
 * released with ferry_ala_free; one built by hand may point anywhere, since
 * the writer only reads it. Unknown chunks and mini-chunks, their order and
 * bytes after strings are kept, so ferry_ala_write reproduces a read file
 * byte for byte. docs/formats/ala-animation.md has the details.
 */
#ifndef FERRY_ALA_H
#define FERRY_ALA_H

#include <ferry/alo.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Chunk types of the animation format. */
enum {
    FERRY_ALA_ANIMATION = 0x1000,         /* container: the whole animation */
    FERRY_ALA_HEADER = 0x1001,            /* mini-chunks: frames, fps, bones (+ strides in format 2) */
    FERRY_ALA_BONE = 0x1002,              /* container: one animated bone */
    FERRY_ALA_BONE_HEADER = 0x1003,       /* mini-chunks: name, index, offsets, scales (+ indices) */
    FERRY_ALA_TRANSLATIONS = 0x1004,      /* format 1: uint16 x 3 per frame */
    FERRY_ALA_SCALES = 0x1005,            /* format 1: uint16 x 3 per frame */
    FERRY_ALA_ROTATIONS = 0x1006,         /* format 1: int16 x 4 per frame, or one quaternion */
    FERRY_ALA_VISIBILITY = 0x1007,        /* one bit per frame */
    FERRY_ALA_STEPS = 0x1008,             /* one bit per frame */
    FERRY_ALA_FRAME_ROTATIONS = 0x1009,   /* format 2: int16 blocks, one per frame */
    FERRY_ALA_FRAME_TRANSLATIONS = 0x100a, /* format 2: uint16 blocks, one per frame */
    FERRY_ALA_FRAME_SCALES = 0x100b       /* format 2: uint16 blocks, one per frame */
};

typedef enum ferry_ala_format { FERRY_ALA_FORMAT_1 = 1, FERRY_ALA_FORMAT_2 = 2 } ferry_ala_format;

/* Format-2 track index meaning "this bone has no such track". */
#define FERRY_ALA_NOT_ANIMATED (-1)

/* Format-2 mini-chunks of a bone header, as bits of ferry_ala_bone.present.
 * A format-2 animation always writes all four; a format-1 one writes those
 * set (only a damaged file has them). */
#define FERRY_ALA_BONE_HAS_TRANSLATION_INDEX (1u << 14)
#define FERRY_ALA_BONE_HAS_SCALE_INDEX (1u << 15)
#define FERRY_ALA_BONE_HAS_ROTATION_INDEX (1u << 16)
#define FERRY_ALA_BONE_HAS_DEFAULT_ROTATION (1u << 17)
#define FERRY_ALA_BONE_FORMAT2_MINIS 0x3C000u

/* Where a bone's parts were read (FERRY_NO_OFFSET when built or absent). */
typedef struct ferry_ala_bone_source {
    uint64_t header, translations, scales, rotations, visibility, steps;
} ferry_ala_bone_source;

typedef struct ferry_ala_bone {
    const char *name; /* mini 4 */
    uint32_t index;   /* mini 5: the bone of the model's skeleton this track drives */
    /* Mini 10, unnamed in the spec. In every real file it is 1 only on
     * bones without per-frame data (it may also be 0 on those). */
    uint32_t unknown;
    /* Minis 6..9: translation = offset + stored uint16 * scale, per axis;
     * the same for scale. Without a track the offset is the value. */
    float translation_offset[3], translation_scale[3];
    float scale_offset[3], scale_scale[3];

    /* Format 2, minis 14..16: where the bone's values start inside each
     * frame block, counted in 16-bit values (not vectors); negative
     * (FERRY_ALA_NOT_ANIMATED) when the bone has no such track. A bone read
     * from a format-1 file holds -1 here and the identity below. */
    int16_t translation_index, scale_index, rotation_index;
    /* Mini 17: x, y, z, w over 32767, the rotation of a bone without a
     * rotation track (real files also give animated bones one, about
     * their first frame, which sampling never uses). */
    int16_t default_rotation[4];
    uint32_t present; /* FERRY_ALA_BONE_HAS_* */

    /* Format 1 tracks (empty in format 2). translations and scales hold 3
     * values per entry, rotations 4 (x, y, z, w over 32767); an entry per
     * frame, except that a rotation track of one entry holds for every frame. */
    uint16_t *translations;
    size_t translation_count; /* entries (frames), not values */
    uint16_t *scales;
    size_t scale_count;
    int16_t *rotations;
    size_t rotation_count;
    bool has_translations, has_scales, has_rotations; /* the chunk is stored, even if empty */

    /* Bits, one per frame: frame i is bit i % 8 of byte i / 8. */
    uint8_t *visibility; /* 0x1007: the bone (and what hangs on it) is shown */
    size_t visibility_size; /* bytes */
    uint8_t *steps; /* 0x1008: hold frame i's value until frame i + 1 */
    size_t step_size;
    bool has_visibility, has_steps;

    ferry_mini_layout header_layout; /* of 0x1003 */
    ferry_chunk_layout layout;       /* children of 0x1002 */
    uint64_t offset;                 /* of the 0x1002 chunk; FERRY_NO_OFFSET when built */
    ferry_ala_bone_source source;
} ferry_ala_bone;

typedef struct ferry_ala_animation {
    uint8_t format;       /* ferry_ala_format: 1 or 2 */
    uint32_t frame_count; /* header mini 1 */
    float fps;            /* header mini 2 */
    /* Header mini 3 (numBones) is written as bone_count, except for a read
     * file where it said otherwise: then bone_count_mismatch is set and the
     * stated value is kept, so the file writes back as it was (validation
     * reports it). */
    uint32_t stated_bone_count;
    bool bone_count_mismatch;
    ferry_ala_bone *bones; /* one per 0x1002 chunk, in file order */
    size_t bone_count;

    /* Format 2: frame blocks. Each stride (header minis 11, 12, 13) counts
     * the 16-bit values of one frame's block; frame f of a bone starts at
     * f * stride + the bone's index. Counts are in values. */
    uint32_t rotation_stride, translation_stride, scale_stride;
    int16_t *frame_rotations; /* 0x1009 */
    size_t frame_rotation_count;
    uint16_t *frame_translations; /* 0x100a */
    size_t frame_translation_count;
    uint16_t *frame_scales; /* 0x100b */
    size_t frame_scale_count;
    bool has_frame_rotations, has_frame_translations, has_frame_scales; /* stored, even if empty */

    ferry_mini_layout header_layout; /* of 0x1001 */
    ferry_chunk_layout layout;       /* children of 0x1000 */
    ferry_chunk_layout file_layout;  /* root chunks: 0x1000 and any unknown ones */
    const ferry_string_tail *string_tails;
    size_t string_tail_count;
    /* Where things were read (FERRY_NO_OFFSET when built). */
    uint64_t offset, header_offset, frame_rotations_offset, frame_translations_offset, frame_scales_offset;
    ferry_arena *arena; /* owner of a read animation; NULL for one built by hand */
} ferry_ala_animation;

/* ---- reading and writing ---- */

/* Reads an animation. The format is told by the header: format 2 stores the
 * frame strides (minis 11..13; its header is 36 bytes, format 1's 18).
 * Structure problems (sizes, missing chunks, arrays that are not whole
 * vectors) are located errors; whether the arrays agree with the frame
 * count is left to ferry_ala_validate, and sampling stays in bounds. */
FERRY_API ferry_result ferry_ala_read(const uint8_t *data, size_t size, const ferry_read_options *options,
                                      ferry_ala_animation **out, ferry_error *err);
FERRY_API void ferry_ala_free(ferry_ala_animation *anim);

/* Appends the animation's bytes, in its own format, to `out`. A read
 * animation comes out byte for byte. */
FERRY_API ferry_result ferry_ala_write(const ferry_ala_animation *anim, ferry_buffer *out, ferry_error *err);

/* Writes in `format`, converting when it differs from the animation's:
 * format 1 -> 2 packs each bone's tracks into frame blocks (indices given
 * in bone order, a one-entry rotation becoming the default rotation) and
 * 2 -> 1 unpacks them (a bone without a rotation track gets its default
 * rotation as a one-entry track). The integers move unchanged, so sampling
 * the result gives the same poses exactly. Refused (FERRY_ERR_ARGUMENT, the
 * bone and chunk named) when the tracks disagree with the frame count or an
 * index lies outside its block, which is what ferry_ala_validate reports. */
FERRY_API ferry_result ferry_ala_write_format(const ferry_ala_animation *anim, ferry_ala_format format, ferry_buffer *out,
                                              ferry_error *err);

/* ferry_ala_write_format, then ferry_ala_read of the result: a new
 * animation in its own arena (the input is not changed). */
FERRY_API ferry_result ferry_ala_convert(const ferry_ala_animation *anim, ferry_ala_format format,
                                         const ferry_read_options *options, ferry_ala_animation **out, ferry_error *err);

/* ---- sampling ---- */

typedef struct ferry_ala_pose {
    float translation[3];
    float rotation[4]; /* unit quaternion x, y, z, w */
    float scale[3];
    bool visible;        /* meaningful only when has_visibility */
    bool has_visibility; /* false: the animation does not say; the model's flag applies */
} ferry_ala_pose;

/* What happens to frames outside [0, frame_count - 1]. */
typedef enum ferry_ala_wrap {
    FERRY_ALA_CLAMP = 0, /* before the first frame: the first; after the last: the last */
    FERRY_ALA_LOOP = 1   /* repeat with period frame_count - 1: the last frame is the first again */
} ferry_ala_wrap;

/* A bone's pose at an integer frame (clamped to the last frame): the stored
 * values decoded, the rotation normalized. A bone index out of range gives
 * the rest pose (no translation, identity rotation, unit scale). */
FERRY_API void ferry_ala_sample_frame(const ferry_ala_animation *anim, size_t bone, uint32_t frame, ferry_ala_pose *out);

/* A bone's pose at a fractional frame. Between frames i and i + 1,
 * translation and scale are interpolated linearly and the rotation by
 * slerp along the shorter arc; when the bone's step bit for frame i is set,
 * frame i's values hold until frame i + 1. Visibility is frame i's bit. */
FERRY_API void ferry_ala_sample(const ferry_ala_animation *anim, size_t bone, double frame, ferry_ala_wrap wrap,
                                ferry_ala_pose *out);

/* Every bone at once: out[anim->bone_count], in bone order. */
FERRY_API void ferry_ala_sample_all(const ferry_ala_animation *anim, double frame, ferry_ala_wrap wrap, ferry_ala_pose *out);

/* Seconds -> frames (seconds * fps); 0 when fps is not a positive number. */
FERRY_API double ferry_ala_frame_at(const ferry_ala_animation *anim, double seconds);
/* Seconds from the first frame to the last: (frame_count - 1) / fps, 0 when
 * fps is not a positive number or there is at most one frame. */
FERRY_API double ferry_ala_duration(const ferry_ala_animation *anim);
/* ferry_ala_sample at ferry_ala_frame_at(anim, seconds). */
FERRY_API void ferry_ala_sample_time(const ferry_ala_animation *anim, size_t bone, double seconds, ferry_ala_wrap wrap,
                                     ferry_ala_pose *out);

/* ---- validation ---- */

typedef struct ferry_ala_validate_options {
    int reserved; /* no options yet: leave zero (a NULL options pointer is the same) */
} ferry_ala_validate_options;

/* Appends every problem found to `diags` (rules such as frame-data-size,
 * track-index, rotation-unit, fps; see docs/formats/ala-animation.md);
 * returns the number of errors. Works on any animation, read or built.
 * `options` may be NULL (defaults). */
FERRY_API size_t ferry_ala_validate(const ferry_ala_animation *anim, const ferry_ala_validate_options *options,
                                    ferry_diagnostics *diags);

/* Checks the animation against the model it is meant for and appends what
 * disagrees, all as warnings (the engine loads such files; see
 * docs/formats/ala-animation.md): an index beyond the model's skeleton
 * (anim-bone-range), an index whose bone has another name while a bone of the
 * track's name exists elsewhere (anim-bone-mismatch), no bone of the model
 * with the track's name (anim-bone-missing). Names compare ignoring ASCII
 * case. Returns the errors (none today). */
FERRY_API size_t ferry_ala_check_model(const ferry_ala_animation *anim, const ferry_alo_model *model,
                                       ferry_diagnostics *diags);

/* The match rule of export: an animation fits a model when every track's
 * bone index lies within the model's skeleton and that bone has the track's
 * name (ignoring ASCII case); then reading tracks by index and by name give
 * the same bones. Returns the number of tracks that do not fit (0: it fits).
 * `summary` (may be NULL) receives one line naming them, the names the model
 * lacks first ("bones not in the model: 'A', 'B'; tracks on other bones:
 * 'C' (for bone 4, 'D')"), cut with "..." when it does not fit. */
FERRY_API size_t ferry_ala_model_misfits(const ferry_ala_animation *anim, const ferry_alo_model *model, char *summary,
                                         size_t summary_size);

/* The naming rule that pairs animation files with models: MODEL_NAME.ala
 * belongs to MODEL.alo, i.e. the animation's file name starts with the
 * model's stem followed by '_', ignoring ASCII case; of several such models
 * the longest stem wins (X_Y_IDLE_00.ala belongs to X_Y.alo, not X.alo), the
 * first given on a tie. Folders in the names are ignored. Returns the index
 * into model_files, or `count` when no model fits. */
FERRY_API size_t ferry_ala_model_for(const char *animation_file, const char *const *model_files, size_t count);

/* The file name the game finds an animation of MODEL.alo by: beside the
 * model, MODEL_<NAME>.ala, or <NAME>.ala when the animation's name already
 * starts with the model's stem and '_' (ignoring ASCII case; a trailing
 * ".ala" in the name is dropped). An empty or NULL name uses the index.
 * Characters a file name cannot hold become '_'. */
FERRY_API void ferry_ala_file_name(const char *model_path, const char *animation_name, size_t animation_index,
                                   char *out, size_t out_size);

/* The animations of a model found by that rule, as `--anim auto` does: the
 * .ala files in the model's folder of `source` (model_path is the model's
 * path there) whose model among the folder's .alo files is this one. Files
 * only (folders and other entries are not listed by a source). *paths gets
 * their paths in the source, sorted by byte order (malloc'd, release with
 * ferry_ala_free_paths); *count how many. A folder that cannot be listed is
 * the source's error. */
FERRY_API ferry_result ferry_ala_find_animations(const ferry_file_source *source, const char *model_path, char ***paths,
                                       size_t *count, ferry_error *err);
FERRY_API void ferry_ala_free_paths(char **paths, size_t count);

#ifdef __cplusplus
}
#endif

#endif
