/* Unit tests of the meta-pager (emu/metapaging/metapager.c): invisible to the guest, exact policies,
 * write-back only when dirty, zero pages without I/O, clear errors. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "emu/metapaging/metapager.h"

#define KiB (UINT64_C(1) << 10)
#define MiB (UINT64_C(1) << 20)
#define GiB (UINT64_C(1) << 30)

static uint64_t rng_next(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

static struct mp_config config(uint64_t ram, uint64_t size, uint64_t budget, mp_policy policy)
{
    struct mp_config c = {.ram_bytes = ram, .metapage_bytes = size, .budget_bytes = budget,
                          .policy = policy, .seed = 42};
    return c;
}

static struct metapager *create_ok(const struct mp_config *c)
{
    char err[256] = "";
    struct metapager *mp = mp_create(c, err, sizeof err);
    if (!mp)
        fail_msg("mp_create: %s", err);
    return mp;
}

/* ---- parsing ---------------------------------------------------------------------------------- */

static void test_parse_bytes(void **state)
{
    (void)state;
    uint64_t v;
    assert_int_equal(mp_parse_bytes("4096", &v), 0);
    assert_int_equal(v, 4096);
    assert_int_equal(mp_parse_bytes("4K", &v), 0);
    assert_int_equal(v, 4096);
    assert_int_equal(mp_parse_bytes("64KiB", &v), 0);
    assert_int_equal(v, 64 * KiB);
    assert_int_equal(mp_parse_bytes("8m", &v), 0);
    assert_int_equal(v, 8 * MiB);
    assert_int_equal(mp_parse_bytes("64G", &v), 0);
    assert_int_equal(v, 64 * GiB);
    assert_int_equal(mp_parse_bytes("2MB", &v), 0);
    assert_int_equal(v, 2 * MiB);
    assert_int_equal(mp_parse_bytes("", &v), -1);
    assert_int_equal(mp_parse_bytes("K", &v), -1);
    assert_int_equal(mp_parse_bytes("12Q", &v), -1);
    assert_int_equal(mp_parse_bytes("4KX", &v), -1);
    assert_int_equal(mp_parse_bytes("-4", &v), -1);
    assert_int_equal(mp_parse_bytes("99999999999999999999", &v), -1);
    assert_int_equal(mp_parse_bytes("99999999999T", &v), -1);
    mp_policy p;
    assert_int_equal(mp_policy_parse("lru", &p), 0);
    assert_int_equal(p, MP_LRU);
    assert_int_equal(mp_policy_parse("CLOCK", &p), 0);
    assert_int_equal(p, MP_CLOCK);
    assert_int_equal(mp_policy_parse("random", &p), 0);
    assert_int_equal(p, MP_RANDOM);
    assert_int_equal(mp_policy_parse("opt", &p), -1);
    assert_string_equal(mp_policy_name(MP_FIFO), "fifo");
}

/* ---- configuration errors --------------------------------------------------------------------- */

static void expect_config_error(struct mp_config c, const char *needle)
{
    char err[256] = "";
    assert_null(mp_create(&c, err, sizeof err));
    if (!strstr(err, needle))
        fail_msg("error '%s' does not mention '%s'", err, needle);
}

static void test_config_errors(void **state)
{
    (void)state;
    expect_config_error(config(MiB, 12 * KiB, 0, MP_LRU), "metapage size");
    expect_config_error(config(MiB, 2 * KiB, 0, MP_LRU), "metapage size");
    expect_config_error(config(MiB, 0, 0, MP_LRU), "metapage size");
    expect_config_error(config(MiB, 4 * MiB, 0, MP_LRU), "metapage size"); /* k = 1024 */
    expect_config_error(config(MiB, 64 * KiB, 32 * KiB, MP_LRU), "smaller than one metapage");
    expect_config_error(config(MiB + 100, 4 * KiB, 0, MP_LRU), "RAM size");
    expect_config_error(config(0, 4 * KiB, 0, MP_LRU), "RAM size");
    expect_config_error(config(MiB, 4 * KiB, 0, (mp_policy)9), "policy");
    struct mp_config c = config(MiB, 4 * KiB, 8 * KiB, MP_LRU);
    c.backing_path = "/nonexistent-dir-metatrace/backing.bin";
    expect_config_error(c, "/nonexistent-dir-metatrace/backing.bin");
    c.backing_path = NULL;
    c.tmp_dir = "/nonexistent-dir-metatrace";
    expect_config_error(c, "/nonexistent-dir-metatrace");
    /* Every legal size is accepted. */
    for (uint64_t k = 1; k <= 512; k *= 2) {
        struct mp_config ok = config(4 * MiB, k * 4 * KiB, 0, MP_CLOCK);
        char err[256];
        assert_int_equal(mp_config_check(&ok, err, sizeof err), 0);
    }
}

/* A full disk: the write-back fails, the access returns NULL with a message, and the victim's
 * data is still there (never silently lost). */
static void test_disk_full(void **state)
{
    (void)state;
    if (access("/dev/full", W_OK) != 0)
        skip();
    struct mp_config c = config(MiB, 4 * KiB, 4 * KiB, MP_LRU);
    c.backing_path = "/dev/full";
    struct metapager *mp = create_ok(&c);
    uint8_t *p = mp_page(mp, 0, true);
    assert_non_null(p);
    memset(p, 0xab, 4096);
    assert_null(mp_page(mp, 1, false));
    assert_non_null(strstr(mp_error(mp), "No space left"));
    assert_non_null(strstr(mp_error(mp), "/dev/full"));
    uint8_t buf[4096];
    assert_int_equal(mp_host_read(mp, 0, buf, sizeof buf), 0);
    for (size_t i = 0; i < sizeof buf; i++)
        assert_int_equal(buf[i], 0xab);
    /* The emulator's own writes fail just as loudly. */
    assert_int_equal(mp_host_write(mp, 8192, buf, 16), -1);
    mp_destroy(mp);
}

/* ---- invisible to the guest ------------------------------------------------------------------ */

/* A software TLB like the emulator's: cached host pointers with separate read / write validity,
 * dropped only by the invalidate callback. */
struct tlb {
    uint64_t ram_pages;
    uint8_t **read_ptr, **write_ptr;
    uint64_t invalidations;
    uint64_t size; /* metapage bytes, to check the callback's ranges */
};

static void tlb_invalidate(void *ctx, uint64_t offset, uint64_t len)
{
    struct tlb *t = ctx;
    assert_int_equal(offset % t->size, 0);
    assert_int_equal(len, t->size);
    for (uint64_t pg = offset >> 12; pg < (offset + len) >> 12 && pg < t->ram_pages; pg++)
        t->read_ptr[pg] = t->write_ptr[pg] = NULL;
    t->invalidations++;
}

static uint8_t *tlb_get(struct tlb *t, struct metapager *mp, uint64_t page, bool write)
{
    uint8_t **slot = write ? &t->write_ptr[page] : &t->read_ptr[page];
    if (!*slot) {
        *slot = mp_page(mp, page, write);
        if (!*slot)
            fail_msg("mp_page(%llu): %s", (unsigned long long)page, mp_error(mp));
        if (write)
            t->read_ptr[page] = *slot;
    }
    return *slot;
}

/* Random reads, writes and verifies against a flat array, through the TLB, plus the emulator's
 * own writes, under a tiny budget; at the end all of RAM must equal the reference. */
static void run_invisible(uint64_t ram, uint64_t size, uint64_t budget, mp_policy policy,
                          uint64_t seed)
{
    struct mp_config c = config(ram, size, budget, policy);
    c.seed = seed;
    struct metapager *mp = create_ok(&c);
    uint64_t pages = ram >> 12;
    uint8_t *ref = calloc(1, ram);
    struct tlb t = {.ram_pages = pages, .size = size};
    t.read_ptr = calloc(pages, sizeof *t.read_ptr);
    t.write_ptr = calloc(pages, sizeof *t.write_ptr);
    assert_non_null(ref);
    mp_set_invalidate(mp, tlb_invalidate, &t);
    uint64_t r = seed * 2654435761u + 1;
    uint64_t hot = 0;
    for (int op = 0; op < 40000; op++) {
        uint64_t x = rng_next(&r);
        /* Mostly near a moving hot spot (locality), sometimes anywhere. */
        if ((x & 63) == 0)
            hot = (x >> 20) % pages;
        uint64_t page = (x & 3) ? (hot + ((x >> 8) & 15)) % pages : (x >> 24) % pages;
        uint64_t off = (x >> 40) & 4095;
        unsigned len = 1 + (unsigned)((x >> 52) & 7);
        if (off + len > 4096)
            off = 4096 - len;
        switch ((x >> 4) & 7) {
        case 0:
        case 1:
        case 2: { /* guest write */
            uint8_t *p = tlb_get(&t, mp, page, true);
            for (unsigned i = 0; i < len; i++)
                p[off + i] = ref[page * 4096 + off + i] = (uint8_t)(x >> (i * 3));
            break;
        }
        case 7: { /* the emulator's own write: uncounted, straight through */
            uint8_t buf[8];
            for (unsigned i = 0; i < len; i++)
                buf[i] = ref[page * 4096 + off + i] = (uint8_t)~(x >> i);
            assert_int_equal(mp_host_write(mp, page * 4096 + off, buf, len), 0);
            break;
        }
        default: { /* guest read, verify */
            const uint8_t *p = tlb_get(&t, mp, page, false);
            if (memcmp(p + off, ref + page * 4096 + off, len) != 0)
                fail_msg("%s %llu/%llu: page %llu differs at op %d", mp_policy_name(policy),
                         (unsigned long long)size, (unsigned long long)budget,
                         (unsigned long long)page, op);
        }
        }
    }
    uint8_t *all = malloc(ram);
    assert_int_equal(mp_host_read(mp, 0, all, ram), 0);
    assert_memory_equal(all, ref, ram);
    const struct mp_stats *s = mp_get_stats(mp);
    if (budget && budget < ram)
        assert_true(s->evictions > 0);
    assert_int_equal(s->faults, s->zero_fills + s->backing_reads);
    assert_int_equal(s->bytes_out, s->writebacks * size);
    assert_int_equal(s->bytes_in, s->backing_reads * size);
    assert_int_equal(t.invalidations, s->evictions);
    uint64_t sum = 0;
    for (uint64_t m = 0; m < mp_metapage_count(mp); m++)
        sum += mp_metapage_faults(mp, m);
    assert_int_equal(sum, s->faults);
    free(all);
    free(ref);
    free(t.read_ptr);
    free(t.write_ptr);
    mp_destroy(mp);
}

static void test_invisible_tiny_budgets(void **state)
{
    (void)state;
    for (int p = 0; p < MP_POLICY_COUNT; p++) {
        run_invisible(MiB, 4 * KiB, 8 * KiB, (mp_policy)p, 1);      /* 2 metapages of 4 KiB */
        run_invisible(4 * MiB, 64 * KiB, MiB, (mp_policy)p, 2);     /* 16 metapages of 64 KiB */
        run_invisible(2 * MiB, 8 * KiB, 24 * KiB, (mp_policy)p, 3); /* 3 of 8 KiB */
        run_invisible(8 * MiB, 2 * MiB, 4 * MiB, (mp_policy)p, 4);  /* 2 of the largest */
        run_invisible(MiB, 4 * KiB, 4 * KiB, (mp_policy)p, 5);      /* 1 metapage */
        run_invisible(MiB, 16 * KiB, 0, (mp_policy)p, 6);           /* unlimited */
    }
}

/* ---- exact policies against brute-force references ----------------------------------------- */

struct victims {
    uint64_t *list;
    size_t n, cap;
    uint64_t size;
};

static void record_victim(void *ctx, uint64_t offset, uint64_t len)
{
    struct victims *v = ctx;
    (void)len;
    if (v->n == v->cap) {
        v->cap = v->cap ? v->cap * 2 : 1024;
        v->list = realloc(v->list, v->cap * sizeof *v->list);
    }
    v->list[v->n++] = offset / v->size;
}

/* The textbook definitions, written as plainly as possible: resident set as an array. */
struct ref_pager {
    mp_policy policy;
    size_t cap, n, hand;
    uint64_t mp[64];
    uint64_t last_use[64]; /* LRU */
    uint8_t refbit[64];    /* CLOCK */
    uint64_t time;
};

/* Returns the victim or UINT64_MAX (hit, or a free slot). */
static uint64_t ref_access(struct ref_pager *r, uint64_t m)
{
    r->time++;
    for (size_t i = 0; i < r->n; i++) {
        if (r->mp[i] == m) {
            r->last_use[i] = r->time;
            r->refbit[i] = 1;
            return UINT64_MAX - 1; /* hit */
        }
    }
    size_t at;
    uint64_t victim = UINT64_MAX;
    if (r->n < r->cap) {
        at = r->n++;
    } else if (r->policy == MP_LRU) {
        at = 0;
        for (size_t i = 1; i < r->n; i++)
            if (r->last_use[i] < r->last_use[at])
                at = i;
        victim = r->mp[at];
    } else if (r->policy == MP_FIFO) {
        /* oldest load: entries are kept in load order, so evict the first and shift */
        victim = r->mp[0];
        memmove(r->mp, r->mp + 1, (r->n - 1) * sizeof r->mp[0]);
        at = r->n - 1;
    } else { /* CLOCK: second chance around a circular list */
        while (r->refbit[r->hand]) {
            r->refbit[r->hand] = 0;
            r->hand = (r->hand + 1) % r->cap;
        }
        at = r->hand;
        victim = r->mp[at];
        r->hand = (r->hand + 1) % r->cap;
    }
    r->mp[at] = m;
    r->last_use[at] = r->time;
    r->refbit[at] = 1;
    return victim;
}

static void test_exact_policies_vs_reference(void **state)
{
    (void)state;
    const mp_policy policies[] = {MP_LRU, MP_FIFO, MP_CLOCK};
    const size_t caps[] = {1, 2, 3, 7, 16, 40};
    for (size_t pi = 0; pi < 3; pi++) {
        for (size_t ci = 0; ci < 6; ci++) {
            uint64_t size = 8 * KiB;
            struct mp_config c = config(MiB, size, caps[ci] * size, policies[pi]);
            struct metapager *mp = create_ok(&c);
            struct victims v = {.size = size};
            mp_set_invalidate(mp, record_victim, &v);
            struct ref_pager r = {.policy = policies[pi], .cap = caps[ci]};
            uint64_t seed = 99 + ci, faults = 0;
            size_t expected_victims = 0;
            for (int i = 0; i < 20000; i++) {
                uint64_t x = rng_next(&seed);
                /* Working set a bit bigger than the budget, so that every policy decides. */
                uint64_t page = (x % (caps[ci] * 3 + 2)) * 2 + ((x >> 32) & 1);
                size_t before = v.n;
                assert_non_null(mp_page(mp, page, (x >> 40) & 1));
                uint64_t want = ref_access(&r, page / 2);
                if (want == UINT64_MAX - 1) {
                    assert_int_equal(v.n, before); /* hit: nothing evicted */
                    continue;
                }
                faults++;
                if (want != UINT64_MAX) {
                    assert_int_equal(v.n, before + 1);
                    if (v.list[before] != want)
                        fail_msg("%s cap %zu access %d: evicted %llu, reference %llu",
                                 mp_policy_name(policies[pi]), caps[ci], i,
                                 (unsigned long long)v.list[before], (unsigned long long)want);
                    expected_victims++;
                }
            }
            assert_int_equal(mp_get_stats(mp)->faults, faults);
            assert_int_equal(v.n, expected_victims);
            free(v.list);
            mp_destroy(mp);
        }
    }
}

static uint64_t victim_hash(uint64_t seed, uint64_t *faults)
{
    struct mp_config c = config(MiB, 4 * KiB, 5 * 4 * KiB, MP_RANDOM);
    c.seed = seed;
    struct metapager *mp = create_ok(&c);
    struct victims v = {.size = 4 * KiB};
    mp_set_invalidate(mp, record_victim, &v);
    uint64_t r = 7;
    for (int i = 0; i < 5000; i++)
        assert_non_null(mp_page(mp, rng_next(&r) % 12, false));
    uint64_t h = 1469598103934665603u;
    for (size_t i = 0; i < v.n; i++)
        h = (h ^ v.list[i]) * 1099511628211u;
    *faults = mp_get_stats(mp)->faults;
    free(v.list);
    mp_destroy(mp);
    return h;
}

static void test_random_is_seeded(void **state)
{
    (void)state;
    uint64_t f1, f2, f3;
    uint64_t a = victim_hash(1, &f1), b = victim_hash(1, &f2), c = victim_hash(2, &f3);
    assert_int_equal(a, b);
    assert_int_equal(f1, f2);
    assert_int_not_equal(a, c);
}

/* ---- I/O only when needed ------------------------------------------------------------------- */

static void test_dirty_only_writeback(void **state)
{
    (void)state;
    for (int p = 0; p < MP_POLICY_COUNT; p++) {
        uint64_t size = 16 * KiB;
        struct mp_config c = config(2 * MiB, size, 4 * size, (mp_policy)p);
        struct metapager *mp = create_ok(&c);
        /* Reads only: nothing is ever written back. */
        for (int round = 0; round < 3; round++)
            for (uint64_t pg = 0; pg < 512; pg += 3)
                assert_non_null(mp_page(mp, pg, false));
        const struct mp_stats *s = mp_get_stats(mp);
        assert_true(s->evictions > 100);
        assert_int_equal(s->writebacks, 0);
        assert_int_equal(s->bytes_out, 0);
        /* Write one metapage, then stream reads over everything else: exactly one write-back,
         * and after it has been read back in clean and evicted again, still one. */
        uint8_t *w = mp_page(mp, 40, true);
        w[5] = 77;
        for (uint64_t pg = 0; pg < 512; pg++)
            if (pg / 4 != 10)
                assert_non_null(mp_page(mp, pg, false));
        assert_int_equal(s->writebacks, 1);
        assert_int_equal(s->bytes_out, size);
        assert_int_equal(mp_page(mp, 40, false)[5], 77);
        assert_int_equal(s->backing_reads, 1);
        for (uint64_t pg = 0; pg < 512; pg++)
            if (pg / 4 != 10)
                assert_non_null(mp_page(mp, pg, false));
        assert_int_equal(s->writebacks, 1);
        assert_int_equal(mp_page(mp, 41, false)[5 - 4096 + 4096], 0);
        mp_destroy(mp);
    }
}

static void test_zero_pages_without_io(void **state)
{
    (void)state;
    char dir[] = "/tmp/mp-test-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char path[64];
    snprintf(path, sizeof path, "%s/backing", dir);
    struct mp_config c = config(4 * MiB, 4 * KiB, 8 * KiB, MP_LRU);
    c.backing_path = path;
    struct metapager *mp = create_ok(&c);
    for (uint64_t pg = 0; pg < 1024; pg++) {
        const uint8_t *p = mp_page(mp, pg, false);
        assert_non_null(p);
        for (int i = 0; i < 4096; i++)
            assert_int_equal(p[i], 0);
    }
    const struct mp_stats *s = mp_get_stats(mp);
    assert_int_equal(s->faults, 1024);
    assert_int_equal(s->zero_fills, 1024);
    assert_int_equal(s->backing_reads + s->bytes_in + s->bytes_out + s->io_ns, 0);
    struct stat st;
    assert_int_equal(stat(path, &st), 0);
    assert_int_equal(st.st_size, 4 * MiB); /* sized, but sparse: */
    assert_int_equal(st.st_blocks, 0);
    /* A dirty zero page is written back (the rule is "dirty", not "non-zero"). */
    mp_page(mp, 0, true);
    mp_page(mp, 1, false);
    mp_page(mp, 2, false);
    assert_int_equal(s->writebacks, 1);
    mp_destroy(mp);
    /* A named backing file is the user's: it stays. */
    assert_int_equal(stat(path, &st), 0);
    unlink(path);
    rmdir(dir);
}

static void test_temporary_file_is_removed(void **state)
{
    (void)state;
    char dir[] = "/tmp/mp-test-XXXXXX";
    assert_non_null(mkdtemp(dir));
    struct mp_config c = config(MiB, 4 * KiB, 8 * KiB, MP_FIFO);
    c.tmp_dir = dir;
    struct metapager *mp = create_ok(&c);
    for (uint64_t pg = 0; pg < 256; pg++)
        mp_page(mp, pg, true)[1] = (uint8_t)pg;
    for (uint64_t pg = 0; pg < 256; pg++)
        assert_int_equal(mp_page(mp, pg, false)[1], (uint8_t)pg);
    /* Already unlinked while in use: nothing can be left behind, even after a crash. */
    DIR *d = opendir(dir);
    int entries = 0;
    for (struct dirent *e; (e = readdir(d));)
        entries += e->d_name[0] != '.';
    closedir(d);
    assert_int_equal(entries, 0);
    mp_destroy(mp);
    rmdir(dir);
}

/* -m 64G with an 8 MiB budget: host memory is the budget, the file is sparse. */
static void test_huge_sparse_ram(void **state)
{
    (void)state;
    char dir[] = "/tmp/mp-test-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char path[64];
    snprintf(path, sizeof path, "%s/backing", dir);
    struct mp_config c = config(64 * GiB, 64 * KiB, 8 * MiB, MP_CLOCK);
    c.backing_path = path;
    struct metapager *mp = create_ok(&c);
    assert_int_equal(mp_metapage_count(mp), 64 * GiB / (64 * KiB));
    assert_int_equal(mp_resident_capacity(mp), 128);
    uint64_t pages = 64 * GiB / 4096, r = 5;
    for (int i = 0; i < 2000; i++) {
        uint64_t pg = rng_next(&r) % pages;
        uint8_t *p = mp_page(mp, pg, true);
        assert_non_null(p);
        memcpy(p + 8, &pg, sizeof pg);
    }
    r = 5;
    for (int i = 0; i < 2000; i++) {
        uint64_t pg = rng_next(&r) % pages, got;
        memcpy(&got, mp_page(mp, pg, false) + 8, sizeof got);
        assert_int_equal(got, pg);
    }
    struct stat st;
    assert_int_equal(stat(path, &st), 0);
    assert_int_equal((uint64_t)st.st_size, 64 * GiB);
    assert_true((uint64_t)st.st_blocks * 512 < 512 * MiB);
    mp_destroy(mp);
    unlink(path);
    rmdir(dir);
}

/* The emulator's own accesses are not the guest's: no faults, no recency, no dirt. */
static void test_host_access_uncounted(void **state)
{
    (void)state;
    struct mp_config c = config(MiB, 8 * KiB, 16 * KiB, MP_LRU);
    struct metapager *mp = create_ok(&c);
    uint8_t img[10000];
    for (size_t i = 0; i < sizeof img; i++)
        img[i] = (uint8_t)(i * 7 + 1);
    assert_int_equal(mp_host_write(mp, 12345, img, sizeof img), 0);
    const struct mp_stats *s = mp_get_stats(mp);
    assert_int_equal(s->accesses + s->faults, 0);
    assert_int_equal(s->host_bytes_written, sizeof img);
    /* Visible to the guest, read from the file (it was stored, not zero). */
    assert_int_equal(mp_page(mp, 12345 / 4096, false)[12345 % 4096], img[0]);
    assert_int_equal(s->backing_reads, 1);
    /* A write into a resident, clean metapage keeps it clean: evicting it writes nothing. */
    uint8_t one = 0xee;
    assert_int_equal(mp_host_write(mp, 12345, &one, 1), 0);
    assert_int_equal(mp_page(mp, 12345 / 4096, false)[12345 % 4096], 0xee);
    mp_page(mp, 100, false);
    mp_page(mp, 102, false);
    mp_page(mp, 104, false);
    assert_false(mp_is_resident(mp, 12345 / 8192));
    assert_int_equal(s->writebacks, 0);
    uint8_t back[10000];
    assert_int_equal(mp_host_read(mp, 12345, back, sizeof back), 0);
    img[0] = 0xee;
    assert_memory_equal(back, img, sizeof img);
    uint64_t acc = s->accesses;
    assert_int_equal(mp_host_read(mp, 0, back, 100), 0);
    assert_int_equal(s->accesses, acc);
    /* Out of range: an error, not a crash. */
    assert_int_equal(mp_host_write(mp, MiB - 4, img, 8), -1);
    assert_non_null(strstr(mp_error(mp), "past the end of RAM"));
    assert_int_equal(mp_host_read(mp, UINT64_MAX - 2, back, 8), -1);
    assert_null(mp_page(mp, MiB / 4096, false));
    mp_destroy(mp);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parse_bytes),
        cmocka_unit_test(test_config_errors),
        cmocka_unit_test(test_disk_full),
        cmocka_unit_test(test_invisible_tiny_budgets),
        cmocka_unit_test(test_exact_policies_vs_reference),
        cmocka_unit_test(test_random_is_seeded),
        cmocka_unit_test(test_dirty_only_writeback),
        cmocka_unit_test(test_zero_pages_without_io),
        cmocka_unit_test(test_temporary_file_is_removed),
        cmocka_unit_test(test_huge_sparse_ram),
        cmocka_unit_test(test_host_access_uncounted),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
