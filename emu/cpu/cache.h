/* The `cache` timing model: L1 instruction and data caches and a unified L2, write-back and
 * write-allocate, LRU, 64-byte lines.  An access returns the extra cycles it costs beyond an L1
 * hit; every line that moves to or from DRAM (a fill or a write-back) is reported, and those
 * reports form the `dram` tap of the bus-access hook. */
#ifndef EMU_CACHE_H
#define EMU_CACHE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define CACHE_LINE 64
#define CACHE_L2_HIT_CYCLES 10
#define CACHE_DRAM_CYCLES 80

typedef struct {
    unsigned sets, ways;
    uint64_t *tag;   /* sets * ways: line address | 1 (valid), or 0 */
    uint64_t *stamp; /* last use, for LRU */
    uint8_t *dirty;
    uint64_t hits, misses, writebacks;
    /* The line this level was last accessed at, and its slot (an L1's only: the L2 is not
     * inclusive, so nothing but the L1's own accesses replaces its lines).  Another access to it
     * is a hit whose LRU update can be skipped: it already is the newest line of its set, and
     * stamps are only compared within a set, so decisions stay the same (cache_hit_again). */
    uint64_t last_line;
    size_t last_slot;
} mt_cache_level;

typedef struct {
    mt_cache_level l1i, l1d, l2;
    uint64_t clock; /* use counter for LRU */
} mt_cache_model;

/* Reports one 64-byte DRAM transfer: a fill (write = false) or a write-back (write = true). */
typedef void (*cache_dram_fn)(void *ctx, uint64_t line_addr, bool write);

/* 32 KiB 4-way L1I, 32 KiB 8-way L1D, 1 MiB 16-way L2.  false when out of memory. */
bool cache_init(mt_cache_model *m);
void cache_free(mt_cache_model *m);
/* One access of the hart at physical address pa; returns the extra cycles. */
unsigned cache_access(mt_cache_model *m, uint64_t pa, bool write, bool fetch, cache_dram_fn dram, void *ctx);

/* cache_access's outcome when the access is to the line its L1 was last accessed at (most are:
 * a line holds 16 instructions): a hit costing nothing, counted, a write making it dirty.
 * Returns false, doing nothing, for any other access. */
static inline bool cache_hit_again(mt_cache_model *m, uint64_t pa, bool write, bool fetch)
{
    mt_cache_level *l1 = fetch ? &m->l1i : &m->l1d;
    if ((pa & ~(uint64_t)(CACHE_LINE - 1)) != l1->last_line)
        return false;
    l1->hits++;
    if (write)
        l1->dirty[l1->last_slot] = 1;
    return true;
}

#endif
