/* Unit tests of mtemu's meta-paging options, session and report (emu/mpctl.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "emu/mpctl.h"

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
                    "clock", "--backing", "/tmp/x", "--metapage-fault-cycles=5000", "--stats",
                    "--stats-json", "s.json", "--metapage-sim", "4K/2M:8M:*", "--metapage-seed",
                    "0x10"};
    assert_int_equal(parse_all(&o, 15, good, err, sizeof err), 0);
    assert_int_equal(o.metapage_bytes, 65536);
    assert_int_equal(o.budget_bytes, 8 << 20);
    assert_int_equal(o.policy, MP_CLOCK);
    assert_string_equal(o.backing, "/tmp/x");
    assert_int_equal(o.fault_cycles, 5000);
    assert_true(o.stats);
    assert_string_equal(o.stats_json, "s.json");
    assert_string_equal(o.sim_spec, "4K/2M:8M:*");
    assert_int_equal(o.seed, 16);
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

    /* Unlimited and FIFO-only sessions need no observer; a JSON file that cannot be written
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
    assert_false(mp_session_needs_observer(s));
    mp_session_destroy(s);
    /* A budget below one metapage is refused by name. */
    o.metapage_bytes = 1 << 16;
    o.budget_bytes = 4096;
    assert_null(mp_session_create(&o, base, 1 << 20, err, sizeof err));
    assert_non_null(strstr(err, "smaller than one metapage"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_options),
        cmocka_unit_test(test_session),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
