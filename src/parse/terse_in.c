/* SPDX-License-Identifier: MIT */
/* fio terse (minimal) output, versions 2 to 5, into the run model. */
#include "parse_int.h"

int fsc_terse_detect(const char *s, size_t n)
{
    (void)s;
    (void)n;
    return 0;
}

fsc_status fsc_terse_read(fsc_run *run, const char *s, size_t n, uint32_t lineno)
{
    (void)s;
    (void)n;
    fsc_run_warn(run, lineno, "terse reader not built yet");
    return FSC_OK;
}
