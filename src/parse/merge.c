/* SPDX-License-Identifier: MIT */
/*
 * One fio invocation, one run: `--output-format=normal,json,terse` prints the same run
 * up to three times, next to each other. Such runs are merged into the one whose
 * numbers are the most precise (JSON, then terse, then normal text); the others fill
 * what it lacks (the header's iodepth, jobs=N, the group summary, the context).
 */
#include "parse_int.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Lines allowed between two printouts of one invocation (blank lines, a banner). */
enum { MERGE_MAX_GAP = 3 };

/* Printed precision: normal text shows 3 significant digits (10.4k, 81.1MiB), terse
 * integers; the relative error of 3 digits is at most 0.5%. */
#define MERGE_REL 0.006

static int precision(fsc_format f)
{
    switch (f) {
    case FSC_FMT_JSON: return 3;
    case FSC_FMT_TERSE: return 2;
    default: return 1;
    }
}

static size_t n_formats(const fsc_run *r)
{
    return r->source.n_formats ? r->source.n_formats : 1;
}

static fsc_format format_at(const fsc_run *r, size_t i)
{
    return r->source.n_formats ? r->source.formats[i] : r->source.format;
}

static bool has_format(const fsc_run *r, fsc_format f)
{
    for (size_t i = 0; i < n_formats(r); i++)
        if (format_at(r, i) == f)
            return true;
    return false;
}

/* Two printouts of a number agree: exactly for counts fio prints exactly, within the
 * printed precision otherwise. *compared counts the checks made. */
static bool agree_within(const fsc_num *a, const fsc_num *b, bool exact, double rel, double slack, size_t *compared)
{
    if (!a->set || !b->set)
        return true;
    (*compared)++;
    if (exact)
        return a->v == b->v;
    double d = fabs(a->v - b->v), m = fmax(fabs(a->v), fabs(b->v));
    return d <= rel * m + slack;
}

static bool agree(const fsc_num *a, const fsc_num *b, bool exact, double rel, size_t *compared)
{
    return agree_within(a, b, exact, rel, 1.0, compared);
}

/* A mean latency printed in usec with two decimals is 5 ns off at most: "avg= 0.06"
 * for 56.73 ns (fio 2.x, a null engine), more than its relative precision allows. */
#define MEAN_SLACK_NS 10.0

/* fio before 2.20 made a value's one decimal by dividing the remainder by 10,
 * rounding up, until one digit was left (num2str): "IOPS=72.1k" for 72974, "1772.1MB/s"
 * for 1772.88 MiB/s. Its decimal says nothing, its integer part is right: such a
 * text agrees with its JSON to a whole unit of that part, a tenth at worst for the
 * three or four characters fio prints (the exact runtime and counts still tell two
 * invocations apart). */
enum { GARBLED_BEFORE_MINOR = 20 };
#define GARBLED_REL 0.1

static bool decimal_garbled(const fsc_run *r)
{
    const char *v = r->source.fio_version;
    unsigned major, minor;
    return v && sscanf(v, "fio-%u.%u", &major, &minor) == 2 && major == 2 && minor < GARBLED_BEFORE_MINOR;
}

/* The relative precision of a job's IOPS, bandwidth and bytes as the text prints them
 * (num2str): 3 digits (MERGE_REL), or with significant_figures=N (fio 3.3+; the job
 * options of its JSON say) N: half a unit of the last over the least value it
 * rounds from ("3M" for 2.5M to 3.5M: a third with N=1); GARBLED_REL for fio before
 * 2.20. The counts fio prints whole (runtime, I/Os) still tell two invocations apart. */
static double printed_rel(const fsc_job *x, const fsc_job *y, bool garbled)
{
    if (garbled)
        return GARBLED_REL;
    const char *sf = fsc_job_option(x, "significant_figures");
    if (!sf)
        sf = fsc_job_option(y, "significant_figures");
    int n = sf ? atoi(sf) : 0;
    if (n < 1 || n > 2)
        return MERGE_REL;
    double half = n == 1 ? 0.5 : 0.05;
    return half / (1 + half) + 0.001;
}

/* Are d's only numbers the counts of its issued line (a job that failed on its first
 * I/O: "issued rwts: total=0,1,0,0")? fio's terse record has no such counts, so the
 * same direction there has no numbers at all. */
static bool issued_only(const fsc_dir *d)
{
    fsc_dir rest = *d;
    rest.total_ios = rest.short_ios = rest.drop_ios = (fsc_num){0};
    return !fsc_dir_has_data(&rest);
}

static bool dirs_agree(const fsc_dir *a, const fsc_dir *b, double rel, size_t *compared)
{
    bool data_a = fsc_dir_has_data(a), data_b = fsc_dir_has_data(b);
    if (!data_a || !data_b)
        return data_a == data_b || !a->present || !b->present || (data_a ? issued_only(a) : issued_only(b));
    return agree(&a->runtime, &b->runtime, true, 0, compared) &&
           agree(&a->total_ios, &b->total_ios, true, 0, compared) &&
           agree(&a->iops, &b->iops, false, rel, compared) && agree(&a->bw_bytes, &b->bw_bytes, false, rel, compared) &&
           agree(&a->io_bytes, &b->io_bytes, false, rel, compared) &&
           agree_within(&a->lat[FSC_LAT_CLAT].mean, &b->lat[FSC_LAT_CLAT].mean, false, MERGE_REL, MEAN_SLACK_NS,
                        compared);
}

static bool jobs_agree(const fsc_job *x, const fsc_job *y, bool garbled, size_t *compared)
{
    if (!fsc_str_same(x->jobname, y->jobname))
        return false;
    double rel = printed_rel(x, y, garbled);
    /* the job's own counts: all a job that failed before its first I/O's end has */
    if (!agree(&x->error, &y->error, true, 0, compared) || !agree(&x->ctx, &y->ctx, true, 0, compared) ||
        !agree(&x->majf, &y->majf, true, 0, compared) || !agree(&x->minf, &y->minf, true, 0, compared))
        return false;
    for (int d = 0; d < FSC_DIR_COUNT; d++)
        if (d != FSC_DIR_SYNC && !dirs_agree(&x->dir[d], &y->dir[d], rel, compared))
            return false;
    return true;
}

/* Pair a's jobs with b's (as many): map[i] is the job of b that agrees with a's job i,
 * the one in the same place when it does. fio --client prints its clients' reports
 * in its text and in its JSON each in its own order. At most a few dozen comparisons
 * a job (a document of thousands of alike jobs in another order stays linear: no
 * pairing). NULL: no pairing, or out of memory. The same runs in the same order always
 * pair alike (fsc_runs_same_invocation, then fsc_runs_merge). */
static size_t *jobs_paired(const fsc_run *a, const fsc_run *b, size_t *compared)
{
    size_t n = a->n_jobs, *map = malloc(n * sizeof *map), budget = 64 * n + 1024;
    bool *used = calloc(n, sizeof *used), garbled = decimal_garbled(a) || decimal_garbled(b);
    bool ok = map && used;
    for (size_t i = 0; ok && i < n; i++) {
        size_t j = i;
        if (used[i] || (budget--, !jobs_agree(&a->jobs[i], &b->jobs[i], garbled, compared)))
            for (j = 0; j < n && budget && (used[j] || (budget--, !jobs_agree(&a->jobs[i], &b->jobs[j], garbled, compared))); j++)
                ;
        ok = j < n && budget;
        if (ok) {
            map[i] = j;
            used[j] = true;
        }
    }
    free(used);
    if (!ok) {
        free(map);
        return NULL;
    }
    return map;
}

bool fsc_runs_same_invocation(const fsc_run *a, const fsc_run *b)
{
    if (!a || !b || b->source.format == FSC_FMT_ENGINE || a->source.format == FSC_FMT_ENGINE)
        return false;
    for (size_t i = 0; i < n_formats(b); i++)
        if (has_format(a, format_at(b, i)))
            return false; /* an invocation prints each format once */
    uint32_t a1 = a->source.first_line, a2 = a->source.last_line;
    uint32_t b1 = b->source.first_line, b2 = b->source.last_line;
    if (b1 > a2 + MERGE_MAX_GAP || a1 > b2 + MERGE_MAX_GAP)
        return false;
    if (a->source.fio_version && b->source.fio_version && strcmp(a->source.fio_version, b->source.fio_version))
        return false;
    if (a->n_jobs != b->n_jobs || !a->n_jobs)
        return false;
    size_t compared = 0, *map = jobs_paired(a, b, &compared);
    free(map);
    return map && compared > 0;
}

/* ---- filling the kept run ---- */

static void fill_nums(void *dst, const void *src, const fsc_field *f, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        fsc_num *d = fsc_field_ptr(dst, &f[i]);
        const fsc_num *s = fsc_field_cptr(src, &f[i]);
        if (!d->set && s->set)
            *d = *s;
    }
}

#define TAKE(dst, src, field)      \
    do {                           \
        if (!(dst)->field) {       \
            (dst)->field = (src)->field; \
            (src)->field = NULL;   \
        }                          \
    } while (0)

/* A list (pointer + count + capacity) moves from src when dst has none. */
#define TAKE_LIST(dst, src, p, n, cap)                     \
    do {                                                   \
        if (!(dst)->n && (src)->n) {                       \
            free((dst)->p);                                \
            (dst)->p = (src)->p;                           \
            (dst)->n = (src)->n;                           \
            (dst)->cap = (src)->cap;                       \
            (src)->p = NULL;                               \
            (src)->n = (src)->cap = 0;                     \
        }                                                  \
    } while (0)

static bool fill_job(fsc_job *d, fsc_job *s)
{
    fill_nums(d, s, fsc_job_fields, fsc_n_job_fields);
    TAKE(d, s, hostname);
    TAKE(d, s, description);
    TAKE(d, s, error_text);
    /* fio's JSON lists the options the job set: it stays as fio wrote it; terse has none */
    for (size_t i = 0; !d->n_options && i < s->n_options; i++)
        if (!fsc_job_set_option(d, s->options[i].key, s->options[i].val))
            return false;
    for (int k = 0; k < FSC_DIR_COUNT; k++) {
        fsc_dir *dd = &d->dir[k], *sd = &s->dir[k];
        if (!sd->present)
            continue;
        dd->present = true;
        fill_nums(dd, sd, fsc_dir_fields, fsc_n_dir_fields);
        for (int l = 0; l < FSC_LAT_COUNT; l++) {
            fill_nums(&dd->lat[l], &sd->lat[l], fsc_lat_fields, fsc_n_lat_fields);
            TAKE_LIST(&dd->lat[l], &sd->lat[l], percentile, n_percentile, cap_percentile);
            TAKE_LIST(&dd->lat[l], &sd->lat[l], bins, n_bins, cap_bins);
        }
        TAKE_LIST(dd, sd, prios, n_prios, cap_prios); /* the JSON's (with N) where it has them */
    }
    TAKE_LIST(d, s, iodepth_level.items, iodepth_level.n, iodepth_level.cap);
    TAKE_LIST(d, s, iodepth_submit.items, iodepth_submit.n, iodepth_submit.cap);
    TAKE_LIST(d, s, iodepth_complete.items, iodepth_complete.n, iodepth_complete.cap);
    for (int b = 0; b < FSC_BUCKET_COUNT; b++)
        TAKE_LIST(d, s, latency[b].items, latency[b].n, latency[b].cap);
    if (!d->first_line || (s->first_line && s->first_line < d->first_line)) {
        d->first_line = s->first_line;
        d->last_line = s->last_line;
    }
    return true;
}

/* fio's terse record holds one percentile list a direction, in the slots of clat's,
 * but stat.c fills them with the total latency's when the job set lat_percentiles:
 * a record cannot tell which. The run's other printout can: it shows lat's list in
 * that direction (text's "lat percentiles", JSON's lat_ns), and then so is terse's. */
static void terse_lists_placed(fsc_job *terse, const fsc_job *other)
{
    for (int k = 0; k < FSC_DIR_COUNT; k++) {
        fsc_lat *c = &terse->dir[k].lat[FSC_LAT_CLAT], *l = &terse->dir[k].lat[FSC_LAT_LAT];
        if (c->n_percentile && !l->n_percentile && other->dir[k].lat[FSC_LAT_LAT].n_percentile)
            fsc_lat_swap_percentiles(c, l);
    }
}

/* Terse prints a latency's min, max and percentiles in whole usec, cut down; the text
 * in the unit it picked, nsec for short ones ("min=1062"). A text value inside
 * terse's usec is the finer one. */
static void finer(double *terse, double text)
{
    if (text >= *terse && text < *terse + 1000.0)
        *terse = text;
}

static void terse_latencies_refined(fsc_job *terse, const fsc_job *text)
{
    for (int k = 0; k < FSC_DIR_COUNT; k++)
        for (int l = 0; l < FSC_LAT_COUNT; l++) {
            fsc_lat *t = &terse->dir[k].lat[l];
            const fsc_lat *x = &text->dir[k].lat[l];
            if (t->min.set && x->min.set)
                finer(&t->min.v, x->min.v);
            if (t->max.set && x->max.set)
                finer(&t->max.v, x->max.v);
            /* both lists ascending by percentile */
            for (size_t i = 0, j = 0; i < t->n_percentile && j < x->n_percentile && !t->pctl_unsorted &&
                                      !x->pctl_unsorted;) {
                double d = t->percentile[i].pct - x->percentile[j].pct;
                if (fabs(d) < 1e-9)
                    finer(&t->percentile[i++].ns, x->percentile[j++].ns);
                else if (d < 0)
                    i++;
                else
                    j++;
            }
        }
}

/* Terse has no nsec buckets: it adds them to its first usec one (2 us, stat.c's
 * stat_calc_lat_nu). When the other printout has them, that bucket is the other's
 * (fio's text leaves out a bucket of none: 0), or a merged run counts them twice. */
static bool terse_buckets_unfolded(fsc_job *terse, const fsc_job *other)
{
    const fsc_kvlist *ns = &other->latency[FSC_BUCKET_NS], *us = &other->latency[FSC_BUCKET_US];
    const fsc_kv *first = fsc_kvlist_get(&terse->latency[FSC_BUCKET_US], "2");
    if (!ns->n || !first)
        return true;
    double left;
    if (us->n) {
        const fsc_kv *theirs = fsc_kvlist_get(us, "2");
        left = theirs ? theirs->v : 0;
    } else { /* no usec line at all: what the nsec ones leave */
        double sum = 0;
        for (size_t i = 0; i < ns->n; i++)
            sum += ns->items[i].v;
        left = round((first->v - sum) * 100.0) / 100.0; /* terse's %3.2f */
    }
    return fsc_kvlist_set(&terse->latency[FSC_BUCKET_US], "2", left > 0 ? left : 0);
}

/* A disk both printouts list: what the kept one lacks (terse has no sectors, fio
 * 3.36's text does). fio lists the disks in one order in each; another order is
 * looked through only for a list of a machine's size, so that a document of
 * thousands of disks stays linear. */
enum { FILL_DISKS_SEARCH = 256 };

static void fill_disks(fsc_run *k, const fsc_run *o)
{
    for (size_t i = 0; i < k->n_disk_util; i++) {
        size_t j = i < o->n_disk_util && fsc_str_same(k->disk_util[i].name, o->disk_util[i].name) ? i : SIZE_MAX;
        for (size_t m = 0; j == SIZE_MAX && o->n_disk_util <= FILL_DISKS_SEARCH && m < o->n_disk_util; m++)
            if (fsc_str_same(k->disk_util[i].name, o->disk_util[m].name))
                j = m;
        if (j != SIZE_MAX)
            fill_nums(&k->disk_util[i], &o->disk_util[j], fsc_disk_fields, fsc_n_disk_fields);
    }
}

static bool add_format(fsc_run *r, fsc_format f)
{
    if (!r->source.n_formats) {
        r->source.formats[0] = r->source.format;
        r->source.n_formats = 1;
    }
    if (has_format(r, f) || r->source.n_formats >= FSC_FMT_COUNT)
        return true;
    r->source.formats[r->source.n_formats++] = f;
    return true;
}

static bool said(const fsc_run *r, const char *message)
{
    for (size_t i = 0; i < r->n_warnings; i++)
        if (r->warnings[i].message && message && !strcmp(r->warnings[i].message, message))
            return true;
    return false;
}

fsc_run *fsc_runs_merge(fsc_run *a, fsc_run *b, fsc_label_from label_from)
{
    /* a was printed first; keep the more precise numbers */
    bool keep_b = precision(b->source.format) > precision(a->source.format);
    fsc_run *k = keep_b ? b : a, *o = keep_b ? a : b;
    /* paired as fsc_runs_same_invocation paired them (a to b), then o's job for k's j */
    size_t compared = 0, *map = jobs_paired(a, b, &compared);
    if (map && keep_b) {
        size_t *inv = malloc(k->n_jobs * sizeof *inv);
        for (size_t i = 0; inv && i < k->n_jobs; i++)
            inv[map[i]] = i;
        free(map);
        map = inv;
    }
    bool ok = map != NULL;
    fsc_run *terse = k->source.format == FSC_FMT_TERSE ? k : o->source.format == FSC_FMT_TERSE ? o : NULL;
    for (size_t j = 0; terse && ok && j < k->n_jobs; j++) {
        fsc_job *kj = &k->jobs[j], *oj = &o->jobs[map[j]];
        fsc_job *tj = terse == k ? kj : oj, *other = terse == k ? oj : kj;
        terse_lists_placed(tj, other);
        ok = terse_buckets_unfolded(tj, other);
        if (terse == k && o->source.format == FSC_FMT_NORMAL)
            terse_latencies_refined(tj, other);
    }
    for (size_t j = 0; ok && j < k->n_jobs; j++)
        ok = fill_job(&k->jobs[j], &o->jobs[map[j]]);
    free(map);
    TAKE_LIST(k, o, groups, n_groups, cap_groups);
    TAKE_LIST(k, o, disk_util, n_disk_util, cap_disk_util);
    fill_disks(k, o);
    if (!k->cpu_idleness.n && o->cpu_idleness.n) { /* the list whole, its index with it */
        fsc_kvlist t = k->cpu_idleness;
        k->cpu_idleness = o->cpu_idleness;
        o->cpu_idleness = t;
    }
    TAKE_LIST(k, o, global_options, n_global_options, cap_global_options);
    TAKE(k, o, source.fio_version);
    TAKE(k, o, source.time);
    if (!k->source.timestamp.set)
        k->source.timestamp = o->source.timestamp;
    TAKE(k, o, source.host);
    if (o->n_context > k->n_context) { /* the text around a JSON block has the headings */
        char **c = k->context;
        size_t n = k->n_context, cap = k->cap_context;
        k->context = o->context;
        k->n_context = o->n_context;
        k->cap_context = o->cap_context;
        k->context_titled = o->context_titled;
        o->context = c;
        o->n_context = n;
        o->cap_context = cap;
        char *cmd = k->command;
        k->command = o->command;
        o->command = cmd;
    }
    /* a warning both printouts carry (fio's empty entry of group_reporting, in its
     * JSON and its terse) is said once */
    for (size_t i = 0; ok && i < o->n_warnings; i++)
        if (!said(k, o->warnings[i].message))
            ok = fsc_run_warn(k, o->warnings[i].line, "%s", o->warnings[i].message);
    /* formats in the order they were printed; the kept run's id is the first one's */
    fsc_format order[2 * FSC_FMT_COUNT];
    size_t n = 0;
    for (size_t i = 0; i < n_formats(a); i++)
        order[n++] = format_at(a, i);
    for (size_t i = 0; i < n_formats(b); i++)
        order[n++] = format_at(b, i);
    k->source.n_formats = 0;
    k->source.formats[0] = order[0];
    k->source.n_formats = 1;
    for (size_t i = 1; i < n; i++)
        add_format(k, order[i]);
    if (k->source.first_line > o->source.first_line)
        k->source.first_line = o->source.first_line;
    if (k->source.last_line < o->source.last_line)
        k->source.last_line = o->source.last_line;
    if (keep_b) {
        char *id = k->id;
        k->id = o->id;
        o->id = id;
    }
    char *label = fsc_job_label(k, k->n_jobs ? &k->jobs[0] : NULL, label_from);
    if (label) {
        free(k->label);
        k->label = label;
    }
    fsc_run_free(o);
    if (!ok) {
        fsc_run_free(k);
        return NULL;
    }
    return k;
}
