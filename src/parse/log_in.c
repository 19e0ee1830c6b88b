/* SPDX-License-Identifier: MIT */
/*
 * fio log files as series: file names, the text layouts of every fio version (rows
 * of comma-separated integers, the layout decided from all rows at the end), clone
 * sections of per_job_logs=0 files, pieces of huge files, and the warnings for bad
 * rows. log_store_compressed files are decoded in log_fz.c.
 */
#include "fioscope/logs.h"

#include "log_int.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Warnings listed per file; further problem lines are only counted. */
#define MAX_WARNINGS 10
/* Fields of a value log row: time, value, [max,] dir, bs, [offset,] prio, [issue]. */
#define MAX_VALUE_FIELDS 8
/* A histogram row: time, dir, bs and at most fio 3.x's 1856 bins. */
#define MAX_HIST_FIELDS (3 + 1856)
/* Beyond these a value is absurd (the row is skipped with a warning): a block of
 * 1 TiB, a time of more than 10^15 ms. */
#define MAX_BS ((int64_t)1 << 40)
#define MAX_T_MS 1000000000000000LL

/* ---- file names ---- */

static bool ends_with(const char *s, size_t n, const char *suffix, size_t *rest)
{
    size_t k = strlen(suffix);
    if (n < k || memcmp(s + n - k, suffix, k))
        return false;
    *rest = n - k;
    return true;
}

bool fsc_log_name_parse(const char *name, fsc_logname *out)
{
    static const char *const packed[] = {".gz", ".xz", ".zst", ".bz2", ".lz4", ".Z"};
    /* kinds, longest first so that "_clat_hist" is not read as "_hist" of "clat" */
    static const fsc_logkind kinds[] = {FSC_LOG_CLAT_HIST, FSC_LOG_LAT_HIST, FSC_LOG_IOPS,
                                        FSC_LOG_CLAT, FSC_LOG_SLAT, FSC_LOG_LAT, FSC_LOG_BW};
    const char *base = strrchr(name, '/');
    base = base ? base + 1 : name;
    size_t n = strlen(base), r;
    memset(out, 0, sizeof *out);
    for (size_t i = 0; i < FSC_ARRAY_SIZE(packed); i++)
        if (ends_with(base, n, packed[i], &r)) {
            n = r;
            break;
        }
    if (ends_with(base, n, ".log.fz", &r)) {
        out->stored_compressed = true;
        n = r;
    } else if (ends_with(base, n, ".log", &r)) {
        n = r;
    } else {
        return false;
    }
    /* ".N": fio's thread number */
    size_t d = n;
    while (d > 0 && base[d - 1] >= '0' && base[d - 1] <= '9')
        d--;
    if (d < n && d > 0 && base[d - 1] == '.' && n - d <= 9) {
        out->clone = atoi(base + d);
        n = d - 1;
        if (out->clone <= 0)
            return false;
    }
    for (size_t i = 0; i < FSC_ARRAY_SIZE(kinds); i++) {
        char suffix[16];
        snprintf(suffix, sizeof suffix, "_%s", fsc_logkind_name(kinds[i]));
        if (ends_with(base, n, suffix, &r) && r > 0) {
            out->kind = kinds[i];
            out->prefix = base;
            out->prefix_len = r;
            return true;
        }
    }
    return false;
}

/* ---- the reader ---- */

static bool add_warning(fsc_logfile *f, uint32_t line, const char *fmt, ...) FSC_PRINTF(3, 4);

static bool add_warning(fsc_logfile *f, uint32_t line, const char *fmt, ...)
{
    if (f->n_warnings >= MAX_WARNINGS) {
        f->suppressed++;
        return true;
    }
    char tmp[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    char *msg = fsc_strdup(tmp);
    fsc_warning *w = msg ? FSC_PUSH(f->warnings, f->n_warnings, f->cap_warnings) : NULL;
    if (!w) {
        free(msg);
        return false;
    }
    w->line = line;
    w->message = msg;
    return true;
}

static fsc_logseries *new_section(fsc_logfile *f)
{
    /* positions named provisionally (time first, which the section logic reads);
     * fsc_logfile_finish names them for good */
    static const fsc_logcol provisional[] = {FSC_COL_T,      FSC_COL_VALUE, FSC_COL_DIR,
                                             FSC_COL_BS,     FSC_COL_OFFSET, FSC_COL_PRIO,
                                             FSC_COL_ISSUE,  FSC_COL_MAX};
    fsc_logseries *s = fsc_logseries_new(f->name.kind, f->ncols);
    if (s && !f->hist && !f->from_binary)
        fsc_logseries_name_columns(s, provisional);
    /* a piece's rows stay in memory until the piece before takes them over */
    if (s && f->first_line)
        fsc_logseries_set_spill(s, false);
    fsc_logseries **slot = s ? FSC_PUSH(f->series, f->n_series, f->cap_series) : NULL;
    if (!slot) {
        fsc_logseries_free(s);
        return NULL;
    }
    *slot = s;
    s->clone = f->name.clone;
    return s;
}

/* One number at *pp (spaces before it skipped): decimal, or hexadecimal after "0x"
 * (log_prio). Returns 1 and advances, 0 when there is no number, -1 when it does
 * not fit in 63 bits. */
static int read_num(const char **pp, const char *e, int64_t *v, bool *hex)
{
    const char *p = *pp;
    while (p < e && (*p == ' ' || *p == '\t'))
        p++;
    bool neg = p < e && *p == '-';
    p += neg;
    uint64_t u = 0;
    const char *d0;
    *hex = e - p > 2 && p[0] == '0' && (p[1] == 'x' || p[1] == 'X');
    if (*hex) {
        p += 2;
        d0 = p;
        for (; p < e; p++) {
            unsigned c = (unsigned char)*p, x;
            if (c - '0' < 10)
                x = c - '0';
            else if ((c | 0x20) - 'a' < 6)
                x = (c | 0x20) - 'a' + 10;
            else
                break;
            if (u >> 59)
                return -1;
            u = u << 4 | x;
        }
    } else {
        d0 = p;
        for (; p < e && (unsigned)(*p - '0') < 10; p++) {
            if (u > (UINT64_MAX - 9) / 10)
                return -1;
            u = u * 10 + (unsigned)(*p - '0');
        }
    }
    if (p == d0)
        return 0;
    if (u > (uint64_t)INT64_MAX)
        return -1;
    *v = neg ? -(int64_t)u : (int64_t)u;
    *pp = p;
    return 1;
}

typedef enum row_res { ROW_OK, ROW_NOT_NUMERIC, ROW_OVERFLOW, ROW_TOO_MANY } row_res;

/* Comma-separated numbers of one line [p, e) into v (at most max); *n set. Hex
 * fields are flagged in *hexmask (first 32 positions). */
static row_res split_row(const char *p, const char *e, int64_t *v, size_t max, size_t *n,
                         uint32_t *hexmask)
{
    size_t k = 0;
    *hexmask = 0;
    for (;;) {
        bool hex;
        if (k == max)
            return ROW_TOO_MANY;
        int r = read_num(&p, e, &v[k], &hex);
        if (r < 0)
            return ROW_OVERFLOW;
        if (r == 0)
            return ROW_NOT_NUMERIC;
        if (hex && k < 32)
            *hexmask |= 1u << k;
        k++;
        while (p < e && (*p == ' ' || *p == '\t' || *p == '\r'))
            p++;
        if (p == e)
            break;
        if (*p != ',')
            return ROW_NOT_NUMERIC;
        p++;
    }
    *n = k;
    return ROW_OK;
}

/* Is a field count a value-log layout? */
static bool value_width_ok(size_t n)
{
    return n >= 4 && n <= MAX_VALUE_FIELDS;
}

/* Does a histogram row width (bins) match a layout of fio's: 1856 >> c (fio 2.99+)
 * or 1216 >> c (fio 2.14 .. 2.21), c = 0..6? Sets *usec and *coarseness. */
static bool hist_width_ok(size_t bins, bool *usec, unsigned *coarseness)
{
    for (unsigned c = 0; c <= 6; c++) {
        if (bins == (size_t)1856 >> c) {
            *usec = false;
            *coarseness = c;
            return true;
        }
        if (bins == (size_t)1216 >> c) {
            *usec = true;
            *coarseness = c;
            return true;
        }
    }
    return false;
}

/* Time order: a per_job_logs=0 file holds its clones one after another, each from its
 * own start: time going back starts the next clone's section. Elsewhere it is a
 * warning (the row is kept: it is what fio wrote). */
static fsc_logseries *check_time(fsc_logfile *f, fsc_logseries *cur, int64_t t, uint32_t line)
{
    if (f->have_t && t < f->last_t) {
        if (!f->name.clone)
            return new_section(f);
        if (f->backwards++ == 0)
            add_warning(f, line, "time goes backwards (%lld ms after %lld ms)", (long long)t,
                        (long long)f->last_t);
    }
    return cur;
}

/* A negative number, a time beyond 10^15 ms or a number JSON cannot hold exactly. */
static bool absurd_row(const int64_t *v, size_t n)
{
    if (v[0] > MAX_T_MS)
        return true;
    for (size_t i = 0; i < n; i++)
        if (v[i] < 0 || v[i] > ((int64_t)1 << 53))
            return true;
    return false;
}

/* Record what each position of a value row looks like, for naming the columns (time
 * and value say nothing: positions from 2). */
static void note_layout(fsc_logfile *f, const int64_t *v, size_t n, uint32_t hexmask)
{
    for (size_t i = 2; i < n; i++) {
        if (v[i] > 1)
            f->over1 |= 1u << i;
        if (v[i] > 3)
            f->over3 |= 1u << i;
    }
    f->hexmask_seen |= hexmask;
}

static void read_value_row(fsc_logfile *f, fsc_logseries **cur, const int64_t *v, size_t n,
                           uint32_t hexmask, uint32_t line)
{
    if (!f->ncols) {
        f->ncols = (unsigned)n;
        if (!(*cur = new_section(f)))
            f->oom = true;
    } else if (n != f->ncols) {
        add_warning(f, line, "row of %zu fields where the log has %u: skipped", n, f->ncols);
        return;
    }
    if (absurd_row(v, n)) {
        add_warning(f, line, "absurd value (negative or beyond any run): row skipped");
        return;
    }
    fsc_logseries *s = check_time(f, *cur, v[0], line);
    if (!s) {
        f->oom = true;
        return;
    }
    *cur = s;
    if (!s->n)
        s->first_line = line;
    note_layout(f, v, n, hexmask);
    if (!fsc_logseries_append(s, v)) {
        f->oom = true;
        return;
    }
    f->have_t = true;
    f->last_t = v[0];
    f->rows++;
}

static void read_hist_row(fsc_logfile *f, fsc_logseries **cur, const int64_t *v, size_t n,
                          uint32_t line)
{
    if (!f->ncols) {
        bool usec;
        unsigned coarse;
        if (n < 4 || !hist_width_ok(n - 3, &usec, &coarse)) {
            f->unknown_layout = true;
            add_warning(f, line, "unknown histogram layout: %zu bins is none of fio's (1856 or "
                        "1216, halved per log_hist_coarseness step)", n >= 3 ? n - 3 : 0);
            return;
        }
        f->ncols = 3;
        f->n_bins = (uint32_t)(n - 3);
        f->usec = usec;
        f->coarseness = coarse;
        if (!(*cur = new_section(f))) {
            f->oom = true;
            return;
        }
    } else if (n != 3 + (size_t)f->n_bins) {
        add_warning(f, line, "histogram row of %zu bins where the log has %u: skipped",
                    n >= 3 ? n - 3 : 0, f->n_bins);
        return;
    }
    if (v[0] < 0 || v[0] > MAX_T_MS || v[1] < 0 || v[1] > 3 || v[2] < 0 || v[2] > MAX_BS) {
        add_warning(f, line, "absurd value (time, direction or block size): row skipped");
        return;
    }
    for (size_t i = 3; i < n; i++)
        if (v[i] < 0) {
            add_warning(f, line, "negative bin count: row skipped");
            return;
        }
    fsc_logseries *s = check_time(f, *cur, v[0], line);
    if (!s) {
        f->oom = true;
        return;
    }
    *cur = s;
    if (!s->n)
        s->first_line = line;
    if (!fsc_logseries_append_hist(s, v[0], v[1], v[2], (const uint64_t *)(v + 3), f->n_bins)) {
        f->oom = true;
        return;
    }
    f->have_t = true;
    f->last_t = v[0];
    f->rows++;
}

/* A line that is not a row: the first one decides whether this is a log at all. */
static void bad_line(fsc_logfile *f, row_res r, size_t n, uint32_t line)
{
    if (!f->rows && !f->ncols && !f->bad_lines && !f->unknown_layout)
        f->first_bad = true;
    f->bad_lines++;
    switch (r) {
    case ROW_OVERFLOW:
        add_warning(f, line, "absurd value (does not fit in 64 bits): row skipped");
        break;
    case ROW_TOO_MANY:
        if (!f->ncols && !f->hist)
            f->unknown_layout = true;
        add_warning(f, line, "unknown layout: more than %zu fields: row skipped", n);
        break;
    default:
        add_warning(f, line, "not a row of numbers: skipped");
    }
}

/* The common row of a value log once its width is known, as fio writes it: ncols
 * plain decimal fields of at most 15 digits, each after at most one space, the line
 * ended by '\n'. Returns the '\n', or NULL to leave the line to the general path.
 * Reads at most FAST_ROW_MAX bytes from p (the caller makes sure they are there). */
#define FAST_ROW_MAX 160
static inline const char *fast_row(const char *p, int64_t *v, unsigned ncols)
{
    for (unsigned k = 0;;) {
        p += *p == ' ';
        const char *d0 = p;
        uint64_t u = 0;
        while ((unsigned)(*p - '0') < 10)
            u = u * 10 + (unsigned)(*p++ - '0');
        if (p == d0 || p - d0 > 15)
            return NULL;
        v[k] = (int64_t)u;
        if (++k == ncols)
            break;
        if (*p != ',')
            return NULL;
        p++;
    }
    p += *p == '\r';
    return *p == '\n' ? p : NULL;
}

static void read_text(fsc_logfile *f, const char *data, size_t len, uint32_t first_line)
{
    size_t max = f->hist ? MAX_HIST_FIELDS : MAX_VALUE_FIELDS;
    int64_t small[MAX_VALUE_FIELDS];
    int64_t *v = f->hist ? malloc(MAX_HIST_FIELDS * sizeof *v) : small;
    if (!v) {
        f->oom = true;
        return;
    }
    fsc_logseries *cur = NULL;
    const char *p = data, *end = data + len;
    uint32_t line = first_line;
    while (p < end && !f->oom) {
        line++;
        /* the common case first: a row like the ones before it, in time order, read
         * without looking for its end first */
        const char *nl;
        if (cur && !f->hist && end - p > FAST_ROW_MAX && (nl = fast_row(p, v, f->ncols)) &&
            v[0] >= f->last_t && v[0] <= MAX_T_MS) {
            note_layout(f, v, f->ncols, 0);
            if (!fsc_logseries_append(cur, v)) {
                f->oom = true;
                break;
            }
            f->last_t = v[0];
            f->rows++;
            p = nl + 1;
            continue;
        }
        nl = memchr(p, '\n', (size_t)(end - p));
        const char *e = nl ? nl : end;
        const char *q = p;
        while (q < e && (*q == ' ' || *q == '\t' || *q == '\r'))
            q++;
        if (q < e) {
            size_t n = 0;
            uint32_t hexmask;
            row_res r = split_row(q, e, v, max, &n, &hexmask);
            if (r == ROW_OK && !nl) {
                /* fio ends every row with a newline: without one the file was cut */
                f->truncated_line = line;
                if ((f->ncols && n != (f->hist ? 3 + (size_t)f->n_bins : f->ncols)) ||
                    (!f->ncols && !f->hist && !value_width_ok(n))) {
                    add_warning(f, line, "truncated last line: skipped");
                    break;
                }
                add_warning(f, line, "last line has no line end (the file may be cut): kept");
            }
            if (r != ROW_OK)
                bad_line(f, r, max, line);
            else if (f->hist)
                read_hist_row(f, &cur, v, n, line);
            else if (!f->ncols && !value_width_ok(n)) {
                f->unknown_layout = true;
                add_warning(f, line, "unknown layout: %zu fields (fio logs have 4 to %d)", n,
                            MAX_VALUE_FIELDS);
            } else if (!f->unknown_layout)
                read_value_row(f, &cur, v, n, hexmask, line);
            if (f->unknown_layout)
                break;
        }
        p = nl ? nl + 1 : end;
    }
    if (v != small)
        free(v);
    f->last_line = line;
}

static fsc_logfile *logfile_new(const fsc_doc *doc, const fsc_logname *name)
{
    fsc_logfile *f = calloc(1, sizeof *f);
    if (!f)
        return NULL;
    f->name = *name;
    f->hist = fsc_logkind_is_hist(name->kind);
    f->path = fsc_strdup(doc->path ? doc->path : "-");
    f->member = doc->member ? fsc_strdup(doc->member) : NULL;
    f->prefix = fsc_strndup(name->prefix ? name->prefix : "", name->prefix_len);
    if (!f->path || (doc->member && !f->member) || !f->prefix) {
        fsc_logfile_free(f);
        return NULL;
    }
    f->name.prefix = f->prefix;
    f->first_line = doc->first_line;
    return f;
}

fsc_logfile *fsc_logfile_read(const fsc_doc *doc, const fsc_logname *name)
{
    fsc_logfile *f = logfile_new(doc, name);
    if (!f)
        return NULL;
    if (name->stored_compressed && doc->len && fsc_logfz_is_zlib(doc->data, doc->len))
        fsc_logfz_read(f, (const unsigned char *)doc->data, doc->len);
    else
        read_text(f, doc->data, doc->len, doc->first_line);
    if (f->oom) {
        fsc_logfile_free(f);
        return NULL;
    }
    return f;
}

bool fsc_logfile_append(fsc_logfile *f, fsc_logfile *next)
{
    bool ok = true;
    if (!next->rows && !next->n_series) {
        /* nothing but (maybe) warnings */
    } else if (f->ncols && next->ncols && (f->ncols != next->ncols || f->n_bins != next->n_bins)) {
        add_warning(f, next->first_line + 1, "the layout changes here (%u fields, was %u): the "
                    "rest of the file is skipped", next->ncols, f->ncols);
        f->unknown_tail = true;
    } else if (!f->unknown_tail) {
        if (!f->ncols) {
            f->ncols = next->ncols;
            f->n_bins = next->n_bins;
            f->usec = next->usec;
            f->coarseness = next->coarseness;
        }
        f->over1 |= next->over1;
        f->over3 |= next->over3;
        f->hexmask_seen |= next->hexmask_seen;
        for (size_t i = 0; ok && i < next->n_series; i++) {
            fsc_logseries *s = next->series[i];
            int64_t t0 = 0;
            bool back = i == 0 && f->have_t && fsc_logseries_read(s, 0, 1, FSC_COL_T, &t0) == 1 &&
                        t0 < f->last_t;
            if (i == 0 && f->n_series && !(back && !f->name.clone)) {
                /* the piece goes on where the last one stopped */
                if (back && f->backwards++ == 0)
                    add_warning(f, s->first_line, "time goes backwards (%lld ms after %lld ms)",
                                (long long)t0, (long long)f->last_t);
                ok = fsc_logseries_concat(f->series[f->n_series - 1], s);
                continue;
            }
            fsc_logseries **slot = FSC_PUSH(f->series, f->n_series, f->cap_series);
            ok = slot != NULL;
            if (ok) {
                *slot = s;
                next->series[i] = NULL;
            }
        }
        f->backwards += next->backwards;
        if (next->have_t) {
            f->have_t = true;
            f->last_t = next->last_t;
        }
        f->rows += next->rows;
        f->unknown_layout |= next->unknown_layout;
    }
    for (size_t i = 0; ok && i < next->n_warnings; i++)
        if (f->n_warnings < MAX_WARNINGS) {
            fsc_warning *w = FSC_PUSH(f->warnings, f->n_warnings, f->cap_warnings);
            ok = w != NULL;
            if (ok) {
                *w = next->warnings[i];
                next->warnings[i].message = NULL;
            }
        } else {
            f->suppressed++;
        }
    f->suppressed += next->suppressed;
    f->bad_lines += next->bad_lines;
    f->last_line = next->last_line;
    fsc_logfile_free(next);
    return ok;
}

/* fio 2.99 moved latencies to nanoseconds; 3.18 added the priority column. Returns
 * major * 1000 + minor, or -1 when not a fio version. */
static int version_code(const char *v)
{
    int maj, min;
    if (!v || sscanf(v, "fio-%d.%d", &maj, &min) != 2)
        return -1;
    return maj * 1000 + min;
}

/* Name the columns of a value log from what its rows showed (see logs.h). */
static void name_value_columns(fsc_logfile *f, int version, fsc_logcol *names)
{
    unsigned n = f->ncols;
    bool last_is_prio = ((f->hexmask_seen >> (n - 1)) & 1) || !((f->over1 >> (n - 1)) & 1);
    bool third_is_dir = !((f->over3 >> 2) & 1); /* dir is 0..3; a window's max is not */
    static const fsc_logcol v4[] = {FSC_COL_T, FSC_COL_VALUE, FSC_COL_DIR, FSC_COL_BS};
    memcpy(names, v4, sizeof v4);
    switch (n) {
    case 5:
        /* fio 3.18+ prints the priority here, older ones (log_offset=1) the offset */
        names[4] = (version >= 0 && version < 3018) || !last_is_prio ? FSC_COL_OFFSET : FSC_COL_PRIO;
        break;
    case 6:
        if (!third_is_dir) {
            static const fsc_logcol m[] = {FSC_COL_T, FSC_COL_VALUE, FSC_COL_MAX,
                                           FSC_COL_DIR, FSC_COL_BS, FSC_COL_PRIO};
            memcpy(names, m, sizeof m);
        } else if (last_is_prio) {
            names[4] = FSC_COL_OFFSET;
            names[5] = FSC_COL_PRIO;
        } else {
            names[4] = FSC_COL_PRIO;
            names[5] = FSC_COL_ISSUE;
        }
        break;
    case 7:
        if (!third_is_dir) {
            static const fsc_logcol m[] = {FSC_COL_T,  FSC_COL_VALUE, FSC_COL_MAX, FSC_COL_DIR,
                                           FSC_COL_BS, FSC_COL_OFFSET, FSC_COL_PRIO};
            memcpy(names, m, sizeof m);
            if (!last_is_prio) {
                names[5] = FSC_COL_PRIO;
                names[6] = FSC_COL_ISSUE;
            }
        } else {
            names[4] = FSC_COL_OFFSET;
            names[5] = FSC_COL_PRIO;
            names[6] = FSC_COL_ISSUE;
        }
        break;
    case 8: {
        static const fsc_logcol m[] = {FSC_COL_T,      FSC_COL_VALUE, FSC_COL_MAX,
                                       FSC_COL_DIR,    FSC_COL_BS,    FSC_COL_OFFSET,
                                       FSC_COL_PRIO,   FSC_COL_ISSUE};
        memcpy(names, m, sizeof m);
        break;
    }
    default:
        break;
    }
}

void fsc_logfile_finish(fsc_logfile *f, const char *fio_version)
{
    if (f->finished)
        return;
    f->finished = true;
    int version = version_code(fio_version);
    fsc_logcol names[FSC_COL_COUNT];
    if (!f->n_series && !f->unknown_layout) {
        /* an empty log (fio writes slat logs of sync engines empty): an empty series */
        if (!f->ncols)
            f->ncols = f->hist ? 3 : 2;
        if (!new_section(f)) {
            f->oom = true;
            return;
        }
    }
    bool value_log = !f->hist && f->ncols && !f->from_binary;
    if (value_log)
        name_value_columns(f, version, names);
    /* latencies: usec before fio 2.99 (known from the run's version only) */
    bool lat = f->name.kind == FSC_LOG_LAT || f->name.kind == FSC_LOG_CLAT ||
               f->name.kind == FSC_LOG_SLAT;
    for (size_t i = 0; i < f->n_series; i++) {
        fsc_logseries *s = f->series[i];
        if (!s)
            continue;
        if (value_log)
            fsc_logseries_name_columns(s, names);
        s->prio_hex = value_log && (s->cols & FSC_COLBIT(FSC_COL_PRIO)) &&
                      ((f->hexmask_seen >> (f->ncols - 1)) & 1);
        if (f->hist) {
            s->n_bins = f->n_bins;
            s->usec = f->usec;
            s->coarseness = f->coarseness;
        } else if (lat) {
            s->usec = version >= 0 && version < 2099;
        }
        s->section = !f->name.clone && f->n_series > 1 ? (int)i + 1 : 0;
        free(s->prefix);
        free(s->job);
        free(s->path);
        free(s->member);
        s->prefix = fsc_strdup(f->prefix);
        s->job = fsc_strdup(f->prefix);
        s->path = fsc_strdup(f->path);
        s->member = f->member ? fsc_strdup(f->member) : NULL;
    }
    if (f->backwards > 1)
        add_warning(f, 0, "time goes backwards %zu times in all", f->backwards);
    if (f->suppressed) {
        char tmp[96];
        snprintf(tmp, sizeof tmp, "%zu more problem line%s not listed", f->suppressed,
                 f->suppressed == 1 ? "" : "s");
        char *msg = fsc_strdup(tmp);
        fsc_warning *w = msg ? FSC_PUSH(f->warnings, f->n_warnings, f->cap_warnings) : NULL;
        if (w) {
            w->line = 0;
            w->message = msg;
        } else {
            free(msg);
        }
    }
}

size_t fsc_logfile_n_series(const fsc_logfile *f)
{
    return f->n_series;
}

fsc_logseries *fsc_logfile_take(fsc_logfile *f, size_t i)
{
    if (i >= f->n_series)
        return NULL;
    fsc_logseries *s = f->series[i];
    f->series[i] = NULL;
    return s;
}

const fsc_logname *fsc_logfile_name(const fsc_logfile *f)
{
    return &f->name;
}

size_t fsc_logfile_rows(const fsc_logfile *f)
{
    return f->rows;
}

bool fsc_logfile_last_ms(const fsc_logfile *f, int64_t *t)
{
    *t = f->have_t ? f->last_t : 0;
    return f->have_t;
}

size_t fsc_logfile_n_warnings(const fsc_logfile *f)
{
    return f->n_warnings;
}

const fsc_warning *fsc_logfile_warning(const fsc_logfile *f, size_t i)
{
    return i < f->n_warnings ? &f->warnings[i] : NULL;
}

bool fsc_logfile_foreign(const fsc_logfile *f)
{
    return !f->rows && f->first_bad;
}

void fsc_logfile_free(fsc_logfile *f)
{
    if (!f)
        return;
    for (size_t i = 0; i < f->n_series; i++)
        fsc_logseries_free(f->series[i]);
    free(f->series);
    for (size_t i = 0; i < f->n_warnings; i++)
        free(f->warnings[i].message);
    free(f->warnings);
    free(f->path);
    free(f->member);
    free(f->prefix);
    free(f);
}

/* ---- shared with log_fz.c ---- */

bool fsc_logfile_warn(fsc_logfile *f, uint32_t line, const char *msg)
{
    return add_warning(f, line, "%s", msg);
}

fsc_logseries *fsc_logfile_section(fsc_logfile *f, unsigned ncols)
{
    if (!f->ncols)
        f->ncols = ncols;
    return new_section(f);
}
