/* SPDX-License-Identifier: MIT */
/*
 * Storage of fio log series: columns of 64-bit integers in blocks of FSC_LOG_BLOCK
 * rows; full blocks beyond the newest few go to an unlinked temporary file, so memory
 * stays flat however long the log. Histogram rows keep only their non-zero bins.
 */
#define _GNU_SOURCE
#include "fioscope/logseries.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Full blocks a series keeps in memory before it moves the oldest to its file. */
#define MEM_BLOCKS 4

typedef struct block {
    int64_t *col[FSC_COL_COUNT]; /* in memory: FSC_LOG_BLOCK values per position */
    off_t off;                   /* in the file: where its columns start (-1: in memory) */
    size_t start;                /* its first row */
    uint32_t n;                  /* rows (blocks taken over from pieces may be short) */
    uint32_t cap;                /* rows the columns have room for (grows to FSC_LOG_BLOCK) */
    uint32_t clen[FSC_COL_COUNT]; /* in the file: encoded bytes of each column */
} block;

struct fsc_logstore {
    int8_t pos[FSC_COL_COUNT]; /* position of each named column, -1 when absent */
    block *blocks;
    size_t n_blocks, cap_blocks;
    size_t first_in_mem; /* blocks before this one live in the file */
    size_t mem_blocks;   /* full blocks kept in memory */
    bool no_spill;       /* keep every block in memory (a piece, taken over later) */
    int fd;              /* -1 until the first block moves out */
    off_t file_len;
    /* histogram rows: row r's non-zero bins are (idx, cnt)[row_off[r] .. row_off[r + 1]) */
    uint32_t *h_idx;
    uint64_t *h_cnt;
    size_t h_n, h_cap;
    size_t *row_off;
    size_t n_rows, cap_rows;
    /* The last column read back from the file, decoded. Readers go block by block and
     * their steps of FSC_LOG_BLOCK rows straddle two blocks, so without it each block
     * was decoded twice, into a fresh 256 KiB buffer each time (glibc then trimmed and
     * regrew the heap: twice the system time). Reads may come from several threads:
     * the cache is used under its lock. */
    pthread_mutex_t cache_lock;
    int64_t *cache;      /* FSC_LOG_BLOCK values */
    off_t cache_off;     /* file offset of the cached column; -1: none */
    unsigned char *enc;  /* its encoded bytes as read */
    size_t enc_cap;
};

static const char *const kind_names[FSC_LOG_KIND_COUNT] = {"bw",   "iops",      "lat",     "clat",
                                                           "slat", "clat_hist", "lat_hist"};

const char *fsc_logkind_name(fsc_logkind k)
{
    return (unsigned)k < FSC_LOG_KIND_COUNT ? kind_names[k] : "?";
}

int fsc_logkind_from_name(const char *s, size_t n)
{
    for (int k = 0; k < FSC_LOG_KIND_COUNT; k++)
        if (strlen(kind_names[k]) == n && !memcmp(kind_names[k], s, n))
            return k;
    return -1;
}

const char *fsc_logkind_unit(fsc_logkind k)
{
    switch (k) {
    case FSC_LOG_BW: return "KiB/s";
    case FSC_LOG_IOPS: return "count";
    default: return "ns";
    }
}

const char *fsc_logcol_name(fsc_logcol c)
{
    static const char *const names[FSC_COL_COUNT] = {"t_ms", "value",  "max",  "dir",
                                                     "bs",   "offset", "prio", "issue_time"};
    return (unsigned)c < FSC_COL_COUNT ? names[c] : "?";
}

/* Tests set FIOSCOPE_LOG_MEM_BLOCKS (0..64) to move blocks to the file early. */
static size_t mem_blocks_limit(void)
{
    const char *e = getenv("FIOSCOPE_LOG_MEM_BLOCKS");
    if (e && *e >= '0' && *e <= '9') {
        long v = strtol(e, NULL, 10);
        if (v >= 0 && v <= 64)
            return (size_t)v;
    }
    return MEM_BLOCKS;
}

fsc_logseries *fsc_logseries_new(fsc_logkind k, unsigned ncols)
{
    if (fsc_logkind_is_hist(k))
        ncols = 3;
    if (ncols < 1 || ncols > FSC_COL_COUNT)
        return NULL;
    fsc_logseries *s = calloc(1, sizeof *s);
    fsc_logstore *st = calloc(1, sizeof *st);
    if (!s || !st) {
        free(s);
        free(st);
        return NULL;
    }
    st->fd = -1;
    st->cache_off = -1;
    pthread_mutex_init(&st->cache_lock, NULL);
    st->mem_blocks = mem_blocks_limit();
    memset(st->pos, -1, sizeof st->pos);
    s->store = st;
    s->kind = k;
    s->ncols = ncols;
    if (fsc_logkind_is_hist(k)) {
        static const fsc_logcol hist_cols[] = {FSC_COL_T, FSC_COL_DIR, FSC_COL_BS};
        fsc_logseries_name_columns(s, hist_cols);
    }
    return s;
}

void fsc_logseries_name_columns(fsc_logseries *s, const fsc_logcol *names)
{
    fsc_logstore *st = s->store;
    memset(st->pos, -1, sizeof st->pos);
    s->cols = 0;
    for (unsigned i = 0; i < s->ncols; i++)
        if ((unsigned)names[i] < FSC_COL_COUNT && st->pos[names[i]] < 0) {
            st->pos[names[i]] = (int8_t)i;
            s->cols |= FSC_COLBIT(names[i]);
        }
}

static void block_free_mem(block *b)
{
    for (int c = 0; c < FSC_COL_COUNT; c++) {
        free(b->col[c]);
        b->col[c] = NULL;
    }
}

void fsc_logseries_free(fsc_logseries *s)
{
    if (!s)
        return;
    fsc_logstore *st = s->store;
    if (st) {
        for (size_t i = 0; i < st->n_blocks; i++)
            block_free_mem(&st->blocks[i]);
        free(st->blocks);
        if (st->fd >= 0)
            close(st->fd);
        free(st->h_idx);
        free(st->h_cnt);
        free(st->row_off);
        pthread_mutex_destroy(&st->cache_lock);
        free(st->cache);
        free(st->enc);
        free(st);
    }
    free(s->job);
    free(s->prefix);
    free(s->path);
    free(s->member);
    free(s);
}

static int open_spill(void)
{
    const char *dir = getenv("TMPDIR");
    char path[4096];
    snprintf(path, sizeof path, "%s/fioscope-log-XXXXXX", dir && *dir ? dir : "/tmp");
    int fd = mkostemp(path, O_CLOEXEC);
    if (fd >= 0)
        unlink(path); /* gone with the descriptor, whatever happens to the process */
    return fd;
}

static bool write_all(int fd, const void *p, size_t n, off_t off)
{
    const char *c = p;
    while (n) {
        ssize_t w = pwrite(fd, c, n, off);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return false;
        c += w;
        n -= (size_t)w;
        off += w;
    }
    return true;
}

static bool read_all(int fd, void *p, size_t n, off_t off)
{
    char *c = p;
    while (n) {
        ssize_t r = pread(fd, c, n, off);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            return false;
        c += r;
        n -= (size_t)r;
        off += r;
    }
    return true;
}

/* In the file a column is encoded compactly: each value's difference to the one
 * before it, zigzag-folded and written in 7-bit groups (times, directions, block
 * sizes take a byte a row), so that what goes through the kernel is a fraction of
 * the 8 bytes a value takes in memory. */
static size_t encode_column(const int64_t *v, uint32_t n, unsigned char *out)
{
    unsigned char *p = out;
    int64_t prev = 0;
    for (uint32_t i = 0; i < n; i++) {
        uint64_t d = (uint64_t)v[i] - (uint64_t)prev;
        uint64_t z = (d << 1) ^ (uint64_t)((int64_t)d >> 63);
        prev = v[i];
        while (z >= 0x80) {
            *p++ = (unsigned char)(z | 0x80);
            z >>= 7;
        }
        *p++ = (unsigned char)z;
    }
    return (size_t)(p - out);
}

/* Inverse of encode_column; false when the bytes run out (a damaged file). */
static bool decode_column(const unsigned char *p, size_t len, uint32_t n, int64_t *v)
{
    const unsigned char *e = p + len;
    int64_t prev = 0;
    for (uint32_t i = 0; i < n; i++) {
        uint64_t z = 0;
        unsigned shift = 0;
        for (;;) {
            if (p == e || shift > 63)
                return false;
            unsigned char c = *p++;
            z |= (uint64_t)(c & 0x7f) << shift;
            if (!(c & 0x80))
                break;
            shift += 7;
        }
        uint64_t d = (z >> 1) ^ (0 - (z & 1));
        prev = (int64_t)((uint64_t)prev + d);
        v[i] = prev;
    }
    return true;
}

/* Move block i (in memory) to the file: its columns encoded one after another. */
static bool spill_block(fsc_logseries *s, size_t i)
{
    fsc_logstore *st = s->store;
    block *b = &st->blocks[i];
    if (st->fd < 0 && (st->fd = open_spill()) < 0)
        return false;
    unsigned char *buf = malloc((size_t)b->n * 10 + 1);
    if (!buf)
        return false;
    off_t off = st->file_len;
    for (unsigned c = 0; c < s->ncols; c++) {
        size_t len = encode_column(b->col[c], b->n, buf);
        if (!write_all(st->fd, buf, len, st->file_len)) {
            free(buf);
            return false;
        }
        b->clen[c] = (uint32_t)len;
        st->file_len += (off_t)len;
    }
    free(buf);
    b->off = off;
    block_free_mem(b);
    return true;
}

/* Move the oldest blocks in memory to the file until at most mem_blocks of them stay
 * besides the `keep` newest. */
static bool spill_old(fsc_logseries *s, size_t keep)
{
    fsc_logstore *st = s->store;
    while (!st->no_spill && st->n_blocks - st->first_in_mem > st->mem_blocks + keep) {
        if (st->blocks[st->first_in_mem].off < 0 && !spill_block(s, st->first_in_mem))
            return false;
        st->first_in_mem++;
    }
    return true;
}

/* A block with room for one more row (a new one when the last is full). Blocks start
 * small and double up to FSC_LOG_BLOCK rows, so that short logs stay small. */
static block *tail_block(fsc_logseries *s)
{
    fsc_logstore *st = s->store;
    if (st->n_blocks) {
        block *b = &st->blocks[st->n_blocks - 1];
        if (b->off < 0 && b->n < b->cap)
            return b;
        if (b->off < 0 && b->cap < FSC_LOG_BLOCK) {
            uint32_t ncap = b->cap * 2 < FSC_LOG_BLOCK ? b->cap * 2 : FSC_LOG_BLOCK;
            for (unsigned c = 0; c < s->ncols; c++) {
                int64_t *nc = realloc(b->col[c], ncap * sizeof(int64_t));
                if (!nc)
                    return NULL;
                b->col[c] = nc;
            }
            b->cap = ncap;
            return b;
        }
    }
    block *b = FSC_PUSH(st->blocks, st->n_blocks, st->cap_blocks);
    if (!b)
        return NULL;
    memset(b, 0, sizeof *b);
    b->off = -1;
    b->start = s->n;
    /* the first block starts small (a folder of thousands of 2-row logs took 16 KB a
     * log at 256 rows); later ones are full size at once */
    b->cap = st->n_blocks == 1 ? 8 : FSC_LOG_BLOCK;
    for (unsigned c = 0; c < s->ncols; c++)
        if (!(b->col[c] = malloc(b->cap * sizeof(int64_t)))) {
            block_free_mem(b);
            st->n_blocks--;
            return NULL;
        }
    if (!spill_old(s, 1)) {
        block_free_mem(&st->blocks[st->n_blocks - 1]);
        st->n_blocks--;
        return NULL;
    }
    return &st->blocks[st->n_blocks - 1];
}

bool fsc_logseries_append(fsc_logseries *s, const int64_t *vals)
{
    block *b = tail_block(s);
    if (!b)
        return false;
    for (unsigned c = 0; c < s->ncols; c++)
        b->col[c][b->n] = vals[c];
    b->n++;
    s->n++;
    return true;
}

bool fsc_logseries_append_hist(fsc_logseries *s, int64_t t_ms, int64_t dir, int64_t bs,
                               const uint64_t *bins, uint32_t n_bins)
{
    fsc_logstore *st = s->store;
    if (s->n == 0)
        s->n_bins = n_bins;
    else if (n_bins != s->n_bins)
        return false;
    size_t nz = 0;
    for (uint32_t i = 0; i < n_bins; i++)
        nz += bins[i] != 0;
    if (!fsc_grow((void **)&st->row_off, &st->cap_rows, st->n_rows + 2, sizeof *st->row_off))
        return false;
    size_t need = st->h_n + nz;
    if (need > st->h_cap) {
        size_t cap = st->h_cap ? st->h_cap : 1024;
        while (cap < need)
            cap *= 2;
        uint32_t *ni = realloc(st->h_idx, cap * sizeof *ni);
        if (!ni)
            return false;
        st->h_idx = ni;
        uint64_t *nc = realloc(st->h_cnt, cap * sizeof *nc);
        if (!nc)
            return false;
        st->h_cnt = nc;
        st->h_cap = cap;
    }
    int64_t row[3] = {t_ms, dir, bs};
    if (!fsc_logseries_append(s, row))
        return false;
    st->row_off[st->n_rows] = st->h_n;
    for (uint32_t i = 0; i < n_bins; i++)
        if (bins[i]) {
            st->h_idx[st->h_n] = i;
            st->h_cnt[st->h_n++] = bins[i];
        }
    st->n_rows++;
    st->row_off[st->n_rows] = st->h_n;
    return true;
}

bool fsc_logseries_hist_row(const fsc_logseries *s, size_t row, uint64_t *bins)
{
    const fsc_logstore *st = s->store;
    if (row >= st->n_rows)
        return false;
    memset(bins, 0, (size_t)s->n_bins * sizeof *bins);
    for (size_t k = st->row_off[row]; k < st->row_off[row + 1]; k++)
        bins[st->h_idx[k]] = st->h_cnt[k];
    return true;
}

static size_t read_pos(const fsc_logseries *s, size_t first, size_t max, unsigned p, int64_t *out);

/* Rows [at, at + take) of column p of a block in the file into out. */
static bool read_spilled(fsc_logstore *st, const block *b, unsigned p, size_t at, size_t take,
                         int64_t *out)
{
    off_t off = b->off;
    for (unsigned k = 0; k < p; k++)
        off += b->clen[k];
    if (b->n > FSC_LOG_BLOCK)
        return false;
    pthread_mutex_lock(&st->cache_lock);
    bool ok = st->cache_off == off;
    if (!ok) {
        if (!st->cache)
            st->cache = malloc(FSC_LOG_BLOCK * sizeof *st->cache);
        if (st->enc_cap < (size_t)b->clen[p] + 1) {
            unsigned char *e = realloc(st->enc, (size_t)b->clen[p] + 1);
            if (e) {
                st->enc = e;
                st->enc_cap = (size_t)b->clen[p] + 1;
            }
        }
        st->cache_off = -1;
        ok = st->cache && st->enc_cap >= (size_t)b->clen[p] + 1 &&
             read_all(st->fd, st->enc, b->clen[p], off) && decode_column(st->enc, b->clen[p], b->n, st->cache);
        if (ok)
            st->cache_off = off;
    }
    if (ok)
        memcpy(out, st->cache + at, take * sizeof *out);
    pthread_mutex_unlock(&st->cache_lock);
    return ok;
}

size_t fsc_logseries_read(const fsc_logseries *s, size_t first, size_t max, fsc_logcol c,
                          int64_t *out)
{
    const fsc_logstore *st = s->store;
    if ((unsigned)c >= FSC_COL_COUNT || st->pos[c] < 0 || first >= s->n)
        return 0;
    return read_pos(s, first, max, (unsigned)st->pos[c], out);
}

/* Like fsc_logseries_read, by position. */
static size_t read_pos(const fsc_logseries *s, size_t first, size_t max, unsigned p, int64_t *out)
{
    const fsc_logstore *st = s->store;
    size_t done = 0;
    /* the block holding row `first`: blocks are full but for the last and those
     * taken over from pieces, so a division nearly finds it */
    size_t bi = first / FSC_LOG_BLOCK;
    if (bi >= st->n_blocks)
        bi = st->n_blocks - 1;
    while (bi > 0 && st->blocks[bi].start > first)
        bi--;
    while (bi + 1 < st->n_blocks && st->blocks[bi + 1].start <= first)
        bi++;
    size_t at = first - st->blocks[bi].start;
    while (done < max && bi < st->n_blocks) {
        const block *b = &st->blocks[bi];
        size_t take = b->n - at < max - done ? b->n - at : max - done;
        if (b->off < 0) {
            memcpy(out + done, b->col[p] + at, take * sizeof(int64_t));
        } else if (!read_spilled(s->store, b, p, at, take, out + done)) {
            return done; /* an unreadable temporary file ends the series there */
        }
        done += take;
        at = 0;
        bi++;
    }
    return done;
}

bool fsc_logseries_set_spill(fsc_logseries *s, bool spill)
{
    s->store->no_spill = !spill;
    return spill_old(s, 1);
}

/* Take over src's blocks (all in memory) without copying their rows. */
static bool adopt_blocks(fsc_logseries *dst, fsc_logseries *src)
{
    fsc_logstore *d = dst->store, *sst = src->store;
    if (!fsc_grow((void **)&d->blocks, &d->cap_blocks, d->n_blocks + sst->n_blocks, sizeof(block)))
        return false;
    for (size_t i = 0; i < sst->n_blocks; i++) {
        block b = sst->blocks[i];
        b.start = dst->n;
        d->blocks[d->n_blocks++] = b;
        dst->n += b.n;
    }
    sst->n_blocks = 0;
    src->n = 0;
    return spill_old(dst, 0);
}

static bool all_in_memory(const fsc_logstore *st)
{
    for (size_t i = 0; i < st->n_blocks; i++)
        if (st->blocks[i].off >= 0)
            return false;
    return true;
}

bool fsc_logseries_concat(fsc_logseries *dst, fsc_logseries *src)
{
    if (dst->kind != src->kind || dst->ncols != src->ncols ||
        (fsc_logkind_is_hist(dst->kind) && dst->n && src->n && dst->n_bins != src->n_bins))
        return false;
    if (!fsc_logkind_is_hist(src->kind) && all_in_memory(src->store))
        return adopt_blocks(dst, src);
    int64_t *buf[FSC_COL_COUNT] = {0};
    uint64_t *bins = NULL;
    bool ok = true;
    for (unsigned c = 0; c < src->ncols && ok; c++)
        ok = (buf[c] = malloc(FSC_LOG_BLOCK * sizeof(int64_t))) != NULL;
    if (ok && fsc_logkind_is_hist(src->kind) && src->n)
        ok = (bins = malloc((size_t)src->n_bins * sizeof *bins)) != NULL;
    for (size_t first = 0; ok && first < src->n; first += FSC_LOG_BLOCK) {
        size_t got = 0;
        for (unsigned c = 0; c < src->ncols; c++)
            got = read_pos(src, first, FSC_LOG_BLOCK, c, buf[c]);
        for (size_t i = 0; ok && i < got; i++) {
            int64_t row[FSC_COL_COUNT];
            for (unsigned c = 0; c < src->ncols; c++)
                row[c] = buf[c][i];
            if (bins)
                ok = fsc_logseries_hist_row(src, first + i, bins) &&
                     fsc_logseries_append_hist(dst, row[0], row[1], row[2], bins, src->n_bins);
            else
                ok = fsc_logseries_append(dst, row);
        }
    }
    for (int c = 0; c < FSC_COL_COUNT; c++)
        free(buf[c]);
    free(bins);
    if (ok) { /* src keeps its names and layout but no rows */
        fsc_logseries *empty = fsc_logseries_new(src->kind, src->ncols);
        if (empty) {
            fsc_logstore *old = src->store;
            memcpy(empty->store->pos, old->pos, sizeof old->pos);
            src->store = empty->store;
            empty->store = old;
            src->n = 0;
            fsc_logseries_free(empty);
        }
    }
    return ok;
}
