/* SPDX-License-Identifier: MIT */
/*
 * The flat export of `fioscope parse --format csv|tsv`: one row per job and
 * direction, one column per field. Columns are the dotted paths of the normalized
 * JSON, so a column carries exactly the name and the unit of that JSON field:
 *
 *   id, label, source.path, source.member, source.format, source.fio_version, ...
 *   jobname, groupid, jobs, job options.rw, ..., usr_cpu, ctx, iodepth_level.4,
 *   latency_us.250, ...        (the job's own fields, on every row of the job)
 *   dir                        (read, write, trim, sync, mixed; empty when the job
 *                               did no I/O at all: one row then)
 *   io_bytes, bw_bytes, bw, iops, runtime, clat_ns.mean,
 *   clat_ns.percentile.99.000000, ...   (the direction's fields, without "read.")
 *
 * Arrays (context, warnings, steadystate data) and json+ histogram bins are left
 * out. Columns appear in the order they are first met; a field a row lacks is an
 * empty cell. The Python module's fioscope.to_dataframe() gives the same columns.
 */
#ifndef FIOSCOPE_FLAT_H
#define FIOSCOPE_FLAT_H

#include "fioscope/buf.h"
#include "fioscope/model.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Append the flat table of every run of set to out: format "csv" (RFC 4180, text
 * cells guarded against formulas) or "tsv"; a header line of column names, then one
 * line per row, LF line ends. Numbers are written exactly as in the JSON. Returns
 * FSC_E_USAGE for another format, FSC_E_NOMEM when memory ran out. */
fsc_status fsc_flat_write(const fsc_runset *set, const char *format, fsc_buf *out);

#ifdef __cplusplus
}
#endif
#endif
