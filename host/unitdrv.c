#include "host/unitdrv.h"

#include <string.h>

#include "mt_regs.h"

static unsigned lib_fmt(ht_format f)
{
    switch (f) {
    case HT_FMT_48: return MT_FMT_48;
    case HT_FMT_32: return MT_FMT_32;
    case HT_FMT_LINE: return MT_FMT_LINE;
    default: return MT_FMT_FULL;
    }
}

static void sink(void *ctx, const uint8_t *p, size_t n)
{
    unit_driver *d = ctx;
    if (d->out) {
        if (fwrite(p, 1, n, d->out) != n)
            d->write_error = 1;
    } else {
        d->sink(d->sink_ctx, p, n);
    }
    d->bytes += n;
}

void unit_driver_cfg(const sampler_config *c, mt_unit_cfg *out)
{
    memset(out, 0, sizeof *out);
    out->kind_mask = MT_RESET_KIND_MASK;
    out->tap = MT_RESET_TAP;
    out->fmt = lib_fmt(c->fmt_h) << MT_FMT_H_SHIFT | lib_fmt(c->fmt_l) << MT_FMT_L_SHIFT;
    out->sync_period = MT_RESET_SYNC_PERIOD;
    out->rate_h = (uint32_t)c->r_h;
    out->rate_l = (uint32_t)c->r_l;
    out->len_h = c->len_h;
    out->len_l = c->len_l;
}

int unit_driver_start(unit_driver *d, const sampler_config *c, FILE *out, mt_sink_fn snk,
                      void *sink_ctx)
{
    memset(d, 0, sizeof *d);
    d->out = out;
    d->sink = snk;
    d->sink_ctx = sink_ctx;
    mt_unit_params p = {.depth = MT_UNIT_DEFAULT_DEPTH, .drain = MT_UNIT_DEFAULT_DRAIN,
                        .sink = sink, .sink_ctx = d};
    if (c->start < 2 || mt_unit_init(&d->u, &p) != 0)
        return -1;
    uint64_t t = c->start - 2;
    mt_unit_mmio_write(&d->u, t, MT_REG_FMT,
                       lib_fmt(c->fmt_h) << MT_FMT_H_SHIFT | lib_fmt(c->fmt_l) << MT_FMT_L_SHIFT);
    mt_unit_mmio_write(&d->u, t, MT_REG_RATE_H, (uint32_t)c->r_h);
    mt_unit_mmio_write(&d->u, t, MT_REG_RATE_L, (uint32_t)c->r_l);
    mt_unit_mmio_write(&d->u, t, MT_REG_LEN_H_LO, (uint32_t)c->len_h);
    mt_unit_mmio_write(&d->u, t, MT_REG_LEN_H_HI, (uint32_t)(c->len_h >> 32) & 0xff);
    mt_unit_mmio_write(&d->u, t, MT_REG_LEN_L_LO, (uint32_t)c->len_l);
    mt_unit_mmio_write(&d->u, t, MT_REG_LEN_L_HI, (uint32_t)(c->len_l >> 32) & 0xff);
    /* enabled at the end of start - 1: the session (and the first burst) starts at `start` */
    mt_unit_mmio_write(&d->u, c->start - 1, MT_REG_CTRL, MT_CTRL_ENABLE);
    return 0;
}

void unit_driver_access(unit_driver *d, const mt_access *a)
{
    if (a->cycle >= mt_unit_next_due(&d->u))
        mt_unit_access(&d->u, a);
}

int unit_driver_stop(unit_driver *d, uint64_t cycle)
{
    mt_unit_stop(&d->u, cycle);
    mt_unit_free(&d->u);
    return d->write_error ? -1 : 0;
}

uint32_t unit_driver_dropped(unit_driver *d)
{
    return d->u.dropped;
}
