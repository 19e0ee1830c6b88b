/* SPDX-License-Identifier: MIT */
/*
 * Typography undone: output that a blog engine or an editor "improved" for print.
 * WordPress (wptexturize), Hugo's and Jekyll's typographers, SmartyPants, pandoc's
 * smart extension and markdown-it turn text outside code blocks into typeset text:
 * straight quotes become curly ones (and primes after digits), "--" an en dash, "---"
 * an em dash, "..." an ellipsis, "(R)" a registered sign. fio's own lines hold few of
 * them; where they do, a reader loses what follows:
 *  - a JSON document: every key is quoted, and `“read” : {` is no JSON;
 *  - the command shown before a run: `fio –name=x –rw=randread` is no fio command,
 *    so the run loses its command (context) and `fioscope rerun` its job;
 *  - the "..." line fio prints under a job that runs several times;
 *  - the job header of fio 3: `bs=(R) 4096B-4096B, (W) ...` became `bs=® 4096B`.
 * Each rule is asked only of a line that holds its typeset characters and reads as
 * that kind of line; prose around the output keeps its typography.
 */
#include "parse_int.h"

#include <string.h>

/* The typeset quote or dash (UTF-8) at s[0, n): its length, else 0. *quote: '"' or
 * '\'' for a quote, 0 for a dash. English, German („...“) and French (« ... ») quotes. */
static size_t typeset_at(const unsigned char *s, size_t n, char *quote)
{
    if (n >= 2 && s[0] == 0xC2 && (s[1] == 0xAB || s[1] == 0xBB)) { /* « » (French) */
        *quote = '"';
        return 2;
    }
    if (n < 3 || s[0] != 0xE2)
        return 0;
    if (s[1] == 0x80) {
        unsigned char c = s[2];
        if (c >= 0x9C && c <= 0x9F) { /* “ ” „ ‟ */
            *quote = '"';
            return 3;
        }
        if (c >= 0x98 && c <= 0x9B) { /* ‘ ’ ‚ ‛ */
            *quote = '\'';
            return 3;
        }
        if (c == 0xB3) { /* ″ a double prime (after a digit) */
            *quote = '"';
            return 3;
        }
        if (c == 0xB2) { /* ′ */
            *quote = '\'';
            return 3;
        }
        if (c >= 0x90 && c <= 0x95) { /* hyphen, non-breaking hyphen, figure, en, em dash, bar */
            *quote = 0;
            return 3;
        }
        return 0;
    }
    if (s[1] == 0x88 && s[2] == 0x92) { /* − minus sign */
        *quote = 0;
        return 3;
    }
    return 0;
}

/* Does a JSON value begin at s[k] (after blanks): a typeset string, a number, a
 * bracket, true, false or null? */
static bool json_value_at(const unsigned char *s, size_t n, size_t k)
{
    while (k < n && s[k] == ' ')
        k++;
    if (k == n)
        return false;
    char q = 0;
    if (s[k] == '{' || s[k] == '[' || s[k] == '-' || (s[k] >= '0' && s[k] <= '9') ||
        (typeset_at(s + k, n - k, &q) && q == '"'))
        return true;
    const char *w = (const char *)s + k;
    return (n - k >= 4 && (!memcmp(w, "true", 4) || !memcmp(w, "null", 4))) || (n - k >= 5 && !memcmp(w, "false", 5));
}

/* A JSON member whose quotes were typeset: no ASCII '"' on the line, which begins
 * (after blanks) with a typeset double quote or a bracket, and a closing typeset
 * double quote followed (after blanks) by ':' and a value ("“jobs” : [", a flattened
 * document's whole text "{ “fio version” : ..."). Prose that quotes a word before a
 * colon has no JSON value after it. */
static bool json_typeset(const char *s, size_t n)
{
    if (memchr(s, '"', n))
        return false; /* JSON with its own quotes: a typeset quote in it is data */
    const unsigned char *u = (const unsigned char *)s;
    size_t i = 0;
    char q = 0;
    while (i < n && s[i] == ' ')
        i++;
    if (i == n || (s[i] != '{' && s[i] != '[' && !(typeset_at(u + i, n - i, &q) && q == '"')))
        return false;
    for (; i + 3 <= n; i++) {
        size_t k = typeset_at(u + i, n - i, &q);
        if (k && q == '"') {
            k += i;
            while (k < n && s[k] == ' ')
                k++;
            if (k < n && s[k] == ':' && json_value_at(u, n, k + 1))
                return true;
        }
    }
    return false;
}

static bool letter(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

/* Where a fio command begins on the line: the word "fio" (or a path ending in
 * "/fio") followed by a space, before a typeset dash that stands for an option's "--"
 * (a dash after a space, before a letter). n when there is none. */
static size_t fio_command_at(const char *s, size_t n)
{
    const unsigned char *u = (const unsigned char *)s;
    for (size_t i = 0; i + 4 <= n; i++) {
        if (memcmp(s + i, "fio ", 4) != 0 || (i > 0 && s[i - 1] != ' ' && s[i - 1] != '/' && s[i - 1] != '$'))
            continue;
        for (size_t k = i + 4; k + 4 <= n; k++) {
            char q;
            if (s[k - 1] == ' ' && u[k] == 0xE2 && typeset_at(u + k, n - k, &q) && !q && letter(s[k + 3]))
                return i;
        }
        return n;
    }
    return n;
}

/* Is the line an ellipsis alone (fio's "..." under a job header, typeset)? */
static bool ellipsis_line(const char *s, size_t n)
{
    size_t a = 0;
    while (a < n && s[a] == ' ')
        a++;
    while (n > a && s[n - 1] == ' ')
        n--;
    return n - a == 3 && memcmp(s + a, "\xE2\x80\xA6", 3) == 0;
}

/* "=®" at s[i]: fio 3's "bs=(R) 4096B" with its (R) typeset. */
static bool reg_at(const char *s, size_t n, size_t i)
{
    return s[i] == '=' && i + 3 <= n && (unsigned char)s[i + 1] == 0xC2 && (unsigned char)s[i + 2] == 0xAE;
}


/* A typeset quote at s[i] (k bytes) written as q: French quotes lose the blanks that
 * French typography puts inside them ("« jobs »": a no-break space each side). */
static size_t put_quote(const char *s, size_t n, size_t i, size_t k, char q, fsc_buf *out)
{
    if (k == 2 && (unsigned char)s[i + 1] == 0xBB)
        while (out->len && out->data[out->len - 1] == ' ')
            out->len--;
    fsc_buf_putc(out, q);
    if (k == 2 && (unsigned char)s[i + 1] == 0xAB)
        while (i + k < n && s[i + k] == ' ')
            k++;
    return k;
}

bool fsc_typography_undo(const char *s, size_t n, fsc_buf *out)
{
    /* a typeset quote or dash (UTF-8 E2 ..., or « »), and fio 3's "(R)" typeset */
    bool e2 = memchr(s, 0xE2, n) || fsc_find_lit(s, n, "\xC2\xAB") || fsc_find_lit(s, n, "\xC2\xBB"),
         reg = fsc_find_lit(s, n, "=\xC2\xAE") != NULL;
    if (!e2 && !reg)
        return false;
    bool json = e2 && json_typeset(s, n), ellipsis = e2 && ellipsis_line(s, n);
    size_t cmd = e2 && !json ? fio_command_at(s, n) : n;
    if (!json && !ellipsis && cmd == n && !reg)
        return false;
    fsc_buf_reset(out);
    if (ellipsis) {
        size_t a = 0;
        while (a < n && s[a] == ' ')
            a++;
        fsc_buf_add(out, s, a);
        fsc_buf_puts(out, "...");
        return !out->oom;
    }
    const unsigned char *u = (const unsigned char *)s;
    for (size_t i = 0; i < n;) {
        char q = 0;
        size_t k = u[i] == 0xE2 || u[i] == 0xC2 ? typeset_at(u + i, n - i, &q) : 0;
        if (k && json && q == '"') {
            k = put_quote(s, n, i, k, '"', out);
        } else if (k && i >= cmd && q) {
            k = put_quote(s, n, i, k, q, out);
        } else if (k && i >= cmd && !q && s[i - 1] == ' ' && i + k < n && letter(s[i + k])) {
            fsc_buf_puts(out, "--"); /* –name=x: an option's "--" */
        } else if (reg && reg_at(s, n, i)) {
            fsc_buf_puts(out, "=(R)");
            k = 3;
        } else {
            fsc_buf_putc(out, s[i]);
            k = 1;
        }
        i += k;
    }
    return !out->oom;
}
