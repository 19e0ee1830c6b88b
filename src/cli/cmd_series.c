/* SPDX-License-Identifier: MIT */
/*
 * `fioscope series`: the time series of the fio log files found in the inputs,
 * resampled (per clone or summed, each direction or all), the latency percentiles
 * over time of histogram logs as fiologparser_hist.py prints them, or fio's
 * steady-state criterion judged over a job's series.
 */
#include "cli.h"
#include "fioscope/timeseries.h"
#include "outfile.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char series_help[] =
    "usage: fioscope series [OPTIONS] INPUT...\n"
    "\n"
    "The time series of the fio log files in the inputs (write_bw_log, write_iops_log,\n"
    "write_lat_log, write_hist_log; logs join the run of their folder or archive),\n"
    "resampled to a regular interval: one line per interval, values in base units\n"
    "(bytes/s, I/Os per second, ns).\n"
    "\n"
    "  -k, --kind LIST     bw, iops, lat, clat, slat (default: all of them)\n"
    "  -i, --interval MS   interval in ms (default: each log's own, log_avg_msec;\n"
    "                      1000 for logs of every I/O)\n"
    "      --dir DIR       all (default: the directions together), each (one series per\n"
    "                      direction), read, write or trim\n"
    "      --sum           the clones of a job (numjobs) summed into one series\n"
    "      --job NAME      only the series of this job\n"
    "  -f, --format FMT    csv (default), tsv or json\n"
    "      --pctl[=LIST]   latency percentiles over time of the histogram logs of each\n"
    "                      run (write_hist_log), exactly as fio's fiologparser_hist.py\n"
    "                      prints them (default 90,95,99; with --interval, 1000 ms\n"
    "                      by default, and --decimals N, 3 by default)\n"
    "      --steady SPEC   judge fio's steady-state criterion over each job's series:\n"
    "                      iops:10%, iops_slope:0.1%, bw:5%, bw_slope:2048 (fio's --ss),\n"
    "                      with --steady-dur S (the window, default 60) and\n"
    "                      --steady-ramp S (ignored start, default 0)\n"
    "  -o, --output FILE   write to FILE instead of standard output\n"
    "  -j, --jobs N        parse with N threads\n"
    "  -q, --quiet         no diagnostics on stderr\n";

typedef enum series_mode { MODE_SERIES, MODE_PCTL, MODE_STEADY } series_mode;

typedef struct series_args {
    fsc_cli_common common;
    series_mode mode;
    unsigned kinds; /* 1 << fsc_logkind */
    double interval;
    int dir;        /* -1 all, -2 each, else FSC_DIR_* */
    bool sum;
    const char *job, *format, *output;
    double pcts[32];
    size_t n_pcts;
    int decimals;
    fsc_ss_crit ss;
    const char **paths;
    size_t n_paths;
} series_args;

static bool parse_kinds(const char *v, unsigned *out)
{
    *out = 0;
    while (*v) {
        size_t l = strcspn(v, ",");
        int k = fsc_logkind_from_name(v, l);
        if (k < 0 || fsc_logkind_is_hist((fsc_logkind)k))
            return false;
        *out |= 1u << k;
        v += l + (v[l] == ',');
    }
    return *out != 0;
}

static bool parse_pcts(const char *v, series_args *a)
{
    a->n_pcts = 0;
    while (*v && a->n_pcts < FSC_ARRAY_SIZE(a->pcts)) {
        char *end;
        double p = strtod(v, &end);
        if (end == v || !(p > 0 && p <= 100) || (*end && *end != ',' && *end != ':'))
            return false;
        a->pcts[a->n_pcts++] = p;
        v = *end ? end + 1 : end;
    }
    return a->n_pcts > 0 && !*v;
}

/* -1 when the option was taken, else the exit status to return. */
static int parse_opt(series_args *a, int argc, char **argv, int *i)
{
    const char *arg = argv[*i], *v;
    bool missing = false;
    if ((v = fsc_cli_opt_value(argc, argv, i, "--kind", "-k", &missing))) {
        if (!parse_kinds(v, &a->kinds))
            return fsc_cli_usage("series", "--kind takes a list of bw, iops, lat, clat, slat");
    } else if ((v = fsc_cli_opt_value(argc, argv, i, "--interval", "-i", &missing))) {
        char *end;
        a->interval = strtod(v, &end);
        if (end == v || *end || !(a->interval >= 1 && a->interval <= 1e9))
            return fsc_cli_usage("series", "--interval takes milliseconds (1 or more), not '%s'", v);
    } else if ((v = fsc_cli_opt_value(argc, argv, i, "--dir", NULL, &missing))) {
        if (!strcmp(v, "all"))
            a->dir = -1;
        else if (!strcmp(v, "each"))
            a->dir = -2;
        else if ((a->dir = fsc_ddir_from_name(v, strlen(v))) < 0 || a->dir > FSC_DIR_TRIM)
            return fsc_cli_usage("series", "--dir takes all, each, read, write or trim");
    } else if ((v = fsc_cli_opt_value(argc, argv, i, "--job", NULL, &missing))) {
        a->job = v;
    } else if ((v = fsc_cli_opt_value(argc, argv, i, "--format", "-f", &missing))) {
        if (strcmp(v, "csv") && strcmp(v, "tsv") && strcmp(v, "json"))
            return fsc_cli_usage("series", "--format takes csv, tsv or json");
        a->format = v;
    } else if ((v = fsc_cli_opt_value(argc, argv, i, "--output", "-o", &missing))) {
        a->output = v;
    } else if (!strcmp(arg, "--pctl")) {
        a->mode = MODE_PCTL;
    } else if (!strncmp(arg, "--pctl=", 7)) {
        a->mode = MODE_PCTL;
        if (!parse_pcts(arg + 7, a))
            return fsc_cli_usage("series", "--pctl takes percentiles such as 90,95,99.9");
    } else if ((v = fsc_cli_opt_value(argc, argv, i, "--decimals", NULL, &missing))) {
        char *end;
        long d = strtol(v, &end, 10);
        if (end == v || *end || d < 0 || d > 12)
            return fsc_cli_usage("series", "--decimals takes 0 to 12");
        a->decimals = (int)d;
    } else if ((v = fsc_cli_opt_value(argc, argv, i, "--steady", NULL, &missing))) {
        a->mode = MODE_STEADY;
        if (!fsc_ss_crit_parse(v, &a->ss))
            return fsc_cli_usage("series", "--steady takes fio's criterion: iops:10%%, "
                                 "iops_slope:0.1%%, bw:5%%, bw_slope:2048");
    } else if ((v = fsc_cli_opt_value(argc, argv, i, "--steady-dur", NULL, &missing))) {
        long s = strtol(v, NULL, 10);
        if (s < 1 || s > 86400)
            return fsc_cli_usage("series", "--steady-dur takes seconds (1 or more)");
        a->ss.dur_s = (unsigned)s;
    } else if ((v = fsc_cli_opt_value(argc, argv, i, "--steady-ramp", NULL, &missing))) {
        char *end;
        a->ss.ramp_s = strtod(v, &end);
        if (end == v || *end || a->ss.ramp_s < 0)
            return fsc_cli_usage("series", "--steady-ramp takes seconds");
    } else if (!strcmp(arg, "--sum")) {
        a->sum = true;
    } else if (missing) {
        return fsc_cli_usage("series", "%s needs a value", arg);
    } else {
        int r = fsc_cli_common_opt(&a->common, argc, argv, i);
        if (r < 0)
            return fsc_cli_usage("series", "bad value for %s", arg);
        if (r == 0)
            return fsc_cli_usage("series", "unknown option '%s'", arg);
    }
    return -1;
}

static int parse_args(series_args *a, int argc, char **argv)
{
    bool opts_done = false;
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        if (opts_done || arg[0] != '-' || !strcmp(arg, "-")) {
            a->paths[a->n_paths++] = arg;
        } else if (!strcmp(arg, "--")) {
            opts_done = true;
        } else if (!strcmp(arg, "--help") || !strcmp(arg, "-h")) {
            fputs(series_help, stdout);
            return FSC_EXIT_OK;
        } else {
            int rc = parse_opt(a, argc, argv, &i);
            if (rc >= 0)
                return rc;
        }
    }
    if (!a->n_paths)
        return fsc_cli_usage("series", "no INPUT given (use '-' for standard input)");
    return -1;
}

/* ---- output ---- */

typedef struct writer {
    const series_args *a;
    fsc_buf out;
    bool json, first;
} writer;

static void put_field(writer *w, const char *s, bool last)
{
    if (!strcmp(w->a->format, "tsv")) {
        for (const char *p = s; *p; p++)
            fsc_buf_putc(&w->out, *p == '\t' || *p == '\n' || *p == '\r' ? ' ' : *p);
        fsc_buf_putc(&w->out, last ? '\n' : '\t');
        return;
    }
    if (strpbrk(s, ",\"\n\r")) {
        fsc_buf_putc(&w->out, '"');
        for (const char *p = s; *p; p++) {
            if (*p == '"')
                fsc_buf_putc(&w->out, '"');
            fsc_buf_putc(&w->out, *p);
        }
        fsc_buf_putc(&w->out, '"');
    } else {
        fsc_buf_puts(&w->out, s);
    }
    fsc_buf_putc(&w->out, last ? '\n' : ',');
}

static void put_num_field(writer *w, double v, bool last)
{
    fsc_buf tmp = {0};
    if (isfinite(v))
        fsc_buf_num(&tmp, v);
    put_field(w, tmp.data ? tmp.data : "", last);
    fsc_buf_free(&tmp);
}

/* bw grids are KiB/s: base unit bytes/s */
static double base_value(fsc_logkind k, double v)
{
    return k == FSC_LOG_BW ? v * 1024 : v;
}

static void emit_grid(writer *w, const fsc_run *run, const char *job, const char *clone,
                      const char *dir, const fsc_tsgrid *g)
{
    if (w->json) {
        fsc_jw jw;
        fsc_jw_init(&jw, &w->out, false, false);
        if (!w->first)
            fsc_buf_puts(&w->out, ",\n");
        w->first = false;
        fsc_jw_obj(&jw);
        fsc_jw_key(&jw, "run");
        fsc_jw_str(&jw, run->id);
        fsc_jw_key(&jw, "job");
        fsc_jw_str(&jw, job);
        fsc_jw_key(&jw, "clone");
        fsc_jw_str(&jw, clone);
        fsc_jw_key(&jw, "kind");
        fsc_jw_str(&jw, fsc_logkind_name(g->kind));
        fsc_jw_key(&jw, "dir");
        fsc_jw_str(&jw, dir);
        fsc_jw_key(&jw, "unit");
        fsc_jw_str(&jw, g->kind == FSC_LOG_BW ? "bytes/s" : g->kind == FSC_LOG_IOPS ? "iops" : "ns");
        fsc_jw_key(&jw, "step_ms");
        fsc_jw_num(&jw, g->step_ms);
        fsc_jw_key(&jw, "t_ms");
        fsc_jw_arr(&jw);
        for (size_t k = 0; k < g->n; k++)
            fsc_jw_num(&jw, g->t0_ms + (double)k * g->step_ms);
        fsc_jw_arr_end(&jw);
        fsc_jw_key(&jw, "value");
        fsc_jw_arr(&jw);
        for (size_t k = 0; k < g->n; k++)
            fsc_jw_num(&jw, base_value(g->kind, g->v[k])); /* NAN → null */
        fsc_jw_arr_end(&jw);
        fsc_jw_obj_end(&jw);
        return;
    }
    for (size_t k = 0; k < g->n; k++) {
        put_field(w, run->id ? run->id : "", false);
        put_field(w, job, false);
        put_field(w, clone, false);
        put_field(w, fsc_logkind_name(g->kind), false);
        put_field(w, dir, false);
        put_num_field(w, g->t0_ms + (double)k * g->step_ms, false);
        put_num_field(w, base_value(g->kind, g->v[k]), true);
    }
}

static const char *dir_label(int d)
{
    return d < 0 ? "all" : fsc_ddir_name((fsc_ddir)d);
}

/* The directions a series has rows of (bit per FSC_DIR_READ..TRIM). */
static unsigned series_dirs(const fsc_logseries *s)
{
    int64_t d[FSC_LOG_BLOCK];
    unsigned mask = 0;
    for (size_t first = 0; first < s->n; first += FSC_LOG_BLOCK) {
        size_t got = fsc_logseries_read(s, first, FSC_LOG_BLOCK, FSC_COL_DIR, d);
        if (!got)
            return 1;
        for (size_t i = 0; i < got; i++)
            if (d[i] >= 0 && d[i] <= FSC_DIR_TRIM)
                mask |= 1u << d[i];
    }
    return mask;
}

/* The series of run named job of kind k, in clone order (at most max). */
static size_t named_series(const fsc_run *run, const char *job, fsc_logkind k,
                           const fsc_logseries **out, size_t max)
{
    size_t n = 0;
    for (size_t i = 0; i < run->n_series && n < max; i++) {
        const fsc_logseries *s = run->series[i];
        if (s->kind == k && !strcmp(s->job ? s->job : "", job))
            out[n++] = s;
    }
    return n;
}

static fsc_status emit_job_kind(writer *w, const fsc_run *run, const char *job, fsc_logkind k,
                                double origin)
{
    const series_args *a = w->a;
    const fsc_logseries *ser[64];
    size_t n = named_series(run, job, k, ser, 64);
    if (!n)
        return FSC_OK;
    unsigned dirs = 0;
    for (size_t i = 0; i < n; i++)
        dirs |= series_dirs(ser[i]);
    double step = a->interval;
    for (size_t i = 0; i < n && !step; i++)
        step = fsc_ts_period(ser[i]);
    for (int d = -1; d <= FSC_DIR_TRIM; d++) {
        if (a->dir == -1 ? d != -1 : a->dir == -2 ? (d < 0 || !(dirs & (1u << d))) : d != a->dir)
            continue;
        fsc_ts_opts o = {.step_ms = step > 0 ? step : 1000, .dir = d, .origin_ms = origin};
        fsc_status st = FSC_OK;
        if (a->sum) {
            fsc_tsgrid all;
            if ((st = fsc_ts_resample_all(ser, n, &o, &all)) == FSC_OK) {
                emit_grid(w, run, job, "all", dir_label(d), &all);
                fsc_tsgrid_free(&all);
            }
        }
        for (size_t i = 0; !a->sum && i < n && st == FSC_OK; i++) {
            fsc_tsgrid g;
            if ((st = fsc_ts_resample(ser[i], &o, &g)) != FSC_OK)
                break;
            char clone[32];
            snprintf(clone, sizeof clone, "%d", ser[i]->section ? ser[i]->section : ser[i]->clone);
            emit_grid(w, run, job, clone, dir_label(d), &g);
            fsc_tsgrid_free(&g);
        }
        if (st != FSC_OK)
            return st;
    }
    return FSC_OK;
}

/* Is run->series[i] the first series of its job name? */
static bool first_of_job(const fsc_run *run, size_t i)
{
    const char *name = run->series[i]->job ? run->series[i]->job : "";
    for (size_t k = 0; k < i; k++)
        if (!strcmp(run->series[k]->job ? run->series[k]->job : "", name))
            return false;
    return true;
}

/* Jobs of a run, each name once (clones of numjobs are one job here). */
static bool first_of_name(const fsc_run *run, size_t j)
{
    for (size_t i = 0; i < j; i++)
        if (!strcmp(run->jobs[i].jobname ? run->jobs[i].jobname : "",
                    run->jobs[j].jobname ? run->jobs[j].jobname : ""))
            return false;
    return true;
}

static bool wanted_job(const series_args *a, const fsc_run *run, size_t j)
{
    return !a->job || !strcmp(run->jobs[j].jobname ? run->jobs[j].jobname : "", a->job);
}

static fsc_status write_series(writer *w, const fsc_runset *set)
{
    const series_args *a = w->a;
    if (w->json)
        fsc_buf_puts(&w->out, "[\n");
    else {
        const char *cols[] = {"run", "job", "clone", "kind", "dir", "t_ms", "value"};
        for (size_t i = 0; i < FSC_ARRAY_SIZE(cols); i++)
            put_field(w, cols[i], i + 1 == FSC_ARRAY_SIZE(cols));
    }
    for (size_t r = 0; r < set->n_runs; r++) {
        const fsc_run *run = set->runs[r];
        double origin = fsc_ts_origin((const fsc_logseries *const *)run->series, run->n_series);
        for (size_t i = 0; i < run->n_series; i++) {
            const char *job = run->series[i]->job ? run->series[i]->job : "";
            if (!first_of_job(run, i) || (a->job && strcmp(job, a->job)))
                continue;
            for (int k = 0; k <= FSC_LOG_SLAT; k++) {
                if (!(a->kinds & (1u << k)))
                    continue;
                fsc_status st = emit_job_kind(w, run, job, (fsc_logkind)k, origin);
                if (st != FSC_OK)
                    return st;
            }
        }
    }
    if (w->json)
        fsc_buf_puts(&w->out, w->first ? "]\n" : "\n]\n");
    return FSC_OK;
}

static fsc_status write_pctl(writer *w, const fsc_runset *set, size_t *found)
{
    const series_args *a = w->a;
    size_t with = 0;
    for (size_t r = 0; r < set->n_runs; r++)
        for (size_t i = 0; i < set->runs[r]->n_series; i++)
            if (fsc_logkind_is_hist(set->runs[r]->series[i]->kind)) {
                with++;
                break;
            }
    for (size_t r = 0; r < set->n_runs; r++) {
        const fsc_run *run = set->runs[r];
        const fsc_logseries **h = calloc(run->n_series + 1, sizeof *h);
        if (!h)
            return FSC_E_NOMEM;
        size_t n = 0;
        for (size_t i = 0; i < run->n_series; i++) {
            const fsc_logseries *s = run->series[i];
            if (fsc_logkind_is_hist(s->kind) && (!a->job || !strcmp(s->job ? s->job : "", a->job)))
                h[n++] = s;
        }
        fsc_hpctl p;
        fsc_hpctl_opts o = {.interval_ms = a->interval, .pcts = a->n_pcts ? a->pcts : NULL,
                            .n_pcts = a->n_pcts};
        fsc_status st = n ? fsc_hist_pctl(h, n, &o, &p) : FSC_OK;
        free(h);
        if (st == FSC_E_USAGE) {
            fsc_cli_err("series: %s: histogram logs of different bin layouts: not pooled", run->id);
            continue;
        }
        if (st != FSC_OK)
            return st;
        if (!n)
            continue;
        (*found)++;
        if (with > 1)
            fsc_buf_printf(&w->out, "# %s\n", run->id ? run->id : "");
        fsc_hpctl_text(&p, a->decimals, &w->out);
        fsc_hpctl_free(&p);
    }
    return FSC_OK;
}

static fsc_status write_steady(writer *w, const fsc_runset *set, size_t *found)
{
    const series_args *a = w->a;
    const char *cols[] = {"run", "job", "criterion", "attained", "t_ms", "value", "mean", "windows"};
    for (size_t i = 0; i < FSC_ARRAY_SIZE(cols); i++)
        put_field(w, cols[i], i + 1 == FSC_ARRAY_SIZE(cols));
    fsc_logkind k = a->ss.on_iops ? FSC_LOG_IOPS : FSC_LOG_BW;
    for (size_t r = 0; r < set->n_runs; r++) {
        const fsc_run *run = set->runs[r];
        double origin = fsc_ts_origin((const fsc_logseries *const *)run->series, run->n_series);
        for (size_t j = 0; j < run->n_jobs; j++) {
            if (!first_of_name(run, j) || !wanted_job(a, run, j))
                continue;
            const fsc_logseries *ser[64];
            size_t n = named_series(run, run->jobs[j].jobname ? run->jobs[j].jobname : "", k, ser, 64);
            if (!n)
                continue;
            fsc_tsgrid all;
            fsc_ts_opts o = {.step_ms = 1000, .dir = -1, .origin_ms = origin};
            fsc_ss_result res;
            fsc_status st = fsc_ts_resample_all(ser, n, &o, &all);
            if (st == FSC_OK) {
                st = fsc_ss_detect(&all, &a->ss, &res);
                fsc_tsgrid_free(&all);
            }
            if (st != FSC_OK)
                return st;
            (*found)++;
            char crit[64];
            snprintf(crit, sizeof crit, "%s%s:%g%s", a->ss.on_iops ? "iops" : "bw",
                     a->ss.slope ? "_slope" : "", a->ss.limit, a->ss.pct ? "%" : "");
            put_field(w, run->id ? run->id : "", false);
            put_field(w, run->jobs[j].jobname ? run->jobs[j].jobname : "", false);
            put_field(w, crit, false);
            put_field(w, res.windows ? (res.attained ? "yes" : "no") : "", false);
            put_num_field(w, res.windows ? res.t_ms : NAN, false);
            put_num_field(w, res.windows ? res.criterion : NAN, false);
            put_num_field(w, res.windows ? res.mean : NAN, false);
            put_num_field(w, (double)res.windows, true);
        }
    }
    return FSC_OK;
}

int fsc_cmd_series(int argc, char **argv)
{
    series_args a = {.common = {.input = {.progress = true}}, .dir = -1, .format = "csv",
                     .decimals = 3, .kinds = 0x1f, .ss = {.dur_s = 60}};
    a.paths = calloc((size_t)argc + 1, sizeof *a.paths);
    if (!a.paths)
        return FSC_EXIT_INPUT;
    int rc = parse_args(&a, argc, argv);
    if (rc >= 0) {
        free(a.paths);
        return rc;
    }
    if (a.mode == MODE_STEADY && a.ss.slope && a.ss.dur_s < 2) {
        free(a.paths);
        return fsc_cli_usage("series", "a slope needs a window of 2 seconds or more");
    }
    fsc_runset set;
    fsc_manifest manifest = {0};
    fsc_runset_init(&set);
    a.common.no_ts_stats = true; /* the series themselves are what this command shows */
    int lrc = fsc_cli_load(&a.common, a.paths, a.n_paths, &set, &manifest);
    rc = lrc < 0 ? FSC_EXIT_INPUT : lrc;
    writer w = {.a = &a, .json = !strcmp(a.format, "json"), .first = true};
    size_t found = 0;
    fsc_status st = FSC_OK;
    if (lrc >= 0) {
        if (a.mode == MODE_PCTL)
            st = write_pctl(&w, &set, &found);
        else if (a.mode == MODE_STEADY)
            st = write_steady(&w, &set, &found);
        else
            st = write_series(&w, &set);
    }
    if (st != FSC_OK || w.out.oom) {
        fsc_cli_err("series: %s", fsc_strerror(st != FSC_OK ? st : FSC_E_NOMEM));
        rc = FSC_EXIT_INPUT;
    } else if (lrc >= 0) {
        if (a.mode != MODE_SERIES && !found && !a.common.quiet)
            fsc_cli_err("series: no %s found in the inputs",
                        a.mode == MODE_PCTL ? "histogram log (write_hist_log)"
                                            : "iops or bw log of a job");
        fsc_buf err = {0};
        fsc_outfile *f = fsc_outfile_open(a.output, &err);
        bool ok = f && fsc_outfile_write(f, w.out.data ? w.out.data : "", w.out.len);
        if (f)
            ok = fsc_outfile_commit(f, ok, &err) && ok;
        if (!ok) {
            fsc_cli_err("series: %s", err.len ? err.data : "cannot write output");
            rc = FSC_EXIT_INPUT;
        }
        fsc_buf_free(&err);
    }
    fsc_buf_free(&w.out);
    fsc_runset_clear(&set);
    fsc_manifest_free(&manifest);
    free(a.paths);
    return rc;
}
