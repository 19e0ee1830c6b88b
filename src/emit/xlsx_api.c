/* SPDX-License-Identifier: MIT */
/* libxlsxwriter's table (xlsx_api.h), filled on first use. */
#define FSC_XLSX_API_FILL
#include "xlsx_api.h"

FSC_DYNLIB_DEFINE(fsc_xlsx, FSC_XLSX_FUNCS, "workbooks", FSC_SONAME_XLSX)
