/* libFuzzer target: metatrace's command-line parsing: the input, split at NUL bytes, is an argv
 * given to the region-of-interest options (host/roi.c roi_parse_args, which takes its options
 * out of argv) and then, word by word, to every value parser the commands use (numbers, sizes
 * with units, size lists and ranges, SI values). Nothing here opens a file. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host/cli.h"
#include "host/roi.h"

#define MAXARGS 24

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 4096)
        return 0;
    char *buf = malloc(size + 1);
    if (!buf)
        return 0;
    memcpy(buf, data, size);
    buf[size] = 0;
    char *argv[MAXARGS + 1];
    int argc = 0;
    argv[argc++] = "fuzz";
    for (char *p = buf; p < buf + size && argc < MAXARGS; p += strlen(p) + 1)
        argv[argc++] = p;
    argv[argc] = NULL;
    roi_opts o;
    FILE *keep = stderr;
    stderr = fopen("/dev/null", "w"); /* the parsers' one-line errors */
    if (stderr) {
        int n = argc;
        if (roi_parse_args("fuzz", 0, &n, argv, &o) == 0 && n > argc)
            abort(); /* it may only take arguments out */
        (void)roi_active(&o);
        for (int i = 1; i < n; i++) {
            uint64_t v, list[64];
            double d;
            char s[32];
            if (cli_parse_u64(argv[i], &v) == 0)
                (void)cli_bytes_str(v, s, sizeof s);
            if (cli_parse_bytes(argv[i], &v) == 0)
                (void)cli_bytes_str(v, s, sizeof s);
            (void)cli_parse_double(argv[i], &d);
            (void)cli_parse_si(argv[i], &d);
            int k = cli_parse_bytes_list(argv[i], list, 64);
            if (k > 64)
                abort(); /* never more than asked for */
        }
        fclose(stderr);
    }
    stderr = keep;
    free(buf);
    return 0;
}
