/* SPDX-License-Identifier: MIT */
/*
 * Building an analysis: one row per direction of every job, its workload fields,
 * label, file and headings; then systems (system.c), repeats and the selection.
 */
#include "analyze_int.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <strings.h>

static const char label_sep[] = " \xe2\x80\xba "; /* " › " */

/* ---- options ---- */

fsc_status fsc_workload_key_parse(const char *spec, int *dims, size_t *n, fsc_buf *err)
{
    static const char *const fields[] = {"rw", "bs", "iodepth", "numjobs", "ioengine", "direct",
                                         "jobname", "fio_version", "host", "heading", "file"};
    *n = 0;
    const char *p = spec ? spec : "rw,bs,iodepth,numjobs";
    while (*p) {
        size_t l = strcspn(p, ",");
        const char *s = p;
        while (l && isspace((unsigned char)*s)) {
            s++;
            l--;
        }
        while (l && isspace((unsigned char)s[l - 1]))
            l--;
        int d = l ? fsc_dim_lookup(s, l) : -1;
        bool allowed = false;
        for (size_t i = 0; d >= 0 && i < FSC_ARRAY_SIZE(fields); i++)
            allowed |= !strcmp(fields[i], fsc_dim_get((fsc_dim)d)->name);
        if (l && !allowed) {
            char word[64];
            snprintf(word, sizeof word, "%.*s", (int)(l < 63 ? l : 63), s);
            const char *near = fsc_nearest(word, fields, FSC_ARRAY_SIZE(fields), 0);
            fsc_buf_printf(err, "unknown field '%s' in --workload-key", word);
            if (near)
                fsc_buf_printf(err, " (did you mean '%s'?)", near);
            else
                fsc_buf_puts(err, " (fields: rw, bs, iodepth, numjobs, ioengine, direct, jobname, "
                                  "fio_version, host, heading, file)");
            return FSC_E_USAGE;
        }
        bool dup = false;
        for (size_t i = 0; l && i < *n; i++)
            dup |= dims[i] == d;
        if (l && !dup && *n < FSC_DIM_COUNT)
            dims[(*n)++] = d;
        p += strcspn(p, ",");
        if (*p == ',')
            p++;
    }
    if (!*n) {
        fsc_buf_puts(err, "--workload-key needs at least one field");
        return FSC_E_USAGE;
    }
    return FSC_OK;
}

fsc_status fsc_analysis_check(const fsc_analysis_opts *o, fsc_buf *err)
{
    fsc_analysis_opts none = {0};
    o = o ? o : &none;
    int dims[FSC_DIM_COUNT];
    size_t n;
    fsc_status st = fsc_workload_key_parse(o->workload_key, dims, &n, err);
    sys_rule rule = {0};
    if (st == FSC_OK)
        st = fsc_sys_rule_parse(o->system_from, &rule, err);
    fsc_sys_rule_free(&rule);
    for (size_t i = 0; st == FSC_OK && i < o->n_where; i++) {
        fsc_where *w = NULL;
        st = fsc_where_parse(o->where[i], &w, err);
        fsc_where_free(w);
    }
    return st;
}

/* ---- small text helpers ---- */

void fsc_norm_name(const char *s, fsc_buf *out)
{
    bool space = false;
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == ' ' || c == '-' || c == '_' || c == '\t') {
            space = out->len > 0;
            continue;
        }
        if (space)
            fsc_buf_putc(out, ' ');
        space = false;
        fsc_buf_putc(out, (char)tolower(c));
    }
    if (!out->data)
        fsc_buf_puts(out, "");
}

bool fsc_analysis_add_note(fsc_analysis *a, const char *fmt, ...)
{
    fsc_buf b = {0};
    va_list ap;
    va_start(ap, fmt);
    char tmp[512];
    vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    fsc_buf_puts(&b, tmp);
    char **slot = b.oom ? NULL : FSC_PUSH(a->notes, a->n_notes, a->cap_notes);
    if (!slot) {
        fsc_buf_free(&b);
        return false;
    }
    *slot = b.data;
    return true;
}

/* A heading without its outline number ("2.2 4k 随机写" → "4k 随机写"). */
static const char *heading_text(const char *s, size_t *len)
{
    while (*s == ' ' || *s == '\t')
        s++;
    size_t n = strlen(s);
    size_t num = fsc_heading_number_len(s, n);
    if (num < n) {
        s += num;
        n -= num;
    }
    while (n && isspace((unsigned char)s[n - 1]))
        n--;
    *len = n;
    return s;
}

/* The headings of a run: context without the command line and (when there are other
 * headings) the document title. */
static size_t run_headings(const fsc_run *run, size_t *first)
{
    size_t n = run->n_context - (run->command && run->n_context ? 1 : 0);
    *first = run->context_titled && n > 1 ? 1 : 0;
    return n - *first;
}

/* ---- workload fields ---- */

/* Does the run list a job's options the way fio's JSON does (only what was set, so an
 * absent option has fio's default)? */
static bool lists_options(const fsc_run *run, const fsc_job *job)
{
    return run->source.format == FSC_FMT_JSON && (job->n_options || run->n_global_options);
}

static const char *option(const fsc_run *run, const fsc_job *job, const char *key, const char *alt)
{
    const char *v = fsc_job_option(job, key);
    if (!v && alt)
        v = fsc_job_option(job, alt);
    if (!v)
        v = fsc_run_global_option(run, key);
    if (!v && alt)
        v = fsc_run_global_option(run, alt);
    return v;
}

/* Jobs of the run with the same name and group: the clones of numjobs=N printed one
 * block each (no group_reporting). Counted for the whole run at its first job, with
 * the names interned (a pointer each) and a key map. */
static size_t clone_count(fsc_analysis *a, const fsc_run *run, const fsc_job *job)
{
    if (a->clones_run != run) {
        free(a->clones);
        a->clones_run = NULL;
        size_t *group = malloc((run->n_jobs ? run->n_jobs : 1) * sizeof *group);
        size_t *count = calloc(run->n_jobs ? run->n_jobs : 1, sizeof *count);
        a->clones = malloc((run->n_jobs ? run->n_jobs : 1) * sizeof *a->clones);
        fsc_keymap m = {0};
        bool ok = group && count && a->clones;
        for (size_t i = 0; ok && i < run->n_jobs; i++) {
            const fsc_job *o = &run->jobs[i];
            const char *name = o->jobname ? fsc_pool_str(&a->pool, o->jobname) : NULL;
            uint64_t gid;
            memcpy(&gid, &o->groupid.v, sizeof gid);
            fsc_key k = {{(uintptr_t)name, (uintptr_t)gid, (uintptr_t)(o->jobname != NULL), 0}};
            ok = (!o->jobname || name) && (group[i] = fsc_keymap_put(&m, &k, i)) != SIZE_MAX;
            if (ok)
                count[group[i]]++;
        }
        for (size_t i = 0; ok && i < run->n_jobs; i++)
            a->clones[i] = count[group[i]];
        fsc_keymap_free(&m);
        free(group);
        free(count);
        if (!ok) { /* out of memory: one job each */
            free(a->clones);
            a->clones = NULL;
        }
        a->clones_run = run;
    }
    bool in_run = job >= run->jobs && job < run->jobs + run->n_jobs;
    size_t n = a->clones && in_run ? a->clones[job - run->jobs] : 1;
    return n ? n : 1;
}

static bool truthy(const char *v)
{
    return !strcmp(v, "1") || !strcasecmp(v, "true") || !strcasecmp(v, "yes") || !strcasecmp(v, "on");
}

/* The workload fields of a job into dims (interned). */
static bool job_workload(fsc_analysis *a, const fsc_run *run, const fsc_job *job, const char **dim)
{
    char tmp[64];
    bool defaults = lists_options(run, job);
    const char *rw = option(run, job, "rw", "readwrite");
    char rwbuf[64];
    if (rw) {
        snprintf(rwbuf, sizeof rwbuf, "%.*s", (int)strcspn(rw, ":"), rw); /* "randread:8" */
        if (!strcmp(rwbuf, "readwrite"))
            snprintf(rwbuf, sizeof rwbuf, "rw");
        rw = rwbuf;
    } else if (defaults) {
        rw = "read";
    }
    const char *bs = fsc_job_bs_option(run, job);
    bs = bs ? fsc_bs_for_rw(bs, rw, tmp, sizeof tmp) : defaults ? "4k" : NULL;
    const char *depth = option(run, job, "iodepth", NULL);
    depth = depth ? depth : defaults ? "1" : NULL;
    const char *engine = option(run, job, "ioengine", NULL);
    const char *direct = option(run, job, "direct", NULL);
    direct = direct ? (truthy(direct) ? "1" : "0") : defaults ? "0" : NULL;
    char nj[32];
    const char *numjobs = option(run, job, "numjobs", NULL);
    if (!numjobs) {
        size_t n = job->jobs.set && job->jobs.v > 1 ? (size_t)job->jobs.v : clone_count(a, run, job);
        snprintf(nj, sizeof nj, "%zu", n);
        numjobs = nj;
    }
    dim[FSC_DIM_RW] = fsc_pool_str(&a->pool, rw);
    dim[FSC_DIM_BS] = fsc_pool_str(&a->pool, bs);
    dim[FSC_DIM_IODEPTH] = fsc_pool_str(&a->pool, depth);
    dim[FSC_DIM_NUMJOBS] = fsc_pool_str(&a->pool, numjobs);
    dim[FSC_DIM_IOENGINE] = fsc_pool_str(&a->pool, engine);
    dim[FSC_DIM_DIRECT] = fsc_pool_str(&a->pool, direct);
    for (int d = FSC_DIM_RW; d <= FSC_DIM_DIRECT; d++)
        if (!dim[d])
            return false;
    return true;
}

const char *fsc_workload_short(fsc_analysis *a, const char *const *dim, const int *keys, size_t n_keys)
{
    fsc_buf b = {0};
    for (size_t i = 0; i < n_keys; i++) {
        int d = keys[i];
        const char *v = dim[d];
        if (!v || !*v || d == FSC_DIM_DIR || d == FSC_DIM_SYSTEM)
            continue;
        if (b.len)
            fsc_buf_putc(&b, ' ');
        if (d == FSC_DIM_IODEPTH)
            fsc_buf_printf(&b, "qd%s", v);
        else if (d == FSC_DIM_NUMJOBS)
            fsc_buf_printf(&b, "x%s", v);
        else if (d == FSC_DIM_DIRECT)
            fsc_buf_puts(&b, !strcmp(v, "1") ? "direct" : "buffered");
        else
            fsc_buf_puts(&b, v);
    }
    if (!b.len)
        fsc_buf_printf(&b, "[%s]", dim[FSC_DIM_JOBNAME] ? dim[FSC_DIM_JOBNAME] : "");
    const char *r = b.oom ? NULL : fsc_pool_str(&a->pool, b.data);
    fsc_buf_free(&b);
    return r;
}

/* ---- inputs: which command-line input a run came from ---- */

/* Length of input p as a prefix of path at a component boundary, or 0. */
static size_t input_prefix(const char *p, const char *path)
{
    size_t n = strlen(p);
    while (n > 1 && p[n - 1] == '/')
        n--;
    if (strncmp(p, path, n))
        return 0;
    if (path[n] == '\0' || path[n] == '/' || (n && p[n - 1] == '/'))
        return n;
    return 0;
}

/* Strip the components all items share at the start and at the end (keeping at least
 * one), in place; items are '/'-separated paths. */
void fsc_path_distinguish(char **items, size_t n)
{
    if (n < 2) {
        for (size_t i = 0; i < n; i++) {
            char *s = items[i];
            size_t l = strlen(s);
            while (l > 1 && s[l - 1] == '/')
                s[--l] = '\0';
            char *slash = strrchr(s, '/');
            if (slash && slash[1])
                memmove(s, slash + 1, strlen(slash + 1) + 1);
        }
        return;
    }
    for (size_t i = 0; i < n; i++) {
        size_t l = strlen(items[i]);
        while (l > 1 && items[i][l - 1] == '/')
            items[i][--l] = '\0';
    }
    /* common leading components */
    for (;;) {
        const char *slash = strchr(items[0], '/');
        if (!slash)
            break;
        size_t cl = (size_t)(slash - items[0]) + 1;
        bool all = true;
        for (size_t i = 1; i < n && all; i++)
            all = !strncmp(items[i], items[0], cl) && strchr(items[i] + cl, '\0') != items[i] + cl;
        for (size_t i = 0; i < n && all; i++)
            all = items[i][cl] != '\0';
        if (!all)
            break;
        for (size_t i = 0; i < n; i++)
            memmove(items[i], items[i] + cl, strlen(items[i] + cl) + 1);
    }
    /* common trailing components */
    for (;;) {
        const char *last0 = strrchr(items[0], '/');
        if (!last0)
            break;
        size_t tl = strlen(last0);
        bool all = true;
        for (size_t i = 1; i < n && all; i++) {
            const char *li = strrchr(items[i], '/');
            all = li && !strcmp(li, last0);
        }
        if (!all)
            break;
        for (size_t i = 0; i < n; i++)
            items[i][strlen(items[i]) - tl] = '\0';
    }
}

/* A file name extension (".txt", ".json", ".log"): a dot, then 1-5 characters with a
 * letter among them, so "fio-3.33" keeps its ".33". */
static const char *extension(const char *s)
{
    const char *e = strrchr(s, '.');
    if (!e || e == s || strchr(e, '/') || strlen(e) < 2 || strlen(e) > 6)
        return NULL;
    for (const char *p = e + 1; *p; p++)
        if (isalpha((unsigned char)*p))
            return e;
    return NULL;
}

/* Drop an extension every item shares (".txt"), so "raid0.txt" names "raid0". */
static void drop_common_ext(char **items, size_t n)
{
    const char *e0 = n ? extension(items[0]) : NULL;
    if (!e0)
        return;
    for (size_t i = 1; i < n; i++) {
        const char *e = extension(items[i]);
        if (!e || strcmp(e, e0))
            return;
    }
    size_t el = strlen(e0);
    for (size_t i = 0; i < n; i++)
        items[i][strlen(items[i]) - el] = '\0';
}

/* Names of paths by their distinguishing parts (caller frees each). */
static char **path_names(const char *const *paths, size_t n)
{
    char **out = calloc(n ? n : 1, sizeof *out);
    if (!out)
        return NULL;
    for (size_t i = 0; i < n; i++)
        if (!(out[i] = fsc_strdup(paths[i] ? paths[i] : ""))) {
            for (size_t k = 0; k < i; k++)
                free(out[k]);
            free(out);
            return NULL;
        }
    fsc_path_distinguish(out, n);
    drop_common_ext(out, n);
    return out;
}

static void free_names(char **names, size_t n)
{
    for (size_t i = 0; names && i < n; i++)
        free(names[i]);
    free(names);
}

/* ---- rows ---- */

typedef struct build_ctx {
    fsc_analysis *a;
    const fsc_analysis_opts *o;
    const char *const *roots; /* per input: its path */
    const char **root_names;  /* per input: its distinguishing name (interned) */
    size_t n_roots;
    const char **side_roots;  /* per side: common directory of its runs */
    const char **side_names;
} build_ctx;

static fsc_arow *add_row(fsc_analysis *a, row_extra **ex)
{
    if (a->n_all == a->cap_all) {
        size_t cap = a->cap_all ? a->cap_all * 2 : 64;
        fsc_arow *all = realloc(a->all, cap * sizeof *all);
        if (!all)
            return NULL;
        a->all = all;
        row_extra *extra = realloc(a->extra, cap * sizeof *extra);
        if (!extra)
            return NULL;
        a->extra = extra;
        a->cap_all = cap;
    }
    fsc_arow *r = &a->all[a->n_all];
    *ex = &a->extra[a->n_all];
    a->n_all++;
    memset(r, 0, sizeof *r);
    memset(*ex, 0, sizeof **ex);
    return r;
}

/* The label of a job before any system prefix. FILE labels name the file by its
 * path inside the input directory, so two folders with the same file names differ. */
static char *base_label(build_ctx *b, const fsc_run *run, const fsc_job *job, const char *rel_dir)
{
    if (b->a->label_from != FSC_LABEL_FILE)
        return fsc_job_label(run, job, b->a->label_from);
    fsc_buf l = {0};
    const char *path = run->source.path ? run->source.path : "";
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    if (rel_dir && *rel_dir)
        fsc_buf_printf(&l, "%s/", rel_dir);
    fsc_buf_puts(&l, base);
    if (run->source.member)
        fsc_buf_printf(&l, "%s%s", label_sep, run->source.member);
    if (job && job->jobname)
        fsc_buf_printf(&l, "%s%s", label_sep, job->jobname);
    if (l.oom) {
        fsc_buf_free(&l);
        return NULL;
    }
    return l.data ? l.data : fsc_strdup("");
}

/* Which input a run came from (index, or SIZE_MAX) and its path inside it. */
static size_t run_input(const build_ctx *b, size_t side, const fsc_run *run, fsc_buf *rel)
{
    const char *path = run->source.path ? run->source.path : "";
    size_t best = SIZE_MAX, best_len = 0;
    const char *root = NULL;
    for (size_t i = 0; i < b->n_roots; i++) {
        size_t l = input_prefix(b->roots[i], path);
        if (l && l >= best_len) {
            best = i;
            best_len = l;
        }
    }
    root = best != SIZE_MAX ? b->roots[best] : b->side_roots ? b->side_roots[side] : NULL;
    size_t l = root ? input_prefix(root, path) : 0;
    if (l) {
        const char *r = path + l;
        while (*r == '/')
            r++;
        fsc_buf_puts(rel, r);
    }
    if (run->source.member)
        fsc_buf_printf(rel, "%s%s", rel->len ? ":" : "", run->source.member);
    return best;
}

static bool add_job_rows(build_ctx *b, size_t side, size_t ri, const fsc_run *run, size_t ji,
                         const char *file, const char *rel, const char *input_name,
                         const char *heading)
{
    fsc_analysis *a = b->a;
    const fsc_job *job = &run->jobs[ji];
    const char *dim[FSC_DIM_COUNT] = {0};
    if (!job_workload(a, run, job, dim))
        return false;
    dim[FSC_DIM_JOBNAME] = fsc_pool_str(&a->pool, job->jobname);
    dim[FSC_DIM_FILE] = file;
    dim[FSC_DIM_HEADING] = heading;
    dim[FSC_DIM_FIO_VERSION] = fsc_pool_str(&a->pool, run->source.fio_version);
    dim[FSC_DIM_HOST] = fsc_pool_str(&a->pool, job->hostname ? job->hostname : run->source.host);
    dim[FSC_DIM_WORKLOAD] = dim[FSC_DIM_JOBNAME] ? fsc_workload_short(a, dim, a->key_dims, a->n_key_dims) : NULL;
    fsc_buf rd = {0};
    const char *slash = strrchr(rel, '/');
    if (slash)
        fsc_buf_add(&rd, rel, (size_t)(slash - rel));
    char *label = base_label(b, run, job, rd.data);
    fsc_buf_free(&rd);
    const char *lab = label ? fsc_pool_str(&a->pool, label) : NULL;
    free(label);
    if (!dim[FSC_DIM_WORKLOAD] || !lab)
        return false;
    dim[FSC_DIM_LABEL] = lab;
    dim[FSC_DIM_SYSTEM] = "";
    dim[FSC_DIM_REPEAT] = "";

    int dirs[FSC_DIR_COUNT];
    size_t n_dirs = 0, n_rw = 0;
    for (int d = FSC_DIR_READ; d <= FSC_DIR_TRIM; d++)
        if (fsc_dir_has_data(&job->dir[d])) {
            dirs[n_dirs++] = d;
            n_rw++;
        }
    bool mixed = job->dir[FSC_DIR_MIXED].present && fsc_dir_has_data(&job->dir[FSC_DIR_MIXED]);
    if (mixed || n_rw >= 2 || n_rw == 0)
        dirs[n_dirs++] = FSC_DIR_MIXED; /* the total; a job without I/O keeps one row */
    for (size_t k = 0; k < n_dirs; k++) {
        row_extra *ex;
        fsc_arow *r = add_row(a, &ex);
        if (!r)
            return false;
        r->side = side;
        r->run = ri;
        r->job = ji;
        r->dir = dirs[k];
        r->r = run;
        r->j = job;
        memcpy(r->dim, dim, sizeof dim);
        r->dim[FSC_DIM_DIR] = fsc_rowdir_name(dirs[k]);
        ex->base_label = lab;
        ex->input_rel = fsc_pool_str(&a->pool, rel);
        ex->input_name = input_name;
        if (!ex->input_rel)
            return false;
    }
    return true;
}

static bool add_run_rows(build_ctx *b, size_t side, size_t ri, const fsc_run *run)
{
    fsc_analysis *a = b->a;
    fsc_buf file = {0}, rel = {0}, head = {0};
    fsc_buf_puts(&file, run->source.path ? run->source.path : "");
    if (run->source.member)
        fsc_buf_printf(&file, ":%s", run->source.member);
    size_t in = run_input(b, side, run, &rel);
    size_t first;
    size_t n_head = run_headings(run, &first);
    for (size_t i = 0; i < n_head; i++) {
        size_t hl;
        const char *h = heading_text(run->context[first + i], &hl);
        if (head.len)
            fsc_buf_puts(&head, label_sep);
        fsc_buf_add(&head, h, hl);
    }
    const char *fs = file.oom ? NULL : fsc_pool_str(&a->pool, file.data);
    const char *rs = rel.oom ? NULL : fsc_pool_str(&a->pool, rel.data ? rel.data : "");
    const char *hs = head.oom ? NULL : fsc_pool_str(&a->pool, head.data ? head.data : "");
    const char *iname = b->side_names ? b->side_names[side]
                        : in != SIZE_MAX ? b->root_names[in]
                                         : "";
    bool ok = fs && rs && hs;
    for (size_t ji = 0; ok && ji < run->n_jobs; ji++)
        ok = add_job_rows(b, side, ri, run, ji, fs, rs, iname, hs);
    fsc_buf_free(&file);
    fsc_buf_free(&rel);
    fsc_buf_free(&head);
    return ok;
}

/* fio --status-interval (or a SIGUSR1) prints a running fio's whole report again
 * and again, each a snapshot of the run so far: the same jobs of the same processes
 * (pids) on the same host, no preamble before the later reports (they begin at a job
 * header), their runtimes grown. Only the last is the run; the others are no repeats
 * of it, and statistics over them would count one run several times. (The same
 * report twice, copied or grep'ed from two hosts' logs, grows nothing: two runs.) */
static bool interim_report(const fsc_run *run, const fsc_run *next)
{
    if (!next || !run->n_jobs || run->n_jobs != next->n_jobs || !fsc_str_same(run->source.path, next->source.path) ||
        !fsc_str_same(run->source.member, next->source.member) || !fsc_str_same(run->source.host, next->source.host) ||
        next->source.first_line != next->jobs[0].first_line)
        return false;
    bool grown = false;
    for (size_t j = 0; j < run->n_jobs; j++) {
        const fsc_job *x = &run->jobs[j], *y = &next->jobs[j];
        if (!x->pid.set || !y->pid.set || x->pid.v <= 0 || x->pid.v != y->pid.v || !fsc_str_same(x->jobname, y->jobname) ||
            !fsc_str_same(x->hostname, y->hostname))
            return false;
        for (int d = 0; d < FSC_DIR_COUNT; d++) {
            const fsc_num *a = &x->dir[d].runtime, *b = &y->dir[d].runtime;
            if (a->set && b->set && b->v < a->v)
                return false;
            grown |= a->set && b->set && b->v > a->v;
        }
    }
    return grown;
}

/* The directory every run of a side lives under (or its one file). */
static char *side_root(const fsc_runset *set)
{
    char *root = NULL;
    for (size_t i = 0; i < set->n_runs; i++) {
        const char *p = set->runs[i]->source.path ? set->runs[i]->source.path : "";
        if (!root) {
            if (!(root = fsc_strdup(p)))
                return NULL;
            continue;
        }
        size_t k = 0;
        while (root[k] && root[k] == p[k])
            k++;
        if (root[k] || (p[k] && p[k] != '/')) {
            while (k && root[k - 1] != '/')
                k--;
            root[k] = '\0';
        }
    }
    if (!root)
        return fsc_strdup("");
    size_t l = strlen(root);
    while (l > 1 && root[l - 1] == '/')
        root[--l] = '\0';
    return root;
}

/* ---- repeats and selection ---- */

static bool number_repeats(fsc_analysis *a)
{
    fsc_keymap groups = {0};
    size_t *last_run = NULL, *count = NULL, n = 0, cap = 0;
    bool ok = true;
    for (size_t i = 0; ok && i < a->n_all; i++) {
        fsc_arow *r = &a->all[i];
        fsc_key k = {{(uintptr_t)a->extra[i].sys_norm, (uintptr_t)r->dim[FSC_DIM_WORKLOAD],
                      (uintptr_t)r->dir, 0}};
        size_t g = fsc_keymap_put(&groups, &k, n);
        if (g == SIZE_MAX) {
            ok = false;
            break;
        }
        if (g == n) {
            size_t need = n + 1;
            if (need > cap) {
                cap = cap ? cap * 2 : 64;
                size_t *lr = realloc(last_run, cap * sizeof *lr), *c;
                if (!lr) {
                    ok = false;
                    break;
                }
                last_run = lr;
                c = realloc(count, cap * sizeof *c);
                if (!c) {
                    ok = false;
                    break;
                }
                count = c;
            }
            last_run[n] = SIZE_MAX;
            count[n] = 0;
            n++;
        }
        size_t run_id = r->side * (SIZE_MAX / 64) + r->run; /* unique per (side, run) */
        if (last_run[g] != run_id) {
            last_run[g] = run_id;
            count[g]++;
        }
        char num[24];
        snprintf(num, sizeof num, "%zu", count[g]);
        ok = (r->dim[FSC_DIM_REPEAT] = fsc_pool_str(&a->pool, num)) != NULL;
    }
    fsc_keymap_free(&groups);
    free(last_run);
    free(count);
    return ok;
}

static fsc_status select_rows(fsc_analysis *a, const fsc_analysis_opts *o, fsc_buf *err)
{
    fsc_where **w = calloc(o->n_where ? o->n_where : 1, sizeof *w);
    a->sel = malloc((a->n_all ? a->n_all : 1) * sizeof *a->sel);
    if (!w || !a->sel) {
        free(w);
        return FSC_E_NOMEM;
    }
    fsc_status st = FSC_OK;
    for (size_t i = 0; st == FSC_OK && i < o->n_where; i++)
        st = fsc_where_parse(o->where[i], &w[i], err);
    for (size_t i = 0; st == FSC_OK && i < a->n_all; i++) {
        bool keep = true;
        for (size_t k = 0; keep && k < o->n_where; k++)
            keep = fsc_where_test(w[k], a, &a->all[i]);
        if (keep)
            a->sel[a->n_sel++] = i;
    }
    for (size_t i = 0; i < o->n_where; i++)
        fsc_where_free(w[i]);
    free(w);
    if (st != FSC_OK)
        return st;
    fsc_keymap seen = {0};
    for (size_t i = 0; st == FSC_OK && i < a->n_sel; i++) {
        const char *sys = a->all[a->sel[i]].dim[FSC_DIM_SYSTEM];
        fsc_key k = {{(uintptr_t)sys, 0, 0, 0}};
        size_t at = fsc_keymap_put(&seen, &k, a->n_systems);
        const char **slot = at == a->n_systems ? FSC_PUSH(a->systems, a->n_systems, a->cap_systems) : NULL;
        if (at == SIZE_MAX || (at == a->n_systems && !slot))
            st = FSC_E_NOMEM;
        else if (slot)
            *slot = sys;
    }
    fsc_keymap_free(&seen);
    return st;
}

/* ---- public ---- */

static fsc_analysis *build(const fsc_runset *const *sets, const char *const *names, size_t n_sets,
                           bool sides, const fsc_analysis_opts *o, fsc_buf *err, fsc_status *st)
{
    fsc_analysis_opts none = {0};
    fsc_status dummy;
    st = st ? st : &dummy;
    o = o ? o : &none;
    *st = FSC_E_NOMEM;
    fsc_analysis *a = calloc(1, sizeof *a);
    if (!a)
        return NULL;
    a->label_from = o->label_from;
    a->sets = sets;
    a->n_sets = n_sets;
    sys_rule rule = {0};
    build_ctx b = {.a = a, .o = o, .roots = o->inputs, .n_roots = o->n_inputs};
    char **rn = NULL, **sr = NULL, **sn = NULL;
    fsc_status s = fsc_workload_key_parse(o->workload_key, a->key_dims, &a->n_key_dims, err);
    if (s == FSC_OK)
        s = fsc_sys_rule_parse(sides ? NULL : o->system_from, &rule, err);
    if (s == FSC_OK) {
        fsc_buf kt = {0};
        for (size_t i = 0; i < a->n_key_dims; i++)
            fsc_buf_printf(&kt, "%s%s", i ? "," : "", fsc_dim_get((fsc_dim)a->key_dims[i])->name);
        a->key_text = kt.data;
        s = kt.oom ? FSC_E_NOMEM : FSC_OK;
    }
    /* names of the inputs, or of the sides */
    const char **root_names = NULL, **side_roots = NULL, **side_names = NULL;
    if (s == FSC_OK && !sides && o->n_inputs) {
        rn = path_names(o->inputs, o->n_inputs);
        root_names = calloc(o->n_inputs, sizeof *root_names);
        s = rn && root_names ? FSC_OK : FSC_E_NOMEM;
        for (size_t i = 0; s == FSC_OK && i < o->n_inputs; i++)
            if (!(root_names[i] = fsc_pool_str(&a->pool, rn[i])))
                s = FSC_E_NOMEM;
    }
    if (s == FSC_OK && sides) {
        sr = calloc(n_sets, sizeof *sr);
        side_roots = calloc(n_sets, sizeof *side_roots);
        side_names = calloc(n_sets, sizeof *side_names);
        s = sr && side_roots && side_names ? FSC_OK : FSC_E_NOMEM;
        for (size_t i = 0; s == FSC_OK && i < n_sets; i++)
            if (!(sr[i] = side_root(sets[i])) || !(side_roots[i] = fsc_pool_str(&a->pool, sr[i])))
                s = FSC_E_NOMEM;
        if (s == FSC_OK && !(sn = path_names((const char *const *)sr, n_sets)))
            s = FSC_E_NOMEM;
        /* sides whose paths do not tell them apart are numbered */
        for (size_t i = 0; s == FSC_OK && i < n_sets; i++)
            for (size_t k = 0; k < i; k++)
                if (!strcmp(sn[i], sn[k]) || !*sn[i]) {
                    for (size_t j = 0; j < n_sets; j++) {
                        char num[32];
                        snprintf(num, sizeof num, n_sets == 2 ? (j ? "new" : "base") : "side %zu", j + 1);
                        free(sn[j]);
                        if (!(sn[j] = fsc_strdup(num)))
                            s = FSC_E_NOMEM;
                    }
                    k = i = n_sets;
                }
        for (size_t i = 0; s == FSC_OK && i < n_sets; i++)
            if (!(side_names[i] = fsc_pool_str(&a->pool, names && names[i] ? names[i] : sn[i])))
                s = FSC_E_NOMEM;
    }
    /* without the inputs, paths are shown from the directory all runs share */
    if (s == FSC_OK && !sides && !o->n_inputs && n_sets == 1) {
        sr = calloc(1, sizeof *sr);
        side_roots = calloc(1, sizeof *side_roots);
        s = sr && side_roots && (sr[0] = side_root(sets[0])) && (side_roots[0] = fsc_pool_str(&a->pool, sr[0]))
                ? FSC_OK
                : FSC_E_NOMEM;
    }
    b.root_names = root_names;
    b.side_roots = side_roots;
    b.side_names = side_names;
    size_t interim = 0;
    for (size_t si = 0; s == FSC_OK && si < n_sets; si++)
        for (size_t ri = 0; s == FSC_OK && ri < sets[si]->n_runs; ri++) {
            const fsc_run *run = sets[si]->runs[ri];
            if (interim_report(run, ri + 1 < sets[si]->n_runs ? sets[si]->runs[ri + 1] : NULL))
                interim++;
            else if (!add_run_rows(&b, si, ri, run))
                s = FSC_E_NOMEM;
        }
    if (s == FSC_OK && interim &&
        !fsc_analysis_add_note(a, "%zu interim report%s left out: fio printed the same processes' report again "
                                  "later (--status-interval); each run counts once, by its last report",
                               interim, interim == 1 ? "" : "s"))
        s = FSC_E_NOMEM;
    if (s == FSC_OK) {
        if (sides)
            rule.src = SYS_SIDE;
        s = fsc_assign_systems(a, &rule, side_names);
    }
    if (s == FSC_OK && !number_repeats(a))
        s = FSC_E_NOMEM;
    if (s == FSC_OK)
        s = select_rows(a, o, err);
    fsc_sys_rule_free(&rule);
    free_names(rn, o->n_inputs);
    free_names(sr, sr ? n_sets : 0);
    free_names(sn, sn ? n_sets : 0);
    free(root_names);
    free(side_roots);
    free(side_names);
    *st = s;
    if (s != FSC_OK) {
        if (!err->len)
            fsc_buf_puts(err, fsc_strerror(s));
        fsc_analysis_free(a);
        return NULL;
    }
    return a;
}

fsc_analysis *fsc_analysis_new(const fsc_runset *set, const fsc_analysis_opts *o, fsc_buf *err,
                               fsc_status *st)
{
    fsc_analysis *a = build(&set, NULL, 1, false, o, err, st);
    if (a)
        a->sets = NULL; /* &set was a local: the rows keep their runs */
    return a;
}

fsc_analysis *fsc_analysis_new_sides(const fsc_runset *const *sets, const char *const *names,
                                     size_t n_sets, const fsc_analysis_opts *o, fsc_buf *err,
                                     fsc_status *st)
{
    fsc_analysis *a = build(sets, names, n_sets, true, o, err, st);
    if (a)
        a->sets = NULL;
    return a;
}

void fsc_analysis_free(fsc_analysis *a)
{
    if (!a)
        return;
    fsc_pool_free(&a->pool);
    free(a->all);
    free(a->extra);
    free(a->sel);
    free(a->key_text);
    free(a->systems);
    free(a->system_source);
    for (size_t i = 0; i < a->n_notes; i++)
        free(a->notes[i]);
    free(a->notes);
    free(a->clones);
    free(a);
}

size_t fsc_analysis_n_rows(const fsc_analysis *a)
{
    return a ? a->n_sel : 0;
}

const fsc_arow *fsc_analysis_row(const fsc_analysis *a, size_t i)
{
    return a && i < a->n_sel ? &a->all[a->sel[i]] : NULL;
}

static int row_cmp(const fsc_arow *r, size_t side, size_t run, size_t job)
{
    if (r->side != side)
        return r->side < side ? -1 : 1;
    if (r->run != run)
        return r->run < run ? -1 : 1;
    if (r->job != job)
        return r->job < job ? -1 : 1;
    return 0;
}

bool fsc_analysis_job_rows(const fsc_analysis *a, size_t side, size_t run, size_t job,
                           size_t *first, size_t *n)
{
    size_t lo = 0, hi = a ? a->n_sel : 0;
    *first = 0;
    *n = 0;
    while (lo < hi) { /* first selected row not before (side, run, job) */
        size_t mid = lo + (hi - lo) / 2;
        if (row_cmp(&a->all[a->sel[mid]], side, run, job) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    size_t end = lo;
    while (end < a->n_sel && row_cmp(&a->all[a->sel[end]], side, run, job) == 0)
        end++;
    *first = lo;
    *n = end - lo;
    return *n > 0;
}

size_t fsc_analysis_n_systems(const fsc_analysis *a)
{
    return a ? a->n_systems : 0;
}

const char *fsc_analysis_system(const fsc_analysis *a, size_t i)
{
    return a && i < a->n_systems ? a->systems[i] : NULL;
}

const char *fsc_analysis_workload_key(const fsc_analysis *a)
{
    return a && a->key_text ? a->key_text : "";
}

const char *fsc_analysis_system_source(const fsc_analysis *a)
{
    return a && a->system_source ? a->system_source : "none";
}

size_t fsc_analysis_n_notes(const fsc_analysis *a)
{
    return a ? a->n_notes : 0;
}

const char *fsc_analysis_note(const fsc_analysis *a, size_t i)
{
    return a && i < a->n_notes ? a->notes[i] : NULL;
}

fsc_mval fsc_analysis_eval(const fsc_analysis *a, const fsc_arow *row, const fsc_mspec *m)
{
    fsc_mval none = {false, 0, 0};
    (void)a;
    if (m->kind == FSC_MK_TEXT)
        return none;
    bool total = row->dir == FSC_DIR_MIXED;
    if ((m->kind == FSC_MK_DIR_FIELD || m->kind == FSC_MK_DIR_LAT) && !total && m->dir != row->dir)
        return none; /* read.iops says nothing in a write row */
    return fsc_mspec_eval(m, row->j, total ? -1 : row->dir);
}

const char *fsc_analysis_text(const fsc_analysis *a, const fsc_arow *row, const fsc_mspec *m,
                              char *tmp, size_t tmp_len)
{
    (void)a;
    if (m->kind != FSC_MK_TEXT)
        return NULL;
    if (m->dim >= 0 && m->dim < FSC_DIM_COUNT) {
        const char *v = row->dim[m->dim];
        return v && *v ? v : NULL;
    }
    return fsc_job_text(m, row->r, row->j, tmp, tmp_len);
}
