#!/bin/sh
# The unit's spatial mode on mtemu (SPATIAL register; lib/mt_unit_spatial.h, rtl_model/rtl/
# mt_tu_spatial.sv): every firmware workload with --trace-mode spatial --trace-unit=both (the C
# model and the Verilated RTL in lockstep, compared every clock): no divergence, at N = 1 and
# N = 16.  The model alone (--trace-spatial-unit) writes the same stream as the lockstep run, and
# the file says what it is (trace.mode=spatial, the unit's fixed rates as a set no guest fills).
set -u
BUILD=${BUILD:-build} BIN=${BIN:-$BUILD/bin} FWBUILD=${FWBUILD:-build/firmware}
MT=$BIN/metatrace
T=$(mktemp -d "${TMPDIR:-/tmp}/trace-spatial-unit.XXXXXX")
trap 'rm -rf "$T"' EXIT INT TERM
run() { # NAME ARGS N
    w=$1 args=$2 n=$3
    "$BIN/mtemu" -q --stats --trace "$T/t.mtr" --trace-mode spatial --trace-spatial-rate "$n" --trace-unit=both \
        --append "$args" "$FWBUILD/$w.elf" >/dev/null 2>"$T/err"
    rc=$?
    if [ $rc = 0 ] && grep -q "bytes compared, identical" "$T/err" && ! grep -q "DIVERGE" "$T/err"; then
        echo "PASS spatial-lockstep-$w-N$n ($(awk '$1 == "trace.lockstep" { print $2 }' "$T/err") bytes)"
    else
        echo "FAIL spatial-lockstep-$w-N$n (exit $rc)"
        head -30 "$T/err"
    fi
}
run seq "size=64K iters=1" 1
run random "size=64K iters=1" 16
run stride "size=64K stride=0" 1
run wss "min=64K max=128K" 16
run pchase "size=64K stride=64" 1
run matmul "size=16 stride=8" 16
run memcpy "size=16K iters=1" 1
run qsort "size=8K iters=1" 16

# the model alone gives the lockstep run's stream; the header names the mode
for u in model both; do
    "$BIN/mtemu" -q --trace "$T/$u.mtr" --trace-mode spatial --trace-spatial-rate 4 --trace-unit=$u \
        --trace-spatial-unit --append "size=16K iters=1" "$FWBUILD/memcpy.elf" >/dev/null 2>"$T/$u.err"
    echo $? >"$T/$u.rc"
    "$MT" decode "$T/$u.mtr" >"$T/$u.txt" 2>&1
done
"$MT" info "$T/model.mtr" >"$T/info" 2>&1
if [ "$(cat "$T/model.rc")" = 0 ] && [ "$(cat "$T/both.rc")" = 0 ] && cmp -s "$T/model.txt" "$T/both.txt" &&
   [ "$(grep -vc '^#' "$T/model.txt")" -gt 100 ] && grep -q "trace.mode=spatial" "$T/info" &&
   grep -q "trace.spatial_max=1048576$" "$T/info" && grep -q "trace.spatial_unit=1$" "$T/info"; then
    echo "PASS spatial-unit-model-equals-lockstep ($(grep -vc '^#' "$T/model.txt") records)"
else
    echo "FAIL spatial-unit-model-equals-lockstep"
    head -5 "$T/model.err" "$T/both.err" "$T/info"
fi
