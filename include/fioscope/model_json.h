/* SPDX-License-Identifier: MIT */
/* The run model written as the contract's normalized JSON (fio's names and base units). */
#ifndef FIOSCOPE_MODEL_JSON_H
#define FIOSCOPE_MODEL_JSON_H

#include "fioscope/buf.h"
#include "fioscope/model.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct fsc_json_opts {
    bool damage; /* add "damage": line accounting and unknown line numbers */
} fsc_json_opts;

/* Write one RUN object. Absent fields are omitted; nothing is invented. */
void fsc_model_write_run(fsc_jw *w, const fsc_run *run, const fsc_json_opts *opts);
/* Open the contract's top-level object and write its "fioscope" member; the caller
 * goes on with "inputs" and "runs" and closes the object. */
void fsc_model_write_doc_start(fsc_jw *w);
/* The JSON key fio uses for a percentile ("%f": 99.9 → "99.900000"). */
void fsc_pct_key(char *out, size_t size, double pct);
/* Write one JOB object (also used by `table --format json`). */
void fsc_model_write_job(fsc_jw *w, const fsc_job *job);

#ifdef __cplusplus
}
#endif
#endif
