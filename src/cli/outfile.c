/* SPDX-License-Identifier: MIT */
/* Atomic output files (write to NAME.tmp.XXXXXX, fsync-free rename on success). */
#define _GNU_SOURCE
#include "outfile.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct fsc_outfile {
    FILE *f;
    char *path, *tmp;
    bool error;
};

fsc_outfile *fsc_outfile_open(const char *path, fsc_buf *err)
{
    fsc_outfile *o = calloc(1, sizeof *o);
    if (!o) {
        fsc_buf_puts(err, "out of memory");
        return NULL;
    }
    if (!path || !strcmp(path, "-")) {
        o->f = stdout;
        return o;
    }
    o->path = fsc_strdup(path);
    size_t n = strlen(path) + 16;
    o->tmp = malloc(n);
    if (!o->path || !o->tmp) {
        free(o->path);
        free(o->tmp);
        free(o);
        fsc_buf_puts(err, "out of memory");
        return NULL;
    }
    snprintf(o->tmp, n, "%s.tmp.XXXXXX", path);
    int fd = mkstemp(o->tmp);
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
    return o;
}

bool fsc_outfile_write(fsc_outfile *o, const void *data, size_t n)
{
    if (o->error)
        return false;
    if (n && fwrite(data, 1, n, o->f) != n)
        o->error = true;
    return !o->error;
}

bool fsc_outfile_commit(fsc_outfile *o, bool keep, fsc_buf *err)
{
    bool ok = !o->error;
    if (o->f == stdout) {
        if (fflush(stdout) != 0)
            ok = false;
        if (!ok)
            fsc_buf_printf(err, "standard output: write error: %s", strerror(errno));
        free(o);
        return ok;
    }
    if (fclose(o->f) != 0)
        ok = false;
    if (keep && ok) {
        if (rename(o->tmp, o->path) != 0) {
            fsc_buf_printf(err, "%s: cannot rename into place: %s", o->path, strerror(errno));
            unlink(o->tmp);
            ok = false;
        }
    } else {
        if (keep)
            fsc_buf_printf(err, "%s: write error: %s", o->path, strerror(errno));
        unlink(o->tmp);
    }
    free(o->path);
    free(o->tmp);
    free(o);
    return keep ? ok : true;
}
