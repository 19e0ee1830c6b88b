/* SPDX-License-Identifier: MIT */
/* fsc_num_fmt with the texts of recent values remembered, and its integers written
 * inline (fsc_num_put): for a writer that turns many numbers into text on one thread
 * (private to the core and model). */
#ifndef FSC_NUM_MEMO_H
#define FSC_NUM_MEMO_H

#include "fioscope/buf.h"
#include "fioscope/words.h"

#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/* A slot: a value's bits and its text of at most 8 bytes, zero-padded. */
typedef struct fsc_num_memo {
    uint64_t bits, text;
} fsc_num_memo;

/* A memo: FSC_NUM_MEMO_SLOTS slots, zeroed before the first use, used by one thread
 * at a time. */
#define FSC_NUM_MEMO_LOG2 12
#define FSC_NUM_MEMO_SLOTS (1 << FSC_NUM_MEMO_LOG2)

/* "00" "01" ... "99" */
extern const char fsc_digit_pairs[200];

/* fsc_u64_fmt of u >= 10^16 (out of line). */
size_t fsc_u64_fmt_long(char *dst, uint64_t u);

#define FSC_ASCII_ZEROS 0x3030303030303030ULL /* '0' in each byte */

/* The 8 decimal digits of u < 10^8 (leading zeros included) as one little-endian
 * word of digit values 0-9, the first digit in the low byte; add FSC_ASCII_ZEROS for
 * the text. All lanes are divided at once (SWAR): u becomes two lanes of 4 digits
 * (32 bits each), each of them two of 2 (16 bits), each of those two digits (8
 * bits). A lane's quotient q is its product with a constant, shifted: x / 100 =
 * x * 10486 >> 20 for x < 10^4 and x / 10 = x * 103 >> 10 for x < 100 (both checked
 * for every x); no product leaves its lane. The quotient goes to the lower half of
 * the lane (the first digits end in the low bytes), the remainder to the upper:
 * q + ((v - 100 q) << 16) = (v << 16) + q * (1 - (100 << 16)), one multiply (the
 * word wraps in between, the result is exact). Every u < 10^8 was checked. */
static inline uint64_t fsc_digit_values8(uint32_t u)
{
    uint64_t hi = u / 10000, lo = u - hi * 10000;
    uint64_t v = hi | lo << 32;
    uint64_t q = ((v * 10486) >> 20) & 0x0000007F0000007FULL;
    v = (v << 16) + q * (uint64_t)(1 - (100 << 16));
    q = ((v * 103) >> 10) & 0x000F000F000F000FULL;
    return (v << 8) + q * (uint64_t)(1 - (10 << 8));
}

/* The number of leading zero digits of fsc_digit_values8's word w of a u >= 1. */
static inline unsigned fsc_lead_zeros8(uint64_t w)
{
    return (unsigned)__builtin_ctzll(w) >> 3;
}

/* The digits of 1 <= u < 10^8 written to dst[0, 8) (the bytes after the last digit
 * are left undefined); returns their number. */
static inline size_t fsc_digits_lt1e8(char *dst, uint32_t u)
{
    uint64_t v = fsc_digit_values8(u);
    unsigned zeros = fsc_lead_zeros8(v);
    uint64_t w = (v + FSC_ASCII_ZEROS) >> (8 * zeros);
    fsc_store_le64(dst, w);
    return 8 - zeros;
}

/* The digits of 10^8 <= u < 10^16 written to dst[0, 16); returns their number. */
static inline size_t fsc_digits_lt1e16(char *dst, uint64_t u)
{
    uint64_t hi = u / 100000000;
    uint64_t vh = fsc_digit_values8((uint32_t)hi), vl = fsc_digit_values8((uint32_t)(u - hi * 100000000));
    unsigned zeros = fsc_lead_zeros8(vh);
    uint64_t wh = (vh + FSC_ASCII_ZEROS) >> (8 * zeros), wl = vl + FSC_ASCII_ZEROS;
    fsc_store_le64(dst, wh);
    fsc_store_le64(dst + 8 - zeros, wl);
    return 16 - zeros;
}

#if defined(__SIZEOF_INT128__)
/* The digits of u, 10^(m + 1) or 10^m <= u < 10^(m + 2) (odd: 10^m <= u < 10^(m + 1)),
 * from t = u * c, c = 2^64 / 10^m rounded up (m = 4, 6 or 8): at dst, the first
 * digit or two, then `pairs` = m / 2 pairs; returns the end. The first digits are
 * the integer part of t / 2^64 (u / 10^m), each pair the integer part of the
 * fraction before it times 100 (one multiplication gives both the pair and the next
 * fraction). t is too large by u (c - 2^64 / 10^m) < u, below the fraction's unit
 * 2^64 / 10^m for u < 10^(m + 2) (m <= 8), and at each pair both the excess and the
 * unit of the digits left grow 100 times: every pair is exact. Every u below 10^10
 * was checked (off line). */
static inline __attribute__((always_inline)) char *fsc_lead_and_pairs(char *dst, unsigned __int128 t, bool odd,
                                                                       int pairs)
{
    unsigned lead = (unsigned)(t >> 64);
    if (odd)
        dst[0] = (char)('0' + lead);
    else
        memcpy(dst, fsc_digit_pairs + 2 * lead, 2);
    char *p = dst + 2 - odd;
    for (int k = 0; k < pairs; k++, p += 2) {
        t = (unsigned __int128)(uint64_t)t * 100;
        memcpy(p, fsc_digit_pairs + 2 * (size_t)(t >> 64), 2);
    }
    return p;
}

/* The digits of 10^4 <= u < 10^8 at dst; returns their number. */
static inline __attribute__((always_inline)) size_t fsc_digits_1e4_1e8(char *dst, uint64_t u)
{
    char *e;
    if (u < 1000000)
        e = fsc_lead_and_pairs(dst, (unsigned __int128)u * (UINT64_MAX / 10000 + 1), u < 100000, 2);
    else
        e = fsc_lead_and_pairs(dst, (unsigned __int128)u * (UINT64_MAX / 1000000 + 1), u < 10000000, 3);
    return (size_t)(e - dst);
}

/* The digits of 10^8 <= u < 10^10 at dst; returns their number. */
static inline size_t fsc_digits_1e8_1e10(char *dst, uint64_t u)
{
    unsigned __int128 t = (unsigned __int128)u * (UINT64_MAX / 100000000 + 1);
    return (size_t)(fsc_lead_and_pairs(dst, t, u < 1000000000, 4) - dst);
}
#else
static inline size_t fsc_digits_1e4_1e8(char *dst, uint64_t u)
{
    return fsc_digits_lt1e8(dst, (uint32_t)u);
}

static inline size_t fsc_digits_1e8_1e10(char *dst, uint64_t u)
{
    return fsc_digits_lt1e16(dst, u);
}
#endif

/* fsc_u64_fmt(dst, u) of 10 <= u < 10^4, inline: one division at most. */
static inline __attribute__((always_inline)) size_t fsc_u64_fmt_lt1e4(char *dst, uint32_t v)
{
    uint32_t q = v / 100, r = v - q * 100;
    if (v < 100) {
        memcpy(dst, fsc_digit_pairs + 2 * v, 2);
        return 2;
    }
    if (v < 1000) {
        dst[0] = (char)('0' + q);
        memcpy(dst + 1, fsc_digit_pairs + 2 * r, 2);
        return 3;
    }
    memcpy(dst, fsc_digit_pairs + 2 * q, 2);
    memcpy(dst + 2, fsc_digit_pairs + 2 * r, 2);
    return 4;
}

/* fsc_u64_fmt(dst, u), inline for u below 10^16 (dst: 16 bytes of room at least). */
static inline __attribute__((always_inline)) size_t fsc_u64_fmt_inline(char *dst, uint64_t u)
{
    if (u < 10) {
        dst[0] = (char)('0' + u);
        return 1;
    }
    if (u < 10000) /* a third of the numbers past one digit */
        return fsc_u64_fmt_lt1e4(dst, (uint32_t)u);
    if (u < 100000000)
        return fsc_digits_1e4_1e8(dst, u);
    if (u < 10000000000ULL)
        return fsc_digits_1e8_1e10(dst, u);
    if (u < 10000000000000000ULL)
        return fsc_digits_lt1e16(dst, u);
    return fsc_u64_fmt_long(dst, u);
}

/* The text of v, not an integer below 2^53 (a fraction, NaN, infinite or 2^53 and
 * beyond), when it is not in memo: written to dst and kept in slot (the bits of v
 * are bits); returns its end. */
char *fsc_num_frac_miss(char *dst, double v, fsc_num_memo *slot, uint64_t bits);
/* The same for any v but +0.0. */
char *fsc_num_miss(char *dst, double v, fsc_num_memo *slot, uint64_t bits);

/* The slot of memo for a value's bits (Fibonacci hashing). */
static inline fsc_num_memo *fsc_num_memo_slot(fsc_num_memo *memo, uint64_t bits)
{
    return &memo[(bits * 0x9E3779B97F4A7C15ULL) >> (64 - FSC_NUM_MEMO_LOG2)];
}

/* The text of slot m at dst; returns its end. A slot's text has no 0 byte: its
 * length is where it ends. */
static inline char *fsc_num_memo_copy(char *dst, const fsc_num_memo *m)
{
    fsc_store_le64(dst, m->text);
    return dst + ((size_t)(71 - __builtin_clzll(m->text)) >> 3);
}

/* A slot for a text of 9 to 16 bytes, which fsc_num_memo cannot keep: a value's
 * bits, the text's length and the text, zero-padded. */
typedef struct fsc_num_wide {
    uint64_t bits, len;
    char text[16];
} fsc_num_wide;

#define FSC_NUM_WIDE_LOG2 10
#define FSC_NUM_WIDE_SLOTS (1 << FSC_NUM_WIDE_LOG2)

/* fsc_num_frac_miss of a v not in wide either, kept in its slot w there when its
 * text is 9 to 16 bytes long (out of line: the look-up before it saves no
 * registers). */
char *fsc_num_wide_miss(char *dst, double v, fsc_num_memo *slot, uint64_t bits, fsc_num_wide *w);

/* fsc_num_frac_miss through wide (FSC_NUM_WIDE_SLOTS slots, zeroed before the first
 * use): the long fractions that miss memo every time they come ("44879052.8", a
 * bandwidth in bytes, written again as its group's and as the group's min and
 * max; terse's six decimals, "44150.967324"), formatted once. As in memo, the bits
 * of an empty slot are those of +0.0, never looked up. */
static __attribute__((noinline, unused)) char *fsc_num_frac_miss_wide(char *dst, double v, fsc_num_memo *slot,
                                                                      uint64_t bits, fsc_num_wide *wide)
{
    fsc_num_wide *w = &wide[(bits * 0x9E3779B97F4A7C15ULL) >> (64 - FSC_NUM_WIDE_LOG2)];
    if (w->bits == bits) {
        memcpy(dst, w->text, sizeof w->text);
        return dst + w->len;
    }
    return fsc_num_wide_miss(dst, v, slot, bits, w);
}

/* fsc_num_fmt of such a v through memo, returning the end of its text: the same few
 * non-integral values recur all through a document (the 0.01 to 100.00 of fio's
 * latency shares, its cpu and bandwidth figures): more than four in five of them
 * are found in 4096 slots (in 1024, three in four). The bits of an empty slot are
 * those of +0.0, which never comes here (integral): it never matches. wide: NULL
 * (a constant where inlined), or the slots of the texts memo cannot keep. */
static inline __attribute__((always_inline)) char *fsc_num_frac_put_wide(char *dst, double v, fsc_num_memo *memo,
                                                                          fsc_num_wide *wide)
{
    uint64_t bits;
    memcpy(&bits, &v, sizeof bits);
    fsc_num_memo *m = fsc_num_memo_slot(memo, bits);
    if (m->bits == bits)
        return fsc_num_memo_copy(dst, m);
    if (wide)
        return fsc_num_frac_miss_wide(dst, v, m, bits, wide);
    return fsc_num_frac_miss(dst, v, m, bits);
}

/* fsc_num_frac_put_wide with memo alone. */
static inline __attribute__((always_inline)) char *fsc_num_frac_put(char *dst, double v, fsc_num_memo *memo)
{
    return fsc_num_frac_put_wide(dst, v, memo, NULL);
}

/* fsc_num_fmt of any v through memo, integers too, returning the end of its text
 * (dst: FSC_NUM_MAX bytes of room): for a writer of numbers that recur as integers
 * (percentile latencies, which fio prints in steps of usec and msec: "35000",
 * "971000"), where a slot found costs less than making their digits. +0.0, the
 * bits of an empty slot, is written here, never looked up. */
static inline __attribute__((always_inline)) char *fsc_num_memo_put(char *dst, double v, fsc_num_memo *memo)
{
    uint64_t bits;
    memcpy(&bits, &v, sizeof bits);
    if (bits == 0) {
        dst[0] = '0';
        return dst + 1;
    }
    fsc_num_memo *m = fsc_num_memo_slot(memo, bits);
    if (m->bits == bits)
        return fsc_num_memo_copy(dst, m);
    return fsc_num_miss(dst, v, m, bits);
}

/* dst + fsc_num_fmt(dst, v) through memo and dst + fsc_u64_fmt(dst, u), out of line
 * (the calls are the last thing their callers do). */
char *fsc_num_put_other(char *dst, double v, fsc_num_memo *memo);
char *fsc_u64_put(char *dst, uint64_t u);

#define FSC_TWO53 9007199254740992ULL

/* fsc_num_put of v, or of num (NULL, a constant where inlined, or the fsc_num whose
 * v it is) its exact u when it has one. Such a num's v is 2^53 or more (the one
 * rounding of u to a double: fsc_num_u64): its u is looked at only where v's path
 * and an integer's below 2^53 part, not for each of the values before them. */
static inline __attribute__((always_inline)) char *fsc_num_put_of(char *dst, double v, const fsc_num *num,
                                                                   fsc_num_memo *memo, fsc_num_wide *wide)
{
#if defined(__SSE2__)
    int64_t i = _mm_cvttsd_si64(_mm_set_sd(v));
    if ((double)i != v) {
        if (num && num->exact) /* 2^63 and more: no int64 */
            return fsc_u64_put(dst, num->u);
        return fsc_num_frac_put_wide(dst, v, memo, wide);
    }
    uint64_t u = (uint64_t)i; /* a negative one is 2^63 or more */
    if (u < 10000) { /* two in five; a third of them one digit */
        if (u < 10) {
            dst[0] = (char)('0' + u);
            return dst + 1;
        }
        return dst + fsc_u64_fmt_lt1e4(dst, (uint32_t)u);
    }
    if (u < 100000000) /* most of the others */
        return dst + fsc_digits_1e4_1e8(dst, u);
    if (u < 10000000000ULL) /* byte counts, bandwidths in bytes: no call either */
        return dst + fsc_digits_1e8_1e10(dst, u);
    if (num && num->exact)
        return fsc_u64_put(dst, num->u);
    if (u < FSC_TWO53) /* from 2^53 on, fsc_num_fmt's shortest form ("1e+16") */
        return fsc_u64_put(dst, u);
#else
    if (num && num->exact)
        return fsc_u64_put(dst, num->u);
    if (v >= 0 && v < (double)FSC_TWO53) { /* not NaN: the conversion is defined */
        uint64_t u = (uint64_t)v;
        if ((double)u != v)
            return fsc_num_frac_put_wide(dst, v, memo, wide);
        return dst + fsc_u64_fmt_inline(dst, u);
    }
#endif
    return fsc_num_put_other(dst, v, memo);
}

/* dst + fsc_num_fmt(dst, v) through memo, the same bytes: integers in [0, 2^53) and
 * the values found in memo inline, the others by a call that is the last thing done
 * (dst: FSC_NUM_MAX bytes of room). No undefined conversion: cvttsd2si gives
 * INT64_MIN for what does not fit (NaN too), and v is an integer only if converting
 * it back gives v; without SSE2 the range is tested first. wide: as in
 * fsc_num_frac_put_wide. */
static inline __attribute__((always_inline)) char *fsc_num_put(char *dst, double v, fsc_num_memo *memo,
                                                                fsc_num_wide *wide)
{
    return fsc_num_put_of(dst, v, NULL, memo, wide);
}

#endif
