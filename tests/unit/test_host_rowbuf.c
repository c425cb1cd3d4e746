/* RowScope's open-page model on hand traces, its mappings, and its closed-form stride curve. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "host/rowbuf.h"

static void test_hand_trace_two_banks(void **state)
{
    (void)state;
    rb_config c = {.row_size = 8192, .banks = 2, .mapping = RB_MAP_ROWSCOPE};
    rowbuf *r = rowbuf_new(&c);
    /* bank = (a / 8K) % 2, row = a / 16K */
    assert_int_equal(rowbuf_access(r, 0), RB_MISS);          /* b0 empty -> open r0 */
    assert_int_equal(rowbuf_access(r, 100), RB_HIT);         /* b0 r0 */
    assert_int_equal(rowbuf_access(r, 8192), RB_MISS);       /* b1 empty */
    assert_int_equal(rowbuf_access(r, 16384), RB_CONFLICT);  /* b0 r1 vs open r0 */
    assert_int_equal(rowbuf_access(r, 0), RB_CONFLICT);      /* b0 r0 vs open r1 */
    assert_int_equal(rowbuf_access(r, 8200), RB_HIT);        /* b1 r0 */
    const rb_counts *b0 = rowbuf_bank(r, 0), *b1 = rowbuf_bank(r, 1);
    assert_int_equal(b0->hits, 1);
    assert_int_equal(b0->misses, 1);
    assert_int_equal(b0->conflicts, 2);
    assert_int_equal(b1->hits, 1);
    assert_int_equal(b1->misses, 1);
    assert_int_equal(b1->conflicts, 0);
    rb_counts t = rowbuf_total(r);
    assert_int_equal(t.hits + t.misses + t.conflicts, 6);
    rowbuf_free(r);
}

static void test_mappings(void **state)
{
    (void)state;
    uint32_t bank;
    uint64_t row, col;
    rb_config x = {.row_size = 1024, .banks = 8, .mapping = RB_MAP_XOR};
    rb_map(&x, 9 * 1024 + 5, &bank, &row, &col); /* line 9: row 1, bank (9 ^ 1) % 8 = 0 */
    assert_int_equal(bank, 0);
    assert_int_equal(row, 1);
    assert_int_equal(col, 5);
    rb_config s = x;
    s.mapping = RB_MAP_ROWSCOPE;
    rb_map(&s, 9 * 1024 + 5, &bank, &row, &col); /* bank 9 % 8 = 1 */
    assert_int_equal(bank, 1);
    assert_int_equal(row, 1);
    rb_config b = {.row_size = 1024, .banks = 4, .mapping = RB_MAP_BANK_ROW_COL, .mem_bytes = 65536};
    rb_map(&b, 20000, &bank, &row, &col); /* 16K per bank: bank 1, row 3616 / 1024 = 3 */
    assert_int_equal(bank, 1);
    assert_int_equal(row, 3);
    assert_int_equal(col, 20000 % 1024);
    b.base = 0x80000000u;
    rb_map(&b, 0x80000000u + 20000, &bank, &row, &col);
    assert_int_equal(bank, 1);
    const char *why;
    b.mem_bytes = 1000;
    assert_int_equal(rb_check_config(&b, &why), -1);
}

/* RowScope: a sweep with a stride of s 4-byte elements over 8 KiB rows hits 1 - 4s/8192. */
static void test_stride_matches_closed_form(void **state)
{
    (void)state;
    for (uint64_t s = 1; s <= 1024; s *= 4) {
        rb_config c = {.row_size = 8192, .banks = 8, .mapping = RB_MAP_ROWSCOPE};
        rowbuf *r = rowbuf_new(&c);
        for (uint64_t a = 0; a < (UINT64_C(1) << 20); a += 4 * s)
            rowbuf_access(r, a);
        rb_counts t = rowbuf_total(r);
        double n = (double)(t.hits + t.misses + t.conflicts);
        double h = (double)t.hits / n, want = rb_stride_hit_rate_model(s, 4, 8192);
        assert_true(h > want - 1e-9 && h < want + 1e-9);
        rowbuf_free(r);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hand_trace_two_banks),
        cmocka_unit_test(test_mappings),
        cmocka_unit_test(test_stride_matches_closed_form),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
