/* cbo — the cache-block operations of Zicbom (cbo.inval, cbo.clean, cbo.flush) and Zicboz
 * (cbo.zero), as the unprivileged spec's CMO chapter defines them (see cbo.h).
 *
 * The emulator keeps no data cache contents (emu/cpu/cache.c only times accesses), so memory is
 * always coherent: a management operation changes nothing in memory, and cbo.inval performed as
 * an invalidate or as a flush (CBIE = 11 or 01) is the same.  What remains are the rules around
 * them: the envcfg enables per privilege mode, translation (A bit, not D, for management; A and
 * D as a store for cbo.zero), PMP, and faults reported as store faults with tval = rs1.
 */
#include "emu/cpu/cbo.h"

#include "emu/cpu/cpu.h"
#include "emu/cpu/mmu.h"
#include "emu/cpu/pmp.h"
#include "emu/platform/bus.h"

/* The envcfg field that enables an operation below M: CBIE (2 bits; 00 disables, 10 is never
 * held, see envcfg_cbo_warl), CBCFE, CBZE. */
static uint64_t enable_field(unsigned op)
{
    return op == CBO_INVAL ? ENVCFG_CBIE : op == CBO_ZERO ? ENVCFG_CBZE : ENVCFG_CBCFE;
}

/* The spec's decision (CMO chapter, "Control and Status Register State"): illegal instruction
 * when menvcfg disables it below M or senvcfg in U; virtual instruction when henvcfg disables it
 * in VS or VU, or senvcfg in VU. */
int cbo_check_enabled(const mt_cpu *c, unsigned op)
{
    if (c->priv == PRV_M)
        return EXC_NONE;
    uint64_t f = enable_field(op);
    bool virt = c->hyp.virt;
    if (!(c->menvcfg & f) || (c->priv == PRV_U && !virt && !(c->senvcfg & f)))
        return EXC_ILLEGAL;
    if (virt && (!(c->hyp.henvcfg & f) || (c->priv == PRV_U && !(c->senvcfg & f))))
        return EXC_VIRTUAL_INSN;
    return EXC_NONE;
}

/* Every fault of a CBO is a store fault. */
static int as_store_fault(int e)
{
    switch (e) {
    case EXC_LOAD_PAGE: return EXC_STORE_PAGE;
    case EXC_LOAD_GUEST_PAGE: return EXC_STORE_GUEST_PAGE;
    case EXC_LOAD_ACCESS: return EXC_STORE_ACCESS;
    default: return e;
    }
}

/* A management operation may access the block when a load or a store may: translate for a read
 * (sets A, checks no D; a page that denies reads denies writes too, W without R being reserved),
 * then PMP for a read or a write of the block.  Only RAM has cache blocks here: elsewhere a
 * store access fault. */
static int check_management(mt_cpu *c, uint64_t block)
{
    uint64_t pa;
    int e = mmu_translate(c, block, ACC_R, c->data_priv, &pa);
    if (e != EXC_NONE)
        return as_store_fault(e);
    if (!pmp_allows(c, pa, CBO_BLOCK_SIZE, PMP_R, c->data_priv) &&
        !pmp_allows(c, pa, CBO_BLOCK_SIZE, PMP_W, c->data_priv))
        return EXC_STORE_ACCESS;
    if (!ram_contains(c->bus->ram, pa, CBO_BLOCK_SIZE))
        return EXC_STORE_ACCESS;
    return EXC_NONE;
}

/* cbo.zero is a store of the whole block: translated for a write (A and D), PMP W over all of
 * it, RAM only (the device regions do not support it); checked before anything is written, so
 * a fault leaves the block as it was.  The zeros then go through the ordinary store path, eight
 * doublewords, so the access hooks, the decoded-code invalidation and the watch page see them. */
static int zero_block(mt_cpu *c, uint64_t block)
{
    uint64_t pa;
    int e = mmu_translate(c, block, ACC_W, c->data_priv, &pa);
    if (e != EXC_NONE)
        return e;
    if (!pmp_allows(c, pa, CBO_BLOCK_SIZE, PMP_W, c->data_priv) || !ram_contains(c->bus->ram, pa, CBO_BLOCK_SIZE))
        return EXC_STORE_ACCESS;
    for (unsigned off = 0; off < CBO_BLOCK_SIZE; off += 8) {
        e = mem_store_slow(c, block + off, 8, 0);
        if (e != EXC_NONE)
            return e;
    }
    return EXC_NONE;
}

int cbo_exec(mt_cpu *c, unsigned op, uint64_t va)
{
    int e = cbo_check_enabled(c, op);
    if (e != EXC_NONE)
        return e;
    uint64_t block = va & ~(uint64_t)(CBO_BLOCK_SIZE - 1);
    return op == CBO_ZERO ? zero_block(c, block) : check_management(c, block);
}

uint64_t envcfg_cbo_warl(uint64_t old, uint64_t v)
{
    uint64_t r = v & (ENVCFG_CBIE | ENVCFG_CBCFE | ENVCFG_CBZE);
    if ((r & ENVCFG_CBIE) == ENVCFG_CBIE_RESERVED) /* 10 is reserved: keep the old encoding */
        r = (r & ~ENVCFG_CBIE) | (old & ENVCFG_CBIE);
    return r;
}
