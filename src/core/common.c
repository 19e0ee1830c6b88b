/* SPDX-License-Identifier: MIT */
/* Status texts and the few allocation helpers every module uses. */
#include "fioscope/common.h"

#include <stdlib.h>
#include <string.h>

const char *fsc_strerror(fsc_status st)
{
    static const char *const text[] = {
#define FSC_X(code, txt) [code] = txt,
        FSC_STATUS_LIST(FSC_X)
#undef FSC_X
    };
    return (unsigned)st < FSC_STATUS_COUNT ? text[st] : "unknown status";
}

char *fsc_strndup(const char *s, size_t n)
{
    char *d = malloc(n + 1);
    if (!d)
        return NULL;
    if (n)
        memcpy(d, s, n);
    d[n] = '\0';
    return d;
}

char *fsc_strdup(const char *s)
{
    return s ? fsc_strndup(s, strlen(s)) : NULL;
}

bool fsc_grow(void **arr, size_t *cap, size_t need, size_t elem)
{
    if (need <= *cap)
        return true;
    size_t ncap = *cap ? *cap : elem >= 512 ? 1 : 4; /* big elements (jobs): rarely many */
    while (ncap < need) {
        if (ncap > SIZE_MAX / 2 / elem)
            return false;
        ncap *= 2;
    }
    void *p = realloc(*arr, ncap * elem);
    if (!p)
        return false;
    /* new slots start zeroed so FSC_PUSH hands out clean elements */
    memset((char *)p + *cap * elem, 0, (ncap - *cap) * elem);
    *arr = p;
    *cap = ncap;
    return true;
}
