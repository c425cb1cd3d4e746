/* Physical memory protection: 16 entries, OFF / TOR / NA4 / NAPOT, the L bit, 4-byte grain. */
#ifndef EMU_PMP_H
#define EMU_PMP_H

#include <stdbool.h>
#include <stdint.h>

#include "emu/cpu/cpu.h"

enum { PMP_R = 1, PMP_W = 2, PMP_X = 4, PMP_A_SHIFT = 3, PMP_L = 0x80 };
enum { PMP_OFF = 0, PMP_TOR = 1, PMP_NA4 = 2, PMP_NAPOT = 3 };

/* pmp_allows without the look-up in the page cache (which it does again, and fills). */
bool pmp_allows_uncached(mt_cpu *cpu, uint64_t pa, unsigned size, unsigned perm, int priv);
/* True when an access of `size` bytes at pa with permission `perm` (PMP_R/W/X) is allowed in
 * privilege `priv` (the answers for whole pages are cached in the cpu, hence not const).  The
 * cache's hit inline: every PTE read of a walk asks, and a call was 36 host instructions of
 * each (callgrind, Linux's first 10^8 instructions: 68 M of 2,534 M). */
static inline bool pmp_allows(mt_cpu *cpu, uint64_t pa, unsigned size, unsigned perm, int priv)
{
    if ((pa & 0xfff) + size <= 4096) {
        const uint64_t tag = (pa & ~UINT64_C(0xfff)) | (unsigned)priv;
        const unsigned slot = (unsigned)(pa >> 12) & (PMP_PAGE_CACHE - 1);
        if (cpu->pmp_cache_tag[slot] == tag)
            return (cpu->pmp_cache_perms[slot] & perm) == perm;
    }
    return pmp_allows_uncached(cpu, pa, size, perm, priv);
}
/* The permissions that hold for every byte of the 4 KiB page at page_pa in privilege priv, or -1
 * when they differ inside the page (then nothing of the page may be cached in a TLB). */
int pmp_page_perms(const mt_cpu *cpu, uint64_t page_pa, int priv);
/* Makes the matching table (mt_cpu pmp_n, pmp_lo...) from pmpcfg/pmpaddr: after any change of
 * them that does not go through pmp_write_cfg/pmp_write_addr (a reset). */
void pmp_rebuild(mt_cpu *cpu);
/* CSR writes with the WARL rules (locked entries, reserved R=0/W=1 combination). */
void pmp_write_cfg(mt_cpu *cpu, unsigned index, uint8_t val);
void pmp_write_addr(mt_cpu *cpu, unsigned index, uint64_t val);

#endif
