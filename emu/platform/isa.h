/* The ISA the hart implements, as one string: the device tree's riscv,isa and `mtemu --help` /
 * `--version` print it. misa (emu/cpu/csr.c) holds the single letters IMAFDCHSU; the Z and S
 * extensions are the ones emu/cpu/ decodes (Zba/Zbb/Zbc/Zbs, Zicsr, Zifencei, Zihintpause as a
 * FENCE) or implements in the privileged architecture (Sstc, Svnapot, Svpbmt). The spelling and
 * order are QEMU 7.2 virt's for its default rv64 with Svnapot and Svpbmt, so guests see the same. */
#ifndef EMU_PLATFORM_ISA_H
#define EMU_PLATFORM_ISA_H

#define MT_ISA_STRING "rv64imafdch_zicsr_zifencei_zihintpause_zba_zbb_zbc_zbs_sstc_svnapot_svpbmt"

#endif
