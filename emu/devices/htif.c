#include "emu/devices/htif.h"

#include <string.h>

#define SYS_write 64
#define SYS_exit 93
#define ENOSYS_RET ((uint64_t)-38)

static void reply(mt_htif *h, uint64_t value)
{
    uint64_t zero = 0;
    if (h->fromhost)
        ram_host_write(h->ram, h->fromhost, &value, 8);
    ram_host_write(h->ram, h->tohost, &zero, 8);
}

static void finish(mt_htif *h, int code)
{
    h->finished = true;
    h->exit_code = code;
    cpu_request_stop(h->cpu);
}

static void syscall(mt_htif *h, uint64_t magic)
{
    uint64_t args[8];
    if (!ram_host_read(h->ram, magic, args, sizeof args)) {
        fprintf(stderr, "mtemu: HTIF system call block at 0x%llx is outside RAM\n", (unsigned long long)magic);
        finish(h, 1);
        return;
    }
    uint64_t ret = ENOSYS_RET;
    if (args[0] == SYS_write && (args[1] == 1 || args[1] == 2)) {
        uint8_t buf[4096];
        uint64_t addr = args[2], left = args[3];
        ret = 0;
        while (left) {
            uint64_t n = left < sizeof buf ? left : sizeof buf;
            if (!ram_host_read(h->ram, addr, buf, n)) {
                ret = (uint64_t)-14; /* -EFAULT */
                break;
            }
            fwrite(buf, 1, n, h->out);
            addr += n;
            left -= n;
            ret += n;
        }
        fflush(h->out);
    } else if (args[0] == SYS_exit) {
        finish(h, (int)args[1]);
        return;
    }
    ram_host_write(h->ram, magic, &ret, 8);
    reply(h, 1);
}

static void htif_store(void *ctx, uint64_t pa, unsigned size)
{
    mt_htif *h = ctx;
    if (pa + size <= h->tohost || pa >= h->tohost + 8)
        return;
    uint64_t v;
    ram_host_read(h->ram, h->tohost, &v, 8);
    if (v == 0)
        return;
    unsigned dev = (unsigned)(v >> 56), cmd = (unsigned)(v >> 48) & 0xff;
    uint64_t payload = v & ((UINT64_C(1) << 48) - 1);
    if (dev == 0 && cmd == 0) {
        if (payload & 1)
            finish(h, (int)(payload >> 1));
        else
            syscall(h, payload);
    } else if (dev == 1 && cmd == 1) {
        fputc((int)(payload & 0xff), h->out);
        if ((payload & 0xff) == '\n')
            fflush(h->out);
        reply(h, (UINT64_C(1) << 56) | (UINT64_C(1) << 48));
    } else {
        uint64_t zero = 0; /* unknown device or console read: acknowledged, no answer */
        ram_host_write(h->ram, h->tohost, &zero, 8);
    }
}

bool htif_attach(mt_htif *h, mt_bus *bus, mt_cpu *cpu, FILE *out, uint64_t tohost, uint64_t fromhost)
{
    memset(h, 0, sizeof *h);
    if (!ram_contains(bus->ram, tohost, 8) || (fromhost && !ram_contains(bus->ram, fromhost, 8)))
        return false;
    h->cpu = cpu;
    h->ram = bus->ram;
    h->out = out;
    h->tohost = tohost;
    h->fromhost = fromhost;
    bus->watch_page = tohost & ~UINT64_C(0xfff);
    bus->watch = htif_store;
    bus->watch_ctx = h;
    return true;
}
