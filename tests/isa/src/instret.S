/* instret: minstret counts retired instructions exactly, and a CSR write to it "takes effect
 * after the writing instruction has otherwise completed" (privileged spec, mcycle/minstret):
 * csrw minstret, X makes the next instruction read X (the write's own increment is not added
 * on top), the one after reads X + 1; ten nops advance it by ten; instret (the user alias)
 * agrees; mcycle is writable the same way (checked loosely: cycles are not instructions).
 * (riscv-tests' rv64mi-p-instret_overflow checks the first case.)  ISA-ENV: m-only.
 * QEMU-DEVIATION(exit 1): QEMU 7.2 derives minstret from host time (or, with -icount, counts
 * the writing instruction again), so the written value is not what the next instruction reads. */
#include "isa_test.h"
TEST_BEGIN
  TEST_CASE(1, a0, 0, csrwi minstret, 0; csrr a0, minstret)
  TEST_NUM(2); li t0, 1000; csrw minstret, t0; csrr a0, minstret; csrr a1, minstret
  li t2, 1000; bne a0, t2, fail; li t2, 1001; bne a1, t2, fail
  TEST_NUM(3); csrw minstret, zero; .rept 10; nop; .endr; csrr a0, minstret; li t2, 10; bne a0, t2, fail
  TEST_NUM(4); csrw minstret, zero; nop; rdinstret a0; li t2, 1; bne a0, t2, fail
  TEST_NUM(5); li t0, 0x7fffffffffffffff; csrw minstret, t0; csrr a0, minstret; csrr a1, minstret
  bne a0, t0, fail; li t2, 0x8000000000000000; bne a1, t2, fail
  TEST_NUM(6); li t0, -1; csrw minstret, t0; nop; csrr a0, minstret; bnez a0, fail   /* wraps */
  TEST_NUM(7); csrw mcycle, zero; csrr a0, mcycle; li t2, 1000; bgeu a0, t2, fail
TEST_END
