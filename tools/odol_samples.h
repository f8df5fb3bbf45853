/* The ODOL v40 samples ferry bundles under samples/odol, built by hand
 * through <ferry/odol.h>. tools/make_odol_samples.c writes them;
 * tests/test_odol.c rebuilds them, checks the committed files still match
 * and compares what is read with what was built. This is the one
 * definition of what the samples hold.
 *
 * Between them they hold what the six real v40 files lack: animation
 * classes of all ten transform types with both bone tables, a skeleton,
 * keyframes, quads beside triangles, materials (by index and by name),
 * weighted and sectional named selections, proxies, a LOD stored as not
 * permanent, a second UV set, condensed arrays both per vertex and filled
 * with one value, and every "potentially compressed" array both raw (under
 * 1024 bytes) and LZSS-compressed (1024 bytes and more).
 */
#ifndef FERRY_TOOLS_ODOL_SAMPLES_H
#define FERRY_TOOLS_ODOL_SAMPLES_H

#include <ferry/odol.h>

typedef struct odol_sample {
    const char *file;        /* path under the samples directory, e.g. "odol/box.p3d" */
    ferry_odol_model model;  /* built by hand: offsets FERRY_NO_OFFSET, arena NULL, nothing "stored" */
    ferry_arena *storage;    /* owns every array the model points to */
} odol_sample;

/* A textured box (LOD 1.000: two quads and eight triangles, two sections,
 * a version 9 material, two UV sets, points shared by the face corners) and
 * its Geometry LOD with a raw mass array. Every array is raw. */
void odol_sample_build_box(odol_sample *out);
/* A door on a skeleton of four bones: ten animation classes, one per
 * transform type, moving bones in the visual LOD (stored as not
 * permanent, with keyframes, proxies, bone weights) and fewer in the
 * Memory LOD (bones -1 both with and without axis data). */
void odol_sample_build_door(odol_sample *out);
/* A 32 x 32 vertex grid and a 16 x 16 Geometry grid: every potentially
 * compressed array at 1024 bytes or more (the mass array at exactly 1024),
 * beside a 1023-byte weight array and small ones that stay raw. */
void odol_sample_build_grid(odol_sample *out);

void odol_sample_free(odol_sample *sample);

typedef void (*odol_sample_builder)(odol_sample *out);
extern const odol_sample_builder odol_sample_builders[];
extern const size_t odol_sample_builder_count;

/* Fills in what the file stores about its own layout, as ferry_odol_update
 * does (make_odol_samples uses that), but computed here from the format's
 * rules and the writer's output sizes, so that tests/test_odol.c can check
 * one against the other: each LOD's face block size
 * (8 bytes per triangle, 10 per quad), its rest size (the bytes from that
 * field to the LOD's end) and the LOD start/end offsets, LODs stored in
 * model->storage_order. 0 on success. */
int odol_sample_layout(ferry_odol_model *model);

/* Bytes of a LOD with nothing in it (every count 0, one empty UV set),
 * counted field by field from the specification. */
#define ODOL_SAMPLE_EMPTY_LOD_SIZE 154u

#endif
