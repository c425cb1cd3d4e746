/* sstc: the Sstc extension (ISA-ENV: m-only).  menvcfg.STCE (bit 63) is writable; stimecmp
 * (0x14d) reads back what M writes; with STCE = 1, mip.STIP is mtime >= stimecmp: set at once
 * for a compare value in the past, by itself for one a little ahead (and mtime has reached it
 * then), cleared by a later value, read-only to CSR writes; an S timer interrupt that M does
 * not delegate traps to M with cause 5; S-mode may access stimecmp only with STCE = 1 and
 * mcounteren.TM = 1, U-mode never (illegal instruction); with STCE = 0 mip.STIP is M's to write
 * again.  The time compared is the CLINT's mtime.
 * QEMU-MACHINE(virt): as time.S (QEMU's spike machine has no time source for Sstc).
 * QEMU-DEVIATION(exit 15): QEMU 7.2's stimecmp drives STIP even with STCE = 0 (the Sstc spec:
 * then STIP "reverts to its defined behavior", M's to write). */
#include "isa_test.h"
#define STCE (1 << 63)
#define STIP 0x20
#define SPIN_LIMIT 20000000
#define SPIN_PENDING(mask) li t2, SPIN_LIMIT; 9993: csrr t0, mip; andi t0, t0, mask; bnez t0, 9994f; \
  addi t2, t2, -1; bnez t2, 9993b; j fail; 9994:
TEST_BEGIN
  li s4, CLINT_MTIME
  li t0, -1; li t1, CLINT_MTIMECMP; sd t0, 0(t1)   /* no M timer */
  /* STCE is writable, stimecmp reads back */
  TEST_NUM(1)
  li t0, STCE; csrs 0x30a, t0; csrr a0, 0x30a; and a0, a0, t0; beqz a0, fail
  TEST_CASE(2, a0, 0x123456789, li t0, 0x123456789; csrw 0x14d, t0; csrr a0, 0x14d)
  /* a compare value in the past: STIP */
  TEST_NUM(3)
  csrw 0x14d, zero
  SPIN_PENDING(STIP)
  /* STIP is the comparison's: a CSR write cannot clear it */
  TEST_CASE(4, a0, STIP, li t1, STIP; csrc mip, t1; csrr a0, mip; andi a0, a0, STIP)
  /* a later value clears it */
  TEST_CASE(5, a0, 0, li t0, -1; csrw 0x14d, t0; csrr a0, mip; andi a0, a0, STIP)
  /* a little ahead: it comes by itself, when mtime has reached stimecmp */
  TEST_NUM(6)
  ld t0, 0(s4); addi t0, t0, 500; csrw 0x14d, t0
  csrr a0, mip; andi a0, a0, STIP; bnez a0, fail
  SPIN_PENDING(STIP)
  ld t1, 0(s4); bltu t1, t0, fail
  /* not delegated: the S timer interrupt traps to M */
  TEST_NUM(7)
  li t0, STIP; csrw mie, t0
  TRAP_RESUME_M(1f)
  csrsi mstatus, MSTATUS_MIE
  nop
  j fail
1: TRAP_CHECK(TS_CAUSE, IRQ_BIT | IRQ_S_TIMER)
  csrw mie, zero
  li t0, -1; csrw 0x14d, t0
  /* S-mode access: needs STCE and mcounteren.TM */
  RUN_IN_MODE(8, PRV_S, csrr a0, 0x14d; li t0, -1; csrw 0x14d, t0)
  TEST_NUM(9); csrwi mcounteren, 5
  TEST_TRAP_IN_MODE(10, PRV_S, CAUSE_ILLEGAL_INSTRUCTION, csrr a0, 0x14d)
  TEST_NUM(11); csrwi mcounteren, 7
  TEST_TRAP_IN_MODE(12, PRV_U, CAUSE_ILLEGAL_INSTRUCTION, csrr a0, 0x14d)
  TEST_NUM(13); li t0, STCE; csrc 0x30a, t0
  TEST_TRAP_IN_MODE(14, PRV_S, CAUSE_ILLEGAL_INSTRUCTION, csrr a0, 0x14d)
  /* M still may; and without STCE, STIP is M's again and stimecmp does not drive it */
  TEST_CASE(15, a0, 0, csrw 0x14d, zero; csrr a0, mip; andi a0, a0, STIP)
  TEST_CASE(16, a0, STIP, li t1, STIP; csrs mip, t1; csrr a0, mip; andi a0, a0, STIP)
  TEST_CASE(17, a0, 0, li t1, STIP; csrc mip, t1; csrr a0, mip; andi a0, a0, STIP)
TEST_END
