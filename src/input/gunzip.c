/* SPDX-License-Identifier: MIT */
/* gzip by ISA-L under libarchive (gunzip.h). */
#include "gunzip.h"

#include <stdlib.h>
#include <string.h>

#ifdef FSC_HAVE_ISAL

#include "isal_api.h"

/* The blocks libarchive's gzip filter makes (its out_block_size). */
#define OUT_BLOCK ((size_t)64 << 10)
/* Compressed bytes read ahead. */
#define IN_BLOCK ((size_t)256 << 10)
/* Consumed bytes kept before the unconsumed ones: inflate holds up to 8 bytes it took
 * in its bit buffer, and gives back the whole ones it did not use at a member's end. */
#define KEEP ((size_t)8)

struct fsc_gunzip {
    fsc_gunzip_source src;
    void *ctx;
    unsigned char *in;    /* compressed bytes [pos, len) not yet consumed */
    size_t pos, len, cap;
    bool in_eof;          /* the source has ended (or failed) */
    bool in_stream;       /* inside a member's deflate data */
    bool eof;             /* no further member */
    uint64_t in_bytes;
    unsigned char *out;
    struct inflate_state st;
};

/* At least n compressed bytes at g->in + g->pos; false when the input ends first. */
static bool ahead(fsc_gunzip *g, size_t n)
{
    while (g->len - g->pos < n) {
        if (g->in_eof)
            return false;
        if (g->pos > KEEP) { /* what is left goes to the front, with the KEEP before */
            memmove(g->in, g->in + g->pos - KEEP, g->len - g->pos + KEEP);
            g->len -= g->pos - KEEP;
            g->pos = KEEP;
        }
        const void *p;
        ssize_t r = g->src(g->ctx, &p);
        if (r <= 0) { /* a read error ends the input, as libarchive's read-ahead does */
            g->in_eof = true;
            return false;
        }
        if (g->len + (size_t)r > g->cap) {
            size_t cap = g->cap;
            while (cap < g->len + (size_t)r)
                cap *= 2;
            unsigned char *in = realloc(g->in, cap);
            if (!in) {
                g->in_eof = true;
                return false;
            }
            g->in = in;
            g->cap = cap;
        }
        memcpy(g->in + g->len, p, (size_t)r);
        g->len += (size_t)r;
    }
    return true;
}

static void consume(fsc_gunzip *g, size_t n)
{
    g->pos += n;
    g->in_bytes += n;
}

/* The length of the gzip member header at p (n bytes there), with the checks of
 * libarchive's (deflate, no reserved flag; extra field, name, comment and header CRC
 * skipped, none of them checked); 0: none, or not all of it within the n bytes - but
 * for an extra field with nothing after it, which, like libarchive's, may end past
 * them (the member is then cut short). */
static size_t header_len(const unsigned char *p, size_t n)
{
    if (n < 10 || p[0] != 0x1f || p[1] != 0x8b || p[2] != 8 || (p[3] & 0xe0))
        return 0;
    unsigned flags = p[3];
    size_t len = 10;
    if (flags & 4) { /* extra: a 2-byte length, then that many bytes */
        if (n < len + 2)
            return 0;
        len += 2 + ((size_t)p[len + 1] << 8 | p[len]);
    }
    for (unsigned bit = 8; bit <= 16; bit <<= 1) { /* name, comment: NUL-terminated */
        if (!(flags & bit))
            continue;
        const unsigned char *z = len < n ? memchr(p + len, 0, n - len) : NULL;
        if (!z)
            return 0;
        len = (size_t)(z - p) + 1;
    }
    if (flags & 2) { /* header CRC */
        if (n < len + 2)
            return 0;
        len += 2;
    }
    return len;
}

/* The header of the next member, read ahead until whole (it ends within 64 KiB, or
 * is taken for none, as libarchive's would at the end of its input). */
static size_t next_header(fsc_gunzip *g)
{
    size_t want = 10;
    for (;;) {
        bool more = ahead(g, want);
        size_t avail = g->len - g->pos, n = header_len(g->in + g->pos, avail);
        if (n > avail && more) { /* an extra field: read it */
            want = n;
            continue;
        }
        if (n || !more || avail < 10 || g->in[g->pos] != 0x1f || want >= ((size_t)64 << 10))
            return n;
        want = avail * 2; /* a long name or comment: read on */
    }
}

fsc_gunzip *fsc_gunzip_new(const unsigned char *head, size_t n, fsc_gunzip_source src, void *ctx)
{
    size_t h = header_len(head, n);
    if (!h || h > n || !fsc_isal_usable())
        return NULL;
    fsc_gunzip *g = calloc(1, sizeof *g);
    if (!g)
        return NULL;
    g->src = src;
    g->ctx = ctx;
    g->cap = IN_BLOCK;
    g->in = malloc(g->cap);
    g->out = malloc(OUT_BLOCK);
    if (!g->in || !g->out) {
        fsc_gunzip_free(g);
        return NULL;
    }
    return g;
}

/* gzip_filter_read of libarchive, step for step: fill the block until it is full,
 * the members end, or an error. */
ssize_t fsc_gunzip_read(fsc_gunzip *g, const void **out, const char **why)
{
    size_t done = 0;
    *why = NULL;
    while (done < OUT_BLOCK && !g->eof) {
        if (!g->in_stream) {
            size_t n = next_header(g);
            if (!n) { /* no further member: what follows is not read */
                g->eof = true;
                break;
            }
            consume(g, n < g->len - g->pos ? n : g->len - g->pos); /* past the end: cut short */
            fsc_isal.isal_inflate_init(&g->st);
            g->st.crc_flag = ISAL_DEFLATE;
            g->in_stream = true;
        }
        if (!ahead(g, 1)) {
            *why = "truncated gzip input";
            return -1;
        }
        size_t avail = g->len - g->pos;
        g->st.next_in = g->in + g->pos;
        g->st.avail_in = (uint32_t)(avail < UINT32_MAX ? avail : UINT32_MAX);
        g->st.next_out = g->out + done;
        g->st.avail_out = (uint32_t)(OUT_BLOCK - done);
        uint32_t had = g->st.avail_in;
        size_t before = done;
        int r = fsc_isal.isal_inflate(&g->st);
        consume(g, had - g->st.avail_in);
        done = OUT_BLOCK - g->st.avail_out;
        if (r < 0) {
            *why = "gzip decompression failed";
            return -1;
        }
        if (had == g->st.avail_in && done == before && g->st.block_state != ISAL_BLOCK_FINISH) {
            /* no step: inflate leaves the last bytes of a symbol it cannot finish in
             * the input (zlib takes them into its own buffer): more input, or it was
             * cut short */
            if (!ahead(g, avail + 1)) {
                *why = "truncated gzip input";
                return -1;
            }
            continue;
        }
        if (g->st.block_state == ISAL_BLOCK_FINISH) {
            /* the whole bytes inflate took past the member's deflate data: the trailer's */
            size_t back = (size_t)(g->st.read_in_length > 0 ? g->st.read_in_length : 0) / 8;
            if (back > g->pos || back > KEEP) {
                *why = "gzip decompression failed";
                return -1;
            }
            g->pos -= back;
            g->in_bytes -= back;
            g->in_stream = false;
            if (!ahead(g, 8)) /* the trailer (CRC, length): libarchive fails without a word */
                return -1;
            consume(g, 8);
        }
    }
    *out = done ? g->out : NULL;
    return (ssize_t)done;
}

uint64_t fsc_gunzip_in_bytes(const fsc_gunzip *g)
{
    return g->in_bytes;
}

void fsc_gunzip_free(fsc_gunzip *g)
{
    if (!g)
        return;
    free(g->in);
    free(g->out);
    free(g);
}

#else /* built without ISA-L: libarchive reads gzip */

fsc_gunzip *fsc_gunzip_new(const unsigned char *head, size_t n, fsc_gunzip_source src, void *ctx)
{
    (void)head;
    (void)n;
    (void)src;
    (void)ctx;
    return NULL;
}

ssize_t fsc_gunzip_read(fsc_gunzip *g, const void **out, const char **why)
{
    (void)g;
    *out = NULL;
    *why = NULL;
    return -1;
}

uint64_t fsc_gunzip_in_bytes(const fsc_gunzip *g)
{
    (void)g;
    return 0;
}

void fsc_gunzip_free(fsc_gunzip *g)
{
    (void)g;
}

#endif
