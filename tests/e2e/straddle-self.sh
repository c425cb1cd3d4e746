#!/usr/bin/env bash
# A straddling instruction that jumps to itself (tests/e2e/straddle_self.S: `j .` at page offset
# 0xffe, its second half in the next page), run by every interpreter: each execution of it must
# go through the cross page's handling (emu/cpu/interp.inc L_CROSS; docs/emulator.md "The cross
# page"), so every interpreter gives the same instret, cycles and fetches, and these equal the
# program's own arithmetic (docs/emulator.md "Timing model"):
#   prologue: the reset ROM's 6 instructions (2 loads, emu/platform/machine.c write_reset_rom)
#             and the 13 of straddle_self.S before the straddle (li, li, 5 x (addi, bne), j)
#   then S = N - 19 executions of the straddle, each 2 fetches (its halves) and its class's cost
#             plus the second half's cycle: --timing=none 1 + 1, simple 2 (JAL) + 1.
#   self-<mode>           --stats of N = 2000: instructions N, access.fetch 19 + 2S, cycles
#                         19 + 2 + 2S (none) or the prologue's + 3S (simple), for the runs,
#                         observed, filtered (reduce, spatial), hooked (--trace-all, --trace-unit
#                         both, --event-hash, --log-commits, --timing=cache) interpreters
#   self-fetch-addresses  --trace-all: S fetches at 0x80000ffe, S at 0x80001000, none below
#                         0x1000 (the cross page's own address, which the fix took away)
#   self-unit-addresses   the unit's burst trace (--trace-unit=both, r = 3): samples of both halves,
#                         none below 0x1000
#   self-gdb-step         200 single steps under gdb: mcycle and minstret as the arithmetic says
# Before the fix (main 37c5749) the jump came back to the cross page's slot without L_CROSS:
# 2,005 cycles (runs), 2,003 (--trace-all), 2,094 (--event-hash=24) instead of 3,983, and
# --trace-all recorded 1,980 fetches at 0xffe.  About 2 s.
set -u
BIN=${BIN:-build/bin}
FWBUILD=${FWBUILD:-build/firmware}
MTEMU=$BIN/mtemu
MT=$BIN/metatrace
ELF=$FWBUILD/e2e/straddle_self.elf
[ -x "$MTEMU" ] && [ -x "$MT" ] || { echo "skipped: $MTEMU or $MT does not exist yet"; exit 77; }
[ -f "$ELF" ] || { echo "FAIL self: $ELF missing (make $ELF)"; exit 1; }
tmp=$(mktemp -d)
mpid=
trap '[ -n "$mpid" ] && kill "$mpid" 2>/dev/null; rm -rf "$tmp"' EXIT
fails=0
pass() { echo "PASS $1"; }
fail() { echo "FAIL $1: $2"; fails=$((fails + 1)); }
stat_of() { v=$(sed -n "s/^$2 *\([0-9]*\).*/\1/p" "$1" | head -1); echo "${v:-none}"; }

PRE=19 PRE_LOADS=2 N=2000
S=$((N - PRE))
FETCH=$((PRE + 2 * S))
# simple timing: the prologue's cycles measured where it ends (no straddle yet), then 3 per straddle
"$MTEMU" -q --stats --timing=simple --max-insns $PRE "$ELF" >/dev/null 2>"$tmp/pre.err"
PRE_SIMPLE=$(stat_of "$tmp/pre.err" cycles)

# check NAME TIMING EXPECTED-CYCLES ARGS...: one run of N instructions, its --stats against the truth
check() {
  local name=$1 timing=$2 cycles=$3; shift 3
  "$MTEMU" -q --stats --timing="$timing" --max-insns $N "$@" "$ELF" >/dev/null 2>"$tmp/$name.err"
  local i f c
  i=$(stat_of "$tmp/$name.err" instructions) f=$(stat_of "$tmp/$name.err" access.fetch) c=$(stat_of "$tmp/$name.err" cycles)
  if [ "$i" = $N ] && [ "$f" = $FETCH ] && { [ "$cycles" = any ] || [ "$c" = "$cycles" ]; }; then
    pass "self-$name ($c cycles)"
  else
    fail "self-$name" "instructions $i (want $N), fetches $f (want $FETCH), cycles $c (want $cycles)"
  fi
}
NONE=$((PRE + PRE_LOADS + 2 * S))
SIMPLE=$((PRE_SIMPLE + 3 * S))
check runs none $NONE
check runs-simple simple $SIMPLE
check observed none $NONE --metapage-sim 4K:64K
check observed-paged none $NONE --metapage-budget 64K
check filtered-reduce none $NONE --trace "$tmp/r.mtr" --trace-mode reduce --trace-thread off
check filtered-spatial none $NONE --trace "$tmp/s.mtr" --trace-mode spatial --trace-thread off
check sampled none $NONE --trace "$tmp/b.mtr" --trace-thread off --trace-rate-h 3
check hooked-all none $NONE --trace-all "$tmp/all.mtr"
check hooked-all-simple simple $SIMPLE --trace-all "$tmp/all-simple.mtr"
check hooked-unit-both none $NONE --trace-unit=both --trace "$tmp/unit.mtr" --trace-rate-h 3 --trace-fmt-h full \
    --trace-fifo-depth 65536
check event-hash none $NONE --event-hash
check event-hash-24 none $NONE --event-hash=24
check event-hash-7-simple simple $SIMPLE --event-hash=7
check log-commits none $NONE --log-commits
check timing-cache cache any # the caches' own misses: instret and fetches only

"$MT" decode "$tmp/all.mtr" >"$tmp/all.txt" 2>&1
lo=$(awk '$2 == "burst" && $4 == "R" && $6 == "0x80000ffe"' "$tmp/all.txt" | wc -l)
hi=$(awk '$2 == "burst" && $4 == "R" && $6 == "0x80001000"' "$tmp/all.txt" | wc -l)
low=$(awk '$2 == "burst" && $5 < "0x00000000001000"' "$tmp/all.txt" | wc -l) # fixed width
if [ "$lo" = $S ] && [ "$hi" = $S ] && [ "$low" = 0 ]; then pass "self-fetch-addresses ($lo + $hi)"
else fail self-fetch-addresses "$lo at 0x80000ffe, $hi at 0x80001000 (want $S each), $low below 0x1000"; fi

"$MT" decode "$tmp/unit.mtr" >"$tmp/unit.txt" 2>&1
lo=$(awk '$2 == "burst" && $6 == "0x80000ffe"' "$tmp/unit.txt" | wc -l)
hi=$(awk '$2 == "burst" && $6 == "0x80001000"' "$tmp/unit.txt" | wc -l)
low=$(awk '$2 == "burst" && $5 < "0x00000000001000"' "$tmp/unit.txt" | wc -l)
if [ "$lo" -gt 100 ] && [ "$hi" -gt 100 ] && [ "$low" = 0 ]; then pass "self-unit-addresses ($lo + $hi samples)"
else fail self-unit-addresses "$lo samples at 0x80000ffe, $hi at 0x80001000 (want > 100 each), $low below 0x1000"; fi

# gdb single-steps every instruction through the event path: the reference for the others
if command -v gdb-multiarch >/dev/null; then
  STEPS=200
  timeout 60 "$MTEMU" -q -gdb tcp:127.0.0.1:0 -S "$ELF" >/dev/null 2>"$tmp/gdb.err" </dev/null &
  mpid=$!
  port=
  for _ in $(seq 100); do
    port=$(sed -n 's/.*listening on tcp:[^:]*:\([0-9]*\).*/\1/p' "$tmp/gdb.err")
    [ -n "$port" ] && break
    sleep 0.05
  done
  timeout 60 gdb-multiarch -nx -batch -ex "set pagination off" -ex "set confirm off" -ex "file $ELF" \
    -ex "target remote 127.0.0.1:$port" -ex "stepi $STEPS" -ex 'p/x $pc' -ex 'p $mcycle' -ex 'p $minstret' \
    -ex kill >"$tmp/gdb.txt" 2>&1 </dev/null
  wait "$mpid" 2>/dev/null; mpid=
  want="= 0x80000ffe = $((PRE + PRE_LOADS + 2 * (STEPS - PRE))) = $STEPS"
  got=$(grep -o '= [0-9a-fx]*' "$tmp/gdb.txt" | tr '\n' ' ' | sed 's/ *$//;s/^\$[0-9]* //')
  if [ "$got" = "$want" ]; then pass "self-gdb-step ($STEPS steps)"
  else fail self-gdb-step "pc, mcycle, minstret: '$got', want '$want'"; fi
else
  echo "SKIP self-gdb-step: gdb-multiarch not installed"
fi
[ $fails = 0 ]
