/* SPDX-License-Identifier: MIT */
/*
 * libarchive, opened on first use (fioscope/dynlib.h): the functions archive.c calls,
 * through one table. archive.c includes this header instead of <archive.h>; its calls
 * read as they always did and go through the table. A plain text never opens it.
 */
#ifndef FSC_ARCHIVE_API_H
#define FSC_ARCHIVE_API_H

#include "fioscope/dynlib.h"

#include <archive.h>
#include <archive_entry.h>

#define FSC_ARCHIVE_FUNCS(X, t) \
    X(t, archive_entry_filetype) \
    X(t, archive_entry_hardlink) \
    X(t, archive_entry_pathname) \
    X(t, archive_entry_pathname_utf8) \
    X(t, archive_entry_size) \
    X(t, archive_entry_size_is_set) \
    X(t, archive_entry_symlink) \
    X(t, archive_errno) \
    X(t, archive_error_string) \
    X(t, archive_filter_bytes) \
    X(t, archive_filter_count) \
    X(t, archive_format) \
    X(t, archive_read_data) \
    X(t, archive_read_free) \
    X(t, archive_read_new) \
    X(t, archive_read_next_header) \
    X(t, archive_read_open1) \
    X(t, archive_read_open_memory) \
    X(t, archive_read_set_callback_data) \
    X(t, archive_read_set_read_callback) \
    X(t, archive_read_set_seek_callback) \
    X(t, archive_read_support_filter_bzip2) \
    X(t, archive_read_support_filter_gzip) \
    X(t, archive_read_support_filter_xz) \
    X(t, archive_read_support_filter_zstd) \
    X(t, archive_read_support_format_raw) \
    X(t, archive_read_support_format_tar) \
    X(t, archive_read_support_format_zip) \
    X(t, archive_set_error)

typedef struct fsc_archive_api {
    FSC_ARCHIVE_FUNCS(FSC_DYNLIB_SLOT, )
} fsc_archive_api;
extern fsc_archive_api fsc_archive;

/* Open libarchive once per process (fsc_dynlib_open): false, with *why set, when it
 * cannot be loaded; and whether that has been done (FSC_DYNLIB_DEFINE, in the .c). */
bool fsc_archive_api_open(const char **why);
bool fsc_archive_api_is_open(void);

#ifndef FSC_ARCHIVE_API_FILL /* the calls of archive.c go through the table */
#define archive_entry_filetype fsc_archive.archive_entry_filetype
#define archive_entry_hardlink fsc_archive.archive_entry_hardlink
#define archive_entry_pathname fsc_archive.archive_entry_pathname
#define archive_entry_pathname_utf8 fsc_archive.archive_entry_pathname_utf8
#define archive_entry_size fsc_archive.archive_entry_size
#define archive_entry_size_is_set fsc_archive.archive_entry_size_is_set
#define archive_entry_symlink fsc_archive.archive_entry_symlink
#define archive_errno fsc_archive.archive_errno
#define archive_error_string fsc_archive.archive_error_string
#define archive_filter_bytes fsc_archive.archive_filter_bytes
#define archive_filter_count fsc_archive.archive_filter_count
#define archive_format fsc_archive.archive_format
#define archive_read_data fsc_archive.archive_read_data
#define archive_read_free fsc_archive.archive_read_free
#define archive_read_new fsc_archive.archive_read_new
#define archive_read_next_header fsc_archive.archive_read_next_header
#define archive_read_open1 fsc_archive.archive_read_open1
#define archive_read_open_memory fsc_archive.archive_read_open_memory
#define archive_read_set_callback_data fsc_archive.archive_read_set_callback_data
#define archive_read_set_read_callback fsc_archive.archive_read_set_read_callback
#define archive_read_set_seek_callback fsc_archive.archive_read_set_seek_callback
#define archive_read_support_filter_bzip2 fsc_archive.archive_read_support_filter_bzip2
#define archive_read_support_filter_gzip fsc_archive.archive_read_support_filter_gzip
#define archive_read_support_filter_xz fsc_archive.archive_read_support_filter_xz
#define archive_read_support_filter_zstd fsc_archive.archive_read_support_filter_zstd
#define archive_read_support_format_raw fsc_archive.archive_read_support_format_raw
#define archive_read_support_format_tar fsc_archive.archive_read_support_format_tar
#define archive_read_support_format_zip fsc_archive.archive_read_support_format_zip
#define archive_set_error fsc_archive.archive_set_error
#endif

#endif
