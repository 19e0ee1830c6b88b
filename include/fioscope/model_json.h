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
    /* Optional: called while a long series is written, whenever the output buffer
     * holds more than about 1 MiB, to write it out and empty it (memory stays flat
     * for a log of gigabytes). Return false to give up (the rest is not written). */
    bool (*flush)(void *ctx, fsc_buf *out);
    void *flush_ctx;
} fsc_json_opts;

/* Write one RUN object. Absent fields are omitted; nothing is invented. */
void fsc_model_write_run(fsc_jw *w, const fsc_run *run, const fsc_json_opts *opts);
/* Open the contract's top-level object and write its "fioscope" member; the caller
 * goes on with "inputs" and "runs" and closes the object. */
void fsc_model_write_doc_start(fsc_jw *w);
/* The JSON key fio uses for a percentile ("%f": 99.9 → "99.900000"). */
void fsc_pct_key(char *out, size_t size, double pct);
/* Write one SERIES object (a fio log file: columns t_ms, value, dir, ..., or bins). */
void fsc_model_write_series(fsc_jw *w, const fsc_logseries *s, const fsc_json_opts *opts);
/* Write a job's "steadystate" member (key and object) when it has one. */
void fsc_model_write_steadystate(fsc_jw *w, const fsc_steady *ss);
/* Write one JOB object (also used by `table --format json`). */
void fsc_model_write_job(fsc_jw *w, const fsc_job *job);

#ifdef __cplusplus
}
#endif
#endif
