/* SPDX-License-Identifier: MIT */
/* Interned strings and small hashed groupings for the analysis (linear time at 100k runs). */
#include "analyze_int.h"

#include <stdlib.h>

static uint64_t hash_bytes(const void *p, size_t n)
{
    const unsigned char *s = p;
    uint64_t h = 1469598103934665603ULL; /* FNV-1a */
    for (size_t i = 0; i < n; i++) {
        h ^= s[i];
        h *= 1099511628211ULL;
    }
    return h ^ (h >> 29);
}

static bool pool_grow(fsc_pool *p)
{
    size_t cap = p->cap ? p->cap * 2 : 256;
    char **slots = calloc(cap, sizeof *slots);
    if (!slots)
        return false;
    for (size_t i = 0; i < p->cap; i++) {
        if (!p->slots[i])
            continue;
        size_t j = hash_bytes(p->slots[i], strlen(p->slots[i])) & (cap - 1);
        while (slots[j])
            j = (j + 1) & (cap - 1);
        slots[j] = p->slots[i];
    }
    free(p->slots);
    p->slots = slots;
    p->cap = cap;
    return true;
}

const char *fsc_pool_intern(fsc_pool *p, const char *s, size_t n)
{
    if ((p->n + 1) * 2 > p->cap && !pool_grow(p))
        return NULL;
    size_t j = hash_bytes(s, n) & (p->cap - 1);
    for (; p->slots[j]; j = (j + 1) & (p->cap - 1))
        if (!strncmp(p->slots[j], s, n) && p->slots[j][n] == '\0')
            return p->slots[j];
    char *copy = fsc_strndup(s, n);
    if (!copy)
        return NULL;
    p->slots[j] = copy;
    p->n++;
    return copy;
}

void fsc_pool_free(fsc_pool *p)
{
    for (size_t i = 0; i < p->cap; i++)
        free(p->slots[i]);
    free(p->slots);
    memset(p, 0, sizeof *p);
}

static bool keymap_grow(fsc_keymap *m)
{
    size_t cap = m->cap ? m->cap * 2 : 256;
    fsc_key *keys = malloc(cap * sizeof *keys);
    size_t *vals = malloc(cap * sizeof *vals);
    if (!keys || !vals) {
        free(keys);
        free(vals);
        return false;
    }
    for (size_t i = 0; i < cap; i++)
        vals[i] = SIZE_MAX;
    for (size_t i = 0; i < m->cap; i++) {
        if (m->vals[i] == SIZE_MAX)
            continue;
        size_t j = hash_bytes(&m->keys[i], sizeof m->keys[i]) & (cap - 1);
        while (vals[j] != SIZE_MAX)
            j = (j + 1) & (cap - 1);
        keys[j] = m->keys[i];
        vals[j] = m->vals[i];
    }
    free(m->keys);
    free(m->vals);
    m->keys = keys;
    m->vals = vals;
    m->cap = cap;
    return true;
}

size_t fsc_keymap_get(const fsc_keymap *m, const fsc_key *k)
{
    if (!m->cap)
        return SIZE_MAX;
    for (size_t j = hash_bytes(k, sizeof *k) & (m->cap - 1); m->vals[j] != SIZE_MAX;
         j = (j + 1) & (m->cap - 1))
        if (!memcmp(&m->keys[j], k, sizeof *k))
            return m->vals[j];
    return SIZE_MAX;
}

size_t fsc_keymap_put(fsc_keymap *m, const fsc_key *k, size_t v)
{
    if ((m->n + 1) * 2 > m->cap && !keymap_grow(m))
        return SIZE_MAX;
    size_t j = hash_bytes(k, sizeof *k) & (m->cap - 1);
    for (; m->vals[j] != SIZE_MAX; j = (j + 1) & (m->cap - 1))
        if (!memcmp(&m->keys[j], k, sizeof *k))
            return m->vals[j];
    m->keys[j] = *k;
    m->vals[j] = v;
    m->n++;
    return v;
}

void fsc_keymap_free(fsc_keymap *m)
{
    free(m->keys);
    free(m->vals);
    memset(m, 0, sizeof *m);
}
