#!/usr/bin/env bash
# Runs every ISA test ELF on the reference, QEMU's `spike` machine (HTIF: QEMU exits with
# tohost >> 1), and prints PASS/FAIL <name> lines.  Not part of `make test`: it checks the tests,
# not the emulator.  Usage: tests/isa/run-qemu.sh [elf...]   (default: $FWBUILD/isa/*.elf)
set -u
FWBUILD=${FWBUILD:-build/firmware}
QEMU=${QEMU:-qemu-system-riscv64}
shopt -s nullglob
if [ $# -gt 0 ]; then elfs=("$@"); else elfs=("$FWBUILD"/isa/*.elf); fi
[ ${#elfs[@]} -eq 0 ] && { echo "no ISA test ELFs (run make isa-tests)" >&2; exit 1; }
failed=0
for elf in "${elfs[@]}"; do
  name=$(basename "$elf" .elf)
  timeout --kill-after=2 "${ISA_TIMEOUT:-20}" "$QEMU" -M spike -m 256M -bios none -kernel "$elf" \
    -nographic -monitor none -serial null </dev/null >/dev/null 2>&1
  rc=$?
  if [ "$rc" -eq 0 ]; then echo "PASS isa/$name"; else failed=$((failed + 1)); echo "FAIL isa/$name: exit $rc"; fi
done
echo "qemu: $(( ${#elfs[@]} - failed )) passed, $failed failed"
[ "$failed" -eq 0 ]
