/* Translation and the memory slow paths.
 *
 * Translation is written as two stages: stage 1 (satp, or vsatp for a guest: Sv39/Sv48)
 * produces a guest-physical address and every address it touches (the PTEs and the result)
 * goes through stage 2, the H extension's G-stage (hgatp: Sv39x4/Sv48x4), which is the
 * identity with V=0.  Every address on the bus, and so in the trace, is host-physical. */
#include "emu/cpu/mmu.h"

#include <string.h>

#include "emu/platform/bus.h"
#include "emu/cpu/decode.h"
#include "emu/cpu/pmp.h"

#define likely(x) __builtin_expect(!!(x), 1)

static int page_fault(int acc) { return acc == ACC_X ? EXC_INSN_PAGE : acc == ACC_W ? EXC_STORE_PAGE : EXC_LOAD_PAGE; }
static int access_fault(int acc) { return acc == ACC_X ? EXC_INSN_ACCESS : acc == ACC_W ? EXC_STORE_ACCESS : EXC_LOAD_ACCESS; }
static int guest_page_fault(int acc)
{
    return acc == ACC_X ? EXC_INSN_GUEST_PAGE : acc == ACC_W ? EXC_STORE_GUEST_PAGE : EXC_LOAD_GUEST_PAGE;
}

/* What one translation depends on besides the address: the stage-1 root and permission bits,
 * and whether a G-stage follows (then gmxr is HS's mstatus.MXR).  hlvx: the access's own reads
 * need X, not R, at both stages (HLVX; the VS-stage's page-table reads still need R).
 * pbmte / gpbmte: Svpbmt's enable for stage 1 (menvcfg, or henvcfg for a guest) and stage 2. */
typedef struct {
    uint64_t satp;
    bool sum, mxr, two_stage, gmxr, hlvx, pbmte, gpbmte;
} xlate_ctx;

#define PTE_N (UINT64_C(1) << 63)         /* Svnapot */
#define PTE_PBMT (UINT64_C(3) << 61)      /* Svpbmt: 0 PMA, 1 NC, 2 IO, 3 reserved */
#define PTE_RESERVED (UINT64_C(0x7f) << 54)

/* Bits 63:54 of a valid PTE: the reserved ones must be zero; PBMT only in a leaf and only with
 * the envcfg's PBMTE (the memory type itself changes nothing here: the emulator has no cache of
 * device memory to bypass); N only in a leaf of the last level whose PPN[3:0] is 1000, a 64 KiB
 * NAPOT page (the only size Svnapot defines).  False: a page fault. */
static bool pte_high_bits_ok(uint64_t pte, bool leaf, int level, bool pbmte)
{
    if (pte & PTE_RESERVED)
        return false;
    if ((pte & PTE_PBMT) && (!leaf || !pbmte || (pte & PTE_PBMT) == PTE_PBMT))
        return false;
    if ((pte & PTE_N) && (!leaf || level != 0 || ((pte >> 10) & 0xf) != 0x8))
        return false;
    return true;
}

/* The leaf's physical page bits for va: a NAPOT PTE maps 16 pages with PPN[3:0] from va. */
static uint64_t leaf_ppn(uint64_t pte, uint64_t ppn, uint64_t va)
{
    return (pte & PTE_N) ? (ppn & ~UINT64_C(0xf)) | ((va >> 12) & 0xf) : ppn;
}

/* One PTE read or write on the bus, PMP-checked as an S-mode implicit access. */
static int pte_access(mt_cpu *cpu, uint64_t pa, uint64_t *pte, bool write, int acc)
{
    uint8_t *page = NULL;
    if (!pmp_allows(cpu, pa, 8, write ? PMP_W : PMP_R, PRV_S) ||
        !(page = write ? bus_page_for_write(cpu->bus, pa) : bus_page_for_read(cpu->bus, pa))) {
        cpu->hyp.implicit_fault = true; /* mtinst/htinst: not the instruction's own access */
        return access_fault(acc);
    }
    if (write) { /* a PTE in a code page: keep decoded instructions coherent */
        memcpy(page + (pa & 0xfff), pte, 8);
        if (cpu_dpage_lookup(cpu, pa & ~UINT64_C(0xfff)))
            cpu_code_written(cpu, pa, 8);
    } else {
        memcpy(pte, page + (pa & 0xfff), 8);
    }
    cpu_access(cpu, pa, 8, write, MT_KIND_PTW);
    return EXC_NONE;
}

/* The pseudoinstructions mtinst/htinst report for a guest-page fault of an implicit VS-stage
 * page-table access (privileged spec, "Transformed Instruction or Pseudoinstruction"): a
 * 64-bit read (walk) or write (A/D update). */
#define TINST_PSEUDO_READ64 UINT32_C(0x3000)
#define TINST_PSEUDO_WRITE64 UINT32_C(0x3020)

/* Stage 2: guest-physical -> host-physical (hgatp: Sv39x4 / Sv48x4; the identity for V=0 or
 * Bare).  The same walk as stage 1 with a root 2 bits wider (16 KiB, 2048 entries), every
 * access checked as U-mode (U required on the leaf).  `acc` is the permission checked (need_x:
 * X instead of R, HLVX's own read), `fault` the access type a guest-page fault reports
 * (implicit VS-stage PTE accesses report the original access type), `pseudo` the
 * pseudoinstruction of an implicit access (0: the instruction's own access).  A fault records
 * the guest-physical address for htval/mtval2 and the pseudoinstruction for htinst/mtinst. */
static int gstage(mt_cpu *cpu, const xlate_ctx *x, uint64_t gpa, int acc, bool need_x, int fault, uint32_t pseudo,
                  uint64_t *hpa)
{
    unsigned mode = (unsigned)(cpu->hyp.hgatp >> SATP_MODE_SHIFT);
    if (!x->two_stage || mode == SATP_MODE_BARE) {
        *hpa = gpa;
        return EXC_NONE;
    }
    int levels = mode == HGATP_MODE_SV48X4 ? 4 : 3;
    cpu->hyp.fault_gpa = gpa;
    cpu->hyp.fault_pseudo = pseudo;
    if (gpa >> (12 + 9 * levels + 2))
        return guest_page_fault(fault);
    uint64_t table = (cpu->hyp.hgatp & SATP_PPN_MASK & ~UINT64_C(3)) << 12;
    for (int level = levels - 1; level >= 0; level--) {
        uint64_t index_mask = level == levels - 1 ? 0x7ff : 0x1ff, pte;
        uint64_t pte_pa = table + ((gpa >> (12 + 9 * level)) & index_mask) * 8;
        int e = pte_access(cpu, pte_pa, &pte, false, fault);
        if (e != EXC_NONE)
            return e;
        if (!(pte & PTE_V) || ((pte & (PTE_R | PTE_W)) == PTE_W) ||
            !pte_high_bits_ok(pte, (pte & (PTE_R | PTE_X)) != 0, level, x->gpbmte))
            return guest_page_fault(fault);
        uint64_t ppn = (pte >> 10) & ((UINT64_C(1) << 44) - 1);
        if (!(pte & (PTE_R | PTE_X))) {
            table = ppn << 12;
            continue;
        }
        ppn = leaf_ppn(pte, ppn, gpa);
        bool ok = (pte & PTE_U) &&
                  (acc == ACC_X || need_x ? (pte & PTE_X) : acc == ACC_W ? (pte & PTE_W)
                                                    : ((pte & PTE_R) || (x->gmxr && (pte & PTE_X))));
        uint64_t low_mask = (UINT64_C(1) << (9 * level)) - 1;
        if (!ok || (ppn & low_mask))
            return guest_page_fault(fault);
        uint64_t want = PTE_A | (acc == ACC_W ? PTE_D : 0);
        if ((pte & want) != want) {
            pte |= want;
            if ((e = pte_access(cpu, pte_pa, &pte, true, fault)) != EXC_NONE)
                return e;
        }
        *hpa = ((ppn & ~low_mask) << 12) | (gpa & ((UINT64_C(1) << (12 + 9 * level)) - 1));
        return EXC_NONE;
    }
    return guest_page_fault(fault);
}

/* Stage 2 where it is the identity (V=0, the usual case) without the call: every level of a
 * walk comes here. */
static inline int stage2(mt_cpu *cpu, const xlate_ctx *x, uint64_t gpa, int acc, bool need_x, int fault,
                         uint32_t pseudo, uint64_t *hpa)
{
    if (!x->two_stage) {
        *hpa = gpa;
        return EXC_NONE;
    }
    return gstage(cpu, x, gpa, acc, need_x, fault, pseudo, hpa);
}

/* Stage 1 (satp or vsatp: Sv39 / Sv48), each PTE address and the result through stage 2. */
static int translate(mt_cpu *cpu, const xlate_ctx *x, uint64_t va, int acc, int priv, uint64_t *pa)
{
    unsigned mode = (unsigned)(x->satp >> SATP_MODE_SHIFT);
    if (priv == PRV_M || mode == SATP_MODE_BARE)
        return stage2(cpu, x, va, acc, x->hlvx, acc, 0, pa);
    int levels = mode == SATP_MODE_SV48 ? 4 : 3;
    int vabits = 12 + 9 * levels;
    /* bits above the VA width must all equal its top bit */
    int64_t top = (int64_t)va >> (vabits - 1);
    if (top != 0 && top != -1)
        return page_fault(acc);
    uint64_t table = (x->satp & SATP_PPN_MASK) << 12;
    for (int level = levels - 1; level >= 0; level--) {
        uint64_t pte_gpa = table + ((va >> (12 + 9 * level)) & 0x1ff) * 8, pte_pa, pte;
        int e = stage2(cpu, x, pte_gpa, ACC_R, false, acc, TINST_PSEUDO_READ64, &pte_pa);
        if (e != EXC_NONE)
            return e;
        if ((e = pte_access(cpu, pte_pa, &pte, false, acc)) != EXC_NONE)
            return e;
        if (!(pte & PTE_V) || ((pte & (PTE_R | PTE_W)) == PTE_W) ||
            !pte_high_bits_ok(pte, (pte & (PTE_R | PTE_X)) != 0, level, x->pbmte))
            return page_fault(acc);
        uint64_t ppn = (pte >> 10) & ((UINT64_C(1) << 44) - 1);
        if (!(pte & (PTE_R | PTE_X))) { /* pointer to the next level */
            table = ppn << 12;
            continue;
        }
        ppn = leaf_ppn(pte, ppn, va);
        /* leaf */
        if (pte & PTE_U) {
            if (priv == PRV_S && (acc == ACC_X || !x->sum))
                return page_fault(acc);
        } else if (priv == PRV_U) {
            return page_fault(acc);
        }
        bool ok = acc == ACC_X || x->hlvx ? (pte & PTE_X) : acc == ACC_W ? (pte & PTE_W) : ((pte & PTE_R) || (x->mxr && (pte & PTE_X)));
        if (!ok)
            return page_fault(acc);
        uint64_t low_mask = (UINT64_C(1) << (9 * level)) - 1;
        if (ppn & low_mask) /* misaligned superpage */
            return page_fault(acc);
        uint64_t want = PTE_A | (acc == ACC_W ? PTE_D : 0);
        if ((pte & want) != want) { /* hardware A/D update, as QEMU and the spec allow */
            pte |= want;
            /* a guest's PTE write needs G-stage write permission on its page table */
            if (x->two_stage && (e = gstage(cpu, x, pte_gpa, ACC_W, false, acc, TINST_PSEUDO_WRITE64, &pte_pa)) != EXC_NONE)
                return e;
            if ((e = pte_access(cpu, pte_pa, &pte, true, acc)) != EXC_NONE)
                return e;
        }
        uint64_t gpa = ((ppn & ~low_mask) << 12) | (va & ((UINT64_C(1) << (12 + 9 * level)) - 1));
        return stage2(cpu, x, gpa, acc, x->hlvx, acc, 0, pa);
    }
    return page_fault(acc);
}

/* The context of an access: `virt` says whether it is a guest's (two stages).  With V=1 the S
 * registers hold VS's values; a guest access made while V=0 (M-mode MPRV with MPV, HLV/HSV)
 * finds them in cpu->hyp.alt_*. */
static xlate_ctx make_ctx(const mt_cpu *cpu, bool virt, bool hlvx)
{
    xlate_ctx x = {.satp = cpu->satp, .sum = (cpu->mstatus & MSTATUS_SUM) != 0,
                   .mxr = (cpu->mstatus & MSTATUS_MXR) != 0, .hlvx = hlvx,
                   .pbmte = (cpu->menvcfg & ENVCFG_PBMTE) != 0, .gpbmte = (cpu->menvcfg & ENVCFG_PBMTE) != 0};
    if (virt) {
        x.pbmte = (cpu->hyp.henvcfg & ENVCFG_PBMTE) != 0; /* the VS-stage: the hypervisor's enable */
        bool vs_mxr, hs_mxr;
        x.two_stage = true;
        if (cpu->hyp.virt) {
            vs_mxr = x.mxr;
            hs_mxr = (cpu->hyp.alt_status & MSTATUS_MXR) != 0;
        } else {
            x.satp = cpu->hyp.alt_satp;
            x.sum = (cpu->hyp.alt_status & MSTATUS_SUM) != 0;
            vs_mxr = (cpu->hyp.alt_status & MSTATUS_MXR) != 0;
            hs_mxr = x.mxr;
        }
        x.mxr = vs_mxr || hs_mxr; /* HS's MXR applies to both stages, vsstatus.MXR to VS only */
        x.gmxr = hs_mxr;
    }
    return x;
}

int mmu_translate(mt_cpu *cpu, uint64_t va, int acc, int priv, uint64_t *pa)
{
    bool virt = acc == ACC_X ? cpu->hyp.virt : cpu->hyp.data_virt;
    xlate_ctx x = make_ctx(cpu, virt, false);
    return translate(cpu, &x, va, acc, priv, pa);
}

int mmu_translate_guest(mt_cpu *cpu, uint64_t va, int acc, int priv, bool hlvx, uint64_t *pa)
{
    xlate_ctx x = make_ctx(cpu, true, hlvx);
    return translate(cpu, &x, va, acc, priv, pa);
}

static unsigned perm_of(int acc) { return acc == ACC_X ? PMP_X : acc == ACC_W ? PMP_W : PMP_R; }

int mmu_fetch_page(mt_cpu *cpu, uint64_t va, mt_dpage **dp_out)
{
    uint64_t pa;
    int e = mmu_translate(cpu, va, ACC_X, cpu->priv, &pa);
    if (e != EXC_NONE)
        return e;
    uint64_t page = pa & ~UINT64_C(0xfff);
    int perms = pmp_page_perms(cpu, page, cpu->priv);
    bool cacheable = perms >= 0;
    if (perms < 0 ? !pmp_allows(cpu, pa, 2, PMP_X, cpu->priv) : !(perms & PMP_X))
        return EXC_INSN_ACCESS;
    if (!bus_is_memory(cpu->bus, pa)) /* no host pointer: with meta-paging that is an access */
        return EXC_INSN_ACCESS;
    mt_dpage *dp = cpu_dpage_lookup(cpu, page);
    if (!dp)
        dp = cpu_dpage_create(cpu, page);
    if (cacheable) {
        mt_itlb_entry *t = &cpu->cur_itlb[(va >> 12) & (TLB_SIZE - 1)];
        t->tag = va & ~UINT64_C(0xfff);
        t->pa = page;
        t->dp = dp;
        cpu->itlb_used |= 1u << cpu->iset;
        cpu->tlb_fills++;
    }
    *dp_out = dp;
    return EXC_NONE;
}

int mmu_fetch_parcel(mt_cpu *cpu, uint64_t va, uint16_t *parcel)
{
    uint64_t pa;
    int e = mmu_translate(cpu, va, ACC_X, cpu->priv, &pa);
    if (e != EXC_NONE)
        return e;
    if (!pmp_allows(cpu, pa, 2, PMP_X, cpu->priv))
        return EXC_INSN_ACCESS;
    uint8_t *page = bus_page_for_read(cpu->bus, pa);
    if (!page)
        return EXC_INSN_ACCESS;
    memcpy(parcel, page + (pa & 0xfff), 2);
    cpu_fetch_access(cpu, pa, 2);
    return EXC_NONE;
}

/* PMP for one translated piece inside one page: *perms_out is the page's uniform permissions
 * (-1: a PMP boundary inside the page, checked byte-exactly here and never cached). */
static int piece_pmp(mt_cpu *cpu, uint64_t pa, unsigned size, int acc, int priv, int *perms_out)
{
    int perms = pmp_page_perms(cpu, pa & ~UINT64_C(0xfff), priv);
    unsigned need = perm_of(acc);
    if (perms < 0 ? !pmp_allows(cpu, pa, size, need, priv) : !((unsigned)perms & need))
        return access_fault(acc);
    *perms_out = perms;
    return EXC_NONE;
}

/* Translates and checks one piece that lies inside one page (no host pointer yet: with a
 * meta-paged RAM, asking for one is an access that may fault a metapage in). */
static int piece_translate(mt_cpu *cpu, uint64_t va, unsigned size, int acc, uint64_t *pa_out, int *perms_out)
{
    uint64_t pa;
    int priv = cpu->data_priv;
    int e = mmu_translate(cpu, va, acc, priv, &pa);
    if (e != EXC_NONE)
        return e;
    *pa_out = pa;
    return piece_pmp(cpu, pa, size, acc, priv, perms_out);
}

/* Whether entry e holds a translation (read, write or both, its pointer stale or not) of the
 * page-aligned virtual address `page`. */
static bool tlb_holds(const mt_dtlb_entry *e, uint64_t page)
{
    return (e->tag_r & ~TLB_STALE) == page || (e->tag_w & ~TLB_STALE) == page;
}

/* A miss in set `set`: if its victim buffer holds va's page, that translation swaps places with
 * the one in va's slot (which becomes the victim), so the caller's hit test finds it. */
static void tlb_victim_promote(mt_cpu *cpu, int set, uint64_t va)
{
    uint64_t page = va & ~UINT64_C(0xfff);
    mt_dtlb_entry *row = cpu->dtlb[set];
    /* A set holds at most one translation of a page (tlb_fill), so when va's slot has it the
     * buffer has not: the usual case of the slow paths that come here on a hit (F/D loads and
     * stores outside interpreter_runs' in-line ones, a due access) ends without the search. */
    if (tlb_holds(&row[(va >> 12) & (TLB_SIZE - 1)], page))
        return;
    for (unsigned i = TLB_SIZE; i < TLB_ENTRIES; i++)
        if (tlb_holds(&row[i], page)) {
            mt_dtlb_entry *t = &row[(va >> 12) & (TLB_SIZE - 1)], tmp = *t;
            *t = row[i];
            row[i] = tmp;
            return;
        }
}

/* Fills data TLB set `set` with the translation of va's page to the host page p (physical page
 * `page`) for a read or (acc == ACC_W) a write.  Another page's translation in the slot moves
 * to the victim buffer; an older one of this page there is dropped (one translation per page). */
static void tlb_fill(mt_cpu *cpu, int set, uint64_t va, int acc, uint64_t page, uint8_t *p)
{
    mt_dtlb_entry *row = cpu->dtlb[set], *t = &row[(va >> 12) & (TLB_SIZE - 1)];
    uint64_t tag = va & ~UINT64_C(0xfff);
    for (unsigned i = TLB_SIZE; i < TLB_ENTRIES; i++)
        if (tlb_holds(&row[i], tag))
            row[i].tag_r = row[i].tag_w = TLB_INVALID;
    if (!tlb_holds(t, tag)) {
        if (t->tag_r != TLB_INVALID || t->tag_w != TLB_INVALID)
            row[TLB_SIZE + cpu->dtlb_victim_next[set]++ % TLB_VICTIMS] = *t;
        t->tag_r = TLB_INVALID;
        t->tag_w = TLB_INVALID;
    } else if (t->pa != page) { /* remapped without SFENCE: drop the other permission too */
        t->tag_r = TLB_INVALID;
        t->tag_w = TLB_INVALID;
    }
    if (acc == ACC_W)
        t->tag_w = tag;
    else
        t->tag_r = tag;
    t->addend = (uintptr_t)p - (uintptr_t)tag;
    t->pa = page;
    cpu->dtlb_used |= 1u << set;
    cpu->tlb_fills++;
}

/* Whether a TLB entry may hold this page's translation for a write: stores to a code page or the
 * bus's watched page must keep coming to the slow path. */
static bool write_cacheable(mt_cpu *cpu, uint64_t page)
{
    return page != cpu->bus->watch_page && !cpu_dpage_lookup(cpu, page);
}

/* The host pointer for a translated piece (NULL: not memory, i.e. a device); fills the TLB when
 * allowed. */
static uint8_t *piece_host(mt_cpu *cpu, uint64_t va, int acc, uint64_t pa, int perms)
{
    uint64_t page = pa & ~UINT64_C(0xfff);
    uint8_t *p = acc == ACC_W ? bus_page_for_write(cpu->bus, pa) : bus_page_for_read(cpu->bus, pa);
    if (!p || perms < 0)
        return p ? p + (pa & 0xfff) : NULL;
    if (acc == ACC_W && !write_cacheable(cpu, page))
        return p + (pa & 0xfff);
    tlb_fill(cpu, cpu->dset, va, acc, page, p);
    return p + (pa & 0xfff);
}

int mmu_guest_access(mt_cpu *cpu, uint64_t va, unsigned size, bool write, bool hlvx, int priv, int set,
                     uint64_t *pa_out, uint8_t **host)
{
    int acc = write ? ACC_W : ACC_R;
    uint64_t key = va & (~UINT64_C(0xfff) | (size - 1));
    mt_dtlb_entry *t = set >= 0 ? &cpu->dtlb[set][(va >> 12) & (TLB_SIZE - 1)] : NULL;
    if (t) {
        tlb_victim_promote(cpu, set, va);
        uint64_t tag = write ? t->tag_w : t->tag_r;
        uint8_t *p = NULL;
        if (tag == key) { /* a hit */
            *pa_out = t->pa | (va & 0xfff);
            *host = (uint8_t *)(t->addend + (uintptr_t)va);
            return EXC_NONE;
        }
        if (tag == (key | TLB_STALE) && (p = write ? bus_page_for_write(cpu->bus, t->pa) : bus_page_for_read(cpu->bus, t->pa))) {
            (write ? &t->tag_w : &t->tag_r)[0] &= ~TLB_STALE; /* a hit whose host page moved */
            t->addend = (uintptr_t)p - (uintptr_t)(va & ~UINT64_C(0xfff));
            *pa_out = t->pa | (va & 0xfff);
            *host = p + (va & 0xfff);
            return EXC_NONE;
        }
    }
    uint64_t pa;
    int perms, e = mmu_translate_guest(cpu, va, acc, priv, hlvx, &pa);
    if (e == EXC_NONE)
        e = piece_pmp(cpu, pa, size, acc, priv, &perms);
    if (e != EXC_NONE)
        return e;
    uint64_t page = pa & ~UINT64_C(0xfff);
    uint8_t *p = write ? bus_page_for_write(cpu->bus, pa) : bus_page_for_read(cpu->bus, pa);
    if (p && t && perms >= 0 && (!write || write_cacheable(cpu, page)))
        tlb_fill(cpu, set, va, acc, page, p);
    *pa_out = pa;
    *host = p ? p + (pa & 0xfff) : NULL;
    return EXC_NONE;
}

/* Translates and checks one piece that lies inside one page; fills the TLB when allowed.
 * *host is the host pointer for memory, or NULL for a device. */
static int data_piece(mt_cpu *cpu, uint64_t va, unsigned size, int acc, uint64_t *pa_out, uint8_t **host)
{
    int perms;
    int e = piece_translate(cpu, va, size, acc, pa_out, &perms);
    if (e != EXC_NONE)
        return e;
    *host = piece_host(cpu, va, acc, *pa_out, perms);
    return EXC_NONE;
}

static int mmio_fault(int acc) { return access_fault(acc); }

/* A load or store of 1, 2, 4 or 8 bytes at a host pointer, as constant-size copies (a copy of a
 * variable size is a call of the C library's memcpy): the slow paths' hits, F/D's loads and
 * stores among them (x86 hosts are little-endian, as the guest). */
static inline uint64_t host_read_le(const uint8_t *p, unsigned size)
{
    uint8_t b;
    uint16_t h;
    uint32_t w;
    uint64_t d;
    switch (size) {
    case 1: memcpy(&b, p, 1); return b;
    case 2: memcpy(&h, p, 2); return h;
    case 4: memcpy(&w, p, 4); return w;
    case 8: memcpy(&d, p, 8); return d;
    default: d = 0; memcpy(&d, p, size); return d;
    }
}
static inline void host_write_le(uint8_t *p, unsigned size, uint64_t v)
{
    uint8_t b = (uint8_t)v;
    uint16_t h = (uint16_t)v;
    uint32_t w = (uint32_t)v;
    switch (size) {
    case 1: memcpy(p, &b, 1); break;
    case 2: memcpy(p, &h, 2); break;
    case 4: memcpy(p, &w, 4); break;
    default: memcpy(p, &v, size); break;
    }
}

/* The fast paths' hit condition after the fast path missed: on a translation the victim buffer
 * gave back, or on an entry whose host pointer was dropped (refetched here), do what the fast
 * path does (no walk, no fill), so that neither the buffer nor a meta-pager's eviction changes
 * an access. */
static inline __attribute__((always_inline)) uint8_t *cached_hit(mt_cpu *cpu, uint64_t va, unsigned size, bool write,
                                                                 uint64_t *pa)
{
    mt_dtlb_entry *t = &cpu->cur_dtlb[(va >> 12) & (TLB_SIZE - 1)];
    uint64_t key = va & (~UINT64_C(0xfff) | (size - 1));
    uint64_t *tag = write ? &t->tag_w : &t->tag_r;
    /* the slot's own hit first: with it the victim buffer cannot hold the page (one translation
     * per page), so the promotion below would do nothing */
    if (likely(*tag == key)) {
        *pa = t->pa | (va & 0xfff);
        return (uint8_t *)(t->addend + (uintptr_t)va);
    }
    tlb_victim_promote(cpu, cpu->dset, va);
    if (*tag == key) {
        *pa = t->pa | (va & 0xfff);
        return (uint8_t *)(t->addend + (uintptr_t)va);
    }
    key |= TLB_STALE;
    if (*tag != key)
        return NULL;
    uint8_t *p = write ? bus_page_for_write(cpu->bus, t->pa) : bus_page_for_read(cpu->bus, t->pa);
    if (!p)
        return NULL;
    *tag &= ~TLB_STALE;
    t->addend = (uintptr_t)p - (uintptr_t)(va & ~UINT64_C(0xfff));
    *pa = t->pa | (va & 0xfff);
    return p + (va & 0xfff);
}

int mem_load_slow(mt_cpu *cpu, uint64_t va, unsigned size, uint64_t *val)
{
    uint64_t spa;
    const uint8_t *sp = cached_hit(cpu, va, size, false, &spa);
    if (sp) {
        uint64_t v = host_read_le(sp, size);
        cpu_access(cpu, spa, size, 0, MT_KIND_LOAD);
        *val = v;
        return EXC_NONE;
    }
    unsigned first = size;
    if (((va & 0xfff) + size) > 0x1000)
        first = (unsigned)(0x1000 - (va & 0xfff));
    uint64_t result = 0;
    for (unsigned done = 0; done < size;) {
        unsigned n = done == 0 ? first : size - done;
        uint64_t pa, part = 0;
        uint8_t *host;
        int e = data_piece(cpu, va + done, n, ACC_R, &pa, &host);
        if (e != EXC_NONE)
            return e;
        if (host) {
            memcpy(&part, host, n);
        } else {
            if ((pa & (n - 1)) || (n & (n - 1)) || !bus_mmio_read(cpu->bus, pa, n, &part))
                return mmio_fault(ACC_R);
        }
        cpu_access(cpu, pa, n, 0, MT_KIND_LOAD);
        result |= part << (8 * done);
        done += n;
    }
    *val = result;
    return EXC_NONE;
}

int mem_store_slow(mt_cpu *cpu, uint64_t va, unsigned size, uint64_t val)
{
    uint64_t spa;
    uint8_t *sp = cached_hit(cpu, va, size, true, &spa);
    if (sp) {
        host_write_le(sp, size, val);
        cpu_access(cpu, spa, size, 1, MT_KIND_STORE);
        return EXC_NONE;
    }
    unsigned first = size;
    if (((va & 0xfff) + size) > 0x1000)
        first = (unsigned)(0x1000 - (va & 0xfff));
    /* translate every piece before writing any, so a fault leaves memory untouched; take the
     * host pointers only when writing (a meta-paged RAM counts that as the access) */
    uint64_t pa[2];
    int perms[2];
    unsigned len[2] = {first, size - first};
    int pieces = first == size ? 1 : 2;
    for (int i = 0; i < pieces; i++) {
        int e = piece_translate(cpu, va + (i ? first : 0), len[i], ACC_W, &pa[i], &perms[i]);
        if (e != EXC_NONE)
            return e;
        bool memory = ram_contains(cpu->bus->ram, pa[i], 1);
        if (!memory && ((pa[i] & (len[i] - 1)) || (len[i] & (len[i] - 1))))
            return mmio_fault(ACC_W);
    }
    for (int i = 0; i < pieces; i++) {
        uint64_t part = i ? val >> (8 * first) : val;
        uint8_t *host = piece_host(cpu, va + (i ? first : 0), ACC_W, pa[i], perms[i]);
        if (host) {
            memcpy(host, &part, len[i]);
            uint64_t page = pa[i] & ~UINT64_C(0xfff);
            if (cpu_dpage_lookup(cpu, page))
                cpu_code_written(cpu, pa[i], len[i]);
            cpu_access(cpu, pa[i], len[i], 1, MT_KIND_STORE);
            if (page == cpu->bus->watch_page && cpu->bus->watch)
                cpu->bus->watch(cpu->bus->watch_ctx, pa[i], len[i]);
        } else {
            if (!bus_mmio_write(cpu->bus, pa[i], len[i], part))
                return mmio_fault(ACC_W);
            cpu_access(cpu, pa[i], len[i], 1, MT_KIND_STORE);
        }
    }
    return EXC_NONE;
}

static uint64_t amo_compute(unsigned op, uint64_t old, uint64_t src, bool word)
{
    if (word) {
        old = (uint64_t)(int64_t)(int32_t)old;
        src = (uint64_t)(int64_t)(int32_t)src;
    }
    switch (op) {
    case OP_AMOSWAP_W: case OP_AMOSWAP_D: return src;
    case OP_AMOADD_W: case OP_AMOADD_D: return old + src;
    case OP_AMOXOR_W: case OP_AMOXOR_D: return old ^ src;
    case OP_AMOAND_W: case OP_AMOAND_D: return old & src;
    case OP_AMOOR_W: case OP_AMOOR_D: return old | src;
    case OP_AMOMIN_W: case OP_AMOMIN_D: return (int64_t)old < (int64_t)src ? old : src;
    case OP_AMOMAX_W: case OP_AMOMAX_D: return (int64_t)old > (int64_t)src ? old : src;
    case OP_AMOMINU_W: return (uint32_t)old < (uint32_t)src ? old : src;
    case OP_AMOMAXU_W: return (uint32_t)old > (uint32_t)src ? old : src;
    case OP_AMOMINU_D: return old < src ? old : src;
    default: /* OP_AMOMAXU_D */ return old > src ? old : src;
    }
}

int mem_atomic(mt_cpu *cpu, unsigned op, uint64_t va, uint64_t src, uint64_t *result)
{
    bool word = op == OP_LR_W || op == OP_SC_W || (op >= OP_AMOSWAP_W && op <= OP_AMOMAXU_W);
    unsigned size = word ? 4 : 8;
    bool lr = op == OP_LR_W || op == OP_LR_D, sc = op == OP_SC_W || op == OP_SC_D;
    if (va & (size - 1))
        return lr ? EXC_LOAD_MISALIGNED : EXC_STORE_MISALIGNED;
    /* an SC without its reservation fails, but only after the checks a store makes: its page
     * and access faults come first (as on Spike; the hypervisor tests expect the fault) */
    int acc = lr ? ACC_R : ACC_W;
    uint64_t pa;
    int e = mmu_translate(cpu, va, acc, cpu->data_priv, &pa);
    if (e != EXC_NONE)
        return e;
    if (!pmp_allows(cpu, pa, size, lr ? PMP_R : (sc ? PMP_W : PMP_R | PMP_W), cpu->data_priv))
        return access_fault(acc);
    if (sc && (!cpu->resv_valid || cpu->resv_addr != va)) {
        cpu->resv_valid = false;
        *result = 1;
        return EXC_NONE;
    }
    uint8_t *page = lr ? bus_page_for_read(cpu->bus, pa) : bus_page_for_write(cpu->bus, pa);
    if (!page || !ram_contains(cpu->bus->ram, pa, size))
        return access_fault(acc); /* atomics on devices or ROM are not supported */
    uint8_t *p = page + (pa & 0xfff);
    uint64_t old = 0;
    memcpy(&old, p, size);
    if (word)
        old = (uint64_t)(int64_t)(int32_t)old;
    if (lr) {
        cpu->resv_valid = true;
        cpu->resv_addr = va;
        *result = old;
        cpu_access(cpu, pa, size, 0, MT_KIND_LOAD);
        return EXC_NONE;
    }
    uint64_t nv = sc ? src : amo_compute(op, old, src, word);
    memcpy(p, &nv, size);
    if (cpu_dpage_lookup(cpu, pa & ~UINT64_C(0xfff)))
        cpu_code_written(cpu, pa, size);
    if (sc) {
        cpu->resv_valid = false;
        *result = 0;
        cpu_access(cpu, pa, size, 1, MT_KIND_STORE);
    } else {
        *result = old;
        cpu_access(cpu, pa, size, 1, MT_KIND_AMO);
    }
    if ((pa & ~UINT64_C(0xfff)) == cpu->bus->watch_page && cpu->bus->watch)
        cpu->bus->watch(cpu->bus->watch_ctx, pa, size);
    return EXC_NONE;
}
