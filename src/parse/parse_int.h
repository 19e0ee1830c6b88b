/* SPDX-License-Identifier: MIT */
/* Private interfaces between the parts of the parse module. */
#ifndef FIOSCOPE_PARSE_INT_H
#define FIOSCOPE_PARSE_INT_H

#include "fioscope/buf.h"
#include "fioscope/model.h"
#include "fioscope/parse.h"
#include "fioscope/words.h"

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

/* One line after normalization: text at store.data + off, len bytes (no newline),
 * orig = its 1-based line number in the original document. */
typedef struct fsc_line {
    size_t off;
    uint32_t len;
    uint32_t orig;
    uint16_t flags; /* FSC_LINE_* : what normalization did to it */
    uint16_t lead;  /* bytes normalization took from its front (a quote mark, a learned
                     * prefix): where the text was wrapped, it was len + lead wide */
    uint32_t tag;   /* the prefix removed from it (FSC_LINE_PREFIX): 1 + its offset in
                     * fsc_text.tags, 0 for none (see fsc_text_tag) */
} fsc_line;

enum {
    FSC_LINE_QUOTED = 1 << 0,   /* mail quote prefix removed */
    FSC_LINE_GUTTER = 1 << 1,   /* code-block line number removed */
    FSC_LINE_ENTITY = 1 << 2,   /* HTML entities or tags decoded */
    FSC_LINE_CR = 1 << 3,       /* \r overwrite resolved / CRLF */
    FSC_LINE_STAMP = 1 << 4,    /* CI timestamp removed */
    FSC_LINE_FENCE = 1 << 5,    /* a Markdown fence line (``` or ~~~) */
    FSC_LINE_SPLIT = 1 << 6,    /* split out of a longer (flattened) line */
    FSC_LINE_GUTTER_ONLY = 1 << 7, /* the line was only a gutter number (now empty) */
    FSC_LINE_CONSUMED = 1 << 8,    /* part of a JSON document or terse record already read */
    FSC_LINE_PREFIX = 1 << 9,      /* a prefix learned for its block removed (prefix.c) */
    FSC_LINE_MARKUP = 1 << 10,     /* inline markup (emphasis, code, tags) removed */
    FSC_LINE_INDENT = 1 << 11,     /* a code block's indentation removed */
    FSC_LINE_TERM = 1 << 12,       /* terminal controls (colour codes...) removed */
    FSC_LINE_JSONLOG = 1 << 13,    /* a line of a JSON string a log kept it in (jsonlog.c) */
    FSC_LINE_STRLIT = 1 << 14,     /* a line of a string literal a program printed (strlit.c)
                                    * or of a CSV file's field (csvlog.c) */
    FSC_LINE_CUT = 1 << 15         /* cut short: its broken last value taken off (cutline.c) */
};

/* normalize.c: the first occurrence of lit in s[0, n), or NULL. memchr finds the
 * candidates (vectorized): much cheaper than a byte loop or memmem over a whole
 * document where lit's first byte is rare. */
const char *fsc_find_lit(const char *s, size_t n, const char *lit);

/* json_in.c: what cJSON allocates for the tree of json[0, len), an upper bound (a
 * node per value, and the text): what the memory budget is charged before a parse. */
size_t fsc_json_tree_bytes(const char *json, size_t len);

/* terminal.c: does the line s[0, n) hold terminal controls (escape sequences,
 * backspaces, bells; with visible, also ESC's visible forms "^[" and U+241B before a
 * sequence and a colour code whose ESC was lost, "[32m": not in a JSON document,
 * where such text is a string's data)? fsc_term_strip writes it without them to out
 * (reset first). */
bool fsc_term_marks(const char *s, size_t n, bool visible);
/* May any line of the document data[0, len) hold one (false: none does)? A few
 * library scans, for a document that holds none. Quoted-printable's "=1B" is asked
 * for by the caller. */
bool fsc_term_in_doc(const char *data, size_t len);
void fsc_term_strip(const char *s, size_t n, bool visible, fsc_buf *out);

/* A JSON latency object's percentile list of zeros only is fio's empty list (a
 * direction without I/O, a 3.x job's unused lists), dropped, unless the object
 * measured something (its max, read before the list in fio's order, above 0): fio
 * 2.x's microsecond clock prints a null engine's sub-microsecond latencies as 0. */
static inline bool fsc_lat_measured(const fsc_lat *lat)
{
    return lat->max.set && lat->max.v > 0;
}

/* jsonlog.c: output kept as JSON strings, an object per line (Docker's json-file
 * log, a shipper's {"message": ...}, an Ansible task's "stdout"). Is s[0, n) such a
 * line, as far as a quick look tells (one object, naming "log", "stdout", "message"
 * or "msg")? fsc_jsonlog_text writes its text to out (reset first): false when it is
 * no such line (or fio's own JSON, or out of memory). */
bool fsc_jsonlog_maybe(const char *s, size_t n);
/* Does the document data[0, len) name one of those members anywhere (false: no line
 * of it is a JSON log's)? */
bool fsc_jsonlog_in_doc(const char *data, size_t len);
bool fsc_jsonlog_text(const char *s, size_t n, fsc_buf *out);
/* A log service's export of fio's lines: JSON values (journalctl -o json or
 * json-pretty, CloudWatch's events, Elasticsearch's hits, Google Cloud Logging's
 * entries, Splunk's results) whose "MESSAGE", "message", "textPayload", "_raw",
 * "log", "msg" or "stdout" strings are the lines. fsc_logexport_doc: may data[0, len)
 * be one (it begins as JSON, names a member, holds a fio mark)? fsc_logexport_text
 * appends the lines to out, in the document's order, when the whole document is
 * JSON (not fio's) and they hold a fio mark; else nothing. */
bool fsc_logexport_doc(const char *data, size_t len);
fsc_status fsc_logexport_text(const char *data, size_t len, fsc_buf *out);
/* A text whose lines come last first (a newest-first export, tac): does the head of
 * data[0, len) read so (reverse.c)? fsc_reverse_lines: its lines in the other order
 * to out (reset first), each ending in a newline. */
bool fsc_text_reversed(const char *data, size_t len);
fsc_status fsc_reverse_lines(const char *data, size_t len, fsc_buf *out);

/* cast.c: an asciinema recording (.cast, v2 and v3): a header line, then events
 * [time, "o", "text"]. Is data[0, len) one, or a piece of one (its first lines
 * events)? fsc_cast_text appends to out what its "o" events printed, in order. */
bool fsc_cast_doc(const char *data, size_t len);
fsc_status fsc_cast_text(const char *data, size_t len, fsc_buf *out);

/* sidebyside.c: two runs side by side (paste's tab between the lines; diff -y's or
 * sdiff's right column after a gutter). The document's layout: */
typedef struct fsc_sbs {
    bool paste;           /* a tab between the two sides */
    size_t gutter, right; /* diff -y: the gutter mark's column, the right text's (tabs
                           * expanded to 8) */
} fsc_sbs;
/* One side of a line: its text. */
typedef struct fsc_sbs_side {
    const char *s;
    size_t n;
} fsc_sbs_side;
/* Is the document data[0, len) such a text, as its first lines tell? Then *out. */
bool fsc_sbs_in_doc(const char *data, size_t len, fsc_sbs *out);
/* The two sides of the line s[0, n) (without its newline): false when it does not
 * split so (a line of prose around the columns). Either side may be empty. */
bool fsc_sbs_split(const fsc_sbs *sb, const char *s, size_t n, fsc_sbs_side *left, fsc_sbs_side *right);

/* pydict.c: fio's JSON as Python prints it once loaded (repr or pprint of the dict:
 * apostrophes, True, False, None). Does the document name fio's keys so at all? The
 * state of a dict over the lines it spans: */
bool fsc_pydict_in_doc(const char *data, size_t len);
typedef struct fsc_pydict {
    size_t depth;     /* brackets open: 0 outside a dict */
    bool open_string; /* the line ended with a string, inside a dict: the next line
                       * may go on with it (join them, with a space between) */
} fsc_pydict;
/* The line s[0, n) written as JSON into out (reset first; tmp is scratch) when a
 * dict opens on it or goes on over it: the text before the dict's '{' and the text
 * after its closing bracket each a line of its own ('\n' between them). False: no
 * part of a dict (out may be changed), or out of memory. */
bool fsc_pydict_line(fsc_pydict *st, const char *s, size_t n, fsc_buf *out, fsc_buf *tmp);
/* Does the line s[0, n) end with a string literal (what open_string says of a line
 * of a dict), as a look at it alone tells? */
bool fsc_pydict_ends_in_string(const char *s, size_t n);

/* csvlog.c: output kept in a column of a CSV file (a log exported from Kibana,
 * Splunk or a spreadsheet), a line a row or a run in one cell. The shape of the
 * file: its delimiter, its number of fields, the column of the text, and whether its
 * first record names the columns. */
typedef struct fsc_csvlog {
    char delim;
    uint32_t fields, column;
    bool header;
} fsc_csvlog;
/* Is the document data[0, len) such a file, as the records at its start tell? Then
 * *out is its shape. */
bool fsc_csvlog_in_doc(const char *data, size_t len, fsc_csvlog *out);
/* The text column of the record s[0, n) (its lines joined by '\n', none at its end)
 * into out (reset first), quote pairs made one: 1; 0 when a quoted field is still
 * open at its end (the record goes on over the next line); -1 when it is no record
 * of the file's shape (or out of memory). */
int fsc_csvlog_text(const fsc_csvlog *c, const char *s, size_t n, fsc_buf *out);

/* strlit.c: output kept as a string literal on one line (Python's b'...\n...' or a
 * dict holding it, Go's %q, logfmt's output="...", a JSON member's string) or as a
 * list of strings, a line each. Does the document data[0, len) hold a newline escape
 * or a list's ', ' at all (false: no line of it is such)? fsc_strlit_text writes the
 * lines such a line gives to out (reset first; each line ends with '\n'; tmp is
 * scratch): false when it is no such line (or out of memory). */
bool fsc_strlit_in_doc(const char *data, size_t len);
bool fsc_strlit_text(const char *s, size_t n, fsc_buf *out, fsc_buf *tmp);
/* Append the text of the string literal between p and e (its quotes left out) to
 * out: the escapes that Python, JSON, Go and C write decoded ("\n", "\t", "\\", "\'",
 * "\xHH" a byte, "\uHHHH" with JSON's surrogate pairs and "\UHHHHHHHH" as UTF-8,
 * octal "\033"), any other kept as it stands. */
void fsc_strlit_decode(const char *p, const char *e, fsc_buf *out);
/* A string a wrap broke over lines (a mail's, a forum's): does the line s[0, n) end
 * inside a string that opens on it (its quote; 0: no)? Does a line after it close
 * that string (q its quote; *escaped: the line before ended in an escape's
 * backslash, and says so of this line after)? */
char fsc_strlit_open_end(const char *s, size_t n);
/* ...the index of that string's quote (n: none). */
size_t fsc_strlit_open_at(const char *s, size_t n);
bool fsc_strlit_closes(const char *s, size_t n, char q, bool *escaped);

/* typography.c: a line that a blog engine or an editor typeset (curly quotes around a
 * JSON document's keys, an en dash for the "--" of a fio command's options, an
 * ellipsis for fio's "...", a registered sign for the (R) of fio 3's job header)
 * written back as fio printed it into out (reset first). False: nothing of that on
 * the line (out untouched), or out of memory. */
bool fsc_typography_undo(const char *s, size_t n, fsc_buf *out);

struct fsc_outline; /* the document's headings, indexed by line (context.c) */

/* What the lengths and ends of a text's lines of values (a '=' in them) tell of
 * cuts (cutline.c): the longest one's length, how many are that long, the first and
 * the last of them (indices), and whether one ends in "…" glued to a value
 * (fsc_cut_marker_len; a pre-scanned text holds none). */
typedef struct fsc_line_stats {
    uint32_t longest, n_longest;
    size_t first_longest, last_longest;
    bool dots;
} fsc_line_stats;

typedef struct fsc_text {
    fsc_buf store;
    fsc_line *lines;
    size_t n_lines, cap_lines;
    struct fsc_outline *outline; /* built by fsc_normalize, freed by fsc_text_free */
    fsc_buf tags; /* removed prefixes, each NUL-terminated (fsc_line.tag) */
    bool plain; /* the pre-scan's: printable ASCII only (no tab, CR or other control) */
    fsc_line_stats stats; /* the pre-scan's, of the lines as it recorded them */
    size_t n_cut;         /* lines cut short (FSC_LINE_CUT: cutline.c) */
    bool open_end;        /* no newline ends the text's last line (a log cut off?) */
    bool open_end_cut;    /* the last cut line is the text's last, cut there (open_end) */
    size_t n_consumed;    /* lines of JSON and terse read (FSC_LINE_CONSUMED) */
} fsc_text;

/* The length of the ellipsis ("..." or, ascii false, "…" only) that ends s[0, n)
 * glued to a value ("avg=4517…": a view cut the line there), else 0. fio's own "..."
 * line has no value before it. */
static inline size_t fsc_cut_marker_len(const char *s, size_t n, bool ascii)
{
    if (n < 4 || (s[n - 1] != (char)0xA6 && !(ascii && s[n - 1] == '.')))
        return 0;
    if (memcmp(s + n - 3, "\xE2\x80\xA6", 3) != 0 && !(ascii && memcmp(s + n - 3, "...", 3) == 0))
        return 0;
    char c = s[n - 4];
    bool value = (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '%' ||
                 c == ')' || c == ']';
    return value ? 3 : 0;
}

/* Is s[0, n) (blanks after it aside) the line `tail` and `head` print above each file
 * they show ("==> fio.log <==")? Its name is s[4, n - 4): normalize.c ends a mail's
 * encoding there, context.c makes it the caption of the file below. */
static inline bool fsc_file_banner(const char *s, size_t n)
{
    while (n && (s[n - 1] == ' ' || s[n - 1] == '\t'))
        n--;
    return n >= 9 && memcmp(s, "==> ", 4) == 0 && memcmp(s + n - 4, " <==", 4) == 0;
}

/* fsc_line_stats_add's rare case, kept out of the pre-scan's loop. */
void fsc_line_stats_longest(fsc_line_stats *st, size_t i, size_t n);

/* Count line i, n bytes long, into st: one compare for most lines. (An ASCII "..."
 * after a value is no cut to cutline.c, in a pre-scanned text or a normalized one
 * alike: the value before it is refused where it is read, and a line no rule reads
 * then is read as cut: normal.c.) */
static inline void fsc_line_stats_add(fsc_line_stats *st, size_t i, size_t n)
{
    if (__builtin_expect(n >= st->longest, 0))
        fsc_line_stats_longest(st, i, n);
}

/* cutline.c: s[0, n) without the value a cut broke at its end (the text from its
 * last blank or comma, and a key or bracket left open before it); n when its last
 * value ended (a ')', ']', '%', a comma) or nothing but that value is there. */
size_t fsc_cut_value_end(const char *s, size_t n);
/* cutline.c: a line of values that a rule read, s[0, n), without the value it stops
 * in when it does not end as fio ends such a line (a '%', ']' or ')', "msec", the key
 * fio prints last, a time stamp): a line cut short inside a text. n when it ends so
 * (or nothing but that value is there). */
size_t fsc_line_stops_short(const char *s, size_t n);
/* cutline.c: is key[0, n) one that fio prints last on a line of values: a latency
 * line's stdev, a bw or iops line's samples or, before 2.x's samples, its stdev, cpu's
 * minf, latency's depth, issued's dropped, drop or, in 2.0, short, a job definition's
 * iodepth, a message's error, a client's flags, idleness' stddev? Not 2.x's header's
 * pid: "pid=4" of "pid=4363" would read as whole (3.x stamps the time after it). The
 * lexers take a line of keys only when it ends in one (fastline.c kv_list). */
bool fsc_fio_last_key(const char *key, size_t n);

/* cutline.c: does fio print key[0, n) with two decimals always ("%5.02f": the avg and
 * stdev of latency, bw and iops lines, in every version)? "stdev=52" at a line's end
 * is then "stdev=524.35" cut short, not a value. */
bool fsc_fio_two_decimals(const char *key, size_t n);

static inline const char *fsc_text_line(const fsc_text *t, size_t i)
{
    return t->store.data + t->lines[i].off;
}

/* The prefix removed from line i ("4k-qd1.log:", "12:10:43 DEBUG| [stdout]"), or
 * NULL; *len its length. */
static inline const char *fsc_text_tag(const fsc_text *t, size_t i, size_t *len)
{
    uint32_t tg = t->lines[i].tag;
    if (!tg || tg > t->tags.len)
        return NULL;
    const char *s = t->tags.data + tg - 1;
    size_t n = 0;
    while (s[n])
        n++;
    *len = n;
    return s;
}

/* Two rules of prefix.c's fio_start (a line that begins as fio's own has nothing
 * before its keyword), shared with the pre-scan so that a document it passes is one
 * prefix.c would not touch. */

/* Can byte d end one of fio's words there ("read: IOPS=", not "read.log:",
 * "readers:" or "write2:", which are names)? */
static inline bool fsc_fio_word_end(char d)
{
    return (unsigned char)((d | 0x20) - 'a') >= 26 && !(d >= '0' && d <= '9') && d != '.' && d != '_' &&
           d != '-' && d != '/' && d != '@';
}

/* The "<host>" of fio's client/server output before a line, with the spaces after
 * it, at s[0, n): its length, 0 when the line has none. Shared by the grammar's lead
 * matching and normal.c's job lines. */
static inline size_t fsc_client_host_len(const char *s, size_t n)
{
    if (!n || s[0] != '<')
        return 0;
    const char *gt = memchr(s, '>', n);
    if (!gt)
        return 0;
    size_t i = (size_t)(gt - s) + 1;
    while (i < n && s[i] == ' ')
        i++;
    return i;
}

/* A rule of normalize.c's quote marks, shared with the pre-scan: a '|' indented by
 * fewer than 4 spaces is a mail's quote mark unless a percentile row's item could
 * follow it at s[i, n) (" 1.00th=[", "99.95th=[", or a row cut short: " 70.00th",
 * " 5.00t"; not a wrapped row's rest " 318], 20.00th=[", nor a wrapped number's
 * ".44", "8"). */
enum { FSC_QUOTE_BAR_MAX_INDENT = 3 };
static inline bool fsc_pctl_item_at(const char *s, size_t n, size_t i)
{
    while (i < n && (s[i] == ' ' || s[i] == '\t'))
        i++;
    size_t d = i;
    while (d < n && ((s[d] >= '0' && s[d] <= '9') || s[d] == '.'))
        d++;
    if (d == i || d == n || !(s[i] >= '0' && s[i] <= '9'))
        return false;
    static const char tail[] = "th=[";
    for (size_t j = 0; j < sizeof tail - 1 && d + j < n; j++)
        if (s[d + j] != tail[j])
            return false;
    return true;
}

/* Does s (a line without its block's indentation) begin as fio's lines at the left
 * margin do: "fio-3.33", "Starting 2 processes", "Run status group 0", "Disk stats
 * (read/write):", "<name>: (g=0): ..." or "<name>: (groupid=0, ..."? normalize.c
 * takes an indented block's indentation off at such a line; the pre-scan sends a
 * document with one indented to normalize.c. */
static inline bool fsc_fio_margin_line(const char *s, size_t n)
{
#define FSC_MARGIN_STARTS(p, m, lit) ((m) >= sizeof(lit) - 1 && !memcmp((p), (lit), sizeof(lit) - 1))
    if (!n || s[0] == ' ')
        return false;
    if ((FSC_MARGIN_STARTS(s, n, "fio-") && n > 4 && s[4] >= '0' && s[4] <= '9') ||
        (FSC_MARGIN_STARTS(s, n, "Starting ") && n > 9 && s[9] >= '0' && s[9] <= '9') ||
        FSC_MARGIN_STARTS(s, n, "Run status group ") || FSC_MARGIN_STARTS(s, n, "Disk stats ("))
        return true;
    const char *sp = memchr(s, ' ', n);
    size_t m = sp ? (size_t)(s + n - sp) : 0;
    return sp && sp > s && sp[-1] == ':' && (FSC_MARGIN_STARTS(sp, m, " (g=") || FSC_MARGIN_STARTS(sp, m, " (groupid="));
#undef FSC_MARGIN_STARTS
}

/* Is the quoted line [p, e) (p at its '"') a JSON member ("key" : ...), not a quoted
 * line of fio's? fio's lines led by a name that may be quoted ("\"a b\": (groupid=0,
 * ...", "\"x\": (g=0): rw=...") go on with ": (", where no JSON value begins. The
 * closing quote is looked for eight bytes a step: this is asked of every member line
 * of a JSON document. */
static inline bool fsc_json_member(const char *p, const char *e)
{
    const char *k = p + 1;
    while (e - k >= 8) {
        uint64_t zero = fsc_zero_bytes(fsc_load_le64(k) ^ FSC_BYTES_OF('"'));
        if (zero) {
            k += __builtin_ctzll(zero) >> 3;
            goto found;
        }
        k += 8;
    }
    while (k < e && *k != '"')
        k++;
    if (k == e)
        return false;
found:
    k++;
    while (k < e && *k == ' ')
        k++;
    return k < e && *k == ':' && (e - k < 3 || memcmp(k + 1, " (", 2) != 0);
}

/* The first unmistakable fio keyword of a line ("read: IOPS=", "clat (usec):",
 * "Run status group 0 (all jobs):", a percentile row, a terse record, JSON's "fio
 * version"): its offset, or -1 (prefix.c). */
long fsc_fio_keyword_at(const char *s, size_t n);

/* The leftmost offset at or after from where another of fio's lines begins inside the
 * line s[0, n), a line break lost before it: a keyword of fsc_fio_keyword_at's with
 * what follows it, whatever byte stands before it ("...2001msecclat (usec): min=",
 * "...util=0.84%  vdb: ios=", "...(all jobs):|"), a name-led disk or job line after a
 * space or a line's last byte, a job line whose name begins with a letter after a
 * value's digits ("depth=1full1: (groupid="; whether that is its name the caller
 * asks), a percentile row, a job's "Description  : ["; never inside parentheses; -1
 * if none (prefix.c). */
long fsc_fio_line_within(const char *s, size_t n, size_t from);

/* A job's description line from s[0, n) on ("Description  : [text]"): the offset
 * after its '[', or 0; *whole: the line ends in its ']' (blanks after it aside), as
 * fio prints it (prefix.c). */
size_t fsc_description_open(const char *s, size_t n, bool *whole);

/* Is s[at] inside parentheses opened before it ("(1MB/s-x: ios=)": a value's bytes,
 * which no other line begins in; the lexers read such a line whole)? */
bool fsc_inside_parens(const char *s, size_t at);

/* False when s[0, n) cannot hold such a keyword (fsc_fio_keyword_at would return
 * -1), true when it may: a look at its colons, '|' and ';' 16 bytes a step (32 with
 * AVX2, where 32 bytes past s[n) may be read). s[0, avail) may be read (avail >= n),
 * so that the last step needs no byte loop. */
bool fsc_fio_keyword_maybe(const char *s, size_t n, size_t avail);
#if defined(__x86_64__) && defined(__GNUC__)
/* fsc_fio_keyword_maybe on a processor with AVX2 (the caller knows), where 32 bytes
 * past s[n) may be read. */
__attribute__((target("avx2"))) bool fsc_fio_keyword_maybe_wide(const char *s, size_t n);
#endif
/* prefix.c: is s[0, n) the start of one of fio's report lines, whole words or cut inside
 * one ("  cpu       ", "     sub", "Disk stats (re"), not a sentence? */
bool fsc_fio_line_head(const char *s, size_t n);

/* The name a removed prefix gives its lines (fsc_line.tag; prefix.c): grep's file
 * ("4k-qd1.log" of "4k-qd1.log:" and of grep -n's "4k-qd1.log:12:"), pdsh's host
 * ("node-1"), docker compose's service ("fio-1" of "fio-1  | "), kubectl's pod
 * ("fio-0" of "[pod/fio-0/fio]"), a loop's parameter ("97"); none for a log's stamp, level or source mark.
 * *name points into t->tags. */
bool fsc_tag_name(const fsc_text *t, uint32_t tag, const char **name, size_t *len);

/* fsc_tag_name when it names where the lines ran: pdsh's and clush's host, docker
 * compose's service, kubectl's pod, grep -H's file (fio's client mode writes "<node-1> "), with a letter in it or an IPv4 address;
 * not a loop's number or "bs=4k". */
bool fsc_tag_host(const fsc_text *t, uint32_t tag, const char **name, size_t *len);

/* Remove the prefixes learned per block (log stamps, comment marks, grep's file
 * names; see prefix.c) from t's lines in place: off/len change, FSC_LINE_PREFIX and
 * the tag are set. *changed tells whether any line was touched. false: no memory. */
bool fsc_prefix_strip(fsc_text *t, bool *changed);

/* Normalize raw bytes into lines (see normalize.c for the steps), and index their
 * headings (fsc_outline_build, nothing carried). */
fsc_status fsc_normalize(const char *data, size_t len, fsc_text *out);
/* fsc_normalize without the outline: the caller builds it (over a carry). */
fsc_status fsc_normalize_lines(const char *data, size_t len, fsc_text *out);

/* Where a mail stands at a point of a document: whether its text is quoted-printable
 * or format=flowed (RFC 3676), and its multipart boundary. A mail's headers set it
 * for the text below them, up to the next mail; a piece of a huge file (an mbox
 * cut into pieces) takes it from the pieces above (fsc_carry). All zero: no mail. */
typedef struct fsc_mail_state {
    bool said; /* a header (or an mbox separator, a part boundary) said whether qp */
    bool qp, latin1, flowed_hdr, flowed, delsp, cte_in_block;
    bool separated; /* (at the end of a text) an mbox separator came: nothing above counts */
    bool cte_seen;  /* a Content-Transfer-Encoding header came (not read as qp for "=3D" alone) */
    bool b64_hdr;   /* the header block being read says base64 */
    bool undecoded; /* ... and names a type that is never text (an image) */
    bool b64;       /* in a base64 body that decodes to text (mime64.c) */
    bool b64_first; /* ... whose first line is still to come */
    bool alternative; /* a multipart/alternative came in this mail */
    bool plain_seen;  /* ... and a text/plain part after it */
    bool html_hdr;    /* the header block being read is a text/html part's after those */
    bool skip;        /* in that part's body: the text/plain part's runs again, not read */
    char outer[128];  /* the boundary of the multipart the one in boundary is in */
    char boundary[128];
} fsc_mail_state;
/* fsc_normalize_lines for a text that begins in the mail state *start (NULL: none,
 * as at a document's start); *mail_end (if not NULL) gets the state at its end, as
 * far as the text itself tells (see fsc_mail_state_follow). */
fsc_status fsc_normalize_lines_from(const char *data, size_t len, const fsc_mail_state *start, fsc_text *out,
                                    fsc_mail_state *mail_end);
/* Would the text data[0, len) normalize otherwise from the state m than from none?
 * (Then it must be normalized again from m; else once from none is the same.) */
bool fsc_mail_state_matters(const fsc_mail_state *m, const char *data, size_t len);
/* The state at the end of a text normalized from none (*end), made what it is after
 * the state above the text: what no header of the text replaced goes on. */
void fsc_mail_state_follow(fsc_mail_state *end, const fsc_mail_state *above);
/* What the text above a piece left to it (fsc_carry_mail) and its setter. */
const fsc_mail_state *fsc_carry_mail(const fsc_carry *c);
void fsc_carry_set_mail(fsc_carry *c, const fsc_mail_state *m);
/* The length of the BBCode or wiki tag at s ("[code]", "[/quote]", "[quote=bob]",
 * "{code:bash}", "{noformat}"; s[0, n)), or 0; fsc_ends_in_markup_tag: does the line
 * s[0, n) end with one (normalize.c takes them off a line; a line that ends so is no
 * line of fio's to the pre-scan)? */
size_t fsc_markup_tag_len(const char *s, size_t n);
bool fsc_ends_in_markup_tag(const char *s, size_t n);
/* mime64.c: base64 bodies of MIME parts, decoded a line at a time (the line's
 * check and its bytes: fioscope/base64.h). fsc_b64_text_start: does a body that
 * begins with the base64 line s[0, n) decode to text (not a compressed file, an
 * image, UTF-16)? fsc_mime_type_undecoded: does the
 * "Content-Type:" line s name a type not decoded (image/, application/pdf, text/html)? */
bool fsc_b64_text_start(const char *s, size_t n);
bool fsc_mime_type_undecoded(const char *s, size_t n);
/* Does the "Content-Type:" line s name type (lower case; its start: "text/" for any
 * text)? */
bool fsc_mime_type_is(const char *s, size_t n, const char *type);
/* A decoded text line: its bytes, the encoded line its first byte came from, flags
 * (FSC_LINE_CR: it ended in CR LF). False stops the decoding (out of memory). */
typedef bool (*fsc_b64_sink)(void *ctx, const char *s, size_t n, uint32_t orig, uint16_t flags);
/* One body's decoding state: the line not yet ended (owned: freed with fsc_buf_free
 * on line). latin1: the part's charset is ISO-8859-1, its bytes above 0x7F written
 * as UTF-8. Zeroed to begin. */
typedef struct fsc_b64_text {
    fsc_buf line;
    uint32_t orig;
    bool open, latin1;
} fsc_b64_text;
/* The base64 line s[0, n) (fsc_b64_line's length; the encoded line orig) decoded:
 * each line it ends to sink. fsc_b64_text_end: the body ended: its last line, if
 * it had no newline. False when out of memory or the sink said so. */
bool fsc_b64_text_line(fsc_b64_text *d, const char *s, size_t n, uint32_t orig, fsc_b64_sink sink, void *ctx);
bool fsc_b64_text_end(fsc_b64_text *d, fsc_b64_sink sink, void *ctx);
/* pages.c: a paginated text's page breaks (form feeds) and the running headers,
 * footers and page numbers around them taken out of t (lines removed from t->lines;
 * the store is left). *changed: any was. False when out of memory. */
bool fsc_pages_strip(fsc_text *t, bool *changed);

void fsc_text_free(fsc_text *t);

/* Index the headings of t once, so that fsc_context_collect costs the same for the
 * last run of a huge log as for the first (fsc_normalize calls it), under what the
 * text above it carries (NULL: nothing; borrowed: it must outlive t's outline).
 * FSC_E_NOMEM. */
fsc_status fsc_outline_build(fsc_text *t, const fsc_carry *carry);
/* An outline without headings of its own, for a text known to hold none (the
 * pre-scan's), under carry as above. */
fsc_status fsc_outline_empty(fsc_text *t, const fsc_carry *carry);
void fsc_outline_free(struct fsc_outline *o); /* NULL is fine */

/* Fill run->context (headings above line index `first`, outermost first, then the
 * command line / job file shown before the run) and run->command. Works without an
 * outline too (then it scans the text itself). */
fsc_status fsc_context_collect(const fsc_text *t, size_t first, fsc_run *run);
/* The same for a run below another that ends above line index floor: the search for
 * its command stops there (a command above the run before is that run's; a run
 * without the lines that end one, "  read: IOPS=..." alone, would else make each
 * search walk the whole text above it: runs x lines). */
fsc_status fsc_context_collect_below(const fsc_text *t, size_t first, size_t floor, fsc_run *run);
/* What t (with its outline) hands on to the text after it: the headings in force at
 * its end and the command a search upward from there finds. NULL: out of memory.
 * The caller owns it (fsc_carry_free). */
fsc_carry *fsc_context_carry(const fsc_text *t);

/* Fill jobs' missing "job options" (rw, bs, ioengine, iodepth, numjobs, ...) from
 * run->command, the fio command line or job file shown before the run. */
void fsc_command_apply_options(fsc_run *run);

/* A JSON document that may begin at a line starting with '{' (json_find.c). */
typedef struct fsc_json_span {
    size_t first, last; /* line indexes of its first and last line */
    size_t off, len;    /* its text in t->store, from the '{' on */
    bool balanced;      /* its brackets close (else it runs to the end of the text) */
    bool fio_keys;      /* a "jobs" or "client_stats" key right inside it */
} fsc_json_span;

/* Does this line begin a JSON document ('{' then a space, a quote or the end)? */
bool fsc_json_line_start(const char *s, size_t n);
/* Every document start of t with its extent, in line order, found in one pass
 * (time linear in the text). *out is the caller's to free. FSC_E_NOMEM. */
fsc_status fsc_json_spans_find(const fsc_text *t, fsc_json_span **out, size_t *n_out);
/* The same spans, found when asked for: the text from a start on is walked only when
 * no earlier walk covered it (zero-initialise; fsc_json_finder_free). */
typedef struct fsc_json_finder {
    fsc_json_span *spans;
    size_t n, cap, next; /* next: lookup cursor (lines are asked for in order) */
    size_t walked;       /* the lines before it have been walked */
    struct fsc_json_open *stack;
    size_t stack_cap;
} fsc_json_finder;
/* The span that begins at line i, or NULL in *out; i must not decrease between
 * calls, and no line at or after i may be FSC_LINE_CONSUMED yet. FSC_E_NOMEM. */
fsc_status fsc_json_span_at(const fsc_text *t, fsc_json_finder *f, size_t i, const fsc_json_span **out);
void fsc_json_finder_free(fsc_json_finder *f);

/* A fio JSON document starting at line first that is cut off or has text left out
 * ("..." lines, a missing tail): its readable parts as valid JSON in out, the last
 * line it took in *last_out, and what was left out or cut in notes as
 * "ORIG_LINE<TAB>sentence" lines. A member whose value is missing or may be cut is
 * dropped; open containers are closed. FSC_E_SYNTAX if it nests too deep. */
fsc_status fsc_json_repair(const fsc_text *t, size_t first, size_t *last_out, fsc_buf *out, fsc_buf *notes);

/* Read one fio JSON document (a balanced {...}); NULL with a reason in err if it is
 * not fio JSON. Jobs of client_stats get their hostname. */
fsc_run *fsc_json_read(const char *json, size_t len, fsc_buf *err);
/* fsc_json_read of a document inside a text whose longest line is `width` bytes (0:
 * unknown, the document's own is taken): a raw line break inside a string after a
 * line narrower than that is a word wrap's, a space (see json_in.c). */
fsc_run *fsc_json_read_in(const char *json, size_t len, size_t width, fsc_buf *err);

/* Shared by json_in.c and the fast reader json_fast.c: */
/* v * mul as exactly as fio's printed digits allow (3.747764 usec → 3747.764 ns); */
double fsc_json_exact_mul(double v, uint64_t mul);
/* a JSON number (its double v; digits[0, n): its text when it is an integer literal,
 * else NULL) times mul: exact (fsc_num.exact) when the integer result is above 2^53; */
fsc_num fsc_json_number(double v, const char *digits, size_t n, uint64_t mul);
/* what the "fio version" says about bw_agg (a mean before 2.1.8) and io_bytes
 * (bytes from 2.21, KiB before); */
void fsc_json_version_rules(const char *version, bool *agg_is_mean, bool *io_in_bytes);
/* the job's list a key names ("iodepth_level", "latency_us", ...), or NULL; */
fsc_kvlist *fsc_json_job_list(fsc_job *job, const char *key, size_t n);
/* json+ 2.2.12 .. 2.19: the latency of the bucket with raw index idx (FIO_IO_U_PLAT_BITS
 * bits, FIO_IO_U_PLAT_VAL val); */
double fsc_json_plat_index_value(unsigned idx, unsigned bits, unsigned val);
/* fio's version "fio-2.1.7", "2.0.5", "fio-3.41-49-gde3d" as major, minor, patch (each
 * at most 1000; missing ones 0): how many parts it has, a part after a '.' counted even
 * when empty ("3." has 2); 0: no version (NULL, no digit first). */
size_t fsc_fio_version_parts(const char *s, unsigned v[3]);
/* What a run read from fio's JSON is told once its jobs are read: fio's empty entry
 * of group_reporting (no name, group 4294967295) is left out with a warning, an old
 * fio's lat_percentiles list moves from clat_ns to lat_ns (with a warning), and
 * (client/server) the run's host is the one every job names (false: no memory). */
bool fsc_json_run_finish(fsc_run *run);

/* The fast reader for well-formed fio JSON (json_fast.c): the same run as
 * fsc_json_read, without building a tree. *handled false: the document is not one it
 * reads (invalid JSON, escapes, deep nesting, old json+ bins...): ask fsc_json_read.
 * *used: the bytes of the root object (from json to its closing brace). */
fsc_run *fsc_json_read_fast(const char *json, size_t len, size_t *used, bool *handled);
/* Is b the same fio invocation as a, printed in another format (--output-format=
 * normal,json,terse)? Both from one document, next to each other (or one inside the
 * other's lines), same fio version and jobs, and every number both show equal within
 * the printed precision (runtime and I/O counts exactly). */
bool fsc_runs_same_invocation(const fsc_run *a, const fsc_run *b);
/* Merge two printouts of one invocation (a printed first) into the one with the most
 * precise numbers, which the other fills in; the other is freed. Returns the kept
 * run (its source.formats lists every format), NULL on allocation failure (both
 * freed). */
fsc_run *fsc_runs_merge(fsc_run *a, fsc_run *b, fsc_label_from label_from);

/* ---- fio's steady-state results (steady.c) ---- */

/* The "steadystate" object of a fio JSON job into ss. False when out of memory. */
struct cJSON;
bool fsc_steady_read_json(fsc_steady *ss, const struct cJSON *obj);

/* The captures of the normal text's "steadystate  : attained=..., bw=..., iops=...,
 * iops mean dev=0.782%" line. */
typedef struct fsc_steady_text {
    bool attained, on_iops, on_lat, slope, pct;
    const char *bw, *iops, *criterion;
    size_t bw_len, iops_len, criterion_len;
    const char *lat, *lat_unit; /* fio 3.42+ "lat=123usec": "123" and "usec", or NULL */
    size_t lat_len, lat_unit_len;
} fsc_steady_text;
/* Fill ss from the text line (units as the run prints them). FSC_E_SYNTAX when the
 * numbers do not parse, FSC_E_NOMEM. */
#include "fioscope/units.h"
fsc_status fsc_steady_read_text(fsc_steady *ss, const fsc_steady_text *t, fsc_unit_rules units);

/* Is this line a terse record? Returns the terse version (2..5) or 0. */
int fsc_terse_detect(const char *s, size_t n);
/* Does s begin as a terse record of version 3 to 5 of fio 2.0.8 or later (or of
 * fioscope's engine) does ("3;fio-3.33;"), whole or not? */
bool fsc_terse_head(const char *s, size_t n);
/* Append the job (and disk_util) of one terse record to run. Problems become run
 * warnings at line `lineno`. */
fsc_status fsc_terse_read(fsc_run *run, const char *s, size_t n, uint32_t lineno);
/* fsc_terse_read of a line whose fsc_terse_detect() is `version` (not detected again). */
fsc_status fsc_terse_read_detected(fsc_run *run, const char *s, size_t n, uint32_t lineno, int version);
/* The references the two above must equal on every input (the scalar field count and
 * split, the layout tree walked spec by spec, the general decimal reader): used
 * without the fast path (FIOSCOPE_NO_FASTPATH) and by fuzz_terse to compare. */
int fsc_terse_detect_ref(const char *s, size_t n);
fsc_status fsc_terse_read_ref(fsc_run *run, const char *s, size_t n, uint32_t lineno);

/* ---- normal text (grammar-driven) ---- */

typedef struct fsc_grammar_set fsc_grammar_set;

/* cutline.c: lines cut short (a pager's chopped lines, a view's "avg=4517…") lose the
 * value the cut broke: their len shrinks and FSC_LINE_CUT is set. Lines that are part
 * of a JSON document or terse record (FSC_LINE_CONSUMED) are left; g tells lines of
 * their own from the rest of a wrapped one. stats: t->stats holds for its lines as
 * they are (the pre-scan's, no line consumed), else they are counted here. */
void fsc_text_cut_lines(fsc_text *t, const fsc_grammar_set *g, bool stats);

/* Load the built-in grammars (or *.json from FIOSCOPE_GRAMMAR_DIR); NULL + err. Every
 * grammar's samples are checked at load. */
fsc_grammar_set *fsc_grammars_load(fsc_buf *err);
void fsc_grammars_free(fsc_grammar_set *g);

/* Line classes used by the segmenter. */
typedef enum fsc_lineclass {
    FSC_LC_OTHER,   /* prose, unknown */
    FSC_LC_ANCHOR,  /* starts or belongs to a run for sure (job header, banner, ...) */
    FSC_LC_BODY,    /* a result line (read:, clat, cpu, ...) */
    FSC_LC_NOISE    /* known but meaningless (Jobs: progress, Starting N processes) */
} fsc_lineclass;

/* Parse normal-text lines [first, last] of t into zero or more runs, each passed to
 * emit(). Runs have jobs/groups/disks/warnings/source line numbers and
 * fio_version filled; the caller fills id, path, context and label. What is found
 * but is no run (an interrupted attempt, a lone preamble, Disk stats of a run cut
 * off above) becomes a warning of the next run, or of the one before it at the end;
 * with no run at all it is appended to *notes (if not NULL), one sentence a line. */
typedef bool (*fsc_emit_fn)(void *ctx, fsc_run *run, size_t first_idx, size_t last_idx);
fsc_status fsc_normal_parse(const fsc_grammar_set *g, const fsc_text *t, size_t first, size_t last,
                            fsc_emit_fn emit, void *ctx, fsc_buf *notes);
/* The same with the fast path of fastline.c (fp NULL: the grammar alone); more: the
 * text goes on after t (a piece of a file, fsc_doc.more), so a run still open at its
 * end is closed as before another run. */
typedef struct fsc_fastpath fsc_fastpath;
fsc_status fsc_normal_parse_fast(const fsc_grammar_set *g, const fsc_fastpath *fp, const fsc_text *t,
                                 size_t first, size_t last, bool more, fsc_emit_fn emit, void *ctx,
                                 fsc_buf *notes);

#endif
