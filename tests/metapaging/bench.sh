#!/usr/bin/env bash
# Meta-paging bench (make bench-metapaging).  Ratios are against references measured in this run:
#   1. the fault path alone (mpbench): fault-path bytes/s vs memcpy;
#   2. mtemu on mp-bench (24 MiB working set, memory-bound): MIPS with an unlimited budget (the
#      reference), with the page observer feeding one online simulation, with a budget that holds
#      the working set, and with budgets that thrash; faults per second of host time; the share
#      of host time in the fault path and of the fault path in backing-file I/O;
#   3. faults vs metapage size under an 8 MiB budget, every policy, from one run (--metapage-sim).
set -euo pipefail
BUILD=${BUILD:-build}; BIN=${BIN:-$BUILD/bin}; FWBUILD=${FWBUILD:-build/firmware}
EMU=$BIN/mtemu
ELF=$FWBUILD/metapaging/mp-bench.elf

echo "== meta-pager fault path alone (256 MiB swept, 8 MiB budget, LRU): $BUILD/tests/mpbench"
nice -n 10 "$BUILD/tests/mpbench"

if [ ! -x "$EMU" ] || [ ! -e "$ELF" ]; then
  echo "(mtemu or $ELF missing: skipping the emulator part)"; exit 0
fi
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
field() { sed -n "s/^$1 *\([0-9.]*\).*/\1/p" "$2" | head -n1; }

echo
echo "== mtemu on mp-bench (24 MiB working set; random read-modify-writes, scans, a hot window)"
printf '%-34s %8s %9s %10s %12s %11s %10s\n' configuration MIPS "vs unlim" faults "faults/s" "fault path" "I/O share"
ref_mips=""
run() { # label, options...
  local label=$1; shift
  nice -n 10 "$EMU" -q --stats "$@" "$ELF" >"$tmp/out" 2>"$tmp/err" || {
    echo "mtemu failed: $label"; cat "$tmp/err"; exit 1; }
  local mips secs faults fpath io
  mips=$(field MIPS "$tmp/err"); secs=$(field seconds "$tmp/err")
  [ -z "$ref_mips" ] && ref_mips=$mips
  faults=$(sed -n 's/^  faults \([0-9]*\).*/\1/p' "$tmp/err")
  fpath=$(sed -n 's/.*fault path \([0-9.]*\) s.*/\1/p' "$tmp/err")
  io=$(sed -n 's/.*backing I\/O \([0-9.]*\) s.*/\1/p' "$tmp/err")
  if [ -n "$faults" ]; then
    awk -v l="$label" -v m="$mips" -v r="$ref_mips" -v f="$faults" -v s="$secs" -v p="$fpath" -v i="$io" \
      'BEGIN { printf "%-34s %8.1f %9.3f %10d %12.0f %10.0f%% %9.0f%%\n", l, m, m / r, f,
               (s > 0 ? f / s : 0), (s > 0 ? 100 * p / s : 0), (p > 0 ? 100 * i / p : 0) }'
  else
    awk -v l="$label" -v m="$mips" -v r="$ref_mips" \
      'BEGIN { printf "%-34s %8.1f %9.3f %10s %12s %11s %10s\n", l, m, m / r, "-", "-", "-", "-" }'
  fi
}
run "unlimited (reference)"
run "unlimited + observer, 1 simulation" --metapage-sim 4K:8M:lru
run "64M budget (holds it), 4K, lru" --metapage-budget 64M
run "8M budget (thrashes), 4K, lru" --metapage-budget 8M
run "8M budget (thrashes), 4K, random" --metapage-budget 8M --metapage-policy random
run "8M budget (thrashes), 64K, lru" --metapage-size 64K --metapage-budget 8M

echo
echo "== faults vs metapage size, mp-bench, 8 MiB budget (one run, --metapage-sim)"
nice -n 10 "$EMU" -q --stats --metapage-sim '4K/16K/64K/256K/1M/2M:8M:*' "$ELF" >/dev/null 2>"$tmp/err"
printf '%-9s %-7s %9s %10s %12s %16s %16s\n' size policy resident faults write-backs "bytes in" "bytes out"
sed -n 's/^  online: \([0-9][0-9]*\) .*/&/p' "$tmp/err" |
  awk '{ sz = ($2 >= 1048576) ? ($2 / 1048576) "M" : ($2 / 1024) "K";
         printf "%-9s %-7s %9s %10s %12s %16s %16s\n", sz, $4, $5, $6, $8, $9, $10 }'
