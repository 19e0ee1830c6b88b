/* SPDX-License-Identifier: MIT */
#ifndef FSC_CLI_BLOCKPOOL_H
#define FSC_CLI_BLOCKPOOL_H

#include <stddef.h>

/* Blocks of rendered output handed back by the thread that wrote them, for the
 * rendering threads to take again. A run is rendered into a malloc'd block on a
 * worker and freed on the writing thread after its write: glibc then locks the
 * worker's arena for each free (the blocks are too big for its per-thread cache),
 * so worker and writer wait on each other's malloc and free. Blocks taken from here
 * skip both, and are warm in the cache. Thread-safe; the blocks are plain malloc'd
 * memory either way (free() is always right for them). */
typedef struct fsc_blockpool fsc_blockpool;

/* A pool keeping at most max_bytes of blocks; NULL when out of memory. */
fsc_blockpool *fsc_blockpool_new(size_t max_bytes);
/* Frees the pool and the blocks it keeps (NULL: nothing). */
void fsc_blockpool_free(fsc_blockpool *p);
/* A malloc'd block of at least min bytes (*cap: its size), kept or new; the caller
 * owns it. NULL when out of memory. p may be NULL (then it is malloc). */
char *fsc_blockpool_take(fsc_blockpool *p, size_t min, size_t *cap);
/* Takes ownership of block: kept for a later take, or freed when the pool is full.
 * p may be NULL (then it is free). */
void fsc_blockpool_give(fsc_blockpool *p, char *block);

#endif
