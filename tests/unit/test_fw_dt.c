/* Host-side tests of the firmware's device-tree reader and bootargs parser (firmware/rt/dt.c,
 * params.c), against trees built with libfdt, plus corrupted trees under the sanitizers: the
 * reader must never read outside the blob.  The firmware sources are portable C and are compiled
 * into this test directly (the firmware itself is cross-built with picolibc). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <libfdt.h>

#include "firmware/rt/dt.c"
#include "firmware/rt/params.c"

#define BLOB_MAX 4096

static uint64_t wl_rand_test(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* A tree shaped like QEMU's `virt` one, with a 1-cell bus added. */
static size_t build_tree(void *buf, int with_trace)
{
	assert_int_equal(fdt_create(buf, BLOB_MAX), 0);
	assert_int_equal(fdt_finish_reservemap(buf), 0);
	assert_int_equal(fdt_begin_node(buf, ""), 0);
	fdt_property_u32(buf, "#address-cells", 2);
	fdt_property_u32(buf, "#size-cells", 2);
	fdt_property_string(buf, "compatible", "riscv-virtio");
	fdt_begin_node(buf, "chosen");
	fdt_property_string(buf, "bootargs", "size=16M stride=64");
	fdt_end_node(buf);
	fdt_begin_node(buf, "memory@80000000");
	fdt_property_string(buf, "device_type", "memory");
	uint32_t mem[4] = { cpu_to_fdt32(0), cpu_to_fdt32(0x80000000u), cpu_to_fdt32(0), cpu_to_fdt32(0x8000000u) };
	fdt_property(buf, "reg", mem, sizeof mem);
	fdt_end_node(buf);
	fdt_begin_node(buf, "soc");
	fdt_property_u32(buf, "#address-cells", 2);
	fdt_property_u32(buf, "#size-cells", 2);
	fdt_begin_node(buf, "serial@10000000");
	fdt_property_string(buf, "compatible", "ns16550a");
	uint32_t uart[4] = { 0, cpu_to_fdt32(0x10000000u), 0, cpu_to_fdt32(0x100) };
	fdt_property(buf, "reg", uart, sizeof uart);
	fdt_end_node(buf);
	fdt_begin_node(buf, "test@100000");
	fdt_property(buf, "compatible", "sifive,test1\0sifive,test0\0syscon", 33);
	uint32_t fin[4] = { 0, cpu_to_fdt32(0x100000u), 0, cpu_to_fdt32(0x1000) };
	fdt_property(buf, "reg", fin, sizeof fin);
	fdt_end_node(buf);
	if (with_trace) {
		fdt_begin_node(buf, "trace@11000000");
		fdt_property(buf, "compatible", "vendor,other\0metatrace,trace-unit", 34);
		uint32_t tr[4] = { 0, cpu_to_fdt32(0x11000000u), 0, cpu_to_fdt32(0x1000) };
		fdt_property(buf, "reg", tr, sizeof tr);
		fdt_end_node(buf);
	}
	fdt_end_node(buf);  /* soc */
	fdt_begin_node(buf, "narrow-bus");
	fdt_property_u32(buf, "#address-cells", 1);
	fdt_property_u32(buf, "#size-cells", 1);
	fdt_begin_node(buf, "dev@2000");
	fdt_property_string(buf, "compatible", "acme,narrow");
	uint32_t nr[2] = { cpu_to_fdt32(0x2000), cpu_to_fdt32(0x40) };
	fdt_property(buf, "reg", nr, sizeof nr);
	fdt_end_node(buf);
	fdt_end_node(buf);
	assert_int_equal(fdt_end_node(buf), 0);
	assert_int_equal(fdt_finish(buf), 0);
	return fdt_totalsize(buf);
}

/* An exact-size heap copy, so the sanitizer catches any read past the end. */
static uint8_t *exact_copy(const void *buf, size_t n)
{
	uint8_t *p = malloc(n);
	assert_non_null(p);
	memcpy(p, buf, n);
	return p;
}

static void test_lookups(void **state)
{
	(void)state;
	uint8_t buf[BLOB_MAX];
	size_t n = build_tree(buf, 1);
	uint8_t *blob = exact_copy(buf, n);
	struct dt dt;
	assert_null(dt_open(&dt, blob));
	uint32_t len = 0;
	const char *args = dt_getprop(&dt, "/chosen", "bootargs", &len);
	assert_non_null(args);
	assert_string_equal(args, "size=16M stride=64");
	assert_int_equal(len, strlen("size=16M stride=64") + 1);
	assert_non_null(dt_getprop(&dt, "/memory", "device_type", &len));         /* no unit address */
	assert_non_null(dt_getprop(&dt, "/memory@80000000", "reg", &len));
	assert_int_equal(len, 16);
	assert_non_null(dt_getprop(&dt, "/soc/serial", "compatible", &len));
	assert_non_null(dt_getprop(&dt, "/", "compatible", &len));
	assert_null(dt_getprop(&dt, "/chosen", "nothing", &len));
	assert_null(dt_getprop(&dt, "/serial", "compatible", &len));               /* not at the root */
	assert_null(dt_getprop(&dt, "/soc/serial@10000001", "compatible", &len));  /* wrong unit */
	assert_null(dt_getprop(&dt, "/mem", "device_type", &len));                 /* prefix only */

	struct dt_range r;
	assert_true(dt_find_reg(&dt, "device_type", "memory", &r));
	assert_int_equal(r.base, 0x80000000u);
	assert_int_equal(r.size, 0x8000000u);
	assert_true(dt_find_reg(&dt, "compatible", "ns16550a", &r));
	assert_int_equal(r.base, 0x10000000u);
	assert_int_equal(r.size, 0x100);
	assert_true(dt_find_reg(&dt, "compatible", "sifive,test0", &r));           /* 2nd of 3 strings */
	assert_int_equal(r.base, 0x100000u);
	assert_true(dt_find_reg(&dt, "compatible", "metatrace,trace-unit", &r));   /* last string */
	assert_int_equal(r.base, 0x11000000u);
	assert_int_equal(r.size, 0x1000);
	assert_true(dt_find_reg(&dt, "compatible", "acme,narrow", &r));            /* 1-cell bus */
	assert_int_equal(r.base, 0x2000);
	assert_int_equal(r.size, 0x40);
	assert_false(dt_find_reg(&dt, "compatible", "sifive,test", &r));           /* prefix only */
	assert_false(dt_find_reg(&dt, "compatible", "metatrace", &r));
	free(blob);

	n = build_tree(buf, 0);
	blob = exact_copy(buf, n);
	assert_null(dt_open(&dt, blob));
	assert_false(dt_find_reg(&dt, "compatible", "metatrace,trace-unit", &r));
	free(blob);
}

static void test_bad_headers(void **state)
{
	(void)state;
	uint8_t buf[BLOB_MAX];
	build_tree(buf, 1);
	struct dt dt;
	assert_non_null(dt_open(&dt, NULL));
	uint8_t bad[BLOB_MAX];
	memcpy(bad, buf, sizeof bad);
	bad[0] ^= 0xff;
	assert_non_null(dt_open(&dt, bad));                 /* magic */
	memcpy(bad, buf, sizeof bad);
	fdt_set_version(bad, 15);
	assert_non_null(dt_open(&dt, bad));                 /* version */
	memcpy(bad, buf, sizeof bad);
	fdt_set_size_dt_struct(bad, fdt_totalsize(buf));
	assert_non_null(dt_open(&dt, bad));                 /* struct block past the end */
	memcpy(bad, buf, sizeof bad);
	fdt_set_off_dt_strings(bad, 0xfffffff0u);
	assert_non_null(dt_open(&dt, bad));                 /* strings block past the end */
}

/* Random corruption of the structure and strings blocks: every look-up must terminate without
 * touching memory outside the blob (ASan) whatever it returns. */
static void test_corruption(void **state)
{
	(void)state;
	uint8_t buf[BLOB_MAX];
	size_t n = build_tree(buf, 1);
	uint64_t seed = 12345;
	for (int round = 0; round < 3000; round++) {
		uint8_t *blob = exact_copy(buf, n);
		int flips = 1 + round % 8;
		for (int f = 0; f < flips; f++) {
			uint64_t r = wl_rand_test(&seed);
			size_t at = 40 + (size_t)(r % (n - 40));  /* keep the header: dt_open checks it */
			blob[at] = (uint8_t)(r >> 32);
		}
		struct dt dt;
		if (dt_open(&dt, blob) == NULL) {
			uint32_t len;
			struct dt_range r;
			const uint8_t *v = dt_getprop(&dt, "/chosen", "bootargs", &len);
			if (v)
				assert_true(v >= blob && v + len <= blob + n);
			(void)dt_find_reg(&dt, "compatible", "metatrace,trace-unit", &r);
			(void)dt_find_reg(&dt, "device_type", "memory", &r);
			(void)dt_getprop(&dt, "/soc/serial", "reg", &len);
		}
		free(blob);
	}
}

/* A property name that runs to the end of the strings block, without its NUL (fuzz_dt, make
 * fuzz): the reader compared it with strcmp and read past the blob. The blob is cut before the
 * NUL of its last string (one of the root's property names); a look-up of that property read on.
 * Now the token is malformed and the look-up stops. */
static void test_unterminated_name(void **state)
{
	(void)state;
	uint8_t buf[BLOB_MAX];
	size_t n = build_tree(buf, 1);
	assert_int_equal(buf[n - 1], 0);
	const char *last = (const char *)buf + n - 2;
	while (last[-1])
		last--;
	char name[32];
	assert_true(strlen(last) < sizeof name);
	strcpy(name, last);
	assert_true(strcmp(name, "#address-cells") == 0 || strcmp(name, "#size-cells") == 0 ||
		    strcmp(name, "compatible") == 0);
	uint32_t len;
	struct dt dt;
	assert_null(dt_open(&dt, buf));
	assert_non_null(dt_getprop(&dt, "/", name, &len));  /* whole: found */
	fdt_set_totalsize(buf, (uint32_t)n - 1);
	fdt_set_size_dt_strings(buf, fdt_size_dt_strings(buf) - 1);
	uint8_t *blob = exact_copy(buf, n - 1);
	assert_null(dt_open(&dt, blob));
	assert_null(dt_getprop(&dt, "/", name, &len));
	free(blob);
}

static void test_params(void **state)
{
	(void)state;
	char err[160];
	struct param p[] = { { "size", 5, "" }, { "stride", 6, "" } };
	assert_true(params_parse(NULL, p, 2, err, sizeof err));
	assert_int_equal(p[0].value, 5);
	assert_true(params_parse("size=16M stride=0x40", p, 2, err, sizeof err));
	assert_int_equal(p[0].value, 16u << 20);
	assert_int_equal(p[1].value, 64);
	assert_true(params_parse(" size=3G\tstride=7k ", p, 2, err, sizeof err));
	assert_int_equal(p[0].value, 3ull << 30);
	assert_int_equal(p[1].value, 7 << 10);
	assert_int_equal(param_get(p, 2, "stride"), 7 << 10);
	assert_true(params_parse("size=18446744073709551615", p, 2, err, sizeof err));
	assert_int_equal(p[0].value, UINT64_MAX);
	assert_false(params_parse("size=18446744073709551616", p, 2, err, sizeof err));
	assert_false(params_parse("size=17179869184G", p, 2, err, sizeof err));
	assert_false(params_parse("size=0x", p, 2, err, sizeof err));
	assert_false(params_parse("size=0x1M", p, 2, err, sizeof err));   /* no suffix on hex */
	assert_false(params_parse("size=-1", p, 2, err, sizeof err));
	assert_false(params_parse("=5", p, 2, err, sizeof err));
	assert_false(params_parse("size", p, 2, err, sizeof err));
	assert_string_equal(err, "bootargs: 'size' is not key=value");
	assert_false(params_parse("strid=1", p, 2, err, sizeof err));
	assert_string_equal(err, "bootargs: unknown parameter 'strid' (known: size stride)");
	char tiny[8];
	assert_false(params_parse("strid=1", p, 2, tiny, sizeof tiny));   /* truncated, terminated */
	assert_int_equal(strlen(tiny), sizeof tiny - 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lookups),
		cmocka_unit_test(test_bad_headers),
		cmocka_unit_test(test_corruption),
		cmocka_unit_test(test_params),
		cmocka_unit_test(test_unterminated_name),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
