/* SPDX-License-Identifier: MIT */
/*
 * Naming each row's system. `auto` tries what could tell runs of one workload apart —
 * the inputs, the directories, each heading level, the host, the part of the job name
 * that is not the workload — and takes the one that separates the most workloads.
 */
#define PCRE2_CODE_UNIT_WIDTH 8
#include "analyze_int.h"

#include <ctype.h>
#include <pcre2.h>
#include <stdio.h>
#include <stdlib.h>

static const char label_sep[] = " \xe2\x80\xba "; /* " › " */

/* ---- --system-from ---- */

fsc_status fsc_sys_rule_parse(const char *spec, sys_rule *r, fsc_buf *err)
{
    static const char *const names[] = {"auto", "dir", "file", "heading", "host", "label", "job"};
    memset(r, 0, sizeof *r);
    if (!spec || !strcmp(spec, "auto"))
        return FSC_OK;
    if (!strcmp(spec, "dir")) {
        r->src = SYS_DIR;
    } else if (!strcmp(spec, "file")) {
        r->src = SYS_FILE;
    } else if (!strcmp(spec, "host")) {
        r->src = SYS_HOST;
    } else if (!strcmp(spec, "label")) {
        r->src = SYS_LABEL;
    } else if (!strncmp(spec, "heading", 7) && (!spec[7] || spec[7] == ':')) {
        r->src = SYS_HEADING;
        if (spec[7]) {
            char *end;
            long n = strtol(spec + 8, &end, 10);
            if (*end || end == spec + 8 || n < 1 || n > 32) {
                fsc_buf_printf(err, "--system-from=heading:N takes a level from 1 (outermost), not '%s'",
                               spec + 8);
                return FSC_E_USAGE;
            }
            r->level = (int)n;
        }
    } else if (!strncmp(spec, "job:", 4)) {
        int code;
        PCRE2_SIZE off;
        r->src = SYS_JOB;
        r->re = pcre2_compile((PCRE2_SPTR)(spec + 4), PCRE2_ZERO_TERMINATED,
                              PCRE2_UTF | PCRE2_MATCH_INVALID_UTF, &code, &off, NULL);
        if (!r->re) {
            PCRE2_UCHAR msg[256];
            pcre2_get_error_message(code, msg, sizeof msg);
            fsc_buf_printf(err, "bad regex in --system-from=job: at offset %zu: %s", (size_t)off,
                           (char *)msg);
            return FSC_E_USAGE;
        }
    } else {
        char word[64];
        snprintf(word, sizeof word, "%.*s", (int)strcspn(spec, ":"), spec);
        const char *near = fsc_nearest(word, names, FSC_ARRAY_SIZE(names), 0);
        fsc_buf_printf(err, "unknown field '%s' in --system-from", word);
        if (near)
            fsc_buf_printf(err, " (did you mean '%s'?)", near);
        else
            fsc_buf_puts(err, " (auto, dir, file, heading[:N], host, label, job:REGEX)");
        return FSC_E_USAGE;
    }
    return FSC_OK;
}

void fsc_sys_rule_free(sys_rule *r)
{
    pcre2_code_free(r->re);
    r->re = NULL;
}

/* ---- candidate values ---- */

typedef struct cand {
    sys_source src;
    int level; /* SYS_HEADING */
} cand;

typedef struct sys_ctx {
    fsc_analysis *a;
    const char **dir_name;  /* per row: distinguishing part of its directory */
    const char **job_part;  /* per row: its job name without the workload part */
    pcre2_match_data *md;
    const sys_rule *rule;
} sys_ctx;

/* The level-th heading (1-based) of a row's heading dimension, into out. */
static void heading_at(const char *heading, int level, fsc_buf *out)
{
    const char *p = heading;
    for (int l = 1; *p; l++) {
        const char *sep = strstr(p, label_sep);
        size_t n = sep ? (size_t)(sep - p) : strlen(p);
        if (l == level) {
            fsc_buf_add(out, p, n);
            return;
        }
        if (!sep)
            return;
        p = sep + strlen(label_sep);
    }
}

static int max_heading_depth(const fsc_analysis *a)
{
    int max = 0;
    const char *prev = NULL;
    for (size_t i = 0; i < a->n_all; i++) {
        const char *h = a->all[i].dim[FSC_DIM_HEADING];
        if (h == prev || !*h)
            continue;
        prev = h;
        int d = 1;
        for (const char *p = h; (p = strstr(p, label_sep)); p += strlen(label_sep))
            d++;
        if (d > max)
            max = d;
    }
    return max > 8 ? 8 : max;
}

/* File name of a row without its extension ("virt-ham0-raid1.txt" → "virt-ham0-raid1"). */
static void file_stem(const fsc_arow *r, fsc_buf *out)
{
    const char *path = r->r->source.member ? r->r->source.member : r->r->source.path ? r->r->source.path : "";
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    const char *dot = strrchr(base, '.');
    fsc_buf_add(out, base, dot && dot != base ? (size_t)(dot - base) : strlen(base));
}

/* The label without the job name: its headings (or file). */
static void label_head(const fsc_analysis *a, size_t i, fsc_buf *out)
{
    const char *l = a->extra[i].base_label;
    const char *jn = a->all[i].dim[FSC_DIM_JOBNAME];
    size_t n = strlen(l), jl = strlen(jn), sl = strlen(label_sep);
    if (jl && n > jl + sl && !strcmp(l + n - jl, jn) && !memcmp(l + n - jl - sl, label_sep, sl))
        n -= jl + sl;
    fsc_buf_add(out, l, n);
}

static void regex_part(sys_ctx *c, const char *s, fsc_buf *out)
{
    int rc = pcre2_match(c->rule->re, (PCRE2_SPTR)s, PCRE2_ZERO_TERMINATED, 0, 0, c->md, NULL);
    if (rc <= 0)
        return;
    PCRE2_SIZE *ov = pcre2_get_ovector_pointer(c->md);
    int g = rc > 1 && ov[2] != PCRE2_UNSET ? 1 : 0;
    fsc_buf_add(out, s + ov[2 * g], ov[2 * g + 1] - ov[2 * g]);
}

/* A candidate's value for row i, interned ("" = none); NULL when out of memory. */
static const char *cand_value(sys_ctx *c, const cand *k, size_t i)
{
    fsc_analysis *a = c->a;
    const fsc_arow *r = &a->all[i];
    fsc_buf b = {0};
    switch (k->src) {
    case SYS_INPUT:
    case SYS_SIDE:
        return a->extra[i].input_name;
    case SYS_DIR:
        return c->dir_name[i];
    case SYS_JOBPART:
        return c->job_part[i];
    case SYS_HOST:
        return r->dim[FSC_DIM_HOST];
    case SYS_HEADING:
        heading_at(r->dim[FSC_DIM_HEADING], k->level, &b);
        break;
    case SYS_FILE:
        file_stem(r, &b);
        break;
    case SYS_LABEL:
        label_head(a, i, &b);
        break;
    case SYS_JOB:
        regex_part(c, r->dim[FSC_DIM_JOBNAME], &b);
        break;
    case SYS_AUTO:
    case SYS_NONE:
        break;
    }
    const char *v = b.oom ? NULL : fsc_pool_str(&a->pool, b.data ? b.data : "");
    fsc_buf_free(&b);
    return v;
}

/* ---- the directory candidate ---- */

static bool dir_names(sys_ctx *c)
{
    fsc_analysis *a = c->a;
    fsc_keymap seen = {0};
    char **dirs = NULL;
    size_t n = 0, cap = 0;
    size_t *idx = malloc((a->n_all ? a->n_all : 1) * sizeof *idx);
    bool ok = idx != NULL;
    fsc_buf d = {0};
    for (size_t i = 0; ok && i < a->n_all; i++) {
        const fsc_run *run = a->all[i].r;
        const char *p = run->source.path ? run->source.path : "";
        const char *slash = strrchr(p, '/');
        fsc_buf_reset(&d);
        fsc_buf_add(&d, p, slash ? (size_t)(slash - p) : 0);
        const char *m = run->source.member;
        if (m && strrchr(m, '/')) {
            fsc_buf_putc(&d, '/');
            fsc_buf_add(&d, m, (size_t)(strrchr(m, '/') - m));
        }
        const char *key = d.oom ? NULL : fsc_pool_str(&a->pool, d.data ? d.data : "");
        fsc_key k = {{(uintptr_t)key, 0, 0, 0}};
        size_t at = key ? fsc_keymap_put(&seen, &k, n) : SIZE_MAX;
        if (at == n) {
            char **slot = FSC_PUSH(dirs, n, cap);
            ok = slot && (*slot = fsc_strdup(key));
        }
        ok = ok && at != SIZE_MAX;
        if (ok)
            idx[i] = at;
    }
    fsc_buf_free(&d);
    /* one directory says nothing; several are named by what differs */
    if (ok && n > 1)
        fsc_path_distinguish(dirs, n);
    for (size_t i = 0; ok && i < a->n_all; i++)
        ok = (c->dir_name[i] = n > 1 ? fsc_pool_str(&a->pool, dirs[idx[i]]) : "") != NULL;
    for (size_t i = 0; i < n; i++)
        free(dirs[i]);
    free(dirs);
    free(idx);
    fsc_keymap_free(&seen);
    return ok;
}

/* ---- the job-name candidate ---- */

static bool is_sep(char c)
{
    return c == '-' || c == '_' || c == '.' || c == ' ';
}

/* A word that describes a workload rather than a system: rw names, sizes, depths. */
static bool workload_word(const char *s, size_t n)
{
    static const char *const words[] = {
        "read", "write", "rw", "randread", "randwrite", "randrw", "readwrite", "randtrim", "trim",
        "trimwrite", "seq", "seqread", "seqwrite", "seqrw", "rand", "random", "sequential", "mixed",
        "mix", "iops", "bw", "lat", "latency", "throughput", "test", "fio", "job", "rr", "rs", "sr",
        "sw", "rrw", "srw", "direct", "buffered", "sync", "libaio", "psync", "uring", "io_uring"};
    char w[32];
    if (!n || n >= sizeof w)
        return false;
    for (size_t i = 0; i < n; i++)
        w[i] = (char)tolower((unsigned char)s[i]);
    w[n] = '\0';
    for (size_t i = 0; i < FSC_ARRAY_SIZE(words); i++)
        if (!strcmp(w, words[i]))
            return true;
    /* 4k, 128k, 1m, 4096, 64kib, qd32, iodepth8, t4, j8, 8jobs, 16t, p4 */
    size_t i = 0;
    while (i < n && isalpha((unsigned char)w[i]))
        i++;
    size_t alpha_lead = i;
    if (i == n)
        return false;
    while (i < n && isdigit((unsigned char)w[i]))
        i++;
    if (i == alpha_lead)
        return false;
    const char *tail = w + i;
    if (alpha_lead) {
        static const char *const pre[] = {"qd", "iodepth", "depth", "d", "t", "j", "jobs", "numjobs", "nj", "p", "bs", "q"};
        for (size_t k = 0; k < FSC_ARRAY_SIZE(pre); k++)
            if (strlen(pre[k]) == alpha_lead && !memcmp(w, pre[k], alpha_lead))
                return !*tail;
        return false;
    }
    static const char *const post[] = {"", "k", "m", "g", "b", "kb", "mb", "gb", "kib", "mib", "gib",
                                       "jobs", "job", "j", "t", "qd", "p", "x", "threads"};
    for (size_t k = 0; k < FSC_ARRAY_SIZE(post); k++)
        if (!strcmp(tail, post[k]))
            return true;
    return false;
}

/* Token boundaries of s: starts[i], ends[i]; returns the count (at most max). */
static size_t tokens(const char *s, size_t *starts, size_t *ends, size_t max)
{
    size_t n = 0, i = 0, len = strlen(s);
    while (i < len && n < max) {
        while (i < len && is_sep(s[i]))
            i++;
        if (i >= len)
            break;
        starts[n] = i;
        while (i < len && !is_sep(s[i]))
            i++;
        ends[n++] = i;
    }
    return n;
}

enum { MAX_TOK = 32 };

/* The job name without workload words at either end. */
static void strip_workload_words(const char *s, fsc_buf *out)
{
    size_t st[MAX_TOK], en[MAX_TOK];
    size_t n = tokens(s, st, en, MAX_TOK), lo = 0, hi = n;
    while (lo < hi && workload_word(s + st[lo], en[lo] - st[lo]))
        lo++;
    while (hi > lo && workload_word(s + st[hi - 1], en[hi - 1] - st[hi - 1]))
        hi--;
    if (lo < hi)
        fsc_buf_add(out, s + st[lo], en[hi - 1] - st[lo]);
}

static bool same_token(const char *a, size_t as, size_t ae, const char *b, size_t bs, size_t be)
{
    return ae - as == be - bs && !memcmp(a + as, b + bs, ae - as);
}

/* Names of one workload: what remains after the tokens all of them share at the start
 * and at the end. */
static bool strip_shared(fsc_analysis *a, const char **names, size_t n, const char **out)
{
    size_t st[MAX_TOK], en[MAX_TOK], st0[MAX_TOK], en0[MAX_TOK];
    size_t n0 = tokens(names[0], st0, en0, MAX_TOK), lead = n0, trail = n0;
    for (size_t k = 1; k < n; k++) {
        size_t nk = tokens(names[k], st, en, MAX_TOK), l = 0, t = 0;
        while (l < lead && l < nk && same_token(names[0], st0[l], en0[l], names[k], st[l], en[l]))
            l++;
        while (t < trail && t < nk && same_token(names[0], st0[n0 - 1 - t], en0[n0 - 1 - t], names[k],
                                                 st[nk - 1 - t], en[nk - 1 - t]))
            t++;
        lead = l;
        trail = t;
    }
    for (size_t k = 0; k < n; k++) {
        size_t nk = tokens(names[k], st, en, MAX_TOK), lo = lead, hi = nk > trail ? nk - trail : 0;
        fsc_buf b = {0};
        if (lo < hi)
            fsc_buf_add(&b, names[k] + st[lo], en[hi - 1] - st[lo]);
        out[k] = b.oom ? NULL : fsc_pool_str(&a->pool, b.data ? b.data : "");
        fsc_buf_free(&b);
        if (!out[k])
            return false;
    }
    return true;
}

typedef struct wl_names {
    const char **names, **parts;
    size_t n, cap;
} wl_names;

static bool job_parts(sys_ctx *c)
{
    fsc_analysis *a = c->a;
    fsc_keymap wl = {0}, named = {0};
    wl_names *groups = NULL;
    size_t n_groups = 0, cap_groups = 0;
    bool ok = true;
    /* distinct job names per workload */
    for (size_t i = 0; ok && i < a->n_all; i++) {
        const fsc_arow *r = &a->all[i];
        fsc_key k = {{(uintptr_t)r->dim[FSC_DIM_WORKLOAD], 0, 0, 0}};
        size_t g = fsc_keymap_put(&wl, &k, n_groups);
        if (g == n_groups) {
            wl_names *w = FSC_PUSH(groups, n_groups, cap_groups);
            if (w)
                memset(w, 0, sizeof *w);
            ok = w != NULL;
        }
        fsc_key kn = {{(uintptr_t)r->dim[FSC_DIM_WORKLOAD], (uintptr_t)r->dim[FSC_DIM_JOBNAME], 0, 0}};
        if (ok && g != SIZE_MAX && fsc_keymap_get(&named, &kn) == SIZE_MAX) {
            wl_names *w = &groups[g];
            const char **slot = FSC_PUSH(w->names, w->n, w->cap);
            ok = slot && fsc_keymap_put(&named, &kn, w->n - 1) != SIZE_MAX;
            if (slot)
                *slot = r->dim[FSC_DIM_JOBNAME];
        }
        ok = ok && g != SIZE_MAX;
    }
    for (size_t g = 0; ok && g < n_groups; g++) {
        wl_names *w = &groups[g];
        w->parts = calloc(w->n ? w->n : 1, sizeof *w->parts);
        ok = w->parts != NULL;
        if (ok && w->n > 1) {
            ok = strip_shared(a, w->names, w->n, w->parts);
            for (size_t k = 0; ok && k < w->n; k++) {
                fsc_buf b = {0};
                strip_workload_words(w->parts[k], &b);
                w->parts[k] = b.oom ? NULL : fsc_pool_str(&a->pool, b.data ? b.data : "");
                fsc_buf_free(&b);
                ok = w->parts[k] != NULL;
            }
        } else if (ok && w->n == 1) {
            fsc_buf b = {0};
            strip_workload_words(w->names[0], &b);
            w->parts[0] = b.oom ? NULL : fsc_pool_str(&a->pool, b.data ? b.data : "");
            fsc_buf_free(&b);
            ok = w->parts[0] != NULL;
        }
    }
    for (size_t i = 0; ok && i < a->n_all; i++) {
        const fsc_arow *r = &a->all[i];
        fsc_key k = {{(uintptr_t)r->dim[FSC_DIM_WORKLOAD], 0, 0, 0}};
        fsc_key kn = {{(uintptr_t)r->dim[FSC_DIM_WORKLOAD], (uintptr_t)r->dim[FSC_DIM_JOBNAME], 0, 0}};
        c->job_part[i] = groups[fsc_keymap_get(&wl, &k)].parts[fsc_keymap_get(&named, &kn)];
    }
    for (size_t g = 0; g < n_groups; g++) {
        free(groups[g].names);
        free(groups[g].parts);
    }
    free(groups);
    fsc_keymap_free(&wl);
    fsc_keymap_free(&named);
    return ok;
}

/* ---- choosing ---- */

/* Do a and b differ only in their digits ("Run 1", "Run 2")? */
static bool digits_apart(const char *a, const char *b)
{
    for (;;) {
        while (*a >= '0' && *a <= '9')
            a++;
        while (*b >= '0' && *b <= '9')
            b++;
        if (*a != *b)
            return false;
        if (!*a)
            return true;
        a++;
        b++;
    }
}

typedef struct score_ctx {
    fsc_keymap groups, values;
    const char **first; /* per group: its first value */
    bool *varies;       /* per group: a second value seen */
    size_t n_groups, cap_groups;
    size_t *val_group;  /* per value: the first group it was seen in, SIZE_MAX = in several */
    size_t n_values, cap_values;
    size_t split;       /* groups with 2+ values */
    bool named;         /* some split group has values that differ in more than digits */
} score_ctx;

static bool grow2(void **a, void **b, size_t *cap, size_t n, size_t sa, size_t sb)
{
    if (n < *cap)
        return true;
    size_t c = *cap ? *cap * 2 : 64;
    void *x = realloc(*a, c * sa);
    if (!x)
        return false;
    *a = x;
    void *y = realloc(*b, c * sb);
    if (!y)
        return false;
    *b = y;
    *cap = c;
    return true;
}

static bool score_row(score_ctx *sc, const fsc_arow *r, const char *v)
{
    fsc_key key = {{(uintptr_t)r->dim[FSC_DIM_WORKLOAD], (uintptr_t)r->dir, 0, 0}};
    if (!grow2((void **)&sc->first, (void **)&sc->varies, &sc->cap_groups, sc->n_groups, sizeof *sc->first,
               sizeof *sc->varies))
        return false;
    size_t g = fsc_keymap_put(&sc->groups, &key, sc->n_groups);
    if (g == SIZE_MAX)
        return false;
    if (g == sc->n_groups) {
        sc->first[sc->n_groups] = v;
        sc->varies[sc->n_groups++] = false;
    } else if (sc->first[g] != v) {
        if (!sc->varies[g])
            sc->split++;
        sc->varies[g] = true;
        sc->named |= !digits_apart(sc->first[g], v);
    }
    fsc_key vk = {{(uintptr_t)v, 0, 0, 0}};
    size_t *unused = NULL;
    if (!grow2((void **)&sc->val_group, (void **)&unused, &sc->cap_values, sc->n_values, sizeof *sc->val_group,
               1)) {
        free(unused);
        return false;
    }
    free(unused);
    size_t at = fsc_keymap_put(&sc->values, &vk, sc->n_values);
    if (at == SIZE_MAX)
        return false;
    if (at == sc->n_values)
        sc->val_group[sc->n_values++] = g;
    else if (sc->val_group[at] != g)
        sc->val_group[at] = SIZE_MAX;
    return true;
}

/* How many workloads (workload × dir) the candidate splits into 2+ values, weighed by
 * the share of rows it names at all (a heading only some documents of a folder have
 * names less than their folders do); 0 when headings or job names look like repeat
 * numbers rather than systems: each value within one workload only, and values that
 * differ only in digits ("Run 1" .. "Run 4"). Paths the user gave ("fio-3.0/",
 * "fio-3.13/") are taken as they are. */
static double score(sys_ctx *c, const cand *k, bool *oom)
{
    fsc_analysis *a = c->a;
    score_ctx sc = {0};
    size_t named = 0;
    for (size_t i = 0; i < a->n_all && !*oom; i++) {
        const char *v = cand_value(c, k, i);
        named += v && *v;
        if (!v || (*v && !score_row(&sc, &a->all[i], v)))
            *oom = true;
    }
    bool recurs = false;
    for (size_t i = 0; i < sc.n_values && !recurs; i++)
        recurs = sc.val_group[i] == SIZE_MAX;
    /* hosts are machines, never repeats: "node-1" and "node-2" differ in their digits
     * only, as "Run 1" and "Run 2" do, but the same job ran on two of them */
    bool chosen_by_user = k->src == SYS_INPUT || k->src == SYS_DIR || k->src == SYS_HOST;
    double split = recurs || sc.named || chosen_by_user ? (double)sc.split * (double)named / (double)a->n_all : 0;
    fsc_keymap_free(&sc.groups);
    fsc_keymap_free(&sc.values);
    free(sc.first);
    free(sc.varies);
    free(sc.val_group);
    return split;
}

static size_t distinct_inputs(const fsc_analysis *a)
{
    const char *first = NULL;
    for (size_t i = 0; i < a->n_all; i++) {
        const char *v = a->extra[i].input_name;
        if (!*v)
            continue;
        if (!first)
            first = v;
        else if (v != first)
            return 2;
    }
    return first ? 1 : 0;
}

static cand choose_auto(sys_ctx *c, bool *oom)
{
    fsc_analysis *a = c->a;
    cand cands[16];
    size_t n = 0;
    if (distinct_inputs(a) > 1)
        cands[n++] = (cand){SYS_INPUT, 0};
    cands[n++] = (cand){SYS_DIR, 0};
    int depth = max_heading_depth(a);
    for (int l = 1; l <= depth; l++)
        cands[n++] = (cand){SYS_HEADING, l};
    cands[n++] = (cand){SYS_HOST, 0};
    cands[n++] = (cand){SYS_JOBPART, 0};
    cand best = {SYS_NONE, 0};
    double best_score = 0;
    for (size_t i = 0; i < n && !*oom; i++) {
        double s = score(c, &cands[i], oom);
        if (s > best_score) {
            best_score = s;
            best = cands[i];
        }
    }
    return best;
}

/* The heading level that splits the most workloads (outermost on ties), or 1. */
static int best_heading(sys_ctx *c, bool *oom)
{
    int depth = max_heading_depth(c->a), best = 1;
    double best_score = 0;
    for (int l = 1; l <= depth && !*oom; l++) {
        cand k = {SYS_HEADING, l};
        double s = score(c, &k, oom);
        if (s > best_score) {
            best_score = s;
            best = l;
        }
    }
    return best;
}

/* ---- labels that name their system ---- */

/* Is the system one of the parts of the label (" › " or "/" separated), compared in
 * normalized form? */
static bool label_names(const char *label, const char *sys_norm)
{
    fsc_buf part = {0}, norm = {0};
    bool found = false;
    const char *p = label;
    while (*p && !found) {
        const char *sep = strstr(p, label_sep);
        size_t n = sep ? (size_t)(sep - p) : strlen(p);
        for (size_t s = 0; s <= n && !found;) { /* path components inside a part */
            size_t e = s;
            while (e < n && p[e] != '/')
                e++;
            fsc_buf_reset(&part);
            fsc_buf_reset(&norm);
            fsc_buf_add(&part, p + s, e - s);
            fsc_norm_name(part.data ? part.data : "", &norm);
            found = norm.data && !strcmp(norm.data, sys_norm);
            s = e + 1;
        }
        if (!sep)
            break;
        p = sep + strlen(label_sep);
    }
    fsc_buf_free(&part);
    fsc_buf_free(&norm);
    return found;
}

static bool prefix_labels(fsc_analysis *a)
{
    if (a->label_from != FSC_LABEL_HEADING && a->label_from != FSC_LABEL_FILE)
        return true;
    const char *first = NULL;
    bool several = false;
    for (size_t i = 0; i < a->n_all && !several; i++) {
        if (!first)
            first = a->extra[i].sys_norm;
        several = a->extra[i].sys_norm != first;
    }
    if (!several)
        return true;
    fsc_buf l = {0};
    bool ok = true;
    for (size_t i = 0; ok && i < a->n_all; i++) {
        fsc_arow *r = &a->all[i];
        if (!*r->dim[FSC_DIM_SYSTEM] || label_names(r->dim[FSC_DIM_LABEL], a->extra[i].sys_norm))
            continue;
        fsc_buf_reset(&l);
        fsc_buf_printf(&l, "%s%s%s", r->dim[FSC_DIM_SYSTEM], *r->dim[FSC_DIM_LABEL] ? label_sep : "",
                       r->dim[FSC_DIM_LABEL]);
        ok = !l.oom && (r->dim[FSC_DIM_LABEL] = fsc_pool_str(&a->pool, l.data)) != NULL;
    }
    fsc_buf_free(&l);
    return ok;
}

/* ---- assigning ---- */

static const char *source_name(const cand *k, char *tmp, size_t n)
{
    switch (k->src) {
    case SYS_SIDE: return "side";
    case SYS_INPUT: return "input";
    case SYS_DIR: return "dir";
    case SYS_FILE: return "file";
    case SYS_HOST: return "host";
    case SYS_LABEL: return "label";
    case SYS_JOB: return "job";
    case SYS_JOBPART: return "jobname";
    case SYS_HEADING:
        snprintf(tmp, n, "heading:%d", k->level);
        return tmp;
    case SYS_AUTO:
    case SYS_NONE:
    default: return "none";
    }
}

/* One name for a whole set without systems: its one input, else "all". */
static const char *single_name(fsc_analysis *a)
{
    size_t n = distinct_inputs(a);
    if (n == 1) {
        for (size_t i = 0; i < a->n_all; i++)
            if (*a->extra[i].input_name)
                return a->extra[i].input_name;
    }
    return "all";
}

fsc_status fsc_assign_systems(fsc_analysis *a, const sys_rule *rule, const char *const *side_names)
{
    (void)side_names;
    sys_ctx c = {.a = a, .rule = rule};
    bool oom = false;
    c.dir_name = calloc(a->n_all ? a->n_all : 1, sizeof *c.dir_name);
    c.job_part = calloc(a->n_all ? a->n_all : 1, sizeof *c.job_part);
    if (rule->re)
        c.md = pcre2_match_data_create_from_pattern(rule->re, NULL);
    oom = !c.dir_name || !c.job_part || (rule->re && !c.md) || !dir_names(&c) || !job_parts(&c);
    cand k = {rule->src, rule->level};
    if (!oom && rule->src == SYS_AUTO)
        k = choose_auto(&c, &oom);
    else if (!oom && rule->src == SYS_HEADING && !rule->level)
        k.level = best_heading(&c, &oom);
    char tmp[32];
    const char *none = oom ? NULL : single_name(a);
    fsc_buf norm = {0};
    for (size_t i = 0; !oom && i < a->n_all; i++) {
        const char *v = k.src == SYS_NONE ? none : cand_value(&c, &k, i);
        if (v && !*v) /* a row the rule says nothing about: named by its input or file */
            v = *a->extra[i].input_name ? a->extra[i].input_name : NULL;
        if (!v) {
            fsc_buf f = {0};
            file_stem(&a->all[i], &f);
            v = f.oom ? NULL : fsc_pool_str(&a->pool, f.data ? f.data : "");
            fsc_buf_free(&f);
        }
        fsc_buf_reset(&norm);
        if (v)
            fsc_norm_name(v, &norm);
        const char *nv = v && !norm.oom ? fsc_pool_str(&a->pool, norm.data) : NULL;
        oom = !v || !nv;
        a->all[i].dim[FSC_DIM_SYSTEM] = v;
        a->extra[i].sys_norm = nv;
    }
    fsc_buf_free(&norm);
    /* "Axle-ssd" and "axle ssd" are one system, shown as first written */
    fsc_keymap first = {0};
    for (size_t i = 0; !oom && i < a->n_all; i++) {
        fsc_key key = {{(uintptr_t)a->extra[i].sys_norm, 0, 0, 0}};
        size_t at = fsc_keymap_put(&first, &key, i);
        oom = at == SIZE_MAX;
        if (!oom)
            a->all[i].dim[FSC_DIM_SYSTEM] = a->all[at].dim[FSC_DIM_SYSTEM];
    }
    fsc_keymap_free(&first);
    if (!oom)
        oom = !(a->system_source = fsc_strdup(source_name(&k, tmp, sizeof tmp))) || !prefix_labels(a);
    free(c.dir_name);
    free(c.job_part);
    pcre2_match_data_free(c.md);
    return oom ? FSC_E_NOMEM : FSC_OK;
}
