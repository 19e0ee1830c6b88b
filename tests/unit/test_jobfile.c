/* SPDX-License-Identifier: MIT */
/* fio job files (inih) and fio-style command lines: defaults, globals, value-less
 * flags, sizes, and errors that name the option and the file:line. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "fioscope/engine.h"

static char *write_tmp(const char *text)
{
    char *path = strdup("/tmp/fsc_jobfile_XXXXXX");
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
    close(fd);
    return path;
}

static void test_sizes(void **state)
{
    static const struct {
        const char *in;
        uint64_t want;
    } ok[] = {{"4k", 4096},       {"64m", 64ull << 20}, {"1g", 1ull << 30}, {"512", 512},
              {"16KiB", 16384},   {"2M", 2ull << 20},   {"8kb", 8192}};
    (void)state;
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
        uint64_t v = 0;
        assert_int_equal(fsc_parse_fio_size(ok[i].in, &v), FSC_OK);
        assert_true(v == ok[i].want);
    }
    uint64_t v;
    assert_int_equal(fsc_parse_fio_size("4x", &v), FSC_E_SYNTAX);
    assert_int_equal(fsc_parse_fio_size("", &v), FSC_E_SYNTAX);
}

static void test_job_file(void **state)
{
    (void)state;
    char *path = write_tmp("; a comment\n"
                           "[global]\n"
                           "ioengine=null\n"
                           "size=16m\n"
                           "  runtime=2\n"
                           "time_based\n"
                           "\n"
                           "[seqread]\n"
                           "rw=read\n"
                           "bs=1m\n"
                           "\n"
                           "[randwrite]\n"
                           "stonewall\n"
                           "rw=randwrite\n"
                           "iodepth=8\n"
                           "numjobs=2\n"
                           "group_reporting\n"
                           "percentile_list=99:50:99.9\n");
    fsc_jobset js;
    char err[256] = "";
    fsc_jobset_init(&js);
    assert_int_equal(fsc_jobset_read_file(&js, path, err, sizeof err), FSC_OK);
    assert_int_equal(js.n_jobs, 2);
    const fsc_jobdef *a = &js.jobs[0], *b = &js.jobs[1];
    assert_string_equal(a->name, "seqread");
    assert_string_equal(a->ioengine, "null");
    assert_true(a->size == 16ull << 20);
    assert_true(a->bs == 1ull << 20);
    assert_true(a->runtime_ms == 2000);
    assert_true(a->time_based);
    assert_false(a->new_group);
    assert_int_equal(a->n_pcts, 17); /* fio's default list */
    assert_int_equal(a->src_line, 8); /* the [seqread] line */
    assert_string_equal(b->name, "randwrite");
    assert_int_equal(b->rw, FSC_RW_RANDWRITE);
    assert_true(b->new_group);
    assert_true(b->group_reporting);
    assert_int_equal(b->iodepth, 8);
    assert_int_equal(b->numjobs, 2);
    assert_int_equal(b->bs, 4096); /* default */
    assert_int_equal(b->n_pcts, 3);
    assert_true(b->pcts[0] == 50 && b->pcts[1] == 99 && b->pcts[2] == 99.9); /* sorted */
    assert_int_equal(fsc_jobset_check(&js, err, sizeof err), FSC_OK);
    fsc_jobset_free(&js);
    unlink(path);
    free(path);
}

static void expect_file_error(const char *text, const char *want)
{
    char *path = write_tmp(text);
    fsc_jobset js;
    char err[256] = "", full[512];
    fsc_jobset_init(&js);
    assert_int_not_equal(fsc_jobset_read_file(&js, path, err, sizeof err), FSC_OK);
    snprintf(full, sizeof full, "%s%s", path, want);
    if (strncmp(err, full, strlen(full)))
        print_message("got: %s\nwant: %s\n", err, full);
    assert_int_equal(strncmp(err, full, strlen(full)), 0);
    fsc_jobset_free(&js);
    unlink(path);
    free(path);
}

static void test_file_errors(void **state)
{
    (void)state;
    expect_file_error("[job]\nrw=read\nverfy=crc32c\n", ":3: unknown or unsupported option 'verfy' (did you mean 'verify'?)");
    expect_file_error("[global]\nsize=1g\n[job]\nrw=trim\n",
                      ":4: rw=trim is not supported (read, write, randread, randwrite, rw, readwrite, randrw)");
    expect_file_error("[job]\n\nbs=12q\n", ":3: bs=12q: not a size");
    expect_file_error("[job]\nioengine=posixaio\n", ":2: ioengine=posixaio is not available in this build");
}

/* A section without options is still a job (fio runs it with the globals). */
static void test_empty_section(void **state)
{
    (void)state;
    char *path = write_tmp("[global]\nsize=1m\n[a]\n[b]\nrw=write\n");
    fsc_jobset js;
    char err[256] = "";
    fsc_jobset_init(&js);
    assert_int_equal(fsc_jobset_read_file(&js, path, err, sizeof err), FSC_OK);
    assert_int_equal(js.n_jobs, 2);
    assert_string_equal(js.jobs[0].name, "a");
    assert_int_equal(js.jobs[0].src_line, 3);
    assert_true(js.jobs[0].size == 1u << 20);
    assert_string_equal(js.jobs[1].name, "b");
    assert_int_equal(js.jobs[1].rw, FSC_RW_WRITE);
    fsc_jobset_free(&js);
    unlink(path);
    free(path);
}

static void test_missing_file(void **state)
{
    fsc_jobset js;
    char err[256];
    (void)state;
    fsc_jobset_init(&js);
    assert_int_equal(fsc_jobset_read_file(&js, "/nonexistent/x.fio", err, sizeof err), FSC_E_IO);
    assert_non_null(strstr(err, "/nonexistent/x.fio"));
    fsc_jobset_free(&js);
}

static void test_args(void **state)
{
    (void)state;
    const char *argv[] = {"--ioengine=null", "--size=1m", "--name=a", "--rw=randrw", "--rwmixread=70",
                    "--name=b",        "--bs=64k",  "--direct=1", "--time_based", "--runtime=500ms"};
    fsc_jobset js;
    char err[256] = "";
    fsc_jobset_init(&js);
    assert_int_equal(fsc_jobset_read_args(&js, 10, (char **)argv, err, sizeof err), FSC_OK);
    assert_int_equal(js.n_jobs, 2);
    assert_string_equal(js.jobs[0].ioengine, "null");
    assert_int_equal(js.jobs[0].rw, FSC_RW_RANDRW);
    assert_int_equal(js.jobs[0].rwmixread, 70);
    assert_int_equal(js.jobs[1].rw, FSC_RW_READ); /* per-job options do not leak */
    assert_true(js.jobs[1].bs == 65536);
    assert_true(js.jobs[1].direct);
    assert_true(js.jobs[1].time_based);
    assert_true(js.jobs[1].runtime_ms == 500);
    assert_true(js.jobs[1].size == 1u << 20);
    fsc_jobset_free(&js);

    const char *bad[] = {"--name=x", "--frobnicate=3"};
    fsc_jobset_init(&js);
    assert_int_equal(fsc_jobset_read_args(&js, 2, (char **)bad, err, sizeof err), FSC_E_USAGE);
    assert_non_null(strstr(err, "frobnicate"));
    fsc_jobset_free(&js);

    const char *nosize[] = {"--name=x"};
    fsc_jobset_init(&js);
    assert_int_equal(fsc_jobset_read_args(&js, 1, (char **)nosize, err, sizeof err), FSC_OK);
    assert_int_equal(fsc_jobset_check(&js, err, sizeof err), FSC_E_USAGE);
    assert_non_null(strstr(err, "size is not set"));
    fsc_jobset_free(&js);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sizes),       cmocka_unit_test(test_job_file), cmocka_unit_test(test_file_errors),
        cmocka_unit_test(test_empty_section), cmocka_unit_test(test_missing_file), cmocka_unit_test(test_args),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
