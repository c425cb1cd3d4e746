#include "emu/trace/tracepipe.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>

#include "emu/trace/accring.h"

/* Captures gathered before they go to the thread or the model: a batch moves the schedule's
 * work out of the model's way and keeps the last capture takeable back (cpu.h cpu_sampler). */
#define PIPE_BATCH 256u

struct tracepipe {
    mt_unit *u;
    accring *ring; /* to the thread that gives the captures to u; NULL: the batch goes to u in line */
    mt_sched s;
    cpu_sampler smp; /* the schedule and the batch, as the CPU's runs interpreter feeds them too */
    bool direct;  /* a register write is pending in u (or the thread has stopped): in line */
    bool stopped; /* the thread has quit (tracepipe_stop) */
    uint64_t collisions; /* as tracedev counts them (accesses, last_cycle: in smp) */
    accring_entry batch[PIPE_BATCH];
};

static void model_take(void *ctx, const mt_access *a) { mt_unit_access_cycle(ctx, a); }

/* With the thread the batch is the ring's own room (accring_claim_entries): a flush commits it
 * and claims the next, so a capture is written once, where the consumer reads it (the copy of
 * a 256-entry batch cost ~4 host instructions a capture on bench_cpu, callgrind). */
static void claim_batch(tracepipe *p)
{
    unsigned got;
    p->smp.batch = p->smp.wp = accring_claim_entries(p->ring, PIPE_BATCH, &got);
    p->smp.wend = p->smp.batch + got;
}

static void flush_batch(cpu_sampler *smp)
{
    tracepipe *p = (tracepipe *)((char *)smp - offsetof(tracepipe, smp));
    cpu_sampler_settle(smp); /* its newest lazy capture is about to leave the batch */
    if (p->ring && !p->stopped) {
        accring_commit_entries(p->ring, (unsigned)(smp->wp - smp->batch));
        claim_batch(p);
        return;
    }
    for (uint32_t i = 0; i < (uint32_t)(smp->wp - smp->batch); i++) {
        const mt_access a = accring_unpack(&smp->batch[i]);
        mt_unit_access_cycle(p->u, &a);
    }
    smp->wp = smp->batch;
}

static void set_direct(tracepipe *p, bool direct)
{
    p->smp.plain_due = UINT64_MAX; /* the schedule may have moved: not known to be plain */
    p->direct = direct;
    p->smp.usable = !direct && p->s.active && (p->s.kind_mask & (1u << MT_KIND_FETCH)) && p->s.tap == MT_TAP_CORE;
}

static void take_schedule(tracepipe *p)
{
    uint64_t now = p->s.now; /* accesses the model was not given still count as seen */
    set_direct(p, mt_sched_from_unit(&p->s, p->u) != 0);
    if (!p->direct && now > p->s.now)
        p->s.now = now;
}

tracepipe *tracepipe_create(mt_unit *u, uint64_t last_cycle, bool thread)
{
    tracepipe *p = calloc(1, sizeof *p);
    if (!p)
        return NULL;
    p->u = u;
    p->smp = (cpu_sampler){.sched = &p->s, .batch = p->batch, .wp = p->batch, .wend = p->batch + PIPE_BATCH,
                           .flush = flush_batch,
                           .last_cycle = last_cycle, .data_due = UINT64_MAX,
                           .plain_due = UINT64_MAX};
    if (thread) {
        p->ring = accring_create(model_take, u, "mtemu-model");
        if (!p->ring) {
            free(p);
            return NULL;
        }
        claim_batch(p);
    }
    take_schedule(p);
    return p;
}

cpu_sampler *tracepipe_sampler(tracepipe *p) { return &p->smp; }
bool tracepipe_threaded(const tracepipe *p) { return p->ring != NULL; }

void tracepipe_stop(tracepipe *p)
{
    if (!p || p->stopped)
        return;
    flush_batch(&p->smp);
    if (p->ring)
        accring_stop(p->ring);
    p->stopped = true;
    /* the last claim's room is the ring's: nothing is appended after this (in line from now
     * on), but the batch must not point there once the ring is freed */
    p->smp.batch = p->smp.wp = p->batch;
    p->smp.wend = p->batch + PIPE_BATCH;
    set_direct(p, true); /* from now on every access in line (nothing can be queued) */
}

void tracepipe_destroy(tracepipe *p)
{
    if (!p)
        return;
    tracepipe_stop(p);
    if (p->ring)
        accring_destroy(p->ring);
    free(p);
}

uint64_t tracepipe_due(tracepipe *p)
{
    cpu_sampler_settle(&p->smp);
    return p->direct ? mt_unit_next_due(p->u) : mt_sched_due(&p->s);
}

/* In line, as tracedev's model listener does it: while a register write is pending in u, and
 * after the thread has stopped. Nothing is queued then (the pipe was synced before the write). */
static uint64_t give_direct(tracepipe *p, const mt_access *a)
{
    mt_unit *u = p->u;
    if (a->cycle >= mt_unit_next_due(u))
        mt_unit_settle(u, a->cycle); /* a pending write (TAP, ENABLE) applied before the tap test */
    if (a->cycle >= mt_unit_next_due(u) && a->tap == mt_unit_tap(u)) {
        if (a->cycle < p->smp.last_cycle || a->cycle < u->now) {
            p->collisions++;
        } else {
            p->smp.last_cycle = a->cycle + 1;
            p->smp.accesses++;
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
    cpu_sampler_settle(&p->smp); /* cpu_access_due did; other callers (tracedev) may not */
    p->smp.plain_due = UINT64_MAX; /* the CPU plans again from what this leaves (cpu_access_due) */
    if (p->direct)
        return give_direct(p, a);
    /* the CPU calls from the due cycle on; the unit takes one access per cycle, of its tap */
    if (a->cycle < mt_sched_due(&p->s) || a->tap != p->s.tap)
        return mt_sched_due(&p->s);
    if (a->cycle < p->smp.last_cycle || a->cycle < p->s.now) {
        p->collisions++;
        return mt_sched_due(&p->s);
    }
    p->smp.last_cycle = a->cycle + 1;
    p->smp.accesses++;
    if (mt_sched_access(&p->s, a))
        cpu_sampler_append(&p->smp, a);
    return mt_sched_due(&p->s);
}

void tracepipe_sync(tracepipe *p)
{
    if (p->stopped)
        return;
    flush_batch(&p->smp);
    if (p->ring)
        accring_sync(p->ring);
}

void tracepipe_resume(tracepipe *p)
{
    cpu_sampler_settle(&p->smp);
    if (!p->stopped)
        take_schedule(p);
}

tracepipe_stats tracepipe_counts(tracepipe *p)
{
    cpu_sampler_settle(&p->smp);
    accring_stats r = p->ring ? accring_counts(p->ring) : (accring_stats){0};
    return (tracepipe_stats){.accesses = p->smp.accesses + p->smp.fast, .collisions = p->collisions,
                             .last_cycle = p->smp.last_cycle, .queued = r.pushed, .waits = r.waits,
                             .consumer_seconds = r.consumer_seconds, .fast = p->smp.fast,
                             .taken_back = p->smp.taken_back, .data_ahead = p->smp.data_ahead};
}
