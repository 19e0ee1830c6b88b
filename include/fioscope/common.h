/* SPDX-License-Identifier: MIT */
/* Status codes, small helpers and the "number the text showed" type shared by every module. */
#ifndef FIOSCOPE_COMMON_H
#define FIOSCOPE_COMMON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#ifdef __cplusplus
extern "C" {
#endif

#define FSC_VERSION "0.1.0"

#define FSC_ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

#if defined(__GNUC__)
#define FSC_PRINTF(fmt, args) __attribute__((format(printf, fmt, args)))
#else
#define FSC_PRINTF(fmt, args)
#endif

#define FSC_STATUS_LIST(X)                                      \
    X(FSC_OK, "success")                                        \
    X(FSC_E_NOMEM, "out of memory")                             \
    X(FSC_E_IO, "cannot read or write a file")                  \
    X(FSC_E_GRAMMAR, "invalid grammar definition")              \
    X(FSC_E_SYNTAX, "value does not parse")                     \
    X(FSC_E_RANGE, "value out of range")                        \
    X(FSC_E_NO_RUNS, "no fio run found in input")               \
    X(FSC_E_USAGE, "invalid usage")                             \
    X(FSC_E_LIMIT, "a safety limit was reached")                \
    X(FSC_E_UNSUPPORTED, "not supported")                       \
    X(FSC_E_INTERRUPTED, "interrupted")

typedef enum fsc_status {
#define FSC_X(code, text) code,
    FSC_STATUS_LIST(FSC_X)
#undef FSC_X
    FSC_STATUS_COUNT
} fsc_status;

/* Human text for a status; never NULL, static storage. */
const char *fsc_strerror(fsc_status st);

/*
 * A number as the input stated it. `set` is false when the input did not show the
 * field: the contract says such a field is absent, never 0. Values are kept as
 * doubles in the field's base unit (bytes, bytes/s, ns, ms, %, count); integers up
 * to 2^53 are exact there. A larger integer (a wrapped 64-bit counter such as
 * ctx=18446744073709341660) is kept exactly in `u` with `exact` set, and `v` holds
 * it rounded: writers print `u` when `exact` is set, arithmetic uses `v`.
 * Code that changes `v` of a number must build a new one (fsc_num_of), so that a
 * stale `u` is never printed.
 */
typedef struct fsc_num {
    double v;
    bool set;
    bool exact;  /* u is the value, exactly (only for integers above 2^53) */
    uint64_t u;
} fsc_num;

/* 2^53: the integers from here on are not all doubles. */
#define FSC_EXACT_MIN 9007199254740992.0

static inline fsc_num fsc_num_of(double v)
{
    fsc_num n = {v, true, false, 0};
    return n;
}

/* An integer as shown: exact whatever its size. */
static inline fsc_num fsc_num_u64(uint64_t u)
{
    fsc_num n = {(double)u, true, (double)u >= FSC_EXACT_MIN, u};
    if (!n.exact)
        n.u = 0;
    return n;
}

/* Is the environment switch name on (set, not empty, not "0")? The FIOSCOPE_NO_*
 * switches that turn a fast way off (fast path, huge pages, ISA-L). */
bool fsc_env_switch(const char *name);

/* Allocation helpers: abort-free, return NULL on failure like malloc. */
char *fsc_strndup(const char *s, size_t n);
char *fsc_strdup(const char *s);

/* Two optional strings alike: both NULL, or both set and equal. */
bool fsc_str_same(const char *a, const char *b);

/* Grow *arr (element size elem) so that it holds at least need elements.
 * *cap is updated. Returns false on allocation failure (array unchanged). */
bool fsc_grow(void **arr, size_t *cap, size_t need, size_t elem);

/* The candidate closest to word by edit distance (Damerau-Levenshtein, ASCII case
 * folded), for "did you mean" hints. Returns NULL when no candidate is within
 * max_dist edits (max_dist 0 = a third of the word's length, at least 2) or word is
 * empty. Ties go to the earlier candidate. */
const char *fsc_nearest(const char *word, const char *const *cands, size_t n_cands, size_t max_dist);
/* Edit distance of a[0..na) and b[0..nb): insertions, deletions, substitutions and
 * swaps of two neighbours count one each; bytes compare as they are. 99 when a string
 * is 255 bytes or longer. */
size_t fsc_edit_distance(const char *a, size_t na, const char *b, size_t nb);

/* Append a zeroed element to arr (n elements, room for cap): a pointer to it, or NULL
 * on allocation failure (arr unchanged). Only the element handed out is cleared, so a
 * big array's spare room is never touched (no resident pages for it). */
#define FSC_PUSH(arr, n, cap) \
    (((n) < (cap) || fsc_grow((void **)&(arr), &(cap), (n) + 1, sizeof(*(arr)))) \
         ? (memset(&(arr)[(n)], 0, sizeof(*(arr))), &(arr)[(n)++])              \
         : NULL)

/*
 * The memory budget of the document being parsed on this thread. While a budget is
 * in use, the allocation helpers (fsc_strndup, fsc_grow and so FSC_PUSH, fsc_buf, the
 * key index, new runs, the JSON reader's tree) charge what they allocate to it; once
 * the budget would be exceeded they fail as if memory had run out, and `exceeded`
 * tells the caller why. Buffers and runs freed meanwhile are credited back
 * (fsc_buf_free, fsc_run_free); other frees are not, so `used` is an upper bound of
 * what the document holds.
 */
typedef struct fsc_budget {
    uint64_t limit; /* bytes; 0 = no limit */
    uint64_t used;  /* bytes charged so far (minus credits) */
    uint64_t peak;  /* the most `used` was */
    bool exceeded;
} fsc_budget;

/* Make b this thread's budget (NULL: none). Returns the one in use before. */
fsc_budget *fsc_budget_use(fsc_budget *b);
/* Charge n bytes to this thread's budget: false (exceeded set) when it would go over
 * the limit; always true without a budget. */
bool fsc_budget_charge(size_t n);
/* Give back n bytes freed while the budget is in use (buffers, runs already handed
 * on); used never drops below zero. */
void fsc_budget_credit(size_t n);
/* Is a budget in use on this thread (is it worth counting what is freed)? */
bool fsc_budget_active(void);

/* Have fn(arg) called when this thread ends (a pthread key destructor), for what a
 * module keeps per thread (the model's spare blocks, the JSON writer's memos): false
 * when that cannot be set up (no key; more than a few per thread), and the caller
 * then keeps nothing. One key serves every module; it is deleted when libfioscope is
 * unloaded while threads live, so that none is left a destructor in unmapped code
 * (what they registered is then left to the process). */
bool fsc_at_thread_end(void (*fn)(void *), void *arg);

/* The value of the hex digit c (either case), or -1: quoted-printable's "=3D",
 * an entity's "&#x27;", a string literal's "\x1b" and "\u00b5", a JSON string's
 * "\u00b5", an RFC 2231 file name's "%20". */
static inline int fsc_hex_digit(int c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

#ifdef __cplusplus
}
#endif
#endif
