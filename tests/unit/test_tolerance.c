/* SPDX-License-Identifier: MIT */
/* Tolerance of mangled fio text (issue #15), module by module: prefixes learned per
 * block (prefix.c) with the tag each line keeps, inline markup (normalize.c), JSON
 * documents cut off or with text left out (json_find.c), and kb_base inferred for
 * fio <= 2.16 text (normal.c). Every check is an exact value. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "parse_int.h"

/* ---- helpers ---- */

/* One expected line: its text, the original line it came from, its tag ("" none). */
typedef struct want {
    const char *text;
    uint32_t orig;
    const char *tag;
} want;

/* loose: leading spaces of the text do not count (a prefix glued to fio's
 * indentation, "a.log:  read:", may take one of its spaces as the separator). */
static void check(const char *in, const want *w, size_t n, uint16_t must_flag, bool loose)
{
    fsc_text t;
    assert_int_equal(fsc_normalize(in, strlen(in), &t), FSC_OK);
    for (size_t i = 0; i < n && i < t.n_lines; i++) {
        const char *s = fsc_text_line(&t, i);
        size_t tn = 0;
        const char *tag = fsc_text_tag(&t, i, &tn);
        if (!tag)
            tag = "", tn = 0;
        const char *wt = w[i].text;
        size_t sn = t.lines[i].len;
        if (loose) {
            while (*wt == ' ')
                wt++;
            while (sn && *s == ' ')
                s++, sn--;
        }
        if (strlen(wt) != sn || memcmp(s, wt, sn) != 0 ||
            t.lines[i].orig != w[i].orig || strlen(w[i].tag) != tn || memcmp(tag, w[i].tag, tn) != 0)
            fail_msg("line %zu: got [%.*s] orig %u tag [%.*s], want [%s] orig %u tag [%s]", i,
                     (int)sn, s, t.lines[i].orig, (int)tn, tag, wt, w[i].orig, w[i].tag);
        if (must_flag && *w[i].tag && !(t.lines[i].flags & must_flag))
            fail_msg("line %zu: flags %#x lack %#x", i, t.lines[i].flags, must_flag);
    }
    if (t.n_lines != n)
        fail_msg("%zu lines, want %zu", t.n_lines, n);
    fsc_text_free(&t);
}

#define CHECK_(loose, flag, in, ...)                                                    \
    do {                                                                                \
        static const want w_[] = {__VA_ARGS__};                                         \
        check(in, w_, sizeof w_ / sizeof w_[0], flag, loose);                           \
    } while (0)
#define CHECK(flag, in, ...) CHECK_(false, flag, in, __VA_ARGS__)
#define CHECK_LOOSE(flag, in, ...) CHECK_(true, flag, in, __VA_ARGS__)

#define READ1 "  read: IOPS=1, BW=4KiB/s (4kB/s)(4KiB/1001msec)"
#define CLAT1 "    clat (usec): min=1, max=2, avg=1.50, stdev=0.50"
#define RSG0 "Run status group 0 (all jobs):"

/* ---- 1. prefixes ---- */

/* Comment marks of other languages: each block learns its own mark; the blank
 * comment line between the keyword lines loses it too. */
static void test_prefix_comment_marks(void **state)
{
    (void)state;
    enum { P = FSC_LINE_PREFIX };
    CHECK(P, "// " READ1 "\n//\n// " RSG0 "\n", {READ1, 1, "//"}, {"", 2, "//"}, {RSG0, 3, "//"});
    CHECK(P, "-- " READ1 "\n-- " RSG0 "\n", {READ1, 1, "--"}, {RSG0, 2, "--"});
    CHECK(P, "; " READ1 "\n; " RSG0 "\n", {READ1, 1, ";"}, {RSG0, 2, ";"});
    CHECK(P, "REM " READ1 "\nREM " RSG0 "\n", {READ1, 1, "REM"}, {RSG0, 2, "REM"});
    CHECK(P, "/*\n * " READ1 "\n * " RSG0 "\n", {"/*", 1, ""}, {READ1, 2, " *"}, {RSG0, 3, " *"});
}

/* A stamp whose digits change from line to line is one template (digit runs are a
 * class); prose above the block keeps its own text. A tag is the removed text without
 * the space that separated it from fio's; a CI-style ISO stamp is removed before
 * (FSC_LINE_STAMP), so the tag is what came after it. */
static void test_prefix_stamps(void **state)
{
    (void)state;
    enum { P = FSC_LINE_PREFIX };
    /* kubectl logs --timestamps --prefix */
    CHECK(P,
          "kubectl logs -f job/fio\n"
          "2026-11-30T02:47:10.123456Z [pod/fio-7d9f8c6b5-x2k9q/fio] " READ1 "\n"
          "2026-11-30T02:47:10.223456Z [pod/fio-7d9f8c6b5-x2k9q/fio] " CLAT1 "\n"
          "2026-11-30T02:47:11.000001Z [pod/fio-7d9f8c6b5-x2k9q/fio] " RSG0 "\n",
          {"kubectl logs -f job/fio", 1, ""},
          {READ1, 2, "[pod/fio-7d9f8c6b5-x2k9q/fio]"}, {CLAT1, 3, "[pod/fio-7d9f8c6b5-x2k9q/fio]"},
          {RSG0, 4, "[pod/fio-7d9f8c6b5-x2k9q/fio]"});
    /* docker compose: service name and a '|' */
    CHECK(P,
          "Attaching to bench_fio_1\n"
          "fio_1  | " READ1 "\n"
          "fio_1  | " CLAT1 "\n"
          "fio_1  | " RSG0 "\n"
          "bench_fio_1 exited with code 0\n",
          {"Attaching to bench_fio_1", 1, ""}, {READ1, 2, "fio_1  |"}, {CLAT1, 3, "fio_1  |"},
          {RSG0, 4, "fio_1  |"}, {"bench_fio_1 exited with code 0", 5, ""});
    /* dmesg stamps whose width changes ("[    9.1]" then "[   10.0]") */
    CHECK(P,
          "[    9.123456] " READ1 "\n"
          "[   10.000001] " CLAT1 "\n",
          {READ1, 1, "[    9.123456]"}, {CLAT1, 2, "[   10.000001]"});
}

/* A Python/JSON list of quoted lines: the quote marks and the trailing comma go,
 * fio's indentation inside the quotes stays. */
static void test_prefix_quoted(void **state)
{
    (void)state;
    enum { P = FSC_LINE_PREFIX };
    CHECK(P,
          "EXPECTED = [\n"
          "    \"" READ1 "\",\n"
          "    \"" CLAT1 "\",\n"
          "    \"" RSG0 "\",\n"
          "]\n",
          {"EXPECTED = [", 1, ""}, {READ1, 2, "    \""}, {CLAT1, 3, "    \""}, {RSG0, 4, "    \""}, {"]", 5, ""});
}

/* grep output: "FILE:" and "FILE:N:" and "N " before the result lines; each line keeps
 * its own prefix as its tag (the job is named by it). */
static void test_prefix_grep(void **state)
{
    (void)state;
    enum { P = FSC_LINE_PREFIX };
    CHECK_LOOSE(P,
          "4k-qd1.log:" READ1 "\n"
          "64k-qd8.log:" READ1 "\n",
          {READ1, 1, "4k-qd1.log:"}, {READ1, 2, "64k-qd8.log:"});
    CHECK_LOOSE(P,
          "fio.log:12:" READ1 "\n"
          "fio.log:40:" READ1 "\n",
          {READ1, 1, "fio.log:12:"}, {READ1, 2, "fio.log:40:"});
    CHECK_LOOSE(P,
          "1 " READ1 "\n"
          "16 " READ1 "\n",
          {READ1, 1, "1"}, {READ1, 2, "16"});
}

/* A log wrapped after its prefix was put on: the rests of wrapped lines have none,
 * and the prefixed lines between them are still the block's (a job definition cut
 * into three lines above the first keyword line, its name cut from its header); each
 * line remembers how wide it was (lead: the bytes taken). */
static void test_prefix_wrapped_rests(void **state)
{
    (void)state;
    enum { P = FSC_LINE_PREFIX };
    CHECK(P,
          "[stdout] job1: (g=0): rw=randread, bs=(R) 4096B-4096B, (W)\n"
          "4096B-4096B, (T) 4096B-4096B, ioengine=psync,\n"
          "iodepth=1\n"
          "[stdout] fio-3.33\n"
          "[stdout] a-rather-long-job-name:\n"
          "[stdout] (groupid=0, jobs=1): err= 0: pid=7\n"
          "[stdout] " READ1 "\n"
          "[stdout] " RSG0 "\n",
          {"job1: (g=0): rw=randread, bs=(R) 4096B-4096B, (W)", 1, "[stdout]"},
          {"4096B-4096B, (T) 4096B-4096B, ioengine=psync,", 2, ""}, {"iodepth=1", 3, ""},
          {"fio-3.33", 4, "[stdout]"}, {"a-rather-long-job-name:", 5, "[stdout]"},
          {"(groupid=0, jobs=1): err= 0: pid=7", 6, "[stdout]"}, {READ1, 7, "[stdout]"}, {RSG0, 8, "[stdout]"});
    /* "> " and "| " quote marks are taken in normalize.c; the lead adds up */
    static const char in[] = "> [stdout] " READ1 "\n> [stdout] " RSG0 "\n | job1:\nrest\n";
    fsc_text t;
    assert_int_equal(fsc_normalize(in, strlen(in), &t), FSC_OK);
    assert_int_equal(t.n_lines, 4);
    assert_int_equal(t.lines[0].lead, 11);
    assert_int_equal(t.lines[1].lead, 11);
    assert_int_equal(t.lines[2].lead, 3);
    assert_int_equal(t.lines[3].lead, 0);
    fsc_text_free(&t);
}

/* Never a prefix: a job name before its header's colon, a line of fio's own words,
 * a client's "<host>", fio 2.0's "1 - READ:". */
static void test_prefix_refused(void **state)
{
    (void)state;
    CHECK(0,
          "randread-4k: (groupid=0, jobs=1): err= 0: pid=7: Mon Nov 30 02:47:10 2026\n" READ1 "\n",
          {"randread-4k: (groupid=0, jobs=1): err= 0: pid=7: Mon Nov 30 02:47:10 2026", 1, ""}, {READ1, 2, ""});
    CHECK(0, "<vm1> " READ1 "\n<vm1> " CLAT1 "\n", {"<vm1> " READ1, 1, ""}, {"<vm1> " CLAT1, 2, ""});
    assert_true(fsc_fio_keyword_at(READ1, strlen(READ1)) == 2);
    assert_true(fsc_fio_keyword_at("x " RSG0, strlen("x " RSG0)) == 2);
    assert_true(fsc_fio_keyword_at("no fio here: read it", 20) == -1);
}

/* fsc_fio_line_within: where a second of fio's lines begins inside a line, glued to
 * the first or after spaces; never inside a name, a value or the line's own label. */
static long within(const char *s)
{
    size_t lead = 0;
    while (s[lead] == ' ')
        lead++;
    return fsc_fio_line_within(s, strlen(s), lead + 1);
}

static void test_line_within(void **state)
{
    (void)state;
    const char *dir = "  read : io=1612.5MB, bw=825161KB/s, iops=206290 , runt=  2001msec";
    char buf[512];
    snprintf(buf, sizeof buf, "%sclat (usec): min=1 , max=11404", dir);
    assert_int_equal(within(buf), (long)strlen(dir));
    snprintf(buf, sizeof buf, "%s   WRITE: io=97344KB, aggrb=48647KB/s", "   READ: io=1KB, aggrb=1KB/s, mint=2001msec");
    assert_int_equal(within(buf), 46);
    assert_int_equal(within("Disk stats (read/write):vda: ios=0/5, merge=0/0"), 24);
    assert_int_equal(within("x: (groupid=0, jobs=1): err= 0: pid=7: Mon Nov 30 02:50:27 2026read : io=1KB"), 63);
    assert_int_equal(within("     lat (usec): min=4, stdev=108.00    slat percentiles (nsec):"), 40);
    assert_int_equal(within("     | 99.99th=[  429]    high prio (29.68%) clat percentiles (usec):"), 26);
    assert_int_equal(within("    clat percentiles (usec):|  1.00th=[   31],  5.00th=[   48],"), 28);
    assert_int_equal(within("  vda: ios=1/2, util=57.49%All clients: (groupid=0, jobs=2): err= 0: pid=0:"), 27);
    assert_int_equal(within("x: (groupid=0, jobs=1): err= 0: pid=7: Mon Nov 30 02:50:27 2026  Description  : [a b]"), 65);
    /* a job's name glued to a value's digits: where its letters begin (normal.c splits
     * there only when a job of that name is defined) */
    assert_int_equal(within("     issued    : total=r=0/w=189326/d=0, short=r=0/w=0/d=0randwrite: (groupid=0"), 58);
    assert_int_equal(within("     latency   : target=0, window=0, percentile=100.00%, depth=14k-rw: (groupid=0"), 65);
    /* none: the line's own label, a job's name, a disk's name glued to a value's digit, a
     * word of a name */
    assert_int_equal(within("    clat (usec): min=30, max=17032, avg=88.61, stdev=482.97"), -1);
    assert_int_equal(within("randread: (groupid=0, jobs=1): err= 0: pid=30894: Mon Nov 30 02:48:04 2026"), -1);
    assert_int_equal(within("  vda: ios=19892/39, merge=124/0, ticks=1075/17, in_queue=1131, util=49.21%"), -1);
    assert_int_equal(within("  vda: ios=1/2, in_queue=1131sdb: ios=1/2, merge=0/0"), -1);
    assert_int_equal(within("     latency   : target=0, depth=1job 1 with spaces: (groupid=0, jobs=1)"), -1);
}

/* fsc_fio_keyword_maybe, the pre-scan's look before fsc_fio_keyword_at: false only
 * where that finds no keyword. Every keyword, with and without text and padding
 * around it, then random lines of the bytes that matter, with bytes past the line
 * (avail > n) that would be keywords if they were its own. */
static void keyword_maybe_agrees(const char *s, size_t n)
{
    char buf[512];
    assert_true(n + 32 <= sizeof buf);
    memcpy(buf, s, n);
    memcpy(buf + n, " | 1.00th=[ 3;fio- read: IOPS=  ", 32);
    if (fsc_fio_keyword_at(buf, n) >= 0) {
        assert_true(fsc_fio_keyword_maybe(buf, n, n));
        assert_true(fsc_fio_keyword_maybe(buf, n, n + 32));
    }
    assert_true(fsc_fio_keyword_maybe(buf, n, n) == fsc_fio_keyword_maybe(buf, n, n + 32));
}

static void test_keyword_maybe(void **state)
{
    (void)state;
    static const char *const kw[] = {
        "read: IOPS=1", "read : io=1", "mixed: IOPS=1", "mixed: io=1", "issued   : total=r", "write: IOPS=1",
        "write: io=1", "complete  : 0=0.0%", "fsync/fdatasync/sync_file_range:", "trim: IOPS=1", "trim: io=1",
        "READ: bw=1", "READ: io=1", "MIXED: bw=1", "MIXED: io=1", "WRITE: bw=1", "WRITE: io=1", "TRIM: bw=1",
        "TRIM: io=1", "iops        : min=1", "IO depths    :", "issued rwts: total=1", "issued rwt: total=1",
        "fsync/fdatasync/sync_file_range/syncfs:", "cpu          : usr=1", "submit    : 0=0.0%",
        "latency   : target=0", "Disk stats (read/write):", "clat (usec): min=1", "slat (nsec): min=1",
        "lat (msec): min=1", "sync (usec): min=1", "clat percentiles (usec):", "lat percentiles (nsec):",
        "bw (  KiB/s): min=1", "bw (MiB/s): min=1", "Run status group 0 (all jobs):", "Run status group 12 (all jobs):",
        "\"fio version\" : \"fio-3.33\"", "|  1.00th=[ 1]", "| 99.99th=[1]", "3;fio-3.33;x"};
    static const char *const before[] = {"", "x ", "a.log:  ", "12:10:43 DEBUG| ", "# ", "\"", "rr: "};
    static const char *const after[] = {"", ",", " x: 1", "\","};
    char line[256];
    for (size_t k = 0; k < sizeof kw / sizeof *kw; k++)
        for (size_t b = 0; b < sizeof before / sizeof *before; b++)
            for (size_t a = 0; a < sizeof after / sizeof *after; a++) {
                int n = snprintf(line, sizeof line, "%s%s%s", before[b], kw[k], after[a]);
                assert_true(fsc_fio_keyword_at(line, (size_t)n) >= 0);
                keyword_maybe_agrees(line, (size_t)n);
            }
    /* the lines the pre-scan asks about: no keyword, and no call of fsc_fio_keyword_at */
    static const char *const none[] = {
        "randread: (groupid=0, jobs=1): err= 0: pid=30894: Mon Nov 30 02:48:04 2026",
        "randread: (g=0): rw=randread, bs=(R) 4096B-4096B, (W) 4096B-4096B, (T) 4096B-4096B, ioengine=psync, "
        "iodepth=1",
        "vda: ios=19892/39, merge=124/0, ticks=1075/17, in_queue=1131, util=49.21%", "fio-3.33",
        "seqwrite: Laying out IO file (1 file / 64MiB)", "..."};
    for (size_t i = 0; i < sizeof none / sizeof *none; i++) {
        assert_false(fsc_fio_keyword_maybe(none[i], strlen(none[i]), strlen(none[i])));
        keyword_maybe_agrees(none[i], strlen(none[i]));
    }
    /* random lines of the bytes around fio's labels */
    static const char *const piece[] = {":", " ", "  ", "|", ";", "(", ")", "\"", "0", "1.00th=[", "3", "usec",
                                        "/s", "all jobs", "read/write", "read", "IOPS=", "io=", "e", "d", "s",
                                        "range", "IO depths", "syncfs", "cpu", "usr=", "bw", "min=", "total=",
                                        "issued", "submit", "latency", "target=", "fio-", "x", "_", "clat", "m",
                                        "Run status group ", "fio version", "TRIM", "u", "t", "y", "g", "h", "f"};
    uint64_t r = 16;
    for (int t = 0; t < 200000; t++) {
        size_t n = 0, parts = 1 + (size_t)(t % 12);
        for (size_t i = 0; i < parts; i++) {
            r = r * 6364136223846793005ULL + 1442695040888963407ULL;
            const char *pc = piece[(r >> 33) % (sizeof piece / sizeof *piece)];
            size_t l = strlen(pc);
            memcpy(line + n, pc, l);
            n += l;
        }
        keyword_maybe_agrees(line, n);
    }
}

/* ---- 2. inline markup ---- */

static void test_markup_kinds(void **state)
{
    (void)state;
    enum { M = FSC_LINE_MARKUP };
    /* Markdown strong, emphasis with '_' and '*', code spans */
    CHECK(M, "  read: __IOPS=1__, *BW=4KiB/s* (4kB/s)(4KiB/1001msec)\n", {READ1, 1, ""});
    CHECK(M, "  read: IOPS=``1``, BW=_4KiB/s_ (4kB/s)(4KiB/1001msec)\n", {READ1, 1, ""});
    /* AsciiDoc constrained strong/monospace, HTML inline tags */
    CHECK(M, "  read: IOPS=*1*, BW=`4KiB/s` (4kB/s)(4KiB/1001msec)\n", {READ1, 1, ""});
    CHECK(M, "  read: <strong>IOPS=1</strong>, BW=<code>4KiB/s</code> (4kB/s)(4KiB/1001msec)\n", {READ1, 1, ""});
    /* not markup: in_queue's underscore, '*' of a product, a bold heading, prose */
    CHECK(M, "  vda: ios=1/2, merge=0/0, ticks=3/4, in_queue=5, util=6.00%\n",
          {"  vda: ios=1/2, merge=0/0, ticks=3/4, in_queue=5, util=6.00%", 1, ""});
    CHECK(M, "**Results** for *this* run\n", {"**Results** for *this* run", 1, ""});
}

/* Which lines were touched is recorded: the flag is set on marked-up lines only. */
static void test_markup_flag(void **state)
{
    (void)state;
    static const char in[] = "  write: **IOPS=6391**, BW=25.0MiB/s (26.2MB/s)(25.0MiB/1001msec)\n" CLAT1 "\n";
    fsc_text t;
    assert_int_equal(fsc_normalize(in, sizeof in - 1, &t), FSC_OK);
    assert_int_equal(t.n_lines, 2);
    assert_true(t.lines[0].flags & FSC_LINE_MARKUP);
    assert_false(t.lines[1].flags & FSC_LINE_MARKUP);
    fsc_text_free(&t);
}

/* ---- 6. JSON cut off or with text left out ---- */

/* Repair the document that starts at the first line of in; compare its JSON and its
 * notes (each want_note must be a substring of the notes). */
static void repair(const char *in, const char *want_json, size_t want_last, const char *const *want_notes)
{
    fsc_text t;
    assert_int_equal(fsc_normalize(in, strlen(in), &t), FSC_OK);
    fsc_buf out = {0}, notes = {0};
    size_t last = 0;
    assert_int_equal(fsc_json_repair(&t, 0, &last, &out, &notes), FSC_OK);
    assert_string_equal(out.data, want_json);
    assert_int_equal(last, want_last);
    for (; *want_notes; want_notes++)
        if (!notes.data || !strstr(notes.data, *want_notes))
            fail_msg("notes [%s] lack [%s]", notes.data ? notes.data : "", *want_notes);
    fsc_buf_free(&out);
    fsc_buf_free(&notes);
    fsc_text_free(&t);
}

#define NOTES(...) ((const char *const[]){__VA_ARGS__, NULL})

static void test_json_elisions(void **state)
{
    (void)state;
    /* an ellipsis character line, a "[...]" line, a "// ..." line, an inline "..." */
    repair("{\n"
           "  \"fio version\" : \"fio-3.33\",\n"
           "  \"jobs\" : [\n"
           "    {\n"
           "      \"jobname\" : \"a\",\n"
           "      …\n"
           "      \"read\" : { \"io_bytes\" : 1, ... },\n"
           "      [...]\n"
           "      \"write\" : {\n"
           "        // ...\n"
           "        \"iops\" : 2.5,\n"
           "      }\n"
           "    }\n"
           "  ]\n"
           "}\n",
           "{\"fio version\":\"fio-3.33\",\"jobs\":[{\"jobname\":\"a\",\"read\":{\"io_bytes\":1},"
           "\"write\":{\"iops\":2.5}}]}",
           14,
           NOTES("6\tJSON document: lines left out ('...') in jobs[0]:",
                 "7\tJSON document: text left out ('...') in jobs[0].read:",
                 "8\tJSON document: lines left out ('...') in jobs[0]:",
                 "10\tJSON document: lines left out ('...') in jobs[0].write:"));
}

static void test_json_cut(void **state)
{
    (void)state;
    /* cut inside a key: the member goes; cut after a complete value: it stays */
    repair("{\n"
           "  \"fio version\" : \"fio-3.33\",\n"
           "  \"jobs\" : [\n"
           "    { \"jobname\" : \"a\", \"read\" : { \"iops\" : 7 } },\n"
           "    { \"jobname\" : \"b\", \"read\" : { \"io_b",
           "{\"fio version\":\"fio-3.33\",\"jobs\":[{\"jobname\":\"a\",\"read\":{\"iops\":7}},"
           "{\"jobname\":\"b\",\"read\":{}}]}",
           4, NOTES("5\tJSON document: cut off in jobs[1].read"));
    /* a complete string value at the cut stays, a number may be cut and goes */
    repair("{ \"fio version\" : \"fio-3.33\", \"jobs\" : [ { \"jobname\" : \"a\",\n"
           "  \"read\" : { \"iops\" : 12",
           "{\"fio version\":\"fio-3.33\",\"jobs\":[{\"jobname\":\"a\",\"read\":{}}]}", 1,
           NOTES("2\tJSON document: cut off in jobs[0].read.iops"));
}

/* Document starts found in one pass: nested and string braces do not confuse it. */
static void test_json_spans(void **state)
{
    (void)state;
    static const char in[] = "intro\n"
                             "{\n"
                             "  \"jobs\" : [ { \"jobname\" : \"}{\" } ]\n"
                             "}\n"
                             "{ \"x\" : 1 }\n";
    fsc_text t;
    assert_int_equal(fsc_normalize(in, sizeof in - 1, &t), FSC_OK);
    fsc_json_span *sp;
    size_t n;
    assert_int_equal(fsc_json_spans_find(&t, &sp, &n), FSC_OK);
    assert_int_equal(n, 2);
    assert_int_equal(sp[0].first, 1);
    assert_int_equal(sp[0].last, 3);
    assert_true(sp[0].balanced);
    assert_true(sp[0].fio_keys);
    assert_int_equal(sp[1].first, 4);
    assert_int_equal(sp[1].last, 4);
    assert_true(sp[1].balanced);
    assert_false(sp[1].fio_keys);
    free(sp);
    fsc_text_free(&t);
    assert_true(fsc_json_line_start("{", 1));
    assert_true(fsc_json_line_start("{ \"a\"", 5));
    assert_false(fsc_json_line_start("{a}", 3));
}

/* ---- 8. kb_base inferred for fio <= 2.16 ---- */

typedef struct runs {
    fsc_run *r[4];
    size_t n;
} runs;

static bool keep(void *ctx, fsc_run *run)
{
    runs *rs = ctx;
    if (rs->n == 4) {
        fsc_run_free(run);
        return true;
    }
    rs->r[rs->n++] = run;
    return true;
}

static const fsc_run *parse_one(runs *rs, const char *text)
{
    fsc_buf err = {0};
    fsc_parser *p = fsc_parser_new(NULL, &err);
    assert_non_null(p);
    fsc_doc doc = {.path = "t.txt", .data = text, .len = strlen(text)};
    size_t n = 0;
    rs->n = 0;
    assert_int_equal(fsc_parse_doc(p, &doc, keep, rs, &n), FSC_OK);
    fsc_parser_free(p);
    fsc_buf_free(&err);
    assert_int_equal(rs->n, 1);
    return rs->r[0];
}

/* Every run of text[0, len) into rs (at most 4 kept). */
static void parse_all(const fsc_parser *p, const char *text, size_t len, runs *rs)
{
    fsc_doc doc = {.path = "t.txt", .data = text, .len = len};
    size_t n = 0;
    rs->n = 0;
    assert_int_equal(fsc_parse_doc(p, &doc, keep, rs, &n), FSC_OK);
}

/* text is one run of two jobs, named a and b */
static void assert_two_jobs(const fsc_parser *p, const char *text, size_t len, const char *a, const char *b)
{
    runs rs = {0};
    parse_all(p, text, len, &rs);
    assert_int_equal(rs.n, 1);
    assert_int_equal(rs.r[0]->n_jobs, 2);
    assert_string_equal(rs.r[0]->jobs[0].jobname, a);
    assert_string_equal(rs.r[0]->jobs[1].jobname, b);
    fsc_run_free(rs.r[0]);
}

static bool has_warning(const fsc_run *r, const char *needle)
{
    for (size_t i = 0; i < r->n_warnings; i++)
        if (strstr(r->warnings[i].message, needle))
            return true;
    return false;
}

/* A paste that begins inside a run, below another run's whole report: its lines
 * (here a percentile row, buckets, cpu, a group's line) are no part of the run above,
 * whose Disk stats ended it; they are read as a run of their own. */
static void test_tail_after_disk_stats(void **state)
{
    (void)state;
    runs rs = {0};
    fsc_buf err = {0};
    fsc_parser *p = fsc_parser_new(NULL, &err);
    assert_non_null(p);
    static const char text[] =
        "rr: (g=0): rw=randread, bs=(R) 4096B-4096B, (W) 4096B-4096B, (T) 4096B-4096B, ioengine=psync, iodepth=1\n"
        "fio-3.33\n"
        "Starting 1 process\n"
        "\n"
        "rr: (groupid=0, jobs=1): err= 0: pid=100: Mon Nov 30 02:47:10 2026\n"
        "  read: IOPS=10.3k, BW=40.0MiB/s (41.9MB/s)(80.0MiB/2001msec)\n"
        "    clat (usec): min=40, max=500, avg=95.10, stdev=10.00\n"
        "  cpu          : usr=1.00%, sys=2.00%, ctx=100, majf=0, minf=10\n"
        "\n"
        "Run status group 0 (all jobs):\n"
        "   READ: bw=40.0MiB/s (41.9MB/s), 40.0MiB/s-40.0MiB/s (41.9MB/s-41.9MB/s), io=80.0MiB (83.9MB), "
        "run=2001-2001msec\n"
        "\n"
        "Disk stats (read/write):\n"
        "  vda: ios=20000/0, merge=0/0, ticks=1000/0, in_queue=1000, util=50.00%\n"
        "\n"
        "and the end of the other run:\n"
        "\n"
        "     | 99.99th=[ 5344]\n"
        "    lat (usec)   : 2=25.24%, 4=26.83%, 10=46.47%\n"
        "  cpu          : usr=20.00%, sys=28.24%, ctx=20, majf=0, minf=106\n"
        "\n"
        "Run status group 0 (all jobs):\n"
        "  WRITE: bw=273MiB/s (286MB/s), 273MiB/s-273MiB/s (286MB/s-286MB/s), io=16.0MiB (16.8MB), run=60-60msec\n";
    parse_all(p, text, sizeof text - 1, &rs);
    assert_int_equal(rs.n, 2);
    const fsc_run *a = rs.r[0], *b = rs.r[1];
    assert_int_equal(a->n_jobs, 1);
    assert_int_equal(a->n_groups, 1);
    assert_false(a->groups[0].dir[FSC_DIR_WRITE].bw_bytes.set); /* not the tail's WRITE line */
    assert_true(a->jobs[0].usr_cpu.v == 1.0);
    assert_int_equal(a->n_disk_util, 1);
    assert_int_equal(b->n_disk_util, 0);
    assert_int_equal(b->n_groups, 1);
    assert_true(b->groups[0].dir[FSC_DIR_WRITE].bw_bytes.set);
    assert_int_equal(b->source.first_line, 18);
    for (size_t k = 0; k < rs.n; k++)
        fsc_run_free(rs.r[k]);
    fsc_parser_free(p);
    fsc_buf_free(&err);
}

/* A line whose last value visibly ended ("util=99.72%"), or one above a line that
 * begins as no rest of fio's does (a banner of asterisks), is no line a wrap cut: the
 * lines of other text below it (a shell trace, a prompt) are not joined to it as its
 * rest, which made its value "damaged". A line cut hard after such a value goes on
 * with the comma below it, and is joined. */
static void test_ended_lines_not_joined(void **state)
{
    (void)state;
    runs rs = {0};
    const fsc_run *r = parse_one(&rs, "Disk stats (read/write):\n"
                                      "  loop6: ios=39849/64032, merge=0/1, ticks=131108/297927, in_queue=429078, "
                                      "util=99.72%\n"
                                      "+ for i in `shuf -i 1-$NN -n $NN`\n"
                                      "+ fallocate -o 0 -l 524288000 /mnt/loop7/testfile\n");
    assert_int_equal(r->n_disk_util, 1);
    assert_true(r->disk_util[0].util.v == 99.72);
    assert_false(has_warning(r, "damaged"));
    assert_int_equal(r->source.last_line, 2);
    fsc_run_free(rs.r[0]);
    /* a banner of asterisks (a script's) below a line whose last value is a count */
    r = parse_one(&rs, "rr: (groupid=0, jobs=4): err= 0: pid=0: Tue Nov 21 11:16:28 2023\n"
                       "  read: IOPS=11.2k, BW=87.6MiB/s (91.9MB/s)(10.3GiB/120010msec)\n"
                       "   bw (  KiB/s): min=55656, max=190247, per=99.87%, avg=89629.37, stdev=1079.02, "
                       "samples=2868\n"
                       "*********Fio_Job**************\n"
                       "Tue Nov 21 11:14:26 UTC 2023 Sample=1; Block_Size=8k; job=randread; numjobs=4; iodepth=8\n");
    assert_false(has_warning(r, "damaged"));
    assert_int_equal(r->source.last_line, 3);
    fsc_run_free(rs.r[0]);
    r = parse_one(&rs, "Disk stats (read/write):\n"
                       "    md0: ios=836698/0, merge=0/0, ticks=51308/0, in_queue=51308, util=99.91%\n"
                       ", aggrios=419060/0, aggrmerge=0/0, aggrticks=26122/0, aggrin_queue=26122, aggrutil=99.88%\n"
                       "root@host:~# \n");
    assert_true(r->disk_util[0].aggr_util.v == 99.88);
    fsc_run_free(rs.r[0]);
}

/* One run of fio 3.33 text, a line each, for the tests that lay it out as tools do. */
static const char *const one_run[] = {
    "rr: (g=0): rw=randread, bs=(R) 4096B-4096B, (W) 4096B-4096B, ioengine=libaio, iodepth=16",
    "fio-3.33",
    "Starting 1 process",
    "",
    "rr: (groupid=0, jobs=1): err= 0: pid=1: Mon Nov 30 02:48:07 2026",
    "  read: IOPS=10.9k, BW=42.8MiB/s (44.8MB/s)(85.5MiB/2001msec)",
    "    clat (usec): min=30, max=17032, avg=88.61, stdev=482.97",
    "  lat (usec)   : 50=12.06%, 100=86.35%, 250=1.15%",
    "  cpu          : usr=1.94%, sys=13.53%, ctx=21931, majf=0, minf=12",
    "",
    "Run status group 0 (all jobs):",
    "   READ: bw=42.8MiB/s (44.8MB/s), 42.8MiB/s-42.8MiB/s (44.8MB/s-44.8MB/s), io=85.5MiB (89.7MB), "
    "run=2001-2001msec",
    "",
    "Disk stats (read/write):",
    "  vda: ios=19892/39, merge=124/0, ticks=1075/17, in_queue=1131, util=49.21%",
};

/* one_run read from text: all of its values, and no warning (what says which layout) */
static void assert_one_run(const char *text, const char *layout)
{
    runs rs = {0};
    const fsc_run *r = parse_one(&rs, text);
    assert_int_equal(r->n_jobs, 1);
    const fsc_job *j = &r->jobs[0];
    assert_string_equal(j->jobname, "rr");
    assert_non_null(fsc_job_option(j, "iodepth"));
    assert_string_equal(fsc_job_option(j, "iodepth"), "16");
    assert_true(j->dir[FSC_DIR_READ].iops.v == 10900);
    assert_true(j->dir[FSC_DIR_READ].lat[FSC_LAT_CLAT].stddev.v == 482970);
    assert_int_equal(j->latency[FSC_BUCKET_US].n, 3);
    assert_true(j->minf.v == 12);
    assert_int_equal(r->n_groups, 1);
    assert_true(r->groups[0].dir[FSC_DIR_READ].runtime_max.v == 2001);
    assert_int_equal(r->n_disk_util, 1);
    if (r->n_warnings)
        fail_msg("%s: %s (line %u)", layout, r->warnings[0].message, r->warnings[0].line);
    fsc_run_free(rs.r[0]);
}

/* A text framed by a terminal program (a side on the left and, after the spaces that
 * pad each line to the frame's width, on the right; in box-drawing lines, heavy lines
 * that touch the longest line, or ASCII under a "+----+" rule) or padded to a
 * console's width: the sides and the padding are no part of the values, and the
 * longest line, which fills the width, is whole (not cut short). */
static void test_framed_and_padded(void **state)
{
    (void)state;
    static const struct {
        const char *left, *right, *top;
        bool pad;
    } frames[] = {
        {"\u2502 ", " \u2502", "\u256d\u2500\u2500\u256e", true},
        {"| ", " |", "+----+", true},
        {"\u2503", "\u2503", "\u250f\u2501\u2501\u2513", true},
        {"", "", NULL, true},  /* a console's copy: padding alone */
        {"\u2551 ", " \u2551", NULL, false},
    };
    size_t n_lines = sizeof one_run / sizeof one_run[0], width = 0;
    for (size_t i = 0; i < n_lines; i++)
        width = strlen(one_run[i]) > width ? strlen(one_run[i]) : width;
    for (size_t f = 0; f < sizeof frames / sizeof frames[0]; f++) {
        fsc_buf text = {0};
        if (frames[f].top)
            fsc_buf_printf(&text, "%s\n", frames[f].top);
        for (size_t i = 0; i < n_lines; i++) {
            size_t pad = frames[f].pad ? width - strlen(one_run[i]) : 0;
            fsc_buf_printf(&text, "%s%s%*s%s\n", frames[f].left, one_run[i], (int)pad, "", frames[f].right);
        }
        if (frames[f].top)
            fsc_buf_printf(&text, "%s\n", frames[f].top);
        char layout[32];
        snprintf(layout, sizeof layout, "frame %zu", f);
        assert_one_run(text.data, layout);
        fsc_buf_free(&text);
    }
}

/* Output numbered by grep -n ("12:" on every line) or by grep -n -A ("6:" on the line
 * that matched, "7-" on those after it; "a.log:6:", "a.log-7-" with -H): the numbers
 * (and a file's name before them) are taken off as a prefix, name
 * no job (one more on each line: line numbers, not a loop's parameter printed before
 * fio's output), and the group and job lines, which begin with a capital or a job's
 * name right after the number, lose it too. Group lines that a mail numbers ("1:
 * READ: ...") stay runs of their own. */
static void test_line_numbers(void **state)
{
    (void)state;
    size_t n_lines = sizeof one_run / sizeof one_run[0];
    static const char *const forms[] = {"grep -n", "grep -n -A", "grep -H -n -A"};
    for (int form = 0; form < 3; form++) {
        fsc_buf text = {0};
        for (size_t i = 0; i < n_lines; i++) {
            bool match = strstr(one_run[i], "(g") || strstr(one_run[i], "Run status");
            char sep = form && !match ? '-' : ':';
            if (form == 2)
                fsc_buf_printf(&text, "logs/node1.log%c", sep);
            fsc_buf_printf(&text, "%zu%c%s\n", i + 41, sep, one_run[i]);
        }
        assert_one_run(text.data, forms[form]);
        fsc_buf_free(&text);
    }
    fsc_buf err = {0};
    fsc_parser *p = fsc_parser_new(NULL, &err);
    assert_non_null(p);
    static const char numbered[] =
        "1: READ: io=21981MB, aggrb=187558KB/s, minb=187558KB/s, maxb=187558KB/s, mint=120008msec, maxt=120008msec\n"
        "2: READ: io=41109MB, aggrb=350785KB/s, minb=350785KB/s, maxb=350785KB/s, mint=120004msec, maxt=120004msec\n"
        "3: READ: io=45927MB, aggrb=391802KB/s, minb=391802KB/s, maxb=391802KB/s, mint=120033msec, maxt=120033msec\n";
    runs rs = {0};
    parse_all(p, numbered, sizeof numbered - 1, &rs);
    assert_int_equal(rs.n, 3);
    for (size_t k = 0; k < rs.n; k++)
        fsc_run_free(rs.r[k]);
    /* pdsh's hosts: "node-1" is a name, not a file and grep's line number */
    static const char hosts[] = "node-1:   read: IOPS=10.9k, BW=42.8MiB/s (44.8MB/s)(85.5MiB/2001msec)\n"
                                "node-1:     clat (usec): min=30, max=17032, avg=88.61, stdev=482.97\n"
                                "node-2:   read: IOPS=11.9k, BW=46.5MiB/s (48.7MB/s)(93.0MiB/2001msec)\n"
                                "node-2:     clat (usec): min=30, max=17032, avg=81.61, stdev=482.97\n";
    assert_two_jobs(p, hosts, sizeof hosts - 1, "node-1", "node-2");
    /* fio's own lines that job names with a colon or a blank lead ("a:b2: (g=0)", "job
     * 1: (groupid=0, ...)") are no host's: a failed job (no result lines) after them
     * made a run of its own. A host's report has lines its name leads that no job name
     * does ("node-1:   read: IOPS="); these have none. */
    static const char names[] =
        "job 1 with spaces: (g=0): rw=trim, bs=(R) 4096B-4096B, (W) 4096B-4096B, (T) 4096B-4096B, ioengine=io_uring, iodepth=8\n"
        "a:b2: (g=0): rw=randread, bs=(R) 32.0KiB-32.0KiB, (W) 32.0KiB-32.0KiB, (T) 32.0KiB-32.0KiB, ioengine=io_uring, iodepth=1\n"
        "job 1 with spaces: (groupid=0, jobs=1): err=25 (file:ioengines.c:390, func=td_io_queue, error=Inappropriate ioctl "
        "for device): pid=5941: Sun Dec  6 17:30:14 2026\n"
        "a:b2: (groupid=0, jobs=1): err= 0: pid=5942: Sun Dec  6 17:30:14 2026\n";
    assert_two_jobs(p, names, sizeof names - 1, "job 1 with spaces", "a:b2");
    fsc_parser_free(p);
    fsc_buf_free(&err);
}

/* Result lines without job headers that a mail compares, each under its label
 * ("Before:", "After:"): a line of prose between them makes each a run of its own;
 * without one (grep output of several runs) they cannot be told apart. */
static void test_labelled_result_lines(void **state)
{
    (void)state;
    runs rs = {0};
    fsc_buf err = {0};
    fsc_parser *p = fsc_parser_new(NULL, &err);
    assert_non_null(p);
    static const char text[] = "Before:\n"
                               "  read: IOPS=1234k, BW=4821MiB/s (5055MB/s)(47.1GiB/10001msec)\n"
                               "    clat (usec): min=1, max=500, avg=3.10, stdev=1.00\n"
                               "After:\n"
                               "  read: IOPS=1456k, BW=5688MiB/s (5964MB/s)(55.5GiB/10001msec)\n";
    parse_all(p, text, sizeof text - 1, &rs);
    assert_int_equal(rs.n, 2);
    assert_int_equal(rs.r[0]->n_jobs, 1);
    assert_true(rs.r[0]->jobs[0].dir[FSC_DIR_READ].iops.v == 1234000);
    assert_true(rs.r[0]->jobs[0].dir[FSC_DIR_READ].lat[FSC_LAT_CLAT].mean.set);
    assert_string_equal(rs.r[0]->context[0], "Before");
    assert_true(rs.r[1]->jobs[0].dir[FSC_DIR_READ].iops.v == 1456000);
    assert_string_equal(rs.r[1]->context[0], "After");
    assert_int_equal(rs.r[1]->source.first_line, 5);
    for (size_t k = 0; k < rs.n; k++)
        fsc_run_free(rs.r[k]);
    static const char grep[] = "  read: IOPS=1234k, BW=4821MiB/s (5055MB/s)(47.1GiB/10001msec)\n"
                               "  read: IOPS=1456k, BW=5688MiB/s (5964MB/s)(55.5GiB/10001msec)\n";
    parse_all(p, grep, sizeof grep - 1, &rs);
    assert_int_equal(rs.n, 0);
    fsc_parser_free(p);
    fsc_buf_free(&err);
}

/* A line of values that stops before fio's end of it, inside a text
 * (fsc_line_stops_short): the value it stops in goes, a list's last separator too;
 * fio's own ends stay whole in every era (2.0's "short=r=0/w=0/d=0", 2.x's padded
 * "stdev= 6.23", 3.x's "dropped=0,0,0,0"). */
static void test_lines_stop_short(void **state)
{
    (void)state;
    static const char *const whole[] = {
        "    clat (usec): min=30, max=17032, avg=88.61, stdev=482.97",
        "    clat (usec): min=0, max=4063, avg= 0.05, stdev= 6.23",
        "   bw (  KiB/s): min=42219, max=48272, per=100.00%, avg=45177.00, stdev=3028.82, samples=3",
        "    bw (KB  /s): min=57634, max=66464, per=98.74%, avg=62049.00, stdev=6243.75",
        "  cpu          : usr=3.85%, sys=26.35%, ctx=21255, majf=0, minf=10",
        "     issued    : total=r=31436/w=0/d=0, short=r=0/w=0/d=0",
        "     issued    : total=r=31436/w=0/d=0, short=r=0/w=0/d=0, drop=r=0/w=0/d=0",
        "     issued rwts: total=21899,0,0,0 short=0,0,0,0 dropped=0,0,0,0",
        "     latency   : target=0, window=0, percentile=100.00%, depth=1",
        "  read : io=125744KB, bw=62841KB/s, iops=15710, runt=  2001msec",
        "  write: IOPS=18.2k, BW=71.2MiB/s (74.7MB/s)(143MiB/2012msec); 0 zone resets",
        "     | 30.00th=[   44], 40.00th=[   45], 50.00th=[   47], 60.00th=[   49],",
        "    clat (nsec): min=10, max=4912.2k, avg=23.32, stdev=5106.67",
        "    clat (usec): min=1, max=2, avg= 1.50, stdev= 0.00",
        "     lat (usec): min=0, max=0, avg= 0.00, stdev=nan",
        "  lat (usec)   : 50=64.74%, 100=31.46%, 250=1.84%, 500=0.62%, 750=0.22%",
        "  vda: ios=19892/39, merge=124/0, ticks=1075/17, in_queue=1131, util=49.21%",
    };
    for (size_t i = 0; i < sizeof whole / sizeof *whole; i++)
        assert_int_equal(fsc_line_stops_short(whole[i], strlen(whole[i])), strlen(whole[i]));
    static const struct {
        const char *line, *read;
    } cut[] = {
        {"    clat (nsec): min=1232, max=27118k, avg=300", "    clat (nsec): min=1232, max=27118k"},
        {"     lat (usec): min=27, max=19253, avg=80.37, stdev=490.", "     lat (usec): min=27, max=19253, avg=80.37"},
        {"   bw (  KiB/s): min=23158, max=28064, per=49.91%, avg=25611.00, stdev=3469.07, samp",
         "   bw (  KiB/s): min=23158, max=28064, per=49.91%, avg=25611.00, stdev=3469.07"},
        {"    lat (msec) : 2=0.", "    lat (msec) :"}, /* no value left: the line is not read */
        {"  lat (msec)   : 2=1.85%, 4=1.54%, 10=0.", "  lat (msec)   : 2=1.85%, 4=1.54%"},
        {"  cpu          : usr=16.44%, sys=45.21%, ctx=1", "  cpu          : usr=16.44%, sys=45.21%"},
        {"  IO depths    : 1=0.1%, 2=0.1%, 4=0.1%, ", "  IO depths    : 1=0.1%, 2=0.1%, 4=0.1%"},
        {"  vda: ios=100475/4", "  vda:"},
        /* fio prints avg and stdev with two decimals ("%5.02f") in every era: one
         * without them was cut inside */
        {"     lat (usec): min=30, max=23761, avg=80.71, stdev=52", "     lat (usec): min=30, max=23761, avg=80.71"},
        {"   iops        : min=11396, max=78636, avg=34058.67, stdev=3860",
         "   iops        : min=11396, max=78636, avg=34058.67"},
        {"    clat (nsec): min=10, max=4912.2k, avg=23.32, stdev=510.6", "    clat (nsec): min=10, max=4912.2k, avg=23.32"},
        {"    clat (usec): min=0, max=4063, avg= 0.05, stdev= 6", "    clat (usec): min=0, max=4063, avg= 0.05"},
    };
    for (size_t i = 0; i < sizeof cut / sizeof *cut; i++)
        assert_int_equal(fsc_line_stops_short(cut[i].line, strlen(cut[i].line)), strlen(cut[i].read));
}

/* Lines cut short (cutline.c): a pager's copy cut at 80 columns, a view's "…" after a
 * value. The value the cut broke is dropped, never read short; the values before it,
 * and the lines a rule reads without their tail (the job header without iodepth, the
 * group line without run=), are kept. A text with long lines of many lengths is no
 * cut text: its lines stay whole. */
static void test_cut_lines(void **state)
{
    (void)state;
    runs rs = {0};
    /* fio 3.33's text cut at 80 columns: the header, bw and group lines */
    const fsc_run *r = parse_one(
        &rs, "rr: (g=0): rw=randread, bs=(R) 4096B-4096B, (W) 4096B-4096B, (T) 4096B-4096B, io\n"
             "fio-3.33\n"
             "rr: (groupid=0, jobs=1): err= 0: pid=100: Mon Nov 30 02:47:10 2026\n"
             "  read: IOPS=10.3k, BW=40.0MiB/s (41.9MB/s)(80.0MiB/2001msec)\n"
             "    clat (usec): min=40, max=500, avg=95.10, stdev=10.00\n"
             "   bw (  KiB/s): min=42219, max=48272, per=100.00%, avg=45173.25, stdev=3028.82,\n"
             "   iops        : min=10554, max=12068, avg=11293.25, stdev=757.07, samples=4\n"
             "  cpu          : usr=1.00%, sys=2.00%, ctx=100, majf=0, minf=10\n"
             "\n"
             "Run status group 0 (all jobs):\n"
             "   READ: bw=40.0MiB/s (41.9MB/s), 40.0MiB/s-40.0MiB/s (41.9MB/s-41.9MB/s), io=80\n");
    const fsc_job *j = &r->jobs[0];
    const fsc_dir *d = &j->dir[FSC_DIR_READ];
    assert_non_null(fsc_job_option(j, "rw"));
    assert_string_equal(fsc_job_option(j, "rw"), "randread");
    assert_non_null(fsc_job_option(j, "bs"));
    assert_string_equal(fsc_job_option(j, "bs"), "4096B");
    assert_null(fsc_job_option(j, "ioengine")); /* "io" of ioengine=psync */
    assert_true(d->bw_dev.set && d->bw_dev.v == 3028.82);
    assert_false(d->bw_samples.set);
    assert_true(d->iops_samples.set && d->iops_samples.v == 4);
    assert_true(d->runtime.set && d->runtime.v == 2001);
    assert_int_equal(r->n_groups, 1);
    const fsc_group_dir *gd = &r->groups[0].dir[FSC_DIR_READ];
    assert_true(gd->bw_max_bytes.set && gd->bw_max_bytes.v == 40.0 * 1048576);
    assert_false(gd->io_bytes.set); /* "io=80" of io=80.0MiB: not 80 bytes */
    assert_true(has_warning(r, "line cut short"));
    fsc_run_free(rs.r[0]);
    /* the same output cut at 80, in a post whose prose runs longer than that */
    r = parse_one(&rs, "A paragraph of prose that runs on well beyond the eighty columns of the output below it.\n"
                       "\n"
                       "rr: (g=0): rw=randread, bs=(R) 4096B-4096B, (W) 4096B-4096B, (T) 4096B-4096B, io\n"
                       "rr: (groupid=0, jobs=1): err= 0: pid=100: Mon Nov 30 02:47:10 2026\n"
                       "  read: IOPS=10.3k, BW=40.0MiB/s (41.9MB/s)(80.0MiB/2001msec)\n"
                       "   bw (  KiB/s): min=42219, max=48272, per=100.00%, avg=45173.25, stdev=3028.82,\n"
                       "Run status group 0 (all jobs):\n"
                       "   READ: bw=40.0MiB/s (41.9MB/s), 40.0MiB/s-40.0MiB/s (41.9MB/s-41.9MB/s), io=80\n");
    assert_string_equal(fsc_job_option(&r->jobs[0], "bs"), "4096B");
    assert_true(r->groups[0].dir[FSC_DIR_READ].bw_bytes.set);
    assert_false(r->groups[0].dir[FSC_DIR_READ].io_bytes.set);
    fsc_run_free(rs.r[0]);
    /* a view's ellipsis: at any width, on one line */
    r = parse_one(&rs, "rr: (groupid=0, jobs=1): err= 0: pid=100: Mon Nov 30 02:47:10 2026\n"
                       "  read: IOPS=10.3k, BW=40.0MiB/s (41.9MB/s)(80.0MiB/2001msec)\n"
                       "   bw (  KiB/s): min=42219, max=48272, per=100.00%, avg=4517\xe2\x80\xa6\n"
                       "  lat (usec)   : 50=64.74%, 100=31.46%, 250=1.84%...\n");
    d = &r->jobs[0].dir[FSC_DIR_READ];
    assert_true(d->bw_agg.set && d->bw_agg.v == 100);
    assert_false(d->bw_mean.set);
    /* "250=1.84%...": an ASCII ellipsis after a line's last value, which a rule reads
     * without it: the value is refused where it is read (two buckets) */
    assert_int_equal(r->jobs[0].latency[FSC_BUCKET_US].n, 2);
    fsc_run_free(rs.r[0]);
    /* whole lines that happen to be as long as each other: two of them, or group
     * lines as fio prints them, are read whole */
#define JOB_AND_READ                                                                                          \
    "rr: (groupid=0, jobs=1): err= 0: pid=100: Mon Nov 30 02:47:10 2026\n"                                    \
    "  read: IOPS=10.3k, BW=40.0MiB/s (41.9MB/s)(80.0MiB/2001msec)\n"
    r = parse_one(&rs, JOB_AND_READ "  cpu          : usr=1.00%, sys=2.00%, ctx=100, majf=0, minf=10000\n");
    assert_true(r->jobs[0].minf.set && r->jobs[0].minf.v == 10000);
    assert_false(has_warning(r, "line cut short"));
    fsc_run_free(rs.r[0]);
    r = parse_one(&rs, JOB_AND_READ "Run status group 0 (all jobs):\n"
                       "   READ: io=1612MB, aggrb=8251KB/s, minb=8251KB/s, maxb=8251KB/s, mint=2001msec, maxt=2001msec\n"
                       "  WRITE: io=1612MB, aggrb=8251KB/s, minb=8251KB/s, maxb=8251KB/s, mint=2001msec, maxt=2001msec\n"
                       "   TRIM: io=1612MB, aggrb=8251KB/s, minb=8251KB/s, maxb=8251KB/s, mint=2001msec, maxt=2001msec\n");
    assert_int_equal(r->groups[0].dir[FSC_DIR_TRIM].runtime_max.v, 2001);
    assert_false(has_warning(r, "line cut short"));
    fsc_run_free(rs.r[0]);
#undef JOB_AND_READ
}

/* fio 2.15: "KB" is 1000 bytes when 10251 IOPS x 4096 B = 41.99 MB/s is what the
 * text calls bw=41992KB/s; with kb_base=1024 the same IOPS print as 40998KB/s. */
static void test_kb_base(void **state)
{
    (void)state;
    runs rs;
    const fsc_run *r =
        parse_one(&rs, "rr: (g=0): rw=randread, bs=4K-4K/4K-4K/4K-4K, ioengine=psync, iodepth=1\n"
                       "fio-2.15\n"
                       "Starting 1 process\n"
                       "\n"
                       "rr: (groupid=0, jobs=1): err= 0: pid=100: Mon Nov 30 02:47:10 2026\n"
                       "  read : io=41992KB, bw=41992KB/s, iops=10251, runt=  1000msec\n"
                       "    clat (usec): min=40, max=500, avg=95.10, stdev=10.00\n");
    const fsc_dir *d = &r->jobs[0].dir[FSC_DIR_READ];
    assert_true(d->bw_bytes.set);
    assert_true(d->bw_bytes.v == 41992000.0);
    assert_true(d->io_bytes.v == 41992000.0);
    assert_true(d->iops.v == 10251.0);
    assert_true(has_warning(r, "kb_base=1000"));
    fsc_run_free(rs.r[0]);

    r = parse_one(&rs, "rr: (g=0): rw=randread, bs=4K-4K/4K-4K/4K-4K, ioengine=psync, iodepth=1\n"
                       "fio-2.15\n"
                       "Starting 1 process\n"
                       "\n"
                       "rr: (groupid=0, jobs=1): err= 0: pid=100: Mon Nov 30 02:47:10 2026\n"
                       "  read : io=40998KB, bw=40998KB/s, iops=10251, runt=  1000msec\n"
                       "    clat (usec): min=40, max=500, avg=95.10, stdev=10.00\n");
    d = &r->jobs[0].dir[FSC_DIR_READ];
    assert_true(d->bw_bytes.v == 40998.0 * 1024);
    assert_true(d->io_bytes.v == 40998.0 * 1024);
    assert_false(has_warning(r, "kb_base"));
    fsc_run_free(rs.r[0]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_prefix_comment_marks), cmocka_unit_test(test_prefix_stamps),
        cmocka_unit_test(test_prefix_quoted),        cmocka_unit_test(test_prefix_grep),
        cmocka_unit_test(test_prefix_wrapped_rests), cmocka_unit_test(test_prefix_refused), cmocka_unit_test(test_line_within),       cmocka_unit_test(test_keyword_maybe),
        cmocka_unit_test(test_markup_kinds),
        cmocka_unit_test(test_markup_flag),          cmocka_unit_test(test_json_elisions),
        cmocka_unit_test(test_json_cut),             cmocka_unit_test(test_json_spans),
        cmocka_unit_test(test_kb_base),
        cmocka_unit_test(test_cut_lines),
        cmocka_unit_test(test_tail_after_disk_stats),
        cmocka_unit_test(test_labelled_result_lines),
        cmocka_unit_test(test_ended_lines_not_joined),
        cmocka_unit_test(test_framed_and_padded),
        cmocka_unit_test(test_line_numbers),
        cmocka_unit_test(test_lines_stop_short),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
