#!/usr/bin/env bash
# make bench step of the host tool: speed as ratios against references measured in this run.
#  1. policy: the one-pass engine (LRU/OPT stack algorithms for all budgets of a size, FIFO and
#     CLOCK simulated) against one simulation per (size, budget, policy) on the same trace;
#  2. decode: metatrace reading a .mtr (zstd + packet decoding, every record) against
#     `zstd -d` of the same file (decompression alone).
# Env: BIN (where metatrace is), BENCH_ACCESSES (default 1000000).
set -eu
MT=$(cd "${BIN:-build/bin}" && pwd)/metatrace
N=${BENCH_ACCESSES:-1000000}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

now() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$2" 'BEGIN{printf "%.3f", b - a}'; }

"$MT" gen -o "$tmp/t.mtr" --every-access --accesses "$N" 2>/dev/null
SIZES=4K..2M            # 10 sizes
BUDGETS=1M,2M,4M,8M,16M # 5 budgets
nconf=$((10 * 5 * 4))
echo "bench host: $N accesses (gen --every-access, mixed pattern), $nconf configurations (10 sizes x 5 budgets x lru,fifo,clock,opt)"

t0=$(now)
"$MT" policy "$tmp/t.mtr" --sizes $SIZES --budgets $BUDGETS --format csv >"$tmp/engine.csv"
t1=$(now)
"$MT" policy "$tmp/t.mtr" --sizes $SIZES --budgets $BUDGETS --format csv --baseline >"$tmp/baseline.csv"
t2=$(now)
e=$(elapsed "$t0" "$t1"); b=$(elapsed "$t1" "$t2")
if ! cmp -s <(sort "$tmp/engine.csv") <(sort "$tmp/baseline.csv"); then
    echo "bench host: the engine and the baseline disagree" >&2; exit 1
fi
awk -v n="$N" -v e="$e" -v b="$b" -v c="$nconf" 'BEGIN{
  printf "  policy engine   %8.3f s  %12.0f accesses/s  (%.0f access-configurations/s)\n", e, n/e, n*c/e;
  printf "  one sim/config  %8.3f s  %12.0f accesses/s  (%.0f access-configurations/s)\n", b, n/b, n*c/b;
  printf "  policy speed-up vs one simulation per configuration: %.1fx (identical results)\n", b/e }'

# the same with LRU and OPT only, where the stack algorithms replace 5 budgets x 2 policies
t0=$(now)
"$MT" policy "$tmp/t.mtr" --sizes $SIZES --budgets $BUDGETS --policies lru,opt --format csv >/dev/null
t1=$(now)
"$MT" policy "$tmp/t.mtr" --sizes $SIZES --budgets $BUDGETS --policies lru,opt --format csv --baseline >/dev/null
t2=$(now)
e=$(elapsed "$t0" "$t1"); b=$(elapsed "$t1" "$t2")
awk -v e="$e" -v b="$b" 'BEGIN{printf "  lru+opt only: engine %.3f s, one sim/config %.3f s: %.1fx\n", e, b, b/e}'

bytes=$(zstd -d -c "$tmp/t.mtr" 2>/dev/null | wc -c)
t0=$(now)
for i in 1 2 3; do zstd -q -d -c "$tmp/t.mtr" >/dev/null; done
t1=$(now)
for i in 1 2 3; do "$MT" info "$tmp/t.mtr" >/dev/null; done
t2=$(now)
for i in 1 2 3; do "$MT" decode "$tmp/t.mtr" --format csv >/dev/null; done
t3=$(now)
z=$(elapsed "$t0" "$t1"); d=$(elapsed "$t1" "$t2"); c=$(elapsed "$t2" "$t3")
awk -v n="$N" -v by="$bytes" -v z="$z" -v d="$d" -v c="$c" 'BEGIN{
  printf "  zstd -d              %7.3f s/3  %8.1f MB/s of packet stream\n", z, 3*by/z/1e6;
  printf "  metatrace info       %7.3f s/3  %8.1f MB/s, %.1f M samples/s  (%.2fx the time of zstd -d)\n", d, 3*by/d/1e6, 3*n/d/1e6, d/z;
  printf "  metatrace decode csv %7.3f s/3  %8.1f M samples/s (text output)\n", c, 3*n/c/1e6 }'
