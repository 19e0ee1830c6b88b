/* SPDX-License-Identifier: MIT */
/* fio terse (minimal) output, versions 2 to 5, into the run model. The field
 * positions come from grammars/terse.json (compiled in); this file interprets it. */
#include "fastline.h"
#include "parse_int.h"

#include "fioscope/embedded.h"
#include "fioscope/units.h"

#include <cJSON.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#ifdef __SSE2__ /* the x86-64 baseline; elsewhere the scalar loops below do it all */
#include <emmintrin.h>
#endif

/* Fewer fields than this is not a terse record (v2 of fio 2.0.5 has 120, v3
 * without disk util 121; with unified_rw_reporting=1, one direction: v2 79, v3 and
 * v4 80, v5 86), which keeps prose with semicolons out. */
enum { TERSE_MIN_FIELDS = FSC_TERSE_MIN_FIELDS, TERSE_MAX_FIELDS = 4096 };

/* The ';' a job's name may hold: fio prints it as it is, so the record has as many
 * fields more (name_semis). The first percentile field comes this many fields after
 * the name: groupid, error and the 12 read fields before it. */
enum { TERSE_NAME_SEMIS = 8, TERSE_PCTL_AFTER_NAME = 15 };
/* Fields a record is split into on the stack (v5 has 189 before its disks). */
enum { TERSE_LOCAL_FIELDS = 256 };

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

/* ---- finding the semicolons, 16 bytes a step ----
 * A record is about 1 KB of short fields, and detection counts them for every line
 * of a terse block (three times, with the reader's own look). The scalar loops are
 * the reference (count_fields, split_fields) and the fallback without SSE2. */

#ifdef __SSE2__
/* The ';' of s[0, 16) as bits. */
static inline unsigned semis16(const char *s)
{
    __m128i v = _mm_loadu_si128((const __m128i *)(const void *)s);
    return (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8(';')));
}
#endif

/* count_fields(s, n) >= want, counting no further than that: 64 bytes a step, the
 * compare results (-1 a ';') summed bytewise, then across. */
static bool has_fields(const char *s, size_t n, size_t want)
{
    size_t need = want - 1, seen = 0, i = 0;
#ifdef __SSE2__
    const __m128i semi = _mm_set1_epi8(';');
    for (; i + 64 <= n; i += 64) {
        __m128i acc = _mm_setzero_si128();
        for (size_t j = 0; j < 64; j += 16)
            acc = _mm_sub_epi8(acc, _mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(const void *)(s + i + j)), semi));
        __m128i sum = _mm_sad_epu8(acc, _mm_setzero_si128());
        seen += (size_t)_mm_cvtsi128_si32(sum) + (size_t)_mm_cvtsi128_si32(_mm_unpackhi_epi64(sum, sum));
        if (seen >= need)
            return true;
    }
#endif
    for (; i < n; i++)
        seen += s[i] == ';';
    return seen >= need;
}

/* Where field k (0-based) of s[0, n) starts, or NULL when it has fewer fields. */
static const char *field_start(const char *s, size_t n, size_t k)
{
    size_t i = 0;
    if (k == 0)
        return s;
#ifdef __SSE2__
    for (; i + 16 <= n; i += 16)
        for (unsigned m = semis16(s + i); m; m &= m - 1)
            if (--k == 0)
                return s + i + __builtin_ctz(m) + 1;
#endif
    for (; i < n; i++)
        if (s[i] == ';' && --k == 0)
            return s + i + 1;
    return NULL;
}

/* s[0, n) cut at its ';' into at most max fields, the last one running to the end
 * (';' and all) when there are more: what split_fields makes with max
 * TERSE_MAX_FIELDS. *more tells that max stopped it. Returns the count. */
static size_t split_semis(field *f, size_t max, const char *s, size_t n, bool *more)
{
    size_t k = 0, i = 0;
    const char *from = s;
    *more = false;
#ifdef __SSE2__
    for (; i + 16 <= n; i += 16)
        for (unsigned m = semis16(s + i); m; m &= m - 1) {
            const char *semi = s + i + __builtin_ctz(m);
            if (k + 1 == max)
                goto last;
            f[k++] = (field){from, (size_t)(semi - from)};
            from = semi + 1;
        }
#endif
    for (; i < n; i++)
        if (s[i] == ';') {
            if (k + 1 == max)
                goto last;
            f[k++] = (field){from, (size_t)(s + i - from)};
            from = s + i + 1;
        }
    f[k++] = (field){from, (size_t)(s + n - from)};
    return k;
last:
    *more = true;
    f[k++] = (field){from, (size_t)(s + n - from)};
    return k;
}

/* Does field k (0-based) of s contain needle? fast: the field found by field_start. */
static bool nth_field_has(const char *s, size_t n, size_t k, const char *needle, bool fast)
{
    const char *p = s, *end = s + n;
    if (fast && (p = field_start(s, n, k)) == NULL)
        return false;
    for (size_t i = 0; i < k && !fast; i++) {
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

/* fsc_terse_detect; fast: the fields counted by has_fields, else by count_fields
 * (the reference). */
static int detect(const char *s, size_t n, bool fast)
{
    size_t k = record_start(s, n);
    if (k == SIZE_MAX)
        return 0;
    s += k;
    n -= k;
    int version = s[0] - '0';
    if (fast ? !has_fields(s, n, TERSE_MIN_FIELDS) : count_fields(s, n) < TERSE_MIN_FIELDS)
        return 0;
    const char *f1 = s + 2, *end = s + n;
    const char *semi = memchr(f1, ';', (size_t)(end - f1));
    size_t f1n = (size_t)(semi - f1);
    /* the first percentile field ("1.000000%=35") sits after the header and the 12
     * read fields before it: prose never has it there (a few fields later when the
     * job's name holds ';': name_semis) */
    int shift = 0; /* (v3+ only: v2 has no "fio-" field to mark a record shifted so) */
    size_t pctl = (version >= 3 ? 2 : 1) + TERSE_PCTL_AFTER_NAME; /* the job name's field, then */
    while (!nth_field_has(s, n, pctl + (size_t)shift, "%=", fast))
        if (version < 3 || ++shift > TERSE_NAME_SEMIS)
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

bool fsc_terse_head(const char *s, size_t n)
{
    if (n < 3 || s[0] < '3' || s[0] > '5' || s[1] != ';')
        return false;
    const char *semi = memchr(s + 2, ';', n - 2);
    /* a bare version ("2.0.5") is no mark: "5;0.000000;..." may be inside a record */
    return semi && (size_t)(semi - s) > 6 && (memcmp(s + 2, "fio-", 4) == 0 || memcmp(s + 2, ENGINE_TAG, 4) == 0) &&
           is_version_field(s + 2, (size_t)(semi - (s + 2)));
}

int fsc_terse_detect(const char *s, size_t n)
{
    return detect(s, n, true);
}

int fsc_terse_detect_ref(const char *s, size_t n)
{
    return detect(s, n, false);
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
static __attribute__((noinline)) bool field_num(field f, uint64_t mul, bool pct, fsc_num *out)
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

/* A disk group's fields by the layout's specs (a cJSON list: the reference). */
static void fill_disk(record *r, fsc_disk *disk, const void *list)
{
    const cJSON *specs = list;
    const cJSON *it = specs ? specs->child : NULL;
    for (size_t i = 0; i < 9 && it; i++, it = it->next) {
        field f = r->f[r->pos + i];
        spec sp = spec_of(cJSON_IsString(it) ? it->valuestring : "");
        const fsc_field *df = fsc_field_find(fsc_disk_fields, fsc_n_disk_fields, sp.target, sp.target_n);
        if (df)
            store_num(r, fsc_field_ptr(disk, df), f, &sp);
    }
}

typedef void disk_filler(record *r, fsc_disk *disk, const void *specs);

/* Every line of a multi-job run repeats the same disk util: keep the first. fill
 * reads a group by the specs plain (a disk) or aggr (its "slaves"). */
static bool read_disks(record *r, fsc_run *run, disk_filler *fill, const void *plain, const void *aggr)
{
    fsc_disk *last = NULL;
    bool last_new = false;
    while (disk_group_at(r)) {
        field name = r->f[r->pos];
        if (name.n == 6 && memcmp(name.s, "slaves", 6) == 0) {
            if (last && last_new)
                fill(r, last, aggr);
        } else if ((last = find_disk(run, name)) != NULL) {
            last_new = false;
        } else {
            last = fsc_run_add_disk(run);
            if (!last || !store_str(&last->name, name))
                return false;
            last_new = true;
            fill(r, last, plain);
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
        is_digits(r->f[r->pos + 1].s, r->f[r->pos + 1].n)) {
        double total, first;
        if (fsc_parse_plain(r->f[r->pos].s, r->f[r->pos].n, &total) == FSC_OK &&
            fsc_parse_plain(r->f[r->pos + 1].s, r->f[r->pos + 1].n, &first) == FSC_OK) {
            job->total_err = fsc_num_of(total);
            job->first_error = fsc_num_of(first);
        }
        r->pos += 2;
    }
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

/* The direction blocks of record r, whose first begins at field `at` (per fields
 * each; `all` the version's directions, `min` its fewest or 0), told by where the
 * job's fields begin: with the CPU usage, a percentage ("92.666667%"), where a
 * block begins with its I/O in KiB. fio prints read, write (and trim) in order; with
 * unified_rw_reporting=1 one block, the mixed one; with =both (fio 3.27+) the mixed
 * one after them. Returns the count (*mixed_only: the one block is mixed), or -1
 * when no count fits (a record cut short or damaged). */
static int direction_blocks(const record *r, size_t at, size_t per, int all, int min, bool *mixed_only)
{
    const int counts[] = {1, min, all, all + 1};
    *mixed_only = false;
    for (size_t i = 0; i < sizeof counts / sizeof *counts; i++) {
        size_t k = at + per * (size_t)counts[i];
        if (counts[i] <= 0 || k >= r->n || !r->f[k].n || r->f[k].s[r->f[k].n - 1] != '%')
            continue;
        *mixed_only = counts[i] == 1 && all > 1;
        return counts[i];
    }
    return -1;
}

/* The model's direction of block i of nd (read_record's order; ddir: the version's
 * directions, all of them). */
static int block_ddir(int i, int nd, bool mixed_only, const int *ddir, int all)
{
    if (mixed_only)
        return FSC_DIR_MIXED;
    return i < all ? ddir[i] : i == all && nd == all + 1 ? FSC_DIR_MIXED : -1;
}

/* How many directions this record carries: v2 of fio 2.0.5 has no trim. */
static int direction_count(const record *r, const cJSON *layout, const cJSON *ver, const cJSON *dir_specs,
                           bool *mixed_only)
{
    int all = cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(ver, "directions"));
    const cJSON *min = cJSON_GetObjectItemCaseSensitive(ver, "directions_min");
    size_t per = (size_t)cJSON_GetArraySize(dir_specs);
    int nd = direction_blocks(r, r->pos, per, all, cJSON_IsNumber(min) ? min->valueint : 0, mixed_only);
    if (nd >= 0)
        return nd;
    if (!cJSON_IsNumber(min))
        return all;
    size_t fixed = 1 + (size_t)cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(ver, "header"));
    size_t job_n = (size_t)cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(layout, "job"));
    if (r->n >= fixed + per * (size_t)all + job_n)
        return all;
    return min->valueint;
}

/* Whether fio printed this latency as taken from samples: with none, fio's calc_lat
 * fails and it prints min, max, mean and stddev as 0 exactly; any sample gives a
 * mean above 0 (printed %f of usec, so 1 ns shows as 0.001000). */
static bool lat_sampled(const fsc_lat *l)
{
    return (l->mean.set && l->mean.v > 0) || (l->max.set && l->max.v > 0) ||
           (l->stddev.set && l->stddev.v > 0);
}

/* A percentile list of zeros is only fio's placeholder when the direction has no
 * samples: fio's calc_clat_percentiles works the list out of an empty histogram
 * then (every value 0 against the real percent keys; "0%=0" only fills the slots
 * after the list). Latencies under 1 usec print the same zeros, since terse cuts
 * ns to whole usec, so the list is kept when clat or lat (lat_percentiles=1 takes
 * the list from lat) has samples or the direction ran: its values are then 0 ns,
 * the floor of "below 1 usec" as every terse percentile is the floor of its usec
 * (docs/ARCHITECTURE.md, terse). Keeping a placeholder would make the direction look used. */
static void drop_zero_percentiles(fsc_dir *dir)
{
    fsc_lat *lat = &dir->lat[FSC_LAT_CLAT];
    for (size_t i = 0; i < lat->n_percentile; i++)
        if (lat->percentile[i].ns != 0)
            return;
    if (lat_sampled(lat) || lat_sampled(&dir->lat[FSC_LAT_LAT]) || (dir->runtime.set && dir->runtime.v > 0))
        return;
    lat->n_percentile = 0;
}

/* After a direction's fields: no placeholder percentile list, bw in bytes too. */
static void finish_dir(fsc_dir *dir)
{
    drop_zero_percentiles(dir);
    if (dir->bw.set && !dir->bw_bytes.set)
        dir->bw_bytes = fsc_num_of(dir->bw.v * 1024); /* KiB/s: exact for these integers */
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

/* A record by the layout tree, spec by spec (the reference for read_record_fast). */
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
    bool mixed_only;
    int nd = direction_count(r, layout, ver, dir_specs, &mixed_only);
    const cJSON *dn = cJSON_GetObjectItemCaseSensitive(ver, "directions");
    int all = cJSON_GetArraySize(dn), ddir[8];
    for (int i = 0; i < all && i < 8; i++) {
        const cJSON *name = cJSON_GetArrayItem(dn, i);
        ddir[i] = cJSON_IsString(name) ? fsc_ddir_from_name(name->valuestring, strlen(name->valuestring)) : -1;
    }
    for (int i = 0; i < nd; i++) {
        int d = all <= 8 ? block_ddir(i, nd, mixed_only, ddir, all) : -1;
        if (d < 0 || r->pos >= r->n)
            break;
        fsc_dir *dir = &job->dir[d];
        dir->present = true;
        if (!walk(r, run, job, dir, dir_specs))
            return false;
        finish_dir(dir);
    }
    if (!walk(r, run, job, NULL, cJSON_GetObjectItemCaseSensitive(layout, "job")))
        return false;
    if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(ver, "disk_util")) &&
        !read_disks(r, run, fill_disk, cJSON_GetObjectItemCaseSensitive(layout, "disk"),
                    cJSON_GetObjectItemCaseSensitive(layout, "disk_aggregate")))
        return false;
    return read_tail(r, job);
}

/* ---- the fast path: numbers ---- */

/* field_num for the fields fio prints ("2003", "0.000000", "99.500000%"): at most 15
 * digits with at most one point, no sign (fsc_decimal_parse reads them whole in its
 * first loop), here as an integer over a power of ten in lowest terms in tens:
 * trailing zeros of the fraction are not read, and the spec's mul (1000 for usec)
 * cancels decimals ("3.492565" usec is 3492565 / 10^3). fsc_decimal_num rounds the
 * exact quotient of two 64-bit integers once, so reducing the fraction keeps its
 * result, and fsc_fdec_num gives that in one double division for the common
 * cases (see its comment). 15 digits times mul (at most 1024) stay below 2^64, as
 * fsc_decimal_num's 64-bit way needs. Any other text is left to field_num. */
/* m / 10^scale times mul (mul_tens of whose factors are 10) by fsc_fdec_num; apart
 * from field_num_fast, which is inlined into each caller, to keep it small. */
static __attribute__((noinline)) fsc_num fraction_num(uint64_t m, unsigned scale, uint64_t mul, unsigned mul_tens)
{
    static const uint64_t p10[4] = {1, 10, 100, 1000};
    unsigned cancel = scale < mul_tens ? scale : mul_tens;
    return fsc_fdec_num((fsc_fdec){m, (uint8_t)(scale - cancel), 0}, mul / p10[cancel], 1);
}

static inline __attribute__((always_inline)) bool field_num_fast(field f, uint64_t mul, unsigned mul_tens, bool pct,
                                                                 fsc_num *out)
{
    const char *p = f.s, *e = f.s + f.n;
    if (pct && p < e && e[-1] == '%')
        e--;
    uint64_t m = 0;
    unsigned c;
    while (p < e && (c = (unsigned)(unsigned char)*p - '0') < 10) {
        m = m * 10 + c;
        p++;
    }
    size_t digits = (size_t)(p - f.s);
    unsigned scale = 0;
    if (p < e && *p == '.') {
        const char *frac = ++p;
        uint64_t mf = m; /* m with the fraction up to its last digit that is not 0 */
        for (;;) {
            if (e - p >= 4 && memcmp(p, "0000", 4) == 0) { /* fio prints 6 decimals, mostly 0 */
                mf *= 10000;
                p += 4;
                continue;
            }
            if (p == e || (c = (unsigned)(unsigned char)*p - '0') >= 10)
                break;
            mf = mf * 10 + c;
            p++;
            if (c) {
                m = mf;
                scale = (unsigned)(p - frac);
            }
        }
        digits += (size_t)(p - frac);
    }
    if (p != e || digits == 0 || digits > 15)
        return field_num(f, mul, pct, out);
    if (scale == 0) { /* an integer: what fsc_fdec_num gives, without its divisions */
        uint64_t i = m * mul; /* below 2^63: a signed conversion is exact the same */
        fsc_num r = {(double)(int64_t)i, true, false, 0};
        if (r.v >= FSC_EXACT_MIN) {
            r.exact = true;
            r.u = i;
        }
        *out = r;
        return true;
    }
    *out = fraction_num(m, scale, mul, mul_tens);
    return true;
}

static inline __attribute__((always_inline)) bool field_number_fast(field f, uint64_t mul, unsigned mul_tens, bool pct,
                                                                    double *out)
{
    fsc_num v;
    if (!field_num_fast(f, mul, mul_tens, pct, &v))
        return false;
    *out = v.v;
    return true;
}

/* ---- the fast path: the layout compiled ----
 * The layout tree resolved once per process into what each field of a record
 * becomes, so that a record is one pass over its fields with no names looked up.
 * read_record (walking the tree) stays the reference: fsc_terse_read_ref. */

typedef enum cop {
    C_SKIP,        /* the model has no place for it: the field is passed over */
    C_NUM,         /* a number at field's offset (direction, latency, job or disk) */
    C_PCTL,        /* "P%=V" into a latency's percentiles */
    C_LIST,        /* a number into a job list under key */
    C_JOBNAME,     /* the job's name */
    C_FIO_VERSION, /* the run's fio version (the first record's) */
} cop;

typedef struct cspec {
    cop op;
    int lat; /* direction specs: the latency kind; -1: the direction itself */
    int list; /* C_LIST: 0 iodepth_level, 1 latency_us, 2 latency_ms */
    const fsc_field *field;
    uint64_t mul;
    unsigned mul_tens; /* the factors 10 of mul (3 for usec) */
    bool pct;
    size_t key_n;
    char key[sizeof ((fsc_kv *)0)->key];
} cspec;

typedef struct clist {
    cspec *s;
    size_t n;
} clist;

typedef struct cversion {
    bool usable;    /* the version and its direction list are in the layout */
    clist header, dir;
    int *ddir;      /* the directions in record order (-1: none the model knows) */
    int n_ddir;
    bool has_min;   /* directions_min: fewer fields than all_from, min directions */
    int min;
    size_t all_from;
    bool disk_util;
} cversion;

typedef struct clayout {
    cversion v[4]; /* versions 2 to 5 */
    clist job, disk, aggr;
} clayout;

static int list_index(const spec *sp)
{
    static const char *const names[] = {"iodepth_level", "latency_us", "latency_ms"};
    for (int k = 0; k < 3; k++)
        if (spec_is(sp, names[k]))
            return k;
    return -1;
}

static fsc_kvlist *job_list_at(fsc_job *job, int list)
{
    return list == 0 ? &job->iodepth_level : &job->latency[list == 1 ? FSC_BUCKET_US : FSC_BUCKET_MS];
}

/* A cspec that passes its field over, with the spec's unit. */
static cspec cspec_of(const spec *sp)
{
    cspec c = {.op = C_SKIP, .lat = -1, .mul = sp->mul, .pct = sp->pct};
    for (uint64_t m = c.mul; m && m % 10 == 0 && c.mul_tens < 3; m /= 10)
        c.mul_tens++;
    return c;
}

/* What store_dir_field does with a spec. */
static cspec compile_dir_spec(const char *text)
{
    spec sp = spec_of(text);
    cspec c = cspec_of(&sp);
    if (sp.sub) {
        c.lat = lat_index(&sp);
        if (c.lat < 0)
            return c;
        if (sp.sub_n == 10 && memcmp(sp.sub, "percentile", 10) == 0) {
            c.op = C_PCTL;
            return c;
        }
        c.field = fsc_field_find(fsc_lat_fields, fsc_n_lat_fields, sp.sub, sp.sub_n);
    } else {
        c.field = fsc_field_find(fsc_dir_fields, fsc_n_dir_fields, sp.target, sp.target_n);
    }
    c.op = c.field ? C_NUM : C_SKIP;
    return c;
}

/* What store_job_field does with a spec. */
static cspec compile_job_spec(const char *text)
{
    spec sp = spec_of(text);
    cspec c = cspec_of(&sp);
    if (sp.sub) {
        c.list = list_index(&sp);
        if (c.list < 0 || sp.sub_n >= sizeof c.key)
            return c;
        c.op = C_LIST;
        c.key_n = sp.sub_n;
        memcpy(c.key, sp.sub, sp.sub_n);
        return c;
    }
    if (spec_is(&sp, "jobname")) {
        c.op = C_JOBNAME;
    } else if (spec_is(&sp, "fio_version")) {
        c.op = C_FIO_VERSION;
    } else {
        c.field = fsc_field_find(fsc_job_fields, fsc_n_job_fields, sp.target, sp.target_n);
        c.op = c.field ? C_NUM : C_SKIP;
    }
    return c;
}

/* What fill_disk does with a spec (a list item that is no string reads as ""). */
static cspec compile_disk_spec(const char *text)
{
    spec sp = spec_of(text);
    cspec c = cspec_of(&sp);
    c.field = fsc_field_find(fsc_disk_fields, fsc_n_disk_fields, sp.target, sp.target_n);
    c.op = c.field ? C_NUM : C_SKIP;
    return c;
}

/* A spec list as walk() goes through it: up to the first item that is no string. */
static bool compile_list(clist *out, const cJSON *specs, cspec (*compile)(const char *))
{
    out->s = calloc((size_t)cJSON_GetArraySize(specs) + 1, sizeof *out->s);
    if (!out->s)
        return false;
    const cJSON *it;
    cJSON_ArrayForEach(it, specs) {
        if (!cJSON_IsString(it))
            break;
        out->s[out->n++] = compile(it->valuestring);
    }
    return true;
}

/* A disk group's specs as fill_disk goes through them: the first 9 items. */
static bool compile_disk_list(clist *out, const cJSON *specs)
{
    out->s = calloc(9, sizeof *out->s);
    if (!out->s)
        return false;
    for (const cJSON *it = specs ? specs->child : NULL; out->n < 9 && it; it = it->next)
        out->s[out->n++] = compile_disk_spec(cJSON_IsString(it) ? it->valuestring : "");
    return true;
}

/* Version vkey as read_record and direction_count see it. */
static bool compile_version(cversion *cv, const cJSON *layout, const char *vkey)
{
    const cJSON *ver = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(layout, "versions"), vkey);
    const cJSON *dname = cJSON_GetObjectItemCaseSensitive(ver, "direction");
    const cJSON *dir_specs = cJSON_IsString(dname) ? cJSON_GetObjectItemCaseSensitive(layout, dname->valuestring) : NULL;
    if (!ver || !dir_specs)
        return true; /* not usable: such a record gets an empty job */
    cv->usable = true;
    const cJSON *header = cJSON_GetObjectItemCaseSensitive(ver, "header");
    const cJSON *dn = cJSON_GetObjectItemCaseSensitive(ver, "directions");
    if (!compile_list(&cv->header, header, compile_job_spec) || !compile_list(&cv->dir, dir_specs, compile_dir_spec))
        return false;
    cv->n_ddir = cJSON_GetArraySize(dn);
    cv->ddir = calloc((size_t)cv->n_ddir + 1, sizeof *cv->ddir);
    if (!cv->ddir)
        return false;
    for (int i = 0; i < cv->n_ddir; i++) {
        const cJSON *name = cJSON_GetArrayItem(dn, i);
        cv->ddir[i] = cJSON_IsString(name) ? fsc_ddir_from_name(name->valuestring, strlen(name->valuestring)) : -1;
    }
    const cJSON *min = cJSON_GetObjectItemCaseSensitive(ver, "directions_min");
    if (cJSON_IsNumber(min)) {
        cv->has_min = true;
        cv->min = min->valueint;
        size_t fixed = 1 + (size_t)cJSON_GetArraySize(header);
        size_t per = (size_t)cJSON_GetArraySize(dir_specs);
        size_t job_n = (size_t)cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(layout, "job"));
        cv->all_from = fixed + per * (size_t)cv->n_ddir + job_n;
    }
    cv->disk_util = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(ver, "disk_util"));
    return true;
}

/* Compiled once for the process, like the tree (never freed; NULL when out of
 * memory: then the reference reads every record). */
static clayout *layout_compiled;
static pthread_once_t compiled_once = PTHREAD_ONCE_INIT;

static void compiled_init(void)
{
    const cJSON *layout = load_layout();
    clayout *cl = layout ? calloc(1, sizeof *cl) : NULL;
    if (!cl)
        return;
    bool ok = compile_list(&cl->job, cJSON_GetObjectItemCaseSensitive(layout, "job"), compile_job_spec) &&
              compile_disk_list(&cl->disk, cJSON_GetObjectItemCaseSensitive(layout, "disk")) &&
              compile_disk_list(&cl->aggr, cJSON_GetObjectItemCaseSensitive(layout, "disk_aggregate"));
    for (int v = 2; ok && v <= 5; v++)
        ok = compile_version(&cl->v[v - 2], layout, (char[2]){(char)('0' + v), '\0'});
    if (ok)
        layout_compiled = cl; /* on failure the parts stay allocated: a few bytes, once */
}

static const clayout *load_compiled(void)
{
    pthread_once(&compiled_once, compiled_init);
    return layout_compiled;
}

/* ---- the fast path: a record ---- */

static inline __attribute__((always_inline)) void store_num_fast(record *r, fsc_num *dst, field f, const cspec *c)
{
    fsc_num v;
    if (field_num_fast(f, c->mul, c->mul_tens, c->pct, &v))
        *dst = v;
    else
        r->bad++;
}

/* store_pctl with field_number_fast. */
static bool store_pctl_fast(record *r, fsc_lat *lat, field f, const cspec *c)
{
    const char *eq = memchr(f.s, '=', f.n);
    double pct, v;
    if (!eq || !field_number_fast((field){f.s, (size_t)(eq - f.s)}, 1, 0, true, &pct) ||
        !field_number_fast((field){eq + 1, f.n - (size_t)(eq + 1 - f.s)}, c->mul, c->mul_tens, false, &v)) {
        r->bad++;
        return true;
    }
    if (pct == 0 && v == 0)
        return true;
    return fsc_lat_add_pctl(lat, pct, v);
}

/* walk() over a direction's fields; false only on allocation failure. */
static bool apply_dir(record *r, fsc_dir *d, const clist *l)
{
    for (size_t i = 0; i < l->n && r->pos < r->n; i++) {
        const cspec *c = &l->s[i];
        field f = r->f[r->pos++];
        if (c->op == C_NUM)
            store_num_fast(r, fsc_field_ptr(c->lat < 0 ? (void *)d : (void *)&d->lat[c->lat], c->field), f, c);
        else if (c->op == C_PCTL && !store_pctl_fast(r, &d->lat[c->lat], f, c))
            return false;
    }
    return true;
}

/* One header or job-level field (store_job_field); false only on allocation failure. */
static bool apply_job_field(record *r, fsc_run *run, fsc_job *job, field f, const cspec *c)
{
    double v;
    switch (c->op) {
    case C_NUM:
        store_num_fast(r, fsc_field_ptr(job, c->field), f, c);
        return true;
    case C_LIST:
        if (!field_number_fast(f, c->mul, c->mul_tens, c->pct, &v)) {
            r->bad++;
            return true;
        }
        return fsc_kvlist_set_n(job_list_at(job, c->list), c->key, c->key_n, v);
    case C_JOBNAME:
        return store_str(&job->jobname, f);
    case C_FIO_VERSION:
        return run->source.fio_version || store_str(&run->source.fio_version, f);
    default:
        return true;
    }
}

/* walk() over header or job-level fields. */
static bool apply_job(record *r, fsc_run *run, fsc_job *job, const clist *l)
{
    for (size_t i = 0; i < l->n && r->pos < r->n; i++)
        if (!apply_job_field(r, run, job, r->f[r->pos++], &l->s[i]))
            return false;
    return true;
}

/* fill_disk by compiled specs. */
static void fill_disk_fast(record *r, fsc_disk *disk, const void *list)
{
    const clist *l = list;
    for (size_t i = 0; i < l->n; i++)
        if (l->s[i].op == C_NUM)
            store_num_fast(r, fsc_field_ptr(disk, l->s[i].field), r->f[r->pos + i], &l->s[i]);
}

/* read_record by the compiled layout. */
static bool read_record_fast(record *r, fsc_run *run, fsc_job *job, const clayout *cl)
{
    const cversion *cv = &cl->v[r->version - 2];
    if (!cv->usable)
        return true;
    r->pos = 1; /* the version field */
    if (!apply_job(r, run, job, &cv->header))
        return false;
    bool mixed_only;
    int nd = direction_blocks(r, r->pos, cv->dir.n, cv->n_ddir, cv->has_min ? cv->min : 0, &mixed_only);
    if (nd < 0)
        nd = cv->has_min && r->n < cv->all_from ? cv->min : cv->n_ddir;
    for (int i = 0; i < nd; i++) {
        int d = block_ddir(i, nd, mixed_only, cv->ddir, cv->n_ddir);
        if (d < 0 || r->pos >= r->n)
            break;
        fsc_dir *dir = &job->dir[d];
        dir->present = true;
        if (!apply_dir(r, dir, &cv->dir))
            return false;
        finish_dir(dir);
    }
    if (!apply_job(r, run, job, &cl->job))
        return false;
    if (cv->disk_util && !read_disks(r, run, fill_disk_fast, &cl->disk, &cl->aggr))
        return false;
    return read_tail(r, job);
}

/* split_fields into local (n_local of them) when they fit, else into the heap. */
static bool split_fields_fast(record *r, field *local, size_t n_local, const char *s, size_t n)
{
    while (n && (s[n - 1] == '\r' || s[n - 1] == ' ' || s[n - 1] == '\t'))
        n--; /* a CRLF or trailing blanks must not stick to the last field */
    bool more;
    r->f = local;
    r->n = split_semis(local, n_local, s, n, &more);
    if (!more || n_local >= TERSE_MAX_FIELDS)
        return true;
    r->f = malloc(TERSE_MAX_FIELDS * sizeof *r->f);
    if (!r->f)
        return false;
    r->n = split_semis(r->f, TERSE_MAX_FIELDS, s, n, &more);
    return true;
}

/* ---- a line ---- */

/* Does field f hold a percentile's "%=" ("1.000000%=35")? */
static bool pctl_mark(field f)
{
    for (size_t i = 0; i + 1 < f.n; i++)
        if (f.s[i] == '%' && f.s[i + 1] == '=')
            return true;
    return false;
}

/* A job named with ';' ("a;b"): fio prints the name as it is, and every field after
 * it moves on by as many (v3+: a v2 record so shifted is not told from prose). The
 * first percentile field stands TERSE_PCTL_AFTER_NAME fields after the name's first;
 * the fields between are joined back into the name. */
static void name_semis(record *r)
{
    size_t name = 2, shift = 0, pctl = name + TERSE_PCTL_AFTER_NAME;
    if (r->version < 3)
        return;
    while (pctl + shift < r->n && shift <= TERSE_NAME_SEMIS && !pctl_mark(r->f[pctl + shift]))
        shift++;
    if (!shift || shift > TERSE_NAME_SEMIS || pctl + shift >= r->n)
        return;
    field *f = r->f;
    f[name].n = (size_t)(f[name + shift].s + f[name + shift].n - f[name].s);
    memmove(&f[name + 1], &f[name + 1 + shift], (r->n - name - 1 - shift) * sizeof *f);
    r->n -= shift;
}

/* fio's empty entry of group_reporting (a job with it beside one without, fio 3.33;
 * json_in.c's phantom job): a record with no name in group -1 (4294967295 in its
 * JSON), all zeros. Its normal text has no such job; it is no job of the run. */
static bool phantom_record(const record *r)
{
    size_t name = r->version >= 3 ? 2 : 1;
    return r->n > name + 1 && r->f[name].n == 0 && r->f[name + 1].n == 2 && !memcmp(r->f[name + 1].s, "-1", 2);
}

/* One line whose detected terse version is `version`; fast: the fast path, else the
 * reference (split_fields, read_record). */
static fsc_status read_line(fsc_run *run, const char *s, size_t n, uint32_t lineno, int version, bool fast)
{
    if (n && s[0] == ';')
        return read_v2_description(run, s, n);
    if (!version) {
        fsc_run_warn(run, lineno, "not a terse record");
        return FSC_OK;
    }
    size_t k = record_start(s, n);
    record r = {NULL, 0, 0, version, 0};
    field local[TERSE_LOCAL_FIELDS];
    const clayout *cl = fast ? load_compiled() : NULL;
    const cJSON *layout = load_layout();
    bool split = cl ? split_fields_fast(&r, local, TERSE_LOCAL_FIELDS, s + k, n - k)
                    : layout && split_fields(&r, s + k, n - k);
    if (split)
        name_semis(&r);
    if (split && phantom_record(&r)) {
        if (r.f != local)
            free(r.f);
        return fsc_run_warn(run, lineno, "1 job without a name in group 4294967295 left out (fio's empty entry of "
                                         "group_reporting)")
                   ? FSC_OK
                   : FSC_E_NOMEM;
    }
    fsc_job *job = split ? fsc_run_add_job(run) : NULL;
    if (!job) {
        if (r.f != local)
            free(r.f);
        return FSC_E_NOMEM;
    }
    job->first_line = job->last_line = lineno;
    bool ok = cl ? read_record_fast(&r, run, job, cl) : read_record(&r, run, job, layout);
    size_t n_fields = r.n;
    if (r.f != local)
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

fsc_status fsc_terse_read(fsc_run *run, const char *s, size_t n, uint32_t lineno)
{
    return read_line(run, s, n, lineno, n && s[0] == ';' ? 0 : fsc_terse_detect(s, n), true);
}

fsc_status fsc_terse_read_detected(fsc_run *run, const char *s, size_t n, uint32_t lineno, int version)
{
    return read_line(run, s, n, lineno, version, true);
}

fsc_status fsc_terse_read_ref(fsc_run *run, const char *s, size_t n, uint32_t lineno)
{
    return read_line(run, s, n, lineno, n && s[0] == ';' ? 0 : fsc_terse_detect_ref(s, n), false);
}
