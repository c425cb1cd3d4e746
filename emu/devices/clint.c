#include "emu/devices/clint.h"

#include <string.h>

/* 64-bit registers accessed as a whole or as 32-bit halves. */
static bool reg64_read(uint64_t reg, uint64_t off, unsigned size, uint64_t *val)
{
    if (size == 8 && off == 0)
        *val = reg;
    else if (size == 4 && (off == 0 || off == 4))
        *val = (uint32_t)(reg >> (8 * off));
    else
        return false;
    return true;
}

static bool reg64_write(uint64_t *reg, uint64_t off, unsigned size, uint64_t val)
{
    if (size == 8 && off == 0)
        *reg = val;
    else if (size == 4 && (off == 0 || off == 4))
        *reg = (*reg & ~(UINT64_C(0xffffffff) << (8 * off))) | ((val & 0xffffffffu) << (8 * off));
    else
        return false;
    return true;
}

/* The hart whose register `off` is in [base, base + n * stride), or NULL. */
static mt_cpu *hart_at(const mt_clint *c, uint64_t off, uint64_t base, uint64_t stride, uint64_t *rel)
{
    if (off < base || off >= base + c->nharts * stride)
        return NULL;
    *rel = (off - base) % stride;
    return c->harts[(off - base) / stride];
}

static bool clint_read(void *ctx, uint64_t off, unsigned size, uint64_t *val)
{
    mt_clint *c = ctx;
    uint64_t rel;
    mt_cpu *h;
    if ((h = hart_at(c, off, 0, 4, &rel)) && size == 4) {
        *val = c->msip[(off) / 4];
        return true;
    }
    if ((h = hart_at(c, off, 0x4000, 8, &rel)))
        return reg64_read(h->mtimecmp, rel, size, val);
    if (off >= 0xbff8 && off < 0xc000)
        return reg64_read(cpu_mtime(c->cpu), off - 0xbff8, size, val);
    if (off < 0xc000 && size == 4) { /* absent harts' registers: read as zero */
        *val = 0;
        return true;
    }
    return false;
}

static bool clint_write(void *ctx, uint64_t off, unsigned size, uint64_t val)
{
    mt_clint *c = ctx;
    uint64_t rel;
    mt_cpu *h;
    if ((h = hart_at(c, off, 0, 4, &rel)) && size == 4) {
        c->msip[off / 4] = val & 1;
        cpu_set_irq_line(h, MIP_MSIP, val & 1);
        return true;
    }
    if ((h = hart_at(c, off, 0x4000, 8, &rel))) {
        uint64_t v = h->mtimecmp;
        if (!reg64_write(&v, rel, size, val))
            return false;
        cpu_set_mtimecmp(h, v);
        return true;
    }
    if (off >= 0xbff8 && off < 0xc000) {
        uint64_t v = cpu_mtime(c->cpu);
        if (!reg64_write(&v, off - 0xbff8, size, val))
            return false;
        cpu_set_mtime(c->cpu, v);
        return true;
    }
    return off < 0xc000 && size == 4;
}

mt_device clint_device(mt_clint *clint, mt_cpu *cpu)
{
    memset(clint, 0, sizeof *clint);
    clint->cpu = cpu;
    clint->harts[0] = cpu;
    clint->nharts = 1;
    return (mt_device){.name = "clint", .base = CLINT_BASE, .size = CLINT_SIZE, .ctx = clint,
                       .read = clint_read, .write = clint_write};
}

bool clint_add_hart(mt_clint *clint, mt_cpu *cpu)
{
    if (clint->nharts >= MT_MAX_HARTS)
        return false;
    clint->harts[clint->nharts++] = cpu;
    return true;
}
