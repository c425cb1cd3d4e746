#!/usr/bin/env bash
# The unit targets' rate goal as measured since the ninth session (docs/robustness.md): a
# 10,000-run session of FUZZER from a fresh copy of CORPUS in SCRATCH (a directory on the file
# system under test: /tmp is the disk, /dev/shm tmpfs), execs per CPU second = runs / (user +
# system, libFuzzer's process). Runs it N times (default 3) and prints each run and the median,
# with the load average before each run (the machine is shared: say it with the figure).
# Several fuzzers, comma-separated (two builds compared), run in turn, one run each per round,
# each from its own CORPUS when as many are given (comma-separated), else all from the one.
# Each copy is removed after its run; with KEEP_COPIES=1 only after the last run: on an ext4
# without a journal (this machine's /tmp) a creation passes over the inodes deleted in the last
# minutes, so removing a copy of a thousand files makes the next run's creations dearer
# (docs/robustness.md, twelfth session).
#   [KEEP_COPIES=1] tests/fuzz/frozen_rate.sh FUZZER[,FUZZER...] CORPUS[,CORPUS...] SCRATCH [N [EXTRA_FLAGS...]]
# e.g. tests/fuzz/frozen_rate.sh build/fuzz/fuzz_unit_modes build/fuzz/corpus/unit_long /tmp 3
set -u
[ $# -ge 3 ] || { echo "usage: $0 FUZZER[,FUZZER...] CORPUS[,CORPUS...] SCRATCH [N [EXTRA_FLAGS...]]" >&2; exit 2; }
IFS=, read -r -a fuzzers <<<"$1"
IFS=, read -r -a corpora <<<"$2"
scratch=$3 n=${4:-3}
shift 3; [ $# -gt 0 ] && shift
[ ${#corpora[@]} = 1 ] || [ ${#corpora[@]} = ${#fuzzers[@]} ] ||
  { echo "$0: ${#corpora[@]} corpora for ${#fuzzers[@]} fuzzers" >&2; exit 2; }
for i in "${!fuzzers[@]}"; do
  f=${fuzzers[$i]}
  [ -x "$f" ] || { echo "$0: $f: not an executable" >&2; exit 2; }
  fuzzers[$i]=$(cd "$(dirname "$f")" && pwd)/$(basename "$f")
done
for c in "${corpora[@]}"; do [ -d "$c" ] || { echo "$0: $c: not a directory" >&2; exit 2; }; done
[ -d "$scratch" ] && [ -w "$scratch" ] || { echo "$0: $scratch: not a writable directory" >&2; exit 2; }
declare -A rates=()
copies=()
trap 'rm -rf "${copies[@]}"' EXIT
for r in $(seq 1 "$n"); do
  for i in "${!fuzzers[@]}"; do
    fuzzer=${fuzzers[$i]} corpus=${corpora[0]}
    [ ${#corpora[@]} = 1 ] || corpus=${corpora[$i]}
    copy=$(mktemp -d -p "$scratch" frozen.XXXXXX)
    cp "$corpus"/* "$copy"/
    load=$(cut -d' ' -f1 /proc/loadavg)
    TIMEFORMAT='%U %S'
    t=$( { time "$fuzzer" -runs=10000 -seed=1 -max_len=1024 -entropic=0 -rss_limit_mb=1024 -timeout=30 \
          "$@" "$copy" >"$copy.log" 2>&1; } 2>&1 )
    rc=$?
    runs=$(grep -o 'Done [0-9]* runs' "$copy.log" | awk '{print $2}')
    if [ "${KEEP_COPIES:-0}" = 1 ]; then copies+=("$copy"); else rm -rf "$copy"; fi
    [ "$rc" = 0 ] && [ -n "$runs" ] || { echo "$0: $fuzzer run $r failed (exit $rc): $copy.log" >&2; exit 1; }
    rm -f "$copy.log"
    read -r u s <<<"$t"
    q=$(awk -v r="$runs" -v u="$u" -v s="$s" 'BEGIN { printf "%.0f", r / (u + s) }')
    echo "$fuzzer run $r: load $load, $runs runs, user $u s, sys $s s, $q execs per CPU second"
    rates[$i]="${rates[$i]:-} $q"
  done
done
for i in "${!fuzzers[@]}"; do
  printf '%s\n' ${rates[$i]} | sort -n | awk -v f="${fuzzers[$i]}" '{ a[NR] = $1 } END { print f ": median " a[int((NR + 1) / 2)] }'
done
