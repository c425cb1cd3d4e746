/* warl_mpp: mstatus.MPP is WARL: written with the reserved value 2 it reads back as a legal
 * mode (0, 1 or 3), and an MRET then lands in that mode (ISA-ENV: m-only).
 * QEMU-DEVIATION(exit 1): QEMU 7.2 stores MPP = 2 as written (later versions legalize it). */
#include "isa_test.h"
TEST_BEGIN
  TEST_NUM(1)
  li t0, MSTATUS_MPP; csrc mstatus, t0; li t0, 2 << 11; csrs mstatus, t0
  csrr a0, mstatus; srli a0, a0, 11; andi a0, a0, 3; li t2, 2; beq a0, t2, fail
  mv s1, a0                                   /* the legal mode it became */
  /* mret goes to that mode: find out with an ecall (cause 8 + mode, or 11 from M) */
  TEST_NUM(2)
  TRAP_RESUME_M(2f)
  la t0, 1f; csrw mepc, t0; mret
1: ecall
  j fail
2: la t1, trap_state; ld t0, TS_CAUSE(t1); ld t2, TS_PRV(t1); bne t2, s1, fail
  addi t2, s1, CAUSE_USER_ECALL; li t1, 3; bne s1, t1, 3f; li t2, CAUSE_MACHINE_ECALL
3: bne t0, t2, fail
TEST_END
