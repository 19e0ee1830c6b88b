/* SPDX-License-Identifier: MIT */
/*
 * Inputs: files, directories (recursive), "-" and archives, each read into memory
 * and parsed; every file seen gets an entry in the manifest (`inputs` of the JSON).
 */
#ifndef FIOSCOPE_INPUT_H
#define FIOSCOPE_INPUT_H

#include "fioscope/buf.h"
#include "fioscope/model.h"
#include "fioscope/model_json.h"
#include "fioscope/parse.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum fsc_input_status { FSC_IN_OK, FSC_IN_NO_RUNS, FSC_IN_ERROR } fsc_input_status;
/* "ok", "no-runs", "error". */
const char *fsc_input_status_name(fsc_input_status s);

/* One manifest entry. Strings are owned by the entry. */
typedef struct fsc_input_entry {
    char *path;
    char *member; /* archive member, or NULL */
    fsc_input_status status;
    size_t runs, warnings;
    char *error; /* reason when status is error (or no-runs detail), else NULL */
    /* Which of the paths given to fsc_inputs_read this entry comes from (its index;
     * 0 for fsc_input_read_mem). Entries of a directory walk or of archive members
     * share the index of the directory or archive named. */
    size_t arg;
} fsc_input_entry;

typedef struct fsc_manifest {
    fsc_input_entry *items;
    size_t n, cap;
} fsc_manifest;

void fsc_manifest_free(fsc_manifest *m);
/* Append a copy of e (its strings duplicated). False when out of memory. */
bool fsc_manifest_add(fsc_manifest *m, const fsc_input_entry *e);

typedef struct fsc_input_opts {
    unsigned jobs;             /* worker threads; 0 = number of cores. 0 or 1 for inputs
                                * of at most 128 KiB (regular files, or a buffer):
                                * none, parsed on the calling thread */
    bool progress;             /* progress line on stderr (only if it is a terminal) */
    uint64_t max_member_bytes; /* decompression caps; 0 = defaults */
    uint64_t max_ratio;
    /* memory budget of parsing one document (file, piece of a huge file, archive
     * member): bytes allocated for its text, JSON trees and runs; over it, the input
     * is an error entry. 0 = default (1 GiB); UINT64_MAX = none */
    uint64_t max_memory_bytes;
} fsc_input_opts;

/* Called for each run in input order (ownership passes to the callee) and for each
 * manifest entry once its input is done. Return false to stop. All calls come from
 * the thread that called fsc_inputs_read.
 *
 * Optional (both or neither), for output that needs only bytes (JSON Lines): render
 * turns a run into bytes on the worker thread that parsed it, so that serializing
 * runs in parallel too. It takes ownership of run, must only read ctx (it runs
 * concurrently) and returns malloc'd bytes (*len set), or NULL when out of memory.
 * It is called with the document's memory budget in use (fsc_budget_use): it frees
 * run under it, so that fsc_run_free gives the run's bytes back, and writes with no
 * budget in use (its working buffers are not the document's; the bytes it returns
 * are charged by the caller). text then receives those bytes in input order instead
 * of `run` receiving the run, and takes ownership of them. */
typedef struct fsc_input_sink {
    bool (*run)(void *ctx, fsc_run *run);
    bool (*input)(void *ctx, const fsc_input_entry *entry);
    void *ctx;
    char *(*render)(const void *ctx, fsc_run *run, size_t *len);
    bool (*text)(void *ctx, char *bytes, size_t len);
    /* Optional, with render: the pieces of a huge file are parsed in parallel, each
     * numbering its runs from 1 ("path#1"); renumber gets the rendered bytes of such
     * a run (ownership passes) and returns them with first_run added to the run
     * number of its id (malloc'd, *len set), or NULL when out of memory. Called on
     * the worker that parsed the piece when the pieces before it are parsed by then,
     * else on delivery from the thread that called fsc_inputs_read: like render, it
     * must only read ctx. Without it, the pieces of a file are parsed one after
     * another. */
    char *(*renumber)(void *ctx, char *bytes, size_t *len, size_t first_run);
} fsc_input_sink;

/* Read every path (file, directory, archive or "-") in order. Errors on one input
 * become its manifest entry and never stop the others. Returns FSC_OK unless
 * memory ran out or a sink asked to stop. */
fsc_status fsc_inputs_read(const char *const *paths, size_t n_paths, const fsc_parser *parser,
                           const fsc_input_opts *opts, const fsc_input_sink *sink);

/* Read one document held in memory, data[0..len) (copied), as a file with these
 * bytes would be read: archives and compressed data are opened, text is parsed.
 * name is the path its runs and manifest entries carry. Same returns as
 * fsc_inputs_read. */
fsc_status fsc_input_read_mem(const char *name, const void *data, size_t len,
                              const fsc_parser *parser, const fsc_input_opts *opts,
                              const fsc_input_sink *sink);

/* Per path given to fsc_inputs_read: did it give no run at all? (Files without runs
 * that a directory walk or an archive turned up do not count by themselves: only
 * the named path does.) none[0..n_paths) is set from the manifest. */
void fsc_manifest_no_runs(const fsc_manifest *m, size_t n_paths, bool *none);

/* One manifest entry as the contract's JSON object ({"path", "member", "status",
 * "runs", "warnings", "error"}). */
void fsc_input_entry_write(fsc_jw *w, const fsc_input_entry *e);

/* The contract's whole document, {"fioscope": {...}, "inputs": [...], "runs": [...]}
 * and a newline, through w. flush (may be NULL) is called whenever w's buffer holds
 * more than 1 MiB, to write it out and reset it; a false return stops. Returns false
 * when flush failed or memory ran out. */
bool fsc_document_write(fsc_jw *w, const fsc_manifest *m, const fsc_runset *set,
                        const fsc_json_opts *o, bool (*flush)(void *ctx, fsc_buf *b), void *ctx);
/* The document in parts, for runs written some other way between them: the head
 * (up to the "runs" array's '[', w then stands where fsc_model_write_run writes the
 * first run), and the tail after n_runs runs (the runs may have gone out around w). */
void fsc_document_head(fsc_jw *w, const fsc_manifest *m);
void fsc_document_tail(fsc_jw *w, size_t n_runs);

#ifdef __cplusplus
}
#endif
#endif
