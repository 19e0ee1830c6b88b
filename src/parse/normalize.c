/* SPDX-License-Identifier: MIT */
/*
 * Normalize raw bytes into clean lines with a map back to original line numbers:
 * undo the damage that pastes, mails, web pages and CI logs do to fio output.
 */
#include "parse_int.h"

#include "fioscope/base64.h"

#include <ctype.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/*
 * The steps, in the order they run (each keeps `orig` pointing into the original):
 *  1. physical lines: CRLF; a JSON log's line gives the lines of its string
 *     (jsonlog.c: Docker's json-file log, a shipper's "message", an Ansible task's
 *     "stdout"); a line that holds the output as a string literal gives its strings'
 *     lines (strlit.c: Python's b'...\n...', a dict's 'stdout', logfmt's output="...",
 *     a list of the lines); quoted-printable bodies (=3D, soft breaks "=\n" join
 *     lines; the joined line keeps the first line's number; only the escapes an
 *     encoder writes are decoded, so fio's "IOPS=10.9k" in text that merely claims
 *     to be encoded stays); format=flowed mail bodies (RFC 3676: a line ending in a
 *     space joins the next line of the same quote depth, which loses its quote
 *     prefix); each mail of an mbox (or its next Content-Type header) says anew
 *     whether its text is either (fsc_mail_state, handed from piece to piece of a
 *     huge file); lone CRs: when every
 *     segment before the last CR is progress junk ("Jobs: ..." or empty) only the
 *     text after the last CR is kept, else each segment becomes its own line.
 *  2. per line: terminal controls first (terminal.c: colour and cursor codes,
 *     ESC shown as "^[", codes whose ESC was lost, backspaces, bells); BOM,
 *     zero-width chars, soft hyphens dropped; NBSP and the other
 *     Unicode spaces of U+2000..U+205F and tabs become one space (U+3000, the CJK
 *     ideographic space, is kept: CJK prose passes through unchanged); CI
 *     timestamps at the line start; typeset quotes, dashes and signs in a JSON
 *     document's keys, a fio command and fio's own lines (typography.c); Markdown's
 *     backslash escapes in a converter's Markdown ("\[   35\]"); HTML tags
 *     (only in documents that look like HTML; block tags such as <br> and </p>
 *     inside a line split it) and entities;
 *     mail quote prefixes; progress lines glued to the next line without a CR;
 *     lines flattened from a whole paste are split before the keywords that begin
 *     fio lines (FSC_LINE_SPLIT), and the words, numbers, units and percentile
 *     columns that the 80-column wrap broke are rejoined where no fio line could
 *     legitimately hold that space (rejoin_values, rejoin_tokens); what stays
 *     ambiguous, such as the date of a job line, is left to the parser.
 *  3. over line runs: Markdown fences are flagged; code-block line-number gutters
 *     (blocks of bare numbers 1..N, or consecutive numbers in front of each line)
 *     are removed; after the prefixes (prefix.c), the indentation of a code block
 *     that holds a line of fio's left margin is removed.
 * Invalid UTF-8 is kept byte for byte: only the exact sequences above are touched.
 */

/* A flattened line: FLAT_MIN_LEN bytes or more, and FLAT_MIN_SPLITS fio lines or two
 * that a mail client joined. (The pre-scan sends a text with a line that long here:
 * a shorter one is read as it stands on either path, so both read it alike.) */
enum { FLAT_MIN_LEN = 240, FLAT_MIN_SPLITS = 4, STAMP_MAX = 40, MDESC_MIN = 3 };

void fsc_text_free(fsc_text *t)
{
    fsc_outline_free(t->outline);
    fsc_buf_free(&t->store);
    fsc_buf_free(&t->tags);
    free(t->lines);
    memset(t, 0, sizeof *t);
}

static bool add_line(fsc_text *t, const char *s, size_t n, uint32_t orig, uint16_t flags)
{
    fsc_line *l = FSC_PUSH(t->lines, t->n_lines, t->cap_lines);
    if (!l)
        return false;
    l->off = t->store.len;
    l->len = (uint32_t)n;
    l->orig = orig;
    l->flags = flags;
    l->lead = 0;
    l->tag = 0;
    fsc_buf_add(&t->store, s, n);
    fsc_buf_putc(&t->store, '\n');
    return !t->store.oom;
}

/* ---- small string helpers ---- */

static bool starts_with(const char *s, size_t n, const char *lit)
{
    size_t k = strlen(lit);
    return n >= k && memcmp(s, lit, k) == 0;
}

static bool starts_with_ci(const char *s, size_t n, const char *lit)
{
    size_t k = strlen(lit);
    if (n < k)
        return false;
    for (size_t i = 0; i < k; i++)
        if (tolower((unsigned char)s[i]) != tolower((unsigned char)lit[i]))
            return false;
    return true;
}

const char *fsc_find_lit(const char *s, size_t n, const char *lit)
{
    size_t k = strlen(lit);
    const char *end = s + n;
    for (const char *p = s; k <= (size_t)(end - p) && (p = memchr(p, lit[0], (size_t)(end - p) - k + 1)); p++)
        if (memcmp(p, lit, k) == 0)
            return p;
    return NULL;
}

static size_t skip_spaces(const char *s, size_t n, size_t i)
{
    while (i < n && (s[i] == ' ' || s[i] == '\t'))
        i++;
    return i;
}

static size_t trim_right(const char *s, size_t n)
{
    while (n && (s[n - 1] == ' ' || s[n - 1] == '\t'))
        n--;
    return n;
}

static const char *buf_str(const fsc_buf *b)
{
    return b->data ? b->data : "";
}

/* ---- document-level detection ---- */

typedef struct doc_kind {
    bool json;   /* a JSON document: its strings are data, never markup or entities */
    bool html;   /* tags like <br> are markup, not text */
    bool qp_all; /* quoted-printable without a MIME header saying so */
    /* inline markup the text may hold: emphasis or code marks, closing HTML tags,
     * underscores opening a word; clean fio output has none, and then no line is
     * looked at for it */
    bool marks, tags, underscores;
    bool wikitags; /* a forum's BBCode or a wiki's tags: "[code]", "{noformat}" (fsc_markup_tag_len) */
    bool term; /* terminal controls may be in it (fsc_term_in_doc): lines are looked at */
    bool jsonlog; /* it names a JSON log's text member: lines are looked at (jsonlog.c) */
    bool strlit;  /* it holds a newline escape or a list of strings: lines are looked at (strlit.c) */
    bool mdesc;   /* Markdown's backslash escapes ("\[   35\]" of a percentile row): unescaped */
    bool name_tabs; /* its tabs are all inside job names (name_tabs_end): kept */
    bool csv;     /* a CSV file with the text in a column (csvlog.c): its records are read */
    bool pydict;  /* fio's keys as Python writes them: a dict is written as JSON (pydict.c) */
    bool sbs;     /* two runs side by side (sidebyside.c): the right column after the left */
    fsc_sbs sbs_layout;
    fsc_csvlog csvlog;
} doc_kind;

static size_t count_lit(const char *s, size_t n, const char *lit, size_t stop_at)
{
    size_t c = 0, k = strlen(lit);
    for (const char *p = s; c < stop_at && (p = fsc_find_lit(p, n - (size_t)(p - s), lit)); p += k)
        c++;
    return c;
}

/* Quoted-printable text without a MIME header saying so: three "=3D" and no
 * Content-Transfer-Encoding anywhere. */
static bool doc_qp_all(const char *data, size_t len)
{
    return !fsc_find_lit(data, len, "Content-Transfer-Encoding:") && count_lit(data, len, "=3D", 3) >= 3;
}

/* Does data[0, len) spell ESC as a string's escape: JSON's and Python's "\u001b",
 * "\x1b", C's "\033" or "\e"? */
static bool escaped_esc(const char *data, size_t len)
{
    static const char *const forms[] = {"\\u001b", "\\u001B", "\\x1b", "\\x1B", "\\033", "\\e["};
    for (size_t i = 0; i < sizeof forms / sizeof *forms; i++)
        if (fsc_find_lit(data, len, forms[i]))
            return true;
    return false;
}

/* Does data hold a tag of fsc_markup_tag_len's, by the few that stand around code? */
static bool markup_tags_in(const char *data, size_t len)
{
    static const char *const marks[] = {"[code", "[CODE", "[Code", "[/code]", "[/CODE]", "[quote", "[QUOTE",
                                        "[/quote]", "[/QUOTE]", "{code", "{noformat}", "{quote}"};
    for (size_t i = 0; i < sizeof marks / sizeof *marks; i++)
        if (fsc_find_lit(data, len, marks[i]))
            return true;
    return false;
}

/* Does data hold mark first or last on a line (spaces aside)? A document that opens
 * with fio's JSON may go on with a pasted page ("fio-3.33<br>", a concatenation of
 * outputs): its marks end or begin lines, where none of the JSON's strings can put
 * them, since a string does not span lines. The spaces walked are those right before
 * or after one mark: linear. */
static bool mark_at_line_edge(const char *data, size_t len, const char *mark)
{
    size_t ml = strlen(mark);
    for (const char *m = fsc_find_lit(data, len, mark); m;) {
        const char *b = m, *e = m + ml, *end = data + len;
        while (b > data && (b[-1] == ' ' || b[-1] == '\t'))
            b--;
        while (e < end && (*e == ' ' || *e == '\t' || *e == '\r'))
            e++;
        if (b == data || b[-1] == '\n' || e == end || *e == '\n')
            return true;
        m = fsc_find_lit(m + 1, (size_t)(end - m - 1), mark);
    }
    return false;
}

/* Where a job's name ends on a line of fio's that begins with it ("tab\tname: (g=0):
 * rw=...", "...: (groupid=0, ...", "...: Laying out IO file", the cpuio engine's
 * "... (noop): ioengine=cpuio"); 0 when the line is no such line or begins with a
 * blank. */
static size_t name_tabs_end(const char *s, size_t n)
{
    static const char *const after[] = {": (g=", ": (groupid=", ": Laying out IO file", " (noop): ioengine=",
                                        " (qsort): ioengine=", ": ioengine=cpuio"};
    if (!n || s[0] == ' ' || s[0] == '\t')
        return 0;
    for (size_t k = 0; k < FSC_ARRAY_SIZE(after); k++) {
        const char *at = fsc_find_lit(s, n, after[k]);
        if (at)
            return (size_t)(at - s);
    }
    return 0;
}

/* How far a line's tabs are a name's (they stay where the document's tabs are all
 * names': tabs_in_names_only): the name of a job line (name_tabs_end), or all of a
 * member line of fio's JSON, indented with blanks, whose strings fio writes with the
 * tab as it is ("jobname" : "tab<TAB>name"). */
static size_t kept_tabs_end(const char *s, size_t n)
{
    size_t i = 0;
    while (i < n && s[i] == ' ')
        i++;
    return i > 0 && i < n && s[i] == '"' ? n : name_tabs_end(s, n);
}

/* Are the tabs of data[0, len) (one at least) all inside the names of job lines
 * (name_tabs_end), or on lines of fio's JSON (a member, whose string fio writes with
 * the tab as it is)? fio prints a name as given (--name=$'a\tb'); any other tab (an
 * indentation, a gutter's "6\t", a tab-separated log's columns, a stamp before a
 * job line) makes every tab a blank, as before. */
static bool tabs_in_names_only(const char *data, size_t len)
{
    const char *end = data + len, *t = memchr(data, '\t', len);
    if (!t)
        return false;
    while (t) {
        const char *ls = t, *le = memchr(t, '\n', (size_t)(end - t));
        while (ls > data && ls[-1] != '\n')
            ls--;
        le = le ? le : end;
        size_t name_end = kept_tabs_end(ls, (size_t)(le - ls));
        for (const char *q = ls; q < le; q++)
            if (*q == '\t' && (size_t)(q - ls) >= name_end)
                return false;
        t = le < end ? memchr(le, '\t', (size_t)(end - le)) : NULL;
    }
    return true;
}

static doc_kind detect_doc(const char *data, size_t len)
{
    static const char *const html_marks[] = {"<br>", "<br/>", "<br />", "<pre", "</p>", "<p>",
                                             "<code>", "</div>", "<html", "<BR>", "<PRE",
                                             "</w:p>", "</text:p>", "<![CDATA["};
    doc_kind d;
    memset(&d, 0, sizeof d);
    size_t k = 0;
    if (len >= 3 && !memcmp(data, "\xef\xbb\xbf", 3))
        k = 3;
    while (k < len && (data[k] == ' ' || data[k] == '\t' || data[k] == '\r' || data[k] == '\n'))
        k++;
    /* a job named "<br>" or "a&amp;b" in fio's JSON is a name, not HTML */
    d.json = k < len && data[k] == '{' && !(k + 1 < len && isalpha((unsigned char)data[k + 1])); /* not "{code}" */
    for (size_t i = 0; i < sizeof html_marks / sizeof *html_marks && !d.html; i++)
        d.html = d.json ? mark_at_line_edge(data, len, html_marks[i]) : fsc_find_lit(data, len, html_marks[i]) != NULL;
    d.qp_all = doc_qp_all(data, len);
    d.marks = memchr(data, '*', len) || memchr(data, '`', len);
    d.tags = !d.html && fsc_find_lit(data, len, "</");
    d.wikitags = !d.json && markup_tags_in(data, len);
    d.jsonlog = fsc_jsonlog_in_doc(data, len);
    d.strlit = fsc_strlit_in_doc(data, len);
    d.csv = !d.json && fsc_csvlog_in_doc(data, len, &d.csvlog);
    d.pydict = fsc_pydict_in_doc(data, len);
    d.sbs = !d.json && !d.csv && fsc_sbs_in_doc(data, len, &d.sbs_layout);
    d.name_tabs = tabs_in_names_only(data, len);
    /* a converter's Markdown (pandoc, turndown, Reddit's editor) escapes the brackets of
     * fio's percentile rows, an editor that escapes only emphasis the underscores of
     * job names, of "io_u" and "td_io_queue" in error texts, of "in_queue": three
     * escapes of them in all (fio prints no backslash; a job with one percentile has
     * one row), each "\[" closed */
    if (!d.json) {
        size_t open_br = count_lit(data, len, "\\[", MDESC_MIN), close_br = count_lit(data, len, "\\]", MDESC_MIN);
        size_t under = count_lit(data, len, "\\_", MDESC_MIN);
        d.mdesc = (open_br ? close_br >= open_br : true) && open_br + under >= MDESC_MIN;
    }
    /* terminal controls, or their ESC spelled as quoted-printable in a mail or as an
     * escape in a string (a JSON log's, a literal's) */
    d.term = fsc_term_in_doc(data, len) || ((d.jsonlog || d.strlit) && escaped_esc(data, len)) ||
             ((d.qp_all || fsc_find_lit(data, len, "Content-Transfer-Encoding:")) &&
              (fsc_find_lit(data, len, "=1B") || fsc_find_lit(data, len, "=1b")));
    for (const char *u = memchr(data, '_', len); u && !d.underscores; u = memchr(u + 1, '_', len - (size_t)(u + 1 - data)))
        d.underscores = u == data || u[-1] == ' ' || u[-1] == '\n' || u[-1] == '(';
    return d;
}

/* ---- step 1: physical lines, quoted-printable, CR ---- */

/* Each physical line goes straight on to step 2 (clean_line), so that no copy of the
 * whole document is kept between the steps. */
typedef struct cleaner cleaner;
static bool clean_line(cleaner *c, const char *s, size_t n, uint32_t orig, uint16_t flags);
static bool emit_physical(cleaner *t, const char *s, size_t n, uint32_t orig, uint16_t flags);


/* Append s decoded from quoted-printable to b. Returns true for a soft line break.
 * latin1: the part's charset is ISO-8859-1 (or windows-1252): an encoded byte above
 * 0x7F is that character ("=A0" a no-break space), written as UTF-8. */
/* The byte of the escape "=XY" at s[k] (k + 2 < n), or -1. */
static int qp_escape(const char *s, size_t n, size_t k)
{
    if (k + 2 >= n)
        return -1;
    int hi = fsc_hex_digit((unsigned char)s[k + 1]), lo = fsc_hex_digit((unsigned char)s[k + 2]);
    return hi >= 0 && lo >= 0 ? hi * 16 + lo : -1;
}

/* How many escapes from s[k] on spell one UTF-8 character ("=E2=80=99"): 0 when the
 * byte at k leads none, or the bytes after it do not go on with it. An encoder may
 * break the line between the escapes of one character: the escapes up to a soft
 * break at the line's end count (the rest begins the next line, qp_decode_append). */
static size_t qp_utf8_escapes(const char *s, size_t n, size_t k, int c)
{
    size_t need = c >= 0xC2 && c <= 0xDF ? 1 : c >= 0xE0 && c <= 0xEF ? 2 : c >= 0xF0 && c <= 0xF4 ? 3 : SIZE_MAX;
    if (need == SIZE_MAX)
        return 0;
    for (size_t j = 1; j <= need; j++) {
        size_t at = k + 3 * j;
        if (at < n && s[at] == '=' && trim_right(s + at + 1, n - at - 1) == 0)
            return j; /* a soft break: the character goes on on the next line */
        int d = at < n && s[at] == '=' ? qp_escape(s, n, at) : -1;
        if (d < 0x80 || d > 0xBF)
            return 0;
    }
    return need + 1;
}

/* Does an encoder write the escape of c at s[k] ("=XY", the line s[0, n))? It writes
 * '=' as "=3D", a tab or space before the line's end, bytes above 0x7E, and at a
 * line's start "=2E" (a dot) and "=46" ("From "). It never writes a control byte, a
 * letter or a digit, and hardly ever other printable bytes (RFC 2045 allows "=40"
 * for '@' and the other characters EBCDIC lacks, which no common mailer does): text
 * that only claims to be quoted-printable (a mail whose client did not encode it,
 * fio's output pasted after such a mail) keeps its "IOPS=10.9k", "min=43" and
 * "total=4096". */
static bool qp_escape_written(const char *s, size_t n, size_t k, int c)
{
    if (c == '=' || c >= 0x7F)
        return c != 0x7F;
    if (c == 0x1b) /* a colour code's ESC ("=1B[32m", or a soft break after it) */
        return k + 3 < n && (s[k + 3] == '[' || (s[k + 3] == '=' && trim_right(s + k + 4, n - k - 4) == 0));
    if (c == ' ' || c == '\t') { /* only where blanks (or their escapes) end the line */
        for (size_t j = k + 3; j < n;) {
            int d = s[j] == '=' ? qp_escape(s, n, j) : -1;
            if (s[j] == ' ' || s[j] == '\t')
                j++;
            else if (d == ' ' || d == '\t')
                j += 3;
            else
                return s[j] == '=' && trim_right(s + j + 1, n - j - 1) == 0; /* a soft break */
        }
        return true;
    }
    return k == 0 && c >= 0x20;
}

/* Could the line s[0, n) be one of a quoted-printable body? Its encoder writes lines
 * of at most 76 characters, in which every '=' begins an escape of two hex digits or
 * is a soft break at the line's end. Text below such a body breaks that at once: fio's
 * own lines ("(g=0)", "th=[", "err= 0", "ioengine=psync", the 100-column job
 * header), a document pasted after the mail. */
static bool qp_possible(const char *s, size_t n)
{
    if (n > 76)
        return false;
    for (const char *p = memchr(s, '=', n); p; p = memchr(p + 1, '=', (size_t)(s + n - p - 1))) {
        size_t k = (size_t)(p - s);
        if (trim_right(p + 1, n - k - 1) == 0)
            return true; /* a soft break */
        if (k + 2 >= n || fsc_hex_digit((unsigned char)p[1]) < 0 || fsc_hex_digit((unsigned char)p[2]) < 0)
            return false;
    }
    return true;
}

static bool qp_decode_append(fsc_buf *b, const char *s, size_t n, bool latin1)
{
    /* the escapes of UTF-8 continuation bytes that begin a line: the end of a
     * character that a soft break cut (qp_utf8_escapes) */
    size_t cont = 0;
    while (!latin1 && cont + 2 < n && s[cont] == '=' && qp_escape(s, n, cont) >= 0x80 &&
           qp_escape(s, n, cont) <= 0xBF)
        cont += 3;
    for (size_t k = 0; k < cont; k += 3)
        fsc_buf_putc(b, (char)qp_escape(s, n, k));
    for (size_t k = cont; k < n; k++) {
        if (s[k] != '=') {
            fsc_buf_putc(b, s[k]);
            continue;
        }
        if (trim_right(s + k + 1, n - k - 1) == 0)
            return true; /* "=" (plus trailing blanks) at the end: soft break */
        int c = k + 2 < n ? qp_escape(s, n, k) : -1;
        if (c < 0 || !qp_escape_written(s, n, k, c)) {
            fsc_buf_putc(b, '=');
            continue;
        }
        if (c >= 0x80 && latin1) {
            fsc_buf_put_utf8(b, (uint32_t)c);
        } else if (c >= 0x80) { /* UTF-8: a whole character, else the escapes stay */
            size_t m = qp_utf8_escapes(s, n, k, c);
            if (!m) {
                fsc_buf_putc(b, '=');
                continue;
            }
            for (size_t j = 0; j < m; j++)
                fsc_buf_putc(b, (char)qp_escape(s, n, k + 3 * j));
            k += 3 * m - 1;
            continue;
        } else {
            fsc_buf_putc(b, (char)c);
        }
        k += 2;
    }
    return false;
}

/* Progress output that a later \r overwrote: nothing, or a "Jobs:" status line. */
static bool is_progress_junk(const char *s, size_t n)
{
    size_t i = skip_spaces(s, n, 0);
    return i == n || starts_with(s + i, n - i, "Jobs: ");
}

static bool emit_cr_segments(cleaner *t, const char *s, size_t n, uint32_t orig, uint16_t flags)
{
    const char *cr = memchr(s, '\r', n);
    if (!cr)
        return clean_line(t, s, n, orig, flags);
    flags |= FSC_LINE_CR;
    const char *last = s + n;
    while (last > s && last[-1] != '\r')
        last--;
    bool all_junk = true;
    for (const char *p = s; p < last - 1 && all_junk;) {
        const char *e = memchr(p, '\r', (size_t)(last - 1 - p));
        if (!e)
            e = last - 1;
        all_junk = is_progress_junk(p, (size_t)(e - p));
        p = e + 1;
    }
    if (all_junk)
        return clean_line(t, last, (size_t)(s + n - last), orig, flags);
    for (const char *p = s;;) {
        const char *e = memchr(p, '\r', (size_t)(s + n - p));
        if (!clean_line(t, p, (size_t)((e ? e : s + n) - p), orig, flags))
            return false;
        if (!e)
            return true;
        p = e + 1;
    }
}

/* MIME state (fsc_mail_state) and the document's own default for quoted-printable
 * (doc_kind.qp_all), in force where no header said otherwise. */
typedef struct mime_state {
    fsc_mail_state s;
    bool qp_default;
} mime_state;

/* An mbox separator, the first line of every mail of an mbox ("From sender Mon Nov
 * 30 10:00:00 2026", git format-patch's "From <sha> Mon Sep 17 00:00:00 2001"): "From ",
 * a word, a weekday. (Prose that begins "From the ..." has no weekday after its word;
 * a mail body's own "From " lines are quoted as ">From " in an mbox.) */
static bool mbox_separator(const char *s, size_t n)
{
    static const char days[] = "MonTueWedThuFriSatSun";
    if (!starts_with(s, n, "From ") || n < 16 || s[5] == ' ')
        return false;
    const char *sp = memchr(s + 5, ' ', n - 5);
    if (!sp || (size_t)(s + n - sp) < 5 || sp[4] != ' ')
        return false;
    for (size_t d = 0; d < sizeof days - 1; d += 3)
        if (!memcmp(sp + 1, days + d, 3))
            return true;
    return false;
}

static void mime_track(mime_state *ms, const char *s, size_t n)
{
    fsc_mail_state *m = &ms->s;
    /* a new mail, or a new file `tail` shows ("==> fio.log <==", which in a
     * quoted-printable body would read "=3D=3D> ..."): its own headers decide */
    if (mbox_separator(s, n) || fsc_file_banner(s, n)) {
        *m = (fsc_mail_state){.said = true, .qp = ms->qp_default, .separated = true, .cte_seen = m->cte_seen};
        return;
    }
    if (starts_with_ci(s, n, "Content-Transfer-Encoding:")) {
        m->qp = fsc_find_lit(s, n, "quoted-printable") || fsc_find_lit(s, n, "Quoted-Printable");
        m->b64_hdr = fsc_find_lit(s, n, "base64") || fsc_find_lit(s, n, "Base64") || fsc_find_lit(s, n, "BASE64");
        m->said = m->cte_in_block = m->cte_seen = true;
        return;
    }
    if (starts_with_ci(s, n, "Content-Type:")) {
        /* a header block begins (the next mail of mails pasted one after another):
         * its text is as its own headers say, quoted-printable only with a
         * Content-Transfer-Encoding of its own (before this line or after it) */
        if (!m->cte_in_block) {
            m->qp = ms->qp_default;
            m->b64_hdr = false;
        }
        m->undecoded = fsc_mime_type_undecoded(s, n);
        /* a text/html part after a text/plain one in a multipart/alternative (Gmail's,
         * Thunderbird's) is the same text again as markup: its runs twice */
        if (fsc_mime_type_is(s, n, "multipart/alternative"))
            m->alternative = true;
        else if (m->alternative && fsc_mime_type_is(s, n, "text/plain"))
            m->plain_seen = true;
        m->html_hdr = m->plain_seen && fsc_mime_type_is(s, n, "text/html");
        m->said = true;
        m->latin1 = fsc_find_lit(s, n, "iso-8859-1") || fsc_find_lit(s, n, "ISO-8859-1") || fsc_find_lit(s, n, "latin1") ||
                    fsc_find_lit(s, n, "windows-1252");
        m->flowed_hdr = fsc_find_lit(s, n, "format=flowed") || fsc_find_lit(s, n, "format=\"flowed\"");
        m->flowed = false; /* whether its text flows is its own */
        m->delsp = fsc_find_lit(s, n, "delsp=yes") || fsc_find_lit(s, n, "DelSp=Yes");
    }
    if (trim_right(s, n) == 0) {
        /* the header block ends: a base64 body of text may begin (split_physical) */
        if (m->b64_hdr && !m->undecoded)
            m->b64 = m->b64_first = true;
        m->skip = m->html_hdr;
        m->b64_hdr = m->undecoded = m->html_hdr = false;
        m->cte_in_block = false;
        if (m->flowed_hdr) {
            m->flowed = true;
            m->flowed_hdr = false;
        }
    }
    const char *b = fsc_find_lit(s, n, "boundary=");
    if (b) {
        b += 9;
        size_t rest = n - (size_t)(b - s);
        if (rest && *b == '"') {
            b++;
            rest--;
        }
        size_t k = 0;
        while (k < rest && k + 1 < sizeof m->boundary && b[k] != '"' && b[k] != ';' && b[k] != ' ')
            k++;
        /* a multipart inside a part of another (an alternative in a mail with
         * attachments): the other's boundary still ends parts */
        if (m->boundary[0] && (strlen(m->boundary) != k || memcmp(m->boundary, b, k)))
            memcpy(m->outer, m->boundary, sizeof m->outer);
        memcpy(m->boundary, b, k);
        m->boundary[k] = 0;
        return;
    }
    bool inner = m->boundary[0] && n >= 2 && s[0] == '-' && s[1] == '-' && starts_with(s + 2, n - 2, m->boundary);
    bool outer = !inner && m->outer[0] && n >= 2 && s[0] == '-' && s[1] == '-' && starts_with(s + 2, n - 2, m->outer);
    if (inner || outer) {
        m->qp = m->flowed = m->flowed_hdr = m->latin1 = false; /* a new MIME part: its own header decides */
        m->b64 = m->b64_hdr = m->undecoded = m->html_hdr = m->skip = false;
        if (outer) /* the multipart inside ended */
            m->alternative = m->plain_seen = false;
        m->said = true;
    }
}

bool fsc_mail_state_matters(const fsc_mail_state *m, const char *data, size_t len)
{
    if (m->latin1 || m->flowed_hdr || m->flowed || m->delsp || m->cte_in_block || m->b64 || m->skip ||
        m->html_hdr)
        return true;
    if (m->said || m->cte_seen) {
        /* quoted-printable where the text begins, and where a mail of it says
         * nothing (an mbox separator, a Content-Type header): from the state above,
         * and as the text was normalized, from none (doc_kind.qp_all: its own "=3D"
         * without a Content-Transfer-Encoding). A single huge quoted-printable mail
         * is read so either way, and normalized once */
        bool own = doc_qp_all(data, len), dflt = m->cte_seen ? false : own, qp = m->said ? m->qp : dflt;
        if (qp != own)
            return true;
        if (dflt != own && (fsc_find_lit(data, len, "From ") || fsc_find_lit(data, len, "ontent-") ||
                            fsc_find_lit(data, len, "ONTENT-")))
            return true;
    }
    /* a part boundary of the text above ends a part of this one (a part whose
     * header made it quoted-printable) */
    for (const char *b = m->boundary; b; b = b == m->boundary ? m->outer : NULL) {
        if (!b[0])
            continue;
        char mark[sizeof m->boundary + 2] = "--";
        memcpy(mark + 2, b, strlen(b) + 1);
        if (fsc_find_lit(data, len, mark))
            return true;
    }
    return false;
}

void fsc_mail_state_follow(fsc_mail_state *end, const fsc_mail_state *above)
{
    end->cte_seen = end->cte_seen || above->cte_seen;
    if (end->separated)
        return; /* what came above no longer counts */
    if (!end->said) { /* no header: the state above goes on */
        char own[sizeof end->boundary], own_outer[sizeof end->outer];
        memcpy(own, end->boundary, sizeof own);
        memcpy(own_outer, end->outer, sizeof own_outer);
        *end = *above;
        if (own[0])
            memcpy(end->boundary, own, sizeof own);
        if (own_outer[0])
            memcpy(end->outer, own_outer, sizeof own_outer);
        return;
    }
    if (!end->boundary[0]) {
        memcpy(end->boundary, above->boundary, sizeof end->boundary);
        memcpy(end->outer, above->outer, sizeof end->outer);
    }
}

/* Quote depth of a mail line ("> > x" and ">> x" are 2) and the length of the
 * prefix to drop on a flowed continuation (the '>'s and one stuffing space). */
static size_t quote_depth(const char *s, size_t n, size_t *prefix)
{
    size_t depth = 0, i = 0;
    while (i < n && s[i] == '>' && !(i + 1 < n && s[i + 1] == '=')) {
        depth++;
        i++;
        if (i + 1 < n && s[i] == ' ' && s[i + 1] == '>')
            i++;
    }
    if (i < n && s[i] == ' ')
        i++;
    *prefix = i;
    return depth;
}

/* Does a format=flowed line (RFC 3676: ends in a space) continue on the next line?
 * Not the signature separator "-- ", nor across a change of quote depth. */
static bool flows_into(const char *s, size_t n, const char *next, size_t next_n)
{
    size_t p, q;
    size_t depth = quote_depth(s, n, &p);
    if (n <= p || s[n - 1] != ' ' || (n - p == 3 && memcmp(s + p, "-- ", 3) == 0))
        return false;
    return next && quote_depth(next, next_n, &q) == depth && trim_right(next + q, next_n - q) > 0;
}

static size_t line_len(const char *data, size_t len, size_t i)
{
    const char *nl = memchr(data + i, '\n', len - i);
    size_t n = (nl ? (size_t)(nl - data) : len) - i;
    return n && data[i + n - 1] == '\r' ? n - 1 : n;
}

/* Where a part skipped (an HTML alternative) ends: a line like a part boundary
 * ("--" and a word), or the next mail's mbox separator. */
static bool part_edge(const char *s, size_t n)
{
    n = trim_right(s, n);
    return mbox_separator(s, n) || (n > 2 && s[0] == '-' && s[1] == '-' && !memchr(s, ' ', n));
}

/* A line decoded from a base64 body (mime64.c) on to step 2. */
static bool b64_sink(void *ctx, const char *s, size_t n, uint32_t orig, uint16_t flags)
{
    return emit_physical(ctx, s, n, orig, flags);
}

/* The line s[0, n) (numbered lineno) of a mail where a base64 body may be (ms->s.b64):
 * its first line says whether the body is text; its lines are decoded into d; a line
 * of no base64 ends it. True when the line was taken (*ok: no allocation failed);
 * false: it is read as any other line. */
static bool b64_body_line(mime_state *ms, fsc_b64_text *d, cleaner *out, const char *s, size_t n, uint32_t lineno,
                          uint16_t flags, bool *ok)
{
    fsc_mail_state *m = &ms->s;
    size_t bn = fsc_b64_line(s, n);
    if (m->b64_first) {
        if (!bn && trim_right(s, n) == 0) { /* blank lines before the body */
            *ok = emit_physical(out, s, n, lineno, flags);
            return true;
        }
        m->b64_first = false;
        d->latin1 = m->latin1;
        if (!bn || !fsc_b64_text_start(s, bn)) { /* no text: its lines as they are */
            m->b64 = false;
            return false;
        }
    }
    if (bn) {
        *ok = fsc_b64_text_line(d, s, bn, lineno, b64_sink, out);
        return true;
    }
    m->b64 = false;
    *ok = fsc_b64_text_end(d, b64_sink, out);
    return false;
}

static fsc_status split_physical(const char *data, size_t len, doc_kind d, const fsc_mail_state *start,
                                 cleaner *out, fsc_mail_state *mail_end)
{
    fsc_buf lg = {0};
    fsc_b64_text b64 = {0};
    mime_state mime = {{.qp = d.qp_all}, d.qp_all};
    if (start) { /* a piece of a file, in a mail of the pieces above */
        if (start->cte_seen) /* as if the whole text were looked at (detect_doc) */
            mime.qp_default = false;
        mime.s = *start;
        mime.s.separated = false;
        if (!start->said)
            mime.s.qp = mime.qp_default;
    }
    uint32_t lineno = 0, first_no = 0;
    uint16_t flags = 0;
    bool joining = false, flowing = false, ok = true;
    size_t i = 0;
    if (len >= 3 && memcmp(data, "\xEF\xBB\xBF", 3) == 0)
        i = 3;
    while (i < len && ok) {
        const char *nl = memchr(data + i, '\n', len - i);
        size_t end = nl ? (size_t)(nl - data) : len, n = end - i;
        const char *s = data + i;
        lineno++;
        if (!joining) {
            fsc_buf_reset(&lg);
            first_no = lineno;
            flags = 0;
        }
        if (n && s[n - 1] == '\r' && !memchr(s, '\r', n - 1)) {
            n--; /* CRLF; with other CRs in the line the last one is an overwrite too */
            flags |= FSC_LINE_CR;
        }
        if (mime.s.skip && !joining && !flowing) {
            if (!part_edge(s, n)) { /* an HTML alternative's line: not read */
                i = end + 1;
                continue;
            }
            mime.s.skip = false;
        }
        if (mime.s.b64 && !joining && !flowing) {
            if (b64_body_line(&mime, &b64, out, s, n, lineno, flags, &ok)) {
                i = end + 1;
                continue;
            }
            if (!ok)
                break;
        }
        const char *raw = s;
        size_t raw_n = n;
        if (!joining && !flowing && !mime.s.qp && !mime.s.flowed) { /* the common case: no copy */
            ok = emit_physical(out, s, n, first_no, flags);
            mime_track(&mime, raw, raw_n);
            i = end + 1;
            continue;
        }
        if (flowing) { /* the continuation of a flowed line: drop its quote prefix */
            size_t p;
            quote_depth(s, n, &p);
            s += p;
            n -= p;
        }
        bool qp = mime.s.qp;
        if (qp && !joining && !mime.s.cte_in_block && !qp_possible(s, n)) {
            /* not encoded: a body a header called quoted-printable ends here (the
             * next header, separator or part boundary says again); under the
             * document's own default (three "=3D", no header) only the line is left */
            qp = false;
            if (!mime.qp_default)
                mime.s.qp = false;
        }
        if (qp) {
            joining = qp_decode_append(&lg, s, n, mime.s.latin1);
        } else {
            fsc_buf_add(&lg, s, n);
            joining = false;
        }
        flowing = false;
        if (!joining && mime.s.flowed && nl) {
            flowing = flows_into(buf_str(&lg), lg.len, nl + 1, line_len(data, len, end + 1));
            if (flowing && mime.s.delsp)
                lg.len--;
            joining = flowing;
        }
        if (!joining)
            ok = emit_physical(out, buf_str(&lg), lg.len, first_no, flags);
        if (!qp || !joining)
            mime_track(&mime, raw, raw_n);
        i = end + 1;
    }
    if (ok && joining)
        ok = emit_physical(out, buf_str(&lg), lg.len, first_no, flags);
    if (ok && mime.s.b64) /* the text ends in the body: its last line */
        ok = fsc_b64_text_end(&b64, b64_sink, out);
    ok = ok && !lg.oom;
    if (mail_end)
        *mail_end = mime.s;
    fsc_buf_free(&lg);
    fsc_buf_free(&b64.line);
    return ok ? FSC_OK : FSC_E_NOMEM;
}

/* ---- step 2: per-line cleanup ---- */

/* Bytes of an invisible char (BOM, zero-width, soft hyphen) at s, else 0. */
static size_t invisible_len(const unsigned char *s, size_t n)
{
    if (n >= 3 && s[0] == 0xEF && s[1] == 0xBB && s[2] == 0xBF)
        return 3; /* U+FEFF */
    if (n >= 3 && s[0] == 0xE2 && s[1] == 0x80 && s[2] >= 0x8B && s[2] <= 0x8F)
        return 3; /* U+200B..U+200F */
    if (n >= 3 && s[0] == 0xE2 && s[1] == 0x81 && s[2] == 0xA0)
        return 3; /* U+2060 word joiner */
    if (n >= 2 && s[0] == 0xC2 && s[1] == 0xAD)
        return 2; /* U+00AD soft hyphen */
    return 0;
}

/* Bytes of a space-like char (tab, NBSP, U+2000..U+200A, U+202F, U+205F) at s, else 0. */
static size_t space_len(const unsigned char *s, size_t n)
{
    if (s[0] == '\t')
        return 1;
    if (n >= 2 && s[0] == 0xC2 && s[1] == 0xA0)
        return 2;
    if (n >= 3 && s[0] == 0xE2 && s[1] == 0x80 && ((s[2] >= 0x80 && s[2] <= 0x8A) || s[2] == 0xAF))
        return 3;
    if (n >= 3 && s[0] == 0xE2 && s[1] == 0x81 && s[2] == 0x9F)
        return 3;
    return 0;
}

static void clean_spaces(const char *s, size_t n, bool name_tabs, fsc_buf *out)
{
    const unsigned char *u = (const unsigned char *)s;
    size_t keep_tabs = name_tabs && memchr(s, '\t', n) ? kept_tabs_end(s, n) : 0;
    for (size_t i = 0; i < n;) {
        size_t k = i;
        while (k < n && u[k] < 0x80 && u[k] != '\t')
            k++;
        if (k > i) { /* ASCII, as it is: at once */
            fsc_buf_add(out, s + i, k - i);
            i = k;
        } else if ((k = invisible_len(u + i, n - i)) != 0) {
            i += k;
        } else if (u[i] == '\t' && i < keep_tabs) {
            fsc_buf_putc(out, '\t');
            i++;
        } else if ((k = space_len(u + i, n - i)) != 0) {
            fsc_buf_putc(out, ' ');
            i += k;
        } else {
            fsc_buf_putc(out, s[i++]);
        }
    }
}

static size_t digits(const char *s, size_t n, size_t i)
{
    size_t k = i;
    while (k < n && isdigit((unsigned char)s[k]))
        k++;
    return k - i;
}

/* "HH:MM:SS" with optional fraction at s[i]; returns the end or 0. */
static size_t clock_end(const char *s, size_t n, size_t i)
{
    if (digits(s, n, i) != 2 || i + 8 > n || s[i + 2] != ':' || digits(s, n, i + 3) != 2 || s[i + 5] != ':' ||
        digits(s, n, i + 6) != 2)
        return 0;
    i += 8;
    if (i < n && (s[i] == '.' || s[i] == ',') && digits(s, n, i + 1))
        i += 1 + digits(s, n, i + 1);
    return i;
}

/* Length of a CI timestamp prefix ("2024-01-02T03:04:05.123Z ", "[12:34:56] ",
 * "[2024-01-02 03:04:05]") including the space after it, or 0. */
static size_t stamp_len(const char *s, size_t n)
{
    size_t i = 0;
    bool bracket = n && s[0] == '[';
    if (bracket)
        i++;
    if (digits(s, n, i) == 4 && i + 10 < n && s[i + 4] == '-' && digits(s, n, i + 5) == 2 && s[i + 7] == '-' &&
        digits(s, n, i + 8) == 2 && (s[i + 10] == 'T' || s[i + 10] == ' '))
        i += 11;
    else if (!bracket)
        return 0;
    size_t e = clock_end(s, n, i);
    if (!e)
        return 0;
    i = e;
    if (i < n && s[i] == 'Z')
        i++;
    else if (i + 6 <= n && (s[i] == '+' || s[i] == '-') && digits(s, n, i + 1) == 2 && s[i + 3] == ':')
        i += 6;
    if (bracket) {
        if (i >= n || s[i] != ']')
            return 0;
        i++;
    }
    if (i < n && s[i] != ' ')
        return 0;
    return i < n ? i + 1 : i;
}

size_t fsc_stamp_len(const char *s, size_t n)
{
    return stamp_len(s, n);
}

/* ---- HTML ---- */

static const char *const block_tags[] = {"br", "p", "div", "pre", "tr", "li", "h1", "h2", "h3", "h4", "h5",
                                         "h6", "table", "ul", "ol", "blockquote", "hr", "html", "body",
                                         "head", "dt", "dd", "thead", "tbody"};
static const char *const inline_tags[] = {"code", "span", "b", "i", "u", "tt", "em", "strong", "a", "font",
                                          "kbd", "samp", "small", "big", "td", "th", "sup", "sub", "var",
                                          "mark", "s", "strike", "del", "ins", "abbr", "cite", "q", "img", "title",
                                          "meta", "link", "label", "nobr", "wbr"};

static bool tag_in(const char *name, size_t k, const char *const *list, size_t n_list)
{
    for (size_t i = 0; i < n_list; i++)
        if (strlen(list[i]) == k && starts_with_ci(name, k, list[i]))
            return true;
    return false;
}

/* A known HTML tag at s[0] == '<': returns its length (0 if none); *block tells
 * whether it ends a line. */
/* An XML element's local name that ends a line of text: a paragraph or a line break
 * of Word's document.xml (w:p, w:br, w:cr), of OpenDocument (text:p, text:h,
 * text:line-break), a Confluence code macro's body (ac:plain-text-body). */
static bool xml_block(const char *s, size_t n)
{
    static const char *const names[] = {"p", "br", "cr", "h", "line-break", "plain-text-body"};
    return tag_in(s, n, names, sizeof names / sizeof *names);
}

/* The tags of a forum's BBCode ("[code]", "[/quote]", "[quote=bob]", "[CODE=text]")
 * and of Jira's and Confluence's wiki markup ("{code}", "{code:bash}", "{noformat}"):
 * those a paste of fio's output stands between, glued to its first and last lines
 * when the poster typed them so. */
size_t fsc_markup_tag_len(const char *s, size_t n)
{
    static const char *const bb[] = {"code", "quote", "pre", "tt", "icode", "plain", "noparse", "spoiler",
                                     "b", "i", "u", "s", "color", "size", "font", "center", "indent"};
    static const char *const wiki[] = {"code", "noformat", "quote", "panel", "color"};
    if (n < 3 || (s[0] != '[' && s[0] != '{'))
        return 0;
    char close = s[0] == '[' ? ']' : '}';
    size_t i = 1 + (s[0] == '[' && s[1] == '/');
    size_t w = i;
    while (w < n && w - i < 8 && isalpha((unsigned char)s[w]))
        w++;
    const char *const *names = s[0] == '[' ? bb : wiki;
    size_t count = s[0] == '[' ? sizeof bb / sizeof *bb : sizeof wiki / sizeof *wiki;
    bool known = false;
    for (size_t k = 0; k < count && !known; k++)
        known = strlen(names[k]) == w - i && !strncasecmp(s + i, names[k], w - i);
    if (!known || w >= n)
        return 0;
    if (s[w] == close)
        return w + 1;
    /* a parameter: "[quote=bob]", "[color=#ff0000]", "{code:bash}", "{panel:title=x}" */
    if (s[w] != (s[0] == '[' ? '=' : ':') || i > 1)
        return 0;
    for (size_t j = w + 1; j < n && j < w + 64; j++) {
        if (s[j] == close)
            return j + 1;
        if (s[j] == '[' || s[j] == '{' || s[j] == '\n')
            return 0;
    }
    return 0;
}

bool fsc_ends_in_markup_tag(const char *s, size_t n)
{
    if (n < 3 || (s[n - 1] != ']' && s[n - 1] != '}') || !isalpha((unsigned char)s[n - 2]))
        return false; /* "[/code]", "{code}": a letter before the bracket */
    char open = s[n - 1] == ']' ? '[' : '{';
    for (size_t k = n - 1; k-- > 0 && n - k <= 72;)
        if (s[k] == open)
            return fsc_markup_tag_len(s + k, n - k) == n - k;
    return false;
}

static size_t html_tag(const char *s, size_t n, bool *block)
{
    if (n >= 9 && !memcmp(s, "<![CDATA[", 9)) { /* its text is the text: the markers go */
        *block = true;
        return 9;
    }
    if (n >= 3 && !memcmp(s, "]]>", 3)) {
        *block = true;
        return 3;
    }
    size_t i = 1;
    if (i < n && s[i] == '/')
        i++;
    size_t name = i;
    while (i < n && isalnum((unsigned char)s[i]))
        i++;
    size_t k = i - name;
    if (!k || !isalpha((unsigned char)s[name]))
        return 0;
    if (i < n && s[i] == ':') { /* an XML namespace's element: every one is markup */
        size_t local = ++i;
        while (i < n && (isalnum((unsigned char)s[i]) || s[i] == '-'))
            i++;
        if (i == local)
            return 0;
        *block = xml_block(s + local, i - local);
    } else {
        *block = tag_in(s + name, k, block_tags, sizeof block_tags / sizeof *block_tags);
        if (!*block && !tag_in(s + name, k, inline_tags, sizeof inline_tags / sizeof *inline_tags))
            return 0;
    }
    for (; i < n && i < 300; i++) {
        if (s[i] == '>')
            return i + 1;
        if (s[i] == '<')
            return 0;
    }
    return 0;
}

static uint32_t entity_codepoint(const char *s, size_t n, size_t *used)
{
    static const struct {
        const char *name;
        uint32_t cp;
    } named[] = {{"&lt;", '<'},  {"&gt;", '>'},    {"&amp;", '&'}, {"&quot;", '"'},
                 {"&apos;", '\''}, {"&nbsp;", ' '}, {"&#39;", '\''}};
    for (size_t i = 0; i < sizeof named / sizeof *named; i++)
        if (starts_with_ci(s, n, named[i].name)) {
            *used = strlen(named[i].name);
            return named[i].cp;
        }
    if (n < 4 || s[1] != '#')
        return 0;
    bool hex = s[2] == 'x' || s[2] == 'X';
    size_t i = hex ? 3 : 2;
    uint32_t cp = 0;
    size_t start = i;
    for (; i < n && i < start + 7; i++) {
        int v = hex ? fsc_hex_digit((unsigned char)s[i]) : (isdigit((unsigned char)s[i]) ? s[i] - '0' : -1);
        if (v < 0)
            break;
        cp = cp * (hex ? 16 : 10) + (uint32_t)v;
    }
    if (i == start || i >= n || s[i] != ';' || cp == 0 || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
        return 0;
    *used = i + 1;
    return cp == 0xA0 ? ' ' : cp;
}


/* Decode entities of s into out; returns whether any was decoded. quotes: only those
 * of quotes ("&#39;", "&quot;": a string literal's on a web page, before strlit.c
 * reads it; the others and the tags stay for step 2). */
static bool decode_entities(const char *s, size_t n, fsc_buf *out, bool quotes)
{
    bool any = false;
    for (size_t i = 0; i < n;) {
        /* the bytes up to the next '&' at once (a byte at a time, an HTML page cost
         * 20 instructions a byte here) */
        const char *amp = memchr(s + i, '&', n - i);
        size_t k = amp ? (size_t)(amp - s) : n, used = 0;
        fsc_buf_add(out, s + i, k - i);
        if (k == n)
            break;
        uint32_t cp = entity_codepoint(s + k, n - k, &used);
        if (cp == '&' && !quotes) {
            /* escaped twice ("&amp;gt;=64": a feed's or a CMS's HTML of HTML): the
             * entity the '&' begins is meant */
            char again[16] = "&";
            size_t m = n - k - used < sizeof again - 1 ? n - k - used : sizeof again - 1, used2 = 0;
            memcpy(again + 1, s + k + used, m);
            uint32_t cp2 = entity_codepoint(again, m + 1, &used2);
            if (cp2 && cp2 != '&' && used2 > 1) { /* ("&amp;amp;" stays "&amp;": one at a time) */
                cp = cp2;
                used += used2 - 1;
            }
        }
        if (cp && (!quotes || cp == '\'' || cp == '"')) {
            fsc_buf_put_utf8(out, cp);
            any = true;
        } else {
            fsc_buf_putc(out, '&');
            used = 1;
        }
        i = k + used;
    }
    return any;
}

/* ---- the line sink: quotes, glued progress, flattened pastes ---- */

typedef struct line_sink {
    fsc_text *out;
    fsc_buf tmp, piece;
    bool ok;
    bool bar_quote; /* the last line's quote mark was a bar: the mail is "| " quoted */
    uint16_t lead;  /* bytes taken from the front of the line given before the sink's */
} line_sink;

/* Strip mail quote prefixes ("> ", ">> ", "> > ", "| "); returns the prefix length.
 * in_bar_quote: the line before was "| " quoted, so a bar is the mark even before a
 * percentile row's item (a wrapped row's rest: "| 00th=[ 1944],"). */
static size_t quote_len(const char *s, size_t n, bool in_bar_quote)
{
    size_t i = 0;
    /* ">=64=0.0%" at the start of a wrapped line is fio's, not a quote level */
    while (i < n && s[i] == '>' && !(i + 1 < n && s[i + 1] == '=')) {
        i++;
        if (i < n && s[i] == ' ')
            i++;
    }
    /* "| ", "|" or " | ", the quote mark of some mail clients and forums; fio's own
     * '|' begins a percentile row, indented (a row pasted without its indentation,
     * or with a little of it, keeps it) */
    if (i == 0) {
        size_t b = 0;
        while (b < n && b < FSC_QUOTE_BAR_MAX_INDENT && s[b] == ' ')
            b++;
        if (b < n && s[b] == '|' && (in_bar_quote || !fsc_pctl_item_at(s, n, b + 1)))
            i = b + 1 < n && s[b + 1] == ' ' ? b + 2 : b + 1;
    }
    return i;
}

/* Start of a terse record ("3;fio-3.28;...") glued into s, or NULL. */
static const char *glued_terse(const char *s, size_t n)
{
    for (const char *p = s; (p = fsc_find_lit(p, n - (size_t)(p - s), ";fio-")) != NULL; p++)
        if (p - s >= 2 && p[-1] >= '2' && p[-1] <= '5')
            return p - 1;
    return NULL;
}

/* A progress line with more glued onto it without a CR ("[eta 04Jobs: ...", "[eta 043;fio-"):
 * returns the offset of the text that follows the last progress line, or 0. */
static size_t glued_progress_cut(const char *s, size_t n)
{
    if (!starts_with(s, n, "Jobs: "))
        return 0;
    size_t cut = 0;
    for (const char *p = s + 1; (p = fsc_find_lit(p, n - (size_t)(p - s), "Jobs: ")) != NULL; p++)
        cut = (size_t)(p - s);
    const char *t = glued_terse(s + cut, n - cut);
    if (t)
        return (size_t)(t - s);
    /* fio 2.0.x: "Jobs: 1 (f=1): [r] [100.0% done] [...] [eta 00m:00s]    clat percentiles (usec):" */
    const char *eta = fsc_find_lit(s + cut, n - cut, "[eta ");
    const char *close = eta ? memchr(eta, ']', n - (size_t)(eta - s)) : NULL;
    if (close) {
        size_t after = (size_t)(close + 1 - s);
        while (after < n && s[after] == ' ')
            after++;
        if (after < n)
            return after;
    }
    return cut;
}

/* ---- flattened pastes ---- */

/* Literal keywords that begin a fio line (each must follow a space). */
static const char *const flat_keys[] = {
    "fio-2.", "fio-3.", "Starting ", "read: IOPS=", "write: IOPS=", "trim: IOPS=", "mixed: IOPS=",
    "read : io=", "write: io=", "trim : io=", "trim: io=", "mixed: io=", "slat (", "clat (", "lat (",
    "clat percentiles", "lat percentiles", "slat percentiles", "| ", "bw (", "iops ", "cpu ", "IO depths", "submit ",
    "complete ", "issued ", "latency ", "Run status group", "READ:", "WRITE:", "TRIM:", "MIXED:",
    "Disk stats", "Jobs: ", "fsync/fdatasync", "sync (", "sync percentiles", "Description ", "... ",
    /* priorities (fio 3.18-3.29's "high prio", 3.30+'s "clat prio 1/0"), steady state,
     * continue_on_error's errors, --idle-prof */
    "clat prio ", "slat prio ", "lat prio ", "high prio", "low prio", "steadystate ", "errors ", "CPU idleness"};
/* Keywords that follow the first token of a fio line ("nvme0n1: ios=", "job: (g=0): rw="). */
static const char *const flat_named[] = {": (g=", ": (groupid=", ": ios=", ": Laying out"};

/* Does lit match at s[i], possibly with one space inserted by the wrap inside it
 * ("S tarting", "(group id=", "RE AD:")? *gap is that space's index, or SIZE_MAX.
 * Only keywords of 5+ bytes may be broken, so that short ones cannot match prose. */
static bool match_wrapped(const char *s, size_t n, size_t i, const char *lit, size_t *gap)
{
    *gap = SIZE_MAX;
    if (i >= n || s[i] != lit[0]) /* the first byte turns most keywords away */
        return false;
    size_t k = strlen(lit), j = 0;
    while (j < k && i + j < n && s[i + j] == lit[j])
        j++;
    if (j == k)
        return true;
    if (k < 5 || j == 0 || i + j >= n || s[i + j] != ' ' || lit[j - 1] == ' ' || lit[j] == ' ' ||
        !starts_with(s + i + j + 1, n - i - j - 1, lit + j))
        return false;
    *gap = i + j;
    return true;
}

enum { N_FLAT_KEYS = sizeof flat_keys / sizeof *flat_keys };

/* flat_keys by their first byte, in their order: those of byte c are
 * by_first[first_at[c] .. first_at[c + 1]). Made once (flat_keys_index). */
static uint8_t by_first[N_FLAT_KEYS], first_at[257];
static pthread_once_t flat_keys_once = PTHREAD_ONCE_INIT;

static void flat_keys_index(void)
{
    size_t w = 0;
    for (unsigned c = 0; c < 256; c++) {
        first_at[c] = (uint8_t)w;
        for (size_t k = 0; k < N_FLAT_KEYS; k++)
            if ((unsigned char)flat_keys[k][0] == c)
                by_first[w++] = (uint8_t)k;
    }
    first_at[256] = (uint8_t)w;
}

/* The keyword that begins a fio line at s[i], or NULL. */
static const char *flat_key_at(const char *s, size_t n, size_t i, size_t *gap)
{
    *gap = SIZE_MAX;
    if (i >= n)
        return NULL;
    pthread_once(&flat_keys_once, flat_keys_index);
    unsigned char c = (unsigned char)s[i];
    for (size_t k = first_at[c]; k < first_at[c + 1]; k++)
        if (match_wrapped(s, n, i, flat_keys[by_first[k]], gap))
            return flat_keys[by_first[k]];
    return NULL;
}

static bool flat_named_at(const char *s, size_t n, size_t i, size_t *gap)
{
    size_t j = i;
    while (j < n && s[j] != ' ' && s[j] != ':')
        j++;
    if (j == i || j >= n)
        return false;
    for (size_t k = 0; k < sizeof flat_named / sizeof *flat_named; k++)
        if (match_wrapped(s, n, j, flat_named[k], gap))
            return true;
    return false;
}

static bool flat_json_at(const char *s, size_t n, size_t i);

/* Does "prio (...)" and a space end s[0, i) (a priority's share before its list's
 * title, "high prio (29.68%) clat percentiles")? */
static bool prio_pct_before(const char *s, size_t i)
{
    if (i < 9 || s[i - 1] != ' ' || s[i - 2] != ')')
        return false;
    size_t k = i - 2;
    while (k > 0 && i - k < 24 && s[k] != '(')
        k--;
    return s[k] == '(' && k >= 6 && !memcmp(s + k - 6, " prio ", 6);
}

/* Is s[i] the first byte of a fio line inside a flattened paste? *gap as above. */
static bool flat_cut_at(const char *s, size_t n, size_t i, size_t *gap)
{
    *gap = SIZE_MAX;
    if (i == 0 || s[i - 1] != ' ' || s[i] == ' ')
        return false;
    if (flat_json_at(s, n, i))
        return true;
    /* fio --client's "All clients: (groupid=...": one name with a space in it */
    if (starts_with(s + i, n - i, "All clients: (groupid="))
        return true;
    if (i >= 4 && starts_with(s + i, n - i, "clients: (groupid=") && !memcmp(s + i - 4, "All ", 4))
        return false;
    if (flat_named_at(s, n, i, gap))
        return true;
    const char *key = flat_key_at(s, n, i, gap);
    if (!key)
        return false;
    if (prio_pct_before(s, i) && strstr(key, "percentiles"))
        return false; /* fio 3.18-3.29's "high prio (29.68%) clat percentiles (usec):" */
    if (strchr("iclseI", key[0]) && key[strlen(key) - 1] == ' ') {
        /* a spaced-out label ("iops        :", "cpu          :"): a colon before any '=' */
        size_t j = i;
        while (j < n && s[j] != ':' && s[j] != '=')
            j++;
        return j < n && s[j] == ':';
    }
    if (key[0] == 'S') { /* "Starting N processes", not any "Starting" */
        size_t d = i + strlen(key) + (*gap != SIZE_MAX);
        return d < n && isdigit((unsigned char)s[d]);
    }
    return true;
}

/* Does a fio JSON document begin at s[i] ('{', then "fio version")? A mail client
 * that joins lines (Outlook's "extra line breaks removed") puts all of it on the
 * line of the text above it. */
static bool flat_json_at(const char *s, size_t n, size_t i)
{
    if (i >= n || s[i] != '{')
        return false;
    size_t j = i + 1;
    while (j < n && s[j] == ' ')
        j++;
    return starts_with(s + j, n - j, "\"fio version\"");
}

/* Two of fio's lines or more that a mail client joined with a space (Outlook's
 * "extra line breaks removed"): the line begins as one of fio's (a prefix,
 * "[stdout]   read: IOPS=...", begins none), and another begins after fio's own
 * indentation (two spaces or more), or a JSON document does. */
static bool joined_lines(const char *s, size_t n)
{
    size_t first = 0, gap;
    while (first < n && s[first] == ' ')
        first++;
    if (first == n ||
        !(flat_json_at(s, n, first) || flat_named_at(s, n, first, &gap) || flat_key_at(s, n, first, &gap)))
        return false;
    for (const char *p = fsc_find_lit(s + first, n - first, "  "); p; p = fsc_find_lit(p, (size_t)(s + n - p), "  ")) {
        size_t i = (size_t)(p - s);
        while (i < n && s[i] == ' ')
            i++;
        if (i < n && (isalpha((unsigned char)s[i]) || s[i] == '|') && flat_cut_at(s, n, i, &gap))
            return true;
        p = s + i;
    }
    for (const char *b = memchr(s + first, '{', n - first); b; b = memchr(b + 1, '{', (size_t)(s + n - b - 1)))
        if (b > s && b[-1] == ' ' && flat_json_at(s, n, (size_t)(b - s)))
            return true;
    return false;
}

/* A job header (or the title of the disk stats) with the line below it on its line,
 * where one newline was lost ("...:
 * Mon Nov 30 02:48:04 2026  read: IOPS=...", "...: pid=7 read : io=..."): shorter
 * than a flattened paste, but fio prints nothing after a header's fields, so the fio
 * keyword after its "): err=" and a space (prefix.c's, the one that makes the
 * pre-scan send the text here) begins a line of its own. Read whole, the header
 * would be taken for a prefix of that line and the job's name, pid and time lost.
 * Returns where that line begins, or 0. */
static size_t header_joined(const char *s, size_t n)
{
    size_t first = 0, j, gap;
    while (first < n && s[first] == ' ')
        first++;
    if (starts_with(s + first, n - first, "Disk stats (")) {
        /* "Disk stats (read/write):  vda: ios=...": the disk line joined to its title
         * (no line of fio's begins so: the pre-scan sends it here) */
        const char *c = memchr(s + first, ':', n - first);
        size_t i = c ? (size_t)(c + 1 - s) : n;
        while (i < n && s[i] == ' ')
            i++;
        return i < n && s[i - 1] == ' ' && flat_named_at(s, n, i, &gap) && gap == SIZE_MAX ? i : 0;
    }
    /* the name: any bytes, a space or a colon among them ("All clients", "a:b2") */
    const char *g = fsc_find_lit(s + first, n - first, ": (groupid=");
    if (!g || g == s + first)
        return 0;
    j = (size_t)(g - s);
    const char *err = fsc_find_lit(s + j, n - j, "): err=");
    long kw = err ? fsc_fio_keyword_at(s + first, n - first) : -1;
    if (kw <= 0)
        return 0;
    size_t at = first + (size_t)kw;
    return at > (size_t)(err - s) && s[at - 1] == ' ' && flat_cut_at(s, n, at, &gap) && gap == SIZE_MAX ? at : 0;
}

/* A job's description with the line below it on its line, a line break lost ("
 * Description  : [a job]  read : io=...", "...[a job]read : io=..."): read whole,
 * the description would be taken for a prefix of the line below (prefix.c). Returns
 * where the description's line ends (after its ']') and *next where the next line's
 * keyword begins; 0 for any other line. */
static size_t description_joined(const char *s, size_t n, size_t *next)
{
    size_t j = 0;
    while (j < n && s[j] == ' ')
        j++;
    bool whole;
    size_t open = fsc_description_open(s + j, n - j, &whole);
    if (!open || whole)
        return 0; /* (whole: fio's line, whatever its text holds: "[x] read: IOPS=5]") */
    j += open - 1; /* its '[' */
    for (const char *b = memchr(s + j, ']', n - j); b; b = memchr(b + 1, ']', (size_t)(s + n - b - 1))) {
        size_t m = (size_t)(b + 1 - s);
        while (m < n && s[m] == ' ')
            m++;
        if (m < n && fsc_fio_keyword_at(s + m, n - m) == 0) {
            *next = m;
            return (size_t)(b + 1 - s);
        }
    }
    return 0;
}

static bool looks_flattened(const char *s, size_t n)
{
    if (n < FLAT_MIN_LEN)
        return false; /* header_joined's, asked first */
    if (glued_terse(s, n) == s)
        return false;
    size_t cuts = 0;
    size_t gap;
    /* flat_cut_at takes only a byte after a space: only those are asked (a long line
     * with few spaces, a JSON Lines record of 3 KB, took 25 instructions a byte) */
    for (const char *sp = memchr(s, ' ', n - 1); sp && cuts < FLAT_MIN_SPLITS;
         sp = memchr(sp + 1, ' ', (size_t)(s + n - 1 - (sp + 1))))
        cuts += flat_cut_at(s, n, (size_t)(sp + 1 - s), &gap);
    return cuts >= FLAT_MIN_SPLITS || joined_lines(s, n);
}

/*
 * Rejoin a value that the 80-column wrap split with a space, where that is
 * unambiguous (see wrap_space): "[ 11 39]", "[   30 ]", "avg=88 .76",
 * "ios=1086 197/15", "0.01 %", "(9424MB /s)", "1 =100.0%". Splits inside words,
 * such as "sa mples=", "i oengine" or "1 0.00th", are left to the parser, which
 * sees FSC_LINE_SPLIT.
 */
static bool numeric_char(char c)
{
    return isdigit((unsigned char)c) || c == '.';
}

/* Is a space between a and b an artefact of the wrap? Never legitimate in fio output:
 * inside [...] between digits or before ']'; inside a value between digits, before
 * '%' ',' '/' or after '/'; anywhere right before '=' ("1 =100.0%", "99.50th =["). */
static bool wrap_space(char a, char b, bool in_bracket, bool in_number)
{
    if (b == '=' && isalnum((unsigned char)a))
        return true;
    if (in_bracket && numeric_char(a) && (numeric_char(b) || b == ']'))
        return true;
    if (!in_number)
        return false;
    return (numeric_char(a) && (numeric_char(b) || b == '%')) || (a == '%' && b == ',') || a == '/' ||
           b == '/';
}

static void rejoin_values(const char *s, size_t n, fsc_buf *out)
{
    enum { OUTSIDE, PADDING, NUMBER } value = OUTSIDE;
    bool in_bracket = false;
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        bool numch = isdigit((unsigned char)c) || c == '.';
        if (c == ' ' && i > 0 && i + 1 < n && wrap_space(s[i - 1], s[i + 1], in_bracket, value == NUMBER))
            continue;
        fsc_buf_putc(out, c);
        if (c == '[' || c == ']')
            in_bracket = c == '[';
        if (c == '=')
            value = PADDING;
        else if (numch && value != OUTSIDE)
            value = NUMBER;
        else if (c == ' ' && value == PADDING)
            continue; /* "min= 8185" */
        else if (!(value == NUMBER && (isalpha((unsigned char)c) || c == '%' || c == '/' || c == '-')))
            value = OUTSIDE;
    }
}

/* Words of fio's output that the wrap may break in two ("sa mples=", "i oengine",
 * "perc entiles", "(us ec)", "Mi B/s"). */
static const char *const fio_words[] = {
    "samples", "stdev", "min", "max", "avg", "per", "usr", "sys", "ctx", "majf", "minf", "total", "short",
    "dropped", "target", "window", "percentile", "percentiles", "depth", "depths", "ios", "merge", "ticks",
    "in_queue", "util", "IOPS", "BW", "bw", "io", "run", "err", "pid", "rw", "bs", "ioengine", "iodepth",
    "groupid", "jobs", "clat", "slat", "lat", "iops", "cpu", "submit", "complete", "issued", "rwts", "latency",
    "status", "group", "READ", "WRITE", "TRIM", "MIXED", "aggrb", "minb", "maxb", "mint", "maxt", "aggrios",
    "aggrmerge", "aggrticks", "aggrin_queue", "aggrutil", "processes", "process", "Starting", "Laying", "file",
    "zone", "resets", "nsec", "usec", "msec", "KiB", "MiB", "GiB", "TiB", "kB", "MB", "GB", "TB", "read",
    "write", "trim", "stats", "Disk", "runt", "iodepth_batch", "sync", "fsync", "fdatasync", "th"};

static bool fio_word(const char *s, size_t n)
{
    for (size_t i = 0; i < sizeof fio_words / sizeof *fio_words; i++)
        if (strlen(fio_words[i]) == n && memcmp(fio_words[i], s, n) == 0)
            return true;
    return false;
}

static bool word_char(char c)
{
    return isalpha((unsigned char)c) || c == '_';
}

/* Is the space at s[i] inside a fio word that the wrap broke ("sa mples")? Both
 * halves must not be words themselves. */
static bool broken_word_at(const char *s, size_t n, size_t i)
{
    if (i == 0 || i + 1 >= n || !word_char(s[i - 1]) || !word_char(s[i + 1]))
        return false;
    size_t a = i, b = i + 1;
    while (a > 0 && word_char(s[a - 1]))
        a--;
    while (b < n && word_char(s[b]))
        b++;
    char joined[32];
    size_t x = i - a, y = b - i - 1;
    if (x + y >= sizeof joined)
        return false;
    memcpy(joined, s + a, x);
    memcpy(joined + x, s + i + 1, y);
    return fio_word(joined, x + y) && !fio_word(s + a, x) && !fio_word(s + i + 1, y);
}

/* After the label of a fio line, numbers are separated by ", " only: a space
 * between digits ("75 0=0.01%", "30.0 0th=[") is the wrap's. The job line (a date)
 * and progress lines are excepted. */
static bool numeric_field_lines(const char *s, size_t n)
{
    return !fsc_find_lit(s, n, "(groupid=") && !starts_with(s, n, "Jobs:");
}

/* A unit right after a number ("64.0 KiB-64.0KiB"): never apart in fio output. */
static bool unit_at(const char *s, size_t n)
{
    static const char *const units[] = {"KiB", "MiB", "GiB", "TiB", "KB", "kB", "MB", "GB", "TB", "B/s",
                                        "msec", "usec", "nsec"};
    for (size_t i = 0; i < sizeof units / sizeof *units; i++) {
        size_t k = strlen(units[i]);
        if (starts_with(s, n, units[i]) && (k == n || !isalpha((unsigned char)s[k])))
            return true;
    }
    return false;
}

/* Lines whose "key=value" pairs fio never pads (unlike "min= 8185" of bw lines). */
static bool unpadded_line(const char *s, size_t n)
{
    return ((starts_with(s, n, "clat (") || starts_with(s, n, "slat (") || starts_with(s, n, "lat (")) &&
            fsc_find_lit(s, n, "min=")) ||
           fsc_find_lit(s, n, ": ios=");
}

static bool broken_number_at(const char *s, size_t n, size_t i, size_t colon)
{
    if (i == 0 || i + 1 >= n)
        return false;
    char a = s[i - 1], b = s[i + 1];
    if (b == ')' || (a == '=' && b == '['))
        return true; /* "(read/write )", "70.00th= [" */
    if (b == ':' && (starts_with(s + i + 1, n - i - 1, ": min=") || (a == ')' && i + 2 == n)))
        return true; /* "slat (usec) : min=", "percentiles (usec) :" (not "lat (usec)   : 2=") */
    if (i <= colon)
        return false;
    if (a == '=' && isdigit((unsigned char)b) && unpadded_line(s, n))
        return true; /* "stdev= 1651.80" in a clat line, "in_queue= 484" */
    if (b == ',' && a != ',')
        return true; /* "[  408] ," "100.00% ," */
    if (isdigit((unsigned char)b) && (a == '(' || (a == '=' && i >= 2 && s[i - 2] == '>')))
        return true; /* "( 1442kB)", ">= 64=0.0%" */
    if ((a == '/' && i >= 2 && s[i - 2] == 'B') || (b == '/' && a == 'B'))
        return true; /* "8987MiB/ s", "9424MB /s" */
    if (b == ':' && starts_with(s + i + 1, n - i - 1, ": min="))
        return true; /* "slat (usec) : min=" (bucket lines keep "lat (usec)   : 2=") */
    if (a == '=' && numeric_char(b) && (starts_with(s, n, "IO depths") || starts_with(s, n, "submit") ||
                                         starts_with(s, n, "complete")))
        return true; /* "1= 100.0%": depth counts are never padded */
    if (!numeric_char(a))
        return false;
    return numeric_char(b) || b == '%' || starts_with(s + i + 1, n - i - 1, "th=") ||
           unit_at(s + i + 1, n - i - 1);
}

/* "[  spaces digits ]" at s[i] == '[': its width (0 if not that shape) and its
 * number of leading spaces. */
static size_t bracket_width(const char *s, size_t n, size_t i, size_t *spaces)
{
    size_t sp = 0, d = 0;
    while (i + 1 + sp < n && s[i + 1 + sp] == ' ')
        sp++;
    while (i + 1 + sp + d < n && isdigit((unsigned char)s[i + 1 + sp + d]))
        d++;
    *spaces = sp;
    return d && i + 1 + sp + d < n && s[i + 1 + sp + d] == ']' ? sp + d : 0;
}

/* fio pads all values of a percentile block to one width ("[  334]", "[68096]"), so
 * a bracket wider than the narrowest of its row got a space from the wrap. */
static size_t row_bracket_width(const char *s, size_t n)
{
    size_t w = SIZE_MAX, sp;
    for (size_t i = 0; i < n; i++) {
        size_t bw = s[i] == '[' ? bracket_width(s, n, i, &sp) : 0;
        if (bw && bw < w)
            w = bw;
    }
    return w;
}

/* Rejoin words and numbers of one split line (see fio_words, broken_number_at). */
static void rejoin_tokens(const char *s, size_t n, fsc_buf *out)
{
    bool row = n && s[0] == '|';
    const char *c = row ? s : memchr(s, ':', n); /* percentile rows have no label */
    size_t colon = c && numeric_field_lines(s, n) ? (size_t)(c - s) : n;
    size_t width = row ? row_bracket_width(s, n) : SIZE_MAX;
    for (size_t i = 0; i < n; i++) {
        if (s[i] == ' ' && (broken_word_at(s, n, i) || broken_number_at(s, n, i, colon)))
            continue;
        fsc_buf_putc(out, s[i]);
        size_t sp, bw = row && s[i] == '[' ? bracket_width(s, n, i, &sp) : 0;
        if (bw > width)
            i += bw - width < sp ? bw - width : sp;
    }
}

/* Emit s[start, end) as a line, without the wrap spaces that broke its keyword. */
static void emit_flat_piece(line_sink *k, const char *s, size_t start, size_t end, size_t gap, uint32_t orig,
                            uint16_t flags)
{
    fsc_buf_reset(&k->piece);
    if (flat_json_at(s, end, start)) { /* a JSON document's strings are data: no wrap to undo */
        k->ok = k->ok && add_line(k->out, s + start, trim_right(s + start, end - start), orig, flags | FSC_LINE_SPLIT);
        return;
    }
    for (size_t i = start; i < end; i++)
        if (i != gap)
            fsc_buf_putc(&k->piece, s[i]);
    fsc_buf_reset(&k->tmp);
    rejoin_values(buf_str(&k->piece), trim_right(buf_str(&k->piece), k->piece.len), &k->tmp);
    fsc_buf_reset(&k->piece);
    rejoin_tokens(buf_str(&k->tmp), k->tmp.len, &k->piece);
    k->ok = k->ok && !k->piece.oom && !k->tmp.oom &&
            add_line(k->out, buf_str(&k->piece), k->piece.len, orig, flags | FSC_LINE_SPLIT);
}

static void emit_flat(line_sink *k, const char *s, size_t n, uint32_t orig, uint16_t flags)
{
    size_t start = 0, start_gap = SIZE_MAX, gap, first = 0;
    while (first < n && s[first] == ' ')
        first++;
    for (size_t i = 1; i <= n && k->ok; i++) {
        if (i < n && (i <= first || !flat_cut_at(s, n, i, &gap)))
            continue; /* the first line keeps its indentation */
        emit_flat_piece(k, s, start, i, start_gap, orig, flags);
        start = i;
        start_gap = gap;
    }
}

static void sink_line(line_sink *k, const char *s, size_t n, uint32_t orig, uint16_t flags)
{
    size_t q = quote_len(s, n, k->bar_quote), before = k->out->n_lines;
    k->bar_quote = q && s[q - 1 - (s[q - 1] == ' ')] == '|';
    if (q) {
        s += q;
        n -= q;
        flags |= FSC_LINE_QUOTED;
        /* a frame's right side after the spaces that pad the line to its width
         * ("| read: IOPS=...    |", a box drawn around the output): fio ends no line
         * with a bar */
        if (k->bar_quote && n >= 2 && s[n - 1] == '|' && s[n - 2] == ' ')
            n--;
    }
    size_t cut = glued_progress_cut(s, n);
    if (cut) {
        s += cut;
        n -= cut;
        flags |= FSC_LINE_CR;
    }
    size_t next = 0, desc = description_joined(s, n, &next), head = n < FLAT_MIN_LEN ? header_joined(s, n) : 0;
    if (desc) {
        k->ok = k->ok && add_line(k->out, s, desc, orig, flags | FSC_LINE_SPLIT) &&
                add_line(k->out, s + next, n - next, orig, flags | FSC_LINE_SPLIT);
    } else if (head) {
        /* the header (its name may hold spaces: no cut inside it), then the rest */
        emit_flat_piece(k, s, 0, head, SIZE_MAX, orig, flags);
        emit_flat(k, s + head, n - head, orig, flags);
    } else if (looks_flattened(s, n))
        emit_flat(k, s, n, orig, flags);
    else
        k->ok = k->ok && add_line(k->out, s, n, orig, flags);
    size_t lead = k->lead + q; /* a glued progress line's text was overwritten: no width */
    for (size_t j = before; k->ok && j < k->out->n_lines; j++)
        k->out->lines[j].lead = (uint16_t)(lead > UINT16_MAX ? UINT16_MAX : lead);
}

/* The next '|' of a Markdown table row in s[i, e) that is no "\|" (a pipe that is
 * text), or e. */
static size_t cell_bar(const char *s, size_t i, size_t e)
{
    for (; i < e; i++)
        if (s[i] == '|' && (i == 0 || s[i - 1] != '\\'))
            return i;
    return e;
}

/* A Markdown table row whose cell holds lines broken by <br> ("| node1 | fio-3.33<br>
 * Starting 1 process<br>... |", a wiki's or an issue's table of runs): the cell,
 * [*a, *b) of s[0, n). False for any other line, a percentile row with <br> after it
 * among them ("     |  1.00th=[ 1],<br>": one bar before its break). */
static bool md_cell_of_lines(const char *s, size_t n, size_t *a, size_t *b)
{
    size_t p = 0;
    while (p < n && s[p] == ' ')
        p++;
    if (p == n || s[p] != '|')
        return false;
    size_t first = SIZE_MAX, last = 0; /* the first block tag, the end of the last */
    for (const char *lt = memchr(s, '<', n); lt; lt = memchr(lt + 1, '<', n - (size_t)(lt + 1 - s))) {
        bool block = false;
        size_t i = (size_t)(lt - s), tl = html_tag(lt, n - i, &block);
        if (tl && block) {
            if (first == SIZE_MAX)
                first = i;
            last = i + tl;
        }
    }
    if (first == SIZE_MAX)
        return false;
    size_t bars = 0, start = 0;
    for (size_t i = cell_bar(s, p, first); i < first; i = cell_bar(s, i + 1, first)) {
        bars++;
        start = i + 1;
    }
    size_t end = cell_bar(s, last, n);
    if (bars < 2 || end == n)
        return false;
    *a = start;
    *b = end;
    return true;
}

/* HTML line: split at block tags, drop inline tags, then decode entities. */
static void sink_html(line_sink *k, const char *s, size_t n, uint32_t orig, uint16_t flags, fsc_buf *piece,
                      fsc_buf *dec)
{
    size_t cell_a, cell_b;
    if (md_cell_of_lines(s, n, &cell_a, &cell_b)) {
        s += cell_a;
        n = cell_b - cell_a;
    }
    size_t emitted = 0;
    bool tagged = false;
    fsc_buf_reset(piece);
    for (size_t i = 0; i <= n && k->ok; i++) {
        if (i < n && s[i] != '<' && !(s[i] == ']' && n - i >= 3 && !memcmp(s + i, "]]>", 3))) {
            /* the text up to the next tag (or a CDATA section's end) at once */
            const char *lt = memchr(s + i, '<', n - i), *cd = fsc_find_lit(s + i, (lt ? (size_t)(lt - s) : n) - i, "]]>");
            size_t e = cd ? (size_t)(cd - s) : lt ? (size_t)(lt - s) : n;
            fsc_buf_add(piece, s + i, e - i);
            i = e - 1;
            continue;
        }
        bool block = false;
        size_t tl = i < n ? html_tag(s + i, n - i, &block) : 0;
        if (tl)
            tagged = true;
        if (i < n && !(tl && block)) {
            if (tl)
                i += tl - 1;
            else
                fsc_buf_putc(piece, s[i]);
            continue;
        }
        bool blank = trim_right(buf_str(piece), piece->len) == 0;
        if (!blank || (i == n && emitted == 0)) {
            fsc_buf_reset(dec);
            bool ent = decode_entities(buf_str(piece), piece->len, dec, false);
            uint16_t f = flags | ((ent || tagged) ? FSC_LINE_ENTITY : 0);
            sink_line(k, buf_str(dec), dec->len, orig, f);
            emitted++;
        }
        fsc_buf_reset(piece);
        if (tl)
            i += tl - 1;
    }
}

/* ---- inline markup (Markdown, reST, AsciiDoc, HTML tags in a text document) ---- */

static bool word_byte(char c)
{
    return isalnum((unsigned char)c) || (unsigned char)c >= 0x80;
}

/* Is the emphasis mark of length k at s[i] an opening (true) or closing delimiter
 * in the CommonMark sense: a word right after it and none right before, or the
 * other way round? "in_queue" and "a*b" hold no delimiter. */
static int delimiter_at(const char *s, size_t n, size_t i, size_t k)
{
    bool before = i > 0 && s[i - 1] != ' ', after = i + k < n && s[i + k] != ' ';
    bool word_before = i > 0 && word_byte(s[i - 1]), word_after = i + k < n && word_byte(s[i + k]);
    if (after && !word_before)
        return 1; /* opens */
    if (before && !word_after)
        return 2; /* closes */
    return 0;
}

/* Mark the emphasis delimiters of one kind (c, k bytes) in drop[] when they pair up:
 * an opening one, then a closing one. */
static void pair_delimiters(const char *s, size_t n, char c, size_t k, bool *drop)
{
    size_t open = SIZE_MAX;
    for (size_t i = 0; i + k <= n; i++) {
        bool run = true;
        for (size_t j = 0; j < k && run; j++)
            run = s[i + j] == c && !drop[i + j];
        if (!run || (i + k < n && s[i + k] == c) || (i > 0 && s[i - 1] == c))
            continue;
        int d = delimiter_at(s, n, i, k);
        if (d == 1 && open == SIZE_MAX) {
            open = i;
        } else if (d == 2 && open != SIZE_MAX) {
            for (size_t j = 0; j < k; j++)
                drop[open + j] = drop[i + j] = true;
            open = SIZE_MAX;
        }
        i += k - 1;
    }
}

/* A line of fio output under its markup? */
static bool fio_like(const char *s, size_t n)
{
    size_t i = skip_spaces(s, n, 0);
    return fsc_fio_keyword_at(s, n) >= 0 || fsc_find_lit(s, n, ": (groupid=") || fsc_find_lit(s, n, ": (g=") ||
           fsc_find_lit(s, n, ": ios=") || (starts_with(s + i, n - i, "fio-") && i + 4 < n && isdigit((unsigned char)s[i + 4])) ||
           starts_with(s + i, n - i, "Starting ");
}

/* Markdown/reST/AsciiDoc emphasis and code marks (`**IOPS=111k**`, `` `read: ...` ``,
 * `_x_`) and HTML inline tags (`<b>`, `<code>`) around the tokens of a fio line, into
 * out. False (out undefined) when the line holds none or is not fio output without
 * them: a bold heading stays a heading. */
static bool strip_markup(const char *s, size_t n, fsc_buf *out, bool *drop_buf, size_t drop_cap)
{
    if (n > drop_cap)
        return false;
    bool *drop = drop_buf;
    memset(drop, 0, n);
    pair_delimiters(s, n, '*', 2, drop);
    pair_delimiters(s, n, '_', 2, drop);
    pair_delimiters(s, n, '*', 1, drop);
    pair_delimiters(s, n, '_', 1, drop);
    bool any = false;
    /* a forum's or a wiki's tags glued to the line's start or end ("[code]rr: (g=0)...",
     * "...util=49.21%[/code]"), as the pre-scan finds them: not inside it, and not on
     * a line of JSON (a member, a closing bracket), which the pre-scan does not look at */
    size_t a = 0, ml;
    while (a < n && s[a] == ' ')
        a++;
    bool json_line = a < n && (s[a] == '"' || s[a] == '}' || s[a] == ']');
    while (!json_line && (ml = fsc_markup_tag_len(s + a, n - a)) != 0) {
        memset(drop + a, 1, ml);
        a += ml;
    }
    for (size_t b = n; !json_line && b > a && fsc_ends_in_markup_tag(s + a, b - a);) {
        size_t k = b - 1;
        while (s[k] != (s[b - 1] == ']' ? '[' : '{'))
            k--;
        memset(drop + k, 1, b - k);
        b = k;
    }
    for (size_t i = 0; i < n; i++) {
        bool block;
        size_t tl = s[i] == '<' ? html_tag(s + i, n - i, &block) : 0;
        if (tl) {
            for (size_t j = 0; j < tl; j++)
                drop[i + j] = true;
            i += tl - 1;
        } else if (s[i] == '`') {
            drop[i] = true;
        }
    }
    fsc_buf_reset(out);
    for (size_t i = 0; i < n; i++) {
        if (drop[i])
            any = true;
        else
            fsc_buf_putc(out, s[i]);
    }
    return any && !out->oom && fio_like(buf_str(out), out->len);
}

/* Markdown's backslash escapes undone into out: a backslash before ASCII punctuation
 * stands for that character ("\[" "\_" "\|" "\\"), one at the line's end for a hard
 * line break (pandoc's), which goes. */
static void md_unescape(const char *s, size_t n, fsc_buf *out)
{
    fsc_buf_reset(out);
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '\\' && i + 1 < n && ispunct((unsigned char)s[i + 1]))
            i++;
        else if (s[i] == '\\' && i + 1 == n)
            break;
        fsc_buf_putc(out, s[i]);
    }
}

/* Bytes that may begin markup, of the kinds the document holds at all: a quick test
 * before strip_markup. */
static bool may_have_markup(doc_kind d, const char *s, size_t n)
{
    if (d.marks && (memchr(s, '*', n) || memchr(s, '`', n)))
        return true;
    if (d.tags && memchr(s, '<', n))
        return true;
    if (d.wikitags && (memchr(s, '[', n) || memchr(s, '{', n)))
        return true;
    for (const char *u = d.underscores ? memchr(s, '_', n) : NULL; u; u = memchr(u + 1, '_', n - (size_t)(u + 1 - s)))
        if (u == s || u[-1] == ' ' || u + 1 == s + n || u[1] == ' ')
            return true; /* "_x_" or "__x__" at a word's edge */
    return false;
}

/* A line of a string that a wrap may have broke (see wrap_add): where it came from,
 * its length in cleaner.wrap. */
typedef struct wrap_line {
    uint32_t orig;
    uint16_t flags;
    size_t len;
} wrap_line;

struct cleaner {
    line_sink k;
    doc_kind d;
    fsc_buf sp, piece, dec, mk, term, jl, sl, sl_tmp, uq, ty, me;
    bool *drop;
    size_t drop_cap;
    /* the lines since one that ended inside a string it opened: their bytes one
     * after another, and each line's place */
    fsc_buf wrap, joined, folded; /* folded: a YAML scalar's text before its escaped spaces */
    wrap_line *wl;
    size_t wl_n, wl_cap;
    char wrap_q;   /* the string's quote */
    bool wrap_esc; /* the last line ended in an escape's backslash */
    bool wrap_oom;
    /* a CSV file's record (csvlog.c) while a quoted field in it is open: its lines
     * joined, the first one's number and flags, how many, the text column's value */
    fsc_buf csv_rec, csv_val;
    uint32_t csv_orig, csv_lines;
    uint16_t csv_flags;
    bool csv_open;    /* an odd number of quote marks so far: a field goes on */
    bool csv_records; /* a record of the file's shape was read (the header is the first) */
    fsc_pydict py;    /* a Python dict of fio's JSON (pydict.c): its JSON, scratch */
    fsc_buf py_json, py_tmp;
    /* lines of a dict joined while each ends with a string (pprint's pieces of a long
     * one): their text, the first one's number and flags, the dict's state before it */
    fsc_buf py_join;
    uint32_t py_orig;
    uint16_t py_flags;
    size_t py_depth;
    /* the right column of two runs side by side (sidebyside.c): its lines' text one
     * after another, and each one's place */
    fsc_buf sbs_text;
    wrap_line *sbs_lines;
    size_t sbs_n, sbs_cap;
};

/* A string broken over more lines than this, or bytes, is read line by line (a
 * quote that opened no string, in prose: "the 'fast path"). */
enum { WRAP_MAX_LINES = 65536, WRAP_MAX_BYTES = 8 << 20 };

/* The lines of a string's text[0, n) on to step 2, each with the physical line's
 * number orig (a newline at the end ends the last line; a CR before a newline is
 * the line end's, as in a file). A JSON log's line that is itself a string literal
 * a program printed (nested) gives that literal's lines. */
static bool emit_string_lines(cleaner *t, const char *text, size_t n, uint32_t orig, uint16_t flags, bool nested)
{
    const char *p = text, *e = text + n;
    if (e > p && e[-1] == '\n')
        e--;
    for (;;) {
        const char *nl = memchr(p, '\n', (size_t)(e - p)), *q = nl ? nl : e;
        if (nl && q > p && q[-1] == '\r')
            q--;
        bool ok = nested && t->d.strlit && fsc_strlit_text(p, (size_t)(q - p), &t->sl, &t->sl_tmp)
                      ? emit_string_lines(t, buf_str(&t->sl), t->sl.len, orig, flags | FSC_LINE_STRLIT, false)
                      : emit_cr_segments(t, p, (size_t)(q - p), orig, flags);
        if (!ok)
            return false;
        if (!nl)
            return true;
        p = nl + 1;
    }
}

/* Does the line s[0, n) hold output as a string literal (strlit.c; on a web page
 * its quotes may be entities)? Then t->sl holds its lines. */
static bool strlit_lines(cleaner *t, const char *s, size_t n)
{
    if (fsc_strlit_text(s, n, &t->sl, &t->sl_tmp))
        return true;
    if (!memchr(s, '&', n))
        return false;
    fsc_buf_reset(&t->uq);
    return decode_entities(s, n, &t->uq, true) && fsc_strlit_text(buf_str(&t->uq), t->uq.len, &t->sl, &t->sl_tmp);
}

/* A physical line on to step 2; a JSON log's line (jsonlog.c) or a line that holds
 * output as a string literal gives the lines of its string instead. */
static bool emit_pydict(cleaner *t, const char *s, size_t n, uint32_t orig, uint16_t flags, bool last);

static bool emit_text_line(cleaner *t, const char *s, size_t n, uint32_t orig, uint16_t flags);

static bool emit_line(cleaner *t, const char *s, size_t n, uint32_t orig, uint16_t flags)
{
    if (t->d.pydict && (t->py.depth || t->py_join.len || memchr(s, '{', n)))
        return emit_pydict(t, s, n, orig, flags, false);
    return emit_text_line(t, s, n, orig, flags);
}

/* emit_line's for a line that is no part of a Python dict. */
static bool emit_text_line(cleaner *t, const char *s, size_t n, uint32_t orig, uint16_t flags)
{
    if (t->d.jsonlog && memchr(s, '{', n) && fsc_jsonlog_text(s, n, &t->jl))
        return emit_string_lines(t, buf_str(&t->jl), t->jl.len, orig, flags | FSC_LINE_JSONLOG, true);
    if (t->d.strlit && strlit_lines(t, s, n))
        return emit_string_lines(t, buf_str(&t->sl), t->sl.len, orig, flags | FSC_LINE_STRLIT, false);
    return emit_cr_segments(t, s, n, orig, flags);
}

/* A line of a document that holds Python's dicts of fio's JSON (pydict.c): the
 * line as JSON when a dict opens on it or goes on over it, else as it is (emit_line).
 * A line of a dict that ends with a string waits for the next one, joined to it with
 * a space (a long string that pprint broke into pieces): up to WRAP_MAX_BYTES, or
 * the document's end (last). */
static bool emit_pydict(cleaner *t, const char *s, size_t n, uint32_t orig, uint16_t flags, bool last)
{
    if (t->py_join.len) {
        if (!last) {
            fsc_buf_putc(&t->py_join, ' ');
            fsc_buf_add(&t->py_join, s, n);
            /* it goes on: the joined text is written as JSON once, at its end */
            if (fsc_pydict_ends_in_string(s, n) && t->py_join.len < WRAP_MAX_BYTES)
                return !t->py_join.oom;
        }
        if (t->py_join.oom)
            return false;
        s = t->py_join.data;
        n = t->py_join.len;
        orig = t->py_orig;
        flags = t->py_flags;
        t->py.depth = t->py_depth;
    }
    size_t depth = t->py.depth;
    if (!fsc_pydict_line(&t->py, s, n, &t->py_json, &t->py_tmp)) {
        bool ok = !t->py_json.oom && !t->py_tmp.oom && emit_text_line(t, s, n, orig, flags);
        fsc_buf_reset(&t->py_join);
        return ok;
    }
    if (t->py.open_string && !last && !t->py_join.len && n < WRAP_MAX_BYTES) {
        fsc_buf_add(&t->py_join, s, n);
        t->py_orig = orig;
        t->py_flags = flags;
        t->py_depth = depth;
        return !t->py_join.oom;
    }
    bool ok = emit_string_lines(t, buf_str(&t->py_json), t->py_json.len, orig, flags, false);
    fsc_buf_reset(&t->py_join);
    return ok;
}

/* A YAML double-quoted scalar that its writer folded ("stdout: \"fio-3.33\\nStarting
 * 1 process\\n...\\" ending a line in a backslash, its next line indented and
 * beginning "\\ " where the break fell on a space: PyYAML's dump, Ansible's YAML
 * output): the opening quote after "key: " or "- ", every line after it indented.
 * Joined as YAML reads it: the indentation goes; a line that ends in an escaping
 * backslash goes on with no space, any other with one (an empty line: a newline); an
 * escaped space is a space. Otherwise false, nothing done. */
static bool yaml_fold_join(cleaner *t)
{
    const char *p = buf_str(&t->wrap);
    size_t n0 = t->wl[0].len, q = fsc_strlit_open_at(p, n0);
    if (t->wrap_q != '"' || q >= n0 || q < 2 || p[q - 1] != ' ' || (p[q - 2] != ':' && p[q - 2] != '-'))
        return false;
    const char *l = p + n0;
    for (size_t i = 1; i < t->wl_n; l += t->wl[i].len, i++)
        if (t->wl[i].len && l[0] != ' ' && l[0] != '\t')
            return false;
    fsc_buf_reset(&t->joined);
    fsc_buf_reset(&t->folded);
    l = p;
    for (size_t i = 0; i < t->wl_n; l += t->wl[i].len, i++) {
        const char *s = l, *e = l + t->wl[i].len;
        if (i)
            while (s < e && (*s == ' ' || *s == '\t'))
                s++;
        if (i + 1 == t->wl_n) {
            fsc_buf_add(&t->folded, s, (size_t)(e - s));
            break;
        }
        size_t b = 0;
        while (e - b > s && e[-1 - (ptrdiff_t)b] == '\\')
            b++;
        if (b % 2) { /* an escaped line break: nothing between the lines */
            fsc_buf_add(&t->folded, s, (size_t)(e - 1 - s));
            continue;
        }
        while (e > s && (e[-1] == ' ' || e[-1] == '\t'))
            e--;
        fsc_buf_add(&t->folded, s, (size_t)(e - s));
        if (s == e && i) /* an empty line: a line break */
            fsc_buf_add(&t->folded, "\\n", 2);
        else
            fsc_buf_putc(&t->folded, ' ');
    }
    for (size_t i = 0; i < t->folded.len; i++) {
        char c = t->folded.data[i];
        if (c == '\\' && i + 1 < t->folded.len) {
            char d = t->folded.data[++i];
            if (d == ' ')
                fsc_buf_putc(&t->joined, ' ');
            else {
                fsc_buf_putc(&t->joined, c);
                fsc_buf_putc(&t->joined, d);
            }
        } else
            fsc_buf_putc(&t->joined, c);
    }
    return !t->joined.oom && !t->folded.oom;
}

/* The wrapped lines, joined as the string stood before the wrap broke it: lines
 * all of one length (two or more between the first and the last; the first may be
 * longer, with what stood before the wrapped text) were cut hard, between any two
 * bytes; else the wrap broke at spaces, and a break with no space on either side
 * lost one (a mail's word wrap drops it). In a mail's reply (the first line quoted)
 * the lines after it lose their quote marks. */
static bool wrap_join(cleaner *t)
{
    if (yaml_fold_join(t))
        return true;
    bool hard = t->wl_n > 3 && t->wl[0].len >= t->wl[1].len;
    for (size_t i = 2; i + 1 < t->wl_n && hard; i++)
        hard = t->wl[i].len == t->wl[1].len;
    fsc_buf_reset(&t->joined);
    const char *p = buf_str(&t->wrap);
    bool quoted = quote_len(p, t->wl[0].len, false) > 0;
    for (size_t i = 0; i < t->wl_n; p += t->wl[i].len, i++) {
        size_t q = i && quoted ? quote_len(p, t->wl[i].len, false) : 0;
        fsc_buf_add(&t->joined, p + q, t->wl[i].len - q);
        const char *next = p + t->wl[i].len;
        size_t next_q = i + 1 < t->wl_n && quoted ? quote_len(next, t->wl[i + 1].len, false) : 0;
        if (i + 1 < t->wl_n && !hard && t->wl[i + 1].len > next_q && next[next_q] != ' ' &&
            (!t->wl[i].len || p[t->wl[i].len - 1] != ' '))
            fsc_buf_putc(&t->joined, ' ');
    }
    return !t->joined.oom;
}

/* The wrapped lines end: closed (their string ends on the last) they give the
 * string's lines when it holds output, with the first line's number; else each goes
 * on as it is. */
static bool wrap_end(cleaner *t, bool closed)
{
    bool ok = true;
    if (closed && t->wl_n > 1 && wrap_join(t) && strlit_lines(t, buf_str(&t->joined), t->joined.len)) {
        ok = emit_string_lines(t, buf_str(&t->sl), t->sl.len, t->wl[0].orig, t->wl[0].flags | FSC_LINE_STRLIT, false);
    } else {
        const char *p = buf_str(&t->wrap);
        for (size_t i = 0; i < t->wl_n && ok; p += t->wl[i].len, i++)
            ok = emit_line(t, p, t->wl[i].len, t->wl[i].orig, t->wl[i].flags);
    }
    t->wl_n = 0;
    fsc_buf_reset(&t->wrap);
    return ok;
}

/* Keep the line s[0, n) among the wrapped ones (the first: the one that opened the
 * string, quote q); end them where the string closes, or at the limits. */
static bool wrap_add(cleaner *t, const char *s, size_t n, uint32_t orig, uint16_t flags, char q)
{
    wrap_line *l = FSC_PUSH(t->wl, t->wl_n, t->wl_cap);
    if (!l) {
        t->wrap_oom = true;
        return false;
    }
    *l = (wrap_line){orig, flags, n};
    fsc_buf_add(&t->wrap, s, n);
    if (t->wl_n == 1) { /* the opening line: the string's quote, a backslash at its end */
        t->wrap_q = q;
        size_t b = 0;
        while (b < n && s[n - 1 - b] == '\\')
            b++;
        t->wrap_esc = b % 2;
        return true;
    }
    if (fsc_strlit_closes(s, n, t->wrap_q, &t->wrap_esc))
        return wrap_end(t, true);
    if (t->wl_n >= WRAP_MAX_LINES || t->wrap.len >= WRAP_MAX_BYTES)
        return wrap_end(t, false);
    return true;
}

static bool emit_text_physical(cleaner *t, const char *s, size_t n, uint32_t orig, uint16_t flags);

/* The CSV record in t->csv_rec ends (read: fsc_csvlog_text's verdict): the lines of
 * its text column, the n-th with the number of the record's n-th physical line (a
 * cell's line breaks are the file's); the header row, none; a record of another
 * shape, its own lines. */
static bool csv_end(cleaner *t, int read)
{
    uint32_t lines = t->csv_lines;
    t->csv_lines = 0;
    t->csv_open = false;
    const char *p = buf_str(&t->csv_rec), *e = p + t->csv_rec.len;
    uint16_t flags = t->csv_flags;
    if (read == 1) {
        bool header = !t->csv_records && t->d.csvlog.header;
        t->csv_records = true;
        if (header)
            return true;
        p = buf_str(&t->csv_val);
        e = p + t->csv_val.len;
        flags |= FSC_LINE_STRLIT;
    }
    for (uint32_t i = 0;; i++) {
        const char *nl = memchr(p, '\n', (size_t)(e - p)), *q = nl ? nl : e;
        uint32_t orig = t->csv_orig + (i < lines ? i : lines - 1);
        if (!(read == 1 ? emit_line(t, p, (size_t)(q - p), orig, flags)
                        : emit_text_physical(t, p, (size_t)(q - p), orig, flags)))
            return false;
        if (!nl)
            return true;
        p = nl + 1;
    }
}

/* A physical line of a CSV file: a record, or a part of one that a quoted field
 * carries on over the next line (up to the limits of a wrapped string). */
static bool csv_add(cleaner *t, const char *s, size_t n, uint32_t orig, uint16_t flags)
{
    if (!t->csv_lines) {
        t->csv_orig = orig;
        t->csv_flags = flags;
        fsc_buf_reset(&t->csv_rec);
    } else {
        fsc_buf_putc(&t->csv_rec, '\n');
    }
    fsc_buf_add(&t->csv_rec, s, n);
    t->csv_lines++;
    for (const char *q = memchr(s, '"', n); q; q = memchr(q + 1, '"', n - (size_t)(q + 1 - s)))
        t->csv_open = !t->csv_open;
    if (t->csv_rec.oom)
        return false;
    if (t->csv_open && t->csv_lines < WRAP_MAX_LINES && t->csv_rec.len < WRAP_MAX_BYTES)
        return true;
    if (t->csv_open)
        return csv_end(t, -1);
    return csv_end(t, fsc_csvlog_text(&t->d.csvlog, buf_str(&t->csv_rec), t->csv_rec.len, &t->csv_val));
}

/* A line of two runs side by side: its left side on, its right side kept for after
 * the left column (sbs_end); a line that does not split so goes on whole. */
static bool sbs_add(cleaner *t, const char *s, size_t n, uint32_t orig, uint16_t flags)
{
    fsc_sbs_side left, right;
    if (!fsc_sbs_split(&t->d.sbs_layout, s, n, &left, &right))
        return emit_text_physical(t, s, n, orig, flags);
    wrap_line *l = FSC_PUSH(t->sbs_lines, t->sbs_n, t->sbs_cap);
    if (!l)
        return false;
    *l = (wrap_line){orig, flags, right.n};
    fsc_buf_add(&t->sbs_text, right.s, right.n);
    return !t->sbs_text.oom && emit_text_physical(t, left.s, left.n, orig, flags);
}

/* The right column, after a blank line, each line with its own number. */
static bool sbs_end(cleaner *t)
{
    bool ok = emit_text_physical(t, "", 0, t->sbs_lines[t->sbs_n - 1].orig, 0);
    const char *p = buf_str(&t->sbs_text);
    for (size_t i = 0; i < t->sbs_n && ok; p += t->sbs_lines[i].len, i++)
        ok = emit_text_physical(t, p, t->sbs_lines[i].len, t->sbs_lines[i].orig, t->sbs_lines[i].flags);
    t->sbs_n = 0;
    return ok;
}

/* A physical line on to step 2: a CSV file's through its records, two runs side by
 * side a side at a time. */
static bool emit_physical(cleaner *t, const char *s, size_t n, uint32_t orig, uint16_t flags)
{
    if (t->d.csv)
        return csv_add(t, s, n, orig, flags);
    if (t->d.sbs)
        return sbs_add(t, s, n, orig, flags);
    return emit_text_physical(t, s, n, orig, flags);
}

/* A physical line on to step 2, or kept while a string that a line opened and did
 * not close may go on over the next (a wrapped Python literal). */
static bool emit_text_physical(cleaner *t, const char *s, size_t n, uint32_t orig, uint16_t flags)
{
    if (t->wl_n)
        return wrap_add(t, s, n, orig, flags, 0);
    char q = t->d.strlit ? fsc_strlit_open_end(s, n) : 0;
    if (q)
        return wrap_add(t, s, n, orig, flags, q);
    return emit_line(t, s, n, orig, flags);
}

/* Does clean_spaces leave s as it is (ASCII without tabs)? */
static bool plain_ascii(const char *s, size_t n)
{
    /* eight bytes at a time: a high bit, or a zero byte in w ^ tabs (a tab) */
    const uint64_t ones = 0x0101010101010101ULL, highs = 0x8080808080808080ULL, tabs = ones * '\t';
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t w;
        memcpy(&w, s + i, 8);
        uint64_t t = w ^ tabs;
        if ((w & highs) || ((t - ones) & ~t & highs))
            return false;
    }
    const unsigned char *u = (const unsigned char *)s;
    unsigned char any = 0;
    for (; i < n; i++)
        any |= (unsigned char)((u[i] & 0x80) | (u[i] == '\t'));
    return !any;
}

/* Step 2 for one physical line: spaces, CI stamps, HTML, entities, then the sink. */
static bool clean_line(cleaner *c, const char *s, size_t n, uint32_t orig, uint16_t flags)
{
    /* a JSON document's strings are data; a JSON log's lines are text */
    bool json = c->d.json && !(flags & (FSC_LINE_JSONLOG | FSC_LINE_STRLIT));
    /* first, as a terminal would: a code may hide a timestamp, a space or a tag */
    if (c->d.term && fsc_term_marks(s, n, !json)) {
        fsc_term_strip(s, n, !json, &c->term);
        s = buf_str(&c->term);
        n = c->term.len;
        flags |= FSC_LINE_TERM;
    }
    if (!plain_ascii(s, n)) {
        fsc_buf_reset(&c->sp);
        clean_spaces(s, n, c->d.name_tabs, &c->sp);
        s = buf_str(&c->sp);
        n = c->sp.len;
        /* typeset quotes and dashes (a blog's): a JSON document's own quotes keep
         * what its strings hold */
        if ((!json || !memchr(s, '"', n)) && fsc_typography_undo(s, n, &c->ty)) {
            s = buf_str(&c->ty);
            n = c->ty.len;
        }
    }
    size_t st = stamp_len(s, n);
    if (st) {
        s += st;
        n -= st;
        flags |= FSC_LINE_STAMP;
    }
    if (c->d.html) {
        sink_html(&c->k, s, n, orig, flags, &c->piece, &c->dec);
        return c->k.ok;
    }
    if (c->d.mdesc && !json && memchr(s, '\\', n)) {
        md_unescape(s, n, &c->me);
        s = buf_str(&c->me);
        n = c->me.len;
        flags |= FSC_LINE_MARKUP;
    }
    if (!json && may_have_markup(c->d, s, n)) {
        if (n > c->drop_cap) {
            bool *d = realloc(c->drop, n);
            if (!d)
                return false;
            c->drop = d;
            c->drop_cap = n;
        }
        if (strip_markup(s, n, &c->mk, c->drop, c->drop_cap)) {
            s = buf_str(&c->mk);
            n = c->mk.len;
            flags |= FSC_LINE_MARKUP;
        }
    }
    if (!json && memchr(s, '&', n)) {
        fsc_buf_reset(&c->dec);
        if (decode_entities(s, n, &c->dec, false)) {
            sink_line(&c->k, buf_str(&c->dec), c->dec.len, orig, flags | FSC_LINE_ENTITY);
            return c->k.ok;
        }
    }
    sink_line(&c->k, s, n, orig, flags);
    return c->k.ok;
}

/* Steps 1 and 2: physical lines of data, cleaned, into out. */
static fsc_status clean_lines(const char *data, size_t len, doc_kind d, const fsc_mail_state *start,
                              fsc_text *out, fsc_mail_state *mail_end)
{
    cleaner c;
    memset(&c, 0, sizeof c);
    c.k = (line_sink){out, {0}, {0}, true, false, 0};
    c.d = d;
    fsc_status st = split_physical(data, len, d, start, &c, mail_end);
    if (st == FSC_OK && c.csv_lines && !csv_end(&c, -1)) /* a CSV field still open at the end */
        st = FSC_E_NOMEM;
    if (st == FSC_OK && c.py_join.len && !emit_pydict(&c, "", 0, 0, 0, true)) /* joined lines of a dict */
        st = FSC_E_NOMEM;
    if (st == FSC_OK && c.sbs_n && !sbs_end(&c)) /* the right column of two runs side by side */
        st = FSC_E_NOMEM;
    if (st == FSC_OK && c.wl_n && !wrap_end(&c, false)) /* a string still open at the end */
        st = FSC_E_NOMEM;
    /* the cleaner's buffers: out of memory in any, the text is not whole */
    fsc_buf *bufs[] = {&c.sp,      &c.piece,  &c.dec,    &c.mk,      &c.term,    &c.jl,      &c.sl,
                       &c.sl_tmp,  &c.uq,     &c.ty,     &c.me,      &c.wrap,    &c.joined,  &c.folded, &c.csv_rec,
                       &c.csv_val, &c.py_json, &c.py_tmp, &c.py_join, &c.sbs_text, &c.k.tmp, &c.k.piece};
    bool ok = st == FSC_OK && c.k.ok && !c.wrap_oom;
    for (size_t i = 0; i < sizeof bufs / sizeof *bufs; i++) {
        ok = ok && !bufs[i]->oom;
        fsc_buf_free(bufs[i]);
    }
    free(c.sbs_lines);
    free(c.wl);
    free(c.drop);
    return ok ? FSC_OK : FSC_E_NOMEM;
}

/* ---- step 3: fences and gutters (in place: only off/len/flags change) ---- */

static void flag_fences(fsc_text *t)
{
    for (size_t i = 0; i < t->n_lines; i++) {
        const char *s = fsc_text_line(t, i);
        size_t n = t->lines[i].len, k = skip_spaces(s, n, 0);
        if (k <= 3 && (starts_with(s + k, n - k, "```") || starts_with(s + k, n - k, "~~~")))
            t->lines[i].flags |= FSC_LINE_FENCE;
    }
}

/* A gutter number at the start of line i: its value, the length of the prefix to
 * strip (number plus one separating space), and whether nothing else follows. */
typedef struct gutter_num {
    long v;
    size_t strip;
    bool bare;
} gutter_num;

static bool gutter_at(const fsc_text *t, size_t i, gutter_num *g)
{
    const char *s = fsc_text_line(t, i);
    size_t n = t->lines[i].len, k = skip_spaces(s, n, 0), d = digits(s, n, k);
    if (d == 0 || d > 5)
        return false;
    g->v = strtol(s + k, NULL, 10);
    size_t e = k + d;
    g->bare = skip_spaces(s, n, e) == n;
    if (!g->bare && s[e] != ' ')
        return false; /* "3;fio-...", "4k_randread:", "1.1 title" */
    size_t x = skip_spaces(s, n, e);
    if (!g->bare && x < n && (s[x] == '-' || s[x] == ')' || s[x] == ':'))
        return false; /* an enumeration: "1 - READ: io=...", "2 ) ..." */
    g->strip = g->bare ? n : e + 1;
    return true;
}

/* Gutter runs: consecutive numbers, each line one more than the previous. Bare
 * numbers need 3 lines, or start at 1 after a blank line; numbers in front of code
 * need 3 lines. Returns whether any was stripped. */
static bool strip_gutters(fsc_text *t)
{
    bool any = false;
    size_t i = 0;
    while (i < t->n_lines) {
        gutter_num g, h;
        if (!gutter_at(t, i, &g)) {
            i++;
            continue;
        }
        size_t j = i + 1;
        bool all_bare = g.bare;
        long want = g.v + 1;
        while (j < t->n_lines && gutter_at(t, j, &h) && h.v == want) {
            all_bare = all_bare && h.bare;
            want++;
            j++;
        }
        size_t run = j - i;
        /* a lone short count ("1" printed by `cat .../dio`) is output, not a gutter,
         * unless it stands alone after a blank line, as gutters do */
        bool after_blank = i == 0 || t->lines[i - 1].len == 0;
        bool is_gutter = all_bare ? (run >= 3 || (g.v == 1 && after_blank)) : run >= 3;
        any = any || is_gutter;
        for (size_t m = i; is_gutter && m < j; m++) {
            gutter_at(t, m, &h);
            t->lines[m].off += h.strip;
            t->lines[m].len -= (uint32_t)h.strip;
            t->lines[m].flags |= all_bare ? FSC_LINE_GUTTER_ONLY : FSC_LINE_GUTTER;
        }
        i = j;
    }
    return any;
}

/* Code blocks indented as a whole (Markdown's four spaces, a mail's indented paste):
 * the indentation they share is taken off when a line of fio's left margin stands at
 * it. The block's lines then read as fio wrote them: a wrap that cut a line inside
 * the block left its rest indented too ("    (groupid=0, ..." under a long name,
 * "    18]," under "...[  3"), and the joins of wrapped lines would keep that indent
 * inside the joined line. A block: the lines from one indented line to the next line
 * at the margin, blank lines included. Returns whether any was taken off. */
static bool dedent_blocks(fsc_text *t)
{
    bool any = false;
    size_t i = 0;
    while (i < t->n_lines) {
        const char *s = fsc_text_line(t, i);
        size_t n = t->lines[i].len;
        if (!n || s[0] != ' ' || skip_spaces(s, n, 0) == n) {
            i++;
            continue;
        }
        size_t j = i, indent = SIZE_MAX;
        for (; j < t->n_lines; j++) {
            const char *ls = fsc_text_line(t, j);
            size_t ln = t->lines[j].len, k = skip_spaces(ls, ln, 0);
            if (k == ln) /* blank */
                continue;
            if (k == 0 || ls[0] != ' ') /* the margin (a tab is a space since step 2) */
                break;
            indent = k < indent ? k : indent;
        }
        bool fio = false;
        for (size_t m = i; m < j && !fio; m++) {
            const char *ls = fsc_text_line(t, m);
            size_t ln = t->lines[m].len;
            fio = ln > indent && fsc_fio_margin_line(ls + indent, ln - indent);
        }
        for (size_t m = i; fio && m < j; m++) {
            size_t ln = t->lines[m].len, cut = ln < indent ? ln : indent;
            t->lines[m].off += cut;
            t->lines[m].len -= (uint32_t)cut;
            if (cut)
                t->lines[m].flags |= FSC_LINE_INDENT;
        }
        any = any || fio;
        i = j;
    }
    return any;
}

/* Copy the lines into out so that they are stored back to back, each with '\n'. A
 * line whose prefix was removed goes through the line sink again: under the prefix
 * there may be a mail quote, a glued progress line or a flattened paste. */
static fsc_status compact(fsc_text *in, fsc_text *out)
{
    line_sink k = {out, {0}, {0}, true, false, 0};
    for (size_t i = 0; i < in->n_lines && k.ok; i++) {
        const fsc_line *l = &in->lines[i];
        size_t before = out->n_lines;
        if (l->flags & FSC_LINE_PREFIX) {
            k.lead = l->lead;
            sink_line(&k, fsc_text_line(in, i), l->len, l->orig, l->flags);
        } else {
            k.ok = add_line(out, fsc_text_line(in, i), l->len, l->orig, l->flags);
            if (k.ok)
                out->lines[before].lead = l->lead;
        }
        for (size_t j = before; k.ok && j < out->n_lines; j++)
            out->lines[j].tag = l->tag;
    }
    bool ok = k.ok && !k.tmp.oom && !k.piece.oom;
    fsc_buf_free(&k.tmp);
    fsc_buf_free(&k.piece);
    out->tags = in->tags; /* the tags keep their offsets */
    memset(&in->tags, 0, sizeof in->tags);
    return ok ? FSC_OK : FSC_E_NOMEM;
}

fsc_status fsc_normalize(const char *data, size_t len, fsc_text *out)
{
    fsc_status st = fsc_normalize_lines(data, len, out);
    return st == FSC_OK ? fsc_outline_build(out, NULL) : st;
}

fsc_status fsc_normalize_lines(const char *data, size_t len, fsc_text *out)
{
    return fsc_normalize_lines_from(data, len, NULL, out, NULL);
}

fsc_status fsc_normalize_lines_from(const char *data, size_t len, const fsc_mail_state *start, fsc_text *out,
                                    fsc_mail_state *mail_end)
{
    fsc_text clean = {0};
    memset(out, 0, sizeof *out);
    doc_kind d = detect_doc(data, len);
    fsc_status st = clean_lines(data, len, d, start, &clean, mail_end);
    bool paged = false;
    if (st == FSC_OK && memchr(data, '\f', len) && !fsc_pages_strip(&clean, &paged))
        st = FSC_E_NOMEM;
    if (st == FSC_OK) {
        flag_fences(&clean);
        bool gutters = strip_gutters(&clean), prefixes = false, dedented = false;
        if (!fsc_prefix_strip(&clean, &prefixes))
            st = FSC_E_NOMEM;
        else
            dedented = dedent_blocks(&clean);
        if (st == FSC_OK && (gutters || prefixes || dedented || paged)) {
            st = compact(&clean, out);
            if (prefixes)
                flag_fences(out); /* "# ```" fences show only now */
        } else { /* the lines are still back to back: take them as they are */
            *out = clean;
            memset(&clean, 0, sizeof clean);
        }
    }
    fsc_text_free(&clean);
    return st;
}
