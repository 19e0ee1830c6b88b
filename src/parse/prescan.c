/* SPDX-License-Identifier: MIT */
/*
 * The pre-scan: does a document need normalizing at all? A log written by fio and
 * saved as it is holds only printable ASCII and only lines that fio prints, which
 * every step of normalize.c leaves untouched. Such a document is split into lines
 * in place (no copy) and its outline is known to be empty. Anything else (a tab, a
 * CR, a byte above 0x7E, markup or entity characters, a quoted or prefixed line,
 * prose, JSON, terse, a very long line) sends the document to normalize.c, so that
 * all of its repairs stay reachable.
 */
#include "fastline.h"

#include <stdlib.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/* Lines this long may be a flattened paste (normalize.c splits those from 240). */
enum { PRESCAN_MAX_LINE = 239 };

static inline const char *skip_sp(const char *p, const char *e)
{
    while (p < e && *p == ' ')
        p++;
    return p;
}

static inline bool starts(const char *p, const char *e, const char *lit, size_t n)
{
    return (size_t)(e - p) >= n && memcmp(p, lit, n) == 0;
}
#define STARTS(p, e, s) starts((p), (e), (s), sizeof(s) - 1)

static inline bool is_digit(char c)
{
    return (unsigned char)(c - '0') < 10;
}

static bool name_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || is_digit(c) || c == '_' || c == '-' ||
           c == '.' || c == '+';
}

/* "NAME: <what>": a job, job definition, layout or disk line. Returns what follows
 * the name's colon, or NULL. */
static const char *named(const char *p, const char *e)
{
    const char *q = p;
    while (q < e && name_char(*q))
        q++;
    return q > p && q < e && *q == ':' ? q : NULL;
}

/* Does the line [p, e) (p after its indentation) begin like a line of fio's output?
 * *title: it has no '=' and is not one of the kinds context.c knows as fio output,
 * so it could be a title or caption when blank lines surround it. */
static bool known_line(const char *p, const char *e, bool *title)
{
    const char *q;
    if (memchr(p, '=', (size_t)(e - p))) {
        /* result lines: never headings (context.c refuses a '=' in them) */
        bool lead = false;
        switch (*p) {
        case '|': lead = true; break;
        case 'c': lead = STARTS(p, e, "cpu") || STARTS(p, e, "complete") || STARTS(p, e, "clat"); break;
        case 's': lead = STARTS(p, e, "submit") || STARTS(p, e, "slat") || STARTS(p, e, "sync"); break;
        case 'I': lead = STARTS(p, e, "IO depths"); break;
        case 'i': lead = STARTS(p, e, "iops") || STARTS(p, e, "issued"); break;
        case 'b': lead = STARTS(p, e, "bw"); break;
        case 'l': lead = STARTS(p, e, "lat"); break;
        case 'r': lead = STARTS(p, e, "read"); break;
        case 'w': lead = STARTS(p, e, "write"); break;
        case 't': lead = STARTS(p, e, "trim"); break;
        case 'm': lead = STARTS(p, e, "mixed"); break;
        case 'R': lead = STARTS(p, e, "READ:"); break;
        case 'W': lead = STARTS(p, e, "WRITE:"); break;
        case 'T': lead = STARTS(p, e, "TRIM:"); break;
        case 'M': lead = STARTS(p, e, "MIXED:"); break;
        default: break;
        }
        if (lead)
            return true;
        q = named(p, e);
        return q && (STARTS(q, e, ": (groupid=") || STARTS(q, e, ": (g=") || STARTS(q, e, ": ios="));
    }
    /* lines without '=': only these exact kinds (none is a heading) */
    bool kind = false;
    switch (*p) {
    case 'f':
        kind = (STARTS(p, e, "fio-") && p + 4 < e && is_digit(p[4])) || STARTS(p, e, "fsync/fdatasync/sync_file_range");
        break;
    case 'S': kind = STARTS(p, e, "Starting ") && p + 9 < e && is_digit(p[9]); break;
    case '.': kind = STARTS(p, e, "..."); break;
    case 'R': kind = STARTS(p, e, "Run status group "); break;
    case 'D': kind = STARTS(p, e, "Disk stats "); break;
    case 'c': kind = STARTS(p, e, "clat percentiles ("); break;
    case 'l': kind = STARTS(p, e, "lat percentiles ("); break;
    case 's': kind = STARTS(p, e, "slat percentiles (") || STARTS(p, e, "sync percentiles ("); break;
    default: break;
    }
    if (kind)
        return true;
    q = named(p, e);
    if ((q && STARTS(q, e, ": Laying out IO file")) || (STARTS(p, e, "Description") && e[-1] == ']')) {
        *title = true;
        return true;
    }
    return false;
}

typedef struct scan {
    const char *data, *line; /* the document; the current line's start */
    fsc_text *out;
    uint32_t orig;
    bool first_text, heading, ok, nomem;
    bool prev_blank;    /* the line before was blank (or there was none) */
    bool title_pending; /* the line before could be a title or caption if this one is blank */
    unsigned qp_marks;  /* "=3D" seen: normalize.c reads >= 3 as quoted-printable */
} scan;

static void line_end(scan *sc, const char *e)
{
    const char *s = sc->line;
    sc->line = e + 1;
    size_t n = (size_t)(e - s);
    if (n > PRESCAN_MAX_LINE) {
        sc->ok = false;
        return;
    }
    const char *p = skip_sp(s, e);
    if (p < e) {
        bool title = false;
        if (!known_line(p, e, &title)) {
            sc->ok = false;
            return;
        }
        /* context.c: a title is the first text with a blank line (or the end) after
         * it, a caption a short line between blank lines: build the outline then */
        sc->title_pending = title && (sc->first_text || sc->prev_blank);
        sc->first_text = false;
        sc->prev_blank = false;
    } else {
        sc->heading = sc->heading || sc->title_pending;
        sc->title_pending = false;
        sc->prev_blank = true;
    }
    fsc_text *t = sc->out;
    fsc_line *l = FSC_PUSH(t->lines, t->n_lines, t->cap_lines);
    if (!l) {
        sc->ok = false;
        sc->nomem = true;
        return;
    }
    l->off = (size_t)(s - sc->data);
    l->len = (uint32_t)n;
    l->orig = ++sc->orig;
    l->flags = 0;
}

/* A byte that asks for normalization: controls (tab, CR, NUL...), DEL, anything above
 * 0x7E (UTF-8, a BOM, NBSP), entity and markup characters. */
static inline bool bad_byte(unsigned char c)
{
    return c < 0x20 || c >= 0x7F || c == '&' || c == '<' || c == '*' || c == '`';
}

/* A rare byte that needs a look at its neighbours: ';' (";fio-": a terse record glued
 * in) and 'D' ("=3D": quoted-printable). */
static inline void rare_byte(scan *sc, const char *p, const char *end)
{
    if (*p == ';') {
        if (starts(p, end, ";fio-", 5))
            sc->ok = false;
    } else if (p - sc->data >= 2 && p[-1] == '3' && p[-2] == '=') {
        if (++sc->qp_marks >= 3)
            sc->ok = false;
    }
}

bool fsc_prescan(const fsc_fastpath *fp, const char *data, size_t len, uint32_t first_line,
                 fsc_text *out, bool *headings, fsc_status *st)
{
    *st = FSC_OK;
    *headings = false;
    memset(out, 0, sizeof *out);
    if (!fp)
        return false;
    scan sc = {data, data, out, first_line, true, false, true, false, true, false, 0};
    /* lines: about one per 50 bytes of fio text */
    size_t guess = len / 48 + 16;
    out->lines = malloc(guess * sizeof *out->lines);
    if (!out->lines) {
        *st = FSC_E_NOMEM;
        return false;
    }
    out->cap_lines = guess;
    const char *p = data, *end = data + len;
#if defined(__SSE2__)
    const __m128i nl = _mm_set1_epi8('\n'), space = _mm_set1_epi8(0x20), del = _mm_set1_epi8(0x7F);
    const __m128i amp = _mm_set1_epi8('&'), lt = _mm_set1_epi8('<'), star = _mm_set1_epi8('*');
    const __m128i tick = _mm_set1_epi8('`'), semi = _mm_set1_epi8(';'), dee = _mm_set1_epi8('D');
    while (sc.ok && end - p >= 16) {
        __m128i x = _mm_loadu_si128((const __m128i *)(const void *)p);
        /* signed compare: bytes >= 0x80 are negative, so "< 0x20" takes them too */
        __m128i bad = _mm_or_si128(_mm_cmplt_epi8(x, space), _mm_cmpeq_epi8(x, del));
        bad = _mm_or_si128(bad, _mm_or_si128(_mm_cmpeq_epi8(x, amp), _mm_cmpeq_epi8(x, lt)));
        bad = _mm_or_si128(bad, _mm_or_si128(_mm_cmpeq_epi8(x, star), _mm_cmpeq_epi8(x, tick)));
        unsigned nlm = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(x, nl));
        unsigned badm = (unsigned)_mm_movemask_epi8(bad) & ~nlm;
        if (badm) {
            sc.ok = false;
            break;
        }
        unsigned rare = (unsigned)_mm_movemask_epi8(_mm_or_si128(_mm_cmpeq_epi8(x, semi), _mm_cmpeq_epi8(x, dee)));
        while (rare) {
            rare_byte(&sc, p + __builtin_ctz(rare), end);
            rare &= rare - 1;
        }
        while (nlm && sc.ok) {
            line_end(&sc, p + __builtin_ctz(nlm));
            nlm &= nlm - 1;
        }
        p += 16;
    }
#endif
    for (; sc.ok && p < end; p++) {
        unsigned char c = (unsigned char)*p;
        if (c == '\n') {
            line_end(&sc, p);
            continue;
        }
        if (bad_byte(c))
            sc.ok = false;
        else if (c == ';' || c == 'D')
            rare_byte(&sc, p, end);
    }
    if (sc.ok && sc.line < end) /* the last line has no newline */
        line_end(&sc, end);
    if (sc.title_pending) /* ... or the end of the text */
        sc.heading = true;
    if (!sc.ok) {
        if (sc.nomem)
            *st = FSC_E_NOMEM;
        free(out->lines);
        memset(out, 0, sizeof *out);
        return false;
    }
    /* the lines point into data: the store borrows it (fsc_prescan_release) */
    out->store.data = (char *)data;
    out->store.len = len;
    *headings = sc.heading;
    return true;
}

void fsc_prescan_release(fsc_text *t)
{
    memset(&t->store, 0, sizeof t->store);
}
