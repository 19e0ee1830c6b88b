/* SPDX-License-Identifier: MIT */
/*
 * Tables: rows (per job, group, label or run) × metric columns of typed cells, built
 * once from a runset and rendered as text, md, csv, tsv, html or json. `table`,
 * `compare` and `report` all go through here.
 */
#ifndef FIOSCOPE_TABLE_H
#define FIOSCOPE_TABLE_H

#include "fioscope/analyze.h"
#include "fioscope/buf.h"
#include "fioscope/metric.h"
#include "fioscope/model.h"
#include "fioscope/parse.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum fsc_by { FSC_BY_JOB, FSC_BY_GROUP, FSC_BY_LABEL, FSC_BY_RUN } fsc_by;

typedef enum fsc_cell_kind { FSC_CELL_EMPTY, FSC_CELL_NUM, FSC_CELL_TEXT } fsc_cell_kind;

typedef struct fsc_cell {
    fsc_cell_kind kind;
    double num;  /* base unit */
    char *text;  /* owned */
} fsc_cell;

typedef struct fsc_row {
    char *label;     /* owned */
    size_t run_index; /* into the runset */
    size_t job_index; /* SIZE_MAX when the row is not a single job */
    fsc_cell *cells;  /* n_cols */
    int dir;          /* FSC_DIR_* when the row shows one direction of a mixed job, else -1 */
    bool total;       /* the "total" row after the per-direction rows of a mixed job */
} fsc_row;

typedef struct fsc_table {
    fsc_metric *cols; /* owned copies of the column metrics */
    size_t n_cols;
    fsc_row *rows;
    size_t n_rows, cap_rows;
} fsc_table;

/* Default metric list of `table`. */
extern const char *const fsc_default_metrics;

/* Build a table. metrics: comma list (NULL = default). Unknown metric → NULL and a
 * message in err naming it. */
fsc_table *fsc_table_build(const fsc_runset *set, const char *metrics, fsc_by by,
                           fsc_label_from label_from, fsc_buf *err);
void fsc_table_free(fsc_table *t);
/* Drops (and frees) the rows that have no number in any column: jobs a section's
 * metrics say nothing of. Returns the rows left. */
size_t fsc_table_drop_empty_rows(fsc_table *t);

/* Options of fsc_table_build_opts(). Zero-initialized = the defaults of `table`. */
typedef struct fsc_table_opts {
    fsc_by by;
    fsc_label_from label_from;
    /* Mixed read/write: when the metric list has a direction-agnostic number (iops, bw,
     * lat...), a row whose jobs did more than one direction becomes one row per
     * direction ("read", "write") followed by a "total" row. no_split keeps only the
     * total row. */
    bool no_split;
    /* The rows, directions, labels and dimensions to use (built on the same runset;
     * --where, --system-from, --workload-key applied). NULL: an analysis with the
     * default options is built for the table. Borrowed. */
    const fsc_analysis *analysis;
} fsc_table_opts;

/* Like fsc_table_build() with every option. opts NULL = defaults. */
fsc_table *fsc_table_build_opts(const fsc_runset *set, const char *metrics,
                                const fsc_table_opts *opts, fsc_buf *err);

/* Append the human text of one cell (text cells with control characters turned into
 * spaces, numbers via fsc_format_human, empty cells as nothing). */
void fsc_table_cell_human(const fsc_table *t, size_t row, size_t col, fsc_buf *out);

/* Name of a base unit as the json format writes it: "bytes", "bytes/s", "ns", "ms",
 * "%", "iops", "count", "KiB/s", or "" for plain numbers. Static storage. */
const char *fsc_unit_name(fsc_unit u);

/* Display width in terminal columns of UTF-8 text s[0..n): East Asian wide and
 * fullwidth characters count 2, combining marks and ANSI colour sequences 0, invalid
 * bytes 1. */
size_t fsc_text_width(const char *s, size_t n);

/* Render: "text", "md", "csv", "tsv", "html", "json". Human units for text/md/html,
 * base units for csv/tsv/json. Returns FSC_E_USAGE for an unknown format. */
fsc_status fsc_table_render(const fsc_table *t, const char *format, fsc_buf *out);

/* Render pivots (fioscope/analyze.h), one per metric, as "text", "md", "html" (a
 * block each, human units, the change against the baseline in brackets), "csv",
 * "tsv" (one table: [metric,] row-key fields, the column values, then
 * "<value> delta_pct" columns with a baseline; base units) or "json". FSC_E_USAGE
 * for an unknown format or n = 0. */
fsc_status fsc_pivot_render(const fsc_pivot *const *ps, size_t n, const char *format, fsc_buf *out);

/* Human text of a number in a unit ("254 MiB/s", "3.83 ms", "65.1k"): three
 * significant digits, IEC units for bytes, ns/µs/ms/s for latency (FSC_UNIT_MS is
 * converted), k/M/G for IOPS and counts, "29.1%" for percentages. */
void fsc_format_human(fsc_buf *b, double v, fsc_unit unit);

#ifdef __cplusplus
}
#endif
#endif
