/* SPDX-License-Identifier: MIT */
/*
 * The relay of a file read in pieces: each piece hands what its text leaves to the
 * runs below it (fsc_carry: the headings in force, the fio command above) to the
 * next piece, in file order, while the pieces are parsed side by side.
 */
#include "input_int.h"

#include <pthread.h>
#include <stdlib.h>

struct fsc_piece_relay {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    unsigned refs;    /* the reader and each piece that holds it (under mu) */
    size_t submitted; /* pieces given an index (reading thread only) */
    size_t next;      /* the piece whose turn it is to take, then give */
    fsc_carry *state; /* given by piece next - 1, not yet taken */
    bool broken;      /* a piece left without giving: the ones after it get nothing */
};

fsc_piece_relay *fsc_relay_new(void)
{
    fsc_piece_relay *r = calloc(1, sizeof *r);
    if (!r)
        return NULL;
    if (pthread_mutex_init(&r->mu, NULL) != 0) {
        free(r);
        return NULL;
    }
    if (pthread_cond_init(&r->cv, NULL) != 0) {
        pthread_mutex_destroy(&r->mu);
        free(r);
        return NULL;
    }
    r->refs = 1;
    return r;
}

size_t fsc_relay_hold(fsc_piece_relay *r)
{
    pthread_mutex_lock(&r->mu);
    r->refs++;
    pthread_mutex_unlock(&r->mu);
    return r->submitted++;
}

void fsc_relay_release(fsc_piece_relay *r)
{
    if (!r)
        return;
    pthread_mutex_lock(&r->mu);
    bool last = --r->refs == 0;
    pthread_mutex_unlock(&r->mu);
    if (!last)
        return;
    fsc_carry_free(r->state);
    pthread_cond_destroy(&r->cv);
    pthread_mutex_destroy(&r->mu);
    free(r);
}

fsc_carry *fsc_relay_take(fsc_piece_relay *r, size_t index)
{
    pthread_mutex_lock(&r->mu);
    /* the pieces before were taken by workers before this one, and none of them
     * waits for a later piece: the wait ends */
    while (r->next != index && !r->broken)
        pthread_cond_wait(&r->cv, &r->mu);
    fsc_carry *c = r->broken ? NULL : r->state;
    r->state = NULL;
    pthread_mutex_unlock(&r->mu);
    return c;
}

void fsc_relay_give(fsc_piece_relay *r, fsc_carry *end)
{
    pthread_mutex_lock(&r->mu);
    if (r->broken) {
        fsc_carry_free(end);
    } else {
        fsc_carry_free(r->state);
        r->state = end;
        r->next++;
    }
    pthread_cond_broadcast(&r->cv);
    pthread_mutex_unlock(&r->mu);
}

void fsc_relay_break(fsc_piece_relay *r)
{
    pthread_mutex_lock(&r->mu);
    r->broken = true;
    fsc_carry_free(r->state);
    r->state = NULL;
    pthread_cond_broadcast(&r->cv);
    pthread_mutex_unlock(&r->mu);
}
