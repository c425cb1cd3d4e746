/* The Verilated trace unit (rtl_model/rtl/mt_tu.sv) behind a plain C API.
 *
 * Time works as in the C model (lib/mt_unit.h): the RTL has completed every clock before
 * mt_rtl_now(); calls name a cycle >= now, and the RTL is first clocked (idle) up to it.  In the
 * current cycle at most one access and at most one MMIO operation (read or write) can be given,
 * as on the hardware's two ports.  A read returns the state at the start of its cycle; a write
 * takes effect at the end of it.  Output bytes (what the FIFO drains each clock) accumulate until
 * mt_rtl_pop() takes them.  The FIFO depth and drain rate are given at creation (FIFO_INFO
 * reads them back).
 *
 * Link: $(RTL_A) $(RTL_LIBS) (C++ runtime); the FST build ($(RTL_FST_A) $(RTL_FST_LIBS)) writes
 * waveforms when mt_rtl_create() is given a path. */
#ifndef MT_RTL_H
#define MT_RTL_H

#include <stddef.h>
#include <stdint.h>

#include "mt_event.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct mt_rtl mt_rtl;

#define MT_RTL_DEFAULT_DEPTH 4096u
#define MT_RTL_DEFAULT_DRAIN 8u
#define MT_RTL_MAX_DEPTH 65536u
#define MT_RTL_MAX_DRAIN 8u

/* depth: FIFO bytes (32..65536, 0 = 4096); drain: bytes per clock (1..8, 0 = 8) -- the RTL's
 * depth_i/drain_i straps, the same build parameters as lib/mt_unit's.  fst_path: NULL for no
 * waveform.  Returns NULL for parameters out of range, when out of memory, or when a waveform is
 * asked of a library built without FST support (mt_rtl_has_fst() says which).  The unit comes
 * out of reset at cycle 0. */
mt_rtl *mt_rtl_create(unsigned depth, unsigned drain, const char *fst_path);
void mt_rtl_destroy(mt_rtl *r);
int mt_rtl_has_fst(void);
/* Only the cycles [from, to) go into the waveform (default: all); the file then starts with the
 * full state at `from`. */
void mt_rtl_wave_window(mt_rtl *r, uint64_t from, uint64_t to);

/* Back to cycle 0, registers at their reset values, output buffer emptied. */
void mt_rtl_reset(mt_rtl *r);

uint64_t mt_rtl_now(const mt_rtl *r);
unsigned mt_rtl_depth(const mt_rtl *r);
unsigned mt_rtl_drain(const mt_rtl *r);
/* The widest drain and the largest depth this library takes: its RTL's Drain and Depth
 * parameters (MT_RTL_MAX_DRAIN, MT_RTL_MAX_DEPTH; 4 and 4096 for build/rtl/minimal, the synthesis
 * harness's, whose FIFO has the 4-byte write port of a narrow output, mt_tu_fifo).  A drain of 0
 * at creation then means at most this width. */
unsigned mt_rtl_max_drain(void);
unsigned mt_rtl_max_depth(void);

/* Clock every cycle before `cycle` (no-op if cycle <= now). */
void mt_rtl_advance(mt_rtl *r, uint64_t cycle);
/* Complete the current cycle and n - 1 more: mt_rtl_advance(r, now + n). */
void mt_rtl_clock(mt_rtl *r, uint64_t n);

/* One bus access in cycle a->cycle (>= now; the RTL is advanced to it).  Returns 0, or -1 when
 * the cycle is in the past or already has an access. */
int mt_rtl_access(mt_rtl *r, const mt_access *a);
/* MMIO at `cycle` (>= now), byte offset `off` in the 4 KiB window; 32-bit aligned offsets only
 * (others read 0 and ignore writes, as in docs/trace-unit.md).  Returns 0 / the value; the
 * write returns -1 (and the read 0) when the cycle is in the past or already has an MMIO op. */
int mt_rtl_mmio_write(mt_rtl *r, uint64_t cycle, uint32_t off, uint32_t val);
uint32_t mt_rtl_mmio_read(mt_rtl *r, uint64_t cycle, uint32_t off);

/* The tap the unit compares an access of the current cycle with: TAP as latched at the enable
 * while a session runs, else TAP as written; read from the unit's own registers as clocked (a
 * register write of the current cycle is not in it: it applies at the clock edge).  -1 in a build
 * whose netlist does not name those registers (the gate-level one, build/rtl/gate).  No MMIO. */
int mt_rtl_tap(const mt_rtl *r);
/* mt_rtl_tap for an access of `cycle` (>= now): a register write given in an earlier cycle and
 * not clocked yet (it may change TAP or start a session) is clocked first, with the idle cycles
 * up to `cycle`, as mt_unit_settle does for the C model.  Hardware compares the access with the
 * registers of its own cycle; a caller that picks which tap's access to give (the emulator's
 * hook: a core access and a DRAM transfer may share a cycle) must see the same. */
int mt_rtl_tap_at(mt_rtl *r, uint64_t cycle);

/* FIFO occupancy in bytes at the start of the current cycle (the fifo_level_o port; no MMIO). */
unsigned mt_rtl_fifo_level(mt_rtl *r);

/* Output bytes drained so far and not yet popped: copies up to cap, returns how many. */
size_t mt_rtl_pop(mt_rtl *r, uint8_t *buf, size_t cap);
size_t mt_rtl_pending(const mt_rtl *r);
/* Total output bytes since reset. */
uint64_t mt_rtl_bytes_out(const mt_rtl *r);

#ifdef __cplusplus
}
#endif

#endif
