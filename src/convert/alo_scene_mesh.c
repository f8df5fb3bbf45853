/* ALO meshes -> scene meshes: one primitive per sub-mesh, vertex attributes
 * chosen by the sub-mesh's vertex format, and the model's skin. */
#include "alo_scene_internal.h"

#include <math.h>
#include <string.h>

bool fy_alo_mesh_is_skinned(const ferry_alo_mesh *mesh)
{
    for (size_t i = 0; i < mesh->submesh_count; i++)
        if (mesh->submeshes[i].bone_mapping_count > 0) return true;
    return false;
}

bool fy_alo_make_skin(fy_alo_build *b)
{
    const ferry_alo_skeleton *sk = &b->model->skeleton;
    ferry_scene *s = b->scene;
    s->skins = fy_build_alloc(b, 1, sizeof *s->skins);
    int32_t *joints = fy_build_alloc(b, sk->bone_count, sizeof *joints);
    float *ibm = fy_build_alloc(b, sk->bone_count, 16 * sizeof *ibm);
    if (!s->skins || !joints || !ibm) return false;
    /* Skinned vertices are stored in model space at the rest pose (checked
     * on the corpus: they lie near their bones' model-space positions, not
     * near the positions seen from the mesh's own bone). The joint nodes sit
     * below the axis root, so a joint's glTF world matrix is R * W (R the
     * axis change); with inverse bind W^-1 the rest pose gives R * v, the
     * model-space vertex turned Y-up, which is what the rigid meshes get. */
    for (size_t i = 0; i < sk->bone_count; i++) {
        joints[i] = b->bone_node[i];
        fy_mat4_invert(&b->bone_world[16 * i], &ibm[16 * i]);
    }
    ferry_scene_skin *skin = &s->skins[0];
    skin->name = s->name;
    skin->joints = joints;
    skin->joint_count = sk->bone_count;
    skin->inverse_bind_matrices = ibm;
    FY_SET_REF(skin, skeleton, b->root_node);
    s->skin_count = 1;
    b->skin = 0;
    return true;
}

/* What the vertex format name says the shader reads: "alD3dVert" then
 * optionally "RSkin", then N (normal), U2 (a texture coordinate set),
 * U3 (tangent, then binormal), C (vertex colour). */
typedef struct vertex_format {
    bool known;
    unsigned uv_sets;
    bool tangents;
    bool colors;
} vertex_format;

static vertex_format parse_format(const char *name)
{
    vertex_format f = {0};
    static const char prefix[] = "alD3dVert";
    if (!name || strncmp(name, prefix, sizeof prefix - 1) != 0) return f;
    const char *p = name + sizeof prefix - 1;
    if (strncmp(p, "RSkin", 5) == 0) p += 5;
    unsigned u3 = 0;
    while (*p) {
        if (*p == 'N') {
            p++;
        } else if (*p == 'C') {
            f.colors = true;
            p++;
        } else if (*p == 'U' && p[1] == '2') {
            f.uv_sets++;
            p += 2;
        } else if (*p == 'U' && p[1] == '3') {
            u3++;
            p += 2;
        } else {
            return (vertex_format){0}; /* unknown token: judge from the data */
        }
    }
    f.known = true;
    f.tangents = u3 >= 2;
    if (f.uv_sets > 4) f.uv_sets = 4;
    return f;
}

static bool finite3(const float v[3])
{
    return isfinite(v[0]) && isfinite(v[1]) && isfinite(v[2]);
}

/* Unit normals: the stored ones normalized; a zero or broken one gets the
 * sum of its triangles' face normals, else +Z (glTF requires unit length). */
static void make_normals(const ferry_alo_submesh *sm, const float *positions, const uint32_t *indices,
                         size_t index_count, float *normals, const float *xf)
{
    size_t n = sm->vertex_count;
    bool need_faces = false;
    for (size_t v = 0; v < n; v++) {
        float *o = &normals[3 * v];
        const float *src = sm->vertices[v].normal;
        if (xf) fy_mat4_vector(xf, src, o);
        else memcpy(o, src, 3 * sizeof *o);
        double len = finite3(o) ? fy_vec3_length(o) : 0;
        if (len > 1e-12) {
            for (int k = 0; k < 3; k++) o[k] = (float)(o[k] / len);
        } else {
            o[0] = o[1] = o[2] = NAN; /* mark for the face pass */
            need_faces = true;
        }
    }
    if (!need_faces) return;
    /* Rare (no corpus file has one), so a plain scan per vertex is fine. */
    for (size_t v = 0; v < n; v++) {
        float *o = &normals[3 * v];
        if (!isnan(o[0])) continue;
        float sum[3] = {0, 0, 0};
        for (size_t t = 0; t + 2 < index_count; t += 3) {
            if (indices[t] != v && indices[t + 1] != v && indices[t + 2] != v) continue;
            const float *a = &positions[3 * indices[t]], *bb = &positions[3 * indices[t + 1]], *c = &positions[3 * indices[t + 2]];
            float e1[3] = {bb[0] - a[0], bb[1] - a[1], bb[2] - a[2]}, e2[3] = {c[0] - a[0], c[1] - a[1], c[2] - a[2]}, fn[3];
            fy_vec3_cross(e1, e2, fn);
            if (finite3(fn)) for (int k = 0; k < 3; k++) sum[k] += fn[k];
        }
        double len = fy_vec3_length(sum);
        if (len > 1e-20 && isfinite(len)) {
            for (int k = 0; k < 3; k++) o[k] = (float)(sum[k] / len);
        } else {
            o[0] = 0, o[1] = 0, o[2] = 1;
        }
    }
}

/* Unit tangents with the binormal's handedness in w: glTF rebuilds the
 * bitangent as cross(normal, tangent) * w, so w = sign(dot(cross(N, T), B)). */
static void make_tangents(const ferry_alo_submesh *sm, const float *normals, float *tangents, const float *xf)
{
    for (size_t v = 0; v < sm->vertex_count; v++) {
        const ferry_alo_vertex *vx = &sm->vertices[v];
        const float *nn = &normals[3 * v];
        float t[3], bn[3];
        if (xf) {
            fy_mat4_vector(xf, vx->tangent, t);
            fy_mat4_vector(xf, vx->binormal, bn);
        } else {
            memcpy(t, vx->tangent, sizeof t);
            memcpy(bn, vx->binormal, sizeof bn);
        }
        double len = finite3(t) ? fy_vec3_length(t) : 0;
        if (!(len > 1e-12)) {
            /* Any direction across the normal: the data gives none. */
            float axis[3] = {1, 0, 0};
            if (fabsf(nn[0]) > 0.9f) axis[0] = 0, axis[1] = 1;
            fy_vec3_cross(nn, axis, t);
            len = fy_vec3_length(t);
        }
        float *o = &tangents[4 * v];
        for (int k = 0; k < 3; k++) o[k] = (float)(t[k] / len);
        float c[3];
        fy_vec3_cross(nn, o, c);
        double d = (double)c[0] * bn[0] + (double)c[1] * bn[1] + (double)c[2] * bn[2];
        o[3] = d < 0 ? -1.0f : 1.0f;
    }
}

/* JOINTS_0 and WEIGHTS_0 of one vertex: bone slots mapped through the
 * sub-mesh's palette to skeleton bones (= joint indices, since the skin
 * lists every bone in order), duplicates merged, weights renormalized. */
static void vertex_skin(const fy_alo_build *b, const ferry_alo_submesh *sm, const ferry_alo_vertex *vx, uint32_t fallback,
                        uint16_t joints[4], float weights[4])
{
    size_t bones = b->model->skeleton.bone_count;
    uint32_t j[4] = {0, 0, 0, 0};
    double w[4] = {0, 0, 0, 0};
    int used = 0;
    double total = 0;
    for (int k = 0; k < 4; k++) {
        float wk = vx->bone_weight[k];
        if (!(wk > 0) || !isfinite(wk)) continue;
        uint32_t slot = vx->bone_index[k];
        if (slot >= sm->bone_mapping_count || sm->bone_mapping[slot] >= bones) continue;
        uint32_t bone = sm->bone_mapping[slot];
        int at = -1;
        for (int u = 0; u < used; u++)
            if (j[u] == bone) at = u;
        if (at < 0) {
            at = used++;
            j[at] = bone;
        }
        w[at] += wk;
        total += wk;
    }
    if (!(total > 0)) {
        /* No usable weight: the first slot's bone takes it all (the spec says
         * only that slot is used), else the bone the mesh hangs on. */
        uint32_t slot = vx->bone_index[0];
        uint32_t bone = (slot < sm->bone_mapping_count && sm->bone_mapping[slot] < bones) ? sm->bone_mapping[slot] : fallback;
        used = 1;
        j[0] = bone;
        w[0] = total = 1;
    }
    float sum = 0;
    int largest = 0;
    for (int k = 0; k < 4; k++) {
        joints[k] = k < used ? (uint16_t)j[k] : 0;
        weights[k] = k < used ? (float)(w[k] / total) : 0.0f;
        sum += weights[k];
        if (weights[k] > weights[largest]) largest = k;
    }
    weights[largest] += 1.0f - sum; /* rounding residue, so they sum to 1 in float */
}

static bool make_primitive(fy_alo_build *b, const ferry_alo_mesh *mesh, size_t si, bool skinned, uint32_t bone,
                           ferry_scene_primitive *p)
{
    ferry_arena *ja = b->arena;
    const ferry_alo_submesh *sm = &mesh->submeshes[si];
    size_t n = sm->vertex_count;
    const ferry_alo_skeleton *sk = &b->model->skeleton;
    bool sub_skinned = sm->bone_mapping_count > 0;
    uint32_t fallback = bone < sk->bone_count ? bone : 0;
    /* A rigid sub-mesh inside a skinned mesh: its vertices are in its bone's
     * space, the skin wants model space. */
    const float *xf = (skinned && !sub_skinned && bone < sk->bone_count) ? &b->bone_world[16 * bone] : NULL;

    int32_t material = fy_alo_material(b, mesh, si);
    if (material < 0) return false;
    FY_SET_REF(p, material, material);
    const ferry_scene_material *mat = &b->scene->materials[material];
    p->mode = FERRY_PRIMITIVE_TRIANGLES;
    p->vertex_count = n;

    float *pos = fy_build_alloc(b, n, 3 * sizeof *pos);
    float *nor = fy_build_alloc(b, n, 3 * sizeof *nor);
    uint32_t *idx = fy_build_alloc(b, sm->triangle_count, 3 * sizeof *idx);
    if (!pos || !nor || !idx) return false;
    for (size_t v = 0; v < n; v++) {
        const float *src = sm->vertices[v].position;
        if (xf) fy_mat4_point(xf, src, &pos[3 * v]);
        else memcpy(&pos[3 * v], src, 3 * sizeof *pos);
        for (int k = 0; k < 3; k++)
            if (!isfinite(pos[3 * v + k])) pos[3 * v + k] = 0.0f;
    }
    /* Triangles with an index past the vertices are dropped: glTF refuses
     * them, and validation already reports them (index-range). */
    size_t ic = 0, dropped = 0;
    for (size_t t = 0; t < sm->triangle_count; t++) {
        const uint16_t *tri = &sm->indices[3 * t];
        if (tri[0] >= n || tri[1] >= n || tri[2] >= n) {
            dropped++;
            continue;
        }
        idx[ic++] = tri[0], idx[ic++] = tri[1], idx[ic++] = tri[2];
    }
    p->positions = pos;
    p->indices = idx;
    p->index_count = ic;
    make_normals(sm, pos, idx, ic, nor, xf);
    p->normals = nor;

    vertex_format f = parse_format(sm->vertex_format);
    /* Texture coordinate sets: what the format names (Direct3D and glTF
     * both put (0, 0) at the image's top left: no flip), at least one when
     * the material samples a texture, and further sets only when they hold
     * data (none does in the corpus). */
    size_t sets = f.known ? f.uv_sets : 1;
    if (sets == 0 && (mat->has_base_color_image || mat->has_normal_image)) sets = 1;
    for (size_t k = sets; k < 4; k++) {
        for (size_t v = 0; v < n; v++) {
            if (sm->vertices[v].texcoord[k][0] != 0 || sm->vertices[v].texcoord[k][1] != 0) {
                sets = k + 1;
                break;
            }
        }
    }
    for (size_t k = 0; k < sets; k++) {
        float *uv = fy_build_alloc(b, n, 2 * sizeof *uv);
        if (!uv) return false;
        for (size_t v = 0; v < n; v++) {
            for (int c = 0; c < 2; c++) {
                float x = sm->vertices[v].texcoord[k][c];
                uv[2 * v + c] = isfinite(x) ? x : 0.0f;
            }
        }
        p->texcoords[k] = uv;
    }
    p->texcoord_count = sets;

    if (f.tangents) {
        float *tan = fy_build_alloc(b, n, 4 * sizeof *tan);
        if (!tan) return false;
        make_tangents(sm, nor, tan, xf);
        p->tangents = tan;
    }
    if (f.colors) {
        float *col = fy_build_alloc(b, n, 4 * sizeof *col);
        if (!col) return false;
        for (size_t v = 0; v < n; v++) {
            for (int k = 0; k < 4; k++) {
                float c = sm->vertices[v].color[k];
                col[4 * v + k] = isfinite(c) ? fminf(fmaxf(c, 0.0f), 1.0f) : 1.0f;
            }
        }
        p->colors = col;
    }
    if (skinned) {
        uint16_t *joints = fy_build_alloc(b, n, 4 * sizeof *joints);
        float *weights = fy_build_alloc(b, n, 4 * sizeof *weights);
        if (!joints || !weights) return false;
        for (size_t v = 0; v < n; v++) {
            if (sub_skinned) {
                vertex_skin(b, sm, &sm->vertices[v], fallback, &joints[4 * v], &weights[4 * v]);
            } else {
                joints[4 * v] = (uint16_t)fallback;
                weights[4 * v] = 1.0f;
            }
        }
        p->joints = joints;
        p->weights = weights;
    }

    ferry_json *x = fy_jobject(ja);
    fy_jset(ja, x, "submesh", fy_jinteger(ja, (int64_t)si));
    fy_jset(ja, x, "vertex_format", fy_jstring(ja, sm->vertex_format ? sm->vertex_format : ""));
    if (sub_skinned) {
        ferry_json *map = fy_jarray(ja);
        for (size_t i = 0; i < sm->bone_mapping_count; i++) fy_jpush(ja, map, fy_jinteger(ja, sm->bone_mapping[i]));
        fy_jset(ja, x, "bone_mapping", map);
    }
    if (sm->collision) fy_jset(ja, x, "collision_tree", fy_jbool(ja, true));
    if (dropped) fy_jset(ja, x, "dropped_triangles", fy_jinteger(ja, (int64_t)dropped));
    p->extras = x;
    return true;
}

int32_t fy_alo_mesh(fy_alo_build *b, const ferry_alo_mesh *mesh, bool skinned, uint32_t bone)
{
    ferry_scene *s = b->scene;
    if (s->mesh_count >= b->mesh_capacity) {
        fy_error_set(b->err, FERRY_ERR_ARGUMENT, FERRY_NO_OFFSET, "", "mesh count exceeded its estimate");
        return -1;
    }
    ferry_scene_primitive *prims = fy_build_alloc(b, mesh->submesh_count, sizeof *prims);
    if (!prims) return -1;
    size_t count = 0;
    for (size_t i = 0; i < mesh->submesh_count; i++) {
        /* glTF has no empty accessors: a sub-mesh without triangles is left out. */
        if (mesh->submeshes[i].vertex_count == 0 || mesh->submeshes[i].triangle_count == 0) continue;
        if (!make_primitive(b, mesh, i, skinned, bone, &prims[count])) return -1;
        if (prims[count].index_count == 0) continue;
        count++;
    }
    if (count == 0) return -2;
    ferry_scene_mesh *m = &s->meshes[s->mesh_count];
    m->name = mesh->name ? ferry_arena_strdup(b->arena, mesh->name) : NULL;
    m->primitives = prims;
    m->primitive_count = count;
    return (int32_t)s->mesh_count++;
}
