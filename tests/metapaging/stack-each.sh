#!/usr/bin/env bash
# The LRU stack pass (every size x every budget in one pass, emu/metapaging/mpstack.c, fed by the
# emulator's thread's fold) against the per-configuration reference (--metapage-sim-lru each: one
# LRU replacement core per configuration, sharing no code with the stack pass), end to end in
# mtemu: the --stats-json byte-identical, on 1 and 2 harts, on the fidelity grid and on thrashing
# grids (one or two resident metapages of 512K..2M, where nearly every change of metapage faults
# and writes back).  docs/metapaging.md, "LRU, every budget of every size at once".
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
# spec:configurations
specs=("4K..2M:1M..64M:69" "2M:2M..4M,1M:1M..4M,512K:1M/512K,64K:64K..256K:10")
progs=("$FWBUILD/qsort.elf:size=64K" "$FWBUILD/metapaging/mp-small.elf:")
for p in "${progs[@]}"; do
  elf=${p%%:*} args=${p#*:} name=$(basename "$elf" .elf)
  if [ ! -e "$elf" ]; then
    echo "FAIL stack-each/$name: $elf missing"; fails=$((fails + 1)); continue
  fi
  for smp in 1 2; do
    i=0
    for s in "${specs[@]}"; do
      i=$((i + 1)) spec=${s%:*} n=${s##*:}
      for m in stack each; do
        "$EMU" -q --smp $smp ${args:+--append "$args"} --metapage-sim "$spec" \
          --metapage-sim-lru $m --stats-json "$tmp/$m.json" "$elf" >"$tmp/$m.out" 2>&1
        echo $? >"$tmp/$m.rc"
      done
      [ "$(cat "$tmp/stack.rc")" = 0 ] && [ "$(cat "$tmp/each.rc")" = 0 ] &&
        cmp -s "$tmp/stack.json" "$tmp/each.json" &&
        [ "$(grep -c '"policy"' "$tmp/stack.json")" = "$n" ]
      check "stack-each/$name/smp$smp/spec$i" $?
    done
  done
done
exit $((fails != 0))
