/* SPDX-License-Identifier: MIT */
/* Private to the report writer: the tables of one report and the .xlsx writer. */
#ifndef FIOSCOPE_REPORT_INT_H
#define FIOSCOPE_REPORT_INT_H

#include "fioscope/table.h"

/* One metric family: a sheet of the workbook and a section of the pages. */
typedef struct fsc_report_family {
    const char *sheet;   /* "IOPS" (also the section title) */
    const char *metrics; /* what is asked of fsc_table_build */
    bool chart;          /* native bar chart in the workbook */
    fsc_table *table;    /* by job, only columns with data; NULL when none had any */
} fsc_report_family;

/* Write the workbook to path (a temporary name: the caller renames it). Strings from
 * input are always string cells. FSC_E_IO with err on failure. */
fsc_status fsc_xlsx_write(const char *path, const fsc_table *summary, const fsc_report_family *fam,
                          size_t n_fam, const fsc_runset *set, fsc_buf *err);

/* Unit shown in the workbook for a base unit: divisor and header suffix ("MiB/s"). */
double fsc_xlsx_unit(fsc_unit u, const char **suffix, const char **number_format);

#endif
