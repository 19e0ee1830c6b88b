/* SPDX-License-Identifier: MIT */
/*
 * Observations and matching: the selected rows of one run that share a system, a key
 * and a dir are one observation (their jobs combined); observations with the same key
 * under different systems pair up for `compare`.
 */
#define PCRE2_CODE_UNIT_WIDTH 8
#include "analyze_int.h"

#include <pcre2.h>
#include <stdio.h>
#include <stdlib.h>

static const char label_sep[] = " \xe2\x80\xba "; /* " › " */

fsc_status fsc_group_obs(const fsc_analysis *a, const char *const *k1, const char *const *k2,
                         size_t *of_row, size_t *n_obs)
{
    fsc_keymap m = {0};
    *n_obs = 0;
    for (size_t i = 0; i < a->n_sel; i++) {
        const fsc_arow *r = &a->all[a->sel[i]];
        fsc_key k = {{(uintptr_t)k1[i], (uintptr_t)k2[i], (uintptr_t)r->side, (uintptr_t)r->run}};
        size_t at = fsc_keymap_put(&m, &k, *n_obs);
        if (at == SIZE_MAX) {
            fsc_keymap_free(&m);
            return FSC_E_NOMEM;
        }
        if (at == *n_obs)
            (*n_obs)++;
        of_row[i] = at;
    }
    fsc_keymap_free(&m);
    return FSC_OK;
}

/* ---- match keys ---- */

/* s without the parts (split at sep) whose normalized text is norm. */
static void drop_parts(const char *s, const char *sep, const char *norm, fsc_buf *out, fsc_buf *tmp)
{
    size_t sl = strlen(sep);
    const char *p = s;
    bool first = true;
    while (*p) {
        const char *e = strstr(p, sep);
        size_t n = e ? (size_t)(e - p) : strlen(p);
        fsc_buf part = {0};
        fsc_buf_add(&part, p, n);
        fsc_buf_reset(tmp);
        fsc_norm_name(part.data ? part.data : "", tmp);
        if (!tmp->data || strcmp(tmp->data, norm)) {
            if (!first)
                fsc_buf_puts(out, sep);
            fsc_buf_add(out, p, n);
            first = false;
        }
        fsc_buf_free(&part);
        if (!e)
            break;
        p = e + sl;
    }
}

/* The label a row pairs by: its path inside its input and its label, both without the
 * system's own part ("RAID 0 › 4k 随机写 › 4k_randwrite" → "4k 随机写 › 4k_randwrite"). */
static const char *label_key(fsc_analysis *a, size_t i, fsc_buf *b, fsc_buf *tmp)
{
    const row_extra *ex = &a->extra[i];
    fsc_buf_reset(b);
    if (*ex->input_rel) {
        drop_parts(ex->input_rel, "/", ex->sys_norm, b, tmp);
        fsc_buf_puts(b, label_sep);
    }
    drop_parts(ex->base_label, label_sep, ex->sys_norm, b, tmp);
    return b->oom ? NULL : fsc_pool_str(&a->pool, b->data ? b->data : "");
}

static const char *dims_key(fsc_analysis *a, const fsc_arow *r, const int *dims, size_t n, fsc_buf *b)
{
    fsc_buf_reset(b);
    for (size_t k = 0; k < n; k++)
        fsc_buf_printf(b, "%s%s", k ? " " : "", r->dim[dims[k]]);
    return b->oom ? NULL : fsc_pool_str(&a->pool, b->data ? b->data : "");
}

typedef enum match_kind { M_LABEL, M_WORKLOAD, M_JOBNAME, M_DIMS, M_REGEX } match_kind;

typedef struct match_rule {
    match_kind kind;
    int dims[FSC_DIM_COUNT];
    size_t n_dims;
    pcre2_code *re;
} match_rule;

/* Is the rule a comma list of dimensions? */
static bool parse_dims(const char *s, match_rule *r)
{
    r->n_dims = 0;
    while (*s) {
        size_t l = strcspn(s, ",");
        int d = fsc_dim_lookup(s, l);
        if (d < 0 || r->n_dims == FSC_DIM_COUNT)
            return false;
        r->dims[r->n_dims++] = d;
        s += l + (s[l] == ',');
    }
    return r->n_dims > 0;
}

static fsc_status parse_rule(const char *match, match_rule *r, fsc_buf *err)
{
    memset(r, 0, sizeof *r);
    if (!strcmp(match, "label"))
        r->kind = M_LABEL;
    else if (!strcmp(match, "workload"))
        r->kind = M_WORKLOAD;
    else if (!strcmp(match, "jobname"))
        r->kind = M_JOBNAME;
    else if (parse_dims(match, r))
        r->kind = M_DIMS;
    else {
        int code;
        PCRE2_SIZE off;
        r->kind = M_REGEX;
        r->re = pcre2_compile((PCRE2_SPTR)match, PCRE2_ZERO_TERMINATED,
                              PCRE2_UTF | PCRE2_MATCH_INVALID_UTF, &code, &off, NULL);
        if (!r->re) {
            PCRE2_UCHAR msg[256];
            pcre2_get_error_message(code, msg, sizeof msg);
            fsc_buf_printf(err, "bad --match regex at offset %zu: %s", (size_t)off, (char *)msg);
            return FSC_E_USAGE;
        }
    }
    return FSC_OK;
}

static const char *regex_key(fsc_analysis *a, const pcre2_code *re, pcre2_match_data *md,
                             const char *label)
{
    int rc = pcre2_match(re, (PCRE2_SPTR)label, PCRE2_ZERO_TERMINATED, 0, 0, md, NULL);
    if (rc <= 0)
        return label;
    PCRE2_SIZE *ov = pcre2_get_ovector_pointer(md);
    int g = rc > 1 && ov[2] != PCRE2_UNSET ? 1 : 0;
    return fsc_pool_intern(&a->pool, label + ov[2 * g], ov[2 * g + 1] - ov[2 * g]);
}

/* Per selected row: its match key (interned). */
static fsc_status row_keys(fsc_analysis *a, const match_rule *rule, const char **keys)
{
    fsc_buf b = {0}, tmp = {0};
    pcre2_match_data *md = rule->re ? pcre2_match_data_create_from_pattern(rule->re, NULL) : NULL;
    fsc_status st = rule->re && !md ? FSC_E_NOMEM : FSC_OK;
    for (size_t i = 0; st == FSC_OK && i < a->n_sel; i++) {
        size_t ai = a->sel[i];
        const fsc_arow *r = &a->all[ai];
        switch (rule->kind) {
        case M_LABEL: keys[i] = label_key(a, ai, &b, &tmp); break;
        case M_WORKLOAD: keys[i] = r->dim[FSC_DIM_WORKLOAD]; break;
        case M_JOBNAME: keys[i] = r->dim[FSC_DIM_JOBNAME]; break;
        case M_DIMS: keys[i] = dims_key(a, r, rule->dims, rule->n_dims, &b); break;
        case M_REGEX: keys[i] = regex_key(a, rule->re, md, a->extra[ai].base_label); break;
        }
        if (!keys[i])
            st = FSC_E_NOMEM;
    }
    pcre2_match_data_free(md);
    fsc_buf_free(&b);
    fsc_buf_free(&tmp);
    return st;
}

/* How many (key, dir) pairs appear under two or more systems. */
static size_t paired_count(const fsc_analysis *a, const char *const *keys, bool *oom)
{
    fsc_keymap first = {0};
    size_t *sys_of = NULL, n = 0, cap = 0, paired = 0;
    bool *counted = NULL;
    for (size_t i = 0; i < a->n_sel && !*oom; i++) {
        const fsc_arow *r = &a->all[a->sel[i]];
        fsc_key k = {{(uintptr_t)keys[i], (uintptr_t)r->dir, 0, 0}};
        size_t at = fsc_keymap_put(&first, &k, n);
        if (at == SIZE_MAX) {
            *oom = true;
            break;
        }
        if (at == n) {
            if (n == cap) {
                cap = cap ? cap * 2 : 64;
                size_t *s = realloc(sys_of, cap * sizeof *s);
                bool *c = s ? realloc(counted, cap * sizeof *c) : NULL;
                if (s)
                    sys_of = s;
                if (!c) {
                    *oom = true;
                    break;
                }
                counted = c;
            }
            sys_of[n] = (size_t)(uintptr_t)a->extra[a->sel[i]].sys_norm;
            counted[n++] = false;
        } else if (!counted[at] && sys_of[at] != (size_t)(uintptr_t)a->extra[a->sel[i]].sys_norm) {
            counted[at] = true;
            paired++;
        }
    }
    fsc_keymap_free(&first);
    free(sys_of);
    free(counted);
    return paired;
}

static size_t rule_pairs(fsc_analysis *a, const char *match, const char **keys, bool *oom)
{
    match_rule r;
    fsc_buf err = {0};
    size_t n = 0;
    if (parse_rule(match, &r, &err) != FSC_OK || row_keys(a, &r, keys) != FSC_OK)
        *oom = err.len == 0;
    else
        n = paired_count(a, keys, oom);
    pcre2_code_free(r.re);
    fsc_buf_free(&err);
    return n;
}

static const char *best_rule(fsc_analysis *a, const char *const *rules, size_t n_rules, size_t *paired,
                             bool *oom)
{
    const char **keys = malloc((a->n_sel ? a->n_sel : 1) * sizeof *keys);
    const char *best = NULL;
    *paired = 0;
    if (!keys) {
        *oom = true;
        return NULL;
    }
    for (size_t i = 0; i < n_rules && !*oom; i++) {
        size_t n = rule_pairs(a, rules[i], keys, oom);
        if (n > *paired) {
            *paired = n;
            best = rules[i];
        }
    }
    free(keys);
    return best;
}

/* Does every system have exactly one label (whatever its directions)? */
static bool one_key_each(fsc_analysis *a, bool *oom)
{
    const char **keys = malloc((a->n_sel ? a->n_sel : 1) * sizeof *keys);
    match_rule r = {.kind = M_LABEL};
    fsc_keymap first = {0}; /* system → the row of its first key */
    bool one = keys && a->n_systems > 1 && row_keys(a, &r, keys) == FSC_OK;
    *oom = !keys;
    for (size_t i = 0; one && i < a->n_sel; i++) {
        fsc_key k = {{(uintptr_t)a->all[a->sel[i]].dim[FSC_DIM_SYSTEM], 0, 0, 0}};
        size_t at = fsc_keymap_put(&first, &k, i);
        if (at == SIZE_MAX)
            *oom = true;
        one = at != SIZE_MAX && keys[at] == keys[i];
    }
    fsc_keymap_free(&first);
    free(keys);
    return one;
}

const char *fsc_analysis_suggest_match(const fsc_analysis *ca, size_t *paired)
{
    static const char *const rules[] = {"label", "workload", "jobname", "rw,bs,iodepth", "rw,bs", "rw"};
    fsc_analysis *a = (fsc_analysis *)ca; /* interning only adds strings */
    size_t dummy;
    bool oom = false;
    const char *r = best_rule(a, rules, FSC_ARRAY_SIZE(rules), paired ? paired : &dummy, &oom);
    return oom ? NULL : r;
}

fsc_status fsc_analysis_observe(const fsc_analysis *ca, const char *match, fsc_obs_set *out,
                                const char **used, fsc_buf *err)
{
    static const char *const auto_rules[] = {"label", "workload", "jobname"};
    fsc_analysis *a = (fsc_analysis *)ca;
    memset(out, 0, sizeof *out);
    bool oom = false;
    bool single = false;
    if (!match || !strcmp(match, "auto")) {
        size_t n;
        match = best_rule(a, auto_rules, FSC_ARRAY_SIZE(auto_rules), &n, &oom);
        if (!match) {
            match = "label";
            single = !oom && one_key_each(a, &oom);
        }
    }
    if (used)
        *used = match;
    match_rule rule;
    fsc_status st = oom ? FSC_E_NOMEM : parse_rule(match, &rule, err);
    if (st != FSC_OK)
        return st;
    size_t n = a->n_sel;
    const char **keys = malloc((n ? n : 1) * sizeof *keys);
    const char **sys = malloc((n ? n : 1) * sizeof *sys);
    size_t *of_row = malloc((n ? n : 1) * sizeof *of_row);
    size_t *count = NULL;
    fsc_keymap kmap = {0};
    st = keys && sys && of_row ? row_keys(a, &rule, keys) : FSC_E_NOMEM;
    if (st == FSC_OK && single) { /* one job renamed on each side: the first side's name */
        for (size_t i = 1; i < n; i++)
            keys[i] = keys[0];
        if (used)
            *used = "the one label of each side";
    }
    /* the observation key: match key and dir (k1), system (k2) */
    const char **k1 = NULL;
    if (st == FSC_OK && !(k1 = malloc((n ? n : 1) * sizeof *k1)))
        st = FSC_E_NOMEM;
    fsc_buf kd = {0};
    for (size_t i = 0; st == FSC_OK && i < n; i++) {
        fsc_buf_reset(&kd);
        fsc_buf_printf(&kd, "%s\x1f%d", keys[i], a->all[a->sel[i]].dir);
        k1[i] = kd.oom ? NULL : fsc_pool_str(&a->pool, kd.data);
        sys[i] = a->extra[a->sel[i]].sys_norm;
        if (!k1[i])
            st = FSC_E_NOMEM;
    }
    fsc_buf_free(&kd);
    size_t n_obs = 0;
    if (st == FSC_OK)
        st = fsc_group_obs(a, k1, sys, of_row, &n_obs);
    if (st == FSC_OK) {
        out->obs = calloc(n_obs ? n_obs : 1, sizeof *out->obs);
        out->row_index = malloc((n ? n : 1) * sizeof *out->row_index);
        count = calloc(n_obs + 1, sizeof *count);
        st = out->obs && out->row_index && count ? FSC_OK : FSC_E_NOMEM;
    }
    size_t cap_keys = 0;
    fsc_keymap sys_index = {0}; /* system → its index in a->systems */
    for (size_t s = 0; st == FSC_OK && s < a->n_systems; s++) {
        fsc_key sk = {{(uintptr_t)a->systems[s], 0, 0, 0}};
        if (fsc_keymap_put(&sys_index, &sk, s) == SIZE_MAX)
            st = FSC_E_NOMEM;
    }
    for (size_t i = 0; st == FSC_OK && i < n; i++) {
        fsc_obs *o = &out->obs[of_row[i]];
        if (count[of_row[i]]++)
            continue;
        const fsc_arow *r = &a->all[a->sel[i]];
        fsc_key kk = {{(uintptr_t)keys[i], 0, 0, 0}};
        size_t at = fsc_keymap_put(&kmap, &kk, out->n_keys);
        if (at == out->n_keys) {
            char **slot = FSC_PUSH(out->keys, out->n_keys, cap_keys);
            if (!slot || !(*slot = fsc_strdup(keys[i]))) {
                st = FSC_E_NOMEM;
                break;
            }
        }
        o->key = at;
        o->dir = r->dir;
        fsc_key sk = {{(uintptr_t)r->dim[FSC_DIM_SYSTEM], 0, 0, 0}};
        o->system = fsc_keymap_get(&sys_index, &sk);
    }
    if (st == FSC_OK) {
        /* rows of each observation together, in input order */
        size_t at = 0;
        for (size_t k = 0; k < n_obs; k++) {
            out->obs[k].first_row = at;
            at += count[k];
            out->obs[k].n_rows = 0;
        }
        for (size_t i = 0; i < n; i++) {
            fsc_obs *o = &out->obs[of_row[i]];
            out->row_index[o->first_row + o->n_rows++] = i;
        }
        out->n_obs = n_obs;
        out->n_row_index = n;
    }
    fsc_keymap_free(&kmap);
    fsc_keymap_free(&sys_index);
    pcre2_code_free(rule.re);
    free(keys);
    free(sys);
    free(k1);
    free(of_row);
    free(count);
    if (st != FSC_OK)
        fsc_obs_set_free(out);
    return st;
}

void fsc_obs_set_free(fsc_obs_set *s)
{
    if (!s)
        return;
    for (size_t i = 0; i < s->n_keys; i++)
        free(s->keys[i]);
    free(s->keys);
    free(s->obs);
    free(s->row_index);
    memset(s, 0, sizeof *s);
}

size_t fsc_obs_set_paired(const fsc_analysis *a, const fsc_obs_set *s)
{
    (void)a;
    fsc_keymap seen = {0};
    size_t *first_sys = NULL, n = 0, paired = 0;
    bool *counted = NULL;
    first_sys = malloc((s->n_obs ? s->n_obs : 1) * sizeof *first_sys);
    counted = calloc(s->n_obs ? s->n_obs : 1, sizeof *counted);
    for (size_t i = 0; first_sys && counted && i < s->n_obs; i++) {
        fsc_key k = {{(uintptr_t)s->obs[i].key, (uintptr_t)s->obs[i].dir, 0, 0}};
        size_t at = fsc_keymap_put(&seen, &k, n);
        if (at == SIZE_MAX)
            break;
        if (at == n)
            first_sys[n++] = s->obs[i].system;
        else if (!counted[at] && first_sys[at] != s->obs[i].system) {
            counted[at] = true;
            paired++;
        }
    }
    fsc_keymap_free(&seen);
    free(first_sys);
    free(counted);
    return paired;
}

fsc_mval fsc_obs_eval(const fsc_analysis *a, const fsc_obs_set *s, const fsc_obs *o, const fsc_mspec *m)
{
    fsc_macc acc = fsc_macc_of(m->agg);
    for (size_t k = 0; k < o->n_rows; k++) {
        size_t sel = s->row_index[o->first_row + k];
        fsc_macc_add(&acc, fsc_analysis_eval(a, &a->all[a->sel[sel]], m));
    }
    return fsc_macc_result(&acc);
}
