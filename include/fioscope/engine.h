/* SPDX-License-Identifier: MIT */
/*
 * The built-in I/O engine behind `fioscope run`: fio job definitions (job files and
 * --options), a log-linear latency histogram with fio's precision, the run itself
 * (results as an fsc_run) and the writer of fio-3.33 normal text from that model.
 */
#ifndef FIOSCOPE_ENGINE_H
#define FIOSCOPE_ENGINE_H

#include "fioscope/buf.h"
#include "fioscope/model.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- latency histogram (fio's FIO_IO_U_PLAT_BITS = 6) ---- */

#define FSC_HISTO_BITS 6
#define FSC_HISTO_VAL (1u << FSC_HISTO_BITS)        /* 64 linear buckets per power of two */
#define FSC_HISTO_GROUPS 29                           /* covers values up to ~2^34 ns (17 s) */
#define FSC_HISTO_NR (FSC_HISTO_GROUPS * FSC_HISTO_VAL) /* 1856 buckets */

/* Counts, min/max and running mean/variance (Welford) of one latency, in ns. */
typedef struct fsc_histo {
    uint64_t bins[FSC_HISTO_NR];
    uint64_t n, min, max;
    double mean, m2; /* m2 = sum of squared deviations */
} fsc_histo;

/* Bucket of a value: exact below 128 ns, relative error at most 1/64 above.
 * Values beyond the last group land in the last bucket. */
size_t fsc_histo_index(uint64_t ns);
/* Representative value of a bucket (its middle; the value itself below 128). */
uint64_t fsc_histo_value(size_t idx);
void fsc_histo_add(fsc_histo *h, uint64_t ns);
/* Add src into dst (both counts and moments). */
void fsc_histo_merge(fsc_histo *dst, const fsc_histo *src);
/* Sample standard deviation (n-1), 0 with fewer than two samples. */
double fsc_histo_stddev(const fsc_histo *h);
/* Percentiles like fio: walk the buckets in order; pct p takes the representative value
 * of the first bucket where the running count reaches p/100 * n. pcts ascending; 0 if n=0. */
void fsc_histo_percentiles(const fsc_histo *h, const double *pcts, size_t n_pcts, uint64_t *out);

/* ---- job definitions ---- */

typedef enum fsc_rwmode {
    FSC_RW_READ,
    FSC_RW_WRITE,
    FSC_RW_RANDREAD,
    FSC_RW_RANDWRITE,
    FSC_RW_RW,      /* sequential mixed */
    FSC_RW_RANDRW
} fsc_rwmode;

#define FSC_MAX_PCTS 20
#define FSC_MAX_BSSPLIT 64
#define FSC_MAX_CPUS 1024

/* random_distribution */
typedef enum fsc_randdist { FSC_RAND_UNIFORM, FSC_RAND_ZIPF, FSC_RAND_PARETO, FSC_RAND_NORMAL } fsc_randdist;
/* file_service_type */
typedef enum fsc_fileservice { FSC_FS_ROUNDROBIN, FSC_FS_SEQUENTIAL, FSC_FS_RANDOM } fsc_fileservice;
/* verify */
typedef enum fsc_verify { FSC_VERIFY_NONE, FSC_VERIFY_CRC32C, FSC_VERIFY_MD5, FSC_VERIFY_SHA256 } fsc_verify;
/* fallocate */
typedef enum fsc_falloc { FSC_FALLOC_NONE, FSC_FALLOC_POSIX, FSC_FALLOC_KEEP, FSC_FALLOC_TRUNCATE } fsc_falloc;
/* unified_rw_reporting */
typedef enum fsc_unified { FSC_UNIFIED_NONE, FSC_UNIFIED_MIXED, FSC_UNIFIED_BOTH } fsc_unified;

typedef struct fsc_bssplit {
    uint64_t bs;
    unsigned perc;
} fsc_bssplit;

/* One job section (or the [global] defaults), with fio's defaults. Index [0] of a
 * per-direction pair is reads, [1] writes (fio's "read,write" values). */
typedef struct fsc_jobdef {
    char *name, *description;
    char *filename, *directory; /* NULL: <name>.<clone>.<file> in the directory (or cwd) */
    uint64_t size;              /* bytes per clone over all its files; 0 = not given */
    unsigned size_pct;          /* size=N%: of the existing file (0 = not a percentage) */
    uint64_t filesize;          /* bytes per file; 0 = size / nrfiles */
    uint64_t io_size;           /* bytes to transfer; 0 = size x loops */
    uint64_t number_ios;        /* stop after this many I/Os; 0 = no limit */
    uint64_t offset, offset_increment; /* bytes */
    unsigned offset_pct;        /* offset=N% of the file */
    unsigned nrfiles;
    fsc_fileservice file_service;
    unsigned file_service_nr;   /* I/Os before switching file (":N" suffix), default 1 */
    fsc_rwmode rw;
    char rw_text[16];           /* as given: "randread", "readwrite", ... */
    unsigned rwmixread;         /* % of reads in mixed modes */
    uint64_t bs;                /* read block size (the header line shows it) */
    uint64_t bs_min[2], bs_max[2]; /* bs and bsrange per direction */
    fsc_bssplit bssplit[2][FSC_MAX_BSSPLIT];
    size_t n_bssplit[2];
    char ioengine[16];
    unsigned iodepth, iodepth_batch, iodepth_batch_complete_min, iodepth_batch_complete_max, iodepth_low;
    unsigned numjobs, loops, fsync, fdatasync;
    bool end_fsync, fsync_on_close;
    int sync_flag; /* sync=1: O_SYNC, sync=dsync: O_DSYNC, else 0 */
    bool direct, time_based, group_reporting, new_group, exitall;
    bool invalidate, fadvise_hint, randrepeat, norandommap, create_on_open, unlink, overwrite;
    uint64_t randseed;
    bool randseed_set;
    fsc_randdist rand_dist;
    double rand_param; /* zipf theta, pareto h, normal deviation in % */
    uint64_t runtime_ms, ramp_ms, startdelay_ms; /* 0 = none */
    uint64_t thinktime_us, thinktime_spin_us;
    unsigned thinktime_blocks;
    uint64_t rate[2], rate_iops[2], rate_min[2], rate_iops_min[2]; /* bytes/s, IO/s */
    fsc_falloc fallocate;
    bool zero_buffers, refill_buffers, scramble_buffers;
    unsigned buffer_compress_percentage, buffer_compress_chunk;
    fsc_verify verify;
    bool do_verify, verify_fatal;
    uint8_t cpus[FSC_MAX_CPUS / 8]; /* cpus_allowed bitmap */
    bool cpus_set, cpus_split;
    char *wait_for;
    double pcts[FSC_MAX_PCTS];
    size_t n_pcts;
    bool clat_percentiles, lat_percentiles, slat_percentiles;
    fsc_unified unified_rw;
    unsigned kb_base;
    /* fio's log files: the prefix given to write_*_log (NULL = not written) */
    char *bw_log, *iops_log, *lat_log, *hist_log;
    unsigned log_avg_msec, log_hist_msec;
    bool log_max_value, per_job_logs, log_offset;
    fsc_opt *given; /* options as written ("job options"), key order kept */
    size_t n_given, cap_given;
    char *src_file;    /* where the section started (NULL: command line) */
    unsigned src_line;
} fsc_jobdef;

typedef struct fsc_jobset {
    fsc_jobdef global; /* [global] and command-line options before any --name */
    fsc_jobdef *jobs;
    size_t n_jobs, cap_jobs;
    bool ignore_unsupported; /* unknown options are skipped and listed in ignored */
    char **ignored;          /* "name=value" of every option skipped, in order */
    size_t n_ignored, cap_ignored;
} fsc_jobset;

/* Empty set with fio's defaults in global. Returns false on allocation failure. */
bool fsc_jobset_init(fsc_jobset *js);
/* Free everything the set owns. NULL is fine. */
void fsc_jobset_free(fsc_jobset *js);
/* Apply one option (fio's name, value as text) to a job. On error writes a message
 * naming the option into err and returns FSC_E_USAGE (unknown: the message names the
 * nearest real option; bad value: it names the limit) or FSC_E_NOMEM. Options fio has
 * that change nothing measured (description, eta, allow_mounted_write, ...) are
 * accepted. */
fsc_status fsc_jobdef_set(fsc_jobdef *j, const char *key, const char *val, char *err, size_t errlen);
/* Is key an option name the engine knows (implemented or accepted)? */
bool fsc_job_option_known(const char *key);
/* Read a fio job file into js. Errors name "path:line". */
fsc_status fsc_jobset_read_file(fsc_jobset *js, const char *path, char *err, size_t errlen);
/* The same from a job file's text held in memory; name is used in messages. */
fsc_status fsc_jobset_read_text(fsc_jobset *js, const char *text, size_t len, const char *name, char *err,
                                size_t errlen);
/* Read fio-style --key=value options: --name starts a job, options before any --name
 * are global. Arguments that are not options are left to the caller: the function
 * consumes only argv entries starting with "--" and reports others as FSC_E_USAGE. */
fsc_status fsc_jobset_read_args(fsc_jobset *js, int argc, char **argv, char *err, size_t errlen);
/* Apply one option to the global section and to every job already defined (command-line
 * overrides of a job file). */
fsc_status fsc_jobset_override(fsc_jobset *js, const char *key, const char *val, char *err, size_t errlen);
/* Check the finished set (engine known, sizes sane, wait_for names a job). */
fsc_status fsc_jobset_check(const fsc_jobset *js, char *err, size_t errlen);
/* fio's size parser: "4k" = 4096, "64m", "1g", "0x1000", plain bytes; k = 1024. */
fsc_status fsc_parse_fio_size(const char *s, uint64_t *out);
/* Write the set back as a fio job file ([global] then one section per job, the options
 * as given). */
void fsc_jobset_write(fsc_buf *out, const fsc_jobset *js);

/* ---- the run ---- */

typedef struct fsc_engine_opts {
    bool allow_overwrite; /* may write into existing files and block devices */
    bool bins;            /* keep the latency histograms in the run (json+) */
    /* fio's log files (write_*_log) go into this folder (NULL: the current one) */
    const char *log_dir;
    /* Called from the calling thread with each preamble line fio would print while
     * preparing ("name: Laying out IO file (1 file / 16MiB)"), before any I/O; may be NULL. */
    void (*note)(void *ctx, const char *line);
    void *note_ctx;
} fsc_engine_opts;

/* Names of the compiled-in engines, NULL-terminated. */
const char *const *fsc_engine_names(void);

/* Run every job of js and return the results as a run (source.format "engine").
 * SIGINT/SIGTERM stop the run early; what was measured is still returned and
 * *interrupted is set. Data files the engine created are removed. On failure
 * returns NULL and writes the reason into err. The caller frees the run. */
fsc_run *fsc_engine_run(const fsc_jobset *js, const fsc_engine_opts *opts, bool *interrupted,
                        char *err, size_t errlen);

/* ---- fio 3.x normal text ---- */

/* The lines fio prints before a run: one header line per job (and "..." for clones),
 * the version banner (fioscope-engine-X.Y.Z) and "Starting N threads". */
void fsc_fio_text_preamble(fsc_buf *out, const fsc_jobset *js);
/* The results of run in fio 3.33's layout, derived only from the model. stamp is the
 * time text after "pid=N: " in job headers (fio prints ctime there), or NULL for none. */
void fsc_fio_text_write(fsc_buf *out, const fsc_run *run, const char *stamp);
/* fio 3.33's JSON of run (plus: json+, with the histogram bins of every latency that
 * has percentiles). js gives the options as written ("global options", "job options");
 * it may be NULL. now_ms: the time stamp (ms since the epoch). */
void fsc_fio_json_write(fsc_buf *out, const fsc_run *run, const fsc_jobset *js, bool plus, int64_t now_ms);
/* fio's terse (--minimal) output, version 3: one line per job. */
void fsc_fio_terse_write(fsc_buf *out, const fsc_run *run, const fsc_jobset *js);
/* fio's num2str: num with at most maxlen significant digits, SI (k, M, ...) or IEC
 * (Ki, Mi, ...) prefixes, then unit ("", "B", "B/s"). Writes into buf (>= 32 bytes). */
void fsc_num2str(char *buf, size_t len, uint64_t num, unsigned maxlen, bool pow2, const char *unit);

#ifdef __cplusplus
}
#endif
#endif
