/* SPDX-License-Identifier: MIT */
/*
 * The model's JSON writer (model_json.c): the exact text of a job and a run with
 * edge numbers (0 and -0, negatives, integers past 2^53 and 2^64 - 1, fractions with
 * 1 to 9 decimals and past 10^8, what printf writes in exponent form, NaN) and keys
 * (descriptor fragments, kvlist keys of 1 to 15 bytes and keys to escape,
 * percentile keys in and out of range), compact and pretty; then random jobs against
 * a plain reference walk with the fsc_jw writer, whose bytes the direct writer must
 * reproduce exactly.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "fioscope/model_json.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One job with every kind of member and the numbers at the edges. */
static void edge_job(fsc_job *job)
{
    job->jobname = fsc_strdup("j\"1");
    job->groupid = fsc_num_of(0);
    job->error = fsc_num_of(-0.0);
    job->pid = fsc_num_of(4294967296.0);
    job->jobs = fsc_num_of(1);
    fsc_job_set_option(job, "rw", "randread");
    fsc_job_set_option(job, "we\"ird", "a\\b");
    fsc_dir *d = &job->dir[FSC_DIR_READ];
    d->present = true;
    d->io_bytes = fsc_num_u64(UINT64_MAX);
    d->bw_bytes = fsc_num_of(44879052.8);
    d->bw = fsc_num_of(43827.2);
    d->iops = fsc_num_of(9007199254740991.0);   /* 2^53 - 1 */
    d->runtime = fsc_num_of(9007199254740992.0); /* 2^53: %.17g */
    d->total_ios = fsc_num_of(99999999);
    d->short_ios = fsc_num_of(100000000);
    d->drop_ios = fsc_num_of(1234567890123456.0);
    d->bw_min = fsc_num_of(-12.5);
    d->bw_max = fsc_num_of(-123456789);
    d->bw_agg = fsc_num_of(0.000001);
    d->bw_mean = fsc_num_of(1e-9);
    d->bw_dev = fsc_num_of(123456789.123);
    d->iops_mean = fsc_num_of(1e20);
    d->iops_stddev = fsc_num_of(1.0 / 3.0);
    d->iops_samples = fsc_num_of(-7);
    d->cachehit = fsc_num_of(NAN);
    fsc_lat *c = &d->lat[FSC_LAT_CLAT];
    c->min = fsc_num_of(0);
    c->max = fsc_num_of(17032000);
    c->mean = fsc_num_of(88610.5);
    c->stddev = fsc_num_of(0.1);
    fsc_lat_add_pctl(c, 1.0, 35000);
    fsc_lat_add_pctl(c, 99.99, 16188000);
    fsc_lat_add_pctl(c, 1e9, 5.25); /* past pct_key's range: "%f" */
    fsc_lat_add_bin(c, 1000, 3);
    fsc_lat_add_bin(c, 2.5, 1e-3);
    job->usr_cpu = fsc_num_of(3.85);
    job->ctx = fsc_num_u64(18446744073709341660ULL);
    fsc_kvlist_set(&job->iodepth_level, "1", 100);
    fsc_kvlist_set(&job->iodepth_level, ">=64", 0.5);
    fsc_kvlist_set(&job->latency[FSC_BUCKET_US], "abcdefghijklmno", 64.74); /* 15 bytes */
    fsc_kvlist_set(&job->latency[FSC_BUCKET_US], "a\"b", -1);
    fsc_kvlist_set(&job->latency[FSC_BUCKET_US], "750", 0.22);
}

static const char edge_job_compact[] =
    "{\"jobname\":\"j\\\"1\",\"groupid\":0,\"error\":0,\"pid\":4294967296,\"jobs\":1,"
    "\"job options\":{\"rw\":\"randread\",\"we\\\"ird\":\"a\\\\b\"},"
    "\"read\":{\"io_bytes\":18446744073709551615,\"bw_bytes\":44879052.8,\"bw\":43827.2,"
    "\"iops\":9007199254740991,\"runtime\":9007199254740992,\"total_ios\":99999999,"
    "\"short_ios\":100000000,\"drop_ios\":1234567890123456,\"bw_min\":-12.5,\"bw_max\":-123456789,"
    "\"bw_agg\":0.000001,\"bw_mean\":0.000000001,\"bw_dev\":123456789.123,\"iops_mean\":1e+20,"
    "\"iops_stddev\":0.33333333333333331,\"iops_samples\":-7,\"cachehit\":null,"
    "\"clat_ns\":{\"min\":0,\"max\":17032000,\"mean\":88610.5,\"stddev\":0.1,"
    "\"percentile\":{\"1.000000\":35000,\"99.990000\":16188000,\"1000000000.000000\":5.25},"
    "\"bins\":{\"1000\":3,\"2.5\":0.001}}},"
    "\"usr_cpu\":3.85,\"ctx\":18446744073709341660,"
    "\"iodepth_level\":{\"1\":100,\">=64\":0.5},"
    "\"latency_us\":{\"abcdefghijklmno\":64.74,\"a\\\"b\":-1,\"750\":0.22}}";

static const char edge_job_pretty[] = "{\n"
                                      "  \"jobname\": \"j\\\"1\",\n"
                                      "  \"groupid\": 0,\n"
                                      "  \"error\": 0,\n"
                                      "  \"pid\": 4294967296,\n"
                                      "  \"jobs\": 1,\n"
                                      "  \"job options\": {\n"
                                      "    \"rw\": \"randread\",\n"
                                      "    \"we\\\"ird\": \"a\\\\b\"\n"
                                      "  },\n"
                                      "  \"read\": {\n"
                                      "    \"io_bytes\": 18446744073709551615,\n"
                                      "    \"bw_bytes\": 44879052.8,\n"
                                      "    \"bw\": 43827.2,\n"
                                      "    \"iops\": 9007199254740991,\n"
                                      "    \"runtime\": 9007199254740992,\n"
                                      "    \"total_ios\": 99999999,\n"
                                      "    \"short_ios\": 100000000,\n"
                                      "    \"drop_ios\": 1234567890123456,\n"
                                      "    \"bw_min\": -12.5,\n"
                                      "    \"bw_max\": -123456789,\n"
                                      "    \"bw_agg\": 0.000001,\n"
                                      "    \"bw_mean\": 0.000000001,\n"
                                      "    \"bw_dev\": 123456789.123,\n"
                                      "    \"iops_mean\": 1e+20,\n"
                                      "    \"iops_stddev\": 0.33333333333333331,\n"
                                      "    \"iops_samples\": -7,\n"
                                      "    \"cachehit\": null,\n"
                                      "    \"clat_ns\": {\n"
                                      "      \"min\": 0,\n"
                                      "      \"max\": 17032000,\n"
                                      "      \"mean\": 88610.5,\n"
                                      "      \"stddev\": 0.1,\n"
                                      "      \"percentile\": {\n"
                                      "        \"1.000000\": 35000,\n"
                                      "        \"99.990000\": 16188000,\n"
                                      "        \"1000000000.000000\": 5.25\n"
                                      "      },\n"
                                      "      \"bins\": {\n"
                                      "        \"1000\": 3,\n"
                                      "        \"2.5\": 0.001\n"
                                      "      }\n"
                                      "    }\n"
                                      "  },\n"
                                      "  \"usr_cpu\": 3.85,\n"
                                      "  \"ctx\": 18446744073709341660,\n"
                                      "  \"iodepth_level\": {\n"
                                      "    \"1\": 100,\n"
                                      "    \">=64\": 0.5\n"
                                      "  },\n"
                                      "  \"latency_us\": {\n"
                                      "    \"abcdefghijklmno\": 64.74,\n"
                                      "    \"a\\\"b\": -1,\n"
                                      "    \"750\": 0.22\n"
                                      "  }\n"
                                      "}";

static char *job_text(const fsc_job *job, bool pretty)
{
    fsc_buf b = {0};
    fsc_jw w;
    fsc_jw_init(&w, &b, pretty, false);
    fsc_model_write_job(&w, job);
    assert_false(b.oom);
    return b.data;
}

static void test_job_edges(void **state)
{
    (void)state;
    fsc_run *run = fsc_run_new();
    fsc_job *job = fsc_run_add_job(run);
    assert_non_null(job);
    edge_job(job);
    char *s = job_text(job, false);
    assert_string_equal(s, edge_job_compact);
    free(s);
    s = job_text(job, true);
    assert_string_equal(s, edge_job_pretty);
    free(s);
    fsc_run_free(run);
}

/* A whole run: source, context, an empty and a full group, a disk, warnings. */
static void test_run_text(void **state)
{
    (void)state;
    fsc_run *run = fsc_run_new();
    run->id = fsc_strdup("a.txt#1");
    run->source.path = fsc_strdup("a.txt");
    run->source.fio_version = fsc_strdup("fio-3.33");
    run->source.format = FSC_FMT_NORMAL;
    run->source.first_line = 1;
    run->source.last_line = 4000000000u;
    run->label = fsc_strdup("rand</read>");
    fsc_run_add_context(run, "tab\there");
    fsc_job *job = fsc_run_add_job(run);
    job->jobname = fsc_strdup("x");
    job->dir[FSC_DIR_WRITE].present = true;
    job->dir[FSC_DIR_WRITE].total_ios = fsc_num_of(0);
    fsc_group *g = fsc_run_add_group(run);
    g->groupid = fsc_num_of(0);
    g->dir[FSC_DIR_READ].present = true;
    g->dir[FSC_DIR_READ].bw_bytes = fsc_num_of(44879052.8);
    g->dir[FSC_DIR_READ].runtime_max = fsc_num_of(2001);
    fsc_disk *dk = fsc_run_add_disk(run);
    dk->name = fsc_strdup("vda");
    dk->util = fsc_num_of(49.21);
    dk->aggr_util = fsc_num_of(0);
    fsc_disk_add_member(dk, "sda");
    fsc_run_warn(run, 7, "line %d", 7);
    fsc_buf b = {0};
    fsc_jw w;
    fsc_jw_init(&w, &b, false, false);
    fsc_model_write_run(&w, run, NULL);
    assert_false(b.oom);
    assert_string_equal(b.data,
                        "{\"id\":\"a.txt#1\",\"source\":{\"path\":\"a.txt\",\"member\":null,\"first_line\":1,"
                        "\"last_line\":4000000000,\"format\":\"normal\",\"fio_version\":\"fio-3.33\"},"
                        "\"label\":\"rand</read>\",\"context\":[\"tab\\there\"],"
                        "\"jobs\":[{\"jobname\":\"x\",\"write\":{\"total_ios\":0}}],"
                        "\"groups\":[{\"groupid\":0,\"read\":{\"bw_bytes\":44879052.8,\"runtime_max\":2001}}],"
                        "\"disk_util\":[{\"name\":\"vda\",\"util\":49.21,\"aggr_util\":0,\"members\":[\"sda\"]}],"
                        "\"warnings\":[{\"line\":7,\"message\":\"line 7\"}]}");
    /* html_safe: "</" of a value written as "<\/" */
    fsc_buf_reset(&b);
    fsc_jw_init(&w, &b, false, true);
    fsc_model_write_run(&w, run, NULL);
    assert_non_null(strstr(b.data, "\"label\":\"rand\\u003c/read\\u003e\""));
    fsc_buf_free(&b);
    fsc_run_free(run);
}

/* ---- the reference: the same walk with fsc_jw calls only ---- */

static void ref_fields(fsc_jw *w, const void *base, const fsc_field *tab, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        const fsc_num *v = fsc_field_cptr(base, &tab[i]);
        if (v->set) {
            fsc_jw_key(w, tab[i].name);
            fsc_jw_fnum(w, v);
        }
    }
}

static void ref_kvlist(fsc_jw *w, const char *name, const fsc_kvlist *l)
{
    if (!l->n)
        return;
    fsc_jw_key(w, name);
    fsc_jw_obj(w);
    for (size_t i = 0; i < l->n; i++) {
        char key[17];
        snprintf(key, sizeof key, "%.16s", l->items[i].key);
        fsc_jw_key(w, key);
        fsc_jw_num(w, l->items[i].v);
    }
    fsc_jw_obj_end(w);
}

static void ref_lat(fsc_jw *w, const char *name, const fsc_lat *l)
{
    bool any = l->n_percentile || l->n_bins;
    for (size_t i = 0; i < fsc_n_lat_fields; i++)
        any |= fsc_field_cptr(l, &fsc_lat_fields[i])->set;
    if (!any)
        return;
    fsc_jw_key(w, name);
    fsc_jw_obj(w);
    ref_fields(w, l, fsc_lat_fields, fsc_n_lat_fields);
    if (l->n_percentile) {
        fsc_jw_key(w, "percentile");
        fsc_jw_obj(w);
        for (size_t i = 0; i < l->n_percentile; i++) {
            char key[64];
            fsc_pct_key(key, sizeof key, l->percentile[i].pct);
            fsc_jw_key(w, key);
            fsc_jw_num(w, l->percentile[i].ns);
        }
        fsc_jw_obj_end(w);
    }
    if (l->n_bins) {
        fsc_jw_key(w, "bins");
        fsc_jw_obj(w);
        for (size_t i = 0; i < l->n_bins; i++) {
            char key[64];
            size_t n = fsc_num_fmt(key, l->bins[i].ns);
            key[n] = '\0';
            fsc_jw_key(w, key);
            fsc_jw_num(w, l->bins[i].count);
        }
        fsc_jw_obj_end(w);
    }
    fsc_jw_obj_end(w);
}

static void ref_job(fsc_jw *w, const fsc_job *job)
{
    static const char *const lists[] = {"latency_ns", "latency_us", "latency_ms"};
    fsc_jw_obj(w);
    fsc_jw_key(w, "jobname");
    fsc_jw_str(w, job->jobname ? job->jobname : "");
    ref_fields(w, job, fsc_job_fields, 5);
    if (job->n_options) {
        fsc_jw_key(w, "job options");
        fsc_jw_obj(w);
        for (size_t i = 0; i < job->n_options; i++) {
            fsc_jw_key(w, job->options[i].key);
            fsc_jw_str(w, job->options[i].val);
        }
        fsc_jw_obj_end(w);
    }
    for (int d = 0; d < FSC_DIR_COUNT; d++) {
        if (!job->dir[d].present)
            continue;
        fsc_jw_key(w, fsc_ddir_name((fsc_ddir)d));
        fsc_jw_obj(w);
        ref_fields(w, &job->dir[d], fsc_dir_fields, fsc_n_dir_fields);
        for (int k = 0; k < FSC_LAT_COUNT; k++)
            ref_lat(w, fsc_latkind_name((fsc_latkind)k), &job->dir[d].lat[k]);
        fsc_jw_obj_end(w);
    }
    ref_fields(w, job, fsc_job_fields + 5, fsc_n_job_fields - 5);
    ref_kvlist(w, "iodepth_level", &job->iodepth_level);
    ref_kvlist(w, "iodepth_submit", &job->iodepth_submit);
    ref_kvlist(w, "iodepth_complete", &job->iodepth_complete);
    for (int b = 0; b < FSC_BUCKET_COUNT; b++)
        ref_kvlist(w, lists[b], &job->latency[b]);
    fsc_jw_obj_end(w);
}

static uint64_t rnd(uint64_t *x)
{
    *x ^= *x << 13;
    *x ^= *x >> 7;
    *x ^= *x << 17;
    return *x;
}

/* A number of the kinds fio prints, and the edges. */
static fsc_num rnd_num(uint64_t *x)
{
    uint64_t r = rnd(x);
    switch (r % 8) {
    case 0: return fsc_num_of((double)(r >> 40 & 7));
    case 1: return fsc_num_of((double)(r >> 20 & 0xFFFFFFF));
    case 2: return fsc_num_of((double)(r >> 8 & 0xFFFFFFFF) / 100.0);
    case 3: return fsc_num_of((double)(r >> 12 & ((1ULL << 52) - 1)) / 10.0);
    case 4: return fsc_num_of(-(double)(r >> 30 & 0xFFFFF) / 1000.0);
    case 5: return fsc_num_u64(r);
    case 6: {
        double v;
        memcpy(&v, &r, sizeof v);
        return fsc_num_of(v);
    }
    default: return fsc_num_of((double)(r >> 34) * 1e-3);
    }
}

static void rnd_fields(uint64_t *x, void *base, const fsc_field *tab, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (rnd(x) % 3)
            *fsc_field_ptr(base, &tab[i]) = rnd_num(x);
}

/* A key of 1 to 15 bytes, now and then with a byte to escape. */
static void rnd_key(uint64_t *x, char *key)
{
    static const char alpha[] = "0123456789<>=abc.\"\\\t\xc3\xa9";
    size_t n = 1 + rnd(x) % 15;
    for (size_t i = 0; i < n; i++) {
        uint64_t r = rnd(x);
        key[i] = alpha[r % 8 ? r % 14 : r % (sizeof alpha - 1)];
    }
    key[n] = '\0';
}

static void rnd_job(uint64_t *x, fsc_job *job)
{
    job->jobname = fsc_strdup(rnd(x) % 4 ? "job" : "j\"ob\\");
    rnd_fields(x, job, fsc_job_fields, fsc_n_job_fields);
    for (uint64_t i = rnd(x) % 4; i > 0; i--) {
        char k[16], v[16];
        rnd_key(x, k);
        rnd_key(x, v);
        fsc_job_set_option(job, k, v);
    }
    for (int d = 0; d < FSC_DIR_COUNT; d++) {
        if (rnd(x) % 3 == 0)
            continue;
        fsc_dir *dir = &job->dir[d];
        dir->present = true;
        rnd_fields(x, dir, fsc_dir_fields, fsc_n_dir_fields);
        for (int k = 0; k < FSC_LAT_COUNT; k++) {
            fsc_lat *l = &dir->lat[k];
            if (rnd(x) % 2)
                rnd_fields(x, l, fsc_lat_fields, fsc_n_lat_fields);
            static const double pcts[] = {1, 5, 10, 50, 99, 99.5, 99.9, 99.99, 100, -1, 1e9, 0};
            for (uint64_t i = rnd(x) % 20; i > 0; i--)
                fsc_lat_add_pctl(l, pcts[rnd(x) % 12], rnd_num(x).v);
            for (uint64_t i = rnd(x) % 70 ? 0 : rnd(x) % 40; i > 0; i--)
                fsc_lat_add_bin(l, rnd_num(x).v, rnd_num(x).v);
        }
    }
    fsc_kvlist *lists[] = {&job->iodepth_level, &job->iodepth_submit, &job->iodepth_complete,
                           &job->latency[0], &job->latency[1], &job->latency[2]};
    for (size_t k = 0; k < 6; k++)
        for (uint64_t i = rnd(x) % 12; i > 0; i--) {
            char key[16];
            rnd_key(x, key);
            fsc_kvlist_set(lists[k], key, rnd_num(x).v);
        }
}

/* The job written depth levels down in a document (indentation of each depth),
 * after a member: the separator before it. */
static void open_deep(fsc_jw *w, int depth)
{
    for (int i = 0; i < depth; i++) {
        fsc_jw_arr(w);
        fsc_jw_num(w, i);
    }
}

static void test_random_jobs(void **state)
{
    (void)state;
    uint64_t x = 0x2545F4914F6CDD1DULL;
    for (int t = 0; t < 3000; t++) {
        fsc_run *run = fsc_run_new();
        fsc_job *job = fsc_run_add_job(run);
        rnd_job(&x, job);
        for (int mode = 0; mode < 4; mode++) {
            bool pretty = mode & 1, html = mode & 2;
            fsc_buf got = {0}, want = {0};
            fsc_jw w;
            fsc_jw_init(&w, &got, pretty, html);
            open_deep(&w, t % 5);
            fsc_model_write_job(&w, job);
            fsc_jw_init(&w, &want, pretty, html);
            open_deep(&w, t % 5);
            ref_job(&w, job);
            assert_false(got.oom || want.oom);
            if (strcmp(got.data, want.data)) {
                size_t i = 0;
                while (got.data[i] == want.data[i])
                    i++;
                fail_msg("job %d mode %d differs at %zu: got ...%.60s want ...%.60s", t, mode, i,
                         got.data + (i > 20 ? i - 20 : 0), want.data + (i > 20 ? i - 20 : 0));
            }
            fsc_buf_free(&got);
            fsc_buf_free(&want);
        }
        fsc_run_free(run);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_job_edges),
        cmocka_unit_test(test_run_text),
        cmocka_unit_test(test_random_jobs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
