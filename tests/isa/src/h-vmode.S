/* h-vmode: the H extension's CSRs and the virtualisation mode (privileged spec, "Hypervisor
 * Extension"): misa.H; WARL of hstatus (VSXL = 64), hedeleg, hideleg, mideleg's read-only VS bits;
 * hvip/hip/mip aliases; the VS CSRs from M (V=0); with V=1 the S CSRs are the VS ones; virtual-
 * instruction exceptions (cause 22: H/VS CSRs, HLV and HFENCE from VS, S CSRs/SRET/WFI from VU,
 * VTSR, VTW, VTVM) next to illegal ones (M CSRs); ecall causes from VS (10) and VU (8) with
 * mstatus.MPV; delegation of a VU exception to VS (hedeleg) and to HS (hstatus.SPV/SPVP); SRET
 * from HS into VS and from VS into VU; a VS software interrupt taken in VS (hideleg; scause = 1)
 * and in HS (scause = 2); FP state with V=1 needs both vsstatus.FS and HS's FS.  G-stage and
 * VS-stage are Bare: guest physical = host physical.
 * QEMU-DEVIATION(exit 70): QEMU 7.2 raises illegal-instruction (2) where the spec's list of
 * virtual-instruction cases has, "in VU-mode, attempts to access a supervisor CSR or execute a
 * supervisor instruction (SRET, SFENCE)" (cases 70-73; later QEMU fixes them one by one), and
 * it lets VS read satp with hstatus.VTVM = 1 (case 74).
 * ISA-ENV: m-only
 * QEMU-CPU-H (run on QEMU with -cpu rv64,h=true)
 */
#include "isa_test.h"

#define MSTATUS_MPV (1 << 39)
#define CSR_HSTATUS 0x600
#define CSR_HEDELEG 0x602
#define CSR_HIDELEG 0x603
#define CSR_HIE 0x604
#define CSR_HCOUNTEREN 0x606
#define CSR_HIP 0x644
#define CSR_HVIP 0x645
#define CSR_HGATP 0x680
#define CSR_VSSTATUS 0x200
#define CSR_VSIE 0x204
#define CSR_VSTVEC 0x205
#define CSR_VSSCRATCH 0x240
#define CSR_VSEPC 0x241
#define CSR_VSCAUSE 0x242
#define CSR_VSTVAL 0x243
#define CSR_VSATP 0x280
#define HSTATUS_SPV (1 << 7)
#define HSTATUS_SPVP (1 << 8)
#define HSTATUS_VTVM (1 << 20)
#define HSTATUS_VTW (1 << 21)
#define HSTATUS_VTSR (1 << 22)
#define CAUSE_VS_ECALL 10
#define CAUSE_VIRTUAL 22

#define ENTER_V(mode, label)                                                                     \
        li t0, MSTATUS_MPP; csrc mstatus, t0;                                                    \
        li t0, ((mode) << 11) | MSTATUS_MPV; csrs mstatus, t0;                                   \
        la t0, label; csrw mepc, t0; mret
/* Run code in VS/VU (mode); it must trap to M with `cause` from privilege tprv with MPV = tmpv. */
#define V_GO(n, mode, cause, tprv, tmpv, ...)                                                    \
        TEST_NUM(n); TRAP_RESUME_M(9982f); ENTER_V(mode, 9983f);                                 \
9983:   __VA_ARGS__; j fail;                                                                     \
9982:   TRAP_CHECK(TS_CAUSE, cause); TRAP_CHECK(TS_PRV, tprv);                                   \
        la t1, trap_state; ld t0, TS_STATUS(t1); srli t0, t0, 39; andi t0, t0, 1; li t2, tmpv;    \
        bne t0, t2, fail
/* The code in VS/VU must trap straight to M with `cause`. */
#define V_TRAP(n, mode, cause, ...) V_GO(n, mode, cause, mode, 1, __VA_ARGS__)
/* Run code in VS/VU ending with an ecall back to M. */
#define V_RUN(n, mode, ...) V_TRAP(n, mode, CAUSE_USER_ECALL + 2 * (mode), __VA_ARGS__; ecall)

TEST_BEGIN
  csrw CSR_HGATP, zero
  csrw CSR_VSATP, zero
  li t0, -1; csrw CSR_HCOUNTEREN, t0
  /* ---- CSRs ---- */
  TEST_CASE(1, a0, 1, csrr a0, misa; srli a0, a0, 7; andi a0, a0, 1)
  TEST_CASE(2, a0, 2, li a1, -1; csrw CSR_HSTATUS, a1; csrr a0, CSR_HSTATUS; srli a0, a0, 32; andi a0, a0, 3)
  TEST_CASE(3, a0, (1 << 22) | (1 << 21) | (1 << 20) | (1 << 9) | (1 << 8) | (1 << 7) | (1 << 6), \
            csrr a0, CSR_HSTATUS; li a1, (1 << 22) | (1 << 21) | (1 << 20) | (1 << 9) | (1 << 8) | (1 << 7) | (1 << 6); and a0, a0, a1)
  TEST_NUM(4); csrw CSR_HSTATUS, zero
  /* hedeleg: ecalls from HS/VS/M and the guest-page / virtual-instruction faults stay with HS */
  TEST_CASE(5, a0, 0xb1ff, li a1, -1; csrw CSR_HEDELEG, a1; csrr a0, CSR_HEDELEG; li a1, 0xf0ffff; and a0, a0, a1)
  TEST_CASE(6, a0, 0x444, li a1, -1; csrw CSR_HIDELEG, a1; csrr a0, CSR_HIDELEG)
  TEST_NUM(7); csrw CSR_HEDELEG, zero; csrw CSR_HIDELEG, zero
  TEST_CASE(8, a0, 0x444, csrw mideleg, zero; csrr a0, mideleg; andi a0, a0, 0x444)
  /* hvip, hip and mip show the same VS bits; mip.VSSIP is writable */
  TEST_CASE(9, a0, 0x444, li a1, 0x444; csrw CSR_HVIP, a1; csrr a0, mip; andi a0, a0, 0x444)
  TEST_CASE(10, a0, 0x444, csrr a0, CSR_HIP)
  TEST_CASE(11, a0, 0x440, li a1, 4; csrc mip, a1; csrr a0, CSR_HVIP)
  TEST_CASE(12, a0, 0, csrw CSR_HVIP, zero; csrr a0, CSR_HIP)
  TEST_CASE(13, a0, 0x444, li a1, 0x444; csrs CSR_HIE, a1; csrr a0, mie; andi a0, a0, 0x444)
  TEST_NUM(14); csrw CSR_HIE, zero
  /* the VS registers from M are their own */
  TEST_CASE(15, a0, 0x1234, li a1, 0x1234; csrw CSR_VSSCRATCH, a1; li a1, 0x77; csrw sscratch, a1; csrr a0, CSR_VSSCRATCH)
  TEST_CASE(16, a0, 0x77, csrr a0, sscratch)
  TEST_CASE(17, a0, 0x80000100, li a1, 0x80000100; csrw CSR_VSTVEC, a1; csrr a0, CSR_VSTVEC)
  TEST_CASE(18, a0, 0x80000200, li a1, 0x80000200; csrw CSR_VSEPC, a1; csrr a0, CSR_VSEPC)
  TEST_CASE(19, a0, 5, li a1, 5; csrw CSR_VSCAUSE, a1; csrr a0, CSR_VSCAUSE)
  TEST_CASE(20, a0, 0x99, li a1, 0x99; csrw CSR_VSTVAL, a1; csrr a0, CSR_VSTVAL)
  TEST_CASE(21, a0, MSTATUS_SUM, li a1, MSTATUS_SUM; csrw CSR_VSSTATUS, a1; csrr a0, CSR_VSSTATUS; and a0, a0, a1)
  TEST_CASE(22, a0, 0, csrr a0, sstatus; li a1, MSTATUS_SUM; and a0, a0, a1)

  /* ---- with V=1 the S CSRs are the VS ones ---- */
  V_RUN(23, PRV_S, csrr s2, sscratch; csrr s3, sstatus; li a1, 0xccc; csrw sscratch, a1)
  TEST_CASE(24, s2, 0x1234, )
  TEST_CASE(25, s3, MSTATUS_SUM, li a1, MSTATUS_SUM; and s3, s3, a1)
  TEST_CASE(26, a0, 0xccc, csrr a0, CSR_VSSCRATCH)
  TEST_CASE(27, a0, 0x77, csrr a0, sscratch)
  TEST_NUM(28); csrw CSR_VSSTATUS, zero

  /* ---- virtual-instruction and illegal-instruction exceptions ---- */
  V_TRAP(30, PRV_S, CAUSE_VIRTUAL, csrr a0, CSR_HSTATUS)
  V_TRAP(31, PRV_S, CAUSE_VIRTUAL, csrr a0, CSR_VSSTATUS)
  V_TRAP(32, PRV_S, CAUSE_ILLEGAL_INSTRUCTION, csrr a0, mstatus)
  V_TRAP(33, PRV_S, CAUSE_VIRTUAL, li a1, 0x80000000; .insn r 0x73, 4, 0x36, a0, a1, x0)  /* hlv.d */
  V_TRAP(34, PRV_S, CAUSE_VIRTUAL, .insn r 0x73, 0, 0x11, x0, x0, x0)                    /* hfence.vvma */
  li t0, HSTATUS_VTSR | HSTATUS_VTW | HSTATUS_VTVM; csrs CSR_HSTATUS, t0
  V_TRAP(39, PRV_S, CAUSE_VIRTUAL, sret)
  V_TRAP(40, PRV_S, CAUSE_VIRTUAL, wfi)
  V_TRAP(41, PRV_S, CAUSE_VIRTUAL, sfence.vma)
  li t0, HSTATUS_VTSR | HSTATUS_VTW | HSTATUS_VTVM; csrc CSR_HSTATUS, t0
  /* the counters: hcounteren.CY = 0 makes cycle a virtual instruction in VS */
  csrw CSR_HCOUNTEREN, zero
  V_TRAP(43, PRV_S, CAUSE_VIRTUAL, csrr a0, cycle)
  li t0, -1; csrw CSR_HCOUNTEREN, t0
  V_RUN(44, PRV_S, csrr a0, cycle)
  /* ecall causes */
  V_TRAP(45, PRV_S, CAUSE_VS_ECALL, ecall)
  V_TRAP(46, PRV_U, CAUSE_USER_ECALL, ecall)

  /* ---- a VU ecall delegated to VS (medeleg + hedeleg): VS's handler sees it in scause ---- */
  la t0, vs_handler; csrw CSR_VSTVEC, t0
  li t0, 1 << CAUSE_USER_ECALL; csrw medeleg, t0; csrw CSR_HEDELEG, t0
  V_GO(47, PRV_U, CAUSE_VS_ECALL, PRV_S, 1, vu_ecall1: ecall)   /* the VS handler ecalls to M */
  TEST_CASE(48, s5, CAUSE_USER_ECALL, )
  la t0, vu_ecall1; bne s6, t0, fail
  TEST_CASE(49, s7, 0, andi s7, s7, MSTATUS_SPP)            /* sstatus.SPP (VS's) = U */
  TEST_CASE(50, a0, 0, csrr a0, CSR_HSTATUS; andi a0, a0, HSTATUS_SPV)
  /* ... and to HS when hedeleg does not delegate it: hstatus.SPV = 1, SPVP = 0 (from VU) */
  csrw CSR_HEDELEG, zero
  la t0, hs_handler; csrw stvec, t0
  V_GO(51, PRV_U, CAUSE_SUPERVISOR_ECALL, PRV_S, 0, ecall)     /* the HS handler ecalls to M */
  TEST_CASE(52, s5, CAUSE_USER_ECALL, )
  TEST_CASE(53, s8, HSTATUS_SPV, andi s8, s8, HSTATUS_SPV | HSTATUS_SPVP)
  csrw medeleg, zero

  /* ---- SRET from HS into VS, then from VS into VU ---- */
  TEST_NUM(54); TRAP_RESUME_M(9986f)
  la t0, hs_code; csrw mepc, t0; li t0, MSTATUS_MPP | MSTATUS_MPV; csrc mstatus, t0; li t0, PRV_S << 11; csrs mstatus, t0; mret
hs_code:
  li t0, HSTATUS_SPV; csrs CSR_HSTATUS, t0
  li t0, MSTATUS_SPP; csrs sstatus, t0
  la t0, vs_code; csrw sepc, t0
  sret                                    /* into VS */
vs_code:
  li t0, MSTATUS_SPP; csrc sstatus, t0    /* vsstatus.SPP = U */
  la t0, vu_code; csrw sepc, t0
  sret                                    /* into VU */
vu_code:
  ecall
  j fail
9986: TRAP_CHECK(TS_CAUSE, CAUSE_USER_ECALL); TRAP_CHECK(TS_PRV, PRV_U)
  la t1, trap_state; ld t0, TS_STATUS(t1); srli t0, t0, 39; andi t0, t0, 1; beqz t0, fail /* MPV = 1 */
  TEST_CASE(55, a0, 0, csrr a0, CSR_HSTATUS; andi a0, a0, HSTATUS_SPV)  /* SRET cleared SPV */

  /* ---- a VS software interrupt (hvip.VSSIP), taken in VS through hideleg ---- */
  la t0, vs_handler; csrw CSR_VSTVEC, t0
  li t0, 4; csrw CSR_HIDELEG, t0; csrs CSR_HIE, t0
  li t0, MSTATUS_SIE; csrw CSR_VSSTATUS, t0
  li t0, 4; csrw CSR_HVIP, t0
  V_GO(56, PRV_S, CAUSE_VS_ECALL, PRV_S, 1, nop; nop)
  TEST_CASE(57, s5, IRQ_BIT | IRQ_S_SOFT, )
  TEST_CASE(58, a0, 1, csrr a0, CSR_VSIE; andi a0, a0, 2; srli a0, a0, 1)     /* vsie.SSIE */
  /* ... and in HS without hideleg: scause = 2, hstatus.SPV = 1, SPVP = 1 */
  csrw CSR_HIDELEG, zero
  li t0, 4; csrw CSR_HVIP, t0                 /* the VS handler cleared it through its sip */
  V_GO(59, PRV_S, CAUSE_SUPERVISOR_ECALL, PRV_S, 0, nop; nop)
  TEST_CASE(60, s5, IRQ_BIT | 2, )
  TEST_CASE(61, s8, HSTATUS_SPV | HSTATUS_SPVP, andi s8, s8, HSTATUS_SPV | HSTATUS_SPVP)
  csrw CSR_HVIP, zero; csrw CSR_HIE, zero
  /* ---- FP with V=1 needs both vsstatus.FS and HS's sstatus.FS on ---- */
  li t0, 3 << 13; csrc mstatus, t0; li t0, 1 << 13; csrw CSR_VSSTATUS, t0   /* HS off, VS initial */
  V_TRAP(62, PRV_S, CAUSE_ILLEGAL_INSTRUCTION, csrr a0, 0x001)              /* fflags */
  li t0, 1 << 13; csrs mstatus, t0; csrw CSR_VSSTATUS, zero                  /* HS initial, VS off */
  V_TRAP(63, PRV_S, CAUSE_ILLEGAL_INSTRUCTION, csrr a0, 0x001)
  li t0, 1 << 13; csrw CSR_VSSTATUS, t0                                       /* both on */
  V_RUN(64, PRV_S, csrr a0, 0x001)
  li t0, 3 << 13; csrc mstatus, t0; csrw CSR_VSSTATUS, zero
  /* last, what QEMU 7.2 gets wrong (QEMU-DEVIATION above): from VU, S CSRs, SRET, WFI and
   * SFENCE.VMA are virtual instructions, not illegal ones */
  V_TRAP(70, PRV_U, CAUSE_VIRTUAL, csrr a0, sstatus)
  V_TRAP(71, PRV_U, CAUSE_VIRTUAL, sret)
  V_TRAP(72, PRV_U, CAUSE_VIRTUAL, wfi)
  V_TRAP(73, PRV_U, CAUSE_VIRTUAL, sfence.vma)
  /* satp from VS with hstatus.VTVM = 1 (QEMU 7.2 allows it) */
  li t0, HSTATUS_VTVM; csrs CSR_HSTATUS, t0
  V_TRAP(74, PRV_S, CAUSE_VIRTUAL, csrr a0, satp)
  li t0, HSTATUS_VTVM; csrc CSR_HSTATUS, t0
TEST_END

/* VS handler: record scause, sepc, sstatus; back to M with an ecall (cause 10). */
  .balign 4
vs_handler:
  csrr s5, scause; csrr s6, sepc; csrr s7, sstatus
  csrw sip, zero   /* the guest's sip is vsip: clears hvip.VSSIP (delegated by hideleg) */
  ecall
/* HS handler: record scause and hstatus; back to M with an ecall (cause 9). */
  .balign 4
hs_handler:
  csrr s5, scause; csrr s8, CSR_HSTATUS
  csrw CSR_HVIP, zero
  ecall
