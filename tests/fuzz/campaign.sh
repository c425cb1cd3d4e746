#!/usr/bin/env bash
# A long fuzz campaign: the targets named on the command line (TARGET:SECONDS ...), one process
# at a time (one core: the machine's other users keep the rest), at normal priority, each
# growing its own corpus in $BUILD/fuzz/campaign/corpus/<target>/ (kept between runs and
# campaigns, out of the tree; started from run.sh's seeds and tests/fuzz/regress/<target>/).
# Appends one line per run to $BUILD/fuzz/campaign/results: start time, target, seconds, runs,
# CPU seconds (user + system), runs per CPU second, exit status. A crash leaves its input in
# $BUILD/fuzz/campaign/crash/ and the campaign goes on with the next target (exit 1 at the end).
# The seeds are run.sh's (FUZZ_TARGETS=" " tests/fuzz/run.sh builds them alone; done here if missing).
# Each run works on a copy of its corpus in tmpfs (FUZZ_SCRATCH, default /dev/shm when writable):
# libFuzzer writes every input it keeps and every reduction as a new file in the corpus directory
# and deletes the one it replaced, and creating files where many were lately deleted cost a
# run on this machine's ext4 (no journal) up to its user time again in system time
# (docs/robustness.md, eleventh session). The run's new inputs are copied back at its end (the
# names are the inputs' SHA-1s: a name present in both is the same input), those it replaced
# removed; a run that dies leaves the corpus as it was. Only in memory: a FUZZ_SCRATCH (or a
# TMPDIR without /dev/shm) on a disk gains nothing from the copy, which there creates every
# input twice more (the copy, the copy back) and, removed, leaves its inodes lately deleted, what
# makes the next creations dear: then the run works on the kept corpus itself (twelfth
# session). -reload=0: libFuzzer rereads its corpus
# directory every second for inputs other processes put there (parallel jobs sharing one), and at
# the first reread runs again every input it had left out at the start (those adding no feature):
# 12 % of a 10,000-run session from a saturated corpus; a campaign's process has its corpus alone.
# Example: tests/fuzz/campaign.sh elf:600 dt:600 import:300 gdb:300
set -u
BUILD=${BUILD:-build}
fz=$(cd "$BUILD/fuzz" && pwd)
camp=$fz/campaign
mkdir -p "$camp/corpus" "$camp/crash" "$camp/logs"
[ -d "$fz/corpus" ] || FUZZ_TARGETS=" " BUILD=$BUILD tests/fuzz/run.sh >/dev/null
scratch=${FUZZ_SCRATCH:-}
if [ -z "$scratch" ]; then
  if [ -d /dev/shm ] && [ -w /dev/shm ]; then scratch=/dev/shm; else scratch=${TMPDIR:-/tmp}; fi
fi
# sync_back FROM TO: TO gets FROM's files it lacks and loses those FROM lacks
sync_back() {
  local f
  for f in "$1"/*; do [ -e "$f" ] && [ ! -e "$2/${f##*/}" ] && cp "$f" "$2/"; done
  for f in "$2"/*; do [ -e "$f" ] && [ ! -e "$1/${f##*/}" ] && rm -f "$f"; done
  return 0
}
# in_memory DIR: DIR is on a tmpfs (or ramfs), where a file's creation costs no inode search
in_memory() {
  case $(stat -f -c %T "$1" 2>/dev/null) in tmpfs | ramfs) return 0 ;; *) return 1 ;; esac
}
status=0
live= work=
# stopped by a signal: nothing left in tmpfs, the run's new inputs not kept (a terminal's Ctrl-C
# reaches libFuzzer too, which stops on its own: its run is then kept as any other)
trap 'rm -rf ${live:+"$live"} ${work:+"$work"}; exit 130' INT TERM
for item in "$@"; do
  t=${item%%:*}
  secs=${item#*:}
  bin=$fz/fuzz_$t
  [ -x "$bin" ] || { echo "campaign: $bin: not built" >&2; status=1; continue; }
  corpus=$camp/corpus/$t
  if [ ! -d "$corpus" ]; then
    mkdir -p "$corpus"
    cp "$fz/corpus/$t"/* "$corpus"/
    [ -d "tests/fuzz/regress/$t" ] && cp "tests/fuzz/regress/$t"/* "$corpus"/
  fi
  case $t in dec) opts=-max_len=1024 ;; unit | unit_modes | unit_long) opts="-max_len=1024 -entropic=0" ;; elf) opts=-max_len=24576 ;; *) opts= ;; esac # as run.sh
  start=$(date -u +%FT%TZ)
  log=$camp/logs/$t.$(date -u +%Y%m%d%H%M%S)
  work=$(mktemp -d) # the whole-program targets' relative paths
  live= dir=$corpus
  if in_memory "$scratch"; then
    live=$(mktemp -d -p "$scratch" "campaign-$t.XXXXXX") || { echo "campaign: $scratch: no scratch directory" >&2; status=1; continue; }
    cp "$corpus"/* "$live"/
    dir=$live
  fi
  TIMEFORMAT='%U %S'
  { time (cd "$work" && "$bin" -max_total_time="$secs" -rss_limit_mb=1024 -timeout=30 -reload=0 $opts \
      -artifact_prefix="$camp/crash/$t-" -print_final_stats=1 "$dir" >"$log" 2>&1); } 2>"$log.cpu"
  rc=$(grep -q 'stat::number_of_executed_units' "$log" && ! ls "$camp/crash/$t-"* >/dev/null 2>&1 && echo 0 || echo 1)
  if [ -n "$live" ]; then sync_back "$live" "$corpus"; rm -rf "$live"; fi
  rm -rf "$work"
  live=
  runs=$(grep -o 'stat::number_of_executed_units: [0-9]*' "$log" | awk '{print $2}')
  [ -n "$runs" ] || runs=$(grep -o '^#[0-9]*' "$log" | tail -1 | tr -d '#')
  cpu=$(awk '{print $1 + $2}' "$log.cpu")
  rate=$(awk -v r="${runs:-0}" -v c="$cpu" 'BEGIN { printf "%.0f", (c > 0 ? r / c : 0) }')
  echo "$start $t ${secs}s runs=${runs:-0} cpu=${cpu}s per_cpu_s=$rate status=$rc" | tee -a "$camp/results"
  [ "$rc" = 0 ] || status=1
done
exit $status
