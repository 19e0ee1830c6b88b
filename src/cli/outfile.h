/* SPDX-License-Identifier: MIT */
/* Output files written atomically: a temporary name in the same directory, renamed on commit. */
#ifndef FIOSCOPE_OUTFILE_H
#define FIOSCOPE_OUTFILE_H

#include "fioscope/buf.h"

typedef struct fsc_outfile fsc_outfile;

/* path NULL or "-" writes to standard output. NULL + err on failure. */
fsc_outfile *fsc_outfile_open(const char *path, fsc_buf *err);
bool fsc_outfile_write(fsc_outfile *f, const void *data, size_t n);
/* keep=true: flush and rename into place; false: remove the temporary file. Frees f.
 * Returns false (with err) if the data could not be written; after a failed
 * fsc_outfile_write err says why (naming the file) whatever keep is. */
bool fsc_outfile_commit(fsc_outfile *f, bool keep, fsc_buf *err);

#endif
