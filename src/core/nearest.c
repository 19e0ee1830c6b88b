/* SPDX-License-Identifier: MIT */
/* Edit distance and "did you mean": shared by the grammar repair and every hint. */
#include "fioscope/common.h"

#include <ctype.h>
#include <string.h>

enum { DIST_MAX_LEN = 255, DIST_TOO_LONG = 99 };

size_t fsc_edit_distance(const char *a, size_t na, const char *b, size_t nb)
{
    if (na >= DIST_MAX_LEN || nb >= DIST_MAX_LEN)
        return DIST_TOO_LONG;
    /* three rows of the optimal-string-alignment table */
    size_t rows[3][DIST_MAX_LEN + 1];
    size_t *pp = rows[0], *prev = rows[1], *cur = rows[2];
    for (size_t j = 0; j <= nb; j++)
        prev[j] = j;
    for (size_t i = 1; i <= na; i++) {
        cur[0] = i;
        for (size_t j = 1; j <= nb; j++) {
            size_t c = prev[j - 1] + (a[i - 1] != b[j - 1]);
            if (prev[j] + 1 < c)
                c = prev[j] + 1;
            if (cur[j - 1] + 1 < c)
                c = cur[j - 1] + 1;
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] && pp[j - 2] + 1 < c)
                c = pp[j - 2] + 1; /* "sytsem" is one swap from "system" */
            cur[j] = c;
        }
        size_t *t = pp;
        pp = prev;
        prev = cur;
        cur = t;
    }
    return prev[nb];
}

/* Lower-case ASCII copy of s (at most cap-1 bytes); its length. */
static size_t fold(const char *s, char *out, size_t cap)
{
    size_t n = 0;
    for (; s[n] && n + 1 < cap; n++)
        out[n] = (char)tolower((unsigned char)s[n]);
    out[n] = '\0';
    return n;
}

const char *fsc_nearest(const char *word, const char *const *cands, size_t n_cands, size_t max_dist)
{
    char w[DIST_MAX_LEN + 1], c[DIST_MAX_LEN + 1];
    if (!word || !*word)
        return NULL;
    size_t wn = fold(word, w, sizeof w);
    if (!max_dist)
        max_dist = wn / 3 < 2 ? 2 : wn / 3;
    const char *best = NULL;
    size_t best_d = SIZE_MAX;
    for (size_t i = 0; i < n_cands; i++) {
        if (!cands[i])
            continue;
        size_t cn = fold(cands[i], c, sizeof c);
        size_t d = fsc_edit_distance(w, wn, c, cn);
        /* a prefix ("sys" of "system") is a fair guess even when it is many edits off */
        if (d > max_dist && wn >= 3 && cn > wn && !memcmp(c, w, wn))
            d = max_dist;
        if (d < best_d) {
            best_d = d;
            best = cands[i];
        }
    }
    return best_d <= max_dist ? best : NULL;
}
