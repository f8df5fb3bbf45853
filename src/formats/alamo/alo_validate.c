/* ALO model validation: the rules the format and the game rely on that the
 * reader does not enforce (it keeps whatever the bytes say, so that writing
 * back is exact). Works on any model, read or built by hand, and never
 * trusts a count without checking that its array is there. */
#include <ferry/alo.h>

#include "../../core/core.h"
#include "../../core/diag_cap.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

/* One bad export setting repeats a geometry problem thousands of times: the
 * first few locate it, the rest would only drown the other reports. */
#define CAP_GEOMETRY 5
/* Named things are few in real files, but a damaged file can claim many. */
#define CAP_LIST 20

/* 16-bit indices address at most this many vertices. */
#define MAX_VERTICES 65536u
#define WEIGHT_TOLERANCE 1e-3
#define BOUNDS_TOLERANCE 1e-3

/* Fields before the padding of the fixed-size chunks. */
#define BONE_COUNT_KNOWN 4u
#define MESH_INFO_KNOWN 40u
#define SUBMESH_INFO_KNOWN 8u
#define MESH_INFO_BOUNDS_AT 4u
#define MESH_INFO_COLLISION_AT 36u

/* One part of the model (a sub-mesh, the skeleton, ...) in which each rule
 * shows its first few reports and then a total (core/diag_cap.h). */
typedef struct scope {
    char label[128];
    fy_diag_scope tally;
} scope;

typedef struct vctx {
    const ferry_alo_model *model;
    const ferry_alo_validate_options *options;
    ferry_diagnostics *diags;
    size_t errors;
} vctx;

static uint64_t at(uint64_t base, uint64_t add) { return base == FERRY_NO_OFFSET ? FERRY_NO_OFFSET : base + add; }
static uint64_t either(uint64_t exact, uint64_t fallback) { return exact != FERRY_NO_OFFSET ? exact : fallback; }

/* A child's offset is known only when it is the container's first child. */
static uint64_t first_child_offset(uint64_t container, const ferry_chunk_layout *layout, uint32_t type)
{
    if (container == FERRY_NO_OFFSET || !layout->order || layout->order_count == 0 || layout->order[0] != type)
        return FERRY_NO_OFFSET;
    return container + 8;
}

static void label(char *out, size_t size, const char *kind, size_t index, const char *name)
{
    if (name)
        snprintf(out, size, "%s %zu '%.48s'", kind, index, name);
    else
        snprintf(out, size, "%s %zu", kind, index);
}

static void scope_init(scope *s, size_t cap, const char *text)
{
    memset(s, 0, sizeof *s);
    fy_diag_scope_open(&s->tally, cap);
    snprintf(s->label, sizeof s->label, "%s", text);
}

static fy_diag_scope *tally(scope *s) { return s ? &s->tally : NULL; }

/* report(v, s, severity, offset, path, rule, fmt, ...); s NULL: not capped. */
#define report(v, s, ...) fy_diag_report(tally(s), (v)->diags, &(v)->errors, __VA_ARGS__)

static void scope_close(vctx *v, scope *s)
{
    v->errors += fy_diag_scope_close(&s->tally, v->diags, s->label, false, 0, NULL);
}

/* A count with no array behind it: reported, and the array is then skipped. */
static bool usable(vctx *v, scope *s, const void *items, size_t count, uint64_t offset, const char *path,
                   const char *who, const char *what)
{
    if (items || count == 0) return true;
    report(v, s, FERRY_SEVERITY_ERROR, offset, path, "data-missing", "%s: %zu %s announced but no data given",
           who, count, what);
    return false;
}

/* A missing name cannot be written; an empty one is legal but useless. */
static void check_name(vctx *v, scope *s, const char *name, uint64_t offset, const char *path, const char *who,
                       const char *what)
{
    if (!name)
        report(v, s, FERRY_SEVERITY_ERROR, offset, path, "name-missing", "%s: %s is missing", who, what);
    else if (!name[0])
        report(v, s, FERRY_SEVERITY_WARNING, offset, path, "name-empty", "%s: %s is empty", who, what);
}

static void check_fixed_size(vctx *v, scope *s, const ferry_blob *extra, uint32_t known, uint32_t expected,
                             uint64_t offset, const char *path, const char *who)
{
    if (!extra->data) return;
    uint64_t size = (uint64_t)known + extra->size;
    if (size != expected)
        report(v, s, FERRY_SEVERITY_ERROR, offset, path, "chunk-size", "%s: chunk is %llu bytes, expected %u", who,
               (unsigned long long)size, (unsigned)expected);
}

static void check_padding(vctx *v, scope *s, const ferry_blob *extra, uint64_t start, uint64_t fallback,
                          const char *path, const char *who)
{
    if (!extra->data) return;
    for (uint32_t i = 0; i < extra->size; i++) {
        if (extra->data[i]) {
            report(v, s, FERRY_SEVERITY_WARNING, either(at(start, i), fallback), path, "padding-nonzero",
                   "%s: padding byte %u of %u is 0x%02x, expected zeros", who, (unsigned)i,
                   (unsigned)extra->size, (unsigned)extra->data[i]);
            return;
        }
    }
}

/* ---- skeleton ---- */

static void check_bone(vctx *v, scope *s, size_t i)
{
    const ferry_alo_bone *b = &v->model->skeleton.bones[i];
    char who[96];
    label(who, sizeof who, "bone", i, b->name);
    check_name(v, s, b->name, b->offset, "0x200/0x202/0x203", who, "name");

    bool v1 = b->chunk_version == 1;
    const char *path = v1 ? "0x200/0x202/0x205" : "0x200/0x202/0x206";
    if (b->chunk_version > 2)
        report(v, s, FERRY_SEVERITY_ERROR, b->offset, "0x200/0x202", "chunk-version",
               "%s: bone chunk version %u is unknown (1: 0x205, 2: 0x206)", who, (unsigned)b->chunk_version);
    if (b->parent < -1)
        report(v, s, FERRY_SEVERITY_ERROR, b->offset, path, "bone-parent-order",
               "%s: parent index %ld is negative but not -1 (no parent)", who, (long)b->parent);
    else if (b->parent >= 0 && (size_t)b->parent >= i)
        report(v, s, FERRY_SEVERITY_ERROR, b->offset, path, "bone-parent-order",
               "%s: parent index %ld is not below its own index", who, (long)b->parent);

    for (int k = 0; k < 12; k++)
        if (!isfinite(b->matrix[k])) {
            /* Every mesh, proxy and bone below would be placed nowhere. */
            report(v, s, FERRY_SEVERITY_ERROR, b->offset, path, "value-finite",
                   "%s: matrix element %d (row %d, column %d) is %g", who, k, k / 4, k % 4, (double)b->matrix[k]);
            break;
        }
    if (b->billboard > FERRY_ALO_BILLBOARD_SUN)
        report(v, s, FERRY_SEVERITY_WARNING, b->offset, path, "billboard-mode", "%s: unknown billboard mode %u",
               who, (unsigned)b->billboard);
    else if (v1 && b->billboard != 0)
        report(v, s, FERRY_SEVERITY_WARNING, b->offset, path, "billboard-mode",
               "%s: billboard mode %u is lost, a 0x205 bone has no billboard field", who, (unsigned)b->billboard);

    if (b->extra.data && b->extra.size)
        report(v, s, FERRY_SEVERITY_ERROR, b->offset, path, "chunk-size", "%s: bone chunk is %llu bytes, expected %u",
               who, (unsigned long long)(v1 ? FERRY_ALO_BONE_V1_SIZE : FERRY_ALO_BONE_V2_SIZE) + b->extra.size,
               (unsigned)(v1 ? FERRY_ALO_BONE_V1_SIZE : FERRY_ALO_BONE_V2_SIZE));
}

static void check_skeleton(vctx *v)
{
    const ferry_alo_skeleton *sk = &v->model->skeleton;
    scope s;
    scope_init(&s, CAP_LIST, "skeleton");
    uint64_t exact = first_child_offset(sk->offset, &sk->layout, FERRY_ALO_BONE_COUNT);
    check_fixed_size(v, &s, &sk->count_extra, BONE_COUNT_KNOWN, FERRY_ALO_BONE_COUNT_SIZE, either(exact, sk->offset),
                     "0x200/0x201", "bone count");
    check_padding(v, &s, &sk->count_extra, at(exact, 8 + BONE_COUNT_KNOWN), sk->offset, "0x200/0x201", "bone count");
    if (usable(v, &s, sk->bones, sk->bone_count, sk->offset, "0x200", "skeleton", "bones"))
        for (size_t i = 0; i < sk->bone_count; i++) check_bone(v, &s, i);
    scope_close(v, &s);
}

/* ---- materials ---- */

static const char *param_path(uint32_t type)
{
    switch (type) {
    case FERRY_ALO_PARAM_INT: return "0x400/0x10100/0x10102";
    case FERRY_ALO_PARAM_FLOAT: return "0x400/0x10100/0x10103";
    case FERRY_ALO_PARAM_FLOAT3: return "0x400/0x10100/0x10104";
    case FERRY_ALO_PARAM_TEXTURE: return "0x400/0x10100/0x10105";
    case FERRY_ALO_PARAM_FLOAT4: return "0x400/0x10100/0x10106";
    }
    return NULL;
}

static void check_param(vctx *v, scope *s, const ferry_alo_shader_param *p, size_t index)
{
    const char *path = param_path(p->type);
    char what[64];
    snprintf(what, sizeof what, "name of shader parameter %zu", index);
    if (!path) {
        report(v, s, FERRY_SEVERITY_ERROR, p->offset, "0x400/0x10100", "param-type",
               "%s: shader parameter %zu has unknown type 0x%x", s->label, index, (unsigned)p->type);
        path = "0x400/0x10100";
    }
    check_name(v, s, p->name, p->offset, path, s->label, what);
    int floats = p->type == FERRY_ALO_PARAM_FLOAT    ? 1
                 : p->type == FERRY_ALO_PARAM_FLOAT3 ? 3
                 : p->type == FERRY_ALO_PARAM_FLOAT4 ? 4
                                                     : 0;
    for (int k = 0; k < floats; k++)
        if (!isfinite(p->value[k])) {
            report(v, s, FERRY_SEVERITY_ERROR, p->offset, path, "value-finite",
                   "%s: shader parameter '%.32s' component %d is %g", s->label, p->name ? p->name : "", k,
                   (double)p->value[k]);
            break;
        }
    if (p->type != FERRY_ALO_PARAM_TEXTURE) return;
    snprintf(what, sizeof what, "texture of shader parameter %zu", index);
    check_name(v, s, p->texture, p->offset, path, s->label, what);
    const ferry_alo_validate_options *o = v->options;
    if (p->texture && p->texture[0] && o && o->texture_exists && !o->texture_exists(p->texture, o->user))
        report(v, s, FERRY_SEVERITY_WARNING, p->offset, path, "texture-missing",
               "%s: texture '%.64s' (parameter '%.32s') not found", s->label, p->texture, p->name ? p->name : "");
}

static void check_material(vctx *v, scope *s, const ferry_alo_material *mat)
{
    check_name(v, s, mat->shader, mat->offset, "0x400/0x10100/0x10101", s->label, "shader name");
    if (!usable(v, s, mat->params, mat->param_count, mat->offset, "0x400/0x10100", s->label, "shader parameters"))
        return;
    for (size_t i = 0; i < mat->param_count; i++) check_param(v, s, &mat->params[i], i);
}

/* ---- sub-mesh geometry ---- */

static bool has_mapping(const ferry_alo_submesh *sm) { return sm->has_bone_mapping || sm->bone_mapping_count > 0; }

static void check_indices(vctx *v, scope *s, const ferry_alo_submesh *sm)
{
    for (size_t t = 0; t < sm->triangle_count; t++) {
        for (size_t k = 0; k < 3; k++) {
            size_t pos = t * 3 + k;
            if (sm->indices[pos] < sm->vertex_count) continue;
            report(v, s, FERRY_SEVERITY_ERROR, at(sm->source.indices, 8 + 2 * (uint64_t)pos), "0x400/0x10000/0x10004",
                   "index-range", "%s: triangle %zu corner %zu uses vertex %u, but there are %zu vertices", s->label,
                   t, k, (unsigned)sm->indices[pos], sm->vertex_count);
        }
    }
}

/* The highest mapping entry a vertex uses (slot 0 always, the others when
 * weighted), or -1 when none does or the vertices are missing. */
static long highest_used_entry(const ferry_alo_submesh *sm)
{
    long high = -1;
    if (!sm->vertices) return high;
    for (size_t i = 0; i < sm->vertex_count; i++)
        for (uint32_t k = 0; k < 4; k++)
            if ((k == 0 || sm->vertices[i].bone_weight[k] > 0) && (long)sm->vertices[i].bone_index[k] > high)
                high = (long)sm->vertices[i].bone_index[k];
    return high;
}

/* The number of entries. The game's skinning shaders hold 24 bone matrices
 * (the shared skinning header of Petroglyph's shaders declares
 * m_skinMatrixArray[24] from vertex constant c0), so a vertex using entry
 * 24 or above is drawn with constants that are not its bone's: an error.
 * Entries past 24 that no vertex uses change nothing drawn, and a shipped
 * model maps 25: a warning. An empty mapping leaves every vertex's slot 0
 * without a bone: an error. */
static void check_bone_mapping(vctx *v, scope *s, const ferry_alo_submesh *sm)
{
    const char *path = "0x400/0x10000/0x10006";
    if (sm->bone_mapping_count == 0) {
        report(v, s, FERRY_SEVERITY_ERROR, sm->source.bone_mapping, path, "bone-mapping-count",
               "%s: bone mapping has no entries, so no vertex has a bone", s->label);
    } else if (sm->bone_mapping_count > FERRY_ALO_MAX_MAPPED_BONES) {
        long high = highest_used_entry(sm);
        if (high >= FERRY_ALO_MAX_MAPPED_BONES)
            report(v, s, FERRY_SEVERITY_ERROR, sm->source.bone_mapping, path, "bone-mapping-count",
                   "%s: bone mapping has %zu entries and vertices use entry %ld, but the game's skinning shaders "
                   "hold %d bone matrices",
                   s->label, sm->bone_mapping_count, high, FERRY_ALO_MAX_MAPPED_BONES);
        else
            report(v, s, FERRY_SEVERITY_WARNING, sm->source.bone_mapping, path, "bone-mapping-count",
                   "%s: bone mapping has %zu entries, more than the %d the spec and the game's skinning shaders "
                   "allow; no vertex uses those past %d",
                   s->label, sm->bone_mapping_count, FERRY_ALO_MAX_MAPPED_BONES, FERRY_ALO_MAX_MAPPED_BONES);
    }
    size_t bones = v->model->skeleton.bone_count;
    for (size_t i = 0; i < sm->bone_mapping_count; i++) {
        if (sm->bone_mapping[i] < bones) continue;
        report(v, s, FERRY_SEVERITY_ERROR, at(sm->source.bone_mapping, 8 + 4 * (uint64_t)i), path,
               "bone-mapping-range", "%s: bone mapping entry %zu is bone %u, but the skeleton has %zu bones",
               s->label, i, (unsigned)sm->bone_mapping[i], bones);
    }
}

typedef struct vertex_layout {
    uint32_t size, bone_index_at, bone_weight_at;
    const char *path;
} vertex_layout;

static vertex_layout vertex_layout_of(const ferry_alo_submesh *sm)
{
    /* 0x10005 is 0x10007 without the 16-byte `unused` field before the bones. */
    if (sm->vertex_chunk_version == 1)
        return (vertex_layout){FERRY_ALO_VERTEX_V1_SIZE, 96, 112, "0x400/0x10000/0x10005"};
    return (vertex_layout){FERRY_ALO_VERTEX_V2_SIZE, 112, 128, "0x400/0x10000/0x10007"};
}

static uint64_t vertex_field(const ferry_alo_submesh *sm, const vertex_layout *l, size_t vertex, uint32_t field)
{
    return at(sm->source.vertices, 8 + (uint64_t)vertex * l->size + field);
}

static void check_vertex_bones(vctx *v, scope *s, const ferry_alo_submesh *sm)
{
    /* An empty mapping is already reported, and every vertex would repeat it. */
    if (!has_mapping(sm) || sm->bone_mapping_count == 0) return;
    vertex_layout l = vertex_layout_of(sm);
    for (size_t i = 0; i < sm->vertex_count; i++) {
        const ferry_alo_vertex *vx = &sm->vertices[i];
        double sum = 0;
        bool bad_index = false;
        for (uint32_t k = 0; k < 4; k++) {
            sum += vx->bone_weight[k];
            /* Slot 0 is what the game's shaders read; the others matter only when weighted. */
            if (bad_index || (k > 0 && !(vx->bone_weight[k] > 0)) || vx->bone_index[k] < sm->bone_mapping_count)
                continue;
            bad_index = true;
            report(v, s, FERRY_SEVERITY_ERROR, vertex_field(sm, &l, i, l.bone_index_at + 4 * k), l.path,
                   "vertex-bone-index", "%s: vertex %zu bone slot %u uses mapping entry %u, but the mapping has %zu",
                   s->label, i, (unsigned)k, (unsigned)vx->bone_index[k], sm->bone_mapping_count);
        }
        if (!(fabs(sum - 1.0) <= WEIGHT_TOLERANCE))
            report(v, s, FERRY_SEVERITY_WARNING, vertex_field(sm, &l, i, l.bone_weight_at), l.path, "bone-weights",
                   "%s: vertex %zu bone weights sum to %g, expected 1", s->label, i, sum);
    }
}

/* NaN or an infinity in what the game draws with puts the vertex nowhere
 * or shades it with garbage: an error, where conversion refuses too. What
 * the game uploads follows the vertex format name (0x10002), built from
 * tokens after "alD3dVert": N normal, U2 texture coordinates 0, U3U3
 * tangent and binormal, C colour, B4I4 four bone weights and indices,
 * RSkin one bone index (real files: alD3dVertN, NU2, NU2C, NU2U3U3,
 * RSkinNU2, RSkinNU2U3U3, B4I4NU2). Positions and normals are always
 * errors; a field the format does not upload is a warning (kept, not
 * drawn); with a format of another family every field counts. Located at
 * the first bad float of the vertex. */
enum { VF_ALWAYS, VF_UV0, VF_TANGENTS, VF_COLOR, VF_WEIGHTS, VF_NEVER };

static const struct {
    size_t field;       /* in ferry_alo_vertex */
    uint32_t at, count; /* in a 0x10007 vertex; UINT32_MAX: the layout's bone weights */
    int uploaded_by;    /* VF_* */
    const char *what;
} vertex_floats[] = {
    {offsetof(ferry_alo_vertex, position), 0, 3, VF_ALWAYS, "position"},
    {offsetof(ferry_alo_vertex, normal), 12, 3, VF_ALWAYS, "normal"},
    {offsetof(ferry_alo_vertex, texcoord), 24, 2, VF_UV0, "texture coordinates 0"},
    {offsetof(ferry_alo_vertex, texcoord) + 8, 32, 6, VF_NEVER, "texture coordinates 1 to 3"},
    {offsetof(ferry_alo_vertex, tangent), 56, 3, VF_TANGENTS, "tangent"},
    {offsetof(ferry_alo_vertex, binormal), 68, 3, VF_TANGENTS, "binormal"},
    {offsetof(ferry_alo_vertex, color), 80, 4, VF_COLOR, "colour"},
    {offsetof(ferry_alo_vertex, bone_weight), UINT32_MAX, 4, VF_WEIGHTS, "bone weights"},
};

/* Whether the vertex format uploads fields of class `what`. */
static bool format_uploads(const char *format, int what)
{
    static const char family[] = "alD3dVert";
    if (what == VF_ALWAYS) return true;
    if (!format || strncmp(format, family, sizeof family - 1) != 0) return true;
    const char *tokens = format + sizeof family - 1;
    switch (what) {
    case VF_UV0: return strstr(tokens, "U2") != NULL;
    case VF_TANGENTS: return strstr(tokens, "U3U3") != NULL;
    case VF_COLOR: return strchr(tokens, 'C') != NULL;
    case VF_WEIGHTS: return strstr(tokens, "B4I4") != NULL;
    default: return false;
    }
}

static void check_vertex_values(vctx *v, scope *s, const ferry_alo_submesh *sm)
{
    vertex_layout l = vertex_layout_of(sm);
    bool uploaded[sizeof vertex_floats / sizeof vertex_floats[0]];
    for (size_t k = 0; k < sizeof vertex_floats / sizeof vertex_floats[0]; k++)
        uploaded[k] = format_uploads(sm->vertex_format, vertex_floats[k].uploaded_by);
    for (size_t i = 0; i < sm->vertex_count; i++) {
        const char *base = (const char *)&sm->vertices[i];
        /* Fast path: every float field of the vertex (a superset of the
         * table's) finite, by its exponent bits, so nothing to report. */
        unsigned bad = 0;
        for (size_t o = offsetof(ferry_alo_vertex, position); o < offsetof(ferry_alo_vertex, unused); o += 4) {
            uint32_t w;
            memcpy(&w, base + o, sizeof w);
            bad |= (w & 0x7F800000u) == 0x7F800000u;
        }
        for (size_t o = offsetof(ferry_alo_vertex, bone_weight); o < sizeof(ferry_alo_vertex); o += 4) {
            uint32_t w;
            memcpy(&w, base + o, sizeof w);
            bad |= (w & 0x7F800000u) == 0x7F800000u;
        }
        if (!bad) continue;
        for (size_t k = 0; k < sizeof vertex_floats / sizeof vertex_floats[0]; k++) {
            uint32_t j = 0;
            float x = 0;
            for (; j < vertex_floats[k].count; j++) {
                memcpy(&x, base + vertex_floats[k].field + 4 * j, sizeof x);
                if (!isfinite(x)) break;
            }
            if (j == vertex_floats[k].count) continue;
            uint32_t field = vertex_floats[k].at == UINT32_MAX ? l.bone_weight_at : vertex_floats[k].at;
            if (uploaded[k])
                report(v, s, FERRY_SEVERITY_ERROR, vertex_field(sm, &l, i, field + 4 * j), l.path, "value-finite",
                       "%s: vertex %zu %s component %u is %g", s->label, i, vertex_floats[k].what, (unsigned)j,
                       (double)x);
            else
                report(v, s, FERRY_SEVERITY_WARNING, vertex_field(sm, &l, i, field + 4 * j), l.path, "value-finite",
                       "%s: vertex %zu %s component %u is %g; vertex format '%.40s' does not upload it", s->label, i,
                       vertex_floats[k].what, (unsigned)j, (double)x, sm->vertex_format ? sm->vertex_format : "");
            /* A vertex reports once, at its most serious problem. */
            if (uploaded[k]) break;
        }
    }
}

static void check_collision_node(vctx *v, scope *s, const ferry_alo_collision_tree *t, size_t i)
{
    const ferry_alo_collision_node *n = &t->nodes[i];
    const char *path = "0x400/0x10000/0x1200/0x1202";
    if (n->primitive_count == 0) {
        /* Children after their parent: a link back would make traversal loop. */
        if (n->link <= i || (size_t)n->link + 1 >= t->node_count)
            report(v, s, FERRY_SEVERITY_ERROR, t->offset, path, "collision-link",
                   "%s: collision node %zu links to children %u and %u, which must lie after it and below %zu",
                   s->label, i, (unsigned)n->link, (unsigned)n->link + 1, t->node_count);
    } else if ((size_t)n->link + n->primitive_count > t->primitive_count) {
        report(v, s, FERRY_SEVERITY_ERROR, t->offset, path, "collision-link",
               "%s: collision node %zu covers primitives %u to %u, but the tree has %zu", s->label, i,
               (unsigned)n->link, (unsigned)n->link + n->primitive_count - 1, t->primitive_count);
    }
}

static void check_collision(vctx *v, scope *s, const ferry_alo_submesh *sm)
{
    const ferry_alo_collision_tree *t = sm->collision;
    if (usable(v, s, t->nodes, t->node_count, t->offset, "0x400/0x10000/0x1200/0x1202", s->label, "collision nodes"))
        for (size_t i = 0; i < t->node_count; i++) check_collision_node(v, s, t, i);
    if (!usable(v, s, t->primitives, t->primitive_count, t->offset, "0x400/0x10000/0x1200/0x1203", s->label,
                "collision primitives"))
        return;
    for (size_t i = 0; i < t->primitive_count; i++) {
        if (t->primitives[i] < sm->triangle_count) continue;
        report(v, s, FERRY_SEVERITY_ERROR, t->offset, "0x400/0x10000/0x1200/0x1203", "collision-primitive",
               "%s: collision primitive %zu is triangle %u, but there are %zu triangles", s->label, i,
               (unsigned)t->primitives[i], sm->triangle_count);
    }
}

static void check_submesh(vctx *v, size_t mesh_index, size_t sub_index)
{
    const ferry_alo_mesh *m = &v->model->meshes[mesh_index];
    const ferry_alo_submesh *sm = &m->submeshes[sub_index];
    char who[128];
    label(who, sizeof who, "mesh", mesh_index, m->name);
    size_t used = strlen(who);
    snprintf(who + used, sizeof who - used, " sub-mesh %zu", sub_index);
    scope s;
    scope_init(&s, CAP_GEOMETRY, who);

    check_material(v, &s, &sm->material);
    check_fixed_size(v, &s, &sm->info_extra, SUBMESH_INFO_KNOWN, FERRY_ALO_SUBMESH_INFO_SIZE, sm->source.info,
                     "0x400/0x10000/0x10001", who);
    check_padding(v, &s, &sm->info_extra, at(sm->source.info, 8 + SUBMESH_INFO_KNOWN), sm->source.info,
                  "0x400/0x10000/0x10001", who);
    check_name(v, &s, sm->vertex_format, sm->source.vertex_format, "0x400/0x10000/0x10002", who, "vertex format");
    if (sm->vertex_chunk_version > 2)
        report(v, &s, FERRY_SEVERITY_ERROR, sm->source.vertices, "0x400/0x10000", "chunk-version",
               "%s: vertex chunk version %u is unknown (1: 0x10005, 2: 0x10007)", who,
               (unsigned)sm->vertex_chunk_version);
    if (sm->vertex_count > MAX_VERTICES)
        report(v, &s, FERRY_SEVERITY_ERROR, either(at(sm->source.info, 8), sm->source.data), "0x400/0x10000/0x10001",
               "vertex-count", "%s: %zu vertices, but 16-bit indices reach at most %u", who, sm->vertex_count,
               MAX_VERTICES);

    vertex_layout l = vertex_layout_of(sm);
    bool vertices_ok = usable(v, &s, sm->vertices, sm->vertex_count, sm->source.data, l.path, who, "vertices");
    if (usable(v, &s, sm->indices, sm->triangle_count, sm->source.data, "0x400/0x10000/0x10004", who, "triangles"))
        check_indices(v, &s, sm);
    if (vertices_ok) check_vertex_values(v, &s, sm);
    if (has_mapping(sm) && usable(v, &s, sm->bone_mapping, sm->bone_mapping_count, sm->source.data,
                                  "0x400/0x10000/0x10006", who, "bone mapping entries")) {
        check_bone_mapping(v, &s, sm);
        if (vertices_ok) check_vertex_bones(v, &s, sm);
    }
    if (sm->collision) check_collision(v, &s, sm);
    scope_close(v, &s);
}

/* ---- meshes ---- */

static void check_bounds(vctx *v, scope *s, const ferry_alo_mesh *m, const char *who)
{
    /* The engine culls by these bounds: a NaN or an infinity is an error
     * (located at the float), and the vertices are not compared with them. */
    bool finite = true;
    for (int k = 0; k < 6; k++) {
        float x = k < 3 ? m->bounds_min[k] : m->bounds_max[k - 3];
        if (isfinite(x)) continue;
        report(v, s, FERRY_SEVERITY_ERROR, at(m->info_offset, 8 + MESH_INFO_BOUNDS_AT + 4u * (unsigned)k),
               "0x400/0x402", "value-finite", "%s: bounds %s coordinate %d is %g", who, k < 3 ? "minimum" : "maximum",
               k % 3, (double)x);
        finite = false;
    }
    if (!finite) return;
    double extent = 0, lo[3], hi[3];
    for (int a = 0; a < 3; a++) {
        double e = (double)m->bounds_max[a] - m->bounds_min[a];
        if (e > extent) extent = e;
    }
    double tolerance = BOUNDS_TOLERANCE * extent;
    for (int a = 0; a < 3; a++) {
        lo[a] = m->bounds_min[a] - tolerance;
        hi[a] = m->bounds_max[a] + tolerance;
    }
    size_t outside = 0, first_sub = 0, first_vertex = 0;
    for (size_t si = 0; si < m->submesh_count; si++) {
        const ferry_alo_submesh *sm = &m->submeshes[si];
        if (!sm->vertices) continue;
        for (size_t i = 0; i < sm->vertex_count; i++) {
            const float *p = sm->vertices[i].position;
            bool inside = true;
            /* Written so that a NaN anywhere counts as outside. */
            for (int a = 0; a < 3; a++) inside = inside && p[a] >= lo[a] && p[a] <= hi[a];
            if (inside) continue;
            if (outside++ == 0) {
                first_sub = si;
                first_vertex = i;
            }
        }
    }
    if (!outside) return;
    const float *p = m->submeshes[first_sub].vertices[first_vertex].position;
    report(v, s, FERRY_SEVERITY_WARNING, at(m->info_offset, 8 + MESH_INFO_BOUNDS_AT), "0x400/0x402", "mesh-bounds",
           "%s: %zu vertices lie outside the bounds (%g %g %g)-(%g %g %g), first sub-mesh %zu vertex %zu at (%g %g %g)",
           who, outside, m->bounds_min[0], m->bounds_min[1], m->bounds_min[2], m->bounds_max[0], m->bounds_max[1],
           m->bounds_max[2], first_sub, first_vertex, p[0], p[1], p[2]);
}

static void check_collision_flag(vctx *v, scope *s, const ferry_alo_mesh *m, const char *who)
{
    bool has_tree = false;
    for (size_t i = 0; i < m->submesh_count; i++) has_tree = has_tree || m->submeshes[i].collision;
    uint64_t offset = either(at(m->info_offset, 8 + MESH_INFO_COLLISION_AT), m->offset);
    if (has_tree && !m->collision_enabled)
        report(v, s, FERRY_SEVERITY_WARNING, offset, "0x400/0x402", "collision-not-enabled",
               "%s: has a collision tree but collision is not enabled", who);
    else if (!has_tree && m->collision_enabled)
        report(v, s, FERRY_SEVERITY_WARNING, offset, "0x400/0x402", "collision-tree-missing",
               "%s: collision is enabled but no sub-mesh has a collision tree", who);
}

static void check_mesh(vctx *v, scope *s, size_t index)
{
    const ferry_alo_mesh *m = &v->model->meshes[index];
    char who[96];
    label(who, sizeof who, "mesh", index, m->name);
    check_name(v, s, m->name, m->offset, "0x400/0x401", who, "name");
    uint64_t info = either(m->info_offset, m->offset);
    check_fixed_size(v, s, &m->info_extra, MESH_INFO_KNOWN, FERRY_ALO_MESH_INFO_SIZE, info, "0x400/0x402", who);
    check_padding(v, s, &m->info_extra, at(m->info_offset, 8 + MESH_INFO_KNOWN), info, "0x400/0x402", who);
    if (!usable(v, s, m->submeshes, m->submesh_count, m->offset, "0x400", who, "sub-meshes")) return;
    for (size_t i = 0; i < m->submesh_count; i++) check_submesh(v, index, i);
    check_collision_flag(v, s, m, who);
    check_bounds(v, s, m, who);
}

/* One of the model's lists (meshes, lights), each item checked in the
 * list's scope. */
static void check_model_list(vctx *v, const char *list, const void *items, size_t count, const char *path,
                             void (*check)(vctx *, scope *, size_t))
{
    scope s;
    scope_init(&s, CAP_LIST, list);
    if (usable(v, &s, items, count, FERRY_NO_OFFSET, path, "model", list))
        for (size_t i = 0; i < count; i++) check(v, &s, i);
    scope_close(v, &s);
}

/* ---- lights ---- */

static void check_light(vctx *v, scope *s, size_t index)
{
    const ferry_alo_light *l = &v->model->lights[index];
    char who[96];
    label(who, sizeof who, "light", index, l->name);
    check_name(v, s, l->name, l->offset, "0x1300/0x1301", who, "name");
    uint64_t data = either(first_child_offset(l->offset, &l->layout, FERRY_ALO_LIGHT_DATA), l->offset);
    if (l->type > FERRY_ALO_LIGHT_SPOT)
        report(v, s, FERRY_SEVERITY_ERROR, data, "0x1300/0x1302", "light-type",
               "%s: light type %u is not 0 (omni), 1 (directional) or 2 (spot)", who, (unsigned)l->type);
    const float lf[8] = {l->color[0], l->color[1], l->color[2], l->intensity, l->far_attenuation_end,
                         l->far_attenuation_start, l->hotspot_size, l->falloff_size};
    uint64_t exact = first_child_offset(l->offset, &l->layout, FERRY_ALO_LIGHT_DATA);
    for (int k = 0; k < 8; k++)
        if (!isfinite(lf[k])) {
            report(v, s, FERRY_SEVERITY_ERROR, either(at(exact, 12 + 4 * (uint64_t)k), l->offset), "0x1300/0x1302",
                   "value-finite",
                   "%s: light value %d (colour, intensity, attenuation end and start, hotspot, falloff) is %g", who,
                   k, (double)lf[k]);
            break;
        }
    if (l->extra.data && l->extra.size)
        report(v, s, FERRY_SEVERITY_ERROR, data, "0x1300/0x1302", "chunk-size",
               "%s: light data is %llu bytes, expected %u", who,
               (unsigned long long)FERRY_ALO_LIGHT_DATA_SIZE + l->extra.size, (unsigned)FERRY_ALO_LIGHT_DATA_SIZE);
}


/* ---- objects and connections ---- */

static bool object_valid(const ferry_alo_model *model, size_t index)
{
    if (index >= ferry_alo_object_count(model)) return false;
    const ferry_alo_object obj = ferry_alo_object_at(model, index), *o = &obj;
    if (o->kind == FERRY_ALO_OBJECT_MESH) return model->meshes && o->index < model->mesh_count;
    if (o->kind == FERRY_ALO_OBJECT_LIGHT) return model->lights && o->index < model->light_count;
    return false;
}

static void object_label(const ferry_alo_model *model, size_t index, char *out, size_t size)
{
    if (!object_valid(model, index)) {
        snprintf(out, size, "object %zu", index);
        return;
    }
    const ferry_alo_object obj = ferry_alo_object_at(model, index), *o = &obj;
    if (o->kind == FERRY_ALO_OBJECT_MESH)
        label(out, size, "mesh", o->index, model->meshes[o->index].name);
    else
        label(out, size, "light", o->index, model->lights[o->index].name);
}

static void check_objects(vctx *v)
{
    const ferry_alo_model *model = v->model;
    scope s;
    scope_init(&s, CAP_LIST, "objects");
    /* An empty list means "meshes, then lights" (ferry_alo_object_at). */
    if (model->object_count && model->object_count != model->mesh_count + model->light_count)
        report(v, &s, FERRY_SEVERITY_ERROR, FERRY_NO_OFFSET, "", "object-list",
               "the model lists %zu objects but has %zu meshes and %zu lights", model->object_count,
               model->mesh_count, model->light_count);
    if (usable(v, &s, model->objects, model->object_count, FERRY_NO_OFFSET, "", "model", "objects")) {
        for (size_t i = 0; i < model->object_count; i++) {
            if (object_valid(model, i)) continue;
            const ferry_alo_object *o = &model->objects[i];
            report(v, &s, FERRY_SEVERITY_ERROR, FERRY_NO_OFFSET, "", "object-list",
                   "object %zu refers to %s %zu, which does not exist", i,
                   o->kind == FERRY_ALO_OBJECT_MESH ? "mesh" : o->kind == FERRY_ALO_OBJECT_LIGHT ? "light" : "kind",
                   o->index);
        }
    }
    scope_close(v, &s);
}

static uint64_t object_offset(const ferry_alo_model *model, size_t index, const char **path)
{
    const ferry_alo_object obj = ferry_alo_object_at(model, index), *o = &obj;
    *path = o->kind == FERRY_ALO_OBJECT_MESH ? "0x400" : "0x1300";
    return o->kind == FERRY_ALO_OBJECT_MESH ? model->meshes[o->index].offset : model->lights[o->index].offset;
}

/* Every object should hang on exactly one bone: unattached ones are never
 * placed, and the game keeps only one attachment per object. */
static void check_attachments(vctx *v, scope *s)
{
    const ferry_alo_model *model = v->model;
    const ferry_alo_connections *c = &model->connections;
    size_t object_count = ferry_alo_object_count(model);
    if (object_count == 0) return;
    uint8_t *seen = calloc(object_count, 1);
    if (!seen) return; /* a check that cannot run is skipped, not failed */
    char who[96];
    for (size_t i = 0; i < c->object_count; i++) {
        uint32_t o = c->objects[i].object;
        if (o >= object_count || seen[o] == 2) continue;
        if (++seen[o] < 2) continue;
        object_label(model, o, who, sizeof who);
        report(v, s, FERRY_SEVERITY_WARNING, c->objects[i].offset, "0x600/0x602", "object-connected-twice",
               "connection %zu: %s is already connected by an earlier connection", i, who);
    }
    for (size_t o = 0; o < object_count; o++) {
        if (seen[o] || !object_valid(model, o)) continue;
        const char *path;
        uint64_t offset = object_offset(model, o, &path);
        object_label(model, o, who, sizeof who);
        report(v, s, FERRY_SEVERITY_WARNING, offset, path, "object-unconnected", "%s is not connected to any bone",
               who);
    }
    free(seen);
}

static void check_bone_ref(vctx *v, scope *s, uint32_t bone, uint64_t offset, const char *path, const char *who)
{
    size_t bones = v->model->skeleton.bone_count;
    if (bone >= bones)
        report(v, s, FERRY_SEVERITY_ERROR, offset, path, "connection-bone",
               "%s: bone index %u, but the skeleton has %zu bones", who, (unsigned)bone, bones);
}

static void check_object_connections(vctx *v, scope *s)
{
    const ferry_alo_model *model = v->model;
    const ferry_alo_connections *c = &model->connections;
    char who[160], object[96];
    for (size_t i = 0; i < c->object_count; i++) {
        const ferry_alo_connection *conn = &c->objects[i];
        if (conn->object >= ferry_alo_object_count(model)) {
            report(v, s, FERRY_SEVERITY_ERROR, conn->offset, "0x600/0x602", "connection-object",
                   "connection %zu: object index %u, but the model has %zu objects", i, (unsigned)conn->object,
                   ferry_alo_object_count(model));
            snprintf(who, sizeof who, "connection %zu", i);
        } else {
            object_label(model, conn->object, object, sizeof object);
            snprintf(who, sizeof who, "connection %zu (%s)", i, object);
        }
        check_bone_ref(v, s, conn->bone, conn->offset, "0x600/0x602", who);
    }
}

static void check_connections(vctx *v)
{
    const ferry_alo_connections *c = &v->model->connections;
    scope s;
    scope_init(&s, CAP_LIST, "connections");
    char who[96];
    if (usable(v, &s, c->objects, c->object_count, c->offset, "0x600", "connections", "object connections")) {
        check_object_connections(v, &s);
        check_attachments(v, &s);
    }
    if (usable(v, &s, c->proxies, c->proxy_count, c->offset, "0x600", "connections", "proxies")) {
        for (size_t i = 0; i < c->proxy_count; i++) {
            const ferry_alo_proxy *p = &c->proxies[i];
            label(who, sizeof who, "proxy", i, p->name);
            check_name(v, &s, p->name, p->offset, "0x600/0x603", who, "name");
            check_bone_ref(v, &s, p->bone, p->offset, "0x600/0x603", who);
        }
    }
    if (usable(v, &s, c->dazzles, c->dazzle_count, c->offset, "0x600", "connections", "dazzles")) {
        for (size_t i = 0; i < c->dazzle_count; i++) {
            label(who, sizeof who, "dazzle", i, c->dazzles[i].name);
            check_bone_ref(v, &s, c->dazzles[i].bone, c->dazzles[i].offset, "0x600/0x604", who);
        }
    }
    scope_close(v, &s);
}

size_t ferry_alo_validate(const ferry_alo_model *model, const ferry_alo_validate_options *options,
                          ferry_diagnostics *diags)
{
    if (!model) return 0;
    vctx v = {model, options, diags, 0};
    check_skeleton(&v);
    check_model_list(&v, "meshes", model->meshes, model->mesh_count, "0x400", check_mesh);
    check_model_list(&v, "lights", model->lights, model->light_count, "0x1300", check_light);
    check_objects(&v);
    check_connections(&v);
    return v.errors;
}
