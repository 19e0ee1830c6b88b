/* SPDX-License-Identifier: MIT */
/* fsc_num_fmt with the texts of recent values remembered: for a writer that turns
 * many numbers into text on one thread (private to the core and model). */
#ifndef FSC_NUM_MEMO_H
#define FSC_NUM_MEMO_H

#include "fioscope/buf.h"

/* A slot: a value's bits and its text of at most 8 bytes, zero-padded. */
typedef struct fsc_num_memo {
    uint64_t bits, text;
} fsc_num_memo;

#define FSC_NUM_MEMO_SLOTS 1024

/* fsc_num_fmt(dst, v), the same bytes; memo: FSC_NUM_MEMO_SLOTS slots, zeroed before
 * the first use, used by one thread at a time. */
size_t fsc_num_fmt_memo(char *dst, double v, fsc_num_memo *memo);

#endif
