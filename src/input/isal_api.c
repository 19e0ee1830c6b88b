/* SPDX-License-Identifier: MIT */
/* ISA-L's table (isal_api.h), filled on first use. */
#include "isal_api.h"

#ifdef FSC_HAVE_ISAL
FSC_DYNLIB_DEFINE(fsc_isal, FSC_ISAL_FUNCS, "fast gzip and zip", FSC_SONAME_ISAL)
#endif
