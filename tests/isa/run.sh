#!/usr/bin/env bash
# Runs every ISA test ELF ($FWBUILD/isa/*.elf) on $BIN/mtemu and prints PASS/FAIL <name> lines.
# A test passes when mtemu exits 0 (HTIF tohost = 1); tohost = (n << 1) | 1 exits n = the failing
# case number, shown in the FAIL line.  Exit 77 (skip) only while $BIN/mtemu does not exist.
set -u
BIN=${BIN:-build/bin}
FWBUILD=${FWBUILD:-build/firmware}
EMU=${MTEMU:-$BIN/mtemu}
if [ ! -e "$EMU" ]; then
  echo "mtemu not built yet ($EMU missing)"; exit 77
fi
shopt -s nullglob
elfs=("$FWBUILD"/isa/*.elf)
if [ ${#elfs[@]} -eq 0 ]; then
  echo "no ISA test ELFs in $FWBUILD/isa (run make isa-tests)" >&2; exit 1
fi
failed=0
for elf in "${elfs[@]}"; do
  name=$(basename "$elf" .elf)
  out=$(timeout --kill-after=2 "${ISA_TIMEOUT:-20}" "$EMU" "$elf" 2>&1 </dev/null)
  rc=$?
  if [ "$rc" -eq 0 ]; then
    echo "PASS isa/$name"
  else
    failed=$((failed + 1))
    case $rc in
      124|137) why="timeout" ;;
      *) why="exit $rc (failed test case $rc if it came from tohost)" ;;
    esac
    echo "FAIL isa/$name: $why"
    [ -n "$out" ] && printf '%s\n' "$out" | tail -n 3 | sed 's/^/    /'
  fi
done
[ "$failed" -eq 0 ]
