/* The trace unit's output FIFO: a byte ring of fixed depth with a write port of up to
 * MT_MAX_PACKET bytes (one packet) and a read port that hands drained bytes to a sink. */
#ifndef MT_FIFO_H
#define MT_FIFO_H

#include <stddef.h>
#include <stdint.h>

typedef void (*mt_sink_fn)(void *ctx, const uint8_t *p, size_t n);

typedef struct {
    uint8_t *buf;
    uint32_t depth, head, occ;
} mt_fifo;

int mt_fifo_init(mt_fifo *f, uint32_t depth); /* 0 ok, -1 no memory */
void mt_fifo_free(mt_fifo *f);
/* Caller guarantees n <= depth - occ. */
void mt_fifo_push(mt_fifo *f, const uint8_t *p, uint32_t n);
/* Removes min(n, occ) bytes from the head and gives them to sink (if not NULL). */
uint32_t mt_fifo_pop(mt_fifo *f, uint64_t n, mt_sink_fn sink, void *ctx);

#endif
