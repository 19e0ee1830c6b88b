/* SPDX-License-Identifier: MIT */
/*
 * report.xlsx with libxlsxwriter: a Summary sheet, one sheet per metric family with a
 * native bar chart, a Pivot sheet (workload rows × system columns, one block per
 * metric, change against the baseline), a Compare sheet when there are two or more
 * systems, an "Over time" sheet when the runs have fio log files (xlsx_time.c), and a
 * Sources sheet. Numbers are numeric cells in a readable unit named in
 * the header; iodepth, numjobs and the block size in bytes are numbers too. Text from
 * input is always a string cell, escaped for OOXML (see xl_text).
 */
#include "report_int.h"

#include "fioscope/chart.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Excel's cell limit is 32767 characters; stay below it on a UTF-8 boundary. */
#define MAX_CELL_BYTES 32000
/* A fixed creation time (2020-01-01T00:00:00Z) so that equal input gives equal bytes. */
#define FIXED_CREATED 1577836800
/* Family sheets with more rows than this get no chart (the Pivot sheet has them). */
#define MAX_CHART_ROWS 40
/* Pivot blocks with more workloads than this get one chart per workload. */
#define MAX_PIVOT_CHART_ROWS 12
#define MAX_WORKLOAD_CHARTS 48

typedef struct xl {
    lxw_workbook *wb;
    lxw_format *head, *text, *note, *pct, *fmt[FSC_UNIT_PCT + 1];
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

static bool is_hex(char c)
{
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

/* Text for a cell or a chart cache (OOXML ST_Xstring): code points XML 1.0 cannot
 * carry (C0 controls other than tab, LF, CR; U+FFFE, U+FFFF) become _xHHHH_, a
 * literal "_xHHHH_" gets its underscore escaped (_x005F_) so that it reads back as
 * written, invalid UTF-8 becomes U+FFFD, and the text is cut below Excel's limit. */
static char *xl_text(const char *s)
{
    fsc_buf b = {0};
    size_t n = strlen(s);
    for (size_t i = 0; i < n && b.len < MAX_CELL_BYTES;) {
        unsigned char c = (unsigned char)s[i];
        size_t len = fsc_utf8_len(s + i, n - i);
        if (len == 0) {
            fsc_buf_puts(&b, "\xef\xbf\xbd");
            i++;
        } else if (c < 0x20 && c != '\t' && c != '\n' && c != '\r') {
            fsc_buf_printf(&b, "_x%04X_", c);
            i++;
        } else if (len == 3 && c == 0xEF && (unsigned char)s[i + 1] == 0xBF &&
                   ((unsigned char)s[i + 2] & 0xFE) == 0xBE) {
            fsc_buf_printf(&b, "_x%04X_", 0xFF00u | (unsigned char)s[i + 2] | 0xF0u);
            i += 3;
        } else if (c == '_' && i + 6 < n && s[i + 1] == 'x' && is_hex(s[i + 2]) && is_hex(s[i + 3]) &&
                   is_hex(s[i + 4]) && is_hex(s[i + 5]) && s[i + 6] == '_') {
            fsc_buf_puts(&b, "_x005F_");
            i++;
        } else {
            fsc_buf_add(&b, s + i, len);
            i += len;
        }
    }
    if (!b.data)
        fsc_buf_puts(&b, "");
    if (b.oom) {
        fsc_buf_free(&b);
        return NULL;
    }
    return b.data;
}

/* Text for a chart title or axis name (DrawingML, where _xHHHH_ means nothing):
 * characters XML cannot carry become spaces. */
static char *xl_plain(const char *s)
{
    char *t = fsc_strdup(s);
    if (!t)
        return NULL;
    for (unsigned char *p = (unsigned char *)t; *p; p++) {
        if (*p < 0x20)
            *p = ' ';
        else if (p[0] == 0xEF && p[1] == 0xBF && (p[2] & 0xFE) == 0xBE)
            p[0] = p[1] = p[2] = ' ';
    }
    return t;
}

static void put_string(xl *x, lxw_worksheet *ws, lxw_row_t r, lxw_col_t c, const char *s, lxw_format *f)
{
    if (!s)
        return;
    char *t = xl_text(s);
    if (!t) {
        note(x, LXW_ERROR_MEMORY_MALLOC_FAILED);
        return;
    }
    note(x, worksheet_write_string(ws, r, c, t, f));
    free(t);
}

static void put_num(xl *x, lxw_worksheet *ws, lxw_row_t r, lxw_col_t c, double v, fsc_unit u)
{
    const char *suffix, *format;
    double div = fsc_xlsx_unit(u, &suffix, &format);
    if (isfinite(v))
        note(x, worksheet_write_number(ws, r, c, v / div, x->fmt[u]));
}

/* "write BW (MiB/s)": a header with the unit of its numbers. */
static void header_text(const char *title, fsc_unit u, bool text, fsc_buf *b)
{
    const char *suffix, *format;
    fsc_xlsx_unit(u, &suffix, &format);
    if (!text && suffix[0])
        fsc_buf_printf(b, "%s (%s)", title, suffix);
    else
        fsc_buf_puts(b, title);
}

static void put_header(xl *x, lxw_worksheet *ws, lxw_row_t r, lxw_col_t c, const char *title, fsc_unit u, bool text)
{
    fsc_buf b = {0};
    header_text(title, u, text, &b);
    put_string(x, ws, r, c, b.data ? b.data : "", x->head);
    fsc_buf_free(&b);
}

/* An integer written as text ("32", "4"): its value, else NAN. */
static double int_text(const char *s)
{
    if (!s || !*s)
        return NAN;
    char *end;
    double v = strtod(s, &end);
    return *end == 0 && v == floor(v) && v >= 0 && v < 1e15 ? v : NAN;
}

/* Printing (and LibreOffice's PDF export): landscape, one page wide, the header row
 * on every page. */
static void print_setup(lxw_worksheet *ws, bool header)
{
    worksheet_set_landscape(ws);
    worksheet_set_paper(ws, 9); /* A4 */
    worksheet_fit_to_pages(ws, 1, 0);
    if (header)
        worksheet_repeat_rows(ws, 0, 0);
}

/* ---- table sheets ---- */

/* How a table column goes into a sheet: numbers, text, or text that holds numbers
 * (iodepth, jobs: one numeric column; bs: the text and a "bs (bytes)" column). */
typedef enum col_kind { COL_PLAIN, COL_INT, COL_BS } col_kind;

static col_kind kind_of(const fsc_table *t, size_t c)
{
    const char *n = t->cols[c].name;
    if (!t->cols[c].text)
        return COL_PLAIN;
    if (!strcmp(n, "bs"))
        return COL_BS;
    if (strcmp(n, "iodepth") && strcmp(n, "jobs") && strcmp(n, "numjobs"))
        return COL_PLAIN;
    for (size_t r = 0; r < t->n_rows; r++) {
        const fsc_cell *cell = &t->rows[r].cells[c];
        if (cell->kind == FSC_CELL_TEXT && cell->text[0] && isnan(int_text(cell->text)))
            return COL_PLAIN; /* not all numbers: keep the text as it is */
    }
    return COL_INT;
}

/* Wide enough for the longest text (in bytes, capped), 14 for numbers. */
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

/* One table as a sheet: header row, one row per table row, frozen and filterable.
 * sheet_col[c] receives the sheet column of table column c. */
static lxw_worksheet *table_sheet(xl *x, const char *name, const fsc_table *t, lxw_col_t *sheet_col)
{
    lxw_worksheet *ws = workbook_add_worksheet(x->wb, name);
    if (!ws) {
        note(x, LXW_ERROR_MEMORY_MALLOC_FAILED);
        return NULL;
    }
    lxw_col_t sc = 0;
    for (size_t c = 0; c < t->n_cols; c++) {
        col_kind k = kind_of(t, c);
        sheet_col[c] = sc;
        put_header(x, ws, 0, sc, t->cols[c].title, t->cols[c].unit, t->cols[c].text);
        worksheet_set_column(ws, sc, sc, k == COL_INT ? 10 : column_width(t, c), NULL);
        for (size_t r = 0; r < t->n_rows; r++) {
            const fsc_cell *cell = &t->rows[r].cells[c];
            lxw_row_t row = (lxw_row_t)(r + 1);
            if (cell->kind == FSC_CELL_NUM)
                put_num(x, ws, row, sc, cell->num, t->cols[c].unit);
            else if (cell->kind == FSC_CELL_TEXT && k == COL_INT && cell->text[0])
                put_num(x, ws, row, sc, int_text(cell->text), FSC_UNIT_COUNT);
            else if (cell->kind == FSC_CELL_TEXT)
                put_string(x, ws, row, sc, cell->text, x->text);
            if (k == COL_BS && cell->kind == FSC_CELL_TEXT)
                put_num(x, ws, row, sc + 1, fsc_bs_bytes(cell->text), FSC_UNIT_COUNT);
        }
        if (k == COL_BS) {
            sc++;
            put_string(x, ws, 0, sc, "bs (bytes)", x->head);
            worksheet_set_column(ws, sc, sc, 11, NULL);
        }
        sc++;
    }
    worksheet_freeze_panes(ws, 1, 1);
    if (sc)
        note(x, worksheet_autofilter(ws, 0, 0, (lxw_row_t)t->n_rows, (lxw_col_t)(sc - 1)));
    print_setup(ws, true);
    return ws;
}

/* Do the numbers of these columns span more than 200x (log axis)? */
static bool wide_range(const fsc_table *t, const bool *use)
{
    double lo = INFINITY, hi = 0;
    for (size_t c = 0; c < t->n_cols; c++)
        for (size_t r = 0; use[c] && r < t->n_rows; r++) {
            const fsc_cell *cell = &t->rows[r].cells[c];
            if (cell->kind == FSC_CELL_NUM && cell->num > 0) {
                lo = fmin(lo, cell->num);
                hi = fmax(hi, cell->num);
            }
        }
    return lo < INFINITY && hi / lo >= 200;
}

/* A chart title: plain text (libxlsxwriter copies it; a leading '=' would make it a
 * formula, so such a title starts with a space). */
static void set_title(xl *x, lxw_chart *ch, const char *title)
{
    fsc_buf b = {0};
    if (title[0] == '=')
        fsc_buf_putc(&b, ' ');
    fsc_buf_puts(&b, title);
    char *t = b.oom ? NULL : xl_plain(b.data);
    fsc_buf_free(&b);
    if (!t) {
        note(x, LXW_ERROR_MEMORY_MALLOC_FAILED);
        return;
    }
    chart_title_set_name(ch, t);
    lxw_chart_font font = {.size = 12, .bold = LXW_TRUE};
    chart_title_set_name_font(ch, &font);
    free(t);
}

/* Column bars of the numeric columns over the label column. Latency charts leave
 * max out (one stall of seconds would flatten means and p99s to zero) and every
 * chart whose values span more than 200x gets a log axis. */
static void family_chart(xl *x, lxw_worksheet *ws, const fsc_report_family *f, const lxw_col_t *sheet_col)
{
    const fsc_table *t = f->table;
    if (!t->n_rows || t->n_cols < 2 || t->n_rows > MAX_CHART_ROWS) {
        if (t->n_rows > MAX_CHART_ROWS)
            put_string(x, ws, 0, sheet_col[t->n_cols - 1] + 2,
                       "No chart here: too many rows for one readable chart (see the Pivot sheet).", x->note);
        return;
    }
    bool *use = calloc(t->n_cols, sizeof *use);
    if (!use)
        return;
    size_t n_series = 0;
    bool latency = !strcmp(f->sheet, "Latency");
    for (size_t c = 1; c < t->n_cols; c++) {
        const char *n = t->cols[c].name;
        size_t len = strlen(n);
        /* latency: completion mean and p99 only (max stays in the table) */
        use[c] = !t->cols[c].text &&
                 (!latency || (strstr(n, ".clat_ns.") && ((len > 5 && !strcmp(n + len - 5, ".mean")) ||
                                                          (len > 4 && !strcmp(n + len - 4, ".p99")))));
        n_series += use[c];
    }
    lxw_chart *ch = n_series ? workbook_add_chart(x->wb, LXW_CHART_COLUMN) : NULL;
    if (!ch) {
        free(use);
        if (n_series)
            note(x, LXW_ERROR_MEMORY_MALLOC_FAILED);
        return;
    }
    const char *unit = NULL, *suffix, *format;
    for (size_t c = 1; c < t->n_cols; c++) {
        if (!use[c])
            continue;
        lxw_chart_series *s = chart_add_series(ch, NULL, NULL);
        if (!s)
            continue;
        chart_series_set_categories(s, f->sheet, 1, 0, (lxw_row_t)t->n_rows, 0);
        chart_series_set_values(s, f->sheet, 1, sheet_col[c], (lxw_row_t)t->n_rows, sheet_col[c]);
        chart_series_set_name_range(s, f->sheet, 0, sheet_col[c]);
        fsc_xlsx_unit(t->cols[c].unit, &suffix, &format);
        if (!unit)
            unit = suffix;
    }
    bool log = wide_range(t, use);
    char title[160];
    snprintf(title, sizeof title, "%s%s%s%s%s", f->sheet, !strcmp(f->sheet, "Latency") ? ": mean and p99" : "",
             unit && unit[0] ? " (" : "", unit ? unit : "", unit && unit[0] ? ")" : "");
    set_title(x, ch, title);
    chart_axis_set_name(ch->y_axis, log ? "log scale" : unit && unit[0] ? unit : f->sheet);
    chart_axis_set_num_format(ch->y_axis, "#,##0.###");
    if (log)
        chart_axis_set_log_base(ch->y_axis, 10);
    chart_legend_set_position(ch, LXW_CHART_LEGEND_BOTTOM);
    lxw_chart_options opt = {.x_scale = 2.0, .y_scale = 1.6};
    note(x, worksheet_insert_chart_opt(ws, 1, (lxw_col_t)(sheet_col[t->n_cols - 1] + 2), ch, &opt));
    free(use);
}

/* ---- Pivot sheet ---- */

/* Columns of a pivot block: workload, then its key fields (bs also in bytes), then one
 * column per system, then one change column per non-baseline system. */
typedef struct pivot_cols {
    lxw_col_t workload, first_key, first_sys, first_delta, end;
} pivot_cols;

static bool key_is(const fsc_pivot *p, size_t k, const char *name)
{
    return !strcmp(p->key_names[k], name);
}

/* The key columns in the order shown: dir first (it tells the rows of a mixed
 * workload apart), then the others as the pivot has them. */
static size_t key_order(const fsc_pivot *p, size_t o)
{
    size_t dir = SIZE_MAX;
    for (size_t k = 0; k < p->n_keys; k++)
        if (key_is(p, k, "dir"))
            dir = k;
    if (dir == SIZE_MAX)
        return o;
    if (o == 0)
        return dir;
    return o - 1 < dir ? o - 1 : o;
}

static pivot_cols layout_of(const fsc_pivot *p)
{
    pivot_cols pc = {0, 1, 0, 0, 0};
    lxw_col_t c = 1;
    for (size_t k = 0; k < p->n_keys; k++)
        c += key_is(p, k, "bs") ? 2 : 1;
    pc.first_sys = c;
    c += (lxw_col_t)p->n_cols;
    pc.first_delta = c;
    if (p->baseline != SIZE_MAX)
        c += (lxw_col_t)(p->n_cols - 1);
    pc.end = c;
    return pc;
}

/* The report's colour of system i (the same as in every PNG/SVG chart). */
static lxw_color_t system_color(size_t i)
{
    char hex[8];
    fsc_chart_color_hex((int)i, hex);
    return (lxw_color_t)strtoul(hex + 1, NULL, 16);
}

static void pivot_chart(xl *x, lxw_worksheet *ws, const fsc_pivot *p, const char *title, const pivot_cols *pc,
                        lxw_row_t head, lxw_col_t at_col, lxw_row_t *at_row)
{
    if (!p->n_rows || !p->n_cols)
        return;
    const char *suffix, *format;
    fsc_xlsx_unit(p->metric.m.unit, &suffix, &format);
    double lo = INFINITY, hi = 0;
    for (size_t r = 0; r < p->n_rows; r++)
        for (size_t c = 0; c < p->n_cols; c++)
            if (p->rows[r].cells[c].n && p->rows[r].cells[c].median > 0) {
                lo = fmin(lo, p->rows[r].cells[c].median);
                hi = fmax(hi, p->rows[r].cells[c].median);
            }
    bool log = lo < INFINITY && hi / lo >= (p->metric.m.unit == FSC_UNIT_NS ? 20 : 200);
    size_t n_charts = p->n_rows <= MAX_PIVOT_CHART_ROWS ? 1 : p->n_rows;
    if (n_charts > MAX_WORKLOAD_CHARTS)
        n_charts = MAX_WORKLOAD_CHARTS;
    for (size_t i = 0; i < n_charts; i++) {
        lxw_chart *ch = workbook_add_chart(x->wb, LXW_CHART_COLUMN);
        if (!ch) {
            note(x, LXW_ERROR_MEMORY_MALLOC_FAILED);
            return;
        }
        fsc_buf t = {0};
        if (n_charts == 1) {
            /* categories: the workloads; one series per system */
            for (size_t c = 0; c < p->n_cols; c++) {
                lxw_chart_series *s = chart_add_series(ch, NULL, NULL);
                if (!s)
                    continue;
                chart_series_set_categories(s, "Pivot", head + 1, pc->workload, head + (lxw_row_t)p->n_rows,
                                            pc->workload);
                chart_series_set_values(s, "Pivot", head + 1, pc->first_sys + (lxw_col_t)c,
                                        head + (lxw_row_t)p->n_rows, pc->first_sys + (lxw_col_t)c);
                chart_series_set_name_range(s, "Pivot", head, pc->first_sys + (lxw_col_t)c);
                lxw_chart_fill fill = {.color = system_color(c)};
                chart_series_set_fill(s, &fill);
            }
            fsc_buf_printf(&t, "%s by workload and system%s%s%s", title, suffix[0] ? " (" : "", suffix,
                           suffix[0] ? ")" : "");
        } else {
            /* one workload: categories are the systems (header), values its row */
            lxw_chart_series *s = chart_add_series(ch, NULL, NULL);
            lxw_row_t row = head + 1 + (lxw_row_t)i;
            if (s) {
                chart_series_set_categories(s, "Pivot", head, pc->first_sys, head,
                                            pc->first_sys + (lxw_col_t)p->n_cols - 1);
                chart_series_set_values(s, "Pivot", row, pc->first_sys, row, pc->first_sys + (lxw_col_t)p->n_cols - 1);
                chart_series_set_name_range(s, "Pivot", row, pc->workload);
                lxw_chart_fill fills[FSC_CHART_COLORS];
                lxw_chart_point pts[FSC_CHART_COLORS], *ptrs[FSC_CHART_COLORS + 1];
                size_t np = p->n_cols < FSC_CHART_COLORS ? p->n_cols : FSC_CHART_COLORS;
                for (size_t c = 0; c < np; c++) {
                    fills[c] = (lxw_chart_fill){.color = system_color(c)};
                    pts[c] = (lxw_chart_point){.fill = &fills[c]};
                    ptrs[c] = &pts[c];
                }
                ptrs[np] = NULL;
                note(x, chart_series_set_points(s, ptrs));
            }
            fsc_buf_printf(&t, "%s: %s", title, p->rows[i].workload ? p->rows[i].workload : "");
            chart_legend_set_position(ch, LXW_CHART_LEGEND_NONE);
        }
        set_title(x, ch, t.data ? t.data : title);
        fsc_buf_free(&t);
        chart_axis_set_name(ch->y_axis, log ? "log scale" : suffix[0] ? suffix : title);
        chart_axis_set_num_format(ch->y_axis, "#,##0.###");
        if (log)
            chart_axis_set_log_base(ch->y_axis, 10);
        if (n_charts == 1)
            chart_legend_set_position(ch, LXW_CHART_LEGEND_BOTTOM);
        lxw_chart_options opt = {.x_scale = n_charts == 1 ? 2.2 : 1.0, .y_scale = n_charts == 1 ? 1.3 : 1.0};
        lxw_col_t col = at_col + (lxw_col_t)(n_charts == 1 ? 0 : (i % 3) * 8);
        lxw_row_t row = *at_row + (lxw_row_t)(n_charts == 1 ? 0 : (i / 3) * 16);
        note(x, worksheet_insert_chart_opt(ws, row, col, ch, &opt));
    }
    *at_row += (lxw_row_t)(n_charts == 1 ? 21 : ((n_charts + 2) / 3) * 16 + 1);
}


/* One block: a title row, a header row, one row per workload. Returns the next row. */
static lxw_row_t pivot_block(xl *x, lxw_worksheet *ws, const fsc_pivot *p, const char *title, lxw_row_t row,
                             const pivot_cols *pc)
{
    fsc_buf t = {0};
    fsc_buf_printf(&t, "%s: median over the repeats of each workload and system", title);
    if (p->baseline != SIZE_MAX)
        fsc_buf_printf(&t, "; change against %s", p->cols[p->baseline]);
    put_string(x, ws, row++, 0, t.data ? t.data : title, x->note);
    fsc_buf_free(&t);
    lxw_row_t head = row++;
    put_string(x, ws, head, pc->workload, "workload · dir", x->head);
    lxw_col_t c = pc->first_key;
    for (size_t o = 0; o < p->n_keys; o++) {
        size_t k = key_order(p, o);
        put_string(x, ws, head, c++, p->key_names[k], x->head);
        if (key_is(p, k, "bs"))
            put_string(x, ws, head, c++, "bs (bytes)", x->head);
    }
    for (size_t s = 0; s < p->n_cols; s++)
        put_header(x, ws, head, pc->first_sys + (lxw_col_t)s, p->cols[s], p->metric.m.unit, false);
    c = pc->first_delta;
    for (size_t s = 0; p->baseline != SIZE_MAX && s < p->n_cols; s++) {
        if (s == p->baseline)
            continue;
        fsc_buf h = {0};
        fsc_buf_printf(&h, "%s vs %s (%%)", p->cols[s], p->cols[p->baseline]);
        put_string(x, ws, head, c++, h.data ? h.data : "", x->head);
        fsc_buf_free(&h);
    }
    for (size_t r = 0; r < p->n_rows; r++, row++) {
        const fsc_pivot_row *pr = &p->rows[r];
        fsc_buf name = {0};
        fsc_buf_puts(&name, pr->workload ? pr->workload : "");
        for (size_t k = 0; k < p->n_keys; k++)
            if (key_is(p, k, "dir") && pr->keys[k][0])
                fsc_buf_printf(&name, " · %s", pr->keys[k]);
        put_string(x, ws, row, pc->workload, name.data ? name.data : "", x->text);
        fsc_buf_free(&name);
        c = pc->first_key;
        for (size_t o = 0; o < p->n_keys; o++) {
            size_t k = key_order(p, o);
            const char *v = pr->keys[k];
            if (key_is(p, k, "bs")) {
                put_string(x, ws, row, c++, v, x->text);
                put_num(x, ws, row, c++, fsc_bs_bytes(v), FSC_UNIT_COUNT);
            } else if ((key_is(p, k, "iodepth") || key_is(p, k, "numjobs")) && !isnan(int_text(v)))
                put_num(x, ws, row, c++, int_text(v), FSC_UNIT_COUNT);
            else
                put_string(x, ws, row, c++, v, x->text);
        }
        c = pc->first_delta;
        for (size_t s = 0; s < p->n_cols; s++) {
            const fsc_pivot_cell *cell = &pr->cells[s];
            if (cell->n)
                put_num(x, ws, row, pc->first_sys + (lxw_col_t)s, cell->median, p->metric.m.unit);
            if (p->baseline == SIZE_MAX || s == p->baseline)
                continue;
            if (cell->n && isfinite(cell->delta_pct))
                note(x, worksheet_write_number(ws, row, c, cell->delta_pct / 100, x->pct));
            c++;
        }
    }
    return row + 1;
}

static void pivot_sheet(xl *x, const fsc_xlsx_in *in)
{
    if (!in->n_pivots)
        return;
    lxw_worksheet *ws = workbook_add_worksheet(x->wb, "Pivot");
    if (!ws) {
        note(x, LXW_ERROR_MEMORY_MALLOC_FAILED);
        return;
    }
    lxw_row_t row = 0, chart_row = 1;
    lxw_col_t widest = 0;
    for (size_t i = 0; i < in->n_pivots; i++) {
        pivot_cols pc = layout_of(in->pivots[i]);
        widest = pc.end > widest ? pc.end : widest;
    }
    lxw_row_t *heads = calloc(in->n_pivots, sizeof *heads);
    if (!heads) {
        note(x, LXW_ERROR_MEMORY_MALLOC_FAILED);
        return;
    }
    for (size_t i = 0; i < in->n_pivots; i++) {
        pivot_cols pc = layout_of(in->pivots[i]);
        heads[i] = row + 1;
        row = pivot_block(x, ws, in->pivots[i], in->pivot_titles[i], row, &pc);
    }
    /* the charts under the tables, so that a printed page is as wide as the tables */
    chart_row = row + 1;
    for (size_t i = 0; i < in->n_pivots; i++) {
        pivot_cols pc = layout_of(in->pivots[i]);
        pivot_chart(x, ws, in->pivots[i], in->pivot_titles[i], &pc, heads[i], 0, &chart_row);
    }
    free(heads);
    worksheet_set_column(ws, 0, 0, 28, NULL);
    worksheet_set_column(ws, 1, widest ? widest - 1 : 1, 13, NULL);
    print_setup(ws, false);
}

/* ---- Compare sheet ---- */

static void compare_sheet(xl *x, const fsc_xlsx_in *in)
{
    static const char *const heads[] = {"workload", "dir",     "metric", "baseline", "system", "baseline value",
                                        "value",    "unit",    "change (%)", "n baseline", "n system",
                                        "p (Mann-Whitney)", "verdict"};
    if (!in->n_cmp)
        return;
    lxw_worksheet *ws = workbook_add_worksheet(x->wb, "Compare");
    if (!ws) {
        note(x, LXW_ERROR_MEMORY_MALLOC_FAILED);
        return;
    }
    for (size_t c = 0; c < FSC_ARRAY_SIZE(heads); c++)
        put_string(x, ws, 0, (lxw_col_t)c, heads[c], x->head);
    for (size_t i = 0; i < in->n_cmp; i++) {
        const fsc_xlsx_cmp *r = &in->cmp[i];
        lxw_row_t row = (lxw_row_t)(i + 1);
        const char *suffix, *format;
        fsc_xlsx_unit(r->unit, &suffix, &format);
        put_string(x, ws, row, 0, r->workload, x->text);
        put_string(x, ws, row, 1, r->dir, x->text);
        put_string(x, ws, row, 2, r->metric, x->text);
        put_string(x, ws, row, 3, r->base, x->text);
        put_string(x, ws, row, 4, r->system, x->text);
        put_num(x, ws, row, 5, r->base_v, r->unit);
        put_num(x, ws, row, 6, r->v, r->unit);
        put_string(x, ws, row, 7, suffix, x->text);
        if (isfinite(r->delta_pct))
            note(x, worksheet_write_number(ws, row, 8, r->delta_pct / 100, x->pct));
        put_num(x, ws, row, 9, (double)r->n_base, FSC_UNIT_COUNT);
        put_num(x, ws, row, 10, (double)r->n, FSC_UNIT_COUNT);
        if (isfinite(r->p))
            note(x, worksheet_write_number(ws, row, 11, r->p, x->fmt[FSC_UNIT_NONE]));
        put_string(x, ws, row, 12,
                   !isfinite(r->p) ? "too few repeats to tell" : r->p < 0.05 ? "significant (p < 0.05)" : "not significant",
                   x->text);
    }
    worksheet_set_column(ws, 0, 0, 28, NULL);
    worksheet_set_column(ws, 1, 1, 8, NULL);
    worksheet_set_column(ws, 2, 2, 24, NULL);
    worksheet_set_column(ws, 3, 4, 16, NULL);
    worksheet_set_column(ws, 5, 11, 13, NULL);
    worksheet_set_column(ws, 12, 12, 24, NULL);
    worksheet_freeze_panes(ws, 1, 1);
    note(x, worksheet_autofilter(ws, 0, 0, (lxw_row_t)in->n_cmp, FSC_ARRAY_SIZE(heads) - 1));
    print_setup(ws, true);
}

/* ---- Sources sheet ---- */

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
    print_setup(ws, true);
}

static void make_formats(xl *x)
{
    x->head = workbook_add_format(x->wb);
    format_set_bold(x->head);
    format_set_bg_color(x->head, 0xDDE5F0);
    format_set_text_wrap(x->head);
    x->text = workbook_add_format(x->wb);
    x->note = workbook_add_format(x->wb);
    format_set_italic(x->note);
    format_set_font_color(x->note, 0x52606D);
    x->pct = workbook_add_format(x->wb);
    format_set_num_format(x->pct, "+0.0%;-0.0%;0.0%");
    for (int u = 0; u <= FSC_UNIT_PCT; u++) {
        const char *suffix, *format;
        fsc_xlsx_unit((fsc_unit)u, &suffix, &format);
        x->fmt[u] = workbook_add_format(x->wb);
        format_set_num_format(x->fmt[u], format);
    }
}

bool fsc_xlsx_available(const char **why)
{
    return fsc_xlsx_api_open(why);
}

fsc_status fsc_xlsx_write(const char *path, const char *tmpdir, const fsc_xlsx_in *in, fsc_buf *err)
{
    const char *why;
    if (!fsc_xlsx_api_open(&why)) {
        fsc_buf_puts(err, why);
        return FSC_E_UNSUPPORTED;
    }
    lxw_workbook_options wopt = {.constant_memory = LXW_FALSE, .tmpdir = (char *)tmpdir, .use_zip64 = LXW_FALSE};
    xl x = {.wb = workbook_new_opt(path, &wopt), .error = LXW_NO_ERROR};
    if (!x.wb) {
        fsc_buf_printf(err, "%s: cannot create workbook", path);
        return FSC_E_IO;
    }
    lxw_doc_properties props = {.title = (char *)"fio results", .author = (char *)"fioscope",
                                .created = FIXED_CREATED};
    note(&x, workbook_set_properties(x.wb, &props));
    make_formats(&x);
    size_t max_cols = in->summary ? in->summary->n_cols : 0;
    for (size_t i = 0; i < in->n_fam; i++)
        if (in->fam[i].table && in->fam[i].table->n_cols > max_cols)
            max_cols = in->fam[i].table->n_cols;
    lxw_col_t *sheet_col = calloc(max_cols + 1, sizeof *sheet_col);
    if (!sheet_col) {
        workbook_close(x.wb);
        return FSC_E_NOMEM;
    }
    if (in->summary)
        table_sheet(&x, "Summary", in->summary, sheet_col);
    pivot_sheet(&x, in);
    compare_sheet(&x, in);
    for (size_t i = 0; i < in->n_fam; i++) {
        if (!in->fam[i].table)
            continue;
        lxw_worksheet *ws = table_sheet(&x, in->fam[i].sheet, in->fam[i].table, sheet_col);
        if (ws && in->fam[i].chart)
            family_chart(&x, ws, &in->fam[i], sheet_col);
    }
    free(sheet_col);
    fsc_xlsx_fmt tf = {.head = x.head};
    memcpy(tf.num, x.fmt, sizeof tf.num);
    fsc_xlsx_time_sheet(x.wb, in->set, &tf, &x.error);
    sources_sheet(&x, in->set);
    lxw_error closed = workbook_close(x.wb);
    note(&x, closed);
    if (x.error != LXW_NO_ERROR) {
        fsc_buf_printf(err, "%s: %s", path, lxw_strerror(x.error));
        return FSC_E_IO;
    }
    return FSC_OK;
}
