/* SPDX-License-Identifier: MIT */
/* Exact unit conversion, checked from a table of real fio tokens. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "fioscope/buf.h"
#include "fioscope/units.h"

/* xorshift64: the test inputs */
static uint64_t next_rand(uint64_t *x)
{
    *x ^= *x << 13;
    *x ^= *x >> 7;
    *x ^= *x << 17;
    return *x;
}

static const fsc_unit_rules modern = {FSC_ERA_MODERN, 1024};
static const fsc_unit_rules legacy = {FSC_ERA_LEGACY, 1024};

static void test_counts(void **state)
{
    static const struct {
        const char *in;
        double want;
    } ok[] = {
        {"15.0k", 15000.0}, {"244k", 244000.0},     {"2022.9K", 2022900.0},
        {"16.0M", 16000000.0}, {"9164 ", 9164.0}, {"10.1M", 10100000.0},
        {"0", 0.0},
    };
    (void)state;
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
        double got = -1;
        assert_int_equal(fsc_parse_count(ok[i].in, strlen(ok[i].in), &got), FSC_OK);
        assert_true(got == ok[i].want);
    }
    double x;
    assert_int_equal(fsc_parse_count("12x", 3, &x), FSC_E_SYNTAX);
    assert_int_equal(fsc_parse_count("", 0, &x), FSC_E_SYNTAX);
}

static void test_durations(void **state)
{
    double got;
    (void)state;
    assert_int_equal(fsc_parse_duration_ns("1765.7K", 7, "usec", 4, &got), FSC_OK);
    assert_true(got == 1765700000.0);
    assert_int_equal(fsc_parse_duration_ns("4019.02", 7, "usec", 4, &got), FSC_OK);
    assert_true(got == 4019020.0);
    assert_int_equal(fsc_parse_duration_ns("8092.9k", 7, "nsec", 4, &got), FSC_OK);
    assert_true(got == 8092900.0);
    assert_int_equal(fsc_parse_duration_ns("300924.89", 9, "nsec", 4, &got), FSC_OK);
    assert_true(got == 300924.89);
    assert_int_equal(fsc_parse_duration_ns("5", 1, "msec", 4, &got), FSC_OK);
    assert_true(got == 5000000.0);
    assert_int_equal(fsc_parse_duration_ns("5", 1, "fortnight", 9, &got), FSC_E_SYNTAX);
}

static void test_sizes(void **state)
{
    static const struct {
        const char *in;
        const fsc_unit_rules *r;
        bool rate;
        double want;
    } ok[] = {
        {"623KiB/s", &modern, true, 637952.0},
        {"638kB/s", &modern, true, 638000.0},
        {"4917KB/s", &legacy, true, 5035008.0},
        {"2600.4KB/s", &legacy, true, 2662809.6},
        {"564134 B/s", &legacy, true, 564134.0},
        {"58.7MiB", &modern, false, 61551411.2},
        {"1408KiB", &modern, false, 1441792.0},
        {"1442kB", &modern, false, 1442000.0},
        {"523520KB", &legacy, false, 536084480.0},
        {"29.8GiB", &modern, false, 31997506355.2},
        {"444308Kbit/s", &legacy, true, 56871424.0},
        {"1P", &legacy, false, 1099511627776.0}, /* fio <= 2.16: P is the 4th prefix */
        {"121Mi", &modern, true, 126877696.0},    /* pasted without "/s" */
    };
    (void)state;
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
        double got = -1;
        fsc_status st = ok[i].rate ? fsc_parse_rate(ok[i].in, strlen(ok[i].in), *ok[i].r, &got)
                                   : fsc_parse_size(ok[i].in, strlen(ok[i].in), *ok[i].r, &got);
        assert_int_equal(st, FSC_OK);
        if (got != ok[i].want)
            fail_msg("%s: got %.17g want %.17g", ok[i].in, got, ok[i].want);
    }
    double x;
    assert_int_equal(fsc_parse_rate("12.3XiB/s", 9, modern, &x), FSC_E_SYNTAX);
}

static void test_numbers_print(void **state)
{
    fsc_buf b = {0};
    (void)state;
    fsc_buf_num(&b, 61551001.6);
    fsc_buf_putc(&b, ' ');
    fsc_buf_num(&b, 15000.0);
    fsc_buf_putc(&b, ' ');
    fsc_buf_num(&b, 0.1);
    assert_string_equal(b.data, "61551001.6 15000 0.1");
    fsc_buf_free(&b);
}

/* Integers above 2^53 (wrapped 64-bit counters) stay exact through conversion and
 * printing; smaller ones and decimals are plain doubles as before. */
static void test_exact_integers(void **state)
{
    static const struct {
        const char *in;
        const char *want;
        bool exact;
    } cases[] = {
        {"18446744073709341660", "18446744073709341660", true},
        {"18446744073709551615", "18446744073709551615", true}, /* UINT64_MAX */
        {"9007199254740993", "9007199254740993", true},         /* 2^53 + 1 */
        {"9007199254740991", "9007199254740991", false},        /* below 2^53 */
        {"177", "177", false},
        {"12.5", "12.5", false},
    };
    (void)state;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        fsc_num n = {0};
        assert_int_equal(fsc_parse_plain_num(cases[i].in, strlen(cases[i].in), &n), FSC_OK);
        assert_true(n.set);
        assert_int_equal(n.exact, cases[i].exact);
        fsc_buf b = {0};
        fsc_buf_fnum(&b, &n);
        assert_string_equal(b.data, cases[i].want);
        fsc_buf_free(&b);
    }
    fsc_num n;
    /* one digit more than 64 bits hold: out of range, as before */
    assert_int_equal(fsc_parse_plain_num("18446744073709551616", 20, &n), FSC_E_RANGE);
    /* an exact product: 16 EiB - 1 KiB in bytes from a KiB count */
    assert_int_equal(fsc_parse_size_num("18014398509481983KiB", 20, modern, &n), FSC_OK);
    assert_true(n.exact && n.u == 18446744073709550592ULL);
    /* a fractional result is never "exact" */
    assert_int_equal(fsc_parse_scaled_num("9007199254740993.5", 18, 1, 1, &n), FSC_OK);
    assert_false(n.exact);
    /* fsc_num_u64 keeps small integers as plain doubles */
    n = fsc_num_u64(42);
    assert_true(n.set && !n.exact && n.v == 42);
    n = fsc_num_u64(UINT64_MAX);
    assert_true(n.exact && n.u == UINT64_MAX);
}

/* The printing of fsc_buf_num as it was written first (snprintf-free but plain),
 * the reference for the faster fsc_num_fmt. */
static void ref_num(char *out, size_t size, double v)
{
    if (!isfinite(v)) {
        snprintf(out, size, "null");
        return;
    }
    if (v == floor(v) && fabs(v) < 9007199254740992.0) {
        snprintf(out, size, "%.0f", v == 0 ? 0.0 : v);
        return;
    }
    static const double p10[] = {1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9};
    double av = fabs(v);
    for (int d = 1; d <= 9; d++) {
        double x = nearbyint(av * p10[d]);
        if (x >= 9007199254740992.0)
            break;
        if (x / p10[d] == av) {
            unsigned long long ix = (unsigned long long)x, den = (unsigned long long)p10[d];
            snprintf(out, size, "%s%llu.%0*llu", v < 0 ? "-" : "", ix / den, d, ix % den);
            return;
        }
    }
    snprintf(out, size, "%.15g", v);
    if (strtod(out, NULL) != v)
        snprintf(out, size, "%.17g", v);
}

/* fsc_num_fmt against the reference: decimals with few digits (what fio prints),
 * integers of every size, and random bit patterns. */
static void test_number_text(void **state)
{
    (void)state;
    uint64_t x = 88172645463325252ULL;
    for (int i = 0; i < 200000; i++) {
        next_rand(&x);
        double v;
        switch (i % 4) {
        case 0: v = (double)(x % 100000000) / 100.0; break;               /* 1234.56 */
        case 1: v = (double)(x % 1000000) / (double)(1 + x % 1000); break; /* anything */
        case 2: v = (double)(x >> (x % 64)); break;                        /* integers */
        default: memcpy(&v, &x, sizeof v); break;                           /* any bits */
        }
        if (i % 3 == 0)
            v = -v;
        char want[64], got[FSC_NUM_MAX + 1];
        ref_num(want, sizeof want, v);
        size_t n = fsc_num_fmt(got, v);
        got[n] = '\0';
        if (strcmp(want, got))
            fail_msg("%.17g: got %s want %s", v, got, want);
    }
}

/* An independent reading: the digits as a 128-bit number, with the rules applied
 * to it (64 bits at most, decimals past the 18th dropped). */
static fsc_status oracle_decimal(const char *s, size_t n, fsc_decimal *d, size_t *used)
{
    size_t i = n && (*s == '-' || *s == '+');
    const char *dot = NULL;
    size_t kept = 0;
    unsigned __int128 m = 0;
    *d = (fsc_decimal){0, 0, i && *s == '-'};
    for (; i < n; i++) {
        if (s[i] == '.' && !dot) {
            dot = s + i;
            continue;
        }
        if (!isdigit((unsigned char)s[i]))
            break;
        m = m * 10 + (unsigned)(s[i] - '0');
        if (m > UINT64_MAX)
            return FSC_E_RANGE;
        if (dot && d->scale == 18) {
            m /= 10; /* dropped, once it was seen to fit */
            continue;
        }
        d->scale += dot != NULL;
        kept++;
    }
    if (!kept)
        return FSC_E_SYNTAX;
    d->mant = (uint64_t)m;
    *used = i;
    return FSC_OK;
}

/* fsc_decimal_parse reads what the oracle reads: lengths around 18 to 21 digits,
 * points anywhere, signs, junk after. */
static void test_decimal_parse(void **state)
{
    (void)state;
    uint64_t x = 0x9E3779B97F4A7C15ULL;
    for (int t = 0; t < 100000; t++) {
        next_rand(&x);
        char buf[48];
        size_t n = 0;
        if (x % 5 == 0)
            buf[n++] = (x >> 8) % 2 ? '-' : '+';
        size_t len = 1 + (x >> 10) % 24, dot = (x >> 20) % 28;
        for (size_t k = 0; k < len; k++) {
            if (k == dot)
                buf[n++] = '.';
            buf[n++] = (char)('0' + ((x >> (k % 50)) ^ k) % 10);
            if ((x >> 30) % 3 == 0 && k < 19)
                buf[n - 1] = '9';
        }
        if ((x >> 40) % 4 == 0)
            buf[n++] = (x >> 42) % 2 ? 'k' : '.';
        fsc_decimal a = {0}, b = {0};
        size_t ua = 0, ub = 0;
        fsc_status sa = fsc_decimal_parse(buf, n, &a, &ua), sb = oracle_decimal(buf, n, &b, &ub);
        assert_int_equal(sa, sb);
        if (sa == FSC_OK) {
            assert_true(a.mant == b.mant);
            assert_int_equal(a.scale, b.scale);
            assert_int_equal(a.neg, b.neg);
            assert_int_equal(ua, ub);
        }
    }
}

/* Edge cases of fsc_num_fmt and fsc_u64_fmt against the references: zero (and -0),
 * every power of ten and its neighbours, the ends of 2^53 and of uint64_t, negative
 * numbers, fractions with 1 to 9 decimals (leading zeros among them), what has more
 * (%.15g / %.17g) and the non-finite values. */
static void check_num(double v)
{
    char want[64], got[FSC_NUM_MAX + 1];
    ref_num(want, sizeof want, v);
    memset(got, 'x', sizeof got);
    size_t n = fsc_num_fmt(got, v);
    assert_true(n <= FSC_NUM_MAX);
    got[n] = '\0';
    if (strcmp(want, got))
        fail_msg("%.17g: got %s want %s", v, got, want);
}

static void check_u64(uint64_t u)
{
    char want[32], got[FSC_NUM_MAX + 1];
    snprintf(want, sizeof want, "%llu", (unsigned long long)u);
    size_t n = fsc_u64_fmt(got, u);
    got[n] = '\0';
    if (strcmp(want, got))
        fail_msg("%s: got %s", want, got);
}

static void test_number_text_edges(void **state)
{
    (void)state;
    static const double fixed[] = {0.0, -0.0, 1.0, -1.0, 9.0, 10.0, 0.5, -0.5, 0.1, 0.01, 0.001, 1e-9,
                                   1.5e-9, 0.000000001, 0.123456789, 99.99, 100.01, 1234.5678, 0.05,
                                   4503599627370495.5, 9007199254740991.0, 9007199254740992.0,
                                   9007199254740993.0, -9007199254740991.0, -9007199254740992.0,
                                   18446744073709551615.0, 1e20, 1e21, 1e300, 5e-324, 2.2250738585072014e-308,
                                   1.7976931348623157e308, -1.7976931348623157e308, 0.3, 2.675, 1.0 / 3.0};
    for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++)
        check_num(fixed[i]);
    check_num(INFINITY);
    check_num(-INFINITY);
    check_num(NAN);
    uint64_t p = 1;
    for (int e = 0; e < 20; e++, p *= 10) {
        for (int d = -2; d <= 2; d++) {
            uint64_t u = p + (uint64_t)(int64_t)d;
            if (d < 0 && p < 3)
                continue;
            check_u64(u);
            check_num((double)u);
            check_num(-(double)u);
            for (int k = 1; k <= 9; k++) { /* u / 10^k: fractions with k decimals */
                check_num((double)u / pow(10, k));
                check_num(-(double)u / pow(10, k));
            }
        }
    }
    /* every decimal with 1 or 2 decimals below 10^4 (fsc_num_fmt's short path for
     * them, the pair table) and the first ones past it, both signs */
    for (int m = 0; m < 1000100; m++) {
        check_num(m / 100.0);
        check_num(-(m / 100.0));
    }
    /* the digit writers of fsc_u64_fmt, one for each of below 10^4, 10^4 to 10^8 and
     * 10^8 to 10^10 (every u below 10^10 was checked once, off line): all below 10^6,
     * then strides through the rest, and each writer's first and last */
    for (uint64_t u = 1; u < 100000000; u += u < 1000000 ? 1 : 997)
        check_u64(u);
    for (uint64_t u = 100000000; u < 10000000000ULL; u += 99991)
        check_u64(u);
    static const uint64_t edges[] = {9999, 10000, 99999999, 100000000, 9999999999ULL, 10000000000ULL,
                                     9999999999999999ULL, 10000000000000000ULL};
    for (size_t i = 0; i < sizeof edges / sizeof edges[0]; i++)
        check_u64(edges[i]);
    /* one and two decimals around where 10 or 100 times the value passes 2^52 and
     * 2^53 (the search for the fewest decimals starts at two) */
    static const double ends[] = {1125899906842624.0, 2251799813685248.0, 4503599627370496.0,
                                  9007199254740992.0};
    for (size_t e = 0; e < 4; e++)
        for (int scale = 10; scale <= 1000; scale *= 10)
            for (int64_t i = -3000; i <= 3000; i++) {
                double k = floor(ends[e] / scale) + (double)i;
                check_num(k / 10.0);
                check_num(k / 100.0);
                check_num(-k / 100.0);
            }
    check_u64(0);
    check_u64(UINT64_MAX);
    check_u64(UINT64_MAX - 1);
    check_u64((uint64_t)1 << 63);
    check_u64(((uint64_t)1 << 32) - 1);
    check_u64((uint64_t)1 << 32);
    uint64_t x = 0x9E3779B97F4A7C15ULL;
    for (int i = 0; i < 200000; i++) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        check_u64(x >> (x % 64));
        check_num((double)(x % 100000000) / 10.0);
        check_num((double)(x % 1000000000) / 1000.0);
        check_num(-(double)(x % 10000) / 100.0);
        double k = (double)((x >> (x % 64)) & ((1ULL << 53) - 1)); /* any size up to 2^53 */
        check_num(k / 10.0);
        check_num(k / 100.0);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_counts),
        cmocka_unit_test(test_durations),
        cmocka_unit_test(test_sizes),
        cmocka_unit_test(test_numbers_print),
        cmocka_unit_test(test_exact_integers),
        cmocka_unit_test(test_decimal_parse),
        cmocka_unit_test(test_number_text),
        cmocka_unit_test(test_number_text_edges),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
