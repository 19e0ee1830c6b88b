/* SPDX-License-Identifier: MIT */
/*
 * Archives and compressed files read in place with libarchive: every member is read
 * into memory (never extracted), checked against the decompression-bomb limits and
 * queued as a document; archives inside archives are opened recursively.
 */
#define _GNU_SOURCE
#include "input_int.h"

#include "archive_api.h"
#include "gunzip.h"
#include "unzip.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Bytes read per archive_read_data() call: the limits are checked in between. */
#define CHUNK ((size_t)1 << 20)
/* A member's declared size is trusted for the first allocation up to this much. */
#define FIRST_ALLOC_MAX ((size_t)64 << 20)

typedef enum member_result { MEMBER_DONE, MEMBER_ABANDON } member_result;

/* A top-level archive read from a file descriptor. When the descriptor cannot seek
 * (a pipe, "-"), the bytes already sniffed are served first from prefix. */
typedef struct fd_src {
    fsc_walker *w;
    int fd;
    const char *prefix;
    size_t plen, ppos;
    fsc_gunzip *gz; /* gzip decompressed here (gunzip.h), not by libarchive */
    bool seekable;
    uint64_t off;     /* of the next read, in a seekable file */
    uint64_t counted; /* [.., counted): a zip member's data, counted when it was inflated here */
    char buf[1 << 16];
} fd_src;

/* The next bytes of the file (a: where a read error is told; NULL: nowhere). */
static ssize_t raw_read(fd_src *s, struct archive *a, const void **out)
{
    ssize_t r;
    if (s->ppos < s->plen) {
        *out = s->prefix + s->ppos;
        r = (ssize_t)(s->plen - s->ppos);
        s->ppos = s->plen;
    } else {
        do
            r = read(s->fd, s->buf, sizeof s->buf);
        while (r < 0 && errno == EINTR);
        if (r < 0) {
            if (a)
                archive_set_error(a, errno, "read error: %s", strerror(errno));
            return -1;
        }
        *out = s->buf;
    }
    uint64_t fresh = (uint64_t)r;
    if (s->seekable) { /* what a zip member inflated here (unzip.h) already counted */
        if (s->counted > s->off)
            fresh -= s->counted - s->off < fresh ? s->counted - s->off : fresh;
        s->off += (uint64_t)r;
    }
    s->w->progress->raw_done += fresh;
    s->w->top_raw += fresh;
    return r;
}

static ssize_t gz_source(void *ctx, const void **out)
{
    return raw_read(ctx, NULL, out);
}

/* The decompressed bytes of gz for libarchive. */
static la_ssize_t gz_read(struct archive *a, fsc_gunzip *gz, const void **out)
{
    const char *why;
    ssize_t r = fsc_gunzip_read(gz, out, &why);
    if (r < 0 && why)
        archive_set_error(a, -1, "%s", why); /* ARCHIVE_ERRNO_MISC of libarchive's filters */
    return r;
}

static la_ssize_t fd_read_cb(struct archive *a, void *ud, const void **out)
{
    fd_src *s = ud;
    return s->gz ? gz_read(a, s->gz, out) : raw_read(s, a, out);
}

/* A gzip member of an outer archive, in memory (mem_src), decompressed by gz. */
typedef struct mem_src {
    const char *data;
    size_t len;
    bool served;
    fsc_gunzip *gz;
} mem_src;

static ssize_t mem_source(void *ctx, const void **out)
{
    mem_src *m = ctx;
    if (m->served)
        return 0;
    m->served = true;
    *out = m->data;
    return (ssize_t)m->len;
}

static la_ssize_t mem_read_cb(struct archive *a, void *ud, const void **out)
{
    return gz_read(a, ((mem_src *)ud)->gz, out);
}

/* The filters reading the archive, gz (NULL: none) counted. */
static int filter_count(struct archive *a, const fsc_gunzip *gz)
{
    return archive_filter_count(a) + (gz != NULL);
}

/* Compressed bytes consumed so far. */
static la_int64_t input_bytes(struct archive *a, const fsc_gunzip *gz)
{
    return gz ? (la_int64_t)fsc_gunzip_in_bytes(gz) : archive_filter_bytes(a, -1);
}

static la_int64_t fd_seek_cb(struct archive *a, void *ud, la_int64_t off, int whence)
{
    fd_src *s = ud;
    off_t r = lseek(s->fd, (off_t)off, whence);
    if (r < 0) {
        archive_set_error(a, errno, "seek error: %s", strerror(errno));
        return ARCHIVE_FATAL;
    }
    s->off = (uint64_t)r;
    return r;
}

/* How the archive being listed is read: gz (NULL: none) decompresses it here; fd
 * (seekable) or data (in memory) let its zip members be read at their offsets, for
 * ISA-L (unzip.h: zip, made when the first member is read). */
typedef struct reading {
    const fsc_gunzip *gz;
    fd_src *fd;
    const char *data;
    uint64_t size;
    fsc_unzip *zip;
    bool zip_tried;
    unsigned outer_group; /* the walker's group around the archive's own (0: none) */
} reading;

static ssize_t fd_pread(void *ctx, void *buf, size_t n, uint64_t off)
{
    return fsc_read_full(((fd_src *)ctx)->fd, buf, n, (int64_t)off);
}

/* The zip member libarchive has just opened, of `size` bytes, inflated by ISA-L into
 * *out (unzip.h); false: libarchive's turn, nothing of it consumed. Only where the
 * expansion limits could not have stopped it on the way: a quarter of --max-ratio at
 * most, for the member and for the whole input, weighed before it is inflated. Its
 * compressed bytes are counted as read (and not again when libarchive passes over
 * them). */
static bool zip_member(fsc_walker *w, struct archive *a, reading *rd, uint64_t size, char **out)
{
    *out = NULL;
    if (rd->gz || (!rd->fd && !rd->data) || archive_filter_count(a) != 1 ||
        (archive_format(a) & ARCHIVE_FORMAT_BASE_MASK) != ARCHIVE_FORMAT_ZIP)
        return false;
    if (!rd->zip_tried) {
        rd->zip_tried = true;
        rd->zip = fsc_unzip_new(fd_pread, rd->fd, rd->data, rd->size);
    }
    uint64_t data_off = (uint64_t)archive_filter_bytes(a, 0), packed = 0;
    if (!rd->zip || !fsc_unzip_find(rd->zip, data_off, size, &packed))
        return false;
    uint64_t fresh = 0; /* the member's bytes libarchive has not read ahead */
    if (rd->fd && rd->fd->off < data_off + packed)
        fresh = data_off + packed - (rd->fd->off > data_off ? rd->fd->off : data_off);
    uint64_t raw = w->top_raw + fresh, expanded = w->top_expanded + size, most = w->max_ratio / 4;
    if ((size > FSC_RATIO_FLOOR && size / (packed ? packed : 1) > most) ||
        (expanded > FSC_RATIO_FLOOR && expanded / (raw ? raw : 1) > most) ||
        !fsc_unzip_inflate(rd->zip, out))
        return false;
    if (rd->fd) {
        rd->fd->counted = data_off + packed;
        w->progress->raw_done += fresh;
        w->top_raw = raw;
    }
    w->top_expanded = expanded;
    return true;
}

/* A reader for the formats logs come in and nothing more (each reader is attack
 * surface): tar (ustar, pax, GNU, v7), zip, and gzip, xz, zstd and bzip2 compression;
 * with raw, the "raw" format for a single compressed file. No 7-Zip, RAR, cpio, and
 * none of the filters that run an external program (lrzip, lzop, grzip). */
static struct archive *new_reader(bool raw)
{
    struct archive *a = archive_read_new();
    if (!a)
        return NULL;
    archive_read_support_filter_gzip(a);
    archive_read_support_filter_xz(a);
    archive_read_support_filter_zstd(a);
    archive_read_support_filter_bzip2(a);
    archive_read_support_format_tar(a);
    archive_read_support_format_zip(a);
    if (raw)
        archive_read_support_format_raw(a);
    return a;
}

char *fsc_join_member(const char *prefix, const char *name)
{
    char *s = NULL;
    if (!prefix)
        return fsc_strdup(name);
    if (asprintf(&s, "%s/%s", prefix, name) < 0)
        return NULL;
    return s;
}

/* Stop reading this archive because of a limit: the member's entry says why and,
 * in a real archive (not a single compressed file), that later members were not read. */
static member_result limit_hit(fsc_walker *w, struct archive *a, const char *path,
                               const char *member, char *buf, const char *why, uint64_t value,
                               const char *option)
{
    free(buf);
    bool single = archive_format(a) == ARCHIVE_FORMAT_RAW;
    fsc_walker_fixed(w, path, member, FSC_IN_ERROR, "decompression limit: %s %llu (%s)%s", why,
                     (unsigned long long)value, option,
                     single ? "" : "; the rest of the archive was not read");
    return MEMBER_ABANDON;
}

/* The limit a member of len bytes so far, inflated from `consumed` bytes, has passed
 * (the whole input's too): its reason, with *value and *option for the message; NULL
 * while within them. */
static const char *over_limit(const fsc_walker *w, uint64_t len, uint64_t consumed, uint64_t *value,
                              const char **option)
{
    *value = w->max_ratio;
    *option = "--max-ratio";
    if (len > w->max_member) {
        *value = w->max_member;
        *option = "--max-member-size";
        return "expands beyond";
    }
    if (len > FSC_RATIO_FLOOR && len / (consumed ? consumed : 1) > w->max_ratio)
        return "expands more than the ratio";
    if (w->top_expanded > FSC_RATIO_FLOOR && w->top_expanded / (w->top_raw ? w->top_raw : 1) > w->max_ratio)
        return "the whole input expands more than the ratio";
    return NULL;
}

/* The rest of a compressed file's text (fsc_text_read), under read_member's limits. */
typedef struct member_stream {
    fsc_walker *w;
    struct archive *a;
    const fsc_gunzip *gz;
    la_int64_t start; /* input_bytes when the member began */
    uint64_t len;     /* its bytes read so far */
} member_stream;

/* libarchive's reason for a member it cannot read. */
static const char *member_error(struct archive *a)
{
    return archive_error_string(a) ? archive_error_string(a) : "unknown error";
}

/* One archive_read_data() of at most n bytes into dst, for a member of *len bytes so
 * far that began at input_bytes `start`, counted (*len, the whole input's expanded
 * bytes): the count, 0 at the member's end, or libarchive's error (< 0). *over: the
 * limit it has passed (over_limit, with *value and *option), NULL while within them. */
static la_ssize_t read_counted(fsc_walker *w, struct archive *a, const fsc_gunzip *gz, la_int64_t start, char *dst,
                               size_t n, uint64_t *len, const char **over, uint64_t *value, const char **option)
{
    *over = NULL;
    la_ssize_t r = archive_read_data(a, dst, n);
    if (r <= 0)
        return r;
    *len += (uint64_t)r;
    w->top_expanded += (uint64_t)r;
    *over = over_limit(w, *len, (uint64_t)(input_bytes(a, gz) - start), value, option);
    return r;
}

static ssize_t member_read(void *ctx, char *buf, size_t n, char *why, size_t whylen)
{
    member_stream *ms = ctx;
    size_t got = 0;
    while (got < n) {
        uint64_t value;
        const char *over, *option;
        la_ssize_t r = read_counted(ms->w, ms->a, ms->gz, ms->start, buf + got, n - got < CHUNK ? n - got : CHUNK,
                                    &ms->len, &over, &value, &option);
        if (r == 0)
            break;
        if (r < 0) {
            snprintf(why, whylen, "cannot read member: %s", member_error(ms->a));
            return -1;
        }
        got += (size_t)r;
        if (over) {
            snprintf(why, whylen, "decompression limit: %s %llu (%s)", over, (unsigned long long)value, option);
            return -1;
        }
    }
    return (ssize_t)got;
}

/* Is the text of a member (NULL: of a single compressed file at the top), whose
 * first len bytes are in buf, read in pieces once it grows past a file read whole?
 * Text only, as for a file: no archive inside, text as the whole member would be
 * judged on what is there (fsc_text_in_pieces: its first 64 KiB). (A fio log member
 * is not asked: see read_member.) */
static bool in_pieces(struct archive *a, const char *member, int depth, const char *buf, size_t len)
{
    if (!member && (depth != 1 || archive_format(a) != ARCHIVE_FORMAT_RAW))
        return false;
    return !fsc_unread_archive((const unsigned char *)buf, len) &&
           !fsc_is_archive_magic((const unsigned char *)buf, len) && fsc_text_in_pieces(buf, len);
}

/* Do the first len bytes of a member (64 KiB at least) show all of it to be binary
 * data (fsc_binary_decided)? Not for a program: a self-extracting zip begins with
 * one, and libarchive would find the zip from its end, which a member read as a
 * stream cannot show before it is all read. */
static bool binary_member(const char *buf, size_t len)
{
    if ((len >= 2 && buf[0] == 'M' && buf[1] == 'Z') || (len >= 4 && !memcmp(buf, "\x7f" "ELF", 4)))
        return false;
    return fsc_binary_decided(buf, len);
}

/* One archive_read_data() of at most n bytes into dst, for a member of *len bytes so
 * far, under the limits: the count (0: the member's end), or -1 when the member ends
 * in an error entry (buf freed; *res: whether the archive goes on). */
static la_ssize_t member_chunk(fsc_walker *w, struct archive *a, const fsc_gunzip *gz, const char *path,
                               const char *member, char *buf, char *dst, size_t n, uint64_t *len,
                               la_int64_t start, member_result *res)
{
    uint64_t value;
    const char *over, *option;
    la_ssize_t r = read_counted(w, a, gz, start, dst, n, len, &over, &value, &option);
    if (r < 0) {
        free(buf);
        fsc_walker_fixed(w, path, member, FSC_IN_ERROR, "cannot read member: %s", member_error(a));
        *res = r == ARCHIVE_FATAL ? MEMBER_ABANDON : MEMBER_DONE;
        return -1;
    }
    if (over) {
        *res = limit_hit(w, a, path, member, buf, over, value, option);
        return -1;
    }
    return r;
}

/* The rest of a binary member (binary_member): read on under the limits of a member
 * read whole, through the first chunk of buf (cap bytes) again and again, not kept;
 * then the entry it would have had whole. A tarred fio working directory holds data
 * files of hundreds of MB, which took as much memory. */
static member_result discard_binary(fsc_walker *w, struct archive *a, const fsc_gunzip *gz, const char *path,
                                    const char *member, char *buf, size_t cap, uint64_t len, la_int64_t start)
{
    member_result res;
    la_ssize_t r;
    while ((r = member_chunk(w, a, gz, path, member, buf, buf, cap < CHUNK ? cap : CHUNK, &len, start, &res)) > 0)
        ;
    if (r < 0)
        return res;
    free(buf);
    fsc_walker_fixed(w, path, member, FSC_IN_ERROR, "%s", FSC_BINARY_DATA);
    return MEMBER_DONE;
}

/* Read the current member into memory and queue it. */
static member_result read_member(fsc_walker *w, struct archive *a, reading *rd, struct archive_entry *e,
                                 const char *path, const char *member, int depth)
{
    const fsc_gunzip *gz = rd->gz;
    uint64_t declared = archive_entry_size_is_set(e) ? (uint64_t)archive_entry_size(e) : 0;
    if (declared > w->max_member)
        return limit_hit(w, a, path, member, NULL, "declared size is over", w->max_member,
                         "--max-member-size");
    char *inflated;
    /* a fio log member is read whole: its pieces would join their first piece's
     * series, which an archive group held in windows may have delivered */
    fsc_logname ln;
    bool log = member && fsc_log_name_parse(member, &ln);
    /* whole by ISA-L, but for a text that may go in pieces (in_pieces): libarchive
     * inflates that as it is read, in flat memory */
    bool whole = declared < w->piece_min || log;
    if (declared && whole && zip_member(w, a, rd, declared, &inflated)) {
        fsc_walker_doc(w, path, member, inflated, (size_t)declared, depth);
        return MEMBER_DONE;
    }
    size_t cap = CHUNK;
    if (declared)
        cap = declared < FIRST_ALLOC_MAX ? (size_t)declared + 1 : FIRST_ALLOC_MAX;
    size_t len = 0;
    char *buf = malloc(cap + 1);
    if (!buf) {
        fsc_walker_fixed(w, path, member, FSC_IN_ERROR, "out of memory");
        return MEMBER_DONE;
    }
    la_int64_t start = input_bytes(a, gz);
    /* a member declared longer than a file read whole is looked at once its first
     * bytes are there (none of it whole in memory), others once they grow that long */
    bool big = declared >= w->piece_min, looked = log, sniffed = log;
    size_t min = w->piece_min; /* a text holding JSON: json_piece_min, once seen */
    for (;;) {
        if (len == cap) {
            char *nb = realloc(buf, cap * 2 + 1);
            if (!nb) {
                free(buf);
                fsc_walker_fixed(w, path, member, FSC_IN_ERROR, "out of memory");
                return MEMBER_ABANDON;
            }
            buf = nb;
            cap *= 2;
        }
        member_result res;
        uint64_t got = len;
        la_ssize_t r = member_chunk(w, a, gz, path, member, buf, buf + len, cap - len < CHUNK ? cap - len : CHUNK,
                                    &got, start, &res);
        if (r < 0)
            return res;
        if (r == 0)
            break;
        len = (size_t)got;
        if (!sniffed && len >= LOOK_BYTES) {
            sniffed = true;
            min = fsc_walker_piece_min(w, buf, len);
            big = declared >= min;
        }
        if (looked || !(len >= min || (big && len >= LOOK_BYTES)))
            continue;
        looked = true;
        /* a compressed file of text (log.txt.gz) or a member of an archive longer
         * than a file read whole: the rest in pieces, as for the same text
         * uncompressed, not whole in memory (a 60 MB fio log as .gz: 2.2 s and 420 MB
         * whole, 0.3 s and 42 MB in pieces; 200 MB of fio text in a .tar.zst: 2.8 s
         * and 730 MB whole) */
        if (in_pieces(a, member, depth, buf, len)) {
            member_stream ms = {w, a, gz, start, len};
            unsigned group = w->cur_group;
            if (!member) /* in the group the file itself is in: the archive's own holds
                          * its members for the fio logs among them, and it has no other */
                w->cur_group = rd->outer_group;
            fsc_pieces_read_from(w, path, member, buf, len, member_read, &ms);
            w->cur_group = group;
            return MEMBER_DONE;
        }
        if (binary_member(buf, len)) /* also a single compressed file past 24 MiB */
            return discard_binary(w, a, gz, path, member, buf, cap, len, start);
    }
    buf[len] = '\0';
    fsc_walker_doc(w, path, member, buf, len, depth);
    return MEMBER_DONE;
}

/* The archive could not be opened, or failed before its first member. */
static void unreadable(fsc_walker *w, struct archive *a, const fsc_gunzip *gz, const char *path,
                       const char *member)
{
    if (filter_count(a, gz) > 1 && archive_filter_bytes(a, 0) == 0 &&
        archive_errno(a) == EILSEQ) /* libarchive's "unrecognized format" */
        fsc_walker_fixed(w, path, member, FSC_IN_NO_RUNS, "empty file"); /* e.g. gzip of nothing */
    else
        fsc_walker_fixed(w, path, member, FSC_IN_ERROR, "unreadable archive: %s",
                         archive_error_string(a) ? archive_error_string(a) : "unknown format");
}

/* Links and special files carry no document, but are still listed. */
static member_result other_member(fsc_walker *w, struct archive_entry *e, const char *path,
                                  const char *member)
{
    const char *hard = archive_entry_hardlink(e);
    if (archive_entry_filetype(e) == AE_IFLNK)
        fsc_walker_fixed(w, path, member, FSC_IN_NO_RUNS, "symbolic link to %s (not followed)",
                         archive_entry_symlink(e) ? archive_entry_symlink(e) : "?");
    else if (hard)
        fsc_walker_fixed(w, path, member, FSC_IN_NO_RUNS, "hard link to %s (read there)", hard);
    else
        fsc_walker_fixed(w, path, member, FSC_IN_ERROR, "not read: not a regular file");
    return MEMBER_DONE;
}

/* Blocks of a damaged archive that libarchive skipped before the next good header:
 * one entry for the whole stretch, like GNU tar's "Skipping to next header". */
typedef struct damage {
    size_t blocks;
    bool seen; /* any damage in this archive */
    la_int64_t from;
    char after[160]; /* the member before the damage, or "" */
    char why[160];
} damage;

static void damage_report(fsc_walker *w, const char *path, const char *prefix, damage *d,
                          la_int64_t to)
{
    if (!d->blocks)
        return;
    fsc_walker_fixed(w, path, prefix, FSC_IN_ERROR,
                     "damaged archive: %lld bytes skipped %s%s%s (%s); the members after them are read",
                     (long long)(to - d->from), *d->after ? "after member '" : "at its start",
                     d->after, *d->after ? "'" : "", d->why);
    d->blocks = 0;
}

/* Every member of the open archive a; prefix is the name of the archive itself when
 * it is a member of an outer one. */
static void read_members(fsc_walker *w, struct archive *a, reading *rd, const char *path,
                         const char *prefix, int depth)
{
    const fsc_gunzip *gz = rd->gz;
    struct archive_entry *e;
    size_t members = 0;
    damage dmg = {0};
    int r;
    for (;;) {
        la_int64_t before = archive_filter_bytes(a, 0);
        if (w->stop || (r = archive_read_next_header(a, &e)) == ARCHIVE_EOF)
            break;
        if (r == ARCHIVE_RETRY && archive_filter_bytes(a, 0) > before) {
            /* a damaged header: libarchive skips it and tries the next block */
            dmg.seen = true;
            if (!dmg.blocks++) {
                dmg.from = before;
                snprintf(dmg.why, sizeof dmg.why, "%s",
                         archive_error_string(a) ? archive_error_string(a) : "damaged header");
            }
            continue;
        }
        damage_report(w, path, prefix, &dmg, before);
        if (r < ARCHIVE_WARN) {
            if (members)
                fsc_walker_fixed(w, path, prefix, FSC_IN_ERROR,
                                 "damaged archive after %zu members: %s", members,
                                 archive_error_string(a) ? archive_error_string(a) : "?");
            else
                unreadable(w, a, gz, path, prefix);
            return;
        }
        bool raw = archive_format(a) == ARCHIVE_FORMAT_RAW;
        if (raw && filter_count(a, gz) <= 1) {
            /* the magic promised an archive, yet no format or filter took it */
            fsc_walker_fixed(w, path, prefix, FSC_IN_ERROR,
                             "unreadable archive: unknown or damaged format");
            return;
        }
        const char *name = archive_entry_pathname_utf8(e);
        if (!name)
            name = archive_entry_pathname(e);
        if (!raw && archive_entry_filetype(e) == AE_IFDIR)
            continue; /* directories hold no document of their own */
        members++;
        char *member = raw      ? (prefix ? fsc_strdup(prefix) : NULL)
                       : fsc_join_member(prefix, name ? name : "");
        if (!raw && !member) {
            fsc_walker_fixed(w, path, prefix, FSC_IN_ERROR, "out of memory");
            return;
        }
        mode_t type = archive_entry_filetype(e);
        bool data = (type == AE_IFREG || type == 0 || raw) &&
                    !(archive_entry_hardlink(e) && archive_entry_size(e) == 0);
        member_result res = data ? read_member(w, a, rd, e, path, member, depth)
                                 : other_member(w, e, path, member);
        snprintf(dmg.after, sizeof dmg.after, "%s", name ? name : "");
        free(member);
        if (res == MEMBER_ABANDON)
            return;
    }
    damage_report(w, path, prefix, &dmg, archive_filter_bytes(a, 0));
    if (!members && !w->stop && !dmg.seen)
        fsc_walker_fixed(w, path, prefix, FSC_IN_NO_RUNS, "empty archive");
}

void fsc_archive_read_fd(fsc_walker *w, const char *path, int fd, const char *prefix, size_t n)
{
    const char *why;
    if (!fsc_archive_api_open(&why)) {
        fsc_walker_fixed(w, path, NULL, FSC_IN_ERROR, "%s", why);
        return;
    }
    fd_src *s = calloc(1, sizeof *s);
    struct archive *a = new_reader(true);
    if (!s || !a) {
        free(s);
        archive_read_free(a);
        fsc_walker_fixed(w, path, NULL, FSC_IN_ERROR, "out of memory");
        return;
    }
    s->w = w;
    s->fd = fd;
    bool seekable = lseek(fd, 0, SEEK_SET) == 0;
    s->seekable = seekable;
    if (!seekable) {
        s->prefix = prefix;
        s->plen = n;
    }
    /* gzip by ISA-L, where it can: a stream, which cannot seek */
    s->gz = fsc_gunzip_new((const unsigned char *)prefix, n, gz_source, s);
    archive_read_set_callback_data(a, s);
    archive_read_set_read_callback(a, fd_read_cb);
    if (seekable && !s->gz)
        archive_read_set_seek_callback(a, fd_seek_cb);
    if (archive_read_open1(a) != ARCHIVE_OK) {
        unreadable(w, a, s->gz, path, NULL);
    } else { /* an archive is one group: its fio logs find their runs anywhere in it */
        struct stat sb;
        reading rd = {.gz = s->gz};
        if (seekable && !s->gz && fstat(fd, &sb) == 0 && S_ISREG(sb.st_mode)) {
            rd.fd = s;
            rd.size = (uint64_t)sb.st_size;
        }
        unsigned prev = fsc_walker_group_begin(w);
        rd.outer_group = prev;
        read_members(w, a, &rd, path, NULL, 1);
        fsc_walker_group_end(w, prev);
        fsc_unzip_free(rd.zip);
    }
    archive_read_free(a);
    fsc_gunzip_free(s->gz);
    free(s);
}

bool fsc_archive_sniff(const char *data, size_t len)
{
    if (!fsc_archive_api_open(NULL))
        return false; /* read as the binary document it looks like */
    struct archive *a = new_reader(false);
    if (!a)
        return false;
    struct archive_entry *e;
    int r = archive_read_open_memory(a, data, len) == ARCHIVE_OK ? archive_read_next_header(a, &e) : ARCHIVE_FATAL;
    bool yes = r >= ARCHIVE_WARN && archive_format(a) != 0;
    archive_read_free(a);
    /* an empty tar is zero blocks only: zeros followed by text are a log that begins
     * with a zero-filled block (a crash), not an archive */
    for (size_t i = 0; yes && r == ARCHIVE_EOF && i < len; i++)
        yes = data[i] == 0;
    return yes;
}

void fsc_archive_read_mem(fsc_walker *w, const char *path, const char *member, const char *data,
                          size_t len, int depth)
{
    if (depth > FSC_MAX_ARCHIVE_DEPTH) {
        fsc_walker_fixed(w, path, member, FSC_IN_ERROR,
                         "archive nested more than %d levels deep: not opened",
                         FSC_MAX_ARCHIVE_DEPTH);
        return;
    }
    const char *why;
    if (!fsc_archive_api_open(&why)) {
        fsc_walker_fixed(w, path, member, FSC_IN_ERROR, "%s", why);
        return;
    }
    struct archive *a = new_reader(true);
    if (!a) {
        fsc_walker_fixed(w, path, member, FSC_IN_ERROR, "out of memory");
        return;
    }
    /* a gzip member: ISA-L's, as at the top (gunzip.h) */
    mem_src m = {data, len, false, NULL};
    m.gz = fsc_gunzip_new((const unsigned char *)data, len < SNIFF_BYTES ? len : SNIFF_BYTES, mem_source, &m);
    int opened;
    if (m.gz) {
        archive_read_set_callback_data(a, &m);
        archive_read_set_read_callback(a, mem_read_cb);
        opened = archive_read_open1(a);
    } else {
        opened = archive_read_open_memory(a, data, len);
    }
    if (opened != ARCHIVE_OK) {
        unreadable(w, a, m.gz, path, member);
    } else {
        reading rd = {.gz = m.gz, .data = m.gz ? NULL : data, .size = len};
        unsigned prev = fsc_walker_group_begin(w);
        read_members(w, a, &rd, path, member, depth);
        fsc_walker_group_end(w, prev);
        fsc_unzip_free(rd.zip);
    }
    archive_read_free(a);
    fsc_gunzip_free(m.gz);
}
