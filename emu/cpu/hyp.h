/* The H extension: hypervisor CSRs, the virtualisation mode V, trap routing to M / HS / VS,
 * SRET/MRET with SPV/MPV, virtual-instruction checks and HLV/HLVX/HSV/HFENCE.
 *
 * V=1 keeps the VS-level copies of the S registers (sstatus' S fields, stvec, sscratch, sepc,
 * scause, stval, satp) in the hart's ordinary S registers and the HS copies in `alt_*`; V=0 the
 * other way round.  So everything that already works on "the S registers" (traps to S, SRET,
 * stage-1 translation, sstatus) runs a guest unchanged, and with V=0 nothing on the fast path
 * knows that the H extension exists. */
#ifndef EMU_HYP_H
#define EMU_HYP_H

#include <stdbool.h>
#include <stdint.h>

struct mt_cpu;

/* exception causes the H extension adds */
enum { EXC_ECALL_VS = 10, EXC_INSN_GUEST_PAGE = 20, EXC_LOAD_GUEST_PAGE = 21, EXC_VIRTUAL_INSN = 22,
       EXC_STORE_GUEST_PAGE = 23 };
/* VS-level interrupts (mip/mie bits 2, 6, 10) and the guest-external one (12) */
#define MIP_VSSIP (UINT64_C(1) << 2)
#define MIP_VSTIP (UINT64_C(1) << 6)
#define MIP_VSEIP (UINT64_C(1) << 10)
#define MIP_SGEIP (UINT64_C(1) << 12)
#define MIP_VS_MASK (MIP_VSSIP | MIP_VSTIP | MIP_VSEIP)

#define MSTATUS_GVA (UINT64_C(1) << 38)
#define MSTATUS_MPV (UINT64_C(1) << 39)

#define HSTATUS_GVA (UINT64_C(1) << 6)
#define HSTATUS_SPV (UINT64_C(1) << 7)
#define HSTATUS_SPVP (UINT64_C(1) << 8)
#define HSTATUS_HU (UINT64_C(1) << 9)
#define HSTATUS_VTVM (UINT64_C(1) << 20)
#define HSTATUS_VTW (UINT64_C(1) << 21)
#define HSTATUS_VTSR (UINT64_C(1) << 22)
#define HSTATUS_VSXL_64 (UINT64_C(2) << 32)

#define HGATP_MODE_SV39X4 8
#define HGATP_MODE_SV48X4 9

typedef struct mt_hyp {
    bool virt;      /* V: the hart runs a guest (VS or VU) */
    bool data_virt; /* loads/stores translate in two stages (V=1, or M-mode MPRV with MPV=1) */
    bool hlv;       /* an HLV/HSV is running: its faults carry a guest virtual address */
    bool gmxr;      /* HS's mstatus.MXR the guest TLB sets were filled under (it governs the
                     * G-stage, which their keys do not see) */
    uint64_t hstatus, hedeleg, hideleg, hcounteren, henvcfg, htval, htinst, hgatp, htimedelta;
    uint64_t vstimecmp; /* Sstc: VSTIP |= mtime + htimedelta >= vstimecmp while henvcfg.STCE */
    uint64_t mtval2, mtinst;
    /* the S-level registers of the world that is not running (VS's when V=0, HS's when V=1) */
    uint64_t alt_status; /* the sstatus fields that are swapped (see HYP_SWAP_STATUS) */
    uint64_t alt_stvec, alt_sscratch, alt_sepc, alt_scause, alt_stval, alt_satp;
    uint64_t fault_gpa; /* guest-physical address of the last guest-page fault (for htval/mtval2) */
    uint32_t fault_pseudo; /* its pseudoinstruction when an implicit VS-stage access faulted, or 0 */
    uint32_t trap_insn; /* the bits of the load/store/AMO that traps now (the interpreter's), or 0 */
    bool implicit_fault; /* the access fault being raised is a page-table access's */
} mt_hyp;

/* Exceptions for which mtinst/htinst hold the transformed trapping instruction: the address-
 * misaligned, access, page and guest-page faults of loads, stores and AMOs. */
static inline bool hyp_tinst_cause(int exc)
{
    return (exc >= 4 && exc <= 7) || exc == 13 || exc == 15 || exc == 21 || exc == 23;
}
/* mtinst/htinst's value for a load/store/AMO/LR/SC/HLV/HSV instruction (32-bit, or 16-bit in
 * the low half): the privileged spec's transformed instruction with a zero address offset
 * (compressed ones expanded, bit 1 clear); 0 for any other instruction. */
uint32_t hyp_transform_insn(uint32_t bits);

/* misa letter */
#define HYP_MISA_BIT (UINT64_C(1) << ('H' - 'A'))

/* Called by cpu_update_priv_ctx: recomputes data_virt and, for guest accesses, switches to the
 * guest TLB sets (flushing them when HS's MXR changed). */
void hyp_update_ctx(struct mt_cpu *cpu);

/* The whole trap entry (exception or interrupt), routed to M, HS or VS. */
void hyp_take_trap(struct mt_cpu *cpu, uint64_t cause, uint64_t tval);
/* The interrupt to take now with the VS-level interrupts and V taken into account, or -1. */
int hyp_pending_interrupt(const struct mt_cpu *cpu);

/* xRET and the privileged instructions whose legality V changes: EXC_NONE, EXC_ILLEGAL or
 * EXC_VIRTUAL_INSN. */
int hyp_check_sret(const struct mt_cpu *cpu);
int hyp_check_wfi(const struct mt_cpu *cpu);
int hyp_check_sfence(const struct mt_cpu *cpu);
void hyp_sret(struct mt_cpu *cpu);
void hyp_mret(struct mt_cpu *cpu);

/* CSR accesses the H extension decides (H and VS CSRs, mtval2/mtinst, every access with V=1).
 * Returns true when it handled the access (the result in *exc), false for the base path. */
bool hyp_csr_access(struct mt_cpu *cpu, unsigned csr, int op, uint64_t src, bool write, uint64_t *old, int *exc);
/* csr_read/csr_write of the H CSRs (no access checks); false: not an H CSR. */
bool hyp_csr_read(struct mt_cpu *cpu, unsigned csr, uint64_t *val);
bool hyp_csr_write(struct mt_cpu *cpu, unsigned csr, uint64_t val);
/* True for the CSR numbers that hyp_csr_access must see even with V=0. */
static inline bool hyp_csr_is_h(unsigned csr)
{
    return ((csr >> 8) & 3) == 2 || csr == 0x34a || csr == 0x34b || csr == 0xe12;
}

/* HLV/HLVX/HSV (op = OP_HLV / OP_HSV, imm = funct7 << 5 | rs2 field) and HFENCE.VVMA/GVMA.
 * Returns EXC_NONE or the cause; *tval is what the trap should record. */
int hyp_exec(struct mt_cpu *cpu, unsigned op, int32_t imm, uint64_t rs1, uint64_t rs2, uint64_t *rd, uint64_t *tval);

#endif
