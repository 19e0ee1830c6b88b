/* SPDX-License-Identifier: MIT */
/*
 * Rendering a comparison: one block per metric (text, md) in the manner of benchstat,
 * or one flat line per label and metric (csv, tsv), or JSON with the samples.
 */
#include "emit_int.h"
#include "fioscope/compare.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define ANSI_GREEN "\033[32m"
#define ANSI_RED "\033[31m"
#define ANSI_RESET "\033[0m"

enum { CMP_NCOLS = 5 };

static void side_text(fsc_buf *b, const fsc_cmp_side *s, fsc_unit unit)
{
    fsc_format_human(b, s->median, unit);
    if (s->n > 1)
        fsc_buf_printf(b, " ± %.0f%%", s->spread_pct);
}

static void change_text(fsc_buf *b, double change, fsc_unit unit)
{
    if (change == 0) {
        fsc_buf_puts(b, "0");
        return;
    }
    fsc_buf_putc(b, change > 0 ? '+' : '-');
    fsc_format_human(b, fabs(change), unit);
}

static void delta_text(fsc_buf *b, const fsc_cmp_cell *c, bool color)
{
    const char *on = !color ? "" : c->verdict > 0 ? ANSI_GREEN : c->verdict < 0 ? ANSI_RED : "";
    fsc_buf_puts(b, on);
    if (!c->significant)
        fsc_buf_puts(b, "~");
    else if (isnan(c->delta_pct))
        fsc_buf_puts(b, "?");
    else
        fsc_buf_printf(b, "%+.2f%%", c->delta_pct);
    if (*on)
        fsc_buf_puts(b, ANSI_RESET);
    if (c->tested)
        fsc_buf_printf(b, " (p=%.3f n=%zu+%zu)", c->p, c->base.n, c->new_.n);
}

/* The five strings of one row of a metric block. */
static bool block_row(char **out, const char *label, const fsc_cmp_cell *c, fsc_unit unit,
                      bool geo, bool color)
{
    fsc_buf b[CMP_NCOLS] = {{0}};
    fsc_put_plain(&b[0], label);
    if (geo) {
        fsc_format_human(&b[1], c->base.median, unit);
        fsc_format_human(&b[2], c->new_.median, unit);
    } else {
        side_text(&b[1], &c->base, unit);
        side_text(&b[2], &c->new_, unit);
        change_text(&b[3], c->change, unit);
    }
    delta_text(&b[4], c, color);
    bool ok = true;
    for (int i = 0; i < CMP_NCOLS; i++) {
        out[i] = b[i].oom ? NULL : b[i].data ? b[i].data : fsc_strdup("");
        if (b[i].oom)
            fsc_buf_free(&b[i]);
        ok &= out[i] != NULL;
    }
    return ok;
}

/* Header + rows + geomean of one metric as a string grid. *n_rows receives its rows. */
static char **metric_block(const fsc_comparison *cmp, size_t col, bool color, bool md,
                           size_t *n_rows)
{
    size_t n = cmp->n_rows + 2;
    char **cells = calloc(n * CMP_NCOLS, sizeof *cells);
    if (!cells)
        return NULL;
    static const char *const head[] = {"base", "new", "change", "delta"};
    cells[0] = fsc_strdup(md ? "label" : cmp->cols[col].title); /* md has a heading */
    for (int i = 0; i < 4; i++)
        cells[1 + i] = fsc_strdup(head[i]);
    size_t r = 1;
    bool ok = true;
    for (size_t i = 0; i < cmp->n_rows; i++) {
        const fsc_cmp_cell *c = &cmp->rows[i].cells[col];
        if (!c->present)
            continue;
        ok &= block_row(cells + r++ * CMP_NCOLS, cmp->rows[i].label, c, cmp->cols[col].unit,
                        false, color);
    }
    if (cmp->geomean[col].present && cmp->geomean[col].base.n > 1)
        ok &= block_row(cells + r++ * CMP_NCOLS, "geomean", &cmp->geomean[col],
                        cmp->cols[col].unit, true, color);
    *n_rows = r;
    for (size_t i = 0; i < CMP_NCOLS; i++)
        ok &= cells[i] != NULL;
    if (!ok) {
        for (size_t i = 0; i < n * CMP_NCOLS; i++)
            free(cells[i]);
        free(cells);
        return NULL;
    }
    return cells;
}

static void label_list(fsc_buf *out, const char *what, char **list, size_t n, bool md)
{
    if (!n)
        return;
    fsc_buf_puts(out, what);
    for (size_t i = 0; i < n; i++) {
        char *cut = fsc_text_cap(list[i], FSC_CELL_MAX_COLS);
        fsc_buf_puts(out, i ? ", " : " ");
        if (md)
            fsc_put_md(out, cut ? cut : list[i]);
        else
            fsc_put_plain(out, cut ? cut : list[i]);
        free(cut);
    }
    fsc_buf_puts(out, md ? "\n\n" : "\n");
}

static void footer(const fsc_comparison *cmp, fsc_buf *out, bool md)
{
    label_list(out, "only in base:", cmp->only_base, cmp->n_only_base, md);
    label_list(out, "only in new:", cmp->only_new, cmp->n_only_new, md);
    fsc_buf_printf(out,
                   "base/new: median ± largest distance from it; p: two-sided Mann-Whitney U "
                   "test, ~ = not significant at alpha=%.2g (or too few runs)\n",
                   cmp->alpha);
}

static fsc_status render_blocks(const fsc_comparison *cmp, fsc_buf *out, bool md, bool color)
{
    static const bool right[CMP_NCOLS] = {false, true, true, true, false};
    for (size_t col = 0; col < cmp->n_cols; col++) {
        size_t n_rows;
        char **cells = metric_block(cmp, col, color && !md, md, &n_rows);
        if (!cells)
            return FSC_E_NOMEM;
        if (md) {
            fsc_buf_puts(out, "### ");
            fsc_put_md(out, cmp->cols[col].title);
            fsc_buf_puts(out, "\n\n");
            fsc_grid_md(out, (const char *const *)cells, n_rows, CMP_NCOLS, right);
        } else {
            fsc_grid_text(out, (const char *const *)cells, n_rows, CMP_NCOLS, right);
        }
        fsc_buf_putc(out, '\n');
        for (size_t i = 0; i < (cmp->n_rows + 2) * CMP_NCOLS; i++)
            free(cells[i]);
        free(cells);
    }
    footer(cmp, out, md);
    return FSC_OK;
}

/* ---- csv / tsv ---- */

static void sv_num(fsc_buf *out, char sep, double v, bool show)
{
    fsc_buf_putc(out, sep);
    if (show && isfinite(v))
        fsc_put_num(out, v);
}

static void sv_line(fsc_buf *out, bool tsv, const char *label, const fsc_metric *m,
                    const fsc_cmp_cell *c)
{
    char sep = tsv ? '\t' : ',';
    static const char *const verdicts[] = {"worse", "same", "better"};
    (tsv ? fsc_put_tsv : fsc_put_csv)(out, label);
    fsc_buf_putc(out, sep);
    (tsv ? fsc_put_tsv : fsc_put_csv)(out, m->name);
    sv_num(out, sep, c->base.median, true);
    sv_num(out, sep, c->new_.median, true);
    sv_num(out, sep, c->change, true);
    sv_num(out, sep, c->delta_pct, true);
    sv_num(out, sep, (double)c->base.n, true);
    sv_num(out, sep, (double)c->new_.n, true);
    sv_num(out, sep, c->base.spread_pct, true);
    sv_num(out, sep, c->new_.spread_pct, true);
    sv_num(out, sep, c->p, c->tested);
    fsc_buf_printf(out, "%c%s%c%s\n", sep, c->significant ? "true" : "false", sep,
                   verdicts[c->verdict + 1]);
}

static fsc_status render_sv(const fsc_comparison *cmp, fsc_buf *out, bool tsv)
{
    static const char *const head[] = {"label",          "metric",        "base",    "new",
                                       "change",         "delta_pct",     "base_n",  "new_n",
                                       "base_spread_pct", "new_spread_pct", "p",      "significant",
                                       "verdict"};
    for (size_t i = 0; i < FSC_ARRAY_SIZE(head); i++) {
        if (i)
            fsc_buf_putc(out, tsv ? '\t' : ',');
        fsc_buf_puts(out, head[i]);
    }
    fsc_buf_putc(out, '\n');
    for (size_t col = 0; col < cmp->n_cols; col++) {
        for (size_t r = 0; r < cmp->n_rows; r++)
            if (cmp->rows[r].cells[col].present)
                sv_line(out, tsv, cmp->rows[r].label, &cmp->cols[col], &cmp->rows[r].cells[col]);
        if (cmp->geomean[col].present && cmp->geomean[col].base.n > 1)
            sv_line(out, tsv, "geomean", &cmp->cols[col], &cmp->geomean[col]);
    }
    return FSC_OK;
}

/* ---- json ---- */

static void json_side(fsc_jw *w, const fsc_cmp_side *s)
{
    fsc_jw_obj(w);
    fsc_jw_key(w, "median");
    fsc_jw_num(w, fsc_round15(s->median));
    fsc_jw_key(w, "n");
    fsc_jw_num(w, (double)s->n);
    fsc_jw_key(w, "spread_pct");
    fsc_jw_num(w, fsc_round15(s->spread_pct));
    if (s->samples) {
        fsc_jw_key(w, "samples");
        fsc_jw_arr(w);
        for (size_t i = 0; i < s->n; i++)
            fsc_jw_num(w, fsc_round15(s->samples[i]));
        fsc_jw_arr_end(w);
    }
    fsc_jw_obj_end(w);
}

static void json_cell(fsc_jw *w, const char *label, const fsc_cmp_cell *c)
{
    fsc_jw_obj(w);
    if (label) {
        fsc_jw_key(w, "label");
        fsc_jw_str(w, label);
    }
    fsc_jw_key(w, "base");
    json_side(w, &c->base);
    fsc_jw_key(w, "new");
    json_side(w, &c->new_);
    fsc_jw_key(w, "change");
    fsc_jw_num(w, fsc_round15(c->change));
    fsc_jw_key(w, "delta_pct");
    if (isfinite(c->delta_pct))
        fsc_jw_num(w, fsc_round15(c->delta_pct));
    else
        fsc_jw_null(w);
    fsc_jw_key(w, "p");
    if (c->tested)
        fsc_jw_num(w, fsc_round15(c->p));
    else
        fsc_jw_null(w);
    fsc_jw_key(w, "significant");
    fsc_jw_bool(w, c->significant);
    fsc_jw_key(w, "verdict");
    fsc_jw_num(w, c->verdict);
    fsc_jw_obj_end(w);
}

static void json_strings(fsc_jw *w, const char *key, char **list, size_t n)
{
    fsc_jw_key(w, key);
    fsc_jw_arr(w);
    for (size_t i = 0; i < n; i++)
        fsc_jw_str(w, list[i]);
    fsc_jw_arr_end(w);
}

static fsc_status render_json(const fsc_comparison *cmp, fsc_buf *out)
{
    fsc_jw w;
    fsc_jw_init(&w, out, true, false);
    fsc_jw_obj(&w);
    fsc_jw_key(&w, "test");
    fsc_jw_str(&w, "mann-whitney-u two-sided");
    fsc_jw_key(&w, "alpha");
    fsc_jw_num(&w, cmp->alpha);
    fsc_jw_key(&w, "metrics");
    fsc_jw_arr(&w);
    for (size_t col = 0; col < cmp->n_cols; col++) {
        const fsc_metric *m = &cmp->cols[col];
        fsc_jw_obj(&w);
        fsc_jw_key(&w, "name");
        fsc_jw_str(&w, m->name);
        fsc_jw_key(&w, "title");
        fsc_jw_str(&w, m->title);
        fsc_jw_key(&w, "unit");
        fsc_jw_str(&w, fsc_unit_name(m->unit));
        fsc_jw_key(&w, "higher_is_better");
        fsc_jw_bool(&w, m->higher_better);
        fsc_jw_key(&w, "rows");
        fsc_jw_arr(&w);
        for (size_t r = 0; r < cmp->n_rows; r++)
            if (cmp->rows[r].cells[col].present)
                json_cell(&w, cmp->rows[r].label, &cmp->rows[r].cells[col]);
        fsc_jw_arr_end(&w);
        fsc_jw_key(&w, "geomean");
        if (cmp->geomean[col].present)
            json_cell(&w, NULL, &cmp->geomean[col]);
        else
            fsc_jw_null(&w);
        fsc_jw_obj_end(&w);
    }
    fsc_jw_arr_end(&w);
    json_strings(&w, "only_base", cmp->only_base, cmp->n_only_base);
    json_strings(&w, "only_new", cmp->only_new, cmp->n_only_new);
    fsc_jw_obj_end(&w);
    fsc_buf_putc(out, '\n');
    return FSC_OK;
}

fsc_status fsc_compare_render(const fsc_comparison *c, const char *format, bool color,
                              fsc_buf *out)
{
    fsc_status st;
    if (!strcmp(format, "text"))
        st = render_blocks(c, out, false, color);
    else if (!strcmp(format, "md"))
        st = render_blocks(c, out, true, false);
    else if (!strcmp(format, "csv"))
        st = render_sv(c, out, false);
    else if (!strcmp(format, "tsv"))
        st = render_sv(c, out, true);
    else if (!strcmp(format, "json"))
        st = render_json(c, out);
    else
        return FSC_E_USAGE;
    return st == FSC_OK && out->oom ? FSC_E_NOMEM : st;
}
