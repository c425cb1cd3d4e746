/* time: the `time` CSR (rdtime) reads the CLINT's mtime: a read lies between two loads of
 * mtime at 0x200bff8; it never goes backwards; it is read-only (a write is illegal) and
 * readable from every mode here (mcounteren.TM = scounteren.TM = 1); mtime is writable by M;
 * (m- variant) clearing mcounteren.TM / scounteren.TM makes rdtime illegal in S / U.
 * QEMU-MACHINE(virt): QEMU's spike machine has no time CSR (rdtime traps), QEMU's virt and
 * Spike have it; run-qemu.sh runs this test on virt. */
#include "isa_test.h"
TEST_BEGIN
  TEST_NUM(1)
  li a3, CLINT_MTIME; ld a0, 0(a3); rdtime a1; ld a2, 0(a3)
  bltu a1, a0, fail; bltu a2, a1, fail
  TEST_NUM(2)
  rdtime a0; .rept 20; nop; .endr; rdtime a1; bltu a1, a0, fail
  TEST_TRAP(3, CAUSE_ILLEGAL_INSTRUCTION, csrw time, x0)
  TEST_TRAP(4, CAUSE_ILLEGAL_INSTRUCTION, li a1, 1; csrrs a0, time, a1)
  TEST_NUM(5); csrrs a0, time, x0
#ifdef ENV_M
  /* M-mode may set mtime; time follows */
  TEST_NUM(6)
  li a3, CLINT_MTIME; li a0, 0x100000000; sd a0, 0(a3); rdtime a1; bltu a1, a0, fail
  li t2, 0x100000000 + 100000000; bgeu a1, t2, fail
  /* mcounteren.TM / scounteren.TM gate time for S and U */
  TEST_NUM(7); csrwi mcounteren, 5; csrwi scounteren, 7
  TEST_TRAP_IN_MODE(8, PRV_S, CAUSE_ILLEGAL_INSTRUCTION, rdtime a0)
  TEST_TRAP_IN_MODE(9, PRV_U, CAUSE_ILLEGAL_INSTRUCTION, rdtime a0)
  TEST_NUM(10); csrwi mcounteren, 7; csrwi scounteren, 5
  RUN_IN_MODE(11, PRV_S, rdtime a0)
  TEST_TRAP_IN_MODE(12, PRV_U, CAUSE_ILLEGAL_INSTRUCTION, rdtime a0)
  TEST_NUM(13); csrwi scounteren, 7
  RUN_IN_MODE(14, PRV_U, rdtime a0)
#endif
TEST_END
