/* SPDX-License-Identifier: MIT */
/* fio 3.33's log files: write_bw_log, write_iops_log, write_lat_log (lat, clat, slat)
 * and write_hist_log (clat_hist), per I/O or averaged over log_avg_msec (log_max_value:
 * the largest instead of the mean), histograms every log_hist_msec, log_offset, and
 * per_job_logs (PREFIX_bw.N.log with N the thread number, or one PREFIX_bw.log shared
 * by the clones). Lines are fio's: "time_ms, value, ddir, bs[, offset], prio". */
#define _GNU_SOURCE
#include "run_int.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { L_BW, L_IOPS, L_LAT, L_CLAT, L_SLAT, L_HIST, L_COUNT };
static const char *const suffix[L_COUNT] = {"bw", "iops", "lat", "clat", "slat", "clat_hist"};

typedef struct window {
    uint64_t n;
    double sum, max;
} window;

typedef struct fsc_iolog {
    FILE *f[L_COUNT];
    char *buf[L_COUNT];   /* f's buffer (not shared: a shared file's is its shared_log's) */
    bool shared[L_COUNT]; /* per_job_logs=0: one file for every clone, written under the run's lock */
    unsigned avg_ms, hist_ms;
    bool maxv, offset;
    window win[3][N_RW]; /* lat, clat, slat */
    uint64_t win_last[N_RW];
    uint64_t rate_last_ms, rate_bytes[N_RW], rate_ios[N_RW], total_bytes[N_RW], total_ios[N_RW];
    uint64_t hist_last[N_RW];
    uint64_t (*hist)[FSC_HISTO_NR];      /* clat counts so far, per direction */
    uint64_t (*hist_prev)[FSC_HISTO_NR]; /* at the last histogram line */
    uint32_t last_bs[N_RW];
} fsc_iolog;

/* Shared files of per_job_logs=0, keyed by path, in the run (the last user closes). */
typedef struct shared_log {
    char path[4096];
    FILE *f;
    char *buf; /* f's buffer */
    unsigned users;
} shared_log;

#define shared_logs (*(shared_log **)&w->er->logs)
#define n_shared (w->er->n_logs)

/* Log lines go out in 1 MiB blocks (a line per I/O at high IOPS). The buffer is
 * given (*buf, freed by the caller after fclose): glibc's setvbuf ignores the size
 * of a NULL buffer and takes st_blksize, 4 KiB on most file systems. */
#define LOG_BLOCK ((size_t)1 << 20)

static FILE *open_log(const char *path, char **buf)
{
    *buf = NULL;
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0644);
    if (fd < 0)
        return NULL;
    FILE *f = fdopen(fd, "w");
    if (!f) {
        close(fd);
        return NULL;
    }
    if ((*buf = malloc(LOG_BLOCK)) != NULL)
        setvbuf(f, *buf, _IOFBF, LOG_BLOCK);
    return f;
}

fsc_status fsc_iolog_open(engine_run *er, worker *w)
{
    w->er = er;
    const fsc_jobdef *def = w->def;
    const char *prefix[L_COUNT] = {def->bw_log, def->iops_log, def->lat_log, def->lat_log, def->lat_log,
                                   def->hist_log};
    bool any = false;
    for (int k = 0; k < L_COUNT; k++)
        any |= prefix[k] != NULL;
    if (!any)
        return FSC_OK;
    fsc_iolog *lg = calloc(1, sizeof *lg);
    if (!lg)
        return fsc_er_fail(er, FSC_E_NOMEM, "out of memory");
    w->log = lg;
    lg->avg_ms = def->log_avg_msec;
    lg->hist_ms = def->log_hist_msec;
    lg->maxv = def->log_max_value;
    lg->offset = def->log_offset;
    if (def->hist_log) {
        lg->hist = calloc(N_RW, sizeof *lg->hist);
        lg->hist_prev = calloc(N_RW, sizeof *lg->hist_prev);
        if (!lg->hist || !lg->hist_prev)
            return fsc_er_fail(er, FSC_E_NOMEM, "out of memory");
    }
    const char *dir = er->opts && er->opts->log_dir ? er->opts->log_dir : NULL;
    for (int k = 0; k < L_COUNT; k++) {
        if (!prefix[k])
            continue;
        char path[4096];
        const char *pre = prefix[k][0] ? prefix[k] : def->name;
        int n = def->per_job_logs
                    ? snprintf(path, sizeof path, "%s%s%s_%s.%u.log", dir ? dir : "", dir ? "/" : "", pre, suffix[k],
                               w->index + 1)
                    : snprintf(path, sizeof path, "%s%s%s_%s.log", dir ? dir : "", dir ? "/" : "", pre, suffix[k]);
        if (n < 0 || (size_t)n >= sizeof path)
            return fsc_er_fail(er, FSC_E_USAGE, "job '%s': log file name too long", def->name);
        if (!def->per_job_logs) {
            shared_log *s = NULL;
            for (size_t i = 0; i < n_shared && !s; i++)
                if (!strcmp(shared_logs[i].path, path))
                    s = &shared_logs[i];
            if (!s) {
                shared_log *grown = realloc(shared_logs, (n_shared + 1) * sizeof *grown);
                if (!grown)
                    return fsc_er_fail(er, FSC_E_NOMEM, "out of memory");
                shared_logs = grown;
                s = &shared_logs[n_shared];
                memset(s, 0, sizeof *s);
                snprintf(s->path, sizeof s->path, "%s", path);
                if (!(s->f = open_log(path, &s->buf)))
                    return fsc_er_fail(er, FSC_E_IO, "job '%s': cannot write %s: %s", def->name, path,
                                       strerror(errno));
                n_shared++;
            }
            s->users++;
            lg->f[k] = s->f;
            lg->shared[k] = true;
        } else if (!(lg->f[k] = open_log(path, &lg->buf[k]))) {
            return fsc_er_fail(er, FSC_E_IO, "job '%s': cannot write %s: %s", def->name, path, strerror(errno));
        }
    }
    return FSC_OK;
}

static void line(worker *w, int k, uint64_t t_ms, long long value, int ddir, uint64_t bs, uint64_t offset)
{
    fsc_iolog *lg = w->log;
    FILE *f = lg->f[k];
    if (!f)
        return;
    if (lg->shared[k])
        pthread_mutex_lock(&w->er->lock);
    if (lg->offset)
        fprintf(f, "%lu, %lld, %u, %llu, %llu, 0\n", (unsigned long)t_ms, value, (unsigned)ddir,
                (unsigned long long)bs, (unsigned long long)offset);
    else
        fprintf(f, "%lu, %lld, %u, %llu, 0\n", (unsigned long)t_ms, value, (unsigned)ddir, (unsigned long long)bs);
    if (lg->shared[k])
        pthread_mutex_unlock(&w->er->lock);
}

/* log_avg_msec for the latency logs: the mean (or max) of each window, including the
 * I/O that closed it, stamped with the window's end (the last one with the time the job
 * ended), like fio. */
static void flush_lat_window(worker *w, int d, uint64_t stamp)
{
    fsc_iolog *lg = w->log;
    for (int k = 0; k < 3; k++) {
        window *win = &lg->win[k][d];
        if (!win->n)
            continue;
        double v = lg->maxv ? win->max : win->sum / (double)win->n;
        line(w, L_LAT + k, stamp, (long long)v, d, 0, 0);
        memset(win, 0, sizeof *win);
    }
    lg->win_last[d] = stamp - stamp % lg->avg_ms;
}

/* bw and iops over the window that just ended; fio's stats thread stamps them every
 * log_avg_msec, so the stamp is the window's end (the last one: the job's end). */
static void flush_rates(worker *w, uint64_t t_ms, bool last)
{
    fsc_iolog *lg = w->log;
    uint64_t ms = t_ms - lg->rate_last_ms;
    if (!ms)
        return;
    uint64_t stamp = last ? t_ms : t_ms - t_ms % lg->avg_ms;
    for (int d = 0; d < N_RW; d++) {
        if (!w->does[d])
            continue;
        uint64_t db = lg->total_bytes[d] - lg->rate_bytes[d], di = lg->total_ios[d] - lg->rate_ios[d];
        line(w, L_BW, stamp, (long long)(db * 1000 / ms / 1024), d, 0, 0);
        line(w, L_IOPS, stamp, (long long)(di * 1000 / ms), d, 0, 0);
        lg->rate_bytes[d] = lg->total_bytes[d];
        lg->rate_ios[d] = lg->total_ios[d];
    }
    lg->rate_last_ms = t_ms;
}

static void hist_line(worker *w, int d, uint64_t t_ms)
{
    fsc_iolog *lg = w->log;
    FILE *f = lg->f[L_HIST];
    if (lg->shared[L_HIST])
        pthread_mutex_lock(&w->er->lock);
    fprintf(f, "%lu, %u, %u, ", (unsigned long)t_ms, (unsigned)d, lg->last_bs[d]);
    for (size_t i = 0; i < FSC_HISTO_NR; i++) {
        fprintf(f, "%llu%s", (unsigned long long)(lg->hist[d][i] - lg->hist_prev[d][i]),
                i + 1 < FSC_HISTO_NR ? ", " : "\n");
        lg->hist_prev[d][i] = lg->hist[d][i];
    }
    if (lg->shared[L_HIST])
        pthread_mutex_unlock(&w->er->lock);
    lg->hist_last[d] = t_ms;
}

void fsc_iolog_io(worker *w, const fsc_io *io, uint64_t t)
{
    fsc_iolog *lg = w->log;
    int d = io->ddir;
    uint64_t t_ms = (t - w->t_epoch) / NS_PER_MS;
    uint64_t clat = t - io->issue_ns, lat = t - io->start_ns, slat = io->issue_ns - io->start_ns;
    lg->total_bytes[d] += (uint64_t)io->result;
    lg->total_ios[d]++;
    lg->last_bs[d] = io->len;
    if (lg->avg_ms) {
        double v[3] = {(double)lat, (double)clat, (double)slat};
        for (int k = 0; k < 3; k++) {
            if (k == 2 && w->ops->sync)
                continue; /* sync engines have no submission latency (fio's slat log stays empty) */
            window *win = &lg->win[k][d];
            win->n++;
            win->sum += v[k];
            win->max = v[k] > win->max ? v[k] : win->max;
        }
        if (t_ms - lg->win_last[d] >= lg->avg_ms)
            flush_lat_window(w, d, t_ms - t_ms % lg->avg_ms);
        if (t_ms - lg->rate_last_ms >= lg->avg_ms)
            flush_rates(w, t_ms, false);
    } else {
        line(w, L_LAT, t_ms, (long long)lat, d, io->len, io->offset);
        line(w, L_CLAT, t_ms, (long long)clat, d, io->len, io->offset);
        if (!w->ops->sync)
            line(w, L_SLAT, t_ms, (long long)slat, d, io->len, io->offset);
        line(w, L_BW, t_ms, lat ? (long long)((uint64_t)io->result * 1000000ull / lat) : 0, d, io->len,
             io->offset);
        line(w, L_IOPS, t_ms, 1, d, io->len, io->offset);
    }
    if (lg->hist) {
        lg->hist[d][fsc_histo_index(clat)]++;
        if (lg->hist_ms && t_ms - lg->hist_last[d] >= lg->hist_ms)
            hist_line(w, d, t_ms);
    }
}

void fsc_iolog_tick(worker *w, uint64_t t)
{
    (void)w, (void)t;
}

void fsc_iolog_close(worker *w, uint64_t t)
{
    fsc_iolog *lg = w->log;
    if (!lg)
        return;
    uint64_t t_ms = (t - w->t_epoch) / NS_PER_MS;
    if (lg->avg_ms) {
        /* the last, partial window, like fio's final flush */
        for (int d = 0; d < N_RW; d++)
            if (lg->win[0][d].n || lg->win[1][d].n)
                flush_lat_window(w, d, t_ms);
        if (lg->total_ios[0] != lg->rate_ios[0] || lg->total_ios[1] != lg->rate_ios[1])
            flush_rates(w, t_ms, true);
    }
    for (int k = 0; k < L_COUNT; k++) {
        if (!lg->f[k])
            continue;
        if (!lg->shared[k]) {
            fclose(lg->f[k]);
            free(lg->buf[k]);
            continue;
        }
        pthread_mutex_lock(&w->er->lock);
        for (size_t i = 0; i < n_shared; i++)
            if (shared_logs[i].f == lg->f[k] && --shared_logs[i].users == 0) {
                fclose(shared_logs[i].f);
                free(shared_logs[i].buf);
                shared_logs[i] = shared_logs[--n_shared];
                if (!n_shared) {
                    free(shared_logs);
                    shared_logs = NULL;
                }
                break;
            }
        pthread_mutex_unlock(&w->er->lock);
    }
    free(lg->hist);
    free(lg->hist_prev);
    free(lg);
    w->log = NULL;
}
