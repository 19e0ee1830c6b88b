/* SPDX-License-Identifier: MIT */
/* The escaping layer of every text output: terminal, diagnostics, CSV, TSV, Markdown, HTML. */
#include "fioscope/escape.h"

#include <string.h>

size_t fsc_utf8_next(const char *s, size_t n, uint32_t *cp)
{
    const unsigned char *p = (const unsigned char *)s;
    size_t len = fsc_utf8_len(s, n); /* 0: not valid UTF-8 here */
    if (len == 0) {
        *cp = FSC_UTF8_INVALID;
        return 1;
    }
    static const unsigned char lead_mask[] = {0, 0x7F, 0x1F, 0x0F, 0x07};
    uint32_t v = p[0] & lead_mask[len];
    for (size_t i = 1; i < len; i++)
        v = (v << 6) | (p[i] & 0x3F);
    *cp = v;
    return len;
}

bool fsc_cp_unsafe(uint32_t cp)
{
    return cp < 0x20 || (cp >= 0x7F && cp <= 0x9F) || (cp >= 0x202A && cp <= 0x202E) ||
           (cp >= 0x2066 && cp <= 0x2069) || cp == FSC_UTF8_INVALID;
}

bool fsc_xml_char_ok(uint32_t cp)
{
    return cp == 0x9 || cp == 0xA || cp == 0xD || (cp >= 0x20 && cp <= 0xD7FF) ||
           (cp >= 0xE000 && cp <= 0xFFFD) || (cp >= 0x10000 && cp <= 0x10FFFF);
}

/* The shared walk: plain ASCII runs are copied in one go; every other code point is
 * handed to `put` (with its bytes) when it is unsafe or in `special`, else copied. */
typedef void (*esc_put)(fsc_buf *b, const char *at, size_t len, uint32_t cp, void *ctx);

static void esc_walk(fsc_buf *b, const char *s, const char *special, esc_put put, void *ctx)
{
    if (!s)
        return;
    size_t n = strlen(s);
    size_t i = 0;
    while (i < n) {
        size_t run = i;
        while (run < n && (unsigned char)s[run] >= 0x20 && (unsigned char)s[run] < 0x7F &&
               !strchr(special, s[run]))
            run++;
        if (run > i) {
            fsc_buf_add(b, s + i, run - i);
            i = run;
            continue;
        }
        uint32_t cp;
        size_t len = fsc_utf8_next(s + i, n - i, &cp);
        if (fsc_cp_unsafe(cp) || (cp < 0x80 && strchr(special, (int)cp)))
            put(b, s + i, len, cp, ctx);
        else
            fsc_buf_add(b, s + i, len);
        i += len;
    }
}

static void put_space(fsc_buf *b, const char *at, size_t len, uint32_t cp, void *ctx)
{
    (void)at, (void)len, (void)cp, (void)ctx;
    fsc_buf_putc(b, ' ');
}

void fsc_esc_term(fsc_buf *b, const char *s)
{
    esc_walk(b, s, "", put_space, NULL);
}

static void put_visible(fsc_buf *b, const char *at, size_t len, uint32_t cp, void *ctx)
{
    (void)len, (void)ctx;
    if (cp == FSC_UTF8_INVALID)
        fsc_buf_printf(b, "\\x%02X", (unsigned)(unsigned char)*at);
    else if (cp < 0x80)
        fsc_buf_printf(b, "\\x%02X", (unsigned)cp);
    else
        fsc_buf_printf(b, "\\u%04X", (unsigned)cp);
}

void fsc_esc_diag(fsc_buf *b, const char *s)
{
    esc_walk(b, s, "", put_visible, NULL);
}

/* A spreadsheet runs a text cell starting with one of these as a formula. */
static bool formula_start(char c)
{
    return c && strchr("=+-@\t\r", c) != NULL;
}

/* Tab, CR and LF survive in a quoted CSV field; other unsafe code points do not. */
static void put_csv(fsc_buf *b, const char *at, size_t len, uint32_t cp, void *ctx)
{
    (void)ctx;
    if (cp == '"')
        fsc_buf_puts(b, "\"\"");
    else if (cp == '\t' || cp == '\r' || cp == '\n')
        fsc_buf_add(b, at, len);
    else
        fsc_buf_putc(b, ' ');
}

void fsc_esc_csv(fsc_buf *b, const char *s)
{
    if (!s)
        return;
    size_t n = strlen(s);
    bool quote = formula_start(*s) || strpbrk(s, ",;\"\t\r\n") != NULL || *s == ' ' ||
                 (n && s[n - 1] == ' ');
    if (quote)
        fsc_buf_putc(b, '"');
    if (formula_start(*s))
        fsc_buf_putc(b, '\'');
    esc_walk(b, s, "\"", put_csv, NULL);
    if (quote)
        fsc_buf_putc(b, '"');
}

/* ',' and ';' are copied, with a ' after them when a formula would start there (the
 * string is NUL-terminated, so at[1] is always readable); other calls are unsafe
 * code points, tab, CR and LF included. */
static void put_tsv(fsc_buf *b, const char *at, size_t len, uint32_t cp, void *ctx)
{
    (void)len, (void)ctx;
    if (cp == ',' || cp == ';') {
        fsc_buf_putc(b, (char)cp);
        if (at[1] && strchr("=+-@", at[1]))
            fsc_buf_putc(b, '\'');
        return;
    }
    fsc_buf_putc(b, ' ');
}

void fsc_esc_tsv(fsc_buf *b, const char *s)
{
    if (!s)
        return;
    if (formula_start(*s))
        fsc_buf_putc(b, '\'');
    esc_walk(b, s, ",;", put_tsv, NULL);
}

static bool word_char(unsigned char c)
{
    return (c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c >= 0x80;
}

/* ctx: the start of the string, to look at the byte before an '_'. */
static void put_md(fsc_buf *b, const char *at, size_t len, uint32_t cp, void *ctx)
{
    const char *start = ctx;
    (void)len;
    switch (cp) {
    case '<':
        fsc_buf_puts(b, "&lt;");
        return;
    case '>':
        fsc_buf_puts(b, "&gt;");
        return;
    case '&':
        fsc_buf_puts(b, "&amp;");
        return;
    case '_':
        /* intraword '_' never starts emphasis (CommonMark): "4k_randread" stays readable */
        if (at > start && word_char((unsigned char)at[-1]) && word_char((unsigned char)at[1]))
            fsc_buf_putc(b, '_');
        else
            fsc_buf_puts(b, "\\_");
        return;
    case '[':
        /* at the start it could open a link reference definition */
        if (at == start)
            fsc_buf_putc(b, '\\');
        fsc_buf_putc(b, '[');
        return;
    case ']':
        /* "](" "][" "]:" end the text of a link or an image; "[read]" alone is text */
        if (at[1] == '(' || at[1] == '[' || at[1] == ':')
            fsc_buf_putc(b, '\\');
        fsc_buf_putc(b, ']');
        return;
    case '\\':
    case '`':
    case '*':
    case '|':
        fsc_buf_putc(b, '\\');
        fsc_buf_putc(b, (char)cp);
        return;
    default:
        fsc_buf_putc(b, ' '); /* line breaks, controls, bidi overrides */
    }
}

void fsc_esc_md(fsc_buf *b, const char *s)
{
    esc_walk(b, s, "<>&_\\`*|[]", put_md, (void *)s);
}

static void put_html(fsc_buf *b, const char *at, size_t len, uint32_t cp, void *ctx)
{
    (void)ctx;
    switch (cp) {
    case '&':
        fsc_buf_puts(b, "&amp;");
        break;
    case '<':
        fsc_buf_puts(b, "&lt;");
        break;
    case '>':
        fsc_buf_puts(b, "&gt;");
        break;
    case '"':
        fsc_buf_puts(b, "&quot;");
        break;
    case '\'':
        fsc_buf_puts(b, "&#39;");
        break;
    case '\t':
    case '\n':
    case '\r':
        fsc_buf_add(b, at, len);
        break;
    default:
        fsc_buf_putc(b, ' ');
    }
}

void fsc_esc_html(fsc_buf *b, const char *s)
{
    esc_walk(b, s, "&<>\"'", put_html, NULL);
}
