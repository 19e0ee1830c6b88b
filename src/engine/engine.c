/* SPDX-License-Identifier: MIT */
/* The run: SIGINT/SIGTERM blocked from the first file on (taken with sigtimedwait, so
 * there is no handler and no global flag), data files and workers set up, one thread per
 * job clone, groups one after the other (stonewall), disk statistics around it all, and
 * what this run created removed at the end. */
#define _GNU_SOURCE
#include "run_int.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

fsc_status fsc_er_fail(engine_run *er, fsc_status st, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(er->err, er->errlen, fmt, ap);
    va_end(ap);
    return st;
}

void fsc_er_note(engine_run *er, const char *fmt, ...)
{
    if (!er->opts || !er->opts->note)
        return;
    char line[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    er->opts->note(er->opts->note_ctx, line);
}

bool fsc_er_signalled(engine_run *er)
{
    const struct timespec zero = {0, 0};
    if (sigtimedwait(&er->sigs, NULL, &zero) > 0)
        er->interrupted = true;
    return er->interrupted;
}

static fsc_status setup_workers(engine_run *er)
{
    const fsc_jobset *js = er->js;
    size_t n = 0;
    for (size_t i = 0; i < js->n_jobs; i++)
        n += js->jobs[i].numjobs;
    er->workers = calloc(n ? n : 1, sizeof *er->workers);
    if (!er->workers)
        return fsc_er_fail(er, FSC_E_NOMEM, "out of memory");
    unsigned gid = 0;
    for (size_t i = 0; i < js->n_jobs; i++) {
        const fsc_jobdef *def = &js->jobs[i];
        if (i > 0 && def->new_group)
            gid++;
        for (unsigned c = 0; c < def->numjobs; c++) {
            worker *w = &er->workers[er->n_workers];
            w->def = def;
            w->clone = c;
            w->groupid = gid;
            w->index = (unsigned)er->n_workers++;
            w->ctx.fd = -1;
            fsc_status st = fsc_worker_prepare(er, w);
            if (st != FSC_OK)
                return st;
            if (fsc_er_signalled(er))
                return fsc_er_fail(er, FSC_E_INTERRUPTED, "interrupted by a signal while setting up job '%s'",
                                   def->name);
        }
    }
    return FSC_OK;
}

/* Run the workers of one group; signals are taken here while they run. */
static fsc_status run_group(engine_run *er, worker *ws, size_t n)
{
    atomic_store(&er->running, 0);
    atomic_store(&er->stop, false);
    for (size_t i = 0; i < n; i++) {
        atomic_fetch_add(&er->running, 1);
        ws[i].started = true;
        if (pthread_create(&ws[i].thread, NULL, fsc_worker_main, &ws[i]) != 0) {
            ws[i].started = false;
            atomic_fetch_sub(&er->running, 1);
            atomic_store(&er->stop, true);
            for (size_t k = 0; k < i; k++)
                pthread_join(ws[k].thread, NULL);
            return fsc_er_fail(er, FSC_E_NOMEM, "cannot start a thread");
        }
    }
    const struct timespec tick = {0, 20 * 1000000L};
    while (atomic_load(&er->running) > 0) {
        if (sigtimedwait(&er->sigs, NULL, &tick) > 0) {
            atomic_store(&er->stop, true);
            er->interrupted = true;
        }
    }
    for (size_t i = 0; i < n; i++)
        pthread_join(ws[i].thread, NULL);
    return FSC_OK;
}

static fsc_run *new_engine_run(const fsc_jobset *js)
{
    fsc_run *run = fsc_run_new();
    if (!run)
        return NULL;
    run->source.format = FSC_FMT_ENGINE;
    run->source.fio_version = fsc_strdup("fioscope-engine-" FSC_VERSION);
    run->id = fsc_strdup("P#1");
    run->label = fsc_strdup(js->jobs[0].name);
    if (!run->source.fio_version || !run->id || !run->label) {
        fsc_run_free(run);
        return NULL;
    }
    for (size_t i = 0; i < js->n_ignored; i++)
        if (!fsc_run_warn(run, 0, "option ignored (--ignore-unsupported): %s", js->ignored[i])) {
            fsc_run_free(run);
            return NULL;
        }
    return run;
}

static fsc_status run_all_groups(engine_run *er, fsc_run *run)
{
    fsc_diskwatch disk;
    bool have_disk = false;
    for (size_t i = 0; i < er->n_workers && !have_disk; i++)
        if (er->workers[i].n_files && er->workers[i].files[0].df)
            have_disk = fsc_diskwatch_find(&disk, er->workers[i].files[0].df->path);
    if (have_disk)
        fsc_diskwatch_sample(&disk, true);
    uint64_t t0 = fsc_now_ns();
    fsc_status st = FSC_OK;
    bool bins = er->opts && er->opts->bins;
    for (size_t i = 0; i < er->n_workers && st == FSC_OK && !er->interrupted;) {
        size_t end = i;
        while (end < er->n_workers && er->workers[end].groupid == er->workers[i].groupid)
            end++;
        st = run_group(er, &er->workers[i], end - i);
        if (st == FSC_OK && !fsc_collect_group(run, &er->workers[i], end - i, er->workers[i].groupid, bins))
            st = fsc_er_fail(er, FSC_E_NOMEM, "out of memory");
        i = end;
    }
    if (have_disk) {
        fsc_diskwatch_sample(&disk, false);
        if (st == FSC_OK && !fsc_diskwatch_report(&disk, run, (fsc_now_ns() - t0) / NS_PER_MS))
            st = fsc_er_fail(er, FSC_E_NOMEM, "out of memory");
        fsc_diskwatch_free(&disk);
    }
    return st;
}

fsc_run *fsc_engine_run(const fsc_jobset *js, const fsc_engine_opts *opts, bool *interrupted, char *err,
                        size_t errlen)
{
    engine_run er = {.js = js, .opts = opts, .err = err, .errlen = errlen};
    atomic_init(&er.stop, false);
    atomic_init(&er.running, 0);
    pthread_mutex_init(&er.lock, NULL);
    pthread_cond_init(&er.cond, NULL);
    *interrupted = false;
    if (fsc_jobset_check(js, err, errlen) != FSC_OK)
        return NULL;
    /* from the first file created on, a SIGINT/SIGTERM must not kill the process
     * before it removed what it made: block them and take them ourselves */
    sigset_t old;
    sigemptyset(&er.sigs);
    sigaddset(&er.sigs, SIGINT);
    sigaddset(&er.sigs, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &er.sigs, &old);
    fsc_run *run = new_engine_run(js);
    fsc_status st = run ? setup_workers(&er) : fsc_er_fail(&er, FSC_E_NOMEM, "out of memory");
    if (st == FSC_OK)
        st = run_all_groups(&er, run);
    for (size_t i = 0; i < er.n_workers; i++)
        fsc_worker_cleanup(&er.workers[i]);
    free(er.workers);
    fsc_files_remove(&er);
    /* a signal that arrived after the last check must not kill us once unblocked */
    fsc_er_signalled(&er);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    pthread_mutex_destroy(&er.lock);
    pthread_cond_destroy(&er.cond);
    *interrupted = er.interrupted;
    if (st != FSC_OK) {
        if (st == FSC_E_INTERRUPTED)
            snprintf(err + strlen(err), errlen - strlen(err), "; the files it had created were removed");
        fsc_run_free(run);
        return NULL;
    }
    return run;
}
