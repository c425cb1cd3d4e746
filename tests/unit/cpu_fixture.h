/* A bare hart on a bus with RAM at 0x8000_0000, for unit tests that drive emu/ directly (CSRs,
 * the H extension), and the CSR read/write helpers they share. Include after <cmocka.h>. */
#ifndef TESTS_UNIT_CPU_FIXTURE_H
#define TESTS_UNIT_CPU_FIXTURE_H

#include <stdint.h>
#include <stdlib.h>

#include "emu/platform/bus.h"
#include "emu/cpu/cpu.h"
#include "emu/cpu/csr.h"

#define FIXTURE_RAM_BASE UINT64_C(0x80000000)

typedef struct {
    mt_ram *ram;
    mt_bus bus;
    mt_cpu cpu;
} fixture;

static inline int fixture_setup(void **state, uint64_t ram_bytes)
{
    fixture *f = calloc(1, sizeof *f);
    if (!f)
        return -1;
    f->ram = ram_create(FIXTURE_RAM_BASE, ram_bytes);
    bus_init(&f->bus, f->ram);
    cpu_init(&f->cpu, &f->bus, TIMING_NONE);
    *state = f;
    return 0;
}

static inline int teardown(void **state)
{
    fixture *f = *state;
    cpu_free(&f->cpu);
    ram_destroy(f->ram);
    free(f);
    return 0;
}

/* CSR read / write that must succeed. */
static inline uint64_t rd(mt_cpu *c, unsigned csr)
{
    uint64_t v = 0;
    assert_int_equal(csr_access(c, csr, CSR_OP_RS, 0, false, &v), EXC_NONE);
    return v;
}

static inline void wr(mt_cpu *c, unsigned csr, uint64_t v)
{
    uint64_t old;
    assert_int_equal(csr_access(c, csr, CSR_OP_RW, v, true, &old), EXC_NONE);
}

#endif
