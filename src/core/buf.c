/* SPDX-License-Identifier: MIT */
/* Growable buffer, shortest round-trip numbers and a streaming JSON writer. */
#include "fioscope/buf.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

void fsc_buf_free(fsc_buf *b)
{
    free(b->data);
    b->data = NULL;
    b->len = b->cap = 0;
    b->oom = false;
}

void fsc_buf_reset(fsc_buf *b)
{
    b->len = 0;
    if (b->data)
        b->data[0] = '\0';
}

static bool reserve(fsc_buf *b, size_t extra)
{
    if (b->oom)
        return false;
    if (b->len + extra + 1 <= b->cap)
        return true;
    size_t ncap = b->cap ? b->cap : 256;
    while (ncap < b->len + extra + 1) {
        if (ncap > SIZE_MAX / 2) {
            b->oom = true;
            return false;
        }
        ncap *= 2;
    }
    char *p = realloc(b->data, ncap);
    if (!p) {
        b->oom = true;
        return false;
    }
    b->data = p;
    b->cap = ncap;
    return true;
}

char *fsc_buf_room(fsc_buf *b, size_t n)
{
    return reserve(b, n) ? b->data + b->len : NULL;
}

void fsc_buf_add(fsc_buf *b, const void *p, size_t n)
{
    if (!reserve(b, n))
        return;
    if (n)
        memcpy(b->data + b->len, p, n);
    b->len += n;
    b->data[b->len] = '\0';
}

void fsc_buf_puts(fsc_buf *b, const char *s)
{
    fsc_buf_add(b, s, strlen(s));
}

void fsc_buf_putc(fsc_buf *b, char c)
{
    if (!reserve(b, 1))
        return;
    b->data[b->len++] = c;
    b->data[b->len] = '\0';
}

void fsc_buf_printf(fsc_buf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char tmp[256];
    int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    if (n < 0)
        return;
    if ((size_t)n < sizeof tmp) {
        fsc_buf_add(b, tmp, (size_t)n);
        return;
    }
    if (!reserve(b, (size_t)n))
        return;
    va_start(ap, fmt);
    vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    b->len += (size_t)n;
}

bool fsc_buf_write(const fsc_buf *b, FILE *f)
{
    return b->len == 0 || fwrite(b->data, 1, b->len, f) == b->len;
}

static const char digit_pairs[] = "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
                                  "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
                                  "8081828384858687888990919293949596979899";

/* Decimal digits of u ending at end, two a step; returns the first digit. */
static inline char *digits32(char *end, uint32_t u)
{
    while (u >= 100) {
        uint32_t q = u / 100;
        end -= 2;
        memcpy(end, digit_pairs + 2 * (u - q * 100), 2);
        u = q;
    }
    if (u >= 10) {
        end -= 2;
        memcpy(end, digit_pairs + 2 * u, 2);
    } else {
        *--end = (char)('0' + u);
    }
    return end;
}

/* Exactly 8 digits (zero-padded) of u < 10^8 ending at end. */
static inline char *digits8(char *end, uint32_t u)
{
    for (int i = 0; i < 4; i++) {
        uint32_t q = u / 100;
        end -= 2;
        memcpy(end, digit_pairs + 2 * (u - q * 100), 2);
        u = q;
    }
    return end;
}

/* Decimal digits of u ending at end; returns the first digit. */
static inline char *digits64(char *end, uint64_t u)
{
    while (u >= 100000000) {
        uint64_t q = u / 100000000;
        end = digits8(end, (uint32_t)(u - q * 100000000));
        u = q;
    }
    return digits32(end, (uint32_t)u);
}

/* Decimal digits of u, right-aligned to end, at least min_digits (zero-padded);
 * returns the first digit. printf's "%0*llu" without its cost. */
static char *put_digits(char *end, unsigned long long u, int min_digits)
{
    char *p = digits64(end, u);
    while (end - p < min_digits)
        *--p = '0';
    return p;
}

/* Number of decimal digits of u (at least 1). */
static inline size_t n_digits(uint64_t u)
{
    size_t n = 1;
    while (u >= 10000) {
        u /= 10000;
        n += 4;
    }
    return n + (u >= 10) + (u >= 100) + (u >= 1000);
}

size_t fsc_u64_fmt(char *dst, uint64_t u)
{
    size_t n = n_digits(u);
    digits64(dst + n, u);
    return n;
}

/* The text of fsc_buf_num, written to dst (at least FSC_NUM_MAX bytes); returns its
 * length. */
size_t fsc_num_fmt(char *dst, double v)
{
    double av = fabs(v);
    if (av < 9007199254740992.0 && v == (double)(long long)v) { /* integers: digits in place */
        size_t neg = v < 0;
        dst[0] = '-';
        return neg + fsc_u64_fmt(dst + neg, (uint64_t)av);
    }
    if (!isfinite(v)) {
        memcpy(dst, "null", 4);
        return 4;
    }
    /* Most values came from text with a few decimals: find the fewest decimals d with
     * round(v*10^d)/10^d == v. Both are exact integers below 2^53, so the division is
     * correctly rounded and the printed decimal reads back as v. */
    static const double p10[] = {1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9};
    static const uint64_t u10[] = {1ULL, 10ULL, 100ULL, 1000ULL, 10000ULL, 100000ULL, 1000000ULL,
                                   10000000ULL, 100000000ULL, 1000000000ULL};
    const double two52 = 4503599627370496.0;
    for (int d = 1; d <= 9; d++) {
        double y = av * p10[d];
        /* nearbyint(y) (round half to even, the default mode): below 2^52 the sum
         * rounds y to an integer, above it y is one */
        double x = y < two52 ? (y + two52) - two52 : y;
        if (x >= 9007199254740992.0)
            break;
        if (x / p10[d] == av) {
            uint64_t ix = (uint64_t)x, ip = ix / u10[d], fp = ix % u10[d];
            char tmp[FSC_NUM_MAX], *e = tmp + sizeof tmp, *p = e;
            p = put_digits(e, fp, d); /* "%s%llu.%0*llu" */
            *--p = '.';
            p = digits64(p, ip);
            if (v < 0)
                *--p = '-';
            memcpy(dst, p, (size_t)(e - p));
            return (size_t)(e - p);
        }
    }
    char tmp[FSC_NUM_MAX];
    int n = snprintf(tmp, sizeof tmp, "%.15g", v);
    if (strtod(tmp, NULL) != v)
        n = snprintf(tmp, sizeof tmp, "%.17g", v);
    memcpy(dst, tmp, (size_t)n);
    return (size_t)n;
}

void fsc_buf_num(fsc_buf *b, double v)
{
    char tmp[FSC_NUM_MAX];
    fsc_buf_add(b, tmp, fsc_num_fmt(tmp, v));
}

void fsc_buf_u64(fsc_buf *b, uint64_t u)
{
    char tmp[24];
    fsc_buf_add(b, tmp, fsc_u64_fmt(tmp, u));
}

void fsc_buf_fnum(fsc_buf *b, const fsc_num *n)
{
    if (n->exact)
        fsc_buf_u64(b, n->u);
    else
        fsc_buf_num(b, n->v);
}

/* Length of a valid UTF-8 sequence at s (max n bytes), 0 if invalid. */
static size_t utf8_len(const unsigned char *s, size_t n)
{
    unsigned char c = s[0];
    size_t len;
    uint32_t cp;
    if (c < 0x80)
        return 1;
    if (c >= 0xC2 && c <= 0xDF) {
        len = 2;
        cp = c & 0x1F;
    } else if (c >= 0xE0 && c <= 0xEF) {
        len = 3;
        cp = c & 0x0F;
    } else if (c >= 0xF0 && c <= 0xF4) {
        len = 4;
        cp = c & 0x07;
    } else {
        return 0;
    }
    if (n < len)
        return 0;
    for (size_t i = 1; i < len; i++) {
        if ((s[i] & 0xC0) != 0x80)
            return 0;
        cp = (cp << 6) | (s[i] & 0x3F);
    }
    if ((len == 3 && cp < 0x800) || (len == 4 && (cp < 0x10000 || cp > 0x10FFFF)) ||
        (cp >= 0xD800 && cp <= 0xDFFF))
        return 0;
    return len;
}

size_t fsc_utf8_len(const char *s, size_t n)
{
    return n ? utf8_len((const unsigned char *)s, n) : 0;
}

void fsc_buf_put_utf8(fsc_buf *b, uint32_t cp)
{
    static const unsigned char lead[] = {0, 0xC0, 0xE0, 0xF0};
    char u[4];
    size_t k = cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
    for (size_t i = k - 1; i > 0; i--, cp >>= 6) /* continuation bytes, last first */
        u[i] = (char)(0x80 | (cp & 0x3F));
    u[0] = (char)(lead[k - 1] | cp);
    fsc_buf_add(b, u, k);
}

void fsc_json_quote(fsc_buf *b, const char *s, size_t n, bool html_safe)
{
    const unsigned char *p = (const unsigned char *)s;
    fsc_buf_putc(b, '"');
    size_t i = 0;
    while (i < n) {
        size_t run = i;
        while (run < n && p[run] >= 0x20 && p[run] < 0x80 && p[run] != '"' && p[run] != '\\' &&
               !(html_safe && (p[run] == '<' || p[run] == '>' || p[run] == '&')))
            run++;
        if (run > i) {
            fsc_buf_add(b, s + i, run - i);
            i = run;
            continue;
        }
        unsigned char c = p[i];
        if (c >= 0x80) {
            size_t l = utf8_len(p + i, n - i);
            if (l == 0) {
                fsc_buf_puts(b, "\\ufffd");
                i++;
            } else {
                fsc_buf_add(b, s + i, l);
                i += l;
            }
            continue;
        }
        switch (c) {
        case '"': fsc_buf_puts(b, "\\\""); break;
        case '\\': fsc_buf_puts(b, "\\\\"); break;
        case '\n': fsc_buf_puts(b, "\\n"); break;
        case '\r': fsc_buf_puts(b, "\\r"); break;
        case '\t': fsc_buf_puts(b, "\\t"); break;
        default: fsc_buf_printf(b, "\\u%04x", c); break;
        }
        i++;
    }
    fsc_buf_putc(b, '"');
}

void fsc_jw_init(fsc_jw *w, fsc_buf *out, bool pretty, bool html_safe)
{
    memset(w, 0, sizeof *w);
    w->out = out;
    w->pretty = pretty;
    w->html_safe = html_safe;
    w->first[0] = true;
}

static void indent(fsc_jw *w)
{
    fsc_buf_putc(w->out, '\n');
    for (int i = 0; i < w->depth; i++)
        fsc_buf_add(w->out, "  ", 2);
}

/* Separator and indentation before a value or key. */
static void before_item(fsc_jw *w)
{
    if (w->after_key) {
        w->after_key = false;
        return;
    }
    if (w->depth > 0) {
        if (!w->first[w->depth])
            fsc_buf_putc(w->out, ',');
        w->first[w->depth] = false;
        if (w->pretty)
            indent(w);
    }
}

static void open(fsc_jw *w, char c)
{
    before_item(w);
    fsc_buf_putc(w->out, c);
    if (w->depth < (int)FSC_ARRAY_SIZE(w->first) - 1)
        w->depth++;
    w->first[w->depth] = true;
}

static void close_(fsc_jw *w, char c)
{
    bool empty = w->first[w->depth];
    if (w->depth > 0)
        w->depth--;
    if (w->pretty && !empty)
        indent(w);
    fsc_buf_putc(w->out, c);
}

void fsc_jw_obj(fsc_jw *w) { open(w, '{'); }
void fsc_jw_obj_end(fsc_jw *w) { close_(w, '}'); }
void fsc_jw_arr(fsc_jw *w) { open(w, '['); }
void fsc_jw_arr_end(fsc_jw *w) { close_(w, ']'); }

/* Keys are nearly always short plain ASCII names ("clat_ns"): quoted and followed by
 * the colon in one append. Returns false when fsc_json_quote must do it. */
static bool put_plain_key(fsc_jw *w, const char *key)
{
    char tmp[64];
    size_t n = 1;
    tmp[0] = '"';
    for (const char *p = key; *p; p++) {
        unsigned char c = (unsigned char)*p;
        if (n + 4 > sizeof tmp || (unsigned)(c - 0x20) >= 0x60 || c == '"' || c == '\\')
            return false; /* long, control, non-ASCII or to escape */
        tmp[n++] = (char)c;
    }
    for (size_t i = 1; w->html_safe && i < n; i++)
        if (tmp[i] == '<' || tmp[i] == '>' || tmp[i] == '&')
            return false;
    tmp[n++] = '"';
    tmp[n++] = ':';
    if (w->pretty)
        tmp[n++] = ' ';
    fsc_buf_add(w->out, tmp, n);
    return true;
}

void fsc_jw_key(fsc_jw *w, const char *key)
{
    before_item(w);
    if (put_plain_key(w, key)) {
        w->after_key = true;
        return;
    }
    fsc_json_quote(w->out, key, strlen(key), w->html_safe);
    fsc_buf_add(w->out, w->pretty ? ": " : ":", w->pretty ? 2 : 1);
    w->after_key = true;
}

void fsc_jw_strn(fsc_jw *w, const char *s, size_t n)
{
    before_item(w);
    fsc_json_quote(w->out, s, n, w->html_safe);
}

void fsc_jw_str(fsc_jw *w, const char *s)
{
    if (!s) {
        fsc_jw_null(w);
        return;
    }
    fsc_jw_strn(w, s, strlen(s));
}

void fsc_jw_num(fsc_jw *w, double v)
{
    before_item(w);
    fsc_buf_num(w->out, v);
}

void fsc_jw_fnum(fsc_jw *w, const fsc_num *n)
{
    before_item(w);
    fsc_buf_fnum(w->out, n);
}

void fsc_jw_bool(fsc_jw *w, bool v)
{
    before_item(w);
    fsc_buf_puts(w->out, v ? "true" : "false");
}

void fsc_jw_null(fsc_jw *w)
{
    before_item(w);
    fsc_buf_puts(w->out, "null");
}

void fsc_jw_value_begin(fsc_jw *w)
{
    before_item(w);
}
