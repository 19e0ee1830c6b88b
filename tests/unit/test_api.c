/* SPDX-License-Identifier: MIT */
/* libfioscope's stable API (fioscope/fioscope.h): paths, buffers, archives, bad
 * input as a status with its message, values by JSON path, the JSON writers, and
 * several threads parsing at once giving what one thread gives. Under ASan (the
 * sanitized suite) it also proves that bad input leaks nothing. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include <pthread.h>

#include "corpus_file.h"
#include "fioscope/fioscope.h"

static char *corpus_path(const char *rel)
{
    const char *root = getenv("FSC_CORPUS");
    static char path[4096];
    snprintf(path, sizeof path, "%s/%s", root ? root : "/work/shared/corpus", rel);
    return path;
}

static void test_path(void **state)
{
    (void)state;
    fioscope_result *r = fioscope_parse_path(corpus_path("fio-3.33/c_randrw70_libaio_4jobs_group.txt"), 0);
    assert_non_null(r);
    assert_int_equal(fioscope_result_status(r), FIOSCOPE_OK);
    assert_null(fioscope_result_error(r));
    assert_int_equal(fioscope_result_run_count(r), 1);
    assert_null(fioscope_result_run(r, 1));
    const fioscope_run *run = fioscope_result_run(r, 0);
    assert_string_equal(fioscope_run_format(run), "normal");
    assert_string_equal(fioscope_run_fio_version(run), "fio-3.33");
    assert_null(fioscope_run_member(run));
    assert_non_null(strstr(fioscope_run_id(run), "c_randrw70_libaio_4jobs_group.txt#1"));
    assert_int_equal(fioscope_run_job_count(run), 1);
    assert_string_equal(fioscope_run_job_name(run, 0), "mixed");
    assert_null(fioscope_run_job_name(run, 1));
    assert_string_equal(fioscope_run_job_option(run, 0, "rw"), "randrw");
    /* values by their JSON path, in the JSON's units */
    double v = 0;
    assert_true(fioscope_run_value(run, 0, "read.iops", &v));
    assert_true(v == 36500);
    assert_true(fioscope_run_value(run, 0, "read.bw", &v)); /* KiB/s, as fio */
    assert_true(v == 145408);
    assert_true(fioscope_run_value(run, 0, "read.bw_bytes", &v));
    assert_true(v == 148897792);
    assert_true(fioscope_run_value(run, 0, "write.clat_ns.percentile.99.000000", &v));
    assert_true(v == 5800000);
    assert_true(fioscope_run_value(run, 0, "read.clat_ns.mean", &v));
    assert_true(v == 488712.24);
    assert_true(fioscope_run_value(run, 0, "usr_cpu", &v));
    assert_true(v == 2.4);
    assert_true(fioscope_run_value(run, 0, "iodepth_level.8", &v));
    assert_true(v == 100);
    assert_true(fioscope_run_value(run, 0, "latency_us.250", &v));
    assert_true(v == 27.76);
    /* absent, unknown, out of range: 0 */
    assert_false(fioscope_run_value(run, 0, "read.clat_ns.percentile.12.000000", &v));
    assert_false(fioscope_run_value(run, 0, "read.nosuch", &v));
    assert_false(fioscope_run_value(run, 0, "bogus", &v));
    assert_false(fioscope_run_value(run, 0, "sideways.iops", &v));
    assert_false(fioscope_run_value(run, 7, "read.iops", &v));
    /* inputs */
    assert_int_equal(fioscope_result_input_count(r), 1);
    const char *status, *path, *member, *error;
    size_t runs;
    assert_true(fioscope_result_input(r, 0, &path, &member, &status, &runs, &error));
    assert_string_equal(status, "ok");
    assert_int_equal(runs, 1);
    assert_null(member);
    assert_null(error);
    assert_false(fioscope_result_input(r, 1, NULL, NULL, NULL, NULL, NULL));
    fioscope_result_free(r);
}

static void test_json(void **state)
{
    (void)state;
    fioscope_result *r = fioscope_parse_path(corpus_path("fio-3.33/g_json_nogroup.json"), 0);
    assert_non_null(r);
    size_t len = 0;
    char *doc = fioscope_result_json(r, 0, &len);
    assert_non_null(doc);
    assert_int_equal(strlen(doc), len);
    assert_true(!strncmp(doc, "{\"fioscope\":{\"version\":\"", 24));
    assert_non_null(strstr(doc, "\"inputs\":[{\"path\":"));
    char *pretty = fioscope_result_json(r, FIOSCOPE_JSON_PRETTY, NULL);
    assert_non_null(strstr(pretty, "\n  \"inputs\": [\n"));
    char *one = fioscope_run_json(fioscope_result_run(r, 0), 0, &len);
    assert_true(!strncmp(one, "{\"id\":", 6));
    assert_non_null(strstr(doc, one)); /* the run inside the document, byte for byte */
    char *damage = fioscope_run_json(fioscope_result_run(r, 0), FIOSCOPE_JSON_DAMAGE, NULL);
    assert_non_null(strstr(damage, "\"damage\":"));
    fioscope_free(doc);
    fioscope_free(pretty);
    fioscope_free(one);
    fioscope_free(damage);
    fioscope_free(NULL);
    fioscope_result_free(r);
    fioscope_result_free(NULL);
}

static void test_buffer(void **state)
{
    (void)state;
    size_t len = 0;
    char *text = corpus_read("fio-3.33/a_randread_psync.txt", &len);
    assert_non_null(text);
    /* quoted inside a mail: the buffer is a document like any other */
    fioscope_result *r = fioscope_parse_buffer(text, len, "mail.txt", FIOSCOPE_LABEL_JOB);
    assert_non_null(r);
    assert_int_equal(fioscope_result_status(r), FIOSCOPE_OK);
    assert_int_equal(fioscope_result_run_count(r), 1);
    const fioscope_run *run = fioscope_result_run(r, 0);
    assert_string_equal(fioscope_run_id(run), "mail.txt#1");
    assert_string_equal(fioscope_run_path(run), "mail.txt");
    assert_string_equal(fioscope_run_label(run), "randread");
    fioscope_result_free(r);
    free(text);
    /* compressed data held in memory is opened (gzip of a corpus file) */
    char cmd[4200];
    snprintf(cmd, sizeof cmd, "gzip -c '%s'", corpus_path("fio-3.33/g_json_nogroup.json"));
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    char gz[65536];
    size_t n = fread(gz, 1, sizeof gz, p);
    assert_int_equal(pclose(p), 0);
    assert_true(n > 18 && n < sizeof gz);
    r = fioscope_parse_buffer(gz, n, "x.json.gz", 0);
    assert_non_null(r);
    assert_int_equal(fioscope_result_status(r), FIOSCOPE_OK);
    assert_int_equal(fioscope_result_run_count(r), 1);
    assert_int_equal(fioscope_run_job_count(fioscope_result_run(r, 0)), 4);
    fioscope_result_free(r);
}

static void test_bad_input(void **state)
{
    (void)state;
    fioscope_result *r = fioscope_parse_path("/nonexistent/fio.log", 0);
    assert_non_null(r);
    assert_int_equal(fioscope_result_status(r), FIOSCOPE_UNREAD);
    assert_string_equal(fioscope_result_error(r),
                        "/nonexistent/fio.log: cannot open: No such file or directory");
    assert_int_equal(fioscope_result_run_count(r), 0);
    fioscope_result_free(r);
    static const char junk[] = "hello, this is not fio output\n";
    r = fioscope_parse_buffer(junk, sizeof junk - 1, NULL, 0);
    assert_non_null(r);
    assert_int_equal(fioscope_result_status(r), FIOSCOPE_UNREAD);
    assert_string_equal(fioscope_result_error(r), "-: no fio run found");
    fioscope_result_free(r);
    r = fioscope_parse_buffer(NULL, 0, "empty", 0);
    assert_non_null(r);
    assert_int_equal(fioscope_result_status(r), FIOSCOPE_UNREAD);
    fioscope_result_free(r);
    /* binary bytes are an error with a reason, not a crash */
    static const unsigned char bin[] = {0x00, 0x01, 0x02, 0xff, 0xfe, 0x00, 0x10, 0x11, 0x12, 0x13};
    r = fioscope_parse_buffer(bin, sizeof bin, "x.bin", 0);
    assert_non_null(r);
    assert_int_equal(fioscope_result_status(r), FIOSCOPE_UNREAD);
    assert_non_null(fioscope_result_error(r));
    fioscope_result_free(r);
    /* a directory of logs with a .cmd sidecar is fine; several paths at once */
    const char *paths[] = {corpus_path("fio-3.13"), "/nonexistent"};
    char p0[4096];
    snprintf(p0, sizeof p0, "%s", paths[0]);
    paths[0] = p0;
    r = fioscope_parse_paths(paths, 1, 0);
    assert_int_equal(fioscope_result_status(r), FIOSCOPE_OK);
    size_t n1 = fioscope_result_run_count(r);
    assert_true(n1 > 20);
    fioscope_result_free(r);
    r = fioscope_parse_paths(paths, 2, FIOSCOPE_ALL_CORES);
    assert_int_equal(fioscope_result_status(r), FIOSCOPE_UNREAD);
    assert_int_equal(fioscope_result_run_count(r), n1);
    assert_string_equal(fioscope_result_error(r), "/nonexistent: cannot open: No such file or directory");
    fioscope_result_free(r);
}

/* The whole corpus folder of one version, as JSON. */
static void *parse_to_json(void *arg)
{
    fioscope_result *r = fioscope_parse_path(arg, 0);
    char *json = r ? fioscope_result_json(r, 0, NULL) : NULL;
    fioscope_result_free(r);
    return json;
}

static void test_threads(void **state)
{
    (void)state;
    char dir[4096];
    snprintf(dir, sizeof dir, "%s", corpus_path("fio-3.33"));
    char *alone = parse_to_json(dir);
    assert_non_null(alone);
    enum { N = 4 };
    pthread_t t[N];
    for (int i = 0; i < N; i++)
        assert_int_equal(pthread_create(&t[i], NULL, parse_to_json, dir), 0);
    for (int i = 0; i < N; i++) {
        void *got = NULL;
        assert_int_equal(pthread_join(t[i], &got), 0);
        assert_non_null(got);
        assert_string_equal(got, alone);
        free(got);
    }
    free(alone);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_path),   cmocka_unit_test(test_json),    cmocka_unit_test(test_buffer),
        cmocka_unit_test(test_bad_input), cmocka_unit_test(test_threads),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
