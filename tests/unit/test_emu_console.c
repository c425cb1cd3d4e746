/* The console escapes of the UART's input path (emu/devices/uart.c, emu/devices/console.h): Ctrl-A x quits,
 * Ctrl-A Ctrl-A passes one Ctrl-A, other escapes are swallowed, everything else goes through,
 * and an escape split across two reads still works. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "emu/devices/uart.h"

static void count_quit(void *ctx) { ++*(int *)ctx; }

static unsigned filter(mt_uart *u, const char *in, uint8_t *out)
{
    size_t n = strlen(in);
    memcpy(out, in, n);
    return uart_filter_escapes(u, out, (unsigned)n);
}

static void test_plain_bytes_pass(void **state)
{
    (void)state;
    mt_uart u = {0};
    uint8_t buf[64];
    unsigned n = filter(&u, "ls -l\r", buf);
    assert_int_equal(n, 6);
    assert_memory_equal(buf, "ls -l\r", 6);
}

static void test_ctrl_a_x_quits_and_drops_the_rest(void **state)
{
    (void)state;
    int quits = 0;
    mt_uart u = {.on_quit = count_quit, .quit_ctx = &quits};
    uint8_t buf[64];
    unsigned n = filter(&u, "ab\x01xcd", buf);
    assert_int_equal(quits, 1);
    assert_int_equal(n, 2);
    assert_memory_equal(buf, "ab", 2);
}

static void test_double_ctrl_a_sends_one_and_unknown_is_swallowed(void **state)
{
    (void)state;
    int quits = 0;
    mt_uart u = {.on_quit = count_quit, .quit_ctx = &quits};
    uint8_t buf[64];
    unsigned n = filter(&u, "a\x01\x01" "b\x01zc", buf);
    assert_int_equal(quits, 0);
    assert_int_equal(n, 4);
    assert_memory_equal(buf, "a\x01" "bc", 4);
}

static void test_escape_split_across_reads(void **state)
{
    (void)state;
    int quits = 0;
    mt_uart u = {.on_quit = count_quit, .quit_ctx = &quits};
    uint8_t buf[64];
    assert_int_equal(filter(&u, "q\x01", buf), 1);
    assert_int_equal(quits, 0);
    assert_int_equal(filter(&u, "x", buf), 0);
    assert_int_equal(quits, 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_plain_bytes_pass),
        cmocka_unit_test(test_ctrl_a_x_quits_and_drops_the_rest),
        cmocka_unit_test(test_double_ctrl_a_sends_one_and_unknown_is_swallowed),
        cmocka_unit_test(test_escape_split_across_reads),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
