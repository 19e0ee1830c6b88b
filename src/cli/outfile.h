/* SPDX-License-Identifier: MIT */
/* Output files written atomically: a temporary name in the same directory, renamed on commit. */
#ifndef FIOSCOPE_OUTFILE_H
#define FIOSCOPE_OUTFILE_H

#include "fioscope/buf.h"

typedef struct fsc_outfile fsc_outfile;

/* path NULL or "-" writes to standard output. NULL + err on failure. */
fsc_outfile *fsc_outfile_open(const char *path, fsc_buf *err);
bool fsc_outfile_write(fsc_outfile *f, const void *data, size_t n);
/* Write block[off, off + n), a block of its own (ownership passes: freed once
 * written, or at once on an error). Blocks are gathered and written together
 * (writev) without being copied into the stream's buffer; in order with
 * fsc_outfile_write. A run of JSON is rendered into such a block: copying 200 MB of
 * them into the stdio buffer took 2-3% of all the CPU time of parse --jsonl. */
bool fsc_outfile_give(fsc_outfile *f, char *block, size_t off, size_t n);
/* keep=true: flush and rename into place; false: remove the temporary file. Frees f.
 * Returns false (with err) if the data could not be written; after a failed
 * fsc_outfile_write err says why (naming the file) whatever keep is. */
bool fsc_outfile_commit(fsc_outfile *f, bool keep, fsc_buf *err);

#endif
