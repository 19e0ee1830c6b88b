/* SPDX-License-Identifier: MIT */
#include "blockpool.h"

#include <malloc.h>
#include <stdbool.h>
#include <pthread.h>
#include <stdlib.h>

enum { POOL_BLOCKS = 64 };

struct fsc_blockpool {
    pthread_mutex_t lock;
    char *block[POOL_BLOCKS];
    size_t cap[POOL_BLOCKS];
    size_t n, bytes, max_bytes;
};

fsc_blockpool *fsc_blockpool_new(size_t max_bytes)
{
    fsc_blockpool *p = calloc(1, sizeof *p);
    if (!p)
        return NULL;
    pthread_mutex_init(&p->lock, NULL);
    p->max_bytes = max_bytes;
    return p;
}

void fsc_blockpool_free(fsc_blockpool *p)
{
    if (!p)
        return;
    for (size_t i = 0; i < p->n; i++)
        free(p->block[i]);
    pthread_mutex_destroy(&p->lock);
    free(p);
}

char *fsc_blockpool_take(fsc_blockpool *p, size_t min, size_t *cap)
{
    char *b = NULL;
    size_t have = 0;
    if (p) {
        pthread_mutex_lock(&p->lock);
        if (p->n) {
            p->n--;
            b = p->block[p->n];
            have = p->cap[p->n];
            p->bytes -= have;
        }
        pthread_mutex_unlock(&p->lock);
    }
    if (b && have >= min) {
        *cap = have;
        return b;
    }
    /* none kept, or one too small: a block of the size asked for */
    char *nb = realloc(b, min);
    if (!nb) {
        free(b);
        return NULL;
    }
    *cap = min;
    return nb;
}

void fsc_blockpool_give(fsc_blockpool *p, char *block)
{
    if (!block)
        return;
    if (p) {
        size_t cap = malloc_usable_size(block);
        pthread_mutex_lock(&p->lock);
        bool keep = p->n < POOL_BLOCKS && p->bytes + cap <= p->max_bytes;
        if (keep) {
            p->block[p->n] = block;
            p->cap[p->n++] = cap;
            p->bytes += cap;
        }
        pthread_mutex_unlock(&p->lock);
        if (keep)
            return;
    }
    free(block);
}
