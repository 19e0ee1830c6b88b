/* SPDX-License-Identifier: MIT */
/* The terse reader on real records of every terse version (corpus fio-2.0.15 ..
 * fio-3.33); the expected numbers are the fields as fio printed them. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "corpus_file.h"
#include "parse_int.h"

#define FUZZ_ENTRY fuzz_terse_one
#include "../fuzz/fuzz_terse.c"

/* Read every line of a corpus terse file into a run, the way the orchestrator does
 * (terse lines, and the ';' description line that follows a v2 record). */
static fsc_run *read_terse_file(const char *rel, int want_version)
{
    size_t len = 0;
    char *data = corpus_read(rel, &len);
    assert_non_null(data);
    fsc_run *run = fsc_run_new();
    assert_non_null(run);
    uint32_t lineno = 0;
    for (char *line = data; line < data + len;) {
        char *nl = memchr(line, '\n', (size_t)(data + len - line));
        size_t n = nl ? (size_t)(nl - line) : (size_t)(data + len - line);
        lineno++;
        int v = fsc_terse_detect(line, n);
        if (v)
            assert_int_equal(v, want_version);
        if (v || (n && line[0] == ';'))
            assert_int_equal(fsc_terse_read(run, line, n, lineno), FSC_OK);
        line += n + 1;
    }
    free(data);
    return run;
}

/* 5;fio-3.33;randread;0;0;79084;39482;9870;2003;...;vda;18675;2;0;0;1026;2;1029;49.45% */
static void test_v5_fio333(void **state)
{
    (void)state;
    fsc_run *run = read_terse_file("fio-3.33/g_terse_v5.terse", 5);
    assert_int_equal(run->n_jobs, 1);
    assert_string_equal(run->source.fio_version, "fio-3.33");
    const fsc_job *j = &run->jobs[0];
    assert_string_equal(j->jobname, "randread");
    NUM_EQ(j->groupid, 0);
    NUM_EQ(j->error, 0);
    const fsc_dir *r = &j->dir[FSC_DIR_READ];
    assert_true(r->present);
    NUM_EQ(r->io_bytes, 79084.0 * 1024);
    NUM_EQ(r->bw, 39482);
    NUM_EQ(r->bw_bytes, 39482.0 * 1024);
    NUM_EQ(r->iops, 9870);
    NUM_EQ(r->runtime, 2003);
    NUM_EQ(r->lat[FSC_LAT_SLAT].max, 0);
    NUM_EQ(r->lat[FSC_LAT_CLAT].min, 35000);
    NUM_EQ(r->lat[FSC_LAT_CLAT].max, 18819000);
    NUM_EQ(r->lat[FSC_LAT_CLAT].mean, 97547.791);
    NUM_EQ(r->lat[FSC_LAT_CLAT].stddev, 500684.094);
    assert_int_equal(r->lat[FSC_LAT_CLAT].n_percentile, 17); /* 3 unused "0%=0" slots */
    assert_true(pctl(&r->lat[FSC_LAT_CLAT], 99.0)->ns == 929000);
    assert_true(pctl(&r->lat[FSC_LAT_CLAT], 99.99)->ns == 17694000);
    NUM_EQ(r->lat[FSC_LAT_LAT].mean, 97689.449);
    NUM_EQ(r->bw_min, 40200);
    NUM_EQ(r->bw_max, 41288);
    NUM_EQ(r->bw_agg, 100);
    NUM_EQ(r->bw_mean, 40888);
    NUM_EQ(r->bw_dev, 598.451335);
    NUM_EQ(r->bw_samples, 3);
    NUM_EQ(r->iops_min, 10050);
    NUM_EQ(r->iops_max, 10322);
    NUM_EQ(r->iops_mean, 10222);
    NUM_EQ(r->iops_stddev, 149.612834);
    NUM_EQ(r->iops_samples, 3);
    assert_true(j->dir[FSC_DIR_WRITE].present && j->dir[FSC_DIR_TRIM].present);
    assert_int_equal(j->dir[FSC_DIR_WRITE].lat[FSC_LAT_CLAT].n_percentile, 0); /* all zeros */
    NUM_EQ(j->usr_cpu, 3.396603);
    NUM_EQ(j->sys_cpu, 28.271728);
    NUM_EQ(j->ctx, 17840);
    NUM_EQ(j->majf, 0);
    NUM_EQ(j->minf, 11);
    assert_true(kv(&j->iodepth_level, "1") == 100.0);
    assert_true(kv(&j->iodepth_level, ">=64") == 0.0);
    assert_true(kv(&j->latency[FSC_BUCKET_US], "50") == 32.33);
    assert_true(kv(&j->latency[FSC_BUCKET_US], "100") == 63.06);
    assert_true(kv(&j->latency[FSC_BUCKET_MS], "2") == 0.37);
    assert_true(kv(&j->latency[FSC_BUCKET_MS], ">=2000") == 0.0);
    assert_int_equal(run->n_disk_util, 1);
    const fsc_disk *d = &run->disk_util[0];
    assert_string_equal(d->name, "vda");
    NUM_EQ(d->read_ios, 18675);
    NUM_EQ(d->write_ios, 2);
    NUM_EQ(d->read_ticks, 1026);
    NUM_EQ(d->in_queue, 1029);
    NUM_EQ(d->util, 49.45);
    assert_false(d->read_sectors.set); /* not in terse */
    assert_int_equal(run->n_warnings, 0);
    assert_null(j->description);
    fsc_run_free(run);
}

/* 5;fio-3.0;...: the first version with v5. */
static void test_v5_fio30(void **state)
{
    (void)state;
    fsc_run *run = read_terse_file("fio-3.0/g_terse_v5.terse", 5);
    assert_string_equal(run->source.fio_version, "fio-3.0");
    assert_true(run->jobs[0].dir[FSC_DIR_READ].iops_samples.set);
    assert_int_equal(run->n_disk_util, 1);
    assert_int_equal(run->n_warnings, 0);
    fsc_run_free(run);
}

/* 4;fio-3.33;randread;0;0;79948;39914;9978;2003;...;19425;0;11;...;vda;18554;5;0;0;1060;3;1068;49.51% */
static void test_v4_fio333(void **state)
{
    (void)state;
    fsc_run *run = read_terse_file("fio-3.33/g_terse_v4.terse", 4);
    const fsc_job *j = &run->jobs[0];
    const fsc_dir *r = &j->dir[FSC_DIR_READ];
    NUM_EQ(r->io_bytes, 79948.0 * 1024);
    NUM_EQ(r->bw, 39914);
    NUM_EQ(r->lat[FSC_LAT_CLAT].max, 22502000);
    assert_true(pctl(&r->lat[FSC_LAT_CLAT], 99.0)->ns == 864000);
    NUM_EQ(r->bw_dev, 2094.123444);
    assert_false(r->bw_samples.set); /* v5 only */
    assert_true(j->dir[FSC_DIR_TRIM].present);
    NUM_EQ(j->ctx, 19425);
    NUM_EQ(run->disk_util[0].in_queue, 1068);
    NUM_EQ(run->disk_util[0].util, 49.51);
    fsc_run_free(run);
}

/* fio 2.1.10 lost the disk util of v3/v4 (121 and 162 fields). */
static void test_v3_v4_fio2110_no_disk(void **state)
{
    (void)state;
    fsc_run *run = read_terse_file("fio-2.1.10/g_terse_v3.terse", 3);
    const fsc_job *j = &run->jobs[0];
    assert_string_equal(run->source.fio_version, "fio-2.1.10");
    assert_int_equal(run->n_disk_util, 0);
    NUM_EQ(j->dir[FSC_DIR_READ].io_bytes, 119420.0 * 1024);
    NUM_EQ(j->dir[FSC_DIR_READ].lat[FSC_LAT_CLAT].max, 16103000);
    NUM_EQ(j->dir[FSC_DIR_READ].lat[FSC_LAT_CLAT].mean, 65438.486);
    assert_true(pctl(&j->dir[FSC_DIR_READ].lat[FSC_LAT_CLAT], 99.0)->ns == 390000);
    NUM_EQ(j->dir[FSC_DIR_READ].bw_mean, 60994.666667);
    assert_false(j->dir[FSC_DIR_TRIM].present); /* v3: read and write only */
    NUM_EQ(j->ctx, 29831);
    NUM_EQ(j->minf, 6);
    assert_true(kv(&j->latency[FSC_BUCKET_US], "50") == 87.75);
    assert_null(j->description);
    assert_int_equal(run->n_warnings, 0);
    fsc_run_free(run);

    run = read_terse_file("fio-2.1.10/g_terse_v4.terse", 4);
    assert_true(run->jobs[0].dir[FSC_DIR_TRIM].present);
    assert_int_equal(run->n_disk_util, 0);
    assert_true(run->jobs[0].minf.set);
    fsc_run_free(run);
}

/* 3;fio-2.0.15;...: v3 with disk util and the older fio version. */
static void test_v3_fio2015(void **state)
{
    (void)state;
    fsc_run *run = read_terse_file("fio-2.0.15/g_terse_v3.terse", 3);
    const fsc_job *j = &run->jobs[0];
    NUM_EQ(j->dir[FSC_DIR_READ].io_bytes, 1845140.0 * 1024);
    NUM_EQ(j->dir[FSC_DIR_READ].iops, 230527);
    NUM_EQ(j->dir[FSC_DIR_READ].lat[FSC_LAT_CLAT].mean, 3579.904);
    NUM_EQ(j->dir[FSC_DIR_READ].bw_agg, 97.984003);
    NUM_EQ(j->sys_cpu, 43.7);
    assert_int_equal(run->n_disk_util, 1);
    NUM_EQ(run->disk_util[0].read_ios, 17);
    NUM_EQ(run->disk_util[0].util, 0.2);
    fsc_run_free(run);
}

/* 2;randread;0;0;1802060;...  then a ";" line (the empty v2 description). */
static void test_v2_fio2015(void **state)
{
    (void)state;
    fsc_run *run = read_terse_file("fio-2.0.15/g_terse_v2.terse", 2);
    assert_int_equal(run->n_jobs, 1);
    assert_null(run->source.fio_version); /* v2 does not say */
    const fsc_job *j = &run->jobs[0];
    assert_string_equal(j->jobname, "randread");
    const fsc_dir *r = &j->dir[FSC_DIR_READ];
    NUM_EQ(r->io_bytes, 1802060.0 * 1024);
    NUM_EQ(r->bw, 901030);
    NUM_EQ(r->iops, 225257);
    NUM_EQ(r->lat[FSC_LAT_CLAT].max, 11331000);
    NUM_EQ(r->lat[FSC_LAT_CLAT].mean, 3747.764);
    assert_true(pctl(&r->lat[FSC_LAT_CLAT], 99.99)->ns == 3568000);
    NUM_EQ(r->lat[FSC_LAT_LAT].min, 1000);
    NUM_EQ(r->bw_agg, 95.715644);
    assert_true(j->dir[FSC_DIR_TRIM].present); /* v2 has trim from 2.0.10 on */
    NUM_EQ(j->usr_cpu, 17.4);
    NUM_EQ(j->sys_cpu, 45.35);
    NUM_EQ(j->ctx, 438);
    assert_int_equal(run->n_disk_util, 0);
    assert_null(j->description);
    fsc_run_free(run);
}

/* fio 2.0.5 wrote v2 without trim (120 fields): the same record minus its trim block. */
static void test_v2_without_trim(void **state)
{
    (void)state;
    size_t len = 0;
    char *data = corpus_read("fio-3.33/g_terse_v2.terse", &len);
    assert_non_null(data);
    char *fields[200];
    size_t n = 0;
    for (char *tok = strtok(data, ";\n"); tok && n < 200; tok = strtok(NULL, ";\n"))
        fields[n++] = tok;
    assert_int_equal(n, 161);
    fsc_buf line = {0};
    for (size_t i = 0; i < n; i++) {
        if (i >= 86 && i < 127)
            continue; /* 1 + 3 header + 2 x 41 direction fields, then trim */
        if (line.len)
            fsc_buf_putc(&line, ';');
        fsc_buf_puts(&line, fields[i]);
    }
    fsc_buf_puts(&line, "\n;a job with a description");
    char *nl = strchr(line.data, '\n');
    assert_int_equal(fsc_terse_detect(line.data, (size_t)(nl - line.data)), 2);
    fsc_run *run = fsc_run_new();
    assert_int_equal(fsc_terse_read(run, line.data, (size_t)(nl - line.data), 1), FSC_OK);
    assert_int_equal(fsc_terse_read(run, nl + 1, strlen(nl + 1), 2), FSC_OK);
    const fsc_job *j = &run->jobs[0];
    assert_false(j->dir[FSC_DIR_TRIM].present);
    NUM_EQ(j->dir[FSC_DIR_READ].bw, 43878);
    NUM_EQ(j->ctx, 21484);
    assert_string_equal(j->description, "a job with a description");
    fsc_run_free(run);
    fsc_buf_free(&line);
    free(data);
}

/* The tail after the job fields: an md device with its slave aggregate, a member
 * disk, continue_on_error totals and a description holding a ';'. The tail is made
 * up here (in fio's terse order); the head is a real 3.33 record. */
static void test_v3_tail(void **state)
{
    (void)state;
    size_t len = 0;
    char *data = corpus_read("fio-3.33/g_terse_v3.terse", &len);
    assert_non_null(data);
    char *vda = strstr(data, ";vda;");
    assert_non_null(vda);
    fsc_buf line = {0};
    fsc_buf_add(&line, data, (size_t)(vda - data));
    fsc_buf_puts(&line, ";md0;100;200;0;0;0;0;0;0.00%;slaves;50;100;1;2;30;40;70;45.50%"
                        ";sda;50;100;1;2;30;40;70;45.50%;3;5;two parts; of a description");
    assert_int_equal(fsc_terse_detect(line.data, line.len), 3);
    fsc_run *run = fsc_run_new();
    assert_int_equal(fsc_terse_read(run, line.data, line.len, 7), FSC_OK);
    assert_int_equal(run->n_disk_util, 2);
    const fsc_disk *md = &run->disk_util[0];
    assert_string_equal(md->name, "md0");
    NUM_EQ(md->read_ios, 100);
    NUM_EQ(md->write_ios, 200);
    NUM_EQ(md->aggr_read_ios, 50);
    NUM_EQ(md->aggr_write_ios, 100);
    NUM_EQ(md->aggr_read_merges, 1);
    NUM_EQ(md->aggr_write_merge, 2);
    NUM_EQ(md->aggr_read_ticks, 30);
    NUM_EQ(md->aggr_write_ticks, 40);
    NUM_EQ(md->aggr_in_queue, 70);
    NUM_EQ(md->aggr_util, 45.5);
    assert_string_equal(run->disk_util[1].name, "sda");
    assert_false(run->disk_util[1].aggr_util.set);
    assert_string_equal(run->jobs[0].description, "two parts; of a description");
    assert_int_equal(run->jobs[0].first_line, 7);
    assert_int_equal(run->n_warnings, 0);
    fsc_run_free(run);
    fsc_buf_free(&line);
    free(data);
}

/* Several jobs: one line each, the disk util repeated on every line is kept once. */
static void test_multijob(void **state)
{
    (void)state;
    fsc_run *run = read_terse_file("fio-3.33/g_terse_multijob.terse", 3);
    assert_int_equal(run->n_jobs, 4);
    assert_int_equal(run->n_disk_util, 1);
    for (size_t i = 0; i < 4; i++) {
        assert_string_equal(run->jobs[i].jobname, "randwrite");
        assert_int_equal(run->jobs[i].first_line, i + 1);
        assert_true(run->jobs[i].dir[FSC_DIR_WRITE].iops.v > 0);
    }
    fsc_run_free(run);
}

/* A record glued to the end of a truncated progress line ("[eta 043;fio-3.28;..."). */
static void test_glued_to_progress(void **state)
{
    (void)state;
    size_t len = 0;
    char *data = corpus_read("wild/hikalium__bench/result_2408X01456JF.txt", &len);
    assert_non_null(data);
    char *at = strstr(data, "[eta 043;fio-3.28;Seq1M-Read-Q8;");
    assert_non_null(at);
    char *start = at;
    while (start > data && start[-1] != '\n')
        start--;
    size_t n = (size_t)(strchr(at, '\n') - start);
    assert_int_equal(fsc_terse_detect(start, n), 3);
    fsc_run *run = fsc_run_new();
    assert_int_equal(fsc_terse_read(run, start, n, 14), FSC_OK);
    assert_string_equal(run->jobs[0].jobname, "Seq1M-Read-Q8");
    NUM_EQ(run->jobs[0].dir[FSC_DIR_READ].io_bytes, 1048576.0 * 1024);
    NUM_EQ(run->jobs[0].dir[FSC_DIR_READ].bw, 87098);
    assert_int_equal(run->n_warnings, 1); /* says where the record starts */
    fsc_run_free(run);
    free(data);
}

static void test_detect_rejects(void **state)
{
    (void)state;
    static const char *const prose[] = {
        "",
        ";",
        "hello; world",
        "3;fio-3.33;randread;0;0;79084;39482",
        "see 3;fio-3.33 for details",
        "The numbers were 2; 3; 4; and 5;",
    };
    for (size_t i = 0; i < FSC_ARRAY_SIZE(prose); i++)
        assert_int_equal(fsc_terse_detect(prose[i], strlen(prose[i])), 0);
    /* long ';' lists that are not terse records */
    fsc_buf b = {0};
    for (int i = 0; i < 150; i++)
        fsc_buf_puts(&b, i ? ";0" : "3;fio-3.33");
    assert_int_equal(fsc_terse_detect(b.data, b.len), 0); /* no percentile fields */
    fsc_buf_free(&b);
    /* real records with one field changed */
    static const struct {
        const char *file, *from, *to;
    } bent[] = {
        {"fio-3.33/g_terse_v3.terse", "3;fio-3.33;", "6;fio-3.33;"},
        {"fio-3.33/g_terse_v3.terse", "3;fio-3.33;", "3;abc;"},
        {"fio-3.33/g_terse_v3.terse", "3;fio-3.33;", "1;fio-3.33;"},
        {"fio-3.33/g_terse_v2.terse", "2;randread;0;0;", "2;randread;x;0;"},
        {"fio-3.33/g_terse_v2.terse", "2;randread;0;0;", "2;randread;0;0;1;"}, /* shifted */
    };
    for (size_t i = 0; i < FSC_ARRAY_SIZE(bent); i++) {
        size_t len = 0;
        char *data = corpus_read(bent[i].file, &len);
        assert_non_null(data);
        assert_true(strncmp(data, bent[i].from, strlen(bent[i].from)) == 0);
        assert_int_not_equal(fsc_terse_detect(data, strcspn(data, "\n")), 0);
        fsc_buf line = {0};
        fsc_buf_puts(&line, bent[i].to);
        fsc_buf_puts(&line, data + strlen(bent[i].from));
        assert_int_equal(fsc_terse_detect(line.data, strcspn(line.data, "\n")), 0);
        fsc_buf_free(&line);
        free(data);
    }
}

/* fio prints a job's name as it is, ';' included: a v3+ record of "rand;om;read" has
 * two fields more, and reads as the record of that name (a v2 record so shifted is
 * none: test_detect_rejects). */
static void test_name_with_semicolons(void **state)
{
    (void)state;
    size_t len = 0;
    char *data = corpus_read("fio-3.33/g_terse_v3.terse", &len);
    assert_non_null(data);
    const char *from = "3;fio-3.33;randread;";
    assert_true(strncmp(data, from, strlen(from)) == 0);
    fsc_buf line = {0};
    fsc_buf_puts(&line, "3;fio-3.33;rand;om;read;");
    fsc_buf_puts(&line, data + strlen(from));
    size_t n = strcspn(line.data, "\n");
    assert_int_equal(fsc_terse_detect(line.data, n), 3);
    assert_int_equal(fsc_terse_detect_ref(line.data, n), 3);
    fsc_run *run = fsc_run_new();
    assert_int_equal(fsc_terse_read(run, line.data, n, 1), FSC_OK);
    assert_int_equal(run->n_jobs, 1);
    assert_string_equal(run->jobs[0].jobname, "rand;om;read");
    NUM_EQ(run->jobs[0].dir[FSC_DIR_READ].io_bytes, 91952.0 * 1024);
    NUM_EQ(run->jobs[0].dir[FSC_DIR_READ].runtime, 2001);
    assert_int_equal(run->n_warnings, 0);
    fsc_run_free(run);
    fsc_buf_free(&line);
    free(data);
}

/* Every prefix of a real record: detection or reading never crashes, and a record
 * cut short still gives the fields it has. */
static void test_truncated_records(void **state)
{
    (void)state;
    size_t len = 0;
    char *data = corpus_read("fio-3.33/g_terse_v5.terse", &len);
    assert_non_null(data);
    while (len && data[len - 1] == '\n')
        len--;
    for (size_t n = 0; n <= len; n += 7) {
        int v = fsc_terse_detect(data, n);
        if (!v)
            continue;
        assert_int_equal(v, 5);
        fsc_run *run = fsc_run_new();
        assert_int_equal(fsc_terse_read(run, data, n, 1), FSC_OK);
        assert_int_equal(run->n_jobs, 1);
        NUM_EQ(run->jobs[0].dir[FSC_DIR_READ].bw, 39482);
        fsc_run_free(run);
    }
    free(data);
}

/* Text a damaged or hand-edited field may hold: signs, exponents, long digit runs
 * (past 15, 18 and 19 digits, past 2^53 and 2^64), stray points, percent signs and
 * '=' where they do not belong, blanks, and a ';' that shifts every field after it. */
static const char *const odd_values[] = {
    "", "0", "-1", "+5", "1e3", "0x10", "1.2.3", ".", "5.", ".5", "%", "50%%", "99.5%", "1.000000%=", "=5",
    "%=", "12345678901234567", "123456789012345678", "1234567890123456789", "99999999999999999999",
    "1234567890123456.5", "123456789012345.5", "9007199254740993", "0.0000001", "0.1234567", "1.0000000000000000001",
    "18446744073709551615", "3.14159265358979", "2.000000", "0.100", " 5", "5 ", "\r", "1;2", ";", "abc",
    "99.990000%=46848", "0%=0", "1.5%=-3", "33.333333%=1.5", "vda", "100.00%", "0.01%", "1024.123456789"};

/* line with field k (and, with stride > 0, every stride-th field after it) replaced
 * by value. */
static void bend_fields(fsc_buf *out, const char *line, size_t n, size_t k, size_t stride, const char *value)
{
    size_t field = 0;
    const char *p = line, *end = line + n;
    fsc_buf_reset(out);
    for (;;) {
        const char *semi = memchr(p, ';', (size_t)(end - p));
        const char *fe = semi ? semi : end;
        bool bent = field == k || (stride && field > k && (field - k) % stride == 0);
        if (bent)
            fsc_buf_puts(out, value);
        else
            fsc_buf_add(out, p, (size_t)(fe - p));
        if (!semi)
            break;
        fsc_buf_putc(out, ';');
        p = semi + 1;
        field++;
    }
}

/* The fast reader (compiled layout, vector split, fast decimals) gives what the
 * reference gives on real records of every version, on each of them with its fields
 * bent into odd text, cut short, glued to other text and with CRLF endings. */
static void test_fast_equals_reference(void **state)
{
    (void)state;
    static const char *const files[] = {"fio-3.33/g_terse_v2.terse", "fio-3.33/g_terse_v3.terse",
                                        "fio-3.33/g_terse_v4.terse", "fio-3.33/g_terse_v5.terse",
                                        "fio-2.0.15/g_terse_v3.terse", "fio-3.33/g_terse_multijob.terse",
                                        "fio-3.0/g_terse_v5.terse", "fio-2.1.10/g_terse_group.terse"};
    fsc_buf b = {0};
    for (size_t fi = 0; fi < FSC_ARRAY_SIZE(files); fi++) {
        size_t len = 0;
        char *data = corpus_read(files[fi], &len);
        assert_non_null(data);
        assert_true(terse_same((const uint8_t *)data, len)); /* the file as it is */
        size_t n = strcspn(data, "\n");
        for (size_t cut = 0; cut < n; cut += 11)
            assert_true(terse_same((const uint8_t *)data, cut));
        static const char *const glue[] = {"[eta 04", "+", "  \t", "x;y;"};
        for (size_t g = 0; g < FSC_ARRAY_SIZE(glue); g++) {
            fsc_buf_reset(&b);
            fsc_buf_puts(&b, glue[g]);
            fsc_buf_add(&b, data, n);
            fsc_buf_puts(&b, "\r \r\n");
            fsc_buf_add(&b, data, len);
            assert_true(terse_same((const uint8_t *)b.data, b.len));
        }
        for (size_t v = 0; v < FSC_ARRAY_SIZE(odd_values); v++) {
            for (size_t k = 0; k < 24; k++) { /* the header and detection fields, one at a time */
                bend_fields(&b, data, n, k, 0, odd_values[v]);
                assert_true(terse_same((const uint8_t *)b.data, b.len));
            }
            for (size_t k = 1; k < 8; k++) { /* every 7th field after the first ones */
                bend_fields(&b, data, n, k, 7, odd_values[v]);
                assert_true(terse_same((const uint8_t *)b.data, b.len));
            }
        }
        free(data);
    }
    fsc_buf_free(&b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_v5_fio333),
        cmocka_unit_test(test_v5_fio30),
        cmocka_unit_test(test_v4_fio333),
        cmocka_unit_test(test_v3_v4_fio2110_no_disk),
        cmocka_unit_test(test_v3_fio2015),
        cmocka_unit_test(test_v2_fio2015),
        cmocka_unit_test(test_v2_without_trim),
        cmocka_unit_test(test_v3_tail),
        cmocka_unit_test(test_multijob),
        cmocka_unit_test(test_glued_to_progress),
        cmocka_unit_test(test_name_with_semicolons),
        cmocka_unit_test(test_detect_rejects),
        cmocka_unit_test(test_truncated_records),
        cmocka_unit_test(test_fast_equals_reference),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
