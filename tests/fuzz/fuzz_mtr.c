/* libFuzzer target: the .mtr container reader on arbitrary file contents (also .mtp and plain
 * zstd), then the decoder on whatever it returns. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "mt_dec.h"
#include "mt_mtr.h"
#include "memfile.h"

static void cb(void *ctx, const mt_dec_event *e)
{
    (void)e;
    (*(uint64_t *)ctx)++;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path = fuzz_memfile_set(data, size); /* tests/fuzz/memfile.c */
    char err[256];
    mt_file *mf = mt_file_open(path, err, sizeof err);
    if (mf) {
        size_t ni;
        const mt_frame_index *ix = mt_file_index(mf, &ni);
        volatile uint64_t sum = 0; /* touch every entry: ASan checks the index array */
        for (size_t i = 0; i < ni; i++)
            sum += ix[i].comp_size + ix[i].samples;
        (void)sum;
        uint64_t events = 0;
        mt_dec d;
        mt_dec_init(&d, cb, &events);
        uint8_t buf[777];
        ssize_t k;
        /* The whole stream, then after a rewind its first READ_AGAIN bytes: the rewind and the
         * reads after it are what the second pass adds (a whole second decode of the same bytes
         * was a third of the target's time). A zstd bomb is read up to BOMB_CAP: two of the
         * writer's 1 MiB flushes and more, every path a longer one could take (64 MiB took
         * about a CPU second a run under ASan). */
        enum { READ_AGAIN = 4 * sizeof buf, BOMB_CAP = 3u << 20 };
        for (int pass = 0; pass < 2; pass++) {
            uint64_t total = 0, cap = pass ? READ_AGAIN : BOMB_CAP;
            while (total < cap && (k = mt_file_read(mf, buf, sizeof buf)) > 0) {
                mt_dec_feed(&d, buf, (size_t)k);
                total += (uint64_t)k;
            }
            if (pass == 0 && mt_file_rewind(mf) != 0)
                break;
        }
        mt_dec_finish(&d);
        mt_file_close(mf);
    }
    return 0;
}
