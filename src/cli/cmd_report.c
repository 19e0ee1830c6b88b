/* SPDX-License-Identifier: MIT */
/* `fioscope report` (not built yet). */
#include "cli.h"

int fsc_cmd_report(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fsc_cli_err("report: not implemented yet");
    return FSC_EXIT_USAGE;
}
