/* Software stream encoder: see mt_swenc.h. */
#include "mt_swenc.h"

#include <string.h>

#include "mt_pkt.h"

void mt_swenc_init(mt_swenc *s, uint32_t sync_period, mt_sink_fn sink, void *ctx)
{
    memset(s, 0, sizeof *s);
    s->sink = sink;
    s->ctx = ctx;
    if (sync_period < MT_SYNC_PERIOD_MIN)
        sync_period = sync_period ? MT_SYNC_PERIOD_MIN : MT_RESET_SYNC_PERIOD;
    if (sync_period > MT_SYNC_PERIOD_MAX)
        sync_period = MT_SYNC_PERIOD_MAX;
    s->sync_period = sync_period;
    s->rate = 1;
}

void mt_swenc_batch(mt_swenc *s) { s->batched = 1; }

void mt_swenc_runs(mt_swenc *s) { s->runs = 1; }

void mt_swenc_flush(mt_swenc *s)
{
    s->bopen = 0; /* the open FETCHES packet leaves with the batch: it ends there */
    if (s->batch_n) {
        uint32_t n = s->batch_n;
        s->batch_n = 0;
        s->sink(s->ctx, s->batch, n);
    }
}

static inline void put(mt_swenc *s, const uint8_t *p, size_t n)
{
    if (!n)
        return;
    if (s->batched) {
        if (s->batch_n + n > sizeof s->batch)
            mt_swenc_flush(s);
        memcpy(s->batch + s->batch_n, p, n); /* n <= MT_PKT_MAX */
        s->batch_n += (uint32_t)n;
    } else {
        s->sink(s->ctx, p, n);
    }
    s->bytes += n;
    s->sync_bytes += (uint32_t)n;
    if (s->sync_bytes > MT_PREV_BYTES_MAX)
        s->sync_bytes = MT_PREV_BYTES_MAX;
}

/* Puts the open FETCHES packet (runs stream): its last element says no more follow. */
static void fetches_close(mt_swenc *s)
{
    const unsigned n = s->flen;
    s->flen = 0;
    put(s, s->fpkt, n);
}

/* Before any other packet: what the stream still owes of earlier samples, the open FETCHES packet
 * or the repeats absorbed into the run (never both: a FETCHES packet opens after the run is
 * flushed, and a SAMPLE closes the packet before it can absorb one). */
static void flush_run(mt_swenc *s)
{
    uint8_t b[MT_PKT_MAX];
    if (s->flen)
        fetches_close(s);
    s->bopen = 0;
    put(s, b, mt_enc_flush_run(&s->enc, b));
}

void mt_swenc_on_sync(mt_swenc *s, mt_unit_mark_fn fn, void *ctx)
{
    s->on_sync = fn;
    s->on_sync_ctx = ctx;
}

void mt_swenc_mark_now(const mt_swenc *s, mt_unit_mark *m)
{
    *m = (mt_unit_mark){.offset = s->bytes, .cycle = s->ptr, .samples = s->samples, .last_sp = s->last_sp};
}

static void sync_pair(mt_swenc *s, uint64_t cycle)
{
    uint8_t b[MT_PKT_MAX];
    flush_run(s);
    mt_swenc_flush(s);
    if (s->on_sync) { /* every sample before it is in the stream now: the run was flushed */
        const mt_unit_mark m = {.offset = s->bytes, .cycle = cycle, .samples = s->samples, .last_sp = s->last_sp};
        s->on_sync(s->on_sync_ctx, &m);
    }
    size_t n = mt_pkt_sync(b, s->sync_seq++, s->sync_bytes, cycle);
    s->sync_bytes = 0;
    put(s, b, n);
    put(s, b, mt_pkt_section(b, s->span, s->fmt, s->rate, s->ptr));
    mt_enc_reset(&s->enc, s->fmt);
    s->fa = 0;
}

int mt_swenc_section(mt_swenc *s, unsigned span, unsigned fmt, uint32_t rate, uint64_t cycle)
{
    if (s->ended || span > 1 || fmt > 3 || rate == 0 || (s->have_section && cycle < s->floor))
        return -1;
    uint8_t b[MT_PKT_MAX];
    flush_run(s);
    s->span = (uint8_t)span;
    s->fmt = (uint8_t)fmt;
    s->rate = rate;
    s->ptr = cycle;
    s->floor = cycle;
    if (!s->have_section) {
        s->have_section = 1;
        sync_pair(s, cycle);
        return 0;
    }
    put(s, b, mt_pkt_section(b, span, fmt, rate, cycle));
    mt_enc_reset(&s->enc, fmt);
    s->fa = 0;
    return 0;
}

int mt_swenc_sample(mt_swenc *s, uint64_t cycle, uint64_t addr, unsigned rw)
{
    if (s->ended || !s->have_section || cycle < s->ptr)
        return -1;
    if (s->flen) /* a SAMPLE follows the open FETCHES packet (runs stream): it is closed */
        fetches_close(s);
    s->bopen = 0;
    /* one division, none at rate 1 (every access: --trace-all) */
    uint64_t d = cycle - s->ptr, skip = s->rate == 1 ? d : d / s->rate;
    if (skip * s->rate != d || skip > MT_SKIP_MAX)
        return -1;
    const uint64_t a = mt_fmt_addr_part(s->fmt, addr);
    /* straight into the batch when it has room for a whole packet (the every-access recorder's
     * path: no plan, no copy); one call site, so the compressor step is inlined once */
    uint8_t b[MT_PKT_MAX];
    const int direct = s->batched && s->batch_n + MT_PKT_MAX <= sizeof s->batch;
    uint8_t *out = direct ? s->batch + s->batch_n : b;
    const unsigned len = mt_enc_put_sample(&s->enc, a, rw, skip, out);
    if (direct) {
        s->batch_n += len;
        s->bytes += len;
        s->sync_bytes += len;
        if (s->sync_bytes > MT_PREV_BYTES_MAX)
            s->sync_bytes = MT_PREV_BYTES_MAX;
    } else {
        put(s, b, len);
    }
    s->ptr = cycle + s->rate;
    s->floor = cycle + 1;
    s->samples++;
    s->last_sp = cycle;
    if (s->sync_bytes >= s->sync_period)
        sync_pair(s, s->ptr);
    return 0;
}

/* mt_swenc_samples' loop for rate 1, FULL, batched, not plain: mt_swenc_sample's direct path and
 * mt_enc_put_sample_w's step (lib/mt_enc.h, the definition) with the encoder's and s's fields in
 * scalar locals, written back before anything that reads them (a flush's sink, a SYNC) and at the
 * end.  Written out here rather than calling the shared step: through the batch's byte pointer,
 * which may alias anything, the compiler kept the history in memory and reloaded it per sample.
 * tests/unit/test_lib_enc.c checks it against mt_swenc_sample on random streams. */
_Static_assert(MT_RUN_MAX < 0x80, "a RUN count is one LEB byte");
/* An empty history entry in the loop's locals: no 56-bit address equals it, so the match test
 * needs no validity bits. */
#define HIST_EMPTY UINT64_MAX
static inline __attribute__((always_inline)) int samples_rate1_t(mt_swenc *s, const mt_access_rec *r, size_t n,
                                                                   const int runs)
{
    const unsigned v0 = s->enc.hist_valid;
    uint64_t h0 = v0 & 1 ? s->enc.hist[0] : HIST_EMPTY, h1 = v0 & 2 ? s->enc.hist[1] : HIST_EMPTY,
             h2 = v0 & 4 ? s->enc.hist[2] : HIST_EMPTY;
    /* the previous sample's match index and rw as one key (bit 2: rw); 8 when there is none */
    unsigned prev = s->enc.prev_valid ? s->enc.prev_idx | (s->enc.prev_rw & 1u) << 2 : 8, run = s->enc.run_cnt;
    uint64_t ptr = s->ptr;
    /* runs: the last FETCHES element's address; the open FETCHES packet (the last packet in the
     * batch, whole: extending it sets its last element's "more" bit, mb/mbit, and appends one
     * byte), from pstart; mb NULL: none open */
    uint64_t fa = s->fa;
    uint8_t *mb = NULL, *pstart = NULL;
    unsigned mbit = 0;
    if (runs && s->bopen) {
        mb = s->batch + s->bopen_more;
        pstart = s->batch + s->bopen_start;
        mbit = s->bopen_bit;
    }
    /* the batch's next byte, and o0 where it was at the last SAMPLES_LOAD: sync_bytes is
     * s->sync_bytes plus o - o0, clamped, and a SYNC is due once o reaches o_due (an address,
     * compared with o alone: it may lie past the batch) */
    uint8_t *o, *o0;
    uintptr_t o_due;
    const mt_access_rec *p = r, *const end = r + n;
    int rc = 0;
#define SAMPLES_SAVE()                                                                            \
    do {                                                                                          \
        s->enc.hist[0] = h0 == HIST_EMPTY ? 0 : h0;                                               \
        s->enc.hist[1] = h1 == HIST_EMPTY ? 0 : h1;                                               \
        s->enc.hist[2] = h2 == HIST_EMPTY ? 0 : h2;                                               \
        s->enc.hist_valid = (uint8_t)((h0 != HIST_EMPTY) | (h1 != HIST_EMPTY) << 1 | (h2 != HIST_EMPTY) << 2); \
        s->enc.prev_valid = prev != 8;                                                            \
        if (prev != 8) {                                                                          \
            s->enc.prev_idx = (uint8_t)(prev & 3);                                                \
            s->enc.prev_rw = (uint8_t)(prev >> 2);                                                \
        }                                                                                         \
        s->enc.run_cnt = (uint8_t)run;                                                            \
        s->ptr = ptr;                                                                             \
        const uint32_t w_ = (uint32_t)(o - o0), sb_ = s->sync_bytes + w_;                         \
        s->bytes += w_;                                                                           \
        s->sync_bytes = sb_ > MT_PREV_BYTES_MAX ? MT_PREV_BYTES_MAX : sb_;                        \
        s->batch_n = (uint32_t)(o - s->batch);                                                    \
        o0 = o;                                                                                   \
        if (runs) {                                                                               \
            s->fa = fa;                                                                           \
            s->bopen = mb != NULL;                                                                \
            if (mb) {                                                                             \
                s->bopen_more = (uint32_t)(mb - s->batch);                                        \
                s->bopen_start = (uint32_t)(pstart - s->batch);                                   \
                s->bopen_bit = (uint8_t)mbit;                                                     \
            }                                                                                     \
        }                                                                                         \
    } while (0)
#define SAMPLES_LOAD()                                                                            \
    do {                                                                                          \
        if (runs && !s->bopen) /* a flush or a SYNC closed it */                                  \
            mb = NULL;                                                                            \
        if (runs)                                                                                 \
            fa = s->fa;                                                                           \
        ptr = s->ptr;                                                                             \
        o = o0 = s->batch + s->batch_n;                                                           \
        o_due = (uintptr_t)o0 + (s->sync_bytes >= s->sync_period ? 0 : s->sync_period - s->sync_bytes); \
    } while (0)
    SAMPLES_LOAD();
    for (; p < end; p++) {
        /* a record before ptr wraps to a skip past MT_SKIP_MAX: one test for both */
        const uint64_t cycle = p->cycle, ar = p->addr_rw, skip = cycle - ptr;
        if (__builtin_expect(skip > MT_SKIP_MAX, 0)) {
            rc = -1;
            break;
        }
        const uint64_t a = ar & ((UINT64_C(1) << 56) - 1);
        const unsigned rw = (unsigned)(ar >> 63);
        ptr = cycle + 1;
        if (runs && (ar & MT_ACCESS_REC_FETCH)) { /* samples_runs' rules, in the batch */
            /* step 2 or 4 and skip <= 15 in one test: step - 2 is 0 or 2, which shifted by 3 is
             * the element's step bit (MT_FETCH_ELEM_STEP4) */
            const uint64_t step2 = a - fa - 2;
            const int seq = ((step2 & ~UINT64_C(2)) | (skip & ~(uint64_t)MT_FETCH_SKIP_MAX)) == 0;
            const unsigned elem = (unsigned)(step2 << 3 | skip); /* without bit 6; valid when seq */
            fa = a;
            /* (the packet never reaches the batch's end: it opens with room for two packets) */
            if (seq && mb && o - pstart < (ptrdiff_t)MT_PKT_MAX) {
                *mb |= (uint8_t)mbit;
                mb = o;
                mbit = MT_FETCH_ELEM_MORE;
                *o++ = (uint8_t)(MT_FETCH_ELEM_ONE | elem);
            } else {
                if (o > s->batch + sizeof s->batch - 2 * MT_PKT_MAX) { /* room for a RUN and the packet */
                    mb = NULL;
                    SAMPLES_SAVE();
                    mt_swenc_flush(s);
                    SAMPLES_LOAD();
                }
                if (run) { /* the repeats the run absorbed came first */
                    *o++ = MT_HDR_RUN;
                    *o++ = (uint8_t)run;
                    run = 0;
                }
                pstart = o;
                if (seq) { /* the short form */
                    *o++ = (uint8_t)(MT_FETCH_SHORT | elem);
                    mb = pstart;
                    mbit = MT_FETCH_SHORT_MORE;
                } else {
                    *o++ = MT_HDR_FETCHES;
                    o += mt_leb_put(o, skip);
                    mb = o;
                    mbit = 1;
                    o += mt_leb_put(o, mt_zigzag(step2 + 2, MT_PADDR_BITS) << 1);
                }
            }
        } else {
        if (runs)
            mb = NULL; /* a SAMPLE closes the open FETCHES packet */
        const unsigned match = h0 == a ? 0 : h1 == a ? 1 : h2 == a ? 2 : 3, key = match | rw << 2;
        if (key == prev && skip == 0 && run < MT_RUN_MAX) { /* prev never has match 3 */
            run++; /* absorbed into the run: no bytes (a SYNC may still be due: a marker's bytes) */
        } else {
            if (o > s->batch + sizeof s->batch - MT_PKT_MAX) { /* the bytes as put() would cut them */
                SAMPLES_SAVE();
                mt_swenc_flush(s);
                SAMPLES_LOAD();
            }
            uint8_t *q = o + 1;
            unsigned hdr = MT_HDR_SAMPLE | rw << 3, op = match;
            if (run) {
                hdr |= MT_SAMPLE_RUN;
                *q++ = (uint8_t)run;
                run = 0;
            }
            if (skip) {
                hdr |= MT_SAMPLE_SKIP;
                q += mt_leb_put(q, skip);
            }
            if (match == 3) {
                op = MT_OP_FULL;
                uint64_t v = a;
                if (h0 != HIST_EMPTY) {
                    const uint64_t z = mt_zigzag(a - h0, 56);
                    if (mt_leb_len_fast(z) < mt_leb_len_fast(a)) {
                        op = MT_OP_DELTA;
                        v = z;
                    }
                }
                q += mt_leb_put(q, v);
                h2 = h1;
                h1 = h0;
                h0 = a;
            }
            prev = (match == 3 ? 0 : match) | rw << 2; /* a new entry is entry 0 */
            *o = (uint8_t)(hdr | (op << 4));
            o = q;
        }
        }
        if ((uintptr_t)o >= o_due) {
            SAMPLES_SAVE();
            s->floor = cycle + 1;
            s->samples += (size_t)(p - r) + 1;
            s->last_sp = cycle;
            sync_pair(s, ptr); /* resets the compressor (mt_enc_reset) */
            s->samples -= (size_t)(p - r) + 1; /* counted once, below */
            SAMPLES_LOAD();
            h0 = h1 = h2 = HIST_EMPTY;
            prev = 8;
            run = 0;
        }
    }
    SAMPLES_SAVE();
#undef SAMPLES_SAVE
#undef SAMPLES_LOAD
    if (p > r) {
        s->floor = p[-1].cycle + 1;
        s->samples += (size_t)(p - r);
        s->last_sp = p[-1].cycle;
    }
    return rc;
}

/* mt_swenc_samples for the runs stream (docs/trace-format.md section 4.2).  A fetch one element
 * byte away from the open FETCHES packet (+2 or +4 bytes after the last element, at most
 * MT_FETCH_SKIP_MAX idle cycles after it, room in the packet) extends it; another fetch opens a
 * packet with its skip and its address as a delta from the last element; every other record is
 * an ordinary SAMPLE (mt_swenc_sample).  The cycles are the records' own, so the reader's sample
 * points are theirs by the packet rules whatever the code did between them. */
static int samples_runs(mt_swenc *s, const mt_access_rec *r, size_t n)
{
    if (s->rate != 1 || s->fmt != MT_FMT_FULL)
        return n ? -1 : 0;
    /* The open packet and the state its elements change in locals, written back before anything
     * else reads them (a SAMPLE, a SYNC) and at the end: the packet's byte stores may alias any
     * field of s, which kept the compiler reloading them per fetch. */
    uint64_t ptr, fa, last = s->last_sp, nf = 0;
    unsigned flen, more_at, more_bit;
    uint8_t pk[MT_PKT_MAX];
    uint32_t room; /* bytes before a SYNC is due, less the open packet's */
#define RUNS_LOAD()                                                                               \
    do {                                                                                          \
        ptr = s->ptr;                                                                             \
        fa = s->fa;                                                                               \
        flen = s->flen;                                                                           \
        more_at = s->fmore_at;                                                                    \
        more_bit = s->fmore_bit;                                                                  \
        memcpy(pk, s->fpkt, MT_PKT_MAX);                                                          \
        room = s->sync_bytes + flen >= s->sync_period ? 0 : s->sync_period - s->sync_bytes - flen; \
    } while (0)
#define RUNS_SAVE()                                                                               \
    do {                                                                                          \
        s->ptr = ptr;                                                                             \
        s->fa = fa;                                                                               \
        s->flen = (uint8_t)flen;                                                                  \
        s->fmore_at = (uint8_t)more_at;                                                           \
        s->fmore_bit = (uint8_t)more_bit;                                                         \
        memcpy(s->fpkt, pk, MT_PKT_MAX);                                                          \
        if (nf) {                                                                                 \
            s->samples += nf;                                                                     \
            s->last_sp = last;                                                                    \
            s->floor = last + 1;                                                                  \
            nf = 0;                                                                               \
        }                                                                                         \
    } while (0)
    RUNS_LOAD();
    for (size_t i = 0; i < n; i++) {
        const uint64_t cycle = r[i].cycle, ar = r[i].addr_rw;
        if (!(ar & MT_ACCESS_REC_FETCH)) {
            RUNS_SAVE();
            if (s->flen)
                fetches_close(s);
            const int rc = mt_swenc_sample(s, cycle, ar & MT_PADDR_MASK, (unsigned)(ar >> 63));
            RUNS_LOAD();
            if (rc != 0)
                return -1;
            continue;
        }
        const uint64_t skip = cycle - ptr, a = ar & MT_PADDR_MASK, step = a - fa;
        if (cycle < ptr || skip > MT_SKIP_MAX) {
            RUNS_SAVE();
            return -1;
        }
        const int seq = skip <= MT_FETCH_SKIP_MAX && (step == 2 || step == 4);
        if (seq && flen && flen < MT_PKT_MAX) {
            pk[more_at] |= (uint8_t)more_bit;
            more_at = flen;
            more_bit = MT_FETCH_ELEM_MORE;
            pk[flen++] = (uint8_t)(MT_FETCH_ELEM_ONE | (step == 4 ? MT_FETCH_ELEM_STEP4 : 0) | skip);
            room -= room != 0;
        } else {
            if (flen || s->enc.run_cnt) { /* the open packet, or the repeats the run absorbed */
                RUNS_SAVE();
                flush_run(s);
                RUNS_LOAD();
            }
            if (seq) { /* the short form */
                pk[0] = (uint8_t)(MT_FETCH_SHORT | (step == 4 ? MT_FETCH_ELEM_STEP4 : 0) | skip);
                flen = 1;
                more_at = 0;
                more_bit = MT_FETCH_SHORT_MORE;
            } else {
                uint8_t *q = pk;
                *q++ = MT_HDR_FETCHES;
                q += mt_leb_put(q, skip);
                more_at = (unsigned)(q - pk);
                more_bit = 1;
                q += mt_leb_put(q, mt_zigzag(a - fa, MT_PADDR_BITS) << 1);
                flen = (unsigned)(q - pk);
            }
            room = room > flen ? room - flen : 0;
        }
        fa = a;
        ptr = cycle + 1;
        last = cycle;
        nf++;
        if (!room) {
            RUNS_SAVE();
            sync_pair(s, s->ptr); /* closes the packet first (flush_run) */
            RUNS_LOAD();
        }
    }
    RUNS_SAVE();
#undef RUNS_LOAD
#undef RUNS_SAVE
    return 0;
}

int mt_swenc_samples(mt_swenc *s, const mt_access_rec *r, size_t n)
{
    if (s->ended || !s->have_section)
        return n ? -1 : 0;
    const int fast = s->rate == 1 && s->fmt == MT_FMT_FULL && s->batched && !s->enc.plain;
    if (s->runs)
        return fast ? samples_rate1_t(s, r, n, 1) : samples_runs(s, r, n);
    if (fast)
        return samples_rate1_t(s, r, n, 0);
    for (size_t i = 0; i < n; i++)
        if (mt_swenc_sample(s, r[i].cycle, r[i].addr_rw & ~MT_ACCESS_REC_WRITE, (unsigned)(r[i].addr_rw >> 63)) != 0)
            return -1;
    return 0;
}

static int meta(mt_swenc *s, uint8_t *b, size_t n)
{
    put(s, b, n);
    mt_swenc_flush(s);
    return 0;
}

int mt_swenc_marker(mt_swenc *s, uint32_t value)
{
    uint8_t b[MT_PKT_MAX];
    if (s->ended || !s->have_section)
        return -1;
    flush_run(s);
    return meta(s, b, mt_pkt_marker(b, value));
}

int mt_swenc_overflow(mt_swenc *s, uint32_t dropped)
{
    uint8_t b[MT_PKT_MAX];
    if (s->ended || !s->have_section || dropped == 0)
        return -1;
    flush_run(s);
    s->dropped = s->dropped + dropped < s->dropped ? UINT32_MAX : s->dropped + dropped;
    return meta(s, b, mt_pkt_overflow(b, dropped));
}

int mt_swenc_end(mt_swenc *s)
{
    uint8_t b[MT_PKT_MAX];
    if (s->ended)
        return -1;
    if (!s->have_section) { /* an empty session still says so */
        s->have_section = 1;
        sync_pair(s, 0);
    }
    flush_run(s);
    s->ended = 1;
    return meta(s, b, mt_pkt_end(b, s->samples, s->dropped));
}
