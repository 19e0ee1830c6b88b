/* SPDX-License-Identifier: MIT */
/*
 * Chart descriptions and the builders that fill them from tables (bars, x/y) and
 * from the run model (percentile curves, latency buckets, disk utilisation, scaling).
 */
#include "fioscope/chart.h"

#include "emit_int.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define MAX_CURVES 10

static const char *const type_names[] = {"bar", "line", "scatter", "pctl", "buckets", "heatmap", "box"};

int fsc_chart_type_from_name(const char *name)
{
    for (size_t i = 0; name && i < FSC_ARRAY_SIZE(type_names); i++)
        if (!strcmp(name, type_names[i]))
            return (int)i;
    return -1;
}

const char *fsc_chart_type_name(fsc_chart_type t)
{
    return (size_t)t < FSC_ARRAY_SIZE(type_names) ? type_names[t] : "?";
}

int fsc_chart_format_from_path(const char *path)
{
    static const char *const ext[] = {".png", ".svg", ".pdf"};
    size_t n = path ? strlen(path) : 0;
    for (size_t i = 0; n >= 4 && i < FSC_ARRAY_SIZE(ext); i++)
        if (!strcasecmp(path + n - 4, ext[i]))
            return (int)i;
    return -1;
}

fsc_chart *fsc_chart_new(fsc_chart_type type, const char *title)
{
    fsc_chart *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    c->type = type;
    c->baseline = -1;
    if (!fsc_chart_set_text(&c->title, title ? title : "")) {
        free(c);
        return NULL;
    }
    return c;
}

void fsc_chart_free(fsc_chart *c)
{
    if (!c)
        return;
    for (size_t i = 0; i < c->n_categories; i++)
        free(c->categories[i]);
    free(c->categories);
    for (size_t i = 0; i < c->n_series; i++) {
        free(c->series[i].name);
        free(c->series[i].x);
        free(c->series[i].y);
        free(c->series[i].rep);
    }
    free(c->series);
    for (size_t i = 0; i < c->n_panels; i++)
        fsc_chart_free(c->panels[i]);
    free(c->panels);
    free(c->title);
    free(c->subtitle);
    free(c->x_title);
    free(c->y_title);
    free(c->y2_title);
    free(c->row_title);
    free(c->note);
    free(c->footnote);
    free(c);
}

/* A copy of s for a chart: ANSI escape sequences (a CI log's colours) removed, other
 * control characters as spaces, invalid UTF-8 as U+FFFD. */
static char *chart_text(const char *s)
{
    fsc_buf b = {0};
    size_t n = s ? strlen(s) : 0;
    for (size_t i = 0; i < n;) {
        unsigned char ch = (unsigned char)s[i];
        if (ch == 0x1b) {
            i++;
            if (i < n && s[i] == '[') { /* CSI: parameters, then one final byte */
                i++;
                while (i < n && ((unsigned char)s[i] < 0x40 || (unsigned char)s[i] > 0x7e))
                    i++;
            }
            i += i < n;
            continue;
        }
        size_t len = fsc_utf8_len(s + i, n - i);
        if (len == 0) {
            fsc_buf_puts(&b, "\xef\xbf\xbd");
            i++;
        } else if (ch < 0x20 || ch == 0x7f || (ch == 0xc2 && (unsigned char)s[i + 1] < 0xa0)) {
            fsc_buf_putc(&b, ' '); /* C0, DEL, C1 */
            i += len;
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

bool fsc_chart_set_text(char **field, const char *text)
{
    char *copy = text ? chart_text(text) : NULL;
    if (text && !copy)
        return false;
    free(*field);
    *field = copy;
    return true;
}

bool fsc_chart_axes(fsc_chart *c, const char *x_title, fsc_unit x_unit, const char *y_title,
                    fsc_unit y_unit)
{
    c->x_unit = x_unit;
    c->y_unit = y_unit;
    return fsc_chart_set_text(&c->x_title, x_title) && fsc_chart_set_text(&c->y_title, y_title);
}

/* name, or "name #k" when k-1 earlier entries of names[] already carry it, so that
 * numjobs clones ("randwrite" four times) can be told apart in legends and axes. */
static char *unique_name(const char *raw, char *const *names, size_t n, size_t stride)
{
    char *name = chart_text(raw);
    if (!name)
        return NULL;
    size_t len = strlen(name), same = 0;
    for (size_t i = 0; i < n; i++) {
        const char *o = *(char *const *)((const char *)names + i * stride);
        if (!strncmp(o, name, len) && (o[len] == 0 || !strncmp(o + len, " #", 2)))
            same++;
    }
    if (!same)
        return name;
    fsc_buf b = {0};
    fsc_buf_printf(&b, "%s #%zu", name, same + 1);
    free(name);
    if (b.oom) {
        fsc_buf_free(&b);
        return NULL;
    }
    return b.data;
}

bool fsc_chart_add_category(fsc_chart *c, const char *name)
{
    char *copy = unique_name(name ? name : "", c->categories, c->n_categories, sizeof(char *));
    char **slot = copy ? FSC_PUSH(c->categories, c->n_categories, c->cap_categories) : NULL;
    if (!slot) {
        free(copy);
        return false;
    }
    *slot = copy;
    return true;
}

fsc_series *fsc_chart_add_series(fsc_chart *c, const char *name)
{
    char *copy = unique_name(name ? name : "", c->series ? &c->series[0].name : NULL, c->n_series,
                             sizeof(fsc_series));
    fsc_series *s = copy ? FSC_PUSH(c->series, c->n_series, c->cap_series) : NULL;
    if (!s) {
        free(copy);
        return NULL;
    }
    memset(s, 0, sizeof *s);
    s->name = copy;
    s->color = (int)(c->n_series - 1);
    return s;
}

bool fsc_series_add(fsc_series *s, double x, double y)
{
    if (s->n == s->cap) {
        size_t cap = s->cap ? s->cap * 2 : 16;
        double *nx = realloc(s->x, cap * sizeof *nx);
        if (!nx)
            return false;
        s->x = nx;
        double *ny = realloc(s->y, cap * sizeof *ny);
        if (!ny)
            return false;
        s->y = ny;
        s->cap = cap;
    }
    s->x[s->n] = x;
    s->y[s->n] = y;
    s->n++;
    return true;
}

bool fsc_series_add_repeat(fsc_series *s, size_t i, double v)
{
    fsc_repeat *r = FSC_PUSH(s->rep, s->n_rep, s->cap_rep);
    if (!r)
        return false;
    r->i = i;
    r->v = v;
    return true;
}

fsc_chart *fsc_chart_add_panel(fsc_chart *c, const char *title)
{
    fsc_chart *p = fsc_chart_new(c->type, title);
    fsc_chart **slot = p ? FSC_PUSH(c->panels, c->n_panels, c->cap_panels) : NULL;
    if (!slot || !fsc_chart_axes(p, c->x_title, c->x_unit, c->y_title, c->y_unit) ||
        !fsc_chart_set_text(&p->y2_title, c->y2_title) || !fsc_chart_set_text(&p->row_title, c->row_title)) {
        if (slot)
            c->n_panels--;
        fsc_chart_free(p);
        return NULL;
    }
    p->y2_unit = c->y2_unit;
    p->y_log = c->y_log;
    p->y_linear = c->y_linear;
    *slot = p;
    return p;
}

bool fsc_chart_has_data(const fsc_chart *c)
{
    for (size_t k = 0; k < c->n_series; k++)
        for (size_t i = 0; i < c->series[k].n; i++)
            if (isfinite(c->series[k].y[i]) && (!c->y_log || c->series[k].y[i] > 0))
                return true;
    for (size_t p = 0; p < c->n_panels; p++)
        if (fsc_chart_has_data(c->panels[p]))
            return true;
    return false;
}

/* The last part of a path ("corpus/fio-3.33/a.txt" → "a.txt"). */
static const char *base_name(const char *p)
{
    const char *s = p ? strrchr(p, '/') : NULL;
    return s && s[1] ? s + 1 : p ? p : "?";
}

/* Distinct values in order of first appearance; false on allocation failure. */
static bool add_distinct(const char ***list, size_t *n, size_t *cap, const char *s)
{
    if (!s)
        return true;
    for (size_t i = 0; i < *n; i++)
        if (!strcmp((*list)[i], s))
            return true;
    const char **slot = FSC_PUSH(*list, *n, *cap);
    if (slot)
        *slot = s;
    return slot != NULL;
}

/* "a, b, c and 4 more" of the first `shown` of list. */
static void put_list(fsc_buf *b, const char *const *list, size_t n, size_t shown, bool base)
{
    for (size_t i = 0; i < n && i < shown; i++)
        fsc_buf_printf(b, "%s%s", i ? ", " : "", base ? base_name(list[i]) : list[i]);
    if (n > shown)
        fsc_buf_printf(b, " and %zu more", n - shown);
}

bool fsc_chart_provenance(fsc_chart *c, const fsc_runset *set)
{
    const char **versions = NULL, **sources = NULL;
    size_t n_v = 0, cap_v = 0, n_s = 0, cap_s = 0;
    bool ok = true;
    for (size_t r = 0; ok && r < set->n_runs; r++)
        ok = add_distinct(&versions, &n_v, &cap_v, set->runs[r]->source.fio_version) &&
             add_distinct(&sources, &n_s, &cap_s, set->runs[r]->source.path);
    fsc_buf b = {0};
    if (n_v)
        put_list(&b, versions, n_v, 4, false);
    else
        fsc_buf_puts(&b, "fio version not shown");
    fsc_buf_printf(&b, " · %zu source%s: ", n_s, n_s == 1 ? "" : "s");
    put_list(&b, sources, n_s, 3, true);
    fsc_buf_puts(&b, " · fioscope " FSC_VERSION);
    ok = ok && !b.oom && fsc_chart_set_text(&c->footnote, b.data);
    fsc_buf_free(&b);
    free(versions);
    free(sources);
    return ok;
}

/* ---- from tables ---- */

static bool column_has_numbers(const fsc_table *t, size_t col)
{
    for (size_t r = 0; r < t->n_rows; r++)
        if (t->rows[r].cells[col].kind == FSC_CELL_NUM)
            return true;
    return false;
}

static double cell_num(const fsc_cell *cell)
{
    return cell->kind == FSC_CELL_NUM ? cell->num : NAN;
}


/* x of a point: a number, or a text column holding one ("8", "4k" as 4096). */
static double cell_x(const fsc_cell *cell)
{
    if (cell->kind == FSC_CELL_TEXT && cell->text) {
        char *end;
        strtod(cell->text, &end);
        return end != cell->text ? fsc_bs_bytes(cell->text) : NAN;
    }
    return cell_num(cell);
}

fsc_chart *fsc_chart_from_table(const fsc_table *t, const char *title, const char *y_title)
{
    fsc_chart *c = fsc_chart_new(FSC_CHART_BAR, title);
    bool ok = c != NULL;
    for (size_t r = 0; ok && r < t->n_rows; r++)
        ok = fsc_chart_add_category(c, t->rows[r].label);
    bool unit_set = false;
    for (size_t col = 0; ok && col < t->n_cols; col++) {
        if (t->cols[col].text || !column_has_numbers(t, col))
            continue;
        if (!unit_set) {
            ok = fsc_chart_axes(c, "job", FSC_UNIT_NONE, y_title ? y_title : t->cols[col].title,
                                t->cols[col].unit);
            unit_set = true;
        }
        /* "write clat" next to "write clat p99" reads better as "write clat mean". */
        fsc_buf name = {0};
        const char *mn = t->cols[col].name;
        size_t mlen = strlen(mn);
        fsc_buf_puts(&name, t->cols[col].title);
        if (mlen > 5 && !strcmp(mn + mlen - 5, ".mean") && !strstr(t->cols[col].title, "mean"))
            fsc_buf_puts(&name, " mean");
        fsc_series *s = ok && !name.oom ? fsc_chart_add_series(c, name.data) : NULL;
        fsc_buf_free(&name);
        ok = s != NULL;
        for (size_t r = 0; ok && r < t->n_rows; r++)
            ok = fsc_series_add(s, (double)r, cell_num(&t->rows[r].cells[col]));
    }
    if (!ok) {
        fsc_chart_free(c);
        return NULL;
    }
    return c;
}


static void cell_text(const fsc_table *t, size_t r, size_t col, fsc_buf *out)
{
    const fsc_cell *cell = &t->rows[r].cells[col];
    if (cell->kind == FSC_CELL_TEXT)
        fsc_buf_puts(out, cell->text);
    else if (cell->kind == FSC_CELL_NUM)
        fsc_format_human(out, cell->num, t->cols[col].unit);
    else
        fsc_buf_puts(out, t->rows[r].label);
}

static bool xy_bars(fsc_chart *c, const fsc_table *t)
{
    fsc_buf lab = {0};
    fsc_series *s = fsc_chart_add_series(c, t->cols[1].title);
    bool ok = s != NULL;
    for (size_t r = 0; ok && r < t->n_rows; r++) {
        fsc_buf_reset(&lab);
        cell_text(t, r, 0, &lab);
        ok = !lab.oom && fsc_chart_add_category(c, lab.data ? lab.data : "") &&
             fsc_series_add(s, (double)r, cell_num(&t->rows[r].cells[1]));
    }
    fsc_buf_free(&lab);
    return ok;
}

static int cmp_point(const void *a, const void *b)
{
    const double *pa = a, *pb = b;
    return (pa[0] > pb[0]) - (pa[0] < pb[0]);
}

static bool xy_points(fsc_chart *c, const fsc_table *t)
{
    double *pts = malloc((t->n_rows ? t->n_rows : 1) * 2 * sizeof *pts);
    size_t n = 0;
    if (!pts)
        return false;
    for (size_t r = 0; r < t->n_rows; r++) {
        double x = cell_x(&t->rows[r].cells[0]), y = cell_num(&t->rows[r].cells[1]);
        if (isfinite(x) && isfinite(y)) {
            pts[2 * n] = x;
            pts[2 * n + 1] = y;
            n++;
        }
    }
    qsort(pts, n, 2 * sizeof *pts, cmp_point);
    fsc_series *s = fsc_chart_add_series(c, t->cols[1].title);
    bool ok = s != NULL;
    for (size_t i = 0; ok && i < n; i++)
        ok = fsc_series_add(s, pts[2 * i], pts[2 * i + 1]);
    free(pts);
    return ok;
}

fsc_chart *fsc_chart_xy(const fsc_table *t, fsc_chart_type type)
{
    if (t->n_cols < 2)
        return NULL;
    fsc_buf title = {0};
    fsc_buf_printf(&title, "%s by %s", t->cols[1].title, t->cols[0].title);
    fsc_chart *c = title.oom ? NULL : fsc_chart_new(type, title.data);
    fsc_buf_free(&title);
    if (!c)
        return NULL;
    bool ok = fsc_chart_axes(c, t->cols[0].title, t->cols[0].unit, t->cols[1].title, t->cols[1].unit);
    if (ok)
        ok = type == FSC_CHART_BAR ? xy_bars(c, t) : xy_points(c, t);
    if (!ok) {
        fsc_chart_free(c);
        return NULL;
    }
    return c;
}

/* ---- any chart from table columns (chart --x --series --facet) ---- */

/* The distinct values of one dimension: text, and a number when it holds one. */
typedef struct dim_keys {
    char **text;
    double *num;
    size_t n, cap, cap_num;
    size_t *order; /* order[k] = position of key k once sorted */
} dim_keys;

static long key_index(dim_keys *d, const char *text, double num)
{
    for (size_t i = 0; i < d->n; i++)
        if (!strcmp(d->text[i], text))
            return (long)i;
    char *copy = fsc_strdup(text);
    char **slot = copy ? FSC_PUSH(d->text, d->n, d->cap) : NULL;
    if (!slot) {
        free(copy);
        return -1;
    }
    *slot = copy;
    if (d->cap_num < d->cap) {
        double *nn = realloc(d->num, d->cap * sizeof *nn);
        if (!nn) {
            d->n--;
            free(copy);
            return -1;
        }
        d->num = nn;
        d->cap_num = d->cap;
    }
    d->num[d->n - 1] = num;
    return (long)(d->n - 1);
}

static void keys_free(dim_keys *d)
{
    for (size_t i = 0; i < d->n; i++)
        free(d->text[i]);
    free(d->text);
    free(d->num);
    free(d->order);
}

typedef struct key_rank {
    double num;
    size_t key;
} key_rank;

static int cmp_rank(const void *a, const void *b)
{
    const key_rank *x = a, *y = b;
    bool fx = isfinite(x->num), fy = isfinite(y->num);
    if (fx != fy)
        return fx ? -1 : 1;
    if (fx && x->num != y->num)
        return (x->num > y->num) - (x->num < y->num);
    return (x->key > y->key) - (x->key < y->key);
}

/* Keys that hold numbers ("1", "16", "4k") ascending, then the others in the order
 * first seen. Fills order[] (key → position) and returns the keys by position in
 * by_pos. */
static bool sort_keys(dim_keys *d, size_t **by_pos)
{
    size_t n = d->n ? d->n : 1;
    key_rank *rank = malloc(n * sizeof *rank);
    size_t *pos = malloc(n * sizeof *pos);
    d->order = malloc(n * sizeof *d->order);
    if (!rank || !pos || !d->order) {
        free(rank);
        free(pos);
        return false;
    }
    for (size_t i = 0; i < d->n; i++)
        rank[i] = (key_rank){d->num[i], i};
    qsort(rank, d->n, sizeof *rank, cmp_rank);
    for (size_t i = 0; i < d->n; i++) {
        pos[i] = rank[i].key;
        d->order[rank[i].key] = i;
    }
    free(rank);
    *by_pos = pos;
    return true;
}

typedef struct dim_point {
    size_t facet, x, series;
    double xv, v;
} dim_point;

/* A row's value of one dimension: its text ("unknown" when the row has none) and its
 * number when the text holds one. */
static void dim_key_text(const fsc_table *t, size_t r, size_t col, fsc_buf *b, double *num)
{
    fsc_buf_reset(b);
    *num = NAN;
    if (col == SIZE_MAX) {
        fsc_buf_puts(b, t->rows[r].label ? t->rows[r].label : "");
        return;
    }
    const fsc_cell *cell = &t->rows[r].cells[col];
    if (cell->kind == FSC_CELL_EMPTY || (cell->kind == FSC_CELL_TEXT && !cell->text[0])) {
        fsc_buf_puts(b, "unknown");
        return;
    }
    cell_text(t, r, col, b);
    *num = cell_x(cell);
}

static int cmp_double_asc(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median_of(double *v, size_t n)
{
    qsort(v, n, sizeof *v, cmp_double_asc);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* Fill one panel: categories (or x points), series, medians and repeats. */
static bool dims_fill(fsc_chart *p, const fsc_chart_dims_spec *spec, const dim_point *pts, size_t n_pts,
                      size_t facet, dim_keys *xs, const size_t *x_pos, dim_keys *ss, const size_t *s_pos)
{
    bool cat = spec->type == FSC_CHART_BAR || spec->type == FSC_CHART_BOX || spec->type == FSC_CHART_HEATMAP;
    size_t nx = xs->n;
    bool ok = true;
    /* categories: the x values present in this panel, in sorted order */
    size_t *cat_of = calloc(nx ? nx : 1, sizeof *cat_of); /* x key → category index + 1 */
    double *vals = malloc((n_pts ? n_pts : 1) * sizeof *vals);
    if (!cat_of || !vals) {
        free(cat_of);
        free(vals);
        return false;
    }
    size_t n_cat = 0;
    for (size_t xp = 0; ok && cat && xp < nx; xp++) {
        size_t xk = x_pos[xp];
        bool here = false;
        for (size_t i = 0; i < n_pts && !here; i++)
            here = pts[i].facet == facet && pts[i].x == xk;
        if (here) {
            ok = fsc_chart_add_category(p, xs->text[xk]);
            cat_of[xk] = ++n_cat;
        }
    }
    for (size_t sp = 0; ok && sp < ss->n; sp++) {
        size_t sk = s_pos[sp];
        bool here = false;
        for (size_t i = 0; i < n_pts && !here; i++)
            here = pts[i].facet == facet && pts[i].series == sk;
        if (!here)
            continue;
        fsc_series *s = fsc_chart_add_series(p, ss->text[sk]);
        ok = s != NULL;
        if (ok)
            s->color = (int)sp; /* one colour per series value across the panels */
        /* one point per category (or x value): the median of its rows */
        size_t n_slots = cat ? n_cat : nx;
        for (size_t slot = 0; ok && slot < n_slots; slot++) {
            size_t n = 0;
            double xv = NAN;
            for (size_t i = 0; i < n_pts; i++) {
                const dim_point *q = &pts[i];
                bool match = q->facet == facet && q->series == sk &&
                             (cat ? cat_of[q->x] == slot + 1 : xs->order[q->x] == slot);
                if (match && isfinite(q->v)) {
                    vals[n++] = q->v;
                    xv = q->xv;
                }
            }
            if (!cat && !n)
                continue;
            size_t idx = s->n;
            ok = fsc_series_add(s, cat ? (double)slot : xv, n ? median_of(vals, n) : NAN);
            for (size_t i = 0; ok && n > 1 && i < n; i++)
                ok = fsc_series_add_repeat(s, idx, vals[i]);
        }
    }
    free(cat_of);
    free(vals);
    return ok;
}

fsc_chart *fsc_chart_dims(const fsc_table *t, const fsc_chart_dims_spec *spec, const char *title)
{
    if (spec->y >= t->n_cols || (spec->x != SIZE_MAX && spec->x >= t->n_cols))
        return NULL;
    fsc_chart *c = fsc_chart_new(spec->type, title);
    dim_keys fk = {0}, xk = {0}, sk = {0};
    dim_point *pts = malloc((t->n_rows ? t->n_rows : 1) * sizeof *pts);
    size_t *f_pos = NULL, *x_pos = NULL, *s_pos = NULL, n_pts = 0;
    fsc_buf b = {0};
    const fsc_metric *ym = &t->cols[spec->y];
    bool ok = c && pts &&
              fsc_chart_axes(c, spec->x == SIZE_MAX ? "job" : t->cols[spec->x].title,
                             spec->x == SIZE_MAX ? FSC_UNIT_NONE : t->cols[spec->x].unit, ym->title, ym->unit);
    if (ok && spec->type == FSC_CHART_HEATMAP && spec->series != SIZE_MAX)
        ok = fsc_chart_set_text(&c->row_title, t->cols[spec->series].title);
    for (size_t r = 0; ok && r < t->n_rows; r++) {
        double num, xv, sv;
        long f = 0, x, s;
        if (spec->facet != SIZE_MAX) {
            dim_key_text(t, r, spec->facet, &b, &num);
            f = b.oom ? -1 : key_index(&fk, b.data ? b.data : "", num);
        } else
            f = key_index(&fk, "", NAN);
        dim_key_text(t, r, spec->x, &b, &xv);
        x = b.oom ? -1 : key_index(&xk, b.data ? b.data : "", xv);
        if (spec->series != SIZE_MAX) {
            dim_key_text(t, r, spec->series, &b, &sv);
            s = b.oom ? -1 : key_index(&sk, b.data ? b.data : "", sv);
        } else
            s = key_index(&sk, ym->title, NAN);
        ok = f >= 0 && x >= 0 && s >= 0;
        if (ok)
            pts[n_pts++] = (dim_point){(size_t)f, (size_t)x, (size_t)s, xv, cell_num(&t->rows[r].cells[spec->y])};
    }
    ok = ok && sort_keys(&fk, &f_pos) && sort_keys(&xk, &x_pos) && sort_keys(&sk, &s_pos);
    if (ok && spec->facet == SIZE_MAX)
        ok = dims_fill(c, spec, pts, n_pts, 0, &xk, x_pos, &sk, s_pos);
    for (size_t fp = 0; ok && spec->facet != SIZE_MAX && fp < fk.n; fp++) {
        fsc_chart *p = fsc_chart_add_panel(c, fk.text[f_pos[fp]]);
        ok = p && dims_fill(p, spec, pts, n_pts, f_pos[fp], &xk, x_pos, &sk, s_pos);
    }
    fsc_buf_free(&b);
    free(pts);
    free(f_pos);
    free(x_pos);
    free(s_pos);
    keys_free(&fk);
    keys_free(&xk);
    keys_free(&sk);
    if (!ok) {
        fsc_chart_free(c);
        return NULL;
    }
    return c;
}

/* ---- from the run model ---- */

static char *job_label(const fsc_run *run, const fsc_job *job, fsc_label_from from)
{
    char *l = fsc_job_label(run, job, from);
    if (l && *l)
        return l;
    free(l);
    return fsc_strdup(job->jobname ? job->jobname : "(job)");
}

static size_t dirs_with_pctl(const fsc_job *job, fsc_latkind k)
{
    size_t n = 0;
    for (int d = 0; d < FSC_DIR_COUNT; d++)
        n += job->dir[d].lat[k].n_percentile > 0;
    return n;
}

/* Add every job/direction curve; *total counts all, only MAX_CURVES are kept. */
static bool pctl_curves(fsc_chart *c, const fsc_runset *set, fsc_latkind k, fsc_label_from from,
                        size_t *total)
{
    for (size_t r = 0; r < set->n_runs; r++) {
        const fsc_run *run = set->runs[r];
        for (size_t j = 0; j < run->n_jobs; j++) {
            const fsc_job *job = &run->jobs[j];
            size_t n_dirs = dirs_with_pctl(job, k);
            for (int d = 0; d < FSC_DIR_COUNT; d++) {
                const fsc_lat *lat = &job->dir[d].lat[k];
                if (!lat->n_percentile || ++*total > MAX_CURVES)
                    continue;
                char *label = job_label(run, job, from);
                fsc_buf name = {0};
                fsc_buf_printf(&name, n_dirs > 1 ? "%s (%s)" : "%s", label ? label : "",
                               fsc_ddir_name((fsc_ddir)d));
                free(label);
                fsc_series *s = name.oom ? NULL : fsc_chart_add_series(c, name.data);
                fsc_buf_free(&name);
                if (!s)
                    return false;
                for (size_t i = 0; i < lat->n_percentile; i++)
                    if (lat->percentile[i].pct < 100 && !fsc_series_add(s, lat->percentile[i].pct,
                                                                        lat->percentile[i].ns))
                        return false;
            }
        }
    }
    return true;
}

fsc_chart *fsc_chart_percentiles(const fsc_runset *set, fsc_latkind k, fsc_label_from from)
{
    static const char *const titles[] = {"Submission latency percentiles",
                                         "Completion latency percentiles", "Total latency percentiles"};
    fsc_chart *c = fsc_chart_new(FSC_CHART_PCTL, titles[k]);
    size_t total = 0;
    bool ok = c && fsc_chart_axes(c, "percentile (%)", FSC_UNIT_NONE, "latency (log scale)", FSC_UNIT_NS) &&
              pctl_curves(c, set, k, from, &total);
    if (ok && total > MAX_CURVES) {
        fsc_buf sub = {0};
        fsc_buf_printf(&sub, "the first %d of %zu curves", MAX_CURVES, total);
        c->subtitle = sub.data;
        ok = !sub.oom;
    }
    if (!ok) {
        fsc_chart_free(c);
        return NULL;
    }
    c->y_log = true;
    return c;
}

/* ---- latency buckets ---- */

typedef struct bucket_key {
    int unit; /* fsc_bucket_unit */
    double bound; /* upper bound in that unit; INFINITY for ">=" */
    char key[16];
} bucket_key;

static double bucket_bound(const char *key)
{
    if (key[0] == '>')
        return INFINITY;
    return strtod(key, NULL);
}

static int cmp_bucket(const void *a, const void *b)
{
    const bucket_key *x = a, *y = b;
    if (x->unit != y->unit)
        return x->unit - y->unit;
    return (x->bound > y->bound) - (x->bound < y->bound);
}

static void bucket_name(const bucket_key *k, fsc_buf *out)
{
    static const char *const units[] = {"ns", "µs", "ms"};
    if (k->key[0] == '>') {
        const char *num = k->key + strspn(k->key, ">=");
        if (k->unit == FSC_BUCKET_MS && !strcmp(num, "2000"))
            fsc_buf_puts(out, "≥2 s");
        else
            fsc_buf_printf(out, "≥%s %s", num, units[k->unit]);
    } else if (k->unit < FSC_BUCKET_MS && k->bound == 1000)
        fsc_buf_printf(out, "1 %s", units[k->unit + 1]);
    else if (k->unit == FSC_BUCKET_MS && k->bound >= 1000)
        fsc_buf_printf(out, "%g s", k->bound / 1000);
    else
        fsc_buf_printf(out, "%s %s", k->key, units[k->unit]);
}

static bool collect_buckets(const fsc_job *const *jobs, size_t n_jobs, bucket_key **keys, size_t *n, size_t *cap)
{
    for (size_t j = 0; j < n_jobs; j++)
        for (int u = 0; u < FSC_BUCKET_COUNT; u++) {
            const fsc_kvlist *l = &jobs[j]->latency[u];
            for (size_t i = 0; i < l->n; i++) {
                bool seen = false;
                for (size_t k = 0; k < *n && !seen; k++)
                    seen = (*keys)[k].unit == u && !strcmp((*keys)[k].key, l->items[i].key);
                if (seen)
                    continue;
                bucket_key *bk = FSC_PUSH(*keys, *n, *cap);
                if (!bk)
                    return false;
                bk->unit = u;
                bk->bound = bucket_bound(l->items[i].key);
                memcpy(bk->key, l->items[i].key, sizeof bk->key);
            }
        }
    qsort(*keys, *n, sizeof **keys, cmp_bucket);
    return true;
}

static double bucket_value(const fsc_job *job, const bucket_key *k)
{
    const fsc_kv *kv = fsc_kvlist_get(&job->latency[k->unit], k->key);
    return kv ? kv->v : NAN;
}

/* The first and last bucket that any job filled (fio prints many 0.00 / 0.01 rows). */
static void bucket_span(const fsc_job *const *jobs, size_t n_jobs, const bucket_key *keys, size_t n, size_t *lo,
                        size_t *hi)
{
    *lo = n;
    *hi = 0;
    for (size_t k = 0; k < n; k++)
        for (size_t j = 0; j < n_jobs; j++) {
            double v = bucket_value(jobs[j], &keys[k]);
            if (isfinite(v) && v > 0) {
                *lo = k < *lo ? k : *lo;
                *hi = k > *hi ? k : *hi;
            }
        }
}

static bool job_has_buckets(const fsc_job *job)
{
    for (int u = 0; u < FSC_BUCKET_COUNT; u++)
        if (job->latency[u].n)
            return true;
    return false;
}

bool fsc_chart_add_buckets(fsc_chart *c, const fsc_job *const *jobs, const char *const *names, const int *colors,
                           size_t n_jobs)
{
    bucket_key *keys = NULL;
    size_t n = 0, cap = 0, lo, hi;
    bool ok = collect_buckets(jobs, n_jobs, &keys, &n, &cap);
    if (ok)
        bucket_span(jobs, n_jobs, keys, n, &lo, &hi);
    if (ok && lo <= hi) {
        fsc_buf name = {0};
        for (size_t k = lo; ok && k <= hi; k++) {
            fsc_buf_reset(&name);
            bucket_name(&keys[k], &name);
            ok = !name.oom && fsc_chart_add_category(c, name.data);
        }
        fsc_buf_free(&name);
        for (size_t j = 0; ok && j < n_jobs; j++) {
            fsc_series *s = fsc_chart_add_series(c, names[j]);
            ok = s != NULL;
            if (ok && colors)
                s->color = colors[j];
            for (size_t k = lo; ok && k <= hi; k++)
                ok = fsc_series_add(s, (double)(k - lo), bucket_value(jobs[j], &keys[k]));
        }
    }
    free(keys);
    return ok;
}

fsc_chart *fsc_chart_buckets(const fsc_runset *set, fsc_label_from from)
{
    fsc_chart *c = fsc_chart_new(FSC_CHART_BUCKETS, "Latency distribution");
    const fsc_job *jobs[MAX_CURVES];
    char *names[MAX_CURVES];
    size_t n = 0, total = 0;
    bool ok = c && fsc_chart_axes(c, "latency bucket (upper bound)", FSC_UNIT_NONE, "share of I/Os", FSC_UNIT_PCT);
    for (size_t r = 0; ok && r < set->n_runs; r++)
        for (size_t j = 0; ok && j < set->runs[r]->n_jobs; j++) {
            const fsc_job *job = &set->runs[r]->jobs[j];
            if (!job_has_buckets(job) || ++total > MAX_CURVES)
                continue;
            names[n] = job_label(set->runs[r], job, from);
            jobs[n] = job;
            ok = names[n++] != NULL;
        }
    ok = ok && fsc_chart_add_buckets(c, jobs, (const char *const *)names, NULL, n);
    for (size_t i = 0; i < n; i++)
        free(names[i]);
    if (ok && total > MAX_CURVES) {
        fsc_buf sub = {0};
        fsc_buf_printf(&sub, "the first %d of %zu jobs", MAX_CURVES, total);
        ok = !sub.oom && fsc_chart_set_text(&c->subtitle, sub.data);
        fsc_buf_free(&sub);
    }
    if (!ok) {
        fsc_chart_free(c);
        return NULL;
    }
    return c;
}

/* ---- disk utilisation ---- */

static size_t runs_with_disks(const fsc_runset *set)
{
    size_t n = 0;
    for (size_t r = 0; r < set->n_runs; r++)
        n += set->runs[r]->n_disk_util > 0;
    return n;
}

fsc_chart *fsc_chart_disk_util(const fsc_runset *set)
{
    fsc_chart *c = fsc_chart_new(FSC_CHART_BAR, "Disk utilisation");
    bool many = runs_with_disks(set) > 1;
    fsc_series *s = c && fsc_chart_axes(c, "device", FSC_UNIT_NONE, "utilisation", FSC_UNIT_PCT)
                        ? fsc_chart_add_series(c, "util")
                        : NULL;
    bool ok = s != NULL;
    fsc_buf name = {0};
    for (size_t r = 0; ok && r < set->n_runs; r++)
        for (size_t i = 0; ok && i < set->runs[r]->n_disk_util; i++) {
            const fsc_disk *dk = &set->runs[r]->disk_util[i];
            fsc_buf_reset(&name);
            if (many)
                fsc_buf_printf(&name, "%s: ", set->runs[r]->label ? set->runs[r]->label : set->runs[r]->id);
            fsc_buf_puts(&name, dk->name ? dk->name : "?");
            ok = !name.oom && fsc_chart_add_category(c, name.data) &&
                 fsc_series_add(c->series, (double)(c->n_categories - 1),
                                dk->util.set ? dk->util.v : NAN);
        }
    fsc_buf_free(&name);
    if (!ok) {
        fsc_chart_free(c);
        return NULL;
    }
    return c;
}
