/* SPDX-License-Identifier: MIT */
/* Private to src/analyze: the analysis object, string interning and hashed grouping. */
#ifndef FIOSCOPE_ANALYZE_INT_H
#define FIOSCOPE_ANALYZE_INT_H

#include "fioscope/analyze.h"

#include <stdint.h>
#include <string.h>

/* ---- interned strings: equal text, equal pointer ---- */

typedef struct fsc_pool {
    char **slots; /* open addressing; NULL = empty */
    size_t cap, n;
} fsc_pool;

/* The pooled copy of s[0..n); NULL on allocation failure. */
const char *fsc_pool_intern(fsc_pool *p, const char *s, size_t n);
static inline const char *fsc_pool_str(fsc_pool *p, const char *s)
{
    return fsc_pool_intern(p, s ? s : "", s ? strlen(s) : 0);
}
void fsc_pool_free(fsc_pool *p);

/* ---- grouping: a key of up to four words (interned pointers, indexes) → an index ---- */

enum { FSC_KEY_WORDS = 4 };

typedef struct fsc_key {
    uintptr_t w[FSC_KEY_WORDS];
} fsc_key;

typedef struct fsc_keymap {
    fsc_key *keys;
    size_t *vals; /* SIZE_MAX = empty slot */
    size_t cap, n;
} fsc_keymap;

/* The index stored for k, or SIZE_MAX. */
size_t fsc_keymap_get(const fsc_keymap *m, const fsc_key *k);
/* Store k → v unless k is there; returns the index stored for k (v when new), or
 * SIZE_MAX on allocation failure. */
size_t fsc_keymap_put(fsc_keymap *m, const fsc_key *k, size_t v);
void fsc_keymap_free(fsc_keymap *m);

/* ---- the analysis ---- */

/* How rows get their system. */
typedef enum sys_source {
    SYS_AUTO,
    SYS_SIDE,
    SYS_INPUT,
    SYS_DIR,
    SYS_FILE,
    SYS_HEADING, /* level in heading_level (0 = the one that varies most) */
    SYS_HOST,
    SYS_LABEL,
    SYS_JOB, /* regex */
    SYS_JOBPART,
    SYS_NONE
} sys_source;

/* Per-row data the public fsc_arow does not carry. */
typedef struct row_extra {
    const char *base_label;  /* label before a system prefix (interned) */
    const char *input_rel;   /* path of the run's file inside its input directory, "" */
    const char *input_name;  /* distinguishing name of the row's input (interned) */
    const char *sys_norm;    /* normalized system (grouping key, interned) */
} row_extra;

struct fsc_analysis {
    fsc_label_from label_from;
    const fsc_runset *const *sets;
    size_t n_sets;
    fsc_pool pool;
    fsc_arow *all; /* every row */
    row_extra *extra;
    size_t n_all, cap_all;
    size_t *sel; /* selected rows: indexes into all */
    size_t n_sel;
    int key_dims[FSC_DIM_COUNT];
    size_t n_key_dims;
    char *key_text;
    const char **systems; /* distinct systems of the selected rows, first appearance */
    size_t n_systems, cap_systems;
    char *system_source;
    char **notes;
    size_t n_notes, cap_notes;
    /* clones per job of the run whose rows are being added (numjobs=N printed one
     * block each): counted once per run, not once per job (50,000 jobs) */
    const fsc_run *clones_run;
    size_t *clones;
};

/* Parsed --system-from. */
typedef struct sys_rule {
    sys_source src;
    int level; /* SYS_HEADING: 1-based, 0 = auto */
    void *re;  /* SYS_JOB: pcre2_code */
} sys_rule;

fsc_status fsc_sys_rule_parse(const char *spec, sys_rule *r, fsc_buf *err);
void fsc_sys_rule_free(sys_rule *r);
/* Give every row its system (and rewrite labels to name it). */
fsc_status fsc_assign_systems(fsc_analysis *a, const sys_rule *rule, const char *const *side_names);

/* Parsed --workload-key into a->key_dims. */
fsc_status fsc_workload_key_parse(const char *spec, int *dims, size_t *n, fsc_buf *err);

/* --where */
typedef struct fsc_where fsc_where;
fsc_status fsc_where_parse(const char *expr, fsc_where **out, fsc_buf *err);
bool fsc_where_test(const fsc_where *w, const fsc_analysis *a, const fsc_arow *row);
void fsc_where_free(fsc_where *w);

/* Normalized form of a system or heading for comparison: ASCII lower case, runs of
 * ' ', '-', '_' as one space, trimmed. */
void fsc_norm_name(const char *s, fsc_buf *out);

/* Strip the '/'-separated components all items share at the start and at the end
 * (keeping at least one each), in place; a single item keeps its last component. */
void fsc_path_distinguish(char **items, size_t n);

/* Observations of the selected rows: rows of one (side, run) with equal k1[i] and
 * k2[i] (interned pointers, one per selected row) share an index in of_row[i];
 * *n_obs receives the count. Indexes follow first appearance. */
fsc_status fsc_group_obs(const fsc_analysis *a, const char *const *k1, const char *const *k2,
                         size_t *of_row, size_t *n_obs);

/* "randread 4k qd32 x8": the fields keys[] of a row's dimensions in short form
 * (qd = iodepth, x = numjobs; dir and system left out, unknown fields too); a row
 * with none known is "[jobname]". Interned; NULL when out of memory. */
const char *fsc_workload_short(fsc_analysis *a, const char *const *dim, const int *keys, size_t n_keys);

/* Add a note (printf-style); false on allocation failure. */
bool fsc_analysis_add_note(fsc_analysis *a, const char *fmt, ...) FSC_PRINTF(2, 3);

#endif
