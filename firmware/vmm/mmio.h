/* Trap-and-emulate of the guest's device accesses: a load or store guest-page fault at a
 * guest-physical address of a virtual device (vuart.h, vplic.h) is decoded and carried out by the VMM,
 * and the guest resumes after the instruction.  The instruction comes from htinst (the
 * transformed instruction) or, where the hart leaves htinst 0, from the guest's own memory
 * through HLVX.HU at sepc. */
#ifndef VMM_MMIO_H
#define VMM_MMIO_H

#include <stdint.h>

/* 1 when the fault (scause `cause`, guest-physical `gpa`) was a device access now done; 0 when
 * it is not one (the caller reports it). */
int mmio_emulate(uint64_t *frame, uint64_t cause, uint64_t gpa);

extern uint64_t mmio_accesses;

#endif
