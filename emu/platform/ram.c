/* Flat guest RAM: one anonymous MAP_NORESERVE mapping; the host kernel supplies zero pages on
 * first touch, so a large -m costs only what the guest uses.  A dirty bitmap records which pages
 * were handed out for writing (the meta-pager needs the same notion); a second one, which pages
 * of the mapping anyone wrote since the last ram_clear (the emulator's own writes too), so that
 * a reset clears those alone. */
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
    uint64_t *written; /* one bit per page of `host` written since the last clear, by anyone */
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
    ram->written = calloc((npages + 63) / 64, sizeof(uint64_t));
    if (p == MAP_FAILED || !ram->dirty || !ram->written) {
        if (p != MAP_FAILED)
            munmap(p, size);
        free(ram->dirty);
        free(ram->written);
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
    free(ram->written);
    free(ram);
}

/* Flat RAM: page `page` of `host` is about to be written (by the guest or by the emulator). */
static inline void mark_written(mt_ram *ram, uint64_t page)
{
    ram->written[page >> 6] |= UINT64_C(1) << (page & 63);
}

/* From this many consecutive written pages (256 KiB) on, ram_clear hands them back to the
 * kernel instead of zeroing them: madvise costs a system call and a TLB flush, and the pages
 * fault in again when next touched, where memset of a few pages costs neither. */
#define CLEAR_BY_MADVISE_PAGES 64

/* Pages [first, first + n) of `host` read as zero again. */
static void zero_pages(mt_ram *ram, uint64_t first, uint64_t n)
{
    uint8_t *p = ram->host + (first << RAM_PAGE_SHIFT);
    const size_t len = (size_t)(n << RAM_PAGE_SHIFT);
    /* (MADV_DONTNEED on a private anonymous mapping: the range reads as zero again) */
    if (n < CLEAR_BY_MADVISE_PAGES || madvise(p, len, MADV_DONTNEED) != 0)
        memset(p, 0, len);
}

void ram_clear(mt_ram *ram)
{
    /* Only the pages written since the last clear can hold anything but zero: every write to
     * `host` is marked (the guest's through ram_page_for_write, the contract's (a); the
     * emulator's through ram_host_write).  The whole mapping's madvise was half of a reset's
     * cost in fuzz_mtemu, most of it its TLB flush (docs/robustness.md, eighth session). */
    const uint64_t npages = ram->size >> RAM_PAGE_SHIFT, words = (npages + 63) / 64;
    uint64_t run_first = 0, run_n = 0;
    for (uint64_t w = 0; w < words; w++) {
        uint64_t bits = ram->written[w];
        if (!bits)
            continue;
        ram->written[w] = 0;
        while (bits) {
            const uint64_t page = w * 64 + (uint64_t)__builtin_ctzll(bits);
            bits &= bits - 1;
            if (run_n && page == run_first + run_n) {
                run_n++;
                continue;
            }
            if (run_n)
                zero_pages(ram, run_first, run_n);
            run_first = page;
            run_n = 1;
        }
    }
    if (run_n)
        zero_pages(ram, run_first, run_n);
    memset(ram->dirty, 0, words * sizeof(uint64_t));
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
    mark_written(ram, page);
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
    if (len) {
        const uint64_t first = (paddr - ram->base) >> RAM_PAGE_SHIFT;
        const uint64_t last = (paddr - ram->base + len - 1) >> RAM_PAGE_SHIFT;
        for (uint64_t page = first; page <= last; page++)
            mark_written(ram, page);
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
