/* SPDX-License-Identifier: MIT */
/* Atomic output files (write to NAME.tmp.XXXXXX, fsync-free rename on success); a
 * path that is not a regular file (/dev/null, a FIFO, a symlink) is written in place. */
#define _GNU_SOURCE
#include "outfile.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

/* Blocks given (fsc_outfile_give) wait for a gathered write until this many are
 * queued or they hold this many bytes. */
#define GIVEN_MAX 64
#define GIVEN_BYTES ((size_t)1 << 18)

struct fsc_outfile {
    FILE *f;
    char *path, *tmp;
    char *block; /* the stream's buffer (not stdout's), freed after fclose */
    bool error, in_place;
    bool direct; /* given blocks go out with writev (not to a terminal) */
    int write_errno; /* why the first failed write failed */
    struct iovec given[GIVEN_MAX];
    char *given_block[GIVEN_MAX];
    size_t n_given, given_bytes;
};

static void write_failed(fsc_outfile *o, int why)
{
    if (!o->error) {
        o->error = true;
        o->write_errno = why;
    }
}

/* Write the given blocks (after what the stream holds) and free them. */
static void flush_given(fsc_outfile *o)
{
    if (!o->n_given)
        return;
    if (!o->error && fflush(o->f) != 0)
        write_failed(o, errno);
    int fd = fileno(o->f);
    struct iovec *v = o->given;
    size_t n = o->n_given;
    while (!o->error && n) {
        ssize_t w = writev(fd, v, (int)n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            write_failed(o, w < 0 ? errno : EIO);
            break;
        }
        size_t done = (size_t)w; /* a short write: go on from where it stopped */
        for (; n && done >= v->iov_len; v++, n--)
            done -= v->iov_len;
        if (n) {
            v->iov_base = (char *)v->iov_base + done;
            v->iov_len -= done;
        }
    }
    /* in the order given: freed last-first, the blocks the next runs are rendered
     * into came from colder memory (under callgrind's cache model, 30 MB of fio
     * 3.33 text: 46k more last-level write misses, in jsonl_render's copy) */
    for (size_t i = 0; i < o->n_given; i++)
        free(o->given_block[i]);
    o->n_given = o->given_bytes = 0;
}

/* Output goes out in large blocks (a run of JSON is a few KiB: one write() each
 * would cost more than writing it), except to a terminal, which sees each line.
 * The buffer is given: glibc's setvbuf ignores the size when the buffer is NULL and
 * takes st_blksize (4 KiB on a pipe, /dev/null or most files). stdout's lives as
 * long as stdout (exit flushes it), and is set once: a second outfile on stdout
 * (tests run several commands in one process) finds it in place. */
#define OUT_BLOCK ((size_t)1 << 18)

static void big_buffer(fsc_outfile *o)
{
    static char stdout_block[OUT_BLOCK];
    static bool stdout_done;
    if (isatty(fileno(o->f)))
        return;
    o->direct = true;
    if (o->f == stdout) {
        if (!stdout_done)
            setvbuf(stdout, stdout_block, _IOFBF, OUT_BLOCK);
        stdout_done = true;
        return;
    }
    if ((o->block = malloc(OUT_BLOCK)) != NULL)
        setvbuf(o->f, o->block, _IOFBF, OUT_BLOCK);
}

static fsc_outfile *opened(fsc_outfile *o)
{
    big_buffer(o);
    return o;
}

fsc_outfile *fsc_outfile_open(const char *path, fsc_buf *err)
{
    fsc_outfile *o = calloc(1, sizeof *o);
    if (!o) {
        fsc_buf_puts(err, "out of memory");
        return NULL;
    }
    if (!path || !strcmp(path, "-")) {
        o->f = stdout;
        return opened(o);
    }
    /* renaming over /dev/null or a FIFO would replace it by a regular file: such paths
     * are opened and written in place. A symlink to a regular file keeps the link: the
     * file it names is replaced atomically (temporary file next to it, rename). */
    struct stat sb;
    char *resolved = NULL;
    if (lstat(path, &sb) == 0 && S_ISLNK(sb.st_mode) && stat(path, &sb) == 0 && S_ISREG(sb.st_mode) &&
        (resolved = realpath(path, NULL)) != NULL)
        path = resolved;
    if (lstat(path, &sb) == 0 && !S_ISREG(sb.st_mode)) {
        o->path = fsc_strdup(path);
        free(resolved);
        if (!o->path || !(o->f = fopen(o->path, "w"))) {
            fsc_buf_printf(err, "%s: cannot open: %s", o->path ? o->path : "output", o->path ? strerror(errno) : "out of memory");
            free(o->path);
            free(o);
            return NULL;
        }
        o->in_place = true;
        return opened(o);
    }
    o->path = fsc_strdup(path);
    free(resolved);
    path = o->path;
    size_t n = (path ? strlen(path) : 0) + 16;
    o->tmp = path ? malloc(n) : NULL;
    if (!o->path || !o->tmp) {
        free(o->path);
        free(o->tmp);
        free(o);
        fsc_buf_puts(err, "out of memory");
        return NULL;
    }
    snprintf(o->tmp, n, "%s.tmp.XXXXXX", path);
    int fd = mkstemp(o->tmp);
    /* mkstemp makes 0600: give the file the mode a plain open() would (or keep the
     * mode of the file it replaces) */
    mode_t mask = umask(0);
    umask(mask);
    bool exists = lstat(path, &sb) == 0;
    if (fd >= 0 && fchmod(fd, exists ? sb.st_mode & 07777 : 0666 & ~mask) != 0) {
        close(fd);
        unlink(o->tmp);
        fd = -1;
    }
    if (fd < 0 || !(o->f = fdopen(fd, "w"))) {
        fsc_buf_printf(err, "%s: cannot create: %s", path, strerror(errno));
        if (fd >= 0) {
            close(fd);
            unlink(o->tmp);
        }
        free(o->path);
        free(o->tmp);
        free(o);
        return NULL;
    }
    return opened(o);
}

bool fsc_outfile_write(fsc_outfile *o, const void *data, size_t n)
{
    flush_given(o);
    if (o->error)
        return false;
    if (n && fwrite(data, 1, n, o->f) != n)
        write_failed(o, errno);
    return !o->error;
}

bool fsc_outfile_give(fsc_outfile *o, char *block, size_t off, size_t n)
{
    if (!o->direct || o->error) { /* a terminal sees each line as it comes */
        bool ok = fsc_outfile_write(o, block + off, n);
        free(block);
        return ok;
    }
    o->given[o->n_given] = (struct iovec){block + off, n};
    o->given_block[o->n_given++] = block;
    o->given_bytes += n;
    if (o->n_given == GIVEN_MAX || o->given_bytes >= GIVEN_BYTES)
        flush_given(o);
    return !o->error;
}

bool fsc_outfile_commit(fsc_outfile *o, bool keep, fsc_buf *err)
{
    flush_given(o);
    bool ok = !o->error;
    if (o->f == stdout) {
        if (fflush(stdout) != 0)
            ok = false;
        if (!ok)
            fsc_buf_printf(err, "standard output: write error: %s",
                           strerror(o->error ? o->write_errno : errno));
        free(o);
        return ok;
    }
    if (fclose(o->f) != 0)
        ok = false;
    free(o->block);
    if (o->error) /* the caller gave up because of it: say why, naming the file */
        fsc_buf_printf(err, "%s: write error: %s", o->path, strerror(o->write_errno));
    if (o->in_place) {
        if (keep && !ok && !o->error)
            fsc_buf_printf(err, "%s: write error: %s", o->path, strerror(errno));
        free(o->path);
        free(o);
        return keep ? ok : true;
    }
    if (keep && ok) {
        if (rename(o->tmp, o->path) != 0) {
            fsc_buf_printf(err, "%s: cannot rename into place: %s", o->path, strerror(errno));
            unlink(o->tmp);
            ok = false;
        }
    } else {
        if (keep && !o->error)
            fsc_buf_printf(err, "%s: write error: %s", o->path, strerror(errno));
        unlink(o->tmp);
    }
    free(o->path);
    free(o->tmp);
    free(o);
    return keep ? ok : true;
}
