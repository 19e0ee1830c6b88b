/* SPDX-License-Identifier: MIT */
/*
 * The fast reader of fio JSON: the run json_in.c builds, read straight from the text
 * without building a cJSON tree. It mirrors json_in.c step for step (which members
 * are read, in which order, first or last of duplicate keys, the unit of each era)
 * and accepts only strict JSON without string escapes, raw control bytes, numbers of
 * more than 63 characters or nesting deeper than 64 levels: a subset of what cJSON
 * reads. Everything else (and every non-fio document) is left to json_in.c, the
 * reference (tests/fuzz/fuzz_fastpath.c compares the two).
 */
#include "fastline.h"
#include "parse_int.h"

#include "fioscope/units.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

enum { MAX_DEPTH = 64, MAX_NUMBER = 63 };

/* A cursor over the text; `bad` once anything is outside the accepted subset. */
typedef struct jr {
    const char *p, *e;
    int depth;
    bool bad;
} jr;

/* A scalar value: its kind and, for strings, the raw bytes; for numbers the double
 * (strtod's) and the integer literal's digits (NULL when not an integer). */
typedef enum jkind { J_NONE, J_OBJ, J_ARR, J_STR, J_NUM, J_TRUE, J_FALSE, J_NULL } jkind;
typedef struct jval {
    jkind kind;
    const char *s; /* string bytes, number text */
    size_t n;
    double num;
    bool integer; /* an integer literal (digits only) */
} jval;

/* cJSON skips every byte up to ' ' as whitespace (pretty JSON: runs of spaces). */
static inline void ws(jr *r)
{
    while (r->p < r->e && (unsigned char)*r->p <= ' ')
        r->p = *r->p == ' ' ? fsc_skip_spaces(r->p, r->e) : r->p + 1;
}

static inline bool eat(jr *r, char c)
{
    ws(r);
    if (r->p < r->e && *r->p == c) {
        r->p++;
        return true;
    }
    return false;
}

/* The first byte of [p, e) that is '"', '\\' or a control byte: sixteen a step
 * where there is SSE2, then eight. */
static inline const char *string_stop(const char *p, const char *e)
{
#if defined(__SSE2__)
    const __m128i quote = _mm_set1_epi8('"'), bslash = _mm_set1_epi8('\\'), space = _mm_set1_epi8(0x20);
    while (e - p >= 16) {
        __m128i x = _mm_loadu_si128((const __m128i *)(const void *)p);
        /* signed: bytes from 0x80 are below ' ' too; they are no stop (UTF-8) */
        __m128i hit = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(x, quote), _mm_cmpeq_epi8(x, bslash)),
                                   _mm_cmplt_epi8(x, space));
        unsigned m = (unsigned)_mm_movemask_epi8(hit);
        if (!m) {
            p += 16;
            continue;
        }
        p += __builtin_ctz(m);
        if ((unsigned char)*p < 0x80)
            return p;
        p++;
    }
#endif
    while (e - p >= 8) {
        uint64_t w = fsc_load_le64(p);
        /* a '"' or '\\', or a byte below 0x20 (its high bit clear after -0x20, for
         * bytes under 0x80) */
        uint64_t hit = fsc_zero_bytes(w ^ FSC_BYTES_OF('"')) | fsc_zero_bytes(w ^ FSC_BYTES_OF('\\')) |
                       ((w - FSC_BYTES_OF(0x20)) & ~w & FSC_BYTES_OF(0x80));
        if (hit)
            return p + (__builtin_ctzll(hit) >> 3);
        p += 8;
    }
    while (p < e && *p != '"' && *p != '\\' && (unsigned char)*p >= 0x20)
        p++;
    return p;
}

/* A string without escapes or control bytes: its bytes (r->p at the quote). */
static inline __attribute__((always_inline)) bool string(jr *r, const char **s, size_t *n)
{
    const char *start = r->p + 1, *q = string_stop(start, r->e);
    if (q >= r->e || *q != '"') {
        r->bad = true; /* escapes (decoded by cJSON), raw controls, no end: json_in.c */
        return false;
    }
    *s = start;
    *n = (size_t)(q - start);
    r->p = q + 1;
    return true;
}

static const double p10[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
                             1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

/* A strict JSON number; v is what strtod makes of it (cJSON's valuedouble). */
static bool number(jr *r, jval *v)
{
    const char *p = r->p, *s = p, *e = r->e;
    bool neg = false;
    if (p < e && *p == '-') {
        neg = true;
        p++;
    }
    const char *ip = p;
    uint64_t m = 0;
    int sig = 0, exp10 = 0;
    if (p < e && *p == '0') {
        p++;
    } else {
        while (p < e && *p >= '0' && *p <= '9') {
            if (sig < 19) {
                m = m * 10 + (uint64_t)(*p - '0');
                sig += m != 0;
            } else {
                exp10++;
            }
            p++;
        }
    }
    if (p == ip) {
        r->bad = true;
        return false;
    }
    v->integer = !neg;
    if (p < e && *p == '.') {
        v->integer = false;
        const char *f = ++p;
        while (p < e && *p >= '0' && *p <= '9') {
            if (sig < 19) {
                m = m * 10 + (uint64_t)(*p - '0');
                sig += m != 0;
                exp10--;
            }
            p++;
        }
        if (p == f) {
            r->bad = true;
            return false;
        }
    }
    if (p < e && (*p == 'e' || *p == 'E')) {
        v->integer = false;
        p++;
        bool eneg = false;
        if (p < e && (*p == '+' || *p == '-'))
            eneg = *p++ == '-';
        const char *d = p;
        int x = 0;
        while (p < e && *p >= '0' && *p <= '9') {
            if (x < 10000)
                x = x * 10 + (*p - '0');
            p++;
        }
        if (p == d) {
            r->bad = true;
            return false;
        }
        exp10 += eneg ? -x : x;
    }
    /* cJSON copies at most 63 characters of [0-9+-.eE] for strtod */
    if (p - s > MAX_NUMBER || (p < e && (*p == '+' || *p == '-' || *p == '.' || *p == 'e' || *p == 'E'))) {
        r->bad = true;
        return false;
    }
    v->kind = J_NUM;
    v->s = s;
    v->n = (size_t)(p - s);
    r->p = p;
    /* one correctly rounded operation of two exact doubles is strtod's result */
    if (sig <= 15 && m < (1ULL << 53) && exp10 >= -22 && exp10 <= 22) {
        double d = (double)m;
        d = exp10 >= 0 ? d * p10[exp10] : d / p10[-exp10];
        v->num = neg ? -d : d;
        return true;
    }
    char tmp[MAX_NUMBER + 1];
    memcpy(tmp, s, v->n);
    tmp[v->n] = '\0';
    v->num = strtod(tmp, NULL);
    return true;
}

/* number() for most of fio's numbers ("0", "1954592", "3.48", "891968.00"): no sign,
 * no exponent, at most 15 digits in all, so that every digit is in m (sig <= 15,
 * m < 2^53, exp10 >= -15) and the value is number()'s, m over a power of ten.
 * false: number() reads it (nothing was changed). */
static inline bool number_short(jr *r, jval *v)
{
    const char *s = r->p, *p = s;
    if (r->e - p < 40)
        return false;
    uint64_t m = (uint64_t)(*p++ - '0');
    if (m)
        while ((unsigned)(*p - '0') < 10 && p - s < 15)
            m = m * 10 + (uint64_t)(*p++ - '0');
    unsigned frac = 0;
    if (*p == '.') {
        const char *f = ++p;
        while ((unsigned)(*p - '0') < 10 && p - s < 16)
            m = m * 10 + (uint64_t)(*p++ - '0');
        frac = (unsigned)(p - f);
        if (!frac)
            return false;
    }
    if ((unsigned)(*p - '0') < 10) /* more than 15 digits, or "0" and more */
        return false;
    if (*p == '.' || *p == 'e' || *p == 'E' || *p == '+' || *p == '-')
        return false;
    v->kind = J_NUM;
    v->s = s;
    v->n = (size_t)(p - s);
    v->integer = !frac;
    v->num = frac ? (double)m / p10[frac] : (double)m;
    r->p = p;
    return true;
}

/* A value: scalars are read; for an object or array r->p is left after its
 * opening bracket (the caller walks it). */
static inline __attribute__((always_inline)) void value(jr *r, jval *v)
{
    ws(r);
    v->kind = J_NONE;
    if (r->p >= r->e) {
        r->bad = true;
        return;
    }
    switch (*r->p) {
    case '{':
    case '[':
        if (++r->depth > MAX_DEPTH) {
            r->bad = true;
            return;
        }
        v->kind = *r->p == '{' ? J_OBJ : J_ARR;
        v->s = r->p++;
        return;
    case '"':
        if (string(r, &v->s, &v->n))
            v->kind = J_STR;
        return;
    case 't':
    case 'f':
    case 'n': {
        static const struct {
            const char *lit;
            size_t n;
            jkind kind;
        } lits[] = {{"true", 4, J_TRUE}, {"false", 5, J_FALSE}, {"null", 4, J_NULL}};
        for (size_t i = 0; i < 3; i++)
            if ((size_t)(r->e - r->p) >= lits[i].n && !memcmp(r->p, lits[i].lit, lits[i].n)) {
                r->p += lits[i].n;
                v->kind = lits[i].kind;
                return;
            }
        r->bad = true;
        return;
    }
    default:
        if (*r->p >= '0' && *r->p <= '9' && number_short(r, v))
            return;
        if (*r->p == '-' || (*r->p >= '0' && *r->p <= '9'))
            number(r, v);
        else
            r->bad = true;
        return;
    }
}

/* The end of a line's indentation from p (e - p >= 16): fio's pretty JSON indents
 * by levels of 2 or more spaces, so the words start at p itself. */
static inline const char *indent(const char *p, const char *e)
{
    uint64_t x = fsc_load_le64(p) ^ 0x2020202020202020ULL; /* zero bytes where the spaces are */
    if (x)
        return p + (__builtin_ctzll(x) >> 3);
    x = fsc_load_le64(p + 8) ^ 0x2020202020202020ULL;
    if (x)
        return p + 8 + (__builtin_ctzll(x) >> 3);
    return fsc_skip_spaces(p + 16, e);
}

/* The next member of the object being walked: false at its end (or when bad).
 * *first: no member read yet (no comma before this one). */
static bool member(jr *r, bool *first, const char **key, size_t *kn, jval *v)
{
    if (r->bad)
        return false;
    /* fio's layout first: ",\n", the indentation, the key's quote. Anything else
     * (the first member, the end of the object, other blanks) takes the whole way
     * from where the member starts, which reads the same bytes the same way */
    const char *p = r->p, *e = r->e;
    if (!*first && e - p >= 18 && p[0] == ',' && p[1] == '\n') {
        p = indent(p + 2, e);
        /* in locals: a store through key could be one to r->p, to the compiler */
        const char *q = p < e && *p == '"' ? string_stop(p + 1, e) : e;
        if (e - q >= 4 && q[0] == '"' && q[1] == ' ' && q[2] == ':' && q[3] == ' ') {
            *key = p + 1;
            *kn = (size_t)(q - p - 1);
            *first = false;
            r->p = q + 4;
            value(r, v);
            return !r->bad;
        }
    }
    /* compact JSON (fioscope's own --jsonl, jq -c): ,"key": (or "key": first), the
     * same bytes read the same way as below, without its calls */
    if (e - p >= 4 && (p[0] == '"' ? *first : !*first && p[0] == ',' && p[1] == '"')) {
        const char *k = p + 1 + (p[0] == ','), *q = string_stop(k, e);
        if (e - q >= 2 && q[0] == '"' && q[1] == ':') {
            *key = k;
            *kn = (size_t)(q - k);
            *first = false;
            r->p = q + 2;
            value(r, v);
            return !r->bad;
        }
    }
    ws(r);
    if (r->p < r->e && *r->p == '}') {
        r->p++;
        r->depth--;
        return false;
    }
    if (!*first && !eat(r, ',')) {
        r->bad = true;
        return false;
    }
    ws(r);
    *first = false;
    if (r->p >= r->e || *r->p != '"' || !string(r, key, kn)) {
        r->bad = true;
        return false;
    }
    if (r->e - r->p >= 3 && r->p[0] == ' ' && r->p[1] == ':' && r->p[2] == ' ')
        r->p += 3; /* fio's " : " */
    else if (!eat(r, ':')) {
        r->bad = true;
        return false;
    }
    value(r, v);
    return !r->bad;
}

/* The next element of the array being walked. */
static bool element(jr *r, bool *first, jval *v)
{
    if (r->bad)
        return false;
    ws(r);
    if (r->p < r->e && *r->p == ']') {
        r->p++;
        r->depth--;
        return false;
    }
    if (!*first && !eat(r, ',')) {
        r->bad = true;
        return false;
    }
    *first = false;
    value(r, v);
    return !r->bad;
}

static inline bool is_open(const jval *v)
{
    return v->kind == J_OBJ || v->kind == J_ARR;
}

/* Walk an object or array value() left open, to its end. */
static void skip_open_walk(jr *r, const jval *v)
{
    bool first = true;
    jval x;
    const char *k;
    size_t kn;
    if (v->kind == J_OBJ) {
        while (member(r, &first, &k, &kn, &x))
            if (is_open(&x))
                skip_open_walk(r, &x);
    } else {
        while (element(r, &first, &x))
            if (is_open(&x))
                skip_open_walk(r, &x);
    }
}

/* Skip what value() left open (an object or array); scalars are already read (most
 * values: no call for them). */
static inline void skip_open(jr *r, const jval *v)
{
    if (is_open(v))
        skip_open_walk(r, v);
}

static inline bool key_is(const char *k, size_t kn, const char *lit)
{
    size_t n = strlen(lit);
    return kn == n && !memcmp(k, lit, n);
}

/* ---- json_in.c's readers, over the text ---- */

typedef struct jctx {
    jr r;
    fsc_run *run;
    bool agg_is_mean, io_in_bytes, agg_dropped, oom;
} jctx;

static fsc_num num_of(const jval *v, uint64_t mul)
{
    /* A fraction of at most 15 digits, scaled (usec to ns): fsc_json_exact_mul gets
     * its decimal back from "%.15g", which gives these very digits (less trailing
     * zeros: the same ratio, scaled in 64 bits either way) unless the number is
     * below 1e-4 (written with an exponent, then multiplied). Read them here. */
    if (mul != 1 && !v->integer && v->n <= 17 && v->num != floor(v->num) && fabs(v->num) >= 1e-4 &&
        v->n - (v->s[0] == '-') <= 16 && !memchr(v->s, 'e', v->n) && !memchr(v->s, 'E', v->n)) {
        fsc_decimal d;
        size_t used = 0;
        if (fsc_decimal_parse(v->s, v->n, &d, &used) == FSC_OK && used == v->n)
            return fsc_num_of(fsc_decimal_scale(d, mul, 1));
    }
    /* the digits matter only where a double loses integers (mul is at most 1024) */
    bool digits = v->integer && fabs(v->num) >= FSC_EXACT_MIN / 1024;
    if (!digits && mul == 1) /* fsc_json_number's result then, without its calls */
        return fsc_num_of(v->num);
    return fsc_json_number(v->num, digits ? v->s : NULL, digits ? v->n : 0, mul);
}

/* take_num: a finite number sets *dst. */
static bool take_num(fsc_num *dst, const jval *v, uint64_t mul)
{
    if (v->kind != J_NUM || !isfinite(v->num))
        return false;
    *dst = num_of(v, mul);
    return true;
}

/* A number into the field of tab named k. fio writes an object's members in the
 * order of the table, mostly: the entry after the last one found (*next) is tried
 * before the search (names are unique in a table: the same entry either way). */
static void take_field(void *base, const fsc_field *tab, size_t n, size_t *next, const char *k, size_t kn,
                       const jval *v, uint64_t mul)
{
    if (v->kind != J_NUM)
        return;
    const fsc_field *f = tab + *next;
    if (!(*next < n && kn && f->name_len == kn && !memcmp(f->name, k, kn)))
        f = fsc_field_find(tab, n, k, kn);
    if (f) {
        *next = (size_t)(f - tab) + 1;
        take_num(fsc_field_ptr(base, f), v, mul);
    }
}

/* take_str; a key inside a string is no key (NUL bytes were refused). */
static void take_str(jctx *cx, char **dst, const jval *v)
{
    if (v->kind != J_STR)
        return;
    free(*dst);
    *dst = fsc_strndup(v->s, v->n);
    if (!*dst)
        cx->oom = true;
}

/* key_number: the key read as a plain decimal ("99.000000", "1216"). Keys of at most
 * 18 digits and one point (fio's) are read here with fsc_parse_plain's arithmetic
 * (fsc_decimal_num of mantissa and scale: an exact integer, or one long double
 * division); the others by fsc_parse_plain itself. */
static bool key_number(const char *k, size_t kn, double *out)
{
    uint64_t m = 0, q = 1;
    size_t i = 0;
    unsigned d;
    /* the integer part, then the fraction's digits (each scales q); more than 18
     * digits (m may wrap then) go to fsc_parse_plain, as anything else does */
    while (i < kn && (d = (unsigned)(unsigned char)k[i] - '0') < 10) {
        m = m * 10 + d;
        i++;
    }
    size_t digits = i;
    if (i < kn && k[i] == '.') {
        size_t f = ++i;
        while (i < kn && (d = (unsigned)(unsigned char)k[i] - '0') < 10) {
            m = m * 10 + d;
            q *= 10;
            i++;
        }
        digits += i - f;
    }
    if (i < kn || !digits || digits > 18)
        return fsc_parse_plain(k, kn, out) == FSC_OK && isfinite(*out);
    *out = q == 1 ? (double)m : m % q == 0 ? (double)(m / q) : (double)((long double)m / (long double)q);
    return true;
}

/* read_percentiles: all members are looked at first (all_zero, as json_in.c's),
 * then added. */
static void read_percentiles(jctx *cx, fsc_lat *lat, uint64_t mul)
{
    struct item {
        const char *k;
        size_t kn;
        jval v;
    } items[64];
    size_t n = 0;
    bool first = true, zero = true;
    const char *k;
    size_t kn;
    jval v;
    while (member(&cx->r, &first, &k, &kn, &v)) {
        if (v.kind == J_NUM && v.num != 0)
            zero = false;
        if (n == FSC_ARRAY_SIZE(items)) {
            cx->r.bad = true; /* a longer list: json_in.c reads it */
            return;
        }
        items[n++] = (struct item){k, kn, v};
        skip_open(&cx->r, &v);
    }
    if (cx->r.bad || (zero && !fsc_lat_measured(lat)))
        return;
    for (size_t i = 0; i < n; i++) {
        double pct;
        fsc_num ns = {0};
        if (!key_number(items[i].k, items[i].kn, &pct) || !take_num(&ns, &items[i].v, mul))
            continue;
        if (pct == 0 && ns.v == 0)
            continue; /* the unused "0.00": 0 slots of fio <= 3.3 */
        if (!fsc_lat_add_pctl(lat, pct, ns.v))
            cx->oom = true;
    }
}

/* read_index_bins, json+ 2.2.12 .. 2.19: every bucket by raw index, with the scheme's
 * constants (the first of each, wherever they stand: fio prints them last). r->p is
 * inside the bins object; its members are walked twice, for the constants, then
 * for the buckets. */
static void read_index_bins(jctx *cx, fsc_lat *lat, uint64_t mul)
{
    const jr start = cx->r;
    jval bits_v = {0}, val_v = {0};
    bool first = true, have_bits = false, have_val = false;
    const char *k;
    size_t kn;
    jval v;
    while (member(&cx->r, &first, &k, &kn, &v)) {
        if (!have_bits && key_is(k, kn, "FIO_IO_U_PLAT_BITS")) {
            have_bits = true;
            bits_v = v;
        } else if (!have_val && key_is(k, kn, "FIO_IO_U_PLAT_VAL")) {
            have_val = true;
            val_v = v;
        }
        skip_open(&cx->r, &v);
    }
    if (cx->r.bad)
        return;
    if (bits_v.kind != J_NUM || val_v.kind != J_NUM || bits_v.num < 1 || bits_v.num > 16 ||
        val_v.num != ldexp(1.0, (int)bits_v.num)) {
        cx->r.bad = true; /* an unknown scheme: json_in.c warns */
        return;
    }
    unsigned bits = (unsigned)bits_v.num, val = (unsigned)val_v.num;
    cx->r = start;
    first = true;
    while (member(&cx->r, &first, &k, &kn, &v)) {
        double idx;
        if (v.kind == J_NUM && v.num != 0 && key_number(k, kn, &idx) && idx >= 0 && idx <= 65535 &&
            idx == floor(idx) &&
            !fsc_lat_add_bin(lat, fsc_json_exact_mul(fsc_json_plat_index_value((unsigned)idx, bits, val), mul),
                             v.num))
            cx->oom = true;
        skip_open(&cx->r, &v);
    }
}

/* read_bins: json+ 2.20+ (latency keys), or the raw indexes of 2.2.12 .. 2.19 once a
 * FIO_IO_U_PLAT_BITS member says so (what was added by then is taken back). */
static void read_bins(jctx *cx, fsc_lat *lat, uint64_t mul)
{
    const jr start = cx->r;
    const size_t n_before = lat->n_bins;
    bool first = true;
    const char *k;
    size_t kn;
    jval v;
    while (member(&cx->r, &first, &k, &kn, &v)) {
        double key;
        if (key_is(k, kn, "FIO_IO_U_PLAT_BITS")) {
            lat->n_bins = n_before;
            cx->r = start;
            read_index_bins(cx, lat, mul);
            return;
        }
        if (v.kind == J_NUM && key_number(k, kn, &key) &&
            !fsc_lat_add_bin(lat, fsc_json_exact_mul(key, mul), v.num))
            cx->oom = true;
        skip_open(&cx->r, &v);
    }
}

static void read_lat(jctx *cx, fsc_lat *lat, uint64_t mul)
{
    size_t next = 0; /* take_field's guess */
    bool first = true;
    const char *k;
    size_t kn;
    jval v;
    while (member(&cx->r, &first, &k, &kn, &v)) {
        if (key_is(k, kn, "percentile") && v.kind == J_OBJ) {
            read_percentiles(cx, lat, mul);
            continue;
        }
        if (key_is(k, kn, "bins") && v.kind == J_OBJ) {
            read_bins(cx, lat, mul);
            continue;
        }
        if (key_is(k, kn, "percentile") || key_is(k, kn, "bins")) {
            skip_open(&cx->r, &v); /* not objects: nothing to read */
            continue;
        }
        take_field(lat, fsc_lat_fields, fsc_n_lat_fields, &next, k, kn, &v, key_is(k, kn, "N") ? 1 : mul);
        skip_open(&cx->r, &v);
    }
}

/* lat_key: "slat"/"clat"/"lat" (usec) or "slat_ns"/"clat_ns"/"lat_ns" */
static int lat_key(const char *k, size_t kn, uint64_t *mul)
{
    size_t base = kn >= 3 && !memcmp(k + kn - 3, "_ns", 3) ? kn - 3 : kn;
    *mul = base == kn ? 1000 : 1;
    if (key_is(k, base, "slat"))
        return FSC_LAT_SLAT;
    if (key_is(k, base, "clat"))
        return FSC_LAT_CLAT;
    if (key_is(k, base, "lat"))
        return FSC_LAT_LAT;
    return -1;
}

static void read_dir(jctx *cx, fsc_dir *d)
{
    size_t next = 0; /* take_field's guess */
    fsc_num io_raw = {0}, io_kbytes = {0};
    jval io_raw_v = {0}, io_kbytes_v = {0};
    bool first = true;
    const char *k;
    size_t kn;
    jval v;
    d->present = true;
    while (member(&cx->r, &first, &k, &kn, &v)) {
        uint64_t mul = 1;
        int lk;
        if (key_is(k, kn, "io_bytes")) {
            if (take_num(&io_raw, &v, 1))
                io_raw_v = v;
        } else if (key_is(k, kn, "io_kbytes")) {
            if (take_num(&io_kbytes, &v, 1))
                io_kbytes_v = v;
        } else if ((lk = lat_key(k, kn, &mul)) >= 0 && v.kind == J_OBJ) {
            read_lat(cx, &d->lat[lk], mul);
            continue;
        } else if (kn >= 5 && (key_is(k, kn, "prios") || !memcmp(k + kn - 5, "_prio", 5))) {
            cx->r.bad = true; /* rare (cmdprio_percentage): json_in.c reads them (read_prios) */
            return;
        } else {
            take_field(d, fsc_dir_fields, fsc_n_dir_fields, &next, k, kn, &v, 1);
        }
        skip_open(&cx->r, &v);
    }
    if (io_raw.set)
        take_num(&d->io_bytes, &io_raw_v, io_kbytes.set || cx->io_in_bytes ? 1 : 1024);
    else if (io_kbytes.set)
        take_num(&d->io_bytes, &io_kbytes_v, 1024);
    if (cx->agg_is_mean && d->bw_agg.set) {
        d->bw_agg.set = false;
        cx->agg_dropped = true;
    }
    if (!d->bw_bytes.set && d->bw.set)
        d->bw_bytes = fsc_num_of(fsc_json_exact_mul(d->bw.v, 1024)); /* bw is KiB/s: a unit change */
}

/* read_kvlist: numbers under keys shorter than an fsc_kv key */
static void read_kvlist(jctx *cx, fsc_kvlist *l)
{
    bool first = true;
    const char *k;
    size_t kn;
    jval v;
    while (member(&cx->r, &first, &k, &kn, &v)) {
        if (v.kind == J_NUM && kn < sizeof l->items[0].key) {
            char key[sizeof l->items[0].key];
            memcpy(key, k, kn);
            key[kn] = '\0';
            if (!fsc_kvlist_set(l, key, v.num))
                cx->oom = true;
        }
        skip_open(&cx->r, &v);
    }
}

static bool set_job_option(void *target, const char *key, const char *val)
{
    return fsc_job_set_option(target, key, val);
}

static bool set_global_option(void *target, const char *key, const char *val)
{
    return fsc_run_set_global_option(target, key, val);
}

/* The string members of an object, to set(target, key, value): "job options" and
 * "global options" (an array has no keys: nothing). */
static void read_options(jctx *cx, const jval *v, bool (*set)(void *, const char *, const char *), void *target)
{
    bool first = true;
    const char *k;
    size_t kn;
    jval x;
    if (v->kind != J_OBJ) {
        skip_open(&cx->r, v);
        return;
    }
    while (member(&cx->r, &first, &k, &kn, &x)) {
        if (x.kind == J_STR) {
            char *key = fsc_strndup(k, kn), *val = fsc_strndup(x.s, x.n);
            if (!key || !val || !set(target, key, val))
                cx->oom = true;
            free(key);
            free(val);
        }
        skip_open(&cx->r, &x);
    }
}

/* read_job_object: a direction, the options or a list; other objects are skipped,
 * except steady state, left to json_in.c */
static void read_job_object(jctx *cx, fsc_job *job, const char *k, size_t kn, const jval *v)
{
    int d = fsc_ddir_from_name(k, kn);
    if (d >= 0 && kn == strlen(fsc_ddir_name((fsc_ddir)d))) {
        read_dir(cx, &job->dir[d]);
        return;
    }
    if (key_is(k, kn, "job options")) {
        read_options(cx, v, set_job_option, job);
        return;
    }
    if (key_is(k, kn, "steadystate")) { /* rare: json_in.c reads it (fsc_steady_read_json) */
        cx->r.bad = true;
        return;
    }
    fsc_kvlist *l = fsc_json_job_list(job, k, kn);
    if (l)
        read_kvlist(cx, l);
    else
        skip_open(&cx->r, v);
}

static void read_job(jctx *cx)
{
    size_t next = 0; /* take_field's guess */
    fsc_job *job = fsc_run_add_job(cx->run);
    if (!job) {
        cx->oom = true;
        return;
    }
    bool first = true;
    const char *k;
    size_t kn;
    jval v;
    while (member(&cx->r, &first, &k, &kn, &v)) {
        if (v.kind == J_OBJ) {
            read_job_object(cx, job, k, kn, &v);
            continue;
        }
        if (key_is(k, kn, "jobname"))
            take_str(cx, &job->jobname, &v);
        else if (key_is(k, kn, "hostname"))
            take_str(cx, &job->hostname, &v);
        else if (key_is(k, kn, "desc"))
            take_str(cx, &job->description, &v);
        else
            take_field(job, fsc_job_fields, fsc_n_job_fields, &next, k, kn, &v, 1);
        skip_open(&cx->r, &v);
    }
}

static void read_disk(jctx *cx)
{
    size_t next = 0; /* take_field's guess */
    fsc_disk *disk = fsc_run_add_disk(cx->run);
    if (!disk) {
        cx->oom = true;
        return;
    }
    bool first = true;
    const char *k;
    size_t kn;
    jval v;
    while (member(&cx->r, &first, &k, &kn, &v)) {
        if (key_is(k, kn, "name"))
            take_str(cx, &disk->name, &v);
        else
            take_field(disk, fsc_disk_fields, fsc_n_disk_fields, &next, k, kn, &v, 1);
        skip_open(&cx->r, &v);
    }
}

/* The children of an array or object value (cJSON_ArrayForEach): objects are read
 * by `read`, the rest skipped. */
static void each_object(jctx *cx, const jval *v, void (*read)(jctx *))
{
    bool first = true;
    const char *k;
    size_t kn;
    jval x;
    if (v->kind == J_ARR) {
        while (element(&cx->r, &first, &x)) {
            if (x.kind == J_OBJ)
                read(cx);
            else
                skip_open(&cx->r, &x);
        }
    } else if (v->kind == J_OBJ) {
        while (member(&cx->r, &first, &k, &kn, &x)) {
            if (x.kind == J_OBJ)
                read(cx);
            else
                skip_open(&cx->r, &x);
        }
    }
}

fsc_run *fsc_json_read_fast(const char *json, size_t len, size_t *used, bool *handled)
{
    *handled = false;
    jctx cx = {{json, json + len, 0, false}, NULL, false, false, false, false};
    jr *r = &cx.r;
    jval root;
    value(r, &root);
    if (root.kind != J_OBJ)
        return NULL;
    cx.run = fsc_run_new();
    if (!cx.run)
        return NULL;
    /* The root's members of interest, the first of each (cJSON_GetObjectItem). The
     * jobs are read where they stand once the version is known (fio writes it
     * first), the disks once the jobs are read; else a second pass reads them from
     * where their values start, in json_in.c's order. */
    enum { K_VERSION, K_GLOBAL, K_JOBS, K_CLIENTS, K_DISKS, K_TIME, K_TIMESTAMP, K_IDLE, K_COUNT };
    static const char *const names[K_COUNT] = {"fio version", "global options", "jobs", "client_stats",
                                               "disk_util", "time", "timestamp", "cpu_idleness"};
    struct {
        bool seen, done;
        jval v;
        const char *at; /* where its value starts (inside its bracket) */
    } m[K_COUNT] = {{0}};
    bool first = true;
    const char *k;
    size_t kn;
    jval v;
    int jobs = -1; /* which member holds the jobs, once known */
    while (member(r, &first, &k, &kn, &v)) {
        int i = 0;
        while (i < K_COUNT && !key_is(k, kn, names[i]))
            i++;
        if (i == K_COUNT || m[i].seen) {
            skip_open(r, &v);
            continue;
        }
        m[i].seen = true;
        m[i].v = v;
        m[i].at = v.kind == J_OBJ || v.kind == J_ARR ? r->p : NULL;
        if (i == K_VERSION) {
            take_str(&cx, &cx.run->source.fio_version, &v);
            fsc_json_version_rules(cx.run->source.fio_version, &cx.agg_is_mean, &cx.io_in_bytes);
        }
        if (i == K_TIME)
            take_str(&cx, &cx.run->source.time, &v);
        if (i == K_TIMESTAMP)
            take_num(&cx.run->source.timestamp, &v, 1);
        if (i == K_GLOBAL) { /* string members, kept beside the jobs' own options */
            read_options(&cx, &v, set_global_option, cx.run);
            continue;
        }
        if (i == K_IDLE && v.kind == J_OBJ) { /* numbers: --idle-prof's */
            read_kvlist(&cx, &cx.run->cpu_idleness);
            continue;
        }
        if (i == K_JOBS && v.kind == J_ARR)
            jobs = K_JOBS;
        if (i == K_CLIENTS && v.kind == J_ARR && m[K_JOBS].seen && m[K_JOBS].v.kind != J_ARR)
            jobs = K_CLIENTS;
        if (i == jobs && m[K_VERSION].seen) {
            each_object(&cx, &v, read_job);
            m[i].done = true;
        } else if (i == K_DISKS && jobs >= 0 && m[jobs].done) {
            each_object(&cx, &v, read_disk);
            m[i].done = true;
        } else {
            skip_open(r, &v);
        }
    }
    if (r->bad)
        goto fail;
    *used = (size_t)(r->p - json);
    if (jobs < 0 && m[K_CLIENTS].seen && m[K_CLIENTS].v.kind == J_ARR)
        jobs = K_CLIENTS; /* no "jobs" array at all */
    if (jobs < 0)
        goto fail; /* not fio JSON: json_in.c says why */
    if (!m[K_VERSION].seen)
        fsc_json_version_rules(NULL, &cx.agg_is_mean, &cx.io_in_bytes);
    if (!m[jobs].done) {
        r->p = m[jobs].at;
        r->depth = 2;
        each_object(&cx, &m[jobs].v, read_job);
    }
    if (m[K_DISKS].seen && m[K_DISKS].at && !m[K_DISKS].done && !r->bad) {
        r->p = m[K_DISKS].at;
        r->depth = 2;
        each_object(&cx, &m[K_DISKS].v, read_disk);
    }
    if (!r->bad && !cx.oom && !fsc_json_run_finish(cx.run))
        cx.oom = true;
    if (!r->bad && !cx.oom && cx.agg_dropped &&
        !fsc_run_warn(cx.run, 0, "bw_agg dropped: %s wrote the mean bandwidth there, not a percentage",
                      cx.run->source.fio_version))
        cx.oom = true;
    if (r->bad || cx.oom)
        goto fail;
    *handled = true;
    return cx.run;
fail:
    fsc_run_free(cx.run);
    return NULL; /* json_in.c reads it (or runs out of memory the same way) */
}
