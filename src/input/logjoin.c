/* SPDX-License-Identifier: MIT */
/*
 * fio log files find the run they belong to: within one group of held items (a
 * folder, an archive, files named together), a log whose file prefix is a job's name,
 * or the write_bw_log / write_iops_log / write_lat_log / write_hist_log value of a
 * job, goes to that job's run (one in the same folder first). The logs that find none
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

static bool same_n(const char *s, const char *p, size_t n)
{
    return s && strlen(s) == n && !memcmp(s, p, n);
}

/* Does "--OPT=PREFIX" or "OPT=PREFIX" stand in the command shown before the run? */
static bool command_names(const char *cmd, const char *opt, const char *p, size_t n)
{
    size_t ol = strlen(opt);
    for (const char *q = cmd ? strstr(cmd, opt) : NULL; q; q = strstr(q + 1, opt)) {
        const char *v = q + ol;
        while (*v == ' ')
            v++;
        if (*v != '=')
            continue;
        v++;
        while (*v == ' ' || *v == '"' || *v == '\'')
            v++;
        if (!strncmp(v, p, n) && !(v[n] && !strchr(" \t\n\"',", v[n])))
            return true;
    }
    return false;
}

/* Does job (of run) write logs named prefix of kind k? */
static bool job_owns(const fsc_run *run, const fsc_job *job, const fsc_logname *ln)
{
    if (same_n(job->jobname, ln->prefix, ln->prefix_len))
        return true;
    const char *opt = log_option(ln->kind);
    return same_n(fsc_job_option(job, opt), ln->prefix, ln->prefix_len) ||
           command_names(run->command, opt, ln->prefix, ln->prefix_len);
}

/* Folder of a document inside its group: the member's folder, else the path's. */
static size_t folder_of(const fsc_item *it, const char **s)
{
    *s = it->member ? it->member : it->path;
    const char *slash = strrchr(*s, '/');
    return slash ? (size_t)(slash - *s) : 0;
}

static bool same_folder(const fsc_item *a, const fsc_item *b)
{
    const char *sa, *sb;
    size_t na = folder_of(a, &sa), nb = folder_of(b, &sb);
    return na == nb && !memcmp(sa, sb, na) && !a->member == !b->member;
}

typedef struct owner {
    fsc_run *run;
    const fsc_job *job;
} owner;

/* The run (and job) log item `li` belongs to, or {NULL}. */
static owner find_owner(fsc_item **items, size_t n, const fsc_item *li)
{
    owner best = {NULL, NULL};
    for (size_t i = 0; i < n; i++) {
        const fsc_item *it = items[i];
        for (size_t k = 0; k < it->n_runs; k++) {
            fsc_run *run = it->outs[k].run;
            if (!run || run->source.format == FSC_FMT_LOG)
                continue;
            for (size_t j = 0; j < run->n_jobs; j++)
                if (job_owns(run, &run->jobs[j], &li->logname)) {
                    if (same_folder(it, li))
                        return (owner){run, &run->jobs[j]};
                    if (!best.run)
                        best = (owner){run, &run->jobs[j]};
                    break;
                }
        }
    }
    return best;
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
static const fsc_job *log_run_job(fsc_run *run, const fsc_logname *ln)
{
    for (size_t j = 0; j < run->n_jobs; j++)
        if (same_n(run->jobs[j].jobname, ln->prefix, ln->prefix_len))
            return &run->jobs[j];
    char *name = fsc_strndup(ln->prefix, ln->prefix_len);
    fsc_job *job = name ? fsc_run_add_job(run) : NULL;
    if (!job) {
        free(name);
        return NULL;
    }
    job->jobname = name;
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

fsc_status fsc_logs_join(fsc_item **items, size_t n)
{
    if (!merge_pieces(items, n))
        return FSC_E_NOMEM;
    fsc_run *log_run = NULL;
    fsc_item *log_item = NULL;
    bool ok = true;
    for (size_t i = 0; ok && i < n; i++) {
        fsc_item *li = items[i];
        if (!li->log)
            continue;
        owner o = find_owner(items, n, li);
        fsc_logfile_finish(li->log, o.run ? o.run->source.fio_version : NULL);
        if (!o.run) {
            if (!log_run) {
                log_item = li;
                ok = (log_run = new_log_run(li)) != NULL;
            }
            o.run = log_run;
            o.job = ok ? log_run_job(log_run, &li->logname) : NULL;
            ok = o.job != NULL;
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
    return ok ? FSC_OK : FSC_E_NOMEM;
}
