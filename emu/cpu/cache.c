#include "emu/cpu/cache.h"

#include <stdlib.h>
#include <string.h>

static bool level_init(mt_cache_level *l, unsigned bytes, unsigned ways)
{
    memset(l, 0, sizeof *l);
    l->ways = ways;
    l->sets = bytes / CACHE_LINE / ways;
    size_t n = (size_t)l->sets * ways;
    l->tag = calloc(n, sizeof *l->tag);
    l->stamp = calloc(n, sizeof *l->stamp);
    l->dirty = calloc(n, 1);
    l->last_line = UINT64_MAX; /* no line yet (line addresses are multiples of 64) */
    return l->tag && l->stamp && l->dirty;
}

static void level_free(mt_cache_level *l)
{
    free(l->tag);
    free(l->stamp);
    free(l->dirty);
}

bool cache_init(mt_cache_model *m)
{
    memset(m, 0, sizeof *m);
    bool ok = level_init(&m->l1i, 32 << 10, 4) & level_init(&m->l1d, 32 << 10, 8) & level_init(&m->l2, 1 << 20, 16);
    if (!ok)
        cache_free(m);
    return ok;
}

void cache_free(mt_cache_model *m)
{
    level_free(&m->l1i);
    level_free(&m->l1d);
    level_free(&m->l2);
}

/* Looks the line up; on a miss picks the LRU way and reports the victim (its line address and
 * dirtiness) before replacing it.  Returns true on a hit; *slot is the line's slot either way. */
static bool lookup(mt_cache_model *m, mt_cache_level *l, uint64_t line, size_t *slot, uint64_t *victim, bool *victim_dirty)
{
    unsigned set = (unsigned)((line / CACHE_LINE) % l->sets);
    size_t base = (size_t)set * l->ways, lru = base;
    uint64_t key = line | 1;
    for (unsigned w = 0; w < l->ways; w++) {
        if (l->tag[base + w] == key) {
            l->stamp[base + w] = ++m->clock;
            l->hits++;
            *slot = base + w;
            return true;
        }
        if (l->stamp[base + w] < l->stamp[lru])
            lru = base + w;
    }
    l->misses++;
    *victim = l->tag[lru] & 1 ? l->tag[lru] & ~UINT64_C(1) : UINT64_MAX;
    *victim_dirty = l->dirty[lru] != 0 && *victim != UINT64_MAX;
    l->tag[lru] = key;
    l->dirty[lru] = 0;
    l->stamp[lru] = ++m->clock;
    *slot = lru;
    return false;
}

/* A line written back from L1 into L2 (write-allocate there too). */
static void l2_write_back(mt_cache_model *m, uint64_t line, cache_dram_fn dram, void *ctx)
{
    size_t slot;
    uint64_t victim;
    bool vdirty;
    if (!lookup(m, &m->l2, line, &slot, &victim, &vdirty) && vdirty) {
        m->l2.writebacks++;
        dram(ctx, victim, true);
    }
    m->l2.dirty[slot] = 1;
}

unsigned cache_access(mt_cache_model *m, uint64_t pa, bool write, bool fetch, cache_dram_fn dram, void *ctx)
{
    if (cache_hit_again(m, pa, write, fetch))
        return 0;
    uint64_t line = pa & ~(uint64_t)(CACHE_LINE - 1), victim;
    mt_cache_level *l1 = fetch ? &m->l1i : &m->l1d;
    size_t slot;
    bool vdirty;
    bool hit = lookup(m, l1, line, &slot, &victim, &vdirty);
    l1->last_line = line; /* the line is in the L1 from here on, hit or fill */
    l1->last_slot = slot;
    if (hit) {
        if (write)
            l1->dirty[slot] = 1;
        return 0;
    }
    if (vdirty) {
        l1->writebacks++;
        l2_write_back(m, victim, dram, ctx);
    }
    if (write)
        l1->dirty[slot] = 1;
    size_t s2;
    uint64_t v2;
    bool v2dirty;
    if (lookup(m, &m->l2, line, &s2, &v2, &v2dirty))
        return CACHE_L2_HIT_CYCLES;
    if (v2dirty) {
        m->l2.writebacks++;
        dram(ctx, v2, true);
    }
    dram(ctx, line, false);
    return CACHE_L2_HIT_CYCLES + CACHE_DRAM_CYCLES;
}
