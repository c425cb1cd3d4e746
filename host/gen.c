#include "host/gen.h"

#include <string.h>

const char *gen_pattern_name(gen_pattern p)
{
    static const char *const names[GEN_COUNT] = {"seq", "random", "stride", "mixed"};
    return (unsigned)p < GEN_COUNT ? names[p] : "?";
}

int gen_parse_pattern(const char *s, gen_pattern *out)
{
    for (int p = 0; p < GEN_COUNT; p++)
        if (!strcmp(s, gen_pattern_name((gen_pattern)p))) {
            *out = (gen_pattern)p;
            return 0;
        }
    return -1;
}

void gen_defaults(gen_params *p)
{
    memset(p, 0, sizeof *p);
    p->pattern = GEN_MIXED;
    p->accesses = 1000000;
    p->base = 0x80000000u;
    p->size = UINT64_C(64) << 20;
    p->elem = 8;
    p->stride = 4096;
    p->ws = UINT64_C(4) << 20;
    p->drift = UINT64_C(256) << 10;
    p->phase = 100000;
    p->write_frac = 0.3;
    p->gap = 4;
    p->seed = 1;
    p->start_cycle = 1000;
}

int gen_check(const gen_params *p, const char **why)
{
    if (!p->elem || (p->elem & (p->elem - 1)) || p->elem > 64) { *why = "element size must be a power of two up to 64"; return -1; }
    if (p->size < p->elem || p->size % p->elem) { *why = "size must be a positive multiple of the element size"; return -1; }
    if (p->base + p->size > (UINT64_C(1) << 56) || p->base + p->size < p->base) { *why = "base + size beyond 56 bits"; return -1; }
    if (p->pattern == GEN_MIXED && (p->ws == 0 || p->ws > p->size || p->phase == 0)) { *why = "mixed needs 0 < ws <= size and phase > 0"; return -1; }
    if (p->pattern == GEN_STRIDE && p->stride == 0) { *why = "stride must be positive"; return -1; }
    if (p->gap == 0) { *why = "gap must be at least 1 cycle"; return -1; }
    if (!(p->write_frac >= 0 && p->write_frac <= 1)) { *why = "write fraction must be in [0, 1]"; return -1; }
    return 0;
}

void gen_init(gen_state *g, const gen_params *p)
{
    memset(g, 0, sizeof *g);
    g->p = *p;
    g->rng = p->seed * UINT64_C(0x9e3779b97f4a7c15) + 1;
    g->cycle = p->start_cycle;
}

static uint64_t rnd(gen_state *g)
{
    g->rng ^= g->rng >> 12;
    g->rng ^= g->rng << 25;
    g->rng ^= g->rng >> 27;
    return g->rng * UINT64_C(0x2545f4914f6cdd1d);
}

/* uniform double in [0, 1) */
static double unit(gen_state *g)
{
    return (double)(rnd(g) >> 11) * (1.0 / 9007199254740992.0);
}

int gen_next(gen_state *g, mt_access *a)
{
    const gen_params *p = &g->p;
    if (g->i >= p->accesses)
        return 0;
    uint64_t off;
    switch (p->pattern) {
    case GEN_SEQ: off = (g->i * p->elem) % p->size; break;
    case GEN_RANDOM: off = (rnd(g) % (p->size / p->elem)) * p->elem; break;
    case GEN_STRIDE: off = (g->i * p->stride) % p->size; break;
    default: {
        uint64_t window = ((g->i / p->phase) * p->drift) % (p->size - p->ws + 1);
        double u = unit(g);
        if (u < 0.6) {
            off = window + g->stream % p->ws;
            g->stream += 64;
        } else if (u < 0.9) {
            off = window + (rnd(g) % p->ws);
        } else {
            off = rnd(g) % p->size;
        }
        off -= off % p->elem;
        break;
    }
    }
    int write = unit(g) < p->write_frac;
    if (g->i) {
        g->cycle += 1 + (p->gap > 1 ? rnd(g) % (2 * p->gap - 1) : 0);
        if (p->idle_every && g->i % p->idle_every == 0)
            g->cycle += p->idle_cycles;
    }
    a->cycle = g->cycle;
    a->addr = p->base + off;
    a->write = (uint8_t)write;
    a->size = (uint8_t)p->elem;
    a->kind = write ? MT_KIND_STORE : MT_KIND_LOAD;
    a->tap = MT_TAP_CORE;
    g->i++;
    return 1;
}
