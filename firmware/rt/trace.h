/* Driver for the metatrace trace unit: an MMIO device (4 KiB window, 0x1100_0000 on mtemu's
 * `virt` map) found through its device-tree node, compatible "metatrace,trace-unit".  The
 * register map is docs/trace-unit.md / lib/mt_regs.h.  Where the device is absent (QEMU, or
 * mtemu without a trace unit) every call does nothing, so the same programs run everywhere. */
#ifndef RT_TRACE_H
#define RT_TRACE_H

#include <stdbool.h>
#include <stdint.h>

#include "dt.h"

#include "lib/mt_regs.h"

#define TRACE_UNIT_COMPATIBLE MT_REGS_COMPATIBLE

struct trace_unit {
	uintptr_t base;   /* 0 when absent */
	bool present;
};

/* Sampling settings one section type (burst or span) uses; see DESIGN.md "Sampling". */
struct trace_section {
	uint64_t length;   /* cycles the section lasts */
	uint64_t rate;     /* cycles per sample point (1 = every access) */
	uint32_t format;   /* address format code (lib/mt_regs.h) */
};

/* Address formats and kinds, as the register fields encode them (lib/mt_regs.h). */
enum { TRACE_FMT_48 = 0, TRACE_FMT_32 = 1, TRACE_FMT_FULL = 2, TRACE_FMT_LINE = 3 };
enum {
	TRACE_KIND_FETCH = 1u << 0, TRACE_KIND_LOAD = 1u << 1, TRACE_KIND_STORE = 1u << 2,
	TRACE_KIND_AMO = 1u << 3, TRACE_KIND_PTW = 1u << 4,
};
enum { TRACE_TAP_CORE = 0, TRACE_TAP_DRAM = 1 };

struct trace_settings {
	struct trace_section burst, span;
	uint32_t kinds;    /* kind-filter mask (fetch, load, store, AMO, page-table walk) */
	uint32_t tap;      /* core or dram */
};

/* Looks for the device in the tree; false (and tu->present = false) when it is not there. */
bool trace_probe(struct trace_unit *tu, const struct dt *dt);

/* Writes every configuration register of `s`.  The unit latches them when a session starts, so
 * they apply from the next trace_start.  False when absent or a value does not fit its register
 * (lengths are 40-bit, rates 32-bit). */
bool trace_config(const struct trace_unit *tu, const struct trace_settings *s);
/* Reads the current settings back (what the emulator's command line configured). */
bool trace_get_config(const struct trace_unit *tu, struct trace_settings *s);
/* Starts a session (waiting for the previous one to finish writing END); nothing if one is
 * running already (mtemu --trace starts one at reset). */
void trace_start(const struct trace_unit *tu);
/* Stops the session: the unit writes what is pending, then an END packet. */
void trace_stop(const struct trace_unit *tu);
bool trace_active(const struct trace_unit *tu);
/* Emits a MARKER packet carrying `id` into the stream, in program order with the accesses. */
void trace_marker(const struct trace_unit *tu, uint32_t id);

struct trace_counters {
	uint32_t status;    /* STATUS register bits */
	uint32_t dropped;   /* samples dropped this session */
	uint64_t samples;   /* samples reported this session */
	uint64_t bytes;     /* packet bytes written this session */
};
/* Reads the session counters.  False when absent. */
bool trace_counters(const struct trace_unit *tu, struct trace_counters *c);

#endif
