/* SPDX-License-Identifier: MIT */
/* `fioscope run`: the built-in I/O engine with fio's job files and options; prints fio
 * 3.33 normal text, fio's JSON / json+ and terse v3 of the same run model. */
#define _GNU_SOURCE
#include "cli.h"
#include "outfile.h"
#include "runjobs.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>

static const char run_help[] =
    "usage: fioscope run [JOBFILE] [--output-format=normal|json|json+|terse[,...]] [--minimal]\n"
    "                    [--output=FILE] [--allow-overwrite] [--ignore-unsupported]\n"
    "                    [--option=value ...]\n"
    "\n"
    "Runs fio jobs with the built-in engine and prints the results as fio 3.33 does:\n"
    "normal text (first line: the engine banner), fio's JSON or json+ (\"fio version\":\n"
    "\"fioscope-engine-X.Y.Z\"), terse version 3 (--minimal).\n"
    "Options use fio's names: --name=N starts a job, options after it apply to it,\n"
    "options before any --name are global (with a JOBFILE: they apply to its jobs).\n"
    "docs/engine.md lists every option; an unknown option is an error naming the\n"
    "nearest real one.\n"
    "\n"
    "  --allow-overwrite     allow writing into existing files and block devices\n"
    "                        (by default only files fioscope creates are written)\n"
    "  --ignore-unsupported  run anyway when an option is unknown; the run's warnings\n"
    "                        list what was ignored\n";

typedef struct run_args {
    const char *jobfile;
    fsc_runjobs_opts out;
    bool ignore_unsupported;
    char **global_args, **job_args; /* fio options before / from the first --name */
    int n_global, n_job;
} run_args;

int fsc_runjobs_formats(const char *list)
{
    static const struct {
        const char *name;
        int bits;
    } words[] = {{"normal", FSC_OUT_NORMAL}, {"json", FSC_OUT_JSON}, {"json+", FSC_OUT_JSONPLUS},
                 {"terse", FSC_OUT_TERSE}};
    int bits = 0;
    const char *p = list;
    while (*p) {
        size_t len = strcspn(p, ",");
        int found = 0;
        for (size_t i = 0; i < FSC_ARRAY_SIZE(words); i++)
            if (strlen(words[i].name) == len && !strncmp(p, words[i].name, len))
                found = words[i].bits;
        if (!found)
            return 0;
        bits |= found;
        p += len;
        if (*p == ',')
            p++;
    }
    return bits;
}

/* Returns -1 to exit 0 (help), FSC_EXIT_USAGE on a usage error, 0 to go on. */
static int read_cli(run_args *a, int argc, char **argv)
{
    a->global_args = calloc((size_t)argc + 1, sizeof *a->global_args);
    a->job_args = calloc((size_t)argc + 1, sizeof *a->job_args);
    if (!a->global_args || !a->job_args)
        return FSC_EXIT_INPUT;
    for (int i = 1; i < argc; i++) {
        char *s = argv[i];
        if (!strcmp(s, "--help") || !strcmp(s, "-h")) {
            fputs(run_help, stdout);
            return -1;
        }
        if (!strncmp(s, "--output-format=", 16)) {
            if (!(a->out.formats = fsc_runjobs_formats(s + 16)))
                return fsc_cli_usage("run", "--output-format=%s: use normal, json, json+ or terse (comma-separated)",
                                     s + 16);
        } else if (!strcmp(s, "--minimal")) {
            a->out.formats |= FSC_OUT_TERSE;
        } else if (!strncmp(s, "--terse-version=", 16)) {
            if (strcmp(s + 16, "3") != 0)
                return fsc_cli_usage("run", "--terse-version=%s: only version 3 is written", s + 16);
        } else if (!strncmp(s, "--output=", 9)) {
            if (!s[9])
                return fsc_cli_usage("run", "--output needs a file name");
            a->out.output = s + 9;
        } else if (!strcmp(s, "--allow-overwrite")) {
            a->out.allow_overwrite = true;
        } else if (!strcmp(s, "--ignore-unsupported")) {
            a->ignore_unsupported = true;
        } else if (!strncmp(s, "--", 2)) {
            if (!strncmp(s, "--name=", 7) || a->n_job)
                a->job_args[a->n_job++] = s;
            else
                a->global_args[a->n_global++] = s;
        } else if (!a->jobfile) {
            a->jobfile = s;
        } else {
            return fsc_cli_usage("run", "only one job file can be given ('%s')", s);
        }
    }
    return 0;
}

/* Options before any --name: the global section, and with a job file every job in it. */
static fsc_status apply_globals(fsc_jobset *js, const run_args *a, char *err, size_t errlen)
{
    fsc_status st = FSC_OK;
    for (int i = 0; st == FSC_OK && i < a->n_global; i++) {
        const char *s = a->global_args[i] + 2, *eq = strchr(s, '=');
        char key[64];
        size_t klen = eq ? (size_t)(eq - s) : strlen(s);
        if (klen >= sizeof key) {
            snprintf(err, errlen, "unknown or unsupported option '%s'", a->global_args[i]);
            return FSC_E_USAGE;
        }
        memcpy(key, s, klen);
        key[klen] = '\0';
        st = fsc_jobset_override(js, key, eq ? eq + 1 : NULL, err, errlen);
    }
    return st;
}

static void print_note(void *ctx, const char *line)
{
    FILE *f = ctx;
    fprintf(f, "%s\n", line);
    fflush(f);
}

static int64_t now_ms(void)
{
    struct timeval tv;
    gettimeofday(&tv, NULL);
    return (int64_t)tv.tv_sec * 1000 + tv.tv_usec / 1000;
}

int fsc_runjobs_execute(const fsc_jobset *js, const fsc_runjobs_opts *o, fsc_run **keep)
{
    int formats = o->formats ? o->formats : FSC_OUT_NORMAL;
    char err[512] = "";
    fsc_buf out = {0}, ferr = {0};
    /* the preamble goes where the results go: a file named by --output, or stdout */
    fsc_outfile *of = NULL;
    if (o->output) {
        of = fsc_outfile_open(o->output, &ferr);
        if (!of) {
            fsc_cli_err("run: %.*s", (int)ferr.len, ferr.data ? ferr.data : "");
            fsc_buf_free(&ferr);
            return FSC_EXIT_INPUT;
        }
    }
    FILE *pre = stdout;
    if ((formats & FSC_OUT_NORMAL) && !o->quiet_preamble) {
        fsc_fio_text_preamble(&out, js);
        if (of)
            fsc_outfile_write(of, out.data, out.len);
        else
            fsc_buf_write(&out, pre);
        fflush(pre);
        fsc_buf_reset(&out);
    }
    fsc_engine_opts eo = {.allow_overwrite = o->allow_overwrite,
                          .bins = (formats & FSC_OUT_JSONPLUS) != 0,
                          .note = (formats & FSC_OUT_NORMAL) && !of && !o->quiet_preamble ? print_note : NULL,
                          .note_ctx = pre};
    bool interrupted = false;
    fsc_run *run = fsc_engine_run(js, &eo, &interrupted, err, sizeof err);
    if (!run) {
        fsc_cli_err("run: %s", err);
        if (of)
            fsc_outfile_commit(of, false, &ferr);
        fsc_buf_free(&out);
        fsc_buf_free(&ferr);
        return FSC_EXIT_INPUT;
    }
    /* fio's order: terse, JSON, normal */
    if (formats & FSC_OUT_TERSE)
        fsc_fio_terse_write(&out, run, js);
    if (formats & (FSC_OUT_JSON | FSC_OUT_JSONPLUS))
        fsc_fio_json_write(&out, run, js, (formats & FSC_OUT_JSONPLUS) != 0, now_ms());
    if (formats & FSC_OUT_NORMAL) {
        time_t now = time(NULL);
        char stamp[64] = "";
        struct tm tm;
        strftime(stamp, sizeof stamp, "%a %b %e %H:%M:%S %Y", localtime_r(&now, &tm));
        fsc_fio_text_write(&out, run, stamp);
    }
    bool ok;
    if (of)
        ok = !out.oom && fsc_outfile_write(of, out.data, out.len) && fsc_outfile_commit(of, true, &ferr);
    else
        ok = !out.oom && fsc_buf_write(&out, stdout) && fflush(stdout) == 0;
    for (size_t i = 0; i < run->n_warnings; i++)
        fsc_cli_err("run: warning: %s", run->warnings[i].message);
    fsc_buf_free(&out);
    if (!ok)
        fsc_cli_err("run: cannot write the results%s%.*s", ferr.len ? ": " : "", (int)ferr.len,
                    ferr.data ? ferr.data : "");
    fsc_buf_free(&ferr);
    bool job_error = false;
    for (size_t i = 0; i < run->n_jobs; i++)
        if (run->jobs[i].error.v != 0) {
            job_error = true;
            fsc_cli_err("run: job '%s': %s", run->jobs[i].jobname,
                        run->jobs[i].error_text ? run->jobs[i].error_text : "failed");
        }
    if (keep)
        *keep = run;
    else
        fsc_run_free(run);
    if (interrupted)
        fsc_cli_err("run: interrupted by a signal; the results cover the time until then");
    return ok && !interrupted && !job_error ? FSC_EXIT_OK : FSC_EXIT_INPUT;
}

int fsc_cmd_run(int argc, char **argv)
{
    run_args a = {0};
    fsc_jobset js;
    fsc_jobset_init(&js);
    int rc = read_cli(&a, argc, argv);
    js.ignore_unsupported = a.ignore_unsupported;
    char err[512] = "";
    if (rc == 0) {
        fsc_status st = a.jobfile ? fsc_jobset_read_file(&js, a.jobfile, err, sizeof err) : FSC_OK;
        if (st == FSC_OK)
            st = apply_globals(&js, &a, err, sizeof err);
        if (st == FSC_OK)
            st = fsc_jobset_read_args(&js, a.n_job, a.job_args, err, sizeof err);
        if (st == FSC_OK)
            st = fsc_jobset_check(&js, err, sizeof err);
        if (st == FSC_E_IO) {
            fsc_cli_err("run: %s", err);
            rc = FSC_EXIT_INPUT;
        } else if (st != FSC_OK) {
            rc = fsc_cli_usage("run", "%s", err);
        } else {
            rc = fsc_runjobs_execute(&js, &a.out, NULL);
        }
    }
    fsc_jobset_free(&js);
    free(a.global_args);
    free(a.job_args);
    return rc < 0 ? FSC_EXIT_OK : rc;
}
