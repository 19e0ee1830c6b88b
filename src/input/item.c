/* SPDX-License-Identifier: MIT */
/* One document in flight: its bytes, the runs parsed from it and its manifest status. */
#include "input_int.h"

#include "fioscope/escape.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

fsc_piece_file *fsc_piece_file_new(int fd)
{
    fsc_piece_file *pf = calloc(1, sizeof *pf);
    if (!pf)
        return NULL;
    pf->fd = fd < 0 ? -1 : fcntl(fd, F_DUPFD_CLOEXEC, 0);
    if (fd >= 0 && pf->fd < 0) {
        free(pf);
        return NULL;
    }
    pf->refs = 1;
    return pf;
}

void fsc_piece_file_hold(fsc_piece_file *pf)
{
    __atomic_add_fetch(&pf->refs, 1, __ATOMIC_RELAXED);
}

void fsc_piece_file_release(fsc_piece_file *pf)
{
    if (pf && __atomic_sub_fetch(&pf->refs, 1, __ATOMIC_ACQ_REL) == 0) {
        if (pf->fd >= 0)
            close(pf->fd);
        free(pf);
    }
}

void fsc_item_read_failed(fsc_item *job, int err)
{
    char reason[256];
    if (err == ENOMEM)
        snprintf(reason, sizeof reason, "%s", fsc_strerror(FSC_E_NOMEM));
    else
        snprintf(reason, sizeof reason, "cannot read: %s",
                 err ? strerror(err) : "the file shrank while it was read");
    free(job->data);
    job->data = NULL;
    job->fixed = true;
    job->status = FSC_IN_ERROR;
    free(job->error);
    job->error = fsc_strdup(reason);
}

bool fsc_item_read_piece(fsc_item *job)
{
    if (!job->data && !job->fixed) {
        char *buf = malloc(job->len + 1);
        ssize_t r = buf ? fsc_read_full(job->pf->fd, buf, job->len, (int64_t)job->pf_off) : -1;
        if (r == (ssize_t)job->len) {
            buf[r] = '\0';
            job->data = buf;
        } else {
            free(buf);
            fsc_item_read_failed(job, !buf ? ENOMEM : r < 0 ? errno : 0);
        }
    }
    return !job->fixed;
}

fsc_item *fsc_item_new(const char *path, const char *member)
{
    fsc_item *job = calloc(1, sizeof *job);
    if (!job)
        return NULL;
    job->path = fsc_strdup(path);
    job->member = member ? fsc_strdup(member) : NULL;
    if (!job->path || (member && !job->member)) {
        fsc_item_free(job);
        return NULL;
    }
    return job;
}

/* Forget what job's rendered runs claim (its array stays for reuse). */
static void claims_clear(fsc_item *job)
{
    for (size_t i = 0; i < job->n_claims; i++)
        free(job->claims[i].key);
    job->n_claims = 0;
}

void fsc_item_free(fsc_item *job)
{
    if (!job)
        return;
    for (size_t i = 0; i < job->n_runs; i++) {
        fsc_run_free(job->outs[i].run);
        free(job->outs[i].text);
    }
    free(job->outs);
    claims_clear(job);
    free(job->claims);
    free(job->path);
    free(job->member);
    free(job->data);
    free(job->error);
    fsc_logfile_free(job->log);
    fsc_piece_file_release(job->pf);
    if (job->relay && !job->carry_given)
        fsc_relay_break(job->relay); /* never parsed (a stop): nothing to wait for */
    fsc_relay_release(job->relay);
    fsc_carry_free(job->carry_in);
    free(job);
}

/* fsc_carry_link of a piece: its relay's turn, taken once and kept for a parse
 * again (fsc_item_reparse), given once. */
static const fsc_carry *relay_take(void *ctx)
{
    fsc_item *job = ctx;
    if (!job->carry_taken) {
        job->carry_in = fsc_relay_take(job->relay, job->relay_index);
        job->carry_taken = true;
    }
    return job->carry_in;
}

static void relay_give(void *ctx, fsc_carry *end)
{
    fsc_item *job = ctx;
    if (job->carry_given) {
        fsc_carry_free(end);
        return;
    }
    relay_take(job); /* its turn */
    fsc_relay_give(job->relay, end);
    job->carry_given = true;
}

void fsc_item_relay_pass(fsc_item *job)
{
    if (!job->relay || job->carry_given)
        return;
    /* what it took goes on as it came: a piece with no text of its own (the piece
     * before read on past all of it, fsc_piece_settle) changes nothing of what the
     * text above leaves, and giving nothing dropped the headings in force for every
     * piece after it (a heading above two JSON documents lost at -j 2) */
    relay_take(job);
    fsc_carry *in = job->carry_in;
    job->carry_in = NULL;
    relay_give(job, in);
}

void fsc_item_mark_log(fsc_item *job)
{
    const char *name = job->member ? job->member : job->path;
    job->is_log = name && fsc_log_name_parse(name, &job->logname);
}

/* Read job as a fio log file. False when it turned out not to be one (a document that
 * only carries a log's name): it is then parsed as any other. */
static bool parse_log(fsc_item *job)
{
    fsc_doc doc = {job->path, job->member, job->data ? job->data : "", job->len, job->first_line, 0, NULL, false,
                   FSC_ENC_UTF8, false};
    fsc_logfile *log = fsc_logfile_read(&doc, &job->logname);
    if (!log) {
        job->fixed = true;
        job->status = FSC_IN_ERROR;
        free(job->error);
        job->error = fsc_strdup(fsc_strerror(FSC_E_NOMEM));
        return true;
    }
    if (fsc_logfile_foreign(log) && !job->continued) {
        fsc_logfile_free(log);
        job->is_log = false;
        return false;
    }
    job->log = log;
    job->log_read = true;
    return true;
}

/* 1 for a control byte a text file does not hold: not one of BS, tab, LF, VT, FF, CR
 * (8 to 13) or ESC (terminal captures keep colour escapes and backspaces). Written as
 * compares without branches, which the compiler turns into vector code (a loop with
 * branches cost 4-5 instructions a byte: as much as all the other checks of a file). */
static inline unsigned char stray_control(unsigned char c)
{
    return (unsigned char)((c < 0x20) & ((unsigned char)(c - 8) > 5) & (c != 0x1b));
}

bool fsc_looks_binary(const char *data, size_t len)
{
    const unsigned char *s = (const unsigned char *)data;
    /* NULs are searched in the first 64 KiB (memchr is fast), stray control bytes
     * counted in the first 4 KiB only: enough to tell text from binary */
    size_t n_nul = len < 65536 ? len : 65536, n = len < 4096 ? len : 4096, controls = 0;
    /* UTF-16 text (a Windows redirect) has NULs but a byte order mark: the parser
     * decides what to do with it */
    if (fsc_has_unicode_bom(data, len))
        return false;
    if (memchr(s, 0, n_nul))
        return true;
    /* summed in a byte per 255 bytes: a sum widened to 64 bits at each byte is not
     * vectorized either */
    for (size_t i = 0; i < n;) {
        size_t m = n - i < 255 ? n - i : 255;
        unsigned char sum = 0;
        for (size_t k = 0; k < m; k++)
            sum += stray_control(s[i + k]);
        controls += sum;
        i += m;
    }
    return controls * 10 > n;
}

/* A text log can hold NULs (a crash leaves zero-filled blocks, a capture a stray one):
 * data that looked binary is text after all when other control bytes are rare in its
 * first 64 KiB (at most 1 in 64 of the non-NUL bytes) and its NULs are not those of
 * UTF-16 without a byte order mark (a quarter or more of the bytes, nearly all at
 * even or nearly all at odd offsets). */
bool fsc_text_despite_nuls(const char *data, size_t len)
{
    const unsigned char *s = (const unsigned char *)data;
    size_t n = len < 65536 ? len : 65536, nuls[2] = {0, 0}, controls = 0;
    for (size_t i = 0; i < n; i++)
        if (s[i] == 0)
            nuls[i & 1]++;
        else
            controls += stray_control(s[i]);
    size_t all = nuls[0] + nuls[1];
    bool utf16 = all * 4 >= n && (nuls[0] * 10 < nuls[1] || nuls[1] * 10 < nuls[0]);
    return !utf16 && controls * 64 <= n - all;
}

bool fsc_has_unicode_bom(const char *data, size_t len)
{
    const unsigned char *s = (const unsigned char *)data;
    return (len >= 2 && ((s[0] == 0xff && s[1] == 0xfe) || (s[0] == 0xfe && s[1] == 0xff))) ||
           (len >= 4 && !s[0] && !s[1] && s[2] == 0xfe && s[3] == 0xff);
}

/* UTF-32 without a byte order mark, little or big endian: in the first 64 KiB the
 * top byte of every 4-byte unit is zero (no code point is above U+10FFFF), the next
 * one nearly always (text beyond the BMP is rare), the low byte nearly never. A zero-
 * filled block fails the last test, UTF-16 the second. Returns its name, or NULL. */
bool fsc_only_nuls(const char *s, size_t n)
{
    return n && s[0] == '\0' && memcmp(s, s + 1, n - 1) == 0;
}

bool fsc_text_in_pieces(const char *data, size_t len)
{
    return !fsc_has_unicode_bom(data, len) && fsc_unicode_unmarked(data, len) == FSC_ENC_UTF8 &&
           (!fsc_looks_binary(data, len) || (fsc_text_despite_nuls(data, len) && !fsc_only_nuls(data, len)));
}

/* Led by the '{' bytes, which fio's text hardly has, rather than by its lines: walking
 * every line of each archive member's first 64 KiB cost a twentieth of the CPU of a
 * .tar.zst of fio text. */
bool fsc_text_holds_json(const char *data, size_t len)
{
    const char *end = data + (len < LOOK_BYTES ? len : LOOK_BYTES), *p = data;
    const char *brace;
    while ((brace = memchr(p, '{', (size_t)(end - p))) != NULL) {
        const char *b = brace;
        while (b > data && (b[-1] == ' ' || b[-1] == '\t'))
            b--;
        if (b == data || b[-1] == '\n') { /* the first byte of its line but blanks */
            const char *q = brace + 1;
            while (q < end && (*q == ' ' || *q == '\t' || *q == '\r' || *q == '\n'))
                q++;
            if (q < end && *q == '"')
                return true;
        }
        p = brace + 1;
    }
    return false;
}

const char *fsc_looks_utf32(const char *data, size_t len)
{
    const unsigned char *s = (const unsigned char *)data;
    size_t n = (len < 65536 ? len : 65536) & ~(size_t)3;
    if (fsc_has_unicode_bom(data, len))
        return NULL;
    for (int big = 0; big < 2 && n >= 16; big++) {
        size_t high = 0, low = 0, i = 0;
        /* a top byte that is not zero ends the look at once: in UTF-8 or ASCII text
         * the first unit has one (counting all 64 KiB twice cost a tenth of the CPU
         * of a folder of 64 KiB files) */
        for (; i < n && !s[i + (big ? 0 : 3)]; i += 4) {
            high += s[i + (big ? 1 : 2)] != 0;
            low += s[i + (big ? 3 : 0)] != 0;
        }
        if (i == n && high * 20 < n / 4 && low * 10 > 9 * (n / 4))
            return big ? "UTF-32BE" : "UTF-32LE";
    }
    return NULL;
}

/* UTF-16 without a byte order mark, little endian (hi = 1: the high byte of a unit
 * is its second) or big: in the first 64 KiB at least three in four units have a
 * zero high byte (text that is mostly ASCII, as fio's is), and hardly any a zero low
 * byte (a NUL char). UTF-32 fails the second test (half its low bytes, as a pair,
 * are zero), a zero-filled block too. */
static bool utf16_order(const unsigned char *s, size_t n, int hi)
{
    size_t units = n / 2, high = 0, low = 0;
    for (size_t i = 0; i + 1 < n; i += 2) {
        high += s[i + hi] == 0;
        low += s[i + 1 - hi] == 0;
    }
    return units >= 8 && high * 4 >= units * 3 && low * 64 <= units;
}

fsc_encoding fsc_unicode_unmarked(const char *data, size_t len)
{
    const char *utf32 = fsc_looks_utf32(data, len);
    if (utf32)
        return utf32[7] == 'B' ? FSC_ENC_UTF32BE : FSC_ENC_UTF32LE;
    const unsigned char *s = (const unsigned char *)data;
    size_t n = len < 65536 ? len : 65536;
    if (fsc_has_unicode_bom(data, len) || !memchr(s, 0, n))
        return FSC_ENC_UTF8;
    if (utf16_order(s, n, 1))
        return FSC_ENC_UTF16LE;
    /* a slice of little-endian text that begins at an odd byte reads as big endian */
    if (utf16_order(s, n, 0))
        return FSC_ENC_UTF16BE;
    return FSC_ENC_UTF8;
}

/* Bytes of results a streamed document gathers before the delivering thread is woken
 * to pass them on (one wake per run would cost more than the writing). */
#define STREAM_WAKE_BYTES ((size_t)256 << 10)

/* The out just added to a streamed job is complete: the delivering thread may take it
 * (len: its bytes, or 0 for a run kept whole). */
static void publish(fsc_item *job, size_t len)
{
    if (!job->stream_mu)
        return;
    pthread_mutex_lock(job->stream_mu);
    job->n_ready = job->n_runs;
    job->unsent_bytes += len ? len : 4096;
    if (job->unsent_bytes >= STREAM_WAKE_BYTES) {
        job->unsent_bytes = 0;
        pthread_cond_signal(job->stream_cv);
    }
    pthread_mutex_unlock(job->stream_mu);
}

/* Render job's out k, a run, on this thread (the run is freed once rendered: what the
 * document holds is the text). The render runs with the document's budget in use:
 * the text it leaves is charged here; the run's bytes are given back by the render's
 * fsc_run_free, which counts them as it frees them (cmd_parse.c's render writes with
 * no budget in use, its growing buffers are not charged). False when memory ran out:
 * the out is then empty. */
static bool render_out(fsc_item *job, size_t k)
{
    struct fsc_item_out *o = &job->outs[k];
    fsc_run *run = o->run;
    o->run = NULL;
    o->text = job->sink->render(job->sink->ctx, run, &o->len);
    if (!o->text || !fsc_budget_charge(o->len)) {
        free(o->text);
        o->text = NULL;
        return false;
    }
    return true;
}

static bool collect_run(void *ctx, fsc_run *run)
{
    fsc_item *job = ctx;
    /* the delivering thread may be reading the outs before n_ready: the array moves
     * under the lock only */
    if (job->stream_mu)
        pthread_mutex_lock(job->stream_mu);
    struct fsc_item_out *slot = FSC_PUSH(job->outs, job->n_runs, job->cap_runs);
    if (job->stream_mu)
        pthread_mutex_unlock(job->stream_mu);
    if (!slot) {
        fsc_run_free(run);
        return false;
    }
    *slot = (struct fsc_item_out){run, NULL, 0};
    job->warnings += run->n_warnings;
    /* A run held with its folder may still receive log series: it is rendered when
     * delivered (a folder is grouped only when it has logs). An archive is grouped
     * whether or not it has any; its runs are rendered here, on the worker, with the
     * names they claim kept: the few that a log joins are parsed again. Not those of
     * a member read in pieces: a piece is not parsed again (its headings came from
     * the piece before), and its group lets it go with the next piece (pipe.c). */
    bool held = job->group && (!job->member || job->keep_runs);
    bool piece = job->continued || job->more;
    bool render = job->sink && job->sink->render && !held;
    /* Two runs of a piece stay runs until delivered, to be told the notes of other
     * pieces (pipe.c tell_carried), which are not known yet when it is parsed: its
     * first, below what pieces before it held, and its last, above what pieces after
     * it hold (the newest run of a piece that more of the file follows; the one before
     * it is rendered now, unless it is the first). */
    bool first_below = job->continued && job->n_runs == 1;
    if (render && job->more && job->n_runs >= 2 && !(job->continued && job->n_runs == 2) &&
        !render_out(job, job->n_runs - 2)) {
        job->outs[job->n_runs - 2] = job->outs[job->n_runs - 1];
        job->n_runs--;
        return false;
    }
    if (render && !first_below && !job->more) {
        if (job->group && !piece && !fsc_item_note_claims(job, job->n_runs - 1, run)) {
            fsc_run_free(run);
            job->n_runs--;
            return false;
        }
        if (!render_out(job, job->n_runs - 1)) {
            job->n_runs--;
            return false;
        }
    }
    publish(job, slot->len);
    return true;
}

static void job_fail(fsc_item *job, const char *reason)
{
    job->fixed = true;
    job->status = FSC_IN_ERROR;
    free(job->error);
    job->error = fsc_strdup(reason);
}

/* FIOSCOPE_SHOW_MEMORY=1: what each document cost its budget, to choose --max-memory. */
static void show_memory(const fsc_item *job, const fsc_budget *b)
{
    fsc_buf line = {0};
    fsc_buf_puts(&line, "fioscope: ");
    fsc_esc_diag(&line, job->path);
    if (job->member) {
        fsc_buf_puts(&line, ": ");
        fsc_esc_diag(&line, job->member);
    }
    fsc_buf_printf(&line, ": memory: %zu bytes of text, at most %llu bytes charged\n", job->len,
                   (unsigned long long)b->peak);
    if (!line.oom)
        fputs(line.data, stderr);
    fsc_buf_free(&line);
}

/* Parse job->data into job->outs, within the job's memory budget. */
static fsc_status parse_runs(fsc_item *job, const fsc_parser *parser, char **why, bool *exceeded)
{
    fsc_carry_link link = {relay_take, relay_give, job};
    /* a text read in pieces was judged by its reader: no UTF-16 or UTF-32 (fsc_text_in_pieces) */
    fsc_encoding enc = job->continued || job->more || job->judged_text ? FSC_ENC_UTF8
                                                                        : fsc_unicode_unmarked(job->data, job->len);
    fsc_doc doc = {job->path, job->member, job->data, job->len, job->first_line, job->first_run,
                   job->relay ? &link : NULL, job->more, enc, job->checked};
    size_t n = 0;
    /* the document's bytes are its own already; then all it allocates is charged */
    fsc_budget budget = {job->max_memory, job->len, job->len, false};
    fsc_budget *outer = fsc_budget_use(&budget);
    fsc_status st = fsc_parse_doc_why(parser, &doc, collect_run, job, &n, why);
    fsc_budget_use(outer);
    if (getenv("FIOSCOPE_SHOW_MEMORY") && !job->keep_runs)
        show_memory(job, &budget);
    *exceeded = budget.exceeded;
    return st == FSC_E_INTERRUPTED ? FSC_E_NOMEM : st; /* only collect_run stops it */
}

void fsc_item_parse(fsc_item *job, const fsc_parser *parser)
{
    if (job->fixed) {
        fsc_item_relay_pass(job);
        return;
    }
    if (job->is_log && parse_log(job)) {
        /* read; the log joins its run when its group is complete */
    } else if (job->len == 0 && job->continued) {
        /* the end of a file read in pieces: nothing left to parse */
    } else if (job->len == 0) {
        job->fixed = true;
        job->status = FSC_IN_NO_RUNS;
        job->error = fsc_strdup("empty file");
    } else if (!job->continued && !job->more && !job->judged_text && fsc_looks_binary(job->data, job->len) &&
               !fsc_text_despite_nuls(job->data, job->len) &&
               fsc_unicode_unmarked(job->data, job->len) == FSC_ENC_UTF8) {
        /* (a text in pieces was judged by its reader on its first 64 KiB, as the whole
         * is here: fsc_text_in_pieces; its first piece may be shorter). UTF-16 and
         * UTF-32 without a byte order mark are read (parse_runs). */
        job_fail(job, FSC_BINARY_DATA);
    } else {
        char *why = NULL;
        bool exceeded = false;
        fsc_status st = parse_runs(job, parser, &why, &exceeded);
        if (exceeded) {
            char reason[200];
            /* in the unit the budget was given in: --max-memory=600K is not "0 MiB" */
            bool mib = job->max_memory % ((uint64_t)1 << 20) == 0;
            snprintf(reason, sizeof reason,
                     "memory budget exceeded: parsing it needs more than %llu %s "
                     "(--max-memory=SIZE raises the budget)",
                     (unsigned long long)(job->max_memory >> (mib ? 20 : 10)), mib ? "MiB" : "KiB");
            job_fail(job, reason);
        } else if (st != FSC_OK) {
            job_fail(job, fsc_strerror(st));
        } else if (why && !job->error) { /* no run: the manifest says what was there */
            job->error = why;
            why = NULL;
        }
        free(why);
    }
    fsc_item_relay_pass(job); /* a log, an empty last piece, an error */
    if (job->fixed) /* a failed document's runs go out as they are */
        claims_clear(job);
    if (!job->n_claims) {
        free(job->data);
        job->data = NULL;
    }
}

fsc_status fsc_item_reparse(fsc_item *job, const fsc_parser *parser)
{
    if (job->over_budget) /* once is enough: the same document gives the same runs */
        return FSC_E_LIMIT;
    if (!job->data) /* kept whenever there are claims */
        return FSC_E_NOMEM;
    /* the rendered runs stay until the runs are back: a parse that fails (its budget:
     * runs kept whole take more than runs rendered one by one) changes nothing */
    struct fsc_item_out *rendered = job->outs;
    size_t had = job->n_runs, cap = job->cap_runs, warnings = job->warnings;
    job->outs = NULL;
    job->n_runs = job->cap_runs = job->warnings = 0;
    job->keep_runs = true;
    char *why = NULL;
    bool exceeded = false;
    fsc_status st = parse_runs(job, parser, &why, &exceeded);
    free(why);
    if (exceeded || (st == FSC_OK && job->n_runs != had))
        st = FSC_E_LIMIT; /* the allocation the budget refused fails as out of memory */
    struct fsc_item_out *drop = st == FSC_OK ? rendered : job->outs;
    size_t n_drop = st == FSC_OK ? had : job->n_runs;
    for (size_t i = 0; i < n_drop; i++) {
        fsc_run_free(drop[i].run);
        free(drop[i].text);
    }
    free(drop);
    if (st != FSC_OK) {
        job->outs = rendered;
        job->n_runs = had;
        job->cap_runs = cap;
        job->warnings = warnings;
        job->keep_runs = false;
        job->over_budget = st == FSC_E_LIMIT;
        return st;
    }
    free(job->data);
    job->data = NULL;
    return FSC_OK;
}
