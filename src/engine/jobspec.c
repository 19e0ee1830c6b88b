/* SPDX-License-Identifier: MIT */
/* fio job definitions: the supported subset of fio's options (one table), job files
 * read with inih, and fio-style --key=value command lines. */
#include "fioscope/engine.h"

#include <ctype.h>
#include <errno.h>
#include <ini.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static fsc_status fail(char *err, size_t errlen, fsc_status st, const char *fmt, ...) FSC_PRINTF(4, 5);
static fsc_status fail(char *err, size_t errlen, fsc_status st, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
    return st;
}

/* fio's default percentile list. */
static const double default_pcts[] = {1, 5, 10, 20, 30, 40, 50, 60, 70, 80, 90, 95, 99, 99.5, 99.9, 99.95, 99.99};

static void jobdef_defaults(fsc_jobdef *j)
{
    memset(j, 0, sizeof *j);
    j->rw = FSC_RW_READ;
    snprintf(j->rw_text, sizeof j->rw_text, "read");
    j->rwmixread = 50;
    j->bs = 4096;
    snprintf(j->ioengine, sizeof j->ioengine, "psync");
    j->iodepth = 1;
    j->numjobs = 1;
    j->loops = 1;
    j->kb_base = 1024;
    memcpy(j->pcts, default_pcts, sizeof default_pcts);
    j->n_pcts = FSC_ARRAY_SIZE(default_pcts);
}

static void jobdef_free(fsc_jobdef *j)
{
    free(j->name);
    free(j->filename);
    free(j->directory);
    free(j->src_file);
    for (size_t i = 0; i < j->n_given; i++) {
        free(j->given[i].key);
        free(j->given[i].val);
    }
    free(j->given);
    memset(j, 0, sizeof *j);
}

static bool dup_into(char **dst, const char *src)
{
    if (!src) {
        *dst = NULL;
        return true;
    }
    *dst = fsc_strdup(src);
    return *dst != NULL;
}

/* Deep copy (a job starts as a copy of the global options). */
static bool jobdef_copy(fsc_jobdef *dst, const fsc_jobdef *src)
{
    *dst = *src;
    dst->given = NULL;
    dst->n_given = dst->cap_given = 0;
    bool ok = dup_into(&dst->name, src->name) & dup_into(&dst->filename, src->filename) &
              dup_into(&dst->directory, src->directory) & dup_into(&dst->src_file, src->src_file);
    for (size_t i = 0; ok && i < src->n_given; i++) {
        fsc_opt *o = FSC_PUSH(dst->given, dst->n_given, dst->cap_given);
        ok = o && dup_into(&o->key, src->given[i].key) && dup_into(&o->val, src->given[i].val);
        if (!ok && o)
            o->val = NULL;
    }
    if (!ok)
        jobdef_free(dst);
    return ok;
}

bool fsc_jobset_init(fsc_jobset *js)
{
    memset(js, 0, sizeof *js);
    jobdef_defaults(&js->global);
    return true;
}

void fsc_jobset_free(fsc_jobset *js)
{
    if (!js)
        return;
    jobdef_free(&js->global);
    for (size_t i = 0; i < js->n_jobs; i++)
        jobdef_free(&js->jobs[i]);
    free(js->jobs);
    memset(js, 0, sizeof *js);
}

/* ---- value parsers ---- */

fsc_status fsc_parse_fio_size(const char *s, uint64_t *out)
{
    char *end;
    errno = 0;
    if (!s || !isdigit((unsigned char)*s))
        return FSC_E_SYNTAX;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno)
        return FSC_E_RANGE;
    unsigned shift = 0;
    switch (tolower((unsigned char)*end)) {
    case '\0': break;
    case 'k': shift = 10; break;
    case 'm': shift = 20; break;
    case 'g': shift = 30; break;
    case 't': shift = 40; break;
    case 'p': shift = 50; break;
    default: return FSC_E_SYNTAX;
    }
    if (*end) {
        end++;
        /* fio accepts 4k, 4kb, 4kib (all 1024-based for sizes) */
        if (!strcasecmp(end, "ib") || !strcasecmp(end, "b"))
            end += strlen(end);
        if (*end)
            return FSC_E_SYNTAX;
    }
    if (shift && v > (UINT64_MAX >> shift))
        return FSC_E_RANGE;
    *out = (uint64_t)v << shift;
    return FSC_OK;
}

/* fio's time values: plain numbers are seconds; us, ms, s, m, h, d suffixes. */
static fsc_status parse_time_ms(const char *s, uint64_t *out_ms)
{
    static const struct {
        const char *sfx;
        uint64_t num, den; /* value * num / den = ms */
    } units[] = {{"", 1000, 1},    {"s", 1000, 1},     {"sec", 1000, 1}, {"ms", 1, 1},
                 {"msec", 1, 1},   {"us", 1, 1000},    {"usec", 1, 1000}, {"m", 60000, 1},
                 {"min", 60000, 1}, {"h", 3600000, 1}, {"d", 86400000, 1}};
    char *end;
    if (!s || !isdigit((unsigned char)*s))
        return FSC_E_SYNTAX;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno || v > UINT32_MAX)
        return FSC_E_RANGE;
    for (size_t i = 0; i < FSC_ARRAY_SIZE(units); i++)
        if (!strcasecmp(end, units[i].sfx)) {
            *out_ms = (uint64_t)v * units[i].num / units[i].den;
            return FSC_OK;
        }
    return FSC_E_SYNTAX;
}

static fsc_status parse_uint(const char *s, unsigned lo, unsigned hi, unsigned *out)
{
    char *end;
    if (!s || !isdigit((unsigned char)*s))
        return FSC_E_SYNTAX;
    errno = 0;
    unsigned long v = strtoul(s, &end, 10);
    if (*end)
        return FSC_E_SYNTAX;
    if (errno || v < lo || v > hi)
        return FSC_E_RANGE;
    *out = (unsigned)v;
    return FSC_OK;
}

/* A flag: no value or an empty one sets it; 0/1, true/false, yes/no, on/off. */
static fsc_status parse_bool(const char *s, bool *out)
{
    static const char *const yes[] = {"", "1", "true", "yes", "on"};
    static const char *const no[] = {"0", "false", "no", "off"};
    if (!s) {
        *out = true;
        return FSC_OK;
    }
    for (size_t i = 0; i < FSC_ARRAY_SIZE(yes); i++)
        if (!strcasecmp(s, yes[i]))
            return *out = true, FSC_OK;
    for (size_t i = 0; i < FSC_ARRAY_SIZE(no); i++)
        if (!strcasecmp(s, no[i]))
            return *out = false, FSC_OK;
    return FSC_E_SYNTAX;
}

/* ---- the option table ---- */

typedef fsc_status (*opt_fn)(fsc_jobdef *j, const char *val, char *err, size_t errlen);

static fsc_status set_str(char **dst, const char *val)
{
    char *s = fsc_strdup(val ? val : "");
    if (!s)
        return FSC_E_NOMEM;
    free(*dst);
    *dst = s;
    return FSC_OK;
}

static fsc_status opt_name(fsc_jobdef *j, const char *v, char *e, size_t n)
{
    (void)e, (void)n;
    return set_str(&j->name, v);
}
static fsc_status opt_filename(fsc_jobdef *j, const char *v, char *e, size_t n)
{
    (void)e, (void)n;
    return set_str(&j->filename, v);
}
static fsc_status opt_directory(fsc_jobdef *j, const char *v, char *e, size_t n)
{
    (void)e, (void)n;
    return set_str(&j->directory, v);
}
static fsc_status opt_size(fsc_jobdef *j, const char *v, char *e, size_t n)
{
    (void)e, (void)n;
    return fsc_parse_fio_size(v, &j->size);
}
static fsc_status opt_bs(fsc_jobdef *j, const char *v, char *e, size_t n)
{
    fsc_status st = fsc_parse_fio_size(v, &j->bs);
    if (st == FSC_OK && (j->bs == 0 || j->bs > (64u << 20)))
        return fail(e, n, FSC_E_RANGE, "bs=%s: must be between 1 byte and 64MiB", v);
    return st;
}

static fsc_status opt_rw(fsc_jobdef *j, const char *v, char *e, size_t n)
{
    static const struct {
        const char *name;
        fsc_rwmode mode;
    } modes[] = {{"read", FSC_RW_READ},           {"write", FSC_RW_WRITE}, {"randread", FSC_RW_RANDREAD},
                 {"randwrite", FSC_RW_RANDWRITE}, {"rw", FSC_RW_RW},       {"readwrite", FSC_RW_RW},
                 {"randrw", FSC_RW_RANDRW}};
    for (size_t i = 0; v && i < FSC_ARRAY_SIZE(modes); i++)
        if (!strcmp(v, modes[i].name)) {
            j->rw = modes[i].mode;
            snprintf(j->rw_text, sizeof j->rw_text, "%s", v);
            return FSC_OK;
        }
    return fail(e, n, FSC_E_UNSUPPORTED,
                "rw=%s is not supported (read, write, randread, randwrite, rw, readwrite, randrw)",
                v ? v : "");
}

static fsc_status opt_rwmixread(fsc_jobdef *j, const char *v, char *e, size_t n)
{
    (void)e, (void)n;
    return parse_uint(v, 0, 100, &j->rwmixread);
}
static fsc_status opt_rwmixwrite(fsc_jobdef *j, const char *v, char *e, size_t n)
{
    unsigned w;
    fsc_status st = parse_uint(v, 0, 100, &w);
    (void)e, (void)n;
    if (st == FSC_OK)
        j->rwmixread = 100 - w;
    return st;
}

static fsc_status opt_ioengine(fsc_jobdef *j, const char *v, char *e, size_t n)
{
    const char *const *names = fsc_engine_names();
    for (size_t i = 0; v && names[i]; i++)
        if (!strcmp(v, names[i])) {
            snprintf(j->ioengine, sizeof j->ioengine, "%s", v);
            return FSC_OK;
        }
    char list[128] = "";
    for (size_t i = 0; names[i]; i++)
        snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", i ? ", " : "", names[i]);
    return fail(e, n, FSC_E_UNSUPPORTED, "ioengine=%s is not available in this build (available: %s)",
                v ? v : "", list);
}

static fsc_status opt_iodepth(fsc_jobdef *j, const char *v, char *e, size_t n)
{
    (void)e, (void)n;
    return parse_uint(v, 1, 4096, &j->iodepth);
}
static fsc_status opt_numjobs(fsc_jobdef *j, const char *v, char *e, size_t n)
{
    (void)e, (void)n;
    return parse_uint(v, 1, 1024, &j->numjobs);
}
static fsc_status opt_loops(fsc_jobdef *j, const char *v, char *e, size_t n)
{
    (void)e, (void)n;
    return parse_uint(v, 1, UINT32_MAX, &j->loops);
}
static fsc_status opt_fsync(fsc_jobdef *j, const char *v, char *e, size_t n)
{
    (void)e, (void)n;
    return parse_uint(v, 0, UINT32_MAX, &j->fsync);
}
static fsc_status opt_kb_base(fsc_jobdef *j, const char *v, char *e, size_t n)
{
    fsc_status st = parse_uint(v, 1000, 1024, &j->kb_base);
    if (st == FSC_OK && j->kb_base != 1000 && j->kb_base != 1024)
        return fail(e, n, FSC_E_RANGE, "kb_base=%s: must be 1000 or 1024", v);
    return st;
}
static fsc_status opt_direct(fsc_jobdef *j, const char *v, char *e, size_t n)
{
    (void)e, (void)n;
    return parse_bool(v, &j->direct);
}
static fsc_status opt_buffered(fsc_jobdef *j, const char *v, char *e, size_t n)
{
    bool b;
    fsc_status st = parse_bool(v, &b);
    (void)e, (void)n;
    if (st == FSC_OK)
        j->direct = !b;
    return st;
}
static fsc_status opt_time_based(fsc_jobdef *j, const char *v, char *e, size_t n)
{
    (void)e, (void)n;
    return parse_bool(v, &j->time_based);
}
static fsc_status opt_group_reporting(fsc_jobdef *j, const char *v, char *e, size_t n)
{
    (void)e, (void)n;
    return parse_bool(v, &j->group_reporting);
}
static fsc_status opt_new_group(fsc_jobdef *j, const char *v, char *e, size_t n)
{
    (void)e, (void)n;
    return parse_bool(v, &j->new_group);
}
static fsc_status opt_thread(fsc_jobdef *j, const char *v, char *e, size_t n)
{
    bool b;
    (void)j;
    fsc_status st = parse_bool(v, &b);
    if (st == FSC_OK && !b)
        return fail(e, n, FSC_E_UNSUPPORTED, "thread=0: fioscope always runs jobs as threads");
    return st;
}
static fsc_status opt_runtime(fsc_jobdef *j, const char *v, char *e, size_t n)
{
    (void)e, (void)n;
    return parse_time_ms(v, &j->runtime_ms);
}
static fsc_status opt_ramp_time(fsc_jobdef *j, const char *v, char *e, size_t n)
{
    (void)e, (void)n;
    return parse_time_ms(v, &j->ramp_ms);
}

static fsc_status opt_percentile_list(fsc_jobdef *j, const char *v, char *e, size_t n)
{
    size_t k = 0;
    const char *p = v ? v : "";
    while (*p) {
        char *end;
        double d = strtod(p, &end);
        if (end == p || d < 0 || d > 100 || (*end && *end != ':'))
            return fail(e, n, FSC_E_SYNTAX, "percentile_list=%s: expected numbers 0-100 separated by ':'", v);
        if (k == FSC_MAX_PCTS)
            return fail(e, n, FSC_E_RANGE, "percentile_list=%s: at most %d entries", v, FSC_MAX_PCTS);
        j->pcts[k++] = d;
        p = *end ? end + 1 : end;
    }
    if (k == 0)
        return fail(e, n, FSC_E_SYNTAX, "percentile_list: empty list");
    /* fio sorts the list */
    for (size_t a = 1; a < k; a++)
        for (size_t b = a; b > 0 && j->pcts[b - 1] > j->pcts[b]; b--) {
            double t = j->pcts[b];
            j->pcts[b] = j->pcts[b - 1];
            j->pcts[b - 1] = t;
        }
    j->n_pcts = k;
    return FSC_OK;
}

static const struct {
    const char *name;
    opt_fn fn;
} options[] = {
    {"name", opt_name},
    {"filename", opt_filename},
    {"directory", opt_directory},
    {"size", opt_size},
    {"filesize", opt_size},
    {"rw", opt_rw},
    {"readwrite", opt_rw},
    {"rwmixread", opt_rwmixread},
    {"rwmixwrite", opt_rwmixwrite},
    {"bs", opt_bs},
    {"blocksize", opt_bs},
    {"ioengine", opt_ioengine},
    {"iodepth", opt_iodepth},
    {"direct", opt_direct},
    {"buffered", opt_buffered},
    {"numjobs", opt_numjobs},
    {"runtime", opt_runtime},
    {"timeout", opt_runtime},
    {"time_based", opt_time_based},
    {"ramp_time", opt_ramp_time},
    {"loops", opt_loops},
    {"fsync", opt_fsync},
    {"group_reporting", opt_group_reporting},
    {"stonewall", opt_new_group},
    {"wait_for_previous", opt_new_group},
    {"new_group", opt_new_group},
    {"percentile_list", opt_percentile_list},
    {"kb_base", opt_kb_base},
    {"thread", opt_thread},
};

static bool remember_option(fsc_jobdef *j, const char *key, const char *val)
{
    for (size_t i = 0; i < j->n_given; i++)
        if (!strcmp(j->given[i].key, key)) {
            char *v = fsc_strdup(val ? val : "");
            if (!v)
                return false;
            free(j->given[i].val);
            j->given[i].val = v;
            return true;
        }
    fsc_opt *o = FSC_PUSH(j->given, j->n_given, j->cap_given);
    if (!o)
        return false;
    o->key = fsc_strdup(key);
    o->val = fsc_strdup(val ? val : "");
    if (!o->key || !o->val) {
        free(o->key);
        free(o->val);
        j->n_given--;
        return false;
    }
    return true;
}

fsc_status fsc_jobdef_set(fsc_jobdef *j, const char *key, const char *val, char *err, size_t errlen)
{
    for (size_t i = 0; i < FSC_ARRAY_SIZE(options); i++) {
        if (strcmp(key, options[i].name))
            continue;
        err[0] = '\0';
        fsc_status st = options[i].fn(j, val, err, errlen);
        if (st != FSC_OK) {
            if (!err[0])
                snprintf(err, errlen, "%s=%s: %s", key, val ? val : "", fsc_strerror(st));
            return st == FSC_E_NOMEM ? st : FSC_E_USAGE;
        }
        return remember_option(j, key, val) ? FSC_OK : FSC_E_NOMEM;
    }
    return fail(err, errlen, FSC_E_USAGE, "unknown or unsupported option '%s'", key);
}

/* Start a job named name as a copy of the global options. */
static fsc_jobdef *add_job(fsc_jobset *js, const char *name, const char *file, unsigned line)
{
    fsc_jobdef copy;
    if (!jobdef_copy(&copy, &js->global))
        return NULL;
    copy.new_group = false; /* stonewall applies to the job that says it */
    free(copy.src_file);
    copy.src_file = NULL;
    copy.src_line = line;
    if (set_str(&copy.name, name) != FSC_OK || (file && set_str(&copy.src_file, file) != FSC_OK) ||
        !remember_option(&copy, "name", name)) {
        jobdef_free(&copy);
        return NULL;
    }
    fsc_jobdef *slot = FSC_PUSH(js->jobs, js->n_jobs, js->cap_jobs);
    if (!slot) {
        jobdef_free(&copy);
        return NULL;
    }
    *slot = copy;
    return slot;
}

/* ---- job files (inih) ---- */

typedef struct file_reader {
    FILE *f;
    unsigned line; /* number of the line inih is looking at */
    const char *path;
    fsc_jobset *js;
    fsc_jobdef *cur;
    char section[128];
    char pending_name[128]; /* a job section just started: give inih its name= line */
    char *err;
    size_t errlen;
    fsc_status st;
} file_reader;

/* Feeds inih one line at a time, so `line` is the line its handler sees. Leading
 * blanks are dropped (inih would take them as continuation lines) and a bare
 * option ("time_based") becomes "time_based=" because fio allows value-less flags. */
static char *reader_next(char *str, int num, void *stream)
{
    file_reader *r = stream;
    char raw[4096];
    if (r->pending_name[0]) {
        /* inih calls the handler only for options; this makes an empty [job] a job too */
        snprintf(str, (size_t)num, "name=%s\n", r->pending_name);
        r->pending_name[0] = '\0';
        return str;
    }
    if (!fgets(raw, sizeof raw, r->f))
        return NULL;
    r->line++;
    char *s = raw;
    while (*s == ' ' || *s == '\t')
        s++;
    size_t len = strcspn(s, "\r\n");
    s[len] = '\0';
    bool bare = len && s[0] != '[' && s[0] != ';' && s[0] != '#' && !strchr(s, '=');
    if (len + 2 >= (size_t)num) {
        /* too long for inih: report it ourselves instead of misreading it */
        if (r->st == FSC_OK)
            r->st = fail(r->err, r->errlen, FSC_E_SYNTAX, "%s:%u: line too long", r->path, r->line);
        snprintf(str, (size_t)num, "\n");
        return str;
    }
    snprintf(str, (size_t)num, "%s%s\n", s, bare ? "=" : "");
    char *close = s[0] == '[' ? strchr(s, ']') : NULL;
    if (close && (size_t)(close - s - 1) < sizeof r->pending_name) {
        snprintf(r->pending_name, sizeof r->pending_name, "%.*s", (int)(close - s - 1), s + 1);
        if (!strcasecmp(r->pending_name, "global"))
            r->pending_name[0] = '\0';
    }
    return str;
}

static int reader_handler(void *user, const char *section, const char *name, const char *value)
{
    file_reader *r = user;
    if (r->st != FSC_OK)
        return 0;
    if (!r->cur || strcmp(r->section, section) != 0) {
        /* a new section: [global] or a job (inih calls us per option, so this is its first) */
        snprintf(r->section, sizeof r->section, "%s", section);
        r->cur = strcasecmp(section, "global") == 0 ? &r->js->global : add_job(r->js, section, r->path, r->line);
        if (!r->cur) {
            r->st = fail(r->err, r->errlen, FSC_E_NOMEM, "%s:%u: out of memory", r->path, r->line);
            return 0;
        }
    }
    char msg[256];
    fsc_status st = fsc_jobdef_set(r->cur, name, value, msg, sizeof msg);
    if (st != FSC_OK) {
        r->st = fail(r->err, r->errlen, st, "%s:%u: %s", r->path, r->line, msg);
        return 0;
    }
    return 1;
}

fsc_status fsc_jobset_read_file(fsc_jobset *js, const char *path, char *err, size_t errlen)
{
    file_reader r = {.path = path, .js = js, .err = err, .errlen = errlen, .st = FSC_OK};
    r.f = fopen(path, "r");
    if (!r.f)
        return fail(err, errlen, FSC_E_IO, "%s: %s", path, strerror(errno));
    int rc = ini_parse_stream(reader_next, &r, reader_handler, &r);
    fclose(r.f);
    if (r.st != FSC_OK)
        return r.st;
    if (rc > 0)
        return fail(err, errlen, FSC_E_SYNTAX, "%s:%d: not a section, option or comment", path, rc);
    if (rc < 0)
        return fail(err, errlen, FSC_E_IO, "%s: cannot read", path);
    return FSC_OK;
}

/* ---- command line ---- */

fsc_status fsc_jobset_read_args(fsc_jobset *js, int argc, char **argv, char *err, size_t errlen)
{
    fsc_jobdef *cur = NULL;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        if (strncmp(a, "--", 2) != 0 || !a[2])
            return fail(err, errlen, FSC_E_USAGE, "unexpected argument '%s'", a);
        const char *eq = strchr(a, '=');
        size_t klen = eq ? (size_t)(eq - a - 2) : strlen(a + 2);
        char key[64];
        if (klen >= sizeof key)
            return fail(err, errlen, FSC_E_USAGE, "unknown or unsupported option '%s'", a);
        memcpy(key, a + 2, klen);
        key[klen] = '\0';
        const char *val = eq ? eq + 1 : NULL;
        if (!strcmp(key, "name")) {
            if (!val || !*val)
                return fail(err, errlen, FSC_E_USAGE, "--name needs a value");
            cur = add_job(js, val, NULL, 0);
            if (!cur)
                return fail(err, errlen, FSC_E_NOMEM, "out of memory");
            continue;
        }
        char msg[256];
        fsc_status st = fsc_jobdef_set(cur ? cur : &js->global, key, val, msg, sizeof msg);
        if (st != FSC_OK)
            return fail(err, errlen, st, "--%s: %s", key, msg);
    }
    return FSC_OK;
}

fsc_status fsc_jobset_check(const fsc_jobset *js, char *err, size_t errlen)
{
    if (js->n_jobs == 0)
        return fail(err, errlen, FSC_E_USAGE, "no job defined (give a job file or --name=NAME)");
    for (size_t i = 0; i < js->n_jobs; i++) {
        const fsc_jobdef *j = &js->jobs[i];
        const char *where = j->src_file ? j->src_file : "command line";
        if (j->direct && j->bs % 512)
            return fail(err, errlen, FSC_E_USAGE, "%s: job '%s': direct=1 needs bs a multiple of 512",
                        where, j->name);
        if (j->size && j->size < j->bs)
            return fail(err, errlen, FSC_E_USAGE, "%s: job '%s': size is smaller than bs", where, j->name);
        if (!j->size && !j->filename)
            return fail(err, errlen, FSC_E_USAGE, "%s: job '%s': size is not set (e.g. --size=64m)",
                        where, j->name);
    }
    return FSC_OK;
}
