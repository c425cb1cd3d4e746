/* Shared helpers for the lib/ unit tests: a growable byte sink, a deterministic PRNG, access
 * stream generators, a decoder collector and a spec-level reference sampler that is written
 * from docs/trace-unit.md's *definition* of sampling (not from the model's code). */
#ifndef LIB_TESTUTIL_H
#define LIB_TESTUTIL_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "mt_dec.h"
#include "mt_event.h"
#include "mt_unit.h"

typedef struct {
    uint8_t *p;
    size_t n, cap;
} tu_buf;

static inline void tu_buf_put(void *ctx, const uint8_t *p, size_t n)
{
    tu_buf *b = ctx;
    if (b->n + n > b->cap) {
        b->cap = (b->n + n) * 2 + 64;
        b->p = realloc(b->p, b->cap);
    }
    memcpy(b->p + b->n, p, n);
    b->n += n;
}

static inline uint64_t tu_rand(uint64_t *s)
{
    uint64_t x = *s += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

enum { TU_SEQ, TU_RANDOM, TU_STRIDED, TU_MIXED, TU_IDLE_BURSTS, TU_DENSE, TU_NPATTERNS };

/* n accesses starting at cycle c0, non-decreasing cycles, at most one per cycle. */
static inline mt_access *tu_stream(int pattern, size_t n, uint64_t c0, uint64_t seed)
{
    mt_access *a = calloc(n ? n : 1, sizeof *a);
    uint64_t s = seed, c = c0, addr = 0x80000000ull + (seed & 0xfff) * 64;
    for (size_t i = 0; i < n; i++) {
        uint64_t r = tu_rand(&s);
        switch (pattern) {
        case TU_SEQ: addr += 8; c += 1 + (r & 3); break;
        case TU_RANDOM: addr = 0x80000000ull + ((r >> 8) & 0x7ffffff8ull); c += 1 + (r & 15); break;
        case TU_STRIDED: addr += 4096 + 64; c += 2; break;
        case TU_MIXED:
            addr = (r & 1) ? addr + 8 : 0x80000000ull + ((r >> 20) & 0x3ffff8ull);
            c += 1 + ((r >> 4) & 7);
            break;
        case TU_IDLE_BURSTS:
            addr += 16;
            c += ((r & 0xff) == 0) ? 5000 + ((r >> 8) & 0xffff) : 1;
            break;
        default: /* dense: an access every cycle, a few hot lines, high bits occasionally */
            addr = ((r & 3) == 0) ? ((r >> 8) & 0xffffffffffffffull) : 0x80001000ull + ((r >> 2) & 3) * 64;
            c += 1;
            break;
        }
        a[i].cycle = c;
        a[i].addr = addr & MT_PADDR_MASK;
        a[i].write = (r >> 40) & 1;
        a[i].size = 8;
        a[i].kind = (uint8_t)((r >> 41) % MT_KIND_COUNT);
        a[i].tap = (uint8_t)((r >> 45) & 1) & (pattern == TU_DENSE ? 0 : 1);
    }
    return a;
}

/* Decoded events */
typedef struct {
    mt_dec_event *ev;
    size_t n, cap;
    size_t samples, losses, ends;
} tu_events;

static inline void tu_collect(void *ctx, const mt_dec_event *e)
{
    tu_events *t = ctx;
    if (t->n == t->cap) {
        t->cap = t->cap * 2 + 64;
        t->ev = realloc(t->ev, t->cap * sizeof *t->ev);
    }
    t->ev[t->n++] = *e;
    if (e->type == MT_DEV_SAMPLE)
        t->samples++;
    if (e->type == MT_DEV_LOSS)
        t->losses++;
    if (e->type == MT_DEV_END)
        t->ends++;
}

static inline void tu_decode(const uint8_t *p, size_t n, tu_events *out)
{
    mt_dec d;
    mt_dec_init(&d, tu_collect, out);
    mt_dec_feed(&d, p, n);
    mt_dec_finish(&d);
}

/* Reference sampler: for one session enabled by a write at cycle `en` (first cycle en + 1)
 * and disabled by a write at cycle `dis`, the samples the definition asks for: for each
 * interval [sp, min(sp + r, section end)) the first passing access. */
typedef struct {
    uint64_t cycle, value;
    uint64_t at; /* the access's own cycle (the capture cycle) */
    uint8_t span, fmt;
} tu_ref;

static inline size_t tu_reference(const mt_unit_cfg *cfg, uint64_t en, uint64_t dis,
                                  const mt_access *a, size_t n, tu_ref *out)
{
    uint64_t len_h = cfg->len_h, len_l = cfg->len_l;
    if (!len_h && !len_l)
        len_h = (1ull << 40) - 1;
    unsigned span = len_h == 0;
    uint64_t start = en + 1, nout = 0, i = 0;
    while (start <= dis) {
        uint64_t len = span ? len_l : len_h, end = start + len;
        uint32_t r = span ? cfg->rate_l : cfg->rate_h;
        unsigned fmt = (cfg->fmt >> (span ? 4 : 0)) & 3;
        for (uint64_t sp = start; sp < end && sp <= dis; sp += r) {
            uint64_t iend = sp + r < end ? sp + r : end;
            if (iend > dis + 1)
                iend = dis + 1;
            while (i < n && a[i].cycle < sp)
                i++;
            for (size_t j = i; j < n && a[j].cycle < iend; j++) {
                if (((cfg->kind_mask >> a[j].kind) & 1) && a[j].tap == cfg->tap) {
                    out[nout].cycle = sp;
                    out[nout].at = a[j].cycle;
                    out[nout].value = mt_fmt_value(fmt, mt_fmt_addr_part(fmt, a[j].addr), a[j].write);
                    out[nout].span = (uint8_t)span;
                    out[nout].fmt = (uint8_t)fmt;
                    nout++;
                    break;
                }
            }
        }
        start = end;
        unsigned other = !span;
        if ((other ? len_l : len_h) != 0)
            span = other;
    }
    return nout;
}

/* xorshift64: the small PRNG of the reduce/spatial unit tests (their seeds pick their streams). */
static inline uint64_t tu_xorshift(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

/* The next page of a stream that repeats, alternates (settled alternations and their replays),
 * walks and jumps within a 64-page pool; *last and *prev are the stream's two latest pages. */
static inline uint64_t tu_next_page(uint64_t *s, uint64_t *last, uint64_t *prev, const uint64_t *pool)
{
    unsigned how = (unsigned)(tu_xorshift(s) % 100);
    uint64_t p;
    if (how < 20)
        p = *last;
    else if (how < 60)
        p = *prev;
    else if (how < 85)
        p = pool[tu_xorshift(s) % 64];
    else
        p = *last + (tu_xorshift(s) % 9) - 4;
    if (p != *last) {
        *prev = *last;
        *last = p;
    }
    return p;
}

#endif
