/* SPDX-License-Identifier: MIT */
/*
 * Exact unit conversion of the numbers fio prints. Digits are read as an integer
 * with a decimal exponent and scaled in integer arithmetic, so "1765.7K" usec is
 * exactly 1765700000 ns; a double is made once, at the end.
 */
#ifndef FIOSCOPE_UNITS_H
#define FIOSCOPE_UNITS_H

#include "fioscope/common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* How size prefixes are read. fio before 2.17 prints K/M/G/P (no T!) meaning
 * kb_base (1024 unless the run said otherwise); from 2.17 "Ki" is 1024 and "k"/"K"
 * without "i" is 1000. */
typedef enum fsc_unit_era {
    FSC_ERA_LEGACY, /* fio <= 2.16 */
    FSC_ERA_MODERN  /* fio >= 2.17 */
} fsc_unit_era;

typedef struct fsc_unit_rules {
    fsc_unit_era era;
    unsigned kb_base; /* 1024 or 1000; legacy prefixes only */
} fsc_unit_rules;

/* A decimal number: value = mant / 10^scale. */
typedef struct fsc_decimal {
    uint64_t mant;
    unsigned scale;
    bool neg;
} fsc_decimal;

/* Read a decimal ("88.76", "-1", "12") at s[0..n). *used = bytes consumed.
 * Spaces inside are not accepted. */
fsc_status fsc_decimal_parse(const char *s, size_t n, fsc_decimal *d, size_t *used);
/* d * num / den, exactly rounded once. */
double fsc_decimal_scale(fsc_decimal d, uint64_t num, uint64_t den);
/* The same as a number of the model: an integer result above 2^53 is kept exactly
 * (fsc_num.exact, .u), so a 64-bit counter survives the conversion. */
fsc_num fsc_decimal_num(fsc_decimal d, uint64_t num, uint64_t den);
/* fsc_decimal_num's common cases for a decimal mant / 10^scale >= 0 times num, into
 * *dst; false (dst untouched) where they do not apply. Inline, for readers that convert
 * a value at a time (every result line's numbers). The cases: an integer result, and
 * a quotient p / 10^scale with p < 2^53 and scale <= 3, where one double division is
 * what fsc_decimal_num's long double one rounds to (the quotient is a midpoint of two
 * doubles or at least 2^-53 / 1000, relative, from any: farther than the long double's
 * own rounding step, 2^-64, so rounding twice cannot differ from rounding once). The
 * fields are stored one by one: a whole fsc_num built on the stack and copied as one
 * 16-byte load waits for the narrower stores that made it (a store-forwarding stall).
 * Integers below 2^53 (as good as all) are converted as signed ones, without the
 * unsigned conversion's test. */
static inline __attribute__((always_inline)) bool fsc_decimal_num_quick(uint64_t mant, unsigned scale, uint64_t num,
                                                                       fsc_num *dst)
{
    static const uint64_t p10[4] = {1, 10, 100, 1000};
    static const double p10d[4] = {1, 10, 100, 1000};
    uint64_t p;
    if (scale > 3 || __builtin_mul_overflow(mant, num, &p))
        return false;
    /* most values are integers as printed (scale 0): no division for them */
    if (scale == 0 || p % p10[scale] == 0) {
        uint64_t i = scale == 0 ? p : p / p10[scale];
        /* below 2^53 the double is the integer itself and no exact value is kept;
         * (double)i >= FSC_EXACT_MIN just when i >= 2^53 */
        if (i < (1ULL << 53)) {
            dst->v = (double)(int64_t)i;
            dst->set = true;
            dst->exact = false;
            dst->u = 0;
        } else {
            dst->v = (double)i;
            dst->set = true;
            dst->exact = true;
            dst->u = i;
        }
        return true;
    }
    if (p >= (1ULL << 53))
        return false;
    dst->v = (double)(int64_t)p / p10d[scale];
    dst->set = true;
    dst->exact = false;
    dst->u = 0;
    return true;
}

/* "15.0k" → 15000, "2022.9K" → 2022900, "8092.9k" → 8092900, "244" → 244.
 * The whole of s[0..n) must be consumed (surrounding spaces are allowed). */
fsc_status fsc_parse_count(const char *s, size_t n, double *out);
/* Bytes: "58.7MiB", "1408KiB", "1442kB", "523520KB", "512 B", "4096B", "64m". */
fsc_status fsc_parse_size(const char *s, size_t n, fsc_unit_rules r, double *out);
/* Bytes per second: "58.7MiB/s", "2600.4KB/s", "564134 B/s", "444308Kbit/s" (bits are
 * divided by 8), "121Mi" (a "/s" may be missing in pastes). */
fsc_status fsc_parse_rate(const char *s, size_t n, fsc_unit_rules r, double *out);
/* Latency value in a unit ("nsec", "usec", "msec", "sec", "ns", "us", "ms", "s"),
 * with an optional k/K/M suffix on the value → ns. */
fsc_status fsc_parse_duration_ns(const char *s, size_t n, const char *unit, size_t unit_len,
                                 double *out);
/* Power of a size prefix letter, either case: K=1, M=2, G=3, T=4, P=5, E=6; 0 if none
 * (inline, for readers that ask it a value at a time; fsc_size_power is the same). */
static inline int fsc_size_power_of(char c)
{
    switch (c) {
    case 'k':
    case 'K': return 1;
    case 'm':
    case 'M': return 2;
    case 'g':
    case 'G': return 3;
    case 't':
    case 'T': return 4;
    case 'p':
    case 'P': return 5;
    case 'e':
    case 'E': return 6;
    default: return 0;
    }
}
int fsc_size_power(char c);
/* Value of a count prefix letter: k/K 1000, M 10^6, G, T, P, E; 0 if not a prefix. */
uint64_t fsc_count_prefix(char c);
/* Nanoseconds per unit name; 0 if unknown. */
uint64_t fsc_unit_ns(const char *unit, size_t n);
/* "50.23%" or "50.23" → 50.23. */
fsc_status fsc_parse_pct(const char *s, size_t n, double *out);
/* Plain number times num/den, exactly rounded once: ("31", 1000, 1) → 31000. */
fsc_status fsc_parse_scaled(const char *s, size_t n, uint64_t num, uint64_t den, double *out);
/* Plain number, decimals allowed: "300924.89" → 300924.89. */
fsc_status fsc_parse_plain(const char *s, size_t n, double *out);

/* The conversions above into a number of the model, keeping integers above 2^53
 * exactly ("18446744073709341660" → exact, u = 18446744073709341660). */
fsc_status fsc_parse_count_num(const char *s, size_t n, fsc_num *out);
/* A size or rate as printed, read once; its value depends on the era only
 * (fsc_parse_size_num / _rate_num are fsc_bytes_read, then fsc_bytes_value). */
typedef struct fsc_bytes_text {
    fsc_decimal d;
    uint8_t power; /* of the prefix: K=1 .. E=6, 0 without one */
    bool iec, bits;
} fsc_bytes_text;
fsc_status fsc_bytes_read(const char *s, size_t n, bool rate, fsc_bytes_text *out);
/* Its unit part (what follows the number, spaces first); out->d is left as it is. */
fsc_status fsc_bytes_unit(const char *u, size_t un, bool rate, fsc_bytes_text *out);
fsc_num fsc_bytes_value(const fsc_bytes_text *b, fsc_unit_rules r);
fsc_status fsc_parse_size_num(const char *s, size_t n, fsc_unit_rules r, fsc_num *out);
fsc_status fsc_parse_rate_num(const char *s, size_t n, fsc_unit_rules r, fsc_num *out);
fsc_status fsc_parse_duration_num(const char *s, size_t n, const char *unit, size_t unit_len,
                                  fsc_num *out);
fsc_status fsc_parse_pct_num(const char *s, size_t n, fsc_num *out);
fsc_status fsc_parse_scaled_num(const char *s, size_t n, uint64_t num, uint64_t den, fsc_num *out);
fsc_status fsc_parse_plain_num(const char *s, size_t n, fsc_num *out);

#ifdef __cplusplus
}
#endif
#endif
