/* SPDX-License-Identifier: MIT */
/*
 * The chart engine by structure: the SVG's text and elements (fonts differ between
 * machines, so no pixel is compared). Ticks in the unit's own multiples, shares on a
 * 0-100% axis, room for the tallest value, names cut in the middle, the cap on bars,
 * repeats, panels, twin axes, heat maps, escaping, provenance in PNG/SVG/PDF.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include "fioscope/chart.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* FSC_CHART_DUMP=DIR writes every chart drawn here as DIR/N.png, to look at. */
static void dump(const fsc_chart *c, int w, int h)
{
    static int n;
    const char *dir = getenv("FSC_CHART_DUMP");
    if (!dir)
        return;
    fsc_buf png = {0}, err = {0};
    char path[512];
    snprintf(path, sizeof path, "%s/%02d.png", dir, n++);
    if (fsc_chart_render(c, FSC_CHART_PNG, w, h, &png, &err) == FSC_OK) {
        FILE *f = fopen(path, "wb");
        if (f) {
            fwrite(png.data, 1, png.len, f);
            fclose(f);
        }
    }
    fsc_buf_free(&png);
    fsc_buf_free(&err);
}

static char *svg_of(const fsc_chart *c, int w, int h)
{
    dump(c, w, h);
    fsc_buf out = {0}, err = {0};
    assert_int_equal(fsc_chart_render(c, FSC_CHART_SVG, w, h, &out, &err), FSC_OK);
    fsc_buf_free(&err);
    assert_non_null(out.data);
    return out.data;
}

/* Does the SVG hold a <text class="cls" ...>text</text>? */
static bool has_text(const char *svg, const char *cls, const char *text)
{
    char want[512];
    snprintf(want, sizeof want, ">%s</text>", text);
    for (const char *p = strstr(svg, want); p; p = strstr(p + 1, want)) {
        const char *open = p;
        while (open > svg && *open != '<')
            open--;
        char c[64];
        snprintf(c, sizeof c, "<text class=\"%s\"", cls);
        if (!strncmp(open, c, strlen(c)))
            return true;
    }
    return false;
}

static size_t count(const char *svg, const char *needle)
{
    size_t n = 0;
    for (const char *p = strstr(svg, needle); p; p = strstr(p + 1, needle))
        n++;
    return n;
}

static fsc_chart *bars(const char *title, fsc_unit u, const double *v, size_t n)
{
    fsc_chart *c = fsc_chart_new(FSC_CHART_BAR, title);
    assert_true(fsc_chart_axes(c, "job", FSC_UNIT_NONE, "value", u));
    fsc_series *s = fsc_chart_add_series(c, "s");
    for (size_t i = 0; i < n; i++) {
        char name[32];
        snprintf(name, sizeof name, "job %zu", i);
        assert_true(fsc_chart_add_category(c, name));
        s = &c->series[0];
        assert_true(fsc_series_add(s, (double)i, v[i]));
    }
    return c;
}

/* Bandwidth bars 200x apart: a log axis with IEC decades, not 9.537 MiB/s. */
static void test_iec_decades(void **state)
{
    (void)state;
    const double v[] = {12.0 * 1048576, 300.0 * 1048576, 3.0 * 1073741824};
    fsc_chart *c = bars("BW", FSC_UNIT_BYTES_PER_S, v, 3);
    char *svg = svg_of(c, 1600, 900);
    assert_true(has_text(svg, "tick", "10 MiB/s"));
    assert_true(has_text(svg, "tick", "100 MiB/s"));
    assert_true(has_text(svg, "tick", "1 GiB/s"));
    assert_null(strstr(svg, "9.537"));
    assert_true(has_text(svg, "axis-title", "value (log scale)"));
    /* every value has its label, the tallest too */
    assert_true(has_text(svg, "value", "3.00 GiB/s"));
    assert_true(has_text(svg, "value", "12.0 MiB/s"));
    free(svg);
    fsc_chart_free(c);
}

/* IOPS a million apart from 195: decades 100, 1k ... 1M, and the 1.01M bar labelled. */
static void test_iops_headroom(void **state)
{
    (void)state;
    const double v[] = {195, 1010000, 999000, 233};
    fsc_chart *c = bars("IOPS", FSC_UNIT_IOPS, v, 4);
    char *svg = svg_of(c, 1600, 900);
    assert_true(has_text(svg, "tick", "100"));
    assert_true(has_text(svg, "tick", "1k"));
    assert_true(has_text(svg, "tick", "1M"));
    assert_true(has_text(svg, "value", "1.01M"));
    assert_true(has_text(svg, "value", "195"));
    free(svg);
    /* small and narrow: the labels still fit somewhere or go upright, never lost */
    svg = svg_of(c, 400, 300);
    assert_true(has_text(svg, "value", "1.01M"));
    free(svg);
    fsc_chart_free(c);
}

/* Shares stay on a linear 0-100% axis, whatever their spread. */
static void test_percent_linear(void **state)
{
    (void)state;
    const double v[] = {0.3, 41.2, 100};
    fsc_chart *c = bars("util", FSC_UNIT_PCT, v, 3);
    char *svg = svg_of(c, 1600, 900);
    assert_true(has_text(svg, "tick", "0"));
    assert_true(has_text(svg, "tick", "100"));
    assert_true(has_text(svg, "tick", "60"));
    assert_null(strstr(svg, "log scale"));
    assert_true(has_text(svg, "axis-title", "value (%)"));
    free(svg);
    fsc_chart_free(c);
}

/* Block sizes on a line chart read 4 KiB ... 1 MiB, not 4096 ... 1.05e+06. */
static void test_bs_ticks(void **state)
{
    (void)state;
    fsc_chart *c = fsc_chart_new(FSC_CHART_LINE, "bw over bs");
    assert_true(fsc_chart_axes(c, "bs", FSC_UNIT_BYTES, "bandwidth", FSC_UNIT_BYTES_PER_S));
    fsc_series *s = fsc_chart_add_series(c, "sys");
    const double bs[] = {4096, 16384, 65536, 1048576};
    for (size_t i = 0; i < 4; i++)
        assert_true(fsc_series_add(s, bs[i], 1e8 * (double)(i + 1)));
    char *svg = svg_of(c, 1600, 900);
    assert_true(has_text(svg, "tick", "4 KiB"));
    assert_true(has_text(svg, "tick", "64 KiB"));
    assert_true(has_text(svg, "tick", "1 MiB"));
    assert_true(has_text(svg, "axis-title", "bs (log scale)"));
    assert_null(strstr(svg, "e+06"));
    free(svg);
    fsc_chart_free(c);
}

/* Long names are cut in the middle: the distinguishing end stays. */
static void test_middle_cut(void **state)
{
    (void)state;
    fsc_chart *c = fsc_chart_new(FSC_CHART_BAR, "cut");
    assert_true(fsc_chart_axes(c, "job", FSC_UNIT_NONE, "IOPS", FSC_UNIT_IOPS));
    fsc_series *s = fsc_chart_add_series(c, "IOPS");
    for (int i = 0; i < 24; i++) {
        char name[128];
        snprintf(name, sizeof name, "a very long common heading of the document › section › job_%02d_end", i);
        assert_true(fsc_chart_add_category(c, name));
        s = &c->series[0];
        assert_true(fsc_series_add(s, i, 1000 + i));
    }
    char *svg = svg_of(c, 800, 450);
    /* the shared heading prefix is said once, in the axis title */
    assert_non_null(strstr(svg, "(all under"));
    assert_non_null(strstr(svg, "job_07_end</text>"));
    free(svg);
    fsc_chart_free(c);
}

/* More bars than fit: the first ones, and a visible note that says so. */
static void test_cap_note(void **state)
{
    (void)state;
    double v[300];
    for (int i = 0; i < 300; i++)
        v[i] = 100 + i;
    fsc_chart *c = bars("many", FSC_UNIT_IOPS, v, 300);
    char *svg = svg_of(c, 1600, 900);
    assert_non_null(strstr(svg, "class=\"note\""));
    assert_non_null(strstr(svg, "Only the first 36 of 300 jobs are drawn"));
    assert_true(count(svg, "<rect") < 60);
    free(svg);
    fsc_chart_free(c);
}

/* Panels with one colour per system, repeats as dots, % against the baseline. */
static void test_panels_repeats(void **state)
{
    (void)state;
    fsc_chart *c = fsc_chart_new(FSC_CHART_BAR, "IOPS per workload");
    assert_true(fsc_chart_axes(c, NULL, FSC_UNIT_NONE, "IOPS", FSC_UNIT_IOPS));
    const char *wl[] = {"randread 4k", "randwrite 4k"};
    for (int w = 0; w < 2; w++) {
        fsc_chart *p = fsc_chart_add_panel(c, wl[w]);
        assert_non_null(p);
        assert_true(fsc_chart_add_category(p, "read"));
        const char *sys[] = {"sysA", "sysB"};
        for (int k = 0; k < 2; k++) {
            fsc_series *s = fsc_chart_add_series(p, sys[k]);
            s->color = k;
            assert_true(fsc_series_add(s, 0, k ? 2000 : 1000));
            assert_true(fsc_series_add_repeat(s, 0, k ? 1900 : 990));
            assert_true(fsc_series_add_repeat(s, 0, k ? 2000 : 1000));
            assert_true(fsc_series_add_repeat(s, 0, k ? 2100 : 1010));
        }
        p->baseline = 0;
    }
    char *svg = svg_of(c, 1600, 900);
    assert_int_equal(count(svg, "<g class=\"panel\""), 2);
    assert_non_null(strstr(svg, "data-name=\"randread 4k\""));
    assert_true(has_text(svg, "change", "+100%"));
    assert_true(has_text(svg, "change", "base"));
    /* three dots per bar: 2 panels x 2 systems x 3 */
    assert_int_equal(count(svg, "<circle"), 12);
    /* the legend names each system once, with its colour */
    assert_int_equal(count(svg, "<g class=\"legend-entry\" data-name=\"sysB\""), 1);
    assert_non_null(strstr(svg, "fill=\"#e69f00\""));
    free(svg);
    int w = 1600, h = 900;
    fsc_chart_fit_size(c, &w, &h);
    assert_true(w == 1600 && h == 900); /* two panels fit */
    fsc_chart_free(c);
}

/* IOPS bars and latency on a twin axis. */
static void test_twin_axes(void **state)
{
    (void)state;
    fsc_chart *c = fsc_chart_new(FSC_CHART_LINE, "IOPS over iodepth");
    assert_true(fsc_chart_axes(c, "iodepth", FSC_UNIT_NONE, "IOPS", FSC_UNIT_IOPS));
    assert_true(fsc_chart_set_text(&c->y2_title, "latency"));
    c->y2_unit = FSC_UNIT_NS;
    fsc_series *s = fsc_chart_add_series(c, "sys");
    for (int q = 1; q <= 64; q *= 2)
        assert_true(fsc_series_add(s, q, 10000.0 * q / (1 + q / 16.0)));
    s = fsc_chart_add_series(c, "sys latency");
    s->y2 = true;
    for (int q = 1; q <= 64; q *= 2)
        assert_true(fsc_series_add(s, q, 50000.0 * q));
    char *svg = svg_of(c, 1600, 900);
    assert_non_null(strstr(svg, "<g class=\"y2-axis\""));
    assert_non_null(strstr(svg, "<g class=\"series-y2\" data-name=\"sys latency\""));
    assert_true(has_text(svg, "tick", "1 ms"));
    assert_true(has_text(svg, "tick", "64"));
    free(svg);
    fsc_chart_free(c);
}

static void test_heatmap(void **state)
{
    (void)state;
    fsc_chart *c = fsc_chart_new(FSC_CHART_HEATMAP, "IOPS by iodepth and numjobs");
    assert_true(fsc_chart_axes(c, "numjobs", FSC_UNIT_NONE, "IOPS", FSC_UNIT_IOPS));
    assert_true(fsc_chart_set_text(&c->row_title, "iodepth"));
    for (int j = 1; j <= 8; j *= 2) {
        char n[16];
        snprintf(n, sizeof n, "%d", j);
        assert_true(fsc_chart_add_category(c, n));
    }
    for (int q = 1; q <= 32; q *= 4) {
        char n[16];
        snprintf(n, sizeof n, "%d", q);
        fsc_series *s = fsc_chart_add_series(c, n);
        for (int j = 0; j < 4; j++)
            assert_true(fsc_series_add(s, j, 1000.0 * q * (j + 1)));
    }
    char *svg = svg_of(c, 1600, 900);
    assert_true(has_text(svg, "row", "16"));
    assert_true(has_text(svg, "category", "8"));
    assert_true(has_text(svg, "value", "64.0k"));
    assert_non_null(strstr(svg, "<g class=\"color-scale\""));
    free(svg);
    fsc_chart_free(c);
}

/* Markup, quotes, CJK, right-to-left text and control characters: escaped, valid. */
static void test_escaping(void **state)
{
    (void)state;
    fsc_chart *c = fsc_chart_new(FSC_CHART_BAR, "</text><script>x</script> & \"q\" 'a'");
    assert_true(fsc_chart_axes(c, "job", FSC_UNIT_NONE, "IOPS", FSC_UNIT_IOPS));
    fsc_series *s = fsc_chart_add_series(c, "\x1b[31mred\x1b[0m job");
    assert_string_equal(c->series[0].name, "red job"); /* ANSI colours dropped */
    const char *names[] = {"4k 随机写", "קריאה אקראית", "<b>bold</b>", "bad\x01\x7f byte \xff"};
    for (int i = 0; i < 4; i++) {
        assert_true(fsc_chart_add_category(c, names[i]));
        s = &c->series[0];
        assert_true(fsc_series_add(s, i, 100 * (i + 1)));
    }
    assert_true(fsc_chart_set_text(&c->footnote, "fio-3.33 · a&b.txt"));
    char *svg = svg_of(c, 1600, 900);
    assert_null(strstr(svg, "<script"));
    assert_null(strstr(svg, "<b>"));
    assert_non_null(strstr(svg, "&lt;/text&gt;&lt;script&gt;"));
    assert_non_null(strstr(svg, "&quot;q&quot; &#39;a&#39;"));
    assert_non_null(strstr(svg, ">4k 随机写</text>"));
    assert_non_null(strstr(svg, ">קריאה אקראית</text>"));
    assert_non_null(strstr(svg, ">&lt;b&gt;bold&lt;/b&gt;</text>"));
    assert_non_null(strstr(svg, "<desc>fio-3.33 · a&amp;b.txt</desc>"));
    for (const char *p = svg; *p; p++)
        assert_false((unsigned char)*p < 0x20 && *p != '\n');
    assert_null(strstr(svg, "\xff"));
    free(svg);
    /* PNG: the title and the footnote as iTXt chunks */
    fsc_buf png = {0}, err = {0}, pdf = {0};
    assert_int_equal(fsc_chart_render(c, FSC_CHART_PNG, 800, 450, &png, &err), FSC_OK);
    assert_memory_equal(png.data + 37, "iTXtTitle", 9);
    bool source = false;
    for (size_t i = 0; i + 16 < png.len && !source; i++)
        source = !memcmp(png.data + i, "iTXtSource", 10);
    assert_true(source);
    assert_int_equal(fsc_chart_render(c, FSC_CHART_PDF, 800, 450, &pdf, &err), FSC_OK);
    assert_memory_equal(pdf.data, "%PDF", 4);
    fsc_buf_free(&png);
    fsc_buf_free(&pdf);
    fsc_buf_free(&err);
    fsc_chart_free(c);
}

static void test_formats_and_names(void **state)
{
    (void)state;
    assert_int_equal(fsc_chart_format_from_path("a/b.SVG"), FSC_CHART_SVG);
    assert_int_equal(fsc_chart_format_from_path("x.pdf"), FSC_CHART_PDF);
    assert_int_equal(fsc_chart_format_from_path("x.png"), FSC_CHART_PNG);
    assert_int_equal(fsc_chart_format_from_path("x.jpg"), -1);
    assert_int_equal(fsc_chart_format_from_path("png"), -1);
    assert_int_equal(fsc_chart_type_from_name("heatmap"), FSC_CHART_HEATMAP);
    assert_int_equal(fsc_chart_type_from_name("box"), FSC_CHART_BOX);
    assert_int_equal(fsc_chart_type_from_name("pie"), -1);
    char hex[8];
    fsc_chart_color_hex(0, hex);
    assert_string_equal(hex, "#0072b2");
    /* an SVG whose title is only measured, then fsc_chart_shutdown() at the end of
     * main (the abort this once caused shows in a whole process: run_report_systems) */
    const double one[] = {1};
    fsc_chart *four = bars("Four", FSC_UNIT_IOPS, one, 1);
    free(svg_of(four, 800, 450));
    fsc_chart_free(four);
    /* a chart without data draws "no data" but reports it has none */
    fsc_chart *c = fsc_chart_new(FSC_CHART_BAR, "empty");
    assert_false(fsc_chart_has_data(c));
    fsc_chart_free(c);
}

/* Same chart, same bytes, in every format. */
static void test_deterministic(void **state)
{
    (void)state;
    const double v[] = {1, 2, 3};
    fsc_chart *c = bars("same", FSC_UNIT_IOPS, v, 3);
    for (int f = 0; f < 3; f++) {
        fsc_buf a = {0}, b = {0}, err = {0};
        assert_int_equal(fsc_chart_render(c, (fsc_chart_format)f, 640, 360, &a, &err), FSC_OK);
        assert_int_equal(fsc_chart_render(c, (fsc_chart_format)f, 640, 360, &b, &err), FSC_OK);
        assert_int_equal(a.len, b.len);
        assert_memory_equal(a.data, b.data, a.len);
        fsc_buf_free(&a);
        fsc_buf_free(&b);
        fsc_buf_free(&err);
    }
    fsc_chart_free(c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_iec_decades),   cmocka_unit_test(test_iops_headroom),
        cmocka_unit_test(test_percent_linear), cmocka_unit_test(test_bs_ticks),
        cmocka_unit_test(test_middle_cut),    cmocka_unit_test(test_cap_note),
        cmocka_unit_test(test_panels_repeats), cmocka_unit_test(test_twin_axes),
        cmocka_unit_test(test_heatmap),       cmocka_unit_test(test_escaping),
        cmocka_unit_test(test_formats_and_names), cmocka_unit_test(test_deterministic),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    fsc_chart_shutdown();
    return rc;
}
