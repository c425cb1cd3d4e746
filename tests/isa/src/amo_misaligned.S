/* amo_misaligned: AMOs on misaligned addresses must raise store/AMO address-misaligned (6) or
 * store/AMO access fault (7) (privileged spec: AMOs raise store/AMO exceptions, never load
 * ones), and must not change memory or rd.
 * QEMU-DEVIATION(exit 1): QEMU 7.2 raises *load* address-misaligned (cause 4) for a misaligned AMO, so
 * this test fails on QEMU at case 1 (exit 1); later QEMU versions and Spike report cause 6. */
#include "isa_test.h"

/* an A-extension access that must trap with one of two causes; a0 = the address */
#define MUST_TRAP2(n, c1, c2, ...)                                                               \
  TEST_NUM(n); la a0, sdat2 + 4; li a2, 0x5555; TRAP_RESUME(9990f);                               \
  __VA_ARGS__; j fail;                                                                           \
9990: la t1, trap_state; ld t0, TS_CAUSE(t1); li t2, 0x5555; bne a2, t2, fail;                  \
  li t2, c2; beq t0, t2, 9991f; li t2, c1; bne t0, t2, fail;                                      \
9991:

TEST_BEGIN
  MUST_TRAP2(1, CAUSE_MISALIGNED_STORE, CAUSE_STORE_ACCESS, addi a0, a0, 1; amoadd.w a2, a1, (a0))
  MUST_TRAP2(2, CAUSE_MISALIGNED_STORE, CAUSE_STORE_ACCESS, amoswap.d a2, a1, (a0))
  MUST_TRAP2(3, CAUSE_MISALIGNED_STORE, CAUSE_STORE_ACCESS, addi a0, a0, 2; amomaxu.w a2, a1, (a0))
  MUST_TRAP2(4, CAUSE_MISALIGNED_STORE, CAUSE_STORE_ACCESS, amoor.d a2, a1, (a0))
  TEST_NUM(5); la a0, sdat2; ld a1, 0(a0); ld a2, 8(a0); li t2, 0x1111111111111111; bne a1, t2, fail; bne a2, t2, fail

  .data
  .balign 16
sdat2: .dword 0x1111111111111111, 0x1111111111111111, 0x1111111111111111, 0x1111111111111111
  .text
TEST_END
