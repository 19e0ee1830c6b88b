/* SPDX-License-Identifier: MIT */
/* fio JSON (2.0.10 .. 3.x, json+ and client/server) into the run model. Names map
 * 1:1; only units differ by era (usec latency objects, KiB io_bytes, raw json+ bins). */
#include "parse_int.h"

#include "fioscope/units.h"

#include <cJSON.h>
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* What a reader needs besides the tree: the run (for warnings) and a sticky
 * out-of-memory flag, so helpers stay void and the caller checks once. */
typedef struct json_ctx {
    fsc_run *run;
    bool oom;
    bool agg_is_mean;  /* fio < 2.1.8 wrote the mean into bw_agg */
    bool io_in_bytes;  /* the version says io_bytes is bytes (fio >= 2.21) */
    bool agg_dropped;
} json_ctx;

/* v * mul, exactly: the number is taken back to its shortest decimal text (the
 * digits fio printed) and scaled in integer arithmetic, so 3.747764 usec is
 * exactly 3747.764 ns instead of 3.747764 * 1000 rounded twice. */
double fsc_json_exact_mul(double v, uint64_t mul)
{
    if (mul == 1 || !isfinite(v))
        return v;
    if (v == floor(v) && fabs(v) < 9007199254740992.0 / (double)mul)
        return v * (double)mul;
    char tmp[40];
    snprintf(tmp, sizeof tmp, "%.15g", v);
    if (strtod(tmp, NULL) != v)
        snprintf(tmp, sizeof tmp, "%.17g", v);
    if (strchr(tmp, 'e'))
        return v * (double)mul;
    fsc_decimal d;
    size_t used = 0;
    if (fsc_decimal_parse(tmp, strlen(tmp), &d, &used) != FSC_OK || used != strlen(tmp))
        return v * (double)mul;
    return fsc_decimal_scale(d, mul, 1);
}

fsc_num fsc_json_number(double v, const char *digits, size_t n, uint64_t mul)
{
    /* an integer literal: exact when the result is beyond a double's integers */
    uint64_t u = 0, p;
    bool ok = digits && n > 0 && n <= 20;
    for (size_t i = 0; ok && i < n; i++)
        ok = digits[i] >= '0' && digits[i] <= '9' && !__builtin_mul_overflow(u, 10, &u) &&
             !__builtin_add_overflow(u, (uint64_t)(digits[i] - '0'), &u);
    if (ok && !__builtin_mul_overflow(u, mul, &p) && (double)p >= FSC_EXACT_MIN)
        return fsc_num_u64(p);
    return fsc_num_of(fsc_json_exact_mul(v, mul));
}

/* Set *dst from a JSON number; other kinds (null, strings) leave it unset. An
 * integer literal too large for a double carries its digits in valuestring (see
 * mark_big_integers). */
static bool take_num(fsc_num *dst, const cJSON *item, uint64_t mul)
{
    if (!cJSON_IsNumber(item) || !isfinite(item->valuedouble))
        return false;
    const char *digits = item->valuestring;
    *dst = fsc_json_number(item->valuedouble, digits, digits ? strlen(digits) : 0, mul);
    return true;
}

/* ---- exact integers: cJSON keeps only doubles ---- */

/* Does the tree hold an integral number that a scale of up to 1024 could take
 * beyond 2^53? */
static bool has_big_number(const cJSON *it)
{
    for (; it; it = it->next) {
        if (cJSON_IsNumber(it) && fabs(it->valuedouble) >= FSC_EXACT_MIN / 1024 &&
            it->valuedouble == floor(it->valuedouble))
            return true;
        if (it->child && has_big_number(it->child))
            return true;
    }
    return false;
}

typedef struct literals {
    const char *json, *end, *p; /* the text and where the next number token is sought */
    bool oom;
} literals;

/* The next number token of the text (cJSON reads a maximal run of [0-9+-.eE]
 * starting with '-' or a digit outside strings, in document order). */
static bool next_number(literals *l, const char **s, size_t *n)
{
    const char *p = l->p;
    while (p < l->end) {
        char c = *p;
        if (c == '"') { /* skip the string */
            for (p++; p < l->end && *p != '"'; p++)
                if (*p == '\\')
                    p++;
            p++;
            continue;
        }
        if (c == '-' || (c >= '0' && c <= '9')) {
            const char *q = p;
            while (q < l->end && strchr("0123456789+-.eE", *q) && *q)
                q++;
            *s = p;
            *n = (size_t)(q - p);
            l->p = q;
            return true;
        }
        p++;
    }
    l->p = p;
    return false;
}

/* Walk the tree in document order beside the text's number tokens: an integer
 * literal of 13 digits or more keeps its digits in the item's valuestring (cJSON
 * frees it with the item), for take_num. */
static void mark_literals(literals *l, cJSON *it)
{
    for (; it && !l->oom; it = it->next) {
        if (cJSON_IsNumber(it)) {
            const char *s;
            size_t n;
            if (!next_number(l, &s, &n))
                return;
            bool digits = n >= 13;
            for (size_t i = 0; digits && i < n; i++)
                digits = s[i] >= '0' && s[i] <= '9';
            if (digits && !(it->valuestring = fsc_strndup(s, n)))
                l->oom = true;
        }
        if (it->child)
            mark_literals(l, it->child);
    }
}

static bool mark_big_integers(cJSON *root, const char *json, size_t len)
{
    if (!has_big_number(root->child))
        return true;
    literals l = {json, json + len, json, false};
    mark_literals(&l, root->child);
    return !l.oom;
}

/* A number member whose key is a field of the descriptor table tab (fio's name). */
static bool take_field(void *base, const fsc_field *tab, size_t n, const cJSON *item, uint64_t mul)
{
    const fsc_field *f = fsc_field_find(tab, n, item->string, strlen(item->string));
    return f && take_num(fsc_field_ptr(base, f), item, mul);
}

static void take_str(json_ctx *cx, char **dst, const cJSON *item)
{
    if (!cJSON_IsString(item) || !item->valuestring)
        return;
    free(*dst);
    *dst = fsc_strdup(item->valuestring);
    if (!*dst)
        cx->oom = true;
}

/* Parse a JSON key that is a number ("99.000000", "99.90", "1216"). */
static bool key_number(const char *key, double *out)
{
    return key && fsc_parse_plain(key, strlen(key), out) == FSC_OK && isfinite(*out);
}

/* Does a percentile object hold only zeros? fio (<= 3.17) prints one full of zeros
 * for a direction that did no I/O; keeping it would make the direction look used. */
static bool all_zero(const cJSON *obj)
{
    const cJSON *it;
    cJSON_ArrayForEach(it, obj) {
        if (cJSON_IsNumber(it) && it->valuedouble != 0)
            return false;
    }
    return true;
}

static void read_percentiles(json_ctx *cx, fsc_lat *lat, const cJSON *obj, uint64_t mul)
{
    if (!cJSON_IsObject(obj) || (all_zero(obj) && !fsc_lat_measured(lat)))
        return;
    const cJSON *it;
    cJSON_ArrayForEach(it, obj) {
        double pct;
        fsc_num ns = {0};
        if (!key_number(it->string, &pct) || !take_num(&ns, it, mul))
            continue;
        if (pct == 0 && ns.v == 0)
            continue; /* the unused "0.00": 0 slots of fio <= 3.3 */
        if (!fsc_lat_add_pctl(lat, pct, ns.v))
            cx->oom = true;
    }
}

/* fio's log-linear histogram: index → the latency fio reports for that bucket
 * (the middle of its range). Groups of `val` buckets; group g > 1 spans 2^(g-1)
 * units per bucket starting at 2^(g-1+bits). Same arithmetic as fio 2.20+ uses
 * when it prints the bucket values itself, so the result is what fio would print. */
double fsc_json_plat_index_value(unsigned idx, unsigned bits, unsigned val)
{
    if (idx < (val << 1))
        return idx;
    unsigned error_bits = (idx >> bits) - 1;
    double base = ldexp(1.0, (int)(error_bits + bits));
    unsigned k = idx % val;
    return floor(base + ((double)k + 0.5) * ldexp(1.0, (int)error_bits));
}

/* json+ 2.2.12 .. 2.19: every bucket by raw index, plus the scheme's constants. */
static void read_index_bins(json_ctx *cx, fsc_lat *lat, const cJSON *obj, uint64_t mul)
{
    const cJSON *b = cJSON_GetObjectItemCaseSensitive(obj, "FIO_IO_U_PLAT_BITS");
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, "FIO_IO_U_PLAT_VAL");
    if (!cJSON_IsNumber(b) || !cJSON_IsNumber(v) || b->valuedouble < 1 || b->valuedouble > 16 ||
        v->valuedouble != ldexp(1.0, (int)b->valuedouble)) {
        if (!fsc_run_warn(cx->run, 0, "json+ bins: unknown histogram scheme, bins dropped"))
            cx->oom = true;
        return;
    }
    unsigned bits = (unsigned)b->valuedouble, val = (unsigned)v->valuedouble;
    const cJSON *it;
    cJSON_ArrayForEach(it, obj) {
        double idx;
        if (!cJSON_IsNumber(it) || it->valuedouble == 0 || !key_number(it->string, &idx) ||
            idx < 0 || idx > 65535 || idx != floor(idx))
            continue;
        double lat_v = fsc_json_plat_index_value((unsigned)idx, bits, val);
        if (!fsc_lat_add_bin(lat, fsc_json_exact_mul(lat_v, mul), it->valuedouble))
            cx->oom = true;
    }
}

static void read_bins(json_ctx *cx, fsc_lat *lat, const cJSON *obj, uint64_t mul)
{
    if (!cJSON_IsObject(obj))
        return;
    if (cJSON_GetObjectItemCaseSensitive(obj, "FIO_IO_U_PLAT_BITS")) {
        read_index_bins(cx, lat, obj, mul);
        return;
    }
    const cJSON *it;
    cJSON_ArrayForEach(it, obj) {
        double key;
        if (!cJSON_IsNumber(it) || !key_number(it->string, &key))
            continue;
        if (!fsc_lat_add_bin(lat, fsc_json_exact_mul(key, mul), it->valuedouble))
            cx->oom = true;
    }
}

/* slat/clat/lat (usec, mul 1000) or slat_ns/clat_ns/lat_ns (mul 1). */
static void read_lat(json_ctx *cx, fsc_lat *lat, const cJSON *obj, uint64_t mul)
{
    const cJSON *it;
    cJSON_ArrayForEach(it, obj) {
        if (!it->string)
            continue;
        if (strcmp(it->string, "percentile") == 0)
            read_percentiles(cx, lat, it, mul);
        else if (strcmp(it->string, "bins") == 0)
            read_bins(cx, lat, it, mul);
        else
            take_field(lat, fsc_lat_fields, fsc_n_lat_fields, it, strcmp(it->string, "N") == 0 ? 1 : mul);
    }
}

/* Which latency object a key names, and its unit; -1 if it is not one. */
static int lat_key(const char *key, uint64_t *mul)
{
    static const char *const usec_names[FSC_LAT_COUNT] = {"slat", "clat", "lat"};
    for (int k = 0; k < FSC_LAT_COUNT; k++) {
        if (strcmp(key, usec_names[k]) == 0) {
            *mul = 1000;
            return k;
        }
        if (strcmp(key, fsc_latkind_name((fsc_latkind)k)) == 0) {
            *mul = 1;
            return k;
        }
    }
    return -1;
}

/* A small whole number of a "prios" entry ("prioclass": 1), or -1. */
static int prio_key(const cJSON *entry, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(entry, key);
    return cJSON_IsNumber(v) && v->valuedouble >= 0 && v->valuedouble <= 32767 &&
                   v->valuedouble == floor(v->valuedouble)
               ? (int)v->valuedouble
               : -1;
}

/* fio 3.18-3.29's "clat_high_prio" (and low, and lat_* with lat_percentiles=1), or
 * 3.30+'s "prios" array: read into d's prios. False: the key is none of them. */
static bool read_prios(json_ctx *cx, fsc_dir *d, const cJSON *it)
{
    fsc_latkind kind;
    int high = fsc_prio_highlow_from(it->string, strlen(it->string), &kind);
    if (high >= 0) {
        fsc_prio *p = cJSON_IsObject(it) ? fsc_dir_prio(d, high, -1, -1, -1, kind) : NULL;
        if (p)
            read_lat(cx, &p->lat, it, 1);
        return true;
    }
    if (strcmp(it->string, "prios") != 0)
        return false;
    if (!cJSON_IsArray(it))
        return true;
    const cJSON *entry;
    cJSON_ArrayForEach(entry, it) {
        for (int k = FSC_LAT_CLAT; k <= FSC_LAT_LAT; k++) {
            const cJSON *lat = cJSON_GetObjectItemCaseSensitive(entry, fsc_latkind_name((fsc_latkind)k));
            if (!cJSON_IsObject(lat))
                continue;
            fsc_prio *p = fsc_dir_prio(d, -1, prio_key(entry, "prioclass"), prio_key(entry, "prio"),
                                       prio_key(entry, "priohint"), (fsc_latkind)k);
            if (p)
                read_lat(cx, &p->lat, lat, 1);
        }
    }
    return true;
}

static void read_dir(json_ctx *cx, fsc_dir *d, const cJSON *obj)
{
    fsc_num io_raw = {0}, io_kbytes = {0};
    const cJSON *io_raw_it = NULL, *io_kbytes_it = NULL; /* the numbers, to scale exactly */
    const cJSON *it;
    d->present = true;
    cJSON_ArrayForEach(it, obj) {
        if (!it->string)
            continue;
        uint64_t mul = 1;
        int k;
        if (strcmp(it->string, "io_bytes") == 0) {
            if (take_num(&io_raw, it, 1))
                io_raw_it = it;
        } else if (strcmp(it->string, "io_kbytes") == 0) {
            if (take_num(&io_kbytes, it, 1))
                io_kbytes_it = it;
        }
        else if ((k = lat_key(it->string, &mul)) >= 0 && cJSON_IsObject(it))
            read_lat(cx, &d->lat[k], it, mul);
        else if (!read_prios(cx, d, it))
            take_field(d, fsc_dir_fields, fsc_n_dir_fields, it, 1);
    }
    /* io_bytes is KiB despite its name up to 2.20; 2.21 made it bytes and added
     * io_kbytes in the same change, so io_kbytes (or else the version) tells which. */
    if (io_raw.set)
        take_num(&d->io_bytes, io_raw_it, io_kbytes.set || cx->io_in_bytes ? 1 : 1024);
    else if (io_kbytes.set)
        take_num(&d->io_bytes, io_kbytes_it, 1024);
    if (cx->agg_is_mean && d->bw_agg.set) {
        d->bw_agg.set = false;
        cx->agg_dropped = true;
    }
    if (!d->bw_bytes.set && d->bw.set)
        d->bw_bytes = fsc_num_of(fsc_json_exact_mul(d->bw.v, 1024)); /* bw is KiB/s: a unit change */
}

static void read_kvlist(json_ctx *cx, fsc_kvlist *l, const cJSON *obj)
{
    const cJSON *it;
    cJSON_ArrayForEach(it, obj) {
        if (!it->string || !cJSON_IsNumber(it) || strlen(it->string) >= sizeof l->items[0].key)
            continue;
        if (!fsc_kvlist_set(l, it->string, it->valuedouble))
            cx->oom = true;
    }
}

static void read_options(json_ctx *cx, fsc_job *job, const cJSON *obj)
{
    const cJSON *it;
    cJSON_ArrayForEach(it, obj) {
        if (it->string && cJSON_IsString(it) && !fsc_job_set_option(job, it->string, it->valuestring))
            cx->oom = true;
    }
}

/* A job-level key that holds a sub-object: a direction, the options or a
 * bucket → percent list, or fio's steadystate. Unknown ones are skipped. */
static void read_job_object(json_ctx *cx, fsc_job *job, const char *key, const cJSON *it)
{
    int d = fsc_ddir_from_name(key, strlen(key));
    if (d >= 0 && strlen(key) == strlen(fsc_ddir_name((fsc_ddir)d))) {
        read_dir(cx, &job->dir[d], it);
        return;
    }
    if (strcmp(key, "job options") == 0) {
        read_options(cx, job, it);
        return;
    }
    if (strcmp(key, "steadystate") == 0) {
        if (!fsc_steady_read_json(&job->steadystate, it))
            cx->oom = true;
        return;
    }
    fsc_kvlist *l = fsc_json_job_list(job, key, strlen(key));
    if (l)
        read_kvlist(cx, l, it);
}

fsc_kvlist *fsc_json_job_list(fsc_job *job, const char *key, size_t n)
{
    const struct {
        const char *name;
        fsc_kvlist *list;
    } lists[] = {
        {"iodepth_level", &job->iodepth_level},       {"iodepth_submit", &job->iodepth_submit},
        {"iodepth_complete", &job->iodepth_complete}, {"latency_ns", &job->latency[FSC_BUCKET_NS]},
        {"latency_us", &job->latency[FSC_BUCKET_US]}, {"latency_ms", &job->latency[FSC_BUCKET_MS]},
    };
    for (size_t i = 0; i < FSC_ARRAY_SIZE(lists); i++)
        if (strlen(lists[i].name) == n && memcmp(key, lists[i].name, n) == 0)
            return lists[i].list;
    return NULL;
}

static void read_job(json_ctx *cx, const cJSON *obj)
{
    fsc_job *job = fsc_run_add_job(cx->run);
    if (!job) {
        cx->oom = true;
        return;
    }
    const cJSON *it;
    cJSON_ArrayForEach(it, obj) {
        const char *key = it->string;
        if (!key)
            continue;
        if (cJSON_IsObject(it)) {
            read_job_object(cx, job, key, it);
        } else if (strcmp(key, "jobname") == 0) {
            take_str(cx, &job->jobname, it);
        } else if (strcmp(key, "hostname") == 0) {
            take_str(cx, &job->hostname, it);
        } else if (strcmp(key, "desc") == 0) {
            take_str(cx, &job->description, it);
        } else {
            take_field(job, fsc_job_fields, fsc_n_job_fields, it, 1);
        }
    }
}

static void read_disk(json_ctx *cx, const cJSON *obj)
{
    fsc_disk *disk = fsc_run_add_disk(cx->run);
    if (!disk) {
        cx->oom = true;
        return;
    }
    const cJSON *it;
    cJSON_ArrayForEach(it, obj) {
        if (it->string && strcmp(it->string, "name") == 0)
            take_str(cx, &disk->name, it);
        else if (it->string)
            take_field(disk, fsc_disk_fields, fsc_n_disk_fields, it, 1);
    }
}

size_t fsc_fio_version_parts(const char *s, unsigned v[3])
{
    v[0] = v[1] = v[2] = 0;
    if (!s)
        return 0;
    if (strncmp(s, "fio-", 4) == 0)
        s += 4;
    for (size_t i = 0; i < 3; i++) {
        if (*s < '0' || *s > '9') /* a part that a '.' began may be empty: 0 */
            return i && s[-1] == '.' ? i + 1 : i;
        unsigned n = 0;
        for (; *s >= '0' && *s <= '9'; s++)
            n = n >= 1000 ? 1000 : n * 10 + (unsigned)(*s - '0');
        v[i] = n > 1000 ? 1000 : n;
        if (*s != '.' || i == 2)
            return i + 1;
        s++;
    }
    return 3;
}

/* bw_agg held the mean bandwidth, not a percentage, before fio 2.1.8. */
static bool bw_agg_is_mean(const char *version);
static bool io_bytes_in_bytes(const char *version);

void fsc_json_version_rules(const char *version, bool *agg_is_mean, bool *io_in_bytes)
{
    *agg_is_mean = bw_agg_is_mean(version);
    *io_in_bytes = io_bytes_in_bytes(version);
}

static bool bw_agg_is_mean(const char *version)
{
    unsigned v[3];
    if (!fsc_fio_version_parts(version, v))
        return false;
    return v[0] < 2 || (v[0] == 2 && (v[1] == 0 || (v[1] == 1 && v[2] < 8)));
}

/* io_bytes became bytes (from KiB) in fio 2.21. */
static bool io_bytes_in_bytes(const char *version)
{
    unsigned v[3];
    if (!fsc_fio_version_parts(version, v))
        return false;
    return v[0] > 2 || (v[0] == 2 && v[1] >= 21);
}

/* client/server: when every job names the same host, that host is the run's. */
static void set_run_host(json_ctx *cx)
{
    if (!fsc_json_run_finish(cx->run))
        cx->oom = true;
}

/* fio's group_reporting may leave an empty entry in "jobs" beside the real ones
 * (fio 3.33: a job with group_reporting and another without, or with
 * unified_rw_reporting=both): no "jobname", groupid 4294967295 (-1 in 32 bits), all
 * zeros. Its normal text has no such job; it is no job of the run. */
static bool phantom_job(const fsc_job *j)
{
    return !j->jobname && j->groupid.set && j->groupid.v == 4294967295.0;
}

static bool drop_phantom_jobs(fsc_run *run)
{
    size_t phantoms = 0;
    for (size_t i = 0; i < run->n_jobs; i++)
        phantoms += phantom_job(&run->jobs[i]);
    if (!phantoms)
        return true;
    bool *keep = malloc(run->n_jobs * sizeof *keep);
    if (!keep)
        return false;
    for (size_t i = 0; i < run->n_jobs; i++)
        keep[i] = !phantom_job(&run->jobs[i]);
    fsc_run_keep_jobs(run, keep);
    free(keep);
    return fsc_run_warn(run, 0, "%zu job%s without a name in group 4294967295 left out (fio's empty entry of "
                                "group_reporting)", phantoms, phantoms == 1 ? "" : "s");
}

/* Until fio made the three lists their own (3.18, 56440e63: slat, clat and lat
 * percentiles apart), lat_percentiles=1 fed clat's histogram with total latencies
 * (lat_percentiles was clat_percentiles' inverse): the text says " lat percentiles",
 * the JSON writes the list under clat_ns all the same. There it is lat's. */
static bool lat_lists_placed(fsc_run *run)
{
    unsigned v[3];
    if (!fsc_fio_version_parts(run->source.fio_version, v) || v[0] > 3 || (v[0] == 3 && v[1] >= 18))
        return true; /* (3.38 with disable_lat=1 has clat's list alone, and it is clat's) */
    size_t moved = 0;
    for (size_t i = 0; i < run->n_jobs; i++) {
        fsc_job *j = &run->jobs[i];
        const char *lp = fsc_job_option(j, "lat_percentiles"), *cp = fsc_job_option(j, "clat_percentiles");
        if (!lp)
            lp = fsc_run_global_option(run, "lat_percentiles");
        if (!cp)
            cp = fsc_run_global_option(run, "clat_percentiles");
        /* clat_percentiles=0 alone set its inverse (init.c) */
        if (lp ? strcmp(lp, "1") != 0 : !cp || strcmp(cp, "0") != 0)
            continue;
        for (int d = 0; d < FSC_DIR_COUNT; d++) {
            fsc_lat *c = &j->dir[d].lat[FSC_LAT_CLAT], *l = &j->dir[d].lat[FSC_LAT_LAT];
            if (!c->n_percentile || l->n_percentile)
                continue;
            fsc_lat_swap_percentiles(c, l);
            moved++;
        }
    }
    return !moved || fsc_run_warn(run, 0, "lat_percentiles=1 (or clat_percentiles=0): the percentiles fio wrote "
                                          "under clat_ns are total latency's (fio before 3.18), read as lat_ns");
}

bool fsc_json_run_finish(fsc_run *run)
{
    if (!drop_phantom_jobs(run) || !lat_lists_placed(run))
        return false;
    const char *host = NULL;
    for (size_t i = 0; i < run->n_jobs; i++) {
        const char *h = run->jobs[i].hostname;
        if (!h)
            continue;
        if (host && strcmp(host, h) != 0)
            return true;
        host = h;
    }
    return !(host && !(run->source.host = fsc_strdup(host)));
}

static fsc_run *read_root(const cJSON *root, fsc_buf *err);

/* A node (64 bytes and the allocator's header) per value, and the text of keys and
 * strings. A document of small numbers ("[1,1,1,...]") costs 40 times its size: the
 * memory budget must see it before the tree is built. */
size_t fsc_json_tree_bytes(const char *json, size_t len)
{
    size_t values = 1;
    for (size_t i = 0; i < len; i++)
        values += json[i] == ',' || json[i] == '[' || json[i] == '{';
    return values * 80 + len;
}

/* Where byte c leaves a JSON text's strings: *in, inside one; *esc, after its '\\'. */
static inline void string_state(char c, bool *in, bool *esc)
{
    if (!*in)
        *in = c == '"';
    else if (*esc)
        *esc = false;
    else if (c == '\\')
        *esc = true;
    else if (c == '"')
        *in = false;
}

/* fio's strings are one line each (job names, hosts, devices, options): a raw line
 * break inside one (invalid JSON, which cJSON takes as it is) is where a paste was
 * wrapped, "jobname" : "<72 characters>" over the rest of a long name. The text
 * without those breaks (and a CR before one), in *copy (malloc'd); false when it has
 * none or on no memory (*copy NULL then). An escaped one ("\n") is the string's own.
 * A break after a line narrower than the widest of the text (width, or the widest
 * of the document) is a word wrap, which dropped a space there: it becomes one;
 * after a line as wide, a hard cut: nothing, unless word_seam says otherwise. */

/* The bytes of the line [line, i) up to i (a break inside a string), a CR before the
 * break not counted. */
static inline size_t seam_cut(const char *json, size_t line, size_t i)
{
    return i - line - (i > line && json[i - 1] == '\r');
}

/* In a text a word wrap broke (a break inside a string after a narrower line), is
 * the break at i, after a line as wide as the widest, a word's end too? A greedy wrapper fills a line up to the width exactly
 * when a word ends there, and then drops the space as at any other break; it cuts a
 * word only when the word is wider than a whole line (Python's textwrap,
 * break_long_words). So: a word wrap when the bytes around the break, up to a space
 * or the string's ends, fit in a line; a cut word when they do not. */
static bool word_seam(const char *json, size_t len, size_t line, size_t i, size_t widest)
{
    size_t end = line + seam_cut(json, line, i), tail = 0, head = 0;
    while (end - tail > line && json[end - tail - 1] != ' ' && json[end - tail - 1] != '"')
        tail++;
    for (size_t k = i + 1; k < len && json[k] != ' ' && json[k] != '"' && json[k] != '\n' && json[k] != '\r'; k++)
        head++;
    return tail && head && tail + head <= widest;
}

static bool unwrap_strings(const char *json, size_t len, size_t width, char **copy, size_t *copy_len)
{
    *copy = NULL;
    bool in = false, esc = false, found = false;
    size_t widest = 0, line = 0, narrowest_seam = SIZE_MAX;
    for (size_t i = 0; i < len; i++) {
        char c = json[i];
        if (c == '\n') {
            /* the breaks the copy leaves out: after a '\\' one is not (else the copy
             * would be the text again, read again, for ever) */
            if (in && !esc) {
                found = true;
                size_t cut = seam_cut(json, line, i);
                narrowest_seam = cut < narrowest_seam ? cut : narrowest_seam;
            }
            widest = i - line > widest ? i - line : widest;
            line = i + 1;
        }
        string_state(c, &in, &esc);
    }
    widest = len - line > widest ? len - line : widest;
    widest = width > widest ? width : widest;
    if (!found || !(*copy = malloc(len + 1)))
        return false;
    /* a hard cut (a terminal, fold) breaks every string at the width, after a space
     * too: a narrower line before a break says a wrapper went by words */
    bool by_words = narrowest_seam < widest;
    size_t w = 0;
    in = esc = false;
    line = 0;
    for (size_t i = 0; i < len; i++) {
        char c = json[i];
        if (in && !esc && (c == '\n' || (c == '\r' && i + 1 < len && json[i + 1] == '\n'))) {
            if (c == '\r')
                continue;
            size_t cut = seam_cut(json, line, i);
            bool word = cut < widest || (by_words && word_seam(json, len, line, i, widest));
            if (word && w && (*copy)[w - 1] != ' ')
                (*copy)[w++] = ' ';
            line = i + 1;
            continue;
        }
        if (c == '\n')
            line = i + 1;
        string_state(c, &in, &esc);
        (*copy)[w++] = c;
    }
    (*copy)[w] = '\0';
    *copy_len = w;
    return true;
}

/* The word of a number printf wrote for NaN or infinity at s[0, n): "nan", "-nan",
 * "inf", "-inf", "infinity" (any case, maybe signed); its length, or 0. */
static size_t nonfinite_at(const char *s, size_t n)
{
    size_t k = n && (s[0] == '-' || s[0] == '+');
    static const char *const words[] = {"infinity", "nan", "inf"};
    for (size_t i = 0; i < FSC_ARRAY_SIZE(words); i++) {
        size_t w = strlen(words[i]);
        if (n - k >= w && !strncasecmp(s + k, words[i], w) &&
            (n - k == w || !isalnum((unsigned char)s[k + w])))
            return k + w;
    }
    return 0;
}

/* fio prints a value that is not a number as C's printf does: "slope" : -nan (a
 * steady state of one sample), "criterion" : inf. JSON has no word for them, and
 * cJSON refuses the whole document. The text with each such value (outside strings,
 * after ':' '[' or ',') written null, in *copy (malloc'd): false when it has none or
 * on no memory. null reads as a value fio did not have: the field is left out. */
static bool null_nonfinite(const char *json, size_t len, char **copy, size_t *copy_len)
{
    /* "nan" becomes 4 bytes, one more, after a ':' '[' or ',' of its own: a quarter
     * more. Asked only of a document cJSON refused: the copy is made as it is looked at */
    if (!(*copy = malloc(len + len / 4 + 2)))
        return false;
    bool in = false, esc = false, any = false;
    char prev = 0; /* the last byte outside strings that is not a space */
    size_t w = 0;
    for (size_t i = 0; i < len; i++) {
        size_t k = !in && (prev == ':' || prev == '[' || prev == ',') ? nonfinite_at(json + i, len - i) : 0;
        if (k) {
            memcpy(*copy + w, "null", 4);
            w += 4;
            i += k - 1;
            prev = 'l';
            any = true;
            continue;
        }
        string_state(json[i], &in, &esc);
        if (!in && !isspace((unsigned char)json[i]))
            prev = json[i];
        (*copy)[w++] = json[i];
    }
    if (!any) {
        free(*copy);
        *copy = NULL;
        return false;
    }
    (*copy)[w] = '\0';
    *copy_len = w;
    return true;
}

fsc_run *fsc_json_read(const char *json, size_t len, fsc_buf *err)
{
    return fsc_json_read_in(json, len, 0, err);
}

fsc_run *fsc_json_read_in(const char *json, size_t len, size_t width, fsc_buf *err)
{
    char *unwrapped;
    size_t unwrapped_len;
    if (unwrap_strings(json, len, width, &unwrapped, &unwrapped_len)) {
        fsc_run *run = fsc_json_read_in(unwrapped, unwrapped_len, width, err);
        free(unwrapped);
        return run;
    }
    size_t tree = fsc_json_tree_bytes(json, len);
    if (!fsc_budget_charge(tree)) {
        fsc_buf_puts(err, "out of memory");
        return NULL;
    }
    cJSON *root = cJSON_ParseWithLength(json, len);
    char *finite;
    size_t finite_len;
    if (!root && null_nonfinite(json, len, &finite, &finite_len)) {
        fsc_run *run = fsc_json_read_in(finite, finite_len, width, err);
        free(finite);
        fsc_budget_credit(tree);
        return run;
    }
    bool object = root && cJSON_IsObject(root);
    bool marked = object && mark_big_integers(root, json, len);
    fsc_run *run = marked ? read_root(root, err) : NULL;
    if (!object)
        fsc_buf_puts(err, "not a valid JSON object");
    else if (!marked)
        fsc_buf_puts(err, "out of memory");
    cJSON_Delete(root);
    fsc_budget_credit(tree);
    return run;
}

static fsc_run *read_root(const cJSON *root, fsc_buf *err)
{
    const cJSON *jobs = cJSON_GetObjectItemCaseSensitive(root, "jobs");
    if (!cJSON_IsArray(jobs))
        jobs = cJSON_GetObjectItemCaseSensitive(root, "client_stats");
    if (!cJSON_IsArray(jobs)) {
        fsc_buf_puts(err, "no \"jobs\" or \"client_stats\" array: not fio JSON");
        return NULL;
    }
    json_ctx cx = {.run = fsc_run_new()};
    if (!cx.run) {
        fsc_buf_puts(err, "out of memory");
        return NULL;
    }
    take_str(&cx, &cx.run->source.fio_version, cJSON_GetObjectItemCaseSensitive(root, "fio version"));
    fsc_json_version_rules(cx.run->source.fio_version, &cx.agg_is_mean, &cx.io_in_bytes);
    take_str(&cx, &cx.run->source.time, cJSON_GetObjectItemCaseSensitive(root, "time"));
    take_num(&cx.run->source.timestamp, cJSON_GetObjectItemCaseSensitive(root, "timestamp"), 1);
    const cJSON *it;
    cJSON_ArrayForEach(it, cJSON_GetObjectItemCaseSensitive(root, "global options")) {
        if (it->string && cJSON_IsString(it) && !fsc_run_set_global_option(cx.run, it->string, it->valuestring))
            cx.oom = true;
    }
    cJSON_ArrayForEach(it, jobs) {
        if (cJSON_IsObject(it))
            read_job(&cx, it);
    }
    cJSON_ArrayForEach(it, cJSON_GetObjectItemCaseSensitive(root, "disk_util")) {
        if (cJSON_IsObject(it))
            read_disk(&cx, it);
    }
    const cJSON *idle = cJSON_GetObjectItemCaseSensitive(root, "cpu_idleness");
    if (cJSON_IsObject(idle))
        read_kvlist(&cx, &cx.run->cpu_idleness, idle);
    set_run_host(&cx);
    if (cx.agg_dropped && !fsc_run_warn(cx.run, 0, "bw_agg dropped: %s wrote the mean bandwidth there, not a percentage",
                                        cx.run->source.fio_version))
        cx.oom = true;
    if (cx.oom) {
        fsc_buf_puts(err, "out of memory");
        fsc_run_free(cx.run);
        return NULL;
    }
    return cx.run;
}
