/* gen_golden [--plain] VECTOR EXP DEC [MTR]: runs a golden vector through the C model and writes
 * the expected output (EXP), the decoder's listing of it (DEC) and, optionally, the stream in a
 * .mtr container with small frames (fuzzing seeds). See tests/golden/README.md.  --plain: the
 * model without compression (every sample a FULL packet), what the RTL's minimal build writes;
 * test_rtl_minimal.sh checks that build against such files, which are not checked in. */
#include <stdio.h>
#include <string.h>

#include "golden_run.h"
#include "mt_mtr.h"

static int write_file(const char *path, const gr_text *t)
{
    FILE *f = fopen(path, "w");
    if (!f || fwrite(t->p, 1, t->n, f) != t->n || fclose(f) != 0) {
        fprintf(stderr, "gen_golden: %s: cannot write\n", path);
        return -1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    int plain = 0;
    if (argc > 1 && !strcmp(argv[1], "--plain")) {
        plain = 1;
        argc--;
        argv++;
    }
    if (argc != 4 && argc != 5) {
        fprintf(stderr, "usage: gen_golden [--plain] VECTOR EXP DEC [MTR]\n");
        return 2;
    }
    FILE *in = fopen(argv[1], "r");
    if (!in) {
        fprintf(stderr, "gen_golden: %s: cannot open\n", argv[1]);
        return 1;
    }
    gr_text exp = {0}, dec = {0};
    uint8_t *bytes = NULL;
    size_t n = 0;
    char err[256];
    int rc = gr_run(in, argv[1], plain, &exp, &bytes, &n, err, sizeof err);
    fclose(in);
    if (rc) {
        fprintf(stderr, "gen_golden: %s\n", err);
        return 1;
    }
    mt_dec d;
    mt_dec_init(&d, gr_dec_cb, &dec);
    mt_dec_feed(&d, bytes, n);
    mt_dec_finish(&d);
    rc = write_file(argv[2], &exp) || write_file(argv[3], &dec);
    if (!rc && argc == 5) {
        mt_writer_config wc = {.producer = "gen_golden", .frame_bytes = 256};
        mt_writer *w = mt_writer_create(argv[4], &wc, err, sizeof err);
        if (!w || mt_writer_raw(w, bytes, n) != 0 || mt_writer_close(w) != 0) {
            fprintf(stderr, "gen_golden: %s\n", w ? mt_writer_error(w) : err);
            rc = 1;
        }
    }
    free(bytes);
    free(exp.p);
    free(dec.p);
    return rc ? 1 : 0;
}
