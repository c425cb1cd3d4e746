/* PMP matching.  Entries are checked in index order; the first that matches any byte decides. */
#include "emu/cpu/pmp.h"

/* The [lo, hi) byte range of entry i, or false when it is OFF / empty. */
static bool entry_range(const mt_cpu *cpu, unsigned i, uint64_t *lo, uint64_t *hi)
{
    unsigned a = (cpu->pmpcfg[i] >> PMP_A_SHIFT) & 3;
    uint64_t addr = cpu->pmpaddr[i];
    switch (a) {
    case PMP_TOR:
        *lo = i == 0 ? 0 : cpu->pmpaddr[i - 1] << 2;
        *hi = addr << 2;
        return *lo < *hi;
    case PMP_NA4:
        *lo = addr << 2;
        *hi = *lo + 4;
        return true;
    case PMP_NAPOT: {
        /* trailing ones give the size: 8 << ones */
        unsigned ones = (unsigned)__builtin_ctzll(~addr);
        if (ones >= 54) { /* the whole 56-bit space */
            *lo = 0;
            *hi = UINT64_C(1) << 56;
            return true;
        }
        uint64_t size = UINT64_C(8) << ones;
        *lo = (addr << 2) & ~(size - 1);
        *hi = *lo + size;
        return true;
    }
    default:
        return false;
    }
}

static unsigned entry_perms(const mt_cpu *cpu, unsigned i, int priv)
{
    uint8_t cfg = cpu->pmpcfg[i];
    if (priv == PRV_M && !(cfg & PMP_L))
        return PMP_R | PMP_W | PMP_X;
    return cfg & (PMP_R | PMP_W | PMP_X);
}

/* What applies when no entry matches: M-mode may do anything; S/U nothing (PMP entries are
 * implemented, so the spec says such accesses fail, and QEMU agrees). */
static unsigned default_perms(int priv)
{
    return priv == PRV_M ? (PMP_R | PMP_W | PMP_X) : 0;
}

/* The first entry of the table that matches any byte of [pa, end), or pmp_n when none does. */
static unsigned first_match(const mt_cpu *cpu, uint64_t pa, uint64_t end)
{
    unsigned i = 0;
    while (i < cpu->pmp_n && (end <= cpu->pmp_lo[i] || pa >= cpu->pmp_hi[i]))
        i++;
    return i;
}

static unsigned table_perms(const mt_cpu *cpu, unsigned i, int priv)
{
    return priv == PRV_M ? cpu->pmp_perm_m[i] : cpu->pmp_perm_su[i];
}

bool pmp_allows_uncached(mt_cpu *cpu, uint64_t pa, unsigned size, unsigned perm, int priv)
{
    /* Inside one page whose permissions are uniform the first match for the access is the
     * first match for the page (no entry before it matches any byte of the page, and it holds
     * all of them): the page's answer, cached, serves every access in it (every PTE read of a
     * walk checks one). */
    if ((pa & 0xfff) + size <= 4096) {
        const uint64_t tag = (pa & ~UINT64_C(0xfff)) | (unsigned)priv;
        const unsigned slot = (unsigned)(pa >> 12) & (PMP_PAGE_CACHE - 1);
        if (cpu->pmp_cache_tag[slot] != tag) {
            int perms = pmp_page_perms(cpu, pa & ~UINT64_C(0xfff), priv);
            if (perms >= 0) {
                cpu->pmp_cache_tag[slot] = tag;
                cpu->pmp_cache_perms[slot] = (uint8_t)perms;
            }
        }
        if (cpu->pmp_cache_tag[slot] == tag)
            return (cpu->pmp_cache_perms[slot] & perm) == perm;
    }
    uint64_t end = pa + size;
    unsigned i = first_match(cpu, pa, end);
    if (i == cpu->pmp_n)
        return (default_perms(priv) & perm) == perm;
    if (pa < cpu->pmp_lo[i] || end > cpu->pmp_hi[i]) /* matches only part of the access: fails */
        return false;
    return (table_perms(cpu, i, priv) & perm) == perm;
}

int pmp_page_perms(const mt_cpu *cpu, uint64_t page_pa, int priv)
{
    uint64_t end = page_pa + 4096;
    unsigned i = first_match(cpu, page_pa, end);
    if (i == cpu->pmp_n)
        return (int)default_perms(priv);
    if (page_pa < cpu->pmp_lo[i] || end > cpu->pmp_hi[i])
        return -1;
    return (int)table_perms(cpu, i, priv);
}

/* Entries that match nothing (OFF, or an empty TOR range) are left out: the first match in the
 * table is the first matching entry in index order, as the spec's priority wants. */
void pmp_rebuild(mt_cpu *cpu)
{
    unsigned n = 0;
    cpu->pmp_active = false;
    for (unsigned i = 0; i < PMP_COUNT; i++) {
        uint64_t lo, hi;
        if ((cpu->pmpcfg[i] >> PMP_A_SHIFT) & 3)
            cpu->pmp_active = true;
        if (!entry_range(cpu, i, &lo, &hi))
            continue;
        cpu->pmp_lo[n] = lo;
        cpu->pmp_hi[n] = hi;
        cpu->pmp_perm_m[n] = (uint8_t)entry_perms(cpu, i, PRV_M);
        cpu->pmp_perm_su[n] = (uint8_t)entry_perms(cpu, i, PRV_S);
        n++;
    }
    cpu->pmp_n = (uint8_t)n;
    for (unsigned i = 0; i < PMP_PAGE_CACHE; i++)
        cpu->pmp_cache_tag[i] = PMP_PAGE_CACHE_INVALID;
}

static bool entry_locked(const mt_cpu *cpu, unsigned i) { return (cpu->pmpcfg[i] & PMP_L) != 0; }

void pmp_write_cfg(mt_cpu *cpu, unsigned index, uint8_t val)
{
    if (index >= PMP_COUNT || entry_locked(cpu, index))
        return;
    val &= 0x9f; /* bits 6:5 are reserved, read as zero */
    if ((val & (PMP_R | PMP_W)) == PMP_W) /* R=0, W=1 is reserved: keep the old value */
        return;
    cpu->pmpcfg[index] = val;
    pmp_rebuild(cpu);
}

void pmp_write_addr(mt_cpu *cpu, unsigned index, uint64_t val)
{
    if (index >= PMP_COUNT || entry_locked(cpu, index))
        return;
    /* a locked TOR entry above also locks the address below it */
    if (index + 1 < PMP_COUNT && entry_locked(cpu, index + 1) &&
        ((cpu->pmpcfg[index + 1] >> PMP_A_SHIFT) & 3) == PMP_TOR)
        return;
    cpu->pmpaddr[index] = val & ((UINT64_C(1) << 54) - 1);
    pmp_rebuild(cpu);
}
