/* How far one hart may run ahead while another waits for its turn (mtemu -smp 2, emu/platform/smp.h).
 *
 * The writer (hart 0) publishes a flag, executes WINDOW more instructions, then stores the data
 * the flag announces.  The reader (hart 1) waits for the flag, executes DELAY instructions, then
 * reads the data.  Harts that run at the same pace never let the reader see a stale value: that
 * needs the reader to run DELAY instructions while the writer is stuck inside its window.  A
 * round-robin schedule can only do that when a turn is longer than about DELAY - WINDOW; OpenSBI
 * 1.1's HSM hart start is this pattern (state START_PENDING published 6 instructions before
 * next_addr; the started hart needs about 5,200 instructions from seeing it to reading next_addr),
 * and 10,000-instruction turns sent hart 3 of an 8-hart Linux boot to a stale address.
 *
 * A pseudo-random delay before each round (0..32k instructions) spreads the writer's publication
 * over every phase of its turn.  Exit (SiFive test finisher): 0, or the number of stale reads. */
#define ROUNDS 200   /* below 256: the exit code counts stale reads */
#define WINDOW 500   /* writer: instructions from the flag to the data */
#define DELAY 4000   /* reader: instructions from seeing the flag to reading the data */
#define FINISHER 0x100000

  .section .text.init
  .globl _start
_start:
  csrr a0, mhartid
  beqz a0, writer
  li t0, 1
  beq a0, t0, reader
park:
  wfi
  j park

writer:
  la s0, shared            /* 0: flag, 8: data, 16: ack */
  li s1, 1                 /* round */
  li s2, ROUNDS
  li s3, 12345             /* LCG state */
  li s4, 6364136223846793005
next_round:
  mul s3, s3, s4
  addi s3, s3, 1
  srli t0, s3, 50          /* 0..16383 iterations of a 2-instruction loop */
  addi t0, t0, 1
1: addi t0, t0, -1
  bnez t0, 1b
  sd s1, 0(s0)             /* the flag ... */
  li t0, WINDOW / 2
2: addi t0, t0, -1
  bnez t0, 2b
  sd s1, 8(s0)             /* ... and, WINDOW instructions later, the data it announces */
3: ld t1, 16(s0)           /* the reader's acknowledgement */
  bne t1, s1, 3b
  addi s1, s1, 1
  ble s1, s2, next_round
  j park

reader:
  la s0, shared
  li s1, 1
  li s2, ROUNDS
  li s5, 0                 /* stale reads */
1: ld t1, 0(s0)
  bne t1, s1, 1b
  li t0, DELAY / 2
2: addi t0, t0, -1
  bnez t0, 2b
  ld t1, 8(s0)
  beq t1, s1, 3f
  addi s5, s5, 1
3: sd s1, 16(s0)
  addi s1, s1, 1
  ble s1, s2, 1b
  li t0, FINISHER
  li t1, 0x5555            /* pass */
  beqz s5, 4f
  slli t1, s5, 16
  li t2, 0x3333            /* fail, exit code = stale reads */
  or t1, t1, t2
4: sw t1, 0(t0)
  j park

  .data
  .align 6
shared: .dword 0, 0, 0
