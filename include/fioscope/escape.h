/* SPDX-License-Identifier: MIT */
/*
 * One escaping layer per output kind. Everything that came from an input (job names,
 * headings, labels, archive member names, paths, symlink targets, error texts that
 * quote an input) passes through exactly one of these before it reaches a terminal,
 * a CSV/TSV file, Markdown or HTML. XML inside report.xlsx is escaped by the workbook
 * writer; fsc_xml_char_ok() tells it which code points XML 1.0 allows.
 *
 * Code points that can take over a terminal or reorder what a reader sees are
 * "unsafe" (fsc_cp_unsafe): C0 controls, DEL, C1 controls (U+0080..U+009F: U+009B is
 * a one-character CSI on many terminals) and the bidirectional embeddings, overrides
 * and isolates (U+202A..U+202E, U+2066..U+2069, the "Trojan Source" set). Every writer
 * below replaces them; the marks U+200E/U+200F that right-to-left text needs are kept.
 * Bytes that are not UTF-8 count as unsafe too (a lone 0x9B is CSI on an 8-bit
 * terminal).
 *
 * Every function appends to an fsc_buf (an allocation failure sets b->oom, see buf.h);
 * s is a NUL-terminated string, NULL appends nothing.
 */
#ifndef FIOSCOPE_ESCAPE_H
#define FIOSCOPE_ESCAPE_H

#include "fioscope/buf.h"

#ifdef __cplusplus
extern "C" {
#endif

/* fsc_utf8_next's code point for a byte that does not start valid UTF-8. */
#define FSC_UTF8_INVALID 0xFFFFFFFFu

/* Decode the code point at s (n bytes available, n >= 1) into *cp; returns the bytes
 * it took (1..4). A byte that does not start a valid sequence takes 1 and gives
 * FSC_UTF8_INVALID. */
size_t fsc_utf8_next(const char *s, size_t n, uint32_t *cp);

/* Unsafe in any text output (see above); FSC_UTF8_INVALID is unsafe. */
bool fsc_cp_unsafe(uint32_t cp);

/* XML 1.0 Char: tab, LF, CR, U+0020..U+D7FF, U+E000..U+FFFD, U+10000..U+10FFFF. */
bool fsc_xml_char_ok(uint32_t cp);

/* Text for a terminal or a text table: each unsafe code point (and invalid byte)
 * becomes one space; everything else is copied. */
void fsc_esc_term(fsc_buf *b, const char *s);

/* A diagnostic on standard error: unsafe code points are shown, not obeyed:
 * C0, DEL and invalid bytes as "\xHH", C1 and bidi controls as "\uHHHH". */
void fsc_esc_diag(fsc_buf *b, const char *s);

/* One CSV field (RFC 4180). Quoted when it holds , ; " tab CR LF, starts or ends
 * with a space, or starts like a formula; a field starting with = + - @ tab CR gets
 * a leading ' inside the quotes so that a spreadsheet does not run it. Quoting also
 * covers a formula after a separator of another locale ("x;=1+2" stays one text
 * cell when ';' is the list separator). Unsafe code points other than tab, CR, LF
 * become spaces. */
void fsc_esc_csv(fsc_buf *b, const char *s);

/* One TSV field (no quoting exists): tab, CR and LF become spaces, a field starting
 * like a formula gets a leading ', and a formula start right after ',' or ';' gets a
 * ' too ("x;'=1+2"), as a spreadsheet that splits on those would run it. Unsafe
 * code points become spaces. */
void fsc_esc_tsv(fsc_buf *b, const char *s);

/* Inline Markdown text (a table cell, a list item, a heading): backslash, backtick,
 * '*' and '|' are backslash-escaped (no code span, emphasis or table break), so is '_'
 * unless it sits inside a word, a ']' that would end a link or image text ("](", "][",
 * "]:") and a '[' at the very start (no reference definition): "![x](https://...)"
 * stays text while "mix [read]" reads as it is. "< > &" become entities (renderers
 * pass raw HTML on); line breaks and unsafe code points become spaces. */
void fsc_esc_md(fsc_buf *b, const char *s);

/* HTML text or attribute value: & < > " ' become entities; unsafe code points become
 * spaces (C0 controls are not allowed in HTML, bidi overrides would reorder the page). */
void fsc_esc_html(fsc_buf *b, const char *s);

#ifdef __cplusplus
}
#endif
#endif
