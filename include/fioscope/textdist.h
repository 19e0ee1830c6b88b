/* SPDX-License-Identifier: MIT */
/* Edit distance between words, for "did you mean" hints on unknown names. */
#ifndef FIOSCOPE_TEXTDIST_H
#define FIOSCOPE_TEXTDIST_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Damerau-Levenshtein distance (insert, delete, substitute, swap of neighbours),
 * ASCII case-insensitive. Words longer than 255 bytes compare as far apart. */
size_t fsc_word_distance(const char *a, const char *b);

/* The word of words[0..n) nearest to word, or NULL when none is near enough to be a
 * plausible typo (distance at most a third of the longer word, and at most 4).
 * On a tie the earlier word wins. */
const char *fsc_nearest_word(const char *word, const char *const *words, size_t n);

#ifdef __cplusplus
}
#endif
#endif
