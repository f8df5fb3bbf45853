/* With ../shared (skipped, 77, without): every texture and normal map the
 * corpus' ODOL models name (every LOD) that exists under the corpus' addons
 * is embedded by the export with the addons as a texture root, and no
 * other. Whether a file exists is decided here by a plain walk of each
 * addon folder (its $PREFIX$ line, else its name; components compared
 * ignoring case; .pac and .paa alike), not through the library. */
#define _DEFAULT_SOURCE
#include <ferry/convert.h>
#include <ferry/odol.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/platform.h"
#include "support.h"
#include "test.h"

/* A string member of a material's extras, copied NUL-terminated into one
 * of a few rotating buffers; NULL when absent. */
static const char *extra_string(const ferry_scene_material *mt, const char *key)
{
    static char buf[4][1024];
    static int next;
    const ferry_json *v = ferry_json_get(mt->extras, key);
    if (!v || v->kind != FERRY_JSON_STRING || v->length >= sizeof buf[0]) return NULL;
    char *out = buf[next++ % 4];
    memcpy(out, v->string, v->length);
    out[v->length] = '\0';
    return out;
}


#define ADDONS FERRY_SHARED_DIR "/corpus/odol/addons"

static bool match_in(const char *dir, const char *rest)
{
    const char *sep = strchr(rest, '\\');
    size_t n = sep ? (size_t)(sep - rest) : strlen(rest);
    fy_folder *d;
    if (fy_folder_open(dir, &d) != 0) return false;
    bool found = false;
    const char *entry;
    fy_file_kind kind;
    while (!found && fy_folder_next(d, &entry, &kind)) {
        size_t el = strlen(entry);
        bool same = el == n && strncasecmp(entry, rest, n) == 0;
        if (!same && !sep && el == n && n > 4 && strncasecmp(entry, rest, n - 4) == 0 &&
            (!strcasecmp(entry + n - 4, ".pac") || !strcasecmp(entry + n - 4, ".paa")) &&
            (!strcasecmp(rest + n - 4, ".pac") || !strcasecmp(rest + n - 4, ".paa")))
            same = true;
        if (!same) continue;
        char sub[1024];
        snprintf(sub, sizeof sub, "%s/%s", dir, entry);
        found = sep ? match_in(sub, sep + 1) : true;
    }
    fy_folder_close(d);
    return found;
}

static bool exists_in_addons(const char *name)
{
    while (*name == '\\') name++;
    fy_folder *d;
    if (fy_folder_open(ADDONS, &d) != 0) return false;
    bool found = false;
    const char *entry;
    fy_file_kind kind;
    while (!found && fy_folder_next(d, &entry, &kind)) {
        if (entry[0] == '.') continue;
        char dir[1024], prefix[256] = "", file[1100];
        snprintf(dir, sizeof dir, "%s/%s", ADDONS, entry);
        snprintf(file, sizeof file, "%s/$PREFIX$", dir);
        FILE *f = fopen(file, "rb");
        if (f) {
            if (!fgets(prefix, sizeof prefix, f)) prefix[0] = '\0';
            fclose(f);
            prefix[strcspn(prefix, "\r\n")] = '\0';
        } else {
            snprintf(prefix, sizeof prefix, "%s", entry);
        }
        size_t pl = strlen(prefix);
        if (pl && strncasecmp(name, prefix, pl) == 0 && name[pl] == '\\') found = match_in(dir, name + pl + 1);
    }
    fy_folder_close(d);
    return found;
}

static void test_corpus(void)
{
    static const char *const models[] = {"v40/CSJ_Cfloat.p3d",    "v40/CSJ_Cmb_proxy.p3d", "v40/CSJ_Cmv_proxy.p3d",
                                         "v40/CSJ_GyroP.p3d",     "v40/CSJ_Gyrob0_proxy.p3d", "v40/CSJ_Gyrov0_proxy.p3d",
                                         "v48/GLT_Billboard_big.p3d", "v48/Ikarus.p3d", "v48/civil_1_tshirt.p3d",
                                         "v48/house_y.p3d",       "v48/zasleh_s.p3d",     "v50/BasicColide.p3d",
                                         "v50/man_hero.p3d",      "v50/p2000.p3d"};
    ferry_file_source addons;
    ferry_error err;
    CHECK(ferry_file_source_folder(ADDONS, &addons, &err) == FERRY_OK);
    ferry_odol_root roots[1] = {{&addons, NULL}};
    unsigned total = 0, exist = 0, embedded = 0;
    for (size_t i = 0; i < sizeof models / sizeof *models; i++) {
        char path[512];
        snprintf(path, sizeof path, "%s/corpus/odol/%s", FERRY_SHARED_DIR, models[i]);
        uint8_t *data;
        size_t size;
        ferry_odol_model *m = NULL;
        CHECK_MSG(ferry_file_load(path, 0, &data, &size, &err) == FERRY_OK, "%s", path);
        CHECK_MSG(ferry_odol_read(data, size, NULL, &m, &err) == FERRY_OK, "%s: %s", path, err.message);
        ferry_file_free(data);
        if (!m) continue;
        ferry_odol_scene_report rep;
        ferry_odol_scene_options o = {0};
        o.all = true;
        o.texture_roots = roots;
        o.texture_root_count = 1;
        o.report = &rep;
        ferry_scene *s = NULL;
        CHECK_MSG(ferry_odol_to_scene(m, &o, &s, &err) == FERRY_OK, "%s: %s", path, err.message);
        for (size_t k = 0; s && k < s->material_count; k++) {
            const ferry_scene_material *mt = &s->materials[k];
            const char *tex = extra_string(mt, "texture");
            if (tex && *tex && *tex != '#') {
                total++;
                bool there = exists_in_addons(tex);
                exist += there;
                embedded += FY_REF(mt, base_color_image) >= 0;
                CHECK_MSG(there == (FY_REF(mt, base_color_image) >= 0), "%s: %s %s but %s", models[i], tex,
                          there ? "is under the addons" : "is not under the addons",
                          FY_REF(mt, base_color_image) >= 0 ? "embedded" : "not embedded");
            }
            const char *nrm = extra_string(mt, "normal_texture");
            if (nrm) {
                bool there = exists_in_addons(nrm);
                CHECK_MSG(there == (FY_REF(mt, normal_image) >= 0), "%s: normal map %s", models[i], nrm);
            }
        }
        ferry_scene_free(s);
        ferry_odol_free(m);
    }
    printf("corpus: %u material textures, %u under the addons, %u embedded\n", total, exist, embedded);
    CHECK(exist > 0 && exist == embedded);
    ferry_file_source_close(&addons);
}

int main(void)
{
    if (!test_dir_exists(ADDONS)) TEST_SKIP("%s not found (the shared corpus is not checked out)", ADDONS);
    test_corpus();
    TEST_END();
}
