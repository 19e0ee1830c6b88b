/* SPDX-License-Identifier: MIT */
/* Headings and command lines above a run: its context. */
#include "parse_int.h"

fsc_status fsc_context_collect(const fsc_text *t, size_t first, fsc_run *run)
{
    (void)t;
    (void)first;
    (void)run;
    return FSC_OK;
}
