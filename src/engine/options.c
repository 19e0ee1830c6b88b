/* SPDX-License-Identifier: MIT */
/* fio's job options: one table (name, kind, where in fsc_jobdef, limits), value parsers
 * with fio's units, and the list of fio options that change nothing measured. */
#include "engine_int.h"
#include "engine_libs.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static fsc_status fail(char *err, size_t errlen, const char *fmt, ...) FSC_PRINTF(3, 4);
static fsc_status fail(char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
    return FSC_E_USAGE;
}

/* ---- value parsers ---- */

/* A plain unsigned number (decimal or 0x hex) at *s; moves *s past it. */
static fsc_status read_u64(const char **s, uint64_t *out)
{
    const char *p = *s;
    if (!isdigit((unsigned char)*p))
        return FSC_E_SYNTAX;
    char *end;
    errno = 0;
    unsigned long long v = strtoull(p, &end, (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) ? 16 : 10);
    if (errno)
        return FSC_E_RANGE;
    *s = end;
    *out = v;
    return FSC_OK;
}

/* A size with fio's suffixes (k m g t p, optional "b"/"ib", all 1024-based) ending at
 * end (or at the string's end when end is NULL). */
static fsc_status size_span(const char *s, const char *end, uint64_t *out)
{
    if (!end)
        end = s + strlen(s);
    uint64_t v;
    const char *p = s;
    fsc_status st = read_u64(&p, &v);
    if (st != FSC_OK || p > end)
        return st != FSC_OK ? st : FSC_E_SYNTAX;
    unsigned shift = 0;
    if (p < end) {
        switch (tolower((unsigned char)*p)) {
        case 'k': shift = 10; break;
        case 'm': shift = 20; break;
        case 'g': shift = 30; break;
        case 't': shift = 40; break;
        case 'p': shift = 50; break;
        case 'b': shift = 0; break;
        default: return FSC_E_SYNTAX;
        }
        p++;
        size_t rest = (size_t)(end - p);
        if (rest && !((rest == 1 && tolower((unsigned char)*p) == 'b') ||
                      (rest == 2 && !strncasecmp(p, "ib", 2))))
            return FSC_E_SYNTAX;
    }
    if (shift && v > (UINT64_MAX >> shift))
        return FSC_E_RANGE;
    *out = v << shift;
    return FSC_OK;
}

fsc_status fsc_parse_fio_size(const char *s, uint64_t *out)
{
    if (!s)
        return FSC_E_SYNTAX;
    return size_span(s, NULL, out);
}

/* fio's time values; plain numbers are in unit_us microseconds. Result in microseconds. */
static fsc_status parse_time_us(const char *s, uint64_t unit_us, uint64_t *out_us)
{
    static const struct {
        const char *sfx;
        uint64_t us;
    } units[] = {{"us", 1},          {"usec", 1},          {"ms", 1000},          {"msec", 1000},
                 {"s", 1000000},     {"sec", 1000000},     {"m", 60000000},       {"min", 60000000},
                 {"h", 3600000000ull}, {"d", 86400000000ull}};
    if (!s)
        return FSC_E_SYNTAX;
    const char *p = s;
    uint64_t v;
    fsc_status st = read_u64(&p, &v);
    if (st != FSC_OK)
        return st;
    uint64_t mul = 0;
    if (!*p)
        mul = unit_us;
    for (size_t i = 0; !mul && i < FSC_ARRAY_SIZE(units); i++)
        if (!strcasecmp(p, units[i].sfx))
            mul = units[i].us;
    if (!mul)
        return FSC_E_SYNTAX;
    if (v > UINT64_MAX / mul)
        return FSC_E_RANGE;
    *out_us = v * mul;
    return FSC_OK;
}

/* A flag: no value or an empty one sets it; 0/1, true/false, yes/no, on/off. */
static fsc_status parse_bool(const char *s, bool *out)
{
    static const char *const yes[] = {"", "1", "true", "yes", "on"};
    static const char *const no[] = {"0", "false", "no", "off"};
    if (!s) {
        *out = true;
        return FSC_OK;
    }
    for (size_t i = 0; i < FSC_ARRAY_SIZE(yes); i++)
        if (!strcasecmp(s, yes[i]))
            return *out = true, FSC_OK;
    for (size_t i = 0; i < FSC_ARRAY_SIZE(no); i++)
        if (!strcasecmp(s, no[i]))
            return *out = false, FSC_OK;
    return FSC_E_SYNTAX;
}

/* "N%" (1..100) → pct, else 0. */
static bool parse_pct(const char *s, unsigned *pct)
{
    char *end;
    if (!s || !isdigit((unsigned char)*s))
        return false;
    unsigned long v = strtoul(s, &end, 10);
    if (strcmp(end, "%") != 0 || v == 0 || v > 100)
        return false;
    *pct = (unsigned)v;
    return true;
}

/* ---- the option table ---- */

typedef enum okind {
    O_STR,     /* char * */
    O_SIZE,    /* uint64_t bytes, lo..hi */
    O_UINT,    /* unsigned, lo..hi */
    O_BOOL,    /* bool */
    O_NOTBOOL, /* bool, inverted (buffered = !direct) */
    O_TIME_MS, /* uint64_t ms; plain numbers are seconds; at most hi seconds */
    O_TIME_US, /* uint64_t us; plain numbers are microseconds; at most hi seconds */
    O_FN,      /* its own parser */
    O_ACCEPT,  /* fio option that changes nothing measured: accepted, no effect */
} okind;

typedef fsc_status (*opt_fn)(fsc_jobdef *j, const char *key, const char *val, char *err, size_t errlen);

typedef struct optdef {
    const char *name;
    okind kind;
    size_t off;
    uint64_t lo, hi;
    opt_fn fn;
} optdef;

#define OFF(f) offsetof(fsc_jobdef, f)
#define MAX_SECONDS 4294967295ull /* 136 years: longer runs are surely a typo */

fsc_status fsc_set_str(char **dst, const char *val)
{
    char *s = fsc_strdup(val ? val : "");
    if (!s)
        return FSC_E_NOMEM;
    free(*dst);
    *dst = s;
    return FSC_OK;
}

static fsc_status opt_rw(fsc_jobdef *j, const char *k, const char *v, char *e, size_t n)
{
    static const struct {
        const char *name;
        fsc_rwmode mode;
    } modes[] = {{"read", FSC_RW_READ},           {"write", FSC_RW_WRITE}, {"randread", FSC_RW_RANDREAD},
                 {"randwrite", FSC_RW_RANDWRITE}, {"rw", FSC_RW_RW},       {"readwrite", FSC_RW_RW},
                 {"randrw", FSC_RW_RANDRW}};
    (void)k;
    for (size_t i = 0; v && i < FSC_ARRAY_SIZE(modes); i++)
        if (!strcmp(v, modes[i].name)) {
            j->rw = modes[i].mode;
            snprintf(j->rw_text, sizeof j->rw_text, "%s", v);
            return FSC_OK;
        }
    return fail(e, n, "rw=%s is not supported (read, write, randread, randwrite, rw, readwrite, randrw)",
                v ? v : "");
}

static fsc_status opt_rwmixwrite(fsc_jobdef *j, const char *k, const char *v, char *e, size_t n)
{
    char *end;
    unsigned long w = v && isdigit((unsigned char)*v) ? strtoul(v, &end, 10) : 101;
    if (w > 100 || *end)
        return fail(e, n, "%s=%s: must be a percentage between 0 and 100", k, v ? v : "");
    j->rwmixread = 100 - (unsigned)w;
    return FSC_OK;
}

#define MAX_BS (64ull << 20)

/* "4k", "4k,8k", ",8k": per-direction sizes, [0] reads, [1] writes; a third (trim)
 * value is accepted and ignored. */
static fsc_status split_pair(const char *k, const char *v, uint64_t lo, uint64_t hi, uint64_t out[2], bool given[2],
                             char *e, size_t n)
{
    given[0] = given[1] = false;
    const char *p = v ? v : "";
    for (int d = 0; d < 3; d++) {
        const char *comma = strchr(p, ',');
        const char *end = comma ? comma : p + strlen(p);
        if (end > p) {
            uint64_t x;
            fsc_status st = size_span(p, end, &x);
            if (st != FSC_OK)
                return fail(e, n, "%s=%s: not a size (a number with an optional k/m/g/t/p suffix)", k, v);
            if (x < lo || x > hi)
                return fail(e, n, "%s=%s: must be between %llu and %llu", k, v, (unsigned long long)lo,
                            (unsigned long long)hi);
            if (d < 2) {
                out[d] = x;
                given[d] = true;
            }
        }
        if (!comma)
            break;
        p = comma + 1;
    }
    if (!given[0] && !given[1])
        return fail(e, n, "%s: needs a value", k);
    /* "bs=4k" sets both directions; "bs=4k," or ",8k" only the one named */
    if (given[0] && !given[1] && !strchr(v, ','))
        out[1] = out[0], given[1] = true;
    return FSC_OK;
}

static fsc_status opt_bs(fsc_jobdef *j, const char *k, const char *v, char *e, size_t n)
{
    uint64_t b[2] = {0, 0};
    bool g[2];
    fsc_status st = split_pair(k, v, 1, MAX_BS, b, g, e, n);
    if (st != FSC_OK)
        return st;
    for (int d = 0; d < 2; d++)
        if (g[d]) {
            j->bs_min[d] = j->bs_max[d] = b[d];
            j->n_bssplit[d] = 0;
        }
    j->bs = j->bs_min[0];
    return FSC_OK;
}

static fsc_status opt_bsrange(fsc_jobdef *j, const char *k, const char *v, char *e, size_t n)
{
    const char *p = v ? v : "";
    for (int d = 0; d < 2 && *p; d++) {
        const char *comma = strchr(p, ',');
        const char *end = comma ? comma : p + strlen(p);
        const char *dash = memchr(p, '-', (size_t)(end - p));
        uint64_t lo, hi;
        if (!dash || size_span(p, dash, &lo) != FSC_OK || size_span(dash + 1, end, &hi) != FSC_OK)
            return fail(e, n, "%s=%s: expected MIN-MAX sizes, e.g. 4k-64k", k, v);
        if (lo == 0 || hi > MAX_BS || lo > hi)
            return fail(e, n, "%s=%s: sizes must be between 1 and 64MiB, MIN <= MAX", k, v);
        j->bs_min[d] = lo;
        j->bs_max[d] = hi;
        j->n_bssplit[d] = 0;
        if (!comma && d == 0) {
            j->bs_min[1] = lo;
            j->bs_max[1] = hi;
            j->n_bssplit[1] = 0;
        }
        p = comma ? comma + 1 : end;
    }
    if (!v || !*v)
        return fail(e, n, "%s: needs a value", k);
    j->bs = j->bs_min[0];
    return FSC_OK;
}

/* One direction of bssplit: "4k/10:64k/50:32k" (an empty percentage shares what is left). */
static fsc_status bssplit_one(fsc_jobdef *j, int d, const char *k, const char *v, const char *p, const char *end,
                              char *e, size_t n)
{
    size_t cnt = 0, n_blank = 0;
    unsigned total = 0;
    fsc_bssplit *sp = j->bssplit[d];
    while (p < end) {
        const char *colon = memchr(p, ':', (size_t)(end - p));
        const char *stop = colon ? colon : end;
        const char *slash = memchr(p, '/', (size_t)(stop - p));
        uint64_t bs;
        unsigned perc = 0;
        if (cnt == FSC_MAX_BSSPLIT)
            return fail(e, n, "%s=%s: at most %d entries", k, v, FSC_MAX_BSSPLIT);
        if (size_span(p, slash ? slash : stop, &bs) != FSC_OK || bs == 0 || bs > MAX_BS)
            return fail(e, n, "%s=%s: expected SIZE/PERCENT entries separated by ':' (sizes 1..64MiB)", k, v);
        if (slash && slash + 1 < stop) {
            char *pe;
            unsigned long pv = strtoul(slash + 1, &pe, 10);
            if (pe != stop || pv > 100)
                return fail(e, n, "%s=%s: percentages must be 0..100", k, v);
            perc = (unsigned)pv;
        } else {
            n_blank++;
            perc = UINT32_MAX;
        }
        sp[cnt].bs = bs;
        sp[cnt].perc = perc;
        if (perc != UINT32_MAX)
            total += perc;
        cnt++;
        p = colon ? colon + 1 : end;
    }
    if (!cnt)
        return fail(e, n, "%s=%s: empty list", k, v);
    if (total > 100 || (!n_blank && total != 100))
        return fail(e, n, "%s=%s: percentages must add up to 100", k, v);
    for (size_t i = 0; i < cnt; i++)
        if (sp[i].perc == UINT32_MAX)
            sp[i].perc = (unsigned)((100 - total) / n_blank);
    /* the rounding remainder goes to the last entry, like fio */
    unsigned sum = 0;
    for (size_t i = 0; i < cnt; i++)
        sum += sp[i].perc;
    sp[cnt - 1].perc += 100 - sum;
    j->n_bssplit[d] = cnt;
    uint64_t lo = UINT64_MAX, hi = 0;
    for (size_t i = 0; i < cnt; i++) {
        lo = sp[i].bs < lo ? sp[i].bs : lo;
        hi = sp[i].bs > hi ? sp[i].bs : hi;
    }
    j->bs_min[d] = lo;
    j->bs_max[d] = hi;
    return FSC_OK;
}

static fsc_status opt_bssplit(fsc_jobdef *j, const char *k, const char *v, char *e, size_t n)
{
    if (!v || !*v)
        return fail(e, n, "%s: needs a value", k);
    const char *comma = strchr(v, ',');
    const char *end0 = comma ? comma : v + strlen(v);
    fsc_status st = FSC_OK;
    if (end0 > v)
        st = bssplit_one(j, 0, k, v, v, end0, e, n);
    if (st == FSC_OK && comma) {
        const char *p = comma + 1, *end1 = strchr(p, ',');
        if (!end1)
            end1 = p + strlen(p);
        if (end1 > p)
            st = bssplit_one(j, 1, k, v, p, end1, e, n);
    } else if (st == FSC_OK) {
        memcpy(j->bssplit[1], j->bssplit[0], sizeof j->bssplit[0]);
        j->n_bssplit[1] = j->n_bssplit[0];
        j->bs_min[1] = j->bs_min[0];
        j->bs_max[1] = j->bs_max[0];
    }
    j->bs = j->bs_min[0];
    return st;
}

static fsc_status opt_ioengine(fsc_jobdef *j, const char *k, const char *v, char *e, size_t n)
{
    const char *const *names = fsc_engine_names();
    (void)k;
    /* fio's synchronous engines all do one pread/pwrite-like call per I/O */
    const char *use = v;
    if (v && (!strcmp(v, "sync") || !strcmp(v, "pvsync") || !strcmp(v, "pvsync2") || !strcmp(v, "vsync")))
        use = "psync";
    for (size_t i = 0; use && names[i]; i++)
        if (!strcmp(use, names[i])) {
            snprintf(j->ioengine, sizeof j->ioengine, "%s", v);
            return FSC_OK;
        }
    char list[160] = "";
    for (size_t i = 0; names[i]; i++)
        snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", i ? ", " : "", names[i]);
    return fail(e, n, "ioengine=%s is not available in this build (available: %s, and sync/pvsync/pvsync2 as psync)",
                v ? v : "", list);
}

static fsc_status opt_kb_base(fsc_jobdef *j, const char *k, const char *v, char *e, size_t n)
{
    (void)k;
    if (v && !strcmp(v, "1000"))
        j->kb_base = 1000;
    else if (v && !strcmp(v, "1024"))
        j->kb_base = 1024;
    else
        return fail(e, n, "kb_base=%s: must be 1000 or 1024", v ? v : "");
    return FSC_OK;
}

static fsc_status opt_thread(fsc_jobdef *j, const char *k, const char *v, char *e, size_t n)
{
    bool b;
    (void)j, (void)k;
    if (parse_bool(v, &b) != FSC_OK)
        return fail(e, n, "thread=%s: expected 0 or 1", v);
    /* fioscope runs every clone as a thread; processes measure the same I/O */
    return FSC_OK;
}

static fsc_status opt_percentile_list(fsc_jobdef *j, const char *k, const char *v, char *e, size_t n)
{
    size_t cnt = 0;
    double vals[FSC_MAX_PCTS];
    const char *p = v ? v : "";
    (void)k;
    while (*p) {
        char *end;
        if (!isdigit((unsigned char)*p) && *p != '.')
            return fail(e, n, "percentile_list=%s: expected numbers 0-100 separated by ':'", v);
        double d = strtod(p, &end);
        if (end == p || !isfinite(d) || d < 0 || d > 100 || (*end && *end != ':'))
            return fail(e, n, "percentile_list=%s: expected numbers 0-100 separated by ':'", v);
        if (cnt == FSC_MAX_PCTS)
            return fail(e, n, "percentile_list=%s: at most %d entries", v, FSC_MAX_PCTS);
        vals[cnt++] = d;
        p = *end ? end + 1 : end;
    }
    if (cnt == 0)
        return fail(e, n, "percentile_list: empty list");
    /* fio sorts the list */
    for (size_t a = 1; a < cnt; a++)
        for (size_t b = a; b > 0 && vals[b - 1] > vals[b]; b--) {
            double t = vals[b];
            vals[b] = vals[b - 1];
            vals[b - 1] = t;
        }
    memcpy(j->pcts, vals, cnt * sizeof *vals);
    j->n_pcts = cnt;
    return FSC_OK;
}

/* size=N or N% (of the existing file) */
static fsc_status opt_size(fsc_jobdef *j, const char *k, const char *v, char *e, size_t n)
{
    unsigned pct;
    if (parse_pct(v, &pct)) {
        j->size_pct = pct;
        j->size = 0;
        return FSC_OK;
    }
    uint64_t x;
    if (fsc_parse_fio_size(v, &x) != FSC_OK)
        return fail(e, n, "%s=%s: not a size (a number with an optional k/m/g/t/p suffix, or N%%)", k, v ? v : "");
    if (x == 0 || x > (1ull << 60))
        return fail(e, n, "%s=%s: must be between 1 byte and 1EiB", k, v);
    j->size = x;
    j->size_pct = 0;
    return FSC_OK;
}

static fsc_status opt_offset(fsc_jobdef *j, const char *k, const char *v, char *e, size_t n)
{
    unsigned pct = 0;
    if (parse_pct(v, &pct) || (v && !strcmp(v, "0%"))) {
        j->offset_pct = v[0] == '0' ? 0 : pct;
        j->offset = 0;
        return FSC_OK;
    }
    uint64_t x;
    if (fsc_parse_fio_size(v, &x) != FSC_OK || x > (1ull << 60))
        return fail(e, n, "%s=%s: not an offset (a size up to 1EiB, or N%%)", k, v ? v : "");
    j->offset = x;
    j->offset_pct = 0;
    return FSC_OK;
}

/* rate=, rate_min=, rate_iops=, rate_iops_min=: per-direction values */
static fsc_status opt_rate(fsc_jobdef *j, const char *k, const char *v, char *e, size_t n)
{
    uint64_t *dst = !strcmp(k, "rate") ? j->rate : !strcmp(k, "rate_min") ? j->rate_min
                                                  : !strcmp(k, "rate_iops") ? j->rate_iops : j->rate_iops_min;
    uint64_t b[2] = {dst[0], dst[1]};
    bool g[2];
    if (!v || !*v)
        return fail(e, n, "%s: needs a value", k);
    /* split_pair words its errors for sizes; give rates their own */
    char tmp[256];
    if (split_pair(k, v, 0, UINT64_MAX / 2, b, g, tmp, sizeof tmp) != FSC_OK)
        return fail(e, n, "%s=%s: not a rate (%s, optionally READ,WRITE)", k, v,
                    strstr(k, "iops") ? "I/Os per second" : "bytes per second with an optional k/m/g suffix");
    for (int d = 0; d < 2; d++)
        if (g[d])
            dst[d] = b[d];
    return FSC_OK;
}

static fsc_status opt_random_distribution(fsc_jobdef *j, const char *k, const char *v, char *e, size_t n)
{
    static const struct {
        const char *name;
        fsc_randdist d;
        double def;
    } dists[] = {{"random", FSC_RAND_UNIFORM, 0},
                 {"zipf", FSC_RAND_ZIPF, 1.1},
                 {"pareto", FSC_RAND_PARETO, 0.2},
                 {"normal", FSC_RAND_NORMAL, 0},
                 {"gauss", FSC_RAND_NORMAL, 0}};
    const char *colon = v ? strchr(v, ':') : NULL;
    size_t len = v ? (colon ? (size_t)(colon - v) : strlen(v)) : 0;
    for (size_t i = 0; i < FSC_ARRAY_SIZE(dists); i++) {
        if (strlen(dists[i].name) != len || strncmp(v, dists[i].name, len))
            continue;
        double p = dists[i].def;
        if (colon) {
            char *end;
            p = strtod(colon + 1, &end);
            if (end == colon + 1 || (*end && *end != ':') || !isfinite(p))
                return fail(e, n, "%s=%s: expected %s:NUMBER", k, v, dists[i].name);
        }
        if (dists[i].d == FSC_RAND_ZIPF && (p <= 0 || p == 1.0))
            return fail(e, n, "%s=%s: zipf needs a theta > 0 and not 1", k, v);
        if (dists[i].d == FSC_RAND_PARETO && (p <= 0 || p >= 1))
            return fail(e, n, "%s=%s: pareto needs 0 < h < 1", k, v);
        if (dists[i].d == FSC_RAND_NORMAL && (p < 0 || p > 100))
            return fail(e, n, "%s=%s: normal needs a deviation between 0 and 100 (%%)", k, v);
        j->rand_dist = dists[i].d;
        j->rand_param = p;
        return FSC_OK;
    }
    return fail(e, n, "%s=%s is not supported (random, zipf:THETA, pareto:H, normal:DEV)", k, v ? v : "");
}

static fsc_status opt_file_service_type(fsc_jobdef *j, const char *k, const char *v, char *e, size_t n)
{
    static const struct {
        const char *name;
        fsc_fileservice fs;
    } types[] = {{"roundrobin", FSC_FS_ROUNDROBIN}, {"sequential", FSC_FS_SEQUENTIAL}, {"random", FSC_FS_RANDOM}};
    const char *colon = v ? strchr(v, ':') : NULL;
    size_t len = v ? (colon ? (size_t)(colon - v) : strlen(v)) : 0;
    for (size_t i = 0; i < FSC_ARRAY_SIZE(types); i++) {
        if (strlen(types[i].name) != len || strncmp(v, types[i].name, len))
            continue;
        unsigned nr = 1;
        if (colon) {
            char *end;
            unsigned long x = strtoul(colon + 1, &end, 10);
            if (end == colon + 1 || *end || x == 0 || x > 1000000)
                return fail(e, n, "%s=%s: the :N suffix must be 1..1000000", k, v);
            nr = (unsigned)x;
        }
        j->file_service = types[i].fs;
        j->file_service_nr = nr;
        return FSC_OK;
    }
    return fail(e, n, "%s=%s is not supported (roundrobin, sequential, random, with an optional :N)", k,
                v ? v : "");
}

static fsc_status opt_fallocate(fsc_jobdef *j, const char *k, const char *v, char *e, size_t n)
{
    static const struct {
        const char *name;
        fsc_falloc f;
    } modes[] = {{"none", FSC_FALLOC_NONE},  {"0", FSC_FALLOC_NONE},     {"posix", FSC_FALLOC_POSIX},
                 {"1", FSC_FALLOC_POSIX},    {"native", FSC_FALLOC_POSIX}, {"keep", FSC_FALLOC_KEEP},
                 {"truncate", FSC_FALLOC_TRUNCATE}};
    for (size_t i = 0; v && i < FSC_ARRAY_SIZE(modes); i++)
        if (!strcmp(v, modes[i].name)) {
            j->fallocate = modes[i].f;
            return FSC_OK;
        }
    return fail(e, n, "%s=%s is not supported (none, posix, native, keep, truncate)", k, v ? v : "");
}

static fsc_status opt_verify(fsc_jobdef *j, const char *k, const char *v, char *e, size_t n)
{
    static const struct {
        const char *name;
        fsc_verify t;
    } kinds[] = {{"0", FSC_VERIFY_NONE},          {"none", FSC_VERIFY_NONE},  {"null", FSC_VERIFY_NONE},
                 {"crc32c", FSC_VERIFY_CRC32C},   {"crc32c-intel", FSC_VERIFY_CRC32C},
                 {"md5", FSC_VERIFY_MD5},         {"sha256", FSC_VERIFY_SHA256}};
    const char *why;
    for (size_t i = 0; v && i < FSC_ARRAY_SIZE(kinds); i++)
        if (!strcmp(v, kinds[i].name)) {
            /* md5 and sha256 are nettle's, opened now: a job that cannot verify fails
             * before it runs */
            if ((kinds[i].t == FSC_VERIFY_MD5 || kinds[i].t == FSC_VERIFY_SHA256) && !fsc_nettle_api_open(&why))
                return fail(e, n, "%s=%s: %s", k, v, why);
            j->verify = kinds[i].t;
            return FSC_OK;
        }
    return fail(e, n, "%s=%s is not supported (crc32c, crc32c-intel, md5, sha256, or 0)", k, v ? v : "");
}

static fsc_status opt_sync(fsc_jobdef *j, const char *k, const char *v, char *e, size_t n)
{
    if (!v || !*v || !strcmp(v, "1") || !strcmp(v, "sync"))
        j->sync_flag = 1;
    else if (!strcmp(v, "0") || !strcmp(v, "none"))
        j->sync_flag = 0;
    else if (!strcmp(v, "dsync"))
        j->sync_flag = 2;
    else
        return fail(e, n, "%s=%s: expected 0, 1, none, sync or dsync", k, v);
    return FSC_OK;
}

static fsc_status opt_unified(fsc_jobdef *j, const char *k, const char *v, char *e, size_t n)
{
    if (v && (!strcmp(v, "0") || !strcmp(v, "none")))
        j->unified_rw = FSC_UNIFIED_NONE;
    else if (!v || !*v || !strcmp(v, "1") || !strcmp(v, "mixed"))
        j->unified_rw = FSC_UNIFIED_MIXED;
    else if (!strcmp(v, "2") || !strcmp(v, "both"))
        j->unified_rw = FSC_UNIFIED_BOTH;
    else
        return fail(e, n, "%s=%s: expected none, mixed, both (or 0, 1, 2)", k, v);
    return FSC_OK;
}

static fsc_status opt_fadvise(fsc_jobdef *j, const char *k, const char *v, char *e, size_t n)
{
    if (v && (!strcmp(v, "0") || !strcmp(v, "none")))
        j->fadvise_hint = false;
    else if (!v || !*v || !strcmp(v, "1") || !strcmp(v, "sequential") || !strcmp(v, "random"))
        j->fadvise_hint = true;
    else
        return fail(e, n, "%s=%s: expected 0, 1, sequential or random", k, v);
    return FSC_OK;
}

static void cpu_set(fsc_jobdef *j, unsigned c)
{
    j->cpus[c / 8] |= (uint8_t)(1u << (c % 8));
}

/* cpus_allowed=0-3,5 */
static fsc_status opt_cpus_allowed(fsc_jobdef *j, const char *k, const char *v, char *e, size_t n)
{
    memset(j->cpus, 0, sizeof j->cpus);
    const char *p = v ? v : "";
    if (!*p)
        return fail(e, n, "%s: needs a CPU list such as 0-3,6", k);
    while (*p) {
        char *end;
        if (!isdigit((unsigned char)*p))
            return fail(e, n, "%s=%s: expected a CPU list such as 0-3,6", k, v);
        unsigned long a = strtoul(p, &end, 10), b = a;
        if (*end == '-') {
            const char *q = end + 1;
            if (!isdigit((unsigned char)*q))
                return fail(e, n, "%s=%s: expected a CPU list such as 0-3,6", k, v);
            b = strtoul(q, &end, 10);
        }
        if (a > b || b >= FSC_MAX_CPUS)
            return fail(e, n, "%s=%s: CPUs must be 0..%d, ranges low-high", k, v, FSC_MAX_CPUS - 1);
        for (unsigned long c = a; c <= b; c++)
            cpu_set(j, (unsigned)c);
        if (*end == ',')
            end++;
        else if (*end)
            return fail(e, n, "%s=%s: expected a CPU list such as 0-3,6", k, v);
        p = end;
    }
    j->cpus_set = true;
    return FSC_OK;
}

/* cpumask=0xf (a bit per CPU) */
static fsc_status opt_cpumask(fsc_jobdef *j, const char *k, const char *v, char *e, size_t n)
{
    uint64_t m;
    const char *p = v ? v : "";
    if (read_u64(&p, &m) != FSC_OK || *p || !m)
        return fail(e, n, "%s=%s: expected a non-zero CPU bit mask such as 0xf", k, v ? v : "");
    memset(j->cpus, 0, sizeof j->cpus);
    for (unsigned c = 0; c < 64; c++)
        if (m >> c & 1)
            cpu_set(j, c);
    j->cpus_set = true;
    return FSC_OK;
}

static fsc_status opt_cpus_policy(fsc_jobdef *j, const char *k, const char *v, char *e, size_t n)
{
    if (v && !strcmp(v, "shared"))
        j->cpus_split = false;
    else if (v && !strcmp(v, "split"))
        j->cpus_split = true;
    else
        return fail(e, n, "%s=%s: expected shared or split", k, v ? v : "");
    return FSC_OK;
}

static fsc_status opt_randseed(fsc_jobdef *j, const char *k, const char *v, char *e, size_t n)
{
    uint64_t x;
    const char *p = v ? v : "";
    if (read_u64(&p, &x) != FSC_OK || *p)
        return fail(e, n, "%s=%s: expected a number", k, v ? v : "");
    j->randseed = x;
    j->randseed_set = true;
    return FSC_OK;
}

/* write_bw_log[=prefix]: no value means the job name */
static fsc_status opt_log(fsc_jobdef *j, const char *k, const char *v, char *e, size_t n)
{
    char **dst = !strcmp(k, "write_bw_log") ? &j->bw_log : !strcmp(k, "write_iops_log") ? &j->iops_log
                                                        : !strcmp(k, "write_lat_log") ? &j->lat_log : &j->hist_log;
    if (v && strchr(v, '/') && strstr(v, ".."))
        return fail(e, n, "%s=%s: the log name must not climb out of the folder", k, v);
    (void)e, (void)n;
    return fsc_set_str(dst, v ? v : "");
}

static fsc_status opt_startdelay(fsc_jobdef *j, const char *k, const char *v, char *e, size_t n)
{
    uint64_t us;
    fsc_status st = parse_time_us(v, 1000000, &us);
    if (st != FSC_OK || us / 1000000 > MAX_SECONDS)
        return fail(e, n, "%s=%s: %s", k, v ? v : "",
                    st == FSC_E_SYNTAX ? "not a time (a number with an optional us/ms/s/m/h/d unit)"
                                       : "must be at most 4294967295 s");
    j->startdelay_ms = us / 1000;
    return FSC_OK;
}

/* iodepth_batch_complete is fio's old name of iodepth_batch_complete_min */
static const optdef options[] = {
    {"name", O_STR, OFF(name), 0, 0, NULL},
    {"description", O_STR, OFF(description), 0, 0, NULL},
    {"filename", O_STR, OFF(filename), 0, 0, NULL},
    {"directory", O_STR, OFF(directory), 0, 0, NULL},
    {"size", O_FN, 0, 0, 0, opt_size},
    {"filesize", O_SIZE, OFF(filesize), 1, 1ull << 60, NULL},
    {"io_size", O_SIZE, OFF(io_size), 1, 1ull << 62, NULL},
    {"io_limit", O_SIZE, OFF(io_size), 1, 1ull << 62, NULL},
    {"number_ios", O_SIZE, OFF(number_ios), 1, 1ull << 62, NULL},
    {"offset", O_FN, 0, 0, 0, opt_offset},
    {"fileoffset", O_FN, 0, 0, 0, opt_offset},
    {"offset_increment", O_SIZE, OFF(offset_increment), 0, 1ull << 60, NULL},
    {"nrfiles", O_UINT, OFF(nrfiles), 1, 4096, NULL},
    {"nr_files", O_UINT, OFF(nrfiles), 1, 4096, NULL},
    {"file_service_type", O_FN, 0, 0, 0, opt_file_service_type},
    {"rw", O_FN, 0, 0, 0, opt_rw},
    {"readwrite", O_FN, 0, 0, 0, opt_rw},
    {"rwmixread", O_UINT, OFF(rwmixread), 0, 100, NULL},
    {"rwmixwrite", O_FN, 0, 0, 0, opt_rwmixwrite},
    {"bs", O_FN, 0, 0, 0, opt_bs},
    {"blocksize", O_FN, 0, 0, 0, opt_bs},
    {"bsrange", O_FN, 0, 0, 0, opt_bsrange},
    {"blocksize_range", O_FN, 0, 0, 0, opt_bsrange},
    {"bssplit", O_FN, 0, 0, 0, opt_bssplit},
    {"ioengine", O_FN, 0, 0, 0, opt_ioengine},
    {"iodepth", O_UINT, OFF(iodepth), 1, 4096, NULL},
    {"iodepth_batch", O_UINT, OFF(iodepth_batch), 0, 4096, NULL},
    {"iodepth_batch_submit", O_UINT, OFF(iodepth_batch), 0, 4096, NULL},
    {"iodepth_batch_complete", O_UINT, OFF(iodepth_batch_complete_min), 0, 4096, NULL},
    {"iodepth_batch_complete_min", O_UINT, OFF(iodepth_batch_complete_min), 0, 4096, NULL},
    {"iodepth_batch_complete_max", O_UINT, OFF(iodepth_batch_complete_max), 0, 4096, NULL},
    {"iodepth_low", O_UINT, OFF(iodepth_low), 0, 4096, NULL},
    {"direct", O_BOOL, OFF(direct), 0, 0, NULL},
    {"buffered", O_NOTBOOL, OFF(direct), 0, 0, NULL},
    {"numjobs", O_UINT, OFF(numjobs), 1, 1024, NULL},
    {"runtime", O_TIME_MS, OFF(runtime_ms), 0, MAX_SECONDS, NULL},
    {"timeout", O_TIME_MS, OFF(runtime_ms), 0, MAX_SECONDS, NULL},
    {"time_based", O_BOOL, OFF(time_based), 0, 0, NULL},
    {"ramp_time", O_TIME_MS, OFF(ramp_ms), 0, MAX_SECONDS, NULL},
    {"startdelay", O_FN, 0, 0, 0, opt_startdelay},
    {"loops", O_UINT, OFF(loops), 1, 1000000000, NULL},
    {"invalidate", O_BOOL, OFF(invalidate), 0, 0, NULL},
    {"fadvise_hint", O_FN, 0, 0, 0, opt_fadvise},
    {"randrepeat", O_BOOL, OFF(randrepeat), 0, 0, NULL},
    {"allrandrepeat", O_BOOL, OFF(randrepeat), 0, 0, NULL},
    {"randseed", O_FN, 0, 0, 0, opt_randseed},
    {"norandommap", O_BOOL, OFF(norandommap), 0, 0, NULL},
    {"random_distribution", O_FN, 0, 0, 0, opt_random_distribution},
    {"rate", O_FN, 0, 0, 0, opt_rate},
    {"rate_min", O_FN, 0, 0, 0, opt_rate},
    {"rate_iops", O_FN, 0, 0, 0, opt_rate},
    {"rate_iops_min", O_FN, 0, 0, 0, opt_rate},
    {"thinktime", O_TIME_US, OFF(thinktime_us), 0, 3600, NULL},
    {"thinktime_spin", O_TIME_US, OFF(thinktime_spin_us), 0, 3600, NULL},
    {"thinktime_blocks", O_UINT, OFF(thinktime_blocks), 1, 1000000000, NULL},
    {"fallocate", O_FN, 0, 0, 0, opt_fallocate},
    {"create_on_open", O_BOOL, OFF(create_on_open), 0, 0, NULL},
    {"unlink", O_BOOL, OFF(unlink), 0, 0, NULL},
    {"overwrite", O_BOOL, OFF(overwrite), 0, 0, NULL},
    {"fsync", O_UINT, OFF(fsync), 0, 1000000000, NULL},
    {"fdatasync", O_UINT, OFF(fdatasync), 0, 1000000000, NULL},
    {"end_fsync", O_BOOL, OFF(end_fsync), 0, 0, NULL},
    {"fsync_on_close", O_BOOL, OFF(fsync_on_close), 0, 0, NULL},
    {"sync", O_FN, 0, 0, 0, opt_sync},
    {"zero_buffers", O_BOOL, OFF(zero_buffers), 0, 0, NULL},
    {"refill_buffers", O_BOOL, OFF(refill_buffers), 0, 0, NULL},
    {"scramble_buffers", O_BOOL, OFF(scramble_buffers), 0, 0, NULL},
    {"buffer_compress_percentage", O_UINT, OFF(buffer_compress_percentage), 0, 100, NULL},
    {"buffer_compress_chunk", O_SIZE, 0, 0, 0, NULL}, /* handled below: unsigned field */
    {"verify", O_FN, 0, 0, 0, opt_verify},
    {"do_verify", O_BOOL, OFF(do_verify), 0, 0, NULL},
    {"verify_fatal", O_BOOL, OFF(verify_fatal), 0, 0, NULL},
    {"cpus_allowed", O_FN, 0, 0, 0, opt_cpus_allowed},
    {"cpumask", O_FN, 0, 0, 0, opt_cpumask},
    {"cpus_allowed_policy", O_FN, 0, 0, 0, opt_cpus_policy},
    {"wait_for", O_STR, OFF(wait_for), 0, 0, NULL},
    {"exitall", O_BOOL, OFF(exitall), 0, 0, NULL},
    {"group_reporting", O_BOOL, OFF(group_reporting), 0, 0, NULL},
    {"stonewall", O_BOOL, OFF(new_group), 0, 0, NULL},
    {"wait_for_previous", O_BOOL, OFF(new_group), 0, 0, NULL},
    {"new_group", O_BOOL, OFF(new_group), 0, 0, NULL},
    {"percentile_list", O_FN, 0, 0, 0, opt_percentile_list},
    {"clat_percentiles", O_BOOL, OFF(clat_percentiles), 0, 0, NULL},
    {"lat_percentiles", O_BOOL, OFF(lat_percentiles), 0, 0, NULL},
    {"slat_percentiles", O_BOOL, OFF(slat_percentiles), 0, 0, NULL},
    {"unified_rw_reporting", O_FN, 0, 0, 0, opt_unified},
    {"kb_base", O_FN, 0, 0, 0, opt_kb_base},
    {"thread", O_FN, 0, 0, 0, opt_thread},
    {"write_bw_log", O_FN, 0, 0, 0, opt_log},
    {"write_iops_log", O_FN, 0, 0, 0, opt_log},
    {"write_lat_log", O_FN, 0, 0, 0, opt_log},
    {"write_hist_log", O_FN, 0, 0, 0, opt_log},
    {"log_avg_msec", O_UINT, OFF(log_avg_msec), 0, 86400000, NULL},
    {"log_hist_msec", O_UINT, OFF(log_hist_msec), 0, 86400000, NULL},
    {"log_max_value", O_BOOL, OFF(log_max_value), 0, 0, NULL},
    {"per_job_logs", O_BOOL, OFF(per_job_logs), 0, 0, NULL},
    {"log_offset", O_BOOL, OFF(log_offset), 0, 0, NULL},
    /* fio options that change nothing fioscope measures: progress display, safety
     * switches fioscope has its own way for, reporting it always does, clocks */
    {"eta", O_ACCEPT, 0, 0, 0, NULL},
    {"eta_newline", O_ACCEPT, 0, 0, 0, NULL},
    {"eta-newline", O_ACCEPT, 0, 0, 0, NULL},
    {"eta_interval", O_ACCEPT, 0, 0, 0, NULL},
    {"eta-interval", O_ACCEPT, 0, 0, 0, NULL},
    {"eta_print", O_ACCEPT, 0, 0, 0, NULL},
    {"allow_mounted_write", O_ACCEPT, 0, 0, 0, NULL},
    {"allow_file_create", O_ACCEPT, 0, 0, 0, NULL},
    {"gtod_reduce", O_ACCEPT, 0, 0, 0, NULL},
    {"clocksource", O_ACCEPT, 0, 0, 0, NULL},
    {"gtod_cpu", O_ACCEPT, 0, 0, 0, NULL},
    {"disk_util", O_ACCEPT, 0, 0, 0, NULL},
    {"stats", O_ACCEPT, 0, 0, 0, NULL},
    {"unit_base", O_ACCEPT, 0, 0, 0, NULL},
    {"create_serialize", O_ACCEPT, 0, 0, 0, NULL},
    {"create_fsync", O_ACCEPT, 0, 0, 0, NULL},
    {"random_generator", O_ACCEPT, 0, 0, 0, NULL},
    {"use_os_rand", O_ACCEPT, 0, 0, 0, NULL},
    {"iomem", O_ACCEPT, 0, 0, 0, NULL},
    {"mem", O_ACCEPT, 0, 0, 0, NULL},
    {"iomem_align", O_ACCEPT, 0, 0, 0, NULL},
    {"mem_align", O_ACCEPT, 0, 0, 0, NULL},
    {"openfiles", O_ACCEPT, 0, 0, 0, NULL},
    {"continue_on_error", O_ACCEPT, 0, 0, 0, NULL},
    {"exitall_on_error", O_ACCEPT, 0, 0, 0, NULL},
    {"verify_dump", O_ACCEPT, 0, 0, 0, NULL},
    {"verify_state_save", O_ACCEPT, 0, 0, 0, NULL},
    {"verify_async", O_ACCEPT, 0, 0, 0, NULL},
    {"significant_figures", O_ACCEPT, 0, 0, 0, NULL},
    {"lockfile", O_ACCEPT, 0, 0, 0, NULL},
    {"serialize_overlap", O_ACCEPT, 0, 0, 0, NULL},
    {"group_reporting_fill", O_ACCEPT, 0, 0, 0, NULL},
};

static const optdef *find_option(const char *key)
{
    for (size_t i = 0; i < FSC_ARRAY_SIZE(options); i++)
        if (!strcmp(key, options[i].name))
            return &options[i];
    return NULL;
}

bool fsc_job_option_known(const char *key)
{
    return find_option(key) != NULL;
}

static fsc_status apply(fsc_jobdef *j, const optdef *o, const char *key, const char *val, char *e, size_t n)
{
    char *base = (char *)j;
    switch (o->kind) {
    case O_STR:
        if (!val || !*val)
            return fail(e, n, "%s: needs a value", key);
        return fsc_set_str((char **)(base + o->off), val);
    case O_SIZE: {
        uint64_t x;
        fsc_status st = fsc_parse_fio_size(val, &x);
        if (st != FSC_OK)
            return fail(e, n, "%s=%s: not a size (a number with an optional k/m/g/t/p suffix)", key,
                        val ? val : "");
        if (x < o->lo || x > o->hi)
            return fail(e, n, "%s=%s: must be between %llu and %llu", key, val, (unsigned long long)o->lo,
                        (unsigned long long)o->hi);
        if (!strcmp(key, "buffer_compress_chunk")) {
            if (x > (64u << 20))
                return fail(e, n, "%s=%s: must be at most 64MiB", key, val);
            j->buffer_compress_chunk = (unsigned)x;
        } else {
            *(uint64_t *)(base + o->off) = x;
        }
        return FSC_OK;
    }
    case O_UINT: {
        uint64_t x;
        const char *p = val ? val : "";
        fsc_status st = read_u64(&p, &x);
        if (st == FSC_E_RANGE)
            x = UINT64_MAX;
        else if (st != FSC_OK || *p)
            return fail(e, n, "%s=%s: not a whole number", key, val ? val : "");
        if (x < o->lo || x > o->hi)
            return fail(e, n, "%s=%s: must be between %llu and %llu", key, val, (unsigned long long)o->lo,
                        (unsigned long long)o->hi);
        *(unsigned *)(base + o->off) = (unsigned)x;
        return FSC_OK;
    }
    case O_BOOL:
    case O_NOTBOOL: {
        bool b;
        if (parse_bool(val, &b) != FSC_OK)
            return fail(e, n, "%s=%s: expected 0 or 1", key, val);
        *(bool *)(base + o->off) = o->kind == O_BOOL ? b : !b;
        return FSC_OK;
    }
    case O_TIME_MS:
    case O_TIME_US: {
        uint64_t us;
        fsc_status st = parse_time_us(val, o->kind == O_TIME_MS ? 1000000 : 1, &us);
        if (st == FSC_E_SYNTAX)
            return fail(e, n, "%s=%s: not a time (a number with an optional us/ms/s/m/h/d unit)", key,
                        val ? val : "");
        if (st != FSC_OK || us / 1000000 > o->hi)
            return fail(e, n, "%s=%s: must be at most %llu s", key, val, (unsigned long long)o->hi);
        *(uint64_t *)(base + o->off) = o->kind == O_TIME_MS ? us / 1000 : us;
        return FSC_OK;
    }
    case O_FN:
        return o->fn(j, key, val, e, n);
    case O_ACCEPT:
        return FSC_OK;
    }
    return FSC_E_USAGE;
}

static bool remember_option(fsc_jobdef *j, const char *key, const char *val)
{
    for (size_t i = 0; i < j->n_given; i++)
        if (!strcmp(j->given[i].key, key)) {
            char *v = fsc_strdup(val ? val : "");
            if (!v)
                return false;
            free(j->given[i].val);
            j->given[i].val = v;
            return true;
        }
    fsc_opt *o = FSC_PUSH(j->given, j->n_given, j->cap_given);
    if (!o)
        return false;
    o->key = fsc_strdup(key);
    o->val = fsc_strdup(val ? val : "");
    if (!o->key || !o->val) {
        free(o->key);
        free(o->val);
        j->n_given--;
        return false;
    }
    return true;
}

bool fsc_jobdef_remember(fsc_jobdef *j, const char *key, const char *val)
{
    return remember_option(j, key, val);
}

fsc_status fsc_jobdef_set(fsc_jobdef *j, const char *key, const char *val, char *err, size_t errlen)
{
    const optdef *o = find_option(key);
    if (!o) {
        const char *names[FSC_ARRAY_SIZE(options)];
        for (size_t i = 0; i < FSC_ARRAY_SIZE(options); i++)
            names[i] = options[i].name;
        const char *near = fsc_nearest(key, names, FSC_ARRAY_SIZE(options), 0);
        if (near)
            return fail(err, errlen, "unknown or unsupported option '%s' (did you mean '%s'?)", key, near);
        return fail(err, errlen, "unknown or unsupported option '%s'", key);
    }
    err[0] = '\0';
    fsc_status st = apply(j, o, key, val, err, errlen);
    if (st != FSC_OK) {
        if (!err[0])
            snprintf(err, errlen, "%s=%s: %s", key, val ? val : "", fsc_strerror(st));
        return st == FSC_E_NOMEM ? st : FSC_E_USAGE;
    }
    return remember_option(j, key, val) ? FSC_OK : FSC_E_NOMEM;
}
