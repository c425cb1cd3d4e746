/* OPT at a list of resident counts: the priority stack as bands of max-heaps (see header). */
#include "host/optbands.h"

#include <stdlib.h>
#include <string.h>

#include "host/grow.h"

#define NONE UINT32_MAX
#define BAND_OUT 0     /* not in the stack's top K (new, or pushed beyond K) */
#define BAND_TOP 0xff  /* level 1 */

typedef struct {
    uint32_t *ids;      /* max-heap of ids by rank */
    uint32_t n, alloc, cap; /* in use, allocated (grown as the band fills), levels of the band */
} band;

struct optbands {
    int n;                      /* bands 1..n: band 1 = levels 2..L_1, band j = (L_{j-1}, L_j] */
    uint32_t level[OPTBANDS_MAX + 1];
    band bands[OPTBANDS_MAX + 1];
    uint32_t top;               /* the id at level 1, NONE while empty */
    size_t nids, capids;
    uint64_t *rk;               /* rank of each id (current while it is in the stack) */
    uint32_t *hpos;             /* index in its band's heap */
    uint8_t *band_of;           /* BAND_OUT, 1..n, or BAND_TOP */
    uint8_t *maxb;              /* band of the deepest use after the page's last write (n+1:
                                   deeper than every level) */
    uint8_t *has_write;
    uint64_t accesses;
    uint64_t hist[OPTBANDS_MAX + 2];  /* hist[j]: uses found in band j (the top counts in 1) */
    int64_t wbdiff[OPTBANDS_MAX + 3]; /* difference array over bands of write-backs */
};

optbands *optbands_new(const uint32_t *levels, int n)
{
    if (n < 1 || n > OPTBANDS_MAX || levels[0] == 0)
        return NULL;
    for (int j = 1; j < n; j++)
        if (levels[j] <= levels[j - 1])
            return NULL;
    optbands *b = calloc(1, sizeof *b);
    if (!b)
        return NULL;
    b->n = n;
    b->top = NONE;
    for (int j = 1; j <= n; j++) {
        b->level[j] = levels[j - 1];
        b->bands[j].cap = levels[j - 1] - (j == 1 ? 1 : levels[j - 2]);
    }
    return b;
}

void optbands_free(optbands *b)
{
    if (!b)
        return;
    for (int j = 1; j <= b->n; j++)
        free(b->bands[j].ids);
    free(b->rk);
    free(b->hpos);
    free(b->band_of);
    free(b->maxb);
    free(b->has_write);
    free(b);
}

static int grow_ids(optbands *b)
{
    size_t cap = b->capids ? b->capids * 2 : 1024;
    if (!GROW_ARRAY(b->rk, cap) || !GROW_ARRAY(b->hpos, cap) || !GROW_ARRAY(b->band_of, cap) ||
        !GROW_ARRAY(b->maxb, cap) || !GROW_ARRAY(b->has_write, cap))
        return -1;
    b->capids = cap;
    return 0;
}

/* ---- one band's max-heap (positions kept in hpos) ---- */
static inline void heap_set(optbands *b, band *h, uint32_t i, uint32_t id)
{
    h->ids[i] = id;
    b->hpos[id] = i;
}

static void sift_up(optbands *b, band *h, uint32_t i)
{
    uint32_t id = h->ids[i];
    uint64_t r = b->rk[id];
    while (i > 0) {
        uint32_t p = (i - 1) / 2;
        if (b->rk[h->ids[p]] >= r)
            break;
        heap_set(b, h, i, h->ids[p]);
        i = p;
    }
    heap_set(b, h, i, id);
}

static void sift_down(optbands *b, band *h, uint32_t i)
{
    uint32_t id = h->ids[i], n = h->n;
    uint64_t r = b->rk[id];
    for (;;) {
        uint32_t l = 2 * i + 1, m = i;
        uint64_t mr = r;
        if (l < n && b->rk[h->ids[l]] > mr) {
            m = l;
            mr = b->rk[h->ids[l]];
        }
        if (l + 1 < n && b->rk[h->ids[l + 1]] > mr)
            m = l + 1;
        if (m == i)
            break;
        heap_set(b, h, i, h->ids[m]);
        i = m;
    }
    heap_set(b, h, i, id);
}

static int heap_insert(optbands *b, int j, uint32_t id)
{
    band *h = &b->bands[j];
    if (h->n == h->alloc) {
        uint32_t a = h->alloc ? h->alloc * 2 : 64;
        if (a > h->cap)
            a = h->cap;
        uint32_t *ids = realloc(h->ids, (size_t)a * sizeof *ids);
        if (!ids)
            return -1;
        h->ids = ids;
        h->alloc = a;
    }
    b->band_of[id] = (uint8_t)j;
    h->ids[h->n] = id;
    b->hpos[id] = h->n++;
    sift_up(b, h, h->n - 1);
    return 0;
}

static void heap_remove(optbands *b, int j, uint32_t id)
{
    band *h = &b->bands[j];
    uint32_t i = b->hpos[id], last = h->ids[--h->n];
    if (i == h->n)
        return;
    heap_set(b, h, i, last);
    if (i > 0 && b->rk[h->ids[(i - 1) / 2]] < b->rk[last])
        sift_up(b, h, i);
    else
        sift_down(b, h, i);
}

/* ---- accounting (host/stackdist.h's rule, over bands instead of levels) ---- */
static void count_evictions(optbands *b, uint32_t id, int db)
{
    /* evicted from the caches of the bands above db; a write-back for those from maxb on */
    if (!b->has_write[id])
        return;
    int lo = b->maxb[id] > 1 ? b->maxb[id] : 1, hi = db - 1;
    if (hi > b->n)
        hi = b->n;
    if (lo <= hi) {
        b->wbdiff[lo] += 1;
        b->wbdiff[hi + 1] -= 1;
    }
}

static int band_depth(const optbands *b, uint32_t id)
{
    uint8_t bo = b->band_of[id];
    return bo == BAND_TOP ? 1 : bo == BAND_OUT ? b->n + 1 : bo;
}

int optbands_access_id(optbands *b, uint32_t id, int write, uint64_t rank)
{
    int cold = id == b->nids;
    if (cold) {
        if (b->nids == b->capids && grow_ids(b) != 0)
            return -1;
        b->nids++;
        b->band_of[id] = BAND_OUT;
        b->maxb[id] = 0;
        b->has_write[id] = 0;
    }
    uint8_t was = b->band_of[id];
    int db = band_depth(b, id);
    if (was != BAND_TOP && was != BAND_OUT)
        heap_remove(b, was, id);
    uint32_t carry = was == BAND_TOP ? NONE : b->top;
    b->top = id;
    b->band_of[id] = BAND_TOP;
    b->rk[id] = rank;
    /* the old top down the bands: through every full band above the page's old one (the more
     * urgent stay), into the hole it left or the first band not yet full; beyond K it drops */
    for (int j = 1; carry != NONE && j <= b->n; j++) {
        band *h = &b->bands[j];
        if (h->cap == 0) /* L_1 = 1: band 1 has no level (the top is level 1) */
            continue;
        if (j == db || h->n < h->cap) {
            if (heap_insert(b, j, carry) != 0)
                return -1;
            carry = NONE;
            break;
        }
        uint32_t most = h->ids[0];
        if (b->rk[most] > b->rk[carry]) {
            b->band_of[carry] = (uint8_t)j;
            heap_set(b, h, 0, carry);
            sift_down(b, h, 0);
            carry = most;
        }
    }
    if (carry != NONE)
        b->band_of[carry] = BAND_OUT;
    b->accesses++;
    if (!cold) {
        if (db <= b->n)
            b->hist[db]++;
        count_evictions(b, id, db);
    }
    if (write) {
        b->has_write[id] = 1;
        b->maxb[id] = 0;
    } else if (db > b->maxb[id]) {
        b->maxb[id] = (uint8_t)db;
    }
    return 0;
}

void optbands_finish(optbands *b)
{
    for (uint32_t id = 0; id < b->nids; id++)
        count_evictions(b, id, band_depth(b, id));
}

int optbands_counts(const optbands *b, uint32_t resident, pg_counts *out)
{
    int j = 1;
    while (j <= b->n && b->level[j] != resident)
        j++;
    if (j > b->n)
        return -1;
    uint64_t hits = 0;
    int64_t wb = 0;
    for (int i = 1; i <= j; i++) {
        hits += b->hist[i];
        wb += b->wbdiff[i];
    }
    out->accesses = b->accesses;
    out->faults = b->accesses - hits;
    out->writebacks = (uint64_t)wb;
    return 0;
}
