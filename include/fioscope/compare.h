/* SPDX-License-Identifier: MIT */
/*
 * Run-to-run comparison: the rows of a BASE runset and a NEW runset matched by label
 * (or job name, or a regex), per metric the median of each side, the absolute and
 * relative change, and — with repeats — the spread and a Mann-Whitney U test.
 */
#ifndef FIOSCOPE_COMPARE_H
#define FIOSCOPE_COMPARE_H

#include "fioscope/analyze.h"
#include "fioscope/table.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Default metric list of `compare`. */
extern const char *const fsc_compare_default_metrics;

typedef struct fsc_compare_opts {
    const char *metrics;       /* comma list; NULL = fsc_compare_default_metrics; text
                                  metrics are ignored */
    fsc_label_from label_from; /* how labels are built before matching */
    /* NULL or "label": match by the whole label; "jobname": by job name only;
     * anything else is a PCRE2 regex applied to the label: the key is its first
     * capture group if it has one, else the whole match (no match: the label). */
    const char *match;
    bool no_split; /* see fsc_table_opts */
    double alpha;  /* significance level; 0 = 0.05 */
} fsc_compare_opts;

/* One side of one cell: samples are the per-run values (repeats). */
typedef struct fsc_cmp_side {
    size_t n;
    double *samples;   /* owned, n values in input order */
    double median;
    double spread_pct; /* max distance of a sample from the median, % of the median */
} fsc_cmp_side;

typedef struct fsc_cmp_cell {
    bool present; /* both sides have the number */
    fsc_cmp_side base, new_;
    double change;    /* new - base (medians), base unit */
    double delta_pct; /* (new / base - 1) × 100; NAN when base is 0 */
    bool tested;      /* a U test ran (some side has 2+ samples) */
    double p;         /* two-sided p-value of the test (1 when not tested) */
    bool significant; /* p < alpha, or untested single runs (change shown as is) */
    int verdict;      /* +1 better, -1 worse, 0 equal or not significant */
} fsc_cmp_cell;

typedef struct fsc_cmp_row {
    char *label;  /* the match key as shown ("mix [read]") */
    bool per_dir; /* one direction of a mixed job: left out of the geomean */
    fsc_cmp_cell *cells; /* n_cols */
} fsc_cmp_row;

typedef struct fsc_comparison {
    fsc_metric *cols; /* numeric metrics only; owned name/title copies */
    size_t n_cols;
    fsc_cmp_row *rows;
    size_t n_rows, cap_rows;
    /* per column: geometric means of the base and new medians over the rows (not
     * per_dir) where both are > 0, in base.median / new_.median; delta_pct their ratio */
    fsc_cmp_cell *geomean;
    char **only_base, **only_new; /* labels found on one side only */
    size_t n_only_base, n_only_new, cap_only_base, cap_only_new;
    double alpha;
} fsc_comparison;

/* Match and compare. Returns NULL with a message in err for an unknown metric or a
 * bad regex (FSC_E_USAGE in *st when st is not NULL) or when out of memory. */
fsc_comparison *fsc_compare_build(const fsc_runset *base, const fsc_runset *new_set,
                                  const fsc_compare_opts *opts, fsc_buf *err, fsc_status *st);
void fsc_comparison_free(fsc_comparison *c);

/* Render as "text", "md", "csv", "tsv" or "json". color: ANSI green/red on better/
 * worse changes (text only). FSC_E_USAGE for an unknown format. */
fsc_status fsc_compare_render(const fsc_comparison *c, const char *format, bool color,
                              fsc_buf *out);

#ifdef __cplusplus
}
#endif
#endif
