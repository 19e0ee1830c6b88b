/* SPDX-License-Identifier: MIT */
/* `fioscope table`: one row per job (or group / label / run) with chosen metrics. */
#include "cli.h"
#include "fioscope/table.h"
#include "outfile.h"

#include <stdlib.h>
#include <string.h>

static const char table_help[] =
    "usage: fioscope table [--metrics LIST] [--by job|group|label|run]\n"
    "                      [--format text|md|csv|tsv|html|json] [OPTIONS] INPUT...\n"
    "       fioscope table --pivot [DIM] [--baseline V] [-m METRIC,...] INPUT...\n"
    "\n"
    "One row per job (default) or per group / label / run, one column per metric.\n"
    "Numbers are in human units for text, md and html, in base units (bytes,\n"
    "bytes/s, ns, ms, %) for csv, tsv and json.\n"
    "\n"
    "  -m, --metrics LIST  comma list of metrics (default:\n"
    "                      label,dir,rw,bs,iodepth,jobs,iops,bw,lat,clat.p99,cpu)\n"
    "      --by KEY        job (default), group, label or run; numbers of several\n"
    "                      jobs of a run are summed (latencies I/O-weighted),\n"
    "                      numbers of several runs averaged\n"
    "  -f, --format FMT    text (default), md, csv, tsv, html, json\n"
    "      --no-split      one row per mixed read/write job instead of read, write\n"
    "                      and total rows\n"
    "      --pivot [DIM]   one row per workload and dir, one column per value of DIM\n"
    "                      (default system) in order of first appearance, each cell\n"
    "                      the median over runs of the metric (one table per metric;\n"
    "                      default iops)\n"
    "      --baseline V    with --pivot: each column's change against column V, in %\n"
    "  -o, --output FILE   write to FILE instead of standard output\n"
    "\n"
    "Metrics: JSON paths of the model (read.iops, write.bw_bytes, read.lat_ns.mean,\n"
    "read.clat_ns.p99, read.bw_mean, usr_cpu, sys_cpu, ctx), cpu (usr+sys),\n"
    "direction-agnostic iops, bw, io_bytes (summed over read+write+trim) and lat,\n"
    "clat, slat [.mean|.min|.max|.stddev|.pNN] (I/O-weighted), and the text\n"
    "columns label, dir, rw, bs, ioengine, iodepth, jobs, jobname, fio_version,\n"
    "file, run and the dimensions system, numjobs, direct, workload, heading, host,\n"
    "repeat. 'fioscope metrics' lists every name with its unit and meaning.\n"
    "\n"
    "Common options:\n";

static const char html_head[] =
    "<!DOCTYPE html>\n<html>\n<head>\n<meta charset=\"utf-8\">\n<title>fioscope table</title>\n"
    "<style>table{border-collapse:collapse;font-family:sans-serif}"
    "th,td{padding:2px 8px;border-bottom:1px solid #ddd}.num{text-align:right}"
    "tr.total{font-weight:bold}.fsc-pivot{margin-bottom:1.5em}"
    "caption{text-align:left;font-weight:bold;padding:4px 8px}</style>\n</head>\n<body>\n";

static bool parse_by(const char *v, fsc_by *by)
{
    static const struct {
        const char *name;
        fsc_by by;
    } tab[] = {{"job", FSC_BY_JOB}, {"group", FSC_BY_GROUP}, {"label", FSC_BY_LABEL}, {"run", FSC_BY_RUN}};
    for (size_t i = 0; i < FSC_ARRAY_SIZE(tab); i++)
        if (!strcmp(v, tab[i].name)) {
            *by = tab[i].by;
            return true;
        }
    return false;
}

static bool known_format(const char *f)
{
    static const char *const formats[] = {"text", "md", "csv", "tsv", "html", "json"};
    for (size_t i = 0; i < FSC_ARRAY_SIZE(formats); i++)
        if (!strcmp(f, formats[i]))
            return true;
    return false;
}

typedef struct table_args {
    fsc_cli_common common;
    fsc_table_opts topts;
    bool pivot;
    int pivot_dim;
    const char *baseline;
    const char *metrics, *format, *output;
    const char **paths;
    size_t n_paths;
} table_args;

/* Returns -1 when parsing went fine, else the exit status to return. */
static int parse_args(table_args *ta, int argc, char **argv)
{
    bool opts_done = false;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v;
        bool missing = false;
        if (opts_done || a[0] != '-' || !strcmp(a, "-")) {
            ta->paths[ta->n_paths++] = a;
        } else if (!strcmp(a, "--")) {
            opts_done = true;
        } else if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            fputs(table_help, stdout);
            fputs(fsc_cli_common_help, stdout);
            return FSC_EXIT_OK;
        } else if (!strcmp(a, "--pivot") || !strncmp(a, "--pivot=", 8)) {
            const char *dim = a[7] == '=' ? a + 8 : NULL;
            /* "--pivot DIM": the next word when it names a dimension */
            if (!dim && i + 1 < argc && fsc_dim_lookup(argv[i + 1], strlen(argv[i + 1])) >= 0)
                dim = argv[++i];
            ta->pivot = true;
            ta->pivot_dim = dim ? fsc_dim_lookup(dim, strlen(dim)) : FSC_DIM_SYSTEM;
            if (ta->pivot_dim < 0) {
                const char *names[FSC_DIM_COUNT];
                for (int d = 0; d < FSC_DIM_COUNT; d++)
                    names[d] = fsc_dim_get((fsc_dim)d)->name;
                const char *near = fsc_nearest(dim, names, FSC_DIM_COUNT, 0);
                return fsc_cli_usage("table", "unknown field '%s' in --pivot%s%s%s", dim,
                                     near ? " (did you mean '" : "", near ? near : "", near ? "'?)" : "");
            }
        } else if ((v = fsc_cli_opt_value(argc, argv, &i, "--baseline", NULL, &missing))) {
            ta->baseline = v;
        } else if (!strcmp(a, "--no-split")) {
            ta->topts.no_split = true;
        } else if ((v = fsc_cli_opt_value(argc, argv, &i, "--metrics", "-m", &missing))) {
            ta->metrics = v;
        } else if ((v = fsc_cli_opt_value(argc, argv, &i, "--format", "-f", &missing))) {
            if (!known_format(v))
                return fsc_cli_usage("table", "unknown format '%s'", v);
            ta->format = v;
        } else if ((v = fsc_cli_opt_value(argc, argv, &i, "--by", NULL, &missing))) {
            if (!parse_by(v, &ta->topts.by))
                return fsc_cli_usage("table", "--by takes job, group, label or run, not '%s'", v);
        } else if ((v = fsc_cli_opt_value(argc, argv, &i, "--output", "-o", &missing))) {
            ta->output = v;
        } else if (missing) {
            return fsc_cli_usage("table", "%s needs a value", a);
        } else {
            int r = fsc_cli_common_opt(&ta->common, argc, argv, &i);
            if (r < 0)
                return fsc_cli_usage("table", "bad value for %s", a);
            if (r == 0)
                return fsc_cli_unknown_option("table", a, table_help, fsc_cli_common_help, NULL);
        }
    }
    if (!ta->n_paths)
        return fsc_cli_usage("table", "no INPUT given (use '-' for standard input)");
    if (ta->baseline && !ta->pivot)
        return fsc_cli_usage("table", "--baseline goes with --pivot");
    return -1;
}

/* Check the metric list before reading any input, so a typo costs nothing. */
static int check_metrics(const char *metrics)
{
    if (!fsc_cli_check_metric_list("table", metrics))
        return FSC_EXIT_USAGE;
    fsc_runset empty;
    fsc_buf err = {0};
    fsc_runset_init(&empty);
    fsc_table *t = fsc_table_build(&empty, metrics, FSC_BY_JOB, FSC_LABEL_HEADING, &err);
    int rc = -1;
    if (!t) {
        fsc_cli_err("table: %s (see 'fioscope table --help')",
                    err.data ? err.data : "bad metric list");
        rc = FSC_EXIT_USAGE;
    }
    fsc_table_free(t);
    fsc_buf_free(&err);
    return rc;
}

static int write_out(const table_args *ta, fsc_buf *out)
{
    fsc_buf oerr = {0};
    fsc_outfile *f = fsc_outfile_open(ta->output, &oerr);
    bool ok = f && fsc_outfile_write(f, out->data ? out->data : "", out->len);
    if (f)
        ok = fsc_outfile_commit(f, ok, &oerr) && ok;
    if (!ok)
        fsc_cli_err("%s", oerr.len ? oerr.data : "cannot write output");
    fsc_buf_free(&oerr);
    return ok ? FSC_EXIT_OK : FSC_EXIT_INPUT;
}

/* --pivot: one pivot per metric of the list (text metrics are row keys already). */
static int write_pivot(const table_args *ta, const fsc_analysis *a, fsc_buf *out)
{
    fsc_pivot **ps = NULL;
    size_t n = 0, cap = 0;
    int rc = FSC_EXIT_OK;
    fsc_buf err = {0};
    fsc_pivot_opts po = {.col = (fsc_dim)ta->pivot_dim, .baseline = ta->baseline};
    const char *p = ta->metrics ? ta->metrics : "iops", *s;
    size_t len;
    while (rc == FSC_EXIT_OK && fsc_list_next(&p, &s, &len)) {
        fsc_mspec m;
        if (!len || !fsc_mspec_parse(s, len, &m) || m.m.text)
            continue;
        fsc_status st;
        fsc_pivot *pv = fsc_pivot_build(a, &m, &po, &err, &st);
        fsc_pivot **slot = pv ? FSC_PUSH(ps, n, cap) : NULL;
        if (slot) {
            *slot = pv;
            continue;
        }
        fsc_pivot_free(pv);
        fsc_cli_err("table: %s", err.len ? err.data : fsc_strerror(st));
        rc = st == FSC_E_USAGE ? FSC_EXIT_USAGE : FSC_EXIT_INPUT;
    }
    if (rc == FSC_EXIT_OK && !n) {
        fsc_cli_err("table: --pivot needs a numeric metric (-m iops, bw, lat ...)");
        rc = FSC_EXIT_USAGE;
    }
    if (rc == FSC_EXIT_OK && fsc_pivot_render((const fsc_pivot *const *)ps, n, ta->format, out) != FSC_OK) {
        fsc_cli_err("table: %s", fsc_strerror(FSC_E_NOMEM));
        rc = FSC_EXIT_INPUT;
    }
    for (size_t i = 0; i < n; i++)
        fsc_pivot_free(ps[i]);
    free(ps);
    fsc_buf_free(&err);
    return rc;
}

static int write_table(const table_args *ta, const fsc_runset *set)
{
    fsc_buf err = {0}, out = {0};
    int rc = FSC_EXIT_OK;
    fsc_analysis *a = fsc_cli_analyze("table", &ta->common, set, ta->paths, ta->n_paths, &rc);
    if (!a)
        return rc;
    bool html = !strcmp(ta->format, "html");
    if (html) /* a whole page, so a browser knows the labels are UTF-8 */
        fsc_buf_puts(&out, html_head);
    fsc_table *t = NULL;
    if (ta->pivot) {
        rc = write_pivot(ta, a, &out);
    } else {
        fsc_table_opts o = ta->topts;
        o.label_from = ta->common.label_from;
        o.analysis = a;
        t = fsc_table_build_opts(set, ta->metrics, &o, &err);
        if (!t || fsc_table_render(t, ta->format, &out) != FSC_OK) {
            fsc_cli_err("table: %s", err.len ? err.data : fsc_strerror(FSC_E_NOMEM));
            rc = FSC_EXIT_INPUT;
        }
    }
    if (rc == FSC_EXIT_OK) {
        if (html)
            fsc_buf_puts(&out, "</body>\n</html>\n");
        rc = write_out(ta, &out);
    }
    fsc_table_free(t);
    fsc_analysis_free(a);
    fsc_buf_free(&err);
    fsc_buf_free(&out);
    return rc;
}

int fsc_cmd_table(int argc, char **argv)
{
    table_args ta = {.common = {.input = {.progress = true}, .keep_all_rows = true}, .format = "text"};
    ta.paths = calloc((size_t)argc + 1, sizeof *ta.paths);
    if (!ta.paths)
        return FSC_EXIT_INPUT;
    int rc = parse_args(&ta, argc, argv);
    if (rc < 0)
        rc = check_metrics(ta.metrics);
    if (rc < 0)
        rc = fsc_cli_check_analysis("table", &ta.common);
    if (rc >= 0) {
        fsc_cli_common_free(&ta.common);
        free(ta.paths);
        return rc;
    }
    fsc_runset set;
    fsc_manifest manifest = {0};
    fsc_runset_init(&set);
    int lrc = fsc_cli_load(&ta.common, ta.paths, ta.n_paths, &set, &manifest);
    rc = write_table(&ta, &set);
    if (rc == FSC_EXIT_OK)
        rc = lrc < 0 ? FSC_EXIT_INPUT : lrc;
    fsc_runset_clear(&set);
    fsc_manifest_free(&manifest);
    fsc_cli_common_free(&ta.common);
    free(ta.paths);
    return rc;
}
