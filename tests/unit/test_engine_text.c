/* SPDX-License-Identifier: MIT */
/* The fio-3 text writer against fio itself: each fio 3.33 oracle file holds fio's JSON
 * and fio's normal text of the same run. The JSON is loaded into a model, our writer
 * prints it, and every job line and disk line must equal fio's own, byte for byte. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <cJSON.h>

#include "fioscope/engine.h"

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *s = malloc((size_t)n + 1);
    if (s && fread(s, 1, (size_t)n, f) != (size_t)n) {
        free(s);
        s = NULL;
    }
    if (s)
        s[n] = '\0';
    fclose(f);
    return s;
}

static void load_fields(void *base, const fsc_field *tab, size_t n, const cJSON *obj)
{
    for (size_t i = 0; i < n; i++) {
        const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, tab[i].name);
        if (cJSON_IsNumber(v))
            *fsc_field_ptr(base, &tab[i]) = fsc_num_of(v->valuedouble);
    }
}

static void load_lat(fsc_lat *l, const cJSON *obj)
{
    if (!obj)
        return;
    load_fields(l, fsc_lat_fields, fsc_n_lat_fields, obj);
    const cJSON *p, *pct = cJSON_GetObjectItemCaseSensitive(obj, "percentile");
    cJSON_ArrayForEach(p, pct) assert_true(fsc_lat_add_pctl(l, atof(p->string), p->valuedouble));
}

static void load_dir(fsc_dir *d, const cJSON *obj, bool is_write)
{
    load_fields(d, fsc_dir_fields, fsc_n_dir_fields, obj);
    d->present = d->total_ios.v > 0;
    if (is_write)
        d->zone_resets = fsc_num_of(0); /* 3.33 text always shows it; its JSON does not */
    if (d->bw_samples.v == 0) {         /* fio prints no bw/iops lines without samples */
        d->bw_samples.set = d->iops_samples.set = false;
    }
    static const char *const names[] = {"slat_ns", "clat_ns", "lat_ns"};
    for (int k = 0; k < FSC_LAT_COUNT; k++)
        load_lat(&d->lat[k], cJSON_GetObjectItemCaseSensitive(obj, names[k]));
}

static void load_kv(fsc_kvlist *l, const cJSON *obj)
{
    const cJSON *p;
    cJSON_ArrayForEach(p, obj) assert_true(fsc_kvlist_set(l, p->string, p->valuedouble));
}

static void load_job(fsc_job *job, const cJSON *j, unsigned jobs)
{
    job->jobname = fsc_strdup(cJSON_GetObjectItemCaseSensitive(j, "jobname")->valuestring);
    load_fields(job, fsc_job_fields, fsc_n_job_fields, j);
    job->jobs = fsc_num_of(jobs); /* fio's JSON has no member count */
    const cJSON *o;
    cJSON_ArrayForEach(o, cJSON_GetObjectItemCaseSensitive(j, "job options"))
        fsc_job_set_option(job, o->string, o->valuestring);
    load_dir(&job->dir[FSC_DIR_READ], cJSON_GetObjectItemCaseSensitive(j, "read"), false);
    load_dir(&job->dir[FSC_DIR_WRITE], cJSON_GetObjectItemCaseSensitive(j, "write"), true);
    const cJSON *sync = cJSON_GetObjectItemCaseSensitive(j, "sync");
    fsc_dir *sd = &job->dir[FSC_DIR_SYNC];
    load_fields(sd, fsc_dir_fields, fsc_n_dir_fields, sync);
    load_lat(&sd->lat[FSC_LAT_LAT], cJSON_GetObjectItemCaseSensitive(sync, "lat_ns"));
    sd->present = sd->total_ios.v > 0;
    load_kv(&job->iodepth_level, cJSON_GetObjectItemCaseSensitive(j, "iodepth_level"));
    load_kv(&job->iodepth_submit, cJSON_GetObjectItemCaseSensitive(j, "iodepth_submit"));
    load_kv(&job->iodepth_complete, cJSON_GetObjectItemCaseSensitive(j, "iodepth_complete"));
    load_kv(&job->latency[FSC_BUCKET_NS], cJSON_GetObjectItemCaseSensitive(j, "latency_ns"));
    load_kv(&job->latency[FSC_BUCKET_US], cJSON_GetObjectItemCaseSensitive(j, "latency_us"));
    load_kv(&job->latency[FSC_BUCKET_MS], cJSON_GetObjectItemCaseSensitive(j, "latency_ms"));
}

/* The "Run status group" summaries as fio derives them from the jobs (its JSON has
 * none): aggregate = all bytes * 1000 / the longest runtime, min/max of job bandwidths. */
static void add_groups(fsc_run *run)
{
    for (unsigned gid = 0;; gid++) {
        fsc_group *g = NULL;
        for (size_t j = 0; j < run->n_jobs; j++) {
            const fsc_job *job = &run->jobs[j];
            if (job->groupid.v != gid)
                continue;
            if (!g) {
                g = fsc_run_add_group(run);
                g->groupid = fsc_num_of(gid);
            }
            for (int d = FSC_DIR_READ; d <= FSC_DIR_WRITE; d++) {
                const fsc_dir *jd = &job->dir[d];
                fsc_group_dir *gd = &g->dir[d];
                if (!jd->present)
                    continue;
                if (!gd->present) {
                    gd->present = true;
                    gd->io_bytes = fsc_num_of(0);
                    gd->runtime_min = gd->runtime_max = jd->runtime;
                    gd->bw_min_bytes = gd->bw_max_bytes = jd->bw_bytes;
                }
                gd->io_bytes.v += jd->io_bytes.v;
                gd->runtime_min.v = jd->runtime.v < gd->runtime_min.v ? jd->runtime.v : gd->runtime_min.v;
                gd->runtime_max.v = jd->runtime.v > gd->runtime_max.v ? jd->runtime.v : gd->runtime_max.v;
                gd->bw_min_bytes.v = jd->bw_bytes.v < gd->bw_min_bytes.v ? jd->bw_bytes.v : gd->bw_min_bytes.v;
                gd->bw_max_bytes.v = jd->bw_bytes.v > gd->bw_max_bytes.v ? jd->bw_bytes.v : gd->bw_max_bytes.v;
                gd->bw_bytes = fsc_num_of((double)((uint64_t)gd->io_bytes.v * 1000 / (uint64_t)gd->runtime_max.v));
            }
        }
        if (!g)
            return;
    }
}

/* Lines of fio's normal text: the job blocks (header line cut before "pid=", which
 * the JSON lacks) and the Disk stats block. */
static void section_lines(const char *text, fsc_buf *jobs, fsc_buf *groups, fsc_buf *disks)
{
    bool in_jobs = false, in_disk = false, in_groups = false;
    const char *p = text;
    while (*p) {
        const char *nl = strchr(p, '\n');
        size_t len = nl ? (size_t)(nl - p) : strlen(p);
        char line[1024];
        snprintf(line, sizeof line, "%.*s", (int)len, p);
        if (strstr(line, ": (groupid="))
            in_jobs = true;
        if (!strncmp(line, "Run status group", 16))
            in_jobs = false, in_groups = true;
        if (!strncmp(line, "Disk stats", 10))
            in_disk = true, in_jobs = in_groups = false;
        if (in_groups && line[0])
            fsc_buf_printf(groups, "%s\n", line);
        char *pid = strstr(line, ": pid=");
        if (pid && strstr(line, ": (groupid="))
            *pid = '\0';
        if (in_jobs && line[0])
            fsc_buf_printf(jobs, "%s\n", line);
        if (in_disk && line[0])
            fsc_buf_printf(disks, "%s\n", line);
        p = nl ? nl + 1 : p + len;
    }
}

/* Print the first differing line, to make a failure readable. */
static void report_diff(const char *name, const char *want, const char *got)
{
    unsigned line = 1;
    while (*want && *want == *got) {
        line += *want == '\n';
        want++, got++;
    }
    if (!*want && !*got)
        return;
    while (line > 1 && want[-1] != '\n')
        want--, got--;
    print_message("%s: line %u differs\nwant: %.*s\ngot:  %.*s\n", name, line, (int)strcspn(want, "\n"), want,
                  (int)strcspn(got, "\n"), got);
}

static void check_oracle(const char *name, unsigned jobs)
{
    char path[1024];
    const char *corpus = getenv("FSC_CORPUS");
    snprintf(path, sizeof path, "%s/fio-3.33-oracle/%s.normal+json.txt", corpus ? corpus : "/work/shared/corpus",
             name);
    char *all = slurp(path);
    if (!all) {
        print_message("skip: %s not found\n", path);
        skip();
    }
    const char *json = strstr(all, "\n{\n");
    assert_non_null(json);
    const char *end;
    cJSON *root = cJSON_ParseWithOpts(json + 1, &end, false);
    assert_non_null(root);
    fsc_run *run = fsc_run_new();
    const cJSON *j;
    cJSON_ArrayForEach(j, cJSON_GetObjectItemCaseSensitive(root, "jobs")) load_job(fsc_run_add_job(run), j, jobs);
    cJSON_ArrayForEach(j, cJSON_GetObjectItemCaseSensitive(root, "disk_util"))
    {
        fsc_disk *d = fsc_run_add_disk(run);
        d->name = fsc_strdup(cJSON_GetObjectItemCaseSensitive(j, "name")->valuestring);
        load_fields(d, fsc_disk_fields, fsc_n_disk_fields, j);
    }
    add_groups(run);
    fsc_buf mine = {0}, want_jobs = {0}, want_disk = {0}, got_jobs = {0}, got_disk = {0};
    fsc_buf want_groups = {0}, got_groups = {0};
    fsc_fio_text_write(&mine, run, NULL);
    section_lines(end, &want_jobs, &want_groups, &want_disk);
    section_lines(mine.data, &got_jobs, &got_groups, &got_disk);
    report_diff(name, want_groups.data, got_groups.data);
    assert_string_equal(got_groups.data, want_groups.data);
    fsc_buf_free(&want_groups);
    fsc_buf_free(&got_groups);
    report_diff(name, want_jobs.data, got_jobs.data);
    assert_string_equal(got_jobs.data, want_jobs.data);
    assert_string_equal(got_disk.data ? got_disk.data : "", want_disk.data ? want_disk.data : "");
    fsc_buf_free(&mine);
    fsc_buf_free(&want_jobs);
    fsc_buf_free(&want_disk);
    fsc_buf_free(&got_jobs);
    fsc_buf_free(&got_disk);
    fsc_run_free(run);
    cJSON_Delete(root);
    free(all);
}

static void test_psync(void **s) { (void)s; check_oracle("psync-randread", 1); }
static void test_libaio(void **s) { (void)s; check_oracle("libaio-mixed-2j", 1); }
static void test_grouped(void **s) { (void)s; check_oracle("grouped-3j", 3); }
static void test_null(void **s) { (void)s; check_oracle("null-fast", 1); }
static void test_pctlist(void **s) { (void)s; check_oracle("pctlist", 1); }
static void test_fsync(void **s) { (void)s; check_oracle("fsync-slow", 1); }
static void test_uring(void **s) { (void)s; check_oracle("uring-seq", 1); }
static void test_two_groups(void **s) { (void)s; check_oracle("two-groups", 1); }

/* num2str against tokens fio 3.33 printed for known byte/IOPS values. */
static void test_num2str(void **state)
{
    static const struct {
        uint64_t v;
        unsigned maxlen;
        bool pow2;
        const char *unit, *want;
    } cases[] = {
        {61551001, 4, true, "B/s", "58.7MiB/s"}, {61551001, 4, false, "B/s", "61.6MB/s"},
        {15021, 4, false, "", "15.0k"},          {6391, 4, false, "", "6391"},
        {4096, 4, true, "B", "4096B"},           {16384, 4, true, "B", "16.0KiB"},
        {27118000, 6, false, "", "27118k"},      {3609213, 6, false, "", "3609.2k"},
        {1438848, 4, true, "B/s", "1405KiB/s"},  {1438848, 4, false, "B/s", "1439kB/s"},
        {2301000, 4, false, "", "2301k"},        {999, 6, false, "", "999"},
    };
    (void)state;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char buf[64];
        fsc_num2str(buf, sizeof buf, cases[i].v, cases[i].maxlen, cases[i].pow2, cases[i].unit);
        assert_string_equal(buf, cases[i].want);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_num2str), cmocka_unit_test(test_psync),   cmocka_unit_test(test_libaio),
        cmocka_unit_test(test_grouped), cmocka_unit_test(test_null),    cmocka_unit_test(test_pctlist),
        cmocka_unit_test(test_fsync),   cmocka_unit_test(test_uring),   cmocka_unit_test(test_two_groups),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
