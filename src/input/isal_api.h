/* SPDX-License-Identifier: MIT */
/*
 * ISA-L's inflate (libisal), opened on first use (fioscope/dynlib.h): one table for
 * the two decoders that use it, gzip streams (gunzip.h) and zip members (unzip.h).
 * Only in a build that found libisal (FSC_HAVE_ISAL).
 */
#ifndef FSC_ISAL_API_H
#define FSC_ISAL_API_H

#ifdef FSC_HAVE_ISAL

#include "fioscope/dynlib.h"

#include <isa-l/igzip_lib.h>

#define FSC_ISAL_FUNCS(X, t) \
    X(t, isal_inflate_init) \
    X(t, isal_inflate)

typedef struct fsc_isal_api {
    FSC_ISAL_FUNCS(FSC_DYNLIB_SLOT, )
} fsc_isal_api;
extern fsc_isal_api fsc_isal;

/* Open libisal once per process: false (with *why) when it cannot be loaded. */
bool fsc_isal_api_open(const char **why);
bool fsc_isal_api_is_open(void);

/* May the decoders use ISA-L: FIOSCOPE_NO_ISAL not set, and libisal opened? (The one
 * switch for gzip and zip alike; libarchive's zlib otherwise.) */
bool fsc_isal_usable(void);

#endif
#endif
