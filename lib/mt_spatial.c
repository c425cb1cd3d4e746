/* The spatial mode's sampling filter: see mt_spatial.h and docs/metapaging.md "Spatial sampling". */
#include "mt_spatial.h"

#include <string.h>

/* Low 48 bits of SplitMix64's outputs 1..16 from seed 0 (docs/trace-format.md 4.1). */
const uint64_t MT_SPATIAL_H3[16] = {
    UINT64_C(0xa8397b1dcdaf), UINT64_C(0x9e6aa1b965f4), UINT64_C(0x5d188009454f), UINT64_C(0xb8a8724c81ec),
    UINT64_C(0x896a51a8749b), UINT64_C(0x9f0c747ea2ea), UINT64_C(0x9abe1f4532e1), UINT64_C(0x133ac916ab3c),
    UINT64_C(0x789041c98ac3), UINT64_C(0x488c368cb0a6), UINT64_C(0xecdd3cb13d09), UINT64_C(0x26e0055bdef6),
    UINT64_C(0xa03fe0bbdb7b), UINT64_C(0x7555983aa92f), UINT64_C(0x0f1600cc4d19), UINT64_C(0x3f97971d80ab),
};

int mt_spatial_rate_ok(uint64_t n)
{
    return n >= 1 && n <= MT_SPATIAL_RATE_MAX && (n & (n - 1)) == 0;
}

uint32_t mt_spatial_rate_of(uint32_t n, unsigned i)
{
    uint32_t r = n >> i;
    return r ? r : 1;
}

uint32_t mt_spatial_hash(uint64_t p)
{
    uint32_t h = 0;
    for (unsigned b = 0; b < 16; b++)
        h |= (uint32_t)__builtin_parityll(p & MT_SPATIAL_H3[b]) << b;
    return h;
}

/* Whether size i keeps metapage p: the low log2(R) hash bits are all 0 (only those are computed). */
static inline int keeps(uint64_t p, uint32_t rate)
{
    for (unsigned b = 0; (UINT32_C(1) << b) < rate; b++)
        if (__builtin_parityll(p & MT_SPATIAL_H3[b]))
            return 0;
    return 1;
}

/* The sizes that keep 4 KiB page `page`'s metapage. */
static unsigned sampled_sizes(const mt_spatial *s, uint64_t page)
{
    unsigned m = 0;
    for (unsigned i = 0; i < MT_SPATIAL_SIZES; i++)
        m |= (unsigned)keeps(page >> i, s->rate[i]) << i;
    return m;
}

int mt_spatial_init(mt_spatial *s, uint32_t rate, mt_spatial_sink sink, void *ctx)
{
    memset(s, 0, sizeof *s);
    if (!mt_spatial_rate_ok(rate))
        return -1;
    for (unsigned i = 0; i < MT_SPATIAL_SIZES; i++)
        s->rate[i] = mt_spatial_rate_of(rate, i);
    s->sink = sink;
    s->ctx = ctx;
    return 0;
}

/* ---- per size: the set of sampled metapages and the doubling rule ----------------------- */

static inline uint32_t slot_of(uint64_t p)
{
    return (uint32_t)((p * UINT64_C(0x9e3779b97f4a7c15)) >> 40) & (MT_SPATIAL_SET_SLOTS - 1);
}

/* 1 when p was added (new), 0 already there or the set is full (2 S: saturated, not counted). */
static int set_add(mt_spatial *s, unsigned i, uint64_t p)
{
    uint64_t *t = s->set[i];
    uint32_t h = slot_of(p);
    for (; t[h]; h = (h + 1) & (MT_SPATIAL_SET_SLOTS - 1))
        if (t[h] == p + 1)
            return 0;
    if (s->nset[i] >= 2 * MT_SPATIAL_SAMPLE_MAX)
        return 0;
    t[h] = p + 1;
    s->nset[i]++;
    return 1;
}

/* Rate i doubled: the metapages it no longer keeps leave (the set is rebuilt). */
static void set_prune(mt_spatial *s, unsigned i)
{
    uint64_t keep[2 * MT_SPATIAL_SAMPLE_MAX];
    uint32_t n = 0;
    for (uint32_t h = 0; h < MT_SPATIAL_SET_SLOTS; h++)
        if (s->set[i][h] && keeps(s->set[i][h] - 1, s->rate[i]))
            keep[n++] = s->set[i][h] - 1;
    memset(s->set[i], 0, sizeof s->set[i]);
    s->nset[i] = 0;
    for (uint32_t k = 0; k < n; k++)
        set_add(s, i, keep[k]);
}

/* Size i recorded metapage p: the set and, past S, the rate (mt_spatial.h). 1 if the rate changed. */
static int note_record(mt_spatial *s, unsigned i, uint64_t p)
{
    if (!set_add(s, i, p))
        return 0;
    int changed = 0;
    while (s->nset[i] > MT_SPATIAL_SAMPLE_MAX && s->rate[i] < MT_SPATIAL_RATE_MAX) {
        s->rate[i] *= 2;
        s->doublings++;
        set_prune(s, i);
        changed = 1;
    }
    return changed;
}

/* An access that changes the 4 KiB page (or replays a skipped one): a record for every size that
 * keeps its metapage and whose last record was another metapage. */
static void emit(mt_spatial *s, uint64_t cycle, uint64_t page, unsigned rw, unsigned smask)
{
    unsigned mask = 0;
    int changed = 0;
    for (unsigned m = smask; m; m &= m - 1) {
        unsigned i = (unsigned)__builtin_ctz(m);
        uint64_t mp = page >> i;
        if (!((s->kept_valid >> i) & 1) || s->kept_mp[i] != mp) {
            mask |= 1u << i;
            /* the metapage before the last one is in the set already (or the set is full and
             * stays so): no lookup, the same answer (alternations cost a compare) */
            if (!((s->before_valid >> i) & 1) || s->before_mp[i] != mp)
                changed |= note_record(s, i, mp);
            s->before_mp[i] = s->kept_mp[i];
            s->before_valid |= s->kept_valid & (1u << i);
            s->kept_mp[i] = mp;
            s->kept[i]++;
        }
    }
    if (changed) { /* the cached sampled sizes of the last two pages follow the new rates */
        if (s->last_page)
            s->last_smask = sampled_sizes(s, s->last_page - 1);
        if (s->prev_page)
            s->prev_smask = sampled_sizes(s, s->prev_page - 1);
    }
    if (!mask)
        return;
    s->kept_valid |= mask;
    s->records++;
    if (s->sink)
        s->sink(s->ctx, cycle, page, rw, mask);
}

/* A settled alternation of x and y may be skipped where the sample holds two or more resident
 * metapages (then every step is a hit and changes no policy's state, docs/metapaging.md
 * "Alternations").  A size sampled at rate 1 keeps every metapage, so one resident metapage is a
 * configuration it answers exactly: skip only if x and y share their metapage at every such size.
 * (At a size sampled at R > 1 a budget of one sampled metapage has no error bar anyway.) */
static int alternation_ok(const mt_spatial *s, uint64_t x, uint64_t y)
{
    for (unsigned i = 0; i < MT_SPATIAL_SIZES; i++)
        if (s->rate[i] == 1 && (x >> i) != (y >> i))
            return 0;
    return 1;
}

static void replay_skipped(mt_spatial *s)
{
    if (s->skipped_valid) {
        s->skipped_valid = 0;
        uint64_t p = s->skipped_page;
        emit(s, s->skipped_cycle, p, s->skipped_rw, p + 1 == s->last_page ? s->last_smask : s->prev_smask);
    }
}

void mt_spatial_access(mt_spatial *s, uint64_t cycle, uint64_t addr, unsigned rw)
{
    uint64_t page = (addr & ((UINT64_C(1) << 56) - 1)) >> 12;
    s->accesses++;
    if (page + 1 == s->last_page)
        return; /* the same 4 KiB page again: a repeat at every size */
    unsigned smask;
    if (page + 1 == s->prev_page) { /* x y x: one step of an alternation */
        smask = s->prev_smask;
        s->prev_page = s->last_page;
        s->prev_smask = s->last_smask;
        s->last_page = page + 1;
        s->last_smask = smask;
        if (++s->alt_steps == 1)
            s->alt_ok = alternation_ok(s, page, s->prev_page - 1);
        if (s->alt_ok && s->alt_steps > 2) { /* settled: both pages were emitted since; only the last one matters */
            s->skipped_valid = 1;
            s->skipped_cycle = cycle;
            s->skipped_page = page;
            s->skipped_rw = rw & 1;
            s->alt_skipped++;
            return;
        }
    } else {
        smask = sampled_sizes(s, page);
        s->alt_steps = 0;
        s->prev_page = s->last_page;
        s->prev_smask = s->last_smask;
        s->last_page = page + 1;
        s->last_smask = smask;
    }
    replay_skipped(s);
    emit(s, cycle, page, rw & 1, smask);
}

void mt_spatial_repeats(mt_spatial *s, uint64_t n)
{
    s->accesses += n; /* mt_spatial_access's first return, n times */
}

void mt_spatial_finish(mt_spatial *s)
{
    replay_skipped(s);
}
