/* SPDX-License-Identifier: MIT */
/* fsc_run -> fio 3.33's own JSON / json+ (key order, layout " : ", floats as %f) and
 * terse version 3, so that fio-plot, ezfio, cbt and fioscope itself read the engine's
 * results as they read fio's. */
#include "fioscope/engine.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

/* ---- a writer with fio's layout ---- */

typedef struct jw {
    fsc_buf *out;
    int level;
    bool first[32];
} jw;

static void indent(jw *w)
{
    for (int i = 0; i < w->level; i++)
        fsc_buf_puts(w->out, "  ");
}

static void put_str(fsc_buf *b, const char *s)
{
    fsc_buf_putc(b, '"');
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\')
            fsc_buf_printf(b, "\\%c", *p);
        else if (*p < 0x20)
            fsc_buf_printf(b, "\\u%04x", *p);
        else
            fsc_buf_putc(b, (char)*p);
    }
    fsc_buf_putc(b, '"');
}

static void key(jw *w, const char *k)
{
    if (!w->first[w->level])
        fsc_buf_puts(w->out, ",\n");
    w->first[w->level] = false;
    indent(w);
    put_str(w->out, k);
    fsc_buf_puts(w->out, " : ");
}

static void open_obj(jw *w)
{
    fsc_buf_puts(w->out, "{\n");
    w->level++;
    w->first[w->level] = true;
}

static void close_obj(jw *w)
{
    fsc_buf_putc(w->out, '\n');
    w->level--;
    indent(w);
    fsc_buf_putc(w->out, '}');
}

static void kv_int(jw *w, const char *k, fsc_num n)
{
    key(w, k);
    fsc_buf_printf(w->out, "%lld", n.set ? (long long)(n.v + (n.v < 0 ? -0.5 : 0.5)) : 0LL);
}

static void kv_float(jw *w, const char *k, fsc_num n)
{
    key(w, k);
    fsc_buf_printf(w->out, "%f", n.set ? n.v : 0.0);
}

static void kv_str(jw *w, const char *k, const char *v)
{
    key(w, k);
    put_str(w->out, v ? v : "");
}

static void kv_obj(jw *w, const char *k)
{
    key(w, k);
    open_obj(w);
}

/* ---- pieces ---- */

static void lat_obj(jw *w, const char *name, const fsc_lat *l, bool plus)
{
    kv_obj(w, name);
    kv_int(w, "min", l->min);
    kv_int(w, "max", l->max);
    kv_float(w, "mean", l->mean);
    kv_float(w, "stddev", l->stddev);
    kv_int(w, "N", l->N);
    if (l->n_percentile && l->N.v > 0) {
        kv_obj(w, "percentile");
        for (size_t i = 0; i < l->n_percentile; i++) {
            char k[32];
            snprintf(k, sizeof k, "%f", l->percentile[i].pct);
            kv_int(w, k, fsc_num_of(l->percentile[i].ns));
        }
        close_obj(w);
        if (plus) {
            kv_obj(w, "bins");
            for (size_t i = 0; i < l->n_bins; i++) {
                char k[32];
                snprintf(k, sizeof k, "%.0f", l->bins[i].ns);
                kv_int(w, k, fsc_num_of(l->bins[i].count));
            }
            close_obj(w);
        }
    }
    close_obj(w);
}

static void dir_obj(jw *w, const char *name, const fsc_dir *d, bool plus)
{
    kv_obj(w, name);
    fsc_num kb = fsc_num_of(d->io_bytes.set ? (double)((uint64_t)d->io_bytes.v >> 10) : 0);
    kv_int(w, "io_bytes", d->io_bytes);
    kv_int(w, "io_kbytes", kb);
    kv_int(w, "bw_bytes", d->bw_bytes);
    kv_int(w, "bw", d->bw);
    kv_float(w, "iops", d->iops);
    kv_int(w, "runtime", d->runtime);
    kv_int(w, "total_ios", d->total_ios);
    kv_int(w, "short_ios", d->short_ios);
    kv_int(w, "drop_ios", d->drop_ios);
    lat_obj(w, "slat_ns", &d->lat[FSC_LAT_SLAT], plus);
    lat_obj(w, "clat_ns", &d->lat[FSC_LAT_CLAT], plus);
    lat_obj(w, "lat_ns", &d->lat[FSC_LAT_LAT], plus);
    kv_int(w, "bw_min", d->bw_min);
    kv_int(w, "bw_max", d->bw_max);
    kv_float(w, "bw_agg", d->bw_agg);
    kv_float(w, "bw_mean", d->bw_mean);
    kv_float(w, "bw_dev", d->bw_dev);
    kv_int(w, "bw_samples", d->bw_samples);
    kv_int(w, "iops_min", d->iops_min);
    kv_int(w, "iops_max", d->iops_max);
    kv_float(w, "iops_mean", d->iops_mean);
    kv_float(w, "iops_stddev", d->iops_stddev);
    kv_int(w, "iops_samples", d->iops_samples);
    close_obj(w);
}

static void kvlist_obj(jw *w, const char *name, const fsc_kvlist *l)
{
    kv_obj(w, name);
    for (size_t i = 0; i < l->n; i++)
        kv_float(w, l->items[i].key, fsc_num_of(l->items[i].v));
    close_obj(w);
}

/* The definition a job of the run came from: clones follow each other in the run in
 * the order of the set. */
static const fsc_jobdef *def_of(const fsc_jobset *js, size_t *cursor, const char *name)
{
    for (size_t i = *cursor; js && i < js->n_jobs; i++)
        if (!strcmp(js->jobs[i].name, name)) {
            *cursor = i;
            return &js->jobs[i];
        }
    return NULL;
}

static bool inherited(const fsc_jobdef *global, const fsc_opt *o)
{
    for (size_t g = 0; g < global->n_given; g++)
        if (!strcmp(global->given[g].key, o->key) && !strcmp(global->given[g].val, o->val))
            return true;
    return false;
}

/* fio lists the options given with a value; flags (time_based) and a job file's
 * section name are not in it. */
static bool listed(const fsc_jobdef *def, const fsc_jobdef *global, const fsc_opt *o)
{
    if (!o->val[0] || (global && inherited(global, o)))
        return false;
    return !(def->src_file && !strcmp(o->key, "name"));
}

static void opts_obj(jw *w, const char *name, const fsc_jobdef *def, const fsc_jobdef *global)
{
    size_t n = 0;
    for (size_t i = 0; i < def->n_given; i++)
        n += listed(def, global, &def->given[i]);
    if (!n)
        return;
    kv_obj(w, name);
    for (size_t i = 0; i < def->n_given; i++)
        if (listed(def, global, &def->given[i]))
            kv_str(w, def->given[i].key, def->given[i].val);
    close_obj(w);
}

static void job_obj(jw *w, const fsc_job *job, const fsc_jobdef *def, const fsc_jobset *js, bool plus,
                    uint64_t elapsed_s)
{
    open_obj(w);
    kv_str(w, "jobname", job->jobname);
    kv_int(w, "groupid", job->groupid);
    kv_int(w, "error", job->error);
    kv_int(w, "eta", fsc_num_of(0));
    kv_int(w, "elapsed", fsc_num_of((double)elapsed_s));
    if (def)
        opts_obj(w, "job options", def, &js->global);
    if (job->dir[FSC_DIR_MIXED].present && !job->dir[FSC_DIR_READ].present && !job->dir[FSC_DIR_WRITE].present) {
        /* unified_rw_reporting=mixed: one "mixed" object and nothing else */
        dir_obj(w, "mixed", &job->dir[FSC_DIR_MIXED], plus);
    } else {
        static const fsc_ddir dirs[] = {FSC_DIR_READ, FSC_DIR_WRITE, FSC_DIR_TRIM};
        for (size_t i = 0; i < FSC_ARRAY_SIZE(dirs); i++)
            dir_obj(w, fsc_ddir_name(dirs[i]), &job->dir[dirs[i]], plus);
        const fsc_dir *sync = &job->dir[FSC_DIR_SYNC];
        kv_obj(w, "sync");
        kv_int(w, "total_ios", sync->total_ios);
        lat_obj(w, "lat_ns", &sync->lat[FSC_LAT_LAT], plus);
        close_obj(w);
        if (job->dir[FSC_DIR_MIXED].present)
            dir_obj(w, "mixed", &job->dir[FSC_DIR_MIXED], plus);
    }
    kv_int(w, "job_runtime", job->job_runtime);
    kv_float(w, "usr_cpu", job->usr_cpu);
    kv_float(w, "sys_cpu", job->sys_cpu);
    kv_int(w, "ctx", job->ctx);
    kv_int(w, "majf", job->majf);
    kv_int(w, "minf", job->minf);
    kvlist_obj(w, "iodepth_level", &job->iodepth_level);
    kvlist_obj(w, "iodepth_submit", &job->iodepth_submit);
    kvlist_obj(w, "iodepth_complete", &job->iodepth_complete);
    kvlist_obj(w, "latency_ns", &job->latency[FSC_BUCKET_NS]);
    kvlist_obj(w, "latency_us", &job->latency[FSC_BUCKET_US]);
    kvlist_obj(w, "latency_ms", &job->latency[FSC_BUCKET_MS]);
    kv_int(w, "latency_depth", job->latency_depth);
    kv_int(w, "latency_target", job->latency_target);
    kv_float(w, "latency_percentile", job->latency_percentile);
    kv_int(w, "latency_window", job->latency_window);
    if (job->description)
        kv_str(w, "desc", job->description);
    close_obj(w);
}

static void disk_obj(jw *w, const fsc_disk *d)
{
    open_obj(w);
    kv_str(w, "name", d->name);
    kv_int(w, "read_ios", d->read_ios);
    kv_int(w, "write_ios", d->write_ios);
    kv_int(w, "read_merges", d->read_merges);
    kv_int(w, "write_merges", d->write_merges);
    kv_int(w, "read_ticks", d->read_ticks);
    kv_int(w, "write_ticks", d->write_ticks);
    kv_int(w, "in_queue", d->in_queue);
    kv_float(w, "util", d->util);
    if (d->n_members) {
        kv_int(w, "aggr_read_ios", d->aggr_read_ios);
        kv_int(w, "aggr_write_ios", d->aggr_write_ios);
        kv_int(w, "aggr_read_merges", d->aggr_read_merges);
        kv_int(w, "aggr_write_merge", d->aggr_write_merge);
        kv_int(w, "aggr_read_ticks", d->aggr_read_ticks);
        kv_int(w, "aggr_write_ticks", d->aggr_write_ticks);
        kv_int(w, "aggr_in_queue", d->aggr_in_queue);
        kv_float(w, "aggr_util", d->aggr_util);
    }
    close_obj(w);
}

static uint64_t elapsed_of(const fsc_run *run)
{
    double ms = 0;
    for (size_t i = 0; i < run->n_jobs; i++)
        ms = run->jobs[i].job_runtime.v > ms ? run->jobs[i].job_runtime.v : ms;
    return (uint64_t)(ms / 1000.0 + 0.999);
}

void fsc_fio_json_write(fsc_buf *out, const fsc_run *run, const fsc_jobset *js, bool plus, int64_t now_ms)
{
    jw w = {.out = out};
    time_t sec = (time_t)(now_ms / 1000);
    char when[64] = "";
    struct tm tm;
    if (localtime_r(&sec, &tm))
        strftime(when, sizeof when, "%a %b %e %H:%M:%S %Y", &tm);
    open_obj(&w);
    kv_str(&w, "fio version", run->source.fio_version);
    kv_int(&w, "timestamp", fsc_num_of((double)sec));
    kv_int(&w, "timestamp_ms", fsc_num_of((double)now_ms));
    kv_str(&w, "time", when);
    if (js)
        opts_obj(&w, "global options", &js->global, NULL);
    key(&w, "jobs");
    fsc_buf_puts(out, "[\n");
    w.level++;
    size_t cursor = 0;
    uint64_t elapsed = elapsed_of(run);
    for (size_t i = 0; i < run->n_jobs; i++) {
        if (i)
            fsc_buf_puts(out, ",\n");
        indent(&w);
        job_obj(&w, &run->jobs[i], def_of(js, &cursor, run->jobs[i].jobname), js, plus, elapsed);
    }
    fsc_buf_putc(out, '\n');
    w.level--;
    indent(&w);
    fsc_buf_putc(out, ']');
    if (run->n_disk_util) {
        key(&w, "disk_util");
        fsc_buf_puts(out, "[\n");
        w.level++;
        for (size_t i = 0; i < run->n_disk_util; i++) {
            if (i)
                fsc_buf_puts(out, ",\n");
            indent(&w);
            disk_obj(&w, &run->disk_util[i]);
        }
        fsc_buf_putc(out, '\n');
        w.level--;
        indent(&w);
        fsc_buf_putc(out, ']');
    }
    close_obj(&w);
    fsc_buf_putc(out, '\n');
}

/* ---- terse, version 3 ---- */

static uint64_t u(fsc_num n)
{
    return n.set && n.v > 0 ? (uint64_t)(n.v + 0.5) : 0;
}

static void terse_lat(fsc_buf *b, const fsc_lat *l)
{
    if (l->N.v > 0)
        fsc_buf_printf(b, ";%" PRIu64 ";%" PRIu64 ";%f;%f", u(l->min) / 1000, u(l->max) / 1000, l->mean.v / 1000,
                       l->stddev.v / 1000);
    else
        fsc_buf_puts(b, ";0;0;0.000000;0.000000");
}

static void terse_dir(fsc_buf *b, const fsc_dir *d, const fsc_jobdef *def)
{
    uint64_t runt = u(d->runtime);
    uint64_t bw = runt ? u(d->io_bytes) * 1000 / runt / 1024 : 0, iops = runt ? u(d->total_ios) * 1000 / runt : 0;
    fsc_buf_printf(b, ";%" PRIu64 ";%" PRIu64 ";%" PRIu64 ";%" PRIu64, u(d->io_bytes) >> 10, bw, iops, runt);
    terse_lat(b, &d->lat[FSC_LAT_SLAT]);
    terse_lat(b, &d->lat[FSC_LAT_CLAT]);
    const fsc_lat *p = d->lat[FSC_LAT_LAT].n_percentile ? &d->lat[FSC_LAT_LAT] : &d->lat[FSC_LAT_CLAT];
    size_t n = p->n_percentile;
    const double *list = def ? def->pcts : NULL;
    size_t n_list = def ? def->n_pcts : 0;
    bool pctls = def ? def->clat_percentiles || def->lat_percentiles : n > 0;
    for (size_t i = 0; i < FSC_MAX_PCTS; i++) {
        if (i < n)
            fsc_buf_printf(b, ";%f%%=%" PRIu64, p->percentile[i].pct, (uint64_t)p->percentile[i].ns / 1000);
        else if (pctls && !n && i < n_list)
            fsc_buf_printf(b, ";%f%%=0", list[i]);
        else
            fsc_buf_puts(b, ";0%=0");
    }
    terse_lat(b, &d->lat[FSC_LAT_LAT]);
    if (d->bw_samples.v > 0)
        fsc_buf_printf(b, ";%" PRIu64 ";%" PRIu64 ";%f%%;%f;%f", u(d->bw_min), u(d->bw_max),
                       d->bw_agg.set ? d->bw_agg.v : 100.0, d->bw_mean.v, d->bw_dev.v);
    else
        fsc_buf_puts(b, ";0;0;0.000000%;0.000000;0.000000");
}

void fsc_fio_terse_write(fsc_buf *out, const fsc_run *run, const fsc_jobset *js)
{
    size_t cursor = 0;
    fsc_dir empty;
    memset(&empty, 0, sizeof empty);
    for (size_t i = 0; i < run->n_jobs; i++) {
        const fsc_job *job = &run->jobs[i];
        const fsc_jobdef *def = def_of(js, &cursor, job->jobname);
        fsc_buf_printf(out, "3;%s;%s;%" PRIu64 ";%" PRIu64, run->source.fio_version, job->jobname, u(job->groupid),
                       u(job->error));
        bool mixed_only = job->dir[FSC_DIR_MIXED].present && !job->dir[FSC_DIR_READ].present &&
                          !job->dir[FSC_DIR_WRITE].present;
        if (mixed_only) {
            terse_dir(out, &job->dir[FSC_DIR_MIXED], def);
        } else {
            terse_dir(out, job->dir[FSC_DIR_READ].present ? &job->dir[FSC_DIR_READ] : &empty, def);
            terse_dir(out, job->dir[FSC_DIR_WRITE].present ? &job->dir[FSC_DIR_WRITE] : &empty, def);
            if (job->dir[FSC_DIR_MIXED].present)
                terse_dir(out, &job->dir[FSC_DIR_MIXED], def);
        }
        fsc_buf_printf(out, ";%f%%;%f%%;%" PRIu64 ";%" PRIu64 ";%" PRIu64, job->usr_cpu.v, job->sys_cpu.v,
                       u(job->ctx), u(job->majf), u(job->minf));
        for (size_t k = 0; k < job->iodepth_level.n; k++)
            fsc_buf_printf(out, ";%3.1f%%", job->iodepth_level.items[k].v);
        /* fio folds the nanosecond buckets into the first microsecond one */
        double ns_total = 0;
        for (size_t k = 0; k < job->latency[FSC_BUCKET_NS].n; k++)
            ns_total += job->latency[FSC_BUCKET_NS].items[k].v;
        const fsc_kvlist *us = &job->latency[FSC_BUCKET_US];
        for (size_t k = 0; k < us->n; k++)
            fsc_buf_printf(out, ";%3.2f%%", us->items[k].v + (k == 0 ? ns_total : 0));
        const fsc_kvlist *ms = &job->latency[FSC_BUCKET_MS];
        for (size_t k = 0; k < ms->n; k++)
            fsc_buf_printf(out, ";%3.2f%%", ms->items[k].v);
        for (size_t k = 0; k < run->n_disk_util && k < 1; k++) {
            const fsc_disk *d = &run->disk_util[k];
            fsc_buf_printf(out, ";%s;%" PRIu64 ";%" PRIu64 ";%" PRIu64 ";%" PRIu64 ";%" PRIu64 ";%" PRIu64
                                ";%" PRIu64 ";%3.2f%%",
                           d->name, u(d->read_ios), u(d->write_ios), u(d->read_merges), u(d->write_merges),
                           u(d->read_ticks), u(d->write_ticks), u(d->in_queue), d->util.v);
        }
        if (job->description)
            fsc_buf_printf(out, ";%s", job->description);
        fsc_buf_putc(out, '\n');
    }
}
