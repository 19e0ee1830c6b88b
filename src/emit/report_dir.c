/* SPDX-License-Identifier: MIT */
/*
 * The report folder, worked on only through descriptors: the folder is opened once,
 * `charts/` is opened without following a symlink, every file is written under a
 * unique temporary name created with O_EXCL|O_NOFOLLOW (mode 0666 minus the umask)
 * and renamed into place within the opened folder. A symlink planted in a folder
 * that carries the marker (an unpacked report, a shared folder) is never followed:
 * renaming over it replaces the link, and `charts` as a symlink is refused.
 */
#define _GNU_SOURCE
#include "report_int.h"

#include "fioscope/report.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* mkdir -p of the parents of path and of path itself (0777 minus the umask). */
static bool make_dirs(const char *path)
{
    char *p = fsc_strdup(path);
    if (!p)
        return false;
    for (char *s = p + 1; *s; s++)
        if (*s == '/') {
            *s = 0;
            if (mkdir(p, 0777) != 0 && errno != EEXIST) {
                free(p);
                return false;
            }
            *s = '/';
        }
    bool ok = mkdir(p, 0777) == 0 || errno == EEXIST;
    free(p);
    return ok;
}

/* Is the folder behind fd empty? (A copy of the descriptor is read.) */
static bool fd_is_empty(int fd)
{
    int dup_fd = dup(fd);
    DIR *d = dup_fd >= 0 ? fdopendir(dup_fd) : NULL;
    if (!d) {
        if (dup_fd >= 0)
            close(dup_fd);
        return false;
    }
    bool empty = true;
    struct dirent *e;
    while (empty && (e = readdir(d)))
        empty = !strcmp(e->d_name, ".") || !strcmp(e->d_name, "..");
    closedir(d);
    return empty;
}

static bool ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n > m && !strcmp(s + n - m, suffix);
}

/* Remove the charts of an earlier report (*.png, *.svg) so that none is left over.
 * unlinkat never follows a link: a planted charts/x.png symlink goes, its target stays. */
static void remove_old_charts(int charts_fd)
{
    int dup_fd = dup(charts_fd);
    DIR *d = dup_fd >= 0 ? fdopendir(dup_fd) : NULL;
    if (!d) {
        if (dup_fd >= 0)
            close(dup_fd);
        return;
    }
    struct dirent *e;
    while ((e = readdir(d)))
        if (e->d_name[0] != '.' && (ends_with(e->d_name, ".png") || ends_with(e->d_name, ".svg")))
            unlinkat(charts_fd, e->d_name, 0);
    closedir(d);
}

void fsc_outdir_remove(fsc_outdir *d, const char *name)
{
    unlinkat(d->fd, name, 0); /* a file that is not there is what was asked */
}

static bool write_all(int fd, const char *p, size_t n)
{
    while (n > 0) {
        ssize_t w = write(fd, p, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return false;
        p += w;
        n -= (size_t)w;
    }
    return true;
}

fsc_status fsc_outdir_open(fsc_outdir *d, const char *path, fsc_buf *err)
{
    d->fd = d->charts_fd = -1;
    d->path = path;
    struct stat st;
    if (stat(path, &st) != 0 && !make_dirs(path)) {
        fsc_buf_printf(err, "%s: cannot create directory: %s", path, strerror(errno));
        return FSC_E_IO;
    }
    d->fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (d->fd < 0) {
        int e = errno;
        fsc_buf_printf(err, "%s: %s", path, e == ENOTDIR ? "exists and is not a directory" : strerror(e));
        return e == ENOTDIR ? FSC_E_USAGE : FSC_E_IO;
    }
    /* emptiness first, then the marker: a report running at the same time creates the
     * marker before anything else, so a folder it made non-empty is marked by then */
    bool empty = fd_is_empty(d->fd);
    bool ours = fstatat(d->fd, FSC_REPORT_MARKER, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG(st.st_mode);
    if (!ours && !empty) {
        fsc_buf_printf(err,
                       "%s: directory is not empty and was not written by fioscope "
                       "(no %s inside); choose another -o DIR",
                       path, FSC_REPORT_MARKER);
        fsc_outdir_close(d);
        return FSC_E_USAGE;
    }
    /* the marker first, created in one step (a concurrent report may win: EEXIST) */
    if (!ours) {
        static const char marker[] = "This folder was written by fioscope report; it may overwrite it.\n";
        int fd = openat(d->fd, FSC_REPORT_MARKER, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
        if (fd < 0 && errno != EEXIST) {
            fsc_buf_printf(err, "%s/%s: cannot create: %s", path, FSC_REPORT_MARKER, strerror(errno));
            fsc_outdir_close(d);
            return FSC_E_IO;
        }
        bool ok = fd < 0 || write_all(fd, marker, sizeof marker - 1);
        if (fd >= 0)
            ok = close(fd) == 0 && ok;
        if (!ok) {
            fsc_buf_printf(err, "%s/%s: cannot write: %s", path, FSC_REPORT_MARKER, strerror(errno));
            fsc_outdir_close(d);
            return FSC_E_IO;
        }
    }
    if (mkdirat(d->fd, "charts", 0777) != 0 && errno != EEXIST) {
        fsc_buf_printf(err, "%s/charts: cannot create directory: %s", path, strerror(errno));
        fsc_outdir_close(d);
        return FSC_E_IO;
    }
    d->charts_fd = openat(d->fd, "charts", O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (d->charts_fd < 0) {
        int e = errno;
        fsc_buf_printf(err, "%s/charts: %s; remove it or choose another -o DIR", path,
                       e == ELOOP || e == ENOTDIR ? "is not a directory (a symbolic link?)" : strerror(e));
        fsc_outdir_close(d);
        return e == ELOOP || e == ENOTDIR ? FSC_E_USAGE : FSC_E_IO;
    }
    remove_old_charts(d->charts_fd);
    return FSC_OK;
}

void fsc_outdir_close(fsc_outdir *d)
{
    if (d->charts_fd >= 0)
        close(d->charts_fd);
    if (d->fd >= 0)
        close(d->fd);
    d->fd = d->charts_fd = -1;
}


fsc_status fsc_outdir_write(fsc_outdir *d, bool in_charts, const char *name, const void *data, size_t len,
                            fsc_buf *err)
{
    static unsigned counter;
    int dfd = in_charts ? d->charts_fd : d->fd;
    const char *sub = in_charts ? "charts/" : "";
    char tmp[512];
    int fd = -1;
    /* a name no other writer uses: this process' id and a counter; O_EXCL refuses a
     * leftover (or planted) file of that name, and we try the next */
    for (int tries = 0; fd < 0 && tries < 1000; tries++) {
        snprintf(tmp, sizeof tmp, ".%s.%ld.%u.tmp", name, (long)getpid(), counter++);
        fd = openat(dfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
        if (fd < 0 && errno != EEXIST)
            break;
    }
    if (fd < 0) {
        fsc_buf_printf(err, "%s/%s%s: cannot create: %s", d->path, sub, name, strerror(errno));
        return FSC_E_IO;
    }
    bool ok = write_all(fd, data, len);
    int e = errno;
    ok = close(fd) == 0 && ok;
    if (ok && renameat(dfd, tmp, dfd, name) != 0) {
        e = errno;
        ok = false;
    }
    if (!ok) {
        fsc_buf_printf(err, "%s/%s%s: cannot write: %s", d->path, sub, name, strerror(e ? e : errno));
        unlinkat(dfd, tmp, 0);
        return FSC_E_IO;
    }
    return FSC_OK;
}

/* ---- a private scratch folder for writers that need a path (libxlsxwriter) ---- */

char *fsc_scratch_dir(fsc_buf *err)
{
    const char *base = getenv("TMPDIR");
    fsc_buf b = {0};
    fsc_buf_printf(&b, "%s/fioscope.XXXXXX", base && *base ? base : "/tmp");
    if (b.oom) {
        fsc_buf_free(&b);
        return NULL;
    }
    if (!mkdtemp(b.data)) { /* mode 0700, a new name: nothing planted can be inside */
        fsc_buf_printf(err, "%s: cannot create a temporary folder: %s", b.data, strerror(errno));
        fsc_buf_free(&b);
        return NULL;
    }
    return b.data;
}

void fsc_scratch_remove(char *dir)
{
    if (!dir)
        return;
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd >= 0) {
        int dup_fd = dup(fd);
        DIR *d = dup_fd >= 0 ? fdopendir(dup_fd) : NULL;
        struct dirent *e;
        while (d && (e = readdir(d)))
            if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
                unlinkat(fd, e->d_name, 0);
        if (d)
            closedir(d);
        else if (dup_fd >= 0)
            close(dup_fd);
        close(fd);
    }
    rmdir(dir);
    free(dir);
}

bool fsc_read_whole(const char *path, fsc_buf *out)
{
    int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0)
        return false;
    char chunk[65536];
    ssize_t n;
    while ((n = read(fd, chunk, sizeof chunk)) > 0)
        fsc_buf_add(out, chunk, (size_t)n);
    close(fd);
    return n == 0 && !out->oom;
}
