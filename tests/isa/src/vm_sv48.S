/* vm_sv48: the vm_sv39 checks under Sv48 (ISA-ENV: m-only), plus a 512 GiB leaf, a misaligned
 * 512 GiB leaf, an address that is canonical in Sv48 but not in Sv39, and Sv48 non-canonical
 * addresses.  See include/vm_body.inc. */
#define SV48 1
#include "isa_test.h"
#include "vm_body.inc"
