/* SPDX-License-Identifier: MIT */
/*
 * gzip decompressed by ISA-L (libisal, opened on first use) for libarchive, which
 * reads the plain bytes as if its own gzip filter had made them. libarchive's filter
 * uses zlib: 245 MB/s here, so a .tar.gz was read at the speed of its decompression
 * (the parse workers waited); ISA-L's inflate does the same work about 6x faster.
 *
 * The decoder gives libarchive what its gzip filter would, block for block: blocks
 * of 64 KiB, concatenated gzip members read one after the other, anything after the
 * last one that is not a gzip header ignored, the trailer's CRC and length not
 * checked, and libarchive's words for errors ("truncated gzip input", "gzip
 * decompression failed"). A sound stream reads the same either way; in a damaged one,
 * ISA-L (which decodes in larger steps) may find the damage at another point than
 * zlib, or call a corrupt stream that is also cut short corrupt where zlib calls it
 * cut: the bytes before are the same (tests/fuzz/fuzz_gunzip.c checks both).
 * FIOSCOPE_NO_ISAL=1 (or a machine without libisal) leaves gzip to libarchive. It
 * reads gzip from a file, a pipe and inside other archives; zip members are
 * unzip.h's.
 */
#ifndef FSC_GUNZIP_H
#define FSC_GUNZIP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

typedef struct fsc_gunzip fsc_gunzip;

/* Where the compressed bytes come from: the next block of them in *out, its length;
 * 0 at the end, -1 on a read error. */
typedef ssize_t (*fsc_gunzip_source)(void *ctx, const void **out);

/* A decoder of the gzip stream that head (the first n bytes of the input, all of
 * which the source serves again from its start) begins, or NULL: no whole gzip header
 * within those bytes, no ISA-L, FIOSCOPE_NO_ISAL set, or no memory; libarchive then
 * reads the input itself. */
fsc_gunzip *fsc_gunzip_new(const unsigned char *head, size_t n, fsc_gunzip_source src, void *ctx);

/* The next block of plain bytes (*out, valid until the next call), its length; 0 at
 * the end of the stream; -1 on an error, with *why the message libarchive's filter
 * gives (NULL where it gives none). */
ssize_t fsc_gunzip_read(fsc_gunzip *g, const void **out, const char **why);

/* Compressed bytes consumed so far (for the expansion limits). */
uint64_t fsc_gunzip_in_bytes(const fsc_gunzip *g);

void fsc_gunzip_free(fsc_gunzip *g);

#endif
