/* SPDX-License-Identifier: MIT */
/* fio job definitions: defaults, job files read with inih, fio-style --key=value
 * command lines, checks across jobs, and writing a set back as a job file. The
 * options themselves are in options.c. */
#include "engine_int.h"
#include "engine_libs.h"

#include <ctype.h>
#include <errno.h>
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
    for (int d = 0; d < 2; d++)
        j->bs_min[d] = j->bs_max[d] = 4096;
    snprintf(j->ioengine, sizeof j->ioengine, "psync");
    j->iodepth = 1;
    j->iodepth_batch = 1;
    j->iodepth_batch_complete_min = 1;
    j->numjobs = 1;
    j->loops = 1;
    j->nrfiles = 1;
    j->file_service_nr = 1;
    j->kb_base = 1024;
    j->invalidate = true;
    j->fadvise_hint = true;
    j->randrepeat = true;
    j->scramble_buffers = true;
    j->do_verify = true;
    j->clat_percentiles = true;
    j->per_job_logs = true;
    j->thinktime_blocks = 1;
    j->fallocate = FSC_FALLOC_POSIX;
    memcpy(j->pcts, default_pcts, sizeof default_pcts);
    j->n_pcts = FSC_ARRAY_SIZE(default_pcts);
}

#define JOB_STRINGS(j) {&(j)->name, &(j)->description, &(j)->filename, &(j)->directory, &(j)->src_file, \
                        &(j)->wait_for, &(j)->bw_log, &(j)->iops_log, &(j)->lat_log, &(j)->hist_log}

static void jobdef_free(fsc_jobdef *j)
{
    char **strs[] = JOB_STRINGS(j);
    for (size_t i = 0; i < FSC_ARRAY_SIZE(strs); i++)
        free(*strs[i]);
    for (size_t i = 0; i < j->n_given; i++) {
        free(j->given[i].key);
        free(j->given[i].val);
    }
    free(j->given);
    memset(j, 0, sizeof *j);
}

/* Deep copy (a job starts as a copy of the global options). */
static bool jobdef_copy(fsc_jobdef *dst, const fsc_jobdef *src)
{
    *dst = *src;
    dst->given = NULL;
    dst->n_given = dst->cap_given = 0;
    char **strs[] = JOB_STRINGS(dst);
    bool ok = true;
    for (size_t i = 0; i < FSC_ARRAY_SIZE(strs); i++)
        if (*strs[i] && !(*strs[i] = fsc_strdup(*strs[i]))) {
            ok = false;
            for (size_t k = i + 1; k < FSC_ARRAY_SIZE(strs); k++)
                *strs[k] = NULL;
            break;
        }
    for (size_t i = 0; ok && i < src->n_given; i++)
        ok = fsc_jobdef_remember(dst, src->given[i].key, src->given[i].val);
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
    for (size_t i = 0; i < js->n_ignored; i++)
        free(js->ignored[i]);
    free(js->ignored);
    memset(js, 0, sizeof *js);
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
    if (fsc_set_str(&copy.name, name) != FSC_OK || (file && fsc_set_str(&copy.src_file, file) != FSC_OK) ||
        !fsc_jobdef_remember(&copy, "name", name)) {
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

/* Set an option; with ignore_unsupported an unknown option is listed instead. */
static fsc_status set_option(fsc_jobset *js, fsc_jobdef *j, const char *key, const char *val, char *err,
                             size_t errlen)
{
    if (js->ignore_unsupported && !fsc_job_option_known(key)) {
        char **slot = FSC_PUSH(js->ignored, js->n_ignored, js->cap_ignored);
        size_t len = strlen(key) + (val ? strlen(val) + 1 : 0) + 1;
        if (!slot || !(*slot = malloc(len)))
            return FSC_E_NOMEM;
        snprintf(*slot, len, "%s%s%s", key, val ? "=" : "", val ? val : "");
        return FSC_OK;
    }
    return fsc_jobdef_set(j, key, val, err, errlen);
}

/* ---- job files (inih) ---- */

typedef struct file_reader {
    FILE *f;
    unsigned line; /* number of the line inih is looking at */
    const char *path;
    fsc_jobset *js;
    fsc_jobdef *cur;
    unsigned section_no;  /* sections seen so far; inih sees them as [sN] */
    bool pending_section; /* a job section just started: tell the handler once */
    char *section_name;   /* its full name (inih would cut it at 50 bytes) */
    char *err;
    size_t errlen;
    fsc_status st;
} file_reader;

#define SECTION_KEY "\x01section"

/* Feeds inih one line at a time, so `line` is the line its handler sees. Leading
 * blanks are dropped (inih would take them as continuation lines), a bare option
 * ("time_based") becomes "time_based=" because fio allows value-less flags, and each
 * job section reaches inih as [sN] plus a marker line so that long or repeated
 * section names never merge two jobs. */
static char *reader_next(char *str, int num, void *stream)
{
    file_reader *r = stream;
    char raw[8192];
    if (r->pending_section) {
        r->pending_section = false;
        snprintf(str, (size_t)num, SECTION_KEY "=\n");
        return str;
    }
    if (!fgets(raw, sizeof raw, r->f))
        return NULL;
    r->line++;
    char *s = raw;
    while (*s == ' ' || *s == '\t')
        s++;
    size_t len = strcspn(s, "\r\n");
    if (!raw[strcspn(raw, "\n")] && !feof(r->f) && r->st == FSC_OK)
        r->st = fail(r->err, r->errlen, FSC_E_SYNTAX, "%s:%u: line too long", r->path, r->line);
    s[len] = '\0';
    while (len && (s[len - 1] == ' ' || s[len - 1] == '\t'))
        s[--len] = '\0';
    if (s[0] == '[') {
        char *close = strchr(s, ']');
        if (!close) {
            if (r->st == FSC_OK)
                r->st = fail(r->err, r->errlen, FSC_E_SYNTAX, "%s:%u: section without ']'", r->path, r->line);
            snprintf(str, (size_t)num, "\n");
            return str;
        }
        *close = '\0';
        if (!strcasecmp(s + 1, "global")) {
            snprintf(str, (size_t)num, "[global]\n");
            return str;
        }
        free(r->section_name);
        r->section_name = fsc_strdup(s + 1);
        if (!r->section_name && r->st == FSC_OK)
            r->st = fail(r->err, r->errlen, FSC_E_NOMEM, "out of memory");
        r->pending_section = true;
        snprintf(str, (size_t)num, "[s%u]\n", ++r->section_no);
        return str;
    }
    bool bare = len && s[0] != ';' && s[0] != '#' && !strchr(s, '=');
    if (len + 2 >= (size_t)num) {
        /* too long for inih: report it ourselves instead of misreading it */
        if (r->st == FSC_OK)
            r->st = fail(r->err, r->errlen, FSC_E_SYNTAX, "%s:%u: line too long", r->path, r->line);
        snprintf(str, (size_t)num, "\n");
        return str;
    }
    snprintf(str, (size_t)num, "%s%s\n", s, bare ? "=" : "");
    return str;
}

static int reader_handler(void *user, const char *section, const char *name, const char *value)
{
    file_reader *r = user;
    if (r->st != FSC_OK)
        return 0;
    if (!strcmp(name, SECTION_KEY)) {
        r->cur = add_job(r->js, r->section_name ? r->section_name : "", r->path, r->line);
        if (!r->cur) {
            r->st = fail(r->err, r->errlen, FSC_E_NOMEM, "%s:%u: out of memory", r->path, r->line);
            return 0;
        }
        return 1;
    }
    if (!strcasecmp(section, "global"))
        r->cur = &r->js->global;
    if (!r->cur) {
        r->st = fail(r->err, r->errlen, FSC_E_SYNTAX, "%s:%u: option '%s' outside of a [section]", r->path,
                     r->line, name);
        return 0;
    }
    char msg[384];
    fsc_status st = set_option(r->js, r->cur, name, value && *value ? value : NULL, msg, sizeof msg);
    if (st != FSC_OK) {
        r->st = fail(r->err, r->errlen, st, "%s:%u: %s", r->path, r->line, msg);
        return 0;
    }
    return 1;
}

static fsc_status read_stream(fsc_jobset *js, FILE *f, const char *path, char *err, size_t errlen)
{
    file_reader r = {.f = f, .path = path, .js = js, .err = err, .errlen = errlen, .st = FSC_OK};
    const char *why;
    if (!fsc_inih_api_open(&why))
        return fail(err, errlen, FSC_E_UNSUPPORTED, "%s: %s", path, why);
    int rc = ini_parse_stream(reader_next, &r, reader_handler, &r);
    free(r.section_name);
    if (r.st != FSC_OK)
        return r.st;
    if (rc > 0)
        return fail(err, errlen, FSC_E_SYNTAX, "%s:%d: not a section, option or comment", path, rc);
    if (rc < 0)
        return fail(err, errlen, FSC_E_IO, "%s: cannot read", path);
    return FSC_OK;
}

fsc_status fsc_jobset_read_file(fsc_jobset *js, const char *path, char *err, size_t errlen)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return fail(err, errlen, FSC_E_IO, "%s: %s", path, strerror(errno));
    fsc_status st = read_stream(js, f, path, err, errlen);
    fclose(f);
    return st;
}

fsc_status fsc_jobset_read_text(fsc_jobset *js, const char *text, size_t len, const char *name, char *err,
                                size_t errlen)
{
    if (!len)
        return FSC_OK;
    FILE *f = fmemopen((void *)text, len, "r");
    if (!f)
        return fail(err, errlen, FSC_E_NOMEM, "out of memory");
    fsc_status st = read_stream(js, f, name, err, errlen);
    fclose(f);
    return st;
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
        char msg[384];
        fsc_status st = set_option(js, cur ? cur : &js->global, key, val, msg, sizeof msg);
        if (st != FSC_OK)
            return fail(err, errlen, st, "--%s: %s", key, msg);
    }
    return FSC_OK;
}

fsc_status fsc_jobset_override(fsc_jobset *js, const char *key, const char *val, char *err, size_t errlen)
{
    char msg[384];
    fsc_status st = set_option(js, &js->global, key, val, msg, sizeof msg);
    for (size_t j = 0; st == FSC_OK && j < js->n_jobs; j++) {
        if (js->ignore_unsupported && !fsc_job_option_known(key))
            break; /* listed once */
        st = fsc_jobdef_set(&js->jobs[j], key, val, msg, sizeof msg);
    }
    return st == FSC_OK ? FSC_OK : fail(err, errlen, st, "--%s: %s", key, msg);
}

fsc_status fsc_jobset_check(const fsc_jobset *js, char *err, size_t errlen)
{
    if (js->n_jobs == 0)
        return fail(err, errlen, FSC_E_USAGE, "no job defined (give a job file or --name=NAME)");
    uint64_t threads = 0;
    for (size_t i = 0; i < js->n_jobs; i++) {
        const fsc_jobdef *j = &js->jobs[i];
        const char *where = j->src_file ? j->src_file : "command line";
        threads += j->numjobs;
        if (threads > 4096)
            return fail(err, errlen, FSC_E_USAGE, "%s: at most 4096 threads in all jobs (numjobs adds up)", where);
        for (int d = 0; d < 2; d++) {
            if (j->direct && (j->bs_min[d] % 512 || j->bs_max[d] % 512))
                return fail(err, errlen, FSC_E_USAGE, "%s: job '%s': direct=1 needs bs a multiple of 512", where,
                            j->name);
            for (size_t k = 0; j->direct && k < j->n_bssplit[d]; k++)
                if (j->bssplit[d][k].bs % 512)
                    return fail(err, errlen, FSC_E_USAGE,
                                "%s: job '%s': direct=1 needs every bssplit size a multiple of 512", where, j->name);
        }
        uint64_t max_bs = j->bs_max[0] > j->bs_max[1] ? j->bs_max[0] : j->bs_max[1];
        uint64_t per_file = j->filesize ? j->filesize : j->size / j->nrfiles;
        if (j->size && per_file < max_bs)
            return fail(err, errlen, FSC_E_USAGE, "%s: job '%s': size is smaller than bs%s", where, j->name,
                        j->nrfiles > 1 ? " (per file: size / nrfiles)" : "");
        if (!j->size && !j->filesize && !j->filename && !j->size_pct && strcmp(j->ioengine, "null") != 0)
            return fail(err, errlen, FSC_E_USAGE, "%s: job '%s': size is not set (e.g. --size=64m)", where,
                        j->name);
        if (!j->size && !j->filesize && !strcmp(j->ioengine, "null") && !j->filename)
            return fail(err, errlen, FSC_E_USAGE, "%s: job '%s': size is not set (e.g. --size=64m)", where,
                        j->name);
        if (j->wait_for) {
            bool found = false;
            for (size_t k = 0; k < i && !found; k++)
                found = !strcmp(js->jobs[k].name, j->wait_for);
            if (!found)
                return fail(err, errlen, FSC_E_USAGE, "%s: job '%s': wait_for=%s names no earlier job", where,
                            j->name, j->wait_for);
        }
        if (j->verify != FSC_VERIFY_NONE && j->bs_min[1] < 64)
            return fail(err, errlen, FSC_E_USAGE, "%s: job '%s': verify needs blocks of at least 64 bytes", where,
                        j->name);
        if (j->iodepth_batch > j->iodepth || j->iodepth_batch_complete_max > j->iodepth)
            return fail(err, errlen, FSC_E_USAGE, "%s: job '%s': iodepth_batch values must not exceed iodepth=%u",
                        where, j->name, j->iodepth);
    }
    return FSC_OK;
}

/* ---- back to a job file ---- */

static void write_section(fsc_buf *out, const char *name, const fsc_jobdef *j, const fsc_jobdef *global)
{
    fsc_buf_printf(out, "[%s]\n", name);
    for (size_t i = 0; i < j->n_given; i++) {
        const fsc_opt *o = &j->given[i];
        if (!strcmp(o->key, "name"))
            continue;
        /* a job repeats the global options it inherited: write only its own */
        bool inherited = false;
        for (size_t g = 0; global && g < global->n_given && !inherited; g++)
            inherited = !strcmp(global->given[g].key, o->key) && !strcmp(global->given[g].val, o->val);
        if (inherited)
            continue;
        if (o->val[0])
            fsc_buf_printf(out, "%s=%s\n", o->key, o->val);
        else
            fsc_buf_printf(out, "%s\n", o->key);
    }
}

void fsc_jobset_write(fsc_buf *out, const fsc_jobset *js)
{
    if (js->global.n_given) {
        write_section(out, "global", &js->global, NULL);
        fsc_buf_putc(out, '\n');
    }
    for (size_t i = 0; i < js->n_jobs; i++) {
        write_section(out, js->jobs[i].name, &js->jobs[i], &js->global);
        if (i + 1 < js->n_jobs)
            fsc_buf_putc(out, '\n');
    }
}
