/* interrupts: M-mode interrupts from the CLINT (ISA-ENV: m-only).  msip drives mip.MSIP (which
 * a CSR write cannot change); mtime >= mtimecmp drives mip.MTIP and a later mtimecmp clears it;
 * an interrupt is taken only when pending, enabled in mie and (in M) mstatus.MIE = 1, with
 * mcause = interrupt bit | code; MSI has priority over MTI; WFI wakes up on a pending enabled
 * interrupt even with MIE = 0 (no trap) and, with MIE = 1, traps with mepc after the wfi;
 * lower modes take M interrupts whatever mstatus.MIE; an interrupt enabled by a CSR write is
 * taken right after it, one made pending by an MMIO write within a bounded time; M-mode may raise STIP itself; in
 * vectored mode (mtvec.MODE = 1) interrupt i goes to base + 4 * i and exceptions to base. */
#include "isa_test.h"
#define SPIN_LIMIT 20000000
/* After an MMIO write makes an interrupt pending the hart must take it within a bounded time
 * (not necessarily at the next instruction); after a CSR write that enables it, immediately. */
#define WAIT_TRAP li t2, SPIN_LIMIT; 9995: addi t2, t2, -1; bnez t2, 9995b; j fail
/* spin until mip & mask != 0, failing after SPIN_LIMIT iterations */
#define SPIN_PENDING(mask) li t2, SPIN_LIMIT; 9993: csrr t0, mip; andi t0, t0, mask; bnez t0, 9994f; \
  addi t2, t2, -1; bnez t2, 9993b; j fail; 9994:
TEST_BEGIN
  li s2, CLINT_MSIP; li s3, CLINT_MTIMECMP; li s4, CLINT_MTIME
  li t0, -1; sd t0, 0(s3)                  /* no timer interrupt yet */
  /* msip <-> mip.MSIP */
  TEST_CASE(1, a0, 0, sw zero, 0(s2); csrr a0, mip; andi a0, a0, 8)
  TEST_CASE(2, a0, 8, li t0, 1; sw t0, 0(s2); csrr a0, mip; andi a0, a0, 8)
  TEST_CASE(3, a0, 1, lw a0, 0(s2))
  TEST_CASE(4, a0, 8, csrci mip, 8; csrr a0, mip; andi a0, a0, 8)   /* read-only in mip */
  TEST_CASE(5, a0, 0, sw zero, 0(s2); csrr a0, mip; andi a0, a0, 8)
  /* pending and enabled in mie, but MIE = 0: no trap; then MIE = 1: trap */
  TEST_NUM(6)
  li t0, 8; csrw mie, t0; li t0, 1; sw t0, 0(s2)
  nop; nop
  TRAP_RESUME_M(1f)
  csrsi mstatus, MSTATUS_MIE
  nop
  j fail
1: TRAP_CHECK(TS_CAUSE, IRQ_BIT | IRQ_M_SOFT)
  sw zero, 0(s2)
  /* pending, MIE = 1, but not enabled in mie: no trap */
  TEST_NUM(7)
  csrw mie, x0; li t0, 1; sw t0, 0(s2); csrsi mstatus, MSTATUS_MIE
  nop; nop; nop
  csrci mstatus, MSTATUS_MIE; sw zero, 0(s2)

  /* timer: mtimecmp in the past -> MTIP */
  TEST_NUM(8)
  sd zero, 0(s3)
  SPIN_PENDING(0x80)
  li t0, -1; sd t0, 0(s3)
  csrr a0, mip; andi a0, a0, 0x80; bnez a0, fail
  /* mtimecmp a little ahead: MTIP comes by itself */
  TEST_NUM(9)
  ld t0, 0(s4); addi t0, t0, 500; sd t0, 0(s3)
  SPIN_PENDING(0x80)
  ld t1, 0(s4); bltu t1, t0, fail          /* mtime really reached mtimecmp */
  /* taking it: MTIE + MIE */
  TEST_NUM(10)
  li t0, 0x80; csrw mie, t0
  TRAP_RESUME_M(1f)
  csrsi mstatus, MSTATUS_MIE
  nop
  j fail
1: TRAP_CHECK(TS_CAUSE, IRQ_BIT | IRQ_M_TIMER)
  li t0, -1; sd t0, 0(s3)

  /* WFI with MIE = 0 wakes on MTIP and does not trap */
  TEST_NUM(11)
  la t1, trap_state; ld s1, TS_COUNT(t1)
  li t0, 0x80; csrw mie, t0
  ld t0, 0(s4); addi t0, t0, 1000; sd t0, 0(s3)
  li s5, 1000
2: wfi                                     /* may also return early: loop until pending */
  csrr a0, mip; andi a0, a0, 0x80; bnez a0, 3f
  addi s5, s5, -1; bnez s5, 2b
  j fail
3: la t1, trap_state; ld t0, TS_COUNT(t1); bne t0, s1, fail
  ld t1, 0(s4); ld t0, 0(s3); bltu t1, t0, fail
  li t0, -1; sd t0, 0(s3)

  /* WFI with MIE = 1: the trap's mepc is the instruction after the wfi */
  TEST_NUM(12)
  ld t0, 0(s4); addi t0, t0, 1000; sd t0, 0(s3)
  TRAP_RESUME_M(4f)
  csrsi mstatus, MSTATUS_MIE
1: wfi
2: nop
  j 1b                                     /* a spurious wake-up just waits again */
4: TRAP_CHECK(TS_CAUSE, IRQ_BIT | IRQ_M_TIMER)
  la t1, trap_state; ld t0, TS_EPC(t1); la t2, 2b; beq t0, t2, 5f; la t2, 1b; beq t0, t2, 5f
  j fail                                   /* (the trap may also hit the j / wfi re-execution) */
5: li t0, -1; sd t0, 0(s3)

  /* priority: MSI before MTI when both are pending */
  TEST_NUM(13)
  li t0, 1; sw t0, 0(s2); sd zero, 0(s3)
  SPIN_PENDING(0x80)
  li t0, 0x88; csrw mie, t0
  TRAP_RESUME_M(1f)
  csrsi mstatus, MSTATUS_MIE
  nop
  j fail
1: TRAP_CHECK(TS_CAUSE, IRQ_BIT | IRQ_M_SOFT)
  sw zero, 0(s2)
  TRAP_RESUME_M(1f)
  csrsi mstatus, MSTATUS_MIE
  nop
  j fail
1: TRAP_CHECK(TS_CAUSE, IRQ_BIT | IRQ_M_TIMER)
  li t0, -1; sd t0, 0(s3)

  /* a lower mode takes M interrupts even with mstatus.MIE = 0 */
  TEST_NUM(14)
  csrci mstatus, MSTATUS_MIE; li t0, 8; csrw mie, t0
  TRAP_RESUME_M(2f)
  GOTO_MODE(PRV_U, 1f)
1: li t0, 1; li t1, CLINT_MSIP; sw t0, 0(t1)   /* U may reach the CLINT: PMP allows all */
  WAIT_TRAP
2: TRAP_CHECK(TS_CAUSE, IRQ_BIT | IRQ_M_SOFT)
  TRAP_CHECK(TS_PRV, PRV_U)
  sw zero, 0(s2)
  TEST_TRAP_IN_MODE(15, PRV_S, IRQ_BIT | IRQ_M_SOFT, li t0, 1; li t1, CLINT_MSIP; sw t0, 0(t1); WAIT_TRAP)
  sw zero, 0(s2)

  /* M may set STIP; undelegated it is taken in M */
  TEST_NUM(16)
  csrw mideleg, x0; li t0, 0x20; csrw mie, t0; csrs mip, t0
  TRAP_RESUME_M(1f)
  csrsi mstatus, MSTATUS_MIE
  nop
  j fail
1: TRAP_CHECK(TS_CAUSE, IRQ_BIT | IRQ_S_TIMER)
  li t0, 0x20; csrc mip, t0

  /* (priority of the S-level interrupts: see int_prio.S) */
  /* vectored mode */
  TEST_NUM(17)
  la t0, vtable; ori t0, t0, 1; csrw mtvec, t0
  csrr a0, mtvec; andi a0, a0, 3; li t2, 1; bne a0, t2, 9f   /* vectored not supported: skip */
  li t0, 8; csrw mie, t0; li t0, 1; sw t0, 0(s2)
  csrwi sscratch, 0
  TRAP_RESUME_M(1f)
  csrsi mstatus, MSTATUS_MIE
  nop
  j fail
1: sw zero, 0(s2)
  TRAP_CHECK(TS_CAUSE, IRQ_BIT | IRQ_M_SOFT)
  csrr a0, sscratch; li t2, 3; bne a0, t2, fail
  TEST_NUM(18)
  li t0, 0x80; csrw mie, t0; sd zero, 0(s3)
  TRAP_RESUME_M(2f)
  csrsi mstatus, MSTATUS_MIE
1: j 1b
2: TRAP_CHECK(TS_CAUSE, IRQ_BIT | IRQ_M_TIMER)
  csrr a0, sscratch; li t2, 7; bne a0, t2, fail
  li t0, -1; sd t0, 0(s3)
  TEST_NUM(19)                              /* exceptions use the base */
  TRAP_RESUME_M(1f)
  ecall
  j fail
1: TRAP_CHECK(TS_CAUSE, CAUSE_MACHINE_ECALL)
  csrr a0, sscratch; li t2, 16; bne a0, t2, fail
9: la t0, _mtrap; csrw mtvec, t0
  csrw mie, x0
  j pass

  /* vector table: entry i records i in sscratch (csrwi needs no register), then the handler */
  .balign 256
  .option push
  .option norvc
vtable:
  j v_exc
  .rept 2; j fail; .endr
  j v_msi
  .rept 3; j fail; .endr
  j v_mti
  .rept 8; j fail; .endr
v_exc: csrwi sscratch, 16; j _mtrap
v_msi: csrwi sscratch, 3; j _mtrap
v_mti: csrwi sscratch, 7; j _mtrap
  .option pop
TEST_END
