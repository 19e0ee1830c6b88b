/* SPDX-License-Identifier: MIT */
/*
 * prefix.c's first look for a fio keyword on a line (fsc_fio_keyword_maybe): its
 * colons, bars and semicolons. Here, inline, because the pre-scan asks it of every
 * line that begins with a name (prescan.c named_kind: a job's header and definition,
 * a disk's line, "Laying out IO file"), where a call and its setup would cost about
 * as much as the look itself.
 */
#ifndef FSC_PARSE_PREFIX_H
#define FSC_PARSE_PREFIX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Can the colon at s[c] end a label of labels[] (or a parenthesised one, or JSON's
 * key) at all? A necessary condition of label_before, from the two bytes before the
 * colon (after fio's padding) and the first one after it: a ')' ends a unit
 * ("usec)"), a rate ("/s)"), "all jobs)" or "(read/write)"; a letter ends a label
 * that is followed by one of the words after it (each begins with one of "Iit0bmu")
 * or, for the three labels with nothing after them, by anything. Kept in step with
 * labels[] and paren_label: test_tolerance tries every label through both. */
static inline bool fsc_colon_maybe(const char *s, size_t n, size_t c)
{
    size_t e = c;
    while (e > 0 && s[e - 1] == ' ')
        e--;
    if (e < 2) /* no label is this short */
        return false;
    unsigned char last = (unsigned char)s[e - 1], prev = (unsigned char)s[e - 2];
    switch (last) {
    case '"':
        return true;
    case ')':
        return prev == 'c' || prev == 's' || prev == 'e';
    case 'e':
        if (prev == 'g') /* "..._range": nothing needs to follow */
            return true;
        break;
    case 's':
        if (prev == 'h' || prev == 'f') /* "IO depths", ".../syncfs": the same */
            return true;
        break;
    case 'd': case 'm': case 'D': case 'E': case 'M': case 'u': case 't': case 'y':
        break;
    default: /* label_end's other bytes */
        return false;
    }
    size_t a = c + 1;
    while (a < n && (s[a] == ' ' || s[a] == '\t')) /* prefix.c's skip_sp */
        a++;
    if (a == n)
        return false;
    switch (s[a]) {
    case 'I': case 'i': case 't': case '0': case 'b': case 'm': case 'u':
        return true;
    default:
        return false;
    }
}

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
/* The bytes fsc_colon_maybe may find before a colon for it to go on (the colon's byte
 * before it): a space (fio's padding) or one that a label ends with (label_end's). */
static const unsigned char fsc_label_last[256] = {
    [' '] = 1, ['"'] = 1, [')'] = 1, ['d'] = 1, ['e'] = 1, ['m'] = 1, ['D'] = 1, ['E'] = 1,
    ['M'] = 1, ['s'] = 1, ['u'] = 1, ['t'] = 1, ['y'] = 1,
};

/* The colons, bars and semicolons of the 32 bytes at s (their masks). */
__attribute__((target("avx2"))) static inline __attribute__((always_inline)) void
fsc_keyword_bytes_avx2(const char *s, uint32_t *colon, uint32_t *bar)
{
    __m256i x = _mm256_loadu_si256((const __m256i *)(const void *)s);
    *colon = (uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(x, _mm256_set1_epi8(':')));
    *bar = (uint32_t)_mm256_movemask_epi8(
        _mm256_or_si256(_mm256_cmpeq_epi8(x, _mm256_set1_epi8('|')), _mm256_cmpeq_epi8(x, _mm256_set1_epi8(';'))));
}

/* fsc_fio_keyword_maybe 64 bytes a step (the second 32 only where the line goes on
 * there), where 32 bytes from s[n] on may be read (avail >= n + 32): a colon is asked
 * of fsc_colon_maybe only where the byte before it is one of fsc_label_last's. The
 * bytes before s[from] are not looked at (the caller knows them: prescan.c's
 * named_kind). */
__attribute__((target("avx2"))) static inline __attribute__((always_inline)) bool
fsc_keyword_maybe_avx2_from(const char *s, size_t n, size_t from)
{
    for (size_t i = from; i < n; i += 64) {
        uint32_t colon_lo, bar_lo, colon_hi = 0, bar_hi = 0;
        fsc_keyword_bytes_avx2(s + i, &colon_lo, &bar_lo);
        if (n - i > 32)
            fsc_keyword_bytes_avx2(s + i + 32, &colon_hi, &bar_hi);
        uint64_t colon = colon_lo | (uint64_t)colon_hi << 32, bar = bar_lo | (uint64_t)bar_hi << 32;
        if (n - i < 64) { /* the bytes past the line are not its own */
            uint64_t own = (1ULL << (n - i)) - 1;
            colon &= own;
            bar &= own;
        }
        if (bar) /* a percentile row or a terse record: fsc_fio_keyword_at decides */
            return true;
        for (; colon; colon &= colon - 1) {
            size_t c = i + (size_t)__builtin_ctzll(colon);
            if (c && fsc_label_last[(unsigned char)s[c - 1]] && fsc_colon_maybe(s, n, c))
                return true;
        }
    }
    return false;
}

__attribute__((target("avx2"))) static inline __attribute__((always_inline)) bool
fsc_keyword_maybe_avx2(const char *s, size_t n)
{
    return fsc_keyword_maybe_avx2_from(s, n, 0);
}
#endif

#endif
