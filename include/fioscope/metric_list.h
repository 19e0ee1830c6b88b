/* SPDX-License-Identifier: MIT */
/*
 * The documentation of every name a user can give: dimensions, metrics (the
 * registry of fioscope/metric.h, walked over the model's field tables so that a new
 * field shows up by itself) and the fields of the flat export, each with its unit
 * and meaning. `fioscope metrics`, the man page's list, the shell completions and
 * the did-you-mean hints for metric names all come from here.
 */
#ifndef FIOSCOPE_METRIC_LIST_H
#define FIOSCOPE_METRIC_LIST_H

#include "fioscope/buf.h"
#include "fioscope/model.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum fsc_name_kind {
    FSC_NAME_DIMENSION, /* text: system, rw, bs ... (also a --metrics name) */
    FSC_NAME_METRIC,    /* a number of --metrics, --where, --y */
    FSC_NAME_FIELD      /* a column of parse --format csv (a JSON path), not a metric */
} fsc_name_kind;

/* One documented name. Names may hold two placeholders: "DIR" (read, write, trim,
 * sync, mixed) and "NN" (a percentile as fio printed it: 99, 99.9 ...; in a flat
 * column "99.000000"). */
typedef struct fsc_name_doc {
    const char *name;
    fsc_name_kind kind;
    bool text;     /* a text value (dimensions and some fields) */
    fsc_unit unit; /* base unit of a number */
    const char *help;
} fsc_name_doc;

/* Call fn for every documented name, in listing order (dimensions, metrics, fields).
 * Strings are static. */
void fsc_name_docs(void (*fn)(void *ctx, const fsc_name_doc *d), void *ctx);

/* Write the list: "text" (aligned, with section headings), "json"
 * ({"directions": [...], "names": [{"name","kind","unit","help"}...]}) or "names"
 * (one concrete name per line, DIR and NN expanded; for shell completion). Returns
 * FSC_E_USAGE for another format. */
fsc_status fsc_name_docs_write(fsc_buf *out, const char *format);

/* The known metric or dimension name closest to a mistyped one (for "did you
 * mean"), appended to out; false (nothing appended) when none is close. */
bool fsc_metric_nearest(const char *name, fsc_buf *out);

#ifdef __cplusplus
}
#endif
#endif
