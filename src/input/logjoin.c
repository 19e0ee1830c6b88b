/* SPDX-License-Identifier: MIT */
/*
 * fio log files find the run they belong to: within one group of held items (a
 * folder, an archive, files named together), a log whose file prefix is a job's name,
 * or the write_bw_log / write_iops_log / write_lat_log / write_hist_log value of a
 * job, goes to that job's run (one in the same folder first), else to the only run of
 * its folder when that run's jobs have one name and its logs of that option one
 * prefix. The logs that find none
 * form one run of format "log" per group, with one job (only its name) per prefix.
 */
#include "input_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The fio option that names a log kind's files. */
static const char *log_option(fsc_logkind k)
{
    switch (k) {
    case FSC_LOG_BW: return "write_bw_log";
    case FSC_LOG_IOPS: return "write_iops_log";
    case FSC_LOG_CLAT_HIST:
    case FSC_LOG_LAT_HIST: return "write_hist_log";
    default: return "write_lat_log";
    }
}

/* Folder of a document inside its group: the member's folder, else the path's. */
static size_t folder_of(const fsc_item *it, const char **s)
{
    *s = it->member ? it->member : it->path;
    const char *slash = strrchr(*s, '/');
    return slash ? (size_t)(slash - *s) : 0;
}

bool fsc_item_same_folder(const fsc_item *a, const fsc_item *b)
{
    const char *sa, *sb;
    size_t na = folder_of(a, &sa), nb = folder_of(b, &sb);
    return na == nb && !memcmp(sa, sb, na) && !a->member == !b->member;
}

typedef struct owner {
    fsc_run *run;
    const fsc_job *job;
} owner;

/* ---- who names which prefix: built once per group ----
 * A log belongs to the first job (in item, run, job order) whose name is its prefix,
 * whose write_*_log option of its kind is, or whose run's command shows
 * "write_*_log=PREFIX" (then the run's first job); one in the log's folder first.
 * Asking every job of the group for every log made a folder or archive of thousands
 * of logs quadratic: each name is now looked up in a hash index instead. */

typedef struct claim {
    size_t item, run, job; /* order of the claims: (item, run, job) */
    size_t next;           /* next claim of the same name, SIZE_MAX: none */
} claim;

typedef struct claim_name {
    char *key; /* "J" jobname, or "O" / "C" option "\x01" value (job option / command) */
    size_t first, last;
} claim_name;

typedef struct claims {
    claim_name *names;
    size_t n_names, cap_names;
    fsc_keyindex index;
    claim *c;
    size_t n, cap;
    bool oom;
} claims;

static const char *claim_key_at(const void *items, size_t i)
{
    return ((const claim_name *)items)[i].key;
}

static void claims_free(claims *cl)
{
    for (size_t i = 0; i < cl->n_names; i++)
        free(cl->names[i].key);
    free(cl->names);
    fsc_keyindex_free(&cl->index);
    free(cl->c);
}

static void key_of(fsc_buf *b, char tag, const char *opt, const char *v, size_t n)
{
    fsc_buf_reset(b);
    fsc_buf_putc(b, tag);
    if (opt) {
        fsc_buf_puts(b, opt);
        fsc_buf_putc(b, '\x01');
    }
    fsc_buf_add(b, v, n);
}

/* Add the claim of (item, run, job) on key (NULL: out of memory already). */
static void claim_add(claims *cl, const char *key, size_t item, size_t run, size_t job)
{
    if (cl->oom || !key) {
        cl->oom = true;
        return;
    }
    size_t i = fsc_keyindex_find(&cl->index, cl->names, cl->n_names, claim_key_at, key);
    if (i < cl->n_names && cl->c[cl->names[i].last].item == item && cl->c[cl->names[i].last].run == run)
        return; /* this run claims it already, with an earlier job */
    claim *c = FSC_PUSH(cl->c, cl->n, cl->cap);
    if (!c) {
        cl->oom = true;
        return;
    }
    *c = (claim){item, run, job, SIZE_MAX};
    if (i < cl->n_names) {
        cl->c[cl->names[i].last].next = cl->n - 1;
        cl->names[i].last = cl->n - 1;
        return;
    }
    char *k = fsc_strdup(key);
    claim_name *nm = k ? FSC_PUSH(cl->names, cl->n_names, cl->cap_names) : NULL;
    if (!nm) {
        free(k);
        cl->oom = true;
        return;
    }
    *nm = (claim_name){k, cl->n - 1, cl->n - 1};
    if (!fsc_keyindex_added(&cl->index, cl->names, cl->n_names, claim_key_at)) {
        cl->n_names--;
        free(k);
        cl->oom = true;
    }
}

static const char *const log_options[] = {"write_bw_log", "write_iops_log", "write_lat_log", "write_hist_log"};

/* What a run claims, in order, passed to fn with the claiming job: each job's name
 * ("J" name) and write_*_log values ("O" option "\x01" value), then every "OPT=VALUE"
 * of the log options in the run's command, as a shell line or a job file shows it
 * ("C" option "\x01" value, for the run's first job). key is NULL when out of
 * memory. */
typedef void claim_fn(void *ctx, const char *key, size_t job);

static void run_claims(const fsc_run *run, claim_fn *fn, void *ctx)
{
    fsc_buf key = {0};
    for (size_t j = 0; j < run->n_jobs; j++) {
        const fsc_job *job = &run->jobs[j];
        if (job->jobname) {
            key_of(&key, 'J', NULL, job->jobname, strlen(job->jobname));
            fn(ctx, key.oom ? NULL : key.data, j);
        }
        for (size_t o = 0; o < FSC_ARRAY_SIZE(log_options); o++) {
            const char *v = fsc_job_option(job, log_options[o]);
            if (v) {
                key_of(&key, 'O', log_options[o], v, strlen(v));
                fn(ctx, key.oom ? NULL : key.data, j);
            }
        }
    }
    const char *cmd = run->command;
    for (size_t o = 0; cmd && o < FSC_ARRAY_SIZE(log_options); o++) {
        size_t ol = strlen(log_options[o]);
        for (const char *q = strstr(cmd, log_options[o]); q; q = strstr(q + 1, log_options[o])) {
            const char *v = q + ol;
            while (*v == ' ')
                v++;
            if (*v != '=')
                continue;
            v++;
            while (*v == ' ' || *v == '"' || *v == '\'')
                v++;
            size_t n = strcspn(v, " \t\n\"',");
            key_of(&key, 'C', log_options[o], v, n);
            fn(ctx, key.oom ? NULL : key.data, 0);
        }
    }
    fsc_buf_free(&key);
}

struct claim_at {
    claims *cl;
    size_t item, run;
};

static void claim_of_run(void *ctx, const char *key, size_t job)
{
    const struct claim_at *at = ctx;
    claim_add(at->cl, key, at->item, at->run, job);
}

struct noting {
    fsc_item *item;
    size_t run;
    bool oom;
};

static void note_claim(void *ctx, const char *key, size_t job)
{
    struct noting *nt = ctx;
    char *k = key && !nt->oom ? fsc_strdup(key) : NULL;
    struct fsc_item_claim *c = k ? FSC_PUSH(nt->item->claims, nt->item->n_claims, nt->item->cap_claims) : NULL;
    if (!c) {
        free(k);
        nt->oom = true;
        return;
    }
    *c = (struct fsc_item_claim){nt->run, job, k};
}

bool fsc_item_note_claims(fsc_item *job, size_t k, const fsc_run *run)
{
    struct noting nt = {job, k, false};
    if (run->source.format != FSC_FMT_LOG)
        run_claims(run, note_claim, &nt);
    return !nt.oom;
}

/* Every claim of the group's runs, in (item, run, job) order: of a run rendered on the
 * worker, those fsc_item_note_claims kept (in the same order). */
static void claims_build(claims *cl, fsc_item **items, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        const fsc_item *it = items[i];
        size_t c = 0;
        for (size_t k = 0; k < it->n_runs; k++) {
            const fsc_run *run = it->outs[k].run;
            for (; c < it->n_claims && it->claims[c].run <= k; c++)
                if (!run && it->claims[c].run == k)
                    claim_add(cl, it->claims[c].key, i, k, it->claims[c].job);
            if (run && run->source.format != FSC_FMT_LOG) {
                struct claim_at at = {cl, i, k};
                run_claims(run, claim_of_run, &at);
            }
        }
    }
}

static int claim_cmp(const void *a, const void *b)
{
    const claim *x = a, *y = b;
    if (x->item != y->item)
        return x->item < y->item ? -1 : 1;
    if (x->run != y->run)
        return x->run < y->run ? -1 : 1;
    return x->job < y->job ? -1 : x->job > y->job;
}

/* No job names the log's prefix: the only run of the log's folder takes it, when its
 * jobs have one name (a results folder of one fio run whose logs a job file named,
 * "write_bw_log=bw", which fio's normal text does not show). The documents with runs,
 * sorted by folder once per group, so that each log looks its folder up (a tarball of
 * thousands of result folders stays n log n). */
typedef struct folder_ent {
    const char *folder; /* the member's or path's folder, len bytes */
    size_t len;
    bool member;
    size_t item;
} folder_ent;

typedef struct folder_runs {
    folder_ent *e; /* the items with runs, by folder */
    size_t n;
} folder_runs;

/* a[0, an) against b[0, bn), as strcmp orders strings */
static int bytes_cmp(const char *a, size_t an, const char *b, size_t bn)
{
    int c = memcmp(a, b, an < bn ? an : bn);
    return c ? c : (an > bn) - (an < bn);
}

static int ent_cmp(const folder_ent *a, const folder_ent *b)
{
    if (a->member != b->member)
        return a->member ? 1 : -1;
    return bytes_cmp(a->folder, a->len, b->folder, b->len);
}

static int ent_qsort_cmp(const void *x, const void *y)
{
    return ent_cmp(x, y);
}

static folder_ent ent_of(const fsc_item *it, size_t i)
{
    folder_ent e = {NULL, 0, it->member != NULL, i};
    e.len = folder_of(it, &e.folder);
    return e;
}

static bool folder_runs_build(folder_runs *fr, fsc_item **items, size_t n)
{
    fr->n = 0;
    fr->e = malloc((n ? n : 1) * sizeof *fr->e);
    if (!fr->e)
        return false;
    for (size_t i = 0; i < n; i++)
        if (!items[i]->log && !items[i]->is_log && items[i]->n_runs)
            fr->e[fr->n++] = ent_of(items[i], i);
    qsort(fr->e, fr->n, sizeof *fr->e, ent_qsort_cmp);
    return true;
}

/* The logs of a group by (folder, option, prefix): a log may go to its folder's only
 * run when no other log of its folder and option has another prefix (the files of one
 * "write_bw_log=bw" are bw_bw.1.log, bw_bw.2.log, ...; many prefixes of one kind are
 * logs of other jobs, not this run's). single[i]: item i may. */
typedef struct log_ent {
    folder_ent f;
    const char *opt, *prefix;
    size_t prefix_len;
} log_ent;

static int log_ent_cmp(const void *x, const void *y)
{
    const log_ent *a = x, *b = y;
    int c = ent_cmp(&a->f, &b->f);
    if (!c)
        c = strcmp(a->opt, b->opt);
    return c ? c : bytes_cmp(a->prefix, a->prefix_len, b->prefix, b->prefix_len);
}

static bool *single_prefix_logs(fsc_item **items, size_t n)
{
    bool *single = calloc(n ? n : 1, sizeof *single);
    log_ent *e = malloc((n ? n : 1) * sizeof *e);
    size_t m = 0;
    if (!single || !e) {
        free(single);
        free(e);
        return NULL;
    }
    for (size_t i = 0; i < n; i++)
        if (items[i]->log)
            e[m++] = (log_ent){ent_of(items[i], i), log_option(items[i]->logname.kind), items[i]->logname.prefix,
                               items[i]->logname.prefix_len};
    qsort(e, m, sizeof *e, log_ent_cmp);
    for (size_t a = 0, b; a < m; a = b) { /* a group: one folder and option */
        bool one = true;
        for (b = a + 1; b < m && !ent_cmp(&e[b].f, &e[a].f) && !strcmp(e[b].opt, e[a].opt); b++)
            one = one && !bytes_cmp(e[b].prefix, e[b].prefix_len, e[a].prefix, e[a].prefix_len);
        for (size_t k = a; k < b; k++)
            single[e[k].f.item] = one;
    }
    free(e);
    return single;
}

/* The item holding the only run of li's folder: false when it has none or several. */
static bool only_run_of_folder(const folder_runs *fr, fsc_item **items, const fsc_item *li, size_t *item)
{
    folder_ent key = ent_of(li, 0);
    size_t lo = 0, hi = fr->n;
    while (lo < hi) { /* the first of li's folder or after it */
        size_t mid = lo + (hi - lo) / 2;
        if (ent_cmp(&fr->e[mid], &key) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    size_t runs = 0;
    for (size_t k = lo; k < fr->n && runs < 2 && !ent_cmp(&fr->e[k], &key); k++) {
        runs += items[fr->e[k].item]->n_runs;
        *item = fr->e[k].item;
    }
    return runs == 1;
}

static bool one_job_name(const fsc_run *run)
{
    if (!run->n_jobs || !run->jobs[0].jobname)
        return false;
    for (size_t j = 1; j < run->n_jobs; j++)
        if (!run->jobs[j].jobname || strcmp(run->jobs[j].jobname, run->jobs[0].jobname))
            return false;
    return true;
}

/* Could li's logs be run's, the only run of their folder, when the log's prefix names
 * none of its jobs (write_bw_log=bw)? Not when the file's number (fio's thread
 * number, from 1 across the run) is above the run's threads, nor when its last
 * sample comes long after the longest of the run's jobs ended: then they are the logs
 * of another run whose output is not in the folder. Samples logged in ramp_time, and
 * a log's last window written at exit, stay within the slack. */
static bool log_fits_run(const fsc_item *li, const fsc_run *run)
{
    double threads = 0, longest = 0;
    for (size_t j = 0; j < run->n_jobs; j++) {
        const fsc_job *job = &run->jobs[j];
        threads += job->jobs.set && job->jobs.v >= 1 ? job->jobs.v : 1;
        if (job->job_runtime.set && job->job_runtime.v > longest)
            longest = job->job_runtime.v;
        for (int d = 0; d < FSC_DIR_COUNT; d++)
            if (job->dir[d].runtime.set && job->dir[d].runtime.v > longest)
                longest = job->dir[d].runtime.v;
    }
    for (size_t g = 0; g < run->n_groups; g++)
        for (int d = 0; d < FSC_DIR_COUNT; d++)
            if (run->groups[g].dir[d].runtime_max.set && run->groups[g].dir[d].runtime_max.v > longest)
                longest = run->groups[g].dir[d].runtime_max.v;
    if (li->logname.clone > 0 && (double)li->logname.clone > threads)
        return false;
    int64_t last;
    if (longest > 0 && fsc_logfile_last_ms(li->log, &last) && last < FSC_LOG_EPOCH_MS &&
        (double)last > 2 * longest + 10000)
        return false;
    return true;
}

/* Item it's run k as a run (*run), parsed again when it was rendered on the worker;
 * *run NULL when its budget cannot hold it whole again (it stays as rendered, and its
 * logs form the run of format "log": *over_budget). False when out of memory. */
static bool whole_run(fsc_item *it, size_t k, const fsc_parser *parser, fsc_run **run,
                      const fsc_item **over_budget)
{
    fsc_status st = it->outs[k].run ? FSC_OK : fsc_item_reparse(it, parser);
    *run = st == FSC_OK ? it->outs[k].run : NULL;
    if (st == FSC_E_LIMIT)
        *over_budget = it;
    return st != FSC_E_NOMEM;
}

/* The run (and job) log item `li` belongs to, or {NULL}: a claim, else (single) its
 * folder's only run, when the log could be its (only_run_of_folder, log_fits_run); a
 * run rendered on the worker is parsed again first (with parser). False when out of
 * memory. */
static bool find_owner(const claims *cl, const folder_runs *fr, bool single, fsc_item **items, const fsc_item *li,
                       const fsc_parser *parser, owner *out, const fsc_item **over_budget)
{
    *over_budget = NULL;
    *out = (owner){NULL, NULL};
    const fsc_logname *ln = &li->logname;
    const char *opt = log_option(ln->kind);
    fsc_buf key = {0};
    claim *found = NULL;
    size_t n = 0, cap = 0;
    for (int t = 0; t < 3; t++) {
        key_of(&key, "JOC"[t], t ? opt : NULL, ln->prefix, ln->prefix_len);
        if (key.oom)
            break;
        size_t i = fsc_keyindex_find(&cl->index, cl->names, cl->n_names, claim_key_at, key.data);
        for (size_t c = i < cl->n_names ? cl->names[i].first : SIZE_MAX; c != SIZE_MAX; c = cl->c[c].next) {
            claim *slot = FSC_PUSH(found, n, cap);
            if (!slot) {
                key.oom = true;
                break;
            }
            *slot = cl->c[c];
        }
    }
    bool ok = !key.oom;
    fsc_buf_free(&key);
    if (n > 1)
        qsort(found, n, sizeof *found, claim_cmp);
    /* per run its first claim (the lowest job); one in the log's folder first */
    const claim *pick = NULL;
    for (size_t c = 0; ok && c < n; c++) {
        if (c && found[c].item == found[c - 1].item && found[c].run == found[c - 1].run)
            continue;
        if (fsc_item_same_folder(items[found[c].item], li)) {
            pick = &found[c];
            break;
        }
        if (!pick)
            pick = &found[c];
    }
    fsc_run *run;
    size_t only;
    if (ok && pick) {
        ok = whole_run(items[pick->item], pick->run, parser, &run, over_budget);
        if (run && pick->job < run->n_jobs)
            *out = (owner){run, &run->jobs[pick->job]};
    } else if (ok && single && only_run_of_folder(fr, items, li, &only)) {
        ok = whole_run(items[only], 0, parser, &run, over_budget);
        if (run && one_job_name(run) && log_fits_run(li, run))
            *out = (owner){run, &run->jobs[0]};
    }
    free(found);
    return ok;
}

static const char *base_name(const fsc_item *it)
{
    const char *s = it->member ? it->member : it->path;
    const char *slash = strrchr(s, '/');
    return slash ? slash + 1 : s;
}

/* The run of format "log" for the logs without a run, carried by item `it`. */
static fsc_run *new_log_run(fsc_item *it)
{
    fsc_run *run = fsc_run_new();
    if (!run)
        return NULL;
    run->source.format = FSC_FMT_LOG;
    run->source.path = fsc_strdup(it->path);
    run->source.member = it->member ? fsc_strdup(it->member) : NULL;
    fsc_buf id = {0};
    fsc_buf_printf(&id, "%s%s%s#%zu", it->path, it->member ? ":" : "",
                   it->member ? it->member : "", it->first_run + it->n_runs + 1);
    run->id = id.oom ? NULL : id.data;
    if (!run->source.path || (it->member && !run->source.member) || !run->id) {
        if (id.oom)
            fsc_buf_free(&id);
        fsc_run_free(run);
        return NULL;
    }
    return run;
}

/* The job named by the log's prefix in the log run (added when new). */
static const char *jobname_at(const void *items, size_t i)
{
    const char *s = ((const fsc_job *)items)[i].jobname;
    return s ? s : "";
}

/* The job named by the log's prefix in the log run (added when new); ix indexes the
 * run's jobs by name (thousands of logs without a run). */
static const fsc_job *log_run_job(fsc_run *run, fsc_keyindex *ix, const fsc_logname *ln)
{
    char *name = fsc_strndup(ln->prefix, ln->prefix_len);
    if (!name)
        return NULL;
    size_t j = fsc_keyindex_find(ix, run->jobs, run->n_jobs, jobname_at, name);
    if (j < run->n_jobs) {
        free(name);
        return &run->jobs[j];
    }
    fsc_job *job = fsc_run_add_job(run);
    if (!job) {
        free(name);
        return NULL;
    }
    job->jobname = name;
    if (!fsc_keyindex_added(ix, run->jobs, run->n_jobs, jobname_at))
        return NULL;
    if (!run->label)
        run->label = fsc_strdup(name);
    return job;
}

/* Move the series and warnings of a finished log file into run (for job). */
static bool attach(fsc_item *li, fsc_run *run, const fsc_job *job)
{
    fsc_logfile *log = li->log;
    const char *base = base_name(li);
    bool ok = true;
    for (size_t i = 0; ok && i < fsc_logfile_n_series(log); i++) {
        fsc_logseries *s = fsc_logfile_take(log, i);
        if (!s)
            continue;
        free(s->job);
        s->job = fsc_strdup(job->jobname ? job->jobname : "");
        ok = s->job && fsc_run_add_series(run, s);
        if (!s->job)
            fsc_logseries_free(s);
    }
    for (size_t i = 0; ok && i < fsc_logfile_n_warnings(log); i++) {
        const fsc_warning *w = fsc_logfile_warning(log, i);
        if (w->line)
            ok = fsc_run_warn(run, w->line, "%s:%u: %s", base, w->line, w->message);
        else
            ok = fsc_run_warn(run, 0, "%s: %s", base, w->message);
        li->warnings++;
    }
    return ok;
}

/* Pieces of one log file read in parallel become one: the first piece's. */
static bool merge_pieces(fsc_item **items, size_t n)
{
    fsc_item *first = NULL;
    for (size_t i = 0; i < n; i++) {
        fsc_item *it = items[i];
        if (!it->continued) {
            first = it->log ? it : NULL;
            continue;
        }
        if (first && it->log) {
            if (!fsc_logfile_append(first->log, it->log)) {
                it->log = NULL;
                return false;
            }
            it->log = NULL;
        }
    }
    return true;
}

fsc_status fsc_logs_join(fsc_item **items, size_t n, const fsc_parser *parser)
{
    if (!merge_pieces(items, n))
        return FSC_E_NOMEM;
    fsc_run *log_run = NULL;
    fsc_item *log_item = NULL;
    claims cl = {0};
    fsc_keyindex log_jobs = {0};
    claims_build(&cl, items, n);
    folder_runs fr = {0};
    bool *single = single_prefix_logs(items, n);
    bool ok = !cl.oom && single && folder_runs_build(&fr, items, n);
    for (size_t i = 0; ok && i < n; i++) {
        fsc_item *li = items[i];
        if (!li->log)
            continue;
        owner o;
        const fsc_item *over = NULL;
        ok = find_owner(&cl, &fr, single[i], items, li, parser, &o, &over);
        if (!ok)
            break;
        fsc_logfile_finish(li->log, o.run ? o.run->source.fio_version : NULL);
        if (!o.run) {
            if (!log_run) {
                log_item = li;
                ok = (log_run = new_log_run(li)) != NULL;
            }
            o.run = log_run;
            o.job = ok ? log_run_job(log_run, &log_jobs, &li->logname) : NULL;
            ok = o.job != NULL;
            if (ok && over) /* its run, kept whole to take the series, is over the budget */
                ok = fsc_run_warn(log_run, 0, "%s: not joined to the run of %s: kept whole, that run needs more memory "
                                              "than --max-memory allows",
                                  base_name(li), over->member ? over->member : over->path);
        }
        ok = ok && attach(li, o.run, o.job);
        fsc_logfile_free(li->log);
        li->log = NULL;
    }
    if (log_run && ok) {
        struct fsc_item_out *slot = FSC_PUSH(log_item->outs, log_item->n_runs, log_item->cap_runs);
        if (slot) {
            *slot = (struct fsc_item_out){log_run, NULL, 0};
            log_run = NULL;
        } else {
            ok = false;
        }
    }
    fsc_run_free(log_run);
    claims_free(&cl);
    free(fr.e);
    free(single);
    fsc_keyindex_free(&log_jobs);
    return ok ? FSC_OK : FSC_E_NOMEM;
}
