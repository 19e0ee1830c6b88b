/* SPDX-License-Identifier: MIT */
/*
 * The engine's libraries, opened on first use (fioscope/dynlib.h): inih (job files),
 * nettle (md5 and sha256 verify), liburing and libaio (their ioengines). Linked,
 * they were four of the ten shared objects every start of fioscope loaded, about
 * 0.5 ms of a parse of one small log that never runs a job. The files that call them
 * include this header instead of the libraries'; their calls read as before and go
 * through one table per library. Each use opens its library first (X_api_open) and
 * says why when it cannot.
 */
#ifndef FSC_ENGINE_LIBS_H
#define FSC_ENGINE_LIBS_H

#include "fioscope/dynlib.h"

#include <ini.h>
#include <nettle/md5.h>
#include <nettle/sha2.h>

#define FSC_INIH_FUNCS(X, t) X(t, ini_parse_stream)

/* nettle's names are macros for its nettle_* symbols */
#define FSC_NETTLE_FUNCS(X, t) \
    X(t, nettle_md5_digest) \
    X(t, nettle_md5_init) \
    X(t, nettle_md5_update) \
    X(t, nettle_sha256_digest) \
    X(t, nettle_sha256_init) \
    X(t, nettle_sha256_update)

typedef struct fsc_inih_api {
    FSC_INIH_FUNCS(FSC_DYNLIB_SLOT, )
} fsc_inih_api;
extern fsc_inih_api fsc_inih;
bool fsc_inih_api_open(const char **why);
bool fsc_inih_api_is_open(void);

typedef struct fsc_nettle_api {
    FSC_NETTLE_FUNCS(FSC_DYNLIB_SLOT, )
} fsc_nettle_api;
extern fsc_nettle_api fsc_nettle;
bool fsc_nettle_api_open(const char **why);
bool fsc_nettle_api_is_open(void);

#ifdef FSC_HAVE_LIBURING
#include <liburing.h>
/* __io_uring_get_cqe: what liburing's inline io_uring_wait_cqe_nr calls (ioeng_uring.c
 * calls it itself, through the table) */
#define FSC_URING_FUNCS(X, t) \
    X(t, __io_uring_get_cqe) \
    X(t, io_uring_queue_exit) \
    X(t, io_uring_queue_init) \
    X(t, io_uring_submit)
typedef struct fsc_uring_api {
    FSC_URING_FUNCS(FSC_DYNLIB_SLOT, )
} fsc_uring_api;
extern fsc_uring_api fsc_uring;
bool fsc_uring_api_open(const char **why);
bool fsc_uring_api_is_open(void);
#endif

#ifdef FSC_HAVE_LIBAIO
#include <libaio.h>
#define FSC_AIO_FUNCS(X, t) \
    X(t, io_destroy) \
    X(t, io_getevents) \
    X(t, io_setup) \
    X(t, io_submit)
typedef struct fsc_aio_api {
    FSC_AIO_FUNCS(FSC_DYNLIB_SLOT, )
} fsc_aio_api;
extern fsc_aio_api fsc_aio;
bool fsc_aio_api_open(const char **why);
bool fsc_aio_api_is_open(void);
#endif

#ifndef FSC_ENGINE_LIBS_FILL /* the engine's calls go through the tables */
#define ini_parse_stream fsc_inih.ini_parse_stream
#define nettle_md5_digest fsc_nettle.nettle_md5_digest
#define nettle_md5_init fsc_nettle.nettle_md5_init
#define nettle_md5_update fsc_nettle.nettle_md5_update
#define nettle_sha256_digest fsc_nettle.nettle_sha256_digest
#define nettle_sha256_init fsc_nettle.nettle_sha256_init
#define nettle_sha256_update fsc_nettle.nettle_sha256_update
#define __io_uring_get_cqe fsc_uring.__io_uring_get_cqe
#define io_uring_queue_exit fsc_uring.io_uring_queue_exit
#define io_uring_queue_init fsc_uring.io_uring_queue_init
#define io_uring_submit fsc_uring.io_uring_submit
#define io_destroy fsc_aio.io_destroy
#define io_getevents fsc_aio.io_getevents
#define io_setup fsc_aio.io_setup
#define io_submit fsc_aio.io_submit
#endif

#endif
