/* SPDX-License-Identifier: MIT */
/*
 * Lines cut short. A pager that chops long lines (less -S, journalctl's), a copy of a
 * terminal that does not wrap, `cut -c1-80`, a web page or a status view that shows
 * the start of each line and an ellipsis: the end of a long line is lost. What is
 * left reads as a line of fio's with its last value cut in the middle:
 * "avg=4517" of "avg=45173.25", "(85.5MiB/20" of "(85.5MiB/2001msec)". Read as it
 * stands, it gives a wrong number, which is worse than none. So a line cut short
 * loses its last value (the text from its last space or comma), unless that value
 * visibly ended (a ')', ']' or '%'); one cut right after a list's separator
 * ("maxb=444304Kbit/s, ") loses the separator. The values before are read.
 *
 * A line is cut short when it ends in an ellipsis glued to a value ("avg=4517…": a
 * view's marker; "..." in ASCII is normal.c's, for a line no rule reads without it),
 * or when the text was cut at one width: its longest lines of values (a '=' in them),
 * at least three and of two kinds or more, are all exactly as long (a text that no
 * tool cut has its long lines of many lengths); two are when one of them reads as a
 * line of fio's only as a cut one (also without the separators it ends in). Not
 * when half of them read as whole lines of the kinds a cut shortens (job headers,
 * direction or group lines: at that width by chance), nor when the text holds the
 * rests of lines wrapped at that width (the parser joins those: cut_width; one rest
 * that makes a whole line of fio's with the line above it is enough, a word wrap's
 * head), nor when a quarter of them end in a run of
 * spaces: lines padded to one width (a Windows console's copy, the inside of a
 * frame), of which the longest fills the width whole.
 */
#include "fastline.h"
#include "grammar.h"
#include "parse_int.h"

#include <string.h>

enum {
    CUT_MIN_WIDTH = 40,  /* a width no pager or view cuts below */
    CUT_MIN_LINES = 3,   /* lines at the width that tell it without the grammar's word */
    KIND_BYTES = 6,      /* the first bytes that tell two lines' kinds apart */
    EVIDENCE_LINES = 64, /* lines at the width the grammar is asked about */
    SAMPLE_LINES = 256,  /* lines at the width looked at for a value going on */
    LONG_BYTES = 24,     /* a line this close to the width may have been wrapped */
    PAD_BYTES = 12       /* spaces at a line's end that fio never leaves: padding */
};

/* Could a value go on after c (a digit, a letter, a unit's '/', a '.', a range's '-',
 * an opening bracket)? After a ')', ']', '%', ',' or a blank it ended. */
static bool value_goes_on(char c)
{
    return c != ' ' && c != ',' && c != ')' && c != ']' && c != '%' && c != ':' && c != ';';
}

static size_t indent_of(const char *s, size_t n)
{
    return (size_t)(fsc_skip_spaces(s, s + n) - s);
}

/* "99.50th=[ 21": the key and bracket left open go too, then the blanks and commas
 * before them. */
size_t fsc_cut_value_end(const char *s, size_t n)
{
    if (!n || !value_goes_on(s[n - 1]))
        return n;
    size_t start = indent_of(s, n), k = n;
    for (int round = 0; round < 2; round++) {
        while (k > start && s[k - 1] != ' ' && s[k - 1] != ',')
            k--;
        while (k > start && (s[k - 1] == ' ' || s[k - 1] == ','))
            k--;
        if (k <= start)
            return n; /* one word: no line of fio's values */
        char c = s[k - 1];
        if (c != '=' && c != '[' && c != '(')
            break;
    }
    return k;
}

/* s[0, n) without the separators it ends in ("maxb=444304Kbit/s, ": a list that went
 * on past the cut, which no line of fio's ends in but a percentile row, whose grammar
 * takes its comma); n when it ends in none or is nothing else. */
static size_t list_cut_end(const char *s, size_t n)
{
    size_t k = n, start = indent_of(s, n);
    while (k > start && (s[k - 1] == ' ' || s[k - 1] == ','))
        k--;
    return k > start && memchr(s + k, ',', n - k) ? k : n;
}

/* Does the line end in the time fio stamps a job's results with ("pid=5491: Sun Dec
 * 6 09:30:07 2026": "HH:MM:SS YYYY")? A job header with it was not cut: the stamp is
 * its last field (err= lines of failed jobs of one run, alike, are often a text's
 * longest). */
static bool ends_dated(const char *s, size_t n)
{
    static const char shape[] = "dd:dd:dd dddd";
    size_t k = sizeof shape - 1;
    if (n < k)
        return false;
    s += n - k;
    for (size_t i = 0; i < k; i++)
        if (shape[i] == 'd' ? (unsigned char)(s[i] - '0') > 9 : s[i] != shape[i])
            return false;
    return true;
}

/* What the grammar says of the lines w bytes long (the first EVIDENCE_LINES of them):
 * -1 when half of them or more read as whole lines of the kinds whose tail a cut
 * would take (job headers, direction or group lines that end in their last field,
 * the header of a job's results that ends in its time stamp:
 * lines as fio printed them, at that width by chance; one such line among lines cut
 * at its width is no sign); 1 when one reads as a line of fio's only as one cut
 * short, without its last value (a group line that lost its "maxt="); else 0. */
static int cut_evidence(const fsc_text *t, const fsc_grammar_set *g, pcre2_match_data *md, size_t w)
{
    size_t seen = 0, whole = 0;
    bool cut = false;
    for (size_t i = 0; i < t->n_lines && seen < EVIDENCE_LINES; i++) {
        if ((t->lines[i].flags & FSC_LINE_CONSUMED) || t->lines[i].len != w)
            continue;
        seen++;
        const char *s = fsc_text_line(t, i);
        const fsc_rule *r = fsc_grammar_match(g, s, w, md);
        whole += r && (r->whole || (r->action == FSC_ACT_JOB && ends_dated(s, w)));
        size_t k = fsc_cut_value_end(s, w);
        if (k == w)
            k = list_cut_end(s, w);
        cut = cut || (!r && k < w && fsc_grammar_match_cut(g, s, k, md));
    }
    return whole * 2 >= seen ? -1 : cut;
}

/* Is line i the rest of the line above it, wrapped at width w: that line, as long
 * as w (or, for a word wrap, shorter by the word that went down: word), reads as
 * none of the lines that end in their last field (job headers, direction and group
 * lines: the kinds a cut shortens), and with line i after it (as cut, or with the
 * space a word wrap dropped) as one of them whole? A line after a line cut short is
 * one of its own: the two never read as one. */
static bool joins_above(const fsc_text *t, const fsc_grammar_set *g, pcre2_match_data *md, size_t i, size_t w,
                        bool word, fsc_buf *join)
{
    const char *p = fsc_text_line(t, i - 1), *s = fsc_text_line(t, i);
    size_t pn = t->lines[i - 1].len, n = t->lines[i].len;
    if (pn > w || (pn < w && !word) || fsc_grammar_match(g, p, pn, md))
        return false;
    for (int spaced = pn < w; spaced < 2; spaced++) {
        if (spaced && (p[pn - 1] == ' ' || s[0] == ' '))
            break; /* a blank at the seam already: the join above was this one */
        fsc_buf_reset(join);
        fsc_buf_add(join, p, pn);
        if (spaced)
            fsc_buf_putc(join, ' ');
        fsc_buf_add(join, s, n);
        const fsc_rule *r = join->oom ? NULL : fsc_grammar_match(g, join->data, join->len, md);
        if (r && r->whole)
            return true;
    }
    return false;
}

/* Were the lines cut at one width (the width, else 0)? Their longest (st: at_w lines
 * of width w, at least CUT_MIN_WIDTH bytes) are at least CUT_MIN_LINES (or two, one
 * of them a cut line to the grammar: cut_evidence), not half of them whole lines to
 * it, and of two kinds or more (the first and the last of them differ in their first
 * bytes after the indentation: not the headers of jobs alike); one of them at least
 * ends inside a value; and the text holds hardly any rest of a wrapped line (after a
 * long line, at the margin, and no line of fio's there: fio indents its result lines,
 * and its job and group headers, which it does not, are lines of their own; or any
 * line that makes a whole line of fio's with the line above: joins_above): text
 * wrapped at a width has its lines up to that width too, and the parser joins them. */
static size_t cut_width(const fsc_text *t, const fsc_grammar_set *g, const fsc_line_stats *st)
{
    size_t w = st->longest, at_w = st->n_longest;
    if (w < CUT_MIN_WIDTH || at_w < 2)
        return 0;
    /* the first and the last of them of one kind: a text's own longest lines (its
     * group lines, its job headers), not a cut one's (whose first is a header, its
     * last a group or disk line). Asked first, as it takes no walk over the lines. */
    const char *a = fsc_text_line(t, st->first_longest), *b = fsc_text_line(t, st->last_longest);
    size_t ia = indent_of(a, w), ib = indent_of(b, w);
    if (ia + KIND_BYTES > w || ib + KIND_BYTES > w || !memcmp(a + ia, b + ib, KIND_BYTES))
        return 0;
    size_t goes_on = 0, seen = 0, padded = 0, rows = 0;
    for (size_t i = st->first_longest; i <= st->last_longest && seen < SAMPLE_LINES; i++) {
        if (!(t->lines[i].flags & FSC_LINE_CONSUMED) && t->lines[i].len == w) {
            seen++;
            const char *s = fsc_text_line(t, i);
            goes_on += value_goes_on(s[w - 1]);
            padded += w >= PAD_BYTES && fsc_skip_spaces(s + w - PAD_BYTES, s + w) == s + w;
            rows += s[indent_of(s, w)] == '|' && (s[w - 1] == ']' || s[w - 1] == ',');
        }
    }
    /* fio prints its percentile rows at one width: whole rows at w tell nothing of a
     * cut (a text that stops early has them for its longest lines, beside one line
     * of another kind as long by chance) */
    size_t told = at_w - (seen ? rows * at_w / seen : 0);
    /* lines padded with spaces to one width (a console's copy, a frame's inside):
     * the longest of them fills it, whole */
    if (!goes_on || padded * 4 >= seen)
        return 0;
    pcre2_match_data *md = fsc_grammar_match_data(g);
    if (!md)
        return 0;
    size_t rests = 0, joined = 0;
    fsc_buf join = {0};
    for (size_t i = 1; i < t->n_lines && rests * 4 <= at_w && !joined; i++) {
        const fsc_line *l = &t->lines[i], *p = l - 1;
        if (((l->flags | p->flags) & FSC_LINE_CONSUMED) || !l->len || p->len + LONG_BYTES < w)
            continue;
        const char *s = fsc_text_line(t, i);
        if (s[0] != ' ' && !fsc_grammar_match(g, s, l->len, md)) {
            rests++;
            joined += joins_above(t, g, md, i, w, true, &join);
        } else {
            rests += joins_above(t, g, md, i, w, false, &join);
        }
    }
    fsc_buf_free(&join);
    /* wrapped, not cut: many rests, or one that makes a whole line of fio's with the
     * line above it (the head of a line a word wrap broke: a cut loses the tail, it
     * leaves none below) */
    int said = rests * 4 > at_w || joined ? -1 : cut_evidence(t, g, md, w);
    pcre2_match_data_free(md);
    return said >= 0 && (told >= CUT_MIN_LINES || (said > 0 && told >= 2)) ? w : 0;
}

void fsc_line_stats_longest(fsc_line_stats *st, size_t i, size_t n)
{
    if (n > st->longest) {
        st->longest = (uint32_t)n;
        st->n_longest = 0;
        st->first_longest = i;
    }
    st->n_longest++;
    st->last_longest = i;
}

/* Is the number at p (up to e: the line's end, its blanks taken off; 2.x pads it:
 * "stdev= 6.23") one that fio prints with two decimals, cut short: digits with no
 * point, or fewer than two digits after it ("52", "524.3" of "524.35")? A value of
 * letters ("nan") is none of fio's numbers, as it stands. */
static bool decimals_cut(const char *p, const char *e)
{
    while (p < e && *p == ' ')
        p++;
    const char *d = p;
    while (p < e && (unsigned char)(*p - '0') <= 9)
        p++;
    if (p == d)
        return false;
    if (p == e)
        return true;
    if (*p != '.')
        return false;
    d = ++p;
    while (p < e && (unsigned char)(*p - '0') <= 9)
        p++;
    return p == e && p - d < 2;
}

/* Is the key of the last "key=value" of s[0, n) (the last word with a '=' in it, its
 * letters before its first '=': "stdev" of "avg=88.61, stdev=482.9" and of 2.x's
 * "stdev= 6.23", "dropped" of "short=0,0,0,0 dropped=0,0,0,0", "short" of 2.0's
 * "short=r=0/w=0/d=0") the key fio prints last on a line of values
 * (fsc_fio_last_key)? */
static bool last_key_ends(const char *s, size_t n)
{
    size_t k = n;
    const char *eq = NULL;
    for (int word = 0; !eq && k && word < 2; word++) { /* the last word, or the one before */
        size_t e = k;
        while (e && s[e - 1] == ' ')
            e--;
        k = e;
        while (k && s[k - 1] != ' ')
            k--;
        eq = memchr(s + k, '=', e - k);
        /* a word without a '=' is a value only after its key's '=' (2.x pads values:
         * "stdev= 6.23"); after a list's separator, a key cut short ("stdev=3.07,
         * samp") */
        size_t b = k;
        while (b && s[b - 1] == ' ')
            b--;
        if (!eq && (!b || s[b - 1] != '='))
            return false;
    }
    if (!eq)
        return false;
    for (size_t c = k; s + c < eq; c++) /* "3.11,stdev=": a padded value glued to it */
        if (s[c] == ',')
            k = c + 1;
    /* in a word of two glued by a comma ("avg=88.63,stdev=463.92"), the last key */
    for (const char *c = eq; (c = memchr(c, ',', (size_t)(s + n - c))) != NULL; c++) {
        const char *q = memchr(c + 1, '=', (size_t)(s + n - c - 1));
        if (!q)
            break;
        if (!memchr(c + 1, ',', (size_t)(q - c - 1))) { /* "x,key=": a key after it */
            k = (size_t)(c + 1 - s);
            eq = q;
        }
    }
    size_t kn = (size_t)(eq - (s + k));
    return fsc_fio_last_key(s + k, kn) && !(fsc_fio_two_decimals(s + k, kn) && decimals_cut(eq + 1, s + n));
}

bool fsc_fio_two_decimals(const char *key, size_t n)
{
    return (n == 5 && !memcmp(key, "stdev", 5)) || (n == 3 && !memcmp(key, "avg", 3));
}

bool fsc_fio_last_key(const char *key, size_t n)
{
    static const char *const last_keys[] = {"stdev",   "samples", "minf",  "depth", "dropped", "drop",
                                            "short",   "iodepth", "error", "flags", "stddev"};
    for (size_t i = 0; i < sizeof last_keys / sizeof *last_keys; i++)
        if (strlen(last_keys[i]) == n && !memcmp(key, last_keys[i], n))
            return true;
    return false;
}

/* Does the line s[0, n) end as fio ends its lines of values, as far as the text can
 * tell: after a value that visibly ended ('%', ']', ')', "msec", a list's ','), or
 * in the field fio prints last (last_key_ends), or in a header's time stamp? A line
 * cut inside (a log copied while fio wrote it, a paste cut at a size limit, a line
 * whose end an editor or a view lost) ends in none of these, mostly. */
static bool ends_as_fio(const char *s, size_t n)
{
    while (n && s[n - 1] == ' ')
        n--;
    if (n >= 2 && s[n - 1] == '.' && (unsigned char)(s[n - 2] - '0') <= 9)
        return false; /* "stdev=490.": no number of fio's ends in its point */
    /* a mark glued after the line's end, which no cut leaves ("runt=  2000msec.", a
     * sentence's; "...]**", Markdown's emphasis): the line ends before it */
    while (n > 1 && s[n - 1] && strchr(".*\\\"!`'~_", s[n - 1]) && (unsigned char)(s[n - 2] - '0') > 9)
        n--;
    while (n && s[n - 1] == ' ')
        n--;
    return !n || !value_goes_on(s[n - 1]) || s[n - 1] == '>' || (n >= 4 && !memcmp(s + n - 4, "msec", 4)) ||
           (n >= 6 && !memcmp(s + n - 6, "resets", 6)) || ends_dated(s, n) || last_key_ends(s, n);
}

size_t fsc_line_stops_short(const char *s, size_t n)
{
    size_t t = n;
    while (t && s[t - 1] == ' ')
        t--;
    bool row = t && *fsc_skip_spaces(s, s + t) == '|';
    if (t && s[t - 1] == ',') /* a list that went on (a percentile row ends in its comma) */
        return row ? n : list_cut_end(s, n);
    /* a row of values without brackets ("| 99.95th=219", fio 3.1's block lifetime
     * percentiles) is no row of fio's latency percentiles: none is read from it */
    if (ends_as_fio(s, n) || (row && !memchr(s, '[', n)))
        return n;
    size_t k = fsc_cut_value_end(s, t); /* (the blanks after a cut value go with it) */
    return k > indent_of(s, n) ? k : n;
}

void fsc_text_cut_lines(fsc_text *t, const fsc_grammar_set *g, bool stats)
{
    fsc_line_stats st = {0};
    if (stats) {
        st = t->stats;
    } else {
        /* a normalized text, or lines of JSON or terse among them: its lines of values
         * (a '=' in them) tell, not the prose around them, whose lines may be longer
         * than the width the output was cut at (a pager's copy in a blog post) */
        for (size_t i = 0; i < t->n_lines; i++) {
            const fsc_line *l = &t->lines[i];
            const char *s = fsc_text_line(t, i);
            if (!(l->flags & FSC_LINE_CONSUMED) && memchr(s, '=', l->len)) {
                fsc_line_stats_add(&st, i, l->len);
                st.dots = st.dots || fsc_cut_marker_len(s, l->len, false);
            }
        }
    }
    size_t w = cut_width(t, g, &st);
    for (size_t i = 0; (w || st.dots) && i < t->n_lines; i++) {
        fsc_line *l = &t->lines[i];
        if ((l->flags & FSC_LINE_CONSUMED) || l->len < 4)
            continue;
        const char *s = fsc_text_line(t, i);
        size_t n = l->len, m = fsc_cut_marker_len(s, n, false);
        if (!m && n != w)
            continue;
        size_t k = fsc_cut_value_end(s, n - m);
        if (k == n && !m)
            k = list_cut_end(s, n);
        if (k < n && k > indent_of(s, n)) {
            l->len = (uint32_t)k;
            l->flags |= FSC_LINE_CUT;
            t->n_cut++;
        }
    }
    /* the text's last line, with no newline after it: where it does not end as fio
     * ends its line, the text stopped inside it, and its last value is cut short */
    fsc_line *l = t->n_lines ? &t->lines[t->n_lines - 1] : NULL;
    if (!t->open_end || !l || (l->flags & (FSC_LINE_CONSUMED | FSC_LINE_CUT)) || l->len < 4)
        return;
    const char *s = fsc_text_line(t, t->n_lines - 1);
    size_t n = l->len;
    if (!memchr(s, '=', n) || ends_as_fio(s, n))
        return;
    size_t k = fsc_cut_value_end(s, n);
    if (k < n && k > indent_of(s, n)) {
        l->len = (uint32_t)k;
        l->flags |= FSC_LINE_CUT;
        t->n_cut++;
        t->open_end_cut = true;
    }
}
