/* precise: exceptions are precise and trapping instructions do not retire (ISA-ENV: m-only).
 * In a straight line of register writes (32-bit and compressed) ended by a faulting load, every
 * write before the fault is done, none after it, mepc is the load; minstret counts exactly the
 * instructions that retired: an ECALL, EBREAK, illegal instruction or faulting load does not
 * ("ECALL ... is not considered to retire, and should not increment the minstret CSR"); the
 * first instruction of the handler reads the count.
 * QEMU-DEVIATION(exit 2): QEMU 7.2 derives minstret from host time (case 2 fails); with
 * -icount shift=0 cases 1-2 pass (precise state, the faulting load not counted) and case 3
 * fails (it counts the ECALL). */
#include "isa_test.h"
#define BAD 0x8000000000000000
TEST_BEGIN
  la t0, h_count; csrw mtvec, t0
  /* a load access fault in the middle */
  TEST_NUM(1)
  li a1, 0; li a2, 0; li a3, 0; li a4, 0; li s2, 0; li s3, 0; li s0, BAD
  la s1, 2f
  csrr a5, minstret
  addi a1, a1, 1
  c.addi a2, 2
  addi a3, a3, 3
  c.li a4, 4
1: ld s2, 0(s0)
  li s3, 99
  j fail
2: /* a6 = minstret read by the handler's first instruction */
  li t2, 1; bne a1, t2, fail; li t2, 2; bne a2, t2, fail; li t2, 3; bne a3, t2, fail
  li t2, 4; bne a4, t2, fail; bnez s2, fail; bnez s3, fail
  la t2, 1b; bne a7, t2, fail                     /* mepc */
  TEST_NUM(2); sub a6, a6, a5; li t2, 5; bne a6, t2, fail
  /* ecall, ebreak and an illegal instruction do not retire either */
  TEST_NUM(3)
  la s1, 2f
  csrr a5, minstret
  nop
  ecall
2: sub a6, a6, a5; li t2, 2; bne a6, t2, fail
  TEST_NUM(4)
  la s1, 2f
  csrr a5, minstret
  ebreak
2: sub a6, a6, a5; li t2, 1; bne a6, t2, fail
  TEST_NUM(5)
  la s1, 2f
  csrr a5, minstret
  c.nop
  .word 0
2: sub a6, a6, a5; li t2, 2; bne a6, t2, fail
  la t0, _mtrap; csrw mtvec, t0
  j pass

  /* handler: read minstret first, record mepc, continue at s1 */
  .balign 4
h_count:
  csrr a6, minstret
  csrr a7, mepc
  csrw mepc, s1
  mret
TEST_END
