/* lib/mt_sched: the schedule on its own picks exactly the accesses the unit captures.
 *
 * Two models see the same random streams and register writes. Model A gets what the emulator's
 * hook gives it: every access of its tap from mt_unit_next_due on. Model B gets only what
 * mt_sched says it captures (while no register write is pending; with one pending, B is fed as
 * A until it has applied, then a new copy of the schedule is taken), which is how
 * emu/trace/tracepipe.c feeds the model on its thread. The streams, counters and, before every
 * access, the schedule's due cycle and A's next_due must agree. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "lib_testutil.h"
#include "mt_sched.h"

typedef struct {
    mt_unit u;
    mt_sched s;
    int direct; /* a register write is pending in u: fed as the hook feeds, no schedule copy */
    uint64_t given;
} sched_side;

static void give_hooked(mt_unit *u, const mt_access *a, uint64_t *given)
{
    if (a->cycle >= mt_unit_next_due(u))
        mt_unit_settle(u, a->cycle); /* a write pending from an earlier cycle applies first */
    if ((a->tap & 1) == mt_unit_tap(u) && a->cycle >= mt_unit_next_due(u) && a->cycle >= u->now) {
        mt_unit_access_cycle(u, a);
        (*given)++;
    }
}

static void side_access(sched_side *b, const mt_access *a)
{
    if (b->direct) {
        give_hooked(&b->u, a, &b->given);
        b->direct = mt_sched_from_unit(&b->s, &b->u) != 0;
        return;
    }
    if ((a->tap & 1) == b->s.tap && a->cycle >= mt_sched_due(&b->s) && mt_sched_access(&b->s, a)) {
        mt_unit_access_cycle(&b->u, a);
        b->given++;
    }
}

static void both_write(mt_unit *a, sched_side *b, uint64_t c, uint32_t off, uint32_t val)
{
    mt_unit_mmio_write(a, c, off, val);
    mt_unit_mmio_write(&b->u, c, off, val);
    b->direct = 1;
}

static void test_sched_picks_the_captures(void **state)
{
    (void)state;
    uint64_t rs = 777;
    for (int trial = 0; trial < 240; trial++) {
        int pat = trial % TU_NPATTERNS;
        size_t n = 4000;
        mt_access *acc = tu_stream(pat, n, 30, 11 + (uint64_t)trial * 31);
        tu_buf out[2] = {{0}, {0}};
        mt_unit a;
        sched_side b = {0};
        mt_unit_params p = {.depth = 32u << (tu_rand(&rs) % 5), .drain = 1 + (uint32_t)(tu_rand(&rs) % 8),
                            .sink = tu_buf_put, .sink_ctx = &out[0]};
        assert_int_equal(mt_unit_init(&a, &p), 0);
        p.sink_ctx = &out[1];
        assert_int_equal(mt_unit_init(&b.u, &p), 0);
        if (trial % 2)
            assert_int_equal(mt_unit_batch_output(&b.u, 1), 0); /* as the emulator runs it */
        /* short sections of every shape (a zero length: that section never comes) */
        uint32_t w[][2] = {
            {MT_REG_KIND_MASK, trial % 3 ? 0x1F : (uint32_t)(1 + tu_rand(&rs) % 31)},
            {MT_REG_TAP, trial % 7 == 6},
            {MT_REG_FMT, (uint32_t)(tu_rand(&rs) % 4) | (uint32_t)(tu_rand(&rs) % 4) << 4},
            {MT_REG_SYNC_PERIOD, 64 + (uint32_t)(tu_rand(&rs) % 300)},
            {MT_REG_RATE_H, 1 + (uint32_t)(tu_rand(&rs) % 30)},
            {MT_REG_RATE_L, 1 + (uint32_t)(tu_rand(&rs) % 300)},
            {MT_REG_LEN_H_LO, trial % 11 == 10 ? 0 : 20 + (uint32_t)(tu_rand(&rs) % 2000)},
            {MT_REG_LEN_L_LO, trial % 5 == 4 ? 0 : 1 + (uint32_t)(tu_rand(&rs) % 3000)},
            {MT_REG_LEN_H_HI, 0},
            {MT_REG_LEN_L_HI, 0},
            /* a front end in some sessions: it hears every access, so the copy must step aside */
            {MT_REG_REDUCE, trial % 8 == 3 ? MT_REDUCE_EN | (uint32_t)(tu_rand(&rs) % 11) << MT_REDUCE_LGK_SHIFT : 0},
            {MT_REG_SPATIAL, trial % 8 == 5 ? MT_SPATIAL_EN | (uint32_t)(tu_rand(&rs) % 17) << MT_SPATIAL_LG2N_SHIFT : 0},
            {MT_REG_CTRL, MT_CTRL_ENABLE},
        };
        for (unsigned k = 0; k < sizeof w / sizeof w[0]; k++)
            both_write(&a, &b, k, w[k][0], w[k][1]);
        uint64_t given_a = 0, last = 0;
        for (size_t i = 0; i < n; i++) {
            uint64_t r = tu_rand(&rs), c = acc[i].cycle;
            if (c <= last && i)
                continue;
            last = c;
            /* the guest's register writes, each in an access's cycle before it */
            if (r % 211 == 0)
                both_write(&a, &b, c, MT_REG_MARKER, (uint32_t)r);
            else if (r % 1013 == 1)
                both_write(&a, &b, c, MT_REG_CTRL, 0);
            else if (r % 1013 == 2 || r % 1013 == 3)
                both_write(&a, &b, c, MT_REG_CTRL, MT_CTRL_ENABLE);
            else if (r % 1013 == 4)
                both_write(&a, &b, c, MT_REG_RATE_H, 1 + (uint32_t)(r >> 20) % 40);
            if (!b.direct)
                assert_int_equal(mt_sched_due(&b.s), mt_unit_next_due(&a));
            give_hooked(&a, &acc[i], &given_a);
            side_access(&b, &acc[i]);
        }
        uint64_t end = last + 1;
        mt_unit_stop(&a, end);
        mt_unit_stop(&b.u, end);
        assert_true(b.given <= given_a);
        assert_int_equal(a.samples, b.u.samples);
        assert_int_equal(a.dropped, b.u.dropped);
        assert_int_equal(a.bytes, b.u.bytes);
        assert_int_equal(out[0].n, out[1].n);
        assert_memory_equal(out[0].p, out[1].p, out[0].n);
        mt_unit_free(&a);
        mt_unit_free(&b.u);
        free(out[0].p);
        free(out[1].p);
        free(acc);
    }
}

/* The copy refuses a unit with a write not yet applied or a front end running, and says "nothing
 * due" without a session. */
static void test_sched_copy_rules(void **state)
{
    (void)state;
    mt_unit u;
    mt_sched s;
    assert_int_equal(mt_unit_init(&u, NULL), 0);
    assert_int_equal(mt_sched_from_unit(&s, &u), 0);
    assert_true(mt_sched_due(&s) == UINT64_MAX);
    mt_unit_mmio_write(&u, 5, MT_REG_CTRL, MT_CTRL_ENABLE);
    assert_int_equal(mt_sched_from_unit(&s, &u), -1);
    mt_unit_advance(&u, 6);
    assert_int_equal(mt_sched_from_unit(&s, &u), 0);
    assert_true(mt_sched_due(&s) == 6); /* the session starts at the cycle after the enable */
    mt_access a = {.cycle = 9, .addr = 0x80000000, .size = 8, .kind = MT_KIND_LOAD};
    assert_int_equal(mt_sched_access(&s, &a), 1);
    assert_true(mt_sched_due(&s) == 6 + 24); /* the reset rate: the next sample point */
    a.cycle = 8; /* before now: refused */
    assert_int_equal(mt_sched_access(&s, &a), 0);
    /* a session with a front end (reduce, spatial): every access goes to the unit, no copy */
    const uint32_t front[][2] = {{MT_REG_REDUCE, MT_REDUCE_EN}, {MT_REG_SPATIAL, MT_SPATIAL_EN}};
    for (unsigned k = 0; k < 2; k++) {
        mt_unit_mmio_write(&u, u.now, MT_REG_CTRL, 0);
        while (u.busy || u.active) /* an ENABLE counts once the last session's END is out */
            mt_unit_advance(&u, u.now + 1);
        mt_unit_mmio_write(&u, u.now, front[k][0], front[k][1]);
        mt_unit_mmio_write(&u, u.now + 1, MT_REG_CTRL, MT_CTRL_ENABLE);
        mt_unit_advance(&u, u.now + 2);
        assert_true(u.active);
        assert_int_equal(mt_sched_from_unit(&s, &u), -1);
        mt_unit_mmio_write(&u, u.now, front[k][0], 0);
    }
    mt_unit_free(&u);
}

/* A write that changes TAP (and enables a session) while the hook filters by the old tap: the
 * hook and the schedule's copy must give the model what a model fed every access captures.  The
 * unit sampled the DRAM tap; the guest writes TAP = core and ENABLE in one cycle and then makes
 * only core accesses.  Without mt_unit_settle the hook compared each with the old tap, gave none,
 * so never advanced the unit: the write stayed pending and the session captured nothing
 * (fuzz_unit_modes found it, docs/robustness.md, ninth session). */
static void test_hook_after_tap_write(void **state)
{
    (void)state;
    for (int batched = 0; batched < 2; batched++) {
        tu_buf out[3] = {{0}, {0}, {0}};
        mt_unit every, hook;
        sched_side b = {0};
        mt_unit_params p = {.depth = 256, .drain = 2, .sink = tu_buf_put, .sink_ctx = &out[0]};
        assert_int_equal(mt_unit_init(&every, &p), 0);
        p.sink_ctx = &out[1];
        assert_int_equal(mt_unit_init(&hook, &p), 0);
        p.sink_ctx = &out[2];
        assert_int_equal(mt_unit_init(&b.u, &p), 0);
        if (batched)
            assert_int_equal(mt_unit_batch_output(&b.u, 1), 0);
        const uint32_t w[][2] = {{MT_REG_TAP, MT_TAP_DRAM}, {MT_REG_RATE_H, 3}, {MT_REG_TAP, MT_TAP_CORE},
                                 {MT_REG_CTRL, MT_CTRL_ENABLE}};
        for (unsigned k = 0; k < 4; k++) { /* the first at cycle 10, the last two together at 20 */
            const uint64_t c = k == 0 ? 10 : k == 1 ? 15 : 20;
            mt_unit_mmio_write(&every, c, w[k][0], w[k][1]);
            both_write(&hook, &b, c, w[k][0], w[k][1]);
        }
        uint64_t given_every = 0, given_hook = 0;
        for (uint64_t c = 21; c < 3000; c += 2) {
            const mt_access a = {.cycle = c, .addr = 0x80000000 + c * 64, .size = 8, .kind = MT_KIND_LOAD,
                                 .tap = MT_TAP_CORE};
            mt_unit_access_cycle(&every, &a);
            given_every++;
            give_hooked(&hook, &a, &given_hook);
            side_access(&b, &a);
        }
        mt_unit_stop(&every, 3000);
        mt_unit_stop(&hook, 3000);
        mt_unit_stop(&b.u, 3000);
        assert_true(every.samples > 250); /* (299: the session runs, the accesses are its tap) */
        assert_true(given_hook > 0 && given_hook < given_every);
        assert_int_equal(hook.samples, every.samples);
        assert_int_equal(b.u.samples, every.samples);
        for (int k = 1; k < 3; k++) {
            assert_int_equal(out[k].n, out[0].n);
            assert_memory_equal(out[k].p, out[0].p, out[0].n);
        }
        mt_unit_free(&every);
        mt_unit_free(&hook);
        mt_unit_free(&b.u);
        for (int k = 0; k < 3; k++)
            free(out[k].p);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sched_picks_the_captures),
        cmocka_unit_test(test_sched_copy_rules),
        cmocka_unit_test(test_hook_after_tap_write),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
