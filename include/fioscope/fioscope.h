/* SPDX-License-Identifier: MIT */
/**
 * @file fioscope/fioscope.h
 *
 * @brief libfioscope: read fio benchmark output of every version and format.
 *
 * This is the stable C API of libfioscope, the library behind the `fioscope`
 * command. It reads fio output (the normal text of fio 2.0 to 3.x, fio JSON and
 * json+, terse, client/server output, fioscope's own engine) from files,
 * directories, archives or memory, wherever it sits in a document (logs, mails,
 * Markdown, HTML), and gives every run with fio's own JSON names and base units.
 *
 * A minimal program:
 *
 * @code
 *     #include <fioscope/fioscope.h>
 *     #include <stdio.h>
 *
 *     int main(int argc, char **argv)
 *     {
 *         if (argc != 2)
 *             return 2;
 *         fioscope_result *res = fioscope_parse_path(argv[1], 0);
 *         if (!res)
 *             return 2;                              // out of memory
 *         if (fioscope_result_status(res) != FIOSCOPE_OK)
 *             fprintf(stderr, "%s\n", fioscope_result_error(res));
 *         for (size_t i = 0; i < fioscope_result_run_count(res); i++) {
 *             const fioscope_run *run = fioscope_result_run(res, i);
 *             for (size_t j = 0; j < fioscope_run_job_count(run); j++) {
 *                 double iops;
 *                 if (fioscope_run_value(run, j, "read.iops", &iops))
 *                     printf("%s %s %.0f\n", fioscope_run_id(run),
 *                            fioscope_run_job_name(run, j), iops);
 *             }
 *         }
 *         fioscope_result_free(res);
 *         return 0;
 *     }
 * @endcode
 *
 * Build it with `cc prog.c $(pkg-config --cflags --libs fioscope)`.
 *
 * **Ownership.** A fioscope_result owns its runs and every string it hands out;
 * they stay valid until fioscope_result_free(). Strings returned as `char *` (the
 * JSON texts) belong to the caller, who releases them with fioscope_free().
 *
 * **Threads.** The library keeps no mutable global state of its own: any number of
 * threads may parse at the same time, and a result may be read from several threads
 * at once. The grammars are compiled once per process, on first use, and then only
 * read. A result must not be read while another thread frees it.
 *
 * **Errors.** Bad input never fails a call: a file that cannot be read, or that
 * holds no fio run, is recorded in the result's list of inputs and summed up by
 * fioscope_result_status() and fioscope_result_error(). Functions return NULL only
 * when memory runs out (or, for accessors, when an index is out of range).
 *
 * **Stability.** Names starting with `fioscope_` / `FIOSCOPE_` are the API; the
 * shared library exports nothing else, and its soname changes only when a function
 * here changes incompatibly. The other headers in include/fioscope are the modules
 * of the fioscope program and are not installed.
 */
#ifndef FIOSCOPE_FIOSCOPE_H
#define FIOSCOPE_FIOSCOPE_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Version of this header (the library's own is fioscope_version()). */
#define FIOSCOPE_VERSION_MAJOR 0
#define FIOSCOPE_VERSION_MINOR 1
#define FIOSCOPE_VERSION_PATCH 0
#define FIOSCOPE_VERSION_STRING "0.1.0"

#if defined(__GNUC__) && !defined(FIOSCOPE_STATIC_API)
#define FIOSCOPE_API __attribute__((visibility("default")))
#else
#define FIOSCOPE_API
#endif

/** The runs and the inputs read by one parse call. Opaque. */
typedef struct fioscope_result fioscope_result;
/** One fio run (one invocation of fio as printed). Opaque; owned by its result. */
typedef struct fsc_run fioscope_run;

/** Flags of the parse functions (OR them together; 0 = the defaults). */
enum fioscope_parse_flags {
    /** How run and job labels are built (the low two bits): the outline headings
     * above the run and the job name (default), the file name and the job name, the
     * job name only, or every context entry and the job name. */
    FIOSCOPE_LABEL_HEADING = 0,
    FIOSCOPE_LABEL_FILE = 1,
    FIOSCOPE_LABEL_JOB = 2,
    FIOSCOPE_LABEL_CONTEXT = 3,
    /** Parse with one thread per core instead of one worker thread. */
    FIOSCOPE_ALL_CORES = 1 << 4
};

/** Flags of the JSON writers. */
enum fioscope_json_flags {
    /** Indent with two spaces (as `fioscope parse` writes the whole document). */
    FIOSCOPE_JSON_PRETTY = 1 << 0,
    /** Add each run's line accounting ("damage", as `fioscope parse --damage`). */
    FIOSCOPE_JSON_DAMAGE = 1 << 1
};

/** Overall status of a result (fioscope_result_status()). */
enum fioscope_status {
    /** Every input was read and gave runs. */
    FIOSCOPE_OK = 0,
    /** An input could not be read, or gave no run (files without runs found while
     * walking a directory or inside an archive do not count by themselves). The
     * runs of the other inputs are there all the same. */
    FIOSCOPE_UNREAD = 1
};

/**
 * @brief The version of the library ("0.1.0"). Static storage.
 */
FIOSCOPE_API const char *fioscope_version(void);

/**
 * @brief Read a file, a directory (recursively), an archive (tar, tar.gz, zip, ...,
 *        and single .gz/.xz/.zst files) or "-" (standard input).
 *
 * @param path  What to read.
 * @param flags FIOSCOPE_LABEL_* and FIOSCOPE_ALL_CORES, or 0.
 * @return A result to release with fioscope_result_free(), or NULL when out of
 *         memory. A missing or unreadable path gives a result with status
 *         FIOSCOPE_UNREAD and the reason in fioscope_result_error().
 */
FIOSCOPE_API fioscope_result *fioscope_parse_path(const char *path, unsigned flags);

/**
 * @brief Read several paths into one result, in order (as `fioscope parse P...`).
 */
FIOSCOPE_API fioscope_result *fioscope_parse_paths(const char *const *paths, size_t n_paths,
                                                   unsigned flags);

/**
 * @brief Read a document held in memory: text in any of fio's formats (inside any
 *        prose), or the bytes of an archive or compressed file.
 *
 * @param data  The bytes (copied; need not be NUL-terminated).
 * @param size  Their number.
 * @param name  The path the runs carry as their source ("P#k" ids); NULL = "-".
 * @param flags As for fioscope_parse_path().
 * @return As fioscope_parse_path(). Bytes that hold no fio run give status
 *         FIOSCOPE_UNREAD and "NAME: no fio run found".
 */
FIOSCOPE_API fioscope_result *fioscope_parse_buffer(const void *data, size_t size,
                                                    const char *name, unsigned flags);

/** @brief FIOSCOPE_OK or FIOSCOPE_UNREAD (see enum fioscope_status). */
FIOSCOPE_API int fioscope_result_status(const fioscope_result *res);

/**
 * @brief The first problem of a result as one line ("logs.tgz: a.txt: cannot read:
 *        ..." or "notes.txt: no fio run found"), or NULL when its status is
 *        FIOSCOPE_OK. Owned by the result.
 */
FIOSCOPE_API const char *fioscope_result_error(const fioscope_result *res);

/** @brief Number of runs found, over all inputs. */
FIOSCOPE_API size_t fioscope_result_run_count(const fioscope_result *res);

/** @brief Run i (0-based, in input order), or NULL when i is out of range. */
FIOSCOPE_API const fioscope_run *fioscope_result_run(const fioscope_result *res, size_t i);

/**
 * @brief Number of entries in the result's list of inputs: one per file read (also
 *        per file of a directory and per archive member), as the "inputs" array of
 *        the JSON.
 */
FIOSCOPE_API size_t fioscope_result_input_count(const fioscope_result *res);

/**
 * @brief One entry of the list of inputs. Every out parameter may be NULL; strings
 *        are owned by the result (member and error may be NULL).
 *
 * @param status Receives "ok", "no-runs" or "error".
 * @param runs   Receives the number of runs found in that input.
 * @return 1, or 0 when i is out of range.
 */
FIOSCOPE_API int fioscope_result_input(const fioscope_result *res, size_t i, const char **path,
                                       const char **member, const char **status, size_t *runs,
                                       const char **error);

/**
 * @brief The whole result as the normalized JSON document that `fioscope parse`
 *        writes: {"fioscope": {...}, "inputs": [...], "runs": [...]}.
 *
 * @param flags FIOSCOPE_JSON_* or 0 (compact).
 * @param len   Receives the length (may be NULL); the text is NUL-terminated.
 * @return Text to release with fioscope_free(), or NULL when out of memory.
 */
FIOSCOPE_API char *fioscope_result_json(const fioscope_result *res, unsigned flags, size_t *len);

/** @brief Release a result and everything it owns. NULL is fine. */
FIOSCOPE_API void fioscope_result_free(fioscope_result *res);

/** @brief The run's id, "PATH#k" (or "PATH:MEMBER#k"). */
FIOSCOPE_API const char *fioscope_run_id(const fioscope_run *run);
/** @brief The run's label ("RAID 0 › 4k randwrite › job"), UTF-8. */
FIOSCOPE_API const char *fioscope_run_label(const fioscope_run *run);
/** @brief The input file the run was read from. */
FIOSCOPE_API const char *fioscope_run_path(const fioscope_run *run);
/** @brief The archive member it was read from, or NULL. */
FIOSCOPE_API const char *fioscope_run_member(const fioscope_run *run);
/** @brief The format whose numbers were kept: "normal", "json", "terse", "engine". */
FIOSCOPE_API const char *fioscope_run_format(const fioscope_run *run);
/** @brief The fio version that printed it ("fio-3.33"), or NULL when not shown. */
FIOSCOPE_API const char *fioscope_run_fio_version(const fioscope_run *run);

/** @brief Number of jobs of the run, in the order fio printed them. */
FIOSCOPE_API size_t fioscope_run_job_count(const fioscope_run *run);
/** @brief Name of job j, or NULL when j is out of range. */
FIOSCOPE_API const char *fioscope_run_job_name(const fioscope_run *run, size_t j);

/**
 * @brief A number of job j, named by its dotted path in the job's JSON object, in
 *        fio's base unit for that field.
 *
 * Paths: "read.iops", "write.bw_bytes" (bytes/s), "read.bw" (KiB/s, as fio),
 * "read.runtime" (ms), "read.clat_ns.mean" (ns), "read.clat_ns.percentile.99.000000",
 * "usr_cpu" (%), "ctx", "iodepth_level.4" (%), "latency_us.250" (%), and every other
 * number the JSON of `fioscope parse` shows inside a job.
 *
 * @return 1 with *value set when the input showed that number; 0 when it did not
 *         (a field the text does not show is absent, never 0), when the path names
 *         no number, or when j is out of range.
 */
FIOSCOPE_API int fioscope_run_value(const fioscope_run *run, size_t j, const char *path,
                                    double *value);

/**
 * @brief An option of job j as printed ("rw", "bs", "ioengine", "iodepth" ...:
 *        the "job options" of the JSON), or NULL when not shown.
 */
FIOSCOPE_API const char *fioscope_run_job_option(const fioscope_run *run, size_t j,
                                                 const char *key);

/**
 * @brief One run as the RUN object of the normalized JSON (one line of
 *        `fioscope parse --jsonl` without its newline when flags is 0).
 *
 * @return Text to release with fioscope_free(), or NULL when out of memory.
 */
FIOSCOPE_API char *fioscope_run_json(const fioscope_run *run, unsigned flags, size_t *len);

/** @brief Release text returned by the library. NULL is fine. */
FIOSCOPE_API void fioscope_free(void *p);

#ifdef __cplusplus
}
#endif
#endif
