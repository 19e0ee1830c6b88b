/* SPDX-License-Identifier: MIT */
/* `fioscope report`: index.html, report.md, report.xlsx and charts in one folder. */
#include "cli.h"
#include "fioscope/chart.h"
#include "fioscope/report.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char report_help[] =
    "usage: fioscope report [-o DIR] [--size WxH] [--baseline SYSTEM] [OPTIONS] INPUT...\n"
    "\n"
    "Writes DIR/index.html (one self-contained page), DIR/report.md, DIR/report.xlsx\n"
    "and DIR/charts/NAME.png and NAME.svg from the fio runs found in the inputs (files,\n"
    "directories, archives, '-'). With two or more systems (see --system-from) it\n"
    "also holds the pivot (workload x system) and the comparison of the systems.\n"
    "Without cairo (charts) or libxlsxwriter (the workbook) the report is written\n"
    "without what needs them: one line on stderr names the library and its Debian\n"
    "package, the pages say what was left out, and the exit status is 1. Without\n"
    "pango the charts' text is plainer (cairo's own), with one line on stderr.\n"
    "\n"
    "  -o, --output DIR    the report folder (default: fioscope-report); it must be\n"
    "                      new, empty, or written by fioscope before\n"
    "      --size WxH      chart size in pixels (default 1600x900; charts with many\n"
    "                      panels grow taller)\n"
    "      --baseline S    the system the others are compared with (default: the\n"
    "                      first)\n";

typedef struct report_args {
    fsc_cli_common common;
    const char *dir, *baseline;
    int width, height;
    const char **paths;
    size_t n_paths;
} report_args;

/* "1600x900" → width, height; false if malformed. */
bool fsc_cli_parse_size(const char *s, int *w, int *h)
{
    char *end;
    long a = strtol(s, &end, 10);
    if (end == s || (*end != 'x' && *end != 'X'))
        return false;
    const char *b = end + 1;
    long c = strtol(b, &end, 10);
    if (end == b || *end || a < 200 || c < 200 || a > 8000 || c > 8000)
        return false;
    *w = (int)a;
    *h = (int)c;
    return true;
}

static int parse_args(report_args *ra, int argc, char **argv)
{
    bool opts_done = false;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v;
        bool missing = false;
        if (opts_done || a[0] != '-' || !strcmp(a, "-")) {
            ra->paths[ra->n_paths++] = a;
        } else if (!strcmp(a, "--")) {
            opts_done = true;
        } else if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            fputs(report_help, stdout);
            fputs(fsc_cli_common_help, stdout);
            return FSC_EXIT_OK;
        } else if ((v = fsc_cli_opt_value(argc, argv, &i, "--output", "-o", &missing))) {
            ra->dir = v;
        } else if ((v = fsc_cli_opt_value(argc, argv, &i, "--baseline", NULL, &missing))) {
            ra->baseline = v;
        } else if ((v = fsc_cli_opt_value(argc, argv, &i, "--size", NULL, &missing))) {
            if (!fsc_cli_parse_size(v, &ra->width, &ra->height))
                return fsc_cli_usage("report", "--size takes WxH from 200x200 to 8000x8000, not '%s'", v);
        } else if (missing) {
            return fsc_cli_usage("report", "%s needs a value", a);
        } else {
            int r = fsc_cli_common_opt(&ra->common, argc, argv, &i);
            if (r < 0)
                return fsc_cli_usage("report", "bad value for %s", a);
            if (r == 0)
                return fsc_cli_unknown_option("report", a, report_help, fsc_cli_common_help, NULL);
        }
    }
    return -1;
}

int fsc_cmd_report(int argc, char **argv)
{
    report_args ra = {.common = {.input = {.progress = true}}, .dir = "fioscope-report"};
    ra.paths = calloc((size_t)argc + 1, sizeof *ra.paths);
    if (!ra.paths)
        return FSC_EXIT_INPUT;
    int rc = parse_args(&ra, argc, argv);
    if (rc >= 0) {
        fsc_cli_common_free(&ra.common);
        free(ra.paths);
        return rc;
    }
    if (!ra.n_paths)
        rc = fsc_cli_usage("report", "no INPUT given: name the fio outputs to report on (files, folders, "
                                     "archives, '-'); 'make demo' reports on samples/");
    else
        rc = fsc_cli_check_analysis("report", &ra.common);
    if (rc >= 0) {
        fsc_cli_common_free(&ra.common);
        free(ra.paths);
        return rc;
    }
    fsc_runset set;
    fsc_manifest manifest = {0};
    fsc_runset_init(&set);
    int lrc = fsc_cli_load(&ra.common, ra.paths, ra.n_paths, &set, &manifest);
    fsc_report_opts o = {.dir = ra.dir,
                         .label_from = ra.common.label_from,
                         .chart_width = ra.width,
                         .chart_height = ra.height,
                         .manifest = &manifest,
                         .system_from = fsc_cli_analysis_opts(&ra.common, ra.paths, ra.n_paths).system_from,
                         .workload_key = ra.common.workload_key,
                         .where = ra.common.where,
                         .n_where = ra.common.n_where,
                         .inputs = ra.paths,
                         .n_inputs = ra.n_paths,
                         .baseline = ra.baseline};
    fsc_report_result res = {0};
    fsc_buf err = {0};
    fsc_status st = lrc < 0 ? FSC_E_NOMEM : fsc_report_write(&set, &o, &res, &err);
    if (st == FSC_E_RANGE) { /* --baseline names no system */
        rc = fsc_cli_usage("report", "%s", err.len ? err.data : fsc_strerror(st));
    } else if (st != FSC_OK) {
        fsc_cli_err("report: %s", err.len ? err.data : fsc_strerror(st));
        rc = FSC_EXIT_INPUT;
    } else {
        /* A library that cannot be loaded leaves out what needs it; the rest of the
         * report is written. One line per library, also under -q (it explains the
         * exit status, as an error would), and exit 1: an output asked for could not
         * be written, as the man page has it. */
        if (res.charts_missing)
            fsc_cli_err("report: %s; the report is written without charts", res.charts_missing);
        if (res.charts_plain) /* the charts are there: exit status as usual */
            fsc_cli_err("report: %s; the charts' text is drawn with cairo's simple text API (no font fallback)",
                        res.charts_plain);
        if (res.workbook_missing)
            fsc_cli_err("report: %s; the report is written without report.xlsx", res.workbook_missing);
        fsc_cli_status(&ra.common,
                       "fioscope: report written to %s/index.html (also report.md%s and %zu charts in "
                       "%s/charts/; %zu system%s)",
                       ra.dir, res.workbook_missing ? "" : ", report.xlsx", res.n_charts, ra.dir, res.n_systems,
                       res.n_systems == 1 ? "" : "s");
        rc = res.charts_missing || res.workbook_missing ? FSC_EXIT_INPUT : lrc;
    }
    fsc_chart_shutdown();
    fsc_buf_free(&err);
    fsc_runset_clear(&set);
    fsc_manifest_free(&manifest);
    fsc_cli_common_free(&ra.common);
    free(ra.paths);
    return rc;
}
