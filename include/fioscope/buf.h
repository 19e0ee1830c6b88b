/* SPDX-License-Identifier: MIT */
/* A growable byte buffer and a streaming JSON writer on top of it. */
#ifndef FIOSCOPE_BUF_H
#define FIOSCOPE_BUF_H

#include "fioscope/common.h"

#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Growable, always NUL-terminated once anything was appended. The caller owns data
 * and releases it with fsc_buf_free(). An allocation failure sets `oom` and later
 * appends are ignored, so callers check once at the end. */
typedef struct fsc_buf {
    char *data;
    size_t len, cap;
    bool oom;
} fsc_buf;

void fsc_buf_free(fsc_buf *b);
void fsc_buf_reset(fsc_buf *b); /* len = 0, keeps memory */
void fsc_buf_add(fsc_buf *b, const void *p, size_t n);
/* Room for n more bytes (and the NUL) at data + len: write there, then add to len
 * and keep data[len] = '\0' yourself. NULL when out of memory (oom set). */
char *fsc_buf_room(fsc_buf *b, size_t n);
void fsc_buf_puts(fsc_buf *b, const char *s);
void fsc_buf_putc(fsc_buf *b, char c);
void fsc_buf_printf(fsc_buf *b, const char *fmt, ...) FSC_PRINTF(2, 3);
/* Write the buffer to f; returns false on a write error. */
bool fsc_buf_write(const fsc_buf *b, FILE *f);

/* Shortest text that reads back as exactly v ("61551001.6", "15000", "1e+20");
 * integral values below 2^53 print without a decimal point. Non-finite → "null". */
void fsc_buf_num(fsc_buf *b, double v);
/* Decimal digits of an unsigned 64-bit integer. */
void fsc_buf_u64(fsc_buf *b, uint64_t u);
/* The same texts written to dst, which holds at least FSC_NUM_MAX bytes; they return
 * the length (no NUL is written; the bytes after the text may be overwritten). */
#define FSC_NUM_MAX 40
size_t fsc_num_fmt(char *dst, double v);
size_t fsc_u64_fmt(char *dst, uint64_t u);
/* A number of the model: its exact integer when it has one, else fsc_buf_num(v). */
void fsc_buf_fnum(fsc_buf *b, const fsc_num *n);

/* Streaming JSON writer. `pretty` indents with two spaces; `html_safe` writes "</"
 * as "<\/" so the output can sit inside a <script> element. Invalid UTF-8 in strings
 * is replaced with U+FFFD so the document stays valid. */
typedef struct fsc_jw {
    fsc_buf *out;
    bool pretty, html_safe;
    int depth;
    bool first[64]; /* per depth: no member written yet */
    bool after_key;
} fsc_jw;

void fsc_jw_init(fsc_jw *w, fsc_buf *out, bool pretty, bool html_safe);
void fsc_jw_obj(fsc_jw *w);     /* { */
void fsc_jw_obj_end(fsc_jw *w); /* } */
void fsc_jw_arr(fsc_jw *w);     /* [ */
void fsc_jw_arr_end(fsc_jw *w); /* ] */
void fsc_jw_key(fsc_jw *w, const char *key);
void fsc_jw_str(fsc_jw *w, const char *s); /* NULL writes null */
void fsc_jw_strn(fsc_jw *w, const char *s, size_t n);
void fsc_jw_num(fsc_jw *w, double v);
void fsc_jw_fnum(fsc_jw *w, const fsc_num *n); /* fsc_buf_fnum */
void fsc_jw_bool(fsc_jw *w, bool v);
void fsc_jw_null(fsc_jw *w);
/* The separator before a value that the caller then writes itself into w->out
 * (already serialized JSON: long number arrays written in bulk). */
void fsc_jw_value_begin(fsc_jw *w);
/* Length of the valid UTF-8 sequence starting at s (at most n bytes): 1 for ASCII,
 * 2-4 for a well-formed multi-byte sequence, 0 if the bytes there are not valid UTF-8
 * (overlong, surrogate, truncated, stray continuation byte) or n is 0. */
size_t fsc_utf8_len(const char *s, size_t n);
/* Append code point cp (at most 0x10FFFF, not a surrogate) to b as UTF-8. */
void fsc_buf_put_utf8(fsc_buf *b, uint32_t cp);
/* Length of the longest prefix of s[0..n) that fsc_json_quote copies as it is. */
size_t fsc_json_plain(const char *s, size_t n, bool html_safe);
/* Append a JSON string literal (with quotes) for s[0..n) to b. */
void fsc_json_quote(fsc_buf *b, const char *s, size_t n, bool html_safe);

#ifdef __cplusplus
}
#endif
#endif
