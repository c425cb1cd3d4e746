/* Lockstep co-simulation of the trace unit: the C reference model (lib/mt_unit.h) and the
 * Verilated RTL (mt_rtl.h) get the same accesses and register operations, and their output
 * bytes, FIFO levels and register reads are compared as time advances.  The first difference
 * stops the comparison (every later call returns -1) and writes a report: the cycle, the packets
 * around the first differing byte on both sides, and the last inputs.
 *
 * This is what `mtemu --trace-unit=both` needs: call it where the model alone would be called.
 * The model's bytes go on to the caller's sink, so the trace file is the model's stream (which
 * equals the RTL's as long as no divergence was reported).  The RTL is clocked every cycle:
 * its cost is per emulated cycle (a few million per second), unlike the lazy model.
 *
 * Link: $(RTL_A) $(MT_A) $(RTL_LIBS). */
#ifndef MT_LOCKSTEP_H
#define MT_LOCKSTEP_H

#include <stdint.h>
#include <stdio.h>

#include "mt_unit.h"
#include "rtl_model/sim/mt_rtl.h"

typedef struct mt_lockstep mt_lockstep;

/* params: as for mt_unit_init (depth, drain, the sink for the model's bytes); NULL = defaults.
 * report: where a divergence is described (NULL = stderr).  NULL on bad parameters / no memory. */
mt_lockstep *mt_lockstep_create(const mt_unit_params *params, FILE *report);
void mt_lockstep_destroy(mt_lockstep *l);
/* The RTL side writes its waveform to fst_path (cycles [from, to)), from a fresh RTL: only before
 * the first input. 0, or -1 when the RTL library has no FST support or cannot be made again. */
int mt_lockstep_waves(mt_lockstep *l, const char *fst_path, uint64_t from, uint64_t to);

/* The same calls as mt_unit_*, fed to both sides.  Return 0 while the two agree, -1 from the
 * first divergence on (or when the RTL refuses an input the model takes: two register
 * operations in one cycle, which its single MMIO port cannot carry). */
int mt_lockstep_access(mt_lockstep *l, const mt_access *a);
int mt_lockstep_mmio_write(mt_lockstep *l, uint64_t cycle, uint32_t off, uint32_t val);
/* Returns the model's value; *ok (if not NULL) is 0 when the RTL read differently. */
uint32_t mt_lockstep_mmio_read(mt_lockstep *l, uint64_t cycle, uint32_t off, int *ok);
/* Both complete every cycle before `cycle`, and the outputs, FIFO levels and taps (below) are
 * compared. */
int mt_lockstep_advance(mt_lockstep *l, uint64_t cycle);
/* The tap an access of `cycle` is compared with (mt_unit_settle, then mt_unit_tap, of the model):
 * while a register write from an earlier cycle is pending both sides complete the cycles before
 * `cycle` first.  Whenever both stand at the start of the same cycle the RTL's tap (mt_rtl_tap)
 * is compared with the model's, a difference reported as a divergence; *ok (if not NULL) is 0
 * from the first divergence on. */
unsigned mt_lockstep_tap_at(mt_lockstep *l, uint64_t cycle, int *ok);
/* Disable at `cycle` and run both until the END is out and the FIFOs are empty; *idle (if not
 * NULL) gets the first idle cycle. */
int mt_lockstep_stop(mt_lockstep *l, uint64_t cycle, uint64_t *idle);

/* 1 once a divergence was found. */
int mt_lockstep_diverged(const mt_lockstep *l);
/* Bytes compared so far (equal on both sides). */
uint64_t mt_lockstep_bytes(const mt_lockstep *l);
/* The two sides, for next-due checks and statistics (and for tests that need to disturb one). */
mt_unit *mt_lockstep_model(mt_lockstep *l);
mt_rtl *mt_lockstep_rtl(mt_lockstep *l);

#endif
