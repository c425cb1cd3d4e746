/* Online simulation of meta-paging configurations; see mpsim.h.
 *
 * Simplest correct: one replacement core per configuration, each fed every access.  The counts
 * follow the meta-pager's fault path step by step (emu/metapaging/metapager.c, fault_in) so that they are
 * equal by construction to a real run, and the tests check that they are. */
#include "emu/metapaging/mpsim.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MPSIM_MAX_CONFIGS 1024

struct sim_one {
    struct mp_core core;
    struct mpsim_result r;
    unsigned pages_shift;
    uint8_t *stored; /* bitmap: metapage has been written back (or host-written) */
};

struct mpsim {
    uint64_t ram_pages;
    size_t count;
    struct sim_one *sims;
};

/* Splits `field` (not NUL-terminated, length len) on '/', parsing each alternative. */
struct alternatives {
    uint64_t v[32];
    size_t n;
};

static int parse_field(const char *field, size_t len, bool policy, struct alternatives *a,
                       const char *what, char *err, size_t errlen)
{
    a->n = 0;
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
    struct mpsim *sim = calloc(1, sizeof *sim);
    if (!sim || (count && !(sim->sims = calloc(count, sizeof *sim->sims)))) {
        free(sim);
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
        if (mp_core_init(&o->core, n_mp, c->budget_bytes >> shift, c->policy, seed, why,
                         sizeof why) != 0)
            goto bad;
        sim->count = i + 1;
        o->pages_shift = shift - MP_PAGE_SHIFT;
        o->stored = calloc((size_t)(n_mp + 7) / 8, 1);
        if (!o->stored) {
            snprintf(why, sizeof why, "out of memory");
            goto bad;
        }
        o->r.cfg = *c;
        o->r.resident_metapages = o->core.n_slots;
        continue;
    bad:
        snprintf(err, errlen, "metapage configuration %zu (%" PRIu64 ":%" PRIu64 ":%s): %s", i + 1,
                 c->metapage_bytes, c->budget_bytes, mp_policy_name(c->policy), why);
        mpsim_destroy(sim);
        return NULL;
    }
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
    free(sim->sims);
    free(sim);
}

static void access_one(struct sim_one *o, uint64_t page, bool is_write)
{
    struct mp_core *c = &o->core;
    uint64_t m = page >> o->pages_shift;
    o->r.accesses++;
    uint32_t slot = mp_core_lookup(c, m);
    if (slot != MP_NO_SLOT) {
        mp_core_hit(c, slot, is_write);
        return;
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
}

void mpsim_access(struct mpsim *sim, uint64_t page, bool is_write)
{
    if (page >= sim->ram_pages)
        return;
    for (size_t i = 0; i < sim->count; i++)
        access_one(&sim->sims[i], page, is_write);
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
        unsigned shift = o->pages_shift + MP_PAGE_SHIFT;
        for (uint64_t m = offset >> shift; m <= (offset + len - 1) >> shift; m++)
            o->stored[m >> 3] |= (uint8_t)(1u << (m & 7));
    }
}

size_t mpsim_count(const struct mpsim *sim)
{
    return sim->count;
}

const struct mpsim_result *mpsim_result(const struct mpsim *sim, size_t index)
{
    return index < sim->count ? &sim->sims[index].r : NULL;
}
