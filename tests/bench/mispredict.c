/* The cost of one conditional branch the host cannot predict, in ns: the floor under any
 * emulator's cost of a sample taken at a time the guest's control flow does not foretell (the
 * trace unit's samples come every r cycles, whatever the program does), printed by
 * tests/e2e/trace-bench.sh next to the measured cost of tracing inside a burst.
 *
 * Method: the same loop over the same number of taken branches, once with the outcomes in a
 * pattern the predictor learns (taken, not taken, alternating) and once in a random order (taken
 * with probability 1/2, so one outcome in two is mispredicted on average).  The taken path does
 * the same work in both, so the difference per iteration is half a misprediction.  The least of
 * several repetitions damps a shared machine.  Output: one line, "mispredict_ns X". */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

enum { N = 1 << 22, REPEATS = 7 };

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* noinline and the empty asm keep the branch a branch (no cmov, no vectorised select) */
static __attribute__((noinline)) uint64_t walk(const uint8_t *taken, uint64_t *sink)
{
    uint64_t x = 0;
    for (unsigned i = 0; i < N; i++) {
        if (taken[i]) {
            __asm__ volatile("" ::: "memory");
            x += i * 3u;
            sink[i & 7]++;
        } else {
            x ^= i;
        }
    }
    return x;
}

static double least_seconds(const uint8_t *taken, uint64_t *sink)
{
    double best = 1e9;
    for (int r = 0; r < REPEATS; r++) {
        double t0 = now();
        sink[8] += walk(taken, sink);
        double t = now() - t0;
        if (t < best)
            best = t;
    }
    return best;
}

int main(void)
{
    uint8_t *pattern = malloc(N), *random = malloc(N);
    uint64_t sink[9] = {0};
    if (!pattern || !random) {
        fprintf(stderr, "mispredict: out of memory\n");
        return 1;
    }
    uint64_t s = 0x9e3779b97f4a7c15u; /* xorshift64: a fixed seed, the same order every run */
    for (unsigned i = 0; i < N; i++) {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        pattern[i] = i & 1;
        random[i] = (uint8_t)(s >> 63);
    }
    double predictable = least_seconds(pattern, sink), unpredictable = least_seconds(random, sink);
    double ns = 2.0 * (unpredictable - predictable) / N * 1e9;
    printf("mispredict_ns %.2f\n", ns > 0 ? ns : 0.0);
    free(pattern);
    free(random);
    return sink[8] == 42 ? 2 : 0; /* uses the results, so the loops cannot be dropped */
}
