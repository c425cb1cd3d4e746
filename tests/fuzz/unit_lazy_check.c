/* fuzz_unit_modes' lazy pass against per-cycle clocking over a whole corpus, without the
 * fuzzer's PER_CYCLE_SPAN_MAX (inputs up to MAX_SPAN cycles: the busy sessions the fuzzer checks
 * only lazily): every input run through fuzz_unit.c's run() both ways (#included: the same
 * code), the output bytes and sample counts compared.  Prints the inputs that differ and a
 * count; exit 1 if any does.  Built like unit_cost: `make build/fuzz/unit_lazy_check`, then
 * `build/fuzz/unit_lazy_check CORPUS_DIR` (docs/robustness.md, sixth session). */
#define FUZZ_UNIT_MODES 1
#include "fuzz_unit.c"

#include "corpus_walk.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: unit_lazy_check CORPUS_DIR\n");
        return 2;
    }
    DIR *dir = opendir(argv[1]);
    if (!dir) {
        fprintf(stderr, "unit_lazy_check: %s: %s\n", argv[1], strerror(errno));
        return 2;
    }
    static uint8_t data[4097];
    static buf lazy, per_cycle;
    unsigned inputs = 0, differ = 0;
    const char *name;
    long got;
    while ((got = corpus_next(dir, argv[1], "unit_lazy_check", data, sizeof data - 1, &name)) >= 0) {
        extent e = items_within_span(data, (size_t)got);
        lazy.n = per_cycle.n = 0;
        uint64_t sl, sp;
        run(data, &e, 1, 1, &lazy, &sl); /* (cut at OUT_BUDGET as the fuzzer cuts it) */
        run(data, &e, 0, 0, &per_cycle, &sp);
        inputs++;
        if (lazy.n != per_cycle.n || (lazy.n && memcmp(lazy.p, per_cycle.p, lazy.n)) || sl != sp) {
            differ++;
            printf("differ: %s (%zu against %zu bytes)\n", name, lazy.n, per_cycle.n);
        }
    }
    closedir(dir);
    printf("%u inputs, %u differ\n", inputs, differ);
    return differ ? 1 : 0;
}
