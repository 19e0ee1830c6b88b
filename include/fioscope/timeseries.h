/* SPDX-License-Identifier: MIT */
/*
 * Time series of fio log files (analysis stage): series resampled to a regular grid,
 * per job and summed over clones; stability statistics of a job over time (the
 * "iops.ts.cv" metrics); fio's own steady-state criteria (steadystate.c) applied to a
 * series; and the latency percentiles over time of histogram logs, computed as fio's
 * tools/hist/fiologparser_hist.py computes them.
 *
 * Ownership: grids and percentile tables are owned by the caller (free functions
 * below); series are borrowed.
 */
#ifndef FIOSCOPE_TIMESERIES_H
#define FIOSCOPE_TIMESERIES_H

#include "fioscope/buf.h"
#include "fioscope/logseries.h"
#include "fioscope/metric.h"
#include "fioscope/model.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- resampling ---- */

/* A series on a regular grid: interval k is [t0_ms + k step_ms, t0_ms + (k+1) step_ms)
 * of time counted from the origin. */
typedef struct fsc_tsgrid {
    fsc_logkind kind;
    double step_ms, t0_ms;
    size_t n;
    double *v; /* KiB/s (bw), I/Os per second (iops), ns (latencies); NAN: no sample */
    double *w; /* what stands behind v: I/Os (per-I/O logs) or samples (averaged logs) */
} fsc_tsgrid;

typedef struct fsc_ts_opts {
    double step_ms;   /* 0: the log's own period (log_avg_msec), 1000 ms for per-I/O logs */
    int dir;          /* FSC_DIR_READ, _WRITE, _TRIM, or -1 for all directions together */
    double origin_ms; /* time 0 of the grid; NAN: 0, or the first row for Unix-time logs */
} fsc_ts_opts;

/* The sample period of a log in ms (log_avg_msec, log_hist_msec): the most common
 * step between its rows; 0 for a per-I/O log (block sizes logged) or a log of fewer
 * than two times. */
double fsc_ts_period(const fsc_logseries *s);
/* True when a series logged every I/O (block sizes in the rows) rather than windows. */
bool fsc_ts_per_io(const fsc_logseries *s);
/* Time 0 for a set of series shown together (a run's): 0, or the earliest first row
 * when one of them is in Unix time (log_unix_epoch). */
double fsc_ts_origin(const fsc_logseries *const *s, size_t n);

/* Resample a value series (not a histogram log) onto a grid. Per-I/O logs: I/Os per
 * second (iops), KiB/s from the block sizes (bw), mean latency (lat); averaged logs:
 * the mean of the windows that end in each interval (summed over the directions for
 * bw and iops when dir is -1). FSC_E_NOMEM; FSC_E_USAGE for a histogram log;
 * FSC_E_LIMIT when the times span more than 2^20 intervals (ask for a longer one). */
fsc_status fsc_ts_resample(const fsc_logseries *s, const fsc_ts_opts *o, fsc_tsgrid *out);
/* Combine grids of one kind and step (the clones of a job, or the jobs of a run): bw
 * and iops add up interval by interval, latencies average weighted by w. The result
 * spans all of them. FSC_E_USAGE when kinds or steps differ. */
fsc_status fsc_ts_combine(const fsc_tsgrid *g, size_t n, fsc_tsgrid *out);
void fsc_tsgrid_free(fsc_tsgrid *g); /* the arrays; the struct itself is the caller's */
/* Resample each of n series with o and combine them (fsc_ts_combine): the clones of
 * a job summed. */
fsc_status fsc_ts_resample_all(const fsc_logseries *const *s, size_t n, const fsc_ts_opts *o,
                               fsc_tsgrid *out);

/* The series of a run that belong to its job `job` of kind k: by name, the i-th of
 * several jobs with one name (numjobs without group_reporting) taking the i-th clone.
 * Fills out (at most max); returns how many there are. */
size_t fsc_ts_job_series(const fsc_run *run, size_t job, fsc_logkind k,
                         const fsc_logseries **out, size_t max);

/* ---- stability ---- */

/* Statistics of the values of a grid (stddev of the sample, n - 1; percentiles by
 * linear interpolation between closest ranks). False when the grid has no value. */
bool fsc_ts_stats(const fsc_tsgrid *g, fsc_tsstats *out);

/* Fill every job's stability statistics (job->ts) from the series of its run, at the
 * logs' own period (1 s for per-I/O logs). Jobs without series keep ts NULL. */
fsc_status fsc_ts_annotate(fsc_runset *set);

/* Metrics over time (metric.c asks these): "<kind>.ts.<stat>" for kind bw, iops, lat,
 * clat, slat and stat mean, stddev, cv (%), min, max, p5, p50, p95, p99, slope (per
 * s), n (intervals), read from job->ts; "ss.attained", "ss.criterion", "ss.bw_mean",
 * "ss.iops_mean" from fio's steadystate. Parse: false when name is none of them. */
bool fsc_ts_mspec_parse(fsc_mspec *s, const char *name, size_t len);
fsc_mval fsc_ts_mspec_eval(const fsc_mspec *s, const fsc_job *job);
/* A few of those names, for listings (static storage). */
const char *const *fsc_ts_metric_names(size_t *n);

/* ---- fio's steady state ---- */

typedef struct fsc_ss_crit {
    bool on_iops; /* iops, else bw */
    bool slope;   /* slope of a least-squares line, else the largest deviation from the mean */
    bool pct;     /* the limit is a percentage of the mean */
    double limit;
    unsigned dur_s;  /* window, seconds (ss_dur) */
    double ramp_s;   /* ignored start (ss_ramp) */
} fsc_ss_crit;

/* "iops:10%", "bw_slope:0.1%", "iops_slope:50" (fio's --ss syntax), with dur_s and
 * ramp_s from the caller. False when it is not one. */
bool fsc_ss_crit_parse(const char *spec, fsc_ss_crit *out);

typedef struct fsc_ss_result {
    bool attained;
    double t_ms;      /* end of the first window that met the criterion (or the last window) */
    double criterion; /* its criterion: % of the mean when pct, else absolute */
    double mean;      /* mean of that window: I/Os per second, or bytes per second */
    size_t windows;   /* windows judged */
} fsc_ss_result;

/* Judge a grid of 1-second values (iops: I/Os per second; bw: KiB/s, judged in
 * bytes/s as fio does) the way fio judges a job once a second: every window of dur_s
 * values after the ramp, until one meets the limit. FSC_E_USAGE for a grid that is
 * not of 1000 ms steps or a criterion without a window. */
fsc_status fsc_ss_detect(const fsc_tsgrid *g, const fsc_ss_crit *c, fsc_ss_result *out);

/* ---- percentiles over time from histogram logs (fiologparser_hist.py) ---- */

typedef struct fsc_hpctl_opts {
    double interval_ms;   /* output interval (fiologparser_hist.py --interval; 0 = 1000) */
    const double *pcts;   /* percentiles besides the median (NULL: 90, 95, 99) */
    size_t n_pcts;
    double max_latency_s; /* look-ahead (--max_latency; 0 = 20) */
} fsc_hpctl_opts;

typedef struct fsc_hpctl_row {
    double end_ms;
    double samples; /* I/Os whose bins touched the interval */
    double min, avg, max; /* ns (usec for fio 2.x histograms) */
    double *pct;          /* median, then the requested percentiles */
} fsc_hpctl_row;

typedef struct fsc_hpctl {
    fsc_hpctl_row *rows;
    size_t n, cap;
    size_t n_pct; /* per row: 1 + the requested ones */
    double *pcts; /* 50, then the requested ones */
    bool usec;    /* the bins are fio 2.x's (usec) */
} fsc_hpctl;

/* The weighted percentiles per interval of the histogram logs hists (all directions
 * pooled, rows of all logs merged by time): fiologparser_hist.py's default output.
 * The logs must share one bin layout (FSC_E_USAGE otherwise). */
fsc_status fsc_hist_pctl(const fsc_logseries *const *hists, size_t n, const fsc_hpctl_opts *o,
                         fsc_hpctl *out);
void fsc_hpctl_free(fsc_hpctl *p);
/* fiologparser_hist.py's text: "end-time, samples, min, avg, median, 90%, 95%, 99%, max"
 * and one line per row, floats with `decimals` places. */
void fsc_hpctl_text(const fsc_hpctl *p, int decimals, fsc_buf *out);
/* Latency (ns, or usec for fio 2.x) of bin i of a histogram log: its middle (edge 0.5),
 * lower (0) or upper (1) bound, for log_hist_coarseness c, as fio's stat.c numbers it. */
double fsc_hist_bin_value(uint32_t i, unsigned coarseness, double edge);

#ifdef __cplusplus
}
#endif
#endif
