/* libFuzzer target: the streaming decoder on arbitrary bytes, fed in pieces whose sizes come
 * from the input too. It must never read outside what it is given, never abort, and keep its
 * offsets consistent. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "mt_dec.h"

typedef struct {
    uint64_t events, last_offset, samples;
} stats;

static void cb(void *ctx, const mt_dec_event *e)
{
    stats *s = ctx;
    s->events++;
    if (e->type == MT_DEV_SAMPLE)
        s->samples++;
    s->last_offset = e->offset;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    unsigned piece = data[0] % 33; /* 0: all at once */
    data++;
    size--;
    stats s = {0};
    mt_dec d;
    mt_dec_init(&d, cb, &s);
    if (!piece) {
        mt_dec_feed(&d, data, size);
    } else {
        for (size_t i = 0; i < size; i += piece) {
            /* copy each piece to its own allocation so ASan catches any read past it */
            size_t k = size - i < piece ? size - i : piece;
            uint8_t *p = malloc(k);
            for (size_t j = 0; j < k; j++)
                p[j] = data[i + j];
            mt_dec_feed(&d, p, k);
            free(p);
        }
    }
    mt_dec_finish(&d);
    if (s.events && s.last_offset > size)
        abort();
    if (d.samples != s.samples)
        abort();
    return 0;
}
