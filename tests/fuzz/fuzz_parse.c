/* SPDX-License-Identifier: MIT */
/* libFuzzer target: bytes through the whole input path (normalize, segment, detect,
 * parse normal/JSON/terse, JSON out), freeing everything. */
#include "fioscope/buf.h"
#include "fioscope/model_json.h"
#include "fioscope/parse.h"

#include <stdint.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static bool sink(void *ctx, fsc_run *run)
{
    fsc_buf *out = ctx;
    fsc_jw w;
    fsc_jw_init(&w, out, false, true);
    fsc_json_opts o = {.damage = true};
    fsc_model_write_run(&w, run, &o);
    for (size_t i = 0; i < run->n_jobs; i++) {
        char *label = fsc_job_label(run, &run->jobs[i], FSC_LABEL_HEADING);
        free(label);
    }
    fsc_run_free(run);
    fsc_buf_reset(out);
    return true;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static fsc_parser *parser;
    if (!parser) {
        fsc_buf err = {0};
        parser = fsc_parser_new(NULL, &err);
        fsc_buf_free(&err);
        if (!parser)
            abort();
    }
    fsc_doc doc = {"fuzz", NULL, (const char *)data, size, 0, 0, NULL, false, FSC_ENC_UTF8, false};
    fsc_buf out = {0};
    size_t n_runs;
    char *why = NULL;
    (void)fsc_parse_doc_why(parser, &doc, sink, &out, &n_runs, &why);
    free(why);
    fsc_buf_free(&out);
    return 0;
}
