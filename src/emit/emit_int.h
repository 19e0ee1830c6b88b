/* SPDX-License-Identifier: MIT */
/* Private to src/emit: metric specs, their evaluation over a set of jobs, and the
 * table builder's grouping entry point that `compare` shares. */
#ifndef FIOSCOPE_EMIT_INT_H
#define FIOSCOPE_EMIT_INT_H

#include "fioscope/table.h"

/* What a metric reads. */
typedef enum fsc_mkind {
    FSC_MK_TEXT,      /* rw, bs, label ... */
    FSC_MK_DIR_FIELD, /* read.iops */
    FSC_MK_DIR_LAT,   /* read.clat_ns.p99 */
    FSC_MK_JOB_FIELD, /* usr_cpu, ctx */
    FSC_MK_CPU,       /* usr_cpu + sys_cpu */
    FSC_MK_ALL_FIELD, /* iops, bw: summed over the directions */
    FSC_MK_ALL_LAT    /* lat, clat.p99: I/O-weighted over the directions */
} fsc_mkind;

typedef enum fsc_mtext {
    FSC_MT_LABEL,
    FSC_MT_DIR,
    FSC_MT_RW,
    FSC_MT_BS,
    FSC_MT_IOENGINE,
    FSC_MT_IODEPTH,
    FSC_MT_JOBS,
    FSC_MT_JOBNAME,
    FSC_MT_FIO_VERSION,
    FSC_MT_FILE,
    FSC_MT_RUN
} fsc_mtext;

typedef enum fsc_lstat { FSC_LS_MIN, FSC_LS_MAX, FSC_LS_MEAN, FSC_LS_STDDEV, FSC_LS_N, FSC_LS_PCT } fsc_lstat;

/* How values of several jobs of one run combine (across runs: mean, or min/max). */
typedef enum fsc_magg { FSC_AGG_SUM, FSC_AGG_WMEAN, FSC_AGG_MEAN, FSC_AGG_MIN, FSC_AGG_MAX } fsc_magg;

typedef struct fsc_mspec {
    fsc_metric m;
    fsc_mkind kind;
    int dir;       /* FSC_MK_DIR_* */
    size_t offset; /* of the fsc_num in fsc_dir / fsc_lat / fsc_job */
    int latkind;
    fsc_lstat stat;
    double pct;
    fsc_mtext text;
    fsc_magg agg;
    double scale;  /* to the base unit: 1024 for KiB/s fields, else 1 */
    char name[64]; /* canonical name; m.name points here */
    char title[64];
} fsc_mspec;

/* Parse one metric name into *spec (m.name/m.title point into spec). */
bool fsc_mspec_parse(const char *name, size_t len, fsc_mspec *spec);

/* A number of one job (restricted to direction `only`, or -1 for all) with the weight
 * used when such numbers are averaged (the I/Os behind it). */
typedef struct fsc_mval {
    bool set;
    double v, w;
} fsc_mval;

fsc_mval fsc_mspec_eval(const fsc_mspec *s, const fsc_job *job, int only);

/* Directions of a job that count for the direction-agnostic metrics: "mixed" alone
 * when unified_rw_reporting printed it, else read/write/trim that carry data. Returns
 * a bit mask of (1u << FSC_DIR_*). */
unsigned fsc_job_dirs(const fsc_job *job);

/* Text of a job's text metric (static or job-owned storage; NULL = none). */
/* A block size as fio options and headers write it ("4k", "4K", "4096B", "1024KiB",
 * "64.0KiB", "(R) 4096B-4096B", "1m") in bytes; suffixes are 1024-based like fio's
 * options. NAN if there is no number. */
double fsc_bs_bytes(const char *s);

const char *fsc_job_text(const fsc_mspec *s, const fsc_run *run, const fsc_job *job,
                         char *tmp, size_t tmp_len);

/* Internal grouping used by `compare`: one row per (run, label), jobs of that label in
 * that run summed. */
#define FSC_BY_RUN_LABEL ((fsc_by)100)

/* Cell escaping, the output kinds of fioscope/escape.h under the names the renderers
 * use: fsc_esc_md, fsc_esc_term (text tables), fsc_esc_csv, fsc_esc_tsv, fsc_esc_html. */
void fsc_put_md(fsc_buf *b, const char *s);
void fsc_put_plain(fsc_buf *b, const char *s);
void fsc_put_csv(fsc_buf *b, const char *s);
void fsc_put_tsv(fsc_buf *b, const char *s);
void fsc_put_html(fsc_buf *b, const char *s);
/* A base-unit number for csv/tsv/json/html: integers exactly, others with 15
 * significant digits. */
void fsc_put_num(fsc_buf *b, double v);
/* v rounded to 15 significant digits (for the JSON writer). */
double fsc_round15(double v);

/* Widest cell of a text or Markdown table, in display columns: a longer text (a job
 * name of a megabyte) is cut in the middle ("head…tail"); JSON, CSV and TSV keep it
 * whole. */
#define FSC_CELL_MAX_COLS 120
/* s cut in the middle to max_cols display columns with "…", as a new string; NULL
 * when it fits already (or holds colour escapes, or memory ran out): use s. */
char *fsc_text_cap(const char *s, size_t max_cols);

/* A grid of strings (row-major, row 0 = header) as aligned text (two spaces between
 * columns, right[c] right-aligns a column, widths from fsc_text_width) or as a
 * Markdown table; cells wider than FSC_CELL_MAX_COLS are cut (fsc_text_cap). */
void fsc_grid_text(fsc_buf *out, const char *const *cells, size_t n_rows, size_t n_cols,
                   const bool *right);
void fsc_grid_md(fsc_buf *out, const char *const *cells, size_t n_rows, size_t n_cols,
                 const bool *right);

#endif
