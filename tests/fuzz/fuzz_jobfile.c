/* SPDX-License-Identifier: MIT */
/* libFuzzer target: bytes as a fio job file for the engine's reader
 * (fsc_jobset_read_file, through a memfd since it reads a path), then the checks and
 * the preamble fio prints from the set. Nothing is run. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* memfd_create (the replay test defines it before its includes) */
#endif
#include "fioscope/buf.h"
#include "fioscope/engine.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#ifndef FUZZ_ENTRY /* the replay test includes several targets under other names */
#define FUZZ_ENTRY LLVMFuzzerTestOneInput
#endif

int FUZZ_ENTRY(const uint8_t *data, size_t size);

int FUZZ_ENTRY(const uint8_t *data, size_t size)
{
    static int fd = -1;
    static char path[64];
    if (fd < 0) {
        fd = memfd_create("jobfile", 0);
        if (fd < 0)
            abort();
        snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
    }
    if (ftruncate(fd, 0) != 0 || (size && pwrite(fd, data, size, 0) != (ssize_t)size))
        abort();
    fsc_jobset js;
    if (!fsc_jobset_init(&js))
        return 0;
    char err[512];
    if (fsc_jobset_read_file(&js, path, err, sizeof err) == FSC_OK &&
        fsc_jobset_check(&js, err, sizeof err) == FSC_OK) {
        fsc_buf out = {0};
        fsc_fio_text_preamble(&out, &js);
        fsc_buf_free(&out);
    }
    fsc_jobset_free(&js);
    return 0;
}
