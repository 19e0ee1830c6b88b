/* SPDX-License-Identifier: MIT */
/* fioscope: git-style subcommand dispatch. */
#include "cli.h"
#include "fioscope/fioscope.h"
#include "fioscope/hugemem.h"

#if defined(__GLIBC__) || defined(__linux__)
#include <malloc.h>
#endif
#include <stdio.h>
#include <string.h>

static const struct {
    const char *name;
    int (*fn)(int argc, char **argv);
    const char *help;
} commands[] = {
    {"parse", fsc_cmd_parse, "normalized JSON (or flat csv/tsv) of every run found"},
    {"table", fsc_cmd_table, "one row per job (or group/label) with chosen metrics"},
    {"compare", fsc_cmd_compare, "BASE -- NEW...: change per metric, matched by label"},
    {"report", fsc_cmd_report, "HTML, Markdown, .xlsx and PNG charts in one folder"},
    {"chart", fsc_cmd_chart, "one PNG chart of any metric"},
    {"series", fsc_cmd_series, "fio log files as time series (CSV), percentiles over time"},
    {"run", fsc_cmd_run, "the built-in I/O engine (fio job files and options)"},
    {"rerun", fsc_cmd_rerun, "DOC: run a document's fio jobs again and compare"},
    {"metrics", fsc_cmd_metrics, "every metric, dimension and field with unit and meaning"},
    {"help", NULL, "help on a command: 'fioscope help table' = 'fioscope table --help'"},
};

static void usage(FILE *f)
{
    fprintf(f, "usage: fioscope COMMAND [OPTIONS] [INPUT...]\n\n"
               "Reads fio output (normal text 2.0-3.x, JSON, terse) from files, directories,\n"
               "archives, documents or '-' and turns it into numbers and reports.\n\ncommands:\n");
    for (size_t i = 0; i < FSC_ARRAY_SIZE(commands); i++)
        fprintf(f, "  %-8s %s\n", commands[i].name, commands[i].help);
    fprintf(f, "\n'fioscope COMMAND --help' (or 'fioscope help COMMAND') describes a command's\n"
               "options; 'man fioscope' has all of them, examples and the exit statuses.\n"
               "Exit status: 0 all inputs read, 1 an input could not be read or held no\n"
               "run, 2 usage error.\n");
}

/* An unknown command: the message, the nearest command, the hint. */
static int unknown_command(const char *name)
{
    const char *names[FSC_ARRAY_SIZE(commands)];
    for (size_t i = 0; i < FSC_ARRAY_SIZE(commands); i++)
        names[i] = commands[i].name;
    const char *near = fsc_nearest(name, names, FSC_ARRAY_SIZE(names), 0);
    if (near)
        fsc_cli_err("unknown command '%s' (did you mean '%s'?)", name, near);
    else
        fsc_cli_err("unknown command '%s'", name);
    fsc_cli_err("try 'fioscope --help' for more information");
    return FSC_EXIT_USAGE;
}

static int dispatch(const char *name, int argc, char **argv)
{
    for (size_t i = 0; i < FSC_ARRAY_SIZE(commands); i++)
        if (commands[i].fn && !strcmp(name, commands[i].name))
            return commands[i].fn(argc, argv);
    return unknown_command(name);
}

int main(int argc, char **argv)
{
#ifdef M_MMAP_THRESHOLD
    /* Big blocks (a huge document, its lines and output) are mapped and given back
     * when freed: glibc would otherwise raise the threshold after the first one and
     * keep them in the heap, where they pile up. (The pieces of a huge file stay
     * just under it, see FSC_PIECE_BYTES, and are reused from the heap.) */
    mallopt(M_MMAP_THRESHOLD, 1 << 20);
    /* Fixing the threshold also fixes the trim threshold at 128 KiB: a parse worker's
     * arena then gave its free top back after every piece and faulted it in again
     * for the next (sysmalloc, grow_heap). Each arena keeps up to 4 MiB free instead:
     * 200 MB of text in pieces, page faults 26k -> 5k, sys 0.11 -> 0.04 s; peak RSS
     * the same (26 MB at -j 1, 33-39 MB at -j 2). */
    mallopt(M_TRIM_THRESHOLD, 4 << 20);
    /* Heaps grow 8 MiB at a time, so that what they grow by is whole 2 MiB blocks that
     * take huge pages (fsc_hugemem_advise_heap, called by the parse workers and the
     * reader): with 4 KiB pages, first touches cost 12-16 us each in a VM with shadow
     * page tables. 100 MB of 2.x text: page faults 4,159 -> 1,284 at -j 1, 200 MB of
     * 3.33 text 8,957 -> 2,547 at -j 2; peak RSS +2-3 MB (mid.txt: 54 -> 56 MB). */
    mallopt(M_TOP_PAD, 8 << 20);
#endif
    fsc_hugemem_use_main_heap();
    if (argc < 2) {
        usage(stderr);
        return FSC_EXIT_USAGE;
    }
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") ||
        (!strcmp(argv[1], "help") && argc == 2)) {
        usage(stdout);
        return FSC_EXIT_OK;
    }
    if (!strcmp(argv[1], "--version")) {
        printf("fioscope %s\n", fioscope_version());
        return FSC_EXIT_OK;
    }
    if (!strcmp(argv[1], "help")) {
        /* 'fioscope help CMD' is 'fioscope CMD --help' */
        if (argc > 3) {
            fsc_cli_err("help takes one COMMAND");
            return FSC_EXIT_USAGE;
        }
        char *hargv[] = {argv[2], (char *)"--help", NULL};
        if (!strcmp(argv[2], "help") || !strcmp(argv[2], "--help") || !strcmp(argv[2], "-h")) {
            usage(stdout);
            return FSC_EXIT_OK;
        }
        return dispatch(argv[2], 2, hargv);
    }
    return dispatch(argv[1], argc - 1, argv + 1);
}
