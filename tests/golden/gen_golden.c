/* gen_golden VECTOR EXP DEC: runs a golden vector through the C model and writes the expected
 * output (EXP) and the decoder's listing of it (DEC). See tests/golden/README.md. */
#include <stdio.h>

#include "golden_run.h"

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
    if (argc != 4) {
        fprintf(stderr, "usage: gen_golden VECTOR EXP DEC\n");
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
    int rc = gr_run(in, argv[1], &exp, &bytes, &n, err, sizeof err);
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
    free(bytes);
    free(exp.p);
    free(dec.p);
    return rc ? 1 : 0;
}
