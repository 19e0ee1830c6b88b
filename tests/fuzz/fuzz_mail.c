/* SPDX-License-Identifier: MIT */
/* libFuzzer target: a mail's attached archives (src/input/mail.c). The input is a
 * document; every attachment found must be an archive or a compressed file by its
 * first bytes (or one fioscope names as not read), hold no more bytes than its
 * base64 could, and carry a name without a '/'. */
#include "input/input_int.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#ifndef FUZZ_ENTRY /* the replay test includes several targets under other names */
#define FUZZ_ENTRY LLVMFuzzerTestOneInput
#endif

int FUZZ_ENTRY(const uint8_t *data, size_t size);

int FUZZ_ENTRY(const uint8_t *data, size_t size)
{
    fsc_mail_archive *att = NULL;
    size_t n = fsc_mail_archives((const char *)data, size, &att);
    for (size_t i = 0; i < n; i++) {
        const unsigned char *d = (const unsigned char *)att[i].data;
        if (att[i].len > size / 4 * 3 || !att[i].name[0] || strchr(att[i].name, '/') ||
            !(fsc_is_archive_magic(d, att[i].len) || fsc_unread_archive(d, att[i].len)))
            abort();
        free(att[i].data);
    }
    free(att);
    return 0;
}
