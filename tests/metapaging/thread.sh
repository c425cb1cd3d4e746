#!/usr/bin/env bash
# The online simulations on their own thread (--metapage-sim-thread on, docs/metapaging.md "On a
# thread of its own") give exactly the in-line results: the --stats-json of the 69 LRU
# configurations of the fidelity grid plus FIFO and CLOCK cores, byte-identical on and off, on 1
# and 2 harts; with the meta-pager itself on and faults costing cycles, the same pager counts,
# cycles and online counts (only the measured seconds may differ).  The same with LRU only (4 KiB
# units, and 16 KiB units with one resident metapage at every size), where the emulator's thread
# folds repeats and alternations before the stack pass (emu/metapaging/mpfront.h).  Also: the option's bad values
# exit 2 naming it, and --stats reports the thread only when there is one.  Seconds of CPU.
set -u
BIN=${BIN:-build/bin}
FWBUILD=${FWBUILD:-build/firmware}
EMU=${MTEMU:-$BIN/mtemu}
if [ ! -x "$EMU" ]; then
  echo "mtemu not built yet ($EMU missing)"; exit 77
fi
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fails=0
check() { # name condition-result
  if [ "$2" = 0 ]; then echo "PASS $1"; else echo "FAIL $1"; fails=$((fails + 1)); fi
}
spec=4K..2M:1M..64M,4K/64K/2M:4M:fifo/clock
# LRU only: spec and the number of configurations
lru_specs=("4K..2M:1M..64M:69" "16K..2M:16K..4M:44")
# Runs $elf (with $args, on $smp harts) under SPEC in line and threaded (files $tmp/TAG-off.*,
# TAG-on.*): true when both exit 0 with the same JSON, which holds COUNT configurations.
same_on_off() { # tag spec count
  local th
  for th in off on; do
    "$EMU" -q --smp "$smp" ${args:+--append "$args"} --metapage-sim "$2" \
      --metapage-sim-thread $th --stats-json "$tmp/$1-$th.json" "$elf" >"$tmp/$1-$th.out" 2>&1
    echo $? >"$tmp/$1-$th.rc"
  done
  cmp -s "$tmp/$1-off.json" "$tmp/$1-on.json" && [ "$(cat "$tmp/$1-off.rc")" = 0 ] &&
    [ "$(cat "$tmp/$1-on.rc")" = 0 ] && [ "$(grep -c '"policy"' "$tmp/$1-on.json")" = "$3" ]
}
progs=("$FWBUILD/qsort.elf:size=64K" "$FWBUILD/metapaging/mp-small.elf:")
for p in "${progs[@]}"; do
  elf=${p%%:*} args=${p#*:} name=$(basename "$elf" .elf)
  if [ ! -e "$elf" ]; then
    echo "FAIL thread/$name: $elf missing"; fails=$((fails + 1)); continue
  fi
  for smp in 1 2; do
    same_on_off "$name-$smp" "$spec" 75
    check "thread/$name/smp$smp/json" $?
    for ls in "${lru_specs[@]}"; do
      same_on_off "l-$name-$smp" "${ls%:*}" "${ls##*:}"
      check "thread/$name/smp$smp/lru-only/${ls%:*}" $?
    done
    # With the pager (64K x 1M, LRU) and 5000 cycles per fault: its cycles must not depend on
    # where the simulations run (with LRU only too: the pager's own batch is folded then).
    for pspec in "$spec" "${lru_specs[0]%:*}"; do
      pt=p; [ "$pspec" = "$spec" ] || pt=pl
      for th in off on; do
        "$EMU" -q --stats --smp $smp ${args:+--append "$args"} --metapage-size 64K \
          --metapage-budget 1M --metapage-fault-cycles 5000 --metapage-sim "$pspec" \
          --metapage-sim-thread $th --stats-json "$tmp/$pt-$name-$smp-$th.json" "$elf" \
          >"$tmp/$pt-$name-$smp-$th.out" 2>&1
      done
      diff <(grep -v seconds "$tmp/$pt-$name-$smp-off.json") \
           <(grep -v seconds "$tmp/$pt-$name-$smp-on.json") >/dev/null &&
        diff <(grep -E '^(cycles|instret|insns)|faults' "$tmp/$pt-$name-$smp-off.out") \
             <(grep -E '^(cycles|instret|insns)|faults' "$tmp/$pt-$name-$smp-on.out") >/dev/null &&
        grep -q '^cycles' "$tmp/$pt-$name-$smp-on.out" &&
        grep -q '"faults": [1-9]' "$tmp/$pt-$name-$smp-on.json"
      check "thread/$name/smp$smp/pager/$pt" $?
    done
  done
done
# --stats names the thread when it runs, and only then.
grep -q "online thread:" "$tmp/p-qsort-1-on.out" && ! grep -q "online thread:" "$tmp/p-qsort-1-off.out"
check "thread/stats-line" $?
# Bad values: exit 2, the option named.
"$EMU" -q --metapage-sim 4K:1M --metapage-sim-thread maybe "$FWBUILD/qsort.elf" >"$tmp/bad.out" 2>&1
rc=$?
[ $rc = 2 ] && grep -q -- "--metapage-sim-thread: 'maybe' is not on, off or auto" "$tmp/bad.out"
check "thread/bad-value" $?
"$EMU" -q --metapage-sim 4K:1M --metapage-sim-thread >"$tmp/missing.out" 2>&1
rc=$?
[ $rc = 2 ] && grep -q -- "--metapage-sim-thread" "$tmp/missing.out"
check "thread/missing-value" $?
exit $((fails > 0))
