/* Byte ring: see mt_fifo.h. */
#include "mt_fifo.h"

#include <stdlib.h>

int mt_fifo_init(mt_fifo *f, uint32_t depth)
{
    f->buf = malloc(depth);
    f->depth = depth;
    f->head = f->occ = 0;
    return f->buf ? 0 : -1;
}

void mt_fifo_free(mt_fifo *f)
{
    free(f->buf);
    f->buf = NULL;
}

void mt_fifo_push(mt_fifo *f, const uint8_t *p, uint32_t n)
{
    uint32_t tail = f->head + f->occ;
    if (tail >= f->depth)
        tail -= f->depth;
    /* packets are a few bytes: a plain loop beats memcpy's call and dispatch */
    uint32_t first = f->depth - tail; /* room before the wrap */
    if (first > n)
        first = n;
    uint8_t *d = f->buf + tail;
    for (uint32_t i = 0; i < first; i++)
        d[i] = p[i];
    for (uint32_t i = first; i < n; i++)
        f->buf[i - first] = p[i];
    f->occ += n;
}

uint32_t mt_fifo_pop(mt_fifo *f, uint64_t n, mt_sink_fn sink, void *ctx)
{
    uint32_t take = n < f->occ ? (uint32_t)n : f->occ;
    uint32_t first = f->depth - f->head;
    if (first > take)
        first = take;
    if (sink && first)
        sink(ctx, f->buf + f->head, first);
    if (sink && take > first)
        sink(ctx, f->buf, take - first);
    f->head += take;
    if (f->head >= f->depth)
        f->head -= f->depth;
    f->occ -= take;
    return take;
}
