/* Per-configuration replacement simulations (see header). */
#include "host/simpolicy.h"

#include <stdlib.h>

#include "host/grow.h"
#include "host/u64map.h"

#define NIL UINT32_MAX

typedef struct {
    uint64_t rank;
    uint32_t frame;
} heap_entry;

struct policy_sim {
    pg_policy policy;
    uint32_t cap, used;
    uint32_t alloc;      /* frames allocated so far (grown up to cap as they fill) */
    int dense;           /* pages are dense ids: frame_of_id instead of frame_of */
    u64map frame_of;     /* page -> frame */
    uint32_t *frame_of_id; /* dense id -> frame + 1 (0 = not resident) */
    size_t nid;
    uint64_t *page;      /* frame -> page */
    uint8_t *dirty, *ref;
    uint32_t *prev, *next; /* LRU: recency list over frames, head = most recent */
    uint32_t head, tail;
    uint32_t hand;       /* FIFO: oldest frame; CLOCK: the hand */
    uint64_t *rank;      /* OPT: current rank of the page in each frame */
    heap_entry *heap;    /* OPT: max-heap of (rank, frame); stale entries skipped lazily */
    size_t nheap, capheap;
    pg_counts counts;
};

/* Frame arrays grow as frames fill, so a budget far above the trace's footprint costs nothing. */
static int grow_frames(policy_sim *s)
{
    uint64_t n = s->alloc ? (uint64_t)s->alloc * 2 : 1024;
    if (n > s->cap)
        n = s->cap;
    if (!GROW_ARRAY(s->page, n) || !GROW_ARRAY(s->dirty, n) || !GROW_ARRAY(s->ref, n) ||
        !GROW_ARRAY(s->prev, n) || !GROW_ARRAY(s->next, n) || !GROW_ARRAY(s->rank, n))
        return -1;
    s->alloc = (uint32_t)n;
    return 0;
}

policy_sim *policy_sim_new(pg_policy policy, uint32_t resident)
{
    if (resident == 0 || (unsigned)policy >= PG_COUNT)
        return NULL;
    policy_sim *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->policy = policy;
    s->cap = resident;
    s->head = s->tail = NIL;
    s->capheap = 64;
    s->heap = malloc(s->capheap * sizeof *s->heap);
    if (!s->heap || grow_frames(s) || u64map_init(&s->frame_of, 1024) != 0) {
        policy_sim_free(s);
        return NULL;
    }
    return s;
}

policy_sim *policy_sim_new_dense(pg_policy policy, uint32_t resident)
{
    policy_sim *s = policy_sim_new(policy, resident);
    if (s)
        s->dense = 1;
    return s;
}

void policy_sim_free(policy_sim *s)
{
    if (!s)
        return;
    free(s->frame_of_id);
    u64map_free(&s->frame_of);
    free(s->page);
    free(s->dirty);
    free(s->ref);
    free(s->prev);
    free(s->next);
    free(s->rank);
    free(s->heap);
    free(s);
}

/* ---- LRU list ---- */
static void list_unlink(policy_sim *s, uint32_t f)
{
    if (s->prev[f] != NIL) s->next[s->prev[f]] = s->next[f]; else s->head = s->next[f];
    if (s->next[f] != NIL) s->prev[s->next[f]] = s->prev[f]; else s->tail = s->prev[f];
}

static void list_push_front(policy_sim *s, uint32_t f)
{
    s->prev[f] = NIL;
    s->next[f] = s->head;
    if (s->head != NIL) s->prev[s->head] = f; else s->tail = f;
    s->head = f;
}

/* ---- OPT heap ---- */
static void heap_swap(heap_entry *a, heap_entry *b)
{
    heap_entry t = *a;
    *a = *b;
    *b = t;
}

static int heap_push(policy_sim *s, uint64_t rank, uint32_t frame)
{
    if (s->nheap == s->capheap) {
        /* Drop stale entries before growing: the heap stays O(resident). */
        size_t w = 0;
        for (size_t i = 0; i < s->nheap; i++) {
            heap_entry e = s->heap[i];
            if (e.frame < s->used && s->rank[e.frame] == e.rank)
                s->heap[w++] = e;
        }
        s->nheap = w;
        for (size_t i = w / 2; i-- > 0;) { /* re-heapify */
            size_t j = i;
            for (;;) {
                size_t l = 2 * j + 1, r = l + 1, m = j;
                if (l < w && s->heap[l].rank > s->heap[m].rank) m = l;
                if (r < w && s->heap[r].rank > s->heap[m].rank) m = r;
                if (m == j) break;
                heap_swap(&s->heap[j], &s->heap[m]);
                j = m;
            }
        }
        if (s->nheap * 2 > s->capheap) {
            heap_entry *h = realloc(s->heap, s->capheap * 2 * sizeof *h);
            if (!h)
                return -1;
            s->heap = h;
            s->capheap *= 2;
        }
    }
    size_t i = s->nheap++;
    s->heap[i] = (heap_entry){rank, frame};
    while (i > 0 && s->heap[(i - 1) / 2].rank < s->heap[i].rank) {
        heap_swap(&s->heap[i], &s->heap[(i - 1) / 2]);
        i = (i - 1) / 2;
    }
    return 0;
}

static uint32_t heap_pop_victim(policy_sim *s)
{
    for (;;) {
        heap_entry top = s->heap[0];
        s->heap[0] = s->heap[--s->nheap];
        size_t j = 0, n = s->nheap;
        for (;;) {
            size_t l = 2 * j + 1, r = l + 1, m = j;
            if (l < n && s->heap[l].rank > s->heap[m].rank) m = l;
            if (r < n && s->heap[r].rank > s->heap[m].rank) m = r;
            if (m == j) break;
            heap_swap(&s->heap[j], &s->heap[m]);
            j = m;
        }
        if (s->rank[top.frame] == top.rank) /* ranks are unique: equal means current */
            return top.frame;
    }
}

/* Chooses the frame to evict when all are in use. */
static uint32_t pick_victim(policy_sim *s)
{
    switch (s->policy) {
    case PG_LRU: return s->tail;
    case PG_FIFO: {
        uint32_t f = s->hand;
        s->hand = (s->hand + 1) % s->cap;
        return f;
    }
    case PG_CLOCK:
        while (s->ref[s->hand]) {
            s->ref[s->hand] = 0;
            s->hand = (s->hand + 1) % s->cap;
        }
        return s->hand;
    default: return heap_pop_victim(s);
    }
}

/* Resident table: frame of a page, or -1. */
static int64_t lookup(policy_sim *s, uint64_t page)
{
    if (s->dense)
        return page < s->nid && s->frame_of_id[page] ? (int64_t)s->frame_of_id[page] - 1 : -1;
    uint64_t *fp = u64map_get(&s->frame_of, page);
    return fp ? (int64_t)*fp : -1;
}

static int set_frame(policy_sim *s, uint64_t page, uint32_t f)
{
    if (!s->dense)
        return u64map_put(&s->frame_of, page, f, NULL) ? 0 : -1;
    if (page >= s->nid) {
        size_t n = s->nid ? s->nid : 1024;
        while (n <= page)
            n *= 2;
        uint32_t *a = realloc(s->frame_of_id, n * sizeof *a);
        if (!a)
            return -1;
        for (size_t i = s->nid; i < n; i++)
            a[i] = 0;
        s->frame_of_id = a;
        s->nid = n;
    }
    s->frame_of_id[page] = f + 1;
    return 0;
}

static void clear_frame(policy_sim *s, uint64_t page)
{
    if (s->dense)
        s->frame_of_id[page] = 0;
    else
        u64map_remove(&s->frame_of, page);
}

int policy_sim_access(policy_sim *s, uint64_t page, int write, uint64_t rank)
{
    s->counts.accesses++;
    int64_t found = lookup(s, page);
    int fault = found < 0;
    uint32_t f;
    if (!fault) {
        f = (uint32_t)found;
        if (s->policy == PG_LRU) {
            list_unlink(s, f);
            list_push_front(s, f);
        }
    } else {
        s->counts.faults++;
        if (s->used < s->cap) {
            if (s->used == s->alloc && grow_frames(s))
                return -1;
            f = s->used++;
        } else {
            f = pick_victim(s);
            if (s->dirty[f])
                s->counts.writebacks++;
            clear_frame(s, s->page[f]);
            if (s->policy == PG_LRU)
                list_unlink(s, f);
        }
        if (set_frame(s, page, f))
            return -1;
        s->page[f] = page;
        s->dirty[f] = 0;
        if (s->policy == PG_LRU)
            list_push_front(s, f);
        if (s->policy == PG_CLOCK && s->used == s->cap && f == s->hand)
            s->hand = (s->hand + 1) % s->cap; /* the hand passes the frame it just filled */
    }
    s->ref[f] = 1;
    if (write)
        s->dirty[f] = 1;
    if (s->policy == PG_OPT) {
        s->rank[f] = rank;
        if (heap_push(s, rank, f) != 0)
            return -1;
    }
    return fault;
}

void policy_sim_counts(const policy_sim *s, pg_counts *out)
{
    *out = s->counts;
}
