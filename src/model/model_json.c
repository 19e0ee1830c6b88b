/* SPDX-License-Identifier: MIT */
/*
 * Walk the model and write the contract JSON; the descriptor tables give names.
 *
 * Written directly into the output buffer: keys are fragments made once with the
 * ',' before them (",\"clat_ns\":"), those of the descriptor tables constants of
 * the code; numbers are their integers or shortest decimals (fsc_num_put, the same
 * text as fsc_num_fmt), written in place; room is made once for most of a job. The
 * bytes are exactly those of the fsc_jw writer (compact and pretty), which stays
 * the public way to write JSON and is used around the runs.
 */
#include "fioscope/model_json.h"
#include "json_plain.h"
#include "num_memo.h"

#include <math.h>
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* copy_plain reads 16 bytes at a time within the page of the string, past its NUL
 * (as strlen does): not where a sanitizer checks every byte read. */
#if defined(__SANITIZE_ADDRESS__)
#define NO_OVERREAD
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(memory_sanitizer)
#define NO_OVERREAD
#endif
#endif

void fsc_model_write_doc_start(fsc_jw *w)
{
    fsc_jw_obj(w);
    fsc_jw_key(w, "fioscope");
    fsc_jw_obj(w);
    fsc_jw_key(w, "version");
    fsc_jw_str(w, FSC_VERSION);
    fsc_jw_obj_end(w);
}

/* fio's "%f" without snprintf's cost: six decimals, rounded; returns the length. */
static size_t pct_key(char *out, double pct)
{
    unsigned long long m = (unsigned long long)llround(pct * 1e6);
    char tmp[48], *e = tmp + sizeof tmp, *p = e;
    unsigned long long ip = m / 1000000ULL, frac = m % 1000000ULL;
    for (int d = 0; d < 6; d++, frac /= 10) /* "%llu.%06llu" */
        *--p = (char)('0' + frac % 10);
    *--p = '.';
    do
        *--p = (char)('0' + ip % 10);
    while (ip /= 10);
    memcpy(out, p, (size_t)(e - p));
    return (size_t)(e - p);
}

void fsc_pct_key(char *out, size_t size, double pct)
{
    if (pct >= 0 && pct < 1e9) {
        char tmp[48];
        size_t n = pct_key(tmp, pct);
        if (size) {
            n = n < size - 1 ? n : size - 1;
            memcpy(out, tmp, n);
            out[n] = '\0';
        }
        return;
    }
    snprintf(out, size, "%f", pct);
}

/* ---- the direct writer ---- */

/* Every member and element is written with the ',' before it (and in pretty output
 * the newline and indentation after it): the ',' of a container's first member
 * becomes the container's '{' or '[' when it is closed, so that no writer asks
 * whether it writes the first one. An empty container is written "{}" or "[]"
 * where it was opened.
 *
 * Most of a job (its directions with their latencies and percentiles, its later
 * fields) is written into room made once for all of it, from a bound of what it
 * can take (job_bound): the writers "_in" take the end of the text p and return
 * the new one, and their containers are pointers to where they start. The others
 * make room for what they write as they go (room), and their containers are
 * offsets (the text may move). */

/* A key made once: the ',' before it, the quoted name and the colon
 * (",\"clat_ns\":"), zero-padded: a copy of all of it is two moves. n counts the
 * comma. */
typedef struct frag {
    char s[32];
    uint8_t n;
} frag;

/* Fragments of constant names. */
#define FRAG(name) {",\"" name "\":", sizeof(name) + 3}
#define KEYLIT(name) ",\"" name "\":", sizeof(name) + 3

/* The members of the descriptor tables (model.c), in table order: written inline,
 * names and offsets known when compiled, each member a test and a few stores.
 * tabs_init checks them against the tables (names, order, offsets); a table that
 * differs is written from the table itself (fields_any_in), to the same bytes. */
#define DIR_FIELDS(X)                                                                                          \
    X(io_bytes) X(bw_bytes) X(bw) X(iops) X(runtime) X(total_ios) X(short_ios) X(drop_ios) X(bw_min) X(bw_max)  \
        X(bw_agg) X(bw_mean) X(bw_dev) X(bw_samples) X(iops_min) X(iops_max) X(iops_mean) X(iops_stddev)       \
            X(iops_samples) X(zone_resets) X(cachehit)
#define LAT_FIELDS(X) X(min) X(max) X(mean) X(stddev) X(N)
/* fsc_job_fields: these five, the job options and directions, then the others */
#define JOB_HEAD_FIELDS(X) X(groupid) X(error) X(pid) X(jobs) X(job_runtime)
#define JOB_TAIL_FIELDS(X)                                                                                     \
    X(usr_cpu) X(sys_cpu) X(ctx) X(majf) X(minf) X(latency_depth) X(latency_target) X(latency_percentile)       \
        X(latency_window) X(total_err) X(first_error)
#define GROUP_DIR_FIELDS(X) X(bw_bytes) X(bw_min_bytes) X(bw_max_bytes) X(io_bytes) X(runtime_min) X(runtime_max)
#define DISK_FIELDS(X)                                                                                         \
    X(read_ios) X(write_ios) X(read_sectors) X(write_sectors) X(read_merges) X(write_merges) X(read_ticks)      \
        X(write_ticks) X(in_queue) X(util) X(aggr_read_ios) X(aggr_write_ios) X(aggr_read_sectors)             \
            X(aggr_write_sectors) X(aggr_read_merges) X(aggr_write_merge) X(aggr_read_ticks)                   \
                X(aggr_write_ticks) X(aggr_in_queue) X(aggr_util)

/* The tables; a job's in two parts (its first five members, then the others). */
enum { FT_DIR, FT_LAT, FT_JOB_HEAD, FT_JOB_TAIL, FT_GROUP_DIR, FT_DISK, FT_COUNT };

static struct {
    const fsc_field *tab; /* the table's members written here */
    size_t n;
    bool inline_; /* the same as the list above: written inline */
    size_t keys;  /* room for their keys (either way) and numbers, separators apart */
} tabs[FT_COUNT];
static pthread_once_t tabs_once = PTHREAD_ONCE_INIT;

/* Per html_safe, per byte: 1 when a JSON string takes it as it is (fsc_json_plain),
 * 0 for the others and for NUL (the end of a string). */
static uint8_t plain_tab[2][256];

typedef struct known {
    const char *name;
    size_t offset;
} known;

static void tab_set(int t, const fsc_field *tab, size_t n, const known *k, size_t nk)
{
    bool same = n == nk;
    size_t keys = 0;
    for (size_t i = 0; i < n; i++) {
        size_t len = strlen(tab[i].name), key = 6 * len + 5; /* escaped, at worst */
        keys += (key > 32 ? key : 32) + FSC_NUM_MAX;        /* a fragment is copied 32 bytes at a time */
        same = same && strcmp(tab[i].name, k[i].name) == 0 && tab[i].offset == k[i].offset;
    }
    tabs[t].tab = tab;
    tabs[t].n = n;
    tabs[t].inline_ = same;
    tabs[t].keys = keys;
}

static void tabs_init(void)
{
    for (int h = 0; h < 2; h++)
        for (int c = 1; c < 256; c++) {
            char ch = (char)c;
            plain_tab[h][c] = fsc_json_plain(&ch, 1, h) == 1;
        }
#define K_DIR(f) {#f, offsetof(fsc_dir, f)},
#define K_LAT(f) {#f, offsetof(fsc_lat, f)},
#define K_JOB(f) {#f, offsetof(fsc_job, f)},
#define K_GDIR(f) {#f, offsetof(fsc_group_dir, f)},
#define K_DISK(f) {#f, offsetof(fsc_disk, f)},
    static const known dir[] = {DIR_FIELDS(K_DIR)}, lat[] = {LAT_FIELDS(K_LAT)}, head[] = {JOB_HEAD_FIELDS(K_JOB)},
                       tail[] = {JOB_TAIL_FIELDS(K_JOB)}, gdir[] = {GROUP_DIR_FIELDS(K_GDIR)},
                       disk[] = {DISK_FIELDS(K_DISK)};
#undef K_DIR
#undef K_LAT
#undef K_JOB
#undef K_GDIR
#undef K_DISK
    size_t n_head = fsc_n_job_fields < 5 ? fsc_n_job_fields : 5;
    tab_set(FT_DIR, fsc_dir_fields, fsc_n_dir_fields, dir, FSC_ARRAY_SIZE(dir));
    tab_set(FT_LAT, fsc_lat_fields, fsc_n_lat_fields, lat, FSC_ARRAY_SIZE(lat));
    tab_set(FT_JOB_HEAD, fsc_job_fields, n_head, head, FSC_ARRAY_SIZE(head));
    tab_set(FT_JOB_TAIL, fsc_job_fields + n_head, fsc_n_job_fields - n_head, tail, FSC_ARRAY_SIZE(tail));
    tab_set(FT_GROUP_DIR, fsc_group_dir_fields, fsc_n_group_dir_fields, gdir, FSC_ARRAY_SIZE(gdir));
    tab_set(FT_DISK, fsc_disk_fields, fsc_n_disk_fields, disk, FSC_ARRAY_SIZE(disk));
}

/* The output and where the writer stands: depth of the members being written (as
 * fsc_jw counts it).
 * The end of the text is p, not b->len: b is told (jo_store, which also writes the
 * NUL) only before something else writes to it and when the writer is done, and
 * the writer takes it back from b after (jo_load). Room for n bytes and the NUL is
 * there while end - p >= n: one comparison of two pointers the writer holds. */
typedef struct memos memos;
typedef struct jo {
    fsc_jw *w;
    fsc_buf *b;
    char *data;    /* b->data, where the offsets of containers count from */
    char *p, *end; /* the end of the text; of the room for it (b->data + b->cap - 1) */
    bool pretty, html_safe;
    int depth;
    memos *m; /* the thread's */
} jo;

/* p and end when there is no room to give (b out of memory, or never grown): the
 * writer never writes there, end - p is 0 and jo_store knows it. Once b is out of
 * memory it stays so: nothing is written after. */
static char no_room[1];

static inline void jo_load(jo *o)
{
    fsc_buf *b = o->b;
    if (b->oom || !b->data) {
        o->p = o->end = o->data = no_room;
        return;
    }
    o->data = b->data;
    o->p = b->data + b->len;
    o->end = b->data + b->cap - 1;
}

static inline void jo_store(jo *o)
{
    fsc_buf *b = o->b;
    if (o->p == no_room || b->oom)
        return;
    b->len = (size_t)(o->p - b->data);
    b->data[b->len] = '\0';
}

/* room's growth, out of line. */
static char *__attribute__((noinline)) room_grow(jo *o, size_t n)
{
    jo_store(o);
    bool ok = fsc_buf_room(o->b, n) != NULL;
    jo_load(o);
    return ok ? o->p : NULL;
}

/* Room for n more bytes at the end of the text; NULL when out of memory. */
static inline char *room(jo *o, size_t n)
{
    if ((size_t)(o->end - o->p) >= n)
        return o->p;
    return room_grow(o, n);
}

/* The text now ends at end (in the room room gave). */
static inline void commit(jo *o, char *end)
{
    o->p = end;
}

/* Room for a separator (sep) at o->depth and n bytes more. */
#define SEP_ROOM(o, n) (2 + (size_t)(o)->depth * 2 + (n))

/* The separator before a member or element at o->depth: ',', then the newline and
 * indentation of pretty output. */
static inline char *sep(const jo *o, char *p)
{
    *p++ = ',';
    if (o->pretty) {
        *p++ = '\n';
        memset(p, ' ', (size_t)o->depth * 2);
        p += o->depth * 2;
    }
    return p;
}

/* A container whose text starts at p: its members are one deeper. */
static inline char *open_in(jo *o, char *p)
{
    o->depth++;
    return p;
}

/* Close the container that started at s with c ('}' or ']'): the ',' of its first
 * member becomes its '{' or '[', or it is empty and is written whole. */
static inline __attribute__((always_inline)) char *close_in(jo *o, char *p, char *s, char c, bool pretty)
{
    o->depth--;
    char open = c == '}' ? '{' : '[';
    if (s == p) {
        p[0] = open;
        p[1] = c;
        return p + 2;
    }
    *s = open;
    if (pretty) {
        *p++ = '\n';
        memset(p, ' ', (size_t)o->depth * 2);
        p += o->depth * 2;
    }
    *p = c;
    return p + 1;
}

/* A container opened where the text ends (an element's, after element()): the
 * offset of its start. */
static size_t open_(jo *o)
{
    char *p = room(o, 1);
    o->depth++;
    return p ? (size_t)(p - o->data) : 0;
}

/* A container's start when its bracket is written (settle) and it has a member. */
#define SETTLED SIZE_MAX

/* Close the container that started at offset at. at is valid when room is given:
 * room was given where it started, and the buffer, once out of memory, gives none
 * after. */
static void close_(jo *o, size_t at, char c)
{
    char *p = room(o, 2 + (size_t)(o->depth - 1) * 2);
    if (!p) {
        o->depth--;
        return;
    }
    if (at == SETTLED) {
        o->depth--;
        if (o->pretty) {
            *p++ = '\n';
            memset(p, ' ', (size_t)o->depth * 2);
            p += o->depth * 2;
        }
        *p++ = c;
        commit(o, p);
        return;
    }
    commit(o, close_in(o, p, o->data + at, c, o->pretty));
}

/* The bracket of the container that started at *at written now (it has a member):
 * what follows may be flushed out of the buffer before it is closed (series). */
static void settle(jo *o, size_t *at, char open)
{
    if (*at != SETTLED && o->p != no_room)
        o->data[*at] = open;
    *at = SETTLED;
}

/* Element of an array: its separator. */
static void element(jo *o)
{
    char *p = room(o, SEP_ROOM(o, 0));
    if (p)
        commit(o, sep(o, p));
}

/* A constant key q[0, n) (",\"name\":", zero-padded to 32 bytes) at p: a fixed
 * copy (n is a constant where inlined). */
static inline __attribute__((always_inline)) char *key_copy(char *p, const char *q, size_t n)
{
    if (n <= 8)
        memcpy(p, q, 8);
    else if (n <= 16)
        memcpy(p, q, 16);
    else
        memcpy(p, q, 32);
    return p + n;
}

/* A key from its fragment q[0, n) (zero-padded to 32 bytes) at p, in room made for
 * it (SEP_ROOM(o, 32)). */
static inline __attribute__((always_inline)) char *key_in(const jo *o, char *p, const char *q, size_t n, bool pretty)
{
    if (pretty) {
        p = sep(o, p);
        memcpy(p, q + 1, n - 1);
        p += n - 1;
        *p++ = ' ';
        return p;
    }
    return key_copy(p, q, n);
}

/* key_in of a fragment. */
static inline __attribute__((always_inline)) char *frag_in(const jo *o, char *p, const frag *f, bool pretty)
{
    if (pretty) {
        p = sep(o, p);
        memcpy(p, f->s + 1, 24);
        p += f->n - 1;
        *p++ = ' ';
        return p;
    }
    memcpy(p, f->s, sizeof f->s);
    return p + f->n;
}

/* key_in of a constant name, p the end of the text. */
#define KEY_IN(o, p, name, pretty)                                                                             \
    do {                                                                                                       \
        static const char k_[32] = ",\"" name "\":";                                                           \
        (p) = key_in((o), (p), k_, sizeof(name) + 3, (pretty));                                                \
    } while (0)

/* A member's key from its fragment where the text ends: the end of the text after
 * it, NULL (nothing written) when out of memory. */
static char *key_put(jo *o, const frag *f)
{
    char *p = room(o, SEP_ROOM(o, sizeof f->s));
    if (p)
        commit(o, p = frag_in(o, p, f, o->pretty));
    return p;
}

/* key_put of a constant key q[0, n) (",\"name\":"): copied as it is long. */
static inline __attribute__((always_inline)) char *key_lit(jo *o, const char *q, size_t n)
{
    char *p = room(o, SEP_ROOM(o, n));
    if (!p)
        return NULL;
    if (o->pretty) {
        p = sep(o, p);
        memcpy(p, q + 1, n - 1);
        p += n - 1;
        *p++ = ' ';
    } else {
        memcpy(p, q, n);
        p += n;
    }
    commit(o, p);
    return p;
}

/* The container that is the value of the key just written (the end of the text
 * after it: p, NULL when out of memory), opened: returns its start. */
static inline size_t key_open_at(jo *o, const char *p)
{
    o->depth++;
    return p ? (size_t)(p - o->data) : 0;
}

#define KEY(o, name) (key_lit((o), KEYLIT(name)) != NULL)
#define KEY_OPEN(o, name) key_open_at((o), key_lit((o), KEYLIT(name)))

/* A key of any text, where the text ends. */
static void key_text(jo *o, const char *key)
{
    size_t n = strlen(key);
    char *p = room(o, SEP_ROOM(o, n + 4));
    if (!p)
        return;
    p = sep(o, p);
    if (fsc_json_plain(key, n, o->html_safe) == n) {
        *p++ = '"';
        memcpy(p, key, n);
        p += n;
        *p++ = '"';
        *p++ = ':';
        if (o->pretty)
            *p++ = ' ';
        commit(o, p);
        return;
    }
    commit(o, p);
    jo_store(o);
    fsc_json_quote(o->b, key, n, o->html_safe);
    fsc_buf_add(o->b, o->pretty ? ": " : ":", o->pretty ? 2 : 1);
    jo_load(o);
}

/* The number's text at p through the thread's memo (room: FSC_NUM_MAX); returns
 * its end. */
static inline __attribute__((always_inline)) char *num_put(const jo *o, char *p, double v);

/* A number of the model at p (room: FSC_NUM_MAX): its exact integer when it has
 * one; returns the end. One copy of the number writer for every member. p comes
 * first, where the calls it ends with take their dst: no register is moved. Not
 * cloned: gcc's clone of it took o->m, which every caller then loaded (780k calls
 * on f333, 0.65 M instructions more), where fnum_at loads it once for all. */
#if defined(__has_attribute)
#if __has_attribute(noclone)
#define FNUM_NOCLONE __attribute__((noclone))
#endif
#endif
#ifndef FNUM_NOCLONE
#define FNUM_NOCLONE
#endif
static char *__attribute__((noinline)) FNUM_NOCLONE fnum_at(char *p, const fsc_num *v, const jo *o);

static void put_num(jo *o, double v)
{
    char *p = room(o, FSC_NUM_MAX);
    if (p)
        commit(o, num_put(o, p, v));
}

static void put_fnum(jo *o, const fsc_num *v)
{
    char *p = room(o, FSC_NUM_MAX);
    if (p)
        commit(o, fnum_at(p, v, o));
}

/* Strings of up to STR_FAST bytes are copied while they are looked at. */
#define STR_FAST 32

/* copy_plain one byte at a time, with the table. */
static inline char *copy_plain_bytes(const jo *o, char *p, const char *s)
{
    const uint8_t *t = plain_tab[o->html_safe];
    for (size_t i = 0; i < STR_FAST; i++) {
        unsigned char c = (unsigned char)s[i];
        if (!t[c])
            return c ? NULL : p + i;
        p[i] = (char)c;
    }
    return s[STR_FAST] ? NULL : p + STR_FAST; /* s[STR_FAST] is in s: no NUL before */
}

/* s copied to p as it is, when it has at most STR_FAST bytes and no byte to escape:
 * returns the end of the copy, or NULL (s is longer or needs fsc_json_quote); p
 * has room for STR_FAST bytes. One pass, no strlen: most strings are short (option
 * names and values, job names, paths). Where the next 32 bytes are in s's page (all
 * but 1 in 128 of them), 16 are looked at a time: the first byte not plain is the
 * NUL (below 0x20) of a string that ends there; they are copied 16 at a time. */
static inline char *copy_plain(const jo *o, char *p, const char *s)
{
#if defined(__SSE2__) && !defined(NO_OVERREAD)
    if (((uintptr_t)s & 4095) <= 4096 - 32) {
        __m128i a = _mm_loadu_si128((const __m128i *)(const void *)s);
        unsigned m = fsc_json_bad16(a, o->html_safe);
        _mm_storeu_si128((__m128i *)(void *)p, a);
        if (m) {
            unsigned k = (unsigned)__builtin_ctz(m);
            return s[k] ? NULL : p + k;
        }
        __m128i b = _mm_loadu_si128((const __m128i *)(const void *)(s + 16));
        m = fsc_json_bad16(b, o->html_safe);
        _mm_storeu_si128((__m128i *)(void *)(p + 16), b);
        if (m) {
            unsigned k = 16 + (unsigned)__builtin_ctz(m);
            return s[k] ? NULL : p + k;
        }
        return s[STR_FAST] ? NULL : p + STR_FAST; /* s[STR_FAST] is in s: no NUL before */
    }
#endif
    return copy_plain_bytes(o, p, s);
}

/* A string of any length and content, quoted (or null). */
static void put_str_any(jo *o, const char *s)
{
    char *p;
    if (!s) {
        if ((p = room(o, 4))) {
            memcpy(p, "null", 4);
            commit(o, p + 4);
        }
        return;
    }
    size_t n = strlen(s);
    if (fsc_json_plain(s, n, o->html_safe) < n || !(p = room(o, n + 2))) {
        jo_store(o);
        fsc_json_quote(o->b, s, n, o->html_safe); /* to escape (or out of memory) */
        jo_load(o);
        return;
    }
    *p++ = '"';
    memcpy(p, s, n);
    p += n;
    *p++ = '"';
    commit(o, p);
}

/* The string s at p, in room for STR_FAST + 2 bytes, when it is null or short and
 * plain: returns the end, or NULL (nothing written: put_str_any). */
static inline char *str_in(const jo *o, char *p, const char *s)
{
    char *e;
    if (!s) { /* "member": null of every run */
        memcpy(p, "null", 4);
        return p + 4;
    }
    if (!(e = copy_plain(o, p + 1, s)))
        return NULL;
    *p = '"';
    *e++ = '"';
    return e;
}

static void put_str(jo *o, const char *s)
{
    char *p = room(o, STR_FAST + 2), *e;
    if (!p)
        return;
    if ((e = str_in(o, p, s)))
        commit(o, e);
    else
        put_str_any(o, s);
}

/* "key": "s" (job options): both in one reservation when neither needs escaping. */
static void key_str(jo *o, const char *key, const char *s)
{
    char *p = room(o, SEP_ROOM(o, STR_FAST + 5 + STR_FAST + 2)), *e;
    if (p && s) { /* short and plain: copied as they are checked */
        char *q = sep(o, p);
        *q++ = '"';
        if ((e = copy_plain(o, q, key))) {
            *e++ = '"';
            *e++ = ':';
            if (o->pretty)
                *e++ = ' ';
            *e = '"';
            if ((e = copy_plain(o, e + 1, s))) {
                *e++ = '"';
                commit(o, e);
                return;
            }
        }
    }
    key_text(o, key);
    put_str_any(o, s);
}

/* A member with a constant key and a number or string value. */
static void key_num(jo *o, const frag *f, double v)
{
    char *p = room(o, SEP_ROOM(o, sizeof f->s + FSC_NUM_MAX));
    if (!p)
        return;
    p = frag_in(o, p, f, o->pretty);
    commit(o, num_put(o, p, v));
}

static void key_strf(jo *o, const frag *f, const char *s)
{
    char *p = room(o, SEP_ROOM(o, sizeof f->s + STR_FAST + 2)), *e;
    if (!p)
        return;
    p = frag_in(o, p, f, o->pretty);
    if ((e = str_in(o, p, s))) {
        commit(o, e);
        return;
    }
    commit(o, p);
    put_str_any(o, s);
}

#define KEY_NUM(o, name, v)                                                                                    \
    do {                                                                                                       \
        static const frag f_ = FRAG(name);                                                                     \
        key_num((o), &f_, (v));                                                                                \
    } while (0)
#define KEY_STR(o, name, s)                                                                                    \
    do {                                                                                                       \
        static const frag f_ = FRAG(name);                                                                     \
        key_strf((o), &f_, (s));                                                                               \
    } while (0)

/* ---- bounds of what the writers "_in" write ----
 * A separator at most sw bytes (sepw); a key from a fragment is copied 32 bytes at
 * a time; a number takes FSC_NUM_MAX; the text of each part may be overwritten
 * past its end within these. */

/* The separator's width at the depth of a job's members and up to 6 deeper (its
 * directions, their "prios", a prio, its latency, the percentiles). */
static inline size_t sepw(const jo *o)
{
    return o->pretty ? 2 + 2 * (size_t)(o->depth + 6) : 1;
}

#define B_KEY(sw) ((sw) + 32)
#define B_CLOSE(sw) ((sw) + 2)
#define B_PCT(sw) ((sw) + 48 + 4 + FSC_NUM_MAX) /* a key of "%f" cut to 47 bytes at most */
#define B_BIN(sw) ((sw) + 4 + 2 * FSC_NUM_MAX)

static inline size_t fields_bound(int t, size_t sw)
{
    return tabs[t].keys + tabs[t].n * sw;
}

/* The "percentile" and "bins" members' keys and brackets are counted whether the
 * latency has them or not: no test, a few bytes more. */
static inline size_t lat_bound(const fsc_lat *l, size_t sw)
{
    return 3 * (B_KEY(sw) + B_CLOSE(sw)) + fields_bound(FT_LAT, sw) + l->n_percentile * B_PCT(sw) +
           l->n_bins * B_BIN(sw);
}

static size_t __attribute__((noinline, cold)) prios_bound(const fsc_dir *d, size_t sw)
{
    size_t n = B_KEY(sw) + B_CLOSE(sw);
    for (size_t i = 0; i < d->n_prios; i++)
        n += 3 * (B_KEY(sw) + FSC_NUM_MAX) + 2 * B_CLOSE(sw) + lat_bound(&d->prios[i].lat, sw);
    return n;
}

static inline size_t dir_bound(const fsc_dir *d, size_t sw)
{
    size_t n = B_KEY(sw) + fields_bound(FT_DIR, sw) + B_CLOSE(sw);
    for (int k = 0; k < FSC_LAT_COUNT; k++)
        n += lat_bound(&d->lat[k], sw);
    if (d->n_prios)
        n += prios_bound(d, sw);
    return n;
}

/* ---- members of the descriptor tables ---- */

/* A member of a descriptor table when it is set: the key from its fragment q[0, n),
 * the number. */
static inline __attribute__((always_inline)) char *field_in(const jo *o, char *p, const fsc_num *v, const char *q,
                                                             size_t n, bool pretty)
{
    if (!v->set)
        return p;
    p = key_in(o, p, q, n, pretty);
    uint64_t bits;
    memcpy(&bits, &v->v, sizeof bits);
    if (bits == 0) { /* +0.0 (never exact: those are 2^53 and more), a third of them: no call */
        *p = '0';
        return p + 1;
    }
    return fnum_at(p, v, o);
}

/* The separator and key name[0, n) escaped as any, then ':' (and a space when pretty),
 * at p; NULL when out of memory (the text is lost: the caller sees b out of memory). */
static char *__attribute__((cold)) key_any_in(jo *o, char *p, const char *name, size_t n)
{
    fsc_buf key = {0};
    fsc_json_quote(&key, name, n, o->html_safe);
    if (key.oom) {
        o->b->oom = true;
        return NULL;
    }
    p = sep(o, p);
    memcpy(p, key.data, key.len);
    p += key.len;
    fsc_buf_free(&key);
    *p++ = ':';
    if (o->pretty)
        *p++ = ' ';
    return p;
}

/* The set members of table t when it is not the one written inline: key by key,
 * each key escaped as any (names of C members never need it). */
static char *__attribute__((noinline, cold)) fields_any_in(jo *o, char *p, const void *base, int t)
{
    for (size_t i = 0; i < tabs[t].n; i++) {
        const fsc_num *v = fsc_field_cptr(base, &tabs[t].tab[i]);
        if (!v->set)
            continue;
        char *k = key_any_in(o, p, tabs[t].tab[i].name, strlen(tabs[t].tab[i].name));
        if (!k)
            return p;
        p = fnum_at(k, v, o);
    }
    return p;
}

/* fields_<name>_in(o, p, base, pretty): the set members of table t of base, in
 * their order, in room of fields_bound; pretty is a constant where inlined. */
#define FIELD_IN(f)                                                                                            \
    {                                                                                                          \
        static const char k_[32] = ",\"" #f "\":";                                                             \
        p = field_in(o, p, &base->f, k_, sizeof(#f) + 3, pretty);                                              \
    }
#define FIELDS_IN(fname, T, LIST, t)                                                                           \
    static inline __attribute__((always_inline)) char *fname(jo *o, char *p, const T *base, bool pretty)       \
    {                                                                                                          \
        if (!tabs[t].inline_)                                                                                  \
            return fields_any_in(o, p, base, t);                                                               \
        LIST(FIELD_IN)                                                                                         \
        return p;                                                                                              \
    }

FIELDS_IN(fields_dir_in, fsc_dir, DIR_FIELDS, FT_DIR)
FIELDS_IN(fields_lat_in, fsc_lat, LAT_FIELDS, FT_LAT)
FIELDS_IN(fields_job_head_in, fsc_job, JOB_HEAD_FIELDS, FT_JOB_HEAD)
FIELDS_IN(fields_job_tail_in, fsc_job, JOB_TAIL_FIELDS, FT_JOB_TAIL)
FIELDS_IN(fields_group_dir_in, fsc_group_dir, GROUP_DIR_FIELDS, FT_GROUP_DIR)
FIELDS_IN(fields_disk_in, fsc_disk, DISK_FIELDS, FT_DISK)

/* The members of a table where the text ends, in one reservation. */
#define FIELDS(o, fname, t, base)                                                                              \
    do {                                                                                                       \
        char *p_ = room((o), fields_bound((t), sepw(o)));                                                      \
        if (p_)                                                                                                \
            commit((o), (o)->pretty ? fname((o), p_, (base), true) : fname((o), p_, (base), false));           \
    } while (0)

/* ---- kvlists ---- */

/* A key of a kvlist at most 16 bytes long (fsc_kv), escaped as any: its member at p
 * (no more than B_KV). */
static char *__attribute__((noinline, cold)) kv_any_in(jo *o, char *p, const fsc_kv *kv)
{
    char *k = key_any_in(o, p, kv->key, strnlen(kv->key, sizeof kv->key));
    return k ? num_put(o, k, kv->v) : p;
}

/* fio prints the same "IO depths", "submit" and "complete" lists for most jobs, a
 * few different ones in turn (a run's readers and writers, its groups): the compact
 * text ('{' to '}') of each of the last KV_MEMO_WAYS lists of a kind is kept with its
 * items, a pure function of them and of html_safe, and copied when the next list is
 * one of them. One way held 71% of the f333 lists, four hold 99.8%. */
enum { KV_MEMO_ITEMS = 16, KV_MEMO_TEXT = 512, KV_MEMO_WAYS = 4 };
typedef struct kv_text {
    size_t n; /* items; 0: none kept */
    size_t len;
    bool html_safe;
    fsc_kv items[KV_MEMO_ITEMS];
    char text[KV_MEMO_TEXT];
} kv_text;

typedef struct kv_memo {
    kv_text way[KV_MEMO_WAYS];
    unsigned last; /* the way found or filled last: looked at first */
    unsigned next; /* the way filled next: the one filled longest ago */
} kv_memo;

static bool kv_text_fits(const kv_text *t, const jo *o, const fsc_kvlist *l)
{
    return t->n == l->n && t->html_safe == o->html_safe && memcmp(t->items, l->items, l->n * sizeof *l->items) == 0;
}

/* The kept text of l, or NULL. The ways are looked at from the last one used on:
 * a list is most often the one before it again (1.5 ways looked at a list on f333). */
static const kv_text *kv_memo_find(kv_memo *m, const jo *o, const fsc_kvlist *l)
{
    for (unsigned k = 0; k < KV_MEMO_WAYS; k++) {
        unsigned i = (m->last + k) % KV_MEMO_WAYS;
        if (kv_text_fits(&m->way[i], o, l)) {
            m->last = i;
            return &m->way[i];
        }
    }
    return NULL;
}

/* Keep the text s[0, len) of l in the way filled longest ago. */
static void kv_memo_keep(kv_memo *m, const jo *o, const fsc_kvlist *l, const char *s, size_t len)
{
    kv_text *t = &m->way[m->next];
    t->len = len;
    memcpy(t->text, s, len);
    memcpy(t->items, l->items, l->n * sizeof *l->items);
    t->n = l->n;
    t->html_safe = o->html_safe;
    m->last = m->next;
    m->next = (m->next + 1) % KV_MEMO_WAYS;
}

/* The length of a kvlist key that needs no escaping, by its 16 bytes: the keys of
 * fio's lists are few ("4", "250", ">=64"), and looking one up is cheaper than
 * looking at its bytes. kn 0: an empty slot (an empty key is looked at). */
enum { KV_KEYS_LOG2 = 6 };
typedef struct kv_key {
    uint64_t w0, w1;
    uint8_t kn;
} kv_key;

/* Percentile keys repeat in every job ("99.990000"): the fragments (",\"99.990000\":")
 * of the last ones are kept. Any pct_key of 0 <= pct < 1e9 fits (at most 16 bytes). */
typedef struct pct_memo {
    char s[32];    /* first: copied whole */
    uint64_t bits; /* of the pct (a NaN is never kept) */
    uint8_t n;
} pct_memo;
enum { PCT_MEMOS = 256 }; /* 32 held 1 in 3 misses: 2 keys a slot */

/* What the writer keeps from run to run, one per thread: the texts of recent
 * numbers (fsc_num_put: up to 8 bytes in nums, 9 to 16 in wide), of the last lists
 * of each kind (kv_memo), the lengths of the kvlist keys seen (kv_key), the
 * fragments of the percentile keys seen (pct_memo) and the slot of each position's
 * last one. Reached once a run (jo_start), not at each use. */
struct memos {
    fsc_num_memo nums[FSC_NUM_MEMO_SLOTS];
    fsc_num_wide wide[FSC_NUM_WIDE_SLOTS];
    kv_memo kv[3];
    kv_key kv_keys[2][1 << KV_KEYS_LOG2]; /* per html_safe */
    pct_memo pct[PCT_MEMOS];
    const pct_memo *pct_at[64];
};

/* A member of a kvlist: a key of 16 bytes escaped at worst ("\u00XX" each). */
#define B_KV(sw) ((sw) + 6 * 16 + 4 + FSC_NUM_MAX)

/* Room for kvlist l written without a memo; the key and brackets are counted when
 * it has no item too (no test). */
static inline size_t kv_bound(const fsc_kvlist *l, size_t sw)
{
    return B_KEY(sw) + l->n * B_KV(sw) + B_CLOSE(sw);
}

/* Room for kvlist l written with a memo, whose text (at most KV_MEMO_TEXT) may be
 * copied in place of the items. */
static inline size_t kv_memo_bound(const fsc_kvlist *l, size_t sw)
{
    size_t n = l->n * B_KV(sw);
    return B_KEY(sw) + (n > KV_MEMO_TEXT ? n : KV_MEMO_TEXT) + B_CLOSE(sw);
}

/* The kvlist member name: l (when it has items) at p, in room of kv_bound; m: its
 * memo (NULL: none), used in compact output only. pretty is a constant where
 * inlined. */
static inline __attribute__((always_inline)) char *kv_in(jo *o, char *p, const frag *name, const fsc_kvlist *l,
                                                          kv_memo *m, bool pretty)
{
    if (!l->n)
        return p;
    if (pretty || l->n > KV_MEMO_ITEMS)
        m = NULL;
    p = frag_in(o, p, name, pretty);
    const kv_text *t = m ? kv_memo_find(m, o, l) : NULL;
    if (t) {
        memcpy(p, t->text, t->len);
        return p + t->len;
    }
    char *s = open_in(o, p);
    const fsc_kv *kv = l->items, *end = kv + l->n;
    kv_key *keys = o->m->kv_keys[o->html_safe];
    fsc_num_memo *nums = o->m->nums;
    for (; kv < end; kv++) {
        /* a key that needs no escaping ("4", ">=64") ends at its NUL (which is not
         * plain) or fills the 16 bytes: its length, kept for the next list with it */
        uint64_t w0 = fsc_load_le64(kv->key), w1 = fsc_load_le64(kv->key + 8);
        kv_key *k = &keys[(w0 * 0x9E3779B97F4A7C15ULL) >> (64 - KV_KEYS_LOG2)];
        size_t kn = k->kn;
        if (k->w0 != w0 || k->w1 != w1 || !kn) {
            kn = fsc_json_plain16(kv->key, o->html_safe);
            if (kn < sizeof kv->key && kv->key[kn]) {
                p = kv_any_in(o, p, kv);
                continue;
            }
            *k = (kv_key){w0, w1, (uint8_t)kn};
        }
        if (pretty) {
            p = sep(o, p);
            *p++ = '"';
        } else {
            memcpy(p, ",\"", 2);
            p += 2;
        }
        memcpy(p, kv->key, sizeof kv->key);
        p += kn;
        memcpy(p, "\":", 2);
        p += 2;
        if (pretty)
            *p++ = ' ';
        uint64_t bits;
        memcpy(&bits, &kv->v, sizeof bits);
        if (bits == 0) /* +0.0, the 0s of iodepth and latency lists: no call */
            *p++ = '0';
        else /* fio's shares, 0.01 to 100: found in the memo, not tested for an integer first */
            p = fsc_num_memo_put(p, kv->v, nums);
    }
    p = close_in(o, p, s, '}', pretty);
    if (m && (size_t)(p - s) <= KV_MEMO_TEXT)
        kv_memo_keep(m, o, l, s, (size_t)(p - s));
    return p;
}

/* A kvlist member where the text ends (the run's cpu_idleness). */
static void write_kvlist(jo *o, const frag *name, const fsc_kvlist *l)
{
    char *p = l->n ? room(o, kv_bound(l, sepw(o))) : NULL;
    if (p)
        commit(o, kv_in(o, p, name, l, NULL, o->pretty));
}

/* ---- latencies ---- */

/* Whether a latency has anything to write: a field of fsc_lat_fields (min max mean
 * stddev N: all of its members), a percentile or a bin. Named, not walked through
 * the table: 15 latencies a job, most of them empty. */
static bool lat_present(const fsc_lat *l)
{
    return (l->min.set | l->max.set | l->mean.set | l->stddev.set | l->N.set) || l->n_percentile || l->n_bins;
}

static inline __attribute__((always_inline)) char *num_put(const jo *o, char *p, double v)
{
    return fsc_num_put(p, v, o->m->nums, o->m->wide);
}

static char *__attribute__((noinline)) FNUM_NOCLONE fnum_at(char *p, const fsc_num *v, const jo *o)
{
    return fsc_num_put_of(p, v->v, v, o->m->nums, o->m->wide);
}

/* The fragment of pct's key, or NULL when pct is out of pct_key's range. */
static const pct_memo *pct_frag(memos *ms, double pct)
{
    if (!(pct >= 0 && pct < 1e9))
        return NULL;
    uint64_t bits;
    memcpy(&bits, &pct, sizeof bits);
    pct_memo *m = &ms->pct[(bits * 0x9E3779B97F4A7C15ULL) >> 56]; /* Fibonacci hashing */
    if (!m->n || m->bits != bits) {
        char key[48];
        size_t n = pct_key(key, pct);
        memset(m->s, 0, sizeof m->s);
        m->s[0] = ',';
        m->s[1] = '"';
        memcpy(m->s + 2, key, n);
        m->s[n + 2] = '"';
        m->s[n + 3] = ':';
        m->n = (uint8_t)(n + 4);
        m->bits = bits;
    }
    return m;
}

/* pct_frag of the i-th percentile of a list: the lists repeat too (every job, every
 * latency), so the slot found for position i is tried first (one comparison of the
 * bits). */
static inline const pct_memo *pct_frag_at(memos *ms, size_t i, const double *pct)
{
    const pct_memo *m = i < FSC_ARRAY_SIZE(ms->pct_at) ? ms->pct_at[i] : NULL;
    uint64_t bits;
    memcpy(&bits, pct, sizeof bits);
    if (m && m->bits == bits)
        return m;
    m = pct_frag(ms, *pct);
    if (i < FSC_ARRAY_SIZE(ms->pct_at))
        ms->pct_at[i] = m;
    return m;
}

/* A percentile member whose pct is out of pct_key's range: "%f" cut to 47 bytes,
 * which is plain ASCII ("-1.000000", "nan"). */
static char *__attribute__((noinline, cold)) pct_other_in(const jo *o, char *p, const fsc_pctl *pc)
{
    char key[48];
    fsc_pct_key(key, sizeof key, pc->pct);
    size_t n = strlen(key);
    p = sep(o, p);
    *p++ = '"';
    memcpy(p, key, n);
    p += n;
    *p++ = '"';
    *p++ = ':';
    if (o->pretty)
        *p++ = ' ';
    return num_put(o, p, pc->ns);
}

/* The "percentile" member of l (which has some). */
static inline __attribute__((always_inline)) char *pcts_in(jo *o, char *p, const fsc_lat *l, bool pretty)
{
    KEY_IN(o, p, "percentile", pretty);
    char *s = open_in(o, p);
    size_t n = l->n_percentile;
    const fsc_pctl *pc = l->percentile;
    memos *ms = o->m; /* in a local: the text's stores could alias o->m */
    for (size_t i = 0; i < n; i++) {
        const pct_memo *m = pct_frag_at(ms, i, &pc[i].pct);
        if (!m) {
            p = pct_other_in(o, p, &pc[i]);
            continue;
        }
        if (pretty) {
            p = sep(o, p);
            memcpy(p, m->s + 1, 24);
            p += m->n - 1;
            *p++ = ' ';
        } else {
            memcpy(p, m->s, sizeof m->s);
            p += m->n;
        }
        p = fsc_num_memo_put(p, pc[i].ns, ms->nums); /* their latencies recur */
    }
    return close_in(o, p, s, '}', pretty);
}

/* The "bins" member of l (json+: "ns": count, both numbers, no escaping). A bin's
 * ns is one of fio's bucket values, the same in every job: looked up in the memo
 * of numbers, as the percentiles' are. */
static char *__attribute__((noinline)) bins_in(jo *o, char *p, const fsc_lat *l)
{
    bool pretty = o->pretty; /* in locals: the text's stores could alias o */
    memos *ms = o->m;
    KEY_IN(o, p, "bins", pretty);
    char *s = open_in(o, p);
    const fsc_bin *b = l->bins, *end = b + l->n_bins;
    for (; b < end; b++) {
        if (pretty)
            p = sep(o, p);
        else
            *p++ = ',';
        *p++ = '"';
        p = fsc_num_memo_put(p, b->ns, ms->nums);
        *p++ = '"';
        *p++ = ':';
        if (pretty)
            *p++ = ' ';
        p = fsc_num_put(p, b->count, ms->nums, ms->wide);
    }
    return close_in(o, p, s, '}', pretty);
}

/* pcts_in of each output, out of line: the loop keeps its registers. */
static char *__attribute__((noinline)) pcts_compact(jo *o, char *p, const fsc_lat *l)
{
    return pcts_in(o, p, l, false);
}

static char *__attribute__((noinline)) pcts_pretty(jo *o, char *p, const fsc_lat *l)
{
    return pcts_in(o, p, l, true);
}

static inline __attribute__((always_inline)) char *lat_in(jo *o, char *p, const frag *name, const fsc_lat *l,
                                                           bool pretty)
{
    if (!lat_present(l))
        return p;
    p = frag_in(o, p, name, pretty);
    char *s = open_in(o, p);
    p = fields_lat_in(o, p, l, pretty);
    if (l->n_percentile)
        p = pretty ? pcts_pretty(o, p, l) : pcts_compact(o, p, l);
    if (l->n_bins)
        p = bins_in(o, p, l);
    return close_in(o, p, s, '}', pretty);
}

/* fsc_ddir_name and fsc_latkind_name as fragments */
static const frag dir_frags[FSC_DIR_COUNT] = {FRAG("read"), FRAG("write"), FRAG("trim"), FRAG("sync"),
                                              FRAG("mixed")};
static const frag lat_frags[FSC_LAT_COUNT] = {FRAG("slat_ns"), FRAG("clat_ns"), FRAG("lat_ns")};

/* A direction's latencies by priority, as the fio that printed them names them: fio
 * 3.18-3.29's "clat_high_prio" and "clat_low_prio" objects (lat_* for total
 * latencies), 3.30+'s "prios" array. */
static char *__attribute__((noinline, cold)) prios_in(jo *o, char *p, const fsc_dir *d)
{
    /* fsc_prio_highlow_name as fragments */
    static const frag highlow[2][2] = {{FRAG("clat_low_prio"), FRAG("clat_high_prio")},
                                       {FRAG("lat_low_prio"), FRAG("lat_high_prio")}};
    bool any_class = false, pretty = o->pretty;
    for (size_t i = 0; i < d->n_prios; i++) {
        const fsc_prio *pr = &d->prios[i];
        if (pr->high < 0)
            any_class = true;
        else
            p = lat_in(o, p, &highlow[pr->kind == FSC_LAT_LAT][pr->high != 0], &pr->lat, pretty);
    }
    if (!any_class)
        return p;
    KEY_IN(o, p, "prios", pretty);
    char *as = open_in(o, p);
    for (size_t i = 0; i < d->n_prios; i++) {
        const fsc_prio *pr = &d->prios[i];
        if (pr->high >= 0)
            continue;
        p = sep(o, p);
        char *s = open_in(o, p);
        if (pr->prioclass >= 0) {
            KEY_IN(o, p, "prioclass", pretty);
            p = num_put(o, p, pr->prioclass);
        }
        if (pr->prio >= 0) {
            KEY_IN(o, p, "prio", pretty);
            p = num_put(o, p, pr->prio);
        }
        if (pr->priohint >= 0) {
            KEY_IN(o, p, "priohint", pretty);
            p = num_put(o, p, pr->priohint);
        }
        p = lat_in(o, p, &lat_frags[pr->kind], &pr->lat, pretty);
        p = close_in(o, p, s, '}', pretty);
    }
    return close_in(o, p, as, ']', pretty);
}

static inline __attribute__((always_inline)) char *dir_in(jo *o, char *p, const frag *name, const fsc_dir *d,
                                                           bool pretty)
{
    p = frag_in(o, p, name, pretty);
    char *s = open_in(o, p);
    p = fields_dir_in(o, p, d, pretty);
    for (int k = 0; k < FSC_LAT_COUNT; k++)
        p = lat_in(o, p, &lat_frags[k], &d->lat[k], pretty);
    if (d->n_prios)
        p = prios_in(o, p, d);
    return close_in(o, p, s, '}', pretty);
}

/* ---- jobs and runs ---- */

/* The kvlists of a job, named. */
static const frag job_lists[] = {FRAG("iodepth_level"), FRAG("iodepth_submit"), FRAG("iodepth_complete"),
                                 FRAG("latency_ns"),    FRAG("latency_us"),     FRAG("latency_ms")};

/* A job's directions and the members after them (fields_job_tail, the kvlists),
 * in room of job_bound. */
static inline __attribute__((always_inline)) char *job_rest_in(jo *o, char *p, const fsc_job *job, bool pretty)
{
    for (int d = 0; d < FSC_DIR_COUNT; d++)
        if (job->dir[d].present)
            p = dir_in(o, p, &dir_frags[d], &job->dir[d], pretty);
    p = fields_job_tail_in(o, p, job, pretty);
    p = kv_in(o, p, &job_lists[0], &job->iodepth_level, &o->m->kv[0], pretty);
    p = kv_in(o, p, &job_lists[1], &job->iodepth_submit, &o->m->kv[1], pretty);
    p = kv_in(o, p, &job_lists[2], &job->iodepth_complete, &o->m->kv[2], pretty);
    for (int b = 0; b < FSC_BUCKET_COUNT; b++)
        p = kv_in(o, p, &job_lists[3 + b], &job->latency[b], NULL, pretty);
    return p;
}

static size_t job_bound(const jo *o, const fsc_job *job)
{
    size_t sw = sepw(o), n = fields_bound(FT_JOB_TAIL, sw);
    for (int d = 0; d < FSC_DIR_COUNT; d++)
        if (job->dir[d].present)
            n += dir_bound(&job->dir[d], sw);
    n += kv_memo_bound(&job->iodepth_level, sw) + kv_memo_bound(&job->iodepth_submit, sw) +
         kv_memo_bound(&job->iodepth_complete, sw);
    for (int b = 0; b < FSC_BUCKET_COUNT; b++)
        n += kv_bound(&job->latency[b], sw);
    return n;
}

/* Members written with fsc_jw amid the direct ones (steady state, series): w takes
 * the writer's place (text, depth, whether a member is written before: first, as
 * fsc_jw keeps it), then gives it back; jw_enter returns w's own depth for
 * jw_leave. A member before or not, w writes its first with the ',' the containers
 * of this writer look for (first false) unless told otherwise. */
static int jw_enter(jo *o, bool first)
{
    jo_store(o);
    int d = o->w->depth;
    o->w->depth = o->depth;
    o->w->first[o->depth] = first;
    o->w->after_key = false;
    return d;
}

/* Back from fsc_jw: whether it wrote nothing at its depth (first still set). */
static bool jw_leave(jo *o, int d)
{
    bool first = o->w->first[o->depth];
    o->w->depth = d;
    jo_load(o);
    return first;
}

/* The members of a job object. */
static void write_job(jo *o, const fsc_job *job)
{
    KEY_STR(o, "jobname", job->jobname ? job->jobname : "");
    if (job->hostname)
        KEY_STR(o, "hostname", job->hostname);
    if (job->description)
        KEY_STR(o, "desc", job->description);
    if (job->error_text)
        KEY_STR(o, "error_text", job->error_text);
    FIELDS(o, fields_job_head_in, FT_JOB_HEAD, job); /* groupid error pid jobs job_runtime */
    if (job->n_options) {
        size_t at = KEY_OPEN(o, "job options");
        for (size_t i = 0; i < job->n_options; i++)
            key_str(o, job->options[i].key, job->options[i].val);
        close_(o, at, '}');
    }
    char *p = room(o, job_bound(o, job));
    if (p)
        commit(o, o->pretty ? job_rest_in(o, p, job, true) : job_rest_in(o, p, job, false));
    if (job->steadystate.present) {
        int d = jw_enter(o, false);
        fsc_model_write_steadystate(o->w, &job->steadystate);
        jw_leave(o, d);
    }
}

/* The memos of a thread, made at its first use (most threads never write JSON) and
 * freed when it ends. */
static _Thread_local memos *thread_memos;

/* This thread's memos; NULL when out of memory. */
static memos *memos_get(void)
{
    memos *m = thread_memos;
    if (m)
        return m;
    if (!(m = calloc(1, sizeof *m)))
        return NULL;
    if (!fsc_at_thread_end(free, m)) {
        free(m);
        return NULL;
    }
    return thread_memos = m;
}

/* Start the direct writer where w stands, for a value (its separator written by
 * w): the writer opens and closes its object, and w is left as after that value.
 * Without memos the buffer is out of memory: nothing is written. */
static void jo_start(jo *o, fsc_jw *w)
{
    pthread_once(&tabs_once, tabs_init);
    fsc_jw_value_begin(w);
    o->w = w;
    o->b = w->out;
    o->pretty = w->pretty;
    o->html_safe = w->html_safe;
    o->depth = w->depth;
    if (!(o->m = memos_get()))
        o->b->oom = true;
    jo_load(o);
}

void fsc_model_write_job(fsc_jw *w, const fsc_job *job)
{
    jo o;
    jo_start(&o, w);
    size_t at = open_(&o);
    write_job(&o, job);
    close_(&o, at, '}');
    jo_store(&o);
}

static void write_group(jo *o, const fsc_group *g)
{
    size_t at = open_(o);
    if (g->groupid.set && KEY(o, "groupid"))
        put_fnum(o, &g->groupid);
    if (g->hostname)
        KEY_STR(o, "hostname", g->hostname);
    for (int d = 0; d < FSC_DIR_COUNT; d++) {
        if (!g->dir[d].present)
            continue;
        size_t dat = key_open_at(o, key_put(o, &dir_frags[d]));
        FIELDS(o, fields_group_dir_in, FT_GROUP_DIR, &g->dir[d]);
        close_(o, dat, '}');
    }
    close_(o, at, '}');
}

static void write_disk(jo *o, const fsc_disk *d)
{
    size_t at = open_(o);
    KEY_STR(o, "name", d->name ? d->name : "");
    FIELDS(o, fields_disk_in, FT_DISK, d);
    if (d->n_members) {
        size_t mat = KEY_OPEN(o, "members");
        for (size_t i = 0; i < d->n_members; i++) {
            element(o);
            put_str(o, d->members[i]);
        }
        close_(o, mat, ']');
    }
    close_(o, at, '}');
}

/* The "series" member: opts->flush may write out and empty the buffer while they
 * are written, so the run's '{' is written before (settle) and the array's '['
 * at once. */
static void __attribute__((noinline)) write_series(jo *o, size_t *run_at, const fsc_run *run,
                                                   const fsc_json_opts *opts)
{
    settle(o, run_at, '{');
    if (!KEY(o, "series"))
        return;
    char *p = room(o, 1);
    if (!p)
        return;
    *p = '[';
    commit(o, p + 1);
    o->depth++;
    int d = jw_enter(o, true);
    for (size_t i = 0; i < run->n_series; i++)
        fsc_model_write_series(o->w, run->series[i], opts);
    if (!jw_leave(o, d)) {
        close_(o, SETTLED, ']');
        return;
    }
    o->depth--; /* none written: "[]" */
    if ((p = room(o, 1))) {
        *p = ']';
        commit(o, p + 1);
    }
}

/* The run's members before its jobs ("id", "source", "label", "context"), member by
 * member. */
static void run_head(jo *o, const fsc_run *run)
{
    KEY_STR(o, "id", run->id ? run->id : "");
    size_t sat = KEY_OPEN(o, "source");
    KEY_STR(o, "path", run->source.path ? run->source.path : "");
    KEY_STR(o, "member", run->source.member);
    KEY_NUM(o, "first_line", run->source.first_line);
    KEY_NUM(o, "last_line", run->source.last_line);
    KEY_STR(o, "format", fsc_format_name(run->source.format));
    if (run->source.n_formats > 1) { /* one invocation, several formats */
        size_t fat = KEY_OPEN(o, "formats");
        for (size_t i = 0; i < run->source.n_formats; i++) {
            element(o);
            put_str(o, fsc_format_name(run->source.formats[i]));
        }
        close_(o, fat, ']');
    }
    KEY_STR(o, "fio_version", run->source.fio_version);
    if (run->source.host)
        KEY_STR(o, "host", run->source.host);
    if (run->source.time)
        KEY_STR(o, "time", run->source.time);
    if (run->source.timestamp.set)
        KEY_NUM(o, "timestamp", run->source.timestamp.v);
    close_(o, sat, '}');
    KEY_STR(o, "label", run->label ? run->label : "");
    size_t cat = KEY_OPEN(o, "context");
    for (size_t i = 0; i < run->n_context; i++) {
        element(o);
        put_str(o, run->context[i]);
    }
    close_(o, cat, ']');
}

/* run_head_in's members: a key from its fragment; a key and a string s, s null or
 * short and plain (str_in), or else nothing more is written (NULL). */
#define HEAD_KEY(name)                                                                                         \
    do {                                                                                                       \
        static const frag f_ = FRAG(name);                                                                     \
        p = frag_in(o, p, &f_, false);                                                                         \
    } while (0)
#define HEAD_STR(name, s)                                                                                      \
    do {                                                                                                       \
        HEAD_KEY(name);                                                                                        \
        if (!(p = str_in(o, p, (s))))                                                                          \
            return NULL;                                                                                       \
    } while (0)

/* Room for run_head_in: each part of it writes no further than its share from
 * where it starts (a key 32 bytes, a string STR_FAST + 2, a number FSC_NUM_MAX, a
 * bracket 2), so the sum of the shares bounds it. */
static size_t run_head_bound(const fsc_run *run)
{
    enum { KEYS = 12, STRS = 8, NUMS = 2, BRACKETS = 4 };
    return KEYS * 32 + STRS * (STR_FAST + 2) + NUMS * FSC_NUM_MAX + BRACKETS * 2 + run->n_context * (1 + STR_FAST + 2);
}

/* run_head in compact output, at p in room of run_head_bound: the same bytes, from
 * fragments and short strings copied, with no reservation, call or commit a member
 * (a run's head took 850 instructions member by member, a tenth of a job). NULL
 * when a string is not short and plain: run_head writes it then. */
static char *run_head_in(jo *o, char *p, const fsc_run *run)
{
    HEAD_STR("id", run->id ? run->id : "");
    HEAD_KEY("source");
    char *s = open_in(o, p);
    HEAD_STR("path", run->source.path ? run->source.path : "");
    HEAD_STR("member", run->source.member);
    HEAD_KEY("first_line");
    p = fsc_u64_put(p, run->source.first_line);
    HEAD_KEY("last_line");
    p = fsc_u64_put(p, run->source.last_line);
    HEAD_STR("format", fsc_format_name(run->source.format));
    HEAD_STR("fio_version", run->source.fio_version);
    if (run->source.host)
        HEAD_STR("host", run->source.host);
    if (run->source.time)
        HEAD_STR("time", run->source.time);
    p = close_in(o, p, s, '}', false);
    HEAD_STR("label", run->label ? run->label : "");
    HEAD_KEY("context");
    s = open_in(o, p);
    for (size_t i = 0; i < run->n_context; i++) {
        *p++ = ',';
        if (!(p = str_in(o, p, run->context[i])))
            return NULL;
    }
    return close_in(o, p, s, ']', false);
}
#undef HEAD_KEY
#undef HEAD_STR

/* The run's head by run_head_in when it can (compact output, one format, no
 * timestamp, a few context lines: the text's runs), else by run_head. The context
 * is bounded so that the room asked for stays near what is written (--max-memory). */
static void write_run_head(jo *o, const fsc_run *run)
{
    enum { CONTEXT_MAX = 8 };
    char *p = NULL, *e = NULL;
    int depth = o->depth;
    if (!o->pretty && run->source.n_formats <= 1 && !run->source.timestamp.set && run->n_context <= CONTEXT_MAX &&
        (p = room(o, run_head_bound(run))))
        e = run_head_in(o, p, run);
    o->depth = depth; /* where run_head_in gave up */
    if (e)
        commit(o, e);
    else
        run_head(o, run);
}

void fsc_model_write_run(fsc_jw *w, const fsc_run *run, const fsc_json_opts *opts)
{
    jo o;
    jo_start(&o, w);
    size_t at = open_(&o);
    write_run_head(&o, run);
    size_t jat = KEY_OPEN(&o, "jobs");
    for (size_t i = 0; i < run->n_jobs; i++) {
        element(&o);
        size_t oat = open_(&o);
        write_job(&o, &run->jobs[i]);
        close_(&o, oat, '}');
    }
    close_(&o, jat, ']');
    size_t gat = KEY_OPEN(&o, "groups");
    for (size_t i = 0; i < run->n_groups; i++) {
        element(&o);
        write_group(&o, &run->groups[i]);
    }
    close_(&o, gat, ']');
    size_t dat = KEY_OPEN(&o, "disk_util");
    for (size_t i = 0; i < run->n_disk_util; i++) {
        element(&o);
        write_disk(&o, &run->disk_util[i]);
    }
    close_(&o, dat, ']');
    static const frag idleness = FRAG("cpu_idleness");
    write_kvlist(&o, &idleness, &run->cpu_idleness);
    if (run->n_series)
        write_series(&o, &at, run, opts);
    size_t wat = KEY_OPEN(&o, "warnings");
    for (size_t i = 0; i < run->n_warnings; i++) {
        element(&o);
        size_t oat = open_(&o);
        KEY_NUM(&o, "line", run->warnings[i].line);
        KEY_STR(&o, "message", run->warnings[i].message);
        close_(&o, oat, '}');
    }
    close_(&o, wat, ']');
    if (opts && opts->damage) {
        size_t mat = KEY_OPEN(&o, "damage");
        KEY_NUM(&o, "recognized", run->lines.recognized);
        KEY_NUM(&o, "noise", run->lines.noise);
        KEY_NUM(&o, "unknown", run->lines.unknown);
        KEY_NUM(&o, "malformed", run->lines.malformed);
        KEY_NUM(&o, "repaired", run->lines.repaired);
        size_t uat = KEY_OPEN(&o, "unknown_lines");
        for (size_t i = 0; i < run->n_unknown_lines; i++) {
            element(&o);
            put_num(&o, run->unknown_lines[i]);
        }
        close_(&o, uat, ']');
        close_(&o, mat, '}');
    }
    close_(&o, at, '}');
    jo_store(&o);
}
