/* ALM level of detail against meshoptimizer's simplifier, on the same
 * meshes, in one run.
 *
 *   bench_alm_lod [--rounds N] [--samples N] PATH...
 *
 * Every ALO model under the PATHs (as the game draws it: no shadow,
 * collision or explicit LOD meshes) becomes an ALM with
 * ferry_alm_from_scene. Per model:
 *   build      ferry_alm_from_scene (welding + all collapse records),
 *              triangles of the full mesh per second;
 *   per fraction f of the full triangle count (50%, 25%, 10%):
 *     ours     ferry_alm_lod_extract with max_triangles = f * T; the count
 *              it reaches (the records may run out before);
 *     meshopt  meshopt_simplify on the full mesh's rest-pose vertices and
 *              triangles, target = the count ours reached (so both are
 *              compared at equal triangle counts), target_error 1e9 so only
 *              the count limits it; the count it reaches;
 *     quality  distances between surfaces, relative to the full mesh's
 *              bounding-box diagonal: from points sampled uniformly on the
 *              LOD's surface to the full mesh (LOD->full), and from points
 *              on the full mesh to the LOD (full->LOD); mean and maximum.
 * Times are medians over rounds. Nothing is asserted. */
#define _POSIX_C_SOURCE 200809L
#include "bench_util.h"

#include <ferry/alm.h>
#include <ferry/alo.h>
#include <ferry/convert.h>

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef FERRY_HAVE_MESHOPT
#include <meshoptimizer.h>
#define MO_STR2(x) #x
#define MO_STR(x) MO_STR2(x)
#define MO_VERSION_TEXT "(MESHOPTIMIZER_VERSION " MO_STR(MESHOPTIMIZER_VERSION) ")"
#endif

typedef struct surface {
    const float *points; /* 3 per vertex */
    const uint32_t *indices;
    size_t triangle_count;
} surface;

/* ---- nearest distance to a triangle soup: a uniform grid ---- */

typedef struct grid {
    surface s;
    double lo[3], cell;
    int dim[3];
    uint32_t *start, *items; /* per cell: items[start[c] .. start[c + 1]) */
    uint32_t *stamp, round;
} grid;

static int cell_of(const grid *g, double v, int axis)
{
    int c = (int)floor((v - g->lo[axis]) / g->cell);
    return c < 0 ? 0 : c >= g->dim[axis] ? g->dim[axis] - 1 : c;
}

static void tri_box(const surface *s, size_t t, double lo[3], double hi[3])
{
    for (int k = 0; k < 3; k++) lo[k] = INFINITY, hi[k] = -INFINITY;
    for (int c = 0; c < 3; c++) {
        const float *p = &s->points[3 * s->indices[3 * t + c]];
        for (int k = 0; k < 3; k++) lo[k] = fmin(lo[k], p[k]), hi[k] = fmax(hi[k], p[k]);
    }
}

static void grid_build(grid *g, surface s)
{
    memset(g, 0, sizeof *g);
    g->s = s;
    double lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
    for (size_t t = 0; t < s.triangle_count; t++) {
        double a[3], b[3];
        tri_box(&s, t, a, b);
        for (int k = 0; k < 3; k++) lo[k] = fmin(lo[k], a[k]), hi[k] = fmax(hi[k], b[k]);
    }
    double extent = 0;
    for (int k = 0; k < 3; k++) extent = fmax(extent, hi[k] - lo[k]);
    g->cell = extent > 0 ? extent / fmax(1.0, 2.0 * cbrt((double)s.triangle_count)) : 1.0;
    size_t cells = 1;
    for (int k = 0; k < 3; k++) {
        g->lo[k] = lo[k];
        double d = ceil((hi[k] - lo[k]) / g->cell);
        g->dim[k] = d < 1 ? 1 : d > 256 ? 256 : (int)d;
        cells *= (size_t)g->dim[k];
    }
    g->start = calloc(cells + 1, sizeof *g->start);
    for (int pass = 0; pass < 2; pass++) {
        for (size_t t = 0; t < s.triangle_count; t++) {
            double a[3], b[3];
            tri_box(&s, t, a, b);
            int c0[3], c1[3];
            for (int k = 0; k < 3; k++) c0[k] = cell_of(g, a[k], k), c1[k] = cell_of(g, b[k], k);
            for (int z = c0[2]; z <= c1[2]; z++)
                for (int y = c0[1]; y <= c1[1]; y++)
                    for (int x = c0[0]; x <= c1[0]; x++) {
                        size_t c = ((size_t)z * g->dim[1] + y) * g->dim[0] + x;
                        if (pass == 0) g->start[c + 1]++;
                        else g->items[g->start[c]++] = (uint32_t)t;
                    }
        }
        if (pass == 0) {
            for (size_t c = 0; c < cells; c++) g->start[c + 1] += g->start[c];
            g->items = malloc((g->start[cells] + 1) * sizeof *g->items);
        } else {
            for (size_t c = cells; c > 0; c--) g->start[c] = g->start[c - 1];
            g->start[0] = 0;
        }
    }
    g->stamp = calloc(s.triangle_count + 1, sizeof *g->stamp);
}

static void grid_free(grid *g)
{
    free(g->start);
    free(g->items);
    free(g->stamp);
}

/* Squared distance from p to triangle abc (closest point by regions). */
static double tri_dist2(const double p[3], const float *a, const float *b, const float *c)
{
    double ab[3], ac[3], ap[3];
    for (int k = 0; k < 3; k++) ab[k] = b[k] - a[k], ac[k] = c[k] - a[k], ap[k] = p[k] - a[k];
#define DOT(u, v) (u[0] * v[0] + u[1] * v[1] + u[2] * v[2])
    double d1 = DOT(ab, ap), d2 = DOT(ac, ap);
    double q[3];
    if (d1 <= 0 && d2 <= 0) {
        for (int k = 0; k < 3; k++) q[k] = a[k];
    } else {
        double bp[3], cp[3];
        for (int k = 0; k < 3; k++) bp[k] = p[k] - b[k], cp[k] = p[k] - c[k];
        double d3 = DOT(ab, bp), d4 = DOT(ac, bp), d5 = DOT(ab, cp), d6 = DOT(ac, cp);
        double vc = d1 * d4 - d3 * d2, vb = d5 * d2 - d1 * d6, va = d3 * d6 - d5 * d4;
        if (d3 >= 0 && d4 <= d3) {
            for (int k = 0; k < 3; k++) q[k] = b[k];
        } else if (d6 >= 0 && d5 <= d6) {
            for (int k = 0; k < 3; k++) q[k] = c[k];
        } else if (vc <= 0 && d1 >= 0 && d3 <= 0) {
            double v = d1 / (d1 - d3);
            for (int k = 0; k < 3; k++) q[k] = a[k] + v * ab[k];
        } else if (vb <= 0 && d2 >= 0 && d6 <= 0) {
            double w = d2 / (d2 - d6);
            for (int k = 0; k < 3; k++) q[k] = a[k] + w * ac[k];
        } else if (va <= 0 && (d4 - d3) >= 0 && (d5 - d6) >= 0) {
            double w = (d4 - d3) / ((d4 - d3) + (d5 - d6));
            for (int k = 0; k < 3; k++) q[k] = b[k] + w * (c[k] - b[k]);
        } else {
            double den = va + vb + vc;
            double v = den != 0 ? vb / den : 0, w = den != 0 ? vc / den : 0;
            for (int k = 0; k < 3; k++) q[k] = a[k] + ab[k] * v + ac[k] * w;
        }
    }
#undef DOT
    double d = 0;
    for (int k = 0; k < 3; k++) d += (p[k] - q[k]) * (p[k] - q[k]);
    return d;
}

static double grid_distance(grid *g, const double p[3])
{
    int c[3];
    for (int k = 0; k < 3; k++) c[k] = cell_of(g, p[k], k);
    /* How far p lies outside the grid's box: rings start counting from there. */
    double outside = 0;
    for (int k = 0; k < 3; k++) {
        double lo = g->lo[k], hi = g->lo[k] + g->dim[k] * g->cell;
        double d = p[k] < lo ? lo - p[k] : p[k] > hi ? p[k] - hi : 0;
        outside += d * d;
    }
    outside = sqrt(outside);
    uint32_t round = ++g->round;
    double best = INFINITY;
    int max_ring = g->dim[0] + g->dim[1] + g->dim[2];
    for (int r = 0; r <= max_ring; r++) {
        for (int z = c[2] - r; z <= c[2] + r; z++) {
            if (z < 0 || z >= g->dim[2]) continue;
            for (int y = c[1] - r; y <= c[1] + r; y++) {
                if (y < 0 || y >= g->dim[1]) continue;
                for (int x = c[0] - r; x <= c[0] + r; x++) {
                    if (x < 0 || x >= g->dim[0]) continue;
                    if (abs(x - c[0]) != r && abs(y - c[1]) != r && abs(z - c[2]) != r) continue; /* inside the shell */
                    size_t cell = ((size_t)z * g->dim[1] + y) * g->dim[0] + x;
                    for (uint32_t i = g->start[cell]; i < g->start[cell + 1]; i++) {
                        uint32_t t = g->items[i];
                        if (g->stamp[t] == round) continue;
                        g->stamp[t] = round;
                        const uint32_t *ix = &g->s.indices[3 * t];
                        double d = tri_dist2(p, &g->s.points[3 * ix[0]], &g->s.points[3 * ix[1]], &g->s.points[3 * ix[2]]);
                        if (d < best) best = d;
                    }
                }
            }
        }
        /* Every cell beyond ring r is at least r cells away from p's cell. */
        double reach = outside + r * g->cell;
        if (best <= reach * reach) break;
    }
    return sqrt(best);
}

/* ---- sampling ---- */

static uint64_t rng_next(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

static double rng_unit(uint64_t *s) { return (double)(rng_next(s) >> 11) * (1.0 / 9007199254740992.0); }

typedef struct distances {
    double mean, max;
} distances;

/* Points uniform over `from`'s area, their distance to `to`. */
static distances sample_distance(surface from, grid *to, size_t samples)
{
    distances d = {0, 0};
    if (from.triangle_count == 0 || to->s.triangle_count == 0) return d;
    double *cum = malloc(from.triangle_count * sizeof *cum), total = 0;
    for (size_t t = 0; t < from.triangle_count; t++) {
        const float *a = &from.points[3 * from.indices[3 * t]], *b = &from.points[3 * from.indices[3 * t + 1]],
                    *c = &from.points[3 * from.indices[3 * t + 2]];
        double u[3], v[3];
        for (int k = 0; k < 3; k++) u[k] = b[k] - a[k], v[k] = c[k] - a[k];
        double n[3] = {u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]};
        total += 0.5 * sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
        cum[t] = total;
    }
    uint64_t seed = 0x9e3779b97f4a7c15ull;
    double sum = 0;
    for (size_t i = 0; i < samples; i++) {
        double pick = rng_unit(&seed) * total;
        size_t lo = 0, hi = from.triangle_count - 1;
        while (lo < hi) {
            size_t mid = (lo + hi) / 2;
            if (cum[mid] < pick) lo = mid + 1;
            else hi = mid;
        }
        const float *a = &from.points[3 * from.indices[3 * lo]], *b = &from.points[3 * from.indices[3 * lo + 1]],
                    *c = &from.points[3 * from.indices[3 * lo + 2]];
        double r1 = sqrt(rng_unit(&seed)), r2 = rng_unit(&seed);
        double p[3];
        for (int k = 0; k < 3; k++) p[k] = (1 - r1) * a[k] + r1 * (1 - r2) * b[k] + r1 * r2 * c[k];
        double dist = grid_distance(to, p);
        sum += dist;
        if (dist > d.max) d.max = dist;
    }
    d.mean = sum / (double)samples;
    free(cum);
    return d;
}

/* ---- models ---- */

typedef struct file_list {
    char **paths;
    size_t count, capacity;
} file_list;

static bool ends_alo(const char *path)
{
    size_t n = strlen(path);
    if (n < 4) return false;
    const char *e = path + n - 4;
    return e[0] == '.' && tolower((unsigned char)e[1]) == 'a' && tolower((unsigned char)e[2]) == 'l' &&
           tolower((unsigned char)e[3]) == 'o';
}

static bool collect(void *user, const char *file)
{
    file_list *l = user;
    if (!ends_alo(file)) return true;
    if (l->count == l->capacity) {
        l->capacity = l->capacity ? 2 * l->capacity : 64;
        l->paths = realloc(l->paths, l->capacity * sizeof *l->paths);
    }
    l->paths[l->count++] = strdup(file);
    return true;
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

static uint8_t *load(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *d = n > 0 ? malloc((size_t)n) : NULL;
    if (d && fread(d, 1, (size_t)n, f) != (size_t)n) {
        free(d);
        d = NULL;
    }
    fclose(f);
    *size = (size_t)(n > 0 ? n : 0);
    return d;
}

typedef struct summary {
    size_t models, triangles;
    double build_seconds;
    /* per fraction: sums over models */
    double ours_mean[3], ours_max[3], mo_mean[3], mo_max[3], ours_rev[3], mo_rev[3];
    double ours_time[3], mo_time[3];
    size_t ours_tris[3], mo_tris[3], target_tris[3], counted[3];
} summary;

static const double fractions[3] = {0.5, 0.25, 0.1};

static void bench_model(const char *path, int rounds, size_t samples, summary *sum)
{
    size_t size;
    uint8_t *data = load(path, &size);
    ferry_alo_model *model = NULL;
    if (!data || ferry_alo_read(data, size, NULL, &model, NULL) != FERRY_OK) {
        free(data);
        return;
    }
    ferry_alo_scene_options so;
    memset(&so, 0, sizeof so);
    so.skip_textures = true;
    ferry_scene *scene = NULL;
    ferry_alm_mesh *mesh = NULL;
    double *build = calloc((size_t)rounds, sizeof *build);
    if (ferry_alo_to_scene(model, &so, &scene, NULL) == FERRY_OK) {
        for (int r = 0; r < rounds; r++) {
            if (mesh) ferry_alm_free(mesh);
            mesh = NULL;
            double t0 = bench_now();
            if (ferry_alm_from_scene(scene, NULL, &mesh, NULL) != FERRY_OK) break;
            build[r] = bench_now() - t0;
        }
    }
    if (!mesh || mesh->triangle_count < 20) {
        if (mesh) ferry_alm_free(mesh);
        ferry_scene_free(scene);
        ferry_alo_free(model);
        free(build);
        free(data);
        return;
    }
    double build_s = bench_median(build, (size_t)rounds);
    sum->models++;
    sum->triangles += mesh->triangle_count;
    sum->build_seconds += build_s;

    /* The full mesh as meshoptimizer sees it: one vertex per ALM vertex at
     * its position's rest point, the full-resolution triangles. */
    double *mats = malloc(((size_t)mesh->bone_count + 1) * 16 * sizeof *mats);
    ferry_alm_bone_matrices(mesh, -1, mats, NULL);
    float *points = malloc(((size_t)mesh->vertex_count + 1) * 3 * sizeof *points);
    for (uint32_t v = 0; v < mesh->vertex_count; v++) {
        double h[4];
        ferry_alm_vector_eval(&mesh->positions[mesh->vertices[v].position], mats, mesh->bone_count, h);
        for (int k = 0; k < 3; k++) points[3 * v + k] = (float)h[k];
    }
    size_t nt = mesh->triangle_count;
    uint32_t *full_idx = malloc(3 * nt * sizeof *full_idx);
    for (size_t t = 0; t < nt; t++)
        for (int k = 0; k < 3; k++) full_idx[3 * t + k] = mesh->triangles[t].vertices[k];
    surface full = {points, full_idx, nt};
    grid full_grid;
    grid_build(&full_grid, full);
    double diag = 0;
    {
        double lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
        for (size_t i = 0; i < 3 * nt; i++)
            for (int k = 0; k < 3; k++) lo[k] = fmin(lo[k], points[3 * full_idx[i] + k]), hi[k] = fmax(hi[k], points[3 * full_idx[i] + k]);
        for (int k = 0; k < 3; k++) diag += (hi[k] - lo[k]) * (hi[k] - lo[k]);
        diag = sqrt(diag);
        if (!(diag > 0)) diag = 1;
    }
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    printf("%-40.40s %6zu %9.0f", base, nt, nt / build_s);
    uint32_t *lod_idx = malloc(3 * nt * sizeof *lod_idx), *mo_idx = malloc(3 * nt * sizeof *mo_idx);
    double *times = calloc((size_t)rounds, sizeof *times);
    for (int f = 0; f < 3; f++) {
        uint32_t target = (uint32_t)(nt * fractions[f]);
        ferry_alm_lod_options o = {-1, target > 0 ? target : 1, -1};
        ferry_alm_lod *lod = NULL;
        for (int r = 0; r < rounds; r++) {
            if (lod) ferry_alm_lod_free(lod);
            double t0 = bench_now();
            ferry_alm_lod_extract(mesh, &o, &lod, NULL);
            times[r] = bench_now() - t0;
        }
        double ours_t = bench_median(times, (size_t)rounds);
        size_t ours_n = lod ? lod->triangle_count : nt;
        for (size_t t = 0; lod && t < ours_n; t++)
            for (int k = 0; k < 3; k++) lod_idx[3 * t + k] = lod->vertex_source[lod->triangles[t].vertices[k]];
        if (lod) ferry_alm_lod_free(lod);
        surface ours = {points, lod_idx, ours_n};
        distances od = sample_distance(ours, &full_grid, samples);
        grid og;
        grid_build(&og, ours);
        distances orv = sample_distance(full, &og, samples);
        grid_free(&og);
        sum->ours_mean[f] += od.mean / diag, sum->ours_max[f] = fmax(sum->ours_max[f], od.max / diag);
        sum->ours_rev[f] = fmax(sum->ours_rev[f], orv.max / diag);
        sum->ours_time[f] += ours_t;
        sum->ours_tris[f] += ours_n;
        sum->target_tris[f] += target;
        sum->counted[f]++;
        printf(" | %5zu %6.0fus %.2e %.2e %.2e", ours_n, ours_t * 1e6, od.mean / diag, od.max / diag, orv.max / diag);
#ifdef FERRY_HAVE_MESHOPT
        size_t mo_n = 0;
        for (int r = 0; r < rounds; r++) {
            float err = 0;
            double t0 = bench_now();
            mo_n = meshopt_simplify(mo_idx, full_idx, 3 * nt, points, mesh->vertex_count, 3 * sizeof(float), 3 * ours_n,
                                    1e9f, 0, &err) / 3;
            times[r] = bench_now() - t0;
        }
        double mo_t = bench_median(times, (size_t)rounds);
        surface mo = {points, mo_idx, mo_n};
        distances md = sample_distance(mo, &full_grid, samples);
        grid mg;
        grid_build(&mg, mo);
        distances mrv = sample_distance(full, &mg, samples);
        grid_free(&mg);
        sum->mo_mean[f] += md.mean / diag, sum->mo_max[f] = fmax(sum->mo_max[f], md.max / diag);
        sum->mo_rev[f] = fmax(sum->mo_rev[f], mrv.max / diag);
        sum->mo_time[f] += mo_t;
        sum->mo_tris[f] += mo_n;
        printf(" | %5zu %6.0fus %.2e %.2e %.2e", mo_n, mo_t * 1e6, md.mean / diag, md.max / diag, mrv.max / diag);
#endif
    }
    printf("\n");
    free(times);
    free(lod_idx);
    free(mo_idx);
    grid_free(&full_grid);
    free(full_idx);
    free(points);
    free(mats);
    ferry_alm_free(mesh);
    ferry_scene_free(scene);
    ferry_alo_free(model);
    free(build);
    free(data);
}

int main(int argc, char **argv)
{
    int rounds = 5;
    size_t samples = 20000;
    file_list files = {0};
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--rounds") == 0 && i + 1 < argc) rounds = atoi(argv[++i]);
        else if (strcmp(argv[i], "--samples") == 0 && i + 1 < argc) samples = (size_t)atol(argv[++i]);
        else if (!bench_walk("bench_alm_lod", argv[i], collect, &files)) return 1;
    }
    if (rounds < 1) rounds = 1;
    if (files.count == 0) {
        fprintf(stderr, "usage: bench_alm_lod [--rounds N] [--samples N] PATH...\n");
        return 2;
    }
    qsort(files.paths, files.count, sizeof *files.paths, cmp_str);
#ifdef FERRY_HAVE_MESHOPT
    const char *with = "meshoptimizer " MO_VERSION_TEXT;
#else
    const char *with = "no meshoptimizer (not found at build time)";
#endif
    printf("bench_alm_lod: %zu files, %d rounds (medians), %zu samples per distance, against %s\n", files.count, rounds,
           samples, with);
    printf("per fraction: triangles reached, extraction time, mean and max LOD->full, max full->LOD "
           "(distances / bounding-box diagonal); ours, then meshopt_simplify at ours' count\n");
    printf("%-40s %6s %9s\n", "model", "tris", "build t/s");
    summary sum;
    memset(&sum, 0, sizeof sum);
    for (size_t i = 0; i < files.count; i++) bench_model(files.paths[i], rounds, samples, &sum);
    printf("\n== summary: %zu models, %zu triangles, build %.0f triangles/s (total triangles / total median time)\n",
           sum.models, sum.triangles, sum.build_seconds > 0 ? sum.triangles / sum.build_seconds : 0.0);
    printf("%-8s %-8s %10s %10s %12s %12s %12s %14s\n", "target", "method", "target", "reached", "mean L->F",
           "max L->F", "max F->L", "time total");
    for (int f = 0; f < 3; f++) {
        if (!sum.counted[f]) continue;
        double n = (double)sum.counted[f];
        printf("%-8.0f%% %-8s %10zu %10zu %12.3e %12.3e %12.3e %12.2fms\n", fractions[f] * 100, "ours", sum.target_tris[f],
               sum.ours_tris[f], sum.ours_mean[f] / n, sum.ours_max[f], sum.ours_rev[f], sum.ours_time[f] * 1e3);
#ifdef FERRY_HAVE_MESHOPT
        printf("%-8.0f%% %-8s %10zu %10zu %12.3e %12.3e %12.3e %12.2fms\n", fractions[f] * 100, "meshopt",
               sum.ours_tris[f], sum.mo_tris[f], sum.mo_mean[f] / n, sum.mo_max[f], sum.mo_rev[f], sum.mo_time[f] * 1e3);
#endif
    }
    printf("mean L->F: mean over models of each model's mean distance; max: the largest over all models\n");
    for (size_t i = 0; i < files.count; i++) free(files.paths[i]);
    free(files.paths);
    return 0;
}
