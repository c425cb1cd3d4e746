#!/usr/bin/env bash
# Random guest programs (tests/fuzz/gen_guest.c: M/S/U or VS/VU, Sv39/Sv48 with random page
# tables, hgatp's G-stage, random CSR writes, xRET, fences) across mtemu's configurations, each
# bounded by --max-insns, in 4 MiB of RAM. Every run: no sanitizer report, no crash, no hang
# (timeout). Runs that must agree do: the commit log (--log-commits) and the exit status of a flat
# run equal those of the same run meta-paged (LRU; CLOCK with a backing file; RANDOM) and traced
# (burst, reduce, --trace-all), within each of three machines: timing none, --timing=cache,
# -smp 2; meta-paged runs also end with the same RAM (--ram-hash; a traced machine's device tree,
# in RAM, has the trace unit's node). Every trace written must read back (metatrace info).
# GUEST_SEEDS seeds (default 3) from GUEST_SEED0 (default 1), or as many as fit in GUEST_SECONDS.
set -u
BUILD=${BUILD:-build}
BIN=${BIN:-$BUILD/bin}
EMU=$BIN/mtemu
gen=$BUILD/tests/gen_guest
insns=${GUEST_INSNS:-4000}
seed0=${GUEST_SEED0:-1}
nseeds=${GUEST_SEEDS:-3}
secs=${GUEST_SECONDS:-0}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
fail() { echo "FAIL guest-configs/$1: $2"; fails=$((fails + 1)); }

# run NAME ARGS...: one run; its commit log, RAM hash and exit status in $tmp/NAME.{log,hash,rc}
run() {
  local name=$1; shift
  timeout 120 "$EMU" -q -m 4M --max-insns "$insns" --log-commits --ram-hash "$@" "$tmp/g.elf" </dev/null >/dev/null \
    2>"$tmp/$name.err"
  local rc=$?
  echo $rc >"$tmp/$name.rc"
  grep '^core' "$tmp/$name.err" >"$tmp/$name.log"
  grep '^ram-hash' "$tmp/$name.err" >"$tmp/$name.hash"
  if [ $rc -ge 124 ] || grep -q 'Sanitizer\|runtime error' "$tmp/$name.err"; then
    fail "$seed/$name" "exit $rc: $(grep -v '^core' "$tmp/$name.err" | head -5)"
    return 1
  fi
}
# same REF NAME [ram]: NAME's run agrees with REF's (and its RAM too)
same() {
  if ! cmp -s "$tmp/$1.log" "$tmp/$2.log" || ! cmp -s "$tmp/$1.rc" "$tmp/$2.rc" ||
     { [ $# -gt 2 ] && ! cmp -s "$tmp/$1.hash" "$tmp/$2.hash"; }; then
    fail "$seed/$2" "differs from $1: $(diff "$tmp/$1.log" "$tmp/$2.log" | head -4 | tr '\n' '|') exit $(cat "$tmp/$1.rc")/$(cat "$tmp/$2.rc") $(cat "$tmp/$1.hash" "$tmp/$2.hash" | tr '\n' ' ')"
  fi
}
readable() {
  for f in "$@"; do
    [ -e "$f" ] && ! "$BIN/metatrace" info "$f" >/dev/null 2>"$tmp/info.err" &&
      fail "$seed/$(basename "$f")" "does not read back: $(head -2 "$tmp/info.err")"
    rm -f "$f"
  done
}

start=$SECONDS
n=0 runs=0 retired=0
seed=$seed0
while :; do
  if [ "$secs" -gt 0 ]; then [ $((SECONDS - start)) -ge "$secs" ] && break
  else [ $n -ge "$nseeds" ] && break; fi
  "$gen" "$seed" "$tmp/g.elf" || { fail "$seed/gen" "gen_guest failed"; break; }
  mp=(--metapage-budget 64K)
  for m in none cache smp; do
    case $m in
      none) mach=() ;;
      cache) mach=(--timing=cache) ;;
      smp) mach=(-smp 2) ;;
    esac
    run $m-flat "${mach[@]}" || continue
    run $m-lru "${mach[@]}" "${mp[@]}" && same $m-flat $m-lru ram
    run $m-burst "${mach[@]}" --trace "$tmp/b.mtr" && same $m-flat $m-burst
    readable "$tmp/b.mtr"
    runs=$((runs + 3))
    [ $m = none ] || continue
    run $m-clock --metapage-size 16K --metapage-budget 64K --metapage-policy clock --backing "$tmp/back" &&
      same $m-flat $m-clock ram
    run $m-reduce --trace "$tmp/r.mtr" --trace-mode=reduce --trace-reduce-budget 64K && same $m-flat $m-reduce
    run $m-random --metapage-budget 128K --metapage-policy random && same $m-flat $m-random ram
    run $m-all --trace-all "$tmp/a.mtr" && same $m-flat $m-all
    readable "$tmp/r.mtr" "$tmp/a.mtr"
    rm -f "$tmp/back"
    runs=$((runs + 4))
  done
  retired=$((retired + $(wc -l <"$tmp/none-flat.log")))
  n=$((n + 1)); seed=$((seed + 1))
done
if [ $fails -eq 0 ]; then
  echo "PASS guest-configs ($n seeds from $seed0, $runs runs of up to $insns instructions, $retired commits logged in the plain runs)"
fi
exit $((fails > 0))
