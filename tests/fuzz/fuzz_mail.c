/* SPDX-License-Identifier: MIT */
/* libFuzzer target: a mail's attached archives (src/input/mail.c). The input is a
 * document; every attachment found must be an archive or a compressed file by its
 * first bytes (or one fioscope names as not read), hold no more bytes than its
 * base64 could, and carry a name without a '/'. The same document as a file, read
 * part by part (fsc_mail_archives_file, a mailbox in pieces), must give the same
 * attachments in the same order. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* memfd_create */
#endif
#include "input/input_int.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* What fsc_mail_archives found, each of them checked off as the file's reader gives
 * its own: want moves on, left counts down (below 0: one too many). */
typedef struct mail_expect {
    const fsc_mail_archive *want;
    long left;
    bool differ;
} mail_expect;

static bool mail_same_as_whole(void *ctx, fsc_mail_archive *a)
{
    mail_expect *e = ctx;
    if (--e->left < 0 || e->want->len != a->len || memcmp(e->want->data, a->data, a->len) ||
        strcmp(e->want->name, a->name))
        e->differ = true;
    else
        e->want++;
    free(a->data);
    return !e->differ;
}

#ifndef FUZZ_ENTRY /* the replay test includes several targets under other names */
#define FUZZ_ENTRY LLVMFuzzerTestOneInput
#endif

int FUZZ_ENTRY(const uint8_t *data, size_t size);

int FUZZ_ENTRY(const uint8_t *data, size_t size)
{
    fsc_mail_archive *att = NULL;
    size_t n = fsc_mail_archives((const char *)data, size, &att);
    int fd = memfd_create("fuzz_mail", 0);
    if (fd >= 0) {
        mail_expect e = {att, (long)n, false};
        bool oom;
        if (write(fd, data, size) == (ssize_t)size && fsc_mail_archives_file(fd, size, mail_same_as_whole, &e, &oom) &&
            !oom && (e.differ || e.left != 0))
            abort();
        close(fd);
    }
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
