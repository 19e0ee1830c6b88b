/* SPDX-License-Identifier: MIT */
/* Grammar loading (stub). */
#include "parse_int.h"

#include <stdlib.h>

struct fsc_grammar_set {
    int dummy;
};

fsc_grammar_set *fsc_grammars_load(fsc_buf *err)
{
    fsc_grammar_set *g = calloc(1, sizeof *g);
    if (!g)
        fsc_buf_puts(err, "out of memory");
    return g;
}

void fsc_grammars_free(fsc_grammar_set *g)
{
    free(g);
}

fsc_status fsc_normal_parse(const fsc_grammar_set *g, const fsc_text *t, size_t first, size_t last,
                            fsc_emit_fn emit, void *ctx)
{
    (void)g;
    (void)t;
    (void)first;
    (void)last;
    (void)emit;
    (void)ctx;
    return FSC_OK;
}
