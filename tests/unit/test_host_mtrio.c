/* What `metatrace info` says about a container's index (host/mtrio.c mtp_describe): the cycle
 * range comes from the frames that hold samples (a last frame of markers only used to give
 * "cycles 8..0"), and the checked / unchecked / set-aside state is named. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "host/traceio.h"
#include "mt_mtr.h"

static void describe(const char *path, char *out, size_t cap)
{
    char err[600];
    ht_source *s = trace_open(path, err, sizeof err);
    assert_non_null(s);
    FILE *f = fmemopen(out, cap, "w");
    assert_non_null(f);
    s->describe(s, f);
    fclose(f);
    ht_close(s);
}

static void test_index_cycles_from_frames_with_samples(void **state)
{
    (void)state;
    char path[64], err[256];
    snprintf(path, sizeof path, "/tmp/test_host_mtrio_%d.mtr", (int)getpid());
    mt_writer_config wc = {.frame_bytes = 512, .sync_period = 128};
    mt_writer *w = mt_writer_create(path, &wc, err, sizeof err);
    assert_non_null(w);
    assert_int_equal(mt_writer_section(w, 0, MT_FMT_FULL, 1, 8), 0);
    for (uint64_t c = 8; c < 408; c++)
        assert_int_equal(mt_writer_sample(w, c, 0x80000000 + c * 64, 0), 0);
    for (int i = 0; i < 2000; i++) /* then frames holding markers only */
        assert_int_equal(mt_writer_marker(w, (uint32_t)i), 0);
    assert_int_equal(mt_writer_close(w), 0);
    char text[16384];
    describe(path, text, sizeof text);
    char *line = strstr(text, "index: ");
    assert_non_null(line);
    assert_non_null(strstr(line, "400 samples, cycles 8..407, checked"));
    assert_non_null(strstr(text, "header: checked"));
    unlink(path);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_index_cycles_from_frames_with_samples),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
