/* SPDX-License-Identifier: MIT */
/* `fioscope metrics`: every dimension, metric and flat-export field with its unit
 * and meaning. */
#include "cli.h"
#include "fioscope/metric_list.h"

#include <string.h>

static const char metrics_help[] =
    "usage: fioscope metrics [--format text|json|names]\n"
    "\n"
    "Lists every name the other commands take, with its unit and meaning:\n"
    "dimensions (text of every row: system, rw, bs, ...), metrics (numbers for\n"
    "--metrics, --where, --y: iops, bw, clat.p99, read.clat_ns.mean, ...) and the\n"
    "columns of 'fioscope parse --format csv'. Units are those of csv, tsv and json\n"
    "output: a name means the same unit everywhere (read.bw is KiB/s as in fio's\n"
    "JSON, bw and read.bw_bytes are bytes/s).\n"
    "\n"
    "  -f, --format FMT    text (default); json; names (one concrete name per line,\n"
    "                      DIR and pNN expanded, for scripts and shell completion)\n";

static const char *const formats[] = {"text", "json", "names"};

int fsc_cmd_metrics(int argc, char **argv)
{
    const char *format = "text";
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v;
        bool missing = false;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            fputs(metrics_help, stdout);
            return FSC_EXIT_OK;
        }
        if ((v = fsc_cli_opt_value(argc, argv, &i, "--format", "-f", &missing))) {
            if (fsc_cli_bad_value("metrics", "--format", v, formats, FSC_ARRAY_SIZE(formats)))
                return FSC_EXIT_USAGE;
            format = v;
        } else if (missing) {
            return fsc_cli_usage("metrics", "%s needs a value", a);
        } else if (a[0] == '-') {
            return fsc_cli_unknown_option("metrics", a, metrics_help, NULL);
        } else {
            return fsc_cli_usage("metrics", "takes no INPUT ('%s')", a);
        }
    }
    fsc_buf out = {0};
    fsc_status st = fsc_name_docs_write(&out, format);
    int rc = FSC_EXIT_OK;
    if (st != FSC_OK || !fsc_buf_write(&out, stdout) || fflush(stdout) != 0) {
        fsc_cli_err("metrics: %s", st != FSC_OK ? fsc_strerror(st) : "cannot write output");
        rc = FSC_EXIT_INPUT;
    }
    fsc_buf_free(&out);
    return rc;
}
