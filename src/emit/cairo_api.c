/* SPDX-License-Identifier: MIT */
/* Pango's and cairo's table (cairo_api.h), filled on first use. */
#define FSC_CAIRO_API_FILL
#include "cairo_api.h"

/* pango_cairo_*, pango_* and g_object_unref are found through pangocairo's own
 * dependencies; cairo is named too, for cairo_pdf_* */

FSC_DYNLIB_DEFINE(fsc_cairo, FSC_CAIRO_FUNCS, "charts", FSC_SONAME_PANGOCAIRO, FSC_SONAME_CAIRO)
