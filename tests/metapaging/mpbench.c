/* The meta-pager's fault path on its own, without the emulator: faults per second of host time
 * and where the time goes, for sweeps over 256 MiB of guest RAM with an 8 MiB budget.
 *
 *   write:   every page written; each fault zero-fills (first touch, no read) and, once the
 *            budget is full, writes a dirty victim back
 *   read 1:  each fault reads a metapage back (the first victims are still dirty)
 *   read 2:  each fault reads a metapage back; victims are clean (no write-back)
 *
 * The reference, measured in the same run: memcpy of the same number of bytes between two 8 MiB
 * host buffers ("vs memcpy" = fault-path bytes per second / memcpy bytes per second).
 *
 * Usage: mpbench [SIZE...]   (default 4K 64K 2M).  Prints one line per (size, sweep). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "emu/metapaging/metapager.h"

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
    const char *defaults[] = {"4K", "64K", "2M"};
    int nsizes = argc > 1 ? argc - 1 : 3;
    const uint64_t ram = UINT64_C(1) << 30, swept = UINT64_C(256) << 20, budget = 8u << 20;
    /* Reference: plain memory copying of the swept volume. */
    uint8_t *a = calloc(1, budget), *b = calloc(1, budget);
    if (!a || !b)
        return 2;
    memset(a, 1, budget);
    double t0 = now_s();
    for (uint64_t done = 0; done < swept; done += budget) {
        memcpy(b, a, budget);
        a[done >> 20] ^= b[(done >> 12) & (budget - 1)];
    }
    double memcpy_mbs = (double)swept / (now_s() - t0) / 1e6;
    free(a);
    free(b);
    printf("reference: memcpy %.0f MB/s\n", memcpy_mbs);
    printf("%-8s %-8s %10s %12s %10s %10s %10s %10s\n", "size", "sweep", "faults", "faults/s",
           "MB/s", "vs memcpy", "io share", "write-backs");
    for (int i = 0; i < nsizes; i++) {
        const char *arg = argc > 1 ? argv[i + 1] : defaults[i];
        struct mp_config c = {.ram_bytes = ram, .budget_bytes = budget, .policy = MP_LRU};
        char err[256];
        if (mp_parse_bytes(arg, &c.metapage_bytes) != 0) {
            fprintf(stderr, "mpbench: '%s' is not a size\n", arg);
            return 2;
        }
        struct metapager *mp = mp_create(&c, err, sizeof err);
        if (!mp) {
            fprintf(stderr, "mpbench: %s\n", err);
            return 2;
        }
        const char *names[] = {"write", "read 1", "read 2"};
        for (int sweep = 0; sweep < 3; sweep++) {
            struct mp_stats before = *mp_get_stats(mp);
            double t0 = now_s();
            for (uint64_t pg = 0; pg < swept >> 12; pg++) {
                uint8_t *p = mp_page(mp, pg, sweep == 0);
                if (!p) {
                    fprintf(stderr, "mpbench: %s\n", mp_error(mp));
                    return 1;
                }
                if (sweep == 0)
                    p[pg & 4095] = (uint8_t)pg;
                else if (p[pg & 4095] != (uint8_t)pg) {
                    fprintf(stderr, "mpbench: page %" PRIu64 " lost its data\n", pg);
                    return 1;
                }
            }
            double dt = now_s() - t0;
            const struct mp_stats *s = mp_get_stats(mp);
            uint64_t faults = s->faults - before.faults;
            uint64_t moved = s->bytes_in - before.bytes_in + s->bytes_out - before.bytes_out;
            double io = (double)(s->io_ns - before.io_ns) * 1e-9;
            double mbs = (double)moved / dt / 1e6;
            printf("%-8s %-8s %10" PRIu64 " %12.0f %10.0f %10.3f %9.0f%% %10" PRIu64 "\n", arg,
                   names[sweep], faults, (double)faults / dt, mbs, mbs / memcpy_mbs,
                   100.0 * io / dt, s->writebacks - before.writebacks);
        }
        mp_destroy(mp);
    }
    return 0;
}
