/* SPDX-License-Identifier: MIT */
/*
 * A mail's attached archives: fio logs sent as logs.tar.gz, runs.zip or fio.log.xz,
 * a base64 part each (a mailing-list post, a bug report forwarded, a thread's mbox).
 * The mail's text goes on to the parser as it is (its text parts, base64 ones too,
 * are normalize.c's); each base64 part that decodes to an archive or a compressed
 * file is opened as a member of the mail, named by its file name, as a member of a
 * tar is ("thread.mbox: logs.tar.gz/run1.txt"). Only a document that begins as a
 * mail or an mbox is looked into; parts of other kinds (an image, a text) are not
 * members.
 */
#include "input_int.h"

#include "fioscope/base64.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

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

/* One base64 body: its lines from *at, as far as they are base64. Returns the
 * bytes it holds (NULL: not an archive, or out of memory: *oom). */
static char *archive_body(const char *data, size_t len, size_t *at, size_t *out_len, bool *oom)
{
    size_t i = *at, start, chars = 0, lines = 0;
    /* blank lines before it */
    while (i < len && (data[i] == '\n' || (data[i] == '\r' && i + 1 < len && data[i + 1] == '\n')))
        i += data[i] == '\r' ? 2 : 1;
    start = i;
    while (i < len) {
        const char *nl = memchr(data + i, '\n', len - i);
        size_t e = nl ? (size_t)(nl - data) : len, bn = fsc_b64_line(data + i, e - i);
        if (!bn)
            break;
        chars += bn;
        lines++;
        i = nl ? e + 1 : len;
    }
    *at = i;
    if (!lines)
        return NULL;
    unsigned char head[SNIFF_LINES * 96];
    size_t hn = 0, p = start;
    for (size_t l = 0; l < lines && l < SNIFF_LINES; l++) {
        const char *nl = memchr(data + p, '\n', len - p);
        size_t e = nl ? (size_t)(nl - data) : len, bn = fsc_b64_line(data + p, e - p);
        if (hn + bn / 4 * 3 > sizeof head)
            break;
        hn += fsc_b64_decode(data + p, bn, head + hn);
        p = e + 1;
    }
    if (!fsc_is_archive_magic(head, hn) && !fsc_unread_archive(head, hn))
        return NULL;
    char *buf = malloc(chars / 4 * 3 + 1);
    if (!buf) {
        *oom = true;
        return NULL;
    }
    size_t k = 0;
    for (p = start; p < i;) {
        const char *nl = memchr(data + p, '\n', len - p);
        size_t e = nl ? (size_t)(nl - data) : len;
        k += fsc_b64_decode(data + p, fsc_b64_line(data + p, e - p), (unsigned char *)buf + k);
        p = nl ? e + 1 : len;
    }
    buf[k] = '\0';
    *out_len = k;
    return buf;
}

size_t fsc_mail_archives(const char *data, size_t len, fsc_mail_archive **out)
{
    *out = NULL;
    if (!mail_start(data, len))
        return 0;
    fsc_mail_archive *list = NULL;
    size_t n = 0, cap = 0, parts = 0;
    bool b64 = false, header = false, oom = false;
    char name[NAME_MAX_LEN + 1] = "";
    for (size_t i = 0; i < len && !oom;) {
        const char *nl = memchr(data + i, '\n', len - i);
        size_t e = nl ? (size_t)(nl - data) : len, ln = e - i;
        const char *s = data + i;
        i = nl ? e + 1 : len;
        if (ln && s[ln - 1] == '\r')
            ln--;
        if (!ln) { /* a header block ends: a base64 attachment's body may begin */
            if (b64) {
                size_t blen = 0;
                char *body = archive_body(data, len, &i, &blen, &oom);
                parts++;
                if (body) {
                    fsc_mail_archive *a = FSC_PUSH(list, n, cap);
                    if (!a) {
                        free(body);
                        oom = true;
                        break;
                    }
                    a->data = body;
                    a->len = blen;
                    if (name[0])
                        snprintf(a->name, sizeof a->name, "%s", name);
                    else
                        snprintf(a->name, sizeof a->name, "attachment-%zu", parts);
                }
            }
            b64 = header = false;
            name[0] = '\0';
            continue;
        }
        if (header_is(s, ln, "Content-")) {
            header = true;
            if (header_is(s, ln, "Content-Transfer-Encoding:"))
                b64 = has_ci(s, ln, "base64");
            else if (!name[0] || header_is(s, ln, "Content-Disposition:"))
                param_name(s, ln, name, sizeof name);
        } else if (header && (s[0] == ' ' || s[0] == '\t')) { /* a header continued */
            if (!name[0])
                param_name(s, ln, name, sizeof name);
        } else {
            header = false;
        }
    }
    if (oom) {
        for (size_t k = 0; k < n; k++)
            free(list[k].data);
        free(list);
        return 0;
    }
    *out = list;
    return n;
}
