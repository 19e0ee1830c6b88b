/* SPDX-License-Identifier: MIT */
/* The progress line on stderr: files, MB, runs, rate and ETA, only on a terminal. */
#include "input_int.h"

#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

void fsc_progress_init(fsc_progress *p, bool want, uint64_t raw_total)
{
    *p = (fsc_progress){0};
    p->on = want && isatty(STDERR_FILENO);
    p->raw_total = raw_total;
    p->t0 = p->last_draw = now_s();
    /* a test on a fast machine may finish before the first redraw */
    const char *every = getenv("FIOSCOPE_PROGRESS_EVERY");
    p->every = every && *every ? strtod(every, NULL) : 0.1;
}

void fsc_progress_tick(fsc_progress *p, bool force)
{
    if (!p->on)
        return;
    double t = now_s();
    if (!force && t - p->last_draw < p->every)
        return;
    p->last_draw = t;
    double secs = t - p->t0 > 1e-3 ? t - p->t0 : 1e-3;
    double mb = (double)p->text_bytes / 1e6;
    char eta[32] = "";
    if (p->raw_total && p->raw_done && p->raw_done <= p->raw_total && secs >= 0.5) {
        double left = (double)(p->raw_total - p->raw_done) / ((double)p->raw_done / secs);
        unsigned s = (unsigned)(left + 0.5);
        snprintf(eta, sizeof eta, ", ETA %u:%02u", s / 60, s % 60);
    }
    fprintf(stderr, "\r\033[Kfioscope: %llu files, %.1f MB, %llu runs, %.1f MB/s%s",
            (unsigned long long)p->files, mb, (unsigned long long)p->runs, mb / secs, eta);
    fflush(stderr);
    p->drawn = true;
}

void fsc_progress_end(fsc_progress *p)
{
    if (p->on && p->drawn) {
        fputs("\r\033[K", stderr);
        fflush(stderr);
        p->drawn = false;
    }
}
