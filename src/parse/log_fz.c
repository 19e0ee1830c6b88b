/* SPDX-License-Identifier: MIT */
/*
 * log_store_compressed files (NAME_KIND.N.log.fz): zlib streams, one after another,
 * of fio's in-memory samples (struct io_sample, host byte order, x86-64 alignment).
 * The struct changed with fio's versions; the layout is recognised from the samples
 * themselves:
 *
 *   A  fio 2.1.11 .. 3.9    time u64, val u64, ddir u32, bs u32                 24 bytes
 *   B  fio 3.10 .. 3.36     time u64, val u64, ddir u32, prio u16 (3.18+), bs u64 32
 *   C  fio 3.37+            time u64, val u64, val1 u64, ddir u32, prio u16, bs u64 40
 *
 * each followed by the offset (u64) when the ddir word has bit 31 (log_offset), and
 * in C by the issue time (u64) with bit 28 (log_issue_time). The columns are those
 * `fio --inflate-log` prints for it. Histogram logs store pointers there, which mean
 * nothing outside the fio process that wrote them: they are reported, not decoded.
 */
#include "log_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#define BIT_OFFSET 0x80000000u
#define BIT_PRIO 0x40000000u
#define BIT_AVG_MAX 0x20000000u
#define BIT_ISSUE 0x10000000u
#define FLAG_BITS (BIT_OFFSET | BIT_PRIO | BIT_AVG_MAX | BIT_ISSUE)
/* Samples checked to recognise the layout. */
#define PROBE_SAMPLES 64

typedef enum layout { LAYOUT_A, LAYOUT_B, LAYOUT_C, LAYOUT_COUNT } layout;

typedef struct fz_state {
    fsc_logfile *f;
    fsc_logseries *s;
    layout lay;
    bool known;
    uint32_t flags;   /* flag bits of the first sample */
    size_t size;      /* bytes per sample */
    unsigned char *carry; /* bytes of a sample split between two output buffers */
    size_t n_carry;
    int64_t last_t;
    size_t samples;
} fz_state;

bool fsc_logfz_is_zlib(const char *data, size_t len)
{
    const unsigned char *u = (const unsigned char *)data;
    /* CMF: deflate with a window of at most 32 KiB; the header is a multiple of 31 */
    return len >= 2 && (u[0] & 0x0f) == 8 && (u[0] >> 4) <= 7 && ((u[0] << 8) | u[1]) % 31 == 0;
}

static uint64_t rd64(const unsigned char *p)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--)
        v = v << 8 | p[i];
    return v;
}

static uint32_t rd32(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static unsigned ddir_at(layout l)
{
    return l == LAYOUT_C ? 24 : 16;
}

static size_t sample_size(layout l, uint32_t flags)
{
    static const size_t base[LAYOUT_COUNT] = {24, 32, 40};
    size_t n = base[l];
    if (flags & BIT_OFFSET)
        n += 8;
    if (l == LAYOUT_C && (flags & BIT_ISSUE))
        n += 8;
    return n;
}

static uint64_t bs_of(layout l, const unsigned char *p)
{
    return l == LAYOUT_A ? rd32(p + 20) : rd64(p + (l == LAYOUT_C ? 32 : 24));
}

/* Do the first samples of buf read sensibly with layout l? */
static bool layout_fits(layout l, const unsigned char *buf, size_t len)
{
    if (len < ddir_at(l) + 4)
        return false;
    uint32_t flags = rd32(buf + ddir_at(l)) & FLAG_BITS;
    if (l != LAYOUT_C && (flags & (BIT_AVG_MAX | BIT_ISSUE)))
        return false;
    size_t size = sample_size(l, flags), n = len / size;
    if (!n)
        return false;
    if (n > PROBE_SAMPLES)
        n = PROBE_SAMPLES;
    else if (len % size)
        return false; /* all of a short stream must be whole samples */
    uint64_t last = 0;
    for (size_t i = 0; i < n; i++) {
        const unsigned char *p = buf + i * size;
        uint32_t d = rd32(p + ddir_at(l));
        uint64_t t = rd64(p);
        if ((d & FLAG_BITS) != flags || (d & ~FLAG_BITS) > 3 || t < last ||
            t > (uint64_t)1e15 || bs_of(l, p) > ((uint64_t)1 << 40))
            return false;
        last = t;
    }
    return true;
}

static bool pick_layout(fz_state *z, const unsigned char *buf, size_t len)
{
    /* newest first: an older layout read as a newer one fails on its ddir word */
    for (int l = LAYOUT_C; l >= LAYOUT_A; l--)
        if (layout_fits((layout)l, buf, len)) {
            z->lay = (layout)l;
            z->flags = rd32(buf + ddir_at((layout)l)) & FLAG_BITS;
            z->size = sample_size((layout)l, z->flags);
            z->known = true;
            return true;
        }
    return false;
}

/* Name the columns as `fio --inflate-log` prints them for this layout. */
static bool open_series(fz_state *z)
{
    fsc_logcol names[FSC_COL_COUNT];
    unsigned n = 0;
    names[n++] = FSC_COL_T;
    names[n++] = FSC_COL_VALUE;
    if (z->lay == LAYOUT_C && (z->flags & BIT_AVG_MAX))
        names[n++] = FSC_COL_MAX;
    names[n++] = FSC_COL_DIR;
    names[n++] = FSC_COL_BS;
    if (z->flags & BIT_OFFSET)
        names[n++] = FSC_COL_OFFSET;
    if (z->lay != LAYOUT_A)
        names[n++] = FSC_COL_PRIO;
    if (z->lay == LAYOUT_C && (z->flags & BIT_ISSUE))
        names[n++] = FSC_COL_ISSUE;
    z->f->from_binary = true;
    z->s = fsc_logfile_section(z->f, n);
    if (!z->s)
        return false;
    fsc_logseries_name_columns(z->s, names);
    z->s->prio_hex = z->flags & BIT_PRIO;
    return true;
}

static bool put_sample(fz_state *z, const unsigned char *p)
{
    layout l = z->lay;
    uint32_t d = rd32(p + ddir_at(l));
    int64_t row[FSC_COL_COUNT];
    unsigned n = 0;
    uint64_t t = rd64(p);
    if ((d & FLAG_BITS) != z->flags || (d & ~FLAG_BITS) > 3 || t > (uint64_t)1e15) {
        char msg[96];
        snprintf(msg, sizeof msg, "compressed sample %zu is not a sample: the rest is skipped",
                 z->samples + 1);
        fsc_logfile_warn(z->f, 0, msg);
        return false;
    }
    row[n++] = (int64_t)t;
    row[n++] = (int64_t)rd64(p + 8);
    if (l == LAYOUT_C && (z->flags & BIT_AVG_MAX))
        row[n++] = (int64_t)rd64(p + 16);
    row[n++] = d & ~FLAG_BITS;
    row[n++] = (int64_t)bs_of(l, p);
    size_t aux = l == LAYOUT_A ? 24 : l == LAYOUT_B ? 32 : 40;
    if (z->flags & BIT_OFFSET) {
        row[n++] = (int64_t)rd64(p + aux);
        aux += 8;
    }
    if (l != LAYOUT_A) {
        unsigned prio = (unsigned)p[ddir_at(l) + 4] | (unsigned)p[ddir_at(l) + 5] << 8;
        /* fio prints the RT-class flag unless log_prio asked for the whole value;
         * fio 3.18 .. 3.27 kept that flag itself here (0 or 1) */
        row[n++] = (z->flags & BIT_PRIO) ? prio : prio <= 1 ? prio : (prio >> 13) == 1;
    }
    if (l == LAYOUT_C && (z->flags & BIT_ISSUE))
        row[n++] = (int64_t)rd64(p + aux);
    if ((int64_t)t < z->last_t && z->samples) {
        char msg[96];
        snprintf(msg, sizeof msg, "compressed sample %zu goes back in time: kept", z->samples + 1);
        fsc_logfile_warn(z->f, 0, msg);
    }
    z->last_t = (int64_t)t;
    z->samples++;
    if (!fsc_logseries_append(z->s, row)) {
        z->f->oom = true;
        return false;
    }
    z->f->rows++;
    return true;
}

/* Samples in out[0, n) (after what z->carry holds). False: stop. */
static bool put_bytes(fz_state *z, const unsigned char *out, size_t n)
{
    if (!z->known) {
        if (!pick_layout(z, out, n)) {
            fsc_logfile_warn(z->f, 0, "compressed samples of an unknown layout (not fio's "
                             "io_sample of any version): not read");
            z->f->unknown_layout = true;
            return false;
        }
        if (!open_series(z)) {
            z->f->oom = true;
            return false;
        }
    }
    size_t i = 0;
    if (z->n_carry) {
        size_t need = z->size - z->n_carry;
        size_t take = need < n ? need : n;
        memcpy(z->carry + z->n_carry, out, take);
        z->n_carry += take;
        i = take;
        if (z->n_carry < z->size)
            return true;
        z->n_carry = 0;
        if (!put_sample(z, z->carry))
            return false;
    }
    for (; i + z->size <= n; i += z->size)
        if (!put_sample(z, out + i))
            return false;
    memcpy(z->carry, out + i, n - i);
    z->n_carry = n - i;
    return true;
}

void fsc_logfz_read(fsc_logfile *f, const unsigned char *data, size_t len)
{
    if (f->hist) {
        fsc_logfile_warn(f, 0, "compressed histogram log: fio stores pointers there, which "
                         "only the fio process that wrote it can read");
        f->unknown_layout = true;
        return;
    }
    fz_state z = {.f = f};
    unsigned char *out = malloc(1 << 20);
    z.carry = malloc(64);
    if (!out || !z.carry) {
        free(out);
        free(z.carry);
        f->oom = true;
        return;
    }
    size_t pos = 0;
    bool go = true;
    while (go && pos < len) {
        z_stream zs;
        memset(&zs, 0, sizeof zs);
        if (inflateInit(&zs) != Z_OK) {
            f->oom = true;
            break;
        }
        zs.next_in = (unsigned char *)(uintptr_t)(data + pos);
        zs.avail_in = len - pos > UINT32_MAX ? UINT32_MAX : (uInt)(len - pos);
        int r;
        do {
            zs.next_out = out;
            zs.avail_out = 1 << 20;
            r = inflate(&zs, Z_NO_FLUSH);
            size_t got = (1 << 20) - zs.avail_out;
            if (got && !put_bytes(&z, out, got))
                go = false;
        } while (go && r == Z_OK && (zs.avail_in || !zs.avail_out));
        if (go && r != Z_STREAM_END) {
            char msg[128];
            snprintf(msg, sizeof msg, "compressed data damaged after %zu samples (%s): the rest "
                     "is skipped", z.samples, zs.msg ? zs.msg : "truncated");
            fsc_logfile_warn(f, 0, msg);
            go = false;
        }
        pos += (size_t)((const unsigned char *)zs.next_in - (data + pos));
        inflateEnd(&zs);
        /* fio pads nothing between chunks; zeros after the last one are not a stream */
        while (pos < len && data[pos] == 0)
            pos++;
    }
    if (z.n_carry && go)
        fsc_logfile_warn(f, 0, "compressed log ends inside a sample: the partial sample is "
                         "skipped");
    free(out);
    free(z.carry);
}
