/* A user's first program against the installed libmetatrace (tests/install/install.sh builds it
 * with `pkg-config --cflags --libs metatrace`): reads a trace through the container reader and
 * the packet decoder and prints "samples: N (W writes)", as `metatrace info` does. */
#include <metatrace/mt_dec.h>
#include <metatrace/mt_mtr.h>
#include <metatrace/mt_version.h>

#include <inttypes.h>
#include <stdio.h>

typedef struct {
    uint64_t samples, writes, losses;
} counts;

static void count(void *ctx, const mt_dec_event *ev)
{
    counts *c = ctx;
    if (ev->type == MT_DEV_SAMPLE) {
        c->samples++;
        c->writes += ev->rw;
    } else if (ev->type == MT_DEV_LOSS) {
        c->losses++;
    }
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: count_samples TRACE (metatrace %s)\n", MT_VERSION_STRING);
        return 2;
    }
    char err[512];
    mt_file *f = mt_file_open(argv[1], err, sizeof err);
    if (!f) {
        fprintf(stderr, "count_samples: %s\n", err);
        return 1;
    }
    counts c = {0};
    mt_dec d;
    mt_dec_init(&d, count, &c);
    uint8_t buf[65536];
    ssize_t n;
    while ((n = mt_file_read(f, buf, sizeof buf)) > 0)
        mt_dec_feed(&d, buf, (size_t)n);
    mt_dec_finish(&d);
    if (n < 0) {
        fprintf(stderr, "count_samples: %s\n", mt_file_error(f));
        mt_file_close(f);
        return 1;
    }
    mt_file_close(f);
    printf("samples: %" PRIu64 " (%" PRIu64 " writes)\n", c.samples, c.writes);
    return c.losses ? 1 : 0;
}
