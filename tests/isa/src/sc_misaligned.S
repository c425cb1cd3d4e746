/* sc_misaligned: SC.W / SC.D on a misaligned address must raise store/AMO address-misaligned
 * (6) or store/AMO access fault (7) (unprivileged spec, "A" chapter: LR/SC need natural
 * alignment, otherwise an address-misaligned or access-fault exception), whether or not a
 * reservation is held, and must not write memory.
 * QEMU-DEVIATION(exit 1): QEMU 7.2 compares the address with its reservation before any alignment
 * check and simply fails the SC (rd = 1, no trap), so this test fails on QEMU (exit 1); Spike
 * checks alignment first, as the spec says. */
#include "isa_test.h"
TEST_BEGIN
  TEST_NUM(1)
  la a0, scdat; lr.w a3, (a0); addi a0, a0, 2; li a2, 0x5555; TRAP_RESUME(1f)
  sc.w a2, a1, (a0)
  j fail
1: la t1, trap_state; ld t0, TS_CAUSE(t1); li t2, 0x5555; bne a2, t2, fail
  li t2, CAUSE_STORE_ACCESS; beq t0, t2, 2f; li t2, CAUSE_MISALIGNED_STORE; bne t0, t2, fail
2:
  TEST_NUM(2)
  la a0, scdat; lr.d a3, (a0); addi a0, a0, 4; li a2, 0x5555; TRAP_RESUME(1f)
  sc.d a2, a1, (a0)
  j fail
1: la t1, trap_state; ld t0, TS_CAUSE(t1); li t2, 0x5555; bne a2, t2, fail
  li t2, CAUSE_STORE_ACCESS; beq t0, t2, 2f; li t2, CAUSE_MISALIGNED_STORE; bne t0, t2, fail
2:
  TEST_NUM(3)
  la a0, scdat; ld a1, 0(a0); bnez a1, fail; ld a1, 8(a0); bnez a1, fail
  .data
  .balign 16
scdat: .dword 0, 0
  .text
TEST_END
