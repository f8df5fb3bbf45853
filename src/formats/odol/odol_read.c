/* Reading ODOL v40, v48 and v50 files. The layout follows the community
 * specification where real files agree with it, and the public
 * version-gated readers where the specification has gaps or the version is
 * later (docs/formats/odol.md lists each case). */
#include "odol_internal.h"
#include "../../codec/codec.h"
#include "../../core/record.h"

#include <stdio.h>

typedef struct reader {
    fy_record_reader rr; /* cursor, arena, record path (set as records are entered) */
    uint32_t version;
} reader;

#define set_path(r, ...) fy_record_path(&(r)->rr, __VA_ARGS__)
#define push_path(r, ...) fy_record_push(&(r)->rr, __VA_ARGS__)
#define pop_path(r) fy_record_pop(&(r)->rr)

static void *alloc(reader *r, uint64_t count, size_t size) { return fy_record_alloc(&r->rr, count, size); }

static const char *string(reader *r, const char *what)
{
    size_t len;
    const char *s = fy_cstring(&r->rr.c, &len, what);
    return s ? s : "";
}

static void floats(reader *r, float *out, size_t n, const char *what)
{
    const uint8_t *p = fy_array(&r->rr.c, n, 4, what);
    if (p)
        for (size_t i = 0; i < n; i++) out[i] = fy_bits_f32(fy_load_u32le(p + 4 * i));
}

/* A count that is about to size an allocation of `min_size`-byte records. */
static uint32_t count(reader *r, size_t min_size, const char *what)
{
    size_t at = r->rr.c.pos;
    uint32_t n = fy_u32le(&r->rr.c, what);
    if (!r->rr.c.failed && min_size) fy_record_room(&r->rr, at, n, min_size, what);
    return r->rr.c.failed ? 0 : n;
}

/* A codec's error, placed in the file. */
static void codec_fail(reader *r, size_t at, const ferry_error *lerr, uint64_t size, const char *what)
{
    fy_fail_at(&r->rr.c, at + (lerr->offset == FERRY_NO_OFFSET ? 0 : lerr->offset), lerr->code,
               "compressed %s (%llu bytes from offset %zu): %s", what, (unsigned long long)size, at, lerr->message);
}

/* A compressed array body: an LZSS stream and checksum, or from v44 an
 * LZO1X stream. Its decoded size is bounded before anything is allocated:
 * an LZO stream is measured; an LZSS stream has fy_lzss_decoded_bound. */
static void compressed_body(reader *r, ferry_odol_array *a, uint64_t size, const char *what)
{
    size_t at = r->rr.c.pos, avail = r->rr.c.end - at, stream = 0;
    const uint8_t *in = r->rr.c.base + at;
    bool lzo = fy_odol_uses_lzo(r->version);
    ferry_error lerr;
    if (lzo) {
        size_t decoded = 0;
        if (ferry_lzo_measure(in, avail, &stream, &decoded, &lerr) != FERRY_OK) {
            codec_fail(r, at, &lerr, size, what);
            return;
        }
        if (decoded != size) {
            fy_fail_at(&r->rr.c, at, FERRY_ERR_MALFORMED,
                       "compressed %s: the LZO stream (%zu bytes) decodes to %zu bytes, but %u elements take %llu",
                       what, stream, decoded, a->count, (unsigned long long)size);
            return;
        }
    } else if (size > fy_lzss_decoded_bound(avail)) {
        fy_fail_at(&r->rr.c, at, FERRY_ERR_MALFORMED,
                   "%s: %u elements (%llu bytes compressed) cannot fit in the %zu bytes that remain", what, a->count,
                   (unsigned long long)size, avail);
        return;
    }
    /* Filled whole by the decoder (which fails otherwise): not zeroed first. */
    uint8_t *out = fy_arena_alloc_uninit(r->rr.arena, (size_t)size);
    if (!out) {
        r->rr.nomem = true;
        fy_fail_at(&r->rr.c, at, FERRY_ERR_LIMIT, "memory limit reached decompressing %s (%llu bytes)", what,
                   (unsigned long long)size);
        return;
    }
    ferry_result rc = lzo ? fy_lzo_decompress(in, stream, (size_t)size, out, &lerr)
                          : ferry_lzss_decode(in, avail, (size_t)size, out, &stream, &lerr);
    if (rc != FERRY_OK) {
        codec_fail(r, at, &lerr, size, what);
        return;
    }
    a->data = out;
    a->stored = in;
    a->stored_size = stream;
    r->rr.c.pos += stream;
}

/* The body of a possibly compressed array of `n` elements: raw below the
 * threshold, compressed from it on. */
static void array_body(reader *r, ferry_odol_array *a, uint32_t n, size_t elem, const char *what)
{
    a->count = n;
    uint64_t size = (uint64_t)n * elem;
    if (r->rr.c.failed || size == 0) return;
    if (size >= FERRY_LZSS_MIN_COMPRESSED_SIZE) {
        compressed_body(r, a, size, what);
        return;
    }
    a->data = fy_bytes(&r->rr.c, (size_t)size, what);
    a->stored = a->data;
    a->stored_size = (size_t)size;
}

static void array(reader *r, ferry_odol_array *a, size_t elem, const char *what)
{
    a->offset = r->rr.c.pos;
    uint32_t n = fy_u32le(&r->rr.c, what);
    array_body(r, a, n, elem, what);
}

static void condensed(reader *r, ferry_odol_condensed *a, size_t elem, const char *what)
{
    a->array.offset = r->rr.c.pos;
    uint32_t n = fy_u32le(&r->rr.c, what);
    a->default_fill = fy_u8(&r->rr.c, what);
    if (a->default_fill) {
        a->array.count = n;
        const uint8_t *v = fy_bytes(&r->rr.c, elem, what);
        if (v) memcpy(a->default_value, v, elem);
    } else {
        array_body(r, &a->array, n, elem, what);
    }
}

static void int_array(reader *r, ferry_odol_int_array *a, const char *what)
{
    a->count = count(r, 4, what);
    const uint8_t *p = fy_array(&r->rr.c, a->count, 4, what);
    a->values = alloc(r, a->count, sizeof *a->values);
    if (p && a->values)
        for (uint32_t i = 0; i < a->count; i++) a->values[i] = (int32_t)fy_load_u32le(p + 4 * i);
}

static void model_info(reader *r, ferry_odol_model *m)
{
    ferry_odol_model_info *mi = &m->info;
    fy_cursor *c = &r->rr.c;
    set_path(r, "model info");
    mi->special = (int32_t)fy_u32le(c, "special flags");
    mi->bounding_sphere = fy_f32le(c, "bounding sphere");
    mi->geometry_sphere = fy_f32le(c, "geometry sphere");
    mi->remarks = (int32_t)fy_u32le(c, "remarks");
    mi->and_hints = (int32_t)fy_u32le(c, "and hints");
    mi->or_hints = (int32_t)fy_u32le(c, "or hints");
    floats(r, mi->aiming_center, 3, "aiming center");
    mi->color = fy_u32le(c, "color");
    mi->color_type = fy_u32le(c, "color type");
    mi->view_density = fy_f32le(c, "view density");
    floats(r, mi->bbox_min, 3, "bounding box");
    floats(r, mi->bbox_max, 3, "bounding box");
    floats(r, mi->bounding_center, 3, "bounding center");
    floats(r, mi->geometry_center, 3, "geometry center");
    floats(r, mi->center_of_mass, 3, "center of mass");
    floats(r, mi->inv_inertia, 9, "inverse inertia");
    mi->auto_center = fy_u8(c, "flags");
    mi->lock_auto_center = fy_u8(c, "flags");
    mi->can_occlude = fy_u8(c, "flags");
    mi->can_be_occluded = fy_u8(c, "flags");
    if (m->version >= 42) {
        mi->ht_min = fy_f32le(c, "ht min");
        mi->ht_max = fy_f32le(c, "ht max");
        mi->af_max = fy_f32le(c, "af max");
        mi->mf_max = fy_f32le(c, "mf max");
    }
    if (m->version >= 43) {
        mi->m_fact = fy_f32le(c, "m fact");
        mi->t_body = fy_f32le(c, "t body");
    }
    mi->force_not_alpha = fy_u8(c, "flags");
    mi->sb_source = (int32_t)fy_u32le(c, "shadow buffer source");
    mi->prefer_shadow_volume = fy_u8(c, "flags");
    if (m->version >= 48) mi->shadow_offset = fy_f32le(c, "shadow offset");
    mi->animated = fy_u8(c, "animated flag");

    set_path(r, "skeleton");
    ferry_odol_skeleton *sk = &mi->skeleton;
    sk->name = string(r, "skeleton name");
    if (sk->name[0]) {
        sk->is_discrete = fy_u8(c, "skeleton flag");
        sk->bone_count = count(r, 2, "bone count");
        sk->bones = alloc(r, sk->bone_count, sizeof *sk->bones);
        for (uint32_t i = 0; i < sk->bone_count && !c->failed; i++) {
            push_path(r, "bones[%u]", i);
            sk->bones[i].name = string(r, "bone name");
            sk->bones[i].parent = string(r, "parent bone name");
            pop_path(r);
        }
        if (m->version > 40) sk->pivots_name = string(r, "pivots name");
    }
    if (!sk->pivots_name) sk->pivots_name = "";
    set_path(r, "model info");
    mi->map_type = fy_u8(c, "map type");
    set_path(r, "model info/mass array");
    array(r, &mi->mass_array, FY_ODOL_MASS_SIZE, "mass array");
    set_path(r, "model info");
    mi->mass = fy_f32le(c, "mass");
    mi->inv_mass = fy_f32le(c, "inverse mass");
    mi->armor = fy_f32le(c, "armor");
    mi->inv_armor = fy_f32le(c, "inverse armor");
    const uint8_t *lods = fy_bytes(c, FERRY_ODOL_SPECIAL_LOD_COUNT, "named LOD indices");
    if (lods) memcpy(mi->special_lods, lods, FERRY_ODOL_SPECIAL_LOD_COUNT);
    mi->min_shadow = fy_u32le(c, "minimum shadow");
    mi->can_blend = fy_u8(c, "flags");
    mi->class_name = string(r, "class name");
    mi->damage = string(r, "damage type");
    mi->frequent = fy_u8(c, "flags");
    mi->unused31 = fy_u32le(c, "reserved word");
}

static void animations(reader *r, ferry_odol_model *m)
{
    ferry_odol_animations *an = &m->animations;
    fy_cursor *c = &r->rr.c;
    set_path(r, "animations");
    an->present = fy_u8(c, "animations flag");
    if (!an->present) return;
    an->class_count = count(r, 4 + 2 + 4 * 5 + 4, "animation class count");
    an->classes = alloc(r, an->class_count, sizeof *an->classes);
    for (uint32_t i = 0; i < an->class_count && !c->failed; i++) {
        set_path(r, "animations/classes[%u]", i);
        ferry_odol_animation_class *a = &an->classes[i];
        size_t at = c->pos;
        a->type = fy_u32le(c, "animation type");
        a->name = string(r, "animation name");
        a->source = string(r, "animation source");
        a->min_phase = fy_f32le(c, "phase");
        a->max_phase = fy_f32le(c, "phase");
        a->min_value = fy_f32le(c, "value");
        a->max_value = fy_f32le(c, "value");
        a->source_address = fy_u32le(c, "source address");
        if (a->type <= FERRY_ODOL_ANIM_TRANSLATION_Z) {
            floats(r, a->params, 2, "animation limits");
        } else if (a->type == FERRY_ODOL_ANIM_DIRECT) {
            floats(r, a->axis_pos, 3, "axis position");
            floats(r, a->axis_dir, 3, "axis direction");
            a->angle = fy_f32le(c, "angle");
            a->axis_offset = fy_f32le(c, "axis offset");
        } else if (a->type == FERRY_ODOL_ANIM_HIDE) {
            a->params[0] = fy_f32le(c, "hide value");
        } else if (!c->failed) {
            fy_fail_at(c, at, FERRY_ERR_MALFORMED,
                       "animation type %u is not one of 0..9 (rotation, translation, direct, hide): the size of the rest of the record is unknown",
                       a->type);
        }
    }
    set_path(r, "animations");
    size_t lod_count_at = c->pos;
    an->lod_count = count(r, 4, "LOD count of the bone tables");
    if (!c->failed && an->lod_count != m->lod_count)
        fy_fail_at(c, lod_count_at, FERRY_ERR_MALFORMED,
                   "the bone tables are given for %u LODs, the header has %u", an->lod_count, m->lod_count);
    an->bone_counts = alloc(r, an->lod_count, sizeof *an->bone_counts);
    an->bones_to_anims = alloc(r, an->lod_count, sizeof *an->bones_to_anims);
    for (uint32_t l = 0; l < an->lod_count && !c->failed; l++) {
        set_path(r, "animations/bones_to_anims[%u]", l);
        uint32_t bones = an->bone_counts[l] = count(r, 4, "bone count");
        an->bones_to_anims[l] = alloc(r, bones, sizeof **an->bones_to_anims);
        for (uint32_t b = 0; b < bones && !c->failed; b++) {
            set_path(r, "animations/bones_to_anims[%u][%u]", l, b);
            ferry_odol_bone_anims *ba = &an->bones_to_anims[l][b];
            ba->count = count(r, 4, "animation count");
            const uint8_t *p = fy_array(c, ba->count, 4, "animation indices");
            ba->animations = alloc(r, ba->count, sizeof *ba->animations);
            if (p && ba->animations)
                for (uint32_t k = 0; k < ba->count; k++) ba->animations[k] = fy_load_u32le(p + 4 * k);
        }
    }
    if (c->failed) return;
    uint64_t cells = (uint64_t)an->lod_count * an->class_count;
    if (cells > fy_remaining(c) / 4) {
        fy_fail(c, "the animation-to-bone table needs %llu entries of at least 4 bytes, more than remain",
                (unsigned long long)cells);
        return;
    }
    an->anims_to_bones = alloc(r, cells, sizeof *an->anims_to_bones);
    for (uint32_t l = 0; l < an->lod_count && !c->failed; l++) {
        for (uint32_t k = 0; k < an->class_count && !c->failed; k++) {
            set_path(r, "animations/anims_to_bones[%u][%u]", l, k);
            ferry_odol_anim_bone *ab = &an->anims_to_bones[(size_t)l * an->class_count + k];
            ab->bone = (int32_t)fy_u32le(c, "bone index");
            uint32_t type = an->classes[k].type;
            if (ab->bone != -1 && type != FERRY_ODOL_ANIM_DIRECT && type != FERRY_ODOL_ANIM_HIDE) {
                floats(r, ab->axis_pos, 3, "axis position");
                floats(r, ab->axis_dir, 3, "axis direction");
            }
        }
    }
}

static void stage_texture(reader *r, ferry_odol_stage_texture *s, uint32_t version)
{
    if (version >= 5) s->filter = fy_u32le(&r->rr.c, "texture filter");
    s->texture = string(r, "stage texture");
    if (version >= 8) s->stage = fy_u32le(&r->rr.c, "stage id");
}

static void stage_transform(reader *r, ferry_odol_stage_transform *t)
{
    t->uv_source = fy_u32le(&r->rr.c, "UV source");
    floats(r, t->transform, 12, "stage transform");
}

static void material(reader *r, ferry_odol_material *mt)
{
    fy_cursor *c = &r->rr.c;
    mt->name = string(r, "material name");
    size_t version_at = c->pos;
    mt->version = fy_u32le(c, "material version");
    if (!c->failed && (mt->version < 3 || mt->version > 10)) {
        /* Version 11 adds a field to every stage; older than 3 is unknown. */
        fy_fail_at(c, version_at, FERRY_ERR_UNSUPPORTED,
                   "material record version %u: this reader knows versions 3 to 10 (ArmA files hold 9)", mt->version);
        return;
    }
    floats(r, mt->emissive, 4, "emissive colour");
    floats(r, mt->ambient, 4, "ambient colour");
    floats(r, mt->diffuse, 4, "diffuse colour");
    floats(r, mt->forced_diffuse, 4, "forced diffuse colour");
    floats(r, mt->specular, 4, "specular colour");
    floats(r, mt->specular2, 4, "second specular colour");
    mt->specular_power = fy_f32le(c, "specular power");
    mt->pixel_shader = fy_u32le(c, "pixel shader");
    mt->vertex_shader = fy_u32le(c, "vertex shader");
    mt->main_light = fy_u32le(c, "main light");
    mt->fog_mode = fy_u32le(c, "fog mode");
    if (mt->version == 3) mt->unused3 = fy_u8(c, "flag");
    mt->surface = mt->version >= 6 ? string(r, "surface") : "";
    if (mt->version >= 4) {
        mt->render_flag_count = fy_u32le(c, "render flag count");
        mt->render_flags = fy_u32le(c, "render flags");
    }
    mt->stage_count = mt->version > 6 ? count(r, 5, "stage count") : 0;
    mt->transform_count = mt->version > 8 ? count(r, 52, "stage transform count") : mt->stage_count;
    mt->stages = alloc(r, mt->stage_count, sizeof *mt->stages);
    mt->transforms = alloc(r, mt->transform_count, sizeof *mt->transforms);
    if (mt->version < 8) {
        for (uint32_t i = 0; i < mt->stage_count && !c->failed; i++) {
            stage_transform(r, &mt->transforms[i]);
            stage_texture(r, &mt->stages[i], mt->version);
        }
    } else {
        for (uint32_t i = 0; i < mt->stage_count && !c->failed; i++) stage_texture(r, &mt->stages[i], mt->version);
        for (uint32_t i = 0; i < mt->transform_count && !c->failed; i++) stage_transform(r, &mt->transforms[i]);
    }
    if (mt->version >= 10) stage_texture(r, &mt->ti_stage, mt->version);
    else mt->ti_stage.texture = "";
}

static void lod(reader *r, ferry_odol_lod *l, uint32_t li)
{
    fy_cursor *c = &r->rr.c;
    l->offset = c->pos;
    set_path(r, "lods[%u]/proxies", li);
    l->proxy_count = count(r, 1 + 48 + 16, "proxy count");
    l->proxies = alloc(r, l->proxy_count, sizeof *l->proxies);
    for (uint32_t i = 0; i < l->proxy_count && !c->failed; i++) {
        set_path(r, "lods[%u]/proxies[%u]", li, i);
        ferry_odol_proxy *p = &l->proxies[i];
        p->model = string(r, "proxy model");
        floats(r, p->transform, 12, "proxy transform");
        p->sequence_id = (int32_t)fy_u32le(c, "sequence id");
        p->selection_index = (int32_t)fy_u32le(c, "named selection index");
        p->bone_index = (int32_t)fy_u32le(c, "bone index");
        p->section_index = (int32_t)fy_u32le(c, "section index");
    }
    set_path(r, "lods[%u]/sub_skeleton", li);
    int_array(r, &l->sub_skeleton_to_skeleton, "sub-skeleton to skeleton map");
    set_path(r, "lods[%u]/skeleton_to_sub_skeleton", li);
    l->skeleton_to_sub_skeleton_count = count(r, 4, "skeleton to sub-skeleton count");
    l->skeleton_to_sub_skeleton = alloc(r, l->skeleton_to_sub_skeleton_count, sizeof *l->skeleton_to_sub_skeleton);
    for (uint32_t i = 0; i < l->skeleton_to_sub_skeleton_count && !c->failed; i++)
        int_array(r, &l->skeleton_to_sub_skeleton[i], "sub-skeleton indices");
    if (r->version >= 50) {
        set_path(r, "lods[%u]", li);
        l->vertex_count = fy_u32le(c, "vertex count");
    } else {
        set_path(r, "lods[%u]/point_flags", li);
        condensed(r, &l->point_flags, FY_ODOL_POINT_FLAG_SIZE, "point flags");
    }
    set_path(r, "lods[%u]", li);
    l->or_hints = (int32_t)fy_u32le(c, "or hints");
    l->and_hints = (int32_t)fy_u32le(c, "and hints");
    floats(r, l->bmin, 3, "bounding box");
    floats(r, l->bmax, 3, "bounding box");
    floats(r, l->bcenter, 3, "bounding center");
    l->bradius = fy_f32le(c, "bounding radius");
    set_path(r, "lods[%u]/textures", li);
    l->texture_count = count(r, 1, "texture count");
    l->textures = alloc(r, l->texture_count, sizeof *l->textures);
    for (uint32_t i = 0; i < l->texture_count && !c->failed; i++) l->textures[i] = string(r, "texture name");
    l->material_count = count(r, 1 + 4 + 96 + 4 + 16, "material count");
    l->materials = alloc(r, l->material_count, sizeof *l->materials);
    for (uint32_t i = 0; i < l->material_count && !c->failed; i++) {
        set_path(r, "lods[%u]/materials[%u]", li, i);
        material(r, &l->materials[i]);
    }
    set_path(r, "lods[%u]/point_to_vertex", li);
    array(r, &l->point_to_vertex, FY_ODOL_INDEX_SIZE, "point-to-vertex map");
    set_path(r, "lods[%u]/vertex_to_point", li);
    array(r, &l->vertex_to_point, FY_ODOL_INDEX_SIZE, "vertex-to-point map");

    set_path(r, "lods[%u]/faces", li);
    l->face_count = count(r, 7, "face count");
    l->face_block_size = fy_u32le(c, "face block size");
    l->face_unused = fy_u16le(c, "face block reserved word");
    l->faces_offset = c->pos;
    l->faces = alloc(r, l->face_count, sizeof *l->faces);
    for (uint32_t i = 0; i < l->face_count && !c->failed; i++) {
        size_t at = c->pos;
        uint8_t n = fy_u8(c, "face corner count");
        if (!c->failed && n != 3 && n != 4) {
            set_path(r, "lods[%u]/faces[%u]", li, i);
            fy_fail_at(c, at, FERRY_ERR_MALFORMED, "a face has %u corners; faces have 3 or 4", n);
            break;
        }
        const uint8_t *p = fy_array(c, n, 2, "face vertex indices");
        l->faces[i].count = n;
        if (p)
            for (uint8_t k = 0; k < n; k++) l->faces[i].vertices[k] = fy_load_u16le(p + 2 * k);
    }

    set_path(r, "lods[%u]/sections", li);
    l->section_count = count(r, 4 * 5 + 2 + 4 + 4 + 4, "section count");
    l->sections = alloc(r, l->section_count, sizeof *l->sections);
    for (uint32_t i = 0; i < l->section_count && !c->failed; i++) {
        set_path(r, "lods[%u]/sections[%u]", li, i);
        ferry_odol_section *s = &l->sections[i];
        s->face_begin = (int32_t)fy_u32le(c, "face bound");
        s->face_end = (int32_t)fy_u32le(c, "face bound");
        s->min_bone = (int32_t)fy_u32le(c, "minimum bone");
        s->bone_count = (int32_t)fy_u32le(c, "bone count");
        s->unused = fy_u32le(c, "reserved word");
        s->texture = (int16_t)fy_u16le(c, "texture index");
        s->special = fy_u32le(c, "section flags");
        s->material = (int32_t)fy_u32le(c, "material index");
        s->material_name = s->material == -1 ? string(r, "material name") : NULL;
        s->area_count = count(r, 4, "area count");
        s->area_over_tex = alloc(r, s->area_count, sizeof(float));
        if (s->area_over_tex) floats(r, s->area_over_tex, s->area_count, "texture areas");
    }

    set_path(r, "lods[%u]/selections", li);
    l->selection_count = count(r, 1 + 4 + 4 + 1 + 4 + 4 + 4, "named selection count");
    l->selections = alloc(r, l->selection_count, sizeof *l->selections);
    for (uint32_t i = 0; i < l->selection_count && !c->failed; i++) {
        ferry_odol_selection *s = &l->selections[i];
        set_path(r, "lods[%u]/selections[%u]", li, i);
        s->name = string(r, "selection name");
        push_path(r, "faces");
        array(r, &s->faces, FY_ODOL_INDEX_SIZE, "selected faces");
        pop_path(r);
        s->unused = (int32_t)fy_u32le(c, "reserved word");
        s->is_sectional = fy_u8(c, "sectional flag");
        push_path(r, "sections");
        array(r, &s->sections, FY_ODOL_SECTION_INDEX_SIZE, "selected sections");
        pop_path(r);
        push_path(r, "vertices");
        array(r, &s->vertices, FY_ODOL_INDEX_SIZE, "selected vertices");
        pop_path(r);
        push_path(r, "weights");
        array(r, &s->weights, 1, "vertex weights");
        pop_path(r);
    }

    set_path(r, "lods[%u]/properties", li);
    l->property_count = count(r, 2, "property count");
    l->properties = alloc(r, l->property_count, sizeof *l->properties);
    for (uint32_t i = 0; i < l->property_count && !c->failed; i++) {
        l->properties[i].name = string(r, "property name");
        l->properties[i].value = string(r, "property value");
    }
    set_path(r, "lods[%u]/keyframes", li);
    l->keyframe_count = count(r, 8, "keyframe count");
    l->keyframes = alloc(r, l->keyframe_count, sizeof *l->keyframes);
    for (uint32_t i = 0; i < l->keyframe_count && !c->failed; i++) {
        set_path(r, "lods[%u]/keyframes[%u]", li, i);
        ferry_odol_keyframe *k = &l->keyframes[i];
        k->time = fy_f32le(c, "keyframe time");
        k->point_count = count(r, 12, "keyframe point count");
        k->points = alloc(r, (uint64_t)k->point_count * 3, sizeof(float));
        if (k->points) floats(r, k->points, (size_t)k->point_count * 3, "keyframe points");
    }
    set_path(r, "lods[%u]", li);
    l->color_top = (int32_t)fy_u32le(c, "top colour");
    l->color = (int32_t)fy_u32le(c, "colour");
    l->special = (int32_t)fy_u32le(c, "special flags");
    l->vertex_bone_ref_is_simple = fy_u8(c, "bone reference flag");
    l->rest_size = fy_u32le(c, "size of the vertex data");
    if (r->version >= 50) {
        set_path(r, "lods[%u]/point_flags", li);
        condensed(r, &l->point_flags, FY_ODOL_POINT_FLAG_SIZE, "point flags");
    }

    /* From v45 each set starts with the range its packed coordinates
     * scale into. */
    bool ranged = r->version >= 45;
    size_t uv_size = fy_odol_uv_size(r->version);
    set_path(r, "lods[%u]/uv_sets[0]", li);
    ferry_odol_uv_range first_range = {0, 0, 0, 0};
    if (ranged) {
        float v[4];
        floats(r, v, 4, "UV range");
        first_range = (ferry_odol_uv_range){v[0], v[1], v[2], v[3]};
    }
    ferry_odol_condensed first_uv;
    memset(&first_uv, 0, sizeof first_uv);
    condensed(r, &first_uv, uv_size, "UV set");
    set_path(r, "lods[%u]/uv_sets", li);
    size_t uv_count_at = c->pos;
    l->uv_set_count = count(r, ranged ? 21 : 5, "UV set count");
    if (!c->failed && l->uv_set_count == 0)
        fy_fail_at(c, uv_count_at, FERRY_ERR_MALFORMED, "UV set count is 0, but the first set is always stored");
    l->uv_sets = alloc(r, l->uv_set_count, sizeof *l->uv_sets);
    if (l->uv_sets) l->uv_sets[0] = first_uv;
    if (ranged) {
        l->uv_ranges = alloc(r, l->uv_set_count, sizeof *l->uv_ranges);
        if (l->uv_ranges) l->uv_ranges[0] = first_range;
    }
    for (uint32_t i = 1; i < l->uv_set_count && !c->failed; i++) {
        set_path(r, "lods[%u]/uv_sets[%u]", li, i);
        if (ranged) {
            float v[4];
            floats(r, v, 4, "UV range");
            l->uv_ranges[i] = (ferry_odol_uv_range){v[0], v[1], v[2], v[3]};
        }
        condensed(r, &l->uv_sets[i], uv_size, "UV set");
    }
    set_path(r, "lods[%u]/positions", li);
    array(r, &l->positions, FY_ODOL_POSITION_SIZE, "vertex positions");
    set_path(r, "lods[%u]/normals", li);
    condensed(r, &l->normals, fy_odol_normal_size(r->version), "vertex normals");
    set_path(r, "lods[%u]/st_coords", li);
    array(r, &l->st_coords, fy_odol_st_size(r->version), "tangent-space vectors");
    set_path(r, "lods[%u]/vertex_bone_refs", li);
    array(r, &l->vertex_bone_refs, FY_ODOL_BONE_REF_SIZE, "vertex bone weights");
    set_path(r, "lods[%u]/neighbor_bone_refs", li);
    array(r, &l->neighbor_bone_refs, FY_ODOL_NEIGHBOR_REF_SIZE, "neighbour bone weights");
}

bool ferry_odol_version_supported(uint32_t version)
{
    return version == FERRY_ODOL_VERSION || version == FERRY_ODOL_VERSION_48 || version == FERRY_ODOL_VERSION_50;
}

uint32_t ferry_odol_detect_version(const uint8_t *data, size_t size)
{
    if (size < 8 || memcmp(data, "ODOL", 4) != 0) return 0;
    return fy_load_u32le(data + 4);
}

static ferry_result read_model(reader *r, ferry_odol_model *m)
{
    fy_cursor *c = &r->rr.c;
    set_path(r, "header");
    const uint8_t *magic = fy_bytes(c, 4, "signature");
    if (!magic) return c->err->code;
    if (memcmp(magic, "MLOD", 4) == 0) {
        fy_fail_at(c, 0, FERRY_ERR_UNSUPPORTED,
                   "this is an MLOD (editable, not binarized) P3D file; only binarized ODOL files are read");
        return FERRY_ERR_UNSUPPORTED;
    }
    if (memcmp(magic, "ODOL", 4) != 0) {
        fy_fail_at(c, 0, FERRY_ERR_MALFORMED, "expected the signature \"ODOL\" of a binarized P3D model");
        return FERRY_ERR_MALFORMED;
    }
    m->version = r->version = fy_u32le(c, "version");
    if (!c->failed && !ferry_odol_version_supported(m->version)) {
        /* The public readers gate other versions too, but without real
         * files to check them against, reading them would be guessing. */
        const char *what = m->version > 50 ? ": later versions (ArmA 2 OA, ArmA 3) add fields this reader does not know"
                           : m->version > 40 ? ": no real file of this version has been checked"
                                             : "";
        fy_fail_at(c, 4, FERRY_ERR_UNSUPPORTED,
                   "ODOL version %u is not supported; ferry reads versions 40 (ArmA), 48 and 50 (ArmA 2)%s", m->version,
                   what);
        return FERRY_ERR_UNSUPPORTED;
    }
    m->lod_count = count(r, 4 + 4 + 4, "LOD count");
    m->resolutions = alloc(r, m->lod_count, sizeof(float));
    if (m->resolutions) floats(r, m->resolutions, m->lod_count, "resolutions");
    model_info(r, m);
    animations(r, m);
    set_path(r, "lod table");
    m->lod_starts = alloc(r, m->lod_count, sizeof(uint32_t));
    m->lod_ends = alloc(r, m->lod_count, sizeof(uint32_t));
    m->lods = alloc(r, m->lod_count, sizeof *m->lods);
    for (uint32_t i = 0; i < m->lod_count && !c->failed; i++) m->lod_starts[i] = fy_u32le(c, "LOD start offset");
    for (uint32_t i = 0; i < m->lod_count && !c->failed; i++) m->lod_ends[i] = fy_u32le(c, "LOD end offset");
    for (uint32_t i = 0; i < m->lod_count && !c->failed; i++) {
        m->lods[i].resolution = m->resolutions[i];
        m->lods[i].permanent = fy_u8(c, "LOD permanence flag");
    }
    for (uint32_t i = 0; i < m->lod_count && !c->failed; i++) {
        if (m->lods[i].permanent) continue;
        set_path(r, "lod table/info[%u]", i);
        ferry_odol_lod_info *li = &m->lods[i].info;
        li->face_count = (int32_t)fy_u32le(c, "face count");
        li->color = fy_u32le(c, "colour");
        li->special = (int32_t)fy_u32le(c, "special flags");
        li->or_hints = fy_u32le(c, "or hints");
        li->has_skeleton = fy_u8(c, "skeleton flag");
    }
    /* The engine seeks to each LOD by its start offset. Real files store
     * them back to back, in an order of their own (by descending
     * resolution); reading them in that order checks that they tile the
     * file, and the writer reproduces it. */
    m->storage_order = alloc(r, m->lod_count, sizeof *m->storage_order);
    for (uint32_t i = 0; i < m->lod_count && !c->failed; i++) {
        uint32_t k = i;
        while (k > 0 && m->lod_starts[m->storage_order[k - 1]] > m->lod_starts[i]) {
            m->storage_order[k] = m->storage_order[k - 1];
            k--;
        }
        m->storage_order[k] = i;
    }
    for (uint32_t n = 0; n < m->lod_count && !c->failed; n++) {
        uint32_t i = m->storage_order[n];
        if (m->lod_starts[i] != c->pos) {
            set_path(r, "lods[%u]", i);
            fy_fail(c, "LOD %u is stored to start at offset %u, but the data before it ends at %zu", i,
                    m->lod_starts[i], c->pos);
            break;
        }
        lod(r, &m->lods[i], i);
        if (!c->failed && m->lod_ends[i] != c->pos) {
            set_path(r, "lods[%u]", i);
            fy_fail(c, "LOD %u is stored to end at offset %u, but its data ends at %zu", i, m->lod_ends[i], c->pos);
        }
    }
    if (c->failed) return c->err->code;
    m->trailing = c->base + c->pos;
    m->trailing_size = c->end - c->pos;
    return FERRY_OK;
}

ferry_result ferry_odol_read(const uint8_t *data, size_t size, const ferry_read_options *options,
                             ferry_odol_model **out, ferry_error *err)
{
    *out = NULL;
    fy_error_clear(err);
    ferry_arena *arena = fy_arena_create_sized(fy_default_memory_limit(options, size), 0);
    ferry_odol_model *m = arena ? ferry_arena_alloc(arena, sizeof *m) : NULL;
    /* The model points into its own copy of the input (strings, raw arrays,
     * stored streams), so it outlives the caller's buffer. */
    uint8_t *copy = m && size ? ferry_arena_memdup(arena, data, size) : NULL;
    if (!m || (size && !copy)) {
        ferry_result code = arena ? FERRY_ERR_LIMIT : FERRY_ERR_NOMEM;
        ferry_arena_destroy(arena);
        fy_error_set(err, code, 0, NULL, "%s", code == FERRY_ERR_LIMIT ? "memory limit reached before reading began" : "out of memory");
        return code;
    }
    m->arena = arena;
    reader r;
    memset(&r, 0, sizeof r);
    fy_record_begin(&r.rr, copy, size, arena, err);
    ferry_result rc = read_model(&r, m);
    if (rc != FERRY_OK) {
        ferry_arena_destroy(arena);
        return rc;
    }
    *out = m;
    return FERRY_OK;
}

void ferry_odol_free(ferry_odol_model *model)
{
    if (model && model->arena) ferry_arena_destroy(model->arena);
}
