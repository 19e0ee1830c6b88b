/* SPDX-License-Identifier: MIT */
/* Test helpers for the readers: a corpus file ($FSC_CORPUS) in memory, and lookups
 * into the run model. Include after <cmocka.h>. */
#ifndef FSC_TEST_CORPUS_FILE_H
#define FSC_TEST_CORPUS_FILE_H

#include <stdio.h>
#include <stdlib.h>

#include "fioscope/model.h"

/* The whole file FSC_CORPUS/rel, NUL-terminated, length in *len; NULL if it cannot
 * be read. The caller frees it. */
static inline char *corpus_read(const char *rel, size_t *len)
{
    const char *root = getenv("FSC_CORPUS");
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", root ? root : "/work/shared/corpus", rel);
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *data = NULL;
    size_t n = 0, cap = 0;
    for (;;) {
        if (n + 65536 + 1 > cap) {
            cap = (n + 65536 + 1) * 2;
            char *grown = realloc(data, cap);
            if (!grown) {
                free(data);
                fclose(f);
                return NULL;
            }
            data = grown;
        }
        size_t got = fread(data + n, 1, 65536, f);
        n += got;
        if (got < 65536)
            break;
    }
    fclose(f);
    data[n] = '\0';
    *len = n;
    return data;
}

/* The percentile pct of lat; fails the test if there is none. */
static inline const fsc_pctl *pctl(const fsc_lat *lat, double pct)
{
    for (size_t i = 0; i < lat->n_percentile; i++)
        if (lat->percentile[i].pct == pct)
            return &lat->percentile[i];
    fail_msg("no percentile %f", pct);
    return NULL;
}

/* The value of key in l; fails the test if it is missing. */
static inline double kv(const fsc_kvlist *l, const char *key)
{
    const fsc_kv *e = fsc_kvlist_get(l, key);
    assert_non_null(e);
    return e->v;
}

/* num was shown and is exactly want. */
#define NUM_EQ(num, want)               \
    do {                                \
        assert_true((num).set);         \
        assert_true((num).v == (want)); \
    } while (0)

#endif
