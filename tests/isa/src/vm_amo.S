/* vm_amo: vm_sv39 plus AMOs under translation (ISA-ENV: m-only): an AMO on an unmapped or
 * read-only page raises a store/AMO page fault (15), never a load page fault, with mtval = the
 * address; an AMO on a page without A/D either faults (15) or sets both A and D.
 * QEMU-DEVIATION(exit 17): QEMU 7.2 reports load page fault (13) for an AMO on an unmapped
 * page (it reads first; on a readable read-only page it does report 15); Spike reports 15 as
 * the spec says.  With case 17 expecting 13, everything else here passes on QEMU 7.2. */
#define WITH_AMO 1
#include "isa_test.h"
#include "vm_body.inc"
