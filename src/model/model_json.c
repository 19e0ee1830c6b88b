/* SPDX-License-Identifier: MIT */
/*
 * Walk the model and write the contract JSON; the descriptor tables give names.
 *
 * Written directly into the output buffer: keys of the descriptor tables come from
 * fragments made once ("\"clat_ns\":"), numbers from their integers or shortest
 * decimals (fsc_num_fmt, fsc_u64_fmt), room is made once per value. The bytes are
 * exactly those of the fsc_jw writer (compact and pretty), which stays the public
 * way to write JSON and is used around the runs.
 */
#include "fioscope/model_json.h"
#include "json_plain.h"
#include "num_memo.h"

#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
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

/* A key made once: the quoted name and the colon. 24 bytes hold every name of the
 * descriptor tables (at most 21 with quotes and colon), and a copy of all of them
 * is two moves. */
typedef struct frag {
    char s[24];
    uint8_t n;
} frag;

/* A key of a descriptor table made once, with the comma before it: ",\"clat_ns\":".
 * The first member of an object copies it from s + 1, the others from s; MFRAG_COPY
 * bytes from either hold every name of the tables (at most 22 with the comma), and
 * a copy of all of them is two moves. n counts the comma. */
enum { MFRAG_COPY = 24 };
typedef struct mfrag {
    char s[MFRAG_COPY + 1];
    uint8_t n;
} mfrag;

/* The descriptor tables, with fragments of their names made once for all threads;
 * NULL for a table whose names need escaping or do not fit (written key by key). */
enum { FT_DIR, FT_LAT, FT_JOB, FT_GROUP_DIR, FT_DISK, FT_COUNT };
static const mfrag *frag_tab[FT_COUNT];
static mfrag frag_store[256];
static pthread_once_t frag_once = PTHREAD_ONCE_INIT;

/* Per html_safe, per byte: 1 when a JSON string takes it as it is (fsc_json_plain),
 * 0 for the others and for NUL (the end of a string). Made with the fragments. */
static uint8_t plain_tab[2][256];

/* ',' + "name" + ':' when the name needs no escaping and fits; false otherwise. */
static bool make_frag(mfrag *f, const char *name)
{
    size_t n = strlen(name);
    if (n + 4 > MFRAG_COPY)
        return false;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)name[i];
        if (c < 0x20 || c >= 0x7f || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&')
            return false;
    }
    memset(f->s, 0, sizeof f->s);
    f->s[0] = ',';
    f->s[1] = '"';
    memcpy(f->s + 2, name, n);
    f->s[n + 2] = '"';
    f->s[n + 3] = ':';
    f->n = (uint8_t)(n + 4);
    return true;
}

static void plain_init(void)
{
    for (int h = 0; h < 2; h++)
        for (int c = 1; c < 256; c++) {
            char ch = (char)c;
            plain_tab[h][c] = fsc_json_plain(&ch, 1, h) == 1;
        }
}

static void frags_init(void)
{
    plain_init();
    const struct {
        const fsc_field *tab;
        size_t n;
    } tabs[FT_COUNT] = {[FT_DIR] = {fsc_dir_fields, fsc_n_dir_fields},
                        [FT_LAT] = {fsc_lat_fields, fsc_n_lat_fields},
                        [FT_JOB] = {fsc_job_fields, fsc_n_job_fields},
                        [FT_GROUP_DIR] = {fsc_group_dir_fields, fsc_n_group_dir_fields},
                        [FT_DISK] = {fsc_disk_fields, fsc_n_disk_fields}};
    size_t used = 0;
    for (size_t t = 0; t < FT_COUNT; t++) {
        if (used + tabs[t].n > FSC_ARRAY_SIZE(frag_store))
            break;
        bool ok = true;
        for (size_t i = 0; i < tabs[t].n && ok; i++)
            ok = make_frag(&frag_store[used + i], tabs[t].tab[i].name);
        if (!ok)
            continue; /* that table is written key by key */
        frag_tab[t] = &frag_store[used];
        used += tabs[t].n;
    }
}

/* The fragments of table t from its field i on (fsc_job_fields + 5), or NULL. Made
 * by then: jo_start, which starts every use of the direct writer, makes them. */
static inline const mfrag *frags_at(int t, size_t i)
{
    return frag_tab[t] ? frag_tab[t] + i : NULL;
}

/* The output and where the writer stands: depth of the value being written (as
 * fsc_jw counts it) and whether its object or array has a member yet.
 * The end of the text is p, not b->len: b is told (jo_store, which also writes the
 * NUL) only before something else writes to it and when the writer is done, and
 * the writer takes it back from b after (jo_load). Room for n bytes and the NUL is
 * there while end - p >= n: one comparison of two pointers the writer holds. */
typedef struct memos memos;
typedef struct jo {
    fsc_jw *w;
    fsc_buf *b;
    char *p, *end; /* the end of the text; of the room for it (b->data + b->cap - 1) */
    bool pretty, html_safe;
    int depth;
    memos *m; /* the thread's */
} jo;

/* p and end when there is no room to give (b out of memory, or never grown): the
 * writer never writes there, end - p is 0 and jo_store knows it. */
static char no_room[1];

static inline void jo_load(jo *o)
{
    fsc_buf *b = o->b;
    if (b->oom || !b->data) {
        o->p = o->end = no_room;
        return;
    }
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

/* The separator before a member or element at o->depth: ',' unless first, then the
 * newline and indentation of pretty output. */
static inline char *sep(const jo *o, char *p, bool *first)
{
    if (!*first)
        *p++ = ',';
    *first = false;
    if (o->pretty) {
        *p++ = '\n';
        memset(p, ' ', (size_t)o->depth * 2);
        p += o->depth * 2;
    }
    return p;
}

/* Room for a separator, a key of klen bytes and extra more. */
static inline char *room_item(jo *o, size_t klen, size_t extra)
{
    return room(o, 2 + (size_t)o->depth * 2 + klen + 2 + extra);
}

/* A key of a descriptor table (fragment) or of any text. */
static char *put_frag(const jo *o, char *p, const frag *k)
{
    memcpy(p, k->s, k->n);
    p += k->n;
    if (o->pretty)
        *p++ = ' ';
    return p;
}

/* A key given as its fragment text q[0, n) ("\"jobs\":"), and when c is not 0 the
 * '{' or '[' of the container that is its value, in one append; inlined, so that n
 * and c are constants and the copy a few moves. False (nothing written, depth
 * unchanged) when out of memory. */
static inline __attribute__((always_inline)) bool key_put(jo *o, bool *first, const char *q, size_t n, char c)
{
    char *p = room_item(o, n, c != 0);
    if (!p)
        return false;
    p = sep(o, p, first);
    memcpy(p, q, n);
    p += n;
    if (o->pretty)
        *p++ = ' ';
    if (c)
        *p++ = c;
    commit(o, p);
    o->depth += c != 0;
    return true;
}

static inline __attribute__((always_inline)) bool key_lit(jo *o, bool *first, const char *q, size_t n)
{
    return key_put(o, first, q, n, 0);
}

static inline __attribute__((always_inline)) bool key_open(jo *o, bool *first, const char *q, size_t n, char c)
{
    return key_put(o, first, q, n, c);
}

/* Fragments of constant names. */
#define FRAG(name) {"\"" name "\":", sizeof(name) + 2}
#define KEY(o, first, name) key_lit((o), (first), "\"" name "\":", sizeof(name) + 2)
#define KEY_OPEN(o, first, name, c) key_open((o), (first), "\"" name "\":", sizeof(name) + 2, (c))

static bool key_text(jo *o, bool *first, const char *key)
{
    char *p;
    size_t n = strlen(key);
    if (fsc_json_plain(key, n, o->html_safe) == n) {
        if (!(p = room_item(o, n + 3, 0)))
            return false;
        p = sep(o, p, first);
        *p++ = '"';
        memcpy(p, key, n);
        p += n;
        *p++ = '"';
        *p++ = ':';
        if (o->pretty)
            *p++ = ' ';
        commit(o, p);
        return true;
    }
    if (!(p = room_item(o, 0, 0)))
        return false;
    commit(o, sep(o, p, first));
    jo_store(o);
    fsc_json_quote(o->b, key, strlen(key), o->html_safe);
    fsc_buf_add(o->b, o->pretty ? ": " : ":", o->pretty ? 2 : 1);
    jo_load(o);
    return !o->b->oom;
}

/* fsc_num_fmt(p, v) through the thread's memo. */
static inline size_t num_fmt(const jo *o, char *p, double v);

static void put_num(jo *o, double v)
{
    char *p = room(o, FSC_NUM_MAX);
    if (p)
        commit(o, p + num_fmt(o, p, v));
}

static void put_fnum(jo *o, const fsc_num *v)
{
    char *p = room(o, FSC_NUM_MAX);
    if (p)
        commit(o, p + (v->exact ? fsc_u64_fmt(p, v->u) : num_fmt(o, p, v->v)));
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

static void put_str(jo *o, const char *s)
{
    char *p = room(o, STR_FAST + 2), *e;
    if (!p)
        return;
    if (!s) { /* "member": null of every run */
        memcpy(p, "null", 4);
        commit(o, p + 4);
        return;
    }
    if ((e = copy_plain(o, p + 1, s))) {
        *p = '"';
        *e++ = '"';
        commit(o, e);
        return;
    }
    put_str_any(o, s);
}

/* "key": "s" (job options): both in one reservation when neither needs escaping. */
static void key_str(jo *o, bool *first, const char *key, const char *s)
{
    char *p = room_item(o, STR_FAST + 3, STR_FAST + 2), *e;
    bool f = *first;
    if (p && s) { /* short and plain: copied as they are checked */
        char *q = sep(o, p, &f);
        *q++ = '"';
        if ((e = copy_plain(o, q, key))) {
            *e++ = '"';
            *e++ = ':';
            if (o->pretty)
                *e++ = ' ';
            *e = '"';
            if ((e = copy_plain(o, e + 1, s))) {
                *e++ = '"';
                *first = f;
                commit(o, e);
                return;
            }
        }
    }
    if (key_text(o, first, key))
        put_str_any(o, s);
}

#define KEYLIT(name) "\"" name "\":", sizeof(name) + 2

static void key_numl(jo *o, bool *first, const char *q, size_t n, double v)
{
    if (key_lit(o, first, q, n))
        put_num(o, v);
}

static void key_strl(jo *o, bool *first, const char *q, size_t n, const char *s)
{
    if (key_lit(o, first, q, n))
        put_str(o, s);
}

/* Open a container as the value of the key just written (or as an element). */
static inline void open_(jo *o, char c)
{
    char *p = room(o, 1);
    if (p) {
        *p++ = c;
        commit(o, p);
    }
    o->depth++;
}

/* Close it; empty: nothing was written in it. */
static inline void close_(jo *o, bool empty, char c)
{
    o->depth--;
    char *p = room(o, 2 + (size_t)o->depth * 2);
    if (!p)
        return;
    if (o->pretty && !empty) {
        *p++ = '\n';
        memset(p, ' ', (size_t)o->depth * 2);
        p += o->depth * 2;
    }
    *p++ = c;
    commit(o, p);
}

/* Element of an array: its separator. */
static void element(jo *o, bool *first)
{
    char *p = room_item(o, 0, 0);
    if (p)
        commit(o, sep(o, p, first));
}

/* The separator of sep with pretty known where it is inlined: compact output writes
 * the comma always and keeps it unless first (no branch). */
static inline __attribute__((always_inline)) char *sep_as(const jo *o, char *p, bool *first, bool pretty)
{
    if (pretty)
        return sep(o, p, first);
    *p = ',';
    p += !*first;
    *first = false;
    return p;
}

/* A member of write_fields: its key from fragment k (with its comma unless first),
 * the space of pretty output, its number. */
static inline __attribute__((always_inline)) char *field_out(const jo *o, char *p, const mfrag *k, bool first,
                                                              const fsc_num *v, bool pretty)
{
    if (pretty) { /* the comma before the newline: sep's */
        p = sep(o, p, &first);
        memcpy(p, k->s + 1, MFRAG_COPY);
        p += k->n - 1;
        *p++ = ' ';
    } else {
        memcpy(p, k->s + first, MFRAG_COPY); /* all of it: a fixed-size copy, the room is there */
        p += k->n - first;
    }
    return p + (v->exact ? fsc_u64_fmt(p, v->u) : num_fmt(o, p, v->v));
}

/* The members of write_fields from fragments fr, into room made for all; pretty is
 * a constant where inlined. The first member written (when *first) is looked for
 * apart: the others take their comma with their key. */
static inline __attribute__((always_inline)) char *fields_out(const jo *o, char *p, bool *first, const void *base,
                                                               const fsc_field *tab, size_t n, const mfrag *fr,
                                                               bool pretty)
{
    size_t i = 0;
    if (*first) {
        for (; i < n; i++) {
            const fsc_num *v = fsc_field_cptr(base, &tab[i]);
            if (v->set) {
                p = field_out(o, p, &fr[i], true, v, pretty);
                *first = false;
                i++;
                break;
            }
        }
    }
    for (; i < n; i++) {
        const fsc_num *v = fsc_field_cptr(base, &tab[i]);
        if (v->set)
            p = field_out(o, p, &fr[i], false, v, pretty);
    }
    return p;
}

/* The set fields of a descriptor table, in table order: one reservation for all.
 * fr: the table's fragments (frags_at), NULL to write the names key by key. Inlined
 * where called: the call's own cost was a fifth of a short table's. */
static inline __attribute__((always_inline)) void write_fields(jo *o, bool *first, const void *base,
                                                                const fsc_field *tab, size_t n, const mfrag *fr)
{
    if (!fr) { /* a table whose names need escaping: key by key */
        for (size_t i = 0; i < n; i++) {
            const fsc_num *v = fsc_field_cptr(base, &tab[i]);
            if (v->set && key_text(o, first, tab[i].name))
                put_fnum(o, v);
        }
        return;
    }
    char *p = room(o, n * (MFRAG_COPY + 4 + FSC_NUM_MAX + (size_t)o->depth * 2));
    if (!p)
        return;
    p = o->pretty ? fields_out(o, p, first, base, tab, n, fr, true) : fields_out(o, p, first, base, tab, n, fr, false);
    commit(o, p);
}

/* A short key of the model's own (kvlist, percentile): plain ASCII nearly always. */
static void key_short(jo *o, bool *first, const char *key, size_t n)
{
    char *p;
    bool plain = n < 36;
    for (size_t i = 0; i < n && plain; i++) {
        unsigned char c = (unsigned char)key[i];
        plain = c >= 0x20 && c < 0x7f && c != '"' && c != '\\' &&
                !(o->html_safe && (c == '<' || c == '>' || c == '&'));
    }
    if (!plain) {
        char tmp[64];
        snprintf(tmp, sizeof tmp, "%.*s", (int)n, key);
        key_text(o, first, tmp);
        return;
    }
    if (!(p = room_item(o, n + 3, 0)))
        return;
    p = sep(o, p, first);
    *p++ = '"';
    memcpy(p, key, n);
    p += n;
    *p++ = '"';
    *p++ = ':';
    if (o->pretty)
        *p++ = ' ';
    commit(o, p);
}

/* Room for the members of a kvlist from item i on: a key holds at most 16 bytes
 * (fsc_kv), copied whole. */
static inline char *kv_room(jo *o, const fsc_kvlist *l, size_t i)
{
    return room(o, (l->n - i) * (sizeof l->items[0].key + 6 + FSC_NUM_MAX + (size_t)o->depth * 2));
}

/* The members of kvlist l from item i on into room made by kv_room; pretty is a
 * constant where inlined. Stops before a key to escape: returns the end of what it
 * wrote, *at the item it stopped at (l->n when done). */
static inline __attribute__((always_inline)) char *kv_out(const jo *o, char *p, bool *first, const fsc_kvlist *l,
                                                           size_t *at, bool pretty)
{
    bool f = *first;
    size_t i = *at;
    for (; i < l->n; i++) {
        const fsc_kv *kv = &l->items[i];
        /* a key that needs no escaping ("4", ">=64") ends at its NUL (which is not
         * plain) or fills the 16 bytes */
        size_t kn = fsc_json_plain16(kv->key, o->html_safe);
        if (kn < sizeof kv->key && kv->key[kn])
            break;
        p = sep_as(o, p, &f, pretty);
        *p++ = '"';
        memcpy(p, kv->key, sizeof kv->key);
        p += kn;
        *p++ = '"';
        *p++ = ':';
        if (pretty)
            *p++ = ' ';
        if (kv->v == 0) /* the 0s of iodepth and latency lists: no call (-0 prints 0 too) */
            *p++ = '0';
        else
            p += num_fmt(o, p, kv->v);
    }
    *first = f;
    *at = i;
    return p;
}

/* fio prints the same "IO depths", "submit" and "complete" lists for most jobs: the
 * compact text of the last one of each ('{' to '}') is kept with its items, a pure
 * function of them and of html_safe, and copied when the next list is the same. */
enum { KV_MEMO_ITEMS = 16, KV_MEMO_TEXT = 512 };
typedef struct kv_memo {
    size_t n; /* items; 0: none kept */
    size_t len;
    bool html_safe;
    fsc_kv items[KV_MEMO_ITEMS];
    char text[KV_MEMO_TEXT];
} kv_memo;

static bool kv_memo_fits(const kv_memo *m, const jo *o, const fsc_kvlist *l)
{
    return m->n == l->n && m->html_safe == o->html_safe && memcmp(m->items, l->items, l->n * sizeof *l->items) == 0;
}

/* A kvlist member; m: its memo (NULL: none), used in compact output only. */
static void write_kvlist(jo *o, bool *first, const frag *name, const fsc_kvlist *l, kv_memo *m)
{
    if (!l->n)
        return;
    if (o->pretty || l->n > KV_MEMO_ITEMS)
        m = NULL;
    bool same = m && kv_memo_fits(m, o, l);
    char *p = room_item(o, name->n, 1 + (same ? m->len : 0));
    if (!p)
        return;
    p = put_frag(o, sep(o, p, first), name);
    if (same) {
        memcpy(p, m->text, m->len);
        commit(o, p + m->len);
        return;
    }
    size_t from = (size_t)(p - o->b->data);
    *p++ = '{';
    commit(o, p);
    o->depth++;
    bool f = true;
    for (size_t i = 0;;) {
        if (!(p = kv_room(o, l, i)))
            return;
        p = o->pretty ? kv_out(o, p, &f, l, &i, true) : kv_out(o, p, &f, l, &i, false);
        commit(o, p);
        if (i == l->n)
            break;
        const char *k = l->items[i].key; /* one to escape: as any key */
        key_short(o, &f, k, strnlen(k, sizeof l->items[i].key));
        put_num(o, l->items[i].v);
        i++;
    }
    close_(o, f, '}');
    if (m && !o->b->oom && (size_t)(o->p - o->b->data) - from <= KV_MEMO_TEXT) {
        m->len = (size_t)(o->p - o->b->data) - from;
        memcpy(m->text, o->b->data + from, m->len);
        memcpy(m->items, l->items, l->n * sizeof *l->items);
        m->n = l->n;
        m->html_safe = o->html_safe;
    }
}

/* Whether a latency has anything to write: a field of fsc_lat_fields (min max mean
 * stddev N: all of its members), a percentile or a bin. Named, not walked through
 * the table: 15 latencies a job, most of them empty. */
static bool lat_present(const fsc_lat *l)
{
    return (l->min.set | l->max.set | l->mean.set | l->stddev.set | l->N.set) || l->n_percentile || l->n_bins;
}

/* Percentile keys repeat in every job ("99.990000"): the fragments ("\"99.990000\":")
 * of the last ones are kept. Any pct_key of 0 <= pct < 1e9 fits (at most 16 bytes). */
typedef struct pct_memo {
    char s[32]; /* first: copied whole */
    double pct;
    uint8_t n;
} pct_memo;
enum { PCT_MEMOS = 256 }; /* 32 held 1 in 3 misses: 2 keys a slot */

/* What the writer keeps from run to run, one per thread: the texts of recent
 * numbers (fsc_num_fmt_memo), of the last lists of each kind (kv_memo), of the
 * percentile keys seen (pct_memo) and the slot of each position's last one. Reached
 * once a run (jo_start), not at each use. */
struct memos {
    fsc_num_memo nums[FSC_NUM_MEMO_SLOTS];
    kv_memo kv[3];
    pct_memo pct[PCT_MEMOS];
    const pct_memo *pct_at[64];
};

static inline size_t num_fmt(const jo *o, char *p, double v)
{
    return fsc_num_fmt_memo(p, v, o->m->nums);
}

/* The fragment of pct's key, or NULL when pct is out of pct_key's range. */
static const pct_memo *pct_frag(memos *ms, double pct)
{
    if (!(pct >= 0 && pct < 1e9))
        return NULL;
    uint64_t bits;
    memcpy(&bits, &pct, sizeof bits);
    pct_memo *m = &ms->pct[(bits * 0x9E3779B97F4A7C15ULL) >> 56]; /* Fibonacci hashing */
    if (!m->n || m->pct != pct) {
        char key[48];
        size_t n = pct_key(key, pct);
        m->s[0] = '"';
        memcpy(m->s + 1, key, n);
        m->s[n + 1] = '"';
        m->s[n + 2] = ':';
        m->n = (uint8_t)(n + 3);
        m->pct = pct;
    }
    return m;
}

/* pct_frag of the i-th percentile of a list: the lists repeat too (every job, every
 * latency), so the slot found for position i is tried first (one comparison). */
static inline const pct_memo *pct_frag_at(memos *ms, size_t i, double pct)
{
    const pct_memo *m = i < FSC_ARRAY_SIZE(ms->pct_at) ? ms->pct_at[i] : NULL;
    if (m && m->pct == pct)
        return m;
    m = pct_frag(ms, pct);
    if (i < FSC_ARRAY_SIZE(ms->pct_at))
        ms->pct_at[i] = m;
    return m;
}

/* Room for one percentile member: separator, key fragment, number. */
#define PCT_EACH(o) (48 + 6 + FSC_NUM_MAX + (size_t)(o)->depth * 2)

/* The percentile members of l from item i on into room made for them (PCT_EACH
 * each); pretty is a constant where inlined. Stops before a percentile out of
 * pct_key's range: returns the end of what it wrote, *at the item it stopped at
 * (n_percentile when done). */
static inline __attribute__((always_inline)) char *pct_out(const jo *o, char *p, bool *first, const fsc_lat *l,
                                                            size_t *at, bool pretty)
{
    bool f = *first;
    size_t i = *at, n = l->n_percentile;
    const fsc_pctl *pc = l->percentile;
    for (; i < n; i++) {
        const pct_memo *m = pct_frag_at(o->m, i, pc[i].pct);
        if (!m)
            break;
        p = sep_as(o, p, &f, pretty);
        memcpy(p, m->s, sizeof m->s);
        p += m->n;
        if (pretty)
            *p++ = ' ';
        p += num_fmt(o, p, pc[i].ns);
    }
    *first = f;
    *at = i;
    return p;
}

static inline __attribute__((always_inline)) void write_lat(jo *o, bool *first, const frag *name, const fsc_lat *l)
{
    if (!lat_present(l))
        return;
    if (!key_open(o, first, name->s, name->n, '{'))
        return;
    bool f = true;
    write_fields(o, &f, l, fsc_lat_fields, fsc_n_lat_fields, frags_at(FT_LAT, 0));
    if (l->n_percentile) {
        if (!KEY_OPEN(o, &f, "percentile", '{'))
            return;
        bool pf = true;
        for (size_t i = 0;;) {
            char *p = room(o, (l->n_percentile - i) * PCT_EACH(o));
            if (!p)
                return;
            p = o->pretty ? pct_out(o, p, &pf, l, &i, true) : pct_out(o, p, &pf, l, &i, false);
            commit(o, p);
            if (i == l->n_percentile)
                break;
            /* "%f" of a value out of range ("-1.000000", "nan"), cut to 47 bytes */
            char key[48];
            fsc_pct_key(key, sizeof key, l->percentile[i].pct);
            key_short(o, &pf, key, strlen(key));
            put_num(o, l->percentile[i].ns);
            i++;
        }
        close_(o, pf, '}');
    }
    if (l->n_bins) {
        if (!KEY_OPEN(o, &f, "bins", '{'))
            return;
        bool bf = true;
        /* "ns": count, both numbers (no escaping), in one reservation */
        char *p = room(o, l->n_bins * (2 + (size_t)o->depth * 2 + 4 + 2 * FSC_NUM_MAX));
        if (!p)
            return;
        for (size_t i = 0; i < l->n_bins; i++) {
            p = sep(o, p, &bf);
            *p++ = '"';
            p += num_fmt(o, p, l->bins[i].ns);
            *p++ = '"';
            *p++ = ':';
            if (o->pretty)
                *p++ = ' ';
            p += num_fmt(o, p, l->bins[i].count);
        }
        commit(o, p);
        close_(o, bf, '}');
    }
    close_(o, f, '}');
}

/* fsc_ddir_name and fsc_latkind_name as fragments */
static const frag dir_frags[FSC_DIR_COUNT] = {FRAG("read"), FRAG("write"), FRAG("trim"), FRAG("sync"),
                                              FRAG("mixed")};
static const frag lat_frags[FSC_LAT_COUNT] = {FRAG("slat_ns"), FRAG("clat_ns"), FRAG("lat_ns")};

/* A direction's latencies by priority, as the fio that printed them names them: fio
 * 3.18-3.29's "clat_high_prio" and "clat_low_prio" objects (lat_* for total
 * latencies), 3.30+'s "prios" array. */
__attribute__((noinline, cold)) static void write_prios(jo *o, bool *first, const fsc_dir *d)
{
    /* fsc_prio_highlow_name as fragments */
    static const frag highlow[2][2] = {{FRAG("clat_low_prio"), FRAG("clat_high_prio")},
                                       {FRAG("lat_low_prio"), FRAG("lat_high_prio")}};
    bool any_class = false;
    for (size_t i = 0; i < d->n_prios; i++) {
        const fsc_prio *p = &d->prios[i];
        if (p->high < 0)
            any_class = true;
        else
            write_lat(o, first, &highlow[p->kind == FSC_LAT_LAT][p->high != 0], &p->lat);
    }
    if (!any_class || !KEY_OPEN(o, first, "prios", '['))
        return;
    bool af = true;
    for (size_t i = 0; i < d->n_prios; i++) {
        const fsc_prio *p = &d->prios[i];
        if (p->high >= 0)
            continue;
        element(o, &af);
        open_(o, '{');
        bool f = true;
        if (p->prioclass >= 0)
            key_numl(o, &f, KEYLIT("prioclass"), p->prioclass);
        if (p->prio >= 0)
            key_numl(o, &f, KEYLIT("prio"), p->prio);
        if (p->priohint >= 0)
            key_numl(o, &f, KEYLIT("priohint"), p->priohint);
        write_lat(o, &f, &lat_frags[p->kind], &p->lat);
        close_(o, f, '}');
    }
    close_(o, af, ']');
}

static void write_dir(jo *o, bool *first, const frag *name, const fsc_dir *d)
{
    if (!key_open(o, first, name->s, name->n, '{'))
        return;
    bool f = true;
    write_fields(o, &f, d, fsc_dir_fields, fsc_n_dir_fields, frags_at(FT_DIR, 0));
    for (int k = 0; k < FSC_LAT_COUNT; k++)
        write_lat(o, &f, &lat_frags[k], &d->lat[k]);
    if (d->n_prios)
        write_prios(o, &f, d);
    close_(o, f, '}');
}

/* Members written with fsc_jw amid the direct ones (steady state, series): w takes
 * the writer's place (text, depth, first flag), then gives it back; jw_enter returns
 * w's own depth for jw_leave, which returns the first flag. */
static int jw_enter(jo *o, bool first)
{
    jo_store(o);
    int d = o->w->depth;
    o->w->depth = o->depth;
    o->w->first[o->depth] = first;
    o->w->after_key = false;
    return d;
}

static bool jw_leave(jo *o, int d)
{
    bool first = o->w->first[o->depth];
    o->w->depth = d;
    jo_load(o);
    return first;
}

/* The members of a job object; returns whether none was written (never: the name). */
static bool write_job(jo *o, const fsc_job *job)
{
    static const frag lists[] = {FRAG("iodepth_level"), FRAG("iodepth_submit"), FRAG("iodepth_complete"),
                                 FRAG("latency_ns"),    FRAG("latency_us"),     FRAG("latency_ms")};
    bool f = true;
    key_strl(o, &f, KEYLIT("jobname"), job->jobname ? job->jobname : "");
    if (job->hostname)
        key_strl(o, &f, KEYLIT("hostname"), job->hostname);
    if (job->description)
        key_strl(o, &f, KEYLIT("desc"), job->description);
    if (job->error_text)
        key_strl(o, &f, KEYLIT("error_text"), job->error_text);
    write_fields(o, &f, job, fsc_job_fields, 5, frags_at(FT_JOB, 0)); /* groupid error pid jobs job_runtime */
    if (job->n_options && KEY_OPEN(o, &f, "job options", '{')) {
        bool of = true;
        for (size_t i = 0; i < job->n_options; i++)
            key_str(o, &of, job->options[i].key, job->options[i].val);
        close_(o, of, '}');
    }
    for (int d = 0; d < FSC_DIR_COUNT; d++)
        if (job->dir[d].present)
            write_dir(o, &f, &dir_frags[d], &job->dir[d]);
    write_fields(o, &f, job, fsc_job_fields + 5, fsc_n_job_fields - 5, frags_at(FT_JOB, 5));
    write_kvlist(o, &f, &lists[0], &job->iodepth_level, &o->m->kv[0]);
    write_kvlist(o, &f, &lists[1], &job->iodepth_submit, &o->m->kv[1]);
    write_kvlist(o, &f, &lists[2], &job->iodepth_complete, &o->m->kv[2]);
    for (int b = 0; b < FSC_BUCKET_COUNT; b++)
        write_kvlist(o, &f, &lists[3 + b], &job->latency[b], NULL);
    if (job->steadystate.present) {
        int d = jw_enter(o, f);
        fsc_model_write_steadystate(o->w, &job->steadystate);
        f = jw_leave(o, d);
    }
    return f;
}

/* Start the direct writer inside the object fsc_jw_obj just opened (jo_store ends
 * it). */
static void jo_start(jo *o, fsc_jw *w)
{
    static _Thread_local memos thread_memos;
    pthread_once(&frag_once, frags_init);
    o->w = w;
    o->b = w->out;
    o->pretty = w->pretty;
    o->html_safe = w->html_safe;
    o->depth = w->depth;
    o->m = &thread_memos;
    jo_load(o);
}

void fsc_model_write_job(fsc_jw *w, const fsc_job *job)
{
    fsc_jw_obj(w);
    jo o;
    jo_start(&o, w);
    w->first[w->depth] = write_job(&o, job); /* for fsc_jw_obj_end */
    jo_store(&o);
    fsc_jw_obj_end(w);
}

static void write_group(jo *o, const fsc_group *g)
{
    open_(o, '{');
    bool f = true;
    if (g->groupid.set && KEY(o, &f, "groupid"))
        put_fnum(o, &g->groupid);
    if (g->hostname)
        key_strl(o, &f, KEYLIT("hostname"), g->hostname);
    for (int d = 0; d < FSC_DIR_COUNT; d++) {
        if (!g->dir[d].present || !key_open(o, &f, dir_frags[d].s, dir_frags[d].n, '{'))
            continue;
        bool df = true;
        write_fields(o, &df, &g->dir[d], fsc_group_dir_fields, fsc_n_group_dir_fields, frags_at(FT_GROUP_DIR, 0));
        close_(o, df, '}');
    }
    close_(o, f, '}');
}

static void write_disk(jo *o, const fsc_disk *d)
{
    open_(o, '{');
    bool f = true;
    key_strl(o, &f, KEYLIT("name"), d->name ? d->name : "");
    write_fields(o, &f, d, fsc_disk_fields, fsc_n_disk_fields, frags_at(FT_DISK, 0));
    if (d->n_members && KEY(o, &f, "members")) {
        open_(o, '[');
        bool mf = true;
        for (size_t i = 0; i < d->n_members; i++) {
            element(o, &mf);
            put_str(o, d->members[i]);
        }
        close_(o, mf, ']');
    }
    close_(o, f, '}');
}

void fsc_model_write_run(fsc_jw *w, const fsc_run *run, const fsc_json_opts *opts)
{
    fsc_jw_obj(w);
    jo o;
    jo_start(&o, w);
    bool f = true;
    key_strl(&o, &f, KEYLIT("id"), run->id ? run->id : "");
    if (KEY(&o, &f, "source")) {
        open_(&o, '{');
        bool sf = true;
        key_strl(&o, &sf, KEYLIT("path"), run->source.path ? run->source.path : "");
        key_strl(&o, &sf, KEYLIT("member"), run->source.member);
        key_numl(&o, &sf, KEYLIT("first_line"), run->source.first_line);
        key_numl(&o, &sf, KEYLIT("last_line"), run->source.last_line);
        key_strl(&o, &sf, KEYLIT("format"), fsc_format_name(run->source.format));
        if (run->source.n_formats > 1 && KEY(&o, &sf, "formats")) { /* one invocation, several formats */
            open_(&o, '[');
            bool ff = true;
            for (size_t i = 0; i < run->source.n_formats; i++) {
                element(&o, &ff);
                put_str(&o, fsc_format_name(run->source.formats[i]));
            }
            close_(&o, ff, ']');
        }
        key_strl(&o, &sf, KEYLIT("fio_version"), run->source.fio_version);
        if (run->source.host)
            key_strl(&o, &sf, KEYLIT("host"), run->source.host);
        if (run->source.time)
            key_strl(&o, &sf, KEYLIT("time"), run->source.time);
        if (run->source.timestamp.set)
            key_numl(&o, &sf, KEYLIT("timestamp"), run->source.timestamp.v);
        close_(&o, sf, '}');
    }
    key_strl(&o, &f, KEYLIT("label"), run->label ? run->label : "");
    if (KEY(&o, &f, "context")) {
        open_(&o, '[');
        bool cf = true;
        for (size_t i = 0; i < run->n_context; i++) {
            element(&o, &cf);
            put_str(&o, run->context[i]);
        }
        close_(&o, cf, ']');
    }
    if (KEY(&o, &f, "jobs")) {
        open_(&o, '[');
        bool jf = true;
        for (size_t i = 0; i < run->n_jobs; i++) {
            element(&o, &jf);
            open_(&o, '{');
            close_(&o, write_job(&o, &run->jobs[i]), '}');
        }
        close_(&o, jf, ']');
    }
    if (KEY(&o, &f, "groups")) {
        open_(&o, '[');
        bool gf = true;
        for (size_t i = 0; i < run->n_groups; i++) {
            element(&o, &gf);
            write_group(&o, &run->groups[i]);
        }
        close_(&o, gf, ']');
    }
    if (KEY(&o, &f, "disk_util")) {
        open_(&o, '[');
        bool df = true;
        for (size_t i = 0; i < run->n_disk_util; i++) {
            element(&o, &df);
            write_disk(&o, &run->disk_util[i]);
        }
        close_(&o, df, ']');
    }
    static const frag idleness = FRAG("cpu_idleness");
    write_kvlist(&o, &f, &idleness, &run->cpu_idleness, NULL);
    if (run->n_series && KEY(&o, &f, "series")) {
        open_(&o, '[');
        int d = jw_enter(&o, true);
        for (size_t i = 0; i < run->n_series; i++)
            fsc_model_write_series(o.w, run->series[i], opts);
        close_(&o, jw_leave(&o, d), ']');
    }
    if (KEY(&o, &f, "warnings")) {
        open_(&o, '[');
        bool wf = true;
        for (size_t i = 0; i < run->n_warnings; i++) {
            element(&o, &wf);
            open_(&o, '{');
            bool of = true;
            key_numl(&o, &of, KEYLIT("line"), run->warnings[i].line);
            key_strl(&o, &of, KEYLIT("message"), run->warnings[i].message);
            close_(&o, of, '}');
        }
        close_(&o, wf, ']');
    }
    if (opts && opts->damage && KEY(&o, &f, "damage")) {
        open_(&o, '{');
        bool df = true;
        key_numl(&o, &df, KEYLIT("recognized"), run->lines.recognized);
        key_numl(&o, &df, KEYLIT("noise"), run->lines.noise);
        key_numl(&o, &df, KEYLIT("unknown"), run->lines.unknown);
        key_numl(&o, &df, KEYLIT("malformed"), run->lines.malformed);
        key_numl(&o, &df, KEYLIT("repaired"), run->lines.repaired);
        if (KEY(&o, &df, "unknown_lines")) {
            open_(&o, '[');
            bool uf = true;
            for (size_t i = 0; i < run->n_unknown_lines; i++) {
                element(&o, &uf);
                put_num(&o, run->unknown_lines[i]);
            }
            close_(&o, uf, ']');
        }
        close_(&o, df, '}');
    }
    w->first[w->depth] = f;
    jo_store(&o);
    fsc_jw_obj_end(w);
}
