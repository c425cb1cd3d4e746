/* The hart: a threaded interpreter over decoded 4 KiB code pages, traps, interrupts, the
 * software TLBs, the decoded-page cache and the bus-access hook.
 *
 * Execution model.  The outer loop takes interrupts, handles WFI and finds the decoded page of
 * pc through the instruction TLB.  The inner loop then runs instruction after instruction of that
 * page: each handler ends by dispatching the next slot directly (computed goto).  The inner loop
 * is left only by control transfers out of the page, sentinels past the page end, instructions
 * with system side effects (CSR writes, xRET, WFI, fences of the MMU) and traps.  Cycles and
 * instructions are charged per straight-line run, with one compare per run against next_event,
 * which covers the access hook (fetch and data events), the timer, the instruction limit and
 * device polling (see interpreter() and docs/emulator.md).  Data accesses hit the data TLB (one
 * tag compare, host pointer). */
#include "emu/cpu.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emu/bus.h"
#include "emu/cache.h"
#include "emu/csr.h"
#include "emu/decode.h"
#include "emu/mmu.h"
#include "emu/exec_fp.h"

#define likely(x) __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)
#define DPAGE_MAX 4096 /* decoded pages kept (128 MiB); more: flush them all and start again */
#define PAGE_MASK (~UINT64_C(0xfff))

_Static_assert(sizeof(mt_dinsn) == 16, "decoded instructions are 16 bytes");
/* a run's sums fit the 16-bit run fields: at most 2048 slots of at most 20 + 1 cycles */
_Static_assert(DPAGE_SLOTS * (20 + 1) <= UINT16_MAX, "run sums fit 16 bits");

/* ---- timing model ------------------------------------------------------------------------ */

/* Base cycles per instruction class (the fetch included; every data access and page-table
 * access adds one more cycle as it is stamped on the shared bus port). */
static void set_timing(mt_cpu *c, mt_timing_mode mode)
{
    static const uint8_t simple[CLS_COUNT] = {
        [CLS_ALU] = 1, [CLS_BRANCH] = 1, [CLS_JUMP] = 2, [CLS_LOAD] = 2, [CLS_STORE] = 1,
        [CLS_MUL] = 3, [CLS_DIV] = 20, /* at most 20: the run sums (mt_dinsn) are 16 bits */ [CLS_ATOMIC] = 4, [CLS_SYSTEM] = 4, [CLS_FP] = 3,
    };
    c->timing = mode; /* cache: the simple latencies plus what the cache model adds per access */
    for (int i = 0; i < CLS_COUNT; i++)
        c->cost[i] = mode == TIMING_NONE ? 1 : simple[i];
    /* a pair's op costs what its first instruction does; the interpreter's own slots (not yet
     * decoded, past the page end, straddling two pages, stopped at) are charged nothing */
    for (unsigned op = 0; op < OP_COUNT; op++)
        c->op_cost[op] = op <= OP_BREAK ? 0 : c->cost[insn_class(op_pair_first(op))];
    c->taken_branch_penalty = mode == TIMING_NONE ? 0 : 2;
}

/* ---- life cycle -------------------------------------------------------------------------- */

/* A page of sentinels, where the interpreter runs an instruction that straddles two pages:
 * whatever slot it goes to next sends execution back to a real page. */
static mt_dpage *scratch_page_alloc(void)
{
    mt_dpage *p = calloc(1, sizeof *p);
    if (!p) {
        fprintf(stderr, "mtemu: out of memory\n");
        exit(3);
    }
    for (unsigned i = 0; i < DPAGE_SLOTS + 4; i++)
        p->slot[i].op = OP_PAGE_END;
    return p;
}

void cpu_init(mt_cpu *c, struct mt_bus *bus, mt_timing_mode timing)
{
    memset(c, 0, sizeof *c);
    c->bus = bus;
    c->fp_exec = exec_fp;
    set_timing(c, timing);
    c->listener_due = UINT64_MAX;
    c->insn_limit = UINT64_MAX;
    c->trap_limit = UINT64_MAX;
    c->timer_cycle = UINT64_MAX;
    c->mtimecmp = UINT64_MAX;
    c->obs_last_pfn = UINT64_MAX;
    c->poll_cycle = BUS_POLL_CYCLES;
    c->cross_page = scratch_page_alloc();
    c->dtlb_used = (1u << DTLB_SETS) - 1; /* zeroed entries are not invalid yet */
    c->itlb_used = 0xf;
    cpu_reset(c, 0x1000);
}

static void dpage_free_all(mt_cpu *c)
{
    c->brk_slot = NULL; /* in a page freed here */
    for (unsigned h = 0; h < DPAGE_HASH; h++) {
        mt_dpage *p = c->dpage_hash[h];
        while (p) {
            mt_dpage *n = p->hnext;
            free(p);
            p = n;
        }
        c->dpage_hash[h] = NULL;
    }
    c->dpage_count = 0;
}

void cpu_free(mt_cpu *c)
{
    dpage_free_all(c);
    free(c->cross_page);
    c->cross_page = NULL;
}

void cpu_reset(mt_cpu *c, uint64_t pc)
{
    memset(c->x, 0, sizeof c->x);
    c->pc = pc;
    c->priv = PRV_M;
    c->mstatus = 0;
    c->misa = csr_misa();
    c->mie = c->mip_sw = 0;
    c->medeleg = c->mideleg = 0;
    c->satp = 0;
    c->mcause = 0;
    c->resv_valid = false;
    c->wfi = false;
    c->frm = c->fflags = 0;
    memset(c->pmpcfg, 0, sizeof c->pmpcfg);
    memset(c->pmpaddr, 0, sizeof c->pmpaddr);
    c->pmp_active = false;
    memset(&c->hyp, 0, sizeof c->hyp);
    cpu_flush_tlb(c);
    cpu_update_priv_ctx(c);
    cpu_update_next_event(c);
}

/* ---- translation caches ------------------------------------------------------------------ */

void cpu_flush_tlb(mt_cpu *c)
{
    for (int m = 0; m < DTLB_SETS; m++)
        if (c->dtlb_used & (1u << m))
            for (unsigned i = 0; i < TLB_SIZE; i++)
                c->dtlb[m][i].tag_r = c->dtlb[m][i].tag_w = TLB_INVALID;
    for (int m = 0; m < 4; m++)
        if (c->itlb_used & (1u << m))
            for (unsigned i = 0; i < TLB_SIZE; i++)
                c->itlb[m][i].tag = TLB_INVALID;
    c->dtlb_used = c->itlb_used = 0;
}

void cpu_update_priv_ctx(mt_cpu *c)
{
    c->data_priv = c->priv;
    if (c->priv == PRV_M && (c->mstatus & MSTATUS_MPRV))
        c->data_priv = (int)((c->mstatus & MSTATUS_MPP) >> MSTATUS_MPP_SHIFT);
    int mxr = (c->mstatus & MSTATUS_MXR) != 0, sum = (c->mstatus & MSTATUS_SUM) != 0;
    c->dset = c->data_priv == PRV_M ? 6 : c->data_priv == PRV_S ? 2 + sum + 2 * mxr : mxr;
    c->cur_dtlb = c->dtlb[c->dset];
    c->cur_itlb = c->itlb[c->priv];
    hyp_update_ctx(c); /* V, or M-mode loads/stores with MPRV+MPV: two-stage translation */
}

void cpu_invalidate_phys(mt_cpu *c, uint64_t base, uint64_t len)
{
    for (int m = 0; m < DTLB_SETS; m++) {
        if (!(c->dtlb_used & (1u << m)))
            continue; /* every tag invalid since the set's last flush */
        for (unsigned i = 0; i < TLB_SIZE; i++) {
            mt_dtlb_entry *d = &c->dtlb[m][i];
            if (d->pa - base < len) {
                if (d->tag_r != TLB_INVALID)
                    d->tag_r |= TLB_STALE;
                if (d->tag_w != TLB_INVALID)
                    d->tag_w |= TLB_STALE;
            }
        }
    }
    /* ITLB entries hold no host pointer (decoding asks the RAM each time): nothing to drop */
}

mt_dpage *cpu_dpage_lookup(mt_cpu *c, uint64_t pa)
{
    for (mt_dpage *p = c->dpage_hash[(pa >> 12) & (DPAGE_HASH - 1)]; p; p = p->hnext)
        if (p->pa == pa)
            return p;
    return NULL;
}

/* Only called from the outer loop (never while a page is executing), so a full flush is safe. */
mt_dpage *cpu_dpage_create(mt_cpu *c, uint64_t pa)
{
    if (c->dpage_count >= DPAGE_MAX) {
        dpage_free_all(c);
        for (int m = 0; m < 4; m++)
            for (unsigned i = 0; i < TLB_SIZE; i++)
                c->itlb[m][i].tag = TLB_INVALID;
    }
    mt_dpage *p = calloc(1, sizeof *p);
    if (!p) {
        fprintf(stderr, "mtemu: out of memory for decoded instructions\n");
        exit(3);
    }
    p->pa = pa;
    for (unsigned i = DPAGE_SLOTS; i < DPAGE_SLOTS + 4; i++)
        p->slot[i].op = OP_PAGE_END;
    unsigned h = (pa >> 12) & (DPAGE_HASH - 1);
    p->hnext = c->dpage_hash[h];
    c->dpage_hash[h] = p;
    c->dpage_count++;
    /* stores to a code page must come to the slow path, which keeps the slots coherent */
    for (int m = 0; m < DTLB_SETS; m++)
        for (unsigned i = 0; i < TLB_SIZE; i++)
            if (c->dtlb[m][i].pa == pa)
                c->dtlb[m][i].tag_w = TLB_INVALID;
    return p;
}

void cpu_code_written(mt_cpu *c, uint64_t pa, uint64_t len)
{
    mt_dpage *p = cpu_dpage_lookup(c, pa & PAGE_MASK);
    if (!p || len == 0)
        return;
    uint64_t off = pa & 0xfff;
    uint64_t first = off >= 2 ? (off - 2) / 2 : 0; /* a 4-byte instruction may start 2 bytes before */
    uint64_t last = (off + len - 1) / 2;
    if (last >= DPAGE_SLOTS)
        last = DPAGE_SLOTS - 1;
    /* a written instruction also changes what the runs through it are charged, and runs from
     * anywhere before it in the page may flow into it: the whole page is decoded again */
    for (uint64_t i = first; i <= last; i++)
        if (p->slot[i].op != OP_DECODE) {
            if (c->brk_slot && c->brk_slot - p->slot < DPAGE_SLOTS && c->brk_slot >= p->slot)
                c->brk_slot = NULL;
            memset(p->slot, 0, sizeof p->slot[0] * DPAGE_SLOTS); /* OP_DECODE */
            return;
        }
}

/* Gives the slot stopped at for an event (OP_BREAK) its op back. */
static void unbreak(mt_cpu *c)
{
    if (c->brk_slot) {
        c->brk_slot->op = c->brk_op;
        c->brk_slot = NULL;
    }
}

/* The cycle a data access of the fast path adds (loads and stores that hit the TLB). */
static unsigned op_access_cycles(unsigned op)
{
    op = op_uncompressed(op);
    return op >= OP_LB && op <= OP_SD;
}

/* The ops whose handlers go on to the next slot (NEXT) on their fast path: a run of them, up to
 * and including the first other op, is charged at once when it is entered. */
static bool op_continues_run(unsigned op)
{
    switch (op_uncompressed(op)) {
#define MT_OP_CASE(n) case OP_##n:
    MT_STRAIGHT_OPS(MT_OP_CASE)
#undef MT_OP_CASE
        return true;
    default:
        return false;
    }
}

/* Fills slot d of page dp from memory (the instruction may straddle into the next page: then
 * the slot becomes OP_CROSS, decoded again at every execution). */
static void decode_slot(mt_cpu *c, mt_dpage *dp, mt_dinsn *d)
{
    unsigned idx = (unsigned)(d - dp->slot);
    const uint8_t *page = bus_page_for_read(c->bus, dp->pa);
    uint16_t lo, hi = 0;
    memcpy(&lo, page + idx * 2, 2);
    if (insn_length(lo) == 4 && idx == DPAGE_SLOTS - 1) {
        memset(d, 0, sizeof *d);
        d->op = OP_CROSS;
        d->step = 4 * sizeof(mt_dinsn) / 2;
        d->rd = 32;
    } else {
        if (insn_length(lo) == 4)
            memcpy(&hi, page + idx * 2 + 2, 2);
        decode_insn((uint32_t)lo | (uint32_t)hi << 16, d);
        /* a branch or JAL into the same page jumps slot to slot: no page check, no pc */
        int64_t target = (int64_t)idx + d->imm / 2;
        if (((d->op >= OP_BEQ && d->op <= OP_BGEU) || d->op == OP_JAL) && target >= 0 && target < DPAGE_SLOTS) {
            d->op = d->op == OP_JAL ? OP_JAL_L : (uint16_t)(OP_BEQ_L + (d->op - OP_BEQ));
            d->imm = d->imm / 2 * (int32_t)sizeof(mt_dinsn);
        }
        if (dinsn_len(d) == 2)
            d->op = (uint16_t)op_compressed_twin(d->op);
    }
    c->dpage_decodes++;
}

/* Decodes the run that starts at the undecoded slot `first`: slot after slot up to the first op
 * that ends a run, the page end, or a slot already decoded (whose run this one flows into), then
 * sums the run fields from the end backwards. */
static void decode_run(mt_cpu *c, mt_dpage *dp, mt_dinsn *first)
{
    mt_dinsn *run[DPAGE_SLOTS];
    unsigned n = 0;
    const mt_dinsn *tail = NULL;
    for (mt_dinsn *d = first;;) {
        decode_slot(c, dp, d);
        run[n++] = d;
        mt_dinsn *next = (mt_dinsn *)((char *)d + d->step);
        if (!op_continues_run(d->op) || next - dp->slot >= DPAGE_SLOTS)
            break;
        if (next->op != OP_DECODE) {
            tail = next;
            break;
        }
        d = next;
    }
    /* cycles: base costs and the data accesses of the fast path; span: the same with at least
     * one cycle per instruction, the bound of how far the cycle counter moves before the run's
     * last boundary or access */
    unsigned cost = tail ? tail->run_cost : 0, insns = tail ? tail->run_insns : 0;
    unsigned span = tail ? tail->run_bound + 1u : 0;
    for (unsigned i = n; i--;) {
        mt_dinsn *d = run[i];
        unsigned step = c->op_cost[d->op] + op_access_cycles(d->op);
        cost += step;
        insns++;
        span += step ? step : 1;
        d->run_cost = (uint16_t)cost;
        d->run_insns = (uint16_t)insns;
        d->run_bound = (uint16_t)(span - 1);
    }
    /* fused pairs (decode.h) inside the run; pairs may overlap: each slot is the first of the
     * pair it starts, wherever execution enters */
    for (unsigned i = 0; i + 1 < n; i++) {
        unsigned pair = op_pair(op_uncompressed(run[i]->op), dinsn_len(run[i]), op_uncompressed(run[i + 1]->op),
                                dinsn_len(run[i + 1]));
        if (pair != OP_DECODE)
            run[i]->op = (uint16_t)pair;
    }
}

/* The op that executes slot d alone (a pair's first instruction by itself). */
static unsigned op_alone(const mt_dinsn *d)
{
    if (!op_is_pair(d->op))
        return d->op;
    unsigned first = op_pair_first(d->op);
    return dinsn_len(d) == 2 ? op_compressed_twin(first) : first;
}

/* The slot that execution from slot d (a straight op) dispatches to next: past a pair, the slot
 * after its second instruction. */
static mt_dinsn *dispatch_after(mt_dinsn *d)
{
    mt_dinsn *next = (mt_dinsn *)((char *)d + d->step);
    return op_is_pair(d->op) ? (mt_dinsn *)((char *)next + next->step) : next;
}

/* The instruction bits at slot d (for logs). */
static uint32_t slot_bits(mt_cpu *c, mt_dpage *dp, mt_dinsn *d)
{
    unsigned idx = (unsigned)(d - dp->slot);
    const uint8_t *page = bus_page_for_read(c->bus, dp->pa);
    uint16_t lo, hi = 0;
    if (!page || idx >= DPAGE_SLOTS)
        return 0;
    memcpy(&lo, page + idx * 2, 2);
    if (insn_length(lo) == 4 && idx < DPAGE_SLOTS - 1)
        memcpy(&hi, page + idx * 2 + 2, 2);
    return (uint32_t)lo | (uint32_t)hi << 16;
}

/* ---- hooks and events -------------------------------------------------------------------- */

void cpu_update_next_event(mt_cpu *c)
{
    c->next_due = (c->observer || c->cache) ? 0 : (c->listener ? c->listener_due : UINT64_MAX);
    uint64_t e = UINT64_MAX;
    if (!(c->mip_hw & MIP_MTIP) && c->timer_cycle < e)
        e = c->timer_cycle;
    if (c->poll_cycle < e)
        e = c->poll_cycle;
    if (c->insn_limit != UINT64_MAX) {
        uint64_t left = c->insn_limit > c->instret ? c->insn_limit - c->instret : 0;
        uint64_t at = c->cycle + left < c->cycle ? UINT64_MAX : c->cycle + left;
        if (at < e)
            e = at;
    }
    if (c->stop || c->log_commits)
        e = 0;
    c->other_event = e;
    c->next_event = c->next_due < e ? c->next_due : e;
}

void cpu_set_listener(mt_cpu *c, mt_access_listener fn, void *ctx, uint64_t first_due)
{
    c->listener = fn;
    c->listener_ctx = ctx;
    c->listener_due = fn ? first_due : UINT64_MAX;
    cpu_update_next_event(c);
}

void cpu_set_page_observer(mt_cpu *c, ram_page_observer fn, void *ctx)
{
    c->observer = fn;
    c->observer_ctx = ctx;
    c->obs_last_pfn = UINT64_MAX;
    cpu_update_next_event(c);
}

/* A 64-byte DRAM transfer of the cache model: the `dram` tap, stamped on its own port (distinct,
 * non-decreasing cycles, never before the access that caused it). */
static void dram_transfer(void *ctx, uint64_t line, bool write)
{
    mt_cpu *c = ctx;
    c->dram_cycle = c->dram_cycle + 1 > c->cycle ? c->dram_cycle + 1 : c->cycle;
    c->dram_count[write]++;
    if (c->listener && c->dram_cycle >= c->listener_due) {
        mt_access a = {.cycle = c->dram_cycle, .addr = line & MT_PADDR_MASK, .write = write, .size = CACHE_LINE,
                       .kind = (uint8_t)(write ? MT_KIND_STORE : c->cache_kind), .tap = MT_TAP_DRAM};
        c->listener_due = c->listener(c->listener_ctx, &a);
    }
}

/* cpu_access_due with a cache model or a page observer (or both). */
static __attribute__((noinline)) void access_due_hooks(mt_cpu *c, uint64_t pa, unsigned size, int write, int kind)
{
    unsigned extra = 0;
    if (c->cache) {
        c->cache_kind = kind;
        extra = cache_access(c->cache, pa, write != 0, kind == MT_KIND_FETCH, dram_transfer, c);
    }
    if (c->observer) {
        uint64_t pfn = pa >> 12;
        if (pfn != c->obs_last_pfn || (write && !c->obs_last_write)) {
            c->obs_last_pfn = pfn;
            c->obs_last_write = write != 0;
            c->observer(c->observer_ctx, pfn, write != 0);
        }
    }
    if (c->listener && c->cycle >= c->listener_due) {
        mt_access a = {.cycle = c->cycle, .addr = pa & MT_PADDR_MASK, .write = (uint8_t)(write != 0),
                       .size = (uint8_t)size, .kind = (uint8_t)kind, .tap = MT_TAP_CORE};
        c->listener_due = c->listener(c->listener_ctx, &a);
        c->next_due = (c->observer || c->cache) ? 0 : c->listener_due;
        if (c->next_due < c->next_event)
            c->next_event = c->next_due;
    }
    c->cycle += extra; /* the miss latency, after the access was stamped */
}

void cpu_access_due(mt_cpu *c, uint64_t pa, unsigned size, int write, int kind)
{
    if (unlikely(c->cache || c->observer)) {
        access_due_hooks(c, pa, size, write, kind);
        return;
    }
    /* Only the listener (tracing): next_due is listener_due, no latency to add. This path runs
     * once per recorded sample; the hooks above live apart so it saves no registers. */
    if (c->listener && c->cycle >= c->listener_due) {
        const mt_access a = {.cycle = c->cycle, .addr = pa & MT_PADDR_MASK, .write = (uint8_t)(write != 0),
                             .size = (uint8_t)size, .kind = (uint8_t)kind, .tap = MT_TAP_CORE};
        uint64_t due = c->listener(c->listener_ctx, &a);
        c->listener_due = c->next_due = due;
        if (due < c->next_event)
            c->next_event = due;
    }
}

void cpu_request_stop(mt_cpu *c)
{
    c->stop = true;
    c->next_event = c->other_event = 0;
}

/* ---- timer and interrupts ---------------------------------------------------------------- */

uint64_t cpu_mtime(const mt_cpu *c) { return c->cycle / CYCLES_PER_MTIME_TICK + c->mtime_offset; }

static void timer_update(mt_cpu *c)
{
    uint64_t now = cpu_mtime(c);
    if (c->mtimecmp <= now) {
        c->mip_hw |= MIP_MTIP;
        c->timer_cycle = UINT64_MAX;
    } else {
        c->mip_hw &= ~(uint64_t)MIP_MTIP;
        uint64_t delta = c->mtimecmp - now, base = c->cycle / CYCLES_PER_MTIME_TICK;
        if (delta > UINT64_MAX / CYCLES_PER_MTIME_TICK - base)
            c->timer_cycle = UINT64_MAX;
        else
            c->timer_cycle = (base + delta) * CYCLES_PER_MTIME_TICK;
    }
    cpu_update_next_event(c);
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
static int pending_interrupt(const mt_cpu *c)
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
    int irq = pending_interrupt(c);
    if (irq < 0)
        return false;
    cpu_take_trap(c, CAUSE_INTERRUPT | (uint64_t)irq, 0);
    return true;
}

static void log_flush(mt_cpu *c, bool committed)
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
    if (c->log_commits) {
        log_flush(c, false);
        fprintf(c->log_file ? (FILE *)c->log_file : stderr, "core   0: exception %s 0x%llx, epc 0x%016llx, tval 0x%llx\n",
                irq ? "interrupt" : "cause", (unsigned long long)code, (unsigned long long)c->pc, (unsigned long long)tval);
    }
    hyp_take_trap(c, cause, tval); /* routes to M, HS or VS (emu/hyp.c) */
}

/* The instruction limit, the timer, device polling: true when the hart must stop or take an
 * interrupt before its next instruction. */
static bool service_events(mt_cpu *c)
{
    if (c->stop)
        return true;
    if (c->instret >= c->insn_limit || c->trap_count >= c->trap_limit) {
        c->limit_hit = true;
        cpu_request_stop(c);
        return true;
    }
    if (c->cycle >= c->timer_cycle)
        timer_update(c);
    if (c->cycle >= c->poll_cycle) {
        c->poll_cycle = c->cycle + BUS_POLL_CYCLES;
        bus_poll(c->bus);
        if (c->on_poll)
            c->on_poll(c->poll_ctx);
        if (c->stop)
            return true;
    }
    return pending_interrupt(c) >= 0;
}

/* Slow path of the per-instruction compare.  Returns true when the page loop must be left
 * (before executing the instruction at pc). */
static bool cpu_event(mt_cpu *c, mt_dpage *dp, mt_dinsn *d, uint64_t pc, uint64_t vbase)
{
    if (pc - vbase >= 4096) /* past the page end: the outer loop re-enters at the next page */
        return true;
    if (likely(c->cycle < c->other_event)) { /* only the access hook is due: the fetch event */
        if (d->op == OP_DECODE)
            decode_run(c, dp, d);
        cpu_access_due(c, dp->pa | (pc - vbase), dinsn_len(d), 0, MT_KIND_FETCH);
        c->next_event = c->next_due < c->other_event ? c->next_due : c->other_event;
        return false;
    }
    if (service_events(c))
        return true;
    if (d->op == OP_DECODE)
        decode_run(c, dp, d);
    if (c->log_commits) {
        log_flush(c, true);
        c->log_pending = true;
        c->log_pc = pc;
        c->log_raw = slot_bits(c, dp, d);
        c->log_rd = d->rd;
        c->log_len = dinsn_len(d);
        c->log_priv = (uint8_t)c->priv;
    }
    if (c->cycle >= c->next_due)
        cpu_access_due(c, dp->pa | (pc - vbase), dinsn_len(d), 0, MT_KIND_FETCH);
    cpu_update_next_event(c);
    return false;
}

/* WFI: skip time to the next thing that can happen (deterministic), poll devices.
 * False when nothing can ever wake the hart. */
static bool wfi_wait(mt_cpu *c)
{
    if (cpu_mip(c) & c->mie) {
        c->wfi = false;
        return true;
    }
    if (c->cycle >= c->poll_cycle || !(c->mip_hw & MIP_MTIP)) {
        uint64_t target = c->poll_cycle;
        if (!(c->mip_hw & MIP_MTIP) && c->timer_cycle < target)
            target = c->timer_cycle;
        if (target > c->cycle)
            c->cycle = target;
    }
    if (c->cycle >= c->timer_cycle)
        timer_update(c);
    if (c->cycle >= c->poll_cycle) {
        c->poll_cycle = c->cycle + BUS_POLL_CYCLES;
        bus_poll(c->bus);
        if (c->on_poll)
            c->on_poll(c->poll_ctx);
        if (!(cpu_mip(c) & c->mie) && c->timer_cycle == UINT64_MAX && !(c->mip_hw & MIP_MTIP & c->mie)) {
            if (!c->idle || !c->idle(c->idle_ctx))
                return false;
        }
    }
    cpu_update_next_event(c);
    return true;
}

/* ---- the interpreter --------------------------------------------------------------------- */

int cpu_load(mt_cpu *c, uint64_t va, unsigned size, uint64_t *val) { return mem_load_slow(c, va, size, val); }
int cpu_store(mt_cpu *c, uint64_t va, unsigned size, uint64_t val) { return mem_store_slow(c, va, size, val); }

static inline uint64_t sext32(uint64_t v) { return (uint64_t)(int64_t)(int32_t)v; }

/* The interpreter proper.  The hot state (cycle, instret, the event thresholds) lives in locals.
 *
 * Runs.  Cycles and instructions are charged once per straight-line run (mt_dinsn run_*): ENTER
 * charges the run from the entered slot to its end, after checking that no event can fall
 * inside it (cycle + run_bound < next_event: no instruction boundary reaches next_event and no
 * access reaches next_due); inside the run, handlers go from slot to slot with NEXT, which does
 * no accounting and no check.  So while a handler of slot d runs, the locals are ahead of the
 * architectural values by what the rest of the run will cost (d->run_cost - d->cost cycles,
 * d->run_insns - 1 instructions); SAVE() subtracts that when it stores them in the cpu.  Every
 * call that may look at or change the cpu state (SLOW) leaves the locals exact, so execution
 * then goes on with ENTER at the next slot, which also sees a new next_event.
 *
 * When an event does fall inside the run, single_step runs instructions one at a time, each
 * from a copy in the step page (every other slot of which sends execution back to the real page
 * through ENTER), with the per-instruction event check of cpu_event() before each: exactly the
 * cycles, instret and events of a per-instruction interpreter. */
__attribute__((optimize("no-crossjumping", "no-gcse"))) static void interpreter(mt_cpu *c)
{
#define H(n) [OP_##n] = &&L_##n,
#define H_C(n) [OP_##n##_C] = &&L_##n##_C,
#define H_P(a, b) [OP_P_##a##_##b##_WW] = &&L_P_##a##_##b##_WW, [OP_P_##a##_##b##_WC] = &&L_P_##a##_##b##_WC, \
                  [OP_P_##a##_##b##_CW] = &&L_P_##a##_##b##_CW, [OP_P_##a##_##b##_CC] = &&L_P_##a##_##b##_CC,
#define H_PB(a, b) [OP_P_##a##_##b##_W] = &&L_P_##a##_##b##_W, [OP_P_##a##_##b##_C] = &&L_P_##a##_##b##_C,
    static void *const handler[OP_COUNT] = {MT_OPS(H) MT_STRAIGHT_OPS(H_C) MT_PAIR_OPS(H_P) MT_PAIR_BRANCH_OPS(H_PB)};
#undef H
#undef H_C
#undef H_P
#undef H_PB
    uint64_t *const x = c->x;
    const uint8_t taken_penalty = c->taken_branch_penalty;
    cpu_update_next_event(c);
    while (!c->stop) {
        if (unlikely(c->cycle >= c->other_event)) { /* traps in a row never reach an instruction */
            service_events(c);
            cpu_update_next_event(c);
            if (c->stop)
                break;
        }
        if (unlikely(cpu_mip(c) & c->mie) && cpu_check_interrupts(c))
            continue;
        if (unlikely(c->dpage_flush_pending)) { /* no page is executing here */
            c->dpage_flush_pending = false;
            dpage_free_all(c);
            for (int m = 0; m < 4; m++)
                for (unsigned i = 0; i < TLB_SIZE; i++)
                    c->itlb[m][i].tag = TLB_INVALID;
        }
        if (unlikely(c->wfi)) {
            if (c->smp) { /* WFI ends the turn; the scheduler runs the others and keeps time
                           * (emu/smp.c).  With an interrupt pending but masked WFI is a no-op,
                           * so the hart just resumes after it at its next turn: a WFI polling
                           * loop costs a few instructions per round instead of a whole turn. */
                if (cpu_mip(c) & c->mie)
                    c->wfi = false;
                break;
            }
            if (!wfi_wait(c)) {
                fprintf(stderr, "mtemu: the hart waits (WFI) for an interrupt that nothing can raise; stopping\n");
                c->stop = true;
            }
            continue;
        }
        uint64_t pc = c->pc;
        mt_itlb_entry *t = &c->cur_itlb[(pc >> 12) & (TLB_SIZE - 1)];
        mt_dpage *dp;
        if (likely(t->tag == (pc & PAGE_MASK))) {
            dp = t->dp;
        } else {
            int e = mmu_fetch_page(c, pc, &dp);
            if (e != EXC_NONE) {
                cpu_take_trap(c, (uint64_t)e, pc);
                continue;
            }
        }
        uint64_t vbase = pc & PAGE_MASK;
        mt_dtlb_entry *const dtlb = c->cur_dtlb;
        mt_dinsn *d = dp->slot + ((pc - vbase) >> 1);
        mt_dinsn *resume = d; /* where a handler goes on after a SLOW call */
        uint64_t cycle = c->cycle, instret = c->instret, next_event = c->next_event;
        int exc = EXC_NONE;
        uint64_t tval = 0;

#define PC() (vbase + ((uint64_t)(d - dp->slot) << 1))
#define LEN() dinsn_len(d)
/* the locals as architectural values (inside a run: minus what the rest of the run is charged,
 * this instruction's data access included) */
#define SAVE() (c->cycle = cycle - (d->run_cost - c->op_cost[d->op]), c->instret = instret - (d->run_insns - 1u))
#define SAVE_EXACT() (c->cycle = cycle, c->instret = instret)
#define RESTORE() (cycle = c->cycle, instret = c->instret, next_event = c->next_event)
#define RD x[d->rd]
#define RS1 x[d->rs1]
#define RS2 x[d->rs2]
#define IMM ((int64_t)d->imm)
/* Enters slot d with exact locals: charges its run when no event can fall inside it. */
#define ENTER()                                                                       \
    do {                                                                              \
        if (unlikely(cycle + d->run_bound >= next_event))                             \
            goto single_step;                                                         \
        cycle += d->run_cost;                                                         \
        instret += d->run_insns;                                                      \
        goto *handler[d->op];                                                         \
    } while (0)
#define STEP() (d = (mt_dinsn *)((char *)d + d->step))
/* The next slot of the same run: already charged.  A straight op has a handler for each length
 * (its compressed twin), so the next slot's address does not wait for a load. */
#define NEXT_AFTER(len) do { d += (len) / 2; goto *handler[d->op]; } while (0)
#define STRAIGHT(name)                                                                \
    L_##name: { B_##name; }                                                           \
    NEXT_AFTER(4);                                                                    \
    L_##name##_C: { B_##name; }                                                       \
    NEXT_AFTER(2);
/* A fused pair (decode.h): the first body, then the second at its own slot (so a slow path or a
 * trap in either sees its own pc and run charge), then on to the slot after the pair. */
#define PAIR_LEN(a, b, sfx, len1, len2)                                               \
    L_P_##a##_##b##_##sfx: { B_##a; }                                                 \
    d += (len1) / 2;                                                                  \
    { B_##b; }                                                                        \
    NEXT_AFTER(len2);
#define PAIR(a, b) \
    PAIR_LEN(a, b, WW, 4, 4) PAIR_LEN(a, b, WC, 4, 2) PAIR_LEN(a, b, CW, 2, 4) PAIR_LEN(a, b, CC, 2, 2)
#define PAIR_BRANCH_LEN(a, b, sfx, len1)                                              \
    L_P_##a##_##b##_##sfx: { B_##a; }                                                 \
    d += (len1) / 2;                                                                  \
    BRANCH_L(C_##b);
#define PAIR_BRANCH(a, b) PAIR_BRANCH_LEN(a, b, W, 4) PAIR_BRANCH_LEN(a, b, C, 2)
/* After a SLOW call (exact locals): on at the slot after the one that made it. */
#define RESUME() do { d = resume; ENTER(); } while (0)
/* Another page: chain straight to it when the instruction TLB knows it (no outer loop). */
#define GO_PAGE(target)                                                               \
    do {                                                                              \
        uint64_t g_ = (target);                                                       \
        mt_itlb_entry *it_ = &c->cur_itlb[(g_ >> 12) & (TLB_SIZE - 1)];               \
        if (likely(it_->tag == (g_ & PAGE_MASK))) {                                   \
            dp = it_->dp;                                                             \
            vbase = g_ & PAGE_MASK;                                                   \
            d = dp->slot + ((g_ - vbase) >> 1);                                       \
            ENTER();                                                                  \
        }                                                                             \
        SAVE_EXACT();                                                                 \
        pc = g_;                                                                      \
        goto leave;                                                                   \
    } while (0)
/* Control transfers end runs, so the locals are exact here. */
#define JUMP_TO(target)                                                               \
    do {                                                                              \
        uint64_t t_ = (target);                                                       \
        if (unlikely(t_ - vbase >= 4096))                                             \
            GO_PAGE(t_);                                                              \
        d = dp->slot + ((t_ - vbase) >> 1);                                           \
        ENTER();                                                                      \
    } while (0)
#define TRAP(cause, value) do { exc = (cause); tval = (value); goto trap; } while (0)
/* a trap found by a SLOW call: the cpu already holds the exact values */
#define TRAP_SAVED(cause, value) do { exc = (cause); tval = (value); goto trap_saved; } while (0)
#define ILLEGAL() TRAP(EXC_ILLEGAL, (uint64_t)(uint32_t)d->imm)
#define LOCAL_JUMP() do { d = (mt_dinsn *)((char *)d + d->imm); ENTER(); } while (0)
#define BRANCH_L(cond)                                                                \
    do {                                                                              \
        if (cond) {                                                                   \
            cycle += taken_penalty;                                                   \
            LOCAL_JUMP();                                                             \
        }                                                                             \
        STEP();                                                                       \
        ENTER();                                                                      \
    } while (0)
#define BRANCH(cond)                                                                  \
    do {                                                                              \
        if (cond) {                                                                   \
            cycle += taken_penalty;                                                   \
            JUMP_TO(PC() + (uint64_t)IMM);                                            \
        }                                                                             \
        STEP();                                                                       \
        ENTER();                                                                      \
    } while (0)
/* Leaves the page loop after this instruction (it retired). */
#define LEAVE_AFTER() do { SAVE(); STEP(); pc = PC(); goto leave; } while (0)
/* Leaves the page loop after a SLOW call (exact values already in the cpu). */
#define LEAVE_RESUMED() do { d = resume; pc = PC(); goto leave; } while (0)
#define SLOW(call) ({ resume = (mt_dinsn *)((char *)d + d->step); SAVE(); c->pc = PC(); int r_ = (call); RESTORE(); r_; })
/* The access hook of a data access that hit the TLB; its cycle is in the run's charge.  Inside
 * a run nothing is due (run_bound: the charged cycle is at most next_event), so the hook is
 * called for an instruction run alone (single_step) or, when the run ends at next_event, to find
 * nothing due: cpu_access() checks the exact cycle against next_due.  The handler then goes on
 * with `then` and RESUME. */
#define ACCESS(pa, sz, w, kind, then)                                                 \
    do {                                                                              \
        if (unlikely(cycle >= next_event)) {                                          \
            resume = (mt_dinsn *)((char *)d + d->step);                               \
            SAVE();                                                                   \
            cpu_access(c, (pa), (sz), (w), (kind));                                   \
            RESTORE();                                                                \
            then;                                                                     \
            RESUME();                                                                 \
        }                                                                             \
        c->access_count[kind]++;                                                      \
    } while (0)
/* The bodies of loads and stores: the fast path falls through to the next slot. */
#define LOAD(ctype, sz)                                                               \
    uint64_t va = RS1 + (uint64_t)IMM;                                                \
    mt_dtlb_entry *e = &dtlb[(va >> 12) & (TLB_SIZE - 1)];                            \
    ctype v;                                                                          \
    if (likely(e->tag_r == (va & (PAGE_MASK | (sz - 1))))) {                          \
        memcpy(&v, (const void *)(e->addend + (uintptr_t)va), sz);                    \
        ACCESS(e->pa | (va & 0xfff), sz, 0, MT_KIND_LOAD, RD = (uint64_t)(int64_t)v); \
        RD = (uint64_t)(int64_t)v;                                                    \
    } else {                                                                          \
        uint64_t tmp;                                                                 \
        int ex = SLOW(mem_load_slow(c, va, sz, &tmp));                                \
        if (ex != EXC_NONE)                                                           \
            TRAP_SAVED(ex, va);                                                       \
        v = (ctype)tmp;                                                               \
        RD = (uint64_t)(int64_t)v;                                                    \
        RESUME();                                                                     \
    }
#define STORE(ctype, sz)                                                              \
    uint64_t va = RS1 + (uint64_t)IMM;                                                \
    mt_dtlb_entry *e = &dtlb[(va >> 12) & (TLB_SIZE - 1)];                            \
    ctype v = (ctype)RS2;                                                             \
    if (likely(e->tag_w == (va & (PAGE_MASK | (sz - 1))))) {                          \
        memcpy((void *)(e->addend + (uintptr_t)va), &v, sz);                          \
        ACCESS(e->pa | (va & 0xfff), sz, 1, MT_KIND_STORE, (void)0);                  \
    } else {                                                                          \
        int ex = SLOW(mem_store_slow(c, va, sz, RS2));                                \
        if (ex != EXC_NONE)                                                           \
            TRAP_SAVED(ex, va);                                                       \
        RESUME();                                                                     \
    }

        ENTER();

    single_step: {
        /* ENTER found an event inside the run of d (the locals are exact) */
        if (unlikely(dp == c->cross_page))
            GO_PAGE(PC()); /* a sentinel of the cross page: the same slot of the real page */
        unbreak(c);
        if (cycle >= next_event) { /* the per-instruction check, as before every instruction */
            SAVE_EXACT();
            bool out = cpu_event(c, dp, d, PC(), vbase);
            RESTORE();
            if (out) {
                pc = PC();
                goto leave;
            }
        }
    event_done:
        if (d->op == OP_DECODE)
            decode_run(c, dp, d);
        if (cycle + d->run_bound < next_event) { /* the event was before d: the run can go */
            cycle += d->run_cost;
            instret += d->run_insns;
            goto *handler[d->op];
        }
        /* The run goes up to the last slot j before which nothing can be due (every boundary and
         * access of d..j-1 comes before cycle + span(d..j-1), span = run_bound(d) - run_bound(j)),
         * or else d alone; there it stops (OP_BREAK) to check again.  A run of one instruction
         * ends with ENTER anyway. */
        mt_dinsn *stop = NULL, *j = d;
        bool nothing_due = false;
        unsigned op = d->op;
        if (d->run_insns > 1) {
            stop = (mt_dinsn *)((char *)d + d->step);
            for (unsigned k = 1; k < d->run_insns && next_event > cycle; k++) {
                j = (mt_dinsn *)((char *)j + j->step);
                if (cycle + (unsigned)(d->run_bound - j->run_bound) > next_event)
                    break;
                stop = j;
                nothing_due = true;
            }
            /* A pair runs its second instruction without a dispatch, so the stop must be a slot
             * that execution from d dispatches to: the last one up to the stop, or else the slot
             * after d, with d executed alone. */
            mt_dinsn *at = d;
            for (mt_dinsn *n = dispatch_after(d); n <= stop; n = dispatch_after(n))
                at = n;
            if (at == d)
                op = op_alone(d);
            else
                stop = at;
            c->brk_slot = stop;
            c->brk_op = stop->op;
            stop->op = OP_BREAK;
        }
        cycle += d->run_cost;
        instret += d->run_insns;
        if (nothing_due)
            next_event = UINT64_MAX; /* no access hook to check before the stop, which reloads it */
        goto *handler[op];
    }
    L_BREAK: /* reached with the run charged from d on: the exact values are before d */
        unbreak(c);
        cycle -= d->run_cost;
        instret -= d->run_insns;
        next_event = c->next_event;
        if (likely(cycle >= next_event && cycle < c->other_event)) {
            /* the usual stop while tracing: only the access hook is due, at d's fetch (what
             * cpu_event does then, without the rest of single_step) */
            SAVE_EXACT();
            cpu_access_due(c, dp->pa | (PC() - vbase), dinsn_len(d), 0, MT_KIND_FETCH);
            c->next_event = c->next_due < c->other_event ? c->next_due : c->other_event;
            RESTORE();
            if (cycle + d->run_bound < next_event) {
                cycle += d->run_cost;
                instret += d->run_insns;
                goto *handler[d->op];
            }
            goto event_done; /* the rest of single_step, with d's event taken */
        }
        goto single_step;

    L_DECODE:
        decode_run(c, dp, d);
        ENTER();
    L_PAGE_END: /* past the end of the page, or a sentinel of the cross page */
        GO_PAGE(PC());
    L_CROSS: {
        /* the last slot of its run, so the locals are exact; charged as one instruction of
         * cost 0, its cost is added once it is decoded */
        const uint8_t *page = bus_page_for_read(c->bus, dp->pa);
        uint16_t lo, hi;
        uint64_t pa2, pc0 = PC();
        memcpy(&lo, page + 0xffe, 2);
        int ex = SLOW(mmu_fetch_parcel(c, pc0 + 2, &hi, &pa2));
        if (ex != EXC_NONE)
            TRAP_SAVED(ex, pc0 + 2);
        /* run it from the cross page: same slot index, every other slot leaves the loop */
        dp = c->cross_page;
        d = &dp->slot[DPAGE_SLOTS - 1];
        decode_insn((uint32_t)lo | (uint32_t)hi << 16, d);
        d->run_cost = (uint16_t)(c->op_cost[d->op] + op_access_cycles(d->op));
        d->run_insns = 1;
        cycle += d->run_cost;
        goto *handler[d->op];
    }
    L_ILLEGAL:
        ILLEGAL();
#define B_LUI RD = (uint64_t)IMM
#define B_AUIPC RD = PC() + (uint64_t)IMM
    L_JAL: { uint64_t here = PC(); RD = here + LEN(); JUMP_TO(here + (uint64_t)IMM); }
    L_JALR: { uint64_t target = (RS1 + (uint64_t)IMM) & ~UINT64_C(1); RD = PC() + LEN(); JUMP_TO(target); }
    L_JAL_L: RD = PC() + LEN(); LOCAL_JUMP();
#define C_BEQ (RS1 == RS2)
#define C_BNE (RS1 != RS2)
#define C_BLT ((int64_t)RS1 < (int64_t)RS2)
#define C_BGE ((int64_t)RS1 >= (int64_t)RS2)
#define C_BLTU (RS1 < RS2)
#define C_BGEU (RS1 >= RS2)
    L_BEQ_L: BRANCH_L(C_BEQ);
    L_BNE_L: BRANCH_L(C_BNE);
    L_BLT_L: BRANCH_L(C_BLT);
    L_BGE_L: BRANCH_L(C_BGE);
    L_BLTU_L: BRANCH_L(C_BLTU);
    L_BGEU_L: BRANCH_L(C_BGEU);
    L_BEQ: BRANCH(C_BEQ);
    L_BNE: BRANCH(C_BNE);
    L_BLT: BRANCH(C_BLT);
    L_BGE: BRANCH(C_BGE);
    L_BLTU: BRANCH(C_BLTU);
    L_BGEU: BRANCH(C_BGEU);
#define B_LB LOAD(int8_t, 1)
#define B_LH LOAD(int16_t, 2)
#define B_LW LOAD(int32_t, 4)
#define B_LD LOAD(int64_t, 8)
#define B_LBU LOAD(uint8_t, 1)
#define B_LHU LOAD(uint16_t, 2)
#define B_LWU LOAD(uint32_t, 4)
#define B_SB STORE(uint8_t, 1)
#define B_SH STORE(uint16_t, 2)
#define B_SW STORE(uint32_t, 4)
#define B_SD STORE(uint64_t, 8)
#define B_ADDI RD = RS1 + (uint64_t)IMM
#define B_SLTI RD = (int64_t)RS1 < IMM
#define B_SLTIU RD = RS1 < (uint64_t)IMM
#define B_XORI RD = RS1 ^ (uint64_t)IMM
#define B_ORI RD = RS1 | (uint64_t)IMM
#define B_ANDI RD = RS1 & (uint64_t)IMM
#define B_SLLI RD = RS1 << (IMM & 63)
#define B_SRLI RD = RS1 >> (IMM & 63)
#define B_SRAI RD = (uint64_t)((int64_t)RS1 >> (IMM & 63))
#define B_ADD RD = RS1 + RS2
#define B_SUB RD = RS1 - RS2
#define B_SLL RD = RS1 << (RS2 & 63)
#define B_SLT RD = (int64_t)RS1 < (int64_t)RS2
#define B_SLTU RD = RS1 < RS2
#define B_XOR RD = RS1 ^ RS2
#define B_SRL RD = RS1 >> (RS2 & 63)
#define B_SRA RD = (uint64_t)((int64_t)RS1 >> (RS2 & 63))
#define B_OR RD = RS1 | RS2
#define B_AND RD = RS1 & RS2
#define B_ADDIW RD = sext32(RS1 + (uint64_t)IMM)
#define B_SLLIW RD = sext32((uint32_t)RS1 << (IMM & 31))
#define B_SRLIW RD = sext32((uint32_t)RS1 >> (IMM & 31))
#define B_SRAIW RD = (uint64_t)(int64_t)((int32_t)RS1 >> (IMM & 31))
#define B_ADDW RD = sext32(RS1 + RS2)
#define B_SUBW RD = sext32(RS1 - RS2)
#define B_SLLW RD = sext32((uint32_t)RS1 << (RS2 & 31))
#define B_SRLW RD = sext32((uint32_t)RS1 >> (RS2 & 31))
#define B_SRAW RD = (uint64_t)(int64_t)((int32_t)RS1 >> (RS2 & 31))
#define B_MUL RD = RS1 * RS2
#define B_MULH RD = (uint64_t)(((__int128)(int64_t)RS1 * (__int128)(int64_t)RS2) >> 64)
#define B_MULHSU RD = (uint64_t)(((__int128)(int64_t)RS1 * (__int128)(unsigned __int128)RS2) >> 64)
#define B_MULHU RD = (uint64_t)(((unsigned __int128)RS1 * (unsigned __int128)RS2) >> 64)
#define B_DIV int64_t a = (int64_t)RS1, b = (int64_t)RS2; RD = b == 0 ? UINT64_MAX : (a == INT64_MIN && b == -1) ? (uint64_t)a : (uint64_t)(a / b)
#define B_DIVU RD = RS2 == 0 ? UINT64_MAX : RS1 / RS2
#define B_REM int64_t a = (int64_t)RS1, b = (int64_t)RS2; RD = b == 0 ? (uint64_t)a : (a == INT64_MIN && b == -1) ? 0 : (uint64_t)(a % b)
#define B_REMU RD = RS2 == 0 ? RS1 : RS1 % RS2
#define B_MULW RD = sext32((uint32_t)RS1 * (uint32_t)RS2)
#define B_DIVW int32_t a = (int32_t)RS1, b = (int32_t)RS2; RD = (uint64_t)(int64_t)(b == 0 ? -1 : (a == INT32_MIN && b == -1) ? a : a / b)
#define B_DIVUW uint32_t a = (uint32_t)RS1, b = (uint32_t)RS2; RD = sext32(b == 0 ? UINT32_MAX : a / b)
#define B_REMW int32_t a = (int32_t)RS1, b = (int32_t)RS2; RD = (uint64_t)(int64_t)(b == 0 ? a : (a == INT32_MIN && b == -1) ? 0 : a % b)
#define B_REMUW uint32_t a = (uint32_t)RS1, b = (uint32_t)RS2; RD = sext32(b == 0 ? a : a % b)
    L_LR_W: L_SC_W: L_LR_D: L_SC_D:
    L_AMOSWAP_W: L_AMOADD_W: L_AMOXOR_W: L_AMOAND_W: L_AMOOR_W:
    L_AMOMIN_W: L_AMOMAX_W: L_AMOMINU_W: L_AMOMAXU_W:
    L_AMOSWAP_D: L_AMOADD_D: L_AMOXOR_D: L_AMOAND_D: L_AMOOR_D:
    L_AMOMIN_D: L_AMOMAX_D: L_AMOMINU_D: L_AMOMAXU_D: {
        uint64_t va = RS1, res;
        int ex = SLOW(mem_atomic(c, d->op, va, RS2, &res));
        if (ex != EXC_NONE)
            TRAP_SAVED(ex, va);
        RD = res;
        RESUME();
    }
#define B_FENCE (void)0
    MT_STRAIGHT_OPS(STRAIGHT)
    MT_PAIR_OPS(PAIR)
    MT_PAIR_BRANCH_OPS(PAIR_BRANCH)
    L_FENCE_I: /* decoded pages follow this hart's stores, so only other harts' can be stale */
        if (likely(!c->smp)) {
            STEP();
            ENTER(); /* FENCE.I ends its run */
        }
        c->dpage_flush_pending = true;
        LEAVE_AFTER();
    L_ECALL: TRAP(EXC_ECALL_U + c->priv + (c->hyp.virt ? c->priv : 0), 0); /* VS: 10 */
    L_EBREAK: TRAP(EXC_BREAKPOINT, PC());
    L_MRET:
        if (c->priv != PRV_M)
            ILLEGAL();
        SAVE();
        hyp_mret(c);
        continue;
    L_SRET: {
        int ex = hyp_check_sret(c);
        if (ex != EXC_NONE)
            TRAP(ex, ex == EXC_ILLEGAL ? 0 : slot_bits(c, dp, d));
        SAVE();
        hyp_sret(c);
        continue;
    }
    L_WFI: {
        int ex = hyp_check_wfi(c);
        if (ex != EXC_NONE)
            TRAP(ex, ex == EXC_ILLEGAL ? 0 : slot_bits(c, dp, d));
    }
        if (!(cpu_mip(c) & c->mie) || c->smp)
            c->wfi = true;
        LEAVE_AFTER();
    L_SFENCE_VMA: {
        int ex = hyp_check_sfence(c);
        if (ex != EXC_NONE)
            TRAP(ex, ex == EXC_ILLEGAL ? 0 : slot_bits(c, dp, d));
    }
        cpu_flush_tlb(c);
        LEAVE_AFTER();
    L_CSRRW: L_CSRRS: L_CSRRC: L_CSRRWI: L_CSRRSI: L_CSRRCI: {
        unsigned op = d->op;
        bool imm = op >= OP_CSRRWI;
        int kind = (op == OP_CSRRW || op == OP_CSRRWI) ? CSR_OP_RW : (op == OP_CSRRS || op == OP_CSRRSI) ? CSR_OP_RS : CSR_OP_RC;
        uint64_t src = imm ? d->rs1 : RS1;
        bool write = kind == CSR_OP_RW || d->rs1 != 0;
        uint64_t old;
        int cex = SLOW(csr_access(c, (unsigned)d->imm & 0xfff, kind, src, write, &old));
        if (cex != EXC_NONE) { /* illegal, or a virtual instruction (H) */
            uint64_t bits = slot_bits(c, dp, d);
            TRAP_SAVED(cex, dp == c->cross_page ? 0 : bits);
        }
        RD = old;
        if (!write)
            RESUME();
        LEAVE_RESUMED(); /* interrupts, translation or privilege may have changed */
    }
    L_FP: {
        /* d->imm is the expanded 32-bit form; an illegal-instruction tval must be the bits as
         * fetched (the 16-bit parcel of a compressed C.FLD/C.FSD...), as for every other opcode. */
        if (!c->fp_exec || !cpu_fp_enabled(c))
            TRAP(EXC_ILLEGAL, dp == c->cross_page ? 0 : slot_bits(c, dp, d));
        int ex = SLOW(c->fp_exec(c, (uint32_t)d->imm));
        if (ex != EXC_NONE)
            TRAP_SAVED(ex, ex != EXC_ILLEGAL ? c->fp_tval : dp == c->cross_page ? 0 : slot_bits(c, dp, d));
        RESUME();
    }

    L_HLV: L_HSV: L_HFENCE_VVMA: L_HFENCE_GVMA: { /* the H extension (emu/hyp.c) */
        uint64_t res = 0, htv;
        unsigned op = d->op;
        int ex = SLOW(hyp_exec(c, op, d->imm, RS1, RS2, &res, &htv));
        if (ex != EXC_NONE)
            TRAP_SAVED(ex, ex == EXC_ILLEGAL || ex == EXC_VIRTUAL_INSN ? slot_bits(c, dp, d) : htv);
        RD = res;
        if (op == OP_HLV || op == OP_HSV)
            RESUME();
        LEAVE_RESUMED(); /* a fence of the translation caches */
    }

    trap:
        SAVE();
    trap_saved:
        c->instret--; /* the trapping instruction does not retire */
        c->pc = PC();
        cpu_take_trap(c, (uint64_t)exc, tval);
        continue;
    leave: /* the cpu holds the exact cycle and instret; pc is where to go on */
        c->pc = pc;
    }
    unbreak(c);
    if (c->log_commits)
        log_flush(c, true);
}

void cpu_run(mt_cpu *c) { interpreter(c); }
