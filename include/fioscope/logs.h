/* SPDX-License-Identifier: MIT */
/*
 * Reading fio's log files (write_bw_log, write_iops_log, write_lat_log,
 * write_hist_log) of every fio version into series (fioscope/logseries.h):
 *
 *   time, value, dir, bs                          fio 2.x (4 columns)
 *   time, value, dir, bs, offset                  log_offset=1, fio 2.1.11 .. 3.17
 *   time, value, dir, bs, [offset,] prio          fio 3.18+ (prio 0/1, or 0x%04x with log_prio)
 *   time, avg, max, dir, bs, [offset,] prio       log_window_value=both, fio 3.37+
 *   ..., issue_time                               log_issue_time, fio 3.38+
 *   time, dir, bs, bin0, ..., binN                histogram logs: 1216 >> c bins (fio 2.14
 *                                                 .. 2.21, usec) or 1856 >> c (2.99+, ns)
 *
 * and NAME_KIND.N.log.fz files (log_store_compressed: fio's binary samples in zlib
 * chunks, what `fio --inflate-log` prints). The layout of a file is decided from all
 * of its rows (a 5th column of 0/1 is a priority, of offsets an offset), and from the
 * fio version of the run it belongs to where known.
 *
 * Bad rows never stop a file: a non-numeric line, a truncated last line, time going
 * backwards, absurd values each become a warning with the line; a file of an unknown
 * layout is one warning and no series.
 */
#ifndef FIOSCOPE_LOGS_H
#define FIOSCOPE_LOGS_H

#include "fioscope/logseries.h"
#include "fioscope/model.h"
#include "fioscope/parse.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What a file name says: PREFIX_KIND[.N].log[.fz], optionally compressed afterwards
 * (.gz .xz .zst .bz2 .lz4). */
typedef struct fsc_logname {
    fsc_logkind kind;
    int clone;               /* the .N (fio's thread number, from 1); 0 without one */
    bool stored_compressed;  /* .log.fz: log_store_compressed chunks */
    const char *prefix;      /* points into the name given: the job name or the
                              * write_*_log value */
    size_t prefix_len;
} fsc_logname;

/* Parse the last path component of name. False when it is not a fio log name. */
bool fsc_log_name_parse(const char *name, fsc_logname *out);

/* One log file being read (possibly in pieces). Opaque. */
typedef struct fsc_logfile fsc_logfile;

/* Read doc (a whole log file, or a piece of one starting at a line start; line
 * numbers continue from doc->first_line) named by name. NULL only when out of
 * memory. */
fsc_logfile *fsc_logfile_read(const fsc_doc *doc, const fsc_logname *name);
/* Append the next piece of the same file (read with fsc_logfile_read, in file
 * order); next is freed. False when out of memory. */
bool fsc_logfile_append(fsc_logfile *f, fsc_logfile *next);
/* Decide the layout (column names, units) once every piece is in. fio_version of
 * the run the file belongs to ("fio-3.33"), or NULL when unknown. Call once. */
void fsc_logfile_finish(fsc_logfile *f, const char *fio_version);

/* The series read (one per file, or one per clone section of a per_job_logs=0 file),
 * after fsc_logfile_finish. take passes ownership (the slot becomes NULL). */
size_t fsc_logfile_n_series(const fsc_logfile *f);
fsc_logseries *fsc_logfile_take(fsc_logfile *f, size_t i);
/* The name the file was read under. */
const fsc_logname *fsc_logfile_name(const fsc_logfile *f);
/* Rows read in total (all sections). */
size_t fsc_logfile_rows(const fsc_logfile *f);
/* The time (t_ms, as printed) of the file's last row; false when no row had one. */
bool fsc_logfile_last_ms(const fsc_logfile *f, int64_t *t);
/* Warnings (line = the log file's own line, 0 for the whole file; message without
 * the file name), in line order; a file with many bad lines keeps the first few and
 * a closing count. */
size_t fsc_logfile_n_warnings(const fsc_logfile *f);
const fsc_warning *fsc_logfile_warning(const fsc_logfile *f, size_t i);
/* True when the document did not look like a fio log at all (no row could be read
 * and the first line is not numeric). */
bool fsc_logfile_foreign(const fsc_logfile *f);
void fsc_logfile_free(fsc_logfile *f); /* NULL is fine */

/* Attach the series of log files to the runs that own them and put the rest into a
 * run of format "log": see fsc_logs_join in src/input. */

#ifdef __cplusplus
}
#endif
#endif
