/* Data derived from an ALO model without changing it: bone matrices in
 * model space and vertex bounds. */
#include <ferry/alo.h>

#include <math.h>
#include <string.h>

#include "../../core/core.h"
#include "../../core/core_math.h"

void ferry_alo_bone_local_matrix(const ferry_alo_bone *bone, float out[16])
{
    if (!out) return;
    if (!bone) {
        fy_mat4_identity(out);
        return;
    }
    /* The file stores the top three rows of a matrix that multiplies column
     * vectors; column-major output is the transpose of that row layout. */
    for (int row = 0; row < 3; row++) {
        for (int col = 0; col < 4; col++) out[col * 4 + row] = bone->matrix[row * 4 + col];
    }
    out[3] = out[7] = out[11] = 0.0f;
    out[15] = 1.0f;
}

void ferry_alo_bone_world_matrices(const ferry_alo_model *model, float *out)
{
    if (!model || !out) return;
    const ferry_alo_skeleton *sk = &model->skeleton;
    for (size_t i = 0; i < sk->bone_count; i++) {
        float *world = out + 16 * i;
        if (!sk->bones) {
            fy_mat4_identity(world);
            continue;
        }
        float local[16];
        ferry_alo_bone_local_matrix(&sk->bones[i], local);
        int32_t parent = sk->bones[i].parent;
        /* Only an earlier bone can be a parent: its world matrix is already
         * done, and a malformed file cannot make a cycle. */
        if (parent >= 0 && (size_t)parent < i) {
            fy_mat4_mul(out + 16 * (size_t)parent, local, world);
        } else {
            memcpy(world, local, sizeof local);
        }
    }
}

bool ferry_alo_mesh_vertex_bounds(const ferry_alo_mesh *mesh, float min[3], float max[3])
{
    if (!mesh || !min || !max) return false;
    bool any = false;
    for (size_t s = 0; s < mesh->submesh_count && mesh->submeshes; s++) {
        const ferry_alo_submesh *sm = &mesh->submeshes[s];
        if (!sm->vertices) continue;
        for (size_t v = 0; v < sm->vertex_count; v++) {
            const float *p = sm->vertices[v].position;
            /* A NaN or infinite position would make the whole box useless;
             * validation reports such vertices, bounds describe the rest. */
            if (!isfinite(p[0]) || !isfinite(p[1]) || !isfinite(p[2])) continue;
            for (int a = 0; a < 3; a++) {
                if (!any || p[a] < min[a]) min[a] = p[a];
                if (!any || p[a] > max[a]) max[a] = p[a];
            }
            any = true;
        }
    }
    return any;
}
