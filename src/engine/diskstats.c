/* SPDX-License-Identifier: MIT */
/* Per-device disk statistics like fio's "Disk stats": /proc/diskstats before and after
 * the run, for the device behind the data file and, for md/dm, its slaves. */
#define _GNU_SOURCE
#include "engine_int.h"

#include <dirent.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

static bool exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;
}

/* The disk name of a sysfs block directory; a partition reports its whole disk, as fio does. */
static bool sysfs_disk_name(const char *sysdir, char *name, size_t len)
{
    char real[PATH_MAX], probe[PATH_MAX + 16];
    if (!realpath(sysdir, real))
        return false;
    snprintf(probe, sizeof probe, "%s/partition", real);
    if (exists(probe)) {
        char *slash = strrchr(real, '/');
        if (!slash)
            return false;
        *slash = '\0';
    }
    const char *base = strrchr(real, '/');
    snprintf(name, len, "%.63s", base ? base + 1 : real);
    return name[0] != '\0';
}

static void add_slaves(fsc_diskwatch *w)
{
    char dir[128];
    snprintf(dir, sizeof dir, "/sys/block/%s/slaves", w->name);
    DIR *d = opendir(dir);
    if (!d)
        return;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.')
            continue;
        fsc_diskwatch *s = realloc(w->slaves, (w->n_slaves + 1) * sizeof *s);
        if (!s)
            break;
        w->slaves = s;
        memset(&s[w->n_slaves], 0, sizeof *s);
        snprintf(s[w->n_slaves].name, sizeof s[w->n_slaves].name, "%.63s", e->d_name);
        w->n_slaves++;
    }
    closedir(d);
}

bool fsc_diskwatch_find(fsc_diskwatch *w, const char *path)
{
    struct stat st;
    memset(w, 0, sizeof *w);
    if (stat(path, &st) != 0)
        return false;
    dev_t dev = S_ISBLK(st.st_mode) ? st.st_rdev : st.st_dev;
    if (major(dev) == 0) /* tmpfs, overlay and other anonymous devices */
        return false;
    char sysdir[64];
    snprintf(sysdir, sizeof sysdir, "/sys/dev/block/%u:%u", major(dev), minor(dev));
    if (!sysfs_disk_name(sysdir, w->name, sizeof w->name))
        return false;
    add_slaves(w);
    return true;
}

static void read_counts(const char *name, fsc_diskcount *c)
{
    FILE *f = fopen("/proc/diskstats", "r");
    char line[512], dev[64];
    memset(c, 0, sizeof *c);
    if (!f)
        return;
    while (fgets(line, sizeof line, f)) {
        unsigned maj, min;
        uint64_t v[11];
        int n = sscanf(line,
                       "%u %u %63s %" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64
                       " %" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64,
                       &maj, &min, dev, &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7], &v[8],
                       &v[9], &v[10]);
        if (n < 14 || strcmp(dev, name) != 0)
            continue;
        c->ios[0] = v[0], c->merges[0] = v[1], c->sectors[0] = v[2], c->ticks[0] = v[3];
        c->ios[1] = v[4], c->merges[1] = v[5], c->sectors[1] = v[6], c->ticks[1] = v[7];
        c->io_ticks = v[9], c->time_in_queue = v[10];
        break;
    }
    fclose(f);
}

void fsc_diskwatch_sample(fsc_diskwatch *w, bool first)
{
    read_counts(w->name, first ? &w->before : &w->after);
    for (size_t i = 0; i < w->n_slaves; i++)
        fsc_diskwatch_sample(&w->slaves[i], first);
}

static double delta(uint64_t a, uint64_t b)
{
    return b >= a ? (double)(b - a) : 0.0;
}

static double util_pct(const fsc_diskwatch *w, uint64_t elapsed_ms)
{
    if (!elapsed_ms)
        return 0;
    double u = delta(w->before.io_ticks, w->after.io_ticks) * 100.0 / (double)elapsed_ms;
    return u > 100.0 ? 100.0 : u;
}

static void fill_disk(fsc_disk *d, const fsc_diskwatch *w, uint64_t elapsed_ms)
{
    const fsc_diskcount *a = &w->before, *b = &w->after;
    d->read_ios = fsc_num_of(delta(a->ios[0], b->ios[0]));
    d->write_ios = fsc_num_of(delta(a->ios[1], b->ios[1]));
    d->read_merges = fsc_num_of(delta(a->merges[0], b->merges[0]));
    d->write_merges = fsc_num_of(delta(a->merges[1], b->merges[1]));
    d->read_ticks = fsc_num_of(delta(a->ticks[0], b->ticks[0]));
    d->write_ticks = fsc_num_of(delta(a->ticks[1], b->ticks[1]));
    d->in_queue = fsc_num_of(delta(a->time_in_queue, b->time_in_queue));
    d->util = fsc_num_of(util_pct(w, elapsed_ms));
}

/* fio's aggregate of the slaves: sums divided by the slave count, util of the busiest. */
static void fill_aggr(fsc_disk *d, const fsc_diskwatch *w, uint64_t elapsed_ms)
{
    double s[7] = {0}, util = 0, n = (double)w->n_slaves;
    for (size_t i = 0; i < w->n_slaves; i++) {
        const fsc_diskcount *a = &w->slaves[i].before, *b = &w->slaves[i].after;
        s[0] += delta(a->ios[0], b->ios[0]);
        s[1] += delta(a->ios[1], b->ios[1]);
        s[2] += delta(a->merges[0], b->merges[0]);
        s[3] += delta(a->merges[1], b->merges[1]);
        s[4] += delta(a->ticks[0], b->ticks[0]);
        s[5] += delta(a->ticks[1], b->ticks[1]);
        s[6] += delta(a->time_in_queue, b->time_in_queue);
        double u = util_pct(&w->slaves[i], elapsed_ms);
        if (u > util)
            util = u;
    }
    /* fio divides integers, so the averages are whole numbers */
    d->aggr_read_ios = fsc_num_of((double)(uint64_t)(s[0] / n));
    d->aggr_write_ios = fsc_num_of((double)(uint64_t)(s[1] / n));
    d->aggr_read_merges = fsc_num_of((double)(uint64_t)(s[2] / n));
    d->aggr_write_merge = fsc_num_of((double)(uint64_t)(s[3] / n));
    d->aggr_read_ticks = fsc_num_of((double)(uint64_t)(s[4] / n));
    d->aggr_write_ticks = fsc_num_of((double)(uint64_t)(s[5] / n));
    d->aggr_in_queue = fsc_num_of((double)(uint64_t)(s[6] / n));
    d->aggr_util = fsc_num_of(util);
}

bool fsc_diskwatch_report(const fsc_diskwatch *w, fsc_run *run, uint64_t elapsed_ms)
{
    if (!w->name[0])
        return true;
    fsc_disk *d = fsc_run_add_disk(run);
    if (!d || !(d->name = fsc_strdup(w->name)))
        return false;
    fill_disk(d, w, elapsed_ms);
    if (w->n_slaves) {
        fill_aggr(d, w, elapsed_ms);
        for (size_t i = 0; i < w->n_slaves; i++)
            if (!fsc_disk_add_member(d, w->slaves[i].name))
                return false;
        for (size_t i = 0; i < w->n_slaves; i++) {
            fsc_disk *m = fsc_run_add_disk(run);
            if (!m || !(m->name = fsc_strdup(w->slaves[i].name)) || !(m->parent = fsc_strdup(w->name)))
                return false;
            fill_disk(m, &w->slaves[i], elapsed_ms);
        }
    }
    return true;
}

void fsc_diskwatch_free(fsc_diskwatch *w)
{
    free(w->slaves);
    w->slaves = NULL;
    w->n_slaves = 0;
}
