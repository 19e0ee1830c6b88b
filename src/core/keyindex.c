/* SPDX-License-Identifier: MIT */
/* Open addressing over the keys of an ordered array (see keyindex.h). */
#include "fioscope/keyindex.h"

#include <stdlib.h>
#include <string.h>

static size_t key_hash(const char *s)
{
    uint64_t h = 1469598103934665603u; /* FNV-1a */
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211u;
    return (size_t)(h ^ (h >> 29));
}

size_t fsc_keyindex_find(const fsc_keyindex *ix, const void *items, size_t n, fsc_key_at_fn key_at,
                         const char *key)
{
    if (!ix->slots) {
        for (size_t i = 0; i < n; i++)
            if (strcmp(key_at(items, i), key) == 0)
                return i;
        return n;
    }
    for (size_t h = key_hash(key) & (ix->cap - 1);; h = (h + 1) & (ix->cap - 1)) {
        uint32_t v = ix->slots[h];
        if (!v)
            return n;
        if (strcmp(key_at(items, v - 1), key) == 0)
            return v - 1;
    }
}

static void put(fsc_keyindex *ix, const void *items, size_t i, fsc_key_at_fn key_at)
{
    size_t h = key_hash(key_at(items, i)) & (ix->cap - 1);
    while (ix->slots[h])
        h = (h + 1) & (ix->cap - 1);
    ix->slots[h] = (uint32_t)(i + 1);
}

bool fsc_keyindex_added(fsc_keyindex *ix, const void *items, size_t n, fsc_key_at_fn key_at)
{
    if (n < FSC_KEYINDEX_FROM)
        return true;
    if (n >= UINT32_MAX)
        return false;
    if (2 * n > ix->cap) { /* load at most 1/2 */
        size_t cap = ix->cap ? ix->cap : 2 * FSC_KEYINDEX_FROM;
        while (cap < 2 * n)
            cap *= 2;
        uint32_t *slots = calloc(cap, sizeof *slots);
        if (!slots)
            return false;
        free(ix->slots);
        ix->slots = slots;
        ix->cap = cap;
        for (size_t i = 0; i < n; i++)
            put(ix, items, i, key_at);
        return true;
    }
    put(ix, items, n - 1, key_at);
    return true;
}

void fsc_keyindex_free(fsc_keyindex *ix)
{
    free(ix->slots);
    ix->slots = NULL;
    ix->cap = 0;
}
