/* SPDX-License-Identifier: MIT */
/* The log-linear latency histogram and its percentiles against known distributions. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "fioscope/engine.h"

/* Below 128 ns every value has its own bucket and comes back exactly. */
static void test_exact_below_128(void **state)
{
    (void)state;
    for (uint64_t v = 0; v < 128; v++) {
        assert_int_equal(fsc_histo_index(v), v);
        assert_int_equal(fsc_histo_value(fsc_histo_index(v)), v);
    }
}

/* Bucket edges: 128 and 130 start buckets of width 2, 256 starts width 4; the
 * representative is the middle; relative error at most 1/64 everywhere above. */
static void test_edges_and_error_bound(void **state)
{
    (void)state;
    assert_int_equal(fsc_histo_index(128), 128);
    assert_int_equal(fsc_histo_index(129), 128);
    assert_int_equal(fsc_histo_index(130), 129);
    assert_int_equal(fsc_histo_value(128), 129);
    assert_int_equal(fsc_histo_index(255), 191);
    assert_int_equal(fsc_histo_index(256), 192);
    assert_int_equal(fsc_histo_value(192), 258);
    /* fio's real values: 1560, 1752 and 23199744 are representatives it printed */
    assert_int_equal(fsc_histo_value(fsc_histo_index(1560)), 1560);
    assert_int_equal(fsc_histo_value(fsc_histo_index(1752)), 1752);
    assert_int_equal(fsc_histo_value(fsc_histo_index(23199744)), 23199744);
    for (uint64_t v = 128; v < (1ull << 34); v = v * 1.37 + 1) {
        uint64_t r = fsc_histo_value(fsc_histo_index(v));
        assert_true(fabs((double)r - (double)v) <= (double)v / 64.0);
    }
    /* indices are monotonic */
    for (uint64_t v = 1; v < 100000; v++)
        assert_true(fsc_histo_index(v) >= fsc_histo_index(v - 1));
    /* far beyond the last group: the last bucket */
    assert_int_equal(fsc_histo_index(UINT64_MAX), FSC_HISTO_NR - 1);
}

/* Uniform 1..100000 ns: the p-th percentile is p*1000 within the 1/64 bound. */
static void test_uniform_percentiles(void **state)
{
    (void)state;
    fsc_histo *h = calloc(1, sizeof *h);
    assert_non_null(h);
    for (uint64_t v = 1; v <= 100000; v++)
        fsc_histo_add(h, v);
    static const double pcts[] = {1, 5, 10, 50, 90, 99, 99.9, 99.99};
    uint64_t out[8];
    fsc_histo_percentiles(h, pcts, 8, out);
    for (size_t i = 0; i < 8; i++) {
        double want = pcts[i] * 1000.0;
        assert_true(fabs((double)out[i] - want) <= want / 64.0 + 1);
    }
    assert_int_equal(h->n, 100000);
    assert_int_equal(h->min, 1);
    assert_int_equal(h->max, 100000);
    assert_true(fabs(h->mean - 50000.5) < 1e-6);
    /* sample stddev of 1..N is sqrt(N(N+1)/12) */
    assert_true(fabs(fsc_histo_stddev(h) - sqrt(100000.0 * 100001.0 / 12.0)) < 1e-3);
    free(h);
}

/* Small exact case: values 10, 20, ..., 100 (all below 128, so exact). */
static void test_small_exact(void **state)
{
    (void)state;
    fsc_histo *h = calloc(1, sizeof *h);
    for (uint64_t v = 10; v <= 100; v += 10)
        fsc_histo_add(h, v);
    static const double pcts[] = {10, 50, 55, 90, 100};
    uint64_t out[5];
    fsc_histo_percentiles(h, pcts, 5, out);
    assert_int_equal(out[0], 10);  /* 1 of 10 reached at the first value */
    assert_int_equal(out[1], 50);
    assert_int_equal(out[2], 60);
    assert_int_equal(out[3], 90);
    assert_int_equal(out[4], 100);
    free(h);
}

/* Merging two halves gives the same histogram and moments as adding everything. */
static void test_merge(void **state)
{
    (void)state;
    fsc_histo *a = calloc(1, sizeof *a), *b = calloc(1, sizeof *b), *all = calloc(1, sizeof *all);
    for (uint64_t v = 1; v < 5000; v += 3) {
        fsc_histo_add(v % 2 ? a : b, v * 7);
        fsc_histo_add(all, v * 7);
    }
    fsc_histo_merge(a, b);
    assert_int_equal(a->n, all->n);
    assert_int_equal(a->min, all->min);
    assert_int_equal(a->max, all->max);
    assert_memory_equal(a->bins, all->bins, sizeof a->bins);
    assert_true(fabs(a->mean - all->mean) < 1e-6);
    assert_true(fabs(fsc_histo_stddev(a) - fsc_histo_stddev(all)) < 1e-6);
    free(a), free(b), free(all);
}

static void test_empty(void **state)
{
    (void)state;
    fsc_histo *h = calloc(1, sizeof *h);
    static const double pcts[] = {50, 99};
    uint64_t out[2] = {7, 7};
    fsc_histo_percentiles(h, pcts, 2, out);
    assert_int_equal(out[0], 0);
    assert_int_equal(out[1], 0);
    assert_true(fsc_histo_stddev(h) == 0.0);
    free(h);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_exact_below_128), cmocka_unit_test(test_edges_and_error_bound),
        cmocka_unit_test(test_uniform_percentiles), cmocka_unit_test(test_small_exact),
        cmocka_unit_test(test_merge), cmocka_unit_test(test_empty),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
