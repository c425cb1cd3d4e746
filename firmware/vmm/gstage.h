/* The guest's G-stage (Sv39x4): guest-physical RAM [GUEST_RAM_GPA, + size) onto host-physical
 * [hpa, + size), one 2 MiB block through 4 KiB leaves, the rest through 2 MiB leaves, so that
 * both leaf sizes carry a real workload.  Nothing else is mapped: every other guest-physical
 * access is a guest-page fault, which the VMM reports. */
#ifndef VMM_GSTAGE_H
#define VMM_GSTAGE_H

#include <stdint.h>

/* Builds the tables and loads hgatp (VMID 0).  size: a multiple of 2 MiB, at most 1 GiB;
 * small_gpa: the 2 MiB-aligned block mapped page by page. */
void gstage_build(uint64_t hpa, uint64_t size, uint64_t small_gpa);

/* The host-physical address of guest-physical [gpa, gpa + len), or 0 when any of it is not
 * guest RAM.  For the SBI calls that pass guest buffers. */
uint64_t gstage_hpa(uint64_t gpa, uint64_t len);

#endif
