/* SPDX-License-Identifier: MIT */
/* fioscope: git-style subcommand dispatch. */
#include "cli.h"

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
    {"parse", fsc_cmd_parse, "normalized JSON of every run found"},
    {"table", fsc_cmd_table, "one row per job (or group/label) with chosen metrics"},
    {"compare", fsc_cmd_compare, "BASE -- NEW...: change per metric, matched by label"},
    {"report", fsc_cmd_report, "HTML, Markdown, .xlsx and PNG charts in one folder"},
    {"chart", fsc_cmd_chart, "one PNG chart of any metric"},
    {"run", fsc_cmd_run, "the built-in I/O engine (fio job files and options)"},
};

static void usage(FILE *f)
{
    fprintf(f, "usage: fioscope COMMAND [OPTIONS] [INPUT...]\n\n"
               "Reads fio output (normal text 2.0-3.x, JSON, terse) from files, directories,\n"
               "archives, documents or '-' and turns it into numbers and reports.\n\ncommands:\n");
    for (size_t i = 0; i < FSC_ARRAY_SIZE(commands); i++)
        fprintf(f, "  %-8s %s\n", commands[i].name, commands[i].help);
    fprintf(f, "\n'fioscope COMMAND --help' describes a command's options.\n");
}

int main(int argc, char **argv)
{
#ifdef M_MMAP_THRESHOLD
    /* Big blocks (the pieces of a huge file, their lines and output) are mapped and
     * given back when freed: glibc would otherwise raise the threshold after the
     * first one and keep them in the heap, where they pile up. */
    mallopt(M_MMAP_THRESHOLD, 1 << 20);
#endif
    if (argc < 2) {
        usage(stderr);
        return FSC_EXIT_USAGE;
    }
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
        usage(stdout);
        return FSC_EXIT_OK;
    }
    if (!strcmp(argv[1], "--version")) {
        printf("fioscope %s\n", FSC_VERSION);
        return FSC_EXIT_OK;
    }
    for (size_t i = 0; i < FSC_ARRAY_SIZE(commands); i++)
        if (!strcmp(argv[1], commands[i].name))
            return commands[i].fn(argc - 1, argv + 1);
    fsc_cli_err("unknown command '%s'", argv[1]);
    fsc_cli_err("try 'fioscope --help' for more information");
    return FSC_EXIT_USAGE;
}
