/* SPDX-License-Identifier: MIT */
/* ISA-L's table (isal_api.h), filled on first use. */
#include "isal_api.h"

#ifdef FSC_HAVE_ISAL
#include "fioscope/common.h"

FSC_DYNLIB_DEFINE(fsc_isal, FSC_ISAL_FUNCS, "fast gzip and zip", FSC_SONAME_ISAL)

bool fsc_isal_usable(void)
{
    return !fsc_env_switch("FIOSCOPE_NO_ISAL") && fsc_isal_api_open(NULL);
}
#endif
