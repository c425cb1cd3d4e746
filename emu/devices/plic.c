#include "emu/devices/plic.h"

#include <string.h>

/* The source that context `ctx` would claim now, or 0. */
static unsigned best_source(const mt_plic *p, unsigned ctx)
{
    unsigned best = 0;
    uint32_t best_prio = 0;
    for (unsigned i = 1; i < PLIC_SOURCES; i++) {
        if (!p->pending[i] || p->claimed[i] || !((p->enable[ctx][i / 32] >> (i % 32)) & 1))
            continue;
        if (p->priority[i] > p->threshold[ctx] && p->priority[i] > best_prio) {
            best = i;
            best_prio = p->priority[i];
        }
    }
    return best;
}

static void update(mt_plic *p)
{
    for (unsigned h = 0; h < p->nharts; h++) {
        cpu_set_irq_line(p->cpu[h], MIP_MEIP, best_source(p, 2 * h) != 0);
        cpu_set_irq_line(p->cpu[h], MIP_SEIP, best_source(p, 2 * h + 1) != 0);
    }
}

void plic_set_irq(mt_plic *p, unsigned irq, bool level)
{
    if (irq == 0 || irq >= PLIC_SOURCES)
        return;
    p->level[irq] = level;
    if (!p->claimed[irq])
        p->pending[irq] = level;
    update(p);
}

static bool plic_read(void *ctx, uint64_t off, unsigned size, uint64_t *val)
{
    mt_plic *p = ctx;
    if (size != 4)
        return false;
    *val = 0;
    if (off < 0x1000) {
        if (off / 4 < PLIC_SOURCES)
            *val = p->priority[off / 4];
    } else if (off < 0x2000) {
        unsigned w = (unsigned)(off - 0x1000) / 4;
        if (w < PLIC_SOURCES / 32)
            for (unsigned b = 0; b < 32; b++)
                if (p->pending[w * 32 + b])
                    *val |= UINT64_C(1) << b;
    } else if (off < 0x200000) {
        unsigned ctxn = (unsigned)(off - 0x2000) / 0x80, w = (unsigned)((off - 0x2000) % 0x80) / 4;
        if (ctxn < PLIC_CONTEXTS && w < PLIC_SOURCES / 32)
            *val = p->enable[ctxn][w];
    } else {
        unsigned ctxn = (unsigned)(off - 0x200000) / 0x1000, reg = (unsigned)(off & 0xfff);
        if (ctxn < PLIC_CONTEXTS && reg == 0) {
            *val = p->threshold[ctxn];
        } else if (ctxn < PLIC_CONTEXTS && reg == 4) { /* claim */
            unsigned s = best_source(p, ctxn);
            if (s) {
                p->pending[s] = false;
                p->claimed[s] = true;
            }
            *val = s;
            update(p);
        }
    }
    return true;
}

static bool plic_write(void *ctx, uint64_t off, unsigned size, uint64_t val)
{
    mt_plic *p = ctx;
    if (size != 4)
        return false;
    if (off < 0x1000) {
        if (off / 4 < PLIC_SOURCES && off / 4 != 0)
            p->priority[off / 4] = (uint32_t)val & 7;
    } else if (off < 0x2000) {
        /* pending bits are read-only */
    } else if (off < 0x200000) {
        unsigned ctxn = (unsigned)(off - 0x2000) / 0x80, w = (unsigned)((off - 0x2000) % 0x80) / 4;
        if (ctxn < PLIC_CONTEXTS && w < PLIC_SOURCES / 32)
            p->enable[ctxn][w] = (uint32_t)val & (w == 0 ? ~UINT32_C(1) : UINT32_MAX);
    } else {
        unsigned ctxn = (unsigned)(off - 0x200000) / 0x1000, reg = (unsigned)(off & 0xfff);
        if (ctxn < PLIC_CONTEXTS && reg == 0) {
            p->threshold[ctxn] = (uint32_t)val & 7;
        } else if (ctxn < PLIC_CONTEXTS && reg == 4) { /* complete */
            if (val > 0 && val < PLIC_SOURCES && p->claimed[val]) {
                p->claimed[val] = false;
                p->pending[val] = p->level[val];
            }
        }
    }
    update(p);
    return true;
}

mt_device plic_device(mt_plic *plic, mt_cpu *cpu)
{
    memset(plic, 0, sizeof *plic);
    plic->cpu[0] = cpu;
    plic->nharts = 1;
    return (mt_device){.name = "plic", .base = PLIC_BASE, .size = PLIC_SIZE, .ctx = plic,
                       .read = plic_read, .write = plic_write};
}

bool plic_add_hart(mt_plic *plic, mt_cpu *cpu)
{
    if (plic->nharts >= MT_MAX_HARTS)
        return false;
    plic->cpu[plic->nharts++] = cpu;
    return true;
}
