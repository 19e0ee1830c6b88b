/* SPDX-License-Identifier: MIT */
/* libarchive's table (archive_api.h), filled on first use. */
#define FSC_ARCHIVE_API_FILL
#include "archive_api.h"

FSC_DYNLIB_DEFINE(fsc_archive, FSC_ARCHIVE_FUNCS, "archives", FSC_SONAME_ARCHIVE)
