/* SPDX-License-Identifier: MIT */
/*
 * Draws an fsc_chart as PNG with cairo; all text goes through Pango so that any
 * script (`4k 随机写`) renders with font fallback. Layout scales with the image size.
 */
#include "fioscope/chart.h"

#include <cairo.h>
#include <fontconfig/fontconfig.h>
#include <math.h>
#include <pango/pangocairo.h>
#include <stdio.h>
#include <string.h>

#define FONT_FAMILY "WenQuanYi Micro Hei, DejaVu Sans, sans"
#define MAX_TICKS 16
#define PI 3.14159265358979323846
#define SLANT_LEN 230.0 /* longest slanted category name, px at 1600x900 */

static const double palette[][3] = {
    {0x4E / 255.0, 0x79 / 255.0, 0xA7 / 255.0}, {0xF2 / 255.0, 0x8E / 255.0, 0x2B / 255.0},
    {0xE1 / 255.0, 0x57 / 255.0, 0x59 / 255.0}, {0x76 / 255.0, 0xB7 / 255.0, 0xB2 / 255.0},
    {0x59 / 255.0, 0xA1 / 255.0, 0x4F / 255.0}, {0xED / 255.0, 0xC9 / 255.0, 0x48 / 255.0},
    {0xB0 / 255.0, 0x7A / 255.0, 0xA1 / 255.0}, {0xFF / 255.0, 0x9D / 255.0, 0xA7 / 255.0},
    {0x9C / 255.0, 0x75 / 255.0, 0x5F / 255.0}, {0x79 / 255.0, 0x70 / 255.0, 0x6E / 255.0},
};

typedef struct draw {
    cairo_t *cr;
    PangoLayout *lay;
    PangoFontDescription *fd;
    double f; /* scale: 1.0 at 1600x900 */
    int w, h;
} draw;

/* A readable multiple of an axis' base unit. */
typedef struct axis_scale {
    double div;
    const char *suffix;
} axis_scale;

typedef struct axis {
    double lo, hi; /* in data units (log10 of them when log) */
    bool log;
    double ticks[MAX_TICKS];
    size_t n_ticks;
    axis_scale sc;
} axis;

typedef struct plot_box {
    double x0, y0, x1, y1; /* plot area, y0 top */
} plot_box;

static void set_color(cairo_t *cr, size_t i)
{
    const double *c = palette[i % FSC_ARRAY_SIZE(palette)];
    cairo_set_source_rgb(cr, c[0], c[1], c[2]);
}

/* ---- text ---- */

typedef enum align { AL_LEFT, AL_CENTER, AL_RIGHT } align;

static void text_setup(draw *d, const char *s, double px, bool bold, double max_w, int max_lines)
{
    pango_font_description_set_absolute_size(d->fd, px * PANGO_SCALE);
    pango_font_description_set_weight(d->fd, bold ? PANGO_WEIGHT_BOLD : PANGO_WEIGHT_NORMAL);
    pango_layout_set_font_description(d->lay, d->fd);
    pango_layout_set_width(d->lay, max_w > 0 ? (int)(max_w * PANGO_SCALE) : -1);
    pango_layout_set_wrap(d->lay, PANGO_WRAP_WORD_CHAR);
    pango_layout_set_ellipsize(d->lay, max_w > 0 ? PANGO_ELLIPSIZE_END : PANGO_ELLIPSIZE_NONE);
    pango_layout_set_height(d->lay, max_lines > 0 ? -max_lines : -1);
    pango_layout_set_alignment(d->lay, PANGO_ALIGN_LEFT);
    pango_layout_set_text(d->lay, s ? s : "", -1);
}

static void text_size(draw *d, double *w, double *h)
{
    PangoRectangle ink, logical;
    pango_layout_get_pixel_extents(d->lay, &ink, &logical);
    *w = logical.width;
    *h = logical.height;
}

/* Draw s with its top edge at y, aligned at x; returns the height used. */
static double text_at(draw *d, const char *s, double x, double y, align al, double px, bool bold,
                      double max_w, int max_lines)
{
    double tw, th;
    text_setup(d, s, px, bold, max_w, max_lines);
    if (max_w > 0)
        pango_layout_set_alignment(d->lay, al == AL_CENTER  ? PANGO_ALIGN_CENTER
                                           : al == AL_RIGHT ? PANGO_ALIGN_RIGHT
                                                            : PANGO_ALIGN_LEFT);
    text_size(d, &tw, &th);
    double left = x;
    if (max_w > 0)
        left = al == AL_CENTER ? x - max_w / 2 : al == AL_RIGHT ? x - max_w : x;
    else
        left = al == AL_CENTER ? x - tw / 2 : al == AL_RIGHT ? x - tw : x;
    cairo_move_to(d->cr, left, y);
    pango_cairo_show_layout(d->cr, d->lay);
    return th;
}

static double text_width(draw *d, const char *s, double px)
{
    double w, h;
    text_setup(d, s, px, false, 0, 0);
    text_size(d, &w, &h);
    return w;
}

/* ---- axes ---- */

static axis_scale pick_scale(fsc_unit u, double max)
{
    static const char *const bytes[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    static const char *const rates[] = {"B/s", "KiB/s", "MiB/s", "GiB/s", "TiB/s"};
    static const char *const times[] = {"ns", "µs", "ms", "s"};
    static const char *const counts[] = {"", "thousands", "millions", "billions"};
    static const char *const iops[] = {"", "k", "M", "G"};
    axis_scale s = {1, ""};
    double step = 1000;
    const char *const *names = counts;
    size_t n = 4, first = 0;
    switch (u) {
    case FSC_UNIT_BYTES: names = bytes, n = 5, step = 1024; break;
    case FSC_UNIT_BYTES_PER_S: names = rates, n = 5, step = 1024; break;
    case FSC_UNIT_KIB_PER_S: names = rates, n = 5, step = 1024, first = 1; break;
    case FSC_UNIT_NS: names = times, n = 4; break;
    case FSC_UNIT_MS: names = times, n = 4, first = 2; break;
    case FSC_UNIT_IOPS: names = iops; break;
    case FSC_UNIT_COUNT: break;
    case FSC_UNIT_PCT: s.suffix = "%"; return s;
    case FSC_UNIT_NONE: return s;
    }
    s.suffix = names[first];
    for (size_t i = first + 1; i < n && max / (s.div * step) >= 1; i++) {
        s.div *= step;
        s.suffix = names[i];
    }
    return s;
}

static double nice_step(double span, int want)
{
    double raw = span / want;
    double mag = pow(10, floor(log10(raw)));
    double m = raw / mag;
    double nice = m <= 1 ? 1 : m <= 2 ? 2 : m <= 2.5 ? 2.5 : m <= 5 ? 5 : 10;
    return nice * mag;
}

/* Linear axis from lo to hi (data units), ticks at nice multiples of the scaled unit. */
static void axis_linear(axis *a, double lo, double hi, fsc_unit u)
{
    a->log = false;
    a->sc = pick_scale(u, fmax(fabs(lo), fabs(hi)));
    if (!(hi > lo))
        hi = lo + (lo == 0 ? 1 : fabs(lo) * 0.1);
    double step = nice_step((hi - lo) / a->sc.div, 5) * a->sc.div;
    a->lo = floor(lo / step) * step;
    a->hi = ceil(hi / step - 1e-9) * step;
    a->n_ticks = 0;
    for (double t = a->lo; t <= a->hi + step / 2 && a->n_ticks < MAX_TICKS; t += step)
        a->ticks[a->n_ticks++] = t;
}

/* Log10 axis over [lo, hi] (data units, > 0), decade ticks. */
static void axis_log(axis *a, double lo, double hi)
{
    a->log = true;
    a->sc.div = 1;
    a->sc.suffix = "";
    a->lo = floor(log10(lo));
    a->hi = ceil(log10(hi));
    if (a->hi <= a->lo)
        a->hi = a->lo + 1;
    a->n_ticks = 0;
    for (double t = a->lo; t <= a->hi && a->n_ticks < MAX_TICKS; t++)
        a->ticks[a->n_ticks++] = t;
}

static double axis_frac(const axis *a, double v)
{
    double t = a->log ? log10(v) : v;
    return (t - a->lo) / (a->hi - a->lo);
}

static void fmt_number(char *out, size_t n, double v)
{
    if (fabs(v) >= 1e6 || (v != 0 && fabs(v) < 1e-3))
        snprintf(out, n, "%.3g", v);
    else if (v == floor(v))
        snprintf(out, n, "%.0f", v);
    else
        snprintf(out, n, "%.4g", v);
}

/* Tick label of a linear axis value, or of a decade of a log latency axis. */
static void tick_label(const axis *a, fsc_unit u, double t, char *out, size_t n)
{
    if (!a->log) {
        fmt_number(out, n, t / a->sc.div);
        return;
    }
    double v = pow(10, t);
    axis_scale s = pick_scale(u, v);
    char num[32];
    fmt_number(num, sizeof num, v / s.div);
    snprintf(out, n, "%s %s", num, s.suffix);
}

static void axis_title(char *out, size_t n, const char *title, const axis *a)
{
    if (a->sc.suffix[0] && !a->log)
        snprintf(out, n, "%s (%s)", title ? title : "", a->sc.suffix);
    else
        snprintf(out, n, "%s", title ? title : "");
}

/* ---- percentile axis: t = -log10(1 - p/100) spreads the tail ---- */

static double pctl_t(double p)
{
    return p >= 100 ? 7 : -log10(1 - p / 100);
}

/* ---- ranges ---- */

static bool finite_y(const fsc_series *s, size_t i)
{
    return i < s->n && isfinite(s->y[i]);
}

static void data_range(const fsc_chart *c, bool want_x, double *lo, double *hi)
{
    *lo = INFINITY;
    *hi = -INFINITY;
    for (size_t k = 0; k < c->n_series; k++) {
        const fsc_series *s = &c->series[k];
        for (size_t i = 0; i < s->n; i++) {
            double v = want_x ? s->x[i] : s->y[i];
            if (!isfinite(v) || !isfinite(s->y[i]) || (c->y_log && !want_x && v <= 0))
                continue;
            if (c->type == FSC_CHART_PCTL && want_x)
                v = pctl_t(v);
            *lo = fmin(*lo, v);
            *hi = fmax(*hi, v);
        }
    }
}

static double min_positive(const fsc_chart *c)
{
    double m = INFINITY;
    for (size_t k = 0; k < c->n_series; k++)
        for (size_t i = 0; i < c->series[k].n; i++)
            if (isfinite(c->series[k].y[i]) && c->series[k].y[i] > 0)
                m = fmin(m, c->series[k].y[i]);
    return isfinite(m) ? m : 0;
}

static bool is_categorical(const fsc_chart *c)
{
    return c->type == FSC_CHART_BAR || c->type == FSC_CHART_BUCKETS;
}

/* ---- pieces ---- */

static double draw_titles(draw *d, const fsc_chart *c)
{
    double pad = 20 * d->f, y = pad;
    cairo_set_source_rgb(d->cr, 0.1, 0.1, 0.1);
    y += text_at(d, c->title, d->w / 2.0, y, AL_CENTER, fmax(14, 28 * d->f), true, d->w - 2 * pad, 2);
    cairo_set_source_rgb(d->cr, 0.35, 0.35, 0.35);
    if (c->subtitle)
        y += text_at(d, c->subtitle, d->w / 2.0, y + 2 * d->f, AL_CENTER, fmax(10, 16 * d->f), false,
                     d->w - 2 * pad, 2);
    return y + 8 * d->f;
}

/* Legend entries flow left to right under the title; returns the new top of the plot. */
static double draw_legend(draw *d, const fsc_chart *c, double y)
{
    double px = fmax(10, 16 * d->f), sw = px, gap = 22 * d->f, pad = 20 * d->f;
    double max_entry = d->w / 3.0, row_h = px * 1.5;
    double x = pad, total = 0;
    /* Centre a single row; otherwise rows start at the left margin. */
    for (size_t i = 0; i < c->n_series; i++)
        total += sw + 6 * d->f + fmin(text_width(d, c->series[i].name, px), max_entry) + gap;
    if (total - gap < d->w - 2 * pad)
        x = (d->w - (total - gap)) / 2;
    for (size_t i = 0; i < c->n_series; i++) {
        double tw = fmin(text_width(d, c->series[i].name, px), max_entry);
        double need = sw + 6 * d->f + tw;
        if (x + need > d->w - pad && x > pad) {
            x = pad;
            y += row_h;
        }
        set_color(d->cr, i);
        cairo_rectangle(d->cr, x, y + (row_h - sw) / 2 - 2 * d->f, sw, sw);
        cairo_fill(d->cr);
        cairo_set_source_rgb(d->cr, 0.15, 0.15, 0.15);
        text_at(d, c->series[i].name, x + sw + 6 * d->f, y, AL_LEFT, px, false, tw + 1, 1);
        x += need + gap;
    }
    return y + row_h + 10 * d->f;
}

static void grid_line(draw *d, double x0, double y0, double x1, double y1, double gray, double lw)
{
    cairo_set_source_rgb(d->cr, gray, gray, gray);
    cairo_set_line_width(d->cr, lw);
    cairo_move_to(d->cr, x0, y0);
    cairo_line_to(d->cr, x1, y1);
    cairo_stroke(d->cr);
}

static void draw_y_axis(draw *d, const fsc_chart *c, const axis *ya, const plot_box *b)
{
    double px = fmax(10, 15 * d->f);
    char lab[64];
    for (size_t i = 0; i < ya->n_ticks; i++) {
        double y = b->y1 - axis_frac(ya, ya->log ? pow(10, ya->ticks[i]) : ya->ticks[i]) * (b->y1 - b->y0);
        grid_line(d, b->x0, y, b->x1, y, 0.88, fmax(1, d->f));
        tick_label(ya, c->y_unit, ya->ticks[i], lab, sizeof lab);
        cairo_set_source_rgb(d->cr, 0.25, 0.25, 0.25);
        text_at(d, lab, b->x0 - 8 * d->f, y - px * 0.65, AL_RIGHT, px, false, 0, 1);
        if (ya->log && i + 1 < ya->n_ticks)
            for (int m = 2; m <= 5; m += 3) {
                double ym = b->y1 - axis_frac(ya, m * pow(10, ya->ticks[i])) * (b->y1 - b->y0);
                grid_line(d, b->x0, ym, b->x1, ym, 0.95, fmax(1, d->f));
            }
    }
    char title[256];
    axis_title(title, sizeof title, c->y_title, ya);
    if (ya->log && !c->y_log && strlen(title) + 16 < sizeof title)
        strcat(title, " (log scale)");
    cairo_save(d->cr);
    cairo_set_source_rgb(d->cr, 0.15, 0.15, 0.15);
    cairo_translate(d->cr, 18 * d->f, (b->y0 + b->y1) / 2);
    cairo_rotate(d->cr, -PI / 2);
    text_at(d, title, 0, 0, AL_CENTER, fmax(11, 17 * d->f), false, b->y1 - b->y0, 1);
    cairo_restore(d->cr);
}

static double tick_label_width(draw *d, const fsc_chart *c, const axis *ya)
{
    double px = fmax(10, 15 * d->f), w = 0;
    char lab[64];
    for (size_t i = 0; i < ya->n_ticks; i++) {
        tick_label(ya, c->y_unit, ya->ticks[i], lab, sizeof lab);
        w = fmax(w, text_width(d, lab, px));
    }
    return w;
}

static double longest_category(draw *d, const fsc_chart *c, double px)
{
    double w = 0;
    for (size_t i = 0; i < c->n_categories; i++)
        w = fmax(w, text_width(d, c->categories[i], px));
    return fmin(w, SLANT_LEN * d->f);
}

/* Category names under the groups: up to three wrapped lines, or slanted at 45°
 * when the groups are too narrow for that. */
static void draw_categories(draw *d, const fsc_chart *c, const plot_box *b, bool slant)
{
    double px = fmax(10, 15 * d->f), gw = (b->x1 - b->x0) / (double)c->n_categories;
    bool steep = gw < px * 1.6; /* 45° names would overlap: stand them upright */
    cairo_set_source_rgb(d->cr, 0.15, 0.15, 0.15);
    for (size_t i = 0; i < c->n_categories; i++) {
        double x = b->x0 + gw * ((double)i + 0.5);
        if (!slant) {
            text_at(d, c->categories[i], x, b->y1 + 6 * d->f, AL_CENTER, px, false, gw - 4 * d->f, 3);
            continue;
        }
        cairo_save(d->cr);
        cairo_translate(d->cr, x, b->y1 + 8 * d->f);
        cairo_rotate(d->cr, steep ? -PI / 2 : -PI / 4);
        text_at(d, c->categories[i], 0, -px * (steep ? 0.6 : 0.7), AL_RIGHT, px, false,
                SLANT_LEN * d->f, 1);
        cairo_restore(d->cr);
    }
}

static void draw_bars(draw *d, const fsc_chart *c, const axis *ya, const plot_box *b)
{
    size_t nc = c->n_categories, ns = c->n_series;
    double gw = (b->x1 - b->x0) / (double)nc, bw = gw * 0.8 / (double)ns;
    double lpx = fmax(9, 13 * d->f);
    fsc_buf labbuf = {0}, *lab = &labbuf;
    for (size_t k = 0; k < ns; k++) {
        const fsc_series *s = &c->series[k];
        for (size_t i = 0; i < nc; i++) {
            if (!finite_y(s, i) || (ya->log && s->y[i] <= 0))
                continue;
            double x = b->x0 + gw * (double)i + gw * 0.1 + bw * (double)k;
            double top = b->y1 - fmin(1, axis_frac(ya, s->y[i])) * (b->y1 - b->y0);
            set_color(d->cr, k);
            cairo_rectangle(d->cr, x + bw * 0.06, top, bw * 0.88, b->y1 - top);
            cairo_fill(d->cr);
            fsc_buf_reset(lab);
            fsc_format_human(lab, s->y[i], c->y_unit);
            if (!lab->oom && lab->data && text_width(d, lab->data, lpx) <= bw * 1.05 && s->y[i] != 0) {
                cairo_set_source_rgb(d->cr, 0.2, 0.2, 0.2);
                text_at(d, lab->data, x + bw / 2, top - lpx * 1.35, AL_CENTER, lpx, false, 0, 1);
            }
        }
    }
    fsc_buf_free(lab);
}

/* Distinct finite x values, ascending (for ticks at the data of a line chart). */
static size_t distinct_x(const fsc_chart *c, double *out, size_t max)
{
    size_t n = 0;
    for (size_t k = 0; k < c->n_series; k++)
        for (size_t i = 0; i < c->series[k].n; i++) {
            double v = c->series[k].x[i];
            bool seen = !isfinite(v);
            for (size_t j = 0; j < n && !seen; j++)
                seen = out[j] == v;
            if (seen)
                continue;
            if (n == max)
                return max + 1;
            out[n++] = v;
        }
    for (size_t i = 1; i < n; i++)
        for (size_t j = i; j > 0 && out[j - 1] > out[j]; j--) {
            double t = out[j];
            out[j] = out[j - 1];
            out[j - 1] = t;
        }
    return n;
}

static void x_axis_for(const fsc_chart *c, axis *xa)
{
    double lo, hi;
    data_range(c, true, &lo, &hi);
    if (c->type == FSC_CHART_PCTL) {
        static const double pct[] = {0, 50, 90, 99, 99.9, 99.99, 99.999, 99.9999};
        xa->log = false;
        xa->sc.div = 1;
        xa->sc.suffix = "";
        xa->lo = 0;
        xa->n_ticks = 0;
        for (size_t i = 0; i < FSC_ARRAY_SIZE(pct); i++) {
            xa->ticks[xa->n_ticks++] = pct[i];
            if (pctl_t(pct[i]) >= hi)
                break;
        }
        xa->hi = pctl_t(xa->ticks[xa->n_ticks - 1]);
        return;
    }
    double vals[MAX_TICKS];
    size_t n = distinct_x(c, vals, 12);
    if (n >= 2 && n <= 12 && c->type == FSC_CHART_LINE) {
        /* Ticks at the measured settings; log2 spacing when they double (iodepth 1..64). */
        axis_linear(xa, lo, hi, c->x_unit);
        xa->log = vals[0] > 0 && vals[n - 1] / vals[0] >= 8;
        double pad = xa->log ? (log10(vals[n - 1]) - log10(vals[0])) * 0.05 : (hi - lo) * 0.05;
        xa->lo = (xa->log ? log10(vals[0]) : vals[0]) - pad;
        xa->hi = (xa->log ? log10(vals[n - 1]) : vals[n - 1]) + pad;
        memcpy(xa->ticks, vals, n * sizeof *vals);
        xa->n_ticks = n;
        if (xa->log)
            for (size_t i = 0; i < n; i++)
                xa->ticks[i] = log10(vals[i]);
        return;
    }
    axis_linear(xa, lo, hi, c->x_unit);
}

static double x_pos(const fsc_chart *c, const axis *xa, const plot_box *b, double v)
{
    double t = c->type == FSC_CHART_PCTL ? pctl_t(v) : xa->log ? log10(v) : v;
    return b->x0 + (t - xa->lo) / (xa->hi - xa->lo) * (b->x1 - b->x0);
}

static void draw_x_axis(draw *d, const fsc_chart *c, const axis *xa, const plot_box *b)
{
    double px = fmax(10, 15 * d->f);
    char lab[64];
    for (size_t i = 0; i < xa->n_ticks; i++) {
        double t = xa->ticks[i];
        double v = c->type == FSC_CHART_PCTL ? t : xa->log ? pow(10, t) : t;
        double x = x_pos(c, xa, b, v);
        grid_line(d, x, b->y0, x, b->y1, 0.88, fmax(1, d->f));
        if (c->type == FSC_CHART_PCTL)
            snprintf(lab, sizeof lab, "%.7g", t);
        else
            fmt_number(lab, sizeof lab, v / xa->sc.div);
        cairo_set_source_rgb(d->cr, 0.25, 0.25, 0.25);
        text_at(d, lab, x, b->y1 + 6 * d->f, AL_CENTER, px, false, 0, 1);
    }
}

static void draw_points(draw *d, const fsc_chart *c, const axis *xa, const axis *ya, const plot_box *b)
{
    double r = fmax(2.5, 5 * d->f);
    for (size_t k = 0; k < c->n_series; k++) {
        const fsc_series *s = &c->series[k];
        bool pen = false;
        set_color(d->cr, k);
        cairo_set_line_width(d->cr, fmax(1.5, 3 * d->f));
        cairo_set_line_join(d->cr, CAIRO_LINE_JOIN_ROUND);
        for (size_t i = 0; i < s->n && c->type != FSC_CHART_SCATTER; i++) {
            if (!isfinite(s->x[i]) || !isfinite(s->y[i]) || (ya->log && s->y[i] <= 0)) {
                pen = false;
                continue;
            }
            double x = x_pos(c, xa, b, s->x[i]);
            double y = b->y1 - axis_frac(ya, s->y[i]) * (b->y1 - b->y0);
            if (pen)
                cairo_line_to(d->cr, x, y);
            else
                cairo_move_to(d->cr, x, y);
            pen = true;
        }
        cairo_stroke(d->cr);
        for (size_t i = 0; i < s->n; i++) {
            if (!isfinite(s->x[i]) || !isfinite(s->y[i]) || (ya->log && s->y[i] <= 0))
                continue;
            double x = x_pos(c, xa, b, s->x[i]);
            double y = b->y1 - axis_frac(ya, s->y[i]) * (b->y1 - b->y0);
            cairo_arc(d->cr, x, y, c->type == FSC_CHART_PCTL ? r * 0.6 : r, 0, 2 * PI);
            cairo_fill(d->cr);
        }
    }
}

static void draw_x_title(draw *d, const fsc_chart *c, const axis *xa, const plot_box *b)
{
    char title[256];
    if (is_categorical(c))
        snprintf(title, sizeof title, "%s", c->x_title ? c->x_title : "");
    else
        axis_title(title, sizeof title, c->x_title, xa);
    if (xa->log && strlen(title) + 16 < sizeof title)
        strcat(title, " (log scale)");
    cairo_set_source_rgb(d->cr, 0.15, 0.15, 0.15);
    text_at(d, title, (b->x0 + b->x1) / 2, d->h - 20 * d->f - fmax(11, 17 * d->f) * 1.3, AL_CENTER,
            fmax(11, 17 * d->f), false, b->x1 - b->x0, 1);
}

static void draw_chart(draw *d, const fsc_chart *c)
{
    cairo_set_source_rgb(d->cr, 1, 1, 1);
    cairo_paint(d->cr);
    double top = draw_titles(d, c);
    if (!fsc_chart_has_data(c)) {
        cairo_set_source_rgb(d->cr, 0.4, 0.4, 0.4);
        text_at(d, "no data", d->w / 2.0, d->h / 2.0, AL_CENTER, fmax(12, 20 * d->f), false, 0, 1);
        return;
    }
    top = draw_legend(d, c, top);

    double ylo, yhi;
    data_range(c, false, &ylo, &yhi);
    axis ya, xa = {0};
    /* Bars that differ by more than 200x (a null-engine job next to a disk) go on a
     * log axis, or the small ones would be invisible. */
    double min_pos = min_positive(c);
    if (c->y_log)
        axis_log(&ya, ylo, yhi);
    else if (c->type == FSC_CHART_BAR && min_pos > 0 && yhi / min_pos >= 200)
        axis_log(&ya, min_pos, yhi);
    else if (c->y_unit == FSC_UNIT_PCT && ylo >= 0 && yhi <= 100)
        axis_linear(&ya, 0, 100, c->y_unit); /* shares read best on a full 0-100% axis */
    else
        axis_linear(&ya, fmin(0, ylo), yhi * 1.02, c->y_unit);
    if (!is_categorical(c))
        x_axis_for(c, &xa);

    double px = fmax(10, 15 * d->f);
    double pitch = (d->w - 160 * d->f) / (double)(c->n_categories ? c->n_categories : 1);
    bool slant = is_categorical(c) && pitch < 100 * d->f, steep = pitch < px * 1.6;
    double bottom_labels = !is_categorical(c) ? px * 1.6
                           : slant            ? longest_category(d, c, px) * (steep ? 1 : 0.72) + px
                                              : px * 1.25 * 3 + 8 * d->f;
    plot_box b;
    b.x0 = 20 * d->f + fmax(11, 17 * d->f) * 1.6 + tick_label_width(d, c, &ya) + 10 * d->f;
    b.x1 = d->w - 30 * d->f;
    b.y0 = top + 14 * d->f;
    b.y1 = d->h - 20 * d->f - fmax(11, 17 * d->f) * 1.5 - bottom_labels;

    draw_y_axis(d, c, &ya, &b);
    if (is_categorical(c)) {
        draw_bars(d, c, &ya, &b);
        draw_categories(d, c, &b, slant);
    } else {
        draw_x_axis(d, c, &xa, &b);
        cairo_save(d->cr);
        cairo_rectangle(d->cr, b.x0 - 6 * d->f, b.y0 - 6 * d->f, b.x1 - b.x0 + 12 * d->f,
                        b.y1 - b.y0 + 12 * d->f);
        cairo_clip(d->cr);
        draw_points(d, c, &xa, &ya, &b);
        cairo_restore(d->cr);
    }
    grid_line(d, b.x0, b.y1, b.x1, b.y1, 0.3, fmax(1, 1.5 * d->f));
    grid_line(d, b.x0, b.y0, b.x0, b.y1, 0.3, fmax(1, 1.5 * d->f));
    draw_x_title(d, c, &xa, &b);
}

static cairo_status_t png_sink(void *closure, const unsigned char *data, unsigned int len)
{
    fsc_buf *b = closure;
    fsc_buf_add(b, data, len);
    return b->oom ? CAIRO_STATUS_NO_MEMORY : CAIRO_STATUS_SUCCESS;
}

fsc_status fsc_chart_png(const fsc_chart *c, int width, int height, fsc_buf *png, fsc_buf *err)
{
    if (width < 200 || height < 200 || width > 8000 || height > 8000) {
        fsc_buf_printf(err, "chart size %dx%d out of range (200..8000 pixels)", width, height);
        return FSC_E_USAGE;
    }
    cairo_surface_t *surf = cairo_image_surface_create(CAIRO_FORMAT_RGB24, width, height);
    cairo_t *cr = cairo_create(surf);
    draw d = {cr, pango_cairo_create_layout(cr), pango_font_description_from_string(FONT_FAMILY),
              fmin(width / 1600.0, height / 900.0), width, height};
    /* Fixed font options so that layout does not depend on the desktop's settings. */
    cairo_font_options_t *fo = cairo_font_options_create();
    cairo_font_options_set_antialias(fo, CAIRO_ANTIALIAS_GRAY);
    cairo_font_options_set_hint_style(fo, CAIRO_HINT_STYLE_NONE);
    cairo_font_options_set_hint_metrics(fo, CAIRO_HINT_METRICS_OFF);
    pango_cairo_context_set_font_options(pango_layout_get_context(d.lay), fo);
    pango_layout_context_changed(d.lay);
    draw_chart(&d, c);
    cairo_font_options_destroy(fo);
    pango_font_description_free(d.fd);
    g_object_unref(d.lay);
    cairo_destroy(cr);
    cairo_status_t st = cairo_surface_status(surf);
    if (st == CAIRO_STATUS_SUCCESS)
        st = cairo_surface_write_to_png_stream(surf, png_sink, png);
    cairo_surface_destroy(surf);
    if (st != CAIRO_STATUS_SUCCESS) {
        fsc_buf_printf(err, "cannot draw chart: %s", cairo_status_to_string(st));
        return st == CAIRO_STATUS_NO_MEMORY ? FSC_E_NOMEM : FSC_E_IO;
    }
    return FSC_OK;
}

void fsc_chart_shutdown(void)
{
    pango_cairo_font_map_set_default(NULL);
    cairo_debug_reset_static_data();
    FcFini();
}
