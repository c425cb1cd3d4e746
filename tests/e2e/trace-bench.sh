#!/bin/sh
# make bench step: the cost of tracing in mtemu, as MIPS ratios against the same workload without
# tracing measured in the same run (best of 3 each, to damp a shared machine):
#   default rates over a whole burst+span period (1:10, scaled to 1 ms / 10 ms),
#   inside a burst (r = 24: the first emulated second of any run), --trace-all (every access),
#   --trace-unit=both (model + RTL in lockstep; a smaller run: the RTL clocks every cycle).
set -eu
BIN=${BIN:-build/bin} FWBUILD=${FWBUILD:-build/firmware}
T=$(mktemp -d "${TMPDIR:-/tmp}/trace-bench.XXXXXX")
trap 'rm -rf "$T"' EXIT INT TERM
mips() { # best MIPS of 3 runs of: ARGS...
    best=0
    for i in 1 2 3; do
        m=$("$BIN/mtemu" -q --stats "$@" 2>&1 >/dev/null | awk '$1 == "MIPS" { print $2 }')
        best=$(awk -v a="$best" -v b="$m" 'BEGIN { print (b > a ? b : a) }')
    done
    echo "$best"
}
base=$(mips -m 256M --append "min=512K max=16M" "$FWBUILD/wss.elf")
period=$(mips --trace "$T/p.mtr" --trace-len-h 1ms --trace-len-l 10ms -m 256M --append "min=512K max=16M" "$FWBUILD/wss.elf")
burst=$(mips --trace "$T/b.mtr" -m 256M --append "min=512K max=16M" "$FWBUILD/wss.elf")
all=$(mips --trace-all "$T/a.mtr" --trace-all-kinds load,store -m 256M --append "min=512K max=16M" "$FWBUILD/wss.elf")
small=$(mips -m 64M --append "size=256K iters=1" "$FWBUILD/seq.elf")
both=$(mips --trace "$T/l.mtr" --trace-unit=both -m 64M --append "size=256K iters=1" "$FWBUILD/seq.elf")
awk -v b="$base" -v p="$period" -v u="$burst" -v a="$all" -v s="$small" -v l="$both" 'BEGIN {
    printf "trace-bench: wss 512K..16M without tracing %.1f MIPS\n", b
    printf "  --trace, default rates over a burst+span period  %6.1f MIPS  %.2fx of untraced\n", p, p / b
    printf "  --trace, inside a burst (r = 24)                 %6.1f MIPS  %.2fx\n", u, u / b
    printf "  --trace-all load,store (every access)            %6.1f MIPS  %.2fx\n", a, a / b
    printf "  --trace-unit=both (seq 256K; untraced %.1f MIPS)  %6.1f MIPS  %.3fx\n", s, l, l / s }'
