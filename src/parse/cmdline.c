/* SPDX-License-Identifier: MIT */
/*
 * Job options from the fio command line or job file shown before a run. Posts often
 * show `fio --name=x --rw=randread --bs=4k ...` instead of fio's own header line;
 * the options it names fill what the run's text did not show.
 */
#include "parse_int.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

/* Options worth carrying into "job options" (what tables group and label by). */
static const char *const carried[] = {"rw", "readwrite", "bs", "blocksize", "ioengine", "iodepth",
                                      "numjobs", "direct", "size", "runtime", "rwmixread",
                                      "filename", "directory", "time_based", "group_reporting"};

static const char *canonical(const char *key, size_t n)
{
    if (n == 9 && !memcmp(key, "readwrite", 9))
        return "rw";
    if (n == 9 && !memcmp(key, "blocksize", 9))
        return "bs";
    for (size_t i = 0; i < FSC_ARRAY_SIZE(carried); i++)
        if (strlen(carried[i]) == n && !memcmp(carried[i], key, n))
            return carried[i];
    return NULL;
}

typedef struct section {
    char name[128]; /* empty: global */
    fsc_opt opts[FSC_ARRAY_SIZE(carried)];
    size_t n;
} section;

static void section_set(section *s, const char *key, const char *val, size_t vn)
{
    for (size_t i = 0; i < s->n; i++)
        if (!strcmp(s->opts[i].key, key)) {
            free(s->opts[i].val);
            s->opts[i].val = fsc_strndup(val, vn);
            return;
        }
    if (s->n < FSC_ARRAY_SIZE(s->opts)) {
        s->opts[s->n].key = (char *)key; /* static string */
        s->opts[s->n++].val = fsc_strndup(val, vn);
    }
}

static void apply(fsc_job *job, const section *s)
{
    for (size_t i = 0; i < s->n; i++)
        if (s->opts[i].val && !fsc_job_option(job, s->opts[i].key))
            fsc_job_set_option(job, s->opts[i].key, s->opts[i].val);
}

void fsc_command_apply_options(fsc_run *run)
{
    if (!run->command || !run->n_jobs)
        return;
    section secs[16];
    size_t n_secs = 1, cur = 0;
    memset(secs, 0, sizeof secs);
    const char *p = run->command;
    while (*p) {
        while (*p && (isspace((unsigned char)*p) || *p == '\\'))
            p++;
        const char *tok = p;
        bool quoted = false;
        while (*p && (quoted || (!isspace((unsigned char)*p)))) {
            if (*p == '\'' || *p == '"')
                quoted = !quoted;
            p++;
        }
        size_t tn = (size_t)(p - tok);
        if (tn == 0)
            break;
        /* "[name]" of a job file starts a section; "--name=x" on a command line does */
        if (tok[0] == '[' && tok[tn - 1] == ']' && tn > 2) {
            if (tn == 8 && !memcmp(tok, "[global]", 8)) {
                cur = 0;
            } else if (n_secs < FSC_ARRAY_SIZE(secs)) {
                size_t nl = tn - 2 < sizeof secs[0].name - 1 ? tn - 2 : sizeof secs[0].name - 1;
                memcpy(secs[n_secs].name, tok + 1, nl);
                cur = n_secs++;
            }
            continue;
        }
        while (tn && *tok == '-') {
            tok++;
            tn--;
        }
        const char *eq = memchr(tok, '=', tn);
        if (!eq)
            continue;
        size_t kn = (size_t)(eq - tok);
        const char *val = eq + 1;
        size_t vn = tn - kn - 1;
        if (vn >= 2 && (val[0] == '\'' || val[0] == '"') && val[vn - 1] == val[0]) {
            val++;
            vn -= 2;
        }
        if (kn == 4 && !memcmp(tok, "name", 4)) {
            if (n_secs < FSC_ARRAY_SIZE(secs)) {
                size_t nl = vn < sizeof secs[0].name - 1 ? vn : sizeof secs[0].name - 1;
                memcpy(secs[n_secs].name, val, nl);
                cur = n_secs++;
            }
            continue;
        }
        const char *key = canonical(tok, kn);
        if (key)
            section_set(&secs[cur], key, val, vn);
    }
    for (size_t j = 0; j < run->n_jobs; j++) {
        fsc_job *job = &run->jobs[j];
        for (size_t k = 1; k < n_secs; k++)
            if (job->jobname && !strcmp(job->jobname, secs[k].name))
                apply(job, &secs[k]);
        if (n_secs == 2 && !job->jobname)
            apply(job, &secs[1]);
        apply(job, &secs[0]);
    }
    for (size_t k = 0; k < n_secs; k++)
        for (size_t i = 0; i < secs[k].n; i++)
            free(secs[k].opts[i].val);
}
