/* SPDX-License-Identifier: MIT */
/* `fioscope report`: index.html, report.md, report.xlsx and charts in one folder. */
#include "cli.h"
#include "fioscope/chart.h"
#include "fioscope/report.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/stat.h>

static const char report_help[] =
    "usage: fioscope report [-o DIR] [--size WxH] [OPTIONS] [INPUT...]\n"
    "\n"
    "Writes DIR/index.html (one self-contained page), DIR/report.md, DIR/report.xlsx\n"
    "and DIR/charts/NAME.png from the fio runs found in the inputs (files, directories,\n"
    "archives, '-'). Without INPUT it reports on the fio outputs in samples/.\n"
    "\n"
    "  -o, --output DIR    the report folder (default: fioscope-report); it must be\n"
    "                      new, empty, or written by fioscope before\n"
    "      --size WxH      chart size in pixels (default 1600x900)\n"
    "      --label-from=heading|file|job|context   how row labels are built\n"
    "  -j, --jobs N        parse with N threads (default: number of cores)\n"
    "  -q, --quiet         no diagnostics or progress on stderr\n";

typedef struct report_args {
    fsc_cli_common common;
    const char *dir;
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
            return FSC_EXIT_OK;
        } else if ((v = fsc_cli_opt_value(argc, argv, &i, "--output", "-o", &missing))) {
            ra->dir = v;
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

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The files of samples/ here, else of the source tree this binary was built from,
 * without its README.md (which describes them and holds no run). Caller frees. */
static char **default_samples(size_t *n)
{
    struct stat st;
    const char *dir = stat("samples", &st) == 0 && S_ISDIR(st.st_mode) ? "samples" : FSC_SOURCE_DIR "/samples";
    char **names = NULL;
    size_t cap = 0;
    *n = 0;
    DIR *d = opendir(dir);
    struct dirent *e;
    while (d && (e = readdir(d))) {
        if (e->d_name[0] == '.' || !strcmp(e->d_name, "README.md"))
            continue;
        fsc_buf path = {0};
        fsc_buf_printf(&path, "%s/%s", dir, e->d_name);
        char **slot = path.oom ? NULL : FSC_PUSH(names, *n, cap);
        if (!slot) {
            fsc_buf_free(&path);
            break;
        }
        *slot = path.data;
    }
    if (d)
        closedir(d);
    if (*n)
        qsort(names, *n, sizeof *names, cmp_str);
    else {
        /* Let the input reader report the missing folder. */
        char **one = FSC_PUSH(names, *n, cap);
        if (one)
            *one = fsc_strdup(dir);
    }
    return names;
}

int fsc_cmd_report(int argc, char **argv)
{
    report_args ra = {.common = {.input = {.progress = true}}, .dir = "fioscope-report"};
    ra.paths = calloc((size_t)argc + 1, sizeof *ra.paths);
    if (!ra.paths)
        return FSC_EXIT_INPUT;
    int rc = parse_args(&ra, argc, argv);
    if (rc >= 0) {
        free(ra.paths);
        return rc;
    }
    size_t n_samples = 0;
    char **samples = NULL;
    if (!ra.n_paths) {
        samples = default_samples(&n_samples);
        free(ra.paths);
        ra.paths = (const char **)samples;
        ra.n_paths = n_samples;
    }
    fsc_runset set;
    fsc_manifest manifest = {0};
    fsc_runset_init(&set);
    int lrc = fsc_cli_load(&ra.common, ra.paths, ra.n_paths, &set, &manifest);
    fsc_report_opts o = {ra.dir, ra.common.label_from, ra.width, ra.height, &manifest};
    fsc_report_result res = {0};
    fsc_buf err = {0};
    fsc_status st = lrc < 0 ? FSC_E_NOMEM : fsc_report_write(&set, &o, &res, &err);
    if (st != FSC_OK) {
        fsc_cli_err("report: %s", err.len ? err.data : fsc_strerror(st));
        rc = FSC_EXIT_INPUT;
    } else {
        fsc_cli_status(&ra.common,
                       "fioscope: report written to %s/index.html (also report.md, report.xlsx "
                       "and %zu charts in %s/charts/)",
                       ra.dir, res.n_charts, ra.dir);
        rc = lrc;
    }
    fsc_chart_shutdown();
    fsc_buf_free(&err);
    fsc_runset_clear(&set);
    fsc_manifest_free(&manifest);
    for (size_t i = 0; i < n_samples; i++)
        free(samples[i]);
    if (!samples)
        free(ra.paths);
    free(samples);
    return rc;
}
