/* SPDX-License-Identifier: MIT */
/*
 * The walker: files, directories (recursive, sorted, symlink loops detected by the
 * (st_dev, st_ino) of the directories being read) and "-", each sniffed by its magic
 * bytes and queued as text or opened as an archive.
 */
#define _GNU_SOURCE
#include "input_int.h"

#include "fioscope/hugemem.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

void fsc_heap_text_seen(size_t len)
{
    static _Thread_local size_t seen;
    seen += len;
    if (seen >= FSC_HUGE_HEAP_TEXT) {
        seen = 0;
        fsc_hugemem_advise_heap();
    }
}

void fsc_walker_submit(fsc_walker *w, fsc_item *job)
{
    if (job) {
        fsc_heap_text_seen(job->len); /* what the heap grew by for the text */
        job->max_memory = w->max_memory;
        if (!job->group_end)
            job->group = w->cur_group;
        job->arg = w->arg;
    }
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
    fsc_walker_submit(w, job);
}

/* Magic bytes of archives and compressed streams: the ones read (name NULL) and
 * others that get a clear "not read" instead of "binary data". */
static const struct archive_magic {
    size_t off, len;
    const char *magic;
    const char *unread; /* NULL: read with libarchive */
} magics[] = {
    {0, 2, "\x1f\x8b", NULL},                 /* gzip */
    {0, 6, "\xfd" "7zXZ\0", NULL},            /* xz */
    {0, 4, "\x28\xb5\x2f\xfd", NULL},         /* zstd */
    {0, 4, "PK\x03\x04", NULL},               /* zip */
    {0, 4, "PK\x05\x06", NULL},               /* empty zip */
    {257, 5, "ustar", NULL},                  /* POSIX / GNU tar */
    {0, 2, "\x1f\x9d", "compress (.Z) data"},
    {0, 4, "\x04\x22\x4d\x18", "LZ4 data"},
    {0, 6, "7z\xbc\xaf\x27\x1c", "7-Zip archive"},
    {0, 6, "Rar!\x1a\x07", "RAR archive"},
    {0, 2, "\xc7\x71", "cpio archive"},        /* binary cpio; the ASCII ones could be text */
    {0, 4, "xar!", "xar archive"},
    {0, 4, "\x5d\x00\x00\x80", "LZMA data"},
    {0, 4, "LZIP", "lzip data"},
    {0, 4, "\x89LZO", "lzop data"},
    {0, 4, "LRZI", "lrzip data"},
};

static const struct archive_magic *find_magic(const unsigned char *s, size_t n)
{
    static const struct archive_magic bzip2 = {0, 3, "BZh", NULL};
    for (size_t i = 0; i < FSC_ARRAY_SIZE(magics); i++)
        if (n >= magics[i].off + magics[i].len && !memcmp(s + magics[i].off, magics[i].magic, magics[i].len))
            return &magics[i];
    /* bzip2: "BZh" and a block size digit */
    return n >= 4 && !memcmp(s, "BZh", 3) && s[3] >= '1' && s[3] <= '9' ? &bzip2 : NULL;
}

unsigned fsc_walker_group_begin(fsc_walker *w)
{
    unsigned prev = w->cur_group;
    w->cur_group = ++w->next_group ? w->next_group : ++w->next_group;
    return prev;
}

void fsc_walker_group_end(fsc_walker *w, unsigned prev)
{
    if (w->cur_group) {
        fsc_item *mark = fsc_item_new("", NULL);
        if (mark) {
            mark->group_end = true;
            mark->group = w->cur_group;
            mark->fixed = true;
        }
        fsc_walker_submit(w, mark);
    }
    w->cur_group = prev;
}

bool fsc_is_archive_magic(const unsigned char *s, size_t n)
{
    const struct archive_magic *m = find_magic(s, n);
    return m && !m->unread;
}

const char *fsc_unread_archive(const unsigned char *s, size_t n)
{
    const struct archive_magic *m = find_magic(s, n);
    return m ? m->unread : NULL;
}

#define UNREAD_FORMATS "fioscope reads tar, zip, gzip, xz, zstd and bzip2"

/* The entry of a document of n bytes, all NULs. */
static void only_nuls_entry(fsc_walker *w, const char *path, const char *member, uint64_t n)
{
    fsc_walker_fixed(w, path, member, FSC_IN_NO_RUNS, "only NUL bytes (%llu): nothing was written in it",
                     (unsigned long long)n);
}

/* Is name a tar's (".tar"): an empty one is nothing but zero blocks. */
static bool tar_named(const char *name)
{
    size_t n = strlen(name);
    return n >= 4 && strcasecmp(name + n - 4, ".tar") == 0;
}

void fsc_walker_doc(fsc_walker *w, const char *path, const char *member, char *data, size_t len,
                    int depth)
{
    const char *unread = fsc_unread_archive((const unsigned char *)data, len);
    if (unread) {
        fsc_walker_fixed(w, path, member, FSC_IN_ERROR, "%s: not read (" UNREAD_FORMATS ")", unread);
        free(data);
        return;
    }
    bool magic = fsc_is_archive_magic((const unsigned char *)data, len);
    bool binary = !magic && fsc_looks_binary(data, len);
    if (binary && fsc_only_nuls(data, len) && !tar_named(member ? member : path)) {
        /* libarchive reads zero blocks as an empty tar, but a log of nothing but NULs
         * is a file whose blocks a crash left unwritten */
        only_nuls_entry(w, path, member, len);
        free(data);
        return;
    }
    if (magic || (binary && fsc_archive_sniff(data, len))) {
        fsc_archive_read_mem(w, path, member, data, len, depth + 1);
        free(data);
        return;
    }
    /* a text that is no archive's member is input as it is: its attachments expand
     * from its bytes (--max-ratio's whole input), not from nothing */
    if (!member && depth == 0)
        w->top_raw += len;
    /* a mail's attached archives: members of it, after its own text */
    fsc_mail_archive *att = NULL;
    size_t n_att = !binary && depth < FSC_MAX_ARCHIVE_DEPTH ? fsc_mail_archives(data, len, &att) : 0;
    fsc_item *job = fsc_item_new(path, member);
    if (!job) {
        free(data);
        fsc_walker_submit(w, NULL);
    } else {
        job->data = data;
        job->len = len;
        job->judged_text = !binary;
        fsc_item_mark_log(job);
        fsc_walker_submit(w, job);
    }
    for (size_t i = 0; i < n_att; i++) {
        char *name = job ? fsc_join_member(member, att[i].name) : NULL;
        if (!name) {
            free(att[i].data);
            continue;
        }
        fsc_walker_doc(w, path, name, att[i].data, att[i].len, depth + 1);
        free(name);
    }
    free(att);
}

ssize_t fsc_read_full(int fd, char *buf, size_t n, int64_t at)
{
    size_t got = 0;
    while (got < n) {
        ssize_t r = at < 0 ? read(fd, buf + got, n - got)
                           : pread(fd, buf + got, n - got, (off_t)at + (off_t)got);
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
            fsc_hugemem_advise_block(nb + *n, ncap - *n); /* before read() writes it */
            *buf = nb;
            *cap = ncap;
        }
        ssize_t r = fsc_read_full(fd, *buf + *n, *cap - *n, -1);
        if (r < 0)
            return false;
        *n += (size_t)r;
        if (*n < *cap)
            return true; /* short read: end of file */
    }
}

/* Read fd on after the n bytes in *buf (capacity *cap) until end of file or until
 * more than max bytes are there (a stream may not end). Returns 0 at end of file, 1
 * when there is more, -1 on a read error or ENOMEM (errno set). */
static int read_upto(int fd, char **buf, size_t *n, size_t *cap, size_t max)
{
    while (*n <= max) {
        if (*n == *cap) {
            size_t ncap = *cap * 2 < max + 1 ? *cap * 2 : max + 1;
            char *nb = realloc(*buf, ncap + 1);
            if (!nb) {
                errno = ENOMEM;
                return -1;
            }
            fsc_hugemem_advise_block(nb + *n, ncap - *n);
            *buf = nb;
            *cap = ncap;
        }
        ssize_t r = fsc_read_full(fd, *buf + *n, *cap - *n, -1);
        if (r < 0)
            return -1;
        *n += (size_t)r;
        if (*n < *cap)
            return 0;
    }
    return 1;
}

/* The reason for a stream (a pipe, stdin, a device) that went on past the limit. */
void fsc_stream_limit_reason(char *out, size_t len, uint64_t limit)
{
    snprintf(out, len,
             "size limit: more than %llu bytes from a pipe or device (--max-member-size); "
             "the rest was not read",
             (unsigned long long)limit);
}

size_t fsc_walker_piece_min(const fsc_walker *w, const char *data, size_t len)
{
    return w->json_piece_min < w->piece_min && fsc_text_holds_json(data, len) ? w->json_piece_min : w->piece_min;
}

/* A pipe, stdin or a device (n bytes sniffed into buf, ownership passes; more: it did
 * not end within them): read as it
 * comes, under the cap of an archive member (--max-member-size), so that /dev/zero or
 * an endless pipe cannot take all memory. Text longer than a file read whole is read
 * and parsed in pieces (flat memory), like a huge plain file. */
static void read_stream(fsc_walker *w, const char *path, int fd, char *buf, size_t n, size_t cap, bool more)
{
    bool text = more && fsc_text_in_pieces(buf, n);
    uint64_t limit = w->max_member;
    size_t min = text ? fsc_walker_piece_min(w, buf, n) : w->piece_min;
    size_t whole = text && min < limit ? min : (size_t)limit;
    int r = more ? read_upto(fd, &buf, &n, &cap, whole) : 0;
    if (r < 0) {
        fsc_walker_fixed(w, path, NULL, FSC_IN_ERROR, "cannot read: %s", strerror(errno));
        free(buf);
        return;
    }
    if (r > 0 && text) {
        fsc_pieces_read_stream(w, path, fd, buf, n, limit);
        return;
    }
    if (r > 0) {
        char reason[256];
        fsc_stream_limit_reason(reason, sizeof reason, limit);
        fsc_walker_fixed(w, path, NULL, FSC_IN_ERROR, "%s", reason);
        free(buf);
        return;
    }
    buf[n] = '\0';
    if (fsc_pieces_plain(w, path, buf, n))
        return;
    w->progress->raw_done += n;
    fsc_walker_doc(w, path, NULL, buf, n, 0);
}

bool fsc_binary_decided(const char *s, size_t n)
{
    const unsigned char *u = (const unsigned char *)s;
    return fsc_looks_binary(s, n) && !fsc_only_nuls(s, n) && !fsc_unread_archive(u, n) && !fsc_is_archive_magic(u, n) &&
           fsc_unicode_unmarked(s, n) == FSC_ENC_UTF8 && !fsc_text_despite_nuls(s, n) && !fsc_archive_sniff(s, n);
}

/* The first bytes of a regular file judged as the whole file would be: what
 * fsc_looks_binary, fsc_unicode_unmarked and fsc_text_despite_nuls look at (64 KiB), and
 * more for fsc_archive_sniff, whose readers need no more than a first header. */
#define BINARY_LOOK ((size_t)1 << 20)

/* Does the file of `size` bytes end with a zip's directory (its end record, "PK\5\6",
 * in the last 64 KiB and 22 bytes: a comment may follow it)? A self-extracting zip
 * begins with a program, and libarchive finds it from its end. */
static bool zip_at_end(int fd, uint64_t size)
{
    size_t tail = size < 65536 + 22 ? (size_t)size : 65536 + 22;
    char *b = malloc(tail);
    ssize_t r = b ? fsc_read_full(fd, b, tail, (int64_t)(size - tail)) : -1;
    bool found = r >= 4 && memmem(b, (size_t)r, "PK\5\6", 4) != NULL;
    free(b);
    return found || r < 0;
}

/* A regular file longer than a file read whole, whose first bytes look binary (a
 * fio job's data file next to its logs, a core dump): answered as the whole file
 * would be, "binary data" or "only NUL bytes", without reading it into memory (a
 * 10 GB data file took 10 GB). Only where those first bytes decide it; true when an
 * entry was submitted, false: read it as before (an archive without magic or a
 * self-extracting zip, UTF-32, text despite its NULs, a fio log's name, zeros followed
 * by other bytes). */
static bool big_binary(fsc_walker *w, const char *path, int fd, uint64_t size)
{
    fsc_logname ln;
    if (fsc_log_name_parse(path, &ln) || zip_at_end(fd, size))
        return false;
    char *b = malloc(BINARY_LOOK);
    ssize_t r = b ? fsc_read_full(fd, b, BINARY_LOOK, 0) : -1;
    bool done = false;
    if (r == (ssize_t)BINARY_LOOK && fsc_only_nuls(b, (size_t)r)) {
        /* zeros: the rest must be read to tell, a piece at a time */
        uint64_t at = (uint64_t)r;
        while ((r = fsc_read_full(fd, b, BINARY_LOOK, (int64_t)at)) > 0 && fsc_only_nuls(b, (size_t)r))
            at += (uint64_t)r;
        if (r == 0 && !tar_named(path)) {
            only_nuls_entry(w, path, NULL, at);
            w->progress->raw_done += at;
            done = true;
        }
    } else if (r == (ssize_t)BINARY_LOOK && fsc_binary_decided(b, (size_t)r)) {
        fsc_walker_fixed(w, path, NULL, FSC_IN_ERROR, "%s", FSC_BINARY_DATA);
        done = true;
    }
    free(b);
    return done;
}

/* fsc_mail_archives_file's fn: an attachment of a mail read in pieces is a member of
 * it, read as fsc_walker_doc reads a whole mail's. */
typedef struct attached {
    fsc_walker *w;
    const char *path;
} attached;

static bool attached_member(void *ctx, fsc_mail_archive *a)
{
    attached *at = ctx;
    fsc_walker_doc(at->w, at->path, a->name, a->data, a->len, 1);
    return !at->w->stop;
}

/* A text in pieces (fsc_pieces_read_file, buf[0, n) its first bytes, size its size);
 * a mail or mailbox among them is then read again for its attachments, members after
 * its text as when it is read whole. */
static void text_in_pieces(fsc_walker *w, const char *path, int fd, char *buf, size_t n, uint64_t size)
{
    bool mail = fsc_mail_start(buf, n);
    fsc_pieces_read_file(w, path, fd, buf, n, size);
    if (!mail || w->stop)
        return;
    w->top_raw += size; /* its attachments expand from its bytes (--max-ratio) */
    attached at = {w, path};
    bool oom;
    if (!fsc_mail_archives_file(fd, size, attached_member, &at, &oom))
        fsc_walker_fixed(w, path, "attachments", FSC_IN_ERROR, "cannot read the mail's attachments: %s",
                         strerror(errno));
    else if (oom)
        fsc_walker_submit(w, NULL);
}

static void read_fd(fsc_walker *w, const char *path, int fd)
{
    struct stat sb;
    bool regular = fstat(fd, &sb) == 0 && S_ISREG(sb.st_mode);
    size_t hint = regular ? (size_t)sb.st_size : 0;
    /* a fio log has no runs to keep together: above two pieces it is read in pieces
     * (parsed in parallel, memory flat) */
    fsc_logname ln;
    bool log_name = fsc_log_name_parse(path, &ln);
    size_t min = log_name && !ln.stored_compressed ? 2 * w->piece_step : w->piece_min;
    /* up to whole_max bytes a regular file is read whole: no way in pieces below
     * takes it (they want more than min or plain_min). It gets a buffer of its size at
     * once: grown from the sniff's size by doubling, a folder of 70 KB files spent 5%
     * of its instructions in realloc (callgrind; its CPU time fell 6-9% without it).
     * read_upto then reads past LOOK_BYTES, up to its end, which its callers allow
     * ("more than max bytes": 1; the end: 0) */
    size_t whole_max = w->plain_min < min ? w->plain_min : min;
    if (!log_name && w->json_piece_min < whole_max)
        whole_max = w->json_piece_min;
    size_t cap = hint > SNIFF_BYTES && hint <= whole_max ? hint + 1 : SNIFF_BYTES, n = 0;
    char *buf = malloc(cap + 1);
    if (!buf) {
        fsc_walker_submit(w, NULL);
        return;
    }
    ssize_t r = fsc_read_full(fd, buf, SNIFF_BYTES, -1);
    if (r < 0) {
        fsc_walker_fixed(w, path, NULL, FSC_IN_ERROR, "cannot read: %s", strerror(errno));
        free(buf);
        return;
    }
    n = (size_t)r;
    w->top_raw = w->top_expanded = 0;
    const char *unread = fsc_unread_archive((const unsigned char *)buf, n);
    if (unread) { /* said before the rest is read */
        fsc_walker_fixed(w, path, NULL, FSC_IN_ERROR, "%s: not read (" UNREAD_FORMATS ")", unread);
        free(buf);
        return;
    }
    if (fsc_is_archive_magic((const unsigned char *)buf, n)) {
        fsc_archive_read_fd(w, path, fd, buf, n);
        free(buf);
        return;
    }
    /* text is told from binary data on LOOK_BYTES, as in an archive member or a file
     * read whole; a regular file of at most whole_max bytes is read to its end here or
     * by read_rest below, into its buffer of its size (a folder of small files queues
     * many), then judged whole */
    bool more = n == SNIFF_BYTES;
    if (more && (!regular || hint > LOOK_BYTES)) {
        int further = read_upto(fd, &buf, &n, &cap, LOOK_BYTES - 1);
        if (further < 0) {
            fsc_walker_fixed(w, path, NULL, FSC_IN_ERROR, "cannot read: %s", strerror(errno));
            free(buf);
            return;
        }
        more = further > 0; /* it did not end within them */
    }
    if (!regular) {
        read_stream(w, path, fd, buf, n, cap, more);
        return;
    }
    /* asked below only of a file that may go in pieces, not read to its end */
    bool binary = more && hint > whole_max && fsc_looks_binary(buf, n);
    if (more && hint > min && fsc_text_in_pieces(buf, n)) {
        text_in_pieces(w, path, fd, buf, n, hint);
        return;
    }
    fsc_text_kind kind = FSC_TEXT_MIXED;
    if (more && !binary && fsc_pieces_plain_file(w, path, fd, hint, &kind)) {
        free(buf);
        return;
    }
    /* fio's text with headings, commands or notes among it (lines of text):
     * in pieces from the same size as plain text, each piece's headings handed
     * on from the pieces above it. Whole, it would be normalized whole (a copy, and
     * about 1.8x the CPU of its pieces, which are mostly plain) and take three times
     * its size. */
    if (kind == FSC_TEXT_SIMPLE) { /* no NUL, no control byte but tab, CR and a
                                    * terminal's: text by fsc_text_in_pieces' rules */
        text_in_pieces(w, path, fd, buf, n, hint);
        return;
    }
    /* not plain fio output, but holding JSON: in pieces from a smaller size (whole, it
     * would take several times its size) */
    if (more && !log_name && hint > w->json_piece_min && hint <= min && !binary &&
        fsc_text_in_pieces(buf, n) && fsc_text_holds_json(buf, n)) {
        text_in_pieces(w, path, fd, buf, n, hint);
        return;
    }
    if (more && hint > w->piece_min && binary && big_binary(w, path, fd, hint)) {
        free(buf);
        return;
    }
    if (more && !read_rest(fd, &buf, &n, &cap, hint)) {
        fsc_walker_fixed(w, path, NULL, FSC_IN_ERROR, "cannot read: %s", strerror(errno));
        free(buf);
        return;
    }
    buf[n] = '\0';
    if (fsc_pieces_plain(w, path, buf, n))
        return;
    w->progress->raw_done += n;
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
        fsc_walker_submit(w, NULL);
    } else {
        *id = (struct fsc_dir_id){sb->st_dev, sb->st_ino, path};
        /* the files of a folder with fio logs are held until the folder is read, so
         * that the logs find their runs; its subfolders are folders of their own */
        bool logs = false;
        fsc_logname ln;
        for (size_t i = 0; i < n && !logs; i++)
            logs = fsc_log_name_parse(names[i], &ln);
        unsigned outer = w->cur_group;
        unsigned prev = logs ? fsc_walker_group_begin(w) : outer;
        unsigned mine = w->cur_group;
        for (size_t i = 0; i < n && !w->stop; i++) {
            struct stat esb;
            bool subdir = stat(names[i], &esb) == 0 && S_ISDIR(esb.st_mode);
            w->cur_group = subdir ? 0 : mine;
            walk_entry(w, names[i], false);
        }
        w->cur_group = mine;
        if (logs)
            fsc_walker_group_end(w, prev);
        w->cur_group = outer;
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

/* Inputs of up to this many bytes in all are parsed without worker threads. */
#define INLINE_BYTES ((uint64_t)128 << 10)

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

static bool regular_file(const char *path)
{
    struct stat sb;
    return strcmp(path, "-") && stat(path, &sb) == 0 && S_ISREG(sb.st_mode);
}

/* Length of the folder part of a path ("a/b/c.log" → 3, "c.log" → 0). */
static size_t dir_len(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? (size_t)(slash - path) : 0;
}

/* Files named one after another on the command line that sit in one folder, one of
 * them a fio log, are held as a group like the files of a folder: returns the end of
 * the group starting at paths[i], or i when there is none. */
static size_t cmdline_group(const char *const *paths, size_t n, size_t i)
{
    if (!regular_file(paths[i]))
        return i;
    size_t dl = dir_len(paths[i]), j = i;
    bool logs = false;
    fsc_logname ln;
    while (j < n && regular_file(paths[j]) && dir_len(paths[j]) == dl &&
           !strncmp(paths[j], paths[i], dl)) {
        logs |= fsc_log_name_parse(paths[j], &ln);
        j++;
    }
    return logs ? j : i;
}

static unsigned default_jobs(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1 : n > 64 ? 64 : (unsigned)n;
}

/* The parse workers for inputs of `total` bytes in all (0: not known) when `asked`
 * were asked for (0: the default): none, the document parsed on this thread, for a
 * few small files or a small text unless more than one was asked for. Worker threads
 * and their heaps cost more than the parse of a log of a few KB: `fioscope parse` of
 * a 2 KB log took 5.9 ms of CPU with them and 3.8 ms without (this VM); from about
 * 1 MB, the workers win. */
static unsigned workers_for(unsigned asked, uint64_t total)
{
    if (asked <= 1 && total && total <= INLINE_BYTES)
        return 0;
    return asked ? asked : default_jobs();
}

/* Set up a walker (and its pipeline of `jobs` workers, 0: none, parsed on this
 * thread) for opts; false when out of memory. */
static bool walker_start(fsc_walker *w, fsc_progress *progress, const fsc_parser *parser,
                         const fsc_input_opts *opts, const fsc_input_sink *sink, unsigned jobs)
{
    /* FIOSCOPE_PIECE_BYTES: other piece sizes for huge files (tests); files above 4
     * pieces are then read in pieces */
    const char *pb = getenv("FIOSCOPE_PIECE_BYTES");
    unsigned long long want = pb ? strtoull(pb, NULL, 10) : 0;
    size_t piece_bytes = want >= 4096 && want <= FSC_PIECE_MIN ? (size_t)want : FSC_PIECE_BYTES;
    const char *pm = getenv("FIOSCOPE_PLAIN_MIN");
    unsigned long long plain_min = pm ? strtoull(pm, NULL, 10) : 0;
    const char *jm = getenv("FIOSCOPE_JSON_PIECE_MIN");
    unsigned long long json_min = jm ? strtoull(jm, NULL, 10) : 0;
    *w = (fsc_walker){
        .progress = progress,
        .piece_bytes = piece_bytes,
        .piece_min = piece_bytes == FSC_PIECE_BYTES ? FSC_PIECE_MIN : 4 * piece_bytes,
        .piece_step = piece_bytes == FSC_PIECE_BYTES ? FSC_PIECE_STEP : piece_bytes,
        /* FIOSCOPE_PLAIN_MIN (tests): from what size plain fio text read whole is
         * parsed in pieces (fsc_pieces_plain); with other piece sizes, by default never */
        .plain_min = plain_min ? (size_t)plain_min : 4 * piece_bytes,
        /* FIOSCOPE_JSON_PIECE_MIN (tests): from what size a text holding JSON is read
         * in pieces; with other piece sizes, by default from piece_min as other text */
        .json_piece_min = json_min >= 4096 ? (size_t)json_min
                          : piece_bytes == FSC_PIECE_BYTES ? FSC_JSON_PIECE_MIN : 4 * piece_bytes,
        /* FIOSCOPE_READER_READS=1: this thread reads every piece of a huge file (the
         * way before read_ranges in pieces.c; to compare them) */
        .worker_reads = !getenv("FIOSCOPE_READER_READS"),
        .max_member = opts->max_member_bytes ? opts->max_member_bytes : FSC_DEFAULT_MAX_MEMBER,
        .max_ratio = opts->max_ratio ? opts->max_ratio : FSC_DEFAULT_MAX_RATIO,
        .max_memory = opts->max_memory_bytes == UINT64_MAX ? 0
                      : opts->max_memory_bytes       ? opts->max_memory_bytes
                                                     : FSC_DEFAULT_MAX_MEMORY,
    };
    w->pipe = fsc_pipe_new(parser, sink, jobs, progress);
    return w->pipe != NULL;
}

static fsc_status walker_finish(fsc_walker *w)
{
    fsc_status st = fsc_pipe_finish(w->pipe);
    fsc_relay_release(w->relay); /* a file in pieces that ended with an error */
    fsc_progress_end(w->progress);
    free(w->dirs);
    return st;
}

fsc_status fsc_inputs_read(const char *const *paths, size_t n_paths, const fsc_parser *parser,
                           const fsc_input_opts *opts, const fsc_input_sink *sink)
{
    static const fsc_input_opts defaults = {0};
    if (!opts)
        opts = &defaults;
    fsc_progress progress;
    fsc_progress_init(&progress, opts->progress, 0);
    uint64_t total = known_total(paths, n_paths);
    if (progress.on)
        progress.raw_total = total;
    fsc_walker w;
    if (!walker_start(&w, &progress, parser, opts, sink, workers_for(opts->jobs, total)))
        return FSC_E_NOMEM;
    for (size_t i = 0; i < n_paths && !w.stop;) {
        size_t j = cmdline_group(paths, n_paths, i);
        unsigned prev = j > i ? fsc_walker_group_begin(&w) : w.cur_group;
        for (size_t k = i; k < (j > i ? j : i + 1) && !w.stop; k++) {
            w.arg = k;
            walk_entry(&w, paths[k], true);
        }
        if (j > i)
            fsc_walker_group_end(&w, prev);
        i = j > i ? j : i + 1;
    }
    return walker_finish(&w);
}

fsc_status fsc_input_read_mem(const char *name, const void *data, size_t len,
                              const fsc_parser *parser, const fsc_input_opts *opts,
                              const fsc_input_sink *sink)
{
    static const fsc_input_opts defaults = {0};
    if (!opts)
        opts = &defaults;
    fsc_progress progress;
    fsc_progress_init(&progress, false, 0);
    char *copy = fsc_strndup(data, len);
    if (!copy)
        return FSC_E_NOMEM;
    fsc_walker w;
    if (!walker_start(&w, &progress, parser, opts, sink, workers_for(opts->jobs, len ? len : 1))) {
        free(copy);
        return FSC_E_NOMEM;
    }
    w.progress->raw_done += len;
    fsc_walker_doc(&w, name, NULL, copy, len, 0);
    return walker_finish(&w);
}
