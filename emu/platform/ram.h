/* Guest RAM behind a small interface, so that meta-paging (emu/metapaging/metapager.[ch]) can be put behind
 * it without touching the CPU.  The contract (docs/emulator.md, "Guest RAM"):
 *
 *  (a) The CPU's slow path asks for a host pointer to the 4 KiB guest page that holds a physical
 *      address, for reading or for writing (a write request marks the page dirty).  The CPU's
 *      software TLBs cache these pointers with separate read / write / execute validity, so the
 *      first write to a page always comes here.
 *  (b) The RAM side may at any time (between two guest accesses) call the invalidator the CPU
 *      registered, with a physical range [base, base+len): every TLB entry and cached host pointer
 *      into that range is dropped; nothing else is flushed.
 *  (c) An optional page observer (ram_page_observer) is told, in true access order including
 *      instruction fetches and page-table walks, every time the granule touched (the 4 KiB page,
 *      or the coarser power of two the observer asked for: cpu_set_page_observer) differs from
 *      the last one reported (and when a write follows a read report of the same granule).
 *  The emulator's own accesses (ELF loading, device-tree placement, HTIF replies) use
 *  ram_host_read / ram_host_write, which the observer never sees.
 *
 * This file's implementation (ram.c) is flat: one mmap(MAP_NORESERVE) region, so `-m 64G`
 * costs nothing until pages are touched. */
#ifndef EMU_RAM_H
#define EMU_RAM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define RAM_PAGE_SHIFT 12
#define RAM_PAGE_SIZE (UINT64_C(1) << RAM_PAGE_SHIFT)

typedef struct mt_ram mt_ram;

/* Called by the RAM side to drop cached pointers into [base, base+len) (physical). */
typedef void (*ram_invalidate_fn)(void *ctx, uint64_t base, uint64_t len);
/* Told the 4 KiB page number (physical address >> 12) of an access whose page differs from the
 * last one reported; is_write = 1 for stores, AMOs and PTE A/D updates. */
typedef void (*ram_page_observer)(void *ctx, uint64_t pfn, bool is_write);
/* The same reports gathered in a buffer its owner drains: for an observer that need not act
 * before the access itself (the online simulations, not a meta-pager), one call per `cap`
 * reports instead of one per report.  entries[i] = pfn << 1 | is_write, in report order; the CPU
 * calls drain(b) when n reaches cap, and drain must leave n == 0.  The owner drains it itself
 * before it reads its state. */
struct ram_page_batch {
    uint64_t *entries;
    uint32_t n, cap;
    void (*drain)(struct ram_page_batch *b);
};

/* Guest RAM of `size` bytes (a multiple of 4 KiB) at physical `base`. NULL (errno set) on failure. */
mt_ram *ram_create(uint64_t base, uint64_t size);
void ram_destroy(mt_ram *ram);
/* The RAM as ram_create left it: all zero, nothing dirty, flat (no meta-pager, observer or
 * invalidator), keeping its mapping (machine_reset).  Only the pages written since the last
 * clear are cleared (zeroed, or a long run of them handed back to the kernel): every write to
 * the flat RAM is marked, the guest's at ram_page_for_write (contract (a)), the emulator's at
 * ram_host_write. */
void ram_clear(mt_ram *ram);

uint64_t ram_base(const mt_ram *ram);
uint64_t ram_size(const mt_ram *ram);
/* True when [paddr, paddr+len) lies entirely in RAM. */
bool ram_contains(const mt_ram *ram, uint64_t paddr, uint64_t len);

/* Host pointer to the first byte of the 4 KiB page holding paddr, or NULL when paddr is not RAM.
 * The pointer stays valid until the invalidator is called for a range containing the page. */
uint8_t *ram_page_for_read(mt_ram *ram, uint64_t paddr);
/* The same for writing: the page is marked dirty. */
uint8_t *ram_page_for_write(mt_ram *ram, uint64_t paddr);

/* Registers the CPU's invalidator (one; NULL removes it). */
void ram_set_invalidator(mt_ram *ram, ram_invalidate_fn fn, void *ctx);
/* For the RAM side (meta-pager): drop every cached pointer into [base, base+len). */
void ram_invalidate(mt_ram *ram, uint64_t base, uint64_t len);

/* The emulator's own accesses (loaders, DTB, HTIF): bounds-checked, never observed.
 * They return false when the range is not entirely RAM. */
bool ram_host_write(mt_ram *ram, uint64_t paddr, const void *src, uint64_t len);
bool ram_host_read(mt_ram *ram, uint64_t paddr, void *dst, uint64_t len);

/* Number of distinct pages ever requested for writing (flat RAM: the dirty count). */
uint64_t ram_dirty_pages(const mt_ram *ram);

/* Meta-paging (docs/metapaging.md): from now on the RAM's contents live in the meta-pager's
 * resident frames and backing file (call before anything is loaded; NULL: flat again is not
 * supported).  Page requests fault metapages in, the pager's evictions call the invalidator, and
 * the emulator's own accesses go to the pager uncounted.  A backing-file error is fatal (one
 * line on stderr, exit 1): the guest must never see wrong memory. */
struct metapager;
void ram_use_metapager(mt_ram *ram, struct metapager *mp);
/* Told about every ram_host_write (the online simulations must know which metapages hold data). */
typedef void (*ram_host_write_observer)(void *ctx, uint64_t paddr, uint64_t len);
void ram_set_host_write_observer(mt_ram *ram, ram_host_write_observer fn, void *ctx);

#endif
