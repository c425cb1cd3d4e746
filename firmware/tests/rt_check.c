/* rt-check: a self-test of the bare-metal runtime on whatever machine runs it (QEMU `virt`,
 * mtemu).  It checks the parameter parser on fixed strings, the device-tree reader on the live
 * tree (bootargs, /memory, the UART and test-finisher nodes), the arena, and, on request, the
 * trap and exit paths:
 *   mem=N     expect the /memory node to say N bytes (0: do not check)
 *   trap=1    execute an illegal instruction  -> "trap: ..." and exit 64+2
 *   trap=2    execute ebreak                  -> exit 64+3
 *   trap=3    load from an address with no device (0x0) -> exit 64+5 (load access fault)
 *   code=N    exit with code N after the checks (the finisher's FAIL path)
 *   trace=1   also check the trace unit (must be present: mtemu only): configuration registers
 *             read back, a session starts and stops, a marker is not lost, counters move
 * Prints "check NAME ok" or "check NAME FAILED: why", then "result rt-check failures=N". */
#include <stdio.h>
#include <string.h>

#include "firmware/rt/workload.h"

struct tally {
	unsigned failures;
};

static void check(struct tally *t, int ok, const char *name, const char *why)
{
	if (ok) {
		printf("check %s ok\n", name);
	} else {
		printf("check %s FAILED: %s\n", name, why);
		t->failures++;
	}
}

static void check_params(struct tally *t)
{
	char err[160];
	struct param p[] = { { "size", 7, "" }, { "stride", 9, "" } };
	check(t, params_parse("size=16M stride=0x40", p, 2, err, sizeof err) && p[0].value == 16u << 20 &&
		 p[1].value == 64, "params-values", "size=16M stride=0x40 misparsed");
	p[0].value = 7;
	check(t, params_parse("", p, 2, err, sizeof err) && p[0].value == 7, "params-defaults",
	      "empty bootargs changed a default");
	check(t, params_parse("  size=1k\tstride=2G ", p, 2, err, sizeof err) && p[0].value == 1024 &&
		 p[1].value == 2ull << 30, "params-suffixes", "1k / 2G misparsed");
	check(t, !params_parse("sise=1", p, 2, err, sizeof err) && strstr(err, "unknown parameter 'sise'"),
	      "params-unknown-key", "an unknown key was accepted");
	check(t, !params_parse("size", p, 2, err, sizeof err), "params-no-value", "'size' without = accepted");
	check(t, !params_parse("size=", p, 2, err, sizeof err), "params-empty-value", "'size=' accepted");
	check(t, !params_parse("size=12x", p, 2, err, sizeof err), "params-garbage", "'size=12x' accepted");
	check(t, !params_parse("size=99999999999999999999", p, 2, err, sizeof err), "params-overflow",
	      "a value above 2^64 accepted");
	check(t, !params_parse("size=17179869184G", p, 2, err, sizeof err), "params-suffix-overflow",
	      "16 Ei-bytes accepted");
}

static void check_device_tree(struct tally *t, struct rt_boot *boot, uint64_t want_mem)
{
	struct dt_range r;
	check(t, strstr(boot->bootargs, "mem=") != NULL, "dt-bootargs",
	      "/chosen/bootargs does not hold the parameters given (mem=...)");
	check(t, boot->ram.base == 0x80000000u, "dt-memory-base", "RAM does not start at 0x8000_0000");
	check(t, want_mem == 0 || boot->ram.size == want_mem, "dt-memory-size",
	      "the /memory node's size differs from mem=");
	check(t, dt_find_reg(&boot->dt, "compatible", "ns16550a", &r) && r.base == 0x10000000u, "dt-uart",
	      "no ns16550a node at 0x1000_0000");
	check(t, dt_find_reg(&boot->dt, "compatible", "sifive,test0", &r) && r.base == 0x100000u,
	      "dt-finisher", "no sifive,test0 node at 0x10_0000");
	check(t, !dt_find_reg(&boot->dt, "compatible", "no-such,device", &r), "dt-absent",
	      "found a node for a compatible string nobody has");
	uint32_t len = 0;
	check(t, dt_getprop(&boot->dt, "/memory", "device_type", &len) != NULL && len == 7, "dt-getprop-unit",
	      "/memory (without unit address) not found");
	check(t, dt_getprop(&boot->dt, "/no/such/node", "reg", &len) == NULL, "dt-getprop-absent",
	      "a property of a missing node was found");
}

static void check_arena(struct tally *t, struct rt_boot *boot)
{
	uint64_t free_bytes = 0, before = boot->arena_end - boot->arena_next;
	uint8_t *a = rt_arena_alloc(boot, 100, &free_bytes);
	uint8_t *b = rt_arena_alloc(boot, 4096, &free_bytes);
	check(t, a && b && ((uintptr_t)a & 4095) == 0 && b == a + 4096, "arena-alloc",
	      "allocations not page-aligned and consecutive");
	check(t, rt_arena_alloc(boot, before, &free_bytes) == NULL && free_bytes == before - 8192,
	      "arena-refuse", "an allocation bigger than free RAM succeeded");
	a[0] = 0x5a;
	b[4095] = 0xa5;
	check(t, a[0] == 0x5a && b[4095] == 0xa5, "arena-rw", "arena memory does not hold values");
	check(t, (uintptr_t)boot->dt.blob < boot->arena_next || (uintptr_t)boot->dt.blob >= boot->arena_end,
	      "arena-spares-dtb", "the device tree lies inside the arena");
}

static void check_printf(struct tally *t)
{
	char buf[64];
	snprintf(buf, sizeof buf, "%llx %lld %u", 0xfedcba9876543210ull, -42ll, 7u);
	check(t, strcmp(buf, "fedcba9876543210 -42 7") == 0, "printf", buf);
}

static int same_settings(const struct trace_settings *a, const struct trace_settings *b)
{
	return a->kinds == b->kinds && a->tap == b->tap && a->burst.format == b->burst.format &&
	       a->span.format == b->span.format && a->burst.rate == b->burst.rate &&
	       a->span.rate == b->span.rate && a->burst.length == b->burst.length &&
	       a->span.length == b->span.length;
}

static void check_trace(struct tally *t, struct rt_boot *boot)
{
	const struct trace_unit *tu = &boot->trace;
	check(t, tu->present, "trace-present", "no usable " TRACE_UNIT_COMPATIBLE " node/device");
	if (!tu->present)
		return;
	struct trace_settings saved, want, got;
	check(t, trace_get_config(tu, &saved), "trace-get-config", "reading the configuration failed");
	want = (struct trace_settings){
		.burst = { .length = 0x12345678ABull, .rate = 1, .format = TRACE_FMT_FULL },
		.span = { .length = 1000000, .rate = 4096, .format = TRACE_FMT_LINE },
		.kinds = TRACE_KIND_LOAD | TRACE_KIND_STORE,
		.tap = TRACE_TAP_CORE,
	};
	check(t, trace_config(tu, &want) && trace_get_config(tu, &got) && same_settings(&want, &got),
	      "trace-config-readback", "configuration registers do not read back what was written");
	want.burst.length = 1ull << 40;
	check(t, !trace_config(tu, &want), "trace-config-range", "a 41-bit length was accepted");
	check(t, trace_config(tu, &saved), "trace-config-restore", "restoring the configuration failed");

	bool was_active = trace_active(tu);
	trace_start(tu);
	check(t, trace_active(tu), "trace-start", "STATUS.ACTIVE is clear after trace_start");
	trace_marker(tu, 0x52544b31u);  /* "RTK1" */
	trace_marker(tu, 0x52544b32u);  /* back to back: the driver must wait for the first */
	struct trace_counters c;
	check(t, trace_counters(tu, &c) && !(c.status & MT_STATUS_MARKER_LOST), "trace-marker",
	      "STATUS.MARKER_LOST is set: a marker was dropped");
	if (!was_active) {
		trace_stop(tu);
		check(t, !trace_active(tu), "trace-stop", "STATUS.ACTIVE is still set after trace_stop");
		check(t, trace_counters(tu, &c) && c.bytes > 0, "trace-counters", "no packet bytes counted");
	}
}

int workload_main(struct rt_boot *boot)
{
	struct param p[] = {
		{ "mem", 0, "expected RAM size in bytes (0: any)" },
		{ "trap", 0, "1 illegal instruction, 2 ebreak, 3 load access fault" },
		{ "code", 0, "exit code after the checks" },
		{ "trace", 0, "1: check the trace unit too" },
	};
	wl_params(boot, "rt-check", p, 4);
	struct tally t = { 0 };
	check_params(&t);
	check_device_tree(&t, boot, p[0].value);
	check_arena(&t, boot);
	check_printf(&t);
	if (p[3].value)
		check_trace(&t, boot);
	printf("result rt-check failures=%u\n", t.failures);
	switch (p[1].value) {
	case 1: __asm__ volatile(".4byte 0"); break;          /* all-zero: illegal */
	case 2: __asm__ volatile("ebreak"); break;
	case 3: (void)*(volatile uint32_t *)(uintptr_t)0; break;  /* nothing at 0: access fault */
	default: break;
	}
	if (t.failures)
		return RT_EXIT_CHECK_FAILED;
	return (int)p[2].value;
}
