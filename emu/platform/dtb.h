/* The device tree of the QEMU-virt-compatible platform, built with libfdt. */
#ifndef EMU_DTB_H
#define EMU_DTB_H

#include <stddef.h>
#include <stdint.h>

typedef struct {
    uint64_t ram_base, ram_size;
    const char *isa;      /* "rv64imac" / "rv64imafdc" */
    const char *bootargs; /* NULL: none */
    uint64_t initrd_start, initrd_end; /* 0, 0: none */
    uint64_t trace_unit_base, trace_unit_size; /* size 0: no trace-unit node */
    unsigned nharts;      /* cpu nodes, CLINT and PLIC contexts; 0 means 1 */
} mt_dtb_params;

/* Writes the DTB into buf; returns its size, or -1 when buf is too small. */
long dtb_build(const mt_dtb_params *p, void *buf, size_t bufsize);

/* A device tree given by the user (--dtb): its size (the header's total size) when blob[0..size)
 * begins with one whole flattened device tree as libfdt checks it (magic, version, the blocks
 * inside the total size, the structure block walked to its end); bytes after it are ignored, as
 * QEMU ignores them. Else -1 with the reason in why. */
long dtb_check(const void *blob, size_t size, char *why, size_t whylen);

#endif
