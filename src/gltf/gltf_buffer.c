/* The binary buffer: one bufferView per accessor (tightly packed, so no
 * byteStride is needed), each view starting on a 4-byte boundary as glTF
 * requires for vertex attributes and as every component type allows. */
#include "gltf_internal.h"

#include <math.h>

size_t fy_gltf_bin_size(const fy_gltf *g) { return g->bin->size + g->span_bytes; }

static size_t begin_view(fy_gltf *g)
{
    size_t pad = (4 - fy_gltf_bin_size(g) % 4) % 4;
    fy_buf_zeros(g->bin, pad);
    return fy_gltf_bin_size(g);
}

/* Adds the bufferView over [offset, end of bin). target 0: none. */
static int32_t end_view(fy_gltf *g, size_t offset, int target)
{
    if (g->bin->failed) g->nomem = true;
    json_t *view = json_object();
    if (!view) {
        g->nomem = true;
        return -1;
    }
    fy_gltf_json_set(g, view, "buffer", json_integer(0));
    if (offset) fy_gltf_json_set(g, view, "byteOffset", json_integer((json_int_t)offset));
    fy_gltf_json_set(g, view, "byteLength", json_integer((json_int_t)(fy_gltf_bin_size(g) - offset)));
    if (target) fy_gltf_json_set(g, view, "target", json_integer(target));
    int32_t index = (int32_t)json_array_size(g->buffer_views);
    fy_gltf_json_push(g, g->buffer_views, view);
    return g->nomem ? -1 : index;
}

static const char *type_name(int components)
{
    switch (components) {
    case 1: return "SCALAR";
    case 2: return "VEC2";
    case 3: return "VEC3";
    case 4: return "VEC4";
    default: return "MAT4"; /* 16 */
    }
}

static int32_t add_accessor(fy_gltf *g, int32_t view, int component_type, size_t count, int components,
                            json_t *min, json_t *max)
{
    json_t *acc = json_object();
    if (view < 0 || !acc) {
        g->nomem = true;
        json_decref(acc);
        json_decref(min);
        json_decref(max);
        return -1;
    }
    fy_gltf_json_set(g, acc, "bufferView", json_integer(view));
    fy_gltf_json_set(g, acc, "componentType", json_integer(component_type));
    fy_gltf_json_set(g, acc, "count", json_integer((json_int_t)count));
    fy_gltf_json_set(g, acc, "type", json_string(type_name(components)));
    if (min) fy_gltf_json_set(g, acc, "min", min);
    if (max) fy_gltf_json_set(g, acc, "max", max);
    int32_t index = (int32_t)json_array_size(g->accessors);
    fy_gltf_json_push(g, g->accessors, acc);
    return g->nomem ? -1 : index;
}

int32_t fy_gltf_floats(fy_gltf *g, const float *data, size_t count, int components, int target, bool min_max)
{
    size_t n = count * (size_t)components;
    size_t offset = begin_view(g);
    if (!fy_buf_reserve(g->bin, n * 4)) {
        g->nomem = true;
        return -1;
    }
    /* glTF is little-endian like the host almost always is: then the floats
     * go in with one copy instead of a checked append per value. */
    if (fy_host_is_le())
        fy_buf_append(g->bin, data, n * 4);
    else
        for (size_t i = 0; i < n; i++) fy_buf_f32le(g->bin, data[i]);
    int32_t view = end_view(g, offset, target);

    json_t *min = NULL, *max = NULL;
    if (min_max) {
        /* Exact per-component bounds of the stored float32 values: the
         * validator compares them with the data. */
        float lo[16], hi[16];
        for (int c = 0; c < components; c++) lo[c] = hi[c] = data[c];
        for (size_t i = 1; i < count; i++) {
            for (int c = 0; c < components; c++) {
                float v = data[i * (size_t)components + (size_t)c];
                if (v < lo[c]) lo[c] = v;
                if (v > hi[c]) hi[c] = v;
            }
        }
        min = fy_gltf_json_floats(lo, (size_t)components);
        max = fy_gltf_json_floats(hi, (size_t)components);
        if (!min || !max) g->nomem = true;
    }
    return add_accessor(g, view, FY_GLTF_FLOAT, count, components, min, max);
}

int32_t fy_gltf_indices(fy_gltf *g, const uint32_t *indices, size_t count, size_t vertex_count)
{
    /* 65535 is the primitive restart value of UNSIGNED_SHORT indices, which
     * glTF forbids in index data, so 16 bits serve up to 65535 vertices. */
    bool narrow = vertex_count <= 65535;
    size_t offset = begin_view(g);
    if (!fy_buf_reserve(g->bin, count * (narrow ? 2 : 4))) {
        g->nomem = true;
        return -1;
    }
    if (!narrow && fy_host_is_le()) {
        fy_buf_append(g->bin, indices, count * 4);
    } else {
        uint8_t *p = g->bin->data + g->bin->size;
        for (size_t i = 0; i < count; i++) {
            uint32_t v = indices[i];
            *p++ = (uint8_t)v;
            *p++ = (uint8_t)(v >> 8);
            if (!narrow) {
                *p++ = (uint8_t)(v >> 16);
                *p++ = (uint8_t)(v >> 24);
            }
        }
        g->bin->size += count * (narrow ? 2 : 4);
    }
    int32_t view = end_view(g, offset, FY_GLTF_ELEMENT_BUFFER);
    return add_accessor(g, view, narrow ? FY_GLTF_UNSIGNED_SHORT : FY_GLTF_UNSIGNED_INT, count, 1, NULL, NULL);
}

int32_t fy_gltf_joints(fy_gltf *g, const uint16_t *joints, size_t vertex_count)
{
    size_t offset = begin_view(g);
    if (fy_host_is_le())
        fy_buf_append(g->bin, joints, vertex_count * 4 * sizeof *joints);
    else
        for (size_t i = 0; i < vertex_count * 4; i++) fy_buf_u16le(g->bin, joints[i]);
    int32_t view = end_view(g, offset, FY_GLTF_ARRAY_BUFFER);
    return add_accessor(g, view, FY_GLTF_UNSIGNED_SHORT, vertex_count, 4, NULL, NULL);
}

int32_t fy_gltf_bytes_view(fy_gltf *g, const uint8_t *data, size_t size)
{
    size_t offset = begin_view(g);
    if (!g->compact) {
        fy_buf_append(g->bin, data, size);
        return end_view(g, offset, 0);
    }
    if (g->span_count == g->span_capacity) {
        size_t cap = g->span_capacity ? 2 * g->span_capacity : 8;
        fy_gltf_span *spans = realloc(g->spans, cap * sizeof *spans);
        if (!spans) {
            g->nomem = true;
            return -1;
        }
        g->spans = spans;
        g->span_capacity = cap;
    }
    g->spans[g->span_count++] = (fy_gltf_span){g->bin->size, data, size};
    g->span_bytes += size;
    return end_view(g, offset, 0);
}
