/* SPDX-License-Identifier: MIT */
/* `fioscope chart`: one PNG of any metric over another (or percentiles, buckets). */
#include "cli.h"
#include "fioscope/chart.h"
#include "fioscope/table.h"
#include "outfile.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char chart_help[] =
    "usage: fioscope chart [--x METRIC] --y METRIC [--type TYPE] [-o FILE.png] INPUT...\n"
    "\n"
    "Draws one chart of the fio runs found in the inputs. METRIC is a metric name of\n"
    "'fioscope table' (read.iops, write.clat_ns.p99, iops, bw, lat, cpu, bs, iodepth...).\n"
    "\n"
    "  --x METRIC          categories (bar) or x values (line, scatter); default: the\n"
    "                      row label\n"
    "  --y METRIC          the value drawn\n"
    "  --type TYPE         bar (default), line, scatter, pctl (latency percentile\n"
    "                      curves of the latency kind named by --y: slat, clat or lat;\n"
    "                      default clat) or buckets (fio's latency distribution)\n"
    "  -o, --output FILE   the PNG to write (default chart.png; '-' = standard output)\n"
    "      --size WxH      image size in pixels (default 1600x900)\n"
    "      --label-from=heading|file|job|context   how row labels are built\n"
    "  -j, --jobs N        parse with N threads\n"
    "  -q, --quiet         no diagnostics or progress on stderr\n";

typedef struct chart_args {
    fsc_cli_common common;
    const char *x, *y, *output;
    int type, width, height;
    const char **paths;
    size_t n_paths;
} chart_args;

static int parse_opt(chart_args *ca, int argc, char **argv, int *i)
{
    const char *a = argv[*i], *v;
    bool missing = false;
    if ((v = fsc_cli_opt_value(argc, argv, i, "--x", "-x", &missing)))
        ca->x = v;
    else if ((v = fsc_cli_opt_value(argc, argv, i, "--y", "-y", &missing)))
        ca->y = v;
    else if ((v = fsc_cli_opt_value(argc, argv, i, "--output", "-o", &missing)))
        ca->output = v;
    else if ((v = fsc_cli_opt_value(argc, argv, i, "--type", "-t", &missing))) {
        if ((ca->type = fsc_chart_type_from_name(v)) < 0)
            return fsc_cli_usage("chart", "--type takes bar, line, scatter, pctl or buckets, not '%s'", v);
    } else if ((v = fsc_cli_opt_value(argc, argv, i, "--size", NULL, &missing))) {
        if (!fsc_cli_parse_size(v, &ca->width, &ca->height))
            return fsc_cli_usage("chart", "--size takes WxH from 200x200 to 8000x8000, not '%s'", v);
    } else if (missing)
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

static int check_metric(const char *name)
{
    return fsc_cli_check_metric_list("chart", name) ? -1 : FSC_EXIT_USAGE;
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
            return FSC_EXIT_OK;
        } else {
            int rc = parse_opt(ca, argc, argv, &i);
            if (rc >= 0)
                return rc;
        }
    }
    if (!ca->n_paths)
        return fsc_cli_usage("chart", "no INPUT given (use '-' for standard input)");
    bool xy = ca->type != FSC_CHART_PCTL && ca->type != FSC_CHART_BUCKETS;
    if (xy && !ca->y)
        return fsc_cli_usage("chart", "--y METRIC is needed for a %s chart",
                             ca->type == FSC_CHART_BAR ? "bar" : "line or scatter");
    if (xy && ca->type != FSC_CHART_BAR && !ca->x)
        return fsc_cli_usage("chart", "--x METRIC is needed for a line or scatter chart");
    int rc = xy ? check_metric(ca->x) : -1;
    return rc < 0 && xy ? check_metric(ca->y) : rc;
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

static fsc_chart *make_chart(const chart_args *ca, const fsc_runset *set, fsc_buf *err)
{
    if (ca->type == FSC_CHART_PCTL)
        return fsc_chart_percentiles(set, latkind_of(ca->y), ca->common.label_from);
    if (ca->type == FSC_CHART_BUCKETS)
        return fsc_chart_buckets(set, ca->common.label_from);
    fsc_buf metrics = {0};
    fsc_buf_printf(&metrics, "%s,%s", ca->x ? ca->x : "label", ca->y);
    fsc_table_opts o = {.by = FSC_BY_JOB, .label_from = ca->common.label_from, .no_split = true};
    fsc_table *t = metrics.oom ? NULL : fsc_table_build_opts(set, metrics.data, &o, err);
    fsc_chart *c = t ? fsc_chart_xy(t, (fsc_chart_type)ca->type) : NULL;
    fsc_table_free(t);
    fsc_buf_free(&metrics);
    return c;
}

static int write_png(const chart_args *ca, const fsc_buf *png)
{
    fsc_buf err = {0};
    fsc_outfile *f = fsc_outfile_open(ca->output, &err);
    bool ok = f && fsc_outfile_write(f, png->data, png->len);
    if (f)
        ok = fsc_outfile_commit(f, ok, &err) && ok;
    if (!ok)
        fsc_cli_err("chart: %s", err.len ? err.data : "cannot write output");
    fsc_buf_free(&err);
    return ok ? FSC_EXIT_OK : FSC_EXIT_INPUT;
}

static int draw(const chart_args *ca, const fsc_runset *set)
{
    fsc_buf err = {0}, png = {0};
    fsc_chart *c = make_chart(ca, set, &err);
    int rc = FSC_EXIT_INPUT;
    if (!c)
        fsc_cli_err("chart: %s", err.len ? err.data : fsc_strerror(FSC_E_NOMEM));
    else if (!fsc_chart_has_data(c))
        fsc_cli_err("chart: no job of the inputs has a value to draw");
    else if (fsc_chart_png(c, ca->width, ca->height, &png, &err) != FSC_OK)
        fsc_cli_err("chart: %s", err.data ? err.data : "cannot draw");
    else if ((rc = write_png(ca, &png)) == FSC_EXIT_OK && strcmp(ca->output, "-"))
        fsc_cli_status(&ca->common, "fioscope: chart written to %s", ca->output);
    fsc_chart_free(c);
    fsc_buf_free(&err);
    fsc_buf_free(&png);
    return rc;
}

int fsc_cmd_chart(int argc, char **argv)
{
    chart_args ca = {.common = {.input = {.progress = true}}, .output = "chart.png",
                     .type = FSC_CHART_BAR, .width = 1600, .height = 900};
    ca.paths = calloc((size_t)argc + 1, sizeof *ca.paths);
    if (!ca.paths)
        return FSC_EXIT_INPUT;
    int rc = parse_args(&ca, argc, argv);
    if (rc >= 0) {
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
    free(ca.paths);
    return rc;
}
