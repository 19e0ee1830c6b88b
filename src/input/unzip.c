/* SPDX-License-Identifier: MIT */
/* Deflated zip members inflated by ISA-L under libarchive (unzip.h). */
#include "unzip.h"

#include <stdlib.h>
#include <string.h>

#ifdef FSC_HAVE_ISAL

#include "isal_api.h"

/* The end of central directory record may be followed by a comment of up to 64 KiB. */
#define EOCD_LEN 22
#define EOCD_SEARCH ((size_t)EOCD_LEN + 0xFFFF)
/* Larger central directories (a million members) are left to libarchive. */
#define CD_MAX ((uint64_t)64 << 20)
#define CD_ENTRY_LEN 46
#define LOCAL_LEN 30
#define U32_UNSET 0xFFFFFFFFu /* a zip64 size or offset: in an extra field */
/* Compressed bytes read from a file into a buffer kept for the next members: up to
 * this much (a larger member's buffer is freed after it). */
#define IN_KEEP ((size_t)16 << 20)

typedef struct cd_entry {
    uint64_t local; /* offset of the local header */
    uint32_t crc, packed, size;
    uint32_t name_at; /* in the directory's bytes */
    uint16_t method, flags, name_len;
} cd_entry;

struct fsc_unzip {
    fsc_unzip_pread rd;
    void *ctx;
    const char *data; /* the archive in memory, or NULL: rd reads it */
    uint64_t size;
    unsigned char *dir; /* the central directory's bytes */
    cd_entry *e;        /* sorted by local header offset */
    size_t n;
    unsigned char *in;  /* the compressed bytes of members read through rd, reused */
    size_t in_cap;
    const cd_entry *found; /* by fsc_unzip_find, at found_off */
    uint64_t found_off;
    struct inflate_state st;
};

static uint16_t le16(const unsigned char *p)
{
    return (uint16_t)(p[0] | p[1] << 8);
}

static uint32_t le32(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* n bytes at off, whole: into buf, or (in memory) a pointer into the data. */
static const unsigned char *bytes_at(fsc_unzip *z, void *buf, size_t n, uint64_t off)
{
    if (off > z->size || n > z->size - off)
        return NULL;
    if (z->data)
        return (const unsigned char *)z->data + off;
    return z->rd(z->ctx, buf, n, off) == (ssize_t)n ? buf : NULL;
}

static int by_local(const void *a, const void *b)
{
    uint64_t x = ((const cd_entry *)a)->local, y = ((const cd_entry *)b)->local;
    return x < y ? -1 : x > y;
}

/* The directory's entries: false when anything in it is not as a plain zip has it. */
static bool read_directory(fsc_unzip *z, const unsigned char *p, size_t len, size_t count)
{
    if (!(z->e = calloc(count ? count : 1, sizeof *z->e)))
        return false;
    size_t at = 0;
    for (size_t i = 0; i < count; i++) {
        if (len - at < CD_ENTRY_LEN || le32(p + at) != 0x02014b50)
            return false;
        const unsigned char *h = p + at;
        size_t name = le16(h + 28), extra = le16(h + 30), comment = le16(h + 32);
        if (len - at - CD_ENTRY_LEN < name + extra + comment)
            return false;
        cd_entry *e = &z->e[i];
        e->flags = le16(h + 8);
        e->method = le16(h + 10);
        e->crc = le32(h + 16);
        e->packed = le32(h + 20);
        e->size = le32(h + 24);
        e->name_len = (uint16_t)name;
        e->local = le32(h + 42);
        e->name_at = (uint32_t)(at + CD_ENTRY_LEN);
        at += CD_ENTRY_LEN + name + extra + comment;
    }
    z->n = count;
    qsort(z->e, count, sizeof *z->e, by_local);
    return true;
}

fsc_unzip *fsc_unzip_new(fsc_unzip_pread rd, void *ctx, const char *data, uint64_t size)
{
    if (size < EOCD_LEN || !fsc_isal_usable())
        return NULL;
    fsc_unzip *z = calloc(1, sizeof *z);
    if (!z)
        return NULL;
    z->rd = rd;
    z->ctx = ctx;
    z->data = data;
    z->size = size;
    size_t tail = size < EOCD_SEARCH ? (size_t)size : EOCD_SEARCH;
    unsigned char *buf = data ? NULL : malloc(tail);
    const unsigned char *t = data || buf ? bytes_at(z, buf, tail, size - tail) : NULL;
    /* the record that ends the file exactly (its comment last), and no zip64 locator
     * before it; the directory right before it (no bytes prepended to the archive) */
    const unsigned char *eocd = NULL;
    for (size_t i = t ? tail - EOCD_LEN + 1 : 0; i-- > 0;)
        if (le32(t + i) == 0x06054b50 && i + EOCD_LEN + le16(t + i + 20) == tail) {
            eocd = t + i;
            break;
        }
    bool ok = false;
    if (eocd && !(eocd - t >= 20 && le32(eocd - 20) == 0x07064b50)) {
        uint64_t at = size - tail + (uint64_t)(eocd - t);
        size_t count = le16(eocd + 10);
        uint64_t dir_len = le32(eocd + 12), dir_off = le32(eocd + 16);
        if (le16(eocd + 4) == 0 && le16(eocd + 6) == 0 && le16(eocd + 8) == count && count != 0xFFFF &&
            dir_off != U32_UNSET && dir_off + dir_len == at && dir_len <= CD_MAX &&
            (z->dir = malloc(dir_len ? (size_t)dir_len : 1))) {
            const unsigned char *d = bytes_at(z, z->dir, (size_t)dir_len, dir_off);
            if (d && d != z->dir)
                memcpy(z->dir, d, (size_t)dir_len);
            ok = d && read_directory(z, z->dir, (size_t)dir_len, count);
        }
    }
    free(buf);
    if (!ok) {
        fsc_unzip_free(z);
        return NULL;
    }
    return z;
}

static bool same_or_0(uint32_t local, uint32_t dir)
{
    return local == 0 || local == dir;
}

/* The entry whose local header ends at data_off, checked against that header; NULL:
 * none, or not one this module inflates. */
static const cd_entry *entry_at(fsc_unzip *z, uint64_t data_off, uint64_t size)
{
    size_t lo = 0, hi = z->n; /* the last entry whose local header is before data_off */
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (z->e[mid].local < data_off)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (!lo)
        return NULL;
    const cd_entry *e = &z->e[lo - 1];
    if ((lo >= 2 && z->e[lo - 2].local == e->local) || e->method != 8 || (e->flags & 0x41) ||
        e->packed == U32_UNSET || e->size == U32_UNSET || e->local == U32_UNSET || e->size != size)
        return NULL;
    unsigned char buf[LOCAL_LEN + 0xFFFF];
    const unsigned char *h = bytes_at(z, buf, LOCAL_LEN + (size_t)e->name_len, e->local);
    if (!h || le32(h) != 0x04034b50 || le16(h + 6) != e->flags || le16(h + 8) != e->method ||
        le16(h + 26) != e->name_len || e->local + LOCAL_LEN + e->name_len + le16(h + 28) != data_off ||
        memcmp(h + LOCAL_LEN, z->dir + e->name_at, e->name_len) != 0)
        return NULL;
    /* libarchive takes the CRC and sizes of the local header where they are not 0 (with
     * a data descriptor or without: it reads no descriptor when it has the directory) */
    return same_or_0(le32(h + 14), e->crc) && same_or_0(le32(h + 18), e->packed) &&
                   same_or_0(le32(h + 22), e->size)
               ? e
               : NULL;
}

bool fsc_unzip_find(fsc_unzip *z, uint64_t data_off, uint64_t size, uint64_t *packed)
{
    z->found = entry_at(z, data_off, size);
    z->found_off = data_off;
    *packed = z->found ? z->found->packed : 0;
    return z->found != NULL;
}

/* The deflate data src of the entry e, of `size` plain bytes, inflated into a new
 * buffer (*out) when it is sure to be the same bytes as libarchive's. */
static bool inflate_into(fsc_unzip *z, const cd_entry *e, const unsigned char *src, uint64_t size, char **out)
{
    char *plain = malloc((size_t)size + 1);
    if (!plain)
        return false;
    struct inflate_state *st = &z->st;
    fsc_isal.isal_inflate_init(st);
    st->crc_flag = ISAL_GZIP_NO_HDR; /* raw deflate, the CRC-32 of its output */
    st->next_in = (uint8_t *)(uintptr_t)src;
    st->avail_in = e->packed;
    st->next_out = (uint8_t *)plain;
    st->avail_out = (uint32_t)size + 1; /* room for a byte too many: then it differs */
    int r = fsc_isal.isal_inflate(st);
    /* the whole stream, no byte of it left over, the size and CRC of the directory */
    if (r != ISAL_DECOMP_OK || st->block_state != ISAL_BLOCK_FINISH || st->avail_in != 0 ||
        st->read_in_length >= 8 || st->total_out != size || st->crc != e->crc) {
        free(plain);
        return false;
    }
    plain[size] = '\0';
    *out = plain;
    return true;
}

bool fsc_unzip_inflate(fsc_unzip *z, char **out)
{
    *out = NULL;
    const cd_entry *e = z->found;
    if (!e)
        return false;
    uint64_t data_off = z->found_off, size = e->size;
    /* one input buffer for the members: a fresh one each time faulted its pages in */
    if (!z->data && z->in_cap < e->packed) {
        free(z->in);
        z->in_cap = 0;
        if (!(z->in = malloc(e->packed)))
            return false;
        z->in_cap = e->packed;
    }
    const unsigned char *src = bytes_at(z, z->in, e->packed, data_off);
    if (z->in_cap > IN_KEEP) { /* read (or not): the bytes of a big member are not kept */
        unsigned char *big = z->in;
        z->in = NULL;
        z->in_cap = 0;
        bool ok = src && inflate_into(z, e, src, size, out);
        free(big);
        return ok;
    }
    return src && inflate_into(z, e, src, size, out);
}

void fsc_unzip_free(fsc_unzip *z)
{
    if (!z)
        return;
    free(z->dir);
    free(z->e);
    free(z->in);
    free(z);
}

#else /* built without ISA-L: libarchive inflates zip members */

fsc_unzip *fsc_unzip_new(fsc_unzip_pread rd, void *ctx, const char *data, uint64_t size)
{
    (void)rd;
    (void)ctx;
    (void)data;
    (void)size;
    return NULL;
}

bool fsc_unzip_find(fsc_unzip *z, uint64_t data_off, uint64_t size, uint64_t *packed)
{
    (void)z;
    (void)data_off;
    (void)size;
    *packed = 0;
    return false;
}

bool fsc_unzip_inflate(fsc_unzip *z, char **out)
{
    (void)z;
    *out = NULL;
    return false;
}

void fsc_unzip_free(fsc_unzip *z)
{
    (void)z;
}

#endif
