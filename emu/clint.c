#include "emu/clint.h"

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

static bool clint_read(void *ctx, uint64_t off, unsigned size, uint64_t *val)
{
    mt_clint *c = ctx;
    if (off == 0 && size == 4) {
        *val = c->msip;
        return true;
    }
    if (off >= 0x4000 && off < 0x4008)
        return reg64_read(c->cpu->mtimecmp, off - 0x4000, size, val);
    if (off >= 0xbff8 && off < 0xc000)
        return reg64_read(cpu_mtime(c->cpu), off - 0xbff8, size, val);
    if (off < 0xc000 && size == 4) { /* other harts' registers: absent, read as zero */
        *val = 0;
        return true;
    }
    return false;
}

static bool clint_write(void *ctx, uint64_t off, unsigned size, uint64_t val)
{
    mt_clint *c = ctx;
    if (off == 0 && size == 4) {
        c->msip = val & 1;
        cpu_set_irq_line(c->cpu, MIP_MSIP, c->msip);
        return true;
    }
    if (off >= 0x4000 && off < 0x4008) {
        uint64_t v = c->cpu->mtimecmp;
        if (!reg64_write(&v, off - 0x4000, size, val))
            return false;
        cpu_set_mtimecmp(c->cpu, v);
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
    clint->cpu = cpu;
    clint->msip = 0;
    return (mt_device){.name = "clint", .base = CLINT_BASE, .size = CLINT_SIZE, .ctx = clint,
                       .read = clint_read, .write = clint_write};
}
