/* Time and the ways out of straight-line execution: mtime from the cycle counter, the timer
 * comparators (mtimecmp, Sstc's stimecmp and the guest's vstimecmp), the interrupt lines and the
 * choice of the interrupt to take, trap entry (and the trap-storm stop), and the commit log
 * (--log-commits, Spike's format) whose lines traps interleave with. */
#include "emu/cpu/trap.h"

#include <stdio.h>

#include "emu/cpu/csr.h"
#include "emu/cpu/hyp.h"

#define unlikely(x) __builtin_expect(!!(x), 0)


uint64_t cpu_mtime(const mt_cpu *c) { return c->cycle / CYCLES_PER_MTIME_TICK + c->mtime_offset; }

/* One timer comparison (time >= cmp drives `bit` of mip_hw); *ticks: the fewest mtime ticks
 * until one not yet true turns true. */
static void timer_compare(mt_cpu *c, bool on, uint64_t time, uint64_t cmp, uint64_t bit, uint64_t *ticks)
{
    if (on && cmp <= time) {
        c->mip_hw |= bit;
        return;
    }
    c->mip_hw &= ~bit;
    if (on && cmp - time < *ticks)
        *ticks = cmp - time;
}

static void timer_update(mt_cpu *c)
{
    uint64_t now = cpu_mtime(c), ticks = UINT64_MAX;
    timer_compare(c, true, now, c->mtimecmp, MIP_MTIP, &ticks);
    /* Sstc: S-mode's timer compares itself while menvcfg.STCE; a guest's (VS) runs on its own
     * time, mtime + htimedelta, while henvcfg.STCE (hip.VSTIP is then hvip.VSTIP or this) */
    timer_compare(c, (c->menvcfg & ENVCFG_STCE) != 0, now, c->stimecmp, MIP_STIP, &ticks);
    timer_compare(c, (c->hyp.henvcfg & ENVCFG_STCE) != 0, now + c->hyp.htimedelta, c->hyp.vstimecmp, MIP_VSTIP,
                  &ticks);
    uint64_t base = c->cycle / CYCLES_PER_MTIME_TICK;
    if (ticks == UINT64_MAX || ticks > UINT64_MAX / CYCLES_PER_MTIME_TICK - base)
        c->timer_cycle = UINT64_MAX;
    else
        c->timer_cycle = (base + ticks) * CYCLES_PER_MTIME_TICK;
    cpu_update_next_event(c);
}

void cpu_timer_changed(mt_cpu *c) { timer_update(c); }

uint64_t cpu_next_timer(const mt_cpu *c, uint64_t now)
{
    uint64_t next = UINT64_MAX;
    if ((c->mie & MIP_MTIP) && c->mtimecmp > now)
        next = c->mtimecmp;
    if ((c->mie & MIP_STIP) && (c->menvcfg & ENVCFG_STCE) && c->stimecmp > now && c->stimecmp < next)
        next = c->stimecmp;
    if ((c->mie & MIP_VSTIP) && (c->hyp.henvcfg & ENVCFG_STCE)) {
        uint64_t at = c->hyp.vstimecmp - c->hyp.htimedelta; /* guest time = mtime + htimedelta */
        if (c->hyp.vstimecmp > now + c->hyp.htimedelta && at > now && at < next)
            next = at;
    }
    return next;
}

void cpu_set_mtimecmp(mt_cpu *c, uint64_t val)
{
    c->mtimecmp = val;
    timer_update(c);
}

void cpu_set_mtime(mt_cpu *c, uint64_t val)
{
    c->mtime_offset = val - c->cycle / CYCLES_PER_MTIME_TICK;
    timer_update(c);
}

uint64_t cpu_mip(const mt_cpu *c) { return c->mip_sw | c->mip_hw; }

/* The interrupt that would be taken now (its number), or -1. */
int cpu_pending_interrupt(const mt_cpu *c)
{
    uint64_t pend = cpu_mip(c) & c->mie;
    if (!pend)
        return -1;
    if (unlikely(c->hyp.virt || (pend & MIP_VS_MASK)))
        return hyp_pending_interrupt(c);
    uint64_t m = pend & ~c->mideleg, s = pend & c->mideleg;
    bool m_on = c->priv < PRV_M || (c->mstatus & MSTATUS_MIE);
    bool s_on = c->priv < PRV_S || (c->priv == PRV_S && (c->mstatus & MSTATUS_SIE));
    uint64_t take = (m && m_on) ? m : (s && s_on) ? s : 0;
    if (!take)
        return -1;
    static const int order[] = {IRQ_MEI, IRQ_MSI, IRQ_MTI, IRQ_SEI, IRQ_SSI, IRQ_STI};
    for (unsigned i = 0; i < sizeof order / sizeof order[0]; i++)
        if (take & (UINT64_C(1) << order[i]))
            return order[i];
    return -1;
}

void cpu_set_irq_line(mt_cpu *c, uint64_t bit, bool level)
{
    uint64_t old = c->mip_hw;
    if (level)
        c->mip_hw |= bit;
    else
        c->mip_hw &= ~bit;
    if (old != c->mip_hw && level)
        c->next_event = c->other_event = 0; /* look at it before the next instruction */
}

bool cpu_check_interrupts(mt_cpu *c)
{
    int irq = cpu_pending_interrupt(c);
    if (irq < 0)
        return false;
    cpu_take_trap(c, CAUSE_INTERRUPT | (uint64_t)irq, 0);
    return true;
}

void cpu_log_flush(mt_cpu *c, bool committed)
{
    if (!c->log_pending)
        return;
    FILE *f = c->log_file ? (FILE *)c->log_file : stderr;
    c->log_pending = false;
    if (!committed)
        return;
    if (c->log_len == 2)
        fprintf(f, "core   0: %d 0x%016llx (0x%04x)", c->log_priv, (unsigned long long)c->log_pc, (unsigned)c->log_raw);
    else
        fprintf(f, "core   0: %d 0x%016llx (0x%08x)", c->log_priv, (unsigned long long)c->log_pc, (unsigned)c->log_raw);
    if (c->log_rd != 32)
        fprintf(f, " x%-2d 0x%016llx", c->log_rd, (unsigned long long)c->x[c->log_rd]);
    fputc('\n', f);
}

void cpu_take_trap(mt_cpu *c, uint64_t cause, uint64_t tval)
{
    bool irq = (cause & CAUSE_INTERRUPT) != 0;
    uint64_t code = cause & ~CAUSE_INTERRUPT;
    /* a trap costs a cycle, so that time (timers, device polling) advances even in a trap
     * storm, e.g. a handler that faults itself */
    c->cycle++;
    c->trap_count++;
    if (c->instret != c->storm_instret) {
        c->storm_instret = c->instret;
        c->storm_traps = 0;
    }
    if (++c->storm_traps >= CPU_TRAP_STORM_LIMIT && !c->trap_stuck) {
        c->trap_stuck = true;
        c->stuck_pc = c->pc;
        c->stuck_cause = cause;
        cpu_request_stop(c);
    }
    if (c->log_commits) {
        cpu_log_flush(c, false);
        fprintf(c->log_file ? (FILE *)c->log_file : stderr, "core   0: exception %s 0x%llx, epc 0x%016llx, tval 0x%llx\n",
                irq ? "interrupt" : "cause", (unsigned long long)code, (unsigned long long)c->pc, (unsigned long long)tval);
    }
    hyp_take_trap(c, cause, tval); /* routes to M, HS or VS (emu/cpu/hyp.c) */
}
