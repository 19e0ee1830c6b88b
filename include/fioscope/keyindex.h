/* SPDX-License-Identifier: MIT */
/*
 * A hash index over the string keys of an array that keeps its own order (print
 * order of key=value lists, job options, job definitions), so that "find or append"
 * over a list of any length costs constant time on average instead of a scan.
 * Lists shorter than FSC_KEYINDEX_FROM carry no index (slots NULL) and are searched
 * in place. The index is owned by the list it indexes; free it with the list.
 */
#ifndef FIOSCOPE_KEYINDEX_H
#define FIOSCOPE_KEYINDEX_H

#include "fioscope/common.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct fsc_keyindex {
    uint32_t *slots; /* item index + 1; 0 = empty */
    size_t cap;      /* a power of two, or 0 */
} fsc_keyindex;

#define FSC_KEYINDEX_FROM 16

/* The key of item i of the array `items`. */
typedef const char *(*fsc_key_at_fn)(const void *items, size_t i);

/* Index of key among items[0..n), or n when absent. */
size_t fsc_keyindex_find(const fsc_keyindex *ix, const void *items, size_t n, fsc_key_at_fn key_at,
                         const char *key);
/* Item n-1 was just appended to items: index it (building or growing the index as the
 * list grows). false on allocation failure or 2^32 items; the caller then takes the
 * item back off. */
bool fsc_keyindex_added(fsc_keyindex *ix, const void *items, size_t n, fsc_key_at_fn key_at);
void fsc_keyindex_free(fsc_keyindex *ix);

#ifdef __cplusplus
}
#endif
#endif
