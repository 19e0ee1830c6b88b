/* SPDX-License-Identifier: MIT */
/* The input layer: sniffing, ordered parallel delivery, stopping sinks and archives
 * written here with libarchive (member names kept as given, nesting, bombs). */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <archive.h>
#include <archive_entry.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fioscope/input.h"
#include "fioscope/parse.h"
#include "input/input_int.h"

/* What a sink saw: one line per entry and per run, in delivery order. */
typedef struct seen {
    char *log;
    size_t len;
    FILE *f;
    size_t entries, runs, stop_after; /* stop_after 0 = never */
} seen;

static bool seen_run(void *ctx, fsc_run *run)
{
    seen *s = ctx;
    fprintf(s->f, "run %s %s\n", run->id, run->n_jobs ? run->jobs[0].jobname : "-");
    s->runs++;
    fsc_run_free(run);
    return true;
}

static bool seen_input(void *ctx, const fsc_input_entry *e)
{
    seen *s = ctx;
    fprintf(s->f, "input %s|%s|%s|%zu|%s\n", e->path, e->member ? e->member : "-",
            fsc_input_status_name(e->status), e->runs, e->error ? e->error : "-");
    s->entries++;
    return !s->stop_after || s->entries < s->stop_after;
}

/* Read paths with `jobs` threads; returns the log (caller frees) and the status. */
static char *read_log(const char *const *paths, size_t n, unsigned jobs, size_t stop_after,
                      fsc_input_opts *extra, fsc_status *st_out, seen *out)
{
    fsc_buf err = {0};
    fsc_parser *p = fsc_parser_new(NULL, &err);
    assert_non_null(p);
    seen s = {.stop_after = stop_after};
    s.f = open_memstream(&s.log, &s.len);
    fsc_input_opts opts = extra ? *extra : (fsc_input_opts){0};
    opts.jobs = jobs;
    fsc_input_sink sink = {.run = seen_run, .input = seen_input, .ctx = &s};
    *st_out = fsc_inputs_read(paths, n, p, &opts, &sink);
    fclose(s.f);
    fsc_parser_free(p);
    fsc_buf_free(&err);
    if (out)
        *out = s;
    return s.log;
}

static void test_sniffing(void **state)
{
    (void)state;
    assert_false(fsc_looks_binary("fio-3.33\nread: IOPS=11.1k\n", 26));
    static const char capture[] = "\x1b[1mJobs: 1\x1b[0m\r\n"; /* a terminal capture */
    assert_false(fsc_looks_binary(capture, strlen(capture)));
    assert_true(fsc_looks_binary("abc\0def", 7));
    assert_false(fsc_looks_binary("\xff\xfe" "f\0i\0o\0", 8)); /* UTF-16 with BOM */
    assert_true(fsc_looks_binary("\x01\x02\x03\x04\x05\x06\x07 abc", 11));

    /* UTF-16 and UTF-32 without a byte order mark: read as what they are */
    static const char u16le[] = "f\0i\0o\0-\0\x33\0.\0\x33\0\x33\0\n\0 \0r\0\xe9\0a\0d\0:\0\r\0\n\0";
    assert_int_equal(fsc_unicode_unmarked(u16le, sizeof u16le - 1), FSC_ENC_UTF16LE);
    assert_int_equal(fsc_unicode_unmarked(u16le + 1, sizeof u16le - 2), FSC_ENC_UTF16BE); /* cut at an odd byte */
    static const char u16be[] = "\0f\0i\0o\0-\0\x33\0.\0\x33\0\x33\0\n";
    assert_int_equal(fsc_unicode_unmarked(u16be, sizeof u16be - 1), FSC_ENC_UTF16BE);
    static const char u32le[] = "f\0\0\0i\0\0\0o\0\0\0-\0\0\0\x33\0\0\0.\0\0\0\x33\0\0\0\n\0\0\0";
    assert_int_equal(fsc_unicode_unmarked(u32le, sizeof u32le - 1), FSC_ENC_UTF32LE);
    assert_int_equal(fsc_unicode_unmarked("\xff\xfe" "f\0i\0o\0-\0\x33\0.\0", 14), FSC_ENC_UTF8); /* a mark says it */
    static const char zeros[64] = {0};
    assert_int_equal(fsc_unicode_unmarked(zeros, sizeof zeros), FSC_ENC_UTF8);
    assert_int_equal(fsc_unicode_unmarked("fio-3.33\nread: IOPS=1\0 0\n", 24), FSC_ENC_UTF8); /* a stray NUL */
    assert_int_equal(fsc_unicode_unmarked("abc\0def", 7), FSC_ENC_UTF8);                     /* too short to tell */

    static const unsigned char gz[] = {0x1f, 0x8b, 8}, xz[] = {0xfd, '7', 'z', 'X', 'Z', 0},
                               zst[] = {0x28, 0xb5, 0x2f, 0xfd};
    assert_true(fsc_is_archive_magic(gz, sizeof gz));
    assert_true(fsc_is_archive_magic(xz, sizeof xz));
    assert_true(fsc_is_archive_magic(zst, sizeof zst));
    assert_true(fsc_is_archive_magic((const unsigned char *)"BZh9", 4));
    assert_false(fsc_is_archive_magic((const unsigned char *)"BZhx", 4));
    assert_true(fsc_is_archive_magic((const unsigned char *)"PK\x03\x04", 4));
    unsigned char tar[512] = {0};
    memcpy(tar + 257, "ustar", 5);
    assert_true(fsc_is_archive_magic(tar, sizeof tar));
    assert_false(fsc_is_archive_magic(tar, 260)); /* cut before the magic */
    assert_false(fsc_is_archive_magic((const unsigned char *)"fio-3.33", 8));
}

/* A text holding JSON goes in pieces from json_piece_min: fio's pretty JSON, JSON
 * Lines and JSON below text hold it; a brace of a job file, a shell block or a
 * language's code does not, nor JSON past the first 64 KiB the reader looks at. */
static void test_holds_json(void **state)
{
    (void)state;
#define HOLDS(s) fsc_text_holds_json((s), strlen(s))
    assert_true(HOLDS("{\n  \"fio version\" : \"fio-3.33\",\n"));
    assert_true(HOLDS("{\"id\":\"a#1\",\"jobs\":[]}\n{\"input\":{}}\n"));
    assert_true(HOLDS("fio: a warning\n\n  {\r\n\t\"jobs\": []}\n"));
    assert_true(HOLDS("{\n\n   \n\"x\": 1}")); /* blank lines after the brace */
    assert_false(HOLDS("fio-3.33\nread: IOPS=11.1k\n"));
    assert_false(HOLDS("f() {\n  echo x\n}\n{ echo y; }\n"));
    assert_false(HOLDS("{\n  1, 2\n}\n"));
    assert_false(HOLDS("see {\"jobs\": []} inline\n")); /* not at a line's start */
    assert_false(HOLDS("{"));
    assert_false(HOLDS(""));
#undef HOLDS
    size_t far = 70000;
    char *t = malloc(far + 32);
    assert_non_null(t);
    memset(t, 'x', far);
    t[far - 1] = '\n';
    strcpy(t + far, "{\"jobs\": []}\n");
    assert_false(fsc_text_holds_json(t, strlen(t))); /* past what is looked at */
    assert_true(fsc_text_holds_json(t + far - 1, strlen(t + far - 1)));
    free(t);
}

/* fsc_text_holds_json's question asked line by line, as it was first written: the
 * reference of its brace-led search */
static bool holds_json_by_lines(const char *data, size_t len)
{
    const char *p = data, *end = data + len;
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p)), *e = nl ? nl : end;
        while (p < e && (*p == ' ' || *p == '\t'))
            p++;
        if (p < e && *p == '{') {
            const char *q = p + 1;
            while (q < end && (*q == ' ' || *q == '\t' || *q == '\r' || *q == '\n'))
                q++;
            if (q < end && *q == '"')
                return true;
        }
        p = e + 1;
    }
    return false;
}

/* Random texts of the bytes that decide the answer, against the reference. */
static void test_holds_json_vs_lines(void **state)
{
    (void)state;
    static const char alphabet[] = " \t\n\r{\"x";
    char text[48];
    unsigned seed = 777;
    for (int round = 0; round < 200000; round++) {
        seed = seed * 1103515245u + 12345u;
        size_t n = (seed >> 16) % sizeof text;
        for (size_t i = 0; i < n; i++) {
            seed = seed * 1103515245u + 12345u;
            text[i] = alphabet[(seed >> 16) % (sizeof alphabet - 1)];
        }
        assert_int_equal(fsc_text_holds_json(text, n), holds_json_by_lines(text, n));
    }
}

/* The vectorised line counter against a byte loop: every length up to 600 (the
 * 16-byte steps and the tail), every start offset (unaligned loads), newline
 * densities from none to all, and a buffer long enough to sum its counters often. */
static void test_count_lines(void **state)
{
    (void)state;
    enum { LEN = 70000 };
    char *buf = malloc(LEN);
    assert_non_null(buf);
    unsigned seed = 12345;
    for (int density = 0; density <= 256; density += 32) {
        for (size_t i = 0; i < LEN; i++) {
            seed = seed * 1103515245u + 12345u;
            unsigned r = (seed >> 16) & 0xff;
            buf[i] = r < (unsigned)density ? '\n' : (char)(r == '\n' ? 0x8a : r);
        }
        for (size_t off = 0; off < 16; off++)
            for (size_t n = 0; n <= 600; n++) {
                size_t want = 0;
                for (size_t i = 0; i < n; i++)
                    want += buf[off + i] == '\n';
                assert_int_equal(fsc_count_lines(buf + off, n), want);
            }
        size_t want = 0;
        for (size_t i = 0; i < LEN; i++)
            want += buf[i] == '\n';
        assert_int_equal(fsc_count_lines(buf, LEN), want);
        assert_int_equal(fsc_count_lines(buf + 3, LEN - 3), want - (size_t)(buf[0] == '\n') -
                                                                (size_t)(buf[1] == '\n') -
                                                                (size_t)(buf[2] == '\n'));
    }
    memset(buf, '\n', LEN); /* every byte: counters at their limit before each sum */
    assert_int_equal(fsc_count_lines(buf, LEN), LEN);
    assert_int_equal(fsc_count_lines("a\nb\n", 4), 2);
    free(buf);
}

/* The vectorised JSON balance against fsc_json_balanced: random text of the bytes
 * that matter (quotes, escapes, line ends, brackets) and others, every length, and a
 * real fio JSON document from every '{'. */
static char *corpus_file(const char *rel);
/* A piece that its worker reads from the file (fsc_piece_file): its text and its
 * lines; a range past the end (the file shrank after it was cut) is an error entry. */
static void test_read_piece(void **state)
{
    (void)state;
    char path[] = "/tmp/fsc_piece_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, "line1\nline2\nline3\n", 18), 18);
    fsc_piece_file *pf = fsc_piece_file_new(fd);
    assert_non_null(pf);
    close(fd); /* the record holds its own descriptor */
    fsc_item *job = fsc_item_new(path, NULL), *past = fsc_item_new(path, NULL);
    assert_non_null(job);
    assert_non_null(past);
    fsc_piece_file_hold(pf);
    job->pf = pf;
    job->pf_off = 6;
    job->len = 12;
    assert_true(fsc_item_read_piece(job));
    assert_string_equal(job->data, "line2\nline3\n");
    assert_false(job->fixed);
    fsc_piece_file_hold(pf);
    past->pf = pf;
    past->pf_off = 12;
    past->len = 100;
    assert_false(fsc_item_read_piece(past));
    assert_true(past->fixed);
    assert_int_equal(past->status, FSC_IN_ERROR);
    assert_non_null(strstr(past->error, "shrank"));
    fsc_item_free(job); /* each lets go of pf once */
    fsc_item_free(past);
    fsc_piece_file_release(pf);
    unlink(path);
}

/* A piece read by its worker, settled once the pieces before it are: it begins
 * where they end, and a cut the reading thread made inside a JSON document (it saw
 * only a window) moves on to the run boundary after the document. */
static void test_settle_piece(void **state)
{
    (void)state;
    static const char text[] = "a: (g=0): rw=read\n  sda: ios=1\n"          /* 0..31 */
                               "{\n\"x\": [\n}\n{\n1]\n}\n"             /* 31..52: a document with a lone '}' line inside */
                               "b: (g=0): rw=read\n  sda: ios=2\n"          /* 52.. */
                               "c: (g=0): rw=read\n";
    char path[] = "/tmp/fsc_settle_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    size_t n = sizeof text - 1;
    assert_int_equal(write(fd, text, n), (ssize_t)n);
    fsc_piece_file *pf = fsc_piece_file_new(fd);
    close(fd);
    const char *doc = strchr(text, '{'), *inside = strstr(doc, "}\n{") + 2, *c = strstr(text, "c:");
    /* the reading thread cut inside the document, after its lone '}' */
    fsc_item *job = fsc_item_new(path, NULL);
    fsc_piece_file_hold(pf);
    job->pf = pf;
    job->more = true;
    job->pf_off = 0;
    job->len = (size_t)(inside - text);
    assert_true(fsc_item_read_piece(job));
    uint64_t end = fsc_piece_settle(job, 0);
    assert_int_equal(end, (uint64_t)(c - text)); /* the last boundary after it */
    assert_int_equal(job->len, (size_t)(c - text));
    assert_memory_equal(job->data, text, job->len);
    /* the next piece, cut at `inside`, now begins where this one ends */
    fsc_item *next = fsc_item_new(path, NULL);
    fsc_piece_file_hold(pf);
    next->pf = pf;
    next->more = false;
    next->pf_off = (uint64_t)(inside - text);
    next->len = n - (size_t)(inside - text);
    assert_true(fsc_item_read_piece(next));
    assert_int_equal(fsc_piece_settle(next, end), n);
    assert_string_equal(next->data, c);
    fsc_item_free(job);
    fsc_item_free(next);
    fsc_piece_file_release(pf);
    unlink(path);
}

static void test_json_balanced_fast(void **state)
{
    (void)state;
    static const char alphabet[] = "\"\\\n{}[]a :";
    char buf[400];
    unsigned seed = 777;
    for (int round = 0; round < 3000; round++) {
        size_t len = (size_t)(round % 97) * 4;
        for (size_t i = 0; i < len; i++) {
            seed = seed * 1103515245u + 12345u;
            buf[i] = alphabet[(seed >> 16) % (sizeof alphabet - 1)];
        }
        if (len)
            buf[0] = round & 1 ? '{' : '[';
        for (size_t n = 0; n <= len; n++)
            assert_int_equal(fsc_json_balanced_fast(buf, n), fsc_json_balanced(buf, n));
    }
    /* long stretches where whole blocks can be taken (AVX2: no escape, no line end in
     * a string, the depth above the closing brackets), broken now and then by the
     * bytes that stop them, at every offset */
    static char big[2400];
    static const char sparse[] = "aaaaaaaaaaaaaaaa    ::,,\"\"\"\"{{{{}}}}[[]]";
    for (int round = 0; round < 400; round++) {
        size_t len = 64 + (size_t)round * 5;
        for (size_t i = 0; i < len; i++) {
            seed = seed * 1103515245u + 12345u;
            unsigned r = (seed >> 16) % 1000;
            big[i] = r < 3 ? '\\' : r < 8 ? '\n' : sparse[r % (sizeof sparse - 1)];
        }
        for (size_t k = 0; k < 24; k++) /* deep first, so that blocks can go whole */
            big[k] = round % 3 ? '{' : '[';
        for (size_t n = len - 40; n <= len; n++)
            assert_int_equal(fsc_json_balanced_fast(big, n), fsc_json_balanced(big, n));
        for (size_t from = 1; from < 40; from++)
            assert_int_equal(fsc_json_balanced_fast(big + from, len - from), fsc_json_balanced(big + from, len - from));
    }
    static const char *const cases[] = {"{}", "{\"a\":\"}\"}", "{\"a\\\"}\"}x", "{\"a\\\n}",
                                        "{\"\\\\\"}", "}{}", "{\"abcdefghijklmnop\\\"qrstuvwxyz\"}"};
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
        assert_int_equal(fsc_json_balanced_fast(cases[i], strlen(cases[i])),
                         fsc_json_balanced(cases[i], strlen(cases[i])));
    char *path = corpus_file("fio-3.33/g_json.json");
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    static char doc[1 << 20];
    size_t n = fread(doc, 1, sizeof doc, f);
    fclose(f);
    free(path);
    size_t opens = 0;
    for (size_t i = 0; i < n; i++)
        if (doc[i] == '{') {
            opens++;
            assert_int_equal(fsc_json_balanced_fast(doc + i, n - i), fsc_json_balanced(doc + i, n - i));
        }
    assert_true(opens > 10);
    assert_int_not_equal(fsc_json_balanced_fast(doc, n), 0);
}

static char *corpus_file(const char *rel)
{
    const char *c = getenv("FSC_CORPUS");
    char *p = NULL;
    assert_true(asprintf(&p, "%s/%s", c ? c : "/work/shared/corpus", rel) > 0);
    return p;
}

static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    char *b = NULL;
    size_t cap = 0;
    FILE *m = open_memstream(&b, &cap);
    char chunk[65536];
    size_t r;
    while ((r = fread(chunk, 1, sizeof chunk, f)) > 0)
        fwrite(chunk, 1, r, m);
    fclose(f);
    fclose(m);
    *len = cap;
    return b;
}

static void add_member(struct archive *a, const char *name, const void *data, size_t len)
{
    struct archive_entry *e = archive_entry_new();
    archive_entry_set_pathname(e, name);
    archive_entry_set_filetype(e, AE_IFREG);
    archive_entry_set_perm(e, 0644);
    archive_entry_set_size(e, (la_int64_t)len);
    assert_int_equal(archive_write_header(a, e), ARCHIVE_OK);
    assert_int_equal(archive_write_data(a, data, len), (la_ssize_t)len);
    archive_entry_free(e);
}

/* An archive in memory, written with libarchive; format/filter as archive_write_set_*. */
static char *make_archive(int (*format)(struct archive *), int (*filter)(struct archive *),
                          const char *const *names, const char *const *datas, const size_t *lens,
                          size_t n, size_t *out_len)
{
    size_t cap = (size_t)8 << 20, used = 0;
    for (size_t i = 0; i < n; i++)
        cap += lens[i];
    char *buf = malloc(cap);
    struct archive *a = archive_write_new();
    format(a);
    if (filter)
        filter(a);
    archive_write_set_bytes_in_last_block(a, 1);
    assert_int_equal(archive_write_open_memory(a, buf, cap, &used), ARCHIVE_OK);
    for (size_t i = 0; i < n; i++)
        add_member(a, names[i], datas[i], lens[i]);
    archive_write_close(a);
    archive_write_free(a);
    *out_len = used;
    return buf;
}

static void write_file(const char *path, const char *data, size_t len)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(data, 1, len, f), len);
    fclose(f);
}

static void test_archives_written_here(void **state)
{
    (void)state;
    char dir[] = "/tmp/fsc_test_input_XXXXXX";
    assert_non_null(mkdtemp(dir));
    char *json_path = corpus_file("fio-3.33/g_json.json");
    size_t jlen;
    char *json = slurp(json_path, &jlen);

    /* a zip inside a tar.xz, with names that must never become paths */
    const char *zn[] = {"inner.json"};
    const char *zd[] = {json};
    size_t zl[] = {jlen}, zip_len;
    char *zip = make_archive(archive_write_set_format_zip, NULL, zn, zd, zl, 1, &zip_len);
    const char *tn[] = {"../x", "/abs/y.json", "in.zip", "junk"};
    const char *td[] = {json, json, zip, "\x7f" "ELF\x02\x01\x01\0\0\0"};
    size_t tl[] = {jlen, jlen, zip_len, 10}, tar_len;
    char *tar = make_archive(archive_write_set_format_pax_restricted, archive_write_add_filter_xz,
                             tn, td, tl, 4, &tar_len);
    char *tar_path = NULL;
    assert_true(asprintf(&tar_path, "%s/logs.tar.xz", dir) > 0);
    write_file(tar_path, tar, tar_len);

    const char *paths[] = {tar_path};
    fsc_status st;
    seen s;
    char *log = read_log(paths, 1, 2, 0, NULL, &st, &s);
    assert_int_equal(st, FSC_OK);
    char *want = NULL;
    assert_true(asprintf(&want,
                         "run %1$s:../x#1 randread\n"
                         "input %1$s|../x|ok|1|-\n"
                         "run %1$s:/abs/y.json#1 randread\n"
                         "input %1$s|/abs/y.json|ok|1|-\n"
                         "run %1$s:in.zip/inner.json#1 randread\n"
                         "input %1$s|in.zip/inner.json|ok|1|-\n"
                         "input %1$s|junk|error|0|binary data: neither text nor a known archive "
                         "or compressed format\n",
                         tar_path) > 0);
    assert_string_equal(log, want);
    free(want);
    free(log);

    /* the same archive under a tight ratio cap: a highly compressible member */
    size_t big_len = (size_t)4 << 20;
    char *big = malloc(big_len);
    memset(big, 'a', big_len);
    const char *bn[] = {"big.txt", "after.json"};
    const char *bd[] = {big, json};
    size_t bl[] = {big_len, jlen}, bomb_len;
    char *bomb = make_archive(archive_write_set_format_pax_restricted,
                              archive_write_add_filter_gzip, bn, bd, bl, 2, &bomb_len);
    char *bomb_path = NULL;
    assert_true(asprintf(&bomb_path, "%s/b.tgz", dir) > 0);
    write_file(bomb_path, bomb, bomb_len);
    fsc_input_opts lim = {.max_ratio = 50};
    const char *bpaths[] = {bomb_path};
    log = read_log(bpaths, 1, 1, 0, &lim, &st, NULL);
    assert_non_null(strstr(log, "|big.txt|error|0|decompression limit: expands more than the "
                                "ratio 50 (--max-ratio); the rest of the archive was not read\n"));
    assert_null(strstr(log, "after.json"));
    free(log);

    unlink(tar_path);
    unlink(bomb_path);
    rmdir(dir);
    free(bomb_path);
    free(bomb);
    free(big);
    free(tar_path);
    free(tar);
    free(zip);
    free(json);
    free(json_path);
}

static void test_parallel_order_and_stop(void **state)
{
    (void)state;
    /* the same corpus files many times over: -j 1 and -j 4 must match byte for byte */
    const char *rel[] = {"fio-3.33/g_json.json", "fio-3.33/g_json_group.json", "fio-2.15",
                         "fio-3.33/g_jsonplus.json", "no/such/file"};
    const char *paths[60];
    char *owned[FSC_ARRAY_SIZE(rel)];
    for (size_t i = 0; i < FSC_ARRAY_SIZE(rel); i++)
        owned[i] = corpus_file(rel[i]);
    for (size_t i = 0; i < FSC_ARRAY_SIZE(paths); i++)
        paths[i] = owned[(i * 7) % FSC_ARRAY_SIZE(rel)];
    fsc_status st1, st4;
    seen s1, s4;
    char *l1 = read_log(paths, FSC_ARRAY_SIZE(paths), 1, 0, NULL, &st1, &s1);
    char *l4 = read_log(paths, FSC_ARRAY_SIZE(paths), 4, 0, NULL, &st4, &s4);
    assert_int_equal(st1, FSC_OK);
    assert_int_equal(st4, FSC_OK);
    assert_string_equal(l1, l4);
    assert_true(s1.runs >= 36); /* 3 JSON files x 12 times, one run each */
    assert_non_null(strstr(l1, "/no/such/file|-|error|0|cannot open: No such file or directory\n"));
    free(l1);
    free(l4);

    /* a sink that stops: no hang, everything freed, the status says so */
    seen s;
    char *l = read_log(paths, FSC_ARRAY_SIZE(paths), 3, 5, NULL, &st1, &s);
    assert_int_equal(st1, FSC_E_INTERRUPTED);
    assert_int_equal(s.entries, 5);
    free(l);
    for (size_t i = 0; i < FSC_ARRAY_SIZE(rel); i++)
        free(owned[i]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sniffing),
        cmocka_unit_test(test_holds_json),
        cmocka_unit_test(test_holds_json_vs_lines),
        cmocka_unit_test(test_count_lines),
        cmocka_unit_test(test_read_piece),
        cmocka_unit_test(test_settle_piece),
        cmocka_unit_test(test_json_balanced_fast),
        cmocka_unit_test(test_archives_written_here),
        cmocka_unit_test(test_parallel_order_and_stop),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
