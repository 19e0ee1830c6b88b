/* SPDX-License-Identifier: MIT */
/*
 * Shared libraries opened on first use. Charts (pango and cairo), archives
 * (libarchive) and workbooks (libxlsxwriter) pull in 48 of the 59 shared objects the
 * program loaded at every start: 20 to 40 ms of dynamic loading and relocation before
 * a small file was read, for commands that never draw, unpack or write a workbook.
 *
 * A user of such a library lists the functions it calls in its own *_api.h (an
 * X-macro), declares a table of them (FSC_DYNLIB_SLOT: pointers of each function's
 * own type) and redirects the names to the table, so that its calls read as before;
 * FSC_DYNLIB_DEFINE in its *_api.c defines the table and the function that opens the
 * library. fsc_dynlib_open opens it once, from any thread, and fills the table through
 * fsc_dynlib_sym; afterwards the answer is cached. Nothing is ever closed: the
 * handles live as long as the process. See src/input/archive_api.h.
 */
#ifndef FIOSCOPE_DYNLIB_H
#define FIOSCOPE_DYNLIB_H

#include "fioscope/common.h"

#include <stdatomic.h>

#ifdef __cplusplus
extern "C" {
#endif

#define FSC_DYNLIB_MAX 4 /* shared objects searched for one library's functions */

typedef struct fsc_dynlib {
    const char *what;                      /* what needs it ("charts"), for the error */
    const char *sonames[FSC_DYNLIB_MAX];   /* opened in order, NULL-padded */
    void *handles[FSC_DYNLIB_MAX];         /* private */
    atomic_int state;                      /* private: 0 not tried, 1 open, 2 failed */
    char error[400];                       /* private: why it failed */
} fsc_dynlib;

/* Opens lib's shared objects and calls fill(lib), once per process; fill looks every
 * function up with fsc_dynlib_sym and returns false when one is missing. True when
 * the library is usable; else *why (when why is not NULL) is the reason, one line
 * naming the library, what needs it and the Debian package that ships it ("charts
 * need libpangocairo-1.0.so.0, which cannot be loaded (on Debian: apt install
 * libpangocairo-1.0-0): ..."), owned by lib and valid for the process' life.
 * Thread-safe. */
bool fsc_dynlib_open(fsc_dynlib *lib, bool (*fill)(fsc_dynlib *lib), const char **why);

/* Whether fsc_dynlib_open has succeeded already (no attempt is made). */
bool fsc_dynlib_is_open(fsc_dynlib *lib);

/* The address of the function name in lib's shared objects, searched in order (and
 * in what they depend on); NULL, with the reason kept for fsc_dynlib_open, when none
 * has it. Only for fill functions. */
void *fsc_dynlib_sym(fsc_dynlib *lib, const char *name);

/* The function lists are X-macros called as LIST(X, table), each entry X(table, f). */

/* A table entry: a pointer of the function's own type, named as the function. */
#define FSC_DYNLIB_SLOT(table, f) __typeof__(&f) f;

/* In a fill function of lib: table.f is the library's f, or the fill returns false.
 * (POSIX gives data and function pointers one size, as dlsym needs.) */
#define FSC_DYNLIB_FILL(table, f)                                                                \
    do {                                                                                         \
        void *fsc_p_ = fsc_dynlib_sym(lib, #f);                                                  \
        if (!fsc_p_)                                                                             \
            return false;                                                                        \
        memcpy(&(table).f, &fsc_p_, sizeof fsc_p_);                                              \
    } while (0);

/* Defines, in the one file that fills it, the table `table` (of type table##_api, its
 * functions listed by the X-macro funcs), the library it comes from (what needs it, and
 * its sonames) and the two functions its header declares:
 *   bool table##_api_open(const char **why);  opens it once (see fsc_dynlib_open)
 *   bool table##_api_is_open(void);           whether that has succeeded */
#define FSC_DYNLIB_DEFINE(table, funcs, needed_by, ...)                                          \
    table##_api table;                                                                           \
    static fsc_dynlib table##_lib = {.what = needed_by, .sonames = {__VA_ARGS__}};               \
    static bool table##_fill(fsc_dynlib *lib)                                                    \
    {                                                                                            \
        funcs(FSC_DYNLIB_FILL, table) return true;                                               \
    }                                                                                            \
    bool table##_api_open(const char **why)                                                      \
    {                                                                                            \
        return fsc_dynlib_open(&table##_lib, table##_fill, why);                                 \
    }                                                                                            \
    bool table##_api_is_open(void)                                                               \
    {                                                                                            \
        return fsc_dynlib_is_open(&table##_lib);                                                 \
    }

#ifdef __cplusplus
}
#endif

#endif
