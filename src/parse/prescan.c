/* SPDX-License-Identifier: MIT */
/*
 * The pre-scan: does a document need normalizing at all? A log written by fio and
 * saved as it is holds only printable ASCII and only lines that fio prints, which
 * every step of normalize.c leaves untouched. Such a document is split into lines
 * in place (no copy) and its outline is known to be empty. Anything else (a tab, a
 * CR, a byte above 0x7E, markup or entity characters, a quoted or prefixed line,
 * prose, JSON, terse, a very long line) sends the document to normalize.c, so that
 * all of its repairs stay reachable.
 *
 * Where the processor has AVX2, the text goes by chunks of up to 4 KiB: first its
 * bytes (the newlines and '=' of each 64, the few bytes that need a look), then its
 * lines, most of them by "the quick way": a line that begins with one of fio's
 * forms (quick_table) or with a name is taken on a compare of its first bytes, as
 * line_fast and line_end would take it; every other line goes their way.
 */
#define _GNU_SOURCE /* memmem */
#include "fastline.h"
#include "parse_int.h"
#include "prefix.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/* Lines this long may be a flattened paste (normalize.c splits those from 240). */
enum { PRESCAN_MAX_LINE = 239 };

static inline const char *skip_sp(const char *p, const char *e)
{
    return fsc_skip_spaces(p, e);
}

/* The end of the indentation of the line [s, e) (e: its newline, or the end of the
 * document), where the document goes on to end: up to 8 spaces (most of fio's
 * indentation) by one word, read past the line when the document has those bytes
 * (the newline, not a space, stops it at e). */
static inline __attribute__((always_inline)) const char *indent_end(const char *s, const char *e, const char *end)
{
    if (end - s < 8)
        return skip_sp(s, e);
    uint64_t x = fsc_load_le64(s) ^ 0x2020202020202020ULL; /* zero bytes where the spaces are */
    return x ? s + (__builtin_ctzll(x) >> 3) : skip_sp(s + 8, e);
}

/* always inlined: n is then a constant, and so is memcmp's length (compared in place) */
static inline __attribute__((always_inline)) bool starts(const char *p, const char *e, const char *lit, size_t n)
{
    return (size_t)(e - p) >= n && fsc_same_bytes(p, lit, n);
}
#define STARTS(p, e, s) starts((p), (e), (s), sizeof(s) - 1)

static inline bool is_digit(char c)
{
    return (unsigned char)(c - '0') < 10;
}


/* "NAME: <what>": a job, job definition, layout or disk line. Returns what follows
 * the name's colon, or NULL. */
static const char *named(const char *p, const char *e)
{
    const char *q = p;
    while (q < e && fsc_name_char(*q))
        q++;
    return q > p && q < e && *q == ':' ? q : NULL;
}

/* Does fio's word of k bytes at p end there ("read: IOPS=", not "read.log:")? */
static inline bool word_ends(const char *p, const char *e, size_t k)
{
    return p + k >= e ? p + k == e : fsc_fio_word_end(p[k]);
}

/* The first 4 bytes of p as one word, to compare leads at once. */
static inline uint32_t word4(const char *p)
{
    return fsc_load_le32(p);
}
#define W4(a, b, c, d) ((uint32_t)(unsigned char)(a) | (uint32_t)(unsigned char)(b) << 8 | \
                        (uint32_t)(unsigned char)(c) << 16 | (uint32_t)(unsigned char)(d) << 24)

/* The leading words of fio's result lines, by a perfect hash of their first four
 * bytes (EQ_HASH: no two share a slot; -Woverride-init would tell). len 1: the four
 * bytes say it all ("cpu ", "bw ("); 4 to 8: the word of that length, whose last
 * four bytes are tail, must end there ("read" but not "read.log", "write" but not
 * "writes"); 0: a free slot. */
#define EQ_HASH(w) ((uint32_t)((uint32_t)(w) * 0xF2BDC97Fu) >> 27)
typedef struct eq_word_ent {
    uint32_t key, tail;
    uint32_t len;
} eq_word_ent;
#define EQ_ANY(a, b, c, d) [EQ_HASH(W4(a, b, c, d))] = {W4(a, b, c, d), 0, 1}
#define EQ_W4(a, b, c, d) [EQ_HASH(W4(a, b, c, d))] = {W4(a, b, c, d), W4(a, b, c, d), 4}
#define EQ_LONG(a, b, c, d, w, x, y, z, n) [EQ_HASH(W4(a, b, c, d))] = {W4(a, b, c, d), W4(w, x, y, z), n}
static const eq_word_ent eq_words[32] = {
    EQ_ANY('c', 'p', 'u', ' '),  EQ_ANY('I', 'O', ' ', 'd'), EQ_ANY('b', 'w', ' ', '('), EQ_ANY('l', 'a', 't', ' '),
    EQ_W4('c', 'l', 'a', 't'),   EQ_W4('s', 'l', 'a', 't'),  EQ_W4('s', 'y', 'n', 'c'),  EQ_W4('i', 'o', 'p', 's'),
    EQ_W4('r', 'e', 'a', 'd'),   EQ_W4('t', 'r', 'i', 'm'),  EQ_W4('R', 'E', 'A', 'D'),  EQ_W4('T', 'R', 'I', 'M'),
    EQ_LONG('c', 'o', 'm', 'p', 'l', 'e', 't', 'e', 8), /* complete */
    EQ_LONG('s', 'u', 'b', 'm', 'b', 'm', 'i', 't', 6), /* submit */
    EQ_LONG('i', 's', 's', 'u', 's', 'u', 'e', 'd', 6), /* issued */
    EQ_LONG('l', 'a', 't', 'e', 'e', 'n', 'c', 'y', 7), /* latency */
    EQ_LONG('w', 'r', 'i', 't', 'r', 'i', 't', 'e', 5), /* write */
    EQ_LONG('m', 'i', 'x', 'e', 'i', 'x', 'e', 'd', 5), /* mixed */
    EQ_LONG('W', 'R', 'I', 'T', 'R', 'I', 'T', 'E', 5), /* WRITE */
    EQ_LONG('M', 'I', 'X', 'E', 'I', 'X', 'E', 'D', 5), /* MIXED */
};

/* Does the line [p, e) (p at its '|') hold a whole percentile row's first item
 * ("|  1.00th=[")? Only then is the bar fio's both to normalize.c (not a mail's
 * quote mark: fsc_pctl_item_at) and to prefix.c (a row's keyword, nothing before
 * it); any other bar sends the document to normalize.c. */
static inline __attribute__((always_inline)) bool pctl_row(const char *p, const char *e)
{
    const char *q = skip_sp(p + 1, e), *d = q;
    if (e - q < 9 || !is_digit(*q))
        goto slow;
    /* fio's items: "1.00th=[", "99.95th=[" (asked of every row: the loop is the rule) */
    if (q[1] == '.' && is_digit(q[2]) && is_digit(q[3]) && fsc_load_le32(q + 4) == W4('t', 'h', '=', '['))
        return true;
    if (is_digit(q[1]) && q[2] == '.' && is_digit(q[3]) && is_digit(q[4]) &&
        fsc_load_le32(q + 5) == W4('t', 'h', '=', '['))
        return true;
slow:
    while (d < e && (is_digit(*d) || *d == '.'))
        d++;
    return d > q && is_digit(*q) && STARTS(d, e, "th=[");
}

/* Is the line [p, e) a terse record that find_structured reads, or the head of one
 * (a record cut or wrapped: "3;fio-3.33;...")? */
__attribute__((noinline)) static bool terse_record(const char *p, const char *e)
{
    /* "3;fio-3.33;...": a record's head (cut or wrapped ones too), never a title */
    return fsc_terse_head(p, (size_t)(e - p)) || fsc_terse_detect(p, (size_t)(e - p)) != 0;
}

/* After fio's ':' at l, a space and the start of a key or a depth ("usr=", "1=")? */
static inline bool key_after_colon(const char *l, const char *e)
{
    return e - l > 2 && l[1] == ' ' && ((unsigned)((l[2] | 0x20) - 'a') < 26u || is_digit(l[2]));
}

/* After fio's ':' at l: not a space and a key or a depth and its '=' ("usr=", "1=",
 * "IOPS=", "bw="), but a header's " (g" or a name's rest ("READ:  2: (g=0)",
 * "READ: x: (g=0)", "cpu :)")? */
static inline bool colon_goes_on(const char *l, const char *e)
{
    if (!key_after_colon(l, e))
        return true;
    const char *k = l + 2;
    while (k < e && ((unsigned)((*k | 0x20) - 'a') < 26u || is_digit(*k)))
        k++;
    return k == l + 2 || k == e || *k != '='; /* "READ: x: (g=0)": a word, then no '=' */
}

/* After fio's word at p (k bytes): spaces and fio's ':' ("cpu          : usr=") or
 * its unit ("lat (usec)"), or more (a name that begins with the word may go on
 * there: "submit  : (groupid=" is a name and its header's colon, "cpu (: (g=0)",
 * "cpu :): (g=0)" and "lat (usec) info: (g=0)" names). */
static inline bool word_goes_on(const char *p, const char *e, size_t k)
{
    const char *l = skip_sp(p + k, e);
    if (l == e)
        return false;
    if (*l == '(') {
        if (!(e - l >= 6 && (l[1] == 'u' || l[1] == 'n' || l[1] == 'm') && !memcmp(l + 2, "sec)", 4)))
            return true;
        l = skip_sp(l + 6, e); /* fio's unit, then its ':' ("lat (usec)   : 50=...") */
        if (l == e)
            return false;
    }
    /* fio's ':' and a space and a key: asked no further (cpu, iops, depths lines) */
    return *l != ':' || !key_after_colon(l, e);
}

/* Is the line [p, e), which begins with one of fio's words, a job's line whose name
 * begins with that word ("read info: (groupid=0, ...", "cpu x: (g=0): ...")? Then
 * known_line reads it as a named line (normalize.c splits such a header when the
 * next line was glued to it). */
__attribute__((noinline)) static bool job_named_so(const char *p, const char *e)
{
    /* its "(g" after ": ": fio's lines of values hold a '(' or two, if any */
    for (const char *q = p; (q = memchr(q, '(', (size_t)(e - q))) != NULL; q++)
        if (q - p >= 2 && q[-1] == ' ' && q[-2] == ':' && e - q > 1 && q[1] == 'g')
            return true;
    return false;
}

/* Of a line with a '=' that begins at p (after its indentation) with a percentile
 * row's '|' or one of fio's words: is it fio's (1) or not (0)? -1: it begins
 * otherwise (known_line looks further). Shared by known_line and line_fast. The
 * whole word is asked for, so that nothing but fio's word stands before what
 * prefix.c would take for a keyword. */
static inline __attribute__((always_inline)) int eq_word(const char *p, const char *e)
{
    if (*p == '|')
        return pctl_row(p, e);
    if (e - p < 4)
        return -1;
    uint32_t w = word4(p);
    const eq_word_ent *t = &eq_words[EQ_HASH(w)];
    if (t->key != w || !t->len)
        return -1;
    if (t->len == 1) { /* "cpu x: (groupid=...", "IO dx: (g=0): ...", "bw (a: (g=0): ..." */
        bool ask = w == W4('b', 'w', ' ', '(') ||
                   (w == W4('I', 'O', ' ', 'd') ? !STARTS(p, e, "IO depths") || word_goes_on(p, e, 9)
                                               : word_goes_on(p, e, 4));
        return ask && job_named_so(p, e) ? -1 : 1;
    }
    if (!(e - p >= t->len && fsc_load_le32(p + t->len - 4) == t->tail && word_ends(p, e, t->len)))
        return false;
    /* "read info: (groupid=0, ...", "sync 1: (g=0): ...", "read+write: (g=0)",
     * "submit  : (groupid=0, ...": a name that begins with fio's word and goes on
     * (fio's own "issued rwts:", "clat prio 0/0 (usec):" are asked too) */
    if (e - p > t->len + 1 && p[t->len] != ':' && (p[t->len] != ' ' || word_goes_on(p, e, t->len)) &&
        job_named_so(p, e))
        return -1;
    /* "READ:  2: (g=0)": fio's word and its colon, then more of a name */
    if (e - p > t->len && p[t->len] == ':' && colon_goes_on(p + t->len, e) && job_named_so(p, e))
        return -1;
    /* "read: (groupid=0, ..." or "write: (g=0): ...": a job named as fio's word, whose
     * line is a job line (known_line's names; indented, a paste to dedent); so is
     * "READ:: (g=0)" to fsc_fio_margin_line, whose name runs to the first space */
    if (e - p > t->len && p[t->len] == ':') {
        const char *sp = p + t->len + 1;
        while (sp < e && *sp != ' ')
            sp++;
        if (e - sp >= 2 && sp[-1] == ':' && sp[1] == '(')
            return -1;
    }
    return true;
}

/* Does the line [p, e) (p after its indentation) begin like a line of fio's output?
 * eq: it holds a '='. *title: it has no '=' and is not one of the kinds context.c
 * knows as fio output, so it could be a title or caption when blank lines surround
 * it (cand: they may, else *title need not be worked out). *named: it begins with a
 * name or other text, not with one of fio's words (prefix.c's fio_start), so a fio
 * keyword further on would make it a prefixed line to prefix.c. */
static inline __attribute__((always_inline)) bool known_line(const char *p, const char *e, bool eq, bool cand,
                                                           bool *title, bool *json, bool *named_line)
{
    const char *q;
    /* fio JSON: "key" : value, braces; a document starts at a '{' line (then the
     * reader looks for it: *json). A member line not ending in ',' '{' '[' could be
     * a caption to context.c. '[' lines are not taken ("[-- Attachment"). */
    switch (*p) {
    case '{':
        /* a JSON log's line ({"log":"  read: ..."}): its text is normalize.c's; a
         * wiki's tag ("{code}", "{noformat}"), not JSON, too */
        if (e[-1] == '}' && e - p > 2 && fsc_jsonlog_maybe(p, (size_t)(e - p)))
            return false;
        if (e - p > 1 && ((p[1] | 0x20) >= 'a' && (p[1] | 0x20) <= 'z'))
            return false;
        *json = true;
        return true;
    case '2':
    case '3':
    case '4':
    case '5':
        /* a terse record "3;fio-3.33;..." (find_structured reads it: *json stands
         * for both; normalize.c leaves a record at the start of its line alone) */
        /* not a record nor a record's head ("2;r", "3;    clat (usec): ..."): a
         * title to context.c, or a prefix to normalize.c, which reads fio's line
         * behind it; not clean */
        if (e - p > 1 && p[1] == ';' && terse_record(p, e)) {
            *json = true;
            return true;
        }
        return false;
    case ';': /* the description line of a terse v2 record */
        *json = true;
        *title = true;
        *named_line = true;
        return true;
    case '}':
    case ']':
        return true;
    case '"': {
        /* a JSON member begins as fio's own to prefix.c; any other quoted line
         * may hide a prefix */
        *named_line = !fsc_json_member(p, e);
        if (!cand)
            return true;
        const char *t = e;
        while (t > p + 1 && t[-1] == ' ')
            t--;
        *title = t[-1] != ',' && t[-1] != '{' && t[-1] != '[';
        return true;
    }
    default:
        break;
    }
    if (eq) {
        /* result lines: never headings (context.c refuses a '=' in them) */
        int w = eq_word(p, e);
        if (w >= 0)
            return w;
        q = named(p, e);
        *named_line = true;
        return q && (STARTS(q, e, ": (groupid=") || STARTS(q, e, ": (g=") || STARTS(q, e, ": ios="));
    }
    /* lines without '=': only these exact kinds (none is a heading) */
    *named_line = true; /* but for "Run status", "Disk stats" and "... percentiles" */
    if (e - p >= 4) {
        switch (word4(p)) {
        case W4('f', 'i', 'o', '-'): if (p + 4 < e && is_digit(p[4])) return true; break;
        case W4('f', 's', 'y', 'n'): if (STARTS(p, e, "fsync/fdatasync/sync_file_range")) return true; break;
        case W4('S', 't', 'a', 'r'): if (STARTS(p, e, "Starting ") && p + 9 < e && is_digit(p[9])) { *named_line = false; return true; } break;
        case W4('R', 'u', 'n', ' '): if (STARTS(p, e, "Run status group ")) { *named_line = false; return true; } break;
        case W4('D', 'i', 's', 'k'): if (STARTS(p, e, "Disk stats ")) { *named_line = false; return true; } break;
        case W4('c', 'l', 'a', 't'): if (STARTS(p, e, "clat percentiles (")) { *named_line = false; return true; } break;
        case W4('l', 'a', 't', ' '): if (STARTS(p, e, "lat percentiles (")) { *named_line = false; return true; } break;
        case W4('s', 'l', 'a', 't'): if (STARTS(p, e, "slat percentiles (")) { *named_line = false; return true; } break;
        case W4('s', 'y', 'n', 'c'): if (STARTS(p, e, "sync percentiles (")) { *named_line = false; return true; } break;
        default: break;
        }
    }
    if (STARTS(p, e, "..."))
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
    bool first_text;    /* no text yet */
    bool prev_blank;    /* the line before was blank (or there was none) */
    bool title_pending; /* the line before could be a title or caption if this one is blank */
    bool spare;         /* (the three above and this: one word, stored at once) */
    bool heading, ok, nomem, json;
    unsigned qp_marks;  /* "=3D" seen: normalize.c reads >= 3 as quoted-printable */
    bool cut;           /* the line being ended is the last and has no newline */
    const char *end;    /* the end of the document */
    bool tolerant;      /* (a verdict only, no lines) other lines go on: odd_line */
    bool odd;           /* a line that is not fio's was passed over (tolerant) */
    bool mime;          /* one of them was a MIME header (tolerant) */
    bool checked;       /* a piece of a text whose lines were all asked already (fsc_doc.checked) */
    /* the last layout line ([0]) and job definition ([1]) named_kind took (their
     * starts in this part, or NULL) */
    const char *named_seen[2];
    uint32_t named_seen_len[2];
} scan;

/* Is [p, e) a MIME header line that sets how the text below it reads ("Content-Type:
 * text/plain; format=flowed", "Content-Transfer-Encoding:", a "boundary=")? */
static bool mime_line(const char *p, const char *e)
{
    size_t n = (size_t)(e - p);
    return (n >= 8 && !strncasecmp(p, "content-", 8)) || memmem(p, n, "boundary=", 9);
}

/* The line [p, e) just ended is not one of fio's (nor one normalize.c would leave
 * alone in fio's text: an indented margin line, a prefixed one). The scan ends there,
 * but for a tolerant one (fsc_plain_check_new(true)), which only notes it and reads
 * on as after a line of text: whether the text is fio's with other plain lines among
 * it. A MIME header is noted too: a mail's state runs on from it to lines below. */
__attribute__((noinline, cold)) static void odd_line(scan *sc, const char *p, const char *e)
{
    if (!sc->tolerant) {
        sc->ok = false;
        return;
    }
    sc->mime = sc->mime || mime_line(p, e);
    sc->odd = true;
    sc->title_pending = false;
    sc->first_text = false;
    sc->prev_blank = false;
}

/* A last line without its newline that begins like a result line but has no '='
 * yet: a log cut short (copied while fio wrote it, a slice of a file), its '=' and
 * the rest lost. normalize.c leaves it as it leaves the whole line (nothing of its
 * steps looks for a missing '='), but without a '=' it may be a heading to
 * context.c: a title or caption on its own (sc->title_pending), or a command line
 * under which the line before is a caption: the outline is built then. */
__attribute__((noinline, cold)) static bool cut_result_line(scan *sc, const char *p, const char *e, bool *title,
                                                                  bool *named_line)
{
    if (!known_line(p, e, true, true, title, &sc->json, named_line))
        return false;
    *title = true;
    if (memchr(p, '$', (size_t)(e - p)) || memchr(p, '#', (size_t)(e - p)) || memchr(p, '>', (size_t)(e - p)))
        sc->heading = true; /* a prompt: maybe a command (context.c is_command) */
    return true;
}

/* The line s[0, n) goes into the line array (none for the verdict alone,
 * fsc_prescan_plain_fio); eq: it holds a '=' (a line of values: cutline.c's lengths
 * count those only). */
static inline void record_line(scan *sc, const char *s, size_t n, bool eq)
{
    fsc_text *t = sc->out;
    if (!t)
        return;
    fsc_line *l;
    if (t->n_lines < t->cap_lines) {
        l = &t->lines[t->n_lines++];
    } else if (!(l = FSC_PUSH(t->lines, t->n_lines, t->cap_lines))) {
        sc->ok = false;
        sc->nomem = true;
        return;
    }
    l->off = (size_t)(s - sc->data);
    l->len = (uint32_t)n;
    l->orig = ++sc->orig;
    l->flags = 0;
    l->lead = 0;
    l->tag = 0;
    if (eq)
        fsc_line_stats_add(&t->stats, t->n_lines - 1, n);
}

/* Does the line's text from p (after its indentation) to e hold a closing bracket or
 * a JSON member? */
static inline bool json_inner_at(const char *p, const char *e)
{
    if (p >= e)
        return false;
    if (*p == '}' || *p == ']')
        return true;
    return *p == '"' && fsc_json_member(p, e);
}

/* json_inner_line's test of the line [s, e) itself, a byte at a time: up to 15
 * spaces, then a closing bracket or a member. Near the end of the bytes, where the
 * words cannot be read, and for line_end, so that a line is judged the same wherever
 * it falls in the text and in its parts (fsc_plain_check). */
static bool json_inner_slow(const char *s, const char *e)
{
    const char *p = s;
    while (p < e && *p == ' ' && p - s < 16)
        p++;
    return p - s < 16 && json_inner_at(p, e);
}

/* Most lines of a fio JSON document: a member ("key" : value, as fsc_json_member
 * sees it) or a closing bracket, after a line of text. known_line takes them with
 * nothing to note (no title: they are no candidates; no name, no JSON start), so
 * line_end would only record them: this is asked first, and is false for anything
 * else (line_end's whole way). */
static inline bool json_inner_line(const scan *sc, const char *s, const char *e, const char *end)
{
    if (sc->first_text || sc->prev_blank || e - s > PRESCAN_MAX_LINE)
        return false;
    if (end - s < 16) /* the two words below would read past the data */
        return json_inner_slow(s, e);
    /* the indentation (a JSON document's: up to some 16 spaces), a word at a time;
     * the line's '\n' at e stops it */
    const char *p = s;
    uint64_t x = fsc_load_le64(p) ^ 0x2020202020202020ULL;
    if (!x) {
        p += 8;
        x = fsc_load_le64(p) ^ 0x2020202020202020ULL;
        if (!x)
            return false;
    }
    p += __builtin_ctzll(x) >> 3;
    return json_inner_at(p, e);
}

/* Does the line [s, e) end with a forum's or a wiki's tag ("...util=49.21%[/code]",
 * "{code}")? normalize.c takes it off: such a line is not clean. (Not a JSON member's
 * or closing bracket's line, which normalize.c leaves as it is.) */
static inline __attribute__((always_inline)) bool tag_end(const char *s, const char *e)
{
    /* a tag's name or parameter before its bracket: a letter (a percentile's "[16188]",
     * JSON's "}" have none) */
    return ((unsigned char)e[-1] & 0xDF) == ']' /* or '}' */ && e - s >= 3 &&
           (unsigned char)((e[-2] | 0x20) - 'a') < 26 && fsc_ends_in_markup_tag(s, (size_t)(e - s));
}

/* Record the line [sc->line, e) that json_inner_line took. */
static inline void line_keep(scan *sc, const char *e)
{
    const char *s = sc->line;
    sc->line = e + 1;
    sc->title_pending = false; /* the line before was no title: text follows it */
    record_line(sc, s, (size_t)(e - s), false); /* JSON: the lengths are cutline.c's own */
}

/* The line from sc->line to e (a '\n' or the end) ends; eq: it holds a '='. */
static inline void line_end(scan *sc, const char *e, bool eq)
{
    const char *s = sc->line;
    /* what json_inner_line takes in the vector loop, taken here too */
    if (sc->json && !sc->first_text && !sc->prev_blank && e - s <= PRESCAN_MAX_LINE && json_inner_slow(s, e)) {
        line_keep(sc, e);
        return;
    }
    sc->line = e + 1;
    size_t n = (size_t)(e - s);
    /* a long line may be a flattened paste: normalize.c splits it before fio's
     * keywords, each after a space. A terse record (a line of up to a few thousand
     * bytes) has no space in it, unless it was glued to other text or its job name
     * has one: those go to normalize.c too */
    if (n > PRESCAN_MAX_LINE && !(s[0] >= '2' && s[0] <= '5' && s[1] == ';' && !memchr(s, ' ', n))) {
        sc->ok = false; /* for a tolerant scan too: one such line changes how others read */
        return;
    }
    const char *p = indent_end(s, e, sc->end);
    if (p < e) {
        bool title = false, named_line = false;
        if (!known_line(p, e, eq, sc->first_text || sc->prev_blank, &title, &sc->json, &named_line) &&
            !(sc->cut && !eq && cut_result_line(sc, p, e, &title, &named_line))) {
            odd_line(sc, p, e);
            return;
        }
        /* one of fio's margin lines indented: an indented paste, which normalize.c
         * takes the indentation off; a tag at its end */
        if ((p > s && fsc_fio_margin_line(p, (size_t)(e - p))) || tag_end(p, e)) {
            odd_line(sc, p, e);
            return;
        }
        /* prefix.c strips what stands before a fio keyword on a line that does not
         * begin as fio's own ("read.log:  read: IOPS=", "; lat (usec): min=", a
         * job header with a percentile row pasted after it): such a document is not
         * clean. Only the few lines that begin otherwise (job and group headers,
         * disk lines, "fio-3.33"...: named_line) are looked into */
        if (named_line && fsc_fio_keyword_maybe(p, (size_t)(e - p), (size_t)(sc->end - p)) &&
            fsc_fio_keyword_at(p, (size_t)(e - p)) > 0) {
            odd_line(sc, p, e);
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
    record_line(sc, s, n, eq);
}

/* Most lines of fio's text: a result line (it holds a '=') that begins with one of
 * fio's words or a percentile row's '|', which known_line takes with nothing to note
 * (no name, no title, no JSON): recorded at once, without line_end's way (its calls
 * and the registers they need). False: nothing done, line_end's turn. */
static inline __attribute__((always_inline)) bool line_fast(scan *sc, const char *e)
{
    const char *s = sc->line;
    if ((size_t)(e - s) > PRESCAN_MAX_LINE)
        return false;
    const char *p = indent_end(s, e, sc->end);
    if (p == e || eq_word(p, e) != 1 || tag_end(p, e))
        return false; /* line_end's: it is not clean */
    sc->line = e + 1;
    sc->title_pending = false; /* known_line's title: false */
    sc->first_text = false;
    sc->prev_blank = false;
    record_line(sc, s, (size_t)(e - s), true);
    return true;
}

/* A byte that asks for normalization: controls (tab, CR, NUL...), DEL, anything above
 * 0x7E (UTF-8, a BOM, NBSP), entity and markup characters, a backslash (a string's
 * escape: output kept as a literal, strlit.c) and an apostrophe (a Python list of
 * lines). */
static inline bool bad_byte(unsigned char c)
{
    return c < 0x20 || c >= 0x7F || c == '&' || c == '<' || c == '*' || c == '`' || c == '\\' || c == '\'';
}

/* A terminal's code was seen: normalize.c takes it off its line, as it takes a raw
 * ESC (bytes_tolerated): a tolerant scan reads on, and the text is simple at best. */
static inline void term_code(scan *sc)
{
    if (sc->tolerant)
        sc->odd = true;
    else
        sc->ok = false;
}

/* A rare byte that needs a look at its neighbours: ';' (";fio-" not at the start of
 * a line: a terse record glued to other text), 'D' ("=3D": quoted-printable), '_'
 * opening a word (Markdown's emphasis "_IOPS=10.9k_", which normalize.c takes off
 * in a text that has one: fio's own underscores stand inside words, "in_queue"), and
 * what is left of a terminal's colour code where its ESC is shown ("^[[1m", cat -v,
 * less) or was lost ("[1;32m", "[0K"), which normalize.c takes off (terminal.c) even
 * inside a line of fio's ("IOPS=^[[1m14.4k^[[0m"). fio's own '[' is followed by a
 * space or by digits and ']' ("th=[16188]"); '>' comes along ('^' shares its class). */
static inline void rare_byte(scan *sc, const char *p, const char *end)
{
    switch (*p) {
    case ';':
        if (starts(p, end, ";fio-", 5) && !(p - sc->data >= 1 && p[-1] >= '3' && p[-1] <= '5' &&
                                            (p - sc->data == 1 || p[-2] == '\n')))
            sc->ok = false;
        break;
    case 'D':
        if (p - sc->data >= 2 && p[-1] == '3' && p[-2] == '=' && ++sc->qp_marks >= 3)
            sc->ok = false;
        break;
    case '_':
        if (p == sc->data || p[-1] == ' ' || p[-1] == '\n' || p[-1] == '(')
            term_code(sc); /* the same verdict: normalized, simple at best */
        break;
    case '^':
        if (end - p >= 2 && p[1] == '[')
            term_code(sc);
        break;
    case '[': {
        const char *q = p + 1;
        if (q == end || !is_digit(*q))
            break;
        /* up to 8 digits at once (fio's "[16188]"): the first byte of q[0, 8) that is
         * none, by its high nibble or its low one (a carry from below comes from a byte
         * that is none, past the first); a ';' there is the loop's */
        if (end - q >= 8) {
            uint64_t x = fsc_load_le64(q) ^ 0x3030303030303030ULL;
            uint64_t other = (x | (x + 0x0606060606060606ULL)) & 0xF0F0F0F0F0F0F0F0ULL;
            if (other && q[__builtin_ctzll(other) >> 3] != ';') {
                q += __builtin_ctzll(other) >> 3;
                if (*q == 'm' || *q == 'K')
                    term_code(sc);
                break;
            }
        }
        while (q < end && (is_digit(*q) || *q == ';'))
            q++;
        if (q < end && (*q == 'm' || *q == 'K'))
            term_code(sc);
        break;
    }
    default: /* '>', '?' */
        break;
    }
}

/* May a tolerant scan read on past the bad bytes of p (bit i: p[i])? Only tabs and
 * CRs (a Windows log's CRLF, a progress line's lone CR), a terminal's ESC, BEL and
 * backspace (a coloured CI log), the bytes of UTF-8 (a heading "Résultats", a
 * "µs", an NBSP), backslashes and apostrophes (a string literal: strlit.c reads
 * its line alone): normalizing changes them in their own line. They make the text
 * simple at best (sc->odd). */
__attribute__((noinline, cold)) static bool bytes_tolerated(scan *sc, const char *p, uint64_t bad)
{
    if (!sc->tolerant)
        return false;
    for (; bad; bad &= bad - 1) {
        unsigned char c = (unsigned char)p[__builtin_ctzll(bad)];
        if (c != '\r' && c != '\t' && c != 0x1b && c != 0x07 && c != 0x08 && c != '\\' && c != '\'' && c < 0x80)
            return false;
    }
    sc->odd = true;
    return true;
}

/* One block of the vector loop: the bit masks of its newlines, of its bad bytes and
 * of the bytes that need a look (bad or rare, newlines left out), and of its '='
 * (bit i = byte i; blocks of up to 64 bytes). bad need only be worked out when look
 * is not 0 (rare in fio's text, but every ';' of a terse record). Ends the lines of
 * the block; *eq_carry says whether the line still open holds a '='. Returns false
 * to stop. */
static inline __attribute__((always_inline)) bool block(scan *sc, const char *p, const char *end, uint64_t nlm,
                                                        uint64_t bad, uint64_t look, uint64_t eqm, bool *eq_carry,
                                                        bool checked)
{
    if (look) {
        if (bad && !bytes_tolerated(sc, p, bad)) {
            sc->ok = false;
            return false;
        }
        /* the rare bytes: a checked piece's were looked at by the whole text's check,
         * as its lines were */
        for (look = checked ? 0 : look & ~bad; look; look &= look - 1)
            rare_byte(sc, p + __builtin_ctzll(look), end);
    }
    /* only line_end changes sc->json, or sc->ok (but for a failed allocation, which
     * block() returns when its lines are done) */
    bool json = sc->json;
    for (; nlm; nlm &= nlm - 1) {
        unsigned k = (unsigned)__builtin_ctzll(nlm);
        uint64_t before = (1ULL << k) - 1;
        bool eq = *eq_carry || (eqm & before);
        *eq_carry = false;
        eqm &= ~before;
        if (checked && (size_t)(p + k - sc->line) <= PRESCAN_MAX_LINE) { /* its kind is known */
            const char *s = sc->line;
            sc->line = p + k + 1;
            record_line(sc, s, (size_t)(p + k - s), eq);
        } else if (json && json_inner_line(sc, sc->line, p + k, end)) /* JSON seen: its lines */
            line_keep(sc, p + k);
        else if (!(eq && line_fast(sc, p + k))) {
            line_end(sc, p + k, eq);
            if (!sc->ok)
                return false;
            json = sc->json;
        }
    }
    *eq_carry = *eq_carry || eqm;
    return sc->ok;
}

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
/* The bytes the vector loop looks for, by class: one byte of bits per input byte,
 * the AND of a table entry for its high nibble and one for its low nibble (a
 * pshufb each). Every bit is one rectangle of (high, low) nibbles, so the AND is
 * exact. Bits 0-5 are the bytes that need a look (CL_LOOK): bad_byte's and
 * rare_byte's, and '~' with them (a look at it finds nothing): bit 0 below 0x20 or
 * above 0x7F but for the low nibble A; bit 1 those with the low nibble A but the
 * newline, and '&' '\'' '*' (high 1, 2 or 8-F; low 6, 7 or A); bit 2 ';' '<' '['
 * '\\'; bit 3 '^' '_' '~' DEL; bit 4 '`'; bit 5 'D'. Bit 6: the digits; bit 7: '='
 * (the sign bit: movemask reads it). The newline (0x0A) has no class: a block with
 * nothing to look at is told by one test (vptest). */
enum { CL_LOOK = 0x3F };
static const unsigned char class_hi[16] = {
    [0x0] = 0x01, [0x1] = 0x03, [0x2] = 0x02, [0x3] = 0x04 | 0x40 | 0x80, [0x4] = 0x20, [0x5] = 0x04 | 0x08,
    [0x6] = 0x10, [0x7] = 0x08, [0x8] = 0x03, [0x9] = 0x03, [0xA] = 0x03, [0xB] = 0x03, [0xC] = 0x03, [0xD] = 0x03,
    [0xE] = 0x03, [0xF] = 0x03};
static const unsigned char class_lo[16] = {
    [0x0] = 0x01 | 0x10 | 0x40, [0x1] = 0x01 | 0x40, [0x2] = 0x01 | 0x40, [0x3] = 0x01 | 0x40,
    [0x4] = 0x01 | 0x20 | 0x40, [0x5] = 0x01 | 0x40, [0x6] = 0x01 | 0x02 | 0x40, [0x7] = 0x01 | 0x02 | 0x40,
    [0x8] = 0x01 | 0x40, [0x9] = 0x01 | 0x40, [0xA] = 0x02, [0xB] = 0x01 | 0x04, [0xC] = 0x01 | 0x04,
    [0xD] = 0x01 | 0x80, [0xE] = 0x01 | 0x08, [0xF] = 0x01 | 0x08};

#define FSC_AVX2 __attribute__((target("avx2,bmi,bmi2")))

/* The classes of 32 bytes (class_hi, class_lo as thi, tlo). */
FSC_AVX2 static inline __m256i classes_avx2(__m256i x, __m256i thi, __m256i tlo)
{
    const __m256i nib = _mm256_set1_epi8(0x0F);
    __m256i hi = _mm256_and_si256(_mm256_srli_epi16(x, 4), nib), lo = _mm256_and_si256(x, nib);
    return _mm256_and_si256(_mm256_shuffle_epi8(thi, hi), _mm256_shuffle_epi8(tlo, lo));
}

/* The bytes of 32 classes with a look (a mask of them). */
FSC_AVX2 static inline uint32_t look_mask_avx2(__m256i cl)
{
    return ~(uint32_t)_mm256_movemask_epi8(
        _mm256_cmpeq_epi8(_mm256_and_si256(cl, _mm256_set1_epi8(CL_LOOK)), _mm256_setzero_si256()));
}

/* The digits among 32 classes (a mask of them). */
FSC_AVX2 static inline uint32_t digit_mask_avx2(__m256i cl)
{
    return (uint32_t)_mm256_movemask_epi8(_mm256_slli_epi16(cl, 1)); /* bit 6 to the sign bit */
}

/* The look at the byte p[0] (a bad or rare one, or '~'): bad_byte's (only the bytes
 * bytes_tolerated lets through go on, for a tolerant scan), rare_byte's (not
 * checked). False when the text cannot be clean. */
static inline __attribute__((always_inline)) bool look_byte(scan *sc, const char *p, const char *end, bool checked)
{
    unsigned char c = (unsigned char)*p;
    if (__builtin_expect(bad_byte(c), 0)) {
        if (!bytes_tolerated(sc, p, 1)) {
            sc->ok = false;
            return false;
        }
    } else if (!checked)
        rare_byte(sc, p, end);
    return true;
}

/* The bytes equal to c among the 64 bytes x0, x1 (a mask of them). */
FSC_AVX2 static inline uint64_t byte_mask64(__m256i x0, __m256i x1, char c)
{
    const __m256i v = _mm256_set1_epi8(c);
    return (uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(x0, v)) |
           (uint64_t)(uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(x1, v)) << 32;
}

/* The bytes of 64 at p that need a look, their classes cl0, cl1 and bytes x0, x1:
 * of the '[' (not checked), only those before a digit: fio's own rows hold
 * "[    9]", a lost ESC's code "[0m", so the others are no code. Of the ';', only
 * those before an 'f' (rare_byte asks for ";fio-"): a terse record holds a ';' in
 * every 8 bytes or so, fio's text hardly any, so they are sorted out only where
 * the first byte to look at is one. The last byte's '[' or ';' keeps its
 * look: its next byte is in the next block. False when the text cannot be clean. */
FSC_AVX2 static inline __attribute__((always_inline)) bool block_look(scan *sc, const char *p, const char *end,
                                                                    __m256i x0, __m256i x1, __m256i cl0,
                                                                    __m256i cl1, bool checked)
{
    uint64_t look = look_mask_avx2(cl0) | (uint64_t)look_mask_avx2(cl1) << 32;
    if (!checked) {
        uint64_t dg = digit_mask_avx2(cl0) | (uint64_t)digit_mask_avx2(cl1) << 32;
        look &= ~(byte_mask64(x0, x1, '[') & ~(dg >> 1) & ~(1ULL << 63));
        if (look && p[__builtin_ctzll(look)] == ';')
            look &= ~(byte_mask64(x0, x1, ';') & ~(byte_mask64(x0, x1, 'f') >> 1) & ~(1ULL << 63));
    }
    for (; look; look &= look - 1)
        if (!look_byte(sc, p + __builtin_ctzll(look), end, checked))
            return false;
    return sc->ok;
}

/* ---- the quick way of fio's most common lines ----
 *
 * A line of fio's that begins (after its indentation) with one of the forms below is
 * taken as line_fast or line_end would take it, on a compare of its first 32 bytes
 * with the form's: each form is one whose answer from known_line (eq_word) is known
 * from those bytes alone (or from them and job_named_so, or fsc_fio_keyword_maybe).
 * Forms hold literal bytes, and a digit where a '#' stands. Each stands for this
 * reasoning about eq_word (the line holds a '='):
 * - "clat (usec): min", "slat", "sync" (W4 words): word_goes_on finds fio's unit
 *   (usec, nsec, msec), then fio's ':' and a key's letter or digit: false, so no
 *   job_named_so; the word is not followed by ':'.
 * - "lat (usec)<spaces>: <key>", "iops<spaces>: min", "cpu<spaces>: usr", "IO depths
 *   <spaces>: 1": the same for EQ_ANY words and for "iops" (W4).
 * - "submit", "complete", "latency", "issued" followed by spaces, ':' and a key
 *   (EQ_LONG): word_goes_on false, nothing more is asked.
 * - "READ: bw=", "read: IOPS=", "read : io=" and the other directions: the word,
 *   its ':' and a key with its '=' (colon_goes_on false; the first space after the
 *   colon is right after it, and the byte after that space is no '(').
 * - "bw (" and "issued r" ("issued rwts:"): 1 unless job_named_so, which is asked.
 * Lines without a '=' (known_line's exact kinds, none a title, none named_line but
 * "fio-" and "..."): "clat percentiles (" and the other percentile heads, whose
 * first space follows their first word (no margin line when indented); "Run status
 * group ", "Disk stats ", "Starting <digit>" only where not indented (indented, they
 * are margin lines); "fio-<digit>" and "..." (a job's clones) not indented and with
 * no fio keyword further on (fsc_fio_keyword_maybe false). A percentile row is
 * pctl_row's (eq_word asks it alone), a line that begins with a name named_kind's;
 * any other line goes line_fast's and line_end's way. */
enum { QX_G = 1, QX_COL0, QX_KW };
typedef struct quick_form {
    char text[32];
    uint32_t mask;       /* the bytes compared: all of text's but its digit ('#') */
    uint8_t len;         /* the line holds at least len bytes after its indentation */
    uint8_t plain;       /* eq where nothing more is to be asked (no digit, no extra), else 2 */
    uint8_t eq;          /* the line holds a '=' (1) or does not (0) */
    uint8_t digit;       /* where a digit stands ('#' in text), 0 for none */
    uint8_t extra;       /* 0, or QX_*: more to ask */
    uint8_t next;        /* the next form of its slot (quick_table), 0 for none */
} __attribute__((aligned(64))) quick_form;
/* text with at most one '#' for a digit: its mask and the digit's place, from the
 * literal (constant folded) */
#define QF_AT(lit, i) ((i) < sizeof(lit) - 1 && (lit)[(i) < sizeof(lit) - 1 ? (i) : 0] == '#' ? (i) : 0)
#define QF_AT4(lit, i) (QF_AT(lit, i) | QF_AT(lit, i + 1) | QF_AT(lit, i + 2) | QF_AT(lit, i + 3))
#define QF_DIGIT(lit) (QF_AT4(lit, 4) | QF_AT4(lit, 8) | QF_AT4(lit, 12) | QF_AT4(lit, 16) | QF_AT4(lit, 20))
#define QF(lit, eq, extra, next)                                                                                 \
    {lit, (uint32_t)((1ULL << (sizeof(lit) - 1)) - 1) & ~(QF_DIGIT(lit) ? 1u << QF_DIGIT(lit) : 0),          \
     sizeof(lit) - 1, QF_DIGIT(lit) || (extra) ? 2 : (eq), eq, QF_DIGIT(lit), extra, next}
enum {
    F_NONE, F_CLAT, F_CLAT_P, F_CLAT_N, F_CLAT_M, F_SLAT, F_SLAT_N, F_SLAT_M, F_SLAT_P, F_SYNC,
    F_SYNC_N, F_SYNC_M, F_SYNC_P, F_LAT3, F_LAT, F_LAT3_M, F_LAT1, F_LAT3_N, F_LAT1_M, F_LAT_N, F_LAT_M, F_LAT1_N,
    F_LAT_P, F_BW, F_IOPS, F_CPU, F_DEPTHS, F_SUBMIT, F_COMPLETE, F_LATENCY, F_ISSUED_R, F_ISSUED, F_G_READ,
    F_G_READ2, F_G_WRITE, F_G_WRITE2, F_G_MIXED, F_G_MIXED2, F_G_TRIM, F_G_TRIM2, F_READ, F_READ2, F_WRITE,
    F_WRITE2, F_TRIM, F_TRIM2, F_MIXED, F_MIXED2, F_RUN, F_DISK, F_STARTING, F_FIO, F_DOTS, F_COUNT
};
/* The first form of a line by its first four bytes: a perfect hash of those (no two
 * of the words below share a slot; -Woverride-init would tell). A line whose first
 * bytes are another word's is compared with that word's forms, and fails. */
#define QUICK_HASH(w) ((uint32_t)((uint32_t)(w) * 0x170BC52Fu) >> 27)
#define QS(a, b, c, d, f) [QUICK_HASH(W4(a, b, c, d))] = f
/* The slots (entry 0) and the forms (entry i: form i), one table: one base address
 * for both. Each slot's forms, the most common first. */
typedef union quick_entry {
    uint8_t slots[64];
    quick_form form;
} quick_entry;
static const quick_entry quick_table[F_COUNT] = {
    [0] = {.slots = {
        QS('c', 'l', 'a', 't', F_CLAT_P),
        QS('s', 'l', 'a', 't', F_SLAT),
        QS('s', 'y', 'n', 'c', F_SYNC),
        QS('l', 'a', 't', ' ', F_LAT),
        QS('b', 'w', ' ', '(', F_BW),
        QS('i', 'o', 'p', 's', F_IOPS),
        QS('c', 'p', 'u', ' ', F_CPU),
        QS('I', 'O', ' ', 'd', F_DEPTHS),
        QS('s', 'u', 'b', 'm', F_SUBMIT),
        QS('c', 'o', 'm', 'p', F_COMPLETE),
        QS('l', 'a', 't', 'e', F_LATENCY),
        QS('i', 's', 's', 'u', F_ISSUED_R),
        QS('R', 'E', 'A', 'D', F_G_READ),
        QS('W', 'R', 'I', 'T', F_G_WRITE),
        QS('M', 'I', 'X', 'E', F_G_MIXED),
        QS('T', 'R', 'I', 'M', F_G_TRIM),
        QS('r', 'e', 'a', 'd', F_READ),
        QS('w', 'r', 'i', 't', F_WRITE),
        QS('t', 'r', 'i', 'm', F_TRIM),
        QS('m', 'i', 'x', 'e', F_MIXED),
        QS('R', 'u', 'n', ' ', F_RUN),
        QS('D', 'i', 's', 'k', F_DISK),
        QS('S', 't', 'a', 'r', F_STARTING),
        QS('f', 'i', 'o', '-', F_FIO),
        QS('.', '.', '.', '\n', F_DOTS), /* "..." and its newline: the line alone */
    }},
    [F_CLAT] = {.form = QF("clat (usec): min", 1, 0, F_CLAT_N)},
    [F_CLAT_P] = {.form = QF("clat percentiles (", 0, 0, F_CLAT)},
    [F_CLAT_N] = {.form = QF("clat (nsec): min", 1, 0, F_CLAT_M)},
    [F_CLAT_M] = {.form = QF("clat (msec): min", 1, 0, 0)},
    [F_SLAT] = {.form = QF("slat (usec): min", 1, 0, F_SLAT_N)},
    [F_SLAT_N] = {.form = QF("slat (nsec): min", 1, 0, F_SLAT_M)},
    [F_SLAT_M] = {.form = QF("slat (msec): min", 1, 0, F_SLAT_P)},
    [F_SLAT_P] = {.form = QF("slat percentiles (", 0, 0, 0)},
    [F_SYNC] = {.form = QF("sync (usec): min", 1, 0, F_SYNC_N)},
    [F_SYNC_N] = {.form = QF("sync (nsec): min", 1, 0, F_SYNC_M)},
    [F_SYNC_M] = {.form = QF("sync (msec): min", 1, 0, F_SYNC_P)},
    [F_SYNC_P] = {.form = QF("sync percentiles (", 0, 0, 0)},
    [F_LAT3] = {.form = QF("lat (usec)   : #", 1, 0, F_LAT1_M)},
    [F_LAT] = {.form = QF("lat (usec): min", 1, 0, F_LAT1)},
    [F_LAT3_M] = {.form = QF("lat (msec)   : #", 1, 0, F_LAT3_N)},
    [F_LAT1] = {.form = QF("lat (usec) : #", 1, 0, F_LAT3)},
    [F_LAT3_N] = {.form = QF("lat (nsec)   : #", 1, 0, F_LAT_N)},
    [F_LAT1_M] = {.form = QF("lat (msec) : #", 1, 0, F_LAT3_M)},
    [F_LAT_N] = {.form = QF("lat (nsec): min", 1, 0, F_LAT_P)},
    [F_LAT_M] = {.form = QF("lat (msec): min", 1, 0, F_LAT1_N)},
    [F_LAT1_N] = {.form = QF("lat (nsec) : #", 1, 0, 0)},
    [F_LAT_P] = {.form = QF("lat percentiles (", 0, 0, F_LAT_M)},
    [F_BW] = {.form = QF("bw (", 1, QX_G, 0)},
    [F_IOPS] = {.form = QF("iops        : min", 1, 0, 0)},
    [F_CPU] = {.form = QF("cpu          : usr", 1, 0, 0)},
    [F_DEPTHS] = {.form = QF("IO depths    : 1", 1, 0, 0)},
    [F_SUBMIT] = {.form = QF("submit    : 0", 1, 0, 0)},
    [F_COMPLETE] = {.form = QF("complete  : 0", 1, 0, 0)},
    [F_LATENCY] = {.form = QF("latency   : target", 1, 0, 0)},
    [F_ISSUED_R] = {.form = QF("issued r", 1, QX_G, F_ISSUED)},
    [F_ISSUED] = {.form = QF("issued    : total", 1, 0, 0)},
    [F_G_READ] = {.form = QF("READ: bw=", 1, 0, F_G_READ2)},
    [F_G_READ2] = {.form = QF("READ: io=", 1, 0, 0)},
    [F_G_WRITE] = {.form = QF("WRITE: bw=", 1, 0, F_G_WRITE2)},
    [F_G_WRITE2] = {.form = QF("WRITE: io=", 1, 0, 0)},
    [F_G_MIXED] = {.form = QF("MIXED: bw=", 1, 0, F_G_MIXED2)},
    [F_G_MIXED2] = {.form = QF("MIXED: io=", 1, 0, 0)},
    [F_G_TRIM] = {.form = QF("TRIM: bw=", 1, 0, F_G_TRIM2)},
    [F_G_TRIM2] = {.form = QF("TRIM: io=", 1, 0, 0)},
    [F_READ] = {.form = QF("read: IOPS=", 1, 0, F_READ2)},
    [F_READ2] = {.form = QF("read : io=", 1, 0, 0)},
    [F_WRITE] = {.form = QF("write: IOPS=", 1, 0, F_WRITE2)},
    [F_WRITE2] = {.form = QF("write: io=", 1, 0, 0)},
    [F_TRIM] = {.form = QF("trim: IOPS=", 1, 0, F_TRIM2)},
    [F_TRIM2] = {.form = QF("trim : io=", 1, 0, 0)},
    [F_MIXED] = {.form = QF("mixed: IOPS=", 1, 0, F_MIXED2)},
    [F_MIXED2] = {.form = QF("mixed: io=", 1, 0, 0)},
    [F_RUN] = {.form = QF("Run status group ", 0, QX_COL0, 0)},
    [F_DISK] = {.form = QF("Disk stats ", 0, QX_COL0, 0)},
    [F_STARTING] = {.form = QF("Starting #", 0, QX_COL0, 0)},
    [F_FIO] = {.form = QF("fio-#", 0, QX_KW, 0)},
    [F_DOTS] = {.form = QF("...", 0, QX_KW, 0)},
};

/* Does the line at p begin as fio's percentile rows do, "|  1.00th=[" or "| 99.95th=["
 * (its eleven bytes read at once, none of them a newline: they are the line's own)?
 * Then pctl_row finds the row, and the line holds a '='. */
static inline __attribute__((always_inline)) bool pctl_row_fio(const char *p)
{
    /* the fixed bytes to zero, the digits (bytes 3, 5, 6) to 0-9 */
    uint64_t x = fsc_load_le64(p) ^ ((uint64_t)W4('|', ' ', ' ', '0') | (uint64_t)W4('.', '0', '0', 't') << 32);
    unsigned char c2 = (unsigned char)p[2];
    return !(x & 0xFF0000FF0000FFFFULL) && !((x | (x + 0x0006060006000000ULL)) & 0x00F0F000F0000000ULL) &&
           fsc_load_le32(p + 7) == W4('t', 'h', '=', '[') && (c2 == ' ' || is_digit((char)c2));
}

/* What the quick way makes of a line: leave it to line_fast and line_end
 * (Q_SLOW), take it as fio's (Q_TAKE) or as a blank line (Q_BLANK), take it once
 * job_named_so (Q_G) or fsc_fio_keyword_maybe (Q_KW) is false, or ask named_kind
 * (Q_NAMED: it fits no form, and begins with a name's byte). */
enum { Q_SLOW, Q_TAKE, Q_BLANK, Q_G, Q_KW, Q_NAMED };

/* The line [s, e) (its newline at e) of a text with no JSON seen, not checked, where
 * 32 bytes can be read from e on: as line_fast or line_end would take it (no title,
 * no name, nothing odd) when it is blank or fits a form, if it is not too long for
 * that (PRESCAN_MAX_LINE: the caller's to ask). Nothing called, nothing stored: *pp
 * is where its text begins. */
FSC_AVX2 static inline __attribute__((always_inline)) int quick_kind(const char *s, const char *e, unsigned eq,
                                                                   const char **pp)
{
    /* indent_end: where the first 8 bytes are all spaces, p is s + 8 (tzcnt of 0 is
     * 64), right when s[8] is no space (else p[0] is a space, which no form and no
     * name begins with: line_end's way) */
    const char *p = s + (_tzcnt_u64(fsc_load_le64(s) ^ 0x2020202020202020ULL) >> 3);
    *pp = p;
    if (p == e)
        return Q_BLANK;
    if (*p == '|') /* eq_word's percentile row */
        return (pctl_row_fio(p) || (eq && pctl_row(p, e))) && !tag_end(p, e) ? Q_TAKE : Q_SLOW;
    unsigned i = quick_table[0].slots[QUICK_HASH(fsc_load_le32(p))];
    if (!i)
        return fsc_name_char(*p) ? Q_NAMED : Q_SLOW;
    __m256i v = _mm256_loadu_si256((const __m256i *)(const void *)p);
    const quick_form *f = &quick_table[i].form;
    for (;;) {
        uint32_t m = (uint32_t)_mm256_movemask_epi8(
            _mm256_cmpeq_epi8(v, _mm256_load_si256((const __m256i *)(const void *)f->text)));
        if (!(~m & f->mask) && (size_t)(e - p) >= f->len)
            break;
        if (!f->next)
            return fsc_name_char(*p) ? Q_NAMED : Q_SLOW;
        f = &quick_table[f->next].form;
    }
    if (tag_end(p, e))
        return Q_SLOW;
    if (f->plain == eq) /* the common forms: nothing more to ask */
        return Q_TAKE;
    if (eq != f->eq || (f->digit && !is_digit(p[f->digit]))) /* line_end's way: no other form is asked */
        return Q_SLOW;
    if (!f->extra)
        return Q_TAKE;
    if (f->extra == QX_G)
        return Q_G;
    return p != s ? Q_SLOW : f->extra == QX_KW ? Q_KW : Q_TAKE;
}

/* The quick way's state in registers: the line's start, where its record goes (the
 * lines of out: cur, up to lim; both NULL when none are kept) and its number. */
typedef struct lane {
    const char *line;
    fsc_line *cur, *lim;
    uint32_t orig;
} lane;

static inline void lane_load(lane *ln, const scan *sc)
{
    ln->line = sc->line;
    ln->orig = sc->orig;
    ln->cur = ln->lim = NULL;
    if (sc->out) {
        ln->cur = sc->out->lines + sc->out->n_lines;
        ln->lim = sc->out->lines + sc->out->cap_lines;
    }
}

static inline void lane_store(const lane *ln, scan *sc)
{
    sc->line = ln->line;
    sc->orig = ln->orig;
    if (sc->out)
        sc->out->n_lines = (size_t)(ln->cur - sc->out->lines);
}

/* Take the line [ln->line, e) as the quick way found it (kind: Q_BLANK or not), its
 * record in place (rec: ln->cur < ln->lim; else no records kept). */
static inline __attribute__((always_inline)) void quick_take(scan *sc, lane *ln, const char *e, int kind, bool rec)
{
    const char *s = ln->line;
    if (kind == Q_BLANK) { /* line_end's */
        sc->heading = sc->heading || sc->title_pending;
        sc->title_pending = false;
        sc->prev_blank = true;
    } else {
        sc->first_text = false;
        sc->prev_blank = false;
        sc->title_pending = false;
        sc->spare = false;
    }
    ln->line = e + 1;
    if (rec) {
        fsc_line *l = ln->cur++;
        l->off = (size_t)(s - sc->data);
        l->len = (uint32_t)(e - s);
        l->orig = ++ln->orig;
        l->flags = 0;
        l->lead = 0;
        l->tag = 0;
    }
}

/* May the quick way record the line [ln->line, e) in place (not the longest line
 * so far, where it holds a '=': fsc_line_stats_add's rare case)? */
static inline __attribute__((always_inline)) bool quick_room(const scan *sc, const lane *ln, const char *e,
                                                            unsigned eq, bool rec)
{
    return !rec || (ln->cur != ln->lim && !(eq && (size_t)(e - ln->line) >= sc->out->stats.longest));
}

/* A line the quick way did not take: block()'s way. False when the scan ends. */
__attribute__((noinline)) static bool line_slow(scan *sc, const char *e, bool eq, bool json)
{
    if (json && json_inner_line(sc, sc->line, e, sc->end)) /* JSON seen: its lines */
        line_keep(sc, e);
    else if (!(eq && line_fast(sc, e))) {
        line_end(sc, e, eq);
        return sc->ok;
    }
    return true;
}

/* A line the quick way took but could not finish alone (a call to make, a full
 * array, the longest line so far), or one it did not take: its end. False when the
 * scan ends. */
__attribute__((noinline)) static bool line_rest(scan *sc, const char *e, bool eq, int kind, const char *p)
{
    if ((kind == Q_G && !job_named_so(p, e)) ||
        (kind == Q_KW && !fsc_fio_keyword_maybe(p, (size_t)(e - p), (size_t)(sc->end - p))))
        kind = Q_TAKE;
    if (kind == Q_TAKE || kind == Q_BLANK) { /* quick_take's, through record_line */
        const char *s = sc->line;
        if (kind == Q_BLANK) {
            sc->heading = sc->heading || sc->title_pending;
            sc->title_pending = false;
            sc->prev_blank = true;
        } else {
            sc->first_text = false;
            sc->prev_blank = false;
            sc->title_pending = false;
        }
        sc->line = e + 1;
        record_line(sc, s, (size_t)(e - s), eq);
        return true;
    }
    return line_slow(sc, e, eq, sc->json);
}

/* job_named_so 32 bytes a step, for a line [p, e) after which 32 bytes may be read. */
FSC_AVX2 static inline __attribute__((always_inline)) bool job_named_so_avx2(const char *p, const char *e)
{
    for (const char *q = p; q < e; q += 32) {
        uint32_t m = (uint32_t)_mm256_movemask_epi8(
            _mm256_cmpeq_epi8(_mm256_loadu_si256((const __m256i *)(const void *)q), _mm256_set1_epi8('(')));
        if (e - q < 32)
            m &= (1u << (e - q)) - 1;
        for (; m; m &= m - 1) {
            const char *o = q + __builtin_ctz(m);
            if (o - p >= 2 && o[-1] == ' ' && o[-2] == ':' && e - o > 1 && o[1] == 'g')
                return true;
        }
    }
    return false;
}

/* Does a line [p, e) of up to 32 bytes (32 bytes to read from p on) hold no colon,
 * bar or semicolon (so that fsc_fio_keyword_maybe is false)? */
FSC_AVX2 static inline __attribute__((always_inline)) bool no_keyword_bytes(const char *p, const char *e)
{
    if (e - p > 32)
        return false;
    __m256i x = _mm256_loadu_si256((const __m256i *)(const void *)p);
    __m256i k = _mm256_or_si256(_mm256_cmpeq_epi8(x, _mm256_set1_epi8(':')),
                                _mm256_or_si256(_mm256_cmpeq_epi8(x, _mm256_set1_epi8('|')),
                                                _mm256_cmpeq_epi8(x, _mm256_set1_epi8(';'))));
    return !_bzhi_u32((uint32_t)_mm256_movemask_epi8(k), (unsigned)(e - p));
}

/* fsc_name_chars ([A-Za-z0-9_.+-]) by class, as class_hi and class_lo are for the
 * vector loop: bit 0 "+-." (high nibble 2; low B, D, E), bit 1 the digits (3; 0-9),
 * bit 2 A-O and a-o (4, 6; 1-F), bit 3 P-Z and p-z (5, 7; 0-A), bit 4 '_' (5; F). */
static const unsigned char name_hi[16] = {[0x2] = 0x01, [0x3] = 0x02, [0x4] = 0x04, [0x5] = 0x08 | 0x10,
                                          [0x6] = 0x04, [0x7] = 0x08};
static const unsigned char name_lo[16] = {
    [0x0] = 0x02 | 0x08, [0x1] = 0x02 | 0x04 | 0x08, [0x2] = 0x02 | 0x04 | 0x08, [0x3] = 0x02 | 0x04 | 0x08,
    [0x4] = 0x02 | 0x04 | 0x08, [0x5] = 0x02 | 0x04 | 0x08, [0x6] = 0x02 | 0x04 | 0x08, [0x7] = 0x02 | 0x04 | 0x08,
    [0x8] = 0x02 | 0x04 | 0x08, [0x9] = 0x02 | 0x04 | 0x08, [0xA] = 0x04 | 0x08, [0xB] = 0x01 | 0x04,
    [0xC] = 0x04, [0xD] = 0x01 | 0x04, [0xE] = 0x01 | 0x04, [0xF] = 0x04 | 0x10};

/* The end of the name at p (its first byte that is not fsc_name_char's), up to the
 * line's end e, 32 bytes a step: 32 bytes may be read after e. */
FSC_AVX2 static inline __attribute__((always_inline)) const char *name_end_avx2(const char *p, const char *e)
{
    const __m256i thi = _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)(const void *)name_hi));
    const __m256i tlo = _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)(const void *)name_lo));
    for (const char *q = p; q < e; q += 32) {
        __m256i cl = classes_avx2(_mm256_loadu_si256((const __m256i *)(const void *)q), thi, tlo);
        uint32_t other = (uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(cl, _mm256_setzero_si256()));
        if (other)
            return q + __builtin_ctz(other) < e ? q + __builtin_ctz(other) : e;
    }
    return e;
}

/* Are the n bytes at a and b the same (32 bytes may be read past both)? */
FSC_AVX2 static inline __attribute__((always_inline)) bool same_line_avx2(const char *a, const char *b, size_t n)
{
    for (size_t i = 0; i < n; i += 32) {
        uint32_t differ = ~(uint32_t)_mm256_movemask_epi8(
            _mm256_cmpeq_epi8(_mm256_loadu_si256((const __m256i *)(const void *)(a + i)),
                              _mm256_loadu_si256((const __m256i *)(const void *)(b + i))));
        if (n - i < 32)
            differ = _bzhi_u32(differ, (unsigned)(n - i));
        if (differ)
            return false;
    }
    return true;
}

/* A line [s, e) of a text with no JSON seen (p after its indentation, a name's byte
 * there, 32 bytes to read after e) that known_line takes for a named line: a job's
 * or a disk's line ("NAME: (groupid=", "NAME: (g=", "NAME: ios=": it holds a '='
 * and eq_word finds no line of fio's own in it) or a layout line ("NAME: Laying
 * out IO file": no '=', not one of the words known_line asks of lines without one,
 * nor "..."). Not a margin line (indented, only a disk's line, its name not fio's
 * banner), no tag at its end, no fio keyword further on. -1: line_end's way; else
 * taken, 1 when it may be a title (line_end's title). */
FSC_AVX2 __attribute__((noinline)) static int named_kind(scan *sc, const char *s, const char *p, const char *e,
                                                         unsigned eq)
{
    /* fio prints a layout line for each file a job lays out, and the same job
     * definition for jobs run again: a line equal to the last one of its kind taken
     * is taken as it was (the answer depends on the line's bytes alone; both may be
     * read 32 bytes past their ends) */
    if (sc->named_seen[eq] && (size_t)(e - s) == sc->named_seen_len[eq] &&
        same_line_avx2(s, sc->named_seen[eq], sc->named_seen_len[eq]))
        return !eq;
    if (*p >= '2' && *p <= '5') /* a terse record's head to known_line */
        return -1;
    const char *q = name_end_avx2(p, e);
    if (q == e || *q != ':')
        return -1;
    int title = 0;
    bool job_def = false;
    size_t fixed;
    if (eq) {
        if (eq_word(p, e) != -1) /* known_line asks it first */
            return -1;
        if (STARTS(q, e, ": ios=")) {
            fixed = 6;
            if (p > s && STARTS(p, e, "fio-") && e - p > 4 && is_digit(p[4]))
                return -1; /* fsc_fio_margin_line's */
        } else if (STARTS(q, e, ": (groupid=") && p == s)
            fixed = 11;
        else if ((job_def = STARTS(q, e, ": (g=")) && p == s)
            fixed = 5;
        else
            return -1; /* not named, or a margin line */
    } else {
        if (e - p >= 4) {
            switch (word4(p)) {
            case W4('f', 'i', 'o', '-'): case W4('f', 's', 'y', 'n'): case W4('S', 't', 'a', 'r'):
            case W4('R', 'u', 'n', ' '): case W4('D', 'i', 's', 'k'): case W4('c', 'l', 'a', 't'):
            case W4('l', 'a', 't', ' '): case W4('s', 'l', 'a', 't'): case W4('s', 'y', 'n', 'c'):
                return -1;
            default:
                break;
            }
        }
        if (STARTS(p, e, "...") || !STARTS(q, e, ": Laying out IO file"))
            return -1;
        if (p > s && STARTS(p, e, "fio-") && e - p > 4 && is_digit(p[4]))
            return -1; /* fsc_fio_margin_line's */
        title = 1;
        fixed = 20;
    }
    /* the name holds no colon, bar nor semicolon, and its colon's literal (fixed
     * bytes) no other: the name's colon is asked alone, the look goes on after them */
    size_t n = (size_t)(e - p), c = (size_t)(q - p);
    if (tag_end(p, e) || (fsc_label_last[(unsigned char)q[-1]] && fsc_colon_maybe(p, n, c)) ||
        fsc_keyword_maybe_avx2_from(p, n, c + fixed))
        return -1;
    if (title || job_def) {
        sc->named_seen[eq] = s;
        sc->named_seen_len[eq] = (uint32_t)(e - s);
    }
    return title;
}

enum { CHUNK_BLOCKS = 64 };

/* The masks of a block for its lines: its newlines, those of lines with a '='. */
typedef struct block_nl {
    uint64_t nl, eql;
} block_nl;

/* The quick way over the lines of a chunk, in a function that calls nothing (all of
 * its state in registers): where it is, and the line it stopped at. */
typedef struct quick_run {
    const char *p;                  /* the current block */
    const block_nl *blk, *bend;     /* the next block, the chunk's end */
    uint64_t nlm, eqb;              /* the newlines of the current block not yet ended, its eql */
    lane ln;
    uint32_t longest;               /* out->stats.longest */
    const char *e, *tp;             /* the line stopped at: its end, where its text begins */
    unsigned eq;                    /* it holds a '=' */
    int kind;                       /* quick_kind's answer */
} quick_run;

/* The next line end of the chunk of r (p, nlm, eqb: r's, in registers): false at
 * the chunk's end. */
static inline __attribute__((always_inline)) bool run_next(const quick_run *r, const block_nl **blk,
                                                           const char **p, uint64_t *nlm, uint64_t *eqb,
                                                           const char **e, unsigned *eq)
{
    while (!*nlm) {
        if (*blk == r->bend)
            return false;
        *p += 64;
        *nlm = (*blk)->nl;
        *eqb = (*blk)->eql;
        (*blk)++;
    }
    unsigned k = (unsigned)__builtin_ctzll(*nlm);
    *e = *p + k;
    *eq = (unsigned)(*eqb >> k) & 1;
    *nlm &= *nlm - 1;
    return true;
}

/* Take the lines of r the quick way until one needs more (true: r->e, r->eq,
 * r->kind, r->tp say which) or the chunk ends (false). What it reads but does not
 * change is copied to locals first: the stores of records might alias r's
 * fields. */
FSC_AVX2 static inline __attribute__((always_inline)) bool quick_lines_as(scan *restrict sc,
                                                                        quick_run *restrict r, bool rec)
{
    const block_nl *blk = r->blk;
    const block_nl *const bend = r->bend;
    /* the lengths from which a line leaves the quick way, without a '=' and with one:
     * too long to be fio's (line_end's), or recorded and not shorter than the longest
     * line of values so far (fsc_line_stats_add's rare case) */
    const size_t too_long = PRESCAN_MAX_LINE + 1;
    const size_t leave[2] = {too_long, rec && r->longest < too_long ? r->longest : too_long};
    const char *const data = sc->data;
    const char *p = r->p, *line = r->ln.line;
    uint64_t nlm = r->nlm, eqb = r->eqb;
    fsc_line *cur = r->ln.cur;
    uint32_t orig = r->ln.orig;
    bool more = true;
    /* the line stopped at is stored where it stops, so that nothing of a line lives
     * on into the next one's turn */
    for (;;) {
        while (!nlm) {
            if (blk == bend) {
                more = false;
                goto out;
            }
            p += 64;
            nlm = blk->nl;
            eqb = blk->eql;
            blk++;
        }
        unsigned k = (unsigned)__builtin_ctzll(nlm);
        const char *e = p + k, *tp;
        unsigned eq = (unsigned)(eqb >> k) & 1;
        nlm &= nlm - 1;
        int kind = quick_kind(line, e, eq, &tp);
        size_t len = (size_t)(e - line);
        if (__builtin_expect(len >= leave[eq], 0)) {
            if (len >= too_long)
                kind = Q_SLOW;
            r->e = e, r->tp = tp, r->eq = eq, r->kind = kind;
            break;
        }
        bool title = false;
        if (kind == Q_G ? !job_named_so_avx2(tp, e) : kind == Q_KW && no_keyword_bytes(tp, e))
            kind = Q_TAKE;
        else if (kind == Q_NAMED) {
            int t = named_kind(sc, line, tp, e, eq);
            if (t >= 0) {
                kind = Q_TAKE;
                title = t;
            }
        }
        if (kind != Q_TAKE && kind != Q_BLANK) {
            r->e = e, r->tp = tp, r->eq = eq, r->kind = kind;
            break;
        }
        if (title) { /* no '=': line_end's title */
            sc->title_pending = sc->first_text || sc->prev_blank;
            sc->first_text = false;
            sc->prev_blank = false;
        } else if (kind == Q_BLANK) { /* line_end's */
            sc->heading = sc->heading || sc->title_pending;
            sc->title_pending = false;
            sc->prev_blank = true;
        } else {
            sc->first_text = false;
            sc->prev_blank = false;
            sc->title_pending = false;
            sc->spare = false;
        }
        if (rec) {
            cur->off = (size_t)(line - data);
            cur->len = (uint32_t)len;
            cur->orig = ++orig;
            cur->flags = 0;
            cur->lead = 0;
            cur->tag = 0;
            cur++;
        }
        line = e + 1;
    }
out:
    r->p = p;
    r->nlm = nlm;
    r->eqb = eqb;
    r->blk = blk;
    r->ln.line = line;
    r->ln.cur = cur;
    r->ln.orig = orig;
    return more;
}

FSC_AVX2 __attribute__((noinline)) static bool quick_lines_rec(scan *sc, quick_run *r)
{
    return quick_lines_as(sc, r, true);
}

FSC_AVX2 __attribute__((noinline)) static bool quick_lines_norec(scan *sc, quick_run *r)
{
    return quick_lines_as(sc, r, false);
}

/* Has the line array less room than the lines of the n blocks need (quick_lines_as
 * records them without asking: then they go the slow way, where record_line grows
 * the array)? Counted only where the room is short of 64 lines a block. */
static inline bool chunk_room_short(const lane *ln, const block_nl *blocks, unsigned n)
{
    size_t room = (size_t)(ln->lim - ln->cur), need = 0;
    if (room >= (size_t)n * 64)
        return false;
    for (unsigned i = 0; i < n; i++)
        need += (size_t)__builtin_popcountll(blocks[i].nl);
    return room < need;
}

/* The lines of n blocks at p (their masks in blocks): block()'s, the quick way
 * first (quick: no JSON seen, 32 bytes to read after each line; not checked), the
 * rest out of line; rec: sc->out is there. False when the scan ends. */
FSC_AVX2 static inline __attribute__((always_inline)) bool chunk_lines(scan *sc, const char *p, unsigned n,
                                                                     const block_nl *blocks, bool quick,
                                                                     bool checked, bool rec)
{
    quick_run r = {.p = p - 64, .blk = blocks, .bend = blocks + n};
    lane_load(&r.ln, sc);
    if (checked) {
        const char *e;
        while (run_next(&r, &r.blk, &r.p, &r.nlm, &r.eqb, &e, &r.eq)) {
            const char *s = r.ln.line;
            size_t len = (size_t)(e - s);
            if (len <= PRESCAN_MAX_LINE) { /* its kind is known */
                if (quick_room(sc, &r.ln, e, r.eq, rec)) {
                    r.ln.line = e + 1;
                    if (rec) {
                        fsc_line *l = r.ln.cur++;
                        l->off = (size_t)(s - sc->data);
                        l->len = (uint32_t)len;
                        l->orig = ++r.ln.orig;
                        l->flags = 0;
                        l->lead = 0;
                        l->tag = 0;
                    }
                    continue;
                }
                r.ln.line = e + 1;
                lane_store(&r.ln, sc);
                record_line(sc, s, len, r.eq);
            } else {
                lane_store(&r.ln, sc);
                if (!line_slow(sc, e, r.eq, sc->json))
                    return false;
            }
            lane_load(&r.ln, sc);
        }
    } else if (quick && !(rec && chunk_room_short(&r.ln, blocks, n))) {
        r.longest = rec ? sc->out->stats.longest : 0;
        while (rec ? quick_lines_rec(sc, &r) : quick_lines_norec(sc, &r)) {
            /* what needs a call */
            const char *e = r.e, *tp = r.tp;
            unsigned eq = r.eq;
            int kind = r.kind;
            if (kind == Q_NAMED) {
                int title = named_kind(sc, r.ln.line, tp, e, eq);
                if (title > 0) { /* no '=': line_end's title */
                    if (!rec || r.ln.cur != r.ln.lim) {
                        bool pending = sc->first_text || sc->prev_blank;
                        quick_take(sc, &r.ln, e, Q_TAKE, rec);
                        sc->title_pending = pending;
                        continue;
                    }
                    kind = Q_SLOW;
                } else
                    kind = title ? Q_SLOW : Q_TAKE;
            } else if (kind == Q_G || kind == Q_KW) {
                if (kind == Q_G ? !job_named_so_avx2(tp, e) : !fsc_fio_keyword_maybe_wide(tp, (size_t)(e - tp)))
                    kind = Q_TAKE;
            }
            if ((kind == Q_TAKE || kind == Q_BLANK) && quick_room(sc, &r.ln, e, eq, rec)) {
                quick_take(sc, &r.ln, e, kind, rec);
                continue;
            }
            lane_store(&r.ln, sc);
            if (!line_rest(sc, e, eq, kind, tp))
                return false;
            lane_load(&r.ln, sc);
            r.longest = rec ? sc->out->stats.longest : 0;
            if (sc->json)
                goto slow;
        }
    } else {
    slow:
        lane_store(&r.ln, sc);
        const char *e;
        while (run_next(&r, &r.blk, &r.p, &r.nlm, &r.eqb, &e, &r.eq)) {
            if (sc->json && json_inner_line(sc, sc->line, e, sc->end)) { /* line_slow's, in place */
                line_keep(sc, e);
                continue;
            }
            if (!line_slow(sc, e, r.eq, sc->json))
                return false;
        }
        return sc->ok;
    }
    lane_store(&r.ln, sc);
    return sc->ok;
}

/* 64 bytes a step where the processor has AVX2 (chosen at run time), in chunks of
 * up to CHUNK_BLOCKS blocks: first the bytes of a chunk (the masks of its newlines
 * and '=', its rare and bad bytes looked at), then its lines. */
static inline __attribute__((always_inline)) FSC_AVX2 const char *scan_avx2_as(scan *sc, const char *p,
                                                                              const char *end, bool *eq,
                                                                              bool checked, bool rec)
{
    uint64_t carry = *eq; /* the '=' of the line open, as bit 0 of the next block */
    block_nl blocks[CHUNK_BLOCKS];
    while (sc->ok && end - p >= 32) {
        const __m256i thi = _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)(const void *)class_hi));
        const __m256i tlo = _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)(const void *)class_lo));
        const __m256i nlv = _mm256_set1_epi8('\n'), lookc = _mm256_set1_epi8(CL_LOOK);
        /* the quick way reads 32 bytes from a line's end on */
        bool quick = !checked && !sc->json && end - p >= 96, last = end - p < 64;
        unsigned n = 0;
        const char *q = p;
        if (!last) {
            size_t count = (size_t)(end - p - (quick ? 32 : 0)) / 64;
            if (count > CHUNK_BLOCKS)
                count = CHUNK_BLOCKS;
            n = (unsigned)count;
            for (block_nl *b = blocks, *be = blocks + count; b < be; b++, q += 64) {
                __m256i x0 = _mm256_loadu_si256((const __m256i *)(const void *)q);
                __m256i x1 = _mm256_loadu_si256((const __m256i *)(const void *)(q + 32));
                __m256i cl0 = classes_avx2(x0, thi, tlo), cl1 = classes_avx2(x1, thi, tlo);
                uint64_t nlm = (uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(x0, nlv)) |
                               (uint64_t)(uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(x1, nlv)) << 32;
                uint64_t eqm = (uint32_t)_mm256_movemask_epi8(cl0) |
                               (uint64_t)(uint32_t)_mm256_movemask_epi8(cl1) << 32 | carry;
                if (__builtin_expect(!_mm256_testz_si256(_mm256_or_si256(cl0, cl1), lookc), 0) &&
                    !block_look(sc, q, end, x0, x1, cl0, cl1, checked))
                    return p; /* not clean: its lines need no end */
                b->nl = nlm;
                /* the newlines of the lines with a '=': nlm - eqm borrows from a line's
                 * newline only where the line holds a '=' (never across a newline) */
                b->eql = nlm & ~(nlm - eqm);
                /* a '=' past the last newline (the line left open holds one): then and
                 * only then eqm > nlm */
                carry = eqm > nlm;
            }
        } else { /* the last 32 bytes */
            __m256i x0 = _mm256_loadu_si256((const __m256i *)(const void *)q);
            __m256i cl0 = classes_avx2(x0, thi, tlo);
            uint64_t nlm = (uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(x0, nlv));
            uint64_t eqm = (uint32_t)_mm256_movemask_epi8(cl0) | carry;
            uint64_t look = look_mask_avx2(cl0);
            if (look && !checked) {
                uint64_t brm = (uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(x0, _mm256_set1_epi8('[')));
                look &= ~(brm & ~((uint64_t)digit_mask_avx2(cl0) >> 1) & ~(1ULL << 31));
            }
            for (; look; look &= look - 1)
                if (!look_byte(sc, q + __builtin_ctzll(look), end, checked))
                    return p;
            if (!sc->ok)
                return p;
            blocks[0].nl = nlm;
            blocks[0].eql = nlm & ~(nlm - eqm);
            carry = eqm > nlm;
            n = 1;
            q += 32;
        }
        if (!chunk_lines(sc, p, n, blocks, quick, checked, rec))
            return p;
        p = q;
        if (last)
            break;
    }
    *eq = carry;
    return p;
}

/* the loop made three times: its lines asked and recorded, asked only (no lines
 * kept: a verdict), only recorded (checked) */
FSC_AVX2 static const char *scan_avx2(scan *sc, const char *p, const char *end, bool *eq)
{
    return sc->out ? scan_avx2_as(sc, p, end, eq, false, true) : scan_avx2_as(sc, p, end, eq, false, false);
}

FSC_AVX2 static const char *scan_avx2_checked(scan *sc, const char *p, const char *end, bool *eq)
{
    return scan_avx2_as(sc, p, end, eq, true, sc->out != NULL);
}
#endif

#if defined(__SSE2__)
static const char *scan_sse2(scan *sc, const char *p, const char *end, bool *eq)
{
    const __m128i nl = _mm_set1_epi8('\n'), space = _mm_set1_epi8(0x20), del = _mm_set1_epi8(0x7F);
    const __m128i amp = _mm_set1_epi8('&'), lt = _mm_set1_epi8('<'), star = _mm_set1_epi8('*');
    const __m128i tick = _mm_set1_epi8('`'), semi = _mm_set1_epi8(';'), dee = _mm_set1_epi8('D');
    const __m128i gt = _mm_set1_epi8('>'), bracket = _mm_set1_epi8('['), caret = _mm_set1_epi8('^');
    const __m128i under = _mm_set1_epi8('_');
    const __m128i equal = _mm_set1_epi8('='), bslash = _mm_set1_epi8('\\'), apos = _mm_set1_epi8('\'');
    while (end - p >= 16) {
        __m128i x = _mm_loadu_si128((const __m128i *)(const void *)p);
        __m128i bad = _mm_or_si128(_mm_cmplt_epi8(x, space), _mm_cmpeq_epi8(x, del));
        bad = _mm_or_si128(bad, _mm_or_si128(_mm_cmpeq_epi8(x, amp), _mm_cmpeq_epi8(x, lt)));
        bad = _mm_or_si128(bad, _mm_or_si128(_mm_cmpeq_epi8(x, star), _mm_cmpeq_epi8(x, tick)));
        bad = _mm_or_si128(bad, _mm_or_si128(_mm_cmpeq_epi8(x, bslash), _mm_cmpeq_epi8(x, apos)));
        uint32_t nlm = (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(x, nl));
        uint32_t badm = (uint32_t)_mm_movemask_epi8(bad);
        __m128i r = _mm_or_si128(_mm_cmpeq_epi8(x, semi), _mm_cmpeq_epi8(x, dee));
        r = _mm_or_si128(r, _mm_or_si128(_mm_cmpeq_epi8(x, gt), _mm_or_si128(_mm_cmpeq_epi8(x, bracket),
                                                                           _mm_cmpeq_epi8(x, caret))));
        r = _mm_or_si128(r, _mm_cmpeq_epi8(x, under));
        uint32_t rare = (uint32_t)_mm_movemask_epi8(r);
        uint32_t eqm = (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(x, equal));
        if (!block(sc, p, end, nlm, badm & ~nlm, (badm | rare) & ~nlm, eqm, eq, false))
            break;
        p += 16;
    }
    return p;
}
#endif

/* Scan the part data[0, len) of the document with sc: whole lines but for the last
 * part (last), whose last line may lack its newline. A part begins at a line start:
 * what a line's checks look at before it (rare_byte) or past it (indent_end,
 * json_inner_line, fsc_fio_keyword_maybe: within sc->end) gives the same answers as
 * in the whole document. False once the document cannot be clean. */
static bool scan_part(scan *sc, const char *data, size_t len, bool last)
{
    sc->data = sc->line = data;
    sc->end = data + len;
    /* a part's bytes are its own: the part before it may be gone */
    sc->named_seen[0] = sc->named_seen[1] = NULL;
    const char *p = data, *end = data + len;
    bool eq = false;
#if defined(__x86_64__) && defined(__GNUC__)
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("bmi") && __builtin_cpu_supports("bmi2"))
        p = sc->checked ? scan_avx2_checked(sc, p, end, &eq) : scan_avx2(sc, p, end, &eq);
#endif
#if defined(__SSE2__)
    if (sc->ok)
        p = scan_sse2(sc, p, end, &eq);
#endif
    for (; sc->ok && p < end; p++) {
        unsigned char c = (unsigned char)*p;
        if (c == '\n') {
            line_end(sc, p, eq);
            eq = false;
            continue;
        }
        if (bad_byte(c))
            sc->ok = bytes_tolerated(sc, p, 1);
        else if (c == ';' || c == 'D' || c == '^' || c == '[' || c == '_')
            rare_byte(sc, p, end);
        else if (c == '=')
            eq = true;
    }
    if (sc->ok && sc->line < end) {
        if (!last) /* a part must end with its line: the caller's mistake, no verdict */
            sc->ok = false;
        else { /* the last line has no newline */
            sc->cut = true;
            line_end(sc, end, eq);
        }
    }
    return sc->ok;
}

/* What a scan says once every part was scanned: *headings, *json. */
static bool scan_verdict(scan *sc, bool *headings, bool *json)
{
    if (sc->title_pending) /* ... or the end of the text */
        sc->heading = true;
    *headings = sc->heading;
    *json = sc->json;
    return sc->ok;
}

static bool prescan(const char *data, size_t len, uint32_t first_line, bool checked, fsc_text *out,
                    bool *headings, bool *json, fsc_status *st)
{
    scan sc = {.data = data, .line = data, .out = out, .orig = first_line, .first_text = true, .prev_blank = true,
               .ok = true, .end = data + len, .checked = checked};
    /* lines: about one per 50 bytes of fio text, one per 20-odd of fio's JSON (a
     * member or a bracket a line), which a document that opens with '{' is taken for:
     * the array grown half-way through such a document was copied (a MiB or so) */
    const char *first = data;
    while (first < data + len && first - data < 64 && (*first == ' ' || *first == '\n'))
        first++;
    size_t guess = len / (first < data + len && *first == '{' ? 20 : 48) + 16;
    if (out && !(out->lines = malloc(guess * sizeof *out->lines))) {
        *st = FSC_E_NOMEM;
        return false;
    }
    if (out)
        out->cap_lines = guess;
    scan_part(&sc, data, len, true);
    /* a checked text has none: the lines that made them were not asked (the first
     * line of the piece might look like a title to a piece alone, not whole) */
    if (checked)
        sc.heading = sc.title_pending = false;
    if (!scan_verdict(&sc, headings, json)) {
        if (sc.nomem)
            *st = FSC_E_NOMEM;
        if (out) {
            free(out->lines);
            memset(out, 0, sizeof *out);
        }
        *headings = *json = false;
        return false;
    }
    if (out) { /* the lines point into data: the store borrows it (fsc_prescan_release) */
        out->plain = true;
        out->store.data = (char *)data;
        out->store.len = len;
    }
    return true;
}

struct fsc_plain_check {
    scan sc;
};

fsc_plain_check *fsc_plain_check_new(bool simple_too)
{
    fsc_plain_check *c = malloc(sizeof *c);
    if (c)
        c->sc = (scan){.orig = 1, .first_text = true, .prev_blank = true, .ok = true, .tolerant = simple_too};
    return c;
}

bool fsc_plain_check_lines(fsc_plain_check *c, const char *part, size_t len)
{
    return c->sc.ok && scan_part(&c->sc, part, len, false);
}

fsc_text_kind fsc_plain_check_end(fsc_plain_check *c, const char *part, size_t len)
{
    bool headings = false, json = false;
    fsc_text_kind kind = FSC_TEXT_MIXED;
    if (c->sc.ok && scan_part(&c->sc, part, len, true) && scan_verdict(&c->sc, &headings, &json)) {
        if (!c->sc.odd && !headings)
            kind = json ? FSC_TEXT_PLAIN : FSC_TEXT_NORMAL;
        else if (c->sc.tolerant && !json && !c->sc.qp_marks && !c->sc.mime)
            kind = FSC_TEXT_SIMPLE; /* with "=3D" or a MIME header it may read as a mail */
    }
    free(c);
    return kind;
}

void fsc_plain_check_free(fsc_plain_check *c)
{
    free(c);
}

bool fsc_prescan(const fsc_fastpath *fp, const char *data, size_t len, uint32_t first_line, bool checked,
                 fsc_text *out, bool *headings, bool *json, fsc_status *st)
{
    *st = FSC_OK;
    *headings = false;
    *json = false;
    memset(out, 0, sizeof *out);
    if (!fp)
        return false;
    /* a checked piece that is not clean after all (changed while it was read): asked
     * line by line as any other text */
    return (checked && prescan(data, len, first_line, true, out, headings, json, st)) ||
           (*st == FSC_OK && prescan(data, len, first_line, false, out, headings, json, st));
}

bool fsc_prescan_plain_fio(const char *data, size_t len)
{
    bool headings = false, json = false; /* fio's JSON and terse, back to back, are its output too */
    fsc_status st = FSC_OK;
    return prescan(data, len, 1, false, NULL, &headings, &json, &st) && !headings;
}

void fsc_prescan_release(fsc_text *t)
{
    memset(&t->store, 0, sizeof t->store);
}
