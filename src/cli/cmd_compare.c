/* SPDX-License-Identifier: MIT */
/* `fioscope compare BASE... -- NEW...`: change per metric, matched by label. */
#include "cli.h"
#include "fioscope/compare.h"
#include "outfile.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char compare_help[] =
    "usage: fioscope compare [OPTIONS] BASE... -- NEW...\n"
    "\n"
    "Compares the runs of BASE with those of NEW: rows are matched by label, and per\n"
    "metric the median of each side, the absolute and relative change are shown.\n"
    "When a label has several runs on a side (repeats), the spread (± largest\n"
    "distance from the median) and a two-sided Mann-Whitney U test are shown; '~'\n"
    "marks a change that is not significant at alpha 0.05 (or too few runs).\n"
    "\n"
    "  -m, --metrics LIST  comma list (default iops,bw,lat,clat.p99,cpu;\n"
    "                      'fioscope metrics' lists the names)\n"
    "      --match RULE    label (default): the whole label; jobname: the job name\n"
    "                      only; anything else is a regex applied to the label whose\n"
    "                      first group (or whole match) is the key. One label on\n"
    "                      each side always pairs, whatever the names\n"
    "  -f, --format FMT    text (default), md, csv, tsv, json\n"
    "      --color WHEN    auto (default: on a terminal), always, never: green\n"
    "                      better, red worse (higher IOPS/bandwidth, lower latency)\n"
    "      --alpha A       significance level (default 0.05)\n"
    "      --no-split      mixed read/write jobs as one total row\n"
    "      --fail-on=regression:PCT   exit 1 when a metric of a matched row got\n"
    "                      worse by more than PCT percent (lower IOPS/bandwidth,\n"
    "                      higher latency; with repeats only a significant change\n"
    "                      counts); each one is named on stderr. May be combined\n"
    "                      with the input policy: --fail-on=error,regression:5\n"
    "  -o, --output FILE   write to FILE instead of standard output\n"
    "      --label-from=heading|file|job|context   how labels are built\n"
    "  -j, --jobs N        parse with N threads\n"
    "  -q, --quiet         no diagnostics on stderr\n";

typedef struct compare_args {
    fsc_cli_common common;
    fsc_compare_opts copts;
    const char *format, *output, *color;
    const char **paths[2];
    size_t n_paths[2];
    bool saw_sep;
    double fail_pct; /* --fail-on=regression:PCT; < 0: not asked */
} compare_args;

/* "regression:PCT" items of a --fail-on list: the percentage into *pct, the other
 * items (for the input policy) into rest. False when an item is malformed. */
static bool split_fail_on(const char *v, double *pct, fsc_buf *rest)
{
    while (*v) {
        size_t l = strcspn(v, ",");
        if (l > 11 && !strncmp(v, "regression:", 11)) {
            char num[32], *end;
            snprintf(num, sizeof num, "%.*s", (int)(l - 11 < 31 ? l - 11 : 31), v + 11);
            *pct = strtod(num, &end);
            if (end == num || *end || !(*pct >= 0) || l - 11 > 31)
                return false;
        } else {
            fsc_buf_printf(rest, "%s%.*s", rest->len ? "," : "", (int)l, v);
        }
        v += l + (v[l] == ',');
    }
    return true;
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
    } else if ((v = fsc_cli_opt_value(argc, argv, i, "--fail-on", NULL, &missing)) &&
               strstr(v, "regression")) {
        fsc_buf rest = {0};
        bool ok = split_fail_on(v, &ca->fail_pct, &rest);
        if (ok && rest.len) { /* the input policy part, as every command takes it */
            char opt[] = "--fail-on";
            char *fargv[] = {opt, rest.data, NULL};
            int k = 0;
            ok = fsc_cli_common_opt(&ca->common, 2, fargv, &k) == 1;
        }
        fsc_buf_free(&rest);
        if (!ok)
            return 10 + fsc_cli_usage("compare", "--fail-on takes regression:PCT (a percentage, "
                                                 "e.g. regression:5) and/or error, no-runs, "
                                                 "warning, none");
    } else if (v) {
        char opt[] = "--fail-on";
        char *fargv[] = {opt, (char *)v, NULL};
        int k = 0;
        if (fsc_cli_common_opt(&ca->common, 2, fargv, &k) != 1)
            return 10 + fsc_cli_usage("compare", "bad value for --fail-on");
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
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        int side = ca->saw_sep ? 1 : 0;
        if (a[0] != '-' || !strcmp(a, "-")) {
            ca->paths[side][ca->n_paths[side]++] = a;
        } else if (!strcmp(a, "--")) {
            if (ca->saw_sep)
                return fsc_cli_usage("compare", "'--' given twice");
            ca->saw_sep = true;
        } else if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            fputs(compare_help, stdout);
            return FSC_EXIT_OK;
        } else {
            int r = compare_opt(ca, argc, argv, &i);
            if (r >= 10)
                return r - 10;
            if (r == 0)
                return fsc_cli_unknown_option("compare", a, compare_help, fsc_cli_common_help, NULL);
        }
    }
    if (!ca->saw_sep || !ca->n_paths[0] || !ca->n_paths[1])
        return fsc_cli_usage("compare", "give BASE inputs, then '--', then NEW inputs");
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

/* --fail-on=regression:PCT: every metric of a matched row that got worse by more
 * than pct percent (significant, or single runs), named on stderr; 1 if any. */
static int regressions(const compare_args *ca, const fsc_comparison *c)
{
    size_t n = 0;
    for (size_t r = 0; r < c->n_rows; r++)
        for (size_t k = 0; k < c->n_cols; k++) {
            const fsc_cmp_cell *x = &c->rows[r].cells[k];
            if (!x->present || x->delta_pct != x->delta_pct || (x->tested && !x->significant))
                continue;
            double worse = c->cols[k].higher_better ? -x->delta_pct : x->delta_pct;
            if (!(worse > ca->fail_pct))
                continue;
            if (!ca->common.quiet && n < FSC_CLI_MAX_DIAG)
                fsc_cli_err("compare: regression: %s: %s %+.1f%% (over %g%%)", c->rows[r].label,
                            c->cols[k].name, x->delta_pct, ca->fail_pct);
            n++;
        }
    if (n && !ca->common.quiet)
        fsc_cli_err("compare: %zu metric%s got worse by more than %g%%", n, n == 1 ? "" : "s",
                    ca->fail_pct);
    return n ? FSC_EXIT_INPUT : FSC_EXIT_OK;
}

static int run_compare(compare_args *ca, const fsc_runset sets[2])
{
    fsc_buf err = {0}, out = {0};
    fsc_status st;
    int rc;
    ca->copts.label_from = ca->common.label_from;
    fsc_comparison *cmp = fsc_compare_build(&sets[0], &sets[1], &ca->copts, &err, &st);
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
    fsc_buf_free(&err);
    fsc_buf_free(&out);
    return rc;
}

/* Check metrics and --match before reading any input, so a typo costs nothing. */
static int precheck(compare_args *ca)
{
    if (!fsc_cli_check_metric_list("compare", ca->copts.metrics))
        return FSC_EXIT_USAGE;
    fsc_runset empty[2];
    fsc_runset_init(&empty[0]);
    fsc_runset_init(&empty[1]);
    fsc_buf err = {0};
    fsc_status st;
    fsc_comparison *c = fsc_compare_build(&empty[0], &empty[1], &ca->copts, &err, &st);
    int rc = -1;
    if (!c && st == FSC_E_USAGE) {
        fsc_cli_err("compare: %s (see 'fioscope compare --help')", err.data);
        rc = FSC_EXIT_USAGE;
    }
    fsc_comparison_free(c);
    fsc_buf_free(&err);
    return rc;
}

int fsc_cmd_compare(int argc, char **argv)
{
    compare_args ca = {.common = {.input = {.progress = true}}, .format = "text", .color = "auto",
                       .fail_pct = -1};
    ca.paths[0] = calloc((size_t)argc + 1, sizeof(char *));
    ca.paths[1] = calloc((size_t)argc + 1, sizeof(char *));
    int rc = ca.paths[0] && ca.paths[1] ? parse_args(&ca, argc, argv) : FSC_EXIT_INPUT;
    if (rc < 0)
        rc = precheck(&ca);
    if (rc < 0) {
        fsc_runset sets[2];
        fsc_manifest man[2] = {{0}};
        int lrc = FSC_EXIT_OK;
        for (int s = 0; s < 2; s++) {
            fsc_runset_init(&sets[s]);
            int r = fsc_cli_load(&ca.common, ca.paths[s], ca.n_paths[s], &sets[s], &man[s]);
            if (r != FSC_EXIT_OK)
                lrc = FSC_EXIT_INPUT;
        }
        rc = run_compare(&ca, sets);
        if (rc == FSC_EXIT_OK)
            rc = lrc;
        for (int s = 0; s < 2; s++) {
            fsc_runset_clear(&sets[s]);
            fsc_manifest_free(&man[s]);
        }
    }
    free(ca.paths[0]);
    free(ca.paths[1]);
    return rc;
}
