/* The C model and the decoder against the checked-in golden vectors (tests/golden/): the
 * model's bytes, per-cycle FIFO levels and drained bytes must match *.exp exactly, and the
 * decoder's listing *.dec, whatever the sizes of the pieces the stream is fed in. */
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>

#include <cmocka.h>

#include "tests/golden/golden_run.h"

static const char *golden_dir(void)
{
    const char *d = getenv("MT_GOLDEN_DIR");
    return d ? d : "tests/golden";
}

static char *slurp(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long sz = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *p = malloc((size_t)sz + 1);
    *n = fread(p, 1, (size_t)sz, f);
    p[*n] = 0;
    fclose(f);
    return p;
}

static void check_text(const char *what, const char *path, const gr_text *got)
{
    size_t n = 0;
    char *want = slurp(path, &n);
    if (!want)
        fail_msg("%s: missing (run make golden)", path);
    if (n != got->n || memcmp(want, got->p, n)) {
        size_t i = 0;
        while (i < n && i < got->n && want[i] == got->p[i])
            i++;
        size_t line = 1;
        for (size_t k = 0; k < i; k++)
            line += want[k] == '\n';
        fail_msg("%s differs from %s at line %zu", what, path, line);
    }
    free(want);
}

static void test_vectors(void **state)
{
    (void)state;
    DIR *d = opendir(golden_dir());
    assert_non_null(d);
    struct dirent *e;
    int count = 0;
    while ((e = readdir(d))) {
        size_t l = strlen(e->d_name);
        if (l < 5 || strcmp(e->d_name + l - 4, ".vec"))
            continue;
        char base[512], path[600];
        snprintf(base, sizeof base, "%s/%.*s", golden_dir(), (int)(l - 4), e->d_name);
        snprintf(path, sizeof path, "%s.vec", base);
        FILE *in = fopen(path, "r");
        assert_non_null(in);
        gr_text exp = {0};
        uint8_t *bytes = NULL;
        size_t n = 0;
        char err[1024];
        /* the name in the .exp header is the path gen_golden was given */
        char name[600];
        snprintf(name, sizeof name, "tests/golden/%s", e->d_name);
        int rc = gr_run(in, name, 0, &exp, &bytes, &n, err, sizeof err);
        fclose(in);
        if (rc)
            fail_msg("%s", err);
        snprintf(path, sizeof path, "%s.exp", base);
        check_text("model output", path, &exp);
        /* decoder, fed whole and in pieces of 1..17 bytes */
        snprintf(path, sizeof path, "%s.dec", base);
        for (size_t piece = 0; piece <= 17; piece++) {
            gr_text dec = {0};
            mt_dec dd;
            mt_dec_init(&dd, gr_dec_cb, &dec);
            if (piece == 0) {
                mt_dec_feed(&dd, bytes, n);
            } else {
                for (size_t i = 0; i < n; i += piece)
                    mt_dec_feed(&dd, bytes + i, n - i < piece ? n - i : piece);
            }
            mt_dec_finish(&dd);
            check_text("decoder listing", path, &dec);
            free(dec.p);
        }
        free(bytes);
        free(exp.p);
        count++;
    }
    closedir(d);
    assert_true(count >= 7);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_vectors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
