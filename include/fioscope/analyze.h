/* SPDX-License-Identifier: MIT */
/*
 * The analysis stage, between the run model and the emitters. Every direction a job
 * did (read, write, trim, and the total of a mixed job) becomes a ROW with
 * dimensions: the system it ran on, its workload (rw, bs, iodepth, numjobs, ioengine,
 * direct), dir, label, file, heading, jobname, fio_version, host and the repeat
 * index. On those rows it offers selections (--where), pivots (workload × system,
 * median over repeats) and the matching that `compare` uses. Tables, comparisons,
 * charts and reports all read runs through one fsc_analysis.
 *
 * Ownership: an fsc_analysis borrows the runsets it was built on (they must outlive
 * it) and owns every string it hands out; results (pivots) are owned by the caller.
 * Threads: pivots and matching add strings to the analysis, so one analysis serves
 * one thread at a time (build one per thread to work in parallel).
 */
#ifndef FIOSCOPE_ANALYZE_H
#define FIOSCOPE_ANALYZE_H

#include "fioscope/buf.h"
#include "fioscope/metric.h"
#include "fioscope/model.h"
#include "fioscope/parse.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- dimensions ---- */

typedef enum fsc_dim {
    FSC_DIM_SYSTEM,      /* what is compared: "RAID 5", "sysA", "fast-raid10-f2" */
    FSC_DIM_RW,          /* "randread" */
    FSC_DIM_BS,          /* "4k" (one spelling for every era) */
    FSC_DIM_IODEPTH,     /* "32" */
    FSC_DIM_NUMJOBS,     /* "8": numjobs option, jobs=N, or the clone count */
    FSC_DIM_IOENGINE,    /* "libaio" */
    FSC_DIM_DIRECT,      /* "1" / "0" */
    FSC_DIM_WORKLOAD,    /* short form of the workload key: "randread 4k qd32 x8" */
    FSC_DIM_DIR,         /* "read", "write", "trim", "total" */
    FSC_DIM_LABEL,       /* the row label ("RAID 0 › 4k 随机写 › 4k_randwrite") */
    FSC_DIM_FILE,        /* path[:member] of the input */
    FSC_DIM_HEADING,     /* the outline headings above the run, joined with " › " */
    FSC_DIM_JOBNAME,     /* "4k_randwrite" */
    FSC_DIM_FIO_VERSION, /* "fio-3.33" */
    FSC_DIM_HOST,        /* client/server host, or "" */
    FSC_DIM_REPEAT,      /* "1", "2" ...: which run of its system × workload × dir */
    FSC_DIM_COUNT
} fsc_dim;

typedef struct fsc_dim_info {
    const char *name; /* as in --where, --metrics, --pivot, --system-from */
    const char *help; /* one line for `fioscope metrics` */
} fsc_dim_info;

/* Name and help of a dimension (static storage). */
const fsc_dim_info *fsc_dim_get(fsc_dim d);
/* The dimension named s[0..n), or -1. */
int fsc_dim_lookup(const char *s, size_t n);

/* Value of the `dir` dimension for a row direction (FSC_DIR_MIXED → "total"). */
const char *fsc_rowdir_name(int dir);

/* ---- building ---- */

/* A row: one direction of one job. dim[] strings are never NULL ("" = unknown) and
 * live as long as the analysis. */
typedef struct fsc_arow {
    size_t side;        /* which runset (fsc_analysis_new_sides); 0 for one runset */
    size_t run;         /* index of the run in its runset */
    size_t job;         /* index of the job in the run */
    int dir;            /* FSC_DIR_READ, _WRITE, _TRIM; FSC_DIR_MIXED = the total of a
                           job that did several directions (or unified_rw_reporting) */
    const fsc_run *r;   /* borrowed */
    const fsc_job *j;   /* borrowed */
    const char *dim[FSC_DIM_COUNT];
} fsc_arow;

typedef struct fsc_analysis_opts {
    fsc_label_from label_from;
    /* NULL or "auto", "dir", "file", "heading", "heading:N" (N from 1 = outermost),
     * "host", "label", "job:REGEX" (first capture group, else the whole match). */
    const char *system_from;
    /* comma list of dimensions; NULL = "rw,bs,iodepth,numjobs" */
    const char *workload_key;
    /* --where expressions, all must hold: FIELD=V FIELD!=V FIELD~REGEX FIELD>=N
     * FIELD<=N FIELD>N FIELD<N over dimensions and metrics */
    const char *const *where;
    size_t n_where;
    /* the INPUT arguments as given on the command line (NULL: unknown); they name
     * systems (path parts) and single-input sides */
    const char *const *inputs;
    size_t n_inputs;
} fsc_analysis_opts;

typedef struct fsc_analysis fsc_analysis;

/* Check the options without data: an unknown field in where / system_from /
 * workload_key, a bad operator or regex. Returns FSC_OK, or FSC_E_USAGE with a
 * message in err naming the nearest known field ("unknown field 'sytem' in --where
 * (did you mean 'system'?)"). */
fsc_status fsc_analysis_check(const fsc_analysis_opts *o, fsc_buf *err);

/* Rows of one runset. NULL on a usage error (FSC_E_USAGE in *st, message in err) or
 * out of memory. st may be NULL. */
fsc_analysis *fsc_analysis_new(const fsc_runset *set, const fsc_analysis_opts *o, fsc_buf *err,
                               fsc_status *st);

/* Rows of several runsets (the sides of `compare A -- B -- C`). Each side is one
 * system: its `system` is names[i], or (names NULL or names[i] NULL) the
 * distinguishing part of that side's input paths ("fio-3.0", "fio-3.13"). */
fsc_analysis *fsc_analysis_new_sides(const fsc_runset *const *sets, const char *const *names,
                                     size_t n_sets, const fsc_analysis_opts *o, fsc_buf *err,
                                     fsc_status *st);
void fsc_analysis_free(fsc_analysis *a); /* NULL is fine */

/* The selected rows (those every --where holds for), in input order: runs, then jobs
 * in print order, then read, write, trim, total. */
size_t fsc_analysis_n_rows(const fsc_analysis *a);
const fsc_arow *fsc_analysis_row(const fsc_analysis *a, size_t i);

/* The selected rows of one job: *first and *n (contiguous). false (n = 0) when the job
 * has no selected row. */
bool fsc_analysis_job_rows(const fsc_analysis *a, size_t side, size_t run, size_t job,
                           size_t *first, size_t *n);

/* Number of distinct `system` values among the selected rows, and the i-th in order
 * of first appearance. */
size_t fsc_analysis_n_systems(const fsc_analysis *a);
const char *fsc_analysis_system(const fsc_analysis *a, size_t i);
/* The workload key in use ("rw,bs,iodepth,numjobs") and how `system` was named
 * ("heading:1", "dir", "side", ... or "none" when every row has one system). */
const char *fsc_analysis_workload_key(const fsc_analysis *a);
const char *fsc_analysis_system_source(const fsc_analysis *a);

/* Notes for the user (one line each, no "fioscope: " prefix), such as the fio
 * 3.27–3.33 zero "mixed" line whose total was taken from read+write. */
size_t fsc_analysis_n_notes(const fsc_analysis *a);
const char *fsc_analysis_note(const fsc_analysis *a, size_t i);

/* A metric's number for one row: the row's direction of the job (the total row sums
 * or I/O-weights the directions, or reads the unified "mixed" line). Text metrics
 * and metrics of another direction give set = false. */
fsc_mval fsc_analysis_eval(const fsc_analysis *a, const fsc_arow *row, const fsc_mspec *m);
/* A text metric's value for one row (dimension or job text); NULL when none. tmp
 * receives the text where it has to be built. */
const char *fsc_analysis_text(const fsc_analysis *a, const fsc_arow *row, const fsc_mspec *m,
                              char *tmp, size_t tmp_len);

/* ---- pivots ---- */

typedef struct fsc_pivot_opts {
    fsc_dim col;            /* one column per value of this dimension (default system) */
    /* comma list of dimensions that make a pivot row; NULL = the workload key fields
     * then "dir" (shown as "workload", "dir" by the text renderers) */
    const char *row_key;
    const char *baseline;   /* a column value: each other column gets its change in %
                               against it; NULL = none */
} fsc_pivot_opts;

typedef struct fsc_pivot_cell {
    size_t n;          /* observations (repeats) behind the cell; 0 = empty cell */
    double median;     /* base unit */
    double spread_pct; /* largest distance of an observation from the median, % */
    double delta_pct;  /* against the baseline column; NAN when none */
} fsc_pivot_cell;

typedef struct fsc_pivot_row {
    char **keys;          /* n_keys values (owned) */
    char *workload;       /* the row's workload short form (owned) */
    fsc_pivot_cell *cells; /* n_cols */
} fsc_pivot_row;

typedef struct fsc_pivot {
    fsc_mspec metric;     /* the cells' metric */
    fsc_dim col_dim;
    char **key_names;     /* n_keys dimension names (owned) */
    size_t n_keys;
    char **cols;          /* column (DIM) values in order of first appearance (owned) */
    size_t n_cols;
    size_t baseline;      /* column index, or SIZE_MAX */
    fsc_pivot_row *rows;
    size_t n_rows;
    bool workload_rows;   /* the default row key: the workload fields, then dir */
} fsc_pivot;

/* One row per distinct row key (in order of first appearance), one column per value
 * of opts->col, each cell the median over runs (repeats) of the metric, where the
 * jobs of one run that share the row key and column are first combined (IOPS summed,
 * latencies I/O-weighted). NULL with a message in err (FSC_E_USAGE in *st) for a
 * text metric, an unknown row-key field or baseline; FSC_E_NO_RUNS when no row
 * has the metric (an empty pivot). */
fsc_pivot *fsc_pivot_build(const fsc_analysis *a, const fsc_mspec *metric,
                           const fsc_pivot_opts *opts, fsc_buf *err, fsc_status *st);
void fsc_pivot_free(fsc_pivot *p); /* NULL is fine */

/* ---- matching (compare) ---- */

/* Observations: the jobs of one run that share a system, a match key and a dir,
 * combined. Built by fsc_analysis_observe; compare, pivots and charts use them. */
typedef struct fsc_obs {
    size_t system;    /* index into fsc_analysis_system() */
    size_t key;       /* index into the match keys of the fsc_obs_set */
    int dir;          /* as fsc_arow.dir */
    size_t first_row; /* rows of this observation: row_index[first_row .. +n_rows) */
    size_t n_rows;
} fsc_obs;

typedef struct fsc_obs_set {
    char **keys;          /* distinct match keys (owned), in order of first appearance */
    size_t n_keys;
    fsc_obs *obs;
    size_t n_obs;
    size_t *row_index;    /* indexes of selected rows (fsc_analysis_row) */
    size_t n_row_index;
} fsc_obs_set;

/* Group the selected rows into observations under a match rule:
 * "workload" (the workload key), "label" (the label without its system part),
 * "jobname", a comma list of dimensions ("rw,bs,iodepth"), or anything else as a
 * PCRE2 regex over the label (first capture group, else the whole match), or NULL /
 * "auto": the rule among label, workload, jobname that pairs the most rows across
 * systems (label on ties). *used receives the rule applied (static or match). */
fsc_status fsc_analysis_observe(const fsc_analysis *a, const char *match, fsc_obs_set *out,
                                const char **used, fsc_buf *err);
void fsc_obs_set_free(fsc_obs_set *s);

/* How many match keys appear under at least two systems. */
size_t fsc_obs_set_paired(const fsc_analysis *a, const fsc_obs_set *s);

/* The --match rule (from label, workload, jobname, rw,bs,iodepth, rw,bs and
 * heading-free label forms) that pairs the most keys across systems; *paired
 * receives how many. NULL when none pairs anything. Static storage. */
const char *fsc_analysis_suggest_match(const fsc_analysis *a, size_t *paired);

/* A metric over one observation: the jobs combined with the metric's rule. */
fsc_mval fsc_obs_eval(const fsc_analysis *a, const fsc_obs_set *s, const fsc_obs *o,
                      const fsc_mspec *m);

/* ---- statistics ---- */

/* Median of v (n > 0); v is not modified. */
double fsc_median(const double *v, size_t n);

/* Two-sided p-value of the Mann-Whitney U test of samples x and y: the exact
 * permutation distribution when there are no ties and both sides have at most 50
 * values (or, with ties, when the number of arrangements is small), else the normal
 * approximation with tie and continuity correction. 1 if a side is empty. */
double fsc_mann_whitney_p(const double *x, size_t nx, const double *y, size_t ny);

/* Can the test give p < alpha at all with nx and ny values? False when a side has
 * fewer than 2 values or the smallest exact two-sided p, 2 / C(nx+ny, nx), is not
 * below alpha (3+3 gives 0.1; 4+4 gives 0.029). */
bool fsc_mann_whitney_can_decide(size_t nx, size_t ny, double alpha);

#ifdef __cplusplus
}
#endif
#endif
