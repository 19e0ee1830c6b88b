/* SPDX-License-Identifier: MIT */
/* One document in flight: its bytes, the runs parsed from it and its manifest status. */
#include "input_int.h"

#include <stdlib.h>
#include <string.h>

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

void fsc_item_free(fsc_item *job)
{
    if (!job)
        return;
    for (size_t i = 0; i < job->n_runs; i++) {
        fsc_run_free(job->outs[i].run);
        free(job->outs[i].text);
    }
    free(job->outs);
    free(job->path);
    free(job->member);
    free(job->data);
    free(job->error);
    fsc_logfile_free(job->log);
    free(job);
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
    fsc_doc doc = {job->path, job->member, job->data ? job->data : "", job->len, job->first_line, 0};
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

/* Bytes a text file may hold besides printable ones: tab, LF, VT, FF, CR, BS, ESC
 * (terminal captures keep colour escapes and backspaces). */
static bool is_text_control(unsigned char c)
{
    return c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r' || c == '\b' || c == 0x1b;
}

bool fsc_looks_binary(const char *data, size_t len)
{
    const unsigned char *s = (const unsigned char *)data;
    /* NULs are searched in the first 64 KiB (memchr is fast), stray control bytes
     * counted in the first 4 KiB only: enough to tell text from binary */
    size_t n_nul = len < 65536 ? len : 65536, n = len < 4096 ? len : 4096, controls = 0;
    /* UTF-16 text (a Windows redirect) has NULs but a byte order mark: the parser
     * decides what to do with it */
    if (n >= 2 && ((s[0] == 0xff && s[1] == 0xfe) || (s[0] == 0xfe && s[1] == 0xff)))
        return false;
    if (memchr(s, 0, n_nul))
        return true;
    for (size_t i = 0; i < n; i++)
        if (s[i] < 0x20 && !is_text_control(s[i]))
            controls++;
    return controls * 10 > n;
}

/* A text log can hold NULs (a crash leaves zero-filled blocks, a capture a stray one):
 * data that looked binary is text after all when other control bytes are rare in its
 * first 64 KiB (at most 1 in 64 of the non-NUL bytes) and its NULs are not those of
 * UTF-16 without a byte order mark (a quarter or more of the bytes, nearly all at
 * even or nearly all at odd offsets). */
static bool text_despite_nuls(const char *data, size_t len)
{
    const unsigned char *s = (const unsigned char *)data;
    size_t n = len < 65536 ? len : 65536, nuls[2] = {0, 0}, controls = 0;
    for (size_t i = 0; i < n; i++)
        if (s[i] == 0)
            nuls[i & 1]++;
        else if (s[i] < 0x20 && !is_text_control(s[i]))
            controls++;
    size_t all = nuls[0] + nuls[1];
    bool utf16 = all * 4 >= n && (nuls[0] * 10 < nuls[1] || nuls[1] * 10 < nuls[0]);
    return !utf16 && controls * 64 <= n - all;
}

static bool collect_run(void *ctx, fsc_run *run)
{
    fsc_item *job = ctx;
    struct fsc_item_out *slot = FSC_PUSH(job->outs, job->n_runs, job->cap_runs);
    if (!slot) {
        fsc_run_free(run);
        return false;
    }
    *slot = (struct fsc_item_out){run, NULL, 0};
    job->warnings += run->n_warnings;
    /* a held run may still receive log series: it is rendered when delivered */
    if (job->sink && job->sink->render && !job->group) {
        slot->run = NULL;
        slot->text = job->sink->render(job->sink->ctx, run, &slot->len);
        if (!slot->text) {
            job->n_runs--;
            return false;
        }
    }
    return true;
}

static void job_fail(fsc_item *job, const char *reason)
{
    job->fixed = true;
    job->status = FSC_IN_ERROR;
    free(job->error);
    job->error = fsc_strdup(reason);
}

void fsc_item_parse(fsc_item *job, const fsc_parser *parser)
{
    if (job->fixed)
        return;
    if (job->is_log && parse_log(job)) {
        /* read; the log joins its run when its group is complete */
    } else if (job->len == 0 && job->continued) {
        /* the end of a file read in pieces: nothing left to parse */
    } else if (job->len == 0) {
        job->fixed = true;
        job->status = FSC_IN_NO_RUNS;
        job->error = fsc_strdup("empty file");
    } else if (!job->continued && fsc_looks_binary(job->data, job->len) &&
               !text_despite_nuls(job->data, job->len)) {
        job_fail(job, "binary data: neither text nor a known archive or compressed format");
    } else {
        fsc_doc doc = {job->path, job->member, job->data, job->len, job->first_line, job->first_run};
        size_t n = 0;
        char *why = NULL;
        fsc_status st = fsc_parse_doc_why(parser, &doc, collect_run, job, &n, &why);
        if (st == FSC_E_INTERRUPTED) /* only collect_run stops it: out of memory */
            st = FSC_E_NOMEM;
        if (st != FSC_OK) {
            job_fail(job, fsc_strerror(st));
        } else if (why && !job->error) { /* no run: the manifest says what was there */
            job->error = why;
            why = NULL;
        }
        free(why);
    }
    free(job->data);
    job->data = NULL;
}
