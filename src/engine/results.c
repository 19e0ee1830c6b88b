/* SPDX-License-Identifier: MIT */
/* The workers' measurements as an fsc_run: one job per clone (or per job with
 * group_reporting), fio's sums across clones, unified_rw_reporting's "mixed", and one
 * "Run status group" per group. */
#include "run_int.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


/* One reporting unit: a clone, or all clones of a job with group_reporting. */
typedef struct unit {
    wstats st; /* merged */
    worker *first;
    unsigned n;
    int error;
    const char *err_func, *err_text;
} unit;

/* fio's sum of bandwidth/IOPS stats across a reporting group: a pure sum. */
static void welford_sum(welford *dst, const welford *src)
{
    if (!src->n)
        return;
    dst->min += src->min;
    dst->max += src->max;
    dst->mean += src->mean;
    double var = fsc_welford_var(dst) + fsc_welford_var(src);
    dst->n += src->n;
    dst->m2 = dst->n > 1 ? var * (double)(dst->n - 1) : 0;
}

static void unit_add(unit *u, const worker *w)
{
    const wstats *s = w->st;
    wstats *d = &u->st;
    for (int r = 0; r < N_RW; r++) {
        for (int k = 0; k < FSC_LAT_COUNT; k++)
            fsc_histo_merge(&d->lat[r][k], &s->lat[r][k]);
        d->bytes[r] += s->bytes[r];
        d->ios[r] += s->ios[r];
        d->short_ios[r] += s->short_ios[r];
        welford_sum(&d->bw[r], &s->bw[r]);
        welford_sum(&d->iops[r], &s->iops[r]);
    }
    fsc_histo_merge(&d->sync_lat, &s->sync_lat);
    d->syncs += s->syncs;
    for (int i = 0; i < N_DEPTH; i++) {
        d->depth_map[i] += s->depth_map[i];
        d->submit_map[i] += s->submit_map[i];
        d->complete_map[i] += s->complete_map[i];
    }
    d->n_submit += s->n_submit;
    d->n_complete += s->n_complete;
    for (int i = 0; i < 10; i++) {
        d->lat_ns[i] += s->lat_ns[i];
        d->lat_us[i] += s->lat_us[i];
    }
    for (int i = 0; i < 12; i++)
        d->lat_ms[i] += s->lat_ms[i];
    if (s->runtime_ms > d->runtime_ms)
        d->runtime_ms = s->runtime_ms;
    d->usr_us += s->usr_us;
    d->sys_us += s->sys_us;
    d->ctx += s->ctx;
    d->majf += s->majf;
    d->minf += s->minf;
    if (!u->first)
        u->first = (worker *)w;
    if (w->error && !u->error) {
        u->error = w->error;
        u->err_func = w->err_func;
        u->err_text = w->err_text[0] ? w->err_text : NULL;
    }
    u->n++;
}

static bool bins_wanted;

static bool fill_lat(fsc_lat *l, const fsc_histo *h, const fsc_jobdef *def, bool pctls)
{
    l->min = fsc_num_of((double)h->min);
    l->max = fsc_num_of((double)h->max);
    l->mean = fsc_num_of(h->mean);
    l->stddev = fsc_num_of(fsc_histo_stddev(h));
    l->N = fsc_num_of((double)h->n);
    if (!pctls)
        return true;
    uint64_t vals[FSC_MAX_PCTS];
    fsc_histo_percentiles(h, def->pcts, def->n_pcts, vals);
    for (size_t i = 0; i < def->n_pcts; i++)
        if (!fsc_lat_add_pctl(l, def->pcts[i], (double)vals[i]))
            return false;
    /* json+: fio writes the histogram of every latency that has percentiles */
    for (size_t i = 0; bins_wanted && i < FSC_HISTO_NR; i++)
        if (h->bins[i] && !fsc_lat_add_bin(l, (double)fsc_histo_value(i), (double)h->bins[i]))
            return false;
    return true;
}

static bool fill_dir(fsc_dir *dir, const wstats *s, int d, const fsc_jobdef *def, bool async)
{
    uint64_t runt = s->runtime_ms ? s->runtime_ms : 1;
    uint64_t bw_bytes = s->bytes[d] * 1000 / runt;
    dir->present = true;
    dir->io_bytes = fsc_num_of((double)s->bytes[d]);
    dir->bw_bytes = fsc_num_of((double)bw_bytes);
    dir->bw = fsc_num_of((double)(bw_bytes / 1024));
    dir->iops = fsc_num_of(1000.0 * (double)s->ios[d] / (double)runt);
    dir->runtime = fsc_num_of((double)s->runtime_ms);
    dir->total_ios = fsc_num_of((double)s->ios[d]);
    dir->short_ios = fsc_num_of((double)s->short_ios[d]);
    dir->drop_ios = fsc_num_of(0);
    if (d == FSC_DIR_WRITE)
        dir->zone_resets = fsc_num_of(0);
    if (async && !fill_lat(&dir->lat[FSC_LAT_SLAT], &s->lat[d][FSC_LAT_SLAT], def, def->slat_percentiles))
        return false;
    if (!fill_lat(&dir->lat[FSC_LAT_CLAT], &s->lat[d][FSC_LAT_CLAT], def, def->clat_percentiles) ||
        !fill_lat(&dir->lat[FSC_LAT_LAT], &s->lat[d][FSC_LAT_LAT], def, def->lat_percentiles))
        return false;
    if (s->bw[d].n) {
        dir->bw_min = fsc_num_of(s->bw[d].min);
        dir->bw_max = fsc_num_of(s->bw[d].max);
        dir->bw_mean = fsc_num_of(s->bw[d].mean);
        dir->bw_dev = fsc_num_of(sqrt(fsc_welford_var(&s->bw[d])));
        dir->bw_samples = fsc_num_of((double)s->bw[d].n);
        dir->iops_min = fsc_num_of(s->iops[d].min);
        dir->iops_max = fsc_num_of(s->iops[d].max);
        dir->iops_mean = fsc_num_of(s->iops[d].mean);
        dir->iops_stddev = fsc_num_of(sqrt(fsc_welford_var(&s->iops[d])));
        dir->iops_samples = fsc_num_of((double)s->iops[d].n);
    }
    return true;
}

/* fio's percentage of a distribution: non-zero entries below the floor show the floor. */
static double dist_pct(uint64_t count, uint64_t total, double floor)
{
    if (!total)
        return 0;
    double p = (double)count * 100.0 / (double)total;
    return (count && p < floor) ? floor : p;
}

static bool fill_dists(fsc_job *job, const wstats *s)
{
    static const char *const depth_keys[] = {"1", "2", "4", "8", "16", "32", ">=64"};
    static const char *const batch_keys[] = {"0", "4", "8", "16", "32", "64", ">=64"};
    static const char *const lat_keys[] = {"2", "4", "10", "20", "50", "100", "250", "500", "750", "1000",
                                           "2000", ">=2000"};
    uint64_t total = s->ios[0] + s->ios[1];
    bool ok = true;
    for (int i = 0; i < N_DEPTH; i++) {
        ok &= fsc_kvlist_set(&job->iodepth_level, depth_keys[i], dist_pct(s->depth_map[i], total, 0.1));
        ok &= fsc_kvlist_set(&job->iodepth_submit, batch_keys[i], dist_pct(s->submit_map[i], s->n_submit, 0.1));
        ok &= fsc_kvlist_set(&job->iodepth_complete, batch_keys[i],
                             dist_pct(s->complete_map[i], s->n_complete, 0.1));
    }
    for (int i = 0; i < 10; i++) {
        ok &= fsc_kvlist_set(&job->latency[FSC_BUCKET_NS], lat_keys[i], dist_pct(s->lat_ns[i], total, 0.01));
        ok &= fsc_kvlist_set(&job->latency[FSC_BUCKET_US], lat_keys[i], dist_pct(s->lat_us[i], total, 0.01));
    }
    for (int i = 0; i < 12; i++)
        ok &= fsc_kvlist_set(&job->latency[FSC_BUCKET_MS], lat_keys[i], dist_pct(s->lat_ms[i], total, 0.01));
    return ok;
}

static bool fill_job(fsc_job *job, const unit *u)
{
    const worker *w = u->first;
    const fsc_jobdef *def = w->def;
    const wstats *s = &u->st;
    job->jobname = fsc_strdup(def->name);
    if (!job->jobname || (def->description && !(job->description = fsc_strdup(def->description))))
        return false;
    job->groupid = fsc_num_of(w->groupid);
    job->error = fsc_num_of(u->error);
    if (u->error) {
        char text[256];
        const char *path = w->n_files && w->files[0].df ? w->files[0].df->path : "null";
        if (u->err_text)
            snprintf(text, sizeof text, "%s, func=%s, error=%s", u->err_text, u->err_func, strerror(u->error));
        else
            snprintf(text, sizeof text, "file:%s, func=%s, error=%s", path, u->err_func, strerror(u->error));
        if (!(job->error_text = fsc_strdup(text)))
            return false;
    }
    job->pid = fsc_num_of((double)w->tid);
    job->jobs = fsc_num_of(u->n);
    job->job_runtime = fsc_num_of((double)s->runtime_ms);
    for (size_t i = 0; i < def->n_given; i++)
        if (!fsc_job_set_option(job, def->given[i].key, def->given[i].val))
            return false;
    /* the header line shows these four whether given or not; the JSON agrees with it */
    char bs[32], depth[16];
    fsc_num2str(bs, sizeof bs, def->bs, 4, true, "B");
    snprintf(depth, sizeof depth, "%u", def->iodepth);
    if ((!fsc_job_option(job, "rw") && !fsc_job_set_option(job, "rw", def->rw_text)) ||
        (!fsc_job_option(job, "bs") && !fsc_job_set_option(job, "bs", bs)) ||
        (!fsc_job_option(job, "ioengine") && !fsc_job_set_option(job, "ioengine", def->ioengine)) ||
        (!fsc_job_option(job, "iodepth") && !fsc_job_set_option(job, "iodepth", depth)))
        return false;
    if (def->unified_rw != FSC_UNIFIED_MIXED)
        for (int d = 0; d < N_RW; d++)
            if (s->ios[d] && !fill_dir(&job->dir[d], s, d, def, !w->ops->sync))
                return false;
    if (def->unified_rw != FSC_UNIFIED_NONE && (s->ios[0] || s->ios[1])) {
        /* fio's "mixed": reads and writes summed into one direction */
        wstats *m = malloc(sizeof *m);
        if (!m)
            return false;
        memcpy(m, s, sizeof *m);
        for (int k = 0; k < FSC_LAT_COUNT; k++)
            fsc_histo_merge(&m->lat[0][k], &s->lat[1][k]);
        m->bytes[0] += s->bytes[1];
        m->ios[0] += s->ios[1];
        m->short_ios[0] += s->short_ios[1];
        welford_sum(&m->bw[0], &s->bw[1]);
        welford_sum(&m->iops[0], &s->iops[1]);
        bool ok = fill_dir(&job->dir[FSC_DIR_MIXED], m, 0, def, !w->ops->sync);
        free(m);
        if (!ok)
            return false;
    }
    if (s->syncs) {
        fsc_dir *sd = &job->dir[FSC_DIR_SYNC];
        sd->present = true;
        sd->total_ios = fsc_num_of((double)s->syncs);
        if (!fill_lat(&sd->lat[FSC_LAT_LAT], &s->sync_lat, def, true))
            return false;
    }
    /* fio: CPU time over the summed thread runtimes */
    double runt = (double)(s->runtime_ms ? s->runtime_ms : 1) * u->n;
    job->usr_cpu = fsc_num_of((double)s->usr_us / 1000.0 * 100.0 / runt);
    job->sys_cpu = fsc_num_of((double)s->sys_us / 1000.0 * 100.0 / runt);
    job->ctx = fsc_num_of((double)s->ctx);
    job->majf = fsc_num_of((double)s->majf);
    job->minf = fsc_num_of((double)s->minf);
    job->latency_depth = fsc_num_of(def->iodepth);
    job->latency_target = fsc_num_of(0);
    job->latency_window = fsc_num_of(0);
    job->latency_percentile = fsc_num_of(100);
    return fill_dists(job, s);
}

/* One "Run status group" and every job's per= share of it. */
static bool fill_group(fsc_run *run, unsigned gid, size_t first_job)
{
    fsc_group *g = fsc_run_add_group(run);
    if (!g)
        return false;
    g->groupid = fsc_num_of(gid);
    static const int gdirs[] = {FSC_DIR_READ, FSC_DIR_WRITE, FSC_DIR_MIXED};
    for (size_t gi = 0; gi < FSC_ARRAY_SIZE(gdirs); gi++) {
        int d = gdirs[gi];
        double io = 0, rmin = 0, rmax = 0, bmin = 0, bmax = 0;
        size_t n = 0;
        for (size_t j = first_job; j < run->n_jobs; j++) {
            const fsc_dir *jd = &run->jobs[j].dir[d];
            if (!jd->present)
                continue;
            double rt = jd->runtime.v, bw = jd->bw_bytes.v;
            io += jd->io_bytes.v;
            rmin = n == 0 || rt < rmin ? rt : rmin;
            rmax = rt > rmax ? rt : rmax;
            bmin = n == 0 || bw < bmin ? bw : bmin;
            bmax = bw > bmax ? bw : bmax;
            n++;
        }
        if (!n)
            continue;
        fsc_group_dir *gd = &g->dir[d];
        uint64_t agg = (uint64_t)io * 1000 / (uint64_t)(rmax > 0 ? rmax : 1);
        gd->present = true;
        gd->bw_bytes = fsc_num_of((double)agg);
        gd->bw_min_bytes = fsc_num_of(bmin);
        gd->bw_max_bytes = fsc_num_of(bmax);
        gd->io_bytes = fsc_num_of(io);
        gd->runtime_min = fsc_num_of(rmin);
        gd->runtime_max = fsc_num_of(rmax);
        for (size_t j = first_job; j < run->n_jobs; j++) {
            fsc_dir *jd = &run->jobs[j].dir[d];
            if (!jd->present || !jd->bw_mean.set)
                continue;
            double per = agg / 1024 ? jd->bw_mean.v * 100.0 / (double)(agg / 1024) : 100.0;
            jd->bw_agg = fsc_num_of(per > 100.0 ? 100.0 : per);
        }
    }
    return true;
}

bool fsc_collect_group(fsc_run *run, worker *ws, size_t n, unsigned gid, bool bins)
{
    bins_wanted = bins;
    size_t first_job = run->n_jobs;
    unit *u = malloc(sizeof *u);
    if (!u)
        return false;
    bool ok = true;
    for (size_t i = 0; ok && i < n;) {
        /* all clones of a job sit next to each other */
        size_t end = i + 1;
        while (end < n && ws[end].def == ws[i].def)
            end++;
        bool grouped = ws[i].def->group_reporting;
        for (size_t k = i; ok && k < end; k++) {
            if (k == i || !grouped)
                memset(u, 0, sizeof *u);
            unit_add(u, &ws[k]);
            if (grouped && k + 1 < end)
                continue;
            fsc_job *job = fsc_run_add_job(run);
            ok = job && fill_job(job, u);
        }
        i = end;
    }
    free(u);
    return ok && fill_group(run, gid, first_job);
}

