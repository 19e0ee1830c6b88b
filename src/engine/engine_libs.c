/* SPDX-License-Identifier: MIT */
/* The engine's library tables (engine_libs.h), filled on first use. */
#define FSC_ENGINE_LIBS_FILL
#include "engine_libs.h"

#include <string.h>

FSC_DYNLIB_DEFINE(fsc_inih, FSC_INIH_FUNCS, "job files", FSC_SONAME_INIH)
FSC_DYNLIB_DEFINE(fsc_nettle, FSC_NETTLE_FUNCS, "verify=md5 and verify=sha256", FSC_SONAME_NETTLE)
#ifdef FSC_HAVE_LIBURING
FSC_DYNLIB_DEFINE(fsc_uring, FSC_URING_FUNCS, "jobs with ioengine=io_uring", FSC_SONAME_URING)
#endif
#ifdef FSC_HAVE_LIBAIO
FSC_DYNLIB_DEFINE(fsc_aio, FSC_AIO_FUNCS, "jobs with ioengine=libaio", FSC_SONAME_AIO)
#endif
