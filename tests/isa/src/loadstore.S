/* loadstore: lb lh lw ld lbu lhu lwu sb sh sw sd.  Sign vs zero extension of every width,
 * positive and negative 12-bit offsets, stores write exactly their width (neighbours unchanged),
 * store then load back, x0 as destination (the load still happens, nothing is written), x0 as
 * the stored value, little-endian byte order. */
#include "isa_test.h"
TEST_BEGIN

  TEST_LOAD(1, lb, 0xffffffffffffffff, tdat, 0)
  TEST_LOAD(2, lb, 0x0000000000000000, tdat, 1)
  TEST_LOAD(3, lb, 0xfffffffffffffff0, tdat, 2)
  TEST_LOAD(4, lb, 0x000000000000000f, tdat, 3)
  TEST_LOAD(5, lbu, 0x00000000000000ff, tdat, 0)
  TEST_LOAD(6, lbu, 0x00000000000000f0, tdat, 2)
  TEST_LOAD(7, lh, 0x00000000000000ff, tdat, 0)
  TEST_LOAD(8, lh, 0x0000000000000ff0, tdat, 2)
  TEST_LOAD(9, lh, 0xffffffffffff8001, tdat2, 0)
  TEST_LOAD(10, lhu, 0x000000000000ff00, tdat2, 2)
  TEST_LOAD(11, lhu, 0x0000000000008001, tdat2, 0)
  TEST_LOAD(12, lw, 0x000000000ff000ff, tdat, 0)
  TEST_LOAD(13, lw, 0xffffffffff00ff00, tdat2, 2 + 2)
  TEST_LOAD(14, lw, 0xffffffff80000001, tdat3, 0)
  TEST_LOAD(15, lwu, 0x0000000080000001, tdat3, 0)
  TEST_LOAD(16, lwu, 0x00000000ff00ff00, tdat2, 4)
  TEST_LOAD(17, ld, 0x7fffffff80000001, tdat3, 0)
  TEST_LOAD(18, ld, 0x0123456789abcdef, tdat4, 0)
  /* negative offsets, offsets at the immediate's limits */
  TEST_LOAD(19, ld, 0x7fffffff80000001, tdat4, -8)
  TEST_LOAD(20, lbu, 0x00000000000000ef, tdat4 + 2048, -2048)
  TEST_LOAD(21, lbu, 0x0000000000000001, tdat4 - 2047 + 7, 2047)
  /* little endian: byte 0 is the least significant */
  TEST_LOAD(22, lbu, 0x00000000000000ab, tdat4, 2)
  TEST_LOAD(23, lhu, 0x0000000000004567, tdat4, 4)

  /* stores */
  TEST_STORE(24, lb, sb, 0xffffffffffffffaa, sdat, 0)
  TEST_STORE(25, lbu, sb, 0x00000000000000a0, sdat, 1)
  TEST_STORE(26, lh, sh, 0xffffffffffffaa00, sdat, 2)
  TEST_STORE(27, lhu, sh, 0x000000000000a00a, sdat, 4)
  TEST_STORE(28, lw, sw, 0xffffffffaa00aa00, sdat, 8)
  TEST_STORE(29, lwu, sw, 0x00000000a00aa00a, sdat, 12)
  TEST_STORE(30, ld, sd, 0xaabbccdd00112233, sdat, 16)
  TEST_STORE(31, ld, sd, 0x1122334455667788, sdat + 32, -8)
  TEST_STORE(32, lw, sw, 0x0000000012345678, sdat + 2048, -2048)

  /* a store writes exactly its width */
  TEST_NUM(33)
  la a0, sdat2; li a1, -1; sd a1, 0(a0); sd a1, 8(a0)
  sb zero, 1(a0)
  ld a2, 0(a0); li a3, 0xffffffffffff00ff; bne a2, a3, fail
  TEST_NUM(34)
  sh zero, 4(a0)
  ld a2, 0(a0); li a3, 0xffff0000ffff00ff; bne a2, a3, fail
  TEST_NUM(35)
  li a1, 0x12345678; sw a1, 8(a0)
  ld a2, 8(a0); li a3, 0xffffffff12345678; bne a2, a3, fail
  /* sd writes all 8 bytes, in little-endian order */
  TEST_NUM(36)
  li a1, 0x0807060504030201; sd a1, 0(a0)
  lbu a2, 0(a0); li a3, 1; bne a2, a3, fail
  lbu a2, 7(a0); li a3, 8; bne a2, a3, fail
  lwu a2, 4(a0); li a3, 0x08070605; bne a2, a3, fail
  /* x0 stores zero */
  TEST_NUM(37)
  sd x0, 0(a0); ld a2, 0(a0); bnez a2, fail
  /* a load into x0 does not change x0 */
  TEST_CASE(38, x0, 0, la a0, tdat; ld x0, 0(a0); lb x0, 0(a0); lw x0, 0(a0))
  /* base register = destination register */
  TEST_CASE(39, a0, 0x0123456789abcdef, la a0, tdat4; ld a0, 0(a0))
  /* store then load through a different base pointing at the same place */
  TEST_NUM(40)
  la a0, sdat3; addi a1, a0, 16; li a2, 0x5a5a5a5aa5a5a5a5; sd a2, 16(a0); ld a3, 0(a1); bne a3, a2, fail

  .data
  .balign 8
tdat:  .byte 0xff, 0x00, 0xf0, 0x0f, 0x00, 0x00, 0x00, 0x00
tdat2: .hword 0x8001, 0xff00, 0xff00, 0xff00
tdat3: .word 0x80000001, 0x7fffffff
tdat4: .dword 0x0123456789abcdef
  .balign 8
sdat:  .fill 8, 8, 0
       .fill 512, 8, 0
sdat2: .fill 4, 8, 0
sdat3: .fill 8, 8, 0
  .text

TEST_END
