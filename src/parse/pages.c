/* SPDX-License-Identifier: MIT */
/*
 * Pages: the text of a PDF (pdftotext, a printed report, a scanned appendix) or of a
 * paginated listing ends each page with a form feed, and repeats a running header and
 * a footer around it ("Storage benchmark report      Page 3", "- 3 -", "3 of 12").
 * Amid a run those lines cut its JSON document in two and stand between its result
 * lines. They are taken out: the lines near a page break (a few on either side) that
 * come back, digits aside, near most breaks, and those that only number the page.
 * A line of fio's (its banner, a keyword line, JSON, a value with '=') is never
 * taken. Form feeds that come a line or two apart (binary junk, clear-screen codes)
 * make no pages: then only they go.
 */
#include "parse_int.h"

#include <stdlib.h>
#include <string.h>

enum {
    NEAR = 3,        /* lines that are no blank, on either side of a break, looked at */
    SHAPE_MAX = 96,  /* a longer line is no running header */
    PAGE_MIN = 8,    /* lines a page has at least: denser form feeds make no pages */
};

/* A line's shape: its digits one '#', its runs of spaces one space, at most
 * SHAPE_MAX bytes, hashed (FNV-1a); 0 for a line too long or blank. */
static uint64_t shape_of(const char *s, size_t n)
{
    while (n && (s[n - 1] == ' ' || s[n - 1] == '\f' || s[n - 1] == '\r'))
        n--;
    size_t i = 0;
    while (i < n && (s[i] == ' ' || s[i] == '\f'))
        i++;
    if (i == n || n - i > SHAPE_MAX)
        return 0;
    uint64_t h = 1469598103934665603ULL;
    for (; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c >= '0' && c <= '9') {
            while (i + 1 < n && s[i + 1] >= '0' && s[i + 1] <= '9')
                i++;
            c = '#';
        } else if (c == ' ') {
            while (i + 1 < n && s[i + 1] == ' ')
                i++;
        }
        h = (h ^ c) * 1099511628211ULL;
    }
    return h ? h : 1;
}

/* Could the line be fio's own (its banner, "Starting N processes", a keyword line,
 * JSON) or a value of its? Such a line is never taken. */
static bool fio_like(const char *s, size_t n)
{
    size_t i = 0;
    while (i < n && (s[i] == ' ' || s[i] == '\f'))
        i++;
    if (i < n && strchr("{}[]\"|", s[i]))
        return true;
    if ((n - i > 4 && !memcmp(s + i, "fio-", 4) && s[i + 4] >= '0' && s[i + 4] <= '9') ||
        (n - i >= 9 && !memcmp(s + i, "Starting ", 9)))
        return true;
    return memchr(s, '=', n) || fsc_fio_keyword_at(s + i, n - i) >= 0;
}

/* Do the breaks (line indices, in order) make pages: most of them (four in five) at
 * least PAGE_MIN lines after the one before? Form feeds among binary junk or a
 * terminal's clear-screen codes come a line or two apart. */
static bool paged(const size_t *breaks, size_t nb)
{
    size_t apart = 0;
    for (size_t k = 1; k < nb; k++)
        apart += breaks[k] - breaks[k - 1] >= PAGE_MIN;
    return nb < 2 || apart * 5 >= (nb - 1) * 4;
}

static bool word_at(const char *s, size_t n, size_t i, const char *w)
{
    size_t k = strlen(w);
    if (i + k > n)
        return false;
    for (size_t j = 0; j < k; j++)
        if ((s[i + j] | 0x20) != w[j])
            return false;
    return true;
}

/* A line that numbers its page and says nothing else: "3", "- 3 -", "Page 3",
 * "Page 3 of 12", "3 of 12", "3/12", "[3]". */
static bool page_number(const char *s, size_t n)
{
    size_t i = 0, digits = 0;
    bool page = false;
    while (i < n) {
        char c = s[i];
        if (c >= '0' && c <= '9') {
            while (i < n && s[i] >= '0' && s[i] <= '9')
                i++;
            digits++;
        } else if (word_at(s, n, i, "page")) {
            page = true;
            i += 4;
        } else if (word_at(s, n, i, "of ") || word_at(s, n, i, "von ") || word_at(s, n, i, "sur ")) {
            i += 2;
        } else if (strchr(" \f\r-/[]()|.:", c)) {
            i++;
        } else {
            return false;
        }
    }
    return digits >= 1 && digits <= 2 && (page || digits == 1 || n <= 12);
}

/* A shape near a break: the break's number (1-based). */
typedef struct near {
    uint64_t shape;
    size_t brk;
} near;

static int cmp_near(const void *a, const void *b)
{
    const near *x = a, *y = b;
    return x->shape != y->shape ? (x->shape < y->shape ? -1 : 1) : (x->brk > y->brk) - (x->brk < y->brk);
}

/* The lines near break b (the index of the line holding the form feed) into at[]:
 * up to NEAR that are no blank above it, and the break's line with up to NEAR - 1
 * below. Returns how many. */
static size_t near_lines(const fsc_text *t, size_t b, size_t at[2 * NEAR])
{
    size_t n = 0, got = 0;
    for (size_t i = b; i-- > 0 && got < NEAR;)
        if (shape_of(fsc_text_line(t, i), t->lines[i].len) != 0)
            at[n++] = i, got++;
    got = 0;
    for (size_t i = b; i < t->n_lines && got < NEAR; i++)
        if (shape_of(fsc_text_line(t, i), t->lines[i].len) != 0)
            at[n++] = i, got++;
    return n;
}

/* Pairs sorted by shape, then break, made one entry a shape, its .brk the number of
 * breaks it stands near; the new count. */
static size_t count_breaks(near *p, size_t n)
{
    size_t w = 0, prev = 0; /* the break of the pair before */
    for (size_t i = 0; i < n; i++) {
        size_t brk = p[i].brk;
        if (w && p[w - 1].shape == p[i].shape)
            p[w - 1].brk += brk != prev;
        else
            p[w++] = (near){p[i].shape, 1};
        prev = brk;
    }
    return w;
}

/* Near how many breaks the shape h stands (count_breaks's entries). */
static size_t breaks_near(const near *p, size_t n, uint64_t h)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (p[mid].shape < h)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < n && p[lo].shape == h ? p[lo].brk : 0;
}

bool fsc_pages_strip(fsc_text *t, bool *changed)
{
    *changed = false;
    size_t *breaks = NULL, nb = 0, cap = 0;
    for (size_t i = 0; i < t->n_lines; i++) {
        if (t->lines[i].len && memchr(fsc_text_line(t, i), '\f', t->lines[i].len)) {
            size_t *b = FSC_PUSH(breaks, nb, cap);
            if (!b) {
                free(breaks);
                return false;
            }
            *b = i;
        }
    }
    if (!nb)
        return true;
    /* the shapes near the breaks, and near how many breaks each stands */
    near *pairs = NULL;
    size_t np = 0, pcap = 0;
    bool ok = true;
    bool pages = paged(breaks, nb); /* else form feeds, but no pages */
    for (size_t k = 0; k < nb && ok && pages; k++) {
        size_t at[2 * NEAR], n = near_lines(t, breaks[k], at);
        for (size_t j = 0; j < n && ok; j++) {
            near *e = FSC_PUSH(pairs, np, pcap);
            if (e)
                *e = (near){shape_of(fsc_text_line(t, at[j]), t->lines[at[j]].len), k + 1};
            ok = e != NULL;
        }
    }
    if (ok && np) {
        qsort(pairs, np, sizeof *pairs, cmp_near);
        np = count_breaks(pairs, np);
    }
    /* taken: a shape near two breaks and half of them at least, or a page's number;
     * the form feeds themselves go (a line of nothing else with them) */
    bool *take = ok ? calloc(t->n_lines, sizeof *take) : NULL;
    ok = ok && take;
    for (size_t k = 0; k < nb && ok; k++) {
        size_t at[2 * NEAR], n = pages ? near_lines(t, breaks[k], at) : 0;
        for (size_t j = 0; j < n; j++) {
            const char *s = fsc_text_line(t, at[j]);
            size_t len = t->lines[at[j]].len, near_breaks = breaks_near(pairs, np, shape_of(s, len));
            bool running = near_breaks >= 2 && near_breaks * 2 >= nb;
            if (!fio_like(s, len) && (running || page_number(s, len)))
                take[at[j]] = true;
        }
        fsc_line *l = &t->lines[breaks[k]];
        const char *s = fsc_text_line(t, breaks[k]);
        size_t a = 0, e = l->len;
        while (a < e && s[a] == '\f')
            a++;
        while (e > a && (s[e - 1] == '\f' || s[e - 1] == '\r'))
            e--;
        size_t b = a;
        while (b < e && s[b] == ' ')
            b++;
        if (b == e) {
            take[breaks[k]] = true;
        } else if (a || e < l->len) { /* "\fReport title": the next page's first line */
            l->off += a;
            l->len = (uint32_t)(e - a);
            *changed = true;
        }
    }
    size_t w = 0;
    for (size_t i = 0; i < t->n_lines && ok; i++) {
        if (take[i]) {
            *changed = true;
            continue;
        }
        t->lines[w++] = t->lines[i];
    }
    if (ok)
        t->n_lines = w;
    free(take);
    free(pairs);
    free(breaks);
    return ok;
}
