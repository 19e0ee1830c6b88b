/* SPDX-License-Identifier: MIT */
/* Edit distance and "did you mean" picks. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "fioscope/suggest.h"

#define D(a, b) fsc_edit_distance(a, strlen(a), b, strlen(b))

static void test_distance(void **state)
{
    (void)state;
    assert_int_equal(D("", ""), 0);
    assert_int_equal(D("iops", "iops"), 0);
    assert_int_equal(D("iopz", "iops"), 1);       /* substitution */
    assert_int_equal(D("iodeth", "iodepth"), 1);  /* insertion */
    assert_int_equal(D("tabel", "table"), 1);     /* adjacent swap */
    assert_int_equal(D("IOPS", "iops"), 4);       /* bytes compared exactly */
    assert_int_equal(D("ab", "ba"), 1);
    assert_int_equal(D("kitten", "sitting"), 3);
    assert_int_equal(D("abc", ""), 3);
    char long_name[200];
    memset(long_name, 'a', sizeof long_name - 1);
    long_name[sizeof long_name - 1] = '\0';
    assert_true(D(long_name, "a") == SIZE_MAX);
}

static void test_nearest(void **state)
{
    static const char *const cmds[] = {"parse", "table", "compare", "report", "chart", "run", NULL};
    (void)state;
    assert_string_equal(fsc_nearest("tabel", cmds, 7), "table");
    assert_string_equal(fsc_nearest("comapre", cmds, 7), "compare");
    assert_string_equal(fsc_nearest("rn", cmds, 7), "run");
    assert_string_equal(fsc_nearest("TABLE", cmds, 7), "table"); /* case folded */
    assert_null(fsc_nearest("xyz", cmds, 7));          /* nothing close */
    assert_null(fsc_nearest("zz", cmds, 7));
    assert_null(fsc_nearest("frobnicate", cmds, 7));
    static const char *const m[] = {"iops", "bw", "lat", "clat", "slat"};
    assert_string_equal(fsc_nearest("iopz", m, 5), "iops");
    assert_string_equal(fsc_nearest("clat", m, 5), "clat");
    assert_null(fsc_nearest("b", m, 5)); /* one letter is no typo of anything */

    fsc_nearest_acc acc;
    fsc_nearest_init(&acc, "iodeth");
    fsc_nearest_offer(&acc, "iodepth");
    fsc_nearest_offer(&acc, "iodepth_batch");
    fsc_nearest_offer(&acc, NULL);
    assert_string_equal(fsc_nearest_best(&acc), "iodepth");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_distance),
        cmocka_unit_test(test_nearest),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
