/* SPDX-License-Identifier: MIT */
/* `fioscope compare BASE... -- NEW... [-- NEW2...]` or `compare --by system INPUT...`:
 * change per metric against the baseline side, rows paired by a match key. */
#include "cli.h"
#include "fioscope/compare.h"
#include "outfile.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char compare_help[] =
    "usage: fioscope compare [OPTIONS] BASE... -- NEW... [-- NEW2...]\n"
    "       fioscope compare --by system [--baseline S] [OPTIONS] INPUT...\n"
    "\n"
    "Compares two or more sides: the inputs between '--' (each side named by the\n"
    "part of its paths that differs), or with --by system the systems of one set\n"
    "of inputs (see --system-from). Rows are paired by a match key; per metric the\n"
    "median of each side and its change against the baseline side are shown. With\n"
    "repeats (several runs of a row on a side) the spread (± largest distance from\n"
    "the median) and a two-sided Mann-Whitney U test are shown; '~' marks a change\n"
    "without a verdict: not significant, or too few runs for the test to tell\n"
    "(n=1 on a side; at alpha 0.05 at least 4+4 runs). When nothing pairs, the\n"
    "--match that would pair the most rows is named and the exit status is 1.\n"
    "\n"
    "  -m, --metrics LIST  comma list (default iops,bw,lat,clat.p99,cpu;\n"
    "                      'fioscope metrics' lists the names)\n"
    "      --match RULE    auto (default): label, workload or jobname, whichever pairs\n"
    "                      the most rows; label: the label without the system's\n"
    "                      part; workload: the workload key; jobname; a list of\n"
    "                      fields (rw,bs,iodepth); anything else is a regex applied\n"
    "                      to the label whose first group (or whole match) is the key\n"
    "      --by system     compare the systems of one set of inputs\n"
    "      --baseline S    the side or system the others are compared with\n"
    "                      (default: the first)\n"
    "  -f, --format FMT    text (default), md, csv, tsv, json\n"
    "      --color WHEN    auto (default: on a terminal), always, never: green\n"
    "                      better, red worse (higher IOPS/bandwidth, lower latency)\n"
    "      --alpha A       significance level (default 0.05)\n"
    "      --no-split      mixed read/write jobs as one total row\n"
    "      --fail-on=regression:PCT   exit 1 when a metric of a paired row got worse\n"
    "                      by more than PCT percent on any side against the baseline\n"
    "                      (lower IOPS/bandwidth, higher latency/cpu; a change the\n"
    "                      test calls not significant does not count); each one is\n"
    "                      named on stderr. Combines with the input policy:\n"
    "                      --fail-on=error,regression:5\n"
    "  -o, --output FILE   write to FILE instead of standard output\n"
    "\n"
    "Common options:\n";

typedef struct compare_args {
    fsc_cli_common common;
    fsc_compare_opts copts;
    const char *format, *output, *color;
    const char **all_paths;   /* every INPUT, in order */
    size_t n_all;
    size_t *side_first;       /* per side: its first path in all_paths */
    size_t *side_n;
    size_t n_sides;
    bool by_system;
    double fail_pct; /* --fail-on=regression:PCT; < 0: not asked */
} compare_args;

/* "regression:PCT" items of a --fail-on list: the percentage into *pct, the other
 * items (the input policy) into rest. False when an item is malformed. */
static bool split_fail_on(const char *v, double *pct, fsc_buf *rest)
{
    const char *item;
    size_t l;
    while (fsc_list_next(&v, &item, &l)) {
        if (l > 11 && !strncmp(item, "regression:", 11)) {
            char num[32], *end;
            snprintf(num, sizeof num, "%.*s", (int)(l - 11 < 31 ? l - 11 : 31), item + 11);
            *pct = strtod(num, &end);
            if (end == num || *end || !(*pct >= 0) || l - 11 > 31)
                return false;
        } else {
            fsc_buf_printf(rest, "%s%.*s", rest->len ? "," : "", (int)l, item);
        }
    }
    return true;
}

/* --fail-on=LIST for compare: regression:PCT here, the rest as every command takes
 * it. 1 consumed, or an exit status + 10. */
static int fail_on_opt(compare_args *ca, const char *v)
{
    fsc_buf rest = {0};
    bool ok = split_fail_on(v, &ca->fail_pct, &rest);
    if (ok && rest.len) {
        char opt[] = "--fail-on";
        char *fargv[] = {opt, rest.data, NULL};
        int k = 0;
        ok = fsc_cli_common_opt(&ca->common, 2, fargv, &k) == 1;
    }
    fsc_buf_free(&rest);
    if (!ok)
        return 10 + fsc_cli_usage("compare", "--fail-on takes regression:PCT (a percentage, e.g. "
                                             "regression:5) and/or error, no-runs, warning, none");
    return 1;
}

static bool one_of(const char *v, const char *const *list, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!strcmp(v, list[i]))
            return true;
    return false;
}

/* One option at argv[*i]: 1 consumed, 0 not an option of ours, or an exit status + 10. */
static int compare_opt(compare_args *ca, int argc, char **argv, int *i)
{
    static const char *const formats[] = {"text", "md", "csv", "tsv", "json"};
    static const char *const colors[] = {"auto", "always", "never"};
    const char *a = argv[*i], *v;
    bool missing = false;
    if (!strcmp(a, "--no-split")) {
        ca->copts.no_split = true;
    } else if ((v = fsc_cli_opt_value(argc, argv, i, "--metrics", "-m", &missing))) {
        ca->copts.metrics = v;
    } else if ((v = fsc_cli_opt_value(argc, argv, i, "--match", NULL, &missing))) {
        ca->copts.match = v;
    } else if ((v = fsc_cli_opt_value(argc, argv, i, "--by", NULL, &missing))) {
        if (strcmp(v, "system"))
            return 10 + fsc_cli_usage("compare", "--by takes 'system', not '%s'", v);
        ca->by_system = true;
        ca->copts.by = "system";
    } else if ((v = fsc_cli_opt_value(argc, argv, i, "--baseline", NULL, &missing))) {
        ca->copts.baseline = v;
    } else if ((v = fsc_cli_opt_value(argc, argv, i, "--format", "-f", &missing))) {
        if (!one_of(v, formats, FSC_ARRAY_SIZE(formats)))
            return 10 + fsc_cli_usage("compare", "unknown format '%s'", v);
        ca->format = v;
    } else if ((v = fsc_cli_opt_value(argc, argv, i, "--color", NULL, &missing)) ||
               (v = fsc_cli_opt_value(argc, argv, i, "--colour", NULL, &missing))) {
        if (!one_of(v, colors, FSC_ARRAY_SIZE(colors)))
            return 10 + fsc_cli_usage("compare", "--color takes auto, always or never");
        ca->color = v;
    } else if ((v = fsc_cli_opt_value(argc, argv, i, "--alpha", NULL, &missing))) {
        char *end;
        double x = strtod(v, &end);
        if (*end || !(x > 0 && x < 1))
            return 10 + fsc_cli_usage("compare", "--alpha takes a number between 0 and 1");
        ca->copts.alpha = x;
    } else if ((v = fsc_cli_opt_value(argc, argv, i, "--output", "-o", &missing))) {
        ca->output = v;
    } else if ((v = fsc_cli_opt_value(argc, argv, i, "--fail-on", NULL, &missing))) {
        return fail_on_opt(ca, v);
    } else if (missing) {
        return 10 + fsc_cli_usage("compare", "%s needs a value", a);
    } else {
        int r = fsc_cli_common_opt(&ca->common, argc, argv, i);
        if (r < 0)
            return 10 + fsc_cli_usage("compare", "bad value for %s", a);
        return r;
    }
    return 1;
}

/* Returns -1 when parsing went fine, else the exit status to return. */
static int parse_args(compare_args *ca, int argc, char **argv)
{
    ca->n_sides = 1;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (a[0] != '-' || !strcmp(a, "-")) {
            ca->all_paths[ca->n_all++] = a;
            ca->side_n[ca->n_sides - 1]++;
        } else if (!strcmp(a, "--")) {
            if (!ca->side_n[ca->n_sides - 1])
                return fsc_cli_usage("compare", "a side between '--' has no INPUT");
            ca->side_first[ca->n_sides++] = ca->n_all;
        } else if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            fputs(compare_help, stdout);
            fputs(fsc_cli_common_help, stdout);
            return FSC_EXIT_OK;
        } else {
            int r = compare_opt(ca, argc, argv, &i);
            if (r >= 10)
                return r - 10;
            if (r == 0)
                return fsc_cli_unknown_option("compare", a, compare_help, fsc_cli_common_help, NULL);
        }
    }
    if (ca->by_system && ca->n_sides > 1)
        return fsc_cli_usage("compare", "--by system compares the systems of one set of inputs: "
                                        "leave out '--'");
    if (!ca->n_all || !ca->side_n[ca->n_sides - 1])
        return fsc_cli_usage("compare", "give BASE inputs, then '--', then NEW inputs "
                                        "(or --by system with INPUT...)");
    if (!ca->by_system && ca->n_sides < 2)
        return fsc_cli_usage("compare", "give BASE inputs, then '--', then NEW inputs "
                                        "(or --by system with INPUT...)");
    return -1;
}

static bool use_color(const compare_args *ca)
{
    if (!strcmp(ca->color, "always"))
        return true;
    if (!strcmp(ca->color, "never") || strcmp(ca->format, "text"))
        return false;
    if (ca->output && strcmp(ca->output, "-"))
        return false;
    const char *term = getenv("TERM");
    return isatty(STDOUT_FILENO) && !getenv("NO_COLOR") && !(term && !strcmp(term, "dumb"));
}

static int write_output(const compare_args *ca, const fsc_buf *out)
{
    fsc_buf oerr = {0};
    fsc_outfile *f = fsc_outfile_open(ca->output, &oerr);
    bool ok = f && fsc_outfile_write(f, out->data ? out->data : "", out->len);
    if (f)
        ok = fsc_outfile_commit(f, ok, &oerr) && ok;
    if (!ok)
        fsc_cli_err("%s", oerr.len ? oerr.data : "cannot write output");
    fsc_buf_free(&oerr);
    return ok ? FSC_EXIT_OK : FSC_EXIT_INPUT;
}

/* --fail-on=regression:PCT: every metric of a paired row that got worse by more than
 * PCT percent on a side against the baseline, named on stderr; 1 if any. A change
 * the U test could judge and found not significant does not count; single runs (or
 * too few for the test) count by their medians. */
static int regressions(const compare_args *ca, const fsc_comparison *c)
{
    size_t n = 0;
    for (size_t r = 0; r < c->n_rows; r++)
        for (size_t k = 0; k < c->n_cols; k++)
            for (size_t s = 0; s < c->n_sides; s++) {
                const fsc_cmp_cell *x = &c->rows[r].by_side[k * c->n_sides + s];
                if (s == c->baseline || !x->present || x->delta_pct != x->delta_pct ||
                    (x->decided && !x->significant))
                    continue;
                double worse = c->cols[k].higher_better ? -x->delta_pct : x->delta_pct;
                if (!(worse > ca->fail_pct))
                    continue;
                if (!ca->common.quiet && n < FSC_CLI_MAX_DIAG)
                    fsc_cli_err("compare: regression: %s: %s%s%s %+.1f%% (over %g%%)",
                                c->rows[r].label, c->n_sides > 2 ? c->sides[s] : "",
                                c->n_sides > 2 ? ": " : "", c->cols[k].name, x->delta_pct,
                                ca->fail_pct);
                n++;
            }
    if (n && !ca->common.quiet)
        fsc_cli_err("compare: %zu metric%s got worse by more than %g%%", n, n == 1 ? "" : "s",
                    ca->fail_pct);
    return n ? FSC_EXIT_INPUT : FSC_EXIT_OK;
}

static int run_compare(compare_args *ca, const fsc_runset *sets)
{
    fsc_buf err = {0}, out = {0};
    fsc_status st;
    int rc;
    fsc_analysis_opts ao = fsc_cli_analysis_opts(&ca->common, ca->all_paths, ca->n_all);
    ca->copts.label_from = ca->common.label_from;
    ca->copts.analysis = &ao;
    const fsc_runset **ptrs = calloc(ca->n_sides, sizeof *ptrs);
    fsc_analysis *a = NULL;
    if (!ptrs) {
        fsc_cli_err("compare: %s", fsc_strerror(FSC_E_NOMEM));
        return FSC_EXIT_INPUT;
    }
    for (size_t s = 0; s < ca->n_sides; s++)
        ptrs[s] = &sets[s];
    ao.label_from = ca->common.label_from;
    a = ca->by_system ? fsc_analysis_new(&sets[0], &ao, &err, &st)
                      : fsc_analysis_new_sides(ptrs, NULL, ca->n_sides, &ao, &err, &st);
    fsc_comparison *cmp = a ? fsc_compare_analysis(a, &ca->copts, &err, &st) : NULL;
    if (a)
        fsc_cli_print_notes(&ca->common, a);
    if (!cmp) {
        if (st == FSC_E_USAGE)
            fsc_cli_err("compare: %s (see 'fioscope compare --help')", err.data);
        else
            fsc_cli_err("compare: %s", err.len ? err.data : fsc_strerror(st));
        rc = st == FSC_E_USAGE ? FSC_EXIT_USAGE : FSC_EXIT_INPUT;
    } else if (fsc_compare_render(cmp, ca->format, use_color(ca), &out) != FSC_OK) {
        fsc_cli_err("compare: %s", fsc_strerror(FSC_E_NOMEM));
        rc = FSC_EXIT_INPUT;
    } else {
        rc = write_output(ca, &out);
        if (rc == FSC_EXIT_OK && ca->fail_pct >= 0)
            rc = regressions(ca, cmp);
    }
    fsc_comparison_free(cmp);
    fsc_analysis_free(a);
    free(ptrs);
    fsc_buf_free(&err);
    fsc_buf_free(&out);
    return rc;
}

/* Check metrics, --match and the analysis options before reading any input, so a typo
 * costs nothing. */
static int precheck(compare_args *ca)
{
    int rc = fsc_cli_check_analysis("compare", &ca->common);
    if (rc >= 0)
        return rc;
    return fsc_cli_check_metric_list("compare", ca->copts.metrics) ? -1 : FSC_EXIT_USAGE;
}

int fsc_cmd_compare(int argc, char **argv)
{
    compare_args ca = {.common = {.input = {.progress = true}, .keep_all_rows = true},
                       .format = "text", .color = "auto", .fail_pct = -1};
    size_t n = (size_t)argc + 1;
    ca.all_paths = calloc(n, sizeof *ca.all_paths);
    ca.side_first = calloc(n, sizeof *ca.side_first);
    ca.side_n = calloc(n, sizeof *ca.side_n);
    int rc = ca.all_paths && ca.side_first && ca.side_n ? parse_args(&ca, argc, argv) : FSC_EXIT_INPUT;
    if (rc < 0)
        rc = precheck(&ca);
    if (rc < 0) {
        fsc_runset *sets = calloc(ca.n_sides, sizeof *sets);
        fsc_manifest *man = calloc(ca.n_sides, sizeof *man);
        int lrc = FSC_EXIT_OK;
        for (size_t s = 0; sets && man && s < ca.n_sides; s++) {
            fsc_runset_init(&sets[s]);
            int r = fsc_cli_load(&ca.common, ca.all_paths + ca.side_first[s], ca.side_n[s], &sets[s], &man[s]);
            if (r != FSC_EXIT_OK)
                lrc = FSC_EXIT_INPUT;
        }
        rc = sets && man ? run_compare(&ca, sets) : FSC_EXIT_INPUT;
        if (rc == FSC_EXIT_OK)
            rc = lrc;
        for (size_t s = 0; sets && man && s < ca.n_sides; s++) {
            fsc_runset_clear(&sets[s]);
            fsc_manifest_free(&man[s]);
        }
        free(sets);
        free(man);
    }
    fsc_cli_common_free(&ca.common);
    free(ca.all_paths);
    free(ca.side_first);
    free(ca.side_n);
    return rc;
}
