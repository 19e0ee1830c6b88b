/* SPDX-License-Identifier: MIT */
/*
 * Runs built in C with the numbers of real fio 3.33 output
 * (corpus/fio-3.33-oracle/psync-randread and libaio-mixed-2j, the JSON part), for
 * table and compare tests that do not depend on the parsers.
 */
#ifndef FSC_TEST_FIXTURE_RUNS_H
#define FSC_TEST_FIXTURE_RUNS_H

#include "fioscope/buf.h"
#include "fioscope/model.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct fx_dir {
    double io_bytes, bw_bytes, bw, iops, runtime, total_ios, bw_mean;
    double clat[5]; /* min max mean stddev N */
    double p50, p99, p999;
    double lat[4]; /* min max mean stddev */
} fx_dir;

static void fx_set_dir(fsc_job *job, fsc_ddir d, const fx_dir *x)
{
    fsc_dir *dir = &job->dir[d];
    dir->present = true;
    dir->io_bytes = fsc_num_of(x->io_bytes);
    dir->bw_bytes = fsc_num_of(x->bw_bytes);
    dir->bw = fsc_num_of(x->bw);
    dir->iops = fsc_num_of(x->iops);
    dir->runtime = fsc_num_of(x->runtime);
    dir->total_ios = fsc_num_of(x->total_ios);
    dir->bw_mean = fsc_num_of(x->bw_mean);
    fsc_lat *c = &dir->lat[FSC_LAT_CLAT];
    c->min = fsc_num_of(x->clat[0]);
    c->max = fsc_num_of(x->clat[1]);
    c->mean = fsc_num_of(x->clat[2]);
    c->stddev = fsc_num_of(x->clat[3]);
    c->N = fsc_num_of(x->clat[4]);
    fsc_lat_add_pctl(c, 50.0, x->p50);
    fsc_lat_add_pctl(c, 99.0, x->p99);
    fsc_lat_add_pctl(c, 99.9, x->p999);
    fsc_lat *l = &dir->lat[FSC_LAT_LAT];
    l->min = fsc_num_of(x->lat[0]);
    l->max = fsc_num_of(x->lat[1]);
    l->mean = fsc_num_of(x->lat[2]);
    l->stddev = fsc_num_of(x->lat[3]);
}

/* An unused direction the way fio prints it: present, all zeros. */
static void fx_zero_dir(fsc_job *job, fsc_ddir d)
{
    fsc_dir *dir = &job->dir[d];
    dir->present = true;
    dir->io_bytes = fsc_num_of(0);
    dir->bw_bytes = fsc_num_of(0);
    dir->iops = fsc_num_of(0);
    dir->total_ios = fsc_num_of(0);
    dir->lat[FSC_LAT_CLAT].mean = fsc_num_of(0);
    dir->lat[FSC_LAT_LAT].mean = fsc_num_of(0);
}

static fsc_run *fx_new_run(const char *id, const char *path)
{
    fsc_run *run = fsc_run_new();
    run->id = fsc_strdup(id);
    run->source.path = fsc_strdup(path);
    run->source.fio_version = fsc_strdup("fio-3.33");
    run->source.format = FSC_FMT_JSON;
    return run;
}

static void fx_job_common(fsc_job *job, const char *name, const char *rw, const char *engine,
                          const char *iodepth, const char *numjobs)
{
    job->jobname = fsc_strdup(name);
    job->groupid = fsc_num_of(0);
    job->error = fsc_num_of(0);
    job->jobs = fsc_num_of(1);
    fsc_job_set_option(job, "rw", rw);
    fsc_job_set_option(job, "bs", "4k");
    fsc_job_set_option(job, "ioengine", engine);
    if (iodepth)
        fsc_job_set_option(job, "iodepth", iodepth);
    if (numjobs)
        fsc_job_set_option(job, "numjobs", numjobs);
}

/* psync-randread: job rr4k, randread 4k psync; read IOPS 10942.057942. `scale`
 * multiplies IOPS/bandwidth (and divides latency) to fake repeats or a faster system. */
static fsc_run *fx_psync_randread(const char *id, double scale, const char *heading1,
                                  const char *heading2)
{
    fsc_run *run = fx_new_run(id, "psync-randread.json");
    if (heading1)
        fsc_run_add_context(run, heading1);
    if (heading2)
        fsc_run_add_context(run, heading2);
    fsc_job *job = fsc_run_add_job(run);
    fx_job_common(job, "rr4k", "randread", "psync", NULL, NULL);
    fx_dir r = {44863488,
                44818669 * scale,
                43768 * scale,
                10942.057942 * scale,
                1001,
                10953,
                45520.0 * scale,
                {37370, 17110134, 88627.480142 / scale, 463923.189314, 10953},
                54016 / scale,
                577536 / scale,
                6127616 / scale,
                {37420, 17110295, 88756.390669 / scale, 463926.662621}};
    fx_set_dir(job, FSC_DIR_READ, &r);
    fx_zero_dir(job, FSC_DIR_WRITE);
    fx_zero_dir(job, FSC_DIR_TRIM);
    job->usr_cpu = fsc_num_of(2.3);
    job->sys_cpu = fsc_num_of(31.7);
    job->ctx = fsc_num_of(10072);
    return run;
}

/* libaio-mixed-2j: two "mix" jobs, randrw 70/30, libaio iodepth 8, numjobs 2. */
static fsc_run *fx_libaio_mixed(const char *id)
{
    static const fx_dir rd[2] = {
        {61591552, 61530021, 60087, 15021.978022, 1001, 15037, 60173.0,
         {1232, 27117946, 300924.889007, 1497447.170601, 15037}, 121344, 3391488, 23986176,
         {23244, 27124418, 315591.162732, 1500054.151755}},
        {61210624, 61149474, 59716, 14929.070929, 1001, 14944, 59752.0,
         {962, 27254141, 286380.72504, 1392393.955315, 14944}, 122368, 3391488, 23986176,
         {22683, 27261584, 299702.493911, 1395212.021654}}};
    static const fx_dir wr[2] = {
        {26206208, 26180027, 25566, 6391.608392, 1001, 6398, 25611.0,
         {1323, 27192265, 482261.247108, 1429404.897144, 6398}, 228352, 4177920, 24772608,
         {49593, 27209166, 505684.926696, 1479875.189456}},
        {26394624, 26368255, 25750, 6437.562438, 1001, 6444, 25768.0,
         {15690, 27312080, 529766.670391, 1651798.999362, 6444}, 226304, 4292608, 24510464,
         {46286, 27317450, 544330.849162, 1653605.510641}}};
    static const double cpu[2][3] = {{3.2, 25.9, 4321}, {2.9, 24.5, 4486}};
    fsc_run *run = fx_new_run(id, "libaio-mixed-2j.json");
    for (int j = 0; j < 2; j++) {
        fsc_job *job = fsc_run_add_job(run);
        fx_job_common(job, "mix", "randrw", "libaio", "8", "2");
        fx_set_dir(job, FSC_DIR_READ, &rd[j]);
        fx_set_dir(job, FSC_DIR_WRITE, &wr[j]);
        fx_zero_dir(job, FSC_DIR_TRIM);
        job->usr_cpu = fsc_num_of(cpu[j][0]);
        job->sys_cpu = fsc_num_of(cpu[j][1]);
        job->ctx = fsc_num_of(cpu[j][2]);
    }
    return run;
}

/* Compare out with the golden file (or rewrite it when FSC_UPDATE_GOLDEN=1). */
static inline void fsc_test_check_golden(const char *dir, const char *name, const fsc_buf *out)
{
    const char *src = getenv("FSC_SOURCE_DIR");
    char path[1024];
    snprintf(path, sizeof path, "%s/tests/golden/%s/%s", src ? src : ".", dir, name);
    if (getenv("FSC_UPDATE_GOLDEN") && !strcmp(getenv("FSC_UPDATE_GOLDEN"), "1")) {
        FILE *f = fopen(path, "wb");
        assert_non_null(f);
        fwrite(out->data, 1, out->len, f);
        fclose(f);
        return;
    }
    FILE *f = fopen(path, "rb");
    if (!f)
        fail_msg("missing golden file %s (run with FSC_UPDATE_GOLDEN=1)", path);
    char *want = calloc(1, 1 << 16);
    size_t n = fread(want, 1, (1 << 16) - 1, f);
    fclose(f);
    want[n] = '\0';
    if (strcmp(want, out->data))
        fprintf(stderr, "--- %s expected:\n%s--- got:\n%s", path, want, out->data);
    assert_string_equal(want, out->data);
    free(want);
}

#endif
