/* Online simulation of meta-paging configurations; see mpsim.h.
 *
 * FIFO, CLOCK and RANDOM (and LRU with MPSIM_LRU_EACH): one replacement core per configuration,
 * fed its size's collapsed reports.  The counts follow the meta-pager's fault path step by step
 * (emu/metapaging/metapager.c, fault_in) so that they are equal by construction to a real run,
 * and the tests check that they are.  LRU: one stack-distance pass for every budget of every
 * size (mpstack.h), tested equal to the per-configuration cores. */
#include "emu/metapaging/mpsim.h"
#include "emu/metapaging/mpstack.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MPSIM_MAX_CONFIGS 1024
#define MPSIM_RECENT 64 /* direct-mapped on the metapage number */

struct sim_one {
    struct mp_core core;
    struct mpsim_result r;
    unsigned pages_shift;
    uint8_t *stored; /* bitmap: metapage has been written back (or host-written) */
};

/* The per-configuration simulations of one metapage size.  Its reports are collapsed once more
 * at its own granularity (a repeat of the metapage last reported, unless a write follows a read
 * report: lossless for every policy, docs/metapaging.md), so the simulations of large metapages
 * see few reports.  Its LRU configurations are counted by the shared stack pass (stack_level)
 * unless the per-configuration method was asked for. */
struct size_group {
    unsigned pages_shift;
    bool last_w;            /* a write was forwarded since last_m became the current metapage */
    uint64_t last_m;        /* UINT64_MAX before the first report */
    int stack_level;        /* its size in the shared stack pass (mpstack.h), else -1 */
    size_t *members;        /* indices into sims of the per-configuration simulations */
    size_t n_members;
    /* The members' shortcut (none of them LRU): a metapage used since the members' last fault
     * is resident in every one of them (only a fault evicts), its CLOCK bit is still set (only
     * a fault's sweep clears it), and after a write there it is dirty in all.  Such a use
     * changes nothing in FIFO, CLOCK or RANDOM, so it skips them.  recent[] remembers, per
     * metapage slot, the members' fault count after its last use. */
    bool shortcut;
    uint64_t member_faults; /* faults of all members so far */
    struct recent_use {
        uint64_t m;         /* UINT64_MAX: none */
        uint64_t epoch;     /* member_faults just after that use */
        bool dirty;         /* dirty in every member then */
    } recent[MPSIM_RECENT];
};

struct mpsim {
    uint64_t ram_pages;
    uint64_t reports;       /* accesses inside RAM */
    size_t count;
    struct sim_one *sims;
    bool *by_stack;         /* per configuration: counted by the shared stack pass */
    size_t *group_of;
    struct size_group *groups;
    size_t n_groups;
    struct mpsim_result *results; /* filled by mpsim_result from the current state */
    struct mpstack *stack;  /* every LRU configuration of every size (MPSIM_LRU_STACK) */
    unsigned stack_shift;   /* its units: pages >> stack_shift (the smallest LRU size) */
    struct size_group **active; /* the groups with simulations of their own */
    size_t n_active;
};

bool mpsim_stack_units(const struct mpsim *sim, unsigned *unit_shift, uint64_t *ram_pages)
{
    if (!sim->stack || sim->n_active)
        return false;
    *unit_shift = sim->stack_shift;
    *ram_pages = sim->ram_pages;
    return true;
}

void mpsim_access_words(struct mpsim *sim, const uint64_t *words, size_t n)
{
    mpstack_access_words(sim->stack, words, n);
}

void mpsim_count_reports(struct mpsim *sim, uint64_t n)
{
    sim->reports += n;
}

/* Splits `field` (not NUL-terminated, length len) on '/', parsing each alternative. */
struct alternatives {
    uint64_t v[32];
    size_t n;
    bool range; /* an alternative was a LO..HI range */
};

static int parse_field(const char *field, size_t len, bool policy, struct alternatives *a,
                       const char *what, char *err, size_t errlen)
{
    a->n = 0;
    a->range = false;
    if (policy && len == 1 && field[0] == '*') {
        for (int p = 0; p < MP_POLICY_COUNT; p++)
            a->v[a->n++] = (uint64_t)p;
        return 0;
    }
    const char *s = field, *end = field + len;
    while (s <= end) {
        const char *slash = memchr(s, '/', (size_t)(end - s));
        const char *stop = slash ? slash : end;
        char tok[32];
        size_t n = (size_t)(stop - s);
        if (n == 0 || n >= sizeof tok || a->n == sizeof a->v / sizeof a->v[0]) {
            snprintf(err, errlen, "metapage configurations: bad %s '%.*s'", what, (int)len, field);
            return -1;
        }
        memcpy(tok, s, n);
        tok[n] = 0;
        if (policy) {
            mp_policy p;
            if (mp_policy_parse(tok, &p) != 0) {
                snprintf(err, errlen,
                         "metapage configurations: unknown policy '%s' (lru, fifo, clock, random)",
                         tok);
                return -1;
            }
            a->v[a->n++] = (uint64_t)p;
        } else if (strstr(tok, "..")) {
            /* LO..HI: every power of two times LO up to HI */
            char *dots = strstr(tok, "..");
            *dots = 0;
            uint64_t lo, hi;
            if (mp_parse_bytes(tok, &lo) != 0 || mp_parse_bytes(dots + 2, &hi) != 0 || lo == 0 ||
                hi < lo) {
                snprintf(err, errlen,
                         "metapage configurations: bad %s range '%.*s' (e.g. 4K..2M)", what,
                         (int)n, s);
                return -1;
            }
            a->range = true;
            for (uint64_t v = lo; v <= hi; v *= 2) {
                if (a->n == sizeof a->v / sizeof a->v[0]) {
                    snprintf(err, errlen, "metapage configurations: %s range '%.*s' is too long",
                             what, (int)n, s);
                    return -1;
                }
                a->v[a->n++] = v;
                if (v > UINT64_MAX / 2)
                    break;
            }
        } else if (mp_parse_bytes(tok, &a->v[a->n++]) != 0) {
            snprintf(err, errlen, "metapage configurations: bad %s '%s' (e.g. 64K, 8M)", what,
                     tok);
            return -1;
        }
        s = stop + 1;
    }
    return 0;
}

int mpsim_parse(const char *spec, struct mpsim_config **out, size_t *count, char *err,
                size_t errlen)
{
    *out = NULL;
    *count = 0;
    if (!spec || !*spec) {
        snprintf(err, errlen, "metapage configurations: empty list");
        return -1;
    }
    struct mpsim_config *list = NULL;
    size_t n = 0;
    const char *item = spec;
    for (;;) {
        const char *comma = strchr(item, ',');
        size_t len = comma ? (size_t)(comma - item) : strlen(item);
        const char *c1 = memchr(item, ':', len);
        const char *c2 = c1 ? memchr(c1 + 1, ':', len - (size_t)(c1 + 1 - item)) : NULL;
        if (!c1) {
            snprintf(err, errlen, "metapage configurations: '%.*s' is not SIZE:BUDGET[:POLICY]",
                     (int)len, item);
            goto fail;
        }
        const char *budget = c1 + 1, *item_end = item + len;
        size_t budget_len = (size_t)((c2 ? c2 : item_end) - budget);
        struct alternatives sizes, budgets, policies = {.v = {MP_LRU}, .n = 1};
        if (parse_field(item, (size_t)(c1 - item), false, &sizes, "size", err, errlen) != 0 ||
            parse_field(budget, budget_len, false, &budgets, "budget", err, errlen) != 0 ||
            (c2 && parse_field(c2 + 1, (size_t)(item_end - c2 - 1), true, &policies, "policy",
                               err, errlen) != 0))
            goto fail;
        for (size_t s = 0; s < sizes.n; s++)
            for (size_t b = 0; b < budgets.n; b++)
                for (size_t p = 0; p < policies.n; p++) {
                    /* Ranges cross every size with every budget: leave out the pairs that hold
                     * no metapage (a pair named explicitly is still refused at creation). */
                    if ((sizes.range || budgets.range) && budgets.v[b] < sizes.v[s])
                        continue;
                    if (n == MPSIM_MAX_CONFIGS) {
                        snprintf(err, errlen, "metapage configurations: more than %d",
                                 MPSIM_MAX_CONFIGS);
                        goto fail;
                    }
                    struct mpsim_config *grown = realloc(list, (n + 1) * sizeof *list);
                    if (!grown) {
                        snprintf(err, errlen, "out of memory");
                        goto fail;
                    }
                    list = grown;
                    list[n++] = (struct mpsim_config){sizes.v[s], budgets.v[b],
                                                      (mp_policy)policies.v[p]};
                }
        if (!comma)
            break;
        item = comma + 1;
    }
    *out = list;
    *count = n;
    return 0;
fail:
    free(list);
    return -1;
}

static unsigned log2u64(uint64_t v)
{
    unsigned s = 0;
    while ((UINT64_C(1) << s) < v)
        s++;
    return s;
}

struct mpsim *mpsim_create(uint64_t ram_bytes, const struct mpsim_config *cfgs, size_t count,
                           uint64_t seed, char *err, size_t errlen)
{
    return mpsim_create_method(ram_bytes, cfgs, count, seed, MPSIM_LRU_STACK, err, errlen);
}

static struct size_group *group_for(struct mpsim *sim, unsigned pages_shift)
{
    for (size_t g = 0; g < sim->n_groups; g++)
        if (sim->groups[g].pages_shift == pages_shift)
            return &sim->groups[g];
    struct size_group *g = &sim->groups[sim->n_groups++];
    g->pages_shift = pages_shift;
    g->shortcut = true; /* until an LRU core joins */
    g->last_m = UINT64_MAX;
    for (size_t i = 0; i < MPSIM_RECENT; i++)
        g->recent[i].m = UINT64_MAX;
    return g;
}

/* Sets up the stack pass over the resident counts of every size's LRU configurations
 * (mpstack.h), its units the smallest of those sizes. */
static int create_stack(struct mpsim *sim, uint64_t ram_bytes, char *err, size_t errlen)
{
    for (size_t gi = 0; gi < sim->n_groups; gi++) { /* sorted by size: smallest first */
        struct size_group *g = &sim->groups[gi];
        g->stack_level = -1;
        uint32_t c_min = UINT32_MAX, k_max = 0;
        for (size_t i = 0; i < sim->count; i++) {
            if (!sim->by_stack[i] || sim->group_of[i] != gi)
                continue;
            uint32_t n = sim->sims[i].r.resident_metapages;
            c_min = n < c_min ? n : c_min;
            k_max = n > k_max ? n : k_max;
        }
        if (!k_max)
            continue;
        if (!sim->stack) {
            if (!(sim->stack = mpstack_create())) {
                snprintf(err, errlen, "out of memory");
                return -1;
            }
            sim->stack_shift = g->pages_shift;
        }
        unsigned shift = g->pages_shift + MP_PAGE_SHIFT;
        uint64_t n_mp = (ram_bytes + (UINT64_C(1) << shift) - 1) >> shift;
        g->stack_level = mpstack_add_size(sim->stack, g->pages_shift - sim->stack_shift, n_mp,
                                          c_min, k_max, err, errlen);
        if (g->stack_level < 0)
            return -1;
    }
    return 0;
}

struct mpsim *mpsim_create_method(uint64_t ram_bytes, const struct mpsim_config *cfgs,
                                  size_t count, uint64_t seed, enum mpsim_lru_method method,
                                  char *err, size_t errlen)
{
    struct mpsim *sim = calloc(1, sizeof *sim);
    if (!sim || (count && (!(sim->sims = calloc(count, sizeof *sim->sims)) ||
                           !(sim->by_stack = calloc(count, sizeof *sim->by_stack)) ||
                           !(sim->group_of = calloc(count, sizeof *sim->group_of)) ||
                           !(sim->groups = calloc(count, sizeof *sim->groups)) ||
                           !(sim->results = calloc(count, sizeof *sim->results))))) {
        mpsim_destroy(sim);
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    sim->ram_pages = ram_bytes >> MP_PAGE_SHIFT;
    for (size_t i = 0; i < count; i++) {
        const struct mpsim_config *c = &cfgs[i];
        struct mp_config check = {.ram_bytes = ram_bytes, .metapage_bytes = c->metapage_bytes,
                                  .budget_bytes = c->budget_bytes, .policy = c->policy};
        char why[200];
        if (c->budget_bytes == 0) {
            snprintf(why, sizeof why, "a simulated budget must be given (not 0)");
            goto bad;
        }
        if (mp_config_check(&check, why, sizeof why) != 0)
            goto bad;
        struct sim_one *o = &sim->sims[i];
        unsigned shift = log2u64(c->metapage_bytes);
        uint64_t n_mp = (ram_bytes + c->metapage_bytes - 1) >> shift;
        bool stack = method == MPSIM_LRU_STACK && c->policy == MP_LRU;
        /* A stack-counted configuration has no core of its own: the stack pass counts it. */
        if (!stack && mp_core_init(&o->core, n_mp, c->budget_bytes >> shift, c->policy, seed, why,
                                   sizeof why) != 0)
            goto bad;
        sim->count = i + 1;
        o->pages_shift = shift - MP_PAGE_SHIFT;
        o->r.cfg = *c;
        uint64_t slots = c->budget_bytes >> shift;
        o->r.resident_metapages = (uint32_t)(slots < n_mp ? slots : n_mp);
        if (!stack && !(o->stored = calloc((size_t)(n_mp + 7) / 8, 1))) {
            snprintf(why, sizeof why, "out of memory");
            goto bad;
        }
        sim->by_stack[i] = stack;
        struct size_group *g = group_for(sim, o->pages_shift);
        sim->group_of[i] = (size_t)(g - sim->groups);
        if (!stack) {
            size_t *grown = realloc(g->members, (g->n_members + 1) * sizeof *grown);
            if (!grown) {
                snprintf(why, sizeof why, "out of memory");
                goto bad;
            }
            g->members = grown;
            g->members[g->n_members++] = i;
            if (c->policy == MP_LRU) /* a hit moves it to the front: not a no-op */
                g->shortcut = false;
        }
        continue;
    bad:
        snprintf(err, errlen, "metapage configuration %zu (%" PRIu64 ":%" PRIu64 ":%s): %s", i + 1,
                 c->metapage_bytes, c->budget_bytes, mp_policy_name(c->policy), why);
        mpsim_destroy(sim);
        return NULL;
    }
    /* Smallest metapage first: a report that is a repeat at one size is one at every larger. */
    for (size_t a = 1; a < sim->n_groups; a++)
        for (size_t b = a; b > 0 && sim->groups[b - 1].pages_shift > sim->groups[b].pages_shift;
             b--) {
            struct size_group t = sim->groups[b];
            sim->groups[b] = sim->groups[b - 1];
            sim->groups[b - 1] = t;
        }
    for (size_t i = 0; i < count; i++)
        for (size_t g = 0; g < sim->n_groups; g++)
            if (sim->groups[g].pages_shift == sim->sims[i].pages_shift)
                sim->group_of[i] = g;
    if (create_stack(sim, ram_bytes, err, errlen) != 0) {
        mpsim_destroy(sim);
        return NULL;
    }
    if (sim->n_groups && !(sim->active = calloc(sim->n_groups, sizeof *sim->active))) {
        mpsim_destroy(sim);
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    for (size_t g = 0; g < sim->n_groups; g++)
        if (sim->groups[g].n_members)
            sim->active[sim->n_active++] = &sim->groups[g];
    return sim;
}

void mpsim_destroy(struct mpsim *sim)
{
    if (!sim)
        return;
    for (size_t i = 0; i < sim->count; i++) {
        mp_core_free(&sim->sims[i].core);
        free(sim->sims[i].stored);
    }
    for (size_t g = 0; g < sim->n_groups; g++)
        free(sim->groups[g].members);
    mpstack_destroy(sim->stack);
    free(sim->active);
    free(sim->sims);
    free(sim->by_stack);
    free(sim->group_of);
    free(sim->groups);
    free(sim->results);
    free(sim);
}

/* One configuration's access; true on a fault. */
static bool access_one(struct sim_one *o, uint64_t m, bool is_write)
{
    struct mp_core *c = &o->core;
    uint32_t slot = mp_core_lookup(c, m);
    if (slot != MP_NO_SLOT) {
        mp_core_hit(c, slot, is_write);
        return false;
    }
    uint64_t size = o->r.cfg.metapage_bytes;
    slot = mp_core_choose(c);
    if (mp_core_slot_occupied(c, slot)) {
        const struct mp_slot *v = &c->slots[slot];
        if (v->dirty) {
            o->stored[v->metapage >> 3] |= (uint8_t)(1u << (v->metapage & 7));
            o->r.writebacks++;
            o->r.bytes_out += size;
        }
        o->r.evictions++;
    }
    if ((o->stored[m >> 3] >> (m & 7)) & 1) {
        o->r.backing_reads++;
        o->r.bytes_in += size;
    } else {
        o->r.zero_fills++;
    }
    mp_core_install(c, slot, m, is_write);
    o->r.faults++;
    return true;
}

/* The group's per-configuration simulations, skipped where the shortcut allows (out of line:
 * the loop over the sizes stays small enough to be inlined in the batch loop). */
static __attribute__((noinline)) void access_members(struct mpsim *sim, struct size_group *g,
                                                     uint64_t m, bool is_write)
{
    struct recent_use *e = &g->recent[m & (MPSIM_RECENT - 1)];
    bool all_hit = g->shortcut && e->m == m && e->epoch == g->member_faults;
    if (all_hit && (e->dirty || !is_write))
        return;
    for (size_t k = 0; k < g->n_members; k++)
        g->member_faults += access_one(&sim->sims[g->members[k]], m, is_write);
    /* after a fault in any member, dirty only when this use wrote */
    *e = (struct recent_use){.m = m, .epoch = g->member_faults,
                             .dirty = is_write || (all_hit && e->dirty)};
}

/* The per-configuration simulations' share of one report. */
static inline void access_groups(struct mpsim *sim, uint64_t page, bool is_write)
{
    for (size_t a = 0; a < sim->n_active; a++) {
        struct size_group *g = sim->active[a];
        uint64_t m = page >> g->pages_shift;
        if (m == g->last_m) {
            if (!is_write || g->last_w)
                return; /* a repeat here, so at every larger size too */
            g->last_w = true;
        } else {
            g->last_m = m;
            g->last_w = is_write;
        }
        access_members(sim, g, m, is_write);
    }
}

void mpsim_access(struct mpsim *sim, uint64_t page, bool is_write)
{
    if (page >= sim->ram_pages)
        return;
    sim->reports++;
    if (sim->stack)
        mpstack_access(sim->stack, page >> sim->stack_shift, is_write);
    access_groups(sim, page, is_write);
}

size_t mpsim_access_batch(struct mpsim *sim, const uint64_t *entries, size_t n, uint64_t first_pfn)
{
    /* The stack pass and the per-configuration simulations are independent: each takes the
     * whole batch in order. */
    size_t inside = 0;
    if (sim->stack)
        inside = mpstack_access_batch(sim->stack, entries, n, first_pfn, sim->ram_pages,
                                      sim->stack_shift);
    if (sim->n_active || !sim->stack) {
        inside = 0;
        for (size_t i = 0; i < n; i++) {
            uint64_t page = (entries[i] >> 1) - first_pfn;
            if (page < sim->ram_pages) {
                access_groups(sim, page, entries[i] & 1);
                inside++;
            }
        }
    }
    sim->reports += inside;
    return inside;
}

void mpsim_host_write(struct mpsim *sim, uint64_t offset, uint64_t len)
{
    uint64_t ram = sim->ram_pages << MP_PAGE_SHIFT;
    if (len == 0 || offset >= ram)
        return;
    if (len > ram - offset)
        len = ram - offset;
    for (size_t i = 0; i < sim->count; i++) {
        struct sim_one *o = &sim->sims[i];
        if (!o->stored)
            continue;
        unsigned shift = o->pages_shift + MP_PAGE_SHIFT;
        for (uint64_t m = offset >> shift; m <= (offset + len - 1) >> shift; m++)
            o->stored[m >> 3] |= (uint8_t)(1u << (m & 7));
    }
    for (size_t g = 0; g < sim->n_groups; g++) {
        const struct size_group *G = &sim->groups[g];
        if (G->stack_level < 0)
            continue;
        unsigned shift = G->pages_shift + MP_PAGE_SHIFT;
        for (uint64_t m = offset >> shift; m <= (offset + len - 1) >> shift; m++)
            mpstack_host_write(sim->stack, G->stack_level, m);
    }
}

size_t mpsim_count(const struct mpsim *sim)
{
    return sim->count;
}

const struct mpsim_result *mpsim_result(const struct mpsim *sim, size_t index)
{
    if (index >= sim->count)
        return NULL;
    const struct sim_one *o = &sim->sims[index];
    struct mpsim_result *r = &sim->results[index];
    *r = o->r;
    r->accesses = sim->reports;
    if (sim->by_stack[index]) {
        const struct size_group *g = &sim->groups[sim->group_of[index]];
        struct mpstack_counts c;
        mpstack_counts(sim->stack, g->stack_level, r->resident_metapages, &c);
        r->faults = c.faults;
        r->evictions = c.evictions;
        r->writebacks = c.writebacks;
        r->backing_reads = c.backing_reads;
        r->zero_fills = c.zero_fills;
        r->bytes_in = c.backing_reads * r->cfg.metapage_bytes;
        r->bytes_out = c.writebacks * r->cfg.metapage_bytes;
    }
    return r;
}
