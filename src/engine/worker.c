/* SPDX-License-Identifier: MIT */
/* The I/O loop of one job clone, shaped like fio's do_io(): pick a direction (rwmix),
 * a file (file_service_type), a length (bs/bsrange/bssplit) and an offset (sequential,
 * or random through fio's random map or a skewed distribution); keep to rate and
 * thinktime; queue, commit in batches of iodepth_batch_submit and reap between
 * iodepth_batch_complete_min and _max when the queue is full; sync every fsync /
 * fdatasync writes; verify what was written. Measurements as fio defines them. */
#define _GNU_SOURCE
#include "run_int.h"

#include <errno.h>
#include <math.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* ---- measurements ---- */

void fsc_welford_add(welford *w, double v)
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

double fsc_welford_var(const welford *w)
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
        fsc_welford_add(&st->bw[d], (double)(db * 1000 / spent_ms / 1024)); /* KiB/s, like fio */
        fsc_welford_add(&st->iops[d], (double)(di * 1000 / spent_ms));
        w->last_bytes[d] = st->bytes[d];
        w->last_ios[d] = st->ios[d];
    }
    w->last_sample = t;
}

static void set_error(worker *w, int err, const char *func)
{
    if (!w->error) {
        w->error = err;
        w->err_func = func;
    }
}

/* A read job with verify= checks what it reads, as fio does (data a verify job wrote). */
static void check_read(worker *w, const fsc_io *io)
{
    const char *bad = fsc_verify_check(w->def->verify, io->buf, io->len, io->offset);
    if (!bad)
        return;
    if (!w->st->verify_errors++)
        snprintf(w->err_text, sizeof w->err_text, "verify: %s at offset %llu, length %u (%s)", bad,
                 (unsigned long long)io->offset, io->len,
                 w->files[io->file].df ? w->files[io->file].df->path : "");
    if (w->def->verify_fatal)
        set_error(w, EILSEQ, "verify"); /* else the whole file is checked first */
}

static void complete_io(worker *w, fsc_io *io, uint64_t t)
{
    if (io->result < 0) {
        set_error(w, (int)-io->result, io->ddir == FSC_DIR_READ ? "read" : "write");
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
    if (d == FSC_DIR_READ && w->def->verify != FSC_VERIFY_NONE && !w->does[FSC_DIR_WRITE] && !io->verifying)
        check_read(w, io);
    w->t_end = t;
    if (t - w->last_sample >= SAMPLE_NS)
        take_sample(w, t);
    if (w->log)
        fsc_iolog_io(w, io, t);
}

/* ---- choosing the next I/O ---- */

static bool done_all(const worker *w)
{
    return w->issued_bytes >= w->limit_bytes || w->issued_ios >= w->limit_ios;
}

/* fio's rwmix: a direction is kept until its issue count reaches a share of the other's. */
static int pick_dir(worker *w)
{
    if (!(w->does[0] && w->does[1]))
        return w->does[0] ? FSC_DIR_READ : FSC_DIR_WRITE;
    if (w->dir_issues[w->mix_dir] >= w->mix_until) {
        int d = fsc_rng_below(&w->rng, 100) + 1 <= w->def->rwmixread ? FSC_DIR_READ : FSC_DIR_WRITE;
        if (d != w->mix_dir) {
            unsigned share = d == FSC_DIR_READ ? w->def->rwmixread : 100 - w->def->rwmixread;
            w->mix_until = w->dir_issues[w->mix_dir] * share / 100;
        }
        w->mix_dir = d;
    }
    return w->mix_dir;
}

static uint32_t pick_len(worker *w, int d)
{
    const fsc_jobdef *def = w->def;
    uint64_t lo = def->bs_min[d], hi = def->bs_max[d];
    if (lo == hi)
        return (uint32_t)lo;
    uint64_t len = hi;
    if (def->n_bssplit[d]) {
        unsigned r = (unsigned)fsc_rng_below(&w->rng, 100), acc = 0;
        for (size_t i = 0; i < def->n_bssplit[d]; i++) {
            acc += def->bssplit[d][i].perc;
            if (r < acc) {
                len = def->bssplit[d][i].bs;
                break;
            }
        }
        return (uint32_t)len;
    }
    /* fio: min + max * u, aligned down to min, capped at max */
    len = lo + (uint64_t)((double)hi * fsc_rng_unit(&w->rng));
    len -= len % lo;
    return (uint32_t)(len > hi ? hi : len);
}

static wfile *pick_file(worker *w)
{
    unsigned n = w->n_files;
    if (n == 1)
        return w->files[0].done ? NULL : &w->files[0];
    const fsc_jobdef *def = w->def;
    bool switch_now = w->files[w->cur_file].done ||
                      (def->file_service != FSC_FS_SEQUENTIAL && w->file_ios >= def->file_service_nr);
    if (switch_now) {
        unsigned start = def->file_service == FSC_FS_RANDOM ? (unsigned)fsc_rng_below(&w->rng, n) : w->cur_file + 1;
        unsigned i = 0;
        for (; i < n && w->files[(start + i) % n].done; i++)
            ;
        if (i == n)
            return NULL;
        w->cur_file = (start + i) % n;
        w->file_ios = 0;
    }
    w->file_ios++;
    return &w->files[w->cur_file];
}

static void reset_file(worker *w, wfile *f)
{
    f->pos[0] = f->pos[1] = 0;
    f->done = false;
    if (f->mapped)
        fsc_rmap_reset(&f->map);
    fsc_file_invalidate(w, f);
}

/* Offset (relative to the region) for an I/O of len in direction d; false when the
 * file has no more blocks this pass. */
static bool next_offset(worker *w, int d, wfile *f, uint32_t len, uint64_t *off)
{
    const fsc_jobdef *def = w->def;
    uint64_t a = def->bs_min[d];
    if (len > f->len)
        return false;
    if (!w->random) {
        uint64_t pos = f->pos[d];
        if (pos + len > f->len) {
            if (!def->time_based)
                return false;
            /* fio wraps a time-based sequential job and drops the cache again */
            pos = 0;
            f->pos[0] = f->pos[1] = 0;
            fsc_file_invalidate(w, f);
        }
        *off = pos;
        f->pos[d] = pos + len;
        return true;
    }
    uint64_t g = w->gran;
    uint64_t b;
    if (def->rand_dist != FSC_RAND_UNIFORM) {
        b = fsc_dist_next(&f->dist, &w->rng);
    } else if (!f->mapped) {
        b = fsc_rng_below(&w->rng, f->ngran);
    } else {
        b = fsc_rng_below(&w->rng, f->ngran);
        if (fsc_rmap_isset(&f->map, b))
            b = fsc_rmap_next_free(&f->map, b);
        if (b == UINT64_MAX) {
            if (!def->time_based)
                return false;
            /* every block done: a new pass over the file, with the cache dropped */
            fsc_rmap_reset(&f->map);
            fsc_file_invalidate(w, f);
            b = fsc_rng_below(&w->rng, f->ngran);
        }
    }
    uint64_t o = b * g / a * a;
    if (o + len > f->len)
        o = (f->len - len) / a * a;
    if (f->mapped)
        for (uint64_t k = o / g; k <= (o + len - 1) / g && k < f->ngran; k++)
            fsc_rmap_set(&f->map, k);
    *off = o;
    return true;
}

/* A new pass over every file (fio closes and reopens them: the cache is dropped). */
static bool new_pass(worker *w)
{
    if (w->def->time_based || done_all(w))
        return false;
    for (unsigned i = 0; i < w->n_files; i++)
        reset_file(w, &w->files[i]);
    w->pass_bytes = 0;
    return true;
}

static void fill_write(worker *w, fsc_io *io)
{
    const fsc_jobdef *def = w->def;
    if (def->verify != FSC_VERIFY_NONE) {
        uint64_t seed = io->offset * 0x9E3779B97F4A7C15ull ^ ++w->write_seq;
        fsc_verify_fill(def->verify, io->buf, io->len, io->offset, seed);
        vblock *v = FSC_PUSH(w->written, w->n_written, w->cap_written);
        if (v)
            *v = (vblock){.file = io->file, .len = io->len, .offset = io->offset, .seq = w->write_seq};
        return;
    }
    if (def->zero_buffers)
        return;
    if (def->refill_buffers) {
        fsc_fill_buffer(def, &w->buf_rng, io->buf, io->len);
        return;
    }
    if (def->scramble_buffers && !def->buffer_compress_percentage) {
        /* fio's light scramble: the offset and a time stamp somewhere in every 512 bytes */
        uint64_t stamp[2] = {io->offset, io->start_ns};
        for (uint32_t at = 0; at + 512 <= io->len; at += 512) {
            uint32_t pos = (uint32_t)((io->start_ns ^ (stamp[0] + at)) & 511) & ~15u;
            if (pos > 512 - 16)
                pos = 512 - 16;
            memcpy((char *)io->buf + at + pos, stamp, 16);
        }
    }
}

/* Prepare the next I/O; false when the job has no more to do. */
static bool prep_io(worker *w, fsc_io *io, int d)
{
    for (;;) {
        if (done_all(w))
            return false;
        if (!w->def->time_based && w->pass_bytes >= w->pass_size && !new_pass(w))
            return false;
        uint32_t len = pick_len(w, d);
        wfile *f = pick_file(w);
        uint64_t off;
        if (f && next_offset(w, d, f, len, &off)) {
            io->ddir = d;
            io->len = len;
            io->offset = f->start + off;
            io->file = (unsigned)(f - w->files);
            io->fd = f->fd;
            io->verifying = false;
            w->issued_bytes += len;
            w->issued_ios++;
            w->pass_bytes += len;
            w->dir_issues[d]++;
            w->rate_issued[d] += len;
            if (d == FSC_DIR_WRITE) {
                w->writes_since_sync++;
                w->writes_since_dsync++;
                fill_write(w, io);
            }
            return true;
        }
        if (f) {
            f->done = true;
            continue;
        }
        if (!new_pass(w))
            return false;
    }
}

/* ---- the queue ---- */

static void account_submit(worker *w, unsigned n)
{
    if (!w->measuring)
        return;
    w->st->depth_map[depth_bucket(w->inflight)] += n;
    w->st->submit_map[batch_bucket(n)]++;
    w->st->n_submit++;
}

static void commit(worker *w)
{
    if (!w->n_pending)
        return;
    int r = w->ops->commit(&w->ctx);
    uint64_t t = fsc_now_ns();
    unsigned n = w->n_pending;
    w->n_pending = 0;
    if (r < 0) {
        set_error(w, -r, "submit");
        for (unsigned i = 0; i < n; i++)
            w->free_ios[w->n_free++] = w->batch[i];
        return;
    }
    for (unsigned i = 0; i < n; i++)
        w->batch[i]->issue_ns = t;
    w->inflight += n;
    account_submit(w, n);
}

static int reap(worker *w, unsigned min, unsigned max)
{
    if (min > w->inflight)
        min = w->inflight;
    int n = w->ops->reap(&w->ctx, min, w->done, max);
    uint64_t t = fsc_now_ns();
    if (n < 0) {
        set_error(w, -n, "reap");
        return n;
    }
    for (int i = 0; i < n; i++) {
        complete_io(w, w->done[i], t);
        w->free_ios[w->n_free++] = w->done[i];
    }
    w->inflight -= (unsigned)n;
    if (n > 0 && w->measuring) {
        w->st->complete_map[batch_bucket((unsigned)n)]++;
        w->st->n_complete++;
    }
    return n;
}

/* Everything queued submitted and completed (before a sync, a sleep, the end). */
static void quiesce(worker *w)
{
    if (w->ops->sync)
        return;
    commit(w);
    while (w->inflight)
        if (reap(w, w->inflight, w->ctx.depth) < 0)
            break;
}

static void sleep_until(worker *w, uint64_t t_ns)
{
    /* in slices, so that a stop is seen within 10 ms */
    for (;;) {
        uint64_t now = fsc_now_ns();
        if (now >= t_ns || atomic_load_explicit(&w->er->stop, memory_order_relaxed))
            return;
        uint64_t left = t_ns - now;
        if (left > 10 * NS_PER_MS)
            left = 10 * NS_PER_MS;
        struct timespec ts = {(time_t)(left / 1000000000ull), (long)(left % 1000000000ull)};
        nanosleep(&ts, NULL);
    }
}

static void do_sync(worker *w, bool data_only)
{
    quiesce(w);
    if (data_only)
        w->writes_since_dsync = 0;
    else
        w->writes_since_sync = 0;
    wfile *f = &w->files[w->cur_file];
    uint64_t t0 = fsc_now_ns();
    /* the null engine has no file: its sync completes at once, as fio's does */
    int r = f->fd < 0 ? 0 : data_only ? fdatasync(f->fd) : fsync(f->fd);
    uint64_t t1 = fsc_now_ns();
    if (r != 0)
        set_error(w, errno, data_only ? "fdatasync" : "fsync");
    if (w->measuring) {
        fsc_histo_add(&w->st->sync_lat, t1 - t0);
        w->st->syncs++;
    }
}

/* fsync=N / fdatasync=N: a sync after every N writes (the queue drained first, as fio
 * does). True when one was done. */
static bool sync_if_due(worker *w)
{
    const fsc_jobdef *def = w->def;
    bool full = def->fsync && w->writes_since_sync >= def->fsync;
    if (!full && !(def->fdatasync && w->writes_since_dsync >= def->fdatasync))
        return false;
    do_sync(w, !full);
    return true;
}

/* rate / rate_iops: fio's linear process; returns the direction to issue (fio may
 * switch to the other one when it is behind), after sleeping if both are ahead. */
static int keep_rate(worker *w, int d)
{
    if (!w->rate_bps[0] && !w->rate_bps[1])
        return d;
    uint64_t now = fsc_now_ns() - w->t_epoch;
    uint64_t next[N_RW];
    for (int k = 0; k < N_RW; k++)
        next[k] = w->rate_bps[k] ? (uint64_t)((double)w->rate_issued[k] * 1e9 / (double)w->rate_bps[k]) : 0;
    if (next[d] <= now)
        return d;
    int o = d ^ 1;
    uint64_t wake = next[d];
    if (w->does[0] && w->does[1] && (o == FSC_DIR_READ ? w->def->rwmixread : 100 - w->def->rwmixread)) {
        if (next[o] <= now)
            return o;
        if (next[o] < next[d]) {
            wake = next[o];
            d = o;
        }
    }
    quiesce(w);
    sleep_until(w, w->t_epoch + wake);
    return d;
}

/* rate_min / rate_iops_min, checked every second like fio's rate_cycle. */
static bool rate_too_low(worker *w, uint64_t t)
{
    if (!w->min_bps[0] && !w->min_bps[1])
        return false;
    if (!w->measuring || t - w->min_check_ns < 1000 * NS_PER_MS)
        return false;
    uint64_t ms = (t - w->min_check_ns) / NS_PER_MS;
    bool low = false;
    for (int d = 0; d < N_RW; d++) {
        uint64_t got = (w->st->bytes[d] - w->min_check_bytes[d]) * 1000 / ms;
        if (w->min_bps[d] && w->does[d] && got < w->min_bps[d]) {
            snprintf(w->err_text, sizeof w->err_text, "min rate %llu B/s not met, got %llu B/s",
                     (unsigned long long)w->min_bps[d], (unsigned long long)got);
            low = true;
        }
        w->min_check_bytes[d] = w->st->bytes[d];
    }
    w->min_check_ns = t;
    return low;
}

static void think(worker *w)
{
    const fsc_jobdef *def = w->def;
    if (!def->thinktime_us || ++w->think_count < def->thinktime_blocks)
        return;
    w->think_count = 0;
    quiesce(w);
    uint64_t t0 = fsc_now_ns();
    if (def->thinktime_spin_us) {
        uint64_t until = t0 + def->thinktime_spin_us * NS_PER_US;
        while (fsc_now_ns() < until)
            ;
    }
    if (def->thinktime_us > def->thinktime_spin_us)
        sleep_until(w, t0 + def->thinktime_us * NS_PER_US);
}

static bool keep_going(worker *w, uint64_t t)
{
    return !atomic_load_explicit(&w->er->stop, memory_order_relaxed) && !w->error && t < w->deadline;
}

static void run_sync(worker *w)
{
    fsc_io *io = w->free_ios[0];
    uint64_t t = fsc_now_ns();
    while (keep_going(w, t)) {
        if (sync_if_due(w)) {
            t = fsc_now_ns();
            continue;
        }
        int d = keep_rate(w, pick_dir(w));
        io->start_ns = fsc_now_ns();
        if (!prep_io(w, io, d))
            break;
        io->issue_ns = fsc_now_ns();
        w->ops->queue(&w->ctx, io);
        t = fsc_now_ns();
        if (w->measuring) {
            w->st->depth_map[0]++;
            w->st->submit_map[1]++;
            w->st->complete_map[1]++;
            w->st->n_submit++;
            w->st->n_complete++;
        }
        complete_io(w, io, t);
        think(w);
        if (rate_too_low(w, t)) {
            set_error(w, EIO, "check_min_rate");
            break;
        }
    }
}

static void run_async(worker *w)
{
    const fsc_jobdef *def = w->def;
    unsigned depth = w->ctx.depth;
    unsigned batch = def->iodepth_batch ? def->iodepth_batch : depth;
    unsigned cmin = def->iodepth_batch_complete_min;
    /* fio 3.33 (init.c): an unset or smaller _max becomes _min, so by default one
     * completion is reaped per call and the queue is refilled at once; 0 and 0 polls */
    unsigned cmax = def->iodepth_batch_complete_max < cmin ? cmin : def->iodepth_batch_complete_max;
    if (!cmax)
        cmax = depth;
    unsigned low = def->iodepth_low && def->iodepth_low < depth ? def->iodepth_low : depth;
    uint64_t t = fsc_now_ns();
    while (keep_going(w, t)) {
        if (sync_if_due(w)) {
            t = fsc_now_ns();
            continue;
        }
        int d = keep_rate(w, pick_dir(w));
        fsc_io *io = w->free_ios[--w->n_free];
        io->start_ns = fsc_now_ns();
        if (!prep_io(w, io, d)) {
            w->free_ios[w->n_free++] = io;
            break;
        }
        if (w->ops->queue(&w->ctx, io) == FSC_Q_BUSY) {
            /* cannot happen with one slot per I/O; treat it as a full queue */
            w->free_ios[w->n_free++] = io;
            commit(w);
            reap(w, 1, cmax);
            t = fsc_now_ns();
            continue;
        }
        w->batch[w->n_pending++] = io;
        if (w->n_pending >= batch)
            commit(w);
        if (w->inflight + w->n_pending >= depth) {
            /* full: reap at least one (fio: iodepth_batch_complete_min), down to iodepth_low */
            commit(w);
            do {
                unsigned m = cmin ? cmin : 1;
                if (reap(w, m, cmax) < 0)
                    break;
            } while (w->inflight > low && w->inflight >= depth);
        } else if (!cmin && w->inflight) {
            reap(w, 0, cmax);
        }
        think(w);
        t = fsc_now_ns();
        if (rate_too_low(w, t)) {
            set_error(w, EIO, "check_min_rate");
            break;
        }
    }
    quiesce(w);
}

/* ---- verify ---- */

static int cmp_vblock(const void *a, const void *b)
{
    const vblock *x = a, *y = b;
    if (x->file != y->file)
        return x->file < y->file ? -1 : 1;
    if (x->offset != y->offset)
        return x->offset < y->offset ? -1 : 1;
    return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* Read back every block written, in offset order (the latest write of each place),
 * check it, and count the reads as fio does. */
static void run_verify(worker *w)
{
    const fsc_jobdef *def = w->def;
    if (!w->n_written || w->error)
        return;
    qsort(w->written, w->n_written, sizeof *w->written, cmp_vblock);
    fsc_io *io = w->free_ios[0];
    uint64_t errors = 0;
    for (size_t i = 0; i < w->n_written; i++) {
        const vblock *v = &w->written[i];
        /* a later write over any part of this block makes it not ours to check */
        bool stale = false;
        for (size_t k = i + 1; k < w->n_written && w->written[k].file == v->file &&
                               w->written[k].offset < v->offset + v->len && !stale;
             k++)
            stale = w->written[k].seq > v->seq;
        if (stale)
            continue;
        if (atomic_load_explicit(&w->er->stop, memory_order_relaxed))
            break;
        wfile *f = &w->files[v->file];
        io->ddir = FSC_DIR_READ;
        io->len = v->len;
        io->offset = v->offset;
        io->file = v->file;
        io->fd = f->fd;
        io->verifying = true;
        io->start_ns = io->issue_ns = fsc_now_ns();
        ssize_t r = pread(f->fd, io->buf, v->len, (off_t)v->offset);
        io->result = r < 0 ? -(int64_t)errno : (int64_t)r;
        uint64_t t = fsc_now_ns();
        w->does[FSC_DIR_READ] = true;
        complete_io(w, io, t);
        if (r != (ssize_t)v->len)
            break;
        const char *bad = fsc_verify_check(def->verify, io->buf, v->len, v->offset);
        if (bad) {
            if (!errors)
                snprintf(w->err_text, sizeof w->err_text, "verify: %s at offset %llu, length %u (%s)", bad,
                         (unsigned long long)v->offset, v->len, f->df->path);
            errors++;
            if (def->verify_fatal)
                break;
        }
    }
    if (errors) {
        if (w->measuring)
            w->st->verify_errors = errors;
        set_error(w, EILSEQ, "verify");
    }
}

/* ---- the thread ---- */

static void apply_cpus(worker *w)
{
    const fsc_jobdef *def = w->def;
    if (!def->cpus_set)
        return;
    cpu_set_t set;
    CPU_ZERO(&set);
    unsigned count = 0;
    for (unsigned c = 0; c < FSC_MAX_CPUS && c < CPU_SETSIZE; c++)
        count += def->cpus[c / 8] >> (c % 8) & 1;
    unsigned pick = count ? w->clone % count : 0, seen = 0;
    for (unsigned c = 0; c < FSC_MAX_CPUS && c < CPU_SETSIZE; c++) {
        if (!(def->cpus[c / 8] >> (c % 8) & 1))
            continue;
        if (!def->cpus_split || seen == pick)
            CPU_SET(c, &set);
        seen++;
    }
    if (pthread_setaffinity_np(pthread_self(), sizeof set, &set) != 0)
        set_error(w, EINVAL, "cpus_allowed");
}

/* wait_for: the named job's clones must all have finished. */
static void wait_for_job(worker *w)
{
    const char *name = w->def->wait_for;
    engine_run *er = w->er;
    if (!name)
        return;
    pthread_mutex_lock(&er->lock);
    for (;;) {
        bool pending = false;
        for (size_t i = 0; i < er->n_workers && !pending; i++) {
            const worker *o = &er->workers[i];
            pending = o->groupid == w->groupid && o != w && !strcmp(o->def->name, name) && o->started && !o->finished;
        }
        if (!pending || atomic_load(&er->stop))
            break;
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        ts.tv_nsec += 20 * 1000000L;
        if (ts.tv_nsec >= 1000000000L) {
            ts.tv_sec++;
            ts.tv_nsec -= 1000000000L;
        }
        pthread_cond_timedwait(&er->cond, &er->lock, &ts);
    }
    pthread_mutex_unlock(&er->lock);
}

static uint64_t sat_add(uint64_t a, uint64_t b)
{
    return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

void *fsc_worker_main(void *arg)
{
    worker *w = arg;
    const fsc_jobdef *def = w->def;
    w->tid = gettid();
    apply_cpus(w);
    if (def->startdelay_ms)
        sleep_until(w, fsc_now_ns() + def->startdelay_ms * NS_PER_MS);
    wait_for_job(w);
    uint64_t t0 = fsc_now_ns();
    w->t_epoch = t0;
    w->ramp_end = sat_add(t0, def->ramp_ms * NS_PER_MS);
    if (def->ramp_ms == 0)
        begin_measure(w, t0);
    w->min_check_ns = w->ramp_end;
    w->deadline = def->runtime_ms ? sat_add(w->ramp_end, def->runtime_ms * NS_PER_MS) : UINT64_MAX;
    for (unsigned i = 0; i < w->n_files; i++)
        fsc_file_invalidate(w, &w->files[i]); /* fio drops the cache when it opens a file */
    if (!w->error) {
        if (w->ops->sync)
            run_sync(w);
        else
            run_async(w);
    }
    uint64_t t_io_end = fsc_now_ns();
    if ((def->end_fsync || def->fsync_on_close) && w->does[FSC_DIR_WRITE] && !w->error)
        for (unsigned i = 0; i < w->n_files; i++)
            if (w->files[i].fd >= 0 && fsync(w->files[i].fd) != 0)
                set_error(w, errno, "end_fsync");
    if (def->verify != FSC_VERIFY_NONE && def->do_verify)
        run_verify(w);
    if (w->measuring && w->st->verify_errors)
        set_error(w, EILSEQ, "verify");
    (void)t_io_end;
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
    if (w->log)
        fsc_iolog_close(w, fsc_now_ns());
    engine_run *er = w->er;
    pthread_mutex_lock(&er->lock);
    w->finished = true;
    if (def->exitall)
        atomic_store(&er->stop, true);
    pthread_cond_broadcast(&er->cond);
    pthread_mutex_unlock(&er->lock);
    atomic_fetch_sub(&er->running, 1);
    return NULL;
}

/* ---- set-up ---- */

static bool is_random(fsc_rwmode m)
{
    return m == FSC_RW_RANDREAD || m == FSC_RW_RANDWRITE || m == FSC_RW_RANDRW;
}

static uint64_t sat_mul(uint64_t a, uint64_t b)
{
    return b && a > UINT64_MAX / b ? UINT64_MAX : a * b;
}

fsc_status fsc_worker_prepare(engine_run *er, worker *w)
{
    const fsc_jobdef *def = w->def;
    w->er = er;
    w->ops = fsc_ioeng_find(!strcmp(def->ioengine, "sync") || !strncmp(def->ioengine, "pvsync", 6) ||
                                    !strcmp(def->ioengine, "vsync")
                                ? "psync"
                                : def->ioengine);
    if (!w->ops)
        return fsc_er_fail(er, FSC_E_UNSUPPORTED, "job '%s': ioengine=%s is not available", def->name, def->ioengine);
    w->does[FSC_DIR_READ] = def->rw != FSC_RW_WRITE && def->rw != FSC_RW_RANDWRITE;
    w->does[FSC_DIR_WRITE] = def->rw != FSC_RW_READ && def->rw != FSC_RW_RANDREAD;
    w->random = is_random(def->rw);
    w->mix_dir = w->does[FSC_DIR_READ] ? FSC_DIR_READ : FSC_DIR_WRITE;
    w->gran = UINT64_MAX;
    for (int d = 0; d < N_RW; d++)
        if (w->does[d] && def->bs_min[d] < w->gran)
            w->gran = def->bs_min[d];
    w->ctx.fd = -1;
    w->ctx.depth = w->ops->sync ? 1 : def->iodepth;
    uint64_t seed = def->randseed_set ? def->randseed : 0x46696F53636F7065ull; /* "FioScope" */
    if (!def->randrepeat) {
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        seed ^= (uint64_t)ts.tv_nsec * 0x9E3779B97F4A7C15ull ^ (uint64_t)ts.tv_sec;
    }
    fsc_rng_seed(&w->rng, seed + 0x632BE59BD9B4E019ull * (w->index + 1));
    fsc_rng_seed(&w->buf_rng, seed ^ (0xD1B54A32D192ED03ull * (w->index + 1)));
    if (w->ops->needs_file) {
        fsc_status st = fsc_files_setup(er, w);
        if (st != FSC_OK)
            return st;
    } else {
        /* the null engine: a virtual file of size bytes */
        w->files = calloc(1, sizeof *w->files);
        if (!w->files)
            return fsc_er_fail(er, FSC_E_NOMEM, "out of memory");
        w->n_files = 1;
        w->files[0].fd = -1;
        w->files[0].len = def->size ? def->size : def->filesize;
    }
    w->pass_size = 0;
    for (unsigned i = 0; i < w->n_files; i++) {
        wfile *f = &w->files[i];
        w->pass_size += f->len;
        f->ngran = f->len / w->gran;
        if (!f->ngran)
            return fsc_er_fail(er, FSC_E_USAGE, "job '%s': size is smaller than bs", def->name);
        if (w->random && !def->norandommap && def->rand_dist == FSC_RAND_UNIFORM) {
            if (!fsc_rmap_init(&f->map, f->ngran))
                return fsc_er_fail(er, FSC_E_NOMEM, "out of memory (random map of %llu blocks)",
                                   (unsigned long long)f->ngran);
            f->mapped = true;
        }
        if (def->rand_dist != FSC_RAND_UNIFORM)
            fsc_dist_init(&f->dist, def->rand_dist, def->rand_param, f->ngran, &w->rng);
    }
    w->limit_bytes = def->io_size ? def->io_size : sat_mul(w->pass_size, def->loops);
    if (def->time_based)
        w->limit_bytes = def->verify != FSC_VERIFY_NONE && w->does[FSC_DIR_WRITE] ? w->pass_size : UINT64_MAX;
    w->limit_ios = def->number_ios ? sat_mul(def->number_ios, def->loops) : UINT64_MAX;
    for (int d = 0; d < N_RW; d++) {
        w->rate_bps[d] = def->rate[d] ? def->rate[d] : sat_mul(def->rate_iops[d], def->bs_min[d]);
        w->min_bps[d] = def->rate_min[d] ? def->rate_min[d] : sat_mul(def->rate_iops_min[d], def->bs_min[d]);
    }
    unsigned depth = w->ctx.depth;
    w->ios = calloc(depth, sizeof *w->ios);
    w->free_ios = calloc(depth, sizeof *w->free_ios);
    w->batch = calloc(depth, sizeof *w->batch);
    w->done = calloc(depth, sizeof *w->done);
    w->st = calloc(1, sizeof *w->st);
    uint64_t max_bs = def->bs_max[0] > def->bs_max[1] ? def->bs_max[0] : def->bs_max[1];
    w->buf_size = (size_t)((max_bs + 4095) & ~4095ull);
    if (!w->ios || !w->free_ios || !w->batch || !w->done || !w->st ||
        posix_memalign(&w->bufs, 4096, w->buf_size * depth))
        return fsc_er_fail(er, FSC_E_NOMEM, "out of memory");
    fsc_fill_buffer(def, &w->buf_rng, w->bufs, w->buf_size * depth);
    for (unsigned i = 0; i < depth; i++) {
        w->ios[i].buf = (char *)w->bufs + (size_t)i * w->buf_size;
        w->free_ios[i] = &w->ios[i];
    }
    w->n_free = depth;
    w->ctx.fd = w->files[0].fd;
    char msg[256] = "";
    fsc_status st = w->ops->init(&w->ctx, msg, sizeof msg);
    if (st != FSC_OK)
        return fsc_er_fail(er, st, "job '%s': %s", def->name, msg[0] ? msg : fsc_strerror(st));
    return fsc_iolog_open(er, w);
}

void fsc_worker_cleanup(worker *w)
{
    if (w->log)
        fsc_iolog_close(w, w->t_epoch);
    if (w->ops && w->ctx.priv)
        w->ops->cleanup(&w->ctx);
    fsc_files_close(w); /* the null engine's virtual file has no descriptor, only its map */
    free(w->ios);
    free(w->free_ios);
    free(w->batch);
    free(w->done);
    free(w->bufs);
    free(w->st);
    free(w->written);
}
