/* SPDX-License-Identifier: MIT */
/* The run: data files, one thread per job clone driving an I/O engine, fio's
 * measurements (slat/clat/lat, 500 ms bandwidth samples, depths, CPU) into an fsc_run. */
#define _GNU_SOURCE
#include "engine_int.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define NS_PER_MS 1000000ull
#define SAMPLE_NS (500 * NS_PER_MS) /* fio's bw_avg / iops_avg */
#define N_RW 2                      /* read and write; FSC_DIR_READ = 0, FSC_DIR_WRITE = 1 */
#define N_DEPTH 7
#define LAYOUT_CHUNK (1u << 20)

typedef struct welford {
    uint64_t n;
    double mean, m2, min, max;
} welford;

/* Everything measured by one thread; zeroed again when ramp_time ends. */
typedef struct wstats {
    fsc_histo lat[N_RW][FSC_LAT_COUNT];
    fsc_histo sync_lat;
    uint64_t bytes[N_RW], ios[N_RW], short_ios[N_RW], syncs;
    uint64_t depth_map[N_DEPTH], submit_map[N_DEPTH], complete_map[N_DEPTH], n_submit, n_complete;
    uint64_t lat_ns[10], lat_us[10], lat_ms[12];
    welford bw[N_RW], iops[N_RW];
    uint64_t runtime_ms, usr_us, sys_us, ctx, majf, minf;
} wstats;

typedef struct worker {
    const fsc_jobdef *def;
    unsigned clone, groupid;
    const fsc_ioeng_ops *ops;
    fsc_ioctx ctx;
    const char *path; /* NULL for the null engine */
    uint64_t size, nblocks;
    fsc_io *ios;
    fsc_io **free_ios, **batch, **done;
    unsigned n_free;
    void *bufs;
    wstats *st;
    atomic_bool *stop;
    atomic_int *running;
    pthread_t thread;
    bool started, measuring, does[N_RW];
    pid_t tid;
    int error;
    const char *err_func;
    uint64_t rng, seq_off, writes_since_sync, ramp_end, t_begin, t_end;
    uint64_t last_sample, last_bytes[N_RW], last_ios[N_RW];
    struct rusage ru0;
} worker;

typedef struct datafile {
    char *path;
    bool created;
    int fd; /* -1 once closed */
} datafile;

typedef struct engine_run {
    const fsc_jobset *js;
    const fsc_engine_opts *opts;
    worker *workers;
    size_t n_workers;
    datafile *files;
    size_t n_files, cap_files;
    char *err;
    size_t errlen;
    atomic_bool stop;
    atomic_int running;
} engine_run;

static fsc_status fail(engine_run *er, fsc_status st, const char *fmt, ...) FSC_PRINTF(3, 4);
static fsc_status fail(engine_run *er, fsc_status st, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(er->err, er->errlen, fmt, ap);
    va_end(ap);
    return st;
}

static inline uint64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static inline uint64_t next_rand(uint64_t *s)
{
    /* xorshift64*: fast and good enough to spread offsets */
    uint64_t x = *s;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    *s = x;
    return x * 0x2545F4914F6CDD1Dull;
}

static void welford_add(welford *w, double v)
{
    if (w->n == 0 || v < w->min)
        w->min = v;
    if (w->n == 0 || v > w->max)
        w->max = v;
    w->n++;
    double d = v - w->mean;
    w->mean += d / (double)w->n;
    w->m2 += d * (v - w->mean);
}

static double welford_var(const welford *w)
{
    return w->n > 1 ? w->m2 / (double)(w->n - 1) : 0.0;
}

/* fio's IO depth buckets: 1, 2, 4, 8, 16, 32, >=64 */
static unsigned depth_bucket(unsigned depth)
{
    unsigned b = 0;
    while (b < N_DEPTH - 1 && depth >= (2u << b))
        b++;
    return b;
}

/* fio's submit/complete buckets: 0, 1-4, 5-8, 9-16, 17-32, 33-64, >64 */
static unsigned batch_bucket(unsigned n)
{
    static const unsigned upper[] = {0, 4, 8, 16, 32, 64};
    for (unsigned b = 0; b < FSC_ARRAY_SIZE(upper); b++)
        if (n <= upper[b])
            return b;
    return N_DEPTH - 1;
}

static void mark_latency(wstats *st, uint64_t ns)
{
    static const uint64_t edges[] = {2, 4, 10, 20, 50, 100, 250, 500, 750, 1000, 2000};
    uint64_t *tab = st->lat_ns;
    size_t n_edges = 10;
    if (ns >= 1000) {
        ns /= 1000;
        tab = st->lat_us;
        if (ns >= 1000) {
            ns /= 1000;
            tab = st->lat_ms;
            n_edges = 11;
        }
    }
    size_t i = 0;
    while (i < n_edges && ns >= edges[i])
        i++;
    tab[i]++; /* ns and us stop below 1000 (index 9); ms may reach >=2000 (index 11) */
}

/* ---- the thread ---- */

static void begin_measure(worker *w, uint64_t t)
{
    memset(w->st, 0, sizeof *w->st);
    w->measuring = true;
    w->t_begin = w->t_end = w->last_sample = t;
    memset(w->last_bytes, 0, sizeof w->last_bytes);
    memset(w->last_ios, 0, sizeof w->last_ios);
    getrusage(RUSAGE_THREAD, &w->ru0);
}

static void take_sample(worker *w, uint64_t t)
{
    wstats *st = w->st;
    uint64_t spent_ms = (t - w->last_sample) / NS_PER_MS;
    if (!spent_ms)
        return;
    for (int d = 0; d < N_RW; d++) {
        if (!w->does[d])
            continue;
        uint64_t db = st->bytes[d] - w->last_bytes[d], di = st->ios[d] - w->last_ios[d];
        welford_add(&st->bw[d], (double)(db * 1000 / spent_ms / 1024)); /* KiB/s, like fio */
        welford_add(&st->iops[d], (double)(di * 1000 / spent_ms));
        w->last_bytes[d] = st->bytes[d];
        w->last_ios[d] = st->ios[d];
    }
    w->last_sample = t;
}

static void complete_io(worker *w, fsc_io *io, uint64_t t)
{
    if (io->result < 0) {
        if (!w->error) {
            w->error = (int)-io->result;
            w->err_func = io->ddir == FSC_DIR_READ ? "read" : "write";
        }
        return;
    }
    if (!w->measuring) {
        if (t < w->ramp_end)
            return;
        begin_measure(w, t);
    }
    wstats *st = w->st;
    int d = io->ddir;
    uint64_t clat = t - io->issue_ns;
    fsc_histo_add(&st->lat[d][FSC_LAT_CLAT], clat);
    fsc_histo_add(&st->lat[d][FSC_LAT_LAT], t - io->start_ns);
    if (!w->ops->sync)
        fsc_histo_add(&st->lat[d][FSC_LAT_SLAT], io->issue_ns - io->start_ns);
    st->ios[d]++;
    st->bytes[d] += (uint64_t)io->result;
    if ((uint64_t)io->result < io->len)
        st->short_ios[d]++;
    mark_latency(st, clat);
    w->t_end = t;
    if (t - w->last_sample >= SAMPLE_NS)
        take_sample(w, t);
}

static void prep_io(worker *w, fsc_io *io)
{
    const fsc_jobdef *def = w->def;
    bool random = def->rw == FSC_RW_RANDREAD || def->rw == FSC_RW_RANDWRITE || def->rw == FSC_RW_RANDRW;
    if (w->does[0] && w->does[1])
        io->ddir = next_rand(&w->rng) % 100 < def->rwmixread ? FSC_DIR_READ : FSC_DIR_WRITE;
    else
        io->ddir = w->does[0] ? FSC_DIR_READ : FSC_DIR_WRITE;
    if (random) {
        io->offset = (next_rand(&w->rng) % w->nblocks) * def->bs;
    } else {
        io->offset = w->seq_off;
        w->seq_off += def->bs;
        if (w->seq_off + def->bs > w->nblocks * def->bs)
            w->seq_off = 0;
    }
    io->len = (uint32_t)def->bs;
    if (io->ddir == FSC_DIR_WRITE)
        w->writes_since_sync++;
}

static void do_fsync(worker *w)
{
    w->writes_since_sync = 0;
    if (w->ctx.fd < 0)
        return;
    uint64_t t0 = now_ns();
    int r = fsync(w->ctx.fd);
    uint64_t t1 = now_ns();
    if (r != 0 && !w->error) {
        w->error = errno;
        w->err_func = "fsync";
    }
    if (w->measuring) {
        fsc_histo_add(&w->st->sync_lat, t1 - t0);
        w->st->syncs++;
    }
}

static void account_batch(worker *w, unsigned n, unsigned inflight)
{
    if (!w->measuring)
        return;
    w->st->depth_map[depth_bucket(inflight)] += n;
    w->st->submit_map[batch_bucket(n)]++;
    w->st->n_submit++;
}

static int reap_some(worker *w, unsigned min, unsigned *inflight)
{
    int n = w->ops->reap(&w->ctx, min, w->done, w->ctx.depth);
    uint64_t t = now_ns();
    if (n < 0) {
        if (!w->error) {
            w->error = -n;
            w->err_func = "reap";
        }
        return n;
    }
    for (int i = 0; i < n; i++) {
        complete_io(w, w->done[i], t);
        w->free_ios[w->n_free++] = w->done[i];
    }
    *inflight -= (unsigned)n;
    if (n > 0 && w->measuring) {
        w->st->complete_map[batch_bucket((unsigned)n)]++;
        w->st->n_complete++;
    }
    return n;
}

static void run_sync(worker *w, uint64_t deadline, uint64_t limit)
{
    const fsc_ioeng_ops *ops = w->ops;
    fsc_io *io = w->free_ios[0];
    uint64_t issued = 0, t = now_ns();
    while (!atomic_load_explicit(w->stop, memory_order_relaxed) && t < deadline && issued < limit && !w->error) {
        if (w->def->fsync && w->writes_since_sync >= w->def->fsync) {
            do_fsync(w);
            t = now_ns();
            continue;
        }
        io->start_ns = now_ns();
        prep_io(w, io);
        issued += io->len;
        io->issue_ns = now_ns();
        ops->queue(&w->ctx, io);
        t = now_ns();
        if (w->measuring) {
            w->st->depth_map[0]++;
            w->st->submit_map[1]++;
            w->st->complete_map[1]++;
            w->st->n_submit++;
            w->st->n_complete++;
        }
        complete_io(w, io, t);
    }
}

static void run_async(worker *w, uint64_t deadline, uint64_t limit)
{
    const fsc_ioeng_ops *ops = w->ops;
    unsigned depth = w->ctx.depth, inflight = 0;
    uint64_t issued = 0, t = now_ns();
    for (;;) {
        bool more = !atomic_load_explicit(w->stop, memory_order_relaxed) && t < deadline && issued < limit &&
                    !w->error;
        bool sync_due = w->def->fsync && w->writes_since_sync >= w->def->fsync;
        if (!more && inflight == 0)
            break;
        if (more && sync_due) {
            /* fio drains the queue before a sync; so do we */
            while (inflight && reap_some(w, inflight, &inflight) >= 0)
                ;
            do_fsync(w);
            t = now_ns();
            continue;
        }
        unsigned n = 0;
        while (more && inflight + n < depth && issued < limit &&
               !(w->def->fsync && w->writes_since_sync >= w->def->fsync)) {
            fsc_io *io = w->free_ios[--w->n_free];
            io->start_ns = now_ns();
            prep_io(w, io);
            if (ops->queue(&w->ctx, io) == FSC_Q_BUSY) {
                w->free_ios[w->n_free++] = io;
                break;
            }
            issued += io->len;
            w->batch[n++] = io;
        }
        if (n) {
            int r = ops->commit(&w->ctx);
            t = now_ns();
            if (r < 0) {
                w->error = -r;
                w->err_func = "submit";
                for (unsigned i = 0; i < n; i++)
                    w->free_ios[w->n_free++] = w->batch[i];
                n = 0;
                more = false;
            }
            for (unsigned i = 0; i < n; i++)
                w->batch[i]->issue_ns = t;
            inflight += n;
            account_batch(w, n, inflight);
        }
        if (inflight) {
            bool full = inflight >= depth || !more || issued >= limit;
            if (reap_some(w, full ? 1 : 0, &inflight) < 0)
                break;
        }
        t = now_ns();
    }
}

static void *worker_main(void *arg)
{
    worker *w = arg;
    const fsc_jobdef *def = w->def;
    w->tid = gettid();
    uint64_t t0 = now_ns();
    w->ramp_end = t0 + def->ramp_ms * NS_PER_MS;
    if (def->ramp_ms == 0)
        begin_measure(w, t0);
    uint64_t deadline = def->runtime_ms ? w->ramp_end + def->runtime_ms * NS_PER_MS : UINT64_MAX;
    uint64_t limit = UINT64_MAX;
    if (!def->time_based)
        limit = w->nblocks * def->bs * def->loops;
    if (w->ops->sync)
        run_sync(w, deadline, limit);
    else
        run_async(w, deadline, limit);
    if (w->measuring) {
        struct rusage ru;
        getrusage(RUSAGE_THREAD, &ru);
        wstats *st = w->st;
        st->runtime_ms = (w->t_end - w->t_begin) / NS_PER_MS;
        st->usr_us = (uint64_t)((ru.ru_utime.tv_sec - w->ru0.ru_utime.tv_sec) * 1000000L +
                                (ru.ru_utime.tv_usec - w->ru0.ru_utime.tv_usec));
        st->sys_us = (uint64_t)((ru.ru_stime.tv_sec - w->ru0.ru_stime.tv_sec) * 1000000L +
                                (ru.ru_stime.tv_usec - w->ru0.ru_stime.tv_usec));
        st->ctx = (uint64_t)((ru.ru_nvcsw - w->ru0.ru_nvcsw) + (ru.ru_nivcsw - w->ru0.ru_nivcsw));
        st->majf = (uint64_t)(ru.ru_majflt - w->ru0.ru_majflt);
        st->minf = (uint64_t)(ru.ru_minflt - w->ru0.ru_minflt);
    }
    atomic_fetch_sub(w->running, 1);
    return NULL;
}

/* ---- data files ---- */

static datafile *find_file(engine_run *er, const char *path)
{
    for (size_t i = 0; i < er->n_files; i++)
        if (!strcmp(er->files[i].path, path))
            return &er->files[i];
    return NULL;
}

static bool job_writes(const fsc_jobdef *d)
{
    return d->rw != FSC_RW_READ && d->rw != FSC_RW_RANDREAD;
}

static char *job_path(const fsc_jobdef *def, unsigned clone)
{
    char name[4096];
    if (def->filename)
        snprintf(name, sizeof name, "%s%s%s", def->directory && def->filename[0] != '/' ? def->directory : "",
                 def->directory && def->filename[0] != '/' ? "/" : "", def->filename);
    else
        snprintf(name, sizeof name, "%s%s%s.%u.0", def->directory ? def->directory : "",
                 def->directory ? "/" : "", def->name, clone);
    return fsc_strdup(name);
}

/* Fill a new file with size bytes of pseudo-random data, then drop it from the page
 * cache (fio's invalidate=1) so that reads measure the device. */
static fsc_status lay_out(engine_run *er, int fd, const char *path, uint64_t size)
{
    void *buf;
    if (posix_memalign(&buf, 4096, LAYOUT_CHUNK))
        return fail(er, FSC_E_NOMEM, "out of memory");
    uint64_t seed = 0x243F6A8885A308D3ull;
    for (size_t i = 0; i < LAYOUT_CHUNK / 8; i++)
        ((uint64_t *)buf)[i] = next_rand(&seed);
    fsc_status st = FSC_OK;
    for (uint64_t done = 0; done < size && st == FSC_OK;) {
        size_t n = size - done < LAYOUT_CHUNK ? (size_t)(size - done) : LAYOUT_CHUNK;
        ssize_t w = pwrite(fd, buf, n, (off_t)done);
        if (w <= 0)
            st = fail(er, FSC_E_IO, "%s: cannot lay out: %s", path, w < 0 ? strerror(errno) : "short write");
        else
            done += (uint64_t)w;
    }
    free(buf);
    if (st == FSC_OK) {
        fsync(fd);
        posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
    }
    return st;
}

static void note(engine_run *er, const char *fmt, ...) FSC_PRINTF(2, 3);
static void note(engine_run *er, const char *fmt, ...)
{
    if (!er->opts || !er->opts->note)
        return;
    char line[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    er->opts->note(er->opts->note_ctx, line);
}

/* Make sure path exists with at least size bytes, honouring the safety rules: never
 * write into a file or device that we did not create unless allowed. *size = 0 takes
 * the existing file's size. */
static fsc_status prepare_file(engine_run *er, const fsc_jobdef *def, const char *path, uint64_t *size)
{
    bool allow = er->opts && er->opts->allow_overwrite;
    bool writes = job_writes(def);
    datafile *known = find_file(er, path);
    struct stat st;
    if (stat(path, &st) == 0) {
        bool ours = known && known->created;
        if (S_ISBLK(st.st_mode)) {
            if (writes && !allow)
                return fail(er, FSC_E_USAGE,
                            "job '%s': refusing to write to block device %s (use --allow-overwrite)", def->name, path);
        } else if (!S_ISREG(st.st_mode)) {
            return fail(er, FSC_E_USAGE, "job '%s': %s is not a regular file or block device", def->name, path);
        } else if (writes && !ours && !allow) {
            return fail(er, FSC_E_USAGE,
                        "job '%s': refusing to write to existing file %s that fioscope did not create "
                        "(use --allow-overwrite)",
                        def->name, path);
        }
        uint64_t have = (uint64_t)st.st_size;
        if (S_ISBLK(st.st_mode)) {
            int fd = open(path, O_RDONLY);
            off_t end = fd >= 0 ? lseek(fd, 0, SEEK_END) : -1;
            if (fd >= 0)
                close(fd);
            have = end > 0 ? (uint64_t)end : 0;
        }
        if (*size == 0)
            *size = have;
        if (have < *size) {
            if (S_ISBLK(st.st_mode) || (!ours && !allow))
                return fail(er, FSC_E_USAGE,
                            "job '%s': %s has %llu bytes, less than size=%llu (fioscope extends only files it "
                            "created; use --allow-overwrite)",
                            def->name, path, (unsigned long long)have, (unsigned long long)*size);
            int fd = open(path, O_WRONLY);
            if (fd < 0)
                return fail(er, FSC_E_IO, "%s: %s", path, strerror(errno));
            fsc_status s = lay_out(er, fd, path, *size);
            close(fd);
            if (s != FSC_OK)
                return s;
        }
        if (!known) {
            datafile *f = FSC_PUSH(er->files, er->n_files, er->cap_files);
            if (!f || !(f->path = fsc_strdup(path)))
                return fail(er, FSC_E_NOMEM, "out of memory");
            f->created = false;
            f->fd = -1;
        }
        return FSC_OK;
    }
    if (*size == 0)
        return fail(er, FSC_E_USAGE, "job '%s': %s does not exist and size is not set", def->name, path);
    datafile *f = FSC_PUSH(er->files, er->n_files, er->cap_files);
    if (!f || !(f->path = fsc_strdup(path)))
        return fail(er, FSC_E_NOMEM, "out of memory");
    f->fd = open(path, O_CREAT | O_EXCL | O_WRONLY, 0644);
    if (f->fd < 0) {
        free(f->path);
        er->n_files--;
        return fail(er, FSC_E_IO, "job '%s': cannot create %s: %s", def->name, path, strerror(errno));
    }
    f->created = true;
    /* fio prints the size in whole MiB here */
    note(er, "%s: Laying out IO file (1 file / %lluMiB)", def->name, (unsigned long long)(*size >> 20));
    fsc_status s = lay_out(er, f->fd, path, *size);
    close(f->fd);
    f->fd = -1;
    return s;
}

static void remove_created_files(engine_run *er)
{
    for (size_t i = 0; i < er->n_files; i++) {
        if (er->files[i].created)
            unlink(er->files[i].path);
        free(er->files[i].path);
    }
    free(er->files);
    er->files = NULL;
    er->n_files = 0;
}

/* ---- workers ---- */

static fsc_status worker_setup(engine_run *er, worker *w)
{
    const fsc_jobdef *def = w->def;
    w->ops = fsc_ioeng_find(def->ioengine);
    if (!w->ops)
        return fail(er, FSC_E_UNSUPPORTED, "job '%s': ioengine=%s is not available", def->name, def->ioengine);
    w->does[0] = def->rw != FSC_RW_WRITE && def->rw != FSC_RW_RANDWRITE;
    w->does[1] = job_writes(def);
    w->ctx.fd = -1;
    w->ctx.depth = w->ops->sync ? 1 : def->iodepth;
    w->size = def->size;
    w->rng = 0x9E3779B97F4A7C15ull * (w->clone + 1) + (uint64_t)(uintptr_t)def->name[0] * 0x632BE59BD9B4E019ull;
    if (w->ops->needs_file) {
        char *path = job_path(def, w->clone);
        if (!path)
            return fail(er, FSC_E_NOMEM, "out of memory");
        fsc_status st = prepare_file(er, def, path, &w->size);
        if (st != FSC_OK) {
            free(path);
            return st;
        }
        w->path = find_file(er, path)->path;
        free(path);
        int flags = (job_writes(def) ? O_RDWR : O_RDONLY) | (def->direct ? O_DIRECT : 0);
        w->ctx.fd = open(w->path, flags);
        if (w->ctx.fd < 0)
            return fail(er, FSC_E_IO, "job '%s': cannot open %s%s: %s", def->name, w->path,
                        def->direct ? " with O_DIRECT" : "", strerror(errno));
    }
    if (w->size < def->bs)
        return fail(er, FSC_E_USAGE, "job '%s': size is smaller than bs", def->name);
    w->nblocks = w->size / def->bs;
    unsigned depth = w->ctx.depth;
    w->ios = calloc(depth, sizeof *w->ios);
    w->free_ios = calloc(depth, sizeof *w->free_ios);
    w->batch = calloc(depth, sizeof *w->batch);
    w->done = calloc(depth, sizeof *w->done);
    w->st = calloc(1, sizeof *w->st);
    size_t bs = (size_t)((def->bs + 4095) & ~4095ull);
    if (!w->ios || !w->free_ios || !w->batch || !w->done || !w->st ||
        posix_memalign(&w->bufs, 4096, bs * depth))
        return fail(er, FSC_E_NOMEM, "out of memory");
    uint64_t seed = w->rng | 1;
    for (size_t i = 0; i < bs * depth / 8; i++)
        ((uint64_t *)w->bufs)[i] = next_rand(&seed);
    for (unsigned i = 0; i < depth; i++) {
        w->ios[i].buf = (char *)w->bufs + (size_t)i * bs;
        w->free_ios[i] = &w->ios[i];
    }
    w->n_free = depth;
    char msg[256] = "";
    fsc_status st = w->ops->init(&w->ctx, msg, sizeof msg);
    if (st != FSC_OK)
        return fail(er, st, "job '%s': %s", def->name, msg[0] ? msg : fsc_strerror(st));
    w->started = false;
    return FSC_OK;
}

static void worker_cleanup(worker *w)
{
    if (w->ops && w->ctx.priv)
        w->ops->cleanup(&w->ctx);
    if (w->ctx.fd >= 0)
        close(w->ctx.fd);
    free(w->ios);
    free(w->free_ios);
    free(w->batch);
    free(w->done);
    free(w->bufs);
    free(w->st);
}

/* ---- results into the model ---- */

/* One reporting unit: a clone, or all clones of a job with group_reporting. */
typedef struct unit {
    wstats st; /* merged */
    worker *first;
    unsigned n;
    int error;
    const char *err_func;
} unit;

/* fio's sum of bandwidth/IOPS stats across a reporting group: a pure sum. */
static void welford_sum(welford *dst, const welford *src)
{
    if (!src->n)
        return;
    dst->min += src->min;
    dst->max += src->max;
    dst->mean += src->mean;
    double var = welford_var(dst) + welford_var(src);
    dst->n += src->n;
    dst->m2 = dst->n > 1 ? var * (double)(dst->n - 1) : 0;
}

static void unit_add(unit *u, const worker *w)
{
    const wstats *s = w->st;
    wstats *d = &u->st;
    for (int r = 0; r < N_RW; r++) {
        for (int k = 0; k < FSC_LAT_COUNT; k++)
            fsc_histo_merge(&d->lat[r][k], &s->lat[r][k]);
        d->bytes[r] += s->bytes[r];
        d->ios[r] += s->ios[r];
        d->short_ios[r] += s->short_ios[r];
        welford_sum(&d->bw[r], &s->bw[r]);
        welford_sum(&d->iops[r], &s->iops[r]);
    }
    fsc_histo_merge(&d->sync_lat, &s->sync_lat);
    d->syncs += s->syncs;
    for (int i = 0; i < N_DEPTH; i++) {
        d->depth_map[i] += s->depth_map[i];
        d->submit_map[i] += s->submit_map[i];
        d->complete_map[i] += s->complete_map[i];
    }
    d->n_submit += s->n_submit;
    d->n_complete += s->n_complete;
    for (int i = 0; i < 10; i++) {
        d->lat_ns[i] += s->lat_ns[i];
        d->lat_us[i] += s->lat_us[i];
    }
    for (int i = 0; i < 12; i++)
        d->lat_ms[i] += s->lat_ms[i];
    if (s->runtime_ms > d->runtime_ms)
        d->runtime_ms = s->runtime_ms;
    d->usr_us += s->usr_us;
    d->sys_us += s->sys_us;
    d->ctx += s->ctx;
    d->majf += s->majf;
    d->minf += s->minf;
    if (!u->first)
        u->first = (worker *)w;
    if (w->error && !u->error) {
        u->error = w->error;
        u->err_func = w->err_func;
    }
    u->n++;
}

static bool fill_lat(fsc_lat *l, const fsc_histo *h, const fsc_jobdef *def, bool pctls)
{
    l->min = fsc_num_of((double)h->min);
    l->max = fsc_num_of((double)h->max);
    l->mean = fsc_num_of(h->mean);
    l->stddev = fsc_num_of(fsc_histo_stddev(h));
    l->N = fsc_num_of((double)h->n);
    if (!pctls)
        return true;
    uint64_t vals[FSC_MAX_PCTS];
    fsc_histo_percentiles(h, def->pcts, def->n_pcts, vals);
    for (size_t i = 0; i < def->n_pcts; i++)
        if (!fsc_lat_add_pctl(l, def->pcts[i], (double)vals[i]))
            return false;
    return true;
}

static bool fill_dir(fsc_dir *dir, const unit *u, int d, const fsc_jobdef *def, bool async)
{
    const wstats *s = &u->st;
    uint64_t runt = s->runtime_ms ? s->runtime_ms : 1;
    uint64_t bw_bytes = s->bytes[d] * 1000 / runt;
    dir->present = true;
    dir->io_bytes = fsc_num_of((double)s->bytes[d]);
    dir->bw_bytes = fsc_num_of((double)bw_bytes);
    dir->bw = fsc_num_of((double)(bw_bytes / 1024));
    dir->iops = fsc_num_of(1000.0 * (double)s->ios[d] / (double)runt);
    dir->runtime = fsc_num_of((double)s->runtime_ms);
    dir->total_ios = fsc_num_of((double)s->ios[d]);
    dir->short_ios = fsc_num_of((double)s->short_ios[d]);
    dir->drop_ios = fsc_num_of(0);
    if (d == FSC_DIR_WRITE)
        dir->zone_resets = fsc_num_of(0);
    if (async && !fill_lat(&dir->lat[FSC_LAT_SLAT], &s->lat[d][FSC_LAT_SLAT], def, false))
        return false;
    if (!fill_lat(&dir->lat[FSC_LAT_CLAT], &s->lat[d][FSC_LAT_CLAT], def, true) ||
        !fill_lat(&dir->lat[FSC_LAT_LAT], &s->lat[d][FSC_LAT_LAT], def, false))
        return false;
    if (s->bw[d].n) {
        dir->bw_min = fsc_num_of(s->bw[d].min);
        dir->bw_max = fsc_num_of(s->bw[d].max);
        dir->bw_mean = fsc_num_of(s->bw[d].mean);
        dir->bw_dev = fsc_num_of(sqrt(welford_var(&s->bw[d])));
        dir->bw_samples = fsc_num_of((double)s->bw[d].n);
        dir->iops_min = fsc_num_of(s->iops[d].min);
        dir->iops_max = fsc_num_of(s->iops[d].max);
        dir->iops_mean = fsc_num_of(s->iops[d].mean);
        dir->iops_stddev = fsc_num_of(sqrt(welford_var(&s->iops[d])));
        dir->iops_samples = fsc_num_of((double)s->iops[d].n);
    }
    return true;
}

/* fio's percentage of a distribution: non-zero entries below the floor show the floor. */
static double dist_pct(uint64_t count, uint64_t total, double floor)
{
    if (!total)
        return 0;
    double p = (double)count * 100.0 / (double)total;
    return (count && p < floor) ? floor : p;
}

static bool fill_dists(fsc_job *job, const wstats *s)
{
    static const char *const depth_keys[] = {"1", "2", "4", "8", "16", "32", ">=64"};
    static const char *const batch_keys[] = {"0", "4", "8", "16", "32", "64", ">=64"};
    static const char *const lat_keys[] = {"2", "4", "10", "20", "50", "100", "250", "500", "750", "1000",
                                           "2000", ">=2000"};
    uint64_t total = s->ios[0] + s->ios[1];
    bool ok = true;
    for (int i = 0; i < N_DEPTH; i++) {
        ok &= fsc_kvlist_set(&job->iodepth_level, depth_keys[i], dist_pct(s->depth_map[i], total, 0.1));
        ok &= fsc_kvlist_set(&job->iodepth_submit, batch_keys[i], dist_pct(s->submit_map[i], s->n_submit, 0.1));
        ok &= fsc_kvlist_set(&job->iodepth_complete, batch_keys[i],
                             dist_pct(s->complete_map[i], s->n_complete, 0.1));
    }
    for (int i = 0; i < 10; i++) {
        ok &= fsc_kvlist_set(&job->latency[FSC_BUCKET_NS], lat_keys[i], dist_pct(s->lat_ns[i], total, 0.01));
        ok &= fsc_kvlist_set(&job->latency[FSC_BUCKET_US], lat_keys[i], dist_pct(s->lat_us[i], total, 0.01));
    }
    for (int i = 0; i < 12; i++)
        ok &= fsc_kvlist_set(&job->latency[FSC_BUCKET_MS], lat_keys[i], dist_pct(s->lat_ms[i], total, 0.01));
    return ok;
}

static bool fill_job(fsc_job *job, const unit *u)
{
    const worker *w = u->first;
    const fsc_jobdef *def = w->def;
    const wstats *s = &u->st;
    job->jobname = fsc_strdup(def->name);
    if (!job->jobname)
        return false;
    job->groupid = fsc_num_of(w->groupid);
    job->error = fsc_num_of(u->error);
    if (u->error) {
        char text[256];
        snprintf(text, sizeof text, "file:%s, func=%s, error=%s", w->path ? w->path : "null", u->err_func,
                 strerror(u->error));
        if (!(job->error_text = fsc_strdup(text)))
            return false;
    }
    job->pid = fsc_num_of((double)w->tid);
    job->jobs = fsc_num_of(u->n);
    job->job_runtime = fsc_num_of((double)s->runtime_ms);
    for (size_t i = 0; i < def->n_given; i++)
        if (!fsc_job_set_option(job, def->given[i].key, def->given[i].val))
            return false;
    /* the header line shows these four whether given or not; the JSON agrees with it */
    char bs[32], depth[16];
    fsc_num2str(bs, sizeof bs, def->bs, 4, true, "B");
    snprintf(depth, sizeof depth, "%u", def->iodepth);
    if ((!fsc_job_option(job, "rw") && !fsc_job_set_option(job, "rw", def->rw_text)) ||
        (!fsc_job_option(job, "bs") && !fsc_job_set_option(job, "bs", bs)) ||
        (!fsc_job_option(job, "ioengine") && !fsc_job_set_option(job, "ioengine", def->ioengine)) ||
        (!fsc_job_option(job, "iodepth") && !fsc_job_set_option(job, "iodepth", depth)))
        return false;
    for (int d = 0; d < N_RW; d++)
        if (s->ios[d] && !fill_dir(&job->dir[d], u, d, def, !w->ops->sync))
            return false;
    if (s->syncs) {
        fsc_dir *sd = &job->dir[FSC_DIR_SYNC];
        sd->present = true;
        sd->total_ios = fsc_num_of((double)s->syncs);
        if (!fill_lat(&sd->lat[FSC_LAT_LAT], &s->sync_lat, def, true))
            return false;
    }
    /* fio: CPU time over the summed thread runtimes */
    double runt = (double)(s->runtime_ms ? s->runtime_ms : 1) * u->n;
    job->usr_cpu = fsc_num_of((double)s->usr_us / 1000.0 * 100.0 / runt);
    job->sys_cpu = fsc_num_of((double)s->sys_us / 1000.0 * 100.0 / runt);
    job->ctx = fsc_num_of((double)s->ctx);
    job->majf = fsc_num_of((double)s->majf);
    job->minf = fsc_num_of((double)s->minf);
    job->latency_depth = fsc_num_of(def->iodepth);
    job->latency_target = fsc_num_of(0);
    job->latency_window = fsc_num_of(0);
    job->latency_percentile = fsc_num_of(100);
    return fill_dists(job, s);
}

/* One "Run status group" and every job's per= share of it. */
static bool fill_group(fsc_run *run, unsigned gid, size_t first_job)
{
    fsc_group *g = fsc_run_add_group(run);
    if (!g)
        return false;
    g->groupid = fsc_num_of(gid);
    for (int d = 0; d < N_RW; d++) {
        double io = 0, rmin = 0, rmax = 0, bmin = 0, bmax = 0;
        size_t n = 0;
        for (size_t j = first_job; j < run->n_jobs; j++) {
            const fsc_dir *jd = &run->jobs[j].dir[d];
            if (!jd->present)
                continue;
            double rt = jd->runtime.v, bw = jd->bw_bytes.v;
            io += jd->io_bytes.v;
            rmin = n == 0 || rt < rmin ? rt : rmin;
            rmax = rt > rmax ? rt : rmax;
            bmin = n == 0 || bw < bmin ? bw : bmin;
            bmax = bw > bmax ? bw : bmax;
            n++;
        }
        if (!n)
            continue;
        fsc_group_dir *gd = &g->dir[d];
        uint64_t agg = (uint64_t)io * 1000 / (uint64_t)(rmax > 0 ? rmax : 1);
        gd->present = true;
        gd->bw_bytes = fsc_num_of((double)agg);
        gd->bw_min_bytes = fsc_num_of(bmin);
        gd->bw_max_bytes = fsc_num_of(bmax);
        gd->io_bytes = fsc_num_of(io);
        gd->runtime_min = fsc_num_of(rmin);
        gd->runtime_max = fsc_num_of(rmax);
        for (size_t j = first_job; j < run->n_jobs; j++) {
            fsc_dir *jd = &run->jobs[j].dir[d];
            if (!jd->present || !jd->bw_mean.set)
                continue;
            double per = agg / 1024 ? jd->bw_mean.v * 100.0 / (double)(agg / 1024) : 100.0;
            jd->bw_agg = fsc_num_of(per > 100.0 ? 100.0 : per);
        }
    }
    return true;
}

static bool collect_group(fsc_run *run, worker *ws, size_t n, unsigned gid)
{
    size_t first_job = run->n_jobs;
    unit *u = malloc(sizeof *u);
    if (!u)
        return false;
    bool ok = true;
    for (size_t i = 0; ok && i < n;) {
        /* all clones of a job sit next to each other */
        size_t end = i + 1;
        while (end < n && ws[end].def == ws[i].def)
            end++;
        bool grouped = ws[i].def->group_reporting;
        for (size_t k = i; ok && k < end; k++) {
            if (k == i || !grouped)
                memset(u, 0, sizeof *u);
            unit_add(u, &ws[k]);
            if (grouped && k + 1 < end)
                continue;
            fsc_job *job = fsc_run_add_job(run);
            ok = job && fill_job(job, u);
        }
        i = end;
    }
    free(u);
    return ok && fill_group(run, gid, first_job);
}

/* ---- the whole run ---- */

static fsc_status setup_workers(engine_run *er)
{
    const fsc_jobset *js = er->js;
    size_t n = 0;
    for (size_t i = 0; i < js->n_jobs; i++)
        n += js->jobs[i].numjobs;
    er->workers = calloc(n ? n : 1, sizeof *er->workers);
    if (!er->workers)
        return fail(er, FSC_E_NOMEM, "out of memory");
    unsigned gid = 0;
    for (size_t i = 0; i < js->n_jobs; i++) {
        const fsc_jobdef *def = &js->jobs[i];
        if (i > 0 && def->new_group)
            gid++;
        for (unsigned c = 0; c < def->numjobs; c++) {
            worker *w = &er->workers[er->n_workers++];
            w->def = def;
            w->clone = c;
            w->groupid = gid;
            w->stop = &er->stop;
            w->running = &er->running;
            w->ctx.fd = -1;
            fsc_status st = worker_setup(er, w);
            if (st != FSC_OK)
                return st;
        }
    }
    return FSC_OK;
}

/* Run the workers of one group; SIGINT/SIGTERM (blocked in every thread) are taken
 * here with sigtimedwait, so no signal handler and no global flag is needed. */
static fsc_status run_group(engine_run *er, worker *ws, size_t n, const sigset_t *sigs, bool *interrupted)
{
    atomic_store(&er->running, 0);
    for (size_t i = 0; i < n; i++) {
        atomic_fetch_add(&er->running, 1);
        if (pthread_create(&ws[i].thread, NULL, worker_main, &ws[i]) != 0) {
            atomic_fetch_sub(&er->running, 1);
            atomic_store(&er->stop, true);
            for (size_t k = 0; k < i; k++)
                pthread_join(ws[k].thread, NULL);
            return fail(er, FSC_E_NOMEM, "cannot start a thread");
        }
        ws[i].started = true;
    }
    const struct timespec tick = {0, 20 * 1000000L};
    while (atomic_load(&er->running) > 0) {
        if (sigtimedwait(sigs, NULL, &tick) > 0) {
            atomic_store(&er->stop, true);
            *interrupted = true;
        }
    }
    for (size_t i = 0; i < n; i++)
        pthread_join(ws[i].thread, NULL);
    return FSC_OK;
}

static fsc_run *new_engine_run(const fsc_jobset *js)
{
    fsc_run *run = fsc_run_new();
    if (!run)
        return NULL;
    run->source.format = FSC_FMT_ENGINE;
    run->source.fio_version = fsc_strdup("fioscope-engine-" FSC_VERSION);
    run->id = fsc_strdup("P#1");
    run->label = fsc_strdup(js->jobs[0].name);
    if (!run->source.fio_version || !run->id || !run->label) {
        fsc_run_free(run);
        return NULL;
    }
    return run;
}

static fsc_status run_all_groups(engine_run *er, fsc_run *run, bool *interrupted)
{
    sigset_t sigs, old;
    sigemptyset(&sigs);
    sigaddset(&sigs, SIGINT);
    sigaddset(&sigs, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &sigs, &old);
    fsc_diskwatch disk;
    bool have_disk = false;
    for (size_t i = 0; i < er->n_workers && !have_disk; i++)
        if (er->workers[i].path)
            have_disk = fsc_diskwatch_find(&disk, er->workers[i].path);
    if (have_disk)
        fsc_diskwatch_sample(&disk, true);
    uint64_t t0 = now_ns();
    fsc_status st = FSC_OK;
    for (size_t i = 0; i < er->n_workers && st == FSC_OK && !*interrupted;) {
        size_t end = i;
        while (end < er->n_workers && er->workers[end].groupid == er->workers[i].groupid)
            end++;
        st = run_group(er, &er->workers[i], end - i, &sigs, interrupted);
        if (st == FSC_OK && !collect_group(run, &er->workers[i], end - i, er->workers[i].groupid))
            st = fail(er, FSC_E_NOMEM, "out of memory");
        i = end;
    }
    if (have_disk) {
        fsc_diskwatch_sample(&disk, false);
        if (st == FSC_OK && !fsc_diskwatch_report(&disk, run, (now_ns() - t0) / NS_PER_MS))
            st = fail(er, FSC_E_NOMEM, "out of memory");
        fsc_diskwatch_free(&disk);
    }
    /* a signal that arrived after the last check must not kill us once unblocked */
    const struct timespec zero = {0, 0};
    while (sigtimedwait(&sigs, NULL, &zero) > 0)
        *interrupted = true;
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    return st;
}

fsc_run *fsc_engine_run(const fsc_jobset *js, const fsc_engine_opts *opts, bool *interrupted, char *err,
                        size_t errlen)
{
    engine_run er = {.js = js, .opts = opts, .err = err, .errlen = errlen};
    atomic_init(&er.stop, false);
    atomic_init(&er.running, 0);
    *interrupted = false;
    if (fsc_jobset_check(js, err, errlen) != FSC_OK)
        return NULL;
    fsc_run *run = new_engine_run(js);
    fsc_status st = run ? setup_workers(&er) : fail(&er, FSC_E_NOMEM, "out of memory");
    if (st == FSC_OK)
        st = run_all_groups(&er, run, interrupted);
    for (size_t i = 0; i < er.n_workers; i++)
        worker_cleanup(&er.workers[i]);
    free(er.workers);
    remove_created_files(&er);
    if (st != FSC_OK) {
        fsc_run_free(run);
        return NULL;
    }
    return run;
}
