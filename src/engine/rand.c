/* SPDX-License-Identifier: MIT */
/* Randomness for the I/O loop: a seeded generator (randrepeat/randseed), fio's random
 * map (every block once per pass, a multi-level bitmap so a nearly full map still finds
 * a free block fast) and the skewed distributions (zipf, pareto, normal). */
#include "engine_int.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- generator: xoshiro256** seeded through splitmix64 ---- */

static uint64_t splitmix(uint64_t *x)
{
    uint64_t z = (*x += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

void fsc_rng_seed(fsc_rng *r, uint64_t seed)
{
    for (int i = 0; i < 4; i++)
        r->s[i] = splitmix(&seed);
}

static inline uint64_t rotl(uint64_t x, int k)
{
    return (x << k) | (x >> (64 - k));
}

uint64_t fsc_rng_next(fsc_rng *r)
{
    uint64_t *s = r->s;
    uint64_t out = rotl(s[1] * 5, 7) * 9, t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return out;
}

double fsc_rng_unit(fsc_rng *r)
{
    return (double)(fsc_rng_next(r) >> 11) * (1.0 / 9007199254740992.0);
}

uint64_t fsc_rng_below(fsc_rng *r, uint64_t n)
{
    /* Lemire's multiply-shift: no division, bias below 2^-64 * n */
    return (uint64_t)(((unsigned __int128)fsc_rng_next(r) * n) >> 64);
}

/* A 64-bit mix (splitmix's finalizer) to scatter the hot ranks of skewed distributions
 * over the file, as fio hashes them. */
static uint64_t mix64(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* ---- random map ---- */

bool fsc_rmap_init(fsc_rmap *m, uint64_t nblocks)
{
    memset(m, 0, sizeof *m);
    m->nblocks = nblocks;
    uint64_t bits = nblocks;
    while (m->levels < FSC_RMAP_LEVELS) {
        uint64_t words = (bits + 63) / 64;
        m->words[m->levels] = words;
        m->map[m->levels] = calloc(words ? words : 1, sizeof(uint64_t));
        if (!m->map[m->levels]) {
            fsc_rmap_free(m);
            return false;
        }
        m->levels++;
        if (words <= 1)
            break;
        bits = words;
    }
    return true;
}

void fsc_rmap_free(fsc_rmap *m)
{
    for (unsigned i = 0; i < FSC_RMAP_LEVELS; i++)
        free(m->map[i]);
    memset(m, 0, sizeof *m);
}

void fsc_rmap_reset(fsc_rmap *m)
{
    for (unsigned i = 0; i < m->levels; i++)
        memset(m->map[i], 0, m->words[i] * sizeof(uint64_t));
    m->used = 0;
}

bool fsc_rmap_isset(const fsc_rmap *m, uint64_t b)
{
    return m->map[0][b / 64] >> (b % 64) & 1;
}

void fsc_rmap_set(fsc_rmap *m, uint64_t b)
{
    if (fsc_rmap_isset(m, b))
        return;
    m->used++;
    /* set the bit; a word that becomes full sets its bit one level up */
    for (unsigned l = 0; l < m->levels; l++) {
        uint64_t *w = &m->map[l][b / 64];
        *w |= 1ull << (b % 64);
        uint64_t full = ~0ull;
        if (b / 64 == m->words[l] - 1) {
            uint64_t bits = l == 0 ? m->nblocks : m->words[l - 1];
            if (bits % 64)
                full = (1ull << (bits % 64)) - 1;
        }
        if (*w != full)
            break;
        b /= 64;
    }
}

/* First clear bit at index >= b on level l, or UINT64_MAX. */
static uint64_t first_free_from(const fsc_rmap *m, unsigned l, uint64_t b)
{
    uint64_t nbits = l == 0 ? m->nblocks : m->words[l - 1];
    while (b < nbits) {
        uint64_t wi = b / 64;
        uint64_t w = ~m->map[l][wi] & (~0ull << (b % 64));
        if (w) {
            uint64_t r = wi * 64 + (uint64_t)__builtin_ctzll(w);
            return r < nbits ? r : UINT64_MAX;
        }
        /* this word is full from b on: ask the level above for the next non-full word */
        if (l + 1 < m->levels) {
            uint64_t next = first_free_from(m, l + 1, wi + 1);
            if (next == UINT64_MAX)
                return UINT64_MAX;
            b = next * 64;
        } else {
            b = (wi + 1) * 64;
        }
    }
    return UINT64_MAX;
}

uint64_t fsc_rmap_next_free(const fsc_rmap *m, uint64_t b)
{
    if (m->used >= m->nblocks)
        return UINT64_MAX;
    uint64_t r = first_free_from(m, 0, b);
    return r != UINT64_MAX ? r : first_free_from(m, 0, 0);
}

/* ---- skewed distributions ---- */

#define ZIPF_MAX_TERMS 10000000ull /* like fio, zeta(n) over at most 10M terms */

void fsc_dist_init(fsc_dist *d, fsc_randdist kind, double param, uint64_t n, fsc_rng *r)
{
    memset(d, 0, sizeof *d);
    d->kind = kind;
    d->n = n ? n : 1;
    d->param = param;
    d->off = fsc_rng_next(r);
    if (kind == FSC_RAND_ZIPF) {
        uint64_t terms = d->n < ZIPF_MAX_TERMS ? d->n : ZIPF_MAX_TERMS;
        double zetan = 0;
        for (uint64_t i = 1; i <= terms; i++)
            zetan += pow(1.0 / (double)i, param);
        d->zetan = zetan;
        d->zeta2 = 1.0 + pow(0.5, param);
        d->alpha = 1.0 / (1.0 - param);
        d->eta = (1.0 - pow(2.0 / (double)d->n, 1.0 - param)) / (1.0 - d->zeta2 / zetan);
    } else if (kind == FSC_RAND_PARETO) {
        d->pow = log(param) / log(1.0 - param);
    } else if (kind == FSC_RAND_NORMAL) {
        /* deviation in % of the range; 0 = the whole range is about six deviations */
        d->sd = param > 0 ? (double)d->n * param / 100.0 : (double)d->n / 6.0;
    }
}

uint64_t fsc_dist_next(fsc_dist *d, fsc_rng *r)
{
    uint64_t n = d->n, v;
    switch (d->kind) {
    case FSC_RAND_ZIPF: {
        /* Gray et al., "Quickly generating billion-record synthetic databases" */
        double u = fsc_rng_unit(r), uz = u * d->zetan;
        if (uz < 1.0)
            v = 1;
        else if (uz < d->zeta2)
            v = 2;
        else
            v = 1 + (uint64_t)((double)n * pow(d->eta * u - d->eta + 1.0, d->alpha));
        return (mix64(v - 1) + d->off) % n;
    }
    case FSC_RAND_PARETO: {
        double u = fsc_rng_unit(r);
        v = (uint64_t)((double)(n - 1) * pow(u, d->pow));
        return (mix64(v) + d->off) % n;
    }
    case FSC_RAND_NORMAL: {
        /* Box-Muller around the middle of the range, folded into it */
        double u1 = fsc_rng_unit(r), u2 = fsc_rng_unit(r);
        if (u1 < 1e-300)
            u1 = 1e-300;
        double z = sqrt(-2.0 * log(u1)) * cos(6.283185307179586 * u2);
        double x = (double)n / 2.0 + z * d->sd;
        int64_t k = (int64_t)floor(x);
        k %= (int64_t)n;
        if (k < 0)
            k += (int64_t)n;
        return (mix64((uint64_t)k) + d->off) % n;
    }
    case FSC_RAND_UNIFORM:
        break;
    }
    return fsc_rng_below(r, n);
}
