/* htif: the HTIF front-end protocol that Spike-style bare-metal programs rely on (ISA-ENV: m-only).
 * tohost = device << 56 | command << 48 | payload; the host consumes a command by writing
 * tohost back to 0 (and answering in fromhost).  Device 1 command 1 writes one console byte;
 * device 0 command 0 with an even payload is a proxied system call: the payload points at
 * magic_mem {number, a0, a1, a2, ...}; write (64) of n bytes returns n in magic_mem[0].  This is
 * what riscv-tests' benchmarks (printf) and virtual-memory environment (console) use.  The
 * final pass is written as riscv-tests does it: two 32-bit stores (low word, then high word).
 * QEMU-DEVIATION(exit 4): QEMU 7.2's HTIF implements the console but not proxied system calls;
 * Spike's front end (and mtemu) implement both.  (Not a RISC-V spec rule: HTIF is Spike's.) */
#include "isa_test.h"
/* write `val` to tohost and wait (bounded) until the host has consumed it */
#define HTIF_CMD(val)                                                                            \
  li t0, val; la t1, tohost; sd t0, 0(t1);                                                       \
  li t2, 10000000; 9990: ld t0, 0(t1); beqz t0, 9991f; addi t2, t2, -1; bnez t2, 9990b; j fail;  \
9991:
TEST_BEGIN
  TEST_NUM(1)
  HTIF_CMD(0x0101000000000000 | 'h')
  HTIF_CMD(0x0101000000000000 | 't')
  HTIF_CMD(0x0101000000000000 | 'i')
  HTIF_CMD(0x0101000000000000 | 'f')
  HTIF_CMD(0x0101000000000000 | '\n')
  TEST_NUM(2); la t1, fromhost; sd zero, 0(t1)
  /* write(1, msg, 16) through a proxied system call */
  TEST_NUM(3)
  la a0, magic; li t0, 64; sd t0, 0(a0); li t0, 1; sd t0, 8(a0)
  la t0, msg; sd t0, 16(a0); li t0, 16; sd t0, 24(a0)
  fence
  la t0, magic; la t1, tohost; sd t0, 0(t1)
  li t2, 10000000
1: ld t0, 0(t1); beqz t0, 2f; addi t2, t2, -1; bnez t2, 1b; j fail
2: TEST_NUM(4); la a0, magic; ld a1, 0(a0); li t2, 16; bne a1, t2, fail
  TEST_NUM(5); la t1, fromhost; ld t0, 0(t1); beqz t0, fail; sd zero, 0(t1)
  /* pass the way riscv-tests' physical environment does: two 32-bit stores, low word (1) then
   * high word (0), repeated; a front end that only watches 64-bit stores never sees it and we
   * fall through to the failure */
  TEST_NUM(6)
  li t0, 1; la t1, tohost
  li t2, 1000
1: sw t0, 0(t1); sw zero, 4(t1); addi t2, t2, -1; bnez t2, 1b
  .data
  .balign 64
magic: .fill 8, 8, 0
msg:   .ascii "htif syscall ok\n"
  .text
TEST_END
