/* SPDX-License-Identifier: MIT */
/*
 * Metrics of a job over time, for tables, comparisons and --where: its stability from
 * its log files ("iops.ts.cv", "bw.ts.p5", "clat.ts.p99") and fio's steady-state
 * result ("ss.attained", "ss.criterion"). fsc_ts_annotate fills what they read.
 */
#include "fioscope/timeseries.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct {
    const char *name, *title;
    size_t offset;
} ts_stats[] = {
    {"mean", "mean", offsetof(fsc_tsstats, mean)},    {"stddev", "stddev", offsetof(fsc_tsstats, stddev)},
    {"cv", "cv", offsetof(fsc_tsstats, cv)},          {"min", "min", offsetof(fsc_tsstats, min)},
    {"max", "max", offsetof(fsc_tsstats, max)},       {"p5", "p5", offsetof(fsc_tsstats, p5)},
    {"p50", "p50", offsetof(fsc_tsstats, p50)},       {"p95", "p95", offsetof(fsc_tsstats, p95)},
    {"p99", "p99", offsetof(fsc_tsstats, p99)},       {"slope", "slope", offsetof(fsc_tsstats, slope)},
    {"n", "intervals", offsetof(fsc_tsstats, n)},
};

static const struct {
    const char *name, *title;
    fsc_unit unit;
} ss_fields[] = {
    {"attained", "steady state attained", FSC_UNIT_COUNT},
    {"criterion", "steady-state criterion", FSC_UNIT_NONE},
    {"bw_mean", "steady-state BW", FSC_UNIT_BYTES_PER_S},
    {"iops_mean", "steady-state IOPS", FSC_UNIT_IOPS},
    {"lat_mean", "steady-state latency", FSC_UNIT_NS},
};

static bool parse_ss(fsc_mspec *s, const char *p, size_t n)
{
    for (size_t i = 0; i < FSC_ARRAY_SIZE(ss_fields); i++)
        if (strlen(ss_fields[i].name) == n && !memcmp(ss_fields[i].name, p, n)) {
            s->kind = FSC_MK_SS;
            s->offset = i;
            s->m.unit = ss_fields[i].unit;
            s->agg = i == 1 ? FSC_AGG_MAX : i == 0 ? FSC_AGG_MIN : FSC_AGG_SUM;
            s->m.higher_better = i == 0 || i == 2 || i == 3; /* not the latency */
            snprintf(s->title, sizeof s->title, "%s", ss_fields[i].title);
            return true;
        }
    return false;
}

bool fsc_ts_mspec_parse(fsc_mspec *s, const char *name, size_t len)
{
    if (len > 3 && !memcmp(name, "ss.", 3))
        return parse_ss(s, name + 3, len - 3);
    const char *ts = NULL;
    for (size_t i = 0; i + 4 <= len; i++)
        if (!memcmp(name + i, ".ts.", 4)) {
            ts = name + i;
            break;
        }
    if (!ts)
        return false;
    int k = fsc_logkind_from_name(name, (size_t)(ts - name));
    if (k < 0 || k > FSC_LOG_SLAT)
        return false;
    const char *st = ts + 4;
    size_t sl = len - (size_t)(st - name);
    for (size_t i = 0; i < FSC_ARRAY_SIZE(ts_stats); i++) {
        if (strlen(ts_stats[i].name) != sl || memcmp(ts_stats[i].name, st, sl))
            continue;
        bool rate = k == FSC_LOG_BW || k == FSC_LOG_IOPS;
        bool cv = !strcmp(ts_stats[i].name, "cv"), count = !strcmp(ts_stats[i].name, "n");
        s->kind = FSC_MK_TS;
        s->latkind = k;
        s->offset = ts_stats[i].offset;
        s->m.unit = cv ? FSC_UNIT_PCT : count ? FSC_UNIT_COUNT : k == FSC_LOG_BW ? FSC_UNIT_BYTES_PER_S
                    : k == FSC_LOG_IOPS ? FSC_UNIT_IOPS : FSC_UNIT_NS;
        s->scale = k == FSC_LOG_BW && !cv && !count ? 1024.0 : 1.0; /* the logs' KiB/s */
        /* less variation is better; more throughput is */
        s->m.higher_better = rate && !cv && strcmp(ts_stats[i].name, "stddev") &&
                             strcmp(ts_stats[i].name, "slope") && !count;
        s->agg = cv || count ? FSC_AGG_MEAN : rate ? FSC_AGG_SUM : FSC_AGG_WMEAN;
        snprintf(s->title, sizeof s->title, "%s %s (time)", fsc_logkind_name((fsc_logkind)k),
                 ts_stats[i].title);
        return true;
    }
    return false;
}

/* "0.782345%", "-0.299%", "2050.000000": the number fio printed. */
static fsc_num criterion_value(const fsc_steady *ss)
{
    fsc_num none = {.set = false};
    if (!ss->criterion)
        return none;
    char *end;
    double v = strtod(ss->criterion, &end);
    return end == ss->criterion ? none : fsc_num_of(v);
}

fsc_mval fsc_ts_mspec_eval(const fsc_mspec *s, const fsc_job *job)
{
    fsc_mval r = {false, 0, 1};
    if (s->kind == FSC_MK_SS) {
        const fsc_steady *ss = &job->steadystate;
        fsc_num v = {.set = false};
        if (ss->present) {
            switch (s->offset) {
            case 0: v = ss->attained; break;
            case 1: v = criterion_value(ss); break;
            case 2: v = ss->bw_mean; break;
            case 3: v = ss->iops_mean; break;
            default: v = ss->lat_mean; break;
            }
        }
        r.set = v.set;
        r.v = v.v;
        return r;
    }
    if (!job->ts || s->latkind < 0 || s->latkind > FSC_LOG_SLAT)
        return r;
    const fsc_tsstats *st = &job->ts[s->latkind];
    if (!st->n)
        return r;
    r.set = true;
    if (s->offset == offsetof(fsc_tsstats, n))
        r.v = (double)st->n;
    else
        r.v = *(const double *)((const char *)st + s->offset) * s->scale;
    r.w = (double)st->n;
    return r;
}

const char *const *fsc_ts_metric_names(size_t *n)
{
    static const char *const names[] = {
        "iops.ts.mean", "iops.ts.cv", "iops.ts.p5", "iops.ts.min", "bw.ts.mean", "bw.ts.cv",
        "bw.ts.p5", "lat.ts.mean", "lat.ts.p99", "clat.ts.cv", "ss.attained", "ss.criterion",
        "ss.bw_mean", "ss.iops_mean", "ss.lat_mean"};
    *n = FSC_ARRAY_SIZE(names);
    return names;
}
