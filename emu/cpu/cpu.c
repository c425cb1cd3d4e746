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
 * device polling (interpreter_runs, emu/cpu/interp.inc, docs/emulator.md); frequent pairs of
 * instructions run as one handler.  While every access goes to the hook, interpreter_hooked (the
 * same body compiled per instruction) runs instead, and with the meta-pager's page observer
 * interpreter_observed (the runs, with its granule checks).  Data accesses hit the data TLB (one
 * tag compare, host pointer). */
#include "emu/cpu/cpu.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emu/platform/bus.h"
#include "emu/cpu/cache.h"
#include "emu/cpu/csr.h"
#include "emu/cpu/decode.h"
#include "emu/cpu/mmu.h"
#include "emu/cpu/exec_fp.h"

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
    c->stimecmp = UINT64_MAX;
    c->obs_last_unit = UINT64_MAX;
    c->obs_shift = RAM_PAGE_SHIFT;
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
    c->hyp.vstimecmp = UINT64_MAX;
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
    MT_STRAIGHT_W_OPS(MT_OP_CASE)
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
    /* the cache model wants every access, and so does an observer whose calls may cost cycles;
     * any other observer is served by interpreter_observed */
    c->next_due = (c->cache || (c->observer && c->obs_timed)) ? 0 : (c->listener ? c->listener_due : UINT64_MAX);
    uint64_t e = UINT64_MAX;
    if (c->timer_cycle < e)
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
    c->listener_kinds = (1u << MT_KIND_COUNT) - 1;
    c->listener_due = fn ? cpu_local_cycle(c, first_due) : UINT64_MAX;
    cpu_update_next_event(c);
}

void cpu_take_listener(mt_cpu *c, const mt_cpu *from)
{
    c->listener = from->listener;
    c->listener_ctx = from->listener_ctx;
    c->listener_kinds = from->listener_kinds;
    uint64_t due = from->listener_due == UINT64_MAX ? UINT64_MAX : from->listener_due + from->stamp_offset;
    c->listener_due = from->listener ? cpu_local_cycle(c, due) : UINT64_MAX;
    cpu_update_next_event(c);
}

void cpu_set_listener_kinds(mt_cpu *c, uint32_t mask) { c->listener_kinds = mask; }

void cpu_set_page_observer(mt_cpu *c, ram_page_observer fn, void *ctx, unsigned granule_shift)
{
    c->observer = fn;
    c->observer_ctx = ctx;
    c->obs_last_unit = UINT64_MAX;
    c->obs_shift = granule_shift > RAM_PAGE_SHIFT && granule_shift < 64 ? granule_shift : RAM_PAGE_SHIFT;
    cpu_update_next_event(c);
}

/* A 64-byte DRAM transfer of the cache model: the `dram` tap, stamped on its own port (distinct,
 * non-decreasing cycles, never before the access that caused it). */
static void dram_transfer(void *ctx, uint64_t line, bool write)
{
    mt_cpu *c = ctx;
    c->dram_cycle = c->dram_cycle + 1 > c->cycle ? c->dram_cycle + 1 : c->cycle;
    c->dram_count[write]++;
    if (c->listener && c->dram_cycle >= c->listener_due && ((c->listener_kinds >> c->cache_kind) & 1)) {
        mt_access a = {.cycle = c->dram_cycle + c->stamp_offset, .addr = line & MT_PADDR_MASK, .write = write,
                       .size = CACHE_LINE, .kind = (uint8_t)(write ? MT_KIND_STORE : c->cache_kind), .tap = MT_TAP_DRAM};
        c->listener_due = cpu_local_cycle(c, c->listener(c->listener_ctx, &a));
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
        uint64_t unit = pa >> c->obs_shift;
        if (unit != c->obs_last_unit || (write && !c->obs_last_write)) {
            c->obs_last_unit = unit;
            c->obs_last_write = write != 0;
            c->observer(c->observer_ctx, pa >> RAM_PAGE_SHIFT, write != 0);
        }
    }
    if (c->listener && c->cycle >= c->listener_due && ((c->listener_kinds >> kind) & 1)) {
        mt_access a = {.cycle = cpu_time(c), .addr = pa & MT_PADDR_MASK, .write = (uint8_t)(write != 0),
                       .size = (uint8_t)size, .kind = (uint8_t)kind, .tap = MT_TAP_CORE};
        c->listener_due = cpu_local_cycle(c, c->listener(c->listener_ctx, &a));
        c->next_due = (c->cache || (c->observer && c->obs_timed)) ? 0 : c->listener_due;
        if (c->next_due < c->next_event)
            c->next_event = c->next_due;
    }
    c->cycle += extra; /* the miss latency, after the access was stamped */
}

void cpu_access_due(mt_cpu *c, uint64_t pa, unsigned size, int write, int kind)
{
    if (unlikely(c->cache || c->observer)) {
        if (cpu_cache_hit_again(c, pa, write, kind))
            return;
        if (!cpu_access_needs_hooks(c, pa, write, kind)) /* meta-paging's usual case */
            return;
        access_due_hooks(c, pa, size, write, kind);
        return;
    }
    /* Only the listener (tracing): next_due is listener_due, no latency to add. This path runs
     * once per recorded sample; the hooks above live apart so it saves no registers. */
    if (c->listener && c->cycle >= c->listener_due && ((c->listener_kinds >> kind) & 1)) {
        const mt_access a = {.cycle = cpu_time(c), .addr = pa & MT_PADDR_MASK, .write = (uint8_t)(write != 0),
                             .size = (uint8_t)size, .kind = (uint8_t)kind, .tap = MT_TAP_CORE};
        uint64_t due = cpu_local_cycle(c, c->listener(c->listener_ctx, &a));
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
        log_flush(c, false);
        fprintf(c->log_file ? (FILE *)c->log_file : stderr, "core   0: exception %s 0x%llx, epc 0x%016llx, tval 0x%llx\n",
                irq ? "interrupt" : "cause", (unsigned long long)code, (unsigned long long)c->pc, (unsigned long long)tval);
    }
    hyp_take_trap(c, cause, tval); /* routes to M, HS or VS (emu/cpu/hyp.c) */
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
    if (c->cycle >= c->poll_cycle || c->timer_cycle != UINT64_MAX) {
        uint64_t target = c->poll_cycle;
        if (c->timer_cycle < target)
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

/* Helpers of the bit-manipulation ops (Zbb, Zbc). */
static inline uint64_t rotl64(uint64_t v, unsigned s) { return (v << (s & 63)) | (v >> (-s & 63)); }
static inline uint64_t rotr64(uint64_t v, unsigned s) { return (v >> (s & 63)) | (v << (-s & 63)); }
static inline uint32_t rotl32(uint32_t v, unsigned s) { return (v << (s & 31)) | (v >> (-s & 31)); }
static inline uint32_t rotr32(uint32_t v, unsigned s) { return (v >> (s & 31)) | (v << (-s & 31)); }
/* orc.b: every byte that is not zero becomes 0xff */
static inline uint64_t orc_b(uint64_t v)
{
    const uint64_t low7 = UINT64_C(0x7f7f7f7f7f7f7f7f);
    uint64_t top = (((v & low7) + low7) | v) & ~low7; /* bit 7 of each byte: the byte is not 0 */
    return (top >> 7) * 0xff;
}
/* The 128-bit carry-less product of a and b: *hi gets bits 127..64, the result bits 63..0.  Not
 * inlined (nor clmul_h/clmul_r): inlined, the loop changed the interpreters' register allocation
 * enough to spill vbase, a load more in AUIPC and every PC() of the hot handlers. */
static __attribute__((noinline)) uint64_t clmul128(uint64_t a, uint64_t b, uint64_t *hi)
{
    uint64_t lo = 0, h = 0;
    for (; b; b &= b - 1) {
        unsigned i = (unsigned)__builtin_ctzll(b);
        lo ^= a << i;
        if (i)
            h ^= a >> (64 - i);
    }
    *hi = h;
    return lo;
}
static __attribute__((noinline)) uint64_t clmul_h(uint64_t a, uint64_t b) { uint64_t h; clmul128(a, b, &h); return h; }
/* clmulr: bits 126..63 of the product (bit 127 is always 0) */
static __attribute__((noinline)) uint64_t clmul_r(uint64_t a, uint64_t b) { uint64_t h, l = clmul128(a, b, &h); return h << 1 | l >> 63; }

/* The interpreter proper (emu/cpu/interp.inc, compiled twice: see there and the end of this file).
 * The hot state (cycle, instret, the event thresholds) lives in locals.
 *
 * Runs.  Cycles and instructions are charged once per straight-line run (mt_dinsn run_*): ENTER
 * charges the run from the entered slot to its end, after checking that no event can fall
 * inside it (cycle + run_bound < next_event: no instruction boundary reaches next_event and no
 * access reaches next_due); inside the run, handlers go from slot to slot with NEXT, which does
 * no accounting and no check.  So while a handler of slot d runs, the locals are ahead of the
 * architectural values by what the rest of the run will cost (d->run_cost - op_cost[d->op] cycles,
 * d->run_insns - 1 instructions); SAVE() subtracts that when it stores them in the cpu.  Every
 * call that may look at or change the cpu state (SLOW) leaves the locals exact, so execution
 * then goes on with ENTER at the next slot, which also sees a new next_event.
 *
 * When an event does fall inside the run, single_step runs instructions one at a time, each
 * from a copy in the step page (every other slot of which sends execution back to the real page
 * through ENTER), with the per-instruction event check of cpu_event() before each: exactly the
 * cycles, instret and events of a per-instruction interpreter. */
/* The page observer is told of an access to another granule than the last it was told of, or of
 * the first write to it (the interpreters' inline checks come here). */
static __attribute__((noinline)) void cpu_observe(mt_cpu *c, uint64_t pa, bool write)
{
    c->obs_last_unit = pa >> c->obs_shift;
    c->obs_last_write = write;
    c->observer(c->observer_ctx, pa >> RAM_PAGE_SHIFT, write);
}

/* Which interpreter the hooks call for: every access to the hook (hooked), runs with the page
 * observer's granule checks (observed), or runs alone. */
enum { INTERP_RUNS, INTERP_OBSERVED, INTERP_HOOKED };
static inline int interp_kind(const mt_cpu *c)
{
    if (c->next_due == 0 || (c->observer && c->obs_timed))
        return INTERP_HOOKED;
    return c->observer ? INTERP_OBSERVED : INTERP_RUNS;
}

#define MT_INTERP_HOOKED 0
#define MT_INTERP_OBSERVED 0
__attribute__((optimize("no-crossjumping", "no-gcse"))) static bool interpreter_runs(mt_cpu *c)
#include "emu/cpu/interp.inc"
#undef MT_INTERP_OBSERVED
#define MT_INTERP_OBSERVED 1
__attribute__((optimize("no-crossjumping", "no-gcse"))) static bool interpreter_observed(mt_cpu *c)
#include "emu/cpu/interp.inc"
#undef MT_INTERP_OBSERVED
#undef MT_INTERP_HOOKED
#define MT_INTERP_HOOKED 1
#define MT_INTERP_OBSERVED 0
__attribute__((optimize("no-crossjumping", "no-gcse"))) static bool interpreter_hooked(mt_cpu *c)
#include "emu/cpu/interp.inc"
#undef MT_INTERP_OBSERVED
#undef MT_INTERP_HOOKED

/* Each interpreter returns true when another one's case has come (the hook now wants every
 * access, or no longer does; the observer came or went). */
void cpu_run(mt_cpu *c)
{
    cpu_update_next_event(c);
    for (;;) {
        int k = interp_kind(c);
        if (!(k == INTERP_HOOKED ? interpreter_hooked(c) : k == INTERP_OBSERVED ? interpreter_observed(c) : interpreter_runs(c)))
            break;
    }
}

