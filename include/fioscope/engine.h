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

/* One job section (or the [global] defaults), with fio's defaults. */
typedef struct fsc_jobdef {
    char *name;
    char *filename, *directory; /* NULL: <name>.<clone>.0 in the directory (or cwd) */
    uint64_t size;              /* bytes; 0 = not given */
    fsc_rwmode rw;
    char rw_text[16];           /* as given: "randread", "readwrite", ... */
    unsigned rwmixread;         /* % of reads in mixed modes */
    uint64_t bs;
    char ioengine[16];
    unsigned iodepth, numjobs, loops, fsync;
    bool direct, time_based, group_reporting, new_group;
    uint64_t runtime_ms, ramp_ms; /* 0 = none */
    double pcts[FSC_MAX_PCTS];
    size_t n_pcts;
    unsigned kb_base;
    fsc_opt *given; /* options as written ("job options"), key order kept */
    size_t n_given, cap_given;
    char *src_file;    /* where the section started (NULL: command line) */
    unsigned src_line;
} fsc_jobdef;

typedef struct fsc_jobset {
    fsc_jobdef global; /* [global] and command-line options before any --name */
    fsc_jobdef *jobs;
    size_t n_jobs, cap_jobs;
} fsc_jobset;

/* Empty set with fio's defaults in global. Returns false on allocation failure. */
bool fsc_jobset_init(fsc_jobset *js);
/* Free everything the set owns. NULL is fine. */
void fsc_jobset_free(fsc_jobset *js);
/* Apply one option (fio's name, value as text) to a job. On error writes a message
 * naming the option into err and returns FSC_E_USAGE (unknown/unsupported) or
 * FSC_E_SYNTAX/FSC_E_RANGE (bad value). */
fsc_status fsc_jobdef_set(fsc_jobdef *j, const char *key, const char *val, char *err, size_t errlen);
/* Read a fio job file into js. Errors name "path:line". */
fsc_status fsc_jobset_read_file(fsc_jobset *js, const char *path, char *err, size_t errlen);
/* Read fio-style --key=value options: --name starts a job, options before any --name
 * are global. Arguments that are not options are left to the caller: the function
 * consumes only argv entries starting with "--" and reports others as FSC_E_USAGE. */
fsc_status fsc_jobset_read_args(fsc_jobset *js, int argc, char **argv, char *err, size_t errlen);
/* Check the finished set (engine known, sizes sane). */
fsc_status fsc_jobset_check(const fsc_jobset *js, char *err, size_t errlen);
/* fio's size parser: "4k" = 4096, "64m", "1g", plain bytes; k = 1024. */
fsc_status fsc_parse_fio_size(const char *s, uint64_t *out);

/* ---- the run ---- */

typedef struct fsc_engine_opts {
    bool allow_overwrite; /* may write into existing files and block devices */
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
/* fio's num2str: num with at most maxlen significant digits, SI (k, M, ...) or IEC
 * (Ki, Mi, ...) prefixes, then unit ("", "B", "B/s"). Writes into buf (>= 32 bytes). */
void fsc_num2str(char *buf, size_t len, uint64_t num, unsigned maxlen, bool pow2, const char *unit);

#ifdef __cplusplus
}
#endif
#endif
