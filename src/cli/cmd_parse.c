/* SPDX-License-Identifier: MIT */
/* `fioscope parse`: the normalized JSON (or JSON Lines) of every run found. */
#include "cli.h"
#include "fioscope/flat.h"
#include "fioscope/model_json.h"
#include "outfile.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char parse_help[] =
    "usage: fioscope parse [-o FILE] [--format json|jsonl|csv|tsv] [--damage] [OPTIONS] INPUT...\n"
    "\n"
    "Writes the normalized JSON of every fio run found in the inputs (files,\n"
    "directories, archives, '-'): fio's own JSON names, base units.\n"
    "\n"
    "  -o, --output FILE   write to FILE (atomically) instead of standard output\n"
    "  -f, --format FMT    json (default): one document with \"inputs\" and \"runs\";\n"
    "                      jsonl: one JSON object per line, each run, then an\n"
    "                      {\"input\":…} line per input, streamed as they are read;\n"
    "                      csv, tsv: flat, one row per job and direction, one column\n"
    "                      per field (dotted JSON paths such as iops, bw_bytes,\n"
    "                      clat_ns.percentile.99.000000), in the JSON's units\n"
    "                      ('fioscope metrics' lists them)\n"
    "      --jsonl         the same as --format jsonl\n"
    "      --damage        add per-run line accounting (recognized, noise, unknown,\n"
    "                      malformed) and the unknown line numbers\n"
    "      --each-format   one fio invocation printed in several formats\n"
    "                      (--output-format=normal,json,terse) as one run per\n"
    "                      printout instead of one run (to check one against another)\n";

typedef struct parse_ctx {
    fsc_outfile *out;
    fsc_json_opts jopts;
    fsc_buf line;
    fsc_cli_diag diag;
    bool failed;
    fsc_manifest manifest;
    /* the JSON document (not JSON Lines): its runs, rendered as they come, wait until
     * the inputs, which the document lists first, are known: in memory up to
     * SPOOL_MEM, then in a temporary file */
    bool doc;
    fsc_buf spool_mem;
    FILE *spool;
    char *spool_block;
    size_t n_runs;
    size_t spool_max; /* SPOOL_MEM, or FIOSCOPE_SPOOL_BYTES (tests) */
    int spool_errno;  /* why the temporary file failed */
} parse_ctx;

#define SPOOL_MEM ((size_t)8 << 20)

/* Where a run stands in the document: {"fioscope":..., "inputs":[...], "runs":[RUN, */
#define RUNS_DEPTH 2

/* The bytes a run is rendered to (render, renumber, text: private to them): the
 * JSON line starts at bytes[bytes[0]], after up to ID_SLACK bytes kept free before it.
 * The pieces of a huge file number their runs from 1 ("path#7"), renumbered when
 * delivered ("path#1207"): the head of the line up to the '#' then moves into that
 * room, instead of a copy of the whole line being made. */
#define ID_SLACK 20 /* a run number may grow by 19 digits (size_t) */

/* A writer at the place of the first run of the document's "runs": the bytes of any
 * run there are "\n    {...\n    }"; the runs after the first have a ',' before them. */
static void doc_writer(fsc_jw *w, fsc_buf *b)
{
    fsc_jw_init(w, b, true, false);
    w->depth = RUNS_DEPTH;
    w->first[RUNS_DEPTH] = true;
}

/* The buffer a thread renders its runs in (jsonl_render), kept from run to run: the
 * writer makes room for most of a job at once, from a bound several times what it
 * writes, and here that room is there already; the text of a run is copied out of
 * it at its size. Not charged to a budget (the text is, by the caller); freed when
 * its thread ends, or after a run that grew it past SCRATCH_KEEP. */
#define SCRATCH_KEEP ((size_t)1 << 20)

typedef struct scratch {
    fsc_buf b;
    bool registered; /* fsc_at_thread_end holds it: freed when the thread ends */
} scratch;

static _Thread_local scratch thread_scratch;

static void scratch_free(void *p)
{
    fsc_budget *old = fsc_budget_use(NULL);
    fsc_buf_free(&((scratch *)p)->b);
    fsc_budget_use(old);
}

/* This thread's scratch buffer, or NULL when it cannot be kept. */
static fsc_buf *scratch_get(void)
{
    scratch *s = &thread_scratch;
    if (!s->registered) {
        if (!fsc_at_thread_end(scratch_free, s))
            return NULL;
        s->registered = true;
    }
    return &s->b;
}

/* One run as a JSON line, or as a run of the document, in malloc'd bytes. Runs on
 * the worker threads (the input sink's render): reads nothing but ctx->jopts and
 * ctx->doc. Writes with no budget in use (the scratch buffer is not charged; the text
 * is, by the caller) and frees the run with the caller's budget in use, so that the
 * run's bytes go back to it (item.c's render_out). */
static char *jsonl_render(const void *vctx, fsc_run *run, size_t *len)
{
    const parse_ctx *ctx = vctx;
    fsc_budget *budget = fsc_budget_use(NULL);
    fsc_buf local = {0}, *b = scratch_get();
    if (!b)
        b = &local;
    fsc_buf_reset(b);
    char *p = fsc_buf_room(b, ID_SLACK);
    if (p) {
        memset(p, 0, ID_SLACK);
        p[0] = ID_SLACK;
        b->len = ID_SLACK;
    }
    fsc_jw w;
    if (ctx->doc)
        doc_writer(&w, b);
    else
        fsc_jw_init(&w, b, false, false);
    fsc_model_write_run(&w, run, &ctx->jopts);
    if (!ctx->doc)
        fsc_buf_putc(b, '\n');
    char *text = b->oom ? NULL : malloc(b->len + 1);
    if (text) {
        memcpy(text, b->data, b->len + 1);
        *len = b->len;
    }
    if (b->oom || b->cap > SCRATCH_KEEP || b == &local)
        fsc_buf_free(b);
    fsc_budget_use(budget);
    fsc_run_free(run);
    return text;
}

/* A run line of a piece of a huge file, numbered from 1 in its piece: its id
 * "...#k" (the first member, json_quote'd, so its last '#' is the separator)
 * becomes "...#(k + first_run)". */
static char *jsonl_renumber(void *vctx, char *bytes, size_t *len, size_t first_run)
{
    const parse_ctx *ctx = vctx;
    static const char line_head[] = "{\"id\":\"", doc_head[] = "\n    {\n      \"id\": \"";
    const char *head = ctx->doc ? doc_head : line_head;
    size_t off = (unsigned char)bytes[0];
    char *line = bytes + off;
    size_t n = *len - off, i = strlen(head), hash = 0;
    if (n < i || memcmp(line, head, i)) {
        free(bytes);
        return NULL; /* not what jsonl_render writes */
    }
    const char *q = memchr(line + i, '"', n - i);
    if (q && !memchr(line + i, '\\', (size_t)(q - line) - i)) { /* nearly always: no escape */
        size_t e = (size_t)(q - line);
        for (size_t h = e; h > i; h--) /* the '#' is just before the run's few digits */
            if (line[h - 1] == '#') {
                hash = h - 1;
                break;
            }
        i = e;
    } else {
        for (; i < n && line[i] != '"'; i++) {
            if (line[i] == '\\')
                i++;
            else if (line[i] == '#')
                hash = i;
        }
    }
    if (!hash || i >= n) {
        free(bytes);
        return NULL;
    }
    size_t k = 0;
    for (size_t d = hash + 1; d < i; d++)
        k = k * 10 + (size_t)(line[d] - '0');
    char num[24];
    size_t nl = fsc_u64_fmt(num, (uint64_t)(k + first_run)), ol = i - hash - 1;
    if (nl >= ol && nl - ol < off) { /* the head moves back by the digits added */
        size_t grow = nl - ol;
        memmove(line - grow, line, hash + 1);
        memcpy(line - grow + hash + 1, num, nl);
        bytes[0] = (char)(off - grow);
        return bytes;
    }
    size_t out_len = 1 + hash + 1 + nl + (n - i);
    char *out = malloc(out_len + 1);
    if (out) {
        out[0] = 1;
        memcpy(out + 1, line, hash + 1);
        memcpy(out + 1 + hash + 1, num, nl);
        memcpy(out + 1 + hash + 1 + nl, line + i, n - i);
        out[out_len] = '\0';
        *len = out_len;
    }
    free(bytes);
    return out;
}

static bool jsonl_text(void *vctx, char *bytes, size_t len)
{
    parse_ctx *ctx = vctx;
    size_t off = (unsigned char)bytes[0];
    bool ok = fsc_outfile_give(ctx->out, bytes, off, len - off);
    if (!ok)
        ctx->failed = true;
    return ok;
}

/* Write what a long series left in the buffer and empty it (memory stays flat). */
static bool out_flush(void *vctx, fsc_buf *b)
{
    parse_ctx *ctx = vctx;
    bool ok = !b->oom && fsc_outfile_write(ctx->out, b->data, b->len);
    fsc_buf_reset(b);
    if (!ok)
        ctx->failed = true;
    return ok;
}

/* A run with fio log series: written out while it is serialized. */
static bool jsonl_stream(parse_ctx *ctx, fsc_run *run)
{
    fsc_json_opts o = ctx->jopts;
    o.flush = out_flush;
    o.flush_ctx = ctx;
    fsc_buf b = {0};
    fsc_jw w;
    fsc_jw_init(&w, &b, false, false);
    fsc_model_write_run(&w, run, &o);
    fsc_buf_putc(&b, '\n');
    bool ok = !ctx->failed && out_flush(ctx, &b);
    fsc_buf_free(&b);
    fsc_run_free(run);
    return ok;
}

static bool jsonl_run(void *vctx, fsc_run *run)
{
    if (run->n_series)
        return jsonl_stream(vctx, run);
    size_t len = 0;
    char *bytes = jsonl_render(vctx, run, &len);
    if (!bytes) {
        ((parse_ctx *)vctx)->failed = true;
        return false;
    }
    return jsonl_text(vctx, bytes, len);
}

static bool jsonl_input(void *vctx, const fsc_input_entry *e)
{
    parse_ctx *ctx = vctx;
    fsc_manifest_add(&ctx->manifest, e); /* kept for the exit status only */
    fsc_cli_diag_entry(&ctx->diag, e);
    fsc_jw w;
    fsc_buf_reset(&ctx->line);
    fsc_jw_init(&w, &ctx->line, false, false);
    fsc_jw_obj(&w);
    fsc_jw_key(&w, "input");
    fsc_input_entry_write(&w, e);
    fsc_jw_obj_end(&w);
    fsc_buf_putc(&ctx->line, '\n');
    if (ctx->line.oom || !fsc_outfile_write(ctx->out, ctx->line.data, ctx->line.len)) {
        ctx->failed = true;
        return false;
    }
    return true;
}

/* ---- the JSON document, streamed: runs to the spool as they come ---- */

/* The temporary file the runs move to past SPOOL_MEM: in $TMPDIR (else /tmp),
 * removed at once, so that nothing is left behind whatever happens. */
static FILE *spool_open(parse_ctx *ctx)
{
    const char *dir = getenv("TMPDIR");
    fsc_buf path = {0};
    fsc_buf_printf(&path, "%s/fioscope-parse.XXXXXX", dir && *dir ? dir : "/tmp");
    int fd = path.oom ? -1 : mkstemp(path.data);
    FILE *f = fd >= 0 ? fdopen(fd, "w+") : NULL;
    if (fd >= 0)
        unlink(path.data);
    if (!f) {
        ctx->spool_errno = errno;
        fsc_cli_err("cannot make a temporary file in %s for the runs: %s (set TMPDIR, or use --jsonl)",
                    dir && *dir ? dir : "/tmp", strerror(errno));
        if (fd >= 0)
            close(fd);
    } else if ((ctx->spool_block = malloc((size_t)1 << 18)) != NULL) { /* st_blksize otherwise */
        setvbuf(f, ctx->spool_block, _IOFBF, (size_t)1 << 18);
    }
    fsc_buf_free(&path);
    return f;
}

static bool spool_write(parse_ctx *ctx, const char *s, size_t n)
{
    if (ctx->failed || !n)
        return !ctx->failed;
    if (!ctx->spool && ctx->spool_mem.len + n <= ctx->spool_max) {
        fsc_buf_add(&ctx->spool_mem, s, n);
        if (ctx->spool_mem.oom)
            ctx->failed = true;
        return !ctx->failed;
    }
    if (!ctx->spool) {
        if (!(ctx->spool = spool_open(ctx))) {
            ctx->failed = true;
            return false;
        }
        size_t m = ctx->spool_mem.len;
        if (m && fwrite(ctx->spool_mem.data, 1, m, ctx->spool) != m)
            ctx->failed = true;
        fsc_buf_free(&ctx->spool_mem);
    }
    if (!ctx->failed && fwrite(s, 1, n, ctx->spool) != n)
        ctx->failed = true;
    if (ctx->failed && !ctx->spool_errno) {
        ctx->spool_errno = errno;
        fsc_cli_err("temporary file of the runs: %s", strerror(errno));
    }
    return !ctx->failed;
}

/* What a run with long series left in the buffer, into the spool (memory stays flat). */
static bool spool_flush(void *vctx, fsc_buf *b)
{
    parse_ctx *ctx = vctx;
    bool ok = !b->oom && spool_write(ctx, b->data, b->len);
    fsc_buf_reset(b);
    if (!ok)
        ctx->failed = true;
    return ok;
}

/* The ',' before every run but the first. */
static bool spool_next_run(parse_ctx *ctx)
{
    return !ctx->n_runs++ || spool_write(ctx, ",", 1);
}

/* A run rendered on a worker (jsonl_render with ctx->doc). */
static bool doc_text(void *vctx, char *bytes, size_t len)
{
    parse_ctx *ctx = vctx;
    size_t off = (unsigned char)bytes[0];
    bool ok = spool_next_run(ctx) && spool_write(ctx, bytes + off, len - off);
    free(bytes);
    return ok;
}

/* A run delivered whole (one that waited for its fio logs, or carries their series):
 * written here, its series out while they are serialized. */
static bool doc_run(void *vctx, fsc_run *run)
{
    parse_ctx *ctx = vctx;
    fsc_json_opts o = ctx->jopts;
    o.flush = spool_flush;
    o.flush_ctx = ctx;
    fsc_buf b = {0};
    fsc_jw w;
    doc_writer(&w, &b);
    spool_next_run(ctx); /* a failure stops below (ctx->failed) */
    fsc_model_write_run(&w, run, &o);
    bool ok = !ctx->failed && spool_flush(ctx, &b);
    fsc_buf_free(&b);
    fsc_run_free(run);
    return ok;
}

static bool doc_input(void *vctx, const fsc_input_entry *e)
{
    parse_ctx *ctx = vctx;
    if (!fsc_manifest_add(&ctx->manifest, e))
        return false;
    fsc_cli_diag_entry(&ctx->diag, e);
    return true;
}

/* The document around the spooled runs: fsc_document_write's head and tail. */
static bool doc_finish(parse_ctx *ctx)
{
    fsc_buf b = {0};
    fsc_jw w;
    fsc_jw_init(&w, &b, true, false);
    fsc_document_head(&w, &ctx->manifest);
    bool ok = !b.oom && fsc_outfile_write(ctx->out, b.data, b.len);
    if (!ctx->spool) {
        ok = ok && fsc_outfile_write(ctx->out, ctx->spool_mem.data ? ctx->spool_mem.data : "", ctx->spool_mem.len);
    } else {
        ok = ok && fflush(ctx->spool) == 0 && fseek(ctx->spool, 0, SEEK_SET) == 0;
        char *block = ok ? malloc((size_t)1 << 20) : NULL;
        size_t n;
        ok = block != NULL;
        while (ok && (n = fread(block, 1, (size_t)1 << 20, ctx->spool)) > 0)
            ok = fsc_outfile_write(ctx->out, block, n);
        if (ferror(ctx->spool)) {
            fsc_cli_err("temporary file of the runs: %s", strerror(errno));
            ok = false;
        }
        free(block);
    }
    fsc_buf_reset(&b);
    fsc_document_tail(&w, ctx->n_runs);
    ok = ok && !b.oom && fsc_outfile_write(ctx->out, b.data, b.len);
    fsc_buf_free(&b);
    return ok;
}

/* parse's JSON document, its runs rendered on the workers as they are parsed (as for
 * JSON Lines) and kept as bytes, not as runs: a 200 MB log took 1 GB and 5.7 s the
 * other way. Returns the exit status. */
static int parse_doc_streamed(parse_ctx *ctx, fsc_cli_common *common, const char **paths, size_t n_paths)
{
    ctx->doc = true;
    const char *sb = getenv("FIOSCOPE_SPOOL_BYTES"); /* tests: the temporary file sooner */
    ctx->spool_max = sb ? (size_t)strtoull(sb, NULL, 10) : SPOOL_MEM;
    fsc_buf err = {0};
    fsc_parse_opts po = {.label_from = common->label_from, .each_format = common->each_format};
    fsc_parser *p = fsc_parser_new(&po, &err);
    int rc = FSC_EXIT_INPUT;
    if (!p) {
        fsc_cli_err("cannot load grammars: %s", err.data ? err.data : "?");
    } else {
        fsc_input_sink sink = {doc_run, doc_input, ctx, jsonl_render, doc_text, jsonl_renumber};
        fsc_input_opts io = common->input;
        io.progress = !common->quiet; /* shown only when stderr is a terminal */
        fsc_status st = fsc_inputs_read(paths, n_paths, p, &io, &sink);
        fsc_cli_diag_end(&ctx->diag, &ctx->manifest);
        fsc_cli_summary(common, &ctx->manifest, ctx->diag.shown);
        if (st != FSC_OK && !ctx->failed)
            fsc_cli_err("%s", fsc_strerror(st));
        rc = st != FSC_OK ? FSC_EXIT_INPUT : fsc_cli_exit_status(common, &ctx->manifest, n_paths);
        if (!ctx->failed && !doc_finish(ctx))
            ctx->failed = true;
    }
    fsc_parser_free(p);
    fsc_buf_free(&err);
    if (ctx->spool)
        fclose(ctx->spool);
    free(ctx->spool_block);
    fsc_buf_free(&ctx->spool_mem);
    return rc;
}

/* Write out what the document writer has buffered so far. */
static bool flush_doc(void *vout, fsc_buf *b)
{
    bool ok = fsc_outfile_write(vout, b->data, b->len);
    fsc_buf_reset(b);
    return ok;
}

int fsc_cmd_parse(int argc, char **argv)
{
    fsc_cli_common common = {.input = {.progress = true}};
    const char *output = NULL;
    bool jsonl = false, damage = false;
    const char *format = "json";
    const char **paths = calloc((size_t)argc + 1, sizeof *paths);
    size_t n_paths = 0;
    int rc = FSC_EXIT_OK;
    if (!paths)
        return FSC_EXIT_INPUT;
    bool opts_done = false;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (opts_done || a[0] != '-' || !strcmp(a, "-")) {
            paths[n_paths++] = a;
            continue;
        }
        if (!strcmp(a, "--")) {
            opts_done = true;
            continue;
        }
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            fputs(parse_help, stdout);
            fputs(fsc_cli_common_help, stdout);
            free(paths);
            return FSC_EXIT_OK;
        }
        if (!strcmp(a, "--jsonl")) {
            format = "jsonl";
            continue;
        }
        bool missing = false;
        const char *v = fsc_cli_opt_value(argc, argv, &i, "--format", "-f", &missing);
        if (v || missing) {
            static const char *const formats[] = {"json", "jsonl", "csv", "tsv"};
            if (!v || fsc_cli_bad_value("parse", "--format", v, formats, FSC_ARRAY_SIZE(formats))) {
                free(paths);
                return v ? FSC_EXIT_USAGE : fsc_cli_usage("parse", "%s needs a value", a);
            }
            format = v;
            continue;
        }
        if (!strcmp(a, "--damage")) {
            damage = true;
            continue;
        }
        if (!strcmp(a, "--each-format")) {
            common.each_format = true;
            continue;
        }
        if (!strcmp(a, "-o") || !strcmp(a, "--output")) {
            if (i + 1 >= argc) {
                free(paths);
                return fsc_cli_usage("parse", "%s needs a file name", a);
            }
            output = argv[++i];
            continue;
        }
        if (!strncmp(a, "--output=", 9)) {
            output = a + 9;
            continue;
        }
        int r = fsc_cli_common_opt(&common, argc, argv, &i);
        if (r < 0) {
            free(paths);
            return fsc_cli_usage("parse", "bad option value");
        }
        if (r == 0) {
            free(paths);
            return fsc_cli_unknown_option("parse", a, parse_help, fsc_cli_common_help, NULL);
        }
    }
    if (n_paths == 0) {
        free(paths);
        return fsc_cli_usage("parse", "no INPUT given (use '-' for standard input)");
    }
    jsonl = !strcmp(format, "jsonl");
    bool flat = !strcmp(format, "csv") || !strcmp(format, "tsv");

    fsc_buf oerr = {0};
    fsc_outfile *out = fsc_outfile_open(output, &oerr);
    if (!out) {
        fsc_cli_err("%s", oerr.data ? oerr.data : "cannot open output");
        fsc_buf_free(&oerr);
        free(paths);
        return FSC_EXIT_INPUT;
    }
    parse_ctx ctx = {.out = out, .jopts = {.damage = damage},
                     .diag = {paths, n_paths, common.quiet, 0}};

    if (jsonl) {
        fsc_buf err = {0};
        fsc_parse_opts po = {.label_from = common.label_from, .each_format = common.each_format};
        fsc_parser *p = fsc_parser_new(&po, &err);
        if (!p) {
            fsc_cli_err("cannot load grammars: %s", err.data ? err.data : "?");
            rc = FSC_EXIT_INPUT;
        } else {
            fsc_input_sink sink = {jsonl_run, jsonl_input, &ctx, jsonl_render, jsonl_text, jsonl_renumber};
            fsc_status st = fsc_inputs_read(paths, n_paths, p, &common.input, &sink);
            if (st != FSC_OK && !ctx.failed)
                fsc_cli_err("%s", fsc_strerror(st));
            fsc_cli_diag_end(&ctx.diag, &ctx.manifest);
            fsc_cli_summary(&common, &ctx.manifest, ctx.diag.shown);
            rc = fsc_cli_exit_status(&common, &ctx.manifest, n_paths);
            if (st != FSC_OK)
                rc = FSC_EXIT_INPUT;
        }
        fsc_parser_free(p);
        fsc_buf_free(&err);
    }
    /* --where keeps the runs (it may compare them with each other) */
    bool streamed = !jsonl && !flat && !common.n_where;
    if (streamed)
        rc = parse_doc_streamed(&ctx, &common, paths, n_paths);
    if (!jsonl && !streamed) {
        fsc_runset set;
        fsc_runset_init(&set);
        common.no_ts_stats = true; /* the JSON has the series, not statistics of them */
        int lrc = fsc_cli_load(&common, paths, n_paths, &set, &ctx.manifest);
        rc = lrc < 0 ? FSC_EXIT_INPUT : lrc;
        fsc_buf b = {0};
        fsc_jw w;
        fsc_jw_init(&w, &b, true, false);
        /* long log series are written out while they are serialized */
        fsc_json_opts stream_opts = ctx.jopts;
        stream_opts.flush = out_flush;
        stream_opts.flush_ctx = &ctx;
        if (flat ? fsc_flat_write(&set, format, &b) != FSC_OK
                 : !fsc_document_write(&w, &ctx.manifest, &set, &stream_opts, flush_doc, out))
            ctx.failed = true;
        if (!ctx.failed && !fsc_outfile_write(out, b.data ? b.data : "", b.len))
            ctx.failed = true;
        fsc_buf_free(&b);
        fsc_runset_clear(&set);
    }
    fsc_buf_reset(&oerr);
    if (!fsc_outfile_commit(out, !ctx.failed, &oerr)) {
        fsc_cli_err("%s", oerr.data ? oerr.data : "cannot write output");
        rc = FSC_EXIT_INPUT;
    } else if (ctx.failed) {
        fsc_cli_err("%s", oerr.len ? oerr.data : "cannot write output");
        rc = FSC_EXIT_INPUT;
    }
    fsc_buf_free(&oerr);
    fsc_buf_free(&ctx.line);
    fsc_manifest_free(&ctx.manifest);
    free(paths);
    return rc;
}
