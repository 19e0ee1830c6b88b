/* SPDX-License-Identifier: MIT */
/*
 * The metric registry of the analysis stage: a metric name ("read.iops",
 * "clat.p99", "cpu", "rw", "system") parsed once into a spec, and its value for one
 * job (optionally restricted to one direction). Tables, comparisons, pivots,
 * selections (--where) and charts all read numbers through here; docs/tables.md
 * and docs/analysis.md list the names.
 */
#ifndef FIOSCOPE_METRIC_H
#define FIOSCOPE_METRIC_H

#include "fioscope/buf.h"
#include "fioscope/model.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A metric as a column: name, readable title, base unit. */
typedef struct fsc_metric {
    const char *name;  /* "read.iops", "write.clat_ns.p99", "cpu", "rw" */
    const char *title; /* column header without unit: "read IOPS" */
    fsc_unit unit;
    bool text;          /* a string column (rw, bs, label, system ...) */
    bool higher_better; /* for compare colouring */
} fsc_metric;

/* What a metric reads. */
typedef enum fsc_mkind {
    FSC_MK_TEXT,      /* rw, bs, label, system ... */
    FSC_MK_DIR_FIELD, /* read.iops */
    FSC_MK_DIR_LAT,   /* read.clat_ns.p99 */
    FSC_MK_JOB_FIELD, /* usr_cpu, ctx */
    FSC_MK_CPU,       /* usr_cpu + sys_cpu */
    FSC_MK_ALL_FIELD, /* iops, bw: summed over the directions */
    FSC_MK_ALL_LAT,   /* lat, clat.p99: I/O-weighted over the directions */
    FSC_MK_TS,        /* iops.ts.cv: over time, from the job's log files (timeseries.h) */
    FSC_MK_SS         /* ss.attained: fio's steady state (timeseries.h) */
} fsc_mkind;

/* Text metrics. FSC_MT_DIM reads a dimension of the analysis (fsc_mspec.dim). */
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
    FSC_MT_RUN,
    FSC_MT_TIME, /* the run's time as fio printed it (source.time) */
    FSC_MT_DATE, /* its date, 2026-11-30: ordered as text (--where 'date>=2026-01-01') */
    FSC_MT_DIM
} fsc_mtext;

typedef enum fsc_lstat { FSC_LS_MIN, FSC_LS_MAX, FSC_LS_MEAN, FSC_LS_STDDEV, FSC_LS_N, FSC_LS_PCT } fsc_lstat;

/* How values of several jobs of one run combine (across runs: mean, or min/max). */
typedef enum fsc_magg { FSC_AGG_SUM, FSC_AGG_WMEAN, FSC_AGG_MEAN, FSC_AGG_MIN, FSC_AGG_MAX } fsc_magg;

/* A parsed metric name. Plain value type: copy it freely (m.name/m.title point into
 * the struct itself, so re-point them after a copy, or use fsc_mspec_copy). */
typedef struct fsc_mspec {
    fsc_metric m;
    fsc_mkind kind;
    int dir;       /* FSC_MK_DIR_*: the direction */
    size_t offset; /* of the fsc_num in fsc_dir / fsc_lat / fsc_job */
    int latkind;
    fsc_lstat stat;
    double pct;
    fsc_mtext text;
    int dim;       /* FSC_MT_DIM: an fsc_dim (fioscope/analyze.h); also set (>= 0) for the
                      text metrics that are dimensions too (rw, bs, label ...), else -1 */
    fsc_magg agg;
    double scale;  /* to the base unit: 1024 for KiB/s fields, else 1 */
    bool prio;     /* FSC_MK_DIR_LAT of one I/O priority ("read.clat_high_prio.p99",
                      "read.prio.1/0.clat.p99"): the fsc_prio keys below (-2: any hint) */
    int prio_high, prio_class, prio_level, prio_hint;
    char name[64]; /* canonical name; m.name points here */
    char title[64];
} fsc_mspec;

/* The next item of a comma list at *p, spaces and tabs around it trimmed: *item and
 * *len (possibly 0 for ",,"); *p moves past it. False at the end of the list. */
bool fsc_list_next(const char **p, const char **item, size_t *len);

/* The name of one I/O priority's latency metric without its statistic, in out (cap
 * bytes): "read.prio.1/0.clat", "read.prio.1/0/0.lat", "read.clat_high_prio" (the
 * names fsc_mspec_parse reads back with ".mean", ".p99" after them). */
void fsc_prio_metric_stem(char *out, size_t cap, int dir, const fsc_prio *p);

/* Parse one metric name (len bytes) into *spec. False if it is no metric. */
bool fsc_mspec_parse(const char *name, size_t len, fsc_mspec *spec);
/* *dst = *src with m.name/m.title pointing into dst. */
void fsc_mspec_copy(fsc_mspec *dst, const fsc_mspec *src);

/* Is name a metric? Fills *out when it is (name and title both point to the caller's
 * name; a built table has readable titles); otherwise writes "unknown metric 'name'"
 * to err (if not NULL). */
bool fsc_metric_lookup(const char *name, fsc_metric *out, fsc_buf *err);

/* Common metric names (text metrics and dimensions, job-level fields,
 * direction-agnostic fields and latencies, frequent per-direction ones), each one
 * fsc_mspec_parse accepts, for suggestions and listings: *n receives the count;
 * static storage. Any field of a direction also works as "read.FIELD" etc. */
const char *const *fsc_metric_base_names(size_t *n);

/* A number of one job (restricted to direction `only`, or -1 for all) with the weight
 * used when such numbers are averaged (the I/Os behind it). */
typedef struct fsc_mval {
    bool set;
    double v, w;
} fsc_mval;

fsc_mval fsc_mspec_eval(const fsc_mspec *s, const fsc_job *job, int only);

/* Combining values with a metric's rule: the jobs of one run are summed (IOPS,
 * bandwidth), I/O-weighted (latencies), averaged (%), or their min / max taken. */
typedef struct fsc_macc {
    fsc_magg agg;
    bool set;
    double v, wsum, wv, plain;
    size_t n;
} fsc_macc;

static inline fsc_macc fsc_macc_of(fsc_magg agg)
{
    fsc_macc a = {agg, false, 0, 0, 0, 0, 0};
    return a;
}
void fsc_macc_add(fsc_macc *a, fsc_mval x); /* unset values are ignored */
fsc_mval fsc_macc_result(const fsc_macc *a);

/* Directions of a job that count for the direction-agnostic metrics: "mixed" alone
 * when unified_rw_reporting printed it with numbers, else read/write/trim that carry
 * data. Returns a bit mask of (1u << FSC_DIR_*). */
unsigned fsc_job_dirs(const fsc_job *job);

/* A block size as fio options and headers write it ("4k", "4K", "4096B", "1024KiB",
 * "64.0KiB", "(R) 4096B-4096B", "1m") in bytes; suffixes are 1024-based like fio's
 * options. NAN if there is no number. */
double fsc_bs_bytes(const char *s);
/* One spelling of a block size for every era and source ("4096B", "4K", "4KiB" →
 * "4k"); what does not parse is returned as written (raw). Writes into tmp. */
const char *fsc_bs_text(const char *raw, char *tmp, size_t tmp_len);
/* The block size a job of this rw used, in fsc_bs_text's spelling, from fio's option
 * text: "4k,64k" (read, write[, trim]: a write job's is "64k", a mixed one's
 * "4k,64k"), ranges ("4096B-64.0KiB" → "4k-64k"), bssplit ("4k/50:64k/50", as written).
 * rw may be NULL (all of it). Writes into tmp; raw when nothing parses. */
const char *fsc_bs_for_rw(const char *raw, const char *rw, char *tmp, size_t tmp_len);
/* A job's block size option: bs (blocksize), else bsrange (blocksize_range), else
 * bssplit; job options first, then the run's global ones. NULL if none. */
const char *fsc_job_bs_option(const fsc_run *run, const fsc_job *job);

/* Text of a job's text metric read from the job itself (static, job-owned or tmp
 * storage; NULL = none). Row-level metrics (label, dir, dimensions) give NULL: the
 * table and the analysis fill those. */
const char *fsc_job_text(const fsc_mspec *s, const fsc_run *run, const fsc_job *job,
                         char *tmp, size_t tmp_len);

#ifdef __cplusplus
}
#endif
#endif
