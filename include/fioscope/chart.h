/* SPDX-License-Identifier: MIT */
/*
 * Charts: a small description (categories or x values, named series, axis units,
 * optional panels for small multiples) built from tables and runs, drawn as PNG or
 * PDF with cairo + Pango, or written as SVG whose text stays text. Same input → same
 * bytes: nothing time-dependent is drawn.
 *
 * Readability rules the renderer keeps whatever the input: at most about 30 bars per
 * plot (the rest is named in a visible note), labels cut in the middle so that the
 * distinguishing end stays, room above the tallest bar for its value, decade ticks in
 * the unit's own multiples (10 MiB/s, 100 MiB/s, 1 GiB/s; 4 KiB … 1 MiB), shares on a
 * linear 0–100% axis, colours from a colour-blind-safe palette.
 */
#ifndef FIOSCOPE_CHART_H
#define FIOSCOPE_CHART_H

#include "fioscope/buf.h"
#include "fioscope/model.h"
#include "fioscope/parse.h"
#include "fioscope/table.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum fsc_chart_type {
    FSC_CHART_BAR,     /* grouped bars: one group per category, one bar per series */
    FSC_CHART_LINE,    /* x/y points joined per series */
    FSC_CHART_SCATTER, /* x/y points */
    FSC_CHART_PCTL,    /* latency percentile curves: x = percentile (%), log latency axis */
    FSC_CHART_BUCKETS, /* latency distribution: bars per bucket (categories), % of I/Os */
    FSC_CHART_HEATMAP, /* cells: categories are the columns, series the rows, y the value */
    FSC_CHART_BOX      /* per category and series: box of the repeats (quartiles, min–max) */
} fsc_chart_type;

/* "bar", "line", "scatter", "pctl", "buckets", "heatmap", "box"; -1 if unknown. */
int fsc_chart_type_from_name(const char *name);
/* The name of a type (static storage). */
const char *fsc_chart_type_name(fsc_chart_type t);

typedef enum fsc_chart_format { FSC_CHART_PNG, FSC_CHART_SVG, FSC_CHART_PDF } fsc_chart_format;

/* The format named by a file name's extension (.png, .svg, .pdf, any case); -1 when
 * it has none of them. */
int fsc_chart_format_from_path(const char *path);

/* One value of a repeated measurement at point i of a series (drawn as a dot, with
 * the range of all of them). */
typedef struct fsc_repeat {
    size_t i;
    double v;
} fsc_repeat;

/* One legend entry. Bar/bucket/box/heatmap charts use y[i] for category i (x unused);
 * the others use (x[i], y[i]). NAN marks an absent value. */
typedef struct fsc_series {
    char *name; /* owned */
    double *x, *y;
    size_t n, cap;
    int color;   /* palette index: the series' position unless a builder sets one (one colour
                  * per system across the charts of a report) */
    bool y2;     /* on the right-hand axis (twin axes): a line with markers */
    bool dashed; /* dashed line (a second direction of the same system) */
    bool no_legend; /* not in the legend (the subtitle explains it: "dashed: write") */
    fsc_repeat *rep; /* repeats (owned); y[i] is then their median */
    size_t n_rep, cap_rep;
} fsc_series;

typedef struct fsc_chart {
    fsc_chart_type type;
    char *title;    /* owned */
    char *subtitle; /* owned, may be NULL */
    char *x_title, *y_title; /* axis titles without unit (owned, may be NULL) */
    fsc_unit x_unit, y_unit; /* the axis shows a readable multiple (MiB/s, µs) */
    bool y_log;    /* always a log y axis */
    bool y_linear; /* never a log y axis (by default bars that differ by 200× go log) */
    char **categories; /* bar/bucket/box/heatmap charts (owned) */
    size_t n_categories, cap_categories;
    fsc_series *series;
    size_t n_series, cap_series;
    struct fsc_chart_names *names[2]; /* private: names given so far (categories, series) */
    /* ---- optional parts ---- */
    char *y2_title; /* right-hand axis of y2 series (owned, may be NULL) */
    fsc_unit y2_unit;
    char *row_title;  /* heatmap: what the rows are (owned, may be NULL) */
    char *note;       /* a visible remark under the plot: "and 12 more jobs" (owned) */
    char *footnote;   /* provenance: fio versions, sources, fioscope version (owned); also
                       * PNG text chunks, the SVG <desc> and the PDF subject */
    int baseline;     /* series the others are compared with: bars get "+12%"; -1 = none */
    bool panel_legends; /* each panel names its own series (more systems than colours) */
    struct fsc_chart **panels; /* small multiples, each a chart of this type (owned) */
    size_t n_panels, cap_panels;
} fsc_chart;

/* A new empty chart, or NULL on allocation failure. Free with fsc_chart_free. */
fsc_chart *fsc_chart_new(fsc_chart_type type, const char *title);
void fsc_chart_free(fsc_chart *c); /* NULL is fine; frees the panels */
/* Set axis titles (copied; NULL allowed) and units. Returns false on allocation failure. */
bool fsc_chart_axes(fsc_chart *c, const char *x_title, fsc_unit x_unit, const char *y_title,
                    fsc_unit y_unit);
/* Replace one of the chart's texts (c->title, c->subtitle, c->note, c->footnote,
 * c->y2_title, c->row_title) with a copy of text (NULL clears it, except the title). */
bool fsc_chart_set_text(char **field, const char *text);
/* Append a category; "name #2" when the name is taken. Control characters and ANSI
 * colour sequences are removed from every text that goes into a chart. */
bool fsc_chart_add_category(fsc_chart *c, const char *name);
/* Append a series named name (copied); NULL on allocation failure. The pointer is
 * valid until the next fsc_chart_add_series. */
fsc_series *fsc_chart_add_series(fsc_chart *c, const char *name);
bool fsc_series_add(fsc_series *s, double x, double y);
/* Record one repeat of point i (its value v). */
bool fsc_series_add_repeat(fsc_series *s, size_t i, double v);
/* A panel (small multiple) titled title: a new chart of c's type with c's axes,
 * owned by c. NULL on allocation failure. */
fsc_chart *fsc_chart_add_panel(fsc_chart *c, const char *title);
/* True when at least one finite value would be drawn (in c or a panel). */
bool fsc_chart_has_data(const fsc_chart *c);
/* Set c->footnote to where the numbers come from: fio versions, sources (the first
 * few by name), fioscope's version. */
bool fsc_chart_provenance(fsc_chart *c, const fsc_runset *set);

/* Distinct series colours; index i and i + FSC_CHART_COLORS look the same. */
#define FSC_CHART_COLORS 12

/* "#0072b2": the colour of palette index i (series colours; one per system in a report). */
void fsc_chart_color_hex(int i, char out[8]);

/* The size a chart reads well at, from the size asked for: panels of small multiples
 * get at least about 300 px of height per row (up to 8000). */
void fsc_chart_fit_size(const fsc_chart *c, int *width, int *height);

/* Draw c at width×height pixels in format f, appended to out. FSC_E_USAGE for a size
 * outside 200..8000 px, FSC_E_UNSUPPORTED when cairo cannot be loaded (see
 * fsc_chart_available; without pango the text is plainer, fsc_chart_plain_text), FSC_E_NOMEM/FSC_E_IO on cairo failure (reason in err). PNGs
 * carry the title and footnote as iTXt chunks (Title, Source, Software). */
fsc_status fsc_chart_render(const fsc_chart *c, fsc_chart_format f, int width, int height,
                            fsc_buf *out, fsc_buf *err);
/* fsc_chart_render(c, FSC_CHART_PNG, ...). */
fsc_status fsc_chart_png(const fsc_chart *c, int width, int height, fsc_buf *png, fsc_buf *err);

/* Whether charts can be drawn here: cairo, opened on first use, can be loaded. Opens
 * it if not tried yet. When not, *why (if why is not NULL) is one line naming the
 * library and its Debian package, valid for the process' life. */
bool fsc_chart_available(const char **why);

/* After a chart was drawn: whether its text was drawn with cairo's simple text API
 * because pango cannot be loaded (no shaping, no font fallback: CJK labels may show
 * as boxes); *why as for fsc_chart_available. */
bool fsc_chart_plain_text(const char **why);

/* Release Pango's font map and its caches (fontconfig's configuration stays for the
 * life of the process). Call once, after the last chart, from the main thread. */
void fsc_chart_shutdown(void);

/* ---- builders: every one returns NULL on allocation failure; check
 * fsc_chart_has_data() before drawing. ---- */

/* Grouped bars from a table: categories = row labels, one series per numeric column
 * (titled by the column). All numeric columns should share one unit. */
fsc_chart *fsc_chart_from_table(const fsc_table *t, const char *title, const char *y_title);
/* x/y chart from a table's first two columns (bar: categories from the x column, or
 * the row label when x is text); every row is a point, one series per rw option when
 * line/scatter. */
fsc_chart *fsc_chart_xy(const fsc_table *t, fsc_chart_type type);

/* What fsc_chart_dims draws: the table's columns by index (SIZE_MAX = not used). */
typedef struct fsc_chart_dims_spec {
    fsc_chart_type type;
    size_t x, y;        /* x: categories (bar, box, heatmap) or x values; SIZE_MAX = row label */
    size_t series;      /* one series per value of this column (heatmap: the rows) */
    size_t facet;       /* one panel per value of this column */
} fsc_chart_dims_spec;
/* Any chart from table columns: categories or x from one column, series from another,
 * panels from a third. Rows that land on the same point are repeats: the point is
 * their median and the repeats are kept (dots and range, or a box). */
fsc_chart *fsc_chart_dims(const fsc_table *t, const fsc_chart_dims_spec *spec, const char *title);

/* Percentile curves of latency kind k for every job and direction that has them. */
fsc_chart *fsc_chart_percentiles(const fsc_runset *set, fsc_latkind k, fsc_label_from from);
/* fio's latency_ns/us/ms buckets, one series per job (the first 10 jobs). */
fsc_chart *fsc_chart_buckets(const fsc_runset *set, fsc_label_from from);
/* fio's latency buckets of jobs[0..n) into c: categories are the buckets from the
 * first any of them filled to the last, one series per job named names[i] (colour
 * colors[i]; colors may be NULL). False on allocation failure. */
bool fsc_chart_add_buckets(fsc_chart *c, const fsc_job *const *jobs, const char *const *names, const int *colors,
                           size_t n);
/* Disk utilisation (%) per device of every run. */
fsc_chart *fsc_chart_disk_util(const fsc_runset *set);

#ifdef __cplusplus
}
#endif
#endif
