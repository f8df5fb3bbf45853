#define _POSIX_C_SOURCE 200809L
/* Real models through the authoring round trip: ALO -> scene (--all) ->
 * glTF bytes -> scene -> ALO (ferry_alo_from_scene), compared with the
 * original: bones (names, parents, matrices), meshes, sub-meshes, shaders
 * and parameters, hidden flags, triangles, vertices, proxies, lights,
 * dazzles; and the result passes validation. Every model of ueaw and 40 of
 * icw (every n-th by name). */
#include <ferry/alo.h>
#include <ferry/convert.h>
#include <ferry/gltf.h>

#include "support.h"
#include "test.h"

#include <strings.h>
#include <time.h>

typedef struct counts {
    size_t models, converted, valid, bones, meshes, shaders, hidden, triangles, vertices, proxies, lights, dazzles, collision, all;
    size_t trees, rays, ray_hits, ray_agree, orig_agree;
    double build_seconds_max;
    double export_seconds, import_seconds; /* ALO -> .glb bytes; .glb bytes -> ALO bytes (validated) */
    size_t build_triangles_max;
} counts;

/* Rays through the built tree against brute force over the triangles (must
 * agree exactly), and against the original file's tree (the same nearest
 * triangle, or the same distance when two triangles tie). Deterministic rays:
 * from points on a box around the tree towards points inside it. */
static void check_rays(const ferry_alo_submesh *orig, const ferry_alo_submesh *built, counts *c)
{
    const ferry_alo_collision_tree *t = built->collision;
    uint32_t seed = 12345;
    for (int r = 0; r < 300; r++) {
        float o[3], d[3];
        for (int a = 0; a < 3; a++) {
            seed = seed * 1664525u + 1013904223u;
            double u = (seed >> 8) / 16777216.0;
            seed = seed * 1664525u + 1013904223u;
            double v = (seed >> 8) / 16777216.0;
            double lo = t->box_min[a], ext = t->box_max[a] - t->box_min[a];
            o[a] = (float)(lo - ext + 3 * ext * u);
            d[a] = (float)(lo + ext * v) - o[a];
        }
        ferry_alo_ray_hit h1, h2, h3;
        bool a1 = ferry_alo_collision_raycast(built, o, d, 2.0f, &h1);
        bool a2 = ferry_alo_raycast_brute_force(built, o, d, 2.0f, &h2);
        bool a3 = orig->collision ? ferry_alo_collision_raycast(orig, o, d, 2.0f, &h3) : a2;
        c->rays++;
        c->ray_hits += a2;
        bool agree = a1 == a2 && (!a1 || (h1.triangle == h2.triangle && h1.t == h2.t));
        c->ray_agree += agree;
        CHECK(agree);
        c->orig_agree += a3 == a2 && (!a3 || !orig->collision || h3.triangle == h2.triangle || h3.t == h2.t);
    }
}

static bool same_str(const char *a, const char *b)
{
    return strcmp(a ? a : "", b ? b : "") == 0;
}

static double fy_len(const float v[3]) { return sqrt((double)v[0] * v[0] + (double)v[1] * v[1] + (double)v[2] * v[2]); }

static bool near(float a, float b, double tol)
{
    return fabs((double)a - (double)b) <= tol * (1 + fabs((double)a));
}

static bool same_bones(const ferry_alo_model *a, const ferry_alo_model *b, const char *path)
{
    if (a->skeleton.bone_count != b->skeleton.bone_count) {
        fprintf(stderr, "%s: %zu bones vs %zu\n", path, a->skeleton.bone_count, b->skeleton.bone_count);
        return false;
    }
    for (size_t i = 0; i < a->skeleton.bone_count; i++) {
        const ferry_alo_bone *x = &a->skeleton.bones[i], *y = &b->skeleton.bones[i];
        bool ok = same_str(x->name, y->name) && x->parent == y->parent && x->visible == y->visible && x->billboard == y->billboard;
        for (int k = 0; k < 12; k++) ok = ok && near(x->matrix[k], y->matrix[k], 1e-5);
        if (!ok) {
            fprintf(stderr, "%s: bone %zu (%s) differs\n", path, i, x->name);
            return false;
        }
    }
    return true;
}

static bool same_params(const ferry_alo_material *a, const ferry_alo_material *b)
{
    if (!same_str(a->shader, b->shader) || a->param_count != b->param_count) return false;
    for (size_t i = 0; i < a->param_count; i++) {
        const ferry_alo_shader_param *x = &a->params[i], *y = &b->params[i];
        if (x->type != y->type || !same_str(x->name, y->name)) return false;
        if (x->type == FERRY_ALO_PARAM_INT && x->int_value != y->int_value) return false;
        if (x->type == FERRY_ALO_PARAM_TEXTURE && !same_str(x->texture, y->texture)) return false;
        if (x->type != FERRY_ALO_PARAM_INT && x->type != FERRY_ALO_PARAM_TEXTURE && memcmp(x->value, y->value, sizeof x->value) != 0)
            return false;
    }
    return true;
}

/* Meshes with triangles (glTF cannot hold empty ones). */
static size_t drawn_meshes(const ferry_alo_model *m, size_t *index, size_t cap)
{
    size_t n = 0;
    for (size_t i = 0; i < m->mesh_count; i++) {
        size_t tris = 0;
        for (size_t s = 0; s < m->meshes[i].submesh_count; s++)
            if (m->meshes[i].submeshes[s].vertex_count) tris += m->meshes[i].submeshes[s].triangle_count;
        if (tris && n < cap) index[n++] = i;
    }
    return n;
}

static uint32_t mesh_bone(const ferry_alo_model *m, size_t mesh)
{
    for (size_t o = 0; o < ferry_alo_object_count(m); o++) {
        ferry_alo_object obj = ferry_alo_object_at(m, o);
        if (obj.kind != FERRY_ALO_OBJECT_MESH || obj.index != mesh) continue;
        for (size_t c = 0; c < m->connections.object_count; c++)
            if (m->connections.objects[c].object == o) return m->connections.objects[c].bone;
    }
    return UINT32_MAX;
}

static void compare(const ferry_alo_model *a, const ferry_alo_model *b, const char *path, counts *c)
{
    bool bones = same_bones(a, b, path);
    size_t ia[512], ib[512];
    size_t na = drawn_meshes(a, ia, 512), nb = drawn_meshes(b, ib, 512);
    bool meshes = na == nb, shaders = meshes, hidden = meshes, tris = meshes, verts = meshes, collision = meshes;
    for (size_t k = 0; meshes && k < na; k++) {
        const ferry_alo_mesh *x = &a->meshes[ia[k]], *y = &b->meshes[ib[k]];
        if (!same_str(x->name, y->name) || mesh_bone(a, ia[k]) != mesh_bone(b, ib[k])) meshes = false;
        hidden = hidden && x->is_hidden == y->is_hidden;
        collision = collision && x->collision_enabled == y->collision_enabled;
        size_t sx = 0;
        for (size_t s = 0; s < x->submesh_count; s++) sx += x->submeshes[s].triangle_count > 0 && x->submeshes[s].vertex_count > 0;
        if (sx != y->submesh_count) {
            meshes = false;
            break;
        }
        for (size_t s = 0, t = 0; s < x->submesh_count; s++) {
            const ferry_alo_submesh *p = &x->submeshes[s];
            if (!p->triangle_count || !p->vertex_count) continue;
            const ferry_alo_submesh *q = &y->submeshes[t++];
            shaders = shaders && same_params(&p->material, &q->material) && same_str(p->vertex_format, q->vertex_format);
            if (q->collision) {
                c->trees++;
                check_rays(p, q, c);
            }
            if ((p->collision != NULL) != (q->collision != NULL)) collision = false;
            tris = tris && p->triangle_count == q->triangle_count &&
                   memcmp(p->indices, q->indices, 3 * p->triangle_count * sizeof *p->indices) == 0;
            if (p->vertex_count != q->vertex_count) {
                verts = false;
                continue;
            }
            for (size_t v = 0; v < p->vertex_count && verts; v++)
                for (int i = 0; i < 3; i++)
                    /* (a zero stored normal is exported as a computed one: not compared) */
                    if (!near(p->vertices[v].position[i], q->vertices[v].position[i], 1e-5) ||
                        (fy_len(p->vertices[v].normal) > 0.5 && !near(p->vertices[v].normal[i], q->vertices[v].normal[i], 1e-4))) {
                        fprintf(stderr, "%s: mesh %s vertex %zu differs: p %g %g %g / %g %g %g n %g %g %g / %g %g %g\n", path, x->name, v,
                                p->vertices[v].position[0], p->vertices[v].position[1], p->vertices[v].position[2],
                                q->vertices[v].position[0], q->vertices[v].position[1], q->vertices[v].position[2],
                                p->vertices[v].normal[0], p->vertices[v].normal[1], p->vertices[v].normal[2],
                                q->vertices[v].normal[0], q->vertices[v].normal[1], q->vertices[v].normal[2]);
                        verts = false;
                        break;
                    }
        }
    }
    if (!meshes) fprintf(stderr, "%s: meshes differ (%zu vs %zu)\n", path, na, nb);
    if (!shaders) fprintf(stderr, "%s: shaders differ\n", path);
    const ferry_alo_connections *pa = &a->connections, *pb = &b->connections;
    bool proxies = pa->proxy_count == pb->proxy_count;
    for (size_t i = 0; proxies && i < pa->proxy_count; i++)
        proxies = same_str(pa->proxies[i].name, pb->proxies[i].name) && pa->proxies[i].bone == pb->proxies[i].bone &&
                  pa->proxies[i].is_hidden == pb->proxies[i].is_hidden &&
                  pa->proxies[i].alt_decrease_stay_hidden == pb->proxies[i].alt_decrease_stay_hidden;
    bool lights = a->light_count == b->light_count;
    for (size_t i = 0; lights && i < a->light_count; i++) {
        const ferry_alo_light *x = &a->lights[i], *y = &b->lights[i];
        lights = same_str(x->name, y->name) && x->type == y->type && x->intensity == y->intensity &&
                 x->far_attenuation_end == y->far_attenuation_end && x->far_attenuation_start == y->far_attenuation_start &&
                 x->hotspot_size == y->hotspot_size && x->falloff_size == y->falloff_size;
        for (int k = 0; k < 3; k++) lights = lights && (x->color[k] == y->color[k] || (x->color[k] > 1 && y->color[k] == 1));
    }
    bool dazzles = pa->dazzle_count == pb->dazzle_count;
    for (size_t i = 0; dazzles && i < pa->dazzle_count; i++)
        dazzles = same_str(pa->dazzles[i].name, pb->dazzles[i].name) && pa->dazzles[i].bone == pb->dazzles[i].bone &&
                  same_str(pa->dazzles[i].texture, pb->dazzles[i].texture) && pa->dazzles[i].radius == pb->dazzles[i].radius;
    if (!proxies) fprintf(stderr, "%s: proxies differ\n", path);
    if (!lights) fprintf(stderr, "%s: lights differ\n", path);
    c->bones += bones;
    c->meshes += meshes;
    c->shaders += shaders;
    c->hidden += hidden;
    c->triangles += tris;
    c->vertices += verts;
    c->proxies += proxies;
    c->lights += lights;
    c->dazzles += dazzles;
    c->collision += collision;
    if (!collision) fprintf(stderr, "%s: collision flags or trees differ\n", path);
    c->all += bones && meshes && shaders && hidden && tris && verts && proxies && lights && dazzles && collision;
}

static void round_trip(const char *path, counts *c)
{
    size_t size;
    uint8_t *data = test_read_file(path, &size);
    if (!data) return;
    ferry_alo_model *orig = NULL, *back = NULL;
    ferry_scene *scene = NULL, *read = NULL;
    ferry_buffer glb = {0};
    ferry_error err;
    if (ferry_alamo_detect(data, size) != FERRY_ALAMO_MODEL || ferry_alo_read(data, size, NULL, &orig, &err) != FERRY_OK) {
        free(data);
        return;
    }
    c->models++;
    ferry_alo_scene_options so = {0};
    so.all = true;
    so.skip_textures = true;
    struct timespec t0, t1, t2;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    bool ok = ferry_alo_to_scene(orig, &so, &scene, &err) == FERRY_OK && ferry_gltf_write_glb(scene, &glb, &err) == FERRY_OK;
    clock_gettime(CLOCK_MONOTONIC, &t1);
    ok = ok && ferry_gltf_read(glb.data, glb.size, NULL, &read, &err) == FERRY_OK &&
         ferry_alo_from_scene(read, NULL, &back, &err) == FERRY_OK;
    if (ok) {
        ferry_diagnostics d = {0};
        ferry_alo_validate(back, NULL, &d);
        ferry_diagnostics_free(&d);
        ferry_buffer bytes = {0};
        ferry_alo_write(back, &bytes, &err);
        ferry_buffer_free(&bytes);
    }
    clock_gettime(CLOCK_MONOTONIC, &t2);
    c->export_seconds += (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9;
    c->import_seconds += (double)(t2.tv_sec - t1.tv_sec) + (double)(t2.tv_nsec - t1.tv_nsec) * 1e-9;
    char msg[512];
    ferry_error_format(&err, msg, sizeof msg);
    CHECK_MSG(ok, "%s: %s", path, msg);
    if (ok) {
        c->converted++;
        ferry_diagnostics d = {0};
        size_t errors = ferry_alo_validate(back, NULL, &d);
        CHECK_MSG(errors == 0, "%s: %zu validation errors, first: %s", path, errors, d.count ? d.items[0].message : "");
        c->valid += errors == 0;
        ferry_diagnostics_free(&d);
        ferry_buffer bytes = {0};
        CHECK_MSG(ferry_alo_write(back, &bytes, &err) == FERRY_OK, "%s: write", path);
        ferry_buffer_free(&bytes);
        compare(orig, back, path, c);
        /* Tree building time on the model's largest sub-mesh. */
        const ferry_alo_submesh *big = NULL;
        for (size_t i = 0; i < orig->mesh_count; i++)
            for (size_t s = 0; s < orig->meshes[i].submesh_count; s++)
                if (!big || orig->meshes[i].submeshes[s].triangle_count > big->triangle_count) big = &orig->meshes[i].submeshes[s];
        if (big && big->triangle_count > c->build_triangles_max) {
            ferry_arena *arena = ferry_arena_create(0);
            ferry_alo_collision_tree *tree = NULL;
            clock_gettime(CLOCK_MONOTONIC, &t0);
            CHECK(ferry_alo_collision_build(big, arena, &tree, &err) == FERRY_OK);
            clock_gettime(CLOCK_MONOTONIC, &t1);
            c->build_triangles_max = big->triangle_count;
            c->build_seconds_max = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9;
            ferry_arena_destroy(arena);
        }
    }
    ferry_alo_free(back);
    ferry_scene_free(read);
    ferry_scene_free(scene);
    ferry_buffer_free(&glb);
    ferry_alo_free(orig);
    free(data);
}

int main(void)
{
    const char *ueaw = FERRY_SHARED_DIR "/corpus/alamo/ueaw/Models";
    const char *icw = FERRY_SHARED_DIR "/corpus/alamo/icw/Models";
    if (!test_dir_exists(ueaw) || !test_dir_exists(icw)) TEST_SKIP("%s is absent: authoring round trips not run", ueaw);
    counts c = {0};
    char **paths;
    size_t n = test_list_files(ueaw, ".alo", &paths);
    for (size_t i = 0; i < n; i++) round_trip(paths[i], &c);
    test_free_paths(paths, n);
    size_t first_models = c.models;
    n = test_list_files(icw, ".alo", &paths);
    /* every n-th file until 40 models (particle systems are passed over) */
    size_t step = n > 160 ? n / 160 : 1;
    for (size_t i = 0; i < n && c.models - first_models < 40; i += step) round_trip(paths[i], &c);
    test_free_paths(paths, n);
    printf("%zu models (%zu ueaw, %zu icw): %zu converted, %zu valid; same bones %zu, meshes %zu, shaders+params %zu, "
           "hidden %zu, triangles %zu, vertices %zu, proxies %zu, lights %zu, dazzles %zu; all of these %zu\n",
           c.models, first_models, c.models - first_models, c.converted, c.valid, c.bones, c.meshes, c.shaders, c.hidden,
           c.triangles, c.vertices, c.proxies, c.lights, c.dazzles, c.all);
    printf("collision: same flags and trees %zu of %zu models; %zu trees built, %zu rays (%zu hits): tree = brute force on %zu, "
           "same hit as the original file's tree on %zu; largest sub-mesh %zu triangles: tree built in %.2f ms\n",
           c.collision, c.models, c.trees, c.rays, c.ray_hits, c.ray_agree, c.orig_agree, c.build_triangles_max,
           c.build_seconds_max * 1e3);
    printf("time, same run: export (ALO -> .glb bytes, no textures) %.1f ms, authoring (.glb bytes -> ALO, validated, written) "
           "%.1f ms: %.2f x\n",
           c.export_seconds * 1e3, c.import_seconds * 1e3, c.import_seconds / c.export_seconds);
    CHECK(c.trees > 0);
    CHECK_EQ_U(c.ray_agree, c.rays);
    CHECK(c.ray_hits > c.rays / 10);
    CHECK(c.models >= 40);
    CHECK_EQ_U(c.converted, c.models);
    CHECK_EQ_U(c.valid, c.models);
    CHECK_EQ_U(c.all, c.models);
    TEST_END();
}
