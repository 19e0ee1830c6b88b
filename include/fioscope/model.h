/* SPDX-License-Identifier: MIT */
/*
 * The run model: one tree shared by every reader (normal text, JSON, terse, engine)
 * and every writer (JSON, tables, reports). Field names are fio's own JSON names so
 * that the JSON writer is a plain walk over the descriptor tables below.
 *
 * Ownership: an fsc_run owns every pointer inside it (strings and arrays are heap
 * blocks); fsc_run_free() releases the whole tree. An fsc_runset owns its runs.
 */
#ifndef FIOSCOPE_MODEL_H
#define FIOSCOPE_MODEL_H

#include "fioscope/common.h"
#include "fioscope/keyindex.h"
#include "fioscope/logseries.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Directions, in fio's JSON order. SYNC is fio's "sync" object (fsync latencies);
 * MIXED is unified_rw_reporting's "mixed". */
typedef enum fsc_ddir {
    FSC_DIR_READ,
    FSC_DIR_WRITE,
    FSC_DIR_TRIM,
    FSC_DIR_SYNC,
    FSC_DIR_MIXED,
    FSC_DIR_COUNT
} fsc_ddir;

/* "read", "write", "trim", "sync", "mixed". */
const char *fsc_ddir_name(fsc_ddir d);
/* Inverse of fsc_ddir_name (case-insensitive, accepts the first n bytes); -1 if unknown. */
int fsc_ddir_from_name(const char *s, size_t n);

/* Which latency of a direction. */
typedef enum fsc_latkind { FSC_LAT_SLAT, FSC_LAT_CLAT, FSC_LAT_LAT, FSC_LAT_COUNT } fsc_latkind;
/* "slat_ns", "clat_ns", "lat_ns". */
const char *fsc_latkind_name(fsc_latkind k);

/* One percentile: pct is the percentile (99.0), ns its latency. */
typedef struct fsc_pctl {
    double pct;
    double ns;
} fsc_pctl;

/* One json+ histogram bin: latency (ns) and how many I/Os fell there. */
typedef struct fsc_bin {
    double ns;
    double count;
} fsc_bin;

/* slat_ns / clat_ns / lat_ns. */
typedef struct fsc_lat {
    fsc_num min, max, mean, stddev, N; /* ns; N = sample count (fio 3.18+ JSON) */
    fsc_pctl *percentile;              /* ascending by pct (see fsc_lat_add_pctl) */
    size_t n_percentile, cap_percentile;
    bool pctl_unsorted; /* a percentile was added out of order; fsc_run_finish sorts */
    fsc_bin *bins; /* json+ only */
    size_t n_bins, cap_bins;
} fsc_lat;

/* The completion (or total) latency of the I/Os of one priority, which fio prints
 * beside the direction's own when a job's I/Os had several (cmdprio_percentage, or
 * jobs of other prio/prioclass summed by group_reporting). fio 3.18-3.29 split them
 * into high and low: "high prio_clat (usec): ...", "high prio (29.68%) clat
 * percentiles", JSON "clat_high_prio"/"clat_low_prio" (lat_* with lat_percentiles=1).
 * fio 3.30+ names the class and level ("clat prio 1/0"), 3.36+ the hint too
 * ("clat prio 1/0/0"): JSON "prios": [{"prioclass", "prio", ["priohint",] "clat_ns"}]. */
typedef struct fsc_prio {
    int16_t high;      /* 3.18-3.29: 1 high, 0 low; -1: an entry of "prios" */
    int16_t prioclass; /* "prios": the class, level and hint; -1 where not printed */
    int16_t prio;
    int16_t priohint;
    fsc_latkind kind; /* FSC_LAT_CLAT, or FSC_LAT_LAT (lat_percentiles=1) */
    fsc_lat lat;      /* min max mean stddev N, percentiles (N from JSON only) */
} fsc_prio;

/* "read" / "write" / "trim" / "sync" / "mixed". */
typedef struct fsc_dir {
    bool present; /* the input showed this direction at all */
    fsc_num io_bytes;  /* bytes */
    fsc_num bw_bytes;  /* bytes/s */
    fsc_num bw;        /* KiB/s */
    fsc_num iops;
    fsc_num runtime; /* ms */
    fsc_num total_ios, short_ios, drop_ios;
    fsc_num bw_min, bw_max; /* KiB/s */
    fsc_num bw_agg;         /* % of the group */
    fsc_num bw_mean, bw_dev; /* KiB/s */
    fsc_num bw_samples;
    fsc_num iops_min, iops_max, iops_mean, iops_stddev, iops_samples;
    fsc_num zone_resets;
    fsc_num cachehit; /* % (3.13+ "; Cachehit=") */
    fsc_lat lat[FSC_LAT_COUNT];
    fsc_prio *prios; /* in the order read; owned (fsc_dir_prio adds) */
    size_t n_prios, cap_prios;
} fsc_dir;

/* The entry of d's prios with these keys (high, or class/level/hint, as in fsc_prio;
 * -1 for those not printed) and this kind, added empty if there is none. NULL when
 * memory runs out or d already holds FSC_PRIOS_MAX entries (a hostile document). */
enum { FSC_PRIOS_MAX = 64 };
fsc_prio *fsc_dir_prio(fsc_dir *d, int high, int prioclass, int prio, int priohint, fsc_latkind kind);
/* fio 3.18-3.29's JSON names of the high and low priority's latency: "clat_high_prio",
 * "clat_low_prio", "lat_high_prio", "lat_low_prio" (kind FSC_LAT_CLAT or FSC_LAT_LAT). */
const char *fsc_prio_highlow_name(int high, fsc_latkind kind);
/* The inverse for the name s[0, n): 1 (high) or 0 (low) and *kind; -1 if it is none. */
int fsc_prio_highlow_from(const char *s, size_t n, fsc_latkind *kind);

/* A small ordered map from a short key ("4", ">=64", "99.000000") to a number. */
typedef struct fsc_kv {
    char key[16];
    double v;
} fsc_kv;

typedef struct fsc_kvlist {
    fsc_kv *items; /* print order */
    size_t n, cap;
    fsc_keyindex index;
} fsc_kvlist;

/* Set key to v (replacing an existing key, which keeps its place; a key is cut to 15
 * bytes). Returns false on allocation failure. Constant time on average. */
bool fsc_kvlist_set(fsc_kvlist *l, const char *key, double v);
/* The same with the key's length given (key need not be terminated). */
bool fsc_kvlist_set_n(fsc_kvlist *l, const char *key, size_t kl, double v);
/* Fill the empty list l with items[0, n): keys distinct and NUL-padded (as the set
 * functions leave them), n < FSC_KEYINDEX_FROM. Returns false on allocation failure. */
bool fsc_kvlist_set_all(fsc_kvlist *l, const fsc_kv *items, size_t n);
const fsc_kv *fsc_kvlist_get(const fsc_kvlist *l, const char *key);
/* Free the items and the index; the list is empty afterwards. */
void fsc_kvlist_free(fsc_kvlist *l);

/* A string option ("job options" in fio's JSON). key owns one block "key\0value\0"
 * (val points into it), made by fsc_job_set_option or fsc_run_set_global_option: set
 * options only through them, as fsc_run_free frees those blocks or keeps them for
 * reuse by their size. */
typedef struct fsc_opt {
    char *key;
    char *val;
} fsc_opt;

/* fio's "steadystate" object (--ss), from fio's JSON or from the normal text's
 * "steadystate  : attained=yes, bw=..., iops=..., iops mean dev=0.782%" line (which
 * shows attained, the means and the criterion, but not the limit). */
typedef struct fsc_steady {
    bool present;
    char *ss;           /* "iops:20.000000%" as fio's JSON writes it, or NULL */
    char *criterion;    /* "0.782345%" (JSON) or "0.782%" (text): as printed */
    fsc_num duration;   /* s (ss_dur) */
    fsc_num ramptime;   /* s: "steadystate_ramptime", where an output has it */
    fsc_num attained;   /* 1 or 0 */
    fsc_num max_deviation, slope;
    fsc_num bw_mean;    /* data.bw_mean: bytes/s */
    fsc_num iops_mean;  /* data.iops_mean */
    fsc_num lat_mean;   /* data.lat_mean: ns (fio 3.42+, a criterion on latency) */
    double *bw, *iops;  /* data.bw (bytes/s) and data.iops, one per second of the window */
    double *lat;        /* data.lat_ns (fio 3.42+, a criterion on latency) */
    size_t n_bw, n_iops, n_lat;
    /* what the criterion measures (iops, lat, else bw), from "ss" or the text line
     * (known: set) */
    bool kind_known, on_iops, on_lat, slope_crit, pct;
} fsc_steady;

/* A job's stability over time, from its log files: statistics of the values of its
 * series on a regular grid. Filled by the analysis stage (fsc_ts_annotate in
 * fioscope/timeseries.h) for tables; not part of the JSON. */
typedef struct fsc_tsstats {
    size_t n; /* intervals with a value; 0: no series */
    double mean, stddev, cv, min, max, p5, p50, p95, p99, slope; /* cv in %; slope: units/s */
} fsc_tsstats;

typedef enum fsc_bucket_unit { FSC_BUCKET_NS, FSC_BUCKET_US, FSC_BUCKET_MS, FSC_BUCKET_COUNT } fsc_bucket_unit;

typedef struct fsc_job {
    char *jobname;
    char *hostname;    /* client/server runs; NULL otherwise */
    char *description; /* "Description  : [...]" */
    fsc_num groupid, error, pid, jobs;
    char *error_text; /* "file:filesetup.c:227, func=write, error=Invalid argument" */
    fsc_opt *options;  /* "job options": rw, bs, ioengine, iodepth, ... (print order) */
    size_t n_options, cap_options;
    fsc_keyindex option_index;
    fsc_dir dir[FSC_DIR_COUNT];
    fsc_num usr_cpu, sys_cpu, ctx, majf, minf; /* % % count count count */
    fsc_kvlist iodepth_level, iodepth_submit, iodepth_complete; /* % */
    fsc_kvlist latency[FSC_BUCKET_COUNT]; /* latency_ns, latency_us, latency_ms: % */
    fsc_num latency_depth, latency_target, latency_percentile, latency_window;
    fsc_num total_err, first_error; /* continue_on_error: the errors let pass, the first one's errno */
    fsc_num job_runtime; /* ms, JSON only */
    fsc_steady steadystate;
    fsc_tsstats *ts; /* [FSC_LOG_SLAT + 1]: bw, iops, lat, clat, slat; NULL without series */
    uint32_t first_line, last_line; /* lines of its block in the source (0: unknown) */
} fsc_job;

/* A direction of a "Run status group" summary. */
typedef struct fsc_group_dir {
    bool present;
    fsc_num bw_bytes, bw_min_bytes, bw_max_bytes; /* bytes/s */
    fsc_num io_bytes;                             /* bytes */
    fsc_num runtime_min, runtime_max;             /* ms */
} fsc_group_dir;

typedef struct fsc_group {
    fsc_num groupid;
    char *hostname; /* client/server: the host this summary belongs to, "All clients" */
    fsc_group_dir dir[FSC_DIR_COUNT]; /* read, write, trim, mixed (sync unused) */
} fsc_group;

typedef struct fsc_disk {
    char *name;
    fsc_num read_ios, write_ios, read_sectors, write_sectors, read_merges, write_merges, read_ticks,
        write_ticks, in_queue, util;
    fsc_num aggr_read_ios, aggr_write_ios, aggr_read_sectors, aggr_write_sectors, aggr_read_merges,
        aggr_write_merge, aggr_read_ticks, aggr_write_ticks, aggr_in_queue, aggr_util;
    char **members; /* names of the devices listed under an md/dm device */
    size_t n_members, cap_members;
    char *parent; /* the md/dm device this one is listed under, or NULL */
} fsc_disk;

typedef struct fsc_warning {
    uint32_t line; /* original line number in the source (1-based; 0 = whole run) */
    char *message;
} fsc_warning;

typedef enum fsc_format {
    FSC_FMT_NORMAL,
    FSC_FMT_JSON,
    FSC_FMT_TERSE,
    FSC_FMT_ENGINE,
    FSC_FMT_LOG, /* fio log files without the output they belong to */
    FSC_FMT_COUNT
} fsc_format;
/* "normal", "json", "terse", "engine", "log". */
const char *fsc_format_name(fsc_format f);

/* Line accounting of a run (the damage report). */
typedef struct fsc_linestats {
    uint32_t recognized, noise, unknown, malformed, repaired;
} fsc_linestats;

typedef struct fsc_run {
    char *id;    /* "P#k" */
    char *label; /* "RAID 0 › 4k 随机写 › 4k_randwrite" */
    struct {
        char *path;
        char *member; /* archive member, or NULL */
        uint32_t first_line, last_line;
        fsc_format format;
        char *fio_version; /* "fio-3.33", or NULL when not shown */
        char *host;        /* client/server: the host, or NULL */
        /* When fio wrote the run, as fio prints it ("Mon Nov 30 03:57:09 2026", its
         * ctime; local time, no zone): JSON "time", or the latest of the text's job
         * headers ("...: pid=1234: Mon Nov 30 03:57:09 2026"); NULL when not shown.
         * timestamp: JSON "timestamp", seconds since 1970 (set only from JSON). */
        char *time;
        fsc_num timestamp;
        /* One fio invocation printed in several formats (--output-format=normal,json)
         * is one run: every format it was printed in, in document order; `format` is
         * the one whose numbers were kept. n_formats 0 or 1: printed once. */
        fsc_format formats[FSC_FMT_COUNT];
        size_t n_formats;
    } source;
    char **context; /* outline headings (outermost first), then the command line */
    size_t n_context, cap_context;
    char *command; /* the fio command line or job file shown before the run, or NULL */
    bool context_titled; /* context[0] is the document title rather than a section heading */
    fsc_job *jobs;
    size_t n_jobs, cap_jobs;
    fsc_opt *global_options; /* fio JSON "global options" (a job's own options win) */
    size_t n_global_options, cap_global_options;
    fsc_keyindex global_option_index;
    fsc_group *groups;
    size_t n_groups, cap_groups;
    fsc_disk *disk_util;
    size_t n_disk_util, cap_disk_util;
    /* fio's "cpu_idleness" (--idle-prof): "system", then "cpu-0", "cpu-1"... in %,
     * "unit_mean" and "unit_stddev" in us (its unit of work's calibration), in fio's
     * order; empty when the output has none */
    fsc_kvlist cpu_idleness;
    fsc_logseries **series; /* fio log files of this run (owned) */
    size_t n_series, cap_series;
    fsc_warning *warnings;
    size_t n_warnings, cap_warnings;
    fsc_linestats lines;
    uint32_t *unknown_lines; /* line numbers of unknown/malformed lines (damage report) */
    size_t n_unknown_lines, cap_unknown_lines;
} fsc_run;

/* fio's ctime as a run's source.time holds it, "Mon Nov 30 03:57:09 2026" (24 bytes,
 * the day padded with a blank), as one number that sorts as the dates do
 * (yyyymmddhhmmss); 0 when s[0, 24) is no such date (s must hold 24 bytes). */
uint64_t fsc_ctime_key(const char *s);

/* A new empty run, or NULL on allocation failure. */
fsc_run *fsc_run_new(void);
/* Free the run and everything it owns. NULL is fine. */
void fsc_run_free(fsc_run *run);
/* Bytes the run holds (its arrays as allocated, strings, itself): what it costs a
 * memory budget (see fsc_budget in common.h). */
size_t fsc_run_bytes(const fsc_run *run);
/* What a reader calls once a run is complete, before anyone reads it: sorts the
 * percentile lists that were filled out of order. */
void fsc_run_finish(fsc_run *run);

/* Append an empty job / group / disk; returns a pointer into the run's array (valid
 * until the next append of the same kind) or NULL on allocation failure. */
fsc_job *fsc_run_add_job(fsc_run *run);
fsc_group *fsc_run_add_group(fsc_run *run);
fsc_disk *fsc_run_add_disk(fsc_run *run);
/* Append a series (ownership passes, also on failure). False when out of memory. */
bool fsc_run_add_series(fsc_run *run, fsc_logseries *s);
/* Keep the jobs with keep[i] true (in order), free the others. */
void fsc_run_keep_jobs(fsc_run *run, const bool *keep);
/* Append a warning (printf-style). Returns false on allocation failure. */
bool fsc_run_warn(fsc_run *run, uint32_t line, const char *fmt, ...) FSC_PRINTF(3, 4);
/* Move the n warnings from index `from` on to the front, each group keeping its order
 * (notes about the text above a run, told after its own warnings, go before them).
 * False when memory ran out: then nothing moved. */
bool fsc_run_warnings_to_front(fsc_run *run, size_t from, size_t n);
/* Append a context entry (a heading, the command): copied, cut to FSC_CONTEXT_MAX
 * bytes with "…" when longer. */
bool fsc_run_add_context(fsc_run *run, const char *text);
#define FSC_CONTEXT_MAX 1024

/* Set or replace a "global options" entry / look one up (NULL if absent). */
bool fsc_run_set_global_option(fsc_run *run, const char *key, const char *val);
const char *fsc_run_global_option(const fsc_run *run, const char *key);

/* Set or replace a job option (a replaced one keeps its place). Constant time on
 * average. */
bool fsc_job_set_option(fsc_job *job, const char *key, const char *val);
/* An option for fsc_job_set_options: val NULL leaves it out. */
typedef struct fsc_opt_in {
    const char *key;
    const char *val;
} fsc_opt_in;
/* Set the options in[0, n) (keys distinct) in their order, as fsc_job_set_option one
 * by one does; cheaper on a job without options (a job header's: no key to look up,
 * one budget charge). Returns false on allocation failure. */
bool fsc_job_set_options(fsc_job *job, const fsc_opt_in *in, size_t n);
const char *fsc_job_option(const fsc_job *job, const char *key);
/* Add a percentile; a pct added again replaces the earlier value. Percentiles added
 * in ascending order keep the list sorted at every step; one added out of order is
 * appended (constant time) and the list is sorted, the last value of each pct kept,
 * by fsc_lat_sort (fsc_run_finish does it for a whole run). */
bool fsc_lat_add_pctl(fsc_lat *lat, double pct, double ns);
/* fsc_lat_add_pctl's common case, inline for readers that add many: pct above the
 * last of a sorted list with room is appended and true returned; else nothing is
 * done and false returned (then call fsc_lat_add_pctl). */
static inline bool fsc_lat_add_pctl_next(fsc_lat *lat, double pct, double ns)
{
    size_t n = lat->n_percentile;
    if (!n || n >= lat->cap_percentile || lat->pctl_unsorted || !(pct > lat->percentile[n - 1].pct))
        return false;
    lat->percentile[n].pct = pct;
    lat->percentile[n].ns = ns;
    lat->n_percentile = n + 1;
    return true;
}
/* Sort the percentiles by pct if one was added out of order (n log n). */
void fsc_lat_sort(fsc_lat *lat);
/* Exchange the percentile lists of a and b (their order flags with them): a list read
 * as one latency's that fio filled with another's changes place, without a copy. */
void fsc_lat_swap_percentiles(fsc_lat *a, fsc_lat *b);
bool fsc_lat_add_bin(fsc_lat *lat, double ns, double count);
bool fsc_disk_add_member(fsc_disk *disk, const char *name);

/* Does a direction carry any number? (fio prints unused directions as zeros.) */
bool fsc_dir_has_data(const fsc_dir *d);

/* ---- field descriptors: name, offset and base unit of every scalar field ---- */

typedef enum fsc_unit {
    FSC_UNIT_NONE,  /* plain number (ids, error codes) */
    FSC_UNIT_COUNT, /* I/Os, samples, context switches */
    FSC_UNIT_IOPS,
    FSC_UNIT_BYTES,
    FSC_UNIT_BYTES_PER_S,
    FSC_UNIT_KIB_PER_S,
    FSC_UNIT_NS,
    FSC_UNIT_MS,
    FSC_UNIT_PCT
} fsc_unit;

typedef struct fsc_field {
    const char *name; /* fio's JSON name */
    size_t offset;    /* of an fsc_num inside the struct */
    fsc_unit unit;
    unsigned name_len; /* strlen(name) (0 in a table written without it: then it is counted) */
} fsc_field;

extern const fsc_field fsc_dir_fields[];
extern const size_t fsc_n_dir_fields;
extern const fsc_field fsc_lat_fields[]; /* min max mean stddev N */
extern const size_t fsc_n_lat_fields;
extern const fsc_field fsc_job_fields[]; /* groupid error pid jobs usr_cpu ... latency_* */
extern const size_t fsc_n_job_fields;
extern const fsc_field fsc_group_dir_fields[];
extern const size_t fsc_n_group_dir_fields;
extern const fsc_field fsc_disk_fields[];
extern const size_t fsc_n_disk_fields;

static inline fsc_num *fsc_field_ptr(void *base, const fsc_field *f)
{
    return (fsc_num *)((char *)base + f->offset);
}
static inline const fsc_num *fsc_field_cptr(const void *base, const fsc_field *f)
{
    return (const fsc_num *)((const char *)base + f->offset);
}
/* Look a field up by JSON name in a descriptor table; NULL if absent. */
const fsc_field *fsc_field_find(const fsc_field *tab, size_t n, const char *name, size_t len);

/* ---- a growable list of runs, in input order ---- */

typedef struct fsc_runset {
    fsc_run **runs;
    size_t n_runs, cap_runs;
} fsc_runset;

void fsc_runset_init(fsc_runset *set);
/* Takes ownership of run (also on failure, where the run is freed). */
bool fsc_runset_add(fsc_runset *set, fsc_run *run);
/* Frees every run; the set is empty afterwards. */
void fsc_runset_clear(fsc_runset *set);

#ifdef __cplusplus
}
#endif
#endif
