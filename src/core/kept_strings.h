/* SPDX-License-Identifier: MIT */
/* Strings given back for fsc_strndup to reuse (common.c; private to the core and the
 * model, whose fsc_run_free gives back a run's strings). */
#ifndef FSC_KEPT_STRINGS_H
#define FSC_KEPT_STRINGS_H

#include <stddef.h>

/* Free s, whose strlen + 1 is size (no more than was allocated for it), or keep its
 * block on this thread for the next fsc_strndup of that size; the kept blocks are
 * freed when the thread ends. */
void fsc_str_release(char *s, size_t size);

#endif
