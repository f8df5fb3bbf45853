/* Materials as the game draws them (docs/formats/gltf-export.md,
 * "Materials"): a colorize shader's base colour carries no alpha and its
 * mask is an image of its own; the base texture is the emissive texture
 * when Emissive is set; a blended shader whose texture is missing stays
 * blended; missing textures are reported once each. Textures are small
 * TGA files written to a temporary folder; the embedded PNGs are decoded
 * with libpng and compared texel by texel. */
#define _DEFAULT_SOURCE
#include <ferry/convert.h>
#include <ferry/gltf.h>
#include <jansson.h>
#include <png.h>
#include <stdio.h>
#include <stdlib.h>

#include "support.h"
#include "test.h"

#define W 4
#define H 2

/* The texture: every texel a different colour, alpha 0 on half of them (the
 * faction mask of a colorize shader), other alphas in between. */
static void texel(int x, int y, uint8_t rgba[4])
{
    rgba[0] = (uint8_t)(40 + 50 * x);
    rgba[1] = (uint8_t)(30 + 100 * y);
    rgba[2] = (uint8_t)(200 - 20 * x - 10 * y);
    rgba[3] = (uint8_t)(x < 2 ? 0 : 100 + 100 * y + (x == 3));
}

static bool write_tga(const char *path)
{
    uint8_t header[18] = {0};
    header[2] = 2; /* uncompressed true colour */
    header[12] = W;
    header[14] = H;
    header[16] = 32;
    header[17] = 0x28; /* 8 alpha bits, rows top to bottom */
    FILE *f = fopen(path, "wb");
    if (!f) return false;
    fwrite(header, 1, sizeof header, f);
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            uint8_t c[4];
            texel(x, y, c);
            uint8_t bgra[4] = {c[2], c[1], c[0], c[3]};
            fwrite(bgra, 1, 4, f);
        }
    return fclose(f) == 0;
}

/* The RGBA texels of an embedded PNG (malloc'd), NULL when it is not W x H. */
static uint8_t *decode_png(const ferry_scene_image *im)
{
    png_image p;
    memset(&p, 0, sizeof p);
    p.version = PNG_IMAGE_VERSION;
    if (!png_image_begin_read_from_memory(&p, im->data, im->size)) return NULL;
    p.format = PNG_FORMAT_RGBA;
    if (p.width != W || p.height != H) {
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

/* A DDS of 8 x 4 texels, two mip levels (8x4, 4x2), in `kind` ("DXT1" or
 * "DXT5"): blocks whose colour endpoints come in each order (c0 > c1, c0 <
 * c1, c0 == c1), every index used, alphas varied; `transparent` (DXT1):
 * one block in three-colour mode using index 3. */
static bool write_dds(const char *path, const char *kind, bool transparent)
{
    bool dxt1 = strcmp(kind, "DXT1") == 0;
    uint8_t h[128] = {0};
    memcpy(h, "DDS ", 4);
    h[4] = 124;
    h[8] = 0x07, h[9] = 0x10, h[10] = 0x0a; /* CAPS HEIGHT WIDTH PIXELFORMAT MIPMAPCOUNT LINEARSIZE */
    h[12] = 4;                               /* height */
    h[16] = 8;                               /* width */
    h[28] = 2;                               /* mip levels */
    h[76] = 32;
    h[80] = 0x4; /* FOURCC */
    memcpy(h + 84, kind, 4);
    static const uint16_t ends[3][2] = {{0xF800, 0x001F}, {0x07E0, 0xFFE0}, {0x1234, 0x1234}};
    FILE *f = fopen(path, "wb");
    if (!f) return false;
    fwrite(h, 1, sizeof h, f);
    for (int b = 0; b < 3; b++) { /* two blocks of the top level, one of the next */
        uint8_t block[16] = {0}, *colour = dxt1 ? block : block + 8;
        if (!dxt1) {
            block[0] = 200, block[1] = 10; /* alpha endpoints */
            for (int k = 2; k < 8; k++) block[k] = (uint8_t)(0x5a + 37 * k + b);
        }
        uint16_t c0 = ends[b][0], c1 = ends[b][1];
        if (dxt1 && transparent && b == 1) c0 = 0x0010, c1 = 0x8000; /* c0 <= c1: index 3 transparent */
        colour[0] = (uint8_t)c0, colour[1] = (uint8_t)(c0 >> 8), colour[2] = (uint8_t)c1, colour[3] = (uint8_t)(c1 >> 8);
        colour[4] = 0xe4, colour[5] = 0x1b, colour[6] = 0x93, colour[7] = 0x6c; /* every index */
        fwrite(block, 1, dxt1 ? 8 : 16, f);
    }
    return fclose(f) == 0;
}

static uint32_t fy_test_u32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* A file's bytes (malloc'd), NULL when it cannot be read. */
static uint8_t *read_all(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    uint8_t *data = malloc(1 << 16);
    *size = data ? fread(data, 1, 1 << 16, f) : 0;
    fclose(f);
    return data;
}

enum { BODY, PLAIN, DARK, GLOW, WINDOW, HULL, MESHES };
static const char *const mesh_names[MESHES] = {"Body", "Plain", "Dark", "Glow", "Window", "Hull"};
static const char *const shaders[MESHES] = {"MeshGlossColorize.fx", "MeshGloss.fx", "MeshGloss.fx",
                                            "MeshAdditive.fx",      "MeshAlpha.fx", "MeshBumpColorize.fx"};
static const char *const textures[MESHES] = {"body.tga", "BODY.TGA", "body.tga", "nothere.dds", "NotHere.dds", "hull.dds"};
static const float emissive[MESHES] = {0.5f, 0.0f, 0.25f, 0.0f, 0.0f, 0.125f};

static const ferry_scene_material *material_of(const ferry_scene *s, const char *mesh)
{
    for (size_t i = 0; i < s->node_count; i++)
        if (s->nodes[i].name && strcmp(s->nodes[i].name, mesh) == 0 && FY_REF(&s->nodes[i], mesh) >= 0) {
            const ferry_scene_mesh *m = &s->meshes[FY_REF(&s->nodes[i], mesh)];
            if (m->primitive_count && FY_REF(&m->primitives[0], material) >= 0) return &s->materials[FY_REF(&m->primitives[0], material)];
        }
    return NULL;
}

static void check_textured(const ferry_scene *s)
{
    uint8_t expect[W * H * 4];
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) texel(x, y, &expect[4 * (y * W + x)]);

    /* Colorize: opaque, base colour without alpha, the mask apart. */
    const ferry_scene_material *body = material_of(s, "Body");
    CHECK(body != NULL);
    if (body) {
        CHECK(body->alpha_mode == FERRY_ALPHA_OPAQUE);
        CHECK(FY_REF(body, base_color_image) >= 0);
        if (FY_REF(body, base_color_image) >= 0) {
            uint8_t *px = decode_png(&s->images[FY_REF(body, base_color_image)]);
            CHECK(px != NULL);
            for (int i = 0; px && i < W * H; i++) {
                CHECK_MSG(memcmp(&px[4 * i], &expect[4 * i], 3) == 0, "colour texel %d kept", i);
                CHECK_MSG(px[4 * i + 3] == 255, "colour texel %d: alpha %d, expected 255 (the mask is not transparency)", i,
                          px[4 * i + 3]);
            }
            free(px);
        }
        json_t *x = json_loads(test_extras_text(body->extras), 0, NULL);
        json_t *mask = json_object_get(json_object_get(x, "faction_mask"), "image");
        CHECK_MSG(json_is_integer(mask), "faction_mask names the mask image");
        json_int_t mi = json_integer_value(mask);
        CHECK(mi >= 0 && (size_t)mi < s->image_count && mi != FY_REF(body, base_color_image));
        if (mi >= 0 && (size_t)mi < s->image_count) {
            CHECK(strstr(s->images[mi].name, "mask") != NULL);
            uint8_t *px = decode_png(&s->images[mi]);
            CHECK(px != NULL);
            for (int i = 0; px && i < W * H; i++) {
                uint8_t a = expect[4 * i + 3];
                CHECK_MSG(px[4 * i] == a && px[4 * i + 1] == a && px[4 * i + 2] == a && px[4 * i + 3] == 255,
                          "mask texel %d: %d, expected the alpha %d as grey", i, px[4 * i], a);
            }
            free(px);
        }
        json_decref(x);
        /* Emissive: the texture (its colour variant) times Emissive. */
        CHECK(FY_REF(body, emissive_image) == FY_REF(body, base_color_image));
        CHECK_NEAR(body->emissive_factor[0], 0.5, 1e-6);
    }
    /* A lit shader keeps the texture as it is; no Emissive, no emissive texture. */
    const ferry_scene_material *plain = material_of(s, "Plain");
    CHECK(plain != NULL);
    if (plain) {
        CHECK(FY_REF(plain, base_color_image) >= 0 && body && FY_REF(plain, base_color_image) != FY_REF(body, base_color_image));
        CHECK(FY_REF(plain, emissive_image) == -1);
        if (FY_REF(plain, base_color_image) >= 0) {
            uint8_t *px = decode_png(&s->images[FY_REF(plain, base_color_image)]);
            CHECK(px != NULL && memcmp(px, expect, sizeof expect) == 0);
            free(px);
        }
    }
    const ferry_scene_material *dark = material_of(s, "Dark");
    CHECK(dark != NULL);
    if (dark && plain) {
        CHECK(FY_REF(dark, base_color_image) == FY_REF(plain, base_color_image)); /* one file, one plain image */
        CHECK(FY_REF(dark, emissive_image) == FY_REF(dark, base_color_image));
        CHECK_NEAR(dark->emissive_factor[1], 0.25, 1e-6);
    }
    /* body.tga: colour, mask, plain. */
    CHECK_EQ_U(s->image_count, 3);
}

/* Blended shaders without their texture stay blended; opaque ones opaque. */
static void check_untextured(const ferry_scene *s)
{
    const ferry_scene_material *glow = material_of(s, "Glow"), *window = material_of(s, "Window"), *hull = material_of(s, "Hull");
    CHECK(glow && window && hull);
    if (!glow || !window || !hull) return;
    CHECK(FY_REF(glow, base_color_image) == -1 && glow->alpha_mode == FERRY_ALPHA_BLEND && glow->unlit);
    CHECK_MSG(glow->base_color_factor[3] > 0 && glow->base_color_factor[3] <= 0.5f, "additive without texture: alpha %g",
              glow->base_color_factor[3]);
    CHECK(FY_REF(window, base_color_image) == -1 && window->alpha_mode == FERRY_ALPHA_BLEND);
    CHECK_MSG(window->base_color_factor[3] > 0 && window->base_color_factor[3] <= 0.5f, "alpha without texture: alpha %g",
              window->base_color_factor[3]);
    CHECK(FY_REF(hull, base_color_image) == -1 && hull->alpha_mode == FERRY_ALPHA_OPAQUE && hull->base_color_factor[3] == 1.0f);
    /* Without a texture the emissive factor stays alone. */
    CHECK(FY_REF(hull, emissive_image) == -1);
    CHECK_NEAR(hull->emissive_factor[2], 0.125, 1e-6);
    json_t *x = json_loads(test_extras_text(glow->extras), 0, NULL);
    CHECK(json_string_value(json_object_get(x, "texture_not_embedded")) &&
          strcmp(json_string_value(json_object_get(x, "texture_not_embedded")), "nothere.dds") == 0);
    json_decref(x);
}

int main(void)
{
    char dir[512];
    CHECK(test_make_temp_dir("ferry_test_look", dir, sizeof dir));
    char tga[600];
    snprintf(tga, sizeof tga, "%s/body.tga", dir);
    CHECK(write_tga(tga));

    ferry_alo_bone bone;
    memset(&bone, 0, sizeof bone);
    bone.name = "Root";
    bone.parent = -1;
    bone.visible = 1;
    bone.matrix[0] = bone.matrix[5] = bone.matrix[10] = 1;
    ferry_alo_vertex vertices[3];
    memset(vertices, 0, sizeof vertices);
    for (int v = 0; v < 3; v++) {
        vertices[v].position[0] = (float)(v == 1);
        vertices[v].position[1] = (float)(v == 2);
        vertices[v].normal[2] = 1;
        vertices[v].texcoord[0][0] = (float)(v == 1);
        vertices[v].texcoord[0][1] = (float)(v == 2);
    }
    uint16_t indices[3] = {0, 1, 2};
    ferry_alo_shader_param params[MESHES][3];
    ferry_alo_submesh submeshes[MESHES];
    ferry_alo_mesh meshes[MESHES];
    ferry_alo_connection connections[MESHES];
    memset(params, 0, sizeof params);
    memset(submeshes, 0, sizeof submeshes);
    memset(meshes, 0, sizeof meshes);
    memset(connections, 0, sizeof connections);
    for (int k = 0; k < MESHES; k++) {
        params[k][0].type = FERRY_ALO_PARAM_TEXTURE;
        params[k][0].name = "BaseTexture";
        params[k][0].texture = textures[k];
        params[k][1].type = FERRY_ALO_PARAM_FLOAT4;
        params[k][1].name = "Emissive";
        params[k][1].value[0] = params[k][1].value[1] = params[k][1].value[2] = emissive[k];
        params[k][2].type = FERRY_ALO_PARAM_FLOAT4;
        params[k][2].name = k == GLOW ? "Color" : "Diffuse";
        params[k][2].value[0] = params[k][2].value[1] = params[k][2].value[2] = 1;
        submeshes[k].material.shader = shaders[k];
        submeshes[k].material.params = params[k];
        submeshes[k].material.param_count = 3;
        submeshes[k].vertex_format = "alD3dVertNU2";
        submeshes[k].vertices = vertices;
        submeshes[k].vertex_count = 3;
        submeshes[k].indices = indices;
        submeshes[k].triangle_count = 1;
        meshes[k].name = mesh_names[k];
        meshes[k].submeshes = &submeshes[k];
        meshes[k].submesh_count = 1;
        connections[k].object = (uint32_t)k;
    }
    ferry_alo_model model;
    memset(&model, 0, sizeof model);
    model.skeleton.bones = &bone;
    model.skeleton.bone_count = 1;
    model.meshes = meshes;
    model.mesh_count = MESHES;
    model.connections.objects = connections;
    model.connections.object_count = MESHES;

    const char *dirs[1] = {dir};
    ferry_alo_scene_report report;
    ferry_diagnostics diags = {0};
    ferry_alo_scene_options options;
    memset(&options, 0, sizeof options);
    char name[256];
    ferry_alamo_texture_folders folders;
    test_alo_scene_paths(&options, NULL, dirs, 1, name, sizeof name, &folders);
    options.report = &report;
    options.diagnostics = &diags;
    ferry_scene *scene = NULL;
    ferry_error err;
    CHECK(ferry_alo_to_scene(&model, &options, &scene, &err) == FERRY_OK);
    if (scene) {
        check_textured(scene);
        check_untextured(scene);
        /* The missing names, once each whatever their case: nothere.dds, hull.dds. */
        CHECK_EQ_U(report.missing_texture_count, 2);
        if (report.missing_texture_count == 2) {
            CHECK(strcmp(report.missing_textures[0], "nothere.dds") == 0);
            CHECK(strcmp(report.missing_textures[1], "hull.dds") == 0);
        }
        size_t missing_warnings = 0;
        for (size_t i = 0; i < diags.count; i++) missing_warnings += strcmp(diags.items[i].rule, "texture-missing") == 0;
        CHECK_EQ_U(missing_warnings, 2);
        json_t *sx = json_loads(test_extras_text(scene->extras), 0, NULL);
        CHECK_EQ_U(json_array_size(json_object_get(sx, "missing_textures")), 2);
        json_decref(sx);
        /* The file as the glTF writer makes it passes its own checks. */
        ferry_buffer glb = {0};
        CHECK(ferry_gltf_write_glb(scene, &glb, &err) == FERRY_OK);
        ferry_buffer_free(&glb);
        ferry_scene_free(scene);
    }
    ferry_diagnostics_free(&diags);

    /* no_faction_masks: the colorize material keeps its colour image, but
     * no mask image and no extras naming one; the plain image stays. */
    options.no_faction_masks = true;
    options.diagnostics = NULL;
    CHECK(ferry_alo_to_scene(&model, &options, &scene, &err) == FERRY_OK);
    if (scene) {
        CHECK_EQ_U(scene->image_count, 2);
        const ferry_scene_material *body = material_of(scene, "Body"), *plain = material_of(scene, "Plain");
        CHECK(body && FY_REF(body, base_color_image) >= 0);
        CHECK(plain && FY_REF(plain, base_color_image) >= 0 && body &&
              FY_REF(plain, base_color_image) != FY_REF(body, base_color_image));
        for (size_t i = 0; i < scene->image_count; i++) CHECK(strstr(scene->images[i].name, "mask") == NULL);
        json_t *x = body ? json_loads(test_extras_text(body->extras), 0, NULL) : NULL;
        CHECK(x && json_object_get(x, "faction_mask") == NULL && json_object_get(x, "shader") != NULL);
        json_decref(x);
        ferry_scene_free(scene);
    }
    options.no_faction_masks = false;

    /* native_textures: the plain material's image is the TGA file where
     * it lies (its absolute path, no bytes), named in the glTF by that path
     * and no mimeType; the colorize colour (its alpha dropped) and mask are
     * still embedded, as before. */
    options.native_textures = true;
    CHECK(ferry_alo_to_scene(&model, &options, &scene, &err) == FERRY_OK);
    if (scene) {
        CHECK_EQ_U(scene->image_count, 3);
        const ferry_scene_material *body = material_of(scene, "Body"), *plain = material_of(scene, "Plain");
        int32_t pi = plain ? FY_REF(plain, base_color_image) : -1, bi = body ? FY_REF(body, base_color_image) : -1;
        CHECK(pi >= 0 && bi >= 0 && pi != bi);
        /* The system's absolute name of body.tga (links resolved; on
         * Windows a drive and backslashes): the same file, '/'-separated in
         * the glTF. */
        const char *linked = pi >= 0 ? scene->images[pi].linked_path : NULL;
        char uri[1200] = "";
        CHECK(linked != NULL);
        if (linked) {
            size_t n = strlen(linked);
            CHECK(linked[0] == '/' || (n > 2 && linked[1] == ':' && linked[2] == '\\'));
            CHECK(n > 9 && strcmp(linked + n - 8, "body.tga") == 0 && (linked[n - 9] == '/' || linked[n - 9] == '\\'));
            uint8_t *a = NULL, *b = NULL;
            size_t as = 0, bs = 0;
            CHECK(ferry_file_load(linked, 0, &a, &as, &err) == FERRY_OK && ferry_file_load(tga, 0, &b, &bs, &err) == FERRY_OK);
            CHECK(a && b && as == bs && memcmp(a, b, as) == 0);
            ferry_file_free(a);
            ferry_file_free(b);
            for (size_t k = 0; k < n && k + 1 < sizeof uri; k++) uri[k] = linked[k] == '\\' ? '/' : linked[k];
            uri[n < sizeof uri ? n : sizeof uri - 1] = '\0';
        }
        if (pi >= 0 && linked) {
            const ferry_scene_image *im = &scene->images[pi];
            CHECK(im->data == NULL && im->size == 0 && im->mime_type == NULL);
            CHECK(im->name && strcmp(im->name, "BODY") == 0);
        }
        for (size_t i = 0; i < scene->image_count; i++)
            CHECK_MSG((int32_t)i == pi || (!scene->images[i].linked_path && scene->images[i].data),
                      "image %zu embedded", i);
        ferry_buffer json = {0}, bin = {0};
        CHECK(ferry_gltf_write_gltf(scene, "x.bin", NULL, &json, &bin, &err) == FERRY_OK);
        json_t *doc = json.data ? json_loadb((const char *)json.data, json.size, 0, NULL) : NULL;
        json_t *ji = pi >= 0 ? json_array_get(json_object_get(doc, "images"), (size_t)pi) : NULL;
        CHECK(ji && json_string_value(json_object_get(ji, "uri")) &&
              strcmp(json_string_value(json_object_get(ji, "uri")), uri) == 0);
        CHECK(ji && json_object_get(ji, "mimeType") == NULL && json_object_get(ji, "bufferView") == NULL);
        json_decref(doc);
        ferry_buffer_free(&json);
        ferry_buffer_free(&bin);
        /* Saved as .gltf: the embedded images are files beside it, the
         * linked one is not written again. */
        char out[700], file[720];
        snprintf(out, sizeof out, "%s/linked.gltf", dir);
        CHECK(ferry_gltf_save(scene, out, NULL, &err) == FERRY_OK);
        for (size_t i = 0; i < scene->image_count; i++) {
            snprintf(file, sizeof file, "%s/linked_image%zu.png", dir, i);
            CHECK_MSG(test_path_exists(file) == ((int32_t)i != pi), "%s written: %d", file, test_path_exists(file));
            test_remove_file(file);
        }
        snprintf(file, sizeof file, "%s/linked.bin", dir);
        test_remove_file(file);
        test_remove_file(out);
        ferry_scene_free(scene);
    }

    /* The colorize colour of a DXT5 texture: a DXT1 DDS of its colour
     * blocks, drawn (by ferry's decoder) as the texture's colour, every
     * texel opaque, at both mip levels. A DXT1 with a transparent texel
     * stays a PNG. */
    char dds[600];
    snprintf(dds, sizeof dds, "%s/hull.dds", dir);
    for (int pass = 0; pass < 2; pass++) {
        CHECK(write_dds(dds, pass ? "DXT1" : "DXT5", pass == 1));
        CHECK(ferry_alo_to_scene(&model, &options, &scene, &err) == FERRY_OK);
        const ferry_scene_material *hull = scene ? material_of(scene, "Hull") : NULL;
        int32_t hi = hull ? FY_REF(hull, base_color_image) : -1;
        CHECK(hi >= 0);
        if (hi >= 0) {
            const ferry_scene_image *im = &scene->images[hi];
            CHECK(im->name && strcmp(im->name, "hull (colour)") == 0);
            CHECK_MSG(im->mime_type && strcmp(im->mime_type, pass ? "image/png" : "image/vnd-ms.dds") == 0,
                      "pass %d: %s", pass, im->mime_type ? im->mime_type : "no mime type");
            /* The header says what is there: two levels, DXT1 without alpha. */
            CHECK(pass || (im->size >= 128 && (fy_test_u32(im->data + 8) & 0x20000u) &&
                           fy_test_u32(im->data + 28) == 2 && (fy_test_u32(im->data + 80) & 1u) == 0));
            size_t size = 0;
            uint8_t *file = read_all(dds, &size);
            for (uint32_t level = 0; pass == 0 && file && level < 2; level++) {
                ferry_image_options io;
                memset(&io, 0, sizeof io);
                io.level = level;
                ferry_image want, got;
                CHECK(ferry_image_decode(file, size, &io, &want, &err) == FERRY_OK);
                CHECK(ferry_image_decode(im->data, im->size, &io, &got, &err) == FERRY_OK);
                CHECK(im->size == 128 + 3 * 8 && memcmp(im->data + 84, "DXT1", 4) == 0);
                for (size_t t = 0; want.rgba && got.rgba && t < (size_t)want.width * want.height; t++)
                    CHECK_MSG(memcmp(got.rgba + 4 * t, want.rgba + 4 * t, 3) == 0 && got.rgba[4 * t + 3] == 255,
                              "level %u texel %zu: %02x%02x%02x%02x, expected %02x%02x%02x opaque", level, t,
                              got.rgba[4 * t], got.rgba[4 * t + 1], got.rgba[4 * t + 2], got.rgba[4 * t + 3],
                              want.rgba[4 * t], want.rgba[4 * t + 1], want.rgba[4 * t + 2]);
                ferry_image_free(&want);
                ferry_image_free(&got);
            }
            free(file);
        }
        ferry_scene_free(scene);
    }
    CHECK(test_remove_file(dds));
    options.native_textures = false;

    /* --no-textures: nothing embedded, nothing reported missing, blended shaders still blended. */
    options.skip_textures = true;
    options.diagnostics = NULL;
    CHECK(ferry_alo_to_scene(&model, &options, &scene, &err) == FERRY_OK);
    if (scene) {
        CHECK_EQ_U(scene->image_count, 0);
        CHECK_EQ_U(report.missing_texture_count, 0);
        check_untextured(scene);
        const ferry_scene_material *body = material_of(scene, "Body");
        CHECK(body && body->alpha_mode == FERRY_ALPHA_OPAQUE && FY_REF(body, emissive_image) == -1);
        ferry_scene_free(scene);
    }
    ferry_alamo_texture_folders_close(&folders);
    CHECK(test_remove_file(tga));
    CHECK(test_remove_dir(dir));
    TEST_END();
}
