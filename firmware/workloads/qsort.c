/* picolibc's qsort on size/4 random 32-bit integers, `iters` times (re-filled each time). */
#include <stdio.h>
#include <stdlib.h>

#include "firmware/rt/workload.h"

static int compare_u32(const void *x, const void *y)
{
	uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;
	return (a > b) - (a < b);
}

int workload_main(struct rt_boot *boot)
{
	struct param p[] = {
		{ "size", 128u << 10, "array size in bytes (4-byte elements)" },
		{ "iters", 1, "sorts" },
		{ "seed", 1, "array contents" },
	};
	wl_params(boot, "qsort", p, 3);
	uint64_t size = p[0].value, iters = p[1].value, seed = p[2].value;
	uint64_t n = size / 4;
	wl_require(n > 0, "qsort", "size must be at least 4");
	uint32_t *a = wl_alloc(boot, "qsort", n * 4, "size");
	uint64_t state = seed, hash = 0;
	for (uint64_t it = 0; it < iters; it++) {
		for (uint64_t i = 0; i < n; i++)
			a[i] = (uint32_t)wl_rand(&state);
		wl_begin(boot, WL_QSORT, (uint32_t)it);
		qsort(a, n, sizeof a[0], compare_u32);
		wl_end(boot, WL_QSORT, (uint32_t)it);
		for (uint64_t i = 1; i < n; i++)
			wl_check(a[i - 1] <= a[i], "qsort", "the array is not sorted");
		for (uint64_t i = 0; i < n; i++)
			hash = hash * 1099511628211ull + a[i];
	}
	printf("result qsort size=%llu iters=%llu median=%lu hash=0x%016llx\n", (unsigned long long)(n * 4),
	       (unsigned long long)iters, (unsigned long)a[n / 2], (unsigned long long)hash);
	return 0;
}
