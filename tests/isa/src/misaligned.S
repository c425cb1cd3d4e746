/* misaligned: misaligned loads and stores, which the spec lets an implementation either
 * perform or trap on.  Each case accepts both, but checks the architectural result of the one
 * that happened: performed -> the right little-endian value (loads, sign/zero-extended) or the
 * right bytes in memory (stores, neighbours untouched); trapped -> cause misaligned (4/6) with
 * mtval = the address, or access fault (5/7), the destination register / memory unchanged.
 * LR on a misaligned address must trap (address-misaligned or access fault). */
#include "isa_test.h"

/* load `inst` from mdat + off: expect `expected` or a trap */
#define MIS_LOAD(n, inst, off, expected)                                                         \
  TEST_NUM(n); li a2, 0x5555; la a0, mdat + (off); TRAP_RESUME(9990f);                           \
  inst a2, 0(a0);                                                                                \
  la t1, trap_state; sd zero, TS_RESUME(t1); li t2, expected; bne a2, t2, fail; j 9991f;         \
9990: la t1, trap_state; ld t0, TS_CAUSE(t1); li t2, 0x5555; bne a2, t2, fail;                   \
  li t2, CAUSE_LOAD_ACCESS; beq t0, t2, 9991f; li t2, CAUSE_MISALIGNED_LOAD; bne t0, t2, fail;   \
  ld t0, TS_TVAL(t1); bne t0, a0, fail;                                                          \
9991:

/* store `value` with `inst` at sdat2 + off (sdat2 pre-filled with 0x11 bytes); then the whole
 * 16-byte window must equal exp_lo/exp_hi (stored) or stay 0x11.. (trapped) */
#define MIS_STORE(n, inst, off, value, exp_lo, exp_hi)                                           \
  TEST_NUM(n); la a0, sdat2; li a1, 0x1111111111111111; sd a1, 0(a0); sd a1, 8(a0);              \
  addi a0, a0, off; li a1, value; TRAP_RESUME(9990f);                                            \
  inst a1, 0(a0);                                                                                \
  la t1, trap_state; sd zero, TS_RESUME(t1);                                                     \
  la a3, sdat2; ld a4, 0(a3); li t2, exp_lo; bne a4, t2, fail;                                   \
  ld a4, 8(a3); li t2, exp_hi; bne a4, t2, fail; j 9991f;                                        \
9990: la t1, trap_state; ld t0, TS_CAUSE(t1);                                                    \
  la a3, sdat2; ld a4, 0(a3); li t2, 0x1111111111111111; bne a4, t2, fail;                       \
  ld a4, 8(a3); bne a4, t2, fail;                                                                \
  li t2, CAUSE_STORE_ACCESS; beq t0, t2, 9991f; li t2, CAUSE_MISALIGNED_STORE; bne t0, t2, fail; \
  ld t0, TS_TVAL(t1); bne t0, a0, fail;                                                          \
9991:

/* an A-extension access that must trap with one of two causes; a0 = the address */
#define MUST_TRAP2(n, c1, c2, ...)                                                               \
  TEST_NUM(n); la a0, sdat2 + 4; li a2, 0x5555; TRAP_RESUME(9990f);                               \
  __VA_ARGS__; j fail;                                                                           \
9990: la t1, trap_state; ld t0, TS_CAUSE(t1); li t2, 0x5555; bne a2, t2, fail;                  \
  li t2, c2; beq t0, t2, 9991f; li t2, c1; bne t0, t2, fail;                                      \
9991:

TEST_BEGIN
  MIS_LOAD(1, lh, 1, 0xffffffffffff8070)
  MIS_LOAD(2, lhu, 1, 0x0000000000008070)
  MIS_LOAD(3, lw, 1, 0xffffffffa0908070)
  MIS_LOAD(4, lw, 3, 0xffffffffc0b0a090)
  MIS_LOAD(5, lwu, 2, 0x00000000b0a09080)
  MIS_LOAD(6, ld, 1, 0xe0d0c0b0a0908070)
  MIS_LOAD(7, ld, 4, 0x1000f0e0d0c0b0a0)
  MIS_LOAD(8, ld, 7, 0x4030201000f0e0d0)   /* crosses the 8-byte boundary */
  MIS_LOAD(9, lh, 7, 0xffffffffffffe0d0)
  MIS_LOAD(10, lw, 6, 0xfffffffff0e0d0c0)
  MIS_STORE(11, sh, 1, 0xaabb, 0x1111111111aabb11, 0x1111111111111111)
  MIS_STORE(12, sw, 3, 0xaabbccdd, 0x11aabbccdd111111, 0x1111111111111111)
  MIS_STORE(13, sd, 5, 0x102030405060708, 0x0607081111111111, 0x1111110102030405)
  MIS_STORE(14, sh, 7, 0xaabb, 0xbb11111111111111, 0x11111111111111aa)
  MIS_STORE(15, sd, 1, 0x102030405060708, 0x0203040506070811, 0x1111111111111101)

  /* LR / SC / AMO: must trap.  LR: load misaligned (4) or load access (5). */
  MUST_TRAP2(16, CAUSE_MISALIGNED_LOAD, CAUSE_LOAD_ACCESS, addi a0, a0, 1; lr.w a2, (a0))
  MUST_TRAP2(17, CAUSE_MISALIGNED_LOAD, CAUSE_LOAD_ACCESS, lr.d a2, (a0))
  /* (misaligned SC: see sc_misaligned.S) */
  /* (misaligned AMOs: see amo_misaligned.S) */

  .data
  .balign 16
mdat:  .byte 0x60, 0x70, 0x80, 0x90, 0xa0, 0xb0, 0xc0, 0xd0, 0xe0, 0xf0, 0x00, 0x10, 0x20, 0x30, 0x40, 0x50
       .byte 0x60, 0x70, 0x80
  .balign 16
sdat2: .fill 4, 8, 0
  .text
TEST_END
