/* ferry info: a one-screen summary of each file. */
#include "cli.h"
#include "formats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char info_usage[] =
    "usage: ferry info [--json] FILE...\n"
    "\n"
    "Summarises each file. Alamo models (.alo): counts of bones, meshes,\n"
    "sub-meshes, vertices, triangles, lights, proxies and dazzles, the model's\n"
    "bounds, the shaders and textures used and the proxies. Animations (.ala):\n"
    "format, frames, fps, duration and the animated bones with their channels.\n"
    "Particle systems (.alo): name, emitters, their blend modes, lifetimes and\n"
    "textures. ODOL models (.p3d, ArmA and ArmA 2): version, LODs with their\n"
    "resolution names, vertex, face, section, selection and proxy counts. ALM\n"
    "meshes (.alm): version, bones, positions, vertices, triangles at several\n"
    "levels of detail. MEG archives (.meg): format, file and name counts, bytes\n"
    "of entries. PBO archives (.pbo): prefix and other properties, files, bytes,\n"
    "the SHA-1 and whether it matches. PAA/PAC textures: type, size and mipmaps, average and maximum\n"
    "colours, tags. Configs (raP or text): classes and entries; a material\n"
    "(.rvmat): shaders, colours, each stage's texture and which is the normal\n"
    "map. A file of any other format is named as such.\n"
    "\n"
    "  --json   machine-readable output on stdout (an array, one object per file)\n";

/* Distinct strings in first-seen order. */
typedef struct string_set {
    const char **items;
    size_t count, capacity;
} string_set;

static void set_add(string_set *s, const char *text)
{
    if (!text || !*text) return;
    for (size_t i = 0; i < s->count; i++)
        if (strcmp(s->items[i], text) == 0) return;
    if (s->count == s->capacity) {
        s->capacity = s->capacity ? s->capacity * 2 : 16;
        s->items = realloc(s->items, s->capacity * sizeof *s->items);
    }
    s->items[s->count++] = text;
}

static void set_json(json_t *object, const char *key, const string_set *s)
{
    json_t *a = json_array();
    json_object_set_new(object, key, a);
    for (size_t i = 0; i < s->count; i++) cli_json_append_text(object, key, a, s->items[i]);
}

static void print_set(const char *label, const string_set *s)
{
    printf("  %-10s", label);
    if (!s->count) printf(" (none)");
    for (size_t i = 0; i < s->count; i++) printf("%s%s", i ? ", " : " ", CLI_TXT(s->items[i]));
    printf("\n");
}

/* Model-space bounds: each mesh's vertex bounds moved by the world matrix
 * of the bone it is connected to (skinned meshes are already in model space). */
static bool model_bounds(const ferry_alo_model *m, float min[3], float max[3])
{
    float *world = calloc(m->skeleton.bone_count ? m->skeleton.bone_count * 16 : 16, sizeof *world);
    if (!world) return false;
    ferry_alo_bone_world_matrices(m, world);
    bool any = false;
    for (size_t i = 0; i < m->connections.object_count; i++) {
        const ferry_alo_connection *c = &m->connections.objects[i];
        if (c->object >= ferry_alo_object_count(m)) continue;
        ferry_alo_object obj = ferry_alo_object_at(m, c->object);
        if (obj.kind != FERRY_ALO_OBJECT_MESH || obj.index >= m->mesh_count) continue;
        const ferry_alo_mesh *mesh = &m->meshes[obj.index];
        float lo[3], hi[3];
        if (!ferry_alo_mesh_vertex_bounds(mesh, lo, hi)) continue;
        bool skinned = false;
        for (size_t s = 0; s < mesh->submesh_count; s++) skinned |= mesh->submeshes[s].bone_mapping_count > 0;
        const float identity[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
        const float *mat = (!skinned && c->bone < m->skeleton.bone_count) ? world + 16 * c->bone : identity;
        for (int corner = 0; corner < 8; corner++) {
            float p[3] = {corner & 1 ? hi[0] : lo[0], corner & 2 ? hi[1] : lo[1], corner & 4 ? hi[2] : lo[2]};
            for (int r = 0; r < 3; r++) {
                float v = mat[r] * p[0] + mat[4 + r] * p[1] + mat[8 + r] * p[2] + mat[12 + r];
                if (!any || v < min[r]) min[r] = v;
                if (!any || v > max[r]) max[r] = v;
            }
            any = true;
        }
    }
    free(world);
    return any;
}

static json_t *model_info(const char *file, size_t size, const ferry_alo_model *m, bool json)
{
    size_t submeshes = 0, vertices = 0, triangles = 0, skinned = 0, collision = 0;
    string_set shaders = {0}, textures = {0}, proxies = {0};
    for (size_t i = 0; i < m->mesh_count; i++) {
        const ferry_alo_mesh *mesh = &m->meshes[i];
        submeshes += mesh->submesh_count;
        for (size_t s = 0; s < mesh->submesh_count; s++) {
            const ferry_alo_submesh *sm = &mesh->submeshes[s];
            vertices += sm->vertex_count;
            triangles += sm->triangle_count;
            skinned += sm->bone_mapping_count > 0;
            collision += sm->collision != NULL;
            set_add(&shaders, sm->material.shader);
            for (size_t p = 0; p < sm->material.param_count; p++)
                if (sm->material.params[p].type == FERRY_ALO_PARAM_TEXTURE) set_add(&textures, sm->material.params[p].texture);
        }
    }
    for (size_t i = 0; i < m->connections.proxy_count; i++) set_add(&proxies, m->connections.proxies[i].name);
    float lo[3] = {0}, hi[3] = {0};
    bool has_bounds = model_bounds(m, lo, hi);
    json_t *j = NULL;
    if (json) {
        j = json_object();
        cli_json_set_text(j, "file", file);
        json_object_set_new(j, "format", json_string("ALO model"));
        json_object_set_new(j, "size", json_integer((json_int_t)size));
        json_object_set_new(j, "bones", json_integer((json_int_t)m->skeleton.bone_count));
        json_object_set_new(j, "meshes", json_integer((json_int_t)m->mesh_count));
        json_object_set_new(j, "submeshes", json_integer((json_int_t)submeshes));
        json_object_set_new(j, "skinned_submeshes", json_integer((json_int_t)skinned));
        json_object_set_new(j, "collision_trees", json_integer((json_int_t)collision));
        json_object_set_new(j, "vertices", json_integer((json_int_t)vertices));
        json_object_set_new(j, "triangles", json_integer((json_int_t)triangles));
        json_object_set_new(j, "lights", json_integer((json_int_t)m->light_count));
        json_object_set_new(j, "proxies", json_integer((json_int_t)m->connections.proxy_count));
        json_object_set_new(j, "dazzles", json_integer((json_int_t)m->connections.dazzle_count));
        if (has_bounds) {
            json_object_set_new(j, "bounds_min", json_pack("[f,f,f]", (double)lo[0], (double)lo[1], (double)lo[2]));
            json_object_set_new(j, "bounds_max", json_pack("[f,f,f]", (double)hi[0], (double)hi[1], (double)hi[2]));
        }
        set_json(j, "shaders", &shaders);
        set_json(j, "textures", &textures);
        set_json(j, "proxy_names", &proxies);
        json_t *mesh_names = json_array();
        json_object_set_new(j, "mesh_names", mesh_names);
        for (size_t i = 0; i < m->mesh_count; i++)
            cli_json_append_text(j, "mesh_names", mesh_names, m->meshes[i].name ? m->meshes[i].name : "");
    } else {
        printf("%s: ALO model, %zu bytes\n", CLI_TXT(file), size);
        printf("  bones      %zu\n", m->skeleton.bone_count);
        printf("  meshes     %zu (%zu sub-meshes, %zu skinned, %zu with collision trees)\n", m->mesh_count, submeshes,
               skinned, collision);
        printf("  geometry   %zu vertices, %zu triangles\n", vertices, triangles);
        printf("  lights     %zu\n", m->light_count);
        printf("  proxies    %zu, dazzles %zu\n", m->connections.proxy_count, m->connections.dazzle_count);
        if (has_bounds)
            printf("  bounds     (%.3f, %.3f, %.3f) .. (%.3f, %.3f, %.3f)\n", (double)lo[0], (double)lo[1],
                   (double)lo[2], (double)hi[0], (double)hi[1], (double)hi[2]);
        print_set("shaders", &shaders);
        print_set("textures", &textures);
        print_set("proxy list", &proxies);
    }
    free(shaders.items);
    free(textures.items);
    free(proxies.items);
    return j;
}

static const char *ala_channels(const ferry_ala_bone *b, uint8_t format, char *out, size_t size)
{
    bool t, r, sc;
    if (format == 2) {
        t = b->translation_index >= 0;
        r = b->rotation_index >= 0;
        sc = b->scale_index >= 0;
    } else {
        t = b->translation_count > 0;
        r = b->rotation_count > 1;
        sc = b->scale_count > 0;
    }
    snprintf(out, size, "%s%s%s%s%s", t ? " translation" : "", r ? " rotation" : "", sc ? " scale" : "",
             b->has_visibility ? " visibility" : "", b->has_steps ? " steps" : "");
    if (!out[0]) snprintf(out, size, " (constant)");
    return out;
}

static json_t *animation_info(const char *file, size_t size, const ferry_ala_animation *a, bool json)
{
    size_t animated = 0;
    char channels[96];
    for (size_t i = 0; i < a->bone_count; i++)
        if (strcmp(ala_channels(&a->bones[i], a->format, channels, sizeof channels), " (constant)") != 0) animated++;
    if (json) {
        json_t *j = json_object();
        cli_json_set_text(j, "file", file);
        json_object_set_new(j, "format", json_string("ALA animation"));
        json_object_set_new(j, "ala_format", json_integer(a->format));
        json_object_set_new(j, "size", json_integer((json_int_t)size));
        json_object_set_new(j, "frames", json_integer(a->frame_count));
        json_object_set_new(j, "fps", json_real(a->fps));
        json_object_set_new(j, "duration", json_real(ferry_ala_duration(a)));
        json_object_set_new(j, "bones", json_integer((json_int_t)a->bone_count));
        json_object_set_new(j, "animated_bones", json_integer((json_int_t)animated));
        json_t *bones = json_array();
        for (size_t i = 0; i < a->bone_count; i++) {
            json_t *b = json_object();
            cli_json_set_text(b, "name", a->bones[i].name ? a->bones[i].name : "");
            json_object_set_new(b, "index", json_integer(a->bones[i].index));
            json_object_set_new(b, "channels",
                                json_string(ala_channels(&a->bones[i], a->format, channels, sizeof channels) + 1));
            json_array_append_new(bones, b);
        }
        json_object_set_new(j, "bone_list", bones);
        return j;
    }
    printf("%s: ALA animation (format %u), %zu bytes\n", CLI_TXT(file), (unsigned)a->format, size);
    printf("  frames     %u at %g fps (%.3f s)\n", (unsigned)a->frame_count, (double)a->fps, ferry_ala_duration(a));
    printf("  bones      %zu, %zu animated\n", a->bone_count, animated);
    for (size_t i = 0; i < a->bone_count; i++)
        printf("  %4u %-24s%s\n", (unsigned)a->bones[i].index, CLI_TXT(a->bones[i].name),
               ala_channels(&a->bones[i], a->format, channels, sizeof channels));
    return NULL;
}

static json_t *particle_info(const char *file, size_t size, const ferry_particle_system *ps, bool json)
{
    json_t *j = NULL, *emitters = NULL;
    if (json) {
        j = json_object();
        cli_json_set_text(j, "file", file);
        json_object_set_new(j, "format", json_string("ALO particle system"));
        json_object_set_new(j, "size", json_integer((json_int_t)size));
        cli_json_set_text(j, "name", ps->name ? ps->name : "");
        json_object_set_new(j, "persistent", json_boolean(ps->persistence != 0));
        emitters = json_array();
    } else {
        printf("%s: ALO particle system '%s', %zu bytes, %zu emitter%s%s\n", CLI_TXT(file), CLI_TXT(ps->name), size,
               ps->emitter_count, ps->emitter_count == 1 ? "" : "s", ps->persistence ? ", persistent" : "");
    }
    for (size_t i = 0; i < ps->emitter_count; i++) {
        const ferry_particle_emitter *e = &ps->emitters[i];
        const ferry_particle_properties *p = &e->properties;
        if (emitters) {
            json_t *ej = json_object();
            cli_json_set_text(ej, "name", e->name ? e->name : "");
            json_object_set_new(ej, "blend_mode", json_integer(p->blend_mode));
            json_object_set_new(ej, "lifetime", json_real(p->lifetime));
            json_object_set_new(ej, "in_bursts", json_boolean(p->in_bursts != 0));
            cli_json_set_text(ej, "color_texture", e->color_texture);
            cli_json_set_text(ej, "secondary_texture", e->secondary_texture);
            json_array_append_new(emitters, ej);
        } else {
            printf("  emitter %zu %-20s blend %u, lifetime %gs, %s, texture %s%s%s\n", i, CLI_TXT(e->name),
                   (unsigned)p->blend_mode, (double)p->lifetime, p->in_bursts ? "bursts" : "stream",
                   e->color_texture ? e->color_texture : "(none)", e->secondary_texture ? ", secondary " : "",
                   e->secondary_texture ? e->secondary_texture : "");
        }
    }
    if (j) json_object_set_new(j, "emitters", emitters);
    return j;
}

/* The Alamo family's row of the format table (formats.c). */
int cli_alamo_info(const char *file, const uint8_t *data, size_t size, json_t *report)
{
    cli_asset a;
    ferry_error err;
    int status = CLI_OK;
    if (!cli_asset_read(data, size, &a, &err)) {
        status = CLI_INVALID;
        if (report)
            cli_json_append_failure(report, file, ferry_alamo_kind_name(a.kind), &err);
        else
            cli_print_error(file, &err);
    } else {
        bool json = report != NULL;
        json_t *j = a.model       ? model_info(file, a.size, a.model, json)
                    : a.animation ? animation_info(file, a.size, a.animation, json)
                                  : particle_info(file, a.size, a.particles, json);
        if (report) json_array_append_new(report, j);
    }
    cli_asset_free(&a);
    return status;
}

int cmd_info(int argc, char **argv)
{
    bool json = false;
    int files = 0;
    for (int i = 1; i < argc; i++) {
        if (cli_is_help(argv[i])) {
            fputs(info_usage, stdout);
            return CLI_OK;
        }
        if (strcmp(argv[i], "--json") == 0)
            json = true;
        else if (argv[i][0] == '-' && argv[i][1])
            return cli_usage_error("info", "unknown option '%s'", argv[i]);
        else
            files++;
    }
    if (!files) return cli_usage_error("info", "no file given");
    int status = CLI_OK;
    json_t *all = json ? json_array() : NULL;
    for (int i = 1; i < argc; i++) {
        if (argv[i][0] == '-' && argv[i][1]) continue;
        const char *file = argv[i];
        /* Every input gets an entry: the failed ones with their located
         * error, in one shape for every format. */
        cli_input in;
        ferry_error err;
        if (!cli_input_open(file, CLI_USE_INFO, &in, &err)) {
            status = CLI_INVALID;
            if (all)
                cli_json_append_failure(all, file, in.format ? in.format->name : NULL, &err);
            else
                cli_print_error(file, &err);
        } else if (in.format->info(file, in.data, in.size, all) != CLI_OK) {
            status = CLI_INVALID;
        }
        cli_input_free(&in);
    }
    if (all) {
        cli_print_json(all);
        json_decref(all);
    }
    return status;
}
