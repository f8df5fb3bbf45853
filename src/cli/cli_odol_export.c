/* ferry convert model.p3d out.glb: every LOD of an ODOL model as glTF. */
#include "formats.h"

int cli_odol_export(const char *in, const char *out, const uint32_t *lods, size_t lod_count)
{
    (void)out, (void)lods, (void)lod_count;
    fprintf(stderr, "%s: ODOL to glTF is not implemented yet\n", in);
    return CLI_INVALID;
}
