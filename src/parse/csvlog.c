/* SPDX-License-Identifier: MIT */
/*
 * Output kept in a column of a CSV file: a log exported from Kibana, Splunk, Graylog
 * or a spreadsheet ("time,host,message"), a line of output a row. A writer quotes a
 * field that holds the delimiter, a quote mark or a line break, and doubles the quote
 * marks in it (RFC 4180); most write the other fields bare. So fio's lines with a
 * comma come quoted, those without bare, and its JSON with every quote doubled:
 * `2024-03-01 10:00:05,node1,"  ""jobname"" : ""x"","`. A cell may hold many lines
 * (a run's whole output in one cell).
 *
 * A document is such a file when nine in ten of the records at its start that hold
 * a delimiter (',', ';' or a tab) split into one number of fields, two or more, and
 * one column holds fio's lines, some of them quoted with the delimiter, a quote mark
 * pair or a line break inside: the quoting is what fio's own text, its JSON and its
 * terse records never show. The other columns are short and hold none of fio's. The
 * text is that column's, a line for each line of the cell; lines of another shape
 * (prose around the table) stay as they are.
 */
#include "parse_int.h"

#include <string.h>

enum {
    SAMPLE_RECORDS = 256,      /* the records at the start that decide */
    SAMPLE_BYTES = 256 << 10,  /* ...or the bytes */
    MAX_FIELDS = 64,           /* more is no log's export */
    SIDE_FIELD_MAX = 256,      /* a time, a host, a level: the other columns are short */
    EARLY_RECORDS = 32,        /* ...a first look at this many, to give up early */
    RECORD_MAX = 4 << 20,      /* a record (a run in one cell) is looked for this far */
    VALUE_LOOK = 4096,         /* a field's first bytes tell whether it holds fio's lines */
};

/* A field of a record: its text (quoted: between its quote marks, pairs not yet
 * made one). */
typedef struct field {
    size_t off, len;
    bool quoted;
} field;

/* The fields of the record at s[0, n): up to the end of the line, or over line ends
 * inside quotes, into f (at most MAX_FIELDS). Returns the record's length (up to its
 * ending newline, excluded), or SIZE_MAX when it does not end within n (a quote left
 * open). *count: its fields, or 0 when a quote mark stands where a field cannot have
 * one (not CSV) or there are too many. */
static size_t split_record(const char *s, size_t n, char delim, field *f, size_t *count)
{
    size_t i = 0, k = 0;
    *count = 0;
    for (;;) {
        field cur = {i, 0, false};
        if (i < n && s[i] == '"') {
            cur.quoted = true;
            cur.off = ++i;
            for (;;) {
                const char *q = memchr(s + i, '"', n - i);
                if (!q)
                    return SIZE_MAX;
                i = (size_t)(q - s) + 1;
                if (i < n && s[i] == '"') {
                    i++;
                    continue;
                }
                break;
            }
            cur.len = i - 1 - cur.off;
            size_t j = i;
            while (j < n && s[j] == '\r')
                j++;
            if (j < n && s[j] != delim && s[j] != '\n') { /* `"a"b`: no CSV field */
                const char *nl = memchr(s + j, '\n', n - j);
                return nl ? (size_t)(nl - s) : n;
            }
            i = j;
        } else {
            while (i < n && s[i] != delim && s[i] != '\n')
                i++;
            cur.len = i - cur.off;
            if (cur.len && s[cur.off + cur.len - 1] == '\r' && (i == n || s[i] == '\n'))
                cur.len--;
        }
        if (k < MAX_FIELDS)
            f[k] = cur;
        k++;
        if (i >= n || s[i] == '\n') {
            *count = k > MAX_FIELDS ? 0 : k;
            return i;
        }
        i++; /* the delimiter */
    }
}

/* A quoted field's text s[0, n) to out, each pair of quote marks made one. */
static void put_unquoted(fsc_buf *out, const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        fsc_buf_putc(out, s[i]);
        i += s[i] == '"';
    }
}

/* How many of the first lines of the field's text (quote pairs doubled) are fio's
 * (a keyword line, a JSON document's member)? */
static size_t fio_value(const char *s, size_t n, bool quoted, fsc_buf *tmp)
{
    if (n > VALUE_LOOK)
        n = VALUE_LOOK;
    if (quoted && memchr(s, '"', n)) {
        fsc_buf_reset(tmp);
        put_unquoted(tmp, s, n);
        if (tmp->oom)
            return 0;
        s = tmp->data;
        n = tmp->len;
    }
    size_t fio = 0;
    for (int lines = 0; lines < 16 && n; lines++) {
        const char *nl = memchr(s, '\n', n);
        size_t l = nl ? (size_t)(nl - s) : n;
        size_t k = 0;
        while (k < l && s[k] == ' ')
            k++;
        if (fsc_fio_keyword_at(s, l) >= 0 || (k < l && s[k] == '"' && fsc_json_member(s + k, s + l)))
            fio++;
        if (!nl)
            break;
        s = nl + 1;
        n -= l + 1;
    }
    return fio;
}

/* A header row: short names (letters, spaces, "_", "-", ".", "@"), quoted or not. */
static bool header_row(const char *s, const field *f, size_t count)
{
    for (size_t c = 0; c < count; c++) {
        if (!f[c].len || f[c].len > 40)
            return false;
        for (size_t i = 0; i < f[c].len; i++) {
            char ch = s[f[c].off + i];
            if (!((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || ch == '_' || ch == ' ' || ch == '@' ||
                  ch == '.' || ch == '-'))
                return false;
        }
    }
    return true;
}

/* The number of fields that nine records in ten (and two at least) have, or 0. */
static size_t regular(const size_t *counts, size_t records)
{
    size_t k = 2;
    for (size_t c = 3; c <= MAX_FIELDS; c++)
        if (counts[c] > counts[k])
            k = c;
    return counts[k] >= 2 && counts[k] * 10 >= records * 9 ? k : 0;
}

/* How the sampled records read with one delimiter. */
static bool try_delim(const char *data, size_t len, char delim, fsc_csvlog *out, fsc_buf *tmp)
{
    static const size_t none = SIZE_MAX;
    size_t counts[MAX_FIELDS + 1] = {0}, records = 0;
    size_t fio_lines[MAX_FIELDS] = {0}, quoted_rows[MAX_FIELDS] = {0}, long_rows[MAX_FIELDS] = {0};
    bool header[MAX_FIELDS + 1] = {false};
    field f[MAX_FIELDS];
    size_t at = 0, end = len < SAMPLE_BYTES ? len : SAMPLE_BYTES;
    while (at < end && records < SAMPLE_RECORDS) {
        size_t avail = len - at < RECORD_MAX ? len - at : RECORD_MAX;
        size_t count, r = split_record(data + at, avail, delim, f, &count);
        if (r == SIZE_MAX) /* a quote left open to the end (or far): no record */
            break;
        if (count >= 2) { /* a line with no delimiter is prose around the table, or blank */
            if (!counts[count]) /* the first record of its shape: the header row? */
                header[count] = header_row(data + at, f, count);
            records++;
            counts[count]++;
            if (records == EARLY_RECORDS && !regular(counts, records))
                return false; /* fio's lines with commas: no one number of fields */
            for (size_t c = 0; c < count; c++) {
                const char *v = data + at + f[c].off;
                fio_lines[c] += fio_value(v, f[c].len, f[c].quoted, tmp);
                bool needs_quotes = memchr(v, delim, f[c].len) || memchr(v, '"', f[c].len) || memchr(v, '\n', f[c].len);
                if (f[c].quoted && needs_quotes)
                    quoted_rows[c]++;
                if (f[c].len > SIDE_FIELD_MAX || memchr(v, '\n', f[c].len))
                    long_rows[c]++;
            }
        }
        at += r + 1;
    }
    size_t k = regular(counts, records);
    if (!k)
        return false;
    size_t col = none;
    for (size_t c = 0; c < k; c++)
        if (fio_lines[c] >= 2 && quoted_rows[c] >= 1 && (col == none || fio_lines[c] > fio_lines[col]))
            col = c;
    if (col == none)
        return false;
    for (size_t c = 0; c < k; c++) /* one column of text: the others are a row's labels */
        if (c != col && (fio_lines[c] || long_rows[c] * 10 > records))
            return false;
    out->delim = delim;
    out->fields = (uint32_t)k;
    out->column = (uint32_t)col;
    out->header = header[k];
    return true;
}

bool fsc_csvlog_in_doc(const char *data, size_t len, fsc_csvlog *out)
{
    /* a quote mark, and a delimiter before or after one on some line: else no field
     * was quoted */
    if (!memchr(data, '"', len < SAMPLE_BYTES ? len : SAMPLE_BYTES))
        return false;
    fsc_buf tmp = {0};
    bool found = false;
    static const char delims[] = {',', ';', '\t'};
    for (size_t i = 0; i < sizeof delims && !found; i++)
        found = try_delim(data, len, delims[i], out, &tmp);
    fsc_buf_free(&tmp);
    return found;
}

int fsc_csvlog_text(const fsc_csvlog *c, const char *s, size_t n, fsc_buf *out)
{
    field f[MAX_FIELDS];
    size_t count, r = split_record(s, n, c->delim, f, &count);
    if (r == SIZE_MAX)
        return 0;
    if (count != c->fields || r != n)
        return -1;
    const field *v = &f[c->column];
    fsc_buf_reset(out);
    if (!v->quoted) {
        fsc_buf_add(out, s + v->off, v->len);
    } else {
        put_unquoted(out, s + v->off, v->len);
    }
    return out->oom ? -1 : 1;
}
