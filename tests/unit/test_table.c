/* SPDX-License-Identifier: MIT */
/* Tables: human units, metric names, grouping, mixed read/write rows, every renderer
 * (golden files in tests/golden/table-fixture/, FSC_UPDATE_GOLDEN=1 rewrites them). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "fioscope/table.h"
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

static void expect_human(double v, fsc_unit u, const char *want)
{
    fsc_buf b = {0};
    fsc_format_human(&b, v, u);
    assert_string_equal(b.data, want);
    fsc_buf_free(&b);
}

static void test_format_human(void **state)
{
    (void)state;
    expect_human(266338304, FSC_UNIT_BYTES_PER_S, "254 MiB/s");
    expect_human(3833374.99, FSC_UNIT_NS, "3.83 ms");
    expect_human(65100, FSC_UNIT_IOPS, "65.1k");
    expect_human(10942.057942, FSC_UNIT_IOPS, "10.9k");
    expect_human(812, FSC_UNIT_IOPS, "812");
    expect_human(6.391608392, FSC_UNIT_IOPS, "6.39");
    expect_human(44818669, FSC_UNIT_BYTES_PER_S, "42.7 MiB/s");
    expect_human(43768, FSC_UNIT_KIB_PER_S, "42.7 MiB/s");
    expect_human(4096, FSC_UNIT_BYTES, "4.00 KiB");
    expect_human(512, FSC_UNIT_BYTES, "512 B");
    expect_human(1000000, FSC_UNIT_BYTES, "977 KiB");
    expect_human(1048575, FSC_UNIT_BYTES, "1.00 MiB"); /* 1023.999 KiB rounds up a unit */
    expect_human(88627.480142, FSC_UNIT_NS, "88.6 µs");
    expect_human(577536, FSC_UNIT_NS, "578 µs");
    expect_human(999.7, FSC_UNIT_NS, "1.00 µs");
    expect_human(962, FSC_UNIT_NS, "962 ns");
    expect_human(1001, FSC_UNIT_MS, "1.00 s");
    expect_human(34, FSC_UNIT_PCT, "34.0%");
    expect_human(2.5e6, FSC_UNIT_IOPS, "2.50M");
    expect_human(-65100, FSC_UNIT_IOPS, "-65.1k");
}

static void test_text_width(void **state)
{
    (void)state;
    const char *cjk = "4k \xe9\x9a\x8f\xe6\x9c\xba\xe5\x86\x99"; /* "4k 随机写" */
    assert_int_equal(fsc_text_width(cjk, strlen(cjk)), 9);
    assert_int_equal(fsc_text_width("RAID 0", 6), 6);
    assert_int_equal(fsc_text_width("\xc2\xb5s", 3), 2);   /* µs */
    assert_int_equal(fsc_text_width("e\xcc\x81", 3), 1);   /* e + combining acute */
    assert_int_equal(fsc_text_width("\xff\xfe", 2), 2);    /* invalid bytes: 1 each */
}

static void make_set(fsc_runset *set)
{
    fsc_runset_init(set);
    fsc_runset_add(set, fx_psync_randread("P#1", 1.0, "RAID 0", "4k \xe9\x9a\x8f\xe6\x9c\xba\xe8\xaf\xbb"));
    fsc_runset_add(set, fx_libaio_mixed("P#1"));
}

static size_t col_of(const fsc_table *t, const char *name)
{
    for (size_t c = 0; c < t->n_cols; c++)
        if (!strcmp(t->cols[c].name, name))
            return c;
    fail_msg("no column %s", name);
    return 0;
}

static double num(const fsc_table *t, size_t r, const char *name)
{
    const fsc_cell *c = &t->rows[r].cells[col_of(t, name)];
    assert_int_equal(c->kind, FSC_CELL_NUM);
    return c->num;
}

static const char *text(const fsc_table *t, size_t r, const char *name)
{
    const fsc_cell *c = &t->rows[r].cells[col_of(t, name)];
    assert_int_equal(c->kind, FSC_CELL_TEXT);
    return c->text;
}

static void test_unknown_metric(void **state)
{
    (void)state;
    fsc_runset set;
    fsc_buf err = {0};
    make_set(&set);
    assert_null(fsc_table_build(&set, "iops,p99x", FSC_BY_JOB, FSC_LABEL_HEADING, &err));
    assert_string_equal(err.data, "unknown metric 'p99x'");
    fsc_buf_reset(&err);
    assert_null(fsc_table_build(&set, "read.clat_ns.p101", FSC_BY_JOB, FSC_LABEL_HEADING, &err));
    assert_string_equal(err.data, "unknown metric 'read.clat_ns.p101'");
    fsc_buf_reset(&err);
    assert_null(fsc_table_build(&set, "write.bogus", FSC_BY_JOB, FSC_LABEL_HEADING, &err));
    fsc_metric m;
    assert_true(fsc_metric_lookup("read.clat_ns.p99.9", &m, NULL));
    assert_int_equal(m.unit, FSC_UNIT_NS);
    assert_false(m.higher_better);
    assert_true(fsc_metric_lookup("bw", &m, NULL));
    assert_true(m.higher_better);
    assert_false(fsc_metric_lookup("bw_mean", &m, NULL)); /* KiB/s fields need a direction */
    fsc_buf_free(&err);
    fsc_runset_clear(&set);
}

static void test_by_job_default(void **state)
{
    (void)state;
    fsc_runset set;
    fsc_buf err = {0};
    make_set(&set);
    fsc_table *t = fsc_table_build(&set, NULL, FSC_BY_JOB, FSC_LABEL_HEADING, &err);
    assert_non_null(t);
    /* rr4k; then each mix job as read, write, total */
    assert_int_equal(t->n_rows, 7);
    assert_string_equal(text(t, 0, "label"), "RAID 0 \xe2\x80\xba 4k \xe9\x9a\x8f\xe6\x9c\xba\xe8\xaf\xbb \xe2\x80\xba rr4k");
    assert_string_equal(text(t, 0, "dir"), "read");
    assert_string_equal(text(t, 0, "rw"), "randread");
    /* fio's JSON lists only the options a job set: iodepth is fio's default */
    assert_string_equal(text(t, 0, "iodepth"), "1");
    assert_string_equal(text(t, 0, "jobs"), "1");
    assert_near(num(t, 0, "iops"), 10942.057942, 1e-9);
    assert_near(num(t, 0, "bw"), 44818669, 0);
    assert_near(num(t, 0, "lat"), 88756.390669, 1e-9);
    assert_near(num(t, 0, "clat.p99"), 577536, 0);
    assert_near(num(t, 0, "cpu"), 34.0, 1e-9);

    assert_string_equal(text(t, 1, "dir"), "read");
    assert_int_equal(t->rows[1].dir, FSC_DIR_READ);
    assert_near(num(t, 1, "iops"), 15021.978022, 1e-9);
    assert_string_equal(text(t, 2, "dir"), "write");
    assert_near(num(t, 2, "clat.p99"), 4177920, 0);
    assert_string_equal(text(t, 3, "dir"), "total");
    assert_true(t->rows[3].total);
    assert_near(num(t, 3, "iops"), 15021.978022 + 6391.608392, 1e-9);
    assert_near(num(t, 3, "bw"), 61530021.0 + 26180027.0, 0);
    /* I/O-weighted over read (15037 I/Os) and write (6398 I/Os) */
    assert_near(num(t, 3, "lat"),
                        (315591.162732 * 15037 + 505684.926696 * 6398) / (15037 + 6398), 1e-6);
    assert_string_equal(text(t, 3, "jobs"), "2");
    assert_string_equal(text(t, 3, "iodepth"), "8");
    assert_near(num(t, 6, "cpu"), 2.9 + 24.5, 1e-9);
    fsc_table_free(t);
    fsc_buf_free(&err);
    fsc_runset_clear(&set);
}

static void test_by_label_and_run(void **state)
{
    (void)state;
    fsc_runset set;
    fsc_buf err = {0};
    make_set(&set);
    /* a repeat of rr4k, 10% faster: --by label averages repeats */
    fsc_runset_add(&set, fx_psync_randread("P#1", 1.1, "RAID 0", "4k \xe9\x9a\x8f\xe6\x9c\xba\xe8\xaf\xbb"));
    fsc_table *t = fsc_table_build(&set, "label,dir,iops,read.iops,read.bw_mean,lat.max,cpu,ctx",
                                   FSC_BY_LABEL, FSC_LABEL_HEADING, &err);
    assert_non_null(t);
    assert_int_equal(t->n_rows, 4); /* rr4k; mix read, write, total */
    assert_near(num(t, 0, "iops"), 10942.057942 * 1.05, 1e-6);
    /* read.bw_mean is KiB/s, as in the JSON: one name, one unit */
    assert_near(num(t, 0, "read.bw_mean"), 45520.0 * 1.05, 1e-6);
    assert_string_equal(text(t, 1, "label"), "mix");
    /* the two mix jobs of one run are summed */
    assert_near(num(t, 1, "iops"), 15021.978022 + 14929.070929, 1e-6);
    assert_near(num(t, 3, "iops"), 15021.978022 + 14929.070929 + 6391.608392 + 6437.562438, 1e-6);
    assert_near(num(t, 3, "read.iops"), 15021.978022 + 14929.070929, 1e-6);
    assert_near(num(t, 3, "lat.max"), 27317450, 0);
    assert_near(num(t, 3, "cpu"), (29.1 + 27.4) / 2, 1e-9);
    assert_near(num(t, 3, "ctx"), 4321 + 4486, 0);
    fsc_table_free(t);

    t = fsc_table_build(&set, "label,iops", FSC_BY_RUN, FSC_LABEL_HEADING, &err);
    assert_non_null(t);
    assert_int_equal(t->n_rows, 5); /* run 1; run 2 read, write, total; run 3 */
    assert_string_equal(text(t, 1, "label"), "P#1");
    fsc_table_free(t);

    fsc_table_opts o = {.by = FSC_BY_GROUP, .no_split = true};
    t = fsc_table_build_opts(&set, "label,dir,iops", &o, &err);
    assert_non_null(t);
    assert_int_equal(t->n_rows, 3);
    assert_string_equal(text(t, 1, "dir"), "read+write");
    assert_string_equal(text(t, 1, "label"), "P#1 \xe2\x80\xba group 0");
    fsc_table_free(t);
    fsc_buf_free(&err);
    fsc_runset_clear(&set);
}

static void test_escaping(void **state)
{
    (void)state;
    fsc_runset set;
    fsc_buf err = {0}, out = {0};
    fsc_runset_init(&set);
    fsc_run *run = fx_psync_randread("P#1", 1.0, NULL, NULL);
    free(run->jobs[0].jobname);
    run->jobs[0].jobname = fsc_strdup("=HYPERLINK(\"x\"),a|b`<i>");
    fsc_runset_add(&set, run);
    fsc_table *t = fsc_table_build(&set, "label,iops", FSC_BY_JOB, FSC_LABEL_JOB, &err);
    assert_non_null(t);
    assert_int_equal(fsc_table_render(t, "csv", &out), FSC_OK);
    assert_string_equal(out.data, "label,iops\n\"'=HYPERLINK(\"\"x\"\"),a|b`<i>\",10942.057942\n");
    fsc_buf_reset(&out);
    assert_int_equal(fsc_table_render(t, "tsv", &out), FSC_OK);
    assert_string_equal(out.data, "label\tiops\n'=HYPERLINK(\"x\"),a|b`<i>\t10942.057942\n");
    fsc_buf_reset(&out);
    assert_int_equal(fsc_table_render(t, "md", &out), FSC_OK);
    assert_string_equal(out.data, "| label | IOPS |\n| --- | ---: |\n"
                                  "| =HYPERLINK(\"x\"),a\\|b\\`&lt;i&gt; | 10.9k |\n");
    fsc_buf_reset(&out);
    assert_int_equal(fsc_table_render(t, "html", &out), FSC_OK);
    assert_non_null(strstr(out.data, "<td>=HYPERLINK(&quot;x&quot;),a|b`&lt;i&gt;</td>"));
    assert_int_equal(fsc_table_render(t, "xml", &out), FSC_E_USAGE);
    fsc_table_free(t);

    /* terminal escapes and line breaks from the input never reach the text output */
    free(set.runs[0]->jobs[0].jobname);
    set.runs[0]->jobs[0].jobname = fsc_strdup("\033[2Jx\ny");
    t = fsc_table_build(&set, "label,iops", FSC_BY_JOB, FSC_LABEL_JOB, &err);
    fsc_buf_reset(&out);
    assert_int_equal(fsc_table_render(t, "text", &out), FSC_OK);
    assert_string_equal(out.data, "label     IOPS\n [2Jx y  10.9k\n");
    fsc_table_free(t);
    fsc_buf_free(&out);
    fsc_buf_free(&err);
    fsc_runset_clear(&set);
}

/* A job the text showed nothing of: one row, every number empty (absent, not 0). */
static void test_empty_job(void **state)
{
    (void)state;
    fsc_runset set;
    fsc_buf err = {0}, out = {0};
    fsc_runset_init(&set);
    fsc_run *run = fsc_run_new();
    fsc_run_add_job(run);
    fsc_runset_add(&set, run);
    fsc_runset_add(&set, fsc_run_new()); /* a run without jobs adds no row */
    fsc_table *t = fsc_table_build(&set, NULL, FSC_BY_JOB, FSC_LABEL_HEADING, &err);
    assert_non_null(t);
    assert_int_equal(t->n_rows, 1);
    for (size_t c = 0; c < t->n_cols; c++)
        assert_int_equal(t->rows[0].cells[c].kind, FSC_CELL_EMPTY);
    assert_int_equal(fsc_table_render(t, "csv", &out), FSC_OK);
    assert_string_equal(out.data, "label,dir,rw,bs,iodepth,jobs,iops,bw,lat,clat.p99,cpu\n,,,,,,,,,,\n");
    fsc_table_free(t);
    t = fsc_table_build(&set, NULL, FSC_BY_RUN, FSC_LABEL_HEADING, &err);
    assert_int_equal(t->n_rows, 1);
    assert_string_equal(t->rows[0].label, "run");
    fsc_table_free(t);
    fsc_buf_free(&out);
    fsc_buf_free(&err);
    fsc_runset_clear(&set);
}


static void test_golden_formats(void **state)
{
    (void)state;
    static const char *const formats[] = {"text", "md", "csv", "tsv", "html", "json"};
    fsc_runset set;
    fsc_buf err = {0};
    make_set(&set);
    fsc_table *t = fsc_table_build(&set, NULL, FSC_BY_JOB, FSC_LABEL_HEADING, &err);
    assert_non_null(t);
    for (size_t i = 0; i < sizeof formats / sizeof *formats; i++) {
        fsc_buf out = {0};
        char name[32];
        assert_int_equal(fsc_table_render(t, formats[i], &out), FSC_OK);
        snprintf(name, sizeof name, "expected.%s", formats[i]);
        fsc_test_check_golden("table-fixture", name, &out);
        fsc_buf_free(&out);
    }
    fsc_table_free(t);
    fsc_buf_free(&err);
    fsc_runset_clear(&set);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_format_human),   cmocka_unit_test(test_text_width),
        cmocka_unit_test(test_unknown_metric), cmocka_unit_test(test_by_job_default),
        cmocka_unit_test(test_by_label_and_run), cmocka_unit_test(test_escaping),
        cmocka_unit_test(test_golden_formats), cmocka_unit_test(test_empty_job),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
