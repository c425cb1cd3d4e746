/* FIFO and CLOCK at several resident counts of one metapage size (see header). */
#include "host/fifoclock.h"

#include <stdlib.h>
#include <string.h>

#include "host/grow.h"

/* A table entry: frame + 1 (0: not resident) and the page's bits in that configuration.  FIFO
 * never reads REF; setting it on every access keeps the hit path the same for both policies. */
#define FRAME_MASK FIFOCLOCK_MAX_FRAMES
#define REF (UINT32_C(1) << 31)
#define DIRTY (UINT32_C(1) << 30)

typedef struct {
    pg_policy policy;
    uint32_t cap;       /* frames */
    uint32_t hand;      /* FIFO: the oldest frame; CLOCK: the hand */
    uint32_t *page;     /* frame -> id (built when the configuration first becomes full) */
    uint64_t faults, writebacks;
} config;

struct fifoclock {
    int n;              /* configurations, by increasing frames: cfg[0 .. nfull-1] are full */
    int nfull;
    config *cfg;
    int *index;         /* caller's index -> position in cfg */
    uint32_t *tab;      /* tab[id * n + c]: configuration c's entry for page id */
    uint8_t *written;   /* page ever written: its dirty bit in a configuration not yet full */
    uint32_t nids, capids;
    uint64_t accesses;
};

fifoclock *fifoclock_new(const pg_policy *policy, const uint32_t *resident, int n)
{
    if (n < 1)
        return NULL;
    for (int i = 0; i < n; i++)
        if ((policy[i] != PG_FIFO && policy[i] != PG_CLOCK) || resident[i] == 0)
            return NULL;
    fifoclock *f = calloc(1, sizeof *f);
    if (!f)
        return NULL;
    f->n = n;
    f->cfg = calloc((size_t)n, sizeof *f->cfg);
    f->index = calloc((size_t)n, sizeof *f->index);
    if (!f->cfg || !f->index) {
        fifoclock_free(f);
        return NULL;
    }
    /* insertion by frames, stable: configurations become full in this order */
    for (int i = 0; i < n; i++) {
        int at = i;
        while (at > 0 && f->cfg[at - 1].cap > resident[i]) {
            f->cfg[at] = f->cfg[at - 1];
            at--;
        }
        f->cfg[at] = (config){.policy = policy[i], .cap = resident[i]};
    }
    /* the caller's index of each position: the same stable order again */
    for (int i = 0; i < n; i++) {
        int at = 0;
        for (int j = 0; j < n; j++)
            at += resident[j] < resident[i] || (resident[j] == resident[i] && j < i);
        f->index[i] = at;
    }
    return f;
}

void fifoclock_free(fifoclock *f)
{
    if (!f)
        return;
    for (int c = 0; f->cfg && c < f->n; c++)
        free(f->cfg[c].page);
    free(f->cfg);
    free(f->index);
    free(f->tab);
    free(f->written);
    free(f);
}

/* Configuration c (the next not full: c == nfull) has its nids == cap frames full: page i in
 * frame i, referenced, dirty iff ever written, the hand at 0, one cold fault per page. */
static int become_full(fifoclock *f, int c)
{
    config *g = &f->cfg[c];
    if (g->cap > FIFOCLOCK_MAX_FRAMES || !(g->page = malloc((size_t)g->cap * sizeof *g->page)))
        return -1;
    for (uint32_t i = 0; i < g->cap; i++) {
        g->page[i] = i;
        f->tab[(size_t)i * f->n + c] = (i + 1) | REF | (f->written[i] ? DIRTY : 0);
    }
    g->hand = 0;
    g->faults = g->cap;
    g->writebacks = 0;
    f->nfull++;
    return 0;
}

static int new_page(fifoclock *f)
{
    while (f->nfull < f->n && f->cfg[f->nfull].cap == f->nids)
        if (become_full(f, f->nfull) != 0)
            return -1;
    if (f->nids == f->capids) {
        if (f->capids > UINT32_MAX / 2)
            return -1;
        uint32_t cap = f->capids ? f->capids * 2 : 1024;
        if (!GROW_ARRAY(f->written, cap) || !grow_to(&f->tab, (size_t)cap * f->n, sizeof *f->tab))
            return -1;
        memset(f->tab + (size_t)f->capids * f->n, 0,
               (size_t)(cap - f->capids) * f->n * sizeof *f->tab);
        f->capids = cap;
    }
    f->written[f->nids++] = 0;
    return 0;
}

int fifoclock_access(fifoclock *f, uint32_t id, int write)
{
    if (id > f->nids)
        return -1; /* not a dense id */
    if (id == f->nids && new_page(f) != 0)
        return -1;
    f->accesses++;
    f->written[id] |= (uint8_t)(write != 0);
    uint32_t wbit = write ? DIRTY : 0, n = (uint32_t)f->n, *row = f->tab + (size_t)id * n;
    for (int c = 0; c < f->nfull; c++) {
        uint32_t e = row[c];
        if (e) {
            row[c] = e | REF | wbit;
            continue;
        }
        config *g = &f->cfg[c];
        g->faults++;
        uint32_t fr, *victim;
        for (;;) {
            fr = g->hand;
            g->hand = fr + 1 == g->cap ? 0 : fr + 1;
            victim = &f->tab[(size_t)g->page[fr] * n + c];
            if (g->policy == PG_FIFO || !(*victim & REF))
                break;
            *victim &= ~REF; /* CLOCK's second chance */
        }
        g->writebacks += (*victim & DIRTY) != 0;
        *victim = 0;
        g->page[fr] = id;
        row[c] = (fr + 1) | REF | wbit;
    }
    return 0;
}

void fifoclock_counts(const fifoclock *f, int i, pg_counts *out)
{
    const config *g = &f->cfg[f->index[i]];
    out->accesses = f->accesses;
    if (f->index[i] < f->nfull) {
        out->faults = g->faults;
        out->writebacks = g->writebacks;
    } else { /* never full: a cold fault per page, nothing evicted */
        out->faults = f->nids;
        out->writebacks = 0;
    }
}
