/* Meta-paging options, session and report; see mpctl.h. */
#include "emu/metapaging/mpctl.h"
#include "emu/cliopt.h"
#include "emu/metapaging/mpsimthread.h"
#include "mt_outfile.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void mp_options_default(struct mp_options *o)
{
    memset(o, 0, sizeof *o);
    o->metapage_bytes = 4096;
    o->policy = MP_LRU;
    o->seed = 1;
}

const char *mp_options_help(void)
{
    return "  --metapage-size SIZE      metapage size, k x 4 KiB with k a power of two 1..512 "
           "(default 4K)\n"
           "  --metapage-budget BYTES   resident budget (e.g. 8M); default unlimited (flat RAM)\n"
           "  --metapage-policy P       victim choice: lru (exact), fifo, clock, random "
           "(default lru)\n"
           "  --metapage-seed N         seed of the random policy (default 1)\n"
           "  --backing FILE            backing file (default: a temporary file removed at exit)\n"
           "  --metapage-fault-cycles N charge N cycles of emulated time per fault (default 0)\n"
           "  --metapage-sim SPEC       also evaluate these configurations online, e.g.\n"
           "                            4K/64K/2M:8M:lru/clock (SIZE:BUDGET[:POLICY], ',' "
           "separated,\n"
           "                            '/' alternatives, '*' = every policy)\n"
           "                            SIZE and BUDGET may be ranges of powers of two: "
           "4K..2M:1M..64M:*\n"
           "  --metapage-sim-lru M      stack (default: every LRU budget of a size in one "
           "stack-distance\n"
           "                            pass) or each (one simulation per configuration)\n"
           "  --metapage-sim-thread M   on: the simulations on a thread of their own (the "
           "same results);\n"
           "                            off: in line; auto (default): on with 2 or more CPUs\n"
           "  --stats-json FILE         meta-paging statistics as JSON (--stats prints them too)\n"
           "  --ram-hash                print a hash of all guest RAM at exit (stderr)\n";
}

static int bytes_value(const char *opt, const char *v, uint64_t *out, char *err, size_t errlen)
{
    if (mp_parse_bytes(v, out) != 0) {
        snprintf(err, errlen, "option %s: '%s' is not a size (e.g. 4096, 64K, 8M, 1G)", opt, v);
        return -1;
    }
    return 1;
}

int mp_options_parse(struct mp_options *o, int argc, char **argv, int *i, char *err,
                     size_t errlen)
{
    const char *v = NULL;
    int m;
    if ((m = cliopt_match("--metapage-size", argc, argv, i, &v, true, err, errlen)) != 0) {
        if (m < 0)
            return -1;
        if (bytes_value("--metapage-size", v, &o->metapage_bytes, err, errlen) < 0)
            return -1;
        uint64_t s = o->metapage_bytes;
        if (s < 4096 || s > 512 * 4096 || (s & (s - 1))) {
            snprintf(err, errlen,
                     "option --metapage-size: %s is not k x 4 KiB with k a power of two from 1 "
                     "to 512 (4K ... 2M)",
                     v);
            return -1;
        }
        return 1;
    }
    if ((m = cliopt_match("--metapage-budget", argc, argv, i, &v, true, err, errlen)) != 0) {
        if (m < 0)
            return -1;
        if (strcmp(v, "unlimited") == 0) {
            o->budget_bytes = 0;
            return 1;
        }
        if (bytes_value("--metapage-budget", v, &o->budget_bytes, err, errlen) < 0)
            return -1;
        if (o->budget_bytes == 0) {
            snprintf(err, errlen, "option --metapage-budget: 0 is smaller than one metapage");
            return -1;
        }
        return 1;
    }
    if ((m = cliopt_match("--metapage-policy", argc, argv, i, &v, true, err, errlen)) != 0) {
        if (m < 0)
            return -1;
        if (mp_policy_parse(v, &o->policy) != 0) {
            snprintf(err, errlen,
                     "option --metapage-policy: unknown policy '%s' (lru, fifo, clock, random)", v);
            return -1;
        }
        return 1;
    }
    if ((m = cliopt_match("--metapage-seed", argc, argv, i, &v, true, err, errlen)) != 0) {
        if (m < 0)
            return -1;
        char *end;
        errno = 0;
        o->seed = strtoull(v, &end, 0);
        if (!*v || *end || errno) {
            snprintf(err, errlen, "option --metapage-seed: '%s' is not a number", v);
            return -1;
        }
        return 1;
    }
    if ((m = cliopt_match("--metapage-fault-cycles", argc, argv, i, &v, true, err, errlen)) != 0) {
        if (m < 0)
            return -1;
        char *end;
        errno = 0;
        o->fault_cycles = strtoull(v, &end, 10);
        if (!*v || *end || errno || *v == '-') {
            snprintf(err, errlen, "option --metapage-fault-cycles: '%s' is not a cycle count", v);
            return -1;
        }
        return 1;
    }
    if ((m = cliopt_match("--backing", argc, argv, i, &v, true, err, errlen)) != 0) {
        if (m < 0)
            return -1;
        if (!*v) {
            snprintf(err, errlen, "option --backing: empty file name");
            return -1;
        }
        o->backing = v;
        return 1;
    }
    if ((m = cliopt_match("--metapage-sim", argc, argv, i, &v, true, err, errlen)) != 0) {
        if (m < 0)
            return -1;
        struct mpsim_config *c;
        size_t n;
        if (mpsim_parse(v, &c, &n, err, errlen) != 0)
            return -1;
        free(c);
        o->sim_spec = v;
        return 1;
    }
    if ((m = cliopt_match("--metapage-sim-lru", argc, argv, i, &v, true, err, errlen)) != 0) {
        if (m < 0)
            return -1;
        if (strcmp(v, "stack") != 0 && strcmp(v, "each") != 0) {
            snprintf(err, errlen, "option --metapage-sim-lru: '%s' is not stack or each", v);
            return -1;
        }
        o->sim_lru_each = strcmp(v, "each") == 0;
        return 1;
    }
    if ((m = cliopt_match("--metapage-sim-thread", argc, argv, i, &v, true, err, errlen)) != 0) {
        if (m < 0)
            return -1;
        if (strcmp(v, "on") == 0)
            o->sim_thread = MP_SIM_THREAD_ON;
        else if (strcmp(v, "off") == 0)
            o->sim_thread = MP_SIM_THREAD_OFF;
        else if (strcmp(v, "auto") == 0)
            o->sim_thread = MP_SIM_THREAD_AUTO;
        else {
            snprintf(err, errlen, "option --metapage-sim-thread: '%s' is not on, off or auto", v);
            return -1;
        }
        return 1;
    }
    if ((m = cliopt_match("--stats-json", argc, argv, i, &v, true, err, errlen)) != 0) {
        if (m < 0)
            return -1;
        o->stats_json = v;
        return 1;
    }
    if (cliopt_match("--ram-hash", argc, argv, i, &v, false, err, errlen) == 1) {
        o->ram_hash = true;
        return 1;
    }
    return 0;
}

int mp_options_extract(struct mp_options *o, int *argc, char **argv, char *err, size_t errlen)
{
    int kept = 1;
    for (int i = 1; i < *argc; i++) {
        if (strcmp(argv[i], "--") == 0) { /* everything after is not an option */
            while (i < *argc)
                argv[kept++] = argv[i++];
            break;
        }
        int rc = mp_options_parse(o, *argc, argv, &i, err, errlen);
        if (rc < 0)
            return -1;
        if (rc == 0)
            argv[kept++] = argv[i];
    }
    *argc = kept;
    argv[kept] = NULL;
    return 0;
}

struct mp_session {
    struct mp_options opt;
    uint64_t ram_base, ram_bytes;
    struct metapager *pager;
    struct mpsim *sim;
    uint64_t *cycle_counter;
    uint64_t observed; /* page-observer reports inside RAM */
    bool have_run;     /* mp_session_set_run was called */
    uint64_t run_instructions, run_accesses;
    double run_seconds;
    mt_ram *ram;
    /* Without a pager nothing must happen before an access goes on: the CPUs append their
     * reports here and the simulations take them MP_BATCH at a time (drained before anything
     * reads the simulations or the emulator writes RAM, so the order is the access order). */
    struct ram_page_batch batch;
    uint64_t batch_entries[MP_BATCH];
    /* The simulations on their own thread (--metapage-sim-thread): the batch goes to its ring,
     * with a pager too (the pager's faults never wait for the simulations), and the emulator's
     * writes after it.  NULL: in line. */
    struct mpsim_thread *thread;
    uint64_t smallest_sim_size; /* the smallest simulated metapage (UINT64_MAX: none) */
    struct mpsim_thread_stats thread_stats; /* the thread's, once it ended (--stats) */
    bool thread_stats_valid;
};

static void drain_batch(struct ram_page_batch *b)
{
    struct mp_session *s = (struct mp_session *)((char *)b - offsetof(struct mp_session, batch));
    if (s->thread)
        mpsim_thread_access_batch(s->thread, b->entries, b->n);
    else
        s->observed += mpsim_access_batch(s->sim, b->entries, b->n, s->ram_base >> MP_PAGE_SHIFT);
    b->n = 0;
}

/* Everything reported so far applied to the simulations, which are then the caller's to read
 * until the next report. */
static void settle_sim(struct mp_session *s)
{
    if (s->batch.n)
        drain_batch(&s->batch);
    if (s->thread) {
        uint64_t inside = mpsim_thread_sync(s->thread);
        if (!s->pager) /* with a pager, mp_session_observe counts them */
            s->observed = inside;
    }
}

static bool want_thread(int mode)
{
    if (mode == MP_SIM_THREAD_AUTO)
        return sysconf(_SC_NPROCESSORS_ONLN) >= 2;
    return mode == MP_SIM_THREAD_ON;
}

static void charge_fault(void *ctx)
{
    struct mp_session *s = ctx;
    if (s->cycle_counter)
        *s->cycle_counter += s->opt.fault_cycles;
}

struct mp_session *mp_session_create(const struct mp_options *o, uint64_t ram_base,
                                     uint64_t ram_bytes, char *err, size_t errlen)
{
    struct mp_session *s = calloc(1, sizeof *s);
    if (!s) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    s->opt = *o;
    s->ram_base = ram_base;
    s->batch = (struct ram_page_batch){.entries = s->batch_entries, .cap = MP_BATCH,
                                       .drain = drain_batch};
    s->ram_bytes = ram_bytes;
    if (o->budget_bytes) {
        struct mp_config c = {.ram_bytes = ram_bytes, .metapage_bytes = o->metapage_bytes,
                              .budget_bytes = o->budget_bytes, .policy = o->policy,
                              .seed = o->seed, .backing_path = o->backing};
        if (!(s->pager = mp_create(&c, err, errlen)))
            goto fail;
        mp_set_fault_hook(s->pager, charge_fault, s);
    }
    if (o->sim_spec) {
        struct mpsim_config *cfgs;
        size_t n;
        if (mpsim_parse(o->sim_spec, &cfgs, &n, err, errlen) != 0)
            goto fail;
        s->sim = mpsim_create_method(ram_bytes, cfgs, n, o->seed,
                                     o->sim_lru_each ? MPSIM_LRU_EACH : MPSIM_LRU_STACK, err,
                                     errlen);
        s->smallest_sim_size = UINT64_MAX;
        for (size_t i = 0; i < n; i++)
            if (cfgs[i].metapage_bytes < s->smallest_sim_size)
                s->smallest_sim_size = cfgs[i].metapage_bytes;
        free(cfgs);
        if (!s->sim)
            goto fail;
        if (want_thread(o->sim_thread) &&
            !(s->thread = mpsim_thread_start(s->sim, ram_base >> MP_PAGE_SHIFT,
                                             MPSIM_THREAD_RING_LOG2)))
            fprintf(stderr, "mtemu: --metapage-sim: no thread for the simulations (out of "
                            "memory or threads); they run in line (the same results)\n");
    }
    return s;
fail:
    mp_session_destroy(s);
    return NULL;
}

void mp_session_destroy(struct mp_session *s)
{
    if (!s)
        return;
    mp_destroy(s->pager);
    mpsim_thread_destroy(s->thread); /* before the simulations it works on */
    mpsim_destroy(s->sim);
    free(s);
}

struct metapager *mp_session_pager(struct mp_session *s)
{
    return s->pager;
}

struct ram_page_batch *mp_session_page_batch(struct mp_session *s)
{
    return s->sim && !s->pager ? &s->batch : NULL;
}

const struct mpsim *mp_session_sim(struct mp_session *s)
{
    settle_sim(s);
    return s->sim;
}

static void host_write_seen(void *ctx, uint64_t paddr, uint64_t len)
{
    mp_session_host_write(ctx, paddr, len);
}

void mp_session_attach(struct mp_session *s, mt_ram *ram)
{
    s->ram = ram;
    if (s->pager)
        ram_use_metapager(ram, s->pager);
    if (s->sim)
        ram_set_host_write_observer(ram, host_write_seen, s);
}

uint64_t mp_ram_hash(mt_ram *ram)
{
    uint64_t h = UINT64_C(14695981039346656037);
    uint64_t page[RAM_PAGE_SIZE / 8];
    for (uint64_t off = 0; off < ram_size(ram); off += RAM_PAGE_SIZE) {
        ram_host_read(ram, ram_base(ram) + off, page, RAM_PAGE_SIZE);
        uint64_t any = 0;
        for (size_t i = 0; i < RAM_PAGE_SIZE / 8; i++)
            any |= page[i];
        if (!any)
            continue;
        h = (h ^ (off >> RAM_PAGE_SHIFT)) * UINT64_C(1099511628211);
        for (size_t i = 0; i < RAM_PAGE_SIZE / 8; i++)
            h = (h ^ page[i]) * UINT64_C(1099511628211);
    }
    return h;
}

bool mp_session_needs_observer(const struct mp_session *s)
{
    return s->sim || s->pager;
}

unsigned mp_session_observe_shift(const struct mp_session *s)
{
    /* not from mpsim_result: the simulations may be busy on their thread */
    uint64_t smallest = s->pager ? s->opt.metapage_bytes : UINT64_MAX;
    if (s->sim && s->smallest_sim_size < smallest)
        smallest = s->smallest_sim_size;
    unsigned shift = MP_PAGE_SHIFT;
    while (smallest != UINT64_MAX && (UINT64_C(1) << (shift + 1)) <= smallest)
        shift++;
    return shift;
}

void mp_session_observe(void *session, uint64_t pfn, bool is_write)
{
    struct mp_session *s = session;
    uint64_t page = pfn - (s->ram_base >> MP_PAGE_SHIFT);
    if (page >= s->ram_bytes >> MP_PAGE_SHIFT)
        return; /* a device or the boot ROM */
    s->observed++;
    if (s->thread) { /* queued in batches like the CPU's: the pager below never waits for it */
        s->batch.entries[s->batch.n] = pfn << 1 | (uint64_t)is_write;
        if (++s->batch.n == s->batch.cap)
            drain_batch(&s->batch);
    } else if (s->sim) {
        mpsim_access(s->sim, page, is_write);
    }
    /* The access itself gets its pointer from the RAM's slow path or a TLB entry; this call
     * keeps LRU's recency and CLOCK's reference bits exact for TLB hits.  It cannot fail for a
     * page that is resident; a fault here is one the access would take anyway. */
    if (s->pager && !mp_page(s->pager, page, is_write)) {
        fprintf(stderr, "mtemu: meta-pager: %s\n", mp_error(s->pager));
        exit(1);
    }
}

bool mp_session_faults_cost_cycles(const struct mp_session *s) { return s->opt.fault_cycles != 0; }

void mp_session_charge_faults_to(struct mp_session *s, uint64_t *counter)
{
    s->cycle_counter = s->opt.fault_cycles ? counter : NULL;
}

void mp_session_host_write(struct mp_session *s, uint64_t paddr, uint64_t len)
{
    if (s->batch.n) /* the accesses before it first */
        drain_batch(&s->batch);
    if (s->sim && paddr >= s->ram_base) {
        if (s->thread)
            mpsim_thread_host_write(s->thread, paddr - s->ram_base, len);
        else
            mpsim_host_write(s->sim, paddr - s->ram_base, len);
    }
}

static void print_text(const struct mp_session *s, FILE *f)
{
    fprintf(f, "meta-paging: RAM %" PRIu64 " bytes", s->ram_bytes);
    if (s->pager) {
        const struct mp_stats *st = mp_get_stats(s->pager);
        fprintf(f,
                ", metapage %" PRIu64 " bytes, budget %" PRIu64 " bytes (%" PRIu32
                " metapages), policy %s\n",
                s->opt.metapage_bytes, s->opt.budget_bytes, mp_resident_capacity(s->pager),
                mp_policy_name(s->opt.policy));
        fprintf(f,
                "  faults %" PRIu64 " (zero-filled %" PRIu64 ", read %" PRIu64 "), evictions %" PRIu64
                ", write-backs %" PRIu64 "\n",
                st->faults, st->zero_fills, st->backing_reads, st->evictions, st->writebacks);
        fprintf(f,
                "  bytes in %" PRIu64 ", bytes out %" PRIu64 ", backing I/O %.6f s, fault path "
                "%.6f s\n",
                st->bytes_in, st->bytes_out, (double)st->io_ns / 1e9, (double)st->fault_ns / 1e9);
    } else {
        fprintf(f, ", unlimited budget (flat RAM, no meta-pager)\n");
    }
    if (s->sim) {
        fprintf(f, "  online: %-8s %-10s %-7s %9s %12s %12s %12s %14s %14s\n", "size", "budget",
                "policy", "resident", "faults", "evictions", "write-backs", "bytes in",
                "bytes out");
        for (size_t i = 0; i < mpsim_count(s->sim); i++) {
            const struct mpsim_result *r = mpsim_result(s->sim, i);
            fprintf(f,
                    "  online: %-8" PRIu64 " %-10" PRIu64 " %-7s %9" PRIu32 " %12" PRIu64
                    " %12" PRIu64 " %12" PRIu64 " %14" PRIu64 " %14" PRIu64 "\n",
                    r->cfg.metapage_bytes, r->cfg.budget_bytes, mp_policy_name(r->cfg.policy),
                    r->resident_metapages, r->faults, r->evictions, r->writebacks, r->bytes_in,
                    r->bytes_out);
        }
    }
    if (s->thread_stats_valid)
        fprintf(f,
                "  online thread: %" PRIu64 " words queued, %" PRIu64 " waits, %.3f s of CPU\n",
                s->thread_stats.words, s->thread_stats.waits, s->thread_stats.thread_seconds);
}

void mp_session_set_run(struct mp_session *s, uint64_t instructions, uint64_t accesses,
                        double emulated_seconds)
{
    s->have_run = true;
    s->run_instructions = instructions;
    s->run_accesses = accesses;
    s->run_seconds = emulated_seconds;
}

static void print_json(const struct mp_session *s, FILE *f)
{
    fprintf(f, "{\n  \"ram_base\": %" PRIu64 ",\n  \"ram_bytes\": %" PRIu64 ",\n", s->ram_base,
            s->ram_bytes);
    fprintf(f, "  \"observed_page_changes\": %" PRIu64 ",\n", s->observed);
    if (s->pager) {
        const struct mp_stats *st = mp_get_stats(s->pager);
        fprintf(f,
                "  \"pager\": {\n    \"metapage_bytes\": %" PRIu64 ",\n    \"budget_bytes\": %" PRIu64
                ",\n    \"resident_metapages\": %" PRIu32 ",\n    \"policy\": \"%s\",\n"
                "    \"seed\": %" PRIu64 ",\n    \"fault_cycles\": %" PRIu64 ",\n",
                s->opt.metapage_bytes, s->opt.budget_bytes, mp_resident_capacity(s->pager),
                mp_policy_name(s->opt.policy), s->opt.seed, s->opt.fault_cycles);
        fprintf(f,
                "    \"accesses\": %" PRIu64 ",\n    \"faults\": %" PRIu64 ",\n    \"zero_fills\": %" PRIu64
                ",\n    \"backing_reads\": %" PRIu64 ",\n    \"evictions\": %" PRIu64
                ",\n    \"writebacks\": %" PRIu64 ",\n    \"bytes_in\": %" PRIu64
                ",\n    \"bytes_out\": %" PRIu64 ",\n    \"backing_io_seconds\": %.9f,\n"
                "    \"fault_path_seconds\": %.9f,\n    \"host_bytes_written\": %" PRIu64 ",\n",
                st->accesses, st->faults, st->zero_fills, st->backing_reads, st->evictions,
                st->writebacks, st->bytes_in, st->bytes_out, (double)st->io_ns / 1e9,
                (double)st->fault_ns / 1e9, st->host_bytes_written);
        fprintf(f, "    \"metapage_faults\": [");
        const char *sep = "";
        for (uint64_t m = 0; m < mp_metapage_count(s->pager); m++) {
            uint64_t n = mp_metapage_faults(s->pager, m);
            if (n) {
                fprintf(f, "%s\n      {\"metapage\": %" PRIu64 ", \"address\": %" PRIu64
                           ", \"faults\": %" PRIu64 "}",
                        sep, m, s->ram_base + m * s->opt.metapage_bytes, n);
                sep = ",";
            }
        }
        fprintf(f, "%s]\n  },\n", *sep ? "\n    " : "");
    } else {
        fprintf(f, "  \"pager\": null,\n");
    }
    if (s->have_run)
        fprintf(f,
                "  \"run\": {\"accesses\": %" PRIu64 ", \"instructions\": %" PRIu64
                ", \"emulated_seconds\": %.6f},\n",
                s->run_accesses, s->run_instructions, s->run_seconds);
    fprintf(f, "  \"online\": [");
    for (size_t i = 0; s->sim && i < mpsim_count(s->sim); i++) {
        const struct mpsim_result *r = mpsim_result(s->sim, i);
        fprintf(f,
                "%s\n    {\"metapage_bytes\": %" PRIu64 ", \"budget_bytes\": %" PRIu64
                ", \"policy\": \"%s\", \"resident_metapages\": %" PRIu32 ", \"accesses\": %" PRIu64
                ", \"faults\": %" PRIu64 ", \"zero_fills\": %" PRIu64 ", \"backing_reads\": %" PRIu64
                ", \"evictions\": %" PRIu64 ", \"writebacks\": %" PRIu64 ", \"bytes_in\": %" PRIu64
                ", \"bytes_out\": %" PRIu64 "}",
                i ? "," : "", r->cfg.metapage_bytes, r->cfg.budget_bytes,
                mp_policy_name(r->cfg.policy), r->resident_metapages, r->accesses, r->faults,
                r->zero_fills, r->backing_reads, r->evictions, r->writebacks, r->bytes_in,
                r->bytes_out);
    }
    fprintf(f, "%s]\n}\n", s->sim && mpsim_count(s->sim) ? "\n  " : "");
}

int mp_session_report(struct mp_session *s, FILE *text, char *err, size_t errlen)
{
    settle_sim(s);
    if (s->thread) { /* the run is over: end the thread (its CPU time is known then) */
        mpsim_thread_stop(s->thread);
        s->thread_stats = mpsim_thread_counts(s->thread);
        s->thread_stats_valid = true;
        mpsim_thread_destroy(s->thread);
        s->thread = NULL; /* anything later runs in line */
    }
    if (s->opt.stats && text && (s->pager || s->sim))
        print_text(s, text);
    if (s->opt.ram_hash && text && s->ram)
        fprintf(text, "ram-hash %016" PRIx64 "\n", mp_ram_hash(s->ram));
    if (!s->opt.stats_json)
        return 0;
    mt_outfile o; /* FILE.partial, renamed to FILE once whole */
    char oe[600];
    if (mt_outfile_open(&o, s->opt.stats_json, "w", 0, oe, sizeof oe) != 0) {
        snprintf(err, errlen, "stats file %s", oe);
        return -1;
    }
    print_json(s, o.f);
    if (mt_outfile_commit(&o, oe, sizeof oe) != 0) {
        snprintf(err, errlen, "stats file %s", oe);
        return -1;
    }
    return 0;
}
