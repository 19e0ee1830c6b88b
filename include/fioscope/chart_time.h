/* SPDX-License-Identifier: MIT */
/*
 * Charts over time from fio's log files (the series of the runs): a metric over time
 * (IOPS, bandwidth, latency; one line per job, or per clone, a dashed one for writes),
 * latency percentiles over time from histogram logs (fiologparser_hist.py's numbers),
 * and a latency heat map over time (the share of each interval's I/Os per latency
 * band). Jobs beyond the first become small multiples. Built on fioscope/chart.h.
 */
#ifndef FIOSCOPE_CHART_TIME_H
#define FIOSCOPE_CHART_TIME_H

#include "fioscope/chart.h"
#include "fioscope/logseries.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct fsc_chart_time_opts {
    fsc_logkind kind;     /* timeseries: bw, iops, lat, clat or slat; the others: the
                           * histogram kind (clat_hist, lat_hist), or FSC_LOG_KIND_COUNT
                           * for any histogram log */
    double interval_ms;   /* 0: the logs' own period (1 s for logs of every I/O) */
    bool per_clone;       /* one line per clone (numjobs) instead of their sum */
    const double *pcts;   /* pctl-time: percentiles (NULL: 50, 90, 99) */
    size_t n_pcts;
    size_t run;           /* SIZE_MAX: every run; else only this one */
    const char *job;      /* NULL: every job */
    fsc_label_from label_from;
} fsc_chart_time_opts;

/* A line chart of o->kind over time (x: time in ms, y: base units). NULL when out of
 * memory; check fsc_chart_has_data (no log of that kind: nothing to draw). */
fsc_chart *fsc_chart_timeseries(const fsc_runset *set, const fsc_chart_time_opts *o);
/* Latency percentiles over time from the histogram logs of each job. */
fsc_chart *fsc_chart_pctl_time(const fsc_runset *set, const fsc_chart_time_opts *o);
/* Latency heat map over time from the histogram logs of each job (at most 30 columns:
 * intervals are joined to fit). */
fsc_chart *fsc_chart_lat_heatmap(const fsc_runset *set, const fsc_chart_time_opts *o);

/* The charts of a report's "Over time" section: for each run with log series, the
 * throughput and latency over time and, with histogram logs, the percentiles over
 * time and the heat map. Fills out[i] (charts, owned by the caller) and files[i]
 * ("time-2-iops", owned); returns how many (at most max). */
size_t fsc_chart_time_report(const fsc_runset *set, fsc_label_from from, fsc_chart **out,
                             char **files, size_t max);

#ifdef __cplusplus
}
#endif
#endif
