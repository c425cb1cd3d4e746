/* Span reconstruction methods (see header). */
#include "host/reconstruct.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host/median.h"
#include "host/spill.h"
#include "host/u64map.h"

#define PPN_BITS 44
#define PPN_MASK ((UINT64_C(1) << PPN_BITS) - 1)
#define GB_SHIFT 18 /* PPN[2] starts at PPN bit 18 */
#define RW_BIT (UINT64_C(1) << 63)

typedef struct {
    uint64_t start, end;  /* cycles of the first sample and just after the last */
    uint64_t rate;        /* from its SECTION, else the smallest gap between its samples */
    uint64_t median;      /* P-squared median of the page numbers */
    uint64_t first, n;    /* its kept samples: store[first .. first + n) */
    uint32_t *by_gb;      /* kept samples' indices sorted by gigabyte (built on demand) */
} burst_info;

typedef struct {
    burst_info *b;
    size_t n, cap;
    spill_vec store;      /* packed: page number | RW_BIT */
    uint64_t span_rate;   /* from a span SECTION, else the smallest gap between span samples */
} rc_summary;

const char *rc_method_name(rc_method m)
{
    static const char *const names[RC_COUNT] = {"seed", "gigabyte", "bracket", "drift"};
    return (unsigned)m < RC_COUNT ? names[m] : "?";
}

int rc_parse_method(const char *s, rc_method *out)
{
    for (int m = 0; m < RC_COUNT; m++)
        if (!strcmp(s, rc_method_name((rc_method)m))) {
            *out = (rc_method)m;
            return 0;
        }
    return -1;
}

void rc_defaults(rc_config *c)
{
    memset(c, 0, sizeof *c);
    c->method = RC_SEED;
    c->keep = UINT64_C(1) << 20;
}

static uint64_t page_of(const ht_record *r)
{
    return (r->addr >> 12) & PPN_MASK;
}

/* ---- pass 1 ---- */
static int summarise(ht_source *src, const rc_config *cfg, rc_summary *s, rc_stats *st, char *err,
                     size_t errlen)
{
    ht_record r;
    int got, in_burst = 0;
    p2_median med;
    uint64_t last_burst_cycle = 0, last_span_cycle = 0, span_gap = UINT64_MAX;
    int have_span_sample = 0;
    uint64_t section_rate = 0;
    while ((got = ht_next(src, &r)) == 1) {
        if (r.kind == HT_REC_SECTION) {
            /* A SECTION re-announces the current section after every SYNC: only a change from
             * span to burst opens a new burst. */
            if (r.section == HT_SEC_BURST) {
                section_rate = r.value;
            } else {
                in_burst = 0;
                if (r.value && !s->span_rate)
                    s->span_rate = r.value;
            }
            continue;
        }
        if (r.kind != HT_REC_SAMPLE)
            continue;
        if (r.section == HT_SEC_SPAN) {
            in_burst = 0;
            if (have_span_sample && r.cycle > last_span_cycle && r.cycle - last_span_cycle < span_gap)
                span_gap = r.cycle - last_span_cycle;
            have_span_sample = 1;
            last_span_cycle = r.cycle;
            continue;
        }
        if (!in_burst) {
            if (s->n) /* close the previous burst's median */
                s->b[s->n - 1].median = (uint64_t)llround(p2_value(&med));
            if (s->n == s->cap) {
                size_t cap = s->cap ? s->cap * 2 : 16;
                burst_info *b = realloc(s->b, cap * sizeof *b);
                if (!b) {
                    snprintf(err, errlen, "out of memory");
                    return -1;
                }
                s->b = b;
                s->cap = cap;
            }
            burst_info *b = &s->b[s->n++];
            memset(b, 0, sizeof *b);
            b->start = r.cycle;
            b->first = s->store.n;
            b->rate = section_rate;
            p2_init(&med);
            in_burst = 1;
            st->bursts++;
        } else {
            burst_info *b = &s->b[s->n - 1];
            uint64_t gap = r.cycle - last_burst_cycle;
            if (!section_rate && gap && (!b->rate || gap < b->rate))
                b->rate = gap;
        }
        burst_info *b = &s->b[s->n - 1];
        b->end = r.cycle + 1;
        last_burst_cycle = r.cycle;
        p2_add(&med, (double)page_of(&r));
        if (b->n < cfg->keep) {
            if (spill_push(&s->store, page_of(&r) | (r.write ? RW_BIT : 0))) {
                snprintf(err, errlen, "no space for the burst samples in %s",
                         cfg->tmpdir ? cfg->tmpdir : "$TMPDIR or /tmp");
                return -1;
            }
            b->n++;
        }
    }
    if (got < 0) {
        snprintf(err, errlen, "%s", src->err);
        return -1;
    }
    if (s->n)
        s->b[s->n - 1].median = (uint64_t)llround(p2_value(&med));
    if (!s->span_rate)
        s->span_rate = cfg->span_rate ? cfg->span_rate : span_gap != UINT64_MAX ? span_gap : 2048;
    else if (cfg->span_rate)
        s->span_rate = cfg->span_rate;
    for (size_t i = 0; i < s->n; i++)
        if (!s->b[i].rate)
            s->b[i].rate = 24; /* a one-sample burst: the seed's r_h */
    return 0;
}

/* ---- gigabyte index of a burst ---- */
typedef struct {
    const uint64_t *store;
} gb_ctx;

static int cmp_gb(const void *a, const void *b, void *ctx)
{
    const uint64_t *st = ((const gb_ctx *)ctx)->store;
    uint32_t i = *(const uint32_t *)a, j = *(const uint32_t *)b;
    uint64_t gi = (st[i] & PPN_MASK) >> GB_SHIFT, gj = (st[j] & PPN_MASK) >> GB_SHIFT;
    if (gi != gj)
        return gi < gj ? -1 : 1;
    return i < j ? -1 : i > j; /* stable: keep time order within a gigabyte */
}

static int build_gb_index(rc_summary *s, burst_info *b)
{
    if (b->by_gb || !b->n)
        return 0;
    b->by_gb = malloc(b->n * sizeof *b->by_gb);
    if (!b->by_gb)
        return -1;
    for (uint64_t i = 0; i < b->n; i++)
        b->by_gb[i] = (uint32_t)(b->first + i);
    gb_ctx ctx = {s->store.v};
    qsort_r(b->by_gb, b->n, sizeof *b->by_gb, cmp_gb, &ctx);
    return 0;
}

/* Range [*lo, *hi) of b->by_gb in gigabyte g; the whole burst when it never touched g. */
static void gb_range(const rc_summary *s, const burst_info *b, uint64_t g, uint64_t *lo, uint64_t *hi)
{
    uint64_t l = 0, h = b->n;
    while (l < h) { /* first index with gigabyte >= g */
        uint64_t m = (l + h) / 2;
        if (((s->store.v[b->by_gb[m]] & PPN_MASK) >> GB_SHIFT) < g) l = m + 1; else h = m;
    }
    uint64_t first = l;
    h = b->n;
    while (l < h) { /* first index with gigabyte > g */
        uint64_t m = (l + h) / 2;
        if (((s->store.v[b->by_gb[m]] & PPN_MASK) >> GB_SHIFT) <= g) l = m + 1; else h = m;
    }
    if (first == l) {
        *lo = 0;
        *hi = b->n;
    } else {
        *lo = first;
        *hi = l;
    }
}

/* ---- pass 2 ---- */
int reconstruct_run(ht_source *src, const rc_config *cfg, rc_emit emit, void *ctx, rc_stats *st,
                    char *err, size_t errlen)
{
    memset(st, 0, sizeof *st);
    rc_summary s;
    memset(&s, 0, sizeof s);
    if (spill_init(&s.store, cfg->tmpdir)) {
        snprintf(err, errlen, "cannot create a temporary file in %s",
                 cfg->tmpdir ? cfg->tmpdir : "$TMPDIR or /tmp");
        return -1;
    }
    int rc = -1;
    u64map cursor; /* (burst << 26 | gigabyte) -> replay position, for the continuing methods */
    if (u64map_init(&cursor, 64)) {
        spill_free(&s.store);
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    if (summarise(src, cfg, &s, st, err, errlen))
        goto done;
    if (ht_rewind(src)) {
        snprintf(err, errlen, "%s", src->err);
        goto done;
    }
    ht_record r;
    int got;
    size_t bursts_seen = 0; /* bursts started so far in pass 2 */
    int in_burst = 0, span_open = 0;
    uint64_t span_start = 0, out_rate = 24;
    while ((got = ht_next(src, &r)) == 1) {
        if (r.kind == HT_REC_SECTION) {
            if (r.section == HT_SEC_SPAN)
                in_burst = 0;
            continue; /* sections are re-emitted below where they begin */
        }
        if (r.kind != HT_REC_SAMPLE) {
            if (emit(ctx, &r))
                goto emitfail;
            continue;
        }
        if (r.section == HT_SEC_BURST) {
            if (!in_burst) {
                bursts_seen++;
                in_burst = 1;
                span_open = 0;
                ht_record sec = {.cycle = r.cycle, .kind = HT_REC_SECTION, .section = HT_SEC_BURST,
                                 .format = r.format, .value = s.b[bursts_seen - 1].rate};
                if (emit(ctx, &sec))
                    goto emitfail;
            }
            st->burst_samples++;
            st->out_samples++;
            if (emit(ctx, &r))
                goto emitfail;
            continue;
        }
        /* a span sample */
        in_burst = 0;
        st->span_samples++;
        burst_info *prev = bursts_seen ? &s.b[bursts_seen - 1] : NULL;
        burst_info *next = bursts_seen < s.n ? &s.b[bursts_seen] : NULL;
        if (!span_open) {
            /* One output grid for the whole span, continuing the preceding burst's grid
             * (origin = its first sample point): the span's first sample point is then never
             * before the end of the burst's last interval. */
            span_open = 1;
            out_rate = cfg->rate ? cfg->rate : prev ? prev->rate : next ? next->rate : 24;
            uint64_t origin = prev && prev->start <= r.cycle ? prev->start : r.cycle;
            span_start = origin + (r.cycle - origin + out_rate - 1) / out_rate * out_rate;
            st->spans++;
            ht_record sec = {.cycle = span_start, .kind = HT_REC_SECTION, .section = HT_SEC_SPAN,
                             .format = HT_FMT_48, .value = out_rate};
            if (emit(ctx, &sec))
                goto emitfail;
        }
        burst_info *src_b = prev;
        if ((cfg->method == RC_BRACKET || cfg->method == RC_DRIFT) && next && (!prev || r.cycle - span_start >= (next->start - span_start) / 2))
            src_b = next;
        if (!src_b)
            src_b = next; /* a span before any burst: the only witness is the one after */
        uint64_t rate = out_rate;
        uint64_t first_slot = r.cycle <= span_start ? span_start
                              : span_start + (r.cycle - span_start + rate - 1) / rate * rate;
        /* up to the end of the span sample's interval, and every output interval ends before
         * the next burst's first sample point */
        uint64_t end = r.cycle + s.span_rate;
        if (next && next->start > r.cycle && next->start - rate + 1 < end)
            end = next->start >= rate ? next->start - rate + 1 : 0;
        if (!src_b || !src_b->n) {
            st->no_burst++;
            st->out_samples++;
            if (emit(ctx, &r))
                goto emitfail;
            continue;
        }
        uint64_t named_gb = (r.addr >> 30) & ((UINT64_C(1) << 26) - 1);
        int coarse = r.format == HT_FMT_32;
        uint64_t lo = 0, hi = src_b->n, *cur = NULL;
        if (cfg->method != RC_SEED) {
            if (build_gb_index(&s, src_b)) {
                snprintf(err, errlen, "out of memory");
                goto done;
            }
            gb_range(&s, src_b, named_gb, &lo, &hi);
            uint64_t key = ((uint64_t)(src_b - s.b) << 26) | named_gb;
            cur = u64map_put(&cursor, key, lo, NULL);
            if (!cur) {
                snprintf(err, errlen, "out of memory");
                goto done;
            }
            if (*cur < lo || *cur >= hi)
                *cur = lo;
        }
        /* drift: the working set moves between the bursts; its median page moves by
         * (next.median - prev.median) between their midpoints.  Shift the replayed pages by
         * that slope times the distance in time from the replayed burst's midpoint. */
        double slope = 0;
        if (cfg->method == RC_DRIFT && prev && next && prev != next) {
            double pm = (prev->start + prev->end) / 2.0, nm = (next->start + next->end) / 2.0;
            if (nm > pm)
                slope = ((double)next->median - (double)prev->median) / (nm - pm);
        }
        double src_mid = (src_b->start + src_b->end) / 2.0;
        uint64_t k = 0;
        for (uint64_t t = first_slot; t < end; t += rate, k++) {
            uint64_t packed, ppn;
            if (cfg->method == RC_SEED) {
                packed = s.store.v[src_b->first + k % src_b->n];
                /* a'_b + (v_i - a_b), modulo the 44-bit page number */
                uint64_t base = coarse ? named_gb << GB_SHIFT : page_of(&r);
                ppn = (base + (packed & PPN_MASK) - src_b->median) & PPN_MASK;
            } else {
                packed = s.store.v[src_b->by_gb[*cur]];
                if (++*cur >= hi)
                    *cur = lo;
                uint64_t within = (packed & PPN_MASK) & ((UINT64_C(1) << GB_SHIFT) - 1);
                if (slope != 0) {
                    double w = (double)within + slope * ((double)t - src_mid);
                    double top = (double)((UINT64_C(1) << GB_SHIFT) - 1);
                    within = w < 0 ? 0 : w > top ? (uint64_t)top : (uint64_t)llround(w);
                }
                ppn = (named_gb << GB_SHIFT) | within;
                if (!coarse && k == 0)
                    ppn = page_of(&r); /* the sample itself is exact */
            }
            ht_record o = {.cycle = t, .addr = ppn << 12, .kind = HT_REC_SAMPLE,
                           .write = (uint8_t)((packed & RW_BIT) != 0), .format = HT_FMT_48,
                           .section = HT_SEC_SPAN};
            if (coarse && (ppn >> GB_SHIFT) != named_gb)
                st->outside_gigabyte++;
            st->out_samples++;
            if (emit(ctx, &o))
                goto emitfail;
        }
    }
    if (got < 0) {
        snprintf(err, errlen, "%s", src->err);
        goto done;
    }
    rc = 0;
    goto done;
emitfail:
    snprintf(err, errlen, "writing the reconstruction failed");
done:
    for (size_t i = 0; i < s.n; i++)
        free(s.b[i].by_gb);
    free(s.b);
    spill_free(&s.store);
    u64map_free(&cursor);
    return rc;
}
