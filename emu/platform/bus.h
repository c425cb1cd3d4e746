/* The physical bus: RAM, the boot ROM and memory-mapped devices.
 *
 * Device interface: a device is a (base, size) window with read/write callbacks taking the
 * offset into the window and an access size of 1, 2, 4 or 8 bytes.  A callback returns false
 * for an access it does not support (the CPU raises an access fault).  Interrupt lines go to the
 * PLIC (plic_set_irq) or straight to the hart (cpu_set_irq_line).  A device that needs to act
 * with time gets `poll` calls at deterministic cycles (every BUS_POLL_CYCLES). */
#ifndef EMU_BUS_H
#define EMU_BUS_H

#include <stdbool.h>
#include <stdint.h>

#include "emu/platform/ram.h"

typedef struct {
    const char *name;
    uint64_t base, size;
    void *ctx;
    bool (*read)(void *ctx, uint64_t off, unsigned size, uint64_t *val);
    bool (*write)(void *ctx, uint64_t off, unsigned size, uint64_t val);
    void (*poll)(void *ctx); /* optional */
} mt_device;

#define BUS_MAX_DEVICES 16
#define BUS_POLL_CYCLES (UINT64_C(1) << 20)
#define ROM_BASE UINT64_C(0x1000)
#define ROM_SIZE UINT64_C(0xf000)

typedef struct mt_bus {
    mt_ram *ram;
    uint8_t rom[ROM_SIZE];
    mt_device dev[BUS_MAX_DEVICES];
    int ndev;
    /* A watched RAM page (HTIF's tohost): stores to it never hit a TLB and, once done, call
     * watch(ctx, pa, size).  watch_page = UINT64_MAX: none. */
    uint64_t watch_page;
    void (*watch)(void *ctx, uint64_t pa, unsigned size);
    void *watch_ctx;
} mt_bus;

void bus_init(mt_bus *bus, mt_ram *ram);
/* Adds a device; false when the table is full or the window overlaps another. */
bool bus_add_device(mt_bus *bus, const mt_device *dev);
/* Host pointer to the page holding pa (RAM or ROM) for reading, NULL when neither. */
uint8_t *bus_page_for_read(mt_bus *bus, uint64_t pa);
/* The same for writing (RAM only: the ROM is read-only). */
uint8_t *bus_page_for_write(mt_bus *bus, uint64_t pa);
/* True when the page holding pa is plain memory (RAM or ROM), i.e. cacheable in a TLB. */
bool bus_is_memory(const mt_bus *bus, uint64_t pa);
/* An access that is not in RAM/ROM: a device (false: no device or refused). */
bool bus_mmio_read(mt_bus *bus, uint64_t pa, unsigned size, uint64_t *val);
bool bus_mmio_write(mt_bus *bus, uint64_t pa, unsigned size, uint64_t val);
void bus_poll(mt_bus *bus);

#endif
