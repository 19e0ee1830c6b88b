/* SPDX-License-Identifier: MIT */
/* The documentation of names (fioscope/metric_list.h): complete against the metric
 * registry and the analysis dimensions, a meaning for every name, and the nearest
 * name for a typo. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "fioscope/analyze.h"
#include "fioscope/metric.h"
#include "fioscope/metric_list.h"

typedef struct seen {
    fsc_buf names; /* "\nname\n" entries of the concrete listing */
    size_t n, n_metric, n_dim;
} seen;

static void check_doc(void *ctx, const fsc_name_doc *d)
{
    seen *s = ctx;
    s->n++;
    assert_non_null(d->help);
    assert_true(strlen(d->help) > 3);
    assert_null(strstr(d->help, "no description yet")); /* a new name needs its meaning */
    s->n_metric += d->kind == FSC_NAME_METRIC;
    s->n_dim += d->kind == FSC_NAME_DIMENSION;
}

static void test_complete(void **state)
{
    (void)state;
    seen s = {0};
    fsc_name_docs(check_doc, &s);
    assert_true(s.n_dim >= FSC_DIM_COUNT);
    assert_true(s.n_metric > 60);
    fsc_buf names = {0};
    fsc_buf_putc(&names, '\n');
    assert_int_equal(fsc_name_docs_write(&names, "names"), FSC_OK);
    /* every name the registry offers is listed, and every listed name parses */
    size_t nb;
    const char *const *base = fsc_metric_base_names(&nb);
    for (size_t i = 0; i < nb; i++) {
        fsc_mspec spec;
        if (!fsc_mspec_parse(base[i], strlen(base[i]), &spec))
            continue; /* offered for suggestions only */
        char want[96];
        snprintf(want, sizeof want, "\n%s\n", base[i]);
        if (!strstr(names.data, want))
            fail_msg("'%s' of the metric registry is not listed", base[i]);
    }
    for (int d = 0; d < FSC_DIM_COUNT; d++) {
        char want[96];
        snprintf(want, sizeof want, "\n%s\n", fsc_dim_get((fsc_dim)d)->name);
        assert_non_null(strstr(names.data, want));
    }
    for (char *p = names.data + 1, *nl; (nl = strchr(p, '\n')) != NULL; p = nl + 1) {
        fsc_mspec spec;
        if (!fsc_mspec_parse(p, (size_t)(nl - p), &spec))
            fail_msg("listed name '%.*s' is no metric", (int)(nl - p), p);
    }
    fsc_buf_free(&names);
    fsc_buf other = {0};
    assert_int_equal(fsc_name_docs_write(&other, "xml"), FSC_E_USAGE);
    fsc_buf_free(&other);
}

static void test_nearest(void **state)
{
    (void)state;
    fsc_buf b = {0};
    assert_true(fsc_metric_nearest("iopz", &b));
    assert_string_equal(b.data, "iops");
    fsc_buf_reset(&b);
    assert_true(fsc_metric_nearest("read.clat_ns.p999", &b));
    assert_string_equal(b.data, "read.clat_ns.p99");
    fsc_buf_reset(&b);
    assert_true(fsc_metric_nearest("sytem", &b));
    assert_string_equal(b.data, "system");
    fsc_buf_reset(&b);
    assert_false(fsc_metric_nearest("completely-unrelated-words", &b));
    assert_int_equal(b.len, 0);
    fsc_buf_free(&b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_complete),
        cmocka_unit_test(test_nearest),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
