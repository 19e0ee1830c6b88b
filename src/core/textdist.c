/* SPDX-License-Identifier: MIT */
/* Edit distance for "did you mean" hints. */
#include "fioscope/textdist.h"

#include <ctype.h>
#include <string.h>

#define MAXW 255

size_t fsc_word_distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    if (la > MAXW || lb > MAXW)
        return (size_t)-1;
    /* three rows are enough for the neighbour swap */
    size_t rows[3][MAXW + 1];
    size_t *prev2 = rows[0], *prev = rows[1], *cur = rows[2];
    for (size_t j = 0; j <= lb; j++)
        prev[j] = j;
    for (size_t i = 1; i <= la; i++) {
        cur[0] = i;
        int ca = tolower((unsigned char)a[i - 1]);
        for (size_t j = 1; j <= lb; j++) {
            int cb = tolower((unsigned char)b[j - 1]);
            size_t best = prev[j - 1] + (ca != cb);
            if (prev[j] + 1 < best)
                best = prev[j] + 1;
            if (cur[j - 1] + 1 < best)
                best = cur[j - 1] + 1;
            if (i > 1 && j > 1 && ca == tolower((unsigned char)b[j - 2]) &&
                tolower((unsigned char)a[i - 2]) == cb && prev2[j - 2] + 1 < best)
                best = prev2[j - 2] + 1;
            cur[j] = best;
        }
        size_t *t = prev2;
        prev2 = prev;
        prev = cur;
        cur = t;
    }
    return prev[lb];
}

const char *fsc_nearest_word(const char *word, const char *const *words, size_t n)
{
    const char *best = NULL;
    size_t best_d = (size_t)-1;
    size_t lw = strlen(word);
    for (size_t i = 0; i < n; i++) {
        size_t d = fsc_word_distance(word, words[i]);
        size_t longer = strlen(words[i]) > lw ? strlen(words[i]) : lw;
        size_t limit = longer / 3 > 4 ? 4 : (longer / 3 ? longer / 3 : 1);
        if (d <= limit && d < best_d) {
            best = words[i];
            best_d = d;
        }
    }
    return best;
}
