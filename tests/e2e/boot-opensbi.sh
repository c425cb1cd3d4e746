#!/usr/bin/env bash
# Debian's OpenSBI (fw_jump.bin, fw_dynamic.bin), unmodified, on mtemu: the banner with what it
# probed on our virt machine (PMP, counters, delegation), then the hand-over to an S-mode payload
# at 0x8020_0000 with a1 = the device tree (U-Boot's S-mode image, which prints its own banner).
set -u
. "$(dirname "$0")/boot-lib.sh"
need "$OPENSBI_DIR/fw_jump.bin"; need "$OPENSBI_DIR/fw_dynamic.bin"
need "$UBOOT_DIR/qemu-riscv64_smode/u-boot.bin"

banner=("OpenSBI v1." "Platform Name             : riscv-virtio,qemu"
        "Platform HART Count       : 1" "Platform IPI Device       : aclint-mswi"
        "Platform Timer Device     : aclint-mtimer @ 10000000Hz" "Platform Console Device   : uart8250"
        "Platform Reboot Device    : sifive_test" "Platform Shutdown Device  : sifive_test"
        "Domain0 Next Address      : 0x0000000080200000" "Domain0 Next Mode         : S-mode"
        "Boot HART ID              : 0" "Boot HART Priv Version    : v1.12"
        "Boot HART PMP Count       : 16" "Boot HART PMP Granularity : 4"
        "Boot HART MEDELEG         : 0x0000000000f0b509"
        "U-Boot 2023.01" "Model: riscv-virtio,qemu" "DRAM:  128 MiB")
# MEDELEG: with the H extension OpenSBI also delegates VS ecalls, guest-page faults and virtual
# instructions (bits 10, 20-23); QEMU 7.2 prints the same value.
for fw in fw_jump fw_dynamic; do
  out=$boot_tmp/$fw.txt
  # 12 M instructions: OpenSBI hands over after about 6 M, U-Boot has printed DRAM by then.
  run_to_exit "opensbi-$fw" "$out" --max-insns 12000000 --bios "$OPENSBI_DIR/$fw.bin" \
    --kernel "$UBOOT_DIR/qemu-riscv64_smode/u-boot.bin" || continue
  expect_in_order "opensbi-$fw" "$out" "${banner[@]}"
done
[ $failures -eq 0 ]
