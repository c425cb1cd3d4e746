/* The records a reduce or a spatial filter hands its sink (mt_reduce_sink and mt_spatial_sink
 * have one shape: cycle, 4 KiB page, R/W, size mask), kept in a growing list: the tests that
 * compare a filter's output record by record with a plain definition of it.  After cmocka.h. */
#ifndef MASK_RECORDS_H
#define MASK_RECORDS_H

#include <stdint.h>
#include <stdlib.h>

typedef struct {
    uint64_t cycle, page;
    unsigned rw, mask;
} rec;

typedef struct {
    rec *r;
    size_t n, cap;
} recs;

static inline void recs_push(recs *v, rec x)
{
    if (v->n == v->cap) {
        v->cap = v->cap ? v->cap * 2 : 1024;
        v->r = realloc(v->r, v->cap * sizeof *v->r);
        assert_non_null(v->r);
    }
    v->r[v->n++] = x;
}

/* A filter's sink: ctx is the recs. */
static inline void recs_sink(void *ctx, uint64_t cycle, uint64_t page, unsigned rw, unsigned mask)
{
    recs_push(ctx, (rec){.cycle = cycle, .page = page, .rw = rw, .mask = mask});
}

#endif
