#!/bin/sh
# The unit's reduce mode on mtemu (REDUCE register; lib/mt_unit_rd.c, rtl_model/rtl/mt_tu_rdpath.sv
# over mt_tu_reduce.sv): firmware workloads with --trace-mode reduce --trace-unit=both (the C model
# and the Verilated RTL in lockstep, compared every clock, the session's stop and flush included):
# no divergence, at B = 4M, 64K and 4K, and at the unit's default (4M, its largest).  The RTL alone (--trace-unit=rtl) writes the lockstep
# run's stream; the file says what it is (trace.mode=reduce, trace.reduce_in_unit=1) and metatrace
# reads its records; a budget the unit's path cannot hold is a named error (exit 2).
set -u
BUILD=${BUILD:-build} BIN=${BIN:-$BUILD/bin} FWBUILD=${FWBUILD:-build/firmware}
MT=$BIN/metatrace
T=$(mktemp -d "${TMPDIR:-/tmp}/trace-unit-reduce.XXXXXX")
trap 'rm -rf "$T"' EXIT INT TERM
run() { # NAME ARGS B
    w=$1 args=$2 b=$3
    "$BIN/mtemu" -q --stats --trace "$T/t.mtr" --trace-mode reduce --trace-reduce-budget "$b" --trace-unit=both \
        --append "$args" "$FWBUILD/$w.elf" >/dev/null 2>"$T/err"
    rc=$?
    if [ $rc = 0 ] && grep -q "bytes compared, identical" "$T/err" && ! grep -q "DIVERGE" "$T/err"; then
        echo "PASS reduce-lockstep-$w-B$b ($(awk '$1 == "trace.lockstep" { print $2 }' "$T/err") bytes)"
    else
        echo "FAIL reduce-lockstep-$w-B$b (exit $rc)"
        head -30 "$T/err"
    fi
}
run seq "size=64K iters=1" 4M
run random "size=64K iters=1" 64K
run stride "size=64K stride=0" 4K
run pchase "size=64K stride=64" 4M
run memcpy "size=16K iters=1" 64K
run qsort "size=8K iters=1" 4K

# without --trace-reduce-budget the unit's path takes its largest B, 4M (the software default,
# 16M, is above what it holds), in lockstep
"$BIN/mtemu" -q --stats --trace "$T/d.mtr" --trace-mode reduce --trace-unit=both \
    --append "size=16K iters=1" "$FWBUILD/memcpy.elf" >/dev/null 2>"$T/d.err"
rc=$?
if [ $rc = 0 ] && grep -q "bytes compared, identical" "$T/d.err" &&
   "$MT" info "$T/d.mtr" 2>/dev/null | grep -q "trace.reduce_budget=4194304$"; then
    echo "PASS reduce-unit-default-budget-4M"
else
    echo "FAIL reduce-unit-default-budget-4M (exit $rc)"; head -5 "$T/d.err"
fi

# the RTL alone gives the lockstep run's stream; the header names the mode; metatrace reads it
for u in rtl both; do
    "$BIN/mtemu" -q --trace "$T/$u.mtr" --trace-mode reduce --trace-reduce-budget 64K --trace-unit=$u \
        --append "size=16K iters=1" "$FWBUILD/memcpy.elf" >/dev/null 2>"$T/$u.err"
    echo $? >"$T/$u.rc"
    "$MT" decode "$T/$u.mtr" >"$T/$u.txt" 2>&1
done
"$MT" info "$T/rtl.mtr" >"$T/info" 2>&1
if [ "$(cat "$T/rtl.rc")" = 0 ] && [ "$(cat "$T/both.rc")" = 0 ] && cmp -s "$T/rtl.txt" "$T/both.txt" &&
   [ "$(grep -c ' burst full ' "$T/rtl.txt")" -gt 100 ] && grep -q "trace.mode=reduce" "$T/info" &&
   grep -q "trace.reduce_budget=65536$" "$T/info" && grep -q "trace.reduce_in_unit=1$" "$T/info"; then
    echo "PASS reduce-unit-rtl-equals-lockstep ($(grep -c ' burst full ' "$T/rtl.txt") records)"
else
    echo "FAIL reduce-unit-rtl-equals-lockstep"
    head -5 "$T/rtl.err" "$T/both.err" "$T/info"
fi
if "$MT" policy "$T/rtl.mtr" --budget 64K --budgets 64K --policies lru --format csv >"$T/pol" 2>&1; then
    echo "PASS reduce-unit-readable"
else
    echo "FAIL reduce-unit-readable"
    head -5 "$T/pol"
fi

# a budget that is not 4K << k, k = 0..10: named, exit 2
"$BIN/mtemu" -q --trace "$T/bad.mtr" --trace-mode reduce --trace-reduce-budget 12K --trace-unit=both \
    "$FWBUILD/seq.elf" >/dev/null 2>"$T/bad.err"
rc=$?
if [ $rc = 2 ] && grep -q "trace-reduce-budget" "$T/bad.err"; then
    echo "PASS reduce-unit-bad-budget"
else
    echo "FAIL reduce-unit-bad-budget (exit $rc)"
    cat "$T/bad.err"
fi
