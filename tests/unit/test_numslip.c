/* SPDX-License-Identifier: MIT */
/* fio's rounding slip (numslip.h): which printed value of a pair slipped, on lines
 * of fio 2.21 and 3.13 and the pairs around them. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "numslip.h"

static size_t slips(const char *line, int group, fsc_slip *out)
{
    return fsc_slips_of_line(line, strlen(line), group, out);
}

static void test_job_line(void **state)
{
    (void)state;
    fsc_slip s[FSC_SLIP_FIELDS];
    /* fio 3.13 wrote 50.97 MiB/s so: the SI value beside it says 51.0 */
    assert_int_equal(slips("  read: IOPS=12.8k, BW=50.0MiB/s (53.4MB/s)(1500MiB/30001msec)", 0, s), 1);
    assert_int_equal(s[0].field, FSC_SLIP_BW);
    assert_true(s[0].shown_n == 50 && s[0].meant_n == 51);
    assert_string_equal(s[0].shown, "50.0MiB/s");
    assert_string_equal(s[0].meant, "51.0MiB/s");
    assert_string_equal(s[0].other, "53.4MB/s");
    /* the values agree: nothing to put right */
    assert_int_equal(slips("  read: IOPS=10.9k, BW=42.8MiB/s (44.8MB/s)(85.5MiB/2001msec)", 0, s), 0);
    assert_int_equal(slips("  write: IOPS=5678, BW=22.2MiB/s (23.3MB/s)(666MiB/30001msec); 0 zone resets", 0, s), 0);
    /* the SI value slipped (78.0 for 78.96): the first is right, read as it is */
    assert_int_equal(slips("  read: IOPS=19.3k, BW=75.3MiB/s (78.0MB/s)(754MiB/10001msec)", 0, s), 0);
    /* no decimals (num2str divides), or a fraction that is not all zeros: no slip */
    assert_int_equal(slips("  read: IOPS=857k, BW=3347MiB/s (3510MB/s)(6695MiB/2000msec)", 0, s), 0);
    assert_int_equal(slips("  read: IOPS=12.8k, BW=50.1MiB/s (53.4MB/s)(1500MiB/30001msec)", 0, s), 0);
    /* kb_base=1000: SI first, IEC beside it */
    assert_int_equal(slips("  read: IOPS=13.2k, BW=53.0MB/s (51.5MiB/s)(1620MB/30001msec)", 0, s), 1);
    assert_string_equal(s[0].meant, "54.0MB/s");
    /* a pair that N+1 does not mend either is left alone */
    assert_int_equal(slips("  read: IOPS=12.8k, BW=50.0MiB/s (60.0MB/s)(1500MiB/30001msec)", 0, s), 0);
    /* units of another kind beside it: no pair */
    assert_int_equal(slips("  read: IOPS=12.8k, BW=50.0MiB/s (427Mbit/s)(1500MiB/30001msec)", 0, s), 0);
}

static void test_job_io(void **state)
{
    (void)state;
    fsc_slip s[FSC_SLIP_FIELDS];
    /* a mail of fio's: 601MB/s over 100001 ms is 60.1 GB, 55.97 GiB: "55.0GiB" slipped */
    assert_int_equal(slips("  read: IOPS=147k, BW=573MiB/s (601MB/s)(55.0GiB/100001msec)", 0, s), 1);
    assert_int_equal(s[0].field, FSC_SLIP_IO);
    assert_string_equal(s[0].meant, "56.0GiB");
    assert_string_equal(s[0].other, "601MB/s over 100001ms");
    /* the bandwidth slipped too: the bytes are weighed with what it meant */
    assert_int_equal(slips("  read: IOPS=12.8k, BW=50.0MiB/s (53.4MB/s)(1500MiB/30001msec)", 0, s), 1);
    assert_int_equal(slips("  read: IOPS=147k, BW=573MiB/s (601MB/s)(56.0GiB/100001msec)", 0, s), 0);
    assert_int_equal(slips("  read: IOPS=147k, BW=573MiB/s (601MB/s)(55.0GiB/0msec)", 0, s), 0);
}

static void test_iops(void **state)
{
    (void)state;
    fsc_count_slip c;
    const char *line = "  write: IOPS=15.0k, BW=62.4MiB/s (65.4MB/s)(125MiB/2001msec); 0 zone resets";
    assert_true(fsc_iops_may_slip(line, strlen(line), &c));
    assert_string_equal(c.shown, "IOPS=15.0k");
    assert_string_equal(c.meant, "16.0k");
    assert_true(fsc_iops_slipped(&c, 31944, 2001));  /* 15964 a second */
    assert_false(fsc_iops_slipped(&c, 30001, 2001)); /* 14993: as printed */
    assert_false(fsc_iops_slipped(&c, 40000, 2001)); /* neither */
    assert_false(fsc_iops_slipped(&c, 31944, 0));
    static const char *const no[] = {"  read: IOPS=10.9k, BW=", "  read: IOPS=6391, BW=", "  read: IOPS=10.0", "IOPS=0.0k,",
                                     "IOPS=.0k,"};
    for (size_t i = 0; i < sizeof no / sizeof *no; i++)
        assert_false(fsc_iops_may_slip(no[i], strlen(no[i]), &c));
    assert_true(fsc_iops_may_slip("IOPS=7.00,", 10, &c) && c.decimals == 2 && c.mult == 1);
    assert_string_equal(c.meant, "8.00");
}

static void test_group_line(void **state)
{
    (void)state;
    fsc_slip s[FSC_SLIP_FIELDS];
    assert_int_equal(slips("   READ: bw=50.0MiB/s (53.4MB/s), 50.0MiB/s-50.0MiB/s (53.4MB/s-53.4MB/s), "
                           "io=1500MiB (1573MB), run=30001-30001msec", 1, s), 3);
    assert_int_equal(s[0].field, FSC_SLIP_BW);
    assert_int_equal(s[1].field, FSC_SLIP_BW_MIN);
    assert_int_equal(s[2].field, FSC_SLIP_BW_MAX);
    /* fio 3.13: the io slipped, its SI value without decimals (cut or rounded) */
    assert_int_equal(slips("  READ: bw=3310KiB/s (3390kB/s), 3310KiB/s-3310KiB/s (3390kB/s-3390kB/s), "
                           "io=98.0MiB (104MB), run=30306-30306msec", 1, s), 1);
    assert_int_equal(s[0].field, FSC_SLIP_IO);
    assert_string_equal(s[0].meant, "99.0MiB");
    /* a job's line read as a group's, and a group's cut short: what is there */
    assert_int_equal(slips("   READ: bw=50.0MiB/s (53.4MB/s)", 1, s), 1);
    assert_int_equal(slips("   READ: bw=50.0MiB/s (53.4MB/s), 50.0MiB/s-", 1, s), 1);
}

static void test_damage(void **state)
{
    (void)state;
    fsc_slip s[FSC_SLIP_FIELDS];
    static const char *const lines[] = {
        "BW=", "BW=1", "BW=1.0MiB/s (", "BW=1.0MiB/s (1.05MB/s", "BW=.0MiB/s (1.05MB/s)", "BW=1.MiB/s (1.05MB/s)",
        "BW=99999999999999999999.0MiB/s (1MB/s)", "BW=0.0KiB/s (1kB/s)", "bw=1.0MiB/s (1.05MB/s), -,", "BW=1.0000000000MiB/s (1.05MB/s)",
    };
    for (size_t i = 0; i < sizeof lines / sizeof *lines; i++) {
        assert_true(slips(lines[i], 0, s) <= 1);
        assert_true(slips(lines[i], 1, s) <= FSC_SLIP_FIELDS);
    }
    assert_int_equal(slips("BW=0.0KiB/s (1kB/s)", 0, s), 0); /* N = 0: no N+1 from it */
}

static void test_versions(void **state)
{
    (void)state;
    assert_true(fsc_slip_version(NULL));
    assert_true(fsc_slip_version("fio-2.21"));
    assert_true(fsc_slip_version("fio-3.13"));
    assert_true(fsc_slip_version("3.25"));
    assert_false(fsc_slip_version("fio-3.26"));
    assert_false(fsc_slip_version("fio-3.33"));
    assert_false(fsc_slip_version("fio-2.15"));
    assert_true(fsc_slip_version("fio-"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_job_line),
        cmocka_unit_test(test_job_io),
        cmocka_unit_test(test_iops),
        cmocka_unit_test(test_group_line),
        cmocka_unit_test(test_damage),
        cmocka_unit_test(test_versions),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
