/* SPDX-License-Identifier: MIT */
/*
 * The analysis stage on real documents: dimensions of every row, system=auto on the
 * seeds, --where, pivots against seeds/002's own tables, the fio 3.33 zero "mixed"
 * line, matching, the statistics' verdict rules, and one run per fio invocation.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "corpus_file.h"
#include "fioscope/analyze.h"
#include "fioscope/compare.h"
#include "fioscope/parse.h"

#include <math.h>
#include <string.h>

static bool add_run(void *ctx, fsc_run *run)
{
    return fsc_runset_add(ctx, run);
}

/* Parse FSC_CORPUS/rel (or a text given directly) into set as document `path`. */
static void load_text(fsc_runset *set, const char *path, const char *data, size_t len, bool each_format)
{
    fsc_buf err = {0};
    fsc_parse_opts po = {.each_format = each_format};
    fsc_parser *p = fsc_parser_new(&po, &err);
    assert_non_null(p);
    fsc_doc doc = {.path = path, .data = data, .len = len};
    size_t n = 0;
    assert_int_equal(fsc_parse_doc(p, &doc, add_run, set, &n), FSC_OK);
    fsc_parser_free(p);
    fsc_buf_free(&err);
}

static void load(fsc_runset *set, const char *rel)
{
    size_t len;
    char *data = corpus_read(rel, &len);
    if (!data)
        fail_msg("cannot read %s", rel);
    load_text(set, rel, data, len, false);
    free(data);
}

static fsc_analysis *analyze(const fsc_runset *set, const fsc_analysis_opts *o)
{
    fsc_buf err = {0};
    fsc_status st;
    fsc_analysis *a = fsc_analysis_new(set, o, &err, &st);
    if (!a)
        fail_msg("analysis: %s", err.data ? err.data : "?");
    fsc_buf_free(&err);
    return a;
}

static const fsc_arow *find_row(const fsc_analysis *a, const char *system, const char *workload, const char *dir)
{
    for (size_t i = 0; i < fsc_analysis_n_rows(a); i++) {
        const fsc_arow *r = fsc_analysis_row(a, i);
        if (!strcmp(r->dim[FSC_DIM_SYSTEM], system) && !strcmp(r->dim[FSC_DIM_WORKLOAD], workload) &&
            !strcmp(r->dim[FSC_DIM_DIR], dir))
            return r;
    }
    fail_msg("no row %s / %s / %s", system, workload, dir);
    return NULL;
}

static double value(const fsc_analysis *a, const fsc_arow *r, const char *metric)
{
    fsc_mspec m;
    assert_true(fsc_mspec_parse(metric, strlen(metric), &m));
    fsc_mval v = fsc_analysis_eval(a, r, &m);
    assert_true(v.set);
    return v.v;
}

#define SEED002 "../seeds/002_6f6d330e65d35f74.txt"

static void test_dimensions_seed002(void **state)
{
    (void)state;
    fsc_runset set;
    fsc_runset_init(&set);
    load(&set, SEED002);
    fsc_analysis *a = analyze(&set, NULL);
    /* 31 runs: 30 single-direction jobs... and six randrw jobs of 3 rows each */
    assert_int_equal(fsc_analysis_n_rows(a), 25 + 6 * 3);
    static const char *const systems[] = {"磁盘基准测试", "RAID 0", "RAID 1", "RAID 5", "RAID 6", "RAID 10"};
    assert_int_equal(fsc_analysis_n_systems(a), 6);
    for (size_t i = 0; i < 6; i++)
        assert_string_equal(fsc_analysis_system(a, i), systems[i]);
    assert_string_equal(fsc_analysis_system_source(a), "heading:1");
    assert_string_equal(fsc_analysis_workload_key(a), "rw,bs,iodepth,numjobs");

    const fsc_arow *r = find_row(a, "RAID 5", "randwrite 4k qd32 x8", "write");
    assert_string_equal(r->dim[FSC_DIM_RW], "randwrite");
    assert_string_equal(r->dim[FSC_DIM_BS], "4k");
    assert_string_equal(r->dim[FSC_DIM_IODEPTH], "32");
    assert_string_equal(r->dim[FSC_DIM_NUMJOBS], "8");
    assert_string_equal(r->dim[FSC_DIM_IOENGINE], "libaio");
    assert_string_equal(r->dim[FSC_DIM_DIRECT], "1"); /* from the command shown above the run */
    assert_string_equal(r->dim[FSC_DIM_JOBNAME], "4k_randwrite");
    assert_string_equal(r->dim[FSC_DIM_HEADING], "RAID 5 › 4k 随机写");
    assert_string_equal(r->dim[FSC_DIM_LABEL], "RAID 5 › 4k 随机写 › 4k_randwrite");
    assert_string_equal(r->dim[FSC_DIM_FIO_VERSION], ""); /* the post does not show it */
    assert_string_equal(r->dim[FSC_DIM_REPEAT], "1");
    assert_string_equal(r->dim[FSC_DIM_FILE], SEED002);
    assert_true(value(a, r, "iops") == 29400);

    /* randrw: read, write and the total, each its own row */
    const fsc_arow *rd = find_row(a, "RAID 0", "randrw 4k qd1 x8", "read");
    const fsc_arow *tot = find_row(a, "RAID 0", "randrw 4k qd1 x8", "total");
    assert_int_equal(rd->dir, FSC_DIR_READ);
    assert_int_equal(tot->dir, FSC_DIR_MIXED);
    assert_true(value(a, rd, "iops") == 62600);
    assert_true(value(a, tot, "iops") == 62600 + 26900);
    fsc_mspec wi;
    assert_true(fsc_mspec_parse("write.iops", 10, &wi));
    assert_false(fsc_analysis_eval(a, rd, &wi).set); /* write numbers say nothing of the read row */

    /* RAID 1's extra run with numjobs=4 is a workload of its own */
    r = find_row(a, "RAID 1", "read 4m qd8 x4", "read");
    assert_string_equal(r->dim[FSC_DIM_NUMJOBS], "4");

    /* dimensions are metrics too */
    fsc_mspec sys;
    assert_true(fsc_mspec_parse("system", 6, &sys));
    char tmp[64];
    assert_string_equal(fsc_analysis_text(a, r, &sys, tmp, sizeof tmp), "RAID 1");
    fsc_analysis_free(a);
    fsc_runset_clear(&set);
}

static size_t count_where(const fsc_runset *set, const char *const *where, size_t n)
{
    fsc_analysis_opts o = {.where = where, .n_where = n};
    fsc_analysis *a = analyze(set, &o);
    size_t rows = fsc_analysis_n_rows(a);
    fsc_analysis_free(a);
    return rows;
}

static void test_where(void **state)
{
    (void)state;
    fsc_runset set;
    fsc_runset_init(&set);
    load(&set, SEED002);
    const char *w1[] = {"system~RAID 5$"};
    assert_int_equal(count_where(&set, w1, 1), 4 + 3); /* 4 one-direction jobs + randrw × 3 */
    const char *w2[] = {"iops>=1M"};                  /* only RAID 0's 4k random read: 1009k */
    assert_int_equal(count_where(&set, w2, 1), 1);
    const char *w3[] = {"bs=4096", "dir!=total", "system=raid-0"}; /* bs in any spelling; names case/dash blind */
    assert_int_equal(count_where(&set, w3, 3), 4);
    const char *w4[] = {"lat<300us", "rw=randread"};
    assert_int_equal(count_where(&set, w4, 2), 3); /* RAID 0 253 µs, RAID 6 256 µs, RAID 10 278 µs */
    const char *w5[] = {"numjobs>4"};
    assert_int_equal(count_where(&set, w5, 1), 6 * 5); /* every 4k job: 6 × (2 + 3) rows */
    const char *w6[] = {"heading~随机读写", "dir=write"};
    assert_int_equal(count_where(&set, w6, 2), 6);
    const char *w7[] = {"bw>13GiB/s"};
    assert_int_equal(count_where(&set, w7, 1), 1); /* RAID 0 sequential read, 13.2 GiB/s */

    fsc_buf err = {0};
    const char *bad[] = {"sytem=RAID 5"};
    fsc_analysis_opts o = {.where = bad, .n_where = 1};
    assert_int_equal(fsc_analysis_check(&o, &err), FSC_E_USAGE);
    assert_string_equal(err.data, "unknown field 'sytem' in --where (did you mean 'system'?)");
    fsc_buf_reset(&err);
    const char *bad2[] = {"iops~1"};
    o.where = bad2;
    assert_int_equal(fsc_analysis_check(&o, &err), FSC_E_USAGE);
    fsc_buf_reset(&err);
    const char *bad3[] = {"lat<fast"};
    o.where = bad3;
    assert_int_equal(fsc_analysis_check(&o, &err), FSC_E_USAGE);
    fsc_buf_reset(&err);
    fsc_analysis_opts o2 = {.system_from = "hedding"};
    assert_int_equal(fsc_analysis_check(&o2, &err), FSC_E_USAGE);
    assert_string_equal(err.data, "unknown field 'hedding' in --system-from (did you mean 'heading'?)");
    fsc_buf_reset(&err);
    fsc_analysis_opts o3 = {.workload_key = "rw,bs,iodepht"};
    assert_int_equal(fsc_analysis_check(&o3, &err), FSC_E_USAGE);
    assert_string_equal(err.data, "unknown field 'iodepht' in --workload-key (did you mean 'iodepth'?)");
    fsc_buf_free(&err);
    fsc_runset_clear(&set);
}

static void test_pivot_seed002(void **state)
{
    (void)state;
    fsc_runset set;
    fsc_runset_init(&set);
    load(&set, SEED002);
    fsc_analysis *a = analyze(&set, NULL);
    fsc_mspec iops;
    assert_true(fsc_mspec_parse("iops", 4, &iops));
    fsc_buf err = {0};
    fsc_status st;
    fsc_pivot_opts po = {.col = FSC_DIM_SYSTEM, .baseline = "raid 0"};
    fsc_pivot *p = fsc_pivot_build(a, &iops, &po, &err, &st);
    assert_non_null(p);
    assert_true(p->workload_rows);
    assert_int_equal(p->n_cols, 6);
    assert_int_equal(p->n_rows, 8);
    assert_int_equal(p->baseline, 1);
    assert_string_equal(p->rows[0].workload, "randwrite 4k qd32 x8");
    assert_string_equal(p->rows[0].keys[4], "write");
    /* the post's section 7.1: 65.1k 87.9k 82.4k 29.4k 23.9k 61.3k */
    static const double want[] = {65100, 87900, 82400, 29400, 23900, 61300};
    for (size_t j = 0; j < 6; j++) {
        assert_int_equal(p->rows[0].cells[j].n, 1);
        assert_true(p->rows[0].cells[j].median == want[j]);
    }
    assert_true(fabs(p->rows[0].cells[3].delta_pct - (29400.0 / 87900 - 1) * 100) < 1e-9);
    assert_true(isnan(p->rows[0].cells[1].delta_pct) || p->rows[0].cells[1].delta_pct == 0);
    /* the numjobs=4 row exists under RAID 1 only */
    assert_string_equal(p->rows[7].workload, "read 4m qd8 x4");
    assert_int_equal(p->rows[7].cells[0].n, 0);
    assert_int_equal(p->rows[7].cells[2].n, 1);
    fsc_pivot_free(p);

    /* an unknown baseline names the nearest column */
    po.baseline = "RAID 7";
    assert_null(fsc_pivot_build(a, &iops, &po, &err, &st));
    assert_int_equal(st, FSC_E_USAGE);
    assert_non_null(strstr(err.data, "did you mean 'RAID 0'?"));
    fsc_buf_reset(&err);
    /* text fields are no pivot metric */
    fsc_mspec rw;
    assert_true(fsc_mspec_parse("rw", 2, &rw));
    po.baseline = NULL;
    assert_null(fsc_pivot_build(a, &rw, &po, &err, &st));
    assert_int_equal(st, FSC_E_USAGE);
    fsc_buf_reset(&err);
    /* over numjobs: the system leads the rows, so no two systems share a cell */
    po.col = FSC_DIM_NUMJOBS;
    p = fsc_pivot_build(a, &iops, &po, &err, &st);
    assert_non_null(p);
    assert_string_equal(p->key_names[0], "system");
    assert_int_equal(p->n_cols, 3); /* 8, 1, 4 */
    fsc_pivot_free(p);
    fsc_analysis_free(a);

    /* nothing selected: an empty pivot */
    const char *none[] = {"system=nothing"};
    fsc_analysis_opts o = {.where = none, .n_where = 1};
    a = analyze(&set, &o);
    po.col = FSC_DIM_SYSTEM;
    assert_null(fsc_pivot_build(a, &iops, &po, &err, &st));
    assert_int_equal(st, FSC_E_NO_RUNS);
    fsc_analysis_free(a);
    fsc_buf_free(&err);
    fsc_runset_clear(&set);
}

/* fio 3.33 with unified_rw_reporting=both printed "mixed: IOPS=0, BW=0": the parser
 * reads the job's mixed numbers from its read and write lines (normal.c
 * mixed_summed), so the total row has them, and the mixed line's own latency. */
static void test_unified_both(void **state)
{
    (void)state;
    fsc_runset set;
    fsc_runset_init(&set);
    load(&set, "fio-3.33/n_unified_rw_reporting_both.txt");
    load(&set, "fio-3.33/n_unified_rw_reporting.txt");
    fsc_analysis *a = analyze(&set, NULL);
    assert_int_equal(fsc_analysis_n_rows(a), 3 + 1);
    const fsc_arow *r = fsc_analysis_row(a, 0), *w = fsc_analysis_row(a, 1), *t = fsc_analysis_row(a, 2);
    assert_string_equal(r->dim[FSC_DIM_DIR], "read");
    assert_string_equal(w->dim[FSC_DIM_DIR], "write");
    assert_string_equal(t->dim[FSC_DIM_DIR], "total");
    assert_true(value(a, r, "iops") == 52600);
    assert_true(value(a, w, "iops") == 22800);
    assert_true(value(a, t, "iops") == 52600 + 22800);
    /* 411MiB + 178MiB in 2001 ms (the group's MIXED line: 294MiB/s, 589MiB) */
    assert_true(value(a, t, "io_bytes") == 617611264);
    assert_true(value(a, t, "bw") == 308651306);
    assert_true(fabs(value(a, t, "lat") - 423380) < 1e-6); /* the mixed line's own latency */
    assert_int_equal(fsc_analysis_n_notes(a), 0);
    /* unified_rw_reporting=1: the mixed line is the total, and it has numbers */
    const fsc_arow *u = fsc_analysis_row(a, 3);
    assert_string_equal(u->dim[FSC_DIM_DIR], "total");
    assert_true(value(a, u, "iops") == 75600);
    fsc_analysis_free(a);
    fsc_runset_clear(&set);
}

static const char *dim_of_first(const fsc_runset *set, fsc_dim d)
{
    static char buf[64];
    fsc_analysis *a = analyze(set, NULL);
    snprintf(buf, sizeof buf, "%s", fsc_analysis_row(a, 0)->dim[d]);
    fsc_analysis_free(a);
    return buf;
}

static void test_workload_fields(void **state)
{
    (void)state;
    fsc_runset set;
    fsc_runset_init(&set);
    /* fio's JSON lists the options a job set: the rest are fio's defaults */
    load(&set, "fio-3.33/g_json.json");
    assert_string_equal(dim_of_first(&set, FSC_DIM_IODEPTH), "1");
    assert_string_equal(dim_of_first(&set, FSC_DIM_NUMJOBS), "1");
    assert_string_equal(dim_of_first(&set, FSC_DIM_DIRECT), "0");
    assert_string_equal(dim_of_first(&set, FSC_DIM_WORKLOAD), "randread 4k qd1 x1");
    fsc_runset_clear(&set);
    load(&set, "fio-3.33/g_json_nogroup.json"); /* numjobs=4 in the options */
    assert_string_equal(dim_of_first(&set, FSC_DIM_NUMJOBS), "4");
    fsc_runset_clear(&set);
    load(&set, "fio-3.33/b_randwrite_4jobs_nogroup.txt"); /* four blocks of one job each */
    assert_string_equal(dim_of_first(&set, FSC_DIM_NUMJOBS), "4");
    fsc_runset_clear(&set);
    load(&set, "fio-3.33/c_randrw70_libaio_4jobs_group.txt"); /* jobs=4 of group_reporting */
    assert_string_equal(dim_of_first(&set, FSC_DIM_NUMJOBS), "4");
    assert_string_equal(dim_of_first(&set, FSC_DIM_IODEPTH), "8");
    fsc_runset_clear(&set);
    load(&set, "fio-3.33-oracle/two-groups.normal+json.txt"); /* ioengine in "global options" */
    assert_string_equal(dim_of_first(&set, FSC_DIM_IOENGINE), "psync");
    assert_string_equal(dim_of_first(&set, FSC_DIM_BS), "1m");
    fsc_runset_clear(&set);
}

/* A run with one job of the given name, randread or read 4k psync. */
static fsc_run *named_run(const char *id, const char *job, const char *rw, double iops)
{
    fsc_run *run = fsc_run_new();
    run->id = fsc_strdup(id);
    run->source.path = fsc_strdup("bench.txt");
    run->source.format = FSC_FMT_NORMAL;
    fsc_job *j = fsc_run_add_job(run);
    j->jobname = fsc_strdup(job);
    j->jobs = fsc_num_of(1);
    fsc_job_set_option(j, "rw", rw);
    fsc_job_set_option(j, "bs", "4096B-4096B");
    fsc_job_set_option(j, "iodepth", "1");
    j->dir[FSC_DIR_READ].present = true;
    j->dir[FSC_DIR_READ].iops = fsc_num_of(iops);
    return run;
}

static void test_systems(void **state)
{
    (void)state;
    fsc_runset set;
    fsc_runset_init(&set);
    /* seeds/001: "Axle-ssd" and "axle ssd" are one pool */
    load(&set, "../seeds/001_1962a9265fb64240.txt");
    fsc_analysis *a = analyze(&set, NULL);
    assert_int_equal(fsc_analysis_n_systems(a), 2);
    assert_string_equal(fsc_analysis_system(a, 0), "Axle");
    assert_string_equal(fsc_analysis_system(a, 1), "Axle-ssd");
    fsc_analysis_free(a);
    fsc_runset_clear(&set);

    /* the part of the job name that is not the workload */
    fsc_runset_add(&set, named_run("b#1", "fast-raid10-f2_seqread", "read", 900));
    fsc_runset_add(&set, named_run("b#2", "slow-raid5_seqread", "read", 300));
    fsc_runset_add(&set, named_run("b#3", "fast-raid10-f2_randread", "randread", 500));
    fsc_runset_add(&set, named_run("b#4", "slow-raid5_randread", "randread", 100));
    a = analyze(&set, NULL);
    assert_string_equal(fsc_analysis_system_source(a), "jobname");
    assert_int_equal(fsc_analysis_n_systems(a), 2);
    assert_string_equal(fsc_analysis_system(a, 0), "fast-raid10-f2");
    assert_string_equal(fsc_analysis_system(a, 1), "slow-raid5");
    assert_string_equal(fsc_analysis_row(a, 0)->dim[FSC_DIM_WORKLOAD], "read 4k qd1 x1");
    fsc_analysis_free(a);
    /* or as the user says: the first word of the job name */
    fsc_analysis_opts o = {.system_from = "job:^([a-z]+)-"};
    a = analyze(&set, &o);
    assert_string_equal(fsc_analysis_system(a, 0), "fast");
    assert_string_equal(fsc_analysis_system(a, 1), "slow");
    assert_string_equal(fsc_analysis_system_source(a), "job");
    fsc_analysis_free(a);
    fsc_runset_clear(&set);

    /* "Run 1" .. "Run 4" of one job are repeats, not four systems */
    char path[4096];
    snprintf(path, sizeof path, "%s/tests/analysis/old-box.md", getenv("FSC_SOURCE_DIR"));
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    char *doc = calloc(1, 1 << 20);
    size_t len = fread(doc, 1, (1 << 20) - 1, f);
    fclose(f);
    load_text(&set, "old-box.md", doc, len, false);
    free(doc);
    a = analyze(&set, NULL);
    assert_int_equal(fsc_analysis_n_systems(a), 1);
    assert_string_equal(fsc_analysis_system_source(a), "none");
    const fsc_arow *last = NULL;
    for (size_t i = 0; i < fsc_analysis_n_rows(a); i++)
        if (!strcmp(fsc_analysis_row(a, i)->dim[FSC_DIM_RW], "randread"))
            last = fsc_analysis_row(a, i);
    assert_string_equal(last->dim[FSC_DIM_REPEAT], "4");
    fsc_analysis_free(a);
    /* the user may still say the headings are the systems */
    fsc_analysis_opts h2 = {.system_from = "heading:2"};
    a = analyze(&set, &h2);
    assert_int_equal(fsc_analysis_n_systems(a), 5); /* Run 1..4, Writes */
    fsc_analysis_free(a);
    fsc_runset_clear(&set);
}

/* Two parts of seeds/002 compared: they pair by workload, not by label. */
static void test_match_sides(void **state)
{
    (void)state;
    size_t len;
    char *post = corpus_read(SEED002, &len);
    assert_non_null(post);
    const char *raid0 = strstr(post, "\n2. RAID 0"), *raid1 = strstr(post, "\n3. RAID 1");
    const char *raid5 = strstr(post, "\n4. RAID 5"), *raid6 = strstr(post, "\n5. RAID 6");
    assert_non_null(raid0 && raid1 && raid5 && raid6);
    fsc_runset sides[2];
    fsc_runset_init(&sides[0]);
    fsc_runset_init(&sides[1]);
    load_text(&sides[0], "parts/raid0.txt", raid0, (size_t)(raid1 - raid0), false);
    load_text(&sides[1], "parts/raid5.txt", raid5, (size_t)(raid6 - raid5), false);
    free(post);
    const fsc_runset *ptrs[2] = {&sides[0], &sides[1]};
    fsc_buf err = {0};
    fsc_status st;
    fsc_analysis *a = fsc_analysis_new_sides(ptrs, NULL, 2, NULL, &err, &st);
    assert_non_null(a);
    assert_string_equal(fsc_analysis_system(a, 0), "raid0");
    assert_string_equal(fsc_analysis_system(a, 1), "raid5");
    fsc_obs_set obs;
    const char *used;
    assert_int_equal(fsc_analysis_observe(a, NULL, &obs, &used, &err), FSC_OK);
    assert_string_equal(used, "workload");
    assert_int_equal(fsc_obs_set_paired(a, &obs), 7);
    fsc_obs_set_free(&obs);
    assert_int_equal(fsc_analysis_observe(a, "label", &obs, &used, &err), FSC_OK);
    assert_int_equal(fsc_obs_set_paired(a, &obs), 0);
    fsc_obs_set_free(&obs);
    size_t paired;
    assert_string_equal(fsc_analysis_suggest_match(a, &paired), "workload");
    assert_int_equal(paired, 7);
    fsc_analysis_free(a);

    /* compare: nothing pairs by label → the message names --match workload */
    fsc_compare_opts co = {.match = "label", .metrics = "iops"};
    assert_null(fsc_compare_build(&sides[0], &sides[1], &co, &err, &st));
    assert_int_equal(st, FSC_E_NO_RUNS);
    assert_non_null(strstr(err.data, "--match workload pairs 7 rows"));
    fsc_buf_reset(&err);
    co.match = NULL;
    fsc_comparison *c = fsc_compare_build(&sides[0], &sides[1], &co, &err, &st);
    assert_non_null(c);
    assert_int_equal(c->n_sides, 2);
    assert_string_equal(c->sides[0], "raid0");
    assert_int_equal(c->n_rows, 7);
    assert_string_equal(c->rows[0].label, "randwrite 4k qd32 x8");
    const fsc_cmp_cell *cell = &c->rows[0].cells[0];
    assert_true(cell->base.median == 87900 && cell->new_.median == 29400);
    assert_false(cell->decided); /* one run a side: no verdict */
    assert_false(cell->significant);
    assert_int_equal(cell->verdict, 0);
    fsc_comparison_free(c);
    fsc_buf_free(&err);
    fsc_runset_clear(&sides[0]);
    fsc_runset_clear(&sides[1]);
}

/* N sides and --by system, with a baseline in the middle. */
static void test_compare_systems(void **state)
{
    (void)state;
    fsc_runset set;
    fsc_runset_init(&set);
    load(&set, SEED002);
    fsc_compare_opts co = {.metrics = "iops,lat", .baseline = "RAID 1", .by = "system"};
    fsc_buf err = {0};
    fsc_status st;
    fsc_comparison *c = fsc_compare_build_systems(&set, &co, &err, &st);
    assert_non_null(c);
    assert_int_equal(c->n_sides, 6);
    assert_int_equal(c->baseline, 2);
    assert_string_equal(c->match, "label"); /* "4k 随机写 › 4k_randwrite" under every system */
    assert_string_equal(c->rows[0].label, "4k 随机写 › 4k_randwrite");
    const fsc_cmp_cell *raid0 = &c->rows[0].by_side[0 * 6 + 1];
    assert_true(raid0->base.median == 82400 && raid0->new_.median == 87900);
    assert_true(fabs(raid0->delta_pct - (87900.0 / 82400 - 1) * 100) < 1e-9);
    assert_int_equal(c->n_only_base, 1); /* RAID 1 (the baseline) alone has its numjobs=4 run */
    fsc_comparison_free(c);
    co.baseline = "RAID 7";
    assert_null(fsc_compare_build_systems(&set, &co, &err, &st));
    assert_int_equal(st, FSC_E_USAGE);
    fsc_buf_free(&err);
    fsc_runset_clear(&set);
}

static void test_metric_names(void **state)
{
    (void)state;
    size_t n;
    const char *const *names = fsc_metric_base_names(&n);
    assert_true(n > 40);
    for (size_t i = 0; i < n; i++) {
        fsc_mspec m;
        if (!fsc_mspec_parse(names[i], strlen(names[i]), &m))
            fail_msg("listed metric '%s' does not parse", names[i]);
    }
    for (int d = 0; d < FSC_DIM_COUNT; d++) { /* every dimension is a metric name */
        fsc_mspec m;
        const char *name = fsc_dim_get((fsc_dim)d)->name;
        assert_true(fsc_mspec_parse(name, strlen(name), &m));
        assert_true(m.m.text);
        assert_int_equal(m.dim, d);
    }
}

static void test_verdict_rules(void **state)
{
    (void)state;
    assert_false(fsc_mann_whitney_can_decide(1, 1, 0.05));
    assert_false(fsc_mann_whitney_can_decide(1, 30, 0.05));
    assert_false(fsc_mann_whitney_can_decide(3, 3, 0.05)); /* 2/20 = 0.1 */
    assert_false(fsc_mann_whitney_can_decide(3, 4, 0.05)); /* 2/35 = 0.057 */
    assert_true(fsc_mann_whitney_can_decide(4, 4, 0.05));  /* 2/70 = 0.029 */
    assert_true(fsc_mann_whitney_can_decide(2, 8, 0.05));  /* 2/45 = 0.044 */
    assert_false(fsc_mann_whitney_can_decide(4, 4, 0.01));
    assert_true(fsc_mann_whitney_can_decide(5, 5, 0.01));  /* 2/252 = 0.0079 */
    /* exact without ties up to 50 a side: fully separated 30+30 */
    double x[30], y[30];
    for (int i = 0; i < 30; i++) {
        x[i] = i;
        y[i] = 100 + i;
    }
    double p = fsc_mann_whitney_p(x, 30, y, 30);
    assert_true(p > 0 && p < 1e-15); /* 2 / C(60, 30) = 1.7e-17 */
    /* 4+4 fully separated: the smallest p there is */
    assert_true(fabs(fsc_mann_whitney_p(x, 4, y, 4) - 2.0 / 70) < 1e-12);
    /* ties, exact: {1,1,2,2} vs {2,3,3,3}: U = 0.5 of 16 */
    double t1[] = {1, 1, 2, 2}, t2[] = {2, 3, 3, 3};
    p = fsc_mann_whitney_p(t1, 4, t2, 4);
    assert_true(p > 2.0 / 70 - 1e-12 && p < 0.1);
}

/* One fio invocation printed as normal, terse and JSON is one run. */
static void test_one_invocation(void **state)
{
    (void)state;
    fsc_runset set;
    fsc_runset_init(&set);
    load(&set, "fio-3.33/g_normal_terse_json.txt");
    assert_int_equal(set.n_runs, 1);
    const fsc_run *run = set.runs[0];
    assert_int_equal(run->source.format, FSC_FMT_JSON);
    assert_int_equal(run->source.n_formats, 3);
    assert_int_equal(run->source.formats[0], FSC_FMT_NORMAL);
    assert_int_equal(run->source.formats[1], FSC_FMT_TERSE);
    assert_int_equal(run->source.formats[2], FSC_FMT_JSON);
    assert_true(run->jobs[0].dir[FSC_DIR_READ].iops.v == 10378.310845); /* JSON's, not "10.4k" */
    assert_true(run->jobs[0].jobs.v == 1);                              /* from the normal text */
    assert_int_equal(run->n_groups, 1);                                 /* JSON has no group line */
    assert_int_equal(run->source.first_line, 1);
    fsc_runset_clear(&set);

    /* as printed, one run per format */
    size_t len;
    char *data = corpus_read("fio-3.33/g_normal_terse_json.txt", &len);
    load_text(&set, "x.txt", data, len, true);
    assert_int_equal(set.n_runs, 3);
    fsc_runset_clear(&set);

    /* the same normal output twice: two runs (an invocation prints each format once) */
    char *normal = corpus_read("fio-3.33/a_randread_psync.txt", &len);
    char *twice = malloc(2 * len + 2);
    memcpy(twice, normal, len);
    twice[len] = '\n';
    memcpy(twice + len + 1, normal, len);
    load_text(&set, "twice.txt", twice, 2 * len + 1, false);
    assert_int_equal(set.n_runs, 2);
    fsc_runset_clear(&set);

    /* normal text of one run next to the JSON of another: numbers differ, two runs */
    size_t jl;
    char *json = corpus_read("fio-3.33/g_json.json", &jl);
    char *both = malloc(len + jl + 2);
    memcpy(both, normal, len);
    both[len] = '\n';
    memcpy(both + len + 1, json, jl);
    load_text(&set, "both.txt", both, len + jl + 1, false);
    assert_int_equal(set.n_runs, 2);
    fsc_runset_clear(&set);
    free(both);
    free(json);
    free(twice);
    free(normal);
    free(data);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_dimensions_seed002), cmocka_unit_test(test_where),
        cmocka_unit_test(test_pivot_seed002),      cmocka_unit_test(test_unified_both),
        cmocka_unit_test(test_workload_fields),    cmocka_unit_test(test_systems),
        cmocka_unit_test(test_match_sides),        cmocka_unit_test(test_compare_systems),
        cmocka_unit_test(test_verdict_rules),      cmocka_unit_test(test_one_invocation),
        cmocka_unit_test(test_metric_names),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
