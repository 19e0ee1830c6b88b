/* SPDX-License-Identifier: MIT */
/* What `run` and `rerun` share: fio's output options and running a job set with the
 * engine. */
#ifndef FIOSCOPE_RUNJOBS_H
#define FIOSCOPE_RUNJOBS_H

#include "fioscope/engine.h"

enum { FSC_OUT_NORMAL = 1, FSC_OUT_JSON = 2, FSC_OUT_JSONPLUS = 4, FSC_OUT_TERSE = 8 };

typedef struct fsc_runjobs_opts {
    int formats;        /* FSC_OUT_* bits; 0 = normal */
    const char *output; /* --output=FILE, NULL = stdout */
    bool allow_overwrite, quiet_preamble;
} fsc_runjobs_opts;

/* "normal,json+" → bits; 0 if a word is unknown. */
int fsc_runjobs_formats(const char *list);
/* Run js, print the results as asked. With keep non-NULL the run is handed over
 * (caller frees it) instead of freed. Returns an exit status. */
int fsc_runjobs_execute(const fsc_jobset *js, const fsc_runjobs_opts *o, fsc_run **keep);

#endif
