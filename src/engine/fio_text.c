/* SPDX-License-Identifier: MIT */
/* fsc_run -> fio 3.33 normal text. Every number printed comes from the model, so the
 * text and the JSON are two views of one run; widths and units follow fio's stat.c. */
#include "fioscope/engine.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

static unsigned n_digits(uint64_t v)
{
    unsigned n = 1;
    while (v >= 10) {
        v /= 10;
        n++;
    }
    return n;
}

void fsc_num2str(char *buf, size_t len, uint64_t num, unsigned maxlen, bool pow2, const char *unit)
{
    static const char *const si[] = {"", "k", "M", "G", "T", "P", "E"};
    static const char *const iec[] = {"", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei"};
    const char *const *pfx = pow2 ? iec : si;
    const uint64_t thousand = pow2 ? 1024 : 1000;
    unsigned idx = 0;
    uint64_t rem = 0;
    while (n_digits(num) > maxlen && idx < 6) {
        rem = num % thousand;
        num /= thousand;
        idx++;
    }
    if (idx == 0) {
        snprintf(buf, len, "%" PRIu64 "%s", num, unit);
        return;
    }
    int decimals = (int)maxlen - (int)n_digits(num);
    if (decimals <= 1) {
        /* no room for a decimal: round to the nearest integer */
        if (rem >= thousand / 2)
            num++;
        snprintf(buf, len, "%" PRIu64 "%s%s", num, pfx[idx], unit);
        return;
    }
    int digits = decimals - 1 > 9 ? 9 : decimals - 1;
    uint64_t scale = 1;
    for (int i = 0; i < digits; i++)
        scale *= 10;
    uint64_t frac = (uint64_t)llround((double)rem / (double)thousand * (double)scale);
    if (frac >= scale) { /* 9.999 -> 10.0 */
        num++;
        frac = 0;
        int d2 = (int)maxlen - (int)n_digits(num) - 1;
        if (d2 < 1) {
            snprintf(buf, len, "%" PRIu64 "%s%s", num, pfx[idx], unit);
            return;
        }
        digits = d2 > 9 ? 9 : d2;
    }
    snprintf(buf, len, "%" PRIu64 ".%0*" PRIu64 "%s%s", num, digits, frac, pfx[idx], unit);
}

static uint64_t u64(fsc_num n)
{
    return n.set && n.v > 0 ? (uint64_t)n.v : 0;
}

static bool kb_base_is_si(const fsc_job *job)
{
    const char *kb = fsc_job_option(job, "kb_base");
    return kb && !strcmp(kb, "1000");
}

/* ---- preamble ---- */

void fsc_fio_text_preamble(fsc_buf *out, const fsc_jobset *js)
{
    unsigned gid = 0, threads = 0;
    for (size_t i = 0; i < js->n_jobs; i++) {
        const fsc_jobdef *j = &js->jobs[i];
        char lo[2][32], hi[2][32];
        if (i > 0 && j->new_group)
            gid++;
        for (int d = 0; d < 2; d++) {
            fsc_num2str(lo[d], sizeof lo[d], j->bs_min[d], 4, true, "B");
            fsc_num2str(hi[d], sizeof hi[d], j->bs_max[d], 4, true, "B");
        }
        /* fio shows each direction's smallest and largest block; trim follows writes */
        fsc_buf_printf(out, "%s: (g=%u): rw=%s, bs=(R) %s-%s, (W) %s-%s, (T) %s-%s, ioengine=%s, iodepth=%u\n",
                       j->name, gid, j->rw_text, lo[0], hi[0], lo[1], hi[1], lo[1], hi[1], j->ioengine, j->iodepth);
        if (j->numjobs > 1)
            fsc_buf_puts(out, "...\n");
        threads += j->numjobs;
    }
    fsc_buf_printf(out, "fioscope-engine-%s\n", FSC_VERSION);
    fsc_buf_printf(out, "Starting %u thread%s\n", threads, threads == 1 ? "" : "s");
}

/* ---- latency lines and percentile blocks ---- */

static void lat_line(fsc_buf *out, const char *name, const fsc_lat *l)
{
    uint64_t min = u64(l->min), max = u64(l->max);
    double mean = l->mean.v, dev = l->stddev.v;
    const char *unit = "nsec";
    /* fio's nsec_to_msec / nsec_to_usec */
    if (min > 2000000 && max > 99999999ull && dev > 1000000.0) {
        min /= 1000000, max /= 1000000, mean /= 1e6, dev /= 1e6, unit = "msec";
    } else if (min > 2000 && max > 99999 && dev > 1000.0) {
        min /= 1000, max /= 1000, mean /= 1e3, dev /= 1e3, unit = "usec";
    }
    char a[32], b[32];
    fsc_num2str(a, sizeof a, min, 6, false, "");
    fsc_num2str(b, sizeof b, max, 6, false, "");
    fsc_buf_printf(out, "    %s (%s): min=%s, max=%s, avg=%5.02f, stdev=%5.02f\n", name, unit, a, b, mean, dev);
}

/* The fewest decimals that show every percentile of the list exactly (fio uses the
 * precision of the list as written; the default list needs 2). */
static int pct_precision(const fsc_lat *l)
{
    int best = 0;
    for (size_t i = 0; i < l->n_percentile; i++) {
        double p = l->percentile[i].pct;
        int d = 0;
        while (d < 6 && fabs(p * pow(10, d) - round(p * pow(10, d))) > 1e-6)
            d++;
        if (d > best)
            best = d;
    }
    return best;
}

static void pct_block(fsc_buf *out, const char *name, const fsc_lat *l)
{
    size_t n = l->n_percentile;
    if (!n)
        return;
    uint64_t vals[64], minv = UINT64_MAX, maxv = 0;
    if (n > FSC_ARRAY_SIZE(vals))
        n = FSC_ARRAY_SIZE(vals);
    for (size_t i = 0; i < n; i++) {
        vals[i] = l->percentile[i].ns > 0 ? (uint64_t)l->percentile[i].ns : 0;
        minv = vals[i] < minv ? vals[i] : minv;
        maxv = vals[i] > maxv ? vals[i] : maxv;
    }
    int steps = 0;
    const char *unit = "nsec";
    if (minv > 2000000 && maxv > 99999999ull)
        steps = 2, unit = "msec";
    else if (minv > 2000 && maxv > 99999)
        steps = 1, unit = "usec";
    for (size_t i = 0; i < n; i++)
        for (int s = 0; s < steps; s++)
            vals[i] = (vals[i] + 999) / 1000; /* fio rounds up at each step */
    for (int s = 0; s < steps; s++)
        maxv = (maxv + 999) / 1000;
    int prec = pct_precision(l);
    int width = (int)n_digits(maxv) > 5 ? (int)n_digits(maxv) : 5;
    size_t per_line = (size_t)(80 - 7) / (size_t)(prec + 10 + width);
    if (!per_line)
        per_line = 1;
    fsc_buf_printf(out, "    %s percentiles (%s):\n     |", name, unit);
    for (size_t i = 0; i < n; i++) {
        if (i && i % per_line == 0)
            fsc_buf_puts(out, "     |");
        bool last = i == n - 1;
        fsc_buf_printf(out, " %*.*fth=[%*" PRIu64 "]%c", prec + 3, prec, l->percentile[i].pct, width, vals[i],
                       last ? '\n' : ',');
        if (!last && i % per_line == per_line - 1)
            fsc_buf_putc(out, '\n');
    }
}

/* ---- one direction ---- */

static void bw_lines(fsc_buf *out, const fsc_dir *d, bool si)
{
    if (!d->bw_samples.set)
        return;
    double kb = si ? 1000.0 : 1024.0;
    double min = d->bw_min.v, max = d->bw_max.v, mean = d->bw_mean.v, dev = d->bw_dev.v;
    const char *unit = si ? "kB" : "KiB";
    if (mean > kb * kb) {
        min /= kb, max /= kb, mean /= kb, dev /= kb;
        unit = "MiB"; /* fio says MiB even with kb_base=1000 */
    }
    fsc_buf_printf(out, "   bw (%5s/s): min=%5" PRIu64 ", max=%5" PRIu64 ", per=%3.2f%%, avg=%5.02f, stdev=%5.02f, samples=%" PRIu64 "\n",
                   unit, (uint64_t)min, (uint64_t)max, d->bw_agg.set ? d->bw_agg.v : 100.0, mean, dev,
                   u64(d->bw_samples));
    fsc_buf_printf(out, "   iops        : min=%5" PRIu64 ", max=%5" PRIu64 ", avg=%5.02f, stdev=%5.02f, samples=%" PRIu64 "\n",
                   u64(d->iops_min), u64(d->iops_max), d->iops_mean.v, d->iops_stddev.v, u64(d->iops_samples));
}

static void dir_block(fsc_buf *out, fsc_ddir dd, const fsc_dir *d, bool si)
{
    char iops[32], bw[32], bw_alt[32], io[32];
    fsc_num2str(iops, sizeof iops, u64(d->iops), 4, false, "");
    fsc_num2str(bw, sizeof bw, u64(d->bw_bytes), 4, !si, "B/s");
    fsc_num2str(bw_alt, sizeof bw_alt, u64(d->bw_bytes), 4, si, "B/s");
    fsc_num2str(io, sizeof io, u64(d->io_bytes), 4, !si, "B");
    fsc_buf_printf(out, "  %s: IOPS=%s, BW=%s (%s)(%s/%" PRIu64 "msec)", fsc_ddir_name(dd), iops, bw, bw_alt, io,
                   u64(d->runtime));
    if (d->zone_resets.set)
        fsc_buf_printf(out, "; %" PRIu64 " zone resets", u64(d->zone_resets));
    fsc_buf_putc(out, '\n');
    static const char *const names[FSC_LAT_COUNT] = {"slat", "clat", " lat"};
    for (int k = 0; k < FSC_LAT_COUNT; k++)
        if (d->lat[k].N.set && d->lat[k].N.v > 0)
            lat_line(out, names[k], &d->lat[k]);
    static const char *const pnames[FSC_LAT_COUNT] = {"slat", "clat", "lat"};
    for (int k = 0; k < FSC_LAT_COUNT; k++)
        if (d->lat[k].N.set && d->lat[k].N.v > 0)
            pct_block(out, pnames[k], &d->lat[k]);
    bw_lines(out, d, si);
}

/* ---- per-job lines ---- */

static void bucket_lines(fsc_buf *out, const fsc_kvlist *l, const char *unit)
{
    size_t on_line = 0;
    for (size_t i = 0; i < l->n; i++) {
        if (l->items[i].v <= 0)
            continue;
        if (on_line == 0)
            fsc_buf_printf(out, "  lat (%s)   : ", unit);
        else
            fsc_buf_puts(out, ", ");
        fsc_buf_printf(out, "%s=%3.2f%%", l->items[i].key, l->items[i].v);
        if (++on_line == 5) {
            fsc_buf_putc(out, '\n');
            on_line = 0;
        }
    }
    if (on_line)
        fsc_buf_putc(out, '\n');
}

static void dist_line(fsc_buf *out, const char *prefix, const fsc_kvlist *l)
{
    fsc_buf_puts(out, prefix);
    for (size_t i = 0; i < l->n; i++)
        fsc_buf_printf(out, "%s%s=%3.1f%%", i ? ", " : "", l->items[i].key, l->items[i].v);
    fsc_buf_putc(out, '\n');
}

static void job_block(fsc_buf *out, const fsc_job *job, const char *stamp)
{
    bool si = kb_base_is_si(job);
    fsc_buf_printf(out, "%s: (groupid=%" PRIu64 ", jobs=%" PRIu64 "): err=%2" PRIu64, job->jobname,
                   u64(job->groupid), u64(job->jobs), u64(job->error));
    if (job->error_text)
        fsc_buf_printf(out, " (%s)", job->error_text);
    fsc_buf_printf(out, ": pid=%" PRIu64, u64(job->pid));
    if (stamp)
        fsc_buf_printf(out, ": %s", stamp);
    fsc_buf_putc(out, '\n');
    if (job->description)
        fsc_buf_printf(out, "  Description  : [%s]\n", job->description);
    static const fsc_ddir dirs[] = {FSC_DIR_READ, FSC_DIR_WRITE, FSC_DIR_TRIM, FSC_DIR_MIXED};
    for (size_t i = 0; i < FSC_ARRAY_SIZE(dirs); i++)
        if (job->dir[dirs[i]].present)
            dir_block(out, dirs[i], &job->dir[dirs[i]], si);
    bucket_lines(out, &job->latency[FSC_BUCKET_NS], "nsec");
    bucket_lines(out, &job->latency[FSC_BUCKET_US], "usec");
    bucket_lines(out, &job->latency[FSC_BUCKET_MS], "msec");
    const fsc_dir *sync = &job->dir[FSC_DIR_SYNC];
    if (sync->present && sync->lat[FSC_LAT_LAT].N.set) {
        fsc_buf_puts(out, "  fsync/fdatasync/sync_file_range:\n");
        lat_line(out, "sync", &sync->lat[FSC_LAT_LAT]);
        pct_block(out, "sync", &sync->lat[FSC_LAT_LAT]);
    }
    fsc_buf_printf(out, "  cpu          : usr=%3.2f%%, sys=%3.2f%%, ctx=%" PRIu64 ", majf=%" PRIu64 ", minf=%" PRIu64 "\n",
                   job->usr_cpu.v, job->sys_cpu.v, u64(job->ctx), u64(job->majf), u64(job->minf));
    dist_line(out, "  IO depths    : ", &job->iodepth_level);
    dist_line(out, "     submit    : ", &job->iodepth_submit);
    dist_line(out, "     complete  : ", &job->iodepth_complete);
    const fsc_dir *r = &job->dir[FSC_DIR_READ], *w = &job->dir[FSC_DIR_WRITE], *t = &job->dir[FSC_DIR_TRIM];
    fsc_buf_printf(out,
                   "     issued rwts: total=%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 " short=%" PRIu64
                   ",%" PRIu64 ",%" PRIu64 ",0 dropped=%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",0\n",
                   u64(r->total_ios), u64(w->total_ios), u64(t->total_ios), u64(sync->total_ios), u64(r->short_ios),
                   u64(w->short_ios), u64(t->short_ios), u64(r->drop_ios), u64(w->drop_ios), u64(t->drop_ios));
    fsc_buf_printf(out, "     latency   : target=%" PRIu64 ", window=%" PRIu64 ", percentile=%.2f%%, depth=%" PRIu64 "\n",
                   u64(job->latency_target), u64(job->latency_window), job->latency_percentile.v,
                   u64(job->latency_depth));
}

/* ---- groups and disks ---- */

static void group_block(fsc_buf *out, const fsc_group *g, bool si)
{
    static const char *const labels[FSC_DIR_COUNT] = {"   READ", "  WRITE", "   TRIM", "", "  MIXED"};
    fsc_buf_printf(out, "\nRun status group %" PRIu64 " (all jobs):\n", u64(g->groupid));
    static const fsc_ddir dirs[] = {FSC_DIR_READ, FSC_DIR_WRITE, FSC_DIR_TRIM, FSC_DIR_MIXED};
    for (size_t i = 0; i < FSC_ARRAY_SIZE(dirs); i++) {
        int d = dirs[i];
        const fsc_group_dir *gd = &g->dir[d];
        if (!gd->present)
            continue;
        char agg[32], agg2[32], mn[32], mn2[32], mx[32], mx2[32], io[32], io2[32];
        fsc_num2str(agg, sizeof agg, u64(gd->bw_bytes), 4, !si, "B/s");
        fsc_num2str(agg2, sizeof agg2, u64(gd->bw_bytes), 4, si, "B/s");
        fsc_num2str(mn, sizeof mn, u64(gd->bw_min_bytes), 4, !si, "B/s");
        fsc_num2str(mn2, sizeof mn2, u64(gd->bw_min_bytes), 4, si, "B/s");
        fsc_num2str(mx, sizeof mx, u64(gd->bw_max_bytes), 4, !si, "B/s");
        fsc_num2str(mx2, sizeof mx2, u64(gd->bw_max_bytes), 4, si, "B/s");
        fsc_num2str(io, sizeof io, u64(gd->io_bytes), 4, !si, "B");
        fsc_num2str(io2, sizeof io2, u64(gd->io_bytes), 4, si, "B");
        fsc_buf_printf(out, "%s: bw=%s (%s), %s-%s (%s-%s), io=%s (%s), run=%" PRIu64 "-%" PRIu64 "msec\n", labels[d],
                       agg, agg2, mn, mx, mn2, mx2, io, io2, u64(gd->runtime_min), u64(gd->runtime_max));
    }
}

static void disk_line(fsc_buf *out, const fsc_disk *d)
{
    fsc_buf_printf(out,
                   "%s%s: ios=%" PRIu64 "/%" PRIu64 ", merge=%" PRIu64 "/%" PRIu64 ", ticks=%" PRIu64 "/%" PRIu64
                   ", in_queue=%" PRIu64 ", util=%3.2f%%",
                   d->n_members ? "    " : "  ", d->name, u64(d->read_ios), u64(d->write_ios), u64(d->read_merges),
                   u64(d->write_merges), u64(d->read_ticks), u64(d->write_ticks), u64(d->in_queue), d->util.v);
    if (d->n_members)
        fsc_buf_printf(out,
                       ", aggrios=%" PRIu64 "/%" PRIu64 ", aggrmerge=%" PRIu64 "/%" PRIu64 ", aggrticks=%" PRIu64
                       "/%" PRIu64 ", aggrin_queue=%" PRIu64 ", aggrutil=%3.2f%%",
                       u64(d->aggr_read_ios), u64(d->aggr_write_ios), u64(d->aggr_read_merges),
                       u64(d->aggr_write_merge), u64(d->aggr_read_ticks), u64(d->aggr_write_ticks),
                       u64(d->aggr_in_queue), d->aggr_util.v);
    fsc_buf_putc(out, '\n');
}

void fsc_fio_text_write(fsc_buf *out, const fsc_run *run, const char *stamp)
{
    fsc_buf_putc(out, '\n');
    for (size_t i = 0; i < run->n_jobs; i++)
        job_block(out, &run->jobs[i], stamp);
    for (size_t g = 0; g < run->n_groups; g++) {
        bool si = false;
        for (size_t i = 0; i < run->n_jobs; i++)
            if (run->jobs[i].groupid.v == run->groups[g].groupid.v) {
                si = kb_base_is_si(&run->jobs[i]);
                break;
            }
        group_block(out, &run->groups[g], si);
    }
    if (run->n_disk_util) {
        fsc_buf_puts(out, "\nDisk stats (read/write):\n");
        for (size_t i = 0; i < run->n_disk_util; i++)
            disk_line(out, &run->disk_util[i]);
    }
}
