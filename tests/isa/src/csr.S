/* csr: Zicsr semantics in M-mode (ISA-ENV: m-only).  csrrw/csrrs/csrrc and the immediate forms
 * return the old value and write the new one; rs1 = x0 / uimm = 0 on csrrs/csrrc performs no
 * write (so it is legal on read-only CSRs), rd = x0 still writes; a write to a read-only CSR
 * (mvendorid marchid mimpid mhartid cycle instret, number bits [11:10] = 11) or to a CSR
 * that does not exist (RV32-only cycleh/mstatush, an unassigned number) is illegal; misa reports
 * MXL = 64 and I M A C S U; sstatus/sie/sip are views of
 * mstatus/mie/mip; cycle and instret advance.  (time: see time.S) */
#include "isa_test.h"
TEST_BEGIN
  TEST_CASE(1, a0, 0, li a1, 0x1234; csrw sscratch, a1; li a1, 0x5678; csrrw a0, sscratch, a1; li t2, 0x1234; bne a0, t2, fail; csrr a1, sscratch; li t2, 0x5678; sub a0, a1, t2)
  TEST_CASE(2, a0, 0xffffffffffffffff, li a1, -1; csrw sscratch, a1; csrr a0, sscratch)
  TEST_CASE(3, a0, 0x5678, li a1, 0x5678; csrw sscratch, a1; li a2, 0xf0000; csrrs a0, sscratch, a2)
  TEST_CASE(4, a0, 0xf5678, csrr a0, sscratch)
  TEST_CASE(5, a0, 0xf5678, li a2, 0x0f0f0; csrrc a0, sscratch, a2)
  TEST_CASE(6, a0, 0xf0608, csrr a0, sscratch)
  TEST_CASE(7, a0, 0xf0608, csrrwi a0, sscratch, 31)
  TEST_CASE(8, a0, 31, csrrsi a0, sscratch, 0x0)
  TEST_CASE(9, a0, 31, csrrsi a0, sscratch, 0x20 - 1)
  TEST_CASE(10, a0, 31, csrrci a0, sscratch, 0x5)
  TEST_CASE(11, a0, 26, csrr a0, sscratch)
  TEST_CASE(12, a0, 26, csrrsi a0, sscratch, 0x10; csrrci a0, sscratch, 0)
  TEST_CASE(13, a0, 0x1a, csrrc a0, sscratch, x0)
  /* rd = x0 still writes */
  TEST_CASE(14, a0, 77, li a1, 77; csrrw x0, sscratch, a1; csrr a0, sscratch)
  /* source and destination the same register: old value out, register value in */
  TEST_CASE(15, a0, 77, li a0, 88; csrrw a0, sscratch, a0)
  TEST_CASE(16, a0, 88, csrr a0, sscratch)

  /* mscratch (restored: the trap handler needs it) */
  TEST_NUM(50); csrr s1, mscratch; li a1, 0x5a5a; csrrw a0, mscratch, a1; csrr a2, mscratch; csrw mscratch, s1; bne a0, s1, fail; li t2, 0x5a5a; bne a2, t2, fail
  /* read-only CSRs: reading with csrrs/csrrc rs1=x0 or csrrsi/csrrci uimm=0 is fine */
  TEST_CASE(17, a0, 0, csrr a0, mhartid)
  TEST_NUM(18); csrr a0, mvendorid; csrr a0, marchid; csrr a0, mimpid; csrrc a0, mhartid, x0
  TEST_NUM(19); csrrsi a0, mhartid, 0; csrrci a0, cycle, 0; csrrs a0, instret, x0
  /* ... but any write is illegal */
  TEST_TRAP(20, CAUSE_ILLEGAL_INSTRUCTION, csrw mhartid, x0)
  /* (csrrs/csrrc with a zero-valued rs1 != x0: see csr_rozero.S) */
  TEST_TRAP(22, CAUSE_ILLEGAL_INSTRUCTION, csrrsi a0, mvendorid, 1)
  TEST_TRAP(23, CAUSE_ILLEGAL_INSTRUCTION, csrw cycle, x0)
  TEST_TRAP(24, CAUSE_ILLEGAL_INSTRUCTION, csrw 0xf02, x0)   /* read-only space, not a CSR */
  TEST_TRAP(25, CAUSE_ILLEGAL_INSTRUCTION, csrwi instret, 0)
  TEST_TRAP(26, CAUSE_ILLEGAL_INSTRUCTION, csrrci a0, marchid, 1)
  /* the destination of a trapping CSR instruction is not written */
  TEST_NUM(28); li a0, 123; TRAP_RESUME(1f); csrrw a0, mhartid, x0; j fail; 1: li t2, 123; bne a0, t2, fail
  /* CSRs that do not exist on RV64 */
  TEST_TRAP(29, CAUSE_ILLEGAL_INSTRUCTION, csrr a0, 0xc80)        /* cycleh */
  TEST_TRAP(30, CAUSE_ILLEGAL_INSTRUCTION, csrr a0, 0x310)        /* mstatush */
  TEST_TRAP(31, CAUSE_ILLEGAL_INSTRUCTION, csrr a0, 0x0ff)        /* unassigned */
  TEST_TRAP(32, CAUSE_ILLEGAL_INSTRUCTION, csrw 0xc82, x0)        /* instreth */

  /* misa: MXL = 2 (64-bit), I M A C S U */
  TEST_CASE(33, a0, 2, csrr a0, misa; srli a0, a0, 62)
  TEST_CASE(34, a0, (1 << 8) | (1 << 12) | (1 << 0) | (1 << 2) | (1 << 18) | (1 << 20), csrr a0, misa; li a1, (1 << 8) | (1 << 12) | (1 << 0) | (1 << 2) | (1 << 18) | (1 << 20); and a0, a0, a1)
  /* (mepc/sepc bit 0: see xepc.S) */
  /* sstatus is a restricted view of mstatus */
  TEST_CASE(37, a0, MSTATUS_SIE, csrw mstatus, x0; csrsi sstatus, MSTATUS_SIE; csrr a0, mstatus; andi a0, a0, MSTATUS_SIE | MSTATUS_MIE)
  TEST_CASE(38, a0, 0, li a1, MSTATUS_MIE | MSTATUS_MPIE; csrs sstatus, a1; csrr a0, mstatus; andi a0, a0, MSTATUS_MIE | MSTATUS_MPIE)
  TEST_CASE(39, a0, 0, li a1, MSTATUS_MPP; csrs mstatus, a1; csrr a0, sstatus; and a0, a0, a1)
  TEST_CASE(40, a0, MSTATUS_SPP, li a1, MSTATUS_SPP; csrs sstatus, a1; csrr a0, mstatus; and a0, a0, a1)
  /* mstatus.UXL and SXL are 2 (64-bit): bits 33:32 and 35:34 */
  TEST_CASE(41, a0, 0xa, csrr a0, mstatus; srli a0, a0, 32; andi a0, a0, 0xf)
  TEST_NUM(42); csrw mstatus, x0
  /* sie / sip are views of mie / mip for delegated interrupts */
  TEST_CASE(43, a0, 0x222, li a1, 0x222; csrw mideleg, a1; csrw mie, x0; csrw sie, a1; csrr a0, mie)
  TEST_CASE(44, a0, 0x2, li a1, 0x2; csrw mip, x0; csrs sip, a1; csrr a0, mip; andi a0, a0, 2)
  TEST_CASE(45, a0, 0x0, csrc sip, a1; csrr a0, mip; andi a0, a0, 2)
  TEST_NUM(46); csrw mie, x0; csrw mideleg, x0

  /* cycle and instret advance over 50 instructions */
  TEST_NUM(48)
  rdinstret a0; rdcycle a1
  .rept 50; nop; .endr
  rdinstret a2; rdcycle a3
  sub a2, a2, a0; li t2, 50; bltu a2, t2, fail
  beq a3, a1, fail
  /* mcycle / minstret are the M-mode names of the same counters */
  TEST_NUM(49); csrr a0, minstret; rdinstret a1; bltu a1, a0, fail; csrr a0, mcycle; beqz a0, fail
TEST_END
