/* Building a sub-mesh's collision tree (0x1200): a bounding-volume
 * hierarchy by binned surface-area heuristic over triangle centroids,
 * O(n log n), stored as the format wants it: node boxes as bytes relative
 * to the parent's decoded box (rounded outward, so every decoded box holds
 * its triangles), children of node x at link and link + 1 after it, leaves
 * over ranges of one permuted triangle list. docs/formats/alo-model.md,
 * "Building collision trees". */
#include <ferry/alo.h>

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../../core/core.h"

#define BINS 16
#define LEAF_MAX 4
#define MAX_DEPTH 64

typedef struct cbox {
    double min[3], max[3];
} cbox;

typedef struct builder {
    const ferry_alo_submesh *sm;
    cbox *tri_box;
    double *centroid; /* 3 per triangle */
    uint16_t *order;  /* the permuted triangle list */
    ferry_alo_collision_node *nodes;
    size_t node_count, node_cap;
    bool too_many;
} builder;

static void box_empty(cbox *b)
{
    for (int a = 0; a < 3; a++) b->min[a] = DBL_MAX, b->max[a] = -DBL_MAX;
}

static inline void box_grow(cbox *b, const cbox *o)
{
    /* (conditional moves rather than branches: the comparisons are
     * unpredictable and this is the builder's innermost operation) */
    for (int a = 0; a < 3; a++) {
        b->min[a] = o->min[a] < b->min[a] ? o->min[a] : b->min[a];
        b->max[a] = o->max[a] > b->max[a] ? o->max[a] : b->max[a];
    }
}

static inline double box_area(const cbox *b)
{
    double e[3];
    for (int a = 0; a < 3; a++) e[a] = b->max[a] > b->min[a] ? b->max[a] - b->min[a] : 0;
    return e[0] * e[1] + e[1] * e[2] + e[2] * e[0];
}

/* The bytes of `child` inside the decoded box `parent`, rounded outward;
 * `decoded` gets the box the bytes decode to (what the children of this
 * node are quantized against, as readers decode them). */
static void quantize(const cbox *parent, const cbox *child, ferry_alo_collision_node *node, cbox *decoded)
{
    for (int a = 0; a < 3; a++) {
        double ext = parent->max[a] - parent->min[a];
        int lo = 0, hi = 255;
        if (ext > 0) {
            lo = (int)floor((child->min[a] - parent->min[a]) / ext * 255.0);
            hi = (int)ceil((child->max[a] - parent->min[a]) / ext * 255.0);
            if (lo < 0) lo = 0;
            if (hi > 255) hi = 255;
            if (lo > 255) lo = 255;
            if (hi < lo) hi = lo;
            /* Decoding rounds too: step outward until the decoded box holds the child. */
            while (lo > 0 && parent->min[a] + lo / 255.0 * ext > child->min[a]) lo--;
            while (hi < 255 && parent->min[a] + hi / 255.0 * ext < child->max[a]) hi++;
        }
        node->min[a] = (uint8_t)lo;
        node->max[a] = (uint8_t)hi;
        decoded->min[a] = parent->min[a] + lo / 255.0 * ext;
        decoded->max[a] = parent->min[a] + hi / 255.0 * ext;
    }
}

static bool new_nodes(builder *b, size_t n, size_t *first)
{
    if (b->node_count + n > 65536) { /* links are 16-bit */
        b->too_many = true;
        return false;
    }
    *first = b->node_count;
    b->node_count += n;
    return true;
}

/* Builds node `at` over order[begin, end) inside the decoded parent box. */
static void build(builder *b, size_t at, size_t begin, size_t end, const cbox *parent, int depth)
{
    ferry_alo_collision_node *node = &b->nodes[at];
    cbox bounds, cbounds, decoded;
    box_empty(&bounds);
    box_empty(&cbounds);
    for (size_t i = begin; i < end; i++) {
        box_grow(&bounds, &b->tri_box[b->order[i]]);
        const double *c = &b->centroid[3 * b->order[i]];
        cbox cb = {{c[0], c[1], c[2]}, {c[0], c[1], c[2]}};
        box_grow(&cbounds, &cb);
    }
    quantize(parent, &bounds, node, &decoded);
    size_t n = end - begin;
    if (n <= LEAF_MAX || depth >= MAX_DEPTH) {
        node->primitive_count = (uint16_t)n;
        node->link = (uint16_t)begin;
        return;
    }
    /* Binned SAH: the cheapest split over every axis' bins, all three
     * axes binned in one pass over the triangles. */
    int best_axis = -1, best_split = 0;
    const double bounds_area = box_area(&bounds);
    double best_cost = (double)n * bounds_area; /* cost of a leaf */
    size_t count[3][BINS];
    cbox bin[3][BINS];
    double lo[3], scale[3];
    for (int a = 0; a < 3; a++) {
        double ext = cbounds.max[a] - cbounds.min[a];
        lo[a] = cbounds.min[a];
        scale[a] = ext > 0 ? BINS / ext : 0;
        for (int k = 0; k < BINS; k++) {
            count[a][k] = 0;
            box_empty(&bin[a][k]);
        }
    }
    for (size_t i = begin; i < end; i++) {
        const double *c = &b->centroid[3 * b->order[i]];
        const cbox *tb = &b->tri_box[b->order[i]];
        for (int a = 0; a < 3; a++) {
            int k = (int)((c[a] - lo[a]) * scale[a]);
            if (k >= BINS) k = BINS - 1;
            if (k < 0) k = 0;
            count[a][k]++;
            box_grow(&bin[a][k], tb);
        }
    }
    for (int a = 0; a < 3; a++) {
        if (!(scale[a] > 0)) continue;
        double right_area[BINS];
        size_t right_count[BINS];
        cbox acc;
        box_empty(&acc);
        size_t cnt = 0;
        /* (an empty bin leaves the sweep's box, so its area, as it was) */
        double area = 0;
        for (int k = BINS - 1; k > 0; k--) {
            if (count[a][k]) {
                box_grow(&acc, &bin[a][k]);
                cnt += count[a][k];
                area = box_area(&acc);
            }
            right_area[k] = area;
            right_count[k] = cnt;
        }
        box_empty(&acc);
        cnt = 0;
        for (int k = 0; k < BINS - 1; k++) {
            if (!count[a][k]) {
                if (cnt == 0) continue;
            } else {
                box_grow(&acc, &bin[a][k]);
                cnt += count[a][k];
            }
            if (cnt == 0 || right_count[k + 1] == 0) continue;
            double cost = (double)cnt * box_area(&acc) + (double)right_count[k + 1] * right_area[k + 1];
            /* traversal cost: one more box per side */
            cost += 0.125 * bounds_area;
            if (cost < best_cost) best_cost = cost, best_axis = a, best_split = k;
        }
    }
    size_t mid = begin;
    if (best_axis >= 0) {
        size_t i = begin, j = end;
        while (i < j) {
            int k = (int)((b->centroid[3 * b->order[i] + best_axis] - lo[best_axis]) * scale[best_axis]);
            if (k >= BINS) k = BINS - 1;
            if (k <= best_split) {
                i++;
            } else {
                uint16_t t = b->order[i];
                b->order[i] = b->order[--j];
                b->order[j] = t;
            }
        }
        mid = i;
    }
    if (best_axis < 0 || mid == begin || mid == end) {
        /* No split pays (or every centroid coincides): a leaf if it fits
         * the 16-bit count, else halves in list order. */
        if (n <= 0xFFFF && best_axis < 0 && n <= 64) {
            node->primitive_count = (uint16_t)n;
            node->link = (uint16_t)begin;
            return;
        }
        mid = begin + n / 2;
    }
    size_t first;
    if (!new_nodes(b, 2, &first)) return;
    node = &b->nodes[at]; /* (nodes do not move: allocated once) */
    node->primitive_count = 0;
    node->link = (uint16_t)first;
    build(b, first, begin, mid, &decoded, depth + 1);
    build(b, first + 1, mid, end, &decoded, depth + 1);
}

ferry_result ferry_alo_collision_build(const ferry_alo_submesh *submesh, ferry_arena *arena, ferry_alo_collision_tree **out,
                                       ferry_error *err)
{
    ferry_error local;
    if (!err) err = &local;
    fy_error_clear(err);
    if (!out || !submesh || !arena) {
        fy_error_set(err, FERRY_ERR_ARGUMENT, FERRY_NO_OFFSET, "", "no sub-mesh, arena or output given");
        return err->code;
    }
    *out = NULL;
    size_t tris = submesh->triangle_count;
    if (tris == 0 || tris > 0xFFFF || !submesh->indices || !submesh->vertices) {
        fy_error_set(err, FERRY_ERR_ARGUMENT, FERRY_NO_OFFSET, "0x1200",
                     "%zu triangles: a collision tree holds 1 to 65,535 (16-bit triangle numbers)", tris);
        return err->code;
    }
    builder b;
    memset(&b, 0, sizeof b);
    b.sm = submesh;
    b.tri_box = malloc(tris * sizeof *b.tri_box);
    b.centroid = malloc(3 * tris * sizeof *b.centroid);
    b.order = ferry_arena_alloc(arena, tris * sizeof *b.order);
    /* A binary tree over leaves of at least one triangle: at most 2 n - 1 nodes. */
    b.node_cap = 2 * tris;
    b.nodes = ferry_arena_alloc(arena, b.node_cap * sizeof *b.nodes);
    ferry_alo_collision_tree *tree = ferry_arena_alloc(arena, sizeof *tree);
    if (!b.tri_box || !b.centroid || !b.order || !b.nodes || !tree) {
        free(b.tri_box);
        free(b.centroid);
        fy_error_set(err, FERRY_ERR_NOMEM, FERRY_NO_OFFSET, "0x1200", "out of memory building a collision tree");
        return err->code;
    }
    cbox all;
    box_empty(&all);
    for (size_t t = 0; t < tris; t++) {
        cbox *tb = &b.tri_box[t];
        box_empty(tb);
        for (int j = 0; j < 3; j++) {
            uint16_t v = submesh->indices[3 * t + j];
            if (v >= submesh->vertex_count) {
                free(b.tri_box);
                free(b.centroid);
                fy_error_set(err, FERRY_ERR_MALFORMED, FERRY_NO_OFFSET, "0x10004", "triangle %zu: index %u past the %zu vertices", t,
                             v, submesh->vertex_count);
                return err->code;
            }
            const float *p = submesh->vertices[v].position;
            cbox pb = {{p[0], p[1], p[2]}, {p[0], p[1], p[2]}};
            box_grow(tb, &pb);
        }
        for (int a = 0; a < 3; a++) b.centroid[3 * t + a] = 0.5 * (tb->min[a] + tb->max[a]);
        box_grow(&all, tb);
        b.order[t] = (uint16_t)t;
    }
    /* The tree box: the triangles' box plus 0.5% of its largest extent per
     * side, as real exporters write it; in float, rounded outward. */
    double size = 0;
    for (int a = 0; a < 3; a++) size = fmax(size, all.max[a] - all.min[a]);
    cbox top;
    for (int a = 0; a < 3; a++) {
        float lo = (float)(all.min[a] - 0.005 * size), hi = (float)(all.max[a] + 0.005 * size);
        if (lo > all.min[a]) lo = nextafterf(lo, -FLT_MAX);
        if (hi < all.max[a]) hi = nextafterf(hi, FLT_MAX);
        tree->box_min[a] = lo;
        tree->box_max[a] = hi;
        top.min[a] = lo;
        top.max[a] = hi;
        /* Positions near the float range (or not finite) give a box no
         * float holds, and no node could be quantized inside it. */
        if (!isfinite(lo) || !isfinite(hi) || !isfinite(hi - (double)lo)) {
            free(b.tri_box);
            free(b.centroid);
            fy_error_set(err, FERRY_ERR_ARGUMENT, FERRY_NO_OFFSET, "0x1200",
                         "positions out of range for a collision tree: its box on axis %d would be %g to %g", a,
                         (double)lo, (double)hi);
            return err->code;
        }
    }
    b.node_count = 1;
    build(&b, 0, 0, tris, &top, 0);
    free(b.tri_box);
    free(b.centroid);
    if (b.too_many) {
        fy_error_set(err, FERRY_ERR_ARGUMENT, FERRY_NO_OFFSET, "0x1200", "the tree needs more than 65,536 nodes");
        return err->code;
    }
    tree->nodes = b.nodes;
    tree->node_count = b.node_count;
    tree->primitives = b.order;
    tree->primitive_count = tris;
    tree->offset = FERRY_NO_OFFSET;
    *out = tree;
    return FERRY_OK;
}
