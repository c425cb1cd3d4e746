#!/usr/bin/env bash
# Debian's U-Boot M-mode image (u-boot-qemu qemu-riscv64/u-boot.bin) as --bios, unmodified: it
# boots to its prompt (a key typed during the countdown stops autoboot), runs typed commands,
# and `poweroff` (syscon-poweroff on the SiFive test finisher) ends mtemu with status 0.
set -u
. "$(dirname "$0")/boot-lib.sh"
need "$UBOOT_DIR/qemu-riscv64/u-boot.bin"

out=$boot_tmp/uboot-m.txt
if run_with_input uboot-m-prompt "$out" "Hit any key to stop autoboot" ' version\nsetexpr v 6 * 7; echo probe-$v\npoweroff\n' \
     --bios "$UBOOT_DIR/qemu-riscv64/u-boot.bin"; then
  expect_in_order uboot-m-prompt "$out" "U-Boot 2023.01" "CPU:   rv64ima" "Model: riscv-virtio,qemu" \
    "DRAM:  128 MiB" "In:    serial@10000000" "Hit any key to stop autoboot" "=> "
  expect_in_order uboot-m-commands "$out" "=> version" "U-Boot 2023.01" "riscv64-linux-gnu-gcc" \
    "probe-2a" "=> poweroff"
fi
[ $failures -eq 0 ]
