/* SPDX-License-Identifier: MIT */
/* Test helper: read a file of the shared corpus ($FSC_CORPUS) into memory. */
#ifndef FSC_TEST_CORPUS_FILE_H
#define FSC_TEST_CORPUS_FILE_H

#include <stdio.h>
#include <stdlib.h>

/* The whole file FSC_CORPUS/rel, NUL-terminated, length in *len; NULL if it cannot
 * be read. The caller frees it. */
static inline char *corpus_read(const char *rel, size_t *len)
{
    const char *root = getenv("FSC_CORPUS");
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", root ? root : "/work/shared/corpus", rel);
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *data = NULL;
    size_t n = 0, cap = 0;
    for (;;) {
        if (n + 65536 + 1 > cap) {
            cap = (n + 65536 + 1) * 2;
            char *grown = realloc(data, cap);
            if (!grown) {
                free(data);
                fclose(f);
                return NULL;
            }
            data = grown;
        }
        size_t got = fread(data + n, 1, 65536, f);
        n += got;
        if (got < 65536)
            break;
    }
    fclose(f);
    data[n] = '\0';
    *len = n;
    return data;
}

#endif
