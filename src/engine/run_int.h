/* SPDX-License-Identifier: MIT */
/* Private state of one engine run, shared by its parts: files.c (data files), worker.c
 * (the I/O loop of a job clone), iolog.c (fio's log files), results.c (the model) and
 * engine.c (threads, groups, signals). */
#ifndef FSC_RUN_INT_H
#define FSC_RUN_INT_H

#include "engine_int.h"

#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <sys/resource.h>
#include <sys/types.h>

#define NS_PER_MS 1000000ull
#define NS_PER_US 1000ull
#define SAMPLE_NS (500 * NS_PER_MS) /* fio's bw_avg / iops_avg */
#define N_RW 2                      /* read and write; FSC_DIR_READ = 0, FSC_DIR_WRITE = 1 */
#define N_DEPTH 7

typedef struct welford {
    uint64_t n;
    double mean, m2, min, max;
} welford;

void fsc_welford_add(welford *w, double v);
double fsc_welford_var(const welford *w);

/* Everything measured by one thread; zeroed again when ramp_time ends. */
typedef struct wstats {
    fsc_histo lat[N_RW][FSC_LAT_COUNT];
    fsc_histo sync_lat;
    uint64_t bytes[N_RW], ios[N_RW], short_ios[N_RW], syncs;
    uint64_t depth_map[N_DEPTH], submit_map[N_DEPTH], complete_map[N_DEPTH], n_submit, n_complete;
    uint64_t lat_ns[10], lat_us[10], lat_ms[12];
    welford bw[N_RW], iops[N_RW];
    uint64_t runtime_ms, usr_us, sys_us, ctx, majf, minf;
    uint64_t verify_errors;
} wstats;

/* A data file of the run (several clones may share one). */
typedef struct datafile {
    char *path;
    bool created;   /* made by this run (O_EXCL): it may be written, extended, and is removed */
    bool is_blk;
    int fd;         /* opened once at setup; layout, fsync and cache drops go through it */
    dev_t dev;
    ino_t ino;
    uint64_t size;
} datafile;

/* A worker's view of one data file. */
typedef struct wfile {
    datafile *df;
    int fd;             /* this worker's descriptor (its O_DIRECT/O_SYNC flags) */
    uint64_t start, len; /* the region the job uses: offset .. offset + size */
    uint64_t pos[N_RW];  /* next sequential offset, relative to start */
    uint64_t ngran;      /* blocks of the random map */
    fsc_rmap map;
    bool mapped, done;
    fsc_dist dist;
} wfile;

/* One written block to verify later. */
typedef struct vblock {
    unsigned file;
    uint32_t len;
    uint64_t offset, seq;
} vblock;

struct fsc_iolog; /* iolog.c */

typedef struct worker {
    const fsc_jobdef *def;
    unsigned clone, groupid, index;
    const fsc_ioeng_ops *ops;
    fsc_ioctx ctx;
    wfile *files;
    unsigned n_files, cur_file, file_ios; /* file_service: current file and I/Os on it */
    uint64_t gran;                        /* random map block size */
    fsc_io *ios;
    fsc_io **free_ios, **batch, **done;
    unsigned n_free, n_pending, inflight;
    void *bufs;
    size_t buf_size;
    wstats *st;
    struct engine_run *er;
    pthread_t thread;
    bool started, finished, measuring, does[N_RW], random;
    pid_t tid;
    int error;
    const char *err_func;
    char err_text[160];
    fsc_rng rng, buf_rng;
    uint64_t ramp_end, deadline, t_begin, t_end, t_epoch;
    uint64_t last_sample, last_bytes[N_RW], last_ios[N_RW];
    /* limits and progress */
    uint64_t limit_bytes, limit_ios, issued_bytes, issued_ios, pass_bytes, pass_size;
    uint64_t writes_since_sync, writes_since_dsync;
    unsigned loops_left;
    bool pass_over, ended;
    /* rwmix: fio keeps a direction for a while (rwmix_issues) */
    int mix_dir;
    uint64_t dir_issues[N_RW], mix_until;
    /* rate */
    uint64_t rate_bps[N_RW], rate_issued[N_RW];
    uint64_t min_bps[N_RW], min_check_ns, min_check_bytes[N_RW];
    /* thinktime */
    uint64_t think_count;
    /* verify */
    vblock *written;
    size_t n_written, cap_written;
    uint64_t write_seq;
    struct fsc_iolog *log;
    struct rusage ru0;
} worker;

typedef struct engine_run {
    const fsc_jobset *js;
    const fsc_engine_opts *opts;
    worker *workers;
    size_t n_workers;
    datafile **files; /* each its own block: workers keep pointers to them */
    size_t n_files, cap_files;
    char *err;
    size_t errlen;
    sigset_t sigs; /* SIGINT, SIGTERM: blocked from the start, taken by sigtimedwait */
    bool interrupted;
    atomic_bool stop;
    atomic_int running;
    pthread_mutex_t lock; /* wait_for, shared log files */
    void *logs;           /* iolog.c: log files shared by clones (per_job_logs=0) */
    size_t n_logs;
    pthread_cond_t cond;
} engine_run;

static inline uint64_t fsc_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

fsc_status fsc_er_fail(engine_run *er, fsc_status st, const char *fmt, ...) FSC_PRINTF(3, 4);
void fsc_er_note(engine_run *er, const char *fmt, ...) FSC_PRINTF(2, 3);
/* A SIGINT/SIGTERM is pending (checked during layout, before any thread runs). */
bool fsc_er_signalled(engine_run *er);

/* files.c */
fsc_status fsc_files_setup(engine_run *er, worker *w);
void fsc_files_close(worker *w);
void fsc_files_remove(engine_run *er);
void fsc_file_invalidate(const worker *w, wfile *f);
/* Fill a buffer with fio's default data (random, or zeros / compressible). */
void fsc_fill_buffer(const fsc_jobdef *def, fsc_rng *r, void *buf, size_t len);

/* worker.c */
void *fsc_worker_main(void *arg);
fsc_status fsc_worker_prepare(engine_run *er, worker *w);
void fsc_worker_cleanup(worker *w);

/* results.c */
bool fsc_collect_group(fsc_run *run, worker *ws, size_t n, unsigned gid, bool bins);

/* iolog.c */
fsc_status fsc_iolog_open(engine_run *er, worker *w);
void fsc_iolog_io(worker *w, const fsc_io *io, uint64_t t);
void fsc_iolog_tick(worker *w, uint64_t t);
void fsc_iolog_close(worker *w, uint64_t t);

#endif
