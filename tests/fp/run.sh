#!/usr/bin/env bash
# Differential test of RV64F/D: runs build/firmware/fp/fpdiff.elf on QEMU (its softfloat is the
# reference) and, when mtemu executes F/D, on mtemu too; checks every line of each output with
# fpcheck (emu/cpu/softfp + the ISA's register rules) and compares the two outputs line by line.
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
  "$CHECK" "$out" | sed -E "s#^(PASS|FAIL) fp/#\1 fp/$name/#"
  [ "${PIPESTATUS[0]}" -eq 0 ] || status=1
}

# QEMU 7.2 leaves Zfh off unless asked (the property is spelt with a capital Z there)
run_machine qemu nice -n 10 qemu-system-riscv64 -M virt -cpu rv64,Zfh=true -bios none -kernel "$ELF" -nographic -monitor none

# run_isa NAME COMMAND...: the self-checking F/D ISA tests (HTIF exit code = failing case).
run_isa() {
  local name=$1; shift
  local elf rc
  for elf in "$FWBUILD"/fp/isa/*.elf; do
    timeout 60 "$@" "$elf" </dev/null >/dev/null 2>&1
    rc=$?
    if [ $rc -eq 0 ]; then echo "PASS fp/$name/isa/$(basename "$elf" .elf)"
    else echo "FAIL fp/$name/isa/$(basename "$elf" .elf) (exit $rc: the failing case number)"; status=1; fi
  done
}
# QEMU's spike machine has HTIF (tohost), which the harness reports through.
run_isa qemu qemu-system-riscv64 -M spike -cpu rv64,Zfh=true -m 256M -bios none -nographic -monitor none -serial null -kernel

# mtemu executes F/D when emu/cpu/exec_fp.c is built in: then it must run the same program.
if [ -f emu/cpu/exec_fp.c ] && [ ! -x "$BIN/mtemu" ]; then
  echo "FAIL fp/mtemu/setup ($BIN/mtemu is missing)"; status=1
elif [ -f emu/cpu/exec_fp.c ]; then
  run_machine mtemu nice -n 10 "$BIN/mtemu" -q "$ELF"
  run_isa mtemu "$BIN/mtemu" -q
  if cmp -s "$work/qemu.txt" "$work/mtemu.txt"; then
    echo "PASS fp/qemu-vs-mtemu ($(wc -l <"$work/qemu.txt") identical lines)"
  else
    echo "FAIL fp/qemu-vs-mtemu (outputs differ; first differences:)"
    diff "$work/qemu.txt" "$work/mtemu.txt" | head -n 20
    status=1
  fi
fi
exit $status
