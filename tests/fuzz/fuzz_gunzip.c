/* SPDX-License-Identifier: MIT */
/* libFuzzer target: gzip by ISA-L (src/input/gunzip.h) against libarchive's own gzip
 * filter. The input is a gzip stream (its first byte, taken off, sets how many bytes
 * each read of the source gives); both read it through libarchive's "raw" format, one
 * with the gzip filter, one with the decoder as the client.
 * - A sound stream (every member inflates, and its CRC and length are those of its
 *   trailer, checked here with zlib) must give the same bytes and the same end (no
 *   error, or libarchive's same error about what came out).
 * - A damaged one may be found damaged at another place (ISA-L decodes in larger
 *   steps than zlib, and either may meet a bad code first, or the end of a cut
 *   input): the bytes before are the same, so the shorter output must begin the
 *   longer one.
 * Without ISA-L or libarchive there is nothing to compare. */
#include "input/archive_api.h"
#include "input/gunzip.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#ifndef FUZZ_ENTRY /* the replay test includes several targets under other names */
#define FUZZ_ENTRY LLVMFuzzerTestOneInput
#endif

int FUZZ_ENTRY(const uint8_t *data, size_t size);

typedef struct gz_fuzz_src {
    const uint8_t *p;
    size_t n, off, chunk;
} gz_fuzz_src;

static ssize_t gz_fuzz_read(void *ctx, const void **out)
{
    gz_fuzz_src *s = ctx;
    size_t k = s->n - s->off < s->chunk ? s->n - s->off : s->chunk;
    *out = s->p + s->off;
    s->off += k;
    return (ssize_t)k;
}

static la_ssize_t gz_fuzz_client(struct archive *a, void *ud, const void **out)
{
    const char *why;
    ssize_t r = fsc_gunzip_read(ud, out, &why);
    if (r < 0 && why)
        archive_set_error(a, -1, "%s", why);
    return r;
}

/* All the data of the archive's one raw entry, and how it ended ("" or the error). */
typedef struct gz_fuzz_out {
    unsigned char *data;
    size_t len, cap;
    int status; /* 0 the end, 1 an error */
    char why[200];
} gz_fuzz_out;

static void gz_fuzz_drain(struct archive *a, bool opened, gz_fuzz_out *o)
{
    struct archive_entry *e;
    if (!opened || archive_read_next_header(a, &e) < ARCHIVE_WARN) {
        o->status = 1;
        snprintf(o->why, sizeof o->why, "%s", archive_error_string(a) ? archive_error_string(a) : "?");
        return;
    }
    for (;;) {
        if (o->cap - o->len < 65536) {
            size_t cap = o->cap ? 2 * o->cap : 1 << 17;
            unsigned char *d = realloc(o->data, cap);
            if (!d)
                abort();
            o->data = d;
            o->cap = cap;
        }
        la_ssize_t r = archive_read_data(a, o->data + o->len, 65536);
        if (r == 0)
            return;
        if (r < 0) {
            o->status = 1;
            snprintf(o->why, sizeof o->why, "%s", archive_error_string(a) ? archive_error_string(a) : "?");
            return;
        }
        o->len += (size_t)r;
        if (o->len > ((size_t)64 << 20)) /* a bomb: enough of it compared */
            return;
    }
}

/* The gzip member header at p (n bytes), as libarchive's filter reads it; 0: none. */
static size_t gz_fuzz_header(const uint8_t *p, size_t n)
{
    if (n < 10 || p[0] != 0x1f || p[1] != 0x8b || p[2] != 8 || (p[3] & 0xe0))
        return 0;
    size_t len = 10;
    if (p[3] & 4) {
        if (n < 12)
            return 0;
        len += 2 + ((size_t)p[11] << 8 | p[10]);
    }
    for (unsigned bit = 8; bit <= 16; bit <<= 1) {
        if (!(p[3] & bit))
            continue;
        const uint8_t *z = len < n ? memchr(p + len, 0, n - len) : NULL;
        if (!z)
            return 0;
        len = (size_t)(z - p) + 1;
    }
    len += p[3] & 2 ? 2 : 0;
    return len <= n ? len : 0;
}

/* Is every member of the stream whole and sound (zlib inflates it, and the trailer's
 * CRC and length match), up to where no further header is? */
static bool gz_fuzz_sound(const uint8_t *p, size_t n)
{
    size_t off = 0, h;
    while ((h = gz_fuzz_header(p + off, n - off)) != 0) {
        off += h;
        z_stream z = {0};
        if (inflateInit2(&z, -15) != Z_OK)
            return false;
        static unsigned char out[1 << 16];
        uLong crc = crc32(0, NULL, 0), total = 0;
        int r = Z_OK;
        z.next_in = (Bytef *)(uintptr_t)(p + off);
        z.avail_in = (uInt)(n - off);
        while (r == Z_OK) {
            z.next_out = out;
            z.avail_out = sizeof out;
            r = inflate(&z, Z_NO_FLUSH);
            crc = crc32(crc, out, (uInt)(sizeof out - z.avail_out));
            total += sizeof out - z.avail_out;
            if (total > ((uLong)64 << 20))
                r = Z_DATA_ERROR; /* a bomb: not compared whole */
        }
        off = (size_t)(z.next_in - p);
        inflateEnd(&z);
        if (r != Z_STREAM_END || n - off < 8)
            return false;
        const uint8_t *t = p + off;
        uint32_t tcrc = (uint32_t)t[0] | (uint32_t)t[1] << 8 | (uint32_t)t[2] << 16 | (uint32_t)t[3] << 24;
        uint32_t tlen = (uint32_t)t[4] | (uint32_t)t[5] << 8 | (uint32_t)t[6] << 16 | (uint32_t)t[7] << 24;
        if (tcrc != (uint32_t)crc || tlen != (uint32_t)total)
            return false;
        off += 8;
    }
    return true;
}

int FUZZ_ENTRY(const uint8_t *data, size_t size)
{
    if (size < 2 || !fsc_archive_api_open(NULL))
        return 0;
    gz_fuzz_src src = {data + 1, size - 1, 0, (size_t)1 + (size_t)data[0] * 37};
    fsc_gunzip *g = fsc_gunzip_new(src.p, src.n < 512 ? src.n : 512, gz_fuzz_read, &src);
    if (!g)
        return 0;
    gz_fuzz_out ref = {0}, got = {0};
    struct archive *a = archive_read_new();
    archive_read_support_filter_gzip(a);
    archive_read_support_format_raw(a);
    gz_fuzz_drain(a, archive_read_open_memory(a, src.p, src.n) == ARCHIVE_OK, &ref);
    archive_read_free(a);
    a = archive_read_new();
    archive_read_support_filter_gzip(a);
    archive_read_support_format_raw(a);
    archive_read_set_callback_data(a, g);
    archive_read_set_read_callback(a, gz_fuzz_client);
    gz_fuzz_drain(a, archive_read_open1(a) == ARCHIVE_OK, &got);
    archive_read_free(a);
    fsc_gunzip_free(g);
    size_t common = ref.len < got.len ? ref.len : got.len;
    bool differ = common && memcmp(ref.data, got.data, common) != 0;
    if (gz_fuzz_sound(src.p, src.n))
        differ = differ || ref.status != got.status || ref.len != got.len || strcmp(ref.why, got.why);
    if (differ) {
        fprintf(stderr, "gunzip differs: libarchive %zu bytes, status %d (%s); ISA-L %zu bytes, status %d (%s)\n",
                ref.len, ref.status, ref.why, got.len, got.status, got.why);
        abort();
    }
    free(ref.data);
    free(got.data);
    return 0;
}
