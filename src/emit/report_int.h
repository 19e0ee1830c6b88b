/* SPDX-License-Identifier: MIT */
/* Private to the report writer: the tables of one report and the .xlsx writer. */
#ifndef FIOSCOPE_REPORT_INT_H
#define FIOSCOPE_REPORT_INT_H

#include "fioscope/analyze.h"
#include "fioscope/table.h"

/* One metric family: a sheet of the workbook and a section of the pages. */
typedef struct fsc_report_family {
    const char *sheet;   /* "IOPS" (also the section title) */
    const char *metrics; /* what is asked of fsc_table_build */
    bool chart;          /* native bar chart in the workbook */
    fsc_table *table;    /* by job, only columns with data; NULL when none had any */
} fsc_report_family;

/* One row of the Compare sheet: a system against the baseline on one workload. */
typedef struct fsc_xlsx_cmp {
    const char *workload, *dir, *metric, *base, *system; /* borrowed */
    fsc_unit unit;
    double base_v, v;   /* medians, base unit */
    double delta_pct;   /* NAN when the baseline has no value */
    size_t n_base, n;   /* repeats */
    double p;           /* Mann-Whitney two-sided p; NAN when the counts cannot decide */
} fsc_xlsx_cmp;

/* Everything the workbook shows (borrowed). */
typedef struct fsc_xlsx_in {
    const fsc_table *summary;
    const fsc_report_family *fam;
    size_t n_fam;
    const struct fsc_pivot *const *pivots; /* workload × system, one block each */
    const char *const *pivot_titles;       /* "IOPS", "mean latency" ... */
    size_t n_pivots;
    const fsc_xlsx_cmp *cmp; /* the Compare sheet (when there are 2+ systems) */
    size_t n_cmp;
    const fsc_runset *set; /* the Sources sheet */
} fsc_xlsx_in;

/* Write the workbook to path (in a private folder: libxlsxwriter's own temporary
 * files go to tmpdir). Strings from input are always string cells, escaped so that
 * the XML stays well-formed and reads back as written. FSC_E_IO with err on failure. */
fsc_status fsc_xlsx_write(const char *path, const char *tmpdir, const fsc_xlsx_in *in, fsc_buf *err);

/* Whether libxlsxwriter, opened on first use, can be loaded (opens it if not tried
 * yet); when not, *why is one line naming it and its Debian package, valid for the
 * process' life. */
bool fsc_xlsx_available(const char **why);

/* Unit shown in the workbook for a base unit: divisor and header suffix ("MiB/s"). */
double fsc_xlsx_unit(fsc_unit u, const char **suffix, const char **number_format);

/* The table of metrics by job without the columns no job has a value for; *out NULL
 * (and FSC_OK) when only text columns are left. */
fsc_status fsc_report_trimmed(const fsc_runset *set, const fsc_analysis *a, const char *metrics,
                              fsc_label_from from, fsc_table **out, fsc_buf *err);

/* ---- the "Over time" sheet (xlsx_time.c) ---- */

#include "xlsx_api.h"

/* The workbook's formats the sheet uses. */
typedef struct fsc_xlsx_fmt {
    lxw_format *head;
    lxw_format *num[FSC_UNIT_PCT + 1]; /* number format per base unit */
} fsc_xlsx_fmt;

/* Add the "Over time" sheet when runs of set have log series: per run and kind, the
 * resampled series and a native line chart. The first error is kept in *err. */
void fsc_xlsx_time_sheet(lxw_workbook *wb, const fsc_runset *set, const fsc_xlsx_fmt *f, lxw_error *err);

/* ---- the charts of a report (report_charts.c) ---- */

typedef struct fsc_report_chart {
    char *file;    /* "compare-iops": charts/compare-iops.png and .svg (owned) */
    char *title;   /* owned */
    bool over_time; /* from the runs' log files: the "Over time" section */
    fsc_buf png, svg;
} fsc_report_chart;

/* A chart the report does not draw, and the sentence that says why. */
typedef struct fsc_report_skip {
    char *title, *reason; /* owned */
} fsc_report_skip;

typedef struct fsc_rcharts {
    /* in */
    const fsc_runset *set;
    const fsc_analysis *a;
    fsc_label_from label_from;
    int width, height;    /* 0 = 1600x900 */
    size_t baseline;      /* index of the baseline system */
    fsc_buf *err;
    /* out */
    fsc_report_chart *charts;
    size_t n_charts, cap_charts;
    fsc_report_skip *skips;
    size_t n_skips, cap_skips;
    /* why no chart could be drawn at all (pango or cairo cannot be loaded: the
     * library's message, not owned); NULL when charts can be drawn. The charts are
     * then skips, and the report is written without them. */
    const char *unavailable;
} fsc_rcharts;

/* Build and draw (PNG and SVG) every chart that has something to show. */
fsc_status fsc_report_charts(fsc_rcharts *rc);
void fsc_rcharts_free(fsc_rcharts *rc);

/* ---- the report folder (report_dir.c): opened once, written through descriptors ---- */

typedef struct fsc_outdir {
    int fd, charts_fd;
    const char *path; /* for messages (borrowed) */
} fsc_outdir;

/* Create or reuse the folder: missing, empty, or marked by FSC_REPORT_MARKER; charts/
 * must be a real folder (not a symlink); old charts (PNG and SVG files) are removed.
 * FSC_E_USAGE with a message for a folder it must not write to. */
fsc_status fsc_outdir_open(fsc_outdir *d, const char *path, fsc_buf *err);
void fsc_outdir_close(fsc_outdir *d);
/* Write name (in the folder, or in charts/) under a unique temporary name, then
 * rename it into place. */
fsc_status fsc_outdir_write(fsc_outdir *d, bool in_charts, const char *name, const void *data, size_t len,
                            fsc_buf *err);

/* Remove name from the folder (an earlier report's file that this one does not
 * write), without following a link; nothing when it is not there. */
void fsc_outdir_remove(fsc_outdir *d, const char *name);

/* A new private (0700) folder under $TMPDIR or /tmp; NULL with err on failure. The
 * caller removes it with fsc_scratch_remove (which frees the name). */
char *fsc_scratch_dir(fsc_buf *err);
void fsc_scratch_remove(char *dir);
/* Append the whole file at path (not through a symlink) to out. */
bool fsc_read_whole(const char *path, fsc_buf *out);

#endif
