/* SPDX-License-Identifier: MIT */
/*
 * libxlsxwriter, opened on first use (fioscope/dynlib.h): the functions the workbook
 * writer (xlsx.c, xlsx_time.c) calls, through one table. report_int.h includes this
 * header instead of <xlsxwriter.h>; the calls read as they always did and go through
 * the table. Only writing a workbook opens the library.
 */
#ifndef FSC_XLSX_API_H
#define FSC_XLSX_API_H

#include "fioscope/dynlib.h"

#include <xlsxwriter.h>

#define FSC_XLSX_FUNCS(X, t) \
    X(t, chart_add_series) \
    X(t, chart_axis_set_log_base) \
    X(t, chart_axis_set_name) \
    X(t, chart_axis_set_num_format) \
    X(t, chart_legend_set_position) \
    X(t, chart_series_set_categories) \
    X(t, chart_series_set_fill) \
    X(t, chart_series_set_name_range) \
    X(t, chart_series_set_points) \
    X(t, chart_series_set_values) \
    X(t, chart_title_set_name) \
    X(t, chart_title_set_name_font) \
    X(t, format_set_bg_color) \
    X(t, format_set_bold) \
    X(t, format_set_font_color) \
    X(t, format_set_italic) \
    X(t, format_set_num_format) \
    X(t, format_set_text_wrap) \
    X(t, lxw_strerror) \
    X(t, workbook_add_chart) \
    X(t, workbook_add_format) \
    X(t, workbook_add_worksheet) \
    X(t, workbook_close) \
    X(t, workbook_new_opt) \
    X(t, workbook_set_properties) \
    X(t, worksheet_autofilter) \
    X(t, worksheet_fit_to_pages) \
    X(t, worksheet_freeze_panes) \
    X(t, worksheet_insert_chart_opt) \
    X(t, worksheet_repeat_rows) \
    X(t, worksheet_set_column) \
    X(t, worksheet_set_landscape) \
    X(t, worksheet_set_paper) \
    X(t, worksheet_write_number) \
    X(t, worksheet_write_string)

typedef struct fsc_xlsx_api {
    FSC_XLSX_FUNCS(FSC_DYNLIB_SLOT, )
} fsc_xlsx_api;
extern fsc_xlsx_api fsc_xlsx;

/* Open libxlsxwriter once per process (fsc_dynlib_open): false, with *why set, when it
 * cannot be loaded; and whether that has been done (FSC_DYNLIB_DEFINE, in the .c). */
bool fsc_xlsx_api_open(const char **why);
bool fsc_xlsx_api_is_open(void);

#ifndef FSC_XLSX_API_FILL /* the writer's calls go through the table */
#define chart_add_series fsc_xlsx.chart_add_series
#define chart_axis_set_log_base fsc_xlsx.chart_axis_set_log_base
#define chart_axis_set_name fsc_xlsx.chart_axis_set_name
#define chart_axis_set_num_format fsc_xlsx.chart_axis_set_num_format
#define chart_legend_set_position fsc_xlsx.chart_legend_set_position
#define chart_series_set_categories fsc_xlsx.chart_series_set_categories
#define chart_series_set_fill fsc_xlsx.chart_series_set_fill
#define chart_series_set_name_range fsc_xlsx.chart_series_set_name_range
#define chart_series_set_points fsc_xlsx.chart_series_set_points
#define chart_series_set_values fsc_xlsx.chart_series_set_values
#define chart_title_set_name fsc_xlsx.chart_title_set_name
#define chart_title_set_name_font fsc_xlsx.chart_title_set_name_font
#define format_set_bg_color fsc_xlsx.format_set_bg_color
#define format_set_bold fsc_xlsx.format_set_bold
#define format_set_font_color fsc_xlsx.format_set_font_color
#define format_set_italic fsc_xlsx.format_set_italic
#define format_set_num_format fsc_xlsx.format_set_num_format
#define format_set_text_wrap fsc_xlsx.format_set_text_wrap
#define lxw_strerror fsc_xlsx.lxw_strerror
#define workbook_add_chart fsc_xlsx.workbook_add_chart
#define workbook_add_format fsc_xlsx.workbook_add_format
#define workbook_add_worksheet fsc_xlsx.workbook_add_worksheet
#define workbook_close fsc_xlsx.workbook_close
#define workbook_new_opt fsc_xlsx.workbook_new_opt
#define workbook_set_properties fsc_xlsx.workbook_set_properties
#define worksheet_autofilter fsc_xlsx.worksheet_autofilter
#define worksheet_fit_to_pages fsc_xlsx.worksheet_fit_to_pages
#define worksheet_freeze_panes fsc_xlsx.worksheet_freeze_panes
#define worksheet_insert_chart_opt fsc_xlsx.worksheet_insert_chart_opt
#define worksheet_repeat_rows fsc_xlsx.worksheet_repeat_rows
#define worksheet_set_column fsc_xlsx.worksheet_set_column
#define worksheet_set_landscape fsc_xlsx.worksheet_set_landscape
#define worksheet_set_paper fsc_xlsx.worksheet_set_paper
#define worksheet_write_number fsc_xlsx.worksheet_write_number
#define worksheet_write_string fsc_xlsx.worksheet_write_string
#endif

#endif
