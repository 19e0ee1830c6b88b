/* SPDX-License-Identifier: MIT */
/* Which zip members ISA-L inflates (src/input/unzip.h): a deflated member whose local
 * header, directory entry and data agree, read in memory or through the read
 * callback, with or without a data descriptor; and none of the others, each of which
 * libarchive then reads (tests/input/run_unzip.sh compares the two readers' output).
 * Zips are made here, with zlib's raw deflate. Without ISA-L (a build or machine
 * without libisal) the tests are skipped. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "input/unzip.h"

typedef struct zbuf {
    unsigned char b[1 << 20];
    size_t n;
} zbuf;

static void put16(zbuf *z, unsigned v)
{
    z->b[z->n++] = (unsigned char)v;
    z->b[z->n++] = (unsigned char)(v >> 8);
}

static void put32(zbuf *z, uint32_t v)
{
    put16(z, v & 0xFFFF);
    put16(z, v >> 16);
}

static void put(zbuf *z, const void *p, size_t n)
{
    memcpy(z->b + z->n, p, n);
    z->n += n;
}

typedef struct member {
    const char *name;
    const char *text;
    unsigned method; /* 0 stored, 8 deflate */
    unsigned flags;  /* 8: sizes and CRC in a data descriptor */
    /* filled in by make_zip */
    uint32_t local, data_off, packed, crc;
} member;

static size_t deflate_raw(const char *in, size_t n, unsigned char *out, size_t cap)
{
    z_stream s = {0};
    assert_int_equal(deflateInit2(&s, 6, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY), Z_OK);
    s.next_in = (Bytef *)(uintptr_t)in;
    s.avail_in = (uInt)n;
    s.next_out = out;
    s.avail_out = (uInt)cap;
    assert_int_equal(deflate(&s, Z_FINISH), Z_STREAM_END);
    size_t got = s.total_out;
    deflateEnd(&s);
    return got;
}

/* A zip of the members, their offsets noted in them. */
static void make_zip(zbuf *z, member *m, size_t n)
{
    static unsigned char packed[1 << 18];
    z->n = 0;
    for (size_t i = 0; i < n; i++) {
        size_t len = strlen(m[i].text), plen;
        if (m[i].method == 8) {
            plen = deflate_raw(m[i].text, len, packed, sizeof packed);
        } else {
            memcpy(packed, m[i].text, len);
            plen = len;
        }
        m[i].crc = (uint32_t)crc32(0, (const Bytef *)m[i].text, (uInt)len);
        m[i].packed = (uint32_t)plen;
        m[i].local = (uint32_t)z->n;
        bool dd = m[i].flags & 8;
        put32(z, 0x04034b50);
        put16(z, 20);
        put16(z, m[i].flags);
        put16(z, m[i].method);
        put32(z, 0);
        put32(z, dd ? 0 : m[i].crc);
        put32(z, dd ? 0 : m[i].packed);
        put32(z, dd ? 0 : (uint32_t)len);
        put16(z, (unsigned)strlen(m[i].name));
        put16(z, 0);
        put(z, m[i].name, strlen(m[i].name));
        m[i].data_off = (uint32_t)z->n;
        put(z, packed, plen);
        if (dd) {
            put32(z, 0x08074b50);
            put32(z, m[i].crc);
            put32(z, m[i].packed);
            put32(z, (uint32_t)len);
        }
    }
    size_t dir = z->n;
    for (size_t i = 0; i < n; i++) {
        put32(z, 0x02014b50);
        put16(z, 20);
        put16(z, 20);
        put16(z, m[i].flags);
        put16(z, m[i].method);
        put32(z, 0);
        put32(z, m[i].crc);
        put32(z, m[i].packed);
        put32(z, (uint32_t)strlen(m[i].text));
        put16(z, (unsigned)strlen(m[i].name));
        put16(z, 0);
        put16(z, 0);
        put16(z, 0);
        put16(z, 0);
        put32(z, 0);
        put32(z, m[i].local);
        put(z, m[i].name, strlen(m[i].name));
    }
    size_t dir_len = z->n - dir;
    put32(z, 0x06054b50);
    put16(z, 0);
    put16(z, 0);
    put16(z, (unsigned)n);
    put16(z, (unsigned)n);
    put32(z, (uint32_t)dir_len);
    put32(z, (uint32_t)dir);
    put16(z, 0);
}

static const char LOG[] =
    "randread: (groupid=0, jobs=1): err= 0: pid=30894: Mon Nov 30 02:48:04 2026\n"
    "  read: IOPS=10.9k, BW=42.8MiB/s (44.8MB/s)(85.5MiB/2001msec)\n"
    "    clat (usec): min=30, max=17032, avg=88.61, stdev=482.97\n"
    "     lat (usec): min=30, max=17032, avg=88.77, stdev=482.99\n";

static zbuf Z;
static member M[4];

static void three(void)
{
    M[0] = (member){"logs/a.txt", LOG, 8, 0, 0, 0, 0, 0};
    M[1] = (member){"logs/b.txt", LOG + 10, 0, 0, 0, 0, 0, 0};
    M[2] = (member){"logs/c.txt", LOG + 20, 8, 8, 0, 0, 0, 0};
    make_zip(&Z, M, 3);
}

static size_t reads;

static ssize_t from_buffer(void *ctx, void *buf, size_t n, uint64_t off)
{
    const zbuf *z = ctx;
    reads++;
    if (off >= z->n)
        return 0;
    size_t k = z->n - off < n ? z->n - off : n;
    memcpy(buf, z->b + off, k);
    return (ssize_t)k;
}

/* The zip's reader: in memory, or (fd) through the callback. */
static fsc_unzip *open_zip(bool fd)
{
    return fd ? fsc_unzip_new(from_buffer, &Z, NULL, Z.n) : fsc_unzip_new(NULL, NULL, (const char *)Z.b, Z.n);
}

static bool have_isal(void)
{
    three();
    fsc_unzip *z = open_zip(false);
    fsc_unzip_free(z);
    return z != NULL;
}

static bool takes(fsc_unzip *z, const member *m, uint64_t data_off)
{
    char *out = NULL;
    uint64_t packed = 0;
    bool yes = fsc_unzip_find(z, data_off, strlen(m->text), &packed) && fsc_unzip_inflate(z, &out);
    if (yes) {
        assert_non_null(out);
        assert_string_equal(out, m->text); /* NUL-terminated, the same bytes */
        assert_int_equal(packed, m->packed);
    } else {
        assert_null(out);
    }
    free(out);
    return yes;
}

static void test_good_members(void **state)
{
    (void)state;
    if (!have_isal())
        skip();
    for (int fd = 0; fd <= 1; fd++) {
        three();
        reads = 0;
        fsc_unzip *z = open_zip(fd);
        assert_non_null(z);
        assert_true(takes(z, &M[0], M[0].data_off));
        assert_false(takes(z, &M[1], M[1].data_off)); /* stored: libarchive's */
        assert_true(takes(z, &M[2], M[2].data_off));  /* sizes and CRC in a descriptor */
        if (fd)
            assert_true(reads > 0);
        /* a position that is not where a member's data begins */
        assert_false(takes(z, &M[0], M[0].data_off + 1));
        assert_false(takes(z, &M[0], M[0].data_off - 1));
        assert_false(takes(z, &M[0], 0));
        /* another size than the one declared */
        uint64_t packed;
        assert_false(fsc_unzip_find(z, M[0].data_off, strlen(LOG) - 1, &packed));
        assert_false(fsc_unzip_find(z, M[0].data_off, strlen(LOG) + 1, &packed));
        fsc_unzip_free(z);
    }
}

/* One byte of the zip changed at `at`: the member m is no longer taken. */
static void refused_after(const member *m, size_t at, unsigned char x)
{
    three();
    Z.b[at] ^= x;
    fsc_unzip *z = open_zip(false); /* the directory still reads: the member is refused */
    assert_non_null(z);
    assert_false(takes(z, m, m->data_off));
    fsc_unzip_free(z);
}

static void test_disagreement_refused(void **state)
{
    (void)state;
    if (!have_isal())
        skip();
    three();
    size_t dir = M[2].data_off + M[2].packed + 16; /* the first directory entry */
    member m0 = M[0], m2 = M[2];
    refused_after(&m0, m0.data_off + m0.packed / 2, 0x20); /* the deflate data */
    refused_after(&m0, m0.local + 14, 1);                 /* local CRC */
    refused_after(&m0, m0.local + 18, 1);                 /* local compressed size */
    refused_after(&m0, m0.local + 22, 1);                 /* local size */
    refused_after(&m0, m0.local + 6, 1);                  /* local flags: encrypted */
    refused_after(&m0, m0.local + 30, 1);                 /* local name */
    refused_after(&m0, dir + 16, 1);                      /* directory CRC */
    refused_after(&m0, dir + 20, 1);                      /* directory compressed size */
    refused_after(&m0, dir + 46, 1);                      /* directory name */
    refused_after(&m2, m2.local + 14, 1);                 /* a CRC beside the descriptor */
    refused_after(&m2, m2.local + 22, 1);                 /* a size beside the descriptor */
    /* the descriptor itself: libarchive does not read it when it has the directory */
    three();
    Z.b[M[2].data_off + M[2].packed + 4] ^= 1;
    fsc_unzip *z = open_zip(false);
    assert_non_null(z);
    assert_true(takes(z, &M[2], M[2].data_off));
    fsc_unzip_free(z);
}

static void test_archives_left_whole(void **state)
{
    (void)state;
    if (!have_isal())
        skip();
    three();
    /* bytes after the end record (or before the archive: the directory's offsets are
     * then off), a zip64 locator, a cut: the whole archive is libarchive's */
    Z.b[Z.n++] = '\n';
    assert_null(open_zip(false));
    three();
    memmove(Z.b + 4, Z.b, Z.n);
    memcpy(Z.b, "junk", 4);
    Z.n += 4;
    assert_null(open_zip(false));
    three();
    memcpy(Z.b + Z.n - 22 - 20, "PK\x06\x07", 4);
    assert_null(open_zip(false));
    three();
    Z.n -= 1;
    assert_null(open_zip(false));
    three();
    setenv("FIOSCOPE_NO_ISAL", "1", 1);
    assert_null(open_zip(false));
    unsetenv("FIOSCOPE_NO_ISAL");
    assert_null(fsc_unzip_new(NULL, NULL, (const char *)Z.b, 10)); /* shorter than an end record */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_good_members),
        cmocka_unit_test(test_disagreement_refused),
        cmocka_unit_test(test_archives_left_whole),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
