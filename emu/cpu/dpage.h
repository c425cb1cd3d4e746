/* The decoded-instruction cache (emu/cpu/dpage.c): the hart's own view, for cpu.c and the
 * interpreter.  The public lookups (cpu_dpage_lookup, cpu_dpage_create, cpu_code_written) are
 * declared in cpu.h with the rest of the hart's interface. */
#ifndef EMU_CPU_DPAGE_H
#define EMU_CPU_DPAGE_H

#include <stdint.h>

#include "emu/cpu/cpu.h"
#include "emu/cpu/decode.h"

/* The cross page, where an instruction straddling two pages runs: two pages' worth of slots
 * (and the 4 past the end), all sentinels (OP_PAGE_END) but the straddling one, the last of the
 * second page (CROSS_SLOT).  L_CROSS bases it at the straddling page's vbase - 4096, so that no
 * control transfer can come back to that slot: a target below vbase lands on a sentinel of the
 * first page, any other is outside the cross page (docs/emulator.md "The cross page"). */
#define CROSS_SLOT (2 * DPAGE_SLOTS - 1)
mt_dpage *dpage_cross_alloc(void);
/* Frees every decoded page (only from the outer loop: no page may be executing). */
void dpage_free_all(mt_cpu *c);
/* Decodes the run that starts at the undecoded slot `first` and sums its run fields. */
void dpage_decode_run(mt_cpu *c, mt_dpage *dp, mt_dinsn *first);
/* The instruction bits at slot d as fetched (for logs and trap values); 0 when unreadable. */
uint32_t dpage_slot_bits(mt_cpu *c, mt_dpage *dp, mt_dinsn *d);

/* The cycle a data access of the fast path adds (loads and stores that hit the TLB). */
static inline unsigned dpage_op_access_cycles(unsigned op)
{
    op = op_uncompressed(op);
    return op >= OP_LB && op <= OP_SD;
}


/* The op that executes slot d alone (a pair's first instruction by itself). */
static inline unsigned dpage_op_alone(const mt_dinsn *d)
{
    if (!op_is_pair(d->op))
        return d->op;
    unsigned first = op_pair_first(d->op);
    return dinsn_len(d) == 2 ? op_compressed_twin(first) : first;
}

/* The slot that execution from slot d (a straight op) dispatches to next: past a pair, the slot
 * after its second instruction; past a triple, after its third; past a quad, after its fourth. */
static inline mt_dinsn *dpage_dispatch_after(mt_dinsn *d)
{
    const unsigned n = !op_is_pair(d->op) ? 1 : op_is_quad(d->op) ? 4 : op_is_triple(d->op) ? 3 : 2;
    for (unsigned i = 0; i < n; i++)
        d = (mt_dinsn *)((char *)d + d->step);
    return d;
}


#endif
