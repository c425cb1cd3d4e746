/* libFuzzer target: the gdbstub's protocol layer (emu/gdb/rsp.c framing, emu/gdb/session.c
 * command handlers) on arbitrary bytes from a hostile peer, over a fake two-thread target with
 * 64 KiB of memory.  It must never read or write out of bounds or abort, and everything it
 * sends must be well formed: acks, and `$data#cc` packets whose checksum is right. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "emu/gdb/session.h"

#define MEM_BASE 0x80000000u
#define MEM_SIZE 65536u
static uint8_t mem[MEM_SIZE];
static uint64_t regs[3][70];

static unsigned nthreads(void *ctx) { (void)ctx; return 2; }

static bool read_reg(void *ctx, unsigned t, unsigned r, uint64_t *v)
{
    (void)ctx;
    if (t < 1 || t > 2 || r >= 70)
        return false;
    *v = regs[t][r];
    return true;
}

static bool write_reg(void *ctx, unsigned t, unsigned r, uint64_t v)
{
    (void)ctx;
    if (t < 1 || t > 2 || r >= 70)
        return false;
    regs[t][r] = v;
    return true;
}

static size_t span(uint64_t addr, size_t len)
{
    if (addr < MEM_BASE || addr - MEM_BASE >= MEM_SIZE)
        return 0;
    uint64_t room = MEM_SIZE - (addr - MEM_BASE);
    return len < room ? len : (size_t)room;
}

static size_t read_mem(void *ctx, unsigned t, uint64_t addr, uint8_t *buf, size_t len, bool phys)
{
    (void)ctx, (void)t, (void)phys;
    size_t n = span(addr, len);
    memcpy(buf, mem + (addr - MEM_BASE) * (n != 0), n);
    return n;
}

static size_t write_mem(void *ctx, unsigned t, uint64_t addr, const uint8_t *buf, size_t len, bool phys)
{
    (void)ctx, (void)t, (void)phys;
    size_t n = span(addr, len);
    memcpy(mem + (addr - MEM_BASE) * (n != 0), buf, n);
    return n;
}

static const char xml[] = "<?xml version=\"1.0\"?><target><architecture>riscv:rv64</architecture></target>";
static const char *tdesc(void *ctx, size_t *len)
{
    (void)ctx;
    *len = sizeof xml - 1;
    return xml;
}

static int hexval(char c)
{
    return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/* acks and well-formed packets only.  Not instrumented: the harness's own loop over every byte
 * sent (a coverage callback per compare) guides nothing and was a sixth of the target's time. */
__attribute__((no_sanitize("coverage"))) static void check_output(const char *o, size_t n)
{
    size_t i = 0;
    while (i < n) {
        if (o[i] == '+' || o[i] == '-') {
            i++;
            continue;
        }
        if (o[i] != '$')
            abort();
        uint8_t sum = 0;
        size_t j = i + 1;
        while (j < n && o[j] != '#') {
            if (o[j] == '$')
                abort();
            sum = (uint8_t)(sum + (uint8_t)o[j++]);
        }
        if (j + 2 >= n) /* the '#' and two checksum digits are all there */
            abort();
        int hi = hexval(o[j + 1]), lo = hexval(o[j + 2]);
        if (hi < 0 || lo < 0 || (uint8_t)(hi << 4 | lo) != sum)
            abort();
        i = j + 3;
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static gdb_session s; /* large: not on the stack */
    gdb_target t = {.nthreads = nthreads, .read_reg = read_reg, .write_reg = write_reg, .read_mem = read_mem,
                    .write_mem = write_mem, .tdesc = tdesc, .ctx = NULL};
    gdb_session_init(&s, &t);
    size_t pos = 0;
    while (pos < size) {
        size_t used;
        gdb_action a = gdb_session_input(&s, data + pos, size - pos, &used);
        if (used == 0 || used > size - pos)
            abort();
        pos += used;
        size_t n;
        const char *o = gdb_session_output(&s, &n);
        if (n > GDB_OUT_MAX)
            abort();
        check_output(o, n);
        gdb_session_sent(&s);
        if (a == GDB_ACT_RESUME) { /* the target "runs" and stops: a watchpoint every other time */
            if (s.step_thread > 2)
                abort();
            gdb_session_stopped(&s, 1 + (pos & 1), 5, (pos & 2) ? GDB_WATCH_WRITE : 0, pos);
        } else if (a == GDB_ACT_DETACH || a == GDB_ACT_KILL) {
            gdb_session_init(&s, &t);
        }
        if (s.nbp > GDB_MAX_BREAKPOINTS || s.nwp > GDB_MAX_WATCHPOINTS)
            abort();
        o = gdb_session_output(&s, &n);
        check_output(o, n);
        gdb_session_sent(&s);
    }
    return 0;
}
