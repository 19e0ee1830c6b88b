/* SPDX-License-Identifier: MIT */
/* Text normalization: every step with exact lines and original line numbers, and
 * the damaged corpus against fio's own undamaged text of the same runs. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "parse_int.h"

typedef struct want {
    const char *text;
    uint32_t orig;
    uint16_t flags;
} want;

static void check_lines(const char *in, size_t in_len, const want *w, size_t n)
{
    fsc_text t;
    assert_int_equal(fsc_normalize(in, in_len, &t), FSC_OK);
    for (size_t i = 0; i < n && i < t.n_lines; i++) {
        const char *s = fsc_text_line(&t, i);
        if (strlen(w[i].text) != t.lines[i].len || memcmp(s, w[i].text, t.lines[i].len) != 0 ||
            t.lines[i].orig != w[i].orig || t.lines[i].flags != w[i].flags)
            fail_msg("line %zu: got [%.*s] orig %u flags %#x, want [%s] orig %u flags %#x", i,
                     (int)t.lines[i].len, s, t.lines[i].orig, t.lines[i].flags, w[i].text, w[i].orig,
                     w[i].flags);
        assert_int_equal(s[t.lines[i].len], '\n');
    }
    assert_int_equal(t.n_lines, n);
    /* lines are stored back to back: the store is exactly the lines joined by '\n' */
    size_t total = 0;
    for (size_t i = 0; i < t.n_lines; i++) {
        assert_int_equal(t.lines[i].off, total);
        total += t.lines[i].len + 1;
    }
    assert_int_equal(t.store.len, total);
    fsc_text_free(&t);
}

#define CHECK(in, ...)                                                                  \
    do {                                                                                \
        static const want w_[] = {__VA_ARGS__};                                         \
        check_lines(in, sizeof(in) - 1, w_, sizeof w_ / sizeof w_[0]);                  \
    } while (0)

static void test_crlf(void **state)
{
    (void)state;
    CHECK("fio-3.33\r\nStarting 1 process\r\n\r\nend", {"fio-3.33", 1, FSC_LINE_CR},
          {"Starting 1 process", 2, FSC_LINE_CR}, {"", 3, FSC_LINE_CR}, {"end", 4, 0});
}

static void test_cr_overwrite(void **state)
{
    (void)state;
    /* progress lines overwritten by the job header: keep what is after the last CR */
    CHECK("x\nJobs: 1 (f=1): [r(1)][10.0%][eta 00m:09s]\rJobs: 1 (f=1): [r(1)][20.0%][eta "
          "00m:08s]\rrr4k: (groupid=0, jobs=1): err= 0\nend\n",
          {"x", 1, 0}, {"rr4k: (groupid=0, jobs=1): err= 0", 2, FSC_LINE_CR}, {"end", 3, 0});
    /* progress ending in CR before the newline: the screen shows nothing of it */
    CHECK("Jobs: 1 (f=1): [r(1)][0.0%]\rJobs: 1 (f=1): [r(1)][96.0%]\r\nnul: (groupid=0, jobs=1)\n",
          {"", 1, FSC_LINE_CR}, {"nul: (groupid=0, jobs=1)", 2, 0});
    /* text that is not progress before a CR: every segment is a line */
    CHECK("abc\rdef\n", {"abc", 1, FSC_LINE_CR}, {"def", 1, FSC_LINE_CR});
}

static void test_glued_progress(void **state)
{
    (void)state;
    /* hikalium/bench: progress lines and a terse record glued without CR */
    CHECK("Jobs: 1 (f=1): [_(7),w(1)][55.0%][w=2132KiB/s][w=533 IOPS][eta 04Jobs: 1 (f=1): "
          "[_(7),w(1)][55.3%][w=2178KiB/s][w=544 IOPS][eta 043;fio-3.28;Seq1M-Read-Q8;0;0;1048576\n"
          "Jobs: 1 (f=1): [_(7),w(1)][55.3%][eta 04Jobs: 1 (f=1): [_(7),w(1)][55.4%]\n",
          {"3;fio-3.28;Seq1M-Read-Q8;0;0;1048576", 1, FSC_LINE_CR},
          {"Jobs: 1 (f=1): [_(7),w(1)][55.4%]", 2, FSC_LINE_CR});
}

static void test_mail_quotes(void **state)
{
    (void)state;
    CHECK("On Tue, someone wrote:\n> fio-3.35\n>> > read: IOPS=1\n>\n>   cpu : usr=1%\n",
          {"On Tue, someone wrote:", 1, 0}, {"fio-3.35", 2, FSC_LINE_QUOTED},
          {"read: IOPS=1", 3, FSC_LINE_QUOTED}, {"", 4, FSC_LINE_QUOTED},
          {"  cpu : usr=1%", 5, FSC_LINE_QUOTED});
}

static void test_html(void **state)
{
    (void)state;
    CHECK("<p>Result</p>\n<pre>x &lt;b&gt; &amp;amp; &#39;q&#39; &#x4e2d;&nbsp;<code>y</code><br>"
          "IO depths: &gt;=64=0.0%</pre>\n<br>\n  lat (usec) : 2=0.01%<br>\n",
          {"Result", 1, FSC_LINE_ENTITY}, {"x <b> &amp; 'q' \xe4\xb8\xad y", 2, FSC_LINE_ENTITY},
          {"IO depths: >=64=0.0%", 2, FSC_LINE_ENTITY}, {"", 3, FSC_LINE_ENTITY},
          {"  lat (usec) : 2=0.01%", 4, FSC_LINE_ENTITY});
    /* no markup in the document: "<" stays text, entities are still decoded */
    CHECK("a <br b\nIO depths: &gt;=64\n", {"a <br b", 1, 0}, {"IO depths: >=64", 2, FSC_LINE_ENTITY});
}

static void test_fences(void **state)
{
    (void)state;
    CHECK("```text\nfio-3.33\n   ~~~\n", {"```text", 1, FSC_LINE_FENCE}, {"fio-3.33", 2, 0},
          {"   ~~~", 3, FSC_LINE_FENCE});
}

static void test_gutter_blocks(void **state)
{
    (void)state;
    /* seeds/002: a block of bare numbers before the code it numbers */
    CHECK("1.1 4k\n\n 1\n 2\n 3\nfio \\\n  --name=x \\\n  --rw=read\n\n1\nlsblk -d\n",
          {"1.1 4k", 1, 0}, {"", 2, 0}, {"", 3, FSC_LINE_GUTTER_ONLY}, {"", 4, FSC_LINE_GUTTER_ONLY},
          {"", 5, FSC_LINE_GUTTER_ONLY}, {"fio \\", 6, 0}, {"  --name=x \\", 7, 0}, {"  --rw=read", 8, 0},
          {"", 9, 0}, {"", 10, FSC_LINE_GUTTER_ONLY}, {"lsblk -d", 11, 0});
}

static void test_gutter_prefix(void **state)
{
    (void)state;
    CHECK("12    read: IOPS=1\n13    clat (usec): min=1\n14\n15   cpu          : usr=1%\n"
          "3;fio-3.28;x\n4k_randread: (groupid=0\n5 \xe7\x9b\x98 RAID\n",
          {"   read: IOPS=1", 1, FSC_LINE_GUTTER}, {"   clat (usec): min=1", 2, FSC_LINE_GUTTER},
          {"", 3, FSC_LINE_GUTTER}, {"  cpu          : usr=1%", 4, FSC_LINE_GUTTER}, {"3;fio-3.28;x", 5, 0},
          {"4k_randread: (groupid=0", 6, 0}, {"5 \xe7\x9b\x98 RAID", 7, 0});
}

static void test_indented_blocks(void **state)
{
    (void)state;
    /* an indented paste, wrapped before it was indented: the block's indentation goes,
     * fio's own stays; prose indented without a line of fio's margin stays as it is */
    CHECK("Our run:\n\n    seq-read-aaaaaaaaaaaaaaaaaaaaaaa:\n    (groupid=0, jobs=1): err= 0\n"
          "      read: IOPS=1\n\n       |  1.00th=[  3\n    18],\n    fio-3.33\nafter\n\n  note: indented\n"
          "    prose\n",
          {"Our run:", 1, 0}, {"", 2, 0}, {"seq-read-aaaaaaaaaaaaaaaaaaaaaaa:", 3, FSC_LINE_INDENT},
          {"(groupid=0, jobs=1): err= 0", 4, FSC_LINE_INDENT}, {"  read: IOPS=1", 5, FSC_LINE_INDENT},
          {"", 6, 0}, {"   |  1.00th=[  3", 7, FSC_LINE_INDENT}, {"18],", 8, FSC_LINE_INDENT},
          {"fio-3.33", 9, FSC_LINE_INDENT}, {"after", 10, 0}, {"", 11, 0}, {"  note: indented", 12, 0},
          {"    prose", 13, 0});
}

static void test_bar_quotes(void **state)
{
    (void)state;
    /* "| " (or "|") quoted mail: the mark goes; a percentile row at the margin (its
     * indentation lost) keeps its '|' */
    CHECK("| fio-3.33\n|\n|      |  1.00th=[  3],\nclat percentiles (usec):\n|  1.00th=[ 5]\n|g1: (g=0)\n",
          {"fio-3.33", 1, FSC_LINE_QUOTED}, {"", 2, FSC_LINE_QUOTED},
          {"     |  1.00th=[  3],", 3, FSC_LINE_QUOTED}, {"clat percentiles (usec):", 4, 0},
          {"|  1.00th=[ 5]", 5, 0}, {"g1: (g=0)", 6, FSC_LINE_QUOTED});
    /* inside a "| " quote, a wrapped row's rest that looks like a row loses the mark */
    CHECK("|      | 50.00th=[ 2064], 60.\n| 00th=[ 2128],\n",
          {"     | 50.00th=[ 2064], 60.", 1, FSC_LINE_QUOTED}, {"00th=[ 2128],", 2, FSC_LINE_QUOTED});
    /* a wrapped line's rest behind the mark is not a row; a row cut short still is */
    CHECK("|.44\n", {".44", 1, FSC_LINE_QUOTED});
    CHECK("|8\n", {"8", 1, FSC_LINE_QUOTED});
    CHECK("| 318], 20.00th=[ 4]\n", {"318], 20.00th=[ 4]", 1, FSC_LINE_QUOTED});
    CHECK("| 70.00th\n", {"| 70.00th", 1, 0});
}

static void test_timestamps(void **state)
{
    (void)state;
    CHECK("2024-01-02T03:04:05.1234567Z fio-3.33\n[12:34:56] Starting 1 process\n"
          "[2024-01-02 03:04:05] Run status group 0\n[08:28:51]\n[2] note\n12:30 lunch\n",
          {"fio-3.33", 1, FSC_LINE_STAMP}, {"Starting 1 process", 2, FSC_LINE_STAMP},
          {"Run status group 0", 3, FSC_LINE_STAMP}, {"", 4, FSC_LINE_STAMP}, {"[2] note", 5, 0},
          {"12:30 lunch", 6, 0});
}

static void test_spaces_and_bytes(void **state)
{
    (void)state;
    CHECK("\xEF\xBB\xBF"
          "fio-3.33\n\tread:\xC2\xA0IOPS=1\xE2\x80\x8B\n\xe4\xb8\xad\xe3\x80\x80\xe6\x96\x87\n\xff\xfe bad\xc3\n",
          {"fio-3.33", 1, 0}, {" read: IOPS=1", 2, 0}, {"\xe4\xb8\xad\xe3\x80\x80\xe6\x96\x87", 3, 0},
          {"\xff\xfe bad\xc3", 4, 0});
}

static void test_quoted_printable(void **state)
{
    (void)state;
    CHECK("Content-Type: text/plain\nContent-Transfer-Encoding: quoted-printable\n\n"
          "socket0: (groupid=3D0, jobs=3D64): err=3D 0: pid=3D18344: Tue Jul 27 20:00:=\n"
          "36 2021\n  read: IOPS=3D1\n",
          {"Content-Type: text/plain", 1, 0}, {"Content-Transfer-Encoding: quoted-printable", 2, 0},
          {"", 3, 0}, {"socket0: (groupid=0, jobs=64): err= 0: pid=18344: Tue Jul 27 20:00:36 2021", 4, 0},
          {"  read: IOPS=1", 6, 0});
    /* the same body without a MIME header is recognized by its =3D */
    CHECK("a=3D1 b=3D2 c=3D3 soft=\nbreak\n", {"a=1 b=2 c=3 softbreak", 1, 0});
    /* only escapes an encoder writes are decoded: '=', blanks at a line's end, UTF-8
     * characters, "=46rom" and "=2E" at a line's start. fio's text that was never
     * encoded (a client that claimed quoted-printable, a paste below such a mail)
     * keeps its numbers: no control byte ("=10"), letter or digit ("=43"), other
     * printable byte ("=40", '@'), lone UTF-8 byte ("=85"), or space within the line
     * ("=20") */
    CHECK("Content-Transfer-Encoding: quoted-printable\n\n"
          "caf=C3=A9 =E2=80=99 total=4096 tail=20=20\n"
          "=46rom here\n"
          "  read: IOPS=10.9k, BW=43.3MiB/s, min=20, max=85, avg=43.10, lat=E9\n",
          {"Content-Transfer-Encoding: quoted-printable", 1, 0}, {"", 2, 0},
          {"caf\xc3\xa9 \xe2\x80\x99 total=4096 tail  ", 3, 0}, {"From here", 4, 0},
          {"  read: IOPS=10.9k, BW=43.3MiB/s, min=20, max=85, avg=43.10, lat=E9", 5, 0});
    /* a soft break between the escapes of one UTF-8 character (Python's encoder
     * breaks at 76 columns wherever it is) */
    CHECK("Content-Transfer-Encoding: quoted-printable\n\n"
          "caf=C3=\n=A9 =E2=\n=80=99s\n",
          {"Content-Transfer-Encoding: quoted-printable", 1, 0}, {"", 2, 0},
          {"caf\xc3\xa9 \xe2\x80\x99s", 3, 0});
    /* Latin-1: each byte above 0x7F is a character */
    CHECK("Content-Type: text/plain; charset=iso-8859-1\nContent-Transfer-Encoding: quoted-printable\n\n"
          "caf=E9\n",
          {"Content-Type: text/plain; charset=iso-8859-1", 1, 0},
          {"Content-Transfer-Encoding: quoted-printable", 2, 0}, {"", 3, 0}, {"caf\xc3\xa9", 4, 0});
    /* a body ends at a line no encoder writes (over 76 columns, or a '=' that is no
     * escape): fio's text pasted below the mail (a concatenation of documents) keeps
     * its "BW=969MiB/s", which Latin-1 would read as U+0096 and "9MiB/s"; the next
     * header says quoted-printable again */
    CHECK("Content-Type: text/plain; charset=iso-8859-1\nContent-Transfer-Encoding: quoted-printable\n\n"
          "caf=E9\n"
          "job: (groupid=0, jobs=1): err= 0: pid=1\n"
          "  write: IOPS=242, BW=969MiB/s (1016MB/s)(56.8GiB/60029msec)\n"
          "Content-Transfer-Encoding: quoted-printable\n\n"
          "caf=E9\n",
          {"Content-Type: text/plain; charset=iso-8859-1", 1, 0},
          {"Content-Transfer-Encoding: quoted-printable", 2, 0}, {"", 3, 0}, {"caf\xc3\xa9", 4, 0},
          {"job: (groupid=0, jobs=1): err= 0: pid=1", 5, 0},
          {"  write: IOPS=242, BW=969MiB/s (1016MB/s)(56.8GiB/60029msec)", 6, 0},
          {"Content-Transfer-Encoding: quoted-printable", 7, 0}, {"", 8, 0}, {"caf\xc3\xa9", 9, 0});
    /* so does a line too long for the encoder; a document's own default (three
     * "=3D", no header) leaves out only that line */
    CHECK("a=3D1 b=3D2 c=3D3\n"
          "  lat (usec)   : 100=38.67%, 250=33.44%, 500=0.67%, 750=0.04%, 1000=0.01%, 2000=1\n"
          "d=3D4\n",
          {"a=1 b=2 c=3", 1, 0},
          {"  lat (usec)   : 100=38.67%, 250=33.44%, 500=0.67%, 750=0.04%, 1000=0.01%, 2000=1", 2, 0},
          {"d=4", 3, 0});
}

static char *slurp(const char *path, size_t *len);
static const char *corpus_dir(void);

static void test_format_flowed(void **state)
{
    (void)state;
    /* RFC 3676: a line ending in a space continues on the next line of the same
     * quote depth; "> " alone and the signature separator "-- " do not flow */
    CHECK("Content-Type: text/plain; charset=UTF-8; format=flowed\n\n"
          "> \n"
          "> Raid5: (g=0): rw=randwrite, bs=(R) 4096B-4096B, (W) 4096B-4096B, (T) \n"
          "> 4096B-4096B, ioengine=libaio, iodepth=1\n"
          "    bw (  KiB/s): min=47229, avg=241546.47, \n"
          "stdev=1326.92, samples=57259\n"
          "   lat (msec)   : 1000=0.93%, 2000=90.41%, \n"
          " >=2000=8.42%\n"
          "quoted next: \n"
          "> no join across quote depths\n"
          "-- \n"
          "sig\n",
          {"Content-Type: text/plain; charset=UTF-8; format=flowed", 1, 0}, {"", 2, 0}, {"", 3, FSC_LINE_QUOTED},
          {"Raid5: (g=0): rw=randwrite, bs=(R) 4096B-4096B, (W) 4096B-4096B, (T) 4096B-4096B, ioengine=libaio, "
           "iodepth=1",
           4, FSC_LINE_QUOTED},
          {"    bw (  KiB/s): min=47229, avg=241546.47, stdev=1326.92, samples=57259", 6, 0},
          {"   lat (msec)   : 1000=0.93%, 2000=90.41%, >=2000=8.42%", 8, 0}, {"quoted next: ", 10, 0},
          {"no join across quote depths", 11, FSC_LINE_QUOTED}, {"-- ", 12, 0}, {"sig", 13, 0});
    /* without the header, trailing spaces mean nothing */
    CHECK("a \nb\n", {"a ", 1, 0}, {"b", 2, 0});
    /* nor in the next file `tail -n +1` shows ("==> b.log <=="): the mail's body
     * ended above it (a quoted-printable one too) */
    CHECK("Content-Type: text/plain; format=flowed\nContent-Transfer-Encoding: quoted-printable\n\n"
          "a \nb=3D1\n==> b.log <==\nc \nd=3D1\n",
          {"Content-Type: text/plain; format=flowed", 1, 0}, {"Content-Transfer-Encoding: quoted-printable", 2, 0},
          {"", 3, 0}, {"a b=1", 4, 0}, {"==> b.log <==", 6, 0}, {"c ", 7, 0}, {"d=3D1", 8, 0});
}

/* An mbox holds many mails, each with its own headers: a quoted-printable or
 * format=flowed mail does not make the mails after it so. fio's text in a plain mail
 * has "=" before hex digits ("IOPS=10.9k" would become a control byte) and lines
 * with trailing spaces (a Windows fio's job header) that must not be joined. */
static void test_mbox_mails(void **state)
{
    (void)state;
    CHECK("From a@example.org Mon Nov 30 10:00:00 2026\n"
          "Content-Type: text/plain\nContent-Transfer-Encoding: quoted-printable\n\n"
          "a=3Db soft=\nbreak\n\n"
          "From b@example.org Mon Nov 30 11:00:00 2026\n"
          "Content-Type: text/plain; charset=us-ascii\n\n"
          "  read: IOPS=10.9k, BW=42.8MiB/s (44.9MB/s)(85.5MiB/2001msec)\n",
          {"From a@example.org Mon Nov 30 10:00:00 2026", 1, 0}, {"Content-Type: text/plain", 2, 0},
          {"Content-Transfer-Encoding: quoted-printable", 3, 0}, {"", 4, 0}, {"a=b softbreak", 5, 0},
          {"", 7, 0}, {"From b@example.org Mon Nov 30 11:00:00 2026", 8, 0},
          {"Content-Type: text/plain; charset=us-ascii", 9, 0}, {"", 10, 0},
          {"  read: IOPS=10.9k, BW=42.8MiB/s (44.9MB/s)(85.5MiB/2001msec)", 11, 0});
    /* git format-patch's separator; a flowed mail, then one that is not */
    CHECK("From 0123abcd Mon Sep 17 00:00:00 2001\n"
          "Content-Type: text/plain; format=flowed\n\n"
          "one \nline\n\n"
          "From 4567ef01 Mon Sep 17 00:00:00 2001\n"
          "Content-Type: text/plain\n\n"
          "job: (groupid=0, jobs=1): err= 0: pid=1: Wed Jun 28 02:40:07 2023   \n"
          "  write: IOPS=981\n",
          {"From 0123abcd Mon Sep 17 00:00:00 2001", 1, 0}, {"Content-Type: text/plain; format=flowed", 2, 0},
          {"", 3, 0}, {"one line", 4, 0}, {"", 6, 0}, {"From 4567ef01 Mon Sep 17 00:00:00 2001", 7, 0},
          {"Content-Type: text/plain", 8, 0}, {"", 9, 0},
          {"job: (groupid=0, jobs=1): err= 0: pid=1: Wed Jun 28 02:40:07 2023   ", 10, 0},
          {"  write: IOPS=981", 11, 0});
    /* mails without mbox separators, one after another: the next Content-Type header
     * ends the flowing; prose beginning "From " is no separator */
    CHECK("Content-Type: text/plain; format=flowed\n\n"
          "From the mail \nabove\n\n"
          "Content-Type: text/plain\n\n"
          "a \nb\n",
          {"Content-Type: text/plain; format=flowed", 1, 0}, {"", 2, 0}, {"From the mail above", 3, 0},
          {"", 5, 0}, {"Content-Type: text/plain", 6, 0}, {"", 7, 0}, {"a ", 8, 0}, {"b", 9, 0});
    /* so does it end quoted-printable, which a header block says before its
     * Content-Type or after it */
    CHECK("Content-Type: text/plain\nContent-Transfer-Encoding: quoted-printable\n\na=3Db\n\n"
          "Content-Type: text/plain\n\nIOPS=10.9k\n\n"
          "Content-Transfer-Encoding: quoted-printable\nContent-Type: text/plain\n\nc=3Dd\n",
          {"Content-Type: text/plain", 1, 0}, {"Content-Transfer-Encoding: quoted-printable", 2, 0}, {"", 3, 0},
          {"a=b", 4, 0}, {"", 5, 0}, {"Content-Type: text/plain", 6, 0}, {"", 7, 0}, {"IOPS=10.9k", 8, 0},
          {"", 9, 0}, {"Content-Transfer-Encoding: quoted-printable", 10, 0}, {"Content-Type: text/plain", 11, 0},
          {"", 12, 0}, {"c=d", 13, 0});
}

/* Damage found in real documents of the wild corpus. */
static void test_wild_lines(void **state)
{
    static const struct {
        const char *file;
        uint32_t orig;
        const char *text; /* the normalized line starts with this */
        uint16_t flags;
    } cases[] = {
        /* quoted-printable mail: =3D and a soft break inside the date */
        {"linux-mailinglist-archives__linux-raid.vger.kernel.org.0/m__367ccaaf3fb6.eml", 470,
         "socket0: (groupid=0, jobs=64): err= 0: pid=18344: Tue Jul 27 20:00:10 2021", 0},
        /* format=flowed mail: a bw line wrapped by the mail client */
        {"linux-mailinglist-archives__linux-block.vger.kernel.org.0/m__a02c7179e272.eml", 243,
         "    bw (  KiB/s): min=47229, max=516492, per=100.00%, avg=241546.47, stdev=1326.92, samples=57259", 0},
        {"linux-mailinglist-archives__linux-raid.vger.kernel.org.0/m__ad7e65e56124.eml", 234,
         "Raid5: (g=0): rw=randwrite, bs=(R) 4096B-4096B, (W) 4096B-4096B, (T) 4096B-4096B, ioengine=libaio, "
         "iodepth=1",
         FSC_LINE_QUOTED},
        /* a terse record glued onto a truncated progress line */
        {"hikalium__bench/result_2408X01456JF.txt", 14, "3;fio-3.28;Seq1M-Read-Q8;0;0;1048576;87098;85;12039;",
         FSC_LINE_CR},
        /* progress lines overwritten with CR, the line ends in CR: nothing stays */
        {"distributed-system-analysis__pbench/"
         "agent__tool-scripts__postprocess__samples__fio-0__result__reference-result__fio-result.txt",
         3, "", FSC_LINE_CR},
    };
    (void)state;
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        char path[768];
        size_t len;
        snprintf(path, sizeof path, "%s/wild/%s", corpus_dir(), cases[c].file);
        char *d = slurp(path, &len);
        assert_non_null(d);
        fsc_text t;
        assert_int_equal(fsc_normalize(d, len, &t), FSC_OK);
        size_t i = 0;
        while (i < t.n_lines && t.lines[i].orig != cases[c].orig)
            i++;
        assert_true(i < t.n_lines);
        size_t n = strlen(cases[c].text);
        if (t.lines[i].len < n || memcmp(fsc_text_line(&t, i), cases[c].text, n) != 0 ||
            t.lines[i].flags != cases[c].flags || (n == 0 && t.lines[i].len != 0))
            fail_msg("%s:%u: got [%.*s] flags %#x", cases[c].file, cases[c].orig, (int)t.lines[i].len,
                     fsc_text_line(&t, i), t.lines[i].flags);
        fsc_text_free(&t);
        free(d);
    }
}

/* ---- the damaged corpus ---- */

static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    rewind(f);
    char *d = malloc((size_t)n + 1);
    if (d && fread(d, 1, (size_t)n, f) != (size_t)n) {
        free(d);
        d = NULL;
    }
    fclose(f);
    if (d)
        d[n] = 0;
    *len = (size_t)n;
    return d;
}

static const char *corpus_dir(void)
{
    const char *c = getenv("FSC_CORPUS");
    return c ? c : "/work/shared/corpus";
}

static const char *const names[] = {"fsync-slow", "grouped-3j", "libaio-mixed-2j", "null-fast",
                                    "pctlist",    "psync-randread", "two-groups", "uring-seq"};

typedef struct strlist {
    char **v;
    size_t n, cap;
} strlist;

static void push_trimmed(strlist *l, const char *s, size_t n)
{
    while (n && (*s == ' ' || *s == '\t')) {
        s++;
        n--;
    }
    while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r'))
        n--;
    if (!n)
        return;
    char **slot = FSC_PUSH(l->v, l->n, l->cap);
    assert_non_null(slot);
    *slot = strndup(s, n);
}

static void strlist_free(strlist *l)
{
    for (size_t i = 0; i < l->n; i++)
        free(l->v[i]);
    free(l->v);
}

/* Non-empty lines of fio's normal text in an oracle file: the lines before the
 * JSON object and the lines after its closing "}" line. */
static strlist oracle_lines(const char *name)
{
    char path[512];
    size_t len;
    snprintf(path, sizeof path, "%s/fio-3.33-oracle/%s.normal+json.txt", corpus_dir(), name);
    char *d = slurp(path, &len);
    assert_non_null(d);
    strlist l = {0};
    int zone = 0; /* 0 before the JSON, 1 inside, 2 after */
    for (char *p = d, *e; *p; p = e + 1) {
        e = strchr(p, '\n');
        if (!e)
            e = p + strlen(p);
        size_t n = (size_t)(e - p);
        if (zone == 0 && n && p[0] == '{')
            zone = 1;
        else if (zone == 1 && n == 1 && p[0] == '}')
            zone = 2;
        else if (zone != 1)
            push_trimmed(&l, p, n);
        if (!*e)
            break;
    }
    free(d);
    return l;
}

static strlist normalized_lines(const char *name, const char *kind)
{
    char path[512];
    size_t len;
    snprintf(path, sizeof path, "%s/damaged/%s.%s.txt", corpus_dir(), name, kind);
    char *d = slurp(path, &len);
    assert_non_null(d);
    fsc_text t;
    assert_int_equal(fsc_normalize(d, len, &t), FSC_OK);
    strlist l = {0};
    for (size_t i = 0; i < t.n_lines; i++)
        if (!(t.lines[i].flags & FSC_LINE_FENCE))
            push_trimmed(&l, fsc_text_line(&t, i), t.lines[i].len);
    fsc_text_free(&t);
    free(d);
    return l;
}

static void test_damaged_equals_oracle(void **state)
{
    static const char *const kinds[] = {"crlf",         "fenced",       "gutter",      "html_escaped",
                                        "mail_quote",   "progress_junk", "strip_indent"};
    (void)state;
    for (size_t ni = 0; ni < sizeof names / sizeof *names; ni++) {
        strlist want_l = oracle_lines(names[ni]);
        assert_true(want_l.n > 10);
        for (size_t ki = 0; ki < sizeof kinds / sizeof *kinds; ki++) {
            strlist got = normalized_lines(names[ni], kinds[ki]);
            /* the damaged copy adds prose around the fio text: find where it starts */
            size_t at = 0;
            while (at < got.n && strcmp(got.v[at], want_l.v[0]) != 0)
                at++;
            if (at + want_l.n > got.n)
                fail_msg("%s.%s: fio text not found (%zu lines)", names[ni], kinds[ki], got.n);
            for (size_t i = 0; i < want_l.n; i++)
                if (strcmp(got.v[at + i], want_l.v[i]) != 0)
                    fail_msg("%s.%s line %zu: got [%s] want [%s]", names[ni], kinds[ki], i, got.v[at + i],
                             want_l.v[i]);
            strlist_free(&got);
        }
        strlist_free(&want_l);
    }
}

/* The keyword a fio line starts with: its first two words, cut at '=' or a digit. */
static void line_key(const char *s, char *out, size_t cap)
{
    size_t k = 0;
    int words = 0;
    for (; *s && k + 1 < cap; s++) {
        if (*s == '=' || (*s >= '0' && *s <= '9' && k > 0))
            break;
        if (*s == ' ' && (k == 0 || out[k - 1] == ' '))
            continue;
        if (*s == ' ' && ++words == 2)
            break;
        out[k++] = *s;
    }
    out[k] = 0;
}

static size_t lcs_keys(const strlist *a, const strlist *b)
{
    size_t *row = calloc(b->n + 1, sizeof *row), *prev = calloc(b->n + 1, sizeof *prev);
    char ka[64], kb[64];
    assert_non_null(row);
    assert_non_null(prev);
    for (size_t i = 1; i <= a->n; i++) {
        line_key(a->v[i - 1], ka, sizeof ka);
        for (size_t j = 1; j <= b->n; j++) {
            line_key(b->v[j - 1], kb, sizeof kb);
            row[j] = strcmp(ka, kb) == 0 ? prev[j - 1] + 1 : (prev[j] > row[j - 1] ? prev[j] : row[j - 1]);
        }
        memcpy(prev, row, (b->n + 1) * sizeof *row);
    }
    size_t r = prev[b->n];
    free(row);
    free(prev);
    return r;
}

/* A line with runs of spaces collapsed, for comparing modulo indentation/padding. */
static void collapse(const char *s, char *out, size_t cap)
{
    size_t k = 0;
    for (; *s && k + 1 < cap; s++)
        if (*s != ' ' || (k && out[k - 1] != ' '))
            out[k++] = *s;
    while (k && out[k - 1] == ' ')
        k--;
    out[k] = 0;
}

static size_t exact_lines(const strlist *want_l, const strlist *got)
{
    size_t m = 0;
    char a[512], b[512];
    for (size_t i = 0; i < want_l->n; i++) {
        collapse(want_l->v[i], a, sizeof a);
        for (size_t j = 0; j < got->n; j++) {
            collapse(got->v[j], b, sizeof b);
            if (strcmp(a, b) == 0) {
                m++;
                break;
            }
        }
    }
    return m;
}

static void test_wrapped_flat(void **state)
{
    (void)state;
    size_t matched = 0, total = 0, exact = 0;
    for (size_t ni = 0; ni < sizeof names / sizeof *names; ni++) {
        strlist want_l = oracle_lines(names[ni]);
        strlist got = normalized_lines(names[ni], "wrapped_flat");
        size_t m = lcs_keys(&want_l, &got);
        print_message("wrapped_flat %-16s %zu/%zu oracle lines found by keyword, %zu split lines\n",
                      names[ni], m, want_l.n, got.n);
        assert_true(m * 100 >= want_l.n * 90);
        matched += m;
        total += want_l.n;
        exact += exact_lines(&want_l, &got);
        strlist_free(&got);
        strlist_free(&want_l);
    }
    print_message("wrapped_flat overall %zu/%zu = %.1f%%\n", matched, total, 100.0 * (double)matched / (double)total);
    assert_true(matched * 100 >= total * 97); /* measured: 322/322 */
    print_message("wrapped_flat exact lines (modulo spacing) %zu/%zu = %.1f%%\n", exact, total,
                  100.0 * (double)exact / (double)total);
    assert_true(exact * 100 >= total * 94); /* measured: 311/322 */
}

/* Exact lines of one flattened paste: keywords and values broken by the wrap are
 * rejoined ("i oengine", "er r= 0", "(nse c)", "75 0=", "1 =100.0%", "[   30 ]"). */
static void test_wrapped_flat_exact(void **state)
{
    (void)state;
    strlist got = normalized_lines("null-fast", "wrapped_flat");
    static const char *const want_l[] = {
        "nul: (g=0): rw=randread, bs=(R) 4096B-4096B, (W) 4096B-4096B, (T) 4096B-4096B, ioengine=null, iodepth=1",
        "fio-3.33",
        "Starting 1 process",
        "nul: (groupid=0, jobs=1): err= 0: pid=11987: Mon Nov 30 02:47:15 2026",
        "read: IOPS=2301k, BW=8987MiB/s (9424MB/s)(8996MiB/1001msec)",
        "clat (nsec): min=9, max=3609.2k, avg=39.55, stdev=5216.39",
        "lat (nsec): min=30, max=5643.7k, avg=91.54, stdev=10333.61",
        "clat percentiles (nsec):",
        "|  1.00th=[   20],  5.00th=[   20], 10.00th=[   20], 20.00th=[   20],",
        "| 30.00th=[   20], 40.00th=[   20], 50.00th=[   21], 60.00th=[   30],",
        "| 70.00th=[   30], 80.00th=[   30], 90.00th=[   40], 95.00th=[   50],",
        "| 99.00th=[   60], 99.50th=[   60], 99.90th=[   80], 99.95th=[   91],",
        "| 99.99th=[  532]",
        "bw (  MiB/s): min=  8185, max= 8185, per=91.07%, avg=8185.05, stdev= 0.00, samples=1",
        "iops        :  min=2095376, max=2095376, avg=2095376.00, stdev= 0.00, samples=1",
        "lat (nsec)   :  10=0.02%, 20=0.20%, 50=92.96%, 100=6.78%, 250=0.03%",
        "lat (nsec)   : 500=0.01%, 750=0.01%, 1000=0.01%",
        "lat (usec)   : 2=0.01%, 4=0.01%, 10=0.01%, 20=0.01%, 50=0.01%",
        "lat (usec)   : 100=0.01%, 500=0.01%, 750=0.01%",
        "lat (msec)   : 2=0.01%, 4=0.01%",
        "cpu          : usr=62.20%, sys=0.20%, ctx=245, majf=0, minf=10",
        "IO depths    : 1=100.0%, 2=0.0%, 4=0.0%, 8=0.0%, 16=0.0%, 32=0.0%, >=64=0.0%",
        "submit    : 0=0.0%,  4=0.0%, 8=0.0%, 16=0.0%, 32=0.0%, 64=0.0%, >=64=0.0%",
        "complete  : 0=0.0%, 4=0.0%, 8=0.0%, 16=0.0%, 32=0.0%, 64=0.0%, >=64=0.0%",
        "issued rwts: total=2303028,0,0,0  short=0,0,0,0 dropped=0,0,0,0",
        "latency   : target=0, window=0, percentile=100.00%, depth=1",
        "Run status group 0 (all jobs):",
        "READ: bw=8987MiB/s (9424MB/s), 8987MiB/s-8987MiB/s (9424MB/s-9424MB/s), io=8996MiB (9433MB), run=1001-1001msec",
    };
    assert_int_equal(got.n, sizeof want_l / sizeof *want_l);
    for (size_t i = 0; i < sizeof want_l / sizeof *want_l; i++)
        assert_string_equal(got.v[i], want_l[i]);
    strlist_free(&got);
}

/* tests/damage/fixtures: new damage kinds made from oracle texts by mkfixtures.py,
 * each with its expected lines and original line numbers. */
static void test_damage_fixtures(void **state)
{
    static const char *const fixtures[] = {"tabs_nbsp", "ci_timestamps", "qp_mail", "bom_zerowidth", "html_page"};
    const char *src = getenv("FSC_SOURCE_DIR");
    (void)state;
    for (size_t f = 0; f < sizeof fixtures / sizeof *fixtures; f++) {
        char path[512];
        size_t len, elen;
        snprintf(path, sizeof path, "%s/tests/damage/fixtures/%s.in.txt", src ? src : FSC_SOURCE_DIR, fixtures[f]);
        char *in = slurp(path, &len);
        assert_non_null(in);
        snprintf(path, sizeof path, "%s/tests/damage/fixtures/%s.expected.txt", src ? src : FSC_SOURCE_DIR,
                 fixtures[f]);
        char *exp = slurp(path, &elen);
        assert_non_null(exp);
        fsc_text t;
        assert_int_equal(fsc_normalize(in, len, &t), FSC_OK);
        size_t i = 0;
        for (char *p = exp, *e; *p; p = e + 1, i++) {
            e = strchr(p, '\n');
            assert_non_null(e);
            char *tab = strchr(p, '\t');
            assert_true(tab && tab < e);
            unsigned orig = (unsigned)strtoul(p, NULL, 10);
            size_t n = (size_t)(e - tab - 1);
            if (i >= t.n_lines)
                fail_msg("%s: only %zu lines", fixtures[f], t.n_lines);
            if (t.lines[i].orig != orig || t.lines[i].len != n || memcmp(fsc_text_line(&t, i), tab + 1, n) != 0)
                fail_msg("%s line %zu: got %u [%.*s] want %u [%.*s]", fixtures[f], i, t.lines[i].orig,
                         (int)t.lines[i].len, fsc_text_line(&t, i), orig, (int)n, tab + 1);
        }
        assert_int_equal(t.n_lines, i);
        print_message("fixture %-14s %zu lines as expected\n", fixtures[f], i);
        fsc_text_free(&t);
        free(in);
        free(exp);
    }
}

/* Random documents made of the pieces the steps react to: normalization and
 * context collection must keep their invariants (and ASan/UBSan stay quiet). */
static void test_random_documents(void **state)
{
    static const char *const pieces[] = {
        "\n", "\r", "\r\n", " ", "  ", "\t", "=", "=3D", "=\n", "> ", ">>", "<br>", "</p>", "<pre>", "&lt;",
        "&#", "&#x4e2d;", "&amp", "```", "~~~\n", " 1\n", "2\n", "12  ", "[", "]", "[  ", " 30 ]", "(groupid=0, jobs=1): ",
        "nul: (g=0): rw=read", " read: IOPS=1k", " clat (usec): min=1", " | 1.00th=[ 20], ", "Jobs: 1 (f=1)",
        "3;fio-3.28;x;", "fio-3.33 ", "Starting 1 process ", " lat (nsec)   : 2=0.01%, ", "\xe4\xb8\xad",
        "\xff", "\xc2\xa0", "\xe2\x80\x8b", "\xef\xbb\xbf", "# Title\n", "2.3 x\n\n", "**b**\n", "===\n",
        "fio --name=x \\\n", "[global]\nrw=read\n", "Content-Transfer-Encoding: quoted-printable\n",
        "Content-Type: text/plain; format=flowed\n\n", "[12:34:56] ", "2024-01-02T03:04:05Z ", "sa mples=1 ",
        "i oengine", " 75 0=0.01%", "[ 68096]", "B/ s", "(read/write ):", " ... ", "a",
        /* a flattened paste, so that the splitter and its rejoin rules run */
        "x: (g=0): rw=read fio-3.33 S tarting 1 process x: (group id=0, jobs=1): err= 0: pid=1 read: IOPS=1, "
        "BW=1MiB/ s clat (us ec): min=1, avg=8 .5 | 1.00th=[ 1 0], 5.00 th= [ 20 ] , | 9 9.99th=[ 30] bw (  KiB/s) "
        ": min= 8 185 iops        : min= 2 IO depths    : 1 =100.0%, >= 64=0% Run status group 0 (all jobs): RE "
        "AD: bw=1MiB/s ( 2MB/s) Disk stats (read/write ): vda: ios=1/2, in_queue= 4 ["};
    unsigned seed = 12345;
    (void)state;
    for (int iter = 0; iter < 300; iter++) {
        fsc_buf doc = {0};
        size_t parts = 20 + (size_t)(iter % 7) * 40;
        for (size_t k = 0; k < parts; k++) {
            seed = seed * 1103515245u + 12345u;
            fsc_buf_puts(&doc, pieces[(seed >> 16) % (sizeof pieces / sizeof *pieces)]);
        }
        size_t physical = 1;
        for (size_t k = 0; k < doc.len; k++)
            physical += doc.data[k] == '\n';
        fsc_text t;
        assert_int_equal(fsc_normalize(doc.data ? doc.data : "", doc.len, &t), FSC_OK);
        uint32_t prev = 0;
        for (size_t i = 0; i < t.n_lines; i++) {
            assert_int_equal(fsc_text_line(&t, i)[t.lines[i].len], '\n');
            assert_true(t.lines[i].orig >= prev && t.lines[i].orig >= 1 && t.lines[i].orig <= physical);
            prev = t.lines[i].orig;
        }
        for (size_t i = 0; i <= t.n_lines; i += 1 + t.n_lines / 5) {
            fsc_run *run = fsc_run_new();
            assert_non_null(run);
            assert_int_equal(fsc_context_collect(&t, i, run), FSC_OK);
            fsc_job job = {0};
            char jobname[] = "j";
            job.jobname = jobname;
            char *label = fsc_job_label(run, &job, FSC_LABEL_HEADING);
            assert_non_null(label);
            free(label);
            fsc_run_free(run);
        }
        fsc_text_free(&t);
        fsc_buf_free(&doc);
    }
}


/* Prefixes learned per block: a log's stamp, level and source mark; the lines around
 * the keyword lines that fit the template lose it too; the prefix is kept as a tag. */
static void test_prefix_log(void **state)
{
    (void)state;
    enum { P = FSC_LINE_PREFIX };
    CHECK("12:10:43 INFO | START fio\n"
          "12:10:43 DEBUG| [stdout] rr: (groupid=0, jobs=1): err= 0: pid=7\n"
          "12:10:43 DEBUG| [stdout]   read: IOPS=10.9k, BW=42.7MiB/s (44.8MB/s)(42.8MiB/1001msec)\n"
          "12:10:44 DEBUG| [stdout] \n"
          "12:10:44 DEBUG| [stdout] Run status group 0 (all jobs):\n"
          "12:10:45 INFO | END GOOD\n",
          {"12:10:43 INFO | START fio", 1, 0}, {"rr: (groupid=0, jobs=1): err= 0: pid=7", 2, P},
          {"  read: IOPS=10.9k, BW=42.7MiB/s (44.8MB/s)(42.8MiB/1001msec)", 3, P}, {"", 4, P},
          {"Run status group 0 (all jobs):", 5, P}, {"12:10:45 INFO | END GOOD", 6, 0});
}

/* Comment marks, a varying stamp width, quote marks with a trailing comma; a job
 * name is never taken for a prefix, nor a client's host, nor "1 - READ:". */
static void test_prefix_shapes(void **state)
{
    (void)state;
    enum { P = FSC_LINE_PREFIX };
    CHECK("# rr: (g=0): rw=read, bs=(R) 4096B-4096B, (W) 4096B-4096B, (T) 4096B-4096B, ioengine=psync, iodepth=1\n"
          "#\n"
          "#   read: IOPS=1, BW=4KiB/s (4kB/s)(4KiB/1001msec)\n"
          "# Run status group 0 (all jobs):\n",
          {"rr: (g=0): rw=read, bs=(R) 4096B-4096B, (W) 4096B-4096B, (T) 4096B-4096B, ioengine=psync, iodepth=1", 1, P},
          {"", 2, P}, {"  read: IOPS=1, BW=4KiB/s (4kB/s)(4KiB/1001msec)", 3, P}, {"Run status group 0 (all jobs):", 4, P});
    CHECK("[    9.123456]   read: IOPS=1, BW=4KiB/s (4kB/s)(4KiB/1001msec)\n"
          "[   10.000001]     clat (usec): min=1, max=2, avg=1.50, stdev=0.50\n",
          {"  read: IOPS=1, BW=4KiB/s (4kB/s)(4KiB/1001msec)", 1, P}, {"    clat (usec): min=1, max=2, avg=1.50, stdev=0.50", 2, P});
    CHECK("    \"  read: IOPS=1, BW=4KiB/s (4kB/s)(4KiB/1001msec)\",\n"
          "    \"Run status group 0 (all jobs):\",\n",
          {"  read: IOPS=1, BW=4KiB/s (4kB/s)(4KiB/1001msec)", 1, P}, {"Run status group 0 (all jobs):", 2, P});
    CHECK("<vm>   read: IOPS=1, BW=4KiB/s (4kB/s)(4KiB/1001msec)\n"
          "1 - READ: io=21981MB, aggrb=187558KB/s, minb=187558KB/s, maxb=187558KB/s, mint=120008msec, maxt=120008msec\n",
          {"<vm>   read: IOPS=1, BW=4KiB/s (4kB/s)(4KiB/1001msec)", 1, 0},
          {"1 - READ: io=21981MB, aggrb=187558KB/s, minb=187558KB/s, maxb=187558KB/s, mint=120008msec, maxt=120008msec", 2, 0});
}

/* grep output: each line its own prefix, kept as the line's tag. */
static void test_prefix_tags(void **state)
{
    (void)state;
    static const char in[] = "a.log:  read: IOPS=1, BW=4KiB/s (4kB/s)(4KiB/1001msec)\n"
                             "b.log:  read: IOPS=2, BW=8KiB/s (8kB/s)(8KiB/1001msec)\n";
    fsc_text t;
    assert_int_equal(fsc_normalize(in, sizeof in - 1, &t), FSC_OK);
    assert_int_equal(t.n_lines, 2);
    size_t n;
    const char *tag = fsc_text_tag(&t, 0, &n);
    assert_non_null(tag);
    assert_int_equal(n, 6);
    assert_memory_equal(tag, "a.log:", 6);
    tag = fsc_text_tag(&t, 1, &n);
    assert_memory_equal(tag, "b.log:", 6);
    assert_true(t.lines[1].flags & FSC_LINE_PREFIX);
    fsc_text_free(&t);
}

/* Markup around the tokens of fio lines goes; a bold heading and an underscore
 * inside a word stay. */
static void test_markup(void **state)
{
    (void)state;
    enum { M = FSC_LINE_MARKUP };
    CHECK("**Results**\n"
          "  write: **IOPS=6391**, BW=`25.0MiB/s` (26.2MB/s)(25.0MiB/1001msec)\n"
          "  <b>cpu</b>          : usr=3.20%, sys=25.90%, ctx=4321, majf=0, minf=13\n"
          "  vda: ios=22676/9828, merge=0/0, ticks=3343/1434, _in_queue=4802_, util=60.14%\n"
          "  vdb: ios=1/2, merge=0/0, ticks=3/4, in_queue=5, util=6.00%\n",
          {"**Results**", 1, 0}, {"  write: IOPS=6391, BW=25.0MiB/s (26.2MB/s)(25.0MiB/1001msec)", 2, M},
          {"  cpu          : usr=3.20%, sys=25.90%, ctx=4321, majf=0, minf=13", 3, M},
          {"  vda: ios=22676/9828, merge=0/0, ticks=3343/1434, in_queue=4802, util=60.14%", 4, M},
          {"  vdb: ios=1/2, merge=0/0, ticks=3/4, in_queue=5, util=6.00%", 5, 0});
}

/* Spans of JSON documents in one pass; a cut-off document repaired with notes. */
static void test_json_spans_and_repair(void **state)
{
    (void)state;
    static const char in[] = "{\n"
                             "{ \"fio version\" : \"fio-3.33\", \"jobs\" : [ ] }\n"
                             "text\n"
                             "{\n"
                             "  \"fio version\" : \"fio-3.33\",\n"
                             "  \"jobs\" : [\n"
                             "    {\n"
                             "      \"jobname\" : \"rr\",\n"
                             "      ...\n"
                             "      \"read\" : {\n"
                             "        \"io_bytes\" : 1234,\n"
                             "        \"bw_bytes\" : 56";
    fsc_text t;
    assert_int_equal(fsc_normalize(in, sizeof in - 1, &t), FSC_OK);
    fsc_json_span *sp;
    size_t n;
    assert_int_equal(fsc_json_spans_find(&t, &sp, &n), FSC_OK);
    assert_int_equal(n, 4); /* lines 0 and 3 never close; 1 does; 6 ("    {") never */
    assert_int_equal(sp[0].first, 0);
    assert_false(sp[0].balanced);
    assert_int_equal(sp[1].first, 1);
    assert_true(sp[1].balanced && sp[1].fio_keys);
    assert_int_equal(sp[1].last, 1);
    assert_int_equal(sp[2].first, 3);
    assert_false(sp[2].balanced);
    free(sp);
    fsc_buf out = {0}, notes = {0};
    size_t last;
    assert_int_equal(fsc_json_repair(&t, 3, &last, &out, &notes), FSC_OK);
    assert_int_equal(last, 11);
    /* the cut value ("56", maybe more) is left out; what is whole stays */
    assert_string_equal(out.data,
                        "{\"fio version\":\"fio-3.33\",\"jobs\":[{\"jobname\":\"rr\",\"read\":{\"io_bytes\":1234}}]}");
    assert_non_null(strstr(notes.data, "9\tJSON document: lines left out ('...') in jobs[0]"));
    assert_non_null(strstr(notes.data, "12\tJSON document: cut off in jobs[0].read.bw_bytes"));
    fsc_buf_free(&out);
    fsc_buf_free(&notes);
    fsc_text_free(&t);
}

/* Terminal controls: each kind taken out, what only looks like one kept. */
static void strip_is(const char *in, const char *expect)
{
    fsc_buf b = {0};
    size_t n = strlen(in);
    bool marked = fsc_term_marks(in, n, true);
    fsc_term_strip(in, n, true, &b);
    if (b.len != strlen(expect) || memcmp(b.data ? b.data : "", expect, b.len) != 0)
        fail_msg("strip [%s]: got [%.*s], want [%s]", in, (int)b.len, b.data ? b.data : "", expect);
    /* marked exactly when something changes */
    assert_int_equal(marked, strcmp(in, expect) != 0);
    fsc_buf_free(&b);
}

static void test_terminal_controls(void **state)
{
    (void)state;
    /* ECMA-48 sequences: colours, erase, cursor, private modes, charset, OSC */
    strip_is("\x1b[32m  read: IOPS=18.2k\x1b[0m", "  read: IOPS=18.2k");
    strip_is("\x1b[1;38;5;208mx\x1b[m", "x");
    strip_is("\x1b[0Ksection", "section");
    strip_is("a\x1b[2K\x1b[1Ab", "ab");
    strip_is("\x1b[?2004huser$ ls", "user$ ls");
    strip_is("\x1b(Bplain\x1b)0", "plain");
    strip_is("\x1b" "7saved\x1b" "8", "saved");
    strip_is("\x1b]0;user@host: ~\x07prompt", "prompt");
    strip_is("\x1b]8;;https://example.org\x1b\\link\x1b]8;;\x1b\\", "link");
    strip_is("cut off \x1b]0;title", "cut off ");
    strip_is("lone at the end\x1b", "lone at the end");
    strip_is("half \x1b[12", "half ");
    strip_is("bell\x07", "bell");
    /* backspaces take back a character (UTF-8 whole), overstrike keeps the last */
    strip_is("fio --nmae\b\b\bame=x", "fio --name=x");
    strip_is("r\bre\bea\bad\bd", "read");
    strip_is("\xc2\xb5\bu", "u");
    strip_is("x\x1b[1m[0KB]", "x[0KB]"); /* the raw code goes, the mdstat text stays */
    strip_is("\b\bx", "x");
    /* visible forms of ESC, only before a whole sequence */
    strip_is("^[[1;32m  write: IOPS=1^[[0m", "  write: IOPS=1");
    strip_is("^[]0;title^[\\text", "text");
    strip_is("grep '^[[:digit:]]' f", "grep '^[[:digit:]]' f");
    strip_is("grep '^[0-9]' f", "grep '^[0-9]' f");
    strip_is("\xe2\x90\x9b[33mlat\xe2\x90\x9b[0m", "lat");
    strip_is("\xef\xbf\xbd[31merr\xef\xbf\xbd[0m", "err");
    strip_is("\xef\xbf\xbd is a replacement", "\xef\xbf\xbd is a replacement");
    /* a lost ESC's remains: a digit first, then 'm' or 'K'; never a value */
    strip_is("[32m  read: IOPS=2[0m", "  read: IOPS=2");
    strip_is("[1;36mfio[0;m", "fio");
    strip_is("[32mfio-3.33[0m", "fio-3.33");
    strip_is("[32mfio-3.33", "[32mfio-3.33"); /* no code alone: "[32mfio" could be text */
    strip_is("bitmap: 0/112 pages [0KB], 65536KB chunk", "bitmap: 0/112 pages [0KB], 65536KB chunk");
    strip_is("Jobs: 1 (f=1): [W(1)] [100.0% done] [0KB/20008KB/0KB /s] [0/5002/0 iops]",
             "Jobs: 1 (f=1): [W(1)] [100.0% done] [0KB/20008KB/0KB /s] [0/5002/0 iops]");
    strip_is("took [10ms] and [2min]", "took [10ms] and [2min]");
    strip_is("     | 99.00th=[ 4047], 99.50th=[5735]", "     | 99.00th=[ 4047], 99.50th=[5735]");
    strip_is("|  1.00th=[1m]", "|  1.00th=[1m]");
    strip_is("[2024-05-01 12:00:00] x", "[2024-05-01 12:00:00] x");
    /* an escaped ESC (a JSON string's, a shell's, a C source's) and its code are data */
    strip_is("\"jobname\" : \"\\u001b[31mred\\u001b[0m job\"", "\"jobname\" : \"\\u001b[31mred\\u001b[0m job\"");
    strip_is("echo -e '\\e[1mbold\\033[0m'", "echo -e '\\e[1mbold\\033[0m'");
    strip_is("Jobs: 1 (f=1): [R(1)][50.0%][r=100MiB/s][eta 00m:01s]",
             "Jobs: 1 (f=1): [R(1)][50.0%][r=100MiB/s][eta 00m:01s]");
    strip_is("[global]", "[global]");
    strip_is("see [1]", "see [1]");
    /* a line full of would-be string starts stays as it is (and linear) */
    strip_is("^[]^[]^[]a", "^[]^[]^[]a");
    assert_int_equal(fsc_term_lead("\x1b[0K\x1b[32;1m$ fio", 16), 11);
    assert_int_equal(fsc_term_lead("[32m  read:", 11), 4);
    assert_int_equal(fsc_term_lead("  read:", 7), 0);
    /* where a JSON log line's text begins, for the cutter */
    assert_int_equal(fsc_jsonlog_lead("{\"log\":\"fio-3.33\\n\"}", 20), 8);
    assert_int_equal(fsc_jsonlog_lead("{\"t\": 1, \"message\" : \"x\"}", 26), 22);
    assert_int_equal(fsc_jsonlog_lead("{\"log\": 3}", 10), 0);
    assert_int_equal(fsc_jsonlog_lead("x {\"log\":\"a\"}", 14), 0);
    /* in a document: the codes go, the line is flagged, its number kept */
    CHECK("\x1b[32;1m$ fio --name=x\x1b[0;m\n\x1b[0Kfio-3.33\n", {"$ fio --name=x", 1, FSC_LINE_TERM},
          {"fio-3.33", 2, FSC_LINE_TERM});
    /* in a JSON document only the raw controls go (jq -C's colours), not its text */
    CHECK("{\"jobname\": \"\x1b[1m[32m\x1b[0m\"}\n", {"{\"jobname\": \"[32m\"}", 1, FSC_LINE_TERM});
    /* JSON log lines (jsonlog.c): the string's lines, with the physical line's number */
    CHECK("{\"log\":\"  read: IOPS=1\\n\",\"stream\":\"stdout\",\"time\":\"2024-05-01T12:00:00Z\"}\n"
          "{\"log\":\"\\u001b[32mfio-3.33\\u001b[0m\\n\",\"stream\":\"stdout\"}\n{\"log\":\"\\n\"}\n",
          {"  read: IOPS=1", 1, FSC_LINE_JSONLOG}, {"fio-3.33", 2, FSC_LINE_JSONLOG | FSC_LINE_TERM},
          {"", 3, FSC_LINE_JSONLOG});
    CHECK("changed: [h1] => {\"rc\": 0, \"stdout\": \"fio-3.33\\nStarting 1 process\", \"stdout_lines\": [\"x\"]}\n",
          {"fio-3.33", 1, FSC_LINE_JSONLOG}, {"Starting 1 process", 1, FSC_LINE_JSONLOG});
    /* not a log's: fio's own JSON on one line, a text member that is no string, no object */
    CHECK("{\"fio version\": \"fio-3.33\", \"jobs\": [], \"log\": \"x\"}\n",
          {"{\"fio version\": \"fio-3.33\", \"jobs\": [], \"log\": \"x\"}", 1, 0});
    CHECK("{\"log\": 3}\n", {"{\"log\": 3}", 1, 0});
    CHECK("{\"log\": \"x\"\n", {"{\"log\": \"x\"", 1, 0});
    /* quoted-printable: an encoder writes ESC as =1B */
    CHECK("Content-Transfer-Encoding: quoted-printable\n\n=1B[32m  read: IOPS=3D1=1B[0m\n",
          {"Content-Transfer-Encoding: quoted-printable", 1, 0}, {"", 2, 0}, {"  read: IOPS=1", 3, FSC_LINE_TERM});
    CHECK("2024-05-01T12:00:00.1234567Z \x1b[36;1mfio --name=x\x1b[0m\n",
          {"fio --name=x", 1, FSC_LINE_TERM | FSC_LINE_STAMP});
}

/* A line that holds output as a string literal (strlit.c): its strings' lines */
static void test_string_literals(void **state)
{
    (void)state;
    enum { S = FSC_LINE_STRLIT };
    /* IPython: bytes, with its escapes ("\xc2\xb5" is UTF-8's µ, \' an apostrophe) */
    CHECK("In [2]: p.stdout\nb'fio-3.33\\nStarting 1 process\\n  read: IOPS=1k\\n    clat (\\xc2\\xb5s): min=1\\n'\n",
          {"In [2]: p.stdout", 1, 0}, {"fio-3.33", 2, S}, {"Starting 1 process", 2, S}, {"  read: IOPS=1k", 2, S},
          {"    clat (\xc2\xb5s): min=1", 2, S});
    /* a caption before it; CRLF inside; JSON's \u escapes with a surrogate pair */
    CHECK("INFO:bench:fio said: 'fio-3.33\\r\\n  read: IOPS=1k\\r\\n\\ud83d\\ude00 \\u00b5'\n",
          {"INFO:bench:fio said:", 1, S}, {"fio-3.33", 1, S}, {"  read: IOPS=1k", 1, S},
          {"\xf0\x9f\x98\x80 \xc2\xb5", 1, S});
    /* a dict: the command beside the output is taken too, the list repeating the
     * output is not; strings without a newline are left */
    CHECK("ok: [h] => (item={'cmd': 'cd /b\\nfio --name=x\\n', 'stdout': 'fio-3.33\\nStarting 1 process\\n"
          "  read: IOPS=1k', 'rc': 0, 'stdout_lines': ['fio-3.33', 'Starting 1 process', '  read: IOPS=1k']})\n",
          {"ok: [h] => (item={'cmd':", 1, S}, {"cd /b", 1, S}, {"fio --name=x", 1, S}, {"fio-3.33", 1, S},
          {"Starting 1 process", 1, S}, {"  read: IOPS=1k", 1, S});
    /* Go's %q in logfmt; ESC written as an escape is a terminal's code */
    CHECK("level=info output=\"\\x1b[32mfio-3.33\\x1b[0m\\n  write: IOPS=2\\n\" rc=0\n", {"level=info output=", 1, S},
          {"fio-3.33", 1, S | FSC_LINE_TERM}, {"  write: IOPS=2", 1, S});
    /* a pretty JSON result: the member's string (in a JSON document, a log's text) */
    CHECK("{\n  \"stdout\": \"fio-3.33\\nStarting 1 process\\n  read: IOPS=1k\",\n  \"rc\": 0\n}\n", {"{", 1, 0},
          {"  \"stdout\":", 2, S}, {"fio-3.33", 2, S}, {"Starting 1 process", 2, S}, {"  read: IOPS=1k", 2, S},
          {"  \"rc\": 0", 3, 0}, {"}", 4, 0});
    /* a Python list of the lines; a string holding an apostrophe is in quotes */
    CHECK("['fio-3.33', \"it's\", '  read: IOPS=1k\\n', '']\n", {"fio-3.33", 1, S}, {"it's", 1, S},
          {"  read: IOPS=1k", 1, S}, {"", 1, S});
    /* a string the line cut short reads to the line's end */
    CHECK("out: 'fio-3.33\\nStarting 1 process\\n  read: IOPS=1\n", {"out:", 1, S}, {"fio-3.33", 1, S},
          {"Starting 1 process", 1, S}, {"  read: IOPS=1", 1, S});
    /* not output: one newline escape, no line of fio's, a list of two, apostrophes
     * in words, an escaped backslash before 'n', a JSON list */
    CHECK("printf(\"%d\\n\", x);\n", {"printf(\"%d\\n\", x);", 1, 0});
    CHECK("s = 'a\\nb\\nc'\n", {"s = 'a\\nb\\nc'", 1, 0});
    CHECK("['fio-3.33', 'Starting 1 process']\n", {"['fio-3.33', 'Starting 1 process']", 1, 0});
    CHECK("it's 'fio-3.33\\\\nStarting 1 process\\\\n'\n", {"it's 'fio-3.33\\\\nStarting 1 process\\\\n'", 1, 0});
    CHECK("[\"fio-3.33\", \"Starting 1 process\", \"x\"]\n", {"[\"fio-3.33\", \"Starting 1 process\", \"x\"]", 1, 0});
    /* unknown and cut-off escapes stay as they stand */
    CHECK("'fio-3.33\\n  read: IOPS=1k\\n\\q\\x4\\u12\\'\n", {"fio-3.33", 1, S}, {"  read: IOPS=1k", 1, S},
          {"\\q\\x4\\u12'", 1, S});
    /* on a web page the quotes are entities; the others and the tags stay for step 2 */
    CHECK("<pre>b&#39;fio-3.33\\n  read: IOPS=1k\\n  IO depths    : 1=0.1%, &gt;=64=99.9%\\n&#39;</pre>\n",
          {"", 1, S | FSC_LINE_ENTITY}, {"fio-3.33", 1, S}, {"  read: IOPS=1k", 1, S},
          {"  IO depths    : 1=0.1%, >=64=99.9%", 1, S | FSC_LINE_ENTITY});
    /* a string a wrap broke over lines: joined first (a word wrap's lost space put
     * back; lines of one length cut hard, as they are), its lines with the first
     * line's number */
    CHECK("x\nout: b'fio-3.33\\nStarting 1\nprocess\\n  read: IOPS=1k\\n\n  write: IOPS=2\\n'\ny\n", {"x", 1, 0},
          {"out:", 2, S}, {"fio-3.33", 2, S}, {"Starting 1 process", 2, S}, {"  read: IOPS=1k", 2, S},
          {"  write: IOPS=2", 2, S}, {"y", 5, 0});
    CHECK("out: b'fio-3\n.33\\nStartin\ng 1 process\\\nn  read: IOP\nS=1k\\n'\n", {"out:", 1, S}, {"fio-3.33", 1, S},
          {"Starting 1 process", 1, S}, {"  read: IOPS=1k", 1, S});
    /* a quote that opens no string: the lines go on as they are, when it closes and
     * when it does not */
    CHECK("the 'fast\npath' is \\n\nfio-3.33\n", {"the 'fast", 1, 0}, {"path' is \\n", 2, 0}, {"fio-3.33", 3, 0});
    CHECK("x \\n 'open\nfio-3.33\n", {"x \\n 'open", 1, 0}, {"fio-3.33", 2, 0});
    /* for the cutter: where the first string's text begins, and its last line */
#define LIT_LEAD(x) fsc_strlit_lead(x, strlen(x))
#define LIT_TAIL(x) fsc_strlit_tail(x, strlen(x))
    assert_int_equal(LIT_LEAD("INFO out: b'a: (g=0)\\n  sda: ios=1\\n'"), 12);
    assert_int_equal(LIT_TAIL("INFO out: b'a: (g=0)\\n  sda: ios=1\\n'"), 22);
    assert_int_equal(LIT_TAIL("{'cmd': 'x\\ny', 'stdout': 'a\\nb\\nc', 'rc': 0}"), 33);
    assert_int_equal(LIT_LEAD("it's 'a\\nb'"), 6);
    assert_int_equal(LIT_LEAD("  read: IOPS=1"), 0);
    assert_int_equal(LIT_LEAD("'no newline' \\n"), 0);
    /* a Jupyter notebook's output: a JSON list of the lines, a string a line, each
     * ending in its newline escape; strings without one (the cell's source) stay */
    CHECK("     \"text\": [\n      \"fio-3.33\\n\",\n      \"  read: IOPS=1k, BW=4MiB/s\\n\",\n"
          "      \"   bw (  KiB/s): min=1\\n\"\n     ]\n   \"source\": [\"!fio --name=x\"]\n",
          {"     \"text\": [", 1, 0}, {"fio-3.33", 2, S}, {"  read: IOPS=1k, BW=4MiB/s", 3, S},
          {"   bw (  KiB/s): min=1", 4, S}, {"     ]", 5, 0}, {"   \"source\": [\"!fio --name=x\"]", 6, 0});
    /* a Docker log of a program that printed a literal: both undone */
    CHECK("{\"log\":\"b'fio-3.33\\\\nStarting 1 process\\\\n  read: IOPS=1k\\\\n'\\n\",\"stream\":\"stdout\"}\n",
          {"fio-3.33", 1, S | FSC_LINE_JSONLOG}, {"Starting 1 process", 1, S | FSC_LINE_JSONLOG},
          {"  read: IOPS=1k", 1, S | FSC_LINE_JSONLOG});
}

/* Typography a blog engine or an editor set (typography.c): undone in a JSON
 * document's keys, a fio command, fio's "..." and the (R) of a job header; prose
 * keeps its own */
static void test_typography(void **state)
{
    (void)state;
#define LQ "\xe2\x80\x9c" /* “ */
#define RQ "\xe2\x80\x9d" /* ” */
#define DP "\xe2\x80\xb3" /* ″ */
#define EN "\xe2\x80\x93" /* – */
#define EM "\xe2\x80\x94" /* — */
    /* JSON: curly quotes, a prime after a digit (wptexturize), a flattened document */
    CHECK("{\n  " LQ "jobs" RQ " : [\n    " LQ "iodepth" RQ " : " LQ "1" DP ",\n",
          {"{", 1, 0}, {"  \"jobs\" : [", 2, 0}, {"    \"iodepth\" : \"1\",", 3, 0});
    CHECK("{ " LQ "fio version" RQ " : " LQ "fio-3.33" RQ ", " LQ "jobs" RQ " : [] }\n",
          {"{ \"fio version\" : \"fio-3.33\", \"jobs\" : [] }", 1, 0});
    /* German and French quotes (French typography's no-break spaces inside them) */
    CHECK("  \xe2\x80\x9ejobs\xe2\x80\x9c : [\n  \xc2\xab\xc2\xa0rw\xc2\xa0\xc2\xbb : \xc2\xab\xc2\xa0read\xc2\xa0\xc2\xbb,\n"
          "\xc2\xab\xc2\xa0vite\xc2\xa0\xc2\xbb, dit-il\n",
          {"  \"jobs\" : [", 1, 0}, {"  \"rw\" : \"read\",", 2, 0}, {"\xc2\xab vite \xc2\xbb, dit-il", 3, 0});
    /* a fio command: dashes for "--", quotes; with a prompt, sudo, a path */
    CHECK("$ sudo fio " EN "name=x " EM "rw=randread " EN "filename=" LQ "/dev/sdb" RQ " \xe2\x80\x98" "a\xe2\x80\x99\n",
          {"$ sudo fio --name=x --rw=randread --filename=\"/dev/sdb\" 'a'", 1, 0});
    CHECK("/usr/bin/fio " EN "bs=4k\n", {"/usr/bin/fio --bs=4k", 1, 0});
    /* fio's "..." under a job; the (R) of fio 3's job header */
    CHECK("x: (g=0): rw=read, bs=\xc2\xae 4096B-4096B, (W) 4096B-4096B\n   \xe2\x80\xa6\n",
          {"x: (g=0): rw=read, bs=(R) 4096B-4096B, (W) 4096B-4096B", 1, 0}, {"   ...", 2, 0});
    /* prose keeps its typography: a dash between words, quotes before a colon, an
     * ellipsis in a sentence, a brand's sign; JSON's own quotes keep a string's */
    CHECK("fio " EN " the tester\n" LQ "fast" RQ ": yes\nwait" "\xe2\x80\xa6\nIntel\xc2\xae SSD\n",
          {"fio " EN " the tester", 1, 0}, {LQ "fast" RQ ": yes", 2, 0}, {"wait\xe2\x80\xa6", 3, 0},
          {"Intel\xc2\xae SSD", 4, 0});
    CHECK("{\n  \"jobname\" : \"a " LQ "b" RQ "\",\n  \"cmd\" : \"fio " EN "x\"\n}\n", {"{", 1, 0},
          {"  \"jobname\" : \"a " LQ "b" RQ "\",", 2, 0}, {"  \"cmd\" : \"fio " EN "x\"", 3, 0}, {"}", 4, 0});
#undef LQ
#undef RQ
#undef DP
#undef EN
#undef EM
}

/* A converter's Markdown (pandoc, turndown, Reddit's editor): backslash escapes of
 * ASCII punctuation undone, a hard break's backslash at the line's end dropped; not
 * in a text with fewer than three escaped bracket pairs */
static void test_markdown_escapes(void **state)
{
    (void)state;
    CHECK("rand\\_read: (groupid=0, jobs=1): err= 0\\\n"
          "     \\| 1.00th=\\[   35\\], 5.00th=\\[   38\\],\\\n"
          "     \\| 10.00th=\\[   39\\], 20.00th=\\[   41\\]\\\n"
          "  IO depths    : 1=100.0%, \\>=64=0.0%\n"
          "  dir=C:\\\\fio\n",
          {"rand_read: (groupid=0, jobs=1): err= 0", 1, FSC_LINE_MARKUP},
          {"     | 1.00th=[   35], 5.00th=[   38],", 2, FSC_LINE_MARKUP},
          {"     | 10.00th=[   39], 20.00th=[   41]", 3, FSC_LINE_MARKUP},
          {"  IO depths    : 1=100.0%, >=64=0.0%", 4, FSC_LINE_MARKUP}, {"  dir=C:\\fio", 5, FSC_LINE_MARKUP});
    /* one escaped pair: a regex in a script, left */
    CHECK("grep '\\[x\\]' log \\\n  --color=never\n", {"grep '\\[x\\]' log \\", 1, 0}, {"  --color=never", 2, 0});
}

/* A log exported as CSV (csvlog.c): the text column's lines, quote pairs made one;
 * fields that needed no quotes came bare; the header row is no line. */
static void test_csv_logs(void **state)
{
    (void)state;
    const uint16_t S = FSC_LINE_STRLIT;
    CHECK("time,host,message\n"
          "2024-03-01 10:00:00,node1,\"  read: IOPS=35.2k, BW=137MiB/s (144MB/s)\"\n"
          "2024-03-01 10:00:01,node1,    clat percentiles (usec):\n"
          "2024-03-01 10:00:02,node1,{\n"
          "2024-03-01 10:00:03,node1,\"  \"\"jobname\"\" : \"\"rand, read\"\",\"\n"
          "2024-03-01 10:00:04,node1,\"  \"\"desc\"\" : \"\"\"\"\"\n",
          {"  read: IOPS=35.2k, BW=137MiB/s (144MB/s)", 2, S}, {"    clat percentiles (usec):", 3, S}, {"{", 4, S},
          {"  \"jobname\" : \"rand, read\",", 5, S}, {"  \"desc\" : \"\"", 6, S});
    /* a run in one cell, records ended by CRLF (Excel's), prose around the table and
     * a row of another shape: those lines stay as they are */
    CHECK("Our export:\n"
          "run;host;output\r\n"
          "1;node1;\"fio-3.33\nStarting 1 process\n  read: IOPS=1, BW=4KiB/s\n\n\"\"x\"\";1\"\r\n"
          "2;node2;\"  write: IOPS=2; BW=8KiB/s\"\r\n"
          "Cheers\n",
          {"Our export:", 1, 0}, {"fio-3.33", 3, S}, {"Starting 1 process", 4, S},
          {"  read: IOPS=1, BW=4KiB/s", 5, S}, {"", 6, S}, {"\"x\";1", 7, S},
          {"  write: IOPS=2; BW=8KiB/s", 8, S | FSC_LINE_CR}, {"Cheers", 9, 0});
    /* fio's own lines with commas and its terse records: no CSV, however regular */
    CHECK("  read : io=1MB, bw=2KB/s, iops=3\n  write: io=1MB, bw=2KB/s, iops=3\n  \"a\", b, c\n",
          {"  read : io=1MB, bw=2KB/s, iops=3", 1, 0}, {"  write: io=1MB, bw=2KB/s, iops=3", 2, 0},
          {"  \"a\", b, c", 3, 0});
    /* quoted rows among prose that no CSV shape holds: the learned prefix ends with a
     * quote mark, and the pairs in the text between it and the closing one are made
     * one (prefix.c) */
    CHECK("We ran it, twice.\nOne, two, three.\nA, b, c, d.\nSee:\nok\n"
          "node1,\"  read: IOPS=1, BW=4KiB/s\"\n"
          "node1,\"  \"\"jobname\"\" : \"\"x\"\",\"\n"
          "node1,\"  write: IOPS=2, BW=8KiB/s\"\n",
          {"We ran it, twice.", 1, 0}, {"One, two, three.", 2, 0}, {"A, b, c, d.", 3, 0}, {"See:", 4, 0}, {"ok", 5, 0},
          {" read: IOPS=1, BW=4KiB/s", 6, FSC_LINE_PREFIX}, {" \"jobname\" : \"x\",", 7, FSC_LINE_PREFIX},
          {" write: IOPS=2, BW=8KiB/s", 8, FSC_LINE_PREFIX});
}

/* A PDF's text (pages.c): the form feeds, the running header and the page numbers
 * around them go; fio's lines near a break stay, even where they repeat. */
static void test_page_breaks(void **state)
{
    (void)state;
    CHECK("{\n  \"jobs\" : [\n    {\n      \"jobname\" : \"a\",\n      \"groupid\" : 0,\n      \"error\" : 0,\n"
          "      \"eta\" : 0,\n      \"elapsed\" : 3,\n    Page 1 of 3\n\fStorage report 2024\n"
          "      \"read\" : {\n        \"io_bytes\" : 1,\n        \"bw\" : 2,\n        \"iops\" : 3,\n"
          "        \"runtime\" : 4,\n        \"total_ios\" : 5,\n        \"short_ios\" : 0,\n"
          "    Page 2 of 3\n\fStorage report 2024\n"
          "        \"drop_ios\" : 0\n      }\n    }\n  ]\n}\n",
          {"{", 1, 0}, {"  \"jobs\" : [", 2, 0}, {"    {", 3, 0}, {"      \"jobname\" : \"a\",", 4, 0},
          {"      \"groupid\" : 0,", 5, 0}, {"      \"error\" : 0,", 6, 0}, {"      \"eta\" : 0,", 7, 0},
          {"      \"elapsed\" : 3,", 8, 0}, {"      \"read\" : {", 11, 0}, {"        \"io_bytes\" : 1,", 12, 0},
          {"        \"bw\" : 2,", 13, 0}, {"        \"iops\" : 3,", 14, 0}, {"        \"runtime\" : 4,", 15, 0},
          {"        \"total_ios\" : 5,", 16, 0}, {"        \"short_ios\" : 0,", 17, 0},
          {"        \"drop_ios\" : 0", 20, 0}, {"      }", 21, 0}, {"    }", 22, 0}, {"  ]", 23, 0}, {"}", 24, 0});
    /* one break: a page number goes, a line that comes back no more stays */
    CHECK("Intro\n- 1 -\n\fChapter two\ntext\n", {"Intro", 1, 0}, {"Chapter two", 3, 0}, {"text", 4, 0});
    /* form feeds a line apart (binary junk, clear-screen codes): no pages, the feeds
     * alone go, and fio's banner is never a running header */
    CHECK("x 1\n\fx 2\n\ffio-3.33\n\fx 3\n\f\n", {"x 1", 1, 0}, {"x 2", 2, 0}, {"fio-3.33", 3, 0}, {"x 3", 4, 0});
}

/* A Markdown table whose cell holds a run's lines broken by <br>: the cell's lines,
 * without the row's other cells; a percentile row with <br> after it is no table. */
static void test_markdown_table_cell(void **state)
{
    (void)state;
    const uint16_t E = FSC_LINE_ENTITY;
    CHECK("| node1 | rr: (g=0): rw=randread, bs=4K<br>fio-2.0.15<br>     \\| 99.99th=[ 3632] |\n"
          "     |  1.00th=[    1],  5.00th=[    2],<br>\n",
          {"rr: (g=0): rw=randread, bs=4K", 1, E | FSC_LINE_INDENT}, {"fio-2.0.15", 1, E},
          {"| 99.99th=[ 3632] ", 1, E | FSC_LINE_PREFIX},
          {"     |  1.00th=[    1],  5.00th=[    2],", 2, E});
}

/* Lines a mail client joined (Outlook's "extra line breaks removed"): fio's lines on
 * one, each after its own indentation, or a JSON document after the text above it,
 * are cut apart again (in a line of 240 bytes or more: a shorter one the pre-scan
 * takes as it stands); prose with one space before a word is not. */
static void test_joined_lines(void **state)
{
    (void)state;
    const uint16_t S = FSC_LINE_SPLIT;
#define G "bw=1255MiB/s (1316MB/s), 1255MiB/s-1255MiB/s (1316MB/s-1316MB/s), io=2512MiB (2634MB), run=2001-2001msec"
    CHECK("   READ: " G "  WRITE: " G "   TRIM: " G "\n"
          "Starting 1 process rr: Laying out IO file(s) (1 file(s) / 64MiB) {   \"fio version\" : \"fio-3.33\",   "
          "\"timestamp\" : 1796007457,   \"timestamp_ms\" : 1796007457742,   \"time\" : \"Mon Nov 30 02:57:37 2026\",   "
          "\"global options\" : { \"ioengine\" : \"libaio\" } }\n"
          "We compared the READ: numbers of both runs with the WRITE: numbers of the first, and the TRIM: ones; "
          "the  READ: numbers were higher than the  WRITE: numbers, by far, as the mail says in its second part, "
          "which is long.\n",
          {"   READ: " G, 1, S}, {"WRITE: " G, 1, S}, {"TRIM: " G, 1, S}, {"Starting 1 process", 2, S},
          {"rr: Laying out IO file(s) (1 file(s) / 64MiB)", 2, S},
          {"{   \"fio version\" : \"fio-3.33\",   \"timestamp\" : 1796007457,   \"timestamp_ms\" : 1796007457742,   "
           "\"time\" : \"Mon Nov 30 02:57:37 2026\",   \"global options\" : { \"ioengine\" : \"libaio\" } }",
           2, S},
          {"We compared the READ: numbers of both runs with the WRITE: numbers of the first, and the TRIM: ones; "
           "the  READ: numbers were higher than the  WRITE: numbers, by far, as the mail says in its second part, "
           "which is long.",
           3, 0});
#undef G
}

/* fio's JSON as Python prints the dict (pydict.c): repr on a line after a caption,
 * pprint over lines with a long string in pieces; written back as JSON. */
static void test_python_dicts(void **state)
{
    (void)state;
    CHECK("result = {'fio version': 'fio-3.33', 'jobs': [{'jobname': \"it's\", 'eta': None, 'ok': True}]} done\n",
          {"result = ", 1, 0},
          {"{\"fio version\": \"fio-3.33\", \"jobs\": [{\"jobname\": \"it's\", \"eta\": null, \"ok\": true}]}", 1, 0},
          {" done", 1, 0});
    CHECK("{'jobs': [{'job options': {'description': 'a b '\n"
          "                                          'c d',\n"
          "                           'rw': 'read'},\n"
          "           'jobname': 'x'}]}\n"
          "Trueish text stays\n",
          {"{\"jobs\": [{\"job options\": {\"description\": \"a b c d\",", 1, 0},
          {"                           \"rw\": \"read\"},", 3, 0}, {"           \"jobname\": \"x\"}]}", 4, 0},
          {"Trueish text stays", 5, 0});
}

/* Two runs side by side (sidebyside.c): paste's tab, diff -y's gutter; the left
 * column's lines in place, the right column's after them, each with its own line's
 * number. */
static void test_side_by_side(void **state)
{
    (void)state;
    CHECK("fio-3.33\tfio-3.33\n"
          "a: (groupid=0, jobs=1): err= 0\tb: (groupid=0, jobs=1): err= 0\n"
          "  read: IOPS=1, BW=4KiB/s\t  read: IOPS=2, BW=8KiB/s\n"
          "\t  cpu          : usr=1%\n",
          {"fio-3.33", 1, 0}, {"a: (groupid=0, jobs=1): err= 0", 2, 0}, {"  read: IOPS=1, BW=4KiB/s", 3, 0}, {"", 4, 0},
          {"", 4, 0}, {"fio-3.33", 1, 0}, {"b: (groupid=0, jobs=1): err= 0", 2, 0}, {"  read: IOPS=2, BW=8KiB/s", 3, 0},
          {"  cpu          : usr=1%", 4, 0});
    /* diff -y: a common line, lines that differ ('|'), one on the right alone ('>') */
    CHECK("fio-3.33\t\t\t\t\t\t\tfio-3.33\n"
          "a: (groupid=0, jobs=1): err= 0\t\t\t\t      |\tb: (groupid=0, jobs=1): err= 0\n"
          "  read: IOPS=1, BW=4KiB/s\t\t\t\t      |\t  read: IOPS=2, BW=8KiB/s\n"
          "\t\t\t\t\t\t\t      >\t  cpu          : usr=1%\n"
          "Some words after it\n",
          {"fio-3.33", 1, 0}, {"a: (groupid=0, jobs=1): err= 0", 2, 0}, {"  read: IOPS=1, BW=4KiB/s", 3, 0}, {"", 4, 0},
          {"Some words after it", 5, 0}, {"", 5, 0}, {"fio-3.33", 1, 0}, {"b: (groupid=0, jobs=1): err= 0", 2, 0},
          {"  read: IOPS=2, BW=8KiB/s", 3, 0}, {"  cpu          : usr=1%", 4, 0}, {"", 5, 0});
}

/* fio's text in XML: Word's document.xml (a w:p a line, w:t runs, entities), a
 * Confluence page's code macro (a CDATA section). */
static void test_xml_documents(void **state)
{
    (void)state;
    const uint16_t E = FSC_LINE_ENTITY;
    CHECK("<w:document><w:body><w:p><w:r><w:t>fio-3.33</w:t></w:r></w:p><w:p><w:r><w:t xml:space=\"preserve\">  "
          "read: IOPS=1, BW=4KiB/s</w:t></w:r></w:p><w:p><w:r><w:t>a &amp; b</w:t></w:r></w:p></w:body></w:document>\n",
          {"fio-3.33", 1, E}, {"  read: IOPS=1, BW=4KiB/s", 1, E}, {"a & b", 1, E});
    CHECK("<p>Results:</p><ac:structured-macro ac:name=\"code\"><ac:plain-text-body><![CDATA[fio-3.33\n"
          "  read: IOPS=1, BW=4KiB/s\n"
          "  vda: ios=1/2, util=49.62%]]></ac:plain-text-body></ac:structured-macro><p>done</p>\n",
          {"Results:", 1, E}, {"fio-3.33", 1, E}, {"  read: IOPS=1, BW=4KiB/s", 2, 0}, {"  vda: ios=1/2, util=49.62%", 3, E},
          {"done", 3, E});
}

static void test_base64_parts(void **state)
{
    (void)state;
    const uint16_t C = FSC_LINE_CR;
    /* a text part in base64: its lines decoded, each numbered with the encoded line
     * its first byte is in; CR LF inside it as a CR LF line's */
    CHECK("From: a@b\n"
          "Content-Type: text/plain; charset=utf-8\n"
          "Content-Transfer-Encoding: base64\n"
          "\n"
          "ZmlvLTMuMzMNCiAgcmVh\n"
          "ZDogSU9QUz0xLCBCVz00\n"
          "S2lCL3MNCmVuZA==\n"
          "\n"
          "bye\n",
          {"From: a@b", 1, 0}, {"Content-Type: text/plain; charset=utf-8", 2, 0},
          {"Content-Transfer-Encoding: base64", 3, 0}, {"", 4, 0}, {"fio-3.33", 5, C},
          {"  read: IOPS=1, BW=4KiB/s", 5, C}, {"end", 7, 0}, {"", 8, 0}, {"bye", 9, 0});
    /* ISO-8859-1 text decoded to UTF-8; a gzip file and an image are left as they are */
    CHECK("Content-Type: text/plain; charset=iso-8859-1\n"
          "Content-Transfer-Encoding: base64\n"
          "\n"
          "ICBsYXQgKLVzZWMpOiBtaW49MQo=\n"
          "\n"
          "Content-Type: application/gzip\n"
          "Content-Transfer-Encoding: base64\n"
          "\n"
          "H4sIAIZEFGsC/ytKTUyxUvD0Dwi2NeQCAEYuH6oNAAAA\n"
          "\n"
          "Content-Transfer-Encoding: BASE64\n"
          "Content-Type: image/png; name=\"x.png\"\n"
          "\n"
          "ICBsYXQgKLVzZWMpOiBtaW49MQo=\n",
          {"Content-Type: text/plain; charset=iso-8859-1", 1, 0}, {"Content-Transfer-Encoding: base64", 2, 0},
          {"", 3, 0}, {"  lat (\xc2\xb5sec): min=1", 4, 0}, {"", 5, 0}, {"Content-Type: application/gzip", 6, 0},
          {"Content-Transfer-Encoding: base64", 7, 0}, {"", 8, 0}, {"H4sIAIZEFGsC/ytKTUyxUvD0Dwi2NeQCAEYuH6oNAAAA", 9, 0},
          {"", 10, 0}, {"Content-Transfer-Encoding: BASE64", 11, 0}, {"Content-Type: image/png; name=\"x.png\"", 12, 0},
          {"", 13, 0}, {"ICBsYXQgKLVzZWMpOiBtaW49MQo=", 14, 0});
    /* the HTML alternative of a text/plain part is not read (its runs twice); the
     * part after the alternative (the outer multipart's) is */
    CHECK("Content-Type: multipart/mixed; boundary=\"m\"\n"
          "\n"
          "--m\n"
          "Content-Type: multipart/alternative; boundary=\"a\"\n"
          "\n"
          "--a\n"
          "Content-Type: text/plain\n"
          "\n"
          "  read: IOPS=1\n"
          "--a\n"
          "Content-Type: text/html\n"
          "\n"
          "<div>  read: IOPS=1</div>\n"
          "--a--\n"
          "--m\n"
          "Content-Type: text/html\n"
          "\n"
          "<p>kept</p>\n",
          {"Content-Type: multipart/mixed; boundary=\"m\"", 1, 0}, {"", 2, 0}, {"--m", 3, 0},
          {"Content-Type: multipart/alternative; boundary=\"a\"", 4, 0}, {"", 5, 0}, {"--a", 6, 0},
          {"Content-Type: text/plain", 7, 0}, {"", 8, 0}, {"  read: IOPS=1", 9, 0}, {"--a", 10, 0},
          {"Content-Type: text/html", 11, 0}, {"", 12, 0}, {"--a--", 14, 0}, {"--m", 15, 0},
          {"Content-Type: text/html", 16, 0}, {"", 17, 0}, {"kept", 18, FSC_LINE_ENTITY});
    /* base64 said, but what follows is no base64 (a mail that only says so): as it is */
    CHECK("Content-Transfer-Encoding: base64\n\nThanks for the numbers\nQUJD\n",
          {"Content-Transfer-Encoding: base64", 1, 0}, {"", 2, 0}, {"Thanks for the numbers", 3, 0}, {"QUJD", 4, 0});
}

static void test_forum_and_wiki_tags(void **state)
{
    (void)state;
    const uint16_t M = FSC_LINE_MARKUP;
    /* BBCode typed glued to the first and last lines; the tags alone on a line and in
     * prose stay */
    CHECK("[quote=admin][code]rr: (g=0): rw=randread, bs=4k, ioengine=psync, iodepth=1\n"
          "  read: IOPS=1, BW=4KiB/s\n"
          "  sda: ios=4928/7, merge=0/0, ticks=454/2, in_queue=456, util=40.73%[/code][/quote]\n"
          "Use [code] tags please\n",
          {"rr: (g=0): rw=randread, bs=4k, ioengine=psync, iodepth=1", 1, M}, {"  read: IOPS=1, BW=4KiB/s", 2, 0},
          {"  sda: ios=4928/7, merge=0/0, ticks=454/2, in_queue=456, util=40.73%", 3, M},
          {"Use [code] tags please", 4, 0});
    /* Jira's: a parameter, and the closing tag */
    CHECK("{code:bash}fio-3.33\n  read: IOPS=1, BW=4KiB/s{code}\n",
          {"fio-3.33", 1, M}, {"  read: IOPS=1, BW=4KiB/s", 2, M});
    /* a line of JSON keeps them: the pre-scan does not look at its end */
    CHECK("[code]\n  \"jobname\" : \"rr\"[/code]\n}[/code]\n",
          {"[code]", 1, 0}, {"  \"jobname\" : \"rr\"[/code]", 2, 0}, {"}[/code]", 3, 0});
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_crlf),
        cmocka_unit_test(test_cr_overwrite),
        cmocka_unit_test(test_glued_progress),
        cmocka_unit_test(test_mail_quotes),
        cmocka_unit_test(test_html),
        cmocka_unit_test(test_fences),
        cmocka_unit_test(test_gutter_blocks),
        cmocka_unit_test(test_gutter_prefix),
        cmocka_unit_test(test_indented_blocks),
        cmocka_unit_test(test_bar_quotes),
        cmocka_unit_test(test_timestamps),
        cmocka_unit_test(test_spaces_and_bytes),
        cmocka_unit_test(test_quoted_printable),
        cmocka_unit_test(test_format_flowed),
        cmocka_unit_test(test_mbox_mails),
        cmocka_unit_test(test_wild_lines),
        cmocka_unit_test(test_damaged_equals_oracle),
        cmocka_unit_test(test_wrapped_flat),
        cmocka_unit_test(test_wrapped_flat_exact),
        cmocka_unit_test(test_damage_fixtures),
        cmocka_unit_test(test_random_documents),
        cmocka_unit_test(test_prefix_log),
        cmocka_unit_test(test_prefix_shapes),
        cmocka_unit_test(test_prefix_tags),
        cmocka_unit_test(test_markup),
        cmocka_unit_test(test_json_spans_and_repair),
        cmocka_unit_test(test_terminal_controls),
        cmocka_unit_test(test_string_literals),
        cmocka_unit_test(test_typography),
        cmocka_unit_test(test_markdown_escapes),
        cmocka_unit_test(test_csv_logs),
        cmocka_unit_test(test_page_breaks),
        cmocka_unit_test(test_markdown_table_cell),
        cmocka_unit_test(test_joined_lines),
        cmocka_unit_test(test_python_dicts),
        cmocka_unit_test(test_side_by_side),
        cmocka_unit_test(test_xml_documents),
        cmocka_unit_test(test_base64_parts),
        cmocka_unit_test(test_forum_and_wiki_tags),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
