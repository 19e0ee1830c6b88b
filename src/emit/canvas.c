/* SPDX-License-Identifier: MIT */
/*
 * The chart drawing surface: cairo (PNG, PDF) or SVG elements. Text is laid out and
 * measured by Pango on a cairo context with fixed font options on both, so the SVG
 * and the PNG of one chart put every label at the same place. Where pango cannot be
 * loaded, cairo's own simple ("toy") text API measures and draws instead: the same
 * places on both surfaces, but no shaping and no font fallback (a CJK label may show
 * as boxes), which is still better than no chart.
 */
#include "canvas.h"
#include "cairo_api.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FONT_FAMILY "WenQuanYi Micro Hei, DejaVu Sans, sans"
#define TOY_FAMILY "DejaVu Sans" /* the toy API takes one family */
#define PI 3.14159265358979323846

struct fsc_canvas {
    cairo_t *cr;            /* the surface drawn on (cairo) or a 1×1 scratch (SVG) */
    cairo_surface_t *scratch;
    PangoLayout *lay;       /* NULL with toy text */
    PangoFontDescription *fd;
    bool toy;               /* cairo's simple text API: pango cannot be loaded */
    fsc_buf *svg; /* NULL when drawing with cairo */
    char *tip;
    int depth;    /* open <g> of groups and clips */
    unsigned clips;
};

static void setup_text(fsc_canvas *cv)
{
    cairo_font_options_t *fo = cairo_font_options_create();
    cairo_font_options_set_antialias(fo, CAIRO_ANTIALIAS_GRAY);
    cairo_font_options_set_hint_style(fo, CAIRO_HINT_STYLE_NONE);
    cairo_font_options_set_hint_metrics(fo, CAIRO_HINT_METRICS_OFF);
    cv->toy = !fsc_pango_api_is_open();
    if (cv->toy) {
        cairo_set_font_options(cv->cr, fo);
        cairo_font_options_destroy(fo);
        return;
    }
    cv->lay = pango_cairo_create_layout(cv->cr);
    cv->fd = pango_font_description_from_string(FONT_FAMILY);
    pango_cairo_context_set_font_options(pango_layout_get_context(cv->lay), fo);
    pango_layout_context_changed(cv->lay);
    cairo_font_options_destroy(fo);
}

fsc_canvas *fsc_canvas_cairo(cairo_t *cr)
{
    fsc_canvas *cv = calloc(1, sizeof *cv);
    if (!cv)
        return NULL;
    cv->cr = cr;
    setup_text(cv);
    return cv;
}

static void svg_num(fsc_buf *b, double v)
{
    if (!isfinite(v))
        v = 0;
    double r = round(v * 100) / 100;
    if (r == floor(r))
        fsc_buf_printf(b, "%.0f", r);
    else
        fsc_buf_printf(b, "%.2f", r);
}

static void svg_color(fsc_buf *b, fsc_rgb c)
{
    fsc_buf_printf(b, "#%02x%02x%02x", (unsigned)lround(fmin(1, fmax(0, c.r)) * 255),
                   (unsigned)lround(fmin(1, fmax(0, c.g)) * 255), (unsigned)lround(fmin(1, fmax(0, c.b)) * 255));
}

fsc_canvas *fsc_canvas_svg(fsc_buf *out, int w, int h, const char *title, const char *desc)
{
    fsc_canvas *cv = calloc(1, sizeof *cv);
    if (!cv)
        return NULL;
    cv->scratch = cairo_image_surface_create(CAIRO_FORMAT_RGB24, 1, 1);
    cv->cr = cairo_create(cv->scratch);
    cv->svg = out;
    setup_text(cv);
    fsc_buf_printf(out,
                   "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                   "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
                   "viewBox=\"0 0 %d %d\" font-family=\"",
                   w, h, w, h);
    fsc_xml_escape(out, FONT_FAMILY);
    fsc_buf_puts(out, "\" class=\"fioscope-chart\">\n<title>");
    fsc_xml_escape(out, title ? title : "");
    fsc_buf_puts(out, "</title>\n");
    if (desc && *desc) {
        fsc_buf_puts(out, "<desc>");
        fsc_xml_escape(out, desc);
        fsc_buf_puts(out, "</desc>\n");
    }
    return cv;
}

bool fsc_canvas_is_svg(const fsc_canvas *cv)
{
    return cv->svg != NULL;
}

void fsc_canvas_free(fsc_canvas *cv)
{
    if (!cv)
        return;
    free(cv->tip);
    if (!cv->toy) {
        pango_font_description_free(cv->fd);
        g_object_unref(cv->lay);
    }
    if (cv->svg) {
        for (; cv->depth > 0; cv->depth--)
            fsc_buf_puts(cv->svg, "</g>\n");
        fsc_buf_puts(cv->svg, "</svg>\n");
        cairo_destroy(cv->cr);
        cairo_surface_destroy(cv->scratch);
    }
    free(cv);
}

/* ---- XML ---- */

void fsc_xml_escape(fsc_buf *out, const char *s)
{
    size_t n = s ? strlen(s) : 0;
    for (size_t i = 0; i < n;) {
        unsigned char c = (unsigned char)s[i];
        size_t len = fsc_utf8_len(s + i, n - i);
        if (len == 0) {
            fsc_buf_puts(out, "\xef\xbf\xbd"); /* U+FFFD */
            i++;
            continue;
        }
        if (len == 3 && c == 0xEF && (unsigned char)s[i + 1] == 0xBF &&
            ((unsigned char)s[i + 2] == 0xBE || (unsigned char)s[i + 2] == 0xBF)) {
            fsc_buf_putc(out, ' '); /* U+FFFE, U+FFFF are not XML characters */
            i += 3;
            continue;
        }
        switch (c) {
        case '&': fsc_buf_puts(out, "&amp;"); break;
        case '<': fsc_buf_puts(out, "&lt;"); break;
        case '>': fsc_buf_puts(out, "&gt;"); break;
        case '"': fsc_buf_puts(out, "&quot;"); break;
        case '\'': fsc_buf_puts(out, "&#39;"); break;
        default:
            if (c < 0x20 && c != '\t' && c != '\n')
                fsc_buf_putc(out, ' ');
            else
                fsc_buf_add(out, s + i, len);
        }
        i += len;
    }
}

/* ---- SVG element helpers ---- */

static void svg_open(fsc_canvas *cv, const char *tag)
{
    fsc_buf_printf(cv->svg, "<%s", tag);
}

/* Close a shape: with its tooltip as a <title> child when one was set. */
static void svg_close(fsc_canvas *cv, const char *tag)
{
    if (cv->tip) {
        fsc_buf_puts(cv->svg, "><title>");
        fsc_xml_escape(cv->svg, cv->tip);
        fsc_buf_printf(cv->svg, "</title></%s>\n", tag);
        free(cv->tip);
        cv->tip = NULL;
    } else
        fsc_buf_puts(cv->svg, "/>\n");
}

static void svg_attr_num(fsc_canvas *cv, const char *name, double v)
{
    fsc_buf_printf(cv->svg, " %s=\"", name);
    svg_num(cv->svg, v);
    fsc_buf_putc(cv->svg, '"');
}

static void svg_attr_color(fsc_canvas *cv, const char *name, fsc_rgb c)
{
    fsc_buf_printf(cv->svg, " %s=\"", name);
    svg_color(cv->svg, c);
    fsc_buf_putc(cv->svg, '"');
}

static void svg_rect_open(fsc_canvas *cv, double x, double y, double w, double h)
{
    svg_open(cv, "rect");
    svg_attr_num(cv, "x", x);
    svg_attr_num(cv, "y", y);
    svg_attr_num(cv, "width", w);
    svg_attr_num(cv, "height", h);
}

static void svg_stroke(fsc_canvas *cv, fsc_rgb c, double lw, double dash)
{
    svg_attr_color(cv, "stroke", c);
    svg_attr_num(cv, "stroke-width", lw);
    if (dash > 0) {
        fsc_buf_puts(cv->svg, " stroke-dasharray=\"");
        svg_num(cv->svg, dash);
        fsc_buf_putc(cv->svg, ' ');
        svg_num(cv->svg, dash * 0.6);
        fsc_buf_putc(cv->svg, '"');
    }
}

void fsc_cv_tip(fsc_canvas *cv, const char *text)
{
    if (!cv->svg)
        return;
    free(cv->tip);
    cv->tip = text ? fsc_strdup(text) : NULL;
}

void fsc_cv_group(fsc_canvas *cv, const char *cls, const char *name)
{
    if (!cv->svg)
        return;
    fsc_buf_puts(cv->svg, "<g class=\"");
    fsc_xml_escape(cv->svg, cls);
    fsc_buf_putc(cv->svg, '"');
    if (name) {
        fsc_buf_puts(cv->svg, " data-name=\"");
        fsc_xml_escape(cv->svg, name);
        fsc_buf_putc(cv->svg, '"');
    }
    fsc_buf_puts(cv->svg, ">\n");
    cv->depth++;
}

void fsc_cv_group_end(fsc_canvas *cv)
{
    if (!cv->svg || cv->depth == 0)
        return;
    fsc_buf_puts(cv->svg, "</g>\n");
    cv->depth--;
}

/* ---- shapes ---- */

static void set_rgb(cairo_t *cr, fsc_rgb c, double alpha)
{
    if (alpha < 1)
        cairo_set_source_rgba(cr, c.r, c.g, c.b, alpha);
    else
        cairo_set_source_rgb(cr, c.r, c.g, c.b);
}

static void set_dash(cairo_t *cr, double dash)
{
    double d[2] = {dash, dash * 0.6};
    cairo_set_dash(cr, d, dash > 0 ? 2 : 0, 0);
}

void fsc_cv_rect(fsc_canvas *cv, double x, double y, double w, double h, fsc_rgb fill, double alpha)
{
    if (w <= 0 || h <= 0)
        return;
    if (!cv->svg) {
        set_rgb(cv->cr, fill, alpha);
        cairo_rectangle(cv->cr, x, y, w, h);
        cairo_fill(cv->cr);
        return;
    }
    svg_rect_open(cv, x, y, w, h);
    svg_attr_color(cv, "fill", fill);
    if (alpha < 1)
        svg_attr_num(cv, "fill-opacity", alpha);
    svg_close(cv, "rect");
}

void fsc_cv_rect_outline(fsc_canvas *cv, double x, double y, double w, double h, fsc_rgb c, double lw)
{
    if (!cv->svg) {
        set_rgb(cv->cr, c, 1);
        cairo_set_line_width(cv->cr, lw);
        set_dash(cv->cr, 0);
        cairo_rectangle(cv->cr, x, y, w, h);
        cairo_stroke(cv->cr);
        return;
    }
    svg_rect_open(cv, x, y, w, h);
    fsc_buf_puts(cv->svg, " fill=\"none\"");
    svg_stroke(cv, c, lw, 0);
    svg_close(cv, "rect");
}

void fsc_cv_line(fsc_canvas *cv, double x0, double y0, double x1, double y1, fsc_rgb c, double lw,
                 double dash)
{
    double xy[4] = {x0, y0, x1, y1};
    fsc_cv_path(cv, xy, 2, c, lw, dash);
}

void fsc_cv_path(fsc_canvas *cv, const double *xy, size_t n, fsc_rgb c, double lw, double dash)
{
    if (n < 2)
        return;
    if (!cv->svg) {
        set_rgb(cv->cr, c, 1);
        cairo_set_line_width(cv->cr, lw);
        cairo_set_line_join(cv->cr, CAIRO_LINE_JOIN_ROUND);
        set_dash(cv->cr, dash);
        cairo_move_to(cv->cr, xy[0], xy[1]);
        for (size_t i = 1; i < n; i++)
            cairo_line_to(cv->cr, xy[2 * i], xy[2 * i + 1]);
        cairo_stroke(cv->cr);
        set_dash(cv->cr, 0);
        return;
    }
    if (n == 2) {
        svg_open(cv, "line");
        svg_attr_num(cv, "x1", xy[0]);
        svg_attr_num(cv, "y1", xy[1]);
        svg_attr_num(cv, "x2", xy[2]);
        svg_attr_num(cv, "y2", xy[3]);
        svg_stroke(cv, c, lw, dash);
        svg_close(cv, "line");
        return;
    }
    svg_open(cv, "polyline");
    fsc_buf_puts(cv->svg, " points=\"");
    for (size_t i = 0; i < n; i++) {
        if (i)
            fsc_buf_putc(cv->svg, ' ');
        svg_num(cv->svg, xy[2 * i]);
        fsc_buf_putc(cv->svg, ',');
        svg_num(cv->svg, xy[2 * i + 1]);
    }
    fsc_buf_puts(cv->svg, "\" fill=\"none\" stroke-linejoin=\"round\"");
    svg_stroke(cv, c, lw, dash);
    svg_close(cv, "polyline");
}

void fsc_cv_circle(fsc_canvas *cv, double x, double y, double r, fsc_rgb fill, double ring_lw,
                   fsc_rgb ring)
{
    if (!cv->svg) {
        cairo_new_path(cv->cr);
        cairo_arc(cv->cr, x, y, r, 0, 2 * PI);
        set_rgb(cv->cr, fill, 1);
        if (ring_lw > 0) {
            cairo_fill_preserve(cv->cr);
            set_rgb(cv->cr, ring, 1);
            cairo_set_line_width(cv->cr, ring_lw);
            set_dash(cv->cr, 0);
            cairo_stroke(cv->cr);
        } else
            cairo_fill(cv->cr);
        return;
    }
    svg_open(cv, "circle");
    svg_attr_num(cv, "cx", x);
    svg_attr_num(cv, "cy", y);
    svg_attr_num(cv, "r", r);
    svg_attr_color(cv, "fill", fill);
    if (ring_lw > 0)
        svg_stroke(cv, ring, ring_lw, 0);
    svg_close(cv, "circle");
}

void fsc_cv_clip(fsc_canvas *cv, double x, double y, double w, double h)
{
    if (!cv->svg) {
        cairo_save(cv->cr);
        cairo_rectangle(cv->cr, x, y, w, h);
        cairo_clip(cv->cr);
        return;
    }
    unsigned id = ++cv->clips;
    fsc_buf_printf(cv->svg, "<clipPath id=\"clip%u\">", id);
    svg_rect_open(cv, x, y, w, h);
    fsc_buf_printf(cv->svg, "/></clipPath>\n<g clip-path=\"url(#clip%u)\">\n", id);
    cv->depth++;
}

void fsc_cv_unclip(fsc_canvas *cv)
{
    if (!cv->svg)
        cairo_restore(cv->cr);
    else
        fsc_cv_group_end(cv);
}

/* ---- text ---- */

static void layout(fsc_canvas *cv, const char *s, double px, bool bold)
{
    pango_font_description_set_absolute_size(cv->fd, px * PANGO_SCALE);
    pango_font_description_set_weight(cv->fd, bold ? PANGO_WEIGHT_BOLD : PANGO_WEIGHT_NORMAL);
    pango_layout_set_font_description(cv->lay, cv->fd);
    pango_layout_set_width(cv->lay, -1);
    pango_layout_set_height(cv->lay, -1);
    pango_layout_set_ellipsize(cv->lay, PANGO_ELLIPSIZE_NONE);
    pango_layout_set_single_paragraph_mode(cv->lay, TRUE);
    pango_layout_set_text(cv->lay, s ? s : "", -1);
}

static void toy_font(fsc_canvas *cv, double px, bool bold, cairo_font_extents_t *fe)
{
    cairo_select_font_face(cv->cr, TOY_FAMILY, CAIRO_FONT_SLANT_NORMAL,
                           bold ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL);
    cairo_set_font_size(cv->cr, px);
    if (fe)
        cairo_font_extents(cv->cr, fe);
}

static double toy_width(fsc_canvas *cv, const char *s, double px, bool bold)
{
    cairo_text_extents_t te;
    toy_font(cv, px, bold, NULL);
    cairo_text_extents(cv->cr, s ? s : "", &te);
    return te.x_advance;
}

double fsc_cv_text_width(fsc_canvas *cv, const char *s, double px, bool bold)
{
    if (cv->toy)
        return toy_width(cv, s, px, bold);
    PangoRectangle ink, logical;
    layout(cv, s, px, bold);
    pango_layout_get_pixel_extents(cv->lay, &ink, &logical);
    return logical.width;
}

double fsc_cv_line_height(fsc_canvas *cv, double px)
{
    if (cv->toy) {
        cairo_font_extents_t fe;
        toy_font(cv, px, false, &fe);
        return fe.height;
    }
    PangoRectangle ink, logical;
    layout(cv, "Ag", px, false);
    pango_layout_get_pixel_extents(cv->lay, &ink, &logical);
    return logical.height;
}

void fsc_cv_text(fsc_canvas *cv, const char *s, double x, double y, fsc_align al, double px,
                 bool bold, double angle, fsc_rgb c, const char *cls)
{
    if (!s || !*s)
        return;
    PangoRectangle ink, logical;
    cairo_font_extents_t fe = {0};
    double w;
    if (cv->toy) {
        w = toy_width(cv, s, px, bold);
        toy_font(cv, px, bold, &fe);
    } else {
        layout(cv, s, px, bold);
        pango_layout_get_pixel_extents(cv->lay, &ink, &logical);
        w = logical.width;
    }
    double shift = al == FSC_AL_CENTER ? w / 2 : al == FSC_AL_RIGHT ? w : 0;
    if (!cv->svg) {
        cairo_save(cv->cr);
        set_rgb(cv->cr, c, 1);
        cairo_translate(cv->cr, x, y);
        if (angle != 0)
            cairo_rotate(cv->cr, -angle * PI / 180);
        if (cv->toy) { /* the toy API draws from the baseline, pango from the top edge */
            cairo_move_to(cv->cr, -shift, fe.ascent);
            cairo_show_text(cv->cr, s);
        } else {
            cairo_move_to(cv->cr, -shift, 0);
            pango_cairo_show_layout(cv->cr, cv->lay);
        }
        cairo_restore(cv->cr);
        return;
    }
    double base = fe.ascent;
    if (!cv->toy) {
        /* Shown on the 1x1 scratch surface too (clipped away at once): a layout only
         * ever measured left a font referenced in Pango's caches, and cairo and
         * fontconfig then abort in fsc_chart_shutdown ("Four" as a title was enough). */
        cairo_move_to(cv->cr, 0, 0);
        pango_cairo_show_layout(cv->cr, cv->lay);
        base = pango_layout_get_baseline(cv->lay) / (double)PANGO_SCALE;
    }
    static const char *const anchors[] = {"start", "middle", "end"};
    fsc_buf_puts(cv->svg, "<text");
    if (cls)
        fsc_buf_printf(cv->svg, " class=\"%s\"", cls);
    svg_attr_num(cv, "x", x);
    svg_attr_num(cv, "y", y + base);
    svg_attr_num(cv, "font-size", px);
    if (bold)
        fsc_buf_puts(cv->svg, " font-weight=\"bold\"");
    if (al != FSC_AL_LEFT)
        fsc_buf_printf(cv->svg, " text-anchor=\"%s\"", anchors[al]);
    svg_attr_color(cv, "fill", c);
    if (angle != 0) {
        fsc_buf_puts(cv->svg, " transform=\"rotate(");
        svg_num(cv->svg, -angle);
        fsc_buf_putc(cv->svg, ' ');
        svg_num(cv->svg, x);
        fsc_buf_putc(cv->svg, ' ');
        svg_num(cv->svg, y);
        fsc_buf_puts(cv->svg, ")\"");
    }
    fsc_buf_puts(cv->svg, ">");
    fsc_xml_escape(cv->svg, s);
    fsc_buf_puts(cv->svg, "</text>\n");
}

/* Byte offsets of the code points of s (n of them, plus the end). */
static size_t *code_points(const char *s, size_t *n)
{
    size_t len = strlen(s), count = 0;
    size_t *at = malloc((len + 1) * sizeof *at);
    if (!at)
        return NULL;
    for (size_t i = 0; i < len;) {
        at[count++] = i;
        size_t l = fsc_utf8_len(s + i, len - i);
        i += l ? l : 1;
    }
    at[count] = len;
    *n = count;
    return at;
}

/* head code points, "…", then tail code points of s (spaces at the cut dropped). */
static char *cut_text(const char *s, const size_t *at, size_t n, size_t keep)
{
    size_t head = keep / 3, tail = keep - head;
    size_t h_end = at[head], t_start = at[n - tail];
    while (h_end > 0 && s[h_end - 1] == ' ')
        h_end--;
    while (s[t_start] == ' ')
        t_start++;
    fsc_buf b = {0};
    fsc_buf_add(&b, s, h_end);
    fsc_buf_puts(&b, "…");
    fsc_buf_puts(&b, s + t_start);
    if (b.oom) {
        fsc_buf_free(&b);
        return NULL;
    }
    return b.data;
}

char *fsc_cv_fit_middle(fsc_canvas *cv, const char *s, double px, bool bold, double max_w)
{
    s = s ? s : "";
    if (fsc_cv_text_width(cv, s, px, bold) <= max_w)
        return fsc_strdup(s);
    size_t n = 0, *at = code_points(s, &n);
    if (!at)
        return NULL;
    /* the longest cut that fits: keep code points in [lo, hi) */
    size_t lo = 0, hi = n;
    while (hi - lo > 1) {
        size_t mid = (lo + hi) / 2;
        char *t = cut_text(s, at, n, mid);
        if (!t) {
            free(at);
            return NULL;
        }
        if (fsc_cv_text_width(cv, t, px, bold) <= max_w)
            lo = mid;
        else
            hi = mid;
        free(t);
    }
    char *t = cut_text(s, at, n, lo);
    free(at);
    return t;
}

void fsc_cv_free_lines(char **lines, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(lines[i]);
    free(lines);
}

/* The lines of fsc_cv_wrap with toy text: as many words as fit on each line (a word
 * wider than the line alone on it), the rest on the last; out has max_lines slots. */
static size_t toy_wrap(fsc_canvas *cv, const char *s, double px, bool bold, double max_w, size_t max_lines,
                       char **out)
{
    size_t n = 0;
    while (*s == ' ')
        s++;
    while (*s && n + 1 < max_lines) {
        const char *end = NULL;
        for (const char *q = s;;) {
            const char *sp = strchr(q, ' '), *cand = sp ? sp : s + strlen(s);
            char *t = fsc_strndup(s, (size_t)(cand - s));
            double w = t ? fsc_cv_text_width(cv, t, px, bold) : 0;
            free(t);
            if (end && w > max_w)
                break;
            end = cand;
            if (!sp || w > max_w)
                break;
            q = sp + 1;
        }
        if (!*end)
            break; /* the rest fits: it is the last line */
        if (!(out[n++] = fsc_strndup(s, (size_t)(end - s))))
            return 0;
        for (s = end; *s == ' ';)
            s++;
    }
    if ((*s || !n) && !(out[n++] = fsc_strdup(s)))
        return 0;
    return n;
}

size_t fsc_cv_wrap(fsc_canvas *cv, const char *s, double px, bool bold, double max_w, int max_lines,
                   char ***lines)
{
    s = s ? s : "";
    *lines = NULL;
    char **out;
    size_t want, n_out; /* lines, and slots of out */
    if (cv->toy) {
        n_out = max_lines > 0 ? (size_t)max_lines : 1;
        out = calloc(n_out, sizeof *out);
        want = out ? toy_wrap(cv, s, px, bold, max_w, n_out, out) : 0;
        if (!want) {
            fsc_cv_free_lines(out, out ? n_out : 0);
            return 0;
        }
    } else {
        layout(cv, s, px, bold);
        pango_layout_set_width(cv->lay, (int)(fmax(1, max_w) * PANGO_SCALE));
        pango_layout_set_wrap(cv->lay, PANGO_WRAP_WORD_CHAR);
        int count = pango_layout_get_line_count(cv->lay);
        want = (size_t)(count < max_lines ? count : max_lines);
        if (want == 0)
            want = 1;
        n_out = want;
        out = calloc(want, sizeof *out);
        if (!out)
            return 0;
        size_t len = strlen(s);
        for (size_t i = 0; i < want; i++) {
            PangoLayoutLine *line = pango_layout_get_line_readonly(cv->lay, (int)i);
            size_t start = line ? (size_t)line->start_index : 0;
            size_t end = line ? start + (size_t)line->length : len;
            if (i + 1 == want)
                end = len; /* the rest goes on the last line, cut to fit */
            while (end > start && s[end - 1] == ' ')
                end--;
            out[i] = fsc_strndup(s + start, end - start);
            if (!out[i]) {
                fsc_cv_free_lines(out, i);
                return 0;
            }
        }
    }
    /* the layout is reused by the measuring below: take what it said first */
    char *last = fsc_cv_fit_middle(cv, out[want - 1], px, bold, max_w);
    if (!last) {
        fsc_cv_free_lines(out, n_out);
        return 0;
    }
    free(out[want - 1]);
    out[want - 1] = last;
    *lines = out;
    return want;
}
