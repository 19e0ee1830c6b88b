/* SPDX-License-Identifier: MIT */
/*
 * Output kept as a string literal: a program that ran fio printed what it captured
 * as its language writes a string, all on one line. Python's REPL shows
 * `b'fio-3.33\nStarting 1 process\n...'` (bytes) or `'...'`; a script logs
 * "fio output: %r"; Ansible prints a loop item as a Python dict ({'cmd': '...',
 * 'stdout': '...\n...', 'stdout_lines': ['...', '...']}); Go's %q and logfmt write
 * output="...\n..."; a pretty-printed JSON result holds "stdout": "...\n...". A
 * list of the lines (readlines(), "stdout_lines") is the same text cut into strings.
 *
 * Such a line gives the lines of its strings, each on its own: the text before the
 * first string (a caption, "fio output:"), then every string that holds a newline
 * escape (the output, and the command that a dict holds beside it), split at its
 * newlines. A line is taken only when one string holds two newline escapes or more
 * and a line of fio's output; without such a string, a Python list of three strings
 * or more (the first in apostrophes) of which one is a line of fio's gives its
 * strings. A JSON list of the lines pretty-printed a string a line (a Jupyter
 * notebook's output: "text": ["fio-3.33\n", ...]) gives each line's string, one that
 * ends in its newline escape. The pre-scan sends every line with a backslash or an
 * apostrophe here. Nothing carries from one line to the next, so a log in pieces
 * reads as a whole one. One pass over the line, and one over each string it decodes:
 * linear.
 */
#include "parse_int.h"

#include "fioscope/parse.h"

#include <string.h>

enum { LIST_MIN = 3, NL_MIN = 2 };

/* A string literal of the line: its text between the quotes (e: at the closing
 * quote, or the line's end for a string the line cut short). */
typedef struct lit {
    const char *b, *e;
    size_t newlines; /* its "\n" escapes */
} lit;

static bool py_prefix(char c)
{
    return c == 'b' || c == 'B' || c == 'u' || c == 'U' || c == 'r' || c == 'R';
}

/* Where the string whose quote is s[i] begins, with a prefix of Python's before it
 * (b'', u'', r'', rb''): letters that stand alone, not the end of a word ("Bob's"). */
static size_t lit_start(const char *s, size_t i)
{
    size_t k = i;
    while (k > 0 && i - k < 2 && py_prefix(s[k - 1]))
        k--;
    if (k > 0 && k < i && ((s[k - 1] >= 'a' && s[k - 1] <= 'z') || (s[k - 1] >= 'A' && s[k - 1] <= 'Z') ||
                           (s[k - 1] >= '0' && s[k - 1] <= '9') || s[k - 1] == '_'))
        k = i;
    return k;
}

/* May the quote at s[i] open a string? At the line's start or after a space or
 * punctuation that comes before a value (not after a letter: "it's"). */
static bool opens(const char *s, size_t i)
{
    size_t k = lit_start(s, i);
    if (k == 0)
        return true;
    char c = s[k - 1];
    return c == ' ' || c == '\t' || c == '(' || c == '[' || c == '{' || c == ',' || c == ':' || c == '=' ||
           c == '>';
}

/* The literal that opens at the quote s[i]: its end (past the closing quote, or n). */
static size_t read_lit(const char *s, size_t n, size_t i, lit *l)
{
    char q = s[i];
    size_t j = i + 1;
    l->b = s + j;
    l->newlines = 0;
    while (j < n && s[j] != q) {
        if (s[j] == '\\' && j + 1 < n) {
            l->newlines += s[j + 1] == 'n';
            j += 2;
        } else
            j++;
    }
    if (j > n)
        j = n;
    l->e = s + j;
    return j < n ? j + 1 : n;
}

/* The next string literal of s[0, n) from *i on: false when there is none; else l
 * is it and *i is past it. */
static bool next_lit(const char *s, size_t n, size_t *i, lit *l)
{
    for (; *i < n; ++*i)
        if ((s[*i] == '\'' || s[*i] == '"') && opens(s, *i)) {
            *i = read_lit(s, n, *i, l);
            return true;
        }
    return false;
}

/* The value of the k hex digits at p (all there and hex), or -1. */
static long hex_at(const char *p, const char *e, size_t k)
{
    if ((size_t)(e - p) < k)
        return -1;
    long v = 0;
    for (size_t i = 0; i < k; i++) {
        int d = fsc_hex_digit((unsigned char)p[i]);
        if (d < 0)
            return -1;
        v = v * 16 + d;
    }
    return v;
}

void fsc_strlit_decode(const char *p, const char *e, fsc_buf *out)
{
    while (p < e) {
        const char *bs = memchr(p, '\\', (size_t)(e - p));
        if (!bs) {
            fsc_buf_add(out, p, (size_t)(e - p));
            return;
        }
        fsc_buf_add(out, p, (size_t)(bs - p));
        p = bs + 1;
        if (p == e) { /* a backslash the line cut off */
            fsc_buf_putc(out, '\\');
            return;
        }
        char c = *p++;
        long v;
        switch (c) {
        case 'n': fsc_buf_putc(out, '\n'); break;
        case 'r': fsc_buf_putc(out, '\r'); break;
        case 't': fsc_buf_putc(out, '\t'); break;
        case 'a': fsc_buf_putc(out, '\a'); break;
        case 'b': fsc_buf_putc(out, '\b'); break;
        case 'f': fsc_buf_putc(out, '\f'); break;
        case 'v': fsc_buf_putc(out, '\v'); break;
        case 'e': fsc_buf_putc(out, 0x1b); break;
        case '\\': case '\'': case '"': case '/': case '`': fsc_buf_putc(out, c); break;
        case 'x':
            if ((v = hex_at(p, e, 2)) >= 0) {
                fsc_buf_putc(out, (char)v);
                p += 2;
            } else
                fsc_buf_add(out, p - 2, 2);
            break;
        case 'u':
        case 'U': {
            size_t k = c == 'u' ? 4 : 8;
            if ((v = hex_at(p, e, k)) < 0 || v > 0x10FFFF) {
                fsc_buf_add(out, p - 2, 2);
                break;
            }
            p += k;
            if (v >= 0xD800 && v <= 0xDBFF) { /* JSON's pair for a character above U+FFFF */
                long lo = e - p >= 6 && p[0] == '\\' && p[1] == 'u' ? hex_at(p + 2, e, 4) : -1;
                if (lo >= 0xDC00 && lo <= 0xDFFF) {
                    v = 0x10000 + ((v - 0xD800) << 10) + (lo - 0xDC00);
                    p += 6;
                } else
                    v = 0xFFFD;
            } else if (v >= 0xDC00 && v <= 0xDFFF)
                v = 0xFFFD;
            fsc_buf_put_utf8(out, (uint32_t)v);
            break;
        }
        default:
            if (c >= '0' && c <= '7') { /* octal: up to three digits */
                v = c - '0';
                for (int i = 0; i < 2 && p < e && *p >= '0' && *p <= '7'; i++)
                    v = v * 8 + (*p++ - '0');
                fsc_buf_putc(out, (char)(v & 0xFF));
            } else
                fsc_buf_add(out, p - 2, 2);
        }
    }
}

/* Does text[0, n) hold a line of fio's output (a keyword prefix.c knows, or one of
 * fio's lines at the left margin)? */
static bool holds_fio_line(const char *text, size_t n)
{
    for (const char *p = text, *e = text + n; p < e;) {
        const char *nl = memchr(p, '\n', (size_t)(e - p)), *q = nl ? nl : e;
        const char *t = p;
        while (t < q && (*t == ' ' || *t == '\t'))
            t++;
        if (fsc_fio_keyword_at(p, (size_t)(q - p)) >= 0 || fsc_fio_margin_line(t, (size_t)(q - t)))
            return true;
        p = q + 1;
    }
    return false;
}

/* Append the text before the first string (its quote at q; blanks and a prefix of
 * Python's at its end off), and a newline, when there is any. */
static void put_lead(const char *s, const char *q, fsc_buf *out)
{
    const char *e = s + lit_start(s, (size_t)(q - s));
    while (e > s && (e[-1] == ' ' || e[-1] == '\t'))
        e--;
    if (e > s) {
        fsc_buf_add(out, s, (size_t)(e - s));
        fsc_buf_putc(out, '\n');
    }
}

/* Append one string's lines: its text with one newline after it (a string that
 * ends with its own newline gives no empty line for it). */
static void put_lines(const lit *l, fsc_buf *out)
{
    size_t at = out->len;
    fsc_strlit_decode(l->b, l->e, out);
    if (out->len == at || out->data[out->len - 1] != '\n')
        fsc_buf_putc(out, '\n');
}

/* The strings with newline escapes: true when one holds NL_MIN and a line of fio's,
 * and then out holds the lead and each of them. */
static bool take_strings(const char *s, size_t n, fsc_buf *out, fsc_buf *tmp)
{
    bool fio = false;
    const char *first = NULL;
    lit l;
    for (size_t i = 0; next_lit(s, n, &i, &l);) {
        if (!l.newlines)
            continue;
        if (!first)
            first = l.b;
        if (!fio && l.newlines >= NL_MIN) {
            fsc_buf_reset(tmp);
            fsc_strlit_decode(l.b, l.e, tmp);
            fio = !tmp->oom && holds_fio_line(tmp->data, tmp->len);
        }
    }
    if (!fio)
        return false;
    put_lead(s, first - 1, out);
    for (size_t i = 0; next_lit(s, n, &i, &l);)
        if (l.newlines)
            put_lines(&l, out);
    return true;
}

/* The list of strings whose '[' is at s[i]: its first and last string and how many
 * it holds; returns where the scan stops (past the ']', or where the list stopped
 * being one: a list of other values holds no string, or fewer). */
static size_t read_list(const char *s, size_t n, size_t i, lit *first, lit *last, size_t *count)
{
    *count = 0;
    size_t j = i + 1;
    for (;;) {
        while (j < n && s[j] == ' ')
            j++;
        /* Python's list begins with a string in apostrophes, unless its first line
         * holds one; JSON's lists are jsonlog.c's (its "stdout" before them) */
        if (j >= n || (s[j] != '\'' && (s[j] != '"' || !*count)))
            return j;
        lit l;
        j = read_lit(s, n, j, &l);
        if (!(*count)++)
            *first = l;
        *last = l;
        while (j < n && s[j] == ' ')
            j++;
        if (j < n && s[j] == ']')
            return j + 1;
        if (j >= n || s[j] != ',')
            return j;
        j++;
    }
}

/* Lists of LIST_MIN strings or more, one of them a line of fio's: true when there
 * is one, and then out holds the lead and every such list's strings. */
static bool take_lists(const char *s, size_t n, fsc_buf *out, fsc_buf *tmp)
{
    bool any = false;
    for (size_t i = 0; i < n;) {
        const char *br = memchr(s + i, '[', n - i);
        if (!br)
            break;
        i = (size_t)(br - s);
        lit first, last;
        size_t count, end = read_list(s, n, i, &first, &last, &count);
        if (count >= LIST_MIN) {
            /* the list's strings as they stand: a line of fio's among them */
            lit whole = {first.b, last.e, 0};
            fsc_buf_reset(tmp);
            fsc_strlit_decode(whole.b, whole.e, tmp);
            if (!tmp->oom && holds_fio_line(tmp->data, tmp->len)) {
                if (!any)
                    put_lead(s, s + i, out);
                any = true;
                for (size_t j = i + 1; j < end;) {
                    if (s[j] == '\'' || s[j] == '"') {
                        lit l;
                        j = read_lit(s, n, j, &l);
                        put_lines(&l, out);
                    } else
                        j++;
                }
            }
        }
        i = end > i ? end : i + 1;
    }
    return any;
}

bool fsc_strlit_in_doc(const char *data, size_t len)
{
    return fsc_find_lit(data, len, "\\n") || fsc_find_lit(data, len, "', '");
}

/* A line that is one JSON string ending in its newline escape (and a comma after
 * it): one line of an output kept as a JSON list of its lines, pretty-printed a
 * string a line (a Jupyter notebook's "text": ["fio-3.33\n", ...]). True when it is
 * one, and then out holds its text. */
static bool take_line_string(const char *s, size_t n, fsc_buf *out)
{
    size_t i = 0;
    while (i < n && (s[i] == ' ' || s[i] == '\t'))
        i++;
    if (i >= n || s[i] != '"')
        return false;
    lit l;
    size_t j = read_lit(s, n, i, &l);
    if (l.e == s + n || l.newlines != 1 || l.e - l.b < 2 || l.e[-2] != '\\' || l.e[-1] != 'n')
        return false; /* unclosed, or not one newline escape at the end */
    while (j < n && s[j] == ' ')
        j++;
    if (j < n && s[j] == ',')
        j++;
    while (j < n && s[j] == ' ')
        j++;
    if (j != n)
        return false;
    put_lines(&l, out);
    return true;
}

bool fsc_strlit_text(const char *s, size_t n, fsc_buf *out, fsc_buf *tmp)
{
    fsc_buf_reset(out);
    if (memchr(s, '\\', n) && take_strings(s, n, out, tmp))
        return !out->oom;
    fsc_buf_reset(out);
    if (memchr(s, '\\', n) && take_line_string(s, n, out))
        return !out->oom;
    fsc_buf_reset(out);
    return memchr(s, '[', n) && take_lists(s, n, out, tmp) && !out->oom;
}

size_t fsc_strlit_lead(const char *s, size_t n)
{
    if (!memchr(s, '\\', n))
        return 0;
    lit l;
    for (size_t i = 0; next_lit(s, n, &i, &l);)
        if (l.newlines)
            return (size_t)(l.b - s);
    return 0;
}

size_t fsc_strlit_tail(const char *s, size_t n)
{
    if (!memchr(s, '\\', n))
        return 0;
    size_t tail = 0;
    lit l;
    for (size_t i = 0; next_lit(s, n, &i, &l);) {
        if (!l.newlines)
            continue;
        /* the last newline escape that is not the string's own end */
        const char *last = l.b;
        for (const char *p = l.b; p + 1 < l.e; p++) {
            if (*p != '\\')
                continue;
            if (p[1] == 'n' && p + 2 < l.e)
                last = p + 2;
            p++;
        }
        tail = (size_t)(last - s);
    }
    return tail;
}

char fsc_strlit_open_end(const char *s, size_t n)
{
    size_t at = fsc_strlit_open_at(s, n);
    return at < n ? s[at] : 0;
}

size_t fsc_strlit_open_at(const char *s, size_t n)
{
    lit l;
    size_t at = n;
    for (size_t i = 0; next_lit(s, n, &i, &l);)
        at = l.e == s + n ? (size_t)(l.b - 1 - s) : n;
    return at;
}

bool fsc_strlit_closes(const char *s, size_t n, char q, bool *escaped)
{
    for (size_t i = 0; i < n; i++) {
        if (*escaped)
            *escaped = false;
        else if (s[i] == '\\')
            *escaped = true;
        else if (s[i] == q)
            return true;
    }
    return false;
}
