/* SPDX-License-Identifier: MIT */
/* `fioscope table` (not built yet). */
#include "cli.h"

int fsc_cmd_table(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fsc_cli_err("table: not implemented yet");
    return FSC_EXIT_USAGE;
}
