#!/bin/sh
# The spatial mode's fidelity table of docs/metapaging.md "Spatial sampling": per workload the
# online truth (mtemu --metapage-sim over sizes 4K..2M, budgets 1M..64M, LRU/FIFO/CLOCK), a spatial
# trace at the default rate (or --rate N), and metatrace compare's mean / max |fault-count error|
# per policy and whether the recommendation at 8M agrees; with the filter's accesses, records,
# the trace's bytes and the final rates per size.  Minutes per workload: not part of `make test`
# (tests/fidelity/short.sh has the quick checks).
#
#   tests/fidelity/spatial-table.sh [--rate N] [--large] [--keep DIR]
#
# --large: the two footprints that are sampled at the default rate (random size=32M, wss
# min=1M max=16M iters=2) instead of the firmware workloads' default runs.
set -u
BUILD=${BUILD:-build} BIN=${BIN:-$BUILD/bin} FWBUILD=${FWBUILD:-build/firmware}
MTEMU=$BIN/mtemu MT=$BIN/metatrace
rate= large=0 keep=
while [ $# -gt 0 ]; do
    case $1 in
    --rate) rate=$2; shift ;;
    --large) large=1 ;;
    --keep) keep=$2; shift ;;
    *) echo "spatial-table.sh: unknown option '$1'" >&2; exit 2 ;;
    esac
    shift
done
if [ -n "$keep" ]; then T=$keep; mkdir -p "$T"; else
    T=$(mktemp -d "${TMPDIR:-/tmp}/spatial-table.XXXXXX"); trap 'rm -rf "$T"' EXIT INT TERM; fi
GRID=4K..2M:1M..64M:lru/fifo/clock
jfield() { sed -n "s/.*\"$2\": {[^}]*\"$3\": \([0-9.]*\).*/\1/p" "$1" | head -1; }
pct() { awk -v v="${1:-}" 'BEGIN { if (v == "") print "-"; else printf "%.2f%%", 100 * v }'; }
pair() { echo "$(pct "$(jfield "$1" mean_abs_rel_error "$2")") / $(pct "$(jfield "$1" max_abs_rel_error "$2")")"; }

# one NAME MTEMU-ARGS...: one table row
one() {
    name=$1; shift
    d=$T/$(echo "$name" | tr -c 'A-Za-z0-9\n' _); mkdir -p "$d"
    [ -s "$d/truth.json" ] || "$MTEMU" -q --metapage-sim "$GRID" --stats-json "$d/truth.json" "$@" >/dev/null 2>&1 \
        || { echo "| $name | truth run failed |"; return; }
    "$MTEMU" -q --trace-mode spatial ${rate:+--trace-spatial-rate $rate} --stats --trace "$d/s.mtr" "$@" >"$d/s.log" 2>&1 \
        || { echo "| $name | spatial run failed |"; return; }
    "$MT" compare "$d/truth.json" "$d/s.mtr" --budgets 1M,2M,4M,8M,16M,32M,64M --budget 8M --policies lru,fifo,clock \
        --format json >"$d/c.json" 2>"$d/c.err" || { echo "| $name | compare failed: $(head -c 200 "$d/c.err") |"; return; }
    acc=$(sed -n 's/.*N [0-9]*: \([0-9]*\) accesses in, \([0-9]*\) records out.*/\1/p' "$d/s.log")
    rec=$(sed -n 's/.*N [0-9]*: \([0-9]*\) accesses in, \([0-9]*\) records out.*/\2/p' "$d/s.log")
    rates=$("$MT" info "$d/s.mtr" 2>/dev/null | sed -n 's/.*trace.spatial_final_rates=\([0-9,]*\).*/\1/p' | head -1)
    agree=no; grep -q '"recommendation_agrees": true' "$d/c.json" && agree=yes
    printf '| %s | %s | %s | %s | %s | %s | %s | %s | %s |\n' "$name" "$acc" "$rec" "$(stat -c %s "$d/s.mtr")" \
        "$rates" "$(pair "$d/c.json" lru)" "$(pair "$d/c.json" fifo)" "$(pair "$d/c.json" clock)" "$agree"
}

echo "| workload | accesses | records | .mtr bytes | final rates 4K..2M | LRU | FIFO | CLOCK | recommendation agrees |"
echo "|---|---|---|---|---|---|---|---|---|"
if [ $large = 1 ]; then
    one "random size=32M iters=1" --append "size=32M iters=1" "$FWBUILD/random.elf"
    one "wss min=1M max=16M iters=2" --append "min=1M max=16M iters=2" "$FWBUILD/wss.elf"
else
    for w in seq random stride wss pchase matmul memcpy qsort; do
        one "$w" "$FWBUILD/$w.elf"
    done
fi
