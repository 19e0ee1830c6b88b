/* SPDX-License-Identifier: MIT */
/* Construction, destruction and field descriptors of the run model. */
#include "fioscope/model.h"
#include "fioscope/keyindex.h"
#include "fioscope/words.h"
#include "kept_strings.h"

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

static const char *const prio_highlow_names[2][2] = {{"clat_low_prio", "clat_high_prio"},
                                                     {"lat_low_prio", "lat_high_prio"}};

const char *fsc_prio_highlow_name(int high, fsc_latkind kind)
{
    return prio_highlow_names[kind == FSC_LAT_LAT][high != 0];
}

int fsc_prio_highlow_from(const char *s, size_t n, fsc_latkind *kind)
{
    for (int k = 0; k < 2; k++)
        for (int h = 0; h < 2; h++)
            if (strlen(prio_highlow_names[k][h]) == n && !memcmp(prio_highlow_names[k][h], s, n)) {
                *kind = k ? FSC_LAT_LAT : FSC_LAT_CLAT;
                return h;
            }
    return -1;
}

static inline bool ascii_digit(char c)
{
    return (unsigned char)(c - '0') < 10;
}

/* Read for every job header of a text (its date): plain byte tests rather than the
 * ctype calls (the program keeps the C locale, where they are the same), the month
 * by a switch rather than a walk of the twelve. */
uint64_t fsc_ctime_key(const char *s)
{
#define MON3(a, b, c) ((uint32_t)(a) << 16 | (uint32_t)(b) << 8 | (uint32_t)(c))
    uint32_t m3 = MON3((unsigned char)s[4], (unsigned char)s[5], (unsigned char)s[6]);
    uint64_t mon;
    switch (m3) {
    case MON3('J', 'a', 'n'): mon = 1; break;
    case MON3('F', 'e', 'b'): mon = 2; break;
    case MON3('M', 'a', 'r'): mon = 3; break;
    case MON3('A', 'p', 'r'): mon = 4; break;
    case MON3('M', 'a', 'y'): mon = 5; break;
    case MON3('J', 'u', 'n'): mon = 6; break;
    case MON3('J', 'u', 'l'): mon = 7; break;
    case MON3('A', 'u', 'g'): mon = 8; break;
    case MON3('S', 'e', 'p'): mon = 9; break;
    case MON3('O', 'c', 't'): mon = 10; break;
    case MON3('N', 'o', 'v'): mon = 11; break;
    case MON3('D', 'e', 'c'): mon = 12; break;
    default: return 0;
    }
#undef MON3
    if ((unsigned char)(s[0] - 'A') >= 26 || (unsigned char)(s[1] - 'a') >= 26 || (unsigned char)(s[2] - 'a') >= 26 ||
        s[3] != ' ' || s[7] != ' ' || s[10] != ' ' || s[13] != ':' || s[16] != ':' || s[19] != ' ' ||
        !(s[8] == ' ' || ascii_digit(s[8])) || !ascii_digit(s[9]))
        return 0;
    static const int digits[] = {11, 12, 14, 15, 17, 18, 20, 21, 22, 23};
    for (size_t i = 0; i < FSC_ARRAY_SIZE(digits); i++)
        if (!ascii_digit(s[digits[i]]))
            return 0;
    uint64_t day = (uint64_t)((s[8] == ' ' ? 0 : s[8] - '0') * 10 + s[9] - '0');
    uint64_t year = (uint64_t)((s[20] - '0') * 1000 + (s[21] - '0') * 100 + (s[22] - '0') * 10 + s[23] - '0');
    uint64_t hms = (uint64_t)(((s[11] - '0') * 10 + s[12] - '0') * 10000 + ((s[14] - '0') * 10 + s[15] - '0') * 100 +
                              (s[17] - '0') * 10 + s[18] - '0');
    return ((year * 100 + mon) * 100 + day) * 1000000 + hms;
}

const char *fsc_format_name(fsc_format f)
{
    static const char *const names[] = {"normal", "json", "terse", "engine", "log"};
    return (unsigned)f < FSC_FMT_COUNT ? names[f] : "?";
}

/*
 * Blocks of freed runs, kept for the runs this thread makes next. A reader makes and
 * frees one run after another: each grows its job array from nothing (1, 2, 4 ...
 * jobs of 6 KB, copied at every step) and gives each job a dozen small lists. A run
 * frees more blocks of one size than malloc's per-thread cache keeps (7), so most of
 * them went the slow way back and forth. Every block stays an ordinary heap block of
 * the size it was allocated with (the model's ownership rules hold). Per thread: one
 * job array of at most SPARE_JOBS_MAX bytes, SPARE_LISTS blocks of each kind (lists,
 * options: four a job from its definition line, an option list) and SPARE_RUNS run
 * structs (calloc'd, 344 bytes: some 400 instructions with its free) and group and
 * disk arrays of one element (nearly every run has one of each); the key's
 * destructor frees them when the thread ends.
 */
#define SPARE_JOBS_MAX (256u << 10)
#define SPARE_LISTS 64
#define KV_FIRST 16   /* fio's lists have 7 to 12 items (latency_ms: 12): room for them at once (12 cost more in malloc than 16) */
#define PCTL_FIRST 32 /* fio prints 17 to 20 percentiles a block: room for them at once */
#define OPT_SMALL 24  /* an option's "key\0value\0" up to this (nearly all: "rw\0randread\0") takes a block of it */
#define OPTS_FIRST 4  /* fsc_grow's first room for an option list */
#define SPARE_RUNS 4

typedef struct spares {
    fsc_job *jobs;
    size_t jobs_cap;
    void *kv[SPARE_LISTS];   /* kvlist items, KV_FIRST of them */
    void *pctl[SPARE_LISTS]; /* percentile arrays, PCTL_FIRST entries */
    void *opt[SPARE_LISTS];  /* option blocks of OPT_SMALL bytes */
    void *opts[SPARE_LISTS]; /* option lists, OPTS_FIRST entries */
    void *runs[SPARE_RUNS];                        /* run structs */
    void *groups[SPARE_RUNS], *disks[SPARE_RUNS]; /* a run's group and disk arrays of one */
    size_t n_kv, n_pctl, n_opt, n_opts, n_runs, n_groups, n_disks;
    bool registered; /* fsc_at_thread_end holds this thread's spares: freed at its end */
} spares;

static _Thread_local spares spare;

static void free_blocks(void *const *blocks, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(blocks[i]);
}

static void spares_free(void *p)
{
    spares *sp = p;
    free(sp->jobs);
    free_blocks(sp->kv, sp->n_kv);
    free_blocks(sp->pctl, sp->n_pctl);
    free_blocks(sp->opt, sp->n_opt);
    free_blocks(sp->opts, sp->n_opts);
    free_blocks(sp->runs, sp->n_runs);
    free_blocks(sp->groups, sp->n_groups);
    free_blocks(sp->disks, sp->n_disks);
    memset(sp, 0, sizeof *sp);
}

/* The first block this thread keeps: its spares are freed when it ends. */
static __attribute__((noinline)) bool spare_register(void)
{
    if (!fsc_at_thread_end(spares_free, &spare))
        return false;
    spare.registered = true;
    return true;
}

/* May this thread keep blocks? (Asked for every block kept: a call each cost 13.) */
static inline bool spare_ready(void)
{
    return spare.registered || spare_register();
}

/* Keep a block (of a kind whose stack is `stack`, n kept, max at most) or free it. */
static void spare_put(void **stack, size_t *n, size_t max, void *block)
{
    if (*n < max && spare_ready())
        stack[(*n)++] = block;
    else
        free(block);
}

/* A kept block of `bytes` (charged to the budget), or NULL. */
static void *spare_take(void **stack, size_t *n, size_t bytes)
{
    if (!*n || !fsc_budget_charge(bytes))
        return NULL;
    return stack[--*n];
}

/* free, without the call for the many pointers a run or job never set (a dozen a
 * job: hostname, description, steady state ...) */
static inline void free_set(void *p)
{
    if (p)
        free(p);
}

/* Keep a run's array of one element (groups, disks: stack of SPARE_RUNS) or free it. */
static void spare_put_one(void **stack, size_t *n, void *arr, size_t cap)
{
    if (cap == 1)
        spare_put(stack, n, SPARE_RUNS, arr);
    else
        free_set(arr);
}

/* Keep a freed run's job array (its jobs already freed), the bigger of two. */
static void spare_put_jobs(fsc_job *jobs, size_t cap)
{
    if (!jobs || cap * sizeof *jobs > SPARE_JOBS_MAX || cap <= spare.jobs_cap || !spare_ready()) {
        free(jobs);
        return;
    }
    free(spare.jobs);
    spare.jobs = jobs;
    spare.jobs_cap = cap;
}

/* The kept job array for a run without one. */
static void spare_take_jobs(fsc_run *run)
{
    if (!spare.jobs || !fsc_budget_charge(spare.jobs_cap * sizeof *run->jobs))
        return;
    run->jobs = spare.jobs;
    run->cap_jobs = spare.jobs_cap;
    spare.jobs = NULL;
    spare.jobs_cap = 0;
}

static const char *kv_key_at(const void *items, size_t i)
{
    return ((const fsc_kv *)items)[i].key;
}

bool fsc_kvlist_set(fsc_kvlist *l, const char *key, double v)
{
    return fsc_kvlist_set_n(l, key, strlen(key), v);
}

/* Keys are kept NUL-padded to the full 16 bytes (FSC_PUSH zeroes a new item and only
 * kl + 1 bytes are written), so a short list is searched two words at a time. */
static inline bool key16_eq(const char *a, const uint64_t b[2])
{
    uint64_t w[2];
    memcpy(w, a, sizeof w);
    return w[0] == b[0] && w[1] == b[1];
}

/* k = the kl <= 15 bytes of key, NUL-padded to 16. The keys are 1 to 4 bytes
 * nearly always ("4", ">=64", "1000"): loads that overlap (never past key + kl)
 * rather than a call to memcpy of a variable length. */
static inline void key16_load(uint64_t k[2], const char *key, size_t kl)
{
    /* the bytes i of key at byte i of a word read with fsc_load_le64: overlapping
     * loads OR the same byte; stored back the same way, k holds the key's bytes in
     * their order (it is compared and indexed as text) */
    uint64_t lo, hi = 0;
    if (kl >= 8) {
        lo = fsc_load_le64(key);
        hi = kl > 8 ? fsc_load_le64(key + kl - 8) >> (8 * (16 - kl)) : 0;
    } else if (kl >= 4) {
        lo = fsc_load_le32(key) | (uint64_t)fsc_load_le32(key + kl - 4) << (8 * (kl - 4));
    } else {
        lo = kl ? (uint64_t)(unsigned char)key[0] | (uint64_t)(unsigned char)key[kl / 2] << (8 * (kl / 2)) |
                      (uint64_t)(unsigned char)key[kl - 1] << (8 * (kl - 1))
                : 0;
    }
    fsc_store_le64((char *)k, lo);
    fsc_store_le64((char *)k + 8, hi);
}

/* The first items of a list: a kept block or a new one. */
static __attribute__((noinline)) bool kv_first(fsc_kvlist *l)
{
    void *b = spare_take(spare.kv, &spare.n_kv, KV_FIRST * sizeof *l->items);
    if (!b)
        return fsc_grow((void **)&l->items, &l->cap, KV_FIRST, sizeof *l->items);
    l->items = b;
    l->cap = KV_FIRST;
    return true;
}

/* The index of the 16-byte key k among the n items (no key index), or n. Two items a
 * step: a set key is new nearly always, all are looked at. */
static inline size_t kv_scan(const fsc_kv *it, size_t n, const uint64_t k[2])
{
    size_t i;
    for (i = 0; i + 2 <= n; i += 2) {
        if (key16_eq(it[i].key, k))
            return i;
        if (key16_eq(it[i + 1].key, k))
            return i + 1;
    }
    return i < n && key16_eq(it[i].key, k) ? i : n;
}

static __attribute__((noinline)) bool kvlist_set_slow(fsc_kvlist *l, const char *key, size_t kl, double v)
{
    uint64_t k[2];
    key16_load(k, key, kl < sizeof k - 1 ? kl : sizeof k - 1);
    size_t i = l->index.slots ? fsc_keyindex_find(&l->index, l->items, l->n, kv_key_at, (const char *)k)
                              : kv_scan(l->items, l->n, k);
    if (i < l->n) {
        l->items[i].v = v;
        return true;
    }
    if (!l->cap && !kv_first(l))
        return false;
    /* FSC_PUSH without its memset: every byte of the item is written here */
    if (l->n == l->cap && !fsc_grow((void **)&l->items, &l->cap, l->n + 1, sizeof *l->items))
        return false;
    fsc_kv *kv = &l->items[l->n++];
    memcpy(kv->key, k, sizeof k);
    kv->v = v;
    if (l->n >= FSC_KEYINDEX_FROM && !fsc_keyindex_added(&l->index, l->items, l->n, kv_key_at)) {
        l->n--;
        return false;
    }
    return true;
}

bool fsc_kvlist_set_n(fsc_kvlist *l, const char *key, size_t kl, double v)
{
    /* a list without a key index, with room for one more that needs none (nearly
     * every call): no calls, so no frame to build and take down */
    size_t n = l->n;
    if (!l->index.slots && n < l->cap && n + 1 < FSC_KEYINDEX_FROM) {
        uint64_t k[2]; /* the key, cut to 15 bytes and NUL-padded */
        _Static_assert(sizeof k == sizeof l->items[0].key, "fsc_kv keys are 16 bytes");
        key16_load(k, key, kl < sizeof k - 1 ? kl : sizeof k - 1);
        size_t i = kv_scan(l->items, n, k);
        if (i == n) {
            memcpy(l->items[n].key, k, sizeof k);
            l->n = n + 1;
        }
        l->items[i].v = v;
        return true;
    }
    return kvlist_set_slow(l, key, kl, v);
}

bool fsc_kvlist_set_all(fsc_kvlist *l, const fsc_kv *items, size_t n)
{
    if (l->n || n >= FSC_KEYINDEX_FROM) { /* not what it is for: item by item */
        for (size_t i = 0; i < n; i++)
            if (!fsc_kvlist_set_n(l, items[i].key, strnlen(items[i].key, sizeof items[i].key), items[i].v))
                return false;
        return true;
    }
    if (!n)
        return true;
    if (!l->cap && !kv_first(l))
        return false;
    if (l->cap < n && !fsc_grow((void **)&l->items, &l->cap, n, sizeof *l->items))
        return false;
    memcpy(l->items, items, n * sizeof *items);
    l->n = n;
    return true;
}

const fsc_kv *fsc_kvlist_get(const fsc_kvlist *l, const char *key)
{
    size_t i = fsc_keyindex_find(&l->index, l->items, l->n, kv_key_at, key);
    return i < l->n ? &l->items[i] : NULL;
}

void fsc_kvlist_free(fsc_kvlist *l)
{
    if (!l->items && !l->index.slots)
        return; /* never filled (most of a job's lists) */
    if (l->cap == KV_FIRST)
        spare_put(spare.kv, &spare.n_kv, SPARE_LISTS, l->items);
    else
        free(l->items);
    if (l->index.slots) /* only lists of FSC_KEYINDEX_FROM keys have one */
        fsc_keyindex_free(&l->index);
    memset(l, 0, sizeof *l);
}

fsc_run *fsc_run_new(void)
{
    if (!fsc_budget_charge(sizeof(fsc_run)))
        return NULL;
    if (!spare.n_runs)
        return calloc(1, sizeof(fsc_run));
    fsc_run *run = spare.runs[--spare.n_runs];
    memset(run, 0, sizeof *run);
    return run;
}

static void lat_free(fsc_lat *l)
{
    /* most of a job's 15 latency blocks hold nothing: one test, no calls */
    if (!((uintptr_t)l->percentile | (uintptr_t)l->bins))
        return;
    if (l->percentile && l->cap_percentile == PCTL_FIRST)
        spare_put(spare.pctl, &spare.n_pctl, SPARE_LISTS, l->percentile);
    else if (l->percentile)
        free(l->percentile);
    if (l->bins)
        free(l->bins);
}


/* The bytes of an option's block ("key\0value\0", owned by .key; opts_set made it). */
static inline size_t opt_bytes(const fsc_opt *o)
{
    return (size_t)(o->val - o->key) + strlen(o->val) + 1;
}

/* Free an option's block: a small one is kept for the next option. */
static void opt_free(const fsc_opt *o)
{
    if (opt_bytes(o) <= OPT_SMALL)
        spare_put(spare.opt, &spare.n_opt, SPARE_LISTS, o->key);
    else
        free(o->key);
}

/* fsc_kvlist_free of a list that goes with its job: inline, and not emptied (five of
 * a job's six lists hold items: the calls and their memsets cost 43 instructions each) */
static inline void kv_release(fsc_kvlist *l)
{
    if (l->items) {
        if (l->cap == KV_FIRST && spare.n_kv < SPARE_LISTS && spare_ready())
            spare.kv[spare.n_kv++] = l->items;
        else
            free(l->items);
    }
    if (l->index.slots)
        fsc_keyindex_free(&l->index);
}

static size_t kvlist_bytes(const fsc_kvlist *l)
{
    return l->cap * sizeof *l->items + l->index.cap * sizeof *l->index.slots;
}

/*
 * One walk over the blocks a job or a run owns, which counts their bytes (what
 * fsc_run_bytes tells a memory budget), frees them (fsc_run_free), or both: a run
 * freed while a budget is in use gives its bytes back, counted in the walk that frees
 * it rather than in a walk of their own before it (the JSON Lines writer frees every
 * run so, a job's bytes cost some 460 instructions to count apart). Freeing, the
 * walk keeps blocks for the next run (spare_put); counting, it reads only.
 */
typedef enum walk {
    WALK_COUNT = 1,
    WALK_FREE = 2,
    WALK_BOTH = WALK_COUNT | WALK_FREE,
} walk;

static inline size_t str_walk(char *s, walk w)
{
    if (!s)
        return 0;
    size_t n = strlen(s) + 1;
    if (w & WALK_FREE)
        fsc_str_release(s, n);
    return w & WALK_COUNT ? n : 0;
}

static inline size_t lat_walk(fsc_lat *l, walk w)
{
    size_t n = w & WALK_COUNT ? l->cap_percentile * sizeof(fsc_pctl) + l->cap_bins * sizeof(fsc_bin) : 0;
    if (w & WALK_FREE)
        lat_free(l);
    return n;
}

/* Does a direction own a block (its latencies' lists, its prios)? Most of a job's five
 * own none (trim, sync, mixed; the slat and lat of the others): one test for the
 * seven pointers rather than a walk of them (a list's room is 0 without its block). */
static inline bool dir_owns_blocks(const fsc_dir *d)
{
    _Static_assert(FSC_LAT_COUNT == 3, "a direction has three latencies");
    return ((uintptr_t)d->lat[0].percentile | (uintptr_t)d->lat[0].bins | (uintptr_t)d->lat[1].percentile |
            (uintptr_t)d->lat[1].bins | (uintptr_t)d->lat[2].percentile | (uintptr_t)d->lat[2].bins |
            (uintptr_t)d->prios) != 0;
}

static inline size_t kv_walk(fsc_kvlist *l, walk w)
{
    size_t n = w & WALK_COUNT ? kvlist_bytes(l) : 0;
    if (w & WALK_FREE)
        kv_release(l);
    return n;
}

/* An option list with its blocks and its index; freeing, small blocks are kept for
 * the next options (an option's size is counted once for both). */
static size_t opts_walk(fsc_opt *opts, size_t n, size_t cap, fsc_keyindex *ix, walk w)
{
    size_t bytes = 0;
    bool keep = (w & WALK_FREE) && n && spare_ready();
    for (size_t i = 0; i < n; i++) {
        bool may_keep = keep && spare.n_opt < SPARE_LISTS;
        size_t b = (w & WALK_COUNT) || may_keep ? opt_bytes(&opts[i]) : 0;
        bytes += b;
        if (!(w & WALK_FREE))
            continue;
        if (may_keep && b <= OPT_SMALL)
            spare.opt[spare.n_opt++] = opts[i].key;
        else
            free(opts[i].key);
    }
    if (!(w & WALK_COUNT))
        bytes = 0;
    else
        bytes += cap * sizeof *opts + ix->cap * sizeof *ix->slots;
    if (w & WALK_FREE) {
        if (cap == OPTS_FIRST)
            spare_put(spare.opts, &spare.n_opts, SPARE_LISTS, opts);
        else
            free_set(opts);
        if (ix->slots)
            fsc_keyindex_free(ix);
    }
    return bytes;
}

static size_t job_walk(fsc_job *j, walk w)
{
    size_t n = str_walk(j->jobname, w) + str_walk(j->hostname, w) + str_walk(j->description, w) +
               str_walk(j->error_text, w) +
               opts_walk(j->options, j->n_options, j->cap_options, &j->option_index, w);
    for (int d = 0; d < FSC_DIR_COUNT; d++) {
        fsc_dir *dir = &j->dir[d];
        if (!dir_owns_blocks(dir))
            continue;
        for (int k = 0; k < FSC_LAT_COUNT; k++)
            n += lat_walk(&dir->lat[k], w);
        if (!dir->prios)
            continue;
        for (size_t i = 0; i < dir->n_prios; i++)
            n += lat_walk(&dir->prios[i].lat, w);
        if (w & WALK_COUNT)
            n += dir->cap_prios * sizeof *dir->prios;
        if (w & WALK_FREE)
            free(dir->prios);
    }
    n += kv_walk(&j->iodepth_level, w) + kv_walk(&j->iodepth_submit, w) + kv_walk(&j->iodepth_complete, w);
    for (int b = 0; b < FSC_BUCKET_COUNT; b++)
        n += kv_walk(&j->latency[b], w);
    fsc_steady *ss = &j->steadystate;
    n += str_walk(ss->ss, w) + str_walk(ss->criterion, w);
    if (w & WALK_COUNT)
        n += (ss->n_bw + ss->n_iops + ss->n_lat) * sizeof(double);
    if (w & WALK_FREE) {
        free_set(ss->bw);
        free_set(ss->iops);
        free_set(ss->lat);
        free_set(j->ts); /* not counted: the analysis stage adds it, after parsing */
    }
    return n;
}

static size_t run_walk(fsc_run *run, walk w)
{
    size_t n = str_walk(run->id, w) + str_walk(run->label, w) + str_walk(run->source.path, w) +
               str_walk(run->source.member, w) + str_walk(run->source.fio_version, w) +
               str_walk(run->source.host, w) + str_walk(run->source.time, w) + str_walk(run->command, w);
    if (w & WALK_COUNT)
        n += sizeof *run + run->cap_context * sizeof *run->context + run->cap_jobs * sizeof *run->jobs +
             run->cap_groups * sizeof *run->groups + run->cap_disk_util * sizeof *run->disk_util +
             run->cap_warnings * sizeof *run->warnings + run->cap_unknown_lines * sizeof *run->unknown_lines +
             kvlist_bytes(&run->cpu_idleness);
    for (size_t i = 0; i < run->n_context; i++)
        n += str_walk(run->context[i], w);
    for (size_t i = 0; i < run->n_jobs; i++)
        n += job_walk(&run->jobs[i], w);
    if (run->global_options) /* from JSON only */
        n += opts_walk(run->global_options, run->n_global_options, run->cap_global_options,
                       &run->global_option_index, w);
    for (size_t i = 0; i < run->n_groups; i++)
        n += str_walk(run->groups[i].hostname, w);
    for (size_t i = 0; i < run->n_disk_util; i++) {
        fsc_disk *d = &run->disk_util[i];
        n += str_walk(d->name, w) + str_walk(d->parent, w);
        for (size_t m = 0; m < d->n_members; m++)
            n += str_walk(d->members[m], w);
        if (w & WALK_COUNT)
            n += d->cap_members * sizeof *d->members;
        if (w & WALK_FREE)
            free_set(d->members);
    }
    for (size_t i = 0; i < run->n_warnings; i++)
        n += str_walk(run->warnings[i].message, w);
    if (!(w & WALK_FREE))
        return n;
    free_set(run->context);
    spare_put_jobs(run->jobs, run->cap_jobs);
    spare_put_one(spare.groups, &spare.n_groups, run->groups, run->cap_groups);
    spare_put_one(spare.disks, &spare.n_disks, run->disk_util, run->cap_disk_util);
    fsc_kvlist_free(&run->cpu_idleness);
    free_set(run->warnings);
    for (size_t i = 0; i < run->n_series; i++) /* not counted: log series join a run after parsing */
        fsc_logseries_free(run->series[i]);
    free_set(run->series);
    free_set(run->unknown_lines);
    return n;
}

size_t fsc_run_bytes(const fsc_run *run)
{
    return run_walk((fsc_run *)run, WALK_COUNT); /* counting writes nothing */
}

void fsc_run_keep_jobs(fsc_run *run, const bool *keep)
{
    size_t k = 0;
    for (size_t i = 0; i < run->n_jobs; i++) {
        if (keep[i])
            run->jobs[k++] = run->jobs[i];
        else
            job_walk(&run->jobs[i], WALK_FREE);
    }
    run->n_jobs = k;
}

void fsc_run_free(fsc_run *run)
{
    if (!run)
        return;
    if (fsc_budget_active()) /* a run freed while a document is parsed gives its bytes back */
        fsc_budget_credit(run_walk(run, WALK_BOTH));
    else
        run_walk(run, WALK_FREE);
    spare_put(spare.runs, &spare.n_runs, SPARE_RUNS, run);
}

fsc_job *fsc_run_add_job(fsc_run *run)
{
    if (!run->cap_jobs)
        spare_take_jobs(run);
    return FSC_PUSH(run->jobs, run->n_jobs, run->cap_jobs);
}

fsc_group *fsc_run_add_group(fsc_run *run)
{
    if (!run->cap_groups && (run->groups = spare_take(spare.groups, &spare.n_groups, sizeof *run->groups)))
        run->cap_groups = 1;
    return FSC_PUSH(run->groups, run->n_groups, run->cap_groups);
}

fsc_disk *fsc_run_add_disk(fsc_run *run)
{
    if (!run->cap_disk_util &&
        (run->disk_util = spare_take(spare.disks, &spare.n_disks, sizeof *run->disk_util)))
        run->cap_disk_util = 1;
    return FSC_PUSH(run->disk_util, run->n_disk_util, run->cap_disk_util);
}

bool fsc_run_add_series(fsc_run *run, fsc_logseries *s)
{
    fsc_logseries **slot = FSC_PUSH(run->series, run->n_series, run->cap_series);
    if (!slot) {
        fsc_logseries_free(s);
        return false;
    }
    *slot = s;
    return true;
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

bool fsc_run_warnings_to_front(fsc_run *run, size_t from, size_t n)
{
    if (!n || !from)
        return true;
    if (from > run->n_warnings || n > run->n_warnings - from)
        return false;
    /* in one move of each part: a run may be told thousands of notes at once */
    fsc_warning *moved = malloc(n * sizeof *moved);
    if (!moved)
        return false;
    memcpy(moved, run->warnings + from, n * sizeof *moved);
    memmove(run->warnings + n, run->warnings, from * sizeof *moved);
    memcpy(run->warnings, moved, n * sizeof *moved);
    free(moved);
    return true;
}

bool fsc_run_add_context(fsc_run *run, const char *text)
{
    /* every run under a heading carries a copy: a heading of a megabyte above
     * thousands of runs would cost gigabytes. Cut at a character boundary. */
    size_t n = strlen(text);
    char *s;
    if (n > FSC_CONTEXT_MAX) {
        n = FSC_CONTEXT_MAX;
        while (n && ((unsigned char)text[n] & 0xC0) == 0x80)
            n--;
        s = fsc_budget_charge(n + 4) ? malloc(n + 4) : NULL;
        if (s) {
            memcpy(s, text, n);
            memcpy(s + n, "\xe2\x80\xa6", 4); /* "…" and the terminator */
        }
    } else {
        s = fsc_strndup(text, n);
    }
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

static const char *opt_key_at(const void *items, size_t i)
{
    return ((const fsc_opt *)items)[i].key;
}

/* Set or replace key in an option list with its key index (a replaced key keeps its
 * place). An option's key and value share one allocation, "key\0value\0", owned by
 * .key (opt_free). */
/* An option's block "key\0value\0" (kl, vl: their lengths), a kept one when it is
 * small; not charged to the budget (the caller does). NULL when memory runs out. */
static char *opt_block(const char *key, size_t kl, const char *val, size_t vl)
{
    size_t bytes = kl + vl + 2;
    char *b = bytes > OPT_SMALL ? malloc(bytes) : spare.n_opt ? spare.opt[--spare.n_opt] : malloc(OPT_SMALL);
    if (b) {
        memcpy(b, key, kl + 1);
        memcpy(b + kl + 1, val, vl + 1);
    }
    return b;
}

/* The first room of an option list without one: a kept list or a new one. */
static bool opts_first(fsc_opt **opts, size_t *cap)
{
    void *kept = spare_take(spare.opts, &spare.n_opts, OPTS_FIRST * sizeof **opts);
    if (!kept)
        return fsc_grow((void **)opts, cap, OPTS_FIRST, sizeof **opts);
    *opts = kept;
    *cap = OPTS_FIRST;
    return true;
}

static bool opts_set(fsc_opt **opts, size_t *n, size_t *cap, fsc_keyindex *ix, const char *key,
                     const char *val)
{
    size_t kl = strlen(key), vl = strlen(val);
    if (!fsc_budget_charge(kl + vl + 2))
        return false;
    char *b = opt_block(key, kl, val, vl);
    if (!b)
        return false;
    size_t i = 0;
    if (ix->slots) {
        i = fsc_keyindex_find(ix, *opts, *n, opt_key_at, key);
    } else { /* a job's few options: in place, without the key_at calls (and a
              * strcmp only for a key of the same first letter) */
        while (i < *n && ((*opts)[i].key[0] != key[0] || strcmp((*opts)[i].key, key) != 0))
            i++;
    }
    if (i < *n) {
        opt_free(&(*opts)[i]);
        (*opts)[i].key = b;
        (*opts)[i].val = b + kl + 1;
        return true;
    }
    /* FSC_PUSH without its memset: both members are written here */
    if ((!*cap && !opts_first(opts, cap)) || (*n == *cap && !fsc_grow((void **)opts, cap, *n + 1, sizeof **opts))) {
        free(b);
        return false;
    }
    fsc_opt *o = &(*opts)[(*n)++];
    o->key = b;
    o->val = b + kl + 1;
    if (*n >= FSC_KEYINDEX_FROM && !fsc_keyindex_added(ix, *opts, *n, opt_key_at)) {
        --*n;
        free(b);
        return false;
    }
    return true;
}

static const char *opts_get(const fsc_opt *opts, size_t n, const fsc_keyindex *ix, const char *key)
{
    size_t i = fsc_keyindex_find(ix, opts, n, opt_key_at, key);
    return i < n ? opts[i].val : NULL;
}

bool fsc_job_set_option(fsc_job *job, const char *key, const char *val)
{
    return opts_set(&job->options, &job->n_options, &job->cap_options, &job->option_index, key, val);
}

bool fsc_job_set_options(fsc_job *job, const fsc_opt_in *in, size_t n)
{
    if (job->n_options || n > OPTS_FIRST) { /* a key may be there already: one by one */
        for (size_t i = 0; i < n; i++)
            if (in[i].val && !fsc_job_set_option(job, in[i].key, in[i].val))
                return false;
        return true;
    }
    /* a job without options (a job header's, nearly always) and distinct keys: no key
     * to look up, one budget charge and the list's room made once for them all */
    size_t kl[OPTS_FIRST], vl[OPTS_FIRST], bytes = 0;
    for (size_t i = 0; i < n; i++)
        if (in[i].val) {
            kl[i] = strlen(in[i].key);
            vl[i] = strlen(in[i].val);
            bytes += kl[i] + vl[i] + 2;
        }
    if (!bytes)
        return true;
    if (!fsc_budget_charge(bytes) || (!job->cap_options && !opts_first(&job->options, &job->cap_options)))
        return false;
    for (size_t i = 0; i < n; i++) {
        if (!in[i].val)
            continue;
        char *b = opt_block(in[i].key, kl[i], in[i].val, vl[i]);
        if (!b)
            return false;
        job->options[job->n_options++] = (fsc_opt){b, b + kl[i] + 1};
    }
    return true;
}

const char *fsc_job_option(const fsc_job *job, const char *key)
{
    return opts_get(job->options, job->n_options, &job->option_index, key);
}

/* A run's "global options": a JSON document has a few, a plain list will do. */
bool fsc_run_set_global_option(fsc_run *run, const char *key, const char *val)
{
    return opts_set(&run->global_options, &run->n_global_options, &run->cap_global_options,
                    &run->global_option_index, key, val);
}

const char *fsc_run_global_option(const fsc_run *run, const char *key)
{
    return opts_get(run->global_options, run->n_global_options, &run->global_option_index, key);
}

/* The first percentiles of a latency: a kept block or a new one. */
static __attribute__((noinline)) bool pctl_first(fsc_lat *lat)
{
    void *b = spare_take(spare.pctl, &spare.n_pctl, PCTL_FIRST * sizeof *lat->percentile);
    if (!b)
        return fsc_grow((void **)&lat->percentile, &lat->cap_percentile, PCTL_FIRST, sizeof *lat->percentile);
    lat->percentile = b;
    lat->cap_percentile = PCTL_FIRST;
    return true;
}

static __attribute__((noinline)) bool lat_add_pctl_slow(fsc_lat *lat, double pct, double ns)
{
    size_t n = lat->n_percentile;
    if (n && !lat->pctl_unsorted) {
        if (pct == lat->percentile[n - 1].pct) {
            lat->percentile[n - 1].ns = ns;
            return true;
        }
        if (!(pct > lat->percentile[n - 1].pct))
            lat->pctl_unsorted = true; /* sorted once, by fsc_lat_sort */
    }
    if (!lat->cap_percentile && !pctl_first(lat))
        return false;
    /* FSC_PUSH without its memset: both members are written here */
    if (n == lat->cap_percentile &&
        !fsc_grow((void **)&lat->percentile, &lat->cap_percentile, n + 1, sizeof *lat->percentile))
        return false;
    fsc_pctl *p = &lat->percentile[lat->n_percentile++];
    p->pct = pct;
    p->ns = ns;
    return true;
}

bool fsc_lat_add_pctl(fsc_lat *lat, double pct, double ns)
{
    /* the next of a sorted list with room (nearly every call): no frame, no calls */
    return fsc_lat_add_pctl_next(lat, pct, ns) || lat_add_pctl_slow(lat, pct, ns);
}

/* Order by pct (NaN last), then by the order of adding (the index, stable). */
static bool pctl_before(const fsc_pctl *a, size_t ia, const fsc_pctl *b, size_t ib)
{
    if (a->pct < b->pct || (a->pct == a->pct && b->pct != b->pct))
        return true;
    if (a->pct > b->pct || (a->pct != a->pct && b->pct == b->pct))
        return false;
    return ia < ib;
}

void fsc_lat_swap_percentiles(fsc_lat *a, fsc_lat *b)
{
    fsc_pctl *p = a->percentile;
    size_t n = a->n_percentile, cap = a->cap_percentile;
    bool unsorted = a->pctl_unsorted;
    a->percentile = b->percentile;
    a->n_percentile = b->n_percentile;
    a->cap_percentile = b->cap_percentile;
    a->pctl_unsorted = b->pctl_unsorted;
    b->percentile = p;
    b->n_percentile = n;
    b->cap_percentile = cap;
    b->pctl_unsorted = unsorted;
}

void fsc_lat_sort(fsc_lat *lat)
{
    size_t n = lat->n_percentile;
    if (!lat->pctl_unsorted || n < 2)
        return;
    /* merge sort of indices: stable, n log n, whatever the order of adding */
    size_t *ix = malloc(2 * n * sizeof *ix);
    fsc_pctl *out = malloc(n * sizeof *out);
    if (!ix || !out) { /* keep the list as it is: unsorted beats lost */
        free(ix);
        free(out);
        return;
    }
    size_t *a = ix, *b = ix + n;
    for (size_t i = 0; i < n; i++)
        a[i] = i;
    for (size_t w = 1; w < n; w *= 2) {
        for (size_t lo = 0; lo < n; lo += 2 * w) {
            size_t mid = lo + w < n ? lo + w : n, hi = lo + 2 * w < n ? lo + 2 * w : n;
            size_t i = lo, j = mid, k = lo;
            while (i < mid && j < hi)
                b[k++] = pctl_before(&lat->percentile[a[j]], a[j], &lat->percentile[a[i]], a[i])
                             ? a[j++]
                             : a[i++];
            while (i < mid)
                b[k++] = a[i++];
            while (j < hi)
                b[k++] = a[j++];
        }
        size_t *t = a;
        a = b;
        b = t;
    }
    /* equal pcts are adjacent, in the order they were added: the last one wins */
    size_t m = 0;
    for (size_t i = 0; i < n; i++) {
        const fsc_pctl *p = &lat->percentile[a[i]];
        if (m && out[m - 1].pct == p->pct)
            out[m - 1] = *p;
        else
            out[m++] = *p;
    }
    memcpy(lat->percentile, out, m * sizeof *out);
    lat->n_percentile = m;
    lat->pctl_unsorted = false;
    free(ix);
    free(out);
}

void fsc_run_finish(fsc_run *run)
{
    /* fsc_lat_sort's own test first, and a direction's three at once: the 15
     * latencies of a job are nearly all sorted or empty (a call each cost some 18
     * instructions); pointers, not indices (a sort may write any byte of a job for
     * all the compiler knows: each index was reloaded and multiplied again) */
    if (!run->n_jobs)
        return; /* (jobs may be NULL: no pointer arithmetic on it) */
    for (fsc_job *j = run->jobs, *end = j + run->n_jobs; j < end; j++)
        for (fsc_dir *d = j->dir; d < j->dir + FSC_DIR_COUNT; d++) {
            if (d->lat[FSC_LAT_SLAT].pctl_unsorted | d->lat[FSC_LAT_CLAT].pctl_unsorted |
                d->lat[FSC_LAT_LAT].pctl_unsorted)
                for (int k = 0; k < FSC_LAT_COUNT; k++)
                    fsc_lat_sort(&d->lat[k]);
            for (size_t i = 0, n = d->n_prios; i < n; i++)
                fsc_lat_sort(&d->prios[i].lat);
        }
}

fsc_prio *fsc_dir_prio(fsc_dir *d, int high, int prioclass, int prio, int priohint, fsc_latkind kind)
{
    for (size_t i = 0; i < d->n_prios; i++) {
        fsc_prio *p = &d->prios[i];
        if (p->high == high && p->prioclass == prioclass && p->prio == prio && p->priohint == priohint &&
            p->kind == kind)
            return p;
    }
    if (d->n_prios >= FSC_PRIOS_MAX)
        return NULL;
    fsc_prio *p = FSC_PUSH(d->prios, d->n_prios, d->cap_prios);
    if (!p)
        return NULL;
    p->high = (int16_t)high;
    p->prioclass = (int16_t)prioclass;
    p->prio = (int16_t)prio;
    p->priohint = (int16_t)priohint;
    p->kind = kind;
    return p;
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

#define F(type, name, unit) {#name, offsetof(type, name), unit, sizeof(#name) - 1}

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

/* model_json.c's lat_present names these fields: add a field there too */
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
    F(fsc_job, total_err, FSC_UNIT_COUNT),       F(fsc_job, first_error, FSC_UNIT_NONE),
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
    if (n && tab[0].name_len) { /* a table made with F: lengths first, no strlen */
        for (size_t i = 0; i < n; i++)
            if (tab[i].name_len == len && tab[i].name[0] == name[0] && memcmp(tab[i].name, name, len) == 0)
                return &tab[i];
        return NULL;
    }
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
