/* SPDX-License-Identifier: MIT */
/* compare: the Mann-Whitney U test against known values, matching rules, repeats,
 * verdicts, and every format (golden files in tests/golden/compare-fixture/). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "fioscope/compare.h"
#include "fixture_runs.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define assert_near(a, b, eps) near_check((a), (b), (eps), __FILE__, __LINE__)
static void near_check(double a, double b, double eps, const char *file, int line)
{
    if (!(fabs(a - b) <= eps))
        fail_msg("%s:%d: %.17g != %.17g", file, line, a, b);
}

static void test_mann_whitney(void **state)
{
    (void)state;
    /* fully separated 5+5: exact p = 2/252 */
    double a[] = {1, 2, 3, 4, 5}, b[] = {6, 7, 8, 9, 10};
    assert_near(fsc_mann_whitney_p(a, 5, b, 5), 2.0 / 252, 1e-12);
    assert_near(fsc_mann_whitney_p(b, 5, a, 5), 2.0 / 252, 1e-12);
    /* 3+3 can never reach 0.05: the smallest p is 0.1 */
    assert_near(fsc_mann_whitney_p(a, 3, b, 3), 0.1, 1e-12);
    /* R's ?wilcox.test example: W = 35, one-sided p = 0.1272, two-sided 0.2544 */
    double x[] = {0.80, 0.83, 1.89, 1.04, 1.45, 1.38, 1.91, 1.64, 0.73, 1.46};
    double y[] = {1.15, 0.88, 0.90, 0.74, 1.21};
    assert_near(fsc_mann_whitney_p(x, 10, y, 5), 0.2544122544122544, 1e-12);
    /* interleaved: U = 10 of 25, p = 0.6905 (enumerated) */
    double odd[] = {1, 3, 5, 7, 9}, even[] = {2, 4, 6, 8, 10};
    assert_near(fsc_mann_whitney_p(odd, 5, even, 5), 0.6904761904761905, 1e-12);
    /* ties, few values: the exact permutation distribution (6 of the 252 splits are at
     * least as far from the middle); R's normal approximation says 0.01924 */
    double t1[] = {1, 2, 2, 3, 3}, t2[] = {3, 4, 4, 5, 6};
    assert_near(fsc_mann_whitney_p(t1, 5, t2, 5), 6.0 / 252, 1e-12);
    /* identical samples: nothing to see */
    assert_near(fsc_mann_whitney_p(t1, 5, t1, 5), 1.0, 0);
    assert_near(fsc_mann_whitney_p(t1, 0, t1, 5), 1.0, 0);
    /* large samples use the normal approximation */
    double big1[25], big2[25];
    for (int i = 0; i < 25; i++) {
        big1[i] = i;
        big2[i] = 100 + i;
    }
    assert_true(fsc_mann_whitney_p(big1, 25, big2, 25) < 1e-8);
    double m[] = {5, 1, 3, 2};
    assert_near(fsc_median(m, 4), 2.5, 0);
    assert_near(fsc_median(m, 3), 3, 0);
}

static const double base_scales[] = {1.0, 1.02, 0.98, 1.01, 0.99};
static const double new_scales[] = {1.2, 1.22, 1.19, 1.21, 1.18};

static void repeats(fsc_runset *set, const double *scales, size_t n, const char *h1)
{
    for (size_t i = 0; i < n; i++)
        fsc_runset_add(set, fx_psync_randread("P#1", scales[i], h1, "4k randread"));
}

static size_t col_of(const fsc_comparison *c, const char *name)
{
    for (size_t i = 0; i < c->n_cols; i++)
        if (!strcmp(c->cols[i].name, name))
            return i;
    fail_msg("no column %s", name);
    return 0;
}

static void test_repeats_significance(void **state)
{
    (void)state;
    fsc_runset base, neu;
    fsc_runset_init(&base);
    fsc_runset_init(&neu);
    repeats(&base, base_scales, 5, "ssd");
    repeats(&neu, new_scales, 5, "ssd");
    fsc_buf err = {0};
    fsc_status st;
    fsc_comparison *c = fsc_compare_build(&base, &neu, NULL, &err, &st);
    assert_non_null(c);
    assert_int_equal(st, FSC_OK);
    assert_int_equal(c->n_rows, 1);
    assert_string_equal(c->rows[0].label, "ssd \xe2\x80\xba 4k randread \xe2\x80\xba rr4k");
    const fsc_cmp_cell *iops = &c->rows[0].cells[col_of(c, "iops")];
    assert_int_equal(iops->base.n, 5);
    assert_near(iops->base.median, 10942.057942, 1e-6);
    assert_near(iops->new_.median, 10942.057942 * 1.2, 1e-6);
    assert_near(iops->delta_pct, 20.0, 1e-9);
    assert_near(iops->change, 10942.057942 * 0.2, 1e-6);
    assert_near(iops->base.spread_pct, 2.0, 1e-9);
    assert_true(iops->tested);
    assert_near(iops->p, 2.0 / 252, 1e-12);
    assert_true(iops->significant);
    assert_int_equal(iops->verdict, 1);
    const fsc_cmp_cell *lat = &c->rows[0].cells[col_of(c, "lat")];
    assert_near(lat->new_.median, 88756.390669 / 1.2, 1e-6);
    assert_int_equal(lat->verdict, 1); /* lower latency is better */
    const fsc_cmp_cell *cpu = &c->rows[0].cells[col_of(c, "cpu")];
    assert_false(cpu->significant); /* same cpu everywhere */
    assert_int_equal(cpu->verdict, 0);
    fsc_comparison_free(c);

    /* 3+3 repeats cannot be significant at 0.05 */
    fsc_runset_clear(&base);
    fsc_runset_clear(&neu);
    repeats(&base, base_scales, 3, "ssd");
    repeats(&neu, new_scales, 3, "ssd");
    c = fsc_compare_build(&base, &neu, NULL, &err, &st);
    iops = &c->rows[0].cells[col_of(c, "iops")];
    assert_near(iops->p, 0.1, 1e-12);
    assert_false(iops->significant);
    assert_int_equal(iops->verdict, 0);
    fsc_comparison_free(c);
    fsc_runset_clear(&base);
    fsc_runset_clear(&neu);
    fsc_buf_free(&err);
}

static void test_matching(void **state)
{
    (void)state;
    fsc_runset base, neu;
    fsc_runset_init(&base);
    fsc_runset_init(&neu);
    repeats(&base, base_scales, 1, "RAID 0");
    fsc_runset_add(&base, fx_libaio_mixed("P#2"));
    repeats(&neu, new_scales, 1, "RAID 5");
    fsc_runset_add(&neu, fx_libaio_mixed("P#2"));
    fsc_buf err = {0};
    fsc_status st;
    /* by label: rr4k differs (RAID 0 vs RAID 5), mix matches as read/write/total */
    fsc_compare_opts o = {.match = "label"};
    fsc_comparison *c = fsc_compare_build(&base, &neu, &o, &err, &st);
    assert_non_null(c);
    assert_int_equal(c->n_rows, 3);
    assert_string_equal(c->rows[0].label, "mix [read]");
    assert_true(c->rows[0].per_dir);
    assert_string_equal(c->rows[2].label, "mix");
    assert_false(c->rows[2].per_dir);
    size_t ci = col_of(c, "iops");
    /* both mix jobs of the run summed; single runs: no test and no verdict */
    assert_near(c->rows[0].cells[ci].base.median, 15021.978022 + 14929.070929, 1e-6);
    assert_false(c->rows[0].cells[ci].tested);
    assert_false(c->rows[0].cells[ci].decided);
    assert_false(c->rows[0].cells[ci].significant);
    assert_int_equal(c->rows[0].cells[ci].verdict, 0);
    assert_near(c->rows[0].cells[ci].delta_pct, 0, 0);
    assert_int_equal(c->n_only_base, 1);
    assert_string_equal(c->only_base[0], "RAID 0 \xe2\x80\xba 4k randread \xe2\x80\xba rr4k");
    assert_int_equal(c->n_only_new, 1);
    fsc_comparison_free(c);

    /* auto: the workload pairs 4 rows, the label 3 */
    c = fsc_compare_build(&base, &neu, NULL, &err, &st);
    assert_int_equal(c->n_rows, 4);
    assert_string_equal(c->rows[0].label, "randread 4k qd1 x1");
    assert_string_equal(c->match, "workload");
    fsc_comparison_free(c);

    o.match = "jobname";
    c = fsc_compare_build(&base, &neu, &o, &err, &st);
    assert_int_equal(c->n_rows, 4);
    assert_string_equal(c->rows[0].label, "rr4k");
    assert_near(c->rows[0].cells[col_of(c, "iops")].delta_pct, 20.0, 1e-9);
    /* geomean over rr4k (+20%) and the mix total (0%), not the per-direction rows */
    const fsc_cmp_cell *g = &c->geomean[col_of(c, "iops")];
    assert_true(g->present);
    assert_int_equal(g->base.n, 2);
    assert_near(g->delta_pct, (sqrt(1.2) - 1) * 100, 1e-9);
    fsc_comparison_free(c);

    o.match = "\xe2\x80\xba ([^\xe2\x80\xba]*)$"; /* the text after the last " › " */
    c = fsc_compare_build(&base, &neu, &o, &err, &st);
    assert_int_equal(c->n_rows, 4);
    assert_string_equal(c->rows[0].label, "rr4k");
    fsc_comparison_free(c);

    o.match = "(";
    assert_null(fsc_compare_build(&base, &neu, &o, &err, &st));
    assert_int_equal(st, FSC_E_USAGE);
    fsc_buf_reset(&err);
    o.match = NULL;
    o.metrics = "iops,p99x";
    assert_null(fsc_compare_build(&base, &neu, &o, &err, &st));
    assert_int_equal(st, FSC_E_USAGE);
    assert_string_equal(err.data, "unknown metric 'p99x'");
    fsc_runset_clear(&base);
    fsc_runset_clear(&neu);
    fsc_buf_free(&err);
}

static void test_single_labels_pair(void **state)
{
    (void)state;
    fsc_runset base, neu;
    fsc_runset_init(&base);
    fsc_runset_init(&neu);
    repeats(&base, base_scales, 1, "old disk");
    repeats(&neu, new_scales, 1, "new disk");
    fsc_buf err = {0};
    fsc_comparison *c = fsc_compare_build(&base, &neu, NULL, &err, NULL);
    assert_int_equal(c->n_rows, 1);
    assert_int_equal(c->n_only_base + c->n_only_new, 0);
    assert_string_equal(c->rows[0].label, "randread 4k qd1 x1"); /* paired by workload */
    fsc_comparison_free(c);
    fsc_runset_clear(&base);
    fsc_runset_clear(&neu);
    fsc_buf_free(&err);
}


static void test_golden_formats(void **state)
{
    (void)state;
    static const char *const formats[] = {"text", "md", "csv", "tsv", "json"};
    fsc_runset base, neu;
    fsc_runset_init(&base);
    fsc_runset_init(&neu);
    repeats(&base, base_scales, 5, "ssd");
    repeats(&neu, new_scales, 5, "ssd");
    fsc_runset_add(&base, fx_libaio_mixed("P#2"));
    fsc_runset_add(&neu, fx_libaio_mixed("P#2"));
    fsc_buf err = {0};
    fsc_comparison *c = fsc_compare_build(&base, &neu, NULL, &err, NULL);
    assert_non_null(c);
    for (size_t i = 0; i < sizeof formats / sizeof *formats; i++) {
        fsc_buf out = {0};
        char name[32];
        assert_int_equal(fsc_compare_render(c, formats[i], false, &out), FSC_OK);
        snprintf(name, sizeof name, "expected.%s", formats[i]);
        fsc_test_check_golden("compare-fixture", name, &out);
        fsc_buf_free(&out);
    }
    fsc_buf out = {0};
    assert_int_equal(fsc_compare_render(c, "text", true, &out), FSC_OK);
    assert_non_null(strstr(out.data, "\033[32m+20.00%\033[0m (p=0.008 n=5+5)"));
    fsc_test_check_golden("compare-fixture", "expected.color", &out);
    fsc_buf_free(&out);
    assert_int_equal(fsc_compare_render(c, "html", false, &out), FSC_E_USAGE);
    fsc_buf_free(&out);
    fsc_comparison_free(c);
    fsc_runset_clear(&base);
    fsc_runset_clear(&neu);
    fsc_buf_free(&err);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_mann_whitney),      cmocka_unit_test(test_repeats_significance),
        cmocka_unit_test(test_matching),          cmocka_unit_test(test_single_labels_pair),
        cmocka_unit_test(test_golden_formats),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
