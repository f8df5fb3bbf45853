/* ferry convert model.alo|model.glb out.alm: a progressive mesh from a real one. */
#include "formats.h"

int cli_alm_build(const char *in, const char *out)
{
    (void)out;
    fprintf(stderr, "%s: building ALM files is not implemented yet\n", in);
    return CLI_INVALID;
}
