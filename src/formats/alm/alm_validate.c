/* Rules over a typed ALM mesh -> diagnostics, each with a stable rule id,
 * the record's path and (for a read mesh) its byte offset. The reader only
 * checks structure; everything about indices and the collapse sequence is
 * here, so that a file with bad references can still be inspected. */
#include "alm_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct checker {
    const ferry_alm_mesh *m;
    ferry_diagnostics *d;
    size_t cs; /* bytes per vector component */
} checker;

static void report(checker *k, ferry_severity sev, uint64_t offset, const char *rule, const char *path,
                   const char *fmt, ...) FY_PRINTF(6, 7);

static void report(checker *k, ferry_severity sev, uint64_t offset, const char *rule, const char *path,
                   const char *fmt, ...)
{
    char message[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(message, sizeof message, fmt, ap);
    va_end(ap);
    fy_diag_add(k->d, sev, offset, path, rule, "%s", message);
}

static uint64_t at(const checker *k, const char *section, uint64_t index, uint64_t delta)
{
    uint64_t o = fy_alm_offset(k->m, section, index);
    return o == FERRY_NO_OFFSET ? o : o + delta;
}

/* Components of a vector whose first byte is at `offset` (or none). */
static void check_vector(checker *k, const ferry_alm_vector *v, uint64_t offset, const char *where)
{
    for (uint32_t i = 0; i < v->count; i++) {
        if (v->components[i].bone < k->m->bone_count) continue;
        char path[96];
        snprintf(path, sizeof path, "%s/components[%u]", where, (unsigned)i);
        report(k, FERRY_SEVERITY_ERROR, offset == FERRY_NO_OFFSET ? offset : offset + 4 + i * k->cs, "vector-bone",
               path, "component bone %u is not below the bone count %u", (unsigned)v->components[i].bone,
               (unsigned)k->m->bone_count);
    }
}

static uint64_t vector_size(const checker *k, const ferry_alm_vector *v) { return 4 + (uint64_t)v->count * k->cs; }

static bool power_of_two(uint32_t x) { return x && !(x & (x - 1)); }

static void check_bones(checker *k)
{
    const ferry_alm_mesh *m = k->m;
    char path[96];
    for (uint32_t i = 0; i < m->bone_count; i++) {
        int32_t p = m->bones[i].parent;
        if (p == -1) continue;
        snprintf(path, sizeof path, "bones[%u]", (unsigned)i);
        if (p < -1 || (uint32_t)p >= m->bone_count)
            report(k, FERRY_SEVERITY_ERROR, at(k, "bones", i, 0), "bone-parent", path,
                   "parent %d is neither -1 nor a bone index below %u", (int)p, (unsigned)m->bone_count);
        else if ((uint32_t)p >= i)
            report(k, FERRY_SEVERITY_ERROR, at(k, "bones", i, 0), "bone-parent-order", path,
                   "parent %d does not precede bone %u (parents must come before their children)", (int)p,
                   (unsigned)i);
    }
    if (m->frame_count && m->bone_count && !m->frames)
        report(k, FERRY_SEVERITY_ERROR, FERRY_NO_OFFSET, "frames", "frames", "%u frames announced but none given",
               (unsigned)m->frame_count);
    if (m->version >= FY_ALM_V_BONE_STATS && m->frame_count && !(m->frame_rate > 0 && isfinite(m->frame_rate)))
        report(k, FERRY_SEVERITY_WARNING, FERRY_NO_OFFSET, "frame-rate", "header",
               "the file has %u frames but its frame rate %g is not a positive number", (unsigned)m->frame_count,
               m->frame_rate);
}

static void check_vertices(checker *k)
{
    const ferry_alm_mesh *m = k->m;
    char path[96];
    for (uint32_t i = 0; i < m->position_count; i++) {
        snprintf(path, sizeof path, "positions[%u]", (unsigned)i);
        check_vector(k, &m->positions[i], at(k, "positions", i, 0), path);
    }
    for (uint32_t i = 0; i < m->vertex_count; i++) {
        const ferry_alm_vertex *v = &m->vertices[i];
        if (v->position >= m->position_count) {
            snprintf(path, sizeof path, "vertices[%u]", (unsigned)i);
            report(k, FERRY_SEVERITY_ERROR, at(k, "vertices", i, 0), "vertex-position", path,
                   "position %u is not below the position count %u", (unsigned)v->position,
                   (unsigned)m->position_count);
        }
        if (m->version < FY_ALM_V_TANGENTS) continue;
        uint64_t off = 4;
        for (int t = 0; t < 2; t++) {
            snprintf(path, sizeof path, "vertices[%u]/tangents[%d]", (unsigned)i, t);
            check_vector(k, &v->tangents[t], at(k, "vertices", i, off), path);
            off += vector_size(k, &v->tangents[t]);
        }
    }
}

static void check_materials(checker *k)
{
    const ferry_alm_mesh *m = k->m;
    char path[96];
    for (uint32_t i = 0; i < m->texture_count; i++) {
        const ferry_alm_texture *t = &m->textures[i];
        snprintf(path, sizeof path, "textures[%u]", (unsigned)i);
        if (t->channels != 3 && t->channels != 4)
            report(k, FERRY_SEVERITY_ERROR, at(k, "textures", i, 8), "texture-channels", path,
                   "%u channels; a texture has 3 (RGB) or 4 (RGBA)", (unsigned)t->channels);
        if (!power_of_two(t->width) || !power_of_two(t->height))
            report(k, FERRY_SEVERITY_WARNING, at(k, "textures", i, 0), "texture-size", path,
                   "%ux%u: width and height should be powers of 2", (unsigned)t->width, (unsigned)t->height);
    }
    for (uint32_t i = 0; i < m->tangent_map_count && m->version >= FY_ALM_V_TANGENT_MAPS; i++) {
        const ferry_alm_tangent_map *t = &m->tangent_maps[i];
        snprintf(path, sizeof path, "tangent_maps[%u]", (unsigned)i);
        if (!power_of_two(t->width) || !power_of_two(t->height))
            report(k, FERRY_SEVERITY_WARNING, at(k, "tangent_maps", i, 0), "tangent-map-size", path,
                   "%ux%u: width and height should be powers of 2", (unsigned)t->width, (unsigned)t->height);
        uint64_t n = (uint64_t)t->width * t->height, off = 8;
        for (uint64_t e = 0; e < n; e++) {
            off += 4;
            for (int s = 0; s < 2; s++) {
                snprintf(path, sizeof path, "tangent_maps[%u]/entries[%llu]/tangents[%d]", (unsigned)i,
                         (unsigned long long)e, s);
                check_vector(k, &t->entries[e].tangents[s], at(k, "tangent_maps", i, off), path);
                off += vector_size(k, &t->entries[e].tangents[s]);
            }
        }
    }
    for (uint32_t i = 0; i < m->material_count; i++) {
        const ferry_alm_material *mat = &m->materials[i];
        snprintf(path, sizeof path, "materials[%u]", (unsigned)i);
        if (mat->texture_id < -1 || (mat->texture_id >= 0 && (uint32_t)mat->texture_id >= m->texture_count))
            report(k, FERRY_SEVERITY_ERROR, at(k, "materials", i, 0), "material-texture", path,
                   "texture_id %d is neither -1 nor below the texture count %u", (int)mat->texture_id,
                   (unsigned)m->texture_count);
        if (m->version >= FY_ALM_V_TANGENT_MAPS) {
            if (mat->tangent_id < -1 || (mat->tangent_id >= 0 && (uint32_t)mat->tangent_id >= m->tangent_map_count))
                report(k, FERRY_SEVERITY_ERROR, at(k, "materials", i, 4), "material-tangent-map", path,
                       "tangent_id %d is neither -1 nor below the tangent map count %u", (int)mat->tangent_id,
                       (unsigned)m->tangent_map_count);
            continue;
        }
        for (uint32_t w = 0; w < mat->weight_count; w++) {
            if (mat->bones[w] >= m->bone_count)
                report(k, FERRY_SEVERITY_ERROR, at(k, "materials", i, 8 + 4 * (uint64_t)w), "material-bone", path,
                       "weight %u names bone %u, not below the bone count %u", (unsigned)w, (unsigned)mat->bones[w],
                       (unsigned)m->bone_count);
            if (mat->tangent_ids[w] >= m->texture_count)
                report(k, FERRY_SEVERITY_ERROR,
                       at(k, "materials", i, 8 + 4 * ((uint64_t)mat->weight_count + w)), "material-tangent-texture",
                       path, "weight %u names tangent texture %u, not below the texture count %u", (unsigned)w,
                       (unsigned)mat->tangent_ids[w], (unsigned)m->texture_count);
        }
    }
}

static void check_triangles(checker *k, uint8_t *alive)
{
    const ferry_alm_mesh *m = k->m;
    char path[96];
    for (uint32_t i = 0; i < m->triangle_count; i++) {
        const ferry_alm_triangle *t = &m->triangles[i];
        for (int c = 0; c < 3; c++) {
            uint32_t v = t->vertices[c];
            if (v >= m->vertex_count) {
                snprintf(path, sizeof path, "triangles[%u]", (unsigned)i);
                report(k, FERRY_SEVERITY_ERROR, at(k, "triangles", i, 4 * (uint64_t)c), "triangle-vertex", path,
                       "corner %d is vertex %u, not below the vertex count %u", c, (unsigned)v,
                       (unsigned)m->vertex_count);
            } else if (m->vertices[v].position < m->position_count) {
                alive[m->vertices[v].position] = 1;
            }
        }
        if (t->material >= m->material_count) {
            snprintf(path, sizeof path, "triangles[%u]", (unsigned)i);
            report(k, FERRY_SEVERITY_ERROR, at(k, "triangles", i, 12), "triangle-material", path,
                   "material %u is not below the material count %u", (unsigned)t->material,
                   (unsigned)m->material_count);
        }
    }
}

static bool vertex_ok(checker *k, uint32_t v) { return v < k->m->vertex_count && k->m->vertices[v].position < k->m->position_count; }

static void check_edge_collapse(checker *k, uint32_t i, const ferry_alm_collapse *c, uint8_t *alive, const char *path)
{
    const ferry_alm_mesh *m = k->m;
    uint64_t off = at(k, "collapses", i, 0);
    bool in_range = true;
    const uint32_t pos[2] = {c->p1, c->p2}, vert[2] = {c->vl, c->vr};
    for (int e = 0; e < 2; e++) {
        if (pos[e] >= m->position_count) {
            in_range = false;
            report(k, FERRY_SEVERITY_ERROR, off == FERRY_NO_OFFSET ? off : off + 4 * (uint64_t)e, "collapse-index",
                   path, "p%d %u is not below the position count %u", e + 1, (unsigned)pos[e],
                   (unsigned)m->position_count);
        }
        if (!vertex_ok(k, vert[e])) {
            in_range = false;
            report(k, FERRY_SEVERITY_ERROR, off == FERRY_NO_OFFSET ? off : off + 8 + 4 * (uint64_t)e, "collapse-index",
                   path, "%s %u is not a vertex with a valid position (vertex count %u)", e ? "vr" : "vl",
                   (unsigned)vert[e], (unsigned)m->vertex_count);
        }
    }
    if (!in_range) return;
    uint32_t target = m->vertices[c->vl].position;
    if (target != m->vertices[c->vr].position)
        report(k, FERRY_SEVERITY_ERROR, off, "collapse-vertex-position", path,
               "vl %u is on position %u but vr %u on position %u: both must be on the new position", (unsigned)c->vl,
               (unsigned)target, (unsigned)c->vr, (unsigned)m->vertices[c->vr].position);
    if (c->p1 == c->p2) {
        report(k, FERRY_SEVERITY_ERROR, off, "collapse-endpoints", path, "p1 and p2 are both position %u",
               (unsigned)c->p1);
        return;
    }
    for (int e = 0; e < 2; e++)
        if (!alive[pos[e]])
            report(k, FERRY_SEVERITY_ERROR, off == FERRY_NO_OFFSET ? off : off + 4 * (uint64_t)e, "collapse-dead-endpoint",
                   path, "p%d %u is not in the mesh at this point (unused at full resolution or removed by an "
                   "earlier collapse)", e + 1, (unsigned)pos[e]);
    if (target != c->p1 && target != c->p2 && alive[target])
        report(k, FERRY_SEVERITY_WARNING, off, "collapse-target", path,
               "the new position %u is already in the mesh: p1 and p2 merge into a third position", (unsigned)target);
    alive[c->p1] = alive[c->p2] = 0;
    alive[target] = 1;
}

static void check_influence_collapse(checker *k, uint32_t i, const ferry_alm_collapse *c, const uint8_t *alive,
                                     const char *path)
{
    const ferry_alm_mesh *m = k->m;
    uint64_t off = at(k, "collapses", i, 0);
    if (m->version < FY_ALM_V_INFLUENCE)
        report(k, FERRY_SEVERITY_ERROR, off, "collapse-kind", path,
               "an influence collapse in a version %u mesh (they exist from version 9)", (unsigned)m->version);
    uint32_t position = UINT32_MAX;
    for (uint32_t j = 0; j < c->pair_count; j++) {
        uint64_t poff = off == FERRY_NO_OFFSET ? off : off + 8 + 8 * (uint64_t)j;
        uint32_t old = c->pairs[2 * j], young = c->pairs[2 * j + 1];
        if (!vertex_ok(k, old) || !vertex_ok(k, young)) {
            report(k, FERRY_SEVERITY_ERROR, poff, "collapse-index", path,
                   "pair %u (%u -> %u) names a vertex that is not below the vertex count %u or has no valid position",
                   (unsigned)j, (unsigned)old, (unsigned)young, (unsigned)m->vertex_count);
            continue;
        }
        uint32_t a = m->vertices[old].position, b = m->vertices[young].position;
        if (position == UINT32_MAX) position = a;
        if (a != position || b != position)
            report(k, FERRY_SEVERITY_ERROR, poff, "influence-position", path,
                   "pair %u (%u -> %u) is on positions %u and %u; every pair must be on position %u", (unsigned)j,
                   (unsigned)old, (unsigned)young, (unsigned)a, (unsigned)b, (unsigned)position);
    }
    if (position != UINT32_MAX && !alive[position])
        report(k, FERRY_SEVERITY_WARNING, off, "influence-dead-position", path,
               "position %u is not in the mesh at this point", (unsigned)position);
}

ferry_result ferry_alm_validate(const ferry_alm_mesh *mesh, ferry_diagnostics *diags)
{
    if (!mesh || !diags) return FERRY_ERR_ARGUMENT;
    size_t errors_before = diags->error_count;
    checker k = {mesh, diags, 4 + 4 * (size_t)fy_alm_fs(mesh->version)};
    if (mesh->version < FERRY_ALM_VERSION_MIN || mesh->version > FERRY_ALM_VERSION_MAX)
        report(&k, FERRY_SEVERITY_ERROR, FERRY_NO_OFFSET, "version", "header", "version %u is not one of %d..%d",
               (unsigned)mesh->version, FERRY_ALM_VERSION_MIN, FERRY_ALM_VERSION_MAX);
    check_bones(&k);
    check_vertices(&k);
    check_materials(&k);
    uint8_t *alive = calloc(mesh->position_count ? mesh->position_count : 1, 1);
    if (!alive) return FERRY_ERR_NOMEM;
    check_triangles(&k, alive);
    char path[96];
    for (uint32_t i = 0; i < mesh->collapse_count; i++) {
        const ferry_alm_collapse *c = &mesh->collapses[i];
        snprintf(path, sizeof path, "collapses[%u]", (unsigned)i);
        if (c->kind == FERRY_ALM_INFLUENCE_COLLAPSE)
            check_influence_collapse(&k, i, c, alive, path);
        else
            check_edge_collapse(&k, i, c, alive, path);
    }
    free(alive);
    if (mesh->trailing_size)
        report(&k, FERRY_SEVERITY_WARNING, mesh->offsets ? mesh->offsets->end - mesh->trailing_size : FERRY_NO_OFFSET,
               "trailing-bytes", "trailing bytes", "%zu bytes follow the last frame (kept as they are)",
               mesh->trailing_size);
    return diags->error_count > errors_before ? FERRY_ERR_MALFORMED : FERRY_OK;
}
