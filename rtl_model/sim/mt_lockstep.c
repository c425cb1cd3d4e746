/* Lockstep co-simulation, model vs RTL: see mt_lockstep.h. */
#include "rtl_model/sim/mt_lockstep.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "rtl_model/sim/pktctx.h"

/* Output kept for reports: the bytes not yet compared on each side, and the last KEEP bytes that
 * were (so a report can show the packets before the difference). */
#define KEEP 256
#define RECENT 24

typedef struct {
    uint8_t *p;
    size_t n, cap;
} bytes_t;

typedef struct {
    char type; /* 'a' access, 'w' write, 'r' read */
    uint64_t cycle, addr;
    uint32_t off, val, val2;
    uint8_t write, kind, tap;
} input_t;

struct mt_lockstep {
    mt_unit u;
    mt_rtl *r;
    mt_sink_fn user_sink;
    void *user_ctx;
    FILE *report;
    bytes_t mb, rb;          /* uncompared output, each side */
    uint8_t kept[KEEP];      /* the last compared bytes */
    size_t nkept;
    uint64_t compared;       /* stream offset of mb.p[0] / rb.p[0] */
    input_t in[RECENT];
    unsigned nin;
    int diverged;
};

static int add(bytes_t *b, const uint8_t *p, size_t n)
{
    if (b->n + n > b->cap) {
        size_t cap = b->cap ? b->cap : 4096;
        while (cap < b->n + n)
            cap *= 2;
        uint8_t *q = realloc(b->p, cap);
        if (!q)
            return -1;
        b->p = q;
        b->cap = cap;
    }
    if (n)
        memcpy(b->p + b->n, p, n);
    b->n += n;
    return 0;
}

static void model_sink(void *ctx, const uint8_t *p, size_t n)
{
    mt_lockstep *l = ctx;
    if (add(&l->mb, p, n))
        l->diverged = 1; /* out of memory: stop comparing rather than report nonsense */
    if (l->user_sink)
        l->user_sink(l->user_ctx, p, n);
}

static void remember(mt_lockstep *l, const input_t *e) { l->in[l->nin++ % RECENT] = *e; }

static void report(mt_lockstep *l, uint64_t cycle, const char *what)
{
    FILE *f = l->report ? l->report : stderr;
    l->diverged = 1;
    fprintf(f, "trace unit lockstep: model and RTL DIVERGE at cycle %" PRIu64 ": %s\n", cycle, what);
    /* Let both drain what their FIFOs hold, so that the differing packets show. */
    uint64_t more = (l->u.fifo.occ + l->u.p.drain - 1) / l->u.p.drain + 1;
    mt_unit_advance(&l->u, cycle + more);
    mt_rtl_advance(l->r, cycle + more);
    uint8_t tmp[1024];
    size_t k;
    while ((k = mt_rtl_pop(l->r, tmp, sizeof tmp)) > 0)
        add(&l->rb, tmp, k);
    /* context = kept compared bytes + each side's uncompared bytes */
    bytes_t sides[2] = {{0}, {0}};
    const bytes_t *src[2] = {&l->mb, &l->rb};
    for (int s = 0; s < 2; s++) {
        add(&sides[s], l->kept, l->nkept);
        add(&sides[s], src[s]->p, src[s]->n);
    }
    size_t n = sides[0].n < sides[1].n ? sides[0].n : sides[1].n, at = l->nkept;
    while (at < n && sides[0].p[at] == sides[1].p[at])
        at++;
    uint64_t base = l->compared - l->nkept;
    fprintf(f, "  first differing byte at stream offset %" PRIu64 " (model %" PRIu64 " bytes, rtl %" PRIu64
               " bytes so far); packets (offsets from %" PRIu64 ", the window may start mid-packet):\n",
            base + at, base + sides[0].n, base + sides[1].n, base);
    pktctx_print(f, "model", sides[0].p, sides[0].n, at, 3);
    pktctx_print(f, "rtl  ", sides[1].p, sides[1].n, at, 3);
    fprintf(f, "  recent inputs (oldest first):\n");
    for (unsigned i = l->nin > RECENT ? l->nin - RECENT : 0; i < l->nin; i++) {
        const input_t *e = &l->in[i % RECENT];
        if (e->type == 'a')
            fprintf(f, "    cycle %" PRIu64 ": access 0x%014" PRIx64 " %s kind %u tap %u\n", e->cycle, e->addr,
                    e->write ? "W" : "R", e->kind, e->tap);
        else if (e->type == 'w')
            fprintf(f, "    cycle %" PRIu64 ": register write 0x%03x = 0x%08x\n", e->cycle, e->off, e->val);
        else
            fprintf(f, "    cycle %" PRIu64 ": register read 0x%03x: model 0x%08x rtl 0x%08x\n", e->cycle, e->off,
                    e->val, e->val2);
    }
    free(sides[0].p);
    free(sides[1].p);
}

/* Compares what both have output; keeps the tail for context. */
static int compare(mt_lockstep *l, uint64_t cycle)
{
    uint8_t tmp[1024];
    size_t k;
    while ((k = mt_rtl_pop(l->r, tmp, sizeof tmp)) > 0)
        if (add(&l->rb, tmp, k))
            return -1;
    size_t n = l->mb.n < l->rb.n ? l->mb.n : l->rb.n;
    int same = n == 0 || !memcmp(l->mb.p, l->rb.p, n);
    if (!same || l->mb.n != l->rb.n || mt_rtl_fifo_level(l->r) != l->u.fifo.occ) {
        char what[96];
        if (same && l->mb.n == l->rb.n)
            snprintf(what, sizeof what, "FIFO level: model %u, rtl %u", l->u.fifo.occ, mt_rtl_fifo_level(l->r));
        else
            snprintf(what, sizeof what, "output bytes differ");
        report(l, cycle, what);
        return -1;
    }
    /* all n bytes agree: keep the last KEEP of them, drop them from both buffers */
    if (n >= KEEP) {
        memcpy(l->kept, l->mb.p + n - KEEP, KEEP);
        l->nkept = KEEP;
    } else if (n) {
        size_t keep = l->nkept + n > KEEP ? KEEP - n : l->nkept;
        memmove(l->kept, l->kept + l->nkept - keep, keep);
        memcpy(l->kept + keep, l->mb.p, n);
        l->nkept = keep + n;
    }
    if (n) {
        memmove(l->mb.p, l->mb.p + n, l->mb.n - n);
        l->mb.n -= n;
        memmove(l->rb.p, l->rb.p + n, l->rb.n - n);
        l->rb.n -= n;
        l->compared += n;
    }
    return 0;
}

/* Both sides at the start of `cycle`: the tap an access of it is compared with is the same (the
 * model's mt_unit_tap, the RTL's registers).  A caller that picks accesses by the tap (the
 * emulator's hook) relies on it; the output comparison alone would only see a difference once a
 * capture went missing. */
static int same_tap(mt_lockstep *l, uint64_t cycle)
{
    if (l->u.now != cycle || mt_rtl_now(l->r) != cycle)
        return 0;
    const int rt = mt_rtl_tap(l->r);
    const unsigned mt = mt_unit_tap(&l->u);
    if (rt < 0 || (unsigned)rt == mt)
        return 0;
    char what[96];
    snprintf(what, sizeof what, "the tap an access is compared with: model %u, rtl %d", mt, rt);
    report(l, cycle, what);
    return -1;
}

static int sync_to(mt_lockstep *l, uint64_t cycle)
{
    if (l->diverged)
        return -1;
    mt_unit_advance(&l->u, cycle);
    mt_rtl_advance(l->r, cycle);
    if (compare(l, cycle))
        return -1;
    return same_tap(l, cycle);
}

mt_lockstep *mt_lockstep_create(const mt_unit_params *params, FILE *rep)
{
    mt_lockstep *l = calloc(1, sizeof *l);
    if (!l)
        return NULL;
    mt_unit_params p = {0};
    if (params)
        p = *params;
    l->user_sink = p.sink;
    l->user_ctx = p.sink_ctx;
    p.sink = model_sink;
    p.sink_ctx = l;
    l->report = rep;
    if (mt_unit_init(&l->u, &p)) {
        free(l);
        return NULL;
    }
    l->r = mt_rtl_create(l->u.p.depth, l->u.p.drain, NULL);
    if (!l->r) {
        mt_unit_free(&l->u);
        free(l);
        return NULL;
    }
    return l;
}

int mt_lockstep_waves(mt_lockstep *l, const char *fst_path, uint64_t from, uint64_t to)
{
    mt_rtl *r = mt_rtl_create(l->u.p.depth, l->u.p.drain, fst_path);
    if (!r)
        return -1;
    mt_rtl_wave_window(r, from, to);
    mt_rtl_destroy(l->r);
    l->r = r;
    return 0;
}

void mt_lockstep_destroy(mt_lockstep *l)
{
    if (!l)
        return;
    mt_rtl_destroy(l->r);
    mt_unit_free(&l->u);
    free(l->mb.p);
    free(l->rb.p);
    free(l);
}

int mt_lockstep_access(mt_lockstep *l, const mt_access *a)
{
    if (sync_to(l, a->cycle))
        return -1;
    input_t e = {.type = 'a', .cycle = a->cycle, .addr = a->addr, .write = a->write, .kind = a->kind, .tap = a->tap};
    remember(l, &e);
    mt_unit_access(&l->u, a);
    /* An access in the past or a second one in a cycle: the model ignores it (and sets
     * STATUS.ERR_ORDER), the RTL's port cannot carry it; both go on as if it never came. */
    (void)mt_rtl_access(l->r, a);
    return 0;
}

int mt_lockstep_mmio_write(mt_lockstep *l, uint64_t cycle, uint32_t off, uint32_t val)
{
    if (sync_to(l, cycle))
        return -1;
    input_t e = {.type = 'w', .cycle = cycle, .off = off, .val = val};
    remember(l, &e);
    mt_unit_mmio_write(&l->u, cycle, off, val);
    if (mt_rtl_mmio_write(l->r, cycle, off, val)) {
        report(l, cycle, "the RTL refused the register write (its one MMIO port is busy this cycle)");
        return -1;
    }
    return 0;
}

uint32_t mt_lockstep_mmio_read(mt_lockstep *l, uint64_t cycle, uint32_t off, int *ok)
{
    int good = sync_to(l, cycle) == 0;
    uint32_t a = mt_unit_mmio_read(&l->u, cycle, off);
    if (good) {
        uint32_t b = mt_rtl_mmio_read(l->r, cycle, off);
        input_t e = {.type = 'r', .cycle = cycle, .off = off, .val = a, .val2 = b};
        remember(l, &e);
        if (a != b && !(off == MT_REG_STATUS && ((a ^ b) == MT_STATUS_ERR_ORDER))) {
            char what[96];
            snprintf(what, sizeof what, "register 0x%03x reads 0x%08x in the model, 0x%08x in the RTL", off, a, b);
            report(l, cycle, what);
            good = 0;
        }
    }
    if (ok)
        *ok = good;
    return a;
}

int mt_lockstep_advance(mt_lockstep *l, uint64_t cycle) { return sync_to(l, cycle); }

unsigned mt_lockstep_tap_at(mt_lockstep *l, uint64_t cycle, int *ok)
{
    int good = 1;
    if (l->u.nwrites && cycle > l->u.now) /* as mt_unit_settle, on both sides */
        good = sync_to(l, cycle) == 0;
    if (ok)
        *ok = good && !l->diverged;
    return mt_unit_tap(&l->u);
}

int mt_lockstep_stop(mt_lockstep *l, uint64_t cycle, uint64_t *idle)
{
    if (sync_to(l, cycle))
        return -1;
    uint64_t end = mt_unit_stop(&l->u, cycle);
    mt_rtl_mmio_write(l->r, cycle, MT_REG_CTRL, 0);
    if (idle)
        *idle = end;
    if (sync_to(l, end))
        return -1;
    uint32_t s = mt_rtl_mmio_read(l->r, end, MT_REG_STATUS);
    if ((s & (MT_STATUS_BUSY | MT_STATUS_ACTIVE)) || !(s & MT_STATUS_FIFO_EMPTY)) {
        report(l, end, "the RTL is still busy when the model is idle");
        return -1;
    }
    return 0;
}

int mt_lockstep_diverged(const mt_lockstep *l) { return l->diverged; }
uint64_t mt_lockstep_bytes(const mt_lockstep *l) { return l->compared; }
mt_unit *mt_lockstep_model(mt_lockstep *l) { return &l->u; }
mt_rtl *mt_lockstep_rtl(mt_lockstep *l) { return l->r; }
