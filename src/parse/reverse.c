/* SPDX-License-Identifier: MIT */
/*
 * Text whose lines come last first: a log viewer's export sorted newest first
 * (Kibana's Discover and Grafana's Loki table export so, a line a row), a log copied
 * from such a view, a file put through `tac`. Read as it stands, each job's results
 * come before its header and every value lands in the job above.
 *
 * fio's report tells its own order, whatever the lines' prefixes or quoting: four of
 * its lines are always followed by a line of a known kind (a percentile title by its
 * rows, a job header by its direction line, "Run status group" by a group line,
 * "Disk stats" by a disk line). Reversed, each of them has that kind above it and
 * another below (a line with its kind on both sides, the title of a second list or
 * the header of a second group, tells nothing). The head of a document is asked (a reversed document shows its last
 * run there), and only whole documents are turned: a piece of a huge file is cut
 * between runs as they read forward.
 */
#define _GNU_SOURCE /* memrchr, memmem */
#include "parse_int.h"

#include <string.h>

enum { REVERSE_HEAD = 64 << 10, REVERSE_VOTES = 2 };

typedef enum line_kind {
    L_OTHER,
    L_TITLE, /* "clat percentiles (usec):" */
    L_ROW,   /* "|  1.00th=[   35], ..." */
    L_JOB,   /* "name: (groupid=0, jobs=1): err= 0: ..." */
    L_DIR,   /* "  read: IOPS=...", "  read : io=..., iops=..." */
    L_GROUPS, /* "Run status group 0 (all jobs):" */
    L_GROUP, /* "   READ: bw=..., io=...", "  READ: io=..., aggrb=..." */
    L_DISKS, /* "Disk stats (read/write):" */
    L_DISK,  /* "  sda: ios=..." */
    L_BLANK,
} line_kind;

static bool has(const char *s, size_t n, const char *lit)
{
    return fsc_find_lit(s, n, lit) != NULL;
}

static line_kind kind_of(const char *s, size_t n)
{
    size_t i = 0;
    while (i < n && (s[i] == ' ' || s[i] == '\t' || s[i] == '\r'))
        i++;
    if (i == n)
        return L_BLANK;
    if (!memchr(s, '=', n)) {
        if (has(s, n, "percentiles ("))
            return L_TITLE;
        if (has(s, n, "Run status group"))
            return L_GROUPS;
        if (has(s, n, "Disk stats ("))
            return L_DISKS;
        return L_OTHER;
    }
    if (has(s, n, "th=["))
        return L_ROW;
    if (has(s, n, "(groupid="))
        return L_JOB;
    if (has(s, n, ": ios="))
        return L_DISK;
    if (has(s, n, "IOPS=") || has(s, n, "iops="))
        return L_DIR;
    if (has(s, n, "io=") && (has(s, n, "bw=") || has(s, n, "aggrb=")))
        return L_GROUP;
    return L_OTHER;
}

/* The kind that follows a line of kind k in fio's report, or L_OTHER: none known. */
static line_kind follower(line_kind k)
{
    switch (k) {
    case L_TITLE: return L_ROW;
    case L_JOB: return L_DIR;
    case L_GROUPS: return L_GROUP;
    case L_DISKS: return L_DISK;
    default: return L_OTHER;
    }
}

bool fsc_text_reversed(const char *data, size_t len)
{
    size_t end = len < REVERSE_HEAD ? len : REVERSE_HEAD, i = 0;
    /* JSON (a log service's export, which jsonlog.c puts in order by its times) is
     * turned by its entries, not its lines */
    while (i < end && (data[i] == ' ' || data[i] == '\t' || data[i] == '\r' || data[i] == '\n'))
        i++;
    if (i < end && data[i] == '[') { /* an array of entries, not "[2026-12-07 04:00:00] " */
        size_t k = i + 1;
        while (k < end && (data[k] == ' ' || data[k] == '\t' || data[k] == '\r' || data[k] == '\n'))
            k++;
        if (k < end && (data[k] == '{' || data[k] == '"' || data[k] == ']'))
            return false;
    } else if (i < end && data[i] == '{')
        return false;
    /* what is asked of every document first: a run's results or its end (a direction
     * line, "Run status group", "Disk stats") above the first job header. fio's text
     * forward has its first job header above them (an excerpt that starts inside a
     * run, below, is asked on) */
    const char *job = memmem(data, end, "(groupid=", 9);
    if (!job)
        return false;
    size_t above = (size_t)(job - data);
    if (!memmem(data, above, "Run status group", 16) && !memmem(data, above, "Disk stats (", 12) &&
        !memmem(data, above, "IOPS=", 5) && !memmem(data, above, "iops=", 5))
        return false;
    line_kind prev = L_BLANK, cur = L_BLANK; /* the last two lines that are not blank */
    unsigned forward = 0, backward = 0;
    for (size_t at = 0; at < end;) {
        const char *nl = memchr(data + at, '\n', len - at);
        size_t n = (nl ? (size_t)(nl - data) : len) - at;
        line_kind k = kind_of(data + at, n);
        at += n + 1;
        if (k == L_BLANK)
            continue;
        /* cur's neighbours are known: prev above it, k below it */
        line_kind f = follower(cur);
        if (f != L_OTHER && (k == f) != (prev == f)) /* both: a second list's title, group */
            *(k == f ? &forward : &backward) += 1;
        prev = cur;
        cur = k;
    }
    return backward >= REVERSE_VOTES && !forward;
}

fsc_status fsc_reverse_lines(const char *data, size_t len, fsc_buf *out)
{
    fsc_buf_reset(out);
    size_t e = len;
    if (e && data[e - 1] == '\n')
        e--;
    for (;;) {
        const char *nl = e ? memrchr(data, '\n', e) : NULL;
        size_t s = nl ? (size_t)(nl - data) + 1 : 0;
        fsc_buf_add(out, data + s, e - s);
        fsc_buf_putc(out, '\n');
        if (!nl)
            break;
        e = s - 1;
    }
    return out->oom ? FSC_E_NOMEM : FSC_OK;
}
