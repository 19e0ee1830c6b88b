/* SPDX-License-Identifier: MIT */
/* `fioscope rerun DOC`: run again, with the built-in engine, the fio jobs a document
 * shows (the command line or job file in the context of each run, else the job options
 * its output names), scaled by fio-style overrides, with every data file moved into one
 * local folder; then compare the document's numbers (base) with the local ones (new)
 * through the analysis stage. */
#define _GNU_SOURCE
#include "cli.h"
#include "fioscope/compare.h"
#include "fioscope/engine.h"
#include "outfile.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char rerun_help[] =
    "usage: fioscope rerun DOC [--directory=DIR] [--where EXPR] [--dry-run]\n"
    "                      [-f text|md|csv|tsv|json] [-m METRICS] [-o FILE] [--fio-option=value ...]\n"
    "\n"
    "Runs again, with the built-in engine, the fio jobs that DOC shows (the fio command\n"
    "line or job file above each run; without one, the job options its output names),\n"
    "then compares the document's numbers (base) with the local ones (new).\n"
    "\n"
    "  --directory=DIR   where the data files go (default: a new folder here, removed\n"
    "                    afterwards); filename= and directory= of the jobs, devices\n"
    "                    included, are replaced by files in it that fioscope creates\n"
    "  --where EXPR      re-run only the runs with a row that matches (repeatable)\n"
    "  --dry-run         print the jobs as fio job files and stop\n"
    "  -f, --format FMT  of the comparison (default text)\n"
    "  -m, --metrics L   compared metrics (default iops,bw,lat,clat.p99,cpu)\n"
    "  -o, --output FILE write the comparison to FILE\n"
    "  --NAME=VALUE      any fio option, applied to every job (--size=64m --runtime=2)\n";

typedef struct rerun_args {
    fsc_cli_common common;
    const char *doc, *directory, *format, *metrics, *output;
    bool dry_run;
    char **overrides;
    int n_overrides;
} rerun_args;

/* ---- the jobs of a run ---- */

/* fio's command-line options that are not job options: dropped from a document's
 * command line (the output is fioscope's business here). */
static bool cli_only(const char *key)
{
    static const char *const names[] = {"output", "output-format", "minimal", "terse-version", "status-interval",
                                        "append-terse", "eta", "eta-newline", "eta-interval", "readonly",
                                        "debug", "parse-only", "warnings-fatal", "max-jobs", "server",
                                        "client", "daemonize", "remote-config", "idle-prof", "aux-path",
                                        "bandwidth-log", "showcmd", "version", "help", "cpuclock-test",
                                        "crctest", "latency-log", "section", "inflate-log", "trigger-file",
                                        "trigger-timeout", "trigger", "trigger-remote", "alloc-size"};
    for (size_t i = 0; i < FSC_ARRAY_SIZE(names); i++)
        if (!strcmp(key, names[i]))
            return true;
    return false;
}

/* Split a shell command line into words (quotes, backslashes, continuation lines). */
static size_t split_words(const char *s, char ***out)
{
    size_t cap = 16, n = 0;
    char **v = malloc(cap * sizeof *v);
    char *word = malloc(strlen(s) + 1);
    if (!v || !word) {
        free(v);
        free(word);
        return 0;
    }
    const char *p = s;
    for (;;) {
        while (*p && (isspace((unsigned char)*p) || (*p == '\\' && p[1] == '\n')))
            p += *p == '\\' ? 2 : 1;
        if (!*p)
            break;
        size_t len = 0;
        char quote = 0;
        for (; *p; p++) {
            if (quote) {
                if (*p == quote)
                    quote = 0;
                else if (*p == '\\' && quote == '"' && p[1])
                    word[len++] = *++p;
                else
                    word[len++] = *p;
            } else if (*p == '\'' || *p == '"') {
                quote = *p;
            } else if (*p == '\\' && p[1] == '\n') {
                p++;
            } else if (*p == '\\' && p[1]) {
                word[len++] = *++p;
            } else if (isspace((unsigned char)*p)) {
                break;
            } else {
                word[len++] = *p;
            }
        }
        if (n == cap) {
            char **g = realloc(v, (cap *= 2) * sizeof *v);
            if (!g)
                break;
            v = g;
        }
        if (!(v[n] = fsc_strndup(word, len)))
            break;
        n++;
    }
    free(word);
    *out = v;
    return n;
}

static bool is_job_file(const char *cmd)
{
    for (const char *p = cmd; *p;) {
        while (*p == ' ' || *p == '\t')
            p++;
        if (*p == '[' && strchr(p, ']'))
            return true;
        const char *nl = strchr(p, '\n');
        if (!nl)
            break;
        p = nl + 1;
    }
    return false;
}

/* The jobs of a command line: the words after "fio"; options before --name are global. */
static fsc_status jobs_from_command(fsc_jobset *js, const char *cmd, fsc_buf *note, char *err, size_t errlen)
{
    char **w = NULL;
    size_t n = split_words(cmd, &w), start = 0;
    for (size_t i = 0; i < n; i++) {
        const char *base = strrchr(w[i], '/');
        base = base ? base + 1 : w[i];
        if (!strcmp(base, "fio") || !strncmp(base, "fio-", 4)) {
            start = i + 1;
            break;
        }
    }
    char **args = calloc(n + 1, sizeof *args);
    int n_args = 0;
    fsc_status st = args ? FSC_OK : FSC_E_NOMEM;
    for (size_t i = start; st == FSC_OK && i < n; i++) {
        const char *a = w[i];
        if (strncmp(a, "--", 2) != 0) {
            fsc_buf_printf(note, "%sskipped '%s' (a job file or argument not shown in the document)",
                           note->len ? "; " : "", a);
            continue;
        }
        char key[64];
        size_t klen = strcspn(a + 2, "=");
        snprintf(key, sizeof key, "%.*s", (int)(klen < 63 ? klen : 63), a + 2);
        if (cli_only(key))
            continue;
        /* "--name value": fio's getopt also takes the next word */
        if (!strchr(a, '=') && i + 1 < n && strncmp(w[i + 1], "--", 2) != 0 && fsc_job_option_known(key) &&
            strcmp(key, "time_based") != 0 && strcmp(key, "group_reporting") != 0) {
            char *joined = malloc(strlen(a) + strlen(w[i + 1]) + 2);
            if (!joined) {
                st = FSC_E_NOMEM;
                break;
            }
            sprintf(joined, "%s=%s", a, w[i + 1]);
            free(w[i + 1]);
            w[i + 1] = joined;
            continue;
        }
        args[n_args++] = w[i];
    }
    if (st == FSC_OK) {
        /* fsc_jobset_read_args takes options before the first --name as global */
        st = fsc_jobset_read_args(js, n_args, args, err, errlen);
    } else {
        snprintf(err, errlen, "out of memory");
    }
    free(args);
    for (size_t i = 0; i < n; i++)
        free(w[i]);
    free(w);
    return st;
}

/* Without a command: one job per job of the output, from the options it names. */
static fsc_status jobs_from_output(fsc_jobset *js, const fsc_run *run, char *err, size_t errlen)
{
    static const char *const keep[] = {"rw", "bs", "ioengine", "iodepth", "direct", "numjobs", "rwmixread",
                                       "size", "runtime", "time_based", "group_reporting"};
    for (size_t i = 0; i < run->n_jobs; i++) {
        const fsc_job *job = &run->jobs[i];
        if (i > 0 && !strcmp(job->jobname, run->jobs[i - 1].jobname))
            continue; /* clones of one job */
        char name[300];
        snprintf(name, sizeof name, "--name=%s", job->jobname ? job->jobname : "job");
        char *argv[1] = {name};
        fsc_status st = fsc_jobset_read_args(js, 1, argv, err, errlen);
        fsc_jobdef *j = &js->jobs[js->n_jobs - 1];
        for (size_t k = 0; st == FSC_OK && k < FSC_ARRAY_SIZE(keep); k++) {
            const char *v = fsc_job_option(job, keep[k]);
            if (v && !strcmp(keep[k], "bs") && strchr(v, '-'))
                continue; /* the header's "4096B-4096B" range form */
            if (v)
                st = fsc_jobdef_set(j, keep[k], v, err, errlen);
        }
        if (st == FSC_OK && job->jobs.set && job->jobs.v > 1 && !fsc_job_option(job, "numjobs")) {
            char nj[32];
            snprintf(nj, sizeof nj, "%.0f", job->jobs.v);
            st = fsc_jobdef_set(j, "numjobs", nj, err, errlen) == FSC_OK
                     ? fsc_jobdef_set(j, "group_reporting", NULL, err, errlen)
                     : FSC_E_USAGE;
        }
        if (st != FSC_OK)
            return st;
    }
    return FSC_OK;
}

/* ---- data files into DIR ---- */

typedef struct pathmap {
    char **from, **to;
    size_t n, cap;
} pathmap;

/* The name (inside the folder) of a document's path; one source path, one file. */
static const char *map_path(pathmap *m, const char *from, const char *jobname)
{
    for (size_t i = 0; i < m->n; i++)
        if (!strcmp(m->from[i], from))
            return m->to[i];
    const char *base = strrchr(from, '/');
    base = base && base[1] ? base + 1 : from;
    char name[4096];
    bool device = !strncmp(from, "/dev/", 5);
    snprintf(name, sizeof name, "%s%s%s", device ? jobname : "", device ? ".dev-" : "", base);
    /* two source paths with the same base name stay two files */
    for (unsigned k = 2;; k++) {
        bool taken = false;
        for (size_t i = 0; i < m->n && !taken; i++)
            taken = !strcmp(m->to[i], name);
        if (!taken)
            break;
        snprintf(name, sizeof name, "%s%s%s.%u", device ? jobname : "", device ? ".dev-" : "", base, k);
    }
    if (m->n == m->cap) {
        size_t cap = m->cap ? m->cap * 2 : 8;
        char **f = realloc(m->from, cap * sizeof *f), **t = f ? realloc(m->to, cap * sizeof *t) : NULL;
        if (f)
            m->from = f;
        if (!t)
            return NULL;
        m->to = t;
        m->cap = cap;
    }
    m->from[m->n] = fsc_strdup(from);
    m->to[m->n] = fsc_strdup(name);
    if (!m->from[m->n] || !m->to[m->n]) {
        free(m->from[m->n]);
        free(m->to[m->n]);
        return NULL;
    }
    return m->to[m->n++];
}

static void pathmap_free(pathmap *m)
{
    for (size_t i = 0; i < m->n; i++) {
        free(m->from[i]);
        free(m->to[i]);
    }
    free(m->from);
    free(m->to);
}

/* directory= of each job is dir, and filename= (every ':' part) a name inside it. */
static fsc_status relocate(fsc_jobset *js, const char *dir, pathmap *pm, char *err, size_t errlen)
{
    for (size_t i = 0; i <= js->n_jobs; i++) {
        fsc_jobdef *j = i < js->n_jobs ? &js->jobs[i] : &js->global;
        if (!j->name && i == js->n_jobs && !j->filename && !j->directory)
            break; /* a global section that names no path stays as it is */
        fsc_status st = fsc_jobdef_set(j, "directory", dir, err, errlen);
        if (st == FSC_OK && j->filename) {
            char buf[8192] = "";
            char *names = fsc_strdup(j->filename);
            if (!names)
                return FSC_E_NOMEM;
            for (char *save = NULL, *p = strtok_r(names, ":", &save); p; p = strtok_r(NULL, ":", &save)) {
                const char *to = map_path(pm, p, j->name ? j->name : "global");
                if (!to) {
                    free(names);
                    return FSC_E_NOMEM;
                }
                snprintf(buf + strlen(buf), sizeof buf - strlen(buf), "%s%s", buf[0] ? ":" : "", to);
            }
            free(names);
            st = fsc_jobdef_set(j, "filename", buf, err, errlen);
        }
        if (st != FSC_OK)
            return st;
    }
    return FSC_OK;
}

/* ---- options ---- */

static int read_cli(rerun_args *a, int argc, char **argv)
{
    a->format = "text";
    a->overrides = calloc((size_t)argc + 1, sizeof *a->overrides);
    if (!a->overrides)
        return FSC_EXIT_INPUT;
    for (int i = 1; i < argc; i++) {
        char *s = argv[i];
        bool missing = false;
        const char *v;
        if (!strcmp(s, "--help") || !strcmp(s, "-h")) {
            fputs(rerun_help, stdout);
            fputs(fsc_cli_common_help, stdout);
            return -2;
        }
        if (!strcmp(s, "--dry-run")) {
            a->dry_run = true;
        } else if ((v = fsc_cli_opt_value(argc, argv, &i, "--format", "-f", &missing))) {
            a->format = v;
        } else if ((v = fsc_cli_opt_value(argc, argv, &i, "--metrics", "-m", &missing))) {
            a->metrics = v;
        } else if ((v = fsc_cli_opt_value(argc, argv, &i, "--output", "-o", &missing))) {
            a->output = v;
        } else if (!strncmp(s, "--directory=", 12)) {
            a->directory = s + 12;
        } else if (missing) {
            return fsc_cli_usage("rerun", "%s needs a value", s);
        } else {
            int r = fsc_cli_common_opt(&a->common, argc, argv, &i);
            if (r < 0)
                return fsc_cli_usage("rerun", "bad value for %s", s);
            if (r)
                continue;
            if (!strncmp(s, "--", 2) && s[2]) {
                char key[64];
                size_t klen = strcspn(s + 2, "=");
                snprintf(key, sizeof key, "%.*s", (int)(klen < 63 ? klen : 63), s + 2);
                if (!strcmp(key, "name"))
                    return fsc_cli_usage("rerun", "--name: rerun takes the jobs from the document");
                /* check the override now, so that a typo costs nothing */
                fsc_jobset tmp;
                fsc_jobset_init(&tmp);
                char msg[384];
                const char *eq = strchr(s, '=');
                fsc_status st = fsc_jobdef_set(&tmp.global, key, eq ? eq + 1 : NULL, msg, sizeof msg);
                fsc_jobset_free(&tmp);
                if (st != FSC_OK)
                    return fsc_cli_usage("rerun", "--%s: %s", key, msg);
                a->overrides[a->n_overrides++] = s;
            } else if (!a->doc) {
                a->doc = s;
            } else {
                return fsc_cli_usage("rerun", "give one document ('%s' is a second)", s);
            }
        }
    }
    if (!a->doc)
        return fsc_cli_usage("rerun", "give the document whose jobs to run again");
    return -1;
}

static fsc_status apply_overrides(fsc_jobset *js, const rerun_args *a, char *err, size_t errlen)
{
    for (int i = 0; i < a->n_overrides; i++) {
        const char *s = a->overrides[i] + 2, *eq = strchr(s, '=');
        char key[64];
        snprintf(key, sizeof key, "%.*s", (int)(eq ? (size_t)(eq - s) : strlen(s)), s);
        fsc_status st = fsc_jobset_override(js, key, eq ? eq + 1 : NULL, err, errlen);
        if (st != FSC_OK)
            return st;
    }
    return FSC_OK;
}

/* ---- the command ---- */

typedef struct plan {
    fsc_jobset js;
    size_t run; /* index into the document's runset */
    char note[512];
} plan;

static bool selected(const fsc_analysis *a, size_t run)
{
    for (size_t i = 0; i < fsc_analysis_n_rows(a); i++)
        if (fsc_analysis_row(a, i)->run == run)
            return true;
    return false;
}

static int build_plans(const rerun_args *a, const fsc_runset *doc, const fsc_analysis *an, const char *dir,
                       plan **out, size_t *n_out)
{
    plan *plans = calloc(doc->n_runs ? doc->n_runs : 1, sizeof *plans);
    size_t n = 0;
    pathmap pm = {0};
    int rc = FSC_EXIT_OK;
    if (!plans)
        return FSC_EXIT_INPUT;
    for (size_t r = 0; r < doc->n_runs && rc == FSC_EXIT_OK; r++) {
        const fsc_run *run = doc->runs[r];
        if (!selected(an, r))
            continue;
        plan *p = &plans[n++];
        p->run = r;
        fsc_jobset_init(&p->js);
        p->js.ignore_unsupported = true;
        char err[512] = "";
        fsc_buf note = {0};
        fsc_status st;
        if (run->command && is_job_file(run->command))
            st = fsc_jobset_read_text(&p->js, run->command, strlen(run->command), "job file", err, sizeof err);
        else if (run->command)
            st = jobs_from_command(&p->js, run->command, &note, err, sizeof err);
        else
            st = FSC_OK;
        if (st == FSC_OK && !p->js.n_jobs) {
            fsc_jobset_free(&p->js);
            fsc_jobset_init(&p->js);
            p->js.ignore_unsupported = true;
            st = jobs_from_output(&p->js, run, err, sizeof err);
            fsc_buf_printf(&note, "%sno fio command or job file shown: jobs made from the options its output names",
                           note.len ? "; " : "");
        }
        if (st == FSC_OK)
            st = apply_overrides(&p->js, a, err, sizeof err);
        if (st == FSC_OK)
            st = relocate(&p->js, dir, &pm, err, sizeof err);
        if (st == FSC_OK)
            st = fsc_jobset_check(&p->js, err, sizeof err);
        snprintf(p->note, sizeof p->note, "%.*s", (int)note.len, note.data ? note.data : "");
        fsc_buf_free(&note);
        if (st != FSC_OK) {
            fsc_cli_err("rerun: %s (%s): %s", run->id ? run->id : "run", run->label ? run->label : "", err);
            rc = st == FSC_E_NOMEM ? FSC_EXIT_INPUT : FSC_EXIT_USAGE;
        }
    }
    pathmap_free(&pm);
    *out = plans;
    *n_out = n;
    return rc;
}

static void free_plans(plan *plans, size_t n)
{
    for (size_t i = 0; i < n; i++)
        fsc_jobset_free(&plans[i].js);
    free(plans);
}

static void print_dry_run(const fsc_runset *doc, const plan *plans, size_t n)
{
    fsc_buf out = {0};
    for (size_t i = 0; i < n; i++) {
        const fsc_run *run = doc->runs[plans[i].run];
        fsc_buf_printf(&out, "%s# %s: %s\n", i ? "\n" : "", run->id ? run->id : "run", run->label ? run->label : "");
        if (plans[i].note[0])
            fsc_buf_printf(&out, "# note: %s\n", plans[i].note);
        for (size_t k = 0; k < plans[i].js.n_ignored; k++)
            fsc_buf_printf(&out, "# ignored: %s\n", plans[i].js.ignored[k]);
        fsc_jobset_write(&out, &plans[i].js);
    }
    fsc_buf_write(&out, stdout);
    fsc_buf_free(&out);
}

/* The local run takes the document run's label and context, so that the two pair. */
static bool adopt_identity(fsc_run *local, const fsc_run *doc_run)
{
    free(local->label);
    local->label = fsc_strdup(doc_run->label ? doc_run->label : "");
    for (size_t i = 0; i < doc_run->n_context; i++)
        if (!fsc_run_add_context(local, doc_run->context[i]))
            return false;
    local->context_titled = doc_run->context_titled;
    if (doc_run->command && !(local->command = fsc_strdup(doc_run->command)))
        return false;
    return local->label != NULL;
}

static int run_plans(const rerun_args *a, fsc_runset *doc, plan *plans, size_t n)
{
    fsc_runset base, local;
    fsc_runset_init(&base);
    fsc_runset_init(&local);
    int rc = FSC_EXIT_OK;
    for (size_t i = 0; i < n; i++) {
        const fsc_run *dr = doc->runs[plans[i].run];
        if (!a->common.quiet)
            fsc_cli_err("rerun: %zu/%zu: %s (%zu job%s)%s%s", i + 1, n, dr->label ? dr->label : "",
                        plans[i].js.n_jobs, plans[i].js.n_jobs == 1 ? "" : "s", plans[i].note[0] ? ": " : "",
                        plans[i].note);
        char err[512] = "";
        bool interrupted = false;
        fsc_engine_opts eo = {0};
        fsc_run *run = fsc_engine_run(&plans[i].js, &eo, &interrupted, err, sizeof err);
        if (!run) {
            fsc_cli_err("rerun: %s: %s", dr->label ? dr->label : "", err);
            rc = FSC_EXIT_INPUT;
            if (interrupted)
                break;
            continue;
        }
        if (!adopt_identity(run, dr) || !fsc_runset_add(&local, run)) {
            rc = FSC_EXIT_INPUT;
            break;
        }
        /* the document's run moves into the base side */
        if (!fsc_runset_add(&base, doc->runs[plans[i].run])) {
            rc = FSC_EXIT_INPUT;
            break;
        }
        doc->runs[plans[i].run] = NULL;
        if (interrupted) {
            fsc_cli_err("rerun: interrupted by a signal; comparing what ran");
            rc = FSC_EXIT_INPUT;
            break;
        }
    }
    if (local.n_runs) {
        static const char *const names[] = {"document", "local"};
        fsc_analysis_opts ao = {.label_from = a->common.label_from};
        fsc_compare_opts co = {.metrics = a->metrics, .match = "label", .analysis = &ao, .side_names = names,
                               .label_from = a->common.label_from};
        fsc_buf err = {0}, out = {0};
        fsc_status st = FSC_OK;
        fsc_comparison *cmp = fsc_compare_build(&base, &local, &co, &err, &st);
        if (!cmp || fsc_compare_render(cmp, a->format, false, &out) != FSC_OK) {
            fsc_cli_err("rerun: %s", err.len ? err.data : fsc_strerror(st ? st : FSC_E_USAGE));
            rc = st == FSC_E_USAGE ? FSC_EXIT_USAGE : FSC_EXIT_INPUT;
        } else {
            fsc_buf oerr = {0};
            fsc_outfile *f = fsc_outfile_open(a->output, &oerr);
            bool ok = f && fsc_outfile_write(f, out.data ? out.data : "", out.len);
            if (f)
                ok = fsc_outfile_commit(f, ok, &oerr) && ok;
            if (!ok) {
                fsc_cli_err("rerun: %s", oerr.len ? oerr.data : "cannot write the comparison");
                rc = FSC_EXIT_INPUT;
            }
            fsc_buf_free(&oerr);
        }
        fsc_comparison_free(cmp);
        fsc_buf_free(&err);
        fsc_buf_free(&out);
    }
    fsc_runset_clear(&base);
    fsc_runset_clear(&local);
    return rc;
}

int fsc_cmd_rerun(int argc, char **argv)
{
    rerun_args a = {.common = {.input = {.progress = true}}};
    int rc = read_cli(&a, argc, argv);
    if (rc == -2) {
        free(a.overrides);
        fsc_cli_common_free(&a.common);
        return FSC_EXIT_OK;
    }
    if (rc == -1)
        rc = fsc_cli_check_analysis("rerun", &a.common);
    if (rc != -1) {
        free(a.overrides);
        fsc_cli_common_free(&a.common);
        return rc;
    }
    fsc_runset doc;
    fsc_manifest man;
    fsc_runset_init(&doc);
    memset(&man, 0, sizeof man);
    const char *paths[1] = {a.doc};
    rc = fsc_cli_load(&a.common, paths, 1, &doc, &man);
    fsc_analysis *an = NULL;
    char made[4096] = "";
    const char *dir = a.directory;
    if (rc == FSC_EXIT_OK && !doc.n_runs) {
        fsc_cli_err("rerun: %s holds no fio run", a.doc);
        rc = FSC_EXIT_INPUT;
    }
    if (rc == FSC_EXIT_OK) {
        int arc = FSC_EXIT_OK;
        an = fsc_cli_analyze("rerun", &a.common, &doc, paths, 1, &arc);
        if (!an)
            rc = arc;
        else if (!fsc_analysis_n_rows(an)) {
            fsc_cli_err("rerun: no run of %s matches --where", a.doc);
            rc = FSC_EXIT_INPUT;
        }
    }
    if (rc == FSC_EXIT_OK && !dir) {
        snprintf(made, sizeof made, "fioscope-rerun.XXXXXX");
        if (!a.dry_run && !mkdtemp(made)) {
            fsc_cli_err("rerun: cannot make a folder for the data files here: %s", strerror(errno));
            rc = FSC_EXIT_INPUT;
        }
        dir = made;
    } else if (rc == FSC_EXIT_OK) {
        struct stat st;
        if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
            fsc_cli_err("rerun: --directory=%s is not a folder", dir);
            rc = FSC_EXIT_USAGE;
        }
    }
    plan *plans = NULL;
    size_t n_plans = 0;
    if (rc == FSC_EXIT_OK)
        rc = build_plans(&a, &doc, an, dir, &plans, &n_plans);
    fsc_analysis_free(an);
    if (rc == FSC_EXIT_OK && a.dry_run)
        print_dry_run(&doc, plans, n_plans);
    else if (rc == FSC_EXIT_OK)
        rc = run_plans(&a, &doc, plans, n_plans);
    free_plans(plans, n_plans);
    if (made[0] && !a.dry_run && rmdir(made) != 0 && errno != ENOENT)
        fsc_cli_err("rerun: could not remove %s: %s", made, strerror(errno));
    fsc_runset_clear(&doc);
    fsc_manifest_free(&man);
    free(a.overrides);
    fsc_cli_common_free(&a.common);
    return rc;
}
