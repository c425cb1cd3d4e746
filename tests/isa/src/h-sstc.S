/* h-sstc: Sstc with the H extension.  henvcfg.STCE (bit 63) is read-only zero while
 * menvcfg.STCE = 0 and writable once it is 1; vstimecmp (0x24d) reads back; with
 * henvcfg.STCE = 1, hip.VSTIP is time + htimedelta >= vstimecmp (a compare value at or below
 * the guest's time sets it, a later one or a smaller htimedelta clears it); in VS-mode stimecmp
 * is vstimecmp, a virtual-instruction exception (22) while henvcfg.STCE = 0 or hcounteren.TM = 0
 * and an illegal-instruction one while menvcfg.STCE = 0; VS-mode reaching vstimecmp by its own
 * number is a virtual instruction.  G-stage and VS-stage are Bare.
 * ISA-ENV: m-only
 * QEMU-MACHINE(virt): as sstc.S.
 * QEMU-CPU(rv64,h=true)
 * QEMU-DEVIATION(exit 17): QEMU 7.2 leaves VSTIP as it was when htimedelta changes (it compares
 * only when vstimecmp is written; VSTIP is the level of time + htimedelta >= vstimecmp) and
 * reads henvcfg.STCE back as written while menvcfg.STCE = 0 (the spec: read-only zero then;
 * later QEMU masks the read), cases 17-20. */
#include "isa_test.h"
#define MSTATUS_MPV (1 << 39)
#define STCE (1 << 63)
#define VSTIP 0x40
#define CSR_HCOUNTEREN 0x606
#define CSR_HTIMEDELTA 0x605
#define CSR_HENVCFG 0x60a
#define CSR_HIP 0x644
#define CSR_HGATP 0x680
#define CSR_VSATP 0x280
#define CSR_VSTIMECMP 0x24d
#define CAUSE_VS_ECALL 10
#define CAUSE_VIRTUAL 22
#define ENTER_V(mode, label)                                                                     \
        li t0, MSTATUS_MPP; csrc mstatus, t0;                                                    \
        li t0, ((mode) << 11) | MSTATUS_MPV; csrs mstatus, t0;                                   \
        la t0, label; csrw mepc, t0; mret
/* Run code in VS; it must trap to M with `cause`. */
#define VS_TRAP(n, cause, ...)                                                                   \
        TEST_NUM(n); TRAP_RESUME_M(9982f); ENTER_V(PRV_S, 9983f);                                \
9983:   __VA_ARGS__; j fail;                                                                     \
9982:   TRAP_CHECK(TS_CAUSE, cause)
#define VS_RUN(n, ...) VS_TRAP(n, CAUSE_VS_ECALL, __VA_ARGS__; ecall)
TEST_BEGIN
  csrw CSR_HGATP, zero
  csrw CSR_VSATP, zero
  li t0, -1; csrw CSR_HCOUNTEREN, t0; csrw CSR_HTIMEDELTA, zero
  li t0, -1; li t1, CLINT_MTIMECMP; sd t0, 0(t1)
  /* henvcfg.STCE is writable with menvcfg.STCE = 1 */
  TEST_NUM(1); li t0, STCE; csrs 0x30a, t0; csrc CSR_HENVCFG, t0; csrr a0, CSR_HENVCFG; and a0, a0, t0; bnez a0, fail
  TEST_NUM(2); li t0, STCE; csrs CSR_HENVCFG, t0; csrr a0, CSR_HENVCFG; and a0, a0, t0; beqz a0, fail
  TEST_CASE(3, a0, 0x55aa55aa, li t0, 0x55aa55aa; csrw CSR_VSTIMECMP, t0; csrr a0, CSR_VSTIMECMP)
  /* VSTIP from the guest's time */
  TEST_CASE(4, a0, 0, li t0, -1; csrw CSR_VSTIMECMP, t0; csrr a0, CSR_HIP; andi a0, a0, VSTIP)
  TEST_CASE(5, a0, VSTIP, csrw CSR_VSTIMECMP, zero; csrr a0, CSR_HIP; andi a0, a0, VSTIP)
  /* a compare value ahead of the guest's time clears it */
  TEST_NUM(6)
  rdtime t0; li t1, 1000000000; add t0, t0, t1; csrw CSR_VSTIMECMP, t0
  csrr a0, CSR_HIP; andi a0, a0, VSTIP; bnez a0, fail
  /* VS: stimecmp is vstimecmp */
  TEST_NUM(7); li t0, 0x1234; csrw CSR_VSTIMECMP, t0
  VS_RUN(8, csrr a0, 0x14d; li t0, 0x4321; csrw 0x14d, t0)
  li t0, 0x1234; bne a0, t0, fail
  TEST_CASE(9, a0, 0x4321, csrr a0, CSR_VSTIMECMP)
  VS_TRAP(10, CAUSE_VIRTUAL, csrr a0, CSR_VSTIMECMP)
  /* the hypervisor's enables: virtual instruction; M's: illegal */
  TEST_NUM(11); csrwi CSR_HCOUNTEREN, 5
  VS_TRAP(12, CAUSE_VIRTUAL, csrr a0, 0x14d)
  TEST_NUM(13); csrwi CSR_HCOUNTEREN, 7; li t0, STCE; csrc CSR_HENVCFG, t0
  VS_TRAP(14, CAUSE_VIRTUAL, csrr a0, 0x14d)
  TEST_NUM(15); li t0, STCE; csrs CSR_HENVCFG, t0; csrc 0x30a, t0
  VS_TRAP(16, CAUSE_ILLEGAL_INSTRUCTION, csrr a0, 0x14d)
  /* last, what QEMU 7.2 does otherwise (see QEMU-DEVIATION): htimedelta moves the guest's time
   * past vstimecmp and back, VSTIP following; with menvcfg.STCE = 0 henvcfg.STCE reads zero */
  TEST_NUM(17); li t0, STCE; csrs 0x30a, t0; csrs CSR_HENVCFG, t0
  rdtime t0; li t1, 1000000000; add t0, t0, t1; csrw CSR_VSTIMECMP, t0
  li t1, 2000000000; csrw CSR_HTIMEDELTA, t1
  csrr a0, CSR_HIP; andi a0, a0, VSTIP; beqz a0, fail
  csrw CSR_HTIMEDELTA, zero
  csrr a0, CSR_HIP; andi a0, a0, VSTIP; bnez a0, fail
  TEST_NUM(18); li t0, STCE; csrc 0x30a, t0
  TEST_CASE(19, a0, 0, csrr a0, CSR_HENVCFG; li t0, STCE; and a0, a0, t0)
  TEST_CASE(20, a0, 0, li t0, STCE; csrs CSR_HENVCFG, t0; csrr a0, CSR_HENVCFG; and a0, a0, t0)
TEST_END
