/* The VMM's platform constants, guest layout and CSR numbers, shared by its M-mode start code
 * (start.S) and its HS-mode C.  The host is QEMU's `virt` map (mtemu has the same). */
#ifndef VMM_DEFS_H
#define VMM_DEFS_H

#define UART_BASE 0x10000000
#define FINISHER_BASE 0x100000

/* Host-physical layout.  The VMM is linked at RAM_BASE and must end below KERNEL_STAGE_HPA,
 * where the loader (mtemu --kernel, QEMU -kernel) puts a raw Image after a bios of < 2 MiB. */
#define RAM_BASE 0x80000000UL
#define KERNEL_STAGE_HPA 0x80200000UL
/* Guest RAM starts this far into host RAM: room for the VMM and the staged Image (up to 62 MiB). */
#define GUEST_HPA_OFFSET 0x4000000UL /* 64 MiB */

/* Guest-physical layout: RAM at 0x8000_0000 like any kernel on `virt` expects.  The first
 * 2 MiB are mapped with 4 KiB G-stage leaves, the rest with 2 MiB leaves; one Sv39x4 level-1
 * table covers 1 GiB, the most guest RAM the VMM gives. */
#define GUEST_RAM_GPA 0x80000000UL
#define GUEST_RAM_MAX 0x40000000UL /* 1 GiB */
#define GUEST_RAM_MIN 0x2000000UL  /* 32 MiB: less and Linux's initramfs does not fit */
#define MIB2 0x200000UL

/* The hypervisor CSRs by number (the assembler is not told about the H extension). */
#define CSR_MENVCFG 0x30a
#define CSR_HSTATUS 0x600
#define CSR_HEDELEG 0x602
#define CSR_HIDELEG 0x603
#define CSR_HTIMEDELTA 0x605
#define CSR_HCOUNTEREN 0x606
#define CSR_HENVCFG 0x60a
#define CSR_HTVAL 0x643
#define CSR_HVIP 0x645
#define CSR_HTINST 0x64a
#define CSR_HGATP 0x680
#define CSR_VSSTATUS 0x200
#define CSR_VSATP 0x280
#define CSR_VSTIMECMP 0x24d

#define ENVCFG_STCE (1UL << 63)
#define HSTATUS_SPV (1UL << 7)
#define HSTATUS_SPVP (1UL << 8)
#define SSTATUS_SPP (1UL << 8)
#define MIP_VSSIP (1UL << 2)
#define MIP_VSTIP (1UL << 6)
#define MIP_VSEIP (1UL << 10)

#endif
