/* SPDX-License-Identifier: MIT */
/*
 * Huge texts, read and parsed in pieces: where a piece may end (between two runs,
 * never inside a JSON document), the reading of a file or stream piece by piece, the
 * pieces a file's workers read themselves, and plain fio text read whole and cut
 * between its runs.
 */
#define _GNU_SOURCE
#include "input_int.h"

#include "fioscope/hugemem.h"
#include "fioscope/parse.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif
#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#endif

enum { RUN_PREFIX_MAX = 64 }; /* a longer text before a job's name is prose */

/* Does a run start with the line at s: a job definition ("name: (g=0): rw=...")?
 * *pre: the bytes before the name, a prefix every line of the text has ("# ", "| ",
 * "node1: ", a code block's indentation) that normalizing takes off; 0 for fio's own
 * text. */
static bool starts_run(const char *s, size_t n, size_t *pre)
{
    const char *nl = memchr(s, '\n', n);
    size_t len = nl ? (size_t)(nl - s) : n;
    const char *g = memmem(s, len, ": (g=", 5);
    if (!g || g == s)
        return false;
    const char *name = g;
    while (name > s && name[-1] != ' ' && name[-1] != '\t')
        name--;
    *pre = (size_t)(name - s);
    return name < g && *pre <= RUN_PREFIX_MAX;
}

/* The line s[0, n) after the prefix p[0, pre) of the line below it: s itself when pre
 * is 0, else when s begins with the same bytes, digits for digits (nl's or cat -n's
 * line numbers; a blank line's prefix may have lost its trailing spaces: "#" above
 * "# nj: (g=0)"). *rest: what follows; false when s has another prefix. */
static bool same_prefix(const char *s, size_t n, const char *p, size_t pre, size_t *rest)
{
    size_t k = 0;
    while (k < pre && k < n && (s[k] == p[k] || ((unsigned)(s[k] - '0') < 10 && (unsigned)(p[k] - '0') < 10)))
        k++;
    for (size_t i = k; i < pre; i++)
        if (k < n || p[i] != ' ')
            return false;
    *rest = k;
    return true;
}

/* The quote marks of a mail's reply that begin the line s[0, n) (">", "> ", ">> ",
 * "> > "; each '>' with one space after it at most, so that an indented line stays
 * indented): the bytes they take. */
static size_t quote_marks(const char *s, size_t n)
{
    size_t q = 0;
    for (unsigned k = 0; q < n && s[q] == '>' && k < 16; k++)
        q += 1 + (q + 1 < n && s[q + 1] == ' ');
    return q;
}

/* The length of the line that begins at s (end: the end of the text). */
static size_t line_len_at(const char *s, const char *end)
{
    const char *nl = memchr(s, '\n', (size_t)(end - s));
    return (size_t)((nl ? nl : end) - s);
}

/* Does the line s[0, n) end fio's report (fsc_report_end_line: a disk line, a group's
 * summary) with nothing of the next run on it? A report written without its final
 * newline glues the next one's first job definition to its last value
 * ("util=49.21%seqread: (g=0): rw=read, ..."): the parser splits the line there, so
 * that run begins on it, and a cut under it would part the run from that job
 * definition (its job options lost, a note "fio's preamble without results" for the
 * run above). */
static bool report_end_alone(const char *s, size_t n)
{
    return fsc_report_end_line(s, n) && !memmem(s, n, ": (g=", 5);
}

/* Does a host's run begin at s[0, n) (its job definition after pre bytes, all of them
 * its name: "beta: rr: (g=0)") right under the end of another host's report at
 * p[0, pn) ("alpha:   vda: ios=...")? Hosts' names differ in more than digits (pdsh
 * over alpha and beta, GNU parallel --tag's "gpu-a<TAB>"), so same_prefix says no;
 * whether every host is between runs there is fsc_hosts_cut_ok's to say. */
static bool host_turn(const char *p, size_t pn, const char *s, size_t n, size_t pre)
{
    size_t r = 0, pr = 0;
    if (!pre || !fsc_line_host(s, line_len_at(s, s + n), &r) || r > pre || !fsc_line_host(p, pn, &pr))
        return false;
    while (r < pre && (s[r] == ' ' || s[r] == '\t')) /* "node-1:  rr: (g=0)" */
        r++;
    return r == pre && report_end_alone(p + pr, pn - pr);
}

/* What normalizing takes off the front of the line s[0, n) before the line is read:
 * a JSON log line's head or the text before a string literal's output, a CI log's
 * colour codes and timestamp, then a mail's quote marks. A run boundary is found after it,
 * so that a CI log with a timestamp on every line (GitHub Actions' raw logs) is cut
 * between its runs, not in loose pieces of 16 MiB (a 30 MB one peaked at 81 MB). */
static size_t line_lead(const char *s, size_t n)
{
    /* as normalizing sees them: a JSON log line's head (its text is the "log" or
     * "message" string), colour codes around a CI timestamp, the stamp */
    size_t len = line_len_at(s, s + n); /* the line alone */
    size_t t = n && s[0] == '{' ? fsc_jsonlog_lead(s, len) : 0;
    if (!t)
        t = fsc_strlit_lead(s, len);
    t += fsc_term_lead(s + t, n - t);
    t += fsc_stamp_len(s + t, n - t);
    t += fsc_term_lead(s + t, n - t);
    return t + quote_marks(s + t, n - t);
}

static bool blank_line(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (s[i] != ' ' && s[i] != '\t' && s[i] != '\r')
            return false;
    return true;
}

/* A terse record ("3;fio-3.33;..." or v2 "2;name;..."): a digit, ';', and at least
 * the fields the parser asks for (FSC_TERSE_MIN_FIELDS). */
static bool terse_record(const char *s, size_t n)
{
    if (n < 2 || s[0] < '2' || s[0] > '5' || s[1] != ';')
        return false;
    size_t semis = 0;
    for (const char *p = s; (p = memchr(p, ';', n - (size_t)(p - s))) != NULL && semis < FSC_TERSE_MIN_FIELDS - 1;
         p++)
        semis++;
    return semis >= FSC_TERSE_MIN_FIELDS - 1;
}

/* memrchr(buf, '\n', len), asked of the last 4 KiB first and of twice as much each
 * time after: the cutters below walk back over pieces of many MB a line at a time, and
 * a sanitizer checks all of the range it is given before each call (under ASan the
 * walk over 57 MB of short lines took minutes). */
static const char *last_nl(const char *buf, size_t len)
{
    size_t w = 4096;
    while (w < len) {
        const char *p = memrchr(buf + len - w, '\n', w);
        if (p)
            return p;
        len -= w; /* none in the last w bytes: look before them */
        w *= 2;
    }
    return memrchr(buf, '\n', len);
}

/* Does a block of terse records start at line (of n bytes, after the blank line
 * prev), where the line before that blank line ends another block (a record or a v2
 * description ";...")? The parser reads each block of records as one run, and no
 * heading stands between the two: a piece may end there. */
static bool terse_next(const char *buf, const char *prev, const char *line, size_t n)
{
    const char *nl = memchr(line, '\n', n);
    if (!terse_record(line, nl ? (size_t)(nl - line) : n) || prev == buf)
        return false;
    const char *pp = last_nl(buf, (size_t)(prev - 1 - buf));
    const char *pp_start = pp ? pp + 1 : buf;
    size_t pp_n = (size_t)(prev - 1 - pp_start);
    return pp_n && (pp_start[0] == ';' || terse_record(pp_start, pp_n));
}

/* The JSON documents of a buffer, so that a piece never ends inside one (the
 * parser would find no run in either half). A line whose first '{' ends it or is
 * followed by a '"' may begin one, whatever comes before that brace: the parser
 * finds documents after normalizing, when mail quotes ("> {"), log prefixes and
 * markup are gone, and the raw bytes must not be cut inside those either. A document
 * ends where its braces balance, strings ending at their line's end (the parser's
 * rule, fsc_json_balanced). Taking more lines as starts than the parser does only
 * keeps more text together. */
typedef struct json_docs {
    size_t *start, *end; /* [start, end) of each; end = SIZE_MAX: still open at n */
    size_t n, cap;
    bool oom;
} json_docs;

/* The offset of the '{' that may begin a JSON document on line s[0, n), or n. */
static size_t json_opener(const char *s, size_t n)
{
    const char *b = memchr(s, '{', n);
    if (!b)
        return n;
    size_t k = (size_t)(b - s) + 1;
    while (k < n && (s[k] == ' ' || s[k] == '\t' || s[k] == '\r'))
        k++;
    return k == n || s[k] == '"' ? (size_t)(b - s) : n;
}

/* One byte (at offset j) of fsc_json_balanced's walk; only " \\ \n { } [ ] change
 * anything. *esc_at is the offset an escape makes skip. True when the braces
 * balance there. */
static inline bool json_special(char c, size_t j, size_t *depth, bool *in_str, size_t *esc_at)
{
    if (*in_str) {
        if (c == '\n')
            *in_str = false; /* a string ends at its line's end, escaped or not */
        else if (j == *esc_at)
            ; /* the escaped byte */
        else if (c == '\\')
            *esc_at = j + 1;
        else if (c == '"')
            *in_str = false;
        return false;
    }
    if (c == '"')
        *in_str = true;
    else if (c == '{' || c == '[')
        ++*depth;
    else if (c == '}' || c == ']')
        return --*depth == 0;
    return false;
}

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
/* A 32-bit mask with bit i set where an odd number of bits of m are at or below i:
 * with m the quotes, the bytes inside strings (their opening quote included). */
static inline uint32_t prefix_xor32(uint32_t m)
{
    m ^= m << 1;
    m ^= m << 2;
    m ^= m << 4;
    m ^= m << 8;
    m ^= m << 16;
    return m;
}

/* The blocks of 32 bytes fsc_json_balanced_fast can take whole, where the CPU has
 * AVX2: no backslash, no line end inside a string, and fewer closing brackets
 * outside strings than the depth, which then cannot reach 0 in the block. The
 * strings are found by the parity of the quotes before each byte, the brackets
 * outside them counted. Returns where that stops (a block to take byte by byte, or
 * the last 31 bytes at most); *depth and *in_str are the state there. */
__attribute__((target("avx2,popcnt"))) static size_t json_blocks_avx2(const char *s, size_t n, size_t i,
                                                                         size_t *depth, bool *in_str)
{
    const __m256i q = _mm256_set1_epi8('"'), bs = _mm256_set1_epi8('\\'), nl = _mm256_set1_epi8('\n'),
                  ob = _mm256_set1_epi8('{'), cb = _mm256_set1_epi8('}'), os = _mm256_set1_epi8('['),
                  cs = _mm256_set1_epi8(']');
    for (; n - i >= 32; i += 32) {
        __m256i v = _mm256_loadu_si256((const __m256i *)(const void *)(s + i));
        if (_mm256_movemask_epi8(_mm256_cmpeq_epi8(v, bs)))
            break;
        uint32_t qm = (uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(v, q));
        uint32_t str = prefix_xor32(qm) ^ (*in_str ? 0xFFFFFFFFu : 0);
        if ((uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(v, nl)) & str)
            break;
        uint32_t om = (uint32_t)_mm256_movemask_epi8(_mm256_or_si256(_mm256_cmpeq_epi8(v, ob), _mm256_cmpeq_epi8(v, os))) & ~str;
        uint32_t cm = (uint32_t)_mm256_movemask_epi8(_mm256_or_si256(_mm256_cmpeq_epi8(v, cb), _mm256_cmpeq_epi8(v, cs))) & ~str;
        size_t closes = (size_t)__builtin_popcount(cm);
        if (*depth <= closes || *depth > SIZE_MAX / 2) /* may balance here (or wrapped) */
            break;
        *depth = *depth + (size_t)__builtin_popcount(om) - closes;
        *in_str ^= __builtin_popcount(qm) & 1;
    }
    return i;
}
#endif

/* fsc_json_balanced (the same result for every input, see test_input.c), 16 bytes a
 * step: only the bytes that can change its state are looked at; with AVX2, 32 bytes
 * at once (json_blocks_avx2) where none of them can. The reading thread runs it over
 * all the JSON it cuts in pieces: one byte at a time, that took 13% of all the CPU of
 * `parse --jsonl` of 100 MB of JSON at -j 1; 16 bytes a step, 7%. */
size_t fsc_json_balanced_fast(const char *s, size_t n)
{
#ifdef __SSE2__
    size_t depth = 0, esc_at = SIZE_MAX, i = 0;
    bool in_str = false;
#if defined(__x86_64__) && defined(__GNUC__)
    bool avx2 = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("popcnt");
#endif
    const __m128i q = _mm_set1_epi8('"'), bs = _mm_set1_epi8('\\'), nl = _mm_set1_epi8('\n'),
                  ob = _mm_set1_epi8('{'), cb = _mm_set1_epi8('}'), os = _mm_set1_epi8('['),
                  cs = _mm_set1_epi8(']');
    for (; n - i >= 16; i += 16) {
#if defined(__x86_64__) && defined(__GNUC__)
        /* whole blocks while nothing in them can matter; an escape pending at i
         * (a backslash ended the step before) is taken byte by byte */
        if (avx2 && esc_at != i) {
            i = json_blocks_avx2(s, n, i, &depth, &in_str);
            if (n - i < 16)
                break;
        }
#endif
        __m128i v = _mm_loadu_si128((const __m128i *)(s + i));
        __m128i m = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, q), _mm_cmpeq_epi8(v, bs)),
                                 _mm_or_si128(_mm_cmpeq_epi8(v, nl), _mm_cmpeq_epi8(v, ob)));
        m = _mm_or_si128(m, _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, cb), _mm_cmpeq_epi8(v, os)),
                                         _mm_cmpeq_epi8(v, cs)));
        for (unsigned bits = (unsigned)_mm_movemask_epi8(m); bits; bits &= bits - 1) {
            size_t j = i + (size_t)__builtin_ctz(bits);
            if (json_special(s[j], j, &depth, &in_str, &esc_at))
                return j + 1;
        }
    }
    for (; i < n; i++) /* the other bytes change nothing here either */
        if (json_special(s[i], i, &depth, &in_str, &esc_at))
            return i + 1;
    return 0;
#else
    return fsc_json_balanced(s, n);
#endif
}

static bool ascii_letter(char c)
{
    return (unsigned char)((c | 0x20) - 'a') < 26;
}

/* Does the line s[0, n) (at its first byte that is not a space) begin with a word
 * that a JSON document may hold as a line of its own: true, false, null? */
static bool json_literal_line(const char *s, size_t n)
{
    static const char *const words[] = {"true", "false", "null"};
    for (size_t k = 0; k < FSC_ARRAY_SIZE(words); k++) {
        size_t w = strlen(words[k]);
        if (n >= w && !memcmp(s, words[k], w) && (n == w || !ascii_letter(s[w])))
            return true;
    }
    return false;
}

/* Where the parser stops reading a JSON document that is left open (its braces do
 * not balance before n): the start of the first line after from (the line after its
 * opening line) that no JSON document holds and that normalizing cannot make one of,
 * or SIZE_MAX. fsc_json_repair stops at the first line that is not JSON-like (its
 * json_ish; blank lines are passed over), and a document that balances further on
 * but holds such a line is no JSON the parser reads whole: it repairs it too, so
 * nothing after that line is the document's. Such a line begins with a letter,
 * after spaces or tabs; not: true, false, null (JSON values); "Jobs:" or a CR in it
 * (fio's progress, which normalizing drops, leaving what follows it); after a line
 * that ends in a space or a '=' (a flowed mail or quoted-printable soft break joins
 * it to that line). Anything else may be JSON after normalizing (a quote prefix,
 * markup, a stamp, a byte order mark, a non-breaking space): the document goes on. */
static size_t open_doc_end(const char *buf, size_t from, size_t n)
{
    bool joins = false;
    for (size_t i = from; i < n;) {
        const char *nl = memchr(buf + i, '\n', n - i);
        size_t e = nl ? (size_t)(nl - buf) : n, k = i;
        while (k < e && (buf[k] == ' ' || buf[k] == '\t'))
            k++;
        if (k < e && ascii_letter(buf[k]) && !joins && !json_literal_line(buf + k, e - k) &&
            !(e - k >= 5 && !memcmp(buf + k, "Jobs:", 5)) && !memchr(buf + i, '\r', e - i))
            return i;
        joins = e > i && (buf[e - 1] == ' ' || buf[e - 1] == '=');
        i = e + 1;
    }
    return SIZE_MAX;
}

static void find_json_docs(const char *buf, size_t n, json_docs *d)
{
    d->n = 0;
    if (!memchr(buf, '{', n))
        return; /* fio's text has no braces: nothing to look at */
    size_t i = 0;
    /* once a document was left open, each one after it is walked only up to where
     * the parser stops reading it (open_doc_end), not to the end each time: a text
     * of many "{" lines that never close stays linear. That line is the answer for
     * every start up to it (starts come in order), so it is looked for once: after a
     * cut-off document and a text line, 30 MB of JSON Lines walked to the end of the
     * piece from each line (40 s). */
    bool open_seen = false;
    size_t stop_line = 0; /* open_doc_end's answer for the starts up to it (SIZE_MAX: all) */
    while (i < n) {
        const char *nl = memchr(buf + i, '\n', n - i);
        size_t line_end = nl ? (size_t)(nl - buf) : n;
        size_t k = i + json_opener(buf + i, line_end - i), start = i;
        if (k == line_end) {
            i = line_end + 1;
            continue;
        }
        if (open_seen && nl && line_end + 1 > stop_line)
            stop_line = open_doc_end(buf, line_end + 1, n);
        size_t stop = open_seen && nl ? stop_line : SIZE_MAX;
        size_t len = fsc_json_balanced_fast(buf + k, (stop < n ? stop : n) - k);
        bool closed = len > 0;
        if (!closed && !open_seen && nl) { /* left open: where the parser stops */
            open_seen = true;
            stop = stop_line = open_doc_end(buf, line_end + 1, n);
        }
        k += len;
        if (d->n == d->cap) {
            size_t cap = d->cap ? 2 * d->cap : 16;
            size_t *ns = realloc(d->start, cap * sizeof *ns), *ne = ns ? realloc(d->end, cap * sizeof *ne) : NULL;
            if (ns)
                d->start = ns;
            if (!ns || !ne) {
                d->oom = true;
                return;
            }
            d->end = ne;
            d->cap = cap;
        }
        d->start[d->n] = start;
        d->end[d->n++] = closed ? k : stop;
        if (!closed && stop == SIZE_MAX)
            return;
        if (!closed) { /* its stopping line may begin the next */
            i = stop;
            continue;
        }
        nl = memchr(buf + k, '\n', n - k); /* the rest of the closing line is text */
        i = nl ? (size_t)(nl - buf) + 1 : n;
    }
}

/* Is a cut at offset `at` (a line start) outside every JSON document (d NULL: none
 * known)? */
static bool outside_json(const json_docs *d, size_t at)
{
    for (size_t i = 0; d && i < d->n; i++)
        if (at > d->start[i] && at < d->end[i])
            return false;
    return true;
}

/* Does one of the JSON documents d begin on the line at offset `at` of buf[0, n) (a
 * line start) after text of that line, its lead aside ("util=57.76%{": a report
 * written without its final newline, glued to the document after it)? The parser
 * reads that line's text with the run above it (and the document, as read whole, not
 * as one): a cut before the line parts that run. */
static bool glued_doc_at(const char *buf, size_t n, size_t at, const json_docs *d)
{
    bool begins = false;
    for (size_t i = 0; d && i < d->n && !begins; i++)
        begins = d->start[i] == at;
    if (!begins)
        return false;
    const char *s = buf + at;
    size_t len = line_len_at(s, buf + n), q = line_lead(s, len), k = json_opener(s, len);
    return k < len && k > q && !blank_line(s + q, k - q);
}

/* The start of the line before offset `at` (a line start, > 0) in buf. */
static const char *line_before(const char *buf, size_t at)
{
    const char *nl = at > 1 ? last_nl(buf, at - 1) : NULL;
    return nl ? nl + 1 : buf;
}

/* What a line of a text with a lead on every line begins with (line_lead's: a CI
 * stamp, a mail's quote marks; then a host's name, "host-1: "), for line_cut: its
 * blank lines are blank after it. */
static size_t cut_lead(const char *s, size_t n)
{
    size_t q = line_lead(s, n), r = 0;
    if (q < n && fsc_line_host(s + q, n - q, &r))
        q += r;
    return q < n ? q : n;
}

/* cut_lead of s[0, n), taking its host's name only where the line ref[0, ref_n) of
 * the same text begins with the same one (a text with a host on every line): alone,
 * "fio: time_based requires ..." or a job's "1m: you need ..." would be a host. */
static size_t cut_lead_as(const char *ref, size_t ref_n, const char *s, size_t n)
{
    size_t q = line_lead(s, n), rq = line_lead(ref, ref_n), r = 0, rr = 0;
    size_t h = q < n ? fsc_line_host(s + q, n - q, &r) : 0;
    size_t rh = rq < ref_n ? fsc_line_host(ref + rq, ref_n - rq, &rr) : 0;
    if (!h || h != rh || memcmp(s + q, ref + rq, h) != 0)
        return q;
    return q + r < n ? q + r : n;
}

/* The text line above the blank lines that end at offset `at` of buf (a line
 * start): *s and its length *n, after its lead when `led` (the text has a lead on
 * every line, and its blank lines are blank after it: cut_lead). False: only blank
 * lines above. */
static bool text_above_blanks_led(const char *buf, size_t at, bool led, const char **s, size_t *n)
{
    for (size_t end = at; end > 0;) { /* end: the start of the line below */
        const char *line = line_before(buf, end);
        size_t len = end - 1 - (size_t)(line - buf), q = led ? cut_lead(line, len) : 0;
        if (!blank_line(line + q, len - q)) {
            *s = line + q;
            *n = len - q;
            return true;
        }
        end = (size_t)(line - buf);
    }
    return false;
}

static bool text_above_blanks(const char *buf, size_t at, const char **s, size_t *n)
{
    return text_above_blanks_led(buf, at, false, s, n);
}

/* Is s[0, n) a line of fio's that the parser reads as part of the run above it when
 * one came before (parse/normal.c: a message, a progress line, a clone marker, a
 * layout note, the title of --idle-prof's lines, which fio prints after the disk
 * stats)? A cut above it would hand it to the piece below, with no run open. */
static bool run_reads_on(const char *s, size_t n)
{
    return (n >= 5 && (!memcmp(s, "Jobs:", 5) || !memcmp(s, "fio: ", 5))) ||
           (n >= 13 && !memcmp(s, "CPU idleness:", 13)) ||
           (n >= 3 && !memcmp(s, "...", 3) && blank_line(s + 3, n - 3)) || memmem(s, n, ": Laying out IO file", 20);
}

/* Can line s[0, n) (after a blank line) stand inside fio's report: a job's block,
 * a group's summary, the disk stats, or an indented line of them, or a line the run
 * above reads on (run_reads_on)? */
static bool inside_report(const char *s, size_t n)
{
    static const char *const marks[] = {"(groupid=", "Run status group", "Disk stats", ": (g="};
    if (!n || s[0] == ' ' || s[0] == '\t' || run_reads_on(s, n))
        return true;
    for (size_t k = 0; k < FSC_ARRAY_SIZE(marks); k++)
        if (memmem(s, n, marks[k], strlen(marks[k])))
            return true;
    return false;
}

/* Does a new section of text begin at offset `at` of buf[0, n) (a line start): a
 * line that fio's report does not hold (a heading, a command, prose; no JSON, no
 * terse record) after blank lines that follow fio's disk stats, the end of a
 * report? A CI log's next test begins so. The line before the cut is blank, so every
 * heading candidate keeps its neighbours in its piece, and the command search of
 * the runs below stops at the disk stats: all a run takes from above the cut is in
 * the carry of the piece before (fsc_carry). */
static bool section_next(const char *buf, size_t n, size_t at)
{
    const char *nl = memchr(buf + at, '\n', n - at), *text;
    size_t len = (nl ? (size_t)(nl - buf) : n) - at, text_n;
    const char *s = buf + at;
    /* the line whole (the last of buf may be cut short: "Disk st", "Run status gr") */
    return at > 0 && nl && len && !blank_line(s, len) && !strchr("{}[]\"", s[0]) && !inside_report(s, len) &&
           !terse_record(s, len) && blank_line(line_before(buf, at), (size_t)(buf + at - 1 - line_before(buf, at))) &&
           text_above_blanks(buf, at, &text, &text_n) && memmem(text, text_n, ": ios=", 6);
}

/* Does a printout of a run in another of fio's formats (a JSON document, a terse
 * record) begin so close below offset `at` (a line start) that the text above it may
 * be the same invocation's, merged with it as read whole (parse/merge.c: at most two
 * lines between them)? `tail -n +1 out.txt out.json` puts a blank line and the
 * heading "==> out.json <==" between a report and its JSON: no cut there. */
static bool printout_near(const char *buf, size_t n, size_t at)
{
    enum { MAX_BETWEEN = 2 };
    size_t between = 0, a = at;
    while (a > 0 && between <= MAX_BETWEEN) { /* the blank lines above `at` */
        const char *up = line_before(buf, a);
        if (!blank_line(up, a - 1 - (size_t)(up - buf)))
            break;
        between++;
        a = (size_t)(up - buf);
    }
    for (a = at; a < n && between <= MAX_BETWEEN; between++) {
        const char *nl = memchr(buf + a, '\n', n - a);
        size_t len = (nl ? (size_t)(nl - buf) : n) - a, q = line_lead(buf + a, len);
        if (q < len && (buf[a + q] == '{' || terse_record(buf + a + q, len - q)))
            return true;
        if (!nl)
            break;
        a = (size_t)(nl - buf) + 1;
    }
    return false;
}

/* The line s[0, n) without the terminal controls and CR at its end ("util=52.43%^[[K\r",
 * a script(1) recording's): its length. */
static size_t visible_len(const char *s, size_t n)
{
    for (;;) {
        while (n && (s[n - 1] == '\r' || s[n - 1] == ' '))
            n--;
        /* a CSI sequence ends in a letter: ESC '[' then digits and ';' */
        size_t k = n;
        if (k && ((s[k - 1] >= 'A' && s[k - 1] <= 'Z') || (s[k - 1] >= 'a' && s[k - 1] <= 'z'))) {
            k--;
            while (k && ((s[k - 1] >= '0' && s[k - 1] <= '9') || s[k - 1] == ';' || s[k - 1] == '?'))
                k--;
            if (k >= 2 && s[k - 1] == '[' && s[k - 2] == 0x1b) {
                n = k - 2;
                continue;
            }
        }
        return n;
    }
}

/* Is s[0, n) a whole disk line: ": ios=" in it, its last value a percentage (not the
 * first half of a wrapped one), terminal controls at its end aside? */
static bool whole_disk_line(const char *s, size_t n)
{
    size_t v = visible_len(s, n);
    return v && s[v - 1] == '%' && memmem(s, v, ": ios=", 6);
}

/* Does a section of text begin at offset `at` of buf[0, n) (a line start) right under
 * a disk line, with no blank line between (section_next's)? A CI log's next step
 * ("section_end:...", "##[group]Run fio ...", a shell's prompt) follows the report so;
 * where no blank line and no job definition after one comes for steps, the cut fell
 * on a blank line inside the next run's preamble (its job options, the fio version
 * left in the piece before) or, with a timestamp on every line, anywhere. pq: the
 * length of the disk line's lead (line_lead). The disk line must be whole (its last
 * value a percentage: not the first half of a wrapped one); the line at `at`, text
 * fio's report does not hold (not indented as an md member is, not a client's
 * "<host>" line, not fio's own message, which goes with the run above it, not the
 * rest of a string literal a log cut at its width: "\n'"); the line
 * after it, text too, so that neither is a title or caption to a piece that begins
 * there and not to the whole text, and not one the run above reads on (a fence
 * closed under the report, then "fio: ..."). */
static bool section_under_disks(const char *buf, size_t n, size_t at, const char *prev, size_t prev_n, size_t pq)
{
    if (pq >= prev_n || !whole_disk_line(prev + pq, prev_n - pq))
        return false;
    const char *s = buf + at, *nl = memchr(s, '\n', n - at);
    if (!nl)
        return false;
    /* (after a host's name too: "host-1:   nvme0n1: ios=..." is an md member's line) */
    size_t len = (size_t)(nl - s), q = cut_lead_as(prev, prev_n, s, len);
    const char *t = s + q;
    size_t tn = visible_len(t, len - q);
    if (!tn || blank_line(t, tn) || strchr("{}[]\"<\\'", t[0]) || inside_report(t, tn) || terse_record(t, tn) ||
        (tn >= 4 && !memcmp(t, "fio:", 4)))
        return false;
    const char *s2 = nl + 1, *nl2 = s2 < buf + n ? memchr(s2, '\n', (size_t)(buf + n - s2)) : NULL;
    if (!nl2)
        return false;
    size_t len2 = (size_t)(nl2 - s2), q2 = cut_lead_as(prev, prev_n, s2, len2), v2 = visible_len(s2 + q2, len2 - q2);
    return !blank_line(s2 + q2, v2) && !run_reads_on(s2 + q2, v2);
}

/* Does a run's leftover disk stats begin at offset `at` of buf[0, n) (a line start
 * after a blank line; q: the length of its lead): "Disk stats (read/write):" under
 * blank lines below a whole disk line? The run above is over (the parser begins
 * another at that header, of disk stats whose results are not in the text, and
 * carries its note to the run below it): a cut there leaves the note with the run
 * below, as read whole, not with the last run of the piece before. */
static bool disks_after_disks(const char *buf, size_t n, size_t at, size_t q)
{
    static const char header[] = "Disk stats (";
    const char *text;
    size_t text_n;
    return n - at >= q + sizeof header - 1 && !memcmp(buf + at + q, header, sizeof header - 1) &&
           text_above_blanks(buf, at, &text, &text_n) && whole_disk_line(text, text_n);
}

/* "Run status group 0 (all jobs):" and no summary under it: fio prints none when no
 * I/O completed (jobs that failed alike); with a job definition next, the report's
 * end, never a heading above that run. */
static bool bare_group_header(const char *s, size_t n)
{
    static const char head[] = "Run status group ";
    while (n && (s[n - 1] == ' ' || s[n - 1] == '\r'))
        n--;
    return n > sizeof head && !memcmp(s, head, sizeof head - 1) && s[n - 1] == ':';
}

/* Where to end a piece of buf[0, n): the last line start after offset `after` where
 * a job definition follows the end of fio's report, the next JSON document begins, a
 * blank line parts two blocks of terse records, a section of text follows a report
 * (section_next) or a run's leftover disk stats do (disks_after_disks), or, when loose, a job definition follows any blank line: so that
 * no run is cut in two and what a run takes from above a cut is carried; never
 * inside one of the JSON documents docs (a document on one line, JSON Lines, ends
 * where the next line begins another). 0: none. docs NULL: buf is a window of a
 * text whose documents are not known (read_ranges): a document then begins only
 * after a line that is a lone '}', which no JSON document holds inside (in JSON, a
 * '{' after a '}' needs a comma between), nor can a job definition or a terse record
 * stand on a line of its own inside one. */
static size_t piece_cut(const char *buf, size_t n, size_t after, bool loose, const json_docs *docs)
{
    const char *end = buf + n;
    const char *nl = last_nl(buf, n);
    /* the host checks' lines: about four times the lines looked at (at 25 bytes a line) */
    size_t host_budget = (n - after) / 6 + 4096;
    while (nl && (size_t)(nl - buf) > after) {
        const char *line = nl + 1;
        const char *prev = last_nl(buf, (size_t)(nl - buf));
        const char *prev_start = prev ? prev + 1 : buf;
        size_t prev_n = (size_t)(nl - prev_start);
        size_t at = (size_t)(line - buf);
        /* the cheap tests first: a job definition has no blank before its name, so an
         * indented line (all of a JSON document's but its braces) is none */
        /* (a JSON log's line is a JSON object, but its text is the report's line; the
         * last line of buf may be cut short before its "message": never a JSON start) */
        bool json_next = line < end && prev_n && line[0] == '{' && memchr(line, '\n', (size_t)(end - line)) &&
                         ((prev_start[0] == '}' && (docs || blank_line(prev_start + 1, prev_n - 1))) ||
                          (docs && prev_start[0] == '{' && prev_start[prev_n - 1] == '}')) &&
                         !fsc_jsonlog_lead(line, line_len_at(line, end));
        /* the same boundary inside a mail's quotes, at any depth: a reply that quotes
         * many reports has no other (a 25 MB quoted mail went in a piece of 17 MB, 87 MB
         * charged); a string literal's output ends with its string's last line */
        size_t q = line < end ? line_lead(line, (size_t)(end - line)) : 0, pq = fsc_strlit_tail(prev_start, prev_n);
        if (!pq)
            pq = line_lead(prev_start, prev_n);
        size_t pre = 0, k = 0;
        bool run_next = !json_next && line + q < end && starts_run(line + q, (size_t)(end - line) - q, &pre) &&
                        pq <= prev_n &&
                        ((same_prefix(prev_start + pq, prev_n - pq, line + q, pre, &k) &&
                          (report_end_alone(prev_start + pq + k, prev_n - pq - k) ||
                           bare_group_header(prev_start + pq + k, prev_n - pq - k) ||
                           (loose && blank_line(prev_start + pq + k, prev_n - pq - k)))) ||
                         host_turn(prev_start + pq, prev_n - pq, line + q, (size_t)(end - line) - q, pre));
        bool terse = !json_next && !run_next && line < end && !prev_n &&
                     terse_next(buf, prev_start, line, (size_t)(end - line));
        bool section = !json_next && !run_next && !terse && line < end &&
                       ((blank_line(prev_start, prev_n) &&
                         (section_next(buf, n, at) || disks_after_disks(buf, n, at, q))) ||
                        section_under_disks(buf, n, at, prev_start, prev_n, pq)) &&
                       !printout_near(buf, n, at);
        /* outside_json last: it looks at every document of the span, and a span of
         * fio JSON has dozens (on 10 MB of JSON, first it took 23% of the reading
         * thread's instructions) */
        if ((json_next || run_next || terse || section) && outside_json(docs, at) &&
            fsc_hosts_cut_ok(buf, n, at, &host_budget))
            return at;
        nl = prev;
    }
    return 0;
}

/* The last line start after offset `after` of buf[0, n) where a run's first job
 * definition begins (starts_run after the line's lead, the line above none), or the
 * heading right above it (up to two lines ending in ':', not indented, not fio's
 * report; the run takes them as its context): a run the cutter does not
 * see end (a frame's border, a table row's cells, a forum's markup around each line,
 * a Python list of a log's lines) is not cut in two where a weak cut must fall.
 * 0: none. */
static size_t run_start_cut(const char *buf, size_t n, size_t after, const json_docs *docs)
{
    bool below = false; /* the line below the one looked at begins a run */
    size_t below_at = 0, pre;
    for (const char *nl = last_nl(buf, n); nl && (size_t)(nl - buf) >= after;) {
        const char *start = line_before(buf, (size_t)(nl - buf) + 1);
        size_t len = (size_t)(nl - start), q = line_lead(start, len);
        bool here = q < len && starts_run(start + q, len - q, &pre);
        /* not under a JSON document's line: a document left open (cut off) ends there
         * as this thread sees it, where the worker that reads the piece finds it
         * open to the piece's end and reads on to the next run boundary (fsc_piece_settle) */
        if (below && !here && outside_json(docs, (size_t)(start - buf))) {
            /* a heading right above it ("Results:") goes with it; not any text: a
             * table's header row is the run's above as the text is read whole, and the
             * first half of a line a log cut at its width is the run's own */
            size_t at = below_at, pre2;
            for (int k = 0; k < 2 && at > after + 1; k++) {
                const char *up = line_before(buf, at);
                size_t un = at - 1 - (size_t)(up - buf), uq = line_lead(up, un);
                const char *t = up + uq;
                size_t tn = un - uq;
                while (tn && (t[tn - 1] == ' ' || t[tn - 1] == '\r'))
                    tn--;
                if (!tn || t[tn - 1] != ':' || t[0] == ' ' || t[0] == '\t' || fsc_report_end_line(t, tn) ||
                    bare_group_header(t, tn) || starts_run(t, tn, &pre2) || (size_t)(up - buf) <= after)
                    break;
                at = (size_t)(up - buf);
            }
            if (outside_json(docs, at))
                return at;
        }
        below = here;
        below_at = (size_t)(start - buf);
        nl = start > buf ? start - 1 : NULL;
    }
    return 0;
}

/* Where to end a piece of buf[0, n) when no run boundary came for four steps: the
 * last line start after offset `after` that follows blank lines, best those after
 * fio's disk stats (a report's end, where a CI log's next section begins), then
 * those after a group summary or before a line fio's report does not hold; only when
 * weak, the last before a run's first job definition (run_start_cut), else any other
 * after blank lines, else the last line end (both may fall inside a run: a CSV
 * export's lines, whose runs the cutter does not see, were cut in two at 16 MiB, where
 * the text read whole has none cut; weak waits for 32). A blank line
 * before the cut keeps the lines around every
 * heading candidate in one piece (context.c looks at them for a title or caption)
 * and ends a command's continuation, so that what the runs below take from above
 * the cut is just what the piece before hands on (fsc_carry). Never inside one of
 * the JSON documents docs. 0: none. */
static size_t line_cut(const char *buf, size_t n, size_t after, const json_docs *docs, bool weak)
{
    enum { AFTER_DISKS = 3, AFTER_REPORT = 2, BEFORE_TEXT = 1, BLANK = 0, MAX_LEAD = 96 };
    size_t best[AFTER_DISKS] = {0};
    for (const char *nl = last_nl(buf, n); nl && (size_t)(nl - buf) > after;) {
        size_t at = (size_t)(nl - buf) + 1;
        const char *start = line_before(buf, at), *next_end = memchr(buf + at, '\n', n - at), *text;
        size_t next_n = (next_end ? (size_t)(next_end - buf) : n) - at, text_n;
        /* one line start after each stretch of blank lines (its text above found once);
         * not before the last line of buf when it is cut short ("randread: (grou"
         * looks like no line of fio's report) */
        /* a line blank but for its lead (a stamp, a host's name on every line): the
         * lines around it are looked at after theirs */
        size_t ln = (size_t)(nl - start);
        bool blank = blank_line(start, ln), led = false;
        if (!blank && next_end && ln <= MAX_LEAD) { /* a lead alone is short: asked of few lines */
            size_t sl = cut_lead(start, ln);
            led = blank = sl && blank_line(start + sl, ln - sl);
        }
        size_t nq = led ? cut_lead_as(start, ln, buf + at, next_n) : 0;
        if (next_end && blank && !blank_line(buf + at + nq, next_n - nq)) {
            bool above = text_above_blanks_led(buf, at, led, &text, &text_n);
            bool outside = !inside_report(buf + at + nq, next_n - nq);
            int score = above && memmem(text, text_n, ": ios=", 6) && !run_reads_on(buf + at + nq, next_n - nq)
                            ? AFTER_DISKS
                        : outside && above && fsc_report_end_line(text, text_n) ? AFTER_REPORT
                        : outside                                   ? BEFORE_TEXT
                                                                    : BLANK;
            if ((score == AFTER_DISKS || !best[score]) && outside_json(docs, at) && !printout_near(buf, n, at)) {
                if (score == AFTER_DISKS)
                    return at;
                best[score] = at;
            }
        }
        nl = start > buf ? start - 1 : NULL;
    }
    for (int k = AFTER_REPORT; k >= BEFORE_TEXT; k--)
        if (best[k])
            return best[k];
    if (!weak)
        return 0;
    size_t job = run_start_cut(buf, n, after, docs);
    if (job)
        return job;
    if (best[BLANK])
        return best[BLANK];
    for (const char *nl = last_nl(buf, n); nl; nl = last_nl(buf, (size_t)(nl - buf))) {
        size_t at = (size_t)(nl - buf) + 1;
        if (outside_json(docs, at))
            return at;
    }
    return 0;
}

#if defined(__x86_64__) && defined(__GNUC__)
/* 32 bytes a step, as below (the reading thread's largest own cost on a huge file,
 * 0.27 instructions a byte with 16-byte steps); 31 rounds of 8 steps at most before
 * the byte counters are summed. */
__attribute__((target("avx2"))) static size_t count_lines_avx2(const char *s, size_t n, size_t *done)
{
    const __m256i nl = _mm256_set1_epi8('\n'), zero = _mm256_setzero_si256();
    size_t c = 0, i = 0;
    while (n - i >= 256) {
        size_t rounds = (n - i) / 256 < 31 ? (n - i) / 256 : 31;
        __m256i acc = zero;
        for (size_t k = 0; k < rounds; k++, i += 256) {
            const __m256i *q = (const __m256i *)(s + i);
            __m256i a = _mm256_add_epi8(_mm256_cmpeq_epi8(_mm256_loadu_si256(q), nl),
                                        _mm256_cmpeq_epi8(_mm256_loadu_si256(q + 1), nl));
            __m256i b = _mm256_add_epi8(_mm256_cmpeq_epi8(_mm256_loadu_si256(q + 2), nl),
                                        _mm256_cmpeq_epi8(_mm256_loadu_si256(q + 3), nl));
            __m256i d = _mm256_add_epi8(_mm256_cmpeq_epi8(_mm256_loadu_si256(q + 4), nl),
                                        _mm256_cmpeq_epi8(_mm256_loadu_si256(q + 5), nl));
            __m256i e = _mm256_add_epi8(_mm256_cmpeq_epi8(_mm256_loadu_si256(q + 6), nl),
                                        _mm256_cmpeq_epi8(_mm256_loadu_si256(q + 7), nl));
            acc = _mm256_sub_epi8(acc, _mm256_add_epi8(_mm256_add_epi8(a, b), _mm256_add_epi8(d, e)));
        }
        __m256i sums = _mm256_sad_epu8(acc, zero); /* four 64-bit sums of at most 8 * 248 */
        c += (size_t)_mm256_extract_epi64(sums, 0) + (size_t)_mm256_extract_epi64(sums, 1) +
             (size_t)_mm256_extract_epi64(sums, 2) + (size_t)_mm256_extract_epi64(sums, 3);
    }
    *done = i;
    return c;
}
#endif

size_t fsc_count_lines(const char *s, size_t n)
{
    size_t c = 0, i = 0;
#if defined(__x86_64__) && defined(__GNUC__)
    if (n >= 256 && __builtin_cpu_supports("avx2")) {
        c = count_lines_avx2(s, n, &i);
        s += i;
        n -= i;
        i = 0;
    }
#endif
#ifdef __SSE2__
    /* 16 bytes a step: the compare gives -1 per '\n', subtracted into byte counters
     * that are summed (psadbw) before they can wrap, every 252 steps. GCC -O2 does not
     * vectorise the plain loop below: it took 7 instructions a byte, 3/4 of what the
     * reading thread did on a huge file; this takes about 0.25. */
    const __m128i nl = _mm_set1_epi8('\n'), zero = _mm_setzero_si128();
    while (n - i >= 16) {
        /* 64 bytes a round (4 steps, at most 4 per counter), 63 rounds at most */
        size_t rounds = (n - i) / 64 < 63 ? (n - i) / 64 : 63, steps = rounds ? 0 : (n - i) / 16;
        __m128i acc = zero;
        for (size_t k = 0; k < rounds; k++, i += 64) {
            const __m128i *q = (const __m128i *)(s + i);
            acc = _mm_sub_epi8(acc, _mm_cmpeq_epi8(_mm_loadu_si128(q), nl));
            acc = _mm_sub_epi8(acc, _mm_cmpeq_epi8(_mm_loadu_si128(q + 1), nl));
            acc = _mm_sub_epi8(acc, _mm_cmpeq_epi8(_mm_loadu_si128(q + 2), nl));
            acc = _mm_sub_epi8(acc, _mm_cmpeq_epi8(_mm_loadu_si128(q + 3), nl));
        }
        for (size_t k = 0; k < steps; k++, i += 16) /* the last 16 to 63 bytes */
            acc = _mm_sub_epi8(acc, _mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(s + i)), nl));
        __m128i sums = _mm_sad_epu8(acc, zero); /* two 64-bit sums of at most 8 * 252 */
        c += (size_t)_mm_cvtsi128_si32(sums) + (size_t)_mm_extract_epi16(sums, 4);
    }
#endif
    for (; i < n; i++)
        c += s[i] == '\n';
    return c;
}

/* Where read_pieces reads its text from: a file descriptor (read() to the end), or a
 * function (fsc_text_read: a compressed file's or an archive member's text, read by
 * libarchive, which counts the compressed bytes it reads as read), and the member
 * the text is (NULL: the file itself). */
typedef struct text_reader {
    int fd;
    fsc_text_read fn;
    void *ctx;
    const char *member;
} text_reader;

/* Queue buf[0, len) (ownership passes; NULL: the worker reads it) as the piece at
 * offset off of path. With pf, its worker counts its lines and first_line is not
 * used. carry: its runs may take headings or a command from the pieces before (not
 * in fio's plain output, nor in a fio log): it joins the file's relay. */
static void submit_piece(fsc_walker *w, const char *path, const text_reader *src, char *buf, size_t len,
                         uint32_t first_line, fsc_piece_file *pf, uint64_t off, bool continued, bool more,
                         bool carry)
{
    /* the run ids of this piece continue those of the pieces before: the pipe
     * renumbers them when it delivers the piece, so pieces are parsed side by side;
     * else wait for the pieces before */
    bool parallel = continued && fsc_pipe_renumbers(w->pipe);
    size_t first_run = continued && !parallel ? fsc_pipe_drain(w->pipe) : 0;
    fsc_item *job = fsc_item_new(path, src ? src->member : NULL);
    if (!job) {
        free(buf);
        fsc_walker_submit(w, NULL);
        return;
    }
    if (buf)
        buf[len] = '\0';
    job->data = buf;
    job->len = len;
    job->first_line = first_line;
    if (pf) {
        fsc_piece_file_hold(pf);
        job->pf = pf;
        job->checked = pf->checked;
        job->pf_index = pf->submitted++;
        pf->closed |= !more;
        job->pf_off = off;
    }
    job->first_run = first_run;
    job->continued = continued;
    job->more = more;
    job->renumber = parallel;
    fsc_item_mark_log(job);
    if (carry && !continued) { /* a new file (out of memory: nothing carried, as whole) */
        fsc_relay_release(w->relay);
        w->relay = fsc_relay_new();
    }
    if (carry && w->relay && !job->is_log) {
        job->relay = w->relay;
        job->relay_index = fsc_relay_hold(w->relay);
    }
    if (!more) {
        fsc_relay_release(w->relay);
        w->relay = NULL;
    }
    if (!src || !src->fn) /* else the source counts what it reads */
        w->progress->raw_done += len;
    fsc_walker_submit(w, job);
}

/* A read error (why NULL: from errno) in a file read in pieces: after the first
 * piece, it is the last piece, so that the file's manifest entry says error and counts
 * the runs before. */
static void read_error(fsc_walker *w, const char *path, const char *member, bool continued, const char *why)
{
    char reason[256];
    if (why)
        snprintf(reason, sizeof reason, "%s", why);
    else
        snprintf(reason, sizeof reason, "cannot read: %s", strerror(errno));
    if (!continued) {
        fsc_walker_fixed(w, path, member, FSC_IN_ERROR, "%s", reason);
        return;
    }
    fsc_pipe_drain(w->pipe);
    fsc_item *job = fsc_item_new(path, member);
    if (job) {
        job->continued = true;
        job->fixed = true;
        job->status = FSC_IN_ERROR;
        job->error = fsc_strdup(reason);
    }
    fsc_walker_submit(w, job);
}

/* Give the kernel back the pages of buf[0, off) (text copied into pieces already;
 * *dropped: how far that was done) in steps of 4 MiB, so that a stream's first 64 MiB
 * do not stay resident while their pieces are parsed. The whole pages inside the
 * block only: its allocator header stays, and what is dropped reads as zeros. */
static void drop_read(char *buf, size_t off, size_t *dropped)
{
#ifdef MADV_DONTNEED
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    uintptr_t from = ((uintptr_t)buf + *dropped + page - 1) / page * page;
    uintptr_t to = ((uintptr_t)buf + off) / page * page;
    if (to < from + ((size_t)4 << 20))
        return;
    madvise((void *)from, to - from, MADV_DONTNEED);
    *dropped = (size_t)(to - (uintptr_t)buf);
#else
    (void)buf;
    (void)off;
    (void)dropped;
#endif
}

static ssize_t reader_read(const text_reader *r, char *buf, size_t n, char *why, size_t whylen)
{
    return r->fn ? r->fn(r->ctx, buf, n, why, whylen) : fsc_read_full(r->fd, buf, n, -1);
}

/* A plain text file larger than piece_bytes (its first n bytes in buf; first_only:
 * only its first piece, which starts at offset base of the file, for read_ranges):
 * read and parsed piece by piece, so that memory stays flat. Returns the bytes of the
 * pieces submitted (0 after an error). Pieces end before a job definition that
 * follows the end of a report (see piece_cut); when none comes for
 * two steps (FSC_PIECE_STEP), before a job definition after a blank line; after four,
 * after blank lines (line_cut), else at any line end. The
 * headings and the fio command above a run reach it across the cuts (the file's
 * relay, see submit_piece); the HTML or mail encoding of the whole document does not.
 * A fio log file has no runs to keep whole: its pieces end at any line end. */
static uint64_t read_pieces(fsc_walker *w, const char *path, const text_reader *rd, char *buf, size_t n,
                            uint64_t limit, fsc_piece_file *pf, bool first_only, uint64_t base)
{
    fsc_logname ln;
    bool log = fsc_log_name_parse(rd->member ? rd->member : path, &ln);
    size_t step = w->piece_step, piece = log ? step : w->piece_bytes, want = piece, cap = n;
    /* the text not yet in a piece is buf[off, off + n): a stream comes with 64 MiB
     * read already (read_stream); its pieces are copied out of that buffer one by
     * one (each piece's own size, not halves of what is left: a 200 MB pipe peaked at
     * 285 MB) until less than a piece is left */
    size_t off = 0, dropped = 0;
    uint32_t line = 0;
    bool eof = false, continued = pf && pf->submitted;
    size_t glued_at = 0; /* the glued document this piece reads on to the end of (0: none) */
    uint64_t done = 0; /* bytes of the pieces already submitted */
    while (!w->stop) {
        if (limit && done + n > limit) { /* a stream that does not end */
            char reason[256];
            fsc_stream_limit_reason(reason, sizeof reason, limit);
            read_error(w, path, rd->member, continued, reason);
            free(buf);
            return 0;
        }
        if (!eof && n < want && off) { /* the end of a buffer of many pieces */
            char *nb = malloc(want + 1);
            if (!nb) {
                free(buf);
                fsc_walker_submit(w, NULL);
                return 0;
            }
            memcpy(nb, buf + off, n);
            free(buf);
            buf = nb;
            cap = want;
            off = dropped = 0;
        }
        if (!eof && n < want) {
            char *nb = cap < want ? realloc(buf, want + 1) : buf;
            if (!nb) {
                free(buf);
                fsc_walker_submit(w, NULL);
                return 0;
            }
            buf = nb;
            cap = cap < want ? want : cap;
            char why[256] = "";
            ssize_t r = reader_read(rd, buf + n, want - n, why, sizeof why);
            if (r < 0) {
                read_error(w, path, rd->member, continued, why[0] ? why : NULL);
                free(buf);
                return 0;
            }
            eof = (size_t)r < want - n;
            n += (size_t)r;
        }
        const char *text = buf + off;
        size_t m = n < want ? n : want; /* a piece is cut in text[0, m) */
        bool end = eof && m == n;
        json_docs docs = {0};
        if (!log) /* a fio log file (time series) holds no runs: any line end will do */
            find_json_docs(text, end ? 0 : m, &docs);
        size_t cut = end ? n : log || docs.oom ? 0 : piece_cut(text, m, m / 2, m >= 2 * step, &docs);
        if (!cut && (log || m >= 4 * step) && !docs.oom) { /* no run starts in 4 steps of text */
            /* a cut that may fall inside a run waits for 8 steps (32 MiB): a text up to
             * that size whose runs are not seen is one piece, as it is read whole (at
             * 4.5 times its size in memory: 150 MB, where 16 steps took 300). Not so a
             * text of lines no report has: of a few bytes (the memory of a piece goes
             * with its lines: 32 MiB of "x" lines took 600 MB) or none at all */
            size_t lines_in = log || m >= 8 * step ? 0 : fsc_count_lines(text, m);
            bool weak = log || m >= 8 * step || lines_in > m / 16 || lines_in < m / 4096;
            cut = line_cut(text, m, log ? m : m / 2, &docs, weak);
            if (!cut && weak && outside_json(&docs, m))
                cut = m; /* one endless line: cut it anywhere, as the last resort */
            /* the last line end outside the documents may be the start of one glued to
             * the text above it (that text would go to the piece after, apart from its
             * run): read on until that document ends, as for one that begins its line
             * (which the piece after would read whole). One such document a piece: a
             * text of them only, each running past the end, is not read whole */
            if (cut && !log && (!glued_at || glued_at == cut) && glued_doc_at(text, m, cut, &docs)) {
                glued_at = cut;
                cut = 0;
            }
        }
        free(docs.start);
        free(docs.end);
        /* at the end, cut 0 is the empty last piece of a text that ended right at
         * the previous cut, which closes the file's entry (it used to be looked at
         * for ever: a 12 MiB fio log of whole 4 MiB steps never finished) */
        if (!cut && !end) {
            /* no boundary yet: read on (by doubling, once a JSON document goes on
             * past four steps: it is read whole, in few rounds) */
            want = m >= 4 * step ? 2 * m : m + step;
            continue;
        }
        size_t lines = pf ? 0 : fsc_count_lines(text, cut); /* else the worker counts */
        bool last = end && cut == n;
        if (off || n - cut > cut) { /* more text than the piece: copy the piece out */
            char *one = malloc(cut + 1);
            if (!one) {
                free(buf);
                fsc_walker_submit(w, NULL);
                return 0;
            }
            memcpy(one, text, cut);
            submit_piece(w, path, rd, one, cut, line, pf, base + done, continued, !last, !log);
            off += cut;
            drop_read(buf, off, &dropped);
        } else if (first_only) {
            submit_piece(w, path, rd, buf, cut, line, pf, base + done, continued, !last, !log);
            return cut;
        } else { /* the piece keeps the buffer, what follows it gets a new one */
            size_t rest_cap = n - cut > piece ? n - cut : piece;
            char *rest = malloc(rest_cap + 1);
            if (!rest) {
                free(buf);
                fsc_walker_submit(w, NULL);
                return 0;
            }
            memcpy(rest, buf + cut, n - cut);
            submit_piece(w, path, rd, buf, cut, line, pf, base + done, continued, !last, !log);
            buf = rest;
            cap = rest_cap;
        }
        done += cut;
        if (last || first_only)
            break;
        line += (uint32_t)lines;
        continued = true;
        n -= cut;
        want = piece;
        glued_at = 0;
    }
    free(buf);
    return done;
}

size_t fsc_piece_cut_of(const char *buf, size_t n, bool weak)
{
    json_docs docs = {0};
    find_json_docs(buf, n, &docs);
    size_t cut = docs.oom ? 0 : piece_cut(buf, n, n / 2, false, &docs);
    if (!cut && !docs.oom && weak)
        cut = line_cut(buf, n, n / 2, &docs, true);
    free(docs.start);
    free(docs.end);
    return cut;
}

/* Who numbers the lines of a file's pieces: its workers, when there are any (then
 * this thread need not look at every byte to count them), through the record
 * returned (fd: the file, for pieces the workers read themselves; -1); NULL: this
 * thread. */
static fsc_piece_file *line_counter(fsc_walker *w, int fd)
{
    return fsc_pipe_workers(w->pipe) ? fsc_piece_file_new(fd) : NULL;
}

/* A huge regular text file of `size` bytes, parsed by two workers or more: its pieces
 * are read by the workers (fsc_piece_file). This thread reads only a window of
 * PROBE_BYTES before the end of each piece, where it looks for a run boundary
 * (piece_cut, its JSON documents unknown), and when there is none, in the second half
 * of the piece; read() of the whole text on this thread took a tenth of all the CPU
 * at -j 2, when the workers are short of it. Where the second half holds no boundary
 * either, that piece is read here (read_pieces), with its longer pieces, blank-line
 * and line-end cuts and JSON documents. Text appended to the file after it was opened
 * is not read. */
#define PROBE_BYTES ((size_t)64 << 10)

/* The last run boundary in the last len bytes of the piece of `piece` bytes at off
 * (read into win), as an offset in the piece; 0: none there. */
static uint64_t window_cut(int fd, char *win, uint64_t off, size_t piece, size_t len)
{
    if (fsc_read_full(fd, win, len, (int64_t)(off + piece - len)) != (ssize_t)len)
        return 0;
    const char *nl = memchr(win, '\n', len); /* the first whole line after it */
    size_t first = nl ? (size_t)(nl + 1 - win) : len;
    size_t at = piece_cut(win + first, len - first, 0, false, NULL);
    return at ? piece - len + first + at : 0;
}

static void read_ranges(fsc_walker *w, const char *path, int fd, uint64_t size)
{
    fsc_piece_file *pf = fsc_piece_file_new(fd);
    size_t piece = w->piece_bytes, probe = piece / 4 < PROBE_BYTES ? piece / 4 : PROBE_BYTES;
    char *win = pf ? malloc(piece / 2 + 1) : NULL;
    uint64_t off = 0;
    /* closed: a piece read here met the end of a file that shrank since it was opened */
    while (win && !w->stop && off < size && !pf->closed) {
        uint64_t cut = 0;
        if (size - off <= piece)
            cut = size - off;
        else if (!(cut = window_cut(pf->fd, win, off, piece, probe))) /* a JSON document longer */
            cut = window_cut(pf->fd, win, off, piece, piece / 2);
        if (cut) {
            submit_piece(w, path, NULL, NULL, (size_t)cut, 0, pf, off, off > 0, off + cut < size, true);
            off += cut;
            continue;
        }
        /* no boundary near: this piece is read here, the way of a stream */
        char *buf = NULL;
        if (lseek(fd, (off_t)off, SEEK_SET) != (off_t)off) {
            read_error(w, path, NULL, off > 0, NULL);
            break;
        }
        if (!(buf = malloc(1))) {
            fsc_walker_submit(w, NULL);
            break;
        }
        text_reader rd = {fd, NULL, NULL, NULL};
        uint64_t got = read_pieces(w, path, &rd, buf, 0, 0, pf, true, off);
        if (!got)
            break;
        off += got;
    }
    bool no_window = !win; /* out of memory or descriptors: all of it the old way */
    free(win);
    fsc_piece_file_release(pf);
    if (no_window && !w->stop) {
        char *buf = lseek(fd, 0, SEEK_SET) == 0 ? malloc(1) : NULL;
        if (buf)
            fsc_pieces_read_stream(w, path, fd, buf, 0, 0);
        else
            fsc_walker_submit(w, NULL);
    }
}

/* The span of a file that pieces are cut from: its bytes from offset off on, have of
 * them in buf (cap bytes, reused from piece to piece). failed: a fill fell short,
 * shrank: because the file ended (it was cut short while it was read), else for
 * want of memory. */
typedef struct file_span {
    int fd;
    char *buf;
    size_t have, cap;
    uint64_t off;
    bool failed, shrank;
} file_span;

/* At least m bytes in sp (and room for a NUL after them); false when they cannot be
 * had (sp->failed). */
static bool span_fill(file_span *sp, size_t m)
{
    if (m + 1 > sp->cap) {
        char *nb = realloc(sp->buf, m + 1);
        if (!nb) {
            sp->failed = true;
            return false;
        }
        /* a span that grew past a few MiB (a text with no cut in it), before read()
         * writes it: huge pages, as for a text read whole (walk.c read_rest) */
        fsc_hugemem_advise_block(nb + sp->have, m + 1 - sp->have);
        sp->buf = nb;
        sp->cap = m + 1;
    }
    ssize_t r = sp->have < m ? fsc_read_full(sp->fd, sp->buf + sp->have, m - sp->have, (int64_t)(sp->off + sp->have))
                             : 0;
    if (r > 0)
        sp->have += (size_t)r;
    sp->shrank = sp->have < m;
    sp->failed = sp->shrank;
    return !sp->failed;
}

/* plain_cut's span of a file. */
static const char *file_span_get(void *ctx, size_t m)
{
    file_span *sp = ctx;
    return span_fill(sp, m) ? sp->buf : NULL;
}

/* Where the next piece of plain fio text ends (fsc_pieces_plain): the last run
 * boundary in the second half of ever longer spans from its start, so that a piece is
 * at least half a piece and as long as its runs make it; never inside a JSON
 * document. span(ctx, m) gives the piece's first m bytes (NULL: they cannot be had).
 * 0: no boundary before rest bytes. */
static size_t plain_cut(size_t piece, size_t rest, const char *(*span)(void *ctx, size_t m), void *ctx)
{
    size_t cut = 0;
    for (size_t m = piece; m < rest && !cut; m *= 2) {
        const char *b = span(ctx, m);
        if (!b)
            break;
        json_docs docs = {0};
        find_json_docs(b, m, &docs);
        if (!docs.oom)
            cut = piece_cut(b, m, m / 2, false, &docs);
        free(docs.start);
        free(docs.end);
    }
    return cut;
}

/* plain_cut's span of a text in memory: all of it is there. */
static const char *text_span(void *ctx, size_t m)
{
    (void)m;
    return ctx;
}

static void read_all_pieces(fsc_walker *w, const char *path, const text_reader *rd, char *buf, size_t n,
                            uint64_t limit);

/* The reader of a text that is all in memory already: nothing more. */
static ssize_t no_more(void *ctx, char *buf, size_t n, char *why, size_t whylen)
{
    (void)ctx;
    (void)buf;
    (void)n;
    (void)why;
    (void)whylen;
    return 0;
}

/* A text read whole (buf[0, n), up to piece_min bytes; ownership passes when true is
 * returned): when it is longer than plain_min and fio's own output and nothing else
 * (fsc_text_is_plain_fio: text, JSON or terse), it is parsed in pieces side by side
 * like a huge file, but cut only between two runs (piece_cut, never loose, never at a
 * mere line end), so that its runs are those of the whole text: at the speed of
 * pieces, and without the whole text's lines, runs and results in memory at once
 * (50 MB of fio 3.33 text: 1.02 CPU-s and 192 MB whole; 30 MB of fio JSON: 0.70 CPU-s
 * and 113 MB). fio's text with plain lines of text among it (FSC_TEXT_SIMPLE) goes in
 * pieces as a huge text does, with its headings handed on. Not in a group (logs join
 * the runs of whole documents) and not a fio log. */
bool fsc_pieces_plain(fsc_walker *w, const char *path, char *buf, size_t n)
{
    fsc_logname ln;
    if (n <= w->plain_min || w->cur_group || fsc_log_name_parse(path, &ln))
        return false;
    fsc_text_kind kind = fsc_text_kind_of(buf, n);
    if (kind == FSC_TEXT_SIMPLE) { /* text: no NUL (a byte order mark is the first
                                    * piece's, normalized there) */
        text_reader rd = {-1, no_more, NULL, NULL};
        w->progress->raw_done += n; /* a reader with a function counts its own bytes */
        read_all_pieces(w, path, &rd, buf, n, 0);
        return true;
    }
    if (!fsc_text_kind_plain(kind))
        return false;
    size_t off = 0, dropped = 0;
    uint32_t line = 0;
    fsc_piece_file *pf = line_counter(w, -1);
    if (pf) /* its pieces' lines need not be asked again */
        pf->checked = kind == FSC_TEXT_NORMAL;
    while (off < n && !w->stop) {
        size_t rest = n - off, cut = plain_cut(w->piece_bytes, rest, text_span, buf + off);
        if (!cut)
            cut = rest;
        char *one = malloc(cut + 1);
        if (!one) {
            fsc_walker_submit(w, NULL);
            break;
        }
        memcpy(one, buf + off, cut);
        size_t lines = pf ? 0 : fsc_count_lines(one, cut); /* else the worker counts */
        submit_piece(w, path, NULL, one, cut, line, pf, 0, off > 0, off + cut < n, false);
        line += (uint32_t)lines;
        off += cut;
        drop_read(buf, off, &dropped);
    }
    fsc_piece_file_release(pf);
    free(buf);
    return true;
}

/* What the regular file fd (at most max bytes) is (fsc_plain_check, asked for a
 * simple text too). Read part by part through one buffer of a piece's size, reused:
 * not into a buffer as big as the file, whose fresh pages the kernel must clear (in
 * this VM, more CPU than the parse of the same bytes in pieces). *size: the bytes it
 * has; FSC_TEXT_MIXED as soon as a part says no, at a read error, or when a line is
 * longer than the buffer (none of fio's is). */
static fsc_text_kind plain_file(int fd, size_t part, uint64_t max, uint64_t *size)
{
    char *b = malloc(part);
    fsc_plain_check *c = b ? fsc_plain_check_new(true) : NULL;
    uint64_t at = 0;
    size_t have = 0; /* bytes in b: the unfinished line of the part before, then new ones */
    fsc_text_kind kind = FSC_TEXT_MIXED;
    while (c) {
        size_t want = part - have;
        ssize_t r = fsc_read_full(fd, b + have, want, (int64_t)at);
        if (r < 0)
            break;
        at += (uint64_t)r;
        have += (size_t)r;
        if (at > max) /* grew past the size read whole */
            break;
        if ((size_t)r < want) { /* the end */
            kind = fsc_plain_check_end(c, b, have);
            c = NULL;
            break;
        }
        const char *nl = memrchr(b, '\n', have);
        size_t whole = nl ? (size_t)(nl - b) + 1 : 0;
        if (!whole || !fsc_plain_check_lines(c, b, whole))
            break;
        memmove(b, b + whole, have - whole);
        have -= whole;
    }
    fsc_plain_check_free(c);
    free(b);
    *size = at;
    return kind;
}

bool fsc_pieces_plain_file(fsc_walker *w, const char *path, int fd, uint64_t hint, fsc_text_kind *kind)
{
    fsc_logname ln;
    uint64_t n = 0;
    *kind = FSC_TEXT_MIXED;
    if (hint <= w->plain_min || hint > w->piece_min || w->cur_group || fsc_log_name_parse(path, &ln))
        return false;
    *kind = plain_file(fd, w->piece_bytes, w->piece_min, &n);
    if (!fsc_text_kind_plain(*kind) || n <= w->plain_min)
        return false;
    /* cut as fsc_pieces_plain cuts the text read whole, from spans read from the file:
     * the same bytes before each cut, so the same cuts */
    file_span sp = {fd, NULL, 0, 0, 0, false, false};
    uint32_t line = 0;
    fsc_piece_file *pf = line_counter(w, -1);
    if (pf)
        pf->checked = *kind == FSC_TEXT_NORMAL;
    while (sp.off < n && !w->stop) {
        size_t rest = (size_t)(n - sp.off), cut = plain_cut(w->piece_bytes, rest, file_span_get, &sp);
        if (!cut && !sp.failed)
            span_fill(&sp, rest);
        if (sp.failed && !sp.shrank) { /* out of memory */
            fsc_walker_submit(w, NULL);
            break;
        }
        if (sp.shrank) { /* the file was cut short while it was read: what is there */
            cut = sp.have;
            n = sp.off + sp.have;
        } else if (!cut)
            cut = rest;
        char *one;
        if (cut == sp.have) { /* the span is the piece (the last, or a text with no cut
                               * at all): handed over, not copied */
            one = sp.buf;
            sp.buf = NULL;
            sp.cap = 0;
        } else if ((one = malloc(cut + 1))) {
            memcpy(one, sp.buf, cut);
        } else {
            fsc_walker_submit(w, NULL);
            break;
        }
        size_t lines = pf ? 0 : fsc_count_lines(one, cut); /* else the worker counts */
        submit_piece(w, path, NULL, one, cut, line, pf, 0, sp.off > 0, sp.off + cut < n, false);
        line += (uint32_t)lines;
        if (sp.buf) /* read already: the next piece's */
            memmove(sp.buf, sp.buf + cut, sp.have - cut);
        sp.have -= cut;
        sp.off += cut;
    }
    free(sp.buf);
    fsc_piece_file_release(pf);
    return true;
}

void fsc_pieces_read_file(fsc_walker *w, const char *path, int fd, char *buf, size_t n, uint64_t size)
{
    fsc_logname ln;
    if (!fsc_log_name_parse(path, &ln) && w->worker_reads && fsc_pipe_workers(w->pipe) >= 2 &&
        fsc_pipe_renumbers(w->pipe)) {
        free(buf);
        read_ranges(w, path, fd, size);
        return;
    }
    fsc_pieces_read_stream(w, path, fd, buf, n, 0); /* read here, like a stream's */
}

/* All of a text from rd in pieces, read on this thread (n bytes of it in buf). */
static void read_all_pieces(fsc_walker *w, const char *path, const text_reader *rd, char *buf, size_t n,
                            uint64_t limit)
{
    fsc_piece_file *pf = line_counter(w, -1);
    read_pieces(w, path, rd, buf, n, limit, pf, false, 0);
    fsc_piece_file_release(pf);
}

void fsc_pieces_read_stream(fsc_walker *w, const char *path, int fd, char *buf, size_t n, uint64_t limit)
{
    text_reader rd = {fd, NULL, NULL, NULL};
    read_all_pieces(w, path, &rd, buf, n, limit);
}

void fsc_pieces_read_from(fsc_walker *w, const char *path, const char *member, char *buf, size_t n,
                          fsc_text_read read, void *ctx)
{
    text_reader rd = {-1, read, ctx, member};
    read_all_pieces(w, path, &rd, buf, n, 0);
}

uint64_t fsc_piece_settle(fsc_item *job, uint64_t start)
{
    int fd = job->pf->fd;
    /* the pieces before end at its cut or after it (they only ever read on) */
    if (start > job->pf_off) { /* the piece before went on into it */
        size_t drop = start - job->pf_off < job->len ? (size_t)(start - job->pf_off) : job->len;
        memmove(job->data, job->data + drop, job->len - drop + 1);
        job->len -= drop;
        job->pf_off += drop;
    }
    if (!job->more || !job->len || !memchr(job->data, '{', job->len))
        return job->pf_off + job->len; /* fio's text has no braces */
    json_docs docs = {0};
    find_json_docs(job->data, job->len, &docs);
    size_t cut = job->len;
    bool inside = !docs.oom && !outside_json(&docs, cut);
    while (inside) {
        /* it ends inside a document: read on, as much again each time, to the last
         * run boundary after the end it had (or to the end of the file) */
        size_t have = job->len, more = have < FSC_PIECE_STEP ? FSC_PIECE_STEP : have;
        char *nb = realloc(job->data, have + more + 1);
        if (!nb) {
            docs.oom = true;
            break;
        }
        job->data = nb;
        ssize_t r = fsc_read_full(fd, nb + have, more, (int64_t)(job->pf_off + have));
        if (r < 0) {
            int err = errno;
            free(docs.start);
            free(docs.end);
            fsc_item_read_failed(job, err);
            return job->pf_off + have;
        }
        job->len = cut = have + (size_t)r;
        nb[job->len] = '\0';
        find_json_docs(nb, job->len, &docs);
        size_t at = docs.oom ? 0 : piece_cut(nb, job->len, have, false, &docs);
        if (at)
            cut = at;
        inside = !at && (size_t)r == more && !docs.oom;
    }
    free(docs.start);
    free(docs.end);
    if (docs.oom) {
        fsc_item_read_failed(job, ENOMEM);
        return job->pf_off + job->len;
    }
    job->len = cut;
    job->data[cut] = '\0';
    return job->pf_off + job->len;
}
