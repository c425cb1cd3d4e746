#!/usr/bin/env bash
# One access per cycle on the trace port, for instructions that straddle two pages
# (docs/emulator.md "Timing model"): tests/e2e/straddle_guest.S straddles code pages on a plain
# instruction, a load and a store that straddle data pages, an AMO, an LR, a branch back into its
# first page and a second half that faults, under Sv39 with cold TLBs (three-level walks, A/D
# updates).  Every bus access has a cycle of its own, so the recorders take every one:
#   straddle-guest            the guest's own checks pass (exit 0)
#   straddle-no-skip          --trace-all: 0 same-cycle skipped, and every access recorded:
#                             --stats' counts (fetches with the second halves, PTW) plus the
#                             fetches of the instructions that trapped
#   straddle-cycles-distinct  the every-access trace's cycles strictly increase
#   straddle-online-truth     metatrace's counts over the every-access trace equal mtemu's online
#                             --metapage-sim counts, every (policy, size, budget) row
#   straddle-invisible        tracing changes nothing: the untraced run and the burst-traced one
#                             (the runs interpreter, its sampler) have the every-access run's
#                             instructions and cycles (interpreter_hooked)
#   straddle-burst-samples    each sample of the burst trace names the page of the every-access
#                             trace's access of its cycle
#   straddle-observed-same    the online counts are the same from the observed interpreter
#                             (--metapage-sim alone) as from the hooked one (with --trace-all)
#   straddle-filter-same      the reduce records (decoded) and the spatial trace (bytes) are the
#                             same through the page filter (interpreter_filtered) as with
#                             --trace-all beside (interpreter_hooked)
#   straddle-timing-none      --timing=none: cycles = every access (each a cycle of its own) + 2
#                             per trap (the trapped instruction's fetch, the trap)
#   straddle-self-jump-burst  tests/e2e/straddle_self.S, a straddling `j .`, traced at r = 3:
#                             no capture at address 0 (the runs interpreter's sampler must not
#                             take the fetch on the cross page, whose address is 0)
# Without the second half's own cycle and fetch (before 2026-12-06) the walk's first PTE read
# shared the first half's cycle and the second half was no access: 276 accesses skipped here, 34
# of the 72 online rows off, 12 of 482 burst samples another page; 4 of the 9 checks fail.
# About 1 s.
set -u
BIN=${BIN:-build/bin}
FWBUILD=${FWBUILD:-build/firmware}
MTEMU=$BIN/mtemu
MT=$BIN/metatrace
ELF=$FWBUILD/e2e/straddle_guest.elf
[ -x "$MTEMU" ] && [ -x "$MT" ] || { echo "skipped: $MTEMU or $MT does not exist yet"; exit 77; }
[ -f "$ELF" ] || { echo "FAIL straddle-guest: $ELF missing (make $ELF)"; exit 1; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
pass() { echo "PASS $1"; }
fail() { echo "FAIL $1: $2"; }
TRAPS=7 # the guest's: ROUNDS (6) faults of case 7, and the final ECALL
SIZES=4K..64K
BUDGETS=8K,16K,32K,64K,128K,256K
GRID=$SIZES:8K..256K:lru/fifo/clock
stat_of() { v=$(sed -n "s/^$2 *\([0-9]*\).*/\1/p" "$tmp/$1.err" | head -1); echo "${v:-0}"; }

"$MTEMU" --stats --trace-all "$tmp/all.mtr" --trace-all-ram --metapage-sim "$GRID" --stats-json "$tmp/all.json" \
    "$ELF" >"$tmp/all.out" 2>"$tmp/all.err"
rc=$?
if [ $rc = 0 ]; then pass straddle-guest; else fail straddle-guest "exit $rc: $(tail -3 "$tmp/all.err")"; fi

skipped=$(sed -n 's/^trace.accesses [0-9]* to the unit, \([0-9]*\) same-cycle skipped/\1/p' "$tmp/all.err")
recorded=$(sed -n 's/^trace.all *\([0-9]*\) accesses recorded.*/\1/p' "$tmp/all.err")
sum=0
for k in fetch load store amo ptw; do sum=$((sum + $(stat_of all "access.$k"))); done
ptw=$(stat_of all access.ptw)
fetch=$(stat_of all access.fetch) insns=$(stat_of all instructions)
# (the RAM-only recording leaves out the boot ROM's fetches and the finisher's store: count
# with every access)
"$MTEMU" --stats --trace-all "$tmp/every.mtr" "$ELF" >/dev/null 2>"$tmp/every.err"
every=$(sed -n 's/^trace.all *\([0-9]*\) accesses recorded.*/\1/p' "$tmp/every.err")
everyskip=$(sed -n 's/^trace.accesses [0-9]* to the unit, \([0-9]*\) same-cycle skipped/\1/p' "$tmp/every.err")
if [ "$skipped" = 0 ] && [ "$everyskip" = 0 ] && [ -n "$recorded" ] && [ "$ptw" -gt 100 ] && [ "$fetch" -gt "$insns" ] &&
   [ "$every" = $((sum + TRAPS)) ]; then
    pass "straddle-no-skip ($every accesses recorded, $ptw PTW, $((fetch - insns)) second halves)"
else
    fail straddle-no-skip "skipped '$skipped'/'$everyskip', recorded '$every', --stats accesses $sum + $TRAPS trapped fetches (PTW $ptw, fetches $fetch, instructions $insns)"
fi

"$MT" decode "$tmp/all.mtr" --samples-only >"$tmp/all.txt" 2>"$tmp/dec.err"
order=$(awk 'NR > 1 && $1 <= prev { bad++ } { prev = $1 } END { print bad + 0, NR }' "$tmp/all.txt")
set -- $order
if [ "${1:-1}" = 0 ] && [ "${2:-0}" = "${recorded:-x}" ]; then pass "straddle-cycles-distinct ($2 samples)"
else fail straddle-cycles-distinct "repeated or decreasing cycles / samples: '$order' (recorded '$recorded')"; fi

"$MT" compare "$tmp/all.json" "$tmp/all.mtr" --sizes "$SIZES" --budgets "$BUDGETS" --budget 32K \
    --policies lru,fifo,clock --format csv >"$tmp/cmp.csv" 2>"$tmp/cmp.err"
rows=$(awk -F, 'NR > 1' "$tmp/cmp.csv" | wc -l)
diffs=$(awk -F, 'NR > 1 && $5 != $6' "$tmp/cmp.csv" | wc -l)
faults=$(awk -F, 'NR > 1 { s += $5 } END { print s + 0 }' "$tmp/cmp.csv")
if [ "$rows" -ge 40 ] && [ "$diffs" = 0 ] && [ "$faults" -gt 1000 ]; then
    pass "straddle-online-truth ($rows configurations, $faults faults)"
else
    fail straddle-online-truth "$diffs of $rows rows differ: $(awk -F, 'NR > 1 && $5 != $6' "$tmp/cmp.csv" | head -3 | tr '\n' ' ') $(head -c 200 "$tmp/cmp.err")"
fi

"$MTEMU" --stats "$ELF" >/dev/null 2>"$tmp/plain.err"
"$MTEMU" --stats --trace "$tmp/burst.mtr" --trace-thread=off "$ELF" >/dev/null 2>"$tmp/burst.err"
if [ "$(stat_of plain cycles)" = "$(stat_of all cycles)" ] && [ "$(stat_of plain instructions)" = "$insns" ] &&
   [ "$(stat_of burst cycles)" = "$(stat_of all cycles)" ] && [ "$(stat_of burst instructions)" = "$insns" ]; then
    pass "straddle-invisible ($(stat_of all cycles) cycles untraced, every access, burst)"
else
    fail straddle-invisible "untraced: $(stat_of plain instructions) instructions, $(stat_of plain cycles) cycles; every access: $insns, $(stat_of all cycles); burst: $(stat_of burst instructions), $(stat_of burst cycles)"
fi

# the burst trace's samples (the runs interpreter's sampler) are accesses of the every-access
# trace: the same 4 KiB page (the default burst format's 48-bit samples name a page) at the same
# cycle
"$MT" decode "$tmp/every.mtr" --samples-only >"$tmp/every.txt" 2>/dev/null
"$MT" decode "$tmp/burst.mtr" --samples-only >"$tmp/burst.txt" 2>/dev/null
match=$(awk 'NR == FNR { at[$1] = substr($4, 1, 13); next } { n++; if (($1 in at) && at[$1] == substr($4, 1, 13)) m++ }
             END { print m + 0, n + 0 }' "$tmp/every.txt" "$tmp/burst.txt")
set -- $match
if [ "${2:-0}" -gt 100 ] && [ "$1" = "$2" ]; then pass "straddle-burst-samples ($2 samples, each the page of the every-access trace's access of its cycle)"
else fail straddle-burst-samples "matching/samples: '$match'"; fi

"$MTEMU" -q --metapage-sim "$GRID" --stats-json "$tmp/obs.json" "$ELF" >/dev/null 2>&1
if [ -s "$tmp/obs.json" ] && cmp -s <(grep -v '"seconds"' "$tmp/obs.json") <(grep -v '"seconds"' "$tmp/all.json"); then
    pass straddle-observed-same
else
    fail straddle-observed-same "$(diff "$tmp/obs.json" "$tmp/all.json" | head -4 | tr '\n' ' ')"
fi

same=0 n=0 what=
for mode in "reduce --trace-reduce-budget 8K" "spatial"; do
    n=$((n + 1))
    "$MTEMU" -q --trace-mode $mode --trace "$tmp/f$n.mtr" "$ELF" >/dev/null 2>&1
    "$MTEMU" -q --trace-mode $mode --trace "$tmp/h$n.mtr" --trace-all "$tmp/x.mtr" "$ELF" >/dev/null 2>&1
    # reduce: the records (the trailers differ by design: page changes heard against accesses)
    if [ $n = 1 ]; then
        "$MT" decode "$tmp/f$n.mtr" >"$tmp/f$n.txt" 2>&1
        "$MT" decode "$tmp/h$n.mtr" >"$tmp/h$n.txt" 2>&1
        [ "$(wc -l <"$tmp/f$n.txt")" -gt 1000 ] && cmp -s "$tmp/f$n.txt" "$tmp/h$n.txt" && same=$((same + 1)) || what="$what reduce"
    else
        [ -s "$tmp/f$n.mtr" ] && cmp -s "$tmp/f$n.mtr" "$tmp/h$n.mtr" && same=$((same + 1)) || what="$what spatial"
    fi
done
if [ $same = $n ]; then pass "straddle-filter-same (reduce, spatial)"; else fail straddle-filter-same "differ:$what"; fi

"$MTEMU" --stats --timing=none "$ELF" >/dev/null 2>"$tmp/none.err"
c=$(stat_of none cycles)
expect=$(( $(stat_of none access.fetch) + $(stat_of none access.load) + $(stat_of none access.store) +
           $(stat_of none access.amo) + $(stat_of none access.ptw) + 2 * TRAPS ))
if [ -n "$c" ] && [ "$c" = "$expect" ]; then pass "straddle-timing-none ($c cycles)"
else fail straddle-timing-none "cycles '$c', every access + 2 per trap: $expect"; fi

# a straddling jump to itself, sampled at r = 3 by the runs interpreter: the captures are the
# fetches of 0x80000ffe and of its second half, 0x80001000 (and the boot ROM's first), none at
# the cross page's address 0
SELF=$FWBUILD/e2e/straddle_self.elf
"$MTEMU" -q --max-insns 20000 --trace "$tmp/self.mtr" --trace-thread off --trace-rate-h 3 "$SELF" >/dev/null 2>&1
"$MT" decode "$tmp/self.mtr" >"$tmp/self.txt" 2>&1
caps=$(grep -c ' burst 48 ' "$tmp/self.txt")
low=$(awk '$2 == "burst" && $5 == "0x00000000000000"' "$tmp/self.txt" | wc -l)
if [ "${caps:-0}" -gt 3000 ] && [ "$low" = 0 ]; then pass "straddle-self-jump-burst ($caps captures)"
else fail straddle-self-jump-burst "$caps captures, $low at address 0"; fi
