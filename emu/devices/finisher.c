#include "emu/devices/finisher.h"

static bool fin_read(void *ctx, uint64_t off, unsigned size, uint64_t *val)
{
    (void)ctx;
    (void)off;
    (void)size;
    *val = 0;
    return true;
}

static bool fin_write(void *ctx, uint64_t off, unsigned size, uint64_t val)
{
    mt_finisher *f = ctx;
    if (off != 0 || size < 2)
        return true; /* ignored; 16-bit writes count (OpenSBI uses writew), as in QEMU */
    uint32_t v = (uint32_t)val;
    switch (v & 0xffff) {
    case 0x5555: f->exit_code = 0; break;
    case 0x3333: f->exit_code = (int)(v >> 16); break;
    case 0x7777: f->exit_code = 0; f->reset_requested = true; break;
    default: return true;
    }
    f->finished = true;
    cpu_request_stop(f->cpu);
    return true;
}

mt_device finisher_device(mt_finisher *f, mt_cpu *cpu)
{
    f->cpu = cpu;
    f->finished = f->reset_requested = false;
    f->exit_code = 0;
    return (mt_device){.name = "test-finisher", .base = FINISHER_BASE, .size = FINISHER_SIZE, .ctx = f,
                       .read = fin_read, .write = fin_write};
}
