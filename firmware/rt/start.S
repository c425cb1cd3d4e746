/* metatrace bare-metal start-up (crt0) and machine-mode trap entry.
 *
 * Entered in M-mode at the ELF entry with a0 = hart id, a1 = device-tree address (what QEMU's
 * reset ROM and mtemu pass).  Hart 0 runs the program; any other hart parks in wfi, because the
 * workloads are single-threaded and a second hart racing through BSS clearing would corrupt it.
 */
	.section .text.start, "ax"
	.globl _start
_start:
	.option push
	.option norelax
	la	gp, __global_pointer$
	.option pop
	bnez	a0, park

	la	sp, __stack_top
	/* Traps get their own stack through mscratch, so a fault caused by a blown or corrupt
	 * stack can still be reported. */
	la	t0, trap_stack_top
	csrw	mscratch, t0
	la	t0, trap_entry
	csrw	mtvec, t0

	/* Clear .bss (the ELF loader only zeroes what the file says, but be sure). */
	la	t0, __bss_start
	la	t1, __bss_end
1:	bgeu	t0, t1, 2f
	sd	zero, 0(t0)
	addi	t0, t0, 8
	j	1b
2:
	/* Thread pointer to the TLS block (picolibc's errno lives there); zero its .tbss part
	 * (.tdata is already in place: it is loaded where it runs). */
	la	tp, __tls_base
	la	t0, __tls_base
	la	t1, __tdata_size
	add	t0, t0, t1
	la	t1, __tls_end
3:	bgeu	t0, t1, 4f
	sb	zero, 0(t0)
	addi	t0, t0, 1
	j	3b
4:
	/* rt_start(hartid, dtb) never returns: it calls exit(). */
	call	rt_start
park:
	wfi
	j	park

/* Trap entry: save the interrupted context's sp, switch to the trap stack, and hand
 * mcause/mepc/mtval to C, which reports them and exits non-zero (nothing here expects a trap). */
	.text
	.balign 4
trap_entry:
	csrrw	sp, mscratch, sp
	csrr	a0, mcause
	csrr	a1, mepc
	csrr	a2, mtval
	csrr	a3, mscratch		/* the interrupted sp */
	call	rt_trap
1:	j	1b

	.bss
	.balign 16
trap_stack:
	.space	4096
trap_stack_top:
