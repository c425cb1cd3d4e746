/* Command-line number parsing and the text formats of export. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "host/cli.h"
#include "host/exporters.h"

static void test_numbers(void **state)
{
    (void)state;
    uint64_t v;
    assert_int_equal(cli_parse_bytes("8M", &v), 0);
    assert_int_equal(v, 8 << 20);
    assert_int_equal(cli_parse_bytes("4KiB", &v), 0);
    assert_int_equal(v, 4096);
    assert_int_equal(cli_parse_bytes("12k", &v), 0);
    assert_int_equal(v, 12288);
    assert_int_equal(cli_parse_bytes("1G", &v), 0);
    assert_int_equal(v, UINT64_C(1) << 30);
    assert_int_equal(cli_parse_bytes("8X", &v), -1);
    assert_int_equal(cli_parse_bytes("-1", &v), -1);
    assert_int_equal(cli_parse_u64("0x1f", &v), 0);
    assert_int_equal(v, 31);
    assert_int_equal(cli_parse_u64("12a", &v), -1);
    double d;
    assert_int_equal(cli_parse_si("1GHz", &d), 0);
    assert_true(d == 1e9);
    assert_int_equal(cli_parse_si("80us", &d), 0);
    assert_true(d > 79.9e-6 && d < 80.1e-6);
    assert_int_equal(cli_parse_si("3x5", &d), -1);
    uint64_t list[16];
    assert_int_equal(cli_parse_bytes_list("4K..64K", list, 16), 5);
    assert_int_equal(list[4], 65536);
    assert_int_equal(cli_parse_bytes_list("4K,12K,2M", list, 16), 3);
    assert_int_equal(list[1], 12288);
    assert_int_equal(cli_parse_bytes_list("4K..2M", list, 3), -1); /* too many */
    char b[32];
    assert_string_equal(cli_bytes_str(2 << 20, b, sizeof b), "2M");
    assert_string_equal(cli_bytes_str(12288, b, sizeof b), "12K");
    assert_string_equal(cli_bytes_str(100, b, sizeof b), "100");
}

static void test_export_lines(void **state)
{
    (void)state;
    char buf[512];
    FILE *f = fmemopen(buf, sizeof buf, "w");
    export_line(f, EXP_DRAMSIM2, 7, 0x12345680, 0);
    export_line(f, EXP_DRAMSIM2, 9, 0x4cbd56c0, 1);
    export_line(f, EXP_DRAMSIM3, 7, 0x12345680, 0);
    export_line(f, EXP_DRAMSIM3, 9, 0x4cbd56c0, 1);
    export_line(f, EXP_RAMULATOR, 7, 0x12345680, 0);
    export_line(f, EXP_RAMULATOR, 9, 0x4cbd56c0, 1);
    export_line(f, EXP_CSV, 9, 0x4cbd56c0, 1);
    fclose(f);
    assert_string_equal(buf, "0x12345680 P_MEM_RD 7\n0x4CBD56C0 P_MEM_WR 9\n"
                             "0x12345680 READ 7\n0x4CBD56C0 WRITE 9\n"
                             "0x12345680 R\n0x4cbd56c0 W\n9,0x4cbd56c0,W\n");
    export_kind k;
    assert_int_equal(export_parse_kind("dramsim", &k), 0);
    assert_int_equal(k, EXP_DRAMSIM3);
    assert_int_equal(export_parse_kind("gem5", &k), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_numbers),
        cmocka_unit_test(test_export_lines),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
