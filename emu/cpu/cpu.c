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
 * interpreter_observed (the runs, with its granule checks), and with the listener's page filter
 * interpreter_filtered (the runs, with its page checks).  Data accesses hit the data TLB (one
 * tag compare, host pointer).  The trace unit's sampler (cpu_sampler) lets interpreter_runs take
 * a capture that is a fetch of the run it enters without stopping the run (cpu_sample_run). */
#include "emu/cpu/cpu.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emu/platform/bus.h"
#include "emu/cpu/cache.h"
#include "emu/cpu/cbo.h"
#include "emu/cpu/csr.h"
#include "emu/cpu/decode.h"
#include "emu/cpu/mmu.h"
#include "emu/cpu/pmp.h"
#include "emu/cpu/exec_fp.h"
#include "emu/cpu/dpage.h"
#include "emu/cpu/semantics.h"
#include "emu/cpu/trap.h"

#define likely(x) __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)
#define PAGE_MASK (~UINT64_C(0xfff))


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

/* The data access of each op's fast path (mt_cpu.op_data): the loads and stores of semantics.h,
 * also as compressed twins and as a pair's first instruction (a pair's second has a slot of its
 * own, with its own op). */
static void set_op_data(mt_cpu *c)
{
    for (unsigned op = 0; op < OP_COUNT; op++) {
        const unsigned base = op_uncompressed(op_pair_first(op));
        unsigned v = 0;
        switch (base) {
        case OP_LB: case OP_LBU: v = CPU_OP_DATA | 0; break;
        case OP_LH: case OP_LHU: v = CPU_OP_DATA | 1; break;
        case OP_LW: case OP_LWU: v = CPU_OP_DATA | 2; break;
        case OP_LD: v = CPU_OP_DATA | 3; break;
        case OP_SB: v = CPU_OP_DATA | 4 | 0; break;
        case OP_SH: v = CPU_OP_DATA | 4 | 1; break;
        case OP_SW: v = CPU_OP_DATA | 4 | 2; break;
        case OP_SD: v = CPU_OP_DATA | 4 | 3; break;
        default: break;
        }
        c->op_data[op] = (uint8_t)v;
    }
}

/* ---- life cycle -------------------------------------------------------------------------- */

void cpu_init(mt_cpu *c, struct mt_bus *bus, mt_timing_mode timing)
{
    memset(c, 0, sizeof *c);
    c->bus = bus;
    c->fp_exec = exec_fp;
    set_timing(c, timing);
    set_op_data(c);
    c->listener_due = UINT64_MAX;
    c->insn_limit = UINT64_MAX;
    c->trap_limit = UINT64_MAX;
    c->timer_cycle = UINT64_MAX;
    c->mtimecmp = UINT64_MAX;
    c->stimecmp = UINT64_MAX;
    c->obs_last_unit = UINT64_MAX;
    c->obs_mask = ~(RAM_PAGE_SIZE - 1);
    c->pf.last = c->pf.other = 1; /* no page's base */
    c->pf.last_stamp = UINT64_MAX;
    c->spec_stamp = UINT64_MAX;
#ifdef MT_RING_PROBE
    c->ring_probe = calloc(RING_PROBE_WORDS, sizeof *c->ring_probe);
#endif
    c->poll_cycle = BUS_POLL_CYCLES;
    c->cross_page = dpage_cross_alloc();
    c->dtlb_used = (1u << DTLB_SETS) - 1; /* zeroed entries are not invalid yet */
    c->itlb_used = (1u << ITLB_SETS) - 1;
    cpu_reset(c, 0x1000);
}

void cpu_free(mt_cpu *c)
{
    dpage_free_all(c);
    free(c->cross_page);
    c->cross_page = NULL;
#ifdef MT_RING_PROBE
    fprintf(stderr, "mtemu: ring probe: %llu records (runs entered and fast-path data accesses)\n",
            (unsigned long long)(c->ring_probe_n / 2));
    free(c->ring_probe);
    c->ring_probe = NULL;
#endif
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
    pmp_rebuild(c);
    memset(&c->hyp, 0, sizeof c->hyp);
    c->hyp.vstimecmp = UINT64_MAX;
    cpu_flush_tlb(c);
    cpu_update_priv_ctx(c);
    cpu_update_next_event(c);
}

/* ---- translation caches ------------------------------------------------------------------ */

void cpu_flush_tlb_sets(mt_cpu *c, unsigned dtlb_mask, unsigned itlb_mask)
{
    for (int m = 0; m < DTLB_SETS; m++)
        if (c->dtlb_used & dtlb_mask & (1u << m))
            for (unsigned i = 0; i < TLB_ENTRIES; i++)
                c->dtlb[m][i].tag_r = c->dtlb[m][i].tag_w = TLB_INVALID;
    for (int m = 0; m < ITLB_SETS; m++)
        if (c->itlb_used & itlb_mask & (1u << m))
            for (unsigned i = 0; i < TLB_SIZE; i++)
                c->itlb[m][i].tag = TLB_INVALID;
    c->dtlb_used &= ~dtlb_mask;
    c->itlb_used &= ~itlb_mask;
}

void cpu_flush_tlb(mt_cpu *c) { cpu_flush_tlb_sets(c, ~0u, ~0u); }

void cpu_update_priv_ctx(mt_cpu *c)
{
    c->data_priv = c->priv;
    if (c->priv == PRV_M && (c->mstatus & MSTATUS_MPRV))
        c->data_priv = (int)((c->mstatus & MSTATUS_MPP) >> MSTATUS_MPP_SHIFT);
    int mxr = (c->mstatus & MSTATUS_MXR) != 0, sum = (c->mstatus & MSTATUS_SUM) != 0;
    c->dset = c->data_priv == PRV_M ? 6 : c->data_priv == PRV_S ? 2 + sum + 2 * mxr : mxr;
    c->cur_dtlb = c->dtlb[c->dset];
    c->iset = c->priv;
    c->cur_itlb = c->itlb[c->priv];
    hyp_update_ctx(c); /* V, or M-mode loads/stores with MPRV+MPV: the guest's sets */
}

void cpu_invalidate_phys(mt_cpu *c, uint64_t base, uint64_t len)
{
    for (int m = 0; m < DTLB_SETS; m++) {
        if (!(c->dtlb_used & (1u << m)))
            continue; /* every tag invalid since the set's last flush */
        for (unsigned i = 0; i < TLB_ENTRIES; i++) {
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

/* Gives the slot stopped at for an event (OP_BREAK) its op back. */
static void unbreak(mt_cpu *c)
{
    if (c->brk_slot) {
        c->brk_slot->op = c->brk_op;
        c->brk_slot = NULL;
    }
}

/* ---- hooks and events -------------------------------------------------------------------- */

/* Every access goes to cpu_access_due (interpreter_hooked): the cache model wants every access,
 * and so does an observer whose calls may cost cycles, or one beside the listener's page filter
 * (interpreter_observed checks the observer's granule only); any other observer is served by
 * interpreter_observed, the page filter alone by interpreter_filtered. */
static inline bool every_access_hooked(const mt_cpu *c)
{
    return c->cache || (c->observer && (c->obs_timed || c->pf.kinds));
}

void cpu_update_next_event(mt_cpu *c)
{
    c->next_due = every_access_hooked(c) ? 0 : (c->listener ? c->listener_due : UINT64_MAX);
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
    if (c->stop || c->log_commits || c->debug)
        e = 0;
    c->other_event = e;
    c->next_event = c->next_due < e ? c->next_due : e;
}

void cpu_set_listener(mt_cpu *c, mt_access_listener fn, void *ctx, uint64_t first_due)
{
    cpu_page_log_drain(c); /* the old listener hears what it was owed first */
    c->pf.sink = NULL;     /* the sink is the old listener's */
    c->listener = fn;
    c->listener_ctx = ctx;
    c->listener_kinds = (1u << MT_KIND_COUNT) - 1;
    c->abuf = NULL;
    c->listener_due = fn ? cpu_local_cycle(c, first_due) : UINT64_MAX;
    c->sampler = NULL;
    c->spec_stamp = UINT64_MAX;
    cpu_update_next_event(c);
}

void cpu_set_sampler(mt_cpu *c, cpu_sampler *smp)
{
    if (c->sampler)
        cpu_sampler_settle(c->sampler);
    c->sampler = smp;
    c->spec_stamp = UINT64_MAX;
    if (smp)
        smp->plain_due = UINT64_MAX; /* planned from the next capture the listener makes */
}

void cpu_take_listener(mt_cpu *c, const mt_cpu *from)
{
    c->listener = from->listener;
    c->listener_ctx = from->listener_ctx;
    c->listener_kinds = from->listener_kinds;
    c->abuf = from->abuf;
    c->pf = from->pf; /* the filter follows the listener's stream, which is the machine's */
    c->pf.ord_off = 0;
    c->pf.ord_off = cpu_filter_ordinal(from) - cpu_filter_ordinal(c); /* its ordinal goes on */
    c->sampler = from->sampler;
    c->spec_stamp = UINT64_MAX; /* the other hart's run ended: its capture's fetch came */
    if (c->sampler)
        c->sampler->plain_due = UINT64_MAX; /* it was in the other hart's cycles */
    uint64_t due = from->listener_due == UINT64_MAX ? UINT64_MAX : from->listener_due + from->stamp_offset;
    c->listener_due = from->listener ? cpu_local_cycle(c, due) : UINT64_MAX;
    cpu_update_next_event(c);
}

void cpu_set_listener_kinds(mt_cpu *c, uint32_t mask) { c->listener_kinds = mask; }

void cpu_set_access_buf(mt_cpu *c, mt_access_buf *b)
{
    c->abuf = b && !c->cache && !c->observer && !c->pf.kinds ? b : NULL;
}

/* ---- the listener's page filter ---------------------------------------------------------- */

/* Calls the listener with `a`, after the alternation steps the filter held back (their dues are
 * superseded by the last call's), and moves the filter on to a's page. */
static __attribute__((noinline)) uint64_t listener_call(mt_cpu *c, const mt_access *a)
{
    mt_page_filter *f = &c->pf;
    if (f->nlog) /* what came before a */
        cpu_page_log_drain(c);
    if (f->kinds) {
        for (unsigned i = 2u - f->npend; i < 2; i++) {
            const mt_access p = cpu_filter_unpack(f->pend_stamp[i], f->pend_word[i]);
            (void)c->listener(c->listener_ctx, &p);
            f->last_stamp = p.cycle;
        }
        f->npend = 0;
        /* disarmed (after the held steps, which may have armed it again): the listener arms it
         * again if the alternation goes on after `a` */
        f->other = 1;
        if ((f->kinds >> a->kind) & 1) {
            if (a->cycle != f->last_stamp) /* else the second access of a cycle: not taken */
                f->last = a->addr & CPU_PF_PAGE;
            f->last_stamp = a->cycle;
        }
    }
    return c->listener(c->listener_ctx, a);
}

/* filter_passes with the page log on or entries waiting: a slow path's access (a TLB miss, MMIO,
 * a trap's or a stop's fetch) goes into the log as the fast path's do, when it can; else the log
 * is replayed first and the live decision made on the state it leaves.  A repeat of the page or a
 * step of the armed pair needs no replay: the live `last` and `other` are those the replay would
 * leave (mt_page_filter: other is disarmed while entries wait, and the replay ends at `last`). */
static __attribute__((noinline)) bool filter_passes_logged(mt_cpu *c, uint64_t pa, unsigned size, int write, int kind)
{
    const uint64_t t = cpu_time(c);
    if (!cpu_filter_wants(c, pa, kind) || cpu_filter_step(c, pa, size, write, kind, t))
        return false;
    if (cpu_page_log(c, pa, size, write, kind, t, c->instret))
        return false;
    cpu_page_log_drain(c);
    return cpu_filter_wants(c, pa, kind) && !cpu_filter_step(c, pa, size, write, kind, t);
}

/* The page filter's part of the listener's decision: true when it must hear of this access now
 * (a filtered kind, another page, not a held step of the armed alternation). */
static inline bool filter_passes(mt_cpu *c, uint64_t pa, unsigned size, int write, int kind)
{
    if (unlikely(c->pf.nlog) || c->pf.sink)
        return filter_passes_logged(c, pa, size, write, kind);
    return cpu_filter_wants(c, pa, kind) && !cpu_filter_step(c, pa, size, write, kind, cpu_time(c));
}

void cpu_set_page_filter(mt_cpu *c, uint32_t kinds)
{
    if (kinds == c->pf.kinds)
        return;
    cpu_page_filter_flush(c);
    c->pf.kinds = kinds;
    for (unsigned k = 0; k < MT_KIND_COUNT; k++)
        c->pf.ord_mask[k] = (kinds >> k) & 1 ? UINT64_MAX : 0;
    c->pf.last = c->pf.other = 1; /* no page's base */
    c->pf.last_stamp = UINT64_MAX;
    cpu_update_next_event(c);
}

void cpu_page_filter_pair(mt_cpu *c, uint64_t last, uint64_t other)
{
    if (c->pf.kinds && (last << 12) == c->pf.last && other != last) {
        c->pf.other = other << 12;
    }
}

uint64_t cpu_filter_ordinal(const mt_cpu *c) { return cpu_filter_ordinal_at(c, c->instret); }

void cpu_set_page_sink(mt_cpu *c, cpu_page_sink fn, void *ctx, unsigned opts)
{
    cpu_page_log_drain(c);
    c->pf.sink = fn;
    c->pf.sink_ctx = ctx;
    c->pf.log_ords = fn && (opts & CPU_SINK_ORDINALS);
    c->pf.log_settle = opts & CPU_SINK_NO_PAIR ? UINT32_MAX : 3;
}

/* The held steps to the sink (listener_call's first part, the sink in the listener's place): the
 * pair they may arm is disarmed after them, so the sink's wish is not asked (pair NULL). */
static void page_log_pend(mt_cpu *c)
{
    mt_page_filter *f = &c->pf;
    for (uint32_t i = 2u - f->npend; i < 2;)
        i += f->sink(f->sink_ctx, &f->pend_stamp[i], &f->pend_word[i], NULL, 2u - i, NULL);
    f->last_stamp = f->pend_stamp[1];
    f->npend = 0;
}

/* The page log replayed (mt_page_filter): each entry through the filter as the live access would
 * have gone on, a step of the armed pair held (cpu_filter_step), any other a listener call
 * (listener_call: the held steps first, then the pair disarmed, `last` moved).  A run of calls
 * goes to the sink in one; it stops after a call that arms the pair, which is armed here as the
 * listener would have (cpu_page_filter_pair), and the replay goes on.  The first entry is a call:
 * it was logged because it was no step of the pair armed then (the live check came first), and
 * its call disarms that pair, so the replay needs nothing of the state the log was opened in but
 * the held steps, which stay as they were.  The entries' pages differ from the one before (the
 * live filter logged only changes), they are of the filtered kinds, and their stamps increase from
 * after the last one handed on (cpu_page_log_room): so each call is the live one, and
 * `last_stamp` never holds `last` back (listener_call). */
void cpu_page_log_drain(mt_cpu *c)
{
    mt_page_filter *f = &c->pf;
    const uint32_t n = f->nlog;
    if (!n)
        return;
    f->nlog = 0; /* (the live pair is disarmed while entries wait: other is 1) */
    const uint64_t *stamp = c->pf_log.stamp, *word = c->pf_log.word, *ord = f->log_ords ? c->pf_log.ord : NULL;
    for (uint32_t i = 0; i < n;) {
        const uint64_t page = (word[i] >> 8) & CPU_PF_PAGE;
        if (page == f->other) { /* a step of the armed alternation */
            f->pend_stamp[0] = f->pend_stamp[1];
            f->pend_word[0] = f->pend_word[1];
            f->pend_stamp[1] = stamp[i];
            f->pend_word[1] = word[i];
            f->npend = f->npend ? 2 : 1;
            f->other = f->last;
            f->last = page;
            i++;
            continue;
        }
        if (f->npend)
            page_log_pend(c);
        f->other = 1;
        uint64_t pair[2] = {UINT64_MAX, UINT64_MAX}; /* the sink's wish, if any */
        i += f->sink(f->sink_ctx, &stamp[i], &word[i], ord ? &ord[i] : NULL, n - i, pair);
        f->last = (word[i - 1] >> 8) & CPU_PF_PAGE;
        f->last_stamp = stamp[i - 1];
        if (pair[0] != UINT64_MAX)
            cpu_page_filter_pair(c, pair[0], pair[1]);
    }
}

void cpu_page_filter_flush(mt_cpu *c)
{
    mt_page_filter *f = &c->pf;
    cpu_page_log_drain(c);
    f->other = 1;
    if (!f->npend || !c->listener) {
        f->npend = 0;
        return;
    }
    for (unsigned i = 2u - f->npend; i < 2; i++) {
        const mt_access p = cpu_filter_unpack(f->pend_stamp[i], f->pend_word[i]);
        c->listener_due = cpu_local_cycle(c, c->listener(c->listener_ctx, &p));
        f->last_stamp = p.cycle;
    }
    f->npend = 0;
    cpu_update_next_event(c);
}

/* ---- the page observer's batches --------------------------------------------------------- */

static inline void batch_append(struct ram_page_batch *b, uint64_t pfn, bool write)
{
    b->entries[b->n] = pfn << 1 | (uint64_t)write;
    if (++b->n == b->cap)
        b->drain(b);
}

/* The observer of a batched hart, for the paths that call the observer itself. */
static void batch_observer(void *ctx, uint64_t pfn, bool is_write)
{
    batch_append(ctx, pfn, is_write);
}

void cpu_set_page_batch(mt_cpu *c, struct ram_page_batch *batch, unsigned granule_shift)
{
    cpu_set_page_observer(c, batch_observer, batch, granule_shift);
    c->obs_batch = batch;
}

void cpu_set_page_observer(mt_cpu *c, ram_page_observer fn, void *ctx, unsigned granule_shift)
{
    c->obs_batch = NULL;
    c->abuf = NULL; /* the observer wants each access as it comes */
    c->observer = fn;
    c->observer_ctx = ctx;
    c->obs_last_unit = UINT64_MAX;
    unsigned shift = granule_shift > RAM_PAGE_SHIFT && granule_shift < 64 ? granule_shift : RAM_PAGE_SHIFT;
    c->obs_mask = ~((UINT64_C(1) << shift) - 1);
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
        uint64_t unit = pa & c->obs_mask;
        if (unit != c->obs_last_unit || (write && !c->obs_last_write)) {
            c->obs_last_unit = unit;
            c->obs_last_write = write != 0;
            c->observer(c->observer_ctx, pa >> RAM_PAGE_SHIFT, write != 0);
        }
    }
    if (c->listener && ((c->cycle >= c->listener_due && ((c->listener_kinds >> kind) & 1)) ||
                        filter_passes(c, pa, size, write, kind))) {
        mt_access a = {.cycle = cpu_time(c), .addr = pa & MT_PADDR_MASK, .write = (uint8_t)(write != 0),
                       .size = (uint8_t)size, .kind = (uint8_t)kind, .tap = MT_TAP_CORE};
        c->listener_due = cpu_local_cycle(c, c->pf.kinds ? listener_call(c, &a) : c->listener(c->listener_ctx, &a));
        c->next_due = every_access_hooked(c) ? 0 : c->listener_due;
        if (c->next_due < c->next_event)
            c->next_event = c->next_due;
    }
    c->cycle += extra; /* the miss latency, after the access was stamped */
}

/* The listener's decision (emu/trace/tracepipe.c tracepipe_listener) for an access at or after
 * the due, made here in its usual case inside a burst: the sampler usable, no interval open, the
 * access in the interval of the next sample point, in its section and after every access seen,
 * of a kind the unit captures.  Then it is the capture, and this appends it and moves the
 * schedule on exactly as the listener would (the same fields, counts and due); false, with
 * nothing done, in any other case, which the listener decides.  Why: these are the sampler's
 * data captures (21% of bench_cpu's samples), and the listener's general path cost ~110 host
 * instructions a capture (callgrind). */
static inline bool sample_data(mt_cpu *c, uint64_t pa, unsigned size, int write, int kind, uint64_t *due)
{
    cpu_sampler *smp = c->sampler;
    mt_sched *s = smp->sched;
    const uint64_t at = cpu_time(c), next_sp = s->next_sp;
    if (!smp->usable || s->int_open || !((s->kind_mask >> kind) & 1) || at < next_sp || at - next_sp >= s->r ||
        at >= s->sec_end || at < s->now || at < smp->last_cycle)
        return false;
    const mt_access a = {.cycle = at, .addr = pa & MT_PADDR_MASK, .write = (uint8_t)(write != 0),
                         .size = (uint8_t)size, .kind = (uint8_t)kind, .tap = MT_TAP_CORE};
    smp->last_cycle = at + 1;
    smp->accesses++;
    s->now = at + 1;
    s->next_sp = next_sp + s->r;
    cpu_sampler_append(smp, &a);
    *due = cpu_local_cycle(c, mt_sched_due(s));
    return true;
}

/* Sets the sampler's plain state (cpu.h cpu_sampler.plain_due) from the schedule as the listener
 * or sample_data left it: after a capture made there, the next one may be the interpreter's
 * again with its one-field entry test. */
static void sampler_plan(mt_cpu *c)
{
    cpu_sampler *smp = c->sampler;
    const mt_sched *s = smp->sched;
    const uint64_t sp = s->next_sp, due = c->listener_due;
    smp->plain_due = UINT64_MAX;
    if (!smp->usable || !s->active || s->int_open || sp >= s->sec_end || s->now > sp || smp->last_cycle > sp ||
        sp <= c->stamp_offset || due != sp - c->stamp_offset || c->next_due != due || due == smp->data_due)
        return;
    smp->plain_end = cpu_local_cycle(c, s->sec_end);
    smp->plain_fast = smp->plain_end > s->r ? smp->plain_end - s->r : 0;
    smp->plain_r = s->r;
    smp->plain_due = due;
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
    if (c->listener && ((c->cycle >= c->listener_due && ((c->listener_kinds >> kind) & 1)) ||
                        (c->pf.kinds && filter_passes(c, pa, size, write, kind)))) {
        const mt_access a = {.cycle = cpu_time(c), .addr = pa & MT_PADDR_MASK, .write = (uint8_t)(write != 0),
                             .size = (uint8_t)size, .kind = (uint8_t)kind, .tap = MT_TAP_CORE};
        c->spec_stamp = UINT64_MAX; /* a capture taken ahead was of an earlier cycle: it came */
        if (c->sampler)
            cpu_sampler_settle(c->sampler); /* the listener and sample_data read the schedule */
        uint64_t due;
        /* the sampler's usual capture here; else without the page filter (the unit's samples)
         * the listener directly: no extra call */
        if (!(c->sampler && !c->pf.kinds && sample_data(c, pa, size, write, kind, &due)))
            due = cpu_local_cycle(c, c->pf.kinds ? listener_call(c, &a) : c->listener(c->listener_ctx, &a));
        c->listener_due = c->next_due = due;
        if (c->sampler)
            sampler_plan(c);
        /* next_event as cpu_update_next_event would set it: lowering it only would leave it at
         * the due just taken, and the next run would stop once more for nothing.  A stop
         * (OP_BREAK) placed for that due is removed by the interpreter's slow paths when they
         * return (interp.inc SLOW, ACCESS), before the run is entered again. */
        c->next_event = due < c->other_event ? due : c->other_event;
    }
}

void cpu_request_stop(mt_cpu *c)
{
    c->stop = true;
    c->next_event = c->other_event = 0;
}

/* Time's two clocks at the current cycle: the timer comparators when one is due, and the devices
 * when their poll is due (true: they were polled). */
static bool timers_and_poll(mt_cpu *c)
{
    if (c->cycle >= c->timer_cycle)
        cpu_timer_changed(c);
    if (c->cycle < c->poll_cycle)
        return false;
    c->poll_cycle = c->cycle + BUS_POLL_CYCLES;
    bus_poll(c->bus);
    if (c->on_poll)
        c->on_poll(c->poll_ctx);
    return true;
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
    if (timers_and_poll(c) && c->stop)
        return true;
    return cpu_pending_interrupt(c) >= 0;
}

/* Slow path of the per-instruction compare.  Returns true when the page loop must be left
 * (before executing the instruction at pc). */
static bool cpu_event(mt_cpu *c, mt_dpage *dp, mt_dinsn *d, uint64_t pc, uint64_t vbase)
{
    c->pc = pc; /* where the interpreter goes on when this returns true (the debugger may move it) */
    if (pc - vbase >= 4096 || dp == c->cross_page) /* past the page end, or a sentinel of the cross
                                                    * page: the outer loop re-enters at pc */
        return true;
    if (likely(c->cycle < c->other_event)) { /* only the access hook is due: the fetch event */
        if (d->op == OP_DECODE)
            dpage_decode_run(c, dp, d);
        cpu_access_due(c, dp->pa | (pc - vbase), dinsn_len(d), 0, MT_KIND_FETCH);
        c->next_event = c->next_due < c->other_event ? c->next_due : c->other_event;
        return false;
    }
    if (service_events(c))
        return true;
    if (c->debug && c->debug_hook && c->debug_hook(c->debug_ctx, c, pc))
        return true;
    if (d->op == OP_DECODE)
        dpage_decode_run(c, dp, d);
    if (c->log_commits) {
        cpu_log_flush(c, true);
        c->log_pending = true;
        c->log_pc = pc;
        c->log_raw = dpage_slot_bits(c, dp, d);
        c->log_rd = d->rd;
        c->log_len = dinsn_len(d);
        c->log_priv = (uint8_t)c->priv;
    }
    if (c->cycle >= c->next_due || c->pf.kinds)
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
    /* Nothing changes before the next timer or device poll: skip to it. (Also with no timer
     * set: the guest then waits for a device, which only a poll can hear; without the skip the
     * hart spun here for ever, deaf to its console and to SIGTERM.) */
    uint64_t target = c->poll_cycle < c->timer_cycle ? c->poll_cycle : c->timer_cycle;
    if (target > c->cycle)
        c->cycle = target;
    if (timers_and_poll(c)) {
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
    c->obs_last_unit = pa & c->obs_mask;
    c->obs_last_write = write;
    if (c->obs_batch)
        batch_append(c->obs_batch, pa >> RAM_PAGE_SHIFT, write);
    else
        c->observer(c->observer_ctx, pa >> RAM_PAGE_SHIFT, write);
}

/* A data access to another granule and, at once, the fetch back to the run's code granule
 * `code` (another one too): the two reports cpu_observe would make one after the other, in one
 * call (half the Linux workload's reports come in such pairs).  Nothing between the two could
 * change what the second is: only a hart's new turn resets the granule last reported. */
static __attribute__((noinline)) void cpu_observe_pair(mt_cpu *c, uint64_t pa, bool write,
                                                       uint64_t code)
{
    c->obs_last_unit = code & c->obs_mask;
    c->obs_last_write = false;
    if (c->obs_batch) {
        batch_append(c->obs_batch, pa >> RAM_PAGE_SHIFT, write);
        batch_append(c->obs_batch, code >> RAM_PAGE_SHIFT, false);
    } else {
        c->observer(c->observer_ctx, pa >> RAM_PAGE_SHIFT, write);
        c->observer(c->observer_ctx, code >> RAM_PAGE_SHIFT, false);
    }
}

/* interpreter_filtered: a data access of the fast path (d's, in a run charged up to `cycle`) to
 * another page than the filter's last.  True when it is a step of the armed alternation, held
 * (stamped as SAVE() would leave the cycle for it); then the next fetch of the run, if the run
 * goes on and fetches are filtered, comes back to the code page: also a step, held with its
 * stamp (one cycle later) unless an event may come first, when the event path reports it.  False
 * (the access leaves the run for the listener) when the code page is a third page. */
static __attribute__((noinline)) bool filter_data_step_other(mt_cpu *c, const mt_dpage *dp, const mt_dinsn *d,
                                                             uint64_t at, uint64_t pa, unsigned size, int write, int kind)
{
    const bool more = d->run_insns > 1 && (c->pf.kinds & 1);
    const uint64_t code = dp->pa & CPU_PF_PAGE;
    if (more && code != c->pf.last && code != (pa & CPU_PF_PAGE))
        return false; /* the next fetch is a third page's */
    if (!cpu_filter_step(c, pa, size, write, kind, at + c->stamp_offset))
        return false;
    /* the fetch back to the code page (a step), unless the next instruction is the stop, whose
     * event path reports its fetch */
    const mt_dinsn *n = (const mt_dinsn *)((const char *)d + d->step);
    if (more && code == c->pf.other && n->op != OP_BREAK)
        cpu_filter_step(c, dp->pa | (uint64_t)((const char *)n - (const char *)dp->slot) / (sizeof(mt_dinsn) / 2),
                        dinsn_len(n), 0, MT_KIND_FETCH, at + 1 + c->stamp_offset);
    return true;
}

/* The fetch back to the code page (a slot of the run) that follows a data access of it: the word
 * cpu_filter_pack makes of it. */
static inline uint64_t filter_fetch_word(const mt_dpage *dp, const mt_dinsn *n)
{
    return (dp->pa | (uint64_t)((const char *)n - (const char *)dp->slot) / (sizeof(mt_dinsn) / 2)) << 8 |
           (uint64_t)(n->step >> 4) << 4 | MT_KIND_FETCH << 1;
}

/* interpreter_filtered with the page log on (mt_page_filter.sink): a data access of the fast path
 * (d's, charged up to `cycle`) to another page than the last, no step of the armed pair: logged
 * with the fetch back to the code page that the run's next instruction makes one cycle later,
 * when fetches are filtered, the run goes on and its next slot is no stop (as filter_data_step
 * holds it; else the next run's entry or the stop's event path hears that fetch).  Then the run
 * goes on (true); false: the access leaves the run for the listener (the log is full). */
static inline __attribute__((always_inline)) bool filter_data_log(mt_cpu *c, const mt_dpage *dp, const mt_dinsn *d,
                                                                  uint64_t cycle, uint64_t instret, uint64_t pa,
                                                                  unsigned size, int write, int kind)
{
    const uint64_t at = cycle - (uint64_t)(d->run_cost - c->op_cost[d->op]) + c->stamp_offset;
    const mt_dinsn *n = (const mt_dinsn *)((const char *)d + d->step);
    const uint64_t page = pa & CPU_PF_PAGE;
    const bool back = (c->pf.kinds & 1) && d->run_insns > 1 && n->op != OP_BREAK && dp->pa != page;
    if (!cpu_page_log_room(c, at, 1u + back))
        return false;
    if (c->pf.log_ords) { /* the data access's (d fetched: SAVE()'s instret), then the fetch back's */
        const uint64_t o = cpu_filter_ordinal_at(c, instret - (d->run_insns - 1u));
        c->pf_log.ord[c->pf.nlog] = o;
        if (back)
            c->pf_log.ord[c->pf.nlog + 1] = o + 1;
    }
    bool settle = cpu_page_log_append(c, at, cpu_filter_pack(pa, size, write, kind), page);
    if (back)
        settle |= cpu_page_log_append(c, at + 1, filter_fetch_word(dp, n), dp->pa);
    if (unlikely(settle)) /* an alternation: the pair armed (if the listener would) holds the rest */
        cpu_page_log_drain(c);
    return true;
}

static inline __attribute__((always_inline)) bool filter_data_step(mt_cpu *c, const mt_dpage *dp, const mt_dinsn *d,
                                                                   uint64_t cycle, uint64_t instret, uint64_t pa,
                                                                   unsigned size, int write, int kind)
{
    mt_page_filter *f = &c->pf;
    if ((pa & CPU_PF_PAGE) != f->other) /* also when no alternation is armed */
        return f->sink && filter_data_log(c, dp, d, cycle, instret, pa, size, write, kind);
    const uint64_t at = cycle - (uint64_t)(d->run_cost - c->op_cost[d->op]);
    const mt_dinsn *n = (const mt_dinsn *)((const char *)d + d->step);
    /* the next instruction of the run is fetched at at + 1 unless it is the stop (OP_BREAK) the
     * run was cut at for an event: no event falls inside a run before its stop (ENTER) */
    if (likely(dp->pa == f->last && d->run_insns > 1 && (f->kinds & 1) && n->op != OP_BREAK)) {
        /* the usual case: the data step and the fetch step back to the code page, both held;
         * last and other end as they were */
        f->pend_stamp[0] = at + c->stamp_offset;
        f->pend_word[0] = cpu_filter_pack(pa, size, write, kind);
        f->pend_stamp[1] = at + 1 + c->stamp_offset;
        f->pend_word[1] = filter_fetch_word(dp, n);
        f->npend = 2;
        return true;
    }
    return filter_data_step_other(c, dp, d, at, pa, size, write, kind);
}

/* ---- the sampler in the runs interpreter (cpu_sampler) ---------------------------------- */


/* The capture cpu_sample_run finds to be the data access of slot p of the run entered at d (p's
 * fetch is before the due, its access at or after it) can be known before the run is executed
 * when p is a load or store of the fast path (op_data), so its address is x[rs1] + imm translated
 * by the current data TLB's direct-mapped entry (LOAD/STORE in interp.inc), and x[rs1] at p is
 * a sum of registers as they are at d: (a) no slot from d up to p writes rs1 (a slot writes only
 * its rd on its fast path; one that takes a slow path, or traps, first takes the capture back,
 * SPEC_RESOLVE, as its start is before the access's stamp); or (b) the last slot w before p
 * that writes it is an ADD (rd = x[a] + x[b]; C.ADD and C.MV decode to it) or an ADDI (rd =
 * x[a] + imm; C.ADDI, C.LI, C.MV's kin), as its own instruction or a fused group's first, and
 * no slot from d up to w writes a or b (x0 is never written: its writes go to the sink, x[32]).
 * Then x[rs1] at p = x[a] + x[b] + imm(w) with the values at d, mod 2^64 as the handlers add.
 * Why (b): on bench_cpu every data access not known ahead by (a) (18,273 of 1.06 M samples)
 * was behind a C.ADD or C.ADDI of its base register, and each cost a stop of the run, the
 * listener's call and a capture there (~500 host instructions).  Only a slow path changes the
 * TLB or the translation context.  This part depends on the slots alone (sample_walk remembers
 * it as data_access_desc); data_bits_now does the rest.  The address is x[*r1] + x[*r2] + *off
 * (r2 0 when there is one register: x[0] reads 0). */
static bool data_known_ahead(const mt_cpu *c, const mt_dinsn *d, const mt_dinsn *p, unsigned *r1, unsigned *r2,
                             int32_t *off)
{
    if (!c->op_data[p->op])
        return false;
    const mt_dinsn *w = NULL;
    for (const mt_dinsn *k = d; k != p; k = (const mt_dinsn *)((const char *)k + k->step))
        if (k->rd == p->rs1)
            w = k;
    if (!w) { /* (a) */
        *r1 = p->rs1, *r2 = 0, *off = p->imm;
        return true;
    }
    const unsigned base = op_uncompressed(op_pair_first(w->op));
    if (base != OP_ADD && base != OP_ADDI)
        return false;
    const unsigned a = w->rs1, b = base == OP_ADD ? w->rs2 : 0;
    const int64_t sum = (int64_t)p->imm + (base == OP_ADDI ? w->imm : 0);
    if (sum != (int32_t)sum)
        return false; /* the memo keeps 32 bits of offset */
    for (const mt_dinsn *k = d; k != w; k = (const mt_dinsn *)((const char *)k + k->step))
        if (k->rd == a || k->rd == b) /* rd is never 0 (decode.c: x0 is the sink, 32) */
            return false;
    *r1 = a, *r2 = b, *off = (int32_t)sum;
    return true;
}

/* The data access of slot p (data_known_ahead's registers r1, r2 and offset) as the memo keeps
 * it: the offset (bits 0-31), the registers (r1 32-39, r2 48-55), size - 1 (40-47, the
 * alignment the TLB's tag tests), and bits 56-63 as accring_entry has them for this access
 * (write, kind, core tap, log2 size), so that data_bits_now reads no slot and packs nothing. */
static uint64_t data_access_desc(const mt_cpu *c, const mt_dinsn *p, unsigned r1, unsigned r2, int32_t off)
{
    const unsigned acc = c->op_data[p->op];
    const unsigned kind = acc & 4 ? MT_KIND_STORE : MT_KIND_LOAD, size_log2 = acc & 3;
    return (uint64_t)(uint32_t)off | (uint64_t)r1 << 32 | (uint64_t)((1u << size_log2) - 1) << 40 |
           (uint64_t)r2 << 48 | (uint64_t)((acc >> 2) & 1) << 56 | (uint64_t)kind << 57 |
           (uint64_t)MT_TAP_CORE << 60 | (uint64_t)size_log2 << 61;
}

/* The capture that is the data access described by desc (data_access_desc) in accring_entry's
 * packed form, or 0 when not known now: the unit must capture the kind (the listener hears it:
 * listener_kinds; the schedule captures it: kind_mask), and the TLB entry must hit now (else the
 * access takes the slow path and is heard there).  Its address is x[r1] + x[r2] + offset through the
 * current data TLB's direct-mapped entry, as LOAD/STORE compute it.  What is then appended is
 * what cpu_access_due's sample_data would append at that access. */
static inline __attribute__((always_inline)) uint64_t data_bits_now(mt_cpu *c, uint64_t desc)
{
    const unsigned kind = (unsigned)(desc >> 57) & 7;
    if (!(((c->listener_kinds & c->sampler->sched->kind_mask) >> kind) & 1))
        return 0;
    const uint64_t va = c->x[(desc >> 32) & 0xff] + c->x[(desc >> 48) & 0xff] + (uint64_t)(int64_t)(int32_t)(uint32_t)desc;
    const mt_dtlb_entry *e = &c->cur_dtlb[(va >> 12) & (TLB_SIZE - 1)];
    if (((desc >> 56) & 1 ? e->tag_w : e->tag_r) != (va & (PAGE_MASK | ((desc >> 40) & 0xff))))
        return 0;
    c->sampler->data_ahead++; /* here, off the fetches' path (cpu_sample_run: less when not taken) */
    return ((e->pa | (va & 0xfff)) & MT_PADDR_MASK) | (desc & ~MT_PADDR_MASK);
}

/* What sample_walk finds (cpu.h cpu_sample_memo.what). */
enum { SAMPLE_FETCH = 1, SAMPLE_DATA, SAMPLE_DATA_STOP, SAMPLE_PAST };

/* The memo's tag for the walk of (d, lim) made while dpage_resets = gen: both in one word, so
 * that an entry is found with two compares (d, tag).  lim <= run_cost fits 16 bits; the tag is
 * unique while gen < 2^48, and each reset is a page's slots made OP_DECODE again or every page
 * freed, of which no run makes 2^48. */
static inline uint64_t sample_memo_tag(uint64_t gen, unsigned lim) { return gen << 16 | lim; }

/* The memo's entry for (d, lim) (mt_cpu.sample_memo: one per slot of the table). */
static inline struct cpu_sample_memo *sample_memo_entry(mt_cpu *c, const mt_dinsn *d, unsigned lim)
{
    /* d's slot number plus an odd multiple of lim, in the low bits: the slots of a page fill
     * the table side by side, and a run's several lims spread apart (a multiply fewer than a
     * hash of both).  Computed as the entry's byte offset, ((d >> 4) + lim K) mod 4096 times 32
     * = (2 d + 32 lim K) mod 2^17 (d is 16-byte aligned): the same entry as the index, in three
     * host instructions instead of six. */
    const uintptr_t off = ((uintptr_t)d * 2 + (uintptr_t)(lim * (0x9e3779b1u << 5))) &
                          ((uintptr_t)((1u << CPU_SAMPLE_MEMO_BITS) - 1) << 5);
    return (struct cpu_sample_memo *)((char *)c->sample_memo + off);
}
_Static_assert(sizeof(struct cpu_sample_memo) == 32 && sizeof(mt_dinsn) == 16,
               "sample_memo_entry's offset: 32-byte entries, 16-byte slots");

/* The least r for which a capture stamped t_off cycles into the run of d, at lim, is
 * cpu_sample_run's usual case: with gap = run_cost(d) - lim (the due's offset from the run's
 * start) the stamp is before the next due (t_off < gap + r) and the whole run fits before it
 * (run_bound(d) < gap + r).  Depends on the slots only, so it is remembered with the walk. */
static inline uint32_t sample_rmin(const mt_dinsn *d, unsigned lim, unsigned t_off)
{
    const int64_t need = (int64_t)(t_off > d->run_bound ? t_off : d->run_bound) + lim - d->run_cost + 1;
    return need > 0 ? (uint32_t)need : 0;
}

/* sample_walk's walk, when it does not remember (d, lim): fills m. */
static __attribute__((noinline)) const struct cpu_sample_memo *sample_walk_fill(mt_cpu *c, const mt_dpage *dp,
                                                                               const mt_dinsn *d, unsigned lim,
                                                                               struct cpu_sample_memo *m, uint64_t tag)
{
    *m = (struct cpu_sample_memo){.d = d, .genlim = tag, .rmin = UINT32_MAX, .what = SAMPLE_PAST};
    const mt_dinsn *j = d, *p;
    unsigned left = d->run_insns;
    do {
        if (--left == 0)
            return m; /* past the run's last fetch */
        p = j;
        j = (const mt_dinsn *)((const char *)p + p->step);
    } while (j->run_cost > lim);
    const unsigned cost = c->op_cost[p->op];
    if ((unsigned)(p->run_cost - j->run_cost) > cost && p->run_cost - cost <= lim) {
        unsigned r1, r2;
        int32_t off;
        m->what = data_known_ahead(c, d, p, &r1, &r2, &off) ? SAMPLE_DATA : SAMPLE_DATA_STOP;
        m->bits = m->what == SAMPLE_DATA ? data_access_desc(c, p, r1, r2, off) : 0;
        m->t_off = (uint16_t)(d->run_cost - p->run_cost + cost);
        if (m->what == SAMPLE_DATA)
            m->rmin = sample_rmin(d, lim, m->t_off);
    } else {
        m->what = SAMPLE_FETCH;
        m->t_off = (uint16_t)(d->run_cost - j->run_cost);
        m->bits = accring_fetch_bits(dp->pa | (uint64_t)((const char *)j - (const char *)dp->slot) / (sizeof(mt_dinsn) / 2),
                                     dinsn_len(j));
        m->rmin = sample_rmin(d, lim, m->t_off);
    }
    return m;
}

/* The first access of the run of slot d (entered at some cycle C, exact) stamped at or after
 * C + run_cost(d) - lim, for 0 <= lim < run_cost(d): SAMPLE_FETCH, the fetch of slot j, at
 * C + t_off, packed as the ring stores it in `bits` (dp, d's page, gives its address);
 * SAMPLE_DATA, the data access of slot p (the slot before the first fetch at or after it; its
 * address in `bits`), known ahead (data_known_ahead), at C + t_off; SAMPLE_DATA_STOP, such an
 * access not known ahead (single_step stops for it); SAMPLE_PAST, after the run's last fetch.
 * The fetch of a slot k of the run comes at C + run_cost(d) - run_cost(k), i.e. at or after the
 * due when run_cost(k) <= lim; a slot has a data access when its part of the run costs more than
 * its op.  With it, rmin (sample_rmin): the r from which the usual case holds.
 * Remembered (mt_cpu.sample_memo), keyed by d and lim: the loops a program spends its time in
 * give the same few (d, lim) again and again (docs/trace-unit.md section 8).  Why a remembered
 * answer is the walk's: it depends only on the slots of d's run (their steps, run_cost,
 * run_bound, ops and registers), on dp->pa, and on the fixed op_cost and op_data.  A decoded
 * slot keeps its contents until its page's slots are made OP_DECODE again (cpu_code_written) or
 * every page is freed (dpage_free_all), and both count in dpage_resets: a decode writes only
 * OP_DECODE slots (a run is decoded up to a slot already decoded, and pairs are fused among the
 * new slots only), the stop (OP_BREAK) is removed before this is called (unbreak), and the cross
 * page, which L_CROSS decodes into, never holds d (single_step does not call the sampler there).
 * So an entry made with dpage_resets = R is the walk's answer for as long as dpage_resets is R;
 * a page freed and its memory reused for another is a reset too.  The walk counts the run's
 * slots down instead of reading each one's run_insns, and reads no slot's op to stop at: every
 * slot of d's run is decoded and none is the stop (see above). */
static inline __attribute__((always_inline)) const struct cpu_sample_memo *sample_walk(mt_cpu *c, const mt_dpage *dp,
                                                                                     const mt_dinsn *d, unsigned lim)
{
    const uint64_t tag = sample_memo_tag(c->dpage_resets, lim);
    struct cpu_sample_memo *m = sample_memo_entry(c, d, lim);
    if (likely(m->d == d && m->genlim == tag))
        return m;
    return sample_walk_fill(c, dp, d, lim, m, tag);
}

/* A capture taken by sample_run_general (not lazy: it settled first, and its take-back restores
 * spec_old_now and spec_old_last): appended at the batch's write pointer (room checked by the
 * caller), the schedule moved past it and the due on to new_due. */
static inline __attribute__((always_inline)) void capture_commit(mt_cpu *c, cpu_sampler *smp, mt_sched *s,
                                                                 uint64_t at, uint64_t bits,
                                                                 uint64_t new_due, uint64_t new_event)
{
    accring_entry *const e = smp->wp++;
    e->cycle = at;
    e->bits = bits;
    smp->fast++; /* also one more access given to the schedule (cpu_sampler.accesses) */
    smp->last_cycle = at + 1;
    s->now = at + 1;
    s->next_sp += s->r;
    c->listener_due = c->next_due = new_due;
    c->next_event = new_event;
}

/* cpu_sample_run (below) in every case: single_step of interpreter_runs, with only the access
 * hook due inside the run of slot d (which starts at `cycle`, exact) and the sampler armed: when
 * the access the schedule captures is the fetch of a slot of this run (every earlier access of
 * the run is stamped before the due), or the data access of a slot whose address is known
 * already (data_known_ahead, data_bits_now), takes it: appends it, moves the schedule and the due
 * on.  1: the capture was d's own fetch (exact); 2: a later slot's fetch or a data access, taken
 * ahead (spec_stamp; the run fits before the next due and may be charged at once); 0: nothing
 * done (a data access not known ahead, another kind's, an unusual schedule, a slot that is not
 * decoded or is the cross page's, or a run that does not fit: the stop of single_step does it).
 * Calls, not inlined into interpreter_runs' single_step: there the interpreter's register
 * pressure made GCC keep most of their values on the stack; as a call (saves, restores and all)
 * bench_cpu's emulator thread ran 459.3 M -> 444.4 M host instructions (callgrind, 1.06 M calls;
 * it was the other way round before sample_walk, 7 M for the inlined body), and 436.0 M with
 * the usual cases apart (cpu_sample_run), which need no register saves. */
static __attribute__((noinline)) int sample_run_general(mt_cpu *c, const mt_dpage *dp, const mt_dinsn *d, uint64_t cycle)
{
    cpu_sampler *smp = c->sampler;
    mt_sched *s = smp->sched;
    const uint64_t due = c->next_due;
    /* the schedule's usual state, in one field (plain_due; `|`: one branch for the usual answer) */
    if ((due != smp->plain_due) | (cycle >= c->other_event) | (d->op <= OP_BREAK) | (dp == c->cross_page))
        return 0; /* not plain, or not a slot of the sampler's (single_step): nothing known */
    cpu_sampler_settle(smp); /* what follows reads the schedule, and its captures are not lazy */
    /* the first stamp at or after the due: the fetch of j, unless the data access of the slot
     * before it (p) comes first.  The fetch of a slot k of the run comes at cycle + run_cost(d) -
     * run_cost(k), i.e. at or after the due when run_cost(k) <= run_cost(d) - gap; a slot has a
     * data access when its part of the run costs more than its op.  The walk counts the run's
     * slots down instead of reading each one's run_insns, and reads no slot's op to stop at:
     * every slot of d's run is decoded and none is the stop (single_step removed it, unbreak,
     * before this; a run is decoded whole, and a write to the page's code makes every slot of it
     * OP_DECODE again, d's too, which is not called for; the cross page's slots are never d). */
    uint64_t bits;  /* the capture, packed as the ring stores it */
    unsigned t_off; /* its stamp's offset from `cycle` */
    bool data = false;
    const bool ahead = due > cycle; /* a later slot's fetch, or a data access */
    if (ahead) {
        const uint64_t gap = due - cycle;
        if (gap > d->run_cost)
            return 0; /* past the run's last fetch */
        const struct cpu_sample_memo *m = sample_walk(c, dp, d, d->run_cost - (unsigned)gap);
        t_off = m->t_off;
        bits = m->bits;
        if (unlikely(m->what != SAMPLE_FETCH)) {
            if (m->what == SAMPLE_PAST)
                return 0;
            /* a data access comes first: taken ahead when its address is known now, else
             * single_step stops for it */
            data = true;
            bits = m->what == SAMPLE_DATA ? data_bits_now(c, m->bits) : 0;
            if (!bits) {
                smp->data_due = due;
                smp->plain_due = UINT64_MAX; /* not looked at again (its entry test) */
                return 0;
            }
        }
    } else {
        t_off = 0;
        bits = accring_fetch_bits(dp->pa | (uint64_t)((const char *)d - (const char *)dp->slot) / (sizeof(mt_dinsn) / 2),
                                  dinsn_len(d));
    }
    /* the stamp t is at or after the due, so in the plain state at or after every access seen
     * and the sample point: the capture when it is before the interval's and the section's end */
    const uint64_t t = cycle + t_off, at = t + c->stamp_offset;
    const uint32_t r = s->r;
    if (t >= (due + r < smp->plain_end ? due + r : smp->plain_end))
        goto not_taken;
    /* the next sample point, or the section's end; plain again unless the due is the section's
     * end (now and last_cycle, at + 1, are at most the next sample point, as at is before it) */
    const uint64_t end = smp->plain_end;
    const uint64_t new_due = due + r < end ? due + r : end;
    const uint64_t next_plain = new_due < end ? new_due : UINT64_MAX;
    const uint64_t new_event = new_due < c->other_event ? new_due : c->other_event;
    /* taken ahead only when the whole run fits before the next due */
    if (ahead && cycle + d->run_bound >= new_event)
        goto not_taken;
    /* What to restore if it is taken back, written either way (no branch): with d's own fetch
     * the stamp is `cycle`, which has come (a slow path of this run starts at or after it, so
     * cpu_sample_resolve only clears it). */
    c->spec_stamp = t;
    c->spec_old_now = s->now;
    c->spec_old_last = smp->last_cycle;
    if (smp->wp == smp->wend)
        smp->flush(smp);
    capture_commit(c, smp, s, at, bits, new_due, new_event);
    smp->plain_due = next_plain;
    return ahead ? 2 : 1;
not_taken:
    if (data) { /* as when the data access is not predicted: single_step's stop */
        smp->data_due = due;
        smp->plain_due = UINT64_MAX;
        smp->data_ahead--; /* counted by data_bits_now, not taken */
    }
    return 0;
}

/* cpu_sample_run's usual cases, on few registers (no saves of its own on the way out: the other
 * cases go on to sample_run_general, which decides them all from the start, so nothing here
 * changes any state before it knows the capture is taken): the plain state more than r before
 * the section's end (plain_fast), and either d's own fetch, or a later slot's fetch or a data
 * access known ahead that sample_walk remembers with r at or above its rmin (the stamp before
 * the next sample point, the run fitting before it) and the next due before the other events.
 * Then the same capture, fields and due as sample_run_general would make (which does the step
 * with min()s, for a section's end or another event that may be near); 2 also for d's own fetch
 * when the run fits before the next due (what single_step does then: the run is charged at
 * once). */
/* A lazy capture (cpu_sampler.lazy) at stamp t (this hart's cycles): appended, the due moved
 * on to new_due (plain again, before the section's end and the other events); the schedule is
 * left as it was, so a take-back has nothing to restore. */
static inline __attribute__((always_inline)) void capture_lazy(mt_cpu *c, cpu_sampler *smp, uint64_t t,
                                                               uint64_t bits, uint64_t new_due)
{
    accring_entry *const e = smp->wp++;
    e->cycle = t + c->stamp_offset;
    e->bits = bits;
    smp->lazy++;
    c->spec_stamp = t;
    c->listener_due = c->next_due = new_due;
    c->next_event = new_due;
    smp->plain_due = new_due;
}

/* cpu_sample_run's usual case when the capture is d's own fetch (the due at or before the run's
 * start): the stamp is `cycle`; 2 when the run fits before the next due, else 1.  0 when the due
 * is after the run's last fetch (sample_run_general's answer too). */
static __attribute__((noinline)) int sample_own_fetch(mt_cpu *c, const mt_dpage *dp, const mt_dinsn *d, uint64_t cycle)
{
    cpu_sampler *const smp = c->sampler;
    if (c->next_due > cycle || d->op <= OP_BREAK || dp == c->cross_page)
        return 0; /* past the run's last fetch, or not a slot of the sampler's (single_step) */
    const uint64_t new_due = c->next_due + smp->plain_r;
    if (unlikely(cycle >= new_due || new_due >= c->other_event || smp->wp == smp->wend))
        return sample_run_general(c, dp, d, cycle);
    capture_lazy(c, smp, cycle,
                 accring_fetch_bits(dp->pa | (uint64_t)((const char *)d - (const char *)dp->slot) / (sizeof(mt_dinsn) / 2),
                                    dinsn_len(d)),
                 new_due);
    return cycle + d->run_bound < new_due ? 2 : 1;
}

/* The sampler's usual cases, made inside single_step without a call (interp.inc): the plain
 * state more than r before the section's end (plain_fast), and a later slot's fetch or a data
 * access known ahead (data_bits_now finds its address now) that sample_walk remembers with r at
 * or above its rmin (the stamp before the next sample point, the run fitting before it), the
 * next due before the other events, room in the batch.  Then the same capture, fields and due
 * as sample_run_general would make (which does the step with min()s, for a section's end or
 * another event that may be near), lazily (capture_lazy), and the answer is the new due, which
 * is the next event too (the run fits before it: single_step charges it at once).  0 (no due
 * is 0) in every other case, with nothing changed (data_bits_now counts only what it finds):
 * cpu_sample_run then decides.  Why inline: as a call (cpu_sample_run's usual case until
 * 2026-12-06) the call, its arguments and answer, a register save and the reload of next_event
 * cost ~20 host instructions of the ~80 a usual capture took (callgrind, bench_cpu); the data
 * access's part stays out of the fetch's way (unlikely). */
static inline __attribute__((always_inline)) uint64_t sample_usual(mt_cpu *c, const mt_dpage *dp, const mt_dinsn *d,
                                                                   uint64_t cycle)
{
    cpu_sampler *const smp = c->sampler;
    const uint64_t due = c->next_due;
    /* lim = run_cost(d) - (due - cycle), in [0, run_cost(d)) when the due falls after the run's
     * start and at or before its end: one compare for both */
    const uint64_t lim = d->run_cost + cycle - due;
    if (unlikely(due != smp->plain_due || due >= smp->plain_fast))
        return 0;
    if (unlikely(lim >= d->run_cost)) {
        /* d's own fetch (the due at or before the run's start; 12% of bench_cpu's samples), when
         * the run fits before the next due (nearly always): sample_own_fetch's capture, without
         * its call.  Past the run's last fetch, or a slot not the sampler's: 0. */
        const uint64_t new_due = due + smp->plain_r;
        if (unlikely(due > cycle || d->op <= OP_BREAK || dp == c->cross_page || cycle + d->run_bound >= new_due ||
                     new_due >= c->other_event || smp->wp == smp->wend))
            return 0;
        capture_lazy(c, smp, cycle,
                     accring_fetch_bits(dp->pa | (uint64_t)((const char *)d - (const char *)dp->slot) / (sizeof(mt_dinsn) / 2),
                                        dinsn_len(d)),
                     new_due);
        if (new_due == 0) /* as below */
            __builtin_unreachable();
        return new_due;
    }
    const struct cpu_sample_memo *m = sample_memo_entry(c, d, (unsigned)lim);
    const uint64_t new_due = due + smp->plain_r;
    if (unlikely(m->d != d || m->genlim != sample_memo_tag(c->dpage_resets, (unsigned)lim) || smp->plain_r < m->rmin ||
                 new_due >= c->other_event || smp->wp == smp->wend))
        return 0; /* not known, not usual, or a flush first */
    uint64_t bits = m->bits;
    if (unlikely(m->what != SAMPLE_FETCH)) { /* SAMPLE_DATA: the others' rmin is UINT32_MAX */
        bits = data_bits_now(c, bits);
        if (!bits)
            return 0;
    }
    capture_lazy(c, smp, cycle + m->t_off, bits, new_due);
    if (new_due == 0) /* due < plain_fast <= plain_end - r: new_due < plain_end (no test for it) */
        __builtin_unreachable();
    return new_due;
}

/* Every case sample_usual does not take (single_step calls this after it): d's own fetch in
 * the plain state (sample_own_fetch), else sample_run_general, which decides from the start.
 * 1: d's own fetch was captured (exact); 2: a capture was taken and the run fits before the
 * next due (charged at once); 0: nothing done (the stop of single_step does it). */
static __attribute__((noinline)) int cpu_sample_run(mt_cpu *c, const mt_dpage *dp, const mt_dinsn *d, uint64_t cycle)
{
    const uint64_t due = c->next_due;
    if (due == c->sampler->plain_due && due < c->sampler->plain_fast && d->run_cost + cycle - due >= d->run_cost)
        return sample_own_fetch(c, dp, d, cycle); /* the due at or before d's fetch (or past the run) */
    return sample_run_general(c, dp, d, cycle);
}

void cpu_sample_resolve(mt_cpu *c, uint64_t start)
{
    const uint64_t stamp = c->spec_stamp;
    c->spec_stamp = UINT64_MAX;
    if (start >= stamp || !c->sampler)
        return; /* the fetch came */
    cpu_sampler *smp = c->sampler;
    mt_sched *s = smp->sched;
    smp->wp--;
    smp->taken_back++;
    smp->plain_due = UINT64_MAX; /* planned again at the next capture the listener makes */
    if (smp->lazy) { /* cpu_sample_run's usual case: nothing was moved but the due */
        smp->lazy--;
        c->listener_due = s->next_sp + smp->lazy * smp->plain_r - c->stamp_offset;
        cpu_update_next_event(c);
        return;
    }
    smp->fast--;
    smp->last_cycle = c->spec_old_last;
    s->now = c->spec_old_now;
    s->next_sp -= s->r;
    /* the due it was taken at: in the plain state (sample_run_general's captures) the due is the
     * next sample point in this hart's cycles, and the take-back comes in the same run, so the
     * same stamp_offset */
    c->listener_due = s->next_sp - c->stamp_offset;
    cpu_update_next_event(c);
}

/* ---- interpreter_recorded: the every-access buffer filled by the runs interpreter -------------
 * (docs/trace-unit.md section 8, "The runs recorder").  As a run is charged, rec_expand writes
 * into the buffer the records interpreter_hooked would append one by one for the run's slots: each
 * slot's fetch at its stamp (the run's end minus the slot's run_cost: what the hooked interpreter's
 * cycle is at the slot's ENTER), and after each slot with a data access of the fast path (its
 * run_cost less the next slot's exceeds its op_cost) a *hole*: that access's record, its stamp
 * (fetch + op_cost, the ACCESS stamp of both interpreters) already in place, its address written by
 * the handler's ACCESS (REC_FILL) when it runs.  Where a run is left before its end (a slow path,
 * a trap, a stop), the exact cycle is known (SAVE, L_BREAK) and rec_cut drops every record stamped
 * at or after it: the fetches of the slots not reached and the hole of the access a slow path
 * makes itself (through cpu_access and the listener, into the same buffer).  The records never
 * outlive the slots they were read from: they are complete before anything can change a slot. */
#define REC_KINDS (1u << MT_KIND_FETCH | 1u << MT_KIND_LOAD | 1u << MT_KIND_STORE)

/* Drops the buffered records stamped at or after `cycle` (this hart's clock): those of the charged
 * run's slots that did not execute (records before the run are all stamped earlier). */
static inline void rec_cut(mt_cpu *c, uint64_t cycle)
{
    mt_access_buf *b = c->abuf;
    if (!b)
        return;
    const uint64_t t = cycle + c->stamp_offset;
    uint32_t n = b->n;
    while (n && b->rec[n - 1].cycle >= t)
        n--;
    b->n = n;
}

/* The records of the run of slot d (page dp) entered at `cycle` (its fetch), the first fetch left
 * out when it is already in the buffer (`fetched`: cpu_event took it, or the cross page's first
 * half).  Returns the run's first hole (each hole's address field holds the distance in records
 * to the next one until REC_FILL overwrites it), or NULL.  The caller made room for 2 x run_insns
 * records. */
static inline mt_access_rec *rec_expand(mt_cpu *c, mt_access_buf *b, const mt_dpage *dp, const mt_dinsn *d,
                                        uint64_t cycle, bool fetched)
{
    if (unlikely(c->brk_slot)) /* a stale stop: its op would read as cost 0 */
        unbreak(c);
    const unsigned n = d->run_insns;
    const uint64_t end = cycle + c->stamp_offset + d->run_cost;
    uint64_t pa = (dp->pa | (uint64_t)(d - dp->slot) * 2) | MT_ACCESS_REC_FETCH;
    mt_access_rec *o = b->rec + b->n, *hole = NULL, *last = NULL;
    /* a slot's fetch is stamped f, the next one's at f + its cost: its op_cost, plus one when it
     * makes a data access (dpage_decode_run's sums), whose hole goes between the two */
#define REC_HOLE(at)                                                                  \
    do {                                                                              \
        if (last)                                                                     \
            last->addr_rw = (uint64_t)(o - last);                                     \
        else                                                                          \
            hole = o;                                                                 \
        o->cycle = (at);                                                              \
        o->addr_rw = 0;                                                               \
        last = o++;                                                                   \
    } while (0)
    const mt_dinsn *k = d;
    uint64_t f = cycle + c->stamp_offset;
    unsigned oc = c->op_cost[k->op];
    o->cycle = f;
    o->addr_rw = pa;
    o += !fetched;
    for (unsigned i = 1; i < n; i++) {
        pa += k->step >> 3;
        k = (const mt_dinsn *)((const char *)k + k->step);
        const uint64_t fk = end - k->run_cost;
        if (fk - f != oc)
            REC_HOLE(f + oc);
        o->cycle = fk;
        o->addr_rw = pa;
        o++;
        f = fk;
        oc = c->op_cost[k->op];
    }
    if (end - f != oc)
        REC_HOLE(f + oc);
#undef REC_HOLE
    b->n = (uint32_t)(o - b->rec);
    return hole;
}

/* Which interpreter the hooks call for: every access to the hook (hooked), runs with the page
 * observer's granule checks (observed), runs with the listener's page filter (filtered), or runs
 * alone. */
enum { INTERP_RUNS, INTERP_OBSERVED, INTERP_FILTERED, INTERP_HOOKED, INTERP_RECORDED };
static inline int interp_kind(const mt_cpu *c)
{
    if (c->next_due == 0 || (c->observer && c->obs_timed))
        return c->abuf && (c->listener_kinds & REC_KINDS) == REC_KINDS ? INTERP_RECORDED : INTERP_HOOKED;
    if (c->observer)
        return INTERP_OBSERVED;
    return c->pf.kinds && c->listener ? INTERP_FILTERED : INTERP_RUNS;
}

#define MT_INTERP_HOOKED 0
#define MT_INTERP_OBSERVED 0
#define MT_INTERP_FILTERED 0
#define MT_INTERP_RECORDED 0
__attribute__((optimize("no-crossjumping", "no-gcse"))) static bool interpreter_runs(mt_cpu *c)
#include "emu/cpu/interp.inc"
#undef MT_INTERP_OBSERVED
#define MT_INTERP_OBSERVED 1
__attribute__((optimize("no-crossjumping", "no-gcse"))) static bool interpreter_observed(mt_cpu *c)
#include "emu/cpu/interp.inc"
#undef MT_INTERP_OBSERVED
#define MT_INTERP_OBSERVED 0
#undef MT_INTERP_FILTERED
#define MT_INTERP_FILTERED 1
__attribute__((optimize("no-crossjumping", "no-gcse"))) static bool interpreter_filtered(mt_cpu *c)
#include "emu/cpu/interp.inc"
#undef MT_INTERP_FILTERED
#define MT_INTERP_FILTERED 0
#undef MT_INTERP_RECORDED
#define MT_INTERP_RECORDED 1
__attribute__((optimize("no-crossjumping", "no-gcse"))) static bool interpreter_recorded(mt_cpu *c)
#include "emu/cpu/interp.inc"
#undef MT_INTERP_RECORDED
#define MT_INTERP_RECORDED 0
#undef MT_INTERP_HOOKED
#define MT_INTERP_HOOKED 1
__attribute__((optimize("no-crossjumping", "no-gcse"))) static bool interpreter_hooked(mt_cpu *c)
#include "emu/cpu/interp.inc"
#undef MT_INTERP_OBSERVED
#undef MT_INTERP_FILTERED
#undef MT_INTERP_HOOKED
#undef MT_INTERP_RECORDED

/* Each interpreter returns true when another one's case has come (the hook now wants every
 * access, or no longer does; the observer came or went). */
void cpu_run(mt_cpu *c)
{
    cpu_update_next_event(c);
    for (;;) {
        int k = interp_kind(c);
        bool switched = k == INTERP_RECORDED   ? interpreter_recorded(c)
                        : k == INTERP_HOOKED   ? interpreter_hooked(c)
                        : k == INTERP_OBSERVED ? interpreter_observed(c)
                        : k == INTERP_FILTERED ? interpreter_filtered(c)
                                               : interpreter_runs(c);
        if (!switched)
            break;
    }
    /* the page log's calls before the hart's turn ends (-smp: the next hart takes the listener) */
    cpu_page_log_drain(c);
}

