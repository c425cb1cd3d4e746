/* tselect: the trigger-select CSR can be accessed (ISA-ENV: m-only).  COMPATIBILITY, not a spec
 * rule: Sdtrig (debug triggers) is optional, but riscv-tests' rv64mi-p-breakpoint writes
 * tselect and reads it back to find out whether triggers exist, and fails if that access traps
 * (its handler expects only breakpoint exceptions).  Spike and QEMU implement tselect; an
 * implementation without triggers can make it read 0 (then the written 1 << 63 does not read
 * back and the test skips the rest) and tdata1's type field 0 ("no trigger"). */
#include "isa_test.h"
TEST_BEGIN
  TEST_NUM(1); li a0, 1 << 63; csrw tselect, a0; csrr a1, tselect
  TEST_NUM(2); csrw tselect, x0; csrr a1, tselect; csrr a2, tdata1
TEST_END
