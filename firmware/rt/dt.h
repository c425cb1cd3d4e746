/* A minimal read-only flattened-device-tree (FDT, DTB) reader for bare-metal programs.
 *
 * Why hand-written: picolibc has no libfdt, and the firmware needs only three look-ups on the
 * tree the boot ROM hands over in a1 (/chosen/bootargs, the /memory node, and the node of a
 * device by its "compatible" string).  The host side of metatrace uses libfdt; this walker is
 * the guest-side equivalent, written to the Devicetree Specification v0.4, chapter 5. */
#ifndef RT_DT_H
#define RT_DT_H

#include <stdbool.h>
#include <stdint.h>

struct dt {
	const uint8_t *blob;
	uint32_t total_size;
	uint32_t off_struct, size_struct;
	uint32_t off_strings, size_strings;
};

/* One `reg` entry: a physical address range. */
struct dt_range {
	uint64_t base;
	uint64_t size;
};

/* Checks the header (magic, version >= 16, block offsets inside totalsize).  Returns NULL on
 * success, else a short description of what is wrong. */
const char *dt_open(struct dt *dt, const void *blob);

/* The value of property `name` of the node at `path` ("/chosen"; unit addresses may be omitted:
 * "/memory" matches "/memory@80000000"), or NULL.  *len gets the value's length. */
const void *dt_getprop(const struct dt *dt, const char *path, const char *name, uint32_t *len);

/* The first `reg` range of the first node whose property `prop` (a string list, such as
 * "compatible" or "device_type") contains `value`, decoded with the parent's #address-cells and
 * #size-cells.  False when no such node (or it has no usable reg). */
bool dt_find_reg(const struct dt *dt, const char *prop, const char *value, struct dt_range *out);

#endif
