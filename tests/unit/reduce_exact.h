/* The reduce mode's exactness check, shared by the tests of lib/mt_reduce and of the unit's reduce
 * path (lib/mt_unit_reduce): LRU and OPT fault counts of the full trace against those of its
 * reduced records, at every metapage size and every budget from k_i metapages (the contract's
 * smallest) to one more than the trace touches. Needs cmocka, host/policy.h, host/tracemode.h and
 * mt_reduce.h included first. */
#ifndef REDUCE_EXACT_H
#define REDUCE_EXACT_H

/* Faults of `policy` at (size, budget) in a result. */
static uint64_t rx_faults_of(const policy_result *r, pg_policy p, uint64_t size, uint64_t budget)
{
    for (size_t i = 0; i < r->n; i++)
        if (r->rows[i].policy == p && r->rows[i].size == size && r->rows[i].budget == budget)
            return r->rows[i].c.faults;
    fail_msg("no row for %s size %lu budget %lu", pg_policy_name(p), (unsigned long)size,
             (unsigned long)budget);
    return 0;
}

/* Distinct metapages of size s in a trace. */
static uint64_t rx_distinct(const uint64_t *addr, size_t n, uint64_t s)
{
    uint64_t *v = malloc((n ? n : 1) * sizeof *v);
    size_t m = 0;
    for (size_t i = 0; i < n; i++) {
        uint64_t p = addr[i] / s;
        size_t j = 0;
        while (j < m && v[j] != p)
            j++;
        if (j == m)
            v[m++] = p;
    }
    free(v);
    return m;
}

/* Full (addr/rw, n accesses) against the reduced records red[0..nred) for every size and every
 * budget >= max(B, s); returns the number of (size, budget, policy) mismatches (0 when the
 * reduction is exact) and counts the configurations in *configs. Every row of the reduced trace
 * must be labelled exact. */
static int reduce_exact_mismatches(const uint64_t *addr, const uint8_t *rw, size_t n, uint64_t budget_b,
                                   const ht_record *red, size_t nred, int *configs)
{
    ht_record *full = malloc(n * sizeof *full);
    for (size_t i = 0; i < n; i++)
        full[i] = ht_full_sample(i, addr[i], rw[i]);
    trace_mode_info tm = {.mode = TM_REDUCE, .reduce_budget = budget_b};
    trace_mode_info tb = {.mode = TM_BURST};
    int bad = 0;
    for (unsigned i = 0; i < MT_REDUCE_SIZES; i++) {
        uint64_t s = UINT64_C(4096) << i;
        policy_config cfg;
        policy_defaults(&cfg);
        cfg.tmpdir = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : NULL; /* OPT's spill files */
        cfg.nsizes = 1;
        cfg.sizes[0] = s;
        memset(cfg.enabled, 0, sizeof cfg.enabled);
        cfg.enabled[PG_LRU] = cfg.enabled[PG_OPT] = 1;
        uint64_t lo = mt_reduce_k(budget_b, i), hi = rx_distinct(addr, n, s) + 1;
        cfg.nbudgets = 0;
        for (uint64_t m = lo; m <= hi && cfg.nbudgets < POLICY_MAX_BUDGETS; m++)
            cfg.budgets[cfg.nbudgets++] = m * s;
        if (!cfg.nbudgets)
            cfg.budgets[cfg.nbudgets++] = lo * s;
        cfg.primary_budget = cfg.budgets[0];
        ht_source *fs = ht_array_source(full, n, "full");
        ht_source *rs = ht_array_source(red, nred, "reduced");
        policy_result a, b;
        char err[256];
        assert_int_equal(policy_run_mode(fs, &tb, &cfg, &a, err, sizeof err), 0);
        if (nred) {
            assert_int_equal(policy_run_mode(rs, &tm, &cfg, &b, err, sizeof err), 0);
        } else {
            memset(&b, 0, sizeof b);
        }
        for (int k = 0; k < cfg.nbudgets; k++)
            for (pg_policy p = PG_LRU; p < PG_COUNT; p++) {
                if (!cfg.enabled[p])
                    continue;
                uint64_t fa = n ? rx_faults_of(&a, p, s, cfg.budgets[k]) : 0;
                uint64_t fb = nred ? rx_faults_of(&b, p, s, cfg.budgets[k]) : 0;
                bad += fa != fb;
                (*configs)++;
                if (nred) /* every row at budgets >= B is labelled exact */
                    for (size_t j = 0; j < b.n; j++)
                        assert_int_equal(b.rows[j].fidelity, ROW_EXACT);
            }
        policy_result_free(&a);
        if (nred)
            policy_result_free(&b);
        ht_close(fs);
        ht_close(rs);
    }
    free(full);
    return bad;
}

#endif
