/* csr_rozero: CSRRS/CSRRC with rs1 != x0 are writes even when the register holds 0 (Zicsr:
 * "will still attempt to write the unmodified value back"), so on a read-only CSR they raise
 * illegal-instruction; only rs1 = x0 (or uimm = 0 for the immediate forms) is a pure read.
 * ISA-ENV: m-only.
 * QEMU-DEVIATION(exit 1): QEMU 7.2 decides "write" from the mask value (0 = no write) and lets
 * these read; Spike and later QEMU versions trap as the spec says. */
#include "isa_test.h"
TEST_BEGIN
  TEST_TRAP(1, CAUSE_ILLEGAL_INSTRUCTION, li a1, 0; csrrs a0, mhartid, a1)
  TEST_TRAP(2, CAUSE_ILLEGAL_INSTRUCTION, li a1, 0; csrrc a0, mimpid, a1)
  TEST_TRAP(3, CAUSE_ILLEGAL_INSTRUCTION, li a1, 0; csrrs a0, cycle, a1)
  TEST_CASE(4, a0, 0, csrrs a0, mhartid, x0)
TEST_END
