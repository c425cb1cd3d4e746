#!/usr/bin/env bash
# The unit targets' rate goal as measured since the ninth session (docs/robustness.md): a
# 10,000-run session of FUZZER from a fresh copy of CORPUS in SCRATCH (a directory on the file
# system under test: /tmp is the disk, /dev/shm tmpfs), execs per CPU second = runs / (user +
# system, libFuzzer's process). Runs it N times (default 3) and prints each run and the median,
# with the load average before each run (the machine is shared: say it with the figure).
#   tests/fuzz/frozen_rate.sh FUZZER CORPUS SCRATCH [N [EXTRA_FLAGS...]]
# e.g. tests/fuzz/frozen_rate.sh build/fuzz/fuzz_unit_modes build/fuzz/corpus/unit_long /tmp 3
set -u
[ $# -ge 3 ] || { echo "usage: $0 FUZZER CORPUS SCRATCH [N [EXTRA_FLAGS...]]" >&2; exit 2; }
fuzzer=$1 corpus=$2 scratch=$3 n=${4:-3}
shift 3; [ $# -gt 0 ] && shift
[ -x "$fuzzer" ] || { echo "$0: $fuzzer: not an executable" >&2; exit 2; }
[ -d "$corpus" ] || { echo "$0: $corpus: not a directory" >&2; exit 2; }
[ -d "$scratch" ] && [ -w "$scratch" ] || { echo "$0: $scratch: not a writable directory" >&2; exit 2; }
fuzzer=$(cd "$(dirname "$fuzzer")" && pwd)/$(basename "$fuzzer")
rates=()
for i in $(seq 1 "$n"); do
  copy=$(mktemp -d -p "$scratch" frozen.XXXXXX)
  cp "$corpus"/* "$copy"/
  load=$(cut -d' ' -f1 /proc/loadavg)
  TIMEFORMAT='%U %S'
  t=$( { time "$fuzzer" -runs=10000 -seed=1 -max_len=1024 -entropic=0 -rss_limit_mb=1024 -timeout=30 \
        "$@" "$copy" >"$copy.log" 2>&1; } 2>&1 )
  rc=$?
  runs=$(grep -o 'Done [0-9]* runs' "$copy.log" | awk '{print $2}')
  rm -rf "$copy"
  [ "$rc" = 0 ] && [ -n "$runs" ] || { echo "$0: run $i failed (exit $rc): $copy.log" >&2; exit 1; }
  rm -f "$copy.log"
  read -r u s <<<"$t"
  r=$(awk -v r="$runs" -v u="$u" -v s="$s" 'BEGIN { printf "%.0f", r / (u + s) }')
  echo "run $i: load $load, $runs runs, user $u s, sys $s s, $r execs per CPU second"
  rates+=("$r")
done
printf '%s\n' "${rates[@]}" | sort -n | awk '{ a[NR] = $1 } END { print "median " a[int((NR + 1) / 2)] }'
