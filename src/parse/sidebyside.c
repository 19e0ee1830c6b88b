/* SPDX-License-Identifier: MIT */
/*
 * Two runs side by side, as people compare them: `paste a.txt b.txt` (a tab between
 * the two lines), `diff -y` or `sdiff` (the right text at a fixed column, after a
 * gutter that marks the lines that differ with '|', '<' or '>'). Each column is a run
 * of its own; read together, each line would hold two of fio's lines and the right
 * run would be lost. The left column's lines stay where they are, the right column's
 * come after all of them (normalize.c).
 *
 * A document is such a text when most of the lines at its start split so, and both
 * sides hold fio's lines: for paste, lines with exactly one tab; for diff -y, lines
 * whose gutter mark stands at one column (tabs expanded to 8), and the others with
 * blanks there.
 */
#include "parse_int.h"

#include <string.h>

enum {
    SAMPLE_LINES = 512,
    SAMPLE_BYTES = 256 << 10,
    MIN_COLUMN = 24,   /* a gutter nearer the left edge leaves no room for fio's lines */
    MAX_COLUMN = 1024, /* ...and one further right is no diff -y of them */
};

/* Is s[0, n) (a side of a line) one of fio's lines: a keyword line, a job's header
 * or its banner? */
static bool fio_side(const char *s, size_t n)
{
    size_t k = 0;
    while (k < n && s[k] == ' ')
        k++;
    if (n == k)
        return false;
    s += k;
    n -= k;
    return fsc_fio_keyword_at(s, n) >= 0 || fsc_find_lit(s, n, ": (groupid=") || fsc_find_lit(s, n, ": (g=") ||
           (n > 4 && !memcmp(s, "fio-", 4) && s[4] >= '2' && s[4] <= '3');
}

/* The column of byte i of the line s (tabs to the next multiple of 8). */
static size_t column_of(const char *s, size_t i)
{
    size_t col = 0;
    for (size_t k = 0; k < i; k++)
        col = s[k] == '\t' ? (col / 8 + 1) * 8 : col + 1;
    return col;
}

/* The byte of the line s[0, n) at column col (tabs expanded), or n past its end;
 * *inside: the column falls inside a tab's run of blanks. */
static size_t byte_at_column(const char *s, size_t n, size_t col, bool *inside)
{
    size_t c = 0;
    *inside = false;
    for (size_t k = 0; k < n; k++) {
        size_t next = s[k] == '\t' ? (c / 8 + 1) * 8 : c + 1;
        if (col < next) {
            *inside = s[k] == '\t' && col > c;
            return k;
        }
        c = next;
    }
    return n;
}

static bool gutter_mark(char c)
{
    return c == '|' || c == '<' || c == '>';
}

/* The column of the gutter mark of a diff -y line, or SIZE_MAX: a mark with a blank
 * (space or tab) on each side, the last such in the line before its right text. */
static size_t mark_column(const char *s, size_t n)
{
    size_t found = SIZE_MAX;
    for (size_t i = 1; i < n; i++)
        if (gutter_mark(s[i]) && (s[i - 1] == ' ' || s[i - 1] == '\t') &&
            (i + 1 == n || s[i + 1] == '\t' || s[i + 1] == ' ') && (s[i - 1] == '\t' || i < 2 || s[i - 2] == ' '))
            found = i;
    return found == SIZE_MAX ? SIZE_MAX : column_of(s, found);
}

bool fsc_sbs_in_doc(const char *data, size_t len, fsc_sbs *out)
{
    if (!memchr(data, '\t', len < SAMPLE_BYTES ? len : SAMPLE_BYTES))
        return false;
    size_t lines = 0, one_tab = 0, fio_left = 0, fio_right = 0;
    size_t marks[MAX_COLUMN] = {0};
    const char *p = data, *end = data + (len < SAMPLE_BYTES ? len : SAMPLE_BYTES);
    /* paste: one tab a line, fio's lines on both sides */
    while (p < end && lines < SAMPLE_LINES) {
        const char *nl = memchr(p, '\n', (size_t)(end - p)), *e = nl ? nl : end;
        size_t n = (size_t)(e - p);
        if (n && p[n - 1] == '\r')
            n--;
        if (n) {
            lines++;
            const char *tab = memchr(p, '\t', n);
            if (tab && !memchr(tab + 1, '\t', n - (size_t)(tab + 1 - p))) {
                one_tab++;
                fio_left += fio_side(p, (size_t)(tab - p));
                fio_right += fio_side(tab + 1, n - (size_t)(tab + 1 - p));
            }
            size_t col = mark_column(p, n);
            if (col < MAX_COLUMN)
                marks[col]++;
        }
        if (!nl)
            break;
        p = nl + 1;
    }
    if (lines >= 4 && one_tab * 10 >= lines * 9 && fio_left >= 2 && fio_right >= 2) {
        out->paste = true;
        out->gutter = out->right = 0;
        return true;
    }
    /* diff -y: the most common mark column (a percentile row's '|' near the left
     * edge is fio's own) */
    size_t g = 0;
    for (size_t c = MIN_COLUMN; c < MAX_COLUMN; c++)
        if (marks[c] > marks[g])
            g = c;
    if (marks[g] < 3)
        return false;
    out->paste = false;
    out->gutter = g;
    out->right = (g / 8 + 1) * 8;
    if (out->right < g + 2)
        out->right += 8;
    /* the lines agree: a mark at g or a blank there, and fio's lines on both sides */
    size_t agree = 0;
    lines = fio_left = fio_right = 0;
    p = data;
    while (p < end && lines < SAMPLE_LINES) {
        const char *nl = memchr(p, '\n', (size_t)(end - p)), *e = nl ? nl : end;
        size_t n = (size_t)(e - p);
        if (n) {
            lines++;
            fsc_sbs_side left, right;
            if (fsc_sbs_split(out, p, n, &left, &right)) {
                agree++;
                fio_left += fio_side(left.s, left.n);
                fio_right += fio_side(right.s, right.n);
            }
        }
        if (!nl)
            break;
        p = nl + 1;
    }
    return lines >= 4 && agree * 10 >= lines * 9 && fio_left >= 2 && fio_right >= 2;
}

bool fsc_sbs_split(const fsc_sbs *sb, const char *s, size_t n, fsc_sbs_side *left, fsc_sbs_side *right)
{
    if (n && s[n - 1] == '\r')
        n--;
    if (sb->paste) {
        const char *tab = memchr(s, '\t', n);
        if (!tab || memchr(tab + 1, '\t', n - (size_t)(tab + 1 - s)))
            return false;
        *left = (fsc_sbs_side){s, (size_t)(tab - s)};
        *right = (fsc_sbs_side){tab + 1, n - (size_t)(tab + 1 - s)};
        return true;
    }
    bool inside;
    size_t g = byte_at_column(s, n, sb->gutter, &inside);
    if (g < n && !inside && !(gutter_mark(s[g]) || s[g] == ' ' || s[g] == '\t'))
        return false; /* text where the gutter is: no line of the two columns */
    size_t l = g < n ? g : n;
    while (l && (s[l - 1] == ' ' || s[l - 1] == '\t'))
        l--;
    *left = (fsc_sbs_side){s, l};
    size_t r = byte_at_column(s, n, sb->right, &inside);
    if (inside) /* the right text begins after the tab that covers the column */
        r++;
    if (r < n && column_of(s, r) < sb->right) /* a space before the column: not there yet */
        return false;
    for (size_t k = g + (g < n); k < r && k < n; k++)
        if (s[k] != ' ' && s[k] != '\t')
            return false; /* text between the gutter and the right column */
    *right = (fsc_sbs_side){s + (r < n ? r : n), r < n ? n - r : 0};
    return true;
}
