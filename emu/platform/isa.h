/* The ISA the hart implements, as one string: the device tree's riscv,isa and `mtemu --help` /
 * `--version` print it. misa (emu/cpu/csr.c) holds the single letters IMAFDCHSU; the Z and S
 * extensions are the ones emu/cpu/ decodes (Zicbom/Zicboz, Zicsr, Zifencei, Zihintpause as a
 * FENCE, Zfh, Zba/Zbb/Zbc/Zbkb/Zbkx/Zbs) or implements in the privileged architecture (Sstc,
 * Svnapot, Svpbmt). The spelling and order are QEMU 7.2 virt's (Zi*, Zf*, Zb*, then S*), its
 * default rv64 with Svnapot and Svpbmt plus the extensions QEMU leaves off by default. */
#ifndef EMU_PLATFORM_ISA_H
#define EMU_PLATFORM_ISA_H

#define MT_ISA_STRING                                                                              \
    "rv64imafdch_zicbom_zicboz_zicsr_zifencei_zihintpause_zfh_zba_zbb_zbc_zbkb_zbkx_zbs_sstc_svnapot_svpbmt"

#endif
