/* metatrace bare-metal runtime: what a workload gets from start-up.
 *
 * crt0 (start.S) calls rt_start(hartid, dtb) on hart 0; rt_start sets up the UART console as
 * picolibc's stdin/stdout/stderr, reads the device tree (RAM size, /chosen/bootargs, the trace
 * unit), and calls the program's `int workload_main(struct rt_boot *)`.  Its return value is the
 * exit code: 0 leaves through the SiFive test finisher as PASS (QEMU and mtemu exit 0), anything
 * else as FAIL with that code (the emulator's exit status).  An unexpected trap prints its cause
 * and exits with 64 + the exception code (96 + the code for an interrupt). */
#ifndef RT_RT_H
#define RT_RT_H

#include <stdbool.h>
#include <stdint.h>

#include "dt.h"
#include "trace.h"

struct rt_boot {
	uint64_t hartid;
	struct dt dt;              /* the boot device tree (valid: rt_start refuses to run without) */
	const char *bootargs;      /* /chosen/bootargs, "" when absent */
	struct dt_range ram;       /* the first /memory range */
	uintptr_t arena_next;      /* free RAM for workload buffers: [arena_next, arena_end) */
	uintptr_t arena_end;
	struct trace_unit trace;   /* the trace unit, or absent */
};

/* The program: defined once per workload. */
int workload_main(struct rt_boot *boot);

/* `bytes` of free RAM aligned to 4 KiB, or NULL when it does not fit; then *free_bytes gets
 * what is left, for the message. */
void *rt_arena_alloc(struct rt_boot *boot, uint64_t bytes, uint64_t *free_bytes);

/* Exit codes every workload uses. */
enum {
	RT_EXIT_OK = 0,
	RT_EXIT_BAD_PARAMS = 2,     /* unknown or malformed bootargs */
	RT_EXIT_NO_MEMORY = 3,      /* the requested sizes do not fit in RAM */
	RT_EXIT_CHECK_FAILED = 4,   /* the workload's self-check failed (wrong result) */
	RT_EXIT_NO_DEVICE_TREE = 5, /* a1 did not point at a valid device tree */
	RT_EXIT_TRAP_BASE = 64,     /* + mcause exception code */
};

#endif
