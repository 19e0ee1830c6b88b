/* SPDX-License-Identifier: MIT */
/*
 * fio normal text → runs. Each line is classified by the grammar; the matched rule's
 * action places its captures in the model. Run boundaries come from anchors (job
 * definitions, banners, job headers after summaries) and from long stretches of prose.
 */
#define _GNU_SOURCE
#include "fastline.h"
#include "grammar.h"
#include "numslip.h"
#include "fioscope/keyindex.h"

#include "fioscope/units.h"

#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/* Unknown non-blank lines after which a run with results is closed. */
#define PROSE_GAP 6
/* Warnings about unknown lines kept per run (the rest are counted and listed). */
#define MAX_LINE_WARNINGS 20

/* st->job / st->dir when the line that would have named them could not be read: the
 * lines after it are not filed under the job or direction before it. */
enum { JOB_LOST = -2, DIR_LOST = -2 };
/* st->pctl_kind of a percentile block read on purpose as noise (per-priority blocks) */
enum { PCTL_IGNORED = -2 };

/* A sentence about text that is no run, waiting for a run to carry it. */
typedef struct carried {
    uint32_t line;
    char *msg;
} carried;

/* The strings point into the parse's defstore (def_str), reset with the definitions. */
typedef struct jobdef {
    char *name, *rw, *bs, *bsdesc, *ioengine, *iodepth;
    char *bs_option; /* bs_spelled's value, once a job asked (bs_asked) */
    bool bs_asked;
    double pid; /* the process of the job it defined in a finished run (0: none) */
} jobdef;

/* Room for the strings of a run's job definitions: blocks of DEFSTORE_BLOCK bytes (or
 * one string's, when longer), linked newest first; a run's definitions are dropped at
 * once, so six allocations and frees a definition become none. */
#define DEFSTORE_BLOCK 4096
typedef struct defblock {
    struct defblock *next;
    size_t used, cap;
    char data[];
} defblock;

typedef struct disk_master {
    size_t index; /* into run->disk_util */
    double sum_r, sum_w;
    uint64_t n;
} disk_master;

/* How far a run's report has come (nstate's report_end). */
typedef enum report_at { REPORT_ON, REPORT_SUMMED, REPORT_OVER } report_at;

typedef struct nstate {
    const fsc_grammar_set *g;
    const fsc_text *t;
    fsc_emit_fn emit;
    void *ctx;
    pcre2_match_data *md;
    bool stopped, oom;

    fsc_run *run;
    uint32_t *spaced;      /* per line: its width when it has a space after its indentation,
                            * 0 when not, NEAR_BLANK when blank (widest_near; made once) */
    uint8_t *verdicts;     /* per line: what wrap_candidates asked the grammar of it (LINE_*) */
    size_t join_credit;    /* bytes of joins join_wrapped may still try (join_credit_add) */
    size_t credited_to;    /* lines below this one have given their credit */
    bool dead_pieces;      /* the pieces of a cut name up to line dead_pieces_to joined */
    size_t dead_pieces_to; /* to nothing: none of them begins a name again (head_piece) */
    size_t first, last; /* line indexes of the current run */
    size_t unknown_since_last; /* non-blank unknown lines since the last recognized one */
    size_t *pending_unknown;   /* their indexes, listed when the run goes on */
    size_t n_pending_unknown, cap_pending_unknown;
    bool prose_since_last;     /* one of them is prose (no '='): a paragraph between runs */
    bool has_results;
    /* the last line read: a disk line (fio's report is over), a group's summary (it
     * is over but for the disk stats) */
    report_at report_end;
    int phase; /* 0 preamble/jobs, 2 groups seen, 3 disk stats seen */
    bool era_known;
    bool kb_decided; /* fio <= 2.16: what "KB" means was worked out for this run */
    /* fsc_slip_version of the version text slip_ver_text ("": none asked yet), asked for
     * every direction line: the text, not its pointer, as a run's string may be freed and
     * another allocated where it was */
    char slip_ver_text[24];
    int slip_ver;
    size_t kb_scan_to; /* kb_base_ahead looked at the lines below this one */
    size_t lines_end;  /* the index after the last line parsed, within the text: the line loop's bound */
    unsigned bw_base; /* fio >= 2.17: what a bw line's "MiB/s" is in KiB/s (dir_bw_base) */
    long bw_base_job; /* the job whose direction line told bw_base, or -1 */
    fsc_unit_rules units;
    long job;  /* index of the current job or -1 */
    /* the job (or -1) and the index of the last line read into it, its last_line to be
     * (tail_flush): one store a line, not the job's */
    long tail_job;
    size_t tail_idx;
    size_t job_line; /* the line of its header */
    bool job_line_again; /* that line came again (header_repeated warned of it) */
    size_t disk_line; /* the line of the run's last disk */
    int dir;   /* current direction or -1 */
    int pctl_dir, pctl_kind; /* open percentile block (kind -1: none / ignored) */
    int pctl_prio; /* its priority's entry in the direction's prios, or -1: the direction's own */
    size_t pctl_row; /* the line of the block's last row read, 0: none since its title */
    /* the items of that row, and of the block's widest row (fio prints all rows but
     * the last one as wide: pctl_width_check) */
    uint8_t pctl_items, pctl_width;
    bool pctl_twice_warned; /* add_pctl told of a percentile twice in this block */
    size_t issued_line; /* 1 + the line of the current job's issued line, 0: none yet */
    /* the job-kv lines of the current job ("latency   : target=...", "errors    :"):
     * their rules and lines, for job_kv_again */
    const fsc_rule *kv_rule[4];
    size_t kv_line[4], n_kv_lines;
    double pctl_last; /* the last percentile of that row */
    /* the percentile read last at each place of a list (pctl_at), and its value */
    struct {
        uint64_t mant;
        uint8_t scale;
        double pct;
    } pct_seen[24];
    uint64_t time_key; /* the run's time so far (ctime_key), 0: none */
    char time_date[25];   /* its line's date (close_run copies it) */
    uint64_t pctl_unit_ns;
    long group;
    size_t group_line, group_dir_last; /* the lines of its header and last summary line (0: none) */
    size_t gid_jobs; /* next_group_listed: the run's jobs looked at, the largest groupid among them */
    double gid_max;
    bool gid_any;
    bool group_tight; /* its first summary line came right under its header */
    char runno[16];         /* "3" of a numbered summary line "3 - READ: ..." */
    disk_master masters[8]; /* md/dm devices whose members are being listed */
    size_t n_masters;
    uint64_t starting;
    uint32_t starting_line; /* original line of "Starting N processes" */
    /* fio --client: the clients' banners ("hostname=h1, ..., fio=fio-3.33") this run
     * has, and the clients' reports it holds (each its jobs, summary, disk stats) */
    unsigned clients, client_reports;
    /* the definitions are a finished run's, kept for the reports of its processes that
     * fio prints again (--status-interval) without them; carried_version its fio's */
    bool defs_carried;
    char carried_version[40]; /* ("" when none, or too long to keep) */
    size_t *noted, n_noted, cap_noted; /* the definitions with a pid (defs_note_pids) */
    size_t line_warnings;
    bool lost_warned;  /* a warning about lines not attributed was given for this job */
    long rw_guess_job; /* the job whose first lines went to the direction its rw or the run allows (cur_dir_slow), -1 */
    size_t rw_guess_line; /* the first of those lines */
    size_t mx_to, mx_at; /* mixed_ahead: lines looked at below this one; the line of its last answer */
    bool mx_mixed;       /* that answer */
    bool dropped;      /* the line being applied had no job or direction to go to */
    bool fragments;    /* result lines without job header or name follow each other */
    /* the job whose results ended (its cpu or IO depths line) before a direction line
     * came without a header: need_job_slow names it in its warning (-1: none) */
    long ended_job;
    bool idle_title; /* "CPU idleness:" (--idle-prof) was read in this run: its lines follow */
    uint32_t job_tag;  /* the line prefix (fsc_line.tag) the current job was named by */
    jobdef *defs;
    size_t n_defs, cap_defs;
    defblock *defstore; /* the strings of defs */
    fsc_keyindex defs_index; /* by name: thousands of job definitions stay linear */
    /* what was found but is no run, for the next run (or the last one) */
    carried *carry;
    size_t n_carry, cap_carry;
    size_t run_carried; /* of carry, those waiting as the current run began (ensure_run) */
    /* IOPS that may have slipped (numslip.h), by direction, until the job's issued
     * count says: the job (its index + 1; 0: none) and the line they were on */
    fsc_count_slip iops_slip[FSC_DIR_COUNT];
    long iops_slip_job[FSC_DIR_COUNT];
    size_t iops_slip_idx[FSC_DIR_COUNT];
    /* IOPS that significant_figures rounded to 0 (dir_rounded_zeros), by direction:
     * the job (index + 1) whose issued count gives them */
    long iops_zero_job[FSC_DIR_COUNT];
    fsc_run *held; /* the last run, emitted when the next one comes (or at the end) */
    size_t held_first, held_last;
    fsc_buf *notes;
    size_t last_consumed; /* 1 + the last line the first pass took (JSON, terse); 0: none */
    /* the fast path (NULL: off); fl holds the line being applied, la the next line
     * when it was lexed ahead (la_idx) to see whether it continues this one */
    const fsc_fastpath *fp;
    fsc_fastline *fl, *la;
    size_t la_idx;
    fsc_fastline fl_buf[2];
    /* a line that holds two of fio's lines (split_lines): where in it the second one
     * begins, read next as a line of its own (0: none) */
    size_t piece_at;
    pcre2_match_data *md_try; /* split_lines' trials (NULL until the first) */
    /* fio prints the same "IO depths", "submit", "complete" and "latency" lines for
     * most jobs: the last one of each is kept with its reading (lex_line) */
    size_t memo_n[4]; /* their lengths (0: none yet) */
    /* how many of them are of each length below 256 (none of 0): one load tells most
     * lines that none is theirs */
    uint8_t memo_lens[256];
    struct {
        const char *s;
        fsc_fastline fl;
    } memo[4];
    /* Each kept reading has a generation (memo_gen, from gen_next); the list a depths
     * reading made of an empty one is kept with it (built), and the same reading of
     * the next job's empty list copies those items: fsc_kvlist_set_n item by item
     * does the same work again for an identical line. */
    uint64_t memo_gen[4], gen_next;
    struct {
        uint64_t gen; /* 0: none */
        size_t n;
        fsc_kv items[FSC_FAST_MAX_ITEMS];
    } built[3];
    bool read_cut;     /* stops_short read join_or_cut's line without its cut value */
    size_t cut_unread; /* index + 1 of the line stops_short told unread */
    /* the names of the run's first names_indexed jobs, by name (same_name_job) */
    fsc_keyindex name_ix;
    size_t names_indexed;
    bool job_headless; /* the current job was made without its header (need_job_slow) */
    fsc_kv rising[FSC_FAST_MAX_ITEMS]; /* fast_list's items, filled by rising_items */
    /* the block sizes of the last job definition asked (bs_spelled_memo) and what
     * bs_spelled made of them: most runs' definitions print the same ones */
    struct {
        bool known, spelled;
        size_t n;
        char desc[96], sizes[160];
    } bs_memo;
} nstate;

static const char *def_name_at(const void *items, size_t i)
{
    return ((const jobdef *)items)[i].name;
}

/* The index of the job definition named name, or n_defs. */
static size_t def_find(nstate *st, const char *name)
{
    return fsc_keyindex_find(&st->defs_index, st->defs, st->n_defs, def_name_at, name);
}

/* The definition of job j: by its name; a finished run's (carried) only for the same
 * process. n_defs: none. */
static size_t job_def(nstate *st, const fsc_job *j)
{
    size_t di = j->jobname ? def_find(st, j->jobname) : st->n_defs;
    if (di < st->n_defs && st->defs_carried && !(j->pid.set && j->pid.v == st->defs[di].pid))
        return st->n_defs;
    return di;
}

/* A new block of the definitions' store with room for n + 1 bytes, or NULL (oom set). */
static __attribute__((noinline)) defblock *def_block(nstate *st, size_t n)
{
    size_t cap = n + 1 > DEFSTORE_BLOCK ? n + 1 : DEFSTORE_BLOCK;
    defblock *b = fsc_budget_charge(sizeof *b + cap) ? malloc(sizeof *b + cap) : NULL;
    if (!b) {
        st->oom = true;
        return NULL;
    }
    b->next = st->defstore;
    b->used = 0;
    b->cap = cap;
    st->defstore = b;
    return b;
}

/* A copy of s[0, n) in the definitions' store, or NULL (oom set) when out of memory.
 * Inline, the new block apart: six calls a definition line built a frame each. */
static inline char *def_str(nstate *st, const char *s, size_t n)
{
    defblock *b = st->defstore;
    if ((!b || b->cap - b->used < n + 1) && !(b = def_block(st, n)))
        return NULL;
    char *d = b->data + b->used;
    memcpy(d, s, n);
    d[n] = '\0';
    b->used += n + 1;
    return d;
}

/* Drop the definitions; keep one block of their store (free: all). */
static void defs_drop(nstate *st, bool all)
{
    st->n_defs = 0;
    st->n_noted = 0;
    fsc_keyindex_free(&st->defs_index);
    defblock *keep = all ? NULL : st->defstore;
    for (defblock *b = keep ? keep->next : st->defstore, *next; b; b = next) {
        next = b->next;
        free(b);
    }
    if (keep) {
        keep->next = NULL;
        keep->used = 0;
    }
    st->defstore = keep;
}

static void defs_clear(nstate *st)
{
    defs_drop(st, false);
}

static void reset_run_state(nstate *st)
{
    st->run = NULL;
    st->has_results = false;
    st->report_end = REPORT_ON;
    st->phase = 0;
    st->era_known = false;
    st->units.era = FSC_ERA_MODERN;
    st->units.kb_base = 1024;
    st->kb_decided = false;
    st->bw_base = 1024;
    st->bw_base_job = -1;
    st->job = -1;
    st->tail_job = -1;
    st->ended_job = -1;
    st->dir = -1;
    st->pctl_kind = -1;
    st->pctl_prio = -1;
    st->time_key = 0;
    st->group = -1;
    st->rw_guess_job = -1;
    st->gid_jobs = 0;
    st->gid_any = false;
    st->n_masters = 0;
    st->starting = 0;
    st->clients = st->client_reports = 0;
    st->line_warnings = 0;
    st->unknown_since_last = 0;
    st->n_pending_unknown = 0;
    st->prose_since_last = false;
    st->lost_warned = false;
    st->fragments = false;
    st->idle_title = false;
    st->job_tag = 0;
    st->names_indexed = 0;
    fsc_keyindex_free(&st->name_ix);
    memset(st->iops_slip_job, 0, sizeof st->iops_slip_job);
    memset(st->iops_zero_job, 0, sizeof st->iops_zero_job);
    st->defs_carried = st->n_noted > 0;
    if (!st->defs_carried)
        defs_clear(st);
}

/* A new preamble: the finished run's definitions are no longer to be carried. */
static void defs_uncarry(nstate *st)
{
    if (st->defs_carried)
        defs_clear(st);
    st->defs_carried = false;
}

/* Before a finished run is passed on: its jobs' processes, on the definitions they
 * came from, and its fio version, for the reports fio prints of them again. */
static void defs_note_pids(nstate *st, const fsc_run *run);

static bool warn(nstate *st, size_t idx, const char *fmt, ...) FSC_PRINTF(3, 4);
static bool warn(nstate *st, size_t idx, const char *fmt, ...)
{
    char msg[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (!fsc_run_warn(st->run, st->t->lines[idx].orig, "%s", msg)) {
        st->oom = true;
        return false;
    }
    return true;
}

static void note_unknown(nstate *st, size_t idx)
{
    fsc_run *run = st->run;
    run->lines.unknown++;
    uint32_t *slot = FSC_PUSH(run->unknown_lines, run->n_unknown_lines, run->cap_unknown_lines);
    if (slot)
        *slot = st->t->lines[idx].orig;
    else
        st->oom = true;
}

/* Remember a sentence about text that is no run, for the run next to it. */
static void carry_note(nstate *st, uint32_t line, const char *msg)
{
    /* a document of fio's JSON or terse lies between the run left out and what comes
     * next: the note is the notes' (parse.c tells it to the next run by line, the
     * document's, as when a cut falls at the document) */
    if (st->notes && st->last_consumed > st->last + 1) {
        fsc_notes_line(st->notes, line);
        fsc_buf_puts(st->notes, msg);
        st->oom = st->oom || st->notes->oom;
        return;
    }
    carried *c = FSC_PUSH(st->carry, st->n_carry, st->cap_carry);
    if (!c || !(c->msg = fsc_strdup(msg))) {
        if (c)
            st->n_carry--;
        st->oom = true;
        return;
    }
    c->line = line;
}

/* The first k carried sentences become warnings of run (the one they stand before or
 * after); the others wait. */
static void give_carried(nstate *st, fsc_run *run, size_t k)
{
    if (!k) /* none (carry may be NULL) */
        return;
    for (size_t i = 0; i < k; i++) {
        if (!fsc_run_warn(run, st->carry[i].line, "%s", st->carry[i].msg))
            st->oom = true;
        free(st->carry[i].msg);
    }
    st->n_carry -= k;
    memmove(st->carry, st->carry + k, st->n_carry * sizeof *st->carry);
}

/* A run kept: the notes carried to it (those waiting as it began: ensure_run counted
 * them) become its first warnings, before its own. Given only now: a run left out
 * (no results) leaves them waiting for the next, or for the notes. */
static void give_carried_first(nstate *st, fsc_run *run)
{
    size_t k = st->run_carried < st->n_carry ? st->run_carried : st->n_carry;
    st->run_carried = 0;
    if (!k)
        return;
    fsc_warning *own = run->warnings;
    size_t n_own = run->n_warnings;
    run->warnings = NULL;
    run->n_warnings = run->cap_warnings = 0;
    give_carried(st, run, k);
    for (size_t i = 0; i < n_own; i++) {
        fsc_warning *w = FSC_PUSH(run->warnings, run->n_warnings, run->cap_warnings);
        if (w)
            *w = own[i];
        else {
            st->oom = true;
            free(own[i].message);
        }
    }
    free(own);
}

/* Pass the held run on and hold this one instead (NULL: just pass it on). */
static void hold_run(nstate *st, fsc_run *run, size_t first, size_t last)
{
    if (st->held && !st->stopped && !st->emit(st->ctx, st->held, st->held_first, st->held_last))
        st->stopped = true;
    else if (st->held && st->stopped)
        fsc_run_free(st->held);
    st->held = run;
    st->held_first = first;
    st->held_last = last;
}

static bool group_has_data(const fsc_group *g)
{
    for (int d = 0; d < FSC_DIR_COUNT; d++)
        if (g->dir[d].present)
            return true;
    return false;
}

/* The first "fio: ..." message of a run (why it may have ended early), or "". */
static const char *first_fio_message(const fsc_run *run)
{
    for (size_t i = 0; i < run->n_warnings; i++)
        if (!strncmp(run->warnings[i].message, "fio: ", 5))
            return run->warnings[i].message;
    return "";
}

static bool lone_banner(const nstate *st);

/* Close the current run: final checks, then hand it on. before_next: a line that
 * begins another run closes it (so Disk stats alone are the tail of a run cut off
 * above, not a run). */
/* The 24 bytes of the date a job header line ends with ("...: pid=1234: Mon Nov 30
 * 03:57:09 2026", fio 2.1 on), or NULL when it ends otherwise. */
static const char *header_date(const char *s, size_t n)
{
    while (n && (s[n - 1] == ' ' || s[n - 1] == '\r'))
        n--;
    return n >= 26 && s[n - 26] == ':' && s[n - 25] == ' ' ? s + n - 24 : NULL;
}

/* A percentile list of zeros only under no latency line of its kind (disable_clat=1:
 * fio 2.x-3.x print the list, zero-filled) is none, as the JSON readers take it
 * (fsc_lat_measured): the text and the JSON of one run read alike. */
static void drop_empty_pctls(fsc_run *run)
{
    for (size_t i = 0; i < run->n_jobs; i++)
        for (int d = 0; d < FSC_DIR_COUNT; d++)
            for (int k = 0; k < FSC_LAT_COUNT; k++) {
                fsc_lat *l = &run->jobs[i].dir[d].lat[k];
                bool zero = l->n_percentile && !fsc_lat_measured(l);
                for (size_t q = 0; zero && q < l->n_percentile; q++)
                    zero = l->percentile[q].ns == 0;
                if (zero)
                    l->n_percentile = 0;
            }
}

/* Line idx, which no rule read, waits with the others for what comes after it. */
static void pend_unknown(nstate *st, size_t idx)
{
    size_t *slot = FSC_PUSH(st->pending_unknown, st->n_pending_unknown, st->cap_pending_unknown);
    if (slot)
        *slot = idx;
    else
        st->oom = true;
}

/* The lines no rule read right below the run's last line (the text after a run is
 * not the run's) that begin as fio's own do not go silently: a summary or disk line
 * cut short where a paste or a view ends ("   READ: io=10939MB, aggrb=5469.4MB/s,
 * minb=5469.4MB/s, maxb"), garbled or out of fio's shape. They are the run's unread
 * lines, with a warning; the first line that does not begin so ends them. */
static void tail_unread(nstate *st)
{
    for (size_t k = 0; k < st->n_pending_unknown; k++) {
        size_t idx = st->pending_unknown[k];
        const char *s = fsc_text_line(st->t, idx);
        size_t n = st->t->lines[idx].len, lead = 0;
        while (lead < n && s[lead] == ' ')
            lead++;
        if (fsc_fio_keyword_at(s, n) != (long)lead)
            break;
        note_unknown(st, idx);
        if (idx + 1 != st->cut_unread && st->line_warnings < MAX_LINE_WARNINGS) {
            st->line_warnings++;
            warn(st, idx, "a line of fio's below the run's last that cannot be read (cut short?): %.*s",
                 (int)(n - lead < 120 ? n - lead : 120), s + lead);
        }
    }
}

/* The last line read into the job tail_job is its last_line. */
static void tail_flush(nstate *st)
{
    if (st->tail_job >= 0)
        st->run->jobs[st->tail_job].last_line = st->t->lines[st->tail_idx].orig;
    st->tail_job = -1;
}

static void close_run(nstate *st, bool before_next)
{
    fsc_run *run = st->run;
    if (!run)
        return;
    tail_flush(st);
    drop_empty_pctls(run);
    if (st->time_key && !run->source.time && !(run->source.time = fsc_strndup(st->time_date, 24)))
        st->oom = true; /* job_time's latest date */
    bool groups = false;
    for (size_t i = 0; i < run->n_groups && !groups; i++)
        groups = group_has_data(&run->groups[i]);
    uint32_t a = st->t->lines[st->first].orig, b = st->t->lines[st->last].orig;
    if (st->fragments) {
        /* result lines of several jobs without headers or names: none can be told apart */
        size_t dropped = 0;
        bool *keep = run->n_jobs ? malloc(run->n_jobs * sizeof *keep) : NULL;
        for (size_t i = 0; keep && i < run->n_jobs; i++) {
            keep[i] = run->jobs[i].jobname != NULL;
            dropped += !keep[i];
        }
        if (keep)
            fsc_run_keep_jobs(run, keep);
        else if (run->n_jobs)
            st->oom = true;
        free(keep);
        if (dropped) {
            const char *msg = "result lines of several jobs without job headers or names (grep output?): not "
                              "read, as their jobs cannot be told apart";
            char note[300];
            snprintf(note, sizeof note, "%s (lines %u-%u)", msg, a, b);
            if (run->n_jobs || run->n_groups || run->n_disk_util)
                fsc_run_warn(run, a, "%s", note);
            else
                carry_note(st, a, note);
        }
    }
    if (run->n_jobs || groups || run->n_disk_util)
        tail_unread(st);
    if (!run->n_jobs && !groups && !run->n_disk_util) {
        /* no number at all: a preamble (a quoted command), or a run stopped before
         * it printed results (a signal, then an empty "Run status group") */
        const char *why = first_fio_message(run);
        char note[600];
        snprintf(note, sizeof note, "a fio run without results (lines %u-%u%s%s): left out", a, b, *why ? "; " : "",
                 why);
        if (run->n_groups || *why)
            carry_note(st, a, note);
        else if (before_next && lone_banner(st))
            ; /* `fio --version` above the run: no attempt, nothing to say */
        else if (st->notes) {
            fsc_notes_line(st->notes, a);
            fsc_buf_puts(st->notes, "fio's preamble without results");
        }
        fsc_run_free(run);
        reset_run_state(st);
        return;
    }
    if (before_next && !run->n_jobs && !groups) {
        char note[200];
        snprintf(note, sizeof note, "Disk stats of a run whose results are not in the text (lines %u-%u): left out",
                 a, b);
        carry_note(st, a, note);
        fsc_run_free(run);
        reset_run_state(st);
        return;
    }
    uint64_t shown = 0;
    for (size_t i = 0; i < run->n_jobs; i++)
        shown += run->jobs[i].jobs.set && run->jobs[i].jobs.v >= 0 && run->jobs[i].jobs.v < 1e15
                     ? (uint64_t)run->jobs[i].jobs.v
                     : 1;
    if (st->starting && run->n_jobs && shown < st->starting) {
        char msg[160];
        snprintf(msg, sizeof msg, "%llu processes were started but only %llu are shown in job blocks (the rest omitted?)",
                 (unsigned long long)st->starting, (unsigned long long)shown);
        fsc_run_warn(run, st->starting_line, "%s", msg);
    }
    if (!run->n_jobs)
        fsc_run_warn(run, 0, "no job blocks: only summaries were found");
    give_carried_first(st, run);
    defs_note_pids(st, run);
    hold_run(st, run, st->first, st->last);
    reset_run_state(st);
}

static bool ensure_run(nstate *st, size_t idx)
{
    if (st->run)
        return true;
    st->run = fsc_run_new();
    if (!st->run) {
        st->oom = true;
        return false;
    }
    st->first = st->last = idx;
    st->run_carried = st->n_carry;
    return true;
}

static fsc_job *cur_job(nstate *st)
{
    return st->job >= 0 ? &st->run->jobs[st->job] : NULL;
}

static inline bool tag_name(const fsc_text *t, size_t idx, const char **name, size_t *len)
{
    return t->lines[idx].tag && fsc_tag_name(t, t->lines[idx].tag, name, len);
}

/* Do line idx and the line that gave tag b name the same job (or both none)? */
static bool same_tag_name(const fsc_text *t, size_t idx, uint32_t b)
{
    const char *x, *y;
    size_t xn, yn;
    bool hx = tag_name(t, idx, &x, &xn), hy = fsc_tag_name(t, b, &y, &yn);
    return hx == hy && (!hx || (xn == yn && !memcmp(x, y, xn)));
}

/* A new job, made current from line idx on (with a header: job_open; without:
 * need_job_slow): the state kept per job starts again (NULL: out of memory). */
static fsc_job *job_add(nstate *st, size_t idx)
{
    fsc_job *j = fsc_run_add_job(st->run);
    if (!j) {
        st->oom = true;
        return NULL;
    }
    st->job = (long)st->run->n_jobs - 1;
    st->dir = -1;
    st->pctl_kind = -1;
    st->lost_warned = false;
    st->issued_line = 0;
    st->n_kv_lines = 0;
    j->first_line = j->last_line = st->t->lines[idx].orig;
    return j;
}

/* Lines whose job cannot be known: count them as unknown, warn once per job. */
/* A result line that belongs to no direction it may be read into (what: which, and
 * why): it and the lines after it up to the next job or direction line are not read. */
static void dir_lost(nstate *st, size_t idx, const char *what)
{
    st->dir = DIR_LOST;
    st->dropped = true;
    st->lost_warned = true;
    warn(st, idx, "%s: not read, nor the lines after it up to the next job or direction line", what);
}

static void lost_line(nstate *st, size_t idx, const char *what)
{
    st->dropped = true;
    if (!st->lost_warned) {
        st->lost_warned = true;
        warn(st, idx, "%s: the lines from here to the next job or direction line are not read", what);
    }
}

/* grep -A prints the matching line as "a.log:rr: (groupid=..." and the lines after it
 * as "a.log-  read: ...": no prefix block takes the header, so its job is named
 * "a.log:rr". The result lines named "a.log" below it are that job's, not a new one. */
static bool grep_context_of(const nstate *st, const fsc_job *j, const char *name, size_t nlen)
{
    return !st->job_tag && j->jobname && strlen(j->jobname) > nlen &&
           !memcmp(j->jobname, name, nlen) && j->jobname[nlen] == ':';
}

/* A result line without a job header (a partial paste, grep output): give it a job,
 * named by the line's prefix when it has one ("4k-qd1.log:  read: ..."). A change of
 * prefix is a change of job. */
static __attribute__((noinline)) fsc_job *need_job_slow(nstate *st, size_t idx)
{
    if (st->job == JOB_LOST) {
        lost_line(st, idx, "a job header line that cannot be read");
        return NULL;
    }
    fsc_job *j = cur_job(st);
    const char *name = NULL;
    size_t nlen = 0;
    bool named = tag_name(st->t, idx, &name, &nlen);
    if (j && (!named || same_tag_name(st->t, idx, st->job_tag) || grep_context_of(st, j, name, nlen)))
        return j;
    if (!(j = job_add(st, idx)))
        return NULL;
    st->job_headless = true;
    st->job_tag = st->t->lines[idx].tag;
    long ended = st->ended_job;
    st->ended_job = -1;
    if (named) {
        if (!(j->jobname = fsc_strndup(name, nlen)))
            st->oom = true;
        warn(st, idx, "results without a job header line: job named '%.*s' after the line's prefix", (int)nlen, name);
    } else if (ended >= 0) {
        const char *before = st->run->jobs[ended].jobname;
        warn(st, idx,
             "a job's results without its header line (lost or unreadable), after those of job '%s': "
             "read as a job of unknown name",
             before ? before : "");
    } else {
        warn(st, idx, "results without a job header line (the text starts inside a run?): job name unknown");
    }
    return j;
}

/* need_job_slow's answer for the lines of fio's own output (a current job, a line
 * without a prefix), at the cost of two tests: it is asked for every result line, and
 * its frame (spilled registers for the slow cases) cost some 36 instructions a call. */
static inline fsc_job *need_job(nstate *st, size_t idx)
{
    if (st->job >= 0 && !st->t->lines[idx].tag)
        return &st->run->jobs[st->job];
    return need_job_slow(st, idx);
}

/* The direction a job's rw option allows alone (read-only, write-only, trim-only), or -1. */
static int single_dir_of(const fsc_job *j)
{
    const char *rw = fsc_job_option(j, "rw");
    if (!rw)
        return -1;
    if (!strcmp(rw, "read") || !strcmp(rw, "randread"))
        return FSC_DIR_READ;
    if (!strcmp(rw, "write") || !strcmp(rw, "randwrite"))
        return FSC_DIR_WRITE;
    if (!strcmp(rw, "trim") || !strcmp(rw, "randtrim"))
        return FSC_DIR_TRIM;
    return -1;
}

/* The first line from line `from` on (to the text's last) that is a group summary
 * line of fio's ("READ:", "WRITE:", "TRIM:", "MIXED:": *group) or another run's job
 * definition (": (g="); the text's end when none is. */
static size_t summary_or_defs(const nstate *st, size_t from, bool *group)
{
    const fsc_text *t = st->t;
    *group = false;
    for (size_t i = from; i < st->lines_end; i++) {
        const char *s = fsc_text_line(t, i);
        size_t n = t->lines[i].len;
        const char *p = fsc_skip_spaces(s, s + n);
        size_t k = (size_t)(p - s);
        *group = (n - k >= 5 && (!memcmp(p, "READ:", 5) || !memcmp(p, "TRIM:", 5))) ||
                 (n - k >= 6 && (!memcmp(p, "WRITE:", 6) || !memcmp(p, "MIXED:", 6)));
        if (*group || (n - k >= 5 && memmem(p, n - k, ": (g=", 5)))
            return i;
    }
    return st->lines_end;
}

/* Is the run's first group summary line below line idx, before another run's job
 * definitions, fio's "MIXED:" (unified_rw_reporting=1: its jobs' one direction is
 * mixed)? Asked where a job's lines come with no direction line above them (lost):
 * each line of the text is looked at once (st->mx_to), an answer serves the lines
 * above the line it was found at (st->mx_at). */
static bool mixed_ahead(nstate *st, size_t idx)
{
    if (idx < st->mx_at && idx + 1 < st->mx_to)
        return st->mx_mixed;
    bool group;
    size_t at = summary_or_defs(st, st->mx_to > idx + 1 ? st->mx_to : idx + 1, &group);
    st->mx_at = at;
    st->mx_to = at + 1;
    st->mx_mixed = false;
    if (group) {
        const char *s = fsc_text_line(st->t, at);
        st->mx_mixed = *fsc_skip_spaces(s, s + st->t->lines[at].len) == 'M';
    }
    return st->mx_mixed;
}

static __attribute__((noinline)) fsc_dir *cur_dir_slow(nstate *st, size_t idx)
{
    if (st->dir < 0 && st->job == -1 && !st->lost_warned) {
        /* stats lines with neither a job nor a direction line above (an excerpt):
         * no job is made up for numbers that cannot be placed */
        lost_line(st, idx, "latency/bandwidth lines without a job header or a read/write line");
        return NULL;
    }
    if (st->dir < 0 && st->job == -1) {
        st->dropped = true;
        return NULL;
    }
    fsc_job *j = need_job(st, idx);
    if (!j)
        return NULL;
    if (st->dir == DIR_LOST) {
        lost_line(st, idx, "a read/write line that cannot be read");
        return NULL;
    }
    if (st->dir < 0) {
        /* stats lines before any direction line (an excerpt that starts inside a job):
         * the job's rw may leave one direction; else they cannot be placed */
        int d = single_dir_of(j);
        if (d < 0 && mixed_ahead(st, idx)) {
            st->dir = FSC_DIR_MIXED;
            st->rw_guess_job = st->job; /* (a mixed line right below: swapped with this one) */
            st->rw_guess_line = idx;
            warn(st, idx, "latency/bandwidth lines before the read/write line: mixed, as the run's group summary says "
                          "(unified_rw_reporting)");
            j->dir[st->dir].present = true;
            return &j->dir[st->dir];
        }
        if (d < 0) {
            lost_line(st, idx, "latency/bandwidth lines before any read/write line, direction unknown");
            return NULL;
        }
        st->dir = d;
        st->rw_guess_job = st->job;
        st->rw_guess_line = idx;
        warn(st, idx, "latency/bandwidth lines before the read/write line: %s, as the job's rw says",
             fsc_ddir_name(d));
    }
    j->dir[st->dir].present = true;
    return &j->dir[st->dir];
}

/* The current direction: cur_dir_slow's answer, without its frame, for a line of a job
 * and direction already open (need_job's fast case). */
static inline fsc_dir *cur_dir(nstate *st, size_t idx)
{
    if (st->dir >= 0 && st->job >= 0 && !st->t->lines[idx].tag) {
        fsc_dir *d = &st->run->jobs[st->job].dir[st->dir];
        d->present = true;
        return d;
    }
    return cur_dir_slow(st, idx);
}

static void trim(const char **s, size_t *n)
{
    while (*n && isspace((unsigned char)**s)) {
        (*s)++;
        (*n)--;
    }
    while (*n && isspace((unsigned char)(*s)[*n - 1]))
        (*n)--;
}

/* bw samples are kept in KiB/s by fio; the label only says which multiple of it:
 * the factor to KiB/s as num/den. */
static bool bwstat_factor(const nstate *st, const char *u, size_t n, uint64_t *num, uint64_t *den)
{
    *num = *den = 1;
    if (n && (u[0] == 'M' || u[0] == 'm'))
        *num = st->bw_base;
    else if (n && (u[0] == 'G' || u[0] == 'g'))
        *num = (uint64_t)st->bw_base * st->bw_base;
    else if (n && u[0] == 'B')
        *den = 1024;
    else if (!n || (u[0] != 'K' && u[0] != 'k'))
        return false;
    if (n >= 3 && !memcmp(u + n - 3, "bit", 3))
        *den *= 8;
    return true;
}

/* "2.50ms" (fio 3.42's latency target) → ns * den_ns: the value's own unit, or none
 * ("250": fio <= 3.41 printed the raw number, already in the field's unit). */
static fsc_status parse_time(const char *s, size_t n, uint64_t den_ns, fsc_num *out)
{
    size_t u = n;
    while (u > 0 && ((s[u - 1] >= 'a' && s[u - 1] <= 'z') || (s[u - 1] >= 'A' && s[u - 1] <= 'Z')))
        u--;
    if (u == n)
        return fsc_parse_plain_num(s, n, out);
    uint64_t ns = fsc_unit_ns(s + u, n - u);
    if (!ns)
        return FSC_E_SYNTAX;
    return fsc_parse_scaled_num(s, u, ns, den_ns, out);
}

/* Convert a captured value. unit/unit_len: the line's "unit" capture, if any. */
static fsc_status convert(nstate *st, fsc_kind kind, const char *s, size_t n, const char *unit,
                          size_t unit_len, fsc_num *out)
{
    trim(&s, &n);
    switch (kind) {
    case FSC_K_INT:
    case FSC_K_PLAIN: return fsc_parse_plain_num(s, n, out);
    case FSC_K_COUNT: return fsc_parse_count_num(s, n, out);
    case FSC_K_SIZE: return fsc_parse_size_num(s, n, st->units, out);
    case FSC_K_RATE: return fsc_parse_rate_num(s, n, st->units, out);
    case FSC_K_PCT: return fsc_parse_pct_num(s, n, out);
    case FSC_K_DURATION:
        if (!unit)
            return FSC_E_SYNTAX;
        return fsc_parse_duration_num(s, n, unit, unit_len, out);
    case FSC_K_BWSTAT: {
        uint64_t num = 1, den = 1;
        if (unit && !bwstat_factor(st, unit, unit_len, &num, &den))
            return FSC_E_SYNTAX;
        return fsc_parse_scaled_num(s, n, num, den, out);
    }
    case FSC_K_TIME_NS: return parse_time(s, n, 1, out);
    case FSC_K_TIME_US: return parse_time(s, n, 1000, out);
    default: return FSC_E_SYNTAX;
    }
}

static void set_num(nstate *st, void *base, const fsc_field *tab, size_t ntab, const char *field,
                    fsc_num v, size_t idx)
{
    const fsc_field *f = fsc_field_find(tab, ntab, field, strlen(field));
    if (!f) {
        warn(st, idx, "grammar names an unknown model field '%.*s'", (int)(strlen(field)), field);
        return;
    }
    *fsc_field_ptr(base, f) = v;
}

/* Captured fields of the rule ("fields") into a struct described by tab. */
static void apply_fields(nstate *st, const fsc_rule *r, const char *line, void *base,
                         const fsc_field *tab, size_t ntab, size_t idx)
{
    for (size_t i = 0; i < r->n_fields; i++) {
        const fsc_capfield *cf = &r->fields[i];
        if (cf->kind == FSC_K_STRING)
            continue;
        const char *s;
        size_t n;
        if (!fsc_rule_capture_num(st->md, line, cf->num, &s, &n))
            continue;
        const fsc_field *f = fsc_field_find(tab, ntab, cf->name, strlen(cf->name));
        if (!f)
            continue; /* a capture meant for another target (e.g. jobname) */
        fsc_num v;
        if (convert(st, cf->kind, s, n, NULL, 0, &v) != FSC_OK) {
            st->run->lines.malformed++;
            warn(st, idx, "cannot read the value '%.*s'", (int)(n), s);
            continue;
        }
        *fsc_field_ptr(base, f) = v; /* set_num, with the field found above */
    }
}

/* Find a kv field by key, allowing a damaged key (a few letters lost or swapped).
 * fio prints the keys of a line in a fixed order (the grammar's kv order), so a key
 * at position pos that is close to the key expected there is read as that key. */
static const fsc_kvfield *kv_lookup(const fsc_rule *r, const char *k, size_t kn, size_t pos,
                                    bool *fuzzy)
{
    const fsc_kvfield *f = fsc_rule_kv(r, k, kn);
    *fuzzy = false;
    if (f || kn == 0)
        return f;
    if (pos < r->n_kv) {
        const char *want = r->kv[pos].key;
        size_t wl = strlen(want);
        size_t d = fsc_edit_distance(k, kn, want, wl);
        if (d <= (wl + 1) / 2 && (kn >= 1 && (k[0] == want[0] || k[kn - 1] == want[wl - 1]))) {
            *fuzzy = true;
            return &r->kv[pos];
        }
    }
    const fsc_kvfield *best = NULL;
    size_t best_d = 99, ties = 0;
    for (size_t i = 0; i < r->n_kv; i++) {
        size_t d = fsc_edit_distance(k, kn, r->kv[i].key, strlen(r->kv[i].key));
        if (d < best_d) {
            best_d = d;
            best = &r->kv[i];
            ties = 0;
        } else if (d == best_d) {
            ties++;
        }
    }
    size_t limit = strlen(best ? best->key : "") >= 5 ? 2 : 1;
    if (best && best_d <= limit && ties == 0) {
        *fuzzy = true;
        return best;
    }
    return NULL;
}

/* "key=value, key=value, ..." of capture "kv" into base/tab. */
static bool kv_seen(const fsc_kvfield *const *seen, size_t n, const fsc_kvfield *f)
{
    for (size_t i = 0; i < n; i++)
        if (seen[i] == f)
            return true;
    return false;
}

static void apply_kv(nstate *st, const fsc_rule *r, const char *line, void *base,
                     const fsc_field *tab, size_t ntab, size_t idx)
{
    const char *s, *unit = NULL;
    size_t n, unit_len = 0;
    if (!fsc_rule_capture_num(st->md, line, r->cap_kv, &s, &n))
        return;
    fsc_rule_capture_num(st->md, line, r->cap_unit, &unit, &unit_len);
    const char *end = s + n;
    size_t pos = 0, n_seen = 0;
    const fsc_kvfield *seen[32]; /* the fields read from this line */
    while (s < end) {
        const char *comma = memchr(s, ',', (size_t)(end - s));
        const char *item_end = comma ? comma : end;
        const char *eq = memchr(s, '=', (size_t)(item_end - s));
        const char *vstart = eq ? eq + 1 : NULL;
        if (!eq) {
            /* "mi8656": the '=' was lost; the key is the letters before the number */
            const char *p = s;
            while (p < item_end && (*p == ' ' || isalpha((unsigned char)*p)))
                p++;
            if (p > s && p < item_end && isdigit((unsigned char)*p)) {
                eq = p;
                vstart = p;
            }
        }
        if (eq) {
            const char *k = s, *v = vstart;
            size_t kn = (size_t)(eq - s), vn = (size_t)(item_end - v);
            trim(&k, &kn);
            trim(&v, &vn);
            bool fuzzy;
            const fsc_kvfield *f = kv_lookup(r, k, kn, pos++, &fuzzy);
            if (f && vstart == eq && !fuzzy) {
                fuzzy = true; /* still a repair: the '=' was missing */
            }
            if (f && kv_seen(seen, n_seen, f)) {
                /* a key again: another line was joined to this one ("stdev=482.97 lat
                 * (usec): min=30, max=..." where a newline was lost); its values would
                 * replace this line's */
                st->run->lines.malformed++;
                warn(st, idx, "'%.*s' again: the rest of the line (another line joined to it?) not read", (int)kn,
                     k);
                return;
            }
            if (f && n_seen < FSC_ARRAY_SIZE(seen))
                seen[n_seen++] = f;
            if (!f) {
                st->run->lines.malformed++;
                warn(st, idx, "unknown field '%.*s'", (int)(kn), k);
            } else if (f->kind == FSC_K_PAIR) {
                const char *slash = memchr(v, '/', vn);
                fsc_num a, b;
                if (slash && fsc_parse_plain_num(v, (size_t)(slash - v), &a) == FSC_OK &&
                    fsc_parse_plain_num(slash + 1, (size_t)(v + vn - slash - 1), &b) == FSC_OK) {
                    set_num(st, base, tab, ntab, f->field, a, idx);
                    if (f->field2)
                        set_num(st, base, tab, ntab, f->field2, b, idx);
                } else {
                    st->run->lines.malformed++;
                    warn(st, idx, "cannot read the value pair '%.*s'", (int)(vn), v);
                }
            } else {
                fsc_num val;
                fsc_status cst = convert(st, f->kind, v, vn, unit, unit_len, &val);
                if (cst != FSC_OK && f->kind != FSC_K_STRING) {
                    /* "59752.00[74/9131]": junk glued to a number by a paste; keep the number */
                    size_t q = 0;
                    while (q < vn && (isdigit((unsigned char)v[q]) || v[q] == '.'))
                        q++;
                    if (q < vn && strchr("kKMG", v[q]))
                        q++;
                    if (q > 0 && q < vn && !isalnum((unsigned char)v[q]) &&
                        convert(st, f->kind, v, q, unit, unit_len, &val) == FSC_OK) {
                        cst = FSC_OK;
                        fuzzy = true;
                    }
                }
                if (cst == FSC_OK) {
                    set_num(st, base, tab, ntab, f->field, val, idx);
                    if (fuzzy) {
                        st->run->lines.repaired++;
                        warn(st, idx, "damaged key '%.*s' read as a known field", (int)(kn), k);
                    }
                } else {
                    st->run->lines.malformed++;
                    warn(st, idx, "cannot read the value '%.*s'", (int)(vn), v);
                }
            }
        }
        s = comma ? comma + 1 : end;
    }
}

/* cap_dup into the definitions' store. */
static char *cap_def(nstate *st, const fsc_rule *r, const char *line, const char *name)
{
    const char *s;
    size_t n;
    if (!fsc_rule_capture(r, st->md, line, name, &s, &n))
        return NULL;
    trim(&s, &n);
    return def_str(st, s, n);
}

static char *cap_dup(nstate *st, const fsc_rule *r, const char *line, const char *name)
{
    const char *s;
    size_t n;
    if (!fsc_rule_capture(r, st->md, line, name, &s, &n))
        return NULL;
    trim(&s, &n);
    char *d = fsc_strndup(s, n);
    if (!d)
        st->oom = true;
    return d;
}

static bool cap_is(nstate *st, const fsc_rule *r, const char *line, const char *name, const char *want)
{
    const char *s;
    size_t n;
    return fsc_rule_capture(r, st->md, line, name, &s, &n) && n == strlen(want) && !memcmp(s, want, n);
}

static void set_era(nstate *st, fsc_unit_era era)
{
    if (st->era_known)
        return;
    st->units.era = era;
    st->era_known = true;
}

static void banner_version(nstate *st, const char *v, size_t vn, bool engine);

static void act_banner(nstate *st, const fsc_rule *r, const char *line)
{
    const char *v;
    size_t vn;
    if (!fsc_rule_capture(r, st->md, line, "version", &v, &vn))
        return;
    bool engine = cap_is(st, r, line, "engine", "fioscope-engine");
    char *host = cap_dup(st, r, line, "hostname");
    if (host) { /* client/server: "hostname=vm, ..., fio=fio-3.33" */
        free(st->run->source.host);
        st->run->source.host = host;
        st->clients++;
    }
    banner_version(st, v, vn, engine);
}

/* The version a banner shows (v[0, vn)): the run's fio_version and the era. */
static void banner_version(nstate *st, const char *v, size_t vn, bool engine)
{
    defs_uncarry(st);
    free(st->run->source.fio_version);
    /* the string at its size (an fsc_buf took 256 bytes and three calls for "fio-3.33") */
    const char *pre = engine ? "fioscope-engine-" : "fio-";
    size_t pn = engine ? sizeof "fioscope-engine-" - 1 : sizeof "fio-" - 1;
    char *name = fsc_budget_charge(pn + vn + 1) ? malloc(pn + vn + 1) : NULL;
    if (name) {
        memcpy(name, pre, pn);
        memcpy(name + pn, v, vn);
        name[pn + vn] = '\0';
    }
    st->run->source.fio_version = name;
    if (engine) {
        st->run->source.format = FSC_FMT_ENGINE;
        set_era(st, FSC_ERA_MODERN);
        return;
    }
    unsigned major = 0, minor = 0;
    /* "3.33", "2.1.10": what sscanf's "%u.%u" reads, without it (short digit runs only) */
    size_t i = 0, ma = 0, mi = 0;
    while (i < vn && i < 9 && v[i] >= '0' && v[i] <= '9')
        major = major * 10 + (unsigned)(v[i++] - '0');
    ma = i;
    if (ma && ma < 9 && i < vn && v[i] == '.') {
        for (i++; i < vn && i < ma + 10 && v[i] >= '0' && v[i] <= '9'; i++)
            minor = minor * 10 + (unsigned)(v[i] - '0');
        mi = i - ma - 1;
    }
    if (mi && (i == vn || !(v[i] >= '0' && v[i] <= '9'))) {
        st->units.era = (major < 2 || (major == 2 && minor < 17)) ? FSC_ERA_LEGACY : FSC_ERA_MODERN;
        st->era_known = true;
        return;
    }
    major = minor = 0;
    char ver[32];
    /* v points into the document: copy it so sscanf does not scan past the line */
    snprintf(ver, sizeof ver, "%.*s", (int)(vn < sizeof ver ? vn : sizeof ver - 1), v);
    if (sscanf(ver, "%u.%u", &major, &minor) == 2) {
        st->units.era = (major < 2 || (major == 2 && minor < 17)) ? FSC_ERA_LEGACY : FSC_ERA_MODERN;
        st->era_known = true;
    }
}

/* A new job definition named name (in the definitions' store), or NULL when one of
 * that name is known (clones repeat the line) or memory ran out. */
static jobdef *jobdef_new(nstate *st, char *name)
{
    if (!name)
        return NULL;
    if (def_find(st, name) < st->n_defs)
        return NULL; /* clones repeat the line */
    jobdef *d = FSC_PUSH(st->defs, st->n_defs, st->cap_defs);
    if (!d) {
        st->oom = true;
        return NULL;
    }
    memset(d, 0, sizeof *d);
    d->name = name;
    if (!fsc_keyindex_added(&st->defs_index, st->defs, st->n_defs, def_name_at)) {
        st->n_defs--;
        st->oom = true;
        return NULL;
    }
    return d;
}

/* The block sizes of a job line line[0, n) as printed ("4K-4K/64K-64K/4K-4K" after
 * "bs=" or "bs(seq/rand)=", up to ", ioengine="), for the kb_base inference; NULL if
 * none. The line is not NUL-terminated: it may lie inside the whole document. */
static char *bsdesc_def(nstate *st, const char *line, size_t n)
{
    const char *p = memmem(line, n, " bs=", 4);
    size_t skip = 4;
    if (!p) {
        p = memmem(line, n, " bs(seq/rand)=", 14);
        skip = 14;
    }
    const char *e = p ? memmem(p, n - (size_t)(p - line), ", ioengine=", 11) : NULL;
    if (!e)
        return NULL;
    return def_str(st, p + skip, (size_t)(e - p - skip));
}

static void act_jobdef(nstate *st, const fsc_rule *r, const char *line, size_t n)
{
    defs_uncarry(st);
    char *name = cap_def(st, r, line, "jobname");
    jobdef *d = name ? jobdef_new(st, name) : NULL;
    if (!d)
        return;
    d->rw = cap_def(st, r, line, "rw");
    d->bs = cap_def(st, r, line, "bs");
    if (!d->bs)
        d->bs = cap_def(st, r, line, "bs2");
    d->bsdesc = bsdesc_def(st, line, n);
    d->ioengine = cap_def(st, r, line, "ioengine");
    d->iodepth = cap_def(st, r, line, "iodepth");
}

/* The prefix a job header line stands under: its own, or, when it has none, that of
 * an empty line right above it (a log's prefix that a word wrap left alone on its
 * line, above a job name longer than the width: "host1:" above "<name>:" and
 * "(groupid=0, ..."). */
static uint32_t header_tag(const nstate *st, size_t idx)
{
    const fsc_line *l = st->t->lines;
    if (l[idx].tag || !idx || l[idx - 1].len)
        return l[idx].tag;
    return l[idx - 1].tag;
}

/* grep -H -A prints the line that matched as "node1.log:rr: (groupid=0, ..." and the
 * lines after it as "node1.log-  read: ...": no prefix block takes the header (its
 * ':' is glued to the job name), so the job was named "node1.log:rr". When the next
 * line's prefix names the file before the ':' (the grep -A mark), the job is "rr" on
 * "node1.log", as the same lines read with grep -n. */
static void grep_header(nstate *st, fsc_job *j, size_t idx)
{
    const char *colon = j->jobname ? strchr(j->jobname, ':') : NULL;
    if (!colon || colon == j->jobname || !colon[1] || header_tag(st, idx) || idx + 1 >= st->t->n_lines)
        return;
    const char *s;
    size_t n;
    uint32_t next = st->t->lines[idx + 1].tag;
    if (!fsc_tag_name(st->t, next, &s, &n) || n != (size_t)(colon - j->jobname) || memcmp(s, j->jobname, n))
        return;
    size_t tl = 0;
    const char *tag = fsc_text_tag(st->t, idx + 1, &tl);
    while (tag && tl && tag[tl - 1] == ' ')
        tl--;
    if (!tl || tag[tl - 1] != '-')
        return; /* "a:b" above "a: ...": a job named so, and a prefix */
    char *rest = fsc_strdup(colon + 1), *host = j->hostname ? NULL : fsc_strndup(s, n);
    if (!rest || (!j->hostname && !host)) {
        free(rest);
        free(host);
        st->oom = true;
        return;
    }
    free(j->jobname);
    j->jobname = rest;
    if (host)
        j->hostname = host;
    st->job_tag = next;
}

/* A job's host when its header line did not show one ("<vm> rr: (groupid=..."): the
 * host its line prefix names, else the run's (a client/server banner's). Before the
 * run's: the lines of several hosts' runs interleave (pdsh). */
static void job_host(nstate *st, fsc_job *j, size_t idx)
{
    const char *s;
    size_t n;
    if (j->hostname)
        return;
    if (fsc_tag_host(st->t, header_tag(st, idx), &s, &n))
        j->hostname = fsc_strndup(s, n);
    else if (st->run->source.host)
        j->hostname = fsc_strdup(st->run->source.host);
    else
        return;
    if (!j->hostname)
        st->oom = true;
}

/* A job header: the new job, made current. */
static fsc_job *job_open(nstate *st, size_t idx)
{
    fsc_job *j = job_add(st, idx);
    if (!j)
        return NULL;
    st->phase = 0; /* (after the summaries only fio --client's "All clients" sum, see below) */
    st->job_headless = false;
    st->job_tag = header_tag(st, idx);
    st->job_line = idx;
    st->job_line_again = false;
    return j;
}

/* Do lines a and b of the text hold the same bytes (a paste that printed a line
 * twice)? */
static bool same_line(const nstate *st, size_t a, size_t b)
{
    size_t n = st->t->lines[a].len;
    return n == st->t->lines[b].len && !memcmp(fsc_text_line(st->t, a), fsc_text_line(st->t, b), n);
}

/* Is line idx the line the run read right above it, again byte for byte (a paste,
 * a terminal or a log shipper that doubled it)? Asked only where a line clashes with
 * one read before it: a second latency, bw, iops, issued or once-a-job line, a second
 * direction line of one kind, a group header or summary line again, a banner or
 * "Starting" line again (which begin another run). fio prints none of these twice in
 * a row (two jobs' lines, two groups' differ at least in a number), so the line is
 * read once, with a warning, where it would cost the lines below it (a second latency
 * line is taken for a lost direction line) or make a group or run of its own. A job
 * header and a disk line are asked too, further apart (header_repeated, disk_open). */
__attribute__((noinline, cold)) static bool doubled(nstate *st, size_t idx)
{
    if (!st->run || !idx || st->last + 1 != idx || !same_line(st, idx - 1, idx))
        return false;
    /* two copies, no more: a line three times in a row or more is no slip of a paste
     * (the same result line of many files, grep output without their names) */
    if ((idx >= 2 && same_line(st, idx - 2, idx - 1)) || (idx + 1 < st->t->n_lines && same_line(st, idx, idx + 1)))
        return false;
    warn(st, idx, "the line above again, byte for byte (a line doubled in the paste?): read once");
    return true;
}

/* Is the job header on line idx the current job's header again, the job nothing
 * else yet (a line pasted twice, a log that repeated it)? It would begin a second
 * job and leave the first one empty, and the jobs after it one place down. */
static bool results_ended(const fsc_job *j);
static bool header_repeated(nstate *st, size_t idx)
{
    if (st->job < 0 || st->job_line >= idx)
        return false;
    const fsc_job *j = &st->run->jobs[st->job];
    if (results_ended(j))
        return false;
    for (int d = 0; d < FSC_DIR_COUNT; d++)
        if (j->dir[d].present)
            return false;
    if (!same_line(st, st->job_line, idx))
        return false;
    if (!st->job_line_again) /* once a job, however often it came */
        warn(st, idx, "job header of '%s' printed twice: read once", j->jobname ? j->jobname : "");
    st->job_line_again = true;
    return true;
}

static void job_close(nstate *st, fsc_job *j);

static void job_time(nstate *st, size_t idx, const char *line, size_t n);

/* A job header glued to the line above it, a line break lost ("     issued rwts:
 * total=0,21899,0,0 ...  randwrite: (groupid=0, ..."): its name holds that line, one
 * of fio's keywords or a list of values ("ios=9187/0, merge=0/0, ..."; a name of a
 * job may hold a '=' itself: "name=1M_seqrw"). The name is the last word; the line
 * above is not read (a warning says so). A name glued to the line with no space
 * between keeps it all, with the warning. */
static void job_name_glued(nstate *st, fsc_job *j, size_t idx)
{
    char *name = j->jobname;
    const char *eq = name ? strchr(name, '=') : NULL;
    if (!eq || (!strstr(eq, ", ") && fsc_fio_keyword_at(name, strlen(name)) < 0) || def_find(st, name) < st->n_defs)
        return; /* (a job defined so is named so: "a=b, c=d") */
    char *sp = strrchr(name, ' ');
    if (sp && sp[1] && !strchr(sp + 1, '='))
        memmove(name, sp + 1, strlen(sp + 1) + 1);
    warn(st, idx, "a job header joined to the line above it (a line break lost?): job '%s'; what stood before "
                  "it on the line is not read", name);
}

static void act_job(nstate *st, const fsc_rule *r, const char *line, size_t n, size_t idx)
{
    if (header_repeated(st, idx))
        return;
    fsc_job *j = job_open(st, idx);
    if (!j)
        return;
    j->jobname = cap_dup(st, r, line, "jobname");
    j->hostname = cap_dup(st, r, line, "hostname");
    job_name_glued(st, j, idx);
    grep_header(st, j, idx);
    job_host(st, j, idx);
    j->error_text = cap_dup(st, r, line, "error_text");
    apply_fields(st, r, line, j, fsc_job_fields, fsc_n_job_fields, idx);
    job_time(st, idx, line, n);
    job_close(st, j);
}

/* The length of the block size s[0, n) begins with ("4096B", "64.0KiB", "4K"), up to
 * blanks after it; 0 when s[0, n) holds anything else. */
static size_t size_len(const char *s, size_t n)
{
    size_t k = 0, d;
    while (k < n && (isdigit((unsigned char)s[k]) || s[k] == '.'))
        k++;
    d = k;
    while (k < n && k - d < 3 && isalpha((unsigned char)s[k]))
        k++;
    size_t end = k;
    while (k < n && s[k] == ' ')
        k++;
    return d && d <= 20 && k == n ? end : 0;
}

/* Nearly every job line: one size thrice ("(R) 4096B-4096B, (W) 4096B-4096B, (T)
 * 4096B-4096B", "4K-4K/4K-4K/4K-4K"), told without a copy. */
static bool one_size(const char *p)
{
    const char *first = NULL;
    size_t first_n = 0;
    while (*p) {
        while (*p == ' ' || *p == ',' || *p == '/' || *p == '(' || *p == ')' || *p == 'R' || *p == 'W' || *p == 'T')
            p++;
        size_t len = strcspn(p, ",/");
        const char *dash = memchr(p, '-', len);
        size_t a = dash ? (size_t)(dash - p) : 0;
        if (!a || len != 2 * a + 1 || memcmp(p, dash + 1, a) || (first && (a != first_n || memcmp(p, first, a))))
            return false;
        first = p;
        first_n = a;
        p += len;
    }
    return first != NULL;
}

/* The block sizes of a definition's description (bsdesc_def: "(R) 4096B-4096B, (W)
 * 64.0KiB-64.0KiB, (T) 64.0KiB-64.0KiB", fio 2.x "4K-4K/64K-64K") in fio's option
 * syntax where they are not one size: "4096B,64.0KiB,64.0KiB" (bs=4k,64k: read, write,
 * trim), "4096B-64.0KiB" (bsrange or bssplit). False when they are one size (the
 * line's bs capture says it) or the text is not fio's. */
static bool bs_spelled(const char *desc, char *out, size_t cap)
{
    if (one_size(desc))
        return false;
    char piece[3][48];
    int n = 0;
    for (const char *p = desc; *p && n < 3;) {
        while (*p == ' ' || *p == ',' || *p == '/')
            p++;
        if (*p == '(') { /* "(R) " */
            const char *c = strchr(p, ')');
            if (!c || c - p > 4)
                return false;
            for (p = c + 1; *p == ' ';)
                p++;
        }
        size_t len = strcspn(p, ",/");
        const char *dash = memchr(p, '-', len), *lo = p, *hi = dash ? dash + 1 : NULL;
        size_t a = dash ? size_len(lo, (size_t)(dash - lo)) : 0;
        while (hi && hi < p + len && *hi == ' ') /* a line wrapped after the dash, joined */
            hi++;
        size_t b = hi ? size_len(hi, (size_t)(p + len - hi)) : 0;
        if (!a || !b)
            return false;
        if (a == b && !memcmp(lo, hi, a))
            snprintf(piece[n], sizeof piece[n], "%.*s", (int)a, lo);
        else
            snprintf(piece[n], sizeof piece[n], "%.*s-%.*s", (int)a, lo, (int)b, hi);
        n++;
        p += len;
    }
    bool same = n > 0;
    for (int i = 1; i < n; i++)
        same = same && !strcmp(piece[i], piece[0]);
    if (!n || (same && !strchr(piece[0], '-')))
        return false;
    if (same)
        snprintf(out, cap, "%s", piece[0]);
    else
        snprintf(out, cap, "%s,%s%s%s", piece[0], n > 1 ? piece[1] : "", n > 2 ? "," : "", n > 2 ? piece[2] : "");
    return true;
}

/* bs_spelled of a definition's block sizes desc: their spelling, or NULL when there
 * is none. The answer for the last desc is kept (st->bs_memo), and a definition that
 * prints the same sizes (most runs') takes it: working them out again cost some 600
 * instructions a definition. */
static const char *bs_spelled_memo(nstate *st, const char *desc)
{
    size_t n = strlen(desc);
    bool keep = n < sizeof st->bs_memo.desc;
    if (!(st->bs_memo.known && keep && n == st->bs_memo.n && !memcmp(desc, st->bs_memo.desc, n))) {
        st->bs_memo.spelled = bs_spelled(desc, st->bs_memo.sizes, sizeof st->bs_memo.sizes);
        st->bs_memo.known = keep;
        if (keep) {
            memcpy(st->bs_memo.desc, desc, n);
            st->bs_memo.n = n;
        }
    }
    return st->bs_memo.spelled ? st->bs_memo.sizes : NULL;
}

/* A job header ends with the time the job ended: the run's time is its jobs' latest
 * (close_run copies it). */
static void job_time(nstate *st, size_t idx, const char *line, size_t n)
{
    /* the header read from its own line, or from a part of it (split_lines); one
     * repaired or joined from more lines ends as its line does */
    const char *own = fsc_text_line(st->t, idx);
    if (line < own || line >= own + st->t->lines[idx].len) {
        line = own;
        n = st->t->lines[idx].len;
    }
    const char *date = header_date(line, n);
    if (!date)
        return;
    uint64_t key = fsc_ctime_key(date);
    if (key > st->time_key) {
        st->time_key = key;
        memcpy(st->time_date, date, 24);
        st->time_date[24] = 0;
    }
}

/* After a job header's values: the options of its job definition, and the host. */
static void job_close(nstate *st, fsc_job *j)
{
    size_t di = job_def(st, j);
    if (di < st->n_defs && st->defs_carried && !st->run->source.fio_version && st->carried_version[0] &&
        !(st->run->source.fio_version = fsc_strdup(st->carried_version)))
        st->oom = true;
    if (di < st->n_defs) {
        jobdef *d = &st->defs[di];
        if (!d->bs_asked) { /* once a definition: its clones share it */
            const char *sizes = d->bsdesc ? bs_spelled_memo(st, d->bsdesc) : NULL;
            d->bs_asked = true;
            if (sizes)
                d->bs_option = def_str(st, sizes, strlen(sizes));
        }
        const char *bs = d->bs_option ? d->bs_option : d->bs;
        const fsc_opt_in opts[] = {{"rw", d->rw}, {"bs", bs}, {"ioengine", d->ioengine}, {"iodepth", d->iodepth}};
        if (!fsc_job_set_options(j, opts, FSC_ARRAY_SIZE(opts)))
            st->oom = true;
    }
    if (j->hostname && !st->run->source.host)
        st->run->source.host = fsc_strdup(j->hostname);
}

static void defs_note_pids(nstate *st, const fsc_run *run)
{
    /* the definitions the run's jobs used, after the ones noted before (their pids,
     * negative for now, while the old ones still decide which a carried one served);
     * then the old ones cleared and the new ones kept: work by jobs, not definitions
     * (one preamble of many definitions, then many reports, stays linear) */
    size_t old = st->n_noted;
    for (size_t i = 0; i < run->n_jobs; i++) {
        const fsc_job *j = &run->jobs[i];
        size_t di = j->jobname && j->pid.set && j->pid.v > 0 ? job_def(st, j) : st->n_defs;
        size_t *slot = di < st->n_defs ? FSC_PUSH(st->noted, st->n_noted, st->cap_noted) : NULL;
        if (slot) {
            *slot = di;
            st->defs[di].pid = -j->pid.v;
        } else if (di < st->n_defs) {
            st->oom = true;
        }
    }
    for (size_t k = 0; k < old; k++)
        if (st->defs[st->noted[k]].pid > 0)
            st->defs[st->noted[k]].pid = 0;
    size_t kept = 0;
    for (size_t k = old; k < st->n_noted; k++) {
        jobdef *d = &st->defs[st->noted[k]];
        if (d->pid < 0) { /* (a definition two jobs used: once) */
            d->pid = -d->pid;
            st->noted[kept++] = st->noted[k];
        }
    }
    st->n_noted = kept;
    const char *v = run->source.fio_version;
    size_t vn = v ? strlen(v) : 0;
    if (v && vn < sizeof st->carried_version)
        memcpy(st->carried_version, v, vn + 1);
    else
        st->carried_version[0] = '\0';
}

/* The direction a line names in its "dir" capture ("read", "WRITE", ...), or -1. */
static int captured_dir(nstate *st, const fsc_rule *r, const char *line)
{
    const char *d;
    size_t dn;
    return fsc_rule_capture(r, st->md, line, "dir", &d, &dn) ? fsc_ddir_from_name(d, dn) : -1;
}

/* strtoull(p, e, 10), read by hand where it is plain digits that cannot overflow
 * (strtoull costs some 120 instructions; it is left the spaces, signs and overflow). */
static unsigned long long bs_number(const char *p, char **e)
{
    unsigned long long v = 0;
    size_t i = 0;
    for (; p[i] >= '0' && p[i] <= '9' && i < 19; i++)
        v = v * 10 + (unsigned long long)(p[i] - '0');
    if (!i || (p[i] >= '0' && p[i] <= '9'))
        return strtoull(p, e, 10);
    *e = (char *)(uintptr_t)(p + i);
    return v;
}

/* The block size of direction dir from a legacy job line's "4K-4K/64K-64K/4K-4K"
 * (fio <= 2.16 prints it in 1024s whatever kb_base says), or 0 when it varies. */
static uint64_t legacy_bs(const char *desc, int dir)
{
    const char *p = desc;
    for (int k = 0; k < dir && p; k++) {
        p = strchr(p, '/');
        p = p ? p + 1 : NULL;
    }
    if (!p)
        return 0;
    /* strchr(p, '-') and strcspn(p, "/,") in one pass: a dash past end is none */
    const char *dash = NULL, *end = p;
    for (; *end && *end != '/' && *end != ','; end++)
        if (*end == '-' && !dash)
            dash = end;
    if (!dash || (size_t)(dash - p) != (size_t)(end - dash - 1) || memcmp(p, dash + 1, (size_t)(dash - p)))
        return 0; /* a range: no one block size */
    char *e;
    unsigned long long v = bs_number(p, &e);
    uint64_t mul = *e == 'K' ? 1024 : *e == 'M' ? 1024 * 1024 : *e == 'G' ? 1024ull * 1024 * 1024 : 1;
    if (e == p || (mul == 1 && e != dash) || (mul > 1 && e + 1 != dash))
        return 0;
    return v * mul;
}

/* Relative half-step of a printed number ("895875" → 0.5/895875, "2022.9K" → 0.5/20229). */
static double printed_precision(const char *s, size_t n)
{
    double mant = 0;
    for (size_t i = 0; i < n; i++)
        if (s[i] >= '0' && s[i] <= '9') /* isdigit of the C locale, without its table call */
            mant = mant * 10 + (s[i] - '0');
    return mant > 0 ? 0.5 / mant : 1;
}

/* The first "key=" in s[0, n) (kl: its length, the '=' included): memmem's answer,
 * found from the few '=' of the line (memmem costs some 270 instructions a call). */
static inline const char *find_key_eq(const char *s, size_t n, const char *key, size_t kl)
{
    for (size_t i = kl - 1; i < n; i++) {
        const char *q = memchr(s + i, '=', n - i);
        if (!q)
            return NULL;
        i = (size_t)(q - s);
        if (memcmp(q - (kl - 1), key, kl - 1) == 0)
            return q - (kl - 1);
    }
    return NULL;
}

/* The value of "key=" in a legacy direction line, up to its comma. */
static inline bool legacy_value(const char *s, size_t n, const char *key, const char **v, size_t *vn)
{
    size_t kl = strlen(key);
    const char *p = find_key_eq(s, n, key, kl);
    if (!p)
        return false;
    p += kl;
    const char *e = memchr(p, ',', n - (size_t)(p - s));
    *v = p;
    *vn = (size_t)((e ? e : s + n) - p);
    while (*vn && (*v)[*vn - 1] == ' ')
        (*vn)--;
    return *vn > 0;
}

/*
 * fio <= 2.16 prints sizes and rates in "KB"/"MB" of kb_base, 1024 unless the job set
 * kb_base=1000, and the text does not say which. IOPS times the block size does: the
 * first read/write line of a run with a fixed block size decides (the rates differ by
 * 2.4%, printed to 5-6 digits), with a warning when it is 1000. The line's own text is
 * read here, so that the grammar and the fast path decide alike.
 */
/* How many times a rate's count prefix multiplies by kb_base: "485315KB/s" 1,
 * "6463.8MB/s" and "7168.6Mbit/s" 2, "1.2GB/s" 3; 0 without one. */
static int rate_prefix_power(const char *s, size_t n)
{
    size_t i = 0;
    while (i < n && ((s[i] >= '0' && s[i] <= '9') || s[i] == '.'))
        i++;
    int power = i < n ? fsc_size_power(s[i]) : 0;
    return power <= 5 ? power : 0; /* K to P, either case: the prefixes fio's rates use */
}

/* pow(1000.0 / 1024.0, power) for rate_prefix_power's powers: 125/128 to them, each
 * exact in a double, as pow returns it (pow costs some 120 instructions a call). */
static double kb_1000_of_1024(int power)
{
    static const double t[] = {1, 125.0 / 128, 15625.0 / 16384, 1953125.0 / 2097152, 244140625.0 / 268435456,
                               30517578125.0 / 34359738368.0};
    return power >= 0 && power < (int)(sizeof t / sizeof t[0]) ? t[power] : pow(1000.0 / 1024.0, power);
}

/* Is v within the relative tolerance tol of a power of two? */
static bool near_pow2(double v, double tol)
{
    if (!(v >= 1))
        return false;
    double p = exp2(round(log2(v)));
    return fabs(v / p - 1) <= tol;
}

/* No job line gives the block size (a paste that begins at the job's results, the
 * job line lost): the bytes an I/O took say it, as fio's block sizes are powers of two
 * and a mix of them averages to one seldom. When they are one with kb_base=1000 (to
 * the digits printed) and none with 1024, "KB" is 1000 bytes; when one with 1024,
 * 1024; else nothing is decided here and the lines below may. */
static void kb_base_unsized(nstate *st, double iops, double bw, double slack, int power, const char *is, size_t in,
                            const char *bws, size_t bwn, size_t idx)
{
    double per_io = bw / iops, per_io_1000 = per_io * kb_1000_of_1024(power);
    double tol = 2 * slack > 1e-4 ? 2 * slack : 1e-4;
    if (near_pow2(per_io, 0.006))
        st->kb_decided = true; /* 1024: a block size as printed */
    if (per_io_1000 < 511 || !near_pow2(per_io_1000, tol) || near_pow2(per_io, 0.006))
        return;
    st->kb_decided = true;
    st->units.kb_base = 1000;
    warn(st, idx,
         "KB read as 1000 bytes (kb_base=1000): %.*s IOPS at %.*s is %.0f B an I/O so, a block size; with 1024 it "
         "is %.1f B (no job line gives the block size)",
         (int)in, is, (int)bwn, bws, per_io_1000, per_io);
}

static void infer_kb_base(nstate *st, const char *line, size_t n, const fsc_job *j, int dir, size_t idx)
{
    const char *bsdesc = NULL;
    size_t di = job_def(st, j);
    if (di < st->n_defs)
        bsdesc = st->defs[di].bsdesc;
    uint64_t bs = 0;
    if (bsdesc && dir <= FSC_DIR_TRIM)
        bs = legacy_bs(bsdesc, dir);
    else if (bsdesc && dir == FSC_DIR_MIXED) /* unified_rw_reporting: one size for both */
        bs = legacy_bs(bsdesc, FSC_DIR_READ) == legacy_bs(bsdesc, FSC_DIR_WRITE) ? legacy_bs(bsdesc, FSC_DIR_READ) : 0;
    const char *is, *bws;
    size_t in, bwn;
    double iops, bw;
    if (!legacy_value(line, n, "iops=", &is, &in) || !legacy_value(line, n, "bw=", &bws, &bwn) ||
        fsc_parse_count(is, in, &iops) != FSC_OK || fsc_parse_rate(bws, bwn, st->units, &bw) != FSC_OK || iops <= 0 ||
        bw <= 0)
        return;
    double slack = printed_precision(is, in) + printed_precision(bws, bwn);
    if (slack > 0.004)
        return; /* too few digits to tell 2.4% apart */
    /* the rate's prefix says how many times kb_base went into it: "MB/s" twice
     * (1000/1024 squared: 4.6% apart, not 2.4%), "Mbit/s" too */
    int power = rate_prefix_power(bws, bwn);
    if (!power)
        return; /* bytes a second: no kb_base in it */
    if (!bs) {
        kb_base_unsized(st, iops, bw, slack, power, is, in, bws, bwn, idx);
        return;
    }
    double ratio = iops * (double)bs / bw;
    st->kb_decided = true;
    if (fabs(ratio - kb_1000_of_1024(power)) < 0.006) {
        st->units.kb_base = 1000;
        warn(st, idx, "KB read as 1000 bytes (kb_base=1000): %.*s IOPS x %llu B = %.2f MB/s matches %.*s only so",
             (int)in, is, (unsigned long long)bs, iops * (double)bs / 1e6, (int)bwn, bws);
    }
}

/* A group line of fio <= 2.16 ("READ: io=1791.8MB, aggrb=895875KB/s, ...,
 * maxt=2000msec"), where no direction line told what "KB" means (a paste that begins
 * under the job's read line, a read line cut before its iops, a block size range):
 * aggrb is the group's io over maxt, both in kb_base's units, so where the two count
 * prefixes differ (MB against KB/s: 2.4% apart) only one kb_base makes them agree. */
static void kb_base_from_group(nstate *st, const char *line, size_t n, size_t idx)
{
    const char *io, *bw, *mt;
    size_t ion, bwn, mtn;
    if (!legacy_value(line, n, "io=", &io, &ion) || !legacy_value(line, n, "aggrb=", &bw, &bwn) ||
        !legacy_value(line, n, "maxt=", &mt, &mtn))
        return;
    int power = rate_prefix_power(io, ion) - rate_prefix_power(bw, bwn);
    fsc_unit_rules u1024 = st->units;
    u1024.kb_base = 1024;
    double io_b, bw_b, slack = printed_precision(io, ion) + printed_precision(bw, bwn) + printed_precision(mt, mtn);
    char *e;
    double maxt = strtod(mt, &e);
    mtn = (size_t)(e - mt);
    if (!power || slack > 0.004 || fsc_parse_size(io, ion, u1024, &io_b) != FSC_OK ||
        fsc_parse_rate(bw, bwn, u1024, &bw_b) != FSC_OK || !(io_b > 0) || !(bw_b > 0) || !(maxt > 0))
        return;
    double at_1024 = io_b / bw_b / (maxt / 1000), at_1000 = at_1024 * kb_1000_of_1024(power);
    double tol = 2 * slack > 1e-3 ? 2 * slack : 1e-3;
    bool fits_1024 = fabs(at_1024 - 1) <= tol, fits_1000 = fabs(at_1000 - 1) <= tol;
    if (fits_1024 == fits_1000)
        return;
    st->kb_decided = true;
    if (fits_1000) {
        st->units.kb_base = 1000;
        warn(st, idx, "KB read as 1000 bytes (kb_base=1000): io=%.*s over aggrb=%.*s gives maxt=%.*s ms only so",
             (int)ion, io, (int)bwn, bw, (int)mtn, mt);
    }
}

/* A direction line of fio <= 2.16 that did not tell what "KB" means: the run's first
 * group line below, before another run's job definitions, may (kb_base_from_group),
 * before the job's values are read. Each line is looked at once in a text
 * (st->kb_scan_to): a scan that found nothing is not done again for the runs below. */
static void kb_base_ahead(nstate *st, size_t idx)
{
    bool group;
    size_t at = summary_or_defs(st, st->kb_scan_to > idx + 1 ? st->kb_scan_to : idx + 1, &group);
    st->kb_scan_to = at + 1;
    if (group) /* (else the job definitions of the next run, or the text's end) */
        kb_base_from_group(st, fsc_text_line(st->t, at), st->t->lines[at].len, at);
}

/* fio >= 2.17 keeps a direction's bandwidth samples in KiB/s and prints their line
 * divided by kb_base with "MiB/s" from kb_base KiB/s up, whatever kb_base is: with
 * kb_base=1000 "min=35962" is 35,962,000 KiB/s (fio 3.33's JSON: 35962584). Such a
 * job prints its direction line's rate decimal first ("BW=36.6GB/s (34.1GiB/s)";
 * kb_base=1024: "BW=34.1GiB/s (36.6GB/s)"): that line tells the bw line under it.
 * 0: the line does not tell (a rate of no unit, "BW=0 (0)": the mixed line of
 * unified_rw_reporting=both, whose bw line has the job's samples all the same). */
static unsigned dir_bw_base(const char *line, size_t n)
{
    const char *e = line + n, *p = line;
    /* memchr, not memmem: memmem's set-up cost 300 instructions a line */
    while ((p = memchr(p, 'B', (size_t)(e - p))) && !(e - p >= 3 && p[1] == 'W' && p[2] == '='))
        p++;
    if (!p)
        return 1024;
    for (p += 3; p < e && ((*p >= '0' && *p <= '9') || *p == '.'); p++)
        ;
    if (p == e || *p == ' ' || *p == ',' || *p == '(')
        return 0;
    bool prefix = *p == 'k' || *p == 'K' || *p == 'M' || *p == 'G' || *p == 'T' || *p == 'P';
    return prefix && p + 1 < e && p[1] != 'i' ? 1000 : 1024;
}

/* Has j's block of results ended: its cpu or IO depths line read? */
static bool results_ended(const fsc_job *j)
{
    return j->usr_cpu.set || j->sys_cpu.set || j->iodepth_level.n;
}

/* The write line of a job whose first lines, above any direction line, were read as
 * its writes because its rw writes only (cur_dir_slow): fio prints a job's read
 * before its write (a write job that verifies reads too), so those lines (more than
 * one: one right above is the write's own, swapped with its line) were the read's,
 * whose line was lost. They move there. */
__attribute__((noinline, cold)) static void rw_guess_was_read(nstate *st, fsc_job *j, size_t idx)
{
    j->dir[FSC_DIR_READ] = j->dir[FSC_DIR_WRITE];
    memset(&j->dir[FSC_DIR_WRITE], 0, sizeof j->dir[FSC_DIR_WRITE]);
    warn(st, idx, "a write line under the lines read as the job's writes: those were its reads (fio prints a job's "
                  "read before its write), the read line lost");
}

/* A direction line (its text: line, n): the direction, made current (NULL: no job
 * to put it in). */
static fsc_dir *dir_open(nstate *st, int dir, size_t idx, const char *line, size_t n)
{
    fsc_job *j = need_job(st, idx);
    if (!j)
        return NULL;
    if (results_ended(j) && !st->t->lines[idx].tag) {
        /* fio prints a job's cpu and IO depths lines after all its directions: a
         * direction line after them begins another job, whose header line was lost
         * (deleted, garbled, cut to its name); read into this one, its numbers would
         * replace this job's */
        st->ended_job = st->job;
        st->job = -1;
        st->job_tag = 0;
        if (!(j = need_job(st, idx)))
            return NULL;
    }
    bool swapped = false; /* the line above was the first of this direction's, read before it */
    if (st->rw_guess_job == st->job && j->dir[dir].present) {
        st->rw_guess_job = -1;
        swapped = idx == st->rw_guess_line + 1;
        if (!swapped && dir == FSC_DIR_WRITE && !j->dir[FSC_DIR_READ].present)
            rw_guess_was_read(st, j, idx);
    }
    if (j->dir[dir].present && fsc_dir_has_data(&j->dir[dir]) && !swapped) {
        /* a second read line for one job: fio never prints that; result lines cut out
         * of several runs (grep output) do. With the same name prefix it is another
         * job of that name, else it cannot be placed. */
        if (doubled(st, idx))
            return NULL;
        const char *name;
        size_t nlen;
        if (tag_name(st->t, idx, &name, &nlen)) {
            st->job = -1;
            st->job_tag = 0;
            if (!(j = need_job(st, idx)))
                return NULL;
        } else {
            st->fragments = st->fragments || !j->jobname;
            char what[200];
            snprintf(what, sizeof what,
                     "another %s result line for job '%s' without a job header (cut out of several runs?)",
                     fsc_ddir_name(dir), j->jobname ? j->jobname : "");
            dir_lost(st, idx, what);
            return NULL;
        }
    }
    if (st->units.era == FSC_ERA_LEGACY && !st->kb_decided) {
        infer_kb_base(st, line, n, j, dir, idx);
        if (!st->kb_decided)
            kb_base_ahead(st, idx);
    }
    unsigned base = st->units.era == FSC_ERA_LEGACY ? 1024 : dir_bw_base(line, n);
    if (base) { /* else as the job's direction line above told, if one did */
        st->bw_base = base;
        st->bw_base_job = st->job;
    } else if (st->bw_base_job != st->job) {
        st->bw_base = 1024;
    }
    st->dir = dir;
    st->pctl_kind = -1;
    fsc_dir *dp = &j->dir[dir];
    dp->present = true;
    return dp;
}

static void dir_close(fsc_dir *dp)
{
    if (dp->bw_bytes.set)
        dp->bw = fsc_num_of(dp->bw_bytes.v / 1024.0);
}

/* fio's rounding slip (numslip.h) put right in the values of a job's direction line
 * (vals by FSC_SLIP_*: bw_bytes and io_bytes) or a group's (bw_bytes, bw_min_bytes,
 * bw_max_bytes, io_bytes), with a warning each, for a fio that may slip (the callers
 * ask fsc_slip_version). The same for both paths: the line's text decides. */
static void fix_slips(nstate *st, const char *line, size_t n, size_t idx, bool group, fsc_num *const *vals)
{
    fsc_slip sl[FSC_SLIP_FIELDS];
    size_t k = fsc_slips_of_line(line, n, group, sl);
    for (size_t i = 0; i < k; i++) {
        fsc_num *v = vals[sl[i].field];
        if (!v || !v->set)
            continue;
        *v = fsc_num_of(v->v / sl[i].shown_n * sl[i].meant_n); /* N units, exact: N+1 units */
        warn(st, idx, "fio printed %s for %s (%s beside it): num2str's rounding slip of fio 2.17 to 3.25, read as %s",
             sl[i].shown, sl[i].meant, sl[i].other, sl[i].meant);
    }
}

/* fsc_slip_version of the run's fio, remembered while the version text stays (parsing
 * it costs some 120 instructions, a line). */
static int run_may_slip(nstate *st)
{
    const char *v = st->run->source.fio_version;
    if (!v)
        return fsc_slip_version(NULL);
    if (st->slip_ver_text[0] && !strcmp(v, st->slip_ver_text))
        return st->slip_ver;
    int r = fsc_slip_version(v);
    size_t vn = strlen(v);
    if (vn && vn < sizeof st->slip_ver_text) {
        memcpy(st->slip_ver_text, v, vn + 1);
        st->slip_ver = r;
    }
    return r;
}

static void dir_slips(nstate *st, const char *line, size_t n, size_t idx, int dir, fsc_dir *dp)
{
    fsc_num *const vals[FSC_SLIP_FIELDS] = {&dp->bw_bytes, NULL, NULL, &dp->io_bytes};
    st->iops_slip_job[dir] = 0;
    if (!run_may_slip(st))
        return;
    fix_slips(st, line, n, idx, false, vals);
    /* the IOPS wait for the job's issued count */
    if (fsc_iops_may_slip(line, n, &st->iops_slip[dir]))
        st->iops_slip_job[dir] = st->job + 1;
    st->iops_slip_idx[dir] = idx;
}

/* Is the value at p (before e) a zero with a unit prefix ("0TiB/s", "0GB", "0M")?
 * fio prints a true zero without one ("0B/s", "0B", "IOPS=0"): this is a value
 * that significant_figures=1 (fio 3.3+) rounded to none of its unit, anything below
 * half of it ("BW=0TiB/s" for 21.7 GB/s, "(0GiB/701msec)"). */
static bool zero_with_prefix(const char *p, const char *e)
{
    return e - p >= 2 && p[0] == '0' && p[1] && strchr("kKMGTPE", p[1]);
}

/* A job's direction line of fio 3.x whose values significant_figures rounded to 0
 * ("read: IOPS=5M, BW=0TiB/s (0TB/s)(8GiB/401msec)"): those values are not zeros. The
 * bandwidth is worked out from the bytes over the runtime, as fio does, when the
 * bytes were printed, the IOPS from the issued count (iops_slips); the others are
 * left out, with a warning. */
static void dir_rounded_zeros(nstate *st, const char *line, size_t n, size_t idx, int dir, fsc_dir *dp)
{
    st->iops_zero_job[dir] = 0;
    /* "IOPS=", "BW=", then ")(" before the bytes, found with memchr: a direction line
     * is read often, and memmem's setup would cost more than the rest of this */
    const char *e = line + n, *eq = memchr(line, '=', n);
    if (!eq || eq - line < 4 || memcmp(eq - 4, "IOPS", 4))
        return; /* not fio 3's line */
    const char *eq2 = memchr(eq + 1, '=', (size_t)(e - eq - 1));
    const char *close = eq2 ? memchr(eq2, ')', (size_t)(e - eq2)) : NULL;
    bool iops = zero_with_prefix(eq + 1, e), bw = eq2 && !memcmp(eq2 - 2, "BW", 2) && zero_with_prefix(eq2 + 1, e),
         bytes = close && e - close > 1 && close[1] == '(' && zero_with_prefix(close + 2, e);
    if (!iops && !bw && !bytes)
        return;
    if (iops) {
        dp->iops = (fsc_num){0};
        st->iops_zero_job[dir] = st->job + 1; /* the job's issued count may give them */
    }
    if (bytes)
        dp->io_bytes = (fsc_num){0};
    bool derived = false;
    if (bw) {
        derived = dp->io_bytes.set && dp->io_bytes.v > 0 && dp->runtime.set && dp->runtime.v > 0;
        dp->bw_bytes = derived ? fsc_num_of(floor(dp->io_bytes.v * 1000.0 / dp->runtime.v)) : (fsc_num){0};
    }
    const char *names[3] = {"", "", ""}; /* (one at least is set above; gcc -fprofile-use cannot tell) */
    size_t k = 0;
    if (iops)
        names[k++] = "IOPS";
    if (bw)
        names[k++] = "bandwidth";
    if (bytes)
        names[k++] = "bytes";
    char what[48];
    snprintf(what, sizeof what, "%s%s%s%s%s", names[0], k > 1 ? (k > 2 ? ", " : " and ") : "", k > 1 ? names[1] : "",
             k > 2 ? " and " : "", k > 2 ? names[2] : "");
    warn(st, idx, "fio printed the %s as 0 of a unit (significant_figures rounded down): not read as 0%s%s", what,
         derived ? "; bandwidth: the bytes over the runtime" : "", iops ? "; IOPS: the issued I/Os over it" : "");
}

/* A group's summary line so rounded ("READ: bw=0TiB/s (0TB/s), 0TiB/s-0TiB/s (...),
 * io=0TiB (0TB), run=..."): those values left out, with a warning. */
static void group_rounded_zeros(nstate *st, const char *line, size_t n, size_t idx, fsc_group_dir *gd)
{
    /* "bw=", "), " before the least, '-' before the most, "io=": found with memchr */
    const char *e = line + n, *b = memchr(line, '=', n);
    if (!b || b - line < 2 || memcmp(b - 2, "bw", 2))
        return; /* not fio 3's summary */
    const char *close = memchr(b, ')', (size_t)(e - b));
    const char *dash = close ? memchr(close, '-', (size_t)(e - close)) : NULL;
    const char *i = dash ? memchr(dash, '=', (size_t)(e - dash)) : NULL;
    bool bw = zero_with_prefix(b + 1, e), lo = close && e - close > 3 && !memcmp(close, "), ", 3) &&
                                               zero_with_prefix(close + 3, e),
         hi = dash && zero_with_prefix(dash + 1, e), io = i && !memcmp(i - 2, "io", 2) && zero_with_prefix(i + 1, e);
    if (!bw && !lo && !hi && !io)
        return;
    if (bw)
        gd->bw_bytes = (fsc_num){0};
    if (lo)
        gd->bw_min_bytes = (fsc_num){0};
    if (hi)
        gd->bw_max_bytes = (fsc_num){0};
    if (io)
        gd->io_bytes = (fsc_num){0};
    warn(st, idx, "fio printed the group's %s%s%s%s%s%s%s as 0 of a unit (significant_figures rounded down): left out",
         bw ? "bandwidth" : "", bw && (lo || hi || io) ? ", " : "", lo ? "least bandwidth" : "",
         lo && (hi || io) ? ", " : "", hi ? "most bandwidth" : "", hi && io ? ", " : "", io ? "bytes" : "");
}

/* fio 3.27 to 3.38 with unified_rw_reporting=both printed a job's mixed line with
 * none of its numbers ("mixed: IOPS=0, BW=0 (0)(0B/1001msec)": the mixed stats it
 * summed lacked the job's significant_figures, fio commit 6f3de5ce, in 3.39); its
 * JSON and the group's "MIXED:" line have them. A true zero is printed with its unit
 * ("BW=0B/s (0B/s)"). What fio summed is the job's read, write and trim, read
 * above: from them, with a warning, not a job that did no I/O. */
static void mixed_summed(nstate *st, const char *line, size_t n, size_t idx, int dir, fsc_dir *dp)
{
    fsc_job *j = cur_job(st);
    if (dir != FSC_DIR_MIXED || !j || !dp->iops.set || dp->iops.v != 0 || !dp->bw_bytes.set || dp->bw_bytes.v != 0 ||
        !dp->io_bytes.set || dp->io_bytes.v != 0 || !memmem(line, n, " BW=0 (0)(0B/", 13))
        return;
    /* the I/Os and bytes add up; the rates are theirs over the mixed runtime (the
     * longest of the directions') */
    double ios = 0, io = 0;
    int seen = 0;
    /* a job without its header (a text that starts inside it) may have lost a
     * direction's lines with it */
    for (int d = FSC_DIR_READ; d <= FSC_DIR_TRIM && !st->job_headless && dp->runtime.set && dp->runtime.v > 0; d++) {
        const fsc_dir *x = &j->dir[d];
        if (!x->present)
            continue;
        if (!x->iops.set || !x->io_bytes.set || !x->runtime.set) {
            seen = 0; /* a line cut short, damaged: not all of what fio summed is known */
            break;
        }
        seen++;
        ios += x->iops.v * x->runtime.v;
        io += x->io_bytes.v;
    }
    if (seen && io <= 0)
        return; /* no I/O: its zeros are true */
    if (!seen) { /* fio's zeros are none of its numbers: left out */
        dp->iops = dp->bw_bytes = dp->io_bytes = (fsc_num){0};
        warn(st, idx,
             "fio printed the job's mixed IOPS, bandwidth and bytes as 0 (unified_rw_reporting=both in fio 3.27 to "
             "3.38) and its mixed runtime, read, write and trim lines are not all whole: left out");
        return;
    }
    dp->iops = fsc_num_of(ios / dp->runtime.v);
    dp->bw_bytes = fsc_num_of(floor(io * 1000.0 / dp->runtime.v)); /* whole bytes, as fio's */
    dp->io_bytes = fsc_num_of(io);
    warn(st, idx,
         "fio printed the job's mixed IOPS, bandwidth and bytes as 0 (unified_rw_reporting=both in fio 3.27 to "
         "3.38): read as its read, write and trim lines' I/O over the mixed runtime");
}

/* The job's issued counts read: its IOPS that slipped put right (dir_slips). */
static void iops_slips(nstate *st)
{
    fsc_job *j = cur_job(st);
    for (int dir = 0; j && dir < FSC_DIR_COUNT; dir++) {
        fsc_dir *z = &j->dir[dir];
        if (st->iops_zero_job[dir] == st->job + 1) { /* rounded to 0: fio's own quotient */
            st->iops_zero_job[dir] = 0;
            if (!z->iops.set && z->total_ios.set && z->runtime.set && z->runtime.v > 0)
                z->iops = fsc_num_of(z->total_ios.v * 1000.0 / z->runtime.v);
        }
        if (st->iops_slip_job[dir] != st->job + 1)
            continue;
        st->iops_slip_job[dir] = 0;
        fsc_dir *d = &j->dir[dir];
        const fsc_count_slip *c = &st->iops_slip[dir];
        if (!d->iops.set || !d->total_ios.set || !d->runtime.set || !fsc_iops_slipped(c, d->total_ios.v, d->runtime.v))
            continue;
        d->iops = fsc_num_of(d->iops.v / c->shown_n * c->meant_n);
        warn(st, st->iops_slip_idx[dir],
             "fio printed %s for %s (%.0f I/Os in %.0f ms, its issued count): num2str's rounding slip of fio 2.17 to "
             "3.25, read as %s",
             c->shown, c->meant, d->total_ios.v, d->runtime.v, c->meant);
    }
}

static void group_dir_slips(nstate *st, const char *line, size_t n, size_t idx, fsc_group_dir *gd)
{
    fsc_num *const vals[FSC_SLIP_FIELDS] = {&gd->bw_bytes, &gd->bw_min_bytes, &gd->bw_max_bytes, &gd->io_bytes};
    if (run_may_slip(st))
        fix_slips(st, line, n, idx, true, vals);
    group_rounded_zeros(st, line, n, idx, gd);
}

/* A job's direction line read, by either path: what fio printed amiss put right (its
 * rounding slip, values rounded to 0, the mixed line of =both), then its KiB/s. */
static void dir_read(nstate *st, const char *line, size_t n, size_t idx, int dir, fsc_dir *dp)
{
    dir_slips(st, line, n, idx, dir, dp);
    dir_rounded_zeros(st, line, n, idx, dir, dp);
    mixed_summed(st, line, n, idx, dir, dp);
    dir_close(dp);
}

static void act_dir(nstate *st, const fsc_rule *r, const char *line, size_t n, size_t idx)
{
    int dir = captured_dir(st, r, line);
    fsc_dir *dp = dir >= 0 ? dir_open(st, dir, idx, line, n) : NULL;
    if (!dp)
        return;
    apply_fields(st, r, line, dp, fsc_dir_fields, fsc_n_dir_fields, idx);
    dir_read(st, line, n, idx, dir, dp);
}

static int latkind_of(const char *s, size_t n, bool *sync)
{
    *sync = n == 4 && !memcmp(s, "sync", 4);
    if (n == 4 && !memcmp(s, "slat", 4))
        return FSC_LAT_SLAT;
    if (n == 4 && !memcmp(s, "clat", 4))
        return FSC_LAT_CLAT;
    return FSC_LAT_LAT; /* "lat" and fsync's "sync" */
}

/* The direction's kind line came again: its direction line was lost (dir_lost). */
__attribute__((noinline, cold)) static bool line_again(nstate *st, const char *kind, size_t idx)
{
    if (doubled(st, idx))
        return true;
    const fsc_job *j = cur_job(st);
    char what[200];
    snprintf(what, sizeof what, "a second %s line for job '%s' (a direction line lost above it?)", kind,
             j && j->jobname ? j->jobname : "");
    dir_lost(st, idx, what);
    return true;
}

/* A direction's latency line of a kind it has read already: fio prints each once,
 * so the direction line between them was lost (a paste that dropped "  write: IOPS=",
 * its lines under the read's); read into the read, they would replace its numbers.
 * Nothing more is read up to the next job or direction line. */
static bool lat_again(nstate *st, const fsc_dir *d, int kind, size_t idx)
{
    const fsc_lat *l = &d->lat[kind];
    if (!l->min.set && !l->max.set && !l->mean.set)
        return false;
    return line_again(st, fsc_latkind_name((fsc_latkind)kind), idx);
}

/* A percentile title read: its block (of the current direction, its latency kind,
 * its priority's entry or -1, its unit) begins, with no row read yet. */
static inline void pctl_open(nstate *st, int kind, int prio, uint64_t unit_ns)
{
    st->pctl_dir = st->dir;
    st->pctl_kind = kind;
    st->pctl_prio = prio;
    st->pctl_row = 0;
    st->pctl_width = 0;
    st->pctl_twice_warned = false;
    st->pctl_unit_ns = unit_ns;
}

/* The same of a direction's bw or iops line (a direction without latency lines:
 * disable_lat, disable_clat): fio prints each once a direction. */
static inline bool stats_again(nstate *st, const fsc_dir *d, bool bw, size_t idx)
{
    if (bw ? !d->bw_min.set && !d->bw_max.set && !d->bw_samples.set
           : !d->iops_min.set && !d->iops_max.set && !d->iops_samples.set)
        return false;
    return line_again(st, bw ? "bw" : "iops", idx);
}

static void act_lat(nstate *st, const fsc_rule *r, const char *line, size_t idx)
{
    const char *w;
    size_t wn;
    bool sync;
    if (!fsc_rule_capture(r, st->md, line, "which", &w, &wn))
        return;
    int kind = latkind_of(w, wn, &sync);
    if (sync)
        st->dir = FSC_DIR_SYNC;
    fsc_dir *d = cur_dir(st, idx);
    if (!d || lat_again(st, d, kind, idx))
        return;
    apply_kv(st, r, line, &d->lat[kind], fsc_lat_fields, fsc_n_lat_fields, idx);
}

static void act_pctl_title(nstate *st, const fsc_rule *r, const char *line, size_t idx)
{
    const char *w, *u;
    size_t wn, un;
    bool sync;
    if (!fsc_rule_capture(r, st->md, line, "which", &w, &wn) ||
        !fsc_rule_capture_num(st->md, line, r->cap_unit, &u, &un))
        return;
    int kind = latkind_of(w, wn, &sync);
    if (sync)
        st->dir = FSC_DIR_SYNC;
    if (!cur_dir(st, idx))
        return;
    pctl_open(st, kind, -1, fsc_unit_ns(u, un));
}

/* The priority a prio-lat or prio-pctl-title line names, in the current direction's
 * prios: "high"/"low" (fio 3.18-3.29; 3.18's lone "prio_clat" is the high one) or
 * class/level[/hint] (3.30+). NULL when it has no direction. */
static fsc_prio *prio_of(nstate *st, const fsc_rule *r, const char *line, size_t idx)
{
    const char *w, *s;
    size_t wn, sn;
    bool sync;
    if (!fsc_rule_capture(r, st->md, line, "which", &w, &wn))
        return NULL;
    fsc_latkind kind = (fsc_latkind)latkind_of(w, wn, &sync);
    int high = -1, key[3] = {-1, -1, -1};
    static const char *const key_names[3] = {"class", "level", "hint"};
    if (!fsc_rule_capture(r, st->md, line, "class", &s, &sn))
        high = !fsc_rule_capture(r, st->md, line, "high", &s, &sn) || s[0] == 'h';
    else
        for (int k = 0; k < 3; k++)
            if (fsc_rule_capture(r, st->md, line, key_names[k], &s, &sn))
                for (size_t i = key[k] = 0; i < sn; i++)
                    key[k] = key[k] * 10 + (s[i] - '0'); /* up to 4 digits (the grammar) */
    fsc_dir *d = cur_dir(st, idx);
    if (!d)
        return NULL;
    fsc_prio *p = fsc_dir_prio(d, high, key[0], key[1], key[2], kind);
    if (!p && d->n_prios < FSC_PRIOS_MAX)
        st->oom = true;
    return p;
}

__attribute__((noinline, cold)) static void act_prio_lat(nstate *st, const fsc_rule *r, const char *line,
                                                         size_t idx)
{
    fsc_prio *p = prio_of(st, r, line, idx);
    st->pctl_kind = -1;
    if (p)
        apply_kv(st, r, line, &p->lat, fsc_lat_fields, fsc_n_lat_fields, idx);
}

__attribute__((noinline, cold)) static void act_prio_pctl_title(nstate *st, const fsc_rule *r, const char *line,
                                                                size_t idx)
{
    const char *u;
    size_t un;
    fsc_prio *p = prio_of(st, r, line, idx);
    if (!p || !fsc_rule_capture_num(st->md, line, r->cap_unit, &u, &un)) {
        st->pctl_kind = PCTL_IGNORED;
        return;
    }
    fsc_dir *d = cur_dir(st, idx);
    pctl_open(st, p->kind, (int)(p - d->prios), fsc_unit_ns(u, un));
}

/* Does the row at idx, whose first percentile is pct, belong to another list than its
 * block's? fio's rows rise, each from above the last percentile of the row before:
 * a row that begins below it was printed under another title, which was lost
 * (a paste that dropped "lat percentiles (usec):" or a priority's title, or joined it
 * to its first row): read into this block's list, its values would replace the
 * list's, silently. Its rows are not read (up to the next title or line of another
 * kind), with a warning. Another list's first percentile is one the list has; a row
 * that begins with one it lacks is a row of this list out of order, and a row printed
 * twice (the same text as the line above) is no other list either. */
__attribute__((noinline, cold)) static bool pctl_restarts_slow(nstate *st, const fsc_lat *lat, double pct,
                                                               size_t idx)
{
    /* two rows of one list out of order (a row the list lacks) are no other list. The
     * list is looked up while it is sorted (binary search); once rows came out of
     * order, none is asked (rows in falling order stay linear: run_complexity M1) */
    if (lat->pctl_unsorted)
        return false;
    size_t lo = 0, hi = lat->n_percentile;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (lat->percentile[mid].pct < pct)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo == lat->n_percentile || lat->percentile[lo].pct != pct)
        return false;
    size_t prev = st->pctl_row;
    if (prev + 1 == idx && same_line(st, prev, idx))
        return false;
    st->pctl_kind = PCTL_IGNORED;
    st->run->lines.malformed++;
    warn(st, idx, "percentile rows that do not go on from the rows above: the title line of another list is "
                  "missing; its rows are not read");
    return true;
}

/* Add a percentile to the block's list. In a list whose rows came out of order, one
 * it holds already is a row of another list read into it (its title line out of place,
 * after it: "| 99.99th=[16712]" under "lat percentiles (usec):"): the later value is
 * kept, with a warning, once a block (before, the earlier was lost silently). */
static void add_pctl(nstate *st, fsc_lat *lat, double pct, double ns, size_t idx)
{
    /* fio prints 20 percentiles at most (FIO_IO_U_LIST_MAX_LEN): a longer list is no
     * fio list, and is not searched (rows in falling order stay linear: M1) */
    if (__builtin_expect(lat->pctl_unsorted, 0) && !st->pctl_twice_warned && lat->n_percentile <= 64) {
        for (size_t k = 0; k < lat->n_percentile; k++)
            if (lat->percentile[k].pct == pct) {
                st->pctl_twice_warned = true;
                st->run->lines.malformed++;
                warn(st, idx, "percentile %gth given twice in one list whose rows came out of order (a row of "
                              "another list, its title line out of place?): the later value is kept", pct);
                break;
            }
    }
    if (!fsc_lat_add_pctl(lat, pct, ns))
        st->oom = true;
}

static inline bool pctl_restarts(nstate *st, const fsc_lat *lat, double pct, size_t idx)
{
    /* a percentile_list may name one twice: not below */
    return st->pctl_row && pct < st->pctl_last && pctl_restarts_slow(st, lat, pct, idx);
}

/* The row before idx in the block, narrower than the block's widest row and not its
 * last: fio prints every row but the last as wide (as many items as fit in 80
 * columns), so the row lost its end ("| 70.00th=[ 5], 80.00th=[ 6], 90.00th=[ 7],"
 * without its 95.00th): its values are read, the lost ones are told. */
__attribute__((noinline, cold)) static void pctl_row_narrow(nstate *st, size_t row)
{
    st->run->lines.malformed++;
    warn(st, row, "a percentile row with %u values where the rows of its list hold %u (cut short?): the rest of it "
                  "is lost", (unsigned)st->pctl_items, (unsigned)st->pctl_width);
}

/* A row of `items` percentiles read at idx, the row above's last `above`: that row
 * was not the block's last when this one goes on from it (its last percentile is
 * higher; not a row of another list out of place). */
__attribute__((noinline)) static void pctl_width_slow(nstate *st, size_t idx, size_t items, double above)
{
    uint8_t n = items < 255 ? (uint8_t)items : 255;
    if (n > st->pctl_width)
        st->pctl_width = n;
    if (st->pctl_row && st->pctl_row + 1 == idx && st->pctl_items < st->pctl_width && st->pctl_last > above)
        pctl_row_narrow(st, st->pctl_row);
    st->pctl_items = n;
}

/* (most rows are as wide as the one above, which was as wide as the block's widest:
 * nothing to note) */
static inline void pctl_width_check(nstate *st, size_t idx, size_t items, double above)
{
    if (items != st->pctl_items || st->pctl_items < st->pctl_width)
        pctl_width_slow(st, idx, items, above);
}

/* "|  1.00th=[   31],  5.00th=[   48], ..." */
static void act_pctl_row(nstate *st, const fsc_rule *r, const char *line, size_t idx)
{
    const char *s;
    size_t n;
    if (st->pctl_kind == PCTL_IGNORED || !fsc_rule_capture_num(st->md, line, r->cap_list, &s, &n))
        return;
    fsc_job *j = cur_job(st);
    if (!j || st->pctl_kind < 0) {
        /* rows whose title line is missing (an excerpt starting inside the block) or
         * whose direction is lost: their latency kind and unit are unknown */
        if (!st->dropped)
            lost_line(st, idx, "percentile rows without their title line");
        st->dropped = true;
        return;
    }
    fsc_dir *pd = &j->dir[st->pctl_dir];
    fsc_lat *lat = st->pctl_prio >= 0 && (size_t)st->pctl_prio < pd->n_prios ? &pd->prios[st->pctl_prio].lat
                                                                              : &pd->lat[st->pctl_kind];
    const char *end = s + n;
    bool first = true;
    size_t items = 0;
    double above = st->pctl_last;
    while (s < end) {
        const char *th = memmem(s, (size_t)(end - s), "th=[", 4);
        if (!th)
            break;
        const char *p = th;
        while (p > s && (isdigit((unsigned char)p[-1]) || p[-1] == '.'))
            p--;
        const char *v = th + 4;
        const char *close = memchr(v, ']', (size_t)(end - v));
        if (!close)
            break;
        double pct, val;
        if (fsc_parse_plain(p, (size_t)(th - p), &pct) == FSC_OK && pct <= 100 && /* no 995th */
            fsc_parse_scaled(v, (size_t)(close - v), st->pctl_unit_ns, 1, &val) == FSC_OK) {
            if (first && pctl_restarts(st, lat, pct, idx))
                return;
            first = false;
            st->pctl_last = pct;
            add_pctl(st, lat, pct, val, idx);
        } else {
            st->run->lines.malformed++;
            warn(st, idx, "cannot read the percentile '%.*s'", (int)((size_t)(close + 1 - p)), p);
        }
        s = close + 1;
        items++;
    }
    pctl_width_check(st, idx, items, above);
    st->pctl_row = idx;
}

/* "2=0.01%, 10=0.01%, >=2000=0.10%" into a kvlist, values as percent. */
static bool blank(const char *s, size_t n);
static void apply_list(nstate *st, const char *s, size_t n, fsc_kvlist *l, size_t idx)
{
    const char *end = s + n;
    while (s < end) {
        const char *comma = memchr(s, ',', (size_t)(end - s));
        const char *item_end = comma ? comma : end;
        /* "0.0%      submit    : 0=0.0%": the next line's after this item (a newline
         * lost): the item ends at its '%', the rest is not read */
        const char *pc = memchr(s, '%', (size_t)(item_end - s));
        bool joined = false;
        if (pc && pc + 1 < item_end && pc[1] == ' ' && !blank(pc + 1, (size_t)(item_end - pc - 1))) {
            item_end = pc + 1;
            joined = true;
        }
        /* the key may itself start with ">=": split at the last '=' */
        const char *eq = NULL;
        for (const char *p = s; p < item_end; p++)
            if (*p == '=')
                eq = p;
        if (eq) {
            const char *k = s, *v = eq + 1;
            size_t kn = (size_t)(eq - s), vn = (size_t)(item_end - v);
            trim(&k, &kn);
            /* keys never hold spaces: "> =64" is ">=64" split by a wrap */
            char key[16];
            size_t kl = 0;
            for (size_t q = 0; q < kn && kl < sizeof key - 1; q++)
                if (k[q] != ' ')
                    key[kl++] = k[q];
            key[kl] = '\0';
            /* a key with a ':' or '%' ("0.0%submit:0"): another line was joined to this
             * one where a newline was lost (a key twice is read as the fast path reads
             * it: the last one) */
            if (strpbrk(key, ":%")) {
                st->run->lines.malformed++;
                warn(st, idx, "'%s': the rest of the line (another line joined to it?) not read", key);
                return;
            }
            double pct;
            if (kl && kn < 32 && fsc_parse_pct(v, vn, &pct) == FSC_OK) {
                if (!fsc_kvlist_set(l, key, pct))
                    st->oom = true;
            } else {
                st->run->lines.malformed++;
                warn(st, idx, "cannot read the bucket '%.*s'", (int)((size_t)(item_end - s)), s);
            }
        }
        if (joined) {
            const char *rest = item_end, *item = s;
            size_t in = (size_t)(item_end - s);
            while (rest < end && *rest == ' ')
                rest++;
            trim(&item, &in);
            st->run->lines.malformed++;
            warn(st, idx, "'%.*s' after '%.*s': the rest of the line (another line joined to it?) not read",
                 (int)(end - rest < 16 ? end - rest : 16), rest, (int)in, item);
            return;
        }
        s = comma ? comma + 1 : end;
    }
}

static void act_buckets(nstate *st, const fsc_rule *r, const char *line, size_t idx)
{
    const char *u, *s;
    size_t un, n;
    if (!fsc_rule_capture_num(st->md, line, r->cap_unit, &u, &un) ||
        !fsc_rule_capture_num(st->md, line, r->cap_list, &s, &n))
        return;
    fsc_job *j = need_job(st, idx);
    if (!j)
        return;
    st->pctl_kind = -1;
    uint64_t ns = fsc_unit_ns(u, un);
    int b = ns == 1 ? FSC_BUCKET_NS : ns == 1000 ? FSC_BUCKET_US : FSC_BUCKET_MS;
    apply_list(st, s, n, &j->latency[b], idx);
}

static void act_depths(nstate *st, const fsc_rule *r, const char *line, size_t idx)
{
    const char *w, *s;
    size_t wn, n;
    if (!fsc_rule_capture(r, st->md, line, "which", &w, &wn) ||
        !fsc_rule_capture_num(st->md, line, r->cap_list, &s, &n))
        return;
    fsc_job *j = need_job(st, idx);
    if (!j)
        return;
    st->pctl_kind = -1;
    fsc_kvlist *l = w[0] == 'I' ? &j->iodepth_level : w[0] == 's' ? &j->iodepth_submit : &j->iodepth_complete;
    apply_list(st, s, n, l, idx);
}

/* The directions of the issued counts, in order: read, write, trim, sync. With
 * unified_rw_reporting=1 fio prints one "mixed" direction (no read, write or trim
 * line) and counts it first; with =both (mixed after read, write or trim) the counts
 * are the directions' own. */
static void issued_order(nstate *st, const fsc_job *j, size_t idx, int order[4])
{
    order[0] = FSC_DIR_READ;
    order[1] = FSC_DIR_WRITE;
    order[2] = FSC_DIR_TRIM;
    order[3] = FSC_DIR_SYNC;
    bool dirs = j->dir[FSC_DIR_READ].present || j->dir[FSC_DIR_WRITE].present || j->dir[FSC_DIR_TRIM].present;
    /* (no direction at all: its line lost; the group summary below may say mixed) */
    if (!dirs && (j->dir[FSC_DIR_MIXED].present || mixed_ahead(st, idx)))
        order[0] = FSC_DIR_MIXED;
}

/* The job's issued counts read: with unified_rw_reporting=both, fio's mixed counts are
 * the sums of the directions' (its JSON's mixed total_ios, short_ios, drop_ios). */
static void issued_mixed(fsc_job *j)
{
    fsc_dir *m = &j->dir[FSC_DIR_MIXED];
    if (!m->present || m->total_ios.set ||
        !(j->dir[FSC_DIR_READ].present || j->dir[FSC_DIR_WRITE].present || j->dir[FSC_DIR_TRIM].present))
        return;
    static const size_t offs[3] = {offsetof(fsc_dir, total_ios), offsetof(fsc_dir, short_ios),
                                   offsetof(fsc_dir, drop_ios)};
    for (int g = 0; g < 3; g++) {
        double sum = 0;
        bool any = false;
        for (int d = FSC_DIR_READ; d <= FSC_DIR_TRIM; d++) {
            const fsc_num *v = (const fsc_num *)((const char *)&j->dir[d] + offs[g]);
            if (v->set) {
                sum += v->v;
                any = true;
            }
        }
        if (any)
            *(fsc_num *)((char *)m + offs[g]) = fsc_num_of(sum);
    }
}

/* A job's issued counts read, by either path: mixed's sums (=both), then the IOPS
 * they put right. */
/* After a job's issued line (idx). fio prints one a job: a second one replaced the
 * first's counts, which were another job's (a line out of place: the job header below
 * swapped with the line above it), and a warning says so. */
static void issued_read(nstate *st, size_t idx)
{
    if (__builtin_expect(st->issued_line != 0, 0)) {
        fsc_job *j = cur_job(st);
        warn(st, idx, "a second issued line for job '%s' (line %u had one): its counts replace those (a line out "
                      "of place?)", j->jobname ? j->jobname : "", (unsigned)st->t->lines[st->issued_line - 1].orig);
    }
    st->issued_line = idx + 1;
    issued_mixed(cur_job(st));
    iops_slips(st);
}

/* Before a job-kv line (idx, rule r) is applied: fio prints each once a job, so a
 * second one is another job's, out of place (the job header below swapped with the
 * line above it): its values replace the first's, with a warning (before, silently). */
static void job_kv_again(nstate *st, const fsc_rule *r, size_t idx)
{
    for (size_t k = 0; k < st->n_kv_lines; k++)
        if (st->kv_rule[k] == r) {
            if (doubled(st, idx)) /* its values again: the same */
                return;
            fsc_job *j = cur_job(st);
            warn(st, idx, "a second '%s' line for job '%s' (line %u had one): its values replace those (a line "
                          "out of place?)", r->n_leads ? r->leads[0] : r->id, j && j->jobname ? j->jobname : "",
                 (unsigned)st->t->lines[st->kv_line[k]].orig);
            st->kv_line[k] = idx;
            return;
        }
    if (st->n_kv_lines < sizeof st->kv_rule / sizeof *st->kv_rule) {
        st->kv_rule[st->n_kv_lines] = r;
        st->kv_line[st->n_kv_lines++] = idx;
    }
}

/* issued: "15037,6398,0,0" (2.17+) or "r=57365/w=24336/d=0" (older) → per direction. */
static void issued_values(nstate *st, const char *s, size_t n, size_t field_off, size_t idx, const int order[4])
{
    fsc_job *j = cur_job(st);
    const char *end = s + n;
    size_t k = 0;
    while (s < end && k < 4) {
        const char *sep = s;
        while (sep < end && *sep != ',' && *sep != '/')
            sep++;
        const char *v = s;
        size_t vn = (size_t)(sep - s);
        const char *eq = memchr(v, '=', vn);
        if (eq) {
            vn -= (size_t)(eq + 1 - v);
            v = eq + 1;
        }
        fsc_num val;
        if (fsc_parse_plain_num(v, vn, &val) == FSC_OK) {
            fsc_dir *d = &j->dir[order[k]];
            /* fio's sync object has only total_ios */
            if (order[k] != FSC_DIR_SYNC || field_off == offsetof(fsc_dir, total_ios)) {
                *(fsc_num *)((char *)d + field_off) = val;
                if (order[k] != FSC_DIR_SYNC || val.v != 0)
                    d->present = true; /* syncs without a latency line: end_fsync's one */
            }
        } else if (vn) {
            st->run->lines.malformed++;
            warn(st, idx, "cannot read the issued count '%.*s'", (int)((size_t)(sep - s)), s);
        }
        k++;
        s = sep < end ? sep + 1 : end;
    }
}

static void act_issued(nstate *st, const fsc_rule *r, const char *line, size_t idx)
{
    if (!need_job(st, idx) || (st->issued_line && doubled(st, idx)))
        return;
    static const struct {
        const char *cap;
        size_t off;
    } parts[] = {{"total", offsetof(fsc_dir, total_ios)},
                 {"short", offsetof(fsc_dir, short_ios)},
                 {"drop", offsetof(fsc_dir, drop_ios)}};
    /* the order before the counts make directions present */
    int order[4];
    issued_order(st, cur_job(st), idx, order);
    for (size_t i = 0; i < FSC_ARRAY_SIZE(parts); i++) {
        const char *s;
        size_t n;
        if (fsc_rule_capture(r, st->md, line, parts[i].cap, &s, &n))
            issued_values(st, s, n, parts[i].off, idx, order);
    }
    issued_read(st, idx);
}

/* "Run status group N": the new group, made current (NULL: out of memory, or the
 * line above again). */
static fsc_group *group_open(nstate *st, size_t idx)
{
    if (st->group >= 0 && doubled(st, idx))
        return NULL;
    fsc_group *g = fsc_run_add_group(st->run);
    if (!g) {
        st->oom = true;
        return NULL;
    }
    st->group_line = idx;
    st->group_dir_last = 0;
    st->group = (long)st->run->n_groups - 1;
    st->job = -1;
    st->dir = -1;
    st->pctl_kind = -1;
    st->phase = 2;
    return g;
}

static void act_group(nstate *st, const fsc_rule *r, const char *line, size_t idx, bool clients)
{
    fsc_group *g = group_open(st, idx);
    if (!g)
        return;
    if (clients)
        g->hostname = fsc_strdup("All clients");
    else
        apply_fields(st, r, line, g,
                     (const fsc_field[]){{"groupid", offsetof(fsc_group, groupid), FSC_UNIT_NONE, sizeof "groupid" - 1}}, 1,
                     idx);
}

/* Are the lines between a and b (excluded) all blank, one at least? */
static bool blank_between(const nstate *st, size_t a, size_t b)
{
    if (b <= a + 1)
        return false;
    for (size_t i = a + 1; i < b; i++)
        if (!blank(fsc_text_line(st->t, i), st->t->lines[i].len))
            return false;
    return true;
}

/* A summary line of a direction its group has, or below a blank line under the
 * group's summary lines (fio prints them one under the other, right under their
 * header): the next group's, whose "Run status group" line was lost. Read into this
 * group, it would add a direction to it or replace one, silently. A text with blank
 * lines between all of its lines (its header and first summary line apart) tells
 * nothing. */
/* Does a job of the run name a group above g's (the next group's summary may follow)?
 * Yes when no job names its group (a text without job headers). The jobs' largest
 * groupid is kept from one call to the next (st->gid_jobs: the jobs looked at). */
static bool next_group_listed(nstate *st, const fsc_group *g)
{
    const fsc_run *run = st->run;
    for (; st->gid_jobs < run->n_jobs; st->gid_jobs++) {
        const fsc_num *id = &run->jobs[st->gid_jobs].groupid;
        if (id->set && (!st->gid_any || id->v > st->gid_max)) {
            st->gid_max = id->v;
            st->gid_any = true;
        }
    }
    return !st->gid_any || !g->groupid.set || st->gid_max > g->groupid.v;
}

/* Is the summary line idx of direction dir the first of a group whose "Run status
 * group" line was lost: its direction was read in this group already, or a blank line
 * stands between it and the group's lines, which came right under their header (fio
 * puts a blank line before each header), and the jobs name a group after this one (a
 * blank line that came between two lines of one group is none: a paste's). */
static bool group_header_lost(nstate *st, int dir, size_t idx)
{
    if (st->group < 0 || !st->group_dir_last)
        return false;
    const fsc_group *g = &st->run->groups[st->group];
    return g->dir[dir].present ||
           (st->group_tight && blank_between(st, st->group_dir_last, idx) && next_group_listed(st, g));
}

/* Open the next group for the summary line idx (group_header_lost): false when out
 * of memory. */
__attribute__((noinline, cold)) static bool group_lost_open(nstate *st, size_t idx)
{
    fsc_group *g = fsc_run_add_group(st->run);
    if (!g) {
        st->oom = true;
        return false;
    }
    const fsc_num prev = st->run->groups[st->run->n_groups - 2].groupid;
    st->group = (long)st->run->n_groups - 1;
    st->group_dir_last = 0;
    st->group_tight = false;
    if (prev.set)
        g->groupid = fsc_num_of(prev.v + 1);
    warn(st, idx, "a group summary line below the summary of group %.0f: the \"Run status group\" line above it "
                  "is missing; read as the next group's", prev.set ? prev.v : 0.0);
    return true;
}

/* A group summary line: its direction of the current group (NULL: out of memory, or
 * the line above again). */
static fsc_group_dir *group_dir_open(nstate *st, int dir, size_t idx, const char *line, size_t n)
{
    if (st->units.era == FSC_ERA_LEGACY && !st->kb_decided)
        kb_base_from_group(st, line, n, idx);
    if (group_header_lost(st, dir, idx)) {
        if (doubled(st, idx) || !group_lost_open(st, idx))
            return NULL;
    } else if (st->group < 0) {
        fsc_group *g = fsc_run_add_group(st->run);
        if (!g) {
            st->oom = true;
            return NULL;
        }
        st->group = (long)st->run->n_groups - 1;
        st->group_line = SIZE_MAX; /* no header: whether its lines stand close is unknown */
        st->group_dir_last = 0;
        warn(st, idx, "group summary line without its \"Run status group\" header");
    }
    if (!st->group_dir_last)
        st->group_tight = st->group_line != SIZE_MAX && idx == st->group_line + 1;
    st->group_dir_last = idx;
    fsc_group_dir *gd = &st->run->groups[st->group].dir[dir];
    gd->present = true;
    return gd;
}

static void act_group_dir(nstate *st, const fsc_rule *r, const char *line, size_t n, size_t idx)
{
    int dir = captured_dir(st, r, line);
    fsc_group_dir *gd = dir >= 0 ? group_dir_open(st, dir, idx, line, n) : NULL;
    if (gd) {
        apply_fields(st, r, line, gd, fsc_group_dir_fields, fsc_n_group_dir_fields, idx);
        group_dir_slips(st, line, n, idx, gd);
    }
}

/* Disk lines: a device with aggr* values is an md/dm device; the lines after it are
 * its members while their average still differs from the aggregate (fio prints the
 * members' mean there). Stacked devices (dm over md over disks) nest, so masters
 * are kept on a stack. This works whether or not the indentation survived. */
/* A disk of line idx, or NULL (out of memory, or the line of the disk before it
 * again: a pasted line doubled would be a second disk of that name). */
static fsc_disk *disk_open(nstate *st, size_t idx)
{
    if (st->run->n_disk_util && same_line(st, st->disk_line, idx)) {
        warn(st, idx, "disk line printed twice: read once");
        return NULL;
    }
    st->disk_line = idx;
    fsc_disk *d = fsc_run_add_disk(st->run);
    if (!d) {
        st->oom = true;
        return NULL;
    }
    st->phase = 3;
    st->job = -1;
    return d;
}

static void disk_members(nstate *st);

static void act_disk(nstate *st, const fsc_rule *r, const char *line, size_t idx)
{
    fsc_disk *d = disk_open(st, idx);
    if (!d)
        return;
    d->name = cap_dup(st, r, line, "name");
    apply_kv(st, r, line, d, fsc_disk_fields, fsc_n_disk_fields, idx);
    disk_members(st);
}

/* The last disk is a member of the md/dm device whose members are being listed, or
 * an md/dm device itself (see above). */
static void disk_members(nstate *st)
{
    fsc_disk *d = &st->run->disk_util[st->run->n_disk_util - 1];
    size_t me = st->run->n_disk_util - 1;
    if (st->n_masters) {
        disk_master *top = &st->masters[st->n_masters - 1];
        fsc_disk *m = &st->run->disk_util[top->index];
        top->sum_r += d->read_ios.set ? d->read_ios.v : 0;
        top->sum_w += d->write_ios.set ? d->write_ios.v : 0;
        top->n++;
        if (!fsc_disk_add_member(m, d->name ? d->name : "") || !(d->parent = fsc_strdup(m->name)))
            st->oom = true;
        double ar = m->aggr_read_ios.set ? m->aggr_read_ios.v : 0;
        double aw = m->aggr_write_ios.set ? m->aggr_write_ios.v : 0;
        /* fio prints the members' integer mean; compare in doubles (values may be anything) */
        if (floor(top->sum_r / (double)top->n) == floor(ar) && floor(top->sum_w / (double)top->n) == floor(aw))
            st->n_masters--; /* its members are complete */
    }
    d = &st->run->disk_util[me];
    if ((d->aggr_read_ios.set || d->aggr_write_ios.set) && st->n_masters < FSC_ARRAY_SIZE(st->masters)) {
        disk_master *m = &st->masters[st->n_masters++];
        m->index = me;
        m->sum_r = m->sum_w = 0;
        m->n = 0;
    }
}

static void act_steadystate(nstate *st, const fsc_rule *r, const char *line, size_t idx)
{
    fsc_job *j = need_job(st, idx);
    fsc_steady_text t = {0};
    const char *crit = NULL;
    size_t crit_n = 0;
    if (!j || !fsc_rule_capture(r, st->md, line, "bw", &t.bw, &t.bw_len) ||
        !fsc_rule_capture(r, st->md, line, "iops", &t.iops, &t.iops_len) ||
        !fsc_rule_capture(r, st->md, line, "criterion", &t.criterion, &t.criterion_len) ||
        !fsc_rule_capture(r, st->md, line, "crit", &crit, &crit_n))
        return;
    t.attained = cap_is(st, r, line, "attained", "yes");
    t.on_iops = cap_is(st, r, line, "on", "iops");
    t.on_lat = cap_is(st, r, line, "on", "lat");
    if (!fsc_rule_capture(r, st->md, line, "lat", &t.lat, &t.lat_len))
        t.lat = NULL;
    if (!fsc_rule_capture(r, st->md, line, "lat_unit", &t.lat_unit, &t.lat_unit_len))
        t.lat_unit = NULL;
    t.slope = crit_n == 5 && !memcmp(crit, "slope", 5);
    t.pct = cap_is(st, r, line, "pct", "%");
    fsc_status rc = fsc_steady_read_text(&j->steadystate, &t, st->units);
    if (rc == FSC_E_NOMEM)
        st->oom = true;
    else if (rc != FSC_OK)
        warn(st, idx, "steadystate line with numbers that do not parse: ignored");
}

/* Most CPUs an idleness list keeps (fio's own limit is the machine's). */
enum { IDLE_CPUS_MAX = 65536 };

/* fio's --idle-prof report, the last lines of a run: "CPU idleness:", then
 * "system: 96.20%", "percpu: 97.10%, 95.30%" (percpu only) and "unit work:
 * mean=7.81us, stddev=0.00", kept under fio's JSON names (system, cpu-0, cpu-1...,
 * unit_mean, unit_stddev). Its lines without the title above them are no one's
 * ("system: 50%" in a note). */
static void act_idle(nstate *st, const fsc_rule *r, const char *line)
{
    const char *s, *m;
    size_t n, mn;
    fsc_kvlist *l = &st->run->cpu_idleness;
    double v, v2;
    bool ok = true;
    if (fsc_rule_capture(r, st->md, line, "system", &s, &n)) {
        ok = !st->idle_title || fsc_parse_plain(s, n, &v) != FSC_OK || fsc_kvlist_set(l, "system", v);
    } else if (fsc_rule_capture(r, st->md, line, "percpu", &s, &n)) {
        const char *e = s + n;
        for (size_t cpu = 0; st->idle_title && ok && s < e && cpu < IDLE_CPUS_MAX; cpu++) {
            const char *pct = memchr(s, '%', (size_t)(e - s));
            char key[16];
            if (!pct || fsc_parse_plain(s, (size_t)(pct - s), &v) != FSC_OK)
                break;
            snprintf(key, sizeof key, "cpu-%zu", cpu);
            ok = fsc_kvlist_set(l, key, v);
            for (s = pct + 1; s < e && (*s == ',' || *s == ' ');) /* past "%, " */
                s++;
        }
    } else if (fsc_rule_capture(r, st->md, line, "unit_mean", &s, &n) &&
               fsc_rule_capture(r, st->md, line, "unit_stddev", &m, &mn)) {
        ok = !st->idle_title || fsc_parse_plain(s, n, &v) != FSC_OK || fsc_parse_plain(m, mn, &v2) != FSC_OK ||
             (fsc_kvlist_set(l, "unit_mean", v) && fsc_kvlist_set(l, "unit_stddev", v2));
    } else { /* the title */
        st->idle_title = true;
        return;
    }
    if (!ok)
        st->oom = true;
    st->dropped = !st->idle_title;
}

static void act_fio_message(nstate *st, const fsc_rule *r, const char *line, size_t idx)
{
    const char *s;
    size_t n;
    if (fsc_rule_capture(r, st->md, line, "message", &s, &n))
        warn(st, idx, "fio: %.*s", (int)(n), s);
}

/* A fio message with no run open (under a finished report, or above any run): a
 * note of the document, told by the first run that ends below it (fio's own or
 * JSON), as fio's preamble without results is, so that it goes to the same run in
 * a text read whole or in pieces. */
static void note_message(nstate *st, const fsc_rule *r, const char *line, size_t idx)
{
    const char *s;
    size_t k;
    if (st->notes && fsc_rule_capture(r, st->md, line, "message", &s, &k)) {
        fsc_notes_line(st->notes, st->t->lines[idx].orig);
        fsc_buf_printf(st->notes, "fio: %.*s", (int)(k < 500 ? k : 500), s);
    }
}

/* fsc_key_at_fn of a run's jobs: a job without a name has the empty one, which no
 * header gives */
static const char *job_name_at(const void *jobs, size_t i)
{
    const char *jn = ((const fsc_job *)jobs)[i].jobname;
    return jn ? jn : "";
}

/* Does the job header line name a job the current run already has? (Then, after a
 * paragraph of prose, it is the same job in another run.) */
static bool same_name_job(nstate *st, const fsc_rule *r, const char *line, const fsc_fastline *fl)
{
    const char *s;
    size_t n;
    if (fl) { /* lexed: the name is its first span */
        s = line + fl->cap[0].off;
        n = fl->cap[0].len;
    } else if (!fsc_rule_capture(r, st->md, line, "jobname", &s, &n)) {
        return false;
    }
    /* the jobs above the header, each named by its own header by now: indexed as
     * they come, so that a run of many jobs with prose after each stays linear */
    const fsc_run *run = st->run;
    char key[256];
    if (n >= sizeof key) { /* (the index below is searched in place for a short list) */
        for (size_t i = 0; i < run->n_jobs; i++) {
            const char *jn = run->jobs[i].jobname;
            if (jn && strlen(jn) == n && !memcmp(jn, s, n))
                return true;
        }
        return false;
    }
    if (st->names_indexed > run->n_jobs) { /* a job taken back off (fsc_run_add_job's out of memory) */
        fsc_keyindex_free(&st->name_ix);
        st->names_indexed = 0;
    }
    while (st->names_indexed < run->n_jobs)
        if (!fsc_keyindex_added(&st->name_ix, run->jobs, ++st->names_indexed, job_name_at)) {
            st->oom = true;
            return false;
        }
    memcpy(key, s, n);
    key[n] = 0;
    return n && fsc_keyindex_find(&st->name_ix, run->jobs, run->n_jobs, job_name_at, key) < run->n_jobs;
}

/* The direction of a lexed "read" / "write" / "trim" / "mixed" (and their
 * summaries), by fl->which. */
static const int fast_dirs[4] = {FSC_DIR_READ, FSC_DIR_WRITE, FSC_DIR_TRIM, FSC_DIR_MIXED};

/* Is this direction line another result of the current job, one without a header
 * that already holds that direction's numbers? After a line of prose ("Before:" above
 * one, "After:" above this one, as mails compare two runs' result lines) it begins
 * another run; without prose between them it is a cut-out piece (dir_open). Out of
 * line: asked only after prose, and starts_new_run stays small enough to inline. */
__attribute__((noinline, cold)) static bool repeats_headless_dir(nstate *st, const fsc_rule *r, const char *line,
                                                                 const fsc_fastline *fl)
{
    fsc_job *j = cur_job(st);
    if (!j || j->jobname) /* a job named by a prefix (grep's file name) is dir_open's */
        return false;
    int dir = fl ? fast_dirs[fl->which] : captured_dir(st, r, line);
    return dir >= 0 && j->dir[dir].present && fsc_dir_has_data(&j->dir[dir]);
}

/* Is the current run a banner and nothing else (a pasted `fio --version`)? */
static bool lone_banner(const nstate *st)
{
    return st->run->source.fio_version && !st->starting && st->first == st->last && !st->run->n_jobs;
}

/* A banner or "Starting N processes" line that is the line above again (doubled):
 * no other run. fio --client's clients on one host print alike ones. */
__attribute__((noinline, cold)) static bool banner_doubled(nstate *st, size_t idx)
{
    return !st->clients && doubled(st, idx);
}

/* A preamble without results that goes on with another's: an attempt that started
 * and printed no summary (io_u errors, then ^C or a "..." in a mail), then another
 * run. fio prints a run's job definitions ("name: (g=0): rw=...") and its banner
 * ("fio-3.33") before "Starting N processes", each once; so after that line, any of
 * them begins the next run. So does a definition after a banner alone: that banner
 * was `fio --version`'s, pasted above the run. A client/server run's servers each
 * print theirs ("<host> Starting ..."). */
static bool second_preamble(nstate *st, const fsc_rule *r, size_t idx)
{
    if (st->run->source.host)
        return false;
    if (!st->starting)
        return r->action == FSC_ACT_JOBDEF && lone_banner(st);
    return r->action == FSC_ACT_JOBDEF ||
           ((r->action == FSC_ACT_BANNER || r->action == FSC_ACT_STARTING) && !banner_doubled(st, idx));
}

/* fio --client prints each client's report (jobs, summary, Disk stats) one after
 * another, then, with more than one job, their sum as a job block "All clients:
 * (groupid=0, jobs=2): err= 0: pid=0"; its JSON lists them all in one run
 * ("client_stats"), and so they are here. */
static bool all_clients_sum(const char *line, size_t n)
{
    static const char head[] = "All clients: (groupid=";
    size_t i = 0;
    while (i < n && (line[i] == ' ' || line[i] == '\t'))
        i++;
    return n - i >= sizeof head - 1 && !memcmp(line + i, head, sizeof head - 1);
}

static bool another_client(nstate *st, const char *line, size_t n)
{
    if (all_clients_sum(line, n))
        return true;
    if (!st->client_reports)
        st->client_reports = 1; /* the first, whose summaries came before */
    if (st->client_reports >= st->clients)
        return false;
    st->client_reports++;
    return true;
}

/* Where a run's report stands after a line of each action: over below the Disk
 * stats or the idleness, summed below a group's summary line, else going on (REPORT_ON,
 * 0). One load a line, where three compares of the action were. */
static const uint8_t report_after[FSC_ACT_COUNT] = {
    [FSC_ACT_DISK] = REPORT_OVER, [FSC_ACT_IDLE] = REPORT_OVER, [FSC_ACT_GROUP_DIR] = REPORT_SUMMED};

/* The actions of a job's or group's result lines, by bit. fio prints a run's Disk
 * stats last: such a line after them is the tail of another run whose head was cut
 * off (a paste that begins inside a run), which must not be read into this complete
 * one (starts_new_run). */
#define ACT_BIT(a) (1ULL << (a))
_Static_assert(FSC_ACT_COUNT <= 64, "an action's bit in a uint64_t");
static const uint64_t RESULT_LINE_ACTIONS =
    ACT_BIT(FSC_ACT_GROUP) | ACT_BIT(FSC_ACT_LAT) | ACT_BIT(FSC_ACT_PCTL_TITLE) | ACT_BIT(FSC_ACT_PCTL_ROW) |
    ACT_BIT(FSC_ACT_BW_STATS) | ACT_BIT(FSC_ACT_IOPS_STATS) | ACT_BIT(FSC_ACT_BUCKETS) | ACT_BIT(FSC_ACT_SYNC_SECTION) |
    ACT_BIT(FSC_ACT_CPU) | ACT_BIT(FSC_ACT_DEPTHS) | ACT_BIT(FSC_ACT_ISSUED) | ACT_BIT(FSC_ACT_STEADYSTATE) |
    ACT_BIT(FSC_ACT_PRIO_LAT) | ACT_BIT(FSC_ACT_PRIO_PCTL_TITLE) | ACT_BIT(FSC_ACT_GROUP_DIR);

/* The actions of the lines that give a run results (apply: st->has_results). */
static const uint64_t RESULTS_ACTIONS =
    ACT_BIT(FSC_ACT_JOB) | ACT_BIT(FSC_ACT_DIR) | ACT_BIT(FSC_ACT_GROUP_DIR) | ACT_BIT(FSC_ACT_DISK);

/* Does this line begin a new run, given what the current run holds? */
static inline __attribute__((always_inline)) bool starts_new_run(nstate *st, const fsc_rule *r, const char *line,
                                                                   size_t n, size_t idx, const fsc_fastline *fl)
{
    const char *no;
    size_t non;
    /* "1 - READ: ...", "2 - READ: ...": summaries of numbered runs, one per line */
    if (!fl && r->action == FSC_ACT_GROUP_DIR && fsc_rule_capture(r, st->md, line, "runno", &no, &non)) {
        bool differs = non != strlen(st->runno) || memcmp(no, st->runno, non) != 0;
        snprintf(st->runno, sizeof st->runno, "%.*s", (int)(non < 15 ? non : 15), no);
        if (differs && st->run && st->has_results)
            return true;
    }
    if (!st->run)
        return false;
    /* a run that printed its (empty) group summary is over, results or not: an
     * interrupted attempt ("fio: terminating on signal 2") must not swallow the next */
    if (!st->has_results && st->phase < 2)
        return second_preamble(st, r, idx);
    if (RESULT_LINE_ACTIONS >> r->action & 1) /* one test for most lines, no jump */
        return st->phase >= 3;
    switch (r->action) {
    case FSC_ACT_JOBDEF: return true;
    case FSC_ACT_BANNER:
    case FSC_ACT_STARTING: return !banner_doubled(st, idx);
    case FSC_ACT_JOB:
        if (st->phase >= 2 && another_client(st, line, n))
            return false;
        return st->phase >= 2 || (st->prose_since_last && same_name_job(st, r, line, fl));
    case FSC_ACT_DIR: return st->phase >= 2 || (st->prose_since_last && repeats_headless_dir(st, r, line, fl));
    case FSC_ACT_DISK_HEADER: /* (right after another: a line doubled) */
        return st->phase >= 3 && st->run->n_disk_util;
    default: return false;
    }
}

static inline __attribute__((always_inline)) void apply_fast(nstate *st, const fsc_fastline *fl, const char *line,
                                                            size_t n, size_t idx);

/* The line's era, before it is applied. */
static inline void era_hint(nstate *st, const fsc_rule *r)
{
    if (__builtin_expect(r->era != FSC_ERA_ANY, 0))
        set_era(st, r->era == FSC_ERA_HINT_LEGACY ? FSC_ERA_LEGACY : FSC_ERA_MODERN);
}

/* After line idx (its rule: r) was applied to the run (run: the one it was applied
 * to): counted as read, or unread when it had no job or direction to go to. */
static inline void applied(nstate *st, fsc_run *run, const fsc_rule *r, size_t idx)
{
    if (st->dropped) { /* no job or direction to put it in: an unread line */
        note_unknown(st, idx);
        return;
    }
    run->lines.recognized++;
    if (RESULTS_ACTIONS >> r->action & 1)
        st->has_results = true;
    if (__builtin_expect(st->job != st->tail_job, 0)) {
        tail_flush(st);
        st->tail_job = st->job;
    }
    st->tail_idx = idx;
}

/* Apply a line the fast path lexed (fl: its values; no pattern ran). Inline in the
 * line loop, its one caller: a call saved and restored six registers a line. */
static inline __attribute__((always_inline)) void apply_lexed(nstate *st, const fsc_fastline *fl, const char *line,
                                                               size_t n, size_t idx)
{
    fsc_run *run = st->run;
    st->dropped = false;
    era_hint(st, fl->rule);
    apply_fast(st, fl, line, n, idx);
    applied(st, run, fl->rule, idx);
}

/* Apply a matched line (its captures in st->md, or none needed: a plain lexed one). */
/* line: n bytes, not NUL-terminated (it may lie inside the whole document) */
static void apply(nstate *st, const fsc_rule *r, const char *line, size_t n, size_t idx)
{
    fsc_run *run = st->run;
    st->dropped = false;
    era_hint(st, r);
    switch (r->action) {
    case FSC_ACT_NOISE: run->lines.noise++; return;
    case FSC_ACT_BANNER: act_banner(st, r, line); break;
    case FSC_ACT_STARTING: {
        const char *s;
        size_t sn;
        double v;
        if (fsc_rule_capture(r, st->md, line, "count", &s, &sn) && fsc_parse_plain(s, sn, &v) == FSC_OK) {
            double v2 = 0; /* "Starting 2 threads and 1 process": a job file of both */
            if (fsc_rule_capture(r, st->md, line, "count2", &s, &sn) && fsc_parse_plain(s, sn, &v2) == FSC_OK)
                v += v2;
            st->starting = v < 1e15 ? (uint64_t)v : 0; /* absurd counts are not a job count */
            st->starting_line = st->t->lines[idx].orig;
        }
        break;
    }
    case FSC_ACT_JOBDEF: act_jobdef(st, r, line, n); break;
    case FSC_ACT_JOB: act_job(st, r, line, n, idx); break;
    case FSC_ACT_DESCRIPTION: {
        fsc_job *j = need_job(st, idx);
        if (j) {
            free(j->description);
            j->description = cap_dup(st, r, line, "description");
        }
        break;
    }
    case FSC_ACT_DIR: act_dir(st, r, line, n, idx); break;
    case FSC_ACT_LAT: act_lat(st, r, line, idx); break;
    case FSC_ACT_PCTL_TITLE: act_pctl_title(st, r, line, idx); break;
    case FSC_ACT_PCTL_IGNORE: st->pctl_kind = PCTL_IGNORED; break;
    case FSC_ACT_PCTL_ROW: act_pctl_row(st, r, line, idx); break;
    case FSC_ACT_BW_STATS:
    case FSC_ACT_IOPS_STATS: {
        fsc_dir *d = cur_dir(st, idx);
        st->pctl_kind = -1;
        if (d && !stats_again(st, d, r->action == FSC_ACT_BW_STATS, idx))
            apply_kv(st, r, line, d, fsc_dir_fields, fsc_n_dir_fields, idx);
        break;
    }
    case FSC_ACT_BUCKETS: act_buckets(st, r, line, idx); break;
    case FSC_ACT_SYNC_SECTION:
        if (need_job(st, idx)) {
            st->dir = FSC_DIR_SYNC;
            cur_job(st)->dir[FSC_DIR_SYNC].present = true;
        }
        break;
    case FSC_ACT_CPU:
    case FSC_ACT_JOB_KV: {
        fsc_job *j = need_job(st, idx);
        st->pctl_kind = -1;
        if (j) {
            job_kv_again(st, r, idx);
            apply_kv(st, r, line, j, fsc_job_fields, fsc_n_job_fields, idx);
        }
        break;
    }
    case FSC_ACT_DEPTHS: act_depths(st, r, line, idx); break;
    case FSC_ACT_ISSUED: act_issued(st, r, line, idx); break;
    case FSC_ACT_GROUP: act_group(st, r, line, idx, false); break;
    case FSC_ACT_GROUP_CLIENTS: act_group(st, r, line, idx, true); break;
    case FSC_ACT_GROUP_DIR: act_group_dir(st, r, line, n, idx); break;
    case FSC_ACT_DISK_HEADER:
        st->phase = 3;
        st->job = -1;
        st->n_masters = 0;
        break;
    case FSC_ACT_DISK: act_disk(st, r, line, idx); break;
    case FSC_ACT_FIO_MESSAGE: act_fio_message(st, r, line, idx); break;
    case FSC_ACT_STEADYSTATE: act_steadystate(st, r, line, idx); break;
    case FSC_ACT_PRIO_LAT: act_prio_lat(st, r, line, idx); break;
    case FSC_ACT_PRIO_PCTL_TITLE: act_prio_pctl_title(st, r, line, idx); break;
    case FSC_ACT_IDLE: act_idle(st, r, line); break;
    default: break;
    }
    applied(st, run, r, idx);
}

/* Does s[0, n) hold a word (two letters in a row)? */
static bool has_word(const char *s, size_t n)
{
    for (size_t i = 1; i < n; i++)
        if (isalpha((unsigned char)s[i]) && isalpha((unsigned char)s[i - 1]))
            return true;
    return false;
}

static bool blank(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!isspace((unsigned char)s[i]))
            return false;
    return true;
}

static const char *find_lit(const char *s, size_t n, const char *lit)
{
    return memmem(s, n, lit, strlen(lit));
}

/* blank() for the main loop: most lines start with a few spaces and a letter. */
static inline bool blank_fast(const char *s, size_t n)
{
    const char *p = fsc_skip_spaces(s, s + n);
    if (p == s + n)
        return true;
    unsigned char c = (unsigned char)*p;
    if (c > ' ' && c < 0x7f)
        return false; /* printable ASCII is no space in any locale: no isspace() call */
    return isspace(c) && blank(p, (size_t)(s + n - p));
}

/* Unknown lines between recognized ones belong to the run: count and list them all
 * (parse --damage), and warn about the first ones that look like fio output. */
static void list_unknown(nstate *st)
{
    for (size_t i = 0; i < st->n_pending_unknown; i++) {
        size_t idx = st->pending_unknown[i];
        const char *s = fsc_text_line(st->t, idx);
        size_t n = st->t->lines[idx].len;
        note_unknown(st, idx);
        /* a line of values, or the label of one with nothing after it: a line that
         * lost its end ("    lat (msec", "  cpu     ", "Run sta") */
        bool values = memchr(s, '=', n) != NULL;
        if ((values || fsc_fio_line_head(s, n)) && idx + 1 != st->cut_unread && st->line_warnings < MAX_LINE_WARNINGS) {
            st->line_warnings++;
            const char *p = s;
            size_t pn = n;
            trim(&p, &pn);
            warn(st, idx, values ? "unrecognized line: %.*s" : "unrecognized line (cut short?): %.*s", (int)(pn), p);
        }
    }
    st->n_pending_unknown = 0;
}

/* (inline: most lines have none to list) */
static inline void flush_unknown(nstate *st)
{
    if (st->n_pending_unknown)
        list_unknown(st);
    st->prose_since_last = false;
}

/* An unread line that begins like a direction line ("  write: **IOPS=111k**, ...") or
 * a job header: what follows it must not be filed under the job or direction before. */
static void unread_line(nstate *st, size_t idx)
{
    const char *s = fsc_text_line(st->t, idx);
    size_t n = st->t->lines[idx].len, k = 0;
    while (k < n && s[k] == ' ')
        k++;
    if (!memchr(s, '=', n))
        st->prose_since_last = true; /* a sentence, a heading, a "::" marker */
    if (find_lit(s, n, "(groupid=") || find_lit(s, n, ": (g=")) {
        st->job = JOB_LOST;
        st->dir = -1;
        st->lost_warned = false;
        return;
    }
    size_t w = k;
    while (w < n && s[w] >= 'a' && s[w] <= 'z')
        w++;
    size_t c = w;
    while (c < n && s[c] == ' ')
        c++;
    int d = c < n && s[c] == ':' ? fsc_ddir_from_name(s + k, w - k) : -1;
    if (d >= 0 && st->job >= 0) {
        /* its numbers are lost, but it names the direction of the lines below */
        st->dir = d;
        st->pctl_kind = -1;
    } else if (st->job >= 0 && (find_lit(s, n, "IOPS=") || (find_lit(s, n, "io=") && find_lit(s, n, "bw=")))) {
        st->dir = DIR_LOST; /* a direction line whose direction word is lost */
        st->pctl_kind = -1;
        st->lost_warned = false;
    }
}

/* ---- wrapped lines: the grammar judges whether a join reads better ---- */

/* Continuation lines tried after a line, and joins tried in all. */
enum { MAX_WRAP = 5, MAX_JOIN_TRIES = 64 };
/* Each join tried is a grammar match over the joined lines. A line and its newline
 * give JOIN_CREDIT_RATE bytes of them a byte, JOIN_CREDIT_MAX held at most (and at
 * first); a try costs its length and JOIN_TRY_COST. A text where every line begins
 * a join to nothing took 25,000 instructions a byte: a line of 'a: (groupid=0' over
 * and over, cut into thousands of "(groupid=0a:" (normalize.c emit_flat), each tried
 * with all 62 joins of the 5 lines below it. fio's texts wrapped at 30 to 200
 * columns (tests/tolerance/wraps.py, damage/wrap_widths.py) never spend more than
 * 48 KB of credit beyond what their lines gave, and mail-wrapped at 20 columns
 * 318 KB: 1 MiB held leaves them a margin of three, and a hostile text spends it
 * once (some 45 M instructions), then 8 bytes of joins a byte of its own. */
enum { JOIN_CREDIT_RATE = 8, JOIN_CREDIT_MAX = 1048576, JOIN_TRY_COST = 64 };
/* Pieces of one cut job name at most: fio keeps 127 bytes of a name, a piece has 20
 * or more (the bound keeps a text of nothing but long words linear). */
enum { MAX_NAME_PIECES = 8 };

/* key=value items of a kv rule's capture: +1 read as printed, 0 read after a
 * repair (a damaged key, junk after the number), -1 not read. */
static int kv_score(nstate *st, const fsc_rule *r, const char *line)
{
    const char *s, *unit = NULL;
    size_t n, unit_len = 0;
    if (!fsc_rule_capture_num(st->md, line, r->cap_kv, &s, &n))
        return 0;
    fsc_rule_capture_num(st->md, line, r->cap_unit, &unit, &unit_len);
    int score = 0;
    uint32_t seen = 0; /* kv entries met: a key twice means two lines in one */
    for (const char *end = s + n; s < end;) {
        const char *comma = memchr(s, ',', (size_t)(end - s));
        const char *item_end = comma ? comma : end;
        const char *eq = memchr(s, '=', (size_t)(item_end - s));
        const char *k = s, *v = eq ? eq + 1 : NULL;
        size_t kn = eq ? (size_t)(eq - s) : 0, vn = eq ? (size_t)(item_end - v) : 0;
        if (eq) {
            trim(&k, &kn);
            trim(&v, &vn);
        }
        const fsc_kvfield *f = eq ? fsc_rule_kv(r, k, kn) : NULL;
        uint32_t bit = f ? 1u << ((size_t)(f - r->kv) % 32) : 0;
        fsc_num val;
        if (!f || (seen & bit))
            score -= 1;
        else if (f->kind == FSC_K_PAIR)
            score += memchr(v, '/', vn) && !memchr(v, ' ', vn) ? 1 : -1;
        else if (f->kind == FSC_K_STRING || convert(st, f->kind, v, vn, unit, unit_len, &val) == FSC_OK)
            score += 1;
        else if (vn && isdigit((unsigned char)v[0]))
            score += 0; /* "13 This is": a number with junk after it, read after a repair */
        else
            score -= 1;
        seen |= bit;
        s = comma ? comma + 1 : end;
    }
    return score;
}

/* Items of a list capture: percentile entries "1.00th=[   31]" or buckets "2=0.01%". */
static int list_score(nstate *st, const fsc_rule *r, const char *line)
{
    const char *s;
    size_t n;
    if (!fsc_rule_capture_num(st->md, line, r->cap_list, &s, &n))
        return 0;
    int score = 0;
    const char *end = s + n;
    if (r->action == FSC_ACT_PCTL_ROW) {
        for (const char *p = s; p < end;) {
            const char *th = memmem(p, (size_t)(end - p), "th=[", 4);
            if (!th)
                break;
            const char *v = th + 4, *close = memchr(v, ']', (size_t)(end - v));
            const char *q = th;
            while (q > p && (isdigit((unsigned char)q[-1]) || q[-1] == '.'))
                q--;
            double x;
            bool ok = close && q < th && fsc_parse_plain(v, (size_t)(close - v), &x) == FSC_OK;
            for (const char *z = p; ok && z < q; z++) /* only ", " between entries */
                ok = *z == ' ' || *z == ',';
            score += ok ? 1 : -1;
            if (!close)
                break;
            p = close + 1;
        }
        return score;
    }
    for (const char *p = s; p < end;) {
        const char *comma = memchr(p, ',', (size_t)(end - p));
        const char *item_end = comma ? comma : end;
        const char *eq = NULL;
        for (const char *q = p; q < item_end; q++)
            if (*q == '=')
                eq = q;
        double pct;
        const char *k = p;
        size_t kn = eq ? (size_t)(eq - p) : 0;
        trim(&k, &kn);
        bool ok = eq && kn && !memchr(k, ' ', kn) && fsc_parse_pct(eq + 1, (size_t)(item_end - eq - 1), &pct) == FSC_OK;
        if (item_end > p)
            score += ok ? 1 : -1;
        p = comma ? comma + 1 : end;
    }
    return score;
}

/* How well s reads as one fio line (see kv_score); a line no rule matches is -1, and
 * so is text after what its rule reads (but the date after a job line). */
static int read_score(nstate *st, const char *s, size_t n, const fsc_rule **rule_out)
{
    const fsc_rule *r = fsc_grammar_match(st->g, s, n, st->md);
    *rule_out = r;
    if (!r)
        return -1;
    if (r->action == FSC_ACT_NOISE || r->action == FSC_ACT_COMMAND || r->action == FSC_ACT_FIO_MESSAGE)
        return 0;
    int score = 0;
    for (size_t i = 0; i < r->n_fields; i++) {
        const fsc_capfield *cf = &r->fields[i];
        const char *v;
        size_t vn;
        fsc_num x;
        if (cf->kind == FSC_K_STRING || !fsc_rule_capture_num(st->md, s, cf->num, &v, &vn))
            continue;
        score += convert(st, cf->kind, v, vn, NULL, 0, &x) == FSC_OK ? 1 : -1;
    }
    if (r->cap_kv >= 0)
        score += kv_score(st, r, s);
    if (r->cap_list >= 0)
        score += list_score(st, r, s);
    if (!r->n_fields && r->cap_kv < 0 && r->cap_list < 0)
        score += 1;
    size_t end = pcre2_get_ovector_pointer(st->md)[1], tn = n;
    while (tn > end && isspace((unsigned char)s[tn - 1]))
        tn--;
    if (tn > end && r->action != FSC_ACT_JOB)
        score -= 1;
    return score;
}

/* Of the k lines joined to a line (their text at seam_at[b] of the join, which rule
 * r read: its match in st->md), how many lie wholly after what r read: each still
 * reads as nothing, as it did alone. read_score takes one point for the text after
 * a match, however long: without these, two lines of prose below a group summary
 * that ends a run ("run=2001-2001msec", then the text above the next run) joined it
 * for a point more than left alone. Not after a job line, whose date comes after
 * what its rule reads (read_score lets it be). */
static int unread_joined(nstate *st, const fsc_rule *r, const size_t *seam_at, size_t k)
{
    if (!r || r->action == FSC_ACT_JOB)
        return 0;
    size_t end = pcre2_get_ovector_pointer(st->md)[1];
    int u = 0;
    for (size_t b = 0; b < k; b++)
        u += seam_at[b] >= end;
    return u;
}

/* Is the seam between a and b inside a token (a hard cut: "1497" + "447.17")? */
static bool mid_token(char a, char b)
{
    /* '_' too: "io" above "_uring" is one word cut; '-' too: a name or a range cut at
     * its hyphen ("...-wrap-of-names" above "-abc: (g=0)", "4096B" above "-4096B") */
    return (isalnum((unsigned char)a) || a == '.' || a == '_' || a == '-') &&
           (isalnum((unsigned char)b) || b == '.' || b == '_' || b == '-');
}

/* Does the line begin as fio's job lines do, "<name>: (" (of "(g=0): rw=..." or
 * "(groupid=0, ..."), after the "<host> " of fio's client output or not? */
static bool name_led(const char *s, size_t n)
{
    size_t host = fsc_client_host_len(s, n);
    s += host;
    n -= host;
    const char *sp = memchr(s, ' ', n);
    return sp && sp != s && sp[-1] == ':' && (size_t)(sp - s) + 1 < n && sp[1] == '(';
}

static size_t wrapped_width(const nstate *st, size_t i);
static size_t widest_near(nstate *st, size_t i);

/* How many of the first k seams after line text s/n (line `from`) join the way the
 * text suggests: inside a token without a space (a hard cut), else with one (a word
 * wrap). A seam between two letters is a hard cut only where the line above it is
 * as wide as the text around it: a line a word wrap ended is shorter, and its space
 * went with the wrap ("option to" above "get rid of this warning"). A line whose
 * indentation was taken off (dedent_blocks) was wider than it is now, by how much
 * its lead does not say: a seam in a token there stays a cut. */
static int seams_plausible(nstate *st, size_t from, const char *s, size_t n, const size_t *cand, size_t k,
                           unsigned mask)
{
    int good = 0;
    char left = n ? s[n - 1] : ' ';
    size_t above = from;
    for (size_t b = 0; b < k; b++) {
        const char *ps = fsc_text_line(st->t, cand[b]);
        size_t pn = st->t->lines[cand[b]].len;
        bool tight = mask & (1u << b);
        bool cut = pn && mid_token(left, ps[0]) &&
                   ((st->t->lines[above].flags & FSC_LINE_INDENT) || wrapped_width(st, above) >= widest_near(st, above));
        good += pn && tight == cut;
        left = pn ? ps[pn - 1] : left;
        above = cand[b];
    }
    return good;
}

/* How wide line i was where the text was wrapped: with the quote mark or prefix that
 * normalizing took from it (a quoted mail wrapped after quoting: its rests have none). */
static size_t wrapped_width(const nstate *st, size_t i)
{
    return (size_t)st->t->lines[i].len + st->t->lines[i].lead;
}

/* The width the text around line i was wrapped to: the longest line that has a
 * space after its indentation (a mail client leaves a word longer than the width
 * whole, on a line of its own) in line i's paragraph (between blank lines, WRAP_NEAR
 * lines either way at most). Not the whole text's: a document may hold one report as
 * printed (a job line of 190 bytes) and, after it, another wrapped at 72, and a text
 * parsed in pieces sees only its piece. fio's paragraphs (the job lines, a job's
 * results, the group lines) each hold lines of most of the width. */
enum { WRAP_NEAR = 64 };
#define NEAR_BLANK UINT32_MAX

/* Line k's entry of st->spaced. */
static uint32_t spaced_width(const nstate *st, size_t k)
{
    const char *ks = fsc_text_line(st->t, k);
    size_t kn = st->t->lines[k].len, a = 0;
    while (a < kn && ks[a] == ' ') /* an indented long word is still a word */
        a++;
    if (a == kn)
        return NEAR_BLANK;
    return memchr(ks + a, ' ', kn - a) ? (uint32_t)(kn + st->t->lines[k].lead) : 0;
}

static size_t widest_near(nstate *st, size_t i)
{
    /* asked for most lines of a text of long words, several times each: each line is
     * looked at once */
    if (!st->spaced) {
        if (!(st->spaced = malloc(st->t->n_lines * sizeof *st->spaced))) {
            st->oom = true;
            return 0;
        }
        for (size_t k = 0; k < st->t->n_lines; k++)
            st->spaced[k] = spaced_width(st, k);
    }
    const uint32_t *w = st->spaced;
    size_t lo = i, hi = i, widest = 0;
    while (lo > 0 && i - lo < WRAP_NEAR && w[lo - 1] != NEAR_BLANK)
        lo--;
    while (hi + 1 < st->t->n_lines && hi - i < WRAP_NEAR && w[hi + 1] != NEAR_BLANK)
        hi++;
    for (size_t k = lo; k <= hi; k++)
        if (w[k] != NEAR_BLANK && w[k] > widest)
            widest = w[k];
    return widest;
}

/* Was line i cut where the text was wrapped? Not short, and the first word of the
 * next line would not have fitted after it within the width the text around it was
 * wrapped to (widest_near). */
static bool cut_at_width(nstate *st, size_t i)
{
    size_t n = st->t->lines[i].len;
    if (n < 20 || i + 1 >= st->t->n_lines)
        return false;
    const char *ns = fsc_text_line(st->t, i + 1);
    size_t nn = st->t->lines[i + 1].len, word = 0;
    while (word < nn && ns[word] != ' ')
        word++;
    return wrapped_width(st, i) + 1 + word > widest_near(st, i);
}

/* Is line j the rest of line j - 1, cut at the full width of the text (a hard wrap,
 * as a terminal or `fold` makes, in a word or at a space), even though a rule's
 * needle is in it? Line j - 1 is as wide as the widest line, and line j does not
 * begin as fio's lines do (indented and a rule's lead, or a first word ending in ':'
 * as "g2: (g=1): ..."). A word wrap ends a line short of the width when the next
 * word would not fit: a line of its own below it ("short: (g=0): ..., iodepth=1"
 * above a long job name) is not its rest. */
static bool hard_rest(nstate *st, size_t j)
{
    if (!j || !cut_at_width(st, j - 1) || wrapped_width(st, j - 1) < widest_near(st, j - 1))
        return false;
    const char *ns = fsc_text_line(st->t, j);
    size_t nn = st->t->lines[j].len, a = 0, w;
    while (a < nn && ns[a] == ' ')
        a++;
    for (w = a; w < nn && ns[w] != ' '; w++)
        ;
    if (w == a || ns[w - 1] == ':')
        return false;
    /* fio's indented lines begin with a lead ("clat", "|"); a rest at the margin may
     * begin with one's letters ("sync, iodepth=1") */
    return !a || !fsc_grammar_lead_match(st->g, ns, nn);
}

/* Is line i the head of a job name cut by a wrap ("<72 characters of a long name>"
 * above "<its rest>: (groupid=0, jobs=1): err= 0: ...", or "<a long name>:" above
 * "(g=0): rw=..."), whose rest reads as a line of its own under a name that is only
 * its tail, or as none? One word of 20 bytes or more (no space, a ':' only at its
 * end; spaces before and after it), cut at the width (a shorter word above a job,
 * such as a commit id in a CI log, is a line of its own). */
static bool name_piece(nstate *st, size_t i)
{
    const char *s = fsc_text_line(st->t, i);
    size_t w = st->t->lines[i].len, a = 0;
    while (w && s[w - 1] == ' ') /* a wrap may keep the space it broke at */
        w--;
    while (a < w && s[a] == ' ') /* an indented paste, wrapped after (its rest is not) */
        a++;
    if (w - a < 20)
        return false;
    bool alnum = false; /* a rule ("+-----+", "=====") is no name */
    for (size_t k = a; k < w; k++) {
        if ((unsigned char)s[k] <= ' ' || (unsigned char)s[k] >= 0x7F || (s[k] == ':' && k + 1 < w))
            return false;
        alnum = alnum || isalnum((unsigned char)s[k]);
    }
    return alnum && cut_at_width(st, i);
}

/* name_piece, for a line that may begin the pieces of a cut name: not one of the
 * pieces after a head whose join came to nothing (the shorter chains from them end
 * at the same rest: trying each again made a text of nothing but long words cost 8
 * joins a line). */
static bool head_piece(nstate *st, size_t i)
{
    return !(st->dead_pieces && i <= st->dead_pieces_to) && name_piece(st, i);
}

/* The last line of the pieces of a cut name that follow line j (j: none), not read
 * already and not indented (only the head may be), MAX_NAME_PIECES lines at most
 * with j. */
static size_t last_piece(nstate *st, size_t j, size_t last)
{
    size_t k = j;
    while (k + 1 <= last && k + 1 < st->t->n_lines && k + 1 - j < MAX_NAME_PIECES &&
           !(st->t->lines[k + 1].flags & FSC_LINE_CONSUMED) && fsc_text_line(st->t, k + 1)[0] != ' ' &&
           name_piece(st, k + 1))
        k++;
    return k;
}

/* Does a cut job name begin at line j: its pieces, the last one ending at the name's
 * ':' or followed by a line that can begin a fio line (its rest), or begins as a job
 * line does ("<the name's tail>: (gr" above "oupid=0, ...")? Then it is not the
 * rest of the line above it. */
static bool starts_cut_name(nstate *st, size_t j, size_t last)
{
    if (!name_piece(st, j))
        return false;
    size_t k = last_piece(st, j, last) + 1;
    const char *p = fsc_text_line(st->t, k - 1);
    size_t pn = st->t->lines[k - 1].len;
    while (pn && p[pn - 1] == ' ')
        pn--;
    if (pn && p[pn - 1] == ':')
        return true;
    return k <= last && k < st->t->n_lines &&
           (name_led(fsc_text_line(st->t, k), st->t->lines[k].len) ||
            fsc_grammar_could_match(st->g, fsc_text_line(st->t, k), st->t->lines[k].len));
}

/* Does line i, read, end where the line after it begins? The next line begins with
 * a byte that no line of fio's text goes on with ('*', '#', '$', '`', '@', '!', '~',
 * '&', '^', a quote, a backslash: a Markdown rule "*****", a comment, a prompt, a
 * shell trace's "+ "), or line i's last value visibly ended ("util=99.72%",
 * "(85.5MiB/2001msec)", "[16188]") and the next line begins with no separator: a wrap
 * leaves the ", " or "; " between two values ("(733MB/1001msec)" above "; 0 zone
 * resets") on one side of the seam or the other. Either way the next line is no rest
 * of it (a shell trace's "+ fallocate ..." below a disk line, a banner of asterisks
 * below a bandwidth line). */
static bool ended_before(const nstate *st, size_t i, size_t last)
{
    if (i + 1 > last || i + 1 >= st->t->n_lines || !st->t->lines[i + 1].len)
        return false;
    const char *ns = fsc_text_line(st->t, i + 1);
    size_t nn = st->t->lines[i + 1].len;
    if (strchr("*#$`@!~&^'\"\\", ns[0]) || (ns[0] == '+' && nn > 1 && ns[1] == ' '))
        return true;
    const char *s = fsc_text_line(st->t, i);
    size_t n = st->t->lines[i].len;
    while (n && s[n - 1] == ' ')
        n--;
    if (!n || (s[n - 1] != '%' && s[n - 1] != ')' && s[n - 1] != ']'))
        return false;
    return ns[0] != ',' && ns[0] != ';' && ns[0] != ' ';
}

/* Is line j, whose first word is a rule's lead, the rest of line i (read) that a wrap
 * broke before that word ("  steadystate  : ..., iops=3207k," above "iops mean
 * dev=0.000%")? Line i ends at a separator (a comma, or the blank fold -s keeps), line
 * j is indented less, and at most one space (the rest of a wrap is at the margin, or
 * one space in where fold cut; fio's lines after such a line are indented as much or
 * more, and its result lines two spaces at least), and no rule reads line j, repaired
 * or not. The joins weigh it against the line on its own.
 * *md_used is set when the grammar was asked (md no longer holds line i's match). */
static bool rest_after_separator(nstate *st, size_t i, size_t j, fsc_buf *fixed, bool *md_used)
{
    const char *s = fsc_text_line(st->t, i), *ns = fsc_text_line(st->t, j);
    size_t n = st->t->lines[i].len, nn = st->t->lines[j].len;
    if (!n || (s[n - 1] != ',' && s[n - 1] != ' '))
        return false;
    size_t in = (size_t)(fsc_skip_spaces(ns, ns + nn) - ns);
    if (in > 1 || in >= (size_t)(fsc_skip_spaces(s, s + n) - s))
        return false; /* fio's own "    bw (KB/s)  : min=-3, ..." under a row is no rest */
    *md_used = true;
    return !fsc_grammar_match(st->g, ns, nn, st->md) && !fsc_grammar_match_fuzzy(st->g, ns, nn, st->md, fixed);
}

/* Is the line s[0, n) JSON's around a string that held fio's output (a member "rc":
 * 0, a brace, a notebook's indented "]"), never the rest of a fio line? fio's lines
 * hold no member and no brace; a lone ']' at the margin may be a fold's rest of a
 * percentile ("[12125" above "]"). */
static bool json_around(const char *s, size_t n)
{
    size_t k = 0;
    while (k < n && (s[k] == ' ' || s[k] == '\t'))
        k++;
    if (k == n)
        return false;
    if (s[k] == '"')
        return fsc_json_member(s + k, s + n);
    bool brace = false;
    for (size_t j = k; j < n; j++) {
        if (s[j] == '{' || s[j] == '}')
            brace = true;
        else if (s[j] != '[' && s[j] != ']' && s[j] != ',' && s[j] != ' ' && s[j] != '\r')
            return false;
    }
    return brace || k > 0;
}

/* What wrap_candidates asks of a line, kept with the answer: a line is a candidate
 * of each of the MAX_WRAP lines above it, and a text of short lines with a fio mark
 * ("IOPS=" a line) asked the grammar ten times a line (3,300 instructions a byte). */
enum { LINE_COULD_KNOWN = 1, LINE_COULD = 2, LINE_FUZZY_KNOWN = 4, LINE_FUZZY = 8 };

/* Line j's answer to question `known` (LINE_COULD_KNOWN: could a rule match it,
 * LINE_FUZZY_KNOWN: does one match it repaired), asked at most once. */
static bool line_verdict(nstate *st, size_t j, uint8_t known, fsc_buf *fixed)
{
    if (!st->verdicts)
        st->verdicts = calloc(st->t->n_lines, 1); /* none: asked each time */
    if (st->verdicts && (st->verdicts[j] & known))
        return st->verdicts[j] & (known << 1);
    const char *ns = fsc_text_line(st->t, j);
    size_t nn = st->t->lines[j].len;
    bool yes = known == LINE_COULD_KNOWN ? fsc_grammar_could_match(st->g, ns, nn)
                                         : fsc_grammar_match_fuzzy(st->g, ns, nn, st->md, fixed) != NULL;
    if (st->verdicts)
        st->verdicts[j] |= (uint8_t)(known | (yes ? known << 1 : 0));
    return yes;
}

/* The lines after line i that may be the rest of it, wrapped by a mail client or a
 * terminal at any width: non-blank, not read already, and unable to begin a fio line
 * (or, when line i itself reads as nothing, matched by no rule). After the pieces of
 * a cut job name (name_piece), the line that ends the name is one too, even where it
 * reads as a line of its own. */
static size_t wrap_candidates(nstate *st, size_t i, size_t last, bool line_read, size_t *cand, fsc_buf *fixed,
                              bool *md_used)
{
    size_t m = 0;
    *md_used = false;
    bool pieces = !line_read && head_piece(st, i);
    if (line_read && ended_before(st, i, last))
        return 0;
    for (size_t j = i + 1; j <= last && j < st->t->n_lines && m < MAX_WRAP; j++) {
        const char *ns = fsc_text_line(st->t, j);
        size_t nn = st->t->lines[j].len;
        /* a job line's beginning, whole or cut, is never the rest of another line
         * (but the rest of a cut name is the rest of its line) */
        if ((st->t->lines[j].flags & FSC_LINE_CONSUMED) || blank(ns, nn) || json_around(ns, nn) ||
            (!pieces && (name_led(ns, nn) || starts_cut_name(st, j, last))))
            break;
        if (line_verdict(st, j, LINE_COULD_KNOWN, fixed)) {
            /* after a line read, or after a continuation, a line that could begin a
             * fio line is one of its own; after a continuation, unless it is the
             * rest of the line above cut hard and no rule reads it: a job
             * definition hard-wrapped into three lines, "sync, iodepth=1" under
             * "..., ioengine=p". A line read stays as read ("hostname=...,
             * flags=1", as wide as the text, above "<vm> job: (g=0): ...") */
            if (line_read && m == 0 && rest_after_separator(st, i, j, fixed, md_used)) {
                cand[m++] = j;
                continue;
            }
            if (line_read || (m > 0 && !pieces && !hard_rest(st, j)))
                break;
            *md_used = true;
            if (fsc_grammar_match(st->g, ns, nn, st->md)) {
                if (!pieces)
                    break;
                /* the rest of the name's line: what follows continues it as it
                 * would continue a line read */
                cand[m++] = j;
                pieces = false;
                line_read = true;
                continue;
            }
        }
        if (memchr(ns, '=', nn) || memchr(ns, ':', nn)) {
            /* a damaged line of its own ("io        : min=" for "iops"), unless it is
             * the rest of a line read, cut hard at the text's width ("hostname=...,
             * fio=fio-3.3" above "3, flags=1"): the joins weigh it against the line on
             * its own */
            *md_used = true;
            if (!(line_read && m == 0 && hard_rest(st, j)) && line_verdict(st, j, LINE_FUZZY_KNOWN, fixed))
                break;
        }
        cand[m++] = j;
        pieces = pieces && name_piece(st, j);
    }
    return m;
}

/* After a join of a head of pieces (tried) to nothing: none of its pieces up to line
 * `to` begins a name again (head_piece). */
static void pieces_dead(nstate *st, bool tried, size_t to)
{
    if (tried) {
        st->dead_pieces = true;
        st->dead_pieces_to = to;
    }
}

/* The description rule's match of b, or NULL. */
static const fsc_rule *desc_match(nstate *st, const fsc_buf *b)
{
    if (b->oom) {
        st->oom = true;
        return NULL;
    }
    const fsc_rule *r = fsc_grammar_match(st->g, b->data, b->len, st->md);
    return r && r->action == FSC_ACT_DESCRIPTION ? r : NULL;
}

/* desc_match of the lines joined up to line `to`, then the text (*s, *n) and
 * *joined_to. */
static const fsc_rule *desc_joined(nstate *st, const fsc_buf *joined, const char **s, size_t *n,
                                   size_t *joined_to, size_t to)
{
    const fsc_rule *r = desc_match(st, joined);
    if (!r)
        return NULL;
    *s = joined->data;
    *n = joined->len;
    *joined_to = to;
    return r;
}

/* Is the word that ends text b and goes on at the start of ns longer than the width
 * (so a word wrap had to cut it)? */
static bool word_longer_than(const fsc_buf *b, const char *ns, size_t nn, size_t width)
{
    size_t tail = 0, head = 0;
    while (tail < b->len && b->data[b->len - 1 - tail] != ' ')
        tail++;
    while (head < nn && ns[head] != ' ')
        head++;
    return tail + head > width;
}

/* Was the description on lines i..close wrapped at words (a mail client, fmt): one of
 * its lines above the last ended short of the text's width at a seam with no blank
 * on either side? Then a line that ends at the width ended there at a word too, its
 * space dropped with the wrap ("...the storage array" above "under mixed load", 31
 * columns at 31), not cut inside a word as fold cuts every line of a paragraph.
 * *width: the text's width there. */
enum { DESC_NEAR = 24 };
static bool desc_word_wrapped(nstate *st, size_t i, size_t close, size_t *width)
{
    /* the width: the widest line around, across blank lines (the description's
     * paragraph may have no other line wrapped: "...several queue" at 93 columns,
     * the group line below it at 95) */
    size_t from = i > DESC_NEAR ? i - DESC_NEAR : 0, widest = 0;
    for (size_t j = from; j < st->t->n_lines && j <= close + DESC_NEAR; j++)
        if (wrapped_width(st, j) > widest)
            widest = wrapped_width(st, j);
    *width = widest;
    for (size_t j = i; j < close; j++) {
        const char *s = fsc_text_line(st->t, j), *ns = fsc_text_line(st->t, j + 1);
        size_t n = st->t->lines[j].len, nn = st->t->lines[j + 1].len;
        if (n && s[n - 1] != ' ' && nn && ns[0] != ' ' && wrapped_width(st, j) < widest)
            return true;
    }
    /* a description of one seam at the width tells nothing: the lines around it do,
     * where a line ended short of the width above a rest at the margin that would not
     * have fit on it and that is none of fio's lines at the margin ("...: pid=23435:
     * Mon Dec  7 01:30:24" above "2026", its job header wrapped at 70) */
    for (size_t j = from; j + 1 < st->t->n_lines && j <= close + DESC_NEAR; j++) {
        if (j >= i && j <= close)
            continue;
        const char *s = fsc_text_line(st->t, j), *ns = fsc_text_line(st->t, j + 1);
        size_t n = st->t->lines[j].len, nn = st->t->lines[j + 1].len, word = 0;
        if (!n || s[n - 1] == ' ' || !nn || ns[0] == ' ' || (st->t->lines[j + 1].flags & FSC_LINE_INDENT))
            continue;
        while (word < nn && ns[word] != ' ')
            word++;
        if (n >= 20 && wrapped_width(st, j) < widest && wrapped_width(st, j) + 1 + word > widest &&
            !name_led(ns, nn) && !fsc_fio_margin_line(ns, nn))
            return true;
    }
    return false;
}

/* fio's "  Description  : [<up to 255 bytes of free text>]" wrapped narrow: 7 lines at
 * 40 columns, more than the seams join_wrapped weighs, and free text, which no rule
 * reads line by line. Line i (s, n) opens the bracket (or line i + 1 does) and does
 * not close it (the rule reads it with a ']' after it): the lines below are joined up
 * to the one that closes it (none blank, read already, a job's name or a line a rule
 * reads; MAX_DESC_LINES at most), each seam without a space where the line above was
 * cut at the text's width by fold or kept its blank (fold -s), with one where a word
 * wrap took it (desc_word_wrapped). The description rule's match, or NULL. */
enum { MAX_DESC_LINES = 12 };
static const fsc_rule *join_description(nstate *st, size_t i, size_t last, const char **s, size_t *n,
                                        fsc_buf *joined, size_t *joined_to)
{
    /* open: no ']' in it, and the description rule reads it closed; its '[' may have
     * gone down with the text's first word ("  Description  : " above "[<a word
     * longer than the width> ...", fold -s) */
    size_t first = i;
    fsc_buf_reset(joined);
    fsc_buf_add(joined, *s, *n);
    if (!memchr(*s, '[', *n)) {
        size_t e = *n;
        while (e && (*s)[e - 1] == ' ')
            e--;
        if (!e || (*s)[e - 1] != ':' || i + 1 > last || i + 1 >= st->t->n_lines ||
            (st->t->lines[i + 1].flags & FSC_LINE_CONSUMED) || fsc_text_line(st->t, i + 1)[0] != '[')
            return NULL;
        first = i + 1;
        if (e == *n)
            fsc_buf_putc(joined, ' ');
        fsc_buf_add(joined, fsc_text_line(st->t, first), st->t->lines[first].len);
    }
    if (memchr(joined->data, ']', joined->len)) /* closed on the line of its '[' */
        return first == i ? NULL : desc_joined(st, joined, s, n, joined_to, first);
    fsc_buf_putc(joined, ']');
    if (!desc_match(st, joined))
        return NULL;
    joined->len--;
    /* the line that closes it */
    size_t close = 0;
    for (size_t j = first + 1; !close && j <= last && j < st->t->n_lines && j <= i + MAX_DESC_LINES; j++) {
        const char *ns = fsc_text_line(st->t, j);
        size_t nn = st->t->lines[j].len;
        /* free text may begin as a fio line might ("generation: the same job file"),
         * not read as one: a line a rule reads is fio's (a lost ']', not a run's lines
         * up to a percentile row's) */
        if ((st->t->lines[j].flags & FSC_LINE_CONSUMED) || blank(ns, nn) || name_led(ns, nn) ||
            fsc_grammar_match(st->g, ns, nn, st->md))
            return NULL;
        if (memchr(ns, ']', nn))
            close = j;
    }
    if (!close)
        return NULL;
    size_t width;
    bool words = desc_word_wrapped(st, first, close, &width);
    for (size_t j = first + 1; j <= close; j++) {
        const char *ns = fsc_text_line(st->t, j);
        size_t nn = st->t->lines[j].len;
        /* fold -s keeps the blank it broke at; fold cuts at the width, anywhere
         * ("...long enough to wr" above "ap: seq write"); a word wrap cuts only a
         * word longer than the width */
        bool spaced = (joined->len && joined->data[joined->len - 1] == ' ') || (nn && ns[0] == ' ');
        bool at_width = wrapped_width(st, j - 1) >= width;
        if (!spaced && (words ? !(at_width && word_longer_than(joined, ns, nn, width)) : !at_width))
            fsc_buf_putc(joined, ' ');
        fsc_buf_add(joined, ns, nn);
    }
    return desc_joined(st, joined, s, n, joined_to, close);
}

/* The credit of the lines up to line i (JOIN_CREDIT_RATE). */
static void join_credit_add(nstate *st, size_t i)
{
    size_t bytes = 0;
    for (; st->credited_to <= i && st->credited_to < st->t->n_lines; st->credited_to++)
        bytes += st->t->lines[st->credited_to].len + 1u;
    size_t room = JOIN_CREDIT_MAX - st->join_credit;
    st->join_credit = bytes >= room / JOIN_CREDIT_RATE ? JOIN_CREDIT_MAX : st->join_credit + bytes * JOIN_CREDIT_RATE;
}

/* Line i (text s, n) and the lines that continue it, joined where that reads better:
 * each seam with a space (a word wrap drops it) or without (a hard cut), the best
 * join kept when it reads better than the lines on their own. Returns the rule of the
 * text returned in *s, *n (md holds its match); *joined_to = the last line used. */
static const fsc_rule *join_wrapped(nstate *st, size_t i, size_t last, const fsc_rule *r, const char **s,
                                    size_t *n, fsc_buf *joined, size_t *joined_to)
{
    const fsc_rule *desc = r ? NULL : join_description(st, i, last, s, n, joined, joined_to);
    if (desc)
        return desc;
    /* fio's message reads the same with any text after it: only one cut where the
     * text was wrapped goes on (a "note: ..." of fio's, prose, is a line of its own) */
    if (r && r->action == FSC_ACT_FIO_MESSAGE && !cut_at_width(st, i))
        return r;
    size_t cand[MAX_WRAP];
    bool md_used;
    /* the pieces of a cut job name are joined as they come, without spaces (a name
     * has none), before the rest is weighed: a long name wrapped narrow takes more
     * lines than the seams tried below */
    const char *line = *s;
    size_t line_n = *n, from = i;
    fsc_buf head = {0};
    bool tried = !r && head_piece(st, i);
    if (tried) {
        fsc_buf_add(&head, *s, *n);
        from = last_piece(st, i, last);
        for (size_t j = i + 1; j <= from; j++)
            fsc_buf_add(&head, fsc_text_line(st->t, j), st->t->lines[j].len);
        if (head.oom) {
            fsc_buf_free(&head);
            st->oom = true;
            return NULL;
        }
        if (from > i) {
            *s = head.data;
            *n = head.len;
        }
    }
    size_t m = wrap_candidates(st, from, last, r != NULL, cand, joined, &md_used);
    if (!m) { /* md still holds r's match unless the look at the next line took it */
        *s = line;
        *n = line_n;
        fsc_buf_free(&head);
        pieces_dead(st, tried, from);
        return r && md_used ? fsc_grammar_match(st->g, *s, *n, st->md) : r;
    }
    fsc_buf tmp = {0};
    if (!r) {
        /* a join begins with this line's first word: only if some rule could match
         * the whole (with or without spaces at the seams) is it worth trying */
        bool could = false;
        for (int tight = 0; tight < 2 && !could; tight++) {
            fsc_buf_reset(&tmp);
            fsc_buf_add(&tmp, *s, *n);
            for (size_t b = 0; b < m; b++) {
                if (!tight)
                    fsc_buf_putc(&tmp, ' ');
                fsc_buf_add(&tmp, fsc_text_line(st->t, cand[b]), st->t->lines[cand[b]].len);
            }
            could = !tmp.oom && fsc_grammar_could_match(st->g, tmp.data, tmp.len);
        }
        if (!could) {
            fsc_buf_free(&tmp);
            fsc_buf_free(&head);
            *s = line;
            *n = line_n;
            pieces_dead(st, tried, from);
            return NULL;
        }
    }
    const fsc_rule *dummy;
    int base = read_score(st, *s, *n, &dummy) - (int)m; /* each continuation alone reads as nothing */
    int best = base, tries = 0;
    size_t best_k = 0;
    unsigned best_mask = 0;
    bool spent = false; /* out of credit: the best join so far stands */
    join_credit_add(st, i);
    for (size_t k = 1; k <= m && !spent; k++) {
        for (unsigned mask = 0; mask < (1u << k) && tries < MAX_JOIN_TRIES && !spent; mask++) {
            /* bit b of mask: seam b joins without a space */
            fsc_buf_reset(&tmp);
            fsc_buf_add(&tmp, *s, *n);
            bool redundant = false;
            size_t seam_at[MAX_WRAP]; /* where each joined line's text begins in tmp */
            for (size_t b = 0; b < k && !redundant; b++) {
                const char *ps = fsc_text_line(st->t, cand[b]);
                size_t pn = st->t->lines[cand[b]].len;
                bool tight = mask & (1u << b);
                char left = tmp.len ? tmp.data[tmp.len - 1] : ' ';
                if (!tight) {
                    /* a space already on either side: the tight join is the same */
                    if (left == ' ' || (pn && ps[0] == ' ')) {
                        redundant = true;
                        break;
                    }
                    fsc_buf_putc(&tmp, ' ');
                }
                seam_at[b] = tmp.len;
                fsc_buf_add(&tmp, ps, pn);
            }
            if (redundant || tmp.oom)
                continue;
            if (tmp.len + JOIN_TRY_COST > st->join_credit) {
                spent = true;
                break;
            }
            st->join_credit -= tmp.len + JOIN_TRY_COST;
            tries++;
            const fsc_rule *jr;
            int sc = read_score(st, tmp.data, tmp.len, &jr) - (int)(m - k) - unread_joined(st, jr, seam_at, k);
            bool better = sc > best;
            if (sc == best && k == best_k) /* equal reads: the likelier seams win */
                better = seams_plausible(st, from, *s, *n, cand, k, mask) >
                         seams_plausible(st, from, *s, *n, cand, k, best_mask);
            if (jr && jr->action != FSC_ACT_NOISE && better) {
                best = sc;
                best_k = k;
                best_mask = mask;
            }
        }
    }
    if (best_k) {
        fsc_buf_reset(joined);
        fsc_buf_add(joined, *s, *n);
        for (size_t b = 0; b < best_k; b++) {
            if (!(best_mask & (1u << b)))
                fsc_buf_putc(joined, ' ');
            fsc_buf_add(joined, fsc_text_line(st->t, cand[b]), st->t->lines[cand[b]].len);
        }
        if (!joined->oom) {
            *s = joined->data;
            *n = joined->len;
            *joined_to = cand[best_k - 1];
        } else {
            st->oom = true;
        }
    }
    if (!best_k || joined->oom) { /* the line as it was, its pieces unread */
        *s = line;
        *n = line_n;
        pieces_dead(st, tried && !best_k, from);
    }
    fsc_buf_free(&tmp);
    fsc_buf_free(&head);
    return fsc_grammar_match(st->g, *s, *n, st->md);
}

/* Does the report go on right after line i, which is none of fio's: is the next line
 * that is not blank (SUMMARY_GAP lines on at most) a group summary's direction line
 * or the disk stats? Then line i was put among them (a kernel message on a serial
 * console, a pager's "--More--(74%)", a shell's warning on stderr), and the disk
 * stats are still the run's. A heading above another "Run status group" is not. */
enum { SUMMARY_GAP = 3 };
static bool summary_goes_on(nstate *st, size_t i, size_t last)
{
    for (size_t j = i + 1; j <= last && j < st->t->n_lines && j <= i + SUMMARY_GAP; j++) {
        const char *ns = fsc_text_line(st->t, j);
        size_t nn = st->t->lines[j].len;
        if (blank(ns, nn))
            continue;
        const fsc_rule *r = fsc_grammar_match(st->g, ns, nn, st->md);
        return r && (r->action == FSC_ACT_GROUP_DIR || r->action == FSC_ACT_DISK || r->action == FSC_ACT_DISK_HEADER);
    }
    return false;
}

/* Outside a run, only a line with a fio mark is worth joining to the lines after it. */
static bool fio_marked(const char *s, size_t n)
{
    return find_lit(s, n, "(g=") || find_lit(s, n, "(groupid=") || find_lit(s, n, "Run status") ||
           find_lit(s, n, "Disk stats") || find_lit(s, n, ": ios=") || find_lit(s, n, "IOPS=") ||
           find_lit(s, n, "iops=");
}

/* A line that begins as fio's job lines do, "<name>: (" (of "(g=0): rw=..." or
 * "(groupid=0, ..."), cut where the text was wrapped: worth joining to the lines
 * after it outside a run too, where fio_marked wants a whole mark that the cut took
 * ("<name>: (g" above "=0): rw=..."). */
static bool name_led_cut(nstate *st, size_t i, const char *s, size_t n)
{
    size_t a = 0; /* an indented paste wrapped after it was indented: its lines are */
    while (a < n && s[a] == ' ')
        a++;
    return name_led(s + a, n - a) && cut_at_width(st, i);
}

/* ---- the fast path (fastline.c): lines read without a pattern ---- */

/* Inline in its three callers (latency, bandwidth stats, cpu lines): each has its own
 * units, constants for the compiler; a call cost more than the code it saved. */
static inline __attribute__((always_inline)) void fast_kv(const fsc_fastline *fl, void *base, uint64_t unit_ns,
                                                          uint64_t bw_num, uint64_t bw_den)
{
    for (size_t i = 0; i < fl->n; i++) {
        const fsc_kvfield *kv = fl->kvdef[fl->key[i]];
        fsc_fdec d = fl->kv[i];
        fsc_num *v = fsc_field_ptr(base, fl->kvfield[fl->key[i]]);
        switch (kv->kind) {
        case FSC_K_DURATION: fsc_fdec_set(v, d, fsc_fdec_mul(d) * unit_ns, 1); break;
        case FSC_K_BWSTAT: fsc_fdec_set(v, d, bw_num, bw_den); break;
        default: fsc_fdec_set(v, d, 1, 1); break; /* int, plain, pct, a bare time */
        }
    }
}

/* The items of a lexed list in items, when its keys rise, each read as a number
 * (">=N" just above N): then no two are alike, nor cut alike (fsc_kv: 15 bytes; these
 * have at most 15), and a set would find none of them again. Any other key (a
 * leading 0 reads as rising not at all) says no. The keys are copied as they are
 * read (a memcpy call a key cost more than the key). */
static bool rising_items(const fsc_fastline *fl, const char *line, fsc_kv *items)
{
    uint64_t last = 0;
    for (size_t i = 0; i < fl->n; i++) {
        const char *k = line + fl->item_key[i].off;
        size_t kl = fl->item_key[i].len, j = kl > 2 && k[0] == '>' && k[1] == '=' ? 2 : 0;
        if (kl == j || kl - j > 13)
            return false;
        memset(items[i].key, 0, sizeof items[i].key);
        if (j) {
            items[i].key[0] = '>';
            items[i].key[1] = '=';
        }
        uint64_t v = 0;
        for (size_t c = j; c < kl; c++) {
            if (k[c] < '0' || k[c] > '9')
                return false;
            v = v * 10 + (uint64_t)(k[c] - '0');
            items[i].key[c] = k[c];
        }
        v = v * 2 + (j ? 1 : 0) + 1; /* above 0, the start */
        if (v <= last)
            return false;
        last = v;
        items[i].v = fsc_fdec_num(fl->val[i], 1, 1).v;
    }
    return true;
}

/* apply_list for a lexed list: keys are ">=64", "250" (no spaces, short). An empty
 * list of keys that rise is filled at once (fsc_kvlist_set_all): each set looked
 * for its key among those before it, and none is there. */
static void fast_list(nstate *st, const fsc_fastline *fl, const char *line, fsc_kvlist *l)
{
    if (!l->n && !l->index.slots && fl->n < FSC_KEYINDEX_FROM && rising_items(fl, line, st->rising)) {
        if (!fsc_kvlist_set_all(l, st->rising, fl->n))
            st->oom = true;
        return;
    }
    for (size_t i = 0; i < fl->n; i++)
        if (!fsc_kvlist_set_n(l, line + fl->item_key[i].off, fl->item_key[i].len, fsc_fdec_num(fl->val[i], 1, 1).v))
            st->oom = true;
}

/* A depths list (which: 0 level, 1 submit, 2 complete) into l: the kept items when
 * the line is the kept one whose list was built (the same text makes the same items
 * in an empty list), else fast_list, whose result is kept when it was built from
 * nothing (all keys new: no index, FSC_KEYINDEX_FROM). */
static void fast_depths(nstate *st, const fsc_fastline *fl, const char *line, fsc_kvlist *l)
{
    int k = fl->which;
    if (fl->memo_gen && fl->memo_gen == st->built[k].gen && l->n == 0) {
        if (!fsc_kvlist_set_all(l, st->built[k].items, st->built[k].n))
            st->oom = true;
        return;
    }
    bool was_empty = l->n == 0;
    fast_list(st, fl, line, l);
    if (fl->memo_gen && was_empty && l->n == fl->n && l->n < FSC_KEYINDEX_FROM) {
        memcpy(st->built[k].items, l->items, l->n * sizeof *l->items);
        st->built[k].n = l->n;
        st->built[k].gen = fl->memo_gen;
    }
}

/* issued_values for the lexed groups (total, short, dropped). */
static void fast_issued(nstate *st, const fsc_fastline *fl, size_t idx)
{
    static const size_t offs[3] = {offsetof(fsc_dir, total_ios), offsetof(fsc_dir, short_ios),
                                   offsetof(fsc_dir, drop_ios)};
    fsc_job *j = cur_job(st);
    int order[4];
    issued_order(st, j, idx, order);
    for (int g = 0; g < 3; g++) {
        for (size_t k = 0; k < fl->n_issued[g]; k++) {
            fsc_dir *d = &j->dir[order[k]];
            if (order[k] != FSC_DIR_SYNC || offs[g] == offsetof(fsc_dir, total_ios)) {
                fsc_fdec_set((fsc_num *)((char *)d + offs[g]), fl->issued[g][k], 1, 1);
                if (order[k] != FSC_DIR_SYNC || fl->issued[g][k].mant != 0)
                    d->present = true;
            }
        }
    }
}

static char *span_def(nstate *st, const char *line, fsc_fspan sp)
{
    return def_str(st, line + sp.off, sp.len);
}

static char *span_dup(nstate *st, const char *line, fsc_fspan sp)
{
    char *d = fsc_strndup(line + sp.off, sp.len);
    if (!d)
        st->oom = true;
    return d;
}

/* apply_fields for the captures of a lexed span rule. */
static void fast_fields(nstate *st, const fsc_fastline *fl, void *base)
{
    for (size_t i = 0; i < fl->n_caps; i++) {
        const fsc_fastcap *c = &fl->caps[i];
        if (!fl->cap[c->slot].len)
            continue; /* that group did not take part */
        /* the lexer read every value (caps_valid): only a size or rate waits for the era */
        *fsc_field_ptr(base, c->field) = c->kind == FSC_K_SIZE || c->kind == FSC_K_RATE
                                             ? fsc_bytes_value(&fl->capbytes[c->slot], st->units)
                                             : fl->capnum[c->slot];
    }
}

/* The percentile printed as d ("99.90th"), the one at place `at` of its list. fio
 * prints the same percentiles in every list (1.00 to 99.99 by default), and reading
 * one (a division, mostly: two decimals) was half the cost of a row's item: the one
 * read last at each place is kept with its value, and a list that names the same
 * reads them from there. Its value depends on mant and scale alone (the fresh memo's
 * 0 with scale 0 is 0.0, as read). */
static inline __attribute__((always_inline)) double pctl_at(nstate *st, size_t at, fsc_fdec d)
{
    if (at >= FSC_ARRAY_SIZE(st->pct_seen))
        return fsc_fdec_num(d, 1, 1).v;
    if (st->pct_seen[at].mant != d.mant || st->pct_seen[at].scale != d.scale) {
        st->pct_seen[at].mant = d.mant;
        st->pct_seen[at].scale = d.scale;
        st->pct_seen[at].pct = fsc_fdec_num(d, 1, 1).v;
    }
    return st->pct_seen[at].pct;
}

/* The act_* functions of apply() for a lexed line, step for step. */
/* line[0, n): what was lexed (the line idx, or the second of two on it: split_lines) */
static inline __attribute__((always_inline)) void apply_fast(nstate *st, const fsc_fastline *fl, const char *line,
                                                            size_t n, size_t idx)
{
    switch (fl->rule->action) {
    case FSC_ACT_BANNER:
        banner_version(st, line + fl->cap[0].off, fl->cap[0].len, false);
        break;
    case FSC_ACT_STARTING: {
        double v = fsc_fdec_num(fl->num[0], 1, 1).v;
        st->starting = v < 1e15 ? (uint64_t)v : 0;
        st->starting_line = st->t->lines[idx].orig;
        break;
    }
    case FSC_ACT_JOBDEF: {
        defs_uncarry(st);
        jobdef *d = jobdef_new(st, span_def(st, line, fl->cap[0]));
        if (d) {
            d->rw = span_def(st, line, fl->cap[1]);
            d->bs = span_def(st, line, fl->cap[2]);
            d->ioengine = span_def(st, line, fl->cap[3]);
            d->iodepth = span_def(st, line, fl->cap[4]);
            d->bsdesc = span_def(st, line, fl->cap[5]); /* bsdesc_def's text, found by the lexer */
        }
        break;
    }
    case FSC_ACT_JOB: {
        fsc_job *j = header_repeated(st, idx) ? NULL : job_open(st, idx);
        if (!j)
            break;
        j->jobname = span_dup(st, line, fl->cap[0]);
        job_name_glued(st, j, idx);
        grep_header(st, j, idx);
        job_host(st, j, idx);
        fsc_fdec_set(&j->groupid, fl->num[0], 1, 1);
        fsc_fdec_set(&j->jobs, fl->num[1], 1, 1);
        fsc_fdec_set(&j->error, fl->num[2], 1, 1);
        fsc_fdec_set(&j->pid, fl->num[3], 1, 1);
        job_time(st, idx, line, n);
        job_close(st, j);
        break;
    }
    case FSC_ACT_DIR: {
        fsc_dir *dp = dir_open(st, fast_dirs[fl->which], idx, line, n);
        if (dp) {
            fast_fields(st, fl, dp);
            dir_read(st, line, n, idx, fast_dirs[fl->which], dp);
        }
        break;
    }
    case FSC_ACT_PCTL_TITLE:
        if (fl->sync)
            st->dir = FSC_DIR_SYNC;
        if (!cur_dir(st, idx))
            break;
        pctl_open(st, fl->which, -1, fl->unit_ns);
        break;
    case FSC_ACT_GROUP: {
        fsc_group *g = group_open(st, idx);
        if (g)
            fsc_fdec_set(&g->groupid, fl->num[0], 1, 1);
        break;
    }
    case FSC_ACT_GROUP_DIR: {
        fsc_group_dir *gd = group_dir_open(st, fast_dirs[fl->which], idx, line, n);
        if (gd) {
            fast_fields(st, fl, gd);
            group_dir_slips(st, line, n, idx, gd);
        }
        break;
    }
    case FSC_ACT_DISK: {
        fsc_disk *d = disk_open(st, idx);
        if (!d)
            break;
        d->name = span_dup(st, line, fl->cap[0]);
        for (size_t i = 0; i < fl->n; i++) {
            fsc_fdec_set(fsc_field_ptr(d, fl->dkv[i]->field), fl->da[i], 1, 1);
            if (fl->dkv[i]->field2)
                fsc_fdec_set(fsc_field_ptr(d, fl->dkv[i]->field2), fl->db[i], 1, 1);
        }
        disk_members(st);
        break;
    }
    case FSC_ACT_PCTL_ROW: {
        if (st->pctl_kind == PCTL_IGNORED)
            break;
        fsc_job *j = st->pctl_kind >= 0 ? cur_job(st) : NULL;
        if (!j) { /* as act_pctl_row: the block's title is missing or lost */
            if (!st->dropped)
                lost_line(st, idx, "percentile rows without their title line");
            st->dropped = true;
            break;
        }
        fsc_dir *pd = &j->dir[st->pctl_dir];
        fsc_lat *lat = st->pctl_prio >= 0 && (size_t)st->pctl_prio < pd->n_prios ? &pd->prios[st->pctl_prio].lat
                                                                                  : &pd->lat[st->pctl_kind];
        double above = st->pctl_last;
        if (fl->n && pctl_restarts(st, lat, pctl_at(st, lat->n_percentile, fl->pct[0]), idx))
            break;
        for (size_t i = 0; i < fl->n; i++) {
            size_t k = lat->n_percentile;
            double pct = pctl_at(st, k, fl->pct[i]), ns = fsc_fdec_num(fl->val[i], st->pctl_unit_ns, 1).v;
            /* the next of a sorted list with room (nearly every item): no call */
            if (!fsc_lat_add_pctl_next(lat, pct, ns))
                add_pctl(st, lat, pct, ns, idx);
            st->pctl_last = pct;
        }
        pctl_width_check(st, idx, fl->n, above);
        st->pctl_row = idx;
        break;
    }
    case FSC_ACT_LAT: {
        if (fl->sync)
            st->dir = FSC_DIR_SYNC;
        fsc_dir *d = cur_dir(st, idx);
        if (d && !lat_again(st, d, fl->which, idx))
            fast_kv(fl, &d->lat[fl->which], fl->unit_ns, 1, 1);
        break;
    }
    case FSC_ACT_BW_STATS:
    case FSC_ACT_IOPS_STATS: {
        fsc_dir *d = cur_dir(st, idx);
        st->pctl_kind = -1;
        uint64_t num = 1, den = 1;
        if (fl->rule->action == FSC_ACT_BW_STATS)
            bwstat_factor(st, line + fl->unit.off, fl->unit.len, &num, &den);
        if (d && !stats_again(st, d, fl->rule->action == FSC_ACT_BW_STATS, idx))
            fast_kv(fl, d, 1, num, den);
        break;
    }
    case FSC_ACT_BUCKETS:
    case FSC_ACT_DEPTHS: {
        fsc_job *j = need_job(st, idx);
        if (!j)
            break;
        st->pctl_kind = -1;
        if (fl->rule->action == FSC_ACT_BUCKETS)
            fast_list(st, fl, line,
                      &j->latency[fl->unit_ns == 1 ? FSC_BUCKET_NS : fl->unit_ns == 1000 ? FSC_BUCKET_US : FSC_BUCKET_MS]);
        else
            fast_depths(st, fl, line,
                        fl->which == 0 ? &j->iodepth_level : fl->which == 1 ? &j->iodepth_submit : &j->iodepth_complete);
        break;
    }
    case FSC_ACT_CPU:
    case FSC_ACT_JOB_KV: {
        fsc_job *j = need_job(st, idx);
        st->pctl_kind = -1;
        if (j) {
            job_kv_again(st, fl->rule, idx);
            fast_kv(fl, j, 1, 1, 1);
        }
        break;
    }
    case FSC_ACT_ISSUED:
        if (need_job(st, idx) && !(st->issued_line && doubled(st, idx))) {
            fast_issued(st, fl, idx);
            issued_read(st, idx);
        }
        break;
    default:
        break;
    }
}

/* Is one of these eight bytes below 0x20 or above 0x7F? (exact: a borrow only runs
 * on from a byte that is below 0x20 itself) */
static inline bool word_has_control_or_non_ascii(const char *p)
{
    uint64_t w;
    memcpy(&w, p, 8);
    return ((w - 0x2020202020202020ULL) | w) & 0x8080808080808080ULL;
}

/* A control byte or a byte of non-ASCII text in the line? The lexers know ' ' as the
 * only space; the patterns' \s also takes tabs, vertical tabs and the rest
 * (normalize.c keeps some of them). And the patterns match no invalid UTF-8 (PCRE2's
 * MATCH_INVALID_UTF), which a document can hold after quoted-printable decoding
 * ("=96"): such lines too are the grammar's to read. */
static bool has_control_or_non_ascii(const char *s, size_t n)
{
    size_t i = 0;
#if defined(__SSE2__)
    if (n >= 16) { /* sixteen bytes a step, the last step overlapping the one before */
        const __m128i lim = _mm_set1_epi8(0x1f);
        for (;; i += 16) {
            if (i + 16 > n)
                i = n - 16;
            __m128i v = _mm_loadu_si128((const __m128i *)(const void *)(s + i));
            if (_mm_movemask_epi8(_mm_or_si128(_mm_cmpeq_epi8(_mm_min_epu8(v, lim), v), v)))
                return true;
            if (i + 16 == n)
                return false;
        }
    }
#endif
    if (n >= 8) { /* eight bytes a step, the same way */
        for (;; i += 8) {
            if (i + 8 > n)
                i = n - 8;
            if (word_has_control_or_non_ascii(s + i))
                return true;
            if (i + 8 == n)
                return false;
        }
    }
    for (; i < n; i++)
        if ((unsigned char)s[i] < 0x20 || (unsigned char)s[i] > 0x7F)
            return true;
    return false;
}

/* What a depths or latency-target reading holds: the fields before pct (rule, flags,
 * n, key, kv, kvdef, kvfield), then val and item_key. */
static void copy_reading(fsc_fastline *to, const fsc_fastline *from)
{
    memcpy(to, from, offsetof(fsc_fastline, pct));
    if (from->rule->action == FSC_ACT_DEPTHS) {
        memcpy(to->val, from->val, from->n * sizeof from->val[0]);
        memcpy(to->item_key, from->item_key, from->n * sizeof from->item_key[0]);
    }
}

/* Keep the reading of line s (its rule: r) when it is one fio repeats: fl gets the
 * new generation. */
static void memo_keep(nstate *st, const fsc_rule *r, const char *s, size_t n, fsc_fastline *fl)
{
    if (r && (r->action == FSC_ACT_DEPTHS || r->action == FSC_ACT_JOB_KV)) {
        int k = r->action == FSC_ACT_DEPTHS ? fl->which : 3;
        st->memo[k].s = s;
        if (st->memo_n[k] && st->memo_n[k] < sizeof st->memo_lens)
            st->memo_lens[st->memo_n[k]]--;
        st->memo_n[k] = n;
        if (n && n < sizeof st->memo_lens)
            st->memo_lens[n]++;
        fl->memo_gen = st->memo_gen[k] = ++st->gen_next;
        copy_reading(&st->memo[k].fl, fl);
    }
}

/* A line as long as a kept one: its reading when it is the same line, else lexed. */
static const fsc_rule *lex_memo(nstate *st, const char *s, size_t n, fsc_fastline *out)
{
    for (int k = 0; k < 4; k++)
        if (st->memo_n[k] == n && memcmp(st->memo[k].s, s, n) == 0) {
            copy_reading(out, &st->memo[k].fl);
            out->memo_gen = st->memo_gen[k];
            return out->rule;
        }
    const fsc_rule *r = fsc_fast_line(st->fp, s, n, out);
    out->memo_gen = 0;
    memo_keep(st, r, s, n, out);
    return r;
}

/* fsc_fast_line, or the reading of the same line met last (memo): the lexers read
 * nothing but the line's bytes, and spans are offsets into it. Most lines differ
 * in length from the kept ones (memo_lens): one load, and they are lexed. */
static inline const fsc_rule *lex_line(nstate *st, const char *s, size_t n, fsc_fastline *out)
{
    if (n < sizeof st->memo_lens ? st->memo_lens[n]
                                 : n == st->memo_n[0] || n == st->memo_n[1] || n == st->memo_n[2] || n == st->memo_n[3])
        return lex_memo(st, s, n, out);
    const fsc_rule *r = fsc_fast_line(st->fp, s, n, out);
    out->memo_gen = 0;
    if (r && (r->action == FSC_ACT_DEPTHS || r->action == FSC_ACT_JOB_KV))
        memo_keep(st, r, s, n, out);
    return r;
}

/* How a line was read when not as it stands. */
typedef enum read_how { READ_AS_IS, READ_REPAIRED, READ_CUT } read_how;

/* The run's warning of a line read repaired (s, n: as read) or cut short. */
__attribute__((cold, noinline)) static void tell_how(nstate *st, size_t i, read_how how, const char *s, size_t n)
{
    if (how == READ_REPAIRED) {
        st->run->lines.repaired++;
        warn(st, i, "damaged line read as '%.*s'", (int)(n > 60 ? 60 : n), s);
    } else {
        warn(st, i, "line cut short: read up to its last whole value ('%.*s')", (int)(n > 40 ? 40 : n),
             s + (n > 40 ? n - 40 : 0));
    }
}

/* The rule that reads the line s[0, *n) up to its last whole value, where it stops
 * inside its last one (fsc_line_stops_short: *stopped), *n shortened to there and
 * st->read_cut set; NULL when it does not stop short or no rule reads what is left
 * (any: a rule of any action; else not a noise or command line's). */
static const fsc_rule *cut_reading(nstate *st, const char *s, size_t *n, bool any, bool *stopped)
{
    size_t k = fsc_line_stops_short(s, *n);
    *stopped = k < *n;
    const fsc_rule *cut = *stopped ? fsc_grammar_match_cut(st->g, s, k, st->md) : NULL;
    if (cut && !any && (cut->action == FSC_ACT_NOISE || cut->action == FSC_ACT_COMMAND))
        cut = NULL;
    if (cut) {
        *n = k;
        st->read_cut = true;
    }
    return cut;
}

/* A line of values the grammar read (r) that stops inside its last value: it ends
 * neither as fio ends such a line nor in the key fio prints last (a line whose end a
 * paste, an editor or a view lost, inside a text: "    lat (msec) : 2=0.", "  cpu
 * : usr=16.44%, sys=45.21%, ctx=1"). Read as it stands, the cut value would be
 * wrong; the line is read without it (*n, st->read_cut), or not at all when no rule
 * reads what is left. No lexer reads such a line (kv_list, lex_disk), so the fast
 * path asks only the lines it leaves to the grammar. */
__attribute__((noinline, cold)) static const fsc_rule *stops_short(nstate *st, size_t i, const fsc_rule *r,
                                                                    const char *s, size_t *n)
{
    bool stopped;
    const fsc_rule *cut = cut_reading(st, s, n, true, &stopped);
    if (!stopped)
        return r;
    if (!cut && st->run && st->line_warnings < MAX_LINE_WARNINGS) { /* said here, not again as unread */
        st->line_warnings++;
        st->cut_unread = i + 1;
        size_t lead = (size_t)(fsc_skip_spaces(s, s + *n) - s);
        warn(st, i, "line cut short, not read: '%.*s'", (int)(*n - lead > 60 ? 60 : *n - lead), s + lead);
    }
    return cut;
}

/* A line of a run that no rule reads because it was cut inside a key ("  read :
 * io=694653KB, bw=347326KB/s, iops=84796, r" of ", runt=  2000msec"): read up to its
 * last whole value when a rule reads that (st->read_cut), else left unknown, as it
 * was. */
static const fsc_rule *unknown_stops_short(nstate *st, const char *s, size_t *n)
{
    bool stopped;
    return memchr(s, '=', *n) ? cut_reading(st, s, n, false, &stopped) : NULL;
}

/* join_wrapped, then stops_short for a line of values it left as it was (as_is: not
 * one repaired, or cut where cutline.c saw the text's width). A line read cut short
 * is st->read_cut. */
static __attribute__((noinline)) const fsc_rule *join_or_cut(nstate *st, size_t i, size_t last, const fsc_rule *r,
                                                             const char **s, size_t *n, fsc_buf *joined,
                                                             size_t *joined_to, bool as_is)
{
    st->read_cut = false;
    r = join_wrapped(st, i, last, r, s, n, joined, joined_to);
    if (*joined_to != i || !as_is || (st->t->lines[i].flags & FSC_LINE_CUT))
        return r;
    if (r && r->values)
        r = stops_short(st, i, r, *s, n);
    else if (!r && st->run)
        r = unknown_stops_short(st, *s, n);
    return r;
}

/* Lex line i with the fast path, reusing the look-ahead of the line before. */
static const fsc_rule *fast_lex(nstate *st, size_t i, const char *s, size_t n, fsc_fastline **out)
{
    if (st->la_idx == i + 1) { /* lexed ahead (la_idx holds index + 1) */
        fsc_fastline *t = st->fl;
        st->fl = st->la;
        st->la = t;
        st->la_idx = 0;
        *out = st->fl;
        return st->fl->rule;
    }
    *out = st->fl;
    return lex_line(st, s, n, st->fl);
}

/* Can the line after i be joined to it (join_wrapped)? Only when it is not a line of
 * its own: not lexed (a lexed line surely is one), not blank, and no rule's lead or
 * needle fits it (the test join_wrapped makes of its candidates). The next line's
 * lexing is kept for the next round. */
static bool may_join(nstate *st, size_t i)
{
    const fsc_text *t = st->t;
    size_t j = i + 1;
    if (j >= st->lines_end || (t->lines[j].flags & FSC_LINE_CONSUMED))
        return false;
    const char *ns = fsc_text_line(t, j);
    size_t nn = t->lines[j].len;
    const fsc_rule *nr = !t->plain && has_control_or_non_ascii(ns, nn) ? NULL : lex_line(st, ns, nn, st->la);
    st->la->rule = nr;
    st->la_idx = j + 1;
    if (nr && !st->la->direct)
        return false;
    if (blank(ns, nn))
        return false;
    if (!fsc_grammar_could_match(st->g, ns, nn))
        return true;
    /* a line that begins with a rule's lead but that no rule reads, below a line that
     * ends at a separator: wrap_candidates weighs it as a rest (rest_after_separator) */
    fsc_buf fixed = {0};
    bool md_used = false, rest = rest_after_separator(st, i, j, &fixed, &md_used);
    if (fixed.oom)
        st->oom = true;
    fsc_buf_free(&fixed);
    return rest;
}

/* The fast path's verdict on line i: the rule it matches, with *fast set when its
 * values were read by the lexer (the caller applies them with apply_fast), or with
 * st->md holding the captures of the one rule that can match it (direct). NULL: the
 * grammar decides, joins and repairs as usual. */
static const fsc_rule *fast_match(nstate *st, size_t i, const char *s, size_t n, bool *fast)
{
    fsc_fastline *fl;
    /* a line lexed ahead was looked at by may_join already */
    if (st->la_idx != i + 1 && !st->t->plain && has_control_or_non_ascii(s, n))
        return NULL;
    const fsc_rule *r = fast_lex(st, i, s, n, &fl);
    if (!r)
        return NULL;
    if (fl->direct)
        return fsc_rule_match(r, s, n, st->md) ? r : NULL;
    /* a lexed line that a wrap could continue: the grammar path joins (it never
     * joins noise) */
    if (r->action != FSC_ACT_NOISE && may_join(st, i))
        return NULL;
    *fast = true;
    return r;
}

/* Where a second job or disk line begins in s[0, n) whose name was glued to the
 * line's last value, so that it cannot be told from it ("iodepth=1seqwrite: (g=1):
 * rw=write, ...": split_lines leaves it): at the first byte after the '=' before it;
 * n if none. */
static size_t glued_named_line(const char *s, size_t n)
{
    static const char *const heads[] = {": (g=", ": (groupid=", ": ios="};
    const char *own = NULL, *second = NULL;
    for (size_t k = 0; k < 3; k++) {
        const char *a = find_lit(s, n, heads[k]);
        if (a && (!own || a < own))
            own = a;
    }
    if (!own)
        return n;
    size_t from = (size_t)(own - s) + 1;
    for (size_t k = 0; k < 3; k++) {
        const char *b = find_lit(s + from, n - from, heads[k]);
        if (b && (!second || b < second))
            second = b;
    }
    if (!second)
        return n;
    const char *q = second;
    while (q > own && fsc_name_byte(q[-1]))
        q--;
    return q > own && q < second ? (size_t)(q - s) : n;
}

/* A line the grammar read (no lexer takes a line with more after it) that holds a
 * second of fio's lines after its own keyword's label: a line break lost ("   read:
 * IOPS=59.5k, ...(465MiB/2001msec)    clat (usec): min=0, ...", a percentile row with
 * the bw line after it, "READ: ..." with "WRITE: ...", a priority's percentile title
 * with its first row, "Disk stats (read/write):" with the disk line). The rule read
 * its own part; the rest is not read, and the warning says so (before, silently). */
__attribute__((noinline)) static void second_line(nstate *st, size_t idx, const char *s, size_t n)
{
    size_t lead = 0;
    while (lead < n && s[lead] == ' ')
        lead++;
    long k = fsc_fio_keyword_at(s, n);
    size_t from = 0, at = n;
    if (k > (long)lead && s[k] == '|') /* a row after a title: itself the second line ("3 - READ:" */
        at = (size_t)k;                /* is a numbered summary line, its number no line of its own) */
    else {
        if (k >= 0) {
            const char *c = s[k] == '|' ? s + k : memchr(s + k, ':', n - (size_t)k);
            if (!c)
                return;
            from = (size_t)(c + 1 - s);
        }
        long k2 = fsc_fio_keyword_at(s + from, n - from);
        const char *disk = k == (long)lead ? memmem(s + from, n - from, ": ios=", 6) : NULL;
        if (k2 >= 0)
            at = from + (size_t)k2;
        if (disk && (size_t)(disk - s) < at) { /* a disk line's name is no keyword */
            size_t name = (size_t)(disk - s);
            while (name > from && s[name - 1] != ' ')
                name--;
            /* a name of a name's bytes ("(1MB/s-x: ios=)" inside a value is none: the
             * lexer reads such a line whole, and so must this) */
            bool named = name < (size_t)(disk - s);
            for (size_t k3 = name; k3 < (size_t)(disk - s) && named; k3++)
                named = fsc_name_byte(s[k3]);
            if (named)
                at = name;
        }
    }
    if (at >= n)
        at = glued_named_line(s, n);
    if (at >= n || fsc_inside_parens(s, at))
        return; /* "(1MB/s-x|.th=[)": a value's bytes, that the lexer reads whole too */
    size_t show = n - at;
    if (show > 60) /* whole characters of UTF-8 */
        for (show = 60; show && ((unsigned char)s[at + show] & 0xC0) == 0x80;)
            show--;
    st->run->lines.malformed++;
    warn(st, idx, "two lines on one (a line break lost?): '%.*s' after it is not read", (int)show, s + at);
}

/* How far split_lines looks: lines up to SPLIT_MAX_LEN bytes (a few of fio's lines:
 * a longer one is a flattened paste, normalize.c's) and the first SPLIT_TRIES places
 * where another line may begin, each asked two or three rule matches: a hostile line
 * costs a few passes over at most SPLIT_MAX_LEN bytes. */
enum { SPLIT_TRIES = 2, SPLIT_MAX_LEN = 1024 };

/* Where the line at s[a] that fsc_fio_line_within found begins: at a, but for a job
 * line whose name is glued to a value's digits ("depth=1full1: (groupid="), at the one
 * place from the name's first letter back to the digit after the value's first whose
 * text up to the colon names a job defined ("full1"; "iodepth=164k-read: (groupid=":
 * "4k-read"). SIZE_MAX when none or more than one does: which digits are the value's
 * the text cannot tell, and no line is split there. fio's own "All clients" is no
 * name so glued: no job defines it. */
static size_t line_begins_at(nstate *st, const char *s, size_t len, size_t a)
{
    size_t b = a, found = SIZE_MAX;
    while (b > 0 && isdigit((unsigned char)s[b - 1]))
        b--;
    const char *colon = memchr(s + a, ':', len - a);
    if (b == a || b == 0 || s[b - 1] != '=' || !colon || (size_t)(s + len - colon) < 11 ||
        memcmp(colon, ": (groupid=", 11) || (len - a >= 12 && !memcmp(s + a, "All clients:", 12)))
        return a;
    for (size_t d = b + 1; d <= a && st->n_defs; d++) {
        char name[256];
        size_t n = (size_t)(colon - (s + d));
        if (n >= sizeof name)
            continue;
        memcpy(name, s + d, n);
        name[n] = '\0';
        if (def_find(st, name) < st->n_defs) {
            if (found != SIZE_MAX)
                return SIZE_MAX;
            found = d;
        }
    }
    return found;
}

/* Where the first of fio's lines in s[0, len) ends (*end) and the next begins (*at),
 * the first read by a rule (returned, its captures in st->md); NULL when none splits
 * so. The rules are asked with st->md_try, so that st->md keeps the captures of the
 * whole line until a split is taken. The next must be a line a rule reads up to where
 * a third may begin ("...stdev=3020.87clat percentiles (usec):|  1.00th=[  225],
 * ..."), or to the end: a place inside one of fio's lines where another would seem to
 * begin (a description's text) makes no split. */
static const fsc_rule *first_of_lines(nstate *st, const char *s, size_t len, size_t *end, size_t *at)
{
    size_t lead = 0;
    while (lead < len && s[lead] == ' ')
        lead++;
    long p = lead + 1 < len ? fsc_fio_line_within(s, len, lead + 1) : -1;
    if (p >= 0 && !st->md_try && !(st->md_try = fsc_grammar_match_data(st->g))) {
        st->oom = true;
        return NULL;
    }
    for (int tries = 0; p >= 0 && tries < SPLIT_TRIES; tries++) {
        size_t a = (size_t)p, e = a;
        long next = a + 1 < len ? fsc_fio_line_within(s, len, a + 1) : -1;
        if ((a = e = line_begins_at(st, s, len, a)) == SIZE_MAX) {
            p = next; /* a name glued to digits, no job defined so: not split there */
            continue;
        }
        while (e > lead && s[e - 1] == ' ')
            e--;
        /* the first part (short) before the next */
        const fsc_rule *r1 = e > lead ? fsc_grammar_match(st->g, s, e, st->md_try) : NULL, *r2 = NULL;
        if (r1 && !r1->catch_all) {
            size_t e2 = next < 0 ? len : (size_t)next;
            while (e2 > a && s[e2 - 1] == ' ')
                e2--;
            r2 = fsc_grammar_could_match(st->g, s + a, e2 - a) ? fsc_grammar_match(st->g, s + a, e2 - a, st->md_try)
                                                               : NULL;
        }
        if (r2 && !r2->catch_all) {
            *end = e;
            *at = a;
            return fsc_grammar_match(st->g, s, e, st->md); /* its captures, for apply */
        }
        p = next;
    }
    return NULL;
}

/* The line after line i, or line i again from where split_lines found its next piece
 * (*piece: the offset to read from). */
static inline size_t next_piece(nstate *st, size_t i, size_t *piece)
{
    *piece = st->piece_at;
    if (__builtin_expect(*piece != 0, 0)) {
        st->piece_at = 0;
        return i;
    }
    return i + 1;
}

/* A line the grammar read that holds a second of fio's lines, a line break lost
 * between them, with a space or none ("...runt=  2001msecclat (usec): min=1, ...",
 * "Disk stats (read/write):vda: ios=...", "...: pid=7926: Mon Nov 30 02:50:27 2026read
 * : io=...", "...maxt=2001msecWRITE: io=..."): when the text before the second line's
 * keyword is a line a rule reads and the text from it is one too, the line is read as
 * two, its first part now (*n shortened, its rule returned, st->md holding its
 * captures) and the rest as the next line (st->piece_at, next_piece). NULL: it is one
 * line, and st->md is as the line's own match left it.
 * Lines the fast path lexed are never asked, and no lexer takes a line with more
 * after it: both paths read the same. */
static const fsc_rule *split_lines(nstate *st, size_t i, const char *s, size_t *n)
{
    size_t e, at;
    const fsc_rule *r1 = *n <= SPLIT_MAX_LEN ? first_of_lines(st, s, *n, &e, &at) : NULL;
    if (r1) {
        st->piece_at = (size_t)(s + at - fsc_text_line(st->t, i));
        *n = e;
    }
    return r1;
}

fsc_status fsc_normal_parse(const fsc_grammar_set *g, const fsc_text *t, size_t first, size_t last,
                            fsc_emit_fn emit, void *ctx, fsc_buf *notes)
{
    return fsc_normal_parse_fast(g, NULL, t, first, last, false, emit, ctx, notes);
}

/* A text that stops inside a run's report with no newline after its last line (one
 * the run read whole: one read cut says so itself; or one of fio's that no rule reads
 * right below the run's lines, "  cpu       ", "Run status ", "Disk stats (re") was
 * cut off there: said. */
__attribute__((noinline, cold)) static void cut_off(nstate *st, size_t first)
{
    const fsc_text *t = st->t;
    size_t np = st->n_pending_unknown, end = t->n_lines;
    while (end > first && blank_fast(fsc_text_line(t, end - 1), t->lines[end - 1].len))
        end--; /* the spaces a copy ends in */
    size_t at = np ? st->pending_unknown[np - 1] : 0;
    /* a line of fio's, cut: not a sentence under an excerpt */
    bool tail = np && np <= 2 && at + 1 == end &&
                ((t->lines[at].flags & FSC_LINE_CUT) || fsc_fio_line_head(fsc_text_line(t, at), t->lines[at].len));
    if (st->has_results && ((st->last + 1 == end && st->report_end == REPORT_ON && !t->open_end_cut) ||
                            (tail && st->report_end != REPORT_OVER)))
        warn(st, tail ? st->pending_unknown[np - 1] : st->last,
             "the text ends inside the run, with no newline after this line: the lines after it are not in the "
             "text (a log cut off?)");
}

/* Line i, which no rule reads, is the text right under a run's report, which is over:
 * one that begins as fio's own there (a group or disk line cut short: "  WRITE:
 * io=16384KB, aggrb=3723", "Disk stats (re" where the text stops) is the run's,
 * unread (tail_unread, cut_off). */
__attribute__((noinline, cold)) static void summary_tail(nstate *st, size_t i, size_t first, bool more)
{
    if (st->n_pending_unknown || (st->last + 1 != i && !blank_between(st, st->last, i)))
        return;
    pend_unknown(st, i);
    if (st->t->open_end && !more)
        cut_off(st, first);
}

/* What the line loop does with a line a rule read, before applying it. */
typedef enum line_go { LINE_APPLY, LINE_SKIP, LINE_STOP } line_go;

/* The run line i (its rule: r) belongs to: a command or a line that begins another run
 * closes the one before, a run is begun for it (LINE_STOP: no memory), and the unknown
 * lines before it are told as the run's; LINE_SKIP: it is no run's line. The line
 * loop's two ways (lexed, and read by the grammar) inline it each. */
static inline __attribute__((always_inline)) line_go take_line(nstate *st, const fsc_rule *r, const char *s,
                                                                 size_t n, size_t i, const fsc_fastline *fl)
{
    if (r->action == FSC_ACT_COMMAND) {
        /* a new fio command: whatever ran before it is complete */
        if (st->run && st->has_results)
            close_run(st, false);
        return LINE_SKIP;
    }
    if (st->run && st->unknown_since_last >= PROSE_GAP)
        st->n_pending_unknown = 0; /* prose between a preamble and this line */
    if (starts_new_run(st, r, s, n, i, fl))
        close_run(st, true);
    if (!st->run && (r->action == FSC_ACT_NOISE || r->action == FSC_ACT_IDLE))
        return LINE_SKIP; /* noise alone does not start a run, nor idleness (fio --idle-prof=calibrate) */
    if (!st->run && r->action == FSC_ACT_FIO_MESSAGE) {
        note_message(st, r, s, i);
        return LINE_SKIP;
    }
    if (!ensure_run(st, i))
        return LINE_STOP;
    if (st->unknown_since_last >= PROSE_GAP && !st->has_results) {
        /* a long gap after a mere preamble: keep the preamble's facts, restart the span */
        st->first = i;
    }
    flush_unknown(st);
    st->unknown_since_last = 0;
    return LINE_APPLY;
}

fsc_status fsc_normal_parse_fast(const fsc_grammar_set *g, const fsc_fastpath *fp, const fsc_text *t,
                                 size_t first, size_t last, bool more, fsc_emit_fn emit, void *ctx,
                                 fsc_buf *notes)
{
    nstate st;
    memset(&st, 0, sizeof st);
    st.fp = fp;
    st.fl = &st.fl_buf[0];
    st.la = &st.fl_buf[1];
    st.g = g;
    st.t = t;
    st.emit = emit;
    st.ctx = ctx;
    st.notes = notes;
    st.md = fsc_grammar_match_data(g);
    st.lines_end = last < t->n_lines ? last + 1 : t->n_lines;
    if (!st.md)
        return FSC_E_NOMEM;
    reset_run_state(&st);
    st.join_credit = JOIN_CREDIT_MAX;
    st.credited_to = first;
    fsc_buf fixed = {0}, joined = {0};
    /* a line read as two (split_lines) is read again from where its second begins */
    size_t piece = 0;
    for (size_t i = first; i < st.lines_end && !st.stopped && !st.oom; i = next_piece(&st, i, &piece)) {
        const char *s = fsc_text_line(t, i) + piece;
        size_t n = t->lines[i].len - piece;
        uint16_t lflags = t->lines[i].flags;
        if (lflags & FSC_LINE_CONSUMED) {
            /* a document of fio's JSON or terse (the first pass's) under a report: the
             * report is over, and a message under the document is not its run's */
            if (st.run && st.has_results)
                close_run(&st, false);
            st.last_consumed = i + 1;
            continue;
        }
        /* a line lexed ahead with a rule is no blank one (no lexer takes one) */
        if (!(st.la_idx == i + 1 && st.la->rule) && blank_fast(s, n))
            continue;
        bool fast = false;
        const fsc_rule *r = st.fp ? fast_match(&st, i, s, n, &fast) : NULL;
        if (fast) {
            /* a lexed line is read as it stands, and alone: fast_match saw that the
             * next line does not continue it (none of the repairs, joins and splits
             * below is asked of it) */
            const fsc_fastline *fl = st.fl;
            if (!fl) /* never: the compiler, told so, drops take_line's tests for a line without one */
                __builtin_unreachable();
            line_go go = take_line(&st, r, s, n, i, fl);
            if (go == LINE_STOP)
                break;
            if (go == LINE_SKIP)
                continue;
            if (fl->plain)
                apply(&st, r, s, n, i);
            else
                apply_lexed(&st, fl, s, n, i);
            st.report_end = report_after[r->action];
            st.last = i;
            continue;
        }
        if (!r) /* a line cut short may lack the tail a rule's whole line has */
            r = lflags & FSC_LINE_CUT ? fsc_grammar_match_cut(g, s, n, st.md) : fsc_grammar_match(g, s, n, st.md);
        read_how how = READ_AS_IS; /* one test below for the lines read as they are */
        const fsc_rule *r1;
        bool split = false;
        /* (a job's description read whole is fio's line, whatever its text holds) */
        if ((r ? !r->catch_all && r->action != FSC_ACT_DESCRIPTION : st.run != NULL) &&
            (r1 = split_lines(&st, i, s, &n))) {
            r = r1;
            split = true;
        }
        size_t mk;
        if (!r && (mk = fsc_cut_marker_len(s, n, true))) {
            /* "ioengine=psync, i...": a view's ellipsis in ASCII (cutline.c takes a
             * "…" off before) */
            size_t k = fsc_cut_value_end(s, n - mk);
            if ((r = fsc_grammar_match_cut(g, s, k, st.md))) {
                n = k;
                how = READ_CUT;
            }
        }
        if (!r && (st.run || memchr(s, '=', n)) && (memchr(s, '=', n) || memchr(s, ':', n))) {
            r = fsc_grammar_match_fuzzy(g, s, n, st.md, &fixed);
            if (r) {
                how = READ_REPAIRED;
                s = fixed.data;
                n = fixed.len;
            }
        }
        size_t joined_to = i;
        if (split)
            ; /* the next piece of the line is its continuation, not the line below */
        else if ((r && ((r->action != FSC_ACT_NOISE && r->action != FSC_ACT_COMMAND) || r->catch_all)) ||
                 (!r && (st.run || fio_marked(s, n) || head_piece(&st, i) || name_led_cut(&st, i, s, n)))) {
            r = join_or_cut(&st, i, last, r, &s, &n, &joined, &joined_to, how == READ_AS_IS);
            if (st.read_cut)
                how = READ_CUT;
        }
        if (!r) {
            if (st.run && st.has_results &&
                (st.report_end == REPORT_OVER ||
                 (st.report_end == REPORT_SUMMED && has_word(s, n) && !summary_goes_on(&st, i, last)))) {
                /* text right under the disk stats, or words under the group summaries
                 * of a run without them: fio's report is over, and what follows (a
                 * fio message, another summary under a heading) is not the run's. Not
                 * a line without words between the summaries and the disk stats (a
                 * blank line's time stamp, "[ 2382.149017] "); but see summary_tail */
                summary_tail(&st, i, first, more);
                close_run(&st, false);
                continue;
            }
            if (st.run) {
                st.unknown_since_last++;
                pend_unknown(&st, i);
                unread_line(&st, i);
                if (st.unknown_since_last >= PROSE_GAP && st.has_results) {
                    st.n_pending_unknown = 0;
                    close_run(&st, false);
                }
            }
            continue;
        }
        line_go go = take_line(&st, r, s, n, i, NULL);
        if (go == LINE_STOP)
            break;
        if (go == LINE_SKIP)
            continue;
        if (how != READ_AS_IS)
            tell_how(&st, i, how, s, n);
        if (split) {
            st.run->lines.repaired++;
            const char *second = fsc_text_line(t, i) + st.piece_at;
            size_t show = t->lines[i].len - st.piece_at;
            if (show > 24) /* whole characters of UTF-8 */
                for (show = 24; show && ((unsigned char)second[show] & 0xC0) == 0x80;)
                    show--;
            warn(&st, i, "two lines on one (a line break lost): read as two, the second from '%.*s'", (int)show,
                 second);
        }
        apply(&st, r, s, n, i);
        if (how == READ_AS_IS && joined_to == i && !split)
            second_line(&st, i, s, n);
        st.report_end = report_after[r->action];
        if (joined_to > i) {
            st.run->lines.repaired++;
            st.run->lines.recognized += (uint32_t)(joined_to - i);
            i = joined_to; /* the continuation lines were read with this one */
        }
        st.last = i;
        /* pasted client/server output and others may interleave; nothing else to do */
    }
    if (!st.stopped && !st.oom) {
        if (st.run && t->open_end && !more)
            cut_off(&st, first);
        close_run(&st, more);
    }
    else if (st.run) {
        fsc_run_free(st.run);
        st.run = NULL;
    }
    /* what came after the last run is told by it; with no run, by the notes; in a
     * piece with more of the file after it, by the notes too: the run below, in a
     * later piece, tells them, as it would in the whole text (parse.c, pipe.c) */
    if (st.held && !(more && notes))
        give_carried(&st, st.held, st.n_carry);
    for (size_t k = 0; k < st.n_carry; k++) {
        if (notes) {
            fsc_notes_line(notes, st.carry[k].line);
            fsc_buf_puts(notes, st.carry[k].msg);
        }
        free(st.carry[k].msg);
    }
    st.n_carry = 0;
    hold_run(&st, NULL, 0, 0);
    free(st.carry);
    free(st.pending_unknown);
    fsc_keyindex_free(&st.name_ix);
    defs_drop(&st, true);
    free(st.defs);
    free(st.noted);
    free(st.spaced);
    free(st.verdicts);
    fsc_buf_free(&fixed);
    fsc_buf_free(&joined);
    pcre2_match_data_free(st.md);
    pcre2_match_data_free(st.md_try);
    return st.oom ? FSC_E_NOMEM : FSC_OK;
}
