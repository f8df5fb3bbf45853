/* ferry convert mesh.alm out.glb: an ALM mesh (at a level of detail) as glTF. */
#include "formats.h"

int cli_alm_export(const char *in, const char *out, const struct ferry_alm_lod_options *lod)
{
    (void)out, (void)lod;
    fprintf(stderr, "%s: ALM to glTF is not implemented yet\n", in);
    return CLI_INVALID;
}
