/* SPDX-License-Identifier: MIT */
/*
 * The walker: files, directories (recursive, sorted, symlink loops detected by the
 * (st_dev, st_ino) of the directories being read) and "-", each sniffed by its magic
 * bytes and queued as text or opened as an archive.
 */
#define _GNU_SOURCE
#include "input_int.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Bytes read before deciding text or archive: a tar header's "ustar" sits at 257. */
#define SNIFF_BYTES 512

/* Queue job (NULL: out of memory); after a stop, only free it. */
static void submit(fsc_walker *w, fsc_item *job)
{
    if (w->stop)
        fsc_item_free(job);
    else if (!fsc_pipe_submit(w->pipe, job))
        w->stop = true;
}

void fsc_walker_fixed(fsc_walker *w, const char *path, const char *member, fsc_input_status st,
                      const char *fmt, ...)
{
    fsc_item *job = fsc_item_new(path, member);
    if (job) {
        va_list ap;
        va_start(ap, fmt);
        if (vasprintf(&job->error, fmt, ap) < 0)
            job->error = NULL;
        va_end(ap);
        job->fixed = true;
        job->status = st;
    }
    submit(w, job);
}

bool fsc_is_archive_magic(const unsigned char *s, size_t n)
{
    static const struct {
        size_t off, len;
        const char *magic;
    } tab[] = {
        {0, 2, "\x1f\x8b"},                  /* gzip */
        {0, 2, "\x1f\x9d"},                  /* compress (.Z) */
        {0, 6, "\xfd" "7zXZ\0"},             /* xz */
        {0, 4, "\x28\xb5\x2f\xfd"},          /* zstd */
        {0, 4, "\x04\x22\x4d\x18"},          /* lz4 */
        {0, 4, "PK\x03\x04"},                /* zip */
        {0, 4, "PK\x05\x06"},                /* empty zip */
        {0, 6, "7z\xbc\xaf\x27\x1c"},        /* 7-Zip */
        {0, 6, "Rar!\x1a\x07"},              /* rar */
        {257, 5, "ustar"},                   /* POSIX / GNU tar */
    };
    for (size_t i = 0; i < FSC_ARRAY_SIZE(tab); i++)
        if (n >= tab[i].off + tab[i].len && !memcmp(s + tab[i].off, tab[i].magic, tab[i].len))
            return true;
    /* bzip2: "BZh" and a block size digit */
    return n >= 4 && !memcmp(s, "BZh", 3) && s[3] >= '1' && s[3] <= '9';
}

void fsc_walker_doc(fsc_walker *w, const char *path, const char *member, char *data, size_t len,
                    int depth)
{
    if (fsc_is_archive_magic((const unsigned char *)data, len) ||
        (fsc_looks_binary(data, len) && fsc_archive_sniff(data, len))) {
        fsc_archive_read_mem(w, path, member, data, len, depth + 1);
        free(data);
        return;
    }
    fsc_item *job = fsc_item_new(path, member);
    if (!job) {
        free(data);
        submit(w, NULL);
        return;
    }
    job->data = data;
    job->len = len;
    submit(w, job);
}

/* read() until n bytes or end of file. Returns bytes read, or -1 (errno set). */
static ssize_t read_full(int fd, char *buf, size_t n)
{
    size_t got = 0;
    while (got < n) {
        ssize_t r = read(fd, buf + got, n - got);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0)
            return -1;
        if (r == 0)
            break;
        got += (size_t)r;
    }
    return (ssize_t)got;
}

/* The rest of fd after the n bytes already in *buf (capacity *cap). size_hint is
 * the file size when known. Returns false with errno set on a read error or ENOMEM. */
static bool read_rest(int fd, char **buf, size_t *n, size_t *cap, size_t size_hint)
{
    size_t want = size_hint + 1; /* one byte more than the size, to see the end */
    for (;;) {
        if (*n == *cap || want > *cap) {
            size_t ncap = want > *cap ? want : *cap * 2;
            char *nb = realloc(*buf, ncap + 1);
            if (!nb) {
                errno = ENOMEM;
                return false;
            }
            *buf = nb;
            *cap = ncap;
        }
        ssize_t r = read_full(fd, *buf + *n, *cap - *n);
        if (r < 0)
            return false;
        *n += (size_t)r;
        if (*n < *cap)
            return true; /* short read: end of file */
    }
}

static void read_fd(fsc_walker *w, const char *path, int fd)
{
    struct stat sb;
    size_t hint = fstat(fd, &sb) == 0 && S_ISREG(sb.st_mode) ? (size_t)sb.st_size : 0;
    size_t cap = SNIFF_BYTES, n = 0;
    char *buf = malloc(cap + 1);
    if (!buf) {
        submit(w, NULL);
        return;
    }
    ssize_t r = read_full(fd, buf, SNIFF_BYTES);
    if (r < 0) {
        fsc_walker_fixed(w, path, NULL, FSC_IN_ERROR, "cannot read: %s", strerror(errno));
        free(buf);
        return;
    }
    n = (size_t)r;
    w->top_raw = w->top_expanded = 0;
    if (fsc_is_archive_magic((const unsigned char *)buf, n)) {
        fsc_archive_read_fd(w, path, fd, buf, n);
        free(buf);
        return;
    }
    if (n == SNIFF_BYTES && !read_rest(fd, &buf, &n, &cap, hint)) {
        fsc_walker_fixed(w, path, NULL, FSC_IN_ERROR, "cannot read: %s", strerror(errno));
        free(buf);
        return;
    }
    w->progress->raw_done += n;
    buf[n] = '\0';
    fsc_walker_doc(w, path, NULL, buf, n, 0);
}

static void read_path(fsc_walker *w, const char *path)
{
    if (!strcmp(path, "-")) {
        read_fd(w, path, STDIN_FILENO);
        return;
    }
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
    if (fd < 0) {
        fsc_walker_fixed(w, path, NULL, FSC_IN_ERROR, "cannot open: %s", strerror(errno));
        return;
    }
    read_fd(w, path, fd);
    close(fd);
}

static const char *file_kind(mode_t m)
{
    return S_ISFIFO(m) ? "a FIFO" : S_ISSOCK(m) ? "a socket" : S_ISCHR(m) ? "a character device"
           : S_ISBLK(m) ? "a block device" : "not a regular file";
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The sorted full names of a directory's entries, or NULL (errno set). */
static char **list_dir(const char *path, size_t *n_out)
{
    DIR *d = opendir(path);
    if (!d)
        return NULL;
    char **names = NULL;
    size_t n = 0, cap = 0;
    bool slash = path[0] && path[strlen(path) - 1] == '/';
    struct dirent *de;
    while ((de = readdir(d))) {
        if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
            continue;
        char *full = NULL;
        char **slot = FSC_PUSH(names, n, cap);
        if (!slot || asprintf(&full, "%s%s%s", path, slash ? "" : "/", de->d_name) < 0) {
            if (slot)
                n--;
            for (size_t i = 0; i < n; i++)
                free(names[i]);
            free(names);
            closedir(d);
            errno = ENOMEM;
            return NULL;
        }
        *slot = full;
    }
    closedir(d);
    if (n)
        qsort(names, n, sizeof *names, cmp_str);
    *n_out = n;
    return names ? names : calloc(1, sizeof *names);
}

static void walk_entry(fsc_walker *w, const char *path, bool top);

static void walk_dir(fsc_walker *w, const char *path, const struct stat *sb)
{
    for (size_t i = 0; i < w->n_dirs; i++)
        if (w->dirs[i].dev == sb->st_dev && w->dirs[i].ino == sb->st_ino) {
            fsc_walker_fixed(w, path, NULL, FSC_IN_ERROR,
                             "symlink loop: this directory is %s, already being read",
                             w->dirs[i].path);
            return;
        }
    size_t n = 0;
    char **names = list_dir(path, &n);
    if (!names) {
        fsc_walker_fixed(w, path, NULL, FSC_IN_ERROR, "cannot read directory: %s", strerror(errno));
        return;
    }
    struct fsc_dir_id *id = FSC_PUSH(w->dirs, w->n_dirs, w->cap_dirs);
    if (!id) {
        submit(w, NULL);
    } else {
        *id = (struct fsc_dir_id){sb->st_dev, sb->st_ino, path};
        for (size_t i = 0; i < n && !w->stop; i++)
            walk_entry(w, names[i], false);
        w->n_dirs--;
    }
    for (size_t i = 0; i < n; i++)
        free(names[i]);
    free(names);
}

/* A path given on the command line (top) or found in a directory. Inside a
 * directory only regular files are opened: a FIFO would block forever. */
static void walk_entry(fsc_walker *w, const char *path, bool top)
{
    struct stat sb;
    if (w->stop)
        return;
    if (top && !strcmp(path, "-")) {
        read_path(w, path);
        return;
    }
    if (stat(path, &sb) != 0) {
        struct stat lsb;
        bool dangling = errno == ENOENT && lstat(path, &lsb) == 0 && S_ISLNK(lsb.st_mode);
        fsc_walker_fixed(w, path, NULL, FSC_IN_ERROR, "cannot open: %s",
                         dangling ? "dangling symbolic link" : strerror(errno));
        return;
    }
    if (S_ISDIR(sb.st_mode))
        walk_dir(w, path, &sb);
    else if (S_ISREG(sb.st_mode) || top)
        read_path(w, path);
    else
        fsc_walker_fixed(w, path, NULL, FSC_IN_ERROR, "not read: %s", file_kind(sb.st_mode));
}

/* Sum of the sizes of the paths when all are regular files (0: unknown). */
static uint64_t known_total(const char *const *paths, size_t n)
{
    uint64_t total = 0;
    for (size_t i = 0; i < n; i++) {
        struct stat sb;
        if (!strcmp(paths[i], "-") || stat(paths[i], &sb) != 0 || !S_ISREG(sb.st_mode))
            return 0;
        total += (uint64_t)sb.st_size;
    }
    return total;
}

static unsigned default_jobs(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1 : n > 64 ? 64 : (unsigned)n;
}

fsc_status fsc_inputs_read(const char *const *paths, size_t n_paths, const fsc_parser *parser,
                           const fsc_input_opts *opts, const fsc_input_sink *sink)
{
    static const fsc_input_opts defaults = {0};
    if (!opts)
        opts = &defaults;
    fsc_progress progress;
    fsc_progress_init(&progress, opts->progress, 0);
    if (progress.on)
        progress.raw_total = known_total(paths, n_paths);
    fsc_walker w = {
        .progress = &progress,
        .max_member = opts->max_member_bytes ? opts->max_member_bytes : FSC_DEFAULT_MAX_MEMBER,
        .max_ratio = opts->max_ratio ? opts->max_ratio : FSC_DEFAULT_MAX_RATIO,
    };
    w.pipe = fsc_pipe_new(parser, sink, opts->jobs ? opts->jobs : default_jobs(), &progress);
    if (!w.pipe)
        return FSC_E_NOMEM;
    for (size_t i = 0; i < n_paths && !w.stop; i++)
        walk_entry(&w, paths[i], true);
    fsc_status st = fsc_pipe_finish(w.pipe);
    fsc_progress_end(&progress);
    free(w.dirs);
    return st;
}
