/* SPDX-License-Identifier: MIT */
/* Options and input loading shared by the reading commands. */
#include "cli.h"
#include "fioscope/timeseries.h"

#include "fioscope/escape.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* Every line on stderr goes through here: whatever an input put into a message (a
 * member name, a path, a symlink target) is shown escaped, never sent to the terminal
 * as control sequences. */
static void err_line_lead(const char *lead, const char *prefix, const char *fmt, va_list ap)
{
    fsc_buf msg = {0}, out = {0};
    va_list aq;
    va_copy(aq, ap);
    int n = vsnprintf(NULL, 0, fmt, aq);
    va_end(aq);
    if (n >= 0 && fsc_grow((void **)&msg.data, &msg.cap, (size_t)n + 1, 1)) {
        vsnprintf(msg.data, (size_t)n + 1, fmt, ap);
        msg.len = (size_t)n;
    }
    fsc_buf_puts(&out, lead);
    fsc_esc_diag(&out, prefix);
    fsc_esc_diag(&out, msg.data ? msg.data : fmt);
    fsc_buf_putc(&out, '\n');
    if (!out.oom)
        fwrite(out.data, 1, out.len, stderr);
    fsc_buf_free(&msg);
    fsc_buf_free(&out);
}

static void err_line(const char *prefix, const char *fmt, va_list ap)
{
    err_line_lead("fioscope: ", prefix, fmt, ap);
}

void fsc_cli_err(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    err_line("", fmt, ap);
    va_end(ap);
}

int fsc_cli_usage(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    fsc_buf prefix = {0};
    fsc_buf_printf(&prefix, "%s: ", cmd);
    va_start(ap, fmt);
    err_line(prefix.data ? prefix.data : "", fmt, ap);
    va_end(ap);
    fsc_buf_free(&prefix);
    fsc_cli_err("try 'fioscope %s --help' for more information", cmd);
    return FSC_EXIT_USAGE;
}

/* Value of "--name=value", "--name value", "-x value" or "-xvalue"; NULL if argv[*i] is
 * not it. */
static const char *opt_value(int argc, char **argv, int *i, const char *lng, const char *shrt,
                             bool *missing)
{
    const char *a = argv[*i];
    size_t l = strlen(lng);
    *missing = false;
    if (!strncmp(a, lng, l) && a[l] == '=')
        return a + l + 1;
    if (shrt && !strncmp(a, shrt, strlen(shrt)) && a[strlen(shrt)]) /* "-j4" */
        return a + strlen(shrt);
    if (!strcmp(a, lng) || (shrt && !strcmp(a, shrt))) {
        if (*i + 1 >= argc) {
            *missing = true;
            return NULL;
        }
        return argv[++*i];
    }
    return NULL;
}

const char *fsc_cli_opt_value(int argc, char **argv, int *i, const char *lng, const char *shrt,
                              bool *missing)
{
    return opt_value(argc, argv, i, lng, shrt, missing);
}

/* Long options ("--name") written in a help text, into names (at most cap). */
static size_t help_options(const char *help, char names[][40], size_t n, size_t cap)
{
    for (const char *p = help; (p = strstr(p, "--")) != NULL && n < cap; p += 2) {
        if (p > help && p[-1] != ' ' && p[-1] != '[' && p[-1] != '(' && p[-1] != ',')
            continue;
        size_t l = 2;
        while ((p[l] >= 'a' && p[l] <= 'z') || (p[l] >= '0' && p[l] <= '9') || p[l] == '-')
            l++;
        if (l > 2 && l < 40) {
            memcpy(names[n], p, l);
            names[n][l] = '\0';
            n++;
        }
    }
    return n;
}

int fsc_cli_unknown_option(const char *cmd, const char *arg, const char *help, ...)
{
    char names[160][40];
    const char *cands[160];
    size_t n = help_options(help, names, 0, 160);
    va_list ap;
    va_start(ap, help);
    for (const char *h; (h = va_arg(ap, const char *)) != NULL;)
        n = help_options(h, names, n, 160);
    va_end(ap);
    for (size_t i = 0; i < n; i++)
        cands[i] = names[i];
    /* "--iodeth=4": the name alone is compared */
    char word[64];
    size_t wl = strcspn(arg, "=");
    snprintf(word, sizeof word, "%.*s", (int)(wl < sizeof word ? wl : sizeof word - 1), arg);
    const char *near = word[0] == '-' && word[1] == '-' ? fsc_nearest(word, cands, n, 0) : NULL;
    if (near)
        return fsc_cli_usage(cmd, "unknown option '%s' (did you mean '%s'?)", arg, near);
    return fsc_cli_usage(cmd, "unknown option '%s'", arg);
}

bool fsc_cli_bad_value(const char *cmd, const char *opt, const char *v, const char *const *allowed,
                       size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!strcmp(v, allowed[i]))
            return false;
    fsc_buf list = {0};
    for (size_t i = 0; i < n; i++)
        fsc_buf_printf(&list, "%s%s", i ? (i + 1 == n ? " or " : ", ") : "", allowed[i]);
    const char *near = fsc_nearest(v, allowed, n, 0);
    if (near)
        fsc_cli_usage(cmd, "%s takes %s, not '%s' (did you mean '%s'?)", opt,
                      list.data ? list.data : "", v, near);
    else
        fsc_cli_usage(cmd, "%s takes %s, not '%s'", opt, list.data ? list.data : "", v);
    fsc_buf_free(&list);
    return true;
}

bool fsc_cli_check_metric_list(const char *cmd, const char *list)
{
    const char *p = list ? list : "", *s;
    size_t len;
    while (fsc_list_next(&p, &s, &len)) {
        fsc_metric m;
        char *name = fsc_strndup(s, len);
        if (name && len && !fsc_metric_lookup(name, &m, NULL)) {
            fsc_buf near = {0};
            if (fsc_metric_nearest(name, &near))
                fsc_cli_usage(cmd, "unknown metric '%s' (did you mean '%s'? 'fioscope metrics' "
                              "lists them all)", name, near.data);
            else
                fsc_cli_usage(cmd, "unknown metric '%s' ('fioscope metrics' lists them all)",
                              name);
            fsc_buf_free(&near);
            free(name);
            return false;
        }
        free(name);
    }
    return true;
}

const char fsc_cli_common_help[] =
    "      --label-from=heading|file|job|context   how run labels are built\n"
    "  -j, --jobs N        parse with N threads (default: number of cores); a few small\n"
    "                      files are parsed as they are read, with none, unless N > 1\n"
    "  -q, --quiet         no diagnostics, progress or summary on stderr\n"
    "      --fail-on=LIST  exit 1 when an input has one of: error, no-runs, warning\n"
    "                      (comma-separated; 'none' never; default error,no-runs)\n"
    "      --max-member-size=SIZE  largest archive member or compressed file read,\n"
    "                      e.g. 512M (binary units; default 1G)\n"
    "      --max-ratio=N   largest expansion of compressed data (default 1000)\n"
    "      --max-memory=SIZE  memory one input (a file, an archive member) may take\n"
    "                      while it is parsed, e.g. 4G (default 1G)\n"
    "      --where EXPR    keep the rows where EXPR holds (repeatable, all must\n"
    "                      hold): FIELD=V FIELD!=V FIELD~REGEX FIELD>=N FIELD<=N\n"
    "                      FIELD>N FIELD<N over any dimension or metric, e.g.\n"
    "                      --where 'system~RAID 1' --where bs=4k --where 'iops>=1000'\n"
    "      --system-from=auto|dir|file|heading[:N]|host|label|job:REGEX\n"
    "                      what names a row's system (default auto: what tells\n"
    "                      runs of one workload apart)\n"
    "      --workload-key=LIST  fields that make two rows the same workload\n"
    "                      (default rw,bs,iodepth,numjobs)\n";

/* "1G", "512MiB", "4096", "64k": bytes, K/M/G/T as powers of 1024. */
static bool parse_size_opt(const char *v, uint64_t *out)
{
    char *end;
    errno = 0;
    unsigned long long n = strtoull(v, &end, 10);
    if (end == v || errno || v[0] == '-')
        return false;
    static const char units[] = "KMGT";
    const char *u = *end ? strchr(units, toupper((unsigned char)*end)) : NULL;
    unsigned shift = 0;
    if (*end) {
        if (!u)
            return false;
        shift = 10u * (unsigned)(u - units + 1);
        end++;
        if (!strcmp(end, "iB") || !strcmp(end, "B") || !strcmp(end, "b"))
            end += strlen(end);
    }
    if (*end || n == 0 || (n << shift) >> shift != n)
        return false;
    *out = (uint64_t)n << shift;
    return true;
}

/* "error,no-runs,warning" or "none" into FSC_FAIL_* bits; 0 if bad. */
static unsigned parse_fail_on(const char *v)
{
    static const struct {
        const char *name;
        unsigned bit;
    } tab[] = {{"error", FSC_FAIL_ERROR},
               {"no-runs", FSC_FAIL_NO_RUNS},
               {"warning", FSC_FAIL_WARNING},
               {"none", FSC_FAIL_NONE}};
    unsigned bits = 0;
    while (*v) {
        size_t l = strcspn(v, ",");
        size_t k = 0;
        while (k < FSC_ARRAY_SIZE(tab) && (strlen(tab[k].name) != l || strncmp(v, tab[k].name, l)))
            k++;
        if (k == FSC_ARRAY_SIZE(tab))
            return 0;
        bits |= tab[k].bit;
        v += l + (v[l] == ',');
    }
    return bits;
}

/* The input options (--fail-on, --max-member-size, --max-memory, --max-ratio). Same returns as
 * fsc_cli_common_opt. */
static int input_opt(fsc_cli_common *c, int argc, char **argv, int *i)
{
    bool missing;
    const char *v;
    if ((v = opt_value(argc, argv, i, "--fail-on", NULL, &missing)) || missing) {
        unsigned bits = v ? parse_fail_on(v) : 0;
        if (!bits) {
            fsc_cli_err("--fail-on takes a list of error, no-runs, warning, or none");
            return -1;
        }
        c->fail_on = bits;
        return 1;
    }
    if ((v = opt_value(argc, argv, i, "--max-member-size", NULL, &missing)) || missing) {
        if (!v || !parse_size_opt(v, &c->input.max_member_bytes)) {
            fsc_cli_err("--max-member-size takes a size such as 4096, 64K, 512M or 1G");
            return -1;
        }
        return 1;
    }
    if ((v = opt_value(argc, argv, i, "--max-memory", NULL, &missing)) || missing) {
        if (!v || !parse_size_opt(v, &c->input.max_memory_bytes)) {
            fsc_cli_err("--max-memory takes a size such as 512M, 1G or 4G");
            return -1;
        }
        return 1;
    }
    if ((v = opt_value(argc, argv, i, "--max-ratio", NULL, &missing)) || missing) {
        char *end;
        unsigned long long n = v ? strtoull(v, &end, 10) : 0;
        if (!v || *end || n < 1 || v[0] == '-') {
            fsc_cli_err("--max-ratio takes a whole number of at least 1");
            return -1;
        }
        c->input.max_ratio = n;
        return 1;
    }
    return 0;
}

/* An analysis option checked the moment it is read, so every command that takes INPUT
 * rejects an unknown field (with the nearest one named) before reading anything. */
static int checked(const fsc_analysis_opts *o)
{
    fsc_buf err = {0};
    int r = fsc_analysis_check(o, &err) == FSC_OK ? 1 : -1;
    if (r < 0)
        fsc_cli_err("%s", err.data ? err.data : "bad option");
    fsc_buf_free(&err);
    return r;
}

/* --where, --system-from, --workload-key. Same returns as fsc_cli_common_opt. */
static int analysis_opt(fsc_cli_common *c, int argc, char **argv, int *i)
{
    bool missing;
    const char *v;
    if ((v = opt_value(argc, argv, i, "--where", NULL, &missing)) || missing) {
        if (!v || c->n_where == FSC_CLI_MAX_WHERE) {
            fsc_cli_err(v ? "at most %d --where" : "--where needs an expression such as 'system~RAID 5'",
                        FSC_CLI_MAX_WHERE);
            return -1;
        }
        c->where[c->n_where++] = v;
        return checked(&(fsc_analysis_opts){.where = &v, .n_where = 1});
    }
    if ((v = opt_value(argc, argv, i, "--system-from", NULL, &missing)) || missing) {
        if (!v) {
            fsc_cli_err("--system-from takes auto, dir, file, heading[:N], host, label or job:REGEX");
            return -1;
        }
        c->system_from = v;
        return checked(&(fsc_analysis_opts){.system_from = v});
    }
    if ((v = opt_value(argc, argv, i, "--workload-key", NULL, &missing)) || missing) {
        if (!v) {
            fsc_cli_err("--workload-key takes a list of fields such as rw,bs,iodepth");
            return -1;
        }
        c->workload_key = v;
        return checked(&(fsc_analysis_opts){.workload_key = v});
    }
    return 0;
}

void fsc_cli_common_free(fsc_cli_common *c)
{
    (void)c;
}

/* The rule auto chose, when it is one --system-from can name again. "input" and
 * "jobname" cannot be named; they depend on paths and job names pruning keeps. */
static void pin_system_rule(fsc_cli_common *c, const fsc_analysis *a)
{
    const char *src = fsc_analysis_system_source(a);
    static const char *const nameable[] = {"dir", "file", "host", "label", "heading:"};
    if (c->system_from || !src)
        return;
    for (size_t i = 0; i < sizeof nameable / sizeof *nameable; i++)
        if (!strncmp(src, nameable[i], strlen(nameable[i])) && strlen(src) < sizeof c->pinned_system_from) {
            strcpy(c->pinned_system_from, src);
            return;
        }
}

/* --where for the commands that show whole runs: the jobs without a selected row go. */
static int prune_runs(fsc_cli_common *c, const char *const *paths, size_t n_paths, fsc_runset *set)
{
    int rc = FSC_EXIT_OK;
    fsc_analysis *a = fsc_cli_analyze("where", c, set, paths, n_paths, &rc);
    if (!a)
        return rc;
    size_t kept_runs = 0;
    for (size_t ri = 0; ri < set->n_runs; ri++) {
        fsc_run *run = set->runs[ri];
        bool *keep = calloc(run->n_jobs ? run->n_jobs : 1, sizeof *keep);
        if (!keep) {
            rc = FSC_EXIT_INPUT;
            break;
        }
        size_t first, n, left = 0;
        for (size_t ji = 0; ji < run->n_jobs; ji++)
            left += keep[ji] = fsc_analysis_job_rows(a, 0, ri, ji, &first, &n);
        fsc_run_keep_jobs(run, keep);
        free(keep);
        if (left)
            set->runs[kept_runs++] = run;
        else
            fsc_run_free(run);
    }
    set->n_runs = kept_runs;
    pin_system_rule(c, a);
    fsc_analysis_free(a);
    return rc;
}

fsc_analysis_opts fsc_cli_analysis_opts(const fsc_cli_common *c, const char *const *paths, size_t n)
{
    fsc_analysis_opts o = {.label_from = c->label_from,
                           .system_from = c->system_from         ? c->system_from
                                          : *c->pinned_system_from ? c->pinned_system_from
                                                                   : NULL,
                           .workload_key = c->workload_key,
                           .where = c->where,
                           .n_where = c->n_where,
                           .inputs = paths,
                           .n_inputs = n};
    return o;
}

int fsc_cli_check_analysis(const char *cmd, const fsc_cli_common *c)
{
    fsc_analysis_opts o = fsc_cli_analysis_opts(c, NULL, 0);
    fsc_buf err = {0};
    int rc = -1;
    if (fsc_analysis_check(&o, &err) != FSC_OK) {
        fsc_cli_err("%s: %s", cmd, err.data ? err.data : "bad option");
        fsc_cli_err("try 'fioscope %s --help' for more information", cmd);
        rc = FSC_EXIT_USAGE;
    }
    fsc_buf_free(&err);
    return rc;
}

void fsc_cli_print_notes(const fsc_cli_common *c, const fsc_analysis *a)
{
    for (size_t i = 0; !c->quiet && i < fsc_analysis_n_notes(a); i++)
        fsc_cli_err("%s", fsc_analysis_note(a, i));
}

fsc_analysis *fsc_cli_analyze(const char *cmd, const fsc_cli_common *c, const fsc_runset *set,
                              const char *const *paths, size_t n_paths, int *rc)
{
    fsc_analysis_opts o = fsc_cli_analysis_opts(c, paths, n_paths);
    fsc_buf err = {0};
    fsc_status st;
    fsc_analysis *a = fsc_analysis_new(set, &o, &err, &st);
    if (!a) {
        fsc_cli_err("%s: %s", cmd, err.data ? err.data : fsc_strerror(st));
        *rc = st == FSC_E_USAGE ? FSC_EXIT_USAGE : FSC_EXIT_INPUT;
    } else {
        fsc_cli_print_notes(c, a);
    }
    fsc_buf_free(&err);
    return a;
}

int fsc_cli_common_opt(fsc_cli_common *c, int argc, char **argv, int *i)
{
    bool missing;
    const char *v;
    int r = analysis_opt(c, argc, argv, i);
    if (r)
        return r;
    if (!strcmp(argv[*i], "--quiet") || !strcmp(argv[*i], "-q")) {
        c->quiet = true;
        c->input.progress = false;
        return 1;
    }
    if ((v = opt_value(argc, argv, i, "--label-from", NULL, &missing)) || missing) {
        static const struct {
            const char *name;
            fsc_label_from v;
        } tab[] = {{"heading", FSC_LABEL_HEADING},
                   {"file", FSC_LABEL_FILE},
                   {"job", FSC_LABEL_JOB},
                   {"context", FSC_LABEL_CONTEXT}};
        for (size_t k = 0; v && k < FSC_ARRAY_SIZE(tab); k++)
            if (!strcmp(v, tab[k].name)) {
                c->label_from = tab[k].v;
                return 1;
            }
        fsc_cli_err("--label-from takes heading, file, job or context");
        return -1;
    }
    if ((v = opt_value(argc, argv, i, "--jobs", "-j", &missing)) || missing) {
        char *end;
        long n = v ? strtol(v, &end, 10) : -1;
        if (!v || *end || n < 1 || n > 1024) {
            fsc_cli_err("-j takes a number of threads from 1 to 1024");
            return -1;
        }
        c->input.jobs = (unsigned)n;
        return 1;
    }
    return input_opt(c, argc, argv, i);
}

typedef struct load_ctx {
    fsc_runset *set;
    fsc_manifest *manifest;
    fsc_cli_diag diag;
} load_ctx;

static bool on_run(void *vctx, fsc_run *run)
{
    load_ctx *ctx = vctx;
    return fsc_runset_add(ctx->set, run);
}

static void diag_line(fsc_cli_diag *d, const char *path, const char *member, const char *what)
{
    if (d->shown++ >= FSC_CLI_MAX_DIAG || d->quiet)
        return;
    if (member)
        fsc_cli_err("%s: %s: %s", path, member, what ? what : "error");
    else
        fsc_cli_err("%s: %s", path, what ? what : "error");
}

void fsc_cli_diag_entry(fsc_cli_diag *d, const fsc_input_entry *e)
{
    /* a named input's "no fio run found" waits for fsc_cli_diag_end: a mail's text
     * may have none while the archives attached to it (its members, after it) do */
    if (e->status == FSC_IN_ERROR)
        diag_line(d, e->path, e->member, e->error);
}

void fsc_cli_diag_end(fsc_cli_diag *d, const fsc_manifest *m)
{
    for (size_t i = 0; i < d->n_paths; i++) {
        bool runs = false, said = false;
        for (size_t k = 0; k < m->n; k++) {
            const fsc_input_entry *e = &m->items[k];
            if (e->arg != i)
                continue;
            runs |= e->runs > 0;
            said |= e->status == FSC_IN_ERROR;
        }
        if (!runs && !said)
            diag_line(d, d->paths[i], NULL, "no fio run found");
    }
}

static bool on_input(void *vctx, const fsc_input_entry *e)
{
    load_ctx *ctx = vctx;
    if (!fsc_manifest_add(ctx->manifest, e))
        return false;
    fsc_cli_diag_entry(&ctx->diag, e);
    return true;
}

int fsc_cli_exit_status(const fsc_cli_common *c, const fsc_manifest *m, size_t n_paths)
{
    unsigned policy = c && c->fail_on ? c->fail_on : FSC_FAIL_DEFAULT;
    if (policy & FSC_FAIL_NONE)
        return FSC_EXIT_OK;
    for (size_t i = 0; i < m->n; i++) {
        const fsc_input_entry *e = &m->items[i];
        if ((e->status == FSC_IN_ERROR && (policy & FSC_FAIL_ERROR)) ||
            (e->warnings && (policy & FSC_FAIL_WARNING)))
            return FSC_EXIT_INPUT;
    }
    if (!(policy & FSC_FAIL_NO_RUNS))
        return FSC_EXIT_OK;
    bool *none = calloc(n_paths ? n_paths : 1, sizeof *none);
    if (!none)
        return FSC_EXIT_INPUT;
    fsc_manifest_no_runs(m, n_paths, none);
    int rc = FSC_EXIT_OK;
    for (size_t i = 0; i < n_paths; i++)
        if (none[i])
            rc = FSC_EXIT_INPUT;
    free(none);
    return rc;
}

void fsc_cli_summary(const fsc_cli_common *c, const fsc_manifest *m, size_t shown)
{
    size_t count[3] = {0}, runs = 0, warnings = 0;
    if (c && c->quiet)
        return;
    for (size_t i = 0; i < m->n; i++) {
        count[m->items[i].status <= FSC_IN_ERROR ? m->items[i].status : FSC_IN_ERROR]++;
        runs += m->items[i].runs;
        warnings += m->items[i].warnings;
    }
    /* like other Unix tools: nothing to say about one input that read fine */
    if (m->n == 1 && count[FSC_IN_OK] == 1)
        return;
    fprintf(stderr, "fioscope: %zu input%s: %zu ok, %zu no runs, %zu error%s; %zu run%s", m->n,
            m->n == 1 ? "" : "s", count[FSC_IN_OK], count[FSC_IN_NO_RUNS], count[FSC_IN_ERROR],
            count[FSC_IN_ERROR] == 1 ? "" : "s", runs, runs == 1 ? "" : "s");
    if (warnings)
        fprintf(stderr, ", %zu warning%s", warnings, warnings == 1 ? "" : "s");
    fputc('\n', stderr);
    if (shown > FSC_CLI_MAX_DIAG)
        fsc_cli_err("(only the first %d of %zu problems were shown; the manifest lists them all)",
                    FSC_CLI_MAX_DIAG, shown);
}

void fsc_cli_status(const fsc_cli_common *c, const char *fmt, ...)
{
    if (c && c->quiet)
        return;
    va_list ap;
    va_start(ap, fmt);
    err_line_lead("", "", fmt, ap); /* paths in it are shown escaped, like diagnostics */
    va_end(ap);
}

int fsc_cli_load(fsc_cli_common *c, const char *const *paths, size_t n_paths,
                 fsc_runset *set, fsc_manifest *manifest)
{
    fsc_buf err = {0};
    fsc_parse_opts po = {.label_from = c->label_from, .each_format = c->each_format};
    fsc_parser *p = fsc_parser_new(&po, &err);
    if (!p) {
        fsc_cli_err("cannot load grammars: %s", err.data ? err.data : "?");
        fsc_buf_free(&err);
        return -1;
    }
    load_ctx ctx = {set, manifest, {paths, n_paths, c->quiet, 0}};
    fsc_input_sink sink = {.run = on_run, .input = on_input, .ctx = &ctx};
    fsc_input_opts io = c->input;
    io.progress = !c->quiet; /* shown only when stderr is a terminal */
    fsc_status st = fsc_inputs_read(paths, n_paths, p, &io, &sink);
    if (st == FSC_OK && !c->no_ts_stats)
        st = fsc_ts_annotate(set); /* the jobs' stability over time, from their logs */
    fsc_parser_free(p);
    fsc_buf_free(&err);
    fsc_cli_diag_end(&ctx.diag, manifest);
    fsc_cli_summary(c, manifest, ctx.diag.shown);
    if (st != FSC_OK) {
        fsc_cli_err("%s", fsc_strerror(st));
        return FSC_EXIT_INPUT;
    }
    if (c->n_where && !c->keep_all_rows && prune_runs(c, paths, n_paths, set) != FSC_EXIT_OK)
        return FSC_EXIT_INPUT;
    return fsc_cli_exit_status(c, manifest, n_paths);
}
