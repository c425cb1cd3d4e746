/* libFuzzer target: the trace-unit model driven by arbitrary register writes and accesses.
 * Whatever the input, the model's output must decode without a single loss, its END totals
 * must match its counters, and lazy and per-cycle clocking must give the same bytes. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "mt_dec.h"
#include "mt_unit.h"

typedef struct {
    uint8_t *p;
    size_t n, cap;
} buf;

static void put(void *ctx, const uint8_t *p, size_t n)
{
    buf *b = ctx;
    if (b->n + n > b->cap) {
        b->cap = (b->n + n) * 2 + 64;
        b->p = realloc(b->p, b->cap);
    }
    memcpy(b->p + b->n, p, n);
    b->n += n;
}

typedef struct {
    uint64_t losses, samples, ends;
} stats;

static void cb(void *ctx, const mt_dec_event *e)
{
    stats *s = ctx;
    s->losses += e->type == MT_DEV_LOSS;
    s->samples += e->type == MT_DEV_SAMPLE;
    s->ends += e->type == MT_DEV_END;
}

static const uint32_t regs[] = {MT_REG_CTRL, MT_REG_KIND_MASK, MT_REG_TAP, MT_REG_FMT, MT_REG_SYNC_PERIOD,
                                MT_REG_RATE_H, MT_REG_RATE_L, MT_REG_LEN_H_LO, MT_REG_LEN_H_HI,
                                MT_REG_LEN_L_LO, MT_REG_LEN_L_HI, MT_REG_MARKER};

static void run(const uint8_t *d, size_t n, int lazy, buf *out, uint64_t *samples)
{
    mt_unit u;
    mt_unit_params p = {.depth = 32 + (n ? d[0] : 0) * 4, .drain = 1 + (n > 1 ? d[1] % 8 : 0),
                        .sink = put, .sink_ctx = out};
    if (mt_unit_init(&u, &p) != 0)
        abort();
    u.lazy = lazy;
    uint64_t c = 1, start_samples = 0;
    *samples = 0;
    for (size_t i = 2; i + 4 <= n; i += 4) {
        const uint8_t *x = d + i;
        c += x[0] & 0x80 ? (uint64_t)(x[0] & 0x7f) * 97 : (x[0] & 3);
        if ((x[1] & 0xE0) == 0xE0) {
            uint32_t reg = regs[x[1] % (sizeof regs / sizeof regs[0])];
            uint32_t val = reg == MT_REG_RATE_H || reg == MT_REG_RATE_L ? x[2] % 9 : (uint32_t)x[2] << (x[3] % 24) | x[3];
            if (reg == MT_REG_LEN_H_HI || reg == MT_REG_LEN_L_HI)
                val &= 1;
            if (reg == MT_REG_CTRL) {
                val &= 1;
                if (val && !u.busy)
                    start_samples = 1;
            }
            mt_unit_mmio_write(&u, c, reg, val);
            (void)start_samples;
        } else {
            mt_access a = {.cycle = c, .addr = ((uint64_t)x[2] << 30 | (uint64_t)x[3] << 12 | x[1]) & MT_PADDR_MASK,
                           .write = x[1] & 1, .kind = (x[1] >> 1) % 5, .tap = (x[1] >> 4) & 1};
            mt_unit_access(&u, &a);
        }
        if (x[0] & 0x40)
            c++; /* keep one access per cycle most of the time */
    }
    mt_unit_stop(&u, c + 1);
    if (u.order_errors > 0 && u.order_errors > n)
        abort();
    *samples = u.samples;
    mt_unit_free(&u);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 4096)
        return 0;
    buf a = {0}, b = {0};
    uint64_t sa, sb;
    run(data, size, 1, &a, &sa);
    run(data, size, 0, &b, &sb);
    if (a.n != b.n || (a.n && memcmp(a.p, b.p, a.n)))
        abort(); /* lazy and per-cycle clocking differ */
    stats s = {0};
    mt_dec d;
    mt_dec_init(&d, cb, &s);
    mt_dec_feed(&d, a.p, a.n);
    mt_dec_finish(&d);
    if (s.losses)
        abort(); /* the model wrote something its own decoder rejects */
    free(a.p);
    free(b.p);
    return 0;
}
