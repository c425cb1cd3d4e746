/* Workload parameters from the kernel-style command line in /chosen/bootargs, such as
 * "size=16M stride=64 iters=3 seed=1".  Values are decimal or 0x-hex integers with an optional
 * binary suffix K, M or G (x1024, x1024^2, x1024^3). */
#ifndef RT_PARAMS_H
#define RT_PARAMS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct param {
	const char *key;
	uint64_t value;      /* the default on entry; the given value after params_parse */
	const char *help;    /* one line, printed with the list of known keys */
};

/* Parses `args` (NULL or "" = all defaults).  Every word must be key=value with a known key and
 * a valid number: a typo must not silently run the default.  On error returns false and writes
 * one line naming the word and the problem into err. */
bool params_parse(const char *args, struct param *params, size_t count, char *err, size_t err_len);

/* The value of `key` (which must be one of params). */
uint64_t param_get(const struct param *params, size_t count, const char *key);

#endif
