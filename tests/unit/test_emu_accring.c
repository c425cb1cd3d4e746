/* The access ring (emu/trace/accring.[ch]): the packed form of an access, and the order and
 * completeness of what the consumer thread takes when the producer mixes single pushes, packed
 * blocks (accring_push_entries) of every size up to more than the ring holds, entries packed in
 * claimed room (accring_claim_entries, the CPU sampler's batches), and syncs in between (a guest
 * register write, the end of a run). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "emu/trace/accring.h"

static uint64_t splitmix(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}

static mt_access random_access(uint64_t *seed, uint64_t cycle)
{
    static const uint8_t sizes[] = {1, 2, 4, 8, 64};
    uint64_t r = splitmix(seed);
    return (mt_access){.cycle = cycle, .addr = splitmix(seed) & MT_PADDR_MASK, .write = (uint8_t)(r & 1),
                       .size = sizes[(r >> 1) % 5], .kind = (uint8_t)((r >> 8) % MT_KIND_COUNT),
                       .tap = (uint8_t)((r >> 16) & 1)};
}

static void assert_access_equal(const mt_access *a, const mt_access *b)
{
    assert_int_equal(a->cycle, b->cycle);
    assert_int_equal(a->addr, b->addr);
    assert_int_equal(a->write, b->write);
    assert_int_equal(a->size, b->size);
    assert_int_equal(a->kind, b->kind);
    assert_int_equal(a->tap, b->tap);
}

static void test_pack_round_trip(void **state)
{
    (void)state;
    uint64_t seed = 1;
    for (unsigned i = 0; i < 10000; i++) {
        const mt_access a = random_access(&seed, splitmix(&seed));
        const accring_entry e = accring_pack(&a);
        const mt_access b = accring_unpack(&e);
        assert_access_equal(&a, &b);
    }
    /* the sampler's own packing of a fetch is accring_pack's */
    for (unsigned len = 2; len <= 4; len += 2) {
        const mt_access f = {.cycle = 7, .addr = 0x80001ffeu, .size = (uint8_t)len, .kind = MT_KIND_FETCH, .tap = MT_TAP_CORE};
        assert_int_equal(accring_fetch_bits(0xff00000080001ffeu, len), accring_pack(&f).bits);
    }
}

/* The consumer's side: every access it is given, in order; slow now and then, so that the
 * producer meets a full ring. */
typedef struct {
    mt_access *got;
    size_t n, cap;
    int overflow; /* more than cap taken (checked on the test's thread: cmocka asserts there) */
} taken_log;

static void take(void *ctx, const mt_access *a)
{
    taken_log *t = ctx;
    if (t->n == t->cap) {
        t->overflow = 1;
        return;
    }
    t->got[t->n++] = *a;
    if ((t->n & 8191) == 0)
        for (volatile unsigned spin = 0; spin < 200000; spin++) /* a stall of the consumer */
            ;
}

static void test_blocks_in_order(void **state)
{
    (void)state;
    /* block sizes around the sampler's batch (256), the publish interval (1024) and the ring
     * (65536 entries): a block larger than the ring must wait for the consumer part way */
    static const unsigned blocks[] = {1, 3, 255, 256, 257, 1023, 1024, 1025, 4096, 65535, 65536, 70001, 2, 256};
    size_t total = 0;
    for (unsigned r = 0; r < 2; r++)
        for (unsigned b = 0; b < sizeof blocks / sizeof *blocks; b++)
            total += blocks[b] + 1; /* the block, then one single push */
    mt_access *sent = malloc(total * sizeof *sent);
    accring_entry *packed = malloc(70001 * sizeof *packed);
    taken_log t = {.got = malloc(total * sizeof *t.got), .cap = total};
    assert_non_null(sent);
    assert_non_null(packed);
    assert_non_null(t.got);
    accring *ring = accring_create(take, &t, "test-accring");
    assert_non_null(ring);

    uint64_t seed = 42;
    size_t n = 0;
    for (unsigned r = 0; r < 2; r++) {
        for (unsigned b = 0; b < sizeof blocks / sizeof *blocks; b++) {
            for (unsigned i = 0; i < blocks[b]; i++) {
                sent[n + i] = random_access(&seed, n + i);
                packed[i] = accring_pack(&sent[n + i]);
            }
            accring_push_entries(ring, packed, blocks[b]);
            n += blocks[b];
            sent[n] = random_access(&seed, n);
            accring_push(ring, &sent[n++]);
            if (b % 4 == 3) { /* a sync between blocks: everything so far is taken */
                accring_sync(ring);
                assert_int_equal(t.n, n);
            }
        }
    }
    assert_int_equal(n, total);
    accring_stop(ring);
    assert_false(t.overflow);
    assert_int_equal(t.n, total);
    for (size_t i = 0; i < total; i++)
        assert_access_equal(&t.got[i], &sent[i]);
    const accring_stats st = accring_counts(ring);
    assert_int_equal(st.pushed, total);
    assert_true(st.waits >= 2); /* the blocks larger than the ring waited */
    accring_destroy(ring);
    free(t.got);
    free(packed);
    free(sent);
}

/* take, asleep for 20 ms at its 1,000th access and every 100,000 after: the producer meanwhile
 * fills the ring (it syncs only every ~100,000), so its claims find room only where the
 * consumer has finished */
static void take_sleepy(void *ctx, const mt_access *a)
{
    taken_log *t = ctx;
    if (t->n % 100000 == 1000)
        nanosleep(&(struct timespec){.tv_nsec = 20000000}, NULL);
    take(ctx, a);
}

/* The sampler's way (tracepipe.c): entries packed in place in claimed room, fewer committed than
 * claimed now and then (a capture taken back), mixed with pushes and syncs; the claims meet the
 * ring's end (a shorter room) and a full ring (a wait: with room claimed past what the consumer
 * has finished, the entries it takes differ). */
static void test_claimed_in_order(void **state)
{
    (void)state;
    const size_t total = 400000;
    mt_access *sent = malloc(total * sizeof *sent);
    taken_log t = {.got = malloc(total * sizeof *t.got), .cap = total};
    assert_non_null(sent);
    assert_non_null(t.got);
    accring *ring = accring_create(take_sleepy, &t, "test-claim");
    assert_non_null(ring);
    uint64_t seed = 7;
    size_t n = 0;
    unsigned short_rooms = 0;
    for (unsigned b = 0; n < total; b++) {
        const unsigned want = b % 3 == 0 ? 256 : 1 + (unsigned)(splitmix(&seed) % 3000);
        unsigned got = 0;
        accring_entry *room = accring_claim_entries(ring, want, &got);
        assert_true(got >= 1 && got <= want);
        short_rooms += got < want;
        unsigned k = got;
        if (k > total - n)
            k = (unsigned)(total - n);
        for (unsigned i = 0; i < k; i++) {
            sent[n + i] = random_access(&seed, n + i);
            room[i] = accring_pack(&sent[n + i]);
        }
        const unsigned dropped = k > 1 && b % 5 == 1 ? 1 : 0; /* the newest taken back */
        accring_commit_entries(ring, k - dropped);
        n += k - dropped;
        if (n < total && b % 7 == 2) {
            sent[n] = random_access(&seed, n);
            accring_push(ring, &sent[n++]);
        }
        if (b % 101 == 100) {
            accring_sync(ring);
            assert_int_equal(t.n, n);
        }
    }
    accring_stop(ring);
    assert_false(t.overflow);
    assert_int_equal(t.n, total);
    for (size_t i = 0; i < total; i++)
        assert_access_equal(&t.got[i], &sent[i]);
    assert_int_equal(accring_counts(ring).pushed, total);
    assert_true(short_rooms > 0); /* the ring's end (or a full ring) cut a room short */
    accring_destroy(ring);
    free(t.got);
    free(sent);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pack_round_trip),
        cmocka_unit_test(test_blocks_in_order),
        cmocka_unit_test(test_claimed_in_order),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
