/* Address translation (Sv39 / Sv48, two-stage ready), PMP enforcement and the slow paths of
 * memory accesses that fill the software TLBs. */
#ifndef EMU_MMU_H
#define EMU_MMU_H

#include <stdbool.h>
#include <stdint.h>

#include "emu/cpu/cpu.h"

enum { ACC_R = 0, ACC_W = 1, ACC_X = 2 };

#define SATP_MODE_SHIFT 60
#define SATP_MODE_BARE 0
#define SATP_MODE_SV39 8
#define SATP_MODE_SV48 9
#define SATP_PPN_MASK ((UINT64_C(1) << 44) - 1)

/* PTE bits */
#define PTE_V 0x001u
#define PTE_R 0x002u
#define PTE_W 0x004u
#define PTE_X 0x008u
#define PTE_U 0x010u
#define PTE_G 0x020u
#define PTE_A 0x040u
#define PTE_D 0x080u

/* Virtual -> physical for an access `acc` in privilege `priv` (page-table accesses are bus
 * accesses of kind PTW, A/D bits are set in memory).  Returns EXC_NONE or the page-fault /
 * access-fault cause.  PMP is not checked on the final address here. */
int mmu_translate(mt_cpu *cpu, uint64_t va, int acc, int priv, uint64_t *pa);
/* A guest's access made with V=0 (HLV/HLVX/HSV): VS-stage with vsatp/vsstatus, then G-stage.
 * hlvx: the read needs execute permission at both stages. */
int mmu_translate_guest(mt_cpu *cpu, uint64_t va, int acc, int priv, bool hlvx, uint64_t *pa);

/* HLV/HLVX/HSV's access: translation (VS-stage at privilege priv, then G-stage), PMP, and the
 * guest data TLB set `set` (-1: no caching, HLVX) looked up and filled.  *host is the host
 * pointer, NULL for a device. */
int mmu_guest_access(mt_cpu *cpu, uint64_t va, unsigned size, bool write, bool hlvx, int priv, int set,
                     uint64_t *pa, uint8_t **host);

/* Instruction side: the ITLB entry for the page holding va (filled on a miss, creating the
 * page's decoded-instruction array).  On success *pa_out is the page's physical address; the
 * entry may be NULL when the page cannot be cached (PMP boundary inside it), then *dp_out is set. */
int mmu_fetch_page(mt_cpu *cpu, uint64_t va, mt_dpage **dp_out);
/* Reads the 16-bit parcel at va as an instruction fetch (the second half of an instruction
 * straddling pages): translates it (a walk: PTW accesses, each a cycle) and reports the fetch
 * (cpu_fetch_access).  The caller has advanced the clock past the first half's fetch. */
int mmu_fetch_parcel(mt_cpu *cpu, uint64_t va, uint16_t *parcel);

/* Data slow paths (TLB miss, misaligned, MMIO, watched or code pages). */
int mem_load_slow(mt_cpu *cpu, uint64_t va, unsigned size, uint64_t *val);
int mem_store_slow(mt_cpu *cpu, uint64_t va, unsigned size, uint64_t val);
/* Atomics: op is one of the decoder's OP_AMO*, OP_LR_*, OP_SC_*; *result is what rd receives. */
int mem_atomic(mt_cpu *cpu, unsigned op, uint64_t va, uint64_t src, uint64_t *result);

#endif
