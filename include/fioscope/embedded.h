/* SPDX-License-Identifier: MIT */
/* Files compiled into the binary (grammars/, templates/), NUL-terminated. */
#ifndef FIOSCOPE_EMBEDDED_H
#define FIOSCOPE_EMBEDDED_H

#include <stddef.h>

struct fsc_embedded {
    const char *name; /* file name without directory; NULL ends the table */
    const char *data;
    size_t size;
};

extern const struct fsc_embedded fsc_grammar_files[];
extern const struct fsc_embedded fsc_template_files[];

#endif
