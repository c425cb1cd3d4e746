#include "host/cli.h"

#include "host/commands.h"
#include "mt_paths.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

int cli_parse_u64(const char *s, uint64_t *out)
{
    if (!s || !*s || *s == '-' || *s == '+')
        return -1;
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) ? 16 : 10);
    if (errno || *end || end == s)
        return -1;
    *out = v;
    return 0;
}

int cli_parse_bytes(const char *s, uint64_t *out)
{
    if (!s || !*s || *s == '-')
        return -1;
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno || end == s)
        return -1;
    uint64_t mul = 1;
    if (*end) {
        char c = *end;
        const char *rest = end + 1;
        if (c == 'k' || c == 'K') mul = UINT64_C(1) << 10;
        else if (c == 'm' || c == 'M') mul = UINT64_C(1) << 20;
        else if (c == 'g' || c == 'G') mul = UINT64_C(1) << 30;
        else if (c == 'b' || c == 'B') { mul = 1; rest = end + 1; }
        else return -1;
        if (*rest && strcasecmp(rest, "iB") != 0 && strcasecmp(rest, "B") != 0)
            return -1;
    }
    if (v > UINT64_MAX / mul)
        return -1;
    *out = v * mul;
    return 0;
}

int cli_parse_double(const char *s, double *out)
{
    if (!s || !*s)
        return -1;
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (errno || *end || end == s)
        return -1;
    *out = v;
    return 0;
}

int cli_parse_si(const char *s, double *out)
{
    if (!s || !*s)
        return -1;
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (errno || end == s)
        return -1;
    double mul = 1;
    const char *rest = end;
    switch (*end) {
    case 'k': case 'K': mul = 1e3; rest++; break;
    case 'M': mul = 1e6; rest++; break;
    case 'G': mul = 1e9; rest++; break;
    case 'm': mul = 1e-3; rest++; break;
    case 'u': mul = 1e-6; rest++; break;
    case 'n': mul = 1e-9; rest++; break;
    default: break;
    }
    /* an optional unit name: letters and '/' only (Hz, s, B/s) */
    for (const char *p = rest; *p; p++)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || *p == '/'))
            return -1;
    /* "1m" alone is ambiguous between milli and mega: only milli for seconds-like units */
    *out = v * mul;
    return 0;
}

int cli_parse_bytes_list(const char *s, uint64_t *out, int max)
{
    int n = 0;
    char buf[1024];
    if (!s || strlen(s) >= sizeof buf)
        return -1;
    strcpy(buf, s);
    for (char *save = NULL, *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        char *dots = strstr(tok, "..");
        if (dots) {
            *dots = 0;
            uint64_t lo, hi;
            if (cli_parse_bytes(tok, &lo) || cli_parse_bytes(dots + 2, &hi) || lo == 0 || hi < lo)
                return -1;
            for (uint64_t v = lo; v <= hi; v *= 2) {
                if (n == max)
                    return -1;
                out[n++] = v;
                if (v > UINT64_MAX / 2)
                    break;
            }
        } else {
            uint64_t v;
            if (cli_parse_bytes(tok, &v) || n == max)
                return -1;
            out[n++] = v;
        }
    }
    return n;
}

const char *cli_bytes_str(uint64_t v, char *buf, size_t len)
{
    if (v && v % (UINT64_C(1) << 30) == 0)
        snprintf(buf, len, "%" PRIu64 "G", v >> 30);
    else if (v && v % (UINT64_C(1) << 20) == 0)
        snprintf(buf, len, "%" PRIu64 "M", v >> 20);
    else if (v && v % 1024 == 0)
        snprintf(buf, len, "%" PRIu64 "K", v >> 10);
    else
        snprintf(buf, len, "%" PRIu64, v);
    return buf;
}

int cli_outputs_distinct(const char *cmd, const cli_path *outputs, size_t nout, const cli_path *inputs, size_t nin)
{
    mt_named_path o[8], in[8];
    if (nout > 8 || nin > 8)
        return 0;
    for (size_t i = 0; i < nout; i++)
        o[i] = (mt_named_path){outputs[i].option, outputs[i].path && strcmp(outputs[i].path, "-") ? outputs[i].path : NULL};
    for (size_t i = 0; i < nin; i++)
        in[i] = (mt_named_path){inputs[i].option, inputs[i].path};
    char err[600];
    if (mt_paths_check(o, nout, in, nin, err, sizeof err)) {
        cli_error(cmd, "%s", err);
        return -1;
    }
    return 0;
}

void cli_error(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "metatrace %s: ", cmd);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
}

int cli_wants_help(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--"))
            break;
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h"))
            return 1;
    }
    return 0;
}
