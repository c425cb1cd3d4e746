/* fp_priv: F/D around privilege and state (ISA-ENV: m-only), with tests/isa's harness.
 * mstatus.FS: Off makes FP instructions (also compressed) and fflags/frm/fcsr illegal, in M, S
 * and U; an f-register write moves Initial/Clean to Dirty and sets SD; sstatus shows and
 * changes the same FS; frm and fflags are user-level CSRs; fcsr = frm << 5 | fflags; FP loads
 * and stores that fault report the address in mtval; FSW/FLW transfer raw bits and box.
 * Runs on mtemu (HTIF exit) and on QEMU's spike machine; built rv64gc by tests/fp/module.mk. */
#include "isa_test.h"

#define MSTATUS_FS (3 << 13)
#define FS_INITIAL (1 << 13)
#define FS_CLEAN (2 << 13)
#define SD_BIT 63
#define NO_DEVICE 0x100 /* below the boot ROM: no device on virt, spike or mtemu */

TEST_BEGIN
  /* FS = Off after reset (the harness clears mstatus) */
  TEST_TRAP(1, CAUSE_ILLEGAL_INSTRUCTION, fadd.d f1, f2, f3)
  TEST_TRAP(2, CAUSE_ILLEGAL_INSTRUCTION, csrr a0, fcsr)
  TEST_TRAP(3, CAUSE_ILLEGAL_INSTRUCTION, csrw frm, zero)
  TEST_TRAP(4, CAUSE_ILLEGAL_INSTRUCTION, la a1, fdata; fld f8, 0(a1))
  TEST_TRAP(5, CAUSE_ILLEGAL_INSTRUCTION, fmv.x.d a0, f1)
  /* compressed: c.fld fs0, 0(a1) (16 bits), padded so the handler's +4 lands after it */
  TEST_TRAP(6, CAUSE_ILLEGAL_INSTRUCTION, la a1, fdata; .option push; .option norvc; .2byte 0x2180; .2byte 0x0001; .option pop)
  TRAP_CHECK(TS_TVAL, 0x2180)

  /* FS = Initial; a write to an f register makes it Dirty with SD */
  li t0, FS_INITIAL; csrs mstatus, t0
  TEST_CASE(7, a0, 1, csrr a0, mstatus; srli a0, a0, 13; andi a0, a0, 3)
  TEST_CASE(8, a0, 0, csrr a0, mstatus; srli a0, a0, SD_BIT)
  TEST_CASE(9, a0, 3, li a1, 0x3ff0000000000000; fmv.d.x f1, a1; csrr a0, mstatus; srli a0, a0, 13; andi a0, a0, 3)
  TEST_CASE(10, a0, 1, csrr a0, mstatus; srli a0, a0, SD_BIT)
  /* Clean, then a CSR write of fflags dirties it too */
  li t0, MSTATUS_FS; csrc mstatus, t0; li t0, FS_CLEAN; csrs mstatus, t0
  TEST_CASE(11, a0, 2, csrr a0, mstatus; srli a0, a0, 13; andi a0, a0, 3)
  TEST_CASE(12, a0, 3, csrwi fflags, 0; csrr a0, mstatus; srli a0, a0, 13; andi a0, a0, 3)

  /* fcsr layout: frm in 7:5, fflags in 4:0, the rest reads zero */
  TEST_CASE(13, a0, 0xff, li a1, -1; csrw fcsr, a1; csrr a0, fcsr)
  TEST_CASE(14, a0, 7, csrr a0, frm)
  TEST_CASE(15, a0, 0x1f, csrr a0, fflags)
  TEST_CASE(16, a0, 0x45, li a1, 0x45; csrw fcsr, a1; csrr a0, fcsr)
  TEST_CASE(17, a0, 2, csrr a0, frm)
  TEST_CASE(18, a0, 5, csrr a0, fflags)
  /* flags accrue: 1/3 adds NX to what is there; csrrw swaps */
  TEST_CASE(19, a0, 0x11, li a1, 0x10; csrw fflags, a1; li a1, 0x3ff0000000000000; fmv.d.x f1, a1; \
            li a1, 0x4008000000000000; fmv.d.x f2, a1; fdiv.d f3, f1, f2; csrrw a0, fflags, zero)
  TEST_CASE(20, a0, 0, csrr a0, fflags)

  /* dynamic rounding from frm: 1/3 rounded up and down (frm = 2 from case 16) */
  TEST_CASE(21, a0, 0x3fd5555555555555, fdiv.d f3, f1, f2, dyn; fmv.x.d a0, f3)
  TEST_CASE(22, a0, 0x3fd5555555555556, csrwi frm, 3; fdiv.d f3, f1, f2, dyn; fmv.x.d a0, f3)
  /* frm = 5: dynamic is illegal, static still fine */
  TEST_TRAP(23, CAUSE_ILLEGAL_INSTRUCTION, csrwi frm, 5; fdiv.d f3, f1, f2, dyn)
  TEST_CASE(24, a0, 0x3fd5555555555556, fdiv.d f3, f1, f2, rup; fmv.x.d a0, f3)
  csrwi frm, 0

  /* NaN-boxing through memory: flw boxes, fsw stores the low word raw, fld/fsd are raw */
  TEST_CASE(25, a0, 0xffffffff3f800000, la a1, fdata; flw f4, 0(a1); fmv.x.d a0, f4)
  TEST_CASE(26, a0, 0x7fc00000, la a1, fdata; fld f4, 8(a1); fadd.s f5, f4, f4; fmv.x.w a0, f5)
  TEST_CASE(27, a0, 0x89abcdef, la a1, fdata; fld f4, 8(a1); fsw f4, 16(a1); lwu a0, 16(a1))
  TEST_CASE(28, a0, 0x0123456789abcdef, la a1, fdata; fld f4, 8(a1); fsd f4, 24(a1); ld a0, 24(a1))
  /* compressed loads/stores */
  TEST_CASE(29, a0, 0x0123456789abcdef, la a1, fdata; c.fld fs0, 8(a1); c.fsd fs0, 32(a1); ld a0, 32(a1))
  /* (the harness leaves sp = 0: point it at a scratch area first) */
  TEST_CASE(30, a0, 0x0123456789abcdef, la a1, fdata; ld a2, 8(a1); addi sp, a1, 48; sd a2, 8(sp); \
            c.fldsp fs1, 8(sp); c.fsdsp fs1, 0(sp); ld a0, 0(sp); li sp, 0)

  /* faulting FP loads and stores: access fault, mtval = the address */
  TEST_TRAP(31, CAUSE_LOAD_ACCESS, li a1, NO_DEVICE; fld f6, 0(a1))
  TRAP_CHECK(TS_TVAL, NO_DEVICE)
  TEST_TRAP(32, CAUSE_STORE_ACCESS, li a1, NO_DEVICE; fsw f6, 8(a1))
  TRAP_CHECK(TS_TVAL, NO_DEVICE + 8)

  /* U-mode: frm/fflags/fcsr are user CSRs and FP works when FS is on */
  li t0, MSTATUS_FS; csrs mstatus, t0
  RUN_IN_MODE(33, PRV_U, csrwi frm, 1; fdiv.d f7, f1, f2, dyn; fmv.x.d s2, f7; csrr s3, fflags)
  TEST_CASE(34, s2, 0x3fd5555555555555, nop)
  TEST_CASE(35, s3, 1, nop)
  /* ... and traps when FS is Off, in U and in S */
  li t0, MSTATUS_FS; csrc mstatus, t0
  TEST_TRAP_IN_MODE(36, PRV_U, CAUSE_ILLEGAL_INSTRUCTION, fadd.s f1, f2, f3)
  TEST_TRAP_IN_MODE(37, PRV_U, CAUSE_ILLEGAL_INSTRUCTION, csrr a0, fflags)
  TEST_TRAP_IN_MODE(38, PRV_S, CAUSE_ILLEGAL_INSTRUCTION, fmv.d.x f1, zero)
  /* S-mode turns FP on through sstatus.FS, and sees it Dirty afterwards */
  RUN_IN_MODE(39, PRV_S, li a1, FS_INITIAL; csrs sstatus, a1; fmv.d.x f1, zero; csrr s4, sstatus)
  TEST_CASE(40, a0, 3, srli a0, s4, 13; andi a0, a0, 3)
  TEST_CASE(41, a0, 1, srli a0, s4, SD_BIT)
  TEST_CASE(42, a0, 3, csrr a0, mstatus; srli a0, a0, 13; andi a0, a0, 3)
TEST_END

  .data
  .balign 16
fdata:
  .word 0x3f800000, 0
  .dword 0x0123456789abcdef
  .fill 6, 8, 0
