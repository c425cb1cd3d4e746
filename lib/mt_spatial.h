/* The spatial sampling filter of the trace unit's spatial mode (docs/trace-format.md 4.1,
 * estimator and its error in docs/metapaging.md "Spatial sampling").
 *
 * SHARDS (Waldspurger et al., FAST 2015) applied per metapage size: for size s = 4 KiB << i the
 * filter keeps every reference to a metapage whose hash falls in one part in R_i, and drops the
 * others.  A kept metapage keeps all its references, so an LRU/FIFO/CLOCK/OPT simulation of the
 * kept references with M / R_i resident metapages sees the same sequence of hits and faults on
 * those metapages as the full trace's simulation with M would (for LRU exactly in distribution:
 * SHARDS); the host multiplies the sample's faults by R_i.
 *
 * Rates (SHARDS's fixed-size variant, per size): size i starts at R_i = max(1, N >> i) (N:
 * --trace-spatial-rate, a power of two; default 1) and keeps a set of the sampled metapages it
 * has seen; when the set exceeds S = MT_SPATIAL_SAMPLE_MAX, R_i doubles and the metapages the
 * doubled rate no longer keeps leave the set.  A small guest is therefore sampled at rate 1
 * (exact) at every size whose footprint is at most S metapages, a large one at the rate that
 * leaves S/2..S sampled metapages.  Since a metapage kept at rate 2R is kept at R, the
 * metapages kept at the final rate were kept all along: the host takes size i's records of
 * metapages kept at the final R_i (which it recomputes from the records: the set changes only at
 * size i's records) as a fixed-rate sample at that rate.
 *
 * Hash (cheap in hardware: sixteen AND-XOR trees, no multiply): H3 (Carter and Wegman) on the
 * metapage number p = addr[55:12] >> i (44 bits at most):
 *     h(p) bit b = parity(p & MT_SPATIAL_H3[b]),  b = 0..15
 * and size i keeps p iff h(p) & (R_i - 1) == 0.  The masks are the low 48 bits of SplitMix64's
 * first sixteen outputs from seed 0 (docs/trace-format.md 4.1 lists them).
 *
 * Output: size-masked records (as the reduce mode's): one per access that some size keeps and
 * that is not a repeat there, with the mask of those sizes.  A repeat at size i (the same
 * metapage as size i's previous record) changes no policy's state (docs/metapaging.md "Why
 * collapsing repeats loses nothing") and is dropped; a settled alternation x y x y of two 4 KiB
 * pages is skipped and its last access replayed when it ends (as in the reduce mode: exact for
 * two or more resident metapages in the sample) unless a size sampled at rate 1 tells x and y
 * apart (it answers one resident metapage exactly). Records leave in access order, at once. */
#ifndef MT_SPATIAL_H
#define MT_SPATIAL_H

#include <stdint.h>

#define MT_SPATIAL_SIZES 10             /* 4 KiB .. 2 MiB */
#define MT_SPATIAL_RATE_MAX 65536u      /* N: 16 hash bits */
#define MT_SPATIAL_DEFAULT_RATE 1u      /* why: docs/metapaging.md "Spatial sampling" */
#define MT_SPATIAL_SAMPLE_MAX 1024u     /* S: sampled metapages per size before its rate doubles */
#define MT_SPATIAL_SET_SLOTS (4 * MT_SPATIAL_SAMPLE_MAX) /* the set holds at most 2 S (saturates) */

extern const uint64_t MT_SPATIAL_H3[16];

/* A record: the access at `cycle` to the 4 KiB page `page`, kept for every size whose bit is set
 * in `mask` (bit i: 4 KiB << i). */
typedef void (*mt_spatial_sink)(void *ctx, uint64_t cycle, uint64_t page, unsigned rw, unsigned mask);

typedef struct {
    uint32_t rate[MT_SPATIAL_SIZES];  /* R_i now (starts at max(1, N >> i), doubles) */
    /* per size the set of sampled metapages seen (number + 1, 0: empty; linear probing) */
    uint64_t set[MT_SPATIAL_SIZES][MT_SPATIAL_SET_SLOTS];
    uint32_t nset[MT_SPATIAL_SIZES];
    uint32_t doublings;
    uint64_t last_page, prev_page;    /* 4 KiB pages of the last two distinct accesses + 1 (0: none) */
    unsigned last_smask, prev_smask;  /* their sampled sizes */
    uint64_t kept_mp[MT_SPATIAL_SIZES]; /* metapage of size i's last record */
    unsigned kept_valid;              /* sizes with a record */
    uint64_t before_mp[MT_SPATIAL_SIZES]; /* metapage of size i's record before that (when other) */
    unsigned before_valid;
    uint32_t alt_steps;
    int alt_ok, skipped_valid;
    uint64_t skipped_cycle, skipped_page;
    unsigned skipped_rw;
    mt_spatial_sink sink;
    void *ctx;
    /* counts: every access in, records out, per size the records that have its bit */
    uint64_t accesses, records, kept[MT_SPATIAL_SIZES], alt_skipped;
} mt_spatial;

/* 1 when n is a rate the filter takes: a power of two from 1 to MT_SPATIAL_RATE_MAX. */
int mt_spatial_rate_ok(uint64_t n);
/* R_i for base rate n (>= 1). */
uint32_t mt_spatial_rate_of(uint32_t n, unsigned i);
/* The 16-bit H3 hash of metapage number p. */
uint32_t mt_spatial_hash(uint64_t p);
/* 0, or -1 (rate not mt_spatial_rate_ok). */
int mt_spatial_init(mt_spatial *s, uint32_t rate, mt_spatial_sink sink, void *ctx);
/* The doubling rule on one size's set, shared by the filter and the host's replay: metapage p,
 * kept at *rate, was recorded; 1 if it was new to the set (the caller inserts it, unless the
 * set holds 2 S: then it is not counted), after which, while the set holds more than S and the
 * rate is below MT_SPATIAL_RATE_MAX, the rate doubles and the set is pruned to the kept ones. */
/* One access; cycles strictly increase from call to call. */
void mt_spatial_access(mt_spatial *s, uint64_t cycle, uint64_t addr, unsigned rw);
/* n accesses to the 4 KiB page of the last one (a caller that filters repeats of the page ahead
 * of the filter, the CPU's page filter, tells their number): counted; a repeat changes nothing. */
void mt_spatial_repeats(mt_spatial *s, uint64_t n);
/* End of the trace: a skipped alternation's last access goes out; counts and rates are final. */
void mt_spatial_finish(mt_spatial *s);

#endif
