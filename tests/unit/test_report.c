/* SPDX-License-Identifier: MIT */
/* Templates (escaping, sections), chart builders on real fio 3.33 JSON, and PNGs
 * that are the right size, not blank and byte-for-byte reproducible. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include "emit/tpl.h"
#include "fioscope/chart.h"
#include "parse_int.h"

#include <cairo.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- helpers ---- */

/* The JSON part of a corpus fio-3.33-oracle file (normal text after it is ignored). */
static fsc_run *oracle_run(const char *name)
{
    const char *corpus = getenv("FSC_CORPUS");
    char path[1024];
    snprintf(path, sizeof path, "%s/fio-3.33-oracle/%s", corpus ? corpus : "corpus", name);
    FILE *f = fopen(path, "rb");
    if (!f)
        fail_msg("cannot open %s", path);
    static char data[1 << 20];
    size_t n = fread(data, 1, sizeof data - 1, f);
    fclose(f);
    data[n] = 0;
    const char *js = strstr(data, "\n{");
    assert_non_null(js);
    fsc_buf err = {0};
    fsc_run *run = fsc_json_read(js + 1, n - (size_t)(js + 1 - data), &err);
    if (!run)
        fail_msg("%s: %s", path, err.data ? err.data : "?");
    fsc_buf_free(&err);
    return run;
}

static cairo_status_t read_png(void *closure, unsigned char *data, unsigned int len)
{
    fsc_buf *b = closure;
    if (b->cap + len > b->len) /* cap is used as the read offset here */
        return CAIRO_STATUS_READ_ERROR;
    memcpy(data, b->data + b->cap, len);
    b->cap += len;
    return CAIRO_STATUS_SUCCESS;
}

/* Decode png; return the share of pixels that are not white, and the count of
 * distinct colours among the first 64 seen. */
static double ink_share(const fsc_buf *png, int *w, int *h, int *colours)
{
    fsc_buf rd = {png->data, png->len, 0, false};
    cairo_surface_t *s = cairo_image_surface_create_from_png_stream(read_png, &rd);
    assert_int_equal(cairo_surface_status(s), CAIRO_STATUS_SUCCESS);
    *w = cairo_image_surface_get_width(s);
    *h = cairo_image_surface_get_height(s);
    int stride = cairo_image_surface_get_stride(s);
    const unsigned char *px = cairo_image_surface_get_data(s);
    uint32_t seen[64];
    size_t ink = 0;
    *colours = 0;
    for (int y = 0; y < *h; y++)
        for (int x = 0; x < *w; x++) {
            uint32_t v = *(const uint32_t *)(px + y * stride + x * 4) & 0xFFFFFF;
            if (v == 0xFFFFFF)
                continue;
            ink++;
            bool known = false;
            for (int i = 0; i < *colours && !known; i++)
                known = seen[i] == v;
            if (!known && *colours < 64)
                seen[(*colours)++] = v;
        }
    cairo_surface_destroy(s);
    return (double)ink / ((double)*w * *h);
}

/* ---- templates ---- */

static void test_tpl_escapes(void **state)
{
    (void)state;
    const char tpl[] = "<p>{{name}}</p><i>{{{name}}}</i>{{{table}}}{{#rows}}[{{v}}]{{/rows}}"
                       "{{^none}}empty{{/none}}{{#flag}}F{{/flag}}";
    fsc_tpl_vars *v = fsc_tpl_vars_new();
    assert_true(fsc_tpl_set(v, "name", "</script><b>x & 'y'"));
    assert_true(fsc_tpl_set_trusted(v, "table", "<table></table>"));
    assert_true(fsc_tpl_set(v, "flag", ""));
    assert_true(fsc_tpl_set(fsc_tpl_add_item(v, "rows"), "v", "1"));
    assert_true(fsc_tpl_set(fsc_tpl_add_item(v, "rows"), "v", "<2>"));
    fsc_buf out = {0}, err = {0};
    assert_int_equal(fsc_tpl_render("t", tpl, sizeof tpl - 1, v, FSC_TPL_HTML, &out, &err), FSC_OK);
    /* Untrusted text is escaped even in a triple-brace slot. */
    assert_string_equal(out.data, "<p>&lt;/script&gt;&lt;b&gt;x &amp; &#39;y&#39;</p>"
                                  "<i>&lt;/script&gt;&lt;b&gt;x &amp; &#39;y&#39;</i>"
                                  "<table></table>[1][&lt;2&gt;]empty");
    fsc_buf_reset(&out);
    const char md[] = "| {{name}} |";
    assert_int_equal(fsc_tpl_render("m", md, sizeof md - 1, v, FSC_TPL_MD, &out, &err), FSC_OK);
    assert_string_equal(out.data, "| &lt;/script&gt;&lt;b&gt;x &amp; 'y' |");
    fsc_buf_free(&out);
    fsc_tpl_vars_free(v);
    fsc_buf_free(&err);
}

static void test_tpl_errors(void **state)
{
    (void)state;
    fsc_tpl_vars *v = fsc_tpl_vars_new();
    fsc_buf out = {0}, err = {0};
    const char missing[] = "a\nb {{nope}}";
    assert_int_equal(fsc_tpl_render("x.tpl", missing, sizeof missing - 1, v, FSC_TPL_HTML, &out, &err),
                     FSC_E_SYNTAX);
    assert_string_equal(err.data, "x.tpl:2: no value for 'nope'");
    fsc_buf_reset(&err);
    const char open[] = "{{#rows}}x";
    assert_int_equal(fsc_tpl_render("y.tpl", open, sizeof open - 1, v, FSC_TPL_HTML, &out, &err),
                     FSC_E_SYNTAX);
    assert_non_null(strstr(err.data, "unclosed section 'rows'"));
    /* Both report templates are compiled in. */
    size_t len = 0;
    assert_non_null(fsc_template_get("report.html.tpl", &len));
    assert_true(len > 1000);
    assert_non_null(fsc_template_get("report.md.tpl", &len));
    fsc_buf_free(&out);
    fsc_buf_free(&err);
    fsc_tpl_vars_free(v);
}

/* ---- charts ---- */

static void test_percentile_png(void **state)
{
    (void)state;
    fsc_runset set;
    fsc_runset_init(&set);
    assert_true(fsc_runset_add(&set, oracle_run("libaio-mixed-2j.normal+json.txt")));
    assert_true(fsc_runset_add(&set, oracle_run("psync-randread.normal+json.txt")));
    fsc_chart *c = fsc_chart_percentiles(&set, FSC_LAT_CLAT, FSC_LABEL_JOB);
    assert_non_null(c);
    /* two mix jobs × read/write, plus rr4k read; clones are told apart. */
    assert_int_equal(c->n_series, 5);
    assert_string_equal(c->series[0].name, "mix (read)");
    assert_string_equal(c->series[2].name, "mix (read) #2");
    assert_string_equal(c->series[4].name, "rr4k");
    /* fio's own clat percentile 1.000000 of job mix, read: 30336 ns */
    assert_true(c->series[0].x[0] == 1.0 && c->series[0].y[0] == 30336);

    fsc_buf a = {0}, b = {0}, err = {0};
    assert_int_equal(fsc_chart_png(c, 1600, 900, &a, &err), FSC_OK);
    assert_int_equal(fsc_chart_png(c, 1600, 900, &b, &err), FSC_OK);
    assert_int_equal(a.len, b.len);
    assert_memory_equal(a.data, b.data, a.len); /* deterministic */
    int w, h, colours;
    double ink = ink_share(&a, &w, &h, &colours);
    assert_int_equal(w, 1600);
    assert_int_equal(h, 900);
    assert_true(ink > 0.01 && ink < 0.5);
    assert_true(colours >= 6); /* five series colours plus grid and text greys */
    fsc_buf_reset(&a);
    assert_int_equal(fsc_chart_png(c, 800, 450, &a, &err), FSC_OK);
    ink = ink_share(&a, &w, &h, &colours);
    assert_true(w == 800 && h == 450 && ink > 0.01);
    assert_int_equal(fsc_chart_png(c, 50, 50, &a, &err), FSC_E_USAGE);
    fsc_buf_free(&a);
    fsc_buf_free(&b);
    fsc_buf_free(&err);
    fsc_chart_free(c);
    fsc_runset_clear(&set);
}

static void test_buckets(void **state)
{
    (void)state;
    fsc_runset set;
    fsc_runset_init(&set);
    assert_true(fsc_runset_add(&set, oracle_run("libaio-mixed-2j.normal+json.txt")));
    fsc_chart *c = fsc_chart_buckets(&set, FSC_LABEL_JOB);
    assert_non_null(c);
    assert_int_equal(c->n_series, 2);
    size_t k250 = SIZE_MAX;
    for (size_t i = 0; i < c->n_categories; i++)
        if (!strcmp(c->categories[i], "250 µs"))
            k250 = i;
    assert_true(k250 != SIZE_MAX);
    /* latency_us "250" of the first mix job in fio's JSON */
    assert_true(c->series[0].y[k250] == 51.737812);
    /* The first category is the first bucket any job filled: latency_ns "1000" of
     * the second job (0.01%), shown as 1 µs; the next is latency_us "2". */
    assert_string_equal(c->categories[0], "1 µs");
    assert_string_equal(c->categories[1], "2 µs");
    assert_true(c->series[1].y[0] == 0.01);
    fsc_buf png = {0}, err = {0};
    assert_int_equal(fsc_chart_png(c, 1600, 900, &png, &err), FSC_OK);
    int w, h, colours;
    assert_true(ink_share(&png, &w, &h, &colours) > 0.01);
    fsc_buf_free(&png);
    fsc_buf_free(&err);
    fsc_chart_free(c);
    fsc_runset_clear(&set);
}

static void test_disk_util(void **state)
{
    (void)state;
    fsc_runset set;
    fsc_runset_init(&set);
    assert_true(fsc_runset_add(&set, oracle_run("psync-randread.normal+json.txt")));
    fsc_chart *c = fsc_chart_disk_util(&set);
    assert_non_null(c);
    assert_true(c->n_categories >= 1);
    assert_true(set.runs[0]->n_disk_util >= 1);
    assert_string_equal(c->categories[0], set.runs[0]->disk_util[0].name);
    assert_true(c->series[0].y[0] == set.runs[0]->disk_util[0].util.v);
    assert_true(c->series[0].y[0] > 0);
    fsc_chart_free(c);
    fsc_runset_clear(&set);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tpl_escapes), cmocka_unit_test(test_tpl_errors),
        cmocka_unit_test(test_percentile_png), cmocka_unit_test(test_buckets),
        cmocka_unit_test(test_disk_util),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    fsc_chart_shutdown();
    return rc;
}
