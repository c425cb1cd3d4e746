#!/bin/sh
# RowScope, reproduced (issue #4): runs the firmware workloads on mtemu with an every-access trace
# of data accesses (loads + stores, core tap, guest RAM only, full addresses: --trace-all), cuts
# each marker-bracketed region of interest out of the trace (metatrace --between-markers: the
# workload's begin and end markers) and runs it through `metatrace rowbuf` (8 KB rows, 8 banks,
# RowScope's bit-interleaved mapping).  Writes
#   OUT/rowscope.csv  benchmark,param,accesses,hit_rate,miss_rate,conflict_rate
# usage: rowscope-run.sh quick|full OUTDIR      (env BIN: where mtemu and metatrace are; FWBUILD)
set -eu
mode=$1 out=$2
BIN=${BIN:-build/bin} FWBUILD=${FWBUILD:-build/firmware}
MTEMU=$BIN/mtemu MT=$BIN/metatrace
mkdir -p "$out"
work=$(mktemp -d "${TMPDIR:-/tmp}/rowscope.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM

if [ "$mode" = full ]; then
    SEQ="size=64M iters=1" SEQ_M=256M
    RND="size=16M iters=1" RND_M=64M
    STR="size=16M stride=0 iters=1" STR_M=64M
    WSS="min=512K max=128M iters=1" WSS_M=256M
else
    SEQ="size=1M iters=1" SEQ_M=32M
    RND="size=16M iters=1" RND_M=64M
    STR="size=2M stride=0 iters=1" STR_M=32M
    WSS="min=512K max=2M iters=1" WSS_M=32M
fi

# trace NAME MEM ARGS [TAG]: every data access of NAME.elf into $work/TAG.mtr, markers included
trace() {
    tag=${4:-$1}
    "$MTEMU" -q -m "$2" --append "$3" --trace-all "$work/$tag.mtr" --trace-all-kinds load,store \
        --trace-all-ram "$FWBUILD/$1.elf" >"$work/$1.out" 2>&1 || {
        echo "rowscope: mtemu $1.elf ($3) failed:" >&2
        cat "$work/$1.out" >&2
        exit 1
    }
}

# roi NAME POINT BENCHMARK PARAM: appends "BENCHMARK,PARAM,accesses,hit_rate,miss_rate,
# conflict_rate" of the region between the begin and end markers of POINT (marker id =
# workload << 24 | point << 8 | 1 begin / 2 end) to the table.  metatrace selects the region
# itself (--between-markers), seeking through the container's index to the begin marker's cycle.
roi() {
    [ -e "$work/$1.markers" ] || "$MT" info "$work/$1.mtr" --markers 1000000 |
        sed -n 's/^marker  cycle \([0-9]*\)  value \(0x[0-9a-f]*\)$/\1 \2/p' >"$work/$1.markers"
    b= a= e=
    while read -r c v; do
        [ $(((v >> 8) & 0xffff)) -eq "$2" ] || continue
        case $((v & 0xff)) in
        1) b=$c a=$((v)) ;;
        2) e=$((v)) ;;
        esac
    done <"$work/$1.markers"
    if [ -z "$a" ] || [ -z "$e" ] || [ "$e" -ne $((a + 1)) ]; then
        echo "rowscope: $1: no begin/end markers for point $2" >&2
        exit 1
    fi
    "$MT" rowbuf "$work/$1.mtr" --from "$b" --between-markers "$a,$e" --row-size 8K --banks 8 \
        --mapping rowscope --format csv >"$work/rb" || {
        echo "rowscope: metatrace rowbuf failed on $1 point $2" >&2
        exit 1
    }
    awk -F, -v n="$3" -v p="$4" '$1 == "all" { print n "," p "," $2 "," $6 "," $7 "," $8; f = 1 } END { exit !f }' \
        "$work/rb" >>"$csv.tmp" || { echo "rowscope: no totals from rowbuf on $1 point $2" >&2; exit 1; }
}

csv=$out/rowscope.csv
echo "benchmark,param,accesses,hit_rate,miss_rate,conflict_rate" >"$csv.tmp"
param() { echo "$1" | tr ' ' '\n' | sed -n "s/^$2=//p"; }
bytes() { numfmt --from=iec "$1"; }

trace seq "$SEQ_M" "$SEQ"
roi seq 0 sequential "$(bytes "$(param "$SEQ" size)")"
trace random "$RND_M" "$RND"
roi random 0 random "$(bytes "$(param "$RND" size)")"
trace stride "$STR_M" "$STR"
for k in 0 1 2 3 4 5 6 7 8 9 10; do
    roi stride $k stride $((1 << k))
done
# one run per working-set size (point 0 of min = max = size), as the firmware's wss workload
# takes one size per run
size=$(bytes "$(param "$WSS" min)") max=$(bytes "$(param "$WSS" max)")
while [ "$size" -le "$max" ]; do
    trace wss "$WSS_M" "min=$size max=$size iters=1" "wss$size"
    roi "wss$size" 0 wss "$size"
    rm -f "$work/wss$size.mtr"
    size=$((size * 2))
done
mv "$csv.tmp" "$csv"
