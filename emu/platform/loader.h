/* Program loaders: ELF64 RISC-V (PT_LOAD segments at their physical addresses, the tohost /
 * fromhost symbols for HTIF) and raw images at an address.  Every error is one line in `err`
 * naming the file and the problem. */
#ifndef EMU_LOADER_H
#define EMU_LOADER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "emu/platform/ram.h"

typedef struct {
    uint64_t entry;
    uint64_t low, high; /* lowest and highest+1 physical address written */
    uint64_t tohost, fromhost; /* 0 when the symbol is absent */
    uint64_t sig_begin, sig_end; /* begin_signature / end_signature (riscv-arch-test), 0 when absent */
} mt_load_info;

/* True when the file starts with the ELF magic. */
bool loader_is_elf(const char *path);
bool loader_load_elf(mt_ram *ram, const char *path, mt_load_info *info, char *err, size_t errlen);
bool loader_load_raw(mt_ram *ram, const char *path, uint64_t addr, mt_load_info *info, char *err, size_t errlen);
/* The same from the file's bytes in memory (path only names it in messages): what the two above
 * do once they have read the file, and what tests/fuzz/fuzz_elf.c drives without a file. */
bool loader_load_elf_image(mt_ram *ram, const char *path, const uint8_t *data, size_t len, mt_load_info *info,
                           char *err, size_t errlen);
bool loader_load_raw_image(mt_ram *ram, const char *path, const uint8_t *data, size_t len, uint64_t addr,
                           mt_load_info *info, char *err, size_t errlen);

#endif
