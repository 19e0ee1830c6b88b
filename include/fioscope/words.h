/* SPDX-License-Identifier: MIT */
/*
 * Text read and written 8 (or 4) bytes at a time, as words whose lowest byte is the
 * first, whatever the machine's byte order: the word-at-a-time readers find bytes with
 * ctz and build their patterns that way (the parse stage's lexers and pre-scan, the
 * model's keys, buf.c's number writer and JSON string scan). On a big-endian machine
 * (Debian builds for s390x) each load and store is one byte swap.
 */
#ifndef FIOSCOPE_WORDS_H
#define FIOSCOPE_WORDS_H

#include <stdint.h>
#include <string.h>

static inline uint64_t fsc_load_le64(const char *p)
{
    uint64_t w;
    memcpy(&w, p, 8);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    w = __builtin_bswap64(w);
#endif
    return w;
}

static inline uint32_t fsc_load_le32(const char *p)
{
    uint32_t w;
    memcpy(&w, p, 4);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    w = __builtin_bswap32(w);
#endif
    return w;
}

/* The high bit of every zero byte of x, exact for the lowest one (a borrow runs on
 * only above a zero byte, so higher bytes may be flagged too): ctz(...) >> 3 is the
 * index of the first zero byte. fsc_zero_bytes(w ^ (FSC_BYTES_OF(c))) finds the
 * first byte c of w. */
#define FSC_BYTES_OF(c) (0x0101010101010101ULL * (unsigned char)(c))
static inline uint64_t fsc_zero_bytes(uint64_t x)
{
    return (x - 0x0101010101010101ULL) & ~x & 0x8080808080808080ULL;
}

/* The 8 bytes of w at p, its lowest byte first. */
static inline void fsc_store_le64(char *p, uint64_t w)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    w = __builtin_bswap64(w);
#endif
    memcpy(p, &w, 8);
}

/* p[0, n) == q[0, n), both readable for n bytes. For a literal q and a constant n
 * (the callers' LIT macros, always inlined) the compare is two loads of p against
 * constants, overlapping when n is no power of two, and past 16 bytes a word at a
 * time, the last overlapping; gcc calls memcmp for most of these lengths (5, 6, 11
 * ...), some 25 instructions a call, and a call in a dispatch costs every line the
 * saving of its registers. Byte order does not matter for equality: plain loads. */
static inline __attribute__((always_inline)) int fsc_same_bytes(const char *p, const char *q, size_t n)
{
    if (__builtin_constant_p(n) && n > 16) {
        uint64_t a, b;
        for (size_t i = 0; i + 8 < n; i += 8) {
            memcpy(&a, p + i, 8), memcpy(&b, q + i, 8);
            if (a != b)
                return 0;
        }
        memcpy(&a, p + n - 8, 8), memcpy(&b, q + n - 8, 8);
        return a == b;
    }
    if (__builtin_constant_p(n) && n <= 16) {
        uint64_t a, b, c, d;
        if (n >= 8) {
            memcpy(&a, p, 8), memcpy(&b, q, 8), memcpy(&c, p + n - 8, 8), memcpy(&d, q + n - 8, 8);
            return a == b && c == d;
        }
        if (n >= 4) {
            uint32_t a4, b4, c4, d4;
            memcpy(&a4, p, 4), memcpy(&b4, q, 4), memcpy(&c4, p + n - 4, 4), memcpy(&d4, q + n - 4, 4);
            return a4 == b4 && c4 == d4;
        }
        for (size_t i = 0; i < n; i++)
            if (p[i] != q[i])
                return 0;
        return 1;
    }
    return memcmp(p, q, n) == 0;
}

#endif
