/* SPDX-License-Identifier: MIT */
/* Cairo's and pango's tables (cairo_api.h), filled on first use. */
#define FSC_CAIRO_API_FILL
#include "cairo_api.h"

/* two libraries, so that a machine with cairo and without pango still draws charts */
FSC_DYNLIB_DEFINE(fsc_cairo, FSC_CAIRO_FUNCS, "charts", FSC_SONAME_CAIRO)
FSC_DYNLIB_DEFINE(fsc_pango, FSC_PANGO_FUNCS, "chart labels", FSC_SONAME_PANGOCAIRO)
