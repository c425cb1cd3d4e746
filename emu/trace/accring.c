#include "emu/trace/accring.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdbool.h>
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
#define PREFETCH_AHEAD 32u       /* entries (8 lines) the producer claims its lines ahead of writing */

/* An access is stored in 16 bytes (accring_entry), four to a cache line: the line transfers
 * between the cores are what the queue costs, so fewer lines per access is most of its speed. */

/* The producer's fields, the consumer's and each shared counter on lines of their own: the
 * consumer must not pull the line the producer writes per access. */
struct accring {
    accring_take_fn take;
    void *ctx;
    accring_entry *ring;
    accring_take_words_fn take_words; /* word mode (accring_create_words): ring is NULL */
    uint64_t *words, word_mask;
    char name[16];
    /* producer's */
    _Alignas(64) uint64_t head, published_head, tail_seen, pushed, waits;
    bool stopped;
    double consumer_seconds; /* written by the consumer as it quits (read after the join) */
    /* shared */
    _Alignas(64) _Atomic uint64_t published;
    _Alignas(64) _Atomic uint64_t done;
    _Alignas(64) _Atomic int sleeping, quit;
    _Atomic uint64_t room_wanted; /* word mode: the producer sleeps until done reaches it (0: not) */
    pthread_mutex_t mu;
    pthread_cond_t cv;
    pthread_cond_t room_cv; /* word mode: the producer's sleep on a full ring */
    pthread_t thread;
};

static uint64_t monotonic_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Until the next published head beyond tail: polls, then sleeps. Returns it, or tail when told
 * to quit with nothing left. */
static uint64_t await_work(accring *r, uint64_t tail)
{
    uint64_t head;
    /* Poll for a while before sleeping: waking a sleeping thread can take milliseconds on a
     * virtual machine (its CPU halted), in which the producer fills the ring. */
    uint64_t idle_from = monotonic_ns();
    for (unsigned spins = 1; (head = atomic_load_explicit(&r->published, memory_order_acquire)) == tail; spins++) {
        cpu_relax();
        if ((spins & 255) == 0 && monotonic_ns() - idle_from > CONSUMER_POLL_NS)
            break;
    }
    if (head != tail)
        return head;
    /* sleeping before the check, the producer's publish before its check of sleeping: one of
     * the two sees the other (sequentially consistent), no wake-up is lost */
    atomic_store(&r->sleeping, 1);
    pthread_mutex_lock(&r->mu);
    while ((head = atomic_load(&r->published)) == tail && !atomic_load(&r->quit))
        pthread_cond_wait(&r->cv, &r->mu);
    pthread_mutex_unlock(&r->mu);
    atomic_store(&r->sleeping, 0);
    return head;
}

/* The consumer's next published head beyond tail, or tail when told to quit with everything
 * taken. */
static uint64_t next_head(accring *r, uint64_t tail)
{
    uint64_t head = atomic_load_explicit(&r->published, memory_order_acquire);
    return head != tail ? head : await_work(r, tail);
}

/* The consumer's last act: its CPU time, for accring_counts (read after the join). */
static void *consumer_quit(accring *r)
{
    struct timespec ts;
    if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) == 0)
        r->consumer_seconds = (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
    return NULL;
}

static void *consumer(void *arg)
{
    accring *r = arg;
    const accring_take_fn take = r->take;
    void *const ctx = r->ctx;
    const accring_entry *const ring = r->ring;
    uint64_t tail = 0;
    pthread_setname_np(pthread_self(), r->name);
    for (uint64_t head; (head = next_head(r, tail)) != tail;) {
        while (tail != head) {
            const mt_access a = accring_unpack(&ring[tail & (RING_SIZE - 1)]);
            take(ctx, &a);
            if ((++tail & (DONE_EVERY - 1)) == 0) /* room for a producer waiting on a full ring */
                atomic_store_explicit(&r->done, tail, memory_order_release);
        }
        atomic_store_explicit(&r->done, tail, memory_order_release);
    }
    return consumer_quit(r);
}

static void publish(accring *r)
{
    r->published_head = r->head;
    atomic_store(&r->published, r->head);
    if (atomic_load(&r->sleeping)) {
        pthread_mutex_lock(&r->mu);
        pthread_cond_signal(&r->cv);
        pthread_mutex_unlock(&r->mu);
    }
}

/* Until the consumer's tail reaches `target` (published first). */
static void wait_done(accring *r, uint64_t target)
{
    publish(r);
    r->waits++;
    for (unsigned spins = 0; (r->tail_seen = atomic_load_explicit(&r->done, memory_order_acquire)) < target; spins++) {
        if (spins < 1000)
            cpu_relax();
        else
            sched_yield(); /* one core, or the consumer descheduled */
    }
}

/* The ring's shared part, its name and its consumer thread; frees r on failure. */
static accring *start(accring *r, const char *name, void *(*thread_fn)(void *))
{
    strncpy(r->name, name, sizeof r->name - 1);
    if (!(r->ring || r->words) || pthread_mutex_init(&r->mu, NULL) != 0) {
        free(r->ring);
        free(r->words);
        free(r);
        return NULL;
    }
    pthread_cond_init(&r->cv, NULL);
    pthread_cond_init(&r->room_cv, NULL);
    if (pthread_create(&r->thread, NULL, thread_fn, r) != 0) {
        pthread_cond_destroy(&r->room_cv);
        pthread_cond_destroy(&r->cv);
        pthread_mutex_destroy(&r->mu);
        free(r->ring);
        free(r->words);
        free(r);
        return NULL;
    }
    return r;
}

static accring *alloc_ring(void)
{
    accring *r = aligned_alloc(_Alignof(accring), sizeof *r); /* its lines as laid out */
    if (r)
        memset(r, 0, sizeof *r);
    return r;
}

accring *accring_create(accring_take_fn take, void *ctx, const char *name)
{
    accring *r = alloc_ring();
    if (!r)
        return NULL;
    r->take = take;
    r->ctx = ctx;
    r->ring = aligned_alloc(64, RING_SIZE * sizeof *r->ring);
    return start(r, name, consumer);
}

/* prfchw: the prefetch asks for the line to write (PREFETCHW), not only to read */
__attribute__((target("prfchw"))) void accring_push(accring *r, const mt_access *a)
{
    if (r->head - r->tail_seen >= RING_SIZE) {
        r->tail_seen = atomic_load_explicit(&r->done, memory_order_acquire);
        if (r->head - r->tail_seen >= RING_SIZE)
            wait_done(r, r->head - RING_SIZE + 1);
    }
    /* the line a few entries on: its ownership is fetched while the guest runs */
    __builtin_prefetch(&r->ring[(r->head + PREFETCH_AHEAD) & (RING_SIZE - 1)], 1);
    r->ring[r->head & (RING_SIZE - 1)] = accring_pack(a);
    r->head++;
    r->pushed++;
    if (r->head - r->published_head >= PUBLISH_EVERY)
        publish(r);
}

__attribute__((target("prfchw"))) void accring_push_entries(accring *r, const accring_entry *e, unsigned n)
{
    unsigned left = n;
    while (left) {
        /* a block: what fits before the ring wraps, in what the consumer has freed */
        uint64_t free = RING_SIZE - (r->head - r->tail_seen);
        if (free < left) {
            r->tail_seen = atomic_load_explicit(&r->done, memory_order_acquire);
            free = RING_SIZE - (r->head - r->tail_seen);
            if (free == 0) {
                wait_done(r, r->head - RING_SIZE + 1);
                continue;
            }
        }
        const unsigned at = (unsigned)(r->head & (RING_SIZE - 1));
        unsigned k = RING_SIZE - at < left ? RING_SIZE - at : left;
        if (k > free)
            k = (unsigned)free;
        memcpy(&r->ring[at], e, (size_t)k * sizeof *e);
        e += k;
        left -= k;
        r->head += k;
        if (r->head - r->published_head >= PUBLISH_EVERY)
            publish(r);
    }
    r->pushed += n;
    /* the next block's lines: their ownership comes from the other core while the guest runs */
    for (unsigned i = 0; i < n; i += 4)
        __builtin_prefetch(&r->ring[(r->head + i) & (RING_SIZE - 1)], 1);
}

accring_entry *accring_claim_entries(accring *r, unsigned want, unsigned *got)
{
    uint64_t free = RING_SIZE - (r->head - r->tail_seen);
    if (free < want) {
        r->tail_seen = atomic_load_explicit(&r->done, memory_order_acquire);
        free = RING_SIZE - (r->head - r->tail_seen);
        if (free == 0) { /* nothing freed: wait for one entry (the consumer frees in blocks) */
            wait_done(r, r->head - RING_SIZE + 1);
            free = RING_SIZE - (r->head - r->tail_seen);
        }
    }
    const unsigned at = (unsigned)(r->head & (RING_SIZE - 1));
    unsigned k = RING_SIZE - at < want ? RING_SIZE - at : want;
    if (k > free)
        k = (unsigned)free;
    *got = k;
    return &r->ring[at];
}

__attribute__((target("prfchw"))) void accring_commit_entries(accring *r, unsigned n)
{
    r->head += n;
    r->pushed += n;
    if (r->head - r->published_head >= PUBLISH_EVERY)
        publish(r);
    /* the next block's lines, as accring_push_entries claims them */
    for (unsigned i = 0; i < n; i += 4)
        __builtin_prefetch(&r->ring[(r->head + i) & (RING_SIZE - 1)], 1);
}

void accring_sync(accring *r)
{
    if (r->tail_seen != r->head)
        wait_done(r, r->head);
}

void accring_stop(accring *r)
{
    if (!r || r->stopped)
        return;
    wait_done(r, r->head);
    pthread_mutex_lock(&r->mu);
    atomic_store(&r->quit, 1);
    pthread_cond_signal(&r->cv);
    pthread_mutex_unlock(&r->mu);
    pthread_join(r->thread, NULL);
    r->stopped = true;
}

void accring_destroy(accring *r)
{
    if (!r)
        return;
    accring_stop(r);
    pthread_cond_destroy(&r->room_cv);
    pthread_cond_destroy(&r->cv);
    pthread_mutex_destroy(&r->mu);
    free(r->ring);
    free(r->words);
    free(r);
}

accring_stats accring_counts(const accring *r)
{
    return (accring_stats){.pushed = r->pushed, .waits = r->waits, .consumer_seconds = r->consumer_seconds};
}

/* ---- word mode ---------------------------------------------------------------------------- */

#define WORDS_DONE_EVERY 4096u /* words handed to take between two updates of `done` */

static void *consumer_words(void *arg)
{
    accring *r = arg;
    const accring_take_words_fn take = r->take_words;
    void *const ctx = r->ctx;
    const uint64_t *const words = r->words;
    const uint64_t mask = r->word_mask;
    uint64_t tail = 0;
    pthread_setname_np(pthread_self(), r->name);
    for (uint64_t head; (head = next_head(r, tail)) != tail;) {
        while (tail != head) {
            uint64_t at = tail & mask, n = head - tail;
            if (n > mask + 1 - at) /* up to the ring's end */
                n = mask + 1 - at;
            if (n > WORDS_DONE_EVERY)
                n = WORDS_DONE_EVERY;
            take(ctx, &words[at], n);
            tail += n;
            /* done before the look at room_wanted, the producer's room_wanted before its look at
             * done (both sequentially consistent): one of the two sees the other */
            atomic_store(&r->done, tail);
            uint64_t wanted = atomic_load(&r->room_wanted);
            if (wanted && tail >= wanted) {
                pthread_mutex_lock(&r->mu);
                pthread_cond_signal(&r->room_cv);
                pthread_mutex_unlock(&r->mu);
            }
        }
    }
    return consumer_quit(r);
}

accring *accring_create_words(accring_take_words_fn take, void *ctx, const char *name,
                              unsigned log2_words)
{
    if (log2_words < 1 || log2_words > 24)
        return NULL;
    accring *r = alloc_ring();
    if (!r)
        return NULL;
    r->take_words = take;
    r->ctx = ctx;
    r->word_mask = (UINT64_C(1) << log2_words) - 1;
    size_t bytes = (size_t)(r->word_mask + 1) * sizeof *r->words;
    r->words = aligned_alloc(64, bytes < 64 ? 64 : bytes);
    return start(r, name, consumer_words);
}

/* Until the consumer's tail reaches `target` (published first). The simulations' thread is the
 * slower of the two, so the producer waits on a full ring thousands of times a run, each for a
 * quarter of the ring's work (about half a millisecond): after a short spin it sleeps until the
 * consumer wakes it, instead of spinning and yielding the core its own consumer may need. */
static void wait_room_words(accring *r, uint64_t target)
{
    publish(r);
    r->waits++;
    for (unsigned spins = 0; spins < 100; spins++) { /* a few microseconds */
        if ((r->tail_seen = atomic_load_explicit(&r->done, memory_order_acquire)) >= target)
            return;
        cpu_relax();
    }
    pthread_mutex_lock(&r->mu);
    atomic_store(&r->room_wanted, target);
    while ((r->tail_seen = atomic_load(&r->done)) < target)
        pthread_cond_wait(&r->room_cv, &r->mu);
    atomic_store(&r->room_wanted, 0);
    pthread_mutex_unlock(&r->mu);
}

void accring_push_words(accring *r, const uint64_t *w, uint64_t n)
{
    const uint64_t size = r->word_mask + 1;
    /* on a full ring, wait for a quarter of it (whatever is left to push): fewer round trips */
    const uint64_t step = size / 4 ? size / 4 : 1;
    r->pushed += n;
    while (n) {
        if (r->head - r->tail_seen >= size) {
            r->tail_seen = atomic_load_explicit(&r->done, memory_order_acquire);
            if (r->head - r->tail_seen >= size)
                wait_room_words(r, r->head - size + step);
        }
        uint64_t at = r->head & r->word_mask, k = size - (r->head - r->tail_seen);
        if (k > size - at)
            k = size - at;
        if (k > n)
            k = n;
        memcpy(&r->words[at], w, k * sizeof *w);
        r->head += k;
        w += k;
        n -= k;
    }
    publish(r);
}

uint64_t *accring_reserve_words(accring *r, uint64_t n)
{
    const uint64_t size = r->word_mask + 1, at = r->head & r->word_mask;
    if (n > size - at)
        return NULL;
    if (r->head + n - r->tail_seen > size) {
        r->tail_seen = atomic_load_explicit(&r->done, memory_order_acquire);
        if (r->head + n - r->tail_seen > size) {
            /* as accring_push_words: wait for a quarter of the ring, or n if more */
            const uint64_t step = size / 4 > n ? size / 4 : n;
            wait_room_words(r, r->head + step - size);
        }
    }
    return &r->words[at];
}

void accring_commit_words(accring *r, uint64_t k)
{
    r->pushed += k;
    r->head += k;
    publish(r);
}
