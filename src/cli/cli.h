/* SPDX-License-Identifier: MIT */
/* Shared pieces of the command-line front end. */
#ifndef FIOSCOPE_CLI_H
#define FIOSCOPE_CLI_H

#include "fioscope/analyze.h"
#include "fioscope/input.h"
#include "fioscope/metric.h"
#include "fioscope/metric_list.h"
#include "fioscope/model.h"
#include "fioscope/parse.h"

#include <stdio.h>

/* Exit statuses of the contract. */
enum { FSC_EXIT_OK = 0, FSC_EXIT_INPUT = 1, FSC_EXIT_USAGE = 2 };

/* "fioscope: " + message + newline on stderr. */
void fsc_cli_err(const char *fmt, ...) FSC_PRINTF(1, 2);
/* Usage error: message, then the hint line; returns FSC_EXIT_USAGE. */
int fsc_cli_usage(const char *cmd, const char *fmt, ...) FSC_PRINTF(2, 3);

/* Value of "--name=V", "--name V" or "-x V" at argv[*i] (advancing *i past a separate
 * value); NULL if argv[*i] is another option. *missing is set when the option is last
 * and has no value. shrt may be NULL. */
const char *fsc_cli_opt_value(int argc, char **argv, int *i, const char *lng, const char *shrt,
                              bool *missing);

enum { FSC_CLI_MAX_WHERE = 32 };

/* Options every reading command shares. */
typedef struct fsc_cli_common {
    fsc_label_from label_from;
    bool each_format; /* parse --each-format: no merging of one invocation's formats */
    fsc_input_opts input;
    bool quiet;
    unsigned fail_on; /* FSC_FAIL_* bits (below); 0 = FSC_FAIL_DEFAULT */
    bool no_ts_stats;  /* fsc_cli_load leaves job->ts alone (parse writes no metrics) */
    /* the analysis options (fioscope/analyze.h) */
    const char *where[FSC_CLI_MAX_WHERE]; /* --where EXPR (repeatable; argv pointers) */
    size_t n_where;
    const char *system_from;  /* --system-from */
    const char *workload_key; /* --workload-key */
    /* table and compare select rows themselves; the other commands get the runset with
     * the jobs --where leaves nothing of taken out (fsc_cli_load) */
    bool keep_all_rows;
    /* After that pruning, the system rule system=auto chose on the whole input
     * ("heading:2", "dir", ...): the analyses of the pruned runset name systems as the
     * whole input did, so `--where system=X` still holds for the rows it selected. */
    char pinned_system_from[32];
} fsc_cli_common;

/* Nothing to release any more (kept for callers). */
void fsc_cli_common_free(fsc_cli_common *c);

/* The analysis options of c for inputs paths[0..n) (borrowed pointers). */
fsc_analysis_opts fsc_cli_analysis_opts(const fsc_cli_common *c, const char *const *paths, size_t n);

/* Check --where, --system-from and --workload-key before reading any input: on a bad
 * one print "fioscope: CMD: message (did you mean ...)" and return FSC_EXIT_USAGE;
 * -1 when they are fine. */
int fsc_cli_check_analysis(const char *cmd, const fsc_cli_common *c);

/* Build the analysis of set under c's options; on failure print the reason (prefixed
 * with cmd) and return NULL with *rc set to the exit status (2 usage, 1 otherwise). The
 * analysis notes are printed unless quiet. */
fsc_analysis *fsc_cli_analyze(const char *cmd, const fsc_cli_common *c, const fsc_runset *set,
                              const char *const *paths, size_t n_paths, int *rc);

/* Print the notes of an analysis on stderr unless c is quiet. */
void fsc_cli_print_notes(const fsc_cli_common *c, const fsc_analysis *a);

/* Which manifest statuses make the exit status 1 (--fail-on=LIST). */
enum {
    FSC_FAIL_ERROR = 1u << 0,
    FSC_FAIL_NO_RUNS = 1u << 1,
    FSC_FAIL_WARNING = 1u << 2,
    FSC_FAIL_NONE = 1u << 3, /* --fail-on=none: always 0 */
    FSC_FAIL_DEFAULT = FSC_FAIL_ERROR | FSC_FAIL_NO_RUNS
};

/* Help lines of the common options, for a command's --help. */
extern const char fsc_cli_common_help[];

/* If argv[*i] is a common option (--label-from=, -j N, --jobs=, --quiet, --fail-on=,
 * --max-member-size=, --max-memory=, --max-ratio=, --where, --system-from,
 * --workload-key), consume it (and its value) and return 1; 0 if not one; -1 on a bad
 * value (message printed). */
int fsc_cli_common_opt(fsc_cli_common *c, int argc, char **argv, int *i);

/* Read inputs into set (all runs, in order) and manifest. Prints one diagnostic per
 * bad input unless quiet. With --where (and keep_all_rows false), jobs without a
 * selected row and runs left without jobs are taken out. Returns the exit status the
 * inputs deserve (0 or 1), or -1 when the parser could not be created. */
int fsc_cli_load(fsc_cli_common *c, const char *const *paths, size_t n_paths,
                 fsc_runset *set, fsc_manifest *manifest);

/* "1600x900" → *w, *h (200..8000 each); false if malformed. */
bool fsc_cli_parse_size(const char *s, int *w, int *h);

/* Exit status for a manifest of the n_paths inputs named on the command line,
 * under the --fail-on policy of c (NULL: the default): 1 when a named input has an
 * error entry ("error"), gave no run at all ("no-runs"; files without runs found by
 * a directory walk or inside an archive do not count by themselves), or when any
 * entry has parser warnings ("warning"); else 0. */
int fsc_cli_exit_status(const fsc_cli_common *c, const fsc_manifest *m, size_t n_paths);

/* At most this many per-input diagnostics are printed; the rest are only counted in
 * the summary (the manifest lists every input). */
#define FSC_CLI_MAX_DIAG 20

/* Diagnostics while reading: a line for every entry that is an error, and for a
 * named input without runs ("fioscope: P: M: reason"), at most FSC_CLI_MAX_DIAG. */
typedef struct fsc_cli_diag {
    const char *const *paths; /* the inputs named on the command line */
    size_t n_paths;
    bool quiet;
    size_t shown; /* diagnostics printed or counted */
} fsc_cli_diag;

/* The diagnostic of one manifest entry, if it deserves one. */
void fsc_cli_diag_entry(fsc_cli_diag *d, const fsc_input_entry *e);
/* After reading: "P: no fio run found" for each named input (a file, a directory,
 * an archive, a mail with its attachments) that gave no run and had no diagnostic of
 * its own. */
void fsc_cli_diag_end(fsc_cli_diag *d, const fsc_manifest *m);

/* The closing line on stderr unless quiet, e.g. "fioscope: 12 inputs: 10 ok,
 * 1 no runs, 1 error; 37 runs". shown: diagnostics printed or counted. */
void fsc_cli_summary(const fsc_cli_common *c, const fsc_manifest *m, size_t shown);

/* A status line ("chart written to x.png") on stderr unless -q: data alone goes to
 * standard output. */
void fsc_cli_status(const fsc_cli_common *c, const char *fmt, ...) FSC_PRINTF(2, 3);

/* Usage error for an unknown option arg of cmd, with "did you mean" the nearest
 * option named in the help text(s) (NULL-terminated list after help). Returns
 * FSC_EXIT_USAGE. */
int fsc_cli_unknown_option(const char *cmd, const char *arg, const char *help, ...);

/* Is v one of the n values allowed for option opt? If not, a usage error naming the
 * allowed values and the nearest one ("--format takes text, json or names, not 'jsn'
 * (did you mean 'json'?)"), and true. */
bool fsc_cli_bad_value(const char *cmd, const char *opt, const char *v, const char *const *allowed,
                       size_t n);

/* Check a comma list of metric names before reading any input: a usage error for
 * the first unknown name, with the nearest known one. Returns true when all are
 * known (NULL is fine). */
bool fsc_cli_check_metric_list(const char *cmd, const char *list);

int fsc_cmd_parse(int argc, char **argv);
int fsc_cmd_table(int argc, char **argv);
int fsc_cmd_compare(int argc, char **argv);
int fsc_cmd_report(int argc, char **argv);
int fsc_cmd_chart(int argc, char **argv);
int fsc_cmd_series(int argc, char **argv);
int fsc_cmd_run(int argc, char **argv);
int fsc_cmd_rerun(int argc, char **argv);
int fsc_cmd_metrics(int argc, char **argv);

#endif
