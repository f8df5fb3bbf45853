/* ODOL -> scene (ferry_odol_to_scene). A model built here through the API
 * (written and read back first) checks names, counts, positions, normals,
 * winding, sections, materials, proxies and extras against values worked
 * out by hand. With ../shared, every corpus v40 model is converted and
 * checked: triangle counts, positions against the source after the axis
 * change, proxies, and the winding: each triangle's geometric normal
 * against its vertices' normals, and the enclosed volume's sign. */
#include <ferry/convert.h>
#include <ferry/gltf.h>
#include <ferry/odol.h>

#include <jansson.h>

#include "support.h"
#include "test.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

/* ---- little-endian array builders ---- */

static void put_f32(uint8_t *p, float v)
{
    uint32_t u;
    memcpy(&u, &v, 4);
    for (int k = 0; k < 4; k++) p[k] = (uint8_t)(u >> (8 * k));
}

static float get_f32(const uint8_t *p)
{
    uint32_t u = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
    float v;
    memcpy(&v, &u, 4);
    return v;
}

static ferry_odol_array floats_array(const float *v, uint32_t count, uint32_t per)
{
    ferry_odol_array a = {0};
    uint8_t *d = calloc((size_t)count * per + 1, 4);
    for (size_t i = 0; i < (size_t)count * per; i++) put_f32(d + 4 * i, v[i]);
    a.data = d;
    a.count = count;
    a.offset = FERRY_NO_OFFSET;
    return a;
}

static ferry_odol_array u16_array(const uint16_t *v, uint32_t count)
{
    ferry_odol_array a = {0};
    uint8_t *d = calloc((size_t)count + 1, 2);
    for (uint32_t i = 0; i < count; i++) d[2 * i] = (uint8_t)v[i], d[2 * i + 1] = (uint8_t)(v[i] >> 8);
    a.data = d;
    a.count = count;
    a.offset = FERRY_NO_OFFSET;
    return a;
}

static ferry_odol_condensed condensed(ferry_odol_array a)
{
    ferry_odol_condensed c = {0};
    c.array = a;
    return c;
}

static ferry_odol_condensed condensed_default(uint32_t count, const void *value, size_t size)
{
    ferry_odol_condensed c = {0};
    c.array.count = count;
    c.array.offset = FERRY_NO_OFFSET;
    c.default_fill = true;
    memcpy(c.default_value, value, size);
    return c;
}

/* ---- the hand-built model ----
 * LOD 0 (1.000): a cube of side 2 around the origin, 4 vertices per side,
 * stored as the engine stores real models (measured on the corpus): each
 * face clockwise seen from outside in the engine's left-handed axes, so
 * the ordinary cross product of its edges points out; normals pointing
 * in. Sides 0..3 are quads, sides 4 and 5 two triangles each. Sections:
 * bytes [0,20) = quads 0-1 (texture a, rvmat named a), [20,56) = quads 2-3
 * and triangles 4-5 (texture b, material record b); triangles 6-7 belong to
 * no section. Two proxies. LOD 1: Memory, 3 points. LODs 2 and 3: shadow
 * volumes with one triangle each (repeated names). */

/* Corners of each side in the order listed, engine axes, clockwise seen
 * from outside (left-handed): the cross product (b-a) x (c-a) points out. */
static const float cube_side[6][4][3] = {
    {{-1, 1, -1}, {-1, 1, 1}, {1, 1, 1}, {1, 1, -1}},     /* top, +y */
    {{-1, -1, -1}, {1, -1, -1}, {1, -1, 1}, {-1, -1, 1}}, /* bottom, -y */
    {{1, -1, -1}, {1, 1, -1}, {1, 1, 1}, {1, -1, 1}},     /* +x */
    {{-1, -1, -1}, {-1, -1, 1}, {-1, 1, 1}, {-1, 1, -1}}, /* -x */
    {{-1, -1, 1}, {1, -1, 1}, {1, 1, 1}, {-1, 1, 1}},     /* +z */
    {{-1, -1, -1}, {-1, 1, -1}, {1, 1, -1}, {1, -1, -1}}, /* -z */
};
static const float cube_out[6][3] = {{0, 1, 0}, {0, -1, 0}, {1, 0, 0}, {-1, 0, 0}, {0, 0, 1}, {0, 0, -1}};

static void cross(const double a[3], const double b[3], double out[3])
{
    out[0] = a[1] * b[2] - a[2] * b[1];
    out[1] = a[2] * b[0] - a[0] * b[2];
    out[2] = a[0] * b[1] - a[1] * b[0];
}

static ferry_odol_lod base_lod(float resolution)
{
    ferry_odol_lod l;
    memset(&l, 0, sizeof l);
    l.resolution = resolution;
    l.permanent = true;
    l.faces_offset = FERRY_NO_OFFSET;
    l.offset = FERRY_NO_OFFSET;
    l.color = l.color_top = 0;
    return l;
}

static ferry_odol_model *build_model(void)
{
    ferry_odol_model *m = calloc(1, sizeof *m);
    m->version = 40;
    m->lod_count = 4;
    m->lods = calloc(4, sizeof *m->lods);
    m->resolutions = calloc(4, sizeof *m->resolutions);
    m->lod_starts = calloc(4, sizeof *m->lod_starts);
    m->lod_ends = calloc(4, sizeof *m->lod_ends);
    memset(m->info.special_lods, 0xFF, sizeof m->info.special_lods);
    m->info.special_lods[FERRY_ODOL_SPECIAL_LOD_MEMORY] = 1;
    m->info.class_name = "House";
    m->info.damage = "Building";
    m->info.mass = 1234.5f;
    m->info.skeleton.name = "";
    m->info.bbox_min[0] = m->info.bbox_min[1] = m->info.bbox_min[2] = -1;
    m->info.bbox_max[0] = m->info.bbox_max[1] = m->info.bbox_max[2] = 1;

    /* LOD 0 */
    ferry_odol_lod *l = &m->lods[0];
    *l = base_lod(1.0f);
    float pos[24 * 3], nrm[24 * 3], uv[24 * 2];
    for (int s = 0; s < 6; s++)
        for (int c = 0; c < 4; c++) {
            int v = s * 4 + c;
            for (int k = 0; k < 3; k++) {
                pos[v * 3 + k] = cube_side[s][c][k];
                nrm[v * 3 + k] = -cube_out[s][k]; /* stored pointing in */
            }
            uv[v * 2] = (float)c / 4, uv[v * 2 + 1] = (float)s / 8;
        }
    l->positions = floats_array(pos, 24, 3);
    l->normals = condensed(floats_array(nrm, 24, 3));
    l->uv_sets = calloc(1, sizeof *l->uv_sets);
    l->uv_sets[0] = condensed(floats_array(uv, 24, 2));
    l->uv_set_count = 1;
    int32_t zero = 0;
    l->point_flags = condensed_default(24, &zero, 4);
    l->faces = calloc(8, sizeof *l->faces);
    l->face_count = 8;
    for (int s = 0; s < 4; s++) {
        l->faces[s].count = 4;
        for (int c = 0; c < 4; c++) l->faces[s].vertices[c] = (uint16_t)(s * 4 + c);
    }
    for (int s = 4; s < 6; s++) {
        ferry_odol_face *a = &l->faces[4 + (s - 4) * 2], *b = a + 1;
        a->count = b->count = 3;
        uint16_t v0 = (uint16_t)(s * 4);
        a->vertices[0] = v0, a->vertices[1] = v0 + 1, a->vertices[2] = v0 + 2;
        b->vertices[0] = v0, b->vertices[1] = v0 + 2, b->vertices[2] = v0 + 3;
    }
    static const char *textures[] = {"tex\\a.paa", "tex\\b.paa"};
    l->textures = textures;
    l->texture_count = 2;
    l->materials = calloc(1, sizeof *l->materials);
    l->material_count = 1;
    l->materials[0].name = "mat\\b.rvmat";
    l->materials[0].version = 9;
    l->materials[0].surface = "";
    l->materials[0].stages = calloc(1, sizeof *l->materials[0].stages);
    l->materials[0].stage_count = 1;
    l->materials[0].stages[0].texture = "tex\\b_nohq.paa";
    l->materials[0].stages[0].stage = 1;
    l->materials[0].ti_stage.texture = "";
    l->sections = calloc(2, sizeof *l->sections);
    l->section_count = 2;
    l->sections[0].face_begin = 0, l->sections[0].face_end = 20;
    l->sections[0].texture = 0, l->sections[0].material = -1, l->sections[0].material_name = "mat\\a.rvmat";
    l->sections[1].face_begin = 20, l->sections[1].face_end = 56;
    l->sections[1].texture = 1, l->sections[1].material = 0, l->sections[1].special = 0x20;
    l->selections = calloc(1, sizeof *l->selections);
    l->selection_count = 1;
    l->selections[0].name = "top";
    uint16_t top_face = 0, top_verts[4] = {0, 1, 2, 3};
    l->selections[0].faces = u16_array(&top_face, 1);
    l->selections[0].vertices = u16_array(top_verts, 4);
    static ferry_odol_property props[] = {{"autocenter", "0"}, {"lodnoshadow", "1"}};
    l->properties = props;
    l->property_count = 2;
    l->proxies = calloc(2, sizeof *l->proxies);
    l->proxy_count = 2;
    /* A quarter turn about y: aside (local x) -> +z, up -> +y, dir -> -x. */
    static const float turn[12] = {0, 0, 1, 0, 1, 0, -1, 0, 0, 1, 2, 3};
    l->proxies[0].model = "\\ca\\misc\\barrel";
    memcpy(l->proxies[0].transform, turn, sizeof turn);
    l->proxies[0].selection_index = 0, l->proxies[0].bone_index = -1, l->proxies[0].sequence_id = 1;
    l->proxies[0].section_index = 1;
    static const float mirror[12] = {-1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0};
    l->proxies[1].model = "\\ca\\misc\\mirrored";
    memcpy(l->proxies[1].transform, mirror, sizeof mirror);
    l->proxies[1].selection_index = -1, l->proxies[1].bone_index = -1, l->proxies[1].section_index = -1;

    /* LOD 1: memory points */
    l = &m->lods[1];
    *l = base_lod(1e15f);
    float mem[9] = {1, 2, 3, -4, 5, 6, 7, -8, 9};
    l->positions = floats_array(mem, 3, 3);
    float up[3] = {0, 1, 0}, uv0[2] = {0, 0};
    l->normals = condensed_default(3, up, 12);
    l->uv_sets = calloc(1, sizeof *l->uv_sets);
    l->uv_sets[0] = condensed_default(3, uv0, 8);
    l->uv_set_count = 1;
    l->point_flags = condensed_default(3, &zero, 4);
    l->selections = calloc(1, sizeof *l->selections);
    l->selection_count = 1;
    l->selections[0].name = "pos driver";
    uint16_t one = 1;
    l->selections[0].vertices = u16_array(&one, 1);

    /* LODs 2 and 3: shadow volumes, one triangle (the top's first half). */
    for (int i = 2; i < 4; i++) {
        l = &m->lods[i];
        *l = base_lod(11000.0f);
        l->positions = floats_array(pos, 3, 3);
        l->normals = condensed_default(3, up, 12);
        l->uv_sets = calloc(1, sizeof *l->uv_sets);
        l->uv_sets[0] = condensed_default(3, uv0, 8);
        l->uv_set_count = 1;
        l->point_flags = condensed_default(3, &zero, 4);
        l->faces = calloc(1, sizeof *l->faces);
        l->face_count = 1;
        l->faces[0].count = 3;
        l->faces[0].vertices[0] = 0, l->faces[0].vertices[1] = 1, l->faces[0].vertices[2] = 2;
    }
    for (uint32_t i = 0; i < m->lod_count; i++) m->resolutions[i] = m->lods[i].resolution;
    return m;
}

static void free_built(ferry_odol_model *m)
{
    for (uint32_t i = 0; i < m->lod_count; i++) {
        ferry_odol_lod *l = &m->lods[i];
        free((void *)l->positions.data);
        free((void *)l->normals.array.data);
        for (uint32_t k = 0; k < l->uv_set_count; k++) free((void *)l->uv_sets[k].array.data);
        free(l->uv_sets);
        free(l->faces);
        for (uint32_t k = 0; k < l->selection_count; k++) {
            free((void *)l->selections[k].faces.data);
            free((void *)l->selections[k].vertices.data);
        }
        free(l->selections);
        free(l->sections);
        for (uint32_t k = 0; k < l->material_count; k++) free(l->materials[k].stages);
        free(l->materials);
        free(l->proxies);
    }
    free(m->lods);
    free(m->resolutions);
    free(m->lod_starts);
    free(m->lod_ends);
    free(m);
}

/* ---- scene helpers ---- */

static int32_t find_node(const ferry_scene *s, const char *name)
{
    for (size_t i = 0; i < s->node_count; i++)
        if (s->nodes[i].name && strcmp(s->nodes[i].name, name) == 0) return (int32_t)i;
    return -1;
}

static size_t children(const ferry_scene *s, int32_t parent, int32_t *out, size_t cap)
{
    size_t n = 0;
    for (size_t i = 0; i < s->node_count; i++)
        if (FY_REF(&s->nodes[i], parent) == parent) {
            if (n < cap) out[n] = (int32_t)i;
            n++;
        }
    return n;
}

static size_t mesh_triangles(const ferry_scene *s, int32_t mesh)
{
    size_t t = 0;
    if (mesh < 0) return 0;
    for (size_t p = 0; p < s->meshes[mesh].primitive_count; p++)
        if (s->meshes[mesh].primitives[p].mode == FERRY_PRIMITIVE_TRIANGLES) t += s->meshes[mesh].primitives[p].index_count / 3;
    return t;
}

/* Winding figures over a mesh's triangles: how many have a geometric
 * normal (right-handed cross product of the glTF positions) on the same
 * side as the mean of their vertex normals, and the signed volume they
 * enclose (positive: faces counter-clockwise seen from outside). */
typedef struct winding {
    size_t agree, disagree;
    double volume;
} winding;

static void measure_winding(const ferry_scene *s, int32_t mesh, winding *w)
{
    if (mesh < 0) return;
    for (size_t p = 0; p < s->meshes[mesh].primitive_count; p++) {
        const ferry_scene_primitive *pr = &s->meshes[mesh].primitives[p];
        if (pr->mode != FERRY_PRIMITIVE_TRIANGLES) continue;
        for (size_t t = 0; t + 2 < pr->index_count; t += 3) {
            const float *a = pr->positions + 3 * pr->indices[t], *b = pr->positions + 3 * pr->indices[t + 1],
                        *c = pr->positions + 3 * pr->indices[t + 2];
            double u[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]}, v[3] = {c[0] - a[0], c[1] - a[1], c[2] - a[2]}, g[3];
            cross(u, v, g);
            w->volume += (a[0] * g[0] + a[1] * g[1] + a[2] * g[2]) / 6.0;
            if (!pr->normals) continue;
            double n[3] = {0, 0, 0};
            for (int k = 0; k < 3; k++)
                for (int j = 0; j < 3; j++) n[j] += pr->normals[3 * pr->indices[t + k] + j];
            double d = g[0] * n[0] + g[1] * n[1] + g[2] * n[2];
            if (d > 0) w->agree++;
            else if (d < 0) w->disagree++;
        }
    }
}

static json_t *extras(const char *text)
{
    json_error_t e;
    return text ? json_loads(text, 0, &e) : NULL;
}

/* Triangles as 9 floats (glTF positions), for comparing lists as sets. */
static int cmp9(const void *a, const void *b) { return memcmp(a, b, 9 * sizeof(float)); }

/* Whether face f is a proxy's marker triangle: its section (the first
 * whose byte range of the engine's face layout, 8 per triangle and 10 per
 * quad, holds the face's start) is named by a proxy and flagged
 * 0x10000000, as every proxy section of the real files is. */
static bool proxy_face(const ferry_odol_lod *l, uint32_t f)
{
    uint32_t start = 0;
    for (uint32_t k = 0; k < f; k++) start += 2u + 2u * l->faces[k].count;
    for (uint32_t s = 0; s < l->section_count; s++) {
        const ferry_odol_section *sec = &l->sections[s];
        if (sec->face_begin < 0 || (uint32_t)sec->face_begin > start || (uint32_t)sec->face_end <= start) continue;
        if (!(sec->special & 0x10000000)) return false;
        for (uint32_t p = 0; p < l->proxy_count; p++)
            if (l->proxies[p].section_index == (int32_t)s) return true;
        return false;
    }
    return false;
}

/* The glTF triangles of a LOD, derived here from the source: z negated,
 * each face's corners reversed ((0 2 1), and (0 3 2) for quads); proxy
 * triangles are not drawn. */
static size_t source_triangles(const ferry_odol_lod *l, float *out)
{
    size_t n = 0;
    for (uint32_t f = 0; f < l->face_count; f++) {
        const ferry_odol_face *fc = &l->faces[f];
        if (proxy_face(l, f)) continue;
        for (int k = 1; k + 1 < fc->count; k++) {
            int corner[3] = {0, k + 1, k};
            for (int c = 0; c < 3; c++) {
                const uint8_t *p = l->positions.data + 12 * (size_t)fc->vertices[corner[c]];
                out[n * 9 + c * 3] = get_f32(p);
                out[n * 9 + c * 3 + 1] = get_f32(p + 4);
                out[n * 9 + c * 3 + 2] = -get_f32(p + 8);
            }
            n++;
        }
    }
    return n;
}

static size_t scene_triangles(const ferry_scene *s, int32_t mesh, float *out)
{
    size_t n = 0;
    for (size_t p = 0; mesh >= 0 && p < s->meshes[mesh].primitive_count; p++) {
        const ferry_scene_primitive *pr = &s->meshes[mesh].primitives[p];
        if (pr->mode != FERRY_PRIMITIVE_TRIANGLES) continue;
        for (size_t t = 0; t < pr->index_count; t += 3, n++)
            for (int c = 0; c < 3; c++) memcpy(out + n * 9 + c * 3, pr->positions + 3 * pr->indices[t + c], 12);
    }
    return n;
}

/* Positions: the scene's triangles are exactly the source's after the
 * axis change (same multiset of corner triples, in order). */
static bool same_triangles(const ferry_scene *s, int32_t mesh, const ferry_odol_lod *l)
{
    size_t cap = (size_t)l->face_count * 2 + 1;
    float *want = malloc(cap * 9 * sizeof *want), *got = malloc(cap * 9 * sizeof *got);
    size_t nw = source_triangles(l, want);
    size_t ng = mesh_triangles(s, mesh) <= cap ? scene_triangles(s, mesh, got) : cap + 1;
    bool ok = nw == ng;
    if (ok) {
        qsort(want, nw, 9 * sizeof(float), cmp9);
        qsort(got, ng, 9 * sizeof(float), cmp9);
        ok = memcmp(want, got, nw * 9 * sizeof(float)) == 0;
    }
    free(want);
    free(got);
    return ok;
}

/* ---- the built model ---- */

static void test_built(void)
{
    ferry_odol_model *built = build_model();
    ferry_error err;
    CHECK(ferry_odol_update(built, &err) == FERRY_OK);
    ferry_buffer buf = {0};
    CHECK(ferry_odol_write(built, &buf, &err) == FERRY_OK);
    ferry_odol_model *m = NULL;
    ferry_result rc = ferry_odol_read(buf.data, buf.size, NULL, &m, &err);
    CHECK_MSG(rc == FERRY_OK, "%s at %s", err.message, err.path);
    if (rc != FERRY_OK) {
        ferry_buffer_free(&buf);
        free_built(built);
        return;
    }
    ferry_odol_scene_report rep;
    ferry_odol_scene_options opt = {0};
    opt.name = "built";
    opt.all = true;
    opt.report = &rep;
    ferry_scene *s = NULL;
    rc = ferry_odol_to_scene(m, &opt, &s, &err);
    CHECK_MSG(rc == FERRY_OK, "%s at %s", err.message, err.path);
    if (rc != FERRY_OK) goto done;

    /* Root, 4 LODs, 2 proxies. */
    CHECK_EQ_U(s->node_count, 7);
    CHECK(strcmp(s->nodes[0].name, "built") == 0 && FY_REF(&s->nodes[0], parent) == -1);
    int32_t lod0 = find_node(s, "1.000"), mem = find_node(s, "Memory"), sv1 = find_node(s, "Shadow Volume"),
            sv2 = find_node(s, "Shadow Volume (2)");
    CHECK(lod0 > 0 && mem > 0 && sv1 > 0 && sv2 > 0);
    if (lod0 <= 0 || mem <= 0 || sv1 <= 0 || sv2 <= 0) goto done;
    CHECK(FY_REF(&s->nodes[lod0], parent) == 0 && FY_REF(&s->nodes[mem], parent) == 0 && FY_REF(&s->nodes[sv2], parent) == 0);
    CHECK_EQ_U(rep.lods, 4);
    CHECK_EQ_U(rep.triangles, 4 * 2 + 4 + 1 + 1);
    CHECK_EQ_U(rep.proxies, 2);
    CHECK_EQ_U(rep.points, 3);
    CHECK_EQ_U(rep.materials, 2);

    /* LOD 0: three primitives (two sections, then the faces of none). */
    const ferry_scene_mesh *mesh = &s->meshes[FY_REF(&s->nodes[lod0], mesh)];
    CHECK_EQ_U(mesh->primitive_count, 3);
    CHECK_EQ_U(mesh_triangles(s, FY_REF(&s->nodes[lod0], mesh)), 12);
    CHECK_EQ_U(mesh->primitives[0].index_count, 2 * 2 * 3);
    CHECK_EQ_U(mesh->primitives[1].index_count, (2 * 2 + 2) * 3);
    CHECK_EQ_U(mesh->primitives[2].index_count, 2 * 3);
    CHECK(FY_REF(&mesh->primitives[2], material) == -1);
    CHECK(same_triangles(s, FY_REF(&s->nodes[lod0], mesh), &m->lods[0]));
    /* Winding: a closed cube of side 2 encloses +8 with counter-clockwise
     * outside faces; every triangle agrees with its (outward) normals. */
    winding w = {0};
    measure_winding(s, FY_REF(&s->nodes[lod0], mesh), &w);
    CHECK_NEAR(w.volume, 8.0, 1e-5);
    CHECK_EQ_U(w.agree, 12);
    CHECK_EQ_U(w.disagree, 0);
    /* Normals: the top (+y in both axis systems) points up; -z of the
     * engine (the model's front) is +z in glTF, x stays. Vertex 0 of the
     * first primitive is a top corner (engine (-1, 1, -1), glTF (-1, 1, 1)). */
    const ferry_scene_primitive *p0 = &mesh->primitives[0];
    CHECK(p0->normals != NULL && p0->texcoord_count == 1);
    if (p0->normals) {
        CHECK_NEAR(p0->positions[0], -1.0, 0);
        CHECK_NEAR(p0->positions[1], 1.0, 0);
        CHECK_NEAR(p0->positions[2], 1.0, 0);
        CHECK_NEAR(p0->normals[0], 0.0, 0);
        CHECK_NEAR(p0->normals[1], 1.0, 0);
        CHECK_NEAR(p0->normals[2], 0.0, 0);
    }
    /* The engine's -z side (4 corners, the front) is glTF's +z side, normals
     * along +z; its +x side stays +x. */
    size_t on_z = 0, on_x = 0;
    for (size_t p = 0; p < mesh->primitive_count; p++) {
        const ferry_scene_primitive *pr = &mesh->primitives[p];
        for (size_t v = 0; v < pr->vertex_count && pr->normals; v++) {
            on_z += pr->positions[3 * v + 2] == 1.0f && pr->normals[3 * v + 2] == 1.0f;
            on_x += pr->positions[3 * v] == 1.0f && pr->normals[3 * v] == 1.0f;
        }
    }
    CHECK_EQ_U(on_z, 4);
    CHECK_EQ_U(on_x, 4);
    /* UV of vertex 0 (corner 0 of side 0): (0, 0); of the last vertex of side 1: (3/4, 1/8). */
    CHECK_NEAR(p0->texcoords[0][0], 0.0, 0);
    CHECK_NEAR(p0->texcoords[0][2 * 7], 0.75, 0);
    CHECK_NEAR(p0->texcoords[0][2 * 7 + 1], 0.125, 0);

    /* Materials: named after the rvmat, texture and stages in extras. */
    CHECK_EQ_U(s->material_count, 2);
    CHECK(strcmp(s->materials[FY_REF(&mesh->primitives[0], material)].name, "mat\\a.rvmat") == 0);
    CHECK(strcmp(s->materials[FY_REF(&mesh->primitives[1], material)].name, "mat\\b.rvmat") == 0);
    json_t *mx = extras(test_extras_text(s->materials[FY_REF(&mesh->primitives[1], material)].extras));
    CHECK(mx && strcmp(json_string_value(json_object_get(mx, "texture")), "tex\\b.paa") == 0);
    CHECK(mx && strcmp(json_string_value(json_object_get(json_array_get(
                           json_object_get(json_object_get(mx, "rvmat_record"), "stages"), 0), "texture")),
                       "tex\\b_nohq.paa") == 0);
    json_decref(mx);
    json_t *px = extras(test_extras_text(mesh->primitives[1].extras));
    CHECK(px && json_integer_value(json_object_get(px, "section")) == 1 &&
          json_integer_value(json_object_get(px, "special")) == 0x20);
    CHECK(px && json_is_true(json_object_get(px, "proxy_triangles"))); /* the barrel names section 1 */
    json_decref(px);
    px = extras(test_extras_text(mesh->primitives[0].extras));
    CHECK(px && json_object_get(px, "proxy_triangles") == NULL);
    json_decref(px);
    px = extras(test_extras_text(mesh->primitives[2].extras));
    CHECK(px && json_is_null(json_object_get(px, "section")));
    json_decref(px);

    /* Selections and properties in the LOD node's extras. */
    json_t *lx = extras(test_extras_text(s->nodes[lod0].extras));
    json_t *sel = json_array_get(json_object_get(lx, "selections"), 0);
    CHECK(sel && strcmp(json_string_value(json_object_get(sel, "name")), "top") == 0);
    CHECK(json_array_size(json_object_get(sel, "vertices")) == 4 &&
          json_integer_value(json_array_get(json_object_get(sel, "vertices"), 3)) == 3);
    CHECK(json_integer_value(json_array_get(json_object_get(sel, "faces"), 0)) == 0);
    json_t *prop = json_array_get(json_object_get(lx, "properties"), 1);
    CHECK(prop && strcmp(json_string_value(json_array_get(prop, 0)), "lodnoshadow") == 0 &&
          strcmp(json_string_value(json_array_get(prop, 1)), "1") == 0);
    json_decref(lx);

    /* Proxies: children of the LOD node. The quarter turn R (columns
     * aside, up, dir) = [[0,0,-1],[0,1,0],[1,0,0]]; with S = diag(1,1,-1)
     * on both sides, S R S = [[0,0,1],[0,1,0],[-1,0,0]]: +90 degrees about
     * y, quaternion (0, sin 45, 0, cos 45); position (1,2,3) -> (1,2,-3). */
    int32_t kids[4];
    CHECK_EQ_U(children(s, lod0, kids, 4), 2);
    int32_t barrel = find_node(s, "\\ca\\misc\\barrel"), mirrored = find_node(s, "\\ca\\misc\\mirrored");
    CHECK(barrel == kids[0] && mirrored == kids[1]);
    if (barrel > 0) {
        const ferry_scene_node *n = &s->nodes[barrel];
        CHECK_NEAR(n->translation[0], 1, 1e-6);
        CHECK_NEAR(n->translation[1], 2, 1e-6);
        CHECK_NEAR(n->translation[2], -3, 1e-6);
        double sign = n->rotation[3] < 0 ? -1 : 1;
        CHECK_NEAR(sign * n->rotation[0], 0, 1e-6);
        CHECK_NEAR(sign * n->rotation[1], sqrt(0.5), 1e-6);
        CHECK_NEAR(sign * n->rotation[2], 0, 1e-6);
        CHECK_NEAR(sign * n->rotation[3], sqrt(0.5), 1e-6);
        CHECK_NEAR(n->scale[0], 1, 1e-6);
        json_t *bx = extras(test_extras_text(n->extras));
        CHECK(bx && strcmp(json_string_value(json_object_get(bx, "selection")), "top") == 0);
        CHECK(bx && json_object_get(bx, "matrix") == NULL);
        json_decref(bx);
    }
    if (mirrored > 0) {
        /* A mirror has no rotation: one scale is -1, the raw matrix kept. */
        const ferry_scene_node *n = &s->nodes[mirrored];
        CHECK_NEAR(n->scale[0] * n->scale[1] * n->scale[2], -1, 1e-6);
        json_t *bx = extras(test_extras_text(n->extras));
        CHECK(bx && json_array_size(json_object_get(bx, "matrix")) == 12);
        json_decref(bx);
    }

    /* A normal filled with one value is a placeholder: left out. */
    CHECK(FY_REF(&s->nodes[sv2], mesh) >= 0 && s->meshes[FY_REF(&s->nodes[sv2], mesh)].primitives[0].normals == NULL);

    /* Memory: points in stored order, z negated; selection kept. */
    CHECK(FY_REF(&s->nodes[mem], mesh) >= 0);
    if (FY_REF(&s->nodes[mem], mesh) >= 0) {
        const ferry_scene_primitive *pp = &s->meshes[FY_REF(&s->nodes[mem], mesh)].primitives[0];
        CHECK(pp->mode == FERRY_PRIMITIVE_POINTS && pp->vertex_count == 3 && !pp->indices);
        CHECK_NEAR(pp->positions[3], -4, 0);
        CHECK_NEAR(pp->positions[4], 5, 0);
        CHECK_NEAR(pp->positions[5], -6, 0);
    }
    json_t *memx = extras(test_extras_text(s->nodes[mem].extras));
    CHECK(strcmp(json_string_value(json_object_get(json_array_get(json_object_get(memx, "selections"), 0), "name")),
                 "pos driver") == 0);
    json_decref(memx);

    /* Model info on the root. */
    json_t *rx = extras(test_extras_text(s->nodes[0].extras));
    CHECK(rx && strcmp(json_string_value(json_object_get(rx, "class")), "House") == 0);
    CHECK(rx && json_integer_value(json_object_get(json_object_get(rx, "special_lods"), "memory")) == 1);
    CHECK(rx && json_is_null(json_object_get(json_object_get(rx, "special_lods"), "geometry")));
    CHECK_NEAR(json_real_value(json_object_get(rx, "mass")), 1234.5, 1e-3);
    json_decref(rx);

    /* The glTF writer accepts it. */
    ferry_buffer glb = {0};
    CHECK(ferry_gltf_write_glb(s, &glb, &err) == FERRY_OK);
    ferry_buffer_free(&glb);
    ferry_scene_free(s);
    s = NULL;

    /* Choosing LODs: model order, each once. */
    uint32_t pick[3] = {3, 1, 3};
    opt.lods = pick;
    opt.lod_count = 3;
    CHECK(ferry_odol_to_scene(m, &opt, &s, &err) == FERRY_OK);
    if (s) {
        CHECK_EQ_U(s->node_count, 3);
        CHECK(strcmp(s->nodes[1].name, "Memory") == 0 && strcmp(s->nodes[2].name, "Shadow Volume") == 0);
        ferry_scene_free(s);
        s = NULL;
    }
    uint32_t bad_pick = 4;
    opt.lods = &bad_pick;
    opt.lod_count = 1;
    CHECK(ferry_odol_to_scene(m, &opt, &s, &err) == FERRY_ERR_ARGUMENT && s == NULL);
    CHECK(strstr(err.message, "LOD 4") != NULL);

    /* A face naming a vertex that does not exist: a located error. */
    m->lods[0].faces[3].vertices[2] = 24;
    opt.lods = NULL;
    opt.lod_count = 0;
    CHECK(ferry_odol_to_scene(m, &opt, &s, &err) == FERRY_ERR_MALFORMED && s == NULL);
    CHECK(strcmp(err.path, "lods[0]/faces[3]") == 0);
    m->lods[0].faces[3].vertices[2] = 14;
done:
    ferry_scene_free(s);
    ferry_odol_free(m);
    ferry_buffer_free(&buf);
    free_built(built);
}

/* ---- game view, proxy triangles, zero normals, procedural colours ----
 * LOD 0 (2.000): one triangle. LOD 1 (0.500, the most detailed visual
 * LOD though stored second): a roof of two quads sharing the ridge A-B,
 * worked out by hand in engine axes (each quad's ordinary edge cross
 * product points out, as the engine stores faces):
 *   A(-1,1,0) B(1,1,0); slope 1 A B D C with D(1,0,-1) C(-1,0,-1): area
 *   2*sqrt2, area vector (0,2,-2); slope 2 B A E F with E(-1,-1,2)
 *   F(1,-1,2): area 4*sqrt2, area vector (0,4,4).
 * A's stored normal is zero: its faces' area-weighted normal is (0,6,2)
 * in engine axes, (0,6,-2)/sqrt40 = (0, 0.948683, -0.316228) in glTF (z
 * negated); an unweighted mean would give (0,1,0). Then a proxy triangle
 * G H I in a section of its own flagged 0x1000c000. Sections: [0,10)
 * slope 1, texture #(argb,8,8,3)color(1,0.5,0,0.25,co); [20,28) the proxy
 * triangle; [10,20) slope 2, texture with a value out of range. LOD 2:
 * View Pilot (1100), one triangle. LOD 3: Memory, two points. */
static const float roof_pos[9][3] = {{-1, 1, 0}, {1, 1, 0},  {-1, 0, -1}, {1, 0, -1}, {-1, -1, 2},
                                     {1, -1, 2}, {0, 2, 0},  {0, 4, 0},   {0, 2, 1}};

static void one_triangle_lod(ferry_odol_lod *l, float resolution)
{
    static const float tri[9] = {0, 0, 0, 1, 0, 0, 0, 1, 0};
    static const float tri_n[9] = {0, 0, -1, 0, 0, -1, 0, 0, -1};
    *l = base_lod(resolution);
    l->positions = floats_array(tri, 3, 3);
    l->normals = condensed(floats_array(tri_n, 3, 3));
    l->faces = calloc(1, sizeof *l->faces);
    l->face_count = 1;
    l->faces[0].count = 3;
    l->faces[0].vertices[0] = 0, l->faces[0].vertices[1] = 1, l->faces[0].vertices[2] = 2;
}

static ferry_odol_model *build_roof(void)
{
    ferry_odol_model *m = calloc(1, sizeof *m);
    m->version = 40;
    m->lod_count = 4;
    m->lods = calloc(4, sizeof *m->lods);
    m->resolutions = calloc(4, sizeof *m->resolutions);
    memset(m->info.special_lods, 0xFF, sizeof m->info.special_lods);
    m->info.class_name = m->info.damage = "";
    m->info.skeleton.name = "";
    one_triangle_lod(&m->lods[0], 2.0f);
    ferry_odol_lod *l = &m->lods[1];
    *l = base_lod(0.5f);
    float pos[27], nrm[27];
    for (int v = 0; v < 9; v++)
        for (int k = 0; k < 3; k++) pos[v * 3 + k] = roof_pos[v][k];
    /* Stored pointing in: slope 1's out is (0,1,-1)/sqrt2, slope 2's
     * (0,1,1)/sqrt2; B a mean of both; A zero. */
    const float h = (float)sqrt(0.5);
    const float stored[9][3] = {{0, 0, 0},  {0, -1, 0}, {0, -h, h},  {0, -h, h}, {0, -h, -h},
                                {0, -h, -h}, {1, 0, 0},  {1, 0, 0},  {1, 0, 0}};
    for (int v = 0; v < 9; v++)
        for (int k = 0; k < 3; k++) nrm[v * 3 + k] = stored[v][k];
    l->positions = floats_array(pos, 9, 3);
    l->normals = condensed(floats_array(nrm, 9, 3));
    l->faces = calloc(3, sizeof *l->faces);
    l->face_count = 3;
    const uint16_t quads[2][4] = {{0, 1, 3, 2}, {1, 0, 4, 5}};
    for (int q = 0; q < 2; q++) {
        l->faces[q].count = 4;
        for (int c = 0; c < 4; c++) l->faces[q].vertices[c] = quads[q][c];
    }
    l->faces[2].count = 3;
    l->faces[2].vertices[0] = 6, l->faces[2].vertices[1] = 7, l->faces[2].vertices[2] = 8;
    static const char *textures[] = {"#(argb,8,8,3)color(1,0.5,0,0.25,co)", "#(argb,8,8,3)color(1,2,0,1)"};
    l->textures = textures;
    l->texture_count = 2;
    l->sections = calloc(3, sizeof *l->sections);
    l->section_count = 3;
    l->sections[0].face_begin = 0, l->sections[0].face_end = 10, l->sections[0].texture = 0;
    l->sections[1].face_begin = 20, l->sections[1].face_end = 28, l->sections[1].texture = -1;
    l->sections[1].special = 0x1000c000;
    l->sections[2].face_begin = 10, l->sections[2].face_end = 20, l->sections[2].texture = 1;
    for (int k = 0; k < 3; k++) l->sections[k].material = -1, l->sections[k].material_name = "";
    l->selections = calloc(1, sizeof *l->selections);
    l->selection_count = 1;
    l->selections[0].name = "proxy:pilot.01";
    l->proxies = calloc(1, sizeof *l->proxies);
    l->proxy_count = 1;
    static const float ident[12] = {1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 2, 0};
    l->proxies[0].model = "pilot";
    memcpy(l->proxies[0].transform, ident, sizeof ident);
    l->proxies[0].selection_index = 0, l->proxies[0].bone_index = -1, l->proxies[0].section_index = 1;
    one_triangle_lod(&m->lods[2], 1100.0f);
    l = &m->lods[3];
    *l = base_lod(1e15f);
    l->positions = floats_array(pos, 2, 3);
    for (uint32_t i = 0; i < m->lod_count; i++) m->resolutions[i] = m->lods[i].resolution;
    return m;
}

static void free_roof(ferry_odol_model *m)
{
    for (uint32_t i = 0; i < m->lod_count; i++) {
        ferry_odol_lod *l = &m->lods[i];
        free((void *)l->positions.data);
        free((void *)l->normals.array.data);
        free(l->faces);
        free(l->sections);
        free(l->selections);
        free(l->proxies);
    }
    free(m->lods);
    free(m->resolutions);
    free(m);
}

static void test_roof(void)
{
    ferry_odol_model *m = build_roof();
    ferry_odol_scene_report rep;
    ferry_odol_scene_options opt = {0}; /* zeroed: the game's view */
    opt.report = &rep;
    ferry_scene *s = NULL;
    ferry_error err;
    ferry_result rc = ferry_odol_to_scene(m, &opt, &s, &err);
    CHECK_MSG(rc == FERRY_OK, "%s at %s", err.message, err.path);
    if (rc != FERRY_OK) {
        free_roof(m);
        return;
    }
    /* Game view: the root, LOD 0.500 and its proxy. */
    CHECK_EQ_U(s->node_count, 3);
    CHECK_EQ_U(rep.lods, 1);
    CHECK(rep.visual_lod == 1);
    int32_t lod = find_node(s, "0.500");
    CHECK(lod == 1 && find_node(s, "2.000") < 0 && find_node(s, "View Pilot") < 0 && find_node(s, "Memory") < 0);
    if (lod != 1) goto done;
    /* The proxy is a node; its triangle is not drawn. */
    CHECK(find_node(s, "pilot") == 2 && FY_REF(&s->nodes[2], parent) == lod);
    CHECK_EQ_U(rep.proxy_triangles, 1);
    CHECK_EQ_U(mesh_triangles(s, FY_REF(&s->nodes[lod], mesh)), 4);
    const ferry_scene_mesh *mesh = &s->meshes[FY_REF(&s->nodes[lod], mesh)];
    CHECK_EQ_U(mesh->primitive_count, 2);
    json_t *lx = extras(test_extras_text(s->nodes[lod].extras));
    CHECK(lx && json_array_size(json_object_get(lx, "proxy_sections")) == 1 &&
          json_integer_value(json_array_get(json_object_get(lx, "proxy_sections"), 0)) == 1);
    json_decref(lx);
    /* A's zero normal: its faces' area-weighted normal, in both primitives;
     * every primitive keeps NORMAL. */
    CHECK_EQ_U(rep.normals_repaired, 2);
    size_t seen_a = 0;
    for (size_t p = 0; p < mesh->primitive_count; p++) {
        const ferry_scene_primitive *pr = &mesh->primitives[p];
        CHECK(pr->normals != NULL);
        for (size_t v = 0; pr->normals && v < pr->vertex_count; v++) {
            if (pr->positions[3 * v] != -1.0f || pr->positions[3 * v + 1] != 1.0f) continue;
            seen_a++;
            CHECK_NEAR(pr->normals[3 * v], 0, 1e-6);
            CHECK_NEAR(pr->normals[3 * v + 1], 0.948683, 1e-6);
            CHECK_NEAR(pr->normals[3 * v + 2], -0.316228, 1e-6);
        }
    }
    CHECK_EQ_U(seen_a, 2);
    /* Stored normals stay as stored (negated, z mirrored): B is vertex 1
     * (vertices are numbered by first use, corners in stored order). */
    CHECK(mesh->primitives[0].normals && mesh->primitives[0].normals[4] == 1.0f);
    /* Procedural colour: (1, 0.5, 0, 0.25) texels, sRGB decoded: 0.5 ->
     * ((0.5 + 0.055) / 1.055)^2.4 = 0.214041; alpha 0.25 blends. */
    int32_t mat = FY_REF(&mesh->primitives[0], material);
    CHECK(mat >= 0);
    if (mat >= 0) {
        const ferry_scene_material *mt = &s->materials[mat];
        CHECK_NEAR(mt->base_color_factor[0], 1, 1e-6);
        CHECK_NEAR(mt->base_color_factor[1], 0.214041, 1e-6);
        CHECK_NEAR(mt->base_color_factor[2], 0, 1e-6);
        CHECK_NEAR(mt->base_color_factor[3], 0.25, 1e-6);
        CHECK(mt->alpha_mode == FERRY_ALPHA_BLEND);
    }
    /* A value out of range: ignored (white), reported with the text. */
    mat = FY_REF(&mesh->primitives[1], material);
    CHECK(mat >= 0 && s->materials[mat].base_color_factor[1] == 1.0f);
    CHECK(mat >= 0 && s->materials[mat].alpha_mode == FERRY_ALPHA_OPAQUE);
    CHECK_EQ_U(rep.colors, 1);
    CHECK_EQ_U(rep.procedural_ignored, 1);
    CHECK(rep.procedural_problem && strstr(rep.procedural_problem, "color(1,2,0,1)") &&
          strstr(rep.procedural_problem, "0 to 1"));
    /* Facing: the slope stored toward -z (engine) faces +z in glTF. */
    winding w = {0};
    measure_winding(s, FY_REF(&s->nodes[lod], mesh), &w);
    CHECK_EQ_U(w.agree, 4);
    CHECK_EQ_U(w.disagree, 0);
    ferry_scene_free(s);
    s = NULL;

    /* NULL options are the same: the game's view. */
    CHECK(ferry_odol_to_scene(m, NULL, &s, &err) == FERRY_OK);
    CHECK(s && s->node_count == 3 && find_node(s, "0.500") == 1 && find_node(s, "Memory") < 0);
    ferry_scene_free(s);
    s = NULL;
    /* The options as game_view (an opt-in with no effect, since removed)
     * left them: the default; with `all` every LOD. */
    CHECK(ferry_odol_to_scene(m, &opt, &s, &err) == FERRY_OK);
    CHECK(s && rep.lods == 1 && rep.visual_lod == 1 && find_node(s, "0.500") == 1);
    ferry_scene_free(s);
    s = NULL;
    /* With all: every LOD, the Memory points too. */
    opt.all = true;
    CHECK(ferry_odol_to_scene(m, &opt, &s, &err) == FERRY_OK);
    CHECK(s && rep.lods == 4 && find_node(s, "Memory") > 0 && find_node(s, "View Pilot") > 0);
    CHECK(rep.visual_lod == -1);
    ferry_scene_free(s);
    s = NULL;
    /* A visual LOD whose normals are one value for every vertex (a
     * placeholder) gets them all from its faces: LOD 2.000's triangle
     * (0,0,0) (1,0,0) (0,1,0) faces engine +z (its edges' cross product),
     * glTF -z. A shadow volume would have none (the built model above). */
    {
        ferry_odol_lod *l0 = &m->lods[0];
        ferry_odol_condensed keep = l0->normals;
        float up[3] = {0, 1, 0};
        l0->normals = condensed_default(3, up, 12);
        uint32_t only0 = 0;
        opt.lods = &only0;
        opt.lod_count = 1;
        CHECK(ferry_odol_to_scene(m, &opt, &s, &err) == FERRY_OK);
        const ferry_scene_primitive *pr = s && FY_REF(&s->nodes[1], mesh) >= 0 ? &s->meshes[FY_REF(&s->nodes[1], mesh)].primitives[0] : NULL;
        CHECK(pr && pr->normals);
        for (size_t v = 0; pr && pr->normals && v < 3; v++) {
            CHECK_NEAR(pr->normals[3 * v], 0, 0);
            CHECK_NEAR(pr->normals[3 * v + 1], 0, 0);
            CHECK_NEAR(pr->normals[3 * v + 2], -1, 0);
        }
        CHECK(rep.normals_computed_primitives == 1 && rep.normals_repaired == 0);
        ferry_scene_free(s);
        s = NULL;
        l0->normals = keep;
        opt.lods = NULL;
        opt.lod_count = 0;
    }
    /* A model with no visual LOD: the game's view converts every LOD. */
    m->lods[0].resolution = m->lods[1].resolution = 1e13f;
    opt.all = false;
    CHECK(ferry_odol_to_scene(m, &opt, &s, &err) == FERRY_OK);
    CHECK(s && rep.lods == 4 && rep.visual_lod == -1);
    ferry_scene_free(s);
    s = NULL;
    m->lods[0].resolution = 2.0f, m->lods[1].resolution = 0.5f;

    /* Non-finite values: located errors, as validation reports them. */
    uint8_t *pd = (uint8_t *)m->lods[1].positions.data, *nd = (uint8_t *)m->lods[1].normals.array.data;
    put_f32(pd + 12 * 4 + 4, NAN);
    CHECK(ferry_odol_to_scene(m, &opt, &s, &err) == FERRY_ERR_MALFORMED && !s);
    CHECK(strcmp(err.path, "lods[1]/positions[4]") == 0);
    put_f32(pd + 12 * 4 + 4, -1);
    put_f32(nd + 12 * 5, INFINITY);
    CHECK(ferry_odol_to_scene(m, &opt, &s, &err) == FERRY_ERR_MALFORMED && !s);
    CHECK(strcmp(err.path, "lods[1]/normals[5]") == 0);
    put_f32(nd + 12 * 5, 0);
    m->lods[1].proxies[0].transform[4] = NAN;
    CHECK(ferry_odol_to_scene(m, &opt, &s, &err) == FERRY_ERR_MALFORMED && !s);
    CHECK(strcmp(err.path, "lods[1]/proxies[0]") == 0);
    m->lods[1].proxies[0].transform[4] = 1;
    CHECK(ferry_odol_to_scene(m, &opt, &s, &err) == FERRY_OK);
done:
    ferry_scene_free(s);
    free_roof(m);
}

/* ---- facing, on real models ----
 * Memory points named by the modders: in the file a vehicle's front is at
 * -z and its right at -x, so in glTF the front is +Z and the right -X. */
typedef struct landmark {
    const char *selection;
    int axis;     /* 0 x, 2 z */
    double above; /* the glTF coordinate is greater than this... */
    double below; /* ...and less than this */
} landmark;

static void check_landmarks(const char *rel, const landmark *marks, size_t count)
{
    char path[512];
    snprintf(path, sizeof path, "%s/corpus/odol/%s", FERRY_SHARED_DIR, rel);
    size_t size;
    FILE *probe = fopen(path, "rb");
    uint8_t *data = probe ? test_read_file(path, &size) : NULL;
    if (probe) fclose(probe);
    if (!data) {
        TEST_LEFT_OUT("facing check (%s not found)", path);
        return;
    }
    ferry_odol_model *m = NULL;
    ferry_error err;
    ferry_scene *s = NULL;
    CHECK(ferry_odol_read(data, size, NULL, &m, &err) == FERRY_OK);
    uint32_t mem = m ? m->info.special_lods[FERRY_ODOL_SPECIAL_LOD_MEMORY] : 0xFF;
    CHECK(m && mem < m->lod_count);
    ferry_odol_scene_options opt = {0};
    opt.lods = &mem;
    opt.lod_count = 1;
    if (m && mem < m->lod_count && ferry_odol_to_scene(m, &opt, &s, &err) == FERRY_OK) {
        const ferry_scene_node *node = &s->nodes[1];
        const ferry_scene_primitive *pts = FY_REF(node, mesh) >= 0 ? &s->meshes[FY_REF(node, mesh)].primitives[0] : NULL;
        CHECK(pts && pts->mode == FERRY_PRIMITIVE_POINTS);
        json_t *x = extras(test_extras_text(node->extras));
        for (size_t i = 0; pts && i < count; i++) {
            json_t *sel, *found = NULL;
            size_t k;
            json_array_foreach(json_object_get(x, "selections"), k, sel)
                if (strcmp(json_string_value(json_object_get(sel, "name")), marks[i].selection) == 0) found = sel;
            CHECK_MSG(found != NULL, "%s: no selection %s", rel, marks[i].selection);
            json_t *v;
            json_array_foreach(json_object_get(found, "vertices"), k, v) {
                size_t at = (size_t)json_integer_value(v);
                double c = at < pts->vertex_count ? pts->positions[3 * at + marks[i].axis] : NAN;
                CHECK_MSG(c > marks[i].above && c < marks[i].below, "%s: %s at %c = %g", rel, marks[i].selection,
                          marks[i].axis ? 'z' : 'x', c);
            }
        }
        json_decref(x);
    } else {
        CHECK_MSG(false, "%s does not convert", rel);
    }
    ferry_scene_free(s);
    ferry_odol_free(m);
    free(data);
}

static void test_facing(void)
{
    /* The gyrocopter: the front tyre and the front propeller's axis ahead,
     * the right tyre on the right (-X), the left one on the left. */
    static const landmark gyro[] = {
        {"osa_fronttyre", 2, 1.0, 1.5}, {"osa vrtule 0", 2, 2.5, 3.1}, {"osa_righttyre", 0, -2.0, -1.0},
        {"osa_lefttyre", 0, 0.8, 2.0},  {"vyfuk konec", 2, -1.0, 0.0},
    };
    check_landmarks("v40/CSJ_GyroP.p3d", gyro, sizeof gyro / sizeof gyro[0]);
    /* The bus (v48): headlights ("p svetlo", right; "l svetlo", left) at
     * the front, shining forward ("konec ... svetla" 1 m further ahead),
     * the driver's door at the front, the exhaust ("vyfuk") at the back. */
    static const landmark bus[] = {
        {"p svetlo", 2, 4.9, 5.1},   {"p svetlo", 0, -1.0, -0.5}, {"l svetlo", 0, 0.5, 1.2},
        {"konec p svetla", 2, 5.9, 6.1}, {"pos driver", 2, 3.5, 4.5}, {"vyfuk konec", 2, -6.1, -5.5},
    };
    check_landmarks("v48/Ikarus.p3d", bus, sizeof bus / sizeof bus[0]);
}

/* ---- the corpus ---- */

static void test_corpus(void)
{
    const char *dir = FERRY_SHARED_DIR "/corpus/odol/v40";
    if (!test_dir_exists(dir)) {
        TEST_LEFT_OUT("corpus part (%s is absent: the shared corpus is not checked out)", dir);
        return;
    }
    char **paths;
    size_t n = test_list_files(dir, ".p3d", &paths);
    CHECK(n >= 6);
    winding visual = {0};
    size_t lods = 0, proxies = 0, files = 0, proxy_triangles = 0;
    for (size_t i = 0; i < n; i++) {
        size_t size;
        uint8_t *data = test_read_file(paths[i], &size);
        ferry_odol_model *m = NULL;
        ferry_error err;
        if (!data || ferry_odol_read(data, size, NULL, &m, &err) != FERRY_OK) {
            CHECK_MSG(false, "%s does not read", paths[i]);
            free(data);
            continue;
        }
        ferry_scene *s = NULL;
        ferry_odol_scene_report rep;
        ferry_odol_scene_options opt = {0};
        opt.all = true;
        opt.report = &rep;
        if (ferry_odol_to_scene(m, &opt, &s, &err) != FERRY_OK) {
            CHECK_MSG(false, "%s: %s at %s", paths[i], err.message, err.path);
            ferry_odol_free(m);
            free(data);
            continue;
        }
        files++;
        /* LOD nodes are the root's children, in the model's order. */
        int32_t *kids = malloc((s->node_count + 1) * sizeof *kids);
        size_t nk = children(s, 0, kids, s->node_count);
        CHECK_EQ_U(nk, m->lod_count);
        for (uint32_t l = 0; l < m->lod_count && l < nk; l++) {
            const ferry_odol_lod *lod = &m->lods[l];
            const ferry_scene_node *node = &s->nodes[kids[l]];
            char name[64];
            ferry_odol_resolution_name(lod->resolution, name, sizeof name);
            CHECK_MSG(strncmp(node->name, name, strlen(name)) == 0, "%s: LOD %u is named %s", paths[i], l, node->name);
            size_t want = 0, all = 0;
            for (uint32_t f = 0; f < lod->face_count; f++) {
                size_t t = lod->faces[f].count == 4 ? 2 : 1;
                all += t;
                if (!proxy_face(lod, f)) want += t;
            }
            /* One marker triangle per proxy in every real file, not drawn. */
            CHECK_EQ_U(mesh_triangles(s, FY_REF(node, mesh)), want);
            CHECK_EQ_U(all - want, lod->proxy_count);
            proxy_triangles += all - want;
            if (want) CHECK_MSG(same_triangles(s, FY_REF(node, mesh), lod), "%s: LOD %u positions", paths[i], l);
            if (lod->resolution < 1000.0f) {
                winding w = {0};
                measure_winding(s, FY_REF(node, mesh), &w);
                visual.agree += w.agree, visual.disagree += w.disagree, visual.volume += w.volume;
                /* Closed visual LODs enclose positive volume: faces turn
                 * counter-clockwise seen from outside. */
                CHECK_MSG(w.volume >= 0, "%s: LOD %u encloses %g", paths[i], l, w.volume);
            }
            /* Proxies: nodes under the LOD named after the proxy, at its
             * position with z negated. A proxy on a bone hangs from the
             * bone's joint (odol_scene_anim.c), whose rest pose is a pure
             * translation: the position is the sum of the translations
             * up to the LOD node (rounding: 1e-6). */
            int32_t *pk = malloc((s->node_count + 1) * sizeof *pk);
            size_t np = 0;
            for (size_t k = 0; k < s->node_count; k++) {
                const char *x = test_extras_text(s->nodes[k].extras);
                if (!x || !strstr(x, "\"proxy\":")) continue;
                int32_t a = FY_REF(&s->nodes[k], parent);
                while (a >= 0 && a != kids[l]) a = FY_REF(&s->nodes[a], parent);
                if (a == kids[l]) pk[np++] = (int32_t)k;
            }
            CHECK_EQ_U(np, lod->proxy_count);
            for (uint32_t p = 0; p < lod->proxy_count && p < np; p++) {
                const ferry_odol_proxy *px = &lod->proxies[p];
                const ferry_scene_node *pn = &s->nodes[pk[p]];
                CHECK(strcmp(pn->name, px->model) == 0);
                double at[3] = {0, 0, 0};
                for (int32_t a = pk[p]; a >= 0 && a != kids[l]; a = FY_REF(&s->nodes[a], parent))
                    for (int c = 0; c < 3; c++) at[c] += s->nodes[a].translation[c];
                CHECK_NEAR(at[0], px->transform[9], 1e-6);
                CHECK_NEAR(at[1], px->transform[10], 1e-6);
                CHECK_NEAR(at[2], -px->transform[11], 1e-6);
                /* The rotation carries the proxy's up axis (second triplet)
                 * onto the same direction with z negated. */
                const float *q = pn->rotation;
                double y[3] = {2 * (q[0] * q[1] - q[2] * q[3]), 1 - 2 * (q[0] * q[0] + q[2] * q[2]),
                               2 * (q[1] * q[2] + q[0] * q[3])};
                CHECK_NEAR(y[0] * pn->scale[1], px->transform[3], 1e-3);
                CHECK_NEAR(y[1] * pn->scale[1], px->transform[4], 1e-3);
                CHECK_NEAR(y[2] * pn->scale[1], -px->transform[5], 1e-3);
                proxies++;
            }
            free(pk);
            lods++;
        }
        ferry_buffer glb = {0};
        CHECK(ferry_gltf_write_glb(s, &glb, &err) == FERRY_OK);
        ferry_buffer_free(&glb);
        free(kids);
        ferry_scene_free(s);
        ferry_odol_free(m);
        free(data);
    }
    size_t total = visual.agree + visual.disagree;
    double fraction = total ? (double)visual.agree / (double)total : 0;
    printf("corpus: %zu files, %zu LODs, %zu proxies (%zu marker triangles left out); visual LODs: %zu of %zu "
           "triangles (%.2f%%) agree with their vertex normals, enclosed volume %.4f\n",
           files, lods, proxies, proxy_triangles, visual.agree, total, 100 * fraction, visual.volume);
    CHECK_EQ_U(proxy_triangles, 55);
    CHECK(total > 20000);
    CHECK(fraction > 0.99);
    CHECK(visual.volume > 0);
    test_free_paths(paths, n);
}

/* Procedural colour texts as the roof's second texture: the accepted
 * spellings give the colour, every malformed one (cut short, missing or
 * empty parts, values out of range, text after the end) is ignored and
 * named, and a file name is not procedural at all. */
static void test_procedural_texts(void)
{
    static const struct {
        const char *text;
        float rgba[4]; /* expected factor; alpha < 0: ignored (white, reported) */
    } cases[] = {
        {"#(rgb,8,8,3)color(0,0,1,0.5)", {0, 0, 1, 1}},
        {"#(ARGB,8,8,3) Color( 1 , 0 , 0 , 1 , ca )", {1, 0, 0, 1}},
        {"#(argb,8,8,3)color(1,0.5", {0, 0, 0, -1}},
        {"#(argb,8,8)color(1,1,1,1)", {0, 0, 0, -1}},
        {"#(argb,0,8,3)color(1,1,1,1)", {0, 0, 0, -1}},
        {"#(argb,8.5,8,3)color(1,1,1,1)", {0, 0, 0, -1}},
        {"#(xrgb,8,8,3)color(1,1,1,1)", {0, 0, 0, -1}},
        {"#(argb,8,8,3)fresnel(1,1)", {0, 0, 0, -1}},
        {"#(argb,8,8,3)color(1,1,nan,1)", {0, 0, 0, -1}},
        {"#(argb,8,8,3)color(-0.5,1,1,1)", {0, 0, 0, -1}},
        {"#(argb,8,8,3)color(1,1,1,1,)", {0, 0, 0, -1}},
        {"#(argb,8,8,3)color(1,1,1,1)x", {0, 0, 0, -1}},
        {"#(", {0, 0, 0, -1}},
        {"data\\roof_co.paa", {1, 1, 1, 1}},
    };
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        ferry_odol_model *m = build_roof();
        const char *textures[2] = {m->lods[1].textures[0], cases[c].text};
        m->lods[1].textures = textures;
        ferry_odol_scene_report rep;
        ferry_odol_scene_options opt = {0}; /* the game's view: LOD 0.500 */
        opt.report = &rep;
        ferry_scene *s = NULL;
        ferry_error err;
        CHECK_MSG(ferry_odol_to_scene(m, &opt, &s, &err) == FERRY_OK, "%s: %s", cases[c].text, err.message);
        if (s && s->mesh_count == 1 && s->meshes[0].primitive_count == 2) {
            int32_t mat = FY_REF(&s->meshes[0].primitives[1], material);
            CHECK(mat >= 0);
            const float *f = mat >= 0 ? s->materials[mat].base_color_factor : NULL;
            bool procedural = cases[c].text[0] == '#';
            if (cases[c].rgba[3] >= 0) {
                CHECK_EQ_U(rep.colors, procedural ? 2 : 1);
                CHECK_EQ_U(rep.procedural_ignored, 0);
                for (int k = 0; f && k < 4; k++) CHECK_MSG(f[k] == cases[c].rgba[k], "%s: component %d", cases[c].text, k);
            } else {
                CHECK_EQ_U(rep.colors, 1);
                CHECK_EQ_U(rep.procedural_ignored, 1);
                CHECK_MSG(rep.procedural_problem && strstr(rep.procedural_problem, cases[c].text), "%s: named",
                          cases[c].text);
                for (int k = 0; f && k < 4; k++) CHECK(f[k] == 1.0f);
            }
        } else {
            CHECK_MSG(false, "%s: the roof's LOD with two primitives", cases[c].text);
        }
        ferry_scene_free(s);
        free_roof(m);
    }
}

int main(void)
{
    test_built();
    test_roof();
    test_procedural_texts();
    test_facing();
    test_corpus();
    TEST_END();
}
