/* fetch_straddle: 4-byte instructions whose two halves lie in two pages (the C extension
 * allows any 2-byte alignment, so one can start at page offset 0xffe): reached by falling
 * through from a page of compressed code, as a branch target, and as the target of a
 * taken jump from another page; each must execute once with the right value.  Under
 * meta-paging the second page is a fetch of its own, which the pager's online simulations
 * must count as the real pager does (tests/metapaging/equality.sh runs this ELF). */
#include "isa_test.h"
TEST_BEGIN

  /* (1) fall-through: 2047 c.addi, then addi a0, a0, 100 across the boundary */
  TEST_NUM(1)
  li a0, 0
  call straddle_fall
  li t2, 2147; bne a0, t2, fail

  /* (2) the straddling instruction as the target of a jump from the page before */
  TEST_NUM(2)
  li a0, 5
  call straddle_target
  li t2, 1005; bne a0, t2, fail

  /* (3) the straddling instruction run repeatedly in a loop that ends in the second page */
  TEST_NUM(3)
  li a0, 0; li s1, 50
  call straddle_loop
  li t2, 203; bne a0, t2, fail

TEST_END

  .text
  .option push
  .option rvc
  .balign 4096
straddle_fall:
  .rept 2047
  c.addi a0, 1
  .endr
  .option norvc
  addi a0, a0, 100     /* bytes 0xffe..0x1001 of the pair of pages */
  ret
  .option rvc

  .balign 4096
straddle_target:
  j 1f                 /* 4 bytes: the target is beyond c.j's reach */
  .rept 2045
  c.nop
  .endr
1:.option norvc
  addi a0, a0, 1000    /* at page offset 0xffe again */
  ret
  .option rvc

  .balign 4096
straddle_loop:
  .rept 2045
  c.nop
  .endr
  c.addi a0, 3         /* offset 0xffa */
  c.nop                /* 0xffc */
  .option norvc
2:addi a0, a0, 4       /* 0xffe: straddles */
  addi s1, s1, -1
  bnez s1, 2b
  ret
  .option pop
