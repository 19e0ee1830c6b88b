/* SPDX-License-Identifier: MIT */
/*
 * A chart as a file: PNG (cairo image surface, with the title and provenance as iTXt
 * chunks), PDF (cairo PDF surface, text stays text) or SVG (written element by element
 * by the canvas, text as <text>). The drawing itself is chart_draw.c.
 */
#include "fioscope/chart.h"

#include "cairo_api.h"
#include "canvas.h"

#include <string.h>

/* PDF points per pixel: 1600 px wide charts are 1200 pt (16.7 in) pages. */
#define PDF_SCALE 0.75
/* A fixed date so that the same chart gives the same PDF bytes. */
#define FIXED_DATE "2020-01-01T00:00:00Z"

static cairo_status_t sink(void *closure, const unsigned char *data, unsigned int len)
{
    fsc_buf *b = closure;
    fsc_buf_add(b, data, len);
    return b->oom ? CAIRO_STATUS_NO_MEMORY : CAIRO_STATUS_SUCCESS;
}

static uint32_t crc32_of(const unsigned char *p, size_t n)
{
    uint32_t c = 0xFFFFFFFFu;
    for (size_t i = 0; i < n; i++) {
        c ^= p[i];
        for (int k = 0; k < 8; k++)
            c = (c >> 1) ^ (0xEDB88320u & (0u - (c & 1u)));
    }
    return c ^ 0xFFFFFFFFu;
}

static void put_be32(fsc_buf *b, uint32_t v)
{
    unsigned char q[4] = {(unsigned char)(v >> 24), (unsigned char)(v >> 16), (unsigned char)(v >> 8),
                          (unsigned char)v};
    fsc_buf_add(b, q, 4);
}

/* An uncompressed international text chunk: keyword, flags, empty language tags, UTF-8. */
static void itxt_chunk(fsc_buf *b, const char *key, const char *text)
{
    fsc_buf body = {0};
    fsc_buf_puts(&body, "iTXt");
    fsc_buf_add(&body, key, strlen(key) + 1);
    fsc_buf_add(&body, "\0\0\0\0", 4); /* compression flag, method, language, translated key */
    fsc_buf_puts(&body, text);
    if (!body.oom) {
        put_be32(b, (uint32_t)(body.len - 4));
        fsc_buf_add(b, body.data, body.len);
        put_be32(b, crc32_of((const unsigned char *)body.data, body.len));
    }
    fsc_buf_free(&body);
}

/* The PNG with text chunks after IHDR (signature 8 bytes + IHDR 25). */
static void png_with_text(const fsc_chart *c, const fsc_buf *png, fsc_buf *out)
{
    const size_t after_ihdr = 33;
    if (png->len < after_ihdr) {
        fsc_buf_add(out, png->data, png->len);
        return;
    }
    fsc_buf_add(out, png->data, after_ihdr);
    itxt_chunk(out, "Title", c->title);
    itxt_chunk(out, "Software", "fioscope " FSC_VERSION);
    if (c->footnote && *c->footnote)
        itxt_chunk(out, "Source", c->footnote);
    fsc_buf_add(out, png->data + after_ihdr, png->len - after_ihdr);
}

static fsc_status draw_on(cairo_surface_t *surf, const fsc_chart *c, int width, int height, double scale)
{
    cairo_t *cr = cairo_create(surf);
    if (scale != 1)
        cairo_scale(cr, scale, scale);
    fsc_canvas *cv = fsc_canvas_cairo(cr);
    if (cv)
        fsc_chart_draw(cv, c, width, height);
    fsc_canvas_free(cv);
    cairo_status_t st = cairo_status(cr);
    cairo_destroy(cr);
    if (!cv)
        return FSC_E_NOMEM;
    return st == CAIRO_STATUS_SUCCESS ? FSC_OK : st == CAIRO_STATUS_NO_MEMORY ? FSC_E_NOMEM : FSC_E_IO;
}

static fsc_status render_png(const fsc_chart *c, int width, int height, fsc_buf *out, fsc_buf *err)
{
    cairo_surface_t *surf = cairo_image_surface_create(CAIRO_FORMAT_RGB24, width, height);
    fsc_status st = draw_on(surf, c, width, height, 1);
    fsc_buf png = {0};
    cairo_status_t cst = cairo_surface_status(surf);
    if (st == FSC_OK && cst == CAIRO_STATUS_SUCCESS)
        cst = cairo_surface_write_to_png_stream(surf, sink, &png);
    cairo_surface_destroy(surf);
    if (st == FSC_OK && cst != CAIRO_STATUS_SUCCESS)
        st = cst == CAIRO_STATUS_NO_MEMORY ? FSC_E_NOMEM : FSC_E_IO;
    if (st == FSC_OK)
        png_with_text(c, &png, out);
    else
        fsc_buf_printf(err, "cannot draw chart: %s", cairo_status_to_string(cst));
    fsc_buf_free(&png);
    return st == FSC_OK && out->oom ? FSC_E_NOMEM : st;
}

static fsc_status render_pdf(const fsc_chart *c, int width, int height, fsc_buf *out, fsc_buf *err)
{
    cairo_surface_t *surf =
        cairo_pdf_surface_create_for_stream(sink, out, width * PDF_SCALE, height * PDF_SCALE);
    cairo_pdf_surface_set_metadata(surf, CAIRO_PDF_METADATA_TITLE, c->title);
    cairo_pdf_surface_set_metadata(surf, CAIRO_PDF_METADATA_CREATOR, "fioscope " FSC_VERSION);
    if (c->footnote)
        cairo_pdf_surface_set_metadata(surf, CAIRO_PDF_METADATA_SUBJECT, c->footnote);
    cairo_pdf_surface_set_metadata(surf, CAIRO_PDF_METADATA_CREATE_DATE, FIXED_DATE);
    fsc_status st = draw_on(surf, c, width, height, PDF_SCALE);
    cairo_surface_finish(surf);
    cairo_status_t cst = cairo_surface_status(surf);
    cairo_surface_destroy(surf);
    if (st == FSC_OK && cst != CAIRO_STATUS_SUCCESS)
        st = cst == CAIRO_STATUS_NO_MEMORY ? FSC_E_NOMEM : FSC_E_IO;
    if (st != FSC_OK)
        fsc_buf_printf(err, "cannot draw chart: %s", cairo_status_to_string(cst));
    return st;
}

static fsc_status render_svg(const fsc_chart *c, int width, int height, fsc_buf *out)
{
    fsc_canvas *cv = fsc_canvas_svg(out, width, height, c->title, c->footnote);
    if (!cv)
        return FSC_E_NOMEM;
    fsc_chart_draw(cv, c, width, height);
    fsc_canvas_free(cv);
    return out->oom ? FSC_E_NOMEM : FSC_OK;
}

fsc_status fsc_chart_render(const fsc_chart *c, fsc_chart_format f, int width, int height,
                            fsc_buf *out, fsc_buf *err)
{
    if (width < 200 || height < 200 || width > 8000 || height > 8000) {
        fsc_buf_printf(err, "chart size %dx%d out of range (200..8000 pixels)", width, height);
        return FSC_E_USAGE;
    }
    const char *why;
    if (!fsc_cairo_api_open(&why)) {
        fsc_buf_puts(err, why);
        return FSC_E_UNSUPPORTED;
    }
    (void)fsc_pango_api_open(NULL); /* without it, cairo's simple text (canvas.c) */
    switch (f) {
    case FSC_CHART_PNG: return render_png(c, width, height, out, err);
    case FSC_CHART_PDF: return render_pdf(c, width, height, out, err);
    case FSC_CHART_SVG: return render_svg(c, width, height, out);
    }
    fsc_buf_puts(err, "unknown chart format");
    return FSC_E_USAGE;
}

bool fsc_chart_available(const char **why)
{
    return fsc_cairo_api_open(why);
}

bool fsc_chart_plain_text(const char **why)
{
    return fsc_cairo_api_is_open() && !fsc_pango_api_open(why);
}

fsc_status fsc_chart_png(const fsc_chart *c, int width, int height, fsc_buf *png, fsc_buf *err)
{
    return fsc_chart_render(c, FSC_CHART_PNG, width, height, png, err);
}

/* Pango's font map goes; cairo_debug_reset_static_data() and FcFini() are not called:
 * both abort (assertions in the Debian builds) when any font is still cached, which
 * happened now and then under parallel test runs. fontconfig's configuration stays
 * for the process' life (tests/lsan.supp). */
void fsc_chart_shutdown(void)
{
    if (fsc_pango_api_is_open()) /* nothing to let go of when no chart was laid out */
        pango_cairo_font_map_set_default(NULL);
}
