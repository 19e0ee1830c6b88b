/* SPDX-License-Identifier: MIT */
/*
 * Every name with its unit and meaning. The names come from the registries (the
 * analysis dimensions, the metric parser, the model's field tables); only the
 * one-line meanings are written here, keyed by name. A name without a meaning is
 * listed as such, and the unit test of this file fails on it.
 */
#include "fioscope/metric_list.h"
#include "fioscope/analyze.h"
#include "fioscope/metric.h"
#include "fioscope/table.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NO_HELP "(no description yet)"

/* Meanings of the fields of a direction (DIR.x) and of a job, by fio's JSON name. */
static const struct {
    const char *name, *help;
} helps[] = {
    {"io_bytes", "bytes transferred"},
    {"bw_bytes", "bandwidth in bytes/s"},
    {"bw", "bandwidth as fio states it, in KiB/s (bw_bytes is the same in bytes/s)"},
    {"iops", "I/O operations per second"},
    {"runtime", "run time of the direction"},
    {"total_ios", "I/Os issued"},
    {"short_ios", "short I/Os"},
    {"drop_ios", "dropped I/Os"},
    {"bw_min", "smallest bandwidth sample (fio's bw log, KiB/s)"},
    {"bw_max", "largest bandwidth sample (KiB/s)"},
    {"bw_agg", "share of the group's aggregate bandwidth (fio's per=)"},
    {"bw_mean", "mean of the bandwidth samples (KiB/s)"},
    {"bw_dev", "standard deviation of the bandwidth samples (KiB/s)"},
    {"bw_samples", "number of bandwidth samples"},
    {"iops_min", "smallest IOPS sample"},
    {"iops_max", "largest IOPS sample"},
    {"iops_mean", "mean of the IOPS samples"},
    {"iops_stddev", "standard deviation of the IOPS samples"},
    {"iops_samples", "number of IOPS samples"},
    {"zone_resets", "zone resets (zoned block devices)"},
    {"cachehit", "page cache hit ratio (fio 3.13+, where shown)"},
    {"groupid", "group id of the job (Run status group N)"},
    {"error", "error code of the job (0 = none)"},
    {"pid", "process id of the job"},
    {"jobs", "jobs=N of the job block (jobs merged by group_reporting)"},
    {"job_runtime", "run time of the job (fio JSON only)"},
    {"usr_cpu", "user CPU time, percent of the run time"},
    {"sys_cpu", "system CPU time, percent of the run time"},
    {"ctx", "context switches"},
    {"majf", "major page faults"},
    {"minf", "minor page faults"},
    {"latency_depth", "latency_target: the queue depth it settled on"},
    {"latency_target", "latency_target of the job (as fio states it)"},
    {"latency_percentile", "latency_target: percentile of I/Os within the target"},
    {"latency_window", "latency_target: window (as fio states it)"},
    {"total_err", "continue_on_error: how many I/O errors the job let pass"},
    {"first_error", "continue_on_error: the errno of the job's first error (28: ENOSPC)"},
    {"cpu", "usr_cpu + sys_cpu"},
    {"run", "run id (PATH#k)"},
    {"time", "when fio wrote the run, as it prints it (Mon Nov 30 03:57:09 2026; JSON time, the text's job headers)"},
    {"date", "the run's date, 2026-11-30 (from time; --where 'date>=2026-01-01' orders it)"},
    /* over time, from fio's log files (every KIND.ts.STAT: docs/logs.md) */
    {"iops.ts.mean", "mean IOPS over time, from the job's iops log (clones added up)"},
    {"iops.ts.cv", "coefficient of variation of the IOPS over time (stddev/mean)"},
    {"iops.ts.p5", "IOPS the job kept 95% of the time (5th percentile over time)"},
    {"bw.ts.mean", "mean bandwidth over time, from the job's bw log"},
    {"bw.ts.cv", "coefficient of variation of the bandwidth over time"},
    {"bw.ts.p5", "bandwidth the job kept 95% of the time"},
    {"lat.ts.mean", "mean of the per-interval latency over time (lat log)"},
    {"clat.ts.p99", "99th percentile over time of the per-interval completion latency"},
    {"ss.attained", "fio's steady state (--ss) attained: 1 or 0"},
    {"ss.criterion", "fio's steady-state criterion value as printed (% when the limit is)"},
};

static const char *help_of(const char *name)
{
    for (size_t i = 0; i < FSC_ARRAY_SIZE(helps); i++)
        if (!strcmp(helps[i].name, name))
            return helps[i].help;
    return NULL;
}

/* Meanings of the latency statistics. */
static const struct {
    const char *stat, *help;
} lat_stats[] = {
    {"mean", "mean"},
    {"min", "minimum"},
    {"max", "maximum"},
    {"stddev", "standard deviation"},
    {"N", "number of samples (fio 3.18+ JSON)"},
    {"pNN", "at the NNth percentile fio printed (p99, p99.9)"},
};

static const char *const lat_what[FSC_LAT_COUNT] = {
    "submission latency (slat)", "completion latency (clat)", "total latency (lat)"};
static const char *const lat_short[FSC_LAT_COUNT] = {"slat", "clat", "lat"};

typedef struct walker {
    void (*fn)(void *ctx, const fsc_name_doc *d);
    void *ctx;
    char tmp[256], help[256];
} walker;

static void give(walker *w, const char *name, fsc_name_kind kind, bool text, fsc_unit unit,
                 const char *help)
{
    fsc_name_doc d = {name, kind, text, unit, help && *help ? help : NO_HELP};
    w->fn(w->ctx, &d);
}

/* A metric name with its unit from the parser itself (so the list cannot drift). */
static void metric(walker *w, const char *name, const char *help)
{
    fsc_mspec s;
    /* "DIR." and "pNN" stand for read. and p99 when asking the parser */
    char probe[128];
    const char *src = name;
    size_t n = 0;
    while (*src && n + 8 < sizeof probe) {
        if (!strncmp(src, "DIR.", 4)) {
            memcpy(probe + n, "read.", 5);
            n += 5;
            src += 4;
        } else if (!strcmp(src, "pNN")) {
            memcpy(probe + n, "p99", 3);
            n += 3;
            src += 3;
        } else {
            probe[n++] = *src++;
        }
    }
    probe[n] = '\0';
    if (!fsc_mspec_parse(probe, n, &s))
        return;
    give(w, name, s.m.text ? FSC_NAME_DIMENSION : FSC_NAME_METRIC, s.m.text, s.m.unit, help);
}

static bool is_dim(const char *name)
{
    return fsc_dim_lookup(name, strlen(name)) >= 0;
}

static void dimensions(walker *w)
{
    for (int d = 0; d < FSC_DIM_COUNT; d++) {
        const fsc_dim_info *di = fsc_dim_get((fsc_dim)d);
        give(w, di->name, FSC_NAME_DIMENSION, true, FSC_UNIT_NONE, di->help);
    }
    /* text metrics that are no dimension (run, jobs) */
    size_t n;
    const char *const *base = fsc_metric_base_names(&n);
    for (size_t i = 0; i < n; i++) {
        fsc_mspec s;
        if (!is_dim(base[i]) && fsc_mspec_parse(base[i], strlen(base[i]), &s) && s.m.text)
            give(w, base[i], FSC_NAME_DIMENSION, true, FSC_UNIT_NONE,
                 !strcmp(base[i], "jobs") ? "numjobs option, else the jobs=N of the job block"
                                          : help_of(base[i]));
    }
}

static void agnostic(walker *w)
{
    for (size_t i = 0; i < fsc_n_dir_fields; i++) {
        const char *f = fsc_dir_fields[i].name;
        fsc_mspec s;
        if (!strcmp(f, "bw") || !fsc_mspec_parse(f, strlen(f), &s))
            continue; /* "bw" is the bytes/s total, listed with bw_bytes */
        snprintf(w->help, sizeof w->help, "%s; directions summed", help_of(f) ? help_of(f) : f);
        if (!strcmp(f, "bw_bytes")) {
            metric(w, "bw", "bandwidth in bytes/s; directions summed (= bw_bytes; "
                            "fio's KiB/s is DIR.bw)");
        }
        metric(w, f, w->help);
    }
    for (int k = 0; k < FSC_LAT_COUNT; k++)
        for (size_t i = 0; i < FSC_ARRAY_SIZE(lat_stats); i++) {
            snprintf(w->tmp, sizeof w->tmp, "%s%s%s", lat_short[k], i ? "." : "",
                     i ? lat_stats[i].stat : "");
            snprintf(w->help, sizeof w->help, "%s %s; directions %s", lat_what[k],
                     lat_stats[i].help,
                     i == 1 ? "min" : i == 2 ? "max" : i == 4 ? "summed" : "I/O-weighted");
            metric(w, w->tmp, w->help);
        }
}

static void job_level(walker *w)
{
    metric(w, "cpu", help_of("cpu"));
    for (size_t i = 0; i < fsc_n_job_fields; i++) {
        const char *f = fsc_job_fields[i].name;
        fsc_mspec s;
        if (fsc_mspec_parse(f, strlen(f), &s) && !s.m.text) /* "jobs" is a dimension */
            metric(w, f, help_of(f));
    }
}

static void per_direction(walker *w)
{
    for (size_t i = 0; i < fsc_n_dir_fields; i++) {
        snprintf(w->tmp, sizeof w->tmp, "DIR.%s", fsc_dir_fields[i].name);
        metric(w, w->tmp, help_of(fsc_dir_fields[i].name));
    }
    for (int k = 0; k < FSC_LAT_COUNT; k++)
        for (size_t i = 0; i < FSC_ARRAY_SIZE(lat_stats); i++) {
            snprintf(w->tmp, sizeof w->tmp, "DIR.%s.%s", fsc_latkind_name((fsc_latkind)k),
                     lat_stats[i].stat);
            snprintf(w->help, sizeof w->help, "%s %s", lat_what[k], lat_stats[i].help);
            metric(w, w->tmp, w->help);
        }
    /* by I/O priority (cmdprio_percentage; jobs of several prios summed) */
    metric(w, "DIR.clat_high_prio.pNN",
           "completion latency of the high-priority I/Os (fio 3.18-3.29; also clat_low_prio, lat_high_prio, "
           "lat_low_prio; any statistic)");
    metric(w, "DIR.prio.1/0.clat.pNN",
           "completion latency of the I/Os of priority class 1, level 0 (fio 3.30+: any class/level, "
           "class/level/hint with 3.36+; also lat; any statistic)");
}

/* Names the metric registry knows that none of the walks above listed (a registry
 * entry added elsewhere, such as time-series metrics). */
static void others(walker *w)
{
    size_t n;
    const char *const *base = fsc_metric_base_names(&n);
    for (size_t i = 0; i < n; i++) {
        const char *b = base[i];
        fsc_mspec s;
        if (!fsc_mspec_parse(b, strlen(b), &s) || s.m.text)
            continue;
        /* listed already: a field, a latency form or cpu */
        bool listed = fsc_field_find(fsc_dir_fields, fsc_n_dir_fields, b, strlen(b)) ||
                      fsc_field_find(fsc_job_fields, fsc_n_job_fields, b, strlen(b)) ||
                      !strcmp(b, "cpu") || !strcmp(b, "bw");
        for (int k = 0; k < FSC_LAT_COUNT && !listed; k++) {
            size_t l = strlen(lat_short[k]);
            listed = !strncmp(b, lat_short[k], l) && (!b[l] || b[l] == '.') &&
                     !strstr(b, ".ts."); /* lat.ts.mean is over time, not a latency form */
        }
        /* "read.iops", "write.clat_ns.p99": the registry's did-you-mean examples of the
         * DIR.x forms listed above */
        const char *dot = strchr(b, '.');
        listed = listed || (dot && fsc_ddir_from_name(b, (size_t)(dot - b)) >= 0);
        if (!listed)
            metric(w, b, help_of(b));
    }
}

static void fields(walker *w)
{
    static const struct {
        const char *name;
        bool text;
        fsc_unit unit;
        const char *help;
    } tab[] = {
        {"id", true, FSC_UNIT_NONE, "run id: PATH#k, or PATH:MEMBER#k inside an archive"},
        {"label", true, FSC_UNIT_NONE, "the run's label (outline headings and job name)"},
        {"source.path", true, FSC_UNIT_NONE, "input file"},
        {"source.member", true, FSC_UNIT_NONE, "archive member, empty for a plain file"},
        {"source.first_line", false, FSC_UNIT_NONE, "first line of the run in its input"},
        {"source.last_line", false, FSC_UNIT_NONE, "last line of the run in its input"},
        {"source.format", true, FSC_UNIT_NONE, "normal, json, terse or engine: whose numbers were kept"},
        {"source.fio_version", true, FSC_UNIT_NONE, "fio-3.33, empty when not shown"},
        {"source.host", true, FSC_UNIT_NONE, "host of the run: client/server, or named before its lines (pdsh, grep -H)"},
        {"source.time", true, FSC_UNIT_NONE, "when fio wrote the run, as it prints it (JSON time, the text's job headers)"},
        {"source.timestamp", false, FSC_UNIT_NONE, "fio's JSON timestamp: seconds since 1970"},
        {"jobname", true, FSC_UNIT_NONE, "fio job name"},
        {"hostname", true, FSC_UNIT_NONE, "host of the job (client/server runs)"},
        {"desc", true, FSC_UNIT_NONE, "description= of the job"},
        {"error_text", true, FSC_UNIT_NONE, "fio's error message of a failed job"},
        {"job options.KEY", true, FSC_UNIT_NONE, "an option of the job as printed (rw, bs, ioengine, iodepth ...)"},
        {"dir", true, FSC_UNIT_NONE, "direction of the row: read, write, trim, sync, mixed (empty: no I/O)"},
        {"clat_ns.percentile.NN", false, FSC_UNIT_NS, "completion latency at percentile NN (key as fio writes it: 99.000000); also slat_ns, lat_ns"},
        {"prio.C/L.clat_ns.STAT", false, FSC_UNIT_NS, "latency of the I/Os of priority class C, level L (fio 3.30+'s \"prios\"; C/L/H with 3.36+'s hint; lat_ns with lat_percentiles=1); fio 3.18-3.29: clat_high_prio.STAT, clat_low_prio.STAT"},
        {"iodepth_level.N", false, FSC_UNIT_PCT, "share of the time at queue depth N (1, 2, 4 ... >=64)"},
        {"iodepth_submit.N", false, FSC_UNIT_PCT, "share of submissions of N I/Os at once"},
        {"iodepth_complete.N", false, FSC_UNIT_PCT, "share of completions of N I/Os at once"},
        {"latency_ns.N", false, FSC_UNIT_PCT, "share of I/Os with a latency up to N ns (also latency_us.N, latency_ms.N)"},
    };
    for (size_t i = 0; i < FSC_ARRAY_SIZE(tab); i++)
        give(w, tab[i].name, FSC_NAME_FIELD, tab[i].text, tab[i].unit, tab[i].help);
}

void fsc_name_docs(void (*fn)(void *ctx, const fsc_name_doc *d), void *ctx)
{
    walker *w = calloc(1, sizeof *w);
    if (!w)
        return;
    w->fn = fn;
    w->ctx = ctx;
    dimensions(w);
    agnostic(w);
    job_level(w);
    per_direction(w);
    others(w);
    fields(w);
    free(w);
}

/* ---- writing the list ---- */

static const char *const directions[] = {"read", "write", "trim", "sync", "mixed"};
static const char *const percentiles[] = {"p50", "p90", "p95", "p99", "p99.9", "p99.99"};

typedef struct writer {
    fsc_buf *out;
    const char *format;
    fsc_name_kind section;
    bool started;
    fsc_jw jw;
} writer;

static const char *unit_text(const fsc_name_doc *d)
{
    if (d->text)
        return "text";
    const char *u = fsc_unit_name(d->unit);
    return *u ? u : "number";
}

static const char *const section_title[] = {
    "Dimensions: text of every row (--metrics, --where, --pivot, --system-from, --by)",
    "Metrics: numbers in base units (--metrics, --where, --y; csv/tsv/json of table\n"
    "and compare). DIR is read, write, trim, sync or mixed; a name without DIR sums or\n"
    "weighs the directions the job did. pNN is a percentile fio printed (p99, p99.9).",
    "Fields of 'fioscope parse --format csv|tsv' (one row per job and direction; the\n"
    "JSON paths of 'fioscope parse'). Besides these, every job-level metric above is a\n"
    "column of the same name and unit, and every DIR.x metric is the column x of its\n"
    "direction's row (read.iops -> iops, read.clat_ns.mean -> clat_ns.mean)."};

/* One concrete name per line: DIR and pNN expanded. */
static void put_names(fsc_buf *b, const char *name)
{
    const char *dir = strstr(name, "DIR.");
    const char *pnn = strstr(name, "pNN");
    if (dir) {
        for (size_t i = 0; i < FSC_ARRAY_SIZE(directions); i++) {
            char tmp[160];
            snprintf(tmp, sizeof tmp, "%.*s%s.%s", (int)(dir - name), name, directions[i], dir + 4);
            put_names(b, tmp);
        }
        return;
    }
    if (pnn) {
        for (size_t i = 0; i < FSC_ARRAY_SIZE(percentiles); i++)
            fsc_buf_printf(b, "%.*s%s%s\n", (int)(pnn - name), name, percentiles[i], pnn + 3);
        return;
    }
    fsc_buf_printf(b, "%s\n", name);
}

static void write_one(void *ctx, const fsc_name_doc *d)
{
    writer *wr = ctx;
    if (!strcmp(wr->format, "names")) {
        if (d->kind != FSC_NAME_FIELD)
            put_names(wr->out, d->name);
        return;
    }
    if (!strcmp(wr->format, "json")) {
        static const char *const kinds[] = {"dimension", "metric", "field"};
        fsc_jw_obj(&wr->jw);
        fsc_jw_key(&wr->jw, "name");
        fsc_jw_str(&wr->jw, d->name);
        fsc_jw_key(&wr->jw, "kind");
        fsc_jw_str(&wr->jw, kinds[d->kind]);
        fsc_jw_key(&wr->jw, "unit");
        fsc_jw_str(&wr->jw, unit_text(d));
        fsc_jw_key(&wr->jw, "help");
        fsc_jw_str(&wr->jw, d->help);
        fsc_jw_obj_end(&wr->jw);
        return;
    }
    if (!wr->started || d->kind != wr->section) {
        fsc_buf_printf(wr->out, "%s%s\n\n", wr->started ? "\n" : "", section_title[d->kind]);
        wr->started = true;
        wr->section = d->kind;
    }
    fsc_buf_printf(wr->out, "  %-22s %-8s %s\n", d->name, unit_text(d), d->help);
}

fsc_status fsc_name_docs_write(fsc_buf *out, const char *format)
{
    if (strcmp(format, "text") && strcmp(format, "json") && strcmp(format, "names"))
        return FSC_E_USAGE;
    writer wr = {.out = out, .format = format};
    if (!strcmp(format, "json")) {
        fsc_jw_init(&wr.jw, out, true, false);
        fsc_jw_obj(&wr.jw);
        fsc_jw_key(&wr.jw, "directions");
        fsc_jw_arr(&wr.jw);
        for (size_t i = 0; i < FSC_ARRAY_SIZE(directions); i++)
            fsc_jw_str(&wr.jw, directions[i]);
        fsc_jw_arr_end(&wr.jw);
        fsc_jw_key(&wr.jw, "names");
        fsc_jw_arr(&wr.jw);
    }
    fsc_name_docs(write_one, &wr);
    if (!strcmp(format, "json")) {
        fsc_jw_arr_end(&wr.jw);
        fsc_jw_obj_end(&wr.jw);
        fsc_buf_putc(out, '\n');
    }
    return out->oom ? FSC_E_NOMEM : FSC_OK;
}

/* ---- did you mean ---- */

typedef struct nearest_ctx {
    fsc_buf names; /* every concrete name, NUL-separated */
} nearest_ctx;

static void collect(void *ctx, const fsc_name_doc *d)
{
    nearest_ctx *c = ctx;
    if (d->kind == FSC_NAME_FIELD)
        return;
    fsc_buf lines = {0};
    put_names(&lines, d->name);
    for (size_t i = 0; i < lines.len; i++)
        if (lines.data[i] == '\n')
            lines.data[i] = '\0';
    fsc_buf_add(&c->names, lines.data ? lines.data : "", lines.len);
    fsc_buf_free(&lines);
}

bool fsc_metric_nearest(const char *name, fsc_buf *out)
{
    nearest_ctx c = {0};
    fsc_name_docs(collect, &c);
    size_t n = 0;
    for (size_t i = 0; i < c.names.len; i++)
        n += c.names.data[i] == '\0';
    const char **cands = calloc(n ? n : 1, sizeof *cands);
    const char *best = NULL;
    if (cands && !c.names.oom) {
        size_t k = 0;
        for (size_t i = 0; i < c.names.len; i += strlen(c.names.data + i) + 1)
            cands[k++] = c.names.data + i;
        best = fsc_nearest(name, cands, k, 0);
    }
    if (best)
        fsc_buf_puts(out, best);
    free(cands);
    fsc_buf_free(&c.names);
    return best != NULL;
}
