/* SPDX-License-Identifier: MIT */
/* fio terse (minimal) output, versions 2 to 5, into the run model. The field
 * positions come from grammars/terse.json (compiled in); this file interprets it. */
#include "parse_int.h"

#include "fioscope/embedded.h"
#include "fioscope/units.h"

#include <cJSON.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* Fewer fields than this is not a terse record (v2 of fio 2.0.5 has 120, v3
 * without disk util 121), which keeps prose with semicolons out. */
enum { TERSE_MIN_FIELDS = 100, TERSE_MAX_FIELDS = 4096 };

typedef struct field {
    const char *s;
    size_t n;
} field;

/* One record's fields and where the interpretation stands. */
typedef struct record {
    field *f;
    size_t n, pos;
    int version;
    unsigned bad; /* fields that did not convert */
} record;

/* ---- detection ---- */

static bool is_digits(const char *s, size_t n)
{
    if (n == 0)
        return false;
    for (size_t i = 0; i < n; i++)
        if (s[i] < '0' || s[i] > '9')
            return false;
    return true;
}

#define ENGINE_TAG "fioscope-engine-"
#define ENGINE_TAG_LEN (sizeof ENGINE_TAG - 1)

/* "fio-3.33", "fio-3.41-49-gde3d" (2.0.8+), "2.0.5" (up to 2.0.7), or fioscope's own
 * engine ("fioscope-engine-0.1.0", which writes terse v3 as fio 3.33 does). */
static bool is_version_field(const char *s, size_t n)
{
    if (n > ENGINE_TAG_LEN && memcmp(s, ENGINE_TAG, ENGINE_TAG_LEN) == 0)
        return s[ENGINE_TAG_LEN] >= '0' && s[ENGINE_TAG_LEN] <= '9';
    if (n > 4 && memcmp(s, "fio-", 4) == 0)
        return s[4] >= '0' && s[4] <= '9';
    size_t dots = 0;
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '.')
            dots++;
        else if (s[i] < '0' || s[i] > '9')
            return false;
    }
    return n >= 3 && (dots == 1 || dots == 2) && s[0] != '.' && s[n - 1] != '.';
}

static size_t count_fields(const char *s, size_t n)
{
    size_t k = 1;
    for (size_t i = 0; i < n; i++)
        k += s[i] == ';';
    return k;
}

/* Does field k (0-based) of s contain needle? */
static bool nth_field_has(const char *s, size_t n, size_t k, const char *needle)
{
    const char *p = s, *end = s + n;
    for (size_t i = 0; i < k; i++) {
        const char *semi = memchr(p, ';', (size_t)(end - p));
        if (!semi)
            return false;
        p = semi + 1;
    }
    const char *fe = memchr(p, ';', (size_t)(end - p));
    size_t fn = fe ? (size_t)(fe - p) : (size_t)(end - p);
    size_t nl = strlen(needle);
    for (size_t i = 0; i + nl <= fn; i++)
        if (memcmp(p + i, needle, nl) == 0)
            return true;
    return false;
}

/* Where the record starts in the line: after leading blanks, or (v3+) at the
 * version digit before ";fio-" when the record is glued to the end of something
 * else (a truncated "[eta 04" progress line, a "+" diff marker). SIZE_MAX if none. */
static size_t record_start(const char *s, size_t n)
{
    size_t k = 0;
    while (k < n && (s[k] == ' ' || s[k] == '\t'))
        k++;
    if (k + 1 < n && s[k] >= '2' && s[k] <= '5' && s[k + 1] == ';')
        return k;
    for (size_t i = k + 1; i + 5 <= n; i++) {
        const char *semi = memchr(s + i, ';', n - 4 - i); /* candidates for ";fio-" */
        if (!semi)
            break;
        i = (size_t)(semi - s);
        if (memcmp(s + i, ";fio-", 5) == 0 ||
            (i + 1 + ENGINE_TAG_LEN <= n && memcmp(s + i + 1, ENGINE_TAG, ENGINE_TAG_LEN) == 0)) {
            if (s[i - 1] >= '3' && s[i - 1] <= '5')
                return i - 1;
            return SIZE_MAX;
        }
    }
    return SIZE_MAX;
}

int fsc_terse_detect(const char *s, size_t n)
{
    size_t k = record_start(s, n);
    if (k == SIZE_MAX)
        return 0;
    s += k;
    n -= k;
    int version = s[0] - '0';
    if (count_fields(s, n) < TERSE_MIN_FIELDS)
        return 0;
    const char *f1 = s + 2, *end = s + n;
    const char *semi = memchr(f1, ';', (size_t)(end - f1));
    size_t f1n = (size_t)(semi - f1);
    /* the first percentile field ("1.000000%=35") sits after the header and the 12
     * read fields before it: prose never has it there */
    if (!nth_field_has(s, n, version >= 3 ? 17 : 16, "%="))
        return 0;
    if (version >= 3)
        return is_version_field(f1, f1n) ? version : 0;
    /* v2: jobname;groupid;error;KiB... - the group id and error are integers */
    const char *g = semi + 1;
    const char *g_end = memchr(g, ';', (size_t)(end - g));
    if (!g_end)
        return 0;
    const char *e_end = memchr(g_end + 1, ';', (size_t)(end - g_end - 1));
    if (!e_end || !is_digits(g, (size_t)(g_end - g)) || !is_digits(g_end + 1, (size_t)(e_end - g_end - 1)))
        return 0;
    return 2;
}

/* Is the version field of a v3+ record bare ("2.0.5", fio <= 2.0.7)? */
static bool version_is_bare(const char *s, size_t n)
{
    return n > 2 && !(n > 6 && memcmp(s + 2, "fio-", 4) == 0) &&
           !(n > 2 + ENGINE_TAG_LEN && memcmp(s + 2, ENGINE_TAG, ENGINE_TAG_LEN) == 0);
}

/* ---- the layout table ---- */

/* grammars/terse.json, read once for the whole process (read-only afterwards, so
 * threads share it; it lives until exit). */
static cJSON *layout_tree;
static pthread_once_t layout_once = PTHREAD_ONCE_INIT;

static void layout_init(void)
{
    for (const struct fsc_embedded *e = fsc_grammar_files; e->name; e++)
        if (strcmp(e->name, "terse.json") == 0)
            layout_tree = cJSON_ParseWithLength(e->data, e->size);
}

static const cJSON *load_layout(void)
{
    pthread_once(&layout_once, layout_init);
    return layout_tree;
}

/* ---- values ---- */

/* A field as a number, exactly: mul scales it (1024 for KiB, 1000 for usec);
 * pct allows a trailing '%'. */
static bool field_num(field f, uint64_t mul, bool pct, fsc_num *out)
{
    if (pct && f.n && f.s[f.n - 1] == '%')
        f.n--;
    fsc_decimal d;
    size_t used = 0;
    if (f.n == 0 || fsc_decimal_parse(f.s, f.n, &d, &used) != FSC_OK || used != f.n)
        return false;
    *out = fsc_decimal_num(d, mul, 1);
    return true;
}

static bool field_number(field f, uint64_t mul, bool pct, double *out)
{
    fsc_num v;
    if (!field_num(f, mul, pct, &v))
        return false;
    *out = v.v;
    return true;
}

typedef struct spec {
    const char *target; /* up to ':' */
    size_t target_n;
    const char *sub; /* after '.', or NULL */
    size_t sub_n;
    uint64_t mul;
    bool pct;
} spec;

static spec spec_of(const char *text)
{
    spec sp = {text, strlen(text), NULL, 0, 1, false};
    const char *colon = strchr(text, ':');
    if (colon) {
        sp.target_n = (size_t)(colon - text);
        sp.pct = strcmp(colon + 1, "%") == 0;
        sp.mul = strcmp(colon + 1, "KiB") == 0 ? 1024 : strcmp(colon + 1, "usec") == 0 ? 1000 : 1;
    }
    const char *dot = memchr(text, '.', sp.target_n);
    if (dot) {
        sp.sub = dot + 1;
        sp.sub_n = sp.target_n - (size_t)(dot + 1 - text);
        sp.target_n = (size_t)(dot - text);
    }
    return sp;
}

static bool spec_is(const spec *sp, const char *name)
{
    return strlen(name) == sp->target_n && memcmp(sp->target, name, sp->target_n) == 0;
}

static void store_num(record *r, fsc_num *dst, field f, const spec *sp)
{
    fsc_num v;
    if (field_num(f, sp->mul, sp->pct, &v))
        *dst = v; /* a 64-bit counter stays exact */
    else
        r->bad++;
}

/* "99.000000%=929" (usec) → a percentile; "0%=0" marks an unused slot. */
static bool store_pctl(record *r, fsc_lat *lat, field f, const spec *sp)
{
    const char *eq = memchr(f.s, '=', f.n);
    double pct, v;
    if (!eq || !field_number((field){f.s, (size_t)(eq - f.s)}, 1, true, &pct) ||
        !field_number((field){eq + 1, f.n - (size_t)(eq + 1 - f.s)}, sp->mul, false, &v)) {
        r->bad++;
        return true;
    }
    if (pct == 0 && v == 0)
        return true;
    return fsc_lat_add_pctl(lat, pct, v);
}

static int lat_index(const spec *sp)
{
    for (int k = 0; k < FSC_LAT_COUNT; k++)
        if (spec_is(sp, fsc_latkind_name((fsc_latkind)k)))
            return k;
    return -1;
}

/* One direction field; false only on allocation failure. */
static bool store_dir_field(record *r, fsc_dir *d, field f, const spec *sp)
{
    if (sp->sub) {
        int k = lat_index(sp);
        if (k < 0)
            return true;
        if (sp->sub_n == 10 && memcmp(sp->sub, "percentile", 10) == 0)
            return store_pctl(r, &d->lat[k], f, sp);
        const fsc_field *lf = fsc_field_find(fsc_lat_fields, fsc_n_lat_fields, sp->sub, sp->sub_n);
        if (lf)
            store_num(r, fsc_field_ptr(&d->lat[k], lf), f, sp);
        return true;
    }
    const fsc_field *df = fsc_field_find(fsc_dir_fields, fsc_n_dir_fields, sp->target, sp->target_n);
    if (df)
        store_num(r, fsc_field_ptr(d, df), f, sp);
    return true;
}

static fsc_kvlist *job_list(fsc_job *job, const spec *sp)
{
    if (spec_is(sp, "iodepth_level"))
        return &job->iodepth_level;
    if (spec_is(sp, "latency_us"))
        return &job->latency[FSC_BUCKET_US];
    if (spec_is(sp, "latency_ms"))
        return &job->latency[FSC_BUCKET_MS];
    return NULL;
}

static bool store_str(char **dst, field f)
{
    free(*dst);
    *dst = fsc_strndup(f.s, f.n);
    return *dst != NULL;
}

/* A header or job-level field; false only on allocation failure. */
static bool store_job_field(record *r, fsc_run *run, fsc_job *job, field f, const spec *sp)
{
    if (sp->sub) {
        fsc_kvlist *l = job_list(job, sp);
        char key[sizeof l->items[0].key];
        double v;
        if (!l || sp->sub_n >= sizeof key)
            return true;
        memcpy(key, sp->sub, sp->sub_n);
        key[sp->sub_n] = '\0';
        if (!field_number(f, sp->mul, sp->pct, &v)) {
            r->bad++;
            return true;
        }
        return fsc_kvlist_set(l, key, v);
    }
    if (spec_is(sp, "jobname"))
        return store_str(&job->jobname, f);
    if (spec_is(sp, "fio_version"))
        return run->source.fio_version || store_str(&run->source.fio_version, f);
    const fsc_field *jf = fsc_field_find(fsc_job_fields, fsc_n_job_fields, sp->target, sp->target_n);
    if (jf)
        store_num(r, fsc_field_ptr(job, jf), f, sp);
    return true;
}

/* Walk a list of specs over the next fields. dir NULL: job-level fields. */
static bool walk(record *r, fsc_run *run, fsc_job *job, fsc_dir *dir, const cJSON *specs)
{
    const cJSON *it;
    cJSON_ArrayForEach(it, specs) {
        if (!cJSON_IsString(it) || r->pos >= r->n)
            break;
        spec sp = spec_of(it->valuestring);
        field f = r->f[r->pos++];
        bool ok = dir ? store_dir_field(r, dir, f, &sp) : store_job_field(r, run, job, f, &sp);
        if (!ok)
            return false;
    }
    return true;
}

/* ---- disk util groups ---- */

/* name;7 counters;util% - the shape of one disk group starting at r->pos. */
static bool disk_group_at(const record *r)
{
    if (r->pos + 9 > r->n)
        return false;
    const field *f = r->f + r->pos;
    if (f[0].n == 0 || is_digits(f[0].s, f[0].n))
        return false;
    for (int i = 1; i < 8; i++)
        if (!is_digits(f[i].s, f[i].n))
            return false;
    return f[8].n > 1 && f[8].s[f[8].n - 1] == '%';
}

static fsc_disk *find_disk(fsc_run *run, field name)
{
    for (size_t i = 0; i < run->n_disk_util; i++) {
        const char *d = run->disk_util[i].name;
        if (d && strlen(d) == name.n && memcmp(d, name.s, name.n) == 0)
            return &run->disk_util[i];
    }
    return NULL;
}

static void fill_disk(record *r, fsc_disk *disk, const cJSON *specs)
{
    const cJSON *it = specs ? specs->child : NULL;
    for (size_t i = 0; i < 9 && it; i++, it = it->next) {
        field f = r->f[r->pos + i];
        spec sp = spec_of(cJSON_IsString(it) ? it->valuestring : "");
        const fsc_field *df = fsc_field_find(fsc_disk_fields, fsc_n_disk_fields, sp.target, sp.target_n);
        if (df)
            store_num(r, fsc_field_ptr(disk, df), f, &sp);
    }
}

/* Every line of a multi-job run repeats the same disk util: keep the first. */
static bool read_disks(record *r, fsc_run *run, const cJSON *layout)
{
    const cJSON *plain = cJSON_GetObjectItemCaseSensitive(layout, "disk");
    const cJSON *aggr = cJSON_GetObjectItemCaseSensitive(layout, "disk_aggregate");
    fsc_disk *last = NULL;
    bool last_new = false;
    while (disk_group_at(r)) {
        field name = r->f[r->pos];
        if (name.n == 6 && memcmp(name.s, "slaves", 6) == 0) {
            if (last && last_new)
                fill_disk(r, last, aggr);
        } else if ((last = find_disk(run, name)) != NULL) {
            last_new = false;
        } else {
            last = fsc_run_add_disk(run);
            if (!last || !store_str(&last->name, name))
                return false;
            last_new = true;
            fill_disk(r, last, plain);
        }
        r->pos += 9;
    }
    return true;
}

/* What follows the disks: ";total_err;first_error" (continue_on_error), then the
 * description, which may itself hold ';'. */
static bool read_tail(record *r, fsc_job *job)
{
    if (r->pos + 2 <= r->n && is_digits(r->f[r->pos].s, r->f[r->pos].n) &&
        is_digits(r->f[r->pos + 1].s, r->f[r->pos + 1].n))
        r->pos += 2; /* error totals: the model has no place for them */
    if (r->pos >= r->n)
        return true;
    const char *from = r->f[r->pos].s;
    const char *to = r->f[r->n - 1].s + r->f[r->n - 1].n;
    while (to > from && (to[-1] == ' ' || to[-1] == '\r'))
        to--;
    r->pos = r->n;
    if (to == from)
        return true;
    return store_str(&job->description, (field){from, (size_t)(to - from)});
}

/* ---- a record ---- */

static bool split_fields(record *r, const char *s, size_t n)
{
    while (n && (s[n - 1] == '\r' || s[n - 1] == ' ' || s[n - 1] == '\t'))
        n--; /* a CRLF or trailing blanks must not stick to the last field */
    size_t count = count_fields(s, n);
    if (count > TERSE_MAX_FIELDS)
        count = TERSE_MAX_FIELDS;
    r->f = malloc(count * sizeof *r->f);
    if (!r->f)
        return false;
    const char *p = s, *end = s + n;
    while (r->n < count) {
        const char *semi = r->n + 1 < count ? memchr(p, ';', (size_t)(end - p)) : NULL;
        const char *fe = semi ? semi : end;
        r->f[r->n++] = (field){p, (size_t)(fe - p)};
        if (!semi)
            break;
        p = semi + 1;
    }
    return true;
}

/* How many directions this record carries: v2 of fio 2.0.5 has no trim. */
static int direction_count(const record *r, const cJSON *layout, const cJSON *ver, const cJSON *dir_specs)
{
    int all = cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(ver, "directions"));
    const cJSON *min = cJSON_GetObjectItemCaseSensitive(ver, "directions_min");
    if (!cJSON_IsNumber(min))
        return all;
    size_t fixed = 1 + (size_t)cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(ver, "header"));
    size_t per = (size_t)cJSON_GetArraySize(dir_specs);
    size_t job_n = (size_t)cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(layout, "job"));
    if (r->n >= fixed + per * (size_t)all + job_n)
        return all;
    return min->valueint;
}

/* fio prints a percentile list of zeros for a direction that did no I/O; keeping
 * it would make the direction look used. */
static void drop_zero_percentiles(fsc_lat *lat)
{
    for (size_t i = 0; i < lat->n_percentile; i++)
        if (lat->percentile[i].ns != 0)
            return;
    lat->n_percentile = 0;
}

/* The v2 description line: ";text" (a lone ";" when there is none, up to 3.13). */
static fsc_status read_v2_description(fsc_run *run, const char *s, size_t n)
{
    if (!run->n_jobs)
        return FSC_OK;
    fsc_job *job = &run->jobs[run->n_jobs - 1];
    size_t k = 1;
    while (n > k && (s[n - 1] == ' ' || s[n - 1] == '\r'))
        n--;
    if (n <= k)
        return FSC_OK;
    return store_str(&job->description, (field){s + k, n - k}) ? FSC_OK : FSC_E_NOMEM;
}

static bool read_record(record *r, fsc_run *run, fsc_job *job, const cJSON *layout)
{
    char vkey[2] = {(char)('0' + r->version), '\0'};
    const cJSON *ver = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(layout, "versions"), vkey);
    const cJSON *dname = cJSON_GetObjectItemCaseSensitive(ver, "direction");
    const cJSON *dir_specs = cJSON_IsString(dname) ? cJSON_GetObjectItemCaseSensitive(layout, dname->valuestring) : NULL;
    if (!ver || !dir_specs)
        return true;
    r->pos = 1; /* the version field */
    if (!walk(r, run, job, NULL, cJSON_GetObjectItemCaseSensitive(ver, "header")))
        return false;
    int nd = direction_count(r, layout, ver, dir_specs);
    const cJSON *dn = cJSON_GetObjectItemCaseSensitive(ver, "directions");
    for (int i = 0; i < nd; i++) {
        const cJSON *name = cJSON_GetArrayItem(dn, i);
        int d = cJSON_IsString(name) ? fsc_ddir_from_name(name->valuestring, strlen(name->valuestring)) : -1;
        if (d < 0 || r->pos >= r->n)
            break;
        fsc_dir *dir = &job->dir[d];
        dir->present = true;
        if (!walk(r, run, job, dir, dir_specs))
            return false;
        drop_zero_percentiles(&dir->lat[FSC_LAT_CLAT]);
        if (dir->bw.set && !dir->bw_bytes.set)
            dir->bw_bytes = fsc_num_of(dir->bw.v * 1024); /* KiB/s: exact for these integers */
    }
    if (!walk(r, run, job, NULL, cJSON_GetObjectItemCaseSensitive(layout, "job")))
        return false;
    if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(ver, "disk_util")) && !read_disks(r, run, layout))
        return false;
    return read_tail(r, job);
}

fsc_status fsc_terse_read(fsc_run *run, const char *s, size_t n, uint32_t lineno)
{
    if (n && s[0] == ';')
        return read_v2_description(run, s, n);
    int version = fsc_terse_detect(s, n);
    if (!version) {
        fsc_run_warn(run, lineno, "not a terse record");
        return FSC_OK;
    }
    size_t k = record_start(s, n);
    record r = {NULL, 0, 0, version, 0};
    const cJSON *layout = load_layout();
    fsc_job *job = layout && split_fields(&r, s + k, n - k) ? fsc_run_add_job(run) : NULL;
    if (!job) {
        free(r.f);
        return FSC_E_NOMEM;
    }
    job->first_line = job->last_line = lineno;
    bool ok = read_record(&r, run, job, layout);
    size_t n_fields = r.n;
    free(r.f);
    if (!ok)
        return FSC_E_NOMEM;
    if (k > 0 && !fsc_run_warn(run, lineno, "terse record starts at column %zu (glued to other text)", k + 1))
        return FSC_E_NOMEM;
    /* fio up to 2.0.7 printed "2.0.5" there, and its terse bandwidth was bytes/ms */
    if (version >= 3 && version_is_bare(s + k, n - k) &&
        !fsc_run_warn(run, lineno, "fio <= 2.0.7 terse: bandwidth fields are bytes/ms, not KiB/s"))
        return FSC_E_NOMEM;
    if (r.bad && !fsc_run_warn(run, lineno, "terse v%d: %u of %zu fields did not convert", version, r.bad, n_fields))
        return FSC_E_NOMEM;
    return FSC_OK;
}
