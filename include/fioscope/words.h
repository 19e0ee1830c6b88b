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

/* The 8 bytes of w at p, its lowest byte first. */
static inline void fsc_store_le64(char *p, uint64_t w)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    w = __builtin_bswap64(w);
#endif
    memcpy(p, &w, 8);
}

#endif
