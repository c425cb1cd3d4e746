#!/usr/bin/env bash
# Debian's OpenSBI fw_jump.bin + Debian's U-Boot S-mode image (qemu-riscv64_smode/u-boot.bin) as
# --kernel, both unmodified: U-Boot reaches its prompt (a key stops autoboot), runs typed commands (one of them asks
# OpenSBI for the SBI implementation through an ecall), and `poweroff` goes through SBI SRST to
# the test finisher (mtemu exits 0).
set -u
. "$(dirname "$0")/boot-lib.sh"
need "$OPENSBI_DIR/fw_jump.bin"; need "$UBOOT_DIR/qemu-riscv64_smode/u-boot.bin"

out=$boot_tmp/uboot-s.txt
if run_with_input uboot-s-prompt "$out" "Hit any key to stop autoboot" ' sbi\nsetexpr v 6 * 7; echo probe-$v\npoweroff\n' \
     --bios "$OPENSBI_DIR/fw_jump.bin" --kernel "$UBOOT_DIR/qemu-riscv64_smode/u-boot.bin"; then
  expect_in_order uboot-s-prompt "$out" "OpenSBI v1." "Domain0 Next Mode         : S-mode" \
    "U-Boot 2023.01" "Model: riscv-virtio,qemu" "Working FDT set to" "Hit any key to stop autoboot" "=> "
  expect_in_order uboot-s-commands "$out" "=> sbi" "SBI 1.0" "OpenSBI 1.1" "System Reset Extension" "probe-2a" "=> poweroff"
fi
[ $failures -eq 0 ]
