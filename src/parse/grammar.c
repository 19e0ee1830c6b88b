/* SPDX-License-Identifier: MIT */
/*
 * Grammar loading and line matching. Rules come from the JSON files of grammars/ (compiled in,
 * or FIOSCOPE_GRAMMAR_DIR); each file's samples are matched at load time, so a
 * broken pattern is an error at start-up, not a silent miss.
 */
#define _GNU_SOURCE
#include "grammar.h"

#include "fioscope/embedded.h"

#include <cjson/cJSON.h>
#include <dirent.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LEAD_MAX 48

typedef struct lead_entry {
    char lead[LEAD_MAX];
    size_t len;
    const fsc_rule **rules;
    size_t n, cap;
} lead_entry;

struct fsc_grammar_set {
    fsc_rule **rules;
    size_t n_rules, cap_rules;
    lead_entry *leads;
    size_t n_leads, cap_leads;
    const fsc_rule **generic; /* rules without a lead: tried after the lead rules */
    size_t n_generic, cap_generic;
    /* indexes into leads by their first byte, in lead order: a line is only compared
     * with the leads that can match it */
    struct lead_bucket {
        size_t *idx;
        size_t n, cap;
    } by_byte[256];
    uint32_t max_captures;
    bool builtin; /* the grammars compiled in (no FIOSCOPE_GRAMMAR_DIR) */
};

static const struct {
    const char *name;
    fsc_action action;
} action_names[] = {
    {"noise", FSC_ACT_NOISE},           {"banner", FSC_ACT_BANNER},
    {"starting", FSC_ACT_STARTING},     {"jobdef", FSC_ACT_JOBDEF},
    {"job", FSC_ACT_JOB},               {"description", FSC_ACT_DESCRIPTION},
    {"dir", FSC_ACT_DIR},               {"lat", FSC_ACT_LAT},
    {"pctl-title", FSC_ACT_PCTL_TITLE}, {"pctl-ignore", FSC_ACT_PCTL_IGNORE},
    {"pctl-row", FSC_ACT_PCTL_ROW},     {"bw-stats", FSC_ACT_BW_STATS},
    {"iops-stats", FSC_ACT_IOPS_STATS}, {"buckets", FSC_ACT_BUCKETS},
    {"sync-section", FSC_ACT_SYNC_SECTION}, {"cpu", FSC_ACT_CPU},
    {"depths", FSC_ACT_DEPTHS},         {"job-kv", FSC_ACT_JOB_KV},
    {"issued", FSC_ACT_ISSUED},         {"group", FSC_ACT_GROUP},
    {"group-clients", FSC_ACT_GROUP_CLIENTS}, {"group-dir", FSC_ACT_GROUP_DIR},
    {"disk-header", FSC_ACT_DISK_HEADER}, {"disk", FSC_ACT_DISK},
    {"fio-message", FSC_ACT_FIO_MESSAGE}, {"command", FSC_ACT_COMMAND},
    {"steadystate", FSC_ACT_STEADYSTATE}, {"prio-lat", FSC_ACT_PRIO_LAT}, {"idle", FSC_ACT_IDLE},
    {"prio-pctl-title", FSC_ACT_PRIO_PCTL_TITLE},
};

static const struct {
    const char *name;
    fsc_kind kind;
} kind_names[] = {
    {"string", FSC_K_STRING}, {"int", FSC_K_INT},         {"count", FSC_K_COUNT},
    {"size", FSC_K_SIZE},     {"rate", FSC_K_RATE},       {"duration", FSC_K_DURATION},
    {"pct", FSC_K_PCT},       {"plain", FSC_K_PLAIN},     {"bwstat", FSC_K_BWSTAT},
    {"pair", FSC_K_PAIR},     {"time_ns", FSC_K_TIME_NS}, {"time_us", FSC_K_TIME_US},
};

static bool kind_from_name(const char *s, fsc_kind *k)
{
    for (size_t i = 0; i < FSC_ARRAY_SIZE(kind_names); i++)
        if (!strcmp(kind_names[i].name, s)) {
            *k = kind_names[i].kind;
            return true;
        }
    return false;
}

static void rule_free(fsc_rule *r)
{
    if (!r)
        return;
    free(r->id);
    free(r->pattern);
    pcre2_code_free(r->re);
    for (size_t i = 0; i < r->n_leads; i++)
        free(r->leads[i]);
    free(r->leads);
    free(r->needle);
    free(r->whole);
    for (size_t i = 0; i < r->n_fields; i++)
        free(r->fields[i].name);
    free(r->fields);
    for (size_t i = 0; i < r->n_kv; i++) {
        free(r->kv[i].key);
        free(r->kv[i].field);
        free(r->kv[i].field2);
    }
    free(r->kv);
    for (size_t i = 0; i < r->n_fuzzy; i++)
        free(r->fuzzy[i]);
    free(r->fuzzy);
    free(r);
}

void fsc_grammars_free(fsc_grammar_set *g)
{
    if (!g)
        return;
    for (size_t i = 0; i < g->n_rules; i++)
        rule_free(g->rules[i]);
    free(g->rules);
    for (size_t i = 0; i < g->n_leads; i++)
        free(g->leads[i].rules);
    free(g->leads);
    free(g->generic);
    for (size_t i = 0; i < FSC_ARRAY_SIZE(g->by_byte); i++)
        free(g->by_byte[i].idx);
    free(g);
}

static bool add_lead(fsc_grammar_set *g, const char *lead, const fsc_rule *r)
{
    size_t len = strlen(lead);
    if (len == 0 || len >= LEAD_MAX)
        return false;
    lead_entry *e = NULL;
    for (size_t i = 0; i < g->n_leads; i++)
        if (g->leads[i].len == len && !memcmp(g->leads[i].lead, lead, len))
            e = &g->leads[i];
    if (!e) {
        struct lead_bucket *b = &g->by_byte[(unsigned char)lead[0]];
        size_t *bi = FSC_PUSH(b->idx, b->n, b->cap);
        if (!bi)
            return false;
        *bi = g->n_leads;
        e = FSC_PUSH(g->leads, g->n_leads, g->cap_leads);
        if (!e)
            return false;
        memcpy(e->lead, lead, len + 1);
        e->len = len;
    }
    const fsc_rule **slot = FSC_PUSH(e->rules, e->n, e->cap);
    if (!slot)
        return false;
    *slot = r;
    return true;
}

/* The rules of lines of values whose end fio prints in a way the text shows
 * (fsc_rule.values): latency, bandwidth, IOPS and latency-bucket lines, percentile
 * rows, cpu, depths, issued, the latency target, direction, group and disk lines,
 * job definitions (but the rules whose "whole" capture a match needs: a line that
 * has the field fio prints last was not cut before it). Not job headers (a 2.x
 * header ends in its pid: no end tells a cut one), nor banners, messages and the
 * lines of words. */
static bool ends_known(fsc_action a)
{
    switch (a) {
    case FSC_ACT_LAT: case FSC_ACT_PRIO_LAT: case FSC_ACT_BW_STATS: case FSC_ACT_IOPS_STATS:
    case FSC_ACT_BUCKETS: case FSC_ACT_PCTL_ROW: case FSC_ACT_CPU: case FSC_ACT_JOB_KV:
    case FSC_ACT_DEPTHS: case FSC_ACT_ISSUED: case FSC_ACT_DIR: case FSC_ACT_GROUP_DIR:
    case FSC_ACT_DISK: case FSC_ACT_JOBDEF:
        return true;
    default:
        return false;
    }
}

/* Do all of r's leads begin a rule before it that reads values (not noise)? */
static bool leads_taken(const fsc_grammar_set *g, const fsc_rule *r)
{
    size_t taken = 0;
    for (size_t i = 0; i < r->n_leads; i++) {
        bool values = false;
        for (size_t k = 0; k < g->n_leads && !values; k++) {
            const lead_entry *e = &g->leads[k];
            if (strcmp(e->lead, r->leads[i]))
                continue;
            for (size_t j = 0; j < e->n && e->rules[j] != r && !values; j++)
                values = e->rules[j]->action != FSC_ACT_NOISE;
        }
        taken += values;
    }
    return r->n_leads && taken == r->n_leads;
}

/* Compile r's pattern and find its captures: the named ones that actions read, and
 * one per field. False, with err said (naming file and rule), when the pattern is
 * not a regex or lacks a field's capture. */
static bool rule_compile(fsc_rule *r, const char *file, fsc_buf *err)
{
    int errcode;
    PCRE2_SIZE erroff;
    r->re = pcre2_compile((PCRE2_SPTR)r->pattern, PCRE2_ZERO_TERMINATED, PCRE2_UTF | PCRE2_MATCH_INVALID_UTF,
                          &errcode, &erroff, NULL);
    if (!r->re) {
        PCRE2_UCHAR msg[256];
        pcre2_get_error_message(errcode, msg, sizeof msg);
        fsc_buf_printf(err, "%s: /rules/%s/pattern: invalid regex at column %zu: %s\n    %s\n    %*s^", file,
                       r->id, (size_t)erroff + 1, (char *)msg, r->pattern, (int)erroff, "");
        return false;
    }
    r->cap_kv = pcre2_substring_number_from_name(r->re, (PCRE2_SPTR) "kv");
    r->cap_unit = pcre2_substring_number_from_name(r->re, (PCRE2_SPTR) "unit");
    r->cap_list = pcre2_substring_number_from_name(r->re, (PCRE2_SPTR) "list");
    r->cap_whole = r->whole ? pcre2_substring_number_from_name(r->re, (PCRE2_SPTR)r->whole) : -1;
    if (r->whole && r->cap_whole < 0) {
        fsc_buf_printf(err, "%s: rule \"%s\": \"whole\": \"%s\" is not a capture of the pattern", file, r->id,
                       r->whole);
        pcre2_code_free(r->re);
        r->re = NULL;
        return false;
    }
    for (size_t i = 0; i < r->n_fields; i++) {
        fsc_capfield *f = &r->fields[i];
        f->num = pcre2_substring_number_from_name(r->re, (PCRE2_SPTR)f->name);
        if (f->num < 0) {
            fsc_buf_printf(err, "%s: rule \"%s\": field \"%s\" is not a capture of the pattern", file, r->id,
                           f->name);
            pcre2_code_free(r->re);
            r->re = NULL;
            return false;
        }
    }
    return true;
}

/* Parse one rule object; errors name the grammar file and rule. */
static fsc_rule *rule_load(fsc_grammar_set *g, const char *file, const cJSON *jr, fsc_buf *err)
{
    fsc_rule *r = calloc(1, sizeof *r);
    if (!r)
        return NULL;
    r->id = fsc_strdup(jr->string);
    const cJSON *pat = cJSON_GetObjectItemCaseSensitive(jr, "pattern");
    const cJSON *act = cJSON_GetObjectItemCaseSensitive(jr, "action");
    if (!cJSON_IsString(pat) || !cJSON_IsString(act)) {
        fsc_buf_printf(err, "%s: rule \"%s\": needs \"pattern\" and \"action\" strings", file, jr->string);
        goto fail;
    }
    bool found = false;
    for (size_t i = 0; i < FSC_ARRAY_SIZE(action_names); i++)
        if (!strcmp(action_names[i].name, act->valuestring)) {
            r->action = action_names[i].action;
            found = true;
        }
    if (!found) {
        fsc_buf_printf(err, "%s: rule \"%s\": unknown action \"%s\"", file, r->id, act->valuestring);
        goto fail;
    }
    if (!(r->pattern = fsc_strdup(pat->valuestring)))
        goto oom;
    /* every '(' may open a capture: room for them all in the match data */
    uint32_t caps = 0;
    for (const char *c = r->pattern; *c; c++)
        caps += *c == '(';
    if (caps + 1 > g->max_captures)
        g->max_captures = caps + 1;
    r->anchor = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(jr, "anchor"));
    const cJSON *era = cJSON_GetObjectItemCaseSensitive(jr, "era");
    if (cJSON_IsString(era))
        r->era = !strcmp(era->valuestring, "legacy") ? FSC_ERA_HINT_LEGACY : FSC_ERA_HINT_MODERN;
    const cJSON *needle = cJSON_GetObjectItemCaseSensitive(jr, "needle");
    if (cJSON_IsString(needle))
        r->needle = fsc_strdup(needle->valuestring);
    r->needle_len = r->needle ? strlen(r->needle) : 0;
    r->cap_whole = -1;
    const cJSON *whole = cJSON_GetObjectItemCaseSensitive(jr, "whole");
    if (cJSON_IsString(whole) && !(r->whole = fsc_strdup(whole->valuestring)))
        goto oom;
    const cJSON *leads = cJSON_GetObjectItemCaseSensitive(jr, "lead");
    const cJSON *it;
    size_t capl = 0;
    cJSON_ArrayForEach(it, leads)
    {
        if (!cJSON_IsString(it))
            continue;
        char **slot = FSC_PUSH(r->leads, r->n_leads, capl);
        if (!slot || !(*slot = fsc_strdup(it->valuestring)))
            goto oom;
    }
    if (!r->n_leads && !r->needle) {
        fsc_buf_printf(err, "%s: rule \"%s\": needs a \"lead\" list or a \"needle\"", file, r->id);
        goto fail;
    }
    const cJSON *fz = cJSON_GetObjectItemCaseSensitive(jr, "fuzzy");
    size_t capz = 0;
    cJSON_ArrayForEach(it, fz)
    {
        if (!cJSON_IsString(it))
            continue;
        char **slot = FSC_PUSH(r->fuzzy, r->n_fuzzy, capz);
        if (!slot || !(*slot = fsc_strdup(it->valuestring)))
            goto oom;
    }
    const cJSON *fields = cJSON_GetObjectItemCaseSensitive(jr, "fields");
    size_t capf = 0;
    cJSON_ArrayForEach(it, fields)
    {
        fsc_capfield *f = FSC_PUSH(r->fields, r->n_fields, capf);
        if (!f)
            goto oom;
        f->name = fsc_strdup(it->string);
        if (!cJSON_IsString(it) || !kind_from_name(it->valuestring, &f->kind)) {
            fsc_buf_printf(err, "%s: rule \"%s\": field \"%s\": unknown kind", file, r->id, it->string);
            goto fail;
        }
    }
    const cJSON *kv = cJSON_GetObjectItemCaseSensitive(jr, "kv");
    size_t capk = 0;
    cJSON_ArrayForEach(it, kv)
    {
        fsc_kvfield *k = FSC_PUSH(r->kv, r->n_kv, capk);
        if (!k)
            goto oom;
        k->key = fsc_strdup(it->string);
        const char *spec = cJSON_IsString(it) ? it->valuestring : "";
        const char *colon = strrchr(spec, ':');
        if (!colon || !kind_from_name(colon + 1, &k->kind)) {
            fsc_buf_printf(err, "%s: rule \"%s\": kv \"%s\" needs \"field:kind\"", file, r->id, it->string);
            goto fail;
        }
        const char *slash = memchr(spec, '/', (size_t)(colon - spec));
        if (slash) {
            k->field = fsc_strndup(spec, (size_t)(slash - spec));
            k->field2 = fsc_strndup(slash + 1, (size_t)(colon - slash - 1));
        } else {
            k->field = fsc_strndup(spec, (size_t)(colon - spec));
        }
    }
    /* a folder's grammar is compiled now, to say what is wrong with it; the built-in
     * one when a rule is first tried (rule_ready) */
    if (!g->builtin && !rule_compile(r, file, err))
        goto fail;
    return r;
oom:
    fsc_buf_puts(err, "out of memory");
fail:
    rule_free(r);
    return NULL;
}

static const char *lead_start(const char *s, size_t n, size_t *rest)
{
    size_t i = 0;
    while (i < n && (s[i] == ' ' || s[i] == '\t'))
        i++;
    /* client/server lines carry a "<host>" prefix */
    i += fsc_client_host_len(s + i, n - i);
    *rest = n - i;
    return s + i;
}

/* Does s[0, n) contain the needle? memchr finds the candidates: cheaper
 * than memmem for the short lines and needles here. */
static bool contains(const char *s, size_t n, const char *needle, size_t k)
{
    const char *end = s + n;
    if (k == 0)
        return true; /* as memmem */
    for (const char *p = s; k <= (size_t)(end - p) && (p = memchr(p, needle[0], (size_t)(end - p) - k + 1)); p++)
        if (memcmp(p, needle, k) == 0)
            return true;
    return false;
}

/* one lock for every rule: each is compiled once, in well under a millisecond */
static pthread_mutex_t ready_lock = PTHREAD_MUTEX_INITIALIZER;

/* A rule's pattern is compiled and JIT-compiled when it is first tried, not when the
 * grammars are loaded: JIT-compiling all of them took 5 M of the 9.5 M instructions of
 * a start, compiling them 1.4 M of the 3.8 M left, and a clean log on the fast path
 * tries few rules or none. It happens under the lock, before the release that lets
 * other threads match without it. A built-in rule that does not compile (its unit test
 * compiles them all) never matches. */
static void rule_ready(fsc_rule *r)
{
    pthread_mutex_lock(&ready_lock);
    if (!atomic_load_explicit(&r->ready, memory_order_relaxed)) {
        fsc_buf ignored = {0};
        if (r->re || rule_compile(r, "built-in grammar", &ignored))
            (void)pcre2_jit_compile(r->re, PCRE2_JIT_COMPLETE); /* speed-up only */
        fsc_buf_free(&ignored);
        atomic_store_explicit(&r->ready, true, memory_order_release);
    }
    pthread_mutex_unlock(&ready_lock);
}

/* Does s[0, n) hold a byte above 0x7F (UTF-8 text, or bytes that are not)? */
static bool non_ascii(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if ((unsigned char)s[i] & 0x80)
            return true;
    return false;
}

/* Does r match s[0, n)? A match without the rule's "whole" capture counts only for a
 * line cut short (cut). no_jit: the line holds non-ASCII bytes, which PCRE2 10.42's
 * JIT code does not match to a bare \S or \D under PCRE2_MATCH_INVALID_UTF (a job
 * named "é" or "日本" was no job: "^\S" fails on "é" where the interpreter matches
 * it), so such lines are matched by the interpreter. */
static bool try_rule(const fsc_rule *r, const char *s, size_t n, pcre2_match_data *md, bool cut, bool no_jit)
{
    if (!atomic_load_explicit(&r->ready, memory_order_acquire))
        rule_ready((fsc_rule *)r); /* a cache inside a shared, otherwise constant rule */
    if (!r->re || pcre2_match(r->re, (PCRE2_SPTR)s, n, 0, no_jit ? PCRE2_NO_JIT : 0, md, NULL) < 0)
        return false;
    return cut || r->cap_whole < 0 || pcre2_get_ovector_pointer(md)[2 * r->cap_whole] != PCRE2_UNSET;
}

/* Does lead entry e begin the word at w (rest bytes)? A lead ending in a letter
 * must end the word there. */
static bool lead_fits(const lead_entry *e, const char *w, size_t rest)
{
    if (e->len > rest || e->lead[0] != w[0] || memcmp(e->lead, w, e->len) != 0)
        return false;
    char last = e->lead[e->len - 1];
    bool alnum_end = (last >= 'a' && last <= 'z') || (last >= 'A' && last <= 'Z');
    if (alnum_end && e->len < rest) {
        char nx = w[e->len];
        if ((nx >= 'a' && nx <= 'z') || (nx >= 'A' && nx <= 'Z') || nx == '_')
            return false;
    }
    return true;
}

bool fsc_grammar_lead_match(const fsc_grammar_set *g, const char *s, size_t n)
{
    size_t rest;
    const char *w = lead_start(s, n, &rest);
    if (rest == 0)
        return false;
    const struct lead_bucket *b = &g->by_byte[(unsigned char)w[0]];
    for (size_t i = 0; i < b->n; i++)
        if (lead_fits(&g->leads[b->idx[i]], w, rest))
            return true;
    return false;
}

bool fsc_grammar_could_match(const fsc_grammar_set *g, const char *s, size_t n)
{
    if (fsc_grammar_lead_match(g, s, n))
        return true;
    for (size_t k = 0; k < g->n_generic; k++)
        if (!g->generic[k]->needle || contains(s, n, g->generic[k]->needle, g->generic[k]->needle_len))
            return true;
    return false;
}

bool fsc_rule_match(const fsc_rule *r, const char *s, size_t n, pcre2_match_data *md)
{
    return try_rule(r, s, n, md, false, non_ascii(s, n));
}

const fsc_rule *fsc_grammar_rule(const fsc_grammar_set *g, const char *id)
{
    for (size_t i = 0; i < g->n_rules; i++)
        if (!strcmp(g->rules[i]->id, id))
            return g->rules[i];
    return NULL;
}

bool fsc_grammar_builtin(const fsc_grammar_set *g)
{
    return g->builtin;
}

static const fsc_rule *grammar_match(const fsc_grammar_set *g, const char *s, size_t n, pcre2_match_data *md,
                                     bool cut)
{
    size_t rest;
    const char *w = lead_start(s, n, &rest);
    if (rest == 0)
        return NULL;
    const struct lead_bucket *b = &g->by_byte[(unsigned char)w[0]];
    bool no_jit = non_ascii(s, n);
    for (size_t i = 0; i < b->n; i++) {
        const lead_entry *e = &g->leads[b->idx[i]];
        if (!lead_fits(e, w, rest))
            continue;
        for (size_t k = 0; k < e->n; k++)
            if (try_rule(e->rules[k], s, n, md, cut, no_jit))
                return e->rules[k];
    }
    for (size_t k = 0; k < g->n_generic; k++) {
        const fsc_rule *r = g->generic[k];
        if (r->needle && !contains(s, n, r->needle, r->needle_len))
            continue;
        if (try_rule(r, s, n, md, cut, no_jit))
            return r;
    }
    return NULL;
}

const fsc_rule *fsc_grammar_match(const fsc_grammar_set *g, const char *s, size_t n, pcre2_match_data *md)
{
    return grammar_match(g, s, n, md, false);
}

const fsc_rule *fsc_grammar_match_cut(const fsc_grammar_set *g, const char *s, size_t n, pcre2_match_data *md)
{
    return grammar_match(g, s, n, md, true);
}

/* Allowed edits for a keyword of this length. */
static size_t fuzzy_budget(size_t len)
{
    return len >= 8 ? 3 : len >= 4 ? 2 : 1;
}

const fsc_rule *fsc_grammar_match_fuzzy(const fsc_grammar_set *g, const char *s, size_t n,
                                        pcre2_match_data *md, fsc_buf *fixed)
{
    size_t lead = 0;
    while (lead < n && (s[lead] == ' ' || s[lead] == '\t'))
        lead++;
    /* the damaged start: letters, spaces and '/' up to the first '(' ':' '=' '[' */
    size_t end = lead;
    while (end < n && s[end] != '(' && s[end] != ':' && s[end] != '=' && s[end] != '[')
        end++;
    while (end > lead && s[end - 1] == ' ')
        end--;
    if (end == lead || end - lead > 36)
        return NULL;
    for (size_t k = 0; k < g->n_rules; k++) {
        const fsc_rule *r = g->rules[k];
        for (size_t f = 0; f < r->n_fuzzy; f++) {
            const char *canon = r->fuzzy[f];
            /* typos keep the first letter: a cheap filter before the edit distance */
            if ((s[lead] | 0x20) != (canon[0] | 0x20))
                continue;
            size_t cl = strlen(canon), wl = end - lead;
            if ((wl > cl ? wl - cl : cl - wl) > fuzzy_budget(cl))
                continue;
            size_t d = fsc_edit_distance(s + lead, end - lead, canon, cl);
            if (d == 0 || d > fuzzy_budget(cl))
                continue;
            fsc_buf_reset(fixed);
            fsc_buf_add(fixed, s, lead);
            fsc_buf_add(fixed, canon, cl);
            fsc_buf_add(fixed, s + end, n - end);
            if (fixed->oom)
                return NULL;
            if (try_rule(r, fixed->data, fixed->len, md, false, non_ascii(fixed->data, fixed->len)))
                return r;
        }
    }
    return NULL;
}

pcre2_match_data *fsc_grammar_match_data(const fsc_grammar_set *g)
{
    return pcre2_match_data_create(g->max_captures + 1, NULL);
}

bool fsc_rule_capture(const fsc_rule *r, pcre2_match_data *md, const char *subject,
                      const char *name, const char **s, size_t *len)
{
    int num = pcre2_substring_number_from_name(r->re, (PCRE2_SPTR)name);
    return fsc_rule_capture_num(md, subject, num, s, len);
}

bool fsc_rule_capture_num(pcre2_match_data *md, const char *subject, int num, const char **s,
                          size_t *len)
{
    if (num < 0 || (uint32_t)num >= pcre2_get_ovector_count(md))
        return false;
    PCRE2_SIZE *ov = pcre2_get_ovector_pointer(md);
    if (ov[2 * num] == PCRE2_UNSET)
        return false;
    *s = subject + ov[2 * num];
    *len = ov[2 * num + 1] - ov[2 * num];
    return true;
}

const fsc_kvfield *fsc_rule_kv(const fsc_rule *r, const char *key, size_t len)
{
    for (size_t i = 0; i < r->n_kv; i++)
        if (strlen(r->kv[i].key) == len && !memcmp(r->kv[i].key, key, len))
            return &r->kv[i];
    return NULL;
}

const fsc_rule *const *fsc_grammar_rules(const fsc_grammar_set *g, size_t *n_out)
{
    *n_out = g->n_rules;
    return (const fsc_rule *const *)g->rules;
}

/* Check the samples of one grammar: each line must be matched by the rule it names,
 * with the expected captures (a line marked "cut" as a line cut short only). */
static bool check_samples(const fsc_grammar_set *g, const char *file, const cJSON *samples,
                          fsc_buf *err)
{
    pcre2_match_data *md = fsc_grammar_match_data(g);
    if (!md)
        return false;
    bool ok = true;
    const cJSON *s;
    int idx = 0;
    cJSON_ArrayForEach(s, samples)
    {
        const cJSON *line = cJSON_GetObjectItemCaseSensitive(s, "line");
        const cJSON *rule = cJSON_GetObjectItemCaseSensitive(s, "rule");
        if (!cJSON_IsString(line) || !cJSON_IsString(rule)) {
            fsc_buf_printf(err, "%s: /samples/%d: needs \"line\" and \"rule\"\n", file, idx);
            ok = false;
            continue;
        }
        const char *text = line->valuestring;
        /* "cut": a line cut short (its "whole" capture lost), which only that reading
         * takes; the grammar must refuse it as a line of its own */
        bool cut = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(s, "cut"));
        if (cut && fsc_grammar_match(g, text, strlen(text), md) == fsc_grammar_rule(g, rule->valuestring)) {
            fsc_buf_printf(err, "%s: /samples/%d: \"%s\" is cut short, yet rule \"%s\" takes it whole\n", file,
                           idx, text, rule->valuestring);
            ok = false;
        }
        const fsc_rule *r = cut ? fsc_grammar_match_cut(g, text, strlen(text), md)
                                : fsc_grammar_match(g, text, strlen(text), md);
        if (!r || strcmp(r->id, rule->valuestring)) {
            fsc_buf_printf(err, "%s: /samples/%d: \"%s\" matched %s%s, expected rule \"%s\"\n", file, idx,
                           text, r ? "rule " : "no rule", r ? r->id : "", rule->valuestring);
            ok = false;
            idx++;
            continue;
        }
        const cJSON *exp = cJSON_GetObjectItemCaseSensitive(s, "expect");
        const cJSON *e;
        cJSON_ArrayForEach(e, exp)
        {
            const char *cs;
            size_t cl;
            if (!fsc_rule_capture(r, md, text, e->string, &cs, &cl) || !cJSON_IsString(e) ||
                strlen(e->valuestring) != cl || memcmp(cs, e->valuestring, cl)) {
                fsc_buf_printf(err, "%s: /samples/%d: capture \"%s\" of \"%s\" is not \"%s\"\n", file, idx,
                               e->string, text, cJSON_IsString(e) ? e->valuestring : "?");
                ok = false;
            }
        }
        idx++;
    }
    pcre2_match_data_free(md);
    return ok;
}

/* Load one grammar file's rules (samples are checked once all files are in, since a
 * sample must be matched by its own rule and by no earlier one). */
static bool grammar_load(fsc_grammar_set *g, const char *file, const char *data, size_t size,
                         cJSON **keep, fsc_buf *err)
{
    cJSON *root = cJSON_ParseWithLength(data, size);
    if (!root) {
        fsc_buf_printf(err, "%s: not valid JSON near byte %zu", file,
                       cJSON_GetErrorPtr() ? (size_t)(cJSON_GetErrorPtr() - data) : 0);
        return false;
    }
    const cJSON *rules = cJSON_GetObjectItemCaseSensitive(root, "rules");
    if (!cJSON_IsObject(rules)) { /* data files of other kinds (terse table, keywords) */
        cJSON_Delete(root);
        return true;
    }
    const cJSON *jr;
    cJSON_ArrayForEach(jr, rules)
    {
        for (size_t i = 0; i < g->n_rules; i++)
            if (!strcmp(g->rules[i]->id, jr->string)) {
                fsc_buf_printf(err, "%s: rule \"%s\" is defined twice", file, jr->string);
                cJSON_Delete(root);
                return false;
            }
        fsc_rule *r = rule_load(g, file, jr, err);
        fsc_rule **slot = r ? FSC_PUSH(g->rules, g->n_rules, g->cap_rules) : NULL;
        if (!slot) {
            rule_free(r);
            cJSON_Delete(root);
            return false;
        }
        *slot = r;
        for (size_t i = 0; i < r->n_leads; i++)
            if (!add_lead(g, r->leads[i], r)) {
                fsc_buf_printf(err, "%s: rule \"%s\": bad lead", file, r->id);
                cJSON_Delete(root);
                return false;
            }
        r->catch_all = r->action == FSC_ACT_NOISE && leads_taken(g, r);
        r->values = ends_known(r->action) && !r->whole; /* a whole line's last field: read */
        if (!r->n_leads) {
            const fsc_rule **gs = FSC_PUSH(g->generic, g->n_generic, g->cap_generic);
            if (!gs) {
                cJSON_Delete(root);
                return false;
            }
            *gs = r;
        }
    }
    *keep = root;
    return true;
}

typedef struct loaded {
    char *name;
    cJSON *root;
} loaded;

static int cmp_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* *.json of a directory, sorted, read into memory. */
static bool load_dir(fsc_grammar_set *g, const char *dir, loaded *out, size_t *n_out, size_t max,
                     fsc_buf *err)
{
    DIR *d = opendir(dir);
    if (!d) {
        fsc_buf_printf(err, "%s: cannot open grammar directory", dir);
        return false;
    }
    char *names[128];
    size_t n = 0;
    struct dirent *de;
    while ((de = readdir(d)) && n < FSC_ARRAY_SIZE(names)) {
        size_t l = strlen(de->d_name);
        if (l > 5 && !strcmp(de->d_name + l - 5, ".json"))
            names[n++] = fsc_strdup(de->d_name);
    }
    closedir(d);
    qsort(names, n, sizeof names[0], cmp_names);
    bool ok = true;
    for (size_t i = 0; i < n; i++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        FILE *f = ok ? fopen(path, "rb") : NULL;
        char *buf = NULL;
        long sz = 0;
        if (f && fseek(f, 0, SEEK_END) == 0 && (sz = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0 &&
            (buf = malloc((size_t)sz + 1)) && fread(buf, 1, (size_t)sz, f) == (size_t)sz) {
            cJSON *root = NULL;
            ok = grammar_load(g, path, buf, (size_t)sz, &root, err);
            if (root && *n_out < max) {
                out[*n_out].name = fsc_strdup(path);
                out[(*n_out)++].root = root;
            } else {
                cJSON_Delete(root);
            }
        } else if (ok) {
            fsc_buf_printf(err, "%s: cannot read", path);
            ok = false;
        }
        free(buf);
        if (f)
            fclose(f);
        free(names[i]);
    }
    return ok;
}

fsc_grammar_set *fsc_grammars_load(fsc_buf *err)
{
    fsc_grammar_set *g = calloc(1, sizeof *g);
    if (!g) {
        fsc_buf_puts(err, "out of memory");
        return NULL;
    }
    loaded files[128];
    size_t n_files = 0;
    bool ok = true;
    const char *dir = getenv("FIOSCOPE_GRAMMAR_DIR");
    if (dir && *dir) {
        ok = load_dir(g, dir, files, &n_files, FSC_ARRAY_SIZE(files), err);
    } else {
        g->builtin = true;
        for (const struct fsc_embedded *e = fsc_grammar_files; ok && e->name; e++) {
            size_t l = strlen(e->name);
            if (l < 5 || strcmp(e->name + l - 5, ".json"))
                continue;
            cJSON *root = NULL;
            ok = grammar_load(g, e->name, e->data, e->size, &root, err);
            if (root && n_files < FSC_ARRAY_SIZE(files)) {
                files[n_files].name = fsc_strdup(e->name);
                files[n_files++].root = root;
            } else {
                cJSON_Delete(root);
            }
        }
    }
    /* a folder's samples are checked as it is loaded; the compiled-in grammars' are
     * checked by their unit test (tests/unit/test_grammars.c loads them from a folder):
     * at every start, trying them compiled every pattern, 5 M of the 9.5 M
     * instructions a start took */
    for (size_t i = 0; i < n_files; i++) {
        if (ok && !g->builtin)
            ok = check_samples(g, files[i].name, cJSON_GetObjectItemCaseSensitive(files[i].root, "samples"), err);
        cJSON_Delete(files[i].root);
        free(files[i].name);
    }
    if (ok && g->n_rules == 0) {
        fsc_buf_puts(err, "no grammar rules found");
        ok = false;
    }
    if (!ok) {
        fsc_grammars_free(g);
        return NULL;
    }
    return g;
}
