/* SPDX-License-Identifier: MIT */
/* Exact conversion of fio's printed numbers to base units. */
#include "fioscope/units.h"

#include <math.h>
#include <string.h>
#include <strings.h>

static const uint64_t pow10_tab[] = {1ULL,
                                     10ULL,
                                     100ULL,
                                     1000ULL,
                                     10000ULL,
                                     100000ULL,
                                     1000000ULL,
                                     10000000ULL,
                                     100000000ULL,
                                     1000000000ULL,
                                     10000000000ULL,
                                     100000000000ULL,
                                     1000000000000ULL,
                                     10000000000000ULL,
                                     100000000000000ULL,
                                     1000000000000000ULL,
                                     10000000000000000ULL,
                                     100000000000000000ULL,
                                     1000000000000000000ULL};

static void trim(const char **s, size_t *n)
{
    while (*n && (**s == ' ' || **s == '\t')) {
        (*s)++;
        (*n)--;
    }
    while (*n && ((*s)[*n - 1] == ' ' || (*s)[*n - 1] == '\t'))
        (*n)--;
}

fsc_status fsc_decimal_parse(const char *s, size_t n, fsc_decimal *d, size_t *used)
{
    size_t i = 0;
    d->mant = 0;
    d->scale = 0;
    d->neg = false;
    if (i < n && (s[i] == '-' || s[i] == '+')) {
        d->neg = s[i] == '-';
        i++;
    }
    size_t digits = 0;
    bool point = false;
    /* the first 18 digits can neither overflow nor pass 18 decimals: no checks */
    for (; i < n && digits < 18; i++) {
        char c = s[i];
        if (c >= '0' && c <= '9') {
            d->mant = d->mant * 10 + (uint64_t)(c - '0');
            d->scale += point;
            digits++;
        } else if (c == '.' && !point) {
            point = true;
        } else {
            break;
        }
    }
    for (; i < n && digits >= 18; i++) {
        char c = s[i];
        if (c >= '0' && c <= '9') {
            uint64_t digit = (uint64_t)(c - '0');
            if (d->mant > UINT64_MAX / 10 || (d->mant == UINT64_MAX / 10 && digit > UINT64_MAX % 10))
                return FSC_E_RANGE; /* every 64-bit integer is read; one more digit is not */
            if (point) {
                if (d->scale >= 18)
                    continue; /* beyond double precision anyway: drop the digit */
                d->scale++;
            }
            d->mant = d->mant * 10 + digit;
            digits++;
        } else if (c == '.' && !point) {
            point = true;
        } else {
            break;
        }
    }
    if (digits == 0)
        return FSC_E_SYNTAX;
    *used = i;
    return FSC_OK;
}

/* fsc_decimal_num, inline for the callers in this file (a size or rate a value of
 * every result line: the call and its returned struct cost a fifth of it). */
static inline __attribute__((always_inline)) fsc_num decimal_num(fsc_decimal d, uint64_t num, uint64_t den)
{
    fsc_num r = {0, true, false, 0};
    uint64_t p64, q64;
    /* the common case in 64 bits (the same results as the 128-bit way below) */
    if (!__builtin_mul_overflow(d.mant, num, &p64) && !__builtin_mul_overflow(pow10_tab[d.scale], den, &q64) &&
        q64 != 0) {
        if (q64 == 1 || p64 % q64 == 0) {
            uint64_t i = q64 == 1 ? p64 : p64 / q64;
            r.v = (double)i; /* exact integer: one rounding at most */
            if (!d.neg && r.v >= FSC_EXACT_MIN) {
                r.exact = true; /* a double cannot hold every integer this large */
                r.u = i;
            }
        } else {
            /* long double keeps 64 bits of mantissa, so the result rounds once in practice */
            r.v = (double)((long double)p64 / (long double)q64);
        }
        if (d.neg)
            r.v = -r.v;
        return r;
    }
    unsigned __int128 p = (unsigned __int128)d.mant * num;
    unsigned __int128 q = (unsigned __int128)pow10_tab[d.scale] * den;
    if (q != 0 && p % q == 0) {
        unsigned __int128 i = p / q;
        r.v = (double)i; /* exact integer: one rounding at most */
        if (!d.neg && i <= UINT64_MAX && r.v >= FSC_EXACT_MIN) {
            r.exact = true;
            r.u = (uint64_t)i;
        }
    } else {
        r.v = (double)((long double)p / (long double)q);
    }
    if (d.neg)
        r.v = -r.v;
    return r;
}

fsc_num fsc_decimal_num(fsc_decimal d, uint64_t num, uint64_t den)
{
    return decimal_num(d, num, den);
}

double fsc_decimal_scale(fsc_decimal d, uint64_t num, uint64_t den)
{
    return decimal_num(d, num, den).v;
}

uint64_t fsc_count_prefix(char c)
{
    switch (c) {
    case 'k':
    case 'K': return 1000ULL;
    case 'M': return 1000000ULL;
    case 'G': return 1000000000ULL;
    case 'T': return 1000000000000ULL;
    case 'P': return 1000000000000000ULL;
    case 'E': return 1000000000000000000ULL;
    default: return 0;
    }
}

/* A decimal with an optional count suffix ("8092.9k"): the digits and the multiplier. */
static fsc_status parse_suffixed(const char *s, size_t n, fsc_decimal *d, uint64_t *mul)
{
    trim(&s, &n);
    size_t used;
    fsc_status st = fsc_decimal_parse(s, n, d, &used);
    if (st != FSC_OK)
        return st;
    *mul = 1;
    if (used < n) {
        *mul = fsc_count_prefix(s[used]);
        if (!*mul || used + 1 != n)
            return FSC_E_SYNTAX;
    }
    return FSC_OK;
}

fsc_status fsc_parse_count_num(const char *s, size_t n, fsc_num *out)
{
    fsc_decimal d;
    uint64_t mul;
    fsc_status st = parse_suffixed(s, n, &d, &mul);
    if (st == FSC_OK)
        *out = decimal_num(d, mul, 1);
    return st;
}

/* The double of a _num conversion (out untouched on failure, as before). */
static fsc_status as_double(fsc_status st, const fsc_num *v, double *out)
{
    if (st == FSC_OK)
        *out = v->v;
    return st;
}

fsc_status fsc_parse_count(const char *s, size_t n, double *out)
{
    fsc_num v = {0};
    fsc_status st = fsc_parse_count_num(s, n, &v);
    return as_double(st, &v, out);
}

int fsc_size_power(char c)
{
    return fsc_size_power_of(c);
}

static uint64_t ipow(uint64_t b, int e)
{
    uint64_t r = 1;
    while (e-- > 0)
        r *= b;
    return r;
}

/* Read "<num>[ ]<prefix>[i](B|bit)?" ; rate: also a trailing "/s". */
fsc_status fsc_bytes_read(const char *s, size_t n, bool rate, fsc_bytes_text *out)
{
    trim(&s, &n);
    size_t used;
    fsc_status st = fsc_decimal_parse(s, n, &out->d, &used);
    if (st != FSC_OK)
        return st;
    return fsc_bytes_unit(s + used, n - used, rate, out);
}

fsc_status fsc_bytes_unit(const char *u, size_t un, bool rate, fsc_bytes_text *out)
{
    while (un && *u == ' ') {
        u++;
        un--;
    }
    if (rate && un >= 2 && u[un - 2] == '/' && u[un - 1] == 's')
        un -= 2;
    int power = 0;
    bool iec = false, bits = false;
    if (un && fsc_size_power(*u)) {
        power = fsc_size_power(*u);
        u++;
        un--;
        if (un && *u == 'i') {
            iec = true;
            u++;
            un--;
        }
    }
    if (un == 1 && (*u == 'B' || *u == 'b')) {
        un = 0;
    } else if (un == 3 && strncmp(u, "bit", 3) == 0) {
        bits = true;
        un = 0;
    }
    if (un != 0)
        return FSC_E_SYNTAX;
    out->power = (uint8_t)power;
    out->iec = iec;
    out->bits = bits;
    return FSC_OK;
}

/* fsc_bytes_value of what its fast path leaves: fio's legacy prefixes, bits, more
 * than 3 decimals, a product past 64 bits or a quotient without one rounding. */
static __attribute__((noinline)) fsc_num bytes_value_slow(const fsc_bytes_text *b, fsc_unit_rules r)
{
    int power = b->power;
    /* Before 2.17 the 4th prefix printed was 'P' (no 'T' in the table), so P = base^4. */
    if (r.era == FSC_ERA_LEGACY && power >= 5)
        power--;
    uint64_t base;
    if (r.era == FSC_ERA_LEGACY)
        base = r.kb_base ? r.kb_base : 1024;
    else
        base = b->iec ? 1024 : 1000;
    return decimal_num(b->d, ipow(base, power), b->bits ? 8 : 1);
}

/* A size or rate of every result line (bw=, io=, the group lines: some 100k calls in
 * 30 MB of fio 3.x text): the modern prefixes from tables, and decimal_num's common
 * cases (fsc_decimal_num_quick) without its 128-bit and long double ways (or the
 * registers they keep). */
fsc_num fsc_bytes_value(const fsc_bytes_text *b, fsc_unit_rules r)
{
    static const uint64_t pow1000[7] = {1ULL, 1000ULL, 1000000ULL, 1000000000ULL, 1000000000000ULL,
                                        1000000000000000ULL, 1000000000000000000ULL};
    unsigned power = b->power;
    fsc_num v;
    if (r.era != FSC_ERA_LEGACY && power <= 6 && !b->bits &&
        fsc_decimal_num_quick(b->d.mant, b->d.scale, b->iec ? (uint64_t)1 << (10 * power) : pow1000[power], &v)) {
        if (b->d.neg) { /* a negative value keeps no exact integer */
            v.v = -v.v;
            v.exact = false;
            v.u = 0;
        }
        return v;
    }
    return bytes_value_slow(b, r);
}

static fsc_status parse_bytes(const char *s, size_t n, fsc_unit_rules r, bool rate, fsc_num *out)
{
    fsc_bytes_text b;
    fsc_status st = fsc_bytes_read(s, n, rate, &b);
    if (st == FSC_OK)
        *out = fsc_bytes_value(&b, r);
    return st;
}

fsc_status fsc_parse_size_num(const char *s, size_t n, fsc_unit_rules r, fsc_num *out)
{
    return parse_bytes(s, n, r, false, out);
}

fsc_status fsc_parse_rate_num(const char *s, size_t n, fsc_unit_rules r, fsc_num *out)
{
    return parse_bytes(s, n, r, true, out);
}

fsc_status fsc_parse_size(const char *s, size_t n, fsc_unit_rules r, double *out)
{
    fsc_num v = {0};
    fsc_status st = parse_bytes(s, n, r, false, &v);
    return as_double(st, &v, out);
}

fsc_status fsc_parse_rate(const char *s, size_t n, fsc_unit_rules r, double *out)
{
    fsc_num v = {0};
    fsc_status st = parse_bytes(s, n, r, true, &v);
    return as_double(st, &v, out);
}

uint64_t fsc_unit_ns(const char *unit, size_t n)
{
    static const struct {
        const char *name;
        uint64_t ns;
    } tab[] = {{"nsec", 1},      {"ns", 1},       {"usec", 1000},       {"us", 1000},
               {"µs", 1000},     {"msec", 1000000}, {"ms", 1000000},    {"sec", 1000000000},
               {"s", 1000000000}};
    for (size_t i = 0; i < FSC_ARRAY_SIZE(tab); i++)
        if (strlen(tab[i].name) == n && strncasecmp(tab[i].name, unit, n) == 0)
            return tab[i].ns;
    return 0;
}

fsc_status fsc_parse_duration_num(const char *s, size_t n, const char *unit, size_t unit_len,
                                  fsc_num *out)
{
    uint64_t ns = fsc_unit_ns(unit, unit_len);
    if (!ns)
        return FSC_E_SYNTAX;
    fsc_decimal d;
    uint64_t mul;
    fsc_status st = parse_suffixed(s, n, &d, &mul);
    if (st != FSC_OK)
        return st;
    if (mul > UINT64_MAX / ns)
        return FSC_E_RANGE;
    *out = fsc_decimal_num(d, mul * ns, 1);
    return FSC_OK;
}

fsc_status fsc_parse_duration_ns(const char *s, size_t n, const char *unit, size_t unit_len,
                                 double *out)
{
    fsc_num v = {0};
    fsc_status st = fsc_parse_duration_num(s, n, unit, unit_len, &v);
    return as_double(st, &v, out);
}

fsc_status fsc_parse_pct_num(const char *s, size_t n, fsc_num *out)
{
    trim(&s, &n);
    if (n && s[n - 1] == '%')
        n--;
    return fsc_parse_plain_num(s, n, out);
}

fsc_status fsc_parse_pct(const char *s, size_t n, double *out)
{
    fsc_num v = {0};
    fsc_status st = fsc_parse_pct_num(s, n, &v);
    return as_double(st, &v, out);
}

/* The plain and scaled readings, inlined into each entry point (JSON reads many
 * numbers through fsc_parse_plain). */
static inline fsc_status scaled_num(const char *s, size_t n, uint64_t num, uint64_t den, fsc_num *out)
{
    trim(&s, &n);
    fsc_decimal d;
    size_t used;
    fsc_status st = fsc_decimal_parse(s, n, &d, &used);
    if (st != FSC_OK)
        return st;
    if (used != n)
        return FSC_E_SYNTAX;
    *out = fsc_decimal_num(d, num, den);
    return FSC_OK;
}

fsc_status fsc_parse_scaled_num(const char *s, size_t n, uint64_t num, uint64_t den, fsc_num *out)
{
    return scaled_num(s, n, num, den, out);
}

fsc_status fsc_parse_scaled(const char *s, size_t n, uint64_t num, uint64_t den, double *out)
{
    fsc_num v = {0};
    fsc_status st = scaled_num(s, n, num, den, &v);
    return as_double(st, &v, out);
}

fsc_status fsc_parse_plain_num(const char *s, size_t n, fsc_num *out)
{
    return scaled_num(s, n, 1, 1, out);
}

fsc_status fsc_parse_plain(const char *s, size_t n, double *out)
{
    fsc_num v = {0};
    fsc_status st = scaled_num(s, n, 1, 1, &v);
    return as_double(st, &v, out);
}
