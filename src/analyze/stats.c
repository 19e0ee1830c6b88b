/* SPDX-License-Identifier: MIT */
/* Small statistics for `compare` and pivots: median and the Mann-Whitney U test (as benchstat). */
#include "fioscope/analyze.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double fsc_median(const double *v, size_t n)
{
    double *s = malloc(n * sizeof *s);
    if (!s)
        return NAN;
    memcpy(s, v, n * sizeof *s);
    qsort(s, n, sizeof *s, cmp_double);
    double m = n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
    free(s);
    return m;
}

/* Number of values of sorted s[0..n) below v, and equal to v. */
static void count_below(const double *s, size_t n, double v, size_t *below, size_t *equal)
{
    size_t lo = 0, hi = n;
    while (lo < hi) { /* first >= v */
        size_t mid = lo + (hi - lo) / 2;
        if (s[mid] < v)
            lo = mid + 1;
        else
            hi = mid;
    }
    size_t e = lo;
    while (e < n && s[e] == v)
        e++;
    *below = lo;
    *equal = e - lo;
}

/* U of x: pairs where x wins, ties count half. O((nx + ny) log ny): each x looks up
 * its place among the sorted y (thousands of repeats a side stay cheap). */
static double u_statistic(const double *x, size_t nx, const double *y, size_t ny)
{
    double *sy = malloc((ny ? ny : 1) * sizeof *sy);
    if (!sy)
        return NAN;
    memcpy(sy, y, ny * sizeof *sy);
    qsort(sy, ny, sizeof *sy, cmp_double);
    double u = 0;
    for (size_t i = 0; i < nx; i++) {
        size_t below, equal;
        count_below(sy, ny, x[i], &below, &equal);
        u += (double)below + 0.5 * (double)equal;
    }
    free(sy);
    return u;
}

/* Sorted copy of x and y together; NULL on allocation failure. */
static double *pooled(const double *x, size_t nx, const double *y, size_t ny)
{
    double *all = malloc((nx + ny) * sizeof *all);
    if (!all)
        return NULL;
    memcpy(all, x, nx * sizeof *all);
    memcpy(all + nx, y, ny * sizeof *all);
    qsort(all, nx + ny, sizeof *all, cmp_double);
    return all;
}

/* Σ (t³ - t) over groups of tied values of the sorted array. */
static double tie_sum(const double *all, size_t n)
{
    double sum = 0;
    for (size_t i = 0; i < n;) {
        size_t j = i;
        while (j < n && all[j] == all[i])
            j++;
        double t = (double)(j - i);
        sum += t * t * t - t;
        i = j;
    }
    return sum;
}

/* Exact two-sided p for U (no ties): counts of arrangements by U, from
 * f(i, j, k) = f(i-1, j, k-j) + f(i, j-1, k), keeping two layers of i. */
static double exact_p(double u, size_t m, size_t n)
{
    size_t K = m * n + 1;
    double *prev = calloc((n + 1) * K, sizeof *prev), *cur = calloc((n + 1) * K, sizeof *cur);
    if (!prev || !cur) {
        free(prev);
        free(cur);
        return NAN;
    }
    for (size_t j = 0; j <= n; j++)
        prev[j * K] = 1; /* i = 0: one arrangement, U = 0 */
    for (size_t i = 1; i <= m; i++) {
        memset(cur, 0, (n + 1) * K * sizeof *cur);
        cur[0] = 1; /* j = 0 */
        for (size_t j = 1; j <= n; j++)
            for (size_t k = 0; k <= i * j; k++)
                cur[j * K + k] = (k >= j ? prev[j * K + k - j] : 0) + cur[(j - 1) * K + k];
        double *t = prev;
        prev = cur;
        cur = t;
    }
    double total = 0, below = 0, above = 0;
    for (size_t k = 0; k < K; k++) {
        double c = prev[n * K + k];
        total += c;
        if ((double)k <= u)
            below += c;
        if ((double)k >= u)
            above += c;
    }
    free(prev);
    free(cur);
    double p = 2 * fmin(below, above) / total;
    return p > 1 ? 1 : p;
}

/* Exact two-sided p with ties: every way of choosing which nx of the pooled values
 * belong to x, counted by their U (with ties as halves). Used when C(nx+ny, nx) is
 * small enough to enumerate. */
static double exact_p_ties(const double *all, size_t N, size_t nx, double u_obs)
{
    size_t idx[64];
    double below = 0, total = 0;
    double mean = (double)nx * (double)(N - nx) / 2;
    for (size_t i = 0; i < nx; i++)
        idx[i] = i;
    for (;;) {
        /* U of this choice: for each chosen value, pooled values not chosen that it beats */
        double u = 0;
        size_t k = 0;
        for (size_t j = 0; j < N; j++) {
            if (k < nx && idx[k] == j) {
                k++;
                continue;
            }
            for (size_t c = 0; c < nx; c++)
                u += all[idx[c]] > all[j] ? 1.0 : all[idx[c]] == all[j] ? 0.5 : 0.0;
        }
        total++;
        if (fabs(u - mean) >= fabs(u_obs - mean) - 1e-9)
            below++;
        size_t i = nx;
        while (i > 0 && idx[i - 1] == N - nx + i - 1)
            i--;
        if (i == 0)
            break;
        idx[i - 1]++;
        for (size_t j = i; j < nx; j++)
            idx[j] = idx[j - 1] + 1;
    }
    double p = below / total;
    return p > 1 ? 1 : p;
}

/* C(n, k) as a double (exact below 2^53). */
static double choose(size_t n, size_t k)
{
    double c = 1;
    if (k > n - k)
        k = n - k;
    for (size_t i = 1; i <= k; i++)
        c = c * (double)(n - k + i) / (double)i;
    return c;
}

double fsc_mann_whitney_p(const double *x, size_t nx, const double *y, size_t ny)
{
    if (!nx || !ny)
        return 1;
    double u = u_statistic(x, nx, y, ny);
    if (isnan(u))
        return NAN;
    double *all = pooled(x, nx, y, ny);
    if (!all)
        return NAN;
    size_t N = nx + ny;
    double ties = tie_sum(all, N);
    if (ties == 0 && nx <= 50 && ny <= 50) {
        free(all);
        return exact_p(u, nx, ny);
    }
    if (ties != 0 && nx + ny <= 60 && choose(N, nx) <= 5000) {
        double p = exact_p_ties(all, N, nx, u);
        free(all);
        return p;
    }
    free(all);
    double m = (double)nx, n = (double)ny, Nd = (double)N;
    double mu = m * n / 2;
    double var = m * n / 12 * ((Nd + 1) - ties / (Nd * (Nd - 1)));
    if (var <= 0)
        return 1;
    double d = fabs(u - mu) - 0.5; /* continuity correction */
    if (d <= 0)
        return 1;
    return erfc(d / sqrt(var) / sqrt(2.0));
}

bool fsc_mann_whitney_can_decide(size_t nx, size_t ny, double alpha)
{
    if (nx < 2 || ny < 2)
        return false;
    if (nx + ny > 60)
        return true;
    /* the most extreme arrangement has two-sided p = 2 / C(nx+ny, nx) */
    return 2 / choose(nx + ny, nx) < alpha;
}
