/* SPDX-License-Identifier: MIT */
/* `fioscope compare` (not built yet). */
#include "cli.h"

int fsc_cmd_compare(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fsc_cli_err("compare: not implemented yet");
    return FSC_EXIT_USAGE;
}
