/* The mini-hypervisor's platform and interface constants, shared by the hypervisor (HS), its
 * M-mode start code and the guest (VS/VU).  QEMU `virt` memory map (mtemu has the same). */
#ifndef HYP_DEFS_H
#define HYP_DEFS_H

#define UART_BASE 0x10000000
#define FINISHER_BASE 0x100000
#define CLINT_MTIMECMP 0x2004000
#define CLINT_MTIME 0x200bff8

/* Guest-physical layout: the guest believes its RAM starts at 0x8000_0000, like any kernel on
 * `virt`; the G-stage puts it elsewhere in host-physical memory. */
#define GUEST_RAM_GPA 0x80000000UL      /* 2 MiB megapage: the guest image */
#define GUEST_IMAGE_HPA 0x80200000UL    /*   ... lives here in host memory */
#define GUEST_LAZY_GPA 0x80200000UL     /* 2 MiB of 4 KiB pages mapped on demand by the hypervisor */
#define GUEST_LAZY_PAGES 512
#define GUEST_LAZY_HPA 0x80800000UL     /*   ... from this host pool, in reverse order */

/* The guest's virtual layout (its own Sv39 tables). */
#define USER_CODE_VA 0x10000UL
#define USER_STACK_VA 0x7f000UL         /* one page; the stack grows down from its end */
#define USER_DATA_VA 0x100000UL
#define USER_DATA_PAGES 8

/* SBI (the subset the hypervisor offers its guest) */
#define SBI_EXT_LEGACY_PUTCHAR 0x01
#define SBI_EXT_TIME 0x54494D45
#define SBI_EXT_SRST 0x53525354

/* The guest kernel's system calls (a7) for its user program */
#define SYS_PUTCHAR 1
#define SYS_REPORT 2
#define SYS_EXIT 3

#endif
