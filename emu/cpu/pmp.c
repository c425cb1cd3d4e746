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

bool pmp_allows(const mt_cpu *cpu, uint64_t pa, unsigned size, unsigned perm, int priv)
{
    if (cpu->pmp_active) {
        uint64_t end = pa + size;
        for (unsigned i = 0; i < PMP_COUNT; i++) {
            uint64_t lo, hi;
            if (!entry_range(cpu, i, &lo, &hi) || end <= lo || pa >= hi)
                continue;
            if (pa < lo || end > hi) /* matches only part of the access: fails */
                return false;
            return (entry_perms(cpu, i, priv) & perm) == perm;
        }
    }
    return (default_perms(priv) & perm) == perm;
}

int pmp_page_perms(const mt_cpu *cpu, uint64_t page_pa, int priv)
{
    if (cpu->pmp_active) {
        uint64_t end = page_pa + 4096;
        for (unsigned i = 0; i < PMP_COUNT; i++) {
            uint64_t lo, hi;
            if (!entry_range(cpu, i, &lo, &hi) || end <= lo || page_pa >= hi)
                continue;
            if (page_pa < lo || end > hi)
                return -1;
            return (int)entry_perms(cpu, i, priv);
        }
    }
    return (int)default_perms(priv);
}

static bool entry_locked(const mt_cpu *cpu, unsigned i) { return (cpu->pmpcfg[i] & PMP_L) != 0; }

static void update_active(mt_cpu *cpu)
{
    cpu->pmp_active = false;
    for (unsigned i = 0; i < PMP_COUNT; i++)
        if ((cpu->pmpcfg[i] >> PMP_A_SHIFT) & 3)
            cpu->pmp_active = true;
}

void pmp_write_cfg(mt_cpu *cpu, unsigned index, uint8_t val)
{
    if (index >= PMP_COUNT || entry_locked(cpu, index))
        return;
    val &= 0x9f; /* bits 6:5 are reserved, read as zero */
    if ((val & (PMP_R | PMP_W)) == PMP_W) /* R=0, W=1 is reserved: keep the old value */
        return;
    cpu->pmpcfg[index] = val;
    update_active(cpu);
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
}
