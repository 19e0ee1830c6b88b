/* SPDX-License-Identifier: MIT */
/* Walk the inputs (files, directories, "-"), read each into memory and parse it. */
#define _GNU_SOURCE
#include "fioscope/input.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

const char *fsc_input_status_name(fsc_input_status s)
{
    switch (s) {
    case FSC_IN_OK: return "ok";
    case FSC_IN_NO_RUNS: return "no-runs";
    default: return "error";
    }
}

void fsc_manifest_free(fsc_manifest *m)
{
    for (size_t i = 0; i < m->n; i++) {
        free(m->items[i].path);
        free(m->items[i].member);
        free(m->items[i].error);
    }
    free(m->items);
    memset(m, 0, sizeof *m);
}

typedef struct walk {
    const fsc_parser *parser;
    const fsc_input_sink *sink;
    bool stop;
    size_t warnings; /* of the current input */
} walk;

static bool count_run(void *vctx, fsc_run *run)
{
    walk *w = vctx;
    w->warnings += run->n_warnings;
    if (!w->sink->run(w->sink->ctx, run)) {
        w->stop = true;
        return false;
    }
    return true;
}

static fsc_status read_all(FILE *f, char **data, size_t *len)
{
    size_t cap = 1 << 16, n = 0;
    char *b = malloc(cap);
    if (!b)
        return FSC_E_NOMEM;
    for (;;) {
        if (n == cap) {
            char *nb = realloc(b, cap * 2);
            if (!nb) {
                free(b);
                return FSC_E_NOMEM;
            }
            b = nb;
            cap *= 2;
        }
        size_t r = fread(b + n, 1, cap - n, f);
        n += r;
        if (r == 0)
            break;
    }
    if (ferror(f)) {
        free(b);
        return FSC_E_IO;
    }
    *data = b;
    *len = n;
    return FSC_OK;
}

static void report(walk *w, const char *path, const char *member, fsc_input_status st,
                   size_t runs, const char *error)
{
    fsc_input_entry e = {(char *)path, (char *)member, st, runs, w->warnings, (char *)error};
    if (!w->sink->input(w->sink->ctx, &e))
        w->stop = true;
}

static void parse_bytes(walk *w, const char *path, const char *data, size_t len)
{
    fsc_doc doc = {path, NULL, data, len};
    size_t n_runs = 0;
    w->warnings = 0;
    fsc_status st = fsc_parse_doc(w->parser, &doc, count_run, w, &n_runs);
    if (w->stop)
        return;
    if (st != FSC_OK)
        report(w, path, NULL, FSC_IN_ERROR, n_runs, fsc_strerror(st));
    else
        report(w, path, NULL, n_runs ? FSC_IN_OK : FSC_IN_NO_RUNS, n_runs, NULL);
}

static void read_file(walk *w, const char *path)
{
    FILE *f = strcmp(path, "-") ? fopen(path, "rb") : stdin;
    if (!f) {
        char msg[256];
        snprintf(msg, sizeof msg, "cannot open: %s", strerror(errno));
        w->warnings = 0;
        report(w, path, NULL, FSC_IN_ERROR, 0, msg);
        return;
    }
    char *data = NULL;
    size_t len = 0;
    fsc_status st = read_all(f, &data, &len);
    int err = errno;
    if (f != stdin)
        fclose(f);
    if (st != FSC_OK) {
        char msg[256];
        snprintf(msg, sizeof msg, "cannot read: %s", st == FSC_E_IO ? strerror(err) : fsc_strerror(st));
        w->warnings = 0;
        report(w, path, NULL, FSC_IN_ERROR, 0, msg);
        return;
    }
    parse_bytes(w, path, data, len);
    free(data);
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static void walk_path(walk *w, const char *path, int depth)
{
    struct stat sb;
    if (w->stop)
        return;
    if (strcmp(path, "-") && stat(path, &sb) == 0 && S_ISDIR(sb.st_mode)) {
        if (depth > 64) {
            w->warnings = 0;
            report(w, path, NULL, FSC_IN_ERROR, 0, "directory nesting too deep (symlink loop?)");
            return;
        }
        DIR *d = opendir(path);
        if (!d) {
            char msg[256];
            snprintf(msg, sizeof msg, "cannot open directory: %s", strerror(errno));
            w->warnings = 0;
            report(w, path, NULL, FSC_IN_ERROR, 0, msg);
            return;
        }
        char **names = NULL;
        size_t n = 0, cap = 0;
        struct dirent *de;
        while ((de = readdir(d))) {
            if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
                continue;
            char *full = NULL;
            if (asprintf(&full, "%s%s%s", path, path[strlen(path) - 1] == '/' ? "" : "/",
                         de->d_name) < 0)
                continue;
            char **slot = FSC_PUSH(names, n, cap);
            if (!slot) {
                free(full);
                break;
            }
            *slot = full;
        }
        closedir(d);
        qsort(names, n, sizeof *names, cmp_str);
        for (size_t i = 0; i < n; i++) {
            walk_path(w, names[i], depth + 1);
            free(names[i]);
        }
        free(names);
        return;
    }
    read_file(w, path);
}

fsc_status fsc_inputs_read(const char *const *paths, size_t n_paths, const fsc_parser *parser,
                           const fsc_input_opts *opts, const fsc_input_sink *sink)
{
    (void)opts;
    walk w = {parser, sink, false, 0};
    for (size_t i = 0; i < n_paths && !w.stop; i++)
        walk_path(&w, paths[i], 0);
    return w.stop ? FSC_E_INTERRUPTED : FSC_OK;
}
