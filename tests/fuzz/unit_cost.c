/* Where fuzz_unit_modes' time goes, input by input: runs each file of a corpus through the
 * harness's passes (tests/fuzz/fuzz_unit.c, #included: the same code) and prints, per input, the
 * CPU seconds of all its passes, its name, span and items (both after the harness's cuts), and
 * each pass's share, in the fuzzer's order: the lazy one (a, run first: it decides the cut at
 * OUT_BUDGET), the per-cycle one (b), the emulator's two passes (h: every access, which may cut
 * the input further at its own stream's budget; q: through the schedule's copy); then the
 * totals.  `sort -rn` puts the expensive inputs first.  Built as
 * $(BUILD)/fuzz/unit_cost with ASan, UBSan and coverage counters (as the fuzzer's objects are,
 * without libFuzzer): `make build/fuzz/unit_cost`, then `build/fuzz/unit_cost CORPUS_DIR`.
 * docs/robustness.md (fifth session) has what it found. */
#define FUZZ_UNIT_MODES 1
#include "fuzz_unit.c"

#include "corpus_walk.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <time.h>

static double cpu_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: unit_cost CORPUS_DIR\n");
        return 2;
    }
    DIR *dir = opendir(argv[1]);
    if (!dir) {
        fprintf(stderr, "unit_cost: %s: %s\n", argv[1], strerror(errno));
        return 1;
    }
    static uint8_t data[4097];
    static buf a, b, h, q;
    double tq = 0, ta = 0, tb = 0, th = 0;
    unsigned inputs = 0;
    const char *name;
    long got;
    while ((got = corpus_next(dir, argv[1], "unit_cost", data, sizeof data - 1, &name)) >= 0) {
        extent e = items_within_span(data, (size_t)got);
        inputs++;
        a.n = b.n = h.n = q.n = 0;
        uint64_t samples;
        const double t0 = cpu_now();
        run(data, &e, 1, 1, &a, &samples); /* first: it decides the cut at OUT_BUDGET */
        const double t1 = cpu_now();
        if (extent_span(data, &e) <= PER_CYCLE_SPAN_MAX)
            run(data, &e, 0, 0, &b, &samples);
        const double t2 = cpu_now();
        run_hooked(data, &e, 0, 1, &h); /* (it may cut the input further, as in the fuzzer) */
        const double t3 = cpu_now();
        run_hooked(data, &e, 1, 0, &q);
        const double t4 = cpu_now();
        ta += t1 - t0, tb += t2 - t1, th += t3 - t2, tq += t4 - t3;
        printf("%.6f %s span=%llu items=%zu q=%.6f h=%.6f a=%.6f b=%.6f\n", t4 - t0, name,
               (unsigned long long)extent_span(data, &e), e.size > 2 ? (e.size - 2) / 4 : 0, t4 - t3, t3 - t2,
               t1 - t0, t2 - t1);
    }
    closedir(dir);
    printf("total %.6f inputs=%u q=%.6f h=%.6f a=%.6f b=%.6f\n", tq + th + ta + tb, inputs, tq, th, ta, tb);
    return 0;
}
