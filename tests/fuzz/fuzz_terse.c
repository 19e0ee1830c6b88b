/* SPDX-License-Identifier: MIT */
/* libFuzzer target: every line of the input through fsc_terse_detect, and each one it
 * takes for a terse record through fsc_terse_read into one run, written as JSON. */
#include "fioscope/buf.h"
#include "fioscope/model_json.h"
#include "parse_int.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#ifndef FUZZ_ENTRY /* the replay test includes several targets under other names */
#define FUZZ_ENTRY LLVMFuzzerTestOneInput
#endif

int FUZZ_ENTRY(const uint8_t *data, size_t size);

int FUZZ_ENTRY(const uint8_t *data, size_t size)
{
    fsc_run *run = fsc_run_new();
    if (!run)
        return 0;
    const char *s = (const char *)data, *end = s + size;
    uint32_t lineno = 1;
    while (s < end) {
        const char *nl = memchr(s, '\n', (size_t)(end - s));
        size_t n = nl ? (size_t)(nl - s) : (size_t)(end - s);
        if (fsc_terse_detect(s, n) && fsc_terse_read(run, s, n, lineno) == FSC_E_NOMEM)
            break;
        s += n + 1;
        lineno++;
    }
    fsc_buf out = {0};
    fsc_jw w;
    fsc_jw_init(&w, &out, false, true);
    fsc_json_opts o = {.damage = true};
    fsc_model_write_run(&w, run, &o);
    fsc_buf_free(&out);
    fsc_run_free(run);
    return 0;
}
