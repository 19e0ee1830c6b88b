/* SPDX-License-Identifier: MIT */
/*
 * Rendering pivots (fioscope/analyze.h): workload rows × one column per system (or
 * other dimension) as text, md, html (human units, the baseline change in brackets),
 * csv, tsv (base units; the row-key field names, then the column values) or json.
 */
#include "emit_int.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The default row key (the workload fields and dir) is shown as "workload", "dir". */
/* The default rows show [system,] workload and dir instead of each workload field. */
static bool short_keys(const fsc_pivot *p)
{
    return p->workload_rows && p->n_keys >= 1;
}

static bool leads_system(const fsc_pivot *p)
{
    return !strcmp(p->key_names[0], "system");
}

static bool has_dir(const fsc_pivot *p)
{
    return !strcmp(p->key_names[p->n_keys - 1], "dir");
}

static size_t human_keys(const fsc_pivot *p)
{
    return short_keys(p) ? (size_t)(1 + leads_system(p) + has_dir(p)) : p->n_keys;
}

static const char *human_key_name(const fsc_pivot *p, size_t k)
{
    if (!short_keys(p))
        return p->key_names[k];
    if (leads_system(p) && k-- == 0)
        return "system";
    return k == 0 ? "workload" : "dir";
}

static const char *human_key(const fsc_pivot *p, const fsc_pivot_row *r, size_t k)
{
    if (!short_keys(p))
        return r->keys[k];
    if (leads_system(p) && k-- == 0)
        return r->keys[0];
    return k == 0 ? r->workload : r->keys[p->n_keys - 1];
}

/* "87.9k", "87.9k (+35.0%)" against the baseline column. */
static void cell_human(const fsc_pivot *p, const fsc_pivot_cell *c, size_t col, fsc_buf *b)
{
    if (!c->n)
        return;
    fsc_format_human(b, c->median, p->metric.m.unit);
    if (p->baseline != SIZE_MAX && col != p->baseline && isfinite(c->delta_pct))
        fsc_buf_printf(b, " (%+.1f%%)", c->delta_pct);
}

/* Title of a block: "IOPS (median over runs)". */
static void block_title(const fsc_pivot *p, fsc_buf *b)
{
    fsc_buf_puts(b, p->metric.m.title);
    fsc_buf_printf(b, " by %s", fsc_dim_get(p->col_dim)->name);
    if (p->baseline != SIZE_MAX) {
        fsc_buf_puts(b, ", change against ");
        fsc_buf_puts(b, p->cols[p->baseline]);
    }
}

static fsc_status render_grid(const fsc_pivot *p, fsc_buf *out, bool md)
{
    size_t nk = human_keys(p), nc = nk + p->n_cols, nr = p->n_rows + 1;
    char **cells = calloc(nr * nc, sizeof *cells);
    bool *right = calloc(nc, sizeof *right);
    bool ok = cells && right;
    for (size_t k = 0; ok && k < nk; k++)
        ok = (cells[k] = fsc_strdup(human_key_name(p, k))) != NULL;
    for (size_t j = 0; ok && j < p->n_cols; j++) {
        right[nk + j] = true;
        ok = (cells[nk + j] = fsc_strdup(p->cols[j])) != NULL;
    }
    for (size_t r = 0; ok && r < p->n_rows; r++) {
        char **row = cells + (r + 1) * nc;
        for (size_t k = 0; ok && k < nk; k++)
            ok = (row[k] = fsc_strdup(human_key(p, &p->rows[r], k))) != NULL;
        for (size_t j = 0; ok && j < p->n_cols; j++) {
            fsc_buf b = {0};
            cell_human(p, &p->rows[r].cells[j], j, &b);
            ok = !b.oom && (row[nk + j] = b.data ? b.data : fsc_strdup("")) != NULL;
        }
    }
    if (ok) {
        fsc_buf t = {0};
        block_title(p, &t);
        if (md) {
            fsc_buf_puts(out, "### ");
            fsc_put_md(out, t.data ? t.data : "");
            fsc_buf_puts(out, "\n\n");
            fsc_grid_md(out, (const char *const *)cells, nr, nc, right);
        } else {
            fsc_put_plain(out, t.data ? t.data : "");
            fsc_buf_putc(out, '\n');
            fsc_grid_text(out, (const char *const *)cells, nr, nc, right);
        }
        fsc_buf_free(&t);
    }
    for (size_t i = 0; cells && i < nr * nc; i++)
        free(cells[i]);
    free(cells);
    free(right);
    return ok ? FSC_OK : FSC_E_NOMEM;
}

static fsc_status render_html(const fsc_pivot *p, fsc_buf *out)
{
    size_t nk = human_keys(p);
    fsc_buf t = {0};
    block_title(p, &t);
    fsc_buf_puts(out, "<table class=\"fsc-table fsc-pivot\">\n<caption>");
    fsc_put_html(out, t.data ? t.data : "");
    fsc_buf_free(&t);
    fsc_buf_puts(out, "</caption>\n<thead><tr>");
    for (size_t k = 0; k < nk; k++) {
        fsc_buf_puts(out, "<th>");
        fsc_put_html(out, human_key_name(p, k));
        fsc_buf_puts(out, "</th>");
    }
    for (size_t j = 0; j < p->n_cols; j++) {
        fsc_buf_puts(out, "<th class=\"num\">");
        fsc_put_html(out, p->cols[j]);
        fsc_buf_puts(out, "</th>");
    }
    fsc_buf_puts(out, "</tr></thead>\n<tbody>\n");
    for (size_t r = 0; r < p->n_rows; r++) {
        fsc_buf_puts(out, "<tr>");
        for (size_t k = 0; k < nk; k++) {
            fsc_buf_puts(out, "<td>");
            fsc_put_html(out, human_key(p, &p->rows[r], k));
            fsc_buf_puts(out, "</td>");
        }
        for (size_t j = 0; j < p->n_cols; j++) {
            const fsc_pivot_cell *c = &p->rows[r].cells[j];
            if (!c->n) {
                fsc_buf_puts(out, "<td class=\"num\"></td>");
                continue;
            }
            fsc_buf_puts(out, "<td class=\"num\" data-v=\"");
            fsc_put_num(out, c->median);
            fsc_buf_puts(out, "\">");
            fsc_buf b = {0};
            cell_human(p, c, j, &b);
            fsc_put_html(out, b.data ? b.data : "");
            fsc_buf_free(&b);
            fsc_buf_puts(out, "</td>");
        }
        fsc_buf_puts(out, "</tr>\n");
    }
    fsc_buf_puts(out, "</tbody>\n</table>\n");
    return FSC_OK;
}

/* CSV/TSV: [metric,] row-key field names, the column values, then with a baseline one
 * "<value> delta_pct" column per other value; base units. */
static fsc_status render_sv(const fsc_pivot *const *ps, size_t n, fsc_buf *out, bool tsv)
{
    void (*put)(fsc_buf *, const char *) = tsv ? fsc_put_tsv : fsc_put_csv;
    char sep = tsv ? '\t' : ',';
    const fsc_pivot *h = ps[0];
    bool metric_col = n > 1;
    if (metric_col) {
        fsc_buf_puts(out, "metric");
        fsc_buf_putc(out, sep);
    }
    for (size_t k = 0; k < h->n_keys; k++) {
        if (k)
            fsc_buf_putc(out, sep);
        put(out, h->key_names[k]);
    }
    for (size_t j = 0; j < h->n_cols; j++) {
        fsc_buf_putc(out, sep);
        put(out, h->cols[j]);
    }
    for (size_t j = 0; h->baseline != SIZE_MAX && j < h->n_cols; j++) {
        if (j == h->baseline)
            continue;
        fsc_buf b = {0};
        fsc_buf_printf(&b, "%s delta_pct", h->cols[j]);
        fsc_buf_putc(out, sep);
        put(out, b.data ? b.data : "");
        fsc_buf_free(&b);
    }
    fsc_buf_putc(out, '\n');
    for (size_t i = 0; i < n; i++) {
        const fsc_pivot *p = ps[i];
        for (size_t r = 0; r < p->n_rows; r++) {
            if (metric_col) {
                put(out, p->metric.name);
                fsc_buf_putc(out, sep);
            }
            for (size_t k = 0; k < p->n_keys; k++) {
                if (k)
                    fsc_buf_putc(out, sep);
                put(out, p->rows[r].keys[k]);
            }
            for (size_t j = 0; j < p->n_cols; j++) {
                fsc_buf_putc(out, sep);
                if (p->rows[r].cells[j].n)
                    fsc_put_num(out, p->rows[r].cells[j].median);
            }
            for (size_t j = 0; p->baseline != SIZE_MAX && j < p->n_cols; j++) {
                if (j == p->baseline)
                    continue;
                fsc_buf_putc(out, sep);
                if (isfinite(p->rows[r].cells[j].delta_pct))
                    fsc_put_num(out, p->rows[r].cells[j].delta_pct);
            }
            fsc_buf_putc(out, '\n');
        }
    }
    return FSC_OK;
}

static void json_pivot(fsc_jw *w, const fsc_pivot *p)
{
    fsc_jw_obj(w);
    fsc_jw_key(w, "metric");
    fsc_jw_str(w, p->metric.name);
    fsc_jw_key(w, "title");
    fsc_jw_str(w, p->metric.m.title);
    fsc_jw_key(w, "unit");
    fsc_jw_str(w, fsc_unit_name(p->metric.m.unit));
    fsc_jw_key(w, "keys");
    fsc_jw_arr(w);
    for (size_t k = 0; k < p->n_keys; k++)
        fsc_jw_str(w, p->key_names[k]);
    fsc_jw_arr_end(w);
    fsc_jw_key(w, "columns");
    fsc_jw_arr(w);
    for (size_t j = 0; j < p->n_cols; j++)
        fsc_jw_str(w, p->cols[j]);
    fsc_jw_arr_end(w);
    fsc_jw_key(w, "baseline");
    fsc_jw_str(w, p->baseline != SIZE_MAX ? p->cols[p->baseline] : NULL);
    fsc_jw_key(w, "rows");
    fsc_jw_arr(w);
    for (size_t r = 0; r < p->n_rows; r++) {
        const fsc_pivot_row *row = &p->rows[r];
        fsc_jw_obj(w);
        fsc_jw_key(w, "workload");
        fsc_jw_str(w, row->workload);
        for (size_t k = 0; k < p->n_keys; k++) {
            fsc_jw_key(w, p->key_names[k]);
            fsc_jw_str(w, row->keys[k]);
        }
        fsc_jw_key(w, "cells");
        fsc_jw_obj(w);
        for (size_t j = 0; j < p->n_cols; j++) {
            const fsc_pivot_cell *c = &row->cells[j];
            fsc_jw_key(w, p->cols[j]);
            if (!c->n) {
                fsc_jw_null(w);
                continue;
            }
            fsc_jw_obj(w);
            fsc_jw_key(w, "median");
            fsc_jw_num(w, fsc_round15(c->median));
            fsc_jw_key(w, "n");
            fsc_jw_num(w, (double)c->n);
            fsc_jw_key(w, "spread_pct");
            fsc_jw_num(w, fsc_round15(c->spread_pct));
            if (p->baseline != SIZE_MAX) {
                fsc_jw_key(w, "delta_pct");
                if (isfinite(c->delta_pct))
                    fsc_jw_num(w, fsc_round15(c->delta_pct));
                else
                    fsc_jw_null(w);
            }
            fsc_jw_obj_end(w);
        }
        fsc_jw_obj_end(w);
        fsc_jw_obj_end(w);
    }
    fsc_jw_arr_end(w);
    fsc_jw_obj_end(w);
}

fsc_status fsc_pivot_render(const fsc_pivot *const *ps, size_t n, const char *format, fsc_buf *out)
{
    fsc_status st = FSC_OK;
    if (!n)
        return FSC_E_USAGE;
    if (!strcmp(format, "csv") || !strcmp(format, "tsv")) {
        st = render_sv(ps, n, out, !strcmp(format, "tsv"));
    } else if (!strcmp(format, "json")) {
        fsc_jw w;
        fsc_jw_init(&w, out, true, false);
        fsc_jw_obj(&w);
        fsc_jw_key(&w, "pivot");
        fsc_jw_str(&w, fsc_dim_get(ps[0]->col_dim)->name);
        fsc_jw_key(&w, "tables");
        fsc_jw_arr(&w);
        for (size_t i = 0; i < n; i++)
            json_pivot(&w, ps[i]);
        fsc_jw_arr_end(&w);
        fsc_jw_obj_end(&w);
        fsc_buf_putc(out, '\n');
    } else if (!strcmp(format, "text") || !strcmp(format, "md") || !strcmp(format, "html")) {
        for (size_t i = 0; st == FSC_OK && i < n; i++) {
            if (i)
                fsc_buf_putc(out, '\n');
            st = !strcmp(format, "html") ? render_html(ps[i], out) : render_grid(ps[i], out, !strcmp(format, "md"));
        }
    } else {
        return FSC_E_USAGE;
    }
    return st == FSC_OK && out->oom ? FSC_E_NOMEM : st;
}
