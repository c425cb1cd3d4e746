/* Pointer chase: size/stride nodes of `stride` bytes, each holding the address of the next, in
 * one random cycle (Sattolo's shuffle); the region of interest follows the chain for `iters`
 * full cycles.  Every load depends on the previous one: the latency-bound case. */
#include <stdio.h>

#include "firmware/rt/workload.h"

int workload_main(struct rt_boot *boot)
{
	struct param p[] = {
		{ "size", 1u << 20, "bytes of nodes" },
		{ "stride", 64, "node size in bytes (multiple of 8)" },
		{ "iters", 1, "full cycles followed" },
		{ "seed", 1, "the permutation" },
	};
	wl_params(boot, "pchase", p, 4);
	uint64_t size = p[0].value, stride = p[1].value, iters = p[2].value, seed = p[3].value;
	wl_require(stride >= 8 && stride % 8 == 0, "pchase", "stride must be a multiple of 8");
	uint64_t n = size / stride;
	wl_require(n >= 2 && n < (1ull << 32), "pchase", "need 2 .. 2^32 nodes (size/stride)");
	uint8_t *nodes = wl_alloc(boot, "pchase", n * stride, "size");
	uint32_t *order = wl_alloc(boot, "pchase", n * 4, "size/stride*4 (permutation)");

	/* Sattolo: a uniformly random permutation that is a single cycle through all n nodes. */
	uint64_t state = seed;
	for (uint64_t i = 0; i < n; i++)
		order[i] = (uint32_t)i;
	for (uint64_t i = n - 1; i > 0; i--) {
		uint64_t j = wl_below(wl_rand(&state), i);
		uint32_t t = order[i]; order[i] = order[j]; order[j] = t;
	}
	for (uint64_t i = 0; i < n; i++)
		*(uint8_t **)(nodes + (uint64_t)order[i] * stride) = nodes + (uint64_t)order[(i + 1) % n] * stride;

	uint8_t *const *q = (uint8_t *const *)nodes;
	uint64_t steps = n * iters, mix = 0;
	wl_begin(boot, WL_PCHASE, 0);
	for (uint64_t s = 0; s < steps; s++) {
		q = *(uint8_t *const *const volatile *)q;
		mix = mix * 31 + (uint64_t)((uint8_t *)q - nodes);
	}
	wl_end(boot, WL_PCHASE, 0);
	wl_check((uint8_t *)q == nodes, "pchase", "the chain did not return to its start after whole cycles");
	printf("result pchase size=%llu stride=%llu accesses=%llu mix=0x%016llx\n",
	       (unsigned long long)(n * stride), (unsigned long long)stride, (unsigned long long)steps,
	       (unsigned long long)mix);
	return 0;
}
