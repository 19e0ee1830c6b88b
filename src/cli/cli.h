/* SPDX-License-Identifier: MIT */
/* Shared pieces of the command-line front end. */
#ifndef FIOSCOPE_CLI_H
#define FIOSCOPE_CLI_H

#include "fioscope/analyze.h"
#include "fioscope/input.h"
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

/* Options every reading command shares. */
typedef struct fsc_cli_common {
    fsc_label_from label_from;
    bool each_format; /* parse --each-format: no merging of one invocation's formats */
    fsc_input_opts input;
    bool quiet;
    unsigned fail_on; /* FSC_FAIL_* bits (below); 0 = FSC_FAIL_DEFAULT */
    /* the analysis options (fioscope/analyze.h) */
    const char **where; /* --where EXPR (repeatable), owned array of argv pointers */
    size_t n_where, cap_where;
    const char *system_from;  /* --system-from */
    const char *workload_key; /* --workload-key */
} fsc_cli_common;

/* Release what fsc_cli_common_opt allocated (the --where list). */
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
 * --max-member-size=, --max-ratio=, --where, --system-from, --workload-key), consume
 * it (and its value) and return 1; 0 if not one; -1 on a bad value (message printed). */
int fsc_cli_common_opt(fsc_cli_common *c, int argc, char **argv, int *i);

/* Read inputs into set (all runs, in order) and manifest. Prints one diagnostic per
 * bad input unless quiet. Returns the exit status the inputs deserve (0 or 1), or -1
 * when the parser could not be created. */
int fsc_cli_load(const fsc_cli_common *c, const char *const *paths, size_t n_paths,
                 fsc_runset *set, fsc_manifest *manifest);

/* "1600x900" → *w, *h (200..8000 each); false if malformed. */
bool fsc_cli_parse_size(const char *s, int *w, int *h);

/* Exit status for a manifest: 1 if any input errored or held no run. */
int fsc_cli_manifest_status(const fsc_manifest *m);

/* Exit status for a manifest under the --fail-on policy of c: 1 when an entry has a
 * status (or, for "warning", warnings) the policy names, else 0. */
int fsc_cli_exit_status(const fsc_cli_common *c, const fsc_manifest *m);

/* At most this many per-input diagnostics are printed; the rest are only counted in
 * the summary (the manifest lists every input). */
#define FSC_CLI_MAX_DIAG 20

/* Diagnostic line for an input that is not ok ("fioscope: P: M: reason"), unless
 * *shown already reached FSC_CLI_MAX_DIAG; counts it in *shown. */
void fsc_cli_input_diag(const fsc_input_entry *e, size_t *shown);

/* The closing line on stderr unless quiet, e.g. "fioscope: 12 inputs: 10 ok,
 * 1 no runs, 1 error; 37 runs". */
void fsc_cli_summary(const fsc_cli_common *c, const fsc_manifest *m);

int fsc_cmd_parse(int argc, char **argv);
int fsc_cmd_table(int argc, char **argv);
int fsc_cmd_compare(int argc, char **argv);
int fsc_cmd_report(int argc, char **argv);
int fsc_cmd_chart(int argc, char **argv);
int fsc_cmd_series(int argc, char **argv);
int fsc_cmd_run(int argc, char **argv);
int fsc_cmd_rerun(int argc, char **argv);

#endif
