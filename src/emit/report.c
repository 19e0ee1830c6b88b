/* SPDX-License-Identifier: MIT */
/*
 * `fioscope report`: builds the tables and charts of a runset once, then writes
 * index.html, report.md (both from templates/), report.xlsx and charts/NAME.png.
 */
#include "fioscope/report.h"

#include "fioscope/chart.h"
#include "fioscope/model_json.h"
#include "fioscope/table.h"
#include "report_int.h"
#include "tpl.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define DEFAULT_W 1600
#define DEFAULT_H 900

/* The metric families: one workbook sheet and one page section each. */
static const fsc_report_family family_specs[] = {
    {"IOPS", "label,run,read.iops,write.iops,trim.iops,mixed.iops", true, NULL},
    {"Bandwidth", "label,run,read.bw_bytes,write.bw_bytes,trim.bw_bytes,mixed.bw_bytes", true, NULL},
    {"Latency",
     "label,run,read.clat_ns.mean,read.clat_ns.p99,read.clat_ns.max,write.clat_ns.mean,"
     "write.clat_ns.p99,write.clat_ns.max,trim.clat_ns.mean,trim.clat_ns.p99,read.lat_ns.mean,"
     "write.lat_ns.mean,mixed.clat_ns.mean,mixed.clat_ns.p99",
     true, NULL},
    {"CPU", "label,run,usr_cpu,sys_cpu,ctx,majf,minf", false, NULL},
};
#define N_FAMILIES (sizeof family_specs / sizeof family_specs[0])

/* Bar charts per label: file name, title, metrics (one unit per chart). */
static const struct {
    const char *file, *title, *y_title, *metrics;
} bar_specs[] = {
    {"iops.png", "IOPS per job", "IOPS", "read.iops,write.iops,trim.iops,mixed.iops"},
    {"bandwidth.png", "Bandwidth per job", "bandwidth", "read.bw_bytes,write.bw_bytes,trim.bw_bytes,mixed.bw_bytes"},
    {"latency.png", "Completion latency per job: mean and p99", "completion latency",
     "read.clat_ns.mean,read.clat_ns.p99,write.clat_ns.mean,write.clat_ns.p99,mixed.clat_ns.mean,"
     "mixed.clat_ns.p99"},
};

typedef struct chart_file {
    char *file;  /* "iops.png" (owned) */
    char *title; /* owned */
    fsc_buf png;
} chart_file;

typedef struct report {
    const fsc_runset *set;
    const fsc_report_opts *o;
    fsc_buf *err;
    fsc_table *summary;
    fsc_report_family fam[N_FAMILIES];
    chart_file *charts;
    size_t n_charts, cap_charts;
} report;

/* ---- the output folder ---- */

static bool dir_is_empty(const char *path)
{
    DIR *d = opendir(path);
    if (!d)
        return false;
    struct dirent *e;
    bool empty = true;
    while (empty && (e = readdir(d)))
        empty = !strcmp(e->d_name, ".") || !strcmp(e->d_name, "..");
    closedir(d);
    return empty;
}

static char *join(const char *dir, const char *name)
{
    fsc_buf b = {0};
    fsc_buf_printf(&b, "%s/%s", dir, name);
    if (b.oom) {
        fsc_buf_free(&b);
        return NULL;
    }
    return b.data;
}

static bool has_marker(const char *dir)
{
    char *m = join(dir, FSC_REPORT_MARKER);
    struct stat st;
    bool ok = m && stat(m, &st) == 0 && S_ISREG(st.st_mode);
    free(m);
    return ok;
}

/* mkdir -p for the report folder. */
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

/* Remove the charts of an earlier report so that none is left over. */
static void remove_old_charts(const char *charts)
{
    DIR *d = opendir(charts);
    if (!d)
        return;
    struct dirent *e;
    while ((e = readdir(d))) {
        size_t n = strlen(e->d_name);
        if (n > 4 && !strcmp(e->d_name + n - 4, ".png")) {
            char *p = join(charts, e->d_name);
            if (p)
                unlink(p);
            free(p);
        }
    }
    closedir(d);
}

static fsc_status prepare_dir(const char *dir, fsc_buf *err)
{
    struct stat st;
    if (stat(dir, &st) == 0) {
        if (!S_ISDIR(st.st_mode)) {
            fsc_buf_printf(err, "%s: exists and is not a directory", dir);
            return FSC_E_USAGE;
        }
        if (!has_marker(dir) && !dir_is_empty(dir)) {
            fsc_buf_printf(err,
                           "%s: directory is not empty and was not written by fioscope "
                           "(no %s inside); choose another -o DIR",
                           dir, FSC_REPORT_MARKER);
            return FSC_E_USAGE;
        }
    } else if (!make_dirs(dir)) {
        fsc_buf_printf(err, "%s: cannot create directory: %s", dir, strerror(errno));
        return FSC_E_IO;
    }
    char *charts = join(dir, "charts");
    if (!charts)
        return FSC_E_NOMEM;
    bool ok = mkdir(charts, 0777) == 0 || errno == EEXIST;
    if (ok)
        remove_old_charts(charts);
    else
        fsc_buf_printf(err, "%s: cannot create directory: %s", charts, strerror(errno));
    free(charts);
    return ok ? FSC_OK : FSC_E_IO;
}

/* Write data to dir/name under a temporary name, then rename it into place. */
static fsc_status write_atomic(const char *dir, const char *name, const void *data, size_t len,
                               fsc_buf *err)
{
    char *path = join(dir, name), *tmp = path ? join(dir, ".tmp.XXXXXX") : NULL;
    if (!tmp) {
        free(path);
        return FSC_E_NOMEM;
    }
    int fd = mkstemp(tmp);
    fsc_status st = FSC_OK;
    if (fd < 0) {
        fsc_buf_printf(err, "%s: cannot create: %s", path, strerror(errno));
        st = FSC_E_IO;
    } else {
        FILE *f = fdopen(fd, "wb");
        bool ok = f && (len == 0 || fwrite(data, 1, len, f) == len);
        ok = (f ? fclose(f) == 0 : (close(fd), false)) && ok;
        /* mkstemp makes 0600; a report is for reading by others too. */
        ok = ok && chmod(tmp, 0644) == 0 && rename(tmp, path) == 0;
        if (!ok) {
            fsc_buf_printf(err, "%s: cannot write: %s", path, strerror(errno));
            unlink(tmp);
            st = FSC_E_IO;
        }
    }
    free(path);
    free(tmp);
    return st;
}

/* ---- tables ---- */

static fsc_table *build(const report *r, const char *metrics)
{
    fsc_buf err = {0};
    fsc_table *t = fsc_table_build(r->set, metrics, FSC_BY_JOB, r->o->label_from, &err);
    if (!t)
        fsc_buf_printf(r->err, "report: table '%s': %s", metrics, err.data ? err.data : "out of memory");
    fsc_buf_free(&err);
    return t;
}

static bool column_has_data(const fsc_table *t, size_t col)
{
    /* fio prints directions a job did not do as zeros: a column of zeros says nothing. */
    for (size_t i = 0; i < t->n_rows; i++) {
        const fsc_cell *c = &t->rows[i].cells[col];
        if (c->kind == FSC_CELL_TEXT || (c->kind == FSC_CELL_NUM && c->num != 0))
            return true;
    }
    return false;
}

/* The table of metrics, without the columns no job has a value for; NULL (no error)
 * when only text columns are left. */
static fsc_status build_trimmed(report *r, const char *metrics, fsc_table **out)
{
    *out = NULL;
    fsc_table *t = build(r, metrics);
    if (!t)
        return FSC_E_USAGE;
    fsc_buf keep = {0};
    bool numbers = false;
    for (size_t c = 0; c < t->n_cols; c++)
        if (t->cols[c].text || column_has_data(t, c)) {
            fsc_buf_printf(&keep, "%s%s", keep.len ? "," : "", t->cols[c].name);
            numbers |= !t->cols[c].text;
        }
    fsc_table_free(t);
    if (keep.oom) {
        fsc_buf_free(&keep);
        return FSC_E_NOMEM;
    }
    if (numbers) {
        *out = build(r, keep.data);
        fsc_buf_free(&keep);
        return *out ? FSC_OK : FSC_E_USAGE;
    }
    fsc_buf_free(&keep);
    return FSC_OK;
}

static fsc_status build_tables(report *r)
{
    r->summary = build(r, NULL);
    if (!r->summary)
        return FSC_E_USAGE;
    for (size_t i = 0; i < N_FAMILIES; i++) {
        r->fam[i] = family_specs[i];
        fsc_status st = build_trimmed(r, family_specs[i].metrics, &r->fam[i].table);
        if (st != FSC_OK)
            return st;
    }
    return FSC_OK;
}

/* ---- charts ---- */

/* Draw c (taking ownership) as charts/file unless it has no data. */
static fsc_status add_chart(report *r, fsc_chart *c, const char *file)
{
    if (!c)
        return FSC_E_NOMEM;
    fsc_status st = FSC_OK;
    if (fsc_chart_has_data(c)) {
        chart_file *cf = FSC_PUSH(r->charts, r->n_charts, r->cap_charts);
        if (cf) {
            memset(cf, 0, sizeof *cf);
            cf->file = fsc_strdup(file);
            cf->title = fsc_strdup(c->title);
            st = cf->file && cf->title ? fsc_chart_png(c, r->o->chart_width ? r->o->chart_width : DEFAULT_W,
                                                        r->o->chart_height ? r->o->chart_height : DEFAULT_H,
                                                        &cf->png, r->err)
                                       : FSC_E_NOMEM;
        } else
            st = FSC_E_NOMEM;
    }
    fsc_chart_free(c);
    return st;
}

static fsc_status bar_charts(report *r)
{
    for (size_t i = 0; i < FSC_ARRAY_SIZE(bar_specs); i++) {
        fsc_table *t = NULL;
        fsc_status st = build_trimmed(r, bar_specs[i].metrics, &t);
        if (st != FSC_OK)
            return st;
        if (!t)
            continue;
        st = add_chart(r, fsc_chart_from_table(t, bar_specs[i].title, bar_specs[i].y_title),
                       bar_specs[i].file);
        fsc_table_free(t);
        if (st != FSC_OK)
            return st;
    }
    return FSC_OK;
}

/* When labels carry headings (one system per outer heading, the same tests under
 * each), compare the systems test by test, like the summary tables of a post. */
static fsc_status heading_charts(report *r)
{
    static const struct {
        const char *file, *title, *y_title, *metric;
    } specs[] = {
        {"compare-iops.png", "IOPS by heading", "IOPS", "label,iops"},
        {"compare-bandwidth.png", "Bandwidth by heading", "bandwidth", "label,bw"},
        {"compare-latency.png", "Mean latency by heading", "latency", "label,lat"},
    };
    fsc_status st = FSC_OK;
    for (size_t i = 0; st == FSC_OK && i < FSC_ARRAY_SIZE(specs); i++) {
        fsc_buf err = {0};
        fsc_table_opts o = {.by = FSC_BY_JOB, .label_from = r->o->label_from, .no_split = true};
        fsc_table *t = fsc_table_build_opts(r->set, specs[i].metric, &o, &err);
        fsc_buf_free(&err);
        if (!t)
            return FSC_E_NOMEM;
        st = add_chart(r, fsc_chart_by_heading(t, specs[i].title, specs[i].y_title), specs[i].file);
        fsc_table_free(t);
    }
    return st;
}

static fsc_status build_charts(report *r)
{
    static const char *const params[] = {"iodepth", "bs", "numjobs"};
    fsc_status st = heading_charts(r);
    if (st == FSC_OK)
        st = bar_charts(r);
    if (st == FSC_OK)
        st = add_chart(r, fsc_chart_percentiles(r->set, FSC_LAT_CLAT, r->o->label_from),
                       "clat-percentiles.png");
    if (st == FSC_OK)
        st = add_chart(r, fsc_chart_buckets(r->set, r->o->label_from), "latency-buckets.png");
    for (size_t i = 0; st == FSC_OK && i < FSC_ARRAY_SIZE(params); i++) {
        char file[64];
        snprintf(file, sizeof file, "scaling-%s.png", params[i]);
        st = add_chart(r, fsc_chart_scaling(r->set, params[i]), file);
    }
    if (st == FSC_OK)
        st = add_chart(r, fsc_chart_disk_util(r->set), "disk-util.png");
    return st;
}

/* ---- pages ---- */

static void base64(fsc_buf *out, const unsigned char *p, size_t n)
{
    static const char tab[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    for (size_t i = 0; i < n; i += 3) {
        unsigned v = (unsigned)p[i] << 16 | (i + 1 < n ? (unsigned)p[i + 1] << 8 : 0) |
                     (i + 2 < n ? p[i + 2] : 0);
        char q[4] = {tab[v >> 18 & 63], tab[v >> 12 & 63], i + 1 < n ? tab[v >> 6 & 63] : '=',
                     i + 2 < n ? tab[v & 63] : '='};
        fsc_buf_add(out, q, 4);
    }
}

static bool set_num(fsc_tpl_vars *v, const char *name, size_t n)
{
    char s[32];
    snprintf(s, sizeof s, "%zu", n);
    return fsc_tpl_set(v, name, s);
}

static size_t count_jobs(const fsc_runset *set)
{
    size_t n = 0;
    for (size_t i = 0; i < set->n_runs; i++)
        n += set->runs[i]->n_jobs;
    return n;
}

/* Tables rendered in the page's format: "html" or "md". */
static bool table_vars(report *r, fsc_tpl_vars *v, const char *format)
{
    fsc_buf b = {0};
    bool ok = fsc_table_render(r->summary, format, &b) == FSC_OK && !b.oom &&
              fsc_tpl_set_trusted(v, "summary_table", b.data ? b.data : "");
    for (size_t i = 0; ok && i < N_FAMILIES; i++) {
        if (!r->fam[i].table)
            continue;
        fsc_tpl_vars *item = fsc_tpl_add_item(v, "families");
        fsc_buf_reset(&b);
        ok = item && fsc_tpl_set(item, "title", r->fam[i].sheet) &&
             fsc_table_render(r->fam[i].table, format, &b) == FSC_OK && !b.oom &&
             fsc_tpl_set_trusted(item, "table", b.data ? b.data : "");
    }
    fsc_buf_free(&b);
    return ok;
}

static bool chart_vars(report *r, fsc_tpl_vars *v, bool inline_png)
{
    fsc_buf b = {0};
    bool ok = true;
    for (size_t i = 0; ok && i < r->n_charts; i++) {
        fsc_tpl_vars *item = fsc_tpl_add_item(v, "charts");
        fsc_buf_reset(&b);
        fsc_buf_printf(&b, "charts/%s", r->charts[i].file);
        ok = item && !b.oom && fsc_tpl_set(item, "title", r->charts[i].title) &&
             fsc_tpl_set(item, "file", b.data);
        if (ok && inline_png) {
            fsc_buf_reset(&b);
            base64(&b, (const unsigned char *)r->charts[i].png.data, r->charts[i].png.len);
            ok = !b.oom && fsc_tpl_set(item, "png_base64", b.data ? b.data : "");
        }
    }
    fsc_buf_free(&b);
    return ok;
}

static bool source_vars(report *r, fsc_tpl_vars *v)
{
    bool ok = true;
    fsc_buf b = {0};
    for (size_t i = 0; ok && i < r->set->n_runs; i++) {
        const fsc_run *run = r->set->runs[i];
        fsc_tpl_vars *item = fsc_tpl_add_item(v, "sources");
        fsc_buf_reset(&b);
        fsc_buf_printf(&b, "%u–%u", (unsigned)run->source.first_line, (unsigned)run->source.last_line);
        ok = item && !b.oom && fsc_tpl_set(item, "id", run->id) && fsc_tpl_set(item, "label", run->label) &&
             fsc_tpl_set(item, "path", run->source.path) &&
             fsc_tpl_set(item, "member", run->source.member) && fsc_tpl_set(item, "lines", b.data) &&
             fsc_tpl_set(item, "format", fsc_format_name(run->source.format)) &&
             fsc_tpl_set(item, "fio_version", run->source.fio_version ? run->source.fio_version : "?") &&
             set_num(item, "jobs", run->n_jobs) && set_num(item, "n_warnings", run->n_warnings) &&
             fsc_tpl_set(item, "has_warnings", run->n_warnings ? "yes" : "");
        for (size_t w = 0; ok && w < run->n_warnings; w++) {
            fsc_tpl_vars *wi = fsc_tpl_add_item(item, "warnings");
            ok = wi && set_num(wi, "line", run->warnings[w].line) &&
                 fsc_tpl_set(wi, "message", run->warnings[w].message);
        }
    }
    fsc_buf_free(&b);
    return ok;
}

static bool input_vars(report *r, fsc_tpl_vars *v)
{
    static const char *const status[] = {"ok", "no-runs", "error"};
    const fsc_manifest *m = r->o->manifest;
    bool ok = fsc_tpl_set(v, "has_bad_inputs", "");
    for (size_t i = 0; m && ok && i < m->n; i++) {
        const fsc_input_entry *e = &m->items[i];
        if (e->status == FSC_IN_OK)
            continue;
        fsc_tpl_vars *item = fsc_tpl_add_item(v, "bad_inputs");
        ok = item && fsc_tpl_set(v, "has_bad_inputs", "yes") && fsc_tpl_set(item, "path", e->path) && fsc_tpl_set(item, "member", e->member) &&
             fsc_tpl_set(item, "status", status[e->status]) &&
             fsc_tpl_set(item, "error", e->error ? e->error : "no fio run found");
    }
    return ok;
}

/* The runs as the contract's JSON, safe inside <script>: "</" is written "<\/". */
static bool data_json(report *r, fsc_tpl_vars *v)
{
    fsc_buf b = {0};
    fsc_jw w;
    fsc_jw_init(&w, &b, false, true);
    fsc_json_opts jo = {.damage = false};
    fsc_jw_arr(&w);
    for (size_t i = 0; i < r->set->n_runs; i++)
        fsc_model_write_run(&w, r->set->runs[i], &jo);
    fsc_jw_arr_end(&w);
    /* Every '<' sits inside a JSON string; \u003c keeps "<!--" and "<script" (which
     * change how a browser looks for </script>) out of the page as well. */
    fsc_buf safe = {0};
    for (size_t i = 0; i < b.len; i++)
        if (b.data[i] == '<')
            fsc_buf_puts(&safe, "\\u003c");
        else
            fsc_buf_putc(&safe, b.data[i]);
    bool ok = !b.oom && !safe.oom && fsc_tpl_set_trusted(v, "data_json", safe.data ? safe.data : "[]");
    fsc_buf_free(&b);
    fsc_buf_free(&safe);
    return ok;
}

static fsc_tpl_vars *page_vars(report *r, const char *format)
{
    bool html = !strcmp(format, "html");
    fsc_tpl_vars *v = fsc_tpl_vars_new();
    bool ok = v && fsc_tpl_set(v, "title", "fio results") &&
              fsc_tpl_set(v, "generated_by", "fioscope " FSC_VERSION) &&
              set_num(v, "n_runs", r->set->n_runs) && set_num(v, "n_jobs", count_jobs(r->set)) &&
              set_num(v, "n_charts", r->n_charts) && table_vars(r, v, format) &&
              chart_vars(r, v, html) && source_vars(r, v) && input_vars(r, v) &&
              (!html || data_json(r, v));
    if (!ok) {
        fsc_tpl_vars_free(v);
        return NULL;
    }
    return v;
}

static fsc_status write_page(report *r, const char *tpl_name, const char *format, const char *file)
{
    size_t len;
    const char *tpl = fsc_template_get(tpl_name, &len);
    if (!tpl) {
        fsc_buf_printf(r->err, "template %s is not compiled in", tpl_name);
        return FSC_E_IO;
    }
    fsc_tpl_vars *v = page_vars(r, format);
    if (!v)
        return FSC_E_NOMEM;
    fsc_buf out = {0};
    fsc_status st = fsc_tpl_render(tpl_name, tpl, len, v,
                                   !strcmp(format, "html") ? FSC_TPL_HTML : FSC_TPL_MD, &out, r->err);
    if (st == FSC_OK)
        st = write_atomic(r->o->dir, file, out.data, out.len, r->err);
    fsc_buf_free(&out);
    fsc_tpl_vars_free(v);
    return st;
}

static fsc_status write_xlsx(report *r)
{
    char *tmp = join(r->o->dir, ".report.xlsx.tmp"), *path = join(r->o->dir, "report.xlsx");
    fsc_status st = tmp && path ? fsc_xlsx_write(tmp, r->summary, r->fam, N_FAMILIES, r->set, r->err)
                                : FSC_E_NOMEM;
    if (st == FSC_OK && rename(tmp, path) != 0) {
        fsc_buf_printf(r->err, "%s: cannot rename into place: %s", path, strerror(errno));
        st = FSC_E_IO;
    }
    if (st != FSC_OK && tmp)
        unlink(tmp);
    free(tmp);
    free(path);
    return st;
}

static fsc_status write_files(report *r)
{
    static const char marker[] = "This folder was written by fioscope report; it may overwrite it.\n";
    fsc_status st = write_atomic(r->o->dir, FSC_REPORT_MARKER, marker, sizeof marker - 1, r->err);
    for (size_t i = 0; st == FSC_OK && i < r->n_charts; i++) {
        char name[96];
        snprintf(name, sizeof name, "charts/%s", r->charts[i].file);
        st = write_atomic(r->o->dir, name, r->charts[i].png.data, r->charts[i].png.len, r->err);
    }
    if (st == FSC_OK)
        st = write_xlsx(r);
    if (st == FSC_OK)
        st = write_page(r, "report.md.tpl", "md", "report.md");
    if (st == FSC_OK)
        st = write_page(r, "report.html.tpl", "html", "index.html");
    return st;
}

static void report_free(report *r)
{
    fsc_table_free(r->summary);
    for (size_t i = 0; i < N_FAMILIES; i++)
        fsc_table_free(r->fam[i].table);
    for (size_t i = 0; i < r->n_charts; i++) {
        free(r->charts[i].file);
        free(r->charts[i].title);
        fsc_buf_free(&r->charts[i].png);
    }
    free(r->charts);
}

fsc_status fsc_report_write(const fsc_runset *set, const fsc_report_opts *o, fsc_report_result *res,
                            fsc_buf *err)
{
    if (!set->n_runs) {
        fsc_buf_puts(err, "no fio run found in the inputs: nothing to report");
        return FSC_E_NO_RUNS;
    }
    report r = {.set = set, .o = o, .err = err};
    fsc_status st = prepare_dir(o->dir, err);
    if (st == FSC_OK)
        st = build_tables(&r);
    if (st == FSC_OK)
        st = build_charts(&r);
    if (st == FSC_OK)
        st = write_files(&r);
    if (res) {
        res->n_charts = r.n_charts;
        res->n_tables = 1;
        for (size_t i = 0; i < N_FAMILIES; i++)
            res->n_tables += r.fam[i].table != NULL;
    }
    report_free(&r);
    return st;
}
