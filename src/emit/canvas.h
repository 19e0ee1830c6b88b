/* SPDX-License-Identifier: MIT */
/*
 * Private to src/emit: the drawing surface of charts. One set of primitives (rectangles,
 * lines, circles, one-line text) drawn either with cairo (PNG, PDF) or written as SVG
 * elements (text stays text, XML-escaped, so tests and search engines can read it).
 * Text is always measured with Pango under fixed font options, so a chart has the same
 * layout whichever surface draws it.
 */
#ifndef FIOSCOPE_CANVAS_H
#define FIOSCOPE_CANVAS_H

#include "fioscope/buf.h"

#include <cairo.h>

typedef struct fsc_rgb {
    double r, g, b;
} fsc_rgb;

typedef enum fsc_align { FSC_AL_LEFT, FSC_AL_CENTER, FSC_AL_RIGHT } fsc_align;

typedef struct fsc_canvas fsc_canvas;

/* A canvas drawing on cr (not owned). NULL on allocation failure. */
fsc_canvas *fsc_canvas_cairo(cairo_t *cr);
/* A canvas writing an SVG document of w×h pixels to out (appended); the document is
 * complete after fsc_canvas_free. NULL on allocation failure. */
fsc_canvas *fsc_canvas_svg(fsc_buf *out, int w, int h, const char *title, const char *desc);
void fsc_canvas_free(fsc_canvas *cv);
bool fsc_canvas_is_svg(const fsc_canvas *cv);

/* Tooltip for the next shape (SVG <title>); copied. */
void fsc_cv_tip(fsc_canvas *cv, const char *text);
/* SVG grouping for structure (<g class="cls" data-name="name">); no-op on cairo. */
void fsc_cv_group(fsc_canvas *cv, const char *cls, const char *name);
void fsc_cv_group_end(fsc_canvas *cv);

void fsc_cv_rect(fsc_canvas *cv, double x, double y, double w, double h, fsc_rgb fill, double alpha);
void fsc_cv_rect_outline(fsc_canvas *cv, double x, double y, double w, double h, fsc_rgb c, double lw);
/* dash 0: solid; else dash length in pixels. */
void fsc_cv_line(fsc_canvas *cv, double x0, double y0, double x1, double y1, fsc_rgb c, double lw,
                 double dash);
/* A polyline through n points (xy[2i], xy[2i+1]). */
void fsc_cv_path(fsc_canvas *cv, const double *xy, size_t n, fsc_rgb c, double lw, double dash);
/* A filled circle; outline when ring_lw > 0 (in ring colour). */
void fsc_cv_circle(fsc_canvas *cv, double x, double y, double r, fsc_rgb fill, double ring_lw,
                   fsc_rgb ring);
void fsc_cv_clip(fsc_canvas *cv, double x, double y, double w, double h);
void fsc_cv_unclip(fsc_canvas *cv);

/* One line of text: (x, y) is the anchor (left, centre or right end by al) of the top
 * edge of the line; angle in degrees (counter-clockwise, about the anchor). cls names
 * the kind of text in SVG ("title", "tick", "category", "value", "legend"...). */
void fsc_cv_text(fsc_canvas *cv, const char *s, double x, double y, fsc_align al, double px,
                 bool bold, double angle, fsc_rgb c, const char *cls);
double fsc_cv_text_width(fsc_canvas *cv, const char *s, double px, bool bold);
/* Height of one line of text at px. */
double fsc_cv_line_height(fsc_canvas *cv, double px);

/* s shortened in the middle ("RAID 0 › 4k 随…› 4k_randwrite") so that it is at most
 * max_w wide; the end, which tells similar names apart, keeps two thirds. Owned by
 * the caller; NULL on allocation failure. */
char *fsc_cv_fit_middle(fsc_canvas *cv, const char *s, double px, bool bold, double max_w);
/* s wrapped into at most max_lines lines of width max_w (the last one cut in the
 * middle if the text is longer). Lines are appended to *lines (each owned); returns
 * the count, 0 on allocation failure. */
size_t fsc_cv_wrap(fsc_canvas *cv, const char *s, double px, bool bold, double max_w, int max_lines,
                   char ***lines);
void fsc_cv_free_lines(char **lines, size_t n);

/* Append s to out escaped for XML text and attributes: & < > " ', C0 controls other
 * than tab and newline and the non-characters U+FFFE/U+FFFF as spaces, invalid UTF-8
 * as U+FFFD. */
void fsc_xml_escape(fsc_buf *out, const char *s);

struct fsc_chart;
/* Draw a whole chart (chart_draw.c) on cv, which is width×height pixels. */
void fsc_chart_draw(fsc_canvas *cv, const struct fsc_chart *c, int width, int height);

#endif
