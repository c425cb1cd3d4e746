/* The spatial mode's sampling filter: see mt_spatial.h and docs/metapaging.md "Spatial sampling". */
#include "mt_spatial.h"

#include <string.h>
#include <threads.h>

/* Low 48 bits of SplitMix64's outputs 1..32 from seed 0 (docs/trace-format.md 4.1): bits 0..15
 * decide what a size keeps, the others only index the doubling rule's bitmap. */
const uint64_t MT_SPATIAL_H3[MT_SPATIAL_HASH_BITS] = {
    UINT64_C(0xa8397b1dcdaf), UINT64_C(0x9e6aa1b965f4), UINT64_C(0x5d188009454f), UINT64_C(0xb8a8724c81ec),
    UINT64_C(0x896a51a8749b), UINT64_C(0x9f0c747ea2ea), UINT64_C(0x9abe1f4532e1), UINT64_C(0x133ac916ab3c),
    UINT64_C(0x789041c98ac3), UINT64_C(0x488c368cb0a6), UINT64_C(0xecdd3cb13d09), UINT64_C(0x26e0055bdef6),
    UINT64_C(0xa03fe0bbdb7b), UINT64_C(0x7555983aa92f), UINT64_C(0x0f1600cc4d19), UINT64_C(0x3f97971d80ab),
    UINT64_C(0x825c75521255), UINT64_C(0x17102b7f7f86), UINT64_C(0xe9a083914f64), UINT64_C(0x8d2b5a4485ac),
    UINT64_C(0x602b100b9ed7), UINT64_C(0x8a921825f10d), UINT64_C(0xf1d90dca2f6a), UINT64_C(0x6ad67bd2634c),
    UINT64_C(0x01d4f5407269), UINT64_C(0x82f1db4c4f7b), UINT64_C(0x2ebc92233300), UINT64_C(0x9eb57de1d510),
    UINT64_C(0x9dabb45c6316), UINT64_C(0x1d7a0f4d3872), UINT64_C(0x52ee72f3454f), UINT64_C(0x35dea8e40225),
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

unsigned mt_spatial_hash_bit(uint64_t p, unsigned b)
{
    return (unsigned)__builtin_parityll(p & MT_SPATIAL_H3[b]);
}

static inline uint32_t hash32_made(uint64_t p);

/* Whether size i keeps metapage p: the low log2(R) hash bits are all 0 (by the byte table, made
 * at mt_spatial_init: six loads instead of a parity per bit). */
static inline int keeps(uint64_t p, uint32_t rate)
{
    return rate == 1 || (hash32_made(p & ((UINT64_C(1) << 48) - 1)) & (rate - 1)) == 0;
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
    return mt_spatial_init_rule(s, rate, MT_SPATIAL_MAP_LOG2, MT_SPATIAL_SAMPLE_MAX, sink, ctx);
}

int mt_spatial_init_rule(mt_spatial *s, uint32_t rate, unsigned log2m, uint32_t max, mt_spatial_sink sink,
                         void *ctx)
{
    memset(s, 0, sizeof *s);
    if (!mt_spatial_rate_ok(rate))
        return -1;
    for (unsigned i = 0; i < MT_SPATIAL_SIZES; i++) {
        s->rate[i] = mt_spatial_rate_of(rate, i);
        if (mt_spatial_counter_init(&s->ctr[i], s->rate[i], log2m, max))
            return -1;
    }
    s->sink = sink;
    s->ctx = ctx;
    return 0;
}

/* ---- per size: the distinct count and the doubling rule (mt_spatial.h) ------------------- */

/* All 32 hash bits, by table: H3 is linear over GF(2), so h(p) is the XOR of the hashes of p's six
 * bytes (p < 2^48) in their places, 6 x 256 entries made once from MT_SPATIAL_H3 (the filter
 * hashes every record at every size: a parity per bit cost 30% of the recording time). */
static uint32_t hash_bytes[6][256];
static once_flag hash_once = ONCE_FLAG_INIT;

static void hash_table_init(void)
{
    for (unsigned k = 0; k < 6; k++)
        for (unsigned v = 0; v < 256; v++) {
            uint32_t h = 0;
            for (unsigned b = 0; b < MT_SPATIAL_HASH_BITS; b++)
                h |= (uint32_t)__builtin_parityll(((uint64_t)v << (8 * k)) & MT_SPATIAL_H3[b]) << b;
            hash_bytes[k][v] = h;
        }
}

/* The table's hash, the table made (mt_spatial_counter_init makes it: a counter's records need
 * no check of their own, which cost a call per record and size). */
static inline uint32_t hash32_made(uint64_t p)
{
    /* written out: -O2 keeps the loop, at twice the instructions */
    return hash_bytes[0][p & 0xff] ^ hash_bytes[1][(p >> 8) & 0xff] ^ hash_bytes[2][(p >> 16) & 0xff] ^
           hash_bytes[3][(p >> 24) & 0xff] ^ hash_bytes[4][(p >> 32) & 0xff] ^ hash_bytes[5][(p >> 40) & 0xff];
}

uint32_t mt_spatial_hash32(uint64_t p)
{
    call_once(&hash_once, hash_table_init);
    return hash32_made(p);
}

/* Index bit m is hash bit b in r..r+K-1 with b = m mod K: hash bits r..r+K-1 (bit t of w is
 * hash bit r+t, which goes to index bit (r+t) mod K), rotated left by r mod K within K bits. */
static inline uint32_t index_of_hash(uint32_t h, unsigned r, unsigned log2m)
{
    uint32_t mask = (UINT32_C(1) << log2m) - 1, w = (uint32_t)(((uint64_t)h >> r) & mask);
    unsigned s = r; /* r mod K without a division (r < 32, K >= 4) */
    while (s >= log2m)
        s -= log2m;
    return s ? ((w << s) | (w >> (log2m - s))) & mask : w;
}

uint32_t mt_spatial_map_index(uint64_t p, unsigned r, unsigned log2m)
{
    return index_of_hash(mt_spatial_hash32(p & ((UINT64_C(1) << 48) - 1)), r, log2m);
}

int mt_spatial_counter_init(mt_spatial_counter *c, uint32_t rate, unsigned log2m, uint32_t max)
{
    call_once(&hash_once, hash_table_init); /* for mt_spatial_counter_record's hash32_made */
    memset(c, 0, sizeof *c);
    if (!mt_spatial_rate_ok(rate) || log2m < MT_SPATIAL_MAP_LOG2_MIN || log2m > MT_SPATIAL_MAP_LOG2_MAX ||
        max < 1 || max >= (UINT32_C(1) << log2m))
        return -1;
    c->rate = rate;
    c->r = (unsigned)__builtin_ctz(rate);
    c->log2m = log2m;
    c->max = max;
    return 0;
}

/* The rate doubles: the bits whose index bit (r mod K) is set (hash bit r = 1: no longer kept)
 * are cleared, and the count is what is left. */
static void counter_double(mt_spatial_counter *c)
{
    unsigned m = c->r % c->log2m;
    uint32_t words = (UINT32_C(1) << c->log2m) / 64, count = 0;
    if (c->log2m < 6)
        words = 1;
    uint64_t keep = ~UINT64_C(0);
    if (m < 6) /* index bit m inside a 64-bit word: keep the bits whose position has bit m clear */
        for (unsigned pos = 0; pos < 64; pos++)
            if ((pos >> m) & 1)
                keep &= ~(UINT64_C(1) << pos);
    for (uint32_t w = 0; w < words; w++) {
        if (m >= 6 && ((w >> (m - 6)) & 1))
            c->map[w] = 0;
        else
            c->map[w] &= keep;
        count += (uint32_t)__builtin_popcountll(c->map[w]);
    }
    c->count = count;
    c->rate *= 2;
    c->r++;
    c->doublings++;
}

int mt_spatial_counter_record(mt_spatial_counter *c, uint64_t p)
{
    uint32_t j = index_of_hash(hash32_made(p & ((UINT64_C(1) << 48) - 1)), c->r, c->log2m);
    uint64_t bit = UINT64_C(1) << (j & 63);
    if (c->map[j >> 6] & bit)
        return 0;
    c->map[j >> 6] |= bit;
    c->count++;
    int changed = 0;
    while (c->count > c->max && c->rate < MT_SPATIAL_RATE_MAX) {
        counter_double(c);
        changed = 1;
    }
    return changed;
}

/* Size i recorded metapage p: the count and, past T, the rate. 1 if the rate changed. */
static int note_record(mt_spatial *s, unsigned i, uint64_t p)
{
    uint32_t before = s->ctr[i].doublings;
    if (!mt_spatial_counter_record(&s->ctr[i], p))
        return 0;
    s->doublings += s->ctr[i].doublings - before;
    s->rate[i] = s->ctr[i].rate;
    return 1;
}

/* Page `page`'s memo slot, and whether it is that page's at the rates now. */
static inline mt_spatial_page_memo *memo_slot(mt_spatial *s, uint64_t page)
{
    return &s->memo[page & ((1u << MT_SPATIAL_MEMO_LOG2) - 1)];
}
static inline int memo_hit(const mt_spatial *s, const mt_spatial_page_memo *e, uint64_t page)
{
    return e->page1 == page + 1 && e->gen == s->doublings;
}

/* Page `page`'s memo at the rates now: its sampled sizes, and the sizes whose bitmap bit is
 * known set (none when the entry was another page's or older than the last doubling: any
 * doubling clears bits, and changes what a size keeps). */
static mt_spatial_page_memo *page_memo(mt_spatial *s, uint64_t page)
{
    mt_spatial_page_memo *e = memo_slot(s, page);
    if (!memo_hit(s, e, page)) {
        e->page1 = page + 1;
        e->gen = s->doublings;
        e->smask = (uint16_t)sampled_sizes(s, page);
        e->known = 0;
    }
    return e;
}

/* Size i's last record is kept_mp[i] from now on, not the emitted page's. */
static void write_kept(mt_spatial *s, unsigned sizes, uint64_t page)
{
    for (; sizes; sizes &= sizes - 1) {
        unsigned i = (unsigned)__builtin_ctz(sizes);
        s->kept_mp[i] = page >> i;
    }
}

void mt_spatial_flush(mt_spatial *s)
{
    const uint32_t n = s->rn;
    s->rn = 0;
    if (n)
        s->rflush(s->ctx, s->rbuf, n);
}

void mt_spatial_set_buffer(mt_spatial *s, mt_access_rec *buf, uint32_t cap,
                           void (*flush)(void *ctx, const mt_access_rec *r, uint32_t n))
{
    if (s->rbuf)
        mt_spatial_flush(s);
    s->rbuf = buf && cap ? buf : NULL;
    s->rcap = cap;
    s->rn = 0;
    s->rflush = flush;
}

/* A record of `page` for the sizes in mask. */
static inline __attribute__((always_inline)) void out(mt_spatial *s, uint64_t cycle, uint64_t page, unsigned rw,
                                                       unsigned mask)
{
    s->mask_records[mask]++;
    s->records++;
    if (s->rbuf) {
        s->rbuf[s->rn++] = (mt_access_rec){.cycle = cycle, .addr_rw = page << 12 | mask | (uint64_t)(rw & 1) << 63};
        if (s->rn == s->rcap)
            mt_spatial_flush(s);
    } else if (s->sink) {
        s->sink(s->ctx, cycle, page, rw, mask);
    }
}

/* An access that changes the 4 KiB page (or replays a skipped one): a record for every size in
 * smask (the sizes that keep its metapage) whose last record was another metapage.
 *
 * Why O(1) when the rates are equal: let E be the last emitted page.  Invariant: every size in
 * emitted_smask = S(E) (the sizes keeping E's metapage at the rates now) has E >> i as its last
 * record.  It holds after E's own emit: a size in S(E) either records E >> i, or its last record
 * already was E >> i (the skip), or E >> i = D >> i for the page D emitted before E, and then the
 * size keeps D's metapage as it keeps E's (the same metapage, the same rates) and by the invariant
 * its last record is D >> i.  Rates only grow and a metapage kept at 2R is kept at R, so S(E) at
 * later rates is a subset and the invariant holds on.  Hence for a size i in S(P) and S(E) the new
 * page P's metapage differs from the last record exactly when P >> i != E >> i, i.e. i <= the
 * highest bit of P ^ E: one mask.  Only the sizes in S(P) outside S(E) are compared one by one
 * (none at rate 1); the sizes leaving S(E) get their last record written out (write_kept).
 *
 * A record sets the size's bitmap bit of the metapage; the page memo says which sizes' bits are
 * set already (then mt_spatial_counter_record would change nothing), so a page seen since the
 * last doubling costs no hash.  (S(E) is inside kept_valid: each of its sizes has a record.)
 * emit_slow is every case; emit below the common one. */
static __attribute__((noinline)) void emit_slow(mt_spatial *s, uint64_t cycle, uint64_t page, unsigned rw,
                                                unsigned smask)
{
    unsigned mask, in_e = 0;
    if (s->emitted) {
        uint64_t e = s->emitted - 1, d = page ^ e;
        unsigned top = d ? 63u - (unsigned)__builtin_clzll(d) : 0;
        unsigned differ = !d ? 0 : top < MT_SPATIAL_SIZES ? (2u << top) - 1 : ~0u;
        in_e = s->emitted_smask;
        if (in_e & ~smask)
            write_kept(s, in_e & ~smask, e);
        mask = smask & in_e & differ;
    } else {
        mask = 0;
    }
    for (unsigned m = smask & ~in_e; m; m &= m - 1) {
        unsigned i = (unsigned)__builtin_ctz(m);
        if (!((s->kept_valid >> i) & 1) || s->kept_mp[i] != page >> i)
            mask |= 1u << i;
    }
    mt_spatial_page_memo *pm = page_memo(s, page);
    int changed = 0;
    for (unsigned m = mask & ~pm->known; m; m &= m - 1) {
        unsigned i = (unsigned)__builtin_ctz(m);
        changed |= note_record(s, i, page >> i);
    }
    s->emitted = page + 1;
    s->kept_valid |= mask;
    if (changed) { /* the new rates: the sizes that no longer keep the page write it out */
        pm = page_memo(s, page);
        write_kept(s, smask & ~pm->smask, page);
        s->emitted_smask = pm->smask;
        /* the cached sampled sizes of the last two pages follow the new rates */
        if (s->last_page)
            s->last_smask = page_memo(s, s->last_page - 1)->smask;
        if (s->prev_page)
            s->prev_smask = page_memo(s, s->prev_page - 1)->smask;
    } else {
        pm->known |= (uint16_t)mask;
        s->emitted_smask = smask;
    }
    if (mask)
        out(s, cycle, page, rw, mask);
}

/* The case of (nearly) every record, without a call: the new page keeps the sizes the emitted
 * one keeps (all of them at rate 1), and its bitmap bits are known set. */
static inline void emit(mt_spatial *s, uint64_t cycle, uint64_t page, unsigned rw, unsigned smask)
{
    uint64_t d = page ^ (s->emitted - 1);
    if (s->emitted && smask == s->emitted_smask && d) {
        unsigned top = 63u - (unsigned)__builtin_clzll(d);
        unsigned mask = smask & (top < MT_SPATIAL_SIZES ? (2u << top) - 1 : ~0u);
        const mt_spatial_page_memo *pm = memo_slot(s, page);
        if (memo_hit(s, pm, page) && !(mask & ~pm->known)) {
            s->emitted = page + 1; /* kept_valid and emitted_smask hold already */
            if (mask)
                out(s, cycle, page, rw, mask);
            return;
        }
    }
    emit_slow(s, cycle, page, rw, smask);
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

/* A settled alternation's step, not emitted: held as the one to replay when the alternation ends. */
static inline void hold_skipped(mt_spatial *s, uint64_t cycle, uint64_t page, unsigned rw)
{
    s->skipped_valid = 1;
    s->skipped_cycle = cycle;
    s->skipped_page = page;
    s->skipped_rw = rw & 1;
    s->alt_skipped++;
}

static void replay_skipped(mt_spatial *s)
{
    if (s->skipped_valid) {
        s->skipped_valid = 0;
        uint64_t p = s->skipped_page;
        emit(s, s->skipped_cycle, p, s->skipped_rw, p + 1 == s->last_page ? s->last_smask : s->prev_smask);
    }
}

/* mt_spatial_access after its first test, in every case. */
static __attribute__((noinline)) void access_slow(mt_spatial *s, uint64_t cycle, uint64_t page, unsigned rw)
{
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
            hold_skipped(s, cycle, page, rw);
            return;
        }
    } else {
        smask = page_memo(s, page)->smask;
        s->alt_steps = 0;
        s->prev_page = s->last_page;
        s->prev_smask = s->last_smask;
        s->last_page = page + 1;
        s->last_smask = smask;
    }
    replay_skipped(s);
    emit(s, cycle, page, rw & 1, smask);
}

/* The case of most calls when every size is at rate 1 (a Linux run: 76% of them):
 * a step of an alternation whose first step is past, nothing skipped pending.  access_slow
 * would take the same path (no alternation_ok, no replay); in mt_spatial_access every call is a
 * tail call, so the common path saves and restores no registers. */
static inline __attribute__((always_inline)) void access_page(mt_spatial *s, uint64_t cycle, uint64_t addr, unsigned rw)
{
    uint64_t page = (addr & ((UINT64_C(1) << 56) - 1)) >> 12;
    if (page + 1 == s->last_page)
        return; /* the same 4 KiB page again: a repeat at every size */
    if (page + 1 != s->prev_page || s->alt_steps == 0 || s->skipped_valid) {
        access_slow(s, cycle, page, rw);
        return;
    }
    unsigned smask = s->prev_smask;
    s->prev_page = s->last_page;
    s->prev_smask = s->last_smask;
    s->last_page = page + 1;
    s->last_smask = smask;
    if (++s->alt_steps > 2 && s->alt_ok) {
        hold_skipped(s, cycle, page, rw);
        return;
    }
    emit(s, cycle, page, rw & 1, smask);
}

/* One access: counted, then the filter (access_page; mt_spatial_access_run counts apart). */
static inline __attribute__((always_inline)) void access_one(mt_spatial *s, uint64_t cycle, uint64_t addr, unsigned rw)
{
    s->accesses++;
    access_page(s, cycle, addr, rw);
}

void mt_spatial_access(mt_spatial *s, uint64_t cycle, uint64_t addr, unsigned rw)
{
    access_one(s, cycle, addr, rw);
}

/* ---- a run of accesses (the CPU's page log) ------------------------------------------------ */

#define ALL_SIZES ((1u << MT_SPATIAL_SIZES) - 1)

/* What the closed-form count of a run (access_run_t) takes off for its access j when that one is
 * outside the range: itself and the repeats after it (those after the run's last access are the
 * next run's). */
static inline uint64_t outside_count(const uint64_t *ord, size_t j, size_t n)
{
    return j + 1 < n ? ord[j + 1] - ord[j] : 1;
}

/* The steady state of a run at rate 1 (the default; every size keeps every metapage, none has
 * doubled): the state in which run_rate1 below is the filter.  In it access_page's work for a new
 * page P reduces to a few locals, because (1) every sampled-sizes mask is ALL_SIZES (the rates were
 * 1 all along, and every cached mask was made at rate 1); (2) alternation_ok is 0 for every pair of
 * distinct pages (size 0 is at rate 1 and tells them apart), so alt_ok is 0 and no step is ever
 * held back (nothing skipped to replay); (3) so every access that is not a repeat is emitted, and
 * the emitted page is the last page; (4) emit's O(1) case then holds whenever P's memo is valid
 * and knows the bitmap bits of the mask, and its record's mask is the sizes up to the highest
 * bit of P ^ last.  docs/metapaging.md "The rate-1 run loop" has the argument in full. */
static int rate1_steady(const mt_spatial *s)
{
    return s->doublings == 0 && s->rate[0] == 1 && s->rbuf && !s->skipped_valid && !s->alt_ok && s->emitted &&
           s->emitted == s->last_page && s->emitted_smask == ALL_SIZES && s->last_smask == ALL_SIZES &&
           s->prev_smask == ALL_SIZES;
}

/* The accesses word[j..n) inside [lo, hi) through the filter in the steady state of rate 1, with
 * its state in locals (through s, each record's store into the buffer, which may alias any field,
 * reloaded them per access).  Stops before the first access that needs more (a page whose memo is
 * not valid, or does not know the bitmap bits: access_page then takes it) and returns its index,
 * or n.  Counts nothing but the records (mt_spatial_access_run counts the accesses). */
static inline __attribute__((always_inline)) size_t run_rate1(mt_spatial *s, const uint64_t *cycle,
                                                                const uint64_t *word, const uint64_t *ord,
                                                                size_t j, size_t n, const unsigned shift,
                                                                uint64_t lo, uint64_t hi)
{
    uint64_t last = s->last_page, prevp = s->prev_page;
    uint32_t alt = s->alt_steps;
    /* the buffer's next entry and its end; the records are counted from rp's moves (rp0) */
    mt_access_rec *rp = s->rbuf + s->rn, *rp0 = rp, *rend = s->rbuf + s->rcap;
    for (; j < n; j++) {
        const uint64_t w = word[j], addr = w >> shift;
        if (addr < lo || addr >= hi) {
            s->accesses -= outside_count(ord, j, n);
            continue;
        }
        const uint64_t page = (addr & ((UINT64_C(1) << 56) - 1)) >> 12;
        if (page + 1 == last)
            continue; /* the same 4 KiB page again: a repeat at every size */
        /* the sizes up to the highest bit of page ^ emitted (last: the emitted page), emit's mask
         * (2 << top) - 1 capped, without a branch */
        const unsigned mask = (unsigned)(~UINT64_C(0) >> __builtin_clzll(page ^ (last - 1))) & ALL_SIZES;
        const mt_spatial_page_memo *e = memo_slot(s, page);
        if (e->page1 != page + 1 || (mask & ~(unsigned)e->known)) /* (gen: 0 in every memo, no doubling yet) */
            break;
        /* access_page's step (x y x: the alternation goes on, else it starts again), then emit's
         * O(1) case and out() */
        alt = page + 1 == prevp ? alt + 1 : 0;
        prevp = last;
        last = page + 1;
        s->mask_records[mask]++;
        *rp++ = (mt_access_rec){.cycle = cycle[j], .addr_rw = page << 12 | mask | (w & 1) << 63};
        if (rp == rend) {
            s->rn = (uint32_t)(rp - s->rbuf);
            s->records += (uint64_t)(rp - rp0);
            s->last_page = s->emitted = last;
            s->prev_page = prevp;
            s->alt_steps = alt;
            mt_spatial_flush(s);
            if (!s->rbuf) { /* (a flush that took the buffer away: access_page from here on) */
                rp = rp0 = NULL;
                j++;
                break;
            }
            rp = rp0 = s->rbuf + s->rn;
            rend = s->rbuf + s->rcap;
        }
    }
    s->last_page = s->emitted = last;
    s->prev_page = prevp;
    s->alt_steps = alt;
    if (rp) {
        s->rn = (uint32_t)(rp - s->rbuf);
        s->records += (uint64_t)(rp - rp0);
    }
    return j;
}

/* mt_spatial_access and mt_spatial_repeats over a run (mt_spatial.h).  The count in closed form:
 * per access j inside, 1 and the repeats after it, ord[j + 1] - ord[j] - 1 (the last one's are
 * the next run's to count, from *ord_last), and the repeats before the run when the access
 * before it was inside; summed as if every access were inside, that is ord[n-1] - ord[0] + 1,
 * less outside_count for each access outside, which the loops below take off where they meet
 * one (no call reads the count meanwhile; the sum wraps as the per-access count would).  The
 * accesses: run_rate1 where it applies, access_page one at a time elsewhere. */
static inline __attribute__((always_inline)) void access_run_t(mt_spatial *s, const uint64_t *cycle,
                                                                const uint64_t *word, const uint64_t *ord,
                                                                size_t n, const unsigned shift, uint64_t lo,
                                                                uint64_t hi, uint64_t *ord_last, int *last_in)
{
    s->accesses += (*last_in ? ord[0] - *ord_last - 1 : 0) + ord[n - 1] - ord[0] + 1;
    *ord_last = ord[n - 1];
    const uint64_t alast = word[n - 1] >> shift;
    *last_in = alast >= lo && alast < hi;
    for (size_t j = 0; j < n;) {
        if (rate1_steady(s)) {
            j = run_rate1(s, cycle, word, ord, j, n, shift, lo, hi);
            if (j == n)
                break;
        }
        const uint64_t addr = word[j] >> shift;
        if (addr >= lo && addr < hi)
            access_page(s, cycle[j], addr, (unsigned)(word[j] & 1));
        else
            s->accesses -= outside_count(ord, j, n);
        j++;
    }
}

size_t mt_spatial_access_run(mt_spatial *s, const uint64_t *cycle, const uint64_t *word, const uint64_t *ord, size_t n,
                             unsigned shift, uint64_t lo, uint64_t hi, uint64_t *ord_last, int *last_in)
{
    if (!n)
        return 0;
    if (shift == 8) /* the CPU's page log: a constant shift */
        access_run_t(s, cycle, word, ord, n, 8, lo, hi, ord_last, last_in);
    else
        access_run_t(s, cycle, word, ord, n, shift, lo, hi, ord_last, last_in);
    return n;
}

void mt_spatial_repeats(mt_spatial *s, uint64_t n)
{
    s->accesses += n; /* mt_spatial_access's first return, n times */
}

void mt_spatial_finish(mt_spatial *s)
{
    replay_skipped(s);
    if (s->rbuf)
        mt_spatial_flush(s);
    for (unsigned i = 0; i < MT_SPATIAL_SIZES; i++) {
        uint64_t n = 0;
        for (unsigned m = 1u << i; m < (1u << MT_SPATIAL_SIZES); m = (m + 1) | (1u << i))
            n += s->mask_records[m];
        s->kept[i] = n;
    }
}
