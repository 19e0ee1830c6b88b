/* SPDX-License-Identifier: MIT */
/* The io_uring engine (liburing): one ring per thread, a batch submit per fill. */
#include "engine_int.h"
#include "engine_libs.h"

#ifdef FSC_HAVE_LIBURING
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct uring_state {
    struct io_uring ring;
    unsigned queued;
} uring_state;

static void uring_cleanup(fsc_ioctx *ctx)
{
    uring_state *s = ctx->priv;
    if (!s)
        return;
    io_uring_queue_exit(&s->ring);
    free(s);
    ctx->priv = NULL;
}

static fsc_status uring_init(fsc_ioctx *ctx, char *err, size_t errlen)
{
    uring_state *s = calloc(1, sizeof *s);
    if (!s)
        return FSC_E_NOMEM;
    const char *why;
    if (!fsc_uring_api_open(&why)) {
        snprintf(err, errlen, "%s", why);
        free(s);
        ctx->priv = NULL;
        return FSC_E_UNSUPPORTED;
    }
    int r = io_uring_queue_init(ctx->depth, &s->ring, 0);
    if (r < 0) {
        snprintf(err, errlen,
                 "ioengine=io_uring: io_uring_queue_init failed: %s (the kernel or sandbox does not allow io_uring)",
                 strerror(-r));
        free(s);
        return FSC_E_UNSUPPORTED;
    }
    ctx->priv = s;
    return FSC_OK;
}

static fsc_qres uring_queue(fsc_ioctx *ctx, fsc_io *io)
{
    uring_state *s = ctx->priv;
    struct io_uring_sqe *sqe = io_uring_get_sqe(&s->ring);
    if (!sqe)
        return FSC_Q_BUSY;
    if (io->ddir == FSC_DIR_READ)
        io_uring_prep_read(sqe, io->fd, io->buf, io->len, io->offset);
    else
        io_uring_prep_write(sqe, io->fd, io->buf, io->len, io->offset);
    io_uring_sqe_set_data(sqe, io);
    s->queued++;
    return FSC_Q_QUEUED;
}

static int uring_commit(fsc_ioctx *ctx)
{
    uring_state *s = ctx->priv;
    int r;
    do {
        r = io_uring_submit(&s->ring);
    } while (r == -EINTR || r == -EAGAIN);
    if (r >= 0)
        s->queued = 0;
    return r;
}

static int uring_reap(fsc_ioctx *ctx, unsigned min, fsc_io **done, unsigned max)
{
    uring_state *s = ctx->priv;
    if (min) {
        struct io_uring_cqe *cqe;
        int r;
        do {
            r = __io_uring_get_cqe(&s->ring, &cqe, 0, min, NULL); /* io_uring_wait_cqe_nr's call */
        } while (r == -EINTR || r == -EAGAIN);
        if (r < 0)
            return r;
    }
    unsigned n = 0, head;
    struct io_uring_cqe *cqe;
    io_uring_for_each_cqe(&s->ring, head, cqe)
    {
        if (n == max)
            break;
        fsc_io *io = io_uring_cqe_get_data(cqe);
        io->result = cqe->res;
        done[n++] = io;
    }
    io_uring_cq_advance(&s->ring, n);
    return (int)n;
}

const fsc_ioeng_ops fsc_ioeng_io_uring = {
    .name = "io_uring", .sync = false, .needs_file = true,
    .init = uring_init, .queue = uring_queue, .commit = uring_commit, .reap = uring_reap,
    .cleanup = uring_cleanup,
};
#endif
