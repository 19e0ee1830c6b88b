/* SPDX-License-Identifier: MIT */
/*
 * `fioscope report`: one folder with index.html (self-contained), report.md,
 * report.xlsx and charts/NAME.png + NAME.svg, all built from the same tables and the
 * same analysis (systems, workloads) of one runset.
 */
#ifndef FIOSCOPE_REPORT_H
#define FIOSCOPE_REPORT_H

#include "fioscope/buf.h"
#include "fioscope/input.h"
#include "fioscope/model.h"
#include "fioscope/parse.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Name of the marker file that says "fioscope wrote this folder". */
#define FSC_REPORT_MARKER ".fioscope-report"

typedef struct fsc_report_opts {
    const char *dir;              /* output folder (created if missing) */
    fsc_label_from label_from;    /* row labels */
    int chart_width, chart_height; /* chart size; 0 = 1600x900 (taller for many panels) */
    const fsc_manifest *manifest; /* inputs read (for the Sources part); may be NULL */
    /* systems and workloads (fioscope/analyze.h): --system-from, --workload-key,
     * --where, the INPUT arguments; all may be NULL / 0 */
    const char *system_from, *workload_key;
    const char *const *where;
    size_t n_where;
    const char *const *inputs;
    size_t n_inputs;
    const char *baseline; /* the system the others are compared with; NULL = the first */
} fsc_report_opts;

/* What fsc_report_write produced. */
typedef struct fsc_report_result {
    size_t n_charts, n_tables, n_systems, n_skipped;
    /* A library that cannot be loaded leaves out what needs it, and the report is
     * written without it: the reason (one line naming the library and its Debian
     * package, not owned, valid for the process' life) or NULL. No cairo: no charts, each is
     * a skip, and the pages say so where it would have been. No workbook: no
     * report.xlsx (an old one is removed), and the pages do not name it. */
    const char *charts_missing, *workbook_missing;
    /* Charts drawn, but pango cannot be loaded: their text is cairo's simple text (no
     * font fallback); the reason as above, or NULL. */
    const char *charts_plain;
} fsc_report_result;

/* Write the report. The folder must be missing, empty, or written by fioscope before
 * (it holds FSC_REPORT_MARKER); anything else is refused with FSC_E_USAGE and a
 * message in err, and nothing is written. The folder is opened once and written
 * through its descriptor (no symlink inside it is followed); every file is written
 * under a unique temporary name (mode 0666 minus the umask) and renamed into place.
 * FSC_E_NO_RUNS when set is empty; FSC_E_USAGE for bad analysis options (an unknown
 * field); FSC_E_RANGE when the baseline names no system; FSC_E_IO / FSC_E_NOMEM with err naming the file otherwise. res
 * may be NULL. */
fsc_status fsc_report_write(const fsc_runset *set, const fsc_report_opts *o, fsc_report_result *res,
                            fsc_buf *err);

#ifdef __cplusplus
}
#endif
#endif
