/* SPDX-License-Identifier: MIT */
/* The libaio engine: io_submit batches of iocbs, io_getevents for completions. */
#include "engine_int.h"
#include "engine_libs.h"

#ifdef FSC_HAVE_LIBAIO
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct aio_state {
    io_context_t ctx;
    struct iocb *iocbs;   /* one per depth slot */
    struct iocb **pending; /* queued, not yet submitted */
    unsigned n_pending, next_slot;
    struct io_event *events;
} aio_state;

static void aio_cleanup(fsc_ioctx *ctx)
{
    aio_state *s = ctx->priv;
    if (!s)
        return;
    if (s->ctx)
        io_destroy(s->ctx);
    free(s->iocbs);
    free(s->pending);
    free(s->events);
    free(s);
    ctx->priv = NULL;
}

static fsc_status aio_init(fsc_ioctx *ctx, char *err, size_t errlen)
{
    aio_state *s = calloc(1, sizeof *s);
    if (!s)
        return FSC_E_NOMEM;
    ctx->priv = s;
    s->iocbs = calloc(ctx->depth, sizeof *s->iocbs);
    s->pending = calloc(ctx->depth, sizeof *s->pending);
    s->events = calloc(ctx->depth, sizeof *s->events);
    if (!s->iocbs || !s->pending || !s->events) {
        aio_cleanup(ctx);
        return FSC_E_NOMEM;
    }
    const char *why;
    if (!fsc_aio_api_open(&why)) {
        snprintf(err, errlen, "%s", why);
        aio_cleanup(ctx);
        return FSC_E_UNSUPPORTED;
    }
    int r = io_setup((int)ctx->depth, &s->ctx);
    if (r < 0) {
        s->ctx = 0;
        snprintf(err, errlen, "ioengine=libaio: io_setup failed: %s (the kernel or sandbox does not allow libaio)",
                 strerror(-r));
        aio_cleanup(ctx);
        return FSC_E_UNSUPPORTED;
    }
    return FSC_OK;
}

static fsc_qres aio_queue(fsc_ioctx *ctx, fsc_io *io)
{
    aio_state *s = ctx->priv;
    if (s->n_pending == ctx->depth)
        return FSC_Q_BUSY;
    struct iocb *cb = &s->iocbs[s->next_slot];
    s->next_slot = (s->next_slot + 1) % ctx->depth;
    if (io->ddir == FSC_DIR_READ)
        io_prep_pread(cb, io->fd, io->buf, io->len, (long long)io->offset);
    else
        io_prep_pwrite(cb, io->fd, io->buf, io->len, (long long)io->offset);
    cb->data = io;
    s->pending[s->n_pending++] = cb;
    return FSC_Q_QUEUED;
}

static int aio_commit(fsc_ioctx *ctx)
{
    aio_state *s = ctx->priv;
    unsigned done = 0;
    while (done < s->n_pending) {
        int r = io_submit(s->ctx, (long)(s->n_pending - done), s->pending + done);
        if (r == -EAGAIN || r == -EINTR)
            continue;
        if (r < 0)
            return r;
        done += (unsigned)r;
    }
    s->n_pending = 0;
    return (int)done;
}

static int aio_reap(fsc_ioctx *ctx, unsigned min, fsc_io **done, unsigned max)
{
    aio_state *s = ctx->priv;
    if (max > ctx->depth)
        max = ctx->depth;
    int r;
    do {
        r = io_getevents(s->ctx, (long)min, (long)max, s->events, NULL);
    } while (r == -EINTR);
    if (r < 0)
        return r;
    for (int i = 0; i < r; i++) {
        fsc_io *io = s->events[i].data;
        long res = (long)s->events[i].res;
        io->result = res;
        done[i] = io;
    }
    return r;
}

const fsc_ioeng_ops fsc_ioeng_libaio = {
    .name = "libaio", .sync = false, .needs_file = true,
    .init = aio_init, .queue = aio_queue, .commit = aio_commit, .reap = aio_reap, .cleanup = aio_cleanup,
};
#endif
