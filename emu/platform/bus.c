/* Physical bus dispatch.  Only slow paths come here: the CPU's TLBs hold host pointers. */
#include "emu/platform/bus.h"

#include <string.h>

void bus_init(mt_bus *bus, mt_ram *ram)
{
    memset(bus, 0, sizeof *bus);
    bus->ram = ram;
    bus->watch_page = UINT64_MAX;
}

bool bus_add_device(mt_bus *bus, const mt_device *dev)
{
    if (bus->ndev >= BUS_MAX_DEVICES)
        return false;
    for (int i = 0; i < bus->ndev; i++) {
        const mt_device *o = &bus->dev[i];
        if (dev->base < o->base + o->size && o->base < dev->base + dev->size)
            return false;
    }
    bus->dev[bus->ndev++] = *dev;
    return true;
}

static bool in_rom(uint64_t pa) { return pa >= ROM_BASE && pa - ROM_BASE < ROM_SIZE; }

uint8_t *bus_page_for_read(mt_bus *bus, uint64_t pa)
{
    if (in_rom(pa))
        return bus->rom + ((pa - ROM_BASE) & ~UINT64_C(0xfff));
    return ram_page_for_read(bus->ram, pa);
}

uint8_t *bus_page_for_write(mt_bus *bus, uint64_t pa) { return ram_page_for_write(bus->ram, pa); }

bool bus_is_memory(const mt_bus *bus, uint64_t pa) { return in_rom(pa) || ram_contains(bus->ram, pa, 1); }

static mt_device *find_device(mt_bus *bus, uint64_t pa, unsigned size)
{
    for (int i = 0; i < bus->ndev; i++) {
        mt_device *d = &bus->dev[i];
        if (pa >= d->base && pa - d->base < d->size && size <= d->size - (pa - d->base))
            return d;
    }
    return NULL;
}

bool bus_mmio_read(mt_bus *bus, uint64_t pa, unsigned size, uint64_t *val)
{
    mt_device *d = find_device(bus, pa, size);
    *val = 0;
    return d && d->read && d->read(d->ctx, pa - d->base, size, val);
}

bool bus_mmio_write(mt_bus *bus, uint64_t pa, unsigned size, uint64_t val)
{
    mt_device *d = find_device(bus, pa, size);
    return d && d->write && d->write(d->ctx, pa - d->base, size, val);
}

void bus_poll(mt_bus *bus)
{
    for (int i = 0; i < bus->ndev; i++)
        if (bus->dev[i].poll)
            bus->dev[i].poll(bus->dev[i].ctx);
}
