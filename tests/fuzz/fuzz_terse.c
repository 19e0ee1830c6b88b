/* SPDX-License-Identifier: MIT */
/* Differential libFuzzer target: every line of the input through fsc_terse_detect, and
 * each one it takes for a terse record through fsc_terse_read into one run, written as
 * JSON; the same lines through the references (fsc_terse_detect_ref, fsc_terse_read_ref:
 * the scalar split, the layout tree walked spec by spec, the general decimal reader)
 * into another. Detection and the two runs' JSON (with the damage report) must be
 * identical; any difference aborts with both texts. */
#include "fioscope/buf.h"
#include "fioscope/model_json.h"
#include "parse_int.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef FUZZ_ENTRY /* the replay test includes several targets under other names */
#define FUZZ_ENTRY LLVMFuzzerTestOneInput
#endif

int FUZZ_ENTRY(const uint8_t *data, size_t size);

static void terse_json(fsc_run *run, fsc_buf *out)
{
    fsc_jw w;
    fsc_jw_init(&w, out, false, true);
    fsc_json_opts o = {.damage = true};
    fsc_model_write_run(&w, run, &o);
}

/* The fast reader against the reference on data; true when they agree. */
static bool terse_same(const uint8_t *data, size_t size)
{
    fsc_run *fast = fsc_run_new(), *ref = fsc_run_new();
    bool same = true;
    const char *s = (const char *)data, *end = s + size;
    uint32_t lineno = 1;
    while (fast && ref && s < end) {
        const char *nl = memchr(s, '\n', (size_t)(end - s));
        size_t n = nl ? (size_t)(nl - s) : (size_t)(end - s);
        int v = fsc_terse_detect(s, n), vr = fsc_terse_detect_ref(s, n);
        if (v != vr) {
            fprintf(stderr, "terse detection differs on line %u: %d (fast) vs %d (reference)\n", lineno, v, vr);
            same = false;
            break;
        }
        if ((v || (n && s[0] == ';')) && (fsc_terse_read(fast, s, n, lineno) == FSC_E_NOMEM ||
                  fsc_terse_read_ref(ref, s, n, lineno) == FSC_E_NOMEM))
            break;
        s += n + 1;
        lineno++;
    }
    if (fast && ref) {
        fsc_buf a = {0}, b = {0};
        terse_json(fast, &a);
        terse_json(ref, &b);
        if (a.len != b.len || (a.len && memcmp(a.data, b.data, a.len) != 0)) {
            fprintf(stderr, "terse reader differs:\n--- reference\n%s\n--- fast\n%s\n", b.data ? b.data : "",
                    a.data ? a.data : "");
            same = false;
        }
        fsc_buf_free(&a);
        fsc_buf_free(&b);
    }
    fsc_run_free(fast);
    fsc_run_free(ref);
    return same;
}

int FUZZ_ENTRY(const uint8_t *data, size_t size)
{
    if (!terse_same(data, size))
        abort();
    return 0;
}
