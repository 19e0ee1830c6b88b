/* SPDX-License-Identifier: MIT */
/*
 * base64 (RFC 4648's alphabet, as MIME and data: URLs use it): the report's charts
 * are written in it, a mail's attachments are read from it. Decoding goes a line at
 * a time, as a mail holds it: a line is base64 only when all of it is.
 */
#ifndef FIOSCOPE_BASE64_H
#define FIOSCOPE_BASE64_H

#include "fioscope/buf.h"

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* p[0, n) in base64, '=' padded, appended to b (no line breaks). */
void fsc_b64_encode(fsc_buf *b, const unsigned char *p, size_t n);

/* The length of the line s[0, n) without its trailing blanks (spaces, tabs, a CR)
 * when all of it is base64: the alphabet, four characters a group, '=' padding at its
 * end alone; else 0. */
size_t fsc_b64_line(const char *s, size_t n);

/* The bytes of the base64 line s[0, n) (fsc_b64_line's length) written to out (room
 * for n / 4 * 3 bytes); returns how many. */
size_t fsc_b64_decode(const char *s, size_t n, unsigned char *out);

#ifdef __cplusplus
}
#endif

#endif
