#include "workload.h"

#include <stdio.h>
#include <stdlib.h>

void wl_params(const struct rt_boot *boot, const char *name, struct param *params, size_t count)
{
	char err[200];
	if (!params_parse(boot->bootargs, params, count, err, sizeof err)) {
		printf("%s: %s\n", name, err);
		exit(RT_EXIT_BAD_PARAMS);
	}
	printf("%s:", name);
	for (size_t i = 0; i < count; i++)
		printf(" %s=%llu", params[i].key, (unsigned long long)params[i].value);
	printf("\n");
}

void *wl_alloc(struct rt_boot *boot, const char *name, uint64_t bytes, const char *what)
{
	uint64_t free_bytes = 0;
	void *p = rt_arena_alloc(boot, bytes, &free_bytes);
	if (!p) {
		printf("%s: %s needs %llu bytes of RAM but only %llu are free (memory 0x%llx, %llu MiB): "
		       "use a smaller size or give the machine more memory (-m)\n",
		       name, what, (unsigned long long)bytes, (unsigned long long)free_bytes,
		       (unsigned long long)boot->ram.base, (unsigned long long)(boot->ram.size >> 20));
		exit(RT_EXIT_NO_MEMORY);
	}
	return p;
}

void wl_begin(struct rt_boot *boot, enum workload_id wl, uint32_t point)
{
	trace_marker(&boot->trace, wl_marker_id(wl, point, MARK_BEGIN));
}

void wl_end(struct rt_boot *boot, enum workload_id wl, uint32_t point)
{
	trace_marker(&boot->trace, wl_marker_id(wl, point, MARK_END));
}

void wl_require(int ok, const char *name, const char *what)
{
	if (!ok) {
		printf("%s: bootargs: %s\n", name, what);
		exit(RT_EXIT_BAD_PARAMS);
	}
}

void wl_check(int ok, const char *name, const char *what)
{
	if (!ok) {
		printf("%s: self-check failed: %s\n", name, what);
		exit(RT_EXIT_CHECK_FAILED);
	}
}
