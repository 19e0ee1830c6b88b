/* SPDX-License-Identifier: MIT */
/* libFuzzer target: zip members inflated by ISA-L (src/input/unzip.h) against
 * libarchive's own zip reader. The input is a zip archive in memory; libarchive lists
 * its members, and for each one, at libarchive's position right after its header (as
 * archive.c asks), unzip.h may take the member. Whenever it does, libarchive must read
 * that member to the same bytes, with no error: a member unzip.h takes is one whose
 * reading by libarchive would have been the same. (When it does not take one,
 * libarchive reads it as it always did: nothing to compare.) Without ISA-L or
 * libarchive there is nothing to compare. */
#include "input/archive_api.h"
#include "input/unzip.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef FUZZ_ENTRY /* the replay test includes several targets under other names */
#define FUZZ_ENTRY LLVMFuzzerTestOneInput
#endif

int FUZZ_ENTRY(const uint8_t *data, size_t size);

/* All of the current member as libarchive reads it; false on an error. */
static bool unzip_fuzz_data(struct archive *a, unsigned char **out, size_t *len)
{
    size_t cap = 1 << 16;
    *len = 0;
    *out = malloc(cap);
    for (;;) {
        if (!*out)
            abort();
        if (cap - *len < 1 << 15) {
            cap *= 2;
            unsigned char *d = realloc(*out, cap);
            if (!d)
                abort();
            *out = d;
        }
        la_ssize_t r = archive_read_data(a, *out + *len, cap - *len);
        if (r == 0)
            return true;
        if (r < 0)
            return false;
        *len += (size_t)r;
        if (*len > ((size_t)64 << 20))
            return false;
    }
}

int FUZZ_ENTRY(const uint8_t *data, size_t size)
{
    if (!fsc_archive_api_open(NULL))
        return 0;
    fsc_unzip *z = fsc_unzip_new(NULL, NULL, (const char *)data, size);
    if (!z)
        return 0;
    struct archive *a = archive_read_new();
    archive_read_support_format_zip(a);
    struct archive_entry *e;
    if (archive_read_open_memory(a, data, size) == ARCHIVE_OK) {
        for (int n = 0; n < 10000; n++) {
            int r = archive_read_next_header(a, &e);
            if (r == ARCHIVE_EOF || r < ARCHIVE_WARN)
                break;
            if (r != ARCHIVE_OK && r != ARCHIVE_WARN)
                continue;
            if (archive_entry_filetype(e) != AE_IFREG || !archive_entry_size_is_set(e) ||
                archive_entry_size(e) <= 0 || archive_entry_size(e) > (16 << 20))
                continue;
            uint64_t want = (uint64_t)archive_entry_size(e), packed = 0;
            char *mine = NULL;
            if (!fsc_unzip_find(z, (uint64_t)archive_filter_bytes(a, 0), want, &packed) ||
                !fsc_unzip_inflate(z, &mine))
                continue;
            unsigned char *ref = NULL;
            size_t len = 0;
            bool ok = unzip_fuzz_data(a, &ref, &len);
            if (!ok || len != want || memcmp(ref, mine, len) != 0) {
                fprintf(stderr, "unzip differs: ISA-L %llu bytes; libarchive %zu bytes, %s (%s)\n",
                        (unsigned long long)want, len, ok ? "read" : "an error",
                        archive_error_string(a) ? archive_error_string(a) : "");
                abort();
            }
            free(ref);
            free(mine);
        }
    }
    archive_read_free(a);
    fsc_unzip_free(z);
    return 0;
}
