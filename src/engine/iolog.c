/* SPDX-License-Identifier: MIT */
/* fio's log files (write_bw_log, write_iops_log, write_lat_log, write_hist_log). */
#include "run_int.h"

fsc_status fsc_iolog_open(engine_run *er, worker *w)
{
    (void)er, (void)w;
    return FSC_OK;
}
void fsc_iolog_io(worker *w, const fsc_io *io, uint64_t t)
{
    (void)w, (void)io, (void)t;
}
void fsc_iolog_tick(worker *w, uint64_t t)
{
    (void)w, (void)t;
}
void fsc_iolog_close(worker *w, uint64_t t)
{
    (void)w, (void)t;
}
