/* RowScope "random access": read uniformly random elements of an array of 4-byte elements,
 * size/4 reads per iteration.  The indices come from a generator held in registers, so the only
 * data accesses in the region of interest are the array reads. */
#include <stdio.h>

#include "firmware/rt/workload.h"

int workload_main(struct rt_boot *boot)
{
	struct param p[] = {
		{ "size", 1u << 20, "array size in bytes" },
		{ "iters", 1, "size/4 random reads per iteration" },
		{ "seed", 1, "index sequence and contents" },
	};
	wl_params(boot, "random", p, 3);
	uint64_t size = p[0].value, iters = p[1].value, seed = p[2].value;
	uint64_t n = size / 4;
	wl_require(n > 0 && n < (1ull << 32), "random", "size must be 4 B .. 16 GiB");
	volatile uint32_t *a = wl_alloc(boot, "random", n * 4, "size");
	for (uint64_t i = 0; i < n; i++)
		a[i] = (uint32_t)(i * 2654435761u) ^ (uint32_t)seed;

	uint64_t sum = 0, state = seed, count = n * iters;
	wl_begin(boot, WL_RANDOM, 0);
	for (uint64_t k = 0; k < count; k++)
		sum += a[wl_below(wl_rand(&state), n)];
	wl_end(boot, WL_RANDOM, 0);
	printf("result random size=%llu accesses=%llu sum=0x%016llx\n", (unsigned long long)(n * 4),
	       (unsigned long long)count, (unsigned long long)sum);
	return 0;
}
