/* SPDX-License-Identifier: MIT */
/* Growable buffer, shortest round-trip numbers and a streaming JSON writer. */
#include "fioscope/buf.h"
#include "fioscope/words.h"
#include "json_plain.h"
#include "num_memo.h"

#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>


void fsc_buf_free(fsc_buf *b)
{
    if (b->data)
        fsc_budget_credit(b->cap);
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

/* reserve when the room is not there: out of line, so that the appends that nearly
 * always fit pay one comparison. */
static bool __attribute__((noinline)) grow(fsc_buf *b, size_t extra)
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
    char *p = fsc_budget_charge(ncap - b->cap) ? realloc(b->data, ncap) : NULL;
    if (!p) {
        b->oom = true;
        return false;
    }
    b->data = p;
    b->cap = ncap;
    return true;
}

/* Room for extra more bytes and the NUL; false when out of memory (oom set). */
static inline bool reserve(fsc_buf *b, size_t extra)
{
    if (b->len + extra < b->cap && !b->oom)
        return true;
    return grow(b, extra);
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

const char fsc_digit_pairs[200] = "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
                                   "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
                                   "8081828384858687888990919293949596979899";

/* Decimal digits of u ending at end, two a step. */
static inline void digits32(char *end, uint32_t u)
{
    while (u >= 100) {
        uint32_t q = u / 100;
        end -= 2;
        memcpy(end, fsc_digit_pairs + 2 * (u - q * 100), 2);
        u = q;
    }
    if (u >= 10)
        memcpy(end - 2, fsc_digit_pairs + 2 * u, 2);
    else
        end[-1] = (char)('0' + u);
}

/* Exactly 8 digits (zero-padded) of u < 10^8 ending at end. */
static inline void digits8(char *end, uint32_t u)
{
    for (int i = 0; i < 4; i++) {
        uint32_t q = u / 100;
        end -= 2;
        memcpy(end, fsc_digit_pairs + 2 * (u - q * 100), 2);
        u = q;
    }
}

/* Decimal digits of u ending at end. */
static inline void digits64(char *end, uint64_t u)
{
    while (u >= 100000000) {
        uint64_t q = u / 100000000;
        digits8(end, (uint32_t)(u - q * 100000000));
        end -= 8;
        u = q;
    }
    digits32(end, (uint32_t)u);
}

/* 10^0 .. 10^19 */
static const uint64_t pow10_u64[20] = {
    1ULL, 10ULL, 100ULL, 1000ULL, 10000ULL, 100000ULL, 1000000ULL, 10000000ULL, 100000000ULL,
    1000000000ULL, 10000000000ULL, 100000000000ULL, 1000000000000ULL, 10000000000000ULL,
    100000000000000ULL, 1000000000000000ULL, 10000000000000000ULL, 100000000000000000ULL,
    1000000000000000000ULL, 10000000000000000000ULL};

/* Number of decimal digits of u (at least 1), without a loop: the bit length times
 * log10(2) (1233 / 4096) is the count or one less, one comparison tells which. */
static inline size_t n_digits(uint64_t u)
{
    unsigned bits = 64 - (unsigned)__builtin_clzll(u | 1);
    unsigned t = (bits * 1233) >> 12;
    return t + ((u | 1) >= pow10_u64[t]);
}

/* fsc_u64_fmt of any u: out of line, the common case keeps to few registers. */
size_t fsc_u64_fmt_long(char *dst, uint64_t u)
{
    size_t n = n_digits(u);
    digits64(dst + n, u);
    return n;
}

size_t fsc_u64_fmt(char *dst, uint64_t u)
{
    return fsc_u64_fmt_inline(dst, u);
}

/* fsc_num_fmt of what has more than 9 decimals: printf's shortest of %.15g and
 * %.17g that reads back as v. */
static size_t __attribute__((noinline)) num_fmt_g(char *dst, double v)
{
    char tmp[FSC_NUM_MAX];
    int n = snprintf(tmp, sizeof tmp, "%.15g", v);
    if (strtod(tmp, NULL) != v)
        n = snprintf(tmp, sizeof tmp, "%.17g", v);
    memcpy(dst, tmp, (size_t)n);
    return (size_t)n;
}

/* "%s%llu.%0*llu" of x / 10^d and x % 10^d (x = ix, 1 <= d <= 9, neg: v < 0): the
 * digits of x, a point before the last d of them, and a 0 before the point when x
 * has no more. */
static size_t __attribute__((noinline)) frac_digits(char *dst, uint64_t ix, int d, size_t neg)
{
    size_t nx = n_digits(ix), ni = nx > (size_t)d ? nx - (size_t)d : 1;
    size_t n = neg + ni + 1 + (size_t)d;
    char *e = dst + n;
    int k = d;
    dst[0] = '-'; /* overwritten by the first digit unless negative */
    for (; k >= 2; k -= 2) {
        uint64_t q = ix / 100;
        e -= 2;
        memcpy(e, fsc_digit_pairs + 2 * (ix - q * 100), 2);
        ix = q;
    }
    if (k) {
        uint64_t q = ix / 10;
        *--e = (char)('0' + (ix - q * 10));
        ix = q;
    }
    *--e = '.';
    digits64(e, ix);
    return n;
}

/* x / 10^d with its d decimals (ix = x, 1 <= d <= 9, neg: v < 0). */
static inline __attribute__((always_inline)) size_t frac_out(char *dst, uint64_t ix, int d, size_t neg)
{
    if (ix - 1 < 99999999 && d <= 7) { /* 1 <= ix < 10^8 */
        /* of the 8 digits of ix (zero-padded), the last ni + d: the integer part (a 0
         * of the padding when there is none), the point, the decimals; two stores of
         * 8 bytes */
        uint64_t v = fsc_digit_values8((uint32_t)ix), w = v + FSC_ASCII_ZEROS;
        size_t nx = 8 - fsc_lead_zeros8(v), ni = nx > (size_t)d ? nx - (size_t)d : 1;
        w >>= 8 * (8 - (size_t)d - ni);
        uint64_t lo = w & ((1ULL << (8 * ni)) - 1), hi = w >> (8 * ni);
        dst[0] = '-';
        fsc_store_le64(dst + neg, lo);
        dst[neg + ni] = '.';
        fsc_store_le64(dst + neg + ni + 1, hi);
        return neg + ni + 1 + (size_t)d;
    }
    if (ix < 10000000000000000ULL) { /* 10^8 <= ix < 10^16 (or d > 7) */
        /* the 16 digits of ix (zero-padded) in t[0, 16): the integer part is the ni
         * before the last d (at least one, a 0 of the padding when there is none);
         * copied 16 bytes at a time (dst has room for 40) */
        char t[32];
        uint64_t hi = ix / 100000000;
        uint64_t vh = fsc_digit_values8((uint32_t)hi), vl = fsc_digit_values8((uint32_t)(ix - hi * 100000000));
        uint64_t wh = vh + FSC_ASCII_ZEROS, wl = vl + FSC_ASCII_ZEROS;
        size_t nx = hi ? 16 - fsc_lead_zeros8(vh) : vl ? 8 - fsc_lead_zeros8(vl) : 1;
        size_t ni = nx > (size_t)d ? nx - (size_t)d : 1;
        fsc_store_le64(t, wh);
        fsc_store_le64(t + 8, wl);
        memset(t + 16, '0', 16); /* read by the last copy, never kept */
        dst[0] = '-';
        memcpy(dst + neg, t + 16 - (size_t)d - ni, 16);
        dst[neg + ni] = '.';
        memcpy(dst + neg + ni + 1, t + 16 - (size_t)d, 16);
        return neg + ni + 1 + (size_t)d;
    }
    return frac_digits(dst, ix, d, neg);
}

/* frac_out of x = ix / 100 with one or two decimals (ix not a multiple of 100: v is
 * not integral): the integer part by fsc_u64_fmt_inline, the decimals from the pair
 * table, a trailing 0 dropped (d = 1). */
static inline size_t frac2(char *dst, uint64_t ix, size_t neg)
{
    uint64_t ip = ix / 100;
    unsigned r = (unsigned)(ix - ip * 100);
    char *p = dst;
    *p = '-';
    p += neg;
    p += fsc_u64_fmt_inline(p, ip);
    *p++ = '.';
    memcpy(p, fsc_digit_pairs + 2 * r, 2);
    return (size_t)(p - dst) + 1 + (r % 10 != 0);
}

/* fsc_num_fmt of a non-integral v (or one beyond 2^53): kept out of the integer
 * path so that the common case pays for no more than it uses. */
static size_t __attribute__((noinline)) num_fmt_frac(char *dst, double v)
{
    double av = fabs(v);
    if (!(av <= DBL_MAX)) { /* infinite or NaN */
        memcpy(dst, "null", 4);
        return 4;
    }
    /* Most values came from text with a few decimals: find the fewest decimals d with
     * round(v*10^d)/10^d == v. Both are exact integers below 2^53, so the division is
     * correctly rounded and the printed decimal reads back as v.
     * nearbyint(y) (round half to even, the default mode): below 2^52 the sum rounds
     * y to an integer, above it y is one. */
    static const double p10[] = {1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9};
    const double two52 = 4503599627370496.0, two53 = 9007199254740992.0;
    size_t neg = v < 0;
    int d = 1;
    /* d = 2 first (most values: "12.34"). When it matches, d = 1 matches too exactly
     * when x2 ends in 0 (x1 = x2 / 10: both divisions round the same real number,
     * and av * 10 rounds to x1); when it fails, d = 1 fails too (x2 would be 10 x1),
     * so the search goes on at 3. Both hold while the rounding errors of av and of
     * the products, x2 * 2^-52 at most, stay below 1/2: below 2^50 (nearer 2^53,
     * 90071992547109.9 * 100 rounds to ...0991); above, the search starts at 1. */
    double y2 = av * 100, x2 = y2 < two52 ? (y2 + two52) - two52 : y2;
    if (x2 < 1125899906842624.0) { /* 2^50 */
        if (x2 / 100 == av) /* most of them ("27.76", "3066.98", "0.1", "44879052.8") */
            return frac2(dst, (uint64_t)x2, neg);
        d = 3;
    }
    for (; d <= 9; d++) {
        double y = av * p10[d];
        double x = y < two52 ? (y + two52) - two52 : y;
        if (x >= two53)
            break;
        if (x / p10[d] == av)
            return frac_out(dst, (uint64_t)x, d, neg);
    }
    return num_fmt_g(dst, v);
}

/* The text dst[0, n) of the value whose bits are bits kept in slot m when it fits. */
static char *memo_keep(char *dst, size_t n, fsc_num_memo *m, uint64_t bits)
{
    if (n <= 8) {
        m->bits = bits;
        m->text = fsc_load_le64(dst) & (~0ULL >> (64 - 8 * n));
    }
    return dst + n;
}

char *fsc_num_frac_miss(char *dst, double v, fsc_num_memo *m, uint64_t bits)
{
    return memo_keep(dst, num_fmt_frac(dst, v), m, bits);
}

char *fsc_num_wide_miss(char *dst, double v, fsc_num_memo *slot, uint64_t bits, fsc_num_wide *w)
{
    char *e = fsc_num_frac_miss(dst, v, slot, bits);
    size_t n = (size_t)(e - dst);
    if (n > 8 && n <= sizeof w->text) { /* two copies of 8 bytes, overlapping: no call */
        memset(w->text, 0, sizeof w->text);
        memcpy(w->text, dst, 8);
        memcpy(w->text + n - 8, dst + n - 8, 8);
        w->len = n;
        w->bits = bits;
    }
    return e;
}

/* fsc_num_frac_put, out of line (fsc_num_put_other's). */
static size_t __attribute__((noinline)) num_fmt_frac_memo(char *dst, double v, fsc_num_memo *memo)
{
    return (size_t)(fsc_num_frac_put(dst, v, memo) - dst);
}

/* fsc_num_fmt of a negative integer (-2^53 < i < 0): rare, kept out of the path of
 * the others (no sign to carry there). */
static size_t __attribute__((noinline)) num_fmt_neg(char *dst, int64_t i)
{
    dst[0] = '-';
    return 1 + fsc_u64_fmt_inline(dst + 1, 0 - (uint64_t)i);
}

/* The text of fsc_buf_num, written to dst (at least FSC_NUM_MAX bytes); returns its
 * length. memo: NULL or the slots of fsc_num_put (a constant where inlined). */
static inline __attribute__((always_inline)) size_t num_fmt(char *dst, double v, fsc_num_memo *memo)
{
    /* integers: digits in place (2^53 and above go the other way: not all exact) */
    if (fabs(v) < 9007199254740992.0) {
        int64_t i = (int64_t)v;
        if ((double)i == v) {
            if (i < 0)
                return num_fmt_neg(dst, i);
            return fsc_u64_fmt_inline(dst, (uint64_t)i);
        }
    }
    return memo ? num_fmt_frac_memo(dst, v, memo) : num_fmt_frac(dst, v);
}

size_t fsc_num_fmt(char *dst, double v)
{
    return num_fmt(dst, v, NULL);
}

char *fsc_num_miss(char *dst, double v, fsc_num_memo *m, uint64_t bits)
{
    return memo_keep(dst, num_fmt(dst, v, NULL), m, bits);
}

char *fsc_num_put_other(char *dst, double v, fsc_num_memo *memo)
{
    return dst + num_fmt(dst, v, memo);
}

char *fsc_u64_put(char *dst, uint64_t u)
{
    return dst + fsc_u64_fmt_inline(dst, u);
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

/* Whether c is copied as is into a JSON string. */
static inline bool json_plain(unsigned char c, bool html_safe)
{
    return c >= 0x20 && c < 0x7F && c != '"' && c != '\\' && !(html_safe && (c == '<' || c == '>' || c == '&'));
}

/* The high bit of the bytes of w (8 bytes of text, fsc_load_le64) that are not
 * copied as is into a JSON string, exact for the lowest one: a byte's test borrows
 * only from a lower byte that is flagged itself. */
static inline uint64_t json_bad8(uint64_t w, bool html_safe)
{
    const uint64_t high = FSC_BYTES_OF(0x80);
    uint64_t bad = (w & high) | ((w - FSC_BYTES_OF(0x20)) & ~w & high) | fsc_zero_bytes(w ^ FSC_BYTES_OF(0x7F)) |
                   fsc_zero_bytes(w ^ FSC_BYTES_OF('"')) | fsc_zero_bytes(w ^ FSC_BYTES_OF('\\'));
    if (html_safe)
        bad |= fsc_zero_bytes(w ^ FSC_BYTES_OF('<')) | fsc_zero_bytes(w ^ FSC_BYTES_OF('>')) |
               fsc_zero_bytes(w ^ FSC_BYTES_OF('&'));
    return bad;
}

size_t fsc_json_plain(const char *s, size_t n, bool html_safe)
{
    const unsigned char *p = (const unsigned char *)s;
    size_t i = 0;
#if defined(__SSE2__)
    if (n >= 16) { /* 16 bytes a step, the last step overlapping the one before */
        for (; i + 16 <= n; i += 16) {
            unsigned m = fsc_json_bad16(_mm_loadu_si128((const __m128i *)(p + i)), html_safe);
            if (m)
                return i + (unsigned)__builtin_ctz(m);
        }
        if (i < n) {
            unsigned m = fsc_json_bad16(_mm_loadu_si128((const __m128i *)(p + n - 16)), html_safe) >> (i - (n - 16));
            if (m)
                return i + (unsigned)__builtin_ctz(m);
        }
        return n;
    }
#endif
    if (n >= 8) { /* 8 bytes a step, the same way */
        uint64_t w, bad;
        for (; i + 8 <= n; i += 8) {
            w = fsc_load_le64(s + i);
            if ((bad = json_bad8(w, html_safe)))
                return i + ((unsigned)__builtin_ctzll(bad) >> 3);
        }
        if (i < n) {
            w = fsc_load_le64(s + n - 8);
            if ((bad = json_bad8(w, html_safe) >> (8 * (i - (n - 8)))))
                return i + ((unsigned)__builtin_ctzll(bad) >> 3);
        }
        return n;
    }
    while (i < n && json_plain(p[i], html_safe))
        i++;
    return i;
}

void fsc_json_quote(fsc_buf *b, const char *s, size_t n, bool html_safe)
{
    const unsigned char *p = (const unsigned char *)s;
    fsc_buf_putc(b, '"');
    size_t i = 0;
    while (i < n) {
        size_t run = i + fsc_json_plain(s + i, n - i, html_safe);
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
            } else if ((l == 2 && c == 0xC2 && p[i + 1] < 0xA0) ||
                       (l == 3 && c == 0xE2 && ((p[i + 1] == 0x80 && p[i + 2] >= 0xAA && p[i + 2] <= 0xAE) ||
                                                (p[i + 1] == 0x81 && p[i + 2] >= 0xA6 && p[i + 2] <= 0xA9)))) {
                /* C1 controls and bidi overrides: the same string, but a terminal showing
                 * the JSON does not obey them (see fioscope/escape.h) */
                uint32_t cp = l == 2 ? (uint32_t)(p[i + 1] & 0x3F) | 0x80
                                     : 0x2000u | ((uint32_t)(p[i + 1] & 0x3F) << 6) | (p[i + 2] & 0x3F);
                fsc_buf_printf(b, "\\u%04x", (unsigned)cp);
                i += l;
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
