/* SPDX-License-Identifier: MIT */
/* Status texts and the few allocation helpers every module uses. */
#include "fioscope/common.h"
#include "kept_strings.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

const char *fsc_strerror(fsc_status st)
{
    static const char *const text[] = {
#define FSC_X(code, txt) [code] = txt,
        FSC_STATUS_LIST(FSC_X)
#undef FSC_X
    };
    return (unsigned)st < FSC_STATUS_COUNT ? text[st] : "unknown status";
}

/* What fsc_at_thread_end was asked for on this thread, called in reverse order. */
enum { THREAD_ENDS_MAX = 8 };
typedef struct thread_ends {
    void (*fn[THREAD_ENDS_MAX])(void *);
    void *arg[THREAD_ENDS_MAX];
    size_t n;
} thread_ends;

static _Thread_local thread_ends ends;
static pthread_key_t ends_key;
static pthread_once_t ends_once = PTHREAD_ONCE_INIT;
static bool ends_key_ok;

static void run_ends(void *p)
{
    thread_ends *e = p;
    while (e->n) {
        e->n--;
        e->fn[e->n](e->arg[e->n]);
    }
}

static void ends_key_init(void)
{
    ends_key_ok = pthread_key_create(&ends_key, run_ends) == 0;
}

__attribute__((destructor)) static void ends_key_drop(void)
{
    if (ends_key_ok)
        pthread_key_delete(ends_key);
    ends_key_ok = false;
}

bool fsc_at_thread_end(void (*fn)(void *), void *arg)
{
    if (ends.n == THREAD_ENDS_MAX || pthread_once(&ends_once, ends_key_init) != 0 || !ends_key_ok)
        return false;
    if (!ends.n && pthread_setspecific(ends_key, &ends) != 0)
        return false;
    ends.fn[ends.n] = fn;
    ends.arg[ends.n++] = arg;
    return true;
}

static _Thread_local fsc_budget *cur_budget;

fsc_budget *fsc_budget_use(fsc_budget *b)
{
    fsc_budget *old = cur_budget;
    cur_budget = b;
    return old;
}

bool fsc_budget_charge(size_t n)
{
    fsc_budget *b = cur_budget;
    if (!b)
        return true;
    if (b->limit && (b->exceeded || n > b->limit - b->used)) { /* used <= limit holds */
        b->exceeded = true;
        return false;
    }
    b->used += n;
    if (b->used > b->peak)
        b->peak = b->used;
    return true;
}

void fsc_budget_credit(size_t n)
{
    fsc_budget *b = cur_budget;
    if (b)
        b->used -= n < b->used ? n : b->used;
}

bool fsc_budget_active(void)
{
    return cur_budget != NULL;
}

/*
 * Strings of runs freed on this thread (fsc_str_release: model.c's fsc_run_free),
 * by their size, for the next fsc_strndup of that size. A reader makes the same few
 * strings for every run and frees them with it (its path, label, job name, the
 * version, the date): a malloc and a free each, some 130 instructions, where a kept
 * block costs a few. A block is kept for its size as the string's end tells it
 * (strlen + 1), never more than what was allocated; KEPT_STR_EACH of each size up to
 * KEPT_STR_MAX bytes, freed when the thread ends.
 */
enum { KEPT_STR_MAX = 64, KEPT_STR_EACH = 4 };
typedef struct kept_strs {
    char *block[KEPT_STR_MAX][KEPT_STR_EACH]; /* [size - 1] */
    unsigned char n[KEPT_STR_MAX];
    bool registered; /* fsc_at_thread_end holds them: freed at the thread's end */
} kept_strs;

static _Thread_local kept_strs kept;

static void kept_strs_free(void *p)
{
    kept_strs *k = p;
    for (size_t i = 0; i < KEPT_STR_MAX; i++)
        while (k->n[i])
            free(k->block[i][--k->n[i]]);
    k->registered = false;
}

static __attribute__((noinline)) bool kept_strs_register(void)
{
    return (kept.registered = fsc_at_thread_end(kept_strs_free, &kept));
}

/* fsc_str_release's way when the block is not simply kept: registered first, or freed */
static __attribute__((noinline, cold)) void str_release_slow(char *s, size_t i)
{
    if (i < KEPT_STR_MAX && kept.n[i] < KEPT_STR_EACH && !kept.registered && kept_strs_register())
        kept.block[i][kept.n[i]++] = s;
    else
        free(s);
}

void fsc_str_release(char *s, size_t size)
{
    size_t i = size - 1;
    if (i < KEPT_STR_MAX && kept.n[i] < KEPT_STR_EACH && kept.registered) {
        kept.block[i][kept.n[i]++] = s;
        return;
    }
    str_release_slow(s, i);
}

char *fsc_strndup(const char *s, size_t n)
{
    if (!fsc_budget_charge(n + 1))
        return NULL;
    char *d = n < KEPT_STR_MAX && kept.n[n] ? kept.block[n][--kept.n[n]] : malloc(n + 1);
    if (!d)
        return NULL;
    if (n)
        memcpy(d, s, n);
    d[n] = '\0';
    return d;
}

bool fsc_env_switch(const char *name)
{
    const char *e = getenv(name);
    return e && *e && strcmp(e, "0") != 0;
}

char *fsc_strdup(const char *s)
{
    return s ? fsc_strndup(s, strlen(s)) : NULL;
}

bool fsc_str_same(const char *a, const char *b)
{
    return (!a && !b) || (a && b && !strcmp(a, b));
}

bool fsc_grow(void **arr, size_t *cap, size_t need, size_t elem)
{
    if (need <= *cap)
        return true;
    size_t ncap = *cap ? *cap : elem >= 512 ? 1 : 4; /* big elements (jobs): rarely many */
    while (ncap < need) {
        if (ncap > SIZE_MAX / 2 / elem)
            return false;
        ncap *= 2;
    }
    if (!fsc_budget_charge((ncap - *cap) * elem))
        return false;
    void *p = realloc(*arr, ncap * elem);
    if (!p)
        return false;
    *arr = p;
    *cap = ncap;
    return true;
}

