/* The PAA row (PAA/PAC textures): read, write, validate, and its info
 * (`ferry info`, `ferry dump`). */
#include "engine_internal.h"

#include <ferry/paa.h>

#include <stdio.h>
#include <stdlib.h>

FY_DEFINE_READ(paa, ferry_paa, ferry_paa_read)
FY_DEFINE_FREE(paa, ferry_paa_free)
FY_DEFINE_WRITE(paa, ferry_paa_write)
FY_DEFINE_VALIDATE(paa, ferry_paa_validate)

static json_t *argb_json(uint32_t v)
{
    char t[12];
    snprintf(t, sizeof t, "0x%08x", (unsigned)v);
    return json_string(t);
}


/* The summary; FERRY_INFO_FULL adds where things are (mipmap offsets),
 * the type's value, each tag's bytes and the end, as `dump` shows them. */
FY_INFO(paa)
{
    (void)err;
    const ferry_paa *p = object;
    bool full = info->detail == FERRY_INFO_FULL;
    json_t *j = json_object();
    fy_json_set_file(j, info);
    json_object_set_new(j, "format", json_string("PAA"));
    json_object_set_new(j, "type", json_string(ferry_paa_type_name(p->type)));
    if (full) json_object_set_new(j, "type_value", json_integer(p->type));
    json_object_set_new(j, "size", json_integer((json_int_t)info->size));
    if (p->has_average) json_object_set_new(j, "average_argb", argb_json(p->average_argb));
    if (p->has_maximum) json_object_set_new(j, "maximum_argb", argb_json(p->maximum_argb));
    if (p->has_flags) json_object_set_new(j, "flags", json_integer(p->flags));
    json_t *tags = json_array();
    for (size_t i = 0; i < p->tag_count; i++) {
        json_t *tj = json_object();
        fy_json_set_text(tj, "name", p->tags[i].name);
        json_object_set_new(tj, "offset", json_integer((json_int_t)p->tags[i].offset));
        json_object_set_new(tj, "size", json_integer(p->tags[i].size));
        if (full) json_object_set_new(tj, "data", fy_json_hex(p->tags[i].data, p->tags[i].size));
        json_array_append_new(tags, tj);
    }
    json_object_set_new(j, "tags", tags);
    json_object_set_new(j, "palette_colours", json_integer(p->palette_count));
    json_t *mips = json_array();
    for (size_t i = 0; i < p->mip_count; i++) {
        const ferry_paa_mip *m = &p->mips[i];
        json_t *mj = json_object();
        json_object_set_new(mj, "width", json_integer(m->width));
        json_object_set_new(mj, "height", json_integer(m->height));
        json_object_set_new(mj, "compression", json_string(m->lzo ? "LZO" : m->lzss ? "LZSS" : "none"));
        json_object_set_new(mj, "stored_bytes", json_integer(m->data_size));
        if (full) json_object_set_new(mj, "offset", json_integer((json_int_t)m->offset));
        json_array_append_new(mips, mj);
    }
    json_object_set_new(j, "mipmaps", mips);
    if (full) {
        json_object_set_new(j, "end_offset", json_integer((json_int_t)p->end_offset));
        json_object_set_new(j, "trailer_size", json_integer((json_int_t)p->trailer_size));
    }
    return j;
}
