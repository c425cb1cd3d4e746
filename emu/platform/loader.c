#include "emu/platform/loader.h"

#include <elf.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef EM_RISCV
#define EM_RISCV 243
#endif

static bool read_file(const char *path, uint8_t **data, size_t *len, char *err, size_t errlen)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
        return false;
    }
    uint8_t *buf = NULL;
    size_t cap = 0, n = 0;
    for (;;) {
        if (n == cap) {
            cap = cap ? cap * 2 : 1 << 16; /* (1 MiB at first cost the ELF fuzzer 90% of its time) */
            uint8_t *nb = realloc(buf, cap);
            if (!nb) {
                free(buf);
                fclose(f);
                snprintf(err, errlen, "%s: out of memory", path);
                return false;
            }
            buf = nb;
        }
        size_t r = fread(buf + n, 1, cap - n, f);
        n += r;
        if (r == 0)
            break;
    }
    bool bad = ferror(f);
    fclose(f);
    if (bad) {
        free(buf);
        snprintf(err, errlen, "%s: read error", path);
        return false;
    }
    *data = buf;
    *len = n;
    return true;
}

bool loader_is_elf(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return false;
    unsigned char m[4] = {0};
    size_t n = fread(m, 1, 4, f);
    fclose(f);
    return n == 4 && memcmp(m, ELFMAG, SELFMAG) == 0;
}

static void note_range(mt_load_info *info, uint64_t lo, uint64_t hi)
{
    if (lo < info->low)
        info->low = lo;
    if (hi > info->high)
        info->high = hi;
}

/* Headers and symbols are copied out of the file (memcpy) rather than read in place: their
 * offsets come from the file and need not be aligned (fuzz_elf found a misaligned e_phoff). */
static Elf64_Phdr phdr_at(const uint8_t *p)
{
    Elf64_Phdr h;
    memcpy(&h, p, sizeof h);
    return h;
}

static Elf64_Shdr shdr_at(const uint8_t *p)
{
    Elf64_Shdr h;
    memcpy(&h, p, sizeof h);
    return h;
}

static void find_symbols(const uint8_t *data, size_t len, const Elf64_Ehdr *eh, mt_load_info *info)
{
    if (eh->e_shoff == 0 || eh->e_shentsize != sizeof(Elf64_Shdr) || eh->e_shoff > len ||
        (uint64_t)eh->e_shnum * sizeof(Elf64_Shdr) > len - eh->e_shoff)
        return;
    const uint8_t *shtab = data + eh->e_shoff;
    for (unsigned i = 0; i < eh->e_shnum; i++) {
        Elf64_Shdr sh = shdr_at(shtab + (size_t)i * sizeof sh);
        if (sh.sh_type != SHT_SYMTAB || sh.sh_link >= eh->e_shnum)
            continue;
        Elf64_Shdr strs = shdr_at(shtab + (size_t)sh.sh_link * sizeof sh);
        if (sh.sh_offset > len || sh.sh_size > len - sh.sh_offset || strs.sh_offset > len ||
            strs.sh_size > len - strs.sh_offset)
            continue;
        const uint8_t *syms = data + sh.sh_offset;
        size_t nsym = sh.sh_size / sizeof(Elf64_Sym);
        const char *names = (const char *)(data + strs.sh_offset);
        for (size_t s = 0; s < nsym; s++) {
            Elf64_Sym sym1;
            memcpy(&sym1, syms + s * sizeof sym1, sizeof sym1);
            if (sym1.st_name >= strs.sh_size)
                continue;
            const char *nm = names + sym1.st_name;
            size_t maxlen = strs.sh_size - sym1.st_name;
            if (strnlen(nm, maxlen) == maxlen)
                continue;
            if (strcmp(nm, "tohost") == 0)
                info->tohost = sym1.st_value;
            else if (strcmp(nm, "fromhost") == 0)
                info->fromhost = sym1.st_value;
            else if (strcmp(nm, "begin_signature") == 0)
                info->sig_begin = sym1.st_value;
            else if (strcmp(nm, "end_signature") == 0)
                info->sig_end = sym1.st_value;
        }
    }
}

bool loader_load_elf(mt_ram *ram, const char *path, mt_load_info *info, char *err, size_t errlen)
{
    uint8_t *data;
    size_t len;
    memset(info, 0, sizeof *info);
    info->low = UINT64_MAX;
    if (!read_file(path, &data, &len, err, errlen))
        return false;
    bool ok = loader_load_elf_image(ram, path, data, len, info, err, errlen);
    free(data);
    return ok;
}

bool loader_load_elf_image(mt_ram *ram, const char *path, const uint8_t *data, size_t len, mt_load_info *info,
                           char *err, size_t errlen)
{
    memset(info, 0, sizeof *info);
    info->low = UINT64_MAX;
    bool ok = false;
    const Elf64_Ehdr *eh = (const Elf64_Ehdr *)data;
    if (len < SELFMAG || memcmp(data, ELFMAG, SELFMAG) != 0) {
        snprintf(err, errlen, "%s: not an ELF file", path);
        goto out;
    }
    if (len < sizeof(Elf64_Ehdr) || data[EI_CLASS] != ELFCLASS64) {
        snprintf(err, errlen, "%s: not a 64-bit ELF file (RV64 needed)", path);
        goto out;
    }
    if (data[EI_DATA] != ELFDATA2LSB || eh->e_machine != EM_RISCV) {
        snprintf(err, errlen, "%s: not a little-endian RISC-V ELF file (e_machine %u)", path, eh->e_machine);
        goto out;
    }
    if (eh->e_type != ET_EXEC && eh->e_type != ET_DYN) {
        snprintf(err, errlen, "%s: not an executable ELF file", path);
        goto out;
    }
    if (eh->e_phentsize != sizeof(Elf64_Phdr) || eh->e_phoff > len ||
        (uint64_t)eh->e_phnum * sizeof(Elf64_Phdr) > len - eh->e_phoff) {
        snprintf(err, errlen, "%s: truncated or corrupt program headers", path);
        goto out;
    }
    int loaded = 0;
    for (unsigned i = 0; i < eh->e_phnum; i++) {
        Elf64_Phdr ph1 = phdr_at(data + eh->e_phoff + (size_t)i * sizeof ph1);
        if (ph1.p_type != PT_LOAD || ph1.p_memsz == 0)
            continue;
        uint64_t pa = ph1.p_paddr, memsz = ph1.p_memsz, filesz = ph1.p_filesz;
        if (filesz > memsz || ph1.p_offset > len || filesz > len - ph1.p_offset) {
            snprintf(err, errlen, "%s: segment %u is truncated or corrupt", path, i);
            goto out;
        }
        if (!ram_contains(ram, pa, memsz)) {
            snprintf(err, errlen, "%s: segment %u [0x%llx, 0x%llx) lies outside RAM [0x%llx, 0x%llx)", path, i,
                     (unsigned long long)pa, (unsigned long long)(pa + memsz), (unsigned long long)ram_base(ram),
                     (unsigned long long)(ram_base(ram) + ram_size(ram)));
            goto out;
        }
        ram_host_write(ram, pa, data + ph1.p_offset, filesz);
        static const uint8_t zeros[4096];
        for (uint64_t z = filesz; z < memsz;) {
            uint64_t n = memsz - z < sizeof zeros ? memsz - z : sizeof zeros;
            ram_host_write(ram, pa + z, zeros, n);
            z += n;
        }
        note_range(info, pa, pa + memsz);
        loaded++;
    }
    if (!loaded) {
        snprintf(err, errlen, "%s: no loadable segment", path);
        goto out;
    }
    info->entry = eh->e_entry;
    find_symbols(data, len, eh, info);
    ok = true;
out:
    return ok;
}

bool loader_load_raw(mt_ram *ram, const char *path, uint64_t addr, mt_load_info *info, char *err, size_t errlen)
{
    uint8_t *data;
    size_t len;
    memset(info, 0, sizeof *info);
    if (!read_file(path, &data, &len, err, errlen))
        return false;
    bool ok = loader_load_raw_image(ram, path, data, len, addr, info, err, errlen);
    free(data);
    return ok;
}

bool loader_load_raw_image(mt_ram *ram, const char *path, const uint8_t *data, size_t len, uint64_t addr,
                           mt_load_info *info, char *err, size_t errlen)
{
    memset(info, 0, sizeof *info);
    if (!len) { /* an image of nothing: a mistake (zeros would run as a trap storm) */
        snprintf(err, errlen, "%s: empty file", path);
        return false;
    }
    bool ok = ram_contains(ram, addr, len);
    if (!ok)
        snprintf(err, errlen, "%s: %zu bytes at 0x%llx do not fit in RAM [0x%llx, 0x%llx)", path, len,
                 (unsigned long long)addr, (unsigned long long)ram_base(ram),
                 (unsigned long long)(ram_base(ram) + ram_size(ram)));
    else
        ram_host_write(ram, addr, data, len);
    info->entry = addr;
    info->low = addr;
    info->high = addr + len;
    return ok;
}
