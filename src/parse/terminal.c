/* SPDX-License-Identifier: MIT */
/*
 * What a terminal would have acted on instead of showing: colour and cursor codes
 * (ECMA-48 escape sequences), backspaces and bells. fio writes none, but the logs
 * its output lands in do: CI systems colour their own lines and the commands they
 * echo (GitLab's "\e[0K" before every section line, GitHub's "\e[36;1m"), `script`
 * records a session byte for byte, docker compose colours the prefix of each line,
 * and a wrapper may colour whole lines. In pastes the ESC byte often shows as "^["
 * (cat -v, less, vim) or as "␛", or is lost altogether and leaves "[32m" and "[0m"
 * around the text.
 *
 * Every sequence ends on its own line, so taking them out is a matter of one line
 * at a time (no state carries from line to line): a huge log read in pieces loses
 * them the same way as one read whole.
 */
#include "parse_int.h"

#include <stdint.h>
#include <string.h>

enum { ESC = 0x1b, BEL = 0x07, BS = 0x08 };

static inline bool in(unsigned char c, unsigned char lo, unsigned char hi)
{
    return c >= lo && c <= hi;
}

/* A control sequence's tail after its CSI ("ESC [" or a visible form of it) at p:
 * parameter bytes, intermediate bytes, one final byte. Its length with the final
 * byte; when it breaks off first, the length read (loose) or 0. A visible "^[[" is
 * taken only before what programs write (strict): digits, ';' ':' and a leading
 * '?', then a letter ("^[[1;32m", "^[[?25l"); a regular expression's "^[[:digit:]]"
 * or "^[[0-9]" is text. */
static size_t csi_tail(const unsigned char *p, size_t n, bool strict)
{
    size_t i = 0;
    if (strict) {
        if (i < n && p[i] == '?')
            i++;
        while (i < n && (in(p[i], '0', '9') || p[i] == ';' || (p[i] == ':' && i && in(p[i - 1], '0', '9'))))
            i++;
        return i < n && (in(p[i], 'A', 'Z') || in(p[i], 'a', 'z')) ? i + 1 : 0;
    }
    while (i < n && in(p[i], 0x30, 0x3f))
        i++;
    while (i < n && in(p[i], 0x20, 0x2f))
        i++;
    if (i < n && in(p[i], 0x40, 0x7e))
        return i + 1;
    return i;
}

/* A control string's tail (OSC "ESC ]", DCS "ESC P", SOS, PM, APC): up to and with
 * its BEL or its string terminator "ESC \"; one cut off by the end of the line ends
 * there (loose), or is text (strict). Where another sequence may begin first, this
 * one ends (loose) or is text (strict): each byte is looked at by one string at
 * most, so a line full of "^[]" stays linear. */
static size_t string_tail(const unsigned char *p, size_t n, bool strict)
{
    for (size_t i = 0; i < n; i++) {
        if (p[i] == BEL)
            return i + 1;
        if (p[i] == ESC && i + 1 < n && p[i + 1] == '\\')
            return i + 2;
        if (strict && p[i] == '^' && i + 2 < n && p[i + 1] == '[' && p[i + 2] == '\\')
            return i + 3; /* the terminator in its visible forms */
        if (strict && p[i] == 0xe2 && i + 3 < n && p[i + 1] == 0x90 && p[i + 2] == 0x9b && p[i + 3] == '\\')
            return i + 4;
        if (p[i] == ESC || (strict && (p[i] == '^' || p[i] == 0xe2)))
            return strict ? 0 : i;
    }
    return strict ? 0 : n;
}

/* The length of an escape sequence's tail after its ESC (or "^[" or "␛") at p, n
 * bytes to the line's end; 0 when nothing after it belongs to it. */
static size_t esc_tail(const unsigned char *p, size_t n, bool strict)
{
    if (!n)
        return 0;
    size_t k;
    switch (p[0]) {
    case '[':
        k = csi_tail(p + 1, n - 1, strict);
        return strict && !k ? 0 : 1 + k;
    case ']':
    case 'P':
    case 'X':
    case '^':
    case '_':
        k = string_tail(p + 1, n - 1, strict);
        return strict && !k ? 0 : 1 + k;
    default:
        break;
    }
    if (strict)
        return 0; /* "^[7" or "␛(B" as text: too short to be sure of */
    if (in(p[0], 0x20, 0x2f)) { /* nF: "ESC ( B" selects a character set */
        k = 1;
        while (k < n && in(p[k], 0x20, 0x2f))
            k++;
        return k < n && in(p[k], 0x30, 0x7e) ? k + 1 : k;
    }
    return in(p[0], 0x30, 0x7e) ? 1 : 0; /* "ESC 7", "ESC =", "ESC M" */
}

/* Does s[0, at) end in an escaped ESC, as a JSON string, a shell or a C source
 * spells it ("\u001b", "\x1b", "\033", "\e")? Then the code after it is data. */
static bool escaped_esc_before(const unsigned char *s, size_t at)
{
    static const char *const spell[] = {"\\u001b", "\\u001B", "\\x1b", "\\x1B", "\\033", "\\e", "\\E"};
    for (size_t i = 0; i < sizeof spell / sizeof *spell; i++) {
        size_t k = strlen(spell[i]);
        if (at >= k && !memcmp(s + at - k, spell[i], k))
            return true;
    }
    return false;
}

/* What is left of a colour or erase code whose ESC was lost, at s[at] (its '['): a
 * digit, digits and ';', then 'm' or 'K' ("[0m", "[1;32m", "[0K"). Not after a '='
 * (fio's "=[ 1234]" values never end in a letter, but a value is never a code), nor
 * after an escaped ESC ("\u001b[31m" in a JSON string is data). Its length, or 0;
 * *alone: nothing alphanumeric follows it (a unit would: "[0KB]" of /proc/mdstat,
 * fio 2.0's "[0KB/20008KB/0KB /s]"). */
static size_t bare_code(const unsigned char *s, size_t at, size_t n, bool *alone)
{
    const unsigned char *p = s + at;
    size_t m = n - at, i = 1;
    /* after ESC or one of its visible forms ("^[[", U+241B, U+FFFD) it is no bare
     * code but part of that sequence */
    unsigned char before = at ? s[at - 1] : ' ';
    if (m < 3 || !in(p[1], '0', '9') || before == '=' || before == ESC || before >= 0x80 ||
        (at >= 2 && s[at - 2] == '^' && before == '['))
        return 0;
    while (i < m && (in(p[i], '0', '9') || p[i] == ';'))
        i++;
    if (!(i < m && (p[i] == 'm' || p[i] == 'K')) || escaped_esc_before(s, at))
        return 0;
    i++;
    *alone = i == m || !(in(p[i], '0', '9') || in(p[i] | 0x20, 'a', 'z'));
    return i;
}

/* Does the line hold a bare code that stands alone? Only then are the others taken
 * for codes too ("[32mfio-3.33[0m": the reset at the end vouches for the colour
 * before the word). */
static bool bare_alone_in(const unsigned char *s, size_t n)
{
    for (const unsigned char *p = memchr(s, '[', n); p; p = memchr(p + 1, '[', n - (size_t)(p + 1 - s))) {
        bool alone = false;
        if (bare_code(s, (size_t)(p - s), n, &alone) && alone)
            return true;
    }
    return false;
}

/* Which controls are looked for: raw ones only (a JSON document's strings are data),
 * with ESC's visible forms, and with bare codes (the line has one alone). */
typedef enum { TERM_RAW, TERM_VISIBLE, TERM_BARE } term_mode;

/* The length of the terminal control at s[i] (n bytes in all), 0 for none. The
 * visible forms of ESC must be followed by a whole sequence (strict). */
static size_t control_at(const unsigned char *s, size_t i, size_t n, term_mode mode)
{
    unsigned char c = s[i];
    size_t m = n - i, k;
    if (c == ESC)
        return 1 + esc_tail(s + i + 1, m - 1, false);
    if (c == BEL)
        return 1;
    if (mode == TERM_RAW)
        return 0;
    if (c == '^' && m >= 4 && s[i + 1] == '[' && (k = esc_tail(s + i + 2, m - 2, true)))
        return 2 + k;
    if (c == 0xe2 && m >= 5 && s[i + 1] == 0x90 && s[i + 2] == 0x9b && (k = esc_tail(s + i + 3, m - 3, true)))
        return 3 + k; /* U+241B SYMBOL FOR ESCAPE */
    if (c == 0xef && m >= 6 && s[i + 1] == 0xbf && s[i + 2] == 0xbd && s[i + 3] == '[' &&
        (k = esc_tail(s + i + 3, m - 3, true)))
        return 3 + k; /* U+FFFD, an ESC a converter could not map, before a CSI */
    bool alone;
    if (c == '[' && mode == TERM_BARE)
        return bare_code(s, i, n, &alone);
    return 0;
}

/* The bytes that can begin a control, for the quick look of fsc_term_marks. */
static const bool begins[256] = {[ESC] = true, [BEL] = true, [BS] = true, ['^'] = true,
                                 ['['] = true, [0xe2] = true, [0xef] = true};

static inline bool may_begin(unsigned char c)
{
    return begins[c];
}

/* Could the line hold a control? False when it has no byte below 0x20 (ESC, BEL,
 * backspace; a tab says maybe) and, with visible, no '[' and no byte above 0x7F: most
 * lines, told eight bytes at a time without a call. */
static bool may_hold(const unsigned char *s, size_t n, bool visible)
{
    const uint64_t ones = 0x0101010101010101ULL, highs = 0x8080808080808080ULL;
    uint64_t any = 0, vis = 0;
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t x, b;
        memcpy(&x, s + i, 8);
        b = x ^ (ones * '[');
        any |= (x - ones * 0x20) & ~x;       /* a byte below 0x20 */
        vis |= x | ((b - ones) & ~b);        /* a byte above 0x7F, or a '[' */
    }
    for (; i < n; i++) {
        any |= s[i] < 0x20 ? highs : 0;
        vis |= s[i] >= 0x80 || s[i] == '[' ? highs : 0;
    }
    return ((any | (visible ? vis : 0)) & highs) != 0;
}

bool fsc_term_marks(const char *s, size_t n, bool visible)
{
    const unsigned char *u = (const unsigned char *)s;
    if (!may_hold(u, n, visible))
        return false;
    if (memchr(s, ESC, n) || memchr(s, BEL, n) || memchr(s, BS, n))
        return true;
    if (!visible)
        return false;
    /* the other forms hold a '[' ("^[", U+FFFD before a CSI, a bare code) or begin
     * with U+241B */
    bool alone = false;
    for (const unsigned char *p = memchr(u, '[', n); p; p = memchr(p + 1, '[', n - (size_t)(p + 1 - u))) {
        size_t k = (size_t)(p - u);
        if ((k >= 1 && u[k - 1] == '^' && control_at(u, k - 1, n, TERM_VISIBLE)) ||
            (k >= 3 && u[k - 3] == 0xef && control_at(u, k - 3, n, TERM_VISIBLE)) ||
            (bare_code(u, k, n, &alone) && alone))
            return true;
    }
    for (const unsigned char *p = memchr(u, 0xe2, n); p; p = memchr(p + 1, 0xe2, n - (size_t)(p + 1 - u)))
        if (control_at(u, (size_t)(p - u), n, TERM_VISIBLE))
            return true;
    return false;
}

bool fsc_term_in_doc(const char *data, size_t len)
{
    const unsigned char *u = (const unsigned char *)data;
    if (memchr(data, ESC, len) || memchr(data, BEL, len) || memchr(data, BS, len) || fsc_find_lit(data, len, "^[") ||
        fsc_find_lit(data, len, "\xe2\x90\x9b") || fsc_find_lit(data, len, "\xef\xbf\xbd["))
        return true;
    /* a bare code anywhere, alone or not (its line decides) */
    bool alone;
    for (const unsigned char *p = memchr(u, '[', len); p; p = memchr(p + 1, '[', len - (size_t)(p + 1 - u)))
        if (p + 1 < u + len && in(p[1], '0', '9') && bare_code(u, (size_t)(p - u), len, &alone))
            return true; /* fio's own '[' (its percentile rows') is followed by a space */
    return false;
}

/* ESC[8m (conceal) at u[i]: the length up to and with the code that ends it (ESC[0m,
 * ESC[m, ESC[28m) on this line, the hidden text with them; 0 for none. Jenkins
 * writes its console notes so ("ESC[8mha:////<base64>ESC[0m" before a line), which
 * its page hides and a saved log keeps. */
static size_t concealed(const unsigned char *u, size_t i, size_t n)
{
    if (n - i < 4 || memcmp(u + i, "\x1b[8m", 4))
        return 0;
    for (size_t j = i + 4; j + 2 < n && u[j] != '\n'; j++) {
        if (u[j] != 0x1b || u[j + 1] != '[')
            continue;
        size_t e = n - j >= 4 && !memcmp(u + j, "\x1b[0m", 4)    ? 4
                   : !memcmp(u + j, "\x1b[m", 3)                 ? 3
                   : n - j >= 5 && !memcmp(u + j, "\x1b[28m", 5) ? 5
                                                                  : 0;
        if (e)
            return j + e - i;
    }
    return 0;
}

void fsc_term_strip(const char *s, size_t n, bool visible, fsc_buf *out)
{
    const unsigned char *u = (const unsigned char *)s;
    term_mode mode = !visible ? TERM_RAW : bare_alone_in(u, n) ? TERM_BARE : TERM_VISIBLE;
    fsc_buf_reset(out);
    size_t i = 0, from = 0;
    while (i < n) {
        size_t k;
        if (!may_begin(u[i])) {
            i++;
            continue;
        }
        if (u[i] == BS) {
            fsc_buf_add(out, s + from, i - from);
            /* a backspace takes back the character before it (a typing slip in a
             * recorded session, or the first half of an overstruck "r\br") */
            while (out->len && ((unsigned char)out->data[out->len - 1] & 0xc0) == 0x80)
                out->len--;
            if (out->len)
                out->len--;
            from = ++i;
            continue;
        }
        if (!(k = concealed(u, i, n)) && !(k = control_at(u, i, n, mode))) {
            i++;
            continue;
        }
        fsc_buf_add(out, s + from, i - from);
        i += k;
        from = i;
    }
    fsc_buf_add(out, s + from, n - from);
}

/* fsc_term_lead of a line that begins with a byte that may begin a control. */
static size_t __attribute__((noinline)) term_lead(const char *s, size_t n)
{
    const unsigned char *u = (const unsigned char *)s;
    const char *nl = memchr(s, '\n', n); /* callers may pass the rest of their text */
    if (nl)
        n = (size_t)(nl - s);
    /* a bare code only where the line has one alone, as fsc_term_strip sees it */
    term_mode mode = n && s[0] == '[' && bare_alone_in(u, n) ? TERM_BARE : TERM_VISIBLE;
    size_t i = 0, k;
    while (i < n && may_begin(u[i]) && u[i] != BS && ((k = concealed(u, i, n)) || (k = control_at(u, i, n, mode))))
        i += k;
    return i;
}

size_t fsc_term_lead(const char *s, size_t n)
{
    /* most lines begin with none of the bytes: no call, no scan */
    return n && may_begin((unsigned char)s[0]) && s[0] != BS ? term_lead(s, n) : 0;
}
