/* SPDX-License-Identifier: MIT */
/*
 * Prefixes in front of fio's lines: a log's stamp and level ("12:10:43 DEBUG| [stdout] "),
 * a CI step, a pod or host name, comment marks ("# ", "// ", "-- ", "; ", "REM ", "* "),
 * quote marks, grep's file names ("4k-qd1.log:  read: IOPS=...").
 *
 * No list of known shapes: the prefix is learned per block from the lines that carry an
 * unmistakable fio keyword after some other text ("read: IOPS=", "clat (usec): min=",
 * "Run status group 0 (all jobs):", a percentile row, a terse record, "fio version").
 * The text before the keyword, without fio's own indentation, becomes a template in
 * which a run of digits, a run of spaces and a log's severity are classes (a stamp
 * changes, its shape does not; a program logs at more than one level). Consecutive
 * keyword lines with one template form a block; the template is removed from every
 * line of the block that fits it, and from the lines around it that fit it too (the
 * job header, a blank "# " line, the echoed command). A quote mark or comma the lines
 * all end with is removed with it.
 *
 * A line that begins with fio's own words (most lines of most documents) costs a look
 * at its first word; the others a look at their colons. Clean logs never get here:
 * the pre-scan (prescan.c) reads them without normalizing.
 */
#define _GNU_SOURCE /* memrchr */
#include "fastline.h"
#include "parse_int.h"
#include "prefix.h"

#include <ctype.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

enum { TEMPLATE_MAX = 120 }; /* longer "prefixes" are prose, not a prefix */

static bool starts(const char *s, size_t n, const char *lit)
{
    size_t k = strlen(lit);
    return n >= k && memcmp(s, lit, k) == 0;
}

/* A space, or a tab: normalizing makes one space of each tab, and the cutter of huge
 * texts (fsc_line_host, fsc_hosts_cut_ok) reads the text before that; a normalized
 * text has none. */
static inline bool blank(char c)
{
    return c == ' ' || c == '\t';
}

static size_t skip_sp(const char *s, size_t n, size_t i)
{
    while (i < n && blank(s[i]))
        i++;
    return i;
}

/* ---- unmistakable fio keywords ---- */

/* Labels that end right before a colon (fio pads some with spaces), and what must
 * follow the colon. */
typedef struct label {
    const char *text, *after;
    size_t len;
} label;
#define LABEL(t, a) {t, a, sizeof t - 1}

/* Grouped by the byte they end with: a colon is tried only against the labels that
 * end with the byte before it (label_group). */
static const label labels[] = {
    /* 'd' */ LABEL("read", "IOPS="), LABEL("read", "io="), LABEL("mixed", "IOPS="), LABEL("mixed", "io="),
    LABEL("issued", "total="),
    /* 'e' */ LABEL("write", "IOPS="), LABEL("write", "io="), LABEL("complete", "0="),
    LABEL("fsync/fdatasync/sync_file_range", ""),
    /* 'm' */ LABEL("trim", "IOPS="), LABEL("trim", "io="),
    /* 'D' */ LABEL("READ", "bw="), LABEL("READ", "io="), LABEL("MIXED", "bw="), LABEL("MIXED", "io="),
    /* 'E' */ LABEL("WRITE", "bw="), LABEL("WRITE", "io="),
    /* 'M' */ LABEL("TRIM", "bw="), LABEL("TRIM", "io="),
    /* 's' */ LABEL("iops", "min="), LABEL("IO depths", ""), LABEL("issued rwts", "total="),
    LABEL("fsync/fdatasync/sync_file_range/syncfs", ""), LABEL("errors", "total="),
    /* 'u' */ LABEL("cpu", "usr="),
    /* 't' */ LABEL("submit", "0="), LABEL("issued rwt", "total="),
    /* 'y' */ LABEL("latency", "target="),
    /* ')' */ LABEL("Disk stats (read/write)", ""),
};

/* The labels ending with byte c: labels[*first .. *first + return value). */
static size_t label_group(unsigned char c, size_t *first)
{
    static const struct { unsigned char c, first, n; } groups[] = {
        {'d', 0, 5}, {'e', 5, 4}, {'m', 9, 2}, {'D', 11, 4}, {'E', 15, 2}, {'M', 17, 2},
        {'s', 19, 5}, {'u', 24, 1}, {'t', 25, 2}, {'y', 27, 1}, {')', 28, 1},
    };
    for (size_t i = 0; i < sizeof groups / sizeof *groups; i++)
        if (groups[i].c == c) {
            *first = groups[i].first;
            return groups[i].n;
        }
    return 0;
}

/* The bytes a label (or a parenthesised one, or JSON's key) can end with: most colons
 * (clocks, "err= 0:", prose) are passed over on this one test. */
static bool label_end(unsigned char c)
{
    switch (c) {
    case 'd': case 'e': case 'm': case 'D': case 'E': case 'M': case 's': case 'u': case 't':
    case 'y': case ')': case '"':
        return true;
    default:
        return false;
    }
}

/* "clat (usec)", "lat (nsec)", "slat (msec)", "sync (usec)", "clat percentiles (usec)",
 * "bw (  KiB/s)", "Run status group 0 (all jobs)" ending at s[e]: its start, or -1. */
static long paren_label(const char *s, size_t e)
{
    if (e < 6 || s[e - 1] != ')')
        return -1;
    /* the last '(' of the 24 bytes before e (or fewer, from the line's start) */
    size_t lo = e >= 24 ? e - 24 : 0;
    const char *op = memrchr(s + lo, '(', e - lo);
    if (!op || op - s < 3)
        return -1;
    size_t open = (size_t)(op - s);
    size_t in = open + 1, inlen = e - 1 - in;
    size_t w = open;
    while (w > 0 && s[w - 1] == ' ')
        w--;
    bool unit = inlen == 4 && !memcmp(s + in + 1, "sec", 3) && strchr("num", s[in]);
    /* the longer first: "slat percentiles", not the "lat percentiles" in it */
    static const char *const lat_words[] = {"clat percentiles", "slat percentiles", "sync percentiles",
                                            "lat percentiles", "clat", "slat", "sync", "lat"};
    for (size_t i = 0; unit && i < sizeof lat_words / sizeof *lat_words; i++) {
        size_t k = strlen(lat_words[i]);
        if (w >= k && !memcmp(s + w - k, lat_words[i], k))
            return (long)(w - k);
    }
    if (w >= 2 && !memcmp(s + w - 2, "bw", 2) && inlen >= 3 && !memcmp(s + e - 3, "/s)", 3))
        return (long)(w - 2);
    if (inlen == 8 && !memcmp(s + in, "all jobs", 8)) {
        size_t d = w;
        while (d > 0 && isdigit((unsigned char)s[d - 1]))
            d--;
        if (d < w && d >= 17 && !memcmp(s + d - 17, "Run status group ", 17))
            return (long)(d - 17);
    }
    return -1;
}

static bool boundary(const char *s, size_t p)
{
    return p == 0 || !(isalnum((unsigned char)s[p - 1]) || s[p - 1] == '_');
}

/* The label ending at s[e] before a colon (fio pads some), with the right text at
 * s[a] after the colon: its start, or -1. */
static long label_before_as(const char *s, size_t n, size_t e, size_t a, bool glued)
{
    char last = s[e - 1];
    if (last == '"')
        return e >= 13 && !memcmp(s + e - 13, "\"fio version\"", 13) ? (long)(e - 13) : -1;
    if (last == ')') {
        long p = paren_label(s, e);
        if (p >= 0 && (glued || boundary(s, (size_t)p)))
            return p;
    }
    size_t first = 0, n_group = label_group((unsigned char)last, &first);
    for (size_t i = first; i < first + n_group; i++) {
        size_t k = labels[i].len;
        if (e >= k && s[e - k] == labels[i].text[0] && !memcmp(s + e - k, labels[i].text, k) &&
            (glued || boundary(s, e - k)) && starts(s + a, n - a, labels[i].after))
            return (long)(e - k);
    }
    return -1;
}

static long label_before(const char *s, size_t n, size_t e, size_t a)
{
    return label_before_as(s, n, e, a, false);
}

/* Does a percentile row's item begin after the '|' at s[bar]: " 1.00th=[", "99.95th=["? */
static bool pctl_row_at(const char *s, size_t n, size_t bar)
{
    size_t k = skip_sp(s, n, bar + 1), d = k;
    while (d < n && (isdigit((unsigned char)s[d]) || s[d] == '.'))
        d++;
    return d > k && starts(s + d, n - d, "th=[");
}

/* fio 3.18-3.29's "high prio (29.68%) clat percentiles (usec):": where the label
 * found at s[p] ("clat percentiles") is a priority's, the line's keyword begins at
 * its "high" or "low", which is no prefix to take off. Returns that start, or p. */
static long prio_head(const char *s, long p)
{
    long q = p - 1;
    if (q < 0 || s[q] != ' ' || --q < 0 || s[q] != ')' || --q < 0 || s[q] != '%')
        return p;
    while (q > 0 && (isdigit((unsigned char)s[q - 1]) || s[q - 1] == '.'))
        q--;
    if (q < 7 || s[q - 1] != '(' || memcmp(s + q - 7, " prio (", 7))
        return p;
    q -= 7;
    for (long k = 4; k >= 3; k--) /* "high", "low" */
        if (q >= k && !memcmp(s + q - k, k == 4 ? "high" : "low", (size_t)k) && boundary(s, (size_t)(q - k)))
            return q - k;
    return p;
}

long fsc_fio_keyword_at(const char *s, size_t n)
{
    /* the leftmost keyword: a label before a colon (most lines), then, before it, a
     * percentile row or a terse record */
    long best = -1;
    for (const char *c = memchr(s, ':', n); c && best < 0; c = memchr(c + 1, ':', n - (size_t)(c + 1 - s))) {
        size_t col = (size_t)(c - s), e = col;
        while (e > 0 && s[e - 1] == ' ')
            e--;
        if (e && label_end((unsigned char)s[e - 1]))
            best = label_before(s, n, e, skip_sp(s, n, col + 1));
    }
    if (best > 0)
        best = prio_head(s, best);
    size_t lim = best < 0 ? n : (size_t)best;
    for (const char *bar = memchr(s, '|', lim); bar; bar = memchr(bar + 1, '|', lim - (size_t)(bar + 1 - s))) {
        if (pctl_row_at(s, n, (size_t)(bar - s))) {
            best = bar - s;
            lim = (size_t)best;
            break;
        }
    }
    for (const char *semi = memchr(s, ';', lim); semi; semi = memchr(semi + 1, ';', lim - (size_t)(semi + 1 - s))) {
        size_t p = (size_t)(semi - s);
        if (p >= 1 && s[p - 1] >= '2' && s[p - 1] <= '5' && boundary(s, p - 1) && starts(s + p, n - p, ";fio-"))
            return (long)(p - 1);
    }
    return best;
}

/* Does s[from, w) end with the word's bytes? */
static bool ends_word(const char *s, size_t from, size_t w, const char *word)
{
    size_t k = strlen(word);
    return w >= from + k && !memcmp(s + w - k, word, k);
}

/* Where a name-led line of fio's ("vda: ios=", "job: (groupid=", "job: (g=") whose
 * colon is at s[c] begins, when its name begins at or after from and a byte that ends
 * a line of fio's, or a space, stands before it (after "%", ")", "]", ":"; not after
 * "=" or a digit, where the name's first byte cannot be told from a value's last:
 * "d=0randwrite: (groupid="; after a space only where a line of fio's ends: a value,
 * a unit, not a word); -1 otherwise. */
static long named_line_at(const char *s, size_t n, size_t c, size_t from)
{
    if (!(starts(s + c, n - c, ": ios=") || starts(s + c, n - c, ": (groupid=") || starts(s + c, n - c, ": (g=")))
        return -1;
    size_t b = c;
    while (b > from && fsc_name_byte(s[b - 1]))
        b--;
    if (b >= 4 && c - b == 7 && !memcmp(s + b - 4, "All clients", 11))
        b -= 4; /* fio --client's sum of all clients: a name with a space */
    if (b == c || b <= from)
        return -1;
    if (s[b - 1] == '=' && starts(s + c, n - c, ": (groupid=")) {
        /* a value's digits, a job's name glued to them ("depth=1full1: (groupid=",
         * "short=r=0/w=0/d=0randwrite: (groupid="): the name may begin at its first
         * letter, or at a digit before ("4k-read"): the caller asks the names defined */
        size_t d = b;
        while (d < c && isdigit((unsigned char)s[d]))
            d++;
        return d > b && d < c && isalpha((unsigned char)s[d]) ? (long)d : -1;
    }
    /* "All clients" may follow a value's digit: no name of a value's bytes */
    bool all = c - b == 11 && isdigit((unsigned char)s[b - 1]);
    if ((!s[b - 1] || !strchr(" %)]:", s[b - 1])) && !all)
        return -1;
    if (s[b - 1] == ' ') {
        /* after spaces, what ends a line of fio's: a value, a unit, a bracket; not a
         * word of a name with spaces in it ("job 1 with spaces: (groupid=") */
        size_t w = b;
        while (w > from && s[w - 1] == ' ')
            w--;
        if (w > from && isalpha((unsigned char)s[w - 1]) && !ends_word(s, from, w, "sec") &&
            !ends_word(s, from, w, "resets"))
            return -1;
    }
    return (long)b;
}

bool fsc_inside_parens(const char *s, size_t at)
{
    const char *open = at ? memrchr(s, '(', at) : NULL, *close = open ? memrchr(s, ')', at) : NULL;
    return open && (!close || close < open);
}

long fsc_fio_line_within(const char *s, size_t n, size_t from)
{
    long best = -1;
    for (const char *c = from < n ? memchr(s + from, ':', n - from) : NULL; c && best < 0;
         c = memchr(c + 1, ':', n - (size_t)(c + 1 - s))) {
        size_t col = (size_t)(c - s), e = col;
        while (e > from && s[e - 1] == ' ')
            e--;
        long p = e > from && label_end((unsigned char)s[e - 1])
                     ? label_before_as(s, n, e, skip_sp(s, n, col + 1), true)
                     : -1;
        if (p >= (long)from)
            p = prio_head(s, p); /* "high prio (29.68%) clat percentiles" begins at "high" */
        if (p < (long)from)
            p = named_line_at(s, n, col, from);
        if (p < (long)from && e >= from + 11 && !memcmp(s + e - 11, "Description", 11) &&
            skip_sp(s, n, col + 1) < n && s[skip_sp(s, n, col + 1)] == '[')
            p = (long)(e - 11); /* a job's description: "  Description  : [...]" */
        if (p >= (long)from && !fsc_inside_parens(s, (size_t)p))
            best = p;
    }
    size_t lim = best < 0 ? n : (size_t)best;
    for (const char *bar = from < lim ? memchr(s + from, '|', lim - from) : NULL; bar;
         bar = memchr(bar + 1, '|', lim - (size_t)(bar + 1 - s)))
        if (pctl_row_at(s, n, (size_t)(bar - s)) && !fsc_inside_parens(s, (size_t)(bar - s)))
            return bar - s;
    return best;
}

#if defined(__x86_64__) && defined(__GNUC__)
__attribute__((target("avx2"))) bool fsc_fio_keyword_maybe_wide(const char *s, size_t n)
{
    return fsc_keyword_maybe_avx2(s, n);
}
#endif

bool fsc_fio_keyword_maybe(const char *s, size_t n, size_t avail)
{
#if defined(__x86_64__) && defined(__GNUC__)
    if (avail - n >= 32 && __builtin_cpu_supports("avx2"))
        return fsc_fio_keyword_maybe_wide(s, n);
#endif
    for (size_t i = 0; i < n; i += 16) {
        uint32_t m = 0; /* bit k: a colon at s[i + k]; bit 16 + k: a '|' or ';' */
#if defined(__SSE2__)
        if (avail - i >= 16) {
            __m128i x = _mm_loadu_si128((const __m128i *)(const void *)(s + i));
            m = (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(x, _mm_set1_epi8(':'))) |
                (uint32_t)_mm_movemask_epi8(_mm_or_si128(_mm_cmpeq_epi8(x, _mm_set1_epi8('|')),
                                                         _mm_cmpeq_epi8(x, _mm_set1_epi8(';'))))
                    << 16;
        } else
#endif
        {
            for (size_t k = 0; k < 16 && i + k < n; k++)
                m |= (uint32_t)(s[i + k] == ':') << k | (uint32_t)(s[i + k] == '|' || s[i + k] == ';') << (16 + k);
        }
        if (n - i < 16) /* the bytes past the line are not its own */
            m &= ((1u << (n - i)) - 1) * 0x10001u;
        if (m >> 16) /* a percentile row or a terse record: fsc_fio_keyword_at decides */
            return true;
        for (; m; m &= m - 1)
            if (fsc_colon_maybe(s, n, i + (size_t)__builtin_ctz(m)))
                return true;
    }
    return false;
}

/* ---- templates: digits and spaces as classes ---- */

/* other bytes stand for themselves; T_NUMSEP: the ':' or '-' around grep -n's line
 * number (it marks its matching lines "12:" or "a.log:12:", the lines around them
 * "13-" or "a.log-13-"); T_LEVEL: a log's severity (level_at) */
enum { T_DIGITS = 1, T_SPACES = 2, T_NUMSEP = 3, T_LEVEL = 4 };

/* A logger writes each line's severity into its stamp, and a program's lines come at
 * more than one ("INFO |" and "DEBUG|" of autotest, which cuts "WARNING" to "WARNI",
 * log4j's "INFO " and "WARN ", "[info]", glog's "I1201 " and "W1201 "): one word of a
 * template stands for any of them, so that a line at another level is no line without
 * the block's prefix (its values lost, a job named "WARN [main] - seqread"). The
 * length of the severity word at s[i, n), with the spaces that pad it when pad, or 0;
 * i is a word's start. glog's letter only before the month and day and a space (glog:
 * not asked where the name of a host or file is looked at). */
static size_t level_at(const char *s, size_t n, size_t i, bool pad, bool glog)
{
    static const char *const levels[] = {"TRACE", "DEBUG",   "DBG",   "FINE",  "FINER", "FINEST", "CONFIG",
                                         "INFO",  "INF",     "NOTICE", "WARN",  "WARNI", "WARNING", "WRN",
                                         "ERROR", "ERR",     "SEVERE", "CRIT",  "CRITI", "CRITICAL", "ALERT",
                                         "FATAL", "EMERG",   "PANIC"};
    size_t j = i;
    while (j < n && isalpha((unsigned char)s[j]))
        j++;
    if (glog && j == i + 1 && strchr("DIWEF", s[i]) && n - i > 5 && isdigit((unsigned char)s[i + 1]) &&
        isdigit((unsigned char)s[i + 2]) && isdigit((unsigned char)s[i + 3]) && isdigit((unsigned char)s[i + 4]) &&
        s[i + 5] == ' ')
        return 1;
    /* the names are of 3 to 8 letters: other words are none, without asking each
     * (a text of short lines asked 24 names of every "a" before a tab, 700
     * instructions a line) */
    if (j - i < 3 || j - i > 8 || (j < n && isalnum((unsigned char)s[j])))
        return 0;
    bool known = false;
    for (size_t k = 0; k < FSC_ARRAY_SIZE(levels) && !known; k++)
        known = strlen(levels[k]) == j - i && !strncasecmp(levels[k], s + i, j - i);
    if (!known)
        return 0;
    while (pad && j < n && s[j] == ' ')
        j++;
    return j - i;
}

typedef struct tmpl {
    unsigned char tok[TEMPLATE_MAX];
    size_t n;
} tmpl;

static bool tmpl_make(const char *s, size_t n, tmpl *t)
{
    t->n = 0;
    for (size_t i = 0; i < n;) {
        unsigned char c = (unsigned char)s[i];
        if (t->n == TEMPLATE_MAX)
            return false;
        size_t lv = isalpha(c) && (i == 0 || !isalnum((unsigned char)s[i - 1])) ? level_at(s, n, i, true, true) : 0;
        if (lv) { /* its padding too: "INFO |" and "DEBUG|" are one shape */
            i += lv;
            t->tok[t->n++] = T_LEVEL;
        } else if (isdigit(c)) {
            while (i < n && isdigit((unsigned char)s[i]))
                i++;
            t->tok[t->n++] = T_DIGITS;
        } else if (c == ' ') {
            while (i < n && s[i] == ' ')
                i++;
            t->tok[t->n++] = T_SPACES;
        } else {
            t->tok[t->n++] = c;
            i++;
        }
    }
    /* grep -n's line number at the end, alone or after a file's name ("12:", "a.log:12:",
     * "a.log-13-") */
    unsigned char *k = t->tok + t->n;
    if (t->n >= 2 && (k[-1] == ':' || k[-1] == '-') && k[-2] == T_DIGITS) {
        if (t->n == 2)
            k[-1] = T_NUMSEP;
        else if (k[-3] == ':' || k[-3] == '-')
            k[-1] = k[-3] = T_NUMSEP;
    }
    return t->n > 0;
}

static bool tmpl_eq(const tmpl *a, const tmpl *b)
{
    return a->n == b->n && !memcmp(a->tok, b->tok, a->n);
}

/* Does line s start (after spaces) with the template? Returns the length of the
 * prefix to remove (the template, and one space after it when sep), or 0. */
static size_t tmpl_match(const tmpl *t, const char *s, size_t n, bool sep)
{
    size_t i = skip_sp(s, n, 0);
    for (size_t k = 0; k < t->n; k++) {
        unsigned char tk = t->tok[k];
        if (tk == T_LEVEL) {
            /* the spaces after the last word are fio's indentation, not its padding; a
             * level that ends the prefix stands before them ("error: (groupid=0" is a
             * job's header) */
            bool last = k + 1 == t->n;
            size_t lv = i == n || (i && isalnum((unsigned char)s[i - 1])) ? 0 : level_at(s, n, i, !last, true);
            if (!lv || (last && i + lv < n && s[i + lv] != ' '))
                return 0;
            i += lv;
        } else if (tk == T_DIGITS || tk == T_SPACES) {
            size_t j = i;
            while (j < n && (tk == T_DIGITS ? isdigit((unsigned char)s[j]) : s[j] == ' '))
                j++;
            if (j == i)
                return 0;
            i = j;
        } else if (i < n && ((unsigned char)s[i] == tk || (tk == T_NUMSEP && (s[i] == ':' || s[i] == '-')))) {
            i++;
        } else {
            return 0;
        }
    }
    if (sep && i < n && s[i] == ' ')
        i++;
    return i;
}

/* The value of the digits of s[*k, n) (9 at most; *k moves past them), or -1 when
 * none is there. */
static long digits_value(const char *s, size_t n, size_t *k)
{
    size_t d = *k;
    long v = 0;
    while (*k < n && *k - d < 9 && isdigit((unsigned char)s[*k]))
        v = v * 10 + (s[(*k)++] - '0');
    return *k > d ? v : -1;
}

/* The number that begins s[0, n) glued to a ':' or '-' ("28:", "7-": grep -n's line
 * numbers), or -1; *rest: where the text after it begins, past its spaces. */
static long glued_number(const char *s, size_t n, size_t *rest)
{
    size_t k = 0;
    long v = digits_value(s, n, &k);
    if (v < 0 || k >= n || (s[k] != ':' && s[k] != '-'))
        return -1;
    *rest = skip_sp(s, n, k + 1);
    return v;
}

/* Does line i begin with a line number (grep -n's, an editor's): a number glued to a
 * ':' or '-' with a line beside it numbered one less or one more, whose text is not a
 * group line? Numbered group lines alone ("1: READ: ...", "2: READ: ...") are runs
 * a mail enumerates (prefix_of). */
static bool line_numbered(const fsc_text *t, size_t i)
{
    size_t r;
    long v = glued_number(fsc_text_line(t, i), t->lines[i].len, &r);
    if (v < 0)
        return false;
    for (int d = -1; d <= 1; d += 2) {
        if ((d < 0 && i == 0) || (d > 0 && i + 1 >= t->n_lines))
            continue;
        const char *ns = fsc_text_line(t, i + (size_t)(ptrdiff_t)d);
        size_t nn = t->lines[i + (size_t)(ptrdiff_t)d].len, nr;
        if (glued_number(ns, nn, &nr) != v + d)
            continue;
        size_t w = nr;
        while (w < nn && isupper((unsigned char)ns[w]))
            w++;
        if (!(w > nr && w < nn && ns[w] == ':')) /* "READ:", "WRITE:": a group line */
            return true;
    }
    return false;
}

/* The prefix of a keyword line (text before the keyword without the spaces around
 * it), or false when there is none or it must stay: a client's "<host>", the run
 * number of "1 - READ:" (but for a line number: numbered). */
static bool prefix_of(const char *s, size_t n, long kw, bool numbered, tmpl *t, size_t *start, size_t *len)
{
    size_t a = skip_sp(s, n, 0), e = (size_t)kw;
    while (e > a && (s[e - 1] == ' ' || (s[kw] == '"' && s[e - 1] == '{')))
        e--; /* fio's indentation, and the brace of '{"fio version": ...' */
    if (e <= a || e - a > TEMPLATE_MAX)
        return false;
    if (s[a] == '<' && s[e - 1] == '>' && !memchr(s + a, ' ', e - a))
        return false; /* client/server output names the host so */
    size_t d = a;
    while (d < e && isdigit((unsigned char)s[d]))
        d++;
    if (d > a && skip_sp(s, e, d) + 1 >= e && strchr("-:.)", s[e - 1]) && isupper((unsigned char)s[kw]) &&
        !numbered)
        return false; /* "1 - READ: io=...": numbered runs (fio 2.0 logs) */
    *start = a;
    *len = e - a;
    return tmpl_make(s + a, e - a, t);
}

/* ---- blocks ---- */

typedef struct block {
    tmpl t;
    size_t first, last; /* keyword lines */
    size_t n_kw;
    size_t min_gap; /* fewest spaces between the template and a keyword: 0 means no
                     * space separates them ('"Run status...'), so none is removed */
} block;

/* Bytes at the end of a quoted line (`"  read: IOPS=...",`) that are no fio text. */
static bool suffix_char(char c)
{
    return c == '"' || c == '\'' || c == '`' || c == ',' || c == ';' || c == '\\' || c == '|' || c == ' ';
}

/* The length of the box-drawing vertical line (a frame's side: U+2502 '│', U+2503 '┃',
 * U+2551 '║', the dashed U+2506, U+2507, U+250A, U+250B) that ends s[0, n); 0 when it
 * does not end in one. */
static size_t box_side_before(const char *s, size_t n)
{
    if (n < 3 || (unsigned char)s[n - 3] != 0xE2)
        return 0;
    unsigned char b = (unsigned char)s[n - 2], c = (unsigned char)s[n - 1];
    if (b == 0x94)
        return c == 0x82 || c == 0x83 || c == 0x86 || c == 0x87 || c == 0x8A || c == 0x8B ? 3 : 0;
    return b == 0x95 && c == 0x91 ? 3 : 0;
}

/* How many bytes at the end of s[0, n), at most max, are no fio text: suffix
 * characters, a frame's side (a box a terminal program drew around the output) and
 * the escapes "\n" and "\r" that a JSON string keeps of a line's end (a notebook's
 * output cell: `"  read: IOPS=...\n",`). */
static size_t suffix_len(const char *s, size_t n, size_t max)
{
    size_t k = 0, b;
    while (k < n && k < max) {
        char c = s[n - 1 - k];
        if (suffix_char(c))
            k++;
        else if (k + 3 <= max && (b = box_side_before(s, n - k)))
            k += b;
        else if ((c == 'n' || c == 'r') && k + 1 < n && k + 2 <= max && s[n - 2 - k] == '\\')
            k += 2;
        else
            break;
    }
    return k;
}

/* Does a suffix hold a quote mark or a backslash (a row's "," alone is fio's own)? */
static bool quoted(const char *sf, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (sf[i] == '"' || sf[i] == '\'' || sf[i] == '`' || sf[i] == '\\')
            return true;
    return false;
}

/* Is sf[0, n) a frame's side: '|' or a box-drawing vertical that the block's prefix
 * holds too (the left side: "│ read: IOPS=...     │")? fio ends no line with one. */
static bool frame_side(const block *b, const char *sf, size_t n)
{
    if (!(n == 1 && sf[0] == '|') && !(n == 3 && box_side_before(sf, n)))
        return false;
    for (size_t i = 0; i + n <= b->t.n; i++)
        if (!memcmp(b->t.tok + i, sf, n))
            return true;
    return false;
}

/* The quote marks (and commas) every keyword line of the block ends with, or the
 * frame's side after the spaces that pad them. */
static size_t block_suffix(const fsc_text *t, const block *b, const long *kw)
{
    size_t common = SIZE_MAX;
    const char *ref = NULL;
    size_t ref_n = 0;
    for (size_t i = b->first; i <= b->last; i++) {
        if (kw[i] < 0)
            continue;
        const char *s = fsc_text_line(t, i);
        size_t n = t->lines[i].len, k = suffix_len(s, n, SIZE_MAX);
        if (!ref) {
            ref = s + n - k;
            ref_n = k;
            common = k;
            continue;
        }
        size_t c = 0;
        while (c < common && c < k && s[n - 1 - c] == ref[ref_n - 1 - c])
            c++;
        common = c;
    }
    if (!ref || common == SIZE_MAX)
        return 0;
    /* a suffix needs a quote mark or a backslash: a row's "," is fio's own */
    const char *sf = ref + ref_n - common;
    bool padded = common && sf[0] == ' ';
    while (common && sf[0] == ' ') { /* fio's own trailing spaces are not part of it */
        sf++;
        common--;
    }
    /* a '|' after the spaces that pad a line to the frame's width; a box-drawing
     * line may touch the longest line */
    bool side = frame_side(b, sf, common) && (padded || common == 3);
    return quoted(sf, common) || side ? common : 0;
}

/* Remember the removed prefix of line i in t->tags (consecutive equal ones shared). */
static bool set_tag(fsc_text *t, size_t i, const char *s, size_t n, uint32_t *last_tag)
{
    while (n && s[n - 1] == ' ')
        n--;
    if (*last_tag && strlen(t->tags.data + *last_tag - 1) == n && !memcmp(t->tags.data + *last_tag - 1, s, n)) {
        t->lines[i].tag = *last_tag;
        return true;
    }
    if (t->tags.len + n + 2 > UINT32_MAX)
        return true; /* tags only name grep output's jobs: past 4 GiB, none */
    uint32_t at = (uint32_t)t->tags.len + 1;
    fsc_buf_add(&t->tags, s, n);
    fsc_buf_putc(&t->tags, '\0');
    if (t->tags.oom)
        return false;
    t->lines[i].tag = *last_tag = at;
    return true;
}

/* (parse_int.h) The job name a line's prefix gives ("4k-qd1.log" of "4k-qd1.log:  read: ...", "97" of
 * "97  read: ..."): the prefix of grep output or of a loop that printed a parameter
 * before fio's line. Log stamps, comment marks and "[stdout]" give none. */
bool fsc_tag_name(const fsc_text *t, uint32_t tag, const char **name, size_t *len)
{
    if (!tag || tag > t->tags.len)
        return false;
    const char *s = t->tags.data + tag - 1;
    size_t n = strlen(s);
    while (n && s[n - 1] == ' ')
        n--;
    if (n > 2 && s[0] == '[' && s[n - 1] == ']') { /* kubectl logs --prefix: "[pod/fio-0/fio]" */
        const char *a = memchr(s, '/', n), *b = a ? memchr(a + 1, '/', (size_t)(s + n - a - 1)) : NULL;
        if (!b || b - a < 2)
            return false; /* "[stdout]", "[INFO]": no pod */
        s = a + 1;
        n = (size_t)(b - a - 1);
    }
    if (n > 1 && s[n - 1] == '|' && s[n - 2] == ' ') { /* docker compose's "fio-1  | " */
        n--;
        while (n && s[n - 1] == ' ')
            n--;
    }
    char last = n ? s[n - 1] : 0;
    while (n && (s[n - 1] == ':' || s[n - 1] == '-'))
        n--;
    /* "file:12:" of grep -n ("file-13-" on the lines grep -A adds): the file names the
     * job ("node-1:" of pdsh is a host's name) */
    size_t k = n;
    while (k && isdigit((unsigned char)s[k - 1]))
        k--;
    if (k > 1 && k < n && (s[k - 1] == ':' || (s[k - 1] == '-' && last == '-')))
        n = k - 1;
    if (!n || n > 200 || !isalnum((unsigned char)s[0]))
        return false;
    int colons = 0;
    bool letters = false;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == ':')
            colons++;
        else if (!isalnum(c) && !strchr("._/+@=,~-", c))
            return false; /* spaces, brackets, '|': a log's stamp or source mark */
        letters = letters || isalpha(c);
    }
    if (colons > 1 || (colons && !letters))
        return false; /* "12:10:43": a clock */
    const char *colon = memchr(s, ':', n);
    if (colon && level_at(s, n, 0, false, false) == (size_t)(colon - s))
        return false; /* "INFO:root": Python's logging, its level and logger */
    static const char *const levels[] = {"DEBUG", "INFO", "WARN", "WARNING", "ERROR", "NOTICE", "TRACE",
                                         "stdout", "stderr", "REM", "echo", "out", "log"};
    for (size_t i = 0; i < FSC_ARRAY_SIZE(levels); i++)
        if (strlen(levels[i]) == n && !strncasecmp(levels[i], s, n))
            return false;
    *name = s;
    *len = n;
    return true;
}

/* Can the name s[0, n) be a host's or a file's: a letter in it, or an IPv4 address;
 * not a loop's number ("97") or parameter ("bs=4k", "qd=1,bs=4k")? */
static bool host_like(const char *s, size_t n)
{
    bool letter = false;
    int dots = 0;
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '=' || s[i] == ',')
            return false;
        letter = letter || isalpha((unsigned char)s[i]);
        dots += s[i] == '.';
    }
    return letter || dots == 3;
}

bool fsc_tag_host(const fsc_text *t, uint32_t tag, const char **name, size_t *len)
{
    return fsc_tag_name(t, tag, name, len) && host_like(*name, *len);
}

/* Does line i end in a ':' (before trailing spaces)? */
static bool ends_in_colon(const fsc_text *t, size_t i)
{
    const char *s = fsc_text_line(t, i);
    size_t n = t->lines[i].len;
    while (n && s[n - 1] == ' ')
        n--;
    return n && s[n - 1] == ':';
}

/* A field of a CSV file (a log exported from Kibana, Splunk, a spreadsheet) doubles
 * the quote marks it holds: fio's JSON there reads `""jobname"" : ""x"",`. The line's
 * s[0, n) with each pair made one again, in place; its new length. A line with a lone
 * quote mark was not quoted so and is left as it is. */
static size_t csv_unquote(char *s, size_t n)
{
    const char *q = memchr(s, '"', n);
    if (!q)
        return n;
    for (size_t i = (size_t)(q - s); i < n; i++)
        if (s[i] == '"' && (i + 1 == n || s[++i] != '"'))
            return n;
    size_t w = (size_t)(q - s);
    for (size_t i = w; i < n; i++) {
        s[w++] = s[i];
        if (s[i] == '"')
            i++;
    }
    return w;
}

/* Remove the block's template from line i if it fits; suffix bytes from its end. */
static bool strip_line(fsc_text *t, size_t i, const block *b, size_t suffix, uint32_t *last_tag)
{
    fsc_line *l = &t->lines[i];
    const char *s = fsc_text_line(t, i);
    size_t n = l->len, cut = tmpl_match(&b->t, s, n, b->min_gap > 0);
    if (!cut)
        return true;
    const char *rest = s + cut;
    size_t rn = n - cut;
    /* a template that took a job's name ("rr:" of "rr: (groupid=0, ...)"); a prefix
     * that ends in no ':' took none, nor one below a line that ends in the name's ':'
     * (the name was wrapped onto the line above: "host1: long-name:" above "host1:
     * (groupid=0, ...") */
    size_t r0 = skip_sp(rest, rn, 0), c = cut;
    while (c && s[c - 1] == ' ')
        c--;
    bool name_above = i > 0 && ends_in_colon(t, i - 1);
    if (c && s[c - 1] == ':' &&
        (((starts(rest + r0, rn - r0, "(groupid=") || starts(rest + r0, rn - r0, "(g=")) && !name_above) ||
         starts(rest + r0, rn - r0, "ios=")))
        return true;
    if (!set_tag(t, i, s, cut, last_tag))
        return false;
    if (suffix) {
        /* the keyword lines' suffix, or the part of it this line has: the last line
         * of a quoted block has no comma (`"  vda: ios=...\n"`) */
        size_t k = suffix_len(rest, rn, suffix);
        if (k == suffix || quoted(rest + rn - k, k)) {
            rn -= k;
            /* between quote marks a CSV field's: the template ends with one */
            if (b->t.tok[b->t.n - 1] == '"' && memchr(rest + rn, '"', k))
                rn = csv_unquote(t->store.data + l->off + cut, rn);
        }
    }
    l->off += cut;
    l->len = (uint32_t)rn;
    l->lead = (uint16_t)(l->lead + cut > UINT16_MAX ? UINT16_MAX : l->lead + cut);
    l->flags |= FSC_LINE_PREFIX;
    return true;
}

static bool blank_line(const fsc_text *t, size_t i)
{
    const char *s = fsc_text_line(t, i);
    return skip_sp(s, t->lines[i].len, 0) == t->lines[i].len;
}

/* The number a removed prefix is ("12:", "7-", "  12 "), or -1: digits alone, a
 * ':' or '-' and spaces after them. */
static long tag_number(const fsc_text *t, size_t i)
{
    if (!(t->lines[i].flags & FSC_LINE_PREFIX) || !t->lines[i].tag || t->lines[i].tag > t->tags.len)
        return -1;
    const char *s = t->tags.data + t->lines[i].tag - 1;
    size_t n = strlen(s), k = skip_sp(s, n, 0);
    long v = digits_value(s, n, &k);
    if (v < 0)
        return -1;
    /* "12:" (grep -n), "7-" (its context), "12." and "12)" (an ordered list, as
     * html2text or an editor's list mode writes it), "12 |" and "12 │" (bat, a code
     * viewer's gutter) */
    k = skip_sp(s, n, k);
    if (k < n && (s[k] == ':' || s[k] == '-' || s[k] == '.' || s[k] == ')' || s[k] == '|'))
        k++;
    else if (k + 3 <= n && box_side_before(s, k + 3))
        k += 3;
    return skip_sp(s, n, k) == n ? v : -1;
}

/* Prefixes that number the lines ("12:" of grep -n, "7-" of its context lines, an
 * editor's or a pager's numbers): one more on each line, three lines or more in a
 * row. They name no job (a number that stays the same over a job's lines, a loop's
 * parameter printed before fio's output, does): their tags are dropped. */
#define NUMBERED_LINES 3
static void drop_line_numbers(fsc_text *t, size_t top, size_t bottom)
{
    size_t from = top;
    long prev = -2;
    for (size_t i = top; i <= bottom + 1; i++) {
        long v = i <= bottom ? tag_number(t, i) : -1;
        if (v >= 0 && prev >= 0 && v == prev + 1) {
            prev = v;
            continue;
        }
        if (i - from >= NUMBERED_LINES && prev >= 0)
            for (size_t k = from; k < i; k++)
                t->lines[k].tag = 0;
        from = i;
        prev = v;
    }
}

/* Strip a block: its keyword lines and the lines between them that fit, then the
 * lines above and below that fit, up to the first one that does not. */
/* Does line i fit the block's template, or is it blank? */
static bool fits_block(const fsc_text *t, const block *b, size_t i)
{
    return blank_line(t, i) || tmpl_match(&b->t, fsc_text_line(t, i), t->lines[i].len, b->min_gap > 0);
}

/* Lines without the prefix that the lines around a block may hold between lines with
 * it: the rests of lines wrapped after the prefix was put on ("[stdout] job: (g=0):
 * rw=..., (T)" above "4096B-4096B, ioengine=psync"). */
#define MAX_REST_LINES 6

static bool strip_block(fsc_text *t, const block *b, const long *kw, size_t lo, size_t hi)
{
    size_t suffix = block_suffix(t, b, kw);
    uint32_t last_tag = 0;
    size_t top = b->first;
    for (size_t gap = 0; top > lo + gap && gap <= MAX_REST_LINES;) {
        if (fits_block(t, b, top - 1 - gap)) {
            top -= gap + 1;
            gap = 0;
        } else {
            gap++;
        }
    }
    size_t bottom = b->last;
    for (size_t gap = 0; bottom + 1 + gap < hi && gap <= MAX_REST_LINES;) {
        if (fits_block(t, b, bottom + 1 + gap)) {
            bottom += gap + 1;
            gap = 0;
        } else {
            gap++;
        }
    }
    for (size_t i = top; i <= bottom; i++)
        if (!(t->lines[i].flags & FSC_LINE_PREFIX) && !strip_line(t, i, b, suffix, &last_tag))
            return false;
    drop_line_numbers(t, top, bottom);
    return true;
}

/* Does the line begin (after its indentation) as a line of fio's own: a result
 * line's word, a percentile row, JSON? Then nothing stands before its keyword and
 * the keyword scan is skipped (most lines of most documents). A word must end
 * there: "read.log:" is grep's file name, not "read". */
static bool word_is(const char *p, size_t l, const char *w, size_t k)
{
    return l == k && !memcmp(p, w, k);
}
#define WORD_IS(p, l, w) word_is((p), (l), (w), sizeof(w) - 1)

/* " prio" after the word ending at s[w]: fio 3.18-3.29's "high prio_clat", "low prio (70.32%) ..." */
static bool prio_after(const char *s, size_t n, size_t w)
{
    return starts(s + w, n - w, " prio");
}

static bool fio_start(const char *s, size_t n)
{
    size_t k = skip_sp(s, n, 0);
    if (k == n)
        return true;
    char c = s[k];
    if (c == '{' || c == '}' || c == ']')
        return true;
    if (c == '|') /* a percentile row; else a quote mark ("| " of some mail clients) */
        return pctl_row_at(s, n, k);
    if (c == '"')
        return fsc_json_member(s + k, s + n);
    size_t w = k;
    while (w < n && (unsigned char)((s[w] | 0x20) - 'a') < 26)
        w++;
    if (w == k || (w < n && !fsc_fio_word_end(s[w])))
        return false;
    const char *p = s + k;
    size_t l = w - k;
    switch (c) {
    case 'r': return WORD_IS(p, l, "read");
    case 'w': return WORD_IS(p, l, "write");
    case 't': return WORD_IS(p, l, "trim");
    case 'm': return WORD_IS(p, l, "mixed");
    case 'R': return WORD_IS(p, l, "READ") || WORD_IS(p, l, "Run");
    case 'W': return WORD_IS(p, l, "WRITE");
    case 'T': return WORD_IS(p, l, "TRIM");
    case 'M': return WORD_IS(p, l, "MIXED");
    case 's': return WORD_IS(p, l, "slat") || WORD_IS(p, l, "submit") || WORD_IS(p, l, "sync");
    case 'c': return WORD_IS(p, l, "clat") || WORD_IS(p, l, "cpu") || WORD_IS(p, l, "complete");
    case 'l': return WORD_IS(p, l, "lat") || WORD_IS(p, l, "latency") || (WORD_IS(p, l, "low") && prio_after(s, n, w));
    case 'h': return WORD_IS(p, l, "high") && prio_after(s, n, w); /* fio 3.18-3.29: "high prio (29.68%) clat percentiles" */
    case 'b': return WORD_IS(p, l, "bw");
    case 'i': return WORD_IS(p, l, "iops") || WORD_IS(p, l, "issued");
    case 'I': return WORD_IS(p, l, "IO");
    case 'D': return WORD_IS(p, l, "Disk");
    case 'S': return WORD_IS(p, l, "Starting");
    case 'J': return WORD_IS(p, l, "Jobs");
    default: return false;
    }
}

/* (parse_int.h) Is s[0, n), after its indentation, the start of one of fio's report
 * lines, whole words or cut inside one ("  cpu       ", "     sub", "Run stat", "Disk
 * stats (re", "  vda: ios=91"), not a sentence? Its runs of spaces count as one. */
bool fsc_fio_line_head(const char *s, size_t n)
{
    static const char *const heads[] = {
        "cpu :", "IO depths :", "submit :", "complete :", "issued rwts:", "issued rwt:", "issued :", "issued r/w",
        "latency :",
        "Run status group", "Disk stats (read/write):", "READ:", "WRITE:", "TRIM:", "MIXED:", "read:", "write:",
        "trim:", "mixed:", "read :", "write :", "trim :", "slat (", "clat (", "lat (", "bw (", "iops :",
        "clat percentiles", "lat percentiles", "slat percentiles", "errors :", "steadystate :", "fio-"};
    size_t k = skip_sp(s, n, 0);
    if (k == n)
        return false;
    if (s[k] == '|' || memchr(s + k, '=', n - k))
        return true; /* a percentile row, a line of values, cut */
    for (size_t h = 0; h < sizeof heads / sizeof *heads; h++) {
        const char *p = heads[h];
        size_t i = k;
        while (i < n && *p) {
            if (s[i] == ' ' && *p == ' ') { /* a run of spaces, as one */
                while (i < n && s[i] == ' ')
                    i++;
                p++;
            } else if (s[i] == ' ' && *p == ':') { /* fio pads its labels: "cpu          :" */
                i++;
            } else if (s[i] == *p) {
                i++;
                p++;
            } else {
                break;
            }
        }
        if (i == n || !*p) /* cut inside the head, or after it */
            return true;
    }
    return false;
}

/* pdsh, clush, "parallel --tag", docker compose, kubectl logs --prefix and grep -H put
 * each host's, service's, pod's or file's name before its lines ("node-1: ", "host<TAB>",
 * "fio-1  | ", "[pod/fio-0/fio] ", "node1.log:", "node1.log-"), and all but grep write
 * lines as they arrive: two hosts' reports interleave, a line or a buffer at a time.
 * Block by block (below) the names would be learned as one prefix or, where they
 * differ in more than digits, as blocks of one line each. So first, within a stretch of
 * lines that such names begin (a line without one between them, the rest of a wrapped
 * line or grep's "--", goes with the line above it), each name's lines are put
 * together, in the order of their first lines and in their own order. Only where
 * names come back after others, and where the lines after the names are fio's own
 * (a fio document's "j1: (g=0): ..." and "j2: Laying out IO file" are not). */
enum { DEMUX_NAMES = 64, DEMUX_GAP = 6 };

typedef struct line_name {
    const char *s;
    size_t n;
} line_name;

static bool fio_start(const char *s, size_t n);

/* The name before line s[0, n) and where fio's line after it begins (*rest), or 0. */
static size_t line_host(const char *s, size_t n, size_t *rest)
{
    if (n && s[0] == '[') { /* kubectl logs --prefix: "[pod/fio-0/fio] " names the pod */
        const char *e = memchr(s, ']', n < TEMPLATE_MAX ? n : TEMPLATE_MAX);
        const char *a = e ? memchr(s, '/', (size_t)(e - s)) : NULL;
        if (!a || !memchr(a + 1, '/', (size_t)(e - a - 1)) || (size_t)(e - s) + 1 >= n || e[1] != ' ' ||
            !host_like(s + 1, (size_t)(e - s - 1)))
            return 0;
        *rest = (size_t)(e - s) + 2;
        return (size_t)(e - s) + 1;
    }
    size_t k = 0;
    while (k < n && k < TEMPLATE_MAX && (isalnum((unsigned char)s[k]) || (s[k] && strchr("._/+@~-", s[k]))))
        k++;
    if (!k || k == n || !isalnum((unsigned char)s[0]))
        return 0;
    size_t name = k, r = k + 1;
    if (s[k] == ':' && !fio_start(s, n)) { /* "node-1: ", "a.log:12:" (grep -n), "a.log:" (grep -H) */
        size_t d = r;
        while (d < n && isdigit((unsigned char)s[d]))
            d++;
        if (d > r && d < n && s[d] == ':')
            r = d + 1;
    } else if (s[k] == ' ' && s[k - 1] == '-') { /* grep -A's "a.log-13-" or "a.log-" */
        size_t d = k - 1;
        while (d && isdigit((unsigned char)s[d - 1]))
            d--;
        name = d < k - 1 && d > 1 && s[d - 1] == '-' ? d - 1 : k - 1;
        r = k;
    } else if (!blank(s[k]) || fio_start(s, n)) { /* "host<TAB>", not "READ: bw=" */
        return 0;
    } else { /* docker compose's "fio-1  | ": the service's name, blanks, a bar */
        size_t b = k;
        while (b < n && blank(s[b]))
            b++;
        if (b > k + 1 && b < n && s[b] == '|')
            r = b + 1 + (b + 1 < n && s[b + 1] == ' ');
    }
    if (!host_like(s, name) || level_at(s, name, 0, false, false) == name)
        return 0; /* "INFO  read: IOPS=": a log's severity, no host's name */
    *rest = r;
    return name;
}

bool fsc_report_end_line(const char *s, size_t n)
{
    static const char *const groups[] = {"READ:", "WRITE:", "TRIM:", "MIXED:"};
    if (fsc_find_lit(s, n, ": ios="))
        return true;
    size_t i = skip_sp(s, n, 0);
    for (size_t k = 0; k < sizeof groups / sizeof groups[0]; k++)
        if (n - i >= strlen(groups[k]) && !memcmp(s + i, groups[k], strlen(groups[k])))
            return true;
    return false;
}

/* Is s[0, n) a job definition ("rr: (g=0): rw=..."), blanks before it or not? */
static bool job_definition(const char *s, size_t n)
{
    size_t i = skip_sp(s, n, 0), k = i;
    while (k < n && !blank(s[k]) && s[k] != ':')
        k++;
    return k > i && n - k >= 5 && !memcmp(s + k, ": (g=", 5);
}

/* Does it go on with one: indented (but for a job definition: a name's prefix with
 * two blanks after its colon, "node-1:  rr: (g=0)", indents every line), a job's block
 * "(groupid=", "Run status group", "Disk stats"? */
static bool report_goes_on(const char *s, size_t n)
{
    return n && ((blank(s[0]) && !job_definition(s, n)) || fsc_find_lit(s, n, "(groupid=") ||
                 (n >= 16 && !memcmp(s, "Run status group", 16)) || (n >= 10 && !memcmp(s, "Disk stats", 10)));
}

/* How the rest s[0, n) of a named line reads: 0 not as fio's (a blank too: a wrapped
 * job name's "seq-read-aaaa:" stands alone on its line); REST_JOB_LED fio's line that
 * a job's name leads ("b2: (groupid=0, ...", "read: (g=0): ..."), whose name the name
 * before may be the first part of (jobs named "a:b2", "job 1", "seq read"); REST_FIO
 * fio's own line of no job name ("  read: IOPS=", "Run status group 0"). */
enum { REST_NONE, REST_JOB_LED, REST_FIO };

static int fio_rest(const char *s, size_t n)
{
    if (fsc_find_lit(s, n, ": (groupid=") || fsc_find_lit(s, n, ": (g="))
        return REST_JOB_LED;
    return skip_sp(s, n, 0) < n && fio_start(s, n) ? REST_FIO : REST_NONE;
}

/* Does a name of `lines` lines, `fio` of them fio's own (`plain` of those led by no
 * job's name), name a host? Two lines or more, a quarter of them fio's: a job's name
 * after grep -A's mark ("a.log-4-rr: Laying out IO file") is none; and one of them
 * fio's line of no job name: a host's report has them ("node-1:   read: IOPS="), a
 * job whose name has a colon or a blank in it only its name-led lines ("a:b2: (g=0)"
 * and "a:b2: (groupid=0, ...)" are no host "a"). */
static bool host_kept(size_t lines, size_t fio, size_t plain)
{
    return lines >= 2 && fio * 4 >= lines && plain > 0;
}

/* Line i's name among names[0, *n_names) (added when new): its index, -1 for none,
 * -2 when there are too many to be hosts. *fio: the rest is fio's own line (not a
 * blank: a wrapped job name's "seq-read-aaaa:" stands alone on its line). */
static int name_of(const fsc_text *t, size_t i, line_name *names, size_t *n_names, int *fio)
{
    const char *s = fsc_text_line(t, i);
    size_t r, n = line_host(s, t->lines[i].len, &r);
    if (!n)
        return -1;
    size_t m = t->lines[i].len - r;
    *fio = fio_rest(s + r, m);
    for (size_t h = 0; h < *n_names; h++)
        if (names[h].n == n && !memcmp(names[h].s, s, n))
            return (int)h;
    if (*n_names == DEMUX_NAMES)
        return -2;
    names[*n_names] = (line_name){s, n};
    return (int)(*n_names)++;
}

/* Put the lines [lo, hi) together by host (of: each line's, UCHAR_MAX: before the
 * first name), host after host in the order they first come in these lines. */
static bool regroup(fsc_text *t, size_t lo, size_t hi, const unsigned char *of)
{
    fsc_line *tmp = malloc((hi - lo) * sizeof *tmp);
    if (!tmp)
        return false;
    unsigned char order[DEMUX_NAMES + 1];
    bool seen[DEMUX_NAMES + 1] = {false};
    size_t n_order = 0, k = 0;
    for (size_t i = lo; i < hi; i++) {
        unsigned char h = of[i - lo] == UCHAR_MAX ? DEMUX_NAMES : of[i - lo];
        if (!seen[h]) {
            seen[h] = true;
            order[n_order++] = h;
        }
    }
    for (size_t o = 0; o < n_order; o++)
        for (size_t i = lo; i < hi; i++)
            if ((of[i - lo] == UCHAR_MAX ? DEMUX_NAMES : of[i - lo]) == order[o])
                tmp[k++] = t->lines[i];
    memcpy(t->lines + lo, tmp, (hi - lo) * sizeof *tmp);
    free(tmp);
    return true;
}

/* line_host, *rest past the one space pdsh and clush put after the name's colon
 * ("node-1:   vda: ios=...": the report's own indentation follows it). */
size_t fsc_line_host(const char *s, size_t n, size_t *rest)
{
    size_t hn = line_host(s, n, rest);
    if (hn && *rest < n && blank(s[*rest]) && s[*rest - 1] == ':')
        (*rest)++;
    return hn;
}

/* What the line s[0, len), its name's rest at r, says of its host's report: 0 a
 * blank (nothing), 1 it ends one (fsc_report_end_line), 2 it goes on with one
 * (report_goes_on), 3 anything else (a job definition, the banner, a command). */
static int rest_step(const char *s, size_t len, size_t r)
{
    if (skip_sp(s, len, r) == len)
        return 0;
    return fsc_report_end_line(s + r, len - r) ? 1 : report_goes_on(s + r, len - r) ? 2 : 3;
}

/* rest_step of line i of t. */
static int report_step(const fsc_text *t, size_t i)
{
    const char *s = fsc_text_line(t, i);
    size_t r = 0, n = t->lines[i].len;
    fsc_line_host(s, n, &r);
    return rest_step(s, n, r);
}

/* regroup the stretch [lo, hi) part by part: a part ends where every host is between
 * runs, its last line above ending a report (or none) and its first line below
 * neither going on with one nor a disk or group line (or none), so that no host's run
 * is cut in two. The runs keep the text's order where the hosts take turns (a loop
 * over hosts; pdsh over runs that end together), and a huge text read in pieces cut
 * at such a place (pieces.c) is put together piece by piece as the whole is. */
static bool regroup_parts(fsc_text *t, size_t lo, size_t hi, const unsigned char *of)
{
    /* steps[i - lo]: report_step of line i (0 before the first name); open_above[i - lo]:
     * how many hosts' last line above line i leaves a run open */
    unsigned char *steps = malloc(2 * (hi - lo)), *open_above = steps + (hi - lo), state[DEMUX_NAMES] = {0};
    if (!steps)
        return false;
    unsigned open = 0;
    for (size_t i = lo; i < hi; i++) {
        open_above[i - lo] = (unsigned char)open;
        unsigned char h = of[i - lo];
        int step = steps[i - lo] = h == UCHAR_MAX ? 0 : (unsigned char)report_step(t, i);
        if (step) {
            unsigned char was = state[h];
            state[h] = step == 1 ? 1 : 2;
            open += (state[h] == 2) - (was == 2);
        }
    }
    /* from the end: how many hosts' first line at or below line i goes on with a report */
    memset(state, 0, sizeof state);
    unsigned going = 0;
    size_t to = hi;
    bool ok = true;
    for (size_t i = hi; i-- > lo && ok;) {
        unsigned char h = of[i - lo];
        int step = steps[i - lo];
        if (step) {
            unsigned char was = state[h];
            state[h] = step == 3 ? 1 : 2; /* a disk or group line goes on with it too */
            going += (state[h] == 2) - (was == 2);
        }
        if (i > lo && !going && !open_above[i - lo]) { /* a part [i, to) */
            ok = regroup(t, i, to, of + (i - lo));
            to = i;
        }
    }
    free(steps);
    return ok && regroup(t, lo, to, of);
}

enum { HOSTS_WINDOW = 256 };

/* A name's lines near a cut: how many (and of fio's own), the rest_step of its last
 * above that is not blank (1 ends a report, 2 or 3 not: 2 is kept for both) and of its
 * first below (1 or 2: its run goes on there, 3 one begins). */
typedef struct cut_host {
    line_name name;
    size_t lines, fio, plain;
    bool kept; /* host_kept */
    int above, below;
} cut_host;

/* Add line s[0, len) to hosts (up to DEMUX_NAMES): its name's entry, NULL for none. */
static cut_host *cut_host_of(cut_host *hosts, size_t *n_hosts, const char *s, size_t len, size_t *r)
{
    size_t hn = fsc_line_host(s, len, r);
    if (!hn)
        return NULL;
    for (size_t h = 0; h < *n_hosts; h++)
        if (hosts[h].name.n == hn && !memcmp(hosts[h].name.s, s, hn))
            return &hosts[h];
    if (*n_hosts == DEMUX_NAMES)
        return NULL;
    hosts[*n_hosts] = (cut_host){{s, hn}, 0, 0, 0, false, 0, 0};
    return &hosts[(*n_hosts)++];
}

/* Is a kept name of hosts[0, n) in a run across the cut: its last line above leaves
 * one open, or its first line below goes on with one or ends it (below 0: not looked
 * at yet)? */
static bool run_across(const cut_host *hosts, size_t n)
{
    for (size_t h = 0; h < n; h++)
        if (hosts[h].kept && (hosts[h].above == 2 || hosts[h].below == 1 || hosts[h].below == 2))
            return true;
    return false;
}

/* Count line s[0, len) to its name in hosts (cut_host_of): its rest_step, or -1 for a
 * line of no name. */
static int cut_host_line(cut_host *hosts, size_t *n_hosts, const char *s, size_t len, cut_host **h)
{
    size_t r;
    if (!(*h = cut_host_of(hosts, n_hosts, s, len, &r)))
        return -1;
    (*h)->lines++;
    int kind = fio_rest(s + r, len - r);
    (*h)->fio += kind != REST_NONE;
    (*h)->plain += kind == REST_FIO;
    return rest_step(s, len, r);
}

/* Of the names of hosts[0, n): how many demux_stretch keeps, by their lines so far. */
static size_t hosts_kept(cut_host *hosts, size_t n)
{
    size_t kept = 0;
    for (size_t h = 0; h < n; h++)
        kept += hosts[h].kept = host_kept(hosts[h].lines, hosts[h].fio, hosts[h].plain);
    return kept;
}

bool fsc_hosts_cut_ok(const char *buf, size_t n, size_t at, size_t *budget)
{
    cut_host hosts[DEMUX_NAMES], *c;
    size_t n_hosts = 0;
    if (budget && *budget < 2 * HOSTS_WINDOW)
        return false;
    if (budget)
        *budget -= 2 * HOSTS_WINDOW;
    /* above: HOSTS_WINDOW lines; each name's last line that is not blank */
    size_t to = at;
    for (size_t k = 0; to > 0 && k < HOSTS_WINDOW; k++) {
        const char *nl = to >= 2 ? memrchr(buf, '\n', to - 1) : NULL, *line = nl ? nl + 1 : buf;
        size_t len = to - 1 - (size_t)(line - buf);
        to = (size_t)(line - buf);
        int step = cut_host_line(hosts, &n_hosts, line, len, &c);
        if (step > 0 && !c->above)
            c->above = step == 1 ? 1 : 2;
    }
    /* a run open above among the names kept by the lines above alone: no cut, without
     * a look below (kept by both windows too, nearly always; where not, a cut less) */
    if (hosts_kept(hosts, n_hosts) >= 2 && run_across(hosts, n_hosts))
        return false;
    /* below: each name's first line that is not blank (a name may come in only here:
     * a host whose run began above the window) */
    const char *line = buf + at, *end = buf + n;
    for (size_t k = 0; line < end && k < HOSTS_WINDOW; k++) {
        const char *nl = memchr(line, '\n', (size_t)(end - line));
        size_t len = (size_t)((nl ? nl : end) - line);
        int step = cut_host_line(hosts, &n_hosts, line, len, &c);
        if (step > 0 && !c->below)
            c->below = step;
        if (!nl)
            break;
        line = nl + 1;
    }
    /* the names demux_stretch keeps: none of them in a run across the cut */
    return hosts_kept(hosts, n_hosts) < 2 || !run_across(hosts, n_hosts);
}

/* The lines [lo, hi) of one stretch: put together by name when they interleave. A
 * name counts when a quarter of its lines are fio's own after it: a job's name after
 * grep -A's mark ("a.log-4-rr: Laying out IO file") is no host. */
static bool demux_stretch(fsc_text *t, size_t lo, size_t hi)
{
    line_name names[DEMUX_NAMES];
    size_t n_names = 0, lines[DEMUX_NAMES] = {0}, fio[DEMUX_NAMES] = {0}, plain[DEMUX_NAMES] = {0};
    unsigned char *of = malloc(hi - lo);
    if (!of)
        return false;
    for (size_t i = lo; i < hi; i++) {
        int f = REST_NONE;
        int h = name_of(t, i, names, &n_names, &f);
        if (h == -2) {
            free(of);
            return true;
        }
        of[i - lo] = h < 0 ? UCHAR_MAX : (unsigned char)h;
        if (h >= 0) {
            lines[h]++;
            fio[h] += f != REST_NONE;
            plain[h] += f == REST_FIO;
        }
    }
    unsigned char keep[DEMUX_NAMES], n_keep = 0;
    for (size_t h = 0; h < n_names; h++)
        keep[h] = host_kept(lines[h], fio[h], plain[h]) ? n_keep++ : UCHAR_MAX;
    size_t switches = 0;
    unsigned char prev = UCHAR_MAX;
    for (size_t i = lo; i < hi; i++) {
        unsigned char h = of[i - lo] == UCHAR_MAX ? UCHAR_MAX : keep[of[i - lo]];
        if (h == UCHAR_MAX)
            h = prev; /* the rest of the line above; before the first name: the first's */
        switches += h != prev && prev != UCHAR_MAX;
        of[i - lo] = prev = h;
    }
    bool ok = n_keep < 2 || switches < n_keep || regroup_parts(t, lo, hi, of);
    free(of);
    return ok;
}

static bool demux_names(fsc_text *t)
{
    size_t lo = SIZE_MAX, last = 0; /* the stretch's first and last named lines */
    line_name one[1];
    for (size_t i = 0; i < t->n_lines; i++) {
        size_t none = 0;
        int f;
        bool named = name_of(t, i, one, &none, &f) >= 0;
        if (named && lo == SIZE_MAX)
            lo = i;
        if (named)
            last = i;
        if (lo != SIZE_MAX && (i - last > DEMUX_GAP || i + 1 == t->n_lines)) {
            if (!demux_stretch(t, lo, last + 1))
                return false;
            lo = SIZE_MAX;
        }
    }
    return true;
}

size_t fsc_description_open(const char *s, size_t n, bool *whole)
{
    *whole = false;
    if (n < 11 || memcmp(s, "Description", 11))
        return 0;
    size_t k = skip_sp(s, n, 11);
    if (k >= n || s[k] != ':' || (k = skip_sp(s, n, k + 1)) >= n || s[k] != '[')
        return 0;
    size_t e = n;
    while (e > k + 1 && s[e - 1] == ' ')
        e--;
    *whole = e > k + 1 && s[e - 1] == ']';
    return k + 1;
}

/* Where the keyword at s[p] stands inside a job's description printed whole ("
 * Description  : [prev: clat (usec): min=5]": its '[' before p, and ']' the line's
 * last byte), the description's start: the line is fio's own from there, its text no
 * keyword. Else p. */
static long description_around(const char *s, size_t n, long p)
{
    const char *d = p > 11 ? memmem(s, (size_t)p, "Description", 11) : NULL;
    bool whole;
    size_t open = d ? fsc_description_open(d, n - (size_t)(d - s), &whole) : 0;
    return open && whole && (size_t)(d - s) + open <= (size_t)p ? d - s : p;
}

bool fsc_prefix_strip(fsc_text *t, bool *changed)
{
    *changed = false;
    if (!demux_names(t))
        return false;
    long *kw = NULL;
    block cur = {0};
    bool open = false, ok = true;
    size_t lo = 0; /* lines above it that a block may take: after the last block */
    for (size_t i = 0; i < t->n_lines && ok; i++) {
        const char *s = fsc_text_line(t, i);
        size_t n = t->lines[i].len;
        if (!open && fio_start(s, n))
            continue; /* no prefix here; inside a block it would close it (below) */
        long p = fsc_fio_keyword_at(s, n);
        if (p < 0)
            continue;
        p = description_around(s, n, p);
        tmpl tp;
        size_t ps, pl;
        bool prefixed = prefix_of(s, n, p, line_numbered(t, i), &tp, &ps, &pl);
        if (open && (!prefixed || !tmpl_eq(&tp, &cur.t))) {
            ok = strip_block(t, &cur, kw, lo, i);
            lo = cur.last + 1;
            open = false;
        }
        if (!prefixed)
            continue;
        if (!kw) { /* the first prefixed keyword line: from here on, offsets are kept */
            kw = malloc(t->n_lines * sizeof *kw);
            if (!kw)
                return false;
            for (size_t k = 0; k < t->n_lines; k++)
                kw[k] = -1;
        }
        kw[i] = p;
        if (!open) {
            cur.t = tp;
            cur.first = i;
            cur.n_kw = 0;
            cur.min_gap = SIZE_MAX;
            open = true;
        }
        if ((size_t)p - (ps + pl) < cur.min_gap)
            cur.min_gap = (size_t)p - (ps + pl);
        cur.last = i;
        cur.n_kw++;
        *changed = true;
    }
    if (ok && open)
        ok = strip_block(t, &cur, kw, lo, t->n_lines);
    free(kw);
    return ok;
}
