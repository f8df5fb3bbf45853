/* The sample models ferry bundles under samples/, built by hand through the
 * public API. tools/make_samples.c writes them; tests/test_alo_samples.c
 * rebuilds them and checks the committed files still match, so this is the
 * one definition of what the samples hold.
 *
 * Between them the samples use every chunk type of <ferry/alo.h>, including
 * those no real file in the corpus has (0x205 bones, 0x10005 vertices, INT
 * and FLOAT3 shader parameters, dazzles). Their geometry is sane (unit
 * normals, tangent frames that follow the UVs, outward winding) so that
 * they also serve as examples of what a correct model looks like.
 */
#ifndef FERRY_TOOLS_SAMPLE_MODELS_H
#define FERRY_TOOLS_SAMPLE_MODELS_H

#include <ferry/alo.h>

typedef struct sample_model {
    const char *file;      /* path under the samples directory, e.g. "alamo/crate.alo" */
    ferry_alo_model model; /* built by hand: layouts empty, arena NULL */
    ferry_arena *storage;  /* owns every array the model points to */
} sample_model;

/* A textured, collidable crate: one mesh with a collision tree, three bones,
 * an object connection and a proxy. */
void sample_build_crate(sample_model *out);
/* A skinned figure: 0x205 and 0x206 bones, a bone mapping, lights of all
 * three types, proxies with and without their optional fields, dazzles. */
void sample_build_walker(sample_model *out);
/* The older chunk variants: 0x205 bones only, 0x10005 vertices, INT and
 * FLOAT3 shader parameters, one mesh with two sub-meshes. */
void sample_build_legacy(sample_model *out);

void sample_model_free(sample_model *sample);

typedef void (*sample_builder)(sample_model *out);

/* Every sample, in a fixed order. */
extern const sample_builder sample_builders[];
extern const size_t sample_builder_count;

#endif
