/* SPDX-License-Identifier: MIT */
/*
 * fio's rounding slip. From fio 2.17 to 3.25, num2str printed a value whose fraction
 * rounds up to a whole unit with the fraction's zeros and without the carry: 50.97
 * MiB/s came out "50.0MiB/s" (fixed in fio 3.26, commit "num2str: fix precision loss
 * bug when the fractional part is close to 1"). About one value in twenty printed
 * with one decimal. fio prints most rates and sizes twice, in IEC and SI units
 * ("BW=50.0MiB/s (53.4MB/s)"), one of them slipped at most: the other says which, and
 * what fio meant. These functions find the pairs of a result line and tell how to
 * put a slipped first value right. Reads only the line's text: the pattern path and
 * the fast path ask the same question of the same bytes.
 */
#ifndef FIOSCOPE_NUMSLIP_H
#define FIOSCOPE_NUMSLIP_H

#include <stdbool.h>
#include <stddef.h>

/* A value of a result line that fio printed slipped. */
typedef struct fsc_slip {
    int field;       /* FSC_SLIP_* */
    double shown_n;  /* N of "N.0", as printed */
    double meant_n;  /* N + 1, as fio meant it: the value as read / N * (N + 1) */
    char shown[24];  /* the value as printed ("50.0MiB/s") */
    char meant[24];  /* as fio meant it ("51.0MiB/s") */
    char other[40];  /* the value beside it that tells ("53.4MB/s", "55.8GB/s over 301ms") */
} fsc_slip;

enum { FSC_SLIP_BW, FSC_SLIP_BW_MIN, FSC_SLIP_BW_MAX, FSC_SLIP_IO, FSC_SLIP_FIELDS };

/* The slipped values of a job's direction line s[0, n) ("read: IOPS=..., BW=A (B)(IO/Tmsec)":
 * its bandwidth, and its bytes where the bandwidth over T says so)
 * or a group's (group: "READ: bw=A (B), Amin-Amax (Bmin-Bmax), io=X (Y), ..."), at
 * most FSC_SLIP_FIELDS, in out; returns how many. None where the pair agrees, where
 * the first value's fraction is not all zeros (no slip prints a 1 there) or where
 * N+1 does not agree with its pair either (something else is amiss: left alone). */
size_t fsc_slips_of_line(const char *s, size_t n, int group, fsc_slip *out);

/* A count fio printed for a direction's IOPS ("IOPS=10.0k"): N, in units of mult. */
typedef struct fsc_count_slip {
    double shown_n, meant_n, mult;
    unsigned decimals;
    char shown[24]; /* "IOPS=10.0k" */
    char meant[24]; /* "11.0k" */
} fsc_count_slip;

/* The IOPS of a job's direction line s[0, n), when they may have slipped ("IOPS=N.0k":
 * all decimals 0): true, and c. Their pair is not on the line: fio's own count of
 * the direction's I/Os, on its "issued rwts" line, over the runtime. */
bool fsc_iops_may_slip(const char *s, size_t n, fsc_count_slip *c);

/* Did they slip, given the I/Os and the runtime (ms): N does not agree and N+1 does? */
bool fsc_iops_slipped(const fsc_count_slip *c, double ios, double runtime_ms);

/* Could the fio of version text v ("fio-3.13", "3.13", NULL: not known) slip? */
int fsc_slip_version(const char *v);

#endif
