/* vm_sv39: Sv39 translation (ISA-ENV: m-only): 4 KiB, 2 MiB and 1 GiB leaves; load, store, AMO
 * and fetch page faults with mtval = the virtual address (and, for a 32-bit instruction that
 * crosses into an unmapped page, mepc = its start and mtval = the faulting page); R/W/X
 * permissions, the reserved W-without-R encoding, MXR, SUM, U pages vs S and U; A/D updates
 * (or faults, as the spec allows); misaligned superpages, a pointer at the last level, reserved
 * PTE bits; non-canonical addresses; SFENCE.VMA; satp WARL (an unsupported MODE leaves satp
 * unchanged); MPRV (with SUM and MXR); a page fault delegated to S; fetches from a 2 MiB page;
 * SFENCE.VMA of one address inside a superpage flushing all of it.  See include/vm_body.inc. */
#include "isa_test.h"
#include "vm_body.inc"
