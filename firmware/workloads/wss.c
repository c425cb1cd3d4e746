/* RowScope "working-set sweep": sequential reads over working sets from min to max bytes,
 * doubling (RowScope: nine sizes, 512 KiB .. 128 MiB; the default max is 4 MiB to keep a run
 * short: pass max=128M with enough memory for the full sweep).  Point k = the k-th size. */
#include <stdio.h>

#include "firmware/rt/workload.h"

int workload_main(struct rt_boot *boot)
{
	struct param p[] = {
		{ "min", 512u << 10, "smallest working set in bytes" },
		{ "max", 4u << 20, "largest working set in bytes" },
		{ "iters", 1, "passes per working set" },
		{ "seed", 1, "initial contents" },
	};
	wl_params(boot, "wss", p, 4);
	uint64_t min = p[0].value, max = p[1].value, iters = p[2].value, seed = p[3].value;
	wl_require(min >= 4 && min <= max, "wss", "need 4 <= min <= max");
	uint64_t n_max = max / 4;
	volatile uint32_t *a = wl_alloc(boot, "wss", n_max * 4, "max");
	for (uint64_t i = 0; i < n_max; i++)
		a[i] = (uint32_t)(i * 2654435761u) ^ (uint32_t)seed;

	uint32_t point = 0;
	for (uint64_t size = min; size <= max; size *= 2, point++) {
		uint64_t n = size / 4, sum = 0;
		wl_begin(boot, WL_WSS, point);
		for (uint64_t it = 0; it < iters; it++)
			for (uint64_t i = 0; i < n; i++)
				sum += a[i];
		wl_end(boot, WL_WSS, point);
		printf("result wss size=%llu accesses=%llu sum=0x%016llx\n", (unsigned long long)(n * 4),
		       (unsigned long long)(n * iters), (unsigned long long)sum);
	}
	return 0;
}
