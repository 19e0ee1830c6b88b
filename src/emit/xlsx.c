/* SPDX-License-Identifier: MIT */
/*
 * report.xlsx with libxlsxwriter: a summary sheet, one sheet per metric family with
 * a native bar chart, and a Sources sheet. Numbers are numeric cells in a readable
 * unit named in the header; text from input is always a string cell.
 */
#include "report_int.h"

#include <math.h>
#include <string.h>
#include <xlsxwriter.h>

/* Excel's cell limit is 32767 characters; stay below it on a UTF-8 boundary. */
#define MAX_CELL_BYTES 32000
/* A fixed creation time (2020-01-01T00:00:00Z) so that equal input gives equal bytes. */
#define FIXED_CREATED 1577836800

typedef struct xl {
    lxw_workbook *wb;
    lxw_format *head, *text, *fmt[FSC_UNIT_PCT + 1];
    lxw_error error;
} xl;

double fsc_xlsx_unit(fsc_unit u, const char **suffix, const char **number_format)
{
    static const struct {
        double div;
        const char *suffix, *format;
    } units[] = {
        [FSC_UNIT_NONE] = {1, "", "General"},
        [FSC_UNIT_COUNT] = {1, "", "#,##0"},
        [FSC_UNIT_IOPS] = {1, "", "#,##0.0"},
        [FSC_UNIT_BYTES] = {1048576, "MiB", "#,##0.00"},
        [FSC_UNIT_BYTES_PER_S] = {1048576, "MiB/s", "#,##0.00"},
        [FSC_UNIT_KIB_PER_S] = {1024, "MiB/s", "#,##0.00"},
        [FSC_UNIT_NS] = {1000, "µs", "#,##0.00"},
        [FSC_UNIT_MS] = {1, "ms", "#,##0"},
        [FSC_UNIT_PCT] = {1, "%", "0.00"},
    };
    size_t i = (size_t)u < FSC_ARRAY_SIZE(units) ? (size_t)u : 0;
    *suffix = units[i].suffix;
    *number_format = units[i].format;
    return units[i].div;
}

static void note(xl *x, lxw_error e)
{
    if (e != LXW_NO_ERROR && x->error == LXW_NO_ERROR)
        x->error = e;
}

static void put_string(xl *x, lxw_worksheet *ws, lxw_row_t r, lxw_col_t c, const char *s, lxw_format *f)
{
    if (!s)
        return;
    size_t n = strlen(s);
    if (n <= MAX_CELL_BYTES) {
        note(x, worksheet_write_string(ws, r, c, s, f));
        return;
    }
    size_t cut = MAX_CELL_BYTES;
    while (cut > 0 && ((unsigned char)s[cut] & 0xC0) == 0x80)
        cut--;
    char *copy = fsc_strndup(s, cut);
    if (copy)
        note(x, worksheet_write_string(ws, r, c, copy, f));
    free(copy);
}

static void put_num(xl *x, lxw_worksheet *ws, lxw_row_t r, lxw_col_t c, double v, fsc_unit u)
{
    const char *suffix, *format;
    double div = fsc_xlsx_unit(u, &suffix, &format);
    note(x, worksheet_write_number(ws, r, c, v / div, x->fmt[u]));
}

static void header_cell(xl *x, lxw_worksheet *ws, lxw_col_t c, const fsc_metric *m)
{
    const char *suffix, *format;
    fsc_xlsx_unit(m->unit, &suffix, &format);
    char buf[160];
    if (!m->text && suffix[0])
        snprintf(buf, sizeof buf, "%s (%s)", m->title, suffix);
    else
        snprintf(buf, sizeof buf, "%s", m->title);
    put_string(x, ws, 0, c, buf, x->head);
}

/* Wide enough for the longest text (in bytes, capped), 16 for numbers. */
static double column_width(const fsc_table *t, size_t c)
{
    if (!t->cols[c].text)
        return 16;
    size_t w = strlen(t->cols[c].title);
    for (size_t r = 0; r < t->n_rows; r++)
        if (t->rows[r].cells[c].kind == FSC_CELL_TEXT && t->rows[r].cells[c].text)
            w = fmax(w, strlen(t->rows[r].cells[c].text));
    return fmin(60, fmax(8, (double)w + 2));
}

/* One table as a sheet: header row, one row per table row, frozen and filterable. */
static lxw_worksheet *table_sheet(xl *x, const char *name, const fsc_table *t)
{
    lxw_worksheet *ws = workbook_add_worksheet(x->wb, name);
    if (!ws) {
        note(x, LXW_ERROR_MEMORY_MALLOC_FAILED);
        return NULL;
    }
    for (size_t c = 0; c < t->n_cols; c++)
        header_cell(x, ws, (lxw_col_t)c, &t->cols[c]);
    for (size_t r = 0; r < t->n_rows; r++)
        for (size_t c = 0; c < t->n_cols; c++) {
            const fsc_cell *cell = &t->rows[r].cells[c];
            if (cell->kind == FSC_CELL_NUM)
                put_num(x, ws, (lxw_row_t)(r + 1), (lxw_col_t)c, cell->num, t->cols[c].unit);
            else if (cell->kind == FSC_CELL_TEXT)
                put_string(x, ws, (lxw_row_t)(r + 1), (lxw_col_t)c, cell->text, x->text);
        }
    for (size_t c = 0; c < t->n_cols; c++)
        worksheet_set_column(ws, (lxw_col_t)c, (lxw_col_t)c, column_width(t, c), NULL);
    worksheet_freeze_panes(ws, 1, 1);
    if (t->n_cols)
        note(x, worksheet_autofilter(ws, 0, 0, (lxw_row_t)t->n_rows, (lxw_col_t)(t->n_cols - 1)));
    return ws;
}

/* Column bars of every numeric column over the first (label) column. */
static void family_chart(xl *x, lxw_worksheet *ws, const fsc_report_family *f)
{
    const fsc_table *t = f->table;
    if (!t->n_rows || t->n_cols < 2)
        return;
    lxw_chart *ch = workbook_add_chart(x->wb, LXW_CHART_COLUMN);
    if (!ch) {
        note(x, LXW_ERROR_MEMORY_MALLOC_FAILED);
        return;
    }
    const char *unit = NULL, *suffix, *format;
    for (size_t c = 1; c < t->n_cols; c++) {
        if (t->cols[c].text)
            continue;
        lxw_chart_series *s = chart_add_series(ch, NULL, NULL);
        if (!s)
            continue;
        chart_series_set_categories(s, f->sheet, 1, 0, (lxw_row_t)t->n_rows, 0);
        chart_series_set_values(s, f->sheet, 1, (lxw_col_t)c, (lxw_row_t)t->n_rows, (lxw_col_t)c);
        chart_series_set_name_range(s, f->sheet, 0, (lxw_col_t)c);
        fsc_xlsx_unit(t->cols[c].unit, &suffix, &format);
        if (!unit)
            unit = suffix;
    }
    char title[128];
    snprintf(title, sizeof title, "%s%s%s%s", f->sheet, unit && unit[0] ? " (" : "",
             unit ? unit : "", unit && unit[0] ? ")" : "");
    chart_title_set_name(ch, title);
    chart_axis_set_name(ch->y_axis, unit && unit[0] ? unit : f->sheet);
    chart_legend_set_position(ch, LXW_CHART_LEGEND_BOTTOM);
    lxw_chart_options opt = {.x_scale = 2.0, .y_scale = 1.6};
    note(x, worksheet_insert_chart_opt(ws, 1, (lxw_col_t)(t->n_cols + 1), ch, &opt));
}

static void warnings_text(const fsc_run *run, fsc_buf *b)
{
    for (size_t i = 0; i < run->n_warnings; i++)
        fsc_buf_printf(b, "%sline %u: %s", i ? "; " : "", (unsigned)run->warnings[i].line,
                       run->warnings[i].message ? run->warnings[i].message : "");
}

static void sources_sheet(xl *x, const fsc_runset *set)
{
    static const char *const heads[] = {"run",  "label",  "file",        "member",   "first line",
                                        "last line", "format", "fio version", "jobs", "warnings",
                                        "warning messages"};
    lxw_worksheet *ws = workbook_add_worksheet(x->wb, "Sources");
    if (!ws) {
        note(x, LXW_ERROR_MEMORY_MALLOC_FAILED);
        return;
    }
    for (size_t c = 0; c < FSC_ARRAY_SIZE(heads); c++)
        put_string(x, ws, 0, (lxw_col_t)c, heads[c], x->head);
    fsc_buf w = {0};
    for (size_t r = 0; r < set->n_runs; r++) {
        const fsc_run *run = set->runs[r];
        lxw_row_t row = (lxw_row_t)(r + 1);
        put_string(x, ws, row, 0, run->id, x->text);
        put_string(x, ws, row, 1, run->label, x->text);
        put_string(x, ws, row, 2, run->source.path, x->text);
        put_string(x, ws, row, 3, run->source.member, x->text);
        if (run->source.first_line)
            put_num(x, ws, row, 4, run->source.first_line, FSC_UNIT_COUNT);
        if (run->source.last_line)
            put_num(x, ws, row, 5, run->source.last_line, FSC_UNIT_COUNT);
        put_string(x, ws, row, 6, fsc_format_name(run->source.format), x->text);
        put_string(x, ws, row, 7, run->source.fio_version, x->text);
        put_num(x, ws, row, 8, (double)run->n_jobs, FSC_UNIT_COUNT);
        put_num(x, ws, row, 9, (double)run->n_warnings, FSC_UNIT_COUNT);
        fsc_buf_reset(&w);
        warnings_text(run, &w);
        if (w.len)
            put_string(x, ws, row, 10, w.data, x->text);
    }
    fsc_buf_free(&w);
    worksheet_set_column(ws, 0, 3, 36, NULL);
    worksheet_set_column(ws, 4, 9, 11, NULL);
    worksheet_set_column(ws, 10, 10, 80, NULL);
    worksheet_freeze_panes(ws, 1, 1);
    note(x, worksheet_autofilter(ws, 0, 0, (lxw_row_t)set->n_runs, FSC_ARRAY_SIZE(heads) - 1));
}

static void make_formats(xl *x)
{
    x->head = workbook_add_format(x->wb);
    format_set_bold(x->head);
    format_set_bg_color(x->head, 0xDDE5F0);
    format_set_text_wrap(x->head);
    x->text = workbook_add_format(x->wb);
    for (int u = 0; u <= FSC_UNIT_PCT; u++) {
        const char *suffix, *format;
        fsc_xlsx_unit((fsc_unit)u, &suffix, &format);
        x->fmt[u] = workbook_add_format(x->wb);
        format_set_num_format(x->fmt[u], format);
    }
}

fsc_status fsc_xlsx_write(const char *path, const fsc_table *summary, const fsc_report_family *fam,
                          size_t n_fam, const fsc_runset *set, fsc_buf *err)
{
    lxw_workbook_options wopt = {.constant_memory = LXW_FALSE, .tmpdir = NULL, .use_zip64 = LXW_FALSE};
    xl x = {.wb = workbook_new_opt(path, &wopt), .error = LXW_NO_ERROR};
    if (!x.wb) {
        fsc_buf_printf(err, "%s: cannot create workbook", path);
        return FSC_E_IO;
    }
    lxw_doc_properties props = {.title = (char *)"fio results", .author = (char *)"fioscope",
                                .created = FIXED_CREATED};
    note(&x, workbook_set_properties(x.wb, &props));
    make_formats(&x);
    if (summary)
        table_sheet(&x, "Summary", summary);
    for (size_t i = 0; i < n_fam; i++) {
        if (!fam[i].table)
            continue;
        lxw_worksheet *ws = table_sheet(&x, fam[i].sheet, fam[i].table);
        if (ws && fam[i].chart)
            family_chart(&x, ws, &fam[i]);
    }
    sources_sheet(&x, set);
    lxw_error closed = workbook_close(x.wb);
    note(&x, closed);
    if (x.error != LXW_NO_ERROR) {
        fsc_buf_printf(err, "%s: %s", path, lxw_strerror(x.error));
        return FSC_E_IO;
    }
    return FSC_OK;
}
