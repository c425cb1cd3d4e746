#include "gstage.h"

#include "vmm_defs.h"

#define PTE_V 0x01UL
#define PTE_R 0x02UL
#define PTE_W 0x04UL
#define PTE_X 0x08UL
#define PTE_U 0x10UL /* every G-stage leaf: the G-stage checks as U-mode */
#define PTE_A 0x40UL
#define PTE_D 0x80UL
#define G_LEAF (PTE_V | PTE_R | PTE_W | PTE_X | PTE_U | PTE_A | PTE_D)
#define HGATP_SV39X4 (8UL << 60)

/* The Sv39x4 root has 2048 entries (16 KiB, 16 KiB aligned); one level-1 table covers the 1 GiB
 * at GPA 0x8000_0000 (root index 2), one level-0 table the 2 MiB block of 4 KiB leaves. */
static uint64_t g_root[2048] __attribute__((aligned(16384)));
static uint64_t g_l1[512] __attribute__((aligned(4096)));
static uint64_t g_l0[512] __attribute__((aligned(4096)));
static uint64_t ram_hpa, ram_size;

static uint64_t pte(uint64_t pa, uint64_t flags) { return (pa >> 12) << 10 | flags; }

void gstage_build(uint64_t hpa, uint64_t size, uint64_t small_gpa)
{
    ram_hpa = hpa;
    ram_size = size;
    uint64_t small_off = small_gpa - GUEST_RAM_GPA;
    g_root[GUEST_RAM_GPA >> 30] = pte((uint64_t)(uintptr_t)g_l1, PTE_V);
    for (uint64_t off = 0; off < size; off += MIB2)
        g_l1[off / MIB2] = off == small_off ? pte((uint64_t)(uintptr_t)g_l0, PTE_V) : pte(hpa + off, G_LEAF);
    for (unsigned i = 0; i < 512; i++)
        g_l0[i] = pte(hpa + small_off + i * 4096UL, G_LEAF);
    __asm__ volatile("csrw 0x680, %0" ::"r"(HGATP_SV39X4 | ((uint64_t)(uintptr_t)g_root >> 12)));
    __asm__ volatile(".insn r 0x73, 0, 0x31, x0, x0, x0" ::: "memory"); /* hfence.gvma */
}

uint64_t gstage_hpa(uint64_t gpa, uint64_t len)
{
    if (gpa < GUEST_RAM_GPA || gpa - GUEST_RAM_GPA > ram_size || len > ram_size - (gpa - GUEST_RAM_GPA))
        return 0;
    return ram_hpa + (gpa - GUEST_RAM_GPA);
}
