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
static void err_line(const char *prefix, const char *fmt, va_list ap)
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
    fsc_buf_puts(&out, "fioscope: ");
    fsc_esc_diag(&out, prefix);
    fsc_esc_diag(&out, msg.data ? msg.data : fmt);
    fsc_buf_putc(&out, '\n');
    if (!out.oom)
        fwrite(out.data, 1, out.len, stderr);
    fsc_buf_free(&msg);
    fsc_buf_free(&out);
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

const char fsc_cli_common_help[] =
    "      --label-from=heading|file|job|context   how run labels are built\n"
    "  -j, --jobs N        parse with N threads (default: number of cores)\n"
    "  -q, --quiet         no diagnostics, progress or summary on stderr\n"
    "      --fail-on=LIST  exit 1 when an input has one of: error, no-runs, warning\n"
    "                      (comma-separated; 'none' never; default error,no-runs)\n"
    "      --max-member-size=SIZE  largest archive member or compressed file read,\n"
    "                      e.g. 512M (binary units; default 1G)\n"
    "      --max-ratio=N   largest expansion of compressed data (default 1000)\n"
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

/* The input options (--fail-on, --max-member-size, --max-ratio). Same returns as
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

/* --where, --system-from, --workload-key. Same returns as fsc_cli_common_opt. */
static int analysis_opt(fsc_cli_common *c, int argc, char **argv, int *i)
{
    bool missing;
    const char *v;
    if ((v = opt_value(argc, argv, i, "--where", NULL, &missing)) || missing) {
        const char **slot = v ? FSC_PUSH(c->where, c->n_where, c->cap_where) : NULL;
        if (!slot) {
            fsc_cli_err(v ? "out of memory" : "--where needs an expression such as 'system~RAID 5'");
            return -1;
        }
        *slot = v;
        return 1;
    }
    if ((v = opt_value(argc, argv, i, "--system-from", NULL, &missing)) || missing) {
        if (!v) {
            fsc_cli_err("--system-from takes auto, dir, file, heading[:N], host, label or job:REGEX");
            return -1;
        }
        c->system_from = v;
        return 1;
    }
    if ((v = opt_value(argc, argv, i, "--workload-key", NULL, &missing)) || missing) {
        if (!v) {
            fsc_cli_err("--workload-key takes a list of fields such as rw,bs,iodepth");
            return -1;
        }
        c->workload_key = v;
        return 1;
    }
    return 0;
}

void fsc_cli_common_free(fsc_cli_common *c)
{
    free(c->where);
    c->where = NULL;
    c->n_where = c->cap_where = 0;
}

fsc_analysis_opts fsc_cli_analysis_opts(const fsc_cli_common *c, const char *const *paths, size_t n)
{
    fsc_analysis_opts o = {.label_from = c->label_from,
                           .system_from = c->system_from,
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
    bool quiet;
    size_t diags; /* diagnostics printed or counted */
} load_ctx;

static bool on_run(void *vctx, fsc_run *run)
{
    load_ctx *ctx = vctx;
    return fsc_runset_add(ctx->set, run);
}

void fsc_cli_input_diag(const fsc_input_entry *e, size_t *shown)
{
    if (e->status == FSC_IN_OK || (*shown)++ >= FSC_CLI_MAX_DIAG)
        return;
    const char *what = e->status == FSC_IN_NO_RUNS ? "no fio run found" : e->error;
    if (e->member)
        fsc_cli_err("%s: %s: %s", e->path, e->member, what ? what : "error");
    else
        fsc_cli_err("%s: %s", e->path, what ? what : "error");
}

static bool on_input(void *vctx, const fsc_input_entry *e)
{
    load_ctx *ctx = vctx;
    if (!fsc_manifest_add(ctx->manifest, e))
        return false;
    if (!ctx->quiet)
        fsc_cli_input_diag(e, &ctx->diags);
    return true;
}

int fsc_cli_manifest_status(const fsc_manifest *m)
{
    for (size_t i = 0; i < m->n; i++)
        if (m->items[i].status != FSC_IN_OK)
            return FSC_EXIT_INPUT;
    return FSC_EXIT_OK;
}

int fsc_cli_exit_status(const fsc_cli_common *c, const fsc_manifest *m)
{
    unsigned policy = c && c->fail_on ? c->fail_on : FSC_FAIL_DEFAULT;
    if (policy & FSC_FAIL_NONE)
        return FSC_EXIT_OK;
    for (size_t i = 0; i < m->n; i++) {
        const fsc_input_entry *e = &m->items[i];
        if ((e->status == FSC_IN_ERROR && (policy & FSC_FAIL_ERROR)) ||
            (e->status == FSC_IN_NO_RUNS && (policy & FSC_FAIL_NO_RUNS)) ||
            (e->warnings && (policy & FSC_FAIL_WARNING)))
            return FSC_EXIT_INPUT;
    }
    return FSC_EXIT_OK;
}

void fsc_cli_summary(const fsc_cli_common *c, const fsc_manifest *m)
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
    size_t bad = count[FSC_IN_NO_RUNS] + count[FSC_IN_ERROR];
    if (bad > FSC_CLI_MAX_DIAG)
        fsc_cli_err("(only the first %d of %zu problems were shown; the manifest lists them all)",
                    FSC_CLI_MAX_DIAG, bad);
}

int fsc_cli_load(const fsc_cli_common *c, const char *const *paths, size_t n_paths,
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
    load_ctx ctx = {set, manifest, c->quiet, 0};
    fsc_input_sink sink = {.run = on_run, .input = on_input, .ctx = &ctx};
    fsc_input_opts io = c->input;
    io.progress = !c->quiet; /* shown only when stderr is a terminal */
    fsc_status st = fsc_inputs_read(paths, n_paths, p, &io, &sink);
    if (st == FSC_OK)
        st = fsc_ts_annotate(set); /* the jobs' stability over time, from their logs */
    fsc_parser_free(p);
    fsc_buf_free(&err);
    fsc_cli_summary(c, manifest);
    if (st != FSC_OK) {
        fsc_cli_err("%s", fsc_strerror(st));
        return FSC_EXIT_INPUT;
    }
    return fsc_cli_exit_status(c, manifest);
}
