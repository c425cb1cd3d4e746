/* Helpers every workload uses: parameters, buffers, markers around the region of interest, a
 * deterministic PRNG, and the one result line that runs are compared by.
 *
 * Output convention (tests/e2e/firmware-run.sh compares these across emulators):
 *   NAME: key=value ...            the parameters in effect (informational)
 *   result NAME key=value ...      the result / checksum of one measured point; deterministic
 * Marker ids (trace_marker) are (workload << 24) | (point << 8) | MARK_BEGIN / MARK_END, where
 * point numbers the measured points of a sweep (0 when there is one); docs/firmware.md lists them. */
#ifndef RT_WORKLOAD_H
#define RT_WORKLOAD_H

#include <stddef.h>
#include <stdint.h>

#include "params.h"
#include "rt.h"

enum workload_id {
	WL_SEQ = 1, WL_RANDOM = 2, WL_STRIDE = 3, WL_WSS = 4,
	WL_PCHASE = 5, WL_MATMUL = 6, WL_MEMCPY = 7, WL_QSORT = 8,
};
enum { MARK_BEGIN = 1, MARK_END = 2 };

static inline uint32_t wl_marker_id(enum workload_id wl, uint32_t point, uint32_t kind)
{
	return (uint32_t)wl << 24 | (point & 0xffff) << 8 | kind;
}

/* Parses boot->bootargs into params (defaults on entry) and prints "NAME: k=v ..."; on a bad
 * parameter prints the error and exits RT_EXIT_BAD_PARAMS. */
void wl_params(const struct rt_boot *boot, const char *name, struct param *params, size_t count);

/* A buffer of `bytes` from free RAM; when it does not fit, prints what was asked and what is free
 * and exits RT_EXIT_NO_MEMORY.  `what` names the parameter behind the size ("size=16M"). */
void *wl_alloc(struct rt_boot *boot, const char *name, uint64_t bytes, const char *what);

/* Markers around a region of interest: they are also printed nowhere, so they cost only the
 * MMIO write (and nothing when the trace unit is absent). */
void wl_begin(struct rt_boot *boot, enum workload_id wl, uint32_t point);
void wl_end(struct rt_boot *boot, enum workload_id wl, uint32_t point);

/* Exits RT_EXIT_BAD_PARAMS with "NAME: bootargs: what" when !ok (a parameter out of range). */
void wl_require(int ok, const char *name, const char *what);
/* Exits RT_EXIT_CHECK_FAILED with a message when !ok (the workload computed a wrong result). */
void wl_check(int ok, const char *name, const char *what);

/* splitmix64: a tiny, well-mixed deterministic generator; the state lives in the caller. */
static inline uint64_t wl_rand(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* A uniformly distributed index below n (n < 2^32) without a division. */
static inline uint64_t wl_below(uint64_t r, uint64_t n)
{
	return ((r >> 32) * n) >> 32;
}

#endif
