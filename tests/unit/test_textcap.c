/* SPDX-License-Identifier: MIT */
/* Text and Markdown table cells are cut in the middle to FSC_CELL_MAX_COLS columns. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "emit/emit_int.h"
#include "fioscope/chart.h"

static void check_cap(const char *in, size_t cols, const char *want)
{
    char *got = fsc_text_cap(in, cols);
    if (!want)
        assert_null(got);
    else
        assert_string_equal(got, want);
    free(got);
}

static void test_cap(void **state)
{
    (void)state;
    check_cap("short", 10, NULL);
    check_cap("0123456789", 10, NULL);
    check_cap("0123456789A", 10, "0123\xe2\x80\xa6" "6789A");
    check_cap("\xe9\x9a\x8f\xe6\x9c\xba\xe5\x86\x99\xe5\x85\xa5\xe6\xb5\x8b\xe8\xaf\x95", 7, /* 随机写入测试: 12 cols */
              "\xe9\x9a\x8f\xe2\x80\xa6\xe8\xaf\x95"); /* 随…试: head and tail get 3 columns each */
    check_cap("e\xcc\x81" "eeeeeeeeeeeee\xcc\x81", 5, "e\xcc\x81" "e\xe2\x80\xa6" "ee\xcc\x81");
    check_cap("\x1b[32m+1.00%\x1b[0m and a long tail", 5, NULL); /* our own colours */
}

static void test_grid_bounded(void **state)
{
    (void)state;
    size_t n = 200000;
    char *big = malloc(n + 1);
    memset(big, 'x', n);
    big[n] = 0;
    const char *cells[] = {"label", "IOPS", "a", "1", big, "2"};
    const bool right[] = {false, true};
    fsc_buf text = {0}, md = {0};
    fsc_grid_text(&text, cells, 3, 2, right);
    fsc_grid_md(&md, cells, 3, 2, right);
    /* every line at most the widest allowed cell, two spaces and the number */
    assert_true(text.len < 3 * (FSC_CELL_MAX_COLS * 3 + 10));
    assert_true(md.len < 4 * (FSC_CELL_MAX_COLS * 3 + 20));
    assert_non_null(strstr(text.data, "xxx\xe2\x80\xa6xxx"));
    assert_non_null(strstr(md.data, "xxx\xe2\x80\xa6xxx"));
    fsc_buf_free(&text);
    fsc_buf_free(&md);
    free(big);
}

/* Chart names stay unique (numjobs clones get " #k") in constant time per name. */
static void test_chart_names(void **state)
{
    (void)state;
    fsc_chart *c = fsc_chart_new(FSC_CHART_BAR, "t");
    const char *in[] = {"a", "a", "a #2", "a", "b"};
    const char *want[] = {"a", "a #2", "a #2 #2", "a #3", "b"};
    for (size_t i = 0; i < 5; i++) {
        assert_true(fsc_chart_add_category(c, in[i]));
        assert_string_equal(c->categories[i], want[i]);
        assert_non_null(fsc_chart_add_series(c, in[i]));
        assert_string_equal(c->series[i].name, want[i]);
    }
    for (size_t i = 0; i < 100000; i++)
        assert_true(fsc_chart_add_category(c, "clone"));
    assert_string_equal(c->categories[5 + 99999], "clone #100000");
    fsc_chart_free(c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_cap), cmocka_unit_test(test_grid_bounded),
                                       cmocka_unit_test(test_chart_names)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
