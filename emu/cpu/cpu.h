/* The RV64 hart: architectural state, CSRs, software TLBs, the decoded-page cache and the hooks.
 * One struct so that the interpreter (cpu.c), CSRs (csr.c), translation (mmu.c) and the F/D
 * extension (exec_fp.c) share it; each of those files owns its part of the behaviour. */
#ifndef EMU_CPU_H
#define EMU_CPU_H

#include <stdbool.h>
#include <stdint.h>

#include "emu/cpu/cache.h"
#include "emu/cpu/hyp.h"
#include "emu/platform/ram.h"
#include "emu/trace/accring.h" /* accring_entry: the sampler's batch is in the ring's form */
#include "mt_event.h"
#include "mt_sched.h"

struct mt_bus;

enum { PRV_U = 0, PRV_S = 1, PRV_M = 3 };

/* Exception causes (mcause with bit 63 clear). */
enum {
    EXC_INSN_MISALIGNED = 0, EXC_INSN_ACCESS = 1, EXC_ILLEGAL = 2, EXC_BREAKPOINT = 3,
    EXC_LOAD_MISALIGNED = 4, EXC_LOAD_ACCESS = 5, EXC_STORE_MISALIGNED = 6, EXC_STORE_ACCESS = 7,
    EXC_ECALL_U = 8, EXC_ECALL_S = 9, EXC_ECALL_M = 11,
    EXC_INSN_PAGE = 12, EXC_LOAD_PAGE = 13, EXC_STORE_PAGE = 15,
};
#define EXC_NONE (-1)
/* Interrupt numbers (mip/mie bits). */
enum { IRQ_SSI = 1, IRQ_MSI = 3, IRQ_STI = 5, IRQ_MTI = 7, IRQ_SEI = 9, IRQ_MEI = 11 };
#define MIP_SSIP (1u << IRQ_SSI)
#define MIP_MSIP (1u << IRQ_MSI)
#define MIP_STIP (1u << IRQ_STI)
#define MIP_MTIP (1u << IRQ_MTI)
#define MIP_SEIP (1u << IRQ_SEI)
#define MIP_MEIP (1u << IRQ_MEI)
/* menvcfg / henvcfg fields (FIOM is bit 0): Sstc's timer compare enable, Svpbmt's enable */
#define ENVCFG_FIOM UINT64_C(1)
#define ENVCFG_PBMTE (UINT64_C(1) << 62)
#define ENVCFG_STCE (UINT64_C(1) << 63)
/* ... and the CMO enables (emu/cpu/cbo.c): cbo.inval (2 bits: 00 off, 01 as a flush, 11 on; 10
 * reserved), cbo.clean/flush, cbo.zero */
#define ENVCFG_CBIE (UINT64_C(3) << 4)
#define ENVCFG_CBIE_RESERVED (UINT64_C(2) << 4)
#define ENVCFG_CBCFE (UINT64_C(1) << 6)
#define ENVCFG_CBZE (UINT64_C(1) << 7)
#define CAUSE_INTERRUPT (UINT64_C(1) << 63)

/* mstatus fields */
#define MSTATUS_SIE (UINT64_C(1) << 1)
#define MSTATUS_MIE (UINT64_C(1) << 3)
#define MSTATUS_SPIE (UINT64_C(1) << 5)
#define MSTATUS_MPIE (UINT64_C(1) << 7)
#define MSTATUS_SPP (UINT64_C(1) << 8)
#define MSTATUS_MPP_SHIFT 11
#define MSTATUS_MPP (UINT64_C(3) << 11)
#define MSTATUS_FS_SHIFT 13
#define MSTATUS_FS (UINT64_C(3) << 13)
#define MSTATUS_MPRV (UINT64_C(1) << 17)
#define MSTATUS_SUM (UINT64_C(1) << 18)
#define MSTATUS_MXR (UINT64_C(1) << 19)
#define MSTATUS_TVM (UINT64_C(1) << 20)
#define MSTATUS_TW (UINT64_C(1) << 21)
#define MSTATUS_TSR (UINT64_C(1) << 22)
#define MSTATUS_UXL (UINT64_C(3) << 32)
#define MSTATUS_SXL (UINT64_C(3) << 34)
#define MSTATUS_SD (UINT64_C(1) << 63)
enum { FS_OFF = 0, FS_INITIAL = 1, FS_CLEAN = 2, FS_DIRTY = 3 };

/* A decoded instruction: 16 bytes, one per 2-byte slot of a code page.  rd == 32 is the sink
 * register, so writes to x0 need no test.  `op` picks the interpreter's handler (its base cycle
 * cost in the timing model is cpu->op_cost[op]), `step` the distance in bytes to the next slot's
 * start (8 x the instruction length).  For OP_ILLEGAL imm holds the instruction bits (mtval), for
 * OP_FP the 32-bit form.
 *
 * Straight-line runs (docs/emulator.md, "Execution model"): the slots from this one to the end of
 * its run (the next branch, jump or system instruction, or the page end) are accounted for at
 * once when the run is entered: `run_cost` cycles and `run_insns` instructions, summed from this
 * slot to the run's end, and `run_bound` = the most the cycle counter can advance, minus one,
 * before the run's last access or instruction boundary (so a run may start without per-
 * instruction checks when cycle + run_bound < next_event). */
typedef struct {
    int32_t imm;
    uint16_t run_cost, run_insns, run_bound, op;
    uint8_t rd, rs1, rs2, step;
} mt_dinsn;

/* Decoded instructions of one 4 KiB physical page, filled lazily; slots past the end are
 * sentinels that leave the page loop (a sequential pc never crosses a page inside the loop). */
#define DPAGE_SLOTS 2048
typedef struct mt_dpage {
    uint64_t pa; /* page-aligned physical address */
    struct mt_dpage *hnext;
    /* DPAGE_SLOTS + 4 slots (DPAGE_BYTES); the cross page has a page's slots more (dpage.h
     * CROSS_SLOT).  A flexible array, so that the cross page's second page is no index out of
     * a declared bound (the sanitizers check those, pointer arithmetic included). */
    mt_dinsn slot[];
} mt_dpage;
#define DPAGE_BYTES (sizeof(mt_dpage) + (DPAGE_SLOTS + 4) * sizeof(mt_dinsn))

/* Software TLBs: direct-mapped, 4 KiB granularity, one set per effective privilege (U, S, M).
 * A tag is the page-aligned virtual address (with the access's alignment bits, so a misaligned
 * access never hits), or TLB_INVALID.  host address = addend + vaddr.
 * Each data set has TLB_VICTIMS more entries after its TLB_SIZE direct-mapped ones: a victim
 * buffer of the translations that a fill of the same slot pushed out, searched on a miss before
 * walking.  Why: whether a translation is still cached when the page tables change without a
 * fence must not depend on where the program's other pages happen to lie (a guest's stack page
 * that shares the slot would otherwise decide it, and so the build of the same sources:
 * docs/emulator.md "TLB"). */
#define TLB_BITS 9
#define TLB_SIZE (1u << TLB_BITS)
#define TLB_VICTIMS 8
#define TLB_ENTRIES (TLB_SIZE + TLB_VICTIMS)
#define TLB_INVALID UINT64_C(0x10) /* bit 4: no lookup key (page | alignment bits 2:0) has it */
/* A tag bit no lookup key has: the entry's translation is valid but the RAM side dropped its host
 * pointer (cpu_invalidate_phys).  The fast paths miss; the slow paths fetch the pointer again
 * without a page-table walk, so a meta-pager's evictions change no access, cycle or trace. */
#define TLB_STALE UINT64_C(0x800)
typedef struct {
    uint64_t tag_r, tag_w;
    uintptr_t addend;
    uint64_t pa;
} mt_dtlb_entry;
typedef struct {
    uint64_t tag;
    uint64_t pa;
    mt_dpage *dp;
} mt_itlb_entry;

#define DPAGE_HASH 4096
/* Data TLB sets: 7 for V=0 (HS, U, M) and 7 more for guest accesses (V=1, HLV/HSV, M-mode MPRV
 * with MPV), so that a V change switches sets instead of flushing and each fence drops only
 * the regime it names (docs/emulator.md, "H extension"). */
#define DTLB_HOST_SETS 7
#define DTLB_SETS (2 * DTLB_HOST_SETS)
#define DTLB_HOST_MASK ((1u << DTLB_HOST_SETS) - 1)
#define DTLB_GUEST_MASK (DTLB_HOST_MASK << DTLB_HOST_SETS)
/* Instruction TLB sets: by privilege (index 2 unused), plus 4 for V=1 */
#define ITLB_SETS 8
#define ITLB_HOST_MASK 0x0fu
#define ITLB_GUEST_MASK 0xf0u
#define PMP_COUNT 16
#define MT_MAX_HARTS 8 /* -smp N */

/* Bus-access listener: gets every due access and returns the next cycle at which it wants one
 * (0 = every access, UINT64_MAX = none). */
typedef uint64_t (*mt_access_listener)(void *ctx, const mt_access *a);

/* The every-access buffer (cpu_set_access_buf): the listener's, when it takes every access of
 * listener_kinds as it comes and answers 0 (--trace-all alone: emu/trace/tracedev.c).  The
 * runs interpreter writes each run's fetches and fast-path data accesses here as it charges the
 * run (interpreter_recorded, cpu.c rec_expand; with kinds short of fetch, load and store the
 * hooked interpreter appends them one by one), stamped, instead of calling cpu_access_due and
 * the listener (~130 host instructions an access); the slow paths' accesses reach the same
 * buffer through the listener, so it holds them in the hart's order.  The capacity holds the
 * longest run's records (2 per slot, 2048 slots a page).  drain empties it (n = 0); false: the
 * recorder failed and asked the hart to stop. */
#define MT_ACCESS_BUF_CAP 4096u
typedef struct mt_access_buf {
    uint32_t n;
    bool (*drain)(struct mt_access_buf *b);
    mt_access_rec rec[MT_ACCESS_BUF_CAP];
} mt_access_buf;

/* The trace unit's sampler as the interpreter can feed it itself (cpu_set_sampler).  With the
 * unit's schedule (lib/mt_sched.h, machine time) beside the listener, the runs interpreter finds
 * the access a sample point captures when it is a fetch inside the run being entered (its stamp
 * and address are known from the decoded slots), appends it to `batch` and moves the schedule
 * on, without stopping the run; the listener (which keeps the same schedule and batch) still
 * takes every other capture, so the captures reach `flush` in the order of their cycles.  Such a
 * capture counts on the run reaching that fetch: until it is known (cpu.h spec_stamp), a slow
 * path or a trap before it takes it back (cpu_sample_resolve).  docs/emulator.md, "Tracing". */
#define CPU_SAMPLE_MEMO_BITS 12 /* 4096 walks remembered per hart (128 KiB) */

typedef struct cpu_sampler {
    mt_sched *sched;    /* the schedule (the listener's) */
    /* the schedule stands for the unit (no register write pending in it), a session runs, and
     * it captures fetches on the core tap: the interpreter may take captures (the pipe keeps it) */
    bool usable;
    /* batch[0..wp - batch): captures not yet handed on, packed as the ring stores them; wend is
     * batch + its capacity (a write pointer: the interpreter's append is a compare and two stores) */
    accring_entry *batch, *wp, *wend;
    void (*flush)(struct cpu_sampler *smp); /* hands batch[0..wp) on and sets wp = batch */
    uint64_t last_cycle; /* the first cycle a capture may have (one access per cycle) */
    uint64_t accesses;   /* accesses the listener gave to the schedule (trace.accesses: + fast) */
    uint64_t fast;       /* captures the interpreter took itself (and kept): accesses too */
    uint64_t taken_back; /* captures it took back (cpu_sample_resolve) */
    uint64_t data_ahead; /* captures it took that were data accesses (data_bits_now), kept
                          * or taken back */
    uint64_t data_due;   /* the due (this hart's cycles) found to be a data access's: left to
                          * single_step's stop, not looked at again */
    /* The plain state, in this hart's cycles, which lets cpu_sample_run test one field on entry
     * instead of the schedule's five (emu/cpu/cpu.c sampler_plan): plain_due is the due while the
     * sampler is usable, no interval is open, the next sample point is in the section, nothing
     * seen is at or after it and it is not data_due; an access stamped in [plain_due,
     * min(plain_due + r, plain_end)) is then captured.  UINT64_MAX: not known to be plain (a due
     * of UINT64_MAX is never in a run).  Whatever else moves the schedule sets it so
     * (tracepipe.c, cpu.c); plain_end is the section's end.  plain_fast is plain_end - r (0 when
     * that is below 0): for a due below it the stamps' bound is due + r and the next due, due + r,
     * is plain again (cpu_sample_run's usual case, without min()). */
    uint64_t plain_due, plain_end, plain_fast;
    uint32_t plain_r; /* the schedule's r while plain_due holds (sampler_plan) */
    /* The newest `lazy` captures of the batch were taken by cpu_sample_run's usual case, which
     * leaves the schedule's now and next_sp, last_cycle and fast as they were: the captures
     * say what those are (cpu_sampler_settle).  Why: four fewer stores a capture, and a
     * take-back of such a capture is wp-- and lazy-- (nothing to restore).  Everything else
     * that reads or moves the schedule settles first. */
    uint64_t lazy;
} cpu_sampler;

/* The schedule, last_cycle and fast as the lazy captures (above) leave them: each moved the
 * schedule past its stamp (now = last_cycle = the newest's cycle + 1) and on by one sample
 * point of r (plain_r: they were taken in one plain stretch, in one section). */
static inline void cpu_sampler_settle(cpu_sampler *smp)
{
    if (smp->lazy) {
        const uint64_t last = smp->wp[-1].cycle + 1;
        smp->sched->now = last;
        smp->last_cycle = last;
        smp->sched->next_sp += smp->lazy * smp->plain_r;
        smp->fast += smp->lazy;
        smp->lazy = 0;
    }
}

/* Appends a capture (flushing a full batch first, so the newest capture stays takeable back). */
static inline void cpu_sampler_append(cpu_sampler *smp, const mt_access *a)
{
    if (smp->wp == smp->wend)
        smp->flush(smp);
    *smp->wp++ = accring_pack(a);
}

/* The listener's page filter (cpu_set_page_filter): a listener that needs, of the accesses of
 * some kinds, only those that change the 4 KiB page (the reduce and spatial modes' recorders)
 * arms it, and then hears of such an access only when its page differs from the page of the last
 * one (`last`), whether or not the listener is due.  The test sits in the interpreter's inline
 * access path (interpreter_filtered), so a repeat of the page never leaves the fast path.
 *
 * An *alternation* (x y x y ..., fetches in one page and data in another) changes the page at
 * every access.  A listener for which such an alternation has settled (its steps change nothing
 * but the last; lib/mt_reduce's "Alternations") arms it with cpu_page_filter_pair: the steps
 * between `last` and `other` then stay in the fast path too, and the last two of them are held
 * (`pend`, with their exact stamps) and handed to the listener, in order, before the next access
 * it hears of (or at cpu_page_filter_flush).  Every listener call disarms the pair.
 *
 * The *page log* (cpu_set_page_sink; docs/metapaging.md "The page log"): a listener that is never
 * due and whose calls may come late (the reduce recorder alone) gives the filter a sink that takes
 * a run of page changes in one call.  The interpreter then appends each page change it would hand
 * the listener, with its exact stamp, to the log (mt_cpu.pf_log) and stays in its run; the log is
 * replayed through this filter's own rules (the pair's steps, listener_call's order) before the
 * listener hears anything else or the filter decides on an access outside it, so the sink hears
 * the calls the listener would have heard, in the same order, with the same stamps. */
typedef uint32_t (*cpu_page_sink)(void *ctx, const uint64_t *stamp, const uint64_t *word, const uint64_t *ord,
                                  uint32_t n, uint64_t pair[2]);
/* cpu_set_page_sink's options: the sink is given each logged change's cpu_filter_ordinal (ord[j],
 * what a listener would read as it hears the change live; else ord is NULL), and it never asks
 * for the alternation pair (so the log is not replayed early on an alternation for it to arm one:
 * cpu_page_log_append) */
#define CPU_SINK_ORDINALS 1u
#define CPU_SINK_NO_PAIR 2u
#define CPU_PF_LOG 256
typedef struct {
    uint32_t kinds;      /* 1 << kind of the accesses filtered (0: no filter) */
    uint8_t npend;       /* alternation steps held back, the newest in pend[1] */
    uint64_t last;       /* 4 KiB page (its base address) of the last filtered access (1: none) */
    uint64_t other;      /* the armed alternation's other page (its base address; 1: none armed) */
    /* stamp of the last filtered access the listener heard of: a recorder takes one access per
     * cycle (tracedev), so a later one in the same cycle changes nothing for it, and must not
     * move `last` either.  The hart stamps every core access at a cycle of its own (an
     * instruction straddling two pages too: docs/emulator.md "Timing model"), so this guards
     * the recorder's contract rather than a case that happens */
    uint64_t last_stamp;
    /* the held steps, packed (cpu_filter_pack): few stores, as a step is the fast path's */
    uint64_t pend_stamp[2], pend_word[2];
    /* cpu_filter_ordinal's offset: with -smp N the filter follows the listener from hart to
     * hart (cpu_take_listener), and the ordinal goes on from where the last hart left it */
    uint64_t ord_off;
    /* the page log (cpu_set_page_sink; entries in mt_cpu.pf_log): the sink (NULL: no log) and the
     * entries waiting.  While entries wait, the live `other` is disarmed: no step is held live
     * then, so a held step never overtakes a logged change; the replay arms the pair as the live
     * calls would have */
    cpu_page_sink sink;
    void *sink_ctx;
    uint32_t nlog;
    /* the page of the logged change before the newest (whose page is `last`), and how many of the
     * newest entries in a row returned to the page two changes back (x y x y ...): at the third
     * the log is replayed at once, so that a listener that arms the pair on a settled alternation
     * (lib/mt_reduce: after its third step) has it armed, and the steps are held, not logged */
    uint64_t log_prev;
    uint32_t log_alts;
    uint32_t log_settle; /* that third return (3), or UINT32_MAX: the sink never arms the pair */
    bool log_ords;       /* the sink takes each entry's ordinal (CPU_SINK_ORDINALS) */
    /* per kind, all ones when it is filtered, else 0 (cpu_filter_ordinal_at's masks, made at
     * cpu_set_page_filter: two instructions a kind less at every logged change) */
    uint64_t ord_mask[MT_KIND_COUNT];
} mt_page_filter;

/* The page log's entries: stamps and cpu_filter_pack words (apart from mt_page_filter, which
 * follows the listener from hart to hart by copy: the log is empty then). */
typedef struct {
    uint64_t stamp[CPU_PF_LOG], word[CPU_PF_LOG];
    uint64_t ord[CPU_PF_LOG]; /* with CPU_SINK_ORDINALS only */
} cpu_page_log_buf;

/* A held step's address, size, kind and R/W in one word (mt_access has them in 4 fields). */
static inline uint64_t cpu_filter_pack(uint64_t pa, unsigned size, int write, int kind)
{
    return (pa & MT_PADDR_MASK) << 8 | (uint64_t)__builtin_ctz(size) << 4 | (uint64_t)kind << 1 | (write != 0);
}
static inline mt_access cpu_filter_unpack(uint64_t stamp, uint64_t word)
{
    return (mt_access){.cycle = stamp, .addr = word >> 8, .write = (uint8_t)(word & 1),
                       .size = (uint8_t)(1u << ((word >> 4) & 7)), .kind = (uint8_t)((word >> 1) & 7),
                       .tap = MT_TAP_CORE};
}

/* F/D hook: executes one OP-FP/LOAD-FP/STORE-FP/FMADD.. instruction (32-bit form, compressed
 * ones expanded).  Returns EXC_NONE or an exception cause (tval set in cpu->fp_tval). */
struct mt_cpu;
typedef int (*mt_fp_exec_fn)(struct mt_cpu *cpu, uint32_t insn);

typedef enum { TIMING_NONE = 0, TIMING_SIMPLE = 1, TIMING_CACHE = 2 } mt_timing_mode;

typedef struct mt_cpu {
    uint64_t x[33]; /* x[32]: the sink for writes to x0 */
    uint64_t pc;
    uint64_t f[32]; /* F/D registers, 64-bit, single values NaN-boxed */
    uint32_t fflags, frm;
    int priv;
    uint64_t cycle;   /* reference-clock cycles (1 GHz) */
    uint64_t instret; /* retired instructions */
    uint64_t fetch_traps; /* instructions fetched that trapped instead of retiring */
    uint64_t trap_count; /* traps taken (exceptions and interrupts) */
    uint64_t next_due;   /* first cycle at which an access goes to cpu_access_due */
    uint64_t next_event; /* min(next_due, other_event): checked per instruction */
    uint64_t other_event; /* min(timer, limit, poll; 0 when an interrupt or stop may be due) */

    /* CSRs */
    uint64_t mstatus, misa, medeleg, mideleg, mie, mip_sw, mip_hw;
    uint64_t mtvec, mscratch, mepc, mcause, mtval, mcounteren, menvcfg;
    uint64_t stvec, sscratch, sepc, scause, stval, satp, scounteren, senvcfg;
    uint64_t mcycle_off, minstret_off;
    uint8_t pmpcfg[PMP_COUNT];
    uint64_t pmpaddr[PMP_COUNT];
    bool pmp_active; /* any entry with A != OFF */
    uint64_t mhartid;
    mt_hyp hyp; /* the H extension (emu/cpu/hyp.h) */

    uint64_t resv_addr;
    bool resv_valid;
    bool wfi;

    /* translation caches */
    /* data TLB sets by what a cached translation depends on besides satp: U, U+MXR, S with the
     * four SUM/MXR combinations, M; so MPRV/MPP/SUM/MXR changes switch sets instead of flushing;
     * the same 7 again for guest accesses (DTLB_HOST_SETS + the key) */
    mt_dtlb_entry dtlb[DTLB_SETS][TLB_ENTRIES]; /* [TLB_SIZE..]: the set's victim buffer */
    uint8_t dtlb_victim_next[DTLB_SETS];         /* round-robin: the victim slot filled next */
    mt_itlb_entry itlb[ITLB_SETS][TLB_SIZE]; /* by privilege (index 2 unused), + 4 with V=1 */
    unsigned dtlb_used, itlb_used;   /* sets filled since their last flush */
    int dset;                        /* the current data TLB set */
    int iset;                        /* the current instruction TLB set */
    mt_dtlb_entry *cur_dtlb;
    mt_itlb_entry *cur_itlb;
    int data_priv; /* effective privilege of loads/stores (MPRV) */
    mt_dpage *dpage_hash[DPAGE_HASH];
    unsigned dpage_count;
    bool dpage_flush_pending; /* FENCE.I on a multi-hart machine: drop every decoded page */
    /* Other harts share the memory (-smp): WFI returns to the machine's scheduler instead of
     * skipping time, and FENCE.I drops the decoded pages (another hart's stores do not update
     * them; Linux and OpenSBI issue FENCE.I on every hart after writing code). */
    bool smp;
    mt_dpage *cross_page; /* holds an instruction straddling two pages, decoded per execution */
    mt_dinsn *brk_slot;   /* a slot whose op is OP_BREAK for now (the interpreter's), or NULL */
    uint16_t brk_op;      /* its real op */

    struct mt_bus *bus;

    /* timing */
    mt_timing_mode timing;
    uint8_t taken_branch_penalty;
    uint8_t cost[16];     /* base cycles per instruction class (decode.h mt_insn_class) */
    uint8_t op_cost[1024]; /* the same per decoded op (mt_dinsn.op; decode.h OP_COUNT) */
    uint64_t mtimecmp, mtime_offset;
    uint64_t stimecmp;    /* Sstc: STIP = mtime >= stimecmp while menvcfg.STCE */
    uint64_t timer_cycle; /* first cycle at which a timer comparison not yet true turns true:
                           * mtimecmp, and with Sstc stimecmp / vstimecmp (UINT64_MAX: never) */
    uint64_t insn_limit;  /* stop when instret reaches it (UINT64_MAX: none) */
    uint64_t trap_limit;  /* stop when trap_count reaches it (UINT64_MAX: none): ends an SMP turn
                           * spent in a trap storm, which retires nothing (emu/platform/smp.c) */
    uint64_t poll_cycle;  /* next device poll / progress line */
    /* A hart whose trap handler itself traps (mtvec at unmapped or illegal code, say) takes
     * traps forever without retiring anything, so --max-insns never ends it: after
     * CPU_TRAP_STORM_LIMIT traps in a row with instret unchanged it stops (trap_stuck), and
     * mtemu says where (the last trap's pc and cause) and exits 1. */
    uint64_t storm_instret, storm_traps;
    bool trap_stuck;
    uint64_t stuck_pc, stuck_cause;

    /* the cache timing model (--timing=cache): every access goes through it; NULL otherwise */
    mt_cache_model *cache;    /* --timing=cache's model, or NULL */
    uint64_t dram_cycle;      /* last cycle stamped on the dram tap */
    int cache_kind;           /* kind of the access being modelled (for its DRAM transfers) */
    uint64_t dram_count[2];   /* DRAM line fills, write-backs */

    /* hooks */
    mt_access_listener listener;
    void *listener_ctx;
    uint64_t listener_due;   /* in this hart's cycles (the listener speaks the machine's time) */
    /* The machine's time of this hart's cycle 0: accesses go to the listener stamped cycle +
     * stamp_offset. 0 with one hart; with -smp N each turn starts where the last one ended
     * (emu/platform/smp.c), so the stamps of all harts together never go back. */
    uint64_t stamp_offset;
    uint32_t listener_kinds; /* 1 << kind of the accesses it wants (cpu_set_listener_kinds) */
    mt_access_buf *abuf;     /* the listener's every-access buffer (cpu_set_access_buf), or NULL */
    mt_page_filter pf;       /* the listener's page filter (cpu_set_page_filter) */
    cpu_sampler *sampler;    /* cpu_set_sampler: the unit's schedule for the runs interpreter, or NULL */
    /* A capture the runs interpreter took ahead of its fetch (cpu_sampler): the fetch's stamp in
     * this hart's cycles (UINT64_MAX: none), and what to restore if the run does not get there
     * (for a capture of sample_run_general; a lazy one, cpu_sampler.lazy, has nothing to restore) */
    uint64_t spec_stamp, spec_old_now, spec_old_last;
    /* cpu_sample_run's walks remembered (emu/cpu/cpu.c sample_walk): what the first access of
     * the run of slot d stamped at or after cycle + run_cost(d) - lim is, for a run entered at
     * `cycle`.  Valid while no decoded slot has lost its contents since (gen = dpage_resets
     * then).  32 bytes, so that an entry is one shift from its index. */
    struct cpu_sample_memo {
        const mt_dinsn *d;
        uint64_t genlim; /* gen << 16 | lim (cpu.c sample_memo_tag): one compare for both */
        /* SAMPLE_FETCH: the fetch's capture, packed (accring_entry.bits); SAMPLE_DATA: the
         * data access, described (cpu.c data_access_desc) */
        uint64_t bits;
        uint32_t rmin;  /* the least r for which the capture is cpu_sample_run's usual case
                         * (stamp and run both before due + r); UINT32_MAX: never */
        uint16_t t_off; /* the stamp's offset from the run's start cycle */
        uint8_t what;   /* SAMPLE_* (cpu.c) */
    } sample_memo[1u << CPU_SAMPLE_MEMO_BITS];
#ifdef MT_RING_PROBE
#define RING_PROBE_WORDS (1u << 17) /* 1 MiB, a power of two */
    /* a measurement build only (interp.inc RING_PROBE): what an access ring's producer would
     * write, recorded into a buffer that nothing reads */
    uint64_t *ring_probe, ring_probe_n;
#endif
    ram_page_observer observer;
    void *observer_ctx;
    struct ram_page_batch *obs_batch; /* cpu_set_page_batch: reports are appended here (the
                                       * observer is then an appender too, for the slow paths) */
    /* the granule last reported, as its first address (pa & obs_mask; UINT64_MAX: none).  A mask,
     * not a shift: the interpreters' inline checks at every run's entry and data access then
     * load no shift count into %cl (docs/metapaging.md, "The observer's granule as a mask") */
    uint64_t obs_last_unit;
    uint64_t obs_mask; /* ~(granule - 1) */
    bool obs_last_write;
    bool obs_timed; /* the observer may move the cycle count (a fault that costs cycles): every
                     * access then goes through the hook at its exact cycle (interpreter_hooked) */
    mt_fp_exec_fn fp_exec;
    uint64_t fp_tval;

    /* run control and statistics */
    bool stop;
    bool limit_hit;
    void (*on_poll)(void *ctx); /* every BUS_POLL_CYCLES: devices, progress line */
    void *poll_ctx;
    /* WFI with no timer armed: wait for outside input; false = nothing can ever wake the hart */
    bool (*idle)(void *ctx);
    void *idle_ctx;
    bool log_pending;
    uint64_t log_pc;
    uint32_t log_raw;
    uint8_t log_rd, log_len, log_priv;
    uint64_t access_count[MT_KIND_COUNT]; /* fetches: second halves only (cpu_fetch_access) */
    uint64_t tlb_fills, dpage_decodes;
    /* Decoded slots' contents lost (a page's slots made OP_DECODE again, or every page freed):
     * the only way a decoded slot changes (a decode writes OP_DECODE slots only), so what
     * cpu_sample_run remembers of a run holds while this stays (sample_memo). */
    uint64_t dpage_resets;
    bool log_commits;
    void *log_file; /* FILE* for --log-commits */
    /* The debugger (emu/gdb/): while `debug` is set every instruction boundary goes through
     * cpu_event (as with --log-commits), which calls debug_hook(ctx, cpu, pc) before the
     * instruction at pc; true: leave the page loop and go on at cpu->pc (the hook changed it, or
     * memory). Unset: no cost at all. */
    bool debug;
    bool (*debug_hook)(void *ctx, struct mt_cpu *cpu, uint64_t pc);
    void *debug_ctx;
    /* Per decoded op, the data access its fast path makes (LOAD/STORE in interp.inc; a pair's:
     * its first instruction's): 0 none (or a slow path's), else CPU_OP_DATA | write << 2 |
     * log2(size).  The sampler predicts a capture that is such an access (cpu_sample_run).  At
     * the end of the struct so that no hot field moves. */
    uint8_t op_data[1024];
    /* PMP (at the end too, so that the hot fields keep their offsets): the entries
     * that match something, in index order, as byte ranges [lo, hi) with their permissions for
     * M and for S/U, made by pmp_rebuild from pmpcfg/pmpaddr at every write (emu/cpu/pmp.c), so
     * a check (every PTE read of a walk) compares ranges instead of decoding the entries again. */
    uint8_t pmp_n;
    uint8_t pmp_perm_m[PMP_COUNT], pmp_perm_su[PMP_COUNT];
    uint64_t pmp_lo[PMP_COUNT], pmp_hi[PMP_COUNT];
    /* ... and the answers for whole pages (pmp_page_perms >= 0), direct-mapped by page number,
     * tagged page | privilege (PMP_PAGE_CACHE_INVALID: empty); emptied by pmp_rebuild */
#define PMP_PAGE_CACHE 64
#define PMP_PAGE_CACHE_INVALID UINT64_MAX
    uint64_t pmp_cache_tag[PMP_PAGE_CACHE];
    uint8_t pmp_cache_perms[PMP_PAGE_CACHE];
    cpu_page_log_buf pf_log; /* the page filter's log (mt_page_filter.sink), cold unless on */
} mt_cpu;
#define CPU_OP_DATA 8u

/* Life cycle. The bus must outlive the cpu. */
void cpu_init(mt_cpu *cpu, struct mt_bus *bus, mt_timing_mode timing);
void cpu_free(mt_cpu *cpu);
void cpu_reset(mt_cpu *cpu, uint64_t pc);

/* Runs until cpu->stop is set (a device or HTIF asked to exit) or the instruction limit is hit. */
void cpu_run(mt_cpu *cpu);

/* The machine's time now (what accesses are stamped with). */
static inline uint64_t cpu_time(const mt_cpu *cpu) { return cpu->cycle + cpu->stamp_offset; }
/* A time of the machine's as one of this hart's cycles (UINT64_MAX stays: never). */
static inline uint64_t cpu_local_cycle(const mt_cpu *cpu, uint64_t t)
{
    return t == UINT64_MAX ? t : t > cpu->stamp_offset ? t - cpu->stamp_offset : 0;
}

/* Hooks. first_due is in the machine's time. */
void cpu_set_listener(mt_cpu *cpu, mt_access_listener fn, void *ctx, uint64_t first_due);
/* The running hart takes over the listener of the one that ran before it (-smp N: the listener
 * is the machine's, each turn's hart carries it): function, kinds and due. */
void cpu_take_listener(mt_cpu *cpu, const mt_cpu *from);
/* Only accesses whose kind is in `mask` (1 << mt_kind) go to the listener (cpu_set_listener
 * resets it to all): an every-access recorder of loads and stores then costs a fetch nothing. */
void cpu_set_listener_kinds(mt_cpu *cpu, uint32_t mask);
/* The listener's every-access buffer (mt_access_buf; NULL: none).  Set after cpu_set_listener,
 * which clears it; it follows the listener (cpu_take_listener).  Not taken (NULL) with a cache
 * model, a page observer or the page filter, whose hooks want each access as it comes. */
void cpu_set_access_buf(mt_cpu *cpu, mt_access_buf *b);
/* The listener's schedule for the runs interpreter (cpu_sampler; NULL: none).  Set after
 * cpu_set_listener, which clears it; it follows the listener (cpu_take_listener). */
void cpu_set_sampler(mt_cpu *cpu, cpu_sampler *smp);
/* A slow path or trap at an instruction that started at `start` (this hart's cycles) while a
 * capture taken ahead is pending: keeps it when its fetch came (start at or after it), else
 * takes it back.  Either way none is pending after. */
void cpu_sample_resolve(mt_cpu *cpu, uint64_t start);
/* The observer is told of every change of the granule touched (pa >> granule_shift, 12 or more:
 * a consumer that works in coarser units, such as metapages, needs no report within one). */
void cpu_set_page_observer(mt_cpu *cpu, ram_page_observer fn, void *ctx, unsigned granule_shift);
/* Arms the listener's page filter for the accesses whose kind is in `kinds` (1 << mt_kind; 0
 * disarms it, handing any held steps over first): on top of what its due cycle brings, the
 * listener then hears of each such access on the core tap whose 4 KiB page differs from the
 * last one's.  Call it outside cpu_run (or before the interpreter is entered again). */
void cpu_set_page_filter(mt_cpu *cpu, uint32_t kinds);
/* From inside the listener: an alternation between the 4 KiB pages `last` (the page of the
 * access being heard) and `other` has settled, so only the last two of its further steps matter
 * (see mt_page_filter).  Ignored unless `last` is the filter's own last page. */
void cpu_page_filter_pair(mt_cpu *cpu, uint64_t last, uint64_t other);
/* Hands the held alternation steps (and the page log) to the listener (before the listener's
 * owner ends its run). */
void cpu_page_filter_flush(mt_cpu *cpu);
/* The listener's page sink (NULL: none, the filter calls the listener for each page change), set
 * after cpu_set_listener (which replays the log and clears it) and cpu_set_page_filter.  The sink
 * hears the page changes the filter would hand the listener (access j: stamp[j] and the
 * cpu_filter_pack word[j], filtered kinds, core tap), in order, possibly late: so only for a
 * listener that is never due (it would answer UINT64_MAX to each) and reads no CPU state when it
 * hears one (the cycle; cpu_filter_ordinal only through ord[j], with CPU_SINK_ORDINALS, which the
 * interpreter computes as it logs the change).  `opts`: CPU_SINK_ORDINALS, CPU_SINK_NO_PAIR (then
 * it never sets pair).  It returns how many it took, m >= 1: all n, or
 * fewer when after access m - 1 it wants the alternation pair armed, as cpu_page_filter_pair(
 * pair[0], pair[1]) from inside the listener would: then it sets pair (the caller's UINT64_MAX
 * says no wish), and the replay arms it before it goes on.  pair NULL: no wish is asked (the held
 * steps, after which the pair is disarmed anyway), it takes all n.  It must not change the
 * listener, the filter or the sink. */
void cpu_set_page_sink(mt_cpu *cpu, cpu_page_sink fn, void *ctx, unsigned opts);
/* Replays the page log to the sink (mt_page_filter), if anything waits in it. */
void cpu_page_log_drain(mt_cpu *cpu);
/* The number of accesses of the filtered kinds (core tap) so far, all harts of the listener's
 * stream together: from inside the listener, the ordinal of the access it hears (how many came
 * before it), unless the access is a held alternation step; outside cpu_run, the ordinal of the
 * next one.  A listener that counts accesses (the spatial recorder's `trace.accesses`) adds the
 * difference between two it hears, less one: the repeats of the page the filter kept from it. */
uint64_t cpu_filter_ordinal(const mt_cpu *cpu);
/* cpu_filter_ordinal with `instret` for cpu->instret: inside the interpreter's run, whose locals
 * are ahead of the hart's fields (the page log's ordinals) */
static inline __attribute__((always_inline)) uint64_t cpu_filter_ordinal_at(const mt_cpu *c, uint64_t instret)
{
    /* a fetch per instruction retired or trapped after its fetch, and the second halves of
     * straddling ones (access_count[MT_KIND_FETCH]); the other kinds as counted. Masks instead
     * of a loop of tests: the spatial recorder asks at every page change. */
    const uint64_t *m = c->pf.ord_mask;
    uint64_t n = c->pf.ord_off + ((instret + c->fetch_traps + c->access_count[MT_KIND_FETCH]) & m[MT_KIND_FETCH]);
    _Static_assert(MT_KIND_FETCH == 0, "the loop below starts after the fetch kind");
    /* unrolled: at -O2 the loop's count and branch were half its cost (47 host instructions a
     * call, callgrind of the spatial Linux run, 5.4 M calls at 10^7 instructions) */
#pragma GCC unroll 8
    for (unsigned k = 1; k < MT_KIND_COUNT; k++)
        n += c->access_count[k] & m[k];
    return n;
}
/* The same reports, appended to `batch` (ram.h) instead of one call each. */
void cpu_set_page_batch(mt_cpu *cpu, struct ram_page_batch *batch, unsigned granule_shift);
/* Recomputes next_due / next_event after any change of listener, observer, timer or limit. */
void cpu_update_next_event(mt_cpu *cpu);
/* Slow path of the access hook: observer, listener. */
void cpu_access_due(mt_cpu *cpu, uint64_t pa, unsigned size, int write, int kind);
/* False when cpu_access_due would do nothing with this access: no cache model, the page observer
 * (if on) was last told of this granule (a write: of a write report), and the listener is not due
 * or does not take this kind. */
/* --timing=cache's usual access, in line: the line its L1 had last (cache_hit_again), with no
 * observer or due listener to tell. True when that is all the access needed. */
/* The page filter would hand this access on (or hold it as an alternation step): its kind is
 * filtered and its page is not the last one. */
#define CPU_PF_PAGE (MT_PADDR_MASK & ~UINT64_C(0xfff))
static inline bool cpu_filter_wants(const mt_cpu *cpu, uint64_t pa, int kind)
{
    return ((cpu->pf.kinds >> kind) & 1) && (pa & CPU_PF_PAGE) != cpu->pf.last;
}

/* An access to another page than the last: when it is a step of the armed alternation, holds it
 * (stamped `stamp`, the machine's time) and returns true: the listener need not hear of it now. */
static inline bool cpu_filter_step(mt_cpu *cpu, uint64_t pa, unsigned size, int write, int kind, uint64_t stamp)
{
    mt_page_filter *f = &cpu->pf;
    uint64_t page = pa & CPU_PF_PAGE;
    if (page != f->other) /* also when no alternation is armed */
        return false;
    f->pend_stamp[0] = f->pend_stamp[1];
    f->pend_word[0] = f->pend_word[1];
    f->pend_stamp[1] = stamp;
    f->pend_word[1] = cpu_filter_pack(pa, size, write, kind);
    f->npend = f->npend ? 2 : 1;
    f->other = f->last;
    f->last = page;
    return true;
}

/* The page log takes k entries, the first stamped `stamp` (mt_page_filter): it is on, has room,
 * and the stamp comes after every stamp the filter has handed on or holds (so that the replay's
 * calls move `last` as the live ones would: listener_call ignores a second access of a cycle).
 * The entries of one open log come from one run of one hart's interpreter (anything the filter
 * decides outside it replays the log first), which stamps each access at a cycle of its own
 * (docs/emulator.md "Timing model"), later than the one before: checked anyway, for the same
 * reason. */
static inline bool cpu_page_log_room(const mt_cpu *cpu, uint64_t stamp, unsigned k)
{
    const mt_page_filter *f = &cpu->pf;
    if (!f->sink || f->nlog + k > CPU_PF_LOG)
        return false;
    if (f->nlog)
        return stamp > cpu->pf_log.stamp[f->nlog - 1];
    return (f->last_stamp == UINT64_MAX || stamp > f->last_stamp) && (!f->npend || stamp > f->pend_stamp[1]);
}
/* Appends a change to `page` (not the filter's last, no step of its pair; cpu_page_log_room said
 * yes): it becomes the last.  The first entry disarms the live pair.  True when it is the third
 * return in a row to the page two changes back: the caller replays the log then. */
static inline __attribute__((always_inline)) bool cpu_page_log_append(mt_cpu *cpu, uint64_t stamp, uint64_t word,
                                                                      uint64_t page)
{
    mt_page_filter *f = &cpu->pf;
    uint32_t alts = 0;
    if (!f->nlog) {
        f->other = 1;
    } else if (page == f->log_prev) {
        alts = f->log_alts + 1;
    }
    f->log_alts = alts;
    f->log_prev = f->last;
    cpu->pf_log.stamp[f->nlog] = stamp;
    cpu->pf_log.word[f->nlog++] = word;
    f->last = page;
    return alts >= f->log_settle;
}
/* An access the filter wants and does not hold as a step: logged when it can be (true).
 * `instret`: the instructions retired before it, as cpu_filter_ordinal_at takes them. */
static inline bool cpu_page_log(mt_cpu *cpu, uint64_t pa, unsigned size, int write, int kind, uint64_t stamp,
                                uint64_t instret)
{
    if (!cpu_page_log_room(cpu, stamp, 1))
        return false;
    if (cpu->pf.log_ords)
        cpu->pf_log.ord[cpu->pf.nlog] = cpu_filter_ordinal_at(cpu, instret);
    if (cpu_page_log_append(cpu, stamp, cpu_filter_pack(pa, size, write, kind), pa & CPU_PF_PAGE))
        cpu_page_log_drain(cpu);
    return true;
}

static inline bool cpu_cache_hit_again(mt_cpu *cpu, uint64_t pa, int write, int kind)
{
    return cpu->cache && !cpu->observer && !(cpu->listener && cpu->cycle >= cpu->listener_due) &&
           !cpu_filter_wants(cpu, pa, kind) && cache_hit_again(cpu->cache, pa, write != 0, kind == MT_KIND_FETCH);
}

static inline bool cpu_access_needs_hooks(const mt_cpu *cpu, uint64_t pa, int write, int kind)
{
    if (cpu->cache)
        return true;
    if (cpu->observer && ((pa & cpu->obs_mask) != cpu->obs_last_unit || (write && !cpu->obs_last_write)))
        return true;
    if (cpu->listener && cpu_filter_wants(cpu, pa, kind))
        return true;
    return cpu->listener && cpu->cycle >= cpu->listener_due && ((cpu->listener_kinds >> kind) & 1);
}

/* The one hook every bus access goes through: stamps it at the current cycle, then takes it. */
static inline void cpu_access(mt_cpu *cpu, uint64_t pa, unsigned size, int write, int kind)
{
    if (__builtin_expect(cpu->cycle >= cpu->next_due || cpu->observer || cpu->pf.kinds, 0))
        cpu_access_due(cpu, pa, size, write, kind);
    cpu->access_count[kind]++;
    cpu->cycle++;
}

/* The fetch of an instruction's second half, in another page than its first (an instruction
 * straddling two pages): an access of its own on the port, stamped at the current cycle like any,
 * after the first half's fetch and the walk that translated it.  It does not advance the clock:
 * the instruction's cost runs from this fetch, as any instruction's from its one fetch.  Counted
 * in access_count[MT_KIND_FETCH], which holds only these (the other fetches are instret and
 * fetch_traps: one per instruction). */
static inline void cpu_fetch_access(mt_cpu *cpu, uint64_t pa, unsigned size)
{
    if (__builtin_expect(cpu->cycle >= cpu->next_due || cpu->observer || cpu->pf.kinds, 0))
        cpu_access_due(cpu, pa, size, 0, MT_KIND_FETCH);
    cpu->access_count[MT_KIND_FETCH]++;
}

/* Traps and interrupts. */
void cpu_take_trap(mt_cpu *cpu, uint64_t cause, uint64_t tval);
/* Traps in a row without an instruction retired after which a hart counts as stuck: about 0.15 s
 * of a trap storm here, far more than any handler that returns could take. */
#define CPU_TRAP_STORM_LIMIT (UINT64_C(1) << 23)
/* Takes the highest-priority pending and enabled interrupt; true when one was taken. */
bool cpu_check_interrupts(mt_cpu *cpu);
/* Device interrupt lines into mip (MEIP, SEIP, MTIP, MSIP). */
void cpu_set_irq_line(mt_cpu *cpu, uint64_t mip_bit, bool level);
/* mip as software sees it. */
uint64_t cpu_mip(const mt_cpu *cpu);
/* CLINT side of the timer. */
void cpu_set_mtimecmp(mt_cpu *cpu, uint64_t val);
/* Recomputes the timer interrupts and the next timer event after a change of mtimecmp, the
 * Sstc compare registers, htimedelta or the envcfg enables. */
void cpu_timer_changed(mt_cpu *cpu);
/* The first mtime after `now` at which one of the hart's enabled timer interrupts (mie) turns
 * pending: mtimecmp, and with Sstc stimecmp and vstimecmp (UINT64_MAX: none). */
uint64_t cpu_next_timer(const mt_cpu *cpu, uint64_t now);
void cpu_set_mtime(mt_cpu *cpu, uint64_t val);
/* Stops the run loop at the next instruction boundary (exit requested by a device / HTIF). */
void cpu_request_stop(mt_cpu *cpu);
/* Reference clock -> mtime (10 MHz timebase: 100 cycles per tick). */
#define CYCLES_PER_MTIME_TICK 100
uint64_t cpu_mtime(const mt_cpu *cpu);

/* Translation caches: cpu_flush_tlb whenever PMP or the envcfg change; cpu_flush_tlb_sets for
 * one regime (satp, SFENCE.VMA: the running one; vsatp, hgatp, HFENCE: the guest's);
 * cpu_update_priv_ctx whenever the privilege or MPRV/MPP/SUM/MXR change. */
void cpu_flush_tlb(mt_cpu *cpu);
void cpu_flush_tlb_sets(mt_cpu *cpu, unsigned dtlb_mask, unsigned itlb_mask);
/* The sets of the regime that runs now (V=1: the guest's; V=0: HS/U/M's). */
static inline void cpu_flush_tlb_current(mt_cpu *cpu)
{
    if (cpu->hyp.virt)
        cpu_flush_tlb_sets(cpu, DTLB_GUEST_MASK, ITLB_GUEST_MASK);
    else
        cpu_flush_tlb_sets(cpu, DTLB_HOST_MASK, ITLB_HOST_MASK);
}
void cpu_update_priv_ctx(mt_cpu *cpu);
/* The RAM side's invalidator: drops the host pointers of TLB entries whose physical page lies in
 * [base, base+len), keeping their translations (marked TLB_STALE; see docs/metapaging.md). */
void cpu_invalidate_phys(mt_cpu *cpu, uint64_t base, uint64_t len);
/* Marks the decoded instructions covering [pa, pa+len) stale (a write to a code page). */
void cpu_code_written(mt_cpu *cpu, uint64_t pa, uint64_t len);
mt_dpage *cpu_dpage_lookup(mt_cpu *cpu, uint64_t pa);
/* The decoded-instruction array of a physical page, created empty (write TLB entries to the
 * page are dropped so that stores to it take the slow path). */
mt_dpage *cpu_dpage_create(mt_cpu *cpu, uint64_t page_pa);

/* Memory access for slow paths, the F/D extension and tests: virtual address, current data
 * privilege; returns EXC_NONE or the exception cause (tval = the address). */
int cpu_load(mt_cpu *cpu, uint64_t va, unsigned size, uint64_t *val);
int cpu_store(mt_cpu *cpu, uint64_t va, unsigned size, uint64_t val);

/* F/D helpers for exec_fp.c: mstatus.FS state. */
/* With V=1 (H extension) both vsstatus.FS (in mstatus then) and HS's sstatus.FS must be on. */
static inline bool cpu_fp_enabled(const mt_cpu *cpu)
{
    return (cpu->mstatus & MSTATUS_FS) != 0 && (!cpu->hyp.virt || (cpu->hyp.alt_status & MSTATUS_FS) != 0);
}
static inline void cpu_fp_set_dirty(mt_cpu *cpu) { cpu->mstatus |= MSTATUS_FS | MSTATUS_SD; }

#endif
