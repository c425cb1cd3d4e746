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
 * Rates (SHARDS's fixed-size variant, per size, with a distinct count the hardware can hold):
 * size i starts at R_i = 2^r_i = max(1, N >> i) (N: --trace-spatial-rate, a power of two;
 * default 1) and keeps a bitmap of 2^K bits (K = MT_SPATIAL_MAP_LOG2) and the count of its set
 * bits.  A record of metapage p sets bit idx(p, r_i); when that bit was clear the count grows,
 * and while the count exceeds T = MT_SPATIAL_SAMPLE_MAX (and R_i < MT_SPATIAL_RATE_MAX) R_i
 * doubles and the bits of the metapages the doubled rate no longer keeps are cleared.
 * idx takes the K hash bits just above the rate's keep bits, rotated so that a doubling moves
 * nothing: bit m of idx(p, r) is hash bit r + ((m - r) mod K), the one of r .. r+K-1 that is
 * congruent to m mod K.  At a doubling r -> r+1, hash bit r (now a keep bit) sits at index bit
 * r mod K: the bits with index bit r mod K set are exactly those of the metapages no longer
 * kept, and are cleared; the position then stands for hash bit r+K, which the survivors' bits
 * do not know (they read it as 0: a survivor with hash bit r+K = 1 is counted again when next
 * recorded; deterministic, and the host replays it).  The count is of distinct hash values,
 * not metapages: collisions make the rate double a little later, the same way in the host.
 * Since a metapage kept at rate 2R is kept at R, the metapages kept at the final rate were kept
 * all along: the host takes size i's records of metapages kept at the final R_i (which it
 * recomputes from the records with the same mt_spatial_counter: it changes only at size i's
 * records) as a fixed-rate sample at that rate.
 *
 * Hash (cheap in hardware: AND-XOR trees, no multiply): H3 (Carter and Wegman) on the
 * metapage number p = addr[55:12] >> i (44 bits at most):
 *     h(p) bit b = parity(p & MT_SPATIAL_H3[b]),  b = 0..31
 * size i keeps p iff h(p) & (R_i - 1) == 0 (bits 0..15), the bitmap takes bits r_i .. r_i+K-1.
 * The masks are the low 48 bits of SplitMix64's first 32 outputs from seed 0
 * (docs/trace-format.md 4.1 lists them).
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

#include <stddef.h>
#include <stdint.h>

#include "mt_event.h"

#define MT_SPATIAL_SIZES 10             /* 4 KiB .. 2 MiB */
#define MT_SPATIAL_RATE_MAX 65536u      /* N: 16 hash bits */
#define MT_SPATIAL_DEFAULT_RATE 1u      /* why: docs/metapaging.md "Spatial sampling" */
#define MT_SPATIAL_RATE_LOG2_MAX 16u
#define MT_SPATIAL_MAP_LOG2 14u         /* K: the bitmap of a size has 2^K bits (16 Kbit; ten sizes: 160 Kbit, one SPRAM) */
#define MT_SPATIAL_SAMPLE_MAX 8192u     /* T: set bits of a size's bitmap before its rate doubles */
#define MT_SPATIAL_MAP_LOG2_MIN 4u      /* what a reader takes from a header (trace.spatial_rule) */
#define MT_SPATIAL_MAP_LOG2_MAX 16u
#define MT_SPATIAL_HASH_BITS (MT_SPATIAL_RATE_LOG2_MAX + MT_SPATIAL_MAP_LOG2_MAX) /* 32 */

extern const uint64_t MT_SPATIAL_H3[MT_SPATIAL_HASH_BITS];

/* One size's rate and distinct count: the doubling rule, shared by the filter and the host's
 * replay (so the two agree by construction). */
typedef struct {
    uint32_t rate;     /* R = 2^r */
    unsigned r;
    unsigned log2m;    /* K */
    uint32_t max;      /* T */
    uint32_t count;    /* set bits of map */
    uint32_t doublings;
    uint64_t map[(UINT32_C(1) << MT_SPATIAL_MAP_LOG2_MAX) / 64];
} mt_spatial_counter;

/* A record: the access at `cycle` to the 4 KiB page `page`, kept for every size whose bit is set
 * in `mask` (bit i: 4 KiB << i). */
typedef void (*mt_spatial_sink)(void *ctx, uint64_t cycle, uint64_t page, unsigned rw, unsigned mask);

/* What the filter knows of one 4 KiB page while the rates stay as they are (gen: the filter's
 * doublings then): the sizes that keep its metapage, and the sizes whose bitmap bit for its
 * metapage is set (a record of it there changes nothing: mt_spatial_counter_record would return
 * at its first test).  A cache: a wrong tag or gen only costs the lookups it saves. */
typedef struct {
    uint64_t page1;   /* the 4 KiB page + 1 (0: empty) */
    uint32_t gen;
    uint16_t smask;
    uint16_t known;
} mt_spatial_page_memo;

#define MT_SPATIAL_MEMO_LOG2 12u        /* 4096 pages (64 KiB) */

typedef struct {
    uint32_t rate[MT_SPATIAL_SIZES];  /* R_i now (starts at max(1, N >> i), doubles) */
    mt_spatial_counter ctr[MT_SPATIAL_SIZES]; /* per size: the doubling rule's state */
    uint32_t doublings;
    uint64_t last_page, prev_page;    /* 4 KiB pages of the last two distinct accesses + 1 (0: none) */
    unsigned last_smask, prev_smask;  /* their sampled sizes */
    /* Size i's last record is of metapage kept_mp[i] (valid: kept_valid bit i) -- except for the
     * sizes in emitted_smask, whose last record is of the last emitted page's metapage, not
     * written here (mt_spatial.c, emit: why it is, and why that makes a record O(1)). */
    uint64_t kept_mp[MT_SPATIAL_SIZES];
    unsigned kept_valid;              /* sizes with a record */
    uint64_t emitted;                 /* the 4 KiB page of the last access emitted + 1 (0: none) */
    unsigned emitted_smask;           /* the sizes that keep its metapage at the rates now */
    uint32_t alt_steps;
    int alt_ok, skipped_valid;
    uint64_t skipped_cycle, skipped_page;
    unsigned skipped_rw;
    mt_spatial_sink sink;
    void *ctx;
    /* mt_spatial_set_buffer: records into rbuf (rcap entries), handed to rflush(ctx) when full */
    mt_access_rec *rbuf;
    uint32_t rn, rcap;
    void (*rflush)(void *ctx, const mt_access_rec *r, uint32_t n);
    /* counts: every access in, records out, per size the records that have its bit (kept:
     * made from mask_records by mt_spatial_finish) */
    uint64_t accesses, records, kept[MT_SPATIAL_SIZES], alt_skipped;
    uint64_t mask_records[1u << MT_SPATIAL_SIZES]; /* records per mask */
    mt_spatial_page_memo memo[1u << MT_SPATIAL_MEMO_LOG2]; /* by the page's low bits */
} mt_spatial;

/* The records from now on into buf (cap >= 1 entries) instead of the sink: record (cycle, page,
 * rw, mask) as {cycle, page << 12 | mask | rw << 63} (MT_ACCESS_REC_WRITE), the same order; the
 * full buffer goes to flush(ctx, buf, n), and what is left at mt_spatial_finish and
 * mt_spatial_flush.  (A writer's batch entry point takes them as they are: one call a batch
 * instead of one a record.)  buf NULL: back to the sink, after a flush. */
void mt_spatial_set_buffer(mt_spatial *s, mt_access_rec *buf, uint32_t cap,
                           void (*flush)(void *ctx, const mt_access_rec *r, uint32_t n));
/* Hands the buffered records to the flush (mt_spatial_set_buffer), if any wait. */
void mt_spatial_flush(mt_spatial *s);

/* 1 when n is a rate the filter takes: a power of two from 1 to MT_SPATIAL_RATE_MAX. */
int mt_spatial_rate_ok(uint64_t n);
/* R_i for base rate n (>= 1). */
uint32_t mt_spatial_rate_of(uint32_t n, unsigned i);
/* The 16-bit H3 hash of metapage number p (the keep decision's bits). */
uint32_t mt_spatial_hash(uint64_t p);
/* Hash bit b (0..31) of metapage number p. */
unsigned mt_spatial_hash_bit(uint64_t p, unsigned b);
/* All 32 hash bits of metapage number p (p < 2^48). */
uint32_t mt_spatial_hash32(uint64_t p);
/* The bitmap index of metapage p at rate 2^r with 2^log2m bits (see above). */
uint32_t mt_spatial_map_index(uint64_t p, unsigned r, unsigned log2m);
/* A counter at starting rate `rate` (a power of two <= MT_SPATIAL_RATE_MAX), 2^log2m bits
 * (MT_SPATIAL_MAP_LOG2_MIN..MAX) and threshold max (1 .. 2^log2m - 1); 0, or -1 bad parameters. */
int mt_spatial_counter_init(mt_spatial_counter *c, uint32_t rate, unsigned log2m, uint32_t max);
/* Size's record of metapage p, kept at c->rate: its bit is set (counted if it was clear), then
 * while the count exceeds the threshold and the rate is below MT_SPATIAL_RATE_MAX the rate
 * doubles and the bits with index bit (old r mod K) set are cleared.  1 if the rate changed. */
int mt_spatial_counter_record(mt_spatial_counter *c, uint64_t p);
/* 0, or -1 (rate not mt_spatial_rate_ok).  The rule's parameters are MT_SPATIAL_MAP_LOG2 and
 * MT_SPATIAL_SAMPLE_MAX (what the header names); mt_spatial_init_rule takes others (tests). */
int mt_spatial_init(mt_spatial *s, uint32_t rate, mt_spatial_sink sink, void *ctx);
int mt_spatial_init_rule(mt_spatial *s, uint32_t rate, unsigned log2m, uint32_t max, mt_spatial_sink sink,
                         void *ctx);
/* One access; cycles strictly increase from call to call. */
void mt_spatial_access(mt_spatial *s, uint64_t cycle, uint64_t addr, unsigned rw);
/* A run of accesses in one call (the CPU's page log, emu/cpu/cpu.h cpu_set_page_sink): access j
 * at cycle[j] (increasing) to the address word[j] >> shift, a write when word[j] bit 0 is set, and
 * ord[j] its ordinal in the stream of a filter ahead of this one that kept the repeats of the page
 * from it (so ord[j] - ord[j - 1] - 1 repeats of access j - 1's page came between them).  Those
 * outside [lo, hi) (not guest RAM) change nothing, nor count, and neither do the repeats after
 * them.  *ord_last and *last_in (in and out): the ordinal of the access before the run and whether
 * it was inside.  The same state, records and counts as, per access, mt_spatial_repeats of the
 * repeats before it (when the one before was inside) and mt_spatial_access (when it is inside)
 * at the end of the run (the count is made for the whole run first: a sink or a buffer's flush
 * that read s->accesses meanwhile would see it).  Returns n. */
size_t mt_spatial_access_run(mt_spatial *s, const uint64_t *cycle, const uint64_t *word, const uint64_t *ord, size_t n,
                             unsigned shift, uint64_t lo, uint64_t hi, uint64_t *ord_last, int *last_in);
/* n accesses to the 4 KiB page of the last one (a caller that filters repeats of the page ahead
 * of the filter, the CPU's page filter, tells their number): counted; a repeat changes nothing. */
void mt_spatial_repeats(mt_spatial *s, uint64_t n);
/* End of the trace: a skipped alternation's last access goes out; counts (kept[] too) and rates
 * are final.  More accesses may follow (kept[] is then made again at the next call). */
void mt_spatial_finish(mt_spatial *s);

#endif
