/* The gdb target that mtemu's harts are: registers in the numbering of the target description
 * (x0-x31 0-31, pc 32, f0-f31 33-64, CSR n at 65 + n, the virtual `priv` at 4161, as gdb's
 * RISC-V port and QEMU number them), memory through a hart's current translation or physical,
 * and the data access an instruction is about to make (for watchpoints).
 *
 * The debugger's accesses have no side effect the guest or a trace could see: page walks read
 * the tables without setting A/D bits or going through the access hook, RAM is read and written
 * with the emulator's own unobserved accessors (a write drops the decoded instructions there),
 * and device registers are not accessed at all (a read of MMIO fails: reading a UART register
 * would consume its input). */
#ifndef EMU_GDB_HART_H
#define EMU_GDB_HART_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "emu/gdb/session.h"

struct mt_cpu;
struct mt_bus;

#define GDB_REG_PC 32
#define GDB_REG_F0 33
#define GDB_REG_CSR0 65
#define GDB_REG_PRIV 4161

typedef struct {
    struct mt_cpu **harts;
    unsigned nharts;
    struct mt_bus *bus;
    char *xml; /* the target description, built once */
    size_t xml_len;
} gdb_harts;

/* Builds the target description (the CSRs the hart answers csr_read for) and fills *t with
 * the operations.  false on allocation failure. */
bool gdb_harts_init(gdb_harts *h, struct mt_cpu **harts, unsigned n, struct mt_bus *bus, gdb_target *t);
void gdb_harts_free(gdb_harts *h);

/* Virtual -> physical as hart c sees data now (its privilege, satp, or with V=1 vsatp then
 * hgatp), without side effects; false when the address does not translate. */
bool gdb_translate(struct mt_cpu *c, uint64_t va, uint64_t *pa);

/* The data access of the instruction `insn` (raw bits, 16 or 32) with the hart's registers:
 * true with its address, size and direction(s) for a load, store, AMO, LR/SC (F/D included). */
bool gdb_insn_access(const struct mt_cpu *c, uint32_t insn, uint64_t *addr, unsigned *size, bool *reads,
                     bool *writes);

#endif
