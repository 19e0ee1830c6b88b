/* SPDX-License-Identifier: MIT */
/*
 * Pango and cairo, opened on first use (fioscope/dynlib.h): the functions the chart
 * renderer (canvas.c, chart_png.c) calls, through one table per library. Those files include this
 * header instead of cairo's and pango's; their calls read as they always did and go
 * through the table. Only drawing a chart (PNG, SVG or PDF) opens the libraries.
 */
#ifndef FSC_CAIRO_API_H
#define FSC_CAIRO_API_H

#include "fioscope/dynlib.h"

#include <cairo.h>
#include <cairo-pdf.h>
#include <pango/pangocairo.h>

#define FSC_CAIRO_FUNCS(X, t) \
    X(t, cairo_arc) \
    X(t, cairo_clip) \
    X(t, cairo_create) \
    X(t, cairo_destroy) \
    X(t, cairo_fill) \
    X(t, cairo_fill_preserve) \
    X(t, cairo_font_extents) \
    X(t, cairo_font_options_create) \
    X(t, cairo_font_options_destroy) \
    X(t, cairo_font_options_set_antialias) \
    X(t, cairo_font_options_set_hint_metrics) \
    X(t, cairo_font_options_set_hint_style) \
    X(t, cairo_image_surface_create) \
    X(t, cairo_line_to) \
    X(t, cairo_move_to) \
    X(t, cairo_new_path) \
    X(t, cairo_pdf_surface_create_for_stream) \
    X(t, cairo_pdf_surface_set_metadata) \
    X(t, cairo_rectangle) \
    X(t, cairo_restore) \
    X(t, cairo_rotate) \
    X(t, cairo_save) \
    X(t, cairo_scale) \
    X(t, cairo_select_font_face) \
    X(t, cairo_set_dash) \
    X(t, cairo_set_font_options) \
    X(t, cairo_set_font_size) \
    X(t, cairo_set_line_join) \
    X(t, cairo_set_line_width) \
    X(t, cairo_set_source_rgb) \
    X(t, cairo_set_source_rgba) \
    X(t, cairo_show_text) \
    X(t, cairo_status) \
    X(t, cairo_status_to_string) \
    X(t, cairo_stroke) \
    X(t, cairo_surface_destroy) \
    X(t, cairo_surface_finish) \
    X(t, cairo_surface_status) \
    X(t, cairo_surface_write_to_png_stream) \
    X(t, cairo_text_extents) \
    X(t, cairo_translate)

/* pango_cairo_*, pango_* and g_object_unref are found through pangocairo's own
 * dependencies */
#define FSC_PANGO_FUNCS(X, t) \
    X(t, g_object_unref) \
    X(t, pango_cairo_context_set_font_options) \
    X(t, pango_cairo_create_layout) \
    X(t, pango_cairo_font_map_set_default) \
    X(t, pango_cairo_show_layout) \
    X(t, pango_font_description_free) \
    X(t, pango_font_description_from_string) \
    X(t, pango_font_description_set_absolute_size) \
    X(t, pango_font_description_set_weight) \
    X(t, pango_layout_context_changed) \
    X(t, pango_layout_get_baseline) \
    X(t, pango_layout_get_context) \
    X(t, pango_layout_get_line_count) \
    X(t, pango_layout_get_line_readonly) \
    X(t, pango_layout_get_pixel_extents) \
    X(t, pango_layout_set_ellipsize) \
    X(t, pango_layout_set_font_description) \
    X(t, pango_layout_set_height) \
    X(t, pango_layout_set_single_paragraph_mode) \
    X(t, pango_layout_set_text) \
    X(t, pango_layout_set_width) \
    X(t, pango_layout_set_wrap)

typedef struct fsc_cairo_api {
    FSC_CAIRO_FUNCS(FSC_DYNLIB_SLOT, )
} fsc_cairo_api;
extern fsc_cairo_api fsc_cairo;

typedef struct fsc_pango_api {
    FSC_PANGO_FUNCS(FSC_DYNLIB_SLOT, )
} fsc_pango_api;
extern fsc_pango_api fsc_pango;

/* Open cairo, and pango, once per process (fsc_dynlib_open): false, with *why set,
 * when it cannot be loaded; and whether that has been done (FSC_DYNLIB_DEFINE, in the
 * .c). Cairo alone draws a chart, its text with cairo's own simple text API (no
 * shaping, no font fallback); pango lays the text out when it is there. */
bool fsc_cairo_api_open(const char **why);
bool fsc_cairo_api_is_open(void);
bool fsc_pango_api_open(const char **why);
bool fsc_pango_api_is_open(void);

#ifndef FSC_CAIRO_API_FILL /* the calls of the renderer go through the table */
#define cairo_arc fsc_cairo.cairo_arc
#define cairo_clip fsc_cairo.cairo_clip
#define cairo_create fsc_cairo.cairo_create
#define cairo_destroy fsc_cairo.cairo_destroy
#define cairo_fill fsc_cairo.cairo_fill
#define cairo_fill_preserve fsc_cairo.cairo_fill_preserve
#define cairo_font_options_create fsc_cairo.cairo_font_options_create
#define cairo_font_options_destroy fsc_cairo.cairo_font_options_destroy
#define cairo_font_options_set_antialias fsc_cairo.cairo_font_options_set_antialias
#define cairo_font_options_set_hint_metrics fsc_cairo.cairo_font_options_set_hint_metrics
#define cairo_font_options_set_hint_style fsc_cairo.cairo_font_options_set_hint_style
#define cairo_image_surface_create fsc_cairo.cairo_image_surface_create
#define cairo_line_to fsc_cairo.cairo_line_to
#define cairo_move_to fsc_cairo.cairo_move_to
#define cairo_new_path fsc_cairo.cairo_new_path
#define cairo_pdf_surface_create_for_stream fsc_cairo.cairo_pdf_surface_create_for_stream
#define cairo_pdf_surface_set_metadata fsc_cairo.cairo_pdf_surface_set_metadata
#define cairo_rectangle fsc_cairo.cairo_rectangle
#define cairo_restore fsc_cairo.cairo_restore
#define cairo_rotate fsc_cairo.cairo_rotate
#define cairo_save fsc_cairo.cairo_save
#define cairo_scale fsc_cairo.cairo_scale
#define cairo_set_dash fsc_cairo.cairo_set_dash
#define cairo_set_font_options fsc_cairo.cairo_set_font_options
#define cairo_set_line_join fsc_cairo.cairo_set_line_join
#define cairo_set_line_width fsc_cairo.cairo_set_line_width
#define cairo_set_source_rgb fsc_cairo.cairo_set_source_rgb
#define cairo_set_source_rgba fsc_cairo.cairo_set_source_rgba
#define cairo_status fsc_cairo.cairo_status
#define cairo_status_to_string fsc_cairo.cairo_status_to_string
#define cairo_stroke fsc_cairo.cairo_stroke
#define cairo_surface_destroy fsc_cairo.cairo_surface_destroy
#define cairo_surface_finish fsc_cairo.cairo_surface_finish
#define cairo_surface_status fsc_cairo.cairo_surface_status
#define cairo_surface_write_to_png_stream fsc_cairo.cairo_surface_write_to_png_stream
#define cairo_translate fsc_cairo.cairo_translate
#define cairo_font_extents fsc_cairo.cairo_font_extents
#define cairo_select_font_face fsc_cairo.cairo_select_font_face
#define cairo_set_font_size fsc_cairo.cairo_set_font_size
#define cairo_show_text fsc_cairo.cairo_show_text
#define cairo_text_extents fsc_cairo.cairo_text_extents
#define g_object_unref fsc_pango.g_object_unref
#define pango_cairo_context_set_font_options fsc_pango.pango_cairo_context_set_font_options
#define pango_cairo_create_layout fsc_pango.pango_cairo_create_layout
#define pango_cairo_font_map_set_default fsc_pango.pango_cairo_font_map_set_default
#define pango_cairo_show_layout fsc_pango.pango_cairo_show_layout
#define pango_font_description_free fsc_pango.pango_font_description_free
#define pango_font_description_from_string fsc_pango.pango_font_description_from_string
#define pango_font_description_set_absolute_size fsc_pango.pango_font_description_set_absolute_size
#define pango_font_description_set_weight fsc_pango.pango_font_description_set_weight
#define pango_layout_context_changed fsc_pango.pango_layout_context_changed
#define pango_layout_get_baseline fsc_pango.pango_layout_get_baseline
#define pango_layout_get_context fsc_pango.pango_layout_get_context
#define pango_layout_get_line_count fsc_pango.pango_layout_get_line_count
#define pango_layout_get_line_readonly fsc_pango.pango_layout_get_line_readonly
#define pango_layout_get_pixel_extents fsc_pango.pango_layout_get_pixel_extents
#define pango_layout_set_ellipsize fsc_pango.pango_layout_set_ellipsize
#define pango_layout_set_font_description fsc_pango.pango_layout_set_font_description
#define pango_layout_set_height fsc_pango.pango_layout_set_height
#define pango_layout_set_single_paragraph_mode fsc_pango.pango_layout_set_single_paragraph_mode
#define pango_layout_set_text fsc_pango.pango_layout_set_text
#define pango_layout_set_width fsc_pango.pango_layout_set_width
#define pango_layout_set_wrap fsc_pango.pango_layout_set_wrap
#endif

#endif
