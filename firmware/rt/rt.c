#include "rt.h"

#include <stdio.h>
#include <stdlib.h>

#include "uart.h"

/* The SiFive test finisher on `virt`: a 32-bit write ends the machine. */
#define FINISHER_BASE 0x100000u
#define FINISHER_PASS 0x5555u
#define FINISHER_FAIL 0x3333u

static int console_put(char c, FILE *f)
{
	(void)f;
	uart_putc(UART_VIRT_BASE, c);
	return (unsigned char)c;
}

static int console_get(FILE *f)
{
	(void)f;
	return uart_getc(UART_VIRT_BASE);
}

/* picolibc's stdio is bound at link time to these three objects (the library's documented
 * integration point), so this one stream is necessarily a global; it is never written to. */
static FILE console = FDEV_SETUP_STREAM(console_put, console_get, NULL, _FDEV_SETUP_RW);
FILE *const stdin = &console;
FILE *const stdout = &console;
FILE *const stderr = &console;

void _exit(int code)
{
	volatile uint32_t *finisher = (volatile uint32_t *)(uintptr_t)FINISHER_BASE;
	*finisher = code == 0 ? FINISHER_PASS : ((uint32_t)(code & 0xffff) << 16) | FINISHER_FAIL;
	for (;;)  /* no finisher (not a `virt` machine): stop here */
		__asm__ volatile("wfi");
}

static const char *exception_name(uint64_t code)
{
	static const char *const names[] = {
		"instruction address misaligned", "instruction access fault", "illegal instruction",
		"breakpoint", "load address misaligned", "load access fault",
		"store/AMO address misaligned", "store/AMO access fault", "ecall from U-mode",
		"ecall from S-mode", "reserved", "ecall from M-mode", "instruction page fault",
		"load page fault", "reserved", "store/AMO page fault",
	};
	return code < sizeof names / sizeof names[0] ? names[code] : "unknown";
}

/* Called by trap_entry (start.S) on the trap stack: nothing in these programs expects a trap. */
void rt_trap(uint64_t cause, uint64_t epc, uint64_t tval, uint64_t sp);
void rt_trap(uint64_t cause, uint64_t epc, uint64_t tval, uint64_t sp)
{
	bool interrupt = cause >> 63;
	uint64_t code = cause & ~(1ull << 63);
	printf("\ntrap: mcause=0x%llx (%s%s) mepc=0x%llx mtval=0x%llx sp=0x%llx\n",
	       (unsigned long long)cause, interrupt ? "interrupt " : "",
	       interrupt ? "" : exception_name(code), (unsigned long long)epc,
	       (unsigned long long)tval, (unsigned long long)sp);
	_exit(RT_EXIT_TRAP_BASE + (interrupt ? 32 : 0) + (int)(code & 31));
}

void *rt_arena_alloc(struct rt_boot *boot, uint64_t bytes, uint64_t *free_bytes)
{
	uint64_t left = boot->arena_end - boot->arena_next;
	uint64_t rounded = (bytes + 4095) & ~4095ull;
	if (rounded < bytes || rounded > left) {
		*free_bytes = left;
		return NULL;
	}
	void *p = (void *)boot->arena_next;
	boot->arena_next += rounded;
	return p;
}

extern char __arena_start[];

/* The arena is RAM after the program's heap, minus the device tree wherever the boot ROM put it
 * (QEMU puts it near the top of RAM): keep the larger free side of it. */
static void setup_arena(struct rt_boot *boot, uintptr_t dtb)
{
	uintptr_t lo = (uintptr_t)__arena_start, hi = boot->ram.base + boot->ram.size;
	uintptr_t dt_lo = dtb & ~4095ul, dt_hi = (dtb + boot->dt.total_size + 4095) & ~4095ul;
	if (hi < lo)
		hi = lo;
	if (dt_hi > lo && dt_lo < hi) {
		uintptr_t below = dt_lo > lo ? dt_lo - lo : 0, above = hi > dt_hi ? hi - dt_hi : 0;
		if (below >= above)
			hi = lo + below;
		else
			lo = dt_hi;
	}
	boot->arena_next = lo;
	boot->arena_end = hi;
}

void rt_start(uint64_t hartid, uintptr_t dtb);
void rt_start(uint64_t hartid, uintptr_t dtb)
{
	struct rt_boot boot = { .hartid = hartid, .bootargs = "" };
	uart_init(UART_VIRT_BASE);
	const char *why = dt_open(&boot.dt, (const void *)dtb);
	if (why) {
		printf("rt: a1=0x%lx: %s; cannot size memory or read parameters\n", (unsigned long)dtb, why);
		exit(RT_EXIT_NO_DEVICE_TREE);
	}
	uint32_t len = 0;
	const char *args = dt_getprop(&boot.dt, "/chosen", "bootargs", &len);
	if (args && len > 0 && args[len - 1] == '\0')
		boot.bootargs = args;
	if (!dt_find_reg(&boot.dt, "device_type", "memory", &boot.ram)) {
		printf("rt: the device tree has no /memory node with a reg; cannot size memory\n");
		exit(RT_EXIT_NO_DEVICE_TREE);
	}
	setup_arena(&boot, dtb);
	trace_probe(&boot.trace, &boot.dt);
	int code = workload_main(&boot);
	/* Informational (exact on QEMU only with -icount shift=0): not compared across emulators. */
	uint64_t instret;
	/* GCC 12 marks its output rv64imac, which overrides -Wa,-march: enable Zicsr locally. */
	__asm__ volatile(".option push\n.option arch, +zicsr\ncsrr %0, minstret\n.option pop" : "=r"(instret));
	printf("info instret=%llu trace=%s\n", (unsigned long long)instret,
	       boot.trace.present ? "present" : "absent");
	exit(code);
}
