#include "vplic.h"

#include "vmm_defs.h"
#include "vuart.h"

enum {
    PRIORITY_BASE = 0x0,      /* 4 bytes per source, source 0 does not exist */
    PENDING_BASE = 0x1000,    /* read-only bits */
    ENABLE_BASE = 0x2000,     /* context 0's enable bits */
    CONTEXT_BASE = 0x200000,  /* context 0: threshold, then claim/complete */
};

static struct {
    uint32_t priority[VPLIC_NDEV + 1];
    uint32_t pending, enable, threshold;
    uint32_t claimed; /* sources claimed and not yet completed: their gateway is closed */
} p;

static void set_vseip(int on)
{
    if (on)
        __asm__ volatile("csrs 0x645, %0" ::"r"(MIP_VSEIP));
    else
        __asm__ volatile("csrc 0x645, %0" ::"r"(MIP_VSEIP));
}

/* the highest-priority pending and enabled source above the threshold (lowest id on ties), or 0 */
static unsigned best_source(void)
{
    unsigned best = 0;
    for (unsigned i = 1; i <= VPLIC_NDEV; i++)
        if ((p.pending & p.enable & (1u << i)) && p.priority[i] > p.threshold &&
            (best == 0 || p.priority[i] > p.priority[best]))
            best = i;
    return best;
}

void vplic_update(void)
{
    if (vuart_irq_line() && !(p.claimed & (1u << VUART_IRQ)))
        p.pending |= 1u << VUART_IRQ;
    else if (!vuart_irq_line())
        p.pending &= ~(1u << VUART_IRQ); /* a level source's request goes away with the line */
    set_vseip(best_source() != 0);
}

uint32_t vplic_read(uint64_t off)
{
    if (off < PENDING_BASE)
        return off / 4 <= VPLIC_NDEV ? p.priority[off / 4] : 0;
    if (off == PENDING_BASE)
        return p.pending;
    if (off == ENABLE_BASE)
        return p.enable;
    if (off == CONTEXT_BASE)
        return p.threshold;
    if (off == CONTEXT_BASE + 4) { /* claim */
        unsigned id = best_source();
        if (id) {
            p.pending &= ~(1u << id);
            p.claimed |= 1u << id;
        }
        vplic_update();
        return id;
    }
    return 0;
}

void vplic_write(uint64_t off, uint32_t v)
{
    if (off < PENDING_BASE && off / 4 >= 1 && off / 4 <= VPLIC_NDEV)
        p.priority[off / 4] = v & 7;
    else if (off == ENABLE_BASE)
        p.enable = v & ~1u;
    else if (off == CONTEXT_BASE)
        p.threshold = v & 7;
    else if (off == CONTEXT_BASE + 4 && v >= 1 && v <= VPLIC_NDEV) /* complete */
        p.claimed &= ~(1u << v);
    vplic_update();
}
