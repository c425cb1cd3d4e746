/* Small command-line helpers shared by the subcommands: numbers with unit suffixes, lists, and
 * the one-line error convention ("metatrace CMD: INPUT: problem"). */
#ifndef HOST_CLI_H
#define HOST_CLI_H

#include <stddef.h>
#include <stdint.h>

/* Decimal or 0x-hex unsigned integer, whole string.  0 ok, -1 bad. */
int cli_parse_u64(const char *s, uint64_t *out);
/* Byte count with an optional binary suffix: 4K, 8M, 1G (also KiB/MiB/GiB, k/m/g).  */
int cli_parse_bytes(const char *s, uint64_t *out);
/* Floating-point number, whole string; an optional suffix in `units` scales it
 * (e.g. "30s", "1GHz" via cli_parse_si).  */
int cli_parse_double(const char *s, double *out);
/* Number with an SI suffix (k, M, G, m, u, n) and an optional unit text after it ("1GHz",
 * "80us", "3.5e9"). */
int cli_parse_si(const char *s, double *out);
/* Comma-separated list of byte counts; "4K..2M" expands powers of two.  Returns count or -1. */
int cli_parse_bytes_list(const char *s, uint64_t *out, int max);

/* Formats a byte count compactly: 4096 -> "4K", 2097152 -> "2M", 12288 -> "12K". */
const char *cli_bytes_str(uint64_t v, char *buf, size_t len);

/* 0 when no output (-o OUT, --truth, ...) names an input or another output (lib/mt_paths.h);
 * else the one-line error for cmd and -1. NULL paths are not given. */
typedef struct {
    const char *option, *path;
} cli_path;
int cli_outputs_distinct(const char *cmd, const cli_path *outputs, size_t nout, const cli_path *inputs, size_t nin);

/* Prints "metatrace <cmd>: <formatted>" to stderr (one line). */
void cli_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
