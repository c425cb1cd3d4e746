#!/bin/sh
# Issue #7 on mtemu: every firmware workload with --trace-unit=both (C model and Verilated RTL fed
# the same accesses and register operations each clock): no divergence, at the default rates and
# under stress (r = 1, full format, 64-byte FIFO drained 1 byte per cycle: constant overflow,
# short sections).  One PASS/FAIL line per workload and configuration.
set -u
BUILD=${BUILD:-build} BIN=${BIN:-$BUILD/bin} FWBUILD=${FWBUILD:-build/firmware}
T=$(mktemp -d "${TMPDIR:-/tmp}/trace-lockstep.XXXXXX")
trap 'rm -rf "$T"' EXIT INT TERM
STRESS="--trace-rate-h 1 --trace-fmt-h full --trace-fifo-depth 64 --trace-fifo-drain 1 --trace-len-h 20000
        --trace-len-l 30000 --trace-rate-l 3 --trace-sync-period 64"
run() { # NAME ARGS CONFIG-NAME CONFIG...
    w=$1 args=$2 cname=$3
    shift 3
    "$BIN/mtemu" -q --stats --trace "$T/t.mtr" --trace-unit=both "$@" --append "$args" "$FWBUILD/$w.elf" \
        >/dev/null 2>"$T/err"
    rc=$?
    if [ $rc = 0 ] && grep -q "bytes compared, identical" "$T/err" && ! grep -q "DIVERGE" "$T/err"; then
        echo "PASS lockstep-$w-$cname ($(awk '$1 == "trace.lockstep" { print $2 }' "$T/err") bytes)"
    else
        echo "FAIL lockstep-$w-$cname (exit $rc)"
        head -30 "$T/err"
    fi
}
for cfg in default stress; do
    # shellcheck disable=SC2086
    set -- $([ $cfg = stress ] && echo "$STRESS")
    run seq "size=64K iters=1" $cfg "$@"
    run random "size=64K iters=1" $cfg "$@"
    run stride "size=64K stride=0" $cfg "$@"
    run wss "min=64K max=128K" $cfg "$@"
    run pchase "size=64K stride=64" $cfg "$@"
    run matmul "size=16 stride=8" $cfg "$@"
    run memcpy "size=16K iters=1" $cfg "$@"
    run qsort "size=8K iters=1" $cfg "$@"
done
