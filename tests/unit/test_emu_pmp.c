/* PMP matching (emu/cpu/pmp.c: the table of ranges made at every write, and the answers cached
 * per page) against the privileged spec's rule applied byte by byte, written here without either:
 * the lowest-numbered entry that matches any byte of the access decides, it must match all of
 * them, M-mode ignores an unlocked entry's permissions, and with no match M may do anything and
 * S/U nothing.  Random configurations (TOR, NA4, NAPOT, locked or not) over a 64 KiB window, so
 * that entries overlap, share pages and end inside pages; queries at and around every entry's
 * edges and the pages' edges, every size pmp_allows is asked for, each privilege, each
 * permission, asked twice (the second answer from the page cache), with entries rewritten
 * between rounds (the cache must forget them). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "tests/unit/cpu_fixture.h"
#include "emu/cpu/pmp.h"

#define WINDOW UINT64_C(0x80000000)
#define WINDOW_BYTES UINT64_C(0x10000)

static uint64_t rng = 0x9e3779b97f4a7c15u;
static uint64_t next(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

/* Whether entry i matches byte b, from the spec's definitions of the address-matching modes. */
static bool matches_byte(const mt_cpu *c, unsigned i, uint64_t b)
{
    uint64_t a = c->pmpaddr[i];
    switch ((c->pmpcfg[i] >> 3) & 3) {
    case 1: { /* TOR: pmpaddr[i-1] <= b/4 < pmpaddr[i] (0 below entry 0) */
        uint64_t lo = i ? c->pmpaddr[i - 1] : 0;
        return (b >> 2) >= lo && (b >> 2) < a;
    }
    case 2: /* NA4 */
        return (b >> 2) == a;
    case 3: { /* NAPOT: k trailing ones, a 2^(k+3)-byte region: the word address above bit k */
        unsigned k = 0;
        while (k < 64 && ((a >> k) & 1))
            k++;
        uint64_t m = k + 1 >= 64 ? UINT64_MAX : (UINT64_C(2) << k) - 1;
        return ((b >> 2) | m) == (a | m);
    }
    default:
        return false;
    }
}

static bool reference_allows(const mt_cpu *c, uint64_t pa, unsigned size, unsigned perm, int priv)
{
    for (unsigned i = 0; i < PMP_COUNT; i++) {
        unsigned hits = 0;
        for (unsigned j = 0; j < size; j++)
            hits += matches_byte(c, i, pa + j);
        if (!hits)
            continue;
        if (hits != size)
            return false;
        unsigned perms = priv == PRV_M && !(c->pmpcfg[i] & PMP_L) ? 7u : c->pmpcfg[i] & 7u;
        return (perms & perm) == perm;
    }
    return priv == PRV_M;
}

/* A random entry over the window: TOR to an address in it, NA4, or NAPOT of 8 bytes to 16 KiB;
 * locked one time in eight, R=0/W=1 (reserved) left to the WARL rule. */
static void random_entry(mt_cpu *c, unsigned i)
{
    unsigned mode = (unsigned)(next() % 4), perms = (unsigned)(next() % 8);
    uint64_t word = (WINDOW + next() % WINDOW_BYTES) >> 2;
    if (mode == 3) {
        unsigned k = (unsigned)(next() % 12); /* 2^(k+3) bytes */
        word = (word & ~((UINT64_C(1) << (k + 1)) - 1)) | ((UINT64_C(1) << k) - 1);
    }
    pmp_write_addr(c, i, word);
    pmp_write_cfg(c, i, (uint8_t)(perms | mode << 3 | (next() % 8 == 0 ? PMP_L : 0)));
}

/* Addresses worth asking: each entry's edges, each page edge in the window, and random ones;
 * only around the window (an entry whose address write was refused, below a locked TOR, stays
 * at 0, and an access that wraps past 2^64 is no physical address). */
static unsigned probe_points(const mt_cpu *c, uint64_t *out)
{
    unsigned n = 0;
    for (unsigned i = 0; i < PMP_COUNT; i++) {
        uint64_t a = c->pmpaddr[i] << 2;
        if (a < WINDOW || a > WINDOW + WINDOW_BYTES)
            continue;
        for (int d = -9; d <= 9; d++)
            out[n++] = a + (uint64_t)(int64_t)d;
        uint64_t napot = ((c->pmpaddr[i] + 1) & ~c->pmpaddr[i]) << 3; /* NAPOT size, as a guess */
        out[n++] = (a & ~(napot - 1)) + napot - 1;
        out[n++] = (a & ~(napot - 1)) + napot;
    }
    for (uint64_t p = WINDOW; p <= WINDOW + WINDOW_BYTES; p += 4096) {
        out[n++] = p - 1;
        out[n++] = p - 4;
        out[n++] = p;
    }
    for (unsigned r = 0; r < 64; r++)
        out[n++] = WINDOW - 64 + next() % (WINDOW_BYTES + 128);
    return n;
}

static void test_pmp_against_the_byte_rule(void **state)
{
    fixture *f = *state;
    mt_cpu *c = &f->cpu;
    static const unsigned sizes[] = {1, 2, 4, 8, 64};
    static const int privs[] = {PRV_U, PRV_S, PRV_M};
    static uint64_t points[PMP_COUNT * 21 + 3 * 17 + 64];
    unsigned long long checked = 0, allowed = 0;
    for (unsigned config = 0; config < 60; config++) {
        cpu_reset(c, WINDOW);
        unsigned used = 1 + (unsigned)(next() % PMP_COUNT);
        for (unsigned i = 0; i < used; i++)
            random_entry(c, i);
        for (unsigned round = 0; round < 3; round++) {
            if (round) /* rewrite one entry: the cached pages must not keep its old answer */
                random_entry(c, (unsigned)(next() % used));
            unsigned n = probe_points(c, points);
            for (unsigned p = 0; p < n; p++)
                for (unsigned s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
                    for (unsigned v = 0; v < 3; v++)
                        for (unsigned perm = PMP_R; perm <= PMP_X; perm <<= 1)
                            for (int twice = 0; twice < 2; twice++) {
                                bool want = reference_allows(c, points[p], sizes[s], perm, privs[v]);
                                bool got = pmp_allows(c, points[p], sizes[s], perm, privs[v]);
                                if (got != want)
                                    print_error("config %u round %u: pa %#llx size %u perm %u priv %d: %d, the spec says %d\n",
                                                config, round, (unsigned long long)points[p], sizes[s], perm,
                                                privs[v], got, want);
                                assert_int_equal(got, want);
                                checked++;
                                allowed += want;
                            }
        }
    }
    print_message("%llu checks, %llu allowed\n", checked, allowed);
    /* both answers were common: the cases are not all alike */
    assert_true(allowed > checked / 10 && allowed < checked - checked / 10);
}

static int setup(void **state) { return fixture_setup(state, 1 << 16); }

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_pmp_against_the_byte_rule, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
