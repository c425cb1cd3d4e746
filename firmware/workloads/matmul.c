/* Blocked matrix multiply C += A x B on size x size matrices of 32-bit integers (rv64imac has no
 * FPU), blocks of stride x stride.  Integer arithmetic wraps, so the checksum is exact everywhere. */
#include <stdio.h>

#include "firmware/rt/workload.h"

static uint64_t min_u64(uint64_t a, uint64_t b) { return a < b ? a : b; }

int workload_main(struct rt_boot *boot)
{
	struct param p[] = {
		{ "size", 64, "matrix dimension (elements)" },
		{ "stride", 16, "block size (elements)" },
		{ "iters", 1, "multiplications" },
		{ "seed", 1, "matrix contents" },
	};
	wl_params(boot, "matmul", p, 4);
	uint64_t n = p[0].value, bs = p[1].value, iters = p[2].value, seed = p[3].value;
	wl_require(n >= 1 && n <= 65536 && bs >= 1, "matmul", "need 1 <= size <= 65536 and stride >= 1");
	uint32_t *a = wl_alloc(boot, "matmul", n * n * 4, "size (A)");
	uint32_t *b = wl_alloc(boot, "matmul", n * n * 4, "size (B)");
	uint32_t *c = wl_alloc(boot, "matmul", n * n * 4, "size (C)");
	uint64_t state = seed;
	for (uint64_t i = 0; i < n * n; i++) {
		a[i] = (uint32_t)wl_rand(&state) & 0xff;
		b[i] = (uint32_t)wl_rand(&state) & 0xff;
		c[i] = 0;
	}

	wl_begin(boot, WL_MATMUL, 0);
	for (uint64_t it = 0; it < iters; it++)
		for (uint64_t ii = 0; ii < n; ii += bs)
			for (uint64_t kk = 0; kk < n; kk += bs)
				for (uint64_t jj = 0; jj < n; jj += bs)
					for (uint64_t i = ii; i < min_u64(ii + bs, n); i++)
						for (uint64_t k = kk; k < min_u64(kk + bs, n); k++) {
							uint32_t aik = a[i * n + k];
							for (uint64_t j = jj; j < min_u64(jj + bs, n); j++)
								c[i * n + j] += aik * b[k * n + j];
						}
	wl_end(boot, WL_MATMUL, 0);

	/* Check two entries against the plain definition. */
	uint64_t corners[2][2] = { { 0, 0 }, { n - 1, n - 1 } };
	for (int e = 0; e < 2; e++) {
		uint64_t i = corners[e][0], j = corners[e][1];
		uint32_t want = 0;
		for (uint64_t k = 0; k < n; k++)
			want += a[i * n + k] * b[k * n + j];
		wl_check(c[i * n + j] == want * (uint32_t)iters, "matmul", "C differs from the definition");
	}
	uint64_t sum = 0;
	for (uint64_t i = 0; i < n * n; i++)
		sum = sum * 1099511628211ull + c[i];
	printf("result matmul size=%llu stride=%llu iters=%llu hash=0x%016llx\n", (unsigned long long)n,
	       (unsigned long long)bs, (unsigned long long)iters, (unsigned long long)sum);
	return 0;
}
