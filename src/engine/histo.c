/* SPDX-License-Identifier: MIT */
/* Log-linear latency histogram: 64 linear buckets per power of two (fio's precision),
 * so percentiles carry the same meaning as fio's. */
#include "fioscope/engine.h"

#include <math.h>
#include <string.h>

/* Values below 2 * 64 get a bucket each; above, the top 7 significant bits pick one. */
size_t fsc_histo_index(uint64_t ns)
{
    if (ns < 2 * FSC_HISTO_VAL)
        return (size_t)ns;
    unsigned msb = 63u - (unsigned)__builtin_clzll(ns);
    unsigned shift = msb - FSC_HISTO_BITS;
    size_t group_base = (size_t)(shift + 1) << FSC_HISTO_BITS;
    size_t idx = group_base + ((ns >> shift) & (FSC_HISTO_VAL - 1));
    return idx < FSC_HISTO_NR ? idx : FSC_HISTO_NR - 1;
}

uint64_t fsc_histo_value(size_t idx)
{
    if (idx < 2 * FSC_HISTO_VAL)
        return idx;
    unsigned shift = (unsigned)(idx >> FSC_HISTO_BITS) - 1;
    uint64_t low = ((uint64_t)FSC_HISTO_VAL + (idx & (FSC_HISTO_VAL - 1))) << shift;
    /* the middle of [low, low + 2^shift), as fio reports it */
    return low + (((uint64_t)1 << shift) >> 1);
}

void fsc_histo_add(fsc_histo *h, uint64_t ns)
{
    h->bins[fsc_histo_index(ns)]++;
    if (h->n == 0 || ns < h->min)
        h->min = ns;
    if (ns > h->max)
        h->max = ns;
    h->n++;
    double delta = (double)ns - h->mean;
    h->mean += delta / (double)h->n;
    h->m2 += delta * ((double)ns - h->mean);
}

void fsc_histo_merge(fsc_histo *dst, const fsc_histo *src)
{
    if (src->n == 0)
        return;
    for (size_t i = 0; i < FSC_HISTO_NR; i++)
        dst->bins[i] += src->bins[i];
    if (dst->n == 0 || src->min < dst->min)
        dst->min = src->min;
    if (src->max > dst->max)
        dst->max = src->max;
    /* Chan et al.: combine two (n, mean, m2) summaries */
    double n1 = (double)dst->n, n2 = (double)src->n, delta = src->mean - dst->mean;
    double n = n1 + n2;
    dst->mean += delta * n2 / n;
    dst->m2 += src->m2 + delta * delta * n1 * n2 / n;
    dst->n += src->n;
}

double fsc_histo_stddev(const fsc_histo *h)
{
    return h->n > 1 ? sqrt(h->m2 / (double)(h->n - 1)) : 0.0;
}

void fsc_histo_percentiles(const fsc_histo *h, const double *pcts, size_t n_pcts, uint64_t *out)
{
    size_t j = 0;
    uint64_t running = 0;
    memset(out, 0, n_pcts * sizeof *out);
    if (h->n == 0)
        return;
    for (size_t i = 0; i < FSC_HISTO_NR && j < n_pcts; i++) {
        running += h->bins[i];
        while (j < n_pcts && (long double)running >= (long double)pcts[j] / 100.0L * (long double)h->n)
            out[j++] = fsc_histo_value(i);
    }
    while (j < n_pcts) /* only reachable through rounding at 100% */
        out[j++] = fsc_histo_value(fsc_histo_index(h->max));
}
