/* SPDX-License-Identifier: MIT */
/*
 * Deflated zip members inflated by ISA-L (libisal, opened on first use), under
 * libarchive. libarchive's zip reader inflates with zlib, at a sixth of ISA-L's
 * speed: a .zip of logs was read at half the speed of the same .tar.gz.
 *
 * libarchive stays the reader of the archive: it lists the members, in its order,
 * with its names, errors and checks. This module only replaces its inflating of a
 * member it has just opened, and only where the result is sure to be the same bytes:
 * the member found in the central directory by where libarchive's position stands
 * (its local header ending right there), local header and directory entry agreeing
 * (name, method and flags; sizes and CRC the same or 0 in the local header, where
 * libarchive then takes the directory's), deflate (method 8) and not encrypted, and the
 * inflated data exactly the directory's size with the directory's CRC-32, its deflate
 * stream exactly the directory's compressed size. Anything else - stored members,
 * zip64, data that disagrees, damage - is left to libarchive, which then reads the
 * member as it always did (nothing of it was consumed here).
 * FIOSCOPE_NO_ISAL=1, or a machine without libisal, leaves every member to libarchive.
 */
#ifndef FSC_UNZIP_H
#define FSC_UNZIP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

typedef struct fsc_unzip fsc_unzip;

/* Read n bytes at offset off of the archive into buf: n on success, less at its end,
 * -1 on an error. */
typedef ssize_t (*fsc_unzip_pread)(void *ctx, void *buf, size_t n, uint64_t off);

/* The central directory of the zip archive of `size` bytes that rd reads (or, with
 * data non-NULL, that is data[0, size) in memory); NULL: no ISA-L, FIOSCOPE_NO_ISAL
 * set, no plain (non-zip64) end of central directory where it belongs, or no memory.
 * The caller keeps ctx and data alive until fsc_unzip_free. */
fsc_unzip *fsc_unzip_new(fsc_unzip_pread rd, void *ctx, const char *data, uint64_t size);

/* The member whose data begins at data_off (libarchive's position right after its
 * header), of `size` plain bytes (its declared size): its compressed size in *packed,
 * so that the caller can weigh it before it is inflated. False: not a member this
 * module inflates (see above). */
bool fsc_unzip_find(fsc_unzip *z, uint64_t data_off, uint64_t size, uint64_t *packed);

/* The member fsc_unzip_find found last, inflated into a new buffer of its size + 1
 * bytes (*out, NUL-terminated; the caller frees it). False: not the same bytes as
 * libarchive's for sure (see above), or no memory; *out is then NULL. Nothing of the
 * member is consumed either way: libarchive can still read it. */
bool fsc_unzip_inflate(fsc_unzip *z, char **out);

void fsc_unzip_free(fsc_unzip *z);

#endif
