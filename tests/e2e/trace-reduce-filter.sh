#!/usr/bin/env bash
# test-timeout: 300
# The CPU's page filter (emu/cpu/cpu.h mt_page_filter, docs/metapaging.md "Recording speed"):
# `--trace-mode reduce` alone hands the filter only the accesses that change the page and the last
# steps of a settled alternation (interpreter_filtered); beside `--trace-all` it gets every access
# (the recorder wants them all).  Both must write the same reduce records, byte for byte, and
# differ only in the trailer (page changes heard against accesses): on several
# workloads, budgets (alternations skipped or not), kind sets (fetches filtered or not), with the
# cache timing model and with the online metapage simulation (both: interpreter_hooked with the
# filter), and under a timer-interrupt-free short run cut by --max-insns.
set -u
BUILD=${BUILD:-build} BIN=${BIN:-$BUILD/bin} FWBUILD=${FWBUILD:-build/firmware}
MTEMU=$BIN/mtemu
T=$(mktemp -d "${TMPDIR:-/tmp}/trace-reduce-filter.XXXXXX")
trap 'rm -rf "$T"' EXIT INT TERM

# same NAME ELF ARGS... : reduce alone against reduce beside --trace-all.  The cases go two at a
# time (tests/lib/jobs.sh), each in its own files under $T/NAME, their lines printed in order.
same() {
    local name=$1 elf=$2 T=$T/$1
    shift 2
    mkdir -p "$T"
    if ! "$MTEMU" -q -m 16M "$@" --trace-mode reduce --trace "$T/f.mtr" "$FWBUILD/$elf" >/dev/null 2>"$T/err"; then
        echo "FAIL $name (mtemu, filtered)"; cat "$T/err"; return 1
    fi
    if ! "$MTEMU" -q -m 16M "$@" --trace-mode reduce --trace "$T/u.mtr" --trace-all "$T/a.mtr" \
            "$FWBUILD/$elf" >/dev/null 2>"$T/err"; then
        echo "FAIL $name (mtemu, every access)"; cat "$T/err"; return 1
    fi
    # the records byte for byte (decoded with their cycles), and the trailers: the filtered run
    # can only say how many page changes it heard (trace.page_changes), the other the accesses
    "$BIN/metatrace" decode "$T/f.mtr" >"$T/f.txt" 2>&1
    "$BIN/metatrace" decode "$T/u.mtr" >"$T/u.txt" 2>&1
    if [ -s "$T/f.txt" ] && cmp -s "$T/f.txt" "$T/u.txt" &&
       "$BIN/metatrace" info "$T/f.mtr" 2>/dev/null | grep -q 'trailer: trace.page_changes=' &&
       "$BIN/metatrace" info "$T/u.mtr" 2>/dev/null | grep -q 'trailer: trace.accesses='; then
        echo "PASS $name ($(wc -l <"$T/f.txt") records identical)"
    else
        echo "FAIL $name (the filtered reduce trace differs from the every-access one)"
        diff "$T/f.txt" "$T/u.txt" | head -4
        return 1
    fi
}
# unit_session NAME: the guest programs the unit (rt-check's trace checks: a session with markers)
# while the reduce recorder runs.  The filtered run's listener changes with the unit's state (the
# recorder's own listener while the unit is idle, the device's while a session or a register write
# is pending, emu/trace/tracedev.c recorder_alone): the reduce records must be those of the
# every-access run, and the unit must sample the same accesses in both.
unit_session() {
    local name=$1 T=$T/$1
    mkdir -p "$T"
    local args=(-q -m 16M --append "mem=16M trace=1" --trace-mode reduce --trace-reduce-budget 16K --stats)
    if ! "$MTEMU" "${args[@]}" --trace "$T/f.mtr" "$FWBUILD/rt-check.elf" >"$T/f.out" 2>"$T/f.err" ||
       ! "$MTEMU" "${args[@]}" --trace "$T/u.mtr" --trace-all "$T/a.mtr" "$FWBUILD/rt-check.elf" >"$T/u.out" 2>"$T/u.err"; then
        echo "FAIL $name (mtemu)"; cat "$T/f.err" "$T/u.err"; return 1
    fi
    "$BIN/metatrace" decode "$T/f.mtr" >"$T/f.txt" 2>&1
    "$BIN/metatrace" decode "$T/u.mtr" >"$T/u.txt" 2>&1
    grep -E '^trace\.(samples|accesses) ' "$T/f.err" >"$T/f.unit"
    grep -E '^trace\.(samples|accesses) ' "$T/u.err" >"$T/u.unit"
    if grep -q 'result rt-check failures=0' "$T/f.out" && grep -q '^trace.samples [1-9]' "$T/f.unit" &&
       [ -s "$T/f.txt" ] && cmp -s "$T/f.txt" "$T/u.txt" && cmp -s "$T/f.unit" "$T/u.unit"; then
        echo "PASS $name ($(wc -l <"$T/f.txt") records identical, $(head -1 "$T/f.unit"))"
    else
        echo "FAIL $name (records or the unit's samples differ, or the guest's session failed)"
        diff "$T/f.txt" "$T/u.txt" | head -4; diff "$T/f.unit" "$T/u.unit"; tail -2 "$T/f.out"
        return 1
    fi
}
. "$(dirname "$0")/../lib/jobs.sh"
jobs_begin
job same trace-reduce-filter-wss wss.elf --append "min=64K max=512K iters=1" --trace-reduce-budget 64K
job same trace-reduce-filter-wss-4k wss.elf --append "min=64K max=256K iters=1" --trace-reduce-budget 4K
job same trace-reduce-filter-random random.elf --append "size=512K iters=1" --trace-reduce-budget 128K
job same trace-reduce-filter-pchase pchase.elf --append "size=256K stride=64" --trace-reduce-budget 8K
job same trace-reduce-filter-qsort qsort.elf --max-insns 3000000 --trace-reduce-budget 16K
job same trace-reduce-filter-matmul matmul.elf --max-insns 3000000
job same trace-reduce-filter-loadstore wss.elf --append "min=64K max=512K iters=1" --trace-kinds load,store \
    --trace-reduce-budget 64K
job same trace-reduce-filter-cache random.elf --append "size=256K iters=1" --timing=cache --trace-reduce-budget 64K
job same trace-reduce-filter-metapage-sim seq.elf --append "size=256K iters=1" --metapage-sim 4K:64K \
    --trace-reduce-budget 64K
job same trace-reduce-filter-pager wss.elf --append "min=64K max=512K iters=1" --metapage-budget 256K \
    --trace-reduce-budget 64K
job same trace-reduce-filter-pager-timed wss.elf --append "min=64K max=512K iters=1" --metapage-budget 256K \
    --metapage-fault-cycles 1000 --trace-reduce-budget 64K
job unit_session trace-reduce-filter-unit-session
jobs_end
