/* mt_pread_full / mt_pwrite_full: every byte moved at any offset, a read stopped only by the end
 * of the file, and errors (a full device, a closed descriptor) reported with errno. */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "mt_fullio.h"

static int temp_fd(void)
{
    char path[] = "/tmp/test_lib_fullio_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    unlink(path);
    return fd;
}

static void test_round_trip_at_offsets(void **state)
{
    (void)state;
    int fd = temp_fd();
    enum { N = 3 << 20 }; /* larger than one pipe-sized chunk, not a power of two apart */
    uint8_t *out = malloc(N), *in = malloc(N + 16);
    assert_non_null(out);
    assert_non_null(in);
    for (size_t i = 0; i < N; i++)
        out[i] = (uint8_t)(i * 2654435761u >> 13);
    assert_int_equal(mt_pwrite_full(fd, out, N, 4097), 0);
    assert_int_equal(mt_pwrite_full(fd, out, 100, 0), 0);
    assert_int_equal(mt_pread_full(fd, in, N, 4097), N);
    assert_memory_equal(in, out, N);
    /* the hole between the two writes reads as zeros */
    assert_int_equal(mt_pread_full(fd, in, 10, 200), 10);
    for (int i = 0; i < 10; i++)
        assert_int_equal(in[i], 0);
    /* past the end: the bytes that are there, then 0 */
    assert_int_equal(mt_pread_full(fd, in, N + 16, 4097), N);
    assert_int_equal(mt_pread_full(fd, in, 16, (uint64_t)N + 4097), 0);
    /* the descriptor's own offset is not moved */
    assert_int_equal(lseek(fd, 0, SEEK_CUR), 0);
    close(fd);
    free(out);
    free(in);
}

static void test_errors_reported(void **state)
{
    (void)state;
    uint8_t b[64] = {0};
    int full = open("/dev/full", O_WRONLY);
    if (full >= 0) {
        errno = 0;
        assert_int_equal(mt_pwrite_full(full, b, sizeof b, 0), -1);
        assert_int_equal(errno, ENOSPC);
        close(full);
    }
    int fd = temp_fd();
    close(fd);
    errno = 0;
    assert_int_equal(mt_pwrite_full(fd, b, sizeof b, 0), -1);
    assert_int_equal(errno, EBADF);
    errno = 0;
    assert_int_equal(mt_pread_full(fd, b, sizeof b, 0), -1);
    assert_int_equal(errno, EBADF);
    /* nothing to move is not an error */
    assert_int_equal(mt_pwrite_full(-1, b, 0, 0), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_round_trip_at_offsets),
        cmocka_unit_test(test_errors_reported),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
