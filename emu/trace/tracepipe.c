#include "emu/trace/tracepipe.h"

#include <stdbool.h>
#include <stdlib.h>

#include "emu/trace/accring.h"

struct tracepipe {
    mt_unit *u;
    accring *ring; /* to the thread that gives the captures to u */
    mt_sched s;
    bool direct;  /* a register write is pending in u (or the thread has stopped): in line */
    bool stopped; /* the thread has quit (tracepipe_stop) */
    uint64_t accesses, collisions, last_cycle; /* as tracedev counts them */
};

static void model_take(void *ctx, const mt_access *a) { mt_unit_access_cycle(ctx, a); }

static void take_schedule(tracepipe *p)
{
    uint64_t now = p->s.now; /* accesses the model was not given still count as seen */
    p->direct = mt_sched_from_unit(&p->s, p->u) != 0;
    if (!p->direct && now > p->s.now)
        p->s.now = now;
}

tracepipe *tracepipe_create(mt_unit *u, uint64_t last_cycle)
{
    tracepipe *p = calloc(1, sizeof *p);
    if (!p)
        return NULL;
    p->u = u;
    p->last_cycle = last_cycle;
    p->ring = accring_create(model_take, u, "mtemu-model");
    if (!p->ring) {
        free(p);
        return NULL;
    }
    take_schedule(p);
    return p;
}

void tracepipe_stop(tracepipe *p)
{
    if (!p || p->stopped)
        return;
    accring_stop(p->ring);
    p->stopped = true;
    p->direct = true; /* from now on every access in line (nothing can be queued) */
}

void tracepipe_destroy(tracepipe *p)
{
    if (!p)
        return;
    tracepipe_stop(p);
    accring_destroy(p->ring);
    free(p);
}

uint64_t tracepipe_due(const tracepipe *p)
{
    return p->direct ? mt_unit_next_due(p->u) : mt_sched_due(&p->s);
}

/* In line, as tracedev's model listener does it: while a register write is pending in u, and
 * after the thread has stopped. Nothing is queued then (the pipe was synced before the write). */
static uint64_t give_direct(tracepipe *p, const mt_access *a)
{
    mt_unit *u = p->u;
    if (a->cycle >= mt_unit_next_due(u) && a->tap == mt_unit_tap(u)) {
        if (a->cycle < p->last_cycle || a->cycle < u->now) {
            p->collisions++;
        } else {
            p->last_cycle = a->cycle + 1;
            p->accesses++;
            mt_unit_access_cycle(u, a);
            if (!p->stopped)
                take_schedule(p);
        }
    }
    return tracepipe_due(p);
}

uint64_t tracepipe_listener(void *ctx, const mt_access *a)
{
    tracepipe *p = ctx;
    if (p->direct)
        return give_direct(p, a);
    /* the CPU calls from the due cycle on; the unit takes one access per cycle, of its tap */
    if (a->cycle < mt_sched_due(&p->s) || a->tap != p->s.tap)
        return mt_sched_due(&p->s);
    if (a->cycle < p->last_cycle || a->cycle < p->s.now) {
        p->collisions++;
        return mt_sched_due(&p->s);
    }
    p->last_cycle = a->cycle + 1;
    p->accesses++;
    if (mt_sched_access(&p->s, a))
        accring_push(p->ring, a);
    return mt_sched_due(&p->s);
}

void tracepipe_sync(tracepipe *p)
{
    if (!p->stopped)
        accring_sync(p->ring);
}

void tracepipe_resume(tracepipe *p)
{
    if (!p->stopped)
        take_schedule(p);
}

tracepipe_stats tracepipe_counts(const tracepipe *p)
{
    accring_stats r = accring_counts(p->ring);
    return (tracepipe_stats){.accesses = p->accesses, .collisions = p->collisions, .last_cycle = p->last_cycle,
                             .queued = r.pushed, .waits = r.waits, .consumer_seconds = r.consumer_seconds};
}
