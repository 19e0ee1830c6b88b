/* SPDX-License-Identifier: MIT */
/* `fioscope run` (not built yet). */
#include "cli.h"

int fsc_cmd_run(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fsc_cli_err("run: not implemented yet");
    return FSC_EXIT_USAGE;
}
