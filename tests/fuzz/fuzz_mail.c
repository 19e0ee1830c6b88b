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

typedef struct mail_seen {
    fsc_mail_archive *a;
    size_t n, k;
    bool differ;
} mail_seen;

/* fsc_mail_archives_file's attachments, against those read whole */
static bool mail_same_as_whole(void *ctx, fsc_mail_archive *a)
{
    mail_seen *s = ctx;
    if (s->k >= s->n || s->a[s->k].len != a->len || memcmp(s->a[s->k].data, a->data, a->len) ||
        strcmp(s->a[s->k].name, a->name))
        s->differ = true;
    s->k++;
    free(a->data);
    return true;
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
        mail_seen s = {att, n, 0, false};
        bool oom;
        if (write(fd, data, size) == (ssize_t)size && fsc_mail_archives_file(fd, size, mail_same_as_whole, &s, &oom) &&
            !oom && (s.differ || s.k != n))
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
