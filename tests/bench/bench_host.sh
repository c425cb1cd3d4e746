#!/usr/bin/env bash
# make bench step of the host tool: speed as ratios against references measured in this run.
#  1. policy: the one-pass engine (LRU/OPT stack algorithms for all budgets of a size, FIFO and
#     CLOCK simulated) against one simulation per (size, budget, policy) on the same trace; exact
#     LRU's accesses/s per size;
#  2. decode: metatrace reading a .mtr (zstd + packet decoding, every record) against
#     `zstd -d` of the same file (decompression alone);
#  3. a reduce trace (mtemu --trace-mode reduce of the memcpy firmware, the kind OPT's truth
#     comes from in tests/fidelity): OPT alone and the whole grid, records per CPU second
#     (skipped when mtemu or the firmware is not built).
# Env: BIN (where metatrace and mtemu are), FWBUILD (the firmware, default build/firmware),
# BENCH_ACCESSES (default 1000000).
set -eu
MT=$(cd "${BIN:-build/bin}" && pwd)/metatrace
N=${BENCH_ACCESSES:-1000000}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

# CPU seconds (user + system) of one command, its stdout into $1: the machine is shared, so
# CPU time is a steadier measure than wall time; both sides of every ratio are measured alike.
cpu() {
    local out=$1; shift
    local TIMEFORMAT='%3U %3S' t
    t=$( { time "$@" >"$out" 2>/dev/null; } 2>&1 ) || return 1
    awk -v t="$t" 'BEGIN{split(t, a, " "); printf "%.3f", a[1] + a[2]}'
}

"$MT" gen -o "$tmp/t.mtr" --every-access --accesses "$N" 2>/dev/null
SIZES=4K..2M            # 10 sizes
BUDGETS=1M,2M,4M,8M,16M # 5 budgets
nconf=$((10 * 5 * 4))
echo "bench host: $N accesses (gen --every-access, mixed pattern), $nconf configurations (10 sizes x 5 budgets x lru,fifo,clock,opt)"

e=$(cpu "$tmp/engine.csv" "$MT" policy "$tmp/t.mtr" --sizes $SIZES --budgets $BUDGETS --format csv)
b=$(cpu "$tmp/baseline.csv" "$MT" policy "$tmp/t.mtr" --sizes $SIZES --budgets $BUDGETS --format csv --baseline)
if ! cmp -s <(sort "$tmp/engine.csv") <(sort "$tmp/baseline.csv"); then
    echo "bench host: the engine and the baseline disagree" >&2; exit 1
fi
awk -v n="$N" -v e="$e" -v b="$b" -v c="$nconf" 'BEGIN{
  printf "  policy engine   %8.3f s CPU  %10.0f accesses/s  (%.0f access-configurations/s)\n", e, n/e, n*c/e;
  printf "  one sim/config  %8.3f s CPU  %10.0f accesses/s  (%.0f access-configurations/s)\n", b, n/b, n*c/b;
  printf "  policy speed-up vs one simulation per configuration: %.1fx (identical results)\n", b/e }'

# the same with LRU and OPT only, where the stack algorithms replace 5 budgets x 2 policies
for p in lru opt fifo,clock; do
    e=$(cpu /dev/null "$MT" policy "$tmp/t.mtr" --sizes $SIZES --budgets $BUDGETS --policies $p --format csv)
    b=$(cpu /dev/null "$MT" policy "$tmp/t.mtr" --sizes $SIZES --budgets $BUDGETS --policies $p --format csv --baseline)
    awk -v p="$p" -v e="$e" -v b="$b" 'BEGIN{printf "  %-10s engine %7.3f s, one sim/config %7.3f s: %.1fx\n", p, e, b, b/e}'
done

# exact LRU per size, 8 budgets: accesses of the trace per CPU second of the size's simulation
# (policy --stats: thread CPU time, the decoding excluded), once on this trace and once on a
# sequential one (real every-access traces are closer to it: most of their accesses repeat a
# page).  The figure issue 24 names (>= 65 M/s per size).
"$MT" gen -o "$tmp/s.mtr" --every-access --pattern seq --accesses "$N" 2>/dev/null
for t in t s; do
    "$MT" policy "$tmp/$t.mtr" --sizes 4K,64K,2M --budget 1M --budgets 1M,2M,4M,8M,16M,32M,64M,128M \
        --policies lru --format csv --stats 2>&1 >/dev/null | sed -n 's/^metatrace policy: stats: /  LRU x 8 budgets, /p' |
        sed "s/^/  [$([ $t = t ] && echo mixed || echo seq)]/"
done

bytes=$(zstd -d -c "$tmp/t.mtr" 2>/dev/null | wc -c)
three() { for i in 1 2 3; do "$@"; done; }
z=$(cpu /dev/null three zstd -q -d -c "$tmp/t.mtr")
d=$(cpu /dev/null three "$MT" info "$tmp/t.mtr")
c=$(cpu /dev/null three "$MT" decode "$tmp/t.mtr" --format csv)
awk -v n="$N" -v by="$bytes" -v z="$z" -v d="$d" -v c="$c" 'BEGIN{
  printf "  zstd -d              %7.3f s CPU/3  %8.1f MB/s of packet stream\n", z, 3*by/z/1e6;
  printf "  metatrace info       %7.3f s CPU/3  %8.1f MB/s, %.1f M samples/s  (%.2fx the time of zstd -d)\n", d, 3*by/d/1e6, 3*n/d/1e6, d/z;
  printf "  metatrace decode csv %7.3f s CPU/3  %8.1f M samples/s (text output)\n", c, 3*n/c/1e6 }'

# OPT and the whole grid on a reduce trace: one read of the trace for every size, OPT as bands
# between the budgets' resident counts (host/optbands.h).  CPU seconds, records per CPU second.
FW=${FWBUILD:-build/firmware}
if [ -x "$(dirname "$MT")/mtemu" ] && [ -f "$FW/memcpy.elf" ]; then
    "$(dirname "$MT")/mtemu" -q --trace-mode reduce --trace-reduce-budget 256K --trace "$tmp/r.mtr" \
        --append "size=1M iters=2" "$FW/memcpy.elf" >/dev/null 2>&1
    recs=$("$MT" info "$tmp/r.mtr" | sed -n 's/^samples: \([0-9]*\).*/\1/p')
    for p in opt lru,fifo,clock,opt; do
        e=$(cpu /dev/null "$MT" policy "$tmp/r.mtr" --sizes 4K..2M --budgets 256K,512K,1M,2M,4M,8M --budget 1M \
            --policies $p --format csv)
        awk -v p="$p" -v e="$e" -v n="$recs" 'BEGIN{
          printf "  reduce trace (memcpy 1M x 2, B = 256K, %d records), %-17s 10 sizes x 6 budgets: %7.3f s CPU, %6.1f M records/s\n", n, p, e, n/e/1e6 }'
    done
else
    echo "  reduce trace: skipped (no mtemu or $FW/memcpy.elf)"
fi
