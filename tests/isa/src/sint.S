/* sint: supervisor interrupts delegated to S-mode (ISA-ENV: m-only).  With mideleg[5] and
 * mideleg[1], STIP (set by M in mip) and SSIP (set by S in sip) trap to stvec in S-mode when
 * sie enables them and sstatus.SIE = 1, with scause = interrupt | 5 / | 1; not while SIE = 0
 * in S; always from U; sip.STIP is read-only from S; WFI in S wakes on a pending delegated
 * interrupt even with SIE = 0; SRET to U with an enabled pending S interrupt traps at once; an
 * M interrupt preempts S-mode whatever mstatus.MIE; with stvec in vectored mode a delegated
 * interrupt goes to base + 4 * cause. */
#include "isa_test.h"
#define SS_CAUSE 0
#define SS_EPC 8
#define SS_COUNT 16
TEST_BEGIN
  la t0, s_handler; csrw stvec, t0
  li t0, 0x22; csrw mideleg, t0; csrw mie, t0
  /* M raises STIP; in S with SIE = 1 it is taken in S */
  TEST_NUM(1)
  la t1, s_state; ld s1, SS_COUNT(t1)
  li t0, MSTATUS_SIE; csrs mstatus, t0
  li t0, 0x20; csrs mip, t0
  TRAP_RESUME_M(2f)
  GOTO_MODE(PRV_S, 1f)
1: nop
  ecall
  j fail
2: TRAP_CHECK(TS_CAUSE, CAUSE_SUPERVISOR_ECALL)
  la t1, s_state; ld t0, SS_COUNT(t1); addi s1, s1, 1; bne t0, s1, fail
  ld t0, SS_CAUSE(t1); li t2, IRQ_BIT | IRQ_S_TIMER; bne t0, t2, fail
  /* the S handler cannot clear STIP (read-only in sip); it disabled sie.STIE: restore */
  csrr t0, mip; andi t0, t0, 0x20; beqz t0, fail
  li t0, 0x20; csrc mip, t0; li t0, 0x22; csrw mie, t0

  /* sip.STIP is read-only from S; sip.SSIP is writable */
  TEST_NUM(3)
  li t0, MSTATUS_SIE; csrc mstatus, t0
  RUN_IN_MODE(4, PRV_S, li t0, 0x20; csrs sip, t0; csrr a0, sip; andi a0, a0, 0x20; bnez a0, fail; csrsi sip, 2; csrr a0, sip; andi a0, a0, 2; beqz a0, fail; csrci sip, 2)

  /* WFI in S with SIE = 0 wakes on the pending delegated SSIP; no trap */
  TEST_NUM(5)
  la t1, s_state; ld s1, SS_COUNT(t1)
  RUN_IN_MODE(6, PRV_S, csrsi sip, 2; wfi; csrr a0, sip; andi a0, a0, 2; beqz a0, fail; la t1, s_state; ld t0, SS_COUNT(t1); bne t0, s1, fail; csrsi sstatus, MSTATUS_SIE; nop; csrci sstatus, MSTATUS_SIE; ld t0, SS_COUNT(t1); addi s1, s1, 1; bne t0, s1, fail; ld t0, SS_CAUSE(t1); li t2, IRQ_BIT | IRQ_S_SOFT; bne t0, t2, fail)

  /* SRET to U with SSIP pending and enabled: taken right away, from U (sepc = the U code) */
  TEST_NUM(7)
  la t1, s_state; ld s1, SS_COUNT(t1)
  TRAP_RESUME_M(3f)
  GOTO_MODE(PRV_S, 1f)
1: csrci sstatus, MSTATUS_SIE
  li t0, MSTATUS_SPP; csrc sstatus, t0
  la t0, 2f; csrw sepc, t0
  csrsi sip, 2
  sret
2: nop
  ecall
  j fail
3: TRAP_CHECK(TS_CAUSE, CAUSE_USER_ECALL)
  la t1, s_state; ld t0, SS_COUNT(t1); addi s1, s1, 1; bne t0, s1, fail
  ld t0, SS_EPC(t1); la t2, 2b; bne t0, t2, fail

  /* an M interrupt (MSIP) preempts S whatever mstatus.MIE */
  TEST_NUM(8)
  li t0, 0x8; csrw mie, t0; csrci mstatus, MSTATUS_MIE
  TEST_TRAP_IN_MODE(9, PRV_S, IRQ_BIT | IRQ_M_SOFT, li t0, 8; csrs sip, t0; li t0, 1; li t1, CLINT_MSIP; sw t0, 0(t1); li t2, 1000000; 5: addi t2, t2, -1; bnez t2, 5b; j fail)
  TEST_NUM(10); li t1, CLINT_MSIP; sw zero, 0(t1)

  /* vectored stvec: a delegated SSI goes to base + 4 * 1, an exception to base */
  TEST_NUM(11)
  li t0, 0x22; csrw mideleg, t0; li t0, 0x2; csrw mie, t0; csrw medeleg, x0
  la t0, s_vtable; ori t0, t0, 1; csrw stvec, t0
  csrr t0, stvec; andi t0, t0, 3; li t2, 1; bne t0, t2, 9f        /* not supported: skip */
  la t1, s_state; ld s1, SS_COUNT(t1)
  RUN_IN_MODE(12, PRV_S, csrwi sscratch, 0; csrsi sip, 2; csrsi sstatus, MSTATUS_SIE; nop; csrci sstatus, MSTATUS_SIE; csrr a0, sscratch; li t2, 1; bne a0, t2, fail)
  TEST_NUM(13); la t1, s_state; ld t0, SS_COUNT(t1); addi s1, s1, 1; bne t0, s1, fail
9: la t0, s_handler; csrw stvec, t0
  csrw mie, x0; csrw mideleg, x0
  j pass

  /* S vector table: entry i notes i in sscratch, then the common handler */
  .balign 256
  .option push
  .option norvc
s_vtable:
  j sv_exc
  j sv_ssi
  .rept 14; j fail; .endr
sv_exc: csrwi sscratch, 16; j s_handler
sv_ssi: csrwi sscratch, 1; j s_handler
  .option pop

  /* S handler: count, record; a software interrupt clears SSIP, a timer interrupt disables
   * sie.STIE (S cannot clear STIP); then return to the interrupted instruction */
  .balign 4
s_handler:
  la t1, s_state
  csrr t0, scause; sd t0, SS_CAUSE(t1)
  csrr t0, sepc; sd t0, SS_EPC(t1)
  ld t0, SS_COUNT(t1); addi t0, t0, 1; sd t0, SS_COUNT(t1)
  csrci sip, 2
  li t0, 0x20; csrc sie, t0
  sret
  .data
  .balign 8
s_state: .fill 3, 8, 0
  .text
TEST_END
