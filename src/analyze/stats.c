/* SPDX-License-Identifier: MIT */
/* Small statistics for `compare`: median and the Mann-Whitney U test (as benchstat). */
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

/* U of x: pairs where x wins, ties count half. */
static double u_statistic(const double *x, size_t nx, const double *y, size_t ny)
{
    double u = 0;
    for (size_t i = 0; i < nx; i++)
        for (size_t j = 0; j < ny; j++)
            u += x[i] > y[j] ? 1.0 : x[i] == y[j] ? 0.5 : 0.0;
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

/* Exact two-sided p for U (no ties): counts of arrangements by U, built with
 * f(m, n, k) = f(m-1, n, k-n) + f(m, n-1, k). */
static double exact_p(double u, size_t m, size_t n)
{
    size_t K = m * n + 1;
    double *f = calloc((m + 1) * (n + 1) * K, sizeof *f);
    if (!f)
        return NAN;
#define F(i, j, k) f[((i) * (n + 1) + (j)) * K + (k)]
    for (size_t i = 0; i <= m; i++)
        for (size_t j = 0; j <= n; j++) {
            if (i == 0 || j == 0) {
                F(i, j, 0) = 1;
                continue;
            }
            for (size_t k = 0; k <= i * j; k++)
                F(i, j, k) = (k >= j ? F(i - 1, j, k - j) : 0) + F(i, j - 1, k);
        }
    double total = 0, below = 0, above = 0;
    for (size_t k = 0; k < K; k++) {
        double c = F(m, n, k);
        total += c;
        if ((double)k <= u)
            below += c;
        if ((double)k >= u)
            above += c;
    }
#undef F
    free(f);
    double p = 2 * fmin(below, above) / total;
    return p > 1 ? 1 : p;
}

double fsc_mann_whitney_p(const double *x, size_t nx, const double *y, size_t ny)
{
    if (!nx || !ny)
        return 1;
    double u = u_statistic(x, nx, y, ny);
    double *all = pooled(x, nx, y, ny);
    if (!all)
        return NAN;
    size_t N = nx + ny;
    double ties = tie_sum(all, N);
    free(all);
    if (ties == 0 && nx <= 20 && ny <= 20)
        return exact_p(u, nx, ny);
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
