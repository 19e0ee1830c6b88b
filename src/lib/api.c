/* SPDX-License-Identifier: MIT */
/*
 * libfioscope's stable API (include/fioscope/fioscope.h): a thin layer over the
 * input, parse and model modules that the fioscope program uses too. A result is
 * what `fioscope parse` reads: the runs and the manifest of the inputs.
 */
#include "fioscope/fioscope.h"
#include "fioscope/input.h"
#include "fioscope/model_json.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

struct fioscope_result {
    fsc_runset set;
    fsc_manifest manifest;
    int status;
    char *error;
};

/* The grammars, compiled once per process and label mode, then only read (a parser
 * is immutable and may be used by several threads at once). The lock guards only
 * their creation; they live until the process ends. */
static pthread_mutex_t parsers_lock = PTHREAD_MUTEX_INITIALIZER;
static fsc_parser *parsers[4];

static const fsc_parser *parser_for(unsigned flags)
{
    unsigned mode = flags & 3u;
    pthread_mutex_lock(&parsers_lock);
    if (!parsers[mode]) {
        fsc_parse_opts po = {.label_from = (fsc_label_from)mode};
        fsc_buf err = {0};
        parsers[mode] = fsc_parser_new(&po, &err);
        fsc_buf_free(&err);
    }
    const fsc_parser *p = parsers[mode];
    pthread_mutex_unlock(&parsers_lock);
    return p;
}

const char *fioscope_version(void)
{
    return FSC_VERSION;
}

static bool on_run(void *ctx, fsc_run *run)
{
    return fsc_runset_add(&((fioscope_result *)ctx)->set, run);
}

static bool on_input(void *ctx, const fsc_input_entry *e)
{
    return fsc_manifest_add(&((fioscope_result *)ctx)->manifest, e);
}

/* Status and first problem, by the rule of the command line's exit status: an error
 * anywhere, or a named input that gave no run. */
static bool judge(fioscope_result *r, const char *const *paths, size_t n_paths)
{
    for (size_t i = 0; i < r->manifest.n && !r->error; i++) {
        const fsc_input_entry *e = &r->manifest.items[i];
        if (e->status != FSC_IN_ERROR)
            continue;
        fsc_buf b = {0};
        fsc_buf_printf(&b, "%s: ", e->path);
        if (e->member)
            fsc_buf_printf(&b, "%s: ", e->member);
        fsc_buf_puts(&b, e->error ? e->error : "error");
        if (b.oom) {
            fsc_buf_free(&b);
            return false;
        }
        r->error = b.data;
    }
    bool *none = calloc(n_paths ? n_paths : 1, sizeof *none);
    if (!none)
        return false;
    fsc_manifest_no_runs(&r->manifest, n_paths, none);
    for (size_t i = 0; i < n_paths && !r->error; i++) {
        if (!none[i])
            continue;
        fsc_buf b = {0};
        fsc_buf_printf(&b, "%s: no fio run found", paths[i]);
        if (b.oom) {
            fsc_buf_free(&b);
            free(none);
            return false;
        }
        r->error = b.data;
    }
    free(none);
    r->status = r->error ? FIOSCOPE_UNREAD : FIOSCOPE_OK;
    return true;
}

/* Read paths, or (paths NULL) the buffer data[0..size) named name. */
static fioscope_result *parse_any(const char *const *paths, size_t n_paths, const void *data,
                                  size_t size, const char *name, unsigned flags)
{
    const fsc_parser *p = parser_for(flags);
    fioscope_result *r = calloc(1, sizeof *r);
    if (!p || !r) {
        free(r);
        return NULL;
    }
    fsc_runset_init(&r->set);
    fsc_input_sink sink = {.run = on_run, .input = on_input, .ctx = r};
    /* one worker by default: callers that parallelize (threads, Dask) stay in charge */
    fsc_input_opts io = {.jobs = (flags & FIOSCOPE_ALL_CORES) ? 0 : 1, .progress = false};
    fsc_status st = paths ? fsc_inputs_read(paths, n_paths, p, &io, &sink)
                          : fsc_input_read_mem(name, data, size, p, &io, &sink);
    if (st != FSC_OK || !judge(r, paths ? paths : &name, paths ? n_paths : 1)) {
        fioscope_result_free(r);
        return NULL;
    }
    return r;
}

fioscope_result *fioscope_parse_paths(const char *const *paths, size_t n_paths, unsigned flags)
{
    return parse_any(paths, n_paths, NULL, 0, NULL, flags);
}

fioscope_result *fioscope_parse_path(const char *path, unsigned flags)
{
    return parse_any(&path, 1, NULL, 0, NULL, flags);
}

fioscope_result *fioscope_parse_buffer(const void *data, size_t size, const char *name,
                                       unsigned flags)
{
    return parse_any(NULL, 0, data ? data : "", data ? size : 0, name ? name : "-", flags);
}

int fioscope_result_status(const fioscope_result *res)
{
    return res->status;
}

const char *fioscope_result_error(const fioscope_result *res)
{
    return res->error;
}

size_t fioscope_result_run_count(const fioscope_result *res)
{
    return res->set.n_runs;
}

const fioscope_run *fioscope_result_run(const fioscope_result *res, size_t i)
{
    return i < res->set.n_runs ? res->set.runs[i] : NULL;
}

size_t fioscope_result_input_count(const fioscope_result *res)
{
    return res->manifest.n;
}

int fioscope_result_input(const fioscope_result *res, size_t i, const char **path,
                          const char **member, const char **status, size_t *runs,
                          const char **error)
{
    if (i >= res->manifest.n)
        return 0;
    const fsc_input_entry *e = &res->manifest.items[i];
    if (path)
        *path = e->path;
    if (member)
        *member = e->member;
    if (status)
        *status = fsc_input_status_name(e->status);
    if (runs)
        *runs = e->runs;
    if (error)
        *error = e->error;
    return 1;
}

/* The text of buffer b handed to the caller (NULL when memory ran out). */
static char *give(fsc_buf *b, size_t *len)
{
    if (b->oom || !b->data) {
        fsc_buf_free(b);
        return NULL;
    }
    if (len)
        *len = b->len;
    return b->data;
}

char *fioscope_result_json(const fioscope_result *res, unsigned flags, size_t *len)
{
    fsc_buf b = {0};
    fsc_jw w;
    fsc_json_opts o = {.damage = (flags & FIOSCOPE_JSON_DAMAGE) != 0};
    fsc_jw_init(&w, &b, (flags & FIOSCOPE_JSON_PRETTY) != 0, false);
    fsc_document_write(&w, &res->manifest, &res->set, &o, NULL, NULL);
    return give(&b, len);
}

void fioscope_result_free(fioscope_result *res)
{
    if (!res)
        return;
    fsc_runset_clear(&res->set);
    fsc_manifest_free(&res->manifest);
    free(res->error);
    free(res);
}

const char *fioscope_run_id(const fioscope_run *run)
{
    return run->id;
}

const char *fioscope_run_label(const fioscope_run *run)
{
    return run->label;
}

const char *fioscope_run_path(const fioscope_run *run)
{
    return run->source.path;
}

const char *fioscope_run_member(const fioscope_run *run)
{
    return run->source.member;
}

const char *fioscope_run_format(const fioscope_run *run)
{
    return fsc_format_name(run->source.format);
}

const char *fioscope_run_fio_version(const fioscope_run *run)
{
    return run->source.fio_version;
}

size_t fioscope_run_job_count(const fioscope_run *run)
{
    return run->n_jobs;
}

const char *fioscope_run_job_name(const fioscope_run *run, size_t j)
{
    return j < run->n_jobs ? (run->jobs[j].jobname ? run->jobs[j].jobname : "") : NULL;
}

const char *fioscope_run_job_option(const fioscope_run *run, size_t j, const char *key)
{
    return j < run->n_jobs && key ? fsc_job_option(&run->jobs[j], key) : NULL;
}

/* *out = num when it is set. */
static int take(fsc_num num, double *out)
{
    if (!num.set)
        return 0;
    *out = num.v;
    return 1;
}

/* "clat_ns.mean", "lat_ns.percentile.99.000000" inside a direction. */
static int lat_value(const fsc_dir *d, const char *p, double *out)
{
    for (int k = 0; k < FSC_LAT_COUNT; k++) {
        const char *kind = fsc_latkind_name((fsc_latkind)k);
        size_t kl = strlen(kind);
        if (strncmp(p, kind, kl) || p[kl] != '.')
            continue;
        const fsc_lat *l = &d->lat[k];
        const char *rest = p + kl + 1;
        const fsc_field *f = fsc_field_find(fsc_lat_fields, fsc_n_lat_fields, rest, strlen(rest));
        if (f)
            return take(*fsc_field_cptr(l, f), out);
        if (strncmp(rest, "percentile.", 11))
            return 0;
        for (size_t i = 0; i < l->n_percentile; i++) {
            char key[48];
            fsc_pct_key(key, sizeof key, l->percentile[i].pct);
            if (!strcmp(key, rest + 11)) {
                *out = l->percentile[i].ns;
                return 1;
            }
        }
        return 0;
    }
    return 0;
}

/* "iodepth_level.4", "latency_us.250": a bucket of a job. */
static int bucket_value(const fsc_job *job, const char *p, double *out)
{
    static const char *const names[] = {"iodepth_level", "iodepth_submit", "iodepth_complete",
                                        "latency_ns",    "latency_us",     "latency_ms"};
    const fsc_kvlist *lists[] = {&job->iodepth_level, &job->iodepth_submit, &job->iodepth_complete,
                                 &job->latency[FSC_BUCKET_NS], &job->latency[FSC_BUCKET_US],
                                 &job->latency[FSC_BUCKET_MS]};
    for (size_t i = 0; i < FSC_ARRAY_SIZE(names); i++) {
        size_t nl = strlen(names[i]);
        if (strncmp(p, names[i], nl) || p[nl] != '.')
            continue;
        const fsc_kv *kv = fsc_kvlist_get(lists[i], p + nl + 1);
        if (!kv)
            return 0;
        *out = kv->v;
        return 1;
    }
    return 0;
}

int fioscope_run_value(const fioscope_run *run, size_t j, const char *path, double *value)
{
    if (!run || j >= run->n_jobs || !path || !value)
        return 0;
    const fsc_job *job = &run->jobs[j];
    const fsc_field *f = fsc_field_find(fsc_job_fields, fsc_n_job_fields, path, strlen(path));
    if (f)
        return take(*fsc_field_cptr(job, f), value);
    const char *dot = strchr(path, '.');
    if (!dot)
        return 0;
    for (int d = 0; d < FSC_DIR_COUNT; d++) {
        const char *name = fsc_ddir_name((fsc_ddir)d);
        if (strlen(name) != (size_t)(dot - path) || strncmp(path, name, strlen(name)))
            continue;
        const fsc_dir *dir = &job->dir[d];
        if (!dir->present)
            return 0;
        f = fsc_field_find(fsc_dir_fields, fsc_n_dir_fields, dot + 1, strlen(dot + 1));
        return f ? take(*fsc_field_cptr(dir, f), value) : lat_value(dir, dot + 1, value);
    }
    return bucket_value(job, path, value);
}

char *fioscope_run_json(const fioscope_run *run, unsigned flags, size_t *len)
{
    fsc_buf b = {0};
    fsc_jw w;
    fsc_json_opts o = {.damage = (flags & FIOSCOPE_JSON_DAMAGE) != 0};
    fsc_jw_init(&w, &b, (flags & FIOSCOPE_JSON_PRETTY) != 0, false);
    fsc_model_write_run(&w, run, &o);
    return give(&b, len);
}

void fioscope_free(void *p)
{
    free(p);
}
