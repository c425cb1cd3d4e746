/* Unit tests of mtemu's meta-paging options, session and report (emu/metapaging/mpctl.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "emu/metapaging/mpctl.h"

static int parse_all(struct mp_options *o, int argc, char **argv, char *err, size_t n)
{
    for (int i = 0; i < argc; i++) {
        int rc = mp_options_parse(o, argc, argv, &i, err, n);
        if (rc < 0)
            return -1;
        if (rc == 0)
            return i + 1000; /* not ours */
    }
    return 0;
}

static void test_options(void **state)
{
    (void)state;
    struct mp_options o;
    mp_options_default(&o);
    assert_int_equal(o.metapage_bytes, 4096);
    assert_int_equal(o.budget_bytes, 0);
    char err[256];
    char *good[] = {"--metapage-size", "64K", "--metapage-budget=8M", "--metapage-policy",
                    "clock", "--backing", "/tmp/x", "--metapage-fault-cycles=5000", "--ram-hash",
                    "--stats-json", "s.json", "--metapage-sim", "4K/2M:8M:*", "--metapage-seed",
                    "0x10"};
    assert_int_equal(parse_all(&o, 15, good, err, sizeof err), 0);
    assert_true(o.ram_hash);
    assert_int_equal(o.metapage_bytes, 65536);
    assert_int_equal(o.budget_bytes, 8 << 20);
    assert_int_equal(o.policy, MP_CLOCK);
    assert_string_equal(o.backing, "/tmp/x");
    assert_int_equal(o.fault_cycles, 5000);
    assert_false(o.stats); /* the emulator's option */
    assert_string_equal(o.stats_json, "s.json");
    assert_string_equal(o.sim_spec, "4K/2M:8M:*");
    assert_int_equal(o.seed, 16);
    /* Extraction leaves everything else, in order. */
    char *argv[] = {"mtemu", "-m", "64M", "--metapage-budget", "1M", "--stats", "--metapage-sim=4K:8K",
                    "prog.elf", "--", "--backing", NULL};
    int argc = 10;
    mp_options_default(&o);
    assert_int_equal(mp_options_extract(&o, &argc, argv, err, sizeof err), 0);
    assert_int_equal(argc, 7);
    const char *want[] = {"mtemu", "-m", "64M", "--stats", "prog.elf", "--", "--backing"};
    for (int k = 0; k < 7; k++)
        assert_string_equal(argv[k], want[k]);
    assert_null(argv[7]);
    assert_int_equal(o.budget_bytes, 1 << 20);
    assert_string_equal(o.sim_spec, "4K:8K");
    char *bad_argv[] = {"mtemu", "--metapage-policy", "lfu", NULL};
    argc = 3;
    assert_int_equal(mp_options_extract(&o, &argc, bad_argv, err, sizeof err), -1);
    assert_non_null(strstr(err, "lfu"));
    char *other[] = {"--stats-foo"};
    assert_int_equal(parse_all(&o, 1, other, err, sizeof err), 1000);
    char *bad[][2] = {{"--metapage-size", "12K"}, {"--metapage-size", "4M"},
                      {"--metapage-budget", "lots"}, {"--metapage-budget", "0"},
                      {"--metapage-policy", "opt"}, {"--metapage-fault-cycles", "-1"},
                      {"--metapage-sim", "4K"}, {"--metapage-seed", "x"}};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        err[0] = 0;
        assert_int_equal(parse_all(&o, 2, bad[i], err, sizeof err), -1);
        assert_non_null(strstr(err, bad[i][0]) ? err : strstr(err, "metapage"));
    }
    char *missing[] = {"--metapage-budget"};
    assert_int_equal(parse_all(&o, 1, missing, err, sizeof err), -1);
    assert_non_null(strstr(err, "needs a value"));
    assert_non_null(strstr(mp_options_help(), "--metapage-fault-cycles"));
}

static void test_session(void **state)
{
    (void)state;
    struct mp_options o;
    mp_options_default(&o);
    o.budget_bytes = 8192;
    o.policy = MP_LRU;
    o.fault_cycles = 1000;
    o.sim_spec = "4K:8K:lru,8K:16K:fifo";
    char json[] = "/tmp/mpctl-test-XXXXXX";
    int fd = mkstemp(json);
    assert_true(fd >= 0);
    close(fd);
    o.stats_json = json;
    char err[256];
    const uint64_t base = 0x80000000u;
    struct mp_session *s = mp_session_create(&o, base, 1 << 20, err, sizeof err);
    assert_non_null(s);
    assert_non_null(mp_session_pager(s));
    assert_true(mp_session_needs_observer(s));
    uint64_t cycles = 0;
    mp_session_charge_faults_to(s, &cycles);
    uint64_t pfn0 = base >> 12;
    mp_session_observe(s, pfn0 + 0, true);
    mp_session_observe(s, pfn0 + 1, false);
    mp_session_observe(s, pfn0 + 2, false); /* evicts page 0, dirty */
    mp_session_observe(s, 0x10000000 >> 12, true); /* a device: ignored */
    const struct mp_stats *st = mp_get_stats(mp_session_pager(s));
    assert_int_equal(st->faults, 3);
    assert_int_equal(st->writebacks, 1);
    assert_int_equal(cycles, 3000);
    assert_int_equal(mp_session_report(s, NULL, err, sizeof err), 0);
    FILE *f = fopen(json, "r");
    char buf[8192];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = 0;
    fclose(f);
    assert_non_null(strstr(buf, "\"faults\": 3"));
    assert_non_null(strstr(buf, "\"writebacks\": 1"));
    assert_non_null(strstr(buf, "\"metapage\": 2, \"address\": 2147491840, \"faults\": 1}"));
    assert_non_null(strstr(buf, "\"policy\": \"fifo\""));
    assert_non_null(strstr(buf, "\"observed_page_changes\": 3"));
    unlink(json);
    mp_session_destroy(s);

    /* An unlimited session needs no observer (a paged one always does); a JSON file that cannot be written
     * is an error, not a silent loss. */
    mp_options_default(&o);
    o.stats_json = "/nonexistent-dir-metatrace/s.json";
    s = mp_session_create(&o, base, 1 << 20, err, sizeof err);
    assert_non_null(s);
    assert_null(mp_session_pager(s));
    assert_false(mp_session_needs_observer(s));
    assert_int_equal(mp_session_report(s, NULL, err, sizeof err), -1);
    assert_non_null(strstr(err, "/nonexistent-dir-metatrace/s.json"));
    mp_session_destroy(s);
    o.budget_bytes = 1 << 16;
    o.policy = MP_FIFO;
    s = mp_session_create(&o, base, 1 << 20, err, sizeof err);
    assert_true(mp_session_needs_observer(s));
    mp_session_destroy(s);
    /* A budget below one metapage is refused by name. */
    o.metapage_bytes = 1 << 16;
    o.budget_bytes = 4096;
    assert_null(mp_session_create(&o, base, 1 << 20, err, sizeof err));
    assert_non_null(strstr(err, "smaller than one metapage"));
}

struct inval_log {
    uint64_t base, len, calls;
};

static void log_invalidate(void *ctx, uint64_t base, uint64_t len)
{
    struct inval_log *l = ctx;
    l->base = base;
    l->len = len;
    l->calls++;
}

/* The same contents in a flat and a meta-paged RAM hash alike; the pager sits behind ram.h
 * (page requests, invalidation in physical addresses, the emulator's own reads and writes). */
static void test_paged_ram_and_hash(void **state)
{
    (void)state;
    const uint64_t base = 0x80000000u, size = 4 << 20;
    mt_ram *flat = ram_create(base, size), *paged = ram_create(base, size);
    assert_non_null(flat);
    assert_non_null(paged);
    struct mp_options o;
    mp_options_default(&o);
    o.metapage_bytes = 64 << 10;
    o.budget_bytes = 128 << 10;
    o.sim_spec = "64K:128K:lru";
    char err[256];
    struct mp_session *s = mp_session_create(&o, base, size, err, sizeof err);
    assert_non_null(s);
    mp_session_attach(s, paged);
    struct inval_log log = {0};
    ram_set_invalidator(paged, log_invalidate, &log);
    const char img[] = "an ELF image, say";
    assert_true(ram_host_write(flat, base + 70000, img, sizeof img));
    assert_true(ram_host_write(paged, base + 70000, img, sizeof img));
    assert_int_equal(mp_get_stats(mp_session_pager(s))->faults, 0);
    assert_int_equal(mp_ram_hash(flat), mp_ram_hash(paged));
    for (uint64_t pg = 0; pg < size / 4096; pg += 7) {
        ram_page_for_write(flat, base + pg * 4096)[pg % 4096] = (uint8_t)pg;
        uint8_t *p = ram_page_for_write(paged, base + pg * 4096);
        mp_session_observe(s, (base >> 12) + pg, true);
        p[pg % 4096] = (uint8_t)pg;
    }
    const struct mp_stats *st = mp_get_stats(mp_session_pager(s));
    assert_true(st->evictions > 0);
    assert_int_equal(log.calls, st->evictions);
    assert_true(log.base >= base && log.base < base + size);
    assert_int_equal(log.len, 64 << 10);
    assert_int_equal(mp_ram_hash(flat), mp_ram_hash(paged));
    /* The online simulation of the pager's own configuration agrees with it, host writes
     * included (the metapage holding the image is read back, not zero-filled). */
    const struct mpsim_result *r = mpsim_result(mp_session_sim(s), 0);
    assert_non_null(r);
    assert_int_equal(r->faults, st->faults);
    assert_int_equal(r->evictions, st->evictions);
    assert_int_equal(r->writebacks, st->writebacks);
    assert_int_equal(r->backing_reads, st->backing_reads);
    assert_int_equal(r->bytes_in, st->bytes_in);
    assert_int_equal(r->bytes_out, st->bytes_out);
    assert_true(st->backing_reads > 0);
    uint64_t before = mp_ram_hash(paged);
    assert_true(ram_host_write(paged, base + 5, "x", 1));
    assert_int_not_equal(mp_ram_hash(paged), before);
    mp_session_destroy(s);
    ram_destroy(flat);
    ram_destroy(paged);
}

/* As the CPU appends to a batch (ram.h): the entry, and a drain when full. */
static void batch_report(struct ram_page_batch *b, uint64_t pfn, bool is_write)
{
    b->entries[b->n] = pfn << 1 | (uint64_t)is_write;
    if (++b->n == b->cap)
        b->drain(b);
}

/* Reports in batches count exactly as one call each: a stream over several batches with the
 * emulator's own writes in between (drained first, so they land between the same accesses) and
 * reports outside RAM; the results read mid-batch.  A pager needs its reports one by one. */
static void test_batched_reports(void **state)
{
    (void)state;
    const uint64_t base = 0x80000000u, size = 8 << 20;
    struct mp_options o;
    mp_options_default(&o);
    o.sim_spec = "4K/16K/64K:64K/256K/2M:*";
    char err[256];
    struct mp_session *one = mp_session_create(&o, base, size, err, sizeof err);
    struct mp_session *batched = mp_session_create(&o, base, size, err, sizeof err);
    assert_non_null(one);
    assert_non_null(batched);
    struct ram_page_batch *b = mp_session_page_batch(batched);
    assert_non_null(b);
    uint64_t x = 12345, pfn0 = base >> 12;
    for (int i = 0; i < 3 * MP_BATCH + 17; i++) {
        x = x * 6364136223846793005u + 1442695040888963407u;
        uint64_t r = x >> 33;
        /* mostly a few hot pages, sometimes anywhere, sometimes a device */
        uint64_t pfn = r % 8 < 6 ? pfn0 + r % 5 : r % 8 == 6 ? pfn0 + r % (size >> 12) : 0x10000;
        bool w = (r >> 8) % 3 == 0;
        mp_session_observe(one, pfn, w);
        batch_report(b, pfn, w);
        if (i % 1000 == 999) {
            /* a fault on a page never used before, then the emulator writes it: the fault
             * zero-fills (it came first), a later one reads */
            uint64_t fresh = (size >> 12) - 1 - (uint64_t)i / 1000;
            mp_session_observe(one, pfn0 + fresh, false);
            batch_report(b, pfn0 + fresh, false);
            mp_session_host_write(one, base + (fresh << 12), 100);
            mp_session_host_write(batched, base + (fresh << 12), 100);
        }
    }
    assert_int_not_equal(b->n, 0); /* the last reports are still in the batch */
    const struct mpsim *s1 = mp_session_sim(one), *s2 = mp_session_sim(batched);
    assert_int_equal(b->n, 0);
    assert_int_equal(mpsim_count(s1), mpsim_count(s2));
    for (size_t i = 0; i < mpsim_count(s1); i++) {
        const struct mpsim_result *r1 = mpsim_result(s1, i), *r2 = mpsim_result(s2, i);
        assert_int_equal(r1->accesses, r2->accesses);
        assert_int_equal(r1->faults, r2->faults);
        assert_int_equal(r1->zero_fills, r2->zero_fills);
        assert_int_equal(r1->backing_reads, r2->backing_reads);
        assert_int_equal(r1->evictions, r2->evictions);
        assert_int_equal(r1->writebacks, r2->writebacks);
        assert_int_equal(r1->bytes_in, r2->bytes_in);
        assert_int_equal(r1->bytes_out, r2->bytes_out);
    }
    assert_true(mpsim_result(s1, 0)->faults > 100);
    mp_session_destroy(one);
    mp_session_destroy(batched);
    o.budget_bytes = 1 << 20;
    struct mp_session *paged = mp_session_create(&o, base, size, err, sizeof err);
    assert_non_null(paged);
    assert_null(mp_session_page_batch(paged));
    mp_session_destroy(paged);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_options),
        cmocka_unit_test(test_session),
        cmocka_unit_test(test_paged_ram_and_hash),
        cmocka_unit_test(test_batched_reports),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
