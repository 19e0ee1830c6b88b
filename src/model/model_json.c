/* SPDX-License-Identifier: MIT */
/* Walk the model and write the contract JSON; the descriptor tables give names. */
#include "fioscope/model_json.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

void fsc_model_write_doc_start(fsc_jw *w)
{
    fsc_jw_obj(w);
    fsc_jw_key(w, "fioscope");
    fsc_jw_obj(w);
    fsc_jw_key(w, "version");
    fsc_jw_str(w, FSC_VERSION);
    fsc_jw_obj_end(w);
}

void fsc_pct_key(char *out, size_t size, double pct)
{
    /* fio's "%f" without snprintf's cost: six decimals, rounded */
    if (pct >= 0 && pct < 1e9) {
        unsigned long long m = (unsigned long long)llround(pct * 1e6);
        char tmp[48], *e = tmp + sizeof tmp, *p = e;
        unsigned long long ip = m / 1000000ULL, frac = m % 1000000ULL;
        for (int d = 0; d < 6; d++, frac /= 10) /* "%llu.%06llu" */
            *--p = (char)('0' + frac % 10);
        *--p = '.';
        do
            *--p = (char)('0' + ip % 10);
        while (ip /= 10);
        size_t n = (size_t)(e - p);
        if (size) {
            n = n < size - 1 ? n : size - 1;
            memcpy(out, p, n);
            out[n] = '\0';
        }
        return;
    }
    snprintf(out, size, "%f", pct);
}

static void write_fields(fsc_jw *w, const void *base, const fsc_field *tab, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        const fsc_num *v = fsc_field_cptr(base, &tab[i]);
        if (!v->set)
            continue;
        fsc_jw_key(w, tab[i].name);
        fsc_jw_fnum(w, v);
    }
}

static void write_kvlist(fsc_jw *w, const char *name, const fsc_kvlist *l)
{
    if (!l->n)
        return;
    fsc_jw_key(w, name);
    fsc_jw_obj(w);
    for (size_t i = 0; i < l->n; i++) {
        fsc_jw_key(w, l->items[i].key);
        fsc_jw_num(w, l->items[i].v);
    }
    fsc_jw_obj_end(w);
}

static bool lat_present(const fsc_lat *l)
{
    for (size_t i = 0; i < fsc_n_lat_fields; i++)
        if (fsc_field_cptr(l, &fsc_lat_fields[i])->set)
            return true;
    return l->n_percentile || l->n_bins;
}

static void write_lat(fsc_jw *w, const char *name, const fsc_lat *l)
{
    if (!lat_present(l))
        return;
    fsc_jw_key(w, name);
    fsc_jw_obj(w);
    write_fields(w, l, fsc_lat_fields, fsc_n_lat_fields);
    if (l->n_percentile) {
        fsc_jw_key(w, "percentile");
        fsc_jw_obj(w);
        for (size_t i = 0; i < l->n_percentile; i++) {
            char key[48];
            fsc_pct_key(key, sizeof key, l->percentile[i].pct);
            fsc_jw_key(w, key);
            fsc_jw_num(w, l->percentile[i].ns);
        }
        fsc_jw_obj_end(w);
    }
    if (l->n_bins) {
        fsc_jw_key(w, "bins");
        fsc_jw_obj(w);
        fsc_buf k = {0}; /* one buffer for all the keys */
        for (size_t i = 0; i < l->n_bins; i++) {
            fsc_buf_reset(&k);
            fsc_buf_num(&k, l->bins[i].ns);
            fsc_jw_key(w, k.data && !k.oom ? k.data : "0");
            fsc_jw_num(w, l->bins[i].count);
        }
        fsc_buf_free(&k);
        fsc_jw_obj_end(w);
    }
    fsc_jw_obj_end(w);
}

static void write_dir(fsc_jw *w, const char *name, const fsc_dir *d)
{
    fsc_jw_key(w, name);
    fsc_jw_obj(w);
    write_fields(w, d, fsc_dir_fields, fsc_n_dir_fields);
    for (int k = 0; k < FSC_LAT_COUNT; k++)
        write_lat(w, fsc_latkind_name((fsc_latkind)k), &d->lat[k]);
    fsc_jw_obj_end(w);
}

void fsc_model_write_job(fsc_jw *w, const fsc_job *job)
{
    static const char *const bucket_names[FSC_BUCKET_COUNT] = {"latency_ns", "latency_us", "latency_ms"};
    fsc_jw_obj(w);
    fsc_jw_key(w, "jobname");
    fsc_jw_str(w, job->jobname ? job->jobname : "");
    if (job->hostname) {
        fsc_jw_key(w, "hostname");
        fsc_jw_str(w, job->hostname);
    }
    if (job->description) {
        fsc_jw_key(w, "desc");
        fsc_jw_str(w, job->description);
    }
    if (job->error_text) {
        fsc_jw_key(w, "error_text");
        fsc_jw_str(w, job->error_text);
    }
    write_fields(w, job, fsc_job_fields, 5); /* groupid error pid jobs job_runtime */
    if (job->n_options) {
        fsc_jw_key(w, "job options");
        fsc_jw_obj(w);
        for (size_t i = 0; i < job->n_options; i++) {
            fsc_jw_key(w, job->options[i].key);
            fsc_jw_str(w, job->options[i].val);
        }
        fsc_jw_obj_end(w);
    }
    for (int d = 0; d < FSC_DIR_COUNT; d++)
        if (job->dir[d].present)
            write_dir(w, fsc_ddir_name((fsc_ddir)d), &job->dir[d]);
    write_fields(w, job, fsc_job_fields + 5, fsc_n_job_fields - 5);
    write_kvlist(w, "iodepth_level", &job->iodepth_level);
    write_kvlist(w, "iodepth_submit", &job->iodepth_submit);
    write_kvlist(w, "iodepth_complete", &job->iodepth_complete);
    for (int b = 0; b < FSC_BUCKET_COUNT; b++)
        write_kvlist(w, bucket_names[b], &job->latency[b]);
    fsc_jw_obj_end(w);
}

static void write_group(fsc_jw *w, const fsc_group *g)
{
    fsc_jw_obj(w);
    if (g->groupid.set) {
        fsc_jw_key(w, "groupid");
        fsc_jw_fnum(w, &g->groupid);
    }
    if (g->hostname) {
        fsc_jw_key(w, "hostname");
        fsc_jw_str(w, g->hostname);
    }
    for (int d = 0; d < FSC_DIR_COUNT; d++) {
        if (!g->dir[d].present)
            continue;
        fsc_jw_key(w, fsc_ddir_name((fsc_ddir)d));
        fsc_jw_obj(w);
        write_fields(w, &g->dir[d], fsc_group_dir_fields, fsc_n_group_dir_fields);
        fsc_jw_obj_end(w);
    }
    fsc_jw_obj_end(w);
}

static void write_disk(fsc_jw *w, const fsc_disk *d)
{
    fsc_jw_obj(w);
    fsc_jw_key(w, "name");
    fsc_jw_str(w, d->name ? d->name : "");
    write_fields(w, d, fsc_disk_fields, fsc_n_disk_fields);
    if (d->n_members) {
        fsc_jw_key(w, "members");
        fsc_jw_arr(w);
        for (size_t i = 0; i < d->n_members; i++)
            fsc_jw_str(w, d->members[i]);
        fsc_jw_arr_end(w);
    }
    fsc_jw_obj_end(w);
}

void fsc_model_write_run(fsc_jw *w, const fsc_run *run, const fsc_json_opts *opts)
{
    fsc_jw_obj(w);
    fsc_jw_key(w, "id");
    fsc_jw_str(w, run->id ? run->id : "");
    fsc_jw_key(w, "source");
    fsc_jw_obj(w);
    fsc_jw_key(w, "path");
    fsc_jw_str(w, run->source.path ? run->source.path : "");
    fsc_jw_key(w, "member");
    fsc_jw_str(w, run->source.member);
    fsc_jw_key(w, "first_line");
    fsc_jw_num(w, run->source.first_line);
    fsc_jw_key(w, "last_line");
    fsc_jw_num(w, run->source.last_line);
    fsc_jw_key(w, "format");
    fsc_jw_str(w, fsc_format_name(run->source.format));
    fsc_jw_key(w, "fio_version");
    fsc_jw_str(w, run->source.fio_version);
    if (run->source.host) {
        fsc_jw_key(w, "host");
        fsc_jw_str(w, run->source.host);
    }
    fsc_jw_obj_end(w);
    fsc_jw_key(w, "label");
    fsc_jw_str(w, run->label ? run->label : "");
    fsc_jw_key(w, "context");
    fsc_jw_arr(w);
    for (size_t i = 0; i < run->n_context; i++)
        fsc_jw_str(w, run->context[i]);
    fsc_jw_arr_end(w);
    fsc_jw_key(w, "jobs");
    fsc_jw_arr(w);
    for (size_t i = 0; i < run->n_jobs; i++)
        fsc_model_write_job(w, &run->jobs[i]);
    fsc_jw_arr_end(w);
    fsc_jw_key(w, "groups");
    fsc_jw_arr(w);
    for (size_t i = 0; i < run->n_groups; i++)
        write_group(w, &run->groups[i]);
    fsc_jw_arr_end(w);
    fsc_jw_key(w, "disk_util");
    fsc_jw_arr(w);
    for (size_t i = 0; i < run->n_disk_util; i++)
        write_disk(w, &run->disk_util[i]);
    fsc_jw_arr_end(w);
    fsc_jw_key(w, "warnings");
    fsc_jw_arr(w);
    for (size_t i = 0; i < run->n_warnings; i++) {
        fsc_jw_obj(w);
        fsc_jw_key(w, "line");
        fsc_jw_num(w, run->warnings[i].line);
        fsc_jw_key(w, "message");
        fsc_jw_str(w, run->warnings[i].message);
        fsc_jw_obj_end(w);
    }
    fsc_jw_arr_end(w);
    if (opts && opts->damage) {
        fsc_jw_key(w, "damage");
        fsc_jw_obj(w);
        fsc_jw_key(w, "recognized");
        fsc_jw_num(w, run->lines.recognized);
        fsc_jw_key(w, "noise");
        fsc_jw_num(w, run->lines.noise);
        fsc_jw_key(w, "unknown");
        fsc_jw_num(w, run->lines.unknown);
        fsc_jw_key(w, "malformed");
        fsc_jw_num(w, run->lines.malformed);
        fsc_jw_key(w, "repaired");
        fsc_jw_num(w, run->lines.repaired);
        fsc_jw_key(w, "unknown_lines");
        fsc_jw_arr(w);
        for (size_t i = 0; i < run->n_unknown_lines; i++)
            fsc_jw_num(w, run->unknown_lines[i]);
        fsc_jw_arr_end(w);
        fsc_jw_obj_end(w);
    }
    fsc_jw_obj_end(w);
}
