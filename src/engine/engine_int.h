/* SPDX-License-Identifier: MIT */
/* Private pieces of the engine module: the I/O engine ops table and disk statistics. */
#ifndef FSC_ENGINE_INT_H
#define FSC_ENGINE_INT_H

#include "fioscope/engine.h"

/* Record an option as given (fio's "job options"); replaces an earlier value. */
bool fsc_jobdef_remember(fsc_jobdef *j, const char *key, const char *val);
/* *dst becomes a copy of val ("" for NULL); the old string is freed. */
fsc_status fsc_set_str(char **dst, const char *val);

/* One I/O in flight. */
typedef struct fsc_io {
    void *buf;
    uint64_t offset;
    uint32_t len;
    int ddir;          /* FSC_DIR_READ or FSC_DIR_WRITE */
    unsigned file;     /* index into the worker's files */
    int fd;            /* that file's descriptor (the engines use it) */
    uint64_t start_ns; /* prepared */
    uint64_t issue_ns; /* handed to the kernel */
    int64_t result;    /* bytes done, or -errno */
    bool verifying;    /* a read of the verify phase */
    void *engine_data; /* per-engine slot (an iocb for libaio) */
} fsc_io;

typedef struct fsc_ioctx {
    int fd; /* the first file's descriptor (engines take each I/O's own io->fd) */
    unsigned depth;
    void *priv; /* the engine's own state */
} fsc_ioctx;

typedef enum fsc_qres { FSC_Q_DONE, FSC_Q_QUEUED, FSC_Q_BUSY } fsc_qres;

/* An I/O engine is a table of operations (fio's ioengine_ops idea). Sync engines
 * finish an I/O inside queue() and have no commit/reap. */
typedef struct fsc_ioeng_ops {
    const char *name;
    bool sync;
    bool needs_file; /* false: the null engine does no real I/O */
    /* Prepare for depth in-flight I/Os; on failure a message names the cause. */
    fsc_status (*init)(fsc_ioctx *ctx, char *err, size_t errlen);
    fsc_qres (*queue)(fsc_ioctx *ctx, fsc_io *io);
    /* Submit what queue() collected. Returns the number submitted or -errno. */
    int (*commit)(fsc_ioctx *ctx);
    /* Wait for at least min completions, return up to max in done[] (or -errno). */
    int (*reap)(fsc_ioctx *ctx, unsigned min, fsc_io **done, unsigned max);
    void (*cleanup)(fsc_ioctx *ctx);
} fsc_ioeng_ops;

extern const fsc_ioeng_ops fsc_ioeng_psync;
extern const fsc_ioeng_ops fsc_ioeng_null;
#ifdef FSC_HAVE_LIBAIO
extern const fsc_ioeng_ops fsc_ioeng_libaio;
#endif
#ifdef FSC_HAVE_LIBURING
extern const fsc_ioeng_ops fsc_ioeng_io_uring;
#endif

/* The engine by name, or NULL. */
const fsc_ioeng_ops *fsc_ioeng_find(const char *name);

/* ---- disk statistics (/proc/diskstats) ---- */

typedef struct fsc_diskcount {
    uint64_t ios[2], merges[2], sectors[2], ticks[2], io_ticks, time_in_queue;
} fsc_diskcount;

typedef struct fsc_diskwatch {
    char name[64];
    fsc_diskcount before, after;
    struct fsc_diskwatch *slaves; /* md/dm members */
    size_t n_slaves;
} fsc_diskwatch;

/* Find the block device behind path (stat st_dev, /sys/dev/block) and its slaves.
 * Returns false (and leaves w empty) when there is none, e.g. tmpfs. */
bool fsc_diskwatch_find(fsc_diskwatch *w, const char *path);
/* Read the counters into before (first=true) or after. */
void fsc_diskwatch_sample(fsc_diskwatch *w, bool first);
/* Append the disk_util entries (device, then its slaves) to run; elapsed in ms. */
bool fsc_diskwatch_report(const fsc_diskwatch *w, fsc_run *run, uint64_t elapsed_ms);
void fsc_diskwatch_free(fsc_diskwatch *w);


/* ---- randomness (rand.c) ---- */

typedef struct fsc_rng {
    uint64_t s[4];
} fsc_rng;

void fsc_rng_seed(fsc_rng *r, uint64_t seed);
uint64_t fsc_rng_next(fsc_rng *r);
double fsc_rng_unit(fsc_rng *r);            /* [0, 1) */
uint64_t fsc_rng_below(fsc_rng *r, uint64_t n); /* [0, n) */

/* fio's random map: which blocks of a file this pass has done. */
#define FSC_RMAP_LEVELS 6
typedef struct fsc_rmap {
    uint64_t *map[FSC_RMAP_LEVELS]; /* level 0: a bit per block; level k+1: a bit per full word of k */
    uint64_t words[FSC_RMAP_LEVELS];
    unsigned levels;
    uint64_t nblocks, used;
} fsc_rmap;

bool fsc_rmap_init(fsc_rmap *m, uint64_t nblocks);
void fsc_rmap_free(fsc_rmap *m);
void fsc_rmap_reset(fsc_rmap *m);
bool fsc_rmap_isset(const fsc_rmap *m, uint64_t b);
void fsc_rmap_set(fsc_rmap *m, uint64_t b);
/* The first free block at or after b, wrapping around; UINT64_MAX when the map is full. */
uint64_t fsc_rmap_next_free(const fsc_rmap *m, uint64_t b);

/* random_distribution other than uniform */
typedef struct fsc_dist {
    fsc_randdist kind;
    uint64_t n, off;
    double param, zetan, zeta2, alpha, eta, pow, sd;
} fsc_dist;

void fsc_dist_init(fsc_dist *d, fsc_randdist kind, double param, uint64_t n, fsc_rng *r);
/* A block in [0, n). */
uint64_t fsc_dist_next(fsc_dist *d, fsc_rng *r);

/* ---- verify checksums (verify.c) ---- */

uint32_t fsc_crc32c(uint32_t crc, const void *buf, size_t len);
/* Checksum of buf for the verify type into out (up to 32 bytes); returns its length. */
size_t fsc_verify_sum(fsc_verify type, const void *buf, size_t len, uint8_t out[32]);
/* Fill a write buffer of a verify job: a header naming offset and seed, then data from
 * the seed, checksummed. */
void fsc_verify_fill(fsc_verify type, void *buf, uint32_t len, uint64_t offset, uint64_t seed);
/* Check a block read back; NULL if good, else what is wrong (static text). */
const char *fsc_verify_check(fsc_verify type, const void *buf, uint32_t len, uint64_t offset);

#endif
