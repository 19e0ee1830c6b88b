/* SPDX-License-Identifier: MIT */
/* Private pieces of the engine module: the I/O engine ops table and disk statistics. */
#ifndef FSC_ENGINE_INT_H
#define FSC_ENGINE_INT_H

#include "fioscope/engine.h"

/* One I/O in flight. */
typedef struct fsc_io {
    void *buf;
    uint64_t offset;
    uint32_t len;
    int ddir;          /* FSC_DIR_READ or FSC_DIR_WRITE */
    uint64_t start_ns; /* prepared */
    uint64_t issue_ns; /* handed to the kernel */
    int64_t result;    /* bytes done, or -errno */
    void *engine_data; /* per-engine slot (an iocb for libaio) */
} fsc_io;

typedef struct fsc_ioctx {
    int fd;
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

#endif
