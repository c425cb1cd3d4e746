#!/usr/bin/env bash
# Differential test of RV64F/D: runs build/firmware/fp/fpdiff.elf on QEMU (its softfloat is the
# reference) and, when mtemu executes F/D, on mtemu too; checks every line of each output with
# fpcheck (emu/softfp + the ISA's register rules) and compares the two outputs line by line.
# Prints PASS/FAIL per operation and machine.  Env: BUILD BIN FWBUILD (from make test).
set -u
BUILD=${BUILD:-build}
BIN=${BIN:-$BUILD/bin}
FWBUILD=${FWBUILD:-build/firmware}
ELF=$FWBUILD/fp/fpdiff.elf
CHECK=$BUILD/tests/fpcheck
for f in "$ELF" "$CHECK"; do
  [ -e "$f" ] || { echo "FAIL fp/setup ($f is missing: run make fp-tests)"; exit 1; }
done
if ! command -v qemu-system-riscv64 >/dev/null; then
  echo "FAIL fp/setup (qemu-system-riscv64 not installed: run make deps)"; exit 1
fi
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT

status=0
# run_machine NAME COMMAND...: runs the program, checks its output, prefixes result lines.
run_machine() {
  local name=$1; shift
  local out=$work/$name.txt
  timeout 300 "$@" >"$out" 2>"$work/$name.err"
  local rc=$?
  if [ $rc -ne 0 ]; then
    echo "FAIL fp/$name/run (exit $rc; last lines follow)"; tail -n 5 "$out" "$work/$name.err"; status=1
  fi
  "$CHECK" "$out" | sed "s|^\(PASS\|FAIL\) fp/|\1 fp/$name/|"
  [ "${PIPESTATUS[0]}" -eq 0 ] || status=1
}

run_machine qemu nice -n 10 qemu-system-riscv64 -M virt -bios none -kernel "$ELF" -nographic -monitor none

# mtemu joins once it executes F/D (emu/exec_fp.c present and mtemu built).
if [ -f emu/exec_fp.c ] && [ -x "$BIN/mtemu" ]; then
  run_machine mtemu nice -n 10 "$BIN/mtemu" -q "$ELF"
  if cmp -s "$work/qemu.txt" "$work/mtemu.txt"; then
    echo "PASS fp/qemu-vs-mtemu ($(wc -l <"$work/qemu.txt") identical lines)"
  else
    echo "FAIL fp/qemu-vs-mtemu (outputs differ; first differences:)"
    diff "$work/qemu.txt" "$work/mtemu.txt" | head -n 20
    status=1
  fi
fi
exit $status
