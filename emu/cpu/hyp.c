/* The H extension (privileged spec, "Hypervisor Extension"): see emu/cpu/hyp.h for the design. */
#include "emu/cpu/hyp.h"

#include <string.h>

#include "emu/platform/bus.h"
#include "emu/cpu/cpu.h"
#include "emu/cpu/cbo.h"
#include "emu/cpu/csr.h"
#include "emu/cpu/decode.h"
#include "emu/cpu/mmu.h"
#include "emu/cpu/pmp.h"

/* the sstatus fields that have a VS copy (vsstatus) */
#define HYP_SWAP_STATUS (MSTATUS_SIE | MSTATUS_SPIE | MSTATUS_SPP | MSTATUS_SUM | MSTATUS_MXR | MSTATUS_FS)
#define HSTATUS_WRITABLE (HSTATUS_GVA | HSTATUS_SPV | HSTATUS_SPVP | HSTATUS_HU | HSTATUS_VTVM | HSTATUS_VTW | HSTATUS_VTSR)
/* exceptions a hypervisor may hand to VS: not ecalls from HS/VS/M, not guest-page faults or
 * virtual-instruction exceptions (those are the hypervisor's own business) */
#define HEDELEG_WRITABLE UINT64_C(0xb1ff)

static void swap64(uint64_t *a, uint64_t *b)
{
    uint64_t t = *a;
    *a = *b;
    *b = t;
}

/* Switches V, exchanging the S registers with their other-world copies. */
static void set_virt(mt_cpu *c, bool v)
{
    mt_hyp *h = &c->hyp;
    if (h->virt == v)
        return;
    uint64_t active = c->mstatus & HYP_SWAP_STATUS;
    uint64_t other = h->alt_status & HYP_SWAP_STATUS;
    /* the guest's FP state lives in the hart's F registers: dirty for VS is dirty for HS too */
    if (!v && ((active & MSTATUS_FS) >> MSTATUS_FS_SHIFT) == FS_DIRTY)
        other |= MSTATUS_FS;
    c->mstatus = (c->mstatus & ~HYP_SWAP_STATUS) | other;
    h->alt_status = active;
    swap64(&c->stvec, &h->alt_stvec);
    swap64(&c->sscratch, &h->alt_sscratch);
    swap64(&c->sepc, &h->alt_sepc);
    swap64(&c->scause, &h->alt_scause);
    swap64(&c->stval, &h->alt_stval);
    swap64(&c->satp, &h->alt_satp);
    h->virt = v;
}

/* The guest data TLB set for an access at privilege priv (S or U) under the VS's sstatus
 * fields `vs` (vsstatus: SUM, MXR), as cpu_update_priv_ctx keys the host sets. */
static int guest_dset(int priv, uint64_t vs)
{
    int mxr = (vs & MSTATUS_MXR) != 0, sum = (vs & MSTATUS_SUM) != 0;
    return DTLB_HOST_SETS + (priv == PRV_S ? 2 + sum + 2 * mxr : mxr);
}

void hyp_update_ctx(mt_cpu *c)
{
    mt_hyp *h = &c->hyp;
    bool mprv_virt = c->priv == PRV_M && (c->mstatus & MSTATUS_MPRV) && (c->mstatus & MSTATUS_MPV) &&
                     ((c->mstatus & MSTATUS_MPP) >> MSTATUS_MPP_SHIFT) != PRV_M;
    h->data_virt = h->virt || mprv_virt;
    /* HS's MXR widens the G-stage's reads too, which the sets' keys (the VS's SUM/MXR) do not
     * see: entries filled under another value are dropped */
    bool gmxr = ((h->virt ? h->alt_status : c->mstatus) & MSTATUS_MXR) != 0;
    if (gmxr != h->gmxr) {
        cpu_flush_tlb_sets(c, DTLB_GUEST_MASK, 0);
        h->gmxr = gmxr;
    }
    if (h->data_virt) { /* the VS's sstatus is the active one with V=1, alt_status with V=0 */
        c->dset = guest_dset(c->data_priv, h->virt ? c->mstatus : h->alt_status);
        c->cur_dtlb = c->dtlb[c->dset];
    }
    if (h->virt) {
        c->iset = c->priv + 4;
        c->cur_itlb = c->itlb[c->iset];
    }
}

/* ---- traps and interrupts ------------------------------------------------------------ */

/* The 32-bit load or store a compressed one expands to, as far as the transformed instruction
 * keeps it (opcode, funct3, rd or rs2; the offset and base are cleared anyway); 0 for the
 * compressed instructions that do not access memory. */
static uint32_t expand_compressed_access(uint32_t c)
{
    unsigned q = c & 3, f3 = (c >> 13) & 7;
    uint32_t rd_p = ((c >> 2) & 7) + 8, rd = (c >> 7) & 0x1f, rs2 = (c >> 2) & 0x1f;
    /* funct3 -> (opcode, width): 1 FLD/FSD, 2 LW/SW, 3 LD/SD; 5-7 the stores */
    static const uint32_t op_of[8] = {0, 0x07, 0x03, 0x03, 0, 0x27, 0x23, 0x23};
    static const uint32_t w_of[8] = {0, 3, 2, 3, 0, 3, 2, 3};
    if ((q != 0 && q != 2) || !op_of[f3])
        return 0;
    if (q == 2 && f3 < 4 && rd == 0 && f3 != 1)
        return 0; /* C.LWSP/C.LDSP with rd = 0: reserved */
    uint32_t reg = q == 0 ? rd_p : f3 < 4 ? rd : rs2;
    uint32_t out = op_of[f3] | w_of[f3] << 12;
    return f3 < 4 ? out | reg << 7 : out | reg << 20;
}

uint32_t hyp_transform_insn(uint32_t bits)
{
    bool compressed = (bits & 3) != 3;
    uint32_t i = compressed ? expand_compressed_access(bits & 0xffff) : bits;
    uint32_t t;
    switch (i & 0x7f) {
    case 0x03: case 0x07: /* loads: the immediate and rs1 go */
        t = i & 0x000fffffu & ~(0x1fu << 15);
        break;
    case 0x23: case 0x27: /* stores: both immediate fields and rs1 go */
        t = i & 0x01f0707fu;
        break;
    case 0x2f: /* AMO, LR, SC: only rs1 goes */
        t = i & ~(0x1fu << 15);
        break;
    case 0x73: /* HLV/HLVX/HSV (SYSTEM, funct3 4): only rs1 goes */
        if (((i >> 12) & 7) != 4)
            return 0;
        t = i & ~(0x1fu << 15);
        break;
    default:
        return 0;
    }
    return compressed ? t & ~UINT32_C(2) : t;
}

/* Exceptions whose tval is a virtual address (GVA says whether it is a guest's). */
static bool tval_is_address(uint64_t code)
{
    switch (code) {
    case EXC_INSN_MISALIGNED: case EXC_INSN_ACCESS: case EXC_LOAD_MISALIGNED: case EXC_LOAD_ACCESS:
    case EXC_STORE_MISALIGNED: case EXC_STORE_ACCESS: case EXC_INSN_PAGE: case EXC_LOAD_PAGE:
    case EXC_STORE_PAGE: case EXC_INSN_GUEST_PAGE: case EXC_LOAD_GUEST_PAGE: case EXC_STORE_GUEST_PAGE:
        return true;
    default:
        return false;
    }
}

/* Trap entry into S with the registers that are active now (HS's with V=0, VS's with V=1). */
static void enter_s(mt_cpu *c, uint64_t cause, uint64_t tval, int from_priv)
{
    bool irq = (cause & CAUSE_INTERRUPT) != 0;
    uint64_t code = cause & ~CAUSE_INTERRUPT;
    c->scause = cause;
    c->sepc = c->pc;
    c->stval = tval;
    uint64_t s = c->mstatus & ~(MSTATUS_SPP | MSTATUS_SPIE | MSTATUS_SIE);
    if (from_priv == PRV_S)
        s |= MSTATUS_SPP;
    if (c->mstatus & MSTATUS_SIE)
        s |= MSTATUS_SPIE;
    c->mstatus = s;
    c->priv = PRV_S;
    c->pc = (c->stvec & ~UINT64_C(3)) + ((irq && (c->stvec & 3) == 1) ? 4 * code : 0);
}

void hyp_take_trap(mt_cpu *c, uint64_t cause, uint64_t tval)
{
    mt_hyp *h = &c->hyp;
    bool irq = (cause & CAUSE_INTERRUPT) != 0;
    uint64_t code = cause & ~CAUSE_INTERRUPT;
    bool v = h->virt;
    int from = c->priv;
    bool gva = !irq && tval_is_address(code) && (v || h->hlv);
    h->hlv = false;
    bool guest_fault = !irq && (code == EXC_INSN_GUEST_PAGE || code == EXC_LOAD_GUEST_PAGE || code == EXC_STORE_GUEST_PAGE);
    uint64_t gpa2 = guest_fault ? h->fault_gpa >> 2 : 0;
    /* mtinst/htinst: a guest-page fault of an implicit VS-stage access reports its
     * pseudoinstruction, the other load/store faults the transformed instruction */
    uint32_t tinst = 0;
    if (!irq && hyp_tinst_cause((int)code) && !h->implicit_fault) /* an access fault of a walk: 0 */
        tinst = guest_fault && h->fault_pseudo ? h->fault_pseudo : hyp_transform_insn(h->trap_insn);
    else if (!irq && code == EXC_INSN_GUEST_PAGE)
        tinst = h->fault_pseudo;
    h->trap_insn = 0;
    h->implicit_fault = false;
    /* VS-level interrupts are always delegated past M (mideleg bits read-only one) */
    uint64_t mdeleg = irq ? (c->mideleg | MIP_VS_MASK) : c->medeleg;
    bool to_s = from <= PRV_S && code < 64 && ((mdeleg >> code) & 1);
    if (to_s && v && code < 64 && (((irq ? h->hideleg : h->hedeleg) >> code) & 1)) {
        /* to VS: a VS-level interrupt is reported as the matching S-level one */
        if (irq)
            cause = CAUSE_INTERRUPT | (code - 1);
        enter_s(c, cause, tval, from);
    } else if (to_s) {
        uint64_t hs = h->hstatus & ~(HSTATUS_SPV | HSTATUS_GVA);
        if (v)
            hs = (hs & ~HSTATUS_SPVP) | HSTATUS_SPV | (from == PRV_S ? HSTATUS_SPVP : 0);
        if (gva)
            hs |= HSTATUS_GVA;
        h->hstatus = hs;
        h->htval = gpa2;
        h->htinst = tinst;
        set_virt(c, false);
        enter_s(c, cause, tval, from);
    } else {
        set_virt(c, false);
        c->mcause = cause;
        c->mepc = c->pc;
        c->mtval = tval;
        h->mtval2 = gpa2;
        h->mtinst = tinst;
        uint64_t s = c->mstatus & ~(MSTATUS_MPP | MSTATUS_MPIE | MSTATUS_MIE | MSTATUS_MPV | MSTATUS_GVA);
        s |= (uint64_t)from << MSTATUS_MPP_SHIFT;
        if (c->mstatus & MSTATUS_MIE)
            s |= MSTATUS_MPIE;
        if (v)
            s |= MSTATUS_MPV;
        if (gva)
            s |= MSTATUS_GVA;
        c->mstatus = s;
        c->priv = PRV_M;
        c->pc = (c->mtvec & ~UINT64_C(3)) + ((irq && (c->mtvec & 3) == 1) ? 4 * code : 0);
    }
    c->wfi = false;
    cpu_update_priv_ctx(c);
}

int hyp_pending_interrupt(const mt_cpu *c)
{
    const mt_hyp *h = &c->hyp;
    uint64_t pend = cpu_mip(c) & c->mie;
    if (!pend)
        return -1;
    uint64_t m = pend & ~(c->mideleg | MIP_VS_MASK);
    uint64_t hs = (pend & c->mideleg) | (pend & MIP_VS_MASK & ~h->hideleg);
    uint64_t vs = pend & MIP_VS_MASK & h->hideleg;
    /* with V=1 the S interrupt-enable bit in mstatus is vsstatus.SIE */
    bool m_on = c->priv < PRV_M || (c->mstatus & MSTATUS_MIE);
    bool hs_on = h->virt || c->priv < PRV_S || (c->priv == PRV_S && (c->mstatus & MSTATUS_SIE));
    bool vs_on = h->virt && (c->priv == PRV_U || (c->mstatus & MSTATUS_SIE));
    uint64_t take = (m && m_on) ? m : (hs && hs_on) ? hs : (vs && vs_on) ? vs : 0;
    if (!take)
        return -1;
    static const int order[] = {IRQ_MEI, IRQ_MSI, IRQ_MTI, IRQ_SEI, IRQ_SSI, IRQ_STI, 12, 10, 2, 6};
    for (unsigned i = 0; i < sizeof order / sizeof order[0]; i++)
        if (take & (UINT64_C(1) << order[i]))
            return order[i];
    return -1;
}

/* ---- xRET and privileged instructions ------------------------------------------------- */

int hyp_check_sret(const mt_cpu *c)
{
    if (c->hyp.virt)
        return c->priv == PRV_U || (c->hyp.hstatus & HSTATUS_VTSR) ? EXC_VIRTUAL_INSN : EXC_NONE;
    return c->priv == PRV_U || (c->priv == PRV_S && (c->mstatus & MSTATUS_TSR)) ? EXC_ILLEGAL : EXC_NONE;
}

int hyp_check_wfi(const mt_cpu *c)
{
    if (c->priv == PRV_M)
        return EXC_NONE;
    if (c->mstatus & MSTATUS_TW)
        return EXC_ILLEGAL;
    if (c->hyp.virt)
        return c->priv == PRV_U || (c->hyp.hstatus & HSTATUS_VTW) ? EXC_VIRTUAL_INSN : EXC_NONE;
    return c->priv == PRV_U ? EXC_ILLEGAL : EXC_NONE;
}

int hyp_check_sfence(const mt_cpu *c)
{
    if (c->hyp.virt)
        return c->priv == PRV_U || (c->hyp.hstatus & HSTATUS_VTVM) ? EXC_VIRTUAL_INSN : EXC_NONE;
    return c->priv == PRV_U || (c->priv == PRV_S && (c->mstatus & MSTATUS_TVM)) ? EXC_ILLEGAL : EXC_NONE;
}

void hyp_sret(mt_cpu *c)
{
    uint64_t s = c->mstatus;
    int spp = (s & MSTATUS_SPP) ? PRV_S : PRV_U;
    s = (s & ~MSTATUS_SIE) | ((s & MSTATUS_SPIE) ? MSTATUS_SIE : 0);
    s |= MSTATUS_SPIE;
    s &= ~(MSTATUS_SPP | MSTATUS_MPRV);
    c->mstatus = s;
    c->pc = c->sepc;
    if (!c->hyp.virt && (c->hyp.hstatus & HSTATUS_SPV)) { /* HS returning into its guest */
        c->hyp.hstatus &= ~HSTATUS_SPV;
        set_virt(c, true);
    }
    c->priv = spp;
    cpu_update_priv_ctx(c);
}

void hyp_mret(mt_cpu *c)
{
    uint64_t s = c->mstatus;
    int mpp = (int)((s & MSTATUS_MPP) >> MSTATUS_MPP_SHIFT);
    bool mpv = mpp != PRV_M && (s & MSTATUS_MPV);
    s = (s & ~MSTATUS_MIE) | ((s & MSTATUS_MPIE) ? MSTATUS_MIE : 0);
    s |= MSTATUS_MPIE;
    s &= ~(MSTATUS_MPP | MSTATUS_MPV); /* U, the least-privileged mode */
    if (mpp != PRV_M)
        s &= ~MSTATUS_MPRV;
    c->mstatus = s;
    c->pc = c->mepc;
    set_virt(c, mpv);
    c->priv = mpp;
    cpu_update_priv_ctx(c);
}

/* ---- CSRs ------------------------------------------------------------------------------ */

static uint64_t status_view(uint64_t fields)
{
    uint64_t s = (fields & HYP_SWAP_STATUS) | (UINT64_C(2) << 32); /* UXL = 64 */
    if (((s & MSTATUS_FS) >> MSTATUS_FS_SHIFT) == FS_DIRTY)
        s |= MSTATUS_SD;
    return s;
}

static bool legal_atp_mode(uint64_t val)
{
    unsigned mode = (unsigned)(val >> SATP_MODE_SHIFT);
    return mode == SATP_MODE_BARE || mode == SATP_MODE_SV39 || mode == SATP_MODE_SV48;
}

/* vsie / vsip: the VS bits of mie / mip that hideleg hands to VS, one position lower */
static uint64_t vs_view(const mt_cpu *c, uint64_t bits) { return (bits & c->hyp.hideleg & MIP_VS_MASK) >> 1; }

/* The VS CSR `csr` (0x2xx) read or written with V=0, or an S CSR redirected while V=1: the
 * register is the active one when V=1, its alternate copy when V=0. */
static uint64_t *vs_reg(mt_cpu *c, unsigned csr)
{
    bool act = c->hyp.virt;
    switch (csr & 0xff) {
    case 0x05: return act ? &c->stvec : &c->hyp.alt_stvec;
    case 0x40: return act ? &c->sscratch : &c->hyp.alt_sscratch;
    case 0x41: return act ? &c->sepc : &c->hyp.alt_sepc;
    case 0x42: return act ? &c->scause : &c->hyp.alt_scause;
    case 0x43: return act ? &c->stval : &c->hyp.alt_stval;
    default: return NULL;
    }
}

bool hyp_csr_read(mt_cpu *c, unsigned csr, uint64_t *val)
{
    mt_hyp *h = &c->hyp;
    uint64_t v;
    switch (csr) {
    case 0x600: v = h->hstatus | HSTATUS_VSXL_64; break;
    case 0x602: v = h->hedeleg; break;
    case 0x603: v = h->hideleg; break;
    case 0x604: v = c->mie & MIP_VS_MASK; break;                        /* hie */
    case 0x605: v = h->htimedelta; break;
    case 0x606: v = h->hcounteren; break;
    case 0x607: v = 0; break;                                           /* hgeie: GEILEN = 0 */
    case 0x60a: v = h->henvcfg; break;
    case 0x24d: v = h->vstimecmp; break;
    case 0x643: v = h->htval; break;
    case 0x644: v = cpu_mip(c) & MIP_VS_MASK; break;                    /* hip */
    case 0x645: v = c->mip_sw & MIP_VS_MASK; break;                     /* hvip */
    case 0x64a: v = h->htinst; break;
    case 0x680: v = h->hgatp; break;
    case 0xe12: v = 0; break;                                           /* hgeip */
    case 0x34a: v = h->mtinst; break;
    case 0x34b: v = h->mtval2; break;
    case 0x200: v = status_view(h->virt ? c->mstatus : h->alt_status); break;
    case 0x204: v = vs_view(c, c->mie); break;
    case 0x244: v = vs_view(c, cpu_mip(c)); break;
    case 0x280: v = h->virt ? c->satp : h->alt_satp; break;
    case 0x205: case 0x240: case 0x241: case 0x242: case 0x243: v = *vs_reg(c, csr); break;
    default: return false;
    }
    *val = v;
    return true;
}

bool hyp_csr_write(mt_cpu *c, unsigned csr, uint64_t v)
{
    mt_hyp *h = &c->hyp;
    switch (csr) {
    case 0x600: h->hstatus = v & HSTATUS_WRITABLE; break;
    case 0x602: h->hedeleg = v & HEDELEG_WRITABLE; break;
    case 0x603: h->hideleg = v & MIP_VS_MASK; break;
    case 0x604: c->mie = (c->mie & ~MIP_VS_MASK) | (v & MIP_VS_MASK); break;
    case 0x605: h->htimedelta = v; cpu_timer_changed(c); break;
    case 0x606: h->hcounteren = v & 0xffffffffu; break;
    case 0x607: break;
    case 0x60a: /* STCE and PBMTE only where menvcfg has them; the CMO fields always (cbo.c) */
        h->henvcfg = (v & (ENVCFG_FIOM | (c->menvcfg & (ENVCFG_PBMTE | ENVCFG_STCE)))) |
                     envcfg_cbo_warl(h->henvcfg, v);
        cpu_flush_tlb(c);
        cpu_timer_changed(c);
        break;
    case 0x24d: h->vstimecmp = v; cpu_timer_changed(c); break;
    case 0x643: h->htval = v; break;
    case 0x644: c->mip_sw = (c->mip_sw & ~MIP_VSSIP) | (v & MIP_VSSIP); break;
    case 0x645: c->mip_sw = (c->mip_sw & ~MIP_VS_MASK) | (v & MIP_VS_MASK); break;
    case 0x64a: h->htinst = v; break;
    case 0x680: {
        unsigned mode = (unsigned)(v >> SATP_MODE_SHIFT);
        if (mode != SATP_MODE_BARE && mode != HGATP_MODE_SV39X4 && mode != HGATP_MODE_SV48X4)
            break; /* WARL: an unsupported mode leaves hgatp unchanged */
        /* VMIDLEN = 0 (one guest at a time: the TLB is flushed on every change); the root is
         * 16 KiB aligned, so PPN bits 1:0 read as zero */
        h->hgatp = v & ((UINT64_C(0xf) << 60) | (SATP_PPN_MASK & ~UINT64_C(3)));
        cpu_flush_tlb_sets(c, DTLB_GUEST_MASK, ITLB_GUEST_MASK); /* no VMIDs: a new guest */
        break;
    }
    case 0xe12: break;
    case 0x34a: h->mtinst = v; break;
    case 0x34b: h->mtval2 = v; break;
    case 0x200: {
        uint64_t writable = HYP_SWAP_STATUS, *st = h->virt ? &c->mstatus : &h->alt_status;
        *st = (*st & ~writable) | (v & writable);
        cpu_update_priv_ctx(c); /* the guest TLB sets are keyed by the VS's SUM/MXR */
        break;
    }
    case 0x204: {
        uint64_t mask = h->hideleg & MIP_VS_MASK;
        c->mie = (c->mie & ~mask) | ((v << 1) & mask);
        break;
    }
    case 0x244: {
        uint64_t mask = h->hideleg & MIP_VSSIP;
        c->mip_sw = (c->mip_sw & ~mask) | ((v << 1) & mask);
        break;
    }
    case 0x280:
        if (!legal_atp_mode(v))
            break;
        if (h->virt)
            c->satp = v & ((UINT64_C(0xf) << 60) | (UINT64_C(0xffff) << 44) | SATP_PPN_MASK);
        else
            h->alt_satp = v & ((UINT64_C(0xf) << 60) | (UINT64_C(0xffff) << 44) | SATP_PPN_MASK);
        cpu_flush_tlb_sets(c, DTLB_GUEST_MASK, ITLB_GUEST_MASK);
        break;
    case 0x205: if ((v & 3) < 2) *vs_reg(c, csr) = v; break;
    case 0x241: *vs_reg(c, csr) = v & ~UINT64_C(1); break;
    case 0x240: case 0x242: case 0x243: *vs_reg(c, csr) = v; break;
    default: return false;
    }
    return true;
}

/* The read-modify-write of one CSR through hyp_csr_read/hyp_csr_write (number `as`). */
static int rmw(mt_cpu *c, unsigned as, int op, uint64_t src, bool write, uint64_t *old)
{
    uint64_t v;
    if (!hyp_csr_read(c, as, &v))
        return EXC_ILLEGAL;
    if (write) {
        uint64_t base = v;
        if (as == 0x644 || as == 0x645 || as == 0x244) /* interrupt-pending: the writable bits */
            base = as == 0x244 ? vs_view(c, c->mip_sw) : (c->mip_sw & MIP_VS_MASK);
        uint64_t nv = op == CSR_OP_RW ? src : op == CSR_OP_RS ? (base | src) : (base & ~src);
        hyp_csr_write(c, as, nv);
    }
    *old = v;
    return EXC_NONE;
}

bool hyp_csr_access(mt_cpu *c, unsigned csr, int op, uint64_t src, bool write, uint64_t *old, int *exc)
{
    mt_hyp *h = &c->hyp;
    unsigned level = (csr >> 8) & 3;
    if (!h->virt) {
        if (!hyp_csr_is_h(csr))
            return false;
        /* level 2 is the hypervisor's (HS: S-mode with V=0) */
        if ((unsigned)c->priv < (level == 2 ? PRV_S : level) || (write && (csr >> 10) == 3)) {
            *exc = EXC_ILLEGAL;
            return true;
        }
        if (csr == 0x680 && c->priv == PRV_S && (c->mstatus & MSTATUS_TVM)) {
            *exc = EXC_ILLEGAL;
            return true;
        }
        if (csr == 0x24d && c->priv < PRV_M && !csr_stimecmp_allowed(c)) {
            *exc = EXC_ILLEGAL;
            return true;
        }
        *exc = rmw(c, csr, op, src, write, old);
        return true;
    }
    /* V=1: M CSRs are illegal; H and VS CSRs, and S CSRs from VU, are virtual instructions
     * (they would be legal in HS) */
    if (level == 3) {
        *exc = EXC_ILLEGAL;
        return true;
    }
    if (level == 2 || (level == 1 && c->priv == PRV_U)) {
        uint64_t dummy;
        *exc = hyp_csr_read(c, csr, &dummy) || csr_read(c, csr, &dummy) ? EXC_VIRTUAL_INSN : EXC_ILLEGAL;
        return true;
    }
    if (csr >= 0xc00 && csr <= 0xc1f) {
        unsigned idx = csr - 0xc00;
        if (!((c->mcounteren >> idx) & 1))
            *exc = EXC_ILLEGAL;
        else if (!((h->hcounteren >> idx) & 1) || (c->priv == PRV_U && !((c->scounteren >> idx) & 1)))
            *exc = EXC_VIRTUAL_INSN;
        else if (write)
            *exc = EXC_ILLEGAL;
        else if (csr == 0xc01) {
            *old = cpu_mtime(c) + h->htimedelta;
            *exc = EXC_NONE;
        } else {
            return false;
        }
        return true;
    }
    switch (csr) {
    case 0x104: *exc = rmw(c, 0x204, op, src, write, old); return true; /* sie -> vsie */
    case 0x144: *exc = rmw(c, 0x244, op, src, write, old); return true; /* sip -> vsip */
    case 0x14d: /* stimecmp -> vstimecmp (Sstc): M's enables first, then the hypervisor's */
        if (!csr_stimecmp_allowed(c))
            *exc = EXC_ILLEGAL;
        else if (!(h->henvcfg & ENVCFG_STCE) || !(h->hcounteren & 2))
            *exc = EXC_VIRTUAL_INSN;
        else
            *exc = rmw(c, 0x24d, op, src, write, old);
        return true;
    case 0x180: { /* satp holds vsatp; hstatus.VTVM, not mstatus.TVM, governs it */
        if (h->hstatus & HSTATUS_VTVM) {
            *exc = EXC_VIRTUAL_INSN;
            return true;
        }
        uint64_t v;
        csr_read(c, csr, &v);
        if (write)
            csr_write(c, csr, op == CSR_OP_RW ? src : op == CSR_OP_RS ? (v | src) : (v & ~src));
        *old = v;
        *exc = EXC_NONE;
        return true;
    }
    default:
        return false; /* sstatus, stvec, ...: the active registers are VS's */
    }
}

/* ---- HLV / HLVX / HSV / HFENCE --------------------------------------------------------- */

/* One guest access of `size` bytes made with V=0 as if V=1 at privilege SPVP: VS-stage with
 * vsatp and vsstatus (SUM, MXR), HS's MXR too, then the G-stage.  HLV and HSV share the guest
 * TLB sets with V=1's accesses (so HFENCE.VVMA/GVMA, not SFENCE.VMA, drop what they cached);
 * HLVX, which needs execute permission instead of read, is never cached. */
static int guest_access(mt_cpu *c, uint64_t va, unsigned size, bool write, bool hlvx, uint64_t *val)
{
    mt_hyp *h = &c->hyp;
    h->hlv = true; /* a fault's tval is a guest virtual address */
    if (va & (size - 1))
        return write ? EXC_STORE_MISALIGNED : EXC_LOAD_MISALIGNED;
    int priv = (h->hstatus & HSTATUS_SPVP) ? PRV_S : PRV_U;
    uint64_t pa;
    uint8_t *host;
    int e = mmu_guest_access(c, va, size, write, hlvx, priv, hlvx ? -1 : guest_dset(priv, h->alt_status), &pa, &host);
    if (e != EXC_NONE)
        return e;
    if (host) {
        if (write) {
            memcpy(host, val, size);
            if (cpu_dpage_lookup(c, pa & ~UINT64_C(0xfff)))
                cpu_code_written(c, pa, size);
            if ((pa & ~UINT64_C(0xfff)) == c->bus->watch_page && c->bus->watch)
                c->bus->watch(c->bus->watch_ctx, pa, size);
        } else {
            *val = 0;
            memcpy(val, host, size);
        }
    } else if (write ? !bus_mmio_write(c->bus, pa, size, *val) : !bus_mmio_read(c->bus, pa, size, val)) {
        return write ? EXC_STORE_ACCESS : EXC_LOAD_ACCESS;
    }
    cpu_access(c, pa, size, write, write ? MT_KIND_STORE : MT_KIND_LOAD);
    h->hlv = false;
    return EXC_NONE;
}

int hyp_exec(mt_cpu *c, unsigned op, int32_t imm, uint64_t rs1, uint64_t rs2, uint64_t *rd, uint64_t *tval)
{
    *tval = 0;
    if (c->hyp.virt)
        return EXC_VIRTUAL_INSN;
    if (c->priv == PRV_U && !(c->hyp.hstatus & HSTATUS_HU))
        return EXC_ILLEGAL;
    if (op == OP_HFENCE_VVMA || op == OP_HFENCE_GVMA) {
        if (c->priv == PRV_U || (op == OP_HFENCE_GVMA && c->priv == PRV_S && (c->mstatus & MSTATUS_TVM)))
            return EXC_ILLEGAL;
        /* every guest translation, whatever the fence names (address, ASID, VMID): more than
         * the spec asks, never less; HS's own (V=0) translations stay */
        cpu_flush_tlb_sets(c, DTLB_GUEST_MASK, ITLB_GUEST_MASK);
        return EXC_NONE;
    }
    unsigned f7 = (unsigned)imm >> 5, kind = (unsigned)imm & 0x1f;
    unsigned size = 1u << ((f7 >> 1) & 3);
    uint64_t v = rs2;
    *tval = rs1;
    int e = guest_access(c, rs1, size, op == OP_HSV, op == OP_HLV && kind == 3, &v);
    if (e != EXC_NONE)
        return e;
    if (op == OP_HLV) {
        if (kind == 0 && size < 8) /* HLV.B/H/W sign-extend; HLV.*U and HLVX zero-extend */
            v = (uint64_t)((int64_t)(v << (64 - 8 * size)) >> (64 - 8 * size));
        *rd = v;
    }
    return EXC_NONE;
}
