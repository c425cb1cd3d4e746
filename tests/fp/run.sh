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
# The four runs below (QEMU and mtemu, the program and the ISA tests) are independent: they go two
# at a time (tests/lib/jobs.sh), their lines printed in this order; each says through its exit
# status whether something failed.
. "$(dirname "$0")/../lib/jobs.sh"
# run_machine NAME COMMAND...: runs the program, checks its output, prefixes result lines.
run_machine() {
  local name=$1 failed=0; shift
  local out=$work/$name.txt
  timeout 300 "$@" >"$out" 2>"$work/$name.err"
  local rc=$?
  if [ $rc -ne 0 ]; then
    echo "FAIL fp/$name/run (exit $rc; last lines follow)"; tail -n 5 "$out" "$work/$name.err"; failed=1
  fi
  "$CHECK" "$out" | sed -E "s#^(PASS|FAIL) fp/#\1 fp/$name/#"
  [ "${PIPESTATUS[0]}" -eq 0 ] || failed=1
  return $failed
}

# run_isa NAME COMMAND...: the self-checking F/D ISA tests (HTIF exit code = failing case).
run_isa() {
  local name=$1 failed=0; shift
  local elf rc
  for elf in "$FWBUILD"/fp/isa/*.elf; do
    timeout 60 "$@" "$elf" </dev/null >/dev/null 2>&1
    rc=$?
    if [ $rc -eq 0 ]; then echo "PASS fp/$name/isa/$(basename "$elf" .elf)"
    else echo "FAIL fp/$name/isa/$(basename "$elf" .elf) (exit $rc: the failing case number)"; failed=1; fi
  done
  return $failed
}

jobs_begin
# QEMU 7.2 leaves Zfh off unless asked (the property is spelt with a capital Z there)
job run_machine qemu nice -n 10 qemu-system-riscv64 -M virt -cpu rv64,Zfh=true -bios none -kernel "$ELF" -nographic -monitor none
# QEMU's spike machine has HTIF (tohost), which the harness reports through.
job run_isa qemu qemu-system-riscv64 -M spike -cpu rv64,Zfh=true -m 256M -bios none -nographic -monitor none -serial null -kernel

# mtemu executes F/D when emu/cpu/exec_fp.c is built in: then it must run the same program.
mtemu_fp=0
if [ -f emu/cpu/exec_fp.c ] && [ ! -x "$BIN/mtemu" ]; then
  mtemu_setup_missing=1
elif [ -f emu/cpu/exec_fp.c ]; then
  mtemu_fp=1
  job run_machine mtemu nice -n 10 "$BIN/mtemu" -q "$ELF"
  job run_isa mtemu "$BIN/mtemu" -q
fi
jobs_end || status=1
if [ "${mtemu_setup_missing:-0}" = 1 ]; then
  echo "FAIL fp/mtemu/setup ($BIN/mtemu is missing)"; status=1
elif [ "$mtemu_fp" = 1 ]; then
  if cmp -s "$work/qemu.txt" "$work/mtemu.txt"; then
    echo "PASS fp/qemu-vs-mtemu ($(wc -l <"$work/qemu.txt") identical lines)"
  else
    echo "FAIL fp/qemu-vs-mtemu (outputs differ; first differences:)"
    diff "$work/qemu.txt" "$work/mtemu.txt" | head -n 20
    status=1
  fi
fi
exit $status
