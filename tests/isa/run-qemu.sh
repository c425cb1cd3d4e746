#!/usr/bin/env bash
# Runs every ISA test ELF on the reference, QEMU's `spike` machine (HTIF: QEMU exits with
# tohost >> 1), and prints PASS/FAIL <name> lines.  Not part of `make test`: it checks the tests,
# not the emulator.  Usage: tests/isa/run-qemu.sh [elf...]   (default: $FWBUILD/isa/*.elf)
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
FWBUILD=${FWBUILD:-$root/build/firmware}
QEMU=${QEMU:-qemu-system-riscv64}
shopt -s nullglob
if [ $# -gt 0 ]; then elfs=("$@"); else elfs=("$FWBUILD"/isa/*.elf "$FWBUILD"/isa-neg/*.elf); fi
[ ${#elfs[@]} -eq 0 ] && { echo "no ISA test ELFs (run make isa-tests)" >&2; exit 1; }
failed=0
vdir=$(mktemp -d); trap 'rm -rf "$vdir"' EXIT
for elf in "${elfs[@]}"; do
  name=$(basename "$elf" .elf)
  [ -f "$elf" ] || { failed=$((failed + 1)); echo "FAIL isa/$name: no such ELF"; continue; }
  src=$root/tests/isa/src/${name#*-}.S
  neg=$(sed -n 's/.*NEGATIVE-CONTROL(exit \([0-9]*\)).*/\1/p' "$root/tests/isa/neg/$name.S" 2>/dev/null | head -n1)
  [ "$elf" -ef "$FWBUILD/isa-neg/$name.elf" ] || neg=
  # "QEMU-UNSUPPORTED(reason)": an extension QEMU 7.2 does not have; the test cannot run there
  why=$(sed -n 's/.*QEMU-UNSUPPORTED(\([^)]*\)).*/\1/p' "$src" 2>/dev/null | head -n1)
  if [ -n "$why" ] && [ -z "$neg" ]; then echo "SKIP isa/$name: $why"; continue; fi
  machine=spike
  # QEMU's spike machine has no `time` CSR (its CLINT is built without rdtime, unlike Spike's);
  # tests that need it say "QEMU-MACHINE(virt)" and run there, rebuilt with -DFINISHER because
  # virt has no HTIF.
  if grep -q 'QEMU-MACHINE(virt)' "$src" 2>/dev/null; then
    machine=virt
    env=${name%%-*}
    riscv64-unknown-elf-gcc -march=rv64imac -mabi=lp64 -Wa,-march=rv64imac_zicsr_zifencei \
      -mcmodel=medany -nostdlib -nostartfiles -static -Wl,--no-warn-rwx-segments \
      -I$root/tests/isa/include -T $root/tests/isa/link.ld -DENV_${env^^} -DFINISHER "$src" -o "$vdir/t.elf" || exit 1
    elf=$vdir/t.elf
  fi
  # The H extension's tests (tests/isa/src/h-*.S) say "QEMU-CPU-H": QEMU enables H only on request;
  # "QEMU-CPU(rv64,ext=true,...)" names other extensions QEMU leaves off by default.
  cpu=(); grep -q 'QEMU-CPU-H' "$src" 2>/dev/null && cpu=(-cpu rv64,h=true)
  props=$(sed -n 's/.*QEMU-CPU(\([^)]*\)).*/\1/p' "$src" 2>/dev/null | head -n1)
  [ -n "$props" ] && cpu=(-cpu "$props")
  timeout --kill-after=2 "${ISA_TIMEOUT:-20}" "$QEMU" -M $machine "${cpu[@]}" -m 256M -bios none -kernel "$elf" \
    -nographic -monitor none -serial null </dev/null >/dev/null 2>&1
  rc=$?
  # A source may document a known QEMU deviation from the spec: "QEMU-DEVIATION(exit N)".  The
  # test must then fail on QEMU with exactly that code (XFAIL); anything else is a failure.
  xfail=$(sed -n 's/.*QEMU-DEVIATION(exit \([0-9]*\)).*/\1/p' "$src" 2>/dev/null | head -n1)
  if [ -n "$neg" ]; then
    if [ "$rc" -eq "$neg" ]; then echo "PASS isa-neg/$name (failed as it must, exit $rc)"
    else failed=$((failed + 1)); echo "FAIL isa-neg/$name: exit $rc, the broken test must exit $neg"; fi
  elif [ -n "$xfail" ] && [ "$rc" -eq "$xfail" ]; then echo "XFAIL isa/$name: exit $rc (documented QEMU deviation)"
  elif [ -z "$xfail" ] && [ "$rc" -eq 0 ]; then echo "PASS isa/$name"
  else failed=$((failed + 1)); echo "FAIL isa/$name: exit $rc${xfail:+ (expected QEMU deviation exit $xfail)}"; fi
done
echo "qemu: $(( ${#elfs[@]} - failed )) as expected (PASS or documented XFAIL), $failed failed"
[ "$failed" -eq 0 ]
