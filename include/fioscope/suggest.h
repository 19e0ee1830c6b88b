/* SPDX-License-Identifier: MIT */
/*
 * "Did you mean": the known name closest to a mistyped one, by edit distance. One
 * helper for commands, options, metric, field and fio option names, so every
 * suggestion in fioscope follows the same rule.
 */
#ifndef FIOSCOPE_SUGGEST_H
#define FIOSCOPE_SUGGEST_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Edit distance between a[0..na) and b[0..nb): insertions, deletions, substitutions
 * and swaps of two adjacent characters cost 1 each (optimal string alignment),
 * bytes compared exactly. Strings longer than FSC_SUGGEST_MAX_LEN bytes get
 * SIZE_MAX (they are no typo of a name). */
#define FSC_SUGGEST_MAX_LEN 127
size_t fsc_edit_distance(const char *a, size_t na, const char *b, size_t nb);

/* The candidate closest to word when it is close enough to be a likely typo (ASCII
 * letters compared case-insensitively): at
 * most 1 edit for words of up to 4 characters, 2 up to 8, 3 beyond, and never as
 * many edits as the word has characters. Ties go to the earlier candidate. Returns
 * a pointer into cands (NULL entries are skipped), or NULL when none is close. */
const char *fsc_nearest(const char *word, const char *const *cands, size_t n);

/* The same search over candidates that are not in one array (a registry walked
 * entry by entry): init, offer every candidate, then read best (NULL = none).
 * Offered strings must outlive the accumulator. */
typedef struct fsc_nearest_acc {
    const char *word;
    const char *best;
    size_t best_dist;
} fsc_nearest_acc;

void fsc_nearest_init(fsc_nearest_acc *acc, const char *word);
void fsc_nearest_offer(fsc_nearest_acc *acc, const char *cand);
const char *fsc_nearest_best(const fsc_nearest_acc *acc);

#ifdef __cplusplus
}
#endif
#endif
