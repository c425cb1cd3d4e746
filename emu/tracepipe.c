#include "emu/tracepipe.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#if defined(__x86_64__) || defined(__i386__)
#define cpu_relax() __builtin_ia32_pause()
#else
#define cpu_relax() ((void)0)
#endif

/* A single-producer, single-consumer ring. The producer publishes its head every PUBLISH_EVERY
 * accesses (and at a sync), so the shared lines move between the cores once per batch, and the
 * consumer reads lines the producer has finished with (measured on bench_cpu's burst: publishing
 * every 64 accesses cost 10% more than every 1024). */
#define RING_SIZE (1u << 16)
#define PUBLISH_EVERY 1024u
#define DONE_EVERY 1024u
#define CONSUMER_POLL_NS 200000u /* the consumer polls this long with nothing to do, then sleeps */
#define PREFETCH_AHEAD 32u  /* entries (8 lines) the producer claims its lines ahead of writing */

/* An access in 16 bytes, four to a cache line: the line transfers between the cores are what the
 * queue costs, so fewer lines per access is most of its speed. */
typedef struct {
    uint64_t cycle;
    uint64_t bits; /* addr[55:0], write 56, kind 59:57, tap 60, log2(size) 63:61 */
} packed_access;

static inline packed_access pack(const mt_access *a)
{
    unsigned size_log2 = a->size ? (unsigned)__builtin_ctz(a->size) & 7 : 0;
    return (packed_access){a->cycle, (a->addr & MT_PADDR_MASK) | (uint64_t)(a->write & 1) << 56 |
                                         (uint64_t)(a->kind & 7) << 57 | (uint64_t)(a->tap & 1) << 60 |
                                         (uint64_t)size_log2 << 61};
}

static inline mt_access unpack(const packed_access *e)
{
    return (mt_access){.cycle = e->cycle, .addr = e->bits & MT_PADDR_MASK, .write = (uint8_t)(e->bits >> 56 & 1),
                       .kind = (uint8_t)(e->bits >> 57 & 7), .tap = (uint8_t)(e->bits >> 60 & 1),
                       .size = (uint8_t)(1u << (e->bits >> 61))};
}

/* The producer's fields, the consumer's and each shared counter on lines of their own: the
 * consumer must not pull the line the producer writes per access. */
struct tracepipe {
    mt_unit *u;
    packed_access *ring;
    /* producer's */
    _Alignas(64) mt_sched s;
    bool direct;  /* a register write is pending in u: accesses go to u in line */
    bool stopped; /* the consumer has quit (tracepipe_stop) */
    uint64_t head, tail_seen, queued, waits;
    uint64_t accesses, collisions, last_cycle; /* as tracedev counts them */
    double consumer_seconds; /* the consumer's CPU time, written as it quits */
    /* shared */
    _Alignas(64) _Atomic uint64_t published;
    _Alignas(64) _Atomic uint64_t done;
    _Alignas(64) _Atomic int sleeping, quit;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    pthread_t thread;
};

static uint64_t monotonic_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void *consumer(void *arg)
{
    tracepipe *p = arg;
    mt_unit *const u = p->u;
    const packed_access *const ring = p->ring;
    uint64_t tail = 0;
    pthread_setname_np(pthread_self(), "mtemu-model"); /* for top and perf */
    for (;;) {
        uint64_t head = atomic_load_explicit(&p->published, memory_order_acquire);
        if (head == tail) {
            /* Poll for a while before sleeping: waking a sleeping thread can take milliseconds
             * on a virtual machine (its CPU halted), in which the producer fills the ring. */
            uint64_t idle_from = monotonic_ns();
            for (unsigned spins = 1; (head = atomic_load_explicit(&p->published, memory_order_acquire)) == tail; spins++) {
                cpu_relax();
                if ((spins & 255) == 0 && monotonic_ns() - idle_from > CONSUMER_POLL_NS)
                    break;
            }
            if (head == tail) {
                /* sleeping before the check, the producer's publish before its check of sleeping:
                 * one of the two sees the other (sequentially consistent), no wake-up is lost */
                atomic_store(&p->sleeping, 1);
                pthread_mutex_lock(&p->mu);
                while ((head = atomic_load(&p->published)) == tail && !atomic_load(&p->quit))
                    pthread_cond_wait(&p->cv, &p->mu);
                pthread_mutex_unlock(&p->mu);
                atomic_store(&p->sleeping, 0);
                if (head == tail) { /* quit, with everything taken */
                    struct timespec ts;
                    if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) == 0)
                        p->consumer_seconds = (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
                    return NULL;
                }
            }
        }
        while (tail != head) {
            const mt_access a = unpack(&ring[tail & (RING_SIZE - 1)]);
            mt_unit_access_cycle(u, &a);
            if ((++tail & (DONE_EVERY - 1)) == 0) /* room for a producer waiting on a full ring */
                atomic_store_explicit(&p->done, tail, memory_order_release);
        }
        atomic_store_explicit(&p->done, tail, memory_order_release);
    }
}

static void publish(tracepipe *p)
{
    atomic_store(&p->published, p->head);
    if (atomic_load(&p->sleeping)) {
        pthread_mutex_lock(&p->mu);
        pthread_cond_signal(&p->cv);
        pthread_mutex_unlock(&p->mu);
    }
}

/* Until the consumer's tail reaches `target` (published first). */
static void wait_done(tracepipe *p, uint64_t target)
{
    publish(p);
    p->waits++;
    for (unsigned spins = 0; (p->tail_seen = atomic_load_explicit(&p->done, memory_order_acquire)) < target; spins++) {
        if (spins < 1000)
            cpu_relax();
        else
            sched_yield(); /* one core, or the consumer descheduled */
    }
}

static void take_schedule(tracepipe *p)
{
    uint64_t now = p->s.now; /* accesses the model was not given still count as seen */
    p->direct = mt_sched_from_unit(&p->s, p->u) != 0;
    if (!p->direct && now > p->s.now)
        p->s.now = now;
}

tracepipe *tracepipe_create(mt_unit *u, uint64_t last_cycle)
{
    tracepipe *p = aligned_alloc(_Alignof(tracepipe), sizeof *p); /* its lines as laid out */
    if (!p)
        return NULL;
    memset(p, 0, sizeof *p);
    p->u = u;
    p->last_cycle = last_cycle;
    p->ring = aligned_alloc(64, RING_SIZE * sizeof *p->ring);
    if (!p->ring || pthread_mutex_init(&p->mu, NULL) != 0) {
        free(p->ring);
        free(p);
        return NULL;
    }
    pthread_cond_init(&p->cv, NULL);
    if (pthread_create(&p->thread, NULL, consumer, p) != 0) {
        pthread_cond_destroy(&p->cv);
        pthread_mutex_destroy(&p->mu);
        free(p->ring);
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
    wait_done(p, p->head);
    pthread_mutex_lock(&p->mu);
    atomic_store(&p->quit, 1);
    pthread_cond_signal(&p->cv);
    pthread_mutex_unlock(&p->mu);
    pthread_join(p->thread, NULL);
    p->stopped = true;
    p->direct = true; /* from now on every access in line (nothing can be queued) */
}

void tracepipe_destroy(tracepipe *p)
{
    if (!p)
        return;
    tracepipe_stop(p);
    pthread_cond_destroy(&p->cv);
    pthread_mutex_destroy(&p->mu);
    free(p->ring);
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
    if (a->cycle >= mt_unit_next_due(u) && a->tap == (u->active ? u->cfg.tap : u->regs.tap)) {
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

/* prfchw: the prefetch asks for the line to write (PREFETCHW), not only to read */
__attribute__((target("prfchw"))) uint64_t tracepipe_listener(void *ctx, const mt_access *a)
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
    if (mt_sched_access(&p->s, a)) {
        if (p->head - p->tail_seen >= RING_SIZE) {
            p->tail_seen = atomic_load_explicit(&p->done, memory_order_acquire);
            if (p->head - p->tail_seen >= RING_SIZE)
                wait_done(p, p->head - RING_SIZE + 1);
        }
        /* the line a few entries on: its ownership is fetched while the guest runs */
        __builtin_prefetch(&p->ring[(p->head + PREFETCH_AHEAD) & (RING_SIZE - 1)], 1);
        p->ring[p->head & (RING_SIZE - 1)] = pack(a);
        p->head++;
        p->queued++;
        if ((p->head & (PUBLISH_EVERY - 1)) == 0)
            publish(p);
    }
    return mt_sched_due(&p->s);
}

void tracepipe_sync(tracepipe *p)
{
    if (p->tail_seen != p->head)
        wait_done(p, p->head);
}

void tracepipe_resume(tracepipe *p)
{
    if (!p->stopped)
        take_schedule(p);
}

tracepipe_stats tracepipe_counts(const tracepipe *p)
{
    return (tracepipe_stats){.accesses = p->accesses, .collisions = p->collisions, .last_cycle = p->last_cycle,
                             .queued = p->queued, .waits = p->waits, .consumer_seconds = p->consumer_seconds};
}
