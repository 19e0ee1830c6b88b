/* SPDX-License-Identifier: MIT */
/*
 * base64 bodies of a mail's MIME parts (RFC 2045, 6.8). A fio log attached to a
 * mail is often sent so: Gmail and Outlook encode a text attachment (or the
 * whole body) with a UTF-8 charset in base64, and a mailing-list archive (an
 * mbox, an .eml, a thread's mbox.gz) keeps it that way. Its lines, 76
 * characters of the alphabet each, hold the text three bytes for four; they are
 * decoded here, a line at a time, into the text's own lines. Each decoded line
 * is numbered with the encoded line its first byte came from, so a run's lines
 * point into the mail where it is encoded.
 *
 * A line is taken as base64 only when all of it is: the alphabet, a multiple of
 * four characters, '=' padding at its end alone. The first line that is not
 * (the blank line before the next part's boundary) ends the body. A part that
 * decodes to something other than text (an image, a compressed file, UTF-16) is
 * left as it is.
 *
 * Written here rather than taken from a library: the lines are judged one by
 * one as the mail is read (a mangled mail's body may end anywhere), which a
 * decoder of a whole buffer (nettle's, GMime's) does not do.
 */
#include "parse_int.h"

#include "fioscope/base64.h"

#include <ctype.h>
#include <string.h>

bool fsc_b64_text_start(const char *s, size_t n)
{
    unsigned char b[96];
    if (n > sizeof b / 3 * 4)
        n = sizeof b / 3 * 4;
    size_t k = fsc_b64_decode(s, n, b), ctl = 0;
    if (!k)
        return false;
    /* a compressed file (gzip, xz, zstd, bzip2), a zip or a PDF is no text to
     * read here */
    if ((k >= 2 && b[0] == 0x1F && b[1] == 0x8B) ||
        (k >= 4 && !memcmp(b,
                           "\xFD"
                           "7zX",
                           4)) ||
        (k >= 4 && !memcmp(b, "\x28\xB5\x2F\xFD", 4)) || (k >= 3 && !memcmp(b, "BZh", 3)) ||
        (k >= 4 && !memcmp(b, "PK\x03\x04", 4)) || (k >= 5 && !memcmp(b, "%PDF-", 5)))
        return false;
    for (size_t i = 0; i < k; i++) {
        if (!b[i]) /* UTF-16 or binary data */
            return false;
        ctl += b[i] < 0x20 && b[i] != '\n' && b[i] != '\r' && b[i] != '\t' && b[i] != '\f' && b[i] != 0x1B;
    }
    return ctl * 16 <= k;
}

/* The decoded line in d ends: to the sink, without its CR. */
static bool line_out(fsc_b64_text *d, fsc_b64_sink sink, void *ctx)
{
    uint16_t flags = 0;
    size_t n = d->line.len;
    const char *s = d->line.data ? d->line.data : "";
    if (n && s[n - 1] == '\r' && !memchr(s, '\r', n - 1)) {
        n--;
        flags = FSC_LINE_CR;
    }
    bool ok = !d->line.oom && sink(ctx, s, n, d->orig, flags);
    fsc_buf_reset(&d->line);
    d->open = false;
    return ok;
}

bool fsc_b64_text_line(fsc_b64_text *d, const char *s, size_t n, uint32_t orig, fsc_b64_sink sink, void *ctx)
{
    unsigned char bytes[256];
    while (n >= 4) {
        /* a chunk of whole quads at a time (the lines are 76 characters, some
         * longer) */
        size_t take = n < sizeof bytes / 3 * 4 ? n : sizeof bytes / 3 * 4;
        size_t k = fsc_b64_decode(s, take, bytes);
        for (size_t i = 0; i < k; i++) {
            unsigned char c = bytes[i];
            if (c == '\n') {
                if (!line_out(d, sink, ctx))
                    return false;
                continue;
            }
            if (!d->open) {
                d->open = true;
                d->orig = orig;
            }
            if (c >= 0x80 && d->latin1) { /* ISO-8859-1: the character as UTF-8 */
                fsc_buf_putc(&d->line, (char)(0xC0 | c >> 6));
                c = (unsigned char)(0x80 | (c & 0x3F));
            }
            fsc_buf_putc(&d->line, (char)c);
        }
        s += take;
        n -= take;
    }
    return !d->line.oom;
}

bool fsc_b64_text_end(fsc_b64_text *d, fsc_b64_sink sink, void *ctx)
{
    return !d->open || line_out(d, sink, ctx);
}

bool fsc_mime_type_is(const char *s, size_t n, const char *type)
{
    size_t i = sizeof "Content-Type:" - 1, k = strlen(type), j = 0;
    while (i < n && (s[i] == ' ' || s[i] == '\t'))
        i++;
    while (j < k && i + j < n && tolower((unsigned char)s[i + j]) == type[j])
        j++;
    return j == k;
}

bool fsc_mime_type_undecoded(const char *s, size_t n)
{
    /* text/html too: a mail's HTML alternative of its text/plain part (Gmail sends
     * both in base64) holds the same runs as markup, which the document's own look
     * for HTML (normalize.c) did not see encoded */
    static const char *const types[] = {"text/html",           "image/",          "audio/",
                                        "video/",              "font/",           "model/",
                                        "application/pdf",     "application/pgp", "application/pkcs7",
                                        "application/x-pkcs7", "application/ms-tnef", "application/vnd.ms-tnef"};
    for (size_t t = 0; t < sizeof types / sizeof *types; t++)
        if (fsc_mime_type_is(s, n, types[t]))
            return true;
    return false;
}
