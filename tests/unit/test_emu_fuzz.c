/* Robustness: random instruction streams (with random page tables, PMP and CSR values that the
 * stream itself may install) must never crash or corrupt the emulator.  Runs under ASan/UBSan in
 * `make SAN=1 test`.  Deterministic seeds; each run is bounded by an instruction limit. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "emu/platform/bus.h"
#include "emu/devices/clint.h"
#include "emu/cpu/cpu.h"
#include "emu/cpu/pmp.h"
#include "emu/devices/finisher.h"
#include "emu/devices/plic.h"
#include "emu/devices/uart.h"

#define RAMB UINT64_C(0x80000000)
#define RAMSZ (UINT64_C(1) << 20)

static uint64_t next(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

/* Biased towards real opcodes so that streams get past the first illegal instruction. */
static uint32_t random_insn(uint64_t *s)
{
    static const uint32_t opcodes[] = {0x03, 0x13, 0x17, 0x1b, 0x23, 0x2f, 0x33, 0x37, 0x3b, 0x63, 0x67, 0x6f, 0x73, 0x0f};
    uint64_t r = next(s);
    if ((r & 3) == 0) /* a compressed pair */
        return (uint32_t)(r >> 8);
    uint32_t w = (uint32_t)(r >> 16) & ~0x7fu;
    w |= opcodes[(r >> 2) % (sizeof opcodes / sizeof opcodes[0])];
    if ((w & 0x7f) == 0x73 && ((r >> 40) & 1)) /* CSR numbers that matter */
        w = (w & 0x000fffff) | (uint32_t)((const uint16_t[]){0x300, 0x180, 0x3a0, 0x3b0, 0x305, 0x304, 0x344, 0x100,
                                                               0x105, 0x302, 0x303, 0x341, 0xc01, 0x7a0})[(r >> 41) % 14]
                                                 << 20;
    return w;
}

static void stop_after_cycles(void *ctx)
{
    mt_cpu *c = ctx;
    if (c->cycle > 50 * 200000)
        cpu_request_stop(c);
}

static void run_seed(uint64_t seed, mt_timing_mode timing, uint64_t *retired_total)
{
    mt_ram *ram = ram_create(RAMB, RAMSZ);
    mt_bus *bus = calloc(1, sizeof *bus);
    mt_cpu *c = calloc(1, sizeof *c);
    mt_clint clint;
    mt_plic *plic = calloc(1, sizeof *plic);
    mt_uart uart;
    mt_finisher fin;
    FILE *devnull = fopen("/dev/null", "w");
    bus_init(bus, ram);
    cpu_init(c, bus, timing);
    mt_device d = clint_device(&clint, c);
    bus_add_device(bus, &d);
    d = plic_device(plic, c);
    bus_add_device(bus, &d);
    d = uart_device(&uart, plic, devnull, -1);
    bus_add_device(bus, &d);
    d = finisher_device(&fin, c);
    bus_add_device(bus, &d);
    uint64_t s = seed;
    for (uint64_t a = RAMB; a < RAMB + RAMSZ; a += 4) {
        uint32_t w = (a & 0xff000) < 0x10000 ? random_insn(&s) : (uint32_t)next(&s);
        ram_host_write(ram, a, &w, 4);
    }
    /* trap handlers that skip the faulting instruction and fold the return address back into the
     * 64 KiB of random code, so streams keep going: csrr t6, xepc; addi t6, t6, 4;
     * slli t6, t6, 48; srli t6, t6, 48; csrr t5, xscratch (= RAM base); add t6, t6, t5;
     * csrw xepc, t6; xret */
    static const uint32_t m_handler[] = {0x34102ff3, 0x004f8f93, 0x030f9f93, 0x030fdf93,
                                         0x34002f73, 0x01ef8fb3, 0x341f9073, 0x30200073};
    static const uint32_t s_handler[] = {0x14102ff3, 0x004f8f93, 0x030f9f93, 0x030fdf93,
                                         0x14002f73, 0x01ef8fb3, 0x141f9073, 0x10200073};
    ram_host_write(ram, RAMB + 0x100, m_handler, sizeof m_handler);
    ram_host_write(ram, RAMB + 0x200, s_handler, sizeof s_handler);
    cpu_reset(c, RAMB + 0x400);
    c->mtvec = RAMB + 0x100;
    c->stvec = RAMB + 0x200;
    c->mscratch = c->sscratch = RAMB;
    c->pmpaddr[0] = UINT64_MAX >> 10; /* NAPOT over everything: S and U may run */
    c->pmpcfg[0] = 0x1f;
    pmp_rebuild(c);
    c->medeleg = next(&s) & 0xb3ff;
    c->mstatus = (next(&s) & 3) << MSTATUS_MPP_SHIFT; /* the first mret may drop privilege */
    c->satp = (UINT64_C(8) << 60) | ((RAMB + 0x40000) >> 12); /* random bytes as page tables */
    c->insn_limit = 200000;
    c->on_poll = stop_after_cycles; /* a trap storm retires nothing: bound the run by time too */
    c->poll_ctx = c;
    cpu_update_next_event(c);
    cpu_run(c);
    assert_true(c->instret <= 200000);
    retired_total[0] += c->instret;
    assert_true(c->stop);
    fclose(devnull);
    cpu_free(c);
    free(c);
    free(plic);
    free(bus);
    ram_destroy(ram);
}

static void test_random_streams(void **state)
{
    (void)state;
    uint64_t retired = 0;
    for (uint64_t seed = 1; seed <= 64; seed++)
        run_seed(seed * 0x9e3779b97f4a7c15ull, seed % 3 == 0 ? TIMING_CACHE : seed % 3 == 1 ? TIMING_SIMPLE : TIMING_NONE,
                 &retired);
    assert_true(retired > 64 * 200000 / 4); /* the streams really ran (not only traps) */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_random_streams),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
