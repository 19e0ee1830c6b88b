/* SPDX-License-Identifier: MIT */
/* base64: see fioscope/base64.h. */
#include "fioscope/base64.h"

/* The value of a base64 digit, or -1. */
static int b64_digit(unsigned char c)
{
    if (c >= 'A' && c <= 'Z')
        return c - 'A';
    if (c >= 'a' && c <= 'z')
        return c - 'a' + 26;
    if (c >= '0' && c <= '9')
        return c - '0' + 52;
    if (c == '+')
        return 62;
    if (c == '/')
        return 63;
    return -1;
}

void fsc_b64_encode(fsc_buf *b, const unsigned char *p, size_t n)
{
    static const char tab[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    for (size_t i = 0; i < n; i += 3) {
        unsigned v = (unsigned)p[i] << 16 | (i + 1 < n ? (unsigned)p[i + 1] << 8 : 0) | (i + 2 < n ? p[i + 2] : 0);
        char q[4] = {tab[v >> 18 & 63], tab[v >> 12 & 63], i + 1 < n ? tab[v >> 6 & 63] : '=',
                     i + 2 < n ? tab[v & 63] : '='};
        fsc_buf_add(b, q, 4);
    }
}

size_t fsc_b64_line(const char *s, size_t n)
{
    while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r'))
        n--;
    if (n < 4 || n % 4)
        return 0;
    size_t pad = 0;
    while (pad < 2 && s[n - 1 - pad] == '=')
        pad++;
    for (size_t i = 0; i < n - pad; i++)
        if (b64_digit((unsigned char)s[i]) < 0)
            return 0;
    return n;
}

size_t fsc_b64_decode(const char *s, size_t n, unsigned char *out)
{
    size_t k = 0;
    for (size_t i = 0; i + 4 <= n; i += 4) {
        int a = b64_digit((unsigned char)s[i]), b = b64_digit((unsigned char)s[i + 1]);
        int c = b64_digit((unsigned char)s[i + 2]), d = b64_digit((unsigned char)s[i + 3]);
        if (a < 0 || b < 0)
            break;
        uint32_t v = (uint32_t)a << 18 | (uint32_t)b << 12 | (uint32_t)(c < 0 ? 0 : c) << 6 | (uint32_t)(d < 0 ? 0 : d);
        out[k++] = (unsigned char)(v >> 16);
        if (c < 0) /* "xx==": one byte, and the end */
            break;
        out[k++] = (unsigned char)(v >> 8);
        if (d < 0) /* "xxx=": two bytes */
            break;
        out[k++] = (unsigned char)v;
    }
    return k;
}
