/* Several harts on one machine (-smp N): a deterministic round-robin scheduler.
 *
 * Harts 0..N-1 take turns in a fixed order; each turn runs one hart for at most SMP_QUANTUM
 * instructions, or until it executes WFI (with a masked interrupt pending WFI is a no-op and the
 * hart resumes after it at its next turn; with nothing pending it sleeps and is skipped).  There is one clock, mtime: a turn
 * starts the hart's clock where the previous turn left it, so mtime never goes backwards from one
 * hart to the next (Linux's clocksource needs that) and emulated time advances by the cycles of
 * whichever hart runs, as on a single core sharing its time.  When every hart waits in WFI, time
 * skips to the first armed timer (or the next console poll).  A hart's LR reservation does not
 * survive a turn of the others; AMOs are atomic because one instruction runs at a time.  Remote
 * fences need nothing here: OpenSBI sends IPIs and each hart fences itself (cpu->smp).
 * Same inputs, same interleaving: the schedule depends only on instruction counts. */
#ifndef EMU_SMP_H
#define EMU_SMP_H

#include <stdint.h>

struct mt_machine;

/* Instructions per turn.  It bounds how far any hart runs ahead while another waits for its turn
 * (real harts advance together): firmware is written for that.  Debian's OpenSBI 1.1 publishes an
 * HSM start (state START_PENDING) 6 instructions before it stores the start address, and the
 * started hart, spinning on that state, needs about 5,200 instructions to read the address; with
 * 10,000-instruction turns hart 0 was once descheduled in between and hart 3 of an 8-hart Linux
 * boot jumped to a stale address (docs/boot.md, bug 8).  1,000 keeps a 5x margin at no cost
 * (shorter turns also cut spin-waiting: 4-hart boot 76 M -> 68 M instructions);
 * tests/e2e/smp_skew.S checks the bound. */
#define SMP_QUANTUM 1000

typedef enum {
    SMP_STOPPED,   /* a device (finisher, HTIF) ended the run */
    SMP_LIMIT,     /* --max-insns: the total over all harts was reached */
    SMP_STUCK,     /* every hart waits for an interrupt that nothing can raise */
} mt_smp_end;

mt_smp_end smp_run(struct mt_machine *m);
/* Instructions retired by all harts. */
uint64_t smp_total_instret(const struct mt_machine *m);

#endif
