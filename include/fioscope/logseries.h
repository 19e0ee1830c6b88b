/* SPDX-License-Identifier: MIT */
/*
 * fio's log files as time series (the contract's SERIES): write_bw_log,
 * write_iops_log, write_lat_log (lat, clat, slat) and write_hist_log files of every
 * fio version, one series per file (or per clone section of a per_job_logs=0 file).
 *
 * A series keeps fio's own columns as 64-bit integers, in blocks. A series that grows
 * beyond a few blocks moves its older blocks to an unlinked temporary file, so that a
 * per-I/O log of gigabytes costs the same memory as a small one; readers go through
 * fsc_logseries_read(), which does not care where a block lives.
 *
 * Ownership: a series owns its strings, its blocks and its temporary file; a run owns
 * its series (fsc_run_free frees them).
 */
#ifndef FIOSCOPE_LOGSERIES_H
#define FIOSCOPE_LOGSERIES_H

#include "fioscope/common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What a log records (the file name says it: NAME_bw.N.log, NAME_clat_hist.N.log). */
typedef enum fsc_logkind {
    FSC_LOG_BW,        /* KiB/s */
    FSC_LOG_IOPS,      /* I/Os per sample window (1 per I/O when not averaged) */
    FSC_LOG_LAT,       /* ns (usec before fio 2.99) */
    FSC_LOG_CLAT,
    FSC_LOG_SLAT,
    FSC_LOG_CLAT_HIST, /* one histogram of completion latencies per time point */
    FSC_LOG_LAT_HIST,
    FSC_LOG_KIND_COUNT
} fsc_logkind;

/* "bw", "iops", "lat", "clat", "slat", "clat_hist", "lat_hist"; "?" if out of range. */
const char *fsc_logkind_name(fsc_logkind k);
/* Inverse of fsc_logkind_name for s[0..n); -1 if unknown. */
int fsc_logkind_from_name(const char *s, size_t n);
/* Unit of the value column: "KiB/s", "count" or "ns" (histogram bins: "ns" too,
 * the latency of each bin). */
const char *fsc_logkind_unit(fsc_logkind k);
static inline bool fsc_logkind_is_hist(fsc_logkind k)
{
    return k == FSC_LOG_CLAT_HIST || k == FSC_LOG_LAT_HIST;
}

/* The columns a log can have, in the order of the JSON. value is the average of a
 * window for log_avg_msec logs (or its maximum with log_max_value); max is the
 * second value of fio 3.37+'s log_window_value=both; issue is log_issue_time's
 * issue time (ns). Histogram logs have t_ms, dir and bs, and bins per row. */
typedef enum fsc_logcol {
    FSC_COL_T,
    FSC_COL_VALUE,
    FSC_COL_MAX,
    FSC_COL_DIR,
    FSC_COL_BS,
    FSC_COL_OFFSET,
    FSC_COL_PRIO,
    FSC_COL_ISSUE,
    FSC_COL_COUNT
} fsc_logcol;

/* JSON names: "t_ms", "value", "max", "dir", "bs", "offset", "prio", "issue_time". */
const char *fsc_logcol_name(fsc_logcol c);
#define FSC_COLBIT(c) (1u << (c))

/* Samples per block. */
#define FSC_LOG_BLOCK 32768u

typedef struct fsc_logstore fsc_logstore; /* blocks, spill file, histogram bins */

typedef struct fsc_logseries {
    char *job;    /* the job it belongs to: its jobname when attached to a run, else the
                   * file name's prefix (owned) */
    char *prefix; /* the file name's prefix: job name or write_*_log value (owned) */
    char *path;   /* file it was read from (owned) */
    char *member; /* archive member, or NULL (owned) */
    fsc_logkind kind;
    int clone;     /* the file name's .N (fio's thread number, from 1); 0 when the name
                    * has none (per_job_logs=0) */
    int section;   /* per_job_logs=0: the clone section of the file (1, 2, ...); else 0 */
    unsigned ncols; /* values per row as stored */
    unsigned cols;  /* FSC_COLBIT(FSC_COL_*) of the named columns present */
    bool prio_hex; /* prio printed as 0x%04x (log_prio): the full ioprio value */
    bool usec;     /* latencies in usec (fio before 2.99); values are kept as printed */
    size_t n;      /* rows */
    uint32_t n_bins;     /* histogram logs: bins per row, in fio's layout */
    unsigned coarseness; /* histogram logs: log_hist_coarseness (bins merged 2^c) */
    uint32_t first_line; /* line of the first row in the file (1-based) */
    fsc_logstore *store;
} fsc_logseries;

/* A new empty series of kind k whose rows have ncols values (1..FSC_COL_COUNT; a
 * histogram log: 3, time, dir and bs, plus its bins). Columns are positional until
 * fsc_logseries_name_columns() names them (histogram logs are named at once).
 * Strings are left NULL for the caller to set. NULL when out of memory. */
fsc_logseries *fsc_logseries_new(fsc_logkind k, unsigned ncols);
void fsc_logseries_free(fsc_logseries *s); /* NULL is fine */
/* Name position i of the rows names[i] (ncols entries, each column at most once);
 * sets s->cols. May be called again to rename. */
void fsc_logseries_name_columns(fsc_logseries *s, const fsc_logcol *names);

/* Append one row of s->ncols values, in position order. False when out of memory or
 * the temporary file cannot be written (the row is lost). */
bool fsc_logseries_append(fsc_logseries *s, const int64_t *vals);
/* Append one histogram row: time, direction, block size and n_bins counts (only the
 * non-zero ones are kept). The first row fixes s->n_bins; a row with another count
 * is refused (false; the caller warns). */
bool fsc_logseries_append_hist(fsc_logseries *s, int64_t t_ms, int64_t dir, int64_t bs,
                               const uint64_t *bins, uint32_t n_bins);
/* Move every row of src to the end of dst (same kind and row width: the pieces of
 * one file read in parallel). src is left without rows. False when out of memory or
 * when the layouts differ. */
bool fsc_logseries_concat(fsc_logseries *dst, fsc_logseries *src);

/* Whether older blocks may move to the temporary file (the default). A series that
 * will be taken over by fsc_logseries_concat keeps them in memory (false), so that
 * its blocks move without a copy. Turning it on moves the excess at once; false when
 * that fails. */
bool fsc_logseries_set_spill(fsc_logseries *s, bool spill);

/* Copy column c of rows [first, first + max) into out; returns the number of rows
 * copied (0 past the end or for an absent column). Blocks moved to the temporary
 * file are read back; reading sequentially in steps of FSC_LOG_BLOCK is fastest. */
size_t fsc_logseries_read(const fsc_logseries *s, size_t first, size_t max, fsc_logcol c,
                          int64_t *out);
/* Histogram row `row` as n_bins dense counts into bins. False past the end. */
bool fsc_logseries_hist_row(const fsc_logseries *s, size_t row, uint64_t *bins);

/* Times above this many ms (March 1973) are Unix time (log_unix_epoch): charts and
 * resampling then count from the first sample. */
#define FSC_LOG_EPOCH_MS 100000000000LL

#ifdef __cplusplus
}
#endif
#endif
