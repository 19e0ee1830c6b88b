/* SPDX-License-Identifier: MIT */
/* The synchronous engines: psync (pread/pwrite) and null (no I/O at all, to measure
 * the framework itself), plus the engine registry. */
#include "engine_int.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>

static fsc_status sync_init(fsc_ioctx *ctx, char *err, size_t errlen)
{
    (void)ctx, (void)err, (void)errlen;
    return FSC_OK;
}

static void sync_cleanup(fsc_ioctx *ctx)
{
    (void)ctx;
}

static fsc_qres psync_queue(fsc_ioctx *ctx, fsc_io *io)
{
    (void)ctx;
    ssize_t r = io->ddir == FSC_DIR_READ ? pread(io->fd, io->buf, io->len, (off_t)io->offset)
                                         : pwrite(io->fd, io->buf, io->len, (off_t)io->offset);
    io->result = r < 0 ? -(int64_t)errno : (int64_t)r;
    return FSC_Q_DONE;
}

static fsc_qres null_queue(fsc_ioctx *ctx, fsc_io *io)
{
    (void)ctx;
    io->result = io->len;
    return FSC_Q_DONE;
}

const fsc_ioeng_ops fsc_ioeng_psync = {
    .name = "psync", .sync = true, .needs_file = true,
    .init = sync_init, .queue = psync_queue, .cleanup = sync_cleanup,
};

const fsc_ioeng_ops fsc_ioeng_null = {
    .name = "null", .sync = true, .needs_file = false,
    .init = sync_init, .queue = null_queue, .cleanup = sync_cleanup,
};

static const fsc_ioeng_ops *const registry[] = {
    &fsc_ioeng_psync,
#ifdef FSC_HAVE_LIBAIO
    &fsc_ioeng_libaio,
#endif
#ifdef FSC_HAVE_LIBURING
    &fsc_ioeng_io_uring,
#endif
    &fsc_ioeng_null,
};

static const char *const names[] = {
    "psync",
#ifdef FSC_HAVE_LIBAIO
    "libaio",
#endif
#ifdef FSC_HAVE_LIBURING
    "io_uring",
#endif
    "null", NULL,
};

const char *const *fsc_engine_names(void)
{
    return names;
}

const fsc_ioeng_ops *fsc_ioeng_find(const char *name)
{
    for (size_t i = 0; i < FSC_ARRAY_SIZE(registry); i++)
        if (!strcmp(registry[i]->name, name))
            return registry[i];
    return NULL;
}
