/* SPDX-License-Identifier: MIT */
/* Which bytes a JSON string takes as they are, 16 at a time: shared by buf.c's
 * fsc_json_plain and the model writer's keys (private to the core and model). */
#ifndef FSC_JSON_PLAIN_H
#define FSC_JSON_PLAIN_H

#include "fioscope/buf.h"

#if defined(__SSE2__)
#include <emmintrin.h>

/* Bit i set when byte i of x is not copied as is into a JSON string: below 0x20 or
 * above 0x7E (signed: below 0x20, or negative) or one to escape. */
static inline unsigned fsc_json_bad16(__m128i x, bool html_safe)
{
    __m128i bad = _mm_or_si128(_mm_or_si128(_mm_cmplt_epi8(x, _mm_set1_epi8(0x20)),
                                            _mm_cmpeq_epi8(x, _mm_set1_epi8(0x7F))),
                               _mm_or_si128(_mm_cmpeq_epi8(x, _mm_set1_epi8('"')),
                                            _mm_cmpeq_epi8(x, _mm_set1_epi8('\\'))));
    if (html_safe)
        bad = _mm_or_si128(bad, _mm_or_si128(_mm_cmpeq_epi8(x, _mm_set1_epi8('&')),
                                             _mm_or_si128(_mm_cmpeq_epi8(x, _mm_set1_epi8('<')),
                                                          _mm_cmpeq_epi8(x, _mm_set1_epi8('>')))));
    return (unsigned)_mm_movemask_epi8(bad);
}
#endif

/* fsc_json_plain(s, 16, html_safe), inline: one step over all 16 bytes (a NUL
 * among them is not plain: a NUL-terminated key ends there). */
static inline size_t fsc_json_plain16(const char *s, bool html_safe)
{
#if defined(__SSE2__)
    unsigned m = fsc_json_bad16(_mm_loadu_si128((const __m128i *)(const void *)s), html_safe);
    return (size_t)__builtin_ctz(m | 0x10000);
#else
    return fsc_json_plain(s, 16, html_safe);
#endif
}

#endif
