/* SPDX-License-Identifier: MIT */
/* fio log files: names, the layouts of every fio version (text and .fz samples), clone
 * sections, pieces, the series store (blocks moved to the temporary file and back),
 * resampling, stability statistics, fio's steady-state criteria and the bin values of
 * histogram logs. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "fioscope/logs.h"
#include "fioscope/timeseries.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

/* ---- helpers ---- */

static fsc_logfile *read_named(const char *name, const char *text, size_t len, uint32_t first_line)
{
    fsc_logname ln;
    assert_true(fsc_log_name_parse(name, &ln));
    fsc_doc doc = {name, NULL, text, len, first_line, 0, NULL, false, FSC_ENC_UTF8, false};
    fsc_logfile *f = fsc_logfile_read(&doc, &ln);
    assert_non_null(f);
    return f;
}

static fsc_logfile *read_text(const char *name, const char *text)
{
    return read_named(name, text, strlen(text), 0);
}

/* Column c of series s as a fresh array (caller frees). */
static int64_t *column(const fsc_logseries *s, fsc_logcol c)
{
    int64_t *v = calloc(s->n + 1, sizeof *v);
    assert_non_null(v);
    assert_int_equal(fsc_logseries_read(s, 0, s->n, c, v), s->n);
    return v;
}

static void assert_column(const fsc_logseries *s, fsc_logcol c, const int64_t *want, size_t n)
{
    assert_int_equal(s->n, n);
    int64_t *v = column(s, c);
    for (size_t i = 0; i < n; i++)
        assert_int_equal(v[i], want[i]);
    free(v);
}

static fsc_logseries *only_series(fsc_logfile *f, const char *version)
{
    fsc_logfile_finish(f, version);
    assert_int_equal(fsc_logfile_n_series(f), 1);
    return fsc_logfile_take(f, 0);
}

/* ---- names ---- */

static void test_names(void **state)
{
    (void)state;
    fsc_logname ln;
    assert_true(fsc_log_name_parse("dir/job1_bw.3.log", &ln));
    assert_int_equal(ln.kind, FSC_LOG_BW);
    assert_int_equal(ln.clone, 3);
    assert_int_equal(ln.prefix_len, 4);
    assert_memory_equal(ln.prefix, "job1", 4);
    assert_true(fsc_log_name_parse("a_b_clat_hist.12.log.gz", &ln));
    assert_int_equal(ln.kind, FSC_LOG_CLAT_HIST);
    assert_int_equal(ln.clone, 12);
    assert_int_equal(ln.prefix_len, 3);
    assert_true(fsc_log_name_parse("x_lat_hist.1.log", &ln));
    assert_int_equal(ln.kind, FSC_LOG_LAT_HIST);
    assert_true(fsc_log_name_parse("perjob_iops.log", &ln)); /* per_job_logs=0 */
    assert_int_equal(ln.kind, FSC_LOG_IOPS);
    assert_int_equal(ln.clone, 0);
    assert_true(fsc_log_name_parse("fz_slat.1.log.fz", &ln));
    assert_int_equal(ln.kind, FSC_LOG_SLAT);
    assert_true(ln.stored_compressed);
    assert_true(fsc_log_name_parse("my_clat.1.log", &ln));
    assert_int_equal(ln.kind, FSC_LOG_CLAT);
    assert_true(fsc_log_name_parse("my_lat.1.log", &ln));
    assert_int_equal(ln.kind, FSC_LOG_LAT);
    assert_false(fsc_log_name_parse("_bw.1.log", &ln)); /* no prefix */
    assert_false(fsc_log_name_parse("job_bw.0.log", &ln));
    assert_false(fsc_log_name_parse("fio.log", &ln));
    assert_false(fsc_log_name_parse("job_bw.1.txt", &ln));
    assert_false(fsc_log_name_parse("job_foo.1.log", &ln));
}

/* ---- text layouts ---- */

static void test_layout_2x(void **state)
{
    (void)state;
    /* fio 2.x: time, value, dir, bs */
    fsc_logfile *f = read_text("j_clat.1.log", "1, 250, 0, 4096\n2, 260, 1, 8192\n");
    fsc_logseries *s = only_series(f, "fio-2.20");
    assert_int_equal(s->cols, FSC_COLBIT(FSC_COL_T) | FSC_COLBIT(FSC_COL_VALUE) |
                                  FSC_COLBIT(FSC_COL_DIR) | FSC_COLBIT(FSC_COL_BS));
    assert_true(s->usec); /* latencies in usec before fio 2.99 */
    assert_column(s, FSC_COL_BS, (int64_t[]){4096, 8192}, 2);
    assert_string_equal(s->job, "j");
    assert_int_equal(s->clone, 1);
    assert_int_equal(fsc_logfile_n_warnings(f), 0);
    fsc_logseries_free(s);
    fsc_logfile_free(f);
}

static void test_layout_5th_column(void **state)
{
    (void)state;
    /* offsets (log_offset=1 of fio 2.1.11 .. 3.17) */
    fsc_logfile *f = read_text("j_lat.1.log", "1, 250, 0, 4096, 0\n2, 260, 0, 4096, 8192\n");
    fsc_logseries *s = only_series(f, NULL);
    assert_true(s->cols & FSC_COLBIT(FSC_COL_OFFSET));
    assert_false(s->cols & FSC_COLBIT(FSC_COL_PRIO));
    assert_column(s, FSC_COL_OFFSET, (int64_t[]){0, 8192}, 2);
    fsc_logseries_free(s);
    fsc_logfile_free(f);
    /* priorities (fio 3.18+): 0/1 */
    f = read_text("j_lat.1.log", "1, 250, 0, 4096, 0\n2, 260, 0, 4096, 1\n");
    s = only_series(f, "fio-3.33");
    assert_true(s->cols & FSC_COLBIT(FSC_COL_PRIO));
    assert_false(s->usec);
    fsc_logseries_free(s);
    fsc_logfile_free(f);
    /* the same 0/1 from fio 3.10 is an offset column */
    f = read_text("j_lat.1.log", "1, 250, 0, 4096, 0\n2, 260, 0, 4096, 1\n");
    s = only_series(f, "fio-3.10");
    assert_true(s->cols & FSC_COLBIT(FSC_COL_OFFSET));
    fsc_logseries_free(s);
    fsc_logfile_free(f);
    /* log_prio: the whole value in hex */
    f = read_text("j_lat.1.log", "1, 250, 0, 4096, 0x2004\n2, 260, 0, 4096, 0x0000\n");
    s = only_series(f, NULL);
    assert_true(s->cols & FSC_COLBIT(FSC_COL_PRIO));
    assert_true(s->prio_hex);
    assert_column(s, FSC_COL_PRIO, (int64_t[]){0x2004, 0}, 2);
    fsc_logseries_free(s);
    fsc_logfile_free(f);
}

static void test_layout_wide(void **state)
{
    (void)state;
    /* fio 3.37 log_window_value=both: time, avg, max, dir, bs, prio */
    fsc_logfile *f = read_text("j_bw.1.log", "200, 1200, 1500, 0, 0, 0\n400, 1100, 1300, 1, 0, 0\n");
    fsc_logseries *s = only_series(f, NULL);
    assert_true(s->cols & FSC_COLBIT(FSC_COL_MAX));
    assert_column(s, FSC_COL_MAX, (int64_t[]){1500, 1300}, 2);
    assert_column(s, FSC_COL_DIR, (int64_t[]){0, 1}, 2);
    fsc_logseries_free(s);
    fsc_logfile_free(f);
    /* log_offset=1 with prio: time, value, dir, bs, offset, prio */
    f = read_text("j_clat.1.log", "2, 25, 0, 4096, 1011712, 0\n6, 31, 1, 4096, 12419072, 1\n");
    s = only_series(f, NULL);
    assert_column(s, FSC_COL_OFFSET, (int64_t[]){1011712, 12419072}, 2);
    assert_column(s, FSC_COL_PRIO, (int64_t[]){0, 1}, 2);
    fsc_logseries_free(s);
    fsc_logfile_free(f);
    /* fio 3.38 log_issue_time without offsets: time, value, dir, bs, prio, issue */
    f = read_text("j_clat.1.log", "2, 25, 0, 4096, 0, 1999975\n6, 31, 1, 4096, 0, 5999969\n");
    s = only_series(f, NULL);
    assert_column(s, FSC_COL_ISSUE, (int64_t[]){1999975, 5999969}, 2);
    assert_column(s, FSC_COL_PRIO, (int64_t[]){0, 0}, 2);
    fsc_logseries_free(s);
    fsc_logfile_free(f);
    /* all of it: time, avg, max, dir, bs, offset, prio, issue */
    f = read_text("j_lat.1.log", "2, 25, 40, 0, 4096, 8192, 0, 1999975\n");
    s = only_series(f, NULL);
    assert_int_equal(s->cols, (1u << FSC_COL_COUNT) - 1);
    assert_column(s, FSC_COL_ISSUE, (int64_t[]){1999975}, 1);
    fsc_logseries_free(s);
    fsc_logfile_free(f);
}

static void test_hist_layouts(void **state)
{
    (void)state;
    char *text = malloc(64 * 1024);
    assert_non_null(text);
    size_t n = (size_t)sprintf(text, "500, 1, 4096");
    for (int i = 0; i < 1216; i++) /* fio 2.14 .. 2.21: 1216 bins (usec) */
        n += (size_t)sprintf(text + n, ", %d", i == 700 ? 3 : 0);
    text[n++] = '\n';
    fsc_logfile *f = read_named("h_clat_hist.1.log", text, n, 0);
    fsc_logseries *s = only_series(f, NULL);
    assert_int_equal(s->n_bins, 1216);
    assert_true(s->usec);
    uint64_t bins[1216];
    assert_true(fsc_logseries_hist_row(s, 0, bins));
    assert_int_equal(bins[700], 3);
    assert_int_equal(bins[699], 0);
    assert_column(s, FSC_COL_DIR, (int64_t[]){1}, 1);
    fsc_logseries_free(s);
    fsc_logfile_free(f);
    /* fio 3.x with log_hist_coarseness=2: 464 bins */
    n = (size_t)sprintf(text, "500, 0, 4096");
    for (int i = 0; i < 464; i++)
        n += (size_t)sprintf(text + n, ", %d", i);
    text[n++] = '\n';
    f = read_named("h_clat_hist.1.log", text, n, 0);
    s = only_series(f, NULL);
    assert_int_equal(s->n_bins, 464);
    assert_int_equal(s->coarseness, 2);
    assert_false(s->usec);
    fsc_logseries_free(s);
    fsc_logfile_free(f);
    free(text);
}

static void test_bad_rows(void **state)
{
    (void)state;
    /* a row of another width, a negative value, words: skipped with their line */
    fsc_logfile *f = read_text("j_iops.1.log", "1, 1, 0, 4096, 0\n2, 1, 0\n3, -1, 0, 4096, 0\n"
                                              "four\n5, 1, 0, 4096, 0\n");
    fsc_logseries *s = only_series(f, NULL);
    assert_column(s, FSC_COL_T, (int64_t[]){1, 5}, 2);
    assert_int_equal(fsc_logfile_n_warnings(f), 3);
    assert_int_equal(fsc_logfile_warning(f, 0)->line, 2);
    assert_int_equal(fsc_logfile_warning(f, 1)->line, 3);
    assert_int_equal(fsc_logfile_warning(f, 2)->line, 4);
    fsc_logseries_free(s);
    fsc_logfile_free(f);
    /* many bad lines: ten listed, the rest counted */
    fsc_buf b = {0};
    for (int i = 0; i < 50; i++)
        fsc_buf_puts(&b, "junk\n");
    fsc_buf_puts(&b, "1, 1, 0, 4096, 0\n");
    f = read_named("j_iops.1.log", b.data, b.len, 0);
    fsc_logfile_finish(f, NULL);
    assert_int_equal(fsc_logfile_n_warnings(f), 11);
    assert_non_null(strstr(fsc_logfile_warning(f, 10)->message, "40 more"));
    assert_false(fsc_logfile_foreign(f));
    fsc_logfile_free(f);
    fsc_buf_free(&b);
    /* a document that is no log at all */
    f = read_text("notes_bw.1.log", "These are my notes\nabout bandwidth\n");
    assert_true(fsc_logfile_foreign(f));
    fsc_logfile_free(f);
}

static void test_sections_and_pieces(void **state)
{
    (void)state;
    /* per_job_logs=0: clones one after another, each from its own start */
    fsc_logfile *f = read_text("j_bw.log", "500, 800, 0, 0, 0\n1000, 801, 0, 0, 0\n"
                                          "500, 790, 0, 0, 0\n1000, 799, 0, 0, 0\n");
    fsc_logfile_finish(f, NULL);
    assert_int_equal(fsc_logfile_n_series(f), 2);
    fsc_logseries *a = fsc_logfile_take(f, 0), *b = fsc_logfile_take(f, 1);
    assert_int_equal(a->section, 1);
    assert_int_equal(b->section, 2);
    assert_column(b, FSC_COL_VALUE, (int64_t[]){790, 799}, 2);
    assert_int_equal(fsc_logfile_n_warnings(f), 0);
    fsc_logseries_free(a);
    fsc_logseries_free(b);
    fsc_logfile_free(f);
    /* two pieces of one file, appended in order; line numbers continue */
    const char *p1 = "1, 10, 0, 4096, 0\n2, 20, 0, 4096, 0\n";
    const char *p2 = "3, 30, 0, 4096, 0\nbad\n";
    f = read_named("j_clat.1.log", p1, strlen(p1), 0);
    assert_true(fsc_logfile_append(f, read_named("j_clat.1.log", p2, strlen(p2), 2)));
    a = only_series(f, NULL);
    assert_column(a, FSC_COL_VALUE, (int64_t[]){10, 20, 30}, 3);
    assert_int_equal(fsc_logfile_n_warnings(f), 1);
    assert_int_equal(fsc_logfile_warning(f, 0)->line, 4);
    fsc_logseries_free(a);
    fsc_logfile_free(f);
    /* a piece that goes back in time: a warning for a clone's log */
    p2 = "1, 30, 0, 4096, 0\n";
    f = read_named("j_clat.1.log", p1, strlen(p1), 0);
    assert_true(fsc_logfile_append(f, read_named("j_clat.1.log", p2, strlen(p2), 2)));
    a = only_series(f, NULL);
    assert_int_equal(a->n, 3);
    assert_int_equal(fsc_logfile_warning(f, 0)->line, 3);
    fsc_logseries_free(a);
    fsc_logfile_free(f);
}

/* ---- log_store_compressed samples ---- */

static void put64(unsigned char *p, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        p[i] = (unsigned char)(v >> (8 * i));
}

static void put32(unsigned char *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (unsigned char)(v >> (8 * i));
}

/* Samples of one layout, zlib-compressed as fio stores them; the file read back. */
static fsc_logseries *fz_roundtrip(const unsigned char *raw, size_t len, size_t *n_warn)
{
    uLongf zlen = compressBound(len) + 16;
    unsigned char *z = malloc(zlen);
    assert_non_null(z);
    assert_int_equal(compress(z, &zlen, raw, len), Z_OK);
    fsc_logfile *f = read_named("j_lat.1.log.fz", (const char *)z, zlen, 0);
    fsc_logseries *s = only_series(f, NULL);
    *n_warn = fsc_logfile_n_warnings(f);
    fsc_logfile_free(f);
    free(z);
    return s;
}

static void test_fz_layouts(void **state)
{
    (void)state;
    unsigned char raw[4 * 64];
    size_t warn;
    /* A, fio 2.1.11 .. 3.9: time, val, ddir u32, bs u32 (24 bytes) */
    memset(raw, 0, sizeof raw);
    for (int i = 0; i < 4; i++) {
        unsigned char *p = raw + 24 * i;
        put64(p, 10 + i);
        put64(p + 8, 1000 + i);
        put32(p + 16, i & 1);
        put32(p + 20, 4096);
    }
    fsc_logseries *s = fz_roundtrip(raw, 4 * 24, &warn);
    assert_int_equal(warn, 0);
    assert_false(s->cols & FSC_COLBIT(FSC_COL_PRIO));
    assert_column(s, FSC_COL_VALUE, (int64_t[]){1000, 1001, 1002, 1003}, 4);
    assert_column(s, FSC_COL_DIR, (int64_t[]){0, 1, 0, 1}, 4);
    fsc_logseries_free(s);
    /* B with offsets, fio 3.18 .. 3.36: time, val, ddir|0x80000000, prio u16, bs u64, offset */
    memset(raw, 0, sizeof raw);
    for (int i = 0; i < 4; i++) {
        unsigned char *p = raw + 40 * i;
        put64(p, 10 + i);
        put64(p + 8, 2000 + i);
        put32(p + 16, 0x80000000u | 1);
        p[21] = i == 2 ? 0x20 : 0; /* an RT-class priority 0x2000: (prio >> 13) == 1 */
        put64(p + 24, 8192);
        put64(p + 32, 4096u * i);
    }
    s = fz_roundtrip(raw, 4 * 40, &warn);
    assert_int_equal(warn, 0);
    assert_column(s, FSC_COL_OFFSET, (int64_t[]){0, 4096, 8192, 12288}, 4);
    assert_column(s, FSC_COL_BS, (int64_t[]){8192, 8192, 8192, 8192}, 4);
    assert_column(s, FSC_COL_PRIO, (int64_t[]){0, 0, 1, 0}, 4);
    fsc_logseries_free(s);
    /* C, fio 3.38: time, val0, val1 (max), ddir|avg_max|issue, prio, bs, issue time */
    memset(raw, 0, sizeof raw);
    for (int i = 0; i < 4; i++) {
        unsigned char *p = raw + 48 * i;
        put64(p, 200 * (i + 1));
        put64(p + 8, 300 + i);
        put64(p + 16, 900 + i);
        put32(p + 24, 0x20000000u | 0x10000000u);
        put64(p + 32, 0);
        put64(p + 40, 123456 + i);
    }
    s = fz_roundtrip(raw, 4 * 48, &warn);
    assert_int_equal(warn, 0);
    assert_column(s, FSC_COL_MAX, (int64_t[]){900, 901, 902, 903}, 4);
    assert_column(s, FSC_COL_ISSUE, (int64_t[]){123456, 123457, 123458, 123459}, 4);
    fsc_logseries_free(s);
}

/* ---- the store ---- */

static void test_store_spill(void **state)
{
    (void)state;
    setenv("FIOSCOPE_LOG_MEM_BLOCKS", "0", 1); /* every block but the newest to the file */
    const size_t n = 3 * FSC_LOG_BLOCK + 123;
    fsc_logseries *a = fsc_logseries_new(FSC_LOG_CLAT, 3), *b = fsc_logseries_new(FSC_LOG_CLAT, 3);
    static const fsc_logcol names[] = {FSC_COL_T, FSC_COL_VALUE, FSC_COL_DIR};
    fsc_logseries_name_columns(a, names);
    fsc_logseries_name_columns(b, names);
    fsc_logseries_set_spill(b, false); /* a piece: taken over without a copy */
    for (size_t i = 0; i < n; i++) {
        int64_t row[3] = {(int64_t)i / 7, (int64_t)(i * 2654435761u % 1000003) - 5, (int64_t)i % 3};
        assert_true(fsc_logseries_append(i < n / 2 ? a : b, row));
    }
    assert_true(fsc_logseries_concat(a, b));
    assert_int_equal(b->n, 0);
    assert_int_equal(a->n, n);
    int64_t *v = malloc(n * sizeof *v);
    assert_non_null(v);
    /* read in odd steps across block boundaries */
    for (size_t first = 0; first < n; first += 9999) {
        size_t got = fsc_logseries_read(a, first, 9999, FSC_COL_VALUE, v);
        assert_int_equal(got, first + 9999 <= n ? 9999 : n - first);
        for (size_t i = 0; i < got; i++)
            assert_int_equal(v[i], (int64_t)((first + i) * 2654435761u % 1000003) - 5);
    }
    assert_int_equal(fsc_logseries_read(a, n - 1, 5, FSC_COL_T, v), 1);
    assert_int_equal(v[0], (int64_t)(n - 1) / 7);
    assert_int_equal(fsc_logseries_read(a, 0, 5, FSC_COL_BS, v), 0); /* absent column */
    /* a copy (blocks in the file): the other path of concat */
    fsc_logseries *c = fsc_logseries_new(FSC_LOG_CLAT, 3);
    fsc_logseries_name_columns(c, names);
    assert_true(fsc_logseries_concat(c, a));
    assert_int_equal(c->n, n);
    assert_int_equal(fsc_logseries_read(c, 5 * 7, 1, FSC_COL_T, v), 1);
    assert_int_equal(v[0], 5);
    free(v);
    fsc_logseries_free(a);
    fsc_logseries_free(b);
    fsc_logseries_free(c);
    unsetenv("FIOSCOPE_LOG_MEM_BLOCKS");
}

static void test_store_hist(void **state)
{
    (void)state;
    fsc_logseries *h = fsc_logseries_new(FSC_LOG_CLAT_HIST, 0);
    uint64_t bins[29] = {0}, out[29];
    bins[3] = 7;
    bins[28] = 1;
    assert_true(fsc_logseries_append_hist(h, 500, 1, 4096, bins, 29));
    assert_false(fsc_logseries_append_hist(h, 1000, 1, 4096, bins, 28)); /* other width */
    assert_true(fsc_logseries_hist_row(h, 0, out));
    assert_memory_equal(out, bins, sizeof bins);
    assert_false(fsc_logseries_hist_row(h, 1, out));
    assert_column(h, FSC_COL_T, (int64_t[]){500}, 1);
    fsc_logseries_free(h);
}

/* ---- resampling and statistics ---- */

static fsc_logseries *series_of(fsc_logkind k, const char *text)
{
    static const char *const names[] = {"j_bw.1.log", "j_iops.1.log", "j_lat.1.log",
                                        "j_clat.1.log", "j_slat.1.log"};
    fsc_logfile *f = read_text(names[k], text);
    fsc_logseries *s = only_series(f, "fio-3.33");
    fsc_logfile_free(f);
    return s;
}

static void test_resample(void **state)
{
    (void)state;
    /* per-I/O iops log: 3 I/Os in the first second, 1 in the third */
    fsc_logseries *s = series_of(FSC_LOG_IOPS, "10, 1, 0, 4096, 0\n500, 1, 1, 4096, 0\n"
                                                "999, 1, 0, 4096, 0\n2500, 1, 0, 4096, 0\n");
    assert_true(fsc_ts_per_io(s));
    fsc_ts_opts o = {.step_ms = 0, .dir = -1, .origin_ms = NAN};
    fsc_tsgrid g;
    assert_int_equal(fsc_ts_resample(s, &o, &g), FSC_OK);
    assert_int_equal(g.n, 3);
    assert_true(g.step_ms == 1000);
    assert_true(g.v[0] == 3 && g.v[1] == 0 && g.v[2] == 1);
    fsc_tsgrid_free(&g);
    o.dir = FSC_DIR_WRITE;
    assert_int_equal(fsc_ts_resample(s, &o, &g), FSC_OK);
    assert_true(g.v[0] == 1);
    fsc_tsgrid_free(&g);
    fsc_logseries_free(s);
    /* averaged bw (log_avg_msec=200), two directions: summed per window */
    s = series_of(FSC_LOG_BW, "200, 100, 0, 0, 0\n200, 50, 1, 0, 0\n401, 120, 0, 0, 0\n"
                              "401, 40, 1, 0, 0\n600, 110, 0, 0, 0\n");
    assert_false(fsc_ts_per_io(s));
    assert_true(fsc_ts_period(s) == 200);
    o.dir = -1;
    assert_int_equal(fsc_ts_resample(s, &o, &g), FSC_OK);
    assert_int_equal(g.n, 3);
    assert_true(g.v[0] == 150 && g.v[1] == 160 && g.v[2] == 110);
    fsc_tsgrid_free(&g);
    /* resampled to 600 ms: the mean of the windows, per direction, summed */
    o.step_ms = 600;
    assert_int_equal(fsc_ts_resample(s, &o, &g), FSC_OK);
    assert_int_equal(g.n, 1);
    assert_true(g.v[0] == 110 + 45);
    fsc_tsgrid_free(&g);
    fsc_logseries_free(s);
    /* latencies: the mean of the I/Os; two clones combined weighted by I/Os */
    fsc_logseries *c1 = series_of(FSC_LOG_CLAT, "100, 10, 0, 4096, 0\n200, 20, 0, 4096, 0\n");
    fsc_logseries *c2 = series_of(FSC_LOG_CLAT, "300, 60, 0, 4096, 0\n");
    fsc_tsgrid gg[2], all;
    o.step_ms = 0;
    assert_int_equal(fsc_ts_resample(c1, &o, &gg[0]), FSC_OK);
    assert_int_equal(fsc_ts_resample(c2, &o, &gg[1]), FSC_OK);
    assert_int_equal(fsc_ts_combine(gg, 2, &all), FSC_OK);
    assert_true(all.v[0] == (10.0 + 20 + 60) / 3);
    assert_true(all.w[0] == 3);
    fsc_tsgrid_free(&gg[0]);
    fsc_tsgrid_free(&gg[1]);
    fsc_tsgrid_free(&all);
    fsc_logseries_free(c1);
    fsc_logseries_free(c2);
}

static void test_origin(void **state)
{
    (void)state;
    fsc_logseries *s = series_of(FSC_LOG_BW, "1796087719352, 808, 0, 0, 0\n1796087719852, 792, 0, 0, 0\n");
    const fsc_logseries *list[] = {s};
    assert_true(fsc_ts_origin(list, 1) == 1796087719352.0 - 500); /* its first window's start */
    fsc_ts_opts o = {.step_ms = 0, .dir = -1, .origin_ms = NAN};
    fsc_tsgrid g;
    assert_int_equal(fsc_ts_resample(s, &o, &g), FSC_OK);
    assert_int_equal(g.n, 2);
    fsc_tsgrid_free(&g);
    fsc_logseries_free(s);
}

static void test_stats(void **state)
{
    (void)state;
    double v[] = {10, 12, NAN, 14, 16, 18};
    fsc_tsgrid g = {.kind = FSC_LOG_IOPS, .step_ms = 1000, .n = 6, .v = v};
    fsc_tsstats st;
    assert_true(fsc_ts_stats(&g, &st));
    assert_int_equal(st.n, 5);
    assert_true(st.mean == 14);
    assert_true(fabs(st.stddev - sqrt(10.0)) < 1e-12);
    assert_true(fabs(st.cv - sqrt(10.0) / 14 * 100) < 1e-9);
    assert_true(st.min == 10 && st.max == 18 && st.p50 == 14);
    assert_true(fabs(st.p5 - 10.4) < 1e-12);
    assert_true(st.slope > 1.5 && st.slope < 1.7);
    double none[] = {NAN};
    fsc_tsgrid e = {.kind = FSC_LOG_IOPS, .step_ms = 1000, .n = 1, .v = none};
    assert_false(fsc_ts_stats(&e, &st));
}

static void test_steady_state(void **state)
{
    (void)state;
    fsc_ss_crit c = {.dur_s = 3};
    assert_true(fsc_ss_crit_parse("iops:10%", &c));
    assert_true(c.on_iops && !c.slope && c.pct && c.limit == 10 && c.dur_s == 3);
    assert_true(fsc_ss_crit_parse("bw_slope:2048", &c));
    assert_true(!c.on_iops && c.slope && !c.pct);
    assert_false(fsc_ss_crit_parse("lat:10%", &c));
    assert_false(fsc_ss_crit_parse("iops:x", &c));
    /* deviation: windows {100,200,300} (67%), {200,300,290}, {300,290,310} (3.4%) */
    double v[] = {100, 200, 300, 290, 310, 305};
    fsc_tsgrid g = {.kind = FSC_LOG_IOPS, .step_ms = 1000, .n = 6, .v = v};
    fsc_ss_result r;
    c = (fsc_ss_crit){.dur_s = 3};
    assert_true(fsc_ss_crit_parse("iops:5%", &c));
    assert_int_equal(fsc_ss_detect(&g, &c, &r), FSC_OK);
    assert_true(r.attained);
    assert_int_equal(r.windows, 3);
    assert_true(r.t_ms == 5000);
    assert_true(fabs(r.criterion - 100.0 * 10 / 300) < 1e-9);
    assert_true(r.mean == 300);
    /* slopes 50%, 17%, 1.67% (5 per s of 300), 2.49% (7.5 per s of 301.67): the last
     * window's criterion when none is below the limit */
    c.slope = true;
    c.limit = 1.5;
    assert_int_equal(fsc_ss_detect(&g, &c, &r), FSC_OK);
    assert_false(r.attained);
    assert_true(fabs(r.criterion - 100.0 * 7.5 / (905.0 / 3)) < 1e-9);
    /* bw is judged in bytes/s: 1 KiB/s steps are 1024 */
    c = (fsc_ss_crit){.dur_s = 2, .slope = true, .limit = 1100};
    double w[] = {10, 11};
    fsc_tsgrid gb = {.kind = FSC_LOG_BW, .step_ms = 1000, .n = 2, .v = w};
    assert_int_equal(fsc_ss_detect(&gb, &c, &r), FSC_OK);
    assert_true(r.attained && r.criterion == 1024);
    /* a ramp of 1 s: judging starts 2 s in */
    c = (fsc_ss_crit){.dur_s = 3, .ramp_s = 1, .pct = true, .on_iops = true, .limit = 50};
    assert_int_equal(fsc_ss_detect(&g, &c, &r), FSC_OK);
    assert_true(r.attained && r.t_ms == 5000 && r.windows == 1);
    /* grids of other steps are not judged */
    g.step_ms = 500;
    assert_int_equal(fsc_ss_detect(&g, &c, &r), FSC_E_USAGE);
}

static void test_hist_bins(void **state)
{
    (void)state;
    /* fiologparser_hist.py's numbering of fio's bins (stat.c plat_idx_to_val) */
    assert_true(fsc_hist_bin_value(0, 0, 0.5) == 0.5);
    assert_true(fsc_hist_bin_value(127, 0, 0.0) == 127);
    assert_true(fsc_hist_bin_value(127, 0, 0.5) == 128.5);
    assert_true(fsc_hist_bin_value(128, 0, 0.0) == 128);
    assert_true(fsc_hist_bin_value(1855, 0, 0.0) == 17045651456.0);
    assert_true(fsc_hist_bin_value(1855, 0, 1.0) == 17448304640.0);
    /* coarseness 3: bin i covers fio's bins 8i .. 8i + 8 */
    assert_true(fsc_hist_bin_value(1, 3, 0.0) == 8);
    assert_true(fsc_hist_bin_value(1, 3, 1.0) == 16); /* below 128 a bin is its index */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_names),          cmocka_unit_test(test_layout_2x),
        cmocka_unit_test(test_layout_5th_column), cmocka_unit_test(test_layout_wide),
        cmocka_unit_test(test_hist_layouts),   cmocka_unit_test(test_bad_rows),
        cmocka_unit_test(test_sections_and_pieces), cmocka_unit_test(test_fz_layouts),
        cmocka_unit_test(test_store_spill),    cmocka_unit_test(test_store_hist),
        cmocka_unit_test(test_resample),       cmocka_unit_test(test_origin),
        cmocka_unit_test(test_stats),          cmocka_unit_test(test_steady_state),
        cmocka_unit_test(test_hist_bins),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
