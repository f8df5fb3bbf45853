/* Per-vertex values as floats, whatever the version stored them as: v40's
 * floats or the packed forms of v45 and later. */
#include "odol_internal.h"

void ferry_odol_decode_normal(uint32_t packed, float out[3])
{
    for (int k = 0; k < 3; k++) {
        int v = (int)((packed >> (10 * k)) & 0x3FF);
        if (v > 511) v -= 1024;
        out[k] = (float)v * (-1.0f / 511.0f);
    }
}

/* A vertex's element of a condensed array (the default value when filled),
 * or NULL when the array does not hold that vertex. */
static const uint8_t *element(const ferry_odol_condensed *c, uint32_t vertex, size_t elem)
{
    if (vertex >= c->array.count) return NULL;
    if (c->default_fill) return c->default_value;
    return c->array.data ? c->array.data + (size_t)vertex * elem : NULL;
}

bool ferry_odol_vertex_normal(const ferry_odol_model *m, const ferry_odol_lod *lod, uint32_t vertex, float out[3])
{
    const uint8_t *p = element(&lod->normals, vertex, fy_odol_normal_size(m->version));
    if (!p) return false;
    if (m->version >= 45) {
        ferry_odol_decode_normal(fy_load_u32le(p), out);
    } else {
        for (int k = 0; k < 3; k++) out[k] = fy_odol_f32(p + 4 * k);
    }
    return true;
}

bool ferry_odol_vertex_uv(const ferry_odol_model *m, const ferry_odol_lod *lod, uint32_t set, uint32_t vertex,
                          float out[2])
{
    if (!lod->uv_sets || set >= lod->uv_set_count) return false;
    const uint8_t *p = element(&lod->uv_sets[set], vertex, fy_odol_uv_size(m->version));
    if (!p) return false;
    if (m->version < 45) {
        out[0] = fy_odol_f32(p);
        out[1] = fy_odol_f32(p + 4);
        return true;
    }
    static const ferry_odol_uv_range unit = {0.0f, 0.0f, 1.0f, 1.0f};
    const ferry_odol_uv_range *r = lod->uv_ranges ? &lod->uv_ranges[set] : &unit;
    /* -32767 is the set's minimum and 32767 its maximum: every packed set
     * in the real files spans exactly that (docs/formats/odol.md). */
    int16_t su = (int16_t)fy_load_u16le(p), sv = (int16_t)fy_load_u16le(p + 2);
    out[0] = (float)(r->min_u + (double)(su + 32767) * ((double)r->max_u - r->min_u) / 65534.0);
    out[1] = (float)(r->min_v + (double)(sv + 32767) * ((double)r->max_v - r->min_v) / 65534.0);
    return true;
}
