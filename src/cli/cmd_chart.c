/* SPDX-License-Identifier: MIT */
/* `fioscope chart`: one chart of any metric (PNG, SVG or PDF by the file name). */
#include "cli.h"
#include "fioscope/analyze.h"
#include "fioscope/chart.h"
#include "fioscope/chart_time.h"
#include "fioscope/table.h"
#include "outfile.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char chart_help[] =
    "usage: fioscope chart [--type TYPE] [--x DIM] --y METRIC [--series DIM] [--facet DIM]\n"
    "                      [-o FILE.png|.svg|.pdf] [OPTIONS] INPUT...\n"
    "\n"
    "Draws one chart of the fio runs found in the inputs. METRIC and DIM are names of\n"
    "'fioscope table' metrics and dimensions (read.iops, write.clat_ns.p99, iops, bw,\n"
    "lat, rw, bs, iodepth, numjobs, system, workload, jobname...).\n"
    "\n"
    "  -t, --type TYPE     bar (default), line, scatter, pctl (latency percentile\n"
    "                      curves of the kind named by --y: slat, clat or lat), buckets\n"
    "                      (fio's latency distribution), heatmap (--x columns, --series\n"
    "                      rows) or box (the spread of repeats); from fio's log files:\n"
    "                      timeseries (--y iops, bw, lat, clat or slat over time),\n"
    "                      pctl-time (latency percentiles over time from histogram\n"
    "                      logs) and heatmap without --x (a latency heat map over time)\n"
    "  -x, --x DIM         categories (bar, box, heatmap) or x values (line, scatter);\n"
    "                      default: one bar per job\n"
    "  -y, --y METRIC      the value drawn\n"
    "      --series DIM    one series (colour) per value of DIM\n"
    "      --facet DIM     one panel (small multiple) per value of DIM\n"
    "      --title TEXT    the chart's title (default: from the metrics)\n"
    "      --subtitle TEXT a line under the title\n"
    "      --log-y         logarithmic y axis\n"
    "      --linear-y      linear y axis (by default bars that differ 200x go log)\n"
    "  -o, --output FILE   the file to write; .png, .svg or .pdf picks the format\n"
    "                      (default chart.png; '-' = standard output)\n"
    "      --format FMT    png, svg or pdf (for '-o -' or a name without extension)\n"
    "      --size WxH      image size in pixels (default 1600x900; taller for many\n"
    "                      panels)\n"
    "Rows that land on the same point (repeats) are drawn as their median with a dot\n"
    "for each and their range. Every chart carries a footnote with the fio versions and\n"
    "sources; PNGs hold it as text chunks too.\n";

typedef struct chart_args {
    fsc_cli_common common;
    const char *x, *y, *series, *facet, *output, *title, *subtitle;
    int type, format, width, height;
    bool sized, log_y, linear_y;
    const char **paths;
    size_t n_paths;
} chart_args;

static const char *const type_list[] = {"bar",     "line", "scatter",    "pctl",     "buckets",
                                        "heatmap", "box",  "timeseries", "pctl-time"};
/* The types drawn from fio's log files (type_list's last two, and a heatmap without --x). */
enum { TYPE_TIMESERIES = 7, TYPE_PCTL_TIME = 8 };
static const char *const format_list[] = {"png", "svg", "pdf"};

static int bad_name(const char *what, const char *v, const char *const *names, size_t n)
{
    const char *near = fsc_nearest(v, names, n, 0);
    fsc_buf all = {0};
    for (size_t i = 0; i < n; i++)
        fsc_buf_printf(&all, "%s%s", i ? (i + 1 == n ? " or " : ", ") : "", names[i]);
    int rc = near ? fsc_cli_usage("chart", "%s takes %s, not '%s' (did you mean '%s'?)", what,
                                  all.data ? all.data : "", v, near)
                  : fsc_cli_usage("chart", "%s takes %s, not '%s'", what, all.data ? all.data : "", v);
    fsc_buf_free(&all);
    return rc;
}

static int lookup_index(const char *v, const char *const *names, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!strcmp(v, names[i]))
            return (int)i;
    return -1;
}

static int parse_opt(chart_args *ca, int argc, char **argv, int *i)
{
    const char *a = argv[*i], *v;
    bool missing = false;
    if ((v = fsc_cli_opt_value(argc, argv, i, "--x", "-x", &missing)))
        ca->x = v;
    else if ((v = fsc_cli_opt_value(argc, argv, i, "--y", "-y", &missing)))
        ca->y = v;
    else if ((v = fsc_cli_opt_value(argc, argv, i, "--series", NULL, &missing)))
        ca->series = v;
    else if ((v = fsc_cli_opt_value(argc, argv, i, "--facet", NULL, &missing)))
        ca->facet = v;
    else if ((v = fsc_cli_opt_value(argc, argv, i, "--title", NULL, &missing)))
        ca->title = v;
    else if ((v = fsc_cli_opt_value(argc, argv, i, "--subtitle", NULL, &missing)))
        ca->subtitle = v;
    else if ((v = fsc_cli_opt_value(argc, argv, i, "--output", "-o", &missing)))
        ca->output = v;
    else if ((v = fsc_cli_opt_value(argc, argv, i, "--type", "-t", &missing))) {
        if ((ca->type = lookup_index(v, type_list, FSC_ARRAY_SIZE(type_list))) < 0)
            return bad_name("--type", v, type_list, FSC_ARRAY_SIZE(type_list));
    } else if ((v = fsc_cli_opt_value(argc, argv, i, "--format", NULL, &missing))) {
        if ((ca->format = lookup_index(v, format_list, FSC_ARRAY_SIZE(format_list))) < 0)
            return bad_name("--format", v, format_list, FSC_ARRAY_SIZE(format_list));
    } else if ((v = fsc_cli_opt_value(argc, argv, i, "--size", NULL, &missing))) {
        if (!fsc_cli_parse_size(v, &ca->width, &ca->height))
            return fsc_cli_usage("chart", "--size takes WxH from 200x200 to 8000x8000, not '%s'", v);
        ca->sized = true;
    } else if (!strcmp(a, "--log-y"))
        ca->log_y = true;
    else if (!strcmp(a, "--linear-y"))
        ca->linear_y = true;
    else if (missing)
        return fsc_cli_usage("chart", "%s needs a value", a);
    else {
        int r = fsc_cli_common_opt(&ca->common, argc, argv, i);
        if (r < 0)
            return fsc_cli_usage("chart", "bad value for %s", a);
        if (r == 0)
            return fsc_cli_unknown_option("chart", a, chart_help, fsc_cli_common_help, NULL);
    }
    return -1;
}

/* -1 when name is a metric, else a usage error naming the nearest one. */
static int check_metric(const char *opt, const char *name)
{
    (void)opt; /* the shared check names the metric and the nearest one */
    return fsc_cli_check_metric_list("chart", name) ? -1 : FSC_EXIT_USAGE;
}

/* The output format: --format, else the extension of -o (PNG for '-'). */
static int pick_format(chart_args *ca)
{
    if (ca->format >= 0)
        return -1;
    if (!strcmp(ca->output, "-")) {
        ca->format = FSC_CHART_PNG;
        return -1;
    }
    ca->format = fsc_chart_format_from_path(ca->output);
    if (ca->format >= 0)
        return -1;
    const char *dot = strrchr(ca->output, '.'), *slash = strrchr(ca->output, '/');
    if (dot && (!slash || dot > slash)) {
        const char *near = fsc_nearest(dot + 1, format_list, FSC_ARRAY_SIZE(format_list), 0);
        return fsc_cli_usage("chart", "-o %s: the name must end in .png, .svg or .pdf%s%s%s", ca->output,
                             near ? " (did you mean ." : "", near ? near : "", near ? "?)" : "");
    }
    return fsc_cli_usage("chart", "-o %s: the name must end in .png, .svg or .pdf (or use --format)", ca->output);
}

/* Returns -1 when parsing went fine, else the exit status to return. */
static int parse_args(chart_args *ca, int argc, char **argv)
{
    bool opts_done = false;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (opts_done || a[0] != '-' || !strcmp(a, "-")) {
            ca->paths[ca->n_paths++] = a;
        } else if (!strcmp(a, "--")) {
            opts_done = true;
        } else if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            fputs(chart_help, stdout);
            fputs(fsc_cli_common_help, stdout);
            return FSC_EXIT_OK;
        } else {
            int rc = parse_opt(ca, argc, argv, &i);
            if (rc >= 0)
                return rc;
        }
    }
    if (ca->log_y && ca->linear_y)
        return fsc_cli_usage("chart", "--log-y and --linear-y exclude each other");
    bool logs = ca->type >= TYPE_TIMESERIES || (ca->type == FSC_CHART_HEATMAP && !ca->x && !ca->series);
    if (logs && (ca->series || ca->facet || ca->x))
        return fsc_cli_usage("chart", "--x, --series and --facet are not for charts over time: one "
                                      "line (or panel) per job");
    if (ca->type == TYPE_TIMESERIES && ca->y && fsc_logkind_from_name(ca->y, strlen(ca->y)) < 0)
        return fsc_cli_usage("chart", "a timeseries chart takes --y iops, bw, lat, clat or slat");
    bool model = ca->type == FSC_CHART_PCTL || ca->type == FSC_CHART_BUCKETS || logs;
    if (model && (ca->series || ca->facet || ca->x))
        return fsc_cli_usage("chart", "--x, --series and --facet are for bar, line, scatter, heatmap and box "
                                      "charts; a %s chart draws one curve per job",
                             type_list[ca->type]);
    if (!model && !ca->y)
        return fsc_cli_usage("chart", "--y METRIC is needed for a %s chart", type_list[ca->type]);
    if ((ca->type == FSC_CHART_LINE || ca->type == FSC_CHART_SCATTER) && !ca->x)
        return fsc_cli_usage("chart", "--x METRIC is needed for a %s chart", type_list[ca->type]);
    if (ca->type == FSC_CHART_HEATMAP && !ca->x != !ca->series)
        return fsc_cli_usage("chart", "a heatmap needs --x DIM (its columns) and --series DIM (its rows), "
                                      "or neither (a latency heat map over time from histogram logs)");
    int rc = -1;
    if (!model) {
        /* ... and the metrics and dimensions of a table chart */
        const char *opts[] = {"--x", "--y", "--series", "--facet"};
        const char *vals[] = {ca->x, ca->y, ca->series, ca->facet};
        for (size_t i = 0; i < 4 && rc < 0; i++)
            rc = check_metric(opts[i], vals[i]);
    }
    if (rc < 0)
        rc = pick_format(ca);
    if (rc < 0 && !ca->n_paths)
        rc = fsc_cli_usage("chart", "no INPUT given (use '-' for standard input)");
    return rc;
}

static fsc_latkind latkind_of(const char *y)
{
    if (y && strstr(y, "slat"))
        return FSC_LAT_SLAT;
    if (y && strstr(y, "clat"))
        return FSC_LAT_CLAT;
    if (y && strstr(y, "lat"))
        return FSC_LAT_LAT;
    return FSC_LAT_CLAT;
}

static bool names_dir(const char *s)
{
    return s && !strcmp(s, "dir");
}

/* The default title: "write IOPS by iodepth, per system". */
static void default_title(const chart_args *ca, const fsc_table *t, size_t ys, size_t xs, size_t ss,
                          size_t fs, fsc_buf *b)
{
    fsc_buf_puts(b, t->cols[ys].title);
    if (ca->x)
        fsc_buf_printf(b, " by %s", t->cols[xs].title);
    else if (!ca->series && !ca->facet)
        fsc_buf_puts(b, " per job");
    if (ss != SIZE_MAX)
        fsc_buf_printf(b, "%s %s", xs != SIZE_MAX ? " and" : " by", t->cols[ss].title);
    if (fs != SIZE_MAX)
        fsc_buf_printf(b, ", one panel per %s", t->cols[fs].title);
}

static fsc_chart *chart_from_table(const chart_args *ca, const fsc_runset *set, const fsc_analysis *a,
                                   fsc_buf *err)
{
    fsc_buf metrics = {0};
    size_t col = 0, xs = SIZE_MAX, ys, ss = SIZE_MAX, fs = SIZE_MAX;
    bool per_row = ca->type == FSC_CHART_BAR && !ca->x && !ca->series && !ca->facet;
    if (ca->x || per_row) { /* one bar per row: the label is the category */
        fsc_buf_printf(&metrics, "%s,", ca->x ? ca->x : "label");
        xs = col++;
    }
    fsc_buf_puts(&metrics, ca->y);
    ys = col++;
    if (ca->series) {
        fsc_buf_printf(&metrics, ",%s", ca->series);
        ss = col++;
    }
    if (ca->facet) {
        fsc_buf_printf(&metrics, ",%s", ca->facet);
        fs = col++;
    }
    bool split = names_dir(ca->x) || names_dir(ca->series) || names_dir(ca->facet);
    fsc_table_opts o = {.by = FSC_BY_JOB, .label_from = ca->common.label_from, .no_split = !split, .analysis = a};
    fsc_table *t = metrics.oom ? NULL : fsc_table_build_opts(set, metrics.data, &o, err);
    fsc_buf_free(&metrics);
    if (!t)
        return NULL;
    fsc_buf title = {0};
    if (ca->title)
        fsc_buf_puts(&title, ca->title);
    else
        default_title(ca, t, ys, xs, ss, fs, &title);
    fsc_chart *c = NULL;
    if (!title.oom && per_row) {
        /* one bar per row (job), numjobs clones told apart as "name #2" */
        c = fsc_chart_xy(t, FSC_CHART_BAR);
        if (c && !fsc_chart_set_text(&c->title, title.data)) {
            fsc_chart_free(c);
            c = NULL;
        }
    } else if (!title.oom) {
        fsc_chart_dims_spec spec = {(fsc_chart_type)ca->type, xs, ys, ss, fs};
        c = fsc_chart_dims(t, &spec, title.data);
    }
    fsc_buf_free(&title);
    fsc_table_free(t);
    return c;
}

/* A chart over time from the runs' log series (fioscope/chart_time.h). */
static fsc_chart *time_chart(const chart_args *ca, const fsc_runset *set)
{
    int k = ca->y ? fsc_logkind_from_name(ca->y, strlen(ca->y)) : -1;
    fsc_chart_time_opts o = {.run = SIZE_MAX, .label_from = ca->common.label_from};
    if (ca->type == TYPE_TIMESERIES) {
        o.kind = k >= 0 && !fsc_logkind_is_hist((fsc_logkind)k) ? (fsc_logkind)k : FSC_LOG_IOPS;
        return fsc_chart_timeseries(set, &o);
    }
    o.kind = ca->y && strstr(ca->y, "clat") ? FSC_LOG_CLAT_HIST
             : ca->y && strstr(ca->y, "lat") ? FSC_LOG_LAT_HIST : FSC_LOG_KIND_COUNT;
    return ca->type == TYPE_PCTL_TIME ? fsc_chart_pctl_time(set, &o) : fsc_chart_lat_heatmap(set, &o);
}

static fsc_chart *make_chart(const chart_args *ca, const fsc_runset *set, const fsc_analysis *a, fsc_buf *err)
{
    fsc_chart *c;
    bool logs = ca->type >= TYPE_TIMESERIES || (ca->type == FSC_CHART_HEATMAP && !ca->x && !ca->series);
    if (logs)
        c = time_chart(ca, set);
    else if (ca->type == FSC_CHART_PCTL)
        c = fsc_chart_percentiles(set, latkind_of(ca->y), ca->common.label_from);
    else if (ca->type == FSC_CHART_BUCKETS)
        c = fsc_chart_buckets(set, ca->common.label_from);
    else
        c = chart_from_table(ca, set, a, err);
    bool ok = c != NULL;
    if (ok && ca->title && (ca->type == FSC_CHART_PCTL || ca->type == FSC_CHART_BUCKETS || logs))
        ok = fsc_chart_set_text(&c->title, ca->title);
    if (ok && ca->subtitle)
        ok = fsc_chart_set_text(&c->subtitle, ca->subtitle);
    ok = ok && fsc_chart_provenance(c, set);
    for (size_t i = 0; ok && i <= c->n_panels; i++) {
        fsc_chart *p = i < c->n_panels ? c->panels[i] : c;
        p->y_log = ca->log_y || (p->y_log && !ca->linear_y);
        p->y_linear = ca->linear_y;
    }
    if (!ok && c) {
        fsc_chart_free(c);
        c = NULL;
    }
    return c;
}

static int write_file(const chart_args *ca, const fsc_buf *data)
{
    fsc_buf err = {0};
    fsc_outfile *f = fsc_outfile_open(ca->output, &err);
    bool ok = f && fsc_outfile_write(f, data->data, data->len);
    if (f)
        ok = fsc_outfile_commit(f, ok, &err) && ok;
    if (!ok)
        fsc_cli_err("chart: %s", err.len ? err.data : "cannot write output");
    fsc_buf_free(&err);
    return ok ? FSC_EXIT_OK : FSC_EXIT_INPUT;
}

static size_t count_jobs(const fsc_runset *set)
{
    size_t n = 0;
    for (size_t i = 0; i < set->n_runs; i++)
        n += set->runs[i]->n_jobs;
    return n;
}

static int draw(chart_args *ca, const fsc_runset *set)
{
    fsc_buf err = {0}, out = {0};
    int rc = FSC_EXIT_INPUT;
    fsc_analysis *a = fsc_cli_analyze("chart", &ca->common, set, ca->paths, ca->n_paths, &rc);
    if (!a)
        return rc;
    rc = FSC_EXIT_INPUT;
    fsc_chart *c = make_chart(ca, set, a, &err);
    if (!c)
        fsc_cli_err("chart: %s", err.len ? err.data : fsc_strerror(FSC_E_NOMEM));
    else if (!fsc_chart_has_data(c)) {
        const char *what = ca->type == TYPE_TIMESERIES ? "a log of that kind (write_bw_log, write_iops_log, "
                                                         "write_lat_log) in its folder"
                           : ca->type == TYPE_PCTL_TIME || (ca->type == FSC_CHART_HEATMAP && !ca->x)
                               ? "a histogram log (write_hist_log) in its folder"
                           : ca->type == FSC_CHART_PCTL    ? "latency percentiles of that kind"
                           : ca->type == FSC_CHART_BUCKETS ? "latency buckets"
                                                           : NULL;
        /* only "a value of 'METRIC'" names the metric (the others have no --y: it printed "(null)") */
        fsc_cli_err("chart: nothing to draw, no file written: none of the %zu jobs in %zu runs has %s%s%s",
                    count_jobs(set), set->n_runs, what ? what : "a value of '", what ? "" : ca->y ? ca->y : "",
                    what ? "" : "'");
    }
    else {
        if (!ca->sized)
            fsc_chart_fit_size(c, &ca->width, &ca->height);
        const char *plain = NULL;
        fsc_status st = fsc_chart_render(c, (fsc_chart_format)ca->format, ca->width, ca->height, &out, &err);
        if (st != FSC_OK)
            fsc_cli_err("chart: %s", err.data ? err.data : "cannot draw");
        else if (fsc_chart_plain_text(&plain) && plain) /* drawn all the same: say what is plainer */
            fsc_cli_err("chart: %s; its text is drawn with cairo's simple text API (no font fallback)", plain);
        if (st == FSC_OK && (rc = write_file(ca, &out)) == FSC_EXIT_OK && strcmp(ca->output, "-"))
            fsc_cli_status(&ca->common, "fioscope: chart written to %s", ca->output);
    }
    fsc_chart_free(c);
    fsc_analysis_free(a);
    fsc_buf_free(&err);
    fsc_buf_free(&out);
    return rc;
}

int fsc_cmd_chart(int argc, char **argv)
{
    chart_args ca = {.common = {.input = {.progress = true}}, .output = NULL, .type = FSC_CHART_BAR,
                     .format = -1, .width = 1600, .height = 900};
    ca.paths = calloc((size_t)argc + 1, sizeof *ca.paths);
    if (!ca.paths)
        return FSC_EXIT_INPUT;
    static const char default_png[] = "chart.png";
    static char default_out[16];
    ca.output = default_png;
    int rc = parse_args(&ca, argc, argv);
    if (rc < 0 && ca.output == default_png && ca.format > 0) { /* --format svg: chart.svg */
        snprintf(default_out, sizeof default_out, "chart.%s", format_list[ca.format]);
        ca.output = default_out;
    }
    if (rc < 0)
        rc = fsc_cli_check_analysis("chart", &ca.common);
    if (rc >= 0) {
        fsc_cli_common_free(&ca.common);
        free(ca.paths);
        return rc;
    }
    fsc_runset set;
    fsc_manifest manifest = {0};
    fsc_runset_init(&set);
    int lrc = fsc_cli_load(&ca.common, ca.paths, ca.n_paths, &set, &manifest);
    rc = lrc < 0 ? FSC_EXIT_INPUT : draw(&ca, &set);
    if (rc == FSC_EXIT_OK)
        rc = lrc;
    fsc_chart_shutdown();
    fsc_runset_clear(&set);
    fsc_manifest_free(&manifest);
    fsc_cli_common_free(&ca.common);
    free(ca.paths);
    return rc;
}
