/* pmp: physical memory protection and access faults (ISA-ENV: m-only).  S and U accesses are
 * checked against the lowest-numbered matching entry: NAPOT, TOR (bottom = the previous
 * pmpaddr, top exclusive) and NA4 (when the granularity allows it) regions; a load without R
 * raises load access fault (5), a store or AMO without W store/AMO access fault (7), a fetch
 * without X instruction access fault (1), mtval = the address; with entries present, an S/U
 * access that matches none fails; M-mode ignores unlocked entries, obeys locked ones, and
 * with MPRV = 1 its loads and stores are checked as MPP's; a locked entry ignores writes. */
#include "isa_test.h"
#define NAPOT(base, size) (((base) + (size) / 2 - 1) >> 2)
#define A_TOR (1 << 3)
#define A_NA4 (2 << 3)
#define A_NAPOT (3 << 3)
#define P_R 1
#define P_W 2
#define P_X 4
#define P_L 0x80
/* Fault check after a TEST_TRAP_IN_MODE: mtval is the address in a0 */
#define CHECK_TVAL_A0 TRAP_CHECK_REG(TS_TVAL, a0)
TEST_BEGIN
  /* entry 0: prot (R), 1: noacc (none), 2/3: TOR [tor, tor + 4096) (R W), 4: NA4 off for now,
   * 7: everything (R W X) */
  la t0, prot; li t1, 4096; srli t2, t1, 1; add t0, t0, t2; addi t0, t0, -1; srli t0, t0, 2; csrw pmpaddr0, t0
  la t0, noacc; add t0, t0, t2; addi t0, t0, -1; srli t0, t0, 2; csrw pmpaddr1, t0
  la t0, torr; srli t0, t0, 2; csrw pmpaddr2, t0
  la t0, torr + 4096; srli t0, t0, 2; csrw pmpaddr3, t0
  li t0, -1; csrw pmpaddr7, t0
  li t0, ((A_NAPOT | P_R) << 0) | ((A_NAPOT) << 8) | ((0) << 16) | ((A_TOR | P_R | P_W) << 24) | ((A_NAPOT | P_R | P_W | P_X) << 56)
  csrw pmpcfg0, t0
  sfence.vma
  TEST_CASE(1, a0, 0x19, csrr a0, pmpcfg0; andi a0, a0, 0xff)

  /* R-only region: U may load, not store or AMO */
  RUN_IN_MODE(2, PRV_U, la a0, prot; ld a1, 0(a0); la a0, prot + 4095; lbu a1, 0(a0))
  TEST_TRAP_IN_MODE(3, PRV_U, CAUSE_STORE_ACCESS, la a0, prot + 8; sd zero, 0(a0))
  CHECK_TVAL_A0
  TEST_TRAP_IN_MODE(4, PRV_U, CAUSE_STORE_ACCESS, la a0, prot + 16; amoadd.d a1, a1, (a0))
  TEST_TRAP_IN_MODE(5, PRV_S, CAUSE_STORE_ACCESS, la a0, prot + 4092; sw zero, 0(a0))
  CHECK_TVAL_A0
  TEST_TRAP_IN_MODE(6, PRV_S, CAUSE_STORE_ACCESS, la a0, prot; lr.d a1, (a0); sc.d a1, a1, (a0))
  /* no access at all */
  TEST_TRAP_IN_MODE(7, PRV_U, CAUSE_LOAD_ACCESS, la a0, noacc + 24; ld a1, 0(a0))
  CHECK_TVAL_A0
  TEST_TRAP_IN_MODE(8, PRV_S, CAUSE_LOAD_ACCESS, la a0, noacc + 4095; lb a1, 0(a0))
  CHECK_TVAL_A0
  TEST_TRAP_IN_MODE(9, PRV_U, CAUSE_STORE_ACCESS, la a0, noacc; sb zero, 0(a0))
  TEST_TRAP_IN_MODE(10, PRV_S, CAUSE_LOAD_ACCESS, la a0, noacc; lr.w a1, (a0))
  /* fetch without X: jump into noacc */
  TEST_TRAP_IN_MODE(11, PRV_U, CAUSE_FETCH_ACCESS, la a0, noacc + 64; jr a0)
  CHECK_TVAL_A0
  TRAP_CHECK_REG(TS_EPC, a0)
  TEST_TRAP_IN_MODE(12, PRV_U, CAUSE_FETCH_ACCESS, la a0, prot; jalr a0)   /* R but no X */
  CHECK_TVAL_A0
  /* the boundaries of the NAPOT region */
  RUN_IN_MODE(13, PRV_U, la a0, noacc - 8; ld a1, 0(a0); la a0, noacc + 4096; ld a1, 0(a0); sd a1, 0(a0))
  /* TOR: [torr, torr + 4096) is R W, no X */
  RUN_IN_MODE(14, PRV_U, la a0, torr; sd a1, 0(a0); la a0, torr + 4088; sd a1, 0(a0); ld a1, 0(a0))
  TEST_TRAP_IN_MODE(15, PRV_U, CAUSE_FETCH_ACCESS, la a0, torr + 128; jr a0)
  /* M-mode ignores unlocked entries */
  TEST_NUM(16); la a0, noacc; ld a1, 0(a0); sd a1, 0(a0); la a0, prot; sd a1, 0(a0)
  /* MPRV with MPP = U: M's loads and stores are checked as U's */
  TEST_NUM(17)
  li t0, MSTATUS_MPP; csrc mstatus, t0; li t0, MSTATUS_MPRV; csrs mstatus, t0
  la a0, prot; ld a1, 0(a0)                      /* R: allowed */
  TRAP_RESUME(1f)
  la a0, prot + 8; sd a1, 0(a0)
  j fail
1: li t0, MSTATUS_MPRV; csrc mstatus, t0
  TRAP_CHECK(TS_CAUSE, CAUSE_STORE_ACCESS)
  CHECK_TVAL_A0

  /* NA4 (4-byte region) where the granularity allows it: entry 4 denies noacc2's second word */
  TEST_NUM(18)
  la t0, torr + 4096 + 4; srli t0, t0, 2; csrw pmpaddr4, t0
  li t0, 0xff << 32; csrc pmpcfg0, t0; li t0, A_NA4 << 32; csrs pmpcfg0, t0
  csrr t0, pmpcfg0; srli t0, t0, 32; andi t0, t0, 0xff; li t2, A_NA4; bne t0, t2, 2f
  RUN_IN_MODE(19, PRV_U, la a0, torr + 4096; lw a1, 0(a0); lw a1, 8(a0))
  TEST_TRAP_IN_MODE(20, PRV_U, CAUSE_LOAD_ACCESS, la a0, torr + 4096 + 4; lw a1, 0(a0))
  li t0, 0xff << 32; csrc pmpcfg0, t0
2:
  /* with no matching entry an S/U access fails: drop the catch-all; U's first fetch faults */
  TEST_NUM(21)
  li t0, 0xff << 56; csrc pmpcfg0, t0
  TEST_TRAP_IN_MODE(22, PRV_U, CAUSE_FETCH_ACCESS, 1: nop)
  TRAP_CHECK_EPC(1b)
  TEST_TRAP_IN_MODE(23, PRV_S, CAUSE_FETCH_ACCESS, nop)
  TEST_NUM(24); li t0, (A_NAPOT | P_R | P_W | P_X) << 56; csrs pmpcfg0, t0
  RUN_IN_MODE(25, PRV_U, nop)

  /* a locked entry binds M too, and ignores writes (to its cfg and its pmpaddr) */
  TEST_NUM(26)
  li t0, P_L; csrs pmpcfg0, t0                      /* entry 0: prot, R, locked */
  la a0, prot; ld a1, 0(a0)
  TRAP_RESUME(1f)
  la a0, prot + 32; sd a1, 0(a0)
  j fail
1: TRAP_CHECK(TS_CAUSE, CAUSE_STORE_ACCESS)
  CHECK_TVAL_A0
  TEST_NUM(27)
  csrr a2, pmpaddr0; csrw pmpaddr0, zero; csrr a3, pmpaddr0; bne a2, a3, fail
  csrr a2, pmpcfg0; li t0, P_W; csrs pmpcfg0, t0; csrr a3, pmpcfg0; andi a3, a3, 0xff; li t2, 0x99; bne a3, t2, fail
  /* the other entries are still writable */
  TEST_NUM(28); li t0, 0x12345; csrw pmpaddr5, t0; csrr a0, pmpaddr5; bne a0, t0, fail

  .data
  .balign 4096
prot:  .fill 512, 8, 0
noacc: .fill 512, 8, 0
torr:  .fill 512, 8, 0
       .fill 512, 8, 0
  .text
TEST_END
