/* SPDX-License-Identifier: MIT */
/*
 * Rendering a comparison: one block per metric (text, md) in the manner of benchstat
 * with a column per side, or one flat line per label, metric and side (csv, tsv), or
 * JSON with the samples.
 */
#include "emit_int.h"
#include "fioscope/compare.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define ANSI_GREEN "\033[32m"
#define ANSI_RED "\033[31m"
#define ANSI_RESET "\033[0m"

static void side_text(fsc_buf *b, const fsc_cmp_side *s, fsc_unit unit)
{
    if (!s->n)
        return;
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

/* "+8.56% (p=0.029 n=4+4)", "~ (p=0.400 n=3+3)", "~ (n=1+1)": no verdict without a test
 * that could give one. */
static void delta_text(fsc_buf *b, const fsc_cmp_cell *c, bool color)
{
    if (!c->present)
        return;
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
    else if (!c->decided)
        fsc_buf_printf(b, " (n=%zu+%zu)", c->base.n, c->new_.n);
}

/* Columns of a metric block: label, the baseline, then each other side and its delta;
 * with two sides also the absolute change (label, base, new, change, delta). */
static size_t block_cols(const fsc_comparison *cmp)
{
    return cmp->n_sides == 2 ? 5 : 2 + 2 * (cmp->n_sides - 1);
}

static const fsc_cmp_cell *cell_of(const fsc_comparison *cmp, const fsc_cmp_cell *cells, size_t col,
                                   size_t side)
{
    return &cells[col * cmp->n_sides + side];
}

/* The strings of one row of a metric block. */
static bool block_row(const fsc_comparison *cmp, char **out, const char *label, const fsc_cmp_cell *cells,
                      size_t col, bool geo, bool color)
{
    size_t nc = block_cols(cmp), k = 0;
    fsc_unit unit = cmp->cols[col].unit;
    fsc_buf *b = calloc(nc, sizeof *b);
    if (!b)
        return false;
    fsc_put_plain(&b[k++], label);
    const fsc_cmp_cell *base = cell_of(cmp, cells, col, cmp->baseline == 0 ? 1 : 0);
    if (geo)
        fsc_format_human(&b[k++], base->base.median, unit);
    else
        side_text(&b[k++], &base->base, unit);
    for (size_t s = 0; s < cmp->n_sides; s++) {
        if (s == cmp->baseline)
            continue;
        const fsc_cmp_cell *c = cell_of(cmp, cells, col, s);
        if (geo && c->present)
            fsc_format_human(&b[k], c->new_.median, unit);
        else if (!geo)
            side_text(&b[k], &c->new_, unit);
        /* without a change column the size of the change goes with the value */
        if (cmp->n_sides > 2 && !geo && c->present && isfinite(c->delta_pct))
            fsc_buf_printf(&b[k], " (%+.1f%%)", c->delta_pct);
        k++;
        if (cmp->n_sides == 2) {
            if (!geo && c->present)
                change_text(&b[k], c->change, unit);
            k++;
        }
        delta_text(&b[k++], c, color);
    }
    bool ok = true;
    for (size_t i = 0; i < nc; i++) {
        out[i] = b[i].oom ? NULL : b[i].data ? b[i].data : fsc_strdup("");
        if (b[i].oom)
            fsc_buf_free(&b[i]);
        ok &= out[i] != NULL;
    }
    free(b);
    return ok;
}

static bool any_present(const fsc_comparison *cmp, const fsc_cmp_cell *cells, size_t col)
{
    for (size_t s = 0; s < cmp->n_sides; s++)
        if (s != cmp->baseline && cell_of(cmp, cells, col, s)->present)
            return true;
    return false;
}

/* Header + rows + geomean of one metric as a string grid. *n_rows receives its rows. */
static char **metric_block(const fsc_comparison *cmp, size_t col, bool color, bool md, size_t *n_rows)
{
    size_t nc = block_cols(cmp), n = cmp->n_rows + 2;
    char **cells = calloc(n * nc, sizeof *cells);
    if (!cells)
        return NULL;
    size_t k = 0;
    cells[k++] = fsc_strdup(md ? "label" : cmp->cols[col].title); /* md has a heading */
    cells[k++] = fsc_strdup(cmp->sides[cmp->baseline]);
    for (size_t s = 0; s < cmp->n_sides; s++) {
        if (s == cmp->baseline)
            continue;
        cells[k++] = fsc_strdup(cmp->sides[s]);
        if (cmp->n_sides == 2)
            cells[k++] = fsc_strdup("change");
        cells[k++] = fsc_strdup(cmp->n_sides == 2 ? "delta" : "Δ");
    }
    size_t r = 1;
    bool ok = true;
    for (size_t i = 0; i < cmp->n_rows; i++) {
        if (!any_present(cmp, cmp->rows[i].by_side, col))
            continue;
        ok &= block_row(cmp, cells + r++ * nc, cmp->rows[i].label, cmp->rows[i].by_side, col, false, color);
    }
    bool geo = false;
    for (size_t s = 0; s < cmp->n_sides; s++) {
        const fsc_cmp_cell *g = cell_of(cmp, cmp->side_geomean, col, s);
        geo |= g->present && g->base.n > 1;
    }
    if (geo)
        ok &= block_row(cmp, cells + r++ * nc, "geomean", cmp->side_geomean, col, true, color);
    *n_rows = r;
    for (size_t i = 0; i < nc; i++)
        ok &= cells[i] != NULL;
    if (!ok) {
        for (size_t i = 0; i < n * nc; i++)
            free(cells[i]);
        free(cells);
        return NULL;
    }
    return cells;
}

static void label_list(fsc_buf *out, const char *what, const char *side, char **list, size_t n, bool md)
{
    if (!n)
        return;
    fsc_buf_puts(out, what);
    if (side) {
        fsc_buf_putc(out, ' ');
        (md ? fsc_put_md : fsc_put_plain)(out, side);
    }
    fsc_buf_putc(out, ':');
    for (size_t i = 0; i < n; i++) {
        fsc_buf_puts(out, i ? ", " : " ");
        (md ? fsc_put_md : fsc_put_plain)(out, list[i]);
    }
    fsc_buf_puts(out, md ? "\n\n" : "\n");
}

static void footer(const fsc_comparison *cmp, fsc_buf *out, bool md)
{
    label_list(out, "only in", cmp->sides[cmp->baseline], cmp->only_base, cmp->n_only_base, md);
    label_list(out, "only in", cmp->n_sides == 2 ? cmp->sides[cmp->baseline == 0 ? 1 : 0] : "one side",
               cmp->only_new, cmp->n_only_new, md);
    fsc_buf_puts(out, "matched by ");
    fsc_buf_puts(out, cmp->match ? cmp->match : "label");
    fsc_buf_puts(out, "; baseline ");
    (md ? fsc_put_md : fsc_put_plain)(out, cmp->sides[cmp->baseline]);
    fsc_buf_printf(out, md ? "\n\n" : "\n");
    fsc_buf_printf(out,
                   "values: median ± largest distance from it; p: two-sided Mann-Whitney U test; "
                   "~ = no verdict: not significant at alpha=%.2g, or too few runs to tell "
                   "(n=1 on a side, fewer than 4+4)\n",
                   cmp->alpha);
}

static fsc_status render_blocks(const fsc_comparison *cmp, fsc_buf *out, bool md, bool color)
{
    size_t nc = block_cols(cmp);
    bool *right = calloc(nc, sizeof *right);
    if (!right)
        return FSC_E_NOMEM;
    for (size_t i = 1; i < nc; i++)
        right[i] = true;
    /* deltas read better left-aligned */
    for (size_t i = cmp->n_sides == 2 ? 4 : 3; i < nc; i += cmp->n_sides == 2 ? nc : 2)
        right[i] = false;
    for (size_t col = 0; col < cmp->n_cols; col++) {
        size_t n_rows;
        char **cells = metric_block(cmp, col, color && !md, md, &n_rows);
        if (!cells) {
            free(right);
            return FSC_E_NOMEM;
        }
        if (md) {
            fsc_buf_puts(out, "### ");
            fsc_put_md(out, cmp->cols[col].title);
            fsc_buf_puts(out, "\n\n");
            fsc_grid_md(out, (const char *const *)cells, n_rows, nc, right);
        } else {
            fsc_grid_text(out, (const char *const *)cells, n_rows, nc, right);
        }
        fsc_buf_putc(out, '\n');
        for (size_t i = 0; i < (cmp->n_rows + 2) * nc; i++)
            free(cells[i]);
        free(cells);
    }
    free(right);
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

static void sv_line(fsc_buf *out, bool tsv, const fsc_comparison *cmp, const char *label, size_t col,
                    const fsc_cmp_cell *c, size_t side)
{
    char sep = tsv ? '\t' : ',';
    void (*put)(fsc_buf *, const char *) = tsv ? fsc_put_tsv : fsc_put_csv;
    static const char *const verdicts[] = {"worse", "same", "better"};
    put(out, label);
    fsc_buf_putc(out, sep);
    put(out, cmp->cols[col].name);
    sv_num(out, sep, c->base.median, true);
    sv_num(out, sep, c->new_.median, true);
    sv_num(out, sep, c->change, true);
    sv_num(out, sep, c->delta_pct, true);
    sv_num(out, sep, (double)c->base.n, true);
    sv_num(out, sep, (double)c->new_.n, true);
    sv_num(out, sep, c->base.spread_pct, true);
    sv_num(out, sep, c->new_.spread_pct, true);
    sv_num(out, sep, c->p, c->tested);
    fsc_buf_printf(out, "%c%s%c%s%c", sep, !c->decided ? "" : c->significant ? "true" : "false", sep,
                   verdicts[c->verdict + 1], sep);
    put(out, cmp->sides[cmp->baseline]);
    fsc_buf_putc(out, sep);
    put(out, cmp->sides[side]);
    fsc_buf_putc(out, '\n');
}

static fsc_status render_sv(const fsc_comparison *cmp, fsc_buf *out, bool tsv)
{
    static const char *const head[] = {"label",  "metric", "base",  "new",  "change", "delta_pct", "base_n",
                                       "new_n",  "base_spread_pct", "new_spread_pct", "p", "significant",
                                       "verdict", "base_side", "new_side"};
    for (size_t i = 0; i < FSC_ARRAY_SIZE(head); i++) {
        if (i)
            fsc_buf_putc(out, tsv ? '\t' : ',');
        fsc_buf_puts(out, head[i]);
    }
    fsc_buf_putc(out, '\n');
    for (size_t col = 0; col < cmp->n_cols; col++) {
        for (size_t s = 0; s < cmp->n_sides; s++) {
            if (s == cmp->baseline)
                continue;
            for (size_t r = 0; r < cmp->n_rows; r++) {
                const fsc_cmp_cell *c = cell_of(cmp, cmp->rows[r].by_side, col, s);
                if (c->present)
                    sv_line(out, tsv, cmp, cmp->rows[r].label, col, c, s);
            }
            const fsc_cmp_cell *g = cell_of(cmp, cmp->side_geomean, col, s);
            if (g->present && g->base.n > 1)
                sv_line(out, tsv, cmp, "geomean", col, g, s);
        }
    }
    return FSC_OK;
}

/* ---- json ---- */

static void json_side(fsc_jw *w, const fsc_cmp_side *s)
{
    fsc_jw_obj(w);
    fsc_jw_key(w, "median");
    if (s->n)
        fsc_jw_num(w, fsc_round15(s->median));
    else
        fsc_jw_null(w);
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

/* change, delta, p, significant (null: no verdict possible), verdict */
static void json_change(fsc_jw *w, const fsc_cmp_cell *c)
{
    fsc_jw_key(w, "change");
    if (c->present)
        fsc_jw_num(w, fsc_round15(c->change));
    else
        fsc_jw_null(w);
    fsc_jw_key(w, "delta_pct");
    if (c->present && isfinite(c->delta_pct))
        fsc_jw_num(w, fsc_round15(c->delta_pct));
    else
        fsc_jw_null(w);
    fsc_jw_key(w, "p");
    if (c->tested)
        fsc_jw_num(w, fsc_round15(c->p));
    else
        fsc_jw_null(w);
    fsc_jw_key(w, "significant");
    if (c->present && c->decided)
        fsc_jw_bool(w, c->significant);
    else
        fsc_jw_null(w);
    fsc_jw_key(w, "verdict");
    fsc_jw_num(w, c->verdict);
}

static void json_row(fsc_jw *w, const fsc_comparison *cmp, const char *label, const fsc_cmp_cell *cells,
                     size_t col)
{
    size_t first_other = cmp->baseline == 0 ? 1 : 0;
    const fsc_cmp_cell *c = cell_of(cmp, cells, col, first_other);
    fsc_jw_obj(w);
    if (label) {
        fsc_jw_key(w, "label");
        fsc_jw_str(w, label);
    }
    fsc_jw_key(w, "base");
    json_side(w, &c->base);
    fsc_jw_key(w, "new");
    json_side(w, &c->new_);
    json_change(w, c);
    fsc_jw_key(w, "sides");
    fsc_jw_arr(w);
    for (size_t s = 0; s < cmp->n_sides; s++) {
        const fsc_cmp_cell *sc = cell_of(cmp, cells, col, s);
        fsc_jw_obj(w);
        fsc_jw_key(w, "side");
        fsc_jw_str(w, cmp->sides[s]);
        fsc_jw_key(w, "value");
        json_side(w, &sc->new_);
        if (s != cmp->baseline)
            json_change(w, sc);
        fsc_jw_obj_end(w);
    }
    fsc_jw_arr_end(w);
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
    json_strings(&w, "sides", cmp->sides, cmp->n_sides);
    fsc_jw_key(&w, "baseline");
    fsc_jw_str(&w, cmp->sides[cmp->baseline]);
    fsc_jw_key(&w, "match");
    fsc_jw_str(&w, cmp->match);
    fsc_jw_key(&w, "system_from");
    fsc_jw_str(&w, cmp->system_from);
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
            if (any_present(cmp, cmp->rows[r].by_side, col))
                json_row(&w, cmp, cmp->rows[r].label, cmp->rows[r].by_side, col);
        fsc_jw_arr_end(&w);
        fsc_jw_key(&w, "geomean");
        if (any_present(cmp, cmp->side_geomean, col))
            json_row(&w, cmp, NULL, cmp->side_geomean, col);
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

fsc_status fsc_compare_render(const fsc_comparison *c, const char *format, bool color, fsc_buf *out)
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
