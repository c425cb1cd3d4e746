/* libFuzzer target: mtemu's ELF loader (emu/platform/loader.c) on arbitrary file contents, into
 * a 1 MiB RAM at 0x80000000: every ELF header, program header and symbol table field is
 * checked against the file and the RAM, never read or written outside them. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <unistd.h>

#include "emu/platform/loader.h"
#include "fuzz_file.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static mt_ram *ram;
    if (!ram)
        ram = ram_create(0x80000000ull, 1 << 20);
    char path[128];
    if (fuzz_file(path, sizeof path, data, size))
        return 0;
    char err[512];
    mt_load_info info;
    if (loader_is_elf(path))
        (void)loader_load_elf(ram, path, &info, err, sizeof err);
    else
        (void)loader_load_raw(ram, path, 0x80000000ull, &info, err, sizeof err);
    return 0;
}
