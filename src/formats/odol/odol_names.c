/* Names of ODOL resolutions: what modders call each kind of LOD. */
#include "odol_internal.h"

#include <stdio.h>

static const struct {
    uint32_t bits; /* the float's bit pattern, as the specification lists them */
    const char *name;
} named_resolutions[] = {
    {0x447a0000u, "View Gunner"},
    {0x44898000u, "View Pilot"},
    {0x44960000u, "View Cargo"},
    {0x461c4000u, "Stencil Shadow"},
    {0x461c6800u, "Stencil Shadow 2"},
    {0x462be000u, "Shadow Volume"},
    {0x462c0800u, "Shadow Volume 2"},
    {0x551184e7u, "Geometry"},
    {0x58635fa9u, "Memory"},
    {0x58e35fa9u, "Land Contact"},
    {0x592a87bfu, "Roadway"},
    {0x59635fa9u, "Paths"},
    {0x598e1bcau, "HitPoints"},
    {0x59aa87bfu, "View Geometry"},
    {0x59c6f3b4u, "Fire Geometry"},
    {0x59e35fa9u, "View Cargo Geometry"},
    {0x59ffcb9eu, "View Cargo Fire Geometry"},
    {0x5a0e1bcau, "View Commander"},
    {0x5a1c51c4u, "View Commander Geometry"},
    {0x5a2a87bfu, "View Commander Fire Geometry"},
    {0x5a38bdb9u, "View Pilot Geometry"},
    {0x5a46f3b4u, "View Pilot Fire Geometry"},
    {0x5a5529afu, "View Gunner Geometry"},
    {0x5a635fa9u, "View Gunner Fire Geometry"},
    {0x5a7195a4u, "Sub Parts"},
};

void ferry_odol_resolution_name(float resolution, char *out, size_t out_size)
{
    if (!out_size) return;
    uint32_t bits = fy_f32_bits(resolution);
    for (size_t i = 0; i < sizeof named_resolutions / sizeof named_resolutions[0]; i++) {
        if (named_resolutions[i].bits == bits) {
            snprintf(out, out_size, "%s", named_resolutions[i].name);
            return;
        }
    }
    double r = resolution;
    /* Visual LODs are named by their number, as the tools show them. */
    if (r >= 0 && r < 1000)
        snprintf(out, out_size, "%.3f", r);
    else if (r >= 10000 && r < 11000)
        snprintf(out, out_size, "Stencil Shadow %.0f", r - 10000);
    else if (r >= 11000 && r < 12000)
        snprintf(out, out_size, "Shadow Volume %.0f", r - 11000);
    else
        snprintf(out, out_size, "Resolution %g", r);
}
