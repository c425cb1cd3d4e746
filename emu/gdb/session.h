/* One gdb connection's protocol state and command handlers, over an abstract target (the harts
 * of mtemu in hart.c; a fake one in the fuzz target and the unit tests).  Bytes in
 * (gdb_session_input), bytes out (gdb_session_output), no socket: the run control that owns
 * the socket (stub.c) acts on the returned gdb_action.
 *
 * Threads are numbered 1..N (thread t is hart t-1).  All-stop only: a resume resumes every hart
 * (vCont's per-thread actions pick which thread steps; the others always run, which keeps the
 * guest's interleaving the same as without gdb). */
#ifndef EMU_GDB_SESSION_H
#define EMU_GDB_SESSION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "emu/gdb/rsp.h"

typedef struct {
    unsigned (*nthreads)(void *ctx);
    /* One register (the numbering of the target description); false: no such register. */
    bool (*read_reg)(void *ctx, unsigned thread, unsigned regno, uint64_t *val);
    bool (*write_reg)(void *ctx, unsigned thread, unsigned regno, uint64_t val);
    /* Memory as thread sees it (virtual, through its current translation) or physical; returns
     * how many bytes from the start could be read / written. */
    size_t (*read_mem)(void *ctx, unsigned thread, uint64_t addr, uint8_t *buf, size_t len, bool phys);
    size_t (*write_mem)(void *ctx, unsigned thread, uint64_t addr, const uint8_t *buf, size_t len, bool phys);
    /* The target description XML (target.xml) */
    const char *(*tdesc)(void *ctx, size_t *len);
    void *ctx;
} gdb_target;

/* Registers of the `g` packet: 0..GDB_G_REGS-1 (x0..x31, pc), 8 bytes each, little-endian. */
#define GDB_G_REGS 33

typedef enum {
    GDB_ACT_NONE,   /* keep reading packets */
    GDB_ACT_RESUME, /* run: step_thread (1..N) steps one instruction, 0 = none (continue) */
    GDB_ACT_DETACH, /* drop every breakpoint and watchpoint, let the guest run, close */
    GDB_ACT_KILL,   /* end mtemu */
} gdb_action;

enum { GDB_WATCH_WRITE = 2, GDB_WATCH_READ = 3, GDB_WATCH_ACCESS = 4 }; /* the Z types */
#define GDB_MAX_BREAKPOINTS 64
#define GDB_MAX_WATCHPOINTS 16

typedef struct {
    uint64_t addr, len;
    int type; /* GDB_WATCH_* */
} gdb_watchpoint;

#define GDB_OUT_MAX (2 * RSP_PACKET_MAX + 64)

typedef struct {
    gdb_target t;
    rsp_parser parser;
    bool no_ack;
    bool phys_mode;  /* maintenance packet Qqemu.PhyMemMode:1 */
    bool running;    /* a resume was given: the next stop is reported with a stop reply */
    unsigned g_thread, c_thread; /* Hg / Hc (1..N; 0: the thread last stopped) */
    unsigned stop_thread;
    char last_stop[96]; /* the last stop reply (for `?`) */
    unsigned step_thread; /* of the last GDB_ACT_RESUME */
    bool interrupt;  /* 0x03 seen (while stopped it is ignored; the stub checks it while running) */
    uint64_t bp[GDB_MAX_BREAKPOINTS];
    unsigned nbp;
    gdb_watchpoint wp[GDB_MAX_WATCHPOINTS];
    unsigned nwp;
    char reply_buf[RSP_PACKET_MAX + 1]; /* the reply being built */
    char out[GDB_OUT_MAX];
    size_t out_len;
    char last_reply[GDB_OUT_MAX]; /* resent on a NAK */
    size_t last_reply_len;
} gdb_session;

void gdb_session_init(gdb_session *s, const gdb_target *t);
/* Takes up to n bytes; stops after the packet that returns an action other than NONE (the
 * rest stays with the caller: *used says how many were taken). */
gdb_action gdb_session_input(gdb_session *s, const uint8_t *in, size_t n, size_t *used);
/* The bytes to send; the caller sends them and calls gdb_session_sent. */
static inline const char *gdb_session_output(const gdb_session *s, size_t *len)
{
    *len = s->out_len;
    return s->out;
}
static inline void gdb_session_sent(gdb_session *s) { s->out_len = 0; }

/* The target stopped: thread (1..N), a signal (5 SIGTRAP, 2 SIGINT), and for a watchpoint its
 * Z type and the address.  Sends the stop reply when gdb is waiting for one (running). */
void gdb_session_stopped(gdb_session *s, unsigned thread, int sig, int watch_type, uint64_t watch_addr);
/* The guest ended with this exit code: `W` when gdb waits for a stop. */
void gdb_session_exited(gdb_session *s, int code);

/* For the run control: is there a breakpoint at pc; the watchpoint an access hits (or NULL). */
bool gdb_session_breakpoint_at(const gdb_session *s, uint64_t pc);
const gdb_watchpoint *gdb_session_watch_hit(const gdb_session *s, uint64_t addr, unsigned len, bool write);

#endif
