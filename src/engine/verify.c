/* SPDX-License-Identifier: MIT */
/* Verify blocks: crc32c (Castagnoli, table-driven, written here), md5 and sha256 (nettle).
 * A verify block starts with a header that names the block (magic, its offset, length,
 * the seed of its data) and carries the checksum of the bytes after the header. */
#include "engine_int.h"
#include "engine_libs.h"

#include <stdlib.h>
#include <string.h>

/* ---- crc32c, slicing by 8 ---- */

static uint32_t crc_tab[8][256];
static bool crc_ready;

static void crc_init(void)
{
    for (uint32_t i = 0; i < 256; i++) {
        uint32_t c = i;
        for (int k = 0; k < 8; k++)
            c = c & 1 ? (c >> 1) ^ 0x82F63B78u : c >> 1;
        crc_tab[0][i] = c;
    }
    for (uint32_t i = 0; i < 256; i++)
        for (int t = 1; t < 8; t++)
            crc_tab[t][i] = (crc_tab[t - 1][i] >> 8) ^ crc_tab[0][crc_tab[t - 1][i] & 0xff];
    __atomic_store_n(&crc_ready, true, __ATOMIC_RELEASE);
}

uint32_t fsc_crc32c(uint32_t crc, const void *buf, size_t len)
{
    if (!__atomic_load_n(&crc_ready, __ATOMIC_ACQUIRE))
        crc_init(); /* idempotent: two threads write the same table */
    const uint8_t *p = buf;
    crc = ~crc;
    while (len && ((uintptr_t)p & 7)) {
        crc = (crc >> 8) ^ crc_tab[0][(crc ^ *p++) & 0xff];
        len--;
    }
    while (len >= 8) {
        uint64_t w;
        memcpy(&w, p, 8);
        w ^= crc;
        crc = crc_tab[7][w & 0xff] ^ crc_tab[6][(w >> 8) & 0xff] ^ crc_tab[5][(w >> 16) & 0xff] ^
              crc_tab[4][(w >> 24) & 0xff] ^ crc_tab[3][(w >> 32) & 0xff] ^ crc_tab[2][(w >> 40) & 0xff] ^
              crc_tab[1][(w >> 48) & 0xff] ^ crc_tab[0][w >> 56];
        p += 8;
        len -= 8;
    }
    while (len--)
        crc = (crc >> 8) ^ crc_tab[0][(crc ^ *p++) & 0xff];
    return ~crc;
}

size_t fsc_verify_sum(fsc_verify type, const void *buf, size_t len, uint8_t out[32])
{
    switch (type) {
    case FSC_VERIFY_CRC32C: {
        uint32_t c = fsc_crc32c(0, buf, len);
        memcpy(out, &c, 4);
        return 4;
    }
    case FSC_VERIFY_MD5: {
        if (!fsc_nettle_api_open(NULL)) /* opt_verify opened it, for good */
            abort();
        struct md5_ctx ctx;
        md5_init(&ctx);
        md5_update(&ctx, len, buf);
        md5_digest(&ctx, MD5_DIGEST_SIZE, out);
        return MD5_DIGEST_SIZE;
    }
    case FSC_VERIFY_SHA256: {
        if (!fsc_nettle_api_open(NULL))
            abort();
        struct sha256_ctx ctx;
        sha256_init(&ctx);
        sha256_update(&ctx, len, buf);
        sha256_digest(&ctx, SHA256_DIGEST_SIZE, out);
        return SHA256_DIGEST_SIZE;
    }
    case FSC_VERIFY_NONE:
        break;
    }
    return 0;
}

#define VERIFY_MAGIC 0x56435346u /* "FSCV" */

typedef struct vhdr {
    uint32_t magic;
    uint16_t type, hlen;
    uint32_t len, hcrc; /* crc32c of the header with hcrc = 0 */
    uint64_t offset, seed;
    uint8_t sum[32];
} vhdr;

void fsc_verify_fill(fsc_verify type, void *buf, uint32_t len, uint64_t offset, uint64_t seed)
{
    vhdr h = {.magic = VERIFY_MAGIC, .type = (uint16_t)type, .hlen = sizeof h, .len = len, .offset = offset,
              .seed = seed};
    uint8_t *data = (uint8_t *)buf + sizeof h;
    size_t n = len - sizeof h;
    fsc_rng r;
    fsc_rng_seed(&r, seed);
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t x = fsc_rng_next(&r);
        memcpy(data + i, &x, 8);
    }
    for (uint64_t x = fsc_rng_next(&r); i < n; i++, x >>= 8)
        data[i] = (uint8_t)x;
    fsc_verify_sum(type, data, n, h.sum);
    h.hcrc = fsc_crc32c(0, &h, sizeof h);
    memcpy(buf, &h, sizeof h);
}

const char *fsc_verify_check(fsc_verify type, const void *buf, uint32_t len, uint64_t offset)
{
    vhdr h;
    memcpy(&h, buf, sizeof h);
    if (h.magic != VERIFY_MAGIC)
        return "bad magic header";
    uint32_t hcrc = h.hcrc;
    h.hcrc = 0;
    if (fsc_crc32c(0, &h, sizeof h) != hcrc)
        return "bad header checksum";
    if (h.type != type || h.hlen != sizeof h)
        return "header of another verify type";
    if (h.len != len)
        return "wrong length in header";
    if (h.offset != offset)
        return "wrong offset in header (data of another block)";
    uint8_t sum[32];
    size_t n = fsc_verify_sum(type, (const uint8_t *)buf + sizeof h, len - sizeof h, sum);
    if (memcmp(sum, h.sum, n) != 0)
        return "data checksum mismatch";
    return NULL;
}
