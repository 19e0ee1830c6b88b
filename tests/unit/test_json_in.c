/* SPDX-License-Identifier: MIT */
/* The fio JSON reader on real documents of every JSON era (corpus fio-2.0.15 ..
 * fio-3.33, json+, client/server); expected numbers are fio's, in base units. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "corpus_file.h"
#include "parse_int.h"

/* Parse the first JSON document of a corpus file (from its first '{' line). */
static fsc_run *read_json_file(const char *rel)
{
    size_t len = 0;
    char *data = corpus_read(rel, &len);
    assert_non_null(data);
    const char *start = data[0] == '{' ? data : strstr(data, "\n{");
    assert_non_null(start);
    if (*start == '\n')
        start++;
    fsc_buf err = {0};
    fsc_run *run = fsc_json_read(start, len - (size_t)(start - data), &err);
    if (!run)
        fail_msg("%s: %s", rel, err.data ? err.data : "?");
    fsc_buf_free(&err);
    free(data);
    return run;
}

static double bin_count(const fsc_lat *lat, double ns)
{
    for (size_t i = 0; i < lat->n_bins; i++)
        if (lat->bins[i].ns == ns)
            return lat->bins[i].count;
    fail_msg("no bin at %f ns", ns);
    return -1;
}

/* 2.0.15: io_bytes in KiB, usec latency objects, bw_agg = the mean (dropped). */
static void test_fio_2_0_15(void **state)
{
    (void)state;
    fsc_run *run = read_json_file("fio-2.0.15/g_json.json");
    assert_string_equal(run->source.fio_version, "fio-2.0.15");
    assert_int_equal(run->n_jobs, 1);
    const fsc_job *j = &run->jobs[0];
    assert_string_equal(j->jobname, "randread");
    const fsc_dir *r = &j->dir[FSC_DIR_READ];
    NUM_EQ(r->io_bytes, 1954592.0 * 1024);
    NUM_EQ(r->bw, 977296);
    NUM_EQ(r->bw_bytes, 977296.0 * 1024);
    NUM_EQ(r->iops, 244324);
    NUM_EQ(r->lat[FSC_LAT_CLAT].max, 10180000);
    NUM_EQ(r->lat[FSC_LAT_CLAT].mean, 3480);
    NUM_EQ(r->lat[FSC_LAT_CLAT].stddev, 71060);
    assert_int_equal(r->lat[FSC_LAT_CLAT].n_percentile, 17); /* "0.00": 0 dropped */
    assert_true(pctl(&r->lat[FSC_LAT_CLAT], 99.0)->ns == 3000);
    assert_true(pctl(&r->lat[FSC_LAT_CLAT], 99.99)->ns == 4048000);
    assert_false(r->bw_agg.set);
    assert_int_equal(run->n_warnings, 1);
    assert_false(r->total_ios.set); /* 2.1.14+ */
    assert_true(kv(&j->latency[FSC_BUCKET_US], "50") == 0.22);
    assert_true(j->dir[FSC_DIR_WRITE].present && j->dir[FSC_DIR_TRIM].present);
    assert_int_equal(j->dir[FSC_DIR_WRITE].lat[FSC_LAT_CLAT].n_percentile, 0); /* all zeros */
    assert_int_equal(run->n_disk_util, 1);
    assert_string_equal(run->disk_util[0].name, "vda");
    NUM_EQ(run->disk_util[0].read_ios, 8);
    NUM_EQ(run->disk_util[0].util, 0.77);
    fsc_run_free(run);
}

/* 2.1.10: bw_agg is a percentage now; latency_depth/target appear. */
static void test_fio_2_1_10(void **state)
{
    (void)state;
    fsc_run *run = read_json_file("fio-2.1.10/g_json.json");
    const fsc_job *j = &run->jobs[0];
    const fsc_dir *r = &j->dir[FSC_DIR_READ];
    NUM_EQ(r->io_bytes, 118108.0 * 1024);
    NUM_EQ(r->bw, 59024);
    NUM_EQ(r->iops, 14756);
    NUM_EQ(r->lat[FSC_LAT_CLAT].max, 16673000);
    NUM_EQ(r->lat[FSC_LAT_CLAT].mean, 66210);
    assert_true(pctl(&r->lat[FSC_LAT_CLAT], 99.0)->ns == 378000);
    assert_true(r->bw_agg.set);
    assert_true(j->latency_depth.set);
    assert_true(kv(&j->latency[FSC_BUCKET_US], "50") == 85.57);
    NUM_EQ(run->disk_util[0].read_ios, 27192);
    assert_int_equal(run->n_warnings, 0);
    fsc_run_free(run);
}

/* 2.15: float iops, total_ios, job options; json+ with raw histogram indices. */
static void test_fio_2_15(void **state)
{
    (void)state;
    fsc_run *run = read_json_file("fio-2.15/g_json.json");
    const fsc_job *j = &run->jobs[0];
    const fsc_dir *r = &j->dir[FSC_DIR_READ];
    NUM_EQ(r->io_bytes, 706168.0 * 1024);
    NUM_EQ(r->iops, 88226.882812);
    NUM_EQ(r->lat[FSC_LAT_CLAT].max, 17550000);
    NUM_EQ(r->lat[FSC_LAT_CLAT].mean, 10657.979);
    assert_true(pctl(&r->lat[FSC_LAT_CLAT], 99.0)->ns == 81000);
    assert_true(r->total_ios.set);
    assert_string_equal(fsc_job_option(j, "rw"), "randread");
    NUM_EQ(run->disk_util[0].util, 48.204624);
    fsc_run_free(run);

    run = read_json_file("fio-2.15/g_jsonplus.json");
    const fsc_lat *c = &run->jobs[0].dir[FSC_DIR_READ].lat[FSC_LAT_CLAT];
    /* index 1 → 1 usec; index 591 → group 9: 2^14 + 15.5 * 2^8 = 20352 usec */
    assert_true(bin_count(c, 1000) == 72517);
    assert_true(bin_count(c, 20352000) == 1);
    /* percentiles come from the same buckets: p99 = 59 usec is a bin */
    assert_true(pctl(c, 99.0)->ns == 59000);
    assert_true(bin_count(c, 59000) > 0);
    for (size_t i = 0; i < c->n_bins; i++)
        assert_true(c->bins[i].count > 0); /* empty buckets are not kept */
    fsc_run_free(run);
}

/* 2.21: io_bytes in bytes next to io_kbytes; json+ bins keyed by usec. */
static void test_fio_2_21(void **state)
{
    (void)state;
    fsc_run *run = read_json_file("fio-2.21/g_json.json");
    const fsc_dir *r = &run->jobs[0].dir[FSC_DIR_READ];
    NUM_EQ(r->io_bytes, 463753216);
    NUM_EQ(r->bw, 226328);
    NUM_EQ(r->bw_bytes, 226328.0 * 1024);
    NUM_EQ(r->lat[FSC_LAT_CLAT].mean, 16910.688);
    assert_true(pctl(&r->lat[FSC_LAT_CLAT], 99.0)->ns == 86000);
    fsc_run_free(run);

    run = read_json_file("fio-2.21/g_jsonplus.json");
    const fsc_lat *c = &run->jobs[0].dir[FSC_DIR_READ].lat[FSC_LAT_CLAT];
    assert_true(bin_count(c, 1000) == 36292);
    assert_true(bin_count(c, 17024000) == 1);
    fsc_run_free(run);
}

/* 3.0: *_ns objects, latency_ns, iops_* statistics; json+ bins in ns. */
static void test_fio_3_0(void **state)
{
    (void)state;
    fsc_run *run = read_json_file("fio-3.0/g_json.json");
    const fsc_job *j = &run->jobs[0];
    const fsc_dir *r = &j->dir[FSC_DIR_READ];
    NUM_EQ(r->io_bytes, 1998274560);
    NUM_EQ(r->lat[FSC_LAT_CLAT].max, 860115);
    NUM_EQ(r->lat[FSC_LAT_CLAT].mean, 3561.975479);
    assert_true(pctl(&r->lat[FSC_LAT_CLAT], 99.0)->ns == 46336);
    NUM_EQ(r->iops_samples, 3);
    assert_true(j->latency[FSC_BUCKET_NS].n > 0);
    assert_false(j->dir[FSC_DIR_SYNC].present); /* 3.4+ */
    fsc_run_free(run);

    run = read_json_file("fio-3.0/g_jsonplus.json");
    const fsc_lat *c = &run->jobs[0].dir[FSC_DIR_READ].lat[FSC_LAT_CLAT];
    assert_true(bin_count(c, 788) == 1);
    assert_true(bin_count(c, 1138688) == 1);
    fsc_run_free(run);
}

/* 3.13: bw_bytes, sync, iodepth_submit/complete, job_runtime. */
static void test_fio_3_13(void **state)
{
    (void)state;
    fsc_run *run = read_json_file("fio-3.13/g_json.json");
    const fsc_job *j = &run->jobs[0];
    const fsc_dir *r = &j->dir[FSC_DIR_READ];
    NUM_EQ(r->bw_bytes, 63732613); /* as printed, not bw * 1024 */
    NUM_EQ(r->bw, 62238);
    NUM_EQ(r->io_bytes, 127528960);
    assert_true(pctl(&r->lat[FSC_LAT_CLAT], 99.0)->ns == 195584);
    assert_true(j->dir[FSC_DIR_SYNC].present);
    assert_true(j->dir[FSC_DIR_SYNC].total_ios.set);
    assert_true(j->iodepth_submit.n > 0 && j->iodepth_complete.n > 0);
    NUM_EQ(j->job_runtime, 2000);
    fsc_run_free(run);
}

/* 3.33: N sample counts; 4 jobs without group reporting. */
static void test_fio_3_33(void **state)
{
    (void)state;
    fsc_run *run = read_json_file("fio-3.33/g_json.json");
    const fsc_dir *r = &run->jobs[0].dir[FSC_DIR_READ];
    assert_string_equal(run->source.fio_version, "fio-3.33");
    NUM_EQ(r->io_bytes, 91213824);
    NUM_EQ(r->bw_bytes, 45584119);
    NUM_EQ(r->iops, 11128.935532);
    NUM_EQ(r->lat[FSC_LAT_CLAT].max, 17341956);
    NUM_EQ(r->lat[FSC_LAT_CLAT].N, 22269);
    assert_true(pctl(&r->lat[FSC_LAT_CLAT], 99.0)->ns == 610304);
    assert_true(kv(&run->jobs[0].latency[FSC_BUCKET_US], "50") == 52.377745);
    NUM_EQ(run->disk_util[0].read_ios, 22035);
    NUM_EQ(run->disk_util[0].util, 50.674374);
    assert_null(run->source.host);
    fsc_run_free(run);

    run = read_json_file("fio-3.33/g_json_nogroup.json");
    assert_int_equal(run->n_jobs, 4);
    fsc_run_free(run);
}

/* fio --client: "client_stats" with hostnames and the "All clients" sum. */
static void test_client_stats(void **state)
{
    (void)state;
    fsc_run *run = read_json_file("wild/distributed-system-analysis__pbench/"
                                  "agent__tool-scripts__postprocess__samples__fio-0__result__reference-"
                                  "result__fio-result.txt");
    assert_string_equal(run->source.fio_version, "fio-3.7");
    assert_int_equal(run->n_jobs, 11);
    assert_string_equal(run->jobs[0].hostname, "perf36");
    assert_string_equal(run->jobs[5].hostname, "perf84");
    assert_string_equal(run->jobs[10].jobname, "All clients");
    assert_string_equal(fsc_job_option(&run->jobs[0], "rw"), "read");
    NUM_EQ(run->jobs[0].dir[FSC_DIR_READ].total_ios, 119305);
    NUM_EQ(run->jobs[0].dir[FSC_DIR_READ].bw, 31812);
    assert_null(run->source.host); /* two hosts */
    assert_int_equal(run->n_disk_util, 4);
    fsc_run_free(run);
}

/* unified_rw_reporting's "mixed", 3.36 disk sectors, and objects the model does not
 * keep (prios, steadystate): a small document in fio 3.36's names. */
static void test_mixed_and_sectors(void **state)
{
    (void)state;
    static const char doc[] =
        "{\"fio version\": \"fio-3.36\", \"jobs\": [{\"jobname\": \"m\", \"groupid\": 0,"
        " \"desc\": \"a description\", \"steadystate\": {\"ss\": \"iops\"},"
        " \"mixed\": {\"io_bytes\": 8192, \"io_kbytes\": 8, \"bw_bytes\": 4096, \"bw\": 4,"
        " \"iops\": 1.5, \"prios\": [{\"prioclass\": 0}],"
        " \"clat_ns\": {\"min\": 10, \"percentile\": {\"50.000000\": 12}}}}],"
        " \"disk_util\": [{\"name\": \"md0\", \"read_ios\": 3, \"read_sectors\": 24,"
        " \"write_sectors\": 8, \"aggr_read_ios\": 2, \"aggr_write_merge\": 1, \"aggr_util\": 12.5}]}";
    fsc_buf err = {0};
    fsc_run *run = fsc_json_read(doc, strlen(doc), &err);
    assert_non_null(run);
    const fsc_job *j = &run->jobs[0];
    assert_string_equal(j->description, "a description");
    assert_false(j->dir[FSC_DIR_READ].present);
    const fsc_dir *m = &j->dir[FSC_DIR_MIXED];
    assert_true(m->present);
    NUM_EQ(m->io_bytes, 8192);
    NUM_EQ(m->bw_bytes, 4096);
    NUM_EQ(m->iops, 1.5);
    NUM_EQ(m->lat[FSC_LAT_CLAT].min, 10);
    assert_true(pctl(&m->lat[FSC_LAT_CLAT], 50.0)->ns == 12);
    const fsc_disk *d = &run->disk_util[0];
    NUM_EQ(d->read_sectors, 24);
    NUM_EQ(d->write_sectors, 8);
    NUM_EQ(d->aggr_read_ios, 2);
    NUM_EQ(d->aggr_write_merge, 1);
    NUM_EQ(d->aggr_util, 12.5);
    fsc_run_free(run);
    fsc_buf_free(&err);
}

static void test_not_fio_json(void **state)
{
    (void)state;
    static const char *const docs[] = {
        "{\"a\": 1}", "[1, 2]", "{", "", "{\"jobs\": 3}", "{\"jobs\": [1,2]} trailing", "not json at all",
    };
    for (size_t i = 0; i < FSC_ARRAY_SIZE(docs); i++) {
        fsc_buf err = {0};
        fsc_run *run = fsc_json_read(docs[i], strlen(docs[i]), &err);
        if (i == 5) { /* a jobs array of non-objects is still fio-shaped: no jobs */
            assert_non_null(run);
            assert_int_equal(run->n_jobs, 0);
            fsc_run_free(run);
        } else {
            assert_null(run);
            assert_non_null(err.data);
        }
        fsc_buf_free(&err);
    }
}

/* Damaged bytes (cut short, bytes flipped) never crash the reader. */
/* fio 3.33 printed a steady state of one sample as C's printf does: "slope" : -nan
 * (and "inf" where a value divides by zero), which is no JSON. The document is read,
 * those values left out as fio had none. */
static void test_nonfinite_values(void **state)
{
    (void)state;
    static const char doc[] = "{\n  \"fio version\" : \"fio-3.33\",\n  \"jobs\" : [\n    {\n"
                              "      \"jobname\" : \"ssb nan\",\n      \"groupid\" : 0,\n      \"error\" : 0,\n"
                              "      \"read\" : {\"io_bytes\" : 2801598464, \"iops\" : 51319.327731, \"runtime\" : 833},\n"
                              "      \"steadystate\" : {\n        \"ss\" : \"bw_slope:0.500000%\",\n"
                              "        \"duration\" : 1,\n        \"attained\" : 1,\n        \"criterion\" : \"-nan%\",\n"
                              "        \"max_deviation\" : inf,\n        \"slope\" : -nan\n      }\n    }\n  ]\n}\n";
    fsc_buf err = {0};
    fsc_run *run = fsc_json_read(doc, sizeof doc - 1, &err);
    if (!run)
        fail_msg("%s", err.data ? err.data : "?");
    assert_int_equal(run->n_jobs, 1);
    const fsc_job *j = &run->jobs[0];
    assert_string_equal(j->jobname, "ssb nan"); /* a string's "nan" stays */
    NUM_EQ(j->dir[FSC_DIR_READ].io_bytes, 2801598464.0);
    assert_true(j->steadystate.present);
    NUM_EQ(j->steadystate.attained, 1.0);
    assert_string_equal(j->steadystate.criterion, "-nan%");
    assert_false(j->steadystate.slope.set);
    assert_false(j->steadystate.max_deviation.set);
    fsc_run_free(run);
    fsc_buf_free(&err);
    /* a word in a value's place that is no number: still no JSON */
    static const char bad[] = "{\"jobs\" : [{\"jobname\" : \"x\", \"error\" : nano}]}";
    assert_null(fsc_json_read(bad, sizeof bad - 1, &err));
    fsc_buf_free(&err);
}

static void test_damaged_documents(void **state)
{
    (void)state;
    size_t len = 0;
    char *data = corpus_read("fio-3.33/g_jsonplus.json", &len);
    assert_non_null(data);
    size_t last_brace = len;
    while (last_brace > 0 && data[last_brace - 1] != '}')
        last_brace--;
    for (size_t cut = 0; cut + 1 < last_brace; cut += len / 97 + 1) {
        fsc_buf err = {0};
        fsc_run *run = fsc_json_read(data, cut, &err);
        assert_null(run); /* an unbalanced document is not JSON */
        fsc_buf_free(&err);
    }
    char *copy = malloc(len);
    assert_non_null(copy);
    uint32_t seed = 12345;
    for (int round = 0; round < 200; round++) {
        memcpy(copy, data, len);
        for (int k = 0; k < 8; k++) {
            seed = seed * 1103515245u + 12345u;
            copy[(seed >> 8) % len] = (char)(seed >> 3);
        }
        fsc_buf err = {0};
        fsc_run_free(fsc_json_read(copy, len, &err));
        fsc_buf_free(&err);
    }
    free(copy);
    free(data);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fio_2_0_15), cmocka_unit_test(test_fio_2_1_10),
        cmocka_unit_test(test_fio_2_15),   cmocka_unit_test(test_fio_2_21),
        cmocka_unit_test(test_fio_3_0),    cmocka_unit_test(test_fio_3_13),
        cmocka_unit_test(test_fio_3_33),   cmocka_unit_test(test_client_stats),
        cmocka_unit_test(test_mixed_and_sectors),
        cmocka_unit_test(test_not_fio_json), cmocka_unit_test(test_damaged_documents),
        cmocka_unit_test(test_nonfinite_values),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
