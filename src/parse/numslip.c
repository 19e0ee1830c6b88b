/* SPDX-License-Identifier: MIT */
/* fio's rounding slip (numslip.h): the pairs of a result line, and which one slipped. */
#include "numslip.h"
#include "fastline.h"
#include "parse_int.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A number as fio printed it with its unit: "50.0MiB/s", "53.4MB/s", "85.5MiB". */
typedef struct printed {
    const char *s; /* the text */
    size_t n;
    size_t digits;   /* of s: the number's bytes ("50.0") */
    double v;        /* the number */
    unsigned decimals;
    bool zero_frac;  /* decimals and all of them 0 */
    double mult;     /* of the unit's prefix: 1024^k (IEC), 1000^k (SI) */
    bool bits;       /* "bit" (unit_base=1), not "B" */
} printed;

static bool is_digit(char c)
{
    return c >= '0' && c <= '9';
}

/* The power of 1000 or 1024 that unit prefix c ("kMGTPE"; 'K' too unless count) stands
 * for, 0 for none: fio prints these in upper case but for 'k'. */
static unsigned prefix_power(char c, bool count)
{
    bool as_fio_prints = c == 'k' || (c >= 'A' && c <= 'Z' && !(count && c == 'K'));
    return as_fio_prints ? (unsigned)fsc_size_power(c) : 0;
}

/* 1000 and 1024 to the powers 0 to 6, each exact in a double: the products the loop
 * over the prefixes made. */
static const double si_mult[] = {1, 1e3, 1e6, 1e9, 1e12, 1e15, 1e18};
static const double iec_mult[] = {1, 1024.0, 1048576.0, 1073741824.0, 1099511627776.0, 1125899906842624.0,
                                  1152921504606846976.0};

/* The printed value at p (before e): its end, or NULL when there is none. count: a
 * count ("15.0k" of "IOPS=15.0k"): no unit after its prefix, which is 1000s. */
static const char *printed_at(const char *p, const char *e, printed *out, bool count)
{
    const char *q = p;
    unsigned long long ip = 0;
    size_t idigits = 0;
    while (q < e && is_digit(*q) && idigits < 15) {
        ip = ip * 10 + (unsigned long long)(*q++ - '0');
        idigits++;
    }
    if (!idigits || (q < e && is_digit(*q)))
        return NULL;
    double v = (double)ip, scale = 1;
    out->decimals = 0;
    out->zero_frac = false;
    if (q < e && *q == '.') {
        q++;
        out->zero_frac = true;
        while (q < e && is_digit(*q) && out->decimals < 6) {
            scale /= 10;
            v += (*q - '0') * scale;
            out->zero_frac = out->zero_frac && *q == '0';
            out->decimals++;
            q++;
        }
        if (!out->decimals || (q < e && is_digit(*q)))
            return NULL;
    }
    out->s = p;
    out->digits = (size_t)(q - p);
    out->v = v;
    out->mult = 1;
    unsigned k = prefix_power(q < e ? *q : 0, count);
    if (k) {
        q++;
        bool iec = !count && q < e && *q == 'i';
        q += iec;
        out->mult = iec ? iec_mult[k] : si_mult[k];
    }
    out->bits = false;
    if (count) {
        out->n = (size_t)(q - p);
        return q;
    }
    out->bits = e - q >= 3 && !memcmp(q, "bit", 3);
    if (out->bits)
        q += 3;
    else if (q < e && *q == 'B')
        q++;
    else if (!k || (q < e && *q != ' ' && *q != '(' && *q != ')' && *q != ','))
        return NULL; /* a prefix alone: fio --client's sum of all clients ("BW=49.0Mi (52.4M)") */
    if (e - q >= 2 && !memcmp(q, "/s", 2))
        q += 2;
    out->n = (size_t)(q - p);
    return q;
}

/* The value of the last of `decimals` decimals. */
static double ulp_of(unsigned decimals)
{
    double ulp = 1;
    for (unsigned i = 0; i < decimals; i++)
        ulp /= 10;
    return ulp;
}

/* The values printed as v could stand for, in the unit's base: a rounded decimal
 * within half its last digit; a whole number maybe cut short (num2str divides) */
static void span_of(const printed *a, double v, double *lo, double *hi)
{
    double ulp = ulp_of(a->decimals);
    *lo = (v - ulp / 2) * a->mult * (1 - 1e-9);
    *hi = (a->decimals ? v + ulp / 2 : v + 1) * a->mult * (1 + 1e-9);
}

static bool agree(const printed *a, double av, const printed *b)
{
    double alo, ahi, blo, bhi;
    span_of(a, av, &alo, &ahi);
    span_of(b, b->v, &blo, &bhi);
    return alo <= bhi && blo <= ahi;
}

/* snprintf(dst, cap, "%.*s", ...) without its cost (some 600 instructions): up to a NUL,
 * cut to cap - 1 */
static void text_of(char *dst, size_t cap, const char *s, size_t n)
{
    size_t m = n < cap - 1 ? n : cap - 1;
    const char *z = memchr(s, 0, m);
    if (z)
        m = (size_t)(z - s);
    memcpy(dst, s, m);
    dst[m] = 0;
}

/* a as fio meant it: N+1 with as many zeros after the point, then the unit as printed.
 * a's decimals are all 0 (a slipped value's are), so N+1 is whole and below 10^15:
 * its digits, written out, are what "%.*f" prints, without snprintf's 2,000 instructions. */
static void meant_text(char *dst, size_t cap, const printed *a)
{
    char t[64];
    size_t n = 0;
    unsigned long long w = (unsigned long long)(a->v + 1);
    char rev[24];
    size_t r = 0;
    do
        rev[r++] = (char)('0' + w % 10);
    while ((w /= 10));
    while (r)
        t[n++] = rev[--r];
    if (a->decimals) {
        t[n++] = '.';
        for (unsigned i = 0; i < a->decimals; i++)
            t[n++] = '0';
    }
    size_t un = a->n - a->digits;
    if (un > sizeof t - n)
        un = sizeof t - n;
    memcpy(t + n, a->s + a->digits, un);
    text_of(dst, cap, t, n + un);
}

/* out: a, of field, slipped (the text of what tells, other, the caller's) */
static void slip_set(fsc_slip *out, int field, const printed *a)
{
    out->field = field;
    out->shown_n = a->v;
    out->meant_n = a->v + 1;
    text_of(out->shown, sizeof out->shown, a->s, a->n);
    meant_text(out->meant, sizeof out->meant, a);
}

/* Did a slip where b, printed beside it, did not? Then one more in out. */
static size_t pair(const printed *a, const printed *b, int field, fsc_slip *out)
{
    if (!a->zero_frac || a->v < 1 || a->bits != b->bits || agree(a, a->v, b) || !agree(a, a->v + 1, b))
        return 0;
    slip_set(out, field, a);
    text_of(out->other, sizeof out->other, b->s, b->n);
    return 1;
}

/* "A (B)" at p: its end, or NULL. */
static const char *pair_at(const char *p, const char *e, printed *a, printed *b)
{
    if (!(p = printed_at(p, e, a, false)))
        return NULL;
    p = fsc_skip_spaces(p, e);
    if (p >= e || *p != '(' || !(p = printed_at(p + 1, e, b, false)) || p >= e || *p != ')')
        return NULL;
    return p + 1;
}

/* Just after the first lit in [s, e), or NULL. */
static const char *after(const char *s, const char *e, const char *lit)
{
    const char *p = fsc_find_lit(s, (size_t)(e - s), lit);
    return p ? p + strlen(lit) : NULL;
}

/* A job's "(IO/RUNTIMEmsec)" after its bandwidth pair a (b) at p: did IO slip? fio
 * divides the bytes by the runtime for the bandwidth, so the bandwidth both values
 * allow, times the runtime, is where the bytes were. */
static size_t job_io(const char *p, const char *e, const printed *a, double a_meant, const printed *b,
                     fsc_slip *out)
{
    printed io;
    if (p >= e || *p != '(' || !(p = printed_at(p + 1, e, &io, false)) || p >= e || *p != '/')
        return 0;
    const char *r = ++p;
    unsigned long long ms = 0;
    while (p < e && is_digit(*p) && p - r < 12)
        ms = ms * 10 + (unsigned long long)(*p++ - '0');
    if (p == r || e - p < 5 || memcmp(p, "msec)", 5) || !ms || !io.zero_frac || io.v < 1 || io.bits || a->bits ||
        b->bits)
        return 0;
    double alo, ahi, blo, bhi, lo, hi;
    span_of(a, a_meant, &alo, &ahi);
    span_of(b, b->v, &blo, &bhi);
    lo = (alo > blo ? alo : blo) * (double)ms / 1000;
    hi = ((ahi < bhi ? ahi : bhi) + 1) * (double)ms / 1000;
    double nlo, nhi, mlo, mhi;
    span_of(&io, io.v, &nlo, &nhi);
    span_of(&io, io.v + 1, &mlo, &mhi);
    if (lo > hi || (nlo <= hi && lo <= nhi) || !(mlo <= hi && lo <= mhi))
        return 0;
    slip_set(out, FSC_SLIP_IO, &io);
    snprintf(out->other, sizeof out->other, "%.*s over %llums", (int)(b->n < 16 ? b->n : 16), b->s, ms);
    return 1;
}

/* Does s[0, n) hold ".0"? Every slip is of a value whose fraction is all zeros
 * ("50.0MiB/s": pair and job_io ask zero_frac): a line without one has none, and is
 * told so for a few memchr calls instead of reading its pairs (some 1,000
 * instructions). */
static bool has_point_zero(const char *s, size_t n)
{
    const char *e = s + n;
    for (const char *p = s; (p = memchr(p, '.', (size_t)(e - p))) && e - p >= 2; p++)
        if (p[1] == '0')
            return true;
    return false;
}

size_t fsc_slips_of_line(const char *s, size_t n, int group, fsc_slip *out)
{
    if (!has_point_zero(s, n))
        return 0;
    const char *e = s + n, *p = after(s, e, group ? "bw=" : "BW=");
    printed a, b, a2, b2;
    size_t k = 0;
    if (!p || !(p = pair_at(p, e, &a, &b)))
        return 0;
    k += pair(&a, &b, FSC_SLIP_BW, out + k);
    if (!group)
        return k + job_io(p, e, &a, k ? a.v + 1 : a.v, &b, out + k);
    /* ", Amin-Amax (Bmin-Bmax), io=X (Y)" */
    p = fsc_skip_spaces(p, e);
    if (p >= e || *p != ',' || !(p = printed_at(fsc_skip_spaces(p + 1, e), e, &a, false)) || p >= e || *p != '-' ||
        !(p = printed_at(p + 1, e, &a2, false)))
        return k;
    p = fsc_skip_spaces(p, e);
    if (p >= e || *p != '(' || !(p = printed_at(p + 1, e, &b, false)) || p >= e || *p != '-' ||
        !(p = printed_at(p + 1, e, &b2, false)) || p >= e || *p != ')')
        return k;
    k += pair(&a, &b, FSC_SLIP_BW_MIN, out + k);
    k += pair(&a2, &b2, FSC_SLIP_BW_MAX, out + k);
    p = fsc_skip_spaces(p + 1, e);
    if (p >= e || *p != ',' || !(p = after(p, e, "io=")) || !pair_at(p, e, &a, &b))
        return k;
    return k + pair(&a, &b, FSC_SLIP_IO, out + k);
}

int fsc_slip_version(const char *v)
{
    unsigned part[3];
    if (fsc_fio_version_parts(v, part) < 2) /* unknown: it may slip */
        return 1;
    unsigned major = part[0], minor = part[1];
    /* num2str printed a fraction from 2.17 (with SI and IEC units) and carried it
     * from 3.26 */
    return (major == 2 && minor >= 17) || (major == 3 && minor < 26);
}

bool fsc_iops_may_slip(const char *s, size_t n, fsc_count_slip *c)
{
    if (!has_point_zero(s, n)) /* the value asked about has all-zero decimals */
        return false;
    const char *e = s + n, *p = after(s, e, "IOPS="), *q;
    printed v;
    if (!p || !(q = printed_at(p, e, &v, true)) || !v.zero_frac || v.v < 1 || q >= e || *q != ',')
        return false;
    c->shown_n = v.v;
    c->meant_n = v.v + 1;
    c->decimals = v.decimals;
    c->mult = v.mult;
    text_of(c->shown, sizeof c->shown, p - 5, v.n + 5);
    meant_text(c->meant, sizeof c->meant, &v);
    return true;
}

bool fsc_iops_slipped(const fsc_count_slip *c, double ios, double runtime_ms)
{
    if (!(runtime_ms > 0) || !(ios >= 0))
        return false;
    /* fio's IOPS: the I/Os times 1000 over the runtime in ms, cut to a whole number */
    double iops = ios * 1000 / runtime_ms, ulp = ulp_of(c->decimals);
    double nlo = (c->shown_n - ulp / 2) * c->mult, nhi = (c->shown_n + ulp / 2) * c->mult;
    double mlo = (c->meant_n - ulp / 2) * c->mult, mhi = (c->meant_n + ulp / 2) * c->mult;
    bool shown = iops - 1 <= nhi && nlo <= iops + 1, meant = iops - 1 <= mhi && mlo <= iops + 1;
    return !shown && meant;
}
