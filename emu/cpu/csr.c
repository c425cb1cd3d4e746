/* CSRs of M, S and U mode, with the WARL behaviour that OpenSBI and Linux rely on:
 * unsupported satp modes leave satp unchanged, mtvec/stvec ignore reserved modes, MPP keeps its
 * value on a write of the reserved encoding, PMP follows pmp.c. */
#include "emu/cpu/csr.h"

#include "emu/cpu/cbo.h"
#include "emu/cpu/hyp.h"
#include "emu/cpu/mmu.h"
#include "emu/cpu/pmp.h"

#define MSTATUS_WRITABLE (MSTATUS_SIE | MSTATUS_MIE | MSTATUS_SPIE | MSTATUS_MPIE | MSTATUS_SPP | MSTATUS_MPP | \
                          MSTATUS_FS | MSTATUS_MPRV | MSTATUS_SUM | MSTATUS_MXR | MSTATUS_TVM | MSTATUS_TW | MSTATUS_TSR | \
                          MSTATUS_MPV | MSTATUS_GVA)
#define SSTATUS_MASK (MSTATUS_SIE | MSTATUS_SPIE | MSTATUS_SPP | MSTATUS_FS | MSTATUS_SUM | MSTATUS_MXR | \
                      MSTATUS_UXL | MSTATUS_SD)
#define SSTATUS_WRITABLE (MSTATUS_SIE | MSTATUS_SPIE | MSTATUS_SPP | MSTATUS_FS | MSTATUS_SUM | MSTATUS_MXR)
#define MIE_WRITABLE (MIP_SSIP | MIP_MSIP | MIP_STIP | MIP_MTIP | MIP_SEIP | MIP_MEIP | MIP_VS_MASK)
#define MIDELEG_WRITABLE (MIP_SSIP | MIP_STIP | MIP_SEIP)
/* every exception except ecall from M (11) and reserved ones; 10 and 20-23 come with H */
#define MEDELEG_WRITABLE 0xf0b7ffu
#define MIP_SW_WRITABLE (MIP_SSIP | MIP_STIP | MIP_SEIP | MIP_VSSIP)

uint64_t csr_misa(void)
{
    uint64_t ext = 0;
    const char *letters = "IMAFDCHSU";
    for (const char *p = letters; *p; p++)
        ext |= UINT64_C(1) << (*p - 'A');
    return (UINT64_C(2) << 62) | ext;
}

uint64_t csr_mstatus_read(const mt_cpu *cpu)
{
    uint64_t s = cpu->mstatus & ~MSTATUS_SD;
    s |= MSTATUS_UXL & (UINT64_C(2) << 32);
    s |= MSTATUS_SXL & (UINT64_C(2) << 34);
    if (((s & MSTATUS_FS) >> MSTATUS_FS_SHIFT) == FS_DIRTY)
        s |= MSTATUS_SD;
    return s;
}

static void mstatus_write(mt_cpu *cpu, uint64_t val, uint64_t writable)
{
    uint64_t old = cpu->mstatus;
    if ((writable & MSTATUS_MPP) && ((val & MSTATUS_MPP) >> MSTATUS_MPP_SHIFT) == 2)
        val = (val & ~MSTATUS_MPP) | (old & MSTATUS_MPP); /* reserved encoding: keep */
    cpu->mstatus = (old & ~writable) | (val & writable);
    /* MPRV, MPP, SUM and MXR pick which data TLB set loads and stores use: no flush needed
     * (MPV with MPRV makes M-mode loads/stores a guest's: emu/cpu/hyp.c) */
    if ((old ^ cpu->mstatus) & (MSTATUS_MPRV | MSTATUS_MPP | MSTATUS_SUM | MSTATUS_MXR | MSTATUS_MPV))
        cpu_update_priv_ctx(cpu);
}

/* Sstc: below M, stimecmp and vstimecmp need menvcfg.STCE and mcounteren.TM. */
bool csr_stimecmp_allowed(const mt_cpu *cpu)
{
    return (cpu->menvcfg & ENVCFG_STCE) && (cpu->mcounteren & 2);
}

/* cycle/time/instret and hpmcounters: visible below M only when the enables allow. */
static bool counter_allowed(const mt_cpu *cpu, unsigned idx)
{
    if (cpu->priv == PRV_M)
        return true;
    if (!((cpu->mcounteren >> idx) & 1))
        return false;
    if (cpu->priv == PRV_U && !((cpu->scounteren >> idx) & 1))
        return false;
    return true;
}

static void satp_write(mt_cpu *cpu, uint64_t val)
{
    unsigned mode = (unsigned)(val >> SATP_MODE_SHIFT);
    if (mode != SATP_MODE_BARE && mode != SATP_MODE_SV39 && mode != SATP_MODE_SV48)
        return; /* WARL: an unsupported mode leaves satp unchanged (Linux probes this way) */
    uint64_t nv = val & ((UINT64_C(0xf) << 60) | (UINT64_C(0xffff) << 44) | SATP_PPN_MASK);
    if (nv != cpu->satp) {
        cpu->satp = nv;
        cpu_flush_tlb_current(cpu); /* satp is vsatp with V=1 */
    }
}

/* menvcfg: FIOM (no effect: the emulator's I/O is ordered), CBIE/CBCFE/CBZE (Zicbom/Zicboz:
 * emu/cpu/cbo.c), PBMTE (Svpbmt: PTE bits 62:61 allowed), STCE (Sstc: stimecmp on). Turning STCE on hands STIP to the comparison; turning it
 * off leaves henvcfg's STCE and PBMTE read-only zero, as the spec has them. */
static void menvcfg_write(mt_cpu *cpu, uint64_t v)
{
    cpu->menvcfg = (v & (ENVCFG_FIOM | ENVCFG_PBMTE | ENVCFG_STCE)) | envcfg_cbo_warl(cpu->menvcfg, v);
    if (cpu->menvcfg & ENVCFG_STCE)
        cpu->mip_sw &= ~(uint64_t)MIP_STIP;
    /* the CMO enables of henvcfg do not depend on menvcfg's */
    cpu->hyp.henvcfg &= cpu->menvcfg | ENVCFG_FIOM | ENVCFG_CBIE | ENVCFG_CBCFE | ENVCFG_CBZE;
    cpu_flush_tlb(cpu); /* PBMTE changes which PTEs are valid */
    cpu_timer_changed(cpu);
}

bool csr_read(mt_cpu *cpu, unsigned csr, uint64_t *val)
{
    uint64_t v = 0;
    switch (csr) {
    case 0x001: v = cpu->fflags; break;
    case 0x002: v = cpu->frm; break;
    case 0x003: v = cpu->frm << 5 | cpu->fflags; break;
    case 0xc00: case 0xb00: v = cpu->cycle + cpu->mcycle_off; break;
    case 0xc01: v = cpu_mtime(cpu); break;
    /* the reading instruction itself is already counted in cpu->instret: minstret is the
     * number retired before it (so a written value is what the next instruction reads) */
    case 0xc02: case 0xb02: v = cpu->instret - 1 + cpu->minstret_off; break;
    case 0x7a0: case 0x7a1: case 0x7a2: case 0x7a3: v = 0; break; /* no debug triggers (Sdtrig) */
    case 0x100: v = csr_mstatus_read(cpu) & SSTATUS_MASK; break;
    case 0x104: v = cpu->mie & cpu->mideleg; break;
    case 0x105: v = cpu->stvec; break;
    case 0x106: v = cpu->scounteren; break;
    case 0x10a: v = cpu->senvcfg; break;
    case 0x140: v = cpu->sscratch; break;
    case 0x141: v = cpu->sepc; break;
    case 0x142: v = cpu->scause; break;
    case 0x143: v = cpu->stval; break;
    case 0x144: v = cpu_mip(cpu) & cpu->mideleg; break;
    case 0x14d: v = cpu->stimecmp; break;
    case 0x180: v = cpu->satp; break;
    case 0xf11: case 0xf12: case 0xf13: case 0xf15: v = 0; break;
    case 0xf14: v = cpu->mhartid; break;
    case 0x300: v = csr_mstatus_read(cpu); break;
    case 0x301: v = csr_misa(); break;
    case 0x302: v = cpu->medeleg; break;
    case 0x303: v = cpu->mideleg | MIP_VS_MASK; break; /* VS interrupts: read-only one with H */
    case 0x304: v = cpu->mie; break;
    case 0x305: v = cpu->mtvec; break;
    case 0x306: v = cpu->mcounteren; break;
    case 0x30a: v = cpu->menvcfg; break;
    case 0x320: v = 0; break; /* mcountinhibit: counters always count */
    case 0x340: v = cpu->mscratch; break;
    case 0x341: v = cpu->mepc; break;
    case 0x342: v = cpu->mcause; break;
    case 0x343: v = cpu->mtval; break;
    case 0x344: v = cpu_mip(cpu); break;
    case 0x3a0: case 0x3a2: {
        unsigned base = (csr - 0x3a0) * 4; /* pmpcfg0: entries 0-7, pmpcfg2: 8-15 */
        for (unsigned i = 0; i < 8; i++)
            v |= (uint64_t)cpu->pmpcfg[base + i] << (8 * i);
        break;
    }
    default:
        if (csr >= 0x3b0 && csr < 0x3b0 + PMP_COUNT) {
            unsigned i = csr - 0x3b0;
            v = cpu->pmpaddr[i];
            /* NAPOT/TOR read back as written with grain 4 bytes: nothing to mask */
            break;
        }
        if ((csr >= 0xc03 && csr <= 0xc1f) || (csr >= 0xb03 && csr <= 0xb1f) || (csr >= 0x323 && csr <= 0x33f)) {
            v = 0; /* hpm counters and event selectors: hardwired zero */
            break;
        }
        return hyp_csr_read(cpu, csr, val);
    }
    *val = v;
    return true;
}

bool csr_write(mt_cpu *cpu, unsigned csr, uint64_t v)
{
    switch (csr) {
    case 0x001: cpu->fflags = v & 0x1f; cpu_fp_set_dirty(cpu); break;
    case 0x002: cpu->frm = v & 7; cpu_fp_set_dirty(cpu); break;
    case 0x003: cpu->fflags = v & 0x1f; cpu->frm = (v >> 5) & 7; cpu_fp_set_dirty(cpu); break;
    case 0xb00: cpu->mcycle_off = v - cpu->cycle; break;
    case 0xb02: cpu->minstret_off = v - cpu->instret; break;
    case 0x7a0: case 0x7a1: case 0x7a2: case 0x7a3: break; /* tselect reads 0: no triggers */
    case 0x100: mstatus_write(cpu, v, SSTATUS_WRITABLE); break;
    case 0x104: cpu->mie = (cpu->mie & ~cpu->mideleg) | (v & cpu->mideleg & MIE_WRITABLE); break;
    case 0x105: if ((v & 3) < 2) cpu->stvec = v; break;
    case 0x106: cpu->scounteren = v & 0xffffffffu; break;
    case 0x10a: cpu->senvcfg = (v & ENVCFG_FIOM) | envcfg_cbo_warl(cpu->senvcfg, v); break;
    case 0x140: cpu->sscratch = v; break;
    case 0x141: cpu->sepc = v & ~UINT64_C(1); break;
    case 0x142: cpu->scause = v; break;
    case 0x143: cpu->stval = v; break;
    case 0x144: cpu->mip_sw = (cpu->mip_sw & ~(cpu->mideleg & MIP_SSIP)) | (v & cpu->mideleg & MIP_SSIP); break;
    case 0x14d: cpu->stimecmp = v; cpu_timer_changed(cpu); break;
    case 0x180: satp_write(cpu, v); break;
    case 0x300: mstatus_write(cpu, v, MSTATUS_WRITABLE); break;
    case 0x301: break; /* misa: WARL, the extensions cannot be turned off */
    case 0x302: cpu->medeleg = v & MEDELEG_WRITABLE; break;
    case 0x303: cpu->mideleg = v & MIDELEG_WRITABLE; break;
    case 0x304: cpu->mie = v & MIE_WRITABLE; break;
    case 0x305: if ((v & 3) < 2) cpu->mtvec = v; break;
    case 0x306: cpu->mcounteren = v & 0xffffffffu; break;
    case 0x30a: menvcfg_write(cpu, v); break;
    case 0x320: break;
    case 0x340: cpu->mscratch = v; break;
    case 0x341: cpu->mepc = v & ~UINT64_C(1); break;
    case 0x342: cpu->mcause = v; break;
    case 0x343: cpu->mtval = v; break;
    case 0x344: { /* with Sstc on, STIP is the comparison's (read-only) */
        uint64_t w = MIP_SW_WRITABLE & ~((cpu->menvcfg & ENVCFG_STCE) ? (uint64_t)MIP_STIP : 0);
        cpu->mip_sw = (cpu->mip_sw & ~w) | (v & w);
        break;
    }
    case 0x3a0: case 0x3a2: {
        unsigned base = (csr - 0x3a0) * 4;
        for (unsigned i = 0; i < 8; i++)
            pmp_write_cfg(cpu, base + i, (uint8_t)(v >> (8 * i)));
        cpu_flush_tlb(cpu);
        break;
    }
    default:
        if (csr >= 0x3b0 && csr < 0x3b0 + PMP_COUNT) {
            pmp_write_addr(cpu, csr - 0x3b0, v);
            cpu_flush_tlb(cpu);
            break;
        }
        if ((csr >= 0xb03 && csr <= 0xb1f) || (csr >= 0x323 && csr <= 0x33f))
            break;
        return hyp_csr_write(cpu, csr, v);
    }
    return true;
}

int csr_access(mt_cpu *cpu, unsigned csr, int op, uint64_t src, bool write, uint64_t *old)
{
    int hexc;
    if ((cpu->hyp.virt || hyp_csr_is_h(csr)) && hyp_csr_access(cpu, csr, op, src, write, old, &hexc))
        return hexc; /* the H extension's CSRs and every access of a guest (V=1) */
    unsigned min_priv = (csr >> 8) & 3;
    if ((unsigned)cpu->priv < min_priv)
        return EXC_ILLEGAL;
    if (write && (csr >> 10) == 3)
        return EXC_ILLEGAL;
    if (csr == 0x180 && cpu->priv == PRV_S && (cpu->mstatus & MSTATUS_TVM))
        return EXC_ILLEGAL;
    if (csr <= 0x003 && !cpu_fp_enabled(cpu))
        return EXC_ILLEGAL;
    if (csr >= 0xc00 && csr <= 0xc1f && !counter_allowed(cpu, csr - 0xc00))
        return EXC_ILLEGAL;
    if (csr == 0x14d && cpu->priv < PRV_M && !csr_stimecmp_allowed(cpu))
        return EXC_ILLEGAL;
    uint64_t v;
    if (!csr_read(cpu, csr, &v))
        return EXC_ILLEGAL;
    if (write) {
        uint64_t nv = op == CSR_OP_RW ? src : op == CSR_OP_RS ? (v | src) : (v & ~src);
        if (csr == 0x344 || csr == 0x144) /* read-modify-write of mip uses the software bits */
            nv = op == CSR_OP_RW ? src : op == CSR_OP_RS ? (cpu->mip_sw | src) : (cpu->mip_sw & ~src);
        csr_write(cpu, csr, nv);
    }
    *old = v;
    return EXC_NONE;
}
