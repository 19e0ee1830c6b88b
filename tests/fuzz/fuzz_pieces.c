/* SPDX-License-Identifier: MIT */
/* libFuzzer target: the cutters of huge texts (pieces.c: run boundaries, hosts'
 * turns, JSON documents, the weak cut of a text whose runs are not seen) on any
 * bytes: a cut is 0 or a line start, a run boundary one in the piece's second half. */
#include "input/input_int.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#ifndef FUZZ_ENTRY /* the replay test includes several targets under other names */
#define FUZZ_ENTRY LLVMFuzzerTestOneInput
#endif

int FUZZ_ENTRY(const uint8_t *data, size_t size);

int FUZZ_ENTRY(const uint8_t *data, size_t size)
{
    /* a copy of exactly size bytes: the cutters must not read past a piece's end */
    char *buf = malloc(size ? size : 1);
    if (!buf)
        return 0;
    memcpy(buf, data, size);
    for (int weak = 0; weak < 2; weak++) {
        size_t cut = fsc_piece_cut_of(buf, size, weak);
        /* a run boundary is in the second half; the weak cut's last resort, the last
         * line end, may come before it */
        if (cut && ((!weak && cut <= size / 2) || cut > size || buf[cut - 1] != '\n'))
            abort();
    }
    free(buf);
    return 0;
}
