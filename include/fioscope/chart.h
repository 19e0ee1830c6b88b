/* SPDX-License-Identifier: MIT */
/*
 * Charts: a small description (categories or x values, named series, axis units)
 * built from tables and runs, drawn as PNG with cairo + Pango. Same input → same
 * bytes: nothing time-dependent is drawn.
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
    FSC_CHART_BUCKETS  /* latency distribution: bars per bucket (categories), % of I/Os */
} fsc_chart_type;

/* "bar", "line", "scatter", "pctl", "buckets"; -1 if unknown. */
int fsc_chart_type_from_name(const char *name);

/* One legend entry. Bar/bucket charts use y[i] for category i (x unused); the others
 * use (x[i], y[i]). NAN marks an absent value. */
typedef struct fsc_series {
    char *name; /* owned */
    double *x, *y;
    size_t n, cap;
} fsc_series;

typedef struct fsc_chart {
    fsc_chart_type type;
    char *title;    /* owned */
    char *subtitle; /* owned, may be NULL */
    char *x_title, *y_title; /* axis titles without unit (owned, may be NULL) */
    fsc_unit x_unit, y_unit; /* the axis shows a readable multiple (MiB/s, µs) */
    bool y_log;
    char **categories; /* bar/bucket charts (owned) */
    size_t n_categories, cap_categories;
    fsc_series *series;
    size_t n_series, cap_series;
    struct fsc_chart_names *names[2]; /* private: names given so far (categories, series) */
} fsc_chart;

/* A new empty chart, or NULL on allocation failure. Free with fsc_chart_free. */
fsc_chart *fsc_chart_new(fsc_chart_type type, const char *title);
void fsc_chart_free(fsc_chart *c); /* NULL is fine */
/* Set axis titles (copied; NULL allowed) and units. Returns false on allocation failure. */
bool fsc_chart_axes(fsc_chart *c, const char *x_title, fsc_unit x_unit, const char *y_title,
                    fsc_unit y_unit);
bool fsc_chart_add_category(fsc_chart *c, const char *name);
/* Append a series named name (copied); NULL on allocation failure. The pointer is
 * valid until the next fsc_chart_add_series. */
fsc_series *fsc_chart_add_series(fsc_chart *c, const char *name);
bool fsc_series_add(fsc_series *s, double x, double y);
/* True when at least one finite value would be drawn. */
bool fsc_chart_has_data(const fsc_chart *c);

/* Draw c as a width×height PNG into png (appended). FSC_E_USAGE for a size outside
 * 200..8000 px, FSC_E_NOMEM/FSC_E_IO on cairo failure (reason in err). */
fsc_status fsc_chart_png(const fsc_chart *c, int width, int height, fsc_buf *png, fsc_buf *err);

/* Release the font and glyph caches that Pango, fontconfig and cairo keep for the
 * life of the process (so that leak checkers see a clean exit). Call once, after
 * the last chart, from the main thread. */
void fsc_chart_shutdown(void);

/* ---- builders: every one returns NULL on allocation failure; check
 * fsc_chart_has_data() before drawing. ---- */

/* Grouped bars from a table: categories = row labels, one series per numeric column
 * (titled by the column). All numeric columns should share one unit. */
fsc_chart *fsc_chart_from_table(const fsc_table *t, const char *title, const char *y_title);
/* Grouped bars that compare the outermost heading of the labels: for labels like
 * "RAID 0 › 4k 随机写 › 4k_randwrite", the series are the first part ("RAID 0", one per
 * system) and the groups the rest ("4k 随机写 › 4k_randwrite", one per test), from the
 * table's first numeric column. Has no data unless two series share a group. */
fsc_chart *fsc_chart_by_heading(const fsc_table *t, const char *title, const char *y_title);
/* x/y chart from a table's first two columns (bar: categories from the x column, or
 * the row label when x is text); every row is a point, one series per rw option when
 * line/scatter. */
fsc_chart *fsc_chart_xy(const fsc_table *t, fsc_chart_type type);
/* Percentile curves of latency kind k for every job and direction that has them. */
fsc_chart *fsc_chart_percentiles(const fsc_runset *set, fsc_latkind k, fsc_label_from from);
/* fio's latency_ns/us/ms buckets, one series per job (the first 10 jobs). */
fsc_chart *fsc_chart_buckets(const fsc_runset *set, fsc_label_from from);
/* Disk utilisation (%) per device of every run. */
fsc_chart *fsc_chart_disk_util(const fsc_runset *set);
/* Scaling over one job option ("iodepth", "bs" or "numjobs"): jobs that agree on the
 * other options (rw, ioengine, bs, iodepth, numjobs) form a series; y is the summed
 * IOPS (bandwidth for bs) of the jobs of one run with one name. Has no data unless some
 * series shows two values of the option. */
fsc_chart *fsc_chart_scaling(const fsc_runset *set, const char *param);

#ifdef __cplusplus
}
#endif
#endif
