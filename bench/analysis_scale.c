/* SPDX-License-Identifier: MIT */
/*
 * bench/analysis_scale.sh's driver: read INPUT once, then time the analysis stage alone
 * (building the rows and systems, a pivot, a comparison by system) with CPU and wall
 * clocks and the heap it holds. Built by the script against build/'s libraries; not
 * part of ctest. Under callgrind (--instr-atstart=no) only the analysis is counted.
 */
#include "fioscope/analyze.h"
#include "fioscope/compare.h"
#include "fioscope/input.h"
#include "fioscope/parse.h"

#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <valgrind/callgrind.h>

static double now(clockid_t c)
{
    struct timespec t;
    clock_gettime(c, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static bool on_run(void *ctx, fsc_run *run)
{
    return fsc_runset_add(ctx, run);
}

static bool on_input(void *ctx, const fsc_input_entry *e)
{
    (void)ctx;
    (void)e;
    return true;
}

static size_t heap(void)
{
    struct mallinfo2 m = mallinfo2();
    return m.uordblks + m.hblkhd;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: analysis_scale INPUT\n");
        return 2;
    }
    fsc_buf err = {0};
    fsc_parser *p = fsc_parser_new(NULL, &err);
    fsc_runset set;
    fsc_runset_init(&set);
    fsc_input_sink sink = {.run = on_run, .input = on_input, .ctx = &set};
    fsc_input_opts io = {.jobs = 2};
    double t0 = now(CLOCK_MONOTONIC);
    if (!p || fsc_inputs_read((const char *const *)argv + 1, 1, p, &io, &sink) != FSC_OK)
        return 1;
    double t_parse = now(CLOCK_MONOTONIC) - t0;
    size_t h0 = heap();

    CALLGRIND_START_INSTRUMENTATION;
    double w0 = now(CLOCK_MONOTONIC), c0 = now(CLOCK_PROCESS_CPUTIME_ID);
    fsc_analysis *a = fsc_analysis_new(&set, NULL, &err, NULL);
    double w1 = now(CLOCK_MONOTONIC), c1 = now(CLOCK_PROCESS_CPUTIME_ID);
    size_t h1 = heap();
    fsc_mspec iops;
    fsc_mspec_parse("iops", 4, &iops);
    fsc_pivot *pv = a ? fsc_pivot_build(a, &iops, NULL, &err, NULL) : NULL;
    double w2 = now(CLOCK_MONOTONIC), c2 = now(CLOCK_PROCESS_CPUTIME_ID);
    fsc_compare_opts co = {.metrics = "iops,lat", .by = "system"};
    fsc_comparison *cmp = a ? fsc_compare_analysis(a, &co, &err, NULL) : NULL;
    double w3 = now(CLOCK_MONOTONIC), c3 = now(CLOCK_PROCESS_CPUTIME_ID);
    CALLGRIND_STOP_INSTRUMENTATION;
    if (!a || !pv || !cmp) {
        fprintf(stderr, "analysis_scale: %s\n", err.data ? err.data : "?");
        return 1;
    }
    /* runs rows systems pivot-rows cmp-rows parse_s | analysis build, pivot, compare: cpu
     * and wall seconds | heap held by the analysis (bytes) */
    printf("%zu %zu %zu %zu %zu %.3f %.3f %.3f %.3f %.3f %.3f %.3f %zu\n", set.n_runs,
           fsc_analysis_n_rows(a), fsc_analysis_n_systems(a), pv->n_rows, cmp->n_rows, t_parse,
           c1 - c0, w1 - w0, c2 - c1, w2 - w1, c3 - c2, w3 - w2, h1 > h0 ? h1 - h0 : 0);
    fsc_comparison_free(cmp);
    fsc_pivot_free(pv);
    fsc_analysis_free(a);
    fsc_runset_clear(&set);
    fsc_parser_free(p);
    fsc_buf_free(&err);
    return 0;
}
