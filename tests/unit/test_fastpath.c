/* SPDX-License-Identifier: MIT */
/* Proof of sameness: every document of the shared corpus, the seeds, samples/, the
 * repository's fixtures and saved fuzz inputs parses to byte-identical output with
 * the fast path and with the grammar path alone (tests/fuzz/fuzz_fastpath.c), whole
 * and cut off at many places (a piece of a huge file ends anywhere). */
#define FUZZ_ENTRY fuzz_fastpath_one
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../fuzz/fuzz_fastpath.c"
#include "fastline.h"
#include "parse_int.h"
#include "fioscope/model.h"

typedef struct tally {
    size_t docs, cuts, differ, plain, verdicts, verdicts_differ, normal, checked_differ;
} tally;

/* The verdict on text[0, n) in parts is the verdict on it whole, however it is cut. */
static void check_verdict(const char *path, const char *text, size_t n, tally *t)
{
    bool plain;
    t->verdicts_differ += plain_parts_differ(path, text, n, &plain);
    t->verdicts += 8;
    t->plain += plain;
}

static void check_file(const char *path, tally *t)
{
    struct stat sb;
    if (stat(path, &sb) != 0 || !S_ISREG(sb.st_mode) || sb.st_size > (8 << 20))
        return;
    FILE *f = fopen(path, "rb");
    if (!f)
        return;
    uint8_t *buf = malloc((size_t)sb.st_size + 1);
    size_t got = buf ? fread(buf, 1, (size_t)sb.st_size, f) : 0;
    fclose(f);
    if (!buf)
        return;
    t->docs++;
    if (!fastpath_same(path, buf, got, 0))
        t->differ++;
    check_verdict(path, (const char *)buf, got, t);
    /* fio's normal text alone: its pieces read the same checked (fsc_doc.checked) */
    t->normal += fsc_text_kind_of((const char *)buf, got) == FSC_TEXT_NORMAL;
    t->checked_differ += checked_differ(path, (const char *)buf, got);
    /* cut off at 7 places inside lines, and a piece that starts later in its file */
    for (size_t k = 1; k <= 7 && got > 16; k++) {
        size_t cut = got * k / 8 + k;
        if (cut >= got)
            continue;
        t->cuts++;
        if (!fastpath_same(path, buf, cut, 0) || !fastpath_same(path, buf + cut, got - cut, 1000))
            t->differ++;
        check_verdict(path, (const char *)buf, cut, t);
    }
    free(buf);
}

static void check_tree(const char *dir, tally *t)
{
    DIR *d = opendir(dir);
    if (!d) {
        check_file(dir, t);
        return;
    }
    struct dirent *de;
    while ((de = readdir(d))) {
        if (de->d_name[0] == '.')
            continue;
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
        struct stat sb;
        if (stat(path, &sb) != 0)
            continue;
        if (S_ISDIR(sb.st_mode))
            check_tree(path, t);
        else
            check_file(path, t);
    }
    closedir(d);
}

static void test_same_output(void **state)
{
    (void)state;
    const char *src = getenv("FSC_SOURCE_DIR"), *corpus = getenv("FSC_CORPUS");
    assert_non_null(src);
    tally t = {0};
    static const char *const own[] = {"samples", "tests/oracle/fixtures", "tests/damage/fixtures", "tests/golden",
                                      "tests/fuzz/regress"};
    char path[4096];
    for (size_t i = 0; i < sizeof own / sizeof own[0]; i++) {
        snprintf(path, sizeof path, "%s/%s", src, own[i]);
        check_tree(path, &t);
    }
    if (corpus) {
        check_tree(corpus, &t);
        snprintf(path, sizeof path, "%s/../seeds", corpus);
        check_tree(path, &t);
    }
    printf("fast path vs grammar path: %zu documents, %zu cut, %zu differ\n", t.docs, t.cuts, t.differ);
    printf("plain verdict whole vs in parts: %zu documents plain, %zu verdicts, %zu differ\n", t.plain, t.verdicts,
           t.verdicts_differ);
    printf("checked pieces vs asked line by line: %zu documents normal, %zu differ\n", t.normal, t.checked_differ);
    assert_true(t.docs > 100 || !corpus);
    assert_true(t.plain > 20 || !corpus);
    assert_int_equal(t.differ, 0);
    assert_int_equal(t.verdicts_differ, 0);
    assert_true(t.normal > 20 || !corpus);
    assert_int_equal(t.checked_differ, 0);
}

/* grep -H over a log of results only: every line has a '=' and starts with "read" */
#define PREFIXED_GREP                                                                                       \
    "read.log:randread: (groupid=0, jobs=1): err= 0: pid=30894: Mon Nov 30 02:48:04 2026\n"                 \
    "read.log:  read: IOPS=10.9k, BW=42.8MiB/s (44.8MB/s)(85.5MiB/2001msec)\n"                             \
    "read.log:    clat (usec): min=30, max=17032, avg=88.61, stdev=482.97\n"                                 \
    "read.log:     lat (usec): min=30, max=17032, avg=88.77, stdev=482.99\n"                                 \
    "read.log:   bw (  KiB/s): min=42219, max=48272, per=100.00%, avg=45177.00, stdev=3028.82, samples=3\n"

/* Shapes near the fast path's edges: each must read the same either way. */
static void test_edge_lines(void **state)
{
    (void)state;
    static const char *const docs[] = {
        "a: (groupid=0, jobs=1): err= 0: pid=1: Mon Nov 30 02:48:07 2026\n"
        "  read: IOPS=1k, BW=4000KiB/s (4096kB/s)(8000KiB/2000msec)\n"
        "    clat (usec): min=1, max=2G, avg=1.5, stdev=0.25\n"
        "    clat percentiles (usec):\n"
        "     |  1.00th=[    1],  5.00th=[    2], 99.99th=[18446744073709551615],\n"
        "     | 100.00th=[3], 100.01th=[4], 995.00th=[5]\n"
        "   bw (  TiB/s): min=1, max=2, per=3%, avg=4, stdev=5, samples=6\n"
        "   iops        : min=1, max=2, avg=3, stdev=4, samples=5\n"
        "  lat (usec)   : 2=0.01%, 10=0.01%, >=2000=0.10%\n"
        "  cpu          : usr=1.94%, sys=13.53%, ctx=18446744073709341660, majf=0, minf=12\n"
        "  IO depths    : 1=100.0%, 2=0.0%, >=64=0.0%\n"
        "     issued rwts: total=0,36673,0,0 short=0,0,0,0 dropped=0,0,0,0\n"
        "     latency   : target=0.00ns, window=0, percentile=100.00%, depth=1\n",
        /* numbers around the width of dec()'s words: 7, 8 and 9 digits, as many
         * decimals, leading zeros, "1." and "1.x", 20 digits, at the end of a line */
        "a: (groupid=0, jobs=1): err= 0: pid=1234567: Mon Nov 30 02:48:07 2026\n"
        "  read: IOPS=1, BW=1B/s (1B/s)(1B/1msec)\n"
        "    clat (usec): min=1234567, max=12345678, avg=1234567.1234567, stdev=123456789.12345678\n"
        "     lat (nsec): min=7, max=99999999, avg=0.12345678, stdev=1.\n"
        "    slat (nsec): min=0000001, max=1.x, avg=9999999.9999999, stdev=00000000.0000000\n"
        "   bw (  KiB/s): min=1, max=12345678901234567890, per=100.0000000%, avg=1.5, stdev=12.3456789012, "
        "samples=1234567\n"
        "   iops        : min=1234567.1, max=12345678.12345678, avg=3, stdev=4, samples=99999999\n"
        "  cpu          : usr=1.0000001%, sys=0.1234567%, ctx=1234567, majf=12345678, minf=123456789\n"
        "  IO depths    : 1=100.0000000%, 2=0.00000001%, 4=0.1234567%\n"
        "     issued rwts: total=1234567,12345678,123456789,0 short=0,0,0,0 dropped=0,0,0,0\n"
        "     latency   : target=1234567, window=12345678, percentile=99.9999999%, depth=1\n"
        "  lat (usec)   : 2=0.0000001%, 10=0.12345678%\n  lat (msec)   : 2=1.",
        /* a wrapped line: the grammar joins it */
        "x: (groupid=0, jobs=1): err= 0: pid=1\n  read: IOPS=1, BW=1B/s (1B/s)(1B/1msec)\n"
        "   bw (  KiB/s): min=1, max=2, per=3%,\n avg=4, stdev=5, samples=6\n",
        /* job names that are leads of other rules */
        "fio: (groupid=0, jobs=1): err= 0: pid=1\nread: (groupid=0, jobs=1): err= 0: pid=2\n"
        "steadystate: (groupid=0, jobs=1): err= 0: pid=3\n",
        /* control bytes (a tab, a form feed) near the start, the middle and the end of
         * lines of 8 to 40 bytes: such lines are the grammar's */
        "a: (groupid=0, jobs=1): err= 0: pid=1\n  read: IOPS=1k, BW=4000KiB/s (4096kB/s)(8000KiB/2000msec)\t\n"
        "  cpu\t: usr=1%, sys=2%\n  lat (usec): 2=0.01%,\f 10=0.01%\n  lat\t(usec)   : 2=0.01%, 10=0.01%, 20=1.1%\n"
        "     |  1.00th=[    1],  5.00th=[    2]\x01\n  IO depths    : 1=100.0%, 2=0.0%, 4=0.0%\x1f\n",
        /* jobs named after a direction (lexed past the dir rules' leads) */
        "mixed: (g=0): rw=randrw, bs=(R) 4096B-4096B, (W) 4096B-4096B, (T) 4096B-4096B, ioengine=libaio, iodepth=1\n"
        "fio-3.33\nStarting 1 process\nmixed: Laying out IO file (1 file / 1MiB)\n"
        "mixed: (groupid=0, jobs=1): err= 0: pid=1: Mon Nov 30 02:48:07 2026\n"
        "  mixed: IOPS=1, BW=1B/s (1B/s)(1B/1msec)\ntrim: (groupid=0, jobs=1): err= 0: pid=2\n"
        "  trim : io=1KB, bw=1KB/s, iops=1, runt=  1msec\ntrim info 1\ntrim: info\nwrite: ios=1/2, merge=0/0\n"
        "read: (g=1): rw=read, bs=4K-4K/4K-4K/4K-4K, ioengine=psync, iodepth=1\nread :(groupid=1, jobs=1): err= 0: pid=3\n",
        /* a percentile row whose successor continues it */
        "    clat percentiles (usec):\n     |  1.00th=[    1],\n  5.00th=[    2]\n",
        /* a job line the layout rule takes first */
        "x: (groupid=0, jobs=1): err= 0: pid=1: Laying out IO file\n  read: IOPS=1, BW=1B/s (1B/s)(1B/1msec)\n",
        /* JSON: jobs before the version, duplicate keys, disks before jobs, escapes,
         * big and odd numbers, client_stats */
        "{\"disk_util\":[{\"name\":\"sda\",\"read_ios\":18446744073709551615}],\"jobs\":[{\"jobname\":\"a\","
        "\"read\":{\"io_bytes\":12345678901234,\"bw\":1.5e3,\"iops\":-0,\"clat_ns\":{\"percentile\":"
        "{\"1.000000\":0,\"99.000000\":0}}}}],\"fio version\":\"fio-2.20\",\"jobs\":[]}\n",
        "{\"fio version\":\"fio-3.33\",\"jobs\":[{\"jobname\":\"a\\\"b\",\"read\":{\"iops\":1}}]}\n",
        "{\"fio version\":\"fio-3.33\",\"jobs\":{},\"client_stats\":[{\"jobname\":\"All clients\",\"hostname\":\"h\","
        "\"write\":{\"clat\":{\"mean\":3.747764,\"percentile\":{\"50.000000\":12}}}}]}\n",
        "{\"fio version\":\"fio-2.1.4\",\"jobs\":[{\"read\":{\"bw_agg\":5,\"io_bytes\":9007199254741}}]}\n",
        "{\"jobs\":[{\"read\":{\"runtime\":01}}]}\n{\"jobs\":[1,{\"trim\":{\"lat_ns\":{\"N\":1e400}}}]}\n",
        /* json+ 2.2.12 .. 2.19 bins by raw index: the scheme last, first, twice, wrong;
         * a bins object that turns out to be of that kind after latency keys */
        "{\"fio version\":\"fio-2.2.13\",\"jobs\":[{\"read\":{\"clat\":{\"bins\":{\"0\":0,\"1\":5,\"130\":2,"
        "\"1215\":1,\"1.5\":3,\"-1\":4,\"x\":{\"y\":[1]},\"FIO_IO_U_PLAT_BITS\":6,\"FIO_IO_U_PLAT_VAL\":64}}}}]}\n",
        "{\"fio version\":\"fio-2.2.13\",\"jobs\":[{\"write\":{\"clat\":{\"bins\":{\"FIO_IO_U_PLAT_VAL\":64,"
        "\"FIO_IO_U_PLAT_BITS\":6,\"FIO_IO_U_PLAT_BITS\":7,\"700\":9},\"bins\":{\"3\":1}}}}]}\n",
        "{\"fio version\":\"fio-2.2.13\",\"jobs\":[{\"read\":{\"clat\":{\"bins\":{\"5\":1,\"FIO_IO_U_PLAT_BITS\":6,"
        "\"FIO_IO_U_PLAT_VAL\":63}}}}]}\n",
        "{\"fio version\":\"fio-3.1\",\"jobs\":[{\"read\":{\"clat_ns\":{\"bins\":{\"2000\":1,\"4000\":2,"
        "\"FIO_IO_U_PLAT_BITS\":6}}}}]}\n",
        /* strings: UTF-8 (not a stop for the vector scan), a raw tab and an escape late in long ones */
        "{\"fio version\":\"fio-3.33\",\"jobs\":[{\"jobname\":\"\xc3\xa9\xe6\xb5\x8b-a-long-name-past-16-bytes\xc3\xa9\","
        "\"desc\":\"0123456789abcdef\xe2\x80\x94\",\"read\":{\"iops\":1}}]}\n",
        "{\"fio version\":\"fio-3.33\",\"jobs\":[{\"jobname\":\"0123456789abcdefghij\tk\",\"read\":{\"iops\":1}}]}\n",
        "{\"fio version\":\"fio-3.33\",\"jobs\":[{\"jobname\":\"0123456789abcdefghij\\\"k\",\"read\":{\"iops\":1}}]}\n",
        /* usec fractions scaled to ns: at and around 15 digits, 1e-4, trailing zeros, exponents */
        "{\"fio version\":\"fio-2.15\",\"jobs\":[{\"read\":{\"clat\":{\"min\":0.0001,\"max\":0.00009999,"
        "\"mean\":123456789012.345,\"stddev\":1234567890123.456},\"lat\":{\"min\":-2.5,\"max\":2.50000,"
        "\"mean\":0.1,\"stddev\":1e-3},\"slat\":{\"min\":99999.99999,\"max\":3.747764,\"mean\":1.0000000000000002,"
        "\"stddev\":0.30000000000000004}},\"write\":{\"clat\":{\"min\":-0.00015,\"max\":12345678901234.5,"
        "\"mean\":9.99999999999999,\"stddev\":0.1000000000000000}}}]}\n",
        /* percentile keys: fio's, and the odd ones key_number leaves to fsc_parse_plain */
        "{\"fio version\":\"fio-3.33\",\"jobs\":[{\"read\":{\"clat_ns\":{\"percentile\":{\"1.000000\":1,"
        "\"99.990000\":2,\"0.100000\":3,\"5.\":4,\".5\":5,\"33.333333333333333\":6,\"0.000000000000000001\":7,"
        "\"1234567890123456789\":8,\"12345678901234567.5\":9,\" 7\":10,\"1e2\":11,\"1.2.3\":12,\"-4\":13,"
        "\"\":14,\".\":15,\"99.9999999999999999999\":16}}}}]}\n",
        /* the last line cut off before its '=': alone, after a blank line, as a prompt */
        "a: (groupid=0, jobs=1): err= 0: pid=1: Mon Nov 30 02:48:07 2026\n"
        "  read : io=1612.5MB, bw=825161KB/s, iops=206290 , runt=  2001msec\n"
        "    lat (usec) : 50=64.14%, 100=32.25%\n    lat (usec) : 1000",
        "read : io",
        "a: (groupid=0, jobs=1): err= 0: pid=1\n  read : io=1MB, bw=1KB/s, iops=1 , runt=  1msec\n\n  read : io",
        "\"my test\"\n  cpu   $ fio --x job.fio",
        "a: Laying out IO file(s) (1 file(s) / 64MB)\n\ncpu  # fio job.fio",
        /* prefixes prefix.c removes, on lines that begin like fio's own to a first
         * look (the pre-scan must send such documents to normalizing): grep's file
         * names that start with fio's words, a comment mark, a quote mark, a row
         * pasted after a job header */
        PREFIXED_GREP,
        "write2.txt:  write: IOPS=5, BW=20KiB/s (21kB/s)(40KiB/2001msec)\n"
        "write2.txt:    clat (usec): min=30, max=17032, avg=88.61, stdev=482.97\n",
        "a: (groupid=0, jobs=1): err= 0: pid=1: Mon Nov 30 02:48:07 2026\n"
        "  read: IOPS=1, BW=1B/s (1B/s)(1B/1msec)\n"
        ";    lat (usec): min=30, max=17032, avg=88.77, stdev=482.99\n"
        "\"    clat (usec): min=30, max=17032, avg=88.61, stdev=482.97\n",
        "a: (groupid=0, jobs=1): err= 0: pid=1: Mon Nov 30 02:48:07 2026\n"
        "  read: IOPS=1, BW=1B/s (1B/s)(1B/1msec)\n"
        "   \"clat percentiles (usec):\n     |  1.00th=[   35],  5.00th=[   38]\n",
        "seqread: (g=0): rw=read, bs=(R) 1024KiB-1024KiB, ioengine=psync, iodepth=1 | 70.00th=[   24], 80.00th=[   25],\n"
        "     | 99.00th=[   65], 99.50th=[ 1876]\n",
        "readers: (groupid=0, jobs=1): err= 0: pid=1: Mon Nov 30 02:48:07 2026\n"
        "  read: IOPS=1, BW=1B/s (1B/s)(1B/1msec)\ncompleted:  cpu          : usr=1%, sys=2%, ctx=3, majf=0, minf=4\n",
    };
    for (size_t i = 0; i < sizeof docs / sizeof docs[0]; i++)
        assert_true(fastpath_same("edge case", (const uint8_t *)docs[i], strlen(docs[i]), 0));
}

/* The grammars and the fast path built from them, for the pre-scan's tests. */
typedef struct fastpath_fixture {
    fsc_buf err;
    fsc_grammar_set *g;
    fsc_fastpath *fp;
} fastpath_fixture;

static int fastpath_setup(void **state)
{
    fastpath_fixture *fx = calloc(1, sizeof *fx);
    if (fx && (fx->g = fsc_grammars_load(&fx->err)) && !(fx->fp = fsc_fastpath_new(fx->g)))
        fprintf(stderr, "the built-in grammar no longer fits the fast path (fastline.c fsc_fastpath_new: a rule "
                        "it needs changed, a lead begins with a direction's word, or a rule without a lead comes "
                        "before the job, disk or layout rules): every document would go to the grammar alone\n");
    if (!fx || !fx->g || !fx->fp) {
        if (fx) {
            fsc_grammars_free(fx->g);
            fsc_buf_free(&fx->err);
        }
        free(fx);
        return -1;
    }
    *state = fx;
    return 0;
}

static int fastpath_teardown(void **state)
{
    fastpath_fixture *fx = *state;
    fsc_fastpath_free(fx->fp);
    fsc_grammars_free(fx->g);
    fsc_buf_free(&fx->err);
    free(fx);
    return 0;
}

/* The pre-scan passes a clean log as it is, and sends a prefixed one to normalizing
 * (prefix.c), whose first words look like fio's own. */
static void test_prescan_prefix(void **state)
{
    const fsc_fastpath *fp = ((const fastpath_fixture *)*state)->fp;
    static const struct {
        const char *text;
        bool clean;
    } cases[] = {
        {"randread: (groupid=0, jobs=1): err= 0: pid=30894: Mon Nov 30 02:48:04 2026\n"
         "  read: IOPS=10.9k, BW=42.8MiB/s (44.8MB/s)(85.5MiB/2001msec)\n"
         "    clat (usec): min=30, max=17032, avg=88.61, stdev=482.97\n",
         true},
        {PREFIXED_GREP, false},
        {"readme:  read: IOPS=10.9k, BW=42.8MiB/s (44.8MB/s)(85.5MiB/2001msec)\n", false},
        {"x: (g=0): rw=read, bs=4k, ioengine=psync, iodepth=1 |  1.00th=[   35],  5.00th=[   38]\n", false},
        {"fio-3.33  read: IOPS=1, BW=1B/s (1B/s)(1B/1msec)\n", false},
        /* a notebook's output cell: fio's lines as JSON strings, not members */
        {"{\n  \"outputs\" : [\n    \"  read: IOPS=10.9k, BW=42.8MiB/s (44.8MB/s)(85.5MiB/2001msec)\\n\",\n"
         "    \"    clat (usec): min=30, max=17032, avg=88.61, stdev=482.97\\n\"\n  ]\n}\n",
         false},
        {"{\n  \"fio version\" : \"fio-3.33\",\n  \"jobs\" : [\n    {\n      \"jobname\" : \"read: IOPS=1\",\n"
         "      \"groupid\" : 0\n    }\n  ]\n}\n",
         true},
        {"Run status group 0 (all jobs):\n   READ: bw=42.8MiB/s (44.8MB/s), io=85.5MiB (89.7MB), run=2001-2001msec\n",
         true},
        /* a bar is fio's only before a whole percentile item; else it is a mail's
         * quote mark (normalize.c) or stands before a keyword (prefix.c) */
        {"    clat percentiles (usec):\n     |  1.00th=[   59],  5.00th=[   74], 10.00th=[   77]\n", true},
        {"|  1.00th=[   59],  5.00th=[   74], 10.00th=[   77], 20.00th=[   82],\n", true},
        {"|: ios=", false},
        {"| sda: ios=4928/7, merge=0/0, ticks=454/2, in_queue=456, util=40.73%\n", false},
        {"   |   read: IOPS=10.9k, BW=42.8MiB/s (44.8MB/s)(85.5MiB/2001msec)\n", false},
        {"     | cpu          : usr=1.90%, sys=28.40%, ctx=1812, majf=0, minf=10\n", false},
        {"     |  1.00th=[   59],  5.00th\n", true}, /* a row cut short: the parser's to read */
        {"|  1.00th\n", false},
        /* a margin line of fio's indented: an indented paste, dedented by normalize.c */
        {" d: (g=0): rw=read, bs=4k, ioengine=psync, iodepth=1\n latency   : target=0, window=0\n", false},
        {"    Run status group 0 (all jobs):\n", false},
        {"  sda: ios=4928/7, merge=0/0, ticks=454/2, in_queue=456, util=40.73%\n", true},
        /* a job named as one of fio's words: clean at the margin, a paste indented */
        {"read: (groupid=0, jobs=1): err= 0: pid=30894: Mon Nov 30 02:48:04 2026\n"
         "  read: IOPS=10.9k, BW=42.8MiB/s (44.8MB/s)(85.5MiB/2001msec)\n",
         true},
        {" iops: (g=0): rw=read, bs=4k, ioengine=psync, iodepth=1\n IO depths    : 1=100.0%\n", false},
        /* a forum's or a wiki's tag glued to a line's end or start (normalize.c takes
         * it off); a percentile row's bracket is none */
        {"  sda: ios=4928/7, merge=0/0, ticks=454/2, in_queue=456, util=40.73%[/code]\n", false},
        {"  read: IOPS=10.9k, BW=42.8MiB/s (44.8MB/s)(85.5MiB/2001msec){code}\n", false},
        {"{code:bash}  read: IOPS=10.9k, BW=42.8MiB/s (44.8MB/s)(85.5MiB/2001msec)\n", false},
        {"     | 99.00th=[  971], 99.50th=[ 2180], 99.90th=[ 7308], 99.95th=[13173],\n     | 99.99th=[16188]\n", true},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        fsc_text t;
        bool headings, json;
        fsc_status st;
        bool clean = fsc_prescan(fp, cases[i].text, strlen(cases[i].text), 0, false, &t, &headings, &json, &st);
        assert_int_equal(st, FSC_OK);
        if (clean != cases[i].clean)
            fail_msg("case %zu: pre-scan says %s", i, clean ? "clean" : "not clean");
        if (clean) {
            fsc_prescan_release(&t);
            fsc_text_free(&t);
        }
        assert_true(fastpath_same("prescan case", (const uint8_t *)cases[i].text, strlen(cases[i].text), 0));
    }
}

/* The pre-scan's byte classes at every place of its blocks (64 bytes a step with
 * AVX2, then 32, 16, and byte by byte): a clean log stays clean wherever its
 * newlines and '=' fall, and any byte that asks for normalizing, put anywhere in
 * it, makes it not clean. */
static void test_prescan_bytes(void **state)
{
    const fsc_fastpath *fp = ((const fastpath_fixture *)*state)->fp;
    static const char body[] = "  read : io=1612.5MB, bw=825161KB/s, iops=206290 , runt=  2001msec\n"
                               "    clat (usec): min=1 , max=11404 , avg= 4.03, stdev=73.63\n"
                               "     |  1.00th=[    1],  5.00th=[    2], 10.00th=[    2], 20.00th=[    2],\n"
                               "    bw (KB/s)  : min=802419, max=858760, per=99.61%, avg=821928.00, stdev=31916.17\n"
                               "  cpu          : usr=16.15%, sys=45.15%, ctx=475, majf=0, minf=5\n";
    char doc[512];
    for (size_t shift = 0; shift < 80; shift++) {
        /* the first line indented by shift spaces: every later byte moves by shift */
        memset(doc, ' ', shift);
        memcpy(doc + shift, body, sizeof body);
        size_t n = shift + sizeof body - 1;
        fsc_text t;
        bool headings, json;
        fsc_status st;
        if (!fsc_prescan(fp, doc, n, 0, false, &t, &headings, &json, &st))
            fail_msg("shift %zu: a clean log is not clean", shift);
        assert_int_equal(t.n_lines, 5);
        fsc_prescan_release(&t);
        fsc_text_free(&t);
        for (size_t at = shift; at < n; at += 7) {
            for (int c = 0; c < 256; c++) {
                bool bad = (c < 0x20 && c != '\n') || c >= 0x7F || c == '&' || c == '<' || c == '*' || c == '`';
                if (!bad)
                    continue;
                char keep = doc[at];
                doc[at] = (char)c;
                bool clean = fsc_prescan(fp, doc, n, 0, false, &t, &headings, &json, &st);
                doc[at] = keep;
                if (clean) {
                    fsc_prescan_release(&t);
                    fsc_text_free(&t);
                    fail_msg("shift %zu: byte 0x%02x at %zu passed as clean", shift, c, at);
                }
            }
            /* a terminal's code, its ESC shown ("^[[0m") or lost ("[0m", "[1;32m"),
             * wherever it falls in the vector loop's blocks (a '[' last in a block
             * has its digit in the next) */
            static const char *const codes[] = {"^[[0m", "[0m", "[1;32m", "[0K"};
            for (size_t k = 0; k < sizeof codes / sizeof codes[0]; k++) {
                size_t cn = strlen(codes[k]);
                if (at + cn >= n)
                    continue;
                char keep[8];
                memcpy(keep, doc + at, cn);
                memcpy(doc + at, codes[k], cn);
                bool clean = fsc_prescan(fp, doc, n, 0, false, &t, &headings, &json, &st);
                memcpy(doc + at, keep, cn);
                if (clean) {
                    fsc_prescan_release(&t);
                    fsc_text_free(&t);
                    fail_msg("shift %zu: \"%s\" at %zu passed as clean", shift, codes[k], at);
                }
            }
        }
    }
}

/* The verdict in parts on the shapes whose checks look past one line: titles between
 * blank lines, "=3D" counted over the text, a terse record glued to text, JSON after
 * text, a last line cut before its '=' (and the whole-text answer is what it was). */
static void test_plain_parts(void **state)
{
    (void)state;
    static const struct {
        const char *text;
        bool plain;
    } docs[] = {
        {"fio-3.33\nStarting 1 process\n\nrandread: (groupid=0, jobs=1): err= 0: pid=1\n"
         "  read: IOPS=1, BW=2KiB/s (2kB/s)(4KiB/2001msec)\n", true},
        {"\nMy results\n\n  read: IOPS=1, BW=2KiB/s (2kB/s)(4KiB/2001msec)\n", false},
        {"  read: IOPS=3D1\n  read: IOPS=1\n  read: IOPS=3D1\n", true},
        {"  read: IOPS=3D1, BW=3D2\n  read: IOPS=1\n  read: IOPS=3D1\n", false},
        {"  read: IOPS=3D1\n  read: IOPS=3D1\n  read: IOPS=3D1\n", false},
        {"3;fio-3.33;job;0;0\n3;fio-3.33;job;0;0\n", true},
        {"  read: IOPS=1\nx3;fio-3.33;job;0;0\n", false},
        {"  read: IOPS=1\n{\n  \"fio version\" : \"fio-3.33\",\n  \"jobs\" : [\n  ]\n}\n", true},
        {"  read: IOPS=1\n  read: IOPS", true}, /* cut while fio wrote it */
        {"  read: IOPS=1\r\n", false},
        {"\n\n\n", true},
        {"", true},
    };
    for (size_t i = 0; i < sizeof docs / sizeof docs[0]; i++) {
        size_t n = strlen(docs[i].text);
        if (fsc_text_is_plain_fio(docs[i].text, n) != docs[i].plain)
            fail_msg("doc %zu: whole verdict %d", i, !docs[i].plain);
        tally t = {0};
        check_verdict("plain case", docs[i].text, n, &t);
        if (t.verdicts_differ)
            fail_msg("doc %zu: the verdict in parts differs", i);
    }
    /* a part must end with its line: a part cut inside a line gets no verdict */
    fsc_plain_check *c = fsc_plain_check_new(true);
    assert_non_null(c);
    assert_false(fsc_plain_check_lines(c, "  read: IOP", 11));
    assert_int_equal(fsc_plain_check_end(c, "S=1\n", 4), FSC_TEXT_MIXED);
}

/* fsc_plain_check asked for a simple text too: fio's text with other lines of plain
 * ASCII among it is FSC_TEXT_SIMPLE (a reader cuts it in pieces from the size of
 * plain text); markup, control bytes, quoted-printable, JSON and terse keep it
 * FSC_TEXT_MIXED (read whole below the size of a huge file); plain stays plain, and
 * fio's normal text alone is FSC_TEXT_NORMAL. */
static void test_simple_kind(void **state)
{
    (void)state;
    static const char fio[] = "fio-3.33\nStarting 1 process\n\nrandread: (groupid=0, jobs=1): err= 0: pid=1\n"
                              "  read: IOPS=1, BW=2KiB/s (2kB/s)(4KiB/2001msec)\n";
    static const char long_prose[] =
        "This paragraph was written on one line, as editors that wrap softly keep it, and it goes on for "
        "well over two hundred and forty bytes, which is longer than any line that fio prints in its normal "
        "output, so the scan must not take it for a flattened paste that stops the reading of the text.\n";
    static const char long_json[] =
        "{\"fio version\": \"fio-3.33\", \"jobs\": [], \"x\": \"................................................"
        "..........................................................................................................."
        "..........................................................................................\"}\n";
    static const struct {
        const char *head, *tail;
        fsc_text_kind kind;
    } cases[] = {
        {"", "", FSC_TEXT_NORMAL},
        {"", "\n{\n  \"fio version\" : \"fio-3.33\",\n  \"jobs\" : [\n  ]\n}\n", FSC_TEXT_PLAIN}, /* and JSON */
        {"", "\n3;fio-3.33;job;0;0\n", FSC_TEXT_PLAIN}, /* and terse */
        {"My results on the new box\n\n", "", FSC_TEXT_SIMPLE},
        {"$ fio --name=randread --bs=4k --iodepth=32 job.fio\n", "", FSC_TEXT_SIMPLE},
        {"", "\nAll done. Next: the same with 64k.\n", FSC_TEXT_SIMPLE},
        {"> quoted from the first mail:\n> \n", "", FSC_TEXT_SIMPLE},
        {"host1: read: IOPS=5, BW=20KiB/s\n", "", FSC_TEXT_SIMPLE},
        {long_prose, "", FSC_TEXT_MIXED}, /* a flattened paste, maybe */
        {"Description  : [read test]\n\n", "", FSC_TEXT_SIMPLE}, /* a caption: headings, no odd line */
        {"My results\r\n\r\n", "", FSC_TEXT_SIMPLE}, /* CRs and tabs: line by line */
        {"Results\tfor the box\n", "", FSC_TEXT_SIMPLE},
        {"Jobs: 1 (f=1): [R(1)]\r", "", FSC_TEXT_SIMPLE},
        {"My **results**\n\n", "", FSC_TEXT_MIXED},
        {"A\fB\n", "", FSC_TEXT_MIXED},
        {"A\x7f\n", "", FSC_TEXT_MIXED},
        {"R\xc3\xa9sultats\n", "", FSC_TEXT_SIMPLE}, /* UTF-8: line by line too */
        {"\xef\xbb\xbfResults\n\n", "", FSC_TEXT_SIMPLE},
        {"R\xe9sultats (Latin-1)\n", "", FSC_TEXT_SIMPLE},
        {"\x1b[32;1m$ fio --name=x\x1b[0;m\n", "", FSC_TEXT_SIMPLE}, /* a terminal's codes */
        {"\x1b]0;title\x07prompt$ fio\b\bfio\n", "", FSC_TEXT_SIMPLE},
        {"[32mResults[0m\n\n", "", FSC_TEXT_SIMPLE},
        {"A\x01" "B\n", "", FSC_TEXT_MIXED},
        {"a=3D1 b=3D2 c=3D3\n", "", FSC_TEXT_MIXED},
        {"Note: x=3D1\n", "", FSC_TEXT_MIXED},
        {"Subject: fio results\nContent-Type: text/plain; format=flowed\n\n", "", FSC_TEXT_MIXED},
        {"", "\ncontent-transfer-encoding: 7bit\n", FSC_TEXT_MIXED},
        {"Content-Type: multipart/mixed;\n boundary=\"xyz\"\n\n", "", FSC_TEXT_MIXED},
        {"Subject: fio results\nFrom: a\n\n", "", FSC_TEXT_SIMPLE},
        {"My results\n", "{\n  \"fio version\" : \"fio-3.33\",\n  \"jobs\" : [\n  ]\n}\n", FSC_TEXT_MIXED},
        {"My results\n", "3;fio-3.33;job;0;0\n", FSC_TEXT_MIXED},
        {"My results\n", long_json, FSC_TEXT_MIXED},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char text[2048];
        int n = snprintf(text, sizeof text, "%s%s%s", cases[i].head, fio, cases[i].tail);
        assert_true(n > 0 && (size_t)n < sizeof text);
        fsc_plain_check *c = fsc_plain_check_new(true);
        assert_non_null(c);
        fsc_text_kind got = fsc_plain_check_end(c, text, (size_t)n);
        if (got != cases[i].kind)
            fail_msg("case %zu: kind %d, not %d", i, (int)got, (int)cases[i].kind);
        /* in parts, and without the simple question: plain or not, as before */
        tally t = {0};
        check_verdict("simple case", text, (size_t)n, &t);
        if (t.verdicts_differ)
            fail_msg("case %zu: the verdict in parts differs", i);
    }
}

/* fsc_fdec_num's inline cases give what fsc_decimal_num gives, bit for bit: the
 * integers, the one double division for scale <= 3, and the rest. */
static void test_fdec_num(void **state)
{
    (void)state;
    static const uint64_t nums[] = {1, 8, 1000, 1024, 1000000, 1000000000ULL, 1ULL << 40};
    static const uint64_t dens[] = {1, 8, 1024};
    uint64_t x = 88172645463325252ULL; /* xorshift64 */
    size_t checked = 0, divided = 0;
    for (int i = 0; i < 200000; i++) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        /* mantissas of every length, many near 2^53 and near a multiple of 10^scale */
        unsigned bits = (unsigned)(x % 64) + 1;
        uint64_t mant = bits == 64 ? x : x & ((1ULL << bits) - 1);
        if (i % 4 == 1)
            mant = (1ULL << 53) - 1 - (x >> 50);
        if (i % 4 == 2)
            mant = (x % 100000) * 1000 + (x >> 60);
        fsc_fdec d = {mant, (uint8_t)((x >> 20) % 6), 0};
        uint64_t num = nums[(x >> 30) % 7], den = dens[(x >> 40) % 3];
        fsc_num a = fsc_fdec_num(d, num, den);
        fsc_decimal dd = {d.mant, d.scale, false};
        fsc_num b = fsc_decimal_num(dd, num, den);
        assert_memory_equal(&a.v, &b.v, sizeof a.v);
        assert_int_equal(a.set, b.set);
        assert_int_equal(a.exact, b.exact);
        assert_true(a.u == b.u);
        checked++;
        divided += d.scale && den == 1 && a.v != (double)(uint64_t)a.v;
    }
    assert_int_equal(checked, 200000);
    assert_true(divided > 1000); /* the division case was tried */
}

/* fsc_kvlist_set_n: keys cut to 15 bytes, a replaced key keeps its place, short and
 * indexed (>= FSC_KEYINDEX_FROM items) lists find the same keys. */
static void test_kvlist_set_n(void **state)
{
    (void)state;
    fsc_kvlist l = {0};
    char key[32];
    for (int i = 0; i < 40; i++) {
        int n = snprintf(key, sizeof key, ">=%d", i * 37);
        assert_true(fsc_kvlist_set_n(&l, key, (size_t)n, i));
        assert_true(fsc_kvlist_set_n(&l, key, (size_t)n, i + 0.5)); /* replaced */
        assert_int_equal(l.n, (size_t)i + 1);
        for (int k = 0; k <= i; k++) {
            snprintf(key, sizeof key, ">=%d", k * 37);
            const fsc_kv *kv = fsc_kvlist_get(&l, key);
            assert_non_null(kv);
            assert_true(kv == &l.items[k] && kv->v == k + 0.5);
        }
    }
    fsc_kvlist_free(&l);
    assert_true(fsc_kvlist_set_n(&l, "0123456789abcdefXYZ", 19, 1));
    assert_true(fsc_kvlist_set(&l, "0123456789abcdeQ", 2));
    assert_true(fsc_kvlist_set_n(&l, "4=", 1, 3)); /* only "4" */
    assert_int_equal(l.n, 2);
    assert_string_equal(l.items[0].key, "0123456789abcde");
    assert_true(l.items[0].v == 2);
    assert_non_null(fsc_kvlist_get(&l, "4"));
    fsc_kvlist_free(&l);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_same_output),
        cmocka_unit_test(test_edge_lines),
        cmocka_unit_test(test_plain_parts),
        cmocka_unit_test(test_simple_kind),
        cmocka_unit_test(test_fdec_num),
        cmocka_unit_test(test_kvlist_set_n),
        cmocka_unit_test_setup_teardown(test_prescan_prefix, fastpath_setup, fastpath_teardown),
        cmocka_unit_test_setup_teardown(test_prescan_bytes, fastpath_setup, fastpath_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
