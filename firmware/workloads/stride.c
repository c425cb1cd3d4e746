/* RowScope "stride access": read every stride-th 4-byte element of an array.  With stride=0 (the
 * default) it sweeps RowScope's 11 strides 1, 2, 4, ..., 1024 elements, one marked point each
 * (point = log2(stride)); expected row hit rate 1 - stride*4/8192 for 8 KiB rows. */
#include <stdio.h>

#include "firmware/rt/workload.h"

static uint64_t run_point(struct rt_boot *boot, volatile uint32_t *a, uint64_t n, uint64_t stride,
			  uint64_t iters, uint32_t point)
{
	uint64_t sum = 0;
	wl_begin(boot, WL_STRIDE, point);
	for (uint64_t it = 0; it < iters; it++)
		for (uint64_t i = 0; i < n; i += stride)
			sum += a[i];
	wl_end(boot, WL_STRIDE, point);
	printf("result stride size=%llu stride=%llu accesses=%llu sum=0x%016llx\n",
	       (unsigned long long)(n * 4), (unsigned long long)stride,
	       (unsigned long long)(((n + stride - 1) / stride) * iters), (unsigned long long)sum);
	return sum;
}

int workload_main(struct rt_boot *boot)
{
	struct param p[] = {
		{ "size", 1u << 20, "array size in bytes" },
		{ "stride", 0, "stride in elements; 0 = sweep 1..1024" },
		{ "iters", 1, "passes per stride" },
		{ "seed", 1, "initial contents" },
	};
	wl_params(boot, "stride", p, 4);
	uint64_t size = p[0].value, stride = p[1].value, iters = p[2].value, seed = p[3].value;
	uint64_t n = size / 4;
	wl_require(n > 0, "stride", "size must be at least 4");
	volatile uint32_t *a = wl_alloc(boot, "stride", n * 4, "size");
	for (uint64_t i = 0; i < n; i++)
		a[i] = (uint32_t)(i * 2654435761u) ^ (uint32_t)seed;

	if (stride != 0) {
		run_point(boot, a, n, stride, iters, 0);
		return 0;
	}
	for (uint32_t k = 0; k <= 10; k++)
		run_point(boot, a, n, 1ull << k, iters, k);
	return 0;
}
