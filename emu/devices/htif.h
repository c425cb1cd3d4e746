/* HTIF, as Spike's front end serves bare-metal test programs: the program's `tohost` and
 * `fromhost` symbols are 64-bit words in RAM.  A store to tohost is served at once:
 *   device 0, command 0: payload odd   -> exit with code payload >> 1 (1 = pass = exit 0)
 *                        payload even  -> a system call: payload is the physical address of
 *                                         uint64 [num, a0, a1, a2, ...]; write (64) to fd 1/2 and
 *                                         exit (93) are served, others return -ENOSYS; the result
 *                                         goes to word 0 and fromhost = 1
 *   device 1, command 1: console output of the low byte; fromhost = (1 << 56) | (1 << 48)
 * and tohost is cleared. */
#ifndef EMU_HTIF_H
#define EMU_HTIF_H

#include <stdio.h>

#include "emu/platform/bus.h"
#include "emu/cpu/cpu.h"

typedef struct {
    mt_cpu *cpu;
    mt_ram *ram;
    FILE *out;
    uint64_t tohost, fromhost; /* physical addresses; fromhost 0 = absent */
    bool finished;
    int exit_code;
} mt_htif;

/* Starts watching tohost (an address in RAM).  false: tohost is not a RAM address. */
bool htif_attach(mt_htif *h, mt_bus *bus, mt_cpu *cpu, FILE *out, uint64_t tohost, uint64_t fromhost);

#endif
