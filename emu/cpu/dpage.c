/* The decoded-instruction cache: guest code pages decoded once into slots (mt_dinsn, one per
 * 2-byte parcel), found by physical address, decoded lazily a straight-line run at a time, and
 * kept coherent with stores to code.  The interpreter (emu/cpu/interp.inc) executes the slots;
 * this file makes them.
 *
 * A run is the slots from one up to and including the first op that does not go on to the next
 * slot (decode.h MT_STRAIGHT_OPS); every slot holds the sums of its run's rest (run_cost,
 * run_insns, run_bound), so the interpreter charges a run with one compare and two adds, and
 * frequent pairs of instructions become one fused op (decode.h op_pair). */
#include "emu/cpu/dpage.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emu/cpu/decode.h"
#include "emu/platform/bus.h"
#include "emu/platform/ram.h"

#define PAGE_MASK (~UINT64_C(0xfff))
#define DPAGE_MAX 4096 /* decoded pages kept (128 MiB); more: flush them all and start again */

_Static_assert(sizeof(mt_dinsn) == 16, "decoded instructions are 16 bytes");
/* a run's sums fit the 16-bit run fields: at most 2048 slots of at most 20 + 1 cycles */
_Static_assert(DPAGE_SLOTS * (20 + 1) <= UINT16_MAX, "run sums fit 16 bits");

/* The cross page (dpage.h): the slots of two pages and the 4 sentinels past them. */
mt_dpage *dpage_cross_alloc(void)
{
    const size_t nslots = 2 * DPAGE_SLOTS + 4;
    mt_dpage *p = calloc(1, sizeof *p + nslots * sizeof(mt_dinsn));
    if (!p) {
        fprintf(stderr, "mtemu: out of memory\n");
        exit(3);
    }
    for (mt_dinsn *d = p->slot; d < p->slot + nslots; d++)
        d->op = OP_PAGE_END;
    return p;
}

void dpage_free_all(mt_cpu *c)
{
    c->brk_slot = NULL; /* in a page freed here */
    c->dpage_resets++;  /* every decoded slot lost (cpu.h) */
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
        for (int m = 0; m < ITLB_SETS; m++)
            for (unsigned i = 0; i < TLB_SIZE; i++)
                c->itlb[m][i].tag = TLB_INVALID;
    }
    mt_dpage *p = calloc(1, DPAGE_BYTES);
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
        for (unsigned i = 0; i < TLB_ENTRIES; i++)
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
            c->dpage_resets++; /* decoded slots lost (cpu.h) */
            return;
        }
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
void dpage_decode_run(mt_cpu *c, mt_dpage *dp, mt_dinsn *first)
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
        unsigned step = c->op_cost[d->op] + dpage_op_access_cycles(d->op);
        cost += step;
        insns++;
        span += step ? step : 1;
        d->run_cost = (uint16_t)cost;
        d->run_insns = (uint16_t)insns;
        d->run_bound = (uint16_t)(span - 1);
    }
    /* fused quads, triples and pairs (decode.h) inside the run; they may overlap: each slot is
     * the first of the quad, triple or pair it starts, wherever execution enters (the longest:
     * it saves a dispatch more).  Slots i+1 to i+3 still hold their own ops here. */
    for (unsigned i = 0; i + 1 < n; i++) {
        unsigned first = op_uncompressed(run[i]->op), second = op_uncompressed(run[i + 1]->op);
        unsigned fused = OP_DECODE;
        if (i + 3 < n) { /* a quad before a triple: it saves a dispatch more */
            unsigned ops[4], lens[4];
            for (unsigned k = 0; k < 4; k++) {
                ops[k] = op_uncompressed(run[i + k]->op);
                lens[k] = dinsn_len(run[i + k]);
            }
            fused = op_quad(ops, lens);
        }
        if (fused == OP_DECODE && i + 2 < n)
            fused = op_triple(first, dinsn_len(run[i]), second, dinsn_len(run[i + 1]), run[i + 2]->op);
        if (fused == OP_DECODE)
            fused = op_pair(first, dinsn_len(run[i]), second, dinsn_len(run[i + 1]));
        if (fused != OP_DECODE)
            run[i]->op = (uint16_t)fused;
    }
}

/* The instruction bits at slot d (for logs). */
/* A parcel of the instruction at pa, read as the emulator's own access: for a trap's tval or
 * mtinst the instruction is not fetched again, so the meta-pager must not see (or fault in) its
 * page, nor the page observer: a paged run and a flat run see the same accesses. */
static uint16_t read_parcel(mt_cpu *c, uint64_t pa)
{
    uint16_t v = 0;
    if (ram_contains(c->bus->ram, pa, 2)) {
        ram_host_read(c->bus->ram, pa, &v, 2);
    } else {
        const uint8_t *page = bus_page_for_read(c->bus, pa & PAGE_MASK); /* the boot ROM */
        if (page)
            memcpy(&v, page + (pa & 0xfff), 2);
    }
    return v;
}

uint32_t dpage_slot_bits(mt_cpu *c, mt_dpage *dp, mt_dinsn *d)
{
    unsigned idx = (unsigned)(d - dp->slot);
    if (idx >= DPAGE_SLOTS)
        return 0;
    uint16_t lo = read_parcel(c, dp->pa + idx * 2), hi = 0;
    if (insn_length(lo) == 4 && idx < DPAGE_SLOTS - 1)
        hi = read_parcel(c, dp->pa + idx * 2 + 2);
    return (uint32_t)lo | (uint32_t)hi << 16;
}
