/* ferry render: placeholder until the renderer lands. */
#include "cli.h"
int cmd_render(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    return cli_usage_error("render", "not yet");
}
