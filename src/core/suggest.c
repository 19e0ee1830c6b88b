/* SPDX-License-Identifier: MIT */
/* Edit distance and the nearest known name, for "did you mean" hints and for the
 * parser's repair of misspelt keywords. */
#include "fioscope/suggest.h"

#include <stdint.h>
#include <string.h>

static size_t min3(size_t a, size_t b, size_t c)
{
    size_t m = a < b ? a : b;
    return m < c ? m : c;
}

size_t fsc_edit_distance(const char *a, size_t na, const char *b, size_t nb)
{
    if (na > FSC_SUGGEST_MAX_LEN || nb > FSC_SUGGEST_MAX_LEN)
        return SIZE_MAX;
    /* three rows of the table: i-2, i-1, i (a swap looks two rows back) */
    size_t rows[3][FSC_SUGGEST_MAX_LEN + 1];
    size_t *pp = rows[0], *prev = rows[1], *cur = rows[2];
    for (size_t j = 0; j <= nb; j++)
        prev[j] = j;
    for (size_t i = 1; i <= na; i++) {
        cur[0] = i;
        for (size_t j = 1; j <= nb; j++) {
            size_t d = min3(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] != b[j - 1]));
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] && pp[j - 2] + 1 < d)
                d = pp[j - 2] + 1;
            cur[j] = d;
        }
        size_t *t = pp;
        pp = prev;
        prev = cur;
        cur = t;
    }
    return prev[nb];
}

/* Largest distance that still reads as a typo of a word of len characters. */
static size_t allowed(size_t len)
{
    size_t a = len <= 4 ? 1 : len <= 8 ? 2 : 3;
    return a < len ? a : (len ? len - 1 : 0);
}

/* Lowercase ASCII copy of s (at most FSC_SUGGEST_MAX_LEN + 1 bytes kept). */
static size_t folded(const char *s, char *out)
{
    size_t n = 0;
    for (; s[n] && n <= FSC_SUGGEST_MAX_LEN; n++)
        out[n] = s[n] >= 'A' && s[n] <= 'Z' ? (char)(s[n] - 'A' + 'a') : s[n];
    return n;
}

void fsc_nearest_init(fsc_nearest_acc *acc, const char *word)
{
    acc->word = word;
    acc->best = NULL;
    acc->best_dist = SIZE_MAX;
}

void fsc_nearest_offer(fsc_nearest_acc *acc, const char *cand)
{
    if (!cand || !acc->word)
        return;
    char w[FSC_SUGGEST_MAX_LEN + 1] = {0}, c[FSC_SUGGEST_MAX_LEN + 1] = {0};
    size_t nw = folded(acc->word, w), nc = folded(cand, c);
    size_t d = fsc_edit_distance(w, nw, c, nc);
    if (d <= allowed(nw) && d < acc->best_dist) {
        acc->best = cand;
        acc->best_dist = d;
    }
}

const char *fsc_nearest_best(const fsc_nearest_acc *acc)
{
    return acc->best;
}

const char *fsc_nearest(const char *word, const char *const *cands, size_t n)
{
    fsc_nearest_acc acc;
    fsc_nearest_init(&acc, word);
    for (size_t i = 0; i < n; i++)
        fsc_nearest_offer(&acc, cands[i]);
    return fsc_nearest_best(&acc);
}
