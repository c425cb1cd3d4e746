#!/usr/bin/env bash
# -smp 4 without Linux (so without F/D): Debian's OpenSBI brings up 4 harts (HSM, IPIs through the
# CLINT) and hands over to U-Boot S-mode, which reaches its prompt and runs commands; Debian's
# U-Boot M-mode image parks its secondary harts with IPIs and does the same.  The interleaving is
# deterministic: two runs give the same console and the same per-hart instruction counts.
# A bare-metal handshake (tests/e2e/smp_skew.S, issue #8's -smp 8 hang in small) checks that no
# hart runs far ahead of one waiting for its turn.  Bad -smp values are refused with one line and
# exit 2.
set -u
. "$(dirname "$0")/boot-lib.sh"
need "$OPENSBI_DIR/fw_jump.bin"; need "$UBOOT_DIR/qemu-riscv64_smode/u-boot.bin"
need "$UBOOT_DIR/qemu-riscv64/u-boot.bin"

out=$boot_tmp/smode4.txt
if run_with_input smp4-opensbi-uboot-s "$out" "Hit any key to stop autoboot" ' setexpr v 6 * 7; echo probe-$v\npoweroff\n' \
     -smp 4 --bios "$OPENSBI_DIR/fw_jump.bin" --kernel "$UBOOT_DIR/qemu-riscv64_smode/u-boot.bin"; then
  # Which hart wins OpenSBI's boot lottery is a property of the interleaving (the device tree's
  # size alone moves it: adding Zicbo*/Zfh/Zbk* to riscv,isa made it hart 1), so any hart may.
  expect_in_order smp4-opensbi-uboot-s "$out" "OpenSBI v1." "Platform HART Count       : 4" \
    "Domain0 HARTs             : 0*,1*,2*,3*" "Boot HART ID              : " "U-Boot 2023.01" "=> " \
    "probe-2a" "=> poweroff"
fi

out=$boot_tmp/mmode4.txt
if run_with_input smp4-uboot-m "$out" "Hit any key to stop autoboot" ' setexpr v 6 * 7; echo probe-$v\npoweroff\n' \
     -smp 4 --bios "$UBOOT_DIR/qemu-riscv64/u-boot.bin"; then
  expect_in_order smp4-uboot-m "$out" "U-Boot 2023.01" "=> " "probe-2a" "=> poweroff"
fi

# determinism: a fixed number of instructions (OpenSBI up to U-Boot's autoboot), twice
for i in 1 2; do
  "$MTEMU" -q -smp 4 --stats --max-insns 15000000 --bios "$OPENSBI_DIR/fw_jump.bin" \
    --kernel "$UBOOT_DIR/qemu-riscv64_smode/u-boot.bin" < /dev/null > "$boot_tmp/det$i.txt" 2>&1
  grep -v -e '^seconds' -e '^MIPS' "$boot_tmp/det$i.txt" > "$boot_tmp/det$i.cmp"
done
if grep -q "^harts *4, instructions" "$boot_tmp/det1.cmp" && cmp -s "$boot_tmp/det1.cmp" "$boot_tmp/det2.cmp"; then
  echo "PASS smp4-deterministic"
else
  echo "FAIL smp4-deterministic: two runs differ (or no per-hart counts):"
  diff "$boot_tmp/det1.cmp" "$boot_tmp/det2.cmp" | head -5 | sed 's/^/    /'
  failures=$((failures + 1))
fi

# smp-skew: a reader that needs DELAY instructions after a flag never sees the data the writer
# stores WINDOW instructions after it (exit code = stale reads; 9 of 200 with 10,000-instruction turns)
skew=${FWBUILD:-build/firmware}/e2e/smp_skew.elf
if [ ! -f "$skew" ]; then
  echo "FAIL smp-skew: $skew missing (make builds it)"; failures=$((failures + 1))
else
  "$MTEMU" -q -smp 2 --max-insns 100000000 "$skew" < /dev/null > "$boot_tmp/skew.txt" 2>&1
  rc=$?
  if [ $rc -eq 0 ] && [ ! -s "$boot_tmp/skew.txt" ]; then
    echo "PASS smp-skew"
  else
    echo "FAIL smp-skew: exit $rc (the number of stale reads; 0 expected): $(head -2 "$boot_tmp/skew.txt")"
    failures=$((failures + 1))
  fi
fi

bad_ok=1
for n in 0 9 x; do
  "$MTEMU" -q -smp "$n" --bios "$OPENSBI_DIR/fw_jump.bin" < /dev/null > "$boot_tmp/bad.txt" 2>&1
  rc=$?
  if [ $rc -ne 2 ] || [ "$(wc -l < "$boot_tmp/bad.txt")" -ne 1 ] || ! grep -q -- "-smp $n" "$boot_tmp/bad.txt"; then
    echo "FAIL smp-bad-count: -smp $n gave exit $rc: $(head -2 "$boot_tmp/bad.txt")"; bad_ok=0
  fi
done
[ $bad_ok -eq 1 ] && echo "PASS smp-bad-count" || failures=$((failures + 1))
[ $failures -eq 0 ]
