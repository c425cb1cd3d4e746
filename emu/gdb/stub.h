/* mtemu's gdbstub, QEMU-compatible: `-s` (= -gdb tcp::1234), `-gdb tcp:[HOST]:PORT`, `-S` (halt
 * at reset until gdb continues).  docs/emulator.md, "Debugging with gdb".
 *
 * Run control: with gdb attached and something to watch for (a breakpoint, a watchpoint, a step,
 * an interrupt request) every hart's instruction boundaries go through cpu_event (cpu->debug),
 * which calls the stub; it checks and, at a stop, serves gdb's packets right there until gdb
 * resumes.  Nothing is written into guest memory for a breakpoint, and a boundary that does
 * not stop changes nothing: a run under gdb executes, times and traces exactly as without.
 * Otherwise (nothing set, or no gdb) the harts run at full speed; the socket is polled for a
 * connection or Ctrl-C (0x03) at the machine's device polls (every BUS_POLL_CYCLES). */
#ifndef EMU_GDB_STUB_H
#define EMU_GDB_STUB_H

#include <stdbool.h>
#include <stddef.h>

struct mt_machine;

typedef struct {
    const char *dev; /* "tcp::PORT" / "tcp:HOST:PORT"; NULL: no stub */
    bool wait;       /* -S */
} gdb_options;

/* Takes -s, -S, -gdb DEV (also --gdb, --gdb=DEV) out of argv (up to "--").  -1 with err set on
 * a missing value. */
int gdb_options_extract(gdb_options *o, int *argc, char **argv, char *err, size_t errlen);
const char *gdb_options_help(void);

typedef struct gdb_stub gdb_stub;
/* Parses the device and opens the listening socket (port 0: any free port; the port is
 * printed on stderr either way).  NULL with err set (bad device, port in use). */
gdb_stub *gdb_stub_create(const gdb_options *o, char *err, size_t errlen);
/* Hooks the stub into the machine's harts and device polls (before machine_run). */
bool gdb_stub_attach(gdb_stub *g, struct mt_machine *m, char *err, size_t errlen);
/* The run ended with this exit code: gdb, if it waits, gets `W` and the connection closes. */
void gdb_stub_finish(gdb_stub *g, int code);
/* True when gdb's `k` ended the run. */
bool gdb_stub_killed(const gdb_stub *g);
void gdb_stub_destroy(gdb_stub *g);

#endif
