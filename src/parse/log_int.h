/* SPDX-License-Identifier: MIT */
/* Private to the log reader: the state of one log file (log_in.c) and the decoder of
 * log_store_compressed files (log_fz.c). */
#ifndef FIOSCOPE_LOG_INT_H
#define FIOSCOPE_LOG_INT_H

#include "fioscope/logs.h"

struct fsc_logfile {
    fsc_logname name; /* prefix points at the owned copy below */
    char *prefix, *path, *member;
    bool hist;         /* a histogram log */
    bool from_binary;  /* decoded from .fz samples: columns named by the decoder */
    unsigned ncols;    /* values per row (0 until the first row) */
    uint32_t n_bins;   /* histogram logs */
    bool usec;         /* histogram bins of fio 2.x (usec layout) */
    unsigned coarseness;
    fsc_logseries **series; /* sections: one, or one per clone of a per_job_logs=0 file */
    size_t n_series, cap_series;
    /* layout evidence, bit i for field i: a value above 1, above 3, printed in hex */
    uint32_t over1, over3, hexmask_seen;
    bool have_t;
    int64_t last_t;
    size_t backwards; /* rows whose time went back (files with a clone number) */
    fsc_warning *warnings;
    size_t n_warnings, cap_warnings, suppressed;
    size_t rows, bad_lines;
    bool first_bad;      /* the first line with text was not a row */
    bool unknown_layout; /* no series: the layout is none of fio's */
    bool unknown_tail;   /* a later piece changed the layout: its rows were dropped */
    uint32_t first_line; /* lines before this piece */
    uint32_t last_line, truncated_line;
    bool finished, oom;
};

/* Warning at a line (log_fz.c). False when out of memory. */
bool fsc_logfile_warn(fsc_logfile *f, uint32_t line, const char *msg);
/* A new section of ncols positional columns (the first call sets f->ncols). */
fsc_logseries *fsc_logfile_section(fsc_logfile *f, unsigned ncols);

/* Does the data start with a zlib stream header (what log_store_compressed writes)? */
bool fsc_logfz_is_zlib(const char *data, size_t len);
/* Decode the zlib chunks of fio's binary samples into f (columns named). Problems
 * become warnings; sets f->oom when memory runs out. */
void fsc_logfz_read(fsc_logfile *f, const unsigned char *data, size_t len);

#endif
