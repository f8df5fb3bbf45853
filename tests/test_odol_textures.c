/* The files an ODOL model names, found as the engine finds them
 * (ferry_odol_find_files: addon folders mounted at their $PREFIX$, a
 * P:-drive tree, any case, .pac = .paa, roots in order), and the textured
 * export (docs/formats/odol-gltf.md, "Textures"): tiny PAA files written
 * here byte by byte (the layouts test_paa.c checks), in addon folders of a
 * temporary root; the embedded PNGs decoded with libpng and compared texel
 * by texel with values worked out by hand. With ../shared: every texture
 * the corpus models name that exists under the corpus' addons (found here
 * by a plain walk of each addon folder, not through the library) is
 * embedded. */
#define _DEFAULT_SOURCE
#include <ferry/convert.h>
#include <ferry/odol.h>
#include <ferry/pbo.h>
#include <png.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "support.h"
#include "test.h"

static char top[512];

static void write_file(const char *rel, const void *data, size_t size)
{
    char path[1100];
    snprintf(path, sizeof path, "%s/%s", top, rel);
    FILE *f = fopen(path, "wb");
    CHECK_MSG(f != NULL, "cannot write %s", path);
    if (!f) return;
    CHECK(fwrite(data, 1, size, f) == size);
    fclose(f);
}

static void make_dir(const char *rel)
{
    char path[1100];
    snprintf(path, sizeof path, "%s/%s", top, rel);
    CHECK_MSG(test_make_dir(path), "mkdir %s", path);
}

/* ---- tiny PAA files (docs/formats/paa.md; the pixel values as test_paa.c
 * works them out) ---- */

/* ARGB8888, 2 x 1, stored B G R A, one LZSS flag byte of 8 literals and the
 * signed sum -177: texels (R, G, B, A) = (0x30, 0x20, 0x10, 0x40) and
 * (0xA0, 0x90, 0x80, 0xFF). `tag`: SWIZ (the 05 04 02 03 the _nohq maps
 * carry), FLAG 1 (blended) or FLAG 2 (alpha not interpolated), or none. */
enum { NO_TAG, SWIZ, FLAG_BLEND, FLAG_CUT };
static size_t paa_8888(uint8_t *out, int tag)
{
    size_t n = 0;
    out[n++] = 0x88, out[n++] = 0x88;
    if (tag != NO_TAG) {
        memcpy(out + n, tag == SWIZ ? "GGATZIWS" : "GGATGALF", 8), n += 8;
        out[n++] = 4, out[n++] = 0, out[n++] = 0, out[n++] = 0;
        if (tag == SWIZ)
            out[n++] = 5, out[n++] = 4, out[n++] = 2, out[n++] = 3;
        else
            out[n++] = tag == FLAG_BLEND ? 1 : 2, out[n++] = 0, out[n++] = 0, out[n++] = 0;
    }
    out[n++] = 0, out[n++] = 0; /* palette */
    out[n++] = 2, out[n++] = 0, out[n++] = 1, out[n++] = 0;
    const uint8_t s[] = {0xFF, 0x10, 0x20, 0x30, 0x40, 0x80, 0x90, 0xA0, 0xFF, 0x4F, 0xFF, 0xFF, 0xFF};
    out[n++] = sizeof s, out[n++] = 0, out[n++] = 0;
    memcpy(out + n, s, sizeof s), n += sizeof s;
    for (int k = 0; k < 6; k++) out[n++] = 0;
    return n;
}

/* ARGB1555, 1 x 1: 0xFC1F, opaque magenta (255, 0, 255, 255). */
static size_t paa_1555(uint8_t *out)
{
    const uint8_t b[] = {0x55, 0x15, 0, 0, 1, 0, 1, 0, 7, 0, 0, 0x03, 0x1F, 0xFC, 27, 0, 0, 0, 0, 0, 0, 0, 0, 0};
    memcpy(out, b, sizeof b);
    return sizeof b;
}

/* The RGBA texels of an embedded PNG (malloc'd), NULL unless w x h. */
static uint8_t *decode_png(const ferry_scene_image *im, uint32_t w, uint32_t h)
{
    png_image p;
    memset(&p, 0, sizeof p);
    p.version = PNG_IMAGE_VERSION;
    if (!png_image_begin_read_from_memory(&p, im->data, im->size)) return NULL;
    p.format = PNG_FORMAT_RGBA;
    if (p.width != w || p.height != h) {
        png_image_free(&p);
        return NULL;
    }
    uint8_t *px = malloc(PNG_IMAGE_SIZE(p));
    if (!px || !png_image_finish_read(&p, NULL, px, 0, NULL)) {
        free(px);
        png_image_free(&p);
        return NULL;
    }
    return px;
}

/* The temporary root:
 *   AddonA/$PREFIX$          "tst_addon" + CRLF
 *   AddonA/Data/Body_CO.pac  ARGB8888 (alpha 0x40 and 0xFF), FLAG 1
 *   AddonA/Data/cut_ca.paa   the same texels, FLAG 2
 *   AddonA/Data/noflag.paa   the same texels, no FLAG tag
 *   AddonA/Data/plain.rvmat  a text rvmat whose Stage1 is x\mod\nrm_nohq.paa
 *   AddonA/Data/bad.rvmat    an #include ferry does not expand
 *   PlainAddon/opaque_co.paa ARGB1555 (no prefix file: mounted as "plainaddon")
 *   AddonC/$PBOPREFIX$       "x\mod\addons\c"
 *   AddonC/data/c.paa        ARGB1555
 *   AddonD/$PBOPREFIX$.txt   key=value lines, "PREFIX = keyed\addon_d"
 *   AddonE/pboprefix.txt     a BOM, a blank line, then "/bom/addon_e/"
 *   @mod/addons/deep/$PBOPREFIX$  "z\deep\addons\deep" (a mod's layout)
 *   x/Mod/NRM_NOHQ.paa       ARGB8888 with the _nohq swizzle (a P:-drive path)
 *   other/tst_addon/data/body_co.paa  a second root holding the same name */
static void make_root(void)
{
    CHECK(test_make_temp_dir("ferry-odoltex", top, sizeof top));
    uint8_t b[128];
    make_dir("root");
    make_dir("root/AddonA");
    write_file("root/AddonA/$PREFIX$", "tst_addon\r\n", 11);
    make_dir("root/AddonA/Data");
    write_file("root/AddonA/Data/Body_CO.pac", b, paa_8888(b, FLAG_BLEND));
    write_file("root/AddonA/Data/cut_ca.paa", b, paa_8888(b, FLAG_CUT));
    write_file("root/AddonA/Data/noflag.paa", b, paa_8888(b, NO_TAG));
    const char plain_rvmat[] = "class Stage1\n{\n texture = \"x\\mod\\nrm_nohq.paa\";\n uvSource = \"tex\";\n};\n"
                               "class Stage2 { texture = \"#(argb,8,8,3)color(0.5,0.5,0.5,1,DT)\"; };\n";
    write_file("root/AddonA/Data/plain.rvmat", plain_rvmat, sizeof plain_rvmat - 1);
    write_file("root/AddonA/Data/bad.rvmat", "#include \"x.hpp\"\n", 18);
    make_dir("root/PlainAddon");
    write_file("root/PlainAddon/opaque_co.paa", b, paa_1555(b));
    make_dir("root/AddonC");
    write_file("root/AddonC/$PBOPREFIX$", "x\\mod\\addons\\c", 14);
    make_dir("root/AddonC/data");
    write_file("root/AddonC/data/c.paa", b, paa_1555(b));
    make_dir("root/AddonD");
    const char keyed[] = "version=1.2\nPREFIX = keyed\\addon_d \nMikero=2\n";
    write_file("root/AddonD/$PBOPREFIX$.txt", keyed, sizeof keyed - 1);
    write_file("root/AddonD/d.paa", b, paa_1555(b));
    make_dir("root/AddonE");
    const char bom[] = "\xEF\xBB\xBF\r\n  /bom/addon_e/ \r\nignored\\line\r\n";
    write_file("root/AddonE/pboprefix.txt", bom, sizeof bom - 1);
    write_file("root/AddonE/e.paa", b, paa_1555(b));
    make_dir("root/@mod");
    make_dir("root/@mod/addons");
    make_dir("root/@mod/addons/deep");
    write_file("root/@mod/addons/deep/$PBOPREFIX$", "z\\deep\\addons\\deep", 19);
    write_file("root/@mod/addons/deep/z.paa", b, paa_1555(b));
    make_dir("root/x");
    make_dir("root/x/Mod");
    write_file("root/x/Mod/NRM_NOHQ.paa", b, paa_8888(b, SWIZ));
    write_file("secret.paa", b, paa_1555(b));
    make_dir("other");
    make_dir("other/tst_addon");
    make_dir("other/tst_addon/data");
    write_file("other/tst_addon/data/body_co.paa", b, paa_1555(b));
}

static void test_find(void)
{
    char path[1100];
    ferry_file_source root, other, addon;
    ferry_error err;
    snprintf(path, sizeof path, "%s/root", top);
    CHECK(ferry_file_source_folder(path, &root, &err) == FERRY_OK);
    snprintf(path, sizeof path, "%s/other", top);
    CHECK(ferry_file_source_folder(path, &other, &err) == FERRY_OK);
    snprintf(path, sizeof path, "%s/root/AddonA", top);
    CHECK(ferry_file_source_folder(path, &addon, &err) == FERRY_OK);

    static const struct {
        const char *name;
        const char *want; /* path in the root source, NULL: not found */
    } cases[] = {
        {"tst_addon\\data\\body_co.pac", "AddonA/Data/Body_CO.pac"},   /* by its prefix, case ignored */
        {"TST_ADDON\\DATA\\BODY_CO.PAA", "AddonA/Data/Body_CO.pac"},   /* .paa asked, .pac found */
        {"\\tst_addon/data\\body_co.paa", "AddonA/Data/Body_CO.pac"},  /* leading '\', '/' alike */
        {"plainaddon\\opaque_co.pac", "PlainAddon/opaque_co.paa"},     /* no prefix file: its name */
        {"x\\mod\\addons\\c\\data\\c.paa", "AddonC/data/c.paa"},       /* $PBOPREFIX$, several parts */
        {"keyed\\addon_d\\d.paa", "AddonD/d.paa"},                    /* a "prefix=" line among others */
        {"bom\\addon_e\\e.paa", "AddonE/e.paa"},                      /* a BOM, a blank line, '/' */
        {"ignored\\line\\e.paa", NULL},                                /* only the first line counts */
        {"z\\deep\\addons\\deep\\z.paa", "@mod/addons/deep/z.paa"},  /* a prefix file two folders down */
        {"x\\mod\\nrm_nohq.paa", "x/Mod/NRM_NOHQ.paa"},                /* literal, P:-drive style */
        {"addona\\data\\body_co.paa", "AddonA/Data/Body_CO.pac"},      /* literal too: the folder's path */
        {"tst_addon\\data\\missing.paa", NULL},
        {"tst_addon\\..\\secret.paa", NULL},                           /* never outside the root */
        {"..\\secret.paa", NULL},
        {"#(argb,8,8,3)color(1,0,0,1)", NULL},                         /* procedural: no file */
        {"", NULL},
        {"tst_addon", NULL},                                           /* the prefix alone is no file */
    };
    size_t n = sizeof cases / sizeof *cases;
    const char *names[sizeof cases / sizeof *cases];
    for (size_t i = 0; i < n; i++) names[i] = cases[i].name;
    ferry_odol_found found[sizeof cases / sizeof *cases];
    ferry_odol_root roots[2] = {{&root, NULL}, {&other, NULL}};
    CHECK(ferry_odol_find_files(roots, 1, names, n, found, &err) == FERRY_OK);
    for (size_t i = 0; i < n; i++) {
        if (cases[i].want) {
            CHECK_MSG(found[i].source == &root && found[i].root == 0 && found[i].path &&
                          strcmp(found[i].path, cases[i].want) == 0,
                      "%s: found %s", cases[i].name, found[i].path ? found[i].path : "nothing");
        } else {
            CHECK_MSG(!found[i].source && !found[i].path, "%s: found %s", cases[i].name,
                      found[i].path ? found[i].path : "");
        }
    }
    ferry_odol_found_free(found, n);

    /* Roots in order: the first holding the file wins. */
    const char *body[] = {"tst_addon\\data\\body_co.paa"};
    CHECK(ferry_odol_find_files(roots, 2, body, 1, found, &err) == FERRY_OK);
    CHECK(found[0].source == &root && found[0].root == 0);
    ferry_odol_found_free(found, 1);
    ferry_odol_root swapped[2] = {{&other, NULL}, {&root, NULL}};
    CHECK(ferry_odol_find_files(swapped, 2, body, 1, found, &err) == FERRY_OK);
    CHECK(found[0].source == &other && found[0].root == 0 && found[0].path &&
          strcmp(found[0].path, "tst_addon/data/body_co.paa") == 0);
    ferry_odol_found_free(found, 1);

    /* One addon as a root with its prefix given (a PBO is such a root):
     * names under the prefix only. */
    ferry_odol_root pbo = {&addon, "\\TST_ADDON\\"};
    const char *two[] = {"tst_addon\\data\\body_co.paa", "x\\mod\\nrm_nohq.paa"};
    CHECK(ferry_odol_find_files(&pbo, 1, two, 2, found, &err) == FERRY_OK);
    CHECK(found[0].source == &addon && found[0].path && strcmp(found[0].path, "Data/Body_CO.pac") == 0);
    CHECK(!found[1].source);
    ferry_odol_found_free(found, 2);
    /* A folder holding a $PREFIX$ itself, given as a folder of addons,
     * is that addon too. */
    ferry_odol_root self = {&addon, NULL};
    CHECK(ferry_odol_find_files(&self, 1, body, 1, found, &err) == FERRY_OK);
    CHECK(found[0].source == &addon && found[0].path && strcmp(found[0].path, "Data/Body_CO.pac") == 0);
    ferry_odol_found_free(found, 1);
    /* The prefix "" (the game's root): literal paths only. */
    ferry_odol_root literal = {&root, ""};
    CHECK(ferry_odol_find_files(&literal, 1, body, 1, found, &err) == FERRY_OK);
    CHECK(!found[0].source);
    ferry_odol_found_free(found, 1);
    /* No roots: nothing found; bad arguments refused. */
    CHECK(ferry_odol_find_files(NULL, 0, body, 1, found, &err) == FERRY_OK && !found[0].source);
    CHECK(ferry_odol_find_files(NULL, 1, body, 1, found, &err) == FERRY_ERR_ARGUMENT);
    ferry_file_source_close(&root);
    ferry_file_source_close(&other);
    ferry_file_source_close(&addon);
}

/* A PBO archive is a root with its prefix (ferry_file_source_pbo's paths
 * leave the prefix out): its textures found under it, in another case and
 * with .pac for .paa, and nothing else. */
static void test_pbo(void)
{
    uint8_t b[128];
    size_t n = paa_1555(b);
    ferry_pbo_pack_file files[2] = {{"Data\\Body_CO.pac", b, n, 0}, {"other.paa", b, n, 0}};
    ferry_pbo_pack_options po = {NULL, 0, "tst_pbo\\addon"};
    ferry_buffer buf = {0};
    ferry_error err;
    CHECK(ferry_pbo_pack(files, 2, &po, &buf, &err) == FERRY_OK);
    ferry_pbo *pbo = NULL;
    CHECK_MSG(ferry_pbo_read(buf.data, buf.size, NULL, &pbo, &err) == FERRY_OK, "%s", err.message);
    ferry_file_source src;
    if (pbo && ferry_file_source_pbo(pbo, &src, &err) == FERRY_OK) {
        const char *prefix = ferry_pbo_property_value(pbo, "prefix");
        CHECK(prefix && strcmp(prefix, "tst_pbo\\addon") == 0);
        ferry_odol_root root = {&src, prefix};
        const char *names[] = {"\\TST_PBO\\Addon\\data\\body_co.paa", "tst_pbo\\addon\\other.pac", "tst_pbo\\other.paa",
                               "other.paa"};
        ferry_odol_found found[4];
        CHECK(ferry_odol_find_files(&root, 1, names, 4, found, &err) == FERRY_OK);
        CHECK(found[0].source == &src && found[0].path && strcmp(found[0].path, "Data/Body_CO.pac") == 0);
        CHECK(found[1].source == &src && found[1].path && strcmp(found[1].path, "other.paa") == 0);
        CHECK(!found[2].source && !found[3].source);
        ferry_odol_found_free(found, 4);
        ferry_file_source_close(&src);
    } else {
        CHECK_MSG(false, "PBO source: %s", err.message);
    }
    ferry_pbo_free(pbo);
    ferry_buffer_free(&buf);
}

/* One LOD (1.000), six separate triangles, one per section:
 *   0: tst_addon\data\body_co.paa   (found, blended: FLAG 1)
 *   1: \TST_ADDON\DATA\BODY_CO.PAC  (the same file: the same image), with
 *      material record 0, whose stage 1 is the normal map x\mod\nrm_nohq.paa
 *   2: tst_addon\data\missing_co.paa (not found)
 *   3: plainaddon\opaque_co.paa      (opaque texels)
 *   4: tst_addon\data\cut_ca.paa    (FLAG 2: a cut-out)
 *   5: tst_addon\data\noflag.paa    (alpha 0x40 but no FLAG tag: opaque) */
#define TRIS 6
static const char *const tex_names[TRIS] = {"tst_addon\\data\\body_co.paa",    "\\TST_ADDON\\DATA\\BODY_CO.PAC",
                                            "tst_addon\\data\\missing_co.paa", "plainaddon\\opaque_co.paa",
                                            "tst_addon\\data\\cut_ca.paa",     "tst_addon\\data\\noflag.paa"};

static ferry_odol_model *build_model(float *pos, uint8_t *posb, uint8_t *uvb, ferry_odol_stage_texture *stages,
                                     ferry_odol_material *mat)
{
    ferry_odol_model *m = calloc(1, sizeof *m);
    m->version = 40;
    m->lod_count = 1;
    m->lods = calloc(1, sizeof *m->lods);
    m->resolutions = calloc(1, sizeof *m->resolutions);
    memset(m->info.special_lods, 0xFF, sizeof m->info.special_lods);
    m->info.class_name = m->info.damage = "";
    m->info.skeleton.name = "";
    ferry_odol_lod *l = &m->lods[0];
    l->resolution = 1.0f;
    l->permanent = true;
    l->faces_offset = l->offset = FERRY_NO_OFFSET;
    for (int t = 0; t < TRIS; t++) {
        const float tri[9] = {(float)t, 0, 0, (float)t + 1, 0, 0, (float)t, 1, 0};
        memcpy(pos + 9 * t, tri, sizeof tri);
    }
    memcpy(posb, pos, 3 * TRIS * 3 * sizeof(float)); /* little-endian hosts, as the tests' build assumes */
    l->positions.data = posb;
    l->positions.count = 3 * TRIS;
    l->positions.offset = FERRY_NO_OFFSET;
    for (int v = 0; v < 3 * TRIS; v++) {
        const float uv[2] = {(float)(v % 3 == 1), (float)(v % 3 == 2)};
        memcpy(uvb + 8 * v, uv, 8);
    }
    l->uv_sets = calloc(1, sizeof *l->uv_sets);
    l->uv_set_count = 1;
    l->uv_sets[0].array.data = uvb;
    l->uv_sets[0].array.count = 3 * TRIS;
    l->uv_sets[0].array.offset = FERRY_NO_OFFSET;
    l->faces = calloc(TRIS, sizeof *l->faces);
    l->face_count = TRIS;
    l->sections = calloc(TRIS, sizeof *l->sections);
    l->section_count = TRIS;
    for (int t = 0; t < TRIS; t++) {
        l->faces[t].count = 3;
        for (int c = 0; c < 3; c++) l->faces[t].vertices[c] = (uint16_t)(3 * t + c);
        l->sections[t].face_begin = 8 * t, l->sections[t].face_end = 8 * t + 8;
        l->sections[t].texture = (int16_t)t;
        l->sections[t].material = -1;
        l->sections[t].material_name = "";
    }
    l->textures = (const char **)tex_names;
    l->texture_count = TRIS;
    /* .rvmat files named by sections without a record: read (its normal
     * stage used), absent, unreadable. */
    l->sections[2].material_name = "tst_addon\\data\\plain.rvmat";
    l->sections[3].material_name = "tst_addon\\data\\nothere.rvmat";
    l->sections[4].material_name = "tst_addon\\data\\bad.rvmat";
    memset(mat, 0, sizeof *mat);
    mat->name = "tst_addon\\data\\body.rvmat";
    mat->surface = "";
    stages[0] = (ferry_odol_stage_texture){0, "", 0};
    stages[1] = (ferry_odol_stage_texture){3, "x\\mod\\nrm_nohq.paa", 1};
    stages[2] = (ferry_odol_stage_texture){3, "#(argb,8,8,3)color(0.5,0.5,0.5,1,dt)", 2};
    mat->stages = stages;
    mat->stage_count = 3;
    l->materials = mat;
    l->material_count = 1;
    l->sections[1].material = 0;
    m->resolutions[0] = 1.0f;
    return m;
}

static void free_model(ferry_odol_model *m)
{
    free(m->lods[0].uv_sets);
    free(m->lods[0].faces);
    free(m->lods[0].sections);
    free(m->lods);
    free(m->resolutions);
    free(m);
}

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

static void test_export(void)
{
    float pos[9 * TRIS];
    uint8_t posb[36 * TRIS], uvb[24 * TRIS];
    ferry_odol_stage_texture stages[3];
    ferry_odol_material mat;
    ferry_odol_model *m = build_model(pos, posb, uvb, stages, &mat);
    char path[1100];
    snprintf(path, sizeof path, "%s/root", top);
    ferry_file_source root;
    ferry_error err;
    CHECK(ferry_file_source_folder(path, &root, &err) == FERRY_OK);
    ferry_odol_root roots[1] = {{&root, NULL}};
    ferry_diagnostics diags = {0};
    ferry_odol_scene_report rep;
    ferry_odol_scene_options o = {0};
    o.texture_roots = roots;
    o.texture_root_count = 1;
    o.diagnostics = &diags;
    o.report = &rep;
    ferry_scene *s = NULL;
    CHECK_MSG(ferry_odol_to_scene(m, &o, &s, &err) == FERRY_OK, "%s", err.message);
    if (!s) {
        free_model(m);
        ferry_file_source_close(&root);
        return;
    }
    /* 7 names (the two spellings of body_co count apart), 6 found, 5
     * images: body_co once for both spellings, the normal map, opaque_co,
     * cut_ca, noflag. */
    CHECK_EQ_U(rep.textures, 7);
    CHECK_EQ_U(rep.textures_found, 6);
    CHECK_EQ_U(rep.images, 5);
    CHECK_EQ_U(s->image_count, 5);
    CHECK_EQ_U(rep.missing_texture_count, 1);
    CHECK(rep.missing_texture_count == 1 && strcmp(rep.missing_textures[0], tex_names[2]) == 0);
    /* 4 .rvmat names (the record's body.rvmat, not under the root; plain,
     * nothere, bad), 1 read. */
    CHECK_EQ_U(rep.rvmats, 4);
    CHECK_EQ_U(rep.rvmats_read, 1);
    CHECK_EQ_U(diags.warning_count, 2);
    bool missing_warned = false, rvmat_warned = false;
    for (size_t i = 0; i < diags.count; i++) {
        missing_warned |= !strcmp(diags.items[i].rule, "texture-missing") && strstr(diags.items[i].message, "missing_co.paa");
        rvmat_warned |= !strcmp(diags.items[i].rule, "rvmat-unreadable") && strstr(diags.items[i].message, "bad.rvmat");
    }
    CHECK(missing_warned && rvmat_warned);
    CHECK_EQ_U(s->material_count, TRIS);
    CHECK(s->mesh_count == 1 && s->meshes[0].primitive_count == TRIS);
    const ferry_scene_material *mt[TRIS] = {NULL};
    for (size_t p = 0; p < TRIS && s->mesh_count == 1 && p < s->meshes[0].primitive_count; p++) {
        int32_t i = FY_REF(&s->meshes[0].primitives[p], material);
        CHECK(i >= 0 && (size_t)i < s->material_count);
        if (i >= 0 && (size_t)i < s->material_count) mt[p] = &s->materials[i];
    }
    if (mt[0] && mt[1] && mt[2] && mt[3] && mt[4] && mt[5]) {
        /* Section 0: the ARGB8888 texels as they are, blended (FLAG 1). */
        CHECK(FY_REF(mt[0], base_color_image) >= 0 && mt[0]->base_color_texcoord == 0);
        CHECK(mt[0]->alpha_mode == FERRY_ALPHA_BLEND);
        CHECK(FY_REF(mt[0], normal_image) < 0);
        const char *file = extra_string(mt[0], "texture_file");
        CHECK_MSG(file && strstr(file, "AddonA/Data/Body_CO.pac"), "texture_file %s", file ? file : "none");
        if (FY_REF(mt[0], base_color_image) >= 0) {
            uint8_t *px = decode_png(&s->images[FY_REF(mt[0], base_color_image)], 2, 1);
            const uint8_t want[8] = {0x30, 0x20, 0x10, 0x40, 0xA0, 0x90, 0x80, 0xFF};
            CHECK(px && memcmp(px, want, 8) == 0);
            free(px);
            CHECK(strcmp(s->images[FY_REF(mt[0], base_color_image)].name, "body_co") == 0);
        }
        /* Section 1: the same image; the normal map swizzled (x from the
         * inverted alpha: 0xFF - 0x40 = 0xBF, 0xFF - 0xFF = 0), green
         * inverted from the engine's convention (0xFF - 0x20 = 0xDF,
         * 0xFF - 0x90 = 0x6F), blue as stored, opaque. */
        CHECK(FY_REF(mt[1], base_color_image) == FY_REF(mt[0], base_color_image));
        CHECK(FY_REF(mt[1], normal_image) >= 0 && FY_REF(mt[1], normal_image) != FY_REF(mt[0], base_color_image));
        const char *normal = extra_string(mt[1], "normal_texture");
        CHECK(normal && strcmp(normal, "x\\mod\\nrm_nohq.paa") == 0);
        if (FY_REF(mt[1], normal_image) >= 0) {
            uint8_t *px = decode_png(&s->images[FY_REF(mt[1], normal_image)], 2, 1);
            const uint8_t want[8] = {0xBF, 0xDF, 0x10, 0xFF, 0x00, 0x6F, 0x80, 0xFF};
            CHECK(px && memcmp(px, want, 8) == 0);
            free(px);
        }
        const ferry_json *rec = ferry_json_get(mt[1]->extras, "rvmat_record");
        CHECK(rec && ferry_json_get(rec, "stages") && ferry_json_get(rec, "stages")->count == 3);
        /* Section 2: white, and the extras name the file not found; its
         * .rvmat file gives the normal map (the same image as the record's)
         * and its stages are listed. */
        CHECK(FY_REF(mt[2], base_color_image) < 0 && mt[2]->alpha_mode == FERRY_ALPHA_OPAQUE);
        const char *nf = extra_string(mt[2], "texture_not_found");
        CHECK(nf && strcmp(nf, tex_names[2]) == 0);
        CHECK(FY_REF(mt[2], normal_image) >= 0 && FY_REF(mt[2], normal_image) == FY_REF(mt[1], normal_image));
        const char *rf = extra_string(mt[2], "rvmat_file");
        CHECK(rf && strstr(rf, "AddonA/Data/plain.rvmat"));
        const ferry_json *st = ferry_json_get(mt[2]->extras, "rvmat_stages");
        CHECK(st && st->kind == FERRY_JSON_ARRAY && st->count == 2);
        if (st && st->count == 2) {
            const ferry_json *role = ferry_json_get(st->items[0], "role");
            CHECK(role && role->length == 6 && memcmp(role->string, "normal", 6) == 0);
        }
        /* Sections 3 and 4: the .rvmat not found, and not readable. */
        const char *rnf = extra_string(mt[3], "rvmat_not_found");
        CHECK(rnf && strstr(rnf, "nothere.rvmat"));
        CHECK(extra_string(mt[4], "rvmat_not_read") != NULL && extra_string(mt[4], "rvmat_file") == NULL);
        /* Section 3: opaque. */
        CHECK(FY_REF(mt[3], base_color_image) >= 0 && mt[3]->alpha_mode == FERRY_ALPHA_OPAQUE);
        if (FY_REF(mt[3], base_color_image) >= 0) {
            uint8_t *px = decode_png(&s->images[FY_REF(mt[3], base_color_image)], 1, 1);
            const uint8_t want[4] = {255, 0, 255, 255};
            CHECK(px && memcmp(px, want, 4) == 0);
            free(px);
        }
        /* Sections 4 and 5: the same texels; FLAG 2 is a cut-out, no FLAG
         * tag opaque. */
        CHECK(FY_REF(mt[4], base_color_image) >= 0 && mt[4]->alpha_mode == FERRY_ALPHA_MASK && mt[4]->alpha_cutoff == 0.5f);
        CHECK(FY_REF(mt[5], base_color_image) >= 0 && mt[5]->alpha_mode == FERRY_ALPHA_OPAQUE);
    }
    ferry_scene_free(s);
    ferry_diagnostics_free(&diags);

    /* A procedural colour on the section with the record: the colour as
     * base colour factor, the record's normal map still embedded. */
    const char *procedural[TRIS] = {tex_names[0], "#(argb,8,8,3)color(1,0,0,1,co)", tex_names[2],
                                    tex_names[3], tex_names[4], tex_names[5]};
    m->lods[0].textures = procedural;
    CHECK(ferry_odol_to_scene(m, &o, &s, &err) == FERRY_OK);
    if (s && s->mesh_count == 1 && s->meshes[0].primitive_count == TRIS) {
        int32_t i = FY_REF(&s->meshes[0].primitives[1], material);
        CHECK(i >= 0);
        if (i >= 0) {
            const ferry_scene_material *pm = &s->materials[i];
            CHECK(FY_REF(pm, base_color_image) < 0 && pm->base_color_factor[0] == 1.0f && pm->base_color_factor[1] == 0.0f);
            CHECK(FY_REF(pm, normal_image) >= 0);
        }
    }
    ferry_scene_free(s);
    ferry_diagnostics_free(&diags);
    m->lods[0].textures = (const char **)tex_names;

    /* Without roots: paths in extras only, no image, no warning. */
    ferry_odol_scene_options plain = {0};
    plain.report = &rep;
    CHECK(ferry_odol_to_scene(m, &plain, &s, &err) == FERRY_OK);
    if (s) {
        CHECK_EQ_U(s->image_count, 0);
        CHECK_EQ_U(rep.textures, 0);
        for (size_t i = 0; i < s->material_count; i++) CHECK(FY_REF(&s->materials[i], base_color_image) < 0);
        ferry_scene_free(s);
    }
    ferry_file_source_close(&root);
    free_model(m);
}

int main(void)
{
    make_root();
    test_find();
    test_pbo();
    test_export();
    CHECK(test_remove_tree(top));
    TEST_END();
}
