/* Flat guest RAM: one anonymous MAP_NORESERVE mapping; the host kernel supplies zero pages on
 * first touch, so a large -m costs only what the guest uses.  A dirty bitmap records which pages
 * were handed out for writing (the meta-pager needs the same notion). */
#include "emu/platform/ram.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "emu/metapaging/metapager.h"

struct mt_ram {
    uint64_t base, size;
    uint8_t *host;
    uint64_t *dirty; /* one bit per page */
    uint64_t ndirty;
    ram_invalidate_fn invalidate;
    void *invalidate_ctx;
    struct metapager *mp; /* meta-paged when set: `host` is then unused */
    ram_host_write_observer host_write_obs;
    void *host_write_ctx;
};

/* Meta-paged RAM: the pager's page, or a clear fatal error (never wrong memory). */
static uint8_t *paged_page(mt_ram *ram, uint64_t paddr, bool write)
{
    uint8_t *p = mp_page(ram->mp, (paddr - ram->base) >> RAM_PAGE_SHIFT, write);
    if (!p) {
        fprintf(stderr, "mtemu: meta-pager: %s\n", mp_error(ram->mp));
        exit(1);
    }
    return p;
}

static void paged_invalidate(void *ctx, uint64_t offset, uint64_t len)
{
    mt_ram *ram = ctx;
    ram_invalidate(ram, ram->base + offset, len);
}

void ram_use_metapager(mt_ram *ram, struct metapager *mp)
{
    ram->mp = mp;
    if (mp)
        mp_set_invalidate(mp, paged_invalidate, ram);
}

void ram_set_host_write_observer(mt_ram *ram, ram_host_write_observer fn, void *ctx)
{
    ram->host_write_obs = fn;
    ram->host_write_ctx = ctx;
}

mt_ram *ram_create(uint64_t base, uint64_t size)
{
    if (size == 0 || (size & (RAM_PAGE_SIZE - 1)) || (base & (RAM_PAGE_SIZE - 1)) || base + size < base) {
        errno = EINVAL;
        return NULL;
    }
    mt_ram *ram = calloc(1, sizeof *ram);
    if (!ram)
        return NULL;
    void *p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    uint64_t npages = size >> RAM_PAGE_SHIFT;
    ram->dirty = calloc((npages + 63) / 64, sizeof(uint64_t));
    if (p == MAP_FAILED || !ram->dirty) {
        if (p != MAP_FAILED)
            munmap(p, size);
        free(ram->dirty);
        free(ram);
        errno = ENOMEM;
        return NULL;
    }
    ram->host = p;
    ram->base = base;
    ram->size = size;
    return ram;
}

void ram_destroy(mt_ram *ram)
{
    if (!ram)
        return;
    munmap(ram->host, ram->size);
    free(ram->dirty);
    free(ram);
}

void ram_clear(mt_ram *ram)
{
    /* MADV_DONTNEED on a private anonymous mapping: every page reads as zero again, and only
     * the pages a run touched were ever backed */
    if (madvise(ram->host, ram->size, MADV_DONTNEED) != 0)
        memset(ram->host, 0, ram->size);
    memset(ram->dirty, 0, ((ram->size >> RAM_PAGE_SHIFT) + 63) / 64 * sizeof(uint64_t));
    ram->ndirty = 0;
    ram->invalidate = NULL;
    ram->invalidate_ctx = NULL;
    ram->mp = NULL;
    ram->host_write_obs = NULL;
    ram->host_write_ctx = NULL;
}

uint64_t ram_base(const mt_ram *ram) { return ram->base; }
uint64_t ram_size(const mt_ram *ram) { return ram->size; }

bool ram_contains(const mt_ram *ram, uint64_t paddr, uint64_t len)
{
    return paddr >= ram->base && len <= ram->size && paddr - ram->base <= ram->size - len;
}

uint8_t *ram_page_for_read(mt_ram *ram, uint64_t paddr)
{
    if (!ram_contains(ram, paddr, 1))
        return NULL;
    if (ram->mp)
        return paged_page(ram, paddr, false);
    return ram->host + ((paddr - ram->base) & ~(RAM_PAGE_SIZE - 1));
}

uint8_t *ram_page_for_write(mt_ram *ram, uint64_t paddr)
{
    if (!ram_contains(ram, paddr, 1))
        return NULL;
    uint64_t page = (paddr - ram->base) >> RAM_PAGE_SHIFT;
    uint64_t bit = UINT64_C(1) << (page & 63);
    if (!(ram->dirty[page >> 6] & bit)) {
        ram->dirty[page >> 6] |= bit;
        ram->ndirty++;
    }
    if (ram->mp)
        return paged_page(ram, paddr, true);
    return ram->host + (page << RAM_PAGE_SHIFT);
}

void ram_set_invalidator(mt_ram *ram, ram_invalidate_fn fn, void *ctx)
{
    ram->invalidate = fn;
    ram->invalidate_ctx = ctx;
}

void ram_invalidate(mt_ram *ram, uint64_t base, uint64_t len)
{
    if (ram->invalidate)
        ram->invalidate(ram->invalidate_ctx, base, len);
}

bool ram_host_write(mt_ram *ram, uint64_t paddr, const void *src, uint64_t len)
{
    if (!ram_contains(ram, paddr, len))
        return false;
    if (ram->host_write_obs)
        ram->host_write_obs(ram->host_write_ctx, paddr, len);
    if (ram->mp) {
        if (mp_host_write(ram->mp, paddr - ram->base, src, (size_t)len) != 0) {
            fprintf(stderr, "mtemu: meta-pager: %s\n", mp_error(ram->mp));
            exit(1);
        }
        return true;
    }
    memcpy(ram->host + (paddr - ram->base), src, len);
    return true;
}

bool ram_host_read(mt_ram *ram, uint64_t paddr, void *dst, uint64_t len)
{
    if (!ram_contains(ram, paddr, len))
        return false;
    if (ram->mp) {
        if (mp_host_read(ram->mp, paddr - ram->base, dst, (size_t)len) != 0) {
            fprintf(stderr, "mtemu: meta-pager: %s\n", mp_error(ram->mp));
            exit(1);
        }
        return true;
    }
    memcpy(dst, ram->host + (paddr - ram->base), len);
    return true;
}

uint64_t ram_dirty_pages(const mt_ram *ram) { return ram->ndirty; }
