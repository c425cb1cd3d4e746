/* cbo: Zicbom (cbo.clean, cbo.flush, cbo.inval) and Zicboz (cbo.zero), 64-byte blocks
 * (ISA-ENV: m-only).  cbo.zero zeroes the aligned block holding rs1 (rs1 need not be aligned)
 * and nothing else; the management ops leave memory as it is (mtemu keeps no cache contents).
 * The envcfg enables (CMO chapter, "Control and Status Register State"): in M-mode always
 * executed; below M illegal instruction while menvcfg's CBZE / CBCFE / CBIE = 00 disables them,
 * in U-mode also while senvcfg's does; CBIE = 01 runs cbo.inval as a flush; CBIE's reserved
 * encoding 10 is not kept (WARL: the field keeps its old value).  Faults are store faults with
 * mtval = rs1 itself: store access fault outside memory; under Sv39, a page that does not allow
 * writing gives cbo.zero a store page fault while the management ops only need it readable, and
 * an invalid page gives them a store page fault too.  With H, henvcfg (and senvcfg in VU) give
 * virtual instruction exceptions in VS/VU.
 * QEMU-UNSUPPORTED(QEMU 7.2 has neither Zicbom nor Zicboz), so these cases are checked against
 * the CMO specification only.  Built with -march=..._zicbom_zicboz (tests/isa/module.mk). */
#include "isa_test.h"
#define MENVCFG 0x30a
#define SENVCFG 0x10a
#define ALL_ON 0xf0 /* CBZE | CBCFE | CBIE = 11 */
#define CBZE 0x80
#define CBCFE 0x40
#define CBIE_FLUSH 0x10
#define PATTERN 0x5a5a5a5a5a5a5a5a
#define BAD 0x8000000000000000 /* no memory (physical addresses are at most 56 bits) */

/* The H extension's VS and VU modes, as tests/isa/src/h-vmode.S enters them: MPV = 1 and mret;
 * the harness's handler clears MPV when it resumes in M. */
#define HENVCFG 0x60a
#define MSTATUS_MPV (1 << 39)
#define CAUSE_VIRTUAL 22
#define ENTER_V(mode, label)                                                                     \
        li t0, MSTATUS_MPP; csrc mstatus, t0;                                                    \
        li t0, ((mode) << 11) | MSTATUS_MPV; csrs mstatus, t0;                                   \
        la t0, label; csrw mepc, t0; mret
/* code in VS/VU (mode) must trap to M with `cause` */
#define V_TRAP(n, mode, cause, ...)                                                              \
        TEST_NUM(n); TRAP_RESUME_M(9982f); ENTER_V(mode, 9983f);                                 \
9983:   __VA_ARGS__; j fail;                                                                     \
9982:   TRAP_CHECK(TS_CAUSE, cause); TRAP_CHECK(TS_PRV, mode)
/* code in VS/VU that must not trap, then an ecall (cause 8 from VU, 10 from VS) */
#define V_RUN(n, mode, ...) V_TRAP(n, mode, CAUSE_USER_ECALL + 2 * (mode), __VA_ARGS__; ecall)

/* fills blk (192 bytes) with PATTERN */
#define FILL la t3, blk; li t4, PATTERN; li t5, 24; 9980: sd t4, 0(t3); addi t3, t3, 8; addi t5, t5, -1; bnez t5, 9980b
/* n: the ops that `mode` may not execute raise illegal instruction */
#define ILLEGAL_IN(n, mode, op) TEST_TRAP_IN_MODE(n, mode, CAUSE_ILLEGAL_INSTRUCTION, la a1, blk; op (a1))

TEST_BEGIN
  FILL
  /* M-mode: cbo.zero through an unaligned address zeroes bytes 64..127 of blk only */
  TEST_CASE(1, a0, 0, la a1, blk; addi a2, a1, 77; cbo.zero (a2); ld a0, 64(a1))
  TEST_CASE(2, a0, 0, la a1, blk; ld a0, 120(a1))
  TEST_CASE(3, a0, PATTERN, la a1, blk; ld a0, 56(a1))
  TEST_CASE(4, a0, PATTERN, la a1, blk; ld a0, 128(a1))
  TEST_CASE(5, a0, PATTERN, la a1, blk; cbo.clean (a1); cbo.flush (a1); cbo.inval (a1); ld a0, 0(a1))

  /* the envcfg fields: off after reset, writable, CBIE = 10 not kept */
  TEST_CASE(6, a0, 0, csrr a0, MENVCFG; andi a0, a0, 0xf0)
  TEST_CASE(7, a0, 0xf0, li a1, ALL_ON; csrw MENVCFG, a1; csrr a0, MENVCFG; andi a0, a0, 0xf0)
  TEST_CASE(8, a0, 0x30, li a1, 0x20; csrw MENVCFG, a1; csrr a0, MENVCFG; andi a0, a0, 0xf0)
  TEST_CASE(9, a0, 0, csrw MENVCFG, zero; li a1, 0x20; csrw MENVCFG, a1; csrr a0, MENVCFG; andi a0, a0, 0xf0)
  TEST_CASE(10, a0, 0xf1, li a1, 0xff; csrw SENVCFG, a1; csrr a0, SENVCFG; andi a0, a0, 0xff)
  TEST_CASE(11, a0, 0, csrr a0, MENVCFG; andi a0, a0, 0xf0) /* senvcfg's fields do not touch menvcfg's (0 since case 9) */
  TEST_CASE(12, a0, 0, csrw MENVCFG, zero; csrw SENVCFG, zero; csrr a0, SENVCFG)

  /* menvcfg all off: illegal in S and U (senvcfg on does not help U) */
  ILLEGAL_IN(13, PRV_S, cbo.zero)
  ILLEGAL_IN(14, PRV_S, cbo.clean)
  ILLEGAL_IN(15, PRV_S, cbo.flush)
  ILLEGAL_IN(16, PRV_S, cbo.inval)
  li t0, ALL_ON; csrw SENVCFG, t0
  ILLEGAL_IN(17, PRV_U, cbo.zero)
  ILLEGAL_IN(18, PRV_U, cbo.inval)
  csrw SENVCFG, zero

  /* menvcfg all on, senvcfg off: S executes them, U does not */
  FILL
  li t0, ALL_ON; csrw MENVCFG, t0
  RUN_IN_MODE(19, PRV_S, la a1, blk; cbo.clean (a1); cbo.flush (a1); cbo.inval (a1); cbo.zero (a1))
  TEST_CASE(20, a0, 0, la a1, blk; ld a0, 0(a1); ld a2, 56(a1); or a0, a0, a2)
  TEST_CASE(21, a0, PATTERN, la a1, blk; ld a0, 64(a1))
  ILLEGAL_IN(22, PRV_U, cbo.zero)
  ILLEGAL_IN(23, PRV_U, cbo.clean)
  ILLEGAL_IN(24, PRV_U, cbo.flush)
  ILLEGAL_IN(25, PRV_U, cbo.inval)

  /* senvcfg on too: U executes them */
  li t0, ALL_ON; csrw SENVCFG, t0
  RUN_IN_MODE(26, PRV_U, la a1, blk; cbo.clean (a1); cbo.flush (a1); cbo.inval (a1); addi a1, a1, 64; cbo.zero (a1))
  TEST_CASE(27, a0, 0, la a1, blk; ld a0, 64(a1))
  /* each field alone */
  li t0, CBZE; csrw SENVCFG, t0
  RUN_IN_MODE(28, PRV_U, la a1, blk; cbo.zero (a1))
  ILLEGAL_IN(29, PRV_U, cbo.clean)
  li t0, CBCFE; csrw SENVCFG, t0
  RUN_IN_MODE(30, PRV_U, la a1, blk; cbo.clean (a1); cbo.flush (a1))
  ILLEGAL_IN(31, PRV_U, cbo.zero)
  ILLEGAL_IN(32, PRV_U, cbo.inval)
  li t0, CBIE_FLUSH; csrw SENVCFG, t0 /* cbo.inval as a flush */
  RUN_IN_MODE(33, PRV_U, la a1, blk; cbo.inval (a1))
  li t0, ALL_ON & ~CBZE; csrw MENVCFG, t0; li t0, ALL_ON; csrw SENVCFG, t0
  ILLEGAL_IN(34, PRV_S, cbo.zero)
  ILLEGAL_IN(35, PRV_U, cbo.zero)
  RUN_IN_MODE(36, PRV_U, la a1, blk; cbo.flush (a1))
  li t0, ALL_ON; csrw MENVCFG, t0

  /* no memory: store access fault for all of them, mtval = rs1 (unaligned as given) */
  TEST_TRAP(37, CAUSE_STORE_ACCESS, li a1, BAD + 0x123; cbo.zero (a1))
  TRAP_CHECK_REG(TS_TVAL, a1)
  TEST_TRAP(38, CAUSE_STORE_ACCESS, li a1, BAD + 0x45; cbo.clean (a1))
  TRAP_CHECK_REG(TS_TVAL, a1)
  TEST_TRAP(39, CAUSE_STORE_ACCESS, li a1, BAD + 0x80; cbo.inval (a1))
  TRAP_CHECK_REG(TS_TVAL, a1)

  /* Sv39: VA 0..1G a read-only gigapage onto 0x8000_0000 (A set, D clear), 1G..2G invalid,
   * 2G..3G the identity map (code, data) */
  TEST_NUM(40)
  la t0, l2; li t1, (0x80000 << 10) | PTE_V | PTE_R | PTE_A; sd t1, 0(t0)
  li t1, (0x80000 << 10) | PTE_V | PTE_R | PTE_W | PTE_X | PTE_A | PTE_D; sd t1, 16(t0)
  srli t0, t0, 12; li t1, SATP_SV39; or t0, t0, t1; csrw satp, t0; sfence.vma
  TEST_TRAP_IN_MODE(41, PRV_S, CAUSE_STORE_PAGE_FAULT, li a1, 0x123; cbo.zero (a1))
  TRAP_CHECK(TS_TVAL, 0x123)
  RUN_IN_MODE(42, PRV_S, li a1, 0x123; cbo.clean (a1); cbo.flush (a1); cbo.inval (a1))
  TEST_TRAP_IN_MODE(43, PRV_S, CAUSE_STORE_PAGE_FAULT, li a1, 0x40000008; cbo.clean (a1))
  TRAP_CHECK(TS_TVAL, 0x40000008)
  TEST_TRAP_IN_MODE(44, PRV_S, CAUSE_STORE_PAGE_FAULT, li a1, 0x40000048; cbo.flush (a1))
  TRAP_CHECK(TS_TVAL, 0x40000048)
  TEST_TRAP_IN_MODE(45, PRV_S, CAUSE_STORE_PAGE_FAULT, li a1, 0x7fffffff; cbo.inval (a1))
  TRAP_CHECK(TS_TVAL, 0x7fffffff)
  FILL
  RUN_IN_MODE(46, PRV_S, la a1, blk; addi a1, a1, 191; cbo.zero (a1))
  TEST_NUM(47); csrw satp, x0; sfence.vma
  TEST_CASE(48, a0, 0, la a1, blk; ld a0, 128(a1); ld a2, 184(a1); or a0, a0, a2)
  TEST_CASE(49, a0, PATTERN, la a1, blk; ld a0, 120(a1))

  /* H: in VS and VU (hgatp and vsatp Bare) henvcfg decides between executing and a virtual
   * instruction exception (22), and so does senvcfg in VU; menvcfg off is illegal even there;
   * henvcfg's fields are WARL like the others and do not follow menvcfg's */
  li t0, ALL_ON; csrw MENVCFG, t0; csrw SENVCFG, t0; csrw HENVCFG, zero
  V_TRAP(50, PRV_S, CAUSE_VIRTUAL, la a1, blk; cbo.zero (a1))
  V_TRAP(51, PRV_S, CAUSE_VIRTUAL, la a1, blk; cbo.clean (a1))
  V_TRAP(52, PRV_U, CAUSE_VIRTUAL, la a1, blk; cbo.inval (a1))
  li t0, ALL_ON; csrw HENVCFG, t0
  FILL
  V_RUN(53, PRV_S, la a1, blk; cbo.clean (a1); cbo.flush (a1); cbo.inval (a1); cbo.zero (a1))
  TEST_CASE(54, a0, 0, la a1, blk; ld a0, 8(a1))
  csrw SENVCFG, zero
  V_TRAP(55, PRV_U, CAUSE_VIRTUAL, la a1, blk; cbo.zero (a1))
  li t0, ALL_ON; csrw SENVCFG, t0
  V_RUN(56, PRV_U, la a1, blk; cbo.flush (a1); cbo.zero (a1))
  csrw MENVCFG, zero
  V_TRAP(57, PRV_S, CAUSE_ILLEGAL_INSTRUCTION, la a1, blk; cbo.zero (a1))
  V_TRAP(58, PRV_U, CAUSE_ILLEGAL_INSTRUCTION, la a1, blk; cbo.clean (a1))
  TEST_CASE(59, a0, 0xf0, csrr a0, HENVCFG; andi a0, a0, 0xf0) /* menvcfg = 0 left them */
  TEST_CASE(60, a0, 0x30, li a1, 0x20; csrw HENVCFG, a1; csrr a0, HENVCFG; andi a0, a0, 0xf0)
  csrw HENVCFG, zero; csrw SENVCFG, zero
  .data
  .balign 4096
l2: .fill 512, 8, 0
  .balign 64
blk: .fill 24, 8, 0
  .text
TEST_END
