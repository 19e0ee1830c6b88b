/* SPDX-License-Identifier: MIT */
/*
 * fio normal text → runs. Each line is classified by the grammar; the matched rule's
 * action places its captures in the model. Run boundaries come from anchors (job
 * definitions, banners, job headers after summaries) and from long stretches of prose.
 */
#define _GNU_SOURCE
#include "fastline.h"
#include "grammar.h"

#include "fioscope/units.h"

#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Unknown non-blank lines after which a run with results is closed. */
#define PROSE_GAP 6
/* Warnings about unknown lines kept per run (the rest are counted). */
#define MAX_LINE_WARNINGS 20

typedef struct jobdef {
    char *name, *rw, *bs, *ioengine, *iodepth;
} jobdef;

typedef struct disk_master {
    size_t index; /* into run->disk_util */
    double sum_r, sum_w;
    uint64_t n;
} disk_master;

typedef struct nstate {
    const fsc_grammar_set *g;
    const fsc_text *t;
    fsc_emit_fn emit;
    void *ctx;
    pcre2_match_data *md;
    bool stopped, oom;

    fsc_run *run;
    size_t first, last; /* line indexes of the current run */
    size_t unknown_since_last; /* non-blank unknown lines since the last recognized one */
    size_t pending_unknown[MAX_LINE_WARNINGS];
    size_t n_pending_unknown;
    bool has_results;
    int phase; /* 0 preamble/jobs, 2 groups seen, 3 disk stats seen */
    bool era_known;
    fsc_unit_rules units;
    long job;  /* index of the current job or -1 */
    int dir;   /* current direction or -1 */
    int pctl_dir, pctl_kind; /* open percentile block (kind -1: none / ignored) */
    uint64_t pctl_unit_ns;
    long group;
    char runno[16];         /* "3" of a numbered summary line "3 - READ: ..." */
    disk_master masters[8]; /* md/dm devices whose members are being listed */
    size_t n_masters;
    uint64_t starting;
    uint32_t starting_line; /* original line of "Starting N processes" */
    size_t line_warnings;
    jobdef *defs;
    size_t n_defs, cap_defs;
    /* the fast path (NULL: off); fl holds the line being applied, la the next line
     * when it was lexed ahead (la_idx) to see whether it continues this one */
    const fsc_fastpath *fp;
    fsc_fastline *fl, *la;
    size_t la_idx;
    fsc_fastline fl_buf[2];
} nstate;

static void defs_clear(nstate *st)
{
    for (size_t i = 0; i < st->n_defs; i++) {
        free(st->defs[i].name);
        free(st->defs[i].rw);
        free(st->defs[i].bs);
        free(st->defs[i].ioengine);
        free(st->defs[i].iodepth);
    }
    st->n_defs = 0;
}

static void reset_run_state(nstate *st)
{
    st->run = NULL;
    st->has_results = false;
    st->phase = 0;
    st->era_known = false;
    st->units.era = FSC_ERA_MODERN;
    st->units.kb_base = 1024;
    st->job = -1;
    st->dir = -1;
    st->pctl_kind = -1;
    st->group = -1;
    st->n_masters = 0;
    st->starting = 0;
    st->line_warnings = 0;
    st->unknown_since_last = 0;
    st->n_pending_unknown = 0;
    defs_clear(st);
}

static bool warn(nstate *st, size_t idx, const char *fmt, ...) FSC_PRINTF(3, 4);
static bool warn(nstate *st, size_t idx, const char *fmt, ...)
{
    char msg[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (!fsc_run_warn(st->run, st->t->lines[idx].orig, "%s", msg)) {
        st->oom = true;
        return false;
    }
    return true;
}

static void note_unknown(nstate *st, size_t idx)
{
    fsc_run *run = st->run;
    run->lines.unknown++;
    uint32_t *slot = FSC_PUSH(run->unknown_lines, run->n_unknown_lines, run->cap_unknown_lines);
    if (slot)
        *slot = st->t->lines[idx].orig;
    else
        st->oom = true;
}

/* Close the current run: final checks, then hand it to the caller. */
static void close_run(nstate *st)
{
    fsc_run *run = st->run;
    if (!run)
        return;
    if (!run->n_jobs && !run->n_groups && !run->n_disk_util) {
        fsc_run_free(run); /* a preamble without results (e.g. a quoted command) */
        reset_run_state(st);
        return;
    }
    uint64_t shown = 0;
    for (size_t i = 0; i < run->n_jobs; i++)
        shown += run->jobs[i].jobs.set && run->jobs[i].jobs.v >= 0 && run->jobs[i].jobs.v < 1e15
                     ? (uint64_t)run->jobs[i].jobs.v
                     : 1;
    if (st->starting && run->n_jobs && shown < st->starting) {
        char msg[160];
        snprintf(msg, sizeof msg, "%llu processes were started but only %llu are shown in job blocks (the rest omitted?)",
                 (unsigned long long)st->starting, (unsigned long long)shown);
        fsc_run_warn(run, st->starting_line, "%s", msg);
    }
    if (!run->n_jobs)
        fsc_run_warn(run, 0, "no job blocks: only summaries were found");
    if (!st->emit(st->ctx, run, st->first, st->last))
        st->stopped = true;
    reset_run_state(st);
}

static bool ensure_run(nstate *st, size_t idx)
{
    if (st->run)
        return true;
    st->run = fsc_run_new();
    if (!st->run) {
        st->oom = true;
        return false;
    }
    st->first = st->last = idx;
    return true;
}

static fsc_job *cur_job(nstate *st)
{
    return st->job >= 0 ? &st->run->jobs[st->job] : NULL;
}

/* A result line without a job header (a partial paste): give it an unnamed job. */
static fsc_job *need_job(nstate *st, size_t idx)
{
    fsc_job *j = cur_job(st);
    if (j)
        return j;
    j = fsc_run_add_job(st->run);
    if (!j) {
        st->oom = true;
        return NULL;
    }
    st->job = (long)st->run->n_jobs - 1;
    j->first_line = j->last_line = st->t->lines[idx].orig;
    warn(st, idx, "results without a job header line: job name unknown");
    return j;
}

static fsc_dir *cur_dir(nstate *st, size_t idx)
{
    fsc_job *j = need_job(st, idx);
    if (!j)
        return NULL;
    if (st->dir < 0) {
        st->dir = FSC_DIR_READ; /* stats lines before any direction line: fio prints read first */
        warn(st, idx, "latency/bandwidth lines before a read/write line: assumed read");
    }
    j->dir[st->dir].present = true;
    return &j->dir[st->dir];
}

static void trim(const char **s, size_t *n)
{
    while (*n && isspace((unsigned char)**s)) {
        (*s)++;
        (*n)--;
    }
    while (*n && isspace((unsigned char)(*s)[*n - 1]))
        (*n)--;
}

/* bw samples are kept in KiB/s by fio; the label only says which multiple of it:
 * the factor to KiB/s as num/den. */
static bool bwstat_factor(const char *u, size_t n, uint64_t *num, uint64_t *den)
{
    *num = *den = 1;
    if (n && (u[0] == 'M' || u[0] == 'm'))
        *num = 1024;
    else if (n && (u[0] == 'G' || u[0] == 'g'))
        *num = 1024 * 1024;
    else if (n && u[0] == 'B')
        *den = 1024;
    else if (!n || (u[0] != 'K' && u[0] != 'k'))
        return false;
    if (n >= 3 && !memcmp(u + n - 3, "bit", 3))
        *den *= 8;
    return true;
}

/* Convert a captured value. unit/unit_len: the line's "unit" capture, if any. */
static fsc_status convert(nstate *st, fsc_kind kind, const char *s, size_t n, const char *unit,
                          size_t unit_len, fsc_num *out)
{
    trim(&s, &n);
    switch (kind) {
    case FSC_K_INT:
    case FSC_K_PLAIN: return fsc_parse_plain_num(s, n, out);
    case FSC_K_COUNT: return fsc_parse_count_num(s, n, out);
    case FSC_K_SIZE: return fsc_parse_size_num(s, n, st->units, out);
    case FSC_K_RATE: return fsc_parse_rate_num(s, n, st->units, out);
    case FSC_K_PCT: return fsc_parse_pct_num(s, n, out);
    case FSC_K_DURATION:
        if (!unit)
            return FSC_E_SYNTAX;
        return fsc_parse_duration_num(s, n, unit, unit_len, out);
    case FSC_K_BWSTAT: {
        uint64_t num = 1, den = 1;
        if (unit && !bwstat_factor(unit, unit_len, &num, &den))
            return FSC_E_SYNTAX;
        return fsc_parse_scaled_num(s, n, num, den, out);
    }
    default: return FSC_E_SYNTAX;
    }
}

static void set_num(nstate *st, void *base, const fsc_field *tab, size_t ntab, const char *field,
                    fsc_num v, size_t idx)
{
    const fsc_field *f = fsc_field_find(tab, ntab, field, strlen(field));
    if (!f) {
        warn(st, idx, "grammar names an unknown model field '%.*s'", (int)(strlen(field)), field);
        return;
    }
    *fsc_field_ptr(base, f) = v;
}

/* Captured fields of the rule ("fields") into a struct described by tab. */
static void apply_fields(nstate *st, const fsc_rule *r, const char *line, void *base,
                         const fsc_field *tab, size_t ntab, size_t idx)
{
    for (size_t i = 0; i < r->n_fields; i++) {
        const fsc_capfield *cf = &r->fields[i];
        if (cf->kind == FSC_K_STRING)
            continue;
        const char *s;
        size_t n;
        if (!fsc_rule_capture_num(st->md, line, cf->num, &s, &n))
            continue;
        const fsc_field *f = fsc_field_find(tab, ntab, cf->name, strlen(cf->name));
        if (!f)
            continue; /* a capture meant for another target (e.g. jobname) */
        fsc_num v;
        if (convert(st, cf->kind, s, n, NULL, 0, &v) != FSC_OK) {
            st->run->lines.malformed++;
            warn(st, idx, "cannot read the value '%.*s'", (int)(n), s);
            continue;
        }
        *fsc_field_ptr(base, f) = v; /* set_num, with the field found above */
    }
}

/* Find a kv field by key, allowing a damaged key (a few letters lost or swapped).
 * fio prints the keys of a line in a fixed order (the grammar's kv order), so a key
 * at position pos that is close to the key expected there is read as that key. */
static const fsc_kvfield *kv_lookup(const fsc_rule *r, const char *k, size_t kn, size_t pos,
                                    bool *fuzzy)
{
    const fsc_kvfield *f = fsc_rule_kv(r, k, kn);
    *fuzzy = false;
    if (f || kn == 0)
        return f;
    if (pos < r->n_kv) {
        const char *want = r->kv[pos].key;
        size_t wl = strlen(want);
        size_t d = fsc_edit_distance(k, kn, want, wl);
        if (d <= (wl + 1) / 2 && (kn >= 1 && (k[0] == want[0] || k[kn - 1] == want[wl - 1]))) {
            *fuzzy = true;
            return &r->kv[pos];
        }
    }
    const fsc_kvfield *best = NULL;
    size_t best_d = 99, ties = 0;
    for (size_t i = 0; i < r->n_kv; i++) {
        size_t d = fsc_edit_distance(k, kn, r->kv[i].key, strlen(r->kv[i].key));
        if (d < best_d) {
            best_d = d;
            best = &r->kv[i];
            ties = 0;
        } else if (d == best_d) {
            ties++;
        }
    }
    size_t limit = strlen(best ? best->key : "") >= 5 ? 2 : 1;
    if (best && best_d <= limit && ties == 0) {
        *fuzzy = true;
        return best;
    }
    return NULL;
}

/* "key=value, key=value, ..." of capture "kv" into base/tab. */
static void apply_kv(nstate *st, const fsc_rule *r, const char *line, void *base,
                     const fsc_field *tab, size_t ntab, size_t idx)
{
    const char *s, *unit = NULL;
    size_t n, unit_len = 0;
    if (!fsc_rule_capture_num(st->md, line, r->cap_kv, &s, &n))
        return;
    fsc_rule_capture_num(st->md, line, r->cap_unit, &unit, &unit_len);
    const char *end = s + n;
    size_t pos = 0;
    while (s < end) {
        const char *comma = memchr(s, ',', (size_t)(end - s));
        const char *item_end = comma ? comma : end;
        const char *eq = memchr(s, '=', (size_t)(item_end - s));
        const char *vstart = eq ? eq + 1 : NULL;
        if (!eq) {
            /* "mi8656": the '=' was lost; the key is the letters before the number */
            const char *p = s;
            while (p < item_end && (*p == ' ' || isalpha((unsigned char)*p)))
                p++;
            if (p > s && p < item_end && isdigit((unsigned char)*p)) {
                eq = p;
                vstart = p;
            }
        }
        if (eq) {
            const char *k = s, *v = vstart;
            size_t kn = (size_t)(eq - s), vn = (size_t)(item_end - v);
            trim(&k, &kn);
            trim(&v, &vn);
            bool fuzzy;
            const fsc_kvfield *f = kv_lookup(r, k, kn, pos++, &fuzzy);
            if (f && vstart == eq && !fuzzy) {
                fuzzy = true; /* still a repair: the '=' was missing */
            }
            if (!f) {
                st->run->lines.malformed++;
                warn(st, idx, "unknown field '%.*s'", (int)(kn), k);
            } else if (f->kind == FSC_K_PAIR) {
                const char *slash = memchr(v, '/', vn);
                fsc_num a, b;
                if (slash && fsc_parse_plain_num(v, (size_t)(slash - v), &a) == FSC_OK &&
                    fsc_parse_plain_num(slash + 1, (size_t)(v + vn - slash - 1), &b) == FSC_OK) {
                    set_num(st, base, tab, ntab, f->field, a, idx);
                    if (f->field2)
                        set_num(st, base, tab, ntab, f->field2, b, idx);
                } else {
                    st->run->lines.malformed++;
                    warn(st, idx, "cannot read the value pair '%.*s'", (int)(vn), v);
                }
            } else {
                fsc_num val;
                fsc_status cst = convert(st, f->kind, v, vn, unit, unit_len, &val);
                if (cst != FSC_OK && f->kind != FSC_K_STRING) {
                    /* "59752.00[74/9131]": junk glued to a number by a paste; keep the number */
                    size_t q = 0;
                    while (q < vn && (isdigit((unsigned char)v[q]) || v[q] == '.'))
                        q++;
                    if (q < vn && strchr("kKMG", v[q]))
                        q++;
                    if (q > 0 && q < vn && !isalnum((unsigned char)v[q]) &&
                        convert(st, f->kind, v, q, unit, unit_len, &val) == FSC_OK) {
                        cst = FSC_OK;
                        fuzzy = true;
                    }
                }
                if (cst == FSC_OK) {
                    set_num(st, base, tab, ntab, f->field, val, idx);
                    if (fuzzy) {
                        st->run->lines.repaired++;
                        warn(st, idx, "damaged key '%.*s' read as a known field", (int)(kn), k);
                    }
                } else {
                    st->run->lines.malformed++;
                    warn(st, idx, "cannot read the value '%.*s'", (int)(vn), v);
                }
            }
        }
        s = comma ? comma + 1 : end;
    }
}

static char *cap_dup(nstate *st, const fsc_rule *r, const char *line, const char *name)
{
    const char *s;
    size_t n;
    if (!fsc_rule_capture(r, st->md, line, name, &s, &n))
        return NULL;
    trim(&s, &n);
    char *d = fsc_strndup(s, n);
    if (!d)
        st->oom = true;
    return d;
}

static bool cap_is(nstate *st, const fsc_rule *r, const char *line, const char *name, const char *want)
{
    const char *s;
    size_t n;
    return fsc_rule_capture(r, st->md, line, name, &s, &n) && n == strlen(want) && !memcmp(s, want, n);
}

static void set_era(nstate *st, fsc_unit_era era)
{
    if (st->era_known)
        return;
    st->units.era = era;
    st->era_known = true;
}

static void banner_version(nstate *st, const char *v, size_t vn, bool engine);

static void act_banner(nstate *st, const fsc_rule *r, const char *line)
{
    const char *v;
    size_t vn;
    if (!fsc_rule_capture(r, st->md, line, "version", &v, &vn))
        return;
    bool engine = cap_is(st, r, line, "engine", "fioscope-engine");
    char *host = cap_dup(st, r, line, "hostname");
    if (host) { /* client/server: "hostname=vm, ..., fio=fio-3.33" */
        free(st->run->source.host);
        st->run->source.host = host;
    }
    banner_version(st, v, vn, engine);
}

/* The version a banner shows (v[0, vn)): the run's fio_version and the era. */
static void banner_version(nstate *st, const char *v, size_t vn, bool engine)
{
    free(st->run->source.fio_version);
    fsc_buf b = {0};
    fsc_buf_puts(&b, engine ? "fioscope-engine-" : "fio-");
    fsc_buf_add(&b, v, vn);
    st->run->source.fio_version = b.data;
    if (engine) {
        st->run->source.format = FSC_FMT_ENGINE;
        set_era(st, FSC_ERA_MODERN);
        return;
    }
    unsigned major = 0, minor = 0;
    char ver[32];
    /* v points into the document: copy it so sscanf does not scan past the line */
    snprintf(ver, sizeof ver, "%.*s", (int)(vn < sizeof ver ? vn : sizeof ver - 1), v);
    if (sscanf(ver, "%u.%u", &major, &minor) == 2) {
        st->units.era = (major < 2 || (major == 2 && minor < 17)) ? FSC_ERA_LEGACY : FSC_ERA_MODERN;
        st->era_known = true;
    }
}

/* A new job definition named name (taken over), or NULL when one of that name is
 * known (clones repeat the line) or memory ran out. */
static jobdef *jobdef_new(nstate *st, char *name)
{
    for (size_t i = 0; i < st->n_defs; i++)
        if (!strcmp(st->defs[i].name, name)) {
            free(name);
            return NULL;
        }
    jobdef *d = FSC_PUSH(st->defs, st->n_defs, st->cap_defs);
    if (!d) {
        free(name);
        st->oom = true;
        return NULL;
    }
    memset(d, 0, sizeof *d);
    d->name = name;
    return d;
}

static void act_jobdef(nstate *st, const fsc_rule *r, const char *line)
{
    char *name = cap_dup(st, r, line, "jobname");
    jobdef *d = name ? jobdef_new(st, name) : NULL;
    if (!d)
        return;
    d->rw = cap_dup(st, r, line, "rw");
    d->bs = cap_dup(st, r, line, "bs");
    if (!d->bs)
        d->bs = cap_dup(st, r, line, "bs2");
    d->ioengine = cap_dup(st, r, line, "ioengine");
    d->iodepth = cap_dup(st, r, line, "iodepth");
}

/* A job header: the new job, made current. */
static fsc_job *job_open(nstate *st, size_t idx)
{
    fsc_job *j = fsc_run_add_job(st->run);
    if (!j) {
        st->oom = true;
        return NULL;
    }
    st->job = (long)st->run->n_jobs - 1;
    st->dir = -1;
    st->pctl_kind = -1;
    j->first_line = j->last_line = st->t->lines[idx].orig;
    return j;
}

static void job_close(nstate *st, fsc_job *j);

static void act_job(nstate *st, const fsc_rule *r, const char *line, size_t idx)
{
    fsc_job *j = job_open(st, idx);
    if (!j)
        return;
    j->jobname = cap_dup(st, r, line, "jobname");
    j->hostname = cap_dup(st, r, line, "hostname");
    if (!j->hostname && st->run->source.host)
        j->hostname = fsc_strdup(st->run->source.host);
    j->error_text = cap_dup(st, r, line, "error_text");
    apply_fields(st, r, line, j, fsc_job_fields, fsc_n_job_fields, idx);
    job_close(st, j);
}

/* After a job header's values: the options of its job definition, and the host. */
static void job_close(nstate *st, fsc_job *j)
{
    for (size_t i = 0; j->jobname && i < st->n_defs; i++) {
        const jobdef *d = &st->defs[i];
        if (strcmp(d->name, j->jobname))
            continue;
        if ((d->rw && !fsc_job_set_option(j, "rw", d->rw)) ||
            (d->bs && !fsc_job_set_option(j, "bs", d->bs)) ||
            (d->ioengine && !fsc_job_set_option(j, "ioengine", d->ioengine)) ||
            (d->iodepth && !fsc_job_set_option(j, "iodepth", d->iodepth)))
            st->oom = true;
        break;
    }
    if (j->hostname && !st->run->source.host)
        st->run->source.host = fsc_strdup(j->hostname);
}

/* The direction a line names in its "dir" capture ("read", "WRITE", ...), or -1. */
static int captured_dir(nstate *st, const fsc_rule *r, const char *line)
{
    const char *d;
    size_t dn;
    return fsc_rule_capture(r, st->md, line, "dir", &d, &dn) ? fsc_ddir_from_name(d, dn) : -1;
}

/* A direction line: the direction, made current (NULL: no job). */
static fsc_dir *dir_open(nstate *st, int dir, size_t idx)
{
    fsc_job *j = need_job(st, idx);
    if (!j)
        return NULL;
    st->dir = dir;
    st->pctl_kind = -1;
    fsc_dir *dp = &j->dir[dir];
    dp->present = true;
    return dp;
}

static void dir_close(fsc_dir *dp)
{
    if (dp->bw_bytes.set)
        dp->bw = fsc_num_of(dp->bw_bytes.v / 1024.0);
}

static void act_dir(nstate *st, const fsc_rule *r, const char *line, size_t idx)
{
    int dir = captured_dir(st, r, line);
    fsc_dir *dp = dir >= 0 ? dir_open(st, dir, idx) : NULL;
    if (!dp)
        return;
    apply_fields(st, r, line, dp, fsc_dir_fields, fsc_n_dir_fields, idx);
    dir_close(dp);
}

static int latkind_of(const char *s, size_t n, bool *sync)
{
    *sync = n == 4 && !memcmp(s, "sync", 4);
    if (n == 4 && !memcmp(s, "slat", 4))
        return FSC_LAT_SLAT;
    if (n == 4 && !memcmp(s, "clat", 4))
        return FSC_LAT_CLAT;
    return FSC_LAT_LAT; /* "lat" and fsync's "sync" */
}

static void act_lat(nstate *st, const fsc_rule *r, const char *line, size_t idx)
{
    const char *w;
    size_t wn;
    bool sync;
    if (!fsc_rule_capture(r, st->md, line, "which", &w, &wn))
        return;
    int kind = latkind_of(w, wn, &sync);
    if (sync)
        st->dir = FSC_DIR_SYNC;
    fsc_dir *d = cur_dir(st, idx);
    if (!d)
        return;
    apply_kv(st, r, line, &d->lat[kind], fsc_lat_fields, fsc_n_lat_fields, idx);
}

static void act_pctl_title(nstate *st, const fsc_rule *r, const char *line, size_t idx)
{
    const char *w, *u;
    size_t wn, un;
    bool sync;
    if (!fsc_rule_capture(r, st->md, line, "which", &w, &wn) ||
        !fsc_rule_capture_num(st->md, line, r->cap_unit, &u, &un))
        return;
    int kind = latkind_of(w, wn, &sync);
    if (sync)
        st->dir = FSC_DIR_SYNC;
    if (!cur_dir(st, idx))
        return;
    st->pctl_dir = st->dir;
    st->pctl_kind = kind;
    st->pctl_unit_ns = fsc_unit_ns(u, un);
}

/* "|  1.00th=[   31],  5.00th=[   48], ..." */
static void act_pctl_row(nstate *st, const fsc_rule *r, const char *line, size_t idx)
{
    const char *s;
    size_t n;
    if (st->pctl_kind < 0 || !fsc_rule_capture_num(st->md, line, r->cap_list, &s, &n))
        return;
    fsc_job *j = cur_job(st);
    if (!j)
        return;
    fsc_lat *lat = &j->dir[st->pctl_dir].lat[st->pctl_kind];
    const char *end = s + n;
    while (s < end) {
        const char *th = memmem(s, (size_t)(end - s), "th=[", 4);
        if (!th)
            break;
        const char *p = th;
        while (p > s && (isdigit((unsigned char)p[-1]) || p[-1] == '.'))
            p--;
        const char *v = th + 4;
        const char *close = memchr(v, ']', (size_t)(end - v));
        if (!close)
            break;
        double pct, val;
        if (fsc_parse_plain(p, (size_t)(th - p), &pct) == FSC_OK && pct <= 100 && /* no 995th */
            fsc_parse_scaled(v, (size_t)(close - v), st->pctl_unit_ns, 1, &val) == FSC_OK) {
            if (!fsc_lat_add_pctl(lat, pct, val))
                st->oom = true;
        } else {
            st->run->lines.malformed++;
            warn(st, idx, "cannot read the percentile '%.*s'", (int)((size_t)(close + 1 - p)), p);
        }
        s = close + 1;
    }
}

/* "2=0.01%, 10=0.01%, >=2000=0.10%" into a kvlist, values as percent. */
static void apply_list(nstate *st, const char *s, size_t n, fsc_kvlist *l, size_t idx)
{
    const char *end = s + n;
    while (s < end) {
        const char *comma = memchr(s, ',', (size_t)(end - s));
        const char *item_end = comma ? comma : end;
        /* the key may itself start with ">=": split at the last '=' */
        const char *eq = NULL;
        for (const char *p = s; p < item_end; p++)
            if (*p == '=')
                eq = p;
        if (eq) {
            const char *k = s, *v = eq + 1;
            size_t kn = (size_t)(eq - s), vn = (size_t)(item_end - v);
            trim(&k, &kn);
            /* keys never hold spaces: "> =64" is ">=64" split by a wrap */
            char key[16];
            size_t kl = 0;
            for (size_t q = 0; q < kn && kl < sizeof key - 1; q++)
                if (k[q] != ' ')
                    key[kl++] = k[q];
            key[kl] = '\0';
            double pct;
            if (kl && kn < 32 && fsc_parse_pct(v, vn, &pct) == FSC_OK) {
                if (!fsc_kvlist_set(l, key, pct))
                    st->oom = true;
            } else {
                st->run->lines.malformed++;
                warn(st, idx, "cannot read the bucket '%.*s'", (int)((size_t)(item_end - s)), s);
            }
        }
        s = comma ? comma + 1 : end;
    }
}

static void act_buckets(nstate *st, const fsc_rule *r, const char *line, size_t idx)
{
    const char *u, *s;
    size_t un, n;
    if (!fsc_rule_capture_num(st->md, line, r->cap_unit, &u, &un) ||
        !fsc_rule_capture_num(st->md, line, r->cap_list, &s, &n))
        return;
    fsc_job *j = need_job(st, idx);
    if (!j)
        return;
    st->pctl_kind = -1;
    uint64_t ns = fsc_unit_ns(u, un);
    int b = ns == 1 ? FSC_BUCKET_NS : ns == 1000 ? FSC_BUCKET_US : FSC_BUCKET_MS;
    apply_list(st, s, n, &j->latency[b], idx);
}

static void act_depths(nstate *st, const fsc_rule *r, const char *line, size_t idx)
{
    const char *w, *s;
    size_t wn, n;
    if (!fsc_rule_capture(r, st->md, line, "which", &w, &wn) ||
        !fsc_rule_capture_num(st->md, line, r->cap_list, &s, &n))
        return;
    fsc_job *j = need_job(st, idx);
    if (!j)
        return;
    st->pctl_kind = -1;
    fsc_kvlist *l = w[0] == 'I' ? &j->iodepth_level : w[0] == 's' ? &j->iodepth_submit : &j->iodepth_complete;
    apply_list(st, s, n, l, idx);
}

/* issued: "15037,6398,0,0" (2.17+) or "r=57365/w=24336/d=0" (older) → per direction. */
static void issued_values(nstate *st, const char *s, size_t n, size_t field_off, size_t idx)
{
    fsc_job *j = cur_job(st);
    int order[] = {FSC_DIR_READ, FSC_DIR_WRITE, FSC_DIR_TRIM, FSC_DIR_SYNC};
    /* unified_rw_reporting=1 prints one "mixed" direction and counts it first */
    if (j->dir[FSC_DIR_MIXED].present && !j->dir[FSC_DIR_READ].present)
        order[0] = FSC_DIR_MIXED;
    const char *end = s + n;
    size_t k = 0;
    while (s < end && k < FSC_ARRAY_SIZE(order)) {
        const char *sep = s;
        while (sep < end && *sep != ',' && *sep != '/')
            sep++;
        const char *v = s;
        size_t vn = (size_t)(sep - s);
        const char *eq = memchr(v, '=', vn);
        if (eq) {
            vn -= (size_t)(eq + 1 - v);
            v = eq + 1;
        }
        fsc_num val;
        if (fsc_parse_plain_num(v, vn, &val) == FSC_OK) {
            fsc_dir *d = &j->dir[order[k]];
            /* fio's sync object has only total_ios */
            if (order[k] != FSC_DIR_SYNC || field_off == offsetof(fsc_dir, total_ios)) {
                *(fsc_num *)((char *)d + field_off) = val;
                if (order[k] != FSC_DIR_SYNC)
                    d->present = true;
            }
        } else if (vn) {
            st->run->lines.malformed++;
            warn(st, idx, "cannot read the issued count '%.*s'", (int)((size_t)(sep - s)), s);
        }
        k++;
        s = sep < end ? sep + 1 : end;
    }
}

static void act_issued(nstate *st, const fsc_rule *r, const char *line, size_t idx)
{
    if (!need_job(st, idx))
        return;
    static const struct {
        const char *cap;
        size_t off;
    } parts[] = {{"total", offsetof(fsc_dir, total_ios)},
                 {"short", offsetof(fsc_dir, short_ios)},
                 {"drop", offsetof(fsc_dir, drop_ios)}};
    for (size_t i = 0; i < FSC_ARRAY_SIZE(parts); i++) {
        const char *s;
        size_t n;
        if (fsc_rule_capture(r, st->md, line, parts[i].cap, &s, &n))
            issued_values(st, s, n, parts[i].off, idx);
    }
}

/* "Run status group N": the new group, made current. */
static fsc_group *group_open(nstate *st)
{
    fsc_group *g = fsc_run_add_group(st->run);
    if (!g) {
        st->oom = true;
        return NULL;
    }
    st->group = (long)st->run->n_groups - 1;
    st->job = -1;
    st->dir = -1;
    st->pctl_kind = -1;
    st->phase = 2;
    return g;
}

static void act_group(nstate *st, const fsc_rule *r, const char *line, size_t idx, bool clients)
{
    fsc_group *g = group_open(st);
    if (!g)
        return;
    if (clients)
        g->hostname = fsc_strdup("All clients");
    else
        apply_fields(st, r, line, g, (const fsc_field[]){{"groupid", offsetof(fsc_group, groupid), FSC_UNIT_NONE}},
                     1, idx);
}

/* A group summary line: its direction of the current group (NULL: out of memory). */
static fsc_group_dir *group_dir_open(nstate *st, int dir, size_t idx)
{
    if (st->group < 0) {
        fsc_group *g = fsc_run_add_group(st->run);
        if (!g) {
            st->oom = true;
            return NULL;
        }
        st->group = (long)st->run->n_groups - 1;
        warn(st, idx, "group summary line without its \"Run status group\" header");
    }
    fsc_group_dir *gd = &st->run->groups[st->group].dir[dir];
    gd->present = true;
    return gd;
}

static void act_group_dir(nstate *st, const fsc_rule *r, const char *line, size_t idx)
{
    int dir = captured_dir(st, r, line);
    fsc_group_dir *gd = dir >= 0 ? group_dir_open(st, dir, idx) : NULL;
    if (gd)
        apply_fields(st, r, line, gd, fsc_group_dir_fields, fsc_n_group_dir_fields, idx);
}

/* Disk lines: a device with aggr* values is an md/dm device; the lines after it are
 * its members while their average still differs from the aggregate (fio prints the
 * members' mean there). Stacked devices (dm over md over disks) nest, so masters
 * are kept on a stack. This works whether or not the indentation survived. */
static fsc_disk *disk_open(nstate *st)
{
    fsc_disk *d = fsc_run_add_disk(st->run);
    if (!d) {
        st->oom = true;
        return NULL;
    }
    st->phase = 3;
    st->job = -1;
    return d;
}

static void disk_members(nstate *st);

static void act_disk(nstate *st, const fsc_rule *r, const char *line, size_t idx)
{
    fsc_disk *d = disk_open(st);
    if (!d)
        return;
    d->name = cap_dup(st, r, line, "name");
    apply_kv(st, r, line, d, fsc_disk_fields, fsc_n_disk_fields, idx);
    disk_members(st);
}

/* The last disk is a member of the md/dm device whose members are being listed, or
 * an md/dm device itself (see above). */
static void disk_members(nstate *st)
{
    fsc_disk *d = &st->run->disk_util[st->run->n_disk_util - 1];
    size_t me = st->run->n_disk_util - 1;
    if (st->n_masters) {
        disk_master *top = &st->masters[st->n_masters - 1];
        fsc_disk *m = &st->run->disk_util[top->index];
        top->sum_r += d->read_ios.set ? d->read_ios.v : 0;
        top->sum_w += d->write_ios.set ? d->write_ios.v : 0;
        top->n++;
        if (!fsc_disk_add_member(m, d->name ? d->name : "") || !(d->parent = fsc_strdup(m->name)))
            st->oom = true;
        double ar = m->aggr_read_ios.set ? m->aggr_read_ios.v : 0;
        double aw = m->aggr_write_ios.set ? m->aggr_write_ios.v : 0;
        /* fio prints the members' integer mean; compare in doubles (values may be anything) */
        if (floor(top->sum_r / (double)top->n) == floor(ar) && floor(top->sum_w / (double)top->n) == floor(aw))
            st->n_masters--; /* its members are complete */
    }
    d = &st->run->disk_util[me];
    if ((d->aggr_read_ios.set || d->aggr_write_ios.set) && st->n_masters < FSC_ARRAY_SIZE(st->masters)) {
        disk_master *m = &st->masters[st->n_masters++];
        m->index = me;
        m->sum_r = m->sum_w = 0;
        m->n = 0;
    }
}

static void act_fio_message(nstate *st, const fsc_rule *r, const char *line, size_t idx)
{
    const char *s;
    size_t n;
    if (fsc_rule_capture(r, st->md, line, "message", &s, &n))
        warn(st, idx, "fio: %.*s", (int)(n), s);
}

/* Does this line begin a new run, given what the current run holds? */
static bool starts_new_run(nstate *st, const fsc_rule *r, const char *line)
{
    const char *no;
    size_t non;
    /* "1 - READ: ...", "2 - READ: ...": summaries of numbered runs, one per line */
    if (r->action == FSC_ACT_GROUP_DIR && fsc_rule_capture(r, st->md, line, "runno", &no, &non)) {
        bool differs = non != strlen(st->runno) || memcmp(no, st->runno, non) != 0;
        snprintf(st->runno, sizeof st->runno, "%.*s", (int)(non < 15 ? non : 15), no);
        if (differs && st->run && st->has_results)
            return true;
    }
    if (!st->run || !st->has_results)
        return false;
    switch (r->action) {
    case FSC_ACT_BANNER:
    case FSC_ACT_JOBDEF:
    case FSC_ACT_STARTING: return true;
    case FSC_ACT_JOB: return st->phase >= 2;
    case FSC_ACT_DIR: return st->phase >= 2;
    case FSC_ACT_GROUP: return st->phase >= 3;
    case FSC_ACT_DISK_HEADER: return st->phase >= 3;
    default: return false;
    }
}

static void apply_fast(nstate *st, const fsc_fastline *fl, size_t idx);

/* Apply a matched line; fl: the line was read by the fast path (no pattern ran). */
static void apply(nstate *st, const fsc_rule *r, const char *line, size_t idx, const fsc_fastline *fl)
{
    fsc_run *run = st->run;
    if (r->era == FSC_ERA_HINT_LEGACY)
        set_era(st, FSC_ERA_LEGACY);
    else if (r->era == FSC_ERA_HINT_MODERN)
        set_era(st, FSC_ERA_MODERN);
    if (fl)
        apply_fast(st, fl, idx);
    else switch (r->action) {
    case FSC_ACT_NOISE: run->lines.noise++; return;
    case FSC_ACT_BANNER: act_banner(st, r, line); break;
    case FSC_ACT_STARTING: {
        const char *s;
        size_t n;
        double v;
        if (fsc_rule_capture(r, st->md, line, "count", &s, &n) && fsc_parse_plain(s, n, &v) == FSC_OK) {
            st->starting = v < 1e15 ? (uint64_t)v : 0; /* absurd counts are not a job count */
            st->starting_line = st->t->lines[idx].orig;
        }
        break;
    }
    case FSC_ACT_JOBDEF: act_jobdef(st, r, line); break;
    case FSC_ACT_JOB: act_job(st, r, line, idx); break;
    case FSC_ACT_DESCRIPTION: {
        fsc_job *j = need_job(st, idx);
        if (j) {
            free(j->description);
            j->description = cap_dup(st, r, line, "description");
        }
        break;
    }
    case FSC_ACT_DIR: act_dir(st, r, line, idx); break;
    case FSC_ACT_LAT: act_lat(st, r, line, idx); break;
    case FSC_ACT_PCTL_TITLE: act_pctl_title(st, r, line, idx); break;
    case FSC_ACT_PCTL_IGNORE: st->pctl_kind = -1; break;
    case FSC_ACT_PCTL_ROW: act_pctl_row(st, r, line, idx); break;
    case FSC_ACT_BW_STATS:
    case FSC_ACT_IOPS_STATS: {
        fsc_dir *d = cur_dir(st, idx);
        st->pctl_kind = -1;
        if (d)
            apply_kv(st, r, line, d, fsc_dir_fields, fsc_n_dir_fields, idx);
        break;
    }
    case FSC_ACT_BUCKETS: act_buckets(st, r, line, idx); break;
    case FSC_ACT_SYNC_SECTION:
        if (need_job(st, idx)) {
            st->dir = FSC_DIR_SYNC;
            cur_job(st)->dir[FSC_DIR_SYNC].present = true;
        }
        break;
    case FSC_ACT_CPU:
    case FSC_ACT_JOB_KV: {
        fsc_job *j = need_job(st, idx);
        st->pctl_kind = -1;
        if (j)
            apply_kv(st, r, line, j, fsc_job_fields, fsc_n_job_fields, idx);
        break;
    }
    case FSC_ACT_DEPTHS: act_depths(st, r, line, idx); break;
    case FSC_ACT_ISSUED: act_issued(st, r, line, idx); break;
    case FSC_ACT_GROUP: act_group(st, r, line, idx, false); break;
    case FSC_ACT_GROUP_CLIENTS: act_group(st, r, line, idx, true); break;
    case FSC_ACT_GROUP_DIR: act_group_dir(st, r, line, idx); break;
    case FSC_ACT_DISK_HEADER:
        st->phase = 3;
        st->job = -1;
        st->n_masters = 0;
        break;
    case FSC_ACT_DISK: act_disk(st, r, line, idx); break;
    case FSC_ACT_FIO_MESSAGE: act_fio_message(st, r, line, idx); break;
    default: break;
    }
    run->lines.recognized++;
    if (r->action == FSC_ACT_JOB || r->action == FSC_ACT_DIR || r->action == FSC_ACT_GROUP_DIR ||
        r->action == FSC_ACT_DISK)
        st->has_results = true;
    fsc_job *j = cur_job(st);
    if (j)
        j->last_line = st->t->lines[idx].orig;
}

static bool blank(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!isspace((unsigned char)s[i]))
            return false;
    return true;
}

/* blank() for the main loop: most lines start with a few spaces and a letter. */
static inline bool blank_fast(const char *s, size_t n)
{
    const char *p = fsc_skip_spaces(s, s + n);
    return p == s + n || (isspace((unsigned char)*p) && blank(p, (size_t)(s + n - p)));
}

/* Unknown lines between recognized ones belong to the run: count them, and warn
 * about the ones that look like fio output. */
static void flush_unknown(nstate *st)
{
    for (size_t i = 0; i < st->n_pending_unknown; i++) {
        size_t idx = st->pending_unknown[i];
        const char *s = fsc_text_line(st->t, idx);
        size_t n = st->t->lines[idx].len;
        note_unknown(st, idx);
        if (memchr(s, '=', n) && st->line_warnings < MAX_LINE_WARNINGS) {
            st->line_warnings++;
            const char *p = s;
            size_t pn = n;
            trim(&p, &pn);
            warn(st, idx, "unrecognized line: %.*s", (int)(pn), p);
        }
    }
    st->n_pending_unknown = 0;
}

/* How often c occurs in s[0, n) (memchr skips the stretches without it). */
static int count_char(const char *s, size_t n, char c)
{
    int k = 0;
    for (const char *p = s, *end = s + n; (p = memchr(p, c, (size_t)(end - p))) != NULL; p++)
        k++;
    return k;
}

/* Does b begin with a "key=" ("stdev=6624.06, samples=56", ">=64=0.0%")? */
static bool starts_key(const char *b, size_t bn)
{
    while (bn && isspace((unsigned char)*b)) {
        b++;
        bn--;
    }
    size_t k = 0;
    while (k < bn && (isalnum((unsigned char)b[k]) || b[k] == '_' || b[k] == '>'))
        k++;
    return k > 0 && k < bn && b[k] == '=';
}

/* Does line b look like the rest of a line that a mail client or terminal wrapped?
 * ("stdev=6624.06, samples=56", "error, error=Bad address): pid=1", ">=64=0.0%") */
static bool continues(const char *a, size_t an, const char *b, size_t bn)
{
    while (an && isspace((unsigned char)a[an - 1]))
        an--;
    while (bn && isspace((unsigned char)*b)) {
        b++;
        bn--;
    }
    if (!an || !bn)
        return false;
    int open = count_char(a, an, '(') - count_char(a, an, ')'); /* the paren balance */
    if (a[an - 1] == ',' || open > 0)
        return true;
    return starts_key(b, bn);
}

/* Join wrapped continuation lines to line i while the joined text still matches a
 * rule; returns the rule for the (possibly joined) line and sets *s and *n to its text.
 * md_is_r: md holds the match of r on *s, as fsc_grammar_match left it (then, when
 * nothing else was matched here, matching again is skipped: it would give the same). */
static const fsc_rule *join_wrapped(const fsc_grammar_set *g, const fsc_text *t, size_t i, size_t last,
                                    const fsc_rule *r, const char **s, size_t *n, fsc_buf *joined,
                                    pcre2_match_data *md, size_t *joined_to, bool md_is_r)
{
    size_t j = i + 1;
    const char *cur = *s;
    size_t cn = *n;
    bool have_join = false;
    for (int step = 0; step < 3 && j <= last && j < t->n_lines; step++, j++) {
        const char *ns = fsc_text_line(t, j);
        size_t nn = t->lines[j].len;
        if ((t->lines[j].flags & FSC_LINE_CONSUMED) || blank(ns, nn) || !continues(cur, cn, ns, nn))
            break;
        md_is_r = false;
        if (fsc_grammar_match(g, ns, nn, md))
            break; /* a line of its own */
        fsc_buf tmp = {0};
        fsc_buf_add(&tmp, cur, cn);
        fsc_buf_putc(&tmp, ' ');
        while (nn && isspace((unsigned char)*ns)) {
            ns++;
            nn--;
        }
        fsc_buf_add(&tmp, ns, nn);
        const fsc_rule *jr = tmp.oom ? NULL : fsc_grammar_match(g, tmp.data, tmp.len, md);
        if (!jr || (r && jr != r) || jr->action == FSC_ACT_NOISE) {
            fsc_buf_free(&tmp);
            break;
        }
        r = jr;
        fsc_buf_free(joined);
        *joined = tmp;
        cur = joined->data;
        cn = joined->len;
        have_join = true;
        *joined_to = j;
    }
    /* leave md holding the match of the text we return */
    if (have_join) {
        *s = joined->data;
        *n = joined->len;
    }
    if (md_is_r)
        return r;
    return r ? fsc_grammar_match(g, *s, *n, md) : NULL;
}

/* ---- the fast path (fastline.c): lines read without a pattern ---- */

static void fast_kv(const fsc_fastline *fl, void *base, uint64_t unit_ns, uint64_t bw_num, uint64_t bw_den)
{
    for (size_t i = 0; i < fl->n; i++) {
        const fsc_kvfield *kv = fl->kvdef[fl->key[i]];
        fsc_fdec d = fl->kv[i];
        fsc_num v;
        switch (kv->kind) {
        case FSC_K_DURATION: v = fsc_fdec_num(d, fsc_fdec_mul(d) * unit_ns, 1); break;
        case FSC_K_BWSTAT: v = fsc_fdec_num(d, bw_num, bw_den); break;
        default: v = fsc_fdec_num(d, 1, 1); break; /* int, plain, pct */
        }
        *fsc_field_ptr(base, fl->kvfield[fl->key[i]]) = v;
    }
}

/* apply_list for a lexed list: keys are ">=64", "250" (no spaces, short). */
static void fast_list(nstate *st, const fsc_fastline *fl, const char *line, fsc_kvlist *l)
{
    for (size_t i = 0; i < fl->n; i++) {
        char key[16];
        memcpy(key, line + fl->item_key[i].off, fl->item_key[i].len);
        key[fl->item_key[i].len] = '\0';
        if (!fsc_kvlist_set(l, key, fsc_fdec_num(fl->val[i], 1, 1).v))
            st->oom = true;
    }
}

/* issued_values for the lexed groups (total, short, dropped). */
static void fast_issued(nstate *st, const fsc_fastline *fl)
{
    static const size_t offs[3] = {offsetof(fsc_dir, total_ios), offsetof(fsc_dir, short_ios),
                                   offsetof(fsc_dir, drop_ios)};
    fsc_job *j = cur_job(st);
    for (int g = 0; g < 3; g++) {
        int order[] = {FSC_DIR_READ, FSC_DIR_WRITE, FSC_DIR_TRIM, FSC_DIR_SYNC};
        if (j->dir[FSC_DIR_MIXED].present && !j->dir[FSC_DIR_READ].present)
            order[0] = FSC_DIR_MIXED;
        for (size_t k = 0; k < fl->n_issued[g]; k++) {
            fsc_dir *d = &j->dir[order[k]];
            if (order[k] != FSC_DIR_SYNC || offs[g] == offsetof(fsc_dir, total_ios)) {
                *(fsc_num *)((char *)d + offs[g]) = fsc_fdec_num(fl->issued[g][k], 1, 1);
                if (order[k] != FSC_DIR_SYNC)
                    d->present = true;
            }
        }
    }
}

static char *span_dup(nstate *st, const char *line, fsc_fspan sp)
{
    char *d = fsc_strndup(line + sp.off, sp.len);
    if (!d)
        st->oom = true;
    return d;
}

/* apply_fields for the captures of a lexed span rule. */
static void fast_fields(nstate *st, const fsc_fastline *fl, const char *line, void *base, size_t idx)
{
    for (size_t i = 0; i < fl->n_caps; i++) {
        const fsc_fastcap *c = &fl->caps[i];
        fsc_fspan sp = fl->cap[c->slot];
        if (!sp.len)
            continue; /* that group did not take part */
        fsc_num v;
        if (convert(st, c->kind, line + sp.off, sp.len, NULL, 0, &v) != FSC_OK) {
            st->run->lines.malformed++;
            warn(st, idx, "cannot read the value '%.*s'", (int)sp.len, line + sp.off);
            continue;
        }
        *fsc_field_ptr(base, c->field) = v;
    }
}

/* The direction of "read" / "write" / "trim" / "mixed" (and their summaries). */
static const int fast_dirs[4] = {FSC_DIR_READ, FSC_DIR_WRITE, FSC_DIR_TRIM, FSC_DIR_MIXED};

/* The act_* functions of apply() for a lexed line, step for step. */
static void apply_fast(nstate *st, const fsc_fastline *fl, size_t idx)
{
    const char *line = fsc_text_line(st->t, idx);
    switch (fl->rule->action) {
    case FSC_ACT_BANNER:
        banner_version(st, line + fl->cap[0].off, fl->cap[0].len, false);
        break;
    case FSC_ACT_STARTING: {
        double v = fsc_fdec_num(fl->num[0], 1, 1).v;
        st->starting = v < 1e15 ? (uint64_t)v : 0;
        st->starting_line = st->t->lines[idx].orig;
        break;
    }
    case FSC_ACT_JOBDEF: {
        jobdef *d = jobdef_new(st, span_dup(st, line, fl->cap[0]));
        if (d) {
            d->rw = span_dup(st, line, fl->cap[1]);
            d->bs = span_dup(st, line, fl->cap[2]);
            d->ioengine = span_dup(st, line, fl->cap[3]);
            d->iodepth = span_dup(st, line, fl->cap[4]);
        }
        break;
    }
    case FSC_ACT_JOB: {
        fsc_job *j = job_open(st, idx);
        if (!j)
            break;
        j->jobname = span_dup(st, line, fl->cap[0]);
        if (st->run->source.host)
            j->hostname = fsc_strdup(st->run->source.host);
        j->groupid = fsc_fdec_num(fl->num[0], 1, 1);
        j->jobs = fsc_fdec_num(fl->num[1], 1, 1);
        j->error = fsc_fdec_num(fl->num[2], 1, 1);
        j->pid = fsc_fdec_num(fl->num[3], 1, 1);
        job_close(st, j);
        break;
    }
    case FSC_ACT_DIR: {
        fsc_dir *dp = dir_open(st, fast_dirs[fl->which], idx);
        if (dp) {
            fast_fields(st, fl, line, dp, idx);
            dir_close(dp);
        }
        break;
    }
    case FSC_ACT_PCTL_TITLE:
        if (fl->sync)
            st->dir = FSC_DIR_SYNC;
        if (!cur_dir(st, idx))
            break;
        st->pctl_dir = st->dir;
        st->pctl_kind = fl->which;
        st->pctl_unit_ns = fl->unit_ns;
        break;
    case FSC_ACT_GROUP: {
        fsc_group *g = group_open(st);
        if (g)
            g->groupid = fsc_fdec_num(fl->num[0], 1, 1);
        break;
    }
    case FSC_ACT_GROUP_DIR: {
        fsc_group_dir *gd = group_dir_open(st, fast_dirs[fl->which], idx);
        if (gd)
            fast_fields(st, fl, line, gd, idx);
        break;
    }
    case FSC_ACT_DISK: {
        fsc_disk *d = disk_open(st);
        if (!d)
            break;
        d->name = span_dup(st, line, fl->cap[0]);
        for (size_t i = 0; i < fl->n; i++) {
            *fsc_field_ptr(d, fl->dkv[i]->field) = fsc_fdec_num(fl->da[i], 1, 1);
            if (fl->dkv[i]->field2)
                *fsc_field_ptr(d, fl->dkv[i]->field2) = fsc_fdec_num(fl->db[i], 1, 1);
        }
        disk_members(st);
        break;
    }
    case FSC_ACT_PCTL_ROW: {
        fsc_job *j = st->pctl_kind >= 0 ? cur_job(st) : NULL;
        if (!j)
            break;
        fsc_lat *lat = &j->dir[st->pctl_dir].lat[st->pctl_kind];
        for (size_t i = 0; i < fl->n; i++)
            if (!fsc_lat_add_pctl(lat, fsc_fdec_num(fl->pct[i], 1, 1).v,
                                  fsc_fdec_num(fl->val[i], st->pctl_unit_ns, 1).v))
                st->oom = true;
        break;
    }
    case FSC_ACT_LAT: {
        if (fl->sync)
            st->dir = FSC_DIR_SYNC;
        fsc_dir *d = cur_dir(st, idx);
        if (d)
            fast_kv(fl, &d->lat[fl->which], fl->unit_ns, 1, 1);
        break;
    }
    case FSC_ACT_BW_STATS:
    case FSC_ACT_IOPS_STATS: {
        fsc_dir *d = cur_dir(st, idx);
        st->pctl_kind = -1;
        uint64_t num = 1, den = 1;
        if (fl->rule->action == FSC_ACT_BW_STATS)
            bwstat_factor(line + fl->unit.off, fl->unit.len, &num, &den);
        if (d)
            fast_kv(fl, d, 1, num, den);
        break;
    }
    case FSC_ACT_BUCKETS:
    case FSC_ACT_DEPTHS: {
        fsc_job *j = need_job(st, idx);
        if (!j)
            break;
        st->pctl_kind = -1;
        fsc_kvlist *l;
        if (fl->rule->action == FSC_ACT_BUCKETS)
            l = &j->latency[fl->unit_ns == 1 ? FSC_BUCKET_NS : fl->unit_ns == 1000 ? FSC_BUCKET_US : FSC_BUCKET_MS];
        else
            l = fl->which == 0 ? &j->iodepth_level : fl->which == 1 ? &j->iodepth_submit : &j->iodepth_complete;
        fast_list(st, fl, line, l);
        break;
    }
    case FSC_ACT_CPU:
    case FSC_ACT_JOB_KV: {
        fsc_job *j = need_job(st, idx);
        st->pctl_kind = -1;
        if (j)
            fast_kv(fl, j, 1, 1, 1);
        break;
    }
    case FSC_ACT_ISSUED:
        if (need_job(st, idx))
            fast_issued(st, fl);
        break;
    default:
        break;
    }
}

/* A control byte in the line? The lexers know ' ' as the only space; the patterns'
 * \s also takes tabs, vertical tabs and the rest (normalize.c keeps some of them). */
static bool has_control(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if ((unsigned char)s[i] < 0x20)
            return true;
    return false;
}

/* Lex line i with the fast path, reusing the look-ahead of the line before. */
static const fsc_rule *fast_lex(nstate *st, size_t i, const char *s, size_t n, fsc_fastline **out)
{
    if (st->la_idx == i + 1) { /* lexed ahead (la_idx holds index + 1) */
        fsc_fastline *t = st->fl;
        st->fl = st->la;
        st->la = t;
        st->la_idx = 0;
        *out = st->fl;
        return st->fl->rule;
    }
    *out = st->fl;
    return fsc_fast_line(st->fp, s, n, st->fl);
}

/* Can the line after i be joined to it (join_wrapped)? Only when it is not a line of
 * its own (no rule matches it; a lexed line surely is one) and looks like the rest
 * of this one. The next line's lexing is kept for the next round. */
static bool may_join(nstate *st, size_t i, size_t last, const char *s, size_t n)
{
    const fsc_text *t = st->t;
    size_t j = i + 1;
    if (j > last || j >= t->n_lines || (t->lines[j].flags & FSC_LINE_CONSUMED))
        return false;
    const char *ns = fsc_text_line(t, j);
    size_t nn = t->lines[j].len;
    const fsc_rule *nr = !t->plain && has_control(ns, nn) ? NULL : fsc_fast_line(st->fp, ns, nn, st->la);
    st->la->rule = nr;
    st->la_idx = j + 1;
    if (nr && !st->la->direct)
        return false;
    if (blank(ns, nn))
        return false;
    /* continues(): a lexed line balances its parentheses (a job definition's free
     * text may not), so only a trailing comma or a "key=" start of the next line
     * can make it one */
    return st->fl->rule->action == FSC_ACT_JOBDEF ? continues(s, n, ns, nn)
                                                  : st->fl->ends_comma || starts_key(ns, nn);
}

/* The fast path's verdict on line i: the rule it matches, with *fast set when its
 * values were read by the lexer (the caller applies them with apply_fast), or with
 * st->md holding the captures of the one rule that can match it (direct). NULL: the
 * grammar decides, joins and repairs as usual. */
static const fsc_rule *fast_match(nstate *st, size_t i, size_t last, const char *s, size_t n, bool *fast)
{
    fsc_fastline *fl;
    if (!st->t->plain && has_control(s, n))
        return NULL;
    const fsc_rule *r = fast_lex(st, i, s, n, &fl);
    if (!r)
        return NULL;
    if (fl->direct)
        return fsc_rule_match(r, s, n, st->md) ? r : NULL;
    /* a lexed line that a wrap could continue: the grammar path joins (it never
     * joins noise) */
    if (r->action != FSC_ACT_NOISE && may_join(st, i, last, s, n))
        return NULL;
    *fast = true;
    return r;
}

fsc_status fsc_normal_parse(const fsc_grammar_set *g, const fsc_text *t, size_t first, size_t last,
                            fsc_emit_fn emit, void *ctx)
{
    return fsc_normal_parse_fast(g, NULL, t, first, last, emit, ctx);
}

fsc_status fsc_normal_parse_fast(const fsc_grammar_set *g, const fsc_fastpath *fp, const fsc_text *t,
                                 size_t first, size_t last, fsc_emit_fn emit, void *ctx)
{
    nstate st;
    memset(&st, 0, sizeof st);
    st.fp = fp;
    st.fl = &st.fl_buf[0];
    st.la = &st.fl_buf[1];
    st.g = g;
    st.t = t;
    st.emit = emit;
    st.ctx = ctx;
    st.md = fsc_grammar_match_data(g);
    if (!st.md)
        return FSC_E_NOMEM;
    reset_run_state(&st);
    fsc_buf fixed = {0}, joined = {0};
    for (size_t i = first; i <= last && i < t->n_lines && !st.stopped && !st.oom; i++) {
        const char *s = fsc_text_line(t, i);
        size_t n = t->lines[i].len;
        if ((t->lines[i].flags & FSC_LINE_CONSUMED) || blank_fast(s, n))
            continue;
        bool fast = false;
        const fsc_rule *r = st.fp ? fast_match(&st, i, last, s, n, &fast) : NULL;
        if (!r)
            r = fsc_grammar_match(g, s, n, st.md);
        bool repaired = false;
        if (!r && (st.run || memchr(s, '=', n)) && (memchr(s, '=', n) || memchr(s, ':', n))) {
            r = fsc_grammar_match_fuzzy(g, s, n, st.md, &fixed);
            if (r) {
                repaired = true;
                s = fixed.data;
                n = fixed.len;
            }
        }
        size_t joined_to = i;
        if (fast)
            ; /* fast_match saw that the next line does not continue this one */
        else if ((r && r->action != FSC_ACT_NOISE && r->action != FSC_ACT_COMMAND) || (!r && st.run))
            r = join_wrapped(g, t, i, last, r, &s, &n, &joined, st.md, &joined_to, !repaired);
        if (r && r->action == FSC_ACT_COMMAND) {
            /* a new fio command: whatever ran before it is complete */
            if (st.run && st.has_results)
                close_run(&st);
            continue;
        }
        if (!r) {
            if (st.run) {
                st.unknown_since_last++;
                if (st.n_pending_unknown < MAX_LINE_WARNINGS)
                    st.pending_unknown[st.n_pending_unknown++] = i;
                if (st.unknown_since_last >= PROSE_GAP && st.has_results) {
                    st.n_pending_unknown = 0;
                    close_run(&st);
                }
            }
            continue;
        }
        if (st.run && st.unknown_since_last >= PROSE_GAP)
            st.n_pending_unknown = 0; /* prose between a preamble and this line */
        if (starts_new_run(&st, r, s))
            close_run(&st);
        if (!st.run && r->action == FSC_ACT_NOISE)
            continue; /* noise alone does not start a run */
        if (!st.run && r->action == FSC_ACT_FIO_MESSAGE)
            continue;
        if (!ensure_run(&st, i))
            break;
        if (st.unknown_since_last >= PROSE_GAP && !st.has_results) {
            /* a long gap after a mere preamble: keep the preamble's facts, restart the span */
            st.first = i;
        }
        flush_unknown(&st);
        st.unknown_since_last = 0;
        if (repaired) {
            st.run->lines.repaired++;
            warn(&st, i, "damaged line read as '%.*s'", (int)(n > 60 ? 60 : n), s);
        }
        apply(&st, r, s, i, fast && !st.fl->plain ? st.fl : NULL);
        if (joined_to > i) {
            st.run->lines.repaired++;
            st.run->lines.recognized += (uint32_t)(joined_to - i);
            i = joined_to; /* the continuation lines were read with this one */
        }
        st.last = i;
        /* pasted client/server output and others may interleave; nothing else to do */
    }
    if (!st.stopped && !st.oom)
        close_run(&st);
    else if (st.run) {
        fsc_run_free(st.run);
        st.run = NULL;
    }
    defs_clear(&st);
    free(st.defs);
    fsc_buf_free(&fixed);
    fsc_buf_free(&joined);
    pcre2_match_data_free(st.md);
    return st.oom ? FSC_E_NOMEM : FSC_OK;
}
