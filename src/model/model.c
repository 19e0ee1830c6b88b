/* SPDX-License-Identifier: MIT */
/* Construction, destruction and field descriptors of the run model. */
#include "fioscope/model.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static const char *const ddir_names[FSC_DIR_COUNT] = {"read", "write", "trim", "sync", "mixed"};

const char *fsc_ddir_name(fsc_ddir d)
{
    return (unsigned)d < FSC_DIR_COUNT ? ddir_names[d] : "?";
}

int fsc_ddir_from_name(const char *s, size_t n)
{
    for (int i = 0; i < FSC_DIR_COUNT; i++)
        if (strlen(ddir_names[i]) == n && strncasecmp(ddir_names[i], s, n) == 0)
            return i;
    return -1;
}

const char *fsc_latkind_name(fsc_latkind k)
{
    static const char *const names[] = {"slat_ns", "clat_ns", "lat_ns"};
    return (unsigned)k < FSC_LAT_COUNT ? names[k] : "?";
}

const char *fsc_format_name(fsc_format f)
{
    static const char *const names[] = {"normal", "json", "terse", "engine"};
    return (unsigned)f < FSC_FMT_COUNT ? names[f] : "?";
}

bool fsc_kvlist_set(fsc_kvlist *l, const char *key, double v)
{
    for (size_t i = 0; i < l->n; i++)
        if (strcmp(l->items[i].key, key) == 0) {
            l->items[i].v = v;
            return true;
        }
    fsc_kv *kv = FSC_PUSH(l->items, l->n, l->cap);
    if (!kv)
        return false;
    size_t k = strlen(key); /* snprintf("%s") without its cost: truncated, terminated */
    k = k < sizeof kv->key - 1 ? k : sizeof kv->key - 1;
    memcpy(kv->key, key, k);
    kv->key[k] = '\0';
    kv->v = v;
    return true;
}

const fsc_kv *fsc_kvlist_get(const fsc_kvlist *l, const char *key)
{
    for (size_t i = 0; i < l->n; i++)
        if (strcmp(l->items[i].key, key) == 0)
            return &l->items[i];
    return NULL;
}

fsc_run *fsc_run_new(void)
{
    return calloc(1, sizeof(fsc_run));
}

static void lat_free(fsc_lat *l)
{
    free(l->percentile);
    free(l->bins);
}

static void job_free(fsc_job *j)
{
    free(j->jobname);
    free(j->hostname);
    free(j->description);
    free(j->error_text);
    for (size_t i = 0; i < j->n_options; i++) {
        free(j->options[i].key);
        free(j->options[i].val);
    }
    free(j->options);
    for (int d = 0; d < FSC_DIR_COUNT; d++)
        for (int k = 0; k < FSC_LAT_COUNT; k++)
            lat_free(&j->dir[d].lat[k]);
    free(j->iodepth_level.items);
    free(j->iodepth_submit.items);
    free(j->iodepth_complete.items);
    for (int b = 0; b < FSC_BUCKET_COUNT; b++)
        free(j->latency[b].items);
}

void fsc_run_keep_jobs(fsc_run *run, const bool *keep)
{
    size_t k = 0;
    for (size_t i = 0; i < run->n_jobs; i++) {
        if (keep[i])
            run->jobs[k++] = run->jobs[i];
        else
            job_free(&run->jobs[i]);
    }
    run->n_jobs = k;
}

void fsc_run_free(fsc_run *run)
{
    if (!run)
        return;
    free(run->id);
    free(run->label);
    free(run->source.path);
    free(run->source.member);
    free(run->source.fio_version);
    free(run->source.host);
    for (size_t i = 0; i < run->n_context; i++)
        free(run->context[i]);
    free(run->context);
    free(run->command);
    for (size_t i = 0; i < run->n_jobs; i++)
        job_free(&run->jobs[i]);
    free(run->jobs);
    for (size_t i = 0; i < run->n_global_options; i++) {
        free(run->global_options[i].key);
        free(run->global_options[i].val);
    }
    free(run->global_options);
    for (size_t i = 0; i < run->n_groups; i++)
        free(run->groups[i].hostname);
    free(run->groups);
    for (size_t i = 0; i < run->n_disk_util; i++) {
        fsc_disk *d = &run->disk_util[i];
        free(d->name);
        free(d->parent);
        for (size_t m = 0; m < d->n_members; m++)
            free(d->members[m]);
        free(d->members);
    }
    free(run->disk_util);
    for (size_t i = 0; i < run->n_warnings; i++)
        free(run->warnings[i].message);
    free(run->warnings);
    free(run->unknown_lines);
    free(run);
}

fsc_job *fsc_run_add_job(fsc_run *run)
{
    return FSC_PUSH(run->jobs, run->n_jobs, run->cap_jobs);
}

fsc_group *fsc_run_add_group(fsc_run *run)
{
    return FSC_PUSH(run->groups, run->n_groups, run->cap_groups);
}

fsc_disk *fsc_run_add_disk(fsc_run *run)
{
    return FSC_PUSH(run->disk_util, run->n_disk_util, run->cap_disk_util);
}

bool fsc_run_warn(fsc_run *run, uint32_t line, const char *fmt, ...)
{
    char tmp[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    char *msg = fsc_strdup(tmp);
    if (!msg)
        return false;
    fsc_warning *w = FSC_PUSH(run->warnings, run->n_warnings, run->cap_warnings);
    if (!w) {
        free(msg);
        return false;
    }
    w->line = line;
    w->message = msg;
    return true;
}

bool fsc_run_add_context(fsc_run *run, const char *text)
{
    char *s = fsc_strdup(text);
    if (!s)
        return false;
    char **slot = FSC_PUSH(run->context, run->n_context, run->cap_context);
    if (!slot) {
        free(s);
        return false;
    }
    *slot = s;
    return true;
}

/* Set or replace key in an option list. */
static bool opts_set(fsc_opt **opts, size_t *n, size_t *cap, const char *key, const char *val)
{
    char *v = fsc_strdup(val);
    if (!v)
        return false;
    for (size_t i = 0; i < *n; i++)
        if (strcmp((*opts)[i].key, key) == 0) {
            free((*opts)[i].val);
            (*opts)[i].val = v;
            return true;
        }
    char *k = fsc_strdup(key);
    fsc_opt *o = k ? FSC_PUSH(*opts, *n, *cap) : NULL;
    if (!o) {
        free(k);
        free(v);
        return false;
    }
    o->key = k;
    o->val = v;
    return true;
}

static const char *opts_get(const fsc_opt *opts, size_t n, const char *key)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(opts[i].key, key) == 0)
            return opts[i].val;
    return NULL;
}

bool fsc_job_set_option(fsc_job *job, const char *key, const char *val)
{
    return opts_set(&job->options, &job->n_options, &job->cap_options, key, val);
}

const char *fsc_job_option(const fsc_job *job, const char *key)
{
    return opts_get(job->options, job->n_options, key);
}

bool fsc_run_set_global_option(fsc_run *run, const char *key, const char *val)
{
    return opts_set(&run->global_options, &run->n_global_options, &run->cap_global_options, key, val);
}

const char *fsc_run_global_option(const fsc_run *run, const char *key)
{
    return opts_get(run->global_options, run->n_global_options, key);
}

bool fsc_lat_add_pctl(fsc_lat *lat, double pct, double ns)
{
    size_t i = 0;
    /* percentiles come in ascending order: the place is usually the end */
    if (lat->n_percentile && lat->percentile[lat->n_percentile - 1].pct < pct)
        i = lat->n_percentile;
    while (i < lat->n_percentile && lat->percentile[i].pct < pct)
        i++;
    if (i < lat->n_percentile && lat->percentile[i].pct == pct) {
        lat->percentile[i].ns = ns;
        return true;
    }
    if (!fsc_grow((void **)&lat->percentile, &lat->cap_percentile, lat->n_percentile + 1,
                   sizeof(fsc_pctl)))
        return false;
    lat->n_percentile++;
    memmove(&lat->percentile[i + 1], &lat->percentile[i],
            (lat->n_percentile - 1 - i) * sizeof(fsc_pctl));
    lat->percentile[i].pct = pct;
    lat->percentile[i].ns = ns;
    return true;
}

bool fsc_lat_add_bin(fsc_lat *lat, double ns, double count)
{
    fsc_bin *b = FSC_PUSH(lat->bins, lat->n_bins, lat->cap_bins);
    if (!b)
        return false;
    b->ns = ns;
    b->count = count;
    return true;
}

bool fsc_disk_add_member(fsc_disk *disk, const char *name)
{
    char *s = fsc_strdup(name);
    char **slot = s ? FSC_PUSH(disk->members, disk->n_members, disk->cap_members) : NULL;
    if (!slot) {
        free(s);
        return false;
    }
    *slot = s;
    return true;
}

#define F(type, name, unit) {#name, offsetof(type, name), unit}

const fsc_field fsc_dir_fields[] = {
    F(fsc_dir, io_bytes, FSC_UNIT_BYTES),      F(fsc_dir, bw_bytes, FSC_UNIT_BYTES_PER_S),
    F(fsc_dir, bw, FSC_UNIT_KIB_PER_S),        F(fsc_dir, iops, FSC_UNIT_IOPS),
    F(fsc_dir, runtime, FSC_UNIT_MS),          F(fsc_dir, total_ios, FSC_UNIT_COUNT),
    F(fsc_dir, short_ios, FSC_UNIT_COUNT),     F(fsc_dir, drop_ios, FSC_UNIT_COUNT),
    F(fsc_dir, bw_min, FSC_UNIT_KIB_PER_S),    F(fsc_dir, bw_max, FSC_UNIT_KIB_PER_S),
    F(fsc_dir, bw_agg, FSC_UNIT_PCT),          F(fsc_dir, bw_mean, FSC_UNIT_KIB_PER_S),
    F(fsc_dir, bw_dev, FSC_UNIT_KIB_PER_S),    F(fsc_dir, bw_samples, FSC_UNIT_COUNT),
    F(fsc_dir, iops_min, FSC_UNIT_IOPS),       F(fsc_dir, iops_max, FSC_UNIT_IOPS),
    F(fsc_dir, iops_mean, FSC_UNIT_IOPS),      F(fsc_dir, iops_stddev, FSC_UNIT_IOPS),
    F(fsc_dir, iops_samples, FSC_UNIT_COUNT),  F(fsc_dir, zone_resets, FSC_UNIT_COUNT),
    F(fsc_dir, cachehit, FSC_UNIT_PCT),
};
const size_t fsc_n_dir_fields = FSC_ARRAY_SIZE(fsc_dir_fields);

const fsc_field fsc_lat_fields[] = {
    F(fsc_lat, min, FSC_UNIT_NS),    F(fsc_lat, max, FSC_UNIT_NS), F(fsc_lat, mean, FSC_UNIT_NS),
    F(fsc_lat, stddev, FSC_UNIT_NS), F(fsc_lat, N, FSC_UNIT_COUNT),
};
const size_t fsc_n_lat_fields = FSC_ARRAY_SIZE(fsc_lat_fields);

const fsc_field fsc_job_fields[] = {
    F(fsc_job, groupid, FSC_UNIT_NONE),          F(fsc_job, error, FSC_UNIT_NONE),
    F(fsc_job, pid, FSC_UNIT_NONE),              F(fsc_job, jobs, FSC_UNIT_COUNT),
    F(fsc_job, job_runtime, FSC_UNIT_MS),        F(fsc_job, usr_cpu, FSC_UNIT_PCT),
    F(fsc_job, sys_cpu, FSC_UNIT_PCT),           F(fsc_job, ctx, FSC_UNIT_COUNT),
    F(fsc_job, majf, FSC_UNIT_COUNT),            F(fsc_job, minf, FSC_UNIT_COUNT),
    F(fsc_job, latency_depth, FSC_UNIT_COUNT),   F(fsc_job, latency_target, FSC_UNIT_NONE),
    F(fsc_job, latency_percentile, FSC_UNIT_PCT), F(fsc_job, latency_window, FSC_UNIT_NONE),
};
const size_t fsc_n_job_fields = FSC_ARRAY_SIZE(fsc_job_fields);

const fsc_field fsc_group_dir_fields[] = {
    F(fsc_group_dir, bw_bytes, FSC_UNIT_BYTES_PER_S), F(fsc_group_dir, bw_min_bytes, FSC_UNIT_BYTES_PER_S),
    F(fsc_group_dir, bw_max_bytes, FSC_UNIT_BYTES_PER_S), F(fsc_group_dir, io_bytes, FSC_UNIT_BYTES),
    F(fsc_group_dir, runtime_min, FSC_UNIT_MS),        F(fsc_group_dir, runtime_max, FSC_UNIT_MS),
};
const size_t fsc_n_group_dir_fields = FSC_ARRAY_SIZE(fsc_group_dir_fields);

const fsc_field fsc_disk_fields[] = {
    F(fsc_disk, read_ios, FSC_UNIT_COUNT),          F(fsc_disk, write_ios, FSC_UNIT_COUNT),
    F(fsc_disk, read_sectors, FSC_UNIT_COUNT),      F(fsc_disk, write_sectors, FSC_UNIT_COUNT),
    F(fsc_disk, read_merges, FSC_UNIT_COUNT),       F(fsc_disk, write_merges, FSC_UNIT_COUNT),
    F(fsc_disk, read_ticks, FSC_UNIT_MS),           F(fsc_disk, write_ticks, FSC_UNIT_MS),
    F(fsc_disk, in_queue, FSC_UNIT_MS),             F(fsc_disk, util, FSC_UNIT_PCT),
    F(fsc_disk, aggr_read_ios, FSC_UNIT_COUNT),     F(fsc_disk, aggr_write_ios, FSC_UNIT_COUNT),
    F(fsc_disk, aggr_read_sectors, FSC_UNIT_COUNT), F(fsc_disk, aggr_write_sectors, FSC_UNIT_COUNT),
    F(fsc_disk, aggr_read_merges, FSC_UNIT_COUNT),  F(fsc_disk, aggr_write_merge, FSC_UNIT_COUNT),
    F(fsc_disk, aggr_read_ticks, FSC_UNIT_MS),      F(fsc_disk, aggr_write_ticks, FSC_UNIT_MS),
    F(fsc_disk, aggr_in_queue, FSC_UNIT_MS),        F(fsc_disk, aggr_util, FSC_UNIT_PCT),
};
const size_t fsc_n_disk_fields = FSC_ARRAY_SIZE(fsc_disk_fields);

#undef F

const fsc_field *fsc_field_find(const fsc_field *tab, size_t n, const char *name, size_t len)
{
    for (size_t i = 0; i < n; i++)
        if ((!len || tab[i].name[0] == name[0]) && strlen(tab[i].name) == len && memcmp(tab[i].name, name, len) == 0)
            return &tab[i];
    return NULL;
}

bool fsc_dir_has_data(const fsc_dir *d)
{
    for (size_t i = 0; i < fsc_n_dir_fields; i++) {
        const fsc_num *v = fsc_field_cptr(d, &fsc_dir_fields[i]);
        if (v->set && v->v != 0)
            return true;
    }
    for (int k = 0; k < FSC_LAT_COUNT; k++)
        if (d->lat[k].n_percentile || (d->lat[k].max.set && d->lat[k].max.v != 0))
            return true;
    return false;
}

void fsc_runset_init(fsc_runset *set)
{
    memset(set, 0, sizeof *set);
}

bool fsc_runset_add(fsc_runset *set, fsc_run *run)
{
    fsc_run **slot = FSC_PUSH(set->runs, set->n_runs, set->cap_runs);
    if (!slot) {
        fsc_run_free(run);
        return false;
    }
    *slot = run;
    return true;
}

void fsc_runset_clear(fsc_runset *set)
{
    for (size_t i = 0; i < set->n_runs; i++)
        fsc_run_free(set->runs[i]);
    free(set->runs);
    memset(set, 0, sizeof *set);
}
