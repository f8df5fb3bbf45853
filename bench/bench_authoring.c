/* Authoring ALO models from glTF against exporting them, side by side in
 * one run, and collision-tree building time against n log n.
 *
 *   bench_authoring [--rounds N] [--no-trees] [--loop SECONDS] MODELS_DIR_OR_FILE...
 *
 * For every model (read into memory before any clock starts):
 *   export:    ALO bytes -> ferry_alo_read -> ferry_alo_to_scene (all
 *              objects, no textures) -> ferry_gltf_write_glb (.glb bytes)
 *   authoring: those .glb bytes -> ferry_gltf_read -> ferry_alo_from_scene
 *              -> ferry_alo_validate -> ferry_alo_write (ALO bytes)
 * The two alternate within each round and the ratio is taken per round
 * before the median, so a burst of foreign load on the shared machine hits
 * both sides. The total row sums each round's times over all models.
 *
 * Trees: ferry_alo_collision_build on the largest sub-meshes of the models
 * given and on synthetic grids of n triangles (1k .. 65,535, the format's
 * ceiling: triangle numbers are 16-bit), printing time / (n log2 n), which
 * stays flat when the growth is O(n log n).
 *
 * --loop SECONDS repeats authoring only over the models, for a profiler.
 * Nothing is asserted: timing is measured here, not tested. */
#define _POSIX_C_SOURCE 200809L
#include "bench_util.h"
#include <ferry/alamo.h>
#include <ferry/alo.h>
#include <ferry/convert.h>
#include <ferry/gltf.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct model {
    char *path;
    uint8_t *data;
    size_t size;
    ferry_buffer glb;
    double *export_s, *author_s, *ratio;
} model;

typedef struct list {
    model *items;
    size_t count, cap;
} list;

static volatile size_t sink;

static bool add_file(void *user, const char *file)
{
    list *l = user;
    FILE *f = fopen(file, "rb");
    if (!f) return true;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *d = n > 0 ? malloc((size_t)n) : NULL;
    if (!d || fread(d, 1, (size_t)n, f) != (size_t)n || ferry_alamo_detect(d, (size_t)n) != FERRY_ALAMO_MODEL) {
        free(d);
        fclose(f);
        return true;
    }
    fclose(f);
    if (l->count == l->cap) {
        l->cap = l->cap ? 2 * l->cap : 16;
        l->items = realloc(l->items, l->cap * sizeof *l->items);
    }
    model *m = &l->items[l->count++];
    memset(m, 0, sizeof *m);
    size_t len = strlen(file) + 1;
    m->path = malloc(len);
    memcpy(m->path, file, len);
    m->data = d;
    m->size = (size_t)n;
    return true;
}

/* ALO bytes -> .glb bytes; the bytes are kept in *glb when glb is given. */
static bool export_once(const model *m, ferry_buffer *keep)
{
    ferry_alo_model *alo = NULL;
    ferry_scene *scene = NULL;
    ferry_buffer glb = {0};
    ferry_error err;
    ferry_alo_scene_options so = {0};
    so.all = true;
    so.skip_textures = true;
    bool ok = ferry_alo_read(m->data, m->size, NULL, &alo, &err) == FERRY_OK &&
              ferry_alo_to_scene(alo, &so, &scene, &err) == FERRY_OK && ferry_gltf_write_glb(scene, &glb, &err) == FERRY_OK;
    sink += glb.size;
    ferry_scene_free(scene);
    ferry_alo_free(alo);
    if (ok && keep)
        *keep = glb;
    else
        ferry_buffer_free(&glb);
    if (!ok) {
        char msg[512];
        ferry_error_format(&err, msg, sizeof msg);
        fprintf(stderr, "bench_authoring: %s: export: %s\n", m->path, msg);
    }
    return ok;
}

static bool author_once(const model *m)
{
    ferry_scene *scene = NULL;
    ferry_alo_model *alo = NULL;
    ferry_buffer bytes = {0};
    ferry_error err;
    bool ok = ferry_gltf_read(m->glb.data, m->glb.size, NULL, &scene, &err) == FERRY_OK &&
              ferry_alo_from_scene(scene, NULL, &alo, &err) == FERRY_OK;
    if (ok) {
        ferry_diagnostics d = {0};
        size_t errors = ferry_alo_validate(alo, NULL, &d);
        ferry_diagnostics_free(&d);
        ok = errors == 0 && ferry_alo_write(alo, &bytes, &err) == FERRY_OK;
        if (errors) fprintf(stderr, "bench_authoring: %s: %zu validation errors\n", m->path, errors);
    }
    sink += bytes.size;
    ferry_buffer_free(&bytes);
    ferry_alo_free(alo);
    ferry_scene_free(scene);
    return ok;
}

static const char *base(const char *p)
{
    const char *s = strrchr(p, '/');
    return s ? s + 1 : p;
}

/* n triangles over a jittered grid of quads, deterministic. */
static void synthetic(size_t n, ferry_alo_submesh *sm)
{
    size_t quads = (n + 1) / 2, side = (size_t)ceil(sqrt((double)quads));
    size_t verts = (side + 1) * (side + 1);
    memset(sm, 0, sizeof *sm);
    sm->vertices = calloc(verts, sizeof *sm->vertices);
    sm->vertex_count = verts;
    sm->indices = malloc(3 * n * sizeof *sm->indices);
    sm->triangle_count = n;
    uint32_t seed = 12345;
    for (size_t y = 0; y <= side; y++)
        for (size_t x = 0; x <= side; x++) {
            seed = seed * 1664525u + 1013904223u;
            float *p = sm->vertices[y * (side + 1) + x].position;
            p[0] = (float)x;
            p[1] = (float)y;
            p[2] = (float)((seed >> 8) & 0xFFFF) / 65536.0f * 4.0f;
        }
    size_t t = 0;
    for (size_t y = 0; y < side && t < n; y++)
        for (size_t x = 0; x < side && t < n; x++) {
            uint16_t a = (uint16_t)(y * (side + 1) + x), b = (uint16_t)(a + 1), c = (uint16_t)(a + side + 1), d = (uint16_t)(c + 1);
            uint16_t *ix = &sm->indices[3 * t];
            ix[0] = a, ix[1] = b, ix[2] = c;
            if (++t < n) {
                ix[3] = b, ix[4] = d, ix[5] = c;
                t++;
            }
        }
}

/* Median seconds of building the tree of `sm`, over rounds sized to take
 * at least ~50 ms each. */
static double time_tree(const ferry_alo_submesh *sm, int rounds, bool *ok)
{
    double *v = malloc((size_t)rounds * sizeof *v);
    *ok = true;
    for (int r = 0; r < rounds; r++) {
        int reps = 0;
        double t0 = bench_now(), t;
        do {
            ferry_arena *arena = ferry_arena_create(0);
            ferry_alo_collision_tree *tree = NULL;
            ferry_error err;
            if (ferry_alo_collision_build(sm, arena, &tree, &err) != FERRY_OK) *ok = false;
            sink += tree ? tree->node_count : 0;
            ferry_arena_destroy(arena);
            reps++;
            t = bench_now() - t0;
        } while (*ok && t < 0.05);
        v[r] = t / reps;
    }
    double med = bench_median(v, (size_t)rounds);
    free(v);
    return med;
}

static void tree_row(const char *name, const ferry_alo_submesh *sm, int rounds)
{
    bool ok;
    size_t n = sm->triangle_count;
    double t = time_tree(sm, rounds, &ok);
    if (!ok) {
        printf("%-34.34s %9zu  refused by ferry_alo_collision_build\n", name, n);
        return;
    }
    printf("%-34.34s %9zu %11.3f %14.2f\n", name, n, t * 1e3, t * 1e9 / ((double)n * log2((double)n)));
}

int main(int argc, char **argv)
{
    int rounds = 7;
    bool trees = true;
    double loop = 0;
    list l = {0};
    int i = 1;
    for (; i < argc && argv[i][0] == '-'; i++) {
        if (!strcmp(argv[i], "--rounds") && i + 1 < argc) {
            rounds = atoi(argv[++i]);
        } else if (!strcmp(argv[i], "--no-trees")) {
            trees = false;
        } else if (!strcmp(argv[i], "--loop") && i + 1 < argc) {
            loop = atof(argv[++i]);
        } else {
            fprintf(stderr, "usage: bench_authoring [--rounds N] [--no-trees] [--loop SECONDS] MODELS_DIR_OR_FILE...\n");
            return 2;
        }
    }
    if (rounds < 1) rounds = 1;
    for (; i < argc; i++)
        if (!bench_walk("bench_authoring", argv[i], add_file, &l)) return 1;
    /* Every model exported once up front: the authoring input. */
    size_t kept = 0;
    for (size_t k = 0; k < l.count; k++) {
        model *m = &l.items[k];
        if (!export_once(m, &m->glb) || !author_once(m)) {
            free(m->data);
            free(m->path);
            ferry_buffer_free(&m->glb);
            continue;
        }
        l.items[kept++] = *m;
    }
    l.count = kept;
    if (loop > 0) {
        double t0 = bench_now();
        while (bench_now() - t0 < loop)
            for (size_t k = 0; k < l.count; k++) author_once(&l.items[k]);
        return 0;
    }
    double *tot_e = calloc((size_t)rounds, sizeof *tot_e), *tot_a = calloc((size_t)rounds, sizeof *tot_a),
           *tot_r = calloc((size_t)rounds, sizeof *tot_r);
    for (size_t k = 0; k < l.count; k++) {
        model *m = &l.items[k];
        m->export_s = calloc((size_t)rounds, sizeof(double));
        m->author_s = calloc((size_t)rounds, sizeof(double));
        m->ratio = calloc((size_t)rounds, sizeof(double));
    }
    for (int r = 0; r < rounds; r++)
        for (size_t k = 0; k < l.count; k++) {
            model *m = &l.items[k];
            /* the two sides alternate call by call until both took
             * >= 5 ms (small models take a fraction of a millisecond),
             * so foreign load in the round falls on both */
            double e = 0, a = 0;
            int reps = 0;
            do {
                double t0 = bench_now();
                export_once(m, NULL);
                double t1 = bench_now();
                author_once(m);
                double t2 = bench_now();
                e += t1 - t0;
                a += t2 - t1;
                reps++;
            } while (e < 0.005 || a < 0.005);
            e /= reps;
            a /= reps;
            m->export_s[r] = e;
            m->author_s[r] = a;
            m->ratio[r] = a / e;
            tot_e[r] += e;
            tot_a[r] += a;
        }
    for (int r = 0; r < rounds; r++) tot_r[r] = tot_a[r] / tot_e[r];
    printf("%-34s %9s %9s %11s %11s %7s\n", "model", "ALO bytes", "glb bytes", "export ms", "author ms", "ratio");
    double worst = 0;
    const char *worst_name = "";
    for (size_t k = 0; k < l.count; k++) {
        model *m = &l.items[k];
        double ratio = bench_median(m->ratio, (size_t)rounds);
        if (ratio > worst) worst = ratio, worst_name = base(m->path);
        printf("%-34.34s %9zu %9zu %11.3f %11.3f %7.2f\n", base(m->path), m->size, m->glb.size,
               bench_median(m->export_s, (size_t)rounds) * 1e3, bench_median(m->author_s, (size_t)rounds) * 1e3, ratio);
    }
    printf("%-34s %9s %9s %11.3f %11.3f %7.2f\n", "total (sum per round)", "", "", bench_median(tot_e, (size_t)rounds) * 1e3,
           bench_median(tot_a, (size_t)rounds) * 1e3, bench_median(tot_r, (size_t)rounds));
    printf("%zu models, %d rounds, medians; worst ratio %.2f (%s)\n", l.count, rounds, worst, worst_name);
    if (trees) {
        printf("\n%-34s %9s %11s %14s\n", "collision tree", "triangles", "build ms", "ns/(n log2 n)");
        /* the largest sub-mesh of each model, the 5 largest printed */
        for (int shown = 0; shown < 5; shown++) {
            const ferry_alo_submesh *best = NULL;
            ferry_alo_model *best_model = NULL;
            const char *best_name = NULL;
            static size_t done[5];
            for (size_t k = 0; k < l.count; k++) {
                ferry_alo_model *alo = NULL;
                if (ferry_alo_read(l.items[k].data, l.items[k].size, NULL, &alo, NULL) != FERRY_OK) continue;
                const ferry_alo_submesh *big = NULL;
                for (size_t x = 0; x < alo->mesh_count; x++)
                    for (size_t s = 0; s < alo->meshes[x].submesh_count; s++)
                        if (!big || alo->meshes[x].submeshes[s].triangle_count > big->triangle_count) big = &alo->meshes[x].submeshes[s];
                bool used = false;
                for (int d = 0; d < shown; d++) used |= done[d] == k + 1;
                if (big && !used && (!best || big->triangle_count > best->triangle_count)) {
                    ferry_alo_free(best_model);
                    best = big, best_model = alo, best_name = base(l.items[k].path);
                    done[shown] = k + 1;
                } else {
                    ferry_alo_free(alo);
                }
            }
            if (!best) break;
            tree_row(best_name, best, rounds);
            ferry_alo_free(best_model);
        }
        static const size_t sizes[] = {1000, 4000, 10000, 30000, 65535, 100000, 1000000};
        for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++) {
            ferry_alo_submesh sm;
            char name[64];
            snprintf(name, sizeof name, "synthetic grid");
            if (sizes[s] > 0xFFFF) {
                printf("%-34s %9zu  not buildable: a tree's triangle numbers are 16-bit (at most 65,535)\n", name, sizes[s]);
                continue;
            }
            synthetic(sizes[s], &sm);
            tree_row(name, &sm, rounds);
            free(sm.vertices);
            free(sm.indices);
        }
    }
    for (size_t k = 0; k < l.count; k++) {
        free(l.items[k].path);
        free(l.items[k].data);
        ferry_buffer_free(&l.items[k].glb);
        free(l.items[k].export_s);
        free(l.items[k].author_s);
        free(l.items[k].ratio);
    }
    free(l.items);
    free(tot_e);
    free(tot_a);
    free(tot_r);
    return 0;
}
