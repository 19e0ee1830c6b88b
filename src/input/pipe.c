/* SPDX-License-Identifier: MIT */
/*
 * The ordered parse pipeline: worker threads parse documents while the submitting
 * thread reads the next ones; results reach the sink strictly in submission order
 * through a bounded reorder window, so memory stays flat whatever the input size.
 */
#include "input_int.h"

#include "fioscope/hugemem.h"
#include "fioscope/parse.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* Window bounds: documents in flight per worker, and their bytes of text
 * (FSC_WINDOW_BYTES, read, parsed or waiting for their turn). */
#define WINDOW_PER_WORKER 8

struct fsc_pipe {
    const fsc_parser *parser;
    const fsc_input_sink *sink;
    fsc_progress *progress;
    bool stopped;  /* the sink asked to stop */
    bool nomem;
    /* threaded mode only (n_workers > 0) */
    unsigned n_workers;
    pthread_t *workers;
    pthread_mutex_t mu;
    pthread_cond_t work_cv; /* workers: a job to parse, or shutdown */
    pthread_cond_t done_cv; /* submitter: a job finished */
    pthread_cond_t lines_cv; /* workers: a piece's first line is known (fsc_piece_file) */
    bool shutdown;
    bool stop_workers; /* copy of stopped, guarded by mu */
    fsc_item **ring;
    bool *done;
    size_t cap;
    size_t head, next_parse, tail; /* head <= next_parse <= tail, ring index = seq % cap */
    size_t inflight_bytes;           /* text of the jobs between head and tail */
    /* run numbers of the pieces of a huge file: the pieces before job chain_next are
     * parsed and hold chain_runs runs (valid when chain). The worker that finishes
     * piece chain_next numbers its runs itself, on its own thread, instead of the
     * delivering thread renumbering them (the pieces before it were still being
     * parsed when it started). */
    bool chain;
    size_t chain_next, chain_runs;
    bool worker_nomem; /* a worker ran out of memory renumbering */
    /* the pieces of a file read in pieces, delivered so far (submitting thread only) */
    size_t carry_runs, carry_warnings;
    char *carry_error;
    char *carry_why; /* the notes of the pieces before (fsc_why_join), for a file of no run */
    /* the notes of the pieces without runs since the last piece with one, all of them
     * ("line N: ..." lines), for the next run to tell (tell_carried) */
    fsc_buf carry_notes;
    struct fsc_item_out held; /* the last run of the pieces delivered so far, when has_held */
    bool has_held;
    size_t piece_runs; /* runs of the pieces of the current file, delivered or held */
    /* groups of items held until complete (fio logs join their runs), innermost last */
    struct held_group {
        unsigned id;
        struct held {
            fsc_item *item;
            bool join; /* a member of the group (not one riding along for the order) */
        } *items;
        size_t n, cap;
        size_t text;    /* bytes of text held */
        bool windowed;  /* past hold_max: only the current folder's members are held */
    } *groups;
    size_t n_groups, cap_groups;
    size_t hold_max; /* text an archive group without logs may hold (FIOSCOPE_HOLD_BYTES) */
};

/* An archive is one group so that its logs find their runs anywhere in it. Past
 * HOLD_MAX bytes of text (4 MiB: about 25 MB of runs) an archive holds only the
 * members of the folder being read: when the folder changes, what is held is joined
 * and delivered. Memory then stays that of one folder however large the archive
 * (a tarball of years of nightly runs), and logs still find the runs of their own
 * folder; only a log whose run lies in another, earlier folder of such an archive
 * forms a run of format log instead. */
#define HOLD_MAX (4u << 20)

/* A piece parsed before its place was known: its runs become runs carry + 1, ...
 * False when memory ran out. Runs on a worker or on the delivering thread. */
static bool renumber(const fsc_input_sink *sink, fsc_item *job, size_t carry)
{
    job->renumber = false;
    for (size_t k = 0; k < job->n_runs && carry; k++) {
        struct fsc_item_out *o = &job->outs[k];
        if (o->run) {
            char *id = fsc_run_id(job->path, job->member, carry + k + 1);
            if (!id)
                return false;
            free(o->run->id);
            o->run->id = id;
        } else if (o->text) {
            o->text = sink->renumber(sink->ctx, o->text, &o->len, carry);
            if (!o->text)
                return false;
        }
    }
    return true;
}

/* Notes carried past this many bytes are dropped (a file of fio's messages and no
 * run would otherwise be held whole: its manifest shows the first ones anyway). */
#define CARRY_NOTES_MAX (8u << 20)

/* The carried notes become warnings of run: its first ones (the notes stand above it:
 * the pieces before it held no run after them), or its last (they stand below the
 * file's last run, which no later piece has). How many were told. */
static size_t tell_carried(fsc_pipe *p, fsc_run *run, bool first)
{
    size_t own = run->n_warnings;
    bool oom = false;
    fsc_notes_tell(run, p->carry_notes.data, p->carry_notes.len, UINT32_MAX, &oom);
    size_t told = run->n_warnings - own;
    if (oom || (first && !fsc_run_warnings_to_front(run, own, told)))
        p->nomem = p->stopped = true;
    fsc_buf_reset(&p->carry_notes);
    return told;
}

/* Pass a parsed job to the sink: its runs in order, then its manifest entry. */
/* Pass result o (a run, or its rendered bytes) to the sink, which owns it then.
 * False: the sink asks to stop. */
static bool pass_out(fsc_pipe *p, struct fsc_item_out o)
{
    return o.run ? p->sink->run(p->sink->ctx, o.run) : p->sink->text(p->sink->ctx, o.text, o.len);
}

/* Take job's out k (its ownership leaves the job). */
static struct fsc_item_out take_out(fsc_item *job, size_t k)
{
    struct fsc_item_out o = job->outs[k];
    job->outs[k].run = NULL;
    job->outs[k].text = NULL;
    return o;
}

static void deliver_item(fsc_pipe *p, fsc_item *job)
{
    if (job->renumber && !job->fixed && !renumber(p->sink, job, p->carry_runs))
        p->nomem = p->stopped = true;
    /* What the text of a file in pieces says of what is no run ("line N: ..." notes) is
     * told by the run below it, as read whole (parse.c tell_notes): the notes of a
     * piece without runs, and those below a piece's last run, wait for the first run
     * of a later piece; below the file's last run, that run tells them. So a piece's
     * last run waits (p->held) until the next piece with runs, or the file's end. */
    bool piece = job->more || job->continued;
    if (piece && p->has_held && (job->n_runs || job->fixed)) { /* runs below it */
        if (!p->stopped && !pass_out(p, p->held))
            p->stopped = true;
        p->has_held = false;
    }
    if (piece && !job->fixed && job->n_runs && p->carry_notes.len && job->outs[job->n_sent].run)
        job->warnings += tell_carried(p, job->outs[job->n_sent].run, true);
    if (piece && !job->fixed && job->error && p->carry_notes.len < CARRY_NOTES_MAX) {
        fsc_buf_printf(&p->carry_notes, "%s%s", p->carry_notes.len ? "\n" : "", job->error);
        if (p->carry_notes.oom)
            p->nomem = p->stopped = true;
        if (job->n_runs) { /* notes below its last run: not the file's */
            free(job->error);
            job->error = NULL;
        }
    }
    if (!job->more && p->has_held) {
        if (p->carry_notes.len && p->held.run)
            job->warnings += tell_carried(p, p->held.run, false);
        if (!p->stopped && !pass_out(p, p->held))
            p->stopped = true;
        p->has_held = false;
    }
    if (!job->more)
        fsc_buf_free(&p->carry_notes);
    for (size_t k = job->n_sent; k < job->n_runs && !p->stopped; k++) { /* streamed before */
        if (job->more && !job->fixed && k + 1 == job->n_runs && job->outs[k].run) {
            p->held = take_out(job, k); /* (item.c keeps a piece's newest run a run) */
            p->has_held = true;
        } else if (!pass_out(p, take_out(job, k))) {
            p->stopped = true;
        }
    }
    size_t runs = p->carry_runs + job->n_runs, warnings = p->carry_warnings + job->warnings;
    if (job->fixed && job->status == FSC_IN_ERROR && !p->carry_error) {
        p->carry_error = job->error; /* a failed piece fails the file */
        job->error = NULL;
    }
    /* a piece's notes of what is no run, when it had no run: the file's, when no piece
     * has one (the whole text's notes are those of no run at all) */
    char *why = NULL;
    if (!job->fixed && piece) {
        why = fsc_why_join(p->carry_why, job->error);
        p->carry_why = NULL;
        job->error = NULL;
    }
    if (job->more) { /* the manifest entry comes with the last piece */
        p->carry_runs = runs;
        p->carry_warnings = warnings;
        p->carry_why = why;
        why = NULL;
    } else if (!p->stopped) {
        fsc_input_entry e = {job->path, job->member, FSC_IN_OK, runs, warnings, why ? why : job->error, job->arg};
        if (runs && piece) /* notes are of a file without runs */
            e.error = NULL;
        if (p->carry_error) {
            e.status = FSC_IN_ERROR;
            e.error = p->carry_error;
        } else if (job->fixed) {
            e.status = job->status;
        } else if (runs == 0 && !job->log_read) {
            e.status = FSC_IN_NO_RUNS;
        }
        if (e.status != FSC_IN_OK)
            fsc_progress_end(p->progress); /* the sink may print a diagnostic line */
        if (!p->sink->input(p->sink->ctx, &e))
            p->stopped = true;
    }
    free(why);
    if (!job->more) {
        free(p->carry_why);
        p->carry_why = NULL;
        free(p->carry_error);
        p->carry_error = NULL;
        p->carry_runs = p->carry_warnings = 0;
    }
    p->progress->files += !job->more;
    p->progress->text_bytes += job->len;
    p->progress->runs += job->n_runs;
    fsc_progress_tick(p->progress, false);
    fsc_item_free(job);
}

/* Hold job in the innermost open group (join: as one of its members). The rows of a
 * piece of a log file go to its first piece's series at once, so that memory stays
 * flat however long the file. */
static bool hold(fsc_pipe *p, fsc_item *job, bool join)
{
    struct held_group *grp = &p->groups[p->n_groups - 1];
    if (job->continued && job->log) {
        for (size_t i = grp->n; i-- > 0;) {
            fsc_item *first = grp->items[i].item;
            if (first->continued)
                continue;
            if (first->log && !fsc_logfile_append(first->log, job->log)) {
                job->log = NULL;
                return false;
            }
            if (first->log)
                job->log = NULL;
            break;
        }
    }
    struct held *h = FSC_PUSH(grp->items, grp->n, grp->cap);
    if (!h)
        return false;
    h->item = job;
    h->join = join;
    return true;
}

/* Join the logs among the members g holds to their runs (fsc_logs_join). */
static void join_held(fsc_pipe *p, const struct held_group *g)
{
    fsc_item **members = calloc(g->n ? g->n : 1, sizeof *members);
    size_t n = 0;
    for (size_t i = 0; members && i < g->n; i++)
        if (g->items[i].join)
            members[n++] = g->items[i].item;
    if (!p->stopped && (!members || fsc_logs_join(members, n, p->parser) != FSC_OK))
        p->nomem = p->stopped = true;
    free(members);
}

/* Close the innermost group: join its logs to its runs, then deliver its items in
 * order, or pass them to the group around it (an archive in a folder with logs), so
 * that the order of the inputs stays as read. */
static void close_group(fsc_pipe *p)
{
    struct held_group grp = p->groups[--p->n_groups];
    join_held(p, &grp);
    for (size_t i = 0; i < grp.n; i++) {
        fsc_item *it = grp.items[i].item;
        if (p->n_groups && !p->stopped && hold(p, it, false))
            continue;
        deliver_item(p, it); /* after a stop it only frees */
    }
    free(grp.items);
}

/* Join the logs of what group g holds to its runs and deliver it all, in order; g
 * stays open (see HOLD_MAX). */
static void release_group(fsc_pipe *p, struct held_group *g)
{
    join_held(p, g);
    for (size_t i = 0; i < g->n; i++)
        deliver_item(p, g->items[i].item);
    g->n = 0;
    g->text = 0;
}

/* Deliver job, or hold it with its group (and what comes while a group is open), or
 * close the group it ends. */
static void deliver(fsc_pipe *p, fsc_item *job)
{
    if (!job->continued)
        p->piece_runs = 0;
    p->piece_runs += job->n_runs;
    if (job->group_end) {
        if (p->n_groups && p->groups[p->n_groups - 1].id == job->group)
            close_group(p);
        fsc_item_free(job);
        return;
    }
    bool open = p->n_groups && p->groups[p->n_groups - 1].id == job->group;
    if (job->group && !open) {
        struct held_group *grp = FSC_PUSH(p->groups, p->n_groups, p->cap_groups);
        if (!grp) {
            p->nomem = p->stopped = true;
            deliver_item(p, job);
            return;
        }
        memset(grp, 0, sizeof *grp);
        grp->id = job->group;
    }
    if (!p->n_groups) {
        deliver_item(p, job);
        return;
    }
    struct held_group *g = &p->groups[p->n_groups - 1];
    bool member = job->group == g->id;
    /* only the outermost group of archive members is windowed: a folder's group is
     * there because the folder has logs, and a nested group passes its items out */
    bool archive = member && job->member && p->n_groups == 1;
    if (archive && g->windowed && !job->continued && g->n) {
        const fsc_item *last = g->items[g->n - 1].item;
        if (last->member && !fsc_item_same_folder(last, job))
            release_group(p, g);
    }
    size_t len = job->len;
    if (!hold(p, job, member)) {
        p->nomem = p->stopped = true;
        deliver_item(p, job);
        return;
    }
    g->text += len;
    if (archive && g->text > p->hold_max)
        g->windowed = true;
    /* a member read in pieces (longer than a file read whole): past the window, what
     * is held goes out with each piece, so that memory stays flat however long the
     * member (its runs claim no log: see collect_run) */
    if (archive && g->windowed && job->continued)
        release_group(p, g);
}

/* The '\n' bytes of a piece's text (none when it has none or failed). */
static size_t piece_lines(const fsc_item *job)
{
    return job->data && !job->fixed ? fsc_count_lines(job->data, job->len) : 0;
}

/* A piece of a file whose workers count its lines (fsc_piece_file): its first line
 * follows those of the pieces before it, and where a worker read it, it begins where
 * they end (fsc_piece_settle), so it waits for them. They were taken before it
 * (workers take jobs in order) and are counted right after they are read, never
 * waiting on a later piece. */
static void number_lines(fsc_pipe *p, fsc_item *job, bool skip)
{
    fsc_piece_file *pf = job->pf;
    bool settle = !skip && fsc_item_read_piece(job) && pf->fd >= 0;
    /* settled first as if the pieces before end where it was cut (they nearly always
     * do): side by side with the other workers, not in turn */
    uint64_t cut_at = job->pf_off, end = settle ? fsc_piece_settle(job, cut_at) : cut_at + job->len;
    size_t lines = piece_lines(job);
    pthread_mutex_lock(&p->mu);
    while (pf->next != job->pf_index)
        pthread_cond_wait(&p->lines_cv, &p->mu);
    uint64_t start = pf->end;
    pthread_mutex_unlock(&p->mu);
    if (settle && start != cut_at && !job->fixed) { /* the piece before went on into it */
        end = fsc_piece_settle(job, start);
        lines = piece_lines(job);
    }
    pthread_mutex_lock(&p->mu);
    job->first_line = pf->line;
    pf->line += (uint32_t)lines;
    pf->end = end > start ? end : start;
    pf->next++;
    pthread_cond_broadcast(&p->lines_cv);
    pthread_mutex_unlock(&p->mu);
    job->pf = NULL;
    fsc_piece_file_release(pf);
}

static void *worker_main(void *arg)
{
    fsc_pipe *p = arg;
    pthread_mutex_lock(&p->mu);
    for (;;) {
        while (p->next_parse == p->tail && !p->shutdown)
            pthread_cond_wait(&p->work_cv, &p->mu);
        if (p->next_parse == p->tail)
            break;
        size_t seq = p->next_parse++;
        fsc_item *job = p->ring[seq % p->cap];
        bool skip = p->stop_workers;
        pthread_mutex_unlock(&p->mu);
        /* a big text, or many small ones, fill this thread's heap: huge pages for it
         * (the look at the process's mappings that takes is not worth it for one
         * small file) */
        fsc_heap_text_seen(job->len);
        if (job->pf)
            number_lines(p, job, skip);
        if (!skip)
            fsc_item_parse(job, p->parser);
        else
            fsc_item_relay_pass(job); /* the pieces after it may wait for its turn */
        pthread_mutex_lock(&p->mu);
        bool piece = job->continued || job->more;
        if (piece && job->renumber && p->chain && p->chain_next == seq) {
            /* the pieces before are parsed: their run count is known */
            size_t carry = p->chain_runs;
            if (!skip && !job->fixed) {
                pthread_mutex_unlock(&p->mu); /* nobody else touches job until done */
                bool ok = renumber(p->sink, job, carry);
                pthread_mutex_lock(&p->mu);
                p->worker_nomem |= !ok;
            }
            job->renumber = false;
            job->first_run = carry;
        }
        if (piece && !job->renumber) {
            p->chain = true;
            p->chain_next = seq + 1;
            p->chain_runs = job->first_run + job->n_runs;
        }
        p->done[seq % p->cap] = true;
        pthread_cond_signal(&p->done_cv);
    }
    pthread_mutex_unlock(&p->mu);
    return NULL;
}

static void free_threading(fsc_pipe *p)
{
    free(p->workers);
    free(p->ring);
    free(p->done);
}

fsc_pipe *fsc_pipe_new(const fsc_parser *parser, const fsc_input_sink *sink, unsigned jobs,
                       fsc_progress *progress)
{
    fsc_pipe *p = calloc(1, sizeof *p);
    if (!p)
        return NULL;
    p->parser = parser;
    p->sink = sink;
    p->progress = progress;
    const char *hb = getenv("FIOSCOPE_HOLD_BYTES"); /* tests: a smaller bound */
    unsigned long long hold_max = hb ? strtoull(hb, NULL, 10) : 0;
    p->hold_max = hold_max >= 1024 && hold_max <= HOLD_MAX ? (size_t)hold_max : HOLD_MAX;
    /* -j 1 too parses on a worker: this thread reads (and decompresses) the next
     * documents meanwhile, and writes the results */
    if (jobs < 1)
        return p;
    p->cap = (size_t)jobs * WINDOW_PER_WORKER;
    p->ring = calloc(p->cap, sizeof *p->ring);
    p->done = calloc(p->cap, sizeof *p->done);
    p->workers = calloc(jobs, sizeof *p->workers);
    if (!p->ring || !p->done || !p->workers) {
        free_threading(p);
        free(p);
        return NULL;
    }
    pthread_mutex_init(&p->mu, NULL);
    pthread_cond_init(&p->work_cv, NULL);
    pthread_cond_init(&p->done_cv, NULL);
    pthread_cond_init(&p->lines_cv, NULL);
    for (unsigned i = 0; i < jobs; i++) {
        if (pthread_create(&p->workers[i], NULL, worker_main, p) != 0)
            break; /* fewer workers still work; none at all falls back to inline */
        p->n_workers++;
    }
    return p;
}

/* With the lock held: hand finished jobs at the head of the window to the sink (the
 * lock is released meanwhile; only this thread moves head). */
static void deliver_done(fsc_pipe *p)
{
    while (p->head < p->tail && p->done[p->head % p->cap]) {
        fsc_item *job = p->ring[p->head % p->cap];
        p->done[p->head % p->cap] = false;
        p->head++;
        p->inflight_bytes -= job->window_len;
        if (p->worker_nomem)
            p->nomem = p->stopped = true;
        if (job->more && (!p->chain || p->chain_next < p->head)) {
            /* a piece the chain of run numbers stopped at (it was parsed before the
             * one before it): from its delivery on, the count is known again */
            p->chain = true;
            p->chain_next = p->head;
            p->chain_runs = (job->continued ? p->piece_runs : 0) + job->n_runs;
        }
        pthread_mutex_unlock(&p->mu);
        deliver(p, job);
        pthread_mutex_lock(&p->mu);
        p->stop_workers = p->stopped;
    }
}

/* With the lock held: pass the results the worker has published of the document at
 * the head of the window, still being parsed, to the sink (see fsc_item.stream_mu):
 * they are next in the output whatever comes. Not while a group is open (its items
 * are held) or after a stop. True when the lock was released meanwhile. */
static bool stream_head(fsc_pipe *p)
{
    if (p->head == p->tail || p->done[p->head % p->cap] || p->n_groups || p->stopped)
        return false;
    fsc_item *job = p->ring[p->head % p->cap];
    bool released = false;
    while (job->stream_mu && job->n_sent < job->n_ready && !p->stopped) {
        struct fsc_item_out o = take_out(job, job->n_sent++);
        pthread_mutex_unlock(&p->mu);
        bool go = pass_out(p, o);
        pthread_mutex_lock(&p->mu);
        released = true;
        if (!go)
            p->stopped = true;
        p->stop_workers = p->stopped;
    }
    return released;
}

/* With the lock held: deliver_done, and what the job being parsed at the head has
 * ready (stream_head), until neither has anything more: jobs that finish while a
 * streamed result is written are delivered too, so that no wake is missed. */
static void deliver_ready(fsc_pipe *p)
{
    do
        deliver_done(p);
    while (stream_head(p));
}

/* Room in the window for job (len bytes of text)? The pieces of a huge file are
 * alike: two per worker and two more keep the workers busy; more only wait (parsed,
 * their output in the workers' heaps) while the delivering thread is short of CPU.
 * f333 at -j 2 on a busy machine peaked at 52-71 MB with the 12 MiB window of text
 * alone, 43-46 MB with this. */
static bool has_room(const fsc_pipe *p, const fsc_item *job, size_t len)
{
    bool piece = job->continued || job->more;
    return p->tail - p->head < (piece ? 2 * p->n_workers + 2 : p->cap) &&
           (p->inflight_bytes == 0 || p->inflight_bytes + len <= FSC_WINDOW_BYTES);
}

bool fsc_pipe_submit(fsc_pipe *p, fsc_item *job)
{
    if (!job) {
        p->nomem = true;
        return false;
    }
    job->sink = p->sink;
    if (p->stopped || p->nomem) {
        fsc_item_free(job);
        return false;
    }
    if (p->n_workers == 0) {
        fsc_item_parse(job, p->parser);
        deliver(p, job);
        return !p->stopped;
    }
    size_t len = job->len;
    pthread_mutex_lock(&p->mu);
    for (;;) {
        deliver_ready(p);
        if (p->stopped || has_room(p, job, len))
            break;
        pthread_cond_wait(&p->done_cv, &p->mu);
    }
    if (p->stopped) {
        pthread_mutex_unlock(&p->mu);
        fsc_item_free(job);
        return false;
    }
    /* a whole document (not a piece, not held with a group) may be streamed when it
     * reaches the head (stream_head decides then: a group may be open by that time) */
    if (!job->group && !job->group_end && !job->continued && !job->more && !job->is_log && !job->fixed) {
        job->stream_mu = &p->mu;
        job->stream_cv = &p->done_cv;
    }
    p->ring[p->tail % p->cap] = job;
    p->done[p->tail % p->cap] = false;
    p->tail++;
    p->inflight_bytes += len;
    job->window_len = len;
    pthread_cond_signal(&p->work_cv);
    pthread_mutex_unlock(&p->mu);
    fsc_progress_tick(p->progress, false);
    return true;
}

bool fsc_pipe_renumbers(const fsc_pipe *p)
{
    return !p->sink->render || p->sink->renumber;
}

unsigned fsc_pipe_workers(const fsc_pipe *p)
{
    return p->n_workers;
}

size_t fsc_pipe_drain(fsc_pipe *p)
{
    if (p->n_workers) {
        pthread_mutex_lock(&p->mu);
        for (;;) {
            deliver_ready(p);
            if (p->head == p->tail)
                break;
            pthread_cond_wait(&p->done_cv, &p->mu);
        }
        pthread_mutex_unlock(&p->mu);
    }
    return p->piece_runs;
}

fsc_status fsc_pipe_finish(fsc_pipe *p)
{
    if (p->n_workers) {
        pthread_mutex_lock(&p->mu);
        for (;;) {
            deliver_ready(p);
            if (p->head == p->tail)
                break; /* after a stop, deliver() only frees: workers skip parsing */
            pthread_cond_wait(&p->done_cv, &p->mu);
        }
        p->shutdown = true;
        pthread_cond_broadcast(&p->work_cv);
        pthread_mutex_unlock(&p->mu);
        for (unsigned i = 0; i < p->n_workers; i++)
            pthread_join(p->workers[i], NULL);
    }
    if (p->cap) {
        pthread_mutex_destroy(&p->mu);
        pthread_cond_destroy(&p->work_cv);
        pthread_cond_destroy(&p->done_cv);
        pthread_cond_destroy(&p->lines_cv);
    }
    while (p->n_groups) /* groups the walker left open (it stopped) */
        close_group(p);
    free(p->groups);
    fsc_status st = p->nomem ? FSC_E_NOMEM : p->stopped ? FSC_E_INTERRUPTED : FSC_OK;
    free(p->carry_why);
    fsc_buf_free(&p->carry_notes);
    if (p->has_held) { /* stopped before the file's end */
        fsc_run_free(p->held.run);
        free(p->held.text);
    }
    free(p->carry_error);
    free_threading(p);
    free(p);
    return st;
}
