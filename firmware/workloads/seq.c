/* RowScope "sequential access": read an array of 4-byte elements front to back, `iters` times.
 * Expected row-buffer hit rate (8 KiB rows) 1 - 4/8192 = 99.95% whatever the size. */
#include <stdio.h>

#include "firmware/rt/workload.h"

int workload_main(struct rt_boot *boot)
{
	struct param p[] = {
		{ "size", 1u << 20, "array size in bytes" },
		{ "iters", 2, "passes over the array" },
		{ "seed", 1, "initial contents" },
	};
	wl_params(boot, "seq", p, 3);
	uint64_t size = p[0].value, iters = p[1].value, seed = p[2].value;
	uint64_t n = size / 4;
	wl_require(n > 0, "seq", "size must be at least 4");
	volatile uint32_t *a = wl_alloc(boot, "seq", n * 4, "size");
	for (uint64_t i = 0; i < n; i++)
		a[i] = (uint32_t)(i * 2654435761u) ^ (uint32_t)seed;

	uint64_t sum = 0;
	wl_begin(boot, WL_SEQ, 0);
	for (uint64_t it = 0; it < iters; it++)
		for (uint64_t i = 0; i < n; i++)
			sum += a[i];
	wl_end(boot, WL_SEQ, 0);
	printf("result seq size=%llu iters=%llu accesses=%llu sum=0x%016llx\n", (unsigned long long)(n * 4),
	       (unsigned long long)iters, (unsigned long long)(n * iters), (unsigned long long)sum);
	return 0;
}
