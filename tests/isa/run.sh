#!/usr/bin/env bash
# Runs every ISA test ELF ($FWBUILD/isa/*.elf) on $BIN/mtemu and prints PASS/FAIL <name> lines.
# A test passes when mtemu exits 0 (HTIF tohost = 1); tohost = (n << 1) | 1 exits n = the failing
# case number, shown in the FAIL line.  Every test runs twice: plain (isa/<name>) and with guest
# RAM meta-paged through a tiny resident budget and --timing=simple (isa-mp/<name>).  The negative controls ($FWBUILD/isa-neg/*.elf) must fail
# with the code their source names, which shows that a broken test (or emulator) is caught.
# Exit 77 (skip) only while $BIN/mtemu does not exist.
set -u
BIN=${BIN:-build/bin}
FWBUILD=${FWBUILD:-build/firmware}
EMU=${MTEMU:-$BIN/mtemu}
here=$(dirname "$0")
if [ ! -e "$EMU" ]; then
  echo "mtemu not built yet ($EMU missing)"; exit 77
fi
shopt -s nullglob
elfs=("$FWBUILD"/isa/*.elf)
negs=("$FWBUILD"/isa-neg/*.elf)
if [ ${#elfs[@]} -eq 0 ] || [ ${#negs[@]} -eq 0 ]; then
  echo "no ISA test ELFs in $FWBUILD/isa or $FWBUILD/isa-neg (run make isa-tests)" >&2; exit 1
fi
run() {  # run [mtemu options] ELF: sets rc and out
  out=$(timeout --kill-after=2 "${ISA_TIMEOUT:-20}" "$EMU" -q "$@" 2>&1 </dev/null)
  rc=$?
}
# A second pass runs every test with guest RAM meta-paged through a 4-page resident budget, so
# evictions happen all the time (page tables, code and data of one test rarely fit): the
# emulator's caches of translations and decoded code must survive them.  It also uses the
# simple timing model, which changes how fast mtime (and so the timer interrupts) advances.
MP_OPTS=(--metapage-size 4K --metapage-budget 16K --timing=simple)
# isa_one PASS ELF: one run, its PASS/FAIL line; non-zero when it failed.
isa_one() {
  local pass=$1 elf=$2 name why
  name=$(basename "$elf" .elf)
  if [ "$pass" = isa ]; then run "$elf"; else run "${MP_OPTS[@]}" "$elf"; fi
  if [ "$rc" -eq 0 ]; then
    echo "PASS $pass/$name"; return 0
  fi
  case $rc in
    124|137) why="timeout" ;;
    *) why="exit $rc (= the failing case number when it came from tohost)" ;;
  esac
  echo "FAIL $pass/$name: $why"
  [ -n "$out" ] && printf '%s\n' "$out" | tail -n 3 | sed 's/^/    /'
  return 1
}
# neg_one ELF: a negative control must fail with the code its source names.
neg_one() {
  local elf=$1 name want
  name=$(basename "$elf" .elf)
  want=$(sed -n 's/.*NEGATIVE-CONTROL(exit \([0-9]*\)).*/\1/p' "$here/neg/$name.S" | head -n1)
  run "$elf"
  if [ -n "$want" ] && [ "$rc" -eq "$want" ]; then
    echo "PASS isa-neg/$name (failed as it must, exit $rc)"
  else
    echo "FAIL isa-neg/$name: exit $rc, the broken test must exit ${want:-?}"; return 1
  fi
}
# isa_some PASS ELF...: isa_one for each, in order; non-zero when one failed.
isa_some() {
  local pass=$1 elf failed=0; shift
  for elf in "$@"; do isa_one "$pass" "$elf" || failed=1; done
  return $failed
}
neg_all() { local elf failed=0; for elf in "${negs[@]}"; do neg_one "$elf" || failed=1; done; return $failed; }
# The runs are independent: two at a time (tests/lib/jobs.sh), lines printed in this order.  Each
# run takes milliseconds, so a job is a quarter of a pass (a job per run cost more than it gained).
. "$here/../lib/jobs.sh"
failed=0
n=${#elfs[@]} q=$(((${#elfs[@]} + 3) / 4))
jobs_begin
for pass in isa isa-mp; do
  for ((i = 0; i < n; i += q)); do job isa_some "$pass" "${elfs[@]:i:q}"; done
done
job neg_all
jobs_end || failed=1
[ "$failed" -eq 0 ]
