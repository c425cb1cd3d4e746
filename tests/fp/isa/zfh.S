/* zfh: the Zfh half-precision instructions (ISA-ENV: m-only), with tests/isa's harness.
 * NaN-boxing as for F inside D: flh and fmv.h.x box (bits 63..16 ones), fsh stores the low 16
 * bits raw, fmv.x.h moves bits 15..0 raw and sign-extends, a half not boxed in bits 63..16 (also
 * one boxed as a single only) reads as the canonical NaN 0x7e00; arithmetic with its flags
 * (overflow, underflow of a subnormal product, divide by zero, invalid), FMA, conversions to and
 * from integers (saturation, ties), to and from S and D (fcvt.s.h / fcvt.d.h exact, signalling
 * NaN gives NV), compares (quiet feq, signalling flt/fle), fmin/fmax (IEEE 754-2019), fclass of
 * each class, reserved rounding modes, FS = Off.  Expected values worked out by hand from
 * IEEE 754 binary16 (1 = 0x3c00, max 65504 = 0x7bff, min subnormal 2^-24 = 0x0001).
 * Runs on mtemu and on QEMU 7.2's spike machine with QEMU-CPU(rv64,Zfh=true); built
 * rv64gc_zfh by tests/fp/module.mk. */
#include "isa_test.h"

#define MSTATUS_FS (3 << 13)
#define NAN_H 0xffffffffffff7e00

/* f1, f2, f3 = halves a, b, c (boxed by fmv.h.x) */
#define H3(a, b, c) li t3, a; fmv.h.x f1, t3; li t3, b; fmv.h.x f2, t3; li t3, c; fmv.h.x f3, t3
/* case n: `insn` on f1, f2 (and f3) gives the 64-bit register value `want`; case n+1: fflags `fl` */
#define HOP(n, want, fl, a, b, c, ...)                                                           \
  TEST_CASE(n, a0, want, H3(a, b, c); csrw fflags, zero; __VA_ARGS__; fmv.x.d a0, f4);          \
  TEST_CASE(n + 1, a0, fl, csrr a0, fflags)
/* the same with an integer result in a0 */
#define HOPX(n, want, fl, a, b, ...)                                                             \
  TEST_CASE(n, a0, want, H3(a, b, 0); csrw fflags, zero; __VA_ARGS__);                          \
  TEST_CASE(n + 1, a1, fl, csrr a1, fflags)

TEST_BEGIN
  li t0, MSTATUS_FS; csrs mstatus, t0
  csrwi frm, 0

  /* moves and boxing */
  TEST_CASE(1, a0, 0xffffffffffff5678, li a1, 0x12345678; fmv.h.x f1, a1; fmv.x.d a0, f1)
  TEST_CASE(2, a0, 0xffffffffffff8001, li a1, 0x123456789abc8001; fmv.d.x f1, a1; fmv.x.h a0, f1)
  TEST_CASE(3, a0, 0x7fff, li a1, 0x7fff; fmv.h.x f1, a1; fmv.x.h a0, f1)
  TEST_CASE(4, a0, 0xffffffffffffabcd, la a1, hdata; flh f1, 0(a1); fmv.x.d a0, f1)
  TEST_CASE(5, a0, 0x5555555555551234, la a1, hdata; li a2, 0x1234; fmv.h.x f1, a2; fsh f1, 8(a1); ld a0, 8(a1))
  /* fsh of an unboxed register: the low 16 bits as they are */
  TEST_CASE(6, a0, 0x5555555555553c00, la a1, hdata; li a2, 0x00000000ffff3c00; fmv.d.x f1, a2; fsh f1, 16(a1); ld a0, 16(a1))
  /* operands not boxed as halves read as the canonical NaN (quiet: no flag) */
  TEST_CASE(7, a0, NAN_H, li a2, 0xffffffff00003c00; fmv.d.x f1, a2; csrw fflags, zero; fadd.h f4, f1, f1; fmv.x.d a0, f4)
  TEST_CASE(8, a0, 0, csrr a0, fflags)
  TEST_CASE(9, a0, NAN_H, li a2, 0x7fffffffffff3c00; fmv.d.x f1, a2; fsgnj.h f4, f1, f1; fmv.x.d a0, f4)
  TEST_CASE(10, a0, 0x200, li a2, 0x3c00; fmv.d.x f1, a2; fclass.h a0, f1) /* quiet NaN */

  /* arithmetic and flags: 1 + 2 = 3; max + max overflows; 2^-24 * 0.5 ties to 0 (UF NX);
   * 1/0; sqrt(-1); 1/3 inexact; fma 2 * 3 + 1 = 7; fnmsub -(2 * 3) + 1 = -5 */
  HOP(11, 0xffffffffffff4200, 0x00, 0x3c00, 0x4000, 0, fadd.h f4, f1, f2)
  HOP(13, 0xffffffffffff7c00, 0x05, 0x7bff, 0x7bff, 0, fadd.h f4, f1, f2)
  HOP(15, 0xffffffffffff7bff, 0x05, 0x7bff, 0x7bff, 0, fadd.h f4, f1, f2, rtz)
  HOP(17, 0xffffffffffff0000, 0x03, 0x0001, 0x3800, 0, fmul.h f4, f1, f2)
  HOP(19, 0xffffffffffff0001, 0x03, 0x0001, 0x3800, 0, fmul.h f4, f1, f2, rup)
  HOP(21, 0xffffffffffff7c00, 0x08, 0x3c00, 0x0000, 0, fdiv.h f4, f1, f2)
  HOP(23, NAN_H, 0x10, 0xbc00, 0, 0, fsqrt.h f4, f1)
  HOP(25, 0xffffffffffff3555, 0x01, 0x3c00, 0x4200, 0, fdiv.h f4, f1, f2)
  HOP(27, 0xffffffffffff3556, 0x01, 0x3c00, 0x4200, 0, fdiv.h f4, f1, f2, rup)
  HOP(29, 0xffffffffffff4700, 0x00, 0x4000, 0x4200, 0x3c00, fmadd.h f4, f1, f2, f3)
  HOP(31, 0xffffffffffffc500, 0x00, 0x4000, 0x4200, 0x3c00, fnmsub.h f4, f1, f2, f3)
  HOP(33, 0xffffffffffff4500, 0x00, 0x4000, 0x4200, 0x3c00, fmsub.h f4, f1, f2, f3)
  HOP(35, 0xffffffffffffc700, 0x00, 0x4000, 0x4200, 0x3c00, fnmadd.h f4, f1, f2, f3)
  HOP(37, 0xffffffffffff4200, 0x00, 0x4880, 0, 0, fsqrt.h f4, f1)                 /* sqrt(9) = 3 */
  /* inf * 0 in an FMA is invalid even with a quiet NaN addend */
  HOP(39, NAN_H, 0x10, 0x7c00, 0x0000, 0x7e00, fmadd.h f4, f1, f2, f3)
  /* dynamic rounding through frm */
  TEST_CASE(41, a0, 0xffffffffffff3556, csrwi frm, 3; H3(0x3c00, 0x4200, 0); fdiv.h f4, f1, f2, dyn; fmv.x.d a0, f4)
  csrwi frm, 0

  /* sign injection (raw sign bits, also of NaNs) */
  HOP(42, 0xffffffffffffbc00, 0x00, 0x3c00, 0x8000, 0, fsgnj.h f4, f1, f2)
  HOP(44, 0xffffffffffff3c00, 0x00, 0x3c00, 0x8000, 0, fsgnjn.h f4, f1, f2)
  HOP(46, 0xffffffffffff7c01, 0x00, 0xfc01, 0x8000, 0, fsgnjx.h f4, f1, f2)

  /* min/max: a NaN operand gives the other one (NV for a signalling one), -0 < +0 */
  HOP(48, 0xffffffffffff3c00, 0x10, 0x7c01, 0x3c00, 0, fmin.h f4, f1, f2)
  HOP(50, 0xffffffffffff3c00, 0x00, 0x7e00, 0x3c00, 0, fmax.h f4, f1, f2)
  HOP(52, 0xffffffffffff0000, 0x00, 0x8000, 0x0000, 0, fmax.h f4, f1, f2)
  HOP(54, 0xffffffffffff8000, 0x00, 0x8000, 0x0000, 0, fmin.h f4, f1, f2)
  HOP(56, NAN_H, 0x10, 0x7c01, 0x7e00, 0, fmin.h f4, f1, f2)

  /* compares: feq quiet, flt/fle signal for any NaN */
  HOPX(58, 1, 0x00, 0x8000, 0x0000, feq.h a0, f1, f2)
  HOPX(60, 0, 0x00, 0x7e00, 0x7e00, feq.h a0, f1, f2)
  HOPX(62, 0, 0x10, 0x7c01, 0x3c00, feq.h a0, f1, f2)
  HOPX(64, 0, 0x10, 0x7e00, 0x3c00, flt.h a0, f1, f2)
  HOPX(66, 1, 0x00, 0xbc00, 0x3c00, flt.h a0, f1, f2)
  HOPX(68, 1, 0x00, 0x8000, 0x0000, fle.h a0, f1, f2)
  HOPX(70, 0, 0x10, 0x3c00, 0x7e00, fle.h a0, f1, f2)

  /* fclass: one bit per class */
  HOPX(72, 0x001, 0, 0xfc00, 0, fclass.h a0, f1)
  HOPX(74, 0x002, 0, 0xbc00, 0, fclass.h a0, f1)
  HOPX(76, 0x004, 0, 0x8001, 0, fclass.h a0, f1)
  HOPX(78, 0x008, 0, 0x8000, 0, fclass.h a0, f1)
  HOPX(80, 0x010, 0, 0x0000, 0, fclass.h a0, f1)
  HOPX(82, 0x020, 0, 0x03ff, 0, fclass.h a0, f1)
  HOPX(84, 0x040, 0, 0x7bff, 0, fclass.h a0, f1)
  HOPX(86, 0x080, 0, 0x7c00, 0, fclass.h a0, f1)
  HOPX(88, 0x100, 0, 0x7d00, 0, fclass.h a0, f1)
  HOPX(90, 0x200, 0, 0x7e01, 0, fclass.h a0, f1)

  /* to integers: saturating, 32-bit results sign-extended */
  HOPX(92, 65504, 0x00, 0x7bff, 0, fcvt.w.h a0, f1, rtz)
  HOPX(94, 0xffffffff80000000, 0x10, 0xfc00, 0, fcvt.w.h a0, f1, rtz)
  HOPX(96, 0, 0x10, 0xbc00, 0, fcvt.wu.h a0, f1, rtz)
  HOPX(98, 0, 0x01, 0xb800, 0, fcvt.wu.h a0, f1, rtz)          /* -0.5: NX only */
  HOPX(100, 0xffffffffffffffff, 0x10, 0x7e00, 0, fcvt.wu.h a0, f1, rtz) /* NaN: the largest, sign-extended */
  HOPX(102, 0x7fffffffffffffff, 0x10, 0x7c01, 0, fcvt.l.h a0, f1, rtz)
  HOPX(104, 2, 0x01, 0x4100, 0, fcvt.l.h a0, f1, rne)           /* 2.5 ties to even */
  HOPX(106, 3, 0x01, 0x4100, 0, fcvt.lu.h a0, f1, rmm)          /* 2.5 ties away */
  HOPX(108, 0xfffffffffffffffd, 0x01, 0xc100, 0, fcvt.l.h a0, f1, rdn)

  /* from integers: 65519 rounds to max, 65520 (halfway to 2^16) overflows; 2049 ties to 2048 */
  TEST_CASE(110, a0, 0xffffffffffff7bff, li a1, 65519; csrw fflags, zero; fcvt.h.w f4, a1; fmv.x.d a0, f4)
  TEST_CASE(111, a0, 0x01, csrr a0, fflags)
  TEST_CASE(112, a0, 0xffffffffffff7c00, li a1, 65520; csrw fflags, zero; fcvt.h.wu f4, a1; fmv.x.d a0, f4)
  TEST_CASE(113, a0, 0x05, csrr a0, fflags)
  TEST_CASE(114, a0, 0xffffffffffff6800, li a1, 2049; csrw fflags, zero; fcvt.h.l f4, a1; fmv.x.d a0, f4)
  TEST_CASE(115, a0, 0x01, csrr a0, fflags)
  TEST_CASE(116, a0, 0xffffffffffffbc00, li a1, 0x00000000ffffffff; fcvt.h.w f4, a1; fmv.x.d a0, f4) /* low word -1 */
  TEST_CASE(117, a0, 0xffffffffffff7c00, li a1, -1; fcvt.h.lu f4, a1; fmv.x.d a0, f4)
  TEST_CASE(118, a0, 0xffffffffffff7bff, li a1, -1; fcvt.h.lu f4, a1, rtz; fmv.x.d a0, f4)

  /* between formats */
  TEST_CASE(119, a0, 0xffffffff3f800000, H3(0x3c00, 0, 0); fcvt.s.h f4, f1; fmv.x.d a0, f4)
  TEST_CASE(120, a0, 0x3ff0000000000000, fcvt.d.h f4, f1; fmv.x.d a0, f4)
  TEST_CASE(121, a0, 0x3e70000000000000, H3(0x0001, 0, 0); fcvt.d.h f4, f1; fmv.x.d a0, f4) /* 2^-24 */
  TEST_CASE(122, a0, 0x7ff8000000000000, H3(0x7c01, 0, 0); csrw fflags, zero; fcvt.d.h f4, f1; fmv.x.d a0, f4)
  TEST_CASE(123, a0, 0x10, csrr a0, fflags)
  TEST_CASE(124, a0, 0xffffffffffff3c00, li a1, 0xffffffff3f800001; fmv.d.x f1, a1; csrw fflags, zero; fcvt.h.s f4, f1; fmv.x.d a0, f4)
  TEST_CASE(125, a0, 0x01, csrr a0, fflags)
  TEST_CASE(126, a0, 0xffffffffffff3c01, fcvt.h.s f4, f1, rup; fmv.x.d a0, f4)
  TEST_CASE(127, a0, 0xffffffffffff7c00, li a1, 0x40f0000000000000; fmv.d.x f1, a1; fcvt.h.d f4, f1; fmv.x.d a0, f4) /* 65536 */
  TEST_CASE(128, a0, NAN_H, li a1, 0x00000000ffff3c00; fmv.d.x f1, a1; fcvt.h.s f4, f1; fmv.x.d a0, f4) /* unboxed single */

  /* reserved rounding modes and FS = Off */
  TEST_TRAP(129, CAUSE_ILLEGAL_INSTRUCTION, .insn r 0x53, 5, 0x02, f4, f1, f2)   /* fadd.h rm 5 */
  TEST_TRAP(130, CAUSE_ILLEGAL_INSTRUCTION, .insn r 0x53, 6, 0x20, f4, f1, f2)   /* fcvt.s.h rm 6 */
  TEST_TRAP(131, CAUSE_ILLEGAL_INSTRUCTION, .insn r 0x53, 0, 0x22, f4, f1, f2)   /* fcvt.h.h (rs2 2) */
  TEST_TRAP(132, CAUSE_ILLEGAL_INSTRUCTION, .insn r 0x53, 0, 0x07, f4, f1, f2)   /* fadd.q: no Q */
  TEST_CASE(133, a0, 3, csrr a0, mstatus; srli a0, a0, 13; andi a0, a0, 3)         /* Dirty */
  li t0, MSTATUS_FS; csrc mstatus, t0
  TEST_TRAP(134, CAUSE_ILLEGAL_INSTRUCTION, la a1, hdata; flh f1, 0(a1))
  TEST_TRAP(135, CAUSE_ILLEGAL_INSTRUCTION, fmv.x.h a0, f1)
  TEST_TRAP(136, CAUSE_ILLEGAL_INSTRUCTION, la a1, hdata; fsh f1, 0(a1))
TEST_END

.data
.align 3
hdata:
  .8byte 0x000000000000abcd
  .8byte 0x5555555555555555
  .8byte 0x5555555555555555
