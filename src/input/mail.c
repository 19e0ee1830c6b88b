/* SPDX-License-Identifier: MIT */
/*
 * A mail's attached archives: fio logs sent as logs.tar.gz, runs.zip or fio.log.xz,
 * a base64 part each (a mailing-list post, a bug report forwarded, a thread's mbox).
 * The mail's text goes on to the parser as it is (its text parts, base64 ones too,
 * are normalize.c's); each base64 part that decodes to an archive or a compressed
 * file is opened as a member of the mail, named by its file name, as a member of a
 * tar is ("thread.mbox: logs.tar.gz/run1.txt"). Only a document that begins as a
 * mail or an mbox is looked into; parts of other kinds (an image, a text) are not
 * members. A mailbox too big to be read whole is read part by part with the same
 * line scanner, so that it has the same members.
 */
#include "input_int.h"

#include "fioscope/base64.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/types.h>

enum { NAME_MAX_LEN = 200, SNIFF_LINES = 10 };

/* Does s[0, n) hold lit (case aside)? */
static bool has_ci(const char *s, size_t n, const char *lit)
{
    size_t k = strlen(lit);
    for (size_t i = 0; i + k <= n; i++)
        if (!strncasecmp(s + i, lit, k))
            return true;
    return false;
}

/* Does line s[0, n) begin with the header name h (case aside, its ':' included)? */
static bool header_is(const char *s, size_t n, const char *h)
{
    size_t k = strlen(h);
    return n >= k && !strncasecmp(s, h, k);
}

/* Does the document begin as a mail: an mbox's "From " line or one of the headers a
 * mail begins with? */
static bool mail_start(const char *s, size_t n)
{
    static const char *const first[] = {"Return-Path:", "Received:", "Delivered-To:", "From:",
                                        "To:", "Subject:", "Date:", "Message-ID:", "MIME-Version:",
                                        "Content-Type:", "Reply-To:", "Sender:", "X-", "ARC-",
                                        "DKIM-Signature:", "Authentication-Results:", "In-Reply-To:",
                                        "References:", "Envelope-To:", "Cc:"};
    size_t i = n >= 3 && !memcmp(s, "\xEF\xBB\xBF", 3) ? 3 : 0;
    while (i < n && (s[i] == '\n' || s[i] == '\r'))
        i++;
    if (n - i >= 5 && !memcmp(s + i, "From ", 5))
        return true;
    for (size_t k = 0; k < FSC_ARRAY_SIZE(first); k++)
        if (header_is(s + i, n - i, first[k]))
            return true;
    return false;
}

/* The value of the parameter "name=" (or "filename=", RFC 2231's "name*=" without
 * its charset and language) on a header line, quoted or not, into out. */
static bool param_name(const char *s, size_t n, char *out, size_t cap)
{
    for (size_t i = 0; i + 5 <= n; i++) {
        bool after_word = i && s[i - 1] != ' ' && s[i - 1] != ';' && s[i - 1] != '\t';
        if (strncasecmp(s + i, "name", 4) || (after_word && (i < 4 || strncasecmp(s + i - 4, "file", 4))))
            continue;
        size_t j = i + 4;
        if (j < n && s[j] == '*')
            j++;
        if (j >= n || s[j] != '=')
            continue;
        j++;
        bool star = s[j - 2] == '*'; /* RFC 2231: charset'language'value, %XX escapes */
        if (star) {
            const char *q = memchr(s + j, '\'', n - j);
            const char *q2 = q ? memchr(q + 1, '\'', (size_t)(s + n - q - 1)) : NULL;
            if (q2)
                j = (size_t)(q2 + 1 - s);
        }
        bool quoted = j < n && s[j] == '"';
        j += quoted;
        size_t k = 0;
        for (; j < n && k + 1 < cap && (quoted ? s[j] != '"' : s[j] != ';' && s[j] != ' ' && s[j] != '\r'); j++) {
            int hi, lo;
            char c = s[j];
            if (star && c == '%' && j + 2 < n && (hi = fsc_hex_digit((unsigned char)s[j + 1])) >= 0 &&
                (lo = fsc_hex_digit((unsigned char)s[j + 2])) >= 0) {
                c = (char)(hi * 16 + lo);
                j += 2;
            }
            out[k++] = c == '/' || !c ? '_' : c; /* a name, not a path */
        }
        out[k] = '\0';
        return k > 0;
    }
    return false;
}

/* The scanner of a mail's lines, fed one at a time, so that a mail read whole and one
 * read part by part (a mailbox too big to be read whole) find the same parts. A part
 * whose headers say base64 begins after the blank line that ends them (and any more
 * blank lines); its body is the base64 lines that follow. The first SNIFF_LINES of them
 * (as many as fit the head) tell whether it is an archive; while it may be one, the
 * body is decoded as it comes. */
typedef enum { OUT_OF_BODY, BEFORE_BODY, IN_BODY } body_state;

typedef struct mail_scan {
    fsc_mail_archive_fn fn; /* gets each archive (and its data) */
    void *ctx;
    bool b64, header, oom, stop;
    char name[NAME_MAX_LEN + 1];
    size_t parts;
    body_state at;
    size_t lines; /* of the body so far */
    unsigned char head[SNIFF_LINES * 96];
    size_t hn;
    bool head_done;
    int archive; /* -1 not known yet, 0 no, 1 yes */
    char *buf;   /* the body decoded while it may be an archive */
    size_t blen, bcap;
} mail_scan;

static void scan_init(mail_scan *m, fsc_mail_archive_fn fn, void *ctx)
{
    memset(m, 0, sizeof *m);
    m->fn = fn;
    m->ctx = ctx;
}

static void decide(mail_scan *m)
{
    if (m->archive < 0)
        m->archive = fsc_is_archive_magic(m->head, m->hn) || fsc_unread_archive(m->head, m->hn);
    if (!m->archive) {
        free(m->buf);
        m->buf = NULL;
        m->blen = m->bcap = 0;
    }
}

static void body_line(mail_scan *m, const char *s, size_t bn)
{
    m->lines++;
    if (!m->head_done) {
        if (m->hn + bn / 4 * 3 > sizeof m->head)
            m->head_done = true;
        else
            m->hn += fsc_b64_decode(s, bn, m->head + m->hn);
        if (m->lines == SNIFF_LINES)
            m->head_done = true;
        if (m->head_done)
            decide(m);
    }
    if (!m->archive)
        return;
    if (m->blen + bn / 4 * 3 + 1 > m->bcap) {
        size_t cap = m->bcap ? m->bcap : 4096;
        while (cap < m->blen + bn / 4 * 3 + 1)
            cap *= 2;
        char *b = realloc(m->buf, cap);
        if (!b) {
            m->oom = true;
            return;
        }
        m->buf = b;
        m->bcap = cap;
    }
    m->blen += fsc_b64_decode(s, bn, (unsigned char *)m->buf + m->blen);
}

/* The body is over: an archive goes to fn. */
static void body_end(mail_scan *m)
{
    m->parts++;
    if (m->lines && !m->oom)
        decide(m);
    if (m->lines && !m->oom && m->archive == 1 && m->buf) {
        fsc_mail_archive a = {m->buf, m->blen, ""};
        m->buf[m->blen] = '\0';
        if (m->name[0])
            snprintf(a.name, sizeof a.name, "%s", m->name);
        else
            snprintf(a.name, sizeof a.name, "attachment-%zu", m->parts);
        m->buf = NULL;
        m->stop = !m->fn(m->ctx, &a);
    }
    free(m->buf);
    m->buf = NULL;
    m->blen = m->bcap = m->lines = m->hn = 0;
    m->head_done = false;
    m->archive = -1;
    m->at = OUT_OF_BODY;
    m->name[0] = '\0';
}

/* One line s[0, n), its newline left out. */
static void feed_line(mail_scan *m, const char *s, size_t n)
{
    if (m->at == BEFORE_BODY) {
        if (!n || (n == 1 && s[0] == '\r'))
            return;
        m->at = IN_BODY;
    }
    if (m->at == IN_BODY) {
        size_t bn = fsc_b64_line(s, n);
        if (bn) {
            body_line(m, s, bn);
            return;
        }
        body_end(m);
    }
    size_t ln = n && s[n - 1] == '\r' ? n - 1 : n;
    if (!ln) { /* a header block ends: a base64 attachment's body may begin */
        if (m->b64) {
            m->at = BEFORE_BODY;
            m->archive = -1;
        } else {
            m->name[0] = '\0';
        }
        m->b64 = m->header = false;
        return;
    }
    if (header_is(s, ln, "Content-")) {
        m->header = true;
        if (header_is(s, ln, "Content-Transfer-Encoding:"))
            m->b64 = has_ci(s, ln, "base64");
        else if (!m->name[0] || header_is(s, ln, "Content-Disposition:"))
            param_name(s, ln, m->name, sizeof m->name);
    } else if (m->header && (s[0] == ' ' || s[0] == '\t')) { /* a header continued */
        if (!m->name[0])
            param_name(s, ln, m->name, sizeof m->name);
    } else {
        m->header = false;
    }
}

static void scan_finish(mail_scan *m)
{
    if (m->at != OUT_OF_BODY && !m->stop)
        body_end(m);
    free(m->buf);
    m->buf = NULL;
}

bool fsc_mail_start(const char *s, size_t n)
{
    return mail_start(s, n);
}

typedef struct collected {
    fsc_mail_archive *list;
    size_t n, cap;
    bool oom;
} collected;

static bool collect(void *ctx, fsc_mail_archive *a)
{
    collected *c = ctx;
    fsc_mail_archive *slot = FSC_PUSH(c->list, c->n, c->cap);
    if (!slot) {
        free(a->data);
        c->oom = true;
        return false;
    }
    *slot = *a;
    return true;
}

size_t fsc_mail_archives(const char *data, size_t len, fsc_mail_archive **out)
{
    *out = NULL;
    if (!mail_start(data, len))
        return 0;
    collected c = {0};
    mail_scan m;
    scan_init(&m, collect, &c);
    for (size_t i = 0; i < len && !m.oom && !m.stop;) {
        const char *nl = memchr(data + i, '\n', len - i);
        size_t e = nl ? (size_t)(nl - data) : len;
        feed_line(&m, data + i, e - i);
        i = nl ? e + 1 : len;
    }
    scan_finish(&m);
    if (m.oom || c.oom) {
        for (size_t k = 0; k < c.n; k++)
            free(c.list[k].data);
        free(c.list);
        return 0;
    }
    *out = c.list;
    return c.n;
}

/* The parts of a file are read through a buffer of this size; a longer line is read
 * as its first PART_BYTES (no header or base64 line of a mail is near that long). */
enum { PART_BYTES = 1 << 20 };

bool fsc_mail_archives_file(int fd, uint64_t size, fsc_mail_archive_fn fn, void *ctx, bool *oom)
{
    *oom = false;
    char *buf = malloc(PART_BYTES);
    if (!buf) {
        *oom = true;
        return true;
    }
    mail_scan m;
    scan_init(&m, fn, ctx);
    size_t have = 0;
    uint64_t off = 0;
    bool ok = true, skipping = false, first = true;
    while (!m.oom && !m.stop) {
        size_t want = PART_BYTES - have;
        if (want > size - off)
            want = (size_t)(size - off);
        ssize_t r = want ? fsc_read_full(fd, buf + have, want, (int64_t)off) : 0;
        if (r < 0) {
            ok = false;
            break;
        }
        off += (uint64_t)r;
        have += (size_t)r;
        if (first && !mail_start(buf, have))
            break;
        first = false;
        size_t i = 0;
        for (const char *nl; i < have && (nl = memchr(buf + i, '\n', have - i)) && !m.oom && !m.stop;) {
            size_t e = (size_t)(nl - buf);
            if (!skipping)
                feed_line(&m, buf + i, e - i);
            skipping = false;
            i = e + 1;
        }
        if (r == 0) { /* the end: the last line has no newline */
            if (i < have && !skipping)
                feed_line(&m, buf + i, have - i);
            break;
        }
        if (i == 0 && have == PART_BYTES) { /* a line longer than the buffer */
            if (!skipping)
                feed_line(&m, buf, have);
            skipping = true;
            have = 0;
            continue;
        }
        memmove(buf, buf + i, have - i);
        have -= i;
    }
    scan_finish(&m);
    free(buf);
    *oom = m.oom;
    return ok;
}
