/* SPDX-License-Identifier: MIT */
/*
 * Selections: `--where FIELD OP VALUE` over any dimension or metric.
 * OP is = != ~ >= <= > <; numbers take unit suffixes (1k, 100MiB, 2ms).
 */
#define PCRE2_CODE_UNIT_WIDTH 8
#include "analyze_int.h"

#include <ctype.h>
#include <math.h>
#include <pcre2.h>
#include <stdio.h>
#include <stdlib.h>

typedef enum where_op { OP_EQ, OP_NE, OP_RE, OP_GE, OP_LE, OP_GT, OP_LT } where_op;

struct fsc_where {
    fsc_mspec m;
    where_op op;
    char *value;      /* as written */
    char *norm;       /* normalized text value (systems, headings: case and - _ blind) */
    double num;       /* the value as a number in the field's base unit */
    bool num_ok;
    pcre2_code *re;
    pcre2_match_data *md;
};

static const struct {
    const char *text;
    where_op op;
} ops[] = {{"!=", OP_NE}, {">=", OP_GE}, {"<=", OP_LE}, {"=", OP_EQ},
           {"~", OP_RE},  {">", OP_GT},  {"<", OP_LT}};

/* Multiplier of a unit suffix for a field of unit u; 0 if it does not apply. */
static double unit_factor(const char *s, fsc_unit u)
{
    char w[16];
    size_t n = 0;
    while (*s == ' ')
        s++;
    for (; *s && n + 1 < sizeof w; s++)
        if (*s != ' ')
            w[n++] = *s;
    w[n] = '\0';
    if (!n)
        return 1;
    if (u == FSC_UNIT_NS || u == FSC_UNIT_MS) {
        static const struct {
            const char *name;
            double ns;
        } t[] = {{"ns", 1}, {"nsec", 1}, {"us", 1e3}, {"usec", 1e3}, {"\xc2\xb5s", 1e3},
                 {"ms", 1e6}, {"msec", 1e6}, {"s", 1e9}, {"sec", 1e9}};
        for (size_t i = 0; i < FSC_ARRAY_SIZE(t); i++)
            if (!strcmp(w, t[i].name))
                return u == FSC_UNIT_MS ? t[i].ns / 1e6 : t[i].ns;
        return 0;
    }
    if (u == FSC_UNIT_PCT)
        return !strcmp(w, "%") ? 1 : 0;
    /* "/s" after a rate is noise */
    if (n >= 2 && !strcmp(w + n - 2, "/s"))
        w[n -= 2] = '\0';
    static const char prefixes[] = "kmgtp";
    const char *pp = strchr(prefixes, tolower((unsigned char)w[0]));
    if (!pp || !w[0])
        return !strcmp(w, "B") || !w[0] ? 1 : 0;
    double power = (double)(pp - prefixes + 1);
    bool bytes = u == FSC_UNIT_BYTES || u == FSC_UNIT_BYTES_PER_S || u == FSC_UNIT_KIB_PER_S;
    const char *rest = w + 1;
    if (!strcmp(rest, "i") || !strcmp(rest, "iB") || !strcmp(rest, "ib"))
        return pow(1024, power);
    if (!strcmp(rest, "B") || !strcmp(rest, "b"))
        return pow(1000, power);
    if (!*rest) /* like fio's own options: a bare k on sizes is 1024, on counts 1000 */
        return pow(bytes ? 1024 : 1000, power);
    return 0;
}

static bool parse_number(const char *s, fsc_unit u, double *out)
{
    char *end;
    while (*s == ' ')
        s++;
    double v = strtod(s, &end);
    if (end == s || !isfinite(v))
        return false;
    double f = unit_factor(end, u);
    if (f == 0)
        return false;
    *out = v * f;
    return true;
}

static void unknown_field(const char *field, fsc_buf *err)
{
    const char *cands[FSC_DIM_COUNT + 64];
    size_t n = 0, nb;
    for (int d = 0; d < FSC_DIM_COUNT; d++)
        cands[n++] = fsc_dim_get((fsc_dim)d)->name;
    const char *const *base = fsc_metric_base_names(&nb);
    for (size_t i = 0; i < nb && n < FSC_ARRAY_SIZE(cands); i++)
        cands[n++] = base[i];
    const char *near = fsc_nearest(field, cands, n, 0);
    fsc_buf_printf(err, "unknown field '%s' in --where", field);
    if (near)
        fsc_buf_printf(err, " (did you mean '%s'?)", near);
    else
        fsc_buf_puts(err, " (see 'fioscope metrics')");
}

fsc_status fsc_where_parse(const char *expr, fsc_where **out, fsc_buf *err)
{
    *out = NULL;
    const char *p = expr;
    while (*p == ' ')
        p++;
    size_t fl = 0;
    while (p[fl] && (isalnum((unsigned char)p[fl]) || p[fl] == '_' || p[fl] == '.'))
        fl++;
    const char *q = p + fl;
    while (*q == ' ')
        q++;
    size_t k = 0;
    while (k < FSC_ARRAY_SIZE(ops) && strncmp(q, ops[k].text, strlen(ops[k].text)))
        k++;
    if (!fl || k == FSC_ARRAY_SIZE(ops)) {
        fsc_buf_printf(err, "--where '%s': expected FIELD=VALUE, FIELD!=VALUE, FIELD~REGEX, "
                            "FIELD>=N, FIELD<=N, FIELD>N or FIELD<N",
                       expr);
        return FSC_E_USAGE;
    }
    fsc_where *w = calloc(1, sizeof *w);
    if (!w)
        return FSC_E_NOMEM;
    char field[64];
    snprintf(field, sizeof field, "%.*s", (int)(fl < 63 ? fl : 63), p);
    if (!fsc_mspec_parse(p, fl, &w->m)) {
        unknown_field(field, err);
        free(w);
        return FSC_E_USAGE;
    }
    w->op = ops[k].op;
    const char *v = q + strlen(ops[k].text);
    if (w->op != OP_RE)
        while (*v == ' ')
            v++;
    size_t vl = strlen(v);
    while (w->op != OP_RE && vl && v[vl - 1] == ' ')
        vl--;
    w->value = fsc_strndup(v, vl);
    fsc_buf nb = {0};
    if (w->value)
        fsc_norm_name(w->value, &nb);
    w->norm = nb.data;
    if (!w->value || !w->norm) {
        fsc_where_free(w);
        return FSC_E_NOMEM;
    }
    fsc_unit u = w->m.m.text ? FSC_UNIT_NONE : w->m.m.unit;
    if (w->m.m.text && w->m.dim == FSC_DIM_BS)
        u = FSC_UNIT_BYTES;
    w->num_ok = parse_number(w->value, u, &w->num);
    if (w->m.m.text && w->m.dim == FSC_DIM_BS && !w->num_ok)
        w->num_ok = !isnan(w->num = fsc_bs_bytes(w->value));
    fsc_status st = FSC_OK;
    if (w->op == OP_RE) {
        int code;
        PCRE2_SIZE off;
        if (!w->m.m.text) {
            fsc_buf_printf(err, "--where '%s': '~' matches text fields (system, label, rw ...), "
                                "not the number '%s'",
                           expr, field);
            st = FSC_E_USAGE;
        } else if (!(w->re = pcre2_compile((PCRE2_SPTR)w->value, PCRE2_ZERO_TERMINATED,
                                           PCRE2_UTF | PCRE2_MATCH_INVALID_UTF, &code, &off, NULL))) {
            PCRE2_UCHAR msg[256];
            pcre2_get_error_message(code, msg, sizeof msg);
            fsc_buf_printf(err, "--where '%s': bad regex at offset %zu: %s", expr, (size_t)off, (char *)msg);
            st = FSC_E_USAGE;
        } else if (!(w->md = pcre2_match_data_create_from_pattern(w->re, NULL))) {
            st = FSC_E_NOMEM;
        }
    } else if (w->op != OP_EQ && w->op != OP_NE && !w->num_ok && !(w->m.m.text && w->m.text == FSC_MT_DATE)) {
        fsc_buf_printf(err, "--where '%s': '%s' is not a number%s", expr, w->value,
                       w->m.m.unit == FSC_UNIT_NS ? " (latencies take ns, us, ms or s)" : "");
        st = FSC_E_USAGE;
    } else if (!w->m.m.text && !w->num_ok) {
        fsc_buf_printf(err, "--where '%s': '%s' is not a number", expr, w->value);
        st = FSC_E_USAGE;
    }
    if (st != FSC_OK) {
        fsc_where_free(w);
        return st;
    }
    *out = w;
    return FSC_OK;
}

void fsc_where_free(fsc_where *w)
{
    if (!w)
        return;
    pcre2_match_data_free(w->md);
    pcre2_code_free(w->re);
    free(w->value);
    free(w->norm);
    free(w);
}

static bool compare_num(where_op op, double x, double v)
{
    switch (op) {
    case OP_EQ: return x == v;
    case OP_NE: return x != v;
    case OP_GE: return x >= v;
    case OP_LE: return x <= v;
    case OP_GT: return x > v;
    case OP_LT: return x < v;
    case OP_RE: return false;
    }
    return false;
}

static bool text_equal(const fsc_where *w, const char *t)
{
    if (!strcmp(t, w->value))
        return true;
    if (w->m.dim == FSC_DIM_BS && w->num_ok) /* bs=4k matches 4096, 4K, 4KiB */
        return fsc_bs_bytes(t) == w->num;
    fsc_buf n = {0};
    fsc_norm_name(t, &n);
    bool eq = n.data && !strcmp(n.data, w->norm); /* "RAID-5" = "raid 5" */
    fsc_buf_free(&n);
    return eq;
}

bool fsc_where_test(const fsc_where *w, const fsc_analysis *a, const fsc_arow *row)
{
    if (!w->m.m.text) {
        fsc_mval v = fsc_analysis_eval(a, row, &w->m);
        if (!v.set)
            return w->op == OP_NE;
        return compare_num(w->op, v.v, w->num);
    }
    char tmp[1024];
    const char *t = fsc_analysis_text(a, row, &w->m, tmp, sizeof tmp);
    if (!t)
        t = "";
    switch (w->op) {
    case OP_EQ: return text_equal(w, t);
    case OP_NE: return !text_equal(w, t);
    case OP_RE:
        return pcre2_match(w->re, (PCRE2_SPTR)t, PCRE2_ZERO_TERMINATED, 0, 0, w->md, NULL) >= 0;
    default: {
        if (w->m.text == FSC_MT_DATE) /* 2026-11-30: the text's order is the dates' */
            return *t && compare_num(w->op, (double)strcmp(t, w->value), 0);
        double x = w->m.dim == FSC_DIM_BS ? fsc_bs_bytes(t) : strtod(t, NULL);
        char *end;
        if (w->m.dim != FSC_DIM_BS && (strtod(t, &end), end == t))
            return false;
        return !isnan(x) && compare_num(w->op, x, w->num);
    }
    }
}
