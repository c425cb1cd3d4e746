/* A small sequential flattened-device-tree writer (Devicetree Specification v0.4, chapter 5):
 * the VMM builds its guest's tree node by node into a caller's buffer.  Nodes and properties go
 * in the order they are written; property names are shared in the strings block. */
#ifndef VMM_FDTW_H
#define VMM_FDTW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct fdtw {
    uint8_t *buf;
    size_t cap;
    size_t pos;          /* end of the structure block so far */
    char strings[512];   /* the strings block, copied after the structure at the end */
    size_t strings_len;
    int depth;
    bool overflow;
};

void fdtw_begin(struct fdtw *w, void *buf, size_t cap);
void fdtw_node(struct fdtw *w, const char *name);
void fdtw_end_node(struct fdtw *w);
void fdtw_prop(struct fdtw *w, const char *name, const void *value, size_t len);
void fdtw_prop_u32(struct fdtw *w, const char *name, uint32_t v);
void fdtw_prop_str(struct fdtw *w, const char *name, const char *s);
/* reg = <base size> with #address-cells = #size-cells = 2 */
void fdtw_prop_reg64(struct fdtw *w, const char *name, uint64_t base, uint64_t size);
/* Finishes the blob: its total size, or 0 when it did not fit or nodes are left open. */
size_t fdtw_finish(struct fdtw *w);

#endif
