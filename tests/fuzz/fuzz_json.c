/* SPDX-License-Identifier: MIT */
/* libFuzzer target: bytes straight into the fio JSON reader (fsc_json_read), then the
 * run it returns through the contract JSON writer, freeing everything. */
#include "fioscope/buf.h"
#include "fioscope/model_json.h"
#include "parse_int.h"

#include <stdint.h>
#include <stdlib.h>

#ifndef FUZZ_ENTRY /* the replay test includes several targets under other names */
#define FUZZ_ENTRY LLVMFuzzerTestOneInput
#endif

int FUZZ_ENTRY(const uint8_t *data, size_t size);

int FUZZ_ENTRY(const uint8_t *data, size_t size)
{
    fsc_buf err = {0}, out = {0};
    fsc_run *run = fsc_json_read((const char *)data, size, &err);
    if (run) {
        fsc_jw w;
        fsc_jw_init(&w, &out, false, true);
        fsc_json_opts o = {.damage = true};
        fsc_model_write_run(&w, run, &o);
        fsc_run_free(run);
    }
    fsc_buf_free(&out);
    fsc_buf_free(&err);
    return 0;
}
