/* SPDX-License-Identifier: MIT */
/*
 * fio's JSON as Python shows it once loaded: `print(json.load(f))` or a REPL's echo
 * writes the dict on one line, pprint over many, sorted and wrapped, and a notebook
 * or a script's log keeps that. Its strings come in apostrophes (in quotes when they
 * hold one), true, false and null as True, False and None; the rest is JSON's own
 * syntax. Such a dict is written back as JSON, line by line as it stands, so that
 * the parser reads it as the document it was: from the '{' that opens it (the text
 * before it a line of its own) to the bracket that closes it (the text after it
 * another).
 *
 * A dict is one when the document names fio's keys as Python writes them
 * ('fio version': or 'jobname':) and it opens with `{'` (pprint's first line, or
 * repr's after a caption). Two literals side by side are one string, and
 * parentheses around them go: pprint breaks a long string with spaces so, a piece a
 * line (the caller joins a line that ends with a string to the next). Each byte is
 * looked at once: linear.
 */
#include "parse_int.h"

#include <string.h>

bool fsc_pydict_in_doc(const char *data, size_t len)
{
    return fsc_find_lit(data, len, "'fio version': '") || fsc_find_lit(data, len, "'jobname': '");
}

/* The end of the string literal that opens at s[i] (its quote q): the index of its
 * closing quote, or n when the line ends first. */
static size_t lit_end(const char *s, size_t n, size_t i)
{
    char q = s[i];
    for (size_t k = i + 1; k < n; k++) {
        if (s[k] == '\\')
            k++;
        else if (s[k] == q)
            return k;
    }
    return n;
}

static bool word_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

/* Python's word at s[i, n) as JSON's: its length, and *json; 0 for none of them. */
static size_t py_word(const char *s, size_t n, size_t i, const char **json)
{
    static const struct {
        const char *py, *json;
        size_t n;
    } words[] = {{"True", "true", 4}, {"False", "false", 5}, {"None", "null", 4}};
    if (i > 0 && word_char(s[i - 1]))
        return 0;
    for (size_t k = 0; k < sizeof words / sizeof *words; k++)
        if (n - i >= words[k].n && !memcmp(s + i, words[k].py, words[k].n) &&
            (i + words[k].n == n || !word_char(s[i + words[k].n]))) {
            *json = words[k].json;
            return words[k].n;
        }
    return 0;
}

bool fsc_pydict_ends_in_string(const char *s, size_t n)
{
    bool string = false;
    for (size_t i = 0; i < n; i++) {
        if (s[i] == ' ')
            continue;
        string = s[i] == '\'' || s[i] == '"';
        if (string)
            i = lit_end(s, n, i);
    }
    return string;
}

bool fsc_pydict_line(fsc_pydict *st, const char *s, size_t n, fsc_buf *out, fsc_buf *tmp)
{
    size_t i = 0;
    if (!st->depth) { /* a dict opens here, or the line is no part of one */
        const char *open = fsc_find_lit(s, n, "{'");
        if (!open)
            return false;
        i = (size_t)(open - s);
    }
    fsc_buf_reset(out);
    if (i) { /* "result = ": a caption of its own */
        fsc_buf_add(out, s, i);
        fsc_buf_putc(out, '\n');
    }
    st->open_string = false;
    while (i < n) {
        char c = s[i];
        if (c == '\'' || c == '"') {
            /* one string of the literals side by side ('abc' 'def') */
            fsc_buf_reset(tmp);
            size_t e;
            for (;;) {
                e = lit_end(s, n, i);
                fsc_strlit_decode(s + i + 1, s + e, tmp);
                size_t j = e + 1;
                while (j < n && s[j] == ' ')
                    j++;
                if (e >= n || j >= n || (s[j] != '\'' && s[j] != '"'))
                    break;
                i = j;
            }
            fsc_json_quote(out, tmp->data ? tmp->data : "", tmp->len, false);
            i = e + 1;
            size_t j = i;
            while (j < n && s[j] == ' ')
                j++;
            st->open_string = j == n; /* the next line may go on with it */
            continue;
        }
        const char *json;
        size_t w = word_char(c) ? py_word(s, n, i, &json) : 0;
        if (w) {
            fsc_buf_puts(out, json);
            i += w;
            continue;
        }
        i++;
        if (c == '(' || c == ')') /* pprint's parentheses around the pieces of a long string */
            continue;
        fsc_buf_putc(out, c);
        if (c == '{' || c == '[')
            st->depth++;
        else if ((c == '}' || c == ']') && st->depth && !--st->depth) {
            if (i < n) { /* what follows the dict: a line of its own */
                fsc_buf_putc(out, '\n');
                fsc_buf_add(out, s + i, n - i);
            }
            break;
        }
    }
    return !out->oom && !tmp->oom;
}
