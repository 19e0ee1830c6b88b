/* SPDX-License-Identifier: MIT */
/* Data files: created with O_EXCL and then only ever used through the descriptor of
 * that open (never reopened by a path that could have been swapped), existing files
 * checked on the descriptor actually opened, layout that a signal can stop, fio's
 * page-cache handling (invalidate, fadvise_hint) and removal of what this run made. */
#define _GNU_SOURCE
#include "run_int.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#define LAYOUT_CHUNK (1u << 20)

static bool job_reads(const fsc_jobdef *d)
{
    return d->rw != FSC_RW_WRITE && d->rw != FSC_RW_RANDWRITE;
}

static bool job_writes(const fsc_jobdef *d)
{
    return d->rw != FSC_RW_READ && d->rw != FSC_RW_RANDREAD;
}

void fsc_fill_buffer(const fsc_jobdef *def, fsc_rng *r, void *buf, size_t len)
{
    uint8_t *p = buf;
    if (def->zero_buffers) {
        memset(p, 0, len);
        return;
    }
    size_t chunk = def->buffer_compress_chunk ? def->buffer_compress_chunk : 512;
    unsigned pct = def->buffer_compress_percentage;
    for (size_t off = 0; off < len; off += chunk) {
        size_t n = len - off < chunk ? len - off : chunk;
        /* fio: (100 - pct)% of each chunk random, the rest compresses away */
        size_t rnd = pct ? n * (100 - pct) / 100 : n;
        size_t i = 0;
        for (; i + 8 <= rnd; i += 8) {
            uint64_t x = fsc_rng_next(r);
            memcpy(p + off + i, &x, 8);
        }
        for (uint64_t x = fsc_rng_next(r); i < rnd; i++, x >>= 8)
            p[off + i] = (uint8_t)x;
        memset(p + off + rnd, 0, n - rnd);
    }
}

static datafile *find_file(engine_run *er, const char *path)
{
    for (size_t i = 0; i < er->n_files; i++)
        if (!strcmp(er->files[i]->path, path))
            return er->files[i];
    return NULL;
}

/* Write [from, to) of a file this run created, through its setup descriptor. A pending
 * SIGINT/SIGTERM stops it. */
static fsc_status lay_out(engine_run *er, const fsc_jobdef *def, datafile *df, uint64_t from, uint64_t to)
{
    void *buf;
    if (posix_memalign(&buf, 4096, LAYOUT_CHUNK))
        return fsc_er_fail(er, FSC_E_NOMEM, "out of memory");
    fsc_rng r;
    fsc_rng_seed(&r, 0x243F6A8885A308D3ull);
    fsc_fill_buffer(def, &r, buf, LAYOUT_CHUNK);
    fsc_status st = FSC_OK;
    for (uint64_t done = from; done < to && st == FSC_OK;) {
        if (fsc_er_signalled(er)) {
            st = fsc_er_fail(er, FSC_E_INTERRUPTED, "interrupted by a signal while laying out %s", df->path);
            break;
        }
        size_t n = to - done < LAYOUT_CHUNK ? (size_t)(to - done) : LAYOUT_CHUNK;
        ssize_t w = pwrite(df->fd, buf, n, (off_t)done);
        if (w <= 0)
            st = fsc_er_fail(er, FSC_E_IO, "%s: cannot lay out: %s", df->path, w < 0 ? strerror(errno) : "short write");
        else
            done += (uint64_t)w;
    }
    free(buf);
    if (st == FSC_OK)
        fsync(df->fd);
    return st;
}

/* Grow a file this run created to size: fallocate like fio, and write data when the job
 * reads it (fio lays files out for reads, or for writes with overwrite=1). */
static fsc_status grow(engine_run *er, const fsc_jobdef *def, datafile *df, uint64_t size, bool *laid)
{
    if (df->size >= size)
        return FSC_OK;
    if (def->fallocate == FSC_FALLOC_POSIX || def->fallocate == FSC_FALLOC_KEEP) {
        int r = def->fallocate == FSC_FALLOC_KEEP
                    ? fallocate(df->fd, FALLOC_FL_KEEP_SIZE, (off_t)df->size, (off_t)(size - df->size))
                    : posix_fallocate(df->fd, (off_t)df->size, (off_t)(size - df->size));
        if (def->fallocate == FSC_FALLOC_KEEP && r < 0)
            r = errno;
        if (r == ENOSPC || r == EDQUOT)
            return fsc_er_fail(er, FSC_E_IO, "%s: cannot reserve %llu bytes: %s", df->path,
                               (unsigned long long)size, strerror(r));
    } else if (def->fallocate == FSC_FALLOC_TRUNCATE) {
        if (ftruncate(df->fd, (off_t)size) != 0)
            return fsc_er_fail(er, FSC_E_IO, "%s: %s", df->path, strerror(errno));
    }
    if (job_reads(def) || def->overwrite) {
        fsc_status st = lay_out(er, def, df, df->size, size);
        if (st != FSC_OK)
            return st;
    }
    *laid = true; /* fio says "Laying out" also when it only reserves the space */
    df->size = size;
    return FSC_OK;
}

/* Open (or create) path for a job and check the opened file itself. need = bytes the
 * job wants in it (0: use what is there). */
static fsc_status open_datafile(engine_run *er, const fsc_jobdef *def, const char *path, uint64_t need,
                                datafile **out, bool *laid)
{
    bool allow = er->opts && er->opts->allow_overwrite;
    bool writes = job_writes(def);
    datafile *df = find_file(er, path);
    if (df) {
        if (writes && !df->created && !allow)
            return fsc_er_fail(er, FSC_E_USAGE,
                               "job '%s': refusing to write to existing file %s that fioscope did not create "
                               "(use --allow-overwrite)",
                               def->name, path);
        if (need > df->size) {
            if (!df->created && (!allow || df->is_blk))
                return fsc_er_fail(er, FSC_E_USAGE,
                                   "job '%s': %s has %llu bytes, less than the %llu the job needs (fioscope "
                                   "extends only files it created; use --allow-overwrite)",
                                   def->name, path, (unsigned long long)df->size, (unsigned long long)need);
            fsc_status st = grow(er, def, df, need, laid);
            if (st != FSC_OK)
                return st;
        } else if (df->created && (job_reads(def) || def->overwrite) && !*laid) {
            /* an earlier write-only job only reserved the space; fio reads what is there */
        }
        *out = df;
        return FSC_OK;
    }
    datafile **slot = FSC_PUSH(er->files, er->n_files, er->cap_files);
    df = slot ? calloc(1, sizeof *df) : NULL;
    if (!df || !(df->path = fsc_strdup(path))) {
        free(df);
        if (slot)
            er->n_files--;
        return fsc_er_fail(er, FSC_E_NOMEM, "out of memory");
    }
    *slot = df;
    df->fd = -1;
    df->created = false;
    /* try to create it first: O_EXCL never follows a link and never opens what exists */
    int fd = need ? open(path, O_CREAT | O_EXCL | O_RDWR | O_NOFOLLOW | O_CLOEXEC, 0644) : -1;
    if (fd >= 0) {
        df->created = true;
    } else if (need && errno != EEXIST) {
        int e = errno;
        er->n_files--;
        free(df->path);
        free(df);
        return fsc_er_fail(er, FSC_E_IO, "job '%s': cannot create %s: %s", def->name, path, strerror(e));
    } else {
        /* it exists: open it as it is and judge the file actually opened */
        int flags = (writes && allow ? O_RDWR : O_RDONLY) | O_CLOEXEC | O_NONBLOCK;
        if (writes && allow)
            flags |= O_NOFOLLOW;
        fd = open(path, flags);
        if (fd < 0) {
            int e = errno;
            er->n_files--;
            free(df->path);
            free(df);
            if (!need && e == ENOENT)
                return fsc_er_fail(er, FSC_E_USAGE, "job '%s': %s does not exist and size is not set", def->name,
                                   path);
            return fsc_er_fail(er, FSC_E_IO, "job '%s': cannot open %s: %s", def->name, path,
                               e == ELOOP ? "it is a symbolic link (not followed for writing)" : strerror(e));
        }
        fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
    }
    df->fd = fd;
    struct stat st;
    if (fstat(fd, &st) != 0) {
        int e = errno;
        return fsc_er_fail(er, FSC_E_IO, "%s: %s", path, strerror(e));
    }
    df->dev = st.st_dev;
    df->ino = st.st_ino;
    df->is_blk = S_ISBLK(st.st_mode);
    if (!df->created) {
        if (df->is_blk) {
            if (writes && !allow)
                return fsc_er_fail(er, FSC_E_USAGE,
                                   "job '%s': refusing to write to block device %s (use --allow-overwrite)",
                                   def->name, path);
            off_t end = lseek(fd, 0, SEEK_END);
            df->size = end > 0 ? (uint64_t)end : 0;
        } else if (!S_ISREG(st.st_mode)) {
            return fsc_er_fail(er, FSC_E_USAGE, "job '%s': %s is not a regular file or block device", def->name,
                               path);
        } else {
            if (writes && !allow)
                return fsc_er_fail(er, FSC_E_USAGE,
                                   "job '%s': refusing to write to existing file %s that fioscope did not create "
                                   "(use --allow-overwrite)",
                                   def->name, path);
            df->size = (uint64_t)st.st_size;
        }
        if (need > df->size) {
            if (df->is_blk || !allow)
                return fsc_er_fail(er, FSC_E_USAGE,
                                   "job '%s': %s has %llu bytes, less than the %llu the job needs (fioscope "
                                   "extends only files it created; use --allow-overwrite)",
                                   def->name, path, (unsigned long long)df->size, (unsigned long long)need);
            fsc_status s = lay_out(er, def, df, df->size, need);
            if (s != FSC_OK)
                return s;
            df->size = need;
        }
        *out = df;
        return FSC_OK;
    }
    df->size = 0;
    *out = df;
    return grow(er, def, df, need, laid);
}

/* The paths of a job clone: filename (':' separates several) or <name>.<clone>.<i>. */
static char *job_path(const fsc_jobdef *def, unsigned clone, unsigned i, const char *given)
{
    char name[4096];
    const char *dir = def->directory;
    if (given)
        snprintf(name, sizeof name, "%s%s%s", dir && given[0] != '/' ? dir : "", dir && given[0] != '/' ? "/" : "",
                 given);
    else
        snprintf(name, sizeof name, "%s%s%s.%u.%u", dir ? dir : "", dir ? "/" : "", def->name, clone, i);
    return fsc_strdup(name);
}

static size_t split_names(const char *s, char ***out)
{
    size_t n = 1;
    for (const char *p = s; *p; p++)
        n += *p == ':';
    char **v = calloc(n, sizeof *v);
    if (!v)
        return 0;
    size_t k = 0;
    for (const char *p = s;;) {
        const char *c = strchr(p, ':');
        size_t len = c ? (size_t)(c - p) : strlen(p);
        if (len && !(v[k] = fsc_strndup(p, len))) {
            for (size_t i = 0; i < k; i++)
                free(v[i]);
            free(v);
            return 0;
        }
        k += len > 0;
        if (!c)
            break;
        p = c + 1;
    }
    *out = v;
    return k;
}

fsc_status fsc_files_setup(engine_run *er, worker *w)
{
    const fsc_jobdef *def = w->def;
    char **names = NULL;
    size_t n = def->nrfiles;
    if (def->filename) {
        n = split_names(def->filename, &names);
        if (!n) {
            free(names);
            return fsc_er_fail(er, FSC_E_USAGE, "job '%s': filename=%s names no file", def->name, def->filename);
        }
    }
    w->files = calloc(n, sizeof *w->files);
    if (!w->files) {
        for (size_t i = 0; names && i < n; i++)
            free(names[i]);
        free(names);
        return fsc_er_fail(er, FSC_E_NOMEM, "out of memory");
    }
    uint64_t per_file = def->filesize ? def->filesize : def->size / n;
    uint64_t gran = w->gran;
    fsc_status st = FSC_OK;
    unsigned laid_files = 0;
    uint64_t laid_bytes = 0;
    for (size_t i = 0; i < n && st == FSC_OK; i++) {
        char *path = job_path(def, w->clone, (unsigned)i, names ? names[i] : NULL);
        if (!path) {
            st = fsc_er_fail(er, FSC_E_NOMEM, "out of memory");
            break;
        }
        uint64_t start = def->offset + (uint64_t)w->clone * def->offset_increment;
        uint64_t need = per_file && !def->offset_pct ? start + per_file : 0;
        datafile *df = NULL;
        bool laid = false;
        uint64_t before = 0;
        {
            datafile *known = find_file(er, path);
            before = known ? known->size : 0;
        }
        st = open_datafile(er, def, path, need, &df, &laid);
        free(path);
        if (st != FSC_OK)
            break;
        if (laid) {
            laid_files++;
            laid_bytes += df->size - before;
        }
        wfile *f = &w->files[w->n_files++];
        f->df = df;
        f->fd = -1;
        if (def->offset_pct)
            start = df->size / 100 * def->offset_pct / gran * gran + (uint64_t)w->clone * def->offset_increment;
        uint64_t len = per_file;
        if (def->size_pct)
            len = df->size / 100 * def->size_pct;
        if (!len || start + len > df->size)
            len = df->size > start ? df->size - start : 0;
        f->start = start;
        f->len = len;
        uint64_t need_bs = 0;
        for (int d = 0; d < N_RW; d++)
            if (w->does[d] && def->bs_min[d] > need_bs)
                need_bs = def->bs_min[d];
        if (len < need_bs || len < gran)
            st = fsc_er_fail(er, FSC_E_USAGE, "job '%s': %s: the region (offset %llu, %llu bytes) is smaller than bs",
                             def->name, df->path, (unsigned long long)start, (unsigned long long)len);
    }
    for (size_t i = 0; names && i < n; i++)
        free(names[i]);
    free(names);
    if (st == FSC_OK && laid_files)
        fsc_er_note(er, "%s: Laying out IO file%s (%u file%s / %s%lluMiB)", def->name, laid_files > 1 ? "s" : "",
                    laid_files, laid_files > 1 ? "s" : "", laid_files > 1 ? "total " : "",
                    (unsigned long long)(laid_bytes >> 20));
    if (st != FSC_OK)
        return st;
    /* the worker's own descriptors, checked to be the very files set up above */
    for (unsigned i = 0; i < w->n_files; i++) {
        wfile *f = &w->files[i];
        int flags = (job_writes(def) ? O_RDWR : O_RDONLY) | O_CLOEXEC | (def->direct ? O_DIRECT : 0) |
                    (def->sync_flag == 1 ? O_SYNC : def->sync_flag == 2 ? O_DSYNC : 0);
        if (f->df->created)
            flags |= O_NOFOLLOW;
        f->fd = open(f->df->path, flags);
        if (f->fd < 0 && errno == ELOOP)
            return fsc_er_fail(er, FSC_E_USAGE,
                               "job '%s': %s was replaced by another file (a symbolic link) after it was checked; "
                               "not using it",
                               def->name, f->df->path);
        if (f->fd < 0)
            return fsc_er_fail(er, FSC_E_IO, "job '%s': cannot open %s%s: %s", def->name, f->df->path,
                               def->direct ? " with O_DIRECT" : "", strerror(errno));
        struct stat s;
        if (fstat(f->fd, &s) != 0 || s.st_dev != f->df->dev || s.st_ino != f->df->ino)
            return fsc_er_fail(er, FSC_E_USAGE,
                               "job '%s': %s was replaced by another file after it was checked; not using it",
                               def->name, f->df->path);
        if (def->fadvise_hint && !f->df->is_blk)
            posix_fadvise(f->fd, (off_t)f->start, (off_t)f->len,
                          w->random ? POSIX_FADV_RANDOM : POSIX_FADV_SEQUENTIAL);
    }
    return FSC_OK;
}

void fsc_file_invalidate(const worker *w, wfile *f)
{
    if (!w->def->invalidate || f->fd < 0)
        return;
    if (f->df->is_blk) {
        /* only root may; fio warns and goes on */
        ioctl(f->fd, BLKFLSBUF, 0);
        return;
    }
    posix_fadvise(f->fd, (off_t)f->start, (off_t)f->len, POSIX_FADV_DONTNEED);
}

void fsc_files_close(worker *w)
{
    for (unsigned i = 0; i < w->n_files; i++) {
        if (w->files[i].fd >= 0)
            close(w->files[i].fd);
        fsc_rmap_free(&w->files[i].map);
    }
    free(w->files);
    w->files = NULL;
    w->n_files = 0;
}

void fsc_files_remove(engine_run *er)
{
    for (size_t i = 0; i < er->n_files; i++) {
        datafile *df = er->files[i];
        /* remove only what is still the file this run created (not a link or file put
         * in its place since) */
        struct stat st;
        if (df->created && lstat(df->path, &st) == 0 && st.st_dev == df->dev && st.st_ino == df->ino)
            unlink(df->path);
        if (df->fd >= 0)
            close(df->fd);
        free(df->path);
        free(df);
    }
    free(er->files);
    er->files = NULL;
    er->n_files = 0;
}
