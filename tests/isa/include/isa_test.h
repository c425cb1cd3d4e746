/* isa_test.h: the shared harness of metatrace's RV64 ISA tests.
 *
 * Convention (the one riscv-tests uses, so Spike-style front ends run these ELFs): a test writes
 * the 64-bit word `tohost` once: 1 = pass, (n << 1) | 1 = failed at test case n (1..255; the
 * macros refuse larger numbers, because HTIF exit codes are 8 bits and 256 would read as 0).
 *
 * Every test is built in up to four environments, chosen with -DENV_M / -DENV_S / -DENV_S48 /
 * -DENV_U (tests/isa/module.mk; "ISA-ENV: m-only" in a test's comment keeps it to ENV_M):
 *   ENV_M  the test body runs in M-mode, satp = Bare (physical addresses).
 *   ENV_S  the body runs in S-mode under Sv39 with an identity map of 1 GiB pages (not U).
 *   ENV_U  the body runs in U-mode under Sv39 with the same identity map, pages marked U.
 *   ENV_S48 (file prefix s48-) as ENV_S, under Sv48.
 * In all of them every trap goes to the M-mode handler below (medeleg = mideleg = 0).  A test can
 * expect a trap (TEST_TRAP): the handler records cause/epc/tval/previous mode in `trap_state`
 * and resumes at the address the test stored there; any other trap fails the running case.
 *
 * The handler owns mscratch (it points at trap_state): tests must not change it.
 *
 * Register use: gp holds the current test number; t0-t2 are scratch for the macros; the macros'
 * operands use a0-a7, s0-s11, t3-t6.  Local labels 9990-9999 belong to the macros.
 */
#ifndef ISA_TEST_H
#define ISA_TEST_H

#define TESTNUM gp

/* ENV_S48: ENV_S, but under Sv48 (a level-3 root whose entry 0 points at the same table). */
#ifdef ENV_S48
#define ENV_S 1
#endif
#if !defined(ENV_M) && !defined(ENV_S) && !defined(ENV_U)
#define ENV_M 1
#endif

/* mcause values (exceptions) */
#define CAUSE_MISALIGNED_FETCH 0
#define CAUSE_FETCH_ACCESS 1
#define CAUSE_ILLEGAL_INSTRUCTION 2
#define CAUSE_BREAKPOINT 3
#define CAUSE_MISALIGNED_LOAD 4
#define CAUSE_LOAD_ACCESS 5
#define CAUSE_MISALIGNED_STORE 6
#define CAUSE_STORE_ACCESS 7
#define CAUSE_USER_ECALL 8
#define CAUSE_SUPERVISOR_ECALL 9
#define CAUSE_MACHINE_ECALL 11
#define CAUSE_FETCH_PAGE_FAULT 12
#define CAUSE_LOAD_PAGE_FAULT 13
#define CAUSE_STORE_PAGE_FAULT 15
/* mcause values (interrupts) */
#define IRQ_BIT (1 << 63)
#define IRQ_S_SOFT 1
#define IRQ_M_SOFT 3
#define IRQ_S_TIMER 5
#define IRQ_M_TIMER 7
#define IRQ_S_EXT 9
#define IRQ_M_EXT 11

/* mstatus fields */
#define MSTATUS_SIE (1 << 1)
#define MSTATUS_MIE (1 << 3)
#define MSTATUS_SPIE (1 << 5)
#define MSTATUS_MPIE (1 << 7)
#define MSTATUS_SPP (1 << 8)
#define MSTATUS_MPP (3 << 11)
#define MSTATUS_MPRV (1 << 17)
#define MSTATUS_SUM (1 << 18)
#define MSTATUS_MXR (1 << 19)
#define MSTATUS_TVM (1 << 20)
#define MSTATUS_TW (1 << 21)
#define MSTATUS_TSR (1 << 22)

#define PRV_U 0
#define PRV_S 1
#define PRV_M 3

/* PTE bits */
#define PTE_V 0x01
#define PTE_R 0x02
#define PTE_W 0x04
#define PTE_X 0x08
#define PTE_U 0x10
#define PTE_G 0x20
#define PTE_A 0x40
#define PTE_D 0x80

#define SATP_SV39 (8 << 60)
#define SATP_SV48 (9 << 60)

/* CLINT (same address on QEMU's virt and spike machines and on mtemu) */
#define CLINT_MSIP 0x2000000
#define CLINT_MTIMECMP 0x2004000
#define CLINT_MTIME 0x200bff8

/* trap_state layout (offsets in bytes) */
#define TS_SAVE_T1 0
#define TS_SAVE_T2 8
#define TS_CAUSE 16
#define TS_EPC 24
#define TS_TVAL 32
#define TS_COUNT 40
#define TS_RESUME 48 /* where to resume after an expected trap; 0 = trap unexpected */
#define TS_PRV 56    /* privilege mode the trap came from (mstatus.MPP at trap time) */
#define TS_TOM 64    /* non-zero: resume in M-mode (with MIE = 0) instead of the trapping mode */
#define TS_STATUS 72 /* mstatus as the handler found it */
#define TS_SIZE 80

/* Refuse test numbers the 8-bit HTIF exit code cannot carry. */
#define CHECK_NUM(n) .if ((n) < 1) || ((n) > 255); .error "test number must be 1..255"; .endif

/* ---------------------------------------------------------------------------------------- */
/* Start of the test program: reset code, the M-mode trap handler, the environment switch.  */
#if defined(ENV_S)
#define ENV_LEAF_FLAGS (PTE_V | PTE_R | PTE_W | PTE_X | PTE_G | PTE_A | PTE_D)
#define ENV_MPP (PRV_S << 11)
#elif defined(ENV_U)
#define ENV_LEAF_FLAGS (PTE_V | PTE_R | PTE_W | PTE_X | PTE_U | PTE_A | PTE_D)
#define ENV_MPP (PRV_U << 11)
#endif

#define TEST_BEGIN                                                                               \
        .section .text.init, "ax", @progbits;                                                    \
        .option push; .option norvc;                                                              \
        .globl _start;                                                                           \
_start: j _reset;                                                                                \
        .balign 4;                                                                               \
        .globl _mtrap;                                                                           \
_mtrap: csrrw t0, mscratch, t0;                                                                  \
        sd t1, TS_SAVE_T1(t0);                                                                   \
        sd t2, TS_SAVE_T2(t0);                                                                   \
        csrr t1, mcause; sd t1, TS_CAUSE(t0);                                                    \
        csrr t1, mepc; sd t1, TS_EPC(t0);                                                        \
        csrr t1, mtval; sd t1, TS_TVAL(t0);                                                      \
        ld t1, TS_COUNT(t0); addi t1, t1, 1; sd t1, TS_COUNT(t0);                                \
        csrr t1, mstatus; sd t1, TS_STATUS(t0);                                                  \
        srli t1, t1, 11; andi t1, t1, 3; sd t1, TS_PRV(t0);                                      \
        ld t1, TS_RESUME(t0);                                                                    \
        beqz t1, _unexpected_trap;                                                               \
        sd zero, TS_RESUME(t0);                                                                  \
        csrw mepc, t1;                                                                           \
        ld t1, TS_TOM(t0);                                                                       \
        beqz t1, 1f;                                                                             \
        sd zero, TS_TOM(t0);                                                                     \
        li t1, MSTATUS_MPP; csrs mstatus, t1;                                                    \
        /* MPIE off; MPV (bit 39, H) off too: QEMU 7.2's MRET enters V=1 even with MPP = M */     \
        li t1, MSTATUS_MPIE | (1 << 39); csrc mstatus, t1;                                       \
1:      ld t1, TS_SAVE_T1(t0);                                                                   \
        ld t2, TS_SAVE_T2(t0);                                                                   \
        csrrw t0, mscratch, t0;                                                                  \
        mret;                                                                                    \
_unexpected_trap:                                                                                \
        li t1, MSTATUS_MPP; csrs mstatus, t1;                                                    \
        j fail;                                                                                  \
_reset: li x1, 0; li x2, 0; li x3, 0; li x4, 0; li x5, 0; li x6, 0; li x7, 0;                  \
        li x8, 0; li x9, 0; li x10, 0; li x11, 0; li x12, 0; li x13, 0; li x14, 0;              \
        li x15, 0; li x16, 0; li x17, 0; li x18, 0; li x19, 0; li x20, 0; li x21, 0;            \
        li x22, 0; li x23, 0; li x24, 0; li x25, 0; li x26, 0; li x27, 0; li x28, 0;            \
        li x29, 0; li x30, 0; li x31, 0;                                                         \
        la t0, _mtrap; csrw mtvec, t0;                                                           \
        la t0, trap_state; csrw mscratch, t0;                                                    \
        csrw mie, zero; csrw mip, zero;                                                          \
        csrw medeleg, zero; csrw mideleg, zero;                                                  \
        csrw satp, zero;                                                                         \
        csrw mstatus, zero;                                                                      \
        /* one PMP entry covering everything, so S and U may access memory */                    \
        li t0, -1; csrw pmpaddr0, t0;                                                            \
        li t0, 0x1f; csrw pmpcfg0, t0;                                                           \
        li t0, -1; csrw mcounteren, t0; csrw scounteren, t0;                                     \
        li TESTNUM, 0;                                                                           \
        ENV_ENTER;                                                                               \
        .option pop;                                                                             \
        .text;                                                                                   \
        .globl _test_start;                                                                      \
_test_start:

#if defined(ENV_M)
#define ENV_ENTER j _test_start
#define ENV_DATA
#else
/* Sv39 root table: VA 0..1G and 2G..3G map to themselves with gigapages (devices and RAM);
 * under ENV_S48 it is the level-2 table below a level-3 root. */
#ifdef ENV_S48
#define ENV_ROOT _env_pt4
#define ENV_SATP_MODE SATP_SV48
#define ENV_ROOT4 .balign 4096; _env_pt4: .fill 512, 8, 0;
/* root[0] -> the Sv39 table, which then serves as the level-2 table */
#define ENV_PREP la t0, _env_pt; srli t0, t0, 12; slli t0, t0, 10; ori t0, t0, PTE_V;             \
        la t1, _env_pt4; sd t0, 0(t1)
#else
#define ENV_ROOT _env_pt
#define ENV_SATP_MODE SATP_SV39
#define ENV_ROOT4
#define ENV_PREP
#endif
#define ENV_ENTER                                                                                \
        ENV_PREP;                                                                                \
        la t0, ENV_ROOT; srli t0, t0, 12; li t1, ENV_SATP_MODE; or t0, t0, t1;                   \
        csrw satp, t0; sfence.vma;                                                               \
        li t0, ENV_MPP; csrs mstatus, t0;                                                        \
        la t0, _test_start; csrw mepc, t0;                                                       \
        mret
#define ENV_DATA                                                                                 \
        .balign 4096;                                                                            \
_env_pt: .dword (0 << 10) | ENV_LEAF_FLAGS;                                                      \
        .dword 0;                                                                                \
        .dword (0x80000 << 10) | ENV_LEAF_FLAGS;                                                 \
        .fill 509, 8, 0;                                                                         \
        ENV_ROOT4
#endif

/* -DFINISHER (only for running a test on QEMU's virt machine, which has no HTIF): also report
 * through the SiFive test finisher, exit code = the failing case. */
#ifdef FINISHER
#define FINISHER_PASS li t0, 0x5555; li t1, 0x100000; sw t0, 0(t1)
#define FINISHER_FAIL srli t0, TESTNUM, 1; slli t0, t0, 16; li t1, 0x3333; or t0, t0, t1;            \
                      li t1, 0x100000; sw t0, 0(t1)
#else
#define FINISHER_PASS
#define FINISHER_FAIL
#endif

/* End of the test program: pass/fail and the data every test needs. */
#define TEST_END                                                                                 \
        j pass;                                                                                  \
        .balign 4;                                                                               \
        .globl pass;                                                                             \
pass:   fence; FINISHER_PASS; li t0, 1; la t1, tohost; sd t0, 0(t1);                             \
9999:   j 9999b;                                                                                 \
        .globl fail;                                                                             \
fail:   fence; andi TESTNUM, TESTNUM, 0xff; bnez TESTNUM, 9998f; li TESTNUM, 0xff;              \
9998:   slli TESTNUM, TESTNUM, 1; ori TESTNUM, TESTNUM, 1;                                       \
        FINISHER_FAIL; la t1, tohost; sd TESTNUM, 0(t1);                                         \
9997:   j 9997b;                                                                                 \
        .data;                                                                                   \
        .balign 64;                                                                              \
        .globl trap_state;                                                                       \
trap_state: .fill TS_SIZE / 8, 8, 0;                                                             \
        ENV_DATA                                                                                 \
        .section .tohost, "aw", @progbits;                                                       \
        .balign 64;                                                                              \
        .globl tohost; .type tohost, @object; .size tohost, 8; tohost: .dword 0;                                                         \
        .balign 64;                                                                              \
        .globl fromhost; .type fromhost, @object; .size fromhost, 8; fromhost: .dword 0;                                                     \
        .text

/* ---------------------------------------------------------------------------------------- */
/* Test-case macros.  Each sets TESTNUM first, so a fault inside reports the right case.     */

#define TEST_NUM(n) CHECK_NUM(n); li TESTNUM, n

/* Generic: run code, then compare register `reg` with `expected`. */
#define TEST_CASE(n, reg, expected, ...)                                                         \
        TEST_NUM(n);                                                                             \
        __VA_ARGS__;                                                                             \
        li t2, expected;                                                                         \
        bne reg, t2, fail

/* register-register: rd = a0 op a1 */
#define TEST_RR(n, inst, expected, v1, v2)                                                       \
        TEST_CASE(n, a2, expected, li a0, v1; li a1, v2; inst a2, a0, a1)
/* same, with rd = rs1, rd = rs2, rd = rs1 = rs2 */
#define TEST_RR_SRC1_EQ_DEST(n, inst, expected, v1, v2)                                          \
        TEST_CASE(n, a0, expected, li a0, v1; li a1, v2; inst a0, a0, a1)
#define TEST_RR_SRC2_EQ_DEST(n, inst, expected, v1, v2)                                          \
        TEST_CASE(n, a1, expected, li a0, v1; li a1, v2; inst a1, a0, a1)
#define TEST_RR_SRC12_EQ_DEST(n, inst, expected, v1)                                             \
        TEST_CASE(n, a0, expected, li a0, v1; inst a0, a0, a0)
/* x0 as a source and as the destination */
#define TEST_RR_ZERO_SRC1(n, inst, expected, v2)                                                 \
        TEST_CASE(n, a2, expected, li a1, v2; inst a2, x0, a1)
#define TEST_RR_ZERO_SRC2(n, inst, expected, v1)                                                 \
        TEST_CASE(n, a2, expected, li a0, v1; inst a2, a0, x0)
#define TEST_RR_ZERO_DEST(n, inst, v1, v2)                                                       \
        TEST_CASE(n, x0, 0, li a0, v1; li a1, v2; inst x0, a0, a1)

/* register-immediate: rd = a0 op imm */
#define TEST_RI(n, inst, expected, v1, imm)                                                      \
        TEST_CASE(n, a2, expected, li a0, v1; inst a2, a0, imm)
#define TEST_RI_SRC1_EQ_DEST(n, inst, expected, v1, imm)                                         \
        TEST_CASE(n, a0, expected, li a0, v1; inst a0, a0, imm)
#define TEST_RI_ZERO_SRC1(n, inst, expected, imm)                                                \
        TEST_CASE(n, a2, expected, inst a2, x0, imm)
#define TEST_RI_ZERO_DEST(n, inst, v1, imm)                                                      \
        TEST_CASE(n, x0, 0, li a0, v1; inst x0, a0, imm)

/* unary: rd = op a0 (Zbb's clz, cpop, rev8...) */
#define TEST_R(n, inst, expected, v1)                                                            \
        TEST_CASE(n, a2, expected, li a0, v1; inst a2, a0)
#define TEST_R_SRC1_EQ_DEST(n, inst, expected, v1)                                               \
        TEST_CASE(n, a0, expected, li a0, v1; inst a0, a0)
#define TEST_R_ZERO_SRC1(n, inst, expected)                                                      \
        TEST_CASE(n, a2, expected, li a2, 0x5a5a; inst a2, x0)
#define TEST_R_ZERO_DEST(n, inst, v1)                                                            \
        TEST_CASE(n, x0, 0, li a0, v1; inst x0, a0)

/* Load `inst` from label+offset (base register holds label). */
#define TEST_LOAD(n, inst, expected, label, offset)                                              \
        TEST_CASE(n, a2, expected, la a0, label; inst a2, offset(a0))
/* Store then load back with `ldinst`. */
#define TEST_STORE(n, ldinst, stinst, value, label, offset)                                      \
        TEST_CASE(n, a2, value, la a0, label; li a1, value; stinst a1, offset(a0);               \
                  ldinst a2, offset(a0))

/* Branches: taken must skip the fail path, not-taken must fall through. */
#define TEST_BR_TAKEN(n, inst, v1, v2)                                                           \
        TEST_NUM(n); li a0, v1; li a1, v2;                                                       \
        inst a0, a1, 9990f;                                                                      \
        j fail;                                                                                  \
9990:
#define TEST_BR_NOT_TAKEN(n, inst, v1, v2)                                                       \
        TEST_NUM(n); li a0, v1; li a1, v2;                                                       \
        inst a0, a1, 9990f;                                                                      \
        j 9991f;                                                                                 \
9990:   j fail;                                                                                  \
9991:

/* Expect `code` to trap with mcause `cause`.  The handler resumes after the case, in the same
 * mode.  TRAP_CHECK_* read what the handler recorded for the last trap. */
#define TEST_TRAP(n, cause, ...)                                                                 \
        TEST_NUM(n);                                                                             \
        la t0, 9990f; la t1, trap_state; sd t0, TS_RESUME(t1);                                   \
        __VA_ARGS__;                                                                             \
        j fail;                                                                                  \
9990:   la t1, trap_state; ld t0, TS_CAUSE(t1); li t2, cause; bne t0, t2, fail
#define TRAP_CHECK(field, expected)                                                              \
        la t1, trap_state; ld t0, field(t1); li t2, expected; bne t0, t2, fail
#define TRAP_CHECK_REG(field, reg)                                                               \
        la t1, trap_state; ld t0, field(t1); bne t0, reg, fail
#define TRAP_CHECK_EPC(label)                                                                    \
        la t1, trap_state; ld t0, TS_EPC(t1); la t2, label; bne t0, t2, fail
#define TRAP_CHECK_TVAL_LABEL(label)                                                             \
        la t1, trap_state; ld t0, TS_TVAL(t1); la t2, label; bne t0, t2, fail

/* Arrange for the next trap to resume at `label` in M-mode (M-only tests). */
#define TRAP_RESUME_M(label)                                                                     \
        la t0, label; la t1, trap_state; sd t0, TS_RESUME(t1); li t0, 1; sd t0, TS_TOM(t1)
/* Arm the handler to resume at `label` in the trapping mode. */
#define TRAP_RESUME(label)                                                                       \
        la t0, label; la t1, trap_state; sd t0, TS_RESUME(t1)

/* From M-mode, continue at `label` in privilege `mode` (PRV_S / PRV_U) with MPRV untouched. */
#define GOTO_MODE(mode, label)                                                                   \
        li t0, MSTATUS_MPP; csrc mstatus, t0; li t0, (mode) << 11; csrs mstatus, t0;             \
        la t0, label; csrw mepc, t0; mret

/* M-only: run `code` in `mode`; it must trap to M with `cause`; execution goes on in M-mode. */
#define TEST_TRAP_IN_MODE(n, mode, cause, ...)                                                   \
        TEST_NUM(n);                                                                             \
        TRAP_RESUME_M(9990f);                                                                    \
        GOTO_MODE(mode, 9991f);                                                                  \
9991:   __VA_ARGS__;                                                                             \
        j fail;                                                                                  \
9990:   la t1, trap_state; ld t0, TS_CAUSE(t1); li t2, cause; bne t0, t2, fail;                  \
        ld t0, TS_PRV(t1); li t2, mode; bne t0, t2, fail

/* M-only: run `code` in `mode`, which must not trap; an ecall brings us back to M afterwards
 * (the ecall's cause is checked, so a stray trap of another kind fails the case). */
#define RUN_IN_MODE(n, mode, ...)                                                                \
        TEST_TRAP_IN_MODE(n, mode, CAUSE_USER_ECALL + (mode), __VA_ARGS__; ecall)

#endif
