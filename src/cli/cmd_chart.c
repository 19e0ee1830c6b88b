/* SPDX-License-Identifier: MIT */
/* `fioscope chart` (not built yet). */
#include "cli.h"

int fsc_cmd_chart(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fsc_cli_err("chart: not implemented yet");
    return FSC_EXIT_USAGE;
}
