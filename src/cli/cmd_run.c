/* SPDX-License-Identifier: MIT */
/* `fioscope run`: the built-in I/O engine with fio's job files and options; prints
 * fio 3.33 normal text and/or the contract JSON of the same run model. */
#define _GNU_SOURCE
#include "cli.h"
#include "fioscope/engine.h"
#include "fioscope/model_json.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const char run_help[] =
    "usage: fioscope run [JOBFILE] [--output-format=normal|json|normal,json]\n"
    "                    [--allow-overwrite] [--option=value ...]\n"
    "\n"
    "Runs fio-style jobs with the built-in engine and prints the results in fio 3.x\n"
    "normal text (first line: the engine banner) and/or the normalized JSON.\n"
    "Options use fio's names: --name=N starts a job, options after it apply to it,\n"
    "options before any --name are global (with a JOBFILE: they apply to its jobs).\n"
    "\n"
    "  name filename directory size rw (read write randread randwrite rw readwrite\n"
    "  randrw) rwmixread rwmixwrite bs ioengine iodepth direct buffered numjobs\n"
    "  runtime time_based ramp_time loops fsync group_reporting stonewall new_group\n"
    "  percentile_list kb_base thread\n"
    "\n"
    "  --allow-overwrite   allow writing into existing files and block devices\n"
    "                      (by default only files fioscope creates are written)\n";

enum { OUT_NORMAL = 1, OUT_JSON = 2 };

typedef struct run_args {
    const char *jobfile;
    int outputs;
    bool allow_overwrite;
    char **global_args, **job_args; /* fio options before / from the first --name */
    int n_global, n_job;
} run_args;

static int parse_output_format(const char *v)
{
    if (!strcmp(v, "normal"))
        return OUT_NORMAL;
    if (!strcmp(v, "json"))
        return OUT_JSON;
    if (!strcmp(v, "normal,json") || !strcmp(v, "json,normal"))
        return OUT_NORMAL | OUT_JSON;
    return 0;
}

/* Returns -1 to exit 0 (help), FSC_EXIT_USAGE on a usage error, 0 to go on. */
static int read_cli(run_args *a, int argc, char **argv)
{
    a->outputs = OUT_NORMAL;
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
            if (!(a->outputs = parse_output_format(s + 16)))
                return fsc_cli_usage("run", "--output-format=%s: use normal, json or normal,json", s + 16);
        } else if (!strcmp(s, "--allow-overwrite")) {
            a->allow_overwrite = true;
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
    fsc_status st = fsc_jobset_read_args(js, a->n_global, a->global_args, err, errlen);
    for (size_t j = 0; st == FSC_OK && j < js->n_jobs; j++)
        for (int i = 0; st == FSC_OK && i < a->n_global; i++) {
            fsc_jobset one = {.global = js->jobs[j]};
            st = fsc_jobset_read_args(&one, 1, &a->global_args[i], err, errlen);
            js->jobs[j] = one.global;
        }
    return st;
}

static void print_note(void *ctx, const char *line)
{
    (void)ctx;
    printf("%s\n", line);
    fflush(stdout);
}

static void write_json(fsc_buf *b, const fsc_run *run)
{
    fsc_jw w;
    fsc_jw_init(&w, b, true, false);
    fsc_model_write_doc_start(&w);
    fsc_jw_key(&w, "inputs");
    fsc_jw_arr(&w);
    fsc_jw_arr_end(&w);
    fsc_jw_key(&w, "runs");
    fsc_jw_arr(&w);
    fsc_model_write_run(&w, run, NULL);
    fsc_jw_arr_end(&w);
    fsc_jw_obj_end(&w);
    fsc_buf_putc(b, '\n');
}

static int execute(const fsc_jobset *js, const run_args *a)
{
    char err[512] = "";
    fsc_buf out = {0};
    if (a->outputs & OUT_NORMAL) {
        fsc_fio_text_preamble(&out, js);
        fsc_buf_write(&out, stdout);
        fflush(stdout);
        fsc_buf_reset(&out);
    }
    fsc_engine_opts eo = {.allow_overwrite = a->allow_overwrite,
                          .note = (a->outputs & OUT_NORMAL) ? print_note : NULL};
    bool interrupted = false;
    fsc_run *run = fsc_engine_run(js, &eo, &interrupted, err, sizeof err);
    if (!run) {
        fsc_cli_err("run: %s", err);
        fsc_buf_free(&out);
        return FSC_EXIT_INPUT;
    }
    if (a->outputs & OUT_JSON)
        write_json(&out, run);
    if (a->outputs & OUT_NORMAL) {
        time_t now = time(NULL);
        char stamp[64] = "";
        struct tm tm;
        strftime(stamp, sizeof stamp, "%a %b %e %H:%M:%S %Y", localtime_r(&now, &tm));
        fsc_fio_text_write(&out, run, stamp);
    }
    bool ok = !out.oom && fsc_buf_write(&out, stdout) && fflush(stdout) == 0;
    fsc_buf_free(&out);
    fsc_run_free(run);
    if (!ok)
        fsc_cli_err("run: cannot write the results");
    if (interrupted)
        fsc_cli_err("run: interrupted by a signal; the results cover the time until then");
    return ok && !interrupted ? FSC_EXIT_OK : FSC_EXIT_INPUT;
}

int fsc_cmd_run(int argc, char **argv)
{
    run_args a = {0};
    fsc_jobset js;
    fsc_jobset_init(&js);
    int rc = read_cli(&a, argc, argv);
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
            rc = execute(&js, &a);
        }
    }
    fsc_jobset_free(&js);
    free(a.global_args);
    free(a.job_args);
    return rc < 0 ? FSC_EXIT_OK : rc;
}
