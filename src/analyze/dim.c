/* SPDX-License-Identifier: MIT */
/* The dimensions of a row: names, one-line meanings, lookup. */
#include "fioscope/analyze.h"

#include <string.h>

static const fsc_dim_info dims[FSC_DIM_COUNT] = {
    [FSC_DIM_SYSTEM] = {"system", "what is compared: input path part, heading, host or job name part"},
    [FSC_DIM_RW] = {"rw", "I/O pattern (rw= of the job): read, randread, randrw ..."},
    [FSC_DIM_BS] = {"bs", "block size the job used, one spelling for every fio version (4k, 1m; 4k,64k: read,write; 4k-64k: a range)"},
    [FSC_DIM_IODEPTH] = {"iodepth", "queue depth (iodepth=; fio's default 1 where the job lists options)"},
    [FSC_DIM_NUMJOBS] = {"numjobs", "jobs of the workload: numjobs=, jobs=N or the number of clones"},
    [FSC_DIM_IOENGINE] = {"ioengine", "I/O engine (libaio, psync, io_uring ...)"},
    [FSC_DIM_DIRECT] = {"direct", "O_DIRECT (1) or buffered (0), where shown"},
    [FSC_DIM_WORKLOAD] = {"workload", "short form of the workload key, e.g. randread 4k qd32 x8"},
    [FSC_DIM_DIR] = {"dir", "direction of the row: read, write, trim, total"},
    [FSC_DIM_LABEL] = {"label", "row label: headings and job name (or file, see --label-from)"},
    [FSC_DIM_FILE] = {"file", "input file (and archive member)"},
    [FSC_DIM_HEADING] = {"heading", "outline headings above the run, outermost first"},
    [FSC_DIM_JOBNAME] = {"jobname", "fio job name"},
    [FSC_DIM_FIO_VERSION] = {"fio_version", "fio version that wrote the output"},
    [FSC_DIM_HOST] = {"host", "host of the run: client/server, or named before its lines (pdsh, grep -H)"},
    [FSC_DIM_REPEAT] = {"repeat", "1, 2 ...: which run of the same system, workload and dir"},
};

const fsc_dim_info *fsc_dim_get(fsc_dim d)
{
    return (unsigned)d < FSC_DIM_COUNT ? &dims[d] : NULL;
}

int fsc_dim_lookup(const char *s, size_t n)
{
    for (int d = 0; d < FSC_DIM_COUNT; d++)
        if (strlen(dims[d].name) == n && !memcmp(dims[d].name, s, n))
            return d;
    return -1;
}

const char *fsc_rowdir_name(int dir)
{
    return dir == FSC_DIR_MIXED ? "total" : dir >= 0 && dir < FSC_DIR_COUNT ? fsc_ddir_name((fsc_ddir)dir) : "";
}
