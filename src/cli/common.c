/* SPDX-License-Identifier: MIT */
/* Options and input loading shared by the reading commands. */
#include "cli.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

void fsc_cli_err(const char *fmt, ...)
{
    va_list ap;
    fputs("fioscope: ", stderr);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
}

int fsc_cli_usage(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "fioscope: %s: ", cmd);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, "\nfioscope: try 'fioscope %s --help' for more information\n", cmd);
    return FSC_EXIT_USAGE;
}

/* Value of "--name=value" or "--name value" / "-x value"; NULL if argv[*i] is not it. */
static const char *opt_value(int argc, char **argv, int *i, const char *lng, const char *shrt,
                             bool *missing)
{
    const char *a = argv[*i];
    size_t l = strlen(lng);
    *missing = false;
    if (!strncmp(a, lng, l) && a[l] == '=')
        return a + l + 1;
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

int fsc_cli_common_opt(fsc_cli_common *c, int argc, char **argv, int *i)
{
    bool missing;
    const char *v;
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
    return 0;
}

typedef struct load_ctx {
    fsc_runset *set;
    fsc_manifest *manifest;
    bool quiet;
} load_ctx;

static bool on_run(void *vctx, fsc_run *run)
{
    load_ctx *ctx = vctx;
    return fsc_runset_add(ctx->set, run);
}

static bool on_input(void *vctx, const fsc_input_entry *e)
{
    load_ctx *ctx = vctx;
    fsc_input_entry *d = FSC_PUSH(ctx->manifest->items, ctx->manifest->n, ctx->manifest->cap);
    if (!d)
        return false;
    *d = *e;
    d->path = fsc_strdup(e->path);
    d->member = fsc_strdup(e->member);
    d->error = fsc_strdup(e->error);
    if (!ctx->quiet && e->status != FSC_IN_OK) {
        const char *what = e->status == FSC_IN_NO_RUNS ? "no fio run found" : e->error;
        if (e->member)
            fsc_cli_err("%s: %s: %s", e->path, e->member, what ? what : "error");
        else
            fsc_cli_err("%s: %s", e->path, what ? what : "error");
    }
    return true;
}

int fsc_cli_manifest_status(const fsc_manifest *m)
{
    for (size_t i = 0; i < m->n; i++)
        if (m->items[i].status != FSC_IN_OK)
            return FSC_EXIT_INPUT;
    return FSC_EXIT_OK;
}

int fsc_cli_load(const fsc_cli_common *c, const char *const *paths, size_t n_paths,
                 fsc_runset *set, fsc_manifest *manifest)
{
    fsc_buf err = {0};
    fsc_parse_opts po = {.label_from = c->label_from};
    fsc_parser *p = fsc_parser_new(&po, &err);
    if (!p) {
        fsc_cli_err("cannot load grammars: %s", err.data ? err.data : "?");
        fsc_buf_free(&err);
        return -1;
    }
    load_ctx ctx = {set, manifest, c->quiet};
    fsc_input_sink sink = {on_run, on_input, &ctx};
    fsc_status st = fsc_inputs_read(paths, n_paths, p, &c->input, &sink);
    fsc_parser_free(p);
    fsc_buf_free(&err);
    if (st != FSC_OK) {
        fsc_cli_err("%s", fsc_strerror(st));
        return FSC_EXIT_INPUT;
    }
    return fsc_cli_manifest_status(manifest);
}
