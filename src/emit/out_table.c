/* SPDX-License-Identifier: MIT */
/*
 * Table renderers: aligned text, Markdown, CSV, TSV, HTML and JSON, plus the cell
 * escaping and grid helpers `compare` shares.
 */
#include "emit_int.h"
#include "tpl.h"
#include "fioscope/escape.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- escaping: the output kinds of fioscope/escape.h ---- */

void fsc_put_plain(fsc_buf *b, const char *s)
{
    fsc_esc_term(b, s);
}

void fsc_put_md(fsc_buf *b, const char *s)
{
    fsc_esc_md(b, s);
}

void fsc_put_csv(fsc_buf *b, const char *s)
{
    fsc_esc_csv(b, s);
}

void fsc_put_tsv(fsc_buf *b, const char *s)
{
    fsc_esc_tsv(b, s);
}

void fsc_put_html(fsc_buf *b, const char *s)
{
    fsc_esc_html(b, s);
}

double fsc_round15(double v)
{
    char tmp[40];
    if (!isfinite(v))
        return v;
    snprintf(tmp, sizeof tmp, "%.15g", v);
    return strtod(tmp, NULL);
}

void fsc_put_num(fsc_buf *b, double v)
{
    /* 15 significant digits: every number fio prints survives, and derived sums lose
     * their binary noise (3.2 + 25.9 is 29.1, not 29.099999999999998) */
    if (!isfinite(v) || (v == floor(v) && fabs(v) < 9007199254740992.0))
        fsc_buf_num(b, v);
    else
        fsc_buf_printf(b, "%.15g", v);
}

const char *fsc_unit_name(fsc_unit u)
{
    switch (u) {
    case FSC_UNIT_COUNT:
        return "count";
    case FSC_UNIT_IOPS:
        return "iops";
    case FSC_UNIT_BYTES:
        return "bytes";
    case FSC_UNIT_BYTES_PER_S:
        return "bytes/s";
    case FSC_UNIT_KIB_PER_S:
        return "KiB/s";
    case FSC_UNIT_NS:
        return "ns";
    case FSC_UNIT_MS:
        return "ms";
    case FSC_UNIT_PCT:
        return "%";
    case FSC_UNIT_NONE:
    default:
        return "";
    }
}

/* ---- grids of strings (row 0 is the header) ---- */

void fsc_grid_text(fsc_buf *out, const char *const *cells, size_t n_rows, size_t n_cols,
                   const bool *right)
{
    size_t *w = calloc(n_cols ? n_cols : 1, sizeof *w);
    if (!w) {
        out->oom = true;
        return;
    }
    for (size_t r = 0; r < n_rows; r++)
        for (size_t c = 0; c < n_cols; c++) {
            const char *s = cells[r * n_cols + c];
            size_t cw = fsc_text_width(s, strlen(s));
            if (cw > w[c])
                w[c] = cw;
        }
    for (size_t r = 0; r < n_rows; r++) {
        size_t pending = 0; /* spaces owed before the next cell: no trailing blanks */
        for (size_t c = 0; c < n_cols; c++) {
            const char *s = cells[r * n_cols + c];
            size_t pad = w[c] - fsc_text_width(s, strlen(s));
            if (c)
                pending += 2;
            if (right[c])
                pending += pad;
            if (*s) {
                for (; pending; pending--)
                    fsc_buf_putc(out, ' ');
                fsc_buf_puts(out, s);
            }
            if (!right[c])
                pending += pad;
        }
        fsc_buf_putc(out, '\n');
    }
    free(w);
}

void fsc_grid_md(fsc_buf *out, const char *const *cells, size_t n_rows, size_t n_cols,
                 const bool *right)
{
    for (size_t r = 0; r < n_rows; r++) {
        fsc_buf_putc(out, '|');
        for (size_t c = 0; c < n_cols; c++) {
            fsc_buf_putc(out, ' ');
            fsc_put_md(out, cells[r * n_cols + c]);
            fsc_buf_puts(out, " |");
        }
        fsc_buf_putc(out, '\n');
        if (r == 0) {
            fsc_buf_putc(out, '|');
            for (size_t c = 0; c < n_cols; c++)
                fsc_buf_puts(out, right[c] ? " ---: |" : " --- |");
            fsc_buf_putc(out, '\n');
        }
    }
}

/* ---- table → grid ---- */

void fsc_table_cell_human(const fsc_table *t, size_t row, size_t col, fsc_buf *out)
{
    const fsc_cell *c = &t->rows[row].cells[col];
    if (c->kind == FSC_CELL_TEXT)
        fsc_put_plain(out, c->text); /* no terminal escapes or line breaks from the input */
    else if (c->kind == FSC_CELL_NUM)
        fsc_format_human(out, c->num, t->cols[col].unit);
}

/* Strings for every cell, header first; human units or base numbers. */
static char **table_strings(const fsc_table *t, bool human)
{
    size_t n = (t->n_rows + 1) * t->n_cols;
    char **cells = calloc(n ? n : 1, sizeof *cells);
    if (!cells)
        return NULL;
    bool ok = true;
    for (size_t c = 0; c < t->n_cols; c++)
        ok &= (cells[c] = fsc_strdup(human ? t->cols[c].title : t->cols[c].name)) != NULL;
    for (size_t r = 0; r < t->n_rows; r++)
        for (size_t c = 0; c < t->n_cols; c++) {
            fsc_buf b = {0};
            const fsc_cell *cell = &t->rows[r].cells[c];
            if (human)
                fsc_table_cell_human(t, r, c, &b);
            else if (cell->kind == FSC_CELL_NUM)
                fsc_put_num(&b, cell->num);
            else if (cell->kind == FSC_CELL_TEXT)
                fsc_buf_puts(&b, cell->text);
            char *s = b.oom ? NULL : b.data ? b.data : fsc_strdup("");
            if (b.oom)
                fsc_buf_free(&b);
            ok &= (cells[(r + 1) * t->n_cols + c] = s) != NULL;
        }
    if (!ok) {
        for (size_t i = 0; i < n; i++)
            free(cells[i]);
        free(cells);
        return NULL;
    }
    return cells;
}

static void free_strings(char **cells, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(cells[i]);
    free(cells);
}

static bool *right_aligned(const fsc_table *t)
{
    bool *right = calloc(t->n_cols ? t->n_cols : 1, sizeof *right);
    for (size_t c = 0; right && c < t->n_cols; c++)
        right[c] = !t->cols[c].text;
    return right;
}

static fsc_status render_grid(const fsc_table *t, fsc_buf *out, bool md)
{
    char **cells = table_strings(t, true);
    bool *right = right_aligned(t);
    if (!cells || !right) {
        free(right);
        if (cells)
            free_strings(cells, (t->n_rows + 1) * t->n_cols);
        return FSC_E_NOMEM;
    }
    if (md)
        fsc_grid_md(out, (const char *const *)cells, t->n_rows + 1, t->n_cols, right);
    else
        fsc_grid_text(out, (const char *const *)cells, t->n_rows + 1, t->n_cols, right);
    free(right);
    free_strings(cells, (t->n_rows + 1) * t->n_cols);
    return FSC_OK;
}

/* CSV/TSV: metric names as header, base units, text cells escaped. */
static fsc_status render_sv(const fsc_table *t, fsc_buf *out, bool tsv)
{
    void (*put)(fsc_buf *, const char *) = tsv ? fsc_put_tsv : fsc_put_csv;
    char sep = tsv ? '\t' : ',';
    for (size_t c = 0; c < t->n_cols; c++) {
        if (c)
            fsc_buf_putc(out, sep);
        put(out, t->cols[c].name);
    }
    fsc_buf_putc(out, '\n');
    for (size_t r = 0; r < t->n_rows; r++) {
        for (size_t c = 0; c < t->n_cols; c++) {
            const fsc_cell *cell = &t->rows[r].cells[c];
            if (c)
                fsc_buf_putc(out, sep);
            if (cell->kind == FSC_CELL_NUM)
                fsc_put_num(out, cell->num);
            else if (cell->kind == FSC_CELL_TEXT)
                put(out, cell->text);
        }
        fsc_buf_putc(out, '\n');
    }
    return FSC_OK;
}

static fsc_status render_html(const fsc_table *t, fsc_buf *out)
{
    fsc_buf_puts(out, "<table class=\"fsc-table\">\n<thead><tr>");
    for (size_t c = 0; c < t->n_cols; c++) {
        fsc_buf_puts(out, t->cols[c].text ? "<th>" : "<th class=\"num\">");
        fsc_put_html(out, t->cols[c].title);
        fsc_buf_puts(out, "</th>");
    }
    fsc_buf_puts(out, "</tr></thead>\n<tbody>\n");
    for (size_t r = 0; r < t->n_rows; r++) {
        fsc_buf_puts(out, t->rows[r].total ? "<tr class=\"total\">" : "<tr>");
        for (size_t c = 0; c < t->n_cols; c++) {
            const fsc_cell *cell = &t->rows[r].cells[c];
            if (cell->kind == FSC_CELL_NUM) {
                fsc_buf_puts(out, "<td class=\"num\" data-v=\"");
                fsc_put_num(out, cell->num);
                fsc_buf_puts(out, "\">");
                fsc_format_human(out, cell->num, t->cols[c].unit);
            } else {
                fsc_buf_puts(out, t->cols[c].text ? "<td>" : "<td class=\"num\">");
                if (cell->kind == FSC_CELL_TEXT)
                    fsc_put_html(out, cell->text);
            }
            fsc_buf_puts(out, "</td>");
        }
        fsc_buf_puts(out, "</tr>\n");
    }
    fsc_buf_puts(out, "</tbody>\n</table>\n");
    return FSC_OK;
}

static void json_dir(fsc_jw *w, const fsc_row *row)
{
    if (row->total)
        fsc_jw_str(w, "total");
    else if (row->dir >= 0)
        fsc_jw_str(w, fsc_ddir_name((fsc_ddir)row->dir));
    else
        fsc_jw_null(w);
}

static fsc_status render_json(const fsc_table *t, fsc_buf *out)
{
    fsc_jw w;
    fsc_jw_init(&w, out, true, false);
    fsc_jw_obj(&w);
    fsc_jw_key(&w, "columns");
    fsc_jw_arr(&w);
    for (size_t c = 0; c < t->n_cols; c++) {
        fsc_jw_obj(&w);
        fsc_jw_key(&w, "name");
        fsc_jw_str(&w, t->cols[c].name);
        fsc_jw_key(&w, "title");
        fsc_jw_str(&w, t->cols[c].title);
        fsc_jw_key(&w, "unit");
        fsc_jw_str(&w, t->cols[c].text ? "text" : fsc_unit_name(t->cols[c].unit));
        fsc_jw_obj_end(&w);
    }
    fsc_jw_arr_end(&w);
    fsc_jw_key(&w, "rows");
    fsc_jw_arr(&w);
    for (size_t r = 0; r < t->n_rows; r++) {
        fsc_jw_obj(&w);
        fsc_jw_key(&w, "label");
        fsc_jw_str(&w, t->rows[r].label);
        fsc_jw_key(&w, "dir");
        json_dir(&w, &t->rows[r]);
        fsc_jw_key(&w, "values");
        fsc_jw_obj(&w);
        for (size_t c = 0; c < t->n_cols; c++) {
            const fsc_cell *cell = &t->rows[r].cells[c];
            fsc_jw_key(&w, t->cols[c].name);
            if (cell->kind == FSC_CELL_NUM)
                fsc_jw_num(&w, fsc_round15(cell->num));
            else if (cell->kind == FSC_CELL_TEXT)
                fsc_jw_str(&w, cell->text);
            else
                fsc_jw_null(&w);
        }
        fsc_jw_obj_end(&w);
        fsc_jw_obj_end(&w);
    }
    fsc_jw_arr_end(&w);
    fsc_jw_obj_end(&w);
    fsc_buf_putc(out, '\n');
    return FSC_OK;
}

fsc_status fsc_table_render(const fsc_table *t, const char *format, fsc_buf *out)
{
    fsc_status st;
    if (!strcmp(format, "text"))
        st = render_grid(t, out, false);
    else if (!strcmp(format, "md"))
        st = render_grid(t, out, true);
    else if (!strcmp(format, "csv"))
        st = render_sv(t, out, false);
    else if (!strcmp(format, "tsv"))
        st = render_sv(t, out, true);
    else if (!strcmp(format, "html"))
        st = render_html(t, out);
    else if (!strcmp(format, "json"))
        st = render_json(t, out);
    else
        return FSC_E_USAGE;
    return st == FSC_OK && out->oom ? FSC_E_NOMEM : st;
}
