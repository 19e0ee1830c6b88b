/* SPDX-License-Identifier: MIT */
/* The shared CLI options of the reading commands (--fail-on, --max-member-size,
 * --max-ratio, -j) and the exit status policy, from src/cli/common.c. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "common.c" /* the CLI is an executable: its helpers are compiled in here */

/* Feed one option (and maybe its value) to fsc_cli_common_opt. */
static int opt(fsc_cli_common *c, const char *a, const char *b)
{
    char *argv[] = {(char *)"parse", (char *)a, (char *)b, NULL};
    int argc = b ? 3 : 2, i = 1;
    int r = fsc_cli_common_opt(c, argc, argv, &i);
    if (r == 1)
        assert_int_equal(i, argc - 1); /* the value was consumed too */
    return r;
}

static void test_options(void **state)
{
    (void)state;
    fsc_cli_common c = {0};
    assert_int_equal(opt(&c, "--max-member-size=1G", NULL), 1);
    assert_true(c.input.max_member_bytes == (uint64_t)1 << 30);
    assert_int_equal(opt(&c, "--max-member-size", "512MiB"), 1);
    assert_true(c.input.max_member_bytes == (uint64_t)512 << 20);
    assert_int_equal(opt(&c, "--max-member-size=4096", NULL), 1);
    assert_true(c.input.max_member_bytes == 4096);
    assert_int_equal(opt(&c, "--max-member-size=64k", NULL), 1);
    assert_true(c.input.max_member_bytes == 65536);
    assert_int_equal(opt(&c, "--max-member-size=12X", NULL), -1);
    assert_int_equal(opt(&c, "--max-member-size=0", NULL), -1);
    assert_int_equal(opt(&c, "--max-member-size=-5M", NULL), -1);
    assert_int_equal(opt(&c, "--max-member-size=99999999999T", NULL), -1); /* overflows */
    assert_int_equal(opt(&c, "--max-ratio=250", NULL), 1);
    assert_true(c.input.max_ratio == 250);
    assert_int_equal(opt(&c, "--max-ratio=0", NULL), -1);
    assert_int_equal(opt(&c, "-j", "3"), 1);
    assert_int_equal(c.input.jobs, 3);
    assert_int_equal(opt(&c, "-j7", NULL), 1);
    assert_int_equal(c.input.jobs, 7);
    assert_int_equal(opt(&c, "--jobs=0", NULL), -1);
    assert_int_equal(opt(&c, "--fail-on=warning,no-runs", NULL), 1);
    assert_int_equal(c.fail_on, FSC_FAIL_WARNING | FSC_FAIL_NO_RUNS);
    assert_int_equal(opt(&c, "--fail-on", "none"), 1);
    assert_int_equal(c.fail_on, FSC_FAIL_NONE);
    assert_int_equal(opt(&c, "--fail-on=error,bogus", NULL), -1);
    assert_int_equal(opt(&c, "--fail-on=", NULL), -1);
    assert_int_equal(opt(&c, "--jsonl", NULL), 0); /* not a common option */
}

static void test_exit_status(void **state)
{
    (void)state;
    /* a.log named (ok, one warning); b.tgz named: its member holds no run */
    fsc_input_entry items[] = {
        {(char *)"a.log", NULL, FSC_IN_OK, 2, 1, NULL, 0},
        {(char *)"b.tgz", (char *)"x.txt", FSC_IN_NO_RUNS, 0, 0, NULL, 1},
    };
    fsc_manifest m = {items, 2, 2};
    fsc_cli_common c = {0};
    assert_int_equal(fsc_cli_exit_status(&c, &m, 2), FSC_EXIT_INPUT); /* default: no-runs fails */
    c.fail_on = FSC_FAIL_ERROR;
    assert_int_equal(fsc_cli_exit_status(&c, &m, 2), FSC_EXIT_OK);
    c.fail_on = FSC_FAIL_ERROR | FSC_FAIL_WARNING; /* a.log has a warning */
    assert_int_equal(fsc_cli_exit_status(&c, &m, 2), FSC_EXIT_INPUT);
    c.fail_on = FSC_FAIL_NONE;
    assert_int_equal(fsc_cli_exit_status(&c, &m, 2), FSC_EXIT_OK);
    items[1].status = FSC_IN_OK;
    items[1].runs = 1;
    assert_int_equal(fsc_cli_exit_status(NULL, &m, 2), FSC_EXIT_OK);
    /* a member without runs beside one with runs: skipped quietly, exit 0 */
    fsc_input_entry walk[] = {
        {(char *)"d/a.log", NULL, FSC_IN_OK, 3, 0, NULL, 0},
        {(char *)"d/a.log.cmd", NULL, FSC_IN_NO_RUNS, 0, 0, NULL, 0},
        {(char *)"d/README", NULL, FSC_IN_NO_RUNS, 0, 0, NULL, 0},
        {(char *)"e/notes.txt", NULL, FSC_IN_NO_RUNS, 0, 0, NULL, 1},
    };
    fsc_manifest w = {walk, 3, 3};
    assert_int_equal(fsc_cli_exit_status(NULL, &w, 1), FSC_EXIT_OK);
    /* an error found by the walk still counts */
    walk[2].status = FSC_IN_ERROR;
    assert_int_equal(fsc_cli_exit_status(NULL, &w, 1), FSC_EXIT_INPUT);
    c.fail_on = FSC_FAIL_NO_RUNS;
    assert_int_equal(fsc_cli_exit_status(&c, &w, 1), FSC_EXIT_OK);
    /* a named directory without any run counts */
    w.n = 4;
    assert_int_equal(fsc_cli_exit_status(&c, &w, 2), FSC_EXIT_INPUT);
    /* a named input with no entry at all (an empty directory) gave no run */
    w.n = 3;
    assert_int_equal(fsc_cli_exit_status(&c, &w, 2), FSC_EXIT_INPUT);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_options),
        cmocka_unit_test(test_exit_status),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
