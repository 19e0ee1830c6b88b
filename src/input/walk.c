/* SPDX-License-Identifier: MIT */
/*
 * The walker: files, directories (recursive, sorted, symlink loops detected by the
 * (st_dev, st_ino) of the directories being read) and "-", each sniffed by its magic
 * bytes and queued as text or opened as an archive.
 */
#define _GNU_SOURCE
#include "input_int.h"

#include "fioscope/hugemem.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif
#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#endif

/* Bytes read before deciding text or archive: a tar header's "ustar" sits at 257. */
#define SNIFF_BYTES 512

/* Queue job (NULL: out of memory); after a stop, only free it. */
static void submit(fsc_walker *w, fsc_item *job)
{
    if (job) {
        if (job->len >= FSC_HUGE_HEAP_TEXT) /* what the heap grew by for a big text */
            fsc_hugemem_advise_heap();
        job->max_memory = w->max_memory;
        if (!job->group_end)
            job->group = w->cur_group;
        job->arg = w->arg;
    }
    if (w->stop)
        fsc_item_free(job);
    else if (!fsc_pipe_submit(w->pipe, job))
        w->stop = true;
}

void fsc_walker_fixed(fsc_walker *w, const char *path, const char *member, fsc_input_status st,
                      const char *fmt, ...)
{
    fsc_item *job = fsc_item_new(path, member);
    if (job) {
        va_list ap;
        va_start(ap, fmt);
        if (vasprintf(&job->error, fmt, ap) < 0)
            job->error = NULL;
        va_end(ap);
        job->fixed = true;
        job->status = st;
    }
    submit(w, job);
}

/* Magic bytes of archives and compressed streams: the ones read (name NULL) and
 * others that get a clear "not read" instead of "binary data". */
static const struct archive_magic {
    size_t off, len;
    const char *magic;
    const char *unread; /* NULL: read with libarchive */
} magics[] = {
    {0, 2, "\x1f\x8b", NULL},                 /* gzip */
    {0, 6, "\xfd" "7zXZ\0", NULL},            /* xz */
    {0, 4, "\x28\xb5\x2f\xfd", NULL},         /* zstd */
    {0, 4, "PK\x03\x04", NULL},               /* zip */
    {0, 4, "PK\x05\x06", NULL},               /* empty zip */
    {257, 5, "ustar", NULL},                  /* POSIX / GNU tar */
    {0, 2, "\x1f\x9d", "compress (.Z) data"},
    {0, 4, "\x04\x22\x4d\x18", "LZ4 data"},
    {0, 6, "7z\xbc\xaf\x27\x1c", "7-Zip archive"},
    {0, 6, "Rar!\x1a\x07", "RAR archive"},
    {0, 2, "\xc7\x71", "cpio archive"},        /* binary cpio; the ASCII ones could be text */
    {0, 4, "xar!", "xar archive"},
    {0, 4, "\x5d\x00\x00\x80", "LZMA data"},
    {0, 4, "LZIP", "lzip data"},
    {0, 4, "\x89LZO", "lzop data"},
    {0, 4, "LRZI", "lrzip data"},
};

static const struct archive_magic *find_magic(const unsigned char *s, size_t n)
{
    static const struct archive_magic bzip2 = {0, 3, "BZh", NULL};
    for (size_t i = 0; i < FSC_ARRAY_SIZE(magics); i++)
        if (n >= magics[i].off + magics[i].len && !memcmp(s + magics[i].off, magics[i].magic, magics[i].len))
            return &magics[i];
    /* bzip2: "BZh" and a block size digit */
    return n >= 4 && !memcmp(s, "BZh", 3) && s[3] >= '1' && s[3] <= '9' ? &bzip2 : NULL;
}

unsigned fsc_walker_group_begin(fsc_walker *w)
{
    unsigned prev = w->cur_group;
    w->cur_group = ++w->next_group ? w->next_group : ++w->next_group;
    return prev;
}

void fsc_walker_group_end(fsc_walker *w, unsigned prev)
{
    if (w->cur_group) {
        fsc_item *mark = fsc_item_new("", NULL);
        if (mark) {
            mark->group_end = true;
            mark->group = w->cur_group;
            mark->fixed = true;
        }
        submit(w, mark);
    }
    w->cur_group = prev;
}

bool fsc_is_archive_magic(const unsigned char *s, size_t n)
{
    const struct archive_magic *m = find_magic(s, n);
    return m && !m->unread;
}

const char *fsc_unread_archive(const unsigned char *s, size_t n)
{
    const struct archive_magic *m = find_magic(s, n);
    return m ? m->unread : NULL;
}

#define UNREAD_FORMATS "fioscope reads tar, zip, gzip, xz, zstd and bzip2"

void fsc_walker_doc(fsc_walker *w, const char *path, const char *member, char *data, size_t len,
                    int depth)
{
    const char *unread = fsc_unread_archive((const unsigned char *)data, len);
    if (unread) {
        fsc_walker_fixed(w, path, member, FSC_IN_ERROR, "%s: not read (" UNREAD_FORMATS ")", unread);
        free(data);
        return;
    }
    if (fsc_is_archive_magic((const unsigned char *)data, len) ||
        (fsc_looks_binary(data, len) && fsc_archive_sniff(data, len))) {
        fsc_archive_read_mem(w, path, member, data, len, depth + 1);
        free(data);
        return;
    }
    fsc_item *job = fsc_item_new(path, member);
    if (!job) {
        free(data);
        submit(w, NULL);
        return;
    }
    job->data = data;
    job->len = len;
    fsc_item_mark_log(job);
    submit(w, job);
}

/* read() until n bytes or end of file. Returns bytes read, or -1 (errno set). */
static ssize_t read_full(int fd, char *buf, size_t n)
{
    size_t got = 0;
    while (got < n) {
        ssize_t r = read(fd, buf + got, n - got);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0)
            return -1;
        if (r == 0)
            break;
        got += (size_t)r;
    }
    return (ssize_t)got;
}

/* The rest of fd after the n bytes already in *buf (capacity *cap). size_hint is
 * the file size when known. Returns false with errno set on a read error or ENOMEM. */
static bool read_rest(int fd, char **buf, size_t *n, size_t *cap, size_t size_hint)
{
    size_t want = size_hint + 1; /* one byte more than the size, to see the end */
    for (;;) {
        if (*n == *cap || want > *cap) {
            size_t ncap = want > *cap ? want : *cap * 2;
            char *nb = realloc(*buf, ncap + 1);
            if (!nb) {
                errno = ENOMEM;
                return false;
            }
            fsc_hugemem_advise_block(nb + *n, ncap - *n); /* before read() writes it */
            *buf = nb;
            *cap = ncap;
        }
        ssize_t r = read_full(fd, *buf + *n, *cap - *n);
        if (r < 0)
            return false;
        *n += (size_t)r;
        if (*n < *cap)
            return true; /* short read: end of file */
    }
}

/* Read fd on after the n bytes in *buf (capacity *cap) until end of file or until
 * more than max bytes are there (a stream may not end). Returns 0 at end of file, 1
 * when there is more, -1 on a read error or ENOMEM (errno set). */
static int read_upto(int fd, char **buf, size_t *n, size_t *cap, size_t max)
{
    while (*n <= max) {
        if (*n == *cap) {
            size_t ncap = *cap * 2 < max + 1 ? *cap * 2 : max + 1;
            char *nb = realloc(*buf, ncap + 1);
            if (!nb) {
                errno = ENOMEM;
                return -1;
            }
            fsc_hugemem_advise_block(nb + *n, ncap - *n);
            *buf = nb;
            *cap = ncap;
        }
        ssize_t r = read_full(fd, *buf + *n, *cap - *n);
        if (r < 0)
            return -1;
        *n += (size_t)r;
        if (*n < *cap)
            return 0;
    }
    return 1;
}

/* The reason for a stream (a pipe, stdin, a device) that went on past the limit. */
static void stream_limit_reason(char *out, size_t len, uint64_t limit)
{
    snprintf(out, len,
             "size limit: more than %llu bytes from a pipe or device (--max-member-size); "
             "the rest was not read",
             (unsigned long long)limit);
}

/* ---- huge files, read in pieces ---- */

/* Does a run start with the line at s: a job definition ("name: (g=0): rw=...")? */
static bool starts_run(const char *s, size_t n)
{
    const char *nl = memchr(s, '\n', n);
    size_t len = nl ? (size_t)(nl - s) : n;
    const char *g = memmem(s, len, ": (g=", 5);
    return g && g > s && !memchr(s, ' ', (size_t)(g - s));
}

static bool blank_line(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (s[i] != ' ' && s[i] != '\t' && s[i] != '\r')
            return false;
    return true;
}

/* The last line of fio's report: a disk line ("  sda: ios=...") or a group line
 * ("   READ: bw=...") when there are no disk stats. */
static bool ends_run(const char *s, size_t n)
{
    static const char *const groups[] = {"READ:", "WRITE:", "TRIM:", "MIXED:"};
    if (memmem(s, n, ": ios=", 6))
        return true;
    size_t i = 0;
    while (i < n && s[i] == ' ')
        i++;
    for (size_t k = 0; k < FSC_ARRAY_SIZE(groups); k++)
        if (n - i >= strlen(groups[k]) && !memcmp(s + i, groups[k], strlen(groups[k])))
            return true;
    return false;
}

/* A terse record ("3;fio-3.33;..." or v2 "2;name;..."): a digit, ';', and at least
 * the hundred fields the parser asks for. */
static bool terse_record(const char *s, size_t n)
{
    if (n < 2 || s[0] < '2' || s[0] > '5' || s[1] != ';')
        return false;
    size_t fields = 0;
    for (const char *p = s; (p = memchr(p, ';', n - (size_t)(p - s))) != NULL && fields < 99; p++)
        fields++;
    return fields >= 99;
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
    const char *pp = memrchr(buf, '\n', (size_t)(prev - 1 - buf));
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

static void find_json_docs(const char *buf, size_t n, json_docs *d)
{
    d->n = 0;
    if (!memchr(buf, '{', n))
        return; /* fio's text has no braces: nothing to look at */
    size_t i = 0;
    while (i < n) {
        const char *nl = memchr(buf + i, '\n', n - i);
        size_t line_end = nl ? (size_t)(nl - buf) : n;
        size_t k = i + json_opener(buf + i, line_end - i), start = i;
        if (k == line_end) {
            i = line_end + 1;
            continue;
        }
        size_t len = fsc_json_balanced_fast(buf + k, n - k);
        bool closed = len > 0;
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
        d->end[d->n++] = closed ? k : SIZE_MAX;
        if (!closed)
            return;
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

/* Where to end a piece of buf[0, n): the last line start after offset `after` where
 * a job definition follows the end of fio's report, the next JSON document begins or
 * a blank line parts two blocks of terse records (or, when loose, after any blank
 * line), so that no run is cut in two and no run loses the text above it; never
 * inside one of the JSON documents docs. 0: none. docs NULL: buf is a window of a
 * text whose documents are not known (read_ranges): a document then begins only
 * after a line that is a lone '}', which no JSON document holds inside (in JSON, a
 * '{' after a '}' needs a comma between), nor can a job definition or a terse record
 * stand on a line of its own inside one. */
static size_t piece_cut(const char *buf, size_t n, size_t after, bool loose, const json_docs *docs)
{
    const char *end = buf + n;
    const char *nl = memrchr(buf, '\n', n);
    while (nl && (size_t)(nl - buf) > after) {
        const char *line = nl + 1;
        const char *prev = memrchr(buf, '\n', (size_t)(nl - buf));
        const char *prev_start = prev ? prev + 1 : buf;
        size_t prev_n = (size_t)(nl - prev_start);
        size_t at = (size_t)(line - buf);
        bool prev_ok = ends_run(prev_start, prev_n) || (loose && blank_line(prev_start, prev_n));
        bool json_next = line < end && prev_n && prev_start[0] == '}' && line[0] == '{' &&
                         (docs || blank_line(prev_start + 1, prev_n - 1));
        bool terse = line < end && !prev_n && terse_next(buf, prev_start, line, (size_t)(end - line));
        /* outside_json last: it looks at every document of the span, and a span of
         * fio JSON has dozens (on 10 MB of JSON, first it took 23% of the reading
         * thread's instructions) */
        if (line < end && ((prev_ok && starts_run(line, (size_t)(end - line))) || json_next || terse) &&
            outside_json(docs, at))
            return at;
        nl = prev;
    }
    return 0;
}

/* The last line end of buf[0, n) outside every JSON document; 0: none. */
static size_t line_cut(const char *buf, size_t n, const json_docs *docs)
{
    for (const char *nl = memrchr(buf, '\n', n); nl; nl = memrchr(buf, '\n', (size_t)(nl - buf))) {
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

/* Queue buf[0, len) (ownership passes; NULL: the worker reads the piece at offset
 * off of pf's file) as one piece of path. With pf, its worker counts its lines and
 * first_line is not used. */
static void submit_piece(fsc_walker *w, const char *path, char *buf, size_t len, uint32_t first_line,
                         fsc_piece_file *pf, uint64_t off, bool continued, bool more)
{
    /* the run ids of this piece continue those of the pieces before: the pipe
     * renumbers them when it delivers the piece, so pieces are parsed side by side;
     * else wait for the pieces before */
    bool parallel = continued && fsc_pipe_renumbers(w->pipe);
    size_t first_run = continued && !parallel ? fsc_pipe_drain(w->pipe) : 0;
    fsc_item *job = fsc_item_new(path, NULL);
    if (!job) {
        free(buf);
        submit(w, NULL);
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
        job->pf_index = pf->submitted++;
        job->pf_off = off;
    }
    job->first_run = first_run;
    job->continued = continued;
    job->more = more;
    job->renumber = parallel;
    fsc_item_mark_log(job);
    w->progress->raw_done += len;
    submit(w, job);
}

/* A read error (why NULL: from errno) in a file read in pieces: after the first
 * piece, it is the last piece, so that the file's manifest entry says error and counts
 * the runs before. */
static void read_error(fsc_walker *w, const char *path, bool continued, const char *why)
{
    char reason[256];
    if (why)
        snprintf(reason, sizeof reason, "%s", why);
    else
        snprintf(reason, sizeof reason, "cannot read: %s", strerror(errno));
    if (!continued) {
        fsc_walker_fixed(w, path, NULL, FSC_IN_ERROR, "%s", reason);
        return;
    }
    fsc_pipe_drain(w->pipe);
    fsc_item *job = fsc_item_new(path, NULL);
    if (job) {
        job->continued = true;
        job->fixed = true;
        job->status = FSC_IN_ERROR;
        job->error = fsc_strdup(reason);
    }
    submit(w, job);
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

/* A plain text file larger than piece_bytes (its first n bytes in buf; first_only:
 * only its first piece, for read_ranges): read and parsed piece by piece, so that memory
 * stays flat. Returns the bytes of the pieces submitted (0 after an error). Pieces end before a job
 * definition that follows the end of a report (see piece_cut); when none comes for
 * two steps (FSC_PIECE_STEP), after a blank line; after four, at any line end. What
 * a run takes from the text above it (headings, the fio command, the HTML or mail
 * encoding of the whole document) is not seen across a piece boundary. A fio log
 * file has no runs to keep whole: its pieces end at any line end. */
static uint64_t read_pieces(fsc_walker *w, const char *path, int fd, char *buf, size_t n,
                            uint64_t limit, fsc_piece_file *pf, bool first_only)
{
    fsc_logname ln;
    bool log = fsc_log_name_parse(path, &ln);
    size_t step = w->piece_step, piece = log ? step : w->piece_bytes, want = piece, cap = n;
    /* the text not yet in a piece is buf[off, off + n): a stream comes with 64 MiB
     * read already (read_stream); its pieces are copied out of that buffer one by
     * one (each piece's own size, not halves of what is left: a 200 MB pipe peaked at
     * 285 MB) until less than a piece is left */
    size_t off = 0, dropped = 0;
    uint32_t line = 0;
    bool eof = false, continued = pf && pf->submitted;
    uint64_t done = 0; /* bytes of the pieces already submitted */
    while (!w->stop) {
        if (limit && done + n > limit) { /* a stream that does not end */
            char reason[256];
            stream_limit_reason(reason, sizeof reason, limit);
            read_error(w, path, continued, reason);
            free(buf);
            return 0;
        }
        if (!eof && n < want && off) { /* the end of a buffer of many pieces */
            char *nb = malloc(want + 1);
            if (!nb) {
                free(buf);
                submit(w, NULL);
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
                submit(w, NULL);
                return 0;
            }
            buf = nb;
            cap = cap < want ? want : cap;
            ssize_t r = read_full(fd, buf + n, want - n);
            if (r < 0) {
                read_error(w, path, continued, NULL);
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
            cut = line_cut(text, m, &docs);
            if (!cut && outside_json(&docs, m))
                cut = m; /* one endless line: cut it anywhere, as the last resort */
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
                submit(w, NULL);
                return 0;
            }
            memcpy(one, text, cut);
            submit_piece(w, path, one, cut, line, pf, 0, continued, !last);
            off += cut;
            drop_read(buf, off, &dropped);
        } else if (first_only) {
            submit_piece(w, path, buf, cut, line, pf, 0, continued, !last);
            return cut;
        } else { /* the piece keeps the buffer, what follows it gets a new one */
            size_t rest_cap = n - cut > piece ? n - cut : piece;
            char *rest = malloc(rest_cap + 1);
            if (!rest) {
                free(buf);
                submit(w, NULL);
                return 0;
            }
            memcpy(rest, buf + cut, n - cut);
            submit_piece(w, path, buf, cut, line, pf, 0, continued, !last);
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
    }
    free(buf);
    return done;
}

/* Who numbers the lines of a file's pieces: its workers, when there are any (then
 * this thread need not look at every byte to count them), through the record
 * returned (fd: the file, for pieces the workers read themselves; -1); NULL: this
 * thread. */
static fsc_piece_file *line_counter(fsc_walker *w, int fd)
{
    return fsc_pipe_workers(w->pipe) ? fsc_piece_file_new(fd) : NULL;
}

/* pread() until n bytes or end of file. Returns bytes read, or -1 (errno set). */
static ssize_t pread_full(int fd, char *buf, size_t n, uint64_t off)
{
    size_t got = 0;
    while (got < n) {
        ssize_t r = pread(fd, buf + got, n - got, (off_t)(off + got));
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0)
            return -1;
        if (r == 0)
            break;
        got += (size_t)r;
    }
    return (ssize_t)got;
}

/* A huge regular text file of `size` bytes, parsed by two workers or more: its pieces
 * are read by the workers (fsc_piece_file). This thread reads only a window of
 * PROBE_BYTES before the end of each piece, where it looks for a run boundary
 * (piece_cut, its JSON documents unknown); read() of the whole text on this thread
 * took a tenth of all the CPU at -j 2, when the workers are short of it. Where a
 * window holds no boundary, the rest of the file is read here (read_pieces), with its
 * longer pieces, blank-line and line-end cuts and JSON documents. Text appended to
 * the file after it was opened is not read. */
#define PROBE_BYTES ((size_t)64 << 10)
static void read_ranges(fsc_walker *w, const char *path, int fd, uint64_t size)
{
    fsc_piece_file *pf = fsc_piece_file_new(fd);
    size_t piece = w->piece_bytes, probe = piece / 4 < PROBE_BYTES ? piece / 4 : PROBE_BYTES;
    char *win = pf ? malloc(probe + 1) : NULL;
    uint64_t off = 0;
    while (win && !w->stop && off < size) {
        uint64_t cut = 0;
        if (size - off <= piece) {
            cut = size - off;
        } else if (pread_full(pf->fd, win, probe, off + piece - probe) == (ssize_t)probe) {
            const char *nl = memchr(win, '\n', probe); /* the first whole line after it */
            size_t first = nl ? (size_t)(nl + 1 - win) : probe;
            size_t at = piece_cut(win + first, probe - first, 0, false, NULL);
            if (at)
                cut = piece - probe + first + at;
        }
        if (cut) {
            submit_piece(w, path, NULL, (size_t)cut, 0, pf, off, off > 0, off + cut < size);
            off += cut;
            continue;
        }
        /* no boundary near: this piece is read here, the way of a stream */
        char *buf = NULL;
        if (lseek(fd, (off_t)off, SEEK_SET) != (off_t)off) {
            read_error(w, path, off > 0, NULL);
            break;
        }
        if (!(buf = malloc(1))) {
            submit(w, NULL);
            break;
        }
        uint64_t got = read_pieces(w, path, fd, buf, 0, 0, pf, true);
        if (!got)
            break;
        off += got;
    }
    if (!win && !w->stop) { /* out of memory or descriptors: all of it the old way */
        char *buf = lseek(fd, 0, SEEK_SET) == 0 ? malloc(1) : NULL;
        if (buf)
            read_pieces(w, path, fd, buf, 0, 0, pf, false);
        else
            submit(w, NULL);
    }
    free(win);
    fsc_piece_file_release(pf);
}

/* A text read whole (buf[0, n), up to piece_min bytes; ownership passes when true is
 * returned): when it is longer than plain_min and fio's own output and nothing else
 * (fsc_text_is_plain_fio: text, JSON or terse), it is parsed in pieces side by side
 * like a huge file, but cut only between two runs (piece_cut, never loose, never at a
 * mere line end), so that its runs are those of the whole text: at the speed of
 * pieces, and without the whole text's lines, runs and results in memory at once
 * (50 MB of fio 3.33 text: 1.02 CPU-s and 192 MB whole; 30 MB of fio JSON: 0.70 CPU-s
 * and 113 MB). Not in a group (logs join the runs of whole documents) and not a fio
 * log. */
static bool plain_pieces(fsc_walker *w, const char *path, char *buf, size_t n)
{
    fsc_logname ln;
    if (n <= w->plain_min || w->cur_group || fsc_log_name_parse(path, &ln) ||
        !fsc_text_is_plain_fio(buf, n))
        return false;
    size_t off = 0, dropped = 0;
    uint32_t line = 0;
    fsc_piece_file *pf = line_counter(w, -1);
    while (off < n && !w->stop) {
        size_t rest = n - off, cut = 0;
        /* the last run boundary in the second half of ever longer spans: a piece is
         * at least half a piece, and as long as its runs make it; never inside a
         * JSON document */
        for (size_t m = w->piece_bytes; m < rest && !cut; m *= 2) {
            json_docs docs = {0};
            find_json_docs(buf + off, m, &docs);
            if (!docs.oom)
                cut = piece_cut(buf + off, m, m / 2, false, &docs);
            free(docs.start);
            free(docs.end);
        }
        if (!cut)
            cut = rest;
        char *one = malloc(cut + 1);
        if (!one) {
            submit(w, NULL);
            break;
        }
        memcpy(one, buf + off, cut);
        size_t lines = pf ? 0 : fsc_count_lines(one, cut); /* else the worker counts */
        submit_piece(w, path, one, cut, line, pf, 0, off > 0, off + cut < n);
        line += (uint32_t)lines;
        off += cut;
        drop_read(buf, off, &dropped);
    }
    fsc_piece_file_release(pf);
    free(buf);
    return true;
}

/* A pipe, stdin or a device (n bytes sniffed into buf, ownership passes): read as it
 * comes, under the cap of an archive member (--max-member-size), so that /dev/zero or
 * an endless pipe cannot take all memory. Text longer than a file read whole is read
 * and parsed in pieces (flat memory), like a huge plain file. */
static void read_stream(fsc_walker *w, const char *path, int fd, char *buf, size_t n, size_t cap)
{
    bool text = n == SNIFF_BYTES && !fsc_looks_binary(buf, n) && !fsc_has_unicode_bom(buf, n);
    uint64_t limit = w->max_member;
    size_t whole = text && w->piece_min < limit ? w->piece_min : (size_t)limit;
    int r = n == SNIFF_BYTES ? read_upto(fd, &buf, &n, &cap, whole) : 0;
    if (r < 0) {
        fsc_walker_fixed(w, path, NULL, FSC_IN_ERROR, "cannot read: %s", strerror(errno));
        free(buf);
        return;
    }
    if (r > 0 && text) {
        fsc_piece_file *pf = line_counter(w, -1);
        read_pieces(w, path, fd, buf, n, limit, pf, false);
        fsc_piece_file_release(pf);
        return;
    }
    if (r > 0) {
        char reason[256];
        stream_limit_reason(reason, sizeof reason, limit);
        fsc_walker_fixed(w, path, NULL, FSC_IN_ERROR, "%s", reason);
        free(buf);
        return;
    }
    buf[n] = '\0';
    if (plain_pieces(w, path, buf, n))
        return;
    w->progress->raw_done += n;
    fsc_walker_doc(w, path, NULL, buf, n, 0);
}

static void read_fd(fsc_walker *w, const char *path, int fd)
{
    struct stat sb;
    bool regular = fstat(fd, &sb) == 0 && S_ISREG(sb.st_mode);
    size_t hint = regular ? (size_t)sb.st_size : 0;
    size_t cap = SNIFF_BYTES, n = 0;
    char *buf = malloc(cap + 1);
    if (!buf) {
        submit(w, NULL);
        return;
    }
    ssize_t r = read_full(fd, buf, SNIFF_BYTES);
    if (r < 0) {
        fsc_walker_fixed(w, path, NULL, FSC_IN_ERROR, "cannot read: %s", strerror(errno));
        free(buf);
        return;
    }
    n = (size_t)r;
    w->top_raw = w->top_expanded = 0;
    const char *unread = fsc_unread_archive((const unsigned char *)buf, n);
    if (unread) { /* said before the rest is read */
        fsc_walker_fixed(w, path, NULL, FSC_IN_ERROR, "%s: not read (" UNREAD_FORMATS ")", unread);
        free(buf);
        return;
    }
    if (fsc_is_archive_magic((const unsigned char *)buf, n)) {
        fsc_archive_read_fd(w, path, fd, buf, n);
        free(buf);
        return;
    }
    if (!regular) {
        read_stream(w, path, fd, buf, n, cap);
        return;
    }
    /* a fio log has no runs to keep together: above two pieces it is read in pieces
     * (parsed in parallel, memory flat) */
    fsc_logname ln;
    size_t min = fsc_log_name_parse(path, &ln) && !ln.stored_compressed ? 2 * w->piece_step
                                                                        : w->piece_min;
    if (n == SNIFF_BYTES && hint > min && !fsc_looks_binary(buf, n) &&
        !fsc_has_unicode_bom(buf, n)) {
        if (min == w->piece_min && w->worker_reads && fsc_pipe_workers(w->pipe) >= 2 &&
            fsc_pipe_renumbers(w->pipe)) {
            free(buf);
            read_ranges(w, path, fd, hint);
            return;
        }
        fsc_piece_file *pf = line_counter(w, -1);
        read_pieces(w, path, fd, buf, n, 0, pf, false);
        fsc_piece_file_release(pf);
        return;
    }
    if (n == SNIFF_BYTES && !read_rest(fd, &buf, &n, &cap, hint)) {
        fsc_walker_fixed(w, path, NULL, FSC_IN_ERROR, "cannot read: %s", strerror(errno));
        free(buf);
        return;
    }
    buf[n] = '\0';
    if (plain_pieces(w, path, buf, n))
        return;
    w->progress->raw_done += n;
    fsc_walker_doc(w, path, NULL, buf, n, 0);
}

static void read_path(fsc_walker *w, const char *path)
{
    if (!strcmp(path, "-")) {
        read_fd(w, path, STDIN_FILENO);
        return;
    }
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
    if (fd < 0) {
        fsc_walker_fixed(w, path, NULL, FSC_IN_ERROR, "cannot open: %s", strerror(errno));
        return;
    }
    read_fd(w, path, fd);
    close(fd);
}

static const char *file_kind(mode_t m)
{
    return S_ISFIFO(m) ? "a FIFO" : S_ISSOCK(m) ? "a socket" : S_ISCHR(m) ? "a character device"
           : S_ISBLK(m) ? "a block device" : "not a regular file";
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The sorted full names of a directory's entries, or NULL (errno set). */
static char **list_dir(const char *path, size_t *n_out)
{
    DIR *d = opendir(path);
    if (!d)
        return NULL;
    char **names = NULL;
    size_t n = 0, cap = 0;
    bool slash = path[0] && path[strlen(path) - 1] == '/';
    struct dirent *de;
    while ((de = readdir(d))) {
        if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
            continue;
        char *full = NULL;
        char **slot = FSC_PUSH(names, n, cap);
        if (!slot || asprintf(&full, "%s%s%s", path, slash ? "" : "/", de->d_name) < 0) {
            if (slot)
                n--;
            for (size_t i = 0; i < n; i++)
                free(names[i]);
            free(names);
            closedir(d);
            errno = ENOMEM;
            return NULL;
        }
        *slot = full;
    }
    closedir(d);
    if (n)
        qsort(names, n, sizeof *names, cmp_str);
    *n_out = n;
    return names ? names : calloc(1, sizeof *names);
}

static void walk_entry(fsc_walker *w, const char *path, bool top);

static void walk_dir(fsc_walker *w, const char *path, const struct stat *sb)
{
    for (size_t i = 0; i < w->n_dirs; i++)
        if (w->dirs[i].dev == sb->st_dev && w->dirs[i].ino == sb->st_ino) {
            fsc_walker_fixed(w, path, NULL, FSC_IN_ERROR,
                             "symlink loop: this directory is %s, already being read",
                             w->dirs[i].path);
            return;
        }
    size_t n = 0;
    char **names = list_dir(path, &n);
    if (!names) {
        fsc_walker_fixed(w, path, NULL, FSC_IN_ERROR, "cannot read directory: %s", strerror(errno));
        return;
    }
    struct fsc_dir_id *id = FSC_PUSH(w->dirs, w->n_dirs, w->cap_dirs);
    if (!id) {
        submit(w, NULL);
    } else {
        *id = (struct fsc_dir_id){sb->st_dev, sb->st_ino, path};
        /* the files of a folder with fio logs are held until the folder is read, so
         * that the logs find their runs; its subfolders are folders of their own */
        bool logs = false;
        fsc_logname ln;
        for (size_t i = 0; i < n && !logs; i++)
            logs = fsc_log_name_parse(names[i], &ln);
        unsigned outer = w->cur_group;
        unsigned prev = logs ? fsc_walker_group_begin(w) : outer;
        unsigned mine = w->cur_group;
        for (size_t i = 0; i < n && !w->stop; i++) {
            struct stat esb;
            bool subdir = stat(names[i], &esb) == 0 && S_ISDIR(esb.st_mode);
            w->cur_group = subdir ? 0 : mine;
            walk_entry(w, names[i], false);
        }
        w->cur_group = mine;
        if (logs)
            fsc_walker_group_end(w, prev);
        w->cur_group = outer;
        w->n_dirs--;
    }
    for (size_t i = 0; i < n; i++)
        free(names[i]);
    free(names);
}

/* A path given on the command line (top) or found in a directory. Inside a
 * directory only regular files are opened: a FIFO would block forever. */
static void walk_entry(fsc_walker *w, const char *path, bool top)
{
    struct stat sb;
    if (w->stop)
        return;
    if (top && !strcmp(path, "-")) {
        read_path(w, path);
        return;
    }
    if (stat(path, &sb) != 0) {
        struct stat lsb;
        bool dangling = errno == ENOENT && lstat(path, &lsb) == 0 && S_ISLNK(lsb.st_mode);
        fsc_walker_fixed(w, path, NULL, FSC_IN_ERROR, "cannot open: %s",
                         dangling ? "dangling symbolic link" : strerror(errno));
        return;
    }
    if (S_ISDIR(sb.st_mode))
        walk_dir(w, path, &sb);
    else if (S_ISREG(sb.st_mode) || top)
        read_path(w, path);
    else
        fsc_walker_fixed(w, path, NULL, FSC_IN_ERROR, "not read: %s", file_kind(sb.st_mode));
}

/* Sum of the sizes of the paths when all are regular files (0: unknown). */
static uint64_t known_total(const char *const *paths, size_t n)
{
    uint64_t total = 0;
    for (size_t i = 0; i < n; i++) {
        struct stat sb;
        if (!strcmp(paths[i], "-") || stat(paths[i], &sb) != 0 || !S_ISREG(sb.st_mode))
            return 0;
        total += (uint64_t)sb.st_size;
    }
    return total;
}

static bool regular_file(const char *path)
{
    struct stat sb;
    return strcmp(path, "-") && stat(path, &sb) == 0 && S_ISREG(sb.st_mode);
}

/* Length of the folder part of a path ("a/b/c.log" → 3, "c.log" → 0). */
static size_t dir_len(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? (size_t)(slash - path) : 0;
}

/* Files named one after another on the command line that sit in one folder, one of
 * them a fio log, are held as a group like the files of a folder: returns the end of
 * the group starting at paths[i], or i when there is none. */
static size_t cmdline_group(const char *const *paths, size_t n, size_t i)
{
    if (!regular_file(paths[i]))
        return i;
    size_t dl = dir_len(paths[i]), j = i;
    bool logs = false;
    fsc_logname ln;
    while (j < n && regular_file(paths[j]) && dir_len(paths[j]) == dl &&
           !strncmp(paths[j], paths[i], dl)) {
        logs |= fsc_log_name_parse(paths[j], &ln);
        j++;
    }
    return logs ? j : i;
}

static unsigned default_jobs(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1 : n > 64 ? 64 : (unsigned)n;
}

/* Set up a walker (and its pipeline) for opts; false when out of memory. */
static bool walker_start(fsc_walker *w, fsc_progress *progress, const fsc_parser *parser,
                         const fsc_input_opts *opts, const fsc_input_sink *sink)
{
    /* FIOSCOPE_PIECE_BYTES: other piece sizes for huge files (tests); files above 4
     * pieces are then read in pieces */
    const char *pb = getenv("FIOSCOPE_PIECE_BYTES");
    unsigned long long want = pb ? strtoull(pb, NULL, 10) : 0;
    size_t piece_bytes = want >= 4096 && want <= FSC_PIECE_MIN ? (size_t)want : FSC_PIECE_BYTES;
    const char *pm = getenv("FIOSCOPE_PLAIN_MIN");
    unsigned long long plain_min = pm ? strtoull(pm, NULL, 10) : 0;
    *w = (fsc_walker){
        .progress = progress,
        .piece_bytes = piece_bytes,
        .piece_min = piece_bytes == FSC_PIECE_BYTES ? FSC_PIECE_MIN : 4 * piece_bytes,
        .piece_step = piece_bytes == FSC_PIECE_BYTES ? FSC_PIECE_STEP : piece_bytes,
        /* FIOSCOPE_PLAIN_MIN (tests): from what size plain fio text read whole is
         * parsed in pieces (plain_pieces); with other piece sizes, by default never */
        .plain_min = plain_min ? (size_t)plain_min : 4 * piece_bytes,
        /* FIOSCOPE_READER_READS=1: this thread reads every piece of a huge file (the
         * way before read_ranges; to compare them) */
        .worker_reads = !getenv("FIOSCOPE_READER_READS"),
        .max_member = opts->max_member_bytes ? opts->max_member_bytes : FSC_DEFAULT_MAX_MEMBER,
        .max_ratio = opts->max_ratio ? opts->max_ratio : FSC_DEFAULT_MAX_RATIO,
        .max_memory = opts->max_memory_bytes == UINT64_MAX ? 0
                      : opts->max_memory_bytes       ? opts->max_memory_bytes
                                                     : FSC_DEFAULT_MAX_MEMORY,
    };
    w->pipe = fsc_pipe_new(parser, sink, opts->jobs ? opts->jobs : default_jobs(), progress);
    return w->pipe != NULL;
}

static fsc_status walker_finish(fsc_walker *w)
{
    fsc_status st = fsc_pipe_finish(w->pipe);
    fsc_progress_end(w->progress);
    free(w->dirs);
    return st;
}

fsc_status fsc_inputs_read(const char *const *paths, size_t n_paths, const fsc_parser *parser,
                           const fsc_input_opts *opts, const fsc_input_sink *sink)
{
    static const fsc_input_opts defaults = {0};
    if (!opts)
        opts = &defaults;
    fsc_progress progress;
    fsc_progress_init(&progress, opts->progress, 0);
    if (progress.on)
        progress.raw_total = known_total(paths, n_paths);
    fsc_walker w;
    if (!walker_start(&w, &progress, parser, opts, sink))
        return FSC_E_NOMEM;
    for (size_t i = 0; i < n_paths && !w.stop;) {
        size_t j = cmdline_group(paths, n_paths, i);
        unsigned prev = j > i ? fsc_walker_group_begin(&w) : w.cur_group;
        for (size_t k = i; k < (j > i ? j : i + 1) && !w.stop; k++) {
            w.arg = k;
            walk_entry(&w, paths[k], true);
        }
        if (j > i)
            fsc_walker_group_end(&w, prev);
        i = j > i ? j : i + 1;
    }
    return walker_finish(&w);
}

fsc_status fsc_input_read_mem(const char *name, const void *data, size_t len,
                              const fsc_parser *parser, const fsc_input_opts *opts,
                              const fsc_input_sink *sink)
{
    static const fsc_input_opts defaults = {0};
    if (!opts)
        opts = &defaults;
    fsc_progress progress;
    fsc_progress_init(&progress, false, 0);
    char *copy = fsc_strndup(data, len);
    if (!copy)
        return FSC_E_NOMEM;
    fsc_walker w;
    if (!walker_start(&w, &progress, parser, opts, sink)) {
        free(copy);
        return FSC_E_NOMEM;
    }
    w.progress->raw_done += len;
    fsc_walker_doc(&w, name, NULL, copy, len, 0);
    return walker_finish(&w);
}
