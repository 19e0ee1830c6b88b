/* SPDX-License-Identifier: MIT */
/*
 * Comparisons: two or more sides (the inputs of `compare A -- B -- C`, or the systems
 * of one set with `--by system`), rows paired by a match key (label, workload, job
 * name, fields, regex; see fioscope/analyze.h), per metric the median of each side,
 * the change against the baseline side and — where the runs allow it — a
 * Mann-Whitney U test. Built on the analysis stage.
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
    /* NULL or "auto": label, workload or jobname, whichever pairs the most rows;
     * "label": the label without the system's part; "jobname"; "workload"; a comma
     * list of dimensions ("rw,bs,iodepth"); anything else is a PCRE2 regex applied to
     * the label: the key is its first capture group if it has one, else the whole
     * match (no match: the label). */
    const char *match;
    bool no_split; /* mixed jobs: the total row only */
    double alpha;  /* significance level; 0 = 0.05 */
    /* --where, --system-from, --workload-key and the INPUT paths (NULL = none) */
    const fsc_analysis_opts *analysis;
    /* NULL: the runsets are the sides; "system": the systems of the runs are */
    const char *by;
    /* the side (or system) the others are compared with; NULL = the first */
    const char *baseline;
    /* names of the sides (fsc_compare_build_sides); NULL = the distinguishing part of
     * their input paths */
    const char *const *side_names;
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
    /* the test can decide at all: 2+ runs on each side and enough of them for p to
     * reach alpha (fsc_mann_whitney_can_decide). Without it there is no verdict:
     * "significant": null in JSON, "~ (n=1+1)" in text. */
    bool decided;
    bool significant; /* decided and p < alpha */
    int verdict;      /* +1 better, -1 worse, 0 equal, not significant or undecided */
} fsc_cmp_cell;

typedef struct fsc_cmp_row {
    char *label;  /* the match key as shown ("mix [read]") */
    bool per_dir; /* one direction of a mixed job: left out of the geomean */
    fsc_cmp_cell *cells; /* n_cols: the first side after the baseline against it */
    /* n_cols × n_sides: [col * n_sides + s] is side s against the baseline (for the
     * baseline itself: base = new_ = its own samples, not present) */
    fsc_cmp_cell *by_side;
    char *key; /* the match key without the direction */
    int dir;   /* FSC_DIR_READ, _WRITE, _TRIM, or FSC_DIR_MIXED (total) */
} fsc_cmp_row;

typedef struct fsc_comparison {
    fsc_metric *cols; /* numeric metrics only; owned name/title copies */
    size_t n_cols;
    fsc_cmp_row *rows;
    size_t n_rows, cap_rows;
    /* per column: geometric means of the base and new medians over the rows (not
     * per_dir) where both are > 0, in base.median / new_.median; delta_pct their ratio */
    fsc_cmp_cell *geomean;
    char **only_base, **only_new; /* labels found on the baseline / another side only */
    size_t n_only_base, n_only_new, cap_only_base, cap_only_new;
    double alpha;
    char **sides; /* side (column) names: input names or systems (owned) */
    size_t n_sides;
    size_t baseline;   /* index into sides */
    fsc_cmp_cell *side_geomean; /* n_cols × n_sides, as fsc_cmp_row.by_side */
    char *match;       /* the --match rule applied ("label", "workload" ...) */
    char *system_from; /* how the sides were named ("side", "heading:1" ...) */
} fsc_comparison;

/* Match and compare BASE with NEW (two sides). Returns NULL with a message in err for
 * an unknown metric or field, a bad regex (FSC_E_USAGE in *st when st is not NULL),
 * when nothing pairs (FSC_E_NO_RUNS: the message names the --match that would pair
 * the most rows) or when out of memory. */
fsc_comparison *fsc_compare_build(const fsc_runset *base, const fsc_runset *new_set,
                                  const fsc_compare_opts *opts, fsc_buf *err, fsc_status *st);
/* The same with n_sets sides (the first is the baseline unless opts->baseline names
 * another). */
fsc_comparison *fsc_compare_build_sides(const fsc_runset *const *sets, size_t n_sets,
                                        const fsc_compare_opts *opts, fsc_buf *err,
                                        fsc_status *st);
/* The systems of one set compared (--by system). */
fsc_comparison *fsc_compare_build_systems(const fsc_runset *set, const fsc_compare_opts *opts,
                                          fsc_buf *err, fsc_status *st);
/* Compare the systems of an analysis (what the three above end in). */
fsc_comparison *fsc_compare_analysis(const fsc_analysis *a, const fsc_compare_opts *opts,
                                     fsc_buf *err, fsc_status *st);
void fsc_comparison_free(fsc_comparison *c);

/* Render as "text", "md", "csv", "tsv" or "json". color: ANSI green/red on better/
 * worse changes (text only). FSC_E_USAGE for an unknown format. */
fsc_status fsc_compare_render(const fsc_comparison *c, const char *format, bool color,
                              fsc_buf *out);

#ifdef __cplusplus
}
#endif
#endif
