#!/bin/sh
# test-timeout: 300
# The CPU's page filter (emu/cpu/cpu.h mt_page_filter, docs/metapaging.md "Recording speed"):
# `--trace-mode reduce` alone hands the filter only the accesses that change the page and the last
# steps of a settled alternation (interpreter_filtered); beside `--trace-all` it gets every access
# (the recorder wants them all).  Both must write the same reduce trace, byte for byte: on several
# workloads, budgets (alternations skipped or not), kind sets (fetches filtered or not), with the
# cache timing model and with the online metapage simulation (both: interpreter_hooked with the
# filter), and under a timer-interrupt-free short run cut by --max-insns.
set -u
BUILD=${BUILD:-build} BIN=${BIN:-$BUILD/bin} FWBUILD=${FWBUILD:-build/firmware}
MTEMU=$BIN/mtemu
T=$(mktemp -d "${TMPDIR:-/tmp}/trace-reduce-filter.XXXXXX")
trap 'rm -rf "$T"' EXIT INT TERM

# same NAME ELF ARGS... : reduce alone against reduce beside --trace-all
same() {
    name=$1 elf=$2
    shift 2
    if ! "$MTEMU" -q -m 16M "$@" --trace-mode reduce --trace "$T/f.mtr" "$FWBUILD/$elf" >/dev/null 2>"$T/err"; then
        echo "FAIL $name (mtemu, filtered)"; cat "$T/err"; return
    fi
    if ! "$MTEMU" -q -m 16M "$@" --trace-mode reduce --trace "$T/u.mtr" --trace-all "$T/a.mtr" \
            "$FWBUILD/$elf" >/dev/null 2>"$T/err"; then
        echo "FAIL $name (mtemu, every access)"; cat "$T/err"; return
    fi
    if cmp -s "$T/f.mtr" "$T/u.mtr"; then
        echo "PASS $name ($(stat -c %s "$T/f.mtr") bytes identical)"
    else
        echo "FAIL $name (the filtered reduce trace differs from the every-access one)"
        cmp "$T/f.mtr" "$T/u.mtr" | head -2
    fi
}
same trace-reduce-filter-wss wss.elf --append "min=64K max=512K iters=1" --trace-reduce-budget 64K
same trace-reduce-filter-wss-4k wss.elf --append "min=64K max=256K iters=1" --trace-reduce-budget 4K
same trace-reduce-filter-random random.elf --append "size=512K iters=1" --trace-reduce-budget 128K
same trace-reduce-filter-pchase pchase.elf --append "size=256K stride=64" --trace-reduce-budget 8K
same trace-reduce-filter-qsort qsort.elf --max-insns 3000000 --trace-reduce-budget 16K
same trace-reduce-filter-matmul matmul.elf --max-insns 3000000
same trace-reduce-filter-loadstore wss.elf --append "min=64K max=512K iters=1" --trace-kinds load,store \
    --trace-reduce-budget 64K
same trace-reduce-filter-cache random.elf --append "size=256K iters=1" --timing=cache --trace-reduce-budget 64K
same trace-reduce-filter-metapage-sim seq.elf --append "size=256K iters=1" --metapage-sim 4K:64K \
    --trace-reduce-budget 64K
same trace-reduce-filter-pager wss.elf --append "min=64K max=512K iters=1" --metapage-budget 256K \
    --trace-reduce-budget 64K
same trace-reduce-filter-pager-timed wss.elf --append "min=64K max=512K iters=1" --metapage-budget 256K \
    --metapage-fault-cycles 1000 --trace-reduce-budget 64K
