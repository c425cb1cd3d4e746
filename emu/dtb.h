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

#endif
