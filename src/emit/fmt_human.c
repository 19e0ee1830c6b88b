/* SPDX-License-Identifier: MIT */
/*
 * Human units for table cells ("254 MiB/s", "3.83 ms", "65.1k") and the terminal
 * width of UTF-8 text, so CJK labels line up in aligned columns.
 */
#include "fioscope/table.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* Three significant digits of v (0 <= v < 999.5 after scaling). */
static void put_sig3(fsc_buf *b, double v)
{
    if (v < 9.995)
        fsc_buf_printf(b, "%.2f", v);
    else if (v < 99.95)
        fsc_buf_printf(b, "%.1f", v);
    else
        fsc_buf_printf(b, "%.0f", v);
}

/* v scaled down by `step` until it prints in at most three digits; suffixes[0] is the
 * unscaled one. Whole numbers below the first step print exactly ("512 B", "8"). */
static void put_scaled(fsc_buf *b, double v, double step, const char *const *suffixes,
                       size_t n_suffixes)
{
    const char *sign = v < 0 ? "-" : "";
    double a = fabs(v);
    size_t k = 0;
    if (a < 999.5) {
        fsc_buf_puts(b, sign);
        if (a == floor(a))
            fsc_buf_printf(b, "%.0f", a);
        else
            put_sig3(b, a);
        fsc_buf_puts(b, suffixes[0]);
        return;
    }
    /* 1023.7 KiB would print as "1024 KiB": move up once the rounded value reaches 999.5 */
    while (k + 1 < n_suffixes && a >= 999.5) {
        a /= step;
        k++;
    }
    fsc_buf_puts(b, sign);
    put_sig3(b, a);
    fsc_buf_puts(b, suffixes[k]);
}

static void put_duration_ns(fsc_buf *b, double ns)
{
    static const char *const sfx[] = {" ns", " µs", " ms", " s"};
    if (fabs(ns) >= 999.5e9) { /* beyond seconds: keep seconds, no "ks" */
        fsc_buf_printf(b, "%.0f s", ns / 1e9);
        return;
    }
    put_scaled(b, ns, 1000.0, sfx, FSC_ARRAY_SIZE(sfx));
}

void fsc_format_human(fsc_buf *b, double v, fsc_unit unit)
{
    static const char *const bytes[] = {" B", " KiB", " MiB", " GiB", " TiB", " PiB", " EiB"};
    static const char *const rates[] = {" B/s",   " KiB/s", " MiB/s", " GiB/s",
                                        " TiB/s", " PiB/s", " EiB/s"};
    static const char *const counts[] = {"", "k", "M", "G", "T"};
    if (!isfinite(v)) {
        fsc_buf_puts(b, "?");
        return;
    }
    switch (unit) {
    case FSC_UNIT_BYTES:
        put_scaled(b, v, 1024.0, bytes, FSC_ARRAY_SIZE(bytes));
        break;
    case FSC_UNIT_KIB_PER_S:
        put_scaled(b, v * 1024.0, 1024.0, rates, FSC_ARRAY_SIZE(rates));
        break;
    case FSC_UNIT_BYTES_PER_S:
        put_scaled(b, v, 1024.0, rates, FSC_ARRAY_SIZE(rates));
        break;
    case FSC_UNIT_NS:
        put_duration_ns(b, v);
        break;
    case FSC_UNIT_MS:
        put_duration_ns(b, v * 1e6);
        break;
    case FSC_UNIT_PCT:
        fsc_buf_printf(b, "%.1f%%", v);
        break;
    case FSC_UNIT_IOPS:
    case FSC_UNIT_COUNT:
        put_scaled(b, v, 1000.0, counts, FSC_ARRAY_SIZE(counts));
        break;
    case FSC_UNIT_NONE:
    default:
        fsc_buf_num(b, v);
        break;
    }
}

/* Is code point cp drawn two columns wide (East Asian Wide/Fullwidth, emoji)? */
static bool is_wide(uint32_t cp)
{
    static const uint32_t ranges[][2] = {
        {0x1100, 0x115F},   {0x231A, 0x231B},   {0x2329, 0x232A},   {0x23E9, 0x23EC},
        {0x2E80, 0x303E},   {0x3041, 0x33FF},   {0x3400, 0x4DBF},   {0x4E00, 0x9FFF},
        {0xA000, 0xA4CF},   {0xA960, 0xA97F},   {0xAC00, 0xD7A3},   {0xF900, 0xFAFF},
        {0xFE10, 0xFE19},   {0xFE30, 0xFE6F},   {0xFF00, 0xFF60},   {0xFFE0, 0xFFE6},
        {0x1F300, 0x1F64F}, {0x1F900, 0x1F9FF}, {0x20000, 0x2FFFD}, {0x30000, 0x3FFFD},
    };
    for (size_t i = 0; i < FSC_ARRAY_SIZE(ranges); i++)
        if (cp >= ranges[i][0] && cp <= ranges[i][1])
            return true;
    return false;
}

/* Combining marks and zero-width characters take no column. */
static bool is_zero_width(uint32_t cp)
{
    return (cp >= 0x0300 && cp <= 0x036F) || (cp >= 0x200B && cp <= 0x200F) ||
           (cp >= 0xFE00 && cp <= 0xFE0F) || (cp >= 0x20D0 && cp <= 0x20FF);
}

/* Decode one UTF-8 sequence; returns its length (1 for an invalid byte, *cp = 0xFFFD). */
static size_t utf8_decode(const unsigned char *s, size_t n, uint32_t *cp)
{
    unsigned char c = s[0];
    size_t len;
    uint32_t v;
    if (c < 0x80) {
        *cp = c;
        return 1;
    }
    if (c >= 0xC2 && c <= 0xDF) {
        len = 2;
        v = c & 0x1F;
    } else if (c >= 0xE0 && c <= 0xEF) {
        len = 3;
        v = c & 0x0F;
    } else if (c >= 0xF0 && c <= 0xF4) {
        len = 4;
        v = c & 0x07;
    } else {
        *cp = 0xFFFD;
        return 1;
    }
    if (len > n)
        len = 0;
    for (size_t i = 1; i < len; i++) {
        if ((s[i] & 0xC0) != 0x80) {
            len = 0;
            break;
        }
        v = (v << 6) | (s[i] & 0x3F);
    }
    if (!len) {
        *cp = 0xFFFD;
        return 1;
    }
    *cp = v;
    return len;
}

size_t fsc_text_width(const char *s, size_t n)
{
    size_t w = 0;
    const unsigned char *p = (const unsigned char *)s;
    for (size_t i = 0; i < n;) {
        uint32_t cp;
        if (p[i] == 0x1B && i + 1 < n && p[i + 1] == '[') { /* ANSI colour: no width */
            for (i += 2; i < n && !(p[i] >= 0x40 && p[i] <= 0x7E); i++)
                ;
            i++;
            continue;
        }
        i += utf8_decode(p + i, n - i, &cp);
        if (is_zero_width(cp))
            continue;
        w += is_wide(cp) ? 2 : 1;
    }
    return w;
}

/* Display columns of the code point at p[i] (0 for a colour escape or a combining
 * mark); *len receives its bytes. */
static size_t cp_cols(const unsigned char *p, size_t n, size_t *len)
{
    uint32_t cp;
    *len = utf8_decode(p, n, &cp);
    return is_zero_width(cp) ? 0 : is_wide(cp) ? 2 : 1;
}

char *fsc_text_cap(const char *s, size_t max_cols)
{
    size_t n = strlen(s);
    /* a cell with our own colour escapes is never long */
    if (max_cols < 3 || fsc_text_width(s, n) <= max_cols || memchr(s, 0x1b, n))
        return NULL;
    const unsigned char *p = (const unsigned char *)s;
    size_t head_cols = (max_cols - 1) / 2, tail_cols = max_cols - 1 - head_cols;
    size_t head = 0, w = 0, len;
    for (;;) { /* marks that follow a character stay with it */
        size_t cw = head < n ? cp_cols(p + head, n - head, &len) : 0;
        if (head >= n || w + cw > head_cols)
            break;
        w += cw;
        head += len;
    }
    size_t tail = n;
    w = 0;
    while (tail > head) {
        size_t k = tail - 1;
        while (k > head && (p[k] & 0xC0) == 0x80)
            k--;
        size_t cw = cp_cols(p + k, n - k, &len);
        if (w + cw > tail_cols)
            break;
        w += cw;
        tail = k;
    }
    fsc_buf b = {0};
    fsc_buf_add(&b, s, head);
    fsc_buf_puts(&b, "\xe2\x80\xa6"); /* … */
    fsc_buf_add(&b, s + tail, n - tail);
    if (b.oom) {
        fsc_buf_free(&b);
        return NULL;
    }
    return b.data;
}
