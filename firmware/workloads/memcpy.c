/* memset + memcpy (picolibc's) over two buffers of `size` bytes, in calls of `stride` bytes
 * (0 = the whole buffer in one call), `iters` times: the bulk-copy pattern. */
#include <stdio.h>
#include <string.h>

#include "firmware/rt/workload.h"

int workload_main(struct rt_boot *boot)
{
	struct param p[] = {
		{ "size", 512u << 10, "bytes per buffer" },
		{ "stride", 0, "bytes per memset/memcpy call; 0 = whole buffer" },
		{ "iters", 2, "memset + memcpy rounds" },
		{ "seed", 1, "source contents" },
	};
	wl_params(boot, "memcpy", p, 4);
	uint64_t size = p[0].value, chunk = p[1].value, iters = p[2].value, seed = p[3].value;
	wl_require(size >= 1, "memcpy", "size must be at least 1");
	if (chunk == 0 || chunk > size)
		chunk = size;
	uint8_t *src = wl_alloc(boot, "memcpy", size, "size (source)");
	uint8_t *dst = wl_alloc(boot, "memcpy", size, "size (destination)");
	uint64_t state = seed;
	for (uint64_t i = 0; i < size; i++)
		src[i] = (uint8_t)wl_rand(&state);

	wl_begin(boot, WL_MEMCPY, 0);
	for (uint64_t it = 0; it < iters; it++) {
		for (uint64_t off = 0; off < size; off += chunk)
			memset(dst + off, (int)(uint8_t)(seed + it), size - off < chunk ? size - off : chunk);
		for (uint64_t off = 0; off < size; off += chunk)
			memcpy(dst + off, src + off, size - off < chunk ? size - off : chunk);
	}
	wl_end(boot, WL_MEMCPY, 0);

	wl_check(iters == 0 || memcmp(dst, src, size) == 0, "memcpy", "destination differs from source");
	uint64_t hash = 14695981039346656037ull;
	for (uint64_t i = 0; i < size; i++)
		hash = (hash ^ dst[i]) * 1099511628211ull;
	printf("result memcpy size=%llu stride=%llu iters=%llu fnv=0x%016llx\n", (unsigned long long)size,
	       (unsigned long long)chunk, (unsigned long long)iters, (unsigned long long)hash);
	return 0;
}
