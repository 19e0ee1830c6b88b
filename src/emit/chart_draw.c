/* SPDX-License-Identifier: MIT */
/*
 * Layout and drawing of a chart on a canvas: titles, legend, small-multiple panels,
 * axes with ticks in the unit's own multiples, bars with value labels and repeats,
 * lines, percentile curves, heat maps and boxes, notes and the provenance footnote.
 * Sizes scale with the image (f = 1 at 1600x900).
 */
#include "canvas.h"
#include "fioscope/chart.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_TICKS 24
#define MAX_BARS 36    /* per plot (about 30): more are not readable */
#define MAX_PANELS 36  /* per image */
#define MAX_LEGEND_ROWS 3

/* Okabe & Ito's colour-blind-safe set (yellow moved last: it is faint on white), then
 * Paul Tol's muted colours for charts with more systems than that. */
static const fsc_rgb palette[] = {
    {0x00 / 255.0, 0x72 / 255.0, 0xB2 / 255.0}, {0xE6 / 255.0, 0x9F / 255.0, 0x00 / 255.0},
    {0x00 / 255.0, 0x9E / 255.0, 0x73 / 255.0}, {0xD5 / 255.0, 0x5E / 255.0, 0x00 / 255.0},
    {0x56 / 255.0, 0xB4 / 255.0, 0xE9 / 255.0}, {0xCC / 255.0, 0x79 / 255.0, 0xA7 / 255.0},
    {0x33 / 255.0, 0x22 / 255.0, 0x88 / 255.0}, {0x99 / 255.0, 0x99 / 255.0, 0x33 / 255.0},
    {0x88 / 255.0, 0x22 / 255.0, 0x55 / 255.0}, {0x44 / 255.0, 0xAA / 255.0, 0x99 / 255.0},
    {0xDD / 255.0, 0xCC / 255.0, 0x77 / 255.0}, {0x55 / 255.0, 0x55 / 255.0, 0x55 / 255.0},
};

static const fsc_rgb ink = {0.12, 0.14, 0.17}, muted = {0.36, 0.39, 0.43}, grid = {0.88, 0.89, 0.9},
                     grid_minor = {0.95, 0.95, 0.96}, white = {1, 1, 1}, axis_ink = {0.3, 0.3, 0.3};

_Static_assert(FSC_ARRAY_SIZE(palette) == FSC_CHART_COLORS, "FSC_CHART_COLORS is the palette's size");

static fsc_rgb color_of(int i)
{
    size_t n = FSC_ARRAY_SIZE(palette);
    return palette[(size_t)(i < 0 ? 0 : i) % n];
}

void fsc_chart_color_hex(int i, char out[8])
{
    fsc_rgb c = color_of(i);
    snprintf(out, 8, "#%02x%02x%02x", (unsigned)lround(c.r * 255), (unsigned)lround(c.g * 255),
             (unsigned)lround(c.b * 255));
}

/* Viridis, sampled: sequential and readable by colour-blind people and in grey. */
static fsc_rgb viridis(double t)
{
    static const fsc_rgb stops[] = {{0.267, 0.005, 0.329}, {0.283, 0.141, 0.458}, {0.254, 0.265, 0.530},
                                    {0.207, 0.372, 0.553}, {0.164, 0.471, 0.558}, {0.128, 0.567, 0.551},
                                    {0.135, 0.659, 0.518}, {0.267, 0.749, 0.441}, {0.478, 0.821, 0.318},
                                    {0.741, 0.873, 0.150}, {0.993, 0.906, 0.144}};
    t = fmin(1, fmax(0, isfinite(t) ? t : 0)) * (double)(FSC_ARRAY_SIZE(stops) - 1);
    size_t i = (size_t)floor(t);
    if (i >= FSC_ARRAY_SIZE(stops) - 1)
        return stops[FSC_ARRAY_SIZE(stops) - 1];
    double u = t - (double)i;
    fsc_rgb a = stops[i], b = stops[i + 1];
    return (fsc_rgb){a.r + (b.r - a.r) * u, a.g + (b.g - a.g) * u, a.b + (b.b - a.b) * u};
}

typedef struct ctx {
    fsc_canvas *cv;
    const fsc_chart *top;
    double f;
    int w, h;
    size_t cut_plots; /* plots that showed only their first categories */
    size_t first_shown, all_categories;
} ctx;

typedef struct box {
    double x0, y0, x1, y1; /* y0 top */
} box;

/* A readable multiple of an axis' base unit. */
typedef struct axis_scale {
    double div;
    const char *suffix;
} axis_scale;

typedef struct axis {
    double lo, hi; /* data units, log10 of them when log */
    bool log;
    double ticks[MAX_TICKS]; /* same space as lo/hi */
    size_t n_ticks;
    double minor[MAX_TICKS * 2];
    size_t n_minor;
    axis_scale sc; /* linear axes: tick numbers are value / div, the title names suffix */
    fsc_unit unit;
} axis;

/* ---- numbers ---- */

static axis_scale pick_scale(fsc_unit u, double max)
{
    static const char *const bytes[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
    static const char *const rates[] = {"B/s", "KiB/s", "MiB/s", "GiB/s", "TiB/s", "PiB/s"};
    static const char *const times[] = {"ns", "µs", "ms", "s"};
    static const char *const iops[] = {"", "k", "M", "G", "T"};
    axis_scale s = {1, ""};
    double step = 1000;
    const char *const *names = iops;
    size_t n = 5, first = 0;
    switch (u) {
    case FSC_UNIT_BYTES: names = bytes, n = 6, step = 1024; break;
    case FSC_UNIT_BYTES_PER_S: names = rates, n = 6, step = 1024; break;
    case FSC_UNIT_KIB_PER_S: names = rates, n = 6, step = 1024, first = 1; break;
    case FSC_UNIT_NS: names = times, n = 4; break;
    case FSC_UNIT_MS: names = times, n = 4, first = 2; break;
    case FSC_UNIT_IOPS:
    case FSC_UNIT_COUNT: break;
    case FSC_UNIT_PCT: s.suffix = "%"; return s;
    case FSC_UNIT_NONE: return s;
    }
    s.suffix = names[first];
    for (size_t i = first + 1; i < n && fabs(max) / (s.div * step) >= 1 - 1e-9; i++) {
        s.div *= step;
        s.suffix = names[i];
    }
    return s;
}

static void fmt_number(char *out, size_t n, double v)
{
    if (fabs(v) < 1e-12)
        v = 0;
    if (fabs(v) >= 1e7 || (v != 0 && fabs(v) < 1e-3))
        snprintf(out, n, "%.3g", v);
    else if (fabs(v - round(v)) < 1e-9 * fmax(1, fabs(v)))
        snprintf(out, n, "%.0f", v);
    else
        snprintf(out, n, "%.4g", v);
}

/* A value with its own unit multiple: "10 MiB/s", "100 µs", "4 KiB", "10k". */
static void fmt_with_unit(char *out, size_t n, double v, fsc_unit u)
{
    axis_scale s = pick_scale(u, v);
    char num[32];
    fmt_number(num, sizeof num, v / s.div);
    bool glue = u == FSC_UNIT_IOPS || u == FSC_UNIT_COUNT || u == FSC_UNIT_PCT || !s.suffix[0];
    snprintf(out, n, "%s%s%s", num, glue ? "" : " ", s.suffix);
}

static void fmt_human(char *out, size_t n, double v, fsc_unit u)
{
    fsc_buf b = {0};
    fsc_format_human(&b, v, u);
    snprintf(out, n, "%s", b.data && !b.oom ? b.data : "?");
    fsc_buf_free(&b);
}

static double nice_step(double span, int want)
{
    double raw = span / want;
    if (!(raw > 0))
        return 1;
    double mag = pow(10, floor(log10(raw)));
    double m = raw / mag;
    double nice = m <= 1 ? 1 : m <= 2 ? 2 : m <= 2.5 ? 2.5 : m <= 5 ? 5 : 10;
    return nice * mag;
}

/* Linear axis over [lo, hi] and at least `room` (share of the height) above hi. */
static void axis_linear(axis *a, double lo, double hi, fsc_unit u, double room)
{
    a->log = false;
    a->unit = u;
    a->n_minor = 0;
    a->sc = pick_scale(u, fmax(fabs(lo), fabs(hi)));
    if (!(hi > lo))
        hi = lo + (lo == 0 ? 1 : fabs(lo) * 0.1);
    room = fmin(0.6, fmax(0, room));
    double need = hi + (hi - lo) * room / (1 - room);
    a->n_ticks = 0;
    if (u == FSC_UNIT_PCT && lo >= 0 && hi <= 100) {
        /* shares read best on a full 0-100% axis */
        a->lo = 0;
        a->hi = fmax(100, need);
        for (int t = 0; t <= 100; t += 20)
            a->ticks[a->n_ticks++] = t;
        return;
    }
    double step = nice_step((need - lo) / a->sc.div, 5) * a->sc.div;
    a->lo = floor(lo / step + 1e-9) * step;
    a->hi = ceil(need / step - 1e-9) * step;
    if (a->hi <= need - step * 1e-6)
        a->hi += step;
    for (double t = a->lo; t <= a->hi + step / 2 && a->n_ticks < MAX_TICKS; t += step)
        a->ticks[a->n_ticks++] = fabs(t) < step * 1e-9 ? 0 : t;
}

static bool iec(fsc_unit u)
{
    return u == FSC_UNIT_BYTES || u == FSC_UNIT_BYTES_PER_S || u == FSC_UNIT_KIB_PER_S;
}

/* Tick candidates of a log axis in data units: 1, 10, 100 times each power of 1024
 * for sizes and rates (10 MiB/s, 100 MiB/s, 1 GiB/s), else powers of ten; with the
 * 2x and 5x steps between them when mid is set. */
static size_t log_candidates(fsc_unit u, double lo, double hi, bool mid, double *out, size_t max)
{
    size_t n = 0;
    static const double mults[] = {1, 2, 5};
    size_t n_mult = mid ? 3 : 1;
    if (iec(u)) {
        for (int k = 0; k <= 6; k++)
            for (double m = 1; m < 1000; m *= 10)
                for (size_t j = 0; j < n_mult; j++) {
                    double v = m * mults[j] * pow(1024, k);
                    if (v >= lo * (1 - 1e-9) && v <= hi * (1 + 1e-9) && n < max &&
                        (m * mults[j] < 1000))
                        out[n++] = v;
                }
    } else {
        for (int e = (int)floor(log10(lo)) - 1; e <= (int)ceil(log10(hi)) + 1; e++)
            for (size_t j = 0; j < n_mult; j++) {
                double v = mults[j] * pow(10, e);
                if (v >= lo * (1 - 1e-9) && v <= hi * (1 + 1e-9) && n < max)
                    out[n++] = v;
            }
    }
    return n;
}

/* The largest decade tick <= v and the smallest >= v. */
static double tick_below(fsc_unit u, double v)
{
    double c[64];
    size_t n = log_candidates(u, v / 2000, v, false, c, 64);
    return n ? c[n - 1] : pow(10, floor(log10(v)));
}

static double tick_above(fsc_unit u, double v)
{
    double c[64];
    size_t n = log_candidates(u, v, v * 2000, false, c, 64);
    return n ? c[0] : pow(10, ceil(log10(v)));
}

/* Log axis over [lo, hi] (data units, > 0) with room above hi. */
static void axis_log(axis *a, double lo, double hi, fsc_unit u, double room)
{
    a->log = true;
    a->unit = u;
    a->sc = (axis_scale){1, ""};
    room = fmin(0.6, fmax(0, room));
    double blo = tick_below(u, lo);
    a->lo = log10(blo);
    double need = log10(hi);
    if (need <= a->lo)
        need = a->lo + 1;
    need += (need - a->lo) * room / (1 - room);
    double top = log10(tick_above(u, pow(10, need)));
    a->hi = top - need <= 0.5 ? top : need;
    double vals[MAX_TICKS * 2];
    size_t n = log_candidates(u, blo, pow(10, a->hi), false, vals, MAX_TICKS);
    /* thin out very long ranges: every second decade */
    size_t stride = n > 10 ? 2 : 1;
    a->n_ticks = 0;
    for (size_t i = 0; i < n && a->n_ticks < MAX_TICKS; i += stride)
        a->ticks[a->n_ticks++] = log10(vals[i]);
    /* few decades: label the 2x and 5x steps too; else draw them as faint lines */
    size_t nm = log_candidates(u, blo, pow(10, a->hi), true, vals, MAX_TICKS * 2);
    a->n_minor = 0;
    if (a->n_ticks < 3) {
        a->n_ticks = 0;
        for (size_t i = 0; i < nm && a->n_ticks < MAX_TICKS; i++)
            a->ticks[a->n_ticks++] = log10(vals[i]);
    } else
        for (size_t i = 0; i < nm && a->n_minor < FSC_ARRAY_SIZE(a->minor); i++)
            a->minor[a->n_minor++] = log10(vals[i]);
}

static double axis_frac(const axis *a, double v)
{
    double t = a->log ? log10(v) : v;
    return (t - a->lo) / (a->hi - a->lo);
}

static void tick_text(const axis *a, double t, char *out, size_t n)
{
    if (a->log)
        fmt_with_unit(out, n, pow(10, t), a->unit);
    else
        fmt_number(out, n, t / a->sc.div);
}

/* "bandwidth (MiB/s)" on a linear axis; log axes have the unit at every tick. */
static void axis_title_text(char *out, size_t n, const char *title, const axis *a)
{
    const char *t = title ? title : "";
    if (!a->log && a->sc.suffix[0] && a->unit != FSC_UNIT_PCT)
        snprintf(out, n, "%s (%s)", t, a->sc.suffix);
    else if (!a->log && a->unit == FSC_UNIT_PCT)
        snprintf(out, n, "%s (%%)", t);
    else if (a->log)
        snprintf(out, n, "%s (log scale)", t);
    else
        snprintf(out, n, "%s", t);
}

/* ---- data ---- */

static bool is_categorical(fsc_chart_type t)
{
    return t == FSC_CHART_BAR || t == FSC_CHART_BUCKETS || t == FSC_CHART_BOX;
}

static bool drawable(double v, bool log)
{
    return isfinite(v) && (!log || v > 0);
}

/* Range of the values drawn against one axis (y2 = right), repeats included, over
 * the first n_cat categories (categorical) or all points. */
static void y_range(const fsc_chart *c, bool y2, size_t n_cat, double *lo, double *hi, double *min_pos)
{
    *lo = INFINITY;
    *hi = -INFINITY;
    *min_pos = INFINITY;
    bool cat = is_categorical(c->type) || c->type == FSC_CHART_HEATMAP;
    for (size_t k = 0; k < c->n_series; k++) {
        const fsc_series *s = &c->series[k];
        if (s->y2 != y2)
            continue;
        for (size_t i = 0; i < s->n; i++) {
            double v = s->y[i];
            if (!isfinite(v) || (cat && i >= n_cat) || (!cat && !isfinite(s->x[i])))
                continue;
            *lo = fmin(*lo, v);
            *hi = fmax(*hi, v);
            if (v > 0)
                *min_pos = fmin(*min_pos, v);
        }
        for (size_t r = 0; r < s->n_rep; r++) {
            double v = s->rep[r].v;
            if (!isfinite(v) || (cat && s->rep[r].i >= n_cat))
                continue;
            *lo = fmin(*lo, v);
            *hi = fmax(*hi, v);
            if (v > 0)
                *min_pos = fmin(*min_pos, v);
        }
    }
}

static bool has_y2(const fsc_chart *c)
{
    for (size_t k = 0; k < c->n_series; k++)
        if (c->series[k].y2)
            return true;
    return false;
}

/* Is there a bar for point i of series s? (A bucket nobody filled takes no slot.) */
static bool bar_here(const fsc_chart *c, const fsc_series *s, size_t i, bool log)
{
    return !s->y2 && i < s->n && drawable(s->y[i], log) && (c->type != FSC_CHART_BUCKETS || s->y[i] > 0);
}

/* Bars drawn in category i (series against the left axis with a value there). */
static size_t bars_in(const fsc_chart *c, size_t i, bool log)
{
    size_t n = 0;
    for (size_t k = 0; k < c->n_series; k++)
        n += bar_here(c, &c->series[k], i, log);
    return n;
}

/* How many categories fit MAX_BARS bars (at least one). */
static size_t categories_shown(const fsc_chart *c)
{
    size_t bars = 0;
    for (size_t i = 0; i < c->n_categories; i++) {
        size_t b = bars_in(c, i, false);
        b = b ? b : 1;
        if (i > 0 && bars + b > MAX_BARS)
            return i;
        bars += b;
    }
    return c->n_categories;
}

static bool use_log(const fsc_chart *c, double lo, double hi, double min_pos, fsc_unit u)
{
    if (c->y_log)
        return min_pos < INFINITY;
    if (c->y_linear || u == FSC_UNIT_PCT || !(min_pos > 0 && min_pos < INFINITY) || lo < 0)
        return false;
    bool bars = c->type == FSC_CHART_BAR || c->type == FSC_CHART_BOX;
    return (bars && hi / min_pos >= 200) || c->type == FSC_CHART_PCTL;
}

static void make_axis(axis *a, const fsc_chart *c, double lo, double hi, double min_pos, fsc_unit u,
                      bool log, double room)
{
    if (!isfinite(lo)) {
        lo = 0;
        hi = 1;
        min_pos = 1;
    }
    if (log)
        axis_log(a, min_pos, hi, u, room);
    else {
        bool from_zero = c->type != FSC_CHART_SCATTER || lo >= 0;
        axis_linear(a, from_zero ? fmin(0, lo) : lo, hi, u, room);
    }
}

/* ---- text helpers ---- */

static double px_of(const ctx *x, double base, double min)
{
    return fmax(min, base * x->f);
}

/* Text cut in the middle to max_w, drawn at (x, y). */
static void text_fit(ctx *x, const char *s, double px0, double y, fsc_align al, double px, bool bold,
                     double angle, fsc_rgb c, const char *cls, double max_w)
{
    char *t = fsc_cv_fit_middle(x->cv, s, px, bold, max_w);
    if (t)
        fsc_cv_text(x->cv, t, px0, y, al, px, bold, angle, c, cls);
    free(t);
}

/* Wrapped text (max_lines) centred at cx from y; returns the height used. */
static double text_wrapped(ctx *x, const char *s, double cx, double y, double px, bool bold, double max_w,
                           int max_lines, fsc_rgb c, const char *cls, fsc_align al)
{
    char **lines = NULL;
    size_t n = fsc_cv_wrap(x->cv, s, px, bold, max_w, max_lines, &lines);
    double lh = fsc_cv_line_height(x->cv, px);
    for (size_t i = 0; i < n; i++)
        fsc_cv_text(x->cv, lines[i], cx, y + lh * (double)i, al, px, bold, 0, c, cls);
    fsc_cv_free_lines(lines, n);
    return lh * (double)n;
}

static double wrapped_height(ctx *x, const char *s, double px, bool bold, double max_w, int max_lines)
{
    char **lines = NULL;
    size_t n = fsc_cv_wrap(x->cv, s, px, bold, max_w, max_lines, &lines);
    fsc_cv_free_lines(lines, n);
    return fsc_cv_line_height(x->cv, px) * (double)n;
}

/* Length of the " › "-separated heading prefix all categories share (0 if none, or
 * if it would leave one of them empty). */
static size_t common_prefix(const fsc_chart *c, size_t n)
{
    static const char sep[] = " \xe2\x80\xba ";
    if (n < 2)
        return 0;
    size_t len = 0;
    const char *first = c->categories[0];
    for (const char *p = strstr(first, sep); p; p = strstr(p + 1, sep)) {
        size_t cand = (size_t)(p - first) + strlen(sep);
        bool all = true;
        for (size_t i = 1; i < n && all; i++)
            all = strncmp(c->categories[i], first, cand) == 0 && c->categories[i][cand];
        if (!all)
            break;
        len = cand;
    }
    return len;
}

/* ---- titles, legend, notes ---- */

static double draw_titles(ctx *x, const fsc_chart *c)
{
    double pad = 18 * x->f, y = pad, maxw = x->w - 2 * pad;
    fsc_cv_group(x->cv, "titles", NULL);
    y += text_wrapped(x, c->title, x->w / 2.0, y, px_of(x, 28, 14), true, maxw, 2, ink, "title", FSC_AL_CENTER);
    if (c->subtitle && *c->subtitle)
        y += 2 * x->f + text_wrapped(x, c->subtitle, x->w / 2.0, y + 2 * x->f, px_of(x, 17, 10), false, maxw, 2,
                                     muted, "subtitle", FSC_AL_CENTER);
    fsc_cv_group_end(x->cv);
    return y + 8 * x->f;
}

typedef struct legend_entry {
    const char *name;
    int color;
    bool dashed, line;
} legend_entry;

static bool legend_has(const legend_entry *e, size_t n, const char *name)
{
    for (size_t i = 0; i < n; i++)
        if (!strcmp(e[i].name, name))
            return true;
    return false;
}

static size_t collect_legend(const fsc_chart *c, legend_entry *e, size_t n, size_t max)
{
    if (c->type == FSC_CHART_HEATMAP)
        return 0;
    bool lines = c->type == FSC_CHART_LINE || c->type == FSC_CHART_SCATTER || c->type == FSC_CHART_PCTL;
    for (size_t k = 0; k < c->n_series && n < max; k++) {
        const fsc_series *s = &c->series[k];
        if (!s->name[0] || s->no_legend || legend_has(e, n, s->name))
            continue;
        e[n++] = (legend_entry){s->name, s->color, s->dashed, lines || s->y2};
    }
    for (size_t p = 0; p < c->n_panels; p++)
        n = collect_legend(c->panels[p], e, n, max);
    return n;
}

static double draw_swatch(ctx *x, const legend_entry *e, double lx, double y, double sw, double row_h)
{
    fsc_rgb col = color_of(e->color);
    double cy = y + row_h / 2 - 1 * x->f;
    if (e->line) {
        fsc_cv_line(x->cv, lx, cy, lx + sw * 1.6, cy, col, fmax(1.5, 3 * x->f), e->dashed ? 6 * x->f : 0);
        fsc_cv_circle(x->cv, lx + sw * 0.8, cy, fmax(2, 4 * x->f), col, 0, col);
        return sw * 1.6;
    }
    fsc_cv_rect(x->cv, lx, cy - sw / 2, sw, sw, col, 1);
    return sw;
}

/* Legend entries flow left to right between x0 and x1 from y, at most max_rows rows
 * (then "and N more"); returns the y under them. */
static double legend_in(ctx *x, const legend_entry *e, size_t n, double x0, double x1, double y, double px,
                        int max_rows)
{
    double sw = px * 0.9, gap = px * 1.35, row_h = px * 1.6;
    double max_entry = (x1 - x0) / 3.2, avail = x1 - x0;
    double *wid = malloc((n ? n : 1) * sizeof *wid);
    if (!wid)
        return y;
    double total = 0;
    for (size_t i = 0; i < n; i++) {
        wid[i] = (e[i].line ? sw * 1.6 : sw) + px * 0.4 + fmin(fsc_cv_text_width(x->cv, e[i].name, px, false), max_entry);
        total += wid[i] + gap;
    }
    fsc_cv_group(x->cv, "legend", NULL);
    double lx = total - gap <= avail ? (x0 + x1 - (total - gap)) / 2 : x0;
    int row = 0;
    char more[64];
    for (size_t i = 0; i < n; i++) {
        snprintf(more, sizeof more, "and %zu more", n - i);
        double more_w = fsc_cv_text_width(x->cv, more, px, false);
        bool last_row = row == max_rows - 1;
        if (lx + wid[i] > x1 - (last_row && i + 1 < n ? more_w + gap : 0) && lx > x0) {
            if (last_row) {
                fsc_cv_text(x->cv, more, lx, y + (row_h - fsc_cv_line_height(x->cv, px)) / 2, FSC_AL_LEFT, px, false,
                            0, muted, "legend-more");
                break;
            }
            row++;
            lx = x0;
            y += row_h;
        }
        fsc_cv_group(x->cv, "legend-entry", e[i].name);
        double used = draw_swatch(x, &e[i], lx, y, sw, row_h);
        text_fit(x, e[i].name, lx + used + px * 0.4, y + (row_h - fsc_cv_line_height(x->cv, px)) / 2, FSC_AL_LEFT, px,
                 false, 0, ink, "legend", max_entry + 1);
        fsc_cv_group_end(x->cv);
        lx += wid[i] + gap;
    }
    fsc_cv_group_end(x->cv);
    free(wid);
    return y + row_h;
}

/* The chart's legend under the title (each series name once, across the panels
 * unless every panel has its own); returns the new top of the plot area. */
static double draw_legend(ctx *x, const fsc_chart *c, double y)
{
    enum { MAX_ENTRIES = 256 };
    if (c->panel_legends)
        return y;
    legend_entry *e = malloc(MAX_ENTRIES * sizeof *e);
    size_t n = e ? collect_legend(c, e, 0, MAX_ENTRIES) : 0;
    if (n == 0 || (n == 1 && c->n_panels == 0 && c->type != FSC_CHART_BAR && !has_y2(c))) {
        free(e);
        return y;
    }
    double pad = 20 * x->f;
    y = legend_in(x, e, n, pad, x->w - pad, y, px_of(x, 16, 10), MAX_LEGEND_ROWS);
    free(e);
    return y + 8 * x->f;
}

/* The note and the footnote at the bottom; returns the new bottom of the plot area. */
static double draw_bottom(ctx *x, const fsc_chart *c, const char *auto_note)
{
    double pad = 12 * x->f, y = x->h - pad, maxw = x->w - 2 * 20 * x->f;
    if (c->footnote && *c->footnote) {
        double px = px_of(x, 12, 9);
        y -= fsc_cv_line_height(x->cv, px);
        text_fit(x, c->footnote, 20 * x->f, y, FSC_AL_LEFT, px, false, 0, muted, "footnote", maxw);
        y -= 4 * x->f;
    }
    const char *notes[2] = {c->note, auto_note};
    for (int i = 1; i >= 0; i--) {
        if (!notes[i] || !*notes[i])
            continue;
        double px = px_of(x, 15, 10);
        double h = wrapped_height(x, notes[i], px, false, maxw, 2);
        y -= h;
        text_wrapped(x, notes[i], x->w / 2.0, y, px, false, maxw, 2, ink, "note", FSC_AL_CENTER);
        y -= 4 * x->f;
    }
    return y - 4 * x->f;
}

/* ---- one plot (the chart itself or one panel) ---- */

typedef struct plot {
    ctx *x;
    const fsc_chart *c;
    box area;
    double tick_px, cat_px, title_px, value_px;
    bool panel, show_x_title, show_y_title;
} plot;

static double max_tick_width(plot *p, const axis *a)
{
    double w = 0;
    char lab[64];
    for (size_t i = 0; i < a->n_ticks; i++) {
        tick_text(a, a->ticks[i], lab, sizeof lab);
        w = fmax(w, fsc_cv_text_width(p->x->cv, lab, p->tick_px, false));
    }
    return w;
}

static double y_at(const axis *a, const box *b, double v)
{
    return b->y1 - axis_frac(a, v) * (b->y1 - b->y0);
}

/* Grid lines, tick labels and the title of a y axis (left, or right for y2). */
static void draw_y_axis(plot *p, const axis *a, const box *b, const char *title, bool right)
{
    ctx *x = p->x;
    char lab[64], t[256];
    fsc_cv_group(x->cv, right ? "y2-axis" : "y-axis", NULL);
    if (!right)
        for (size_t i = 0; i < a->n_minor; i++) {
            if (a->minor[i] < a->lo || a->minor[i] > a->hi)
                continue;
            double y = b->y1 - (a->minor[i] - a->lo) / (a->hi - a->lo) * (b->y1 - b->y0);
            fsc_cv_line(x->cv, b->x0, y, b->x1, y, grid_minor, fmax(1, x->f), 0);
        }
    double lh = fsc_cv_line_height(x->cv, p->tick_px);
    for (size_t i = 0; i < a->n_ticks; i++) {
        double y = b->y1 - (a->ticks[i] - a->lo) / (a->hi - a->lo) * (b->y1 - b->y0);
        if (!right)
            fsc_cv_line(x->cv, b->x0, y, b->x1, y, grid, fmax(1, x->f), 0);
        tick_text(a, a->ticks[i], lab, sizeof lab);
        fsc_cv_text(x->cv, lab, right ? b->x1 + 8 * x->f : b->x0 - 8 * x->f, y - lh / 2,
                    right ? FSC_AL_LEFT : FSC_AL_RIGHT, p->tick_px, false, 0, axis_ink, "tick");
    }
    if (title && p->show_y_title) {
        axis_title_text(t, sizeof t, title, a);
        double px = p->title_px, tw = max_tick_width(p, a);
        double xx = right ? b->x1 + 14 * x->f + tw + fsc_cv_line_height(x->cv, px)
                          : b->x0 - 14 * x->f - tw - fsc_cv_line_height(x->cv, px);
        text_fit(x, t, xx, (b->y0 + b->y1) / 2, FSC_AL_CENTER, px, false, right ? -90 : 90, ink, "axis-title",
                 b->y1 - b->y0);
    }
    fsc_cv_group_end(x->cv);
}

static void frame(plot *p, const box *b, bool right)
{
    double lw = fmax(1, 1.5 * p->x->f);
    fsc_cv_line(p->x->cv, b->x0, b->y1, b->x1, b->y1, axis_ink, lw, 0);
    fsc_cv_line(p->x->cv, b->x0, b->y0, b->x0, b->y1, axis_ink, lw, 0);
    if (right)
        fsc_cv_line(p->x->cv, b->x1, b->y0, b->x1, b->y1, axis_ink, lw, 0);
}

/* A panel's title, and its own legend when the chart gives each panel one; returns
 * the height used. */
static double panel_title(plot *p, const fsc_chart *c)
{
    if (!p->panel)
        return 0;
    double px = px_of(p->x, 17, 10);
    text_fit(p->x, c->title, (p->area.x0 + p->area.x1) / 2, p->area.y0, FSC_AL_CENTER, px, true, 0, ink,
             "panel-title", p->area.x1 - p->area.x0);
    double h = fsc_cv_line_height(p->x->cv, px) + 4 * p->x->f;
    if (!p->x->top->panel_legends)
        return h;
    legend_entry e[64];
    size_t n = 0;
    for (size_t k = 0; k < c->n_series && n < FSC_ARRAY_SIZE(e); k++)
        if (!c->series[k].no_legend && !legend_has(e, n, c->series[k].name))
            e[n++] = (legend_entry){c->series[k].name, c->series[k].color, c->series[k].dashed,
                                    c->type == FSC_CHART_LINE || c->type == FSC_CHART_SCATTER ||
                                        c->type == FSC_CHART_PCTL || c->series[k].y2};
    double y = legend_in(p->x, e, n, p->area.x0, p->area.x1, p->area.y0 + h, px_of(p->x, 13, 9), 2);
    return y - p->area.y0 + 2 * p->x->f;
}

/* Left margin for a y axis whose widest tick label is tw. */
static double left_margin(plot *p, double tw)
{
    return (p->show_y_title ? fsc_cv_line_height(p->x->cv, p->title_px) * 1.3 : 0) + tw + 14 * p->x->f;
}

static void x_title(plot *p, const char *s, const box *b)
{
    if (!s || !*s || !p->show_x_title)
        return;
    double lh = fsc_cv_line_height(p->x->cv, p->title_px);
    text_fit(p->x, s, (b->x0 + b->x1) / 2, p->area.y1 - lh, FSC_AL_CENTER, p->title_px, false, 0, ink,
             "axis-title", b->x1 - b->x0);
}

/* ---- categorical plots: bars, buckets, boxes ---- */

typedef enum label_mode { LBL_NONE, LBL_FLAT, LBL_UP } label_mode;

typedef struct cat_layout {
    size_t nc;        /* categories drawn */
    size_t prefix;    /* bytes of the shared heading prefix left out of the names */
    int orient;       /* 0: wrapped flat, 45 or 90 degrees */
    double pitch, bottom;
    double *pos;      /* bar centre of series k in category i: pos[k * nc + i], NAN if none */
    double bw;        /* bar width */
} cat_layout;

/* The longest slanted name: 230 px at 1600x900, at most a third of a small panel. */
static double slant_max(const plot *p)
{
    return fmin(230 * p->x->f, (p->area.y1 - p->area.y0) * 0.33 / 0.71);
}

static double longest_category(plot *p, const cat_layout *l)
{
    double w = 0;
    for (size_t i = 0; i < l->nc; i++)
        w = fmax(w, fsc_cv_text_width(p->x->cv, p->c->categories[i] + l->prefix, p->cat_px, false));
    return fmin(w, slant_max(p));
}

/* Orientation of the category names and the room they take under the plot. */
static void plan_categories(plot *p, cat_layout *l, double plot_w)
{
    double f = p->x->f, lh = fsc_cv_line_height(p->x->cv, p->cat_px);
    l->pitch = plot_w / (double)(l->nc ? l->nc : 1);
    double longest = longest_category(p, l);
    if (l->pitch >= 90 * f || longest <= l->pitch - 6 * f) {
        l->orient = 0;
        double h = lh;
        for (size_t i = 0; i < l->nc; i++)
            h = fmax(h, wrapped_height(p->x, p->c->categories[i] + l->prefix, p->cat_px, false,
                                       l->pitch - 6 * f, 3));
        l->bottom = h + 8 * f;
    } else if (l->pitch >= lh * 1.5) {
        l->orient = 45;
        l->bottom = longest * 0.71 + lh + 8 * f;
    } else {
        l->orient = 90;
        l->bottom = longest + 10 * f;
    }
}

/* plan_categories for the plot box b; slanted names reach left of their group, so
 * the box moves right until the first one stays inside the area. */
static void plan_categories_in(plot *p, cat_layout *l, box *b)
{
    plan_categories(p, l, b->x1 - b->x0);
    if (l->orient != 45)
        return;
    double over = longest_category(p, l) * 0.71 - l->pitch / 2 - (b->x0 - p->area.x0);
    if (over > 0) {
        b->x0 += over;
        plan_categories(p, l, b->x1 - b->x0);
    }
}

static void draw_categories(plot *p, const cat_layout *l, const box *b)
{
    ctx *x = p->x;
    double f = x->f, lh = fsc_cv_line_height(x->cv, p->cat_px);
    fsc_cv_group(x->cv, "categories", NULL);
    for (size_t i = 0; i < l->nc; i++) {
        const char *name = p->c->categories[i] + l->prefix;
        double cx = b->x0 + l->pitch * ((double)i + 0.5);
        if (l->orient == 0)
            text_wrapped(x, name, cx, b->y1 + 6 * f, p->cat_px, false, l->pitch - 6 * f, 3, ink, "category",
                         FSC_AL_CENTER);
        else if (l->orient == 45)
            text_fit(x, name, cx + lh * 0.35, b->y1 + 6 * f, FSC_AL_RIGHT, p->cat_px, false, 45, ink, "category",
                     slant_max(p));
        else
            text_fit(x, name, cx - lh / 2, b->y1 + 6 * f, FSC_AL_RIGHT, p->cat_px, false, 90, ink, "category",
                     slant_max(p));
    }
    fsc_cv_group_end(x->cv);
}

/* Bar centres: in each category only the series with a value take a slot, centred. */
static bool place_bars(const fsc_chart *c, cat_layout *l, const box *b, bool log, double f)
{
    size_t ns = c->n_series, most = 1;
    l->pos = malloc((ns ? ns : 1) * (l->nc ? l->nc : 1) * sizeof *l->pos);
    if (!l->pos)
        return false;
    for (size_t i = 0; i < l->nc; i++) {
        size_t m = bars_in(c, i, log);
        most = m > most ? m : most;
    }
    l->bw = fmin(l->pitch * 0.8 / (double)most, 150 * f); /* a lone bar need not fill the plot */
    for (size_t i = 0; i < l->nc; i++) {
        size_t m = bars_in(c, i, log), r = 0;
        double start = b->x0 + l->pitch * ((double)i + 0.5) - l->bw * (double)m / 2;
        for (size_t k = 0; k < ns; k++) {
            bool here = bar_here(c, &c->series[k], i, log);
            l->pos[k * l->nc + i] = here ? start + l->bw * ((double)r++ + 0.5) : NAN;
        }
    }
    return true;
}

/* "1.01M" and, against a baseline, "+243%" (or "base" for the baseline itself). */
static void value_label(const fsc_chart *c, size_t k, size_t i, char *val, size_t nv, char *pct, size_t np)
{
    fmt_human(val, nv, c->series[k].y[i], c->y_unit);
    pct[0] = 0;
    if (c->baseline < 0 || (size_t)c->baseline >= c->n_series)
        return;
    const fsc_series *base = &c->series[c->baseline];
    if ((size_t)c->baseline == k)
        snprintf(pct, np, "base");
    else if (i < base->n && isfinite(base->y[i]) && base->y[i] != 0) {
        double d = (c->series[k].y[i] / base->y[i] - 1) * 100;
        snprintf(pct, np, "%s%.*f%%", d >= 0 ? "+" : "\xe2\x88\x92", fabs(d) < 10 ? 1 : 0, fabs(d));
    }
}

/* Flat labels when every one fits its bar, upright when the bars are at least a line
 * high, else none (the SVG keeps every value as a tooltip). */
static label_mode plan_labels(plot *p, const cat_layout *l, double *room_px)
{
    const fsc_chart *c = p->c;
    double lh = fsc_cv_line_height(p->x->cv, p->value_px), widest = 0;
    bool two = c->baseline >= 0, fits = true;
    char val[64], pct[32];
    for (size_t k = 0; k < c->n_series; k++)
        for (size_t i = 0; i < l->nc; i++) {
            if (isnan(l->pos[k * l->nc + i]))
                continue;
            value_label(c, k, i, val, sizeof val, pct, sizeof pct);
            double w = fmax(fsc_cv_text_width(p->x->cv, val, p->value_px, false),
                            pct[0] ? fsc_cv_text_width(p->x->cv, pct, p->value_px, false) : 0);
            widest = fmax(widest, w);
            fits = fits && w <= l->bw * 1.08;
        }
    if (c->type == FSC_CHART_BOX) {
        *room_px = 0;
        return LBL_NONE;
    }
    if (fits) {
        *room_px = lh * (two ? 2 : 1) + 6 * p->x->f;
        return LBL_FLAT;
    }
    if (l->bw >= lh * (two ? 1.9 : 0.95)) {
        *room_px = widest + 8 * p->x->f;
        return LBL_UP;
    }
    *room_px = 0;
    return LBL_NONE;
}

/* Dots for the repeats of point i of series s at x, and the line of their range. */
static void draw_repeats(plot *p, const fsc_series *s, size_t i, double cx, const axis *a, const box *b)
{
    double lo = INFINITY, hi = -INFINITY;
    size_t n = 0;
    for (size_t r = 0; r < s->n_rep; r++)
        if (s->rep[r].i == i && drawable(s->rep[r].v, a->log)) {
            lo = fmin(lo, s->rep[r].v);
            hi = fmax(hi, s->rep[r].v);
            n++;
        }
    if (n < 2)
        return;
    double f = p->x->f;
    fsc_cv_line(p->x->cv, cx, y_at(a, b, lo), cx, y_at(a, b, hi), ink, fmax(1, 2 * f), 0);
    size_t j = 0;
    for (size_t r = 0; r < s->n_rep; r++)
        if (s->rep[r].i == i && drawable(s->rep[r].v, a->log)) {
            double jitter = ((double)(j++ % 3) - 1) * 3 * f;
            fsc_cv_circle(p->x->cv, cx + jitter, y_at(a, b, s->rep[r].v), fmax(2, 3.5 * f), ink, fmax(0.8, 1.2 * f),
                          white);
        }
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double quantile(const double *v, size_t n, double q)
{
    double at = q * (double)(n - 1);
    size_t i = (size_t)floor(at);
    return i + 1 < n ? v[i] + (v[i + 1] - v[i]) * (at - (double)i) : v[n - 1];
}

/* A box of the repeats (quartiles, median, min–max whiskers) centred at cx. */
static void draw_box(plot *p, const fsc_series *s, size_t i, double cx, double bw, const axis *a, const box *b)
{
    double *v = malloc((s->n_rep + 1) * sizeof *v);
    size_t n = 0;
    for (size_t r = 0; v && r < s->n_rep; r++)
        if (s->rep[r].i == i && drawable(s->rep[r].v, a->log))
            v[n++] = s->rep[r].v;
    if (v && n == 0 && i < s->n && drawable(s->y[i], a->log))
        v[n++] = s->y[i];
    if (!n) {
        free(v);
        return;
    }
    qsort(v, n, sizeof *v, cmp_double);
    double f = p->x->f, q1 = quantile(v, n, 0.25), q3 = quantile(v, n, 0.75), med = quantile(v, n, 0.5);
    fsc_rgb col = color_of(s->color);
    double yl = y_at(a, b, v[0]), yh = y_at(a, b, v[n - 1]), y1 = y_at(a, b, q1), y3 = y_at(a, b, q3);
    double lw = fmax(1, 2 * f), w = bw * 0.7;
    fsc_cv_line(p->x->cv, cx, yl, cx, y1, ink, lw, 0);
    fsc_cv_line(p->x->cv, cx, y3, cx, yh, ink, lw, 0);
    fsc_cv_line(p->x->cv, cx - w / 4, yl, cx + w / 4, yl, ink, lw, 0);
    fsc_cv_line(p->x->cv, cx - w / 4, yh, cx + w / 4, yh, ink, lw, 0);
    fsc_cv_rect(p->x->cv, cx - w / 2, y3, w, fmax(1, y1 - y3), col, 0.85);
    fsc_cv_rect_outline(p->x->cv, cx - w / 2, y3, w, fmax(1, y1 - y3), ink, lw * 0.6);
    fsc_cv_line(p->x->cv, cx - w / 2, y_at(a, b, med), cx + w / 2, y_at(a, b, med), ink, lw * 1.5, 0);
    free(v);
}

/* The highest value drawn at point i of s: the bar or its highest repeat. */
static double top_of(const fsc_series *s, size_t i)
{
    double top = s->y[i];
    for (size_t r = 0; r < s->n_rep; r++)
        if (s->rep[r].i == i && isfinite(s->rep[r].v))
            top = fmax(top, s->rep[r].v);
    return top;
}

static void draw_value_labels(plot *p, const cat_layout *l, const axis *a, const box *b, label_mode mode)
{
    if (mode == LBL_NONE)
        return;
    const fsc_chart *c = p->c;
    double lh = fsc_cv_line_height(p->x->cv, p->value_px), f = p->x->f;
    char val[64], pct[32];
    fsc_cv_group(p->x->cv, "values", NULL);
    for (size_t k = 0; k < c->n_series; k++)
        for (size_t i = 0; i < l->nc; i++) {
            double cx = l->pos[k * l->nc + i];
            if (isnan(cx))
                continue;
            value_label(c, k, i, val, sizeof val, pct, sizeof pct);
            double top = y_at(a, b, fmin(top_of(&c->series[k], i), a->log ? pow(10, a->hi) : a->hi));
            if (mode == LBL_FLAT) {
                double y = top - lh * (pct[0] ? 2 : 1) - (top_of(&c->series[k], i) > c->series[k].y[i] ? 7 : 3) * f;
                fsc_cv_text(p->x->cv, val, cx, y, FSC_AL_CENTER, p->value_px, false, 0, ink, "value");
                if (pct[0])
                    fsc_cv_text(p->x->cv, pct, cx, y + lh, FSC_AL_CENTER, p->value_px, false, 0, muted, "change");
            } else {
                fsc_buf t = {0};
                fsc_buf_printf(&t, "%s%s%s", val, pct[0] ? " " : "", pct);
                if (!t.oom)
                    fsc_cv_text(p->x->cv, t.data, cx - lh / 2, top - 4 * f, FSC_AL_LEFT, p->value_px, false, 90,
                                ink, "value");
                fsc_buf_free(&t);
            }
        }
    fsc_cv_group_end(p->x->cv);
}

/* Tooltip "name · where: value". */
static void point_tip(ctx *x, const char *name, const char *where, double v, fsc_unit u)
{
    char val[64];
    fmt_human(val, sizeof val, v, u);
    fsc_buf tip = {0};
    fsc_buf_printf(&tip, "%s%s%s: %s", name, name[0] && where[0] ? " · " : "", where, val);
    fsc_cv_tip(x->cv, tip.oom ? NULL : tip.data);
    fsc_buf_free(&tip);
}

/* y2 series over bars: a marker at the bar of the same colour (or the category's
 * centre) joined by a dashed line. */
static void draw_y2_over_bars(plot *p, const cat_layout *l, const axis *a2, const box *b)
{
    const fsc_chart *c = p->c;
    double f = p->x->f;
    double *xy = malloc(2 * (l->nc ? l->nc : 1) * sizeof *xy);
    size_t *at = malloc((l->nc ? l->nc : 1) * sizeof *at);
    for (size_t k = 0; xy && at && k < c->n_series; k++) {
        const fsc_series *s = &c->series[k];
        if (!s->y2)
            continue;
        fsc_cv_group(p->x->cv, "series-y2", s->name);
        size_t n = 0;
        for (size_t i = 0; i < l->nc && i < s->n; i++) {
            if (!drawable(s->y[i], a2->log))
                continue;
            double cx = b->x0 + l->pitch * ((double)i + 0.5);
            for (size_t o = 0; o < c->n_series; o++)
                if (!c->series[o].y2 && c->series[o].color == s->color && !isnan(l->pos[o * l->nc + i]))
                    cx = l->pos[o * l->nc + i];
            xy[2 * n] = cx;
            xy[2 * n + 1] = y_at(a2, b, s->y[i]);
            at[n++] = i;
        }
        fsc_cv_path(p->x->cv, xy, n, ink, fmax(1, 1.6 * f), 5 * f);
        for (size_t j = 0; j < n; j++) {
            point_tip(p->x, s->name, c->categories[at[j]], s->y[at[j]], c->y2_unit);
            fsc_cv_circle(p->x->cv, xy[2 * j], xy[2 * j + 1], fmax(3, 6 * f), color_of(s->color), fmax(1, 2 * f),
                          ink);
        }
        fsc_cv_group_end(p->x->cv);
    }
    free(xy);
    free(at);
}

static void plot_categorical(plot *p)
{
    ctx *x = p->x;
    const fsc_chart *c = p->c;
    double f = x->f;
    cat_layout l = {0};
    l.nc = c->type == FSC_CHART_BOX ? c->n_categories : categories_shown(c);
    if (c->type == FSC_CHART_BOX && l.nc > MAX_BARS)
        l.nc = MAX_BARS;
    if (l.nc < c->n_categories) {
        x->cut_plots++;
        x->first_shown = l.nc;
        x->all_categories = c->n_categories;
    }
    l.prefix = common_prefix(c, l.nc);
    bool twin = has_y2(c);
    double lo, hi, min_pos, lo2, hi2, min2;
    y_range(c, false, l.nc, &lo, &hi, &min_pos);
    y_range(c, true, l.nc, &lo2, &hi2, &min2);
    bool log = use_log(c, lo, hi, min_pos, c->y_unit);
    bool log2 = twin && isfinite(min2) && min2 > 0 && hi2 / min2 >= 50;
    axis a, a2 = {0};
    make_axis(&a, c, lo, hi, min_pos, c->y_unit, log, 0);
    if (twin)
        make_axis(&a2, c, lo2, hi2, min2, c->y2_unit, log2, 0);

    box b = p->area;
    b.y0 += panel_title(p, c) + 6 * f;
    b.x0 += left_margin(p, max_tick_width(p, &a));
    b.x1 -= twin ? left_margin(p, max_tick_width(p, &a2)) : 16 * f;
    plan_categories_in(p, &l, &b);
    b.y1 -= l.bottom + (p->show_x_title && c->x_title && *c->x_title ? fsc_cv_line_height(x->cv, p->title_px) * 1.3 : 0);
    if (b.y1 - b.y0 < 40 * f || !place_bars(c, &l, &b, log, f)) {
        free(l.pos);
        return;
    }
    double room = 0;
    label_mode mode = plan_labels(p, &l, &room);
    room = fmax(room, (b.y1 - b.y0) * 0.03); /* whiskers and dots clear of the frame */
    make_axis(&a, c, lo, hi, min_pos, c->y_unit, log, room / (b.y1 - b.y0));
    if (twin)
        make_axis(&a2, c, lo2, hi2, min2, c->y2_unit, log2, room / (b.y1 - b.y0));

    draw_y_axis(p, &a, &b, c->y_title, false);
    if (twin)
        draw_y_axis(p, &a2, &b, c->y2_title, true);
    for (size_t k = 0; k < c->n_series; k++) {
        const fsc_series *s = &c->series[k];
        if (s->y2)
            continue;
        fsc_cv_group(x->cv, "series", s->name);
        for (size_t i = 0; i < l.nc; i++) {
            double cx = l.pos[k * l.nc + i];
            if (isnan(cx))
                continue;
            point_tip(x, s->name, c->categories[i], s->y[i], c->y_unit);
            if (c->type == FSC_CHART_BOX)
                draw_box(p, s, i, cx, l.bw, &a, &b);
            else {
                double top = y_at(&a, &b, fmin(s->y[i], a.log ? pow(10, a.hi) : a.hi));
                double base = a.log ? b.y1 : y_at(&a, &b, fmax(0, a.lo));
                fsc_cv_rect(x->cv, cx - l.bw * 0.45, fmin(top, base), l.bw * 0.9, fabs(base - top), color_of(s->color), 1);
                draw_repeats(p, s, i, cx, &a, &b);
            }
        }
        fsc_cv_group_end(x->cv);
    }
    fsc_cv_tip(x->cv, NULL);
    draw_value_labels(p, &l, &a, &b, mode);
    if (twin)
        draw_y2_over_bars(p, &l, &a2, &b);
    draw_categories(p, &l, &b);
    frame(p, &b, twin);
    char t[512];
    if (l.prefix)
        snprintf(t, sizeof t, "%s (all under: %.*s)", c->x_title ? c->x_title : "", (int)(l.prefix - 5),
                 c->categories[0]);
    else
        snprintf(t, sizeof t, "%s", c->x_title ? c->x_title : "");
    x_title(p, t, &b);
    free(l.pos);
}

/* ---- x/y plots: lines, scatter, percentile curves ---- */

static double pctl_t(double pct)
{
    return pct >= 100 ? 7 : -log10(1 - pct / 100);
}

typedef struct xaxis {
    axis a;
    bool pctl, at_data; /* ticks at percentiles / at the measured settings */
} xaxis;

static double x_pos(const xaxis *xa, const box *b, double v)
{
    double t = xa->pctl ? pctl_t(v) : xa->a.log ? log10(v) : v;
    return b->x0 + (t - xa->a.lo) / (xa->a.hi - xa->a.lo) * (b->x1 - b->x0);
}

/* Distinct finite x values, ascending; max + 1 when there are more than max. */
static size_t distinct_x(const fsc_chart *c, double *out, size_t max)
{
    size_t n = 0;
    for (size_t k = 0; k < c->n_series; k++)
        for (size_t i = 0; i < c->series[k].n; i++) {
            double v = c->series[k].x[i];
            bool seen = !isfinite(v) || !isfinite(c->series[k].y[i]);
            for (size_t j = 0; j < n && !seen; j++)
                seen = out[j] == v;
            if (seen)
                continue;
            if (n == max)
                return max + 1;
            out[n++] = v;
        }
    qsort(out, n, sizeof *out, cmp_double);
    return n;
}

static void x_axis_for(const fsc_chart *c, xaxis *xa)
{
    memset(xa, 0, sizeof *xa);
    xa->a.unit = c->x_unit;
    xa->a.sc = (axis_scale){1, ""};
    double vals[MAX_TICKS];
    size_t n = distinct_x(c, vals, 12);
    if (c->type == FSC_CHART_PCTL) {
        static const double pct[] = {0, 50, 90, 99, 99.9, 99.99, 99.999, 99.9999};
        double hi = 0;
        for (size_t i = 0; i < n && i < 12; i++)
            hi = fmax(hi, pctl_t(vals[i]));
        if (n > 12) /* more than 12 percentiles: the largest decides */
            for (size_t k = 0; k < c->n_series; k++)
                for (size_t i = 0; i < c->series[k].n; i++)
                    if (isfinite(c->series[k].x[i]))
                        hi = fmax(hi, pctl_t(c->series[k].x[i]));
        xa->pctl = true;
        for (size_t i = 0; i < FSC_ARRAY_SIZE(pct); i++) {
            xa->a.ticks[xa->a.n_ticks++] = pct[i];
            if (pctl_t(pct[i]) >= hi - 1e-9)
                break;
        }
        xa->a.lo = 0;
        xa->a.hi = pctl_t(xa->a.ticks[xa->a.n_ticks - 1]);
        return;
    }
    /* (time in ms is a continuous axis, never a handful of settings) */
    if (n >= 2 && n <= 12 && c->type == FSC_CHART_LINE && c->x_unit != FSC_UNIT_MS) {
        /* ticks at the measured settings; log spacing when they double (iodepth 1..64) */
        xa->at_data = true;
        xa->a.log = vals[0] > 0 && vals[n - 1] / vals[0] >= 8;
        double lo = xa->a.log ? log10(vals[0]) : vals[0], hi = xa->a.log ? log10(vals[n - 1]) : vals[n - 1];
        double pad = (hi - lo) * 0.05;
        xa->a.lo = lo - pad;
        xa->a.hi = hi + pad;
        for (size_t i = 0; i < n; i++)
            xa->a.ticks[xa->a.n_ticks++] = xa->a.log ? log10(vals[i]) : vals[i];
        return;
    }
    double lo = INFINITY, hi = -INFINITY;
    for (size_t k = 0; k < c->n_series; k++)
        for (size_t i = 0; i < c->series[k].n; i++)
            if (isfinite(c->series[k].x[i]) && isfinite(c->series[k].y[i])) {
                lo = fmin(lo, c->series[k].x[i]);
                hi = fmax(hi, c->series[k].x[i]);
            }
    if (!isfinite(lo))
        lo = 0, hi = 1;
    axis_linear(&xa->a, lo, hi, c->x_unit, 0);
    xa->a.lo = fmin(xa->a.lo, lo);
}

/* "4 KiB", "1 MiB", "1.5 KiB": a size exactly in its IEC multiple. */
static void fmt_size_exact(char *out, size_t n, double v)
{
    static const char *const names[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    size_t k = 0;
    while (k + 1 < FSC_ARRAY_SIZE(names) && fabs(v) >= pow(1024, (double)(k + 1)))
        k++;
    snprintf(out, n, "%.4g %s", v / pow(1024, (double)k), names[k]);
}

static void x_tick_text(const xaxis *xa, double t, char *out, size_t n)
{
    double v = xa->a.log ? pow(10, t) : t;
    if (xa->pctl)
        snprintf(out, n, "%.7g", t);
    else if (xa->a.unit == FSC_UNIT_BYTES && xa->at_data)
        fmt_size_exact(out, n, v);
    else if (xa->at_data)
        fmt_with_unit(out, n, v, xa->a.unit);
    else
        fmt_number(out, n, v / xa->a.sc.div);
}

static void draw_x_axis(plot *p, const xaxis *xa, const box *b)
{
    char lab[64];
    fsc_cv_group(p->x->cv, "x-axis", NULL);
    for (size_t i = 0; i < xa->a.n_ticks; i++) {
        double t = xa->a.ticks[i];
        double xx = xa->pctl ? x_pos(xa, b, t) : b->x0 + (t - xa->a.lo) / (xa->a.hi - xa->a.lo) * (b->x1 - b->x0);
        fsc_cv_line(p->x->cv, xx, b->y0, xx, b->y1, grid, fmax(1, p->x->f), 0);
        x_tick_text(xa, t, lab, sizeof lab);
        fsc_cv_text(p->x->cv, lab, xx, b->y1 + 6 * p->x->f, FSC_AL_CENTER, p->tick_px, false, 0, axis_ink, "tick");
    }
    fsc_cv_group_end(p->x->cv);
}

static void draw_lines(plot *p, const xaxis *xa, const axis *a, const box *b, bool y2)
{
    const fsc_chart *c = p->c;
    double f = p->x->f;
    for (size_t k = 0; k < c->n_series; k++) {
        const fsc_series *s = &c->series[k];
        if (s->y2 != y2)
            continue;
        fsc_rgb col = color_of(s->color);
        double *xy = malloc(2 * (s->n ? s->n : 1) * sizeof *xy);
        if (!xy)
            return;
        fsc_cv_group(p->x->cv, y2 ? "series-y2" : "series", s->name);
        size_t n = 0;
        double lw = fmax(1.5, (c->type == FSC_CHART_PCTL ? 2.5 : 3) * f), dash = s->dashed || y2 ? 7 * f : 0;
        for (size_t i = 0; c->type != FSC_CHART_SCATTER && i <= s->n; i++) {
            bool ok = i < s->n && isfinite(s->x[i]) && drawable(s->y[i], a->log);
            if (ok) {
                xy[2 * n] = x_pos(xa, b, s->x[i]);
                xy[2 * n + 1] = y_at(a, b, s->y[i]);
                n++;
            } else {
                fsc_cv_path(p->x->cv, xy, n, col, lw, dash);
                n = 0;
            }
        }
        bool dots = c->type != FSC_CHART_PCTL || s->n <= 40;
        for (size_t i = 0; dots && i < s->n; i++) {
            if (!isfinite(s->x[i]) || !drawable(s->y[i], a->log))
                continue;
            char where[64];
            if (xa->pctl)
                snprintf(where, sizeof where, "p%.7g", s->x[i]);
            else
                x_tick_text(&(xaxis){.a = {.unit = c->x_unit, .sc = {1, ""}}, .at_data = true}, s->x[i], where,
                            sizeof where);
            point_tip(p->x, s->name, where, s->y[i], y2 ? c->y2_unit : c->y_unit);
            double r = fmax(2.5, (c->type == FSC_CHART_PCTL ? 3 : 5) * f);
            fsc_cv_circle(p->x->cv, x_pos(xa, b, s->x[i]), y_at(a, b, s->y[i]), r, col, y2 ? fmax(1, 1.5 * f) : 0,
                          white);
        }
        for (size_t i = 0; i < s->n; i++)
            if (isfinite(s->x[i]))
                draw_repeats(p, s, i, x_pos(xa, b, s->x[i]), a, b);
        fsc_cv_tip(p->x->cv, NULL);
        fsc_cv_group_end(p->x->cv);
        free(xy);
    }
}

static void plot_xy(plot *p)
{
    ctx *x = p->x;
    const fsc_chart *c = p->c;
    double f = x->f;
    bool twin = has_y2(c);
    double lo, hi, min_pos, lo2, hi2, min2;
    y_range(c, false, SIZE_MAX, &lo, &hi, &min_pos);
    y_range(c, true, SIZE_MAX, &lo2, &hi2, &min2);
    axis a, a2 = {0};
    make_axis(&a, c, lo, hi, min_pos, c->y_unit, use_log(c, lo, hi, min_pos, c->y_unit), 0.02);
    if (twin)
        make_axis(&a2, c, lo2, hi2, min2, c->y2_unit, isfinite(min2) && min2 > 0 && hi2 / min2 >= 50, 0.02);
    xaxis xa;
    x_axis_for(c, &xa);
    box b = p->area;
    b.y0 += panel_title(p, c) + 10 * f;
    b.x0 += left_margin(p, max_tick_width(p, &a));
    b.x1 -= twin ? left_margin(p, max_tick_width(p, &a2)) : 24 * f;
    double lh = fsc_cv_line_height(x->cv, p->tick_px);
    b.y1 -= lh + 10 * f + (p->show_x_title ? fsc_cv_line_height(x->cv, p->title_px) * 1.3 : 0);
    if (b.y1 - b.y0 < 40 * f)
        return;
    draw_y_axis(p, &a, &b, c->y_title, false);
    if (twin)
        draw_y_axis(p, &a2, &b, c->y2_title, true);
    draw_x_axis(p, &xa, &b);
    fsc_cv_clip(x->cv, b.x0 - 8 * f, b.y0 - 8 * f, b.x1 - b.x0 + 16 * f, b.y1 - b.y0 + 16 * f);
    draw_lines(p, &xa, &a, &b, false);
    if (twin)
        draw_lines(p, &xa, &a2, &b, true);
    fsc_cv_unclip(x->cv);
    frame(p, &b, twin);
    char t[256];
    if (xa.pctl)
        snprintf(t, sizeof t, "%s", c->x_title ? c->x_title : "percentile");
    else if (xa.at_data)
        snprintf(t, sizeof t, "%s%s", c->x_title ? c->x_title : "", xa.a.log ? " (log scale)" : "");
    else
        axis_title_text(t, sizeof t, c->x_title, &xa.a);
    x_title(p, t, &b);
}

/* ---- heat maps ---- */

static void plot_heatmap(plot *p)
{
    ctx *x = p->x;
    const fsc_chart *c = p->c;
    double f = x->f;
    size_t nr = 0, nc = c->n_categories > MAX_BARS ? MAX_BARS : c->n_categories;
    for (size_t k = 0; k < c->n_series; k++)
        nr += !c->series[k].y2;
    if (!nr || !nc)
        return;
    double lo, hi, min_pos;
    y_range(c, false, nc, &lo, &hi, &min_pos);
    bool log = !c->y_linear && c->y_unit != FSC_UNIT_PCT && min_pos > 0 && lo > 0 && hi / min_pos >= 20;
    if (c->y_unit == FSC_UNIT_PCT && lo >= 0 && hi <= 100) {
        lo = 0; /* shares: the full 0-100% scale */
        hi = 100;
    }
    box b = p->area;
    b.y0 += panel_title(p, c) + 6 * f;
    double row_w = 0;
    for (size_t k = 0; k < c->n_series; k++)
        row_w = fmax(row_w, fsc_cv_text_width(x->cv, c->series[k].name, p->cat_px, false));
    row_w = fmin(row_w, 200 * f);
    b.x0 += row_w + 12 * f + (p->show_y_title && c->row_title ? fsc_cv_line_height(x->cv, p->title_px) * 1.3 : 0);
    double bar_w = 18 * f, bar_labels = 0;
    char lab[64];
    fmt_human(lab, sizeof lab, hi, c->y_unit);
    bar_labels = fsc_cv_text_width(x->cv, lab, p->tick_px, false);
    b.x1 -= bar_w + bar_labels + 30 * f;
    cat_layout l = {.nc = nc, .prefix = common_prefix(c, nc)};
    plan_categories_in(p, &l, &b);
    b.y1 -= l.bottom + (p->show_x_title && c->x_title ? fsc_cv_line_height(x->cv, p->title_px) * 1.3 : 0);
    if (b.y1 - b.y0 < 30 * f)
        return;
    double cw = (b.x1 - b.x0) / (double)nc, ch = (b.y1 - b.y0) / (double)nr;
    double lh = fsc_cv_line_height(x->cv, p->value_px);
    size_t row = 0;
    for (size_t k = 0; k < c->n_series; k++) {
        const fsc_series *s = &c->series[k];
        if (s->y2)
            continue;
        double y = b.y1 - ch * (double)(row + 1); /* the first series is the bottom row */
        fsc_cv_group(x->cv, "series", s->name);
        for (size_t i = 0; i < nc && i < s->n; i++) {
            if (!drawable(s->y[i], log))
                continue;
            double t = log ? (log10(s->y[i]) - log10(min_pos)) / fmax(1e-12, log10(hi) - log10(min_pos))
                           : (s->y[i] - lo) / fmax(1e-12, hi - lo);
            double xx = b.x0 + cw * (double)i;
            point_tip(x, s->name, c->categories[i], s->y[i], c->y_unit);
            fsc_cv_rect(x->cv, xx + 1, y + 1, cw - 2, ch - 2, viridis(t), 1);
            fmt_human(lab, sizeof lab, s->y[i], c->y_unit);
            if (fsc_cv_text_width(x->cv, lab, p->value_px, false) <= cw - 6 * f && lh <= ch - 4 * f)
                fsc_cv_text(x->cv, lab, xx + cw / 2, y + (ch - lh) / 2, FSC_AL_CENTER, p->value_px, false, 0,
                            t < 0.6 ? white : ink, "value");
        }
        fsc_cv_group_end(x->cv);
        text_fit(x, s->name, b.x0 - 8 * f, y + (ch - fsc_cv_line_height(x->cv, p->cat_px)) / 2, FSC_AL_RIGHT,
                 p->cat_px, false, 0, ink, "row", 200 * f);
        row++;
    }
    fsc_cv_tip(x->cv, NULL);
    l.pitch = cw;
    draw_categories(p, &l, &b);
    if (p->show_y_title && c->row_title)
        text_fit(x, c->row_title, b.x0 - row_w - 14 * f - fsc_cv_line_height(x->cv, p->title_px), (b.y0 + b.y1) / 2,
                 FSC_AL_CENTER, p->title_px, false, 90, ink, "axis-title", b.y1 - b.y0);
    x_title(p, c->x_title, &b);
    /* colour scale */
    double bx = b.x1 + 16 * f;
    fsc_cv_group(x->cv, "color-scale", c->y_title);
    for (int i = 0; i < 32; i++) {
        double y0 = b.y1 - (b.y1 - b.y0) * (i + 1) / 32.0;
        fsc_cv_rect(x->cv, bx, y0, bar_w, (b.y1 - b.y0) / 32.0 + 0.5, viridis((i + 0.5) / 32.0), 1);
    }
    double th = fsc_cv_line_height(x->cv, p->tick_px);
    for (int i = 0; i <= 2; i++) {
        double t = i / 2.0, v = log ? pow(10, log10(min_pos) + t * (log10(hi) - log10(min_pos))) : lo + t * (hi - lo);
        fmt_human(lab, sizeof lab, v, c->y_unit);
        fsc_cv_text(x->cv, lab, bx + bar_w + 6 * f, b.y1 - t * (b.y1 - b.y0) - th / 2, FSC_AL_LEFT, p->tick_px, false,
                    0, axis_ink, "tick");
    }
    fsc_cv_group_end(x->cv);
}

/* ---- the whole chart ---- */

static void draw_plot(ctx *x, const fsc_chart *c, box area, bool panel, bool show_x, bool show_y)
{
    double k = panel ? 0.85 : 1;
    plot p = {x, c, area, px_of(x, 14 * k, 9), px_of(x, 14 * k, 9), px_of(x, 16 * k, 10), px_of(x, 13 * k, 8.5),
              panel, show_x, show_y};
    fsc_cv_group(x->cv, panel ? "panel" : "plot", panel ? c->title : NULL);
    if (!fsc_chart_has_data(c))
        fsc_cv_text(x->cv, "no data", (area.x0 + area.x1) / 2, (area.y0 + area.y1) / 2, FSC_AL_CENTER, p.title_px,
                    false, 0, muted, "no-data");
    else if (is_categorical(c->type))
        plot_categorical(&p);
    else if (c->type == FSC_CHART_HEATMAP)
        plot_heatmap(&p);
    else
        plot_xy(&p);
    fsc_cv_group_end(x->cv);
}

static size_t cut_in(const fsc_chart *c)
{
    return is_categorical(c->type) && c->type != FSC_CHART_BOX && categories_shown(c) < c->n_categories;
}

/* The renderer's own note: what was left out to stay readable. */
static void auto_note(const fsc_chart *c, fsc_buf *b)
{
    if (c->n_panels == 0 && cut_in(c)) {
        const char *noun = c->x_title && *c->x_title ? c->x_title : "categorie";
        size_t len = strlen(noun);
        fsc_buf_printf(b, "Only the first %zu of %zu %s%s are drawn (at most %d bars); the tables hold all of them.",
                       categories_shown(c), c->n_categories, noun, len && noun[len - 1] == 's' ? "" : "s", MAX_BARS);
        return;
    }
    size_t cut = 0;
    for (size_t i = 0; i < c->n_panels && i < MAX_PANELS; i++)
        cut += cut_in(c->panels[i]);
    if (c->n_panels > MAX_PANELS)
        fsc_buf_printf(b, "Only the first %d of %zu panels are drawn.", MAX_PANELS, c->n_panels);
    if (cut)
        fsc_buf_printf(b, "%s%zu panel%s show%s only the first %d bars.", b->len ? " " : "", cut, cut == 1 ? "" : "s",
                       cut == 1 ? "s" : "", MAX_BARS);
}

/* Columns by width (panels at least about 440 px wide at 1600x900), balanced rows. */
static void panel_grid(size_t n, double aw, double f, size_t *cols, size_t *rows)
{
    size_t c = (size_t)floor(aw / (440 * f));
    c = c < 1 ? 1 : c > n ? n : c;
    size_t r = (n + c - 1) / c;
    *cols = (n + r - 1) / r;
    *rows = r;
}

void fsc_chart_draw(fsc_canvas *cv, const fsc_chart *c, int width, int height)
{
    ctx x = {cv, c, fmin(width / 1600.0, height / 900.0), width, height, 0, 0, 0};
    fsc_cv_rect(cv, 0, 0, width, height, white, 1);
    double top = draw_titles(&x, c);
    fsc_buf note = {0};
    if (fsc_chart_has_data(c)) {
        top = draw_legend(&x, c, top);
        auto_note(c, &note);
    }
    double bottom = draw_bottom(&x, c, note.oom ? NULL : note.data);
    fsc_buf_free(&note);
    double pad = 20 * x.f;
    box area = {pad, top, width - pad, bottom};
    if (!fsc_chart_has_data(c)) {
        fsc_cv_text(cv, "no data", width / 2.0, height / 2.0, FSC_AL_CENTER, px_of(&x, 20, 12), false, 0, muted,
                    "no-data");
        return;
    }
    if (c->n_panels == 0) {
        draw_plot(&x, c, area, false, true, true);
        return;
    }
    size_t n = c->n_panels < MAX_PANELS ? c->n_panels : MAX_PANELS, cols, rows;
    panel_grid(n, area.x1 - area.x0, x.f, &cols, &rows);
    double cw = (area.x1 - area.x0) / (double)cols, ch = (area.y1 - area.y0) / (double)rows, gap = 14 * x.f;
    for (size_t i = 0; i < n; i++) {
        size_t r = i / cols, col = i % cols;
        box cell = {area.x0 + cw * (double)col + (col ? gap / 2 : 0), area.y0 + ch * (double)r + (r ? gap / 2 : 0),
                    area.x0 + cw * (double)(col + 1) - (col + 1 < cols ? gap / 2 : 0),
                    area.y0 + ch * (double)(r + 1) - gap / 2};
        draw_plot(&x, c->panels[i], cell, true, r + 1 == rows || i + cols >= n, col == 0);
    }
}

void fsc_chart_fit_size(const fsc_chart *c, int *width, int *height)
{
    if (!c->n_panels)
        return;
    size_t n = c->n_panels < MAX_PANELS ? c->n_panels : MAX_PANELS, cols, rows;
    double f = fmin(*width / 1600.0, *height / 900.0);
    panel_grid(n, *width - 40 * f, f, &cols, &rows);
    double need = (double)rows * 320 * f + 200 * f;
    if (need > *height)
        *height = (int)fmin(8000, ceil(need));
}
