/* Animation-space skinning: bone transforms in object space, and the sum
 * over a vector's components of each bone's transform times its 4-vector. */
#include "alm_internal.h"
#include "../../core/core_math.h"

ferry_result ferry_alm_bone_matrices(const ferry_alm_mesh *mesh, int64_t frame, double *out, ferry_error *err)
{
    if (err) fy_error_clear(err);
    if (!mesh || (!out && mesh->bone_count)) {
        fy_error_set(err, FERRY_ERR_ARGUMENT, FERRY_NO_OFFSET, NULL, "no mesh or no output");
        return FERRY_ERR_ARGUMENT;
    }
    if (frame >= 0 && ((uint64_t)frame >= mesh->frame_count || (mesh->bone_count && !mesh->frames))) {
        fy_error_set(err, FERRY_ERR_ARGUMENT, FERRY_NO_OFFSET, NULL, "frame %lld is not one of the mesh's %u frames",
                     (long long)frame, (unsigned)mesh->frame_count);
        return FERRY_ERR_ARGUMENT;
    }
    for (uint32_t i = 0; i < mesh->bone_count; i++) {
        const double *local =
            frame < 0 ? mesh->bones[i].transform : mesh->frames + ((uint64_t)frame * mesh->bone_count + i) * 16;
        int32_t p = mesh->bones[i].parent;
        if (p == -1) {
            memcpy(out + 16 * (size_t)i, local, 16 * sizeof *out);
        } else if (p >= 0 && (uint32_t)p < i) {
            fy_mat4d_mul(out + 16 * (size_t)p, local, out + 16 * (size_t)i);
        } else {
            fy_error_set(err, FERRY_ERR_ARGUMENT, FERRY_NO_OFFSET, "bones",
                         "bone %u has parent %d, which does not precede it", (unsigned)i, (int)p);
            return FERRY_ERR_ARGUMENT;
        }
    }
    return FERRY_OK;
}

void ferry_alm_vector_eval(const ferry_alm_vector *v, const double *matrices, uint32_t bone_count, double out[4])
{
    out[0] = out[1] = out[2] = out[3] = 0.0;
    for (uint32_t i = 0; i < v->count; i++) {
        const ferry_alm_component *c = &v->components[i];
        if (c->bone >= bone_count) continue;
        const double *m = matrices + 16 * (size_t)c->bone;
        for (int r = 0; r < 4; r++)
            out[r] += m[4 * r] * c->coords[0] + m[4 * r + 1] * c->coords[1] + m[4 * r + 2] * c->coords[2] +
                      m[4 * r + 3] * c->coords[3];
    }
}
